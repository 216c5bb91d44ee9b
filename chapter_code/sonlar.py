"""Bobning yakuniy vazifasi: oʻzbekcha soʻz bilan yozilgan son -> uning raqamlari.

``soz_bilan`` 1 <= n <= 999 999 sonni yozma (hujjatlardagi) shaklda soʻz bilan yozadi;
bu shaklda har nolmas raqamning oʻz soʻzi bor: "bir yuz" (100), "bir ming" (1000),
"uch yuz qirq yetti ming ikki yuz besh" (347 205).  ``manba_soz`` har raqamni qaysi soʻz
berishini aytadi (nol uchun None: uning soʻzi yoʻq); bu — cross-attention topishi kerak
boʻlgan tekislash (alignment).

``MANBA`` va ``MAQSAD`` — ikki lugʻat (ikkalasida ham toʻldiruvchi token 0-oʻrinda);
``manba_kodla``, ``maqsad_kodla`` va ``dekodla`` sonlarni toʻldirilgan token
tenzorlariga, model chiqishlarini esa qaytadan raqamlar satriga aylantiradi.

``oqit_tarjimon`` ``modellar.Tarjimon`` ni (teacher forcing, toʻldiruvchini hisobga
olmaydigan cross-entropy, bir siklli (one-cycle) oʻrganish tezligi jadvali bilan Adam)
seeddan yasalgan sonlarda (``sonlar_toplami``) oʻqitadi va oʻqitishda hech uchramaydigan,
chetga olib qoʻyilgan sonlardagi aniq muvofiqlik aniqligini model bilan birga qaytaradi;
natijalari omborda (``chapter_code.ombor``) saqlanadi.  U ``parallel`` ishchilari kabi
bitta ipda, denormal sonlarni nolga aylantirib ishlashga moʻljallangan
(``oqitish._bir_ip``): ombor kaliti iplar sonini oʻz ichiga olmaydi.  ``javob`` —
aniqlik hisoblanadigan ochkoʻz (greedy) dekoder.

``kesishgan_ogirlik`` dekoderga toʻgʻri raqamlar berilganda (teacher forcing) uning
cross-attention ogʻirliklarini qaytaradi; ``muvofiqlik`` esa qatlamma-qatlam, boshma-bosh va
boshlar oʻrtachasi uchun nolmas raqamning eng kuchli cross-attentioni oʻsha raqamni
beradigan soʻzga qanchalik tez-tez tushishini oʻlchaydi.
"""

import torch
import torch.nn as nn

from chapter_code.bichim import son
from chapter_code.modellar import Tarjimon
from chapter_code.ombor import saqlanadi
from chapter_code.qisqa import qisqartiriladi

BIRLAR = ["", "bir", "ikki", "uch", "toʻrt", "besh", "olti", "yetti",
          "sakkiz", "toʻqqiz"]
ONLAR = ["", "oʻn", "yigirma", "oʻttiz", "qirq", "ellik", "oltmish",
         "yetmish", "sakson", "toʻqson"]
ENG_KATTA = 999_999


def _uch_xona(n):
    """1 dan 999 gacha son soʻzlari roʻyxati: 305 -> ["uch", "yuz",
    "besh"]."""
    yuzlar, onlar, birlar = n // 100, n // 10 % 10, n % 10
    sozlar = []
    if yuzlar:
        # 100 -> "bir yuz" (hujjatdagi kabi)
        sozlar += [BIRLAR[yuzlar], "yuz"]
    if onlar:
        sozlar.append(ONLAR[onlar])  # 40 -> "qirq"
    if birlar:
        sozlar.append(BIRLAR[birlar])  # 7 -> "yetti"
    return sozlar


def soz_bilan(n):
    """n sonini soʻz bilan yozadi.

    347205 -> "uch yuz qirq yetti ming ikki yuz besh"
    """
    if (
        isinstance(n, bool)
        or not isinstance(n, int)
        or not 1 <= n <= ENG_KATTA
    ):
        raise ValueError(
            f"soz_bilan 1 dan {son(ENG_KATTA)} gacha butun sonlarni yozadi,"
            f" berilgani: {n!r}"
        )
    minglar, qoldiq = divmod(n, 1000)
    sozlar = []
    if minglar:
        # 347 -> "uch yuz qirq yetti ming"
        sozlar += _uch_xona(minglar) + ["ming"]
    if qoldiq:
        sozlar += _uch_xona(qoldiq)  # 205 -> "ikki yuz besh"
    return " ".join(sozlar)


def manba_soz(n):
    """str(n) ning har raqamini qaysi soʻz beradi: soʻzning oʻrni (0 dan),
    nol uchun None.

    347205 -> [0, 2, 3, 5, None, 7]: "uch"(0) "qirq"(2) "yetti"(3) "ikki"(5)
    "besh"(7). Oʻnlik soʻzi ("qirq") oʻnlar raqamini beradi; "yuz" va "ming"
    raqam bermaydi.
    """
    sozlar = soz_bilan(n).split()
    # raqam beradigan soʻzlar nolmas raqamlar bilan bir xil tartibda keladi
    raqamli = [
        i for i, soz in enumerate(sozlar) if soz not in ("yuz", "ming")
    ]
    natija, k = [], 0
    for raqam in str(n):
        if raqam == "0":
            natija.append(None)  # nolning soʻzi yoʻq
        else:
            natija.append(raqamli[k])
            k += 1
    return natija


# ------------------------------------------------------------------------
# --- lugʻatlar va kodlash

PAD, BOSH, OXIR = 0, 1, 2
#: manba tokenlari: toʻldiruvchi, keyin soʻzlar
MANBA = ["<pad>"] + BIRLAR[1:] + ONLAR[1:] + ["yuz", "ming"]
#: maqsad tokenlari: toʻldiruvchi, boshlanish, tugash, keyin 0-9 raqamlari
MAQSAD = ["<pad>", "<boshlanish>", "<oxir>"] + [str(r) for r in range(10)]
_MANBA_ID = {t: i for i, t in enumerate(MANBA)}
_MAQSAD_ID = {t: i for i, t in enumerate(MAQSAD)}


def _toldir(qatorlar):
    """Har xil uzunlikdagi roʻyxatlar -> (B, T) LongTensor, oxiri PAD bilan
    toʻldirilgan."""
    T = max(len(q) for q in qatorlar)
    return torch.tensor(
        [q + [PAD] * (T - len(q)) for q in qatorlar], dtype=torch.long
    )


def manba_kodla(sonlar):
    """Sonlar -> soʻz tokenlari (B, Tm)."""
    return _toldir(
        [[_MANBA_ID[s] for s in soz_bilan(n).split()] for n in sonlar]
    )


def maqsad_kodla(sonlar):
    """Sonlar -> (dekoder kirishi, kutilgan chiqish), ikkalasi (B, Tq).

    Kirish: <boshlanish> + raqamlar; chiqish: raqamlar + <oxir> (bir qadam
    oldinda).
    """
    raqamlar = [[_MAQSAD_ID[r] for r in str(n)] for n in sonlar]
    return _toldir([[BOSH] + r for r in raqamlar]), _toldir(
        [r + [OXIR] for r in raqamlar]
    )


def dekodla(tokenlar):
    """Maqsad tokenlari (B, T) -> satrlar: <oxir> gacha boʻlgan raqamlar."""
    satrlar = []
    for qator in tokenlar.tolist():
        satr = ""
        for t in qator:
            if t == OXIR:
                break
            if MAQSAD[t].isdigit():
                satr += MAQSAD[t]
        satrlar.append(satr)
    return satrlar


# ------------------------------------------------------------------------
# --- maʼlumot, oʻqitish, javob


def sonlar_toplami(seed, n, n_sinov):
    """(oʻqitish sonlari, sinov sonlari), seed dan; sinovdagi son oʻqitishda
    uchramaydi.

    Sinov: 1..999 999 dan teng ehtimol bilan, takrorsiz n_sinov ta son
    (koʻpi olti xonali). Oʻqitish: n ta son, avval xonalar soni (1..6) teng
    ehtimol bilan, keyin shu uzunlikdagi son tanlanadi — qisqa sonlar ham
    yetarlicha uchraydi; sinovda bor sonlar tashlab yuboriladi (shuning
    uchun n tadan biroz kam boʻlishi mumkin).
    """
    g = torch.Generator().manual_seed(seed)
    sinov = (torch.randperm(ENG_KATTA, generator=g)[:n_sinov] + 1).tolist()
    # 1..6 xonali
    xonalar = torch.randint(1, 7, (n,), generator=g)
    # 1, 10, ..., 100 000
    quyi = 10 ** (xonalar - 1)
    sonlar = (
        quyi
        + (
            torch.rand(n, generator=g, dtype=torch.float64) * 9 * quyi
        ).long()
    )
    sinovda = set(sinov)
    return [s for s in sonlar.tolist() if s not in sinovda], sinov


@torch.no_grad()
def javob(model, sonlar, uzunlik=7, keshlar=None, tokenlar=False):
    """Ochkoʻz (greedy) dekodlash: har qadamda eng ehtimolli token; satrlar
    roʻyxati.

    Hammasi birga (batch) hisoblanadi; <oxir> chiqqan qatorga keyingi
    tokenlar hisobga olinmaydi; koʻpi bilan `uzunlik` ta token. keshlar —
    boʻsh roʻyxat berilsa, KV kesh bilan: koder bir marta ishlaydi, dekoder
    har qadamda faqat yangi tokenni oʻqiydi; roʻyxatda dekoder bloklarining
    keshlari qoladi. tokenlar=True: satrlar oʻrniga dekoderning hamma
    tokenlari (B, T): <boshlanish>, soʻng har qadamda tanlangani.
    """
    model.eval()
    manba = manba_kodla(sonlar)
    y = torch.full((len(sonlar), 1), BOSH)
    if keshlar is not None:
        keshlar[:] = [{} for _ in model.dekoder]
        xotira = model.kodla(manba)
    for _ in range(uzunlik):
        if keshlar is None:
            ballar = model(manba, y)  # hamma tokenlar qaytadan
        else:
            ballar = model(manba, y[:, -1:], keshlar, xotira)
        # oxirgi pozitsiya -> keyingi token
        keyingi = ballar[:, -1].argmax(-1)
        y = torch.cat([y, keyingi[:, None]], dim=1)
        # hamma qator tugadi
        if (y == OXIR).any(1).all():
            break
    return y if tokenlar else dekodla(y[:, 1:])


def _yozuv(natija):
    """Ombor nimani saqlaydi: aniqlikni, model oʻlchamlarini va oʻqitilgan
    vaznlarni."""
    aniqlik, model = natija
    olchamlar = {
        "d": model.emb_manba.embedding_dim,
        "boshlar": model.koder[0].attn.boshlar,
        "qatlamlar": len(model.koder),
        "kv_boshlar": model.koder[0].attn.kv_boshlar,
        "oyna": model.oyna,
    }
    return {
        "aniqlik": aniqlik,
        "olchamlar": olchamlar,
        "vaznlar": model.state_dict(),
    }


def _model(yozuv, *_, **__):
    """Saqlangan oʻqitishni qaytadan (aniqlik, model) juftligiga aylantiradi."""
    model = Tarjimon(len(MANBA), len(MAQSAD), pad=PAD, **yozuv["olchamlar"])
    model.load_state_dict(yozuv["vaznlar"])
    return yozuv["aniqlik"], model.eval()


@saqlanadi(_yozuv, _model)
@qisqartiriladi(qadamlar=20, n=600, n_sinov=100)
def oqit_tarjimon(
    seed,
    d=64,
    boshlar=4,
    qatlamlar=1,
    qadamlar=500,
    n=10_000,
    n_sinov=1000,
    lr=0.005,
    batch=64,
    tashla=None,
    kv_boshlar=None,
    oyna=None,
):
    """Soʻzdan raqamga tarjimonni oʻqitadi; (sinov aniqligi, model)
    qaytaradi.

    Sonlar seed dan yasaladi (``sonlar_toplami``): n ta oʻqitish soni va
    n_sinov ta sinov soni; sinov sonlari oʻqitishda hech qachon uchramaydi.
    Har qadamda oʻqitish sonlaridan tasodifiy `batch` ta olinadi. Aniqlik —
    sinov sonlarining qanchasi ``javob`` da toʻliq toʻgʻri yozildi.
    tashla (masalan "00"): raqamlarida shu qism bor sonlar oʻqitishdan
    olib tashlanadi, sinov sonlari esa oʻsha-oʻsha qoladi. kv_boshlar va
    oyna — Tarjimon ning attention turi (GQA/MQA, sliding window).
    """
    torch.manual_seed(seed)
    oquv, sinov = sonlar_toplami(seed, n, n_sinov)
    if tashla is not None:
        if not (isinstance(tashla, str) and tashla.isdigit()):
            raise ValueError(
                f"tashla must be a string of digits such as '00', got"
                f" {tashla!r}"
            )
        oquv = [s for s in oquv if tashla not in str(s)]
    manba = manba_kodla(oquv)  # (n, Tm) soʻzlar
    # (n, Tq) dekoder kirishi va kutilgan javob
    kirish, chiqish = maqsad_kodla(oquv)
    m = Tarjimon(
        len(MANBA),
        len(MAQSAD),
        d=d,
        boshlar=boshlar,
        qatlamlar=qatlamlar,
        pad=PAD,
        kv_boshlar=kv_boshlar,
        oyna=oyna,
    )
    opt = torch.optim.Adam(m.parameters(), lr=lr, fused=True)
    # oʻrganish tezligi jadvali (OneCycleLR): qadamlarning 30 %ida lr/25
    # dan lr gacha oshadi (warm-up), keyin nolga yaqin kamayadi; Adam
    # ning beta1 i esa teskari yoʻnalishda: 0.95 -> 0.85 -> 0.95
    jadval = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=lr, total_steps=qadamlar
    )
    # toʻldiruvchi hisobga olinmaydi
    krit = nn.CrossEntropyLoss(ignore_index=PAD)
    tasodif = torch.Generator().manual_seed(seed)
    m.train()
    for _ in range(qadamlar):
        # tasodifiy paket
        b = torch.randint(len(oquv), (batch,), generator=tasodif)
        opt.zero_grad()
        # teacher forcing: dekoder kirishida toʻgʻri oldingi
        # raqamlar (B, Tq, 13)
        ballar = m(manba[b], kirish[b])
        krit(ballar.flatten(0, 1), chiqish[b].flatten()).backward()
        opt.step()
        jadval.step()
    m.eval()
    aniqlik = sum(
        j == str(s) for j, s in zip(javob(m, sinov), sinov)
    ) / len(sinov)
    return aniqlik, m


# ------------------------------------------------------------------------
# --- cross-attention: raqam qaysi soʻzga qaraydi


@torch.no_grad()
def kesishgan_ogirlik(model, sonlar):
    """Teacher forcing bilan (toʻgʻri raqamlar berilib) cross-attention
    ogʻirliklari.

    (qatlamlar, B, boshlar, Tq, Tm): t-qator — t-raqamni yozayotgan
    pozitsiya (kirishi <boshlanish> + oldingi raqamlar), ustunlar — manba
    soʻzlari.
    """
    model.eval()
    kirish, _ = maqsad_kodla(sonlar)
    model(manba_kodla(sonlar), kirish)
    return torch.stack([blok.cross.ogirlik for blok in model.dekoder])


def muvofiqlik(model, sonlar):
    """Nolmas raqamlarning qanchasida eng kuchli cross-attention oʻsha
    raqamni bergan soʻzga tushadi.

    Teacher forcing bilan (``kesishgan_ogirlik``): dekoder toʻgʻri oldingi
    raqamlarni koʻradi. Toʻgʻri soʻz — ``manba_soz``; nollar hisobga
    olinmaydi (ularning soʻzi yoʻq). Natija (qatlamlar, boshlar + 1): har
    qatlamning har boshi, oxirgi ustunda — boshlar oʻrtachasi (oʻrtacha
    xaritaning eng katta qiymati).
    """
    # (L, B, h, Tq, Tm)
    w = kesishgan_ogirlik(model, sonlar)
    # + boshlar oʻrtachasi
    w = torch.cat([w, w.mean(2, keepdim=True)], dim=2)
    # (B, Tq); -1 — hisobga olinmaydi
    togri = torch.full((len(sonlar), w.shape[3]), -1)
    for i, n in enumerate(sonlar):
        for t, j in enumerate(manba_soz(n)):
            if j is not None:
                togri[i, t] = j
    hisob = togri >= 0
    # (L, B, h+1, Tq)
    tushdi = (w.argmax(-1) == togri[None, :, None]) & hisob[None, :, None]
    return tushdi.sum((1, 3)) / hisob.sum()


def ogirlik_qayerda(model, sonlar, nollar=False):
    """Raqamlar ogʻirligi oʻrtacha qayerga tushadi: oʻz soʻziga,
    «yuz»/«ming»ga, boshqa soʻzga.

    Teacher forcing bilan. ``nollar=False``: nolmas raqamlar ustida
    (``muvofiqlik`` dagi raqamlar); ``nollar=True``: nollar ustida (ularning oʻz
    soʻzi yoʻq, birinchi ulush 0). Natija (qatlamlar, boshlar + 1, 3):
    oxirgi oʻqda [oʻz soʻzi, «yuz» yoki «ming», raqam beradigan boshqa
    soʻzlar] ulushi (yigʻindisi 1); boshlar oʻqining oxirida — boshlar
    oʻrtachasi.
    """
    # (L, B, h, Tq, Tm)
    w = kesishgan_ogirlik(model, sonlar)
    w = torch.cat([w, w.mean(2, keepdim=True)], dim=2)
    jami, soni = torch.zeros(w.shape[0], w.shape[2], 3), 0
    for i, n in enumerate(sonlar):
        sozlar = soz_bilan(n).split()
        yuz_ming = torch.tensor([soz in ("yuz", "ming") for soz in sozlar])
        for t, j in enumerate(manba_soz(n)):
            if (j is None) != nollar:
                continue
            # (L, h+1, soʻzlar)
            qator = w[:, i, :, t, : len(sozlar)]
            oz = (
                qator[..., j]
                if j is not None
                else torch.zeros(qator.shape[:-1])
            )
            ym = qator[..., yuz_ming].sum(-1)
            jami += torch.stack([oz, ym, qator.sum(-1) - oz - ym], dim=-1)
            soni += 1
    return jami / soni


def hamma_ogirliklar(model, n):
    """Bitta son uchun modelning hamma attention ogʻirliklari, model oʻzi
    yozgan javob bilan (saytdagi interaktiv xarita uchun).

    Dekoderga modelning oʻz javobi beriladi: dekoder kauzal boʻlgani uchun
    bu ogʻirliklar ochkoʻz dekodlashning har qadamidagi ogʻirliklarning
    oʻzi (xato javobda ham). Natija — JSON ga yoziladigan dict:
    ``javob``, ``sozlar`` (koder tokenlari), ``kirish`` (dekoder
    kirishi: <boshlanish> va model tanlagan tokenlar), ``chiqish`` (har dekoder
    pozitsiyasi tanlagan token: javob raqamlari, soʻng <oxir>), ``koder``,
    ``dekoder`` va ``cross`` — har biri [qatlam][bosh][soʻrov][kalit]
    butun sonlar: ogʻirlik · 100, yaxlitlangan (sahifa yuzdan birlarni
    oʻqiydi); har qatlamning oxirgi «boshi» — boshlar oʻrtachasi.
    """
    y = javob(model, [n], tokenlar=True)
    with torch.no_grad():
        # oxirgisidan boshqa hamma token kiradi: t-pozitsiya (t+1)-tokenni
        # yozgan qadamdagi ogʻirliklar
        model(manba_kodla([n]), y[:, :-1])

    def butun(w):
        # (1, h, Tq, Tk) -> [h + 1][Tq][Tk]: boshlar va ularning oʻrtachasi
        w = torch.cat([w[0], w[0].mean(0, keepdim=True)])
        return (w * 100).round().int().tolist()

    tokenlar = [MAQSAD[t] for t in y[0].tolist()]
    return {
        "son": n,
        "javob": dekodla(y[:, 1:])[0],
        "sozlar": soz_bilan(n).split(),
        "kirish": tokenlar[:-1],
        "chiqish": tokenlar[1:],
        "koder": [butun(b.attn.ogirlik) for b in model.koder],
        "dekoder": [butun(b.attn.ogirlik) for b in model.dekoder],
        "cross": [butun(b.cross.ogirlik) for b in model.dekoder],
    }
