"""Assotsiativ eslash (ingl. *associative recall*): attention kalitni mazmuni boʻyicha topadi.

Har namunada ``juftlar`` ta «kalit → qiymat» jufti va bitta soʻralgan kalit bor; javob — shu
kalitning qiymati.  Kalitlar namuna ichida har xil, javob turgan juft esa har namunada
tasodifiy tanlanadi, shuning uchun uni pozitsiya boʻyicha emas, faqat mazmuni boʻyicha topish
mumkin.  ``Eslash`` — bitta attention qatlami: soʻrov soʻralgan kalitdan, kalit va qiymatlar
juftlardan olinadi (har juftning kaliti va qiymati bitta tokenda, ularning embeddinglari
yigʻindisi).  ``mazmunsiz=True`` — nazorat: ballar faqat juftning oʻrniga bogʻliq, mazmunga
emas.  ``oqit_eslash`` oʻqitadi (omborda saqlanadi, qisqa protokolda qisqartiriladi).
"""

from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F

from chapter_code.ombor import saqlanadi
from chapter_code.qisqa import qisqartiriladi


def eslash_vazifasi(n, juftlar=8, kalitlar=16, qiymatlar=16, seed=0):
    """``n`` ta namuna: (kalitlar, qiymatlar, soʻralgan kalit, javob, javobning oʻrni).

    Shakllar: (n, juftlar), (n, juftlar), (n,), (n,), (n,)."""
    if not 1 <= juftlar <= kalitlar:
        raise ValueError(f"juftlar soni 1 dan kalitlar soniga ({kalitlar}) gacha boʻlishi "
                         f"kerak (kalitlar namuna ichida har xil), berilgani: {juftlar}")
    g = torch.Generator().manual_seed(seed)
    k = torch.stack([torch.randperm(kalitlar, generator=g)[:juftlar] for _ in range(n)])
    v = torch.randint(qiymatlar, (n, juftlar), generator=g)
    joy = torch.randint(juftlar, (n,), generator=g)
    i = torch.arange(n)
    return k, v, k[i, joy], v[i, joy], joy


def tasodifiy_daraja(juftlar=8, kalitlar=16, n=1000, seed=2):
    """Soʻralgan kalitni koʻrmaydigan modelning eng yaxshi aniqligi (``oqit_eslash`` ning sinov
    namunalarida, seed 2): har namunada eng koʻp uchragan qiymatning juftlardagi ulushi,
    oʻrtacha."""
    _, v, _, _, _ = eslash_vazifasi(n, juftlar, kalitlar, seed=seed)
    return sum(torch.bincount(q).max().item() for q in v) / v.numel()


class Eslash(nn.Module):
    """Bitta attention qatlami assotsiativ eslash uchun (modul tavsifiga qarang)."""

    def __init__(self, kalitlar=16, qiymatlar=16, juftlar=8, d=32, mazmunsiz=False):
        super().__init__()
        self.k_emb = nn.Embedding(kalitlar, d)
        self.v_emb = nn.Embedding(qiymatlar, d)
        self.q, self.k, self.v = (nn.Linear(d, d, bias=False) for _ in range(3))
        self.chiqish = nn.Linear(d, qiymatlar)
        self.mazmunsiz = mazmunsiz
        # nazorat modelining ballari: har juft oʻrniga bitta son
        self.poz_ball = nn.Parameter(torch.zeros(juftlar))

    def forward(self, k, v, q):
        # har juft bitta token: kalit va qiymat embeddinglari
        # yigʻindisi, (batch, juftlar, d); soʻrov (batch, 1, d)
        juft = self.k_emb(k) + self.v_emb(v)
        soz = self.k_emb(q)[:, None]
        if self.mazmunsiz:
            # nazorat: ball faqat juftning oʻrniga bogʻliq
            ball = self.poz_ball.expand(len(k), 1, -1)
        else:
            # (batch, 1, d) @ (batch, d, juftlar)
            # -> (batch, 1, juftlar)
            ball = self.q(soz) @ self.k(juft).transpose(1, 2)
            ball = ball / juft.shape[-1] ** 0.5
        self.ogirlik = torch.softmax(ball, -1)
        # (batch, 1, juftlar) @ (batch, juftlar, d) -> (batch, d)
        chiqish = (self.ogirlik @ self.v(juft))[:, 0]
        return self.chiqish(chiqish)


def _yozuv(natija):
    aniqlik, ulush, model = natija
    return {"aniqlik": aniqlik, "ulush": ulush, "vaznlar": model.state_dict(),
            "mazmunsiz": model.mazmunsiz, "juftlar": model.poz_ball.numel(),
            "kalitlar": model.k_emb.num_embeddings}


def _model(yozuv, *_, **__):
    model = Eslash(kalitlar=yozuv["kalitlar"], juftlar=yozuv["juftlar"],
                   mazmunsiz=yozuv["mazmunsiz"])
    model.load_state_dict(yozuv["vaznlar"])
    return yozuv["aniqlik"], yozuv["ulush"], model.eval()


@saqlanadi(_yozuv, _model)
@qisqartiriladi(qadamlar=20, n_sinov=100)
def oqit_eslash(seed, mazmunsiz=False, juftlar=8, kalitlar=16, qadamlar=400, batch=64,
                lr=0.003, n_sinov=1000):
    """``Eslash`` modelini oʻqitadi: (sinov aniqligi, javob turgan juftga tushgan oʻrtacha
    ogʻirlik, model) qaytaradi.  Oʻqitish va sinov namunalari har seedda bir xil (seed 1 va
    2 bilan yaratiladi); seed boshlangʻich parametrlarni va paketlarni belgilaydi."""
    torch.manual_seed(seed)
    k, v, q, y, _ = eslash_vazifasi(qadamlar * batch // 4, juftlar, kalitlar, seed=1)
    m = Eslash(kalitlar, juftlar=juftlar, mazmunsiz=mazmunsiz)
    opt = torch.optim.Adam(m.parameters(), lr=lr)
    tasodif = torch.Generator().manual_seed(seed)
    for _ in range(qadamlar):
        b = torch.randint(len(y), (batch,), generator=tasodif)
        opt.zero_grad()
        F.cross_entropy(m(k[b], v[b], q[b]), y[b]).backward()
        opt.step()
    m.eval()
    kt, vt, qt, yt, joy = eslash_vazifasi(n_sinov, juftlar, kalitlar, seed=2)
    with torch.no_grad():
        aniqlik = (m(kt, vt, qt).argmax(1) == yt).sum().item() / n_sinov
        ulush = m.ogirlik[torch.arange(n_sinov), 0, joy].mean().item()
    return aniqlik, ulush, m
