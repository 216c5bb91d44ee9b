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
# # Yakuniy misol: attention oʻzbekcha sonlarni oʻqiydi
#
# Endi hamma qismni bitta haqiqiy vazifada yigʻamiz: {doc}`«Transformer bloki va KV kesh» <transformer>` darsidagi {term}`pre-LN <post-LN va pre-LN>`
# bloklardan {term}`koder` va {term}`dekoder` tuzib, oʻzbekcha soʻz bilan yozilgan sonlarni raqamga aylantiradigan
# kichik {term}`Transformer` oʻqitamiz va u qaysi soʻzga qarayotganini koʻramiz.


# %%
import math

import pandas as pd
import torch
import matplotlib.pyplot as plt

from chapter_code.kitob import show, fig, xarita
from chapter_code.bichim import son, foiz
from chapter_code.modellar import parametrlar
from chapter_code.oqitish import parallel

# %% [markdown]
# ## Vazifa: soʻz bilan yozilgan son
#
# Model oʻzbekcha soʻz
# bilan yozilgan sonni oʻqiydi va uni raqamlar bilan yozadi: «uch yuz qirq
# yetti ming ikki yuz besh» → `347205`. Kirish — haqiqiy oʻzbekcha soʻzlar,
# chiqish — raqamlar. Qaysi raqam qaysi soʻzdan kelishini esa biz aniq
# bilamiz. Shuning uchun modelning qayerga qarashini tekshirish mumkin.
#
# Maʼlumotni kod hosil qiladi: hech narsa yuklab olinmaydi. Sonlar 1 dan
# 999 999 gacha oraliqda olinadi; hujjatlardagi kabi «bir yuz», «bir ming» deb yoziladi,
# shunda har noldan farqli raqamning oʻz soʻzi bor.
#
# ```{literalinclude} ../../chapter_code/sonlar.py
# :pyobject: soz_bilan
# ```
#
# Bu — tarjima vazifasi, shuning uchun asl Transformer maqolasidagi kabi
# **koder-dekoder** modelini olamiz (`Tarjimon`). Koder soʻzlarni {term}`kauzal maskasiz <kauzal (sababiy) maska>` {term}`attention <attention (eʼtibor mexanizmi)>` bilan oʻqiydi: har soʻz hamma soʻzni koʻradi, faqat
# qisqa sonlarni bir xil uzunlikka keltirish uchun qoʻshilgan toʻldiruvchi `<pad>` {term}`tokenlar <token>`
# yopiladi. Dekoder raqamlarni bittadan yozadi: oʻzi yozgan
# raqamlarga kauzal maska bilan qaraydi, soʻzlarga esa **{term}`cross-attention`**
# (*oʻzaro attention*: {term}`soʻrovlar <soʻrov>` dekoderdan, {term}`kalit` va qiymatlar koder
# chiqishidan) orqali qaraydi. Ikkalasi ham {doc}`«Transformer bloki va KV kesh» <transformer>` darsidagi pre-LN `Blok`.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: Tarjimon
# ```
#
# Oʻqitishda dekoder kirishiga oʻzi yozgan emas, toʻgʻri oldingi raqamlar
# beriladi (*{term}`teacher forcing`*, «oʻqituvchi yordami»): hamma pozitsiya bitta
# hisobda oʻqitiladi. Sinov sonlari oʻqitishda hech qachon uchramaydi; javob
# faqat hamma raqami toʻgʻri boʻlsa toʻgʻri hisoblanadi (*{term}`aniq moslik`*,
# ingl. *exact match*). Oʻqitish kodi — `chapter_code/sonlar.py` dagi
# `oqit_tarjimon`; uning natijalari ham omborda saqlanadi. Ikki {term}`seed` bilan oʻqitamiz:
# ikkala oʻqitish ikki protsessor yadrosida parallel bajariladi.

# %%
from chapter_code.oqitish import protokoli
from chapter_code.sonlar import (
    oqit_tarjimon,
    sonlar_toplami,
    soz_bilan,
    javob,
    manba_soz,
    kesishgan_ogirlik,
    moslik,
    ogirlik_qayerda,
)

tarjima_seedlar = (0, 1)
tarjimonlar = parallel(oqit_tarjimon, [(s,) for s in tarjima_seedlar])
tarjima_protokol = protokoli(oqit_tarjimon)
print("oqit_tarjimon() protokoli:")
for kalit_, qiymat in tarjima_protokol.items():
    print(f"  {kalit_:<9} = {qiymat}")
for s, (aniq_, m_) in zip(tarjima_seedlar, tarjimonlar):
    print(
        f"seed {s}: sinov aniqligi (aniq moslik) {aniq_:.3f}, "
        f"parametrlar soni {parametrlar(m_)}"
    )
tarjima_aniq, tarjimon = tarjimonlar[0]
_, sinov_sonlar = sonlar_toplami(
    0, tarjima_protokol["n"], tarjima_protokol["n_sinov"]
)
sinov_javob = javob(tarjimon, sinov_sonlar)
# seed 0 xato qilgan sonlar
xato_0 = [s for j, s in zip(sinov_javob, sinov_sonlar) if j != str(s)]
# seed 1 modeli oʻz sinov sonlarida (ular ham oʻqitishda uchramagan)
_, sinov_sonlar_1 = sonlar_toplami(
    1, tarjima_protokol["n"], tarjima_protokol["n_sinov"]
)
xato_1 = [
    s
    for j, s in zip(
        javob(tarjimonlar[1][1], sinov_sonlar_1), sinov_sonlar_1
    )
    if j != str(s)
]


# %% tags=["remove-cell"]
from myst_nb import glue

glue("tr_aniq_0", tarjimonlar[0][0], display=False)
glue("tr_aniq_1", tarjimonlar[1][0], display=False)
glue("tr_n_sinov", tarjima_protokol["n_sinov"], display=False)
glue("tr_qadamlar", tarjima_protokol["qadamlar"], display=False)
for qisqa, sonlar_, xatolar in [
    ("tr", sinov_sonlar, xato_0),
    ("tr1", sinov_sonlar_1, xato_1),
]:
    glue(f"{qisqa}_xato_soni", len(xatolar), display=False)
    glue(
        f"{qisqa}_00_xato",
        sum("00" in str(s) for s in xatolar),
        display=False,
    )
    glue(
        f"{qisqa}_00_sinov",
        sum("00" in str(s) for s in sonlar_),
        display=False,
    )


# «xatolar 00 li sonlarga toʻplangan»: xatolar tasodifan tushganda
# (har xato «00»li son boʻlish ehtimoli — sinov sonlaridagi ulushi)
# shuncha «00»li xato chiqish ehtimoli 1 % dan kichik
def toplanganmi(xato_soni, xato_00, sinov_00, n_):
    p_ = sinov_00 / n_
    dum = sum(
        math.comb(xato_soni, k) * p_**k * (1 - p_) ** (xato_soni - k)
        for k in range(xato_00, xato_soni + 1)
    )
    return xato_00 > 0 and dum < 0.01


def xato_gapi(jami, nolli):
    # «6 ta xatoning hammasida», «19 ta xatoning 17 tasida»,
    # «yagona xatoda» (nolli ≥ 1)
    if jami == 1:
        return "yagona xatoda"
    return f"{jami} ta xatoning " + (
        "hammasida" if nolli == jami else f"{nolli} tasida"
    )


n_tr = tarjima_protokol["n_sinov"]
sinov00 = [
    sum("00" in str(s) for s in sonlar_)
    for sonlar_ in (sinov_sonlar, sinov_sonlar_1)
]
xato00 = [sum("00" in str(s) for s in x) for x in (xato_0, xato_1)]
kons = [
    toplanganmi(len(x), x00, s00, n_tr)
    for x, x00, s00 in zip((xato_0, xato_1), xato00, sinov00)
]


def toplanmagan(xatolar, x00):
    return (
        f"{len(xatolar)} ta xatoning hech birida ketma-ket nollar yoʻq"
        if x00 == 0
        else f"{xato_gapi(len(xatolar), x00)} ketma-ket nollar bor"
    )


if not xato_0:
    gap0 = "Seed 0 modeli sinov sonlarining hammasini toʻgʻri yozdi."
elif kons[0]:
    gap0 = (
        f"Xatolarga qarang: {xato_gapi(len(xato_0), xato00[0])}"
        f" ketma-ket nollar («00») bor, holbuki {n_tr} ta sinov"
        f" sonining atigi {sinov00[0]} tasida shunday."
    )
else:
    gap0 = (
        "Xatolar «00»li sonlarga toʻplanmagan:"
        f" {toplanmagan(xato_0, xato00[0])} ({n_tr} ta sinov sonining"
        f" {sinov00[0]} tasida bor)."
    )
if not xato_1:
    gap1 = (
        "Seed 1 modeli esa oʻz sinov sonlarining hammasini toʻgʻri"
        " yozdi."
    )
elif kons[1]:
    gap1 = (
        "Seed 1 modelida"
        f" {'ham shu manzara' if kons[0] else 'esa xatolar «00»li sonlarga toʻplangan'}:"
        f" oʻz sinov sonlaridagi {xato_gapi(len(xato_1), xato00[1])}"
        f" «00» bor (sinov sonlarining {sinov00[1]} tasida bor)."
    )
else:
    gap1 = (
        "Seed 1 modelida xatolar «00»li sonlarga toʻplanmagan:"
        f" {toplanmagan(xato_1, xato00[1])} (sinov sonlarining"
        f" {sinov00[1]} tasida bor)."
    )
sabab = (
    " Masalan, «… yuz ming …» kabi sonlardagi nollar guruhini hech bir"
    " soʻz aytmaydi: model uni «yuz» va «ming» soʻzlarining"
    " joylashuvidan topishi kerak."
    if any(kons)
    else ""
)
glue("tr_00_paragraf", gap0 + " " + gap1 + sabab, display=False)

# %% [markdown]
# {term}`Aniqlik <aniqlik>` — toʻliq toʻgʻri yozilgan sonlar ulushi. Seed 0 bilan oʻqitilgan
# model {glue:text}`tr_n_sinov` ta yangi sonda {glue:text}`tr_aniq_0:.3f`
# aniqlikka erishdi (seed 1 da {glue:text}`tr_aniq_1:.3f`); bunga {term}`parametrlarni <parametrlar>` {glue:text}`tr_qadamlar`
# marta yangilash yetdi. {numref}`%s-jadvalda <tarjima_misollar>` sinov
# sonlaridan bir nechta toʻgʻri javob va modelning hamma xatolari
# ({glue:text}`tr_xato_soni` ta) bor.

# %%
togri_misol = [
    (s, j) for s, j in zip(sinov_sonlar, sinov_javob) if j == str(s)
][:4]
xato_misol = [
    (s, j) for s, j in zip(sinov_sonlar, sinov_javob) if j != str(s)
]


# sonlar oʻqish uchun xonalari guruhlab koʻrsatiladi (138 402); model
# javobi raqamlardan iborat boʻlmasa yoki 0 bilan boshlansa, model
# yozganicha qoladi
def guruhla(j):
    return son(int(j)) if j.isdigit() and not j.startswith("0") else j


show(
    pd.DataFrame(
        [
            {
                "soʻz bilan": soz_bilan(s),
                "toʻgʻri javob": son(s),
                "model javobi": guruhla(j),
                "toʻgʻrimi": "ha" if j == str(s) else "yoʻq",
            }
            for s, j in togri_misol + xato_misol
        ]
    ),
    izoh=(
        "Oʻqitishda uchramagan sonlar: birinchi toʻrtta toʻgʻri javob"
        " va modelning hamma xatolari (seed 0)."
    ),
    nom="tarjima_misollar",
)

# %% [markdown]
# {glue:text}`tr_00_paragraf`
#
# ### Model tuzilmani oʻrgandimi?
#
# Umumiy {term}`aniqlik` — bitta son, u zaif joylarni yashiradi. Sinov sonlarini
# guruhlarga ajratamiz: raqamlari orasida nol yoʻq sonlar, kamida bitta nol
# bor sonlar va ketma-ket ikki nolli («00»li) sonlar. Nolning soʻzi yoʻq:
# «ikki yuz besh»da «0»ni hech bir soʻz aytmaydi, uni model «yuz»
# soʻzining oʻrnidan chiqarishi kerak. Shuning uchun nollar — model sonning
# tuzilishini (qaysi xona qaysi soʻzdan keladi) oʻrgangan-oʻrganmaganini
# koʻrsatadigan joy.
#
# Keyin qattiqroq sinov: xuddi shu modelni xuddi shu seedlar bilan yana
# oʻqitamiz, lekin oʻqitish sonlaridan «00»li sonlarning hammasini olib
# tashlaymiz (`tashla="00"`). Sinov sonlari oʻzgarmaydi. Agar model
# «yuz» va «ming» qaysi xonalarni egallashini tushungan boʻlsa, «00»li
# sonlarni ham yozadi. Bu oson sinov emas: ularning soʻzlari tanish, lekin
# «00» raqamlar juftligini model oʻqitishda bironta javobda yozmagan,
# baʼzi sonlarda esa soʻzlar ham oʻqitishda uchramagan juftlikda keladi
# (quyida sanaymiz). Tanish boʻlaklardan yangi birikma tuzish —
# **{term}`kompozitsion umumlashtirish`** (ingl. *compositional* yoki *systematic
# generalization*).

# %%
from functools import partial


def togrimi(model, sonlar_):
    # har son: hamma raqami toʻgʻri yozildimi (aniq moslik)
    javoblar = javob(model, sonlar_)
    return {s: j == str(s) for j, s in zip(javoblar, sonlar_)}


def ulush(togri, shart=lambda s: True):
    # shartga mos sonlarning qanchasi toʻgʻri yozildi
    tanlangan = [t for s, t in togri.items() if shart(s)]
    return sum(tanlangan) / len(tanlangan)


guruhlar = {
    "nolsiz": lambda s: "0" not in str(s),
    "nolli": lambda s: "0" in str(s),
    "«00»li": lambda s: "00" in str(s),
}
# «00»li sonlarsiz oʻqitilgan modellar, oʻsha seedlar
yopiq = parallel(
    partial(oqit_tarjimon, tashla="00"), [(s,) for s in tarjima_seedlar]
)
qatorlar_00, soni_00 = [], []
ikki_tur = [("hamma son", tarjimonlar), ("«00»siz", yopiq)]
for oqitish_, natijalar_ in ikki_tur:
    for s, (_, model_) in zip(tarjima_seedlar, natijalar_):
        _, sinov_ = sonlar_toplami(
            s, tarjima_protokol["n"], tarjima_protokol["n_sinov"]
        )
        togri = togrimi(model_, sinov_)
        qator = {"oʻqitish": oqitish_, "seed": s}
        qator["hammasi"] = ulush(togri)
        for nom, shart in guruhlar.items():
            qator[nom] = ulush(togri, shart)
        qatorlar_00.append(qator)
        soni_00.append(sum("00" in str(x) for x in sinov_))
tuzilma = pd.DataFrame(qatorlar_00)
# aniqliklar uch xonali kasr bilan (hammasi toʻgʻri boʻlsa ham: 1,000)
tuzilma.attrs["xonalar"] = dict.fromkeys(["hammasi", *guruhlar], 3)
show(
    tuzilma.round(3),
    izoh=(
        "Sinov sonlarida aniq moslik, guruhlar boʻyicha: hamma son"
        " bilan va «00»li sonlarsiz oʻqitilgan modellar; har seed"
        " uchun sinov sonlari ikkala oʻqitishda bir xil."
    ),
    nom="tarjima_tuzilma",
)


# %% tags=["remove-cell"]
hamma_q = tuzilma[tuzilma["oʻqitish"] == "hamma son"]
yopiq_q = tuzilma[tuzilma["oʻqitish"] == "«00»siz"]
u00, unol, usiz = "«00»li", "nolli", "nolsiz"
oraliq_ = {
    "tz_hamma_00": hamma_q[u00],
    "tz_hamma_nolli": hamma_q[unol],
    "tz_hamma_nolsiz": hamma_q[usiz],
    "tz_yopiq_00": yopiq_q[u00],
    "tz_yopiq_hammasi": yopiq_q["hammasi"],
    "tz_yopiq_nolsiz": yopiq_q[usiz],
}
def oraliq(a, b, spec=".3f"):
    # «a–b»: chiziqcha (foizda birlik bir marta: «95–99 %»); ikkalasi
    # teng boʻlsa bitta son
    x, y = son(a, spec), son(b, spec)
    return x if x == y else f"{x.removesuffix(chr(0x202F) + '%')}–{y}"


for kalit_, qiymatlar in oraliq_.items():
    glue(f"{kalit_}_min", float(qiymatlar.min()), display=False)
    glue(f"{kalit_}_max", float(qiymatlar.max()), display=False)
    glue(
        f"{kalit_}_oraliq",
        oraliq(qiymatlar.min(), qiymatlar.max()),
        display=False,
    )
glue("tz_00_soni_min", min(soni_00), display=False)
glue("tz_00_soni_max", max(soni_00), display=False)
glue("tz_00_soni", oraliq(min(soni_00), max(soni_00), "d"), display=False)
glue(
    "tz_nol_gap",
    (
        "xatolar asosan soʻzi yoʻq raqamlarda — nollarda"
        if hamma_q[usiz].min() > hamma_q[unol].max()
        else "nolli va nolsiz sonlar orasida aniq farq koʻrinmadi"
    ),
    display=False,
)
glue(
    "tz_kam_gap",
    (
        "bu sonlarda maʼlumot kamaygani modelni zaiflashtirmadi"
        if yopiq_q[usiz].min() >= hamma_q[usiz].min() - 0.02
        else "ular nolsiz sonlarda ham sezilarli pasaydi"
    ),
    display=False,
)
# «00»siz oʻqitilgan model «00»li sonlarda yiqildimi: eng yaxshi
# seedi ham yarmidan kami toʻgʻri va hamma son bilan oʻqitilgandan
# kamida 0,2 past
yiqildi = (
    yopiq_q[u00].max() < 0.5
    and yopiq_q[u00].max() < hamma_q[u00].min() - 0.2
)
glue(
    "tz_xulosa",
    (
        "Bu — kompozitsion umumlashtirishning muvaffaqiyatsizligi: model"
        " tanish soʻzlardan oʻqitishda hech yozmagan «00»ni koʻp hollarda"
        " tuza olmadi."
        " Unga nima yetmaganini — «yuz» va «ming» soʻzlarining xona"
        " qoidasimi yoki hech yozilmagan «0, 0» ketma-ketligimi — bu"
        " tajribadan aniqlab boʻlmaydi. Umumiy aniqlik buni yashiradi, chunki «00»li"
        " sonlar sinovning kichik qismi."
        if yiqildi
        else "Demak, bu sinovda model «00»li sonlarni ularni koʻrmasdan"
        " ham yoza oldi: yiqilish kuzatilmadi."
    ),
    display=False,
)

# %% [markdown]
# {numref}`%s-jadval <tarjima_tuzilma>` ikki narsani koʻrsatadi. Hamma son
# bilan oʻqitilgan modellar nolsiz sonlarda
# {glue:text}`tz_hamma_nolsiz_oraliq`, nolli sonlarda
# {glue:text}`tz_hamma_nolli_oraliq`, «00»li sonlarda esa
# {glue:text}`tz_hamma_00_oraliq` aniqlikka erishdi:
# {glue:text}`tz_nol_gap`.
#
# «00»li sonlarsiz oʻqitilgan modellarning umumiy aniqligi
# {glue:text}`tz_yopiq_hammasi_oraliq`, nolsiz sonlarda
# {glue:text}`tz_yopiq_nolsiz_oraliq`: {glue:text}`tz_kam_gap`. Lekin
# «00»li sinov sonlaridagi (har seedda {glue:text}`tz_00_soni` ta)
# aniqliklari {glue:text}`tz_yopiq_00_oraliq`. {glue:text}`tz_xulosa`
#
# «00»li sonlar modeldan qanchalik yangi narsani talab qilishini sanaymiz: ularning
# nechtasida oʻqitish sonlarida (`tashla="00"` bilan) bir marta ham
# uchramagan qoʻshni soʻzlar juftligi bor?

# %%
for s in tarjima_seedlar:
    oquv_, sinov_ = sonlar_toplami(
        s, tarjima_protokol["n"], tarjima_protokol["n_sinov"]
    )
    # oqit_tarjimon(tashla="00") koʻrgan sonlar, ulardagi soʻz juftlari
    oquv_ = [x for x in oquv_ if "00" not in str(x)]
    juftlar = set()
    for x in oquv_:
        w_ = soz_bilan(x).split()
        juftlar |= set(zip(w_, w_[1:]))
    nol00 = [x for x in sinov_ if "00" in str(x)]
    yangi_ = []
    for x in nol00:
        w_ = soz_bilan(x).split()
        if any(j not in juftlar for j in zip(w_, w_[1:])):
            yangi_.append(x)
    misol_ = yangi_[0] if yangi_ else None
    print(
        f"seed {s}: «00»li {len(nol00)} ta sinov sonidan"
        f" {len(yangi_)} tasida"
    )
    print("  yangi soʻz juftligi bor")
    if yangi_:
        print(f"  masalan: «{soz_bilan(misol_)}»")
    if s == tarjima_seedlar[0]:
        tz_yangi, tz_nol00 = len(yangi_), len(nol00)

# %% tags=["remove-cell"]
glue("tz_yangi_juft", tz_yangi, display=False)
glue("tz_nol00", tz_nol00, display=False)
glue("tz_seed0", tarjima_seedlar[0], display=False)

# %% [markdown]
# Seed {glue:text}`tz_seed0` da «00»li {glue:text}`tz_nol00` ta sinov
# sonidan {glue:text}`tz_yangi_juft` tasida soʻzlar ham yangi juftlikda
# keladi; qolganlarida yangi narsa — faqat «00»ning oʻzi (u hech bir
# oʻqitish javobida yoʻq, chunki bunday sonlar olib tashlangan).
#
# ## Model qayerga qaraydi
#
# Endi model yozayotganda qayerga qarashini koʻramiz. Dekoderning yagona {term}`qatlamidagi <qatlam>`
# cross-attention {term}`ogʻirliklarini <ogʻirlik>` olamiz: har qator — bitta raqamni
# yozayotgan pozitsiya, har ustun — bitta soʻz. Misol sifatida bitta noli bor
# olti xonali sinov sonini tanlaymiz.

# %%
misol = next(
    s
    for s in sinov_sonlar
    if len(str(s)) == 6 and str(s).count("0") == 1
)
sozlar = soz_bilan(misol).split()
raqamlar = list(str(misol))
# (qatlamlar, 1, boshlar, Tq, Tm) -> oxirgi (yagona) qatlam, 1-namuna:
# (boshlar, Tq, Tm)
w_tr = kesishgan_ogirlik(tarjimon, [misol])[-1, 0][
    :, : len(raqamlar), : len(sozlar)
]
# boshlar oʻrtachasi: (raqamlar, soʻzlar)
w_orta = w_tr.mean(0)
print(
    f"{misol} = «{soz_bilan(misol)}»;  model javobi:"
    f" {javob(tarjimon, [misol])[0]}"
)
for t, (r, j) in enumerate(zip(raqamlar, manba_soz(misol))):
    eng = int(w_orta[t].argmax())
    print(
        f"  {t}-raqam {r}: eng koʻp «{sozlar[eng]}»ga"
        f" ({w_orta[t, eng]:.2f}); uni beradigan soʻz:"
        f" {'yoʻq (nol)' if j is None else '«' + sozlar[j] + '»'}"
    )

misol_togri = all(
    int(w_orta[t].argmax()) == j
    for t, j in enumerate(manba_soz(misol))
    if j is not None
)
rasm, b = plt.subplots(figsize=(5.6, 4.4))
tasvir = b.imshow(
    w_orta.numpy(), cmap="viridis", vmin=0, vmax=1, aspect="auto"
)
b.set_xticks(range(len(sozlar)), sozlar, rotation=35, ha="right")
b.set_yticks(
    range(len(raqamlar)),
    [f"{t}-raqam: {r}" for t, r in enumerate(raqamlar)],
)
b.set_xlabel("soʻz (koder)")
b.set_ylabel("yozilayotgan raqam (dekoder)")
plt.colorbar(tasvir, ax=b, fraction=0.046)
plt.tight_layout()
fig(
    "tarjima_xarita.png",
    caption=(
        f"Cross-attention: {son(misol)} sonini yozayotgan dekoder qaysi"
        " soʻzga qaraydi (yagona dekoder qatlami, 4 boshning"
        " oʻrtachasi). "
    )
    + (
        "Har noldan farqli raqamning eng yorqin katagi — uni beradigan"
        " soʻz"
        if misol_togri
        else (
            "Noldan farqli raqamlarning hammasida ham eng yorqin katak"
            " uni beradigan soʻzda emas"
        )
    )
    + "; nolning soʻzi yoʻq.",
)

# (boshlar + 1,): oxirgi qatlam
ulush = moslik(tarjimon, sinov_sonlar)[-1]
# [oʻz soʻzi, «yuz»/«ming», boshqa soʻz] ulushlari: (boshlar + 1, 3)
qayerda = ogirlik_qayerda(tarjimon, sinov_sonlar)[-1]
# nollar: ularning soʻzi yoʻq; ogʻirligining qanchasi «yuz»/«ming»ga
# tushadi
nol_ym = float(
    ogirlik_qayerda(tarjimon, sinov_sonlar, nollar=True)[-1, -1, 1]
)
nol_t = raqamlar.index("0")


# %% tags=["remove-cell"]
glue("tr_moslik", float(ulush[-1]), display=False)
glue("tr_orta_oz", float(qayerda[-1, 0]), display=False)
glue("tr_orta_ym", float(qayerda[-1, 1]), display=False)
glue("tr_nol_ym", nol_ym, display=False)
glue("tr_moslik_min", float(ulush[:-1].min()), display=False)
glue("tr_moslik_max", float(ulush[:-1].max()), display=False)
glue("tr_misol", misol, display=False)
glue("tr_misol_togri", misol_togri, display=False)
glue("tr_nol_soz", sozlar[int(w_orta[nol_t].argmax())], display=False)
# «bitta yorqin katak»: har noldan farqli raqam qatorida eng katta ogʻirlik
# yarmidan koʻp
yorqin = all(
    float(w_orta[t].max()) > 0.5
    for t, j in enumerate(manba_soz(misol))
    if j is not None
)
glue("tr_misol_yorqin", yorqin, display=False)
glue(
    "tr_xarita_gap",
    (
        "har noldan farqli raqamning qatorida bitta yorqin katak bor va bu"
        " katak aynan shu raqamni beradigan soʻz ustunida"
        if misol_togri and yorqin
        else (
            "har noldan farqli raqamning qatoridagi eng yorqin katak aynan shu"
            " raqamni beradigan soʻz ustunida, lekin baʼzi qatorlarda"
            " ogʻirlik bir necha soʻzga tarqalgan"
            if misol_togri
            else (
                "noldan farqli raqamlarning hammasida ham eng yorqin katak shu"
                " raqamni beradigan soʻz ustunida emas"
            )
        )
    ),
    display=False,
)
glue(
    "tr_nol_gap",
    (
        "aynan shu soʻzlar qaysi xonalar boʻsh qolganini bildiradi"
        if nol_ym > 0.5
        else "qolgani boshqa soʻzlarga tarqaladi"
    ),
    display=False,
)

# %% [markdown]
# {numref}`%s-rasmda <tarjima_xarita>` {glue:text}`tr_xarita_gap`. Raqamni
# beradigan soʻz: yuz minglar raqami uchun — birinchi soʻz, oʻnliklar raqami
# uchun — oʻnlik soʻzi (masalan, «qirq» 4 ni beradi). Bu — asl attention
# maqolasidagi {cite:p}`bahdanau2015` mashhur {term}`tekislash` (*alignment*)
# rasmining oʻzbekcha varianti. Tekislashni esa modelga hech kim oʻrgatmagan:
# u faqat toʻgʻri raqamlarni yozishga oʻqitilgan. Hamma sinov sonlarida, dekoderga toʻgʻri oldingi raqamlar
# berilganda (oʻqitishdagi kabi), noldan farqli raqamlarning
# {glue:text}`tr_moslik:.1%` qismida eng kuchli oʻrtacha ogʻirlik aynan
# oʻsha raqamni beradigan soʻzga tushdi.
#
# Xarita mukammal emas. Nol raqamining soʻzi yoʻq: bu misolda u eng koʻp
# «{glue:text}`tr_nol_soz`» soʻziga qaraydi. Hamma sinov sonlarida esa nollar
# ogʻirligining oʻrtacha {glue:text}`tr_nol_ym:.0%` qismi «yuz» va «ming»
# soʻzlariga tushadi — {glue:text}`tr_nol_gap`. Noldan farqli raqamlarda ham ogʻirlik
# toʻliq bitta soʻzga tushmaydi: hamma sinov sonlarida oʻrtacha
# {glue:text}`tr_orta_oz:.0%` qismi oʻz soʻziga, {glue:text}`tr_orta_ym:.0%`
# qismi «yuz» va «ming» soʻzlariga, qolgani boshqa soʻzlarga tushadi.
#
# Bu xarita 4 boshning oʻrtachasi. Har bosh alohida qayerga qaraydi?
# {numref}`%s-rasmda <tarjima_boshlar>` oʻsha misolning toʻrtala boshi.

# %%
# boshlar ikki qatorda: telefonda ham oʻqiladi
rasm, panellar = plt.subplots(
    2, w_tr.shape[0] // 2, figsize=(5.6, 5.8), sharex=True, sharey=True
)
for h_i, b in enumerate(panellar.flat):
    b.imshow(
        w_tr[h_i].numpy(), cmap="viridis", vmin=0, vmax=1, aspect="auto"
    )
    b.set_title(f"{h_i}-bosh: {foiz(ulush[h_i])}")
    b.set_xticks(range(len(sozlar)), sozlar, rotation=60, ha="right")
    b.set_yticks(range(len(raqamlar)), raqamlar)
for b in panellar[:, 0]:
    b.set_ylabel("yozilayotgan raqam")
plt.tight_layout()
fig(
    "tarjima_boshlar.png",
    caption=(
        "Oʻsha misolda har boshning cross-attention ogʻirliklari."
        " Har rasm sarlavhasida: shu boshda noldan farqli"
        " raqamlarning eng kuchli ogʻirligi oʻz soʻziga tushgan"
        " hollar ulushi (hamma sinov sonlari boʻyicha)."
    ),
)

# toʻgʻri soʻzga eng kam tushadigan bosh
zaif = int(ulush[:-1].argmin())
# Boshqa seed bilan oʻqitilgan model: «yuz»/«ming»ga eng koʻp
# qaraydigan boshi
qayerda_1 = ogirlik_qayerda(tarjimonlar[1][1], sinov_sonlar_1)[-1]
ym_1 = int(qayerda_1[:-1, 1].argmax())
# (boshlar + 1,): seed 1, oxirgi qatlam
ulush_1 = moslik(tarjimonlar[1][1], sinov_sonlar_1)[-1]


# %% tags=["remove-cell"]
glue("tr_zaif_bosh", zaif, display=False)
glue("tr_zaif_oz", float(qayerda[zaif, 0]), display=False)
glue("tr_zaif_ym", float(qayerda[zaif, 1]), display=False)
glue("tr_zaif_boshqa", float(qayerda[zaif, 2]), display=False)
glue("tr0_ym_max", float(qayerda[:-1, 1].max()), display=False)
glue("tr1_ym_bosh", ym_1, display=False)
glue("tr1_ym", float(qayerda_1[ym_1, 1]), display=False)
glue("tr1_ym_moslik", float(ulush_1[ym_1]), display=False)
boshlar_farqli = float(ulush[:-1].max() - ulush[:-1].min()) > 0.1
glue(
    "tr_boshlar_soz",
    "bir xil emas" if boshlar_farqli else "bir-biriga oʻxshaydi",
    display=False,
)
oz_, ym_, boshqa_ = (float(x) for x in qayerda[zaif])
# boshlar oʻrtachasi: oʻz soʻziga
orta_oz = float(qayerda[-1, 0])
if oz_ > max(ym_, boshqa_):
    zaif_gap = (
        f"Eng past ulushli {zaif}-bosh ham ogʻirligining eng katta"
        f" qismini — {foiz(oz_)} — oʻz soʻziga beradi (boshlar"
        f" oʻrtachasida {foiz(orta_oz)}), qolganini esa: {foiz(ym_)}"
        f" qismini «yuz» va «ming» soʻzlariga, {foiz(boshqa_)} qismini"
        " boshqa soʻzlarga."
    )
else:
    zaif_gap = (
        f"Eng past ulushli {zaif}-bosh ogʻirligining eng katta qismini"
        " oʻz soʻziga emas, "
        + (
            "«yuz» va «ming» soʻzlariga"
            if ym_ >= boshqa_
            else "boshqa soʻzlarga"
        )
        + f" beradi: oʻz soʻziga {foiz(oz_)}, «yuz» va «ming»ga"
        f" {foiz(ym_)}, boshqa soʻzlarga {foiz(boshqa_)}."
    )
glue("tr_zaif_gap", zaif_gap, display=False)
glue(
    "tr_kop_boshli_gap",
    (
        "Koʻp boshli attentionning maʼnosi shu: har bosh oʻz Q, K"
        " proyeksiyasi bilan boshqa narsaga qaraydi, chiqish esa"
        " ularning hammasini birlashtiradi."
        if boshlar_farqli
        else (
            "Bu nashrda boshlar bir-birini takrorlagan: koʻp boshli"
            " attention har boshni boshqa narsaga qarashga majbur"
            " qilmaydi, u faqat bunga imkon beradi."
        )
    ),
    display=False,
)
# har seedda «yuz»/«ming»ga eng koʻp qaraydigan bosh: (bosh, ulushi,
# toʻgʻri soʻzga tushish ulushi)
ym_bosh = [
    (
        int(q[:-1, 1].argmax()),
        float(q[:-1, 1].max()),
        float(m_[int(q[:-1, 1].argmax())]),
    )
    for q, m_ in ((qayerda, ulush), (qayerda_1, ulush_1))
]
# shu seedda «yuz»/«ming» boshi bormi
bor = [u > 0.5 for _, u, _ in ym_bosh]
# hech bir bosh ularga koʻp qaramaydimi
yoq = [u < 0.3 for _, u, _ in ym_bosh]


def ym_gapi(s):
    bosh, u, m_ = ym_bosh[s]
    return (
        f"seed {s} bilan oʻqitilgan modelda (uning oʻz sinov sonlarida)"
        f" {bosh}-bosh ogʻirligining {foiz(u)} qismini «yuz» va «ming»"
        " soʻzlariga beradi (toʻgʻri soʻzga tushish ulushi"
        f" {'atigi ' if m_ < 0.5 else ''}{foiz(m_)}): ehtimol, u"
        " xonalarni kuzatadi (buni alohida tekshirmadik)"
    )


if (bor[0] and yoq[1]) or (bor[1] and yoq[0]):
    bir, boshqa = (0, 1) if bor[0] else (1, 0)
    gap = (
        "Boshlar ishni qanday taqsimlashi seedga bogʻliq."
        f" {ym_gapi(bir)[0].upper()}{ym_gapi(bir)[1:]}. Seed {boshqa}"
        " modelida esa hech bir bosh «yuz» va «ming» soʻzlariga"
        f" {foiz(ym_bosh[boshqa][1])} dan koʻp bermaydi."
    )
elif all(bor):
    gap = (
        "Ikkala seedda ham «yuz» va «ming» soʻzlariga ixtisoslashgan"
        " bosh bor: "
        + "; ".join(
            f"seed {s_} da {ym_bosh[s_][0]}-bosh"
            f" ({foiz(ym_bosh[s_][1])})"
            for s_ in (0, 1)
        )
        + ". Ehtimol, ular xonalarni kuzatadi (buni alohida"
        " tekshirmadik)."
    )
elif all(yoq):
    gap = (
        "Hech bir seedda «yuz» va «ming» soʻzlariga ixtisoslashgan bosh"
        " chiqmadi: bunday soʻzlarga "
        + " va ".join(
            f"seed {s_} da eng koʻpi {foiz(ym_bosh[s_][1])}"
            for s_ in (0, 1)
        )
        + "."
    )
else:
    gap = (
        "«Yuz» va «ming» soʻzlariga eng koʻp qaraydigan bosh "
        + ", ".join(
            f"seed {s_} da ogʻirligining {foiz(ym_bosh[s_][1])} qismini"
            for s_ in (0, 1)
        )
        + " ularga beradi: aniq ixtisoslashgan bosh haqida gapirish"
        " uchun bu yetarli emas."
    )
glue("tr_seed_boshlar_gap", gap, display=False)

# %% [markdown]
# {numref}`%s-rasmdagi <tarjima_boshlar>` {term}`boshlar <bosh>` {glue:text}`tr_boshlar_soz`: hamma sinov
# sonlarida ularning «toʻgʻri soʻzga tushish» ulushi
# {glue:text}`tr_moslik_min:.0%` dan {glue:text}`tr_moslik_max:.0%` gacha.
# {glue:text}`tr_zaif_gap` {glue:text}`tr_kop_boshli_gap`
#
# {glue:text}`tr_seed_boshlar_gap`
#
# :::{only} html
# Rasmlar bitta misolni koʻrsatadi. Quyidagi xaritada seed 0 modelining
# bir nechta sinov sonidagi hamma ogʻirliklarini oʻzingiz koʻring:
# toʻgʻri javoblar va xatolar, cross-attention, koder va dekoder
# {term}`self-attentioni <self-attention>`, har bosh va ularning oʻrtachasi. Soʻrov tokenini
# bosing (kompyuterda sichqonchani ustiga olib boring yoki Tab tugmasi bilan
# oʻting): har kalit tokeni ostida u olgan ogʻirlik chiqadi. Cross-attention
# va dekoder self-attentionida soʻrov — dekoderning raqam yozayotgan
# pozitsiyasi (⟨oxir⟩ — «son tugadi» tokeni), dekoder kalitlari esa uning
# kirishi: ⟨bosh⟩ (boshlanish tokeni; attention boshi bilan adashtirmang)
# va oldin yozilgan raqamlar. Dekoderga
# modelning oʻz javobi beriladi, shuning uchun xato javobda model xato
# raqamni yozayotganda qayerga qaraganini koʻrasiz.
# :::
#
# :::{only} latex
# Kitobning saytida quyidagi katak interaktiv xarita chiqaradi: seed 0
# modelining bir nechta sinov sonidagi hamma attention ogʻirliklari, har bosh
# va ularning oʻrtachasi boʻyicha. PDFda uning oʻrnida yuqoridagi
# ikki rasm turadi.
# :::

# %%
from chapter_code.sonlar import hamma_ogirliklar

# rasmdagi misol, yana ikkita toʻgʻri javob va koʻpi bilan uchta xato
xarita_sonlari = (
    [misol]
    + [s for s, _ in togri_misol if s != misol][:2]
    + [s for s, _ in xato_misol][:3]
)
xarita(
    "tarjima",
    [hamma_ogirliklar(tarjimon, s) for s in xarita_sonlari],
    izoh=(
        "Seed 0 modeli: misolni, attention turini, qatlamni va boshni"
        " tanlang, soʻng soʻrov tokenini bosing."
    ),
)

# %% [markdown]
# ## Attention turlari bitta vazifada
#
# {doc}`«Transformer bloki va KV kesh» <transformer>` darsida {term}`KV kesh` hajmini hisobladik,
# $2 \cdot L \cdot T \cdot n_{kv} \cdot d_{\text{bosh}} \cdot b$, hamda katta
# modelda bitta token vaqtini asosan oʻqiladigan baytlar belgilashini
# oʻlchadik. Keshni kichraytirishning ikki yoʻli bor, ikkalasi ham bugungi
# katta modellarda ishlatiladi:
#
# - **{term}`guruhli soʻrov attention <guruhli soʻrov attention (GQA)>`** (GQA, {cite:alp}`ainslie2023`): $n_{kv}$
#   ni kamaytirish. Soʻrov boshlari soni oʻzgarmaydi, lekin bir guruhdagi
#   soʻrov boshlari bitta kalit/qiymat boshini birga ishlatadi. Eng chekka
#   holati — hamma soʻrov boshiga bitta kalit/qiymat boshi: **{term}`koʻp soʻrovli attention <koʻp soʻrovli attention (MQA)>`** (ingl. *multi-query attention*, MQA;
#   {cite:alp}`shazeer2019`);
# - **{term}`siljuvchi oyna attention`** (ingl. *sliding-window attention*;
#   {cite:alp}`beltagy2020`): *T* ni cheklash. Har soʻrov faqat oxirgi
#   `oyna` ta kalitga qaraydi, shuning uchun keshda ham shuncha token
#   qoladi.
#
# Ikkalasi ham `chapter_code/modellar.py` dagi sinf va funksiyaning
# parametri: `KopBoshli(d, boshlar, kv_boshlar)` va `kauzal_maska(Tq, Tk,
# oyna)`. GQAning butun mohiyati — bir guruhning soʻrov boshlarini bitta
# matritsaga qatorlar qilib qoʻyish: ular oʻsha bitta kalit/qiymat
# boshiga qaraydi, kalitlarning nusxasi olinmaydi.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: KopBoshli.forward
# :start-at: GQA: bir guruhdagi
# :end-before: ball = q @ k
# :dedent:
# ```
#
# Oyna esa maskaga yana bir shart qoʻshadi: oynadan eskiroq kalitlar ham
# yashiriladi.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: kauzal_maska
# :start-at: if oyna is None
# :dedent:
# ```
#
# Bu turlar odatda faqat xotira formulasi bilan solishtiriladi. Biz
# ularning hammasini oddiy {term}`koʻp boshli attention` ({term}`MHA`, ingl.
# *multi-head attention*: har soʻrov boshining oʻz kalit/qiymat boshi bor)
# bilan birga shu vazifada, oʻsha protokol va oʻsha seedlar bilan
# oʻqitamiz: 4 ta soʻrov boshi 2 ta (GQA) va 1 ta (MQA) kalit/qiymat
# boshini ishlatadi; oyna (2 token) dekoderning self-attentionida
# qoʻllanadi. Oyna 1 — nazorat: dekoder oʻzi yozgan raqamlardan faqat
# oxirgisini (oʻz kirish tokenini) koʻradi. Har model uchun aniq moslikni, bitta olti xonali sonni
# yozgandan keyin keshda turgan baytlarni va bitta token vaqtini (kesh
# bilan, bitta {term}`oqimda <oqim>`) oʻlchaymiz.

# %%
from chapter_code.modellar import (
    KichikGPT,
    kesh_baytlari,
    kesh_qosh,
    oldindan_kesh,
)
from chapter_code.oqitish import mediana_ms

turlar = {
    "MHA: 4 ta kalit/qiymat boshi": {},
    "GQA: 2 ta kalit/qiymat boshi": {"kv_boshlar": 2},
    "MQA: 1 ta kalit/qiymat boshi": {"kv_boshlar": 1},
    "oyna: 2 token": {"oyna": 2},
    "oyna: 1 token": {"oyna": 1},
}
# MHA — yuqoridagi modellar; qolganlari oʻsha seedlar bilan
oqitilgan = {"MHA: 4 ta kalit/qiymat boshi": tarjimonlar}
for nom, sozlama in list(turlar.items())[1:]:
    oqitilgan[nom] = parallel(
        partial(oqit_tarjimon, **sozlama),
        [(s,) for s in tarjima_seedlar],
    )

olti_xona = 347_205  # dekoder 7 token oʻqiydi: <bosh> va 6 raqam
tur_qatorlar = []
for nom, natijalar_ in oqitilgan.items():
    m_ = natijalar_[0][1]
    keshlar_ = []
    assert javob(m_, [olti_xona], keshlar=keshlar_) == javob(
        m_, [olti_xona]
    )
    # formula: 2 L T n_kv d_bosh b, T — keshda qolgan tokenlar
    a_ = m_.dekoder[0].attn
    T_ = min(keshlar_[0]["soni"], m_.oyna or keshlar_[0]["soni"])
    d_bosh = m_.emb_manba.embedding_dim // a_.boshlar
    formula = 2 * len(m_.dekoder) * T_ * a_.kv_boshlar * d_bosh * 4
    assert kesh_baytlari(keshlar_) == formula
    ms_ = mediana_ms(
        "javob(m_, [olti_xona], keshlar=[])",
        javob=javob,
        m_=m_,
        olti_xona=olti_xona,
    )
    qator = {"tur": nom}
    for s, (aniq_, _) in zip(tarjima_seedlar, natijalar_):
        qator[f"seed {s}"] = aniq_
    qator["kesh (bayt)"] = formula
    qator["ms/token"] = ms_ / keshlar_[0]["soni"]
    tur_qatorlar.append(qator)
turlar_jadval = pd.DataFrame(tur_qatorlar)
show(
    turlar_jadval.round({"seed 0": 3, "seed 1": 3, "ms/token": 3}),
    izoh=(
        "Attention turlari shu vazifada: sinov sonlarida aniq moslik"
        " (ikki seed), olti xonali son yozilgandan keyin dekoder"
        " self-attention keshidagi baytlar (oʻlchangan, formulaga teng)"
        " va kesh bilan bitta token vaqti."
    ),
    nom="turlar_jadval",
)

# %% [markdown]
# Bu model kichik: uning vaqtini chaqiruvlar oladi, baytlar emas
# ({doc}`«Transformer bloki va KV kesh» <transformer>` darsidagi xotira chegarasi). Turlar vaqtni qayerda
# oʻzgartirishini koʻrish uchun oʻsha darsdagi katta oʻlchamni olamiz
# (*d* = {glue:text}`at_k_d`, {glue:text}`at_k_h` bosh, {glue:text}`at_k_L`
# qatlam, oʻqitilmagan, keshda {glue:text}`at_k_T` ta tasodifiy token) va
# bitta {term}`qadamni <qadam>` yana oʻlchaymiz. Keshni `kesh_qosh` toʻldiradi. MHA, GQA
# va MQA keshi — oldindan ajratilgan bufer (`oldindan_kesh`): qadam unga
# bitta token yozadi, hech narsani koʻchirmaydi. Oynali kesh esa `dict`
# (Pythonning nom boʻyicha olinadigan yozuvlar toʻplami). Unga oyna uzunligi
# oldindan beriladi, shuning uchun unda faqat oxirgi {glue:text}`at_k_oyna` token
# qoladi; u `torch.cat` bilan uzayadi va har qadamda shu tokenlarni koʻchiradi. Chegara — oʻsha darsdagidek: oʻqiladigan baytlar
# (parametrlar va kesh) shu mashinada oʻlchangan nusxalash tezligiga
# boʻlinadi.

# %%
def bayt(t):
    return t.nelement() * t.element_size()


# oʻtkazuvchanlik: 64 MiB ni nusxalash (har bayt oʻqiladi va yoziladi)
asl_t = torch.ones(2**24)
nusxa_t = torch.empty_like(asl_t)
otkaz = 2 * bayt(asl_t) / mediana_ms(
    "nusxa_t.copy_(asl_t)", nusxa_t=nusxa_t, asl_t=asl_t
) * 1000

katta_turlar = {
    "MHA: 8 ta kalit/qiymat boshi": {},
    "GQA: 2 ta kalit/qiymat boshi": {"kv_boshlar": 2},
    "MQA: 1 ta kalit/qiymat boshi": {"kv_boshlar": 1},
    "oyna: 1024 token": {"oyna": 1024},
}
T_katta = 4096
katta_qatorlar = []
with torch.no_grad():
    for nom, sozlama in katta_turlar.items():
        torch.manual_seed(2)
        katta = KichikGPT(
            100, d=512, boshlar=8, qatlamlar=4, T_max=T_katta, **sozlama
        ).eval()
        # qadam hamma vaznni, embeddingdan esa bitta qatorni oʻqiydi
        vazn = sum(bayt(p) for p in katta.parameters())
        vazn -= bayt(katta.emb.weight[1:])
        if katta.oyna:
            keshlar_ = [{"oyna": katta.oyna} for _ in katta.bloklar]
        else:  # bufer: qadam bitta token yozadi, hech narsa koʻchmaydi
            keshlar_ = oldindan_kesh(katta.bloklar, 1, T_katta)
        for kesh, blok in zip(keshlar_, katta.bloklar):
            shakl = (1, blok.attn.kv_boshlar, T_katta - 1, 64)
            kesh_qosh(kesh, torch.randn(shakl), torch.randn(shakl))
        # har takror oʻz dict nusxasi bilan: tayyor kesh oʻzgarmaydi
        ms_ = mediana_ms(
            "katta(tok, [dict(k) for k in keshlar_])",
            katta=katta,
            tok=torch.tensor([[7]]),
            keshlar_=keshlar_,
        )
        oqiladi = vazn + kesh_baytlari(keshlar_)
        katta_qatorlar.append(
            {
                "tur": nom,
                "kesh (MiB)": kesh_baytlari(keshlar_) / 2**20,
                "oʻqiladi (MiB)": oqiladi / 2**20,
                "chegara (ms)": oqiladi / otkaz * 1000,
                "qadam (ms)": ms_,
            }
        )
katta_jadval = pd.DataFrame(katta_qatorlar)

# %%
rasm, (b1, b2) = plt.subplots(2, 1, figsize=(5.6, 7.2))
y_ = range(len(turlar_jadval))
for s, belgi in zip(tarjima_seedlar, ("o", "s")):
    b1.plot(
        turlar_jadval[f"seed {s}"], y_, belgi, label=f"seed {s}",
        color="#1a73e8" if s == 0 else "#e8710a",
    )
# nomlar ikki qatorda: «MHA: 4 ta» / «kalit/qiymat boshi»
nomlar_ = turlar_jadval["tur"].str.replace(" ta kalit", " ta\nkalit")
b1.set_yticks(list(y_), nomlar_)
b1.invert_yaxis()
b1.set_xlabel("aniq moslik (sinov sonlari)")
b1.xaxis.set_major_locator(plt.MaxNLocator(4))  # yopishmasin
b1.grid(True, axis="x", alpha=0.3)
b1.legend(
    loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize=11
)
b1.set_title("oʻqitilgan model (d = 64)", fontsize=12)
x_ = katta_jadval["oʻqiladi (MiB)"]
for (_, q_), belgi in zip(katta_jadval.iterrows(), "os^D"):
    b2.plot(q_["oʻqiladi (MiB)"], q_["qadam (ms)"], belgi,
            color="#1a73e8", label=q_["tur"].split(":")[0])
b2.plot(x_, katta_jadval["chegara (ms)"], "_", markersize=14,
        color="#444444", label="chegara")
b2.set_xlabel("bir qadamda oʻqiladi (MiB)")
b2.set_ylabel("bitta token (ms)")
b2.set_ylim(0, katta_jadval["qadam (ms)"].max() * 1.6)
b2.set_xlim(0, x_.max() * 1.25)
b2.grid(True, alpha=0.3)
b2.legend(loc="upper left", fontsize=11, ncol=3)
b2.set_title(f"d = 512, T = {T_katta}", fontsize=12)
for b_ in (b1, b2):
    b_.tick_params(labelsize=11)
    b_.xaxis.label.set_size(11)
    b_.yaxis.label.set_size(11)
plt.tight_layout()
fig(
    "attention_turlari.png",
    caption=(
        "Yuqorida: attention turlari shu vazifada, ikki seedning aniq"
        " mosligi. Pastda: oʻqitilmagan katta modelda bitta token"
        f" vaqti ({T_katta} tokenli kesh bilan) va xotira chegarasi"
        " (oʻqiladigan baytlar / nusxalash tezligi)."
    ),
)

# %% tags=["remove-cell"]
mha = turlar_jadval.iloc[0]
seedlar_ = [f"seed {s}" for s in tarjima_seedlar]
mha_min, mha_max = mha[seedlar_].min(), mha[seedlar_].max()
for i_, qisqa in enumerate(["mha", "gqa", "mqa", "oyna2", "oyna1"]):
    q_ = turlar_jadval.iloc[i_]
    glue(f"at_{qisqa}_min", float(q_[seedlar_].min()), display=False)
    glue(f"at_{qisqa}_max", float(q_[seedlar_].max()), display=False)
    glue(
        f"at_{qisqa}_oraliq",
        oraliq(q_[seedlar_].min(), q_[seedlar_].max()),
        display=False,
    )
    glue(f"at_{qisqa}_bayt", int(q_["kesh (bayt)"]), display=False)


def solishtir(q_):
    # seedlar oraligʻi MHAnikidan butunlay past, butunlay yuqori yoki
    # u bilan kesishadi
    if q_[seedlar_].max() < mha_min:
        return "pastroq"
    if q_[seedlar_].min() > mha_max:
        return "yuqoriroq"
    return "teng"


baho = {
    nom: solishtir(turlar_jadval.iloc[i_])
    for i_, nom in enumerate(["gqa", "mqa", "oyna2", "oyna1"])
}
for nom, b_ in baho.items():
    glue(f"at_{nom}_baho", b_, display=False)
ozgargan = [
    turlar_jadval.iloc[i_]["tur"].split(":")[0]
    for i_, nom in enumerate(["gqa", "mqa", "oyna2"], start=1)
    if baho[nom] != "teng"
]
glue(
    "at_aniqlik_gap",
    (
        "Uch turning hech birida aniqlik MHAnikidan sezilarli farq"
        " qilmadi: har turda ikki seed bergan aniqliklar oraligʻi"
        " MHAniki bilan kesishadi"
        f" ({oraliq(mha_min, mha_max)})."
        if not ozgargan
        else "Aniqlik seedlar oraligʻidan tashqariga chiqdi: "
        + ", ".join(
            f"{n}da {'past' if baho[k] == 'pastroq' else 'yuqori'}"
            for n, k in zip(
                ozgargan,
                [k for k in ("gqa", "mqa", "oyna2") if baho[k] != "teng"],
            )
        )
        + " (ikki seed bilan oʻqitilgan MHA modellariga"
        " solishtirganda)."
    ),
    display=False,
)
glue(
    "at_narx_gap",
    (
        f"{len(tarjima_seedlar)} ta seed bilan bu narx koʻrinmadi: javob"
        " uchun kerakli maʼlumot qisqa va soʻzlarda. Seedlar orasidagi farqdan kichik"
        " narxni ajratish uchun koʻproq seed kerak."
        if not ozgargan
        else "Bizning vazifada bu narx koʻrindi: "
        + ", ".join(ozgargan)
        + " aniqligi MHAnikidan pastga tushdi."
        if all(baho[k] != "yuqoriroq" for k in ("gqa", "mqa", "oyna2"))
        else "Bizning vazifada bu narx koʻrinmadi, ammo turlar"
        " aniqligi seedlar oraligʻidan chiqdi (yuqorida)."
    ),
    display=False,
)
glue(
    "at_nazorat_gap",
    (
        "Nazorat modeli (oyna 1) ham shunday: dekoder oʻzi yozgan"
        " oldingi raqamlarni koʻrmasa ham, bu vazifani yechadi. Demak, bu"
        " yerda kerakli maʼlumotning hammasi soʻzlarda (cross-attention"
        " orqali) va pozitsiyada; oyna aniqlikni tushirmagani shu"
        " vazifaning xossasi, uzun matn yozadigan til modeli uchun xulosa emas."
        if baho["oyna1"] == "teng"
        else "Nazorat modeli (oyna 1) esa boshqacha: oldingi raqamlarni"
        " koʻrmagan dekoder "
        + ("yomonroq" if baho["oyna1"] == "pastroq" else "yaxshiroq")
        + " yozdi, demak dekoderning oʻz tarixi bu vazifada kerak."
    ),
    display=False,
)
ms_tok = turlar_jadval["ms/token"]
glue("at_ms_min", float(ms_tok.min()), display=False)
glue("at_ms_max", float(ms_tok.max()), display=False)
glue(
    "at_vaqt_gap",
    (
        "Bitta token vaqti esa turga deyarli bogʻliq emas"
        if ms_tok.max() / ms_tok.min() < 1.25
        else "Bitta token vaqti turga qarab farq qildi"
    ),
    display=False,
)
kt = katta_jadval.set_index("tur")
mha_k, mqa_k = kt.iloc[0], kt.loc["MQA: 1 ta kalit/qiymat boshi"]
glue("at_k_mha_mib", float(mha_k["kesh (MiB)"]), display=False)
glue("at_k_mqa_mib", float(mqa_k["kesh (MiB)"]), display=False)
glue("at_k_oyna_mib", float(kt.iloc[3]["kesh (MiB)"]), display=False)
glue("at_k_mha_ms", float(mha_k["qadam (ms)"]), display=False)
glue("at_k_mqa_ms", float(mqa_k["qadam (ms)"]), display=False)
glue("at_k_oyna_ms", float(kt.iloc[3]["qadam (ms)"]), display=False)
tezlik_ = mha_k["qadam (ms)"] / mqa_k["qadam (ms)"]
bayt_ = mha_k["oʻqiladi (MiB)"] / mqa_k["oʻqiladi (MiB)"]
glue("at_k_tezlik", float(tezlik_), display=False)
glue(
    "at_k_aylanadi",
    "Katta modelda esa tejalgan bayt vaqtga aylanadi."
    if tezlik_ > 1.2
    else "Katta modelda ham tejalgan bayt vaqtni sezilarli qisqartirmadi.",
    display=False,
)
glue("at_k_d", katta.emb.embedding_dim, display=False)
glue("at_k_h", katta.bloklar[0].attn.boshlar, display=False)
glue("at_k_L", len(katta.bloklar), display=False)
glue("at_k_T", T_katta - 1, display=False)
glue("at_k_oyna", katta_turlar["oyna: 1024 token"]["oyna"], display=False)
glue("at_k_bayt_nisbat", float(bayt_), display=False)
ulush_ = katta_jadval["chegara (ms)"] / katta_jadval["qadam (ms)"]
glue("at_k_ulush_min", float(ulush_.min()), display=False)
glue("at_k_ulush_max", float(ulush_.max()), display=False)
glue(
    "at_k_gap",
    (
        "Vaqt oʻqiladigan baytlar bilan birga kamaydi: har turda qadam"
        " tezligi chegaraviy tezlikning"
        f" {oraliq(ulush_.min(), ulush_.max(), '.0%')} qismini tashkil"
        " etdi"
        if tezlik_ > 1.2 and ulush_.min() > 0.6 * ulush_.max()
        else "Bu yerda vaqt baytlarga mutanosib kamaymadi (qadam"
        " tezligi chegaraviy tezlikning "
        + oraliq(ulush_.min(), ulush_.max(), ".0%")
        + " qismini tashkil etdi)"
    ),
    display=False,
)

# %% [markdown]
# {numref}`turlar_jadval` va {numref}`%s-rasm <attention_turlari>`
# natijalari: ikki seed bilan oʻqitilgan MHA modellari
# {glue:text}`at_mha_oraliq`, GQA modellari {glue:text}`at_gqa_oraliq`,
# MQA modellari {glue:text}`at_mqa_oraliq`, 2 tokenli oynali modellar
# {glue:text}`at_oyna2_oraliq` aniqlikka erishdi.
# {glue:text}`at_aniqlik_gap` {glue:text}`at_nazorat_gap`
#
# Kesh esa formula boʻyicha kutilganidek kichraydi (oʻlchov ham shuni koʻrsatdi): olti xonali sondan keyin MHAning
# keshi {glue:text}`at_mha_bayt` bayt, GQAniki {glue:text}`at_gqa_bayt`,
# MQAniki {glue:text}`at_mqa_bayt`, oynaniki {glue:text}`at_oyna2_bayt`
# bayt. Bu — dekoder self-attentionining keshi: cross-attention har
# qadamda kalit va qiymatlarini koderning saqlangan chiqishidan qayta
# hisoblaydi, u bu baytlarga kirmagan (agar u ham keshlansa, GQA va MQA uni
# ham kichraytirardi; oyna esa faqat dekoder self-attentionida qoʻllangan).
# {glue:text}`at_vaqt_gap`
# ({glue:text}`at_ms_min:.3f`–{glue:text}`at_ms_max:.3f` ms): bunday kichik modelda bayt emas,
# chaqiruvlar vaqt oladi.
#
# {glue:text}`at_k_aylanadi` {glue:text}`at_k_gap`.
# MHAning keshi {glue:text}`at_k_mha_mib:.0f` {term}`MiB <KiB, MiB, GiB>`, qadami
# {glue:text}`at_k_mha_ms:.1f` ms; MQAniki {glue:text}`at_k_mqa_mib:.0f`
# MiB va {glue:text}`at_k_mqa_ms:.1f` ms: oʻqiladigan baytlar
# {glue:text}`at_k_bayt_nisbat:.1f` marta, vaqt
# {glue:text}`at_k_tezlik:.1f` marta kamaydi. {glue:text}`at_k_oyna` tokenli
# oynaning keshi
# {glue:text}`at_k_oyna_mib:.0f` MiB, qadami {glue:text}`at_k_oyna_ms:.1f`
# ms; u kontekst qancha uzaysa ham oʻsmaydi.
#
# Bu turlarning narxi — modelning ifoda kuchi. GQA va MQAda bir guruh
# soʻrov boshlari bir xil kalit va qiymatlarni koʻradi, oyna esa undan
# eski tokenlarni butunlay koʻrmaydi. Koʻp qatlamli modelda maʼlumot
# qatlamdan qatlamga oʻtib, oynadan uzoqroqqa yetadi.
# {glue:text}`at_narx_gap`
#
# Katta modellarning mualliflari narx va foyda orasidagi muvozanatni
# turlicha tanlagan. Llama 3 modellarining hammasi GQA ishlatadi, 8B modelda 32 soʻrov boshiga 8 kalit/qiymat
# boshi {cite:p}`llama3`. Mistral 7B GQAni (32 ga 8) har qatlamda 4096
# tokenli siljuvchi oyna attention bilan birga ishlatadi {cite:p}`jiang2023`.
# Gemmaning birinchi 2B modeli MQA ishlatgan {cite:p}`gemma2024`. Gemma
# 3 esa har beshta oynali qatlamdan (1024 token) keyin bitta toʻliq
# attention qatlamini qoʻyadi {cite:p}`gemma3`. Oynali qatlamlar keshni
# kichik tutadi, toʻliq qatlamlar esa uzoq masofani saqlaydi.

# %% tags=["remove-cell"]
# Xulosa sahifasi uchun (xulosa.py dagi jadval bu gaplarni shu darsdan
# oladi)
glue(
    "xl_cross",
    f"Oʻlchandi: aniqlik {son(tarjima_aniq, '.3f')}; noldan farqli"
    f" raqamlarning {foiz(ulush[-1])} qismida eng kuchli ogʻirlik oʻz"
    " soʻzida",
    display=False,
)
