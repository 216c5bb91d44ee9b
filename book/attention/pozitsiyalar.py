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
# Bu darsda pozitsiyani berishning yana ikki usulini koʻramiz: formula bilan
# hisoblanadigan sinusoidal vektorlar va {term}`RoPE` (buruvchi {term}`pozitsiya kodlash`).
# {doc}`«Attention, RNN va LSTM bitta vazifada» <rekurrent>` darsida {term}`attention <attention (eʼtibor mexanizmi)>`
# modeli oʻrganiladigan pozitsiya kodlash bilan vazifani yechgan edi. Ikki yangi usulni oʻqitishdagidan uzunroq {term}`ketma-ketlikda <ketma-ketlik>`
# sinaymiz. Oxirida {term}`kauzal maskaning <kauzal (sababiy) maska>` oʻzi tartib haqida
# qanchalik maʼlumot berishini oʻlchaymiz. Vazifa va model oʻsha darsdagidek,
# faqat pozitsiya berish usuli oʻzgaradi.


# %%
import inspect
from functools import partial

import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import torch

from chapter_code.kitob import show, fig
from chapter_code.bichim import son
from chapter_code.malumot import vazifa
from chapter_code.modellar import Attention, rope, sinus_pozitsiya
from chapter_code.oqitish import oqit, parallel, baho

T = 60  # oʻqitish uzunligi, oldingi darsdagidek
d_model = inspect.signature(Attention).parameters["d"].default
seedlar = range(5)


# %% [markdown]
# ## Oʻrganiladigan va sinusoidal pozitsiyalar
#
# Oʻrganiladigan pozitsiya vektorlarining soni oʻzgarmas: `Attention(60)` da
# 60 ta. Qisqaroq ketma-ketlik ularning boshidagilarini oladi, 60-pozitsiya
# va undan keyingilari uchun esa vektor yoʻq.
#
# Asl {term}`Transformer` maqolasida {cite:p}`vaswani2017` pozitsiya vektorlari
# oʻrganilmaydi, balki formula bilan hisoblanadi. Bu —
# **{term}`sinusoidal pozitsiya kodlash`** (ingl. *sinusoidal positional encoding*).
# Har *p*-pozitsiya vektorining juft va toq komponentlari:
#
# $$
# \mathrm{PE}[p, 2i] = \sin\!\left(\frac{p}{10\,000^{2i/d}}\right), \qquad
# \mathrm{PE}[p, 2i+1] = \cos\!\left(\frac{p}{10\,000^{2i/d}}\right).
# $$
#
# Bu yerda *d* — vektor oʻlchami, *i* — komponentlar juftligining indeksi
# ($i = 0, 1, \dots, d/2 - 1$). Har juftlik — oʻz chastotasidagi toʻlqin:
# $i = 0$ juftlikning davri $2\pi$ pozitsiya, keyingilari
# tobora sekinroq tebranadi. Formulada *T* yoʻq: vektorni istalgan
# pozitsiya uchun hisoblash mumkin. Kodda `Attention(T, pozitsiya="sinus")` bu
# vektorlarni `sinus_pozitsiya` bilan hisoblab, kirishga qoʻshadi.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: sinus_pozitsiya
# ```
#
# Matritsani *d* = {glue:text}`poz_d` va {glue:text}`poz_T_rasm` ta pozitsiya
# uchun chizamiz ({numref}`sinus_pozitsiya`). Pastda — ikki pozitsiya
# vektorining **{term}`kosinus oʻxshashligi`** (vektorlar orasidagi burchak
# kosinusi: 1 — yoʻnalishi bir xil) masofaga qarab.

# %%
poz_T_rasm = 128
# (128, d): qator — pozitsiya
pe = sinus_pozitsiya(poz_T_rasm, d_model)
# har pozitsiyaning 0-pozitsiya bilan kosinus oʻxshashligi:
# (128, d), (1, d) -> (128,)
oxshash = torch.nn.functional.cosine_similarity(pe, pe[:1], dim=1)
# skalyar koʻpaytma faqat masofaga bogʻliqmi? Masofa ikkalasida 20
print(f"PE[5]·PE[25]  = {son(pe[5] @ pe[25], '.4f')}")
print(f"PE[50]·PE[70] = {son(pe[50] @ pe[70], '.4f')}")
# oxirgi juftlikning davri: i = d/2 - 1
davr = 2 * np.pi * 10000 ** ((d_model - 2) / d_model)


# %% tags=["remove-cell"]
from myst_nb import glue  # qiymatlarni matnga beradi
from chapter_code.bichim import pastga, yuqoriga  # «kamida», «koʻpi bilan»

glue("poz_d", d_model, display=False)
glue("poz_T_rasm", poz_T_rasm, display=False)
glue("poz_oxshash_1", oxshash[1].item(), display=False)
glue("poz_oxshash_uzoq", oxshash[10:].max().item(), display=False)
glue("poz_davr_max", davr, display=False)


# %%
rasm, (b1, b2) = plt.subplots(2, 1, figsize=(5.6, 6.4),
                              gridspec_kw={"height_ratios": [1.2, 1]})
tasvir = b1.imshow(pe.T.numpy(), cmap="RdBu_r", vmin=-1, vmax=1,
                   aspect="auto")
b1.set(xlabel="pozitsiya p", ylabel="komponent")
plt.colorbar(tasvir, ax=b1, fraction=0.046, ticks=[-1, 0, 1])
b2.plot(np.arange(poz_T_rasm), oxshash.numpy(), color="#1a73e8")
b2.set(xlabel="masofa (pozitsiya)", ylabel="kosinus oʻxshashligi")
b2.grid(True, alpha=0.3)
plt.tight_layout()
fig("sinus_pozitsiya.png", caption=(
    f"Yuqorida: sinusoidal pozitsiya kodlash, {poz_T_rasm}"
    f" pozitsiya × {d_model} komponent (qizil — +1, koʻk — −1)."
    " Pastda: ikki pozitsiya vektorining kosinus oʻxshashligi,"
    " ular orasidagi masofaga qarab."))

# %% [markdown]
# Rasmda tez tebranadigan komponentlar yaqin pozitsiyalarni ajratadi, sekinlari
# (oxirgi juftlikning davri {glue:text}`poz_davr_max:.0f` pozitsiya) —
# uzoqlarini. Qoʻshni pozitsiyalar juda oʻxshash
# ({glue:text}`poz_oxshash_1:.2f`), 10 va undan katta masofada esa
# oʻxshashlik {glue:text}`poz_oxshash_uzoq:.2f` dan oshmaydi.
#
# Yuqorida chiqarilgan ikki {term}`skalyar koʻpaytma` bir xil: ikkalasida
# masofa 20. Skalyar koʻpaytma pozitsiyalarning oʻziga emas, faqat masofaga
# bogʻliq, chunki $\sin a \sin b + \cos a \cos b = \cos(a - b)$.

# %% [markdown]
# ## RoPE: burilgan soʻrov va kalitlar
#
# Zamonaviy til modellari (masalan, Llama) pozitsiyani boshqacha beradi:
# **RoPE** (ingl. *{term}`rotary position embedding <RoPE>`*;
# {cite:alp}`su2021`). RoPE kirishga hech narsa qoʻshmaydi. U har
# attention {term}`qatlamida <qatlam>`
# {term}`soʻrov` va {term}`kalit` vektorlarining komponentlarini juftliklarga
# ajratadi va har juftlikni tekislikda burchakka buradi. Burilish burchagi
# *p*-pozitsiyadagi *i*-juftlik uchun $p\,\theta_i$ ga teng, bu yerda
# $\theta_i = b^{-2i/d}$.
# Asos $b = 10\,000$ boʻlsa, bu chastotalar sinusoidal kodlashdagilar bilan
# bir xil. {term}`Qiymat <qiymat>` vektorlari burilmaydi.
#
# Skalyar koʻpaytmada *m*-soʻrov va *n*-kalitning ikki
# burilishidan faqat burchaklar farqi qoladi: $(m - n)\,\theta_i$.
# Demak, {term}`ballga <ball>` pozitsiya faqat nisbiy masofa $m - n$ orqali
# kiradi. Kodda `Attention(T, pozitsiya="rope")` ning `forward` metodi `rope` ni
# *Q* va *K* ga qoʻllaydi.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: rope
# ```
#
# Bitta soʻrov va kalitni har xil pozitsiyalarga qoʻyamiz: masofa bir xil
# boʻlsa, ball ham bir xil chiqishi kerak.

# %%
torch.manual_seed(0)
q = torch.randn(1, d_model, dtype=torch.float64)
k = torch.randn(1, d_model, dtype=torch.float64)
for m, n in [(2, 0), (12, 10), (502, 500), (3, 0)]:
    ball = (rope(q, boshi=m) @ rope(k, boshi=n).T).item()
    print(f"m = {m:>3}, n = {n:>3}: ball {son(ball, '.6f')}")


# %% [markdown]
# ## Uzunlikka umumlashtirish
#
# Endi asosiy savol: *T* = 60 da oʻqitilgan model uzunroq ketma-ketlikda
# ishlaydimi? Bu xossa **{term}`uzunlikka umumlashtirish`** (ingl. *length
# generalization*) deyiladi. Sinusoidal va RoPE modellarini besh
# {term}`seed` bilan, vaqtni tejash uchun 30 {term}`epoxa` oʻqitamiz.
# Oʻrganiladigan pozitsiyali modellar — oldingi darsning oʻsha besh modeli
# (60 epoxa).

# %%
oqit30 = partial(oqit, epoxalar=30)
yangi = {
    "sinusoidal": partial(Attention, T, pozitsiya="sinus"),
    "RoPE": partial(Attention, T, pozitsiya="rope"),
}
kalitlar = [(nom, s) for nom in yangi for s in seedlar]
ishlar = [(yangi[nom], T, s) for nom, s in kalitlar]
# (tur, seed) -> (T = 60 dagi sinov aniqligi, model)
modellar = dict(zip(kalitlar, parallel(oqit30, ishlar)))
# oldingi darsning modellari (oʻsha besh seed, 60 epoxa)
organ = parallel(oqit, [(partial(Attention, T), T, s) for s in seedlar])
for s, natija_s in zip(seedlar, organ):
    modellar["oʻrganiladigan", s] = natija_s

# %% [markdown]
# Har model uchun *T* = 30, 60, 120 va 240 da yangi {term}`sinov toʻplamida <sinov toʻplami>`
# ({glue:text}`poz_n` ta namuna) {term}`aniqlikni <aniqlik>` oʻlchaymiz.
# Soʻrovlarning 0-pozitsiyaga bergan oʻrtacha {term}`ogʻirligini <ogʻirlik>`
# ham yozib olamiz: model javobni 0-pozitsiyadan olayotganini shu koʻrsatadi.
#
# Solishtirish uchun tartibni koʻrmaydigan qoidani ham olamiz. U sonlarning tartibini
# bilmaydi, shuning uchun $x_0 > 0$ ehtimolini faqat musbat sonlar ulushidan
# baholay oladi. Bunday qoidalarning eng yaxshisi —
# **{term}`ishoralar koʻpchiligi`**: musbat sonlar koʻp boʻlsa, javob 1.
# Modelning aniqligi undan ancha yuqori boʻlsa, model pozitsiyadan
# foydalanayotgan boʻladi.

# %%
def baholash(m, X, y, bolak=250):
    # aniqlik va soʻrovlarning 0-pozitsiyaga oʻrtacha ogʻirligi;
    # boʻlaklab: (500, 240, 240) matritsa birdaniga 110 MiB boʻlardi
    togri, w0 = 0, 0.0
    with torch.no_grad():
        for i in range(0, len(X), bolak):
            javob = m(X[i : i + bolak]).argmax(1)
            togri += (javob == y[i : i + bolak]).sum().item()
            # (bolak, T, T) -> 0-kalit ustuni
            w0 += m.ogirlik[:, :, 0].sum().item()
    return togri / len(X), w0 / (len(X) * X.shape[1])


Tlar, n = [30, 60, 120, 240], 500
natija = {}  # (tur, seed, T) -> (aniqlik, 0-pozitsiyaga ogʻirlik)
koplik = {}  # T -> ishoralar koʻpchiligining aniqligi
for Tx in Tlar:
    # maʼlumot seedi 4: oʻqitishda 1, sinovda 2 edi
    X, y = vazifa(n, Tx, 4)
    for (nom, s), (_, m) in modellar.items():
        if nom != "oʻrganiladigan" or Tx <= T:
            # baho(f, ...) = f(...)
            natija[nom, s, Tx] = baho(baholash, m, X, y)
    musbat = (X > 0).sum(dim=(1, 2))  # (n, T, 1) -> (n,)
    koplik[Tx] = ((2 * musbat > Tx).long() == y).float().mean().item()

# %%
def oraliq(nom, Tx, i=0):
    # besh seedda: i=0 aniqlik, i=1 ogʻirlik; teng chetlar — bitta
    a = [natija[nom, s, Tx][i] for s in seedlar]
    chetlar = dict.fromkeys([son(min(a), ".2f"), son(max(a), ".2f")])
    return "–".join(chetlar)


poz_jadval = pd.DataFrame([{
    "T": Tx,
    **{nom: oraliq(nom, Tx) for nom in yangi},
    "ishoralar koʻpchiligi": round(koplik[Tx], 2),
} for Tx in Tlar])
show(poz_jadval, nom="poz_jadval", izoh=(
    "Aniqlik turli uzunlikdagi yangi sinov toʻplamida (har *T* da"
    f" {n} ta namuna): besh seedning eng yomoni va eng yaxshisi."
    f" Hamma model *T* = {T} da oʻqitilgan."))
# 0-pozitsiyaga oʻrtacha ogʻirlik (besh seed): T = 60 → T = 240
for nom in yangi:
    print(f"{nom}: {oraliq(nom, 60, 1)} → {oraliq(nom, 240, 1)}")
# sinusoidal model yana besh seed bilan (5–9): T = 240 da aniqlik
qoshimcha = parallel(oqit30, [(yangi["sinusoidal"], T, s)
                              for s in range(5, 10)])
X240, y240 = vazifa(n, 240, 4)
sin_10 = [natija["sinusoidal", s, 240][0] for s in seedlar] + [
    baho(baholash, m, X240, y240)[0] for _, m in qoshimcha]
k_sin10 = sum(a >= 0.9 for a in sin_10)
print(f"sinusoidal, T = 240: {k_sin10} / 10 seed yechdi")

# %% tags=["remove-cell"]
from chapter_code.natijalar import yechdi_gapi

glue("poz_n", n, display=False)
aniq = lambda nom, Tx: [natija[nom, s, Tx][0] for s in seedlar]
ogir = lambda nom, Tx: [natija[nom, s, Tx][1] for s in seedlar]
sin = [a for Tx in Tlar for a in aniq("sinusoidal", Tx)]
glue("poz_sin", sin, display=False)
glue("poz_sin_w0", min(ogir("sinusoidal", 240)), display=False)
glue("poz_org_30", aniq("oʻrganiladigan", 30), display=False)
glue("poz_org_30_min", min(aniq("oʻrganiladigan", 30)), display=False)
for Tx in Tlar:
    glue(f"poz_rope_{Tx}", aniq("RoPE", Tx), display=False)
    glue(f"poz_rope_{Tx}_min", min(aniq("RoPE", Tx)), display=False)
    glue(f"poz_rope_{Tx}_max", max(aniq("RoPE", Tx)), display=False)
    glue(f"poz_rope_w0_{Tx}", ogir("RoPE", Tx), display=False)
glue("poz_rope_w0_60_min", min(ogir("RoPE", 60)), display=False)
glue("poz_rope_w0_240_max", max(ogir("RoPE", 240)), display=False)
# seed boʻyicha: T = 60 dagi aniqlik − T = 240 dagi aniqlik
tushish = lambda nom: [
    a - b for a, b in zip(aniq(nom, 60), aniq(nom, 240))
]
glue("poz_sin_pasayish", yuqoriga(max(tushish("sinusoidal"))), display=False)
glue("poz_rope_pasayish", pastga(min(tushish("RoPE"))), display=False)
k_sin = sum(a >= 0.9 for a in aniq("sinusoidal", 240))
glue("poz_sin_yechdi", k_sin, display=False)
glue("poz_sin_yechdi_gap", yechdi_gapi(k_sin, 5), display=False)
glue("poz_sin10", k_sin10, display=False)
glue("poz_sin10_yechdi", yechdi_gapi(k_sin10, 10), display=False)
glue("poz_kop", [koplik[Tx] for Tx in Tlar], display=False)
glue("poz_kop_60", koplik[60], display=False)
glue("poz_kop_max", max(koplik.values()), display=False)

# %% [markdown]
# {numref}`%s-jadvaldan <poz_jadval>` va oʻlchovlardan toʻrtta xulosa chiqaramiz:
#
# - **Sinusoidal modellar** uzunroq ketma-ketlikda ham yaxshi ishladi:
#   *T* = 240 da vazifani {glue:text}`poz_sin_yechdi_gap`. Bu seedlarning har birida aniqlik
#   *T* = 60 dan 240 gacha koʻpi bilan {glue:text}`poz_sin_pasayish:.2f` ga
#   tushdi (RoPE modellarida esa kamida
#   {glue:text}`poz_rope_pasayish:.2f` ga). *T* = 240 da soʻrovlarning 0-pozitsiyaga
#   oʻrtacha ogʻirligi eng yomon seedda ham {glue:text}`poz_sin_w0:.2f`: oʻqitishda
#   koʻrilmagan pozitsiyalarda ham model javobni asosan 0-pozitsiyadan oldi.
#   Lekin besh seed kafolat emas: yana besh seed qoʻshganimizda, model vazifani
#   {glue:text}`poz_sin10_yechdi`.
# - **RoPE modellari** *T* = 60 da vazifani yechdi, *T* = 240 da esa hech bir
#   seedda yechmadi. 0-pozitsiyaga ogʻirlik *T* = 60 da eng kami
#   {glue:text}`poz_rope_w0_60_min:.2f` edi, *T* = 240 da esa eng koʻpi
#   {glue:text}`poz_rope_w0_240_max:.2f` boʻldi.
# - **Oʻrganiladigan pozitsiyali model** (jadvalda yoʻq) *T* = 30 da ham ishladi (eng yomon
#   seedda {glue:text}`poz_org_30_min:.2f`). *T* = 120 va 240 da esa modelda
#   60-pozitsiyadan boshlab pozitsiya vektori yoʻq, shuning uchun `forward` metodi
#   `ValueError` xatosi bilan toʻxtaydi.
# - **Ishoralar koʻpchiligining** aniqligi hamma *T* da past: eng kattasi
#   {glue:text}`poz_kop_max:.2f`. *T* oshgan sari uning kutilgan qiymati
#   $0{,}5$ ga yaqinlashadi, chunki birinchi sonning toʻplamdagi hissasi
#   kichrayadi; jadvaldagi kichik farqlar — namunalar shovqini.
#
# Nega RoPE modeli yomonlashdi? RoPEda ball faqat masofaga bogʻliq. Lekin «birinchi element» bitta masofada
# turmaydi: *m*-soʻrov uchun u *m* pozitsiya orqada. Shuning uchun model
# har masofa uchun ballni alohida oʻrganishi kerak, oʻqitishda esa u
# −59 dan 59 gacha masofalarnigina koʻrgan.
#
# Sabab shu boʻlsa, koʻrilmagan masofalar yopilganda model yana
# ishlashi kerak. Quyidagi `rope_tanish` funksiyasi modelning `forward`
# metodini ikki farq bilan takrorlaydi: $|m - n| \ge 60$ boʻlgan juftliklarning
# ballari −∞ ga almashtiriladi va javob faqat 0–59-soʻrovlardan olinadi
# (keyingilari uchun 0-pozitsiya yopiq). Oʻqitilgan modellar oʻzgarmaydi.

# %%
def rope_tanish(m, X):
    hh = m.inp(X)
    # faqat 0…59-soʻrovlar kerak: (batch, 60, d)
    Q = rope(m.q(hh))[:, :T]
    K, V = rope(m.k(hh)), m.v(hh)
    # (batch, 60, d) @ (batch, d, 240) -> (batch, 60, 240)
    ball = Q @ K.transpose(1, 2) / K.shape[-1] ** 0.5
    p = torch.arange(X.shape[1])
    uzoq = (p[None, :] - p[:T, None]).abs() >= T  # (60, 240)
    w = torch.softmax(ball.masked_fill(uzoq, float("-inf")), -1)
    # (batch, 60, 240) @ (batch, 240, d) -> (batch, 60, d)
    return m.fc((w @ V).mean(1))


X, y = vazifa(n, 240, 4)  # jadvaldagi T = 240 maʼlumoti
nazorat = []
for s in seedlar:
    with torch.no_grad():
        javob = baho(rope_tanish, modellar["RoPE", s][1], X)
    nazorat.append((javob.argmax(1) == y).float().mean().item())
print("RoPE, tanish masofalar (seed 0–4):")
print("  " + "; ".join(son(a, ".3f") for a in nazorat))

# %% tags=["remove-cell"]
glue("poz_nazorat", nazorat, display=False)
glue("poz_nazorat_min", min(nazorat), display=False)
glue("poz_nazorat_max", max(nazorat), display=False)

# %% [markdown]
# Besh seedning hammasida aniqlik yana koʻtarildi:
# {glue:text}`poz_nazorat_min:.3f`–{glue:text}`poz_nazorat_max:.3f`. Demak, modelda
# vazifani yechadigan qoida bor, uni faqat oʻqitishda koʻrilmagan
# masofalar buzgan.
#
# Sinusoidal modellarning yaxshi natijasi esa kafolat emas: formula istalgan
# pozitsiyaga vektor beradi, ammo model bunday vektorlarni oʻqitishda
# koʻrmagan. Uzunlik yana oshsa nima boʻlishini
# 2-mashqda (*T* = 960) koʻrasiz.
#
# :::{admonition} Chuqurroq: katta til modellarida
# :class: dropdown
#
# Til modellarida ham RoPE oʻqitish uzunligidan ancha uzun matnlarga oʻz-oʻzidan
# umumlashmaydi. Model bir vaqtda koʻradigan uzunlikni
# ({term}`kontekst oynasini <kontekst oynasi>`, ingl. *context window*)
# kengaytirish uchun burchaklarni qayta masshtablash usullari ishlatiladi
# (masalan, {cite:alp}`chen2023`): ular yangi pozitsiyalarni model
# oʻqitishda koʻrgan burchaklar oraligʻiga siqadi. Llama 3 modelida RoPE
# asosi $b = 500\,000$: eng sekin juftliklarning burchaklari uzun kontekstda
# ham takrorlanmaydi.
#
# Sinusoidal kodlash ham til modellarida oʻqitish uzunligidan biroz oʻtgach
# yomonlashadi {cite:p}`press2022`. Katta til modellarida
# ogʻirlikning katta qismi baʼzan mazmunidan qatʼi nazar birinchi {term}`tokenlarga <token>` tushadi. Bunday tokenlar
# **{term}`attention sink`** («ogʻirlik choʻkadigan joy») deyiladi. Shuning uchun uzun matnda eski
# tokenlarni {term}`KV keshdan <KV kesh>` (saqlangan kalit va qiymatlardan) chiqarib tashlaydigan
# usullar bu birinchi tokenlarni saqlab qolishi kerak, aks holda model yomonlashadi
# {cite:p}`xiao2024`. KV keshni {doc}`«Transformer bloki va KV kesh» <transformer>` darsida koʻramiz.
# :::

# %% [markdown]
# (kauzal-pozitsiyasiz)=
# ## Pozitsiyasiz, lekin kauzal maska bilan
#
# {doc}`«Attention mexanizmi» <mexanizm>` darsining 2-mashqida koʻrdik:
# kauzal maska bilan {term}`pozitsiya kodlashsiz <pozitsiya kodlash>`
# attention ham tartibni sezadi, chunki 0-pozitsiya har soʻrovning
# oʻrtachasiga kiradi, oxirgi pozitsiya esa faqat oxirgi soʻrovnikiga. Bu
# oʻqitishda qanchalik yordam beradi?
# Besh seed bilan `Attention(60, pozitsiya=False, kauzal=True)` ni 30
# epoxa oʻqitamiz va oldingi darsning maskasiz pozitsiyasiz modellari
# (60 epoxa) bilan solishtiramiz.

# %%
kz_turlari = {
    "kauzal": partial(Attention, T, pozitsiya=False, kauzal=True),
    "maskasiz": partial(Attention, T, pozitsiya=False),
}
kz = {}  # tur -> besh seeddagi sinov aniqligi (T = 60)
for nom, yasa in kz_turlari.items():
    # maskasizi — oldingi darsning modeli: 60 epoxa
    f = oqit30 if nom == "kauzal" else oqit
    natijalar = parallel(f, [(yasa, T, s) for s in seedlar])
    kz[nom] = [a for a, _ in natijalar]
    eng = son(min(kz[nom]), ".3f"), son(max(kz[nom]), ".3f")
    print(f"{nom}: {eng[0]}–{eng[1]}")
# sinusoidal modellar va ishoralar koʻpchiligi shu namunalarda
sin60 = [modellar["sinusoidal", s][0] for s in seedlar]
print(f"sinusoidal: {son(min(sin60), '.3f')}–{son(max(sin60), '.3f')}")
Xs, ys = vazifa(600, T, 2)
musbat = (Xs > 0).sum(dim=(1, 2))
kop_sinov = ((2 * musbat > T).long() == ys).float().mean().item()
print(f"ishoralar koʻpchiligi: {son(kop_sinov, '.3f')}")

# %% tags=["remove-cell"]
from math import comb

glue("kz_kauzal", kz["kauzal"], display=False)
glue("kz_maskasiz", kz["maskasiz"], display=False)
glue("kz_sin60", sin60, display=False)
glue("kz_sin60_min", pastga(min(sin60)), display=False)
glue("kz_kop", kop_sinov, display=False)
# qoidaning kutilgan aniqligi: musbatlar soni k ~ Bin(T, 1/2), toʻgʻrisi max(k, T − k)
kop_kut = sum(comb(T, k) * max(k, T - k) for k in range(T + 1)) / (T * 2**T)
glue("kz_kop_kut", kop_kut, display=False)

# %% [markdown]
# Maskasiz model ikki barobar uzoqroq oʻqitilgan boʻlsa ham, ishoralar koʻpchiligi
# darajasida qoldi. Bu qoidaning kutilgan aniqligi *T* = 60 da {glue:text}`kz_kop_kut:.3f` (musbat
# sonlar soni binomial taqsimlangani uchun formuladan hisoblanadi); {numref}`%s-jadvaldagi <poz_jadval>`
# {glue:text}`poz_kop_60:.2f` va yuqoridagi {glue:text}`kz_kop:.3f` — uning 500 va 600 ta tasodifiy
# namunadagi qiymatlari. Tartibni koʻrmaydigan model undan oʻrtacha yaxshi boʻla olmaydi, tasodifan
# esa biroz yuqori chiqishi mumkin.
#
# Kauzal model har seedda ikkalasidan ham ancha yuqori chiqdi. Demak,
# maskaning oʻzi modelga tartib haqida maʼlumot beradi. Lekin u pozitsiya kodlash oʻrnini bosmaydi: kauzal model hech bir
# seedda vazifani yechmadi, sinusoidal modellar esa kauzal model sinalgan oʻsha
# namunalarda kamida {glue:text}`kz_sin60_min:.2f` aniqlik berdi. Sababi: kechki soʻrovlar
# hamma kalitni koʻradi va pozitsiyasiz ular orasida birinchisini ajrata
# olmaydi; soʻrovlar boʻyicha oʻrtacha olinganda ularning shovqini signalni
# susaytiradi. Koʻp qatlamli til modellari pozitsiya kodlashsiz ham
# pozitsiyani ancha yaxshi oʻrganadi {cite:p}`haviv2022`.

# %% [markdown]
# ## Mashqlar
#
# Kod bilan ishlaydigan mashqlarda avval natijani **taxmin qiling**, soʻng
# oʻlchang.
#
# **1-mashq ({term}`ALiBini <ALiBi>` oʻzingiz yozing).** ALiBi (ingl. *Attention with
# Linear Biases*; {cite:alp}`press2022`) pozitsiya vektorini ham, burishni ham
# qoʻllamaydi. U {term}`koʻp boshli attentionda <koʻp boshli attention>` (ingl. *multi-head attention*) ishlaydi: {term}`bosh` —
# parallel ishlaydigan alohida attentionlardan biri; ular
# {doc}`«Transformer bloki va KV kesh» <transformer>` darsida koʻriladi. ALiBi har
# boshning ballariga masofaga proporsional jarima qoʻshadi:
# $\mathrm{ball}_{ij} - m_h\,|i - j|$.
#
# *H* ta boshda
# *h*-boshning {term}`qiyaligi <qiyalik>` $m_h = 2^{-8h/H}$, $h = 1, \dots, H$. Jarimalarni
# hisoblaydigan `alibi(T, H)` funksiyasini yozing: u (*H*, *T*, *T*) shakldagi jarimalar tenzorini
# qaytarsin. *H* = 8, *T* = 60 da tekshiring. Ballar nol boʻlsa, oxirgi
# soʻrovning ogʻirliklari — jarimaning {term}`softmaxi <softmax>`. Birinchi boshda (eng tik
# qiyalik) oxirgi soʻrov oʻziga va 0-pozitsiyaga qancha ogʻirlik beradi?
# Oxirgi boshda-chi?
#
# :::{admonition} Yechim
# :class: dropdown
#
# Sakkiz boshning qiyaliklari $1/2, 1/4, \dots, 1/256$. Nol ballarda
# oxirgi soʻrovning *j*-kalitga ogʻirligi $e^{-m_h (T-1-j)}$ ga proporsional: geometrik
# taqsimot. Birinchi boshda ($m_1 = 1/2$) oxirgi soʻrov oʻziga
# {glue:text}`m1_oz_1:.3f`, 0-pozitsiyaga esa atigi {glue:text}`m1_nol_1:.1e`
# ogʻirlik beradi: bu bosh faqat yaqin qoʻshnilarga qaraydi. Oxirgi boshda
# ($m_8 = 1/256$) oʻziga {glue:text}`m1_oz_8:.3f`, 0-pozitsiyaga
# {glue:text}`m1_nol_8:.3f`: jarima deyarli sezilmaydi. Shunday qilib,
# {term}`boshlar <bosh>` turli uzoqlikka qaraydi. Softmax bilan olingan ogʻirliklarning formula boʻyicha
# hisoblanganlaridan eng katta farqi {glue:text}`m1_farq:.1e` ga teng (yechim kodi quyida). Yangi
# masofada ham jarima oʻsha chiziq boʻylab davom etadi. Shuning uchun ALiBi uzunroq
# ketma-ketliklarda ham yaxshi ishlaydi; buni mualliflar tajribada koʻrsatgan.
# :::
#
# **2-mashq (*T* = 960).** Yuqorida sinusoidal modellar *T* = 240 da ham ishladi.
# *T* = 960 da-chi? Avval taxmin qiling, soʻng besh modelni `baholash`
# funksiyasi bilan yangi 50 ta namunada tekshiring (`vazifa(50, 960, 4)`).
#
# :::{admonition} Yechim
# :class: dropdown
#
# Natija seedga kuchli bogʻliq: aniqlik {glue:text}`m2_min:.2f` dan
# {glue:text}`m2_max:.2f` gacha, 0-pozitsiyaga oʻrtacha ogʻirlik
# {glue:text}`m2_w0_min:.3f` dan {glue:text}`m2_w0_max:.3f` gacha boʻldi
# (yechim kodi quyida). Model 900 ta yangi pozitsiyani hech koʻrmagan: ularda
# nima qilishini oʻqitish kafolatlamaydi. Ayrim seedlarda soʻrovlar ogʻirligining koʻp qismi
# 0-pozitsiyadan boshqa pozitsiyalarga tushdi va
# javobga shovqin aralashdi. Shuning uchun uzunlikka umumlashtirishni
# bitta seed bilan baholab boʻlmaydi.
# :::
#
# **3-mashq (qogʻozda).** RoPE modeli *T* = 60 da oʻqitilgan. *T* = 120 va
# *T* = 240 da soʻrovlarning necha foizi 0-pozitsiyani oʻqitishda koʻrilmagan
# masofada koʻradi? Soʻrov–kalit juftliklarining-chi?
#
# :::{admonition} Yechim
# :class: dropdown
#
# Har *m*-soʻrov uchun 0-pozitsiya *m* masofada; oʻqitishda masofa koʻpi bilan
# 59 edi. Shunday ekan, 60-soʻrov va undan keyingilari 0-pozitsiyani yangi
# masofada koʻradi: *T* = 120 da soʻrovlarning
# {glue:text}`m3_sorov_120_foiz:.0f` foizi, *T* = 240 da
# {glue:text}`m3_sorov_240_foiz:.0f` foizi. Juftliklardan
# $|m - n| \ge 60$ boʻlganlari *T* = 120 da
# {glue:text}`m3_juft_120_foiz:.0f` foizni, *T* = 240 da
# {glue:text}`m3_juft_240_foiz:.0f` foizni tashkil qiladi (yechim kodi
# quyida): *T* = 240 da koʻpchilik juftlik model uchun yangi.
# :::

# %% tags=["hide-cell"]
# 1-mashq yechimi: ALiBi jarimalari
def alibi(T, H):
    # h-boshning qiyaligi 2^(-8h/H), h = 1…H: (H,)
    m = 2.0 ** (-8 * torch.arange(1, H + 1) / H)
    p = torch.arange(T)
    masofa = (p[None, :] - p[:, None]).abs()  # (T, T)
    return -m[:, None, None] * masofa  # (H, T, T)


jarima = alibi(60, 8)
w = torch.softmax(jarima[:, -1], dim=-1)  # oxirgi soʻrov: (H, T)
# formula: e^(−m·(T−1−j)), yigʻindisi 1 ga keltirilgan
m = 2.0 ** (-8 * torch.arange(1, 9) / 8)
geom = torch.exp(-m[:, None] * torch.arange(59, -1, -1))
m1_farq = (w - geom / geom.sum(-1, keepdim=True)).abs().max()
print(f"shakl: {tuple(jarima.shape)}")
print(f"eng katta farq: {son(m1_farq, '.1e')}")

# 2-mashq yechimi: T = 960, besh sinusoidal model
X, y = vazifa(50, 960, 4)
m2 = [
    baho(baholash, modellar["sinusoidal", s][1], X, y, 25)
    for s in seedlar
]
for s, (a, w0) in zip(seedlar, m2):
    a, w0 = son(a, ".2f"), son(w0, ".3f")
    print(f"seed {s}: {a} (0-pozitsiya {w0})")

# 3-mashq yechimi: koʻrilmagan masofalar
m3 = {}
for Tx in (120, 240):
    p = torch.arange(Tx)
    yangi = (p[None, :] - p[:, None]).abs() >= T  # (Tx, Tx)
    m3[Tx] = ((p >= T).float().mean(), yangi.float().mean())
    sorov, juft = (son(u, ".0%") for u in m3[Tx])
    print(f"T = {Tx}: soʻrov {sorov}, juftlik {juft}")

# %% tags=["remove-cell"]
for h in (1, 8):
    glue(f"m1_oz_{h}", w[h - 1, -1].item(), display=False)
    glue(f"m1_nol_{h}", w[h - 1, 0].item(), display=False)
glue("m1_farq", m1_farq.item(), display=False)
glue("m2_aniq", [a for a, _ in m2], display=False)
glue("m2_w0", [w0 for _, w0 in m2], display=False)
glue("m2_min", min(a for a, _ in m2), display=False)
glue("m2_max", max(a for a, _ in m2), display=False)
glue("m2_w0_min", min(w0 for _, w0 in m2), display=False)
glue("m2_w0_max", max(w0 for _, w0 in m2), display=False)
for Tx, (sorov, juft) in m3.items():
    glue(f"m3_sorov_{Tx}", sorov.item(), display=False)
    glue(f"m3_juft_{Tx}", juft.item(), display=False)
    # matnda «foiz» soʻzi bilan: 0,5 -> 50
    glue(f"m3_sorov_{Tx}_foiz", 100 * sorov.item(), display=False)
    glue(f"m3_juft_{Tx}_foiz", 100 * juft.item(), display=False)
