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
# Model oʻzbekcha soʻz
# bilan yozilgan sonni oʻqiydi va uni raqamlar bilan yozadi: «uch yuz qirq
# yetti ming ikki yuz besh» → 347 205. Kirish — haqiqiy oʻzbekcha soʻzlar,
# chiqish — raqamlar. Qaysi raqam qaysi soʻzdan kelishini esa biz aniq
# bilamiz. Shuning uchun modelning qayerga qarashini tekshirish mumkin.
#
# Maʼlumotni kod hosil qiladi: hech narsa yuklab olinmaydi. Sonlar 1 dan
# 999 999 gacha oraliqda olinadi; hujjatlardagi kabi «bir yuz», «bir ming» deb yoziladi,
# shunda noldan farqli har bir raqamning oʻz soʻzi boʻladi.
#
# ```{literalinclude} ../../chapter_code/sonlar.py
# :pyobject: soz_bilan
# :start-at: minglar, qoldiq
# :prepend: def soz_bilan(n):
# ```
#
# Bu — tarjima vazifasi, shuning uchun asl Transformer maqolasidagi kabi
# **koder–dekoder** modelini olamiz (`Tarjimon`). Koder soʻzlarni {term}`kauzal maskasiz <kauzal (sababiy) maska>` {term}`attention <attention (eʼtibor mexanizmi)>` bilan oʻqiydi: har soʻz hamma soʻzni koʻradi, faqat
# qisqa sonlarni bir xil uzunlikka keltirish uchun qoʻshilgan toʻldiruvchi `<pad>` {term}`tokenlar <token>`
# yashiriladi. Dekoder raqamlarni bittadan yozadi: oʻzi yozgan
# raqamlarga kauzal maska bilan qaraydi, soʻzlarga esa **koder–dekoder attention**
# (ingl. {term}`cross-attention`) orqali qaraydi. Unda {term}`soʻrovlar <soʻrov>` dekoderdan, {term}`kalit` va
# qiymatlar koder chiqishidan olinadi. Koder ham, dekoder ham
# {doc}`«Transformer bloki va KV kesh» <transformer>` darsidagi pre-LN `Blok` lardan tuzilgan.
# `Tarjimon` modelining `forward` metodi:
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: Tarjimon.forward
# :start-at: T = maqsad.shape[1]
# :dedent: 4
# :prepend: def forward(self, manba, maqsad, keshlar=None, xotira=None):
# ```
#
# Oʻqitishda dekoder kirishiga oʻzi yozgan raqamlar emas, oldingi raqamlarning
# toʻgʻrisi beriladi (ingl. *{term}`teacher forcing`*, «oʻqituvchi yordami»): hamma pozitsiya bitta
# hisobda oʻqitiladi. Sinov sonlari oʻqitishda hech qachon uchramaydi; javob
# faqat hamma raqami toʻgʻri boʻlsa toʻgʻri hisoblanadi (*{term}`aniq moslik`*,
# ingl. *exact match*). Oʻqitish kodi — `chapter_code/sonlar.py` dagi
# `oqit_tarjimon`. Ikki {term}`seed` bilan oʻqitamiz.

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
# {glue:text}`tp_n` ta oʻqitish sonida oʻqitiladi (seed 0 da ulardan
# {glue:text}`tr_turli:d` tasi har xil: son uzunligi teng ehtimol bilan
# tanlanadi, shuning uchun qisqa sonlar koʻp takrorlanadi). Har yangilanishda tasodifiy
# {glue:text}`tp_batch` ta son olinadi; parametrlar jami {glue:text}`tp_qadamlar`
# marta yangilanadi. {term}`Oʻrganish tezligi <oʻrganish tezligi>` avval
# {glue:text}`tp_lr:.3f` gacha oshadi, soʻng deyarli nolgacha kamayadi.
#
# {term}`Aniqlik <aniqlik>` — {glue:text}`tp_n_sinov` ta sinov sonidan
# toʻliq toʻgʻri yozilganlarining ulushi. Ikkala seedda ham model vazifani
# deyarli toʻliq oʻrgandi: {glue:text}`tr_aniq_0:.3f` va
# {glue:text}`tr_aniq_1:.3f`. Qaysi sonlarda xato qiladi?

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
for s in seedlar:
    glue(f"tr{s}_00_xato", sum("00" in str(v) for v in xato[s]),
         display=False)
glue("tr_00_sinov", sinov_00, display=False)
# ikki modelning xatolari birga: nechta, ulardan necha foizi «00»li
xatolar_ = [v for s in seedlar for v in xato[s]]
glue("tr_xato_jami", len(xatolar_), display=False)
glue("tr_00_xato_foiz", 100 * sum("00" in str(v) for v in xatolar_)
     / len(xatolar_), display=False)
glue("tr_00_sinov_foiz", 100 * sinov_00 / len(sinov_sonlar), display=False)

# %% [markdown]
# Ketma-ket ikki nolli («00»li) sonlar sinovda kam:
# {glue:text}`tp_n_sinov` ta sonning atigi {glue:text}`tr_00_sinov` tasi
# ({glue:text}`tr_00_sinov_foiz:.1f` foiz). Ikki modelning jami
# {glue:text}`tr_xato_jami:d` ta xatosining esa {glue:text}`tr_00_xato_foiz:.0f` foizi shunday
# sonlarda. Bu — shu ikki modelning natijasi: boshqa seedlarda
# xatolarning bir qismi «00»siz sonlarda ham boʻlishi mumkin.
# {numref}`%s-jadvalda <tarjima_misollar>` seed 0 modelining xatolari keltirilgan. Ularning
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
# «00» raqamlar juftligini model oʻqitishda bironta javobda yozmagan.
# Tanish boʻlaklardan yangi birikma tuzish —
# **{term}`kompozitsion umumlashtirish`** (ingl. *compositional* yoki *systematic
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
# Hamma son bilan oʻqitilgan modellar uchun nolsiz sonlar oson
# ({numref}`tarjima_tuzilma`, «nolsiz» ustuni). Nolli sonlarda aniqlik
# {glue:text}`tz_hamma_nolli_min:.3f`–{glue:text}`tz_hamma_nolli_max:.3f`,
# «00»li sonlarda {glue:text}`tz_hamma_00_min:.3f`–{glue:text}`tz_hamma_00_max:.3f`.
#
# «00»li sonlarsiz oʻqitilgan modellar uchun ham nolsiz sonlar oson.
# Lekin bu modellar «00»li sinov sonlarining yarmini ham toʻgʻri yoza
# olmadi: aniqlik
# {glue:text}`tz_yopiq_00_min:.3f`–{glue:text}`tz_yopiq_00_max:.3f`. Har
# seedda bu hamma son bilan oʻqitilgan modelnikidan ancha past. Soʻzlar tanish boʻlsa ham,
# model oʻqitishda hech yozmagan «00» juftligini koʻp hollarda tuza olmadi:
# kompozitsion umumlashtirish bu yerda ishlamadi. Unga nima yetmagani —
# «yuz» va «ming» soʻzlarining xona qoidasimi yoki hech yozilmagan «0, 0»
# {term}`ketma-ketligimi <ketma-ketlik>` — bu tajribadan aniqlanmaydi. Umumiy aniqlik
# ({glue:text}`tz_yopiq_hammasi_min:.3f`–{glue:text}`tz_yopiq_hammasi_max:.3f`)
# buni yashiradi, chunki «00»li sonlar sinovning kichik qismi.
#
# ## Model qayerga qaraydi
#
# Endi model yozayotganda qayerga qarashini koʻramiz. Dekoderning yagona
# qatlamidagi koder–dekoder attention {term}`ogʻirliklarini <ogʻirlik>` olamiz: har qator — bitta raqamni
# yozayotgan pozitsiya, har ustun — bitta soʻz. Misol sifatida bitta noli bor
# olti xonali sinov sonini tanlaymiz.

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
    caption=f"Koder–dekoder attention: {son(misol)} sonini yozayotgan"
    " dekoder qaysi soʻzga qaraydi (toʻrt boshning oʻrtachasi).",
)

# %% [markdown]
# {numref}`%s-rasmda <tarjima_xarita>` va yuqoridagi chiqishda noldan farqli
# raqamning eng yorqin katagi, odatda, shu raqamni beradigan soʻz ustunida
# turadi. Yuz minglar raqamini birinchi soʻz beradi (1 ni «bir»), oʻn minglar
# raqamini — oʻnlik soʻzi (3 ni «oʻttiz»). Bu — asl attention maqolasidagi
# {cite:p}`bahdanau2015` mashhur {term}`muvofiqlik <muvofiqlik xaritasi>` (ingl. *alignment*)
# xaritasining oʻzbekcha varianti. Bu muvofiqlik faqat toʻgʻri raqamlarni
# yozishga oʻqitishdan kelib chiqdi.
#
# Bitta misol tasodif boʻlishi mumkin. Shuning uchun hamma sinov sonlarida
# sanaymiz: dekoderga oldingi raqamlarning toʻgʻrisi berilganda (oʻqitishdagi
# kabi), noldan farqli raqamning eng kuchli oʻrtacha ogʻirligi necha
# holda aynan oʻz soʻziga tushadi? Buni `muvofiqlik` funksiyasi sanaydi. Ogʻirlik
# oʻrtacha qayerga tushishini ham oʻlchaymiz: oʻz soʻziga, «yuz» va «ming»ga
# yoki boshqa soʻzlarga (`ogirlik_qayerda` funksiyasi).

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
# Noldan farqli raqamlarning {glue:text}`tr_moslik_foiz:.1f` foizida eng
# kuchli oʻrtacha ogʻirlik aynan oʻsha raqamni beradigan soʻzga tushdi.
# Lekin ogʻirlik toʻliq bitta soʻzga tushmaydi: oʻrtacha
# {glue:text}`tr_orta_oz:.0f` foizi oʻz soʻziga, {glue:text}`tr_orta_ym:.0f`
# foizi «yuz» va «ming» soʻzlariga, {glue:text}`tr_orta_boshqa:.0f` foizi
# boshqa soʻzlarga ketadi. Nollarning oʻz soʻzi yoʻq: ularning
# ogʻirligining {glue:text}`tr_nol_ym:.0f` foizi «yuz» va «ming»ga tushadi.
# Sonda qaysi xonalar boʻsh qolganini aynan shu ikki soʻzning oʻrni
# belgilaydi.
#
# Xarita — toʻrt boshning oʻrtachasi. Bu modelda har boshni alohida olsak,
# «eng kuchli ogʻirlik oʻz soʻzida» ulushi {glue:text}`tr_bosh_min:.0f` dan
# {glue:text}`tr_bosh_max:.0f` foizgacha boʻladi
# ({numref}`%s-rasm <tarjima_boshlar>`). Har {term}`bosh` oʻz *Q* va *K*
# {term}`proyeksiyasi <proyeksiya>` bilan oʻqitiladi, shuning uchun {term}`boshlar <bosh>` turli narsaga qarashi
# mumkin. Ular ishni qanday taqsimlashi oldindan berilmaydi: bu taqsimot
# oʻqitishda oʻzi shakllanadi.

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
    caption="Oʻsha misolda har boshning koder–dekoder attentioni."
    " Sarlavhada: shu boshning eng kuchli ogʻirligi raqamni beradigan"
    " soʻzga tushgan hollar ulushi (hamma sinov sonlarida).",
)

# %% [markdown]
# :::{only} html
# Rasmlar bitta misolni koʻrsatadi. Quyidagi xaritada seed 0 modelining
# bir nechta sinov sonidagi (toʻgʻri javoblar va xatolar) hamma
# ogʻirliklari bor: koder–dekoder attention, koder va dekoderning
# {term}`oʻz-oʻziga attentioni <self-attention>`, har bosh va ularning oʻrtachasi.
# Soʻrov tokenini bosing (yoki Tab bilan oʻting): har kalit tokeni ostida u
# olgan ogʻirlik chiqadi. Dekoder soʻrovlari — raqam yozayotgan pozitsiyalar
# (`<oxir>` — «son tugadi» tokeni), dekoder kalitlari — `<boshlanish>` tokeni
# va oldin yozilgan raqamlar. Dekoderga modelning oʻz javobi beriladi: xato
# javobda model xato raqamni yozayotganda qayerga qaraganini koʻrasiz.
# :::
#
# :::{only} latex and sayt_manzili
# Bobning saytidagi interaktiv xarita ({sayt}`book/attention/yakuniy`) seed 0 modelining
# bir nechta sinov sonidagi hamma attention ogʻirliklarini koʻrsatadi: har bosh va ularning
# oʻrtachasi.
# :::
#
# :::{only} latex and not sayt_manzili
# Rasmlar bitta misolni koʻrsatadi. Seed 0 modelining yana bir nechta sinov sonidagi
# (toʻgʻri javoblar va xatolar) hamma attention ogʻirliklarini — har boshnikini va ularning
# oʻrtachasini — `chapter_code/sonlar.py` dagi `hamma_ogirliklar` funksiyasi qaytaradi: darsni
# ishga tushirib, ularni oʻzingiz koʻrishingiz mumkin.
# :::

# %%
from chapter_code.sonlar import hamma_ogirliklar


def ogirliklar(son_):
    m = hamma_ogirliklar(tarjimon, son_)
    # «<bosh>» — boshlanish tokeni; attention boshi bilan adashmasin
    m["kirish"] = ["<boshlanish>" if t == "<bosh>" else t
                   for t in m["kirish"]]
    return m


# rasmdagi misol, yana ikkita toʻgʻri javob va koʻpi bilan uchta xato
togri_ = [s for s in sinov_sonlar if s not in xato[0] and s != misol]
xarita_sonlari = [misol] + togri_[:2] + list(xato[0])[:3]
xarita(
    "tarjima",
    [ogirliklar(s) for s in xarita_sonlari],
    izoh="Seed 0 modeli: misolni, attention turini va boshni"
    " tanlang, soʻng soʻrov tokenini bosing.",
)

# %% [markdown]
# ## Attention turlari bitta vazifada
#
# {doc}`«Transformer bloki va KV kesh» <transformer>` darsida {term}`KV kesh` hajmini hisobladik:
# $2 \cdot L \cdot T \cdot n_{kv} \cdot d_{\text{bosh}} \cdot b$ bayt.
# Oʻsha darsda keshni kichraytiradigan {term}`GQA <guruhli soʻrov attention (GQA)>` va MLA bilan tanishdik. Bu yerda keshni
# kichraytirishning ikki yoʻlini — GQA ({term}`MQA <koʻp soʻrovli attention (MQA)>` bilan) va siljuvchi oynani — oʻqitib solishtiramiz;
# ikkalasi ham bugungi katta modellarda ishlatiladi:
#
# - **{term}`guruhli soʻrov attention <guruhli soʻrov attention (GQA)>`** (GQA, {cite:alp}`ainslie2023`): $n_{kv}$
#   ni kamaytirish. Soʻrov boshlari soni oʻzgarmaydi, lekin bir guruhdagi
#   soʻrov boshlari bitta kalit/qiymat boshini birga ishlatadi. Eng chekka
#   holati — hamma soʻrov boshiga bitta kalit/qiymat boshi: **{term}`koʻp soʻrovli attention <koʻp soʻrovli attention (MQA)>`** (ingl. *multi-query attention*, MQA;
#   {cite:alp}`shazeer2019`);
# - **{term}`siljuvchi oyna attention`** (ingl. *sliding-window attention*;
#   {cite:alp}`beltagy2020`): *T* ni cheklash. Har soʻrov faqat oxirgi
#   *w* ta kalitga qaraydi (*w* — oyna uzunligi, kodda `oyna`), shuning
#   uchun keshda ham shuncha token qoladi.
#
# Kodda ikkalasi ham bittadan parametr bilan yoqiladi: GQA — `KopBoshli`
# sinfidagi kalit/qiymat boshlari soni (`kv_boshlar`), oyna esa
# `kauzal_maska` funksiyasidagi oyna uzunligi (`oyna`). Koddagi GQAning butun
# siri — bir guruhning soʻrov boshlarini bitta
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
# Siljuvchi oyna esa maskaga yana bir shart qoʻshadi: oynadan eskiroq
# kalitlar ham yashiriladi.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: kauzal_maska
# :start-at: if oyna is None
# :dedent:
# ```
#
# Bu turlarni oddiy {term}`koʻp boshli attention` ({term}`MHA`: har soʻrov
# boshining oʻz kalit/qiymat boshi bor) bilan birga shu vazifada, oʻsha
# oʻqitish sozlamalari va seedlar bilan oʻqitamiz. GQAda toʻrtta soʻrov boshi
# ikkita, MQAda esa bitta kalit/qiymat boshini ishlatadi. Ikki tokenli oyna
# («oyna 2») dekoderning oʻz-oʻziga attentionida qoʻllanadi. Bir tokenli oyna
# («oyna 1») — nazorat: dekoder oʻzi yozgan raqamlardan faqat oxirgisini (oʻz
# kirish tokenini) koʻradi. Har model uchun aniq moslikni
# va bitta olti xonali sonni yozgandan keyin keshda turgan baytlarni
# oʻlchaymiz.

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
          at_mha_0=float(aniqliklar.iloc[0, 0]), at_mha_1=float(aniqliklar.iloc[0, 1]))

# %% [markdown]
# Beshala turdagi modellar ham ikkala seedda vazifani oʻrgandi: aniqliklar
# {glue:text}`at_min:.3f`–{glue:text}`at_max:.3f` oraligʻida
# ({numref}`turlar_jadval`). Turlar orasidagi farqlar bitta turning ikki seedi orasidagi
# farqdan katta emas (MHAning oʻzida ikki seed {glue:text}`at_mha_0:.3f` va
# {glue:text}`at_mha_1:.3f` berdi), shuning uchun ularni turlarning oʻziga bogʻlab boʻlmaydi. Nazorat modeli («oyna 1») ham vazifani oʻrgandi (eng yomon
# seedda {glue:text}`at_oyna1_min:.3f`): faqat oʻz kirishini — bevosita oldingi
# raqamni — koʻradigan dekoder ham toʻgʻri yozadi. Demak, bu vazifada kerakli maʼlumot soʻzlarda
# (koder–dekoder attention orqali) va pozitsiyada. Oyna bu yerda zarar
# qilmagani — shu vazifaning xossasi; uzun matn yozadigan til modeli
# uchun bundan xulosa chiqarib boʻlmaydi.
#
# Kesh esa formula boʻyicha kichrayadi, oʻlchov ham aynan shuni koʻrsatdi
# (jadvalning oxirgi ikki ustuni). Ikki tokenli oynada kesh son qancha uzun
# boʻlsa ham oʻsmaydi. Bu — dekoderning oʻz-oʻziga attention keshi.
# Koder–dekoder attentionning kalit va qiymatlari esa koderning saqlangan chiqishidan har
# yaratish {term}`qadami <qadam>` uchun qayta hisoblanadi, shuning uchun ular bu
# baytlarga kirmagan.
# Ular ham keshlansa, GQA va MQA ularni ham kichraytirar edi.
#
# Katta modelda har yangi token uchun butun kesh xotiradan oʻqiladi. Shuning
# uchun kichik kesh xotira sarfini ham, har qadamda oʻqiladigan baytlarni ham
# kamaytiradi ({doc}`«Transformer bloki va KV kesh» <transformer>` darsi).
# Buning evaziga modelning imkoniyati (ifodalash qobiliyati) kamayadi. GQA va MQAda bir guruh
# soʻrov boshlari bir xil kalit va qiymatlarni koʻradi. Oynali attention esa
# oynadan eski tokenlarni umuman koʻrmaydi, lekin koʻp qatlamli modelda
# maʼlumot qatlamdan qatlamga oʻtib, oynadan uzoqroqqa yetadi.
#
# :::{admonition} Chuqurroq: katta modellar qaysi turni tanlagan
# :class: dropdown
#
# Katta modellarning mualliflari narx va foyda orasida turlicha murosaga kelgan. Llama 3 modellarining hammasi GQA ishlatadi, 8B modelda 32 soʻrov boshiga 8 kalit/qiymat
# boshi {cite:p}`llama3`. Mistral 7B GQAni (32 ga 8) har qatlamda 4096
# tokenli siljuvchi oyna attention bilan birga ishlatadi {cite:p}`jiang2023`.
# Gemmaning birinchi 2B modeli MQA ishlatgan {cite:p}`gemma2024`. Gemma
# 3 har beshta oynali qatlamdan (1024 token) keyin bitta toʻliq
# attention qatlamini qoʻyadi {cite:p}`gemma3`. Oynali qatlamlar keshni
# kichik tutadi, toʻliq qatlamlar esa uzoqdagi tokenlarni koʻrish imkonini saqlaydi.
# :::
#
# ## Mashqlar
#
# **1-mashq (oyna maskasini oʻzingiz yozing).** *T* = 6, oyna = 3.
# Soʻrov indekslari *i* ni ustun vektor (*T* × 1), kalit indekslari *j* ni
# qator vektor (1 × *T*) qilib `torch.arange` bilan oling va mantiqiy maska tuzing: kelajakdagi kalitlar
# ($j > i$) ham, oynadan eski kalitlar ($j \le i - 3$) ham yashirilsin
# (`True`). Uni `kauzal_maska(6, 6, 3)` bilan solishtiring. Nechta juftlik
# ochiq qoladi? Soʻng shu maska bilan attentionni oʻzingiz hisoblang va
# natijani `F.scaled_dot_product_attention(Q, K, V, attn_mask=~maska)`
# bilan solishtiring ({term}`SDPA` maskasida `True` — «qarash mumkin»).
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
# **2-mashq (toʻldiruvchi maskasi).** `manba_kodla` funksiyasi 7 va 138 402
# sonlarini bitta {term}`paketga <paket>` soladi (`manba_kodla([7, 138402])`):
# «yetti» bir soʻz, ikkinchi son esa sakkiz soʻz. «Yetti» qatoriga nechta
# `<pad>` qoʻshiladi? Toʻldiruvchi maskasini `(paket, 1, 1, Tm)` shaklida
# oʻzingiz tuzing (`<pad>` tokenining indeksi — 0) va
# `tarjimon.kodla(manba)` qaytargan maska bilan solishtiring. Soʻng
# «yetti»ning koder chiqishini ikki holda solishtiring: yolgʻiz
# kodlanganda va shu paketda. Maska ishlasa, farq qancha boʻlishi kerak?
#
# :::{admonition} Yechim
# :class: dropdown
#
# Paketda «yetti» qatoriga {glue:text}`y2_pad` ta `<pad>` qoʻshiladi.
# Maska `(manba == 0)[:, None, None, :]` — modelnikining aynan oʻzi. Koder
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
# Model nolsiz sonlarning
# {glue:text}`y3_nolsiz` foizini, «00»li sonlarning {glue:text}`y3_00`
# foizini toʻgʻri yozdi (yechim kodi quyida). Natija
# {numref}`%s-jadvaldagiga <tarjima_tuzilma>` mos: qiyin joy — soʻzi yoʻq
# nollar. (Bu sonlarning ayrimlari oʻqitish sonlari orasida
# boʻlishi mumkin: oʻqitish sonlaridan {glue:text}`tr_turli:d` tasi har xil, mumkin
# boʻlgan sonlar esa 999 999 ta.)
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
print(f"pad: {int(pad[0].sum())}, farq: {son(y2_farq, '.1e')}")

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
