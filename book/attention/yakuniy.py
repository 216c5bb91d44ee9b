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
# Endi hamma qismni bitta haqiqiy vazifada yigʻamiz. {doc}`«Transformer bloki va KV kesh» <transformer>` darsidagi
# {term}`pre-LN <post-LN va pre-LN>` bloklardan {term}`koder` va {term}`dekoder` tuzamiz va kichik {term}`Transformer`
# oʻqitamiz: u oʻzbekcha soʻz bilan yozilgan sonlarni raqamga aylantiradi. Soʻng model yozayotganda qaysi
# soʻzga qarashini koʻramiz.


# %%
import pandas as pd
import torch
import torch.nn.functional as F
import matplotlib.pyplot as plt

from chapter_code.kitob import show, fig, xarita
from chapter_code.bichim import son, foiz
from chapter_code.modellar import parametrlar
from chapter_code.oqitish import parallel, protokoli
from chapter_code.sonlar import oqit_tarjimon, sonlar_toplami
from chapter_code.sonlar import soz_bilan, manba_soz, javob

# %% [markdown]
# ## Vazifa: soʻz bilan yozilgan son
#
# Model, masalan, «uch yuz qirq yetti ming ikki yuz besh»ni oʻqib,
# 347 205 ni yozadi. Qaysi raqam qaysi soʻzdan kelishini bilamiz, shuning
# uchun model qayerga qarashini tekshira olamiz.
#
# Sonlar 1 dan 999 999 gacha; «yuz» va «ming» oldidagi «bir» tushirilmaydi
# («bir yuz», «bir ming»), shunda noldan farqli har raqamning oʻz soʻzi boʻladi.
#
# ```{literalinclude} ../../chapter_code/sonlar.py
# :pyobject: soz_bilan
# :start-at: minglar, qoldiq
# :prepend: def soz_bilan(n):
# ```
#
# Bu — tarjima vazifasi, shuning uchun asl Transformer maqolasidagi kabi
# **koder-dekoder** modelini olamiz (`Tarjimon`). Koder soʻzlarni {term}`kauzal maskasiz <kauzal (sababiy) maska>` {term}`attention <attention (eʼtibor mexanizmi)>` bilan oʻqiydi: har soʻz hamma soʻzni
# koʻradi, faqat toʻldiruvchi `<pad>` {term}`tokenlar <token>` yopiladi.
# Dekoder raqamlarni bittadan yozadi. U oʻzi yozgan raqamlarga kauzal
# maska bilan, soʻzlarga esa **{term}`koder-dekoder attention`**
# (ingl. *cross-attention*) orqali qaraydi: {term}`soʻrovlar <soʻrov>` dekoderdan, {term}`kalit` va
# qiymatlar koder chiqishidan olinadi.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: Tarjimon.forward
# :start-at: T = maqsad.shape[1]
# :dedent: 4
# :prepend: def forward(self, manba, maqsad, keshlar=None, xotira=None):
# ```
#
# Oʻqitishda dekoder kirishiga model yozgan raqamlar emas, toʻgʻri oldingi
# raqamlar beriladi (ingl. *{term}`teacher forcing`*, «oʻqituvchi yordami»):
# hamma pozitsiya bitta hisobda oʻqitiladi. Dekoder kirishi maxsus `<boshlanish>` tokeni bilan
# boshlanadi, model esa sonni `<oxir>` tokenini yozib tugatadi. Sinov sonlari oʻqitishda uchramaydi. Javob
# hamma raqami toʻgʻri boʻlsagina toʻgʻri hisoblanadi (*{term}`aniq moslik`*,
# ingl. *exact match*). Ikki {term}`seed` bilan oʻqitamiz.

# %%
seedlar = (0, 1)
# har seed: (sinov aniqligi, oʻqitilgan model)
tarjimonlar = parallel(oqit_tarjimon, [(s,) for s in seedlar])
P = protokoli(oqit_tarjimon)
for s, (aniq_, _) in zip(seedlar, tarjimonlar):
    print(f"seed {s}: aniqlik {son(aniq_, '.3f')}")
tarjimon = tarjimonlar[0][1]
n_param = parametrlar(tarjimon)
# seed 0 ning oʻqitish sonlaridan nechtasi har xil
turli = len(set(sonlar_toplami(0, P["n"], P["n_sinov"])[0]))

# %% tags=["remove-cell"]
from chapter_code.kitob import glue, yopishtir  # qiymatlarni matnga beradi

for k, v in P.items():
    if v is not None:
        glue(f"tp_{k}", v, display=False)
glue("tr_aniq_0", tarjimonlar[0][0], display=False)
glue("tr_aniq_1", tarjimonlar[1][0], display=False)
glue("tr_param", n_param, display=False)
glue("tr_turli", turli, display=False)

# %% [markdown]
# Model kichik: *d* = {glue:text}`tp_d`, toʻrtta {term}`bosh`, koder ham,
# dekoder ham bitta {term}`qatlamdan <qatlam>` iborat; uning
# {term}`parametrlari <parametrlar>` soni {glue:text}`tr_param`. U
# {glue:text}`tp_n` ta namunada oʻqitiladi (ulardan {glue:text}`tr_turli:d` tasi
# har xil son: qisqa sonlar takrorlanadi), parametrlar
# {glue:text}`tp_batch` talik tasodifiy {term}`paketlar <paket>` bilan
# {glue:text}`tp_qadamlar` marta yangilanadi.
#
# Ikkala seedda ham model vazifani deyarli toʻliq oʻrgandi: {term}`sinov sonlarida <sinov toʻplami>`
# {term}`aniqlik` {glue:text}`tr_aniq_0:.3f` va {glue:text}`tr_aniq_1:.3f`.
# Qaysi sonlarda xato qiladi?

# %%
def xatolar(model, seed):
    # model xato yozgan sinov sonlari: {son: model javobi}
    _, sinov = sonlar_toplami(seed, P["n"], P["n_sinov"])
    return {s: j for j, s in zip(javob(model, sinov), sinov)
            if j != str(s)}


xato = {s: xatolar(m_, s) for s, (_, m_) in zip(seedlar, tarjimonlar)}
_, sinov_sonlar = sonlar_toplami(0, P["n"], P["n_sinov"])
sinov_00 = sum("00" in str(s) for s in sinov_sonlar)
for s, x in xato.items():
    x00 = sum("00" in str(v) for v in x)
    print(f"seed {s}: {len(x)} ta xato, «00»li: {x00}")
print(f"sinovdagi «00»li sonlar: {sinov_00}")

# %% tags=["remove-cell"]
glue("tr_xato_soni", len(xato[0]), display=False)
qisqa_ = sum(len(str(s)) - len(j) == 1 for s, j in xato[0].items())
yopishtir(tr0_qisqa=qisqa_, tr0_qisqa_gap="hammasida" if qisqa_ == len(xato[0]) else f"{qisqa_} tasida")
glue("tr1_xato_soni", len(xato[1]), display=False)
n00 = {s: sum("00" in str(v) for v in xato[s]) for s in seedlar}
for s in seedlar:
    glue(f"tr{s}_00_xato", n00[s], display=False)
glue("tr_00_sinov", sinov_00, display=False)
# ikki tayyor jumladan biri: hamma xato «00»li boʻlsa, sonlar kerak emas
yopishtir(tr_00_gap="ikkala modelning ham hamma xatosi shunday sonlarda"
          if all(n00[s] == len(xato[s]) for s in seedlar) else
          "; ".join(f"seed {s} modelining {len(xato[s])} ta xatosidan"
                    f" {n00[s]} tasi" for s in seedlar))
glue("tr_00_sinov_foiz", 100 * sinov_00 / len(sinov_sonlar), display=False)

# %% [markdown]
# Ketma-ket ikki nolli («00»li) sonlar sinovda kam:
# {glue:text}`tp_n_sinov` ta sonning atigi {glue:text}`tr_00_sinov` tasi
# ({glue:text}`tr_00_sinov_foiz:.1f` foiz). Xatolar orasida esa ularning ulushi
# ancha katta: {glue:text}`tr_00_gap`.
# {numref}`%s-jadvaldagi <tarjima_misollar>` xatolarning
# {glue:text}`tr0_qisqa_gap` model toʻgʻri sondan bir xona qisqa son yozgan.

# %%
def guruhla(j):
    # javob xonalari guruhlanadi (138 402); raqam boʻlmasa — asli
    return son(int(j)) if j.isdigit() and j[0] != "0" else j


show(
    pd.DataFrame([{"soʻz bilan": soz_bilan(s), "toʻgʻri": son(s),
                   "model": guruhla(j)} for s, j in xato[0].items()]),
    izoh="Seed 0 modelining sinov sonlaridagi hamma xatolari.",
    nom="tarjima_misollar",
)

# %% [markdown]
# ### Model sonning tuzilishini oʻrgandimi?
#
# Umumiy aniqlik zaif joylarni yashiradi, shuning uchun sinov sonlarini
# guruhlaymiz: nolsiz, kamida bitta nolli va «00»li sonlar. Nolning soʻzi
# yoʻq: «ikki yuz besh»dagi «0»ni model «yuz»ning oʻrnidan chiqarishi kerak.
# Demak, model sonning tuzilishini oʻrganganini nollarni toʻgʻri yozishidan bilamiz.
#
# Keyin qattiqroq sinov: modelni oʻsha seedlar bilan qayta oʻqitamiz, lekin
# oʻqitish sonlaridan «00»li sonlarni olib tashlaymiz (`tashla="00"`);
# sinov sonlari oʻsha. Model «yuz» va «ming» qaysi xonalarni egallashini
# tushungan boʻlsa, «00»ni oʻqitishda hech yozmagan boʻlsa-da, «00»li
# sonlarni toʻgʻri yoza oladi. Tanish boʻlaklardan yangi birikma tuzish —
# **{term}`kompozitsion umumlashtirish`** (ingl. *compositional
# generalization*).

# %%
from functools import partial

guruhlar = {
    "hammasi": lambda s: True,
    "nolsiz": lambda s: "0" not in str(s),
    "nolli": lambda s: "0" in str(s),
    "«00»li": lambda s: "00" in str(s),
}


def guruh_aniqligi(model, seed):
    # har guruhda toʻliq toʻgʻri yozilgan sonlar ulushi
    _, sinov = sonlar_toplami(seed, P["n"], P["n_sinov"])
    x = xatolar(model, seed)
    return {nom: 1 - sum(map(shart, x)) / sum(map(shart, sinov))
            for nom, shart in guruhlar.items()}


# «00»li sonlarsiz oʻqitilgan modellar, oʻsha seedlar
yopiq = parallel(
    partial(oqit_tarjimon, tashla="00"), [(s,) for s in seedlar]
)
tuzilma = pd.DataFrame([
    {"oʻqitish": nom, "seed": s, **guruh_aniqligi(m_, s)}
    for nom, natija in [("hamma son", tarjimonlar), ("«00»siz", yopiq)]
    for s, (_, m_) in zip(seedlar, natija)])
tuzilma.attrs["xonalar"] = dict.fromkeys(guruhlar, 3)
show(
    tuzilma,
    izoh="Sinov sonlarida aniq moslik, guruhlar boʻyicha: hamma son"
    " bilan va «00»li sonlarsiz oʻqitilgan modellar.",
    nom="tarjima_tuzilma",
)

# %% tags=["remove-cell"]
for oqitish_, q in [("hamma son", "tz_hamma"),
                    ("«00»siz", "tz_yopiq")]:
    t_ = tuzilma[tuzilma["oʻqitish"] == oqitish_]
    for ustun, u in [("hammasi", "hammasi"), ("nolsiz", "nolsiz"),
                     ("nolli", "nolli"), ("«00»li", "00")]:
        glue(f"{q}_{u}_min", float(t_[ustun].min()), display=False)
        glue(f"{q}_{u}_max", float(t_[ustun].max()), display=False)

# %% [markdown]
# Ikkala oʻqitishda ham nolsiz sonlar oson ({numref}`tarjima_tuzilma`).
# Lekin «00»li sonlarsiz oʻqitilgan modellar «00»li sinov sonlarining
# yarmini ham toʻgʻri yoza olmadi: aniqlik
# {glue:text}`tz_yopiq_00_min:.3f`–{glue:text}`tz_yopiq_00_max:.3f`. Har
# seedda bu hamma son bilan oʻqitilgan modelnikidan
# ({glue:text}`tz_hamma_00_min:.3f`–{glue:text}`tz_hamma_00_max:.3f`) ancha
# past: kompozitsion umumlashtirish bu yerda yaxshi ishlamadi. Umumiy
# aniqlik ({glue:text}`tz_yopiq_hammasi_min:.3f`–{glue:text}`tz_yopiq_hammasi_max:.3f`)
# buni yashiradi, chunki «00»li sonlar sinovning kichik qismi.
#
# ## Model qayerga qaraydi
#
# Endi dekoder raqam yozayotganda qayerga qarashini koʻramiz: uning yagona
# qatlamidagi koder-dekoder attention {term}`ogʻirliklari <ogʻirlik>`.
# Misol — bitta noli bor olti xonali sinov soni.

# %%
from chapter_code.sonlar import kesishgan_ogirlik, muvofiqlik
from chapter_code.sonlar import ogirlik_qayerda

misol = next(s for s in sinov_sonlar
             if len(str(s)) == 6 and str(s).count("0") == 1)
sozlar = soz_bilan(misol).split()
raqamlar = list(str(misol))
# (qatlamlar, 1, boshlar, Tq, Tm) -> yagona qatlam, yagona son:
# (boshlar, raqamlar, soʻzlar)
w_tr = kesishgan_ogirlik(tarjimon, [misol])[-1, 0][
    :, : len(raqamlar), : len(sozlar)]
w_orta = w_tr.mean(0)  # boshlar oʻrtachasi: (raqamlar, soʻzlar)
model_javobi = guruhla(javob(tarjimon, [misol])[0])
print(f"{son(misol)}: model javobi {model_javobi}")
for r, qator in zip(raqamlar, w_orta):
    eng = int(qator.argmax())
    print(f"  «{r}» ← «{sozlar[eng]}» {son(qator[eng], '.2f')}")
# noldan farqli raqamlar: eng kuchli ogʻirlik uni beradigan soʻzdami
oz_soz = [int(w_orta[t].argmax()) == j
          for t, j in enumerate(manba_soz(misol)) if j is not None]

# %%
rasm, b = plt.subplots(figsize=(5.6, 4.4))
tasvir = b.imshow(w_orta.numpy(), cmap="viridis", vmin=0, vmax=1,
                  aspect="auto")
b.set_xticks(range(len(sozlar)), sozlar, rotation=35, ha="right")
b.set_yticks(range(len(raqamlar)), raqamlar)
b.set_xlabel("soʻz (koder)")
b.set_ylabel("yozilayotgan raqam (dekoder)")
plt.colorbar(tasvir, ax=b, fraction=0.046)
plt.tight_layout()
fig(
    "tarjima_xarita.png",
    caption=f"Koder-dekoder attention: {son(misol)} sonini yozayotgan"
    " dekoder qaysi soʻzga qaraydi (toʻrt boshning oʻrtachasi).",
)

# %% [markdown]
# {numref}`%s-rasmda <tarjima_xarita>` noldan farqli raqamning eng yorqin
# katagi, odatda, shu raqamni beradigan soʻz ustunida turadi: yuz minglar
# raqamini «bir», oʻn minglar raqamini «oʻttiz» beradi. Bu — asl attention
# maqolasidagi {cite:p}`bahdanau2015` {term}`muvofiqlik <muvofiqlik xaritasi>`
# (ingl. *alignment*) xaritasining oʻzbekcha varianti. Muvofiqlik faqat
# toʻgʻri raqamlarni yozishga oʻqitishdan kelib chiqdi.
#
# Bitta misol tasodif boʻlishi mumkin. Shuning uchun hamma sinov sonlarida
# sanaymiz: eng kuchli ogʻirlik necha holda raqamning oʻz soʻziga tushadi?

# %%
# (qatlamlar, boshlar + 1): oxirgi ustun — boshlar oʻrtachasi
ulush = muvofiqlik(tarjimon, sinov_sonlar)[-1]
# (boshlar + 1, 3): [oʻz soʻzi, «yuz»/«ming», boshqa soʻz]
qayerda = ogirlik_qayerda(tarjimon, sinov_sonlar)[-1]
# nollar: ularning soʻzi yoʻq
nollar = ogirlik_qayerda(tarjimon, sinov_sonlar, nollar=True)[-1]

# %% tags=["remove-cell"]
glue("tr_misol", misol, display=False)
glue("tr_misol_n", len(oz_soz), display=False)
glue("tr_misol_oz", sum(oz_soz), display=False)
glue("tr_moslik_foiz", 100 * float(ulush[-1]), display=False)
# uch ulush butun foizlarda, yigʻindisi 100 (eng katta qoldiq usuli)
uch_ = 100 * qayerda[-1].double()
butun_ = uch_.floor()
butun_[(uch_ - butun_).argsort(descending=True)[
    :int(round(100 - float(butun_.sum())))]] += 1
for i_, nom in enumerate(["oz", "ym", "boshqa"]):
    glue(f"tr_orta_{nom}", float(butun_[i_]), display=False)
glue("tr_nol_ym", 100 * float(nollar[-1, 1]), display=False)
glue("tr_bosh_min", 100 * float(ulush[:-1].min()), display=False)
glue("tr_bosh_max", 100 * float(ulush[:-1].max()), display=False)

# %% [markdown]
# Seed 0 modelida noldan farqli raqamlarning {glue:text}`tr_moslik_foiz:.1f` foizida eng
# kuchli oʻrtacha ogʻirlik oʻsha raqamni beradigan soʻzga tushadi. Lekin
# ogʻirlikning oʻrtacha {glue:text}`tr_orta_oz:.0f` foizi oʻz soʻziga,
# {glue:text}`tr_orta_ym:.0f` foizi «yuz» va «ming»ga,
# {glue:text}`tr_orta_boshqa:.0f` foizi boshqa soʻzlarga ketadi. Nol yozilayotganda esa
# ogʻirlikning oʻrtacha {glue:text}`tr_nol_ym:.0f` foizi «yuz» va «ming»ga tushadi:
# qaysi xonalar boʻsh qolganini shu ikki soʻzning oʻrni belgilaydi.
#
# Xarita — toʻrt boshning oʻrtachasi, alohida {term}`boshlarni <bosh>` esa
# {numref}`%s-rasm <tarjima_boshlar>` koʻrsatadi. Har boshning oʻz *Q* va *K*
# {term}`proyeksiyasi <proyeksiya>` bor, shuning uchun boshlar turli narsaga
# qarashi mumkin: ishni qanday taqsimlashni ular oʻqitishda oʻzlari topadi.

# %%
rasm, panellar = plt.subplots(2, 2, figsize=(5.6, 5.8),
                              sharex=True, sharey=True)
for h, b in enumerate(panellar.flat):
    b.imshow(w_tr[h].numpy(), cmap="viridis", vmin=0, vmax=1,
             aspect="auto")
    b.set_title(f"{h}-bosh: {foiz(ulush[h])}")
    b.set_xticks(range(len(sozlar)), sozlar, rotation=60, ha="right")
    b.set_yticks(range(len(raqamlar)), raqamlar)
plt.tight_layout()
fig(
    "tarjima_boshlar.png",
    caption="Oʻsha misolda har boshning koder-dekoder attentioni."
    " Sarlavhada: shu boshning eng kuchli ogʻirligi raqamni beradigan"
    " soʻzga tushgan hollar ulushi (hamma sinov sonlarida)."
    " Ranglar oldingi rasmdagidek: 0 dan 1 gacha.",
)

# %% [markdown]
# :::{only} html
# Quyidagi xaritada seed 0 modelining bir nechta sinov sonidagi (toʻgʻri
# javoblar va xatolar) hamma ogʻirliklari bor: koder-dekoder attention,
# koder va dekoderning {term}`oʻz-oʻziga attentioni <oʻz-oʻziga attention>`, har
# bosh va oʻrtachasi. Dekoderga modelning oʻz javobi beriladi: xato javobda
# model xato raqamni yozayotganda qayerga qaraganini koʻrasiz.
# :::
#
# :::{only} latex and sayt_manzili
# Bobning saytidagi interaktiv xarita ({sayt}`book/attention/yakuniy`) seed 0 modelining
# bir nechta sinov sonidagi hamma attention ogʻirliklarini koʻrsatadi: har bosh va ularning
# oʻrtachasi.
# :::
#
# :::{only} latex and not sayt_manzili
# Seed 0 modelining yana bir nechta sinov sonidagi hamma attention ogʻirliklarini
# `chapter_code/sonlar.py` dagi `hamma_ogirliklar` funksiyasi qaytaradi: darsni
# ishga tushirib, ularni oʻzingiz koʻrishingiz mumkin.
# :::

# %%
from chapter_code.sonlar import hamma_ogirliklar


# rasmdagi misol, yana ikkita toʻgʻri javob va koʻpi bilan uchta xato
togri_ = [s for s in sinov_sonlar if s not in xato[0] and s != misol]
xarita_sonlari = [misol] + togri_[:2] + list(xato[0])[:3]
xarita(
    "tarjima",
    [hamma_ogirliklar(tarjimon, s) for s in xarita_sonlari],
    izoh="Seed 0 modeli: misolni, attention turini va boshni"
    " tanlang, soʻng soʻrov tokenini bosing.",
)

# %% [markdown]
# ## Attention turlari bitta vazifada
#
# {doc}`«Transformer bloki va KV kesh» <transformer>` darsida {term}`KV kesh`
# hajmini hisobladik: $2 \cdot L \cdot T \cdot n_{kv} \cdot d_{\text{bosh}} \cdot b$ bayt.
# Uni kichraytirishning ikki yoʻlini oʻqitib solishtiramiz:
#
# - **{term}`guruhlangan soʻrovli attention <guruhlangan soʻrovli attention (GQA)>`**
#   (GQA, {cite:alp}`ainslie2023`) $n_{kv}$ ni kamaytiradi: bir guruhdagi
#   soʻrov boshlari bitta kalit/qiymat boshini birga ishlatadi.
#   Eng chekka holati — bitta kalit/qiymat boshi: **{term}`koʻp soʻrovli attention <koʻp soʻrovli attention (MQA)>`** (ingl. *multi-query attention*, MQA;
#   {cite:alp}`shazeer2019`);
# - **{term}`siljuvchi oynali attention`** (ingl. *sliding-window attention*;
#   {cite:alp}`beltagy2020`) *T* ni cheklaydi: har soʻrov faqat oxirgi *w*
#   ta kalitga qaraydi (kodda `oyna`), keshda ham shuncha token qoladi.
#
# Kodda GQA — `KopBoshli` sinfidagi `kv_boshlar` parametri: bir guruhning
# soʻrov boshlari bitta matritsaga qatorlar qilib qoʻyiladi, kalitlarning
# nusxasi olinmaydi.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: KopBoshli.forward
# :start-at: GQA: bir guruhdagi
# :end-before: ball = q @ k
# :dedent:
# ```
#
# Siljuvchi oyna (`oyna` argumenti) maskaga yana bir shart
# qoʻshadi: oynadan eskiroq kalitlar ham yopiladi.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: kauzal_maska
# :start-at: if oyna is None
# :dedent:
# ```
#
# Bu turlarni oddiy {term}`koʻp boshli attention` ({term}`MHA`: har soʻrov
# boshining oʻz kalit/qiymat boshi bor) bilan birga, oʻsha sozlamalar va
# seedlar bilan oʻqitamiz. GQAda toʻrtta soʻrov boshi ikkita, MQAda bitta
# kalit/qiymat boshini ishlatadi. Oyna dekoderning oʻz-oʻziga attentionida
# qoʻllanadi, uzunligi ikki token («oyna 2»). Bir tokenli oyna («oyna 1») —
# nazorat: unda dekoder oʻzi yozgan raqamlardan faqat oxirgisini koʻradi.

# %%
from chapter_code.modellar import kesh_baytlari

turlar = {"MHA": {}, "GQA": {"kv_boshlar": 2}, "MQA": {"kv_boshlar": 1},
          "oyna 2": {"oyna": 2}, "oyna 1": {"oyna": 1}}
qatorlar = []
for nom, sozlama in turlar.items():
    natija = parallel(partial(oqit_tarjimon, **sozlama),
                      [(s,) for s in seedlar])
    m_, keshlar = natija[0][1], []
    javob(m_, [347_205], keshlar=keshlar)  # 7 token: boshlanish + 6
    # formula: 2 L T n_kv d_bosh b; T — keshda qolgan tokenlar
    a_, korgan = m_.dekoder[0].attn, keshlar[0]["soni"]
    T_ = min(korgan, m_.oyna or korgan)
    d_bosh = m_.emb_manba.embedding_dim // a_.boshlar
    formula = 2 * len(m_.dekoder) * T_ * a_.kv_boshlar * d_bosh * 4
    assert kesh_baytlari(keshlar) == formula
    qatorlar.append({"tur": nom, "seed 0": natija[0][0],
                     "seed 1": natija[1][0], "kesh (bayt)": formula,
                     "bir token (bayt)": formula // T_})
turlar_jadval = pd.DataFrame(qatorlar)
turlar_jadval.attrs["xonalar"] = {"seed 0": 3, "seed 1": 3}
show(
    turlar_jadval,
    izoh="Attention turlari: sinov sonlarida aniq moslik (ikki seed),"
    " olti xonali son yozilgandan keyin dekoderning oʻz-oʻziga"
    " attention keshi va unda bitta token egallaydigan baytlar.",
    nom="turlar_jadval",
)

# %% tags=["remove-cell"]
aniqliklar = turlar_jadval[["seed 0", "seed 1"]]
yopishtir(at_min=float(aniqliklar.min().min()), at_max=float(aniqliklar.max().max()),
          at_oyna1_min=float(aniqliklar.iloc[4].min()),
          # bitta seeddagi turlar orasidagi va bitta turning ikki seedi orasidagi eng katta farq
          at_tur_farq=float((aniqliklar.max() - aniqliklar.min()).max()),
          at_seed_farq=float((aniqliklar["seed 0"] - aniqliklar["seed 1"]).abs().max()))

# %% [markdown]
# Beshala turdagi modellar ham ikkala seedda vazifani oʻrgandi: aniqliklar
# {glue:text}`at_min:.3f`–{glue:text}`at_max:.3f` ({numref}`turlar_jadval`).
# Bitta seedda turlar orasidagi farq koʻpi bilan {glue:text}`at_tur_farq:.3f`, bitta turning
# ikki seedi orasidagi farq esa koʻpi bilan {glue:text}`at_seed_farq:.3f`. Bu sonlar kattaligi
# jihatidan bir-biriga yaqin, shuning uchun faqat ikki seed bilan farqlarni ishonch bilan turga
# bogʻlab boʻlmaydi. Hatto nazorat modeli («oyna 1») ham
# oʻrgandi (eng yomon seedda {glue:text}`at_oyna1_min:.3f`): bu vazifada
# kerakli maʼlumot soʻzlarda va pozitsiyada. Uzun matn yozadigan til modeli
# uchun bundan xulosa chiqarib boʻlmaydi.
#
# Kesh esa formula boʻyicha aynan kichrayadi (oxirgi ikki ustun); ikki tokenli oynada u son
# uzunligiga qarab oʻsmaydi.
#
# Bu tejashning narxi jadvalda emas, tuzilishning oʻzida koʻrinadi. GQA va
# MQAda bir guruh soʻrov boshlari bir xil kalit va qiymatlarni koʻradi,
# oynali attention esa oynadan eski tokenlarni koʻrmaydi (koʻp qatlamli
# modelda maʼlumot qatlamdan qatlamga oʻtib, uzoqroqqa yetadi).
#
# :::{admonition} Chuqurroq: katta modellar qaysi turni tanlagan
# :class: dropdown
#
# Llama 3 8B GQA ishlatadi: 32 ta soʻrov boshiga 8 ta kalit/qiymat boshi
# {cite:p}`llama3`. Mistral 7B GQAni 4096 tokenli siljuvchi oyna bilan
# birga ishlatadi {cite:p}`jiang2023`. Gemmaning birinchi 2B modeli MQA
# ishlatgan {cite:p}`gemma2024`. Gemma 3 har beshta oynali (oynasi 1024
# token) qatlamdan keyin bitta toʻliq attention qatlamini qoʻyadi {cite:p}`gemma3`:
# oynali qatlamlar keshni kichik tutadi, toʻliq qatlamlar uzoqdagi
# tokenlarni koʻrishni saqlaydi.
# :::
#
# ## Mashqlar
#
# **1-mashq (oyna maskasini oʻzingiz yozing).** *T* = 6, oyna = 3.
# Soʻrov indekslari *i* ni `torch.arange` bilan ustun ($T \times 1$), kalit
# indekslari *j* ni qator ($1 \times T$) qilib oling va mantiqiy maska tuzing:
# kelajakdagi ($j > i$) va oynadan eski ($j \le i - 3$) kalitlar yopilsin
# (`True`). Uni `kauzal_maska(6, 6, 3)` bilan solishtiring. Nechta juftlik
# ochiq qoladi? Soʻng shu maska bilan attention natijasini
# `F.scaled_dot_product_attention(Q, K, V, attn_mask=~maska)` bilan
# solishtiring ({term}`SDPA` maskasida `True` — «qarash mumkin»).
#
# :::{admonition} Yechim
# :class: dropdown
#
# Maska `(j > i) | (j <= i - 3)` — `kauzal_maska(6, 6, 3)` bilan aynan
# bir xil. Birinchi soʻrovlar oynani toʻldirmaydi: 0-soʻrov bitta, 1-soʻrov
# ikkita kalitni koʻradi, qolganlari uchtadan. Jami
# {glue:text}`y1_ochiq` ta ochiq juftlik. SDPA natijasidan eng katta farq
# {glue:text}`y1_farq:.1e`: bu {term}`float32` yaxlitlash xatosi, hisob bir xil
# (yechim kodi quyida).
# :::
#
# **2-mashq (toʻldiruvchi maskasi).** Bu mashqda `manba_kodla([7, 138402])` 7 va
# 138 402 sonlarini bitta paketga soladi: «yetti» bir soʻz, ikkinchi son
# sakkiz soʻz. «Yetti» qatoriga nechta `<pad>` qoʻshiladi? Toʻldiruvchi
# maskasini `(paket, 1, 1, Tm)` shaklida oʻzingiz tuzing (*Tm* — paketdagi eng
# uzun sonning soʻzlari soni, `<pad>` indeksi — 0) va `tarjimon.kodla(manba)`
# qaytargan maska bilan solishtiring. Soʻng
# «yetti»ning koder chiqishini yolgʻiz kodlanganda va shu paketda
# solishtiring. Maska ishlasa, farq qancha boʻlishi kerak?
#
# :::{admonition} Yechim
# :class: dropdown
#
# Paketda «yetti» qatoriga {glue:text}`y2_pad` ta `<pad>` qoʻshiladi.
# Maska `(manba == 0)[:, None, None, :]` — model ishlatadigan maskaning aynan oʻzi. Koder
# «yetti»ni paketda ham yolgʻiz kodlangandagidek oʻqiydi: eng katta farq
# {glue:text}`y2_farq:.1e`, yaʼni yana faqat yaxlitlash xatosi. Maskasiz
# «yetti» toʻldiruvchilarga ham qarar edi va uning chiqishi paketdagi
# boshqa sonning uzunligiga bogʻliq boʻlib qolardi.
# :::
#
# **3-mashq (taxmin qiling, soʻng oʻlchang).** Seed 0 modeliga 100 ta
# tasodifiy «00»li son va 100 ta nolsiz son bering (1 dan 999 999 gacha,
# `torch.Generator().manual_seed(5)` bilan). Avval taxmin qiling: har
# guruhdan nechtasini toʻgʻri yozadi? Soʻng `javob` funksiyasi bilan oʻlchang.
# Oʻzingiz tanlagan sonlarni ham bering: model qaysi birida adashadi?
#
# :::{admonition} Yechim
# :class: dropdown
#
# Model 100 ta nolsiz sondan {glue:text}`y3_nolsiz` tasini, 100 ta «00»li sondan
# esa {glue:text}`y3_00` tasini toʻgʻri yozdi (yechim kodi quyida). Natija
# {numref}`%s-jadvaldagiga <tarjima_tuzilma>` mos: qiyin joy — soʻzi yoʻq
# nollar. Ayrim sonlar oʻqitishda uchragan boʻlishi mumkin: oʻqitish
# sonlaridan {glue:text}`tr_turli:d` tasi har xil, mumkin boʻlgan sonlar
# esa 999 999 ta.
# :::

# %% tags=["hide-cell"]
# 1-mashq yechimi: oynali maska qoʻlda, T = 6, oyna = 3
from chapter_code.modellar import kauzal_maska

T, oyna = 6, 3
i = torch.arange(T)[:, None]  # soʻrov: ustun
j = torch.arange(T)[None, :]  # kalit: qator
maska = (j > i) | (j <= i - oyna)
assert torch.equal(maska, kauzal_maska(T, T, oyna))
torch.manual_seed(0)
Q, K, V = (torch.randn(1, 2, T, 8) for _ in range(3))
ball = Q @ K.transpose(-2, -1) / 8**0.5
ball = ball.masked_fill(maska, float("-inf"))
oz = torch.softmax(ball, -1) @ V
sdpa = F.scaled_dot_product_attention(Q, K, V, attn_mask=~maska)
y1_farq = float((oz - sdpa).abs().max())
print(f"ochiq: {int((~maska).sum())}, farq: {son(y1_farq, '.1e')}")

# 2-mashq yechimi: toʻldiruvchi maskasi
from chapter_code.sonlar import manba_kodla

manba = manba_kodla([7, 138402])
pad = (manba == 0)[:, None, None, :]
with torch.no_grad():
    juft, model_maska = tarjimon.kodla(manba)
    yolgiz, _ = tarjimon.kodla(manba_kodla([7]))
assert torch.equal(pad, model_maska)
y2_farq = float((juft[0, :1] - yolgiz[0]).abs().max())
print(f"<pad> soni: {int(pad[0].sum())}, farq: {son(y2_farq, '.1e')}")

# 3-mashq yechimi: 100 ta «00»li va 100 ta nolsiz son
g = torch.Generator().manual_seed(5)
tasodifiy = torch.randint(1, 1_000_000, (5000,), generator=g).tolist()
m3 = {}
for nom, shart in [("00", guruhlar["«00»li"]),
                   ("nolsiz", guruhlar["nolsiz"])]:
    tanlangan = [s for s in tasodifiy if shart(s)][:100]
    m3[nom] = sum(j == str(s) for j, s in
                  zip(javob(tarjimon, tanlangan), tanlangan))
print(f"toʻgʻri: «00»li {m3['00']}, nolsiz {m3['nolsiz']}")

# %% tags=["remove-cell"]
yopishtir(y1_ochiq=int((~maska).sum()), y1_farq=y1_farq, y2_pad=int(pad[0].sum()),
          y2_farq=y2_farq, y3_00=m3["00"], y3_nolsiz=m3["nolsiz"])
