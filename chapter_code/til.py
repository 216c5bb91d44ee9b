"""Oʻzbekcha yozadigan kichik til modeli: matn, tokenlar, oʻqitish va namuna olish.

«Attention oʻzbekcha yozadi» darsining umumiy kodi.  Matn — ``korpus.txt``: bobning oʻz
nasri, bitta commitdagi holatida muzlatilgan (``tools/korpus.py`` uni qayta yozadi), shuning
uchun darslardagi matn tahriri modelni qayta oʻqitmaydi.  Oʻqitish ``chapter_code.ombor``
orqali saqlanadi: kaliti — kod, argumentlar va korpusning xeshi (``KORPUS_IZI``).

Belgilar: oʻ, gʻ (katta harfi bilan ham) oʻzbek alifbosidagidek bitta harf, ʼ (tutuq belgisi)
ham alohida belgi.  BPE shu harflardan boshlaydi va birlashmalarni soʻz ichida oʻrganadi;
soʻz oldidagi boʻshliq soʻzga qoʻshiladi (``" kesh"``), shuning uchun matn tokenlardan aynan
tiklanadi.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import math
import re
import time

import torch
import torch.nn as nn

from chapter_code import ILDIZ
from chapter_code.modellar import KichikGPT
from chapter_code.ombor import olchov, saqlanadi
from chapter_code.qisqa import qisqartiriladi

KORPUS = ILDIZ / "chapter_code" / "korpus.txt"
#: The corpus's SHA-256: the trainings' key holds it (a default argument), so a new corpus retrains.
KORPUS_IZI = hashlib.sha256(KORPUS.read_bytes()).hexdigest()[:16]

# oʻ, gʻ (and their capitals, with ʻ U+02BB) are one letter; any other character is one symbol
_HARF = re.compile(r"[OoGg]ʻ|.", re.S)
# a word with the space before it; a run of digits; one other character; a line break
_BOLAK = re.compile(r" ?[^\W\d_]+| ?\d+| ?\S|\s", re.S)
# the words of a text: letters only (oʻ, gʻ and ʼ included: ʻ and ʼ are letters to Python)
_SOZ = re.compile(r"[^\W\d_]+")


def korpus() -> str:
    return KORPUS.read_text(encoding="utf-8")


def ajrat(matn: str, har: int = 10) -> tuple[str, str]:
    """Oʻqitish va tekshirish matni: har ``har`` -chi qator (paragraf) tekshirishga, qolgani
    oʻqitishga.  (Oxirgi oʻndan birini olsak, tekshirish matni faqat atamalar lugʻati boʻlardi.)"""
    qatorlar = matn.splitlines(keepends=True)
    return ("".join(q for i, q in enumerate(qatorlar) if i % har != har - 1),
            "".join(q for i, q in enumerate(qatorlar) if i % har == har - 1))


def harflar(matn: str) -> list[str]:
    """Matnning harflari: oʻ va gʻ — bitta harf."""
    return _HARF.findall(matn)


def sozlar(matn: str) -> list[str]:
    """Matndagi soʻzlar, kichik harflarda."""
    return _SOZ.findall(matn.lower())


def bpe_oqit(matn: str, birlashmalar: int) -> list[tuple[str, str]]:
    """BPE: ``birlashmalar`` ta birlashma, tartibi bilan.  Har qadamda matndagi eng koʻp
    uchraydigan qoʻshni juft bitta tokenga birlashadi (teng boʻlsa — Python tartibida birinchisi);
    juftlar faqat bitta boʻlak (boʻshliqli soʻz) ichida sanaladi."""
    sanoq = collections.Counter(_BOLAK.findall(matn))
    boluklar = {b: harflar(b) for b in sanoq}
    juftlar: collections.Counter = collections.Counter()
    qayerda = collections.defaultdict(set)          # a pair -> the pieces it is in
    for b, s in boluklar.items():
        for juft in zip(s, s[1:]):
            juftlar[juft] += sanoq[b]
            qayerda[juft].add(b)
    natija = []
    for _ in range(birlashmalar):
        juftlar = +juftlar                           # pairs no piece has any more: out
        if not juftlar:
            break
        eng = min(juftlar, key=lambda j: (-juftlar[j], j))
        natija.append(eng)
        for b in sorted(qayerda.pop(eng)):
            eski = boluklar[b]
            for juft in zip(eski, eski[1:]):
                juftlar[juft] -= sanoq[b]
            yangi = boluklar[b] = _birlashtir(eski, eng)
            for juft in zip(yangi, yangi[1:]):
                juftlar[juft] += sanoq[b]
                qayerda[juft].add(b)
    return natija


def _birlashtir(belgilar: list[str], juft: tuple[str, str]) -> list[str]:
    chiqish, i = [], 0
    while i < len(belgilar):
        if i + 1 < len(belgilar) and (belgilar[i], belgilar[i + 1]) == juft:
            chiqish.append(belgilar[i] + belgilar[i + 1])
            i += 2
        else:
            chiqish.append(belgilar[i])
            i += 1
    return chiqish


class Tokenlovchi:
    """Matn ⇄ token indekslari.  ``birlashmalar`` boʻsh boʻlsa — harf darajasida."""

    def __init__(self, matn: str, birlashmalar=()):
        self.birlashmalar = [tuple(j) for j in birlashmalar]
        self._daraja = {j: i for i, j in enumerate(self.birlashmalar)}
        tokenlar = sorted(set(harflar(matn))) + ["".join(j) for j in self.birlashmalar]
        self.lugat = list(dict.fromkeys(tokenlar))
        self._indeks = {t: i for i, t in enumerate(self.lugat)}
        self._kesh: dict[str, list[str]] = {}

    def __len__(self) -> int:
        return len(self.lugat)

    def _bolak(self, b: str) -> list[str]:
        if b not in self._kesh:
            s = harflar(b)
            while len(s) > 1:       # the earliest merge first, as training made them
                juftlar = [(self._daraja.get(j, math.inf), j) for j in zip(s, s[1:])]
                daraja, juft = min(juftlar)
                if daraja == math.inf:
                    break
                s = _birlashtir(s, juft)
            self._kesh[b] = s
        return self._kesh[b]

    def tokenlar(self, matn: str) -> list[str]:
        return [t for b in _BOLAK.findall(matn) for t in self._bolak(b)]

    def kodla(self, matn: str) -> list[int]:
        try:
            return [self._indeks[t] for t in self.tokenlar(matn)]
        except KeyError as xato:
            raise ValueError(f"{xato.args[0]!r} is not in the vocabulary (a symbol the corpus never "
                             "has); use the corpus's symbols") from None

    def dekodla(self, indekslar) -> str:
        return "".join(self.lugat[int(i)] for i in indekslar)


@saqlanadi(lambda b: [list(j) for j in b], lambda yozuv, *a, **k: [tuple(j) for j in yozuv])
def bpe_birlashmalari(birlashmalar: int, korpus_izi=KORPUS_IZI) -> list[tuple[str, str]]:
    """Korpusning oʻqitish qismida oʻrganilgan ``birlashmalar`` ta BPE birlashmasi (omborda)."""
    del korpus_izi      # in the key only
    return bpe_oqit(ajrat(korpus())[0], birlashmalar)


@functools.lru_cache(maxsize=8)       # one per process: its words' tokens are kept in it
def tokenlovchi(birlik: str, birlashmalar: int = 0) -> Tokenlovchi:
    """``birlik`` — "harf" yoki "bpe" (``birlashmalar`` ta birlashma, oʻqitish matnida oʻrganilgan)."""
    if birlik not in ("harf", "bpe"):
        raise ValueError(f"birlik={birlik!r}: the unit is 'harf' (letters) or 'bpe'")
    return Tokenlovchi(korpus(), bpe_birlashmalari(birlashmalar) if birlik == "bpe" else ())


def _baza_sanoqlari(oqish: str, tekshir: str):
    h_o, h_t = harflar(oqish), harflar(tekshir)
    alifbo = sorted(set(h_o) | set(h_t))
    return h_o, h_t, alifbo


def unigram_bigram(oqish: str, tekshir: str) -> tuple[float, float]:
    """Tekshirish matnida bir harfga oʻrtacha yoʻqotish (nat): harflar chastotasi (unigram) va
    oldingi harfga qarab keyingisining chastotasi (bigram), ikkalasi ham oʻqitish matnidan,
    har sanoqqa 1 qoʻshib (koʻrilmagan harf ham nol boʻlmagan ehtimol oladi)."""
    h_o, h_t, alifbo = _baza_sanoqlari(oqish, tekshir)
    V = len(alifbo)
    bir = collections.Counter(h_o)
    ikki = collections.Counter(zip(h_o, h_o[1:]))
    uni = -sum(math.log((bir[c] + 1) / (len(h_o) + V)) for c in h_t) / len(h_t)
    bi = -sum(math.log((ikki[(a, b)] + 1) / (bir[a] + V)) for a, b in zip(h_t, h_t[1:])) / (len(h_t) - 1)
    return uni, bi


# --------------------------------------------------------------------------
# training
# --------------------------------------------------------------------------
def _yozuv(natija):
    egri, model = natija
    return {"egri": egri, "vaznlar": model.state_dict()}


def _tikla(yozuv, birlik, birlashmalar=0, *_, d=64, boshlar=4, qatlamlar=2, T=64, **__):
    model = KichikGPT(len(tokenlovchi(birlik, birlashmalar)), d=d, boshlar=boshlar,
                      qatlamlar=qatlamlar, T_max=T)
    model.load_state_dict(yozuv["vaznlar"])
    return yozuv["egri"], model.eval()


@saqlanadi(_yozuv, _tikla)
@qisqartiriladi(qadamlar=10, har=5)
def til_oqit(birlik, birlashmalar=0, seed=0, qadamlar=600, har=50, d=64, boshlar=4,
             qatlamlar=2, T=64, batch=32, lr=3e-3, korpus_izi=KORPUS_IZI):
    """``KichikGPT`` ni korpusning oʻqitish qismida ``qadamlar`` qadam oʻqitadi (AdamW, kosinus
    boʻyicha kamayadigan qadam uzunligi).  Har ``har`` qadamda tekshirish matnidagi yoʻqotish
    bir harfga (nat) hisoblanadi.  (egri chiziq, model) qaytaradi; egri chiziq —
    [(qadam, bir harfga yoʻqotish), ...]."""
    del korpus_izi      # in the key only: the corpus the trainings read
    tok = tokenlovchi(birlik, birlashmalar)
    oqish, tekshir = ajrat(korpus())
    x_o = torch.tensor(tok.kodla(oqish))
    x_t = torch.tensor(tok.kodla(tekshir))
    harf_t = len(harflar(tekshir))
    torch.manual_seed(seed)
    model = KichikGPT(len(tok), d=d, boshlar=boshlar, qatlamlar=qatlamlar, T_max=T)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.1)
    jadval = torch.optim.lr_scheduler.CosineAnnealingLR(opt, qadamlar)
    tasodif = torch.Generator().manual_seed(seed)
    krit = nn.CrossEntropyLoss()
    egri = [(0, tekshir_yoqotishi(model, x_t, T) * len(x_t) / harf_t)]
    for qadam in range(1, qadamlar + 1):
        model.train()
        boshlar_ = torch.randint(len(x_o) - T - 1, (batch,), generator=tasodif)
        x = torch.stack([x_o[b : b + T] for b in boshlar_])
        y = torch.stack([x_o[b + 1 : b + T + 1] for b in boshlar_])
        opt.zero_grad()
        krit(model(x).flatten(0, 1), y.flatten()).backward()
        opt.step()
        jadval.step()
        if qadam % har == 0 or qadam == qadamlar:
            egri.append((qadam, tekshir_yoqotishi(model, x_t, T) * len(x_t) / harf_t))
    return egri, model.eval()


def tekshir_yoqotishi(model, x: torch.Tensor, T: int) -> float:
    """Matnda bir tokenga oʻrtacha yoʻqotish (nat): matn ketma-ket ``T`` tokenli boʻlaklarga
    boʻlinadi (oxirgi toʻliq boʻlmagani tashlanmaydi); toʻliq boʻlaklar bitta paketda."""
    model.eval()
    toliq = (len(x) - 1) // T * T
    bolaklar = [(x[:toliq].view(-1, T), x[1 : toliq + 1].view(-1, T))]
    if toliq < len(x) - 1:
        bolaklar.append((x[toliq:-1][None], x[toliq + 1 :][None]))
    jami = 0.0
    with torch.no_grad():
        for kirish, keyingi in bolaklar:
            if len(kirish):
                logit = model(kirish)
                jami += nn.functional.cross_entropy(logit.flatten(0, 1), keyingi.flatten(),
                                                    reduction="sum").item()
    return jami / (len(x) - 1)


# --------------------------------------------------------------------------
# sampling
# --------------------------------------------------------------------------
def keyingi(logit: torch.Tensor, harorat: float | None, top_k: int | None,
            tasodif: torch.Generator) -> torch.Tensor:
    """Oxirgi pozitsiya logitlaridan keyingi token: ``harorat`` None — ochkoʻz tanlash (eng
    katta logit); aks holda softmax(logit / harorat) dan tasodifiy, ``top_k`` berilsa — faqat
    eng katta k tasi orasidan."""
    if harorat is None:
        return logit.argmax(-1)
    logit = logit / harorat
    if top_k is not None:
        chegara = logit.topk(top_k, dim=-1).values[..., -1:]
        logit = logit.masked_fill(logit < chegara, -math.inf)
    return torch.multinomial(logit.softmax(-1), 1, generator=tasodif)[..., 0]


def yarat(model, boshi: torch.Tensor, n: int, harorat=None, top_k=None, seed=0,
          kesh=False, tanlash=keyingi) -> torch.Tensor:
    """``boshi`` (batch, t) tokenlaridan keyin ``n`` ta token.  Kontekst modelning ``T_max``
    idan uzun boʻlsa, oxirgi ``T_max`` tokeni olinadi (kesh bunda ishlatilmaydi: pozitsiyalar
    boshidan sanaladi).  ``kesh=True`` — KV kesh bilan (matn ``T_max`` dan oshmasligi kerak)."""
    T_max = model.poz.shape[0]
    if kesh and boshi.shape[1] + n > T_max:
        raise ValueError(f"with the cache the text must fit in T_max={T_max}: "
                         f"{boshi.shape[1]} + {n} tokens; take n <= {T_max - boshi.shape[1]}")
    tasodif = torch.Generator().manual_seed(seed)
    idx, keshlar = boshi, ([{} for _ in model.bloklar] if kesh else None)
    kirish = idx
    with torch.no_grad():
        for _ in range(n):
            logit = model(kirish[:, -T_max:], keshlar)[:, -1]
            t = tanlash(logit, harorat, top_k, tasodif)
            idx = torch.cat([idx, t[:, None]], 1)
            kirish = t[:, None] if kesh else idx
    return idx


def soz_ulushi(matnlar: list[str], lugat: set[str]) -> tuple[float, int]:
    """Matnlardagi soʻzlarning qancha qismi ``lugat`` da bor va soʻzlar soni."""
    hammasi = [s for m in matnlar for s in sozlar(m)]
    return sum(s in lugat for s in hammasi) / max(1, len(hammasi)), len(hammasi)


@qisqartiriladi(n=4)
def boshlanishlar(n: int = 28) -> list[str]:
    """``n`` ta namunaning boshi: tekshirish matnidagi birinchi ``n`` ta paragrafning (sarlavha
    emas: 40 belgidan uzun) dastlabki ikki soʻzi — hammasi har xil."""
    qatorlar = [q for q in ajrat(korpus())[1].splitlines() if len(q) > 40][:n]
    if len(qatorlar) < n:
        raise ValueError(f"the held-out text has {len(qatorlar)} paragraphs to start from; take n <= "
                         f"{len(qatorlar)}")
    return [" ".join(q.split()[:2]) for q in qatorlar]


@qisqartiriladi(n=8)
def davomlar(model, tok: Tokenlovchi, boshlar: list[str], n: int, **yaratish) -> list[str]:
    """Har boshlanishdan keyin modelning ``n`` ta tokeni, matn sifatida (boshlanishning oʻzisiz).
    ``yaratish`` — ``yarat`` ning argumentlari (harorat, top_k, seed, tanlash)."""
    chiqish = []
    for bosh in boshlar:
        idx = torch.tensor([tok.kodla(bosh)])
        chiqish.append(tok.dekodla(yarat(model, idx, n, **yaratish)[0, idx.shape[1]:]))
    return chiqish


@saqlanadi(lambda m: m, lambda yozuv, *a, **k: yozuv)
@qisqartiriladi(n=8)
def namunalar(birlik, birlashmalar=0, harorat=None, top_k=None, n=120, seed=0,
              korpus_izi=KORPUS_IZI, **oqitish):
    """Oʻqitilgan modelning 28 ta davomi (``davomlar``: tekshirish matnidagi 28 ta paragrafning
    dastlabki ikki soʻzidan keyin ``n`` ta token); omborda."""
    del korpus_izi
    _, model = til_oqit(birlik, birlashmalar, **oqitish)
    return davomlar(model, tokenlovchi(birlik, birlashmalar), boshlanishlar(), n,
                    harorat=harorat, top_k=top_k, seed=seed)


def uzunlik_boyicha(matnlar: list[str], lugat: set[str]) -> dict[str, float]:
    """Korpusdagi soʻzlar ulushi soʻz uzunligiga qarab: 1–3, 4–6 va 7 va undan koʻp harfli
    soʻzlarda (harf — ``harflar`` boʻyicha: oʻ bitta)."""
    guruhlar = {"1–3": (1, 3), "4–6": (4, 6), "7+": (7, 10**6)}
    hammasi = [s for m in matnlar for s in sozlar(m)]
    natija = {}
    for nom, (a, b) in guruhlar.items():
        guruh = [s for s in hammasi if a <= len(harflar(s)) <= b]
        natija[nom] = sum(s in lugat for s in guruh) / max(1, len(guruh))
    return natija
