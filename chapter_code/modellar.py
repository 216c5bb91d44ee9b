"""Bobning modellari: solishtirish uchun rekurrent modellar, attention, Transformer bloklari.

``Ketma`` — ketma-ketlikni qadamma-qadam oʻqiydigan va oxirgi yashirin holatidan sinfni
aniqlaydigan RNN yoki LSTM.  ``Attention`` — qoʻlda yozilgan bir boshli self-attention,
``softmax(Q K^T / sqrt(d)) V``: pozitsiya kodlashi oʻrganiladigan, sinusoidal, RoPE yoki
umuman yoʻq, ixtiyoriy kauzal maska bilan; bob ogʻirliklarni chiza olishi uchun u oxirgi attention ogʻirliklarini
``ogirlik`` da saqlaydi.  ``TransformerBlok`` — ``nn.MultiheadAttention`` asosidagi asl
(post-LN) blok.

Ikkinchi yarmida Transformer toʻliq yozib chiqilgan: ``KopBoshli`` (koʻp boshli attention:
ixtiyoriy maska, cross-attention uchun kalit/qiymat manbasi, KV kesh va guruhli soʻrov
attention bilan), ``kesh_qosh`` (KV keshni uzaytirish: ``torch.cat`` yoki oldindan
ajratilgan bufer; oynali keshda faqat oxirgi tokenlar qoladi), ``kesh_baytlari`` va
``kesh_boshi`` (keshdagi baytlar; yangi tokenlarning pozitsiyasi va maskasi), ``kauzal_maska`` (ixtiyoriy sliding window bilan), ``sinus_pozitsiya``,
pre-LN ``Blok``, faqat dekoderli ``KichikGPT`` va koder–dekoder ``Tarjimon``.
"""

import torch
import torch.nn as nn


class Ketma(nn.Module):
    """RNN (turi="rnn") yoki LSTM (turi="lstm"), h ta yashirin birlik.

    unutish: LSTMning unutish darvozasi (forget gate) siljishining
    boshlangʻich qiymati; None — PyTorchning standart initsializatsiyasi.
    """

    def __init__(self, turi, h=32, unutish=None):
        super().__init__()
        if turi not in ("rnn", "lstm"):
            raise ValueError(
                f"turi faqat 'rnn' yoki 'lstm' boʻladi, berilgani: {turi!r}"
            )
        if unutish is not None and turi != "lstm":
            raise ValueError(
                "unutish (unutish darvozasining siljishi) faqat"
                f" turi='lstm' da bor, berilgani: turi={turi!r}"
            )
        qatlam = nn.RNN if turi == "rnn" else nn.LSTM
        self.rnn = qatlam(1, h, batch_first=True)
        if unutish is not None:
            # PyTorch LSTM darvozalari tartibi: kirish,
            # UNUTISH, hujayra, chiqish — har biri h ta.
            # Siljish ikki vektorda (bias_ih, bias_hh):
            # yigʻindisi `unutish` ga teng boʻlsin.
            with torch.no_grad():
                self.rnn.bias_ih_l0[h : 2 * h].fill_(unutish)
                self.rnn.bias_hh_l0[h : 2 * h].zero_()
        self.fc = nn.Linear(h, 2)

    def forward(self, x):
        o, _ = self.rnn(x)  # (batch, T, 1) -> (batch, T, h)
        return self.fc(o[:, -1])  # oxirgi qadam (batch, h) -> (batch, 2)


class Attention(nn.Module):
    """Uzunligi T boʻlgan ketma-ketlik uchun self-attention (oʻz-oʻziga
    attention), oʻlchami d.

    pozitsiya: True — oʻrganiladigan pozitsiya vektorlari (faqat T tagacha
    bor), "sinus" — sinusoidal (istalgan uzunlikda hisoblanadi), "rope" —
    soʻrov va kalitlar buriladi (RoPE, ``rope``), False — yoʻq.
    kauzal: True — har soʻrov faqat oʻzini va oldingi kalitlarni koʻradi.
    """

    def __init__(self, T, d=32, pozitsiya=True, kauzal=False):
        super().__init__()
        if not (
            pozitsiya is True
            or pozitsiya is False
            or pozitsiya in ("sinus", "rope")
        ):
            raise ValueError(
                "pozitsiya True (oʻrganiladigan), 'sinus', 'rope' yoki"
                f" False boʻladi, berilgani: {pozitsiya!r}"
            )
        if pozitsiya in ("sinus", "rope") and d % 2:
            raise ValueError(
                f"{pozitsiya} pozitsiyalari uchun d juft boʻlishi kerak,"
                f" berilgani: d={d}"
            )
        self.inp = nn.Linear(1, d)
        self.poz = (
            nn.Parameter(torch.randn(1, T, d) * 0.02)
            if pozitsiya is True
            else None
        )
        self.sinus = pozitsiya == "sinus"
        self.rope = pozitsiya == "rope"
        self.kauzal = kauzal
        self.q, self.k, self.v = (nn.Linear(d, d) for _ in range(3))
        self.fc = nn.Linear(d, 2)
        self.ogirlik = None

    def forward(self, x):
        hh = self.inp(x)  # (batch, T, 1) -> (batch, T, d)
        T = x.shape[1]
        if self.poz is not None:
            if T > self.poz.shape[1]:
                raise ValueError(
                    "oʻrganiladigan pozitsiyalar faqat model yaratilgandagi"
                    f" {self.poz.shape[1]} ta pozitsiya uchun bor;"
                    f" ketma-ketlik T={T}: T <= {self.poz.shape[1]} oling"
                    " yoki pozitsiya='sinus' modelini ishlating"
                )
            hh = hh + self.poz[:, :T]  # (batch, T, d) + (1, T, d)
        elif self.sinus:
            # (T, d) har qatorga qoʻshiladi
            hh = hh + sinus_pozitsiya(T, hh.shape[-1])
        Qx, Kx, Vx = self.q(hh), self.k(hh), self.v(hh)  # (batch, T, d)
        if self.rope:
            Qx, Kx = rope(Qx), rope(Kx)  # qiymatlar burilmaydi
        # (batch, T, d) @ (batch, d, T) -> (batch, T, T)
        ball = Qx @ Kx.transpose(1, 2) / Kx.shape[-1] ** 0.5
        if self.kauzal:
            ball = ball.masked_fill(kauzal_maska(T), float("-inf"))
        w = torch.softmax(ball, dim=-1)  # har qator yigʻindisi 1
        self.ogirlik = w.detach()
        # (batch, T, T) @ (batch, T, d) -> (batch, T, d) -> (batch, d)
        return self.fc((w @ Vx).mean(1))


class TransformerBlok(nn.Module):
    """Minimal, lekin toʻliq: attention + qoldiq ulanish (residual) +
    LayerNorm + feed-forward."""

    def __init__(self, d=32, boshlar=4):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, boshlar, batch_first=True)
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(
            nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)
        )

    def forward(self, x):
        a, _ = self.attn(x, x, x)  # (batch, T, d)
        x = self.norm1(x + a)  # qoldiq ulanish + LayerNorm
        return self.norm2(x + self.ff(x))  # qoldiq ulanish + LayerNorm


def parametrlar(model):
    """Modeldagi oʻqitiladigan sonlar (parametrlar) soni."""
    return sum(p.numel() for p in model.parameters())


# ------------------------------------------------------------------------
# --- Transformer, written out: multi-head attention, masks, positions,
# blocks.


def kauzal_maska(Tq, Tk=None, oyna=None):
    """Kauzal maska: True — yopilgan juftlik (soʻrov oʻzidan keyingi
    kalitga qaraydi).

    Tq ta soʻrov oxirgi Tq ta pozitsiyada turadi, Tk ta kalit 0 dan
    boshlanadi (KV kesh bilan Tk > Tq): i-soʻrov Tk - Tq + i gacha boʻlgan
    kalitlarni koʻradi. oyna (sliding window): soʻrov faqat oxirgi oyna ta
    kalitni — oʻzini va oʻzidan oldingi oyna - 1 tasini — koʻradi.
    """
    Tk = Tq if Tk is None else Tk
    if Tk < Tq:
        raise ValueError(
            "kauzal maskada kalitlar soʻrovlardan kam boʻlmasligi"
            f" kerak, berilgani: Tq={Tq}, Tk={Tk}"
        )
    maska = torch.ones(Tq, Tk, dtype=torch.bool).triu(Tk - Tq + 1)
    if oyna is None:
        return maska
    if oyna < 1:
        raise ValueError(
            f"oyna uzunligi kamida 1 boʻlishi kerak, berilgani: {oyna}"
        )
    # oynadan oldingi kalitlar ham yopiladi
    eski = torch.ones(Tq, Tk, dtype=torch.bool).tril(Tk - Tq - oyna)
    return maska | eski


def sinus_pozitsiya(T, d):
    """Sinusoidal pozitsiya kodlash (Vaswani va boshq., 2017): (T, d)
    matritsa.

    PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(p / 10000^(2i/d)):
    har juftlik (2i, 2i+1) oʻz toʻlqin uzunligida.
    """
    if d % 2:
        raise ValueError(
            "sinusoidal pozitsiyalar uchun d juft boʻlishi kerak,"
            f" berilgani: d={d}"
        )
    p = torch.arange(T, dtype=torch.float32).unsqueeze(1)  # (T, 1)
    # 2i = 0, 2, 4, ...: (d/2,)
    ikki_i = torch.arange(0, d, 2, dtype=torch.float32)
    burchak = p / 10000 ** (ikki_i / d)  # (T, d/2)
    pe = torch.zeros(T, d)
    pe[:, 0::2] = torch.sin(burchak)
    pe[:, 1::2] = torch.cos(burchak)
    return pe


def rope(x, asos=10000.0, boshi=0):
    """RoPE (Su va boshq., 2021): (..., T, d) soʻrov yoki kalitlarning har
    juftini (2i, 2i+1) tekislikda p·θ_i burchakka buradi.

    p — pozitsiya (boshi, boshi + 1, ...), θ_i = asos^(−2i/d). Ikki burilgan
    vektorning skalyar koʻpaytmasida faqat burchaklar farqi qoladi, shuning
    uchun ball pozitsiyaga faqat m − n orqali bogʻliq.
    """
    T, d = x.shape[-2:]
    if d % 2:
        raise ValueError(
            "RoPE komponentlarni juft-juft buradi: d juft boʻlishi"
            f" kerak, berilgani: d={d}"
        )
    p = torch.arange(boshi, boshi + T, dtype=x.dtype).unsqueeze(1)  # (T, 1)
    theta = asos ** (-torch.arange(0, d, 2, dtype=x.dtype) / d)  # (d/2,)
    cos, sin = torch.cos(p * theta), torch.sin(p * theta)  # (T, d/2)
    juft, toq = x[..., 0::2], x[..., 1::2]
    chiqish = torch.empty_like(x)
    chiqish[..., 0::2] = juft * cos - toq * sin
    chiqish[..., 1::2] = juft * sin + toq * cos
    return chiqish


def kesh_qosh(kesh, k, v):
    """Yangi kalit va qiymatlarni (batch, boshlar, T, dh) keshga qoʻshadi va
    joriy soʻrovlar koʻradigan hamma kalit va qiymatlarni qaytaradi.

    Boʻsh dict bilan boshlangan keshning tenzorlari torch.cat bilan uzayadi:
    har qadamda butun kesh yangi tenzorga koʻchiriladi. Dictda "oyna"
    boʻlsa (sliding window), keshda faqat oxirgi oyna ta token qoladi:
    eskilarini keyingi soʻrovlarning hech biri koʻrmaydi. oldindan_kesh
    yaratgan keshda joy oldindan ajratilgan: yangilari bufer ichiga
    yoziladi, hech narsa koʻchirilmaydi.
    """
    if "bufer_k" not in kesh:
        kesh["soni"] = kesh.get("soni", 0) + k.shape[2]  # koʻrilgan
        if "k" in kesh:
            k = torch.cat([kesh["k"], k], dim=2)  # (B, h, Tk, dh)
            v = torch.cat([kesh["v"], v], dim=2)
        qol = min(k.shape[2], kesh.get("oyna", k.shape[2]))
        kesh["k"], kesh["v"] = k[:, :, -qol:], v[:, :, -qol:]
        return k, v
    # oldindan ajratilgan bufer: dastlabki n ta joy band
    n, m = kesh["n"], kesh["n"] + k.shape[2]
    if m > kesh["bufer_k"].shape[2]:
        raise ValueError(
            f"keshga {kesh['bufer_k'].shape[2]} ta token sigʻadi, {m} tasi"
            " sigʻmaydi: keshni kattaroq T_max bilan yarating"
        )
    kesh["bufer_k"][:, :, n:m] = k
    kesh["bufer_v"][:, :, n:m] = v
    kesh["n"] = m
    return kesh["bufer_k"][:, :, :m], kesh["bufer_v"][:, :, :m]


def kesh_uzunligi(kesh):
    """Kesh koʻrgan tokenlar soni — keyingi tokenning pozitsiyasi (ikkala
    turdagi kesh uchun; oynali keshda saqlanganidan koʻp boʻlishi mumkin)."""
    if "bufer_k" in kesh:
        return kesh["n"]
    return kesh.get("soni", 0)


def kesh_baytlari(keshlar):
    """Keshlardagi kalit va qiymat tenzorlari haqiqatan egallagan baytlar
    (bufer — butun hajmi bilan)."""
    return sum(
        t.nelement() * t.element_size()
        for kesh in keshlar
        for t in kesh.values()
        if isinstance(t, torch.Tensor)
    )


def kesh_boshi(keshlar, T, oyna=None):
    """Keshli qadam uchun: T ta yangi tokenning birinchi pozitsiyasi va
    kauzal maskasi (yangi tokenlar — soʻrovlar, keshdagilar va ular —
    kalitlar). oyna boʻlsa, dict keshlar oxirgi oyna ta tokenni saqlaydi."""
    if not keshlar:
        return 0, kauzal_maska(T, oyna=oyna)
    if oyna is not None:
        for kesh in keshlar:
            if "bufer_k" not in kesh:
                kesh.setdefault("oyna", oyna)
    kesh = keshlar[0]
    if "bufer_k" in kesh:
        saqlangan = kesh["n"]
    else:
        saqlangan = kesh["k"].shape[2] if "k" in kesh else 0
    return kesh_uzunligi(kesh), kauzal_maska(T, saqlangan + T, oyna)


def oldindan_kesh(bloklar, batch, T_max):
    """Har blokka bittadan kesh, joyi T_max ta token uchun oldindan
    ajratilgan (kesh_qosh); faqat torch.no_grad ostida yaratish uchun."""
    keshlar = []
    for blok in bloklar:
        a = blok.attn
        dh = a.q.out_features // a.boshlar
        shakl = (batch, a.kv_boshlar, T_max, dh)
        keshlar.append(
            {
                "bufer_k": a.k.weight.new_zeros(shakl),
                "bufer_v": a.v.weight.new_zeros(shakl),
                "n": 0,
            }
        )
    return keshlar


class KopBoshli(nn.Module):
    """Koʻp boshli (multi-head) attention, qoʻlda: d oʻlcham `boshlar` ta
    boshga boʻlinadi; kv_boshlar < boshlar boʻlsa — guruhlangan soʻrovli
    attention (GQA; kv_boshlar=1 — MQA): kalit va qiymat boshlari
    kamroq, har biri boshlar // kv_boshlar ta soʻrov boshiga xizmat qiladi.

    forward(x, manba=None, maska=None, kesh=None): x — soʻrovlar (batch, Tq,
    d); manba — kalit va qiymatlar olinadigan ketma-ketlik (batch, Tk, d),
    None boʻlsa x ning oʻzi (oʻz-oʻziga attention), boshqa boʻlsa
    koder–dekoder attention;
    maska — True boʻlgan joylar yopiladi, (Tq, Tk) yoki (batch, 1, 1, Tk)
    kabi kengaytiriladigan shakl; kesh — dict: avvalgi qadamlarning kalit va
    qiymatlari, yangilari unga qoʻshiladi. Oxirgi ogʻirliklar self.ogirlik
    da: (batch, boshlar, Tq, Tk).
    """

    def __init__(self, d, boshlar, kv_boshlar=None):
        super().__init__()
        kv_boshlar = boshlar if kv_boshlar is None else kv_boshlar
        if d % boshlar:
            raise ValueError(
                f"d={d} boshlar={boshlar} ta boshga teng boʻlinishi kerak"
            )
        if kv_boshlar < 1 or boshlar % kv_boshlar:
            raise ValueError(
                f"boshlar={boshlar} ta soʻrov boshi kv_boshlar={kv_boshlar}"
                " ta kalit-qiymat boshiga teng boʻlinishi kerak"
            )
        self.boshlar, self.kv_boshlar = boshlar, kv_boshlar
        d_kv = d // boshlar * kv_boshlar
        self.q = nn.Linear(d, d)
        self.k, self.v = nn.Linear(d, d_kv), nn.Linear(d, d_kv)
        self.o = nn.Linear(d, d)
        self.ogirlik = None

    def forward(self, x, manba=None, maska=None, kesh=None):
        manba = x if manba is None else manba
        B, Tq, d = x.shape
        h, dh = self.boshlar, d // self.boshlar
        h_kv = self.kv_boshlar
        # (B, T, d) -> (B, T, h, dh) -> (B, h, T, dh): har bosh
        # oʻz dh ustunini oladi
        q = self.q(x).view(B, Tq, h, dh).transpose(1, 2)
        k = self.k(manba).view(B, -1, h_kv, dh).transpose(1, 2)
        v = self.v(manba).view(B, -1, h_kv, dh).transpose(1, 2)
        # KV kesh: avvalgi kalit va qiymatlar (h_kv ta boshda)
        if kesh is not None:
            k, v = kesh_qosh(kesh, k, v)
        # GQA: bir guruhdagi g ta soʻrov boshi bitta kalit/qiymat boshini
        # oladi. Kalitlar takrorlanmaydi (nusxasi yoʻq): guruhning
        # soʻrovlari bitta matritsaning qatorlari boʻladi
        g = h // h_kv
        q = q.reshape(B, h_kv, g * Tq, dh)  # (B, h_kv, g·Tq, dh)
        ball = q @ k.transpose(-2, -1) / dh**0.5  # (B, h_kv, g·Tq, Tk)
        ball = ball.view(B, h, Tq, -1)  # (B, h, Tq, Tk)
        if maska is not None:
            ball = ball.masked_fill(maska, float("-inf"))
        # har qator yigʻindisi 1
        w = torch.softmax(ball, dim=-1)
        self.ogirlik = w.detach()
        chiqish = (w.view(B, h_kv, g * Tq, -1) @ v).view(B, h, Tq, dh)
        # (B, h, Tq, dh) -> (B, Tq, h, dh) -> (B, Tq, d): boshlar yonma-yon
        chiqish = chiqish.transpose(1, 2).reshape(B, Tq, d)
        return self.o(chiqish)


class Blok(nn.Module):
    """Pre-LN Transformer bloki (GPT-2, Llama kabi): normallashtirish
    avval, keyin qoʻshish.

    x = x + attention(norm(x)); kesishgan=True boʻlsa
    x = x + cross-attention(norm(x), koder chiqishi); x = x + ff(norm(x)).
    """

    def __init__(self, d, boshlar, kesishgan=False, kv_boshlar=None):
        super().__init__()
        self.norm1 = nn.LayerNorm(d)
        self.attn = KopBoshli(d, boshlar, kv_boshlar)
        self.norm_x, self.cross = (
            (nn.LayerNorm(d), KopBoshli(d, boshlar, kv_boshlar))
            if kesishgan
            else (None, None)
        )
        self.norm2 = nn.LayerNorm(d)
        self.ff = nn.Sequential(
            nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)
        )

    def forward(
        self, x, maska=None, xotira=None, xotira_maska=None, kesh=None
    ):
        x = x + self.attn(self.norm1(x), maska=maska, kesh=kesh)
        if self.cross is not None:
            x = x + self.cross(
                self.norm_x(x), manba=xotira, maska=xotira_maska
            )
        return x + self.ff(self.norm2(x))


class KichikGPT(nn.Module):
    """Faqat dekoderli (decoder-only) til modeli: token + pozitsiya -> N ta
    kauzal Blok -> keyingi token.

    forward(idx, keshlar=None): idx (batch, T) token indekslari; keshlar —
    har blokka bittadan dict (KV kesh), None boʻlsa hammasi qayta
    hisoblanadi. Kesh bilan idx — faqat yangi tokenlar, ularning pozitsiyasi
    keshdagi tokenlar sonidan boshlanadi. kv_boshlar — GQA (KopBoshli);
    oyna — sliding window (kauzal_maska).
    """

    def __init__(
        self,
        lugat,
        d=64,
        boshlar=4,
        qatlamlar=2,
        T_max=1024,
        kv_boshlar=None,
        oyna=None,
    ):
        super().__init__()
        self.oyna = oyna
        self.emb = nn.Embedding(lugat, d)
        self.register_buffer(
            "poz", sinus_pozitsiya(T_max, d), persistent=False
        )
        self.bloklar = nn.ModuleList(
            Blok(d, boshlar, kv_boshlar=kv_boshlar)
            for _ in range(qatlamlar)
        )
        self.norm = nn.LayerNorm(d)
        self.chiqish = nn.Linear(d, lugat)

    def forward(self, idx, keshlar=None):
        T = idx.shape[1]
        # yangi tokenlar pozitsiyasi keshdagilardan keyin boshlanadi
        oldin, maska = kesh_boshi(keshlar, T, self.oyna)
        if oldin + T > self.poz.shape[0]:
            raise ValueError(
                f"{oldin + T} ta tokenli ketma-ketlik"
                f" T_max={self.poz.shape[0]} dan uzun"
            )
        x = self.emb(idx) + self.poz[oldin : oldin + T]  # (B, T, d)
        for i, blok in enumerate(self.bloklar):
            x = blok(
                x, maska=maska, kesh=None if keshlar is None else keshlar[i]
            )
        return self.chiqish(self.norm(x))  # (B, T, lugat)


class Tarjimon(nn.Module):
    """Koder–dekoder (encoder-decoder) Transformer: manba tokenlari ->
    maqsad tokenlari.

    Koder manbani oʻqiydi (self-attention, pad maskasi bilan); dekoder
    oʻzining oldingi tokenlariga kauzal maska bilan, koder chiqishiga
    cross-attention bilan qaraydi. pad — ikkala lugʻatdagi toʻldiruvchi
    token indeksi. kv_boshlar — GQA (KopBoshli, hamma attentionda); oyna —
    dekoder self-attentionining sliding window (kauzal_maska).
    """

    def __init__(
        self,
        manba_lugat,
        maqsad_lugat,
        d=64,
        boshlar=4,
        qatlamlar=2,
        T_max=64,
        pad=0,
        kv_boshlar=None,
        oyna=None,
    ):
        super().__init__()
        self.pad, self.oyna = pad, oyna
        self.emb_manba = nn.Embedding(manba_lugat, d)
        self.emb_maqsad = nn.Embedding(maqsad_lugat, d)
        self.register_buffer(
            "poz", sinus_pozitsiya(T_max, d), persistent=False
        )
        self.koder = nn.ModuleList(
            Blok(d, boshlar, kv_boshlar=kv_boshlar) for _ in range(qatlamlar)
        )
        self.dekoder = nn.ModuleList(
            Blok(d, boshlar, kesishgan=True, kv_boshlar=kv_boshlar)
            for _ in range(qatlamlar)
        )
        self.norm_k, self.norm_d = nn.LayerNorm(d), nn.LayerNorm(d)
        self.chiqish = nn.Linear(d, maqsad_lugat)

    def _sigadimi(self, T):
        if T > self.poz.shape[0]:
            raise ValueError(
                f"{T} ta tokenli ketma-ketlik T_max={self.poz.shape[0]}"
                " dan uzun: modelni kattaroq T_max bilan yarating"
            )

    def kodla(self, manba):
        """(batch, Tm) -> koder chiqishi (batch, Tm, d) va pad maskasi
        (batch, 1, 1, Tm)."""
        self._sigadimi(manba.shape[1])
        pad_maska = (manba == self.pad)[:, None, None, :]
        if pad_maska.all(dim=-1).any():
            raise ValueError(
                "manbaning bir qatori butunlay toʻldiruvchi tokenlardan"
                " iborat: har misolda kamida bitta token boʻlishi kerak"
            )
        x = self.emb_manba(manba) + self.poz[: manba.shape[1]]
        for blok in self.koder:
            x = blok(x, maska=pad_maska)
        return self.norm_k(x), pad_maska

    def forward(self, manba, maqsad, keshlar=None, xotira=None):
        """manba (batch, Tm), maqsad (batch, Tq) -> keyingi token ballari
        (batch, Tq, lugʻat).

        keshlar — dekoderning har blokiga bittadan dict (KV kesh): maqsad
        — faqat yangi tokenlar; xotira — oldin hisoblangan kodla(manba),
        har qadamda koderni qayta ishlatmaslik uchun.
        """
        T = maqsad.shape[1]
        oldin, maska = kesh_boshi(keshlar, T, self.oyna)
        self._sigadimi(oldin + T)
        xotira, pad_maska = self.kodla(manba) if xotira is None else xotira
        y = self.emb_maqsad(maqsad) + self.poz[oldin : oldin + T]
        for i, blok in enumerate(self.dekoder):
            y = blok(
                y,
                maska=maska,
                xotira=xotira,
                xotira_maska=pad_maska,
                kesh=None if keshlar is None else keshlar[i],
            )
        return self.chiqish(self.norm_d(y))
