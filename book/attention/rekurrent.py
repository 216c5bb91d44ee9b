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
# # Attention, RNN va LSTM bitta vazifada
#
# Bu darsda {term}`RNN`, {term}`LSTM` va {term}`attentionni <attention (eʼtibor mexanizmi)>` bitta sunʼiy vazifada solishtiramiz:
# javob {term}`ketma-ketlikning <ketma-ketlik>` birinchi elementida, qolgani shovqin. Gradient 0-{term}`qadamga <qadam>`
# qanchalik yetib borishini oʻlchaymiz, har modelni turli tasodifiy {term}`initsializatsiyalar <initsializatsiya>` bilan bir necha marta oʻqitamiz, {term}`pozitsiya kodlashsiz <pozitsiya kodlash>`
# attention tartibni koʻrmasligini tekshiramiz va oʻqitilgan model qayerga qarashini
# chizamiz. Attention formulasi oldingi darsda ({doc}`«Attention mexanizmi» <mexanizm>`) berilgan.


# %%
import inspect
from functools import partial

import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import torch
import torch.nn as nn

from chapter_code.kitob import show, fig
from chapter_code.bichim import son, foiz
from chapter_code.malumot import vazifa
from chapter_code.modellar import Ketma, Attention
from chapter_code.modellar import parametrlar
from chapter_code.oqitish import oqit, parallel
from chapter_code.oqitish import protokoli
from chapter_code.natijalar import (
    Seedlar,
    hammasida,
    nechta,
    nechtasida,
    seeddan,
)
from chapter_code import muhit

# %% [markdown]
# ## Vazifa va modellar
#
# Solishtirish uchun ataylab «RNN uchun noqulay» sodda sunʼiy masala olamiz.
# Kirish — uzunligi *T* = 60 boʻlgan tasodifiy sonlar ketma-ketligi. Javob
# (0 yoki 1) faqat **birinchi** elementning ishorasiga bogʻliq; qolgan 59 ta
# element — shovqin. Vazifani yechish uchun model 0-qadamdagi maʼlumotni
# oxirigacha olib borishi kerak. Tasodifiy taxmin javoblarning yarmini topadi ({term}`aniqlik` — toʻgʻri javoblar ulushi).
#
# ```{literalinclude} ../../chapter_code/malumot.py
# :pyobject: vazifa
# ```
#
# Ikki rekurrent model: `Ketma("rnn")` va `Ketma("lstm")`. Ikkalasi ham
# ketma-ketlikni oxirigacha oʻqiydi va oxirgi {term}`yashirin holatdan <yashirin holat>` javob beradi.
# LSTMning `unutish` parametri — {term}`unutish darvozasi` (*forget gate*)
# {term}`siljishining <siljish>` boshlangʻich qiymati; u nega muhimligini quyida oʻlchaymiz.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: Ketma
# ```
#
# Attention modeli {doc}`«Attention mexanizmi» <mexanizm>` darsidagi toʻrt {term}`bosqichni <bosqich>` aynan takrorlaydi. Bu —
# **{term}`self-attention`** (*oʻz-oʻziga attention*): {term}`soʻrov`, {term}`kalit` va qiymat bitta
# ketma-ketlikdan olinadi. {doc}`«Attention mexanizmi» <mexanizm>` darsidagi misoldan farqi ikkita:
# kirish avval *d* = {glue:text}`d_model` oʻlchamga koʻtariladi va unga oʻrganiladigan
# **pozitsiya kodlash** (`self.poz`, har pozitsiyaga bitta vektor) qoʻshiladi;
# oxirida hamma pozitsiyalarning chiqishlari oʻrtalashtirilib, javobga aylanadi.
# Boshqa pozitsiya kodlashlari (`pozitsiya="sinus"`, `"rope"`) va {term}`kauzal maska <kauzal (sababiy) maska>` (`kauzal=True`) {doc}`«Pozitsiyalar uzunroq ketma-ketlikda» <pozitsiyalar>` darsida kerak boʻladi.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: Attention
# ```

# %% [markdown]
# ## Gradient 0-qadamga yetib boradimi?
#
# Modelni oʻqitishdan oldin oddiy savol qoʻyamiz: {term}`yoʻqotish funksiyasining <yoʻqotish funksiyasi>`
# gradienti kirishning 0-qadamiga va oxirgi qadamiga qanchalik kuchli yetib
# boradi? Gradient — model oʻrganishda tayanadigan signal. Agar 0-qadamga yetib
# boradigan gradient juda kichik boʻlsa, oʻqitish boshida modelning javob
# aynan oʻsha yerda ekanini sezishi qiyin.
#
# Har model uchun tasodifiy {term}`parametrlar` bilan bitta {term}`orqaga oʻtishni <orqaga oʻtish>`
# (*backward pass*: yoʻqotishdan orqaga qarab gradientlarni hisoblash) bajaramiz
# va $|\partial L / \partial x_t|$ ni namunalar boʻyicha oʻrtalashtiramiz.

# %%
T = 60
# LSTM unutish darvozasi siljishi (standart initsializatsiya: ≈ 0)
UNUTISH = 3.0
lstm_u = f"LSTM (unutish = {UNUTISH:g})"
grad_jadval, grad_nisbat = [], {}
for nom, qisqa, yasa in [
    ("RNN", "rnn", partial(Ketma, "rnn")),
    ("LSTM", "lstm", partial(Ketma, "lstm")),
    (lstm_u, "lstm_unutish", partial(Ketma, "lstm", unutish=UNUTISH)),
    ("attention", "attention", partial(Attention, T)),
]:
    torch.manual_seed(0)
    Xg, yg = vazifa(256, T, 1)
    Xg.requires_grad_(True)
    m = yasa()
    nn.CrossEntropyLoss()(m(Xg), yg).backward()
    # (256, T, 1) -> (T,): har qadamdagi |gradient| ning oʻrtachasi
    g = Xg.grad.abs().mean(dim=(0, 2))
    grad_jadval.append(
        {
            "model": nom,
            "0-qadam": son(g[0], ".3e"),
            f"{T-1}-qadam": son(g[T - 1], ".3e"),
            f"{T-1}-qadam / 0-qadam": son(g[T - 1] / g[0], ".2e"),
        }
    )
    grad_nisbat[nom] = float(g[T - 1] / g[0])
show(
    pd.DataFrame(grad_jadval),
    izoh=(
        "Kirishning 0-qadamiga va oxirgi qadamiga yetib boradigan "
        f"gradient (T = {T})."
    ),
    nom="grad_jadval",
)


# %% tags=["remove-cell"]
from myst_nb import glue

for nom, qisqa in [
    ("RNN", "rnn"),
    ("LSTM", "lstm"),
    (lstm_u, "lstm_unutish"),
    ("attention", "attention"),
]:
    glue(f"grad_{qisqa}", grad_nisbat[nom], display=False)

# %% [markdown]
# {numref}`grad_jadval` farqni aniq koʻrsatadi. RNNda oxirgi qadam
# gradienti 0-qadamnikidan {glue:text}`grad_rnn:.1e` marta katta, LSTMda
# {glue:text}`grad_lstm:.1e` marta. Boshqacha aytganda, boshlangʻich
# modelda 0-qadamga deyarli hech narsa yetib bormaydi: signal 59 ta qadamning har birida koʻpaytirilib, eksponensial soʻnadi — bu **{term}`gradientning soʻnishi`**
# (*vanishing gradient*). Attentionda esa nisbat
# {glue:text}`grad_attention:.2f`: 0-qadam va oxirgi qadam teng huquqli.
# Uchinchi qator ham LSTM, faqat unutish {term}`darvozasi <darvoza>` siljishi
# {glue:text}`unutish:g` dan boshlangan: unda nisbat atigi
# {glue:text}`grad_lstm_unutish:.2f`. Demak, LSTMdagi soʻnish arxitekturaning
# emas, boshlangʻich qiymatning natijasi — sababini oʻqitishdan keyin
# koʻramiz.
#
# ## Oʻqitish: har model bir necha seed bilan
#
# Gradient tahlili faqat oʻqitishdan oldingi holatni koʻrsatadi. Haqiqiy savol: modellar vazifani
# oʻrganadimi? Har model bir xil protokol bilan oʻqitiladi: bu — `oqit`
# funksiyasining standart qiymatlari, ularni koddan oʻqiymiz.

# %%
protokol = protokoli(oqit)
print("oqit() protokoli:")
for kalit_, qiymat in protokol.items():
    print(f"  {kalit_:<8} = {qiymat}")
d_model = inspect.signature(Attention).parameters["d"].default


# %% tags=["remove-cell"]
for nom, qiymat in protokol.items():
    glue(f"protokol_{nom}", qiymat, display=False)
glue("d_model", d_model, display=False)


# %% [markdown]
# Protokol: {glue:text}`protokol_epoxalar` {term}`epoxa` (*epoch*: oʻquv namunalarining
# hammasidan bir marta oʻtish); {glue:text}`protokol_n` ta oʻquv va
# {glue:text}`protokol_n_sinov` ta sinov namunasi; har {term}`paketda <paket>`
# {glue:text}`protokol_batch` ta namuna (*batch*: parametrlarni bir marta yangilash uchun
# birga ishlatiladigan namunalar guruhi); Adam optimizatori (har parametrning yangilanish miqdorini
# gradientlarning oʻrtachasiga qarab moslaydigan usul; {cite:alp}`kingma2015`); {term}`oʻrganish tezligi`
# (*learning rate*) {glue:text}`protokol_lr`. Oʻrganish tezligi oʻqitish davomida oʻzgarmaydi
# (uni oʻzgartirish rejasi ham, boshida asta-sekin oshirish — {term}`warm-up` — ham yoʻq) va {term}`gradient kesish` (*gradient clipping*) ham ishlatilmaydi:
# barqarorlikka yordam beradigan bu usullarsiz modellar oʻz holicha
# solishtiriladi.
#
# Bitta natija tasodif boʻlishi mumkin, shuning uchun
# rekurrent modellar {glue:text}`seedlar_soz` xil {term}`seed` (*seed* — tasodifiy sonlar
# generatorining boshlangʻich qiymati) bilan oʻqitiladi. Bu yerda seed boshlangʻich
# parametrlarni va paketlar tartibini belgilaydi, maʼlumot esa hamma seedda bir xil. Attention modellari {glue:text}`attn_seedlar_soz` xil seed bilan
# oʻqitiladi, chunki oʻqitishlar bobni hisoblash vaqtining katta qismini oladi;
# {glue:text}`attn_seed_gap`.
#
# ```{literalinclude} ../../chapter_code/oqitish.py
# :pyobject: oqit
# ```
#
# Oʻqitishlar bir-biriga bogʻliq emas, shuning uchun `parallel`
# (`chapter_code/oqitish.py`) ularni har protsessor yadrosida bittadan alohida jarayonda
# ishga tushiradi. Har oʻqitish oʻz seedini oʻzi oʻrnatadi, shuning uchun natija
# jarayonlar soniga bogʻliq emas. Oʻqitish natijalari (aniqlik va
# parametrlar) diskda saqlanadi va faqat oʻqitish kodi (vazifa, modellar,
# `oqit`) yoki argumentlari oʻzgarganda qayta hisoblanadi
# (`chapter_code/ombor.py`). Keyingi darslar shu oʻqitishlarni xuddi shu
# argumentlar bilan chaqiradi va natijani ombordan oladi. Vaqt va xotira
# oʻlchovlari ({doc}`«Attention narxi: vaqt va xotira» <narx>` darsida) ham shunday saqlanadi, lekin har mashina
# uchun alohida: qaysi mashinada oʻlchangani ham yozib qoʻyiladi.

# %%
modellar = {
    "RNN": partial(Ketma, "rnn"),
    "LSTM": partial(Ketma, "lstm"),
    lstm_u: partial(Ketma, "lstm", unutish=UNUTISH),
    "attention (+ pozitsiya)": partial(Attention, T),
    "attention (pozitsiyasiz)": partial(Attention, T, pozitsiya=False),
}
# natijasi seedga bogʻliq rekurrent modellar besh seed bilan, attention
# modellari ulardan dastlabki uchtasi bilan
rekurrent = ("RNN", "LSTM", lstm_u)
seedlar, attn_seedlar = tuple(range(5)), tuple(range(3))
seedlari = {
    nom: (seedlar if nom in rekurrent else attn_seedlar)
    for nom in modellar
}
ishlar = [
    (yasa, T, s)
    for nom, yasa in modellar.items()
    for s in seedlari[nom]
]
kalitlar = [(nom, s) for nom in modellar for s in seedlari[nom]]
# har model × har seed
natija = dict(zip(kalitlar, parallel(oqit, ishlar)))


# %% tags=["remove-cell"]
glue("unutish", UNUTISH, display=False)


# %%
print("Tasodifiy javob = 0.50.")
print(f"Rekurrent modellar {len(seedlar)} seed bilan,")
print(f"attention modellari {len(attn_seedlar)} seed bilan.")
sinov = []
for nom, yasa in modellar.items():
    aniq = [natija[nom, s][0] for s in seedlari[nom]]
    sinov.append(
        {
            "model": nom,
            "seedlar": "; ".join(son(a, ".3f") for a in aniq),
            "oʻrtacha": round(float(np.mean(aniq)), 3),
            "eng yomon": round(min(aniq), 3),
            "parametrlar soni": parametrlar(yasa()),
        }
    )
show(
    pd.DataFrame(sinov),
    izoh=(
        f"Sinov aniqligi: {len(modellar)} model; rekurrent modellar"
        f" {len(seedlar)} seed, attention modellari {len(attn_seedlar)}"
        " seed bilan."
    ),
    nom="sinov_jadval",
)


# %% tags=["remove-cell"]
glue("T_vazifa", T, display=False)
# 2-mashq yechimi: parametrlar formula bilan sanaladi (jadvaldagi son
# bilan solishtiring)
glue(
    "param_formula",
    3 * d_model**2 + d_model * (T + 7) + 2,
    display=False,
)


# %% [markdown]
# Xulosa chiqarish uchun jadvaldagi kerakli sonlarni oʻzgaruvchilarga yozib olamiz.

# %%
aniqliklar = {
    nom: [natija[nom, s][0] for s in seedlari[nom]] for nom in modellar
}
# Seedlar: har seed qanday tugaganini sanaydi — yechdi (≥ 0,9), qisman,
# tasodifiy daraja (< 0,6) — va buni gap bilan aytadi
# (chapter_code/natijalar.py)
tugadi = {
    nom: Seedlar(dict(zip(seedlari[nom], aniq)))
    for nom, aniq in aniqliklar.items()
}
# LSTM xotirasi har qadamda unutish darvozasiga koʻpaytiriladi: f =
# sigmoid(... + siljish). Boshlanishda (kirish hissasi kichik) f ≈
# sigmoid(siljish); T-1 qadamdan keyin f^(T-1).
unutish_f = {}
for nom, siljish in [
    ("standart", 0.0),
    ("tavsiya", 1.0),
    ("unutish", UNUTISH),
    ("katta", 5.0),
]:
    f = unutish_f[nom] = torch.sigmoid(torch.tensor(siljish)).item()
    print(
        f"{nom:>9}: sigmoid({siljish:g}) = {f:.3f},  {f:.3f}^{T-1} ="
        f" {f ** (T-1):.1e}"
    )


# %% tags=["remove-cell"]
for nom, qisqa in [
    ("RNN", "rnn"),
    ("LSTM", "lstm"),
    (lstm_u, "lstmu"),
    ("attention (+ pozitsiya)", "attn"),
    ("attention (pozitsiyasiz)", "attn0"),
]:
    glue(f"{qisqa}_seedlar", aniqliklar[nom], display=False)
    glue(f"{qisqa}_min", min(aniqliklar[nom]), display=False)
    glue(f"{qisqa}_max", max(aniqliklar[nom]), display=False)
    glue(
        f"{qisqa}_orta", float(np.mean(aniqliklar[nom])), display=False
    )
    glue(f"{qisqa}_jumla", tugadi[nom].jumla(), display=False)
    glue(f"{qisqa}_yomoni", tugadi[nom].eng_yomoni(), display=False)
    glue(f"{qisqa}_yechdi", tugadi[nom].soni("yechdi"), display=False)
for nom, f in unutish_f.items():
    glue(f"f_{nom}", f, display=False)
    glue(f"f_{nom}_T", f ** (T - 1), display=False)
glue("seedlar_soni", len(seedlar), display=False)
glue("seedlar_soz", nechta(len(seedlar)), display=False)
glue("attn_seedlar_soni", len(attn_seedlar), display=False)
glue("attn_seedlar_soz", nechta(len(attn_seedlar)), display=False)
# attention modellari uchun uch seed yetadimi: har biri hamma seedda
# bir xil tugadimi
attn_aralash = [
    nom for nom in modellar if nom not in rekurrent and tugadi[nom].aralashmi
]
glue(
    "attn_seed_gap",
    (
        "ikkalasi ham bu nashrda har seedda bir xil tugadi"
        if not attn_aralash
        else "lekin bu nashrda "
        + " va ".join(attn_aralash)
        + " seedlari turlicha tugadi: unga ham koʻproq seed kerak"
    ),
    display=False,
)
# Matndagi gaplar shu nashrning oʻlchovidan tuziladi: boshqa
# protsessorda (boshqa yadrolar, boshqa yaxlitlash) beqaror oʻqitish
# boshqacha tugashi mumkin.
n_sinov, n_seed = protokol["n_sinov"], len(seedlar)
glue(
    "hisob_muhiti",
    f"{muhit.protsessor()[0]}, PyTorch koʻrsatmalar toʻplami: "
    f"{torch.backends.cpu.get_cpu_capability()}",
    display=False,
)
rnn, lstm, lstmu = tugadi["RNN"], tugadi["LSTM"], tugadi[lstm_u]
# eng yaxshi − eng yomon farqining standart xatosi
rnn_xato = rnn.farq_xatosi(n_sinov)
rnn_sonlar = (
    f"eng yaxshisi seed {rnn.eng_yaxshi} da"
    f" {son(rnn.aniqlik[rnn.eng_yaxshi], '.3f')}, eng yomoni seed"
    f" {rnn.eng_yomon} da {son(rnn.aniqlik[rnn.eng_yomon], '.3f')}"
)
if rnn.farq > 3 * rnn_xato:
    glue(
        "rnn_gap",
        f"natijasi seedga bogʻliq: {rnn_sonlar} — farq"
        f" {son(rnn.farq, '.3f')} tasodifiy xatodan katta (bu farqning"
        f" standart xatosi taxminan {son(rnn_xato, '.3f')})"
        + (
            ". Bitta seed bilan oʻlchasak edi, qaysi seed tushganiga"
            " qarab boshqa-boshqa xulosa chiqargan boʻlardik"
            if rnn.aralashmi
            else ""
        ),
        display=False,
    )
else:
    glue(
        "rnn_gap",
        f"natijasi seedga deyarli bogʻliq emas: {rnn_sonlar} — farq"
        f" {son(rnn.farq, '.3f')} tasodifiy xato chegarasida (bu"
        f" farqning standart xatosi taxminan {son(rnn_xato, '.3f')})",
        display=False,
    )
k0 = rnn.soni("tasodifiy")
if k0 == 0:
    rnn_oqish = (
        f"Shunga qaramay, u {hammasida(n_seed)} tasodifiy taxmindan"
        " sezilarli yuqori natija berdi: boshidagi kichik gradient bu"
        " yerda RNNga toʻsqinlik qilmadi — boshlangʻich nisbatning"
        " oʻzi natijani oldindan aytib bermaydi."
    )
elif k0 < n_seed:
    rnn_oqish = (
        f"U {seeddan(n_seed - k0, n_seed)} tasodifiy taxmindan"
        f" sezilarli yuqori natija berdi, {nechtasida(k0)} esa"
        " tasodifiy taxmin darajasida qoldi: demak boshlangʻich"
        " nisbatning oʻzi (u bitta initsializatsiyada oʻlchangan) natijani"
        " oldindan aytib bermaydi."
    )
else:
    rnn_oqish = (
        f"U {hammasida(n_seed)} tasodifiy taxmin darajasida qoldi:"
        " ehtimol, gradientning soʻnishi oʻrganishga yoʻl bermagan"
        " (buni alohida tekshirmadik)."
    )
glue("rnn_oqish", rnn_oqish, display=False)
glue(
    "lstm_gap",
    ("ishonchsiz: " if lstm.aralashmi else "")
    + f"{lstm.jumla()} ({lstm.qiymatlar()})",
    display=False,
)
glue(
    "lstmu_gap", f"{lstmu.jumla()} ({lstmu.qiymatlar()})", display=False
)
kd, ku = lstm.soni("yechdi"), lstmu.soni("yechdi")
asos = "Arxitektura bir xil, farq faqat bitta boshlangʻich qiymatda"
# biror rekurrent model yechdimi
eslaydi = max(t.soni("yechdi") for t in (rnn, lstm, lstmu)) > 0
boshi = (
    "rekurrent model uzoq masofani eslay oladi"
    if eslaydi
    else (
        "bu nashrda rekurrent modellarning hech biri vazifani"
        " yechmadi"
    )
)
if kd == ku == n_seed:
    solishtir = (
        f"{asos} — bu nashrda ikkalasi ham hamma seedda yechdi."
    )
    xulosa_gap = (
        f"{boshi}; bu nashrda boshlangʻich qiymat natijani"
        " oʻzgartirmadi"
    )
elif ku - kd >= 2 or (kd == 0 and ku == n_seed):
    solishtir = (
        f"{asos} — va shu qiymat vazifani yechgan seedlar sonini {kd}"
        f" dan {ku} ga oshirdi."
    )
    xulosa_gap = (
        f"{boshi} va mos initsializatsiya bunga katta yordam beradi"
    )
elif ku - kd == 1:
    solishtir = (
        f"{asos} — shu qiymat vazifani yechgan seedlar sonini {kd} dan"
        f" {ku} ga oshirdi; {n_seed} seed bilan bu farq hali aniq emas."
    )
    xulosa_gap = (
        f"{boshi}; mos initsializatsiya bunga yordam berishi mumkin, lekin"
        f" {n_seed} seed bilan bu aniq emas"
    )
elif ku == kd:
    solishtir = (
        f"{asos} — lekin bu nashrda u vazifani yechgan seedlar sonini"
        f" oʻzgartirmadi (ikkalasida ham {ku} ta)."
    )
    xulosa_gap = (
        f"{boshi}, lekin uni oʻqitish ishonchsiz: bu nashrda"
        " boshlangʻich qiymat yordam bermadi"
    )
else:
    solishtir = (
        f"{asos} — lekin bu nashrda u vazifani yechgan seedlar sonini"
        f" {kd} dan {ku} ga kamaytirdi."
    )
    xulosa_gap = (
        f"{boshi}, lekin uni oʻqitish ishonchsiz: bu nashrda"
        " boshlangʻich qiymat yordam bermadi"
    )
glue("lstm_solishtir", solishtir, display=False)
glue("lstm_xulosa_gap", xulosa_gap, display=False)
glue(
    "lstm_nega",
    (
        "Nega unutish siljishi yordam berdi?"
        if ku > kd
        else "Unutish siljishi nimani oʻzgartiradi?"
    ),
    display=False,
)
if lstm.aralashmi:
    glue(
        "lstm_kafolat_gap",
        "kafolat yoʻq. Bu nashrda ham natija seedga bogʻliq boʻldi",
        display=False,
    )
elif kd == 0:
    glue(
        "lstm_kafolat_gap",
        f"bu nashrda {hammasida(n_seed)} yenga olmadi, boshqa"
        " protsessorda esa boshqacha tugashi mumkin",
        display=False,
    )
else:
    glue(
        "lstm_kafolat_gap",
        f"bu nashrda {hammasida(n_seed)} yengdi, lekin bu kafolat"
        " emas: boshqa protsessorda boshqacha tugashi mumkin",
        display=False,
    )
toxtagan = [
    s_
    for s_ in sorted(lstmu.aniqlik)
    if s_ not in lstmu.seedlari("yechdi")
]
glue(
    "lstmu_toxtagan",
    (
        f"Bu nashrda siljish {son(UNUTISH, 'g')} boʻlganda ham "
        + " va ".join(
            f"seed {s_} ({son(lstmu.aniqlik[s_], '.3f')})"
            for s_ in toxtagan
        )
        + " bilan oʻqitilgan model"
        + ("lar" if len(toxtagan) > 1 else "")
        + " vazifani yechmadi."
        if toxtagan
        else (
            f"Bu nashrda siljish {son(UNUTISH, 'g')} bilan hamma seedda"
            " model vazifani yechdi."
        )
    ),
    display=False,
)
# pozitsiyasiz attention: tartibni koʻrmaydigan eng yaxshi qoida
# (ishoralar koʻpchiligi) shu sinov toʻplamida qancha beradi (oqit
# ning sinov maʼlumoti: vazifa(n_sinov, T, 2))
X_sinov, y_sinov = vazifa(n_sinov, T, 2)
kop_sinov = (
    ((2 * (X_sinov > 0).sum(dim=(1, 2)) > T).long() == y_sinov)
    .float()
    .mean()
    .item()
)
attn0_max = max(aniqliklar["attention (pozitsiyasiz)"])
glue("attn0_qoida", kop_sinov, display=False)
attn0_ortiq = attn0_max - kop_sinov
attn0_xato = float(np.sqrt(0.25 / n_sinov))
glue(
    "attn0_gap",
    (
        "tasodifiy darajaga yaqin qoldi (eng yaxshi seedda"
        f" {son(attn0_max, '.3f')}); tartibni koʻrmaydigan eng yaxshi"
        " qoida (qaysi ishora koʻp boʻlsa, shuni javob deb olish —"
        " «ishoralar koʻpchiligi»; keyingi darsda koʻramiz) shu"
        f" sinov namunalarida {son(kop_sinov, '.3f')} beradi"
        + (
            f". Eng yaxshi seed natijasining bu qoidadan ortigʻi"
            f" ({son(attn0_ortiq, '.3f')})"
            " bitta aniqlikning ikki standart xatosidan"
            f" ({son(2 * attn0_xato, '.3f')}) kichik, yaʼni tasodif"
            " doirasida"
            if 0 < attn0_ortiq < 2 * attn0_xato
            else ""
        )
        if attn0_max < kop_sinov + 0.05
        else (
            "kutilmagan natija berdi: eng yaxshi seedda"
            f" {son(attn0_max, '.3f')}, tartibni koʻrmaydigan eng"
            " yaxshi qoida esa shu sinov namunalarida"
            f" {son(kop_sinov, '.3f')} beradi"
        )
    ),
    display=False,
)
glue("yechdi_chegara", lstm.yechdi_chegara, display=False)
glue("tasodif_chegara", lstm.tasodif_chegara, display=False)
glue("bitta_xato", float(np.sqrt(0.25 / n_sinov)), display=False)

# %% [markdown]
# Biror seed bilan oʻqitilgan modelning sinov {term}`aniqligi <aniqlik>` kamida
# {glue:text}`yechdi_chegara:.1f` boʻlsa, model vazifani **yechdi** deymiz.
# {glue:text}`tasodif_chegara:.1f` dan past boʻlsa, model **tasodifiy taxmin
# darajasida qoldi** (tasodifiy javob namunalarning yarmini toʻgʻri topadi;
# {glue:text}`protokol_n_sinov` ta sinov namunasida bitta aniqlikning
# {term}`standart xatosi <standart xato>` taxminan {glue:text}`bitta_xato:.2f`).
# Ikki chegara oraligʻida boʻlsa — **qisman oʻrgandi**. {numref}`%s-jadvaldan <sinov_jadval>` toʻrtta xulosa chiqaramiz:
#
# - **Pozitsiyali attention** {glue:text}`attn_jumla`
#   ({glue:text}`attn_yomoni`).
# - **RNN** {glue:text}`rnn_gap`. RNNning boshlangʻich gradient
#   nisbati {glue:text}`grad_rnn:.1e` edi. {glue:text}`rnn_oqish`
# - **LSTM** standart initsializatsiya bilan {glue:text}`lstm_gap`.
# - **Unutish siljishi {glue:text}`unutish:g` boʻlgan LSTM**
#   {glue:text}`lstmu_gap`. {glue:text}`lstm_solishtir`
#
# {glue:text}`lstm_nega` LSTMning {term}`xotira hujayrasi` har qadamda unutish darvozasi
# $f_t = \sigma(W x_t + U h_{t-1} + b_f)$ ga koʻpaytiriladi. PyTorch $b_f$ ning
# boshlangʻich qiymatini ikki kichik tasodifiy sonning yigʻindisi sifatida, nol
# atrofida tanlaydi. Kirish hissasi ham dastlab kichik, shuning uchun oʻqitish boshida
# $f_t \approx \sigma(0)$ = {glue:text}`f_standart:.2f` va 59 qadamdan
# keyin 0-qadamdagi maʼlumotning taxminan {glue:text}`f_standart_T:.0e`
# qismigina qoladi. (Bu sodda baho: haqiqiy darvoza qiymatlari $\sigma(0)$ atrofida
# biroz tebranadi, natija baribir juda kichik.)
#
# Gradient esa faqat shu yoʻl bilan oqmaydi. *h* orqali oʻtadigan yoʻllar bu yerda
# sekinroq soʻnadi va 0-qadam gradientining deyarli hammasini ular olib keladi.
# Shuning uchun
# {numref}`%s-jadvaldagi <grad_jadval>` nisbat ({glue:text}`grad_lstm:.1e`) bu sodda
# baho aytadigandan bir necha tartib kichik. $b_f$ = {glue:text}`unutish:g` da $\sigma(b_f)$ =
# {glue:text}`f_unutish:.3f` va 59 qadamdan keyin
# {glue:text}`f_unutish_T:.2f` qismi qoladi: model 0-qadamni boshidanoq
# «eslaydi». Standart initsializatsiyada esa oʻqitish bu soʻnishni yengishi ham,
# yenga olmasligi ham mumkin — {glue:text}`lstm_kafolat_gap`.
#
# Unutish darvozasini {cite:ts}`gers2000`
# kiritgan; {cite:ts}`jozefowicz2015` uning siljishini 1 yoki
# 2 kabi katta qiymatdan boshlash kerakligini eslatib, har bir LSTMda 1
# dan boshlashni tavsiya qilgan. *T* = 60 boʻlgan vazifamizda boshlangʻich baho boʻyicha 1 yetmaydi:
# $\sigma(1)^{59}$ = {glue:text}`f_tavsiya_T:.0e` (4-mashqda oʻzingiz
# sinab koʻring); biz {glue:text}`unutish:g` ni tanladik. Bu ham kafolat emas:
# baho faqat oʻqitish boshidagi holatni tasvirlaydi, qanday tugashini esa
# oʻqitishning oʻzi hal qiladi. Xulosa: {glue:text}`lstm_xulosa_gap`;
# attentionda esa bu masofa boshidanoq bitta bogʻlanish.
#
# Bu natijalar ushbu {term}`nashr` tayyorlangan protsessorda oʻlchandi ({glue:text}`hisob_muhiti`).
# Bir xil kod va seed bitta mashinada odatda aynan bir xil natija beradi (bu
# kitobda buni test tekshiradi: bob ikki marta bajarilib, natijalar
# solishtiriladi). Boshqa protsessorda esa kutubxonalar boshqa {term}`kernellarni <kernel>`
# (hisob funksiyalarini) tanlaydi, qoʻshishlar tartibi va yaxlitlash oʻzgaradi;
# beqaror oʻqitish esa boshqacha tugashi mumkin. Shuning uchun yuqoridagi xulosalar
# har nashrda yangi oʻlchovlar asosida qayta yoziladi.
#
# Pozitsiyasiz attention {glue:text}`attn0_gap`. Nega — keyingi boʻlimda.
#
# ## Pozitsiya kodlashsiz attention tartibni koʻrmaydi
#
# Attention formulasida pozitsiya indeksi hech qayerda yoʻq. Agar kirish
# qatorlarini aralashtirsak, {term}`ballar <ball>` matritsasining qatorlari va ustunlari
# xuddi shunday aralashadi, {term}`softmax` va oʻrtacha esa tartibga qaramaydi.
# Demak, pozitsiya kodlashsiz modelning chiqishi kirish tartibiga bogʻliq
# emas. Buni tekshiramiz: bir xil sonlarni boshqa tartibda beramiz.

# %%
torch.manual_seed(0)
m_poz = Attention(T, pozitsiya=False)
Xs, _ = vazifa(8, T, 5)
with torch.no_grad():
    asl = m_poz(Xs)
    # pozitsiyalarni ARALASHTIRAMIZ
    aralash = m_poz(Xs[:, torch.randperm(T)])

print(
    "Pozitsiya kodlashsiz attention — kirishni aralashtirib koʻramiz:"
)
print(f"  asl chiqish[0]     : {asl[0].numpy().round(5)}")
print(f"  aralash chiqish[0] : {aralash[0].numpy().round(5)}")
aralash_farq = float((asl - aralash).abs().max())
print(f"  maksimal farq      : {aralash_farq:.2e}")
print()
print(
    "Chiqish oʻzgarmadi. "
    "Demak, model uchun ketma-ketlik — TARTIBSIZ TOʻPLAM."
)
print(
    "U «birinchi element» degan tushunchaga ega emas,\n"
    "shuning uchun vazifani yecha olmaydi."
)


# %% tags=["remove-cell"]
glue("aralash_farq", aralash_farq, display=False)


# %% [markdown]
# Eng katta farq {glue:text}`aralash_farq:.1e` — bu {term}`float32` (32 bitli suzuvchi vergulli son
# formati) hisobining
# yaxlitlash xatosi darajasi, yaʼni chiqish amalda bir xil. Model uchun
# «birinchi element» degan tushuncha yoʻq, shuning uchun
# {numref}`%s-jadvalda <sinov_jadval>` pozitsiyasiz attention vazifani yecha olmadi.
#
# Yechim — **pozitsiya kodlash**: har pozitsiyaga oʻz vektori qoʻshiladi
# (`hh + self.poz`). Endi 0-qadamdagi son boshqa qadamdagi xuddi shunday
# sondan farq qiladi. Modelimizda bu vektorlar oʻrganiladi; asl
# {term}`Transformer` maqolasida ular sinus va kosinuslardan tuzilgan.
#
# ## Oʻqitilgan model qayerga qaraydi
#
# Attention {term}`ogʻirliklari <ogʻirlik>` modelning «qayerga qarayotganini» bevosita
# koʻrsatadi. {numref}`%s-jadvaldagi <sinov_jadval>` pozitsiyali attention modellaridan
# sinovda eng yaxshi natija berganini (natijalar teng boʻlsa — birinchisini) olamiz; bu —
# seed {glue:text}`attn_seed` bilan oʻqitilgan model (uni qayta oʻqitmaymiz). Yangi 200 ta
# namunada uning ogʻirliklarini oʻrtalashtiramiz.

# %%
# sinovda eng yaxshi seed
attn_seed = tugadi["attention (+ pozitsiya)"].eng_yaxshi
aniqlik, model = natija["attention (+ pozitsiya)", attn_seed]
Xv, _ = vazifa(200, T, 2)
with torch.no_grad():
    model(Xv)
w = model.ogirlik.mean(dim=(0, 1)).numpy()  # (200, T, T) -> (T,)

print(
    f"Oʻqitilgan attention modelining (seed {attn_seed}) aniqligi:"
    f" {aniqlik:.4f}"
)
print()
print(f"0-qadamga berilgan oʻrtacha eʼtibor   : {w[0]:.4f}")
print(f"Qolgan {T-1} qadamning oʻrtachasi      : {w[1:].mean():.6f}")
print(f"Eng koʻp eʼtibor olgan qadam        : {int(w.argmax())}")
# eʼtiborning koʻpi 0-qadamdami
qaraydi0 = int(w.argmax()) == 0 and w[0] > 0.5
if qaraydi0:
    print()
    print(
        "Model oʻzi topdi: javob BIRINCHI qadamda.\n"
        "Biz bunga hech qanday koʻrsatma bermadik."
    )


# %% tags=["remove-cell"]
glue("attn_seed", attn_seed, display=False)
glue("qadam0", float(w[0]), display=False)
# a share that rounds to 100,0 % is "almost all": the rest is not zero (qolgan_orta)
qadam0_ulush = (
    f"{foiz(w[0], 1)} qismi"
    if w[0] < 0.9995
    else f"deyarli hammasi (yaxlitlanganda {foiz(w[0], 1)})"
)
glue("qadam0_ulush", qadam0_ulush, display=False)
glue("qolgan_orta", float(w[1:].mean()), display=False)
glue("eng_kop_qadam", int(w.argmax()), display=False)
glue(
    "qadam0_gap",
    (
        "Modelga javob qayerdaligini hech kim aytmagan: u buni gradient"
        " orqali oʻzi topdi."
        if qaraydi0
        else (
            "Demak, bu model javobni faqat 0-qadamdan olmayapti:"
            " eʼtiborning koʻp qismi boshqa qadamlarga ketadi."
        )
    ),
    display=False,
)
# rasmning pastki qismi — bitta namuna: uning har soʻrov qadami
# 0-qadamga koʻp ogʻirlik beradimi
bir_namuna0 = float(model.ogirlik[0][:, 0].min())
glue("bir_namuna0", bir_namuna0, display=False)
glue(
    "qadam0_rasm_gap",
    (
        "yuqori qismida bitta ustun qolganlaridan ancha baland; pastki"
        " qismida matritsaning chap ustuni yorqin: har bir soʻrov"
        " qadami 0-qadamga qaraydi"
        if qaraydi0 and bir_namuna0 > 0.5
        else (
            "yuqori qismida 0-qadam ustuni eng baland, lekin pastki"
            " qismidagi namunada hamma soʻrov qadami ham 0-qadamga koʻp"
            " qaramaydi"
            if qaraydi0
            else (
                "eʼtibor 0-qadamga toʻplanmagan: u boshqa qadamlarga"
                " ham tarqalgan"
            )
        )
    ),
    display=False,
)

# %% [markdown]
# Oʻrtacha eʼtiborning {glue:text}`qadam0_ulush` 0-qadamga tushadi,
# qolgan qadamlarning har biriga oʻrtacha atigi {glue:text}`qolgan_orta:.1e`.
# {glue:text}`qadam0_gap` Xuddi shu ogʻirliklar {numref}`%s-rasmda <attention_ogirligi>` koʻrsatilgan.

# %%
rasm, (b1, b2) = plt.subplots(2, 1, figsize=(5.6, 6.4))
b1.bar(np.arange(T), w, color="#1a73e8")
b1.set_xlabel("ketma-ketlik qadami")
b1.set_ylabel("ogʻirlik")
tasvir = b2.imshow(
    model.ogirlik[0].numpy(), cmap="viridis", aspect="auto"
)
b2.set_xlabel("qaralayotgan qadam")
b2.set_ylabel("soʻrov qadami")
plt.colorbar(tasvir, ax=b2, fraction=0.046)
plt.tight_layout()
fig(
    "attention_ogirligi.png",
    caption=(
        "Yuqorida: har qadamga berilgan oʻrtacha eʼtibor (seed"
        f" {attn_seed}); eʼtiborning {qadam0_ulush} 0-qadamga"
        " tushgan. Pastda: bitta namunaning attention matritsasi; chap"
        " ustun — har soʻrov qadami 0-qadamga bergan ogʻirlik."
    ),
)

# %% [markdown]
# {numref}`%s-rasmning <attention_ogirligi>` {glue:text}`qadam0_rasm_gap`. Attention ogʻirliklari modelni
# tushuntirishning eng oddiy vositasi, lekin ehtiyot boʻling: koʻp {term}`qatlamli <qatlam>`
# modellarda ogʻirlik va «sabab» har doim ham bir narsa emas.

# %% tags=["remove-cell"]
# Xulosa sahifasi uchun (xulosa.py dagi jadval bu gaplarni shu darsdan
# oladi)
glue(
    "xl_yol",
    f"Istalgan ikki pozitsiya orasida bitta bogʻlanish — {T-1} ta qadam"
    " emas",
    display=False,
)
glue(
    "xl_gradient",
    "Oʻlchandi: nisbat attentionda"
    f" {son(grad_nisbat['attention'], '.2f')}, RNNda"
    f" {son(grad_nisbat['RNN'], '.1e')}, LSTMda"
    f" {son(grad_nisbat['LSTM'], '.1e')}",
    display=False,
)
glue(
    "xl_boshlanish",
    f"Oʻlchandi: vazifani yechgan seedlar ({n_seed} tadan) — standart"
    f" LSTMda {tugadi['LSTM'].soni('yechdi')} ta, unutish siljishi"
    f" {son(UNUTISH, 'g')} bilan {tugadi[lstm_u].soni('yechdi')} ta;"
    f" eng yomon seed natijalari {son(min(aniqliklar['LSTM']), '.2f')} va"
    f" {son(min(aniqliklar[lstm_u]), '.2f')}",
    display=False,
)
glue(
    "xl_pozitsiya",
    "Oʻlchandi: busiz model tartibni koʻrmaydi (farq"
    f" {son(aralash_farq, '.0e')}), aniqlik"
    f" {son(max(aniqliklar['attention (pozitsiyasiz)']), '.2f')} dan"
    " oshmadi",
    display=False,
)
glue(
    "xl_tushuntirish",
    "Ogʻirliklar model qayerga qarashini koʻrsatadi: "
    f"eʼtiborning {qadam0_ulush} 0-qadamga",
    display=False,
)

# %% [markdown]
# ## Mashqlar
#
# Kod bilan ishlaydigan mashqlarda avval natijani **taxmin qiling**, soʻng
# oʻlchang. Taxmin va oʻlchov farq qilsa — eng koʻp oʻrganiladigan joy shu.
#
# **1-mashq (uzunroq ketma-ketlik).** Gradient jadvalini `T = 120` bilan
# qayta hisoblang. RNNdagi «119-qadam / 0-qadam» nisbati qanday
# oʻzgaradi? Attentiondagi-chi?
#
# :::{admonition} Yechim
# :class: dropdown
#
# RNNda gradient har qadamda taxminan bir xil koʻpaytuvchiga koʻpaytiriladi,
# shuning uchun nisbat masofaga **eksponensial** bogʻliq: qadamlar ikki
# barobar koʻpaysa, nisbatning tartibi ham taxminan ikki barobar oshadi.
# 0-qadam gradienti float32 ifodalay oladigan eng kichik sondan ham
# kichrayib, nolga aylanishi mumkin; u holda nisbat cheksiz boʻladi.
# Attentionda nisbat yana 1 atrofida qoladi: {term}`yoʻl uzunligi` *T* ga bogʻliq
# emas.
# :::
#
# **2-mashq (parametrlarni sanash).** `Attention(60)` da nechta parametr
# borligini formula bilan hisoblang va `parametrlar(Attention(60))` bilan
# tekshiring. Pozitsiya kodlash nechta parametr qoʻshadi?
#
# :::{admonition} Yechim
# :class: dropdown
#
# Kirish qatlami (1 → *d*): $1 \cdot d + d$. Pozitsiya kodlash: $T \cdot d$.
# *Q*, *K*, *V*: $3\,(d \cdot d + d)$. Chiqish (*d* → 2): $d \cdot 2 + 2$.
# Jami $3d^2 + d\,(T + 7) + 2$; bizda *d* = {glue:text}`d_model`,
# *T* = {glue:text}`T_vazifa`, yaʼni {glue:text}`param_formula` — bu
# {numref}`%s-jadvaldagi <sinov_jadval>` son bilan bir xil; pozitsiyasiz
# modeldan farqi aynan $T \cdot d$.
# :::
#
# **3-mashq (oʻylash uchun).** Oʻqitilmagan `Attention(T, pozitsiya=True)`
# ham kirish tartibini «koʻradimi»? `aralash` tajribasini shu model bilan
# takrorlashdan oldin javob bering.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Ha. Pozitsiya vektorlari tasodifiy boshlangʻich qiymatga ega boʻlsa ham,
# ular har pozitsiyada har xil. Aralashtirilgan kirishga boshqa vektorlar
# qoʻshiladi va chiqish oʻzgaradi (`tests/test_modellar.py` buni
# tekshiradi). Oʻqitish bu vektorlarga maʼno beradi.
# :::
#
# **4-mashq (unutish siljishi).** `partial(Ketma, "lstm", unutish=1.0)` ni
# `parallel(oqit, ...)` bilan bobning {glue:text}`seedlar_soz` seedida
# oʻqiting, soʻng `unutish=5.0` bilan takrorlang. Oʻqitishdan oldin natijani taxmin qiling.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Taxmin uchun bobdagi bahoni hisoblang: $\sigma(1)^{59}$ =
# {glue:text}`f_tavsiya_T:.0e` — standart LSTMdagidan
# ({glue:text}`f_standart_T:.0e`) ancha katta, lekin baribir juda kichik:
# boshlangʻich bahoga koʻra 0-qadam xotirasi boshida deyarli toʻliq soʻnadi.
# $\sigma(5)^{59}$ = {glue:text}`f_katta_T:.2f` — xotira boshidanoq
# saqlanadi.
#
# Lekin baho faqat oʻqitish boshidagi holatni tasvirlaydi: oʻqitish
# yomon initsializatsiyada ham soʻnishni yengishi, yaxshi initsializatsiyada ham toʻxtab
# qolishi mumkin.
#
# Bu nashrdagi oʻlchov (yechim kodi quyida).
# {glue:text}`mashq4_gap` {glue:text}`lstmu_toxtagan` Natija seedga va
# protsessorga bogʻliq, shuning uchun xulosani faqat oʻz oʻlchovingizga tayanib
# chiqaring: har seed bilan oʻqitish qanday tugaganini sanab chiqing.
# :::


# %% tags=["hide-cell"]
# 4-mashq yechimi: unutish siljishi 1 va 5, bobning besh seedida
siljishlar = (1.0, 5.0)
ishlar_ = [
    (partial(Ketma, "lstm", unutish=b), T, s)
    for b in siljishlar
    for s in seedlar
]
aniq_ = [a for a, _ in parallel(oqit, ishlar_)]
mashq4 = {}
for i, siljish in enumerate(siljishlar):
    bolak = aniq_[i * len(seedlar) : (i + 1) * len(seedlar)]
    mashq4[siljish] = Seedlar(dict(zip(seedlar, bolak)))
    print(f"unutish={siljish:g}: {mashq4[siljish].qiymatlar()}")


# %% tags=["remove-cell"]
# standart LSTM shu seedlarda nechtasida yechgan
kd3 = sum(s_ in lstm.seedlari("yechdi") for s_ in seedlar)


def _qiyos(k):
    if k == kd3:
        return "vazifani yechgan seedlar soni standart initsializatsiyadagidek"
    kopmi = "koʻp" if k > kd3 else "kam"
    return f"vazifani yechgan seedlar standart initsializatsiyadagidan {kopmi}"


glue(
    "mashq4_gap",
    f"Standart LSTM shu seedlarning {nechtasida(kd3)} vazifani"
    + (" yechgan edi. " if kd3 else " yechmagan edi. ")
    + " ".join(
        f"Siljish {son(b, 'g')} bilan model {t.jumla()}"
        f" ({t.qiymatlar()}) — {_qiyos(t.soni('yechdi'))}."
        for b, t in mashq4.items()
    ),
    display=False,
)
for b, t in mashq4.items():
    glue(f"mashq4_{b:g}_seedlar", list(t.aniqlik.values()), display=False)
