# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Pozitsiyalar uzunroq ketma-ketlikda
#
# Bu darsda oldingi darsdagi vazifani davom ettiramiz: oʻrganiladigan pozitsiyalarni
# oʻqitishdagidan uzunroq {term}`ketma-ketlikda <ketma-ketlik>` nega ishlatib boʻlmasligini koʻramiz va formula bilan
# hisoblanadigan sinusoidal pozitsiyalar uzunroq ketma-ketlikka koʻcha olishini sinaymiz;
# model yangi pozitsiyalarda qayerga qarashini koʻramiz. Nisbiy pozitsiyalarni
# ({term}`RoPE`) ham shu tajribada sinaymiz va {term}`pozitsiya kodlashsiz <pozitsiya kodlash>` {term}`kauzal maskaning <kauzal (sababiy) maska>` oʻzi tartibni qanchalik berishini oʻlchaymiz. Vazifa va
# modellar {doc}`«Attention, RNN va LSTM bitta vazifada» <rekurrent>` darsida tasvirlangan.


# %%
import inspect
import math
from functools import partial

import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import torch

from chapter_code.kitob import show, fig
from chapter_code.bichim import son, foiz
from chapter_code.malumot import vazifa
from chapter_code.modellar import Attention
from chapter_code.modellar import rope, sinus_pozitsiya
from chapter_code.oqitish import oqit, parallel
from chapter_code.natijalar import Seedlar

T = 60  # vazifa uzunligi, «Attention, RNN va LSTM» darsidagidek
d_model = inspect.signature(Attention).parameters["d"].default


# %% tags=["remove-cell"]
from myst_nb import glue

glue("poz_d", d_model, display=False)


# %% [markdown]
# ## Oʻrganiladigan va sinusoidal pozitsiyalar
#
# Modelimizdagi pozitsiya vektorlari oʻrganiladi va ularning soni oʻzgarmas:
# `Attention(60)` da aniq 60 ta, 0-pozitsiyadan 59-pozitsiyagacha. Qisqaroq
# ketma-ketlikda model ularning boshidagilarini oladi (`self.poz[:, :T]`).
# Uzunroq ketma-ketlikda esa 60-pozitsiya va undan keyingilar uchun vektor
# umuman yoʻq.
#
# Asl {term}`Transformer` maqolasida {cite:p}`vaswani2017` pozitsiya vektorlari
# oʻrganilmaydi, balki formula bilan hisoblanadi. Bu —
# **{term}`sinusoidal pozitsiya kodlash`** (*sinusoidal positional encoding*).
# *p*-pozitsiya vektorining juft va toq komponentlari:
#
# $$
# \mathrm{PE}[p, 2i] = \sin\!\left(\frac{p}{10000^{2i/d}}\right), \qquad
# \mathrm{PE}[p, 2i+1] = \cos\!\left(\frac{p}{10000^{2i/d}}\right).
# $$
#
# Bu yerda *d* — vektor oʻlchami, *i* — komponentlar juftligining indeksi
# ($i = 0, 1, \dots, d/2 - 1$). Har juftlik — oʻz chastotasidagi toʻlqin:
# $i = 0$ juftlik har $2\pi$ pozitsiyada bir marta takrorlanadi, keyingilari
# tobora sekinroq tebranadi. Formulada *T* yoʻq: vektorni istalgan
# pozitsiya uchun hisoblash mumkin. Kodda buni `sinus_pozitsiya` qiladi,
# `Attention(T, pozitsiya="sinus")` esa natijani kirishga qoʻshadi
# ({doc}`«Attention, RNN va LSTM bitta vazifada» <rekurrent>` darsida koʻrsatilgan `Attention` kodining `elif self.sinus` qatori).
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: sinus_pozitsiya
# ```
#
# Matritsani modelimizdagi oʻlcham (*d* = {glue:text}`poz_d`) va
# {glue:text}`poz_T_rasm` ta pozitsiya uchun chizamiz
# ({numref}`sinus_pozitsiya`). Ostida — ikki pozitsiya vektorining
# **{term}`kosinus oʻxshashligi`** (*cosine similarity*, vektorlar orasidagi
# burchak kosinusi: 1 — yoʻnalishi bir xil), ular orasidagi masofaga qarab.

# %%
poz_T_rasm = 128
# (128, d): qator — pozitsiya
pe = sinus_pozitsiya(poz_T_rasm, d_model)
# har pozitsiyaning 0-pozitsiya bilan kosinus oʻxshashligi: (128, d),
# (1, d) -> (128,)
oxshash = torch.nn.functional.cosine_similarity(pe, pe[:1], dim=1)
# skalyar koʻpaytma faqat masofaga bogʻliqmi? 5 va 25, 50 va 70:
# masofa ikkalasida 20
print(
    f"PE[5]·PE[25] = {pe[5] @ pe[25]:.4f},  PE[50]·PE[70] ="
    f" {pe[50] @ pe[70]:.4f}"
)
# oxirgi juftlik: i = d/2 - 1
davr = 2 * np.pi * 10000 ** ((d_model - 2) / d_model)


# %% tags=["remove-cell"]
glue("poz_T_rasm", poz_T_rasm, display=False)
glue("poz_oxshash_1", oxshash[1].item(), display=False)
glue("poz_oxshash_uzoq", oxshash[10:].max().item(), display=False)
glue("poz_davr_max", davr, display=False)


# %%
rasm, (b1, b2) = plt.subplots(
    2, 1, figsize=(5.6, 6.4), gridspec_kw={"height_ratios": [1.2, 1]}
)
tasvir = b1.imshow(
    pe.T.numpy(), cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto"
)
b1.set_xlabel("pozitsiya p")
b1.set_ylabel("komponent")
plt.colorbar(tasvir, ax=b1, fraction=0.046, ticks=[-1, 0, 1])
b2.plot(np.arange(poz_T_rasm), oxshash.numpy(), color="#1a73e8")
b2.set_xlabel("masofa (pozitsiya)")
b2.set_ylabel("kosinus oʻxshashligi")
b2.grid(True, alpha=0.3)
plt.tight_layout()
fig(
    "sinus_pozitsiya.png",
    caption=(
        f"Yuqorida: sinusoidal pozitsiya kodlash, {poz_T_rasm}"
        f" pozitsiya × {d_model} komponent (qizil — +1, koʻk — −1)."
        " Pastda: ikki pozitsiya vektorining kosinus oʻxshashligi,"
        " ular orasidagi masofaga qarab."
    ),
)

# %% [markdown]
# {numref}`%s-rasmning <sinus_pozitsiya>` yuqori qismida har ustun — bitta
# pozitsiyaning vektori. Yuqoridagi komponentlar tez tebranadi: 0- va
# 1-komponent rangini bir necha pozitsiyada almashtiradi. Pastga tushgan
# sari toʻlqin sekinlashadi; eng pastki komponentlar butun rasm davomida
# deyarli oʻzgarmaydi (oxirgi juftlik {glue:text}`poz_davr_max:.0f` pozitsiyada
# bir marta takrorlanadi). Pastdagi yoʻl-yoʻl koʻrinish shundan: juft
# qatorlar — sinus, 0 dan boshlanadi; toq qatorlar — kosinus, 1 dan. Tez
# komponentlar yaqin pozitsiyalarni bir-biridan ajratadi, sekinlari —
# uzoqlarini. Shuning uchun har ustun boshqa
# ustunlardan farq qiladi: ikki pozitsiya bir xil vektor olmaydi.
#
# Rasmning pastki qismida: qoʻshni pozitsiyalar vektorlari juda oʻxshash (kosinus
# oʻxshashligi {glue:text}`poz_oxshash_1:.3f`). Masofa oshgani sari oʻxshashlik
# kamayadi, lekin tekis emas: toʻlqinlar goh mos tushadi, goh yoʻq. 10 va
# undan katta masofada u {glue:text}`poz_oxshash_uzoq:.2f` dan oshmadi. Kod
# chiqargan ikki son esa yana bir xossani koʻrsatadi: {term}`skalyar koʻpaytma`
# faqat masofaga bogʻliq, pozitsiyalarning oʻziga emas. Sababi —
# $\sin a \sin b + \cos a \cos b = \cos(a - b)$.

# %% [markdown]
# ## RoPE: burilgan soʻrov va kalitlar
#
# Zamonaviy til modellari (masalan, Llama) pozitsiyani boshqacha beradi:
# **RoPE** (*rotary position {term}`embedding`*, buruvchi pozitsiya kodlash;
# {cite:alp}`su2021`). RoPE kirishga hech narsa qoʻshmaydi. U har {term}`attention <attention (eʼtibor mexanizmi)>`
# {term}`qatlamida <qatlam>` {term}`soʻrov` va {term}`kalit` vektorlarining komponentlarini juftlarga
# ajratadi va har juftlikni tekislikda burchakka buradi. *p*-pozitsiyada
# *i*-juftlikning burchagi $p\,\theta_i$, bu yerda
# $\theta_i = b^{-2i/d}$. Asos $b = 10\,000$ boʻlsa, bu chastotalar sinusoidal
# kodlashdagilar bilan bir xil. Llama 3 modelida esa $b = 500\,000$
# (konfiguratsiyadagi `rope_theta`): sekin burilishlar uzun kontekstga yetadi. {term}`Qiymat <qiymat>`
# vektorlari burilmaydi.
#
# Bu nega ishlaydi? *m*-soʻrov va *n*-kalitning skalyar koʻpaytmasida
# ikki burilishdan faqat burchaklar farqi qoladi: $(m - n)\,\theta_i$. Demak,
# {term}`ballga <ball>` pozitsiya faqat nisbiy masofa $m - n$ orqali kiradi — yuqorida
# sinus vektorlarda koʻrgan xossamiz endi bevosita ballarda
# ishlaydi. Modelimizda buni `Attention(T, pozitsiya="rope")` qiladi: u
# kirishga hech narsa qoʻshmaydi, `rope` ni *Q* va *K* ga qoʻllaydi
# ({doc}`«Attention, RNN va LSTM bitta vazifada» <rekurrent>` darsidagi `Attention` kodining `if self.rope` qatori).
#
# `rope` shu burishni bajaradi (`chapter_code/modellar.py`):
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: rope
# ```
#
# Bitta soʻrov va bitta kalitni har xil pozitsiyalarga qoʻyib, ballarini
# solishtiramiz: masofa bir xil boʻlsa, ball ham bir xil chiqishi kerak.

# %%
torch.manual_seed(0)
q = torch.randn(1, d_model, dtype=torch.float64)
k = torch.randn(1, d_model, dtype=torch.float64)
for m, n in [(2, 0), (12, 10), (502, 500), (3, 0)]:
    ball = (rope(q, boshi=m) @ rope(k, boshi=n).T).item()
    print(
        f"m = {m:>3}, n = {n:>3}, m − n = {m - n}:"
        f" ball {son(ball, '.6f')}"
    )


# %% [markdown]
# ## Uzunlikka umumlashtirish
#
# Endi asosiy savol: *T* = 60 da oʻqitilgan model uzunroq ketma-ketlikda
# ishlaydimi? Bu xossa **{term}`uzunlikka umumlashtirish`** (*length
# generalization*) deyiladi. `Attention(60, pozitsiya="sinus")` va
# `Attention(60, pozitsiya="rope")` ni bobning protokoli bilan (`oqit` ning
# standart qiymatlari) ikki xil {term}`seed` bilan oʻqitamiz. Seed 0 — asosiy
# model, seed 1 — natija seedga qanchalik bogʻliqligini koʻrish uchun
# (toʻrt oʻqitish ikki protsessor yadrosida ikkitadan bajariladi). Yonida — {doc}`«Attention, RNN va LSTM bitta vazifada» <rekurrent>`
# darsidagi {numref}`%s-jadvaldagi <sinov_jadval>` oʻrganiladigan
# pozitsiyali model (seed 0). U omborda saqlangan, `parallel` uni qayta
# oʻqitmaydi.

# %%
poz_seedlar = (0, 1)
turlari = {
    "sinusoidal": partial(Attention, T, pozitsiya="sinus"),
    "RoPE": partial(Attention, T, pozitsiya="rope"),
}
# yangi: har tur ikki seed bilan
poz_kalitlar = [(nom, s) for nom in turlari for s in poz_seedlar]
poz_ishlar = [(turlari[nom], T, s) for nom, s in poz_kalitlar]
# bobdagi oʻrganiladigan pozitsiyali model: ombordan olinadi
poz_ishlar.append((partial(Attention, T), T, 0))
*yangilar, (org_aniq, m_organ) = parallel(oqit, poz_ishlar)
# (tur, seed) -> (aniqlik, model)
poz_m = dict(zip(poz_kalitlar, yangilar))
sinuslar = [poz_m["sinusoidal", s] for s in poz_seedlar]
ropelar = [poz_m["RoPE", s] for s in poz_seedlar]
# asosiy modellar: seed 0
m_sinus, m_rope = sinuslar[0][1], ropelar[0][1]
print(f"T = {T} dagi sinov aniqligi:")
for (nom, s), (a, _) in poz_m.items():
    print(f"  {nom}, seed {s}:".ljust(24) + f"{a:.3f}")
print(f"  oʻrganiladigan, seed 0: {org_aniq:.3f}")

# %% tags=["remove-cell"]
# har tur: seedlar qanday tugagani
poz_tugadi = {
    nom: Seedlar({s: poz_m[nom, s][0] for s in poz_seedlar})
    for nom in turlari
}
# oqit ning sinov aniqliklari
glue("poz_oqit_sin", [a for a, _ in sinuslar], display=False)
glue("poz_oqit_rope", [a for a, _ in ropelar], display=False)
glue("poz_oqit_org", org_aniq, display=False)
chegara = poz_tugadi["sinusoidal"].yechdi_chegara
glue(
    "poz_oqitish_gap",
    (
        "Oʻqitish uzunligida beshala model ham (ikki sinusoidal, ikki"
        " RoPE va oʻrganiladigan) vazifani yechdi."
        if all(t.soni("yechdi") == t.n for t in poz_tugadi.values())
        and org_aniq >= chegara
        else (
            "Oʻqitish uzunligida sinusoidal model"
            f" {poz_tugadi['sinusoidal'].jumla()}"
            f" ({poz_tugadi['sinusoidal'].qiymatlar()}), RoPE modeli"
            f" {poz_tugadi['RoPE'].jumla()}"
            f" ({poz_tugadi['RoPE'].qiymatlar()}); oʻrganiladigan"
            " pozitsiyali modelning aniqligi"
            f" {son(org_aniq, '.3f')}."
        )
    ),
    display=False,
)

# %% [markdown]
# {glue:text}`poz_oqitish_gap` Endi har bir
# *T* = {glue:text}`poz_Tlar_matn` uchun yangi sinov maʼlumotini tuzamiz
# ({glue:text}`poz_n` ta namuna; seed oʻqitishda ishlatilmagan) va
# modellarni baholaymiz. Sinusoidal va RoPE modellari uchun har soʻrov
# 0-qadamga bergan oʻrtacha {term}`ogʻirlikni <ogʻirlik>` ham yozib olamiz: model javobni
# aynan 0-qadamdan olayotganini shu koʻrsatadi.
#
# Solishtirish uchun pozitsiyani umuman bilmaydigan ikki qoida ham bor.
# Tartibni koʻrmaydigan model faqat sonlar toʻplamini biladi. Toʻplam
# berilsa, birinchi element undagi istalgan son boʻlishi mumkin, hammasi bir
# xil ehtimol bilan. Demak, $x_0 > 0$ boʻlish ehtimoli — toʻplamdagi musbat
# sonlar ulushi. Shuning uchun tartibni bilmaydigan qoidalar ichida eng yaxshisi —
# **{term}`ishoralar koʻpchiligi`**: musbat sonlar koʻp boʻlsa, javob 1. Ikkinchi
# qoida — yigʻindining ishorasi, $\mathrm{sign}(\sum_t x_t)$: u ham tartibga
# qaramaydi, lekin nazariy jihatdan biroz kuchsizroq. Modelning {term}`aniqligi <aniqlik>` bu
# qoidalarnikidan yuqori boʻlsa, demak, u pozitsiyani ishlatmoqda.


# %%
def poz_baho(m, X, y, bolak=250):
    # aniqlik va soʻrovlarning 0-qadamga oʻrtacha ogʻirligi;
    # boʻlaklab: (2000, 240, 240) matritsa birdaniga 460 MB boʻlardi
    togri, w0 = 0, 0.0
    with torch.no_grad():
        for i in range(0, len(X), bolak):
            togri += (
                (m(X[i : i + bolak]).argmax(1) == y[i : i + bolak])
                .sum()
                .item()
            )
            # (bolak, T, T) -> (bolak, T): 0-kalit ustuni
            w0 += m.ogirlik[:, :, 0].sum().item()
    return togri / len(X), w0 / (len(X) * X.shape[1])


# %% tags=["remove-cell"]
# Baholar (bu va quyidagi uch funksiyaniki) omborda saqlanadi: kaliti —
# funksiyaning manbasi, modelning parametrlari va maʼlumotning baytlari. Rasm
# tahriridan keyin dars qayta bajarilganda ular qayta hisoblanmaydi.
from chapter_code.oqitish import baho

poz_baho = partial(baho, poz_baho)


# %%
poz_Tlar, poz_n = [30, 60, 120, 240], 2000
# jadval qatori: seed 0 — tur nomi, boshqasi — «tur, seed s»
qatorlar = {
    (nom, s): nom if s == 0 else f"{nom}, seed {s}"
    for nom, s in poz_kalitlar
}
poz_aniq = {q: {} for q in qatorlar.values()}
poz_aniq.update(
    {"oʻrganiladigan": {}, "ishoralar koʻpchiligi": {}, "sign(Σx)": {}}
)
# qator -> T -> soʻrovlarning 0-qadamga oʻrtacha ogʻirligi
poz_etibor = {q: {} for q in qatorlar.values()}
for Tx in poz_Tlar:
    # oʻqitish seed 1, sinov seed 2 bilan edi
    Xp, yp = vazifa(poz_n, Tx, 4)
    for kalit, q in qatorlar.items():
        poz_aniq[q][Tx], poz_etibor[q][Tx] = poz_baho(
            poz_m[kalit][1], Xp, yp
        )
    # oʻrganiladigan vektorlar bor joyda
    if Tx <= m_organ.poz.shape[1]:
        poz_aniq["oʻrganiladigan"][Tx] = poz_baho(m_organ, Xp, yp)[0]
    # (n, T, 1) -> (n,): musbat sonlar soni
    musbat = (Xp > 0).sum(dim=(1, 2))
    poz_aniq["ishoralar koʻpchiligi"][Tx] = (
        ((2 * musbat > Tx).long() == yp).float().mean().item()
    )
    poz_aniq["sign(Σx)"][Tx] = (
        ((Xp.sum(dim=(1, 2)) > 0).long() == yp).float().mean().item()
    )

# %% [markdown]
# Natijalar {numref}`%s-jadvalda <poz_jadval>`.

# %%
poz_jadval = pd.DataFrame(
    [
        {
            "model yoki qoida": nom,
            **{
                f"T = {Tx}": (
                    round(q[Tx], 3) if Tx in q else "vektor yoʻq"
                )
                for Tx in poz_Tlar
            },
        }
        for nom, q in poz_aniq.items()
    ]
)
show(
    poz_jadval,
    izoh=(
        "Aniqlik turli uzunlikdagi yangi sinov maʼlumotida (har T da"
        f" {poz_n} ta namuna). Hamma model T = {T} da oʻqitilgan"
        " (seedi koʻrsatilmaganlari — seed 0); pastki ikki qator —"
        " pozitsiyani bilmaydigan qoidalar."
    ),
    nom="poz_jadval",
)
print(
    "oʻrganiladigan model: self.poz shakli"
    f" {tuple(m_organ.poz.shape)}\n  — faqat"
    f" 0–{m_organ.poz.shape[1] - 1}-pozitsiyalar uchun vektor bor"
)
print("0-qadamga oʻrtacha ogʻirlik (seed 0):")
for Tx in poz_Tlar:
    print(
        f"  T = {Tx}: sinusoidal {poz_etibor['sinusoidal'][Tx]:.4f},"
        f" RoPE {poz_etibor['RoPE'][Tx]:.4f}"
    )

# %%
sin_q = list(poz_aniq["sinusoidal"].values())
sin_farq = max(sin_q) - min(sin_q)
# bitta aniqlikning standart xatosi: sqrt(p(1 - p) / n)
sin_xato = float(np.sqrt(np.mean(sin_q) * (1 - np.mean(sin_q)) / poz_n))
# ikki aniqlik farqining standart xatosi
farq_xato = float(np.sqrt(2) * sin_xato)


# %% tags=["remove-cell"]
glue(
    "poz_Tlar_matn",
    ", ".join(map(str, poz_Tlar[:-1])) + f" va {poz_Tlar[-1]}",
    display=False,
)
glue("poz_n", poz_n, display=False)
glue("poz_T_max", poz_Tlar[-1], display=False)
glue("poz_org_T", m_organ.poz.shape[1], display=False)
for nom, qisqa in [
    ("sinusoidal", "sin"),
    ("sinusoidal, seed 1", "sin1"),
    ("RoPE", "rope"),
    ("RoPE, seed 1", "rope1"),
    ("oʻrganiladigan", "org"),
    ("ishoralar koʻpchiligi", "kop"),
    ("sign(Σx)", "yig"),
]:
    for Tx, a in poz_aniq[nom].items():
        glue(f"poz_{qisqa}_{Tx}", a, display=False)
glue("poz_sin_farq", sin_farq, display=False)
glue("poz_xato", sin_xato, display=False)
glue(
    "poz_farq_soz",
    (
        "tasodifiy xato chegarasida"
        if sin_farq <= 3 * farq_xato
        else "tasodifiy xatodan kattaroq"
    ),
    display=False,
)
glue("poz_farq_xato", farq_xato, display=False)
glue(
    "poz_qoida_max",
    max(
        max(poz_aniq[q].values())
        for q in ("ishoralar koʻpchiligi", "sign(Σx)")
    ),
    display=False,
)
glue(
    "poz_etibor_min",
    min(poz_etibor["sinusoidal"].values()),
    display=False,
)
# gaplar oʻlchovdan: «ishladi» — aniqlik kamida 0,9
# (Seedlar.yechdi_chegara); «yomonlashdi» —
# oʻqitish uzunligida (T = 60) ishlagan, bu T da esa yoʻq
ishladi = lambda a: a >= chegara
Tmax = poz_Tlar[-1]


def holat(nom, Tx):
    q = poz_aniq[nom]
    return (
        "ishladi"
        if ishladi(q[Tx])
        else "yomonlashdi" if ishladi(q[T]) else "ishlamadi"
    )


# seed 0 modelining gapi va seed 1 nikining (seed 0 ga qarab «ham»/«esa»)
ASOSIY_SOZ = {
    "ishladi": "ham ishladi",
    "yomonlashdi": "yomonlashdi",
    "ishlamadi": "ham ishlamadi (oʻqitish uzunligida ham yechmagan edi)",
}


def seed1_soz(h1, h0):
    return (
        "ham " if (h1 == "ishladi") == (h0 == "ishladi") else "esa "
    ) + h1


h0, h1 = holat("sinusoidal", Tmax), holat("sinusoidal, seed 1", Tmax)
r0, r1 = holat("RoPE", Tmax), holat("RoPE, seed 1", Tmax)
for nom, (a0, a1) in {"sin": (h0, h1), "rope": (r0, r1)}.items():
    glue(f"poz_{nom}_soz", ASOSIY_SOZ[a0], display=False)
    glue(f"poz_{nom}1_soz", seed1_soz(a1, a0), display=False)
glue(
    "poz_rope_nega",
    {
        "ishladi": "RoPE modeli uzunroq ketma-ketlikka ham koʻchdi.",
        "yomonlashdi": (
            "Nega RoPE modeli uzunroq ketma-ketlikda yomonlashdi?"
        ),
        "ishlamadi": (
            "RoPE modeli oʻqitish uzunligida ham vazifani yechmagan."
        ),
    }[r0],
    display=False,
)
glue(
    "poz_org_soz",
    {
        "ishladi": "ham ishladi",
        "yomonlashdi": "yomonlashdi",
        "ishlamadi": "ishlamadi",
    }[holat("oʻrganiladigan", 30)],
    display=False,
)
# oʻqitishda koʻrilmagan pozitsiyalari bor uzunliklar
keyingi = [Tx for Tx in poz_Tlar if Tx > T]
if not ishladi(poz_aniq["sinusoidal"][T]):
    glue(
        "poz_chalgitmadi",
        "Bu model oʻqitish uzunligida ham vazifani yechmagan, shuning"
        " uchun uzunroq ketma-ketlik haqida undan xulosa chiqarib"
        " boʻlmaydi.",
        display=False,
    )
else:
    glue(
        "poz_chalgitmadi",
        f"Model oʻqitishda {T}-pozitsiya va undan keyingilarini hech"
        " koʻrmagan, "
        + (
            "lekin ular uni chalgʻitmadi."
            if all(
                ishladi(poz_aniq["sinusoidal"][Tx]) for Tx in keyingi
            )
            else "va ular uni chalgʻitdi."
        ),
        display=False,
    )
sinus_nomlar = [n_ for n_ in poz_aniq if n_.startswith("sinus")]
sin_hammasi = all(
    ishladi(poz_aniq[n_][Tx]) for n_ in sinus_nomlar for Tx in poz_Tlar
)
model_qatorlari = list(qatorlar.values()) + ["oʻrganiladigan"]
modellar_min = min(
    a for n_ in model_qatorlari for a in poz_aniq[n_].values()
)
glue("poz_modellar_min", modellar_min, display=False)
qoida_max = max(
    max(poz_aniq[q].values())
    for q in ("ishoralar koʻpchiligi", "sign(Σx)")
)
# qoidalardan 0,1 dan koʻp yuqori boʻlmagan (qator, T) juftliklari
qoida_T = lambda Tx: max(
    poz_aniq[q][Tx] for q in ("ishoralar koʻpchiligi", "sign(Σx)")
)
qoida_yaqin = [
    (n_, Tx)
    for n_ in model_qatorlari
    for Tx, a in poz_aniq[n_].items()
    if a <= qoida_max + 0.1
]
glue("poz_qoida_yaqin_soni", len(qoida_yaqin), display=False)
glue("poz_qoida_T", [qoida_T(Tx) for Tx in poz_Tlar], display=False)
glue(
    "poz_qoida_gap",
    (
        "Hamma model ulardan ancha yuqori — ular pozitsiyani"
        " ishlatmoqda."
        if not qoida_yaqin
        else (
            "Lekin ayrim modellar ulardan 0,1 dan ortiq oshmadi: "
            + "; ".join(
                f"{n_} (T = {Tx}): {son(poz_aniq[n_][Tx], '.3f')}"
                + (
                    ", shu T dagi qoidadan ham past"
                    if poz_aniq[n_][Tx] < qoida_T(Tx)
                    else ""
                )
                for n_, Tx in qoida_yaqin
            )
            + "."
        )
    ),
    display=False,
)
glue(
    "poz_xavf_gap",
    (
        "Ogʻirlik 0-qadamda qolgani uchun bu uzunliklarda ikkalasi ham"
        " sezilmadi."
        if min(poz_etibor["sinusoidal"].values()) > 0.9
        else (
            "Bu uzunliklarda 0-qadam ulushi"
            f" {son(min(poz_etibor['sinusoidal'].values()), '.3f')}"
            " gacha tushdi:"
            " xavf sezildi."
        )
    ),
    display=False,
)
glue(
    "poz_nega",
    (
        "Nega bu ishladi?"
        if sin_hammasi
        else "Nega bu har doim ishlamaydi?"
    ),
    display=False,
)
glue(
    "poz_yaxshi_gap",
    (
        "Bizning vazifamizda faqat bitta pozitsiya muhim, shuning"
        f" uchun T = {Tmax} gacha natija bunchalik yaxshi."
        if sin_hammasi
        else (
            "Bizning vazifamizda faqat bitta pozitsiya muhim, lekin"
            " shunda ham natija har doim yaxshi chiqmadi."
        )
    ),
    display=False,
)

# %% [markdown]
# {numref}`%s-jadvaldan <poz_jadval>` toʻrtta xulosa chiqaramiz:
#
# - **Sinusoidal model** *T* = {glue:text}`poz_T_max` da {glue:text}`poz_sin_soz`:
#   {term}`aniqlik` {glue:text}`poz_sin_240:.3f` (*T* = 60 da {glue:text}`poz_sin_60:.3f`).
#   Toʻrt uzunlikdagi eng katta va eng kichik aniqlik farqi
#   {glue:text}`poz_sin_farq:.3f` — bu {glue:text}`poz_farq_soz` (ikki
#   aniqlik farqining {term}`standart xatosi <standart xato>` taxminan {glue:text}`poz_farq_xato:.3f`).
#   {glue:text}`poz_chalgitmadi` Seed 1 bilan oʻqitilgan model
#   {glue:text}`poz_sin1_soz`: *T* = {glue:text}`poz_T_max` da {glue:text}`poz_sin1_240:.3f`.
# - **RoPE modeli** *T* = {glue:text}`poz_T_max` da {glue:text}`poz_rope_soz`:
#   aniqlik {glue:text}`poz_rope_240:.3f` (*T* = 60 da
#   {glue:text}`poz_rope_60:.3f`, *T* = 120 da {glue:text}`poz_rope_120:.3f`).
#   Seed 1 bilan oʻqitilgani {glue:text}`poz_rope1_soz`: *T* =
#   {glue:text}`poz_T_max` da {glue:text}`poz_rope1_240:.3f`.
# - **Oʻrganiladigan model** *T* = 30 da {glue:text}`poz_org_soz`
#   ({glue:text}`poz_org_30:.3f`): qisqa ketma-ketlikda u faqat birinchi 30 ta
#   vektorini oladi. *T* = 120 va 240 da esa uni ishga tushirib boʻlmaydi:
#   {glue:text}`poz_org_T`-pozitsiyadan boshlab uning qoʻshadigan vektori yoʻq,
#   `forward` `ValueError` bilan toʻxtaydi.
# - **Tartibni bilmaydigan qoidalar** hech bir *T* da {glue:text}`poz_qoida_max:.3f` dan
#   oshmadi. Nazariy jihatdan ular *T* oshgan sari tasodifiy taxmin
#   darajasiga (javoblarning yarmi) yaqinlashadi: uzunroq ketma-ketlikda birinchi sonning
#   toʻplamdagi hissasi kichrayadi. {glue:text}`poz_qoida_gap`
#
# {glue:text}`poz_rope_nega` RoPEda ball pozitsiyaga faqat masofa
# *m* − *n* orqali bogʻliq. «Birinchi element» esa masofa emas:
# *m*-soʻrov uchun u *m* {term}`qadam` orqada. Demak, model har masofa uchun
# ballni alohida oʻrganishi kerak, oʻqitishda esa u faqat
# −{glue:text}`poz_T_1` dan {glue:text}`poz_T_1` gacha masofalarni koʻrgan.
# *T* = {glue:text}`poz_T_max` da masofalar −{glue:text}`poz_T_max_1` dan
# {glue:text}`poz_T_max_1` gacha. Buni tekshirish uchun seed 0 modelining
# 0-qadamga bergan ogʻirligini soʻrovlarning ikki guruhida alohida
# oʻlchaymiz: 0–{glue:text}`poz_T_1`-soʻrovlar (ular uchun 0-qadam tanish
# masofada) va qolganlari (0-qadam model koʻrmagan masofada).

# %%
Tmax_r = poz_Tlar[-1]
Xr, _ = vazifa(250, Tmax_r, 4)
with torch.no_grad():
    m_rope(Xr)
# (250, 240, 240) -> (240,): har soʻrovning 0-kalitga ogʻirligi
w0_sorov = m_rope.ogirlik[:, :, 0].mean(0)
tanish, yangi = w0_sorov[:T].mean().item(), w0_sorov[T:].mean().item()
# (240, 240): soʻrov m va kalit n orasida |m − n| ≥ 60 — oʻqitishda yoʻq
p_ = torch.arange(Tmax_r)
begona = (p_[None, :] - p_[:, None]).abs() >= T
# 0…59-soʻrovlar ogʻirligining shunday kalitlarga ketgan qismi
begona_ulush = (
    (m_rope.ogirlik[:, :T] * begona[:T]).sum(-1).mean().item()
)
print(f"RoPE, seed 0, T = {Tmax_r}: 0-qadamga ogʻirlik")
print(f"  0–{T - 1}-soʻrovlar:   {tanish:.3f}")
print(f"  {T}–{Tmax_r - 1}-soʻrovlar: {yangi:.3f}")
print(f"  T = {T} da (hamma soʻrov): {poz_etibor['RoPE'][T]:.3f}")
print(
    f"0–{T - 1}-soʻrovlarning |m − n| ≥ {T} kalitlarga"
    f" ogʻirligi: {begona_ulush:.3f}"
)

# %% tags=["remove-cell"]
w60 = poz_etibor["RoPE"][T]
glue("poz_T_max_1", Tmax_r - 1, display=False)
glue("poz_T_1", T - 1, display=False)
glue("poz_rope_tanish", tanish, display=False)
glue("poz_rope_yangi", yangi, display=False)
glue("poz_rope_w60", w60, display=False)
glue("poz_rope_begona", begona_ulush, display=False)
if yangi < 0.5 * w60 and tanish >= 0.5 * w60:
    rope_guruh = (
        "Tanish masofadagi soʻrovlar 0-qadamga hali ham qaraydi"
        f" ({son(tanish, '.3f')}; T = {T} da {son(w60, '.3f')}), yangi"
        f" masofadagilar esa deyarli qaramaydi ({son(yangi, '.3f')}):"
        " model ballni masofa boʻyicha oʻrgangan, oʻqitishda"
        " uchramagan masofa esa unga begona."
    )
elif yangi < 0.5 * w60:
    rope_guruh = (
        "Ikkala guruhda ham 0-qadamga berilgan ogʻirlik keskin kamaydi. Yangi masofadagi"
        f" soʻrovlar unga atigi {son(yangi, '.3f')} ogʻirlik berdi,"
        f" tanish masofadagilar ham {son(tanish, '.3f')} (T = {T} da"
        f" {son(w60, '.3f')}): ularning ogʻirligining"
        f" {foiz(begona_ulush)} qismi oʻqitishda uchramagan"
        f" masofadagi (|m − n| ≥ {T}) kalitlarga ketdi. Sababi"
        " bitta: model ballni faqat koʻrgan masofalari uchun"
        " oʻrgangan."
    )
else:
    rope_guruh = (
        f"Yangi masofadagi soʻrovlar ham 0-qadamga {son(yangi, '.3f')}"
        f" ogʻirlik berdi (tanishlari {son(tanish, '.3f')}; T = {T} da"
        f" {son(w60, '.3f')}): bu modelda ogʻirlik koʻrilmagan"
        " masofalar tufayli yoʻqolmadi."
    )
glue("poz_rope_guruh_gap", rope_guruh, display=False)

# %% [markdown]
# {glue:text}`poz_rope_guruh_gap`
#
# Bu tushuntirishni nazorat tajribasi bilan tekshiramiz. Sabab koʻrilmagan
# masofalar boʻlsa, ularni yashirganda model yana ishlashi kerak. Oʻqitilgan
# modellarni oʻzgartirmaymiz: `rope_yaqin` ularning `forward` metodini takrorlaydi,
# faqat |*m* − *n*| ≥ {glue:text}`poz_T` boʻlgan juftliklarning ballini
# −∞ qiladi. U holda {glue:text}`poz_T`-soʻrov va undan keyingilar uchun
# 0-qadam ham yashiriladi, ular javobga faqat shovqin qoʻshadi.
# Shuning uchun ikkinchi oʻlchovda oxirgi oʻrtachaga faqat
# 0–{glue:text}`poz_T_1`-soʻrovlarni olamiz.

# %%
def rope_yaqin(m, X, chegara, faqat_tanish=False):
    # RoPE modelining forward metodi; |m − n| ≥ chegara juftliklar
    # yashirin
    hh = m.inp(X)
    Q, K, V = rope(m.q(hh)), rope(m.k(hh)), m.v(hh)
    ball = Q @ K.transpose(1, 2) / K.shape[-1] ** 0.5
    p_ = torch.arange(X.shape[1])
    uzoq = (p_[None, :] - p_[:, None]).abs() >= chegara
    w = torch.softmax(ball.masked_fill(uzoq, float("-inf")), dim=-1)
    chiqish = w @ V  # (batch, T, d)
    if faqat_tanish:
        chiqish = chiqish[:, :chegara]  # 0…chegara−1-soʻrovlar
    return m.fc(chiqish.mean(1))


# %% tags=["remove-cell"]
rope_yaqin = partial(baho, rope_yaqin)


# %%
# jadvaldagi T = 240 sinov maʼlumoti
Xp, yp = vazifa(poz_n, Tmax_r, 4)
rope_nazorat = {}
for s in poz_seedlar:
    m_s = poz_m["RoPE", s][1]
    for tanish_ in (False, True):
        togri = 0
        with torch.no_grad():
            for i in range(0, poz_n, 250):
                javob = rope_yaqin(m_s, Xp[i : i + 250], T, tanish_)
                togri += (javob.argmax(1) == yp[i : i + 250]).sum()
        rope_nazorat[s, tanish_] = togri.item() / poz_n
    print(f"RoPE, seed {s}, T = {Tmax_r}:")
    print(f"  oddiy: {poz_aniq[qatorlar['RoPE', s]][Tmax_r]:.3f}")
    print(f"  uzoq juftliklar yashirin: {rope_nazorat[s, False]:.3f}")
    print(
        f"  + faqat 0–{T - 1}-soʻrovlar: {rope_nazorat[s, True]:.3f}"
    )

# %% tags=["remove-cell"]
glue("poz_T", T, display=False)
for (s, tanish_), a in rope_nazorat.items():
    glue(f"poz_nazorat_{s}_{int(tanish_)}", a, display=False)
oddiy = [poz_aniq[qatorlar["RoPE", s]][Tmax_r] for s in poz_seedlar]
yashirin = [rope_nazorat[s, False] for s in poz_seedlar]
ikkalasi = [rope_nazorat[s, True] for s in poz_seedlar]
# two seeds' values joined by "va", more by ";": a comma is the decimal sign
orali = lambda q: (" va " if len(q) == 2 else "; ").join(
    son(a, ".3f") for a in q
)
if all(b > a + 0.1 for a, b in zip(oddiy, yashirin)):
    nazorat_gap = (
        f"Aniqlik {orali(oddiy)} edi; uzoq juftliklar yashirilganda u"
        f" {orali(yashirin)} ga koʻtarildi."
    )
else:
    nazorat_gap = (
        f"Aniqlik {orali(oddiy)} edi; uzoq juftliklarni yashirishning"
        f" oʻzi yordam bermadi ({orali(yashirin)}): endi 0-qadamni"
        f" koʻrmaydigan {T}–{Tmax_r - 1}-soʻrovlar javobga shovqin"
        " qoʻshadi."
    )
if all(a >= chegara for a in ikkalasi):
    nazorat_gap += (
        " Oxirgi oʻrtachaga faqat tanish soʻrovlar olinganda esa"
        f" aniqlik {orali(ikkalasi)}: model yana vazifani yechdi."
        " Demak, modelda vazifani yechadigan qoida bor, uni faqat"
        " oʻqitishda koʻrilmagan masofalar buzgan."
    )
elif all(b > a + 0.1 for a, b in zip(oddiy, ikkalasi)):
    nazorat_gap += (
        " Oxirgi oʻrtachaga faqat tanish soʻrovlar olinganda aniqlik"
        f" {orali(ikkalasi)} ga koʻtarildi, lekin hamma seedda ham"
        " vazifa yechilmadi: koʻrilmagan masofalar sababning bir"
        " qismi, xolos."
    )
else:
    nazorat_gap += (
        " Oxirgi oʻrtachaga faqat tanish soʻrovlar olinganda ham"
        f" ({orali(ikkalasi)}) model yechmadi: sabab faqat koʻrilmagan"
        " masofalarda emas."
    )
glue("poz_nazorat_gap", nazorat_gap, display=False)

# %% [markdown]
# {glue:text}`poz_nazorat_gap` Til modellarida ham RoPE oʻqitish
# uzunligidan ancha uzoqqa oʻz-oʻzidan koʻchmaydi. Model bir vaqtda
# koʻradigan uzunlikni ({term}`kontekst oynasini <kontekst oynasi>`, *context window*) kengaytirish
# uchun burchaklarni qayta masshtablash usullari ishlatiladi (masalan,
# {cite:alp}`chen2023`): ular yangi pozitsiyalarni model oʻqitishda
# koʻrgan burchaklar oraligʻiga siqadi. *T* = 120 dagi aniq son esa
# seedga sezgir ({glue:text}`poz_rope_120:.3f` va
# {glue:text}`poz_rope1_120:.3f`): ikki seed pasayish borligini
# koʻrsatadi, uning aniq kattaligini emas.
#
# Sinusoidal model (seed 0) qayerga qarayotganini ogʻirliklar koʻrsatadi:
# har *T* da soʻrovlar 0-qadamga oʻrtacha kamida
# {glue:text}`poz_etibor_min:.3f` ogʻirlik berdi. Uzunroq ketma-ketlikda
# ikki xavf bor. Birinchisi — {term}`softmaxning <softmax>` {term}`suyulishi <suyulish>`
# (*dilution*): kalitlar koʻpaysa, ogʻirlik ular orasida boʻlinib, 0-qadam
# ulushi kamayishi mumkin. Ikkinchisi — oxirgi oʻrtalashtirish: agar soʻrovlarning bir qismi
# 0-qadamga qaramay qoʻysa, ularning shovqini javobga aralashadi.
# {glue:text}`poz_xavf_gap`
#
# {glue:text}`poz_nega` 0-pozitsiyaning vektori *T* ga bogʻliq emas, model uni
# oʻqitishda koʻrgan. Model faqat yangi pozitsiyalarni 0-pozitsiya bilan
# adashtirmasligi kerak. Bu kafolatlanmagan: *T* ni
# {glue:text}`poz_T_uzun` gacha oshirib, ogʻirliklar qayerga ketishini
# koʻramiz (100 ta namuna yetadi: biz aniqlikni emas, oʻrtacha ogʻirlikni
# oʻlchaymiz).

# %%
def kalit_ogirligi(m, X, bolak=25):
    # har kalit olgan oʻrtacha ogʻirlik, (T,); boʻlaklab:
    # 25 ta namuna, T = 960 da (25, 960, 960) matritsa ≈ 90 MB
    ogir = torch.zeros(X.shape[1])
    with torch.no_grad():
        for i in range(0, len(X), bolak):
            m(X[i : i + bolak])
            # (bolak, T, T) -> (T,)
            ogir += m.ogirlik.sum(dim=(0, 1))
    # har soʻrov qatorining yigʻindisi 1
    return ogir / (len(X) * X.shape[1])


# %% tags=["remove-cell"]
kalit_ogirligi = partial(baho, kalit_ogirligi)


# %%
poz_T_uzun = 960
Xu, _ = vazifa(100, poz_T_uzun, 4)
# (tur, seed) -> har kalitga oʻrtacha ogʻirlik, (960,)
uzun_ogir = {}
# (tur, seed) -> eng koʻp ogʻirlik olgan 5 pozitsiya (0-qadamdan boshqa)
beshlik = {}
uzun_qatorlar = []
for (nom, s), (_, m_s) in poz_m.items():
    ogir_s = kalit_ogirligi(m_s, Xu)
    top_s = ogir_s[1:].argsort(descending=True)[:5] + 1
    uzun_ogir[nom, s], beshlik[nom, s] = ogir_s, top_s
    uzun_qatorlar.append(
        {
            "model": f"{nom}, seed {s}",
            "0-qadam": round(ogir_s[0].item(), 3),
            f"1–{T - 1}": round(ogir_s[1:T].sum().item(), 3),
            f"{T}–{poz_T_uzun - 1}": round(ogir_s[T:].sum().item(), 3),
            "5 pozitsiya": ", ".join(
                map(str, top_s.tolist())
            ),
            # 0-qadamga tushmagan ogʻirlikdan beshtasiniki
            "ularning ulushi": round(
                (ogir_s[top_s].sum() / (1 - ogir_s[0])).item(), 3
            ),
        }
    )
show(
    pd.DataFrame(uzun_qatorlar),
    izoh=(
        f"T = {poz_T_uzun} da (100 ta namuna) kalitlar olgan oʻrtacha"
        " ogʻirlik: 0-qadamniki va oʻqitishda boʻlgan hamda boʻlmagan"
        " pozitsiyalar guruhlariniki (guruh boʻyicha yigʻindi);"
        " 0-qadamdan boshqa eng koʻp ogʻirlik olgan"
        " beshta pozitsiya va ular 0-qadamga tushmagan ogʻirlikning"
        " qancha qismini olgani."
    ),
    nom="uzun_jadval",
)
# seed 0 va seed 1 ikkalasida ham beshlikka kirgan pozitsiyalar
to_plam = {k: set(v.tolist()) for k, v in beshlik.items()}
umumiy = sorted(to_plam["sinusoidal", 0] & to_plam["sinusoidal", 1])
rope_umumiy = sorted(to_plam["RoPE", 0] & to_plam["RoPE", 1])
# sinusoidal va RoPE modellari beshliklarida bir xil pozitsiyalar
sin_rope = sorted(
    (to_plam["sinusoidal", 0] | to_plam["sinusoidal", 1])
    & (to_plam["RoPE", 0] | to_plam["RoPE", 1])
)
print("ikki seedda ham beshlikda: sinusoidal —", umumiy or "yoʻq")
print("                           RoPE —", rope_umumiy or "yoʻq")
print("sinusoidal va RoPE beshliklarida bir xil:", sin_rope or "yoʻq")


# %% tags=["remove-cell"]
# sinusoidal modellar: seed -> 0-qadam ogʻirligi
uzun_0qadam = {
    s: uzun_ogir["sinusoidal", s][0].item() for s in poz_seedlar
}
# asosiy model (seed 0)
ogir, eng_kop = uzun_ogir["sinusoidal", 0], beshlik["sinusoidal", 0]
top_ulush = float(ogir[eng_kop].sum() / (1 - ogir[0]))
for s, w in uzun_0qadam.items():
    glue(f"poz_etibor_uzun_{s}", w, display=False)
umumiy_matn = (
    (
        ", ".join(map(str, umumiy[:-1])) + " va "
        if len(umumiy) > 1
        else ""
    )
    + str(umumiy[-1])
    if umumiy
    else ""
)
glue(
    "poz_umumiy",
    ", ".join(map(str, umumiy)) or "hech qaysi",
    display=False,
)
glue(
    "poz_umumiy_jumla",
    (
        "qisman bir xil: har modelda eng koʻp ogʻirlik olgan beshta"
        f" pozitsiyadan {umumiy_matn} ikkalasida ham bor."
        " Koʻrinishidan, qaysi pozitsiyalar 0-pozitsiyaga «oʻxshab»"
        " qolishini kodlash vektorlarining oʻzi belgilaydi"
        + (
            ", adashish qanchalik kuchli boʻlishini esa oʻqitilgan model (seed)"
            " belgilaydi"
            if abs(uzun_0qadam[1] - uzun_0qadam[0]) > 0.1
            else ""
        )
        if umumiy
        else (
            "ikkala modelda har xil: eng koʻp ogʻirlik olgan beshta"
            " pozitsiyadan hech biri ikkalasida birga uchramadi"
        )
    ),
    display=False,
)
glue("poz_umumiy_soni", len(umumiy), display=False)
glue("poz_T_uzun", poz_T_uzun, display=False)
glue("poz_etibor_uzun", ogir[0].item(), display=False)
glue(
    "poz_yangi_ulush",
    float(ogir[T:].sum() / (1 - ogir[0])),
    display=False,
)
glue(
    "poz_top", ", ".join(map(str, eng_kop[:3].tolist())), display=False
)
glue("poz_top_ulush", top_ulush, display=False)
# 0-qadamdan boshqa pozitsiyalar
qolgan_soni = poz_T_uzun - 1
# bir tekis boʻlinsa beshta pozitsiya ulushi
tekis_ulush = len(eng_kop) / qolgan_soni
# beshtasi ham oʻqitishda boʻlmaganmi
hammasi_yangi = all(p_ >= T for p_ in eng_kop.tolist())
def royxat(p_):
    return (
        ", ".join(f"{x}-" for x in p_[:-1]) + " va " + str(p_[-1])
        if len(p_) > 1
        else str(p_[0])
    )


# «313-, 772- va 558-pozitsiyalar»
eng_kattalari = royxat(eng_kop[:3].tolist())
if top_ulush > 10 * tekis_ulush:
    glue(
        "poz_uzun_gap",
        "bir tekis taqsimlanmadi: atigi beshta pozitsiya 0-qadamga tushmagan"
        f" ogʻirlikning {foiz(top_ulush)} qismini oldi (eng kattalari —"
        f" {eng_kattalari}-pozitsiyalar). Bu oddiy suyulish emas: unda"
        f" ogʻirlik qolgan {qolgan_soni} pozitsiyaga teng boʻlinardi va"
        f" beshtasiga {foiz(tekis_ulush, 1)} tushardi. Har namunada"
        " sonlar boshqa, pozitsiyalar esa bir xil. Demak, eʼtiborni bu"
        " pozitsiyalarning vektorlari tortmoqda — model uchun ular"
        " 0-pozitsiyaga oʻxshab qolgan."
        + (
            " Oʻqitishda bunday pozitsiyalar boʻlmagan, shuning uchun"
            " model ularni «0-pozitsiya emas» deb oʻrganmagan."
            if hammasi_yangi
            else ""
        ),
        display=False,
    )
elif top_ulush > 2 * tekis_ulush:
    glue(
        "poz_uzun_gap",
        "notekis taqsimlandi: eng koʻp ogʻirlik olgan beshta pozitsiya"
        f" 0-qadamga tushmagan ogʻirlikning {foiz(top_ulush)} qismini"
        f" oldi (eng kattalari — {eng_kattalari}-pozitsiyalar; qolgan"
        f" {qolgan_soni} pozitsiyaga teng boʻlinganda beshtasiga"
        f" {foiz(tekis_ulush, 1)} tushardi).",
        display=False,
    )
else:
    glue(
        "poz_uzun_gap",
        "deyarli bir tekis taqsimlandi: eng koʻp ogʻirlik olgan beshta pozitsiya"
        f" 0-qadamga tushmagan ogʻirlikning atigi {foiz(top_ulush)}"
        f" qismini oldi (qolgan {qolgan_soni} pozitsiyaga teng"
        f" boʻlinganda {foiz(tekis_ulush, 1)}). Bu oddiy suyulishga"
        " oʻxshaydi: kalitlar koʻpaydi va ogʻirlik ular orasida"
        " boʻlindi.",
        display=False,
    )
glue("poz_top_yangi", hammasi_yangi, display=False)
# seed 0 va seed 1: 0-qadam ogʻirligi
w0_uzun = [uzun_0qadam[s] for s in poz_seedlar]
if abs(w0_uzun[1] - w0_uzun[0]) <= 0.1:
    seed1_gap = (
        f"Seed 1 modelida ham shunga yaqin: T = {poz_T_uzun} da 0-qadam"
        f" {son(w0_uzun[1], '.3f')} ogʻirlik oldi"
    )
elif w0_uzun[1] < w0_uzun[0]:
    seed1_gap = (
        "Seed 1 bilan oʻqitilgan modelda bu hodisa"
        f" {'ancha kuchli' if w0_uzun[1] < w0_uzun[0] / 2 else 'kuchliroq'}:"
        f" T = {poz_T_uzun} da 0-qadam atigi {son(w0_uzun[1], '.3f')}"
        " ogʻirlik oldi"
        + (
            ". Bu uzunlikda u 0-qadamga deyarli qaramaydi"
            if w0_uzun[1] < 0.1
            else ""
        )
    )
else:
    seed1_gap = (
        f"Seed 1 bilan oʻqitilgan modelda bu hodisa kuchsizroq: T = {poz_T_uzun} da 0-qadam "
        f"{son(w0_uzun[1], '.3f')} ogʻirlik oldi"
    )
glue("poz_seed1_gap", seed1_gap, display=False)
glue(
    "poz_seedlar_farqli",
    abs(w0_uzun[1] - w0_uzun[0]) > 0.1,
    display=False,
)
glue(
    "poz_mashq7_gap",
    (
        f"Oʻlchovingiz shuni koʻrsatsa, xulosa T = {poz_T_uzun} dagi"
        " tajribadagi kabi: yangi pozitsiyalarga koʻchish faqat"
        " sinusoidal formulaga emas, oʻqitilgan modelga ham bogʻliq,"
        " shuning uchun uni bitta seed bilan baholab boʻlmaydi."
        if abs(w0_uzun[1] - w0_uzun[0]) > 0.1
        else (
            "Oʻlchovingiz shuni koʻrsatsa, xulosa: yangi"
            " pozitsiyalarga koʻchish faqat sinusoidal formulaga emas,"
            " oʻqitilgan modelga ham bogʻliq, shuning uchun uni bitta"
            " seed bilan baholab boʻlmaydi (bu nashrdagi T ="
            f" {poz_T_uzun} tajribasida ikki seed bir-biriga yaqin"
            " chiqdi)."
        )
    ),
    display=False,
)

# %% tags=["remove-cell"]
# beshta pozitsiya 0-qadamga tushmagan ogʻirlikning qancha qismini oldi
besh_ulush = {
    k: float(w[beshlik[k]].sum() / (1 - w[0]))
    for k, w in uzun_ogir.items()
}
# bir necha pozitsiyada toʻplanish: bir tekisdan 10 marta koʻp
toplangan = [k for k, u in besh_ulush.items() if u > 10 * tekis_ulush]
for (nom, s), u in besh_ulush.items():
    glue(f"poz_besh_{nom.lower()}_{s}", u, display=False)
    glue(
        f"poz_uzun0_{nom.lower()}_{s}",
        uzun_ogir[nom, s][0].item(),
        display=False,
    )
glue("poz_toplangan_soni", len(toplangan), display=False)
glue("poz_sin_rope_soni", len(sin_rope), display=False)


rope_top = beshlik["RoPE", 0][:3].tolist()
rope_toplangan = [k for k in toplangan if k[0] == "RoPE"]
sin_toplangan = [k for k in toplangan if k[0] == "sinusoidal"]
sink_gap = (
    "Bizning sinusoidal modellarimizdagi pozitsiyalar tashqi"
    " koʻrinishdan shunga oʻxshaydi: har namunada sonlar boshqa, ular esa"
    " ogʻirlikni baribir oladi. Lekin bu sink emas, adashish: model"
    " ularni oʻzi qidirayotgan 0-pozitsiya deb oladi, buni esa faqat"
    " oʻqitishda koʻrmagan uzunlikda qiladi. Sink esa oʻqitish uzunligining"
    " oʻzida oʻrganiladi va «hech narsaga qaramaslik» uchun xizmat"
    " qiladi."
    if sin_toplangan
    else (
        "Sinusoidal modellarimizda esa ogʻirlik bir necha pozitsiyada"
        " toʻplanmadi: hech birida beshta pozitsiya 0-qadamga tushmagan"
        " ogʻirlikning bir tekis boʻlinganidagidan 10 barobar koʻp"
        " qismini olmadi."
    )
)
if rope_toplangan:
    rope_sink = (
        "RoPE modellarida ham ogʻirlik bir necha pozitsiyada"
        " toʻplandi (seed 0 da beshta pozitsiya 0-qadamga tushmagan"
        f" ogʻirlikning {foiz(besh_ulush['RoPE', 0])} qismini oldi;"
        f" eng kattalari — {royxat(rope_top)}-pozitsiyalar)"
        + (
            ", lekin bu pozitsiyalar boshqa: ikki turdagi"
            " modellarning beshliklarida bitta ham umumiy pozitsiya"
            " yoʻq."
            if not sin_rope
            else (
                f"; {royxat(sin_rope)}-pozitsiyalar esa ikki turdagi"
                " modellarning beshliklarida ham bor."
            )
        )
    )
else:
    rope_sink = (
        "RoPE modellarida esa ogʻirlik bir necha pozitsiyada"
        " toʻplanmadi: eng koʻp olgan beshta pozitsiya 0-qadamga"
        " tushmagan ogʻirlikning atigi"
        f" {foiz(besh_ulush['RoPE', 0], 1)} qismini oldi (seed 1 da"
        f" {foiz(besh_ulush['RoPE', 1], 1)}), qolgani koʻp"
        " pozitsiyalarga yoyildi"
        + (
            f"; bu beshliklarning {royxat(sin_rope)}-pozitsiyasi"
            " sinusoidal modellarning beshliklarida ham bor."
            if len(sin_rope) == 1
            else (
                f"; bu beshliklarning {royxat(sin_rope)}-pozitsiyalari"
                " sinusoidal modellarning beshliklarida ham bor."
                if sin_rope
                else "."
            )
        )
        + " Bu — oʻlchov natijasi, RoPEning kafolati emas: agar"
        " oʻrganilgan ball masofaga qarab davriy boʻlsa, RoPE modelida"
        " ham hamma soʻrov uchun 0-pozitsiyaga «oʻxshab qoladigan»"
        " pozitsiya paydo boʻlardi."
    )
glue("poz_sink_gap", sink_gap, display=False)
glue("poz_rope_sink_gap", rope_sink, display=False)

# %% [markdown]
# *T* = {glue:text}`poz_T_uzun` da ({numref}`%s-jadval <uzun_jadval>`)
# sinusoidal modelda (seed 0) 0-qadam oʻrtacha ogʻirlikning
# {glue:text}`poz_etibor_uzun:.1%` qismini oldi. Qolganining
# {glue:text}`poz_yangi_ulush:.0%` qismi oʻqitishda boʻlmagan pozitsiyalarga
# ketdi va {glue:text}`poz_uzun_gap`
#
# {glue:text}`poz_seed1_gap`. Eng koʻp ogʻirlik olgan pozitsiyalar
# esa {glue:text}`poz_umumiy_jumla`.
#
# Mazmunidan qatʼi nazar, ogʻirlik toʻplanadigan pozitsiyalar katta til
# modellarida **{term}`attention sink`** («ogʻirlik choʻkadigan joy») deb ataladi
# {cite:p}`xiao2024`. U yerda ular ketma-ketlikning birinchi {term}`tokenlari <token>`:
# softmax ogʻirliklari yigʻindisi 1 ga teng, hech narsaga qarashi kerak
# boʻlmagan soʻrov esa ortiqcha ogʻirlikni doim bir joyga tashlashni
# oʻrganadi.
#
# {glue:text}`poz_sink_gap`
# {glue:text}`poz_rope_sink_gap`
#
# Xulosa: sinusoidal kodlash istalgan uzunlikda vektor beradi, lekin model
# bu vektorlarni oʻqitishda koʻrmagan joyda ham toʻgʻri ishlatishiga kafolat
# yoʻq. {glue:text}`poz_yaxshi_gap` Til modellarida sinusoidal kodlash oʻqitish
# uzunligidan biroz oʻtgach yomonlashadi {cite:ps}`press2022`.
# Qisqaroq oʻqitish uzunligi bilan natija seedga qanchalik bogʻliqligini
# 1-mashqda oʻzingiz oʻlchaysiz.

# %% tags=["remove-cell"]
# Xulosa sahifasi uchun (xulosa.py dagi jadval bu gaplarni shu darsdan
# oladi)
rope_max = max(poz_aniq[q][Tmax] for q in poz_aniq if q.startswith("RoPE"))
glue(
    "xl_uzun",
    f"Oʻlchandi: sinusoidal T = {T} → {Tmax}: aniqlik kamida"
    f" {son(min(poz_aniq[n][Tmax] for n in sinus_nomlar), '.3f')}"
    f" ({len(sinus_nomlar)} seed)"
    + (
        f", T = {poz_T_uzun} da kafolat yoʻq"
        if sin_hammasi
        else f", T ≤ {Tmax} da ham har doim ishlamadi"
    )
    + f"; RoPE T = {Tmax} da koʻpi bilan {son(rope_max, '.3f')}",
    display=False,
)

# %% [markdown]
# (kauzal-pozitsiyasiz)=
# ## Pozitsiyasiz, lekin kauzal maska bilan
#
# {doc}`«Attention mexanizmi» <mexanizm>` darsining 2-mashqida koʻrdik: pozitsiya kodlashsiz
# attention ham kauzal maska bilan tartibni sezadi. Bu oʻqitishda
# qanchalik yordam beradi? `Attention(60, pozitsiya=False, kauzal=True)` ni
# uch seed bilan oʻqitamiz. Yonida — maskasiz pozitsiyasiz model
# ({numref}`%s-jadvaldagi <sinov_jadval>`, ombordan). Baholash — `oqit` ning
# sinov toʻplamida ({glue:text}`kz_n` ta namuna).
#
# Maska tartib haqida qanday maʼlumot beradi? 0-soʻrov faqat 0-qadamni
# koʻradi, *m*-soʻrov esa 0–*m*-qadamlarni. Ogʻirliklar tekis boʻlsa ham,
# 0-qadam har soʻrovning oʻrtachasiga kiradi va oxirgi oʻrtalashtirishdan
# keyin *n*-qadamning chiqishdagi ulushi
#
# $$
# c_n = \frac{1}{T}\sum_{m=n}^{T-1}\frac{1}{m+1}
# $$
#
# boʻladi: $c_0$ eng katta, oxiriga qarab kamayadi. Shu ulushlar bilan
# olingan vaznli yigʻindining ishorasi — $\mathrm{sign}(\sum_n c_n x_n)$ —
# oʻqitilmagan, faqat maskadan kelgan qoida. Modelni shu qoidaga va tartibni
# bilmaydigan qoidalarning eng yaxshisiga (ishoralar koʻpchiligi) solishtiramiz. Ikkinchisining kutilgan aniqligini formula beradi: *k* ta musbat son
# boʻlsa, u $\max(k, T-k)/T$ ehtimol bilan toʻgʻri, *k* esa binomial
# taqsimlangan.

# %%
kz_seedlar = (0, 1, 2)
kz_turlar = {
    "maskasiz": partial(Attention, T, pozitsiya=False),
    "kauzal maska bilan": partial(
        Attention, T, pozitsiya=False, kauzal=True
    ),
}
kz_kalitlar = [(nom, s) for nom in kz_turlar for s in kz_seedlar]
# maskasizlari — «Attention, RNN va LSTM» darsidan, ombordan
kz_ishlar = [(kz_turlar[n_], T, s) for n_, s in kz_kalitlar]
kz = dict(zip(kz_kalitlar, parallel(oqit, kz_ishlar)))
# oqit ning sinov toʻplami
Xs, ys = vazifa(600, T, 2)
# maskadan keladigan ulushlar: c_n = (1/T) Σ_{m≥n} 1/(m+1), (T,)
c = (1 / torch.arange(1, T + 1)).flip(0).cumsum(0).flip(0) / T
# (600, T) @ (T,) -> (600,)
kz_c = (((Xs[:, :, 0] @ c) > 0).long() == ys).float().mean().item()
musbat = (Xs > 0).sum(dim=(1, 2))
kz_kop = ((2 * musbat > T).long() == ys).float().mean().item()
# ishoralar koʻpchiligining kutilgan aniqligi (k ~ Binom(T, 1/2))
kz_chegara = sum(
    math.comb(T, k) * max(k, T - k) for k in range(T + 1)
) / (2**T * T)

# %%
kz_qator = []
for nom in kz_turlar:
    aniq, ulush = [], []
    for s in kz_seedlar:
        a, m_s = kz[nom, s]
        with torch.no_grad():
            m_s(Xs)
        aniq.append(a)
        # 0-kalit ustuni, soʻrovlar boʻyicha oʻrtacha: chiqishdagi ulush
        ulush.append(m_s.ogirlik[:, :, 0].mean().item())
    kz_qator.append(
        {
            "model yoki qoida": f"pozitsiyasiz, {nom}",
            "aniqlik (seed 0; 1; 2)": "; ".join(
                son(a, ".3f") for a in aniq
            ),
            "eng yomon": round(min(aniq), 3),
            "0-qadam ulushi": round(float(np.mean(ulush)), 3),
        }
    )
kz_qator += [
    {
        "model yoki qoida": "sign(Σ cₙxₙ): faqat maska",
        "aniqlik (seed 0; 1; 2)": son(kz_c, ".3f"),
        "eng yomon": round(kz_c, 3),
        "0-qadam ulushi": round(c[0].item(), 3),
    },
    {
        "model yoki qoida": "ishoralar koʻpchiligi",
        "aniqlik (seed 0; 1; 2)": son(kz_kop, ".3f"),
        "eng yomon": round(kz_kop, 3),
        "0-qadam ulushi": round(1 / T, 3),
    },
]
show(
    pd.DataFrame(kz_qator),
    izoh=(
        "Pozitsiyasiz attention maskasiz va kauzal maska bilan"
        f" (T = {T}, {len(kz_seedlar)} seed), maskadan kelgan qoida va"
        " tartibni bilmaydigan qoidalar ichida kutilgan aniqligi eng"
        " yuqorisi, bitta sinov"
        " toʻplamida."
        " «0-qadam ulushi» — 0-qadamning chiqishdagi (soʻrovlar"
        " oʻrtachasidagi) ogʻirligi."
    ),
    nom="kz_jadval",
)
print(f"koʻpchilik qoidasi, formula boʻyicha: {kz_chegara:.3f}")

# %% tags=["remove-cell"]
kz_aniq = {
    nom: [kz[nom, s][0] for s in kz_seedlar] for nom in kz_turlar
}
kz_ulush = {q["model yoki qoida"]: q["0-qadam ulushi"] for q in kz_qator}
# bitta aniqlikning standart xatosi (600 ta namuna, p ≈ 0,5): 0,02;
# «yuqori» — uch standart xatodan koʻp
kz_xato = float(np.sqrt(0.25 / len(Xs)))
kauzal_a = kz_aniq["kauzal maska bilan"]
maskasiz_a = kz_aniq["maskasiz"]
kauzal_yuqori = min(kauzal_a) > kz_chegara + 3 * kz_xato
maskasiz_chegarada = max(maskasiz_a) <= kz_chegara + 3 * kz_xato
glue("kz_n", len(Xs), display=False)
glue("kz_chegara", kz_chegara, display=False)
glue("kz_c", kz_c, display=False)
glue("kz_kop", kz_kop, display=False)
glue("kz_c0", c[0].item(), display=False)
glue("kz_xato", kz_xato, display=False)
glue("kz_kauzal", kauzal_a, display=False)
glue("kz_maskasiz", maskasiz_a, display=False)
glue(
    "kz_kauzal_ulush",
    kz_ulush["pozitsiyasiz, kauzal maska bilan"],
    display=False,
)
oraliq = lambda q: (
    f"{son(min(q), '.3f')}–{son(max(q), '.3f')}"
)
# formula bergan aniqlik — kutilgan qiymat; shu 600 namunada qoida
# tasodifan undan bir-ikki standart xato farq qilishi mumkin
chegara_ = lambda qosh: (
    "ishoralar koʻpchiligining formula boʻyicha kutilgan aniqligi"
    f"{qosh} ({son(kz_chegara, '.3f')}; shu {len(Xs)} ta"
    f" namunada u {son(kz_kop, '.3f')} oldi)"
)
if kauzal_yuqori and maskasiz_chegarada:
    kz_gap = (
        "Maskaning oʻzi modelga tartib haqida maʼlumot berdi."
        " Pozitsiyasiz kauzal model uchala seedda ham"
        f" {chegara_('dan')} yuqori natija berdi:"
        f" {oraliq(kauzal_a)}. Maskasiz model esa shu daraja"
        f" atrofida qoldi ({oraliq(maskasiz_a)})."
    )
elif kauzal_yuqori:
    kz_gap = (
        "Pozitsiyasiz kauzal model uchala seedda ham"
        f" {chegara_('dan')} yuqori — {oraliq(kauzal_a)}."
        f" Lekin maskasiz model ham ({oraliq(maskasiz_a)}) bu"
        " darajadan yuqori chiqdi, shuning uchun farqni faqat"
        " maskaga bogʻlab boʻlmaydi."
    )
else:
    kz_gap = (
        "Bu oʻqitishda maska yetarli yordam bermadi: pozitsiyasiz"
        f" kauzal modelning aniqligi {oraliq(kauzal_a)}, u"
        f" {chegara_('dan')} har seedda uch standart xatodan koʻp"
        " yuqori emas."
    )
# sinusoidal modellar shu sinov toʻplamida (oqit)
sin_min = min(a for a, _ in sinuslar)
glue(
    "kz_sin_gap",
    (
        "Sinusoidal pozitsiyali model esa shu sinov toʻplamida kamida"
        f" {son(sin_min, '.3f')} oldi: bitta qatlam va oxirgi"
        " oʻrtalashtirish bilan maskaning oʻzi pozitsiya kodlash"
        " oʻrnini bosmaydi."
        if sin_min > max(kauzal_a) + 3 * kz_xato
        else (
            "Sinusoidal pozitsiyali model shu sinov toʻplamida"
            f" {son(sin_min, '.3f')} oldi — kauzal modeldan"
            " sezilarli yuqori emas."
        )
    ),
    display=False,
)
glue("kz_gap", kz_gap, display=False)

# %% [markdown]
# {glue:text}`kz_gap` 0-qadamning chiqishdagi ulushi kauzal modelda
# {glue:text}`kz_kauzal_ulush:.3f`, tekis ogʻirliklarda $c_0$ =
# {glue:text}`kz_c0:.3f` ({numref}`%s-jadval <kz_jadval>`): model
# 0-qadamni alohida ajratishni {glue:text}`kz_ulush_soz`.
#
# Model maskadan kelgan qoidadan qanchalik farq qiladi? 600 ta namunada
# farq standart xato darajasida, shuning uchun ikkalasini
# {glue:text}`kz_n20` ta yangi namunaning har birida juft-juft
# solishtiramiz. Nazorat sifatida —
# oʻsha modelning oʻzi, faqat ogʻirliklari tekis kauzal qilib qoʻyilgan
# (`kauzal_tekis`: qiymatlar va chiqish qatlami modelniki).

# %%
def kauzal_tekis(m, X):
    # har soʻrov oʻzini va oldingilarini teng ogʻirlik bilan oladi
    V = m.v(m.inp(X))  # (batch, T, d)
    Tx = X.shape[1]
    w = torch.ones(Tx, Tx).tril()
    w = w / w.sum(-1, keepdim=True)  # (T, T), qatorlar yigʻindisi 1
    return m.fc((w @ V).mean(1))


# %% tags=["remove-cell"]
kauzal_tekis = partial(baho, kauzal_tekis)


# %%
n20 = 20000
Xk, yk = vazifa(n20, T, 5)
# maskadan kelgan qoida: har namuna toʻgʻrimi, (20000,)
qoida_togri = ((Xk[:, :, 0] @ c) > 0).long() == yk
kz_juft = {}
for s in kz_seedlar:
    m_s = kz["kauzal maska bilan", s][1]
    with torch.no_grad():
        bolak = [m_s(Xk[i : i + 2000]) for i in range(0, n20, 2000)]
        model_togri = torch.cat(bolak).argmax(1) == yk
        tekis_togri = kauzal_tekis(m_s, Xk).argmax(1) == yk
    # juft farq: har namunada −1, 0 yoki 1
    farq = model_togri.float() - qoida_togri.float()
    kz_juft[s] = (
        model_togri.float().mean().item(),
        tekis_togri.float().mean().item(),
        farq.mean().item(),
        (farq.std() / len(farq) ** 0.5).item(),
    )
    print(
        f"seed {s}: model {kz_juft[s][0]:.3f}, tekis ogʻirlik bilan"
        f" {kz_juft[s][1]:.3f}"
    )
    print(
        f"  model − qoida = {kz_juft[s][2]:+.3f} ± {kz_juft[s][3]:.3f}"
    )
print(f"maskadan kelgan qoida: {qoida_togri.float().mean():.3f}")

# %% tags=["remove-cell"]
kz_qoida20 = qoida_togri.float().mean().item()
glue("kz_qoida20", kz_qoida20, display=False)
glue("kz_n20", son(len(Xk), "d"), display=False)
for s, (a, t, f, x) in kz_juft.items():
    for nom, v in (("model", a), ("tekis", t), ("farq", f), ("xato", x)):
        glue(f"kz_{nom}20_{s}", v, display=False)
farqlar = [f for _, _, f, _ in kz_juft.values()]
yuqori20 = all(f > 3 * x for _, _, f, x in kz_juft.values())
teng20 = all(abs(f) <= 3 * x for _, _, f, x in kz_juft.values())
tekislar = [t for _, t, _, _ in kz_juft.values()]
tekis_qoidada = all(abs(t - kz_qoida20) <= 0.01 for t in tekislar)
if yuqori20:
    kz_juft_gap = (
        "Har seedda model qoidadan biroz, lekin aniq yuqori: farq"
        f" {orali(farqlar)} (standart xato koʻpi bilan"
        f" {son(max(x for *_, x in kz_juft.values()), '.3f')})."
    )
elif teng20:
    kz_juft_gap = (
        f"Har seedda farq ({orali(farqlar)}) uch standart xato ichida:"
        " model qoida darajasida."
    )
else:
    kz_juft_gap = (
        f"Seedlarda farq har xil ({orali(farqlar)}): baʼzisida model"
        " qoidadan aniq farq qiladi, baʼzisida yoʻq."
    )
kz_juft_gap += (
    " Ogʻirliklari tekis qilib qoʻyilgan model"
    f" {orali(tekislar)} oldi — qoida darajasida"
    f" ({son(kz_qoida20, '.3f')})."
    if tekis_qoidada
    else " Ogʻirliklari tekis qilib qoʻyilgan model"
    f" {orali(tekislar)} oldi (qoida {son(kz_qoida20, '.3f')})."
)
kz_juft_gap += (
    " Demak, aniqlikning asosiy qismini maskaning oʻzi beradi,"
    " oʻrganilgan ogʻirliklar esa uning ustiga ozgina qoʻshadi."
    if yuqori20 and tekis_qoidada
    else ""
)
glue("kz_juft_gap", kz_juft_gap, display=False)
ulush_k = kz_ulush["pozitsiyasiz, kauzal maska bilan"]
glue(
    "kz_ulush_soz",
    "oʻrganmagan"
    if abs(ulush_k - c[0].item()) <= 0.25 * c[0].item()
    else "ham oʻrgangan",
    display=False,
)

# %% [markdown]
# {glue:text}`kz_juft_gap`
#
# Natija modelimizning oxirgi oʻrtalashtirishiga ham bogʻliq. Maska bilan
# 0-soʻrov faqat $x_0$ ni koʻradi: chiqishni faqat undan oladigan model
# vazifani toʻliq yechardi. Oxirgi soʻrov esa hamma kalitni koʻradi va
# pozitsiyasiz ular orasida birinchisini ajratadigan hech narsa yoʻq.
# {glue:text}`kz_sin_gap` Koʻp qatlamli til modellari esa pozitsiya
# kodlashsiz ham pozitsiyani ancha yaxshi oʻrganadi {cite:p}`haviv2022`.

# %% [markdown]
# ## Mashqlar
#
# Kod bilan ishlaydigan mashqlarda avval natijani **taxmin qiling**, soʻng
# oʻlchang. Taxmin va oʻlchov farq qilsa — eng koʻp oʻrganiladigan joy shu.
#
# **1-mashq (qisqa oʻqitish).** Sinusoidal modelni *T* = 30 da oʻqiting:
# `parallel(oqit, [(partial(Attention, 30, pozitsiya="sinus"), 30, 0)])`.
# Soʻng uni `poz_baho` bilan *T* = 30, 60, 120 va 240 da baholang.
# Oʻqitishdan oldin taxmin qiling: aniqlik *T* = 60 da oʻqitilgan
# modeldagidek saqlanadimi? 0-qadamga ogʻirlik-chi? Keyin seed 1 va 2
# bilan takrorlang.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Bu model faqat 30 ta pozitsiyani koʻrgan: *T* = 60 da pozitsiyalarning
# yarmi, *T* = 240 da sakkizdan yettisi unga yangi. Yangi pozitsiyalar
# qancha koʻp boʻlsa, ular orasida model 0-pozitsiya bilan
# adashtiradiganlari boʻlishi ehtimoli shuncha katta. Shuning uchun aniqlik
# va 0-qadamga ogʻirlik *T* = 60 da oʻqitilgan modeldagidan ertaroq —
# *T* = 60 dayoq — tushishi mumkin, qanchalik tushishi esa seeddan seedga
# farq qilishi mumkin. {glue:text}`poz_mashq7_gap` Oʻqitish
# uzunligi qancha katta boʻlsa, model «0-pozitsiya emas» degan
# pozitsiyalarni shuncha koʻp koʻradi.
# :::
