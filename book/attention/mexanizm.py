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
# # Attention mexanizmi
#
# Bu darsda {term}`attentionni <attention (eʼtibor mexanizmi)>` tayyor funksiyasiz, toʻrt {term}`bosqichda <bosqich>` qoʻlda hisoblaymiz:
# {term}`soʻrov` va {term}`kalitlarning <kalit>` oʻxshashlik {term}`ballari <ball>`, ularni vektor oʻlchamiga qarab kichraytirish, {term}`softmax` va
# qiymatlarning {term}`vaznli oʻrtachasi <vaznli oʻrtacha>`. Soʻng oʻqitilgan attention kalitni mazmuni boʻyicha topishini koʻramiz
# va kelajakni yopadigan {term}`kauzal (sababiy) maskani <kauzal (sababiy) maska>` qoʻshamiz.


# %%
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import torch
import torch.nn as nn

from chapter_code.kitob import diagramma, fig, show, softmax_xaritasi
from chapter_code.bichim import son

# %% [markdown]
# ## Nega attention: yoʻl uzunligi
#
# {term}`RNN` {term}`ketma-ketlikni <ketma-ketlik>` qadamma-qadam oʻqiydi: har {term}`qadamda <qadam>` {term}`yashirin holat`
# yangilanadi. Qadamlarni 0 dan sanaymiz: 60 qadamli ketma-ketlikda 0-qadamdagi maʼlumot
# 59-qadamga yetguncha 59 ta yangilanishdan oʻtadi va har birida biroz kuchsizlanadi.
# Oʻqitishda gradient shu yoʻlni teskari bosib oʻtadi. Attentionda esa har pozitsiya
# istalgan pozitsiyaga bevosita qaraydi ({numref}`yol_uzunligi`).

# %%
rnn = "RNN:\n59 ta qadam\nbosib oʻtiladi"
att = "Attention:\nbitta\nbogʻlanish"
diagramma(
    {
        rnn: (0.2, 0.2, 1.4, 0.9, "xizmat"),
        "0-qadam": (1.8, 0.2, 0.9, 0.9, "manba"),
        "1-qadam": (3.0, 0.2, 0.9, 0.9, "manba"),
        "…": (4.1, 0.2, 0.4, 0.9, "manba"),
        "59-qadam": (4.7, 0.2, 0.9, 0.9, "manba"),
        att: (0.2, 1.5, 1.4, 0.9, "qayta"),
        "0-pozitsiya": (1.8, 1.5, 1.2, 0.9, "manba"),
        "59-pozitsiya": (4.4, 1.5, 1.2, 0.9, "manba"),
    },
    [("0-qadam", "1-qadam"), ("1-qadam", "…"), ("…", "59-qadam"),
     ("0-pozitsiya", "59-pozitsiya")],
    nom="yol_uzunligi.png",
    izoh="RNNda maʼlumot zanjir boʻylab yuradi va yoʻlda kuchsizlanadi."
         " Attentionda istalgan ikki pozitsiya orasidagi yoʻl — bitta"
         " bogʻlanish.",
)

# %% [markdown]
# Bu farq — *{term}`yoʻl uzunligi`*: RNNda u ikki pozitsiya orasidagi masofaga teng,
# attentionda esa doim bitta bogʻlanish.
#
# ## Attention toʻrt bosqichda
#
# Attention har pozitsiya uchun uchta vektor hosil qiladi:
#
# - **soʻrov** (ingl. *query*, *Q*) — «men nimani qidiryapman?»;
# - **kalit** (ingl. *key*, *K*) — «menda nima bor?»;
# - **qiymat** (ingl. *value*, *V*) — «meni tanlashsa, nimani beraman?».
#
# Uchalasi kirishdan chiziqli {term}`proyeksiya` bilan olinadi. Toʻrt bosqich bitta formulada:
#
# $$
# \mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d}}\right) V
# $$
#
# Bu yerda *d* — kalit vektorining oʻlchami. Har bosqichni kichik misolda koʻramiz:
# toʻrt pozitsiya, har biri sakkiz oʻlchamli vektor.

# %%
torch.manual_seed(0)
T_kichik, d = 4, 8
h = torch.randn(1, T_kichik, d)

Wq, Wk, Wv = (nn.Linear(d, d, bias=False) for _ in range(3))
Q, K, V = Wq(h), Wk(h), Wv(h)
print("Kirish h:", tuple(h.shape))
print("Q, K, V: ", tuple(Q.shape))

# %% [markdown]
# Shakldagi birinchi son — {term}`paket <paket>` (ingl. *batch*: birga hisoblanadigan
# namunalar guruhi) kattaligi; bu yerda bitta ketma-ketlik. Birinchi
# bosqich: har soʻrovni har kalit bilan skalyar koʻpaytiramiz. Natija —
# $4 \times 4$ ballar matritsasi: *i*-qator *i*-pozitsiya soʻrovi har bir kalitga
# qanchalik mos kelishini koʻrsatadi.

# %%
# (1, T, d) @ (1, d, T) -> (1, T, T)
ball = Q @ K.transpose(1, 2)
print("1-bosqich: har Q ni har K bilan skalyar koʻpaytirish")
print("ballar:", tuple(ball.shape))
for qator in ball[0].detach():
    print("  ".join(son(v, ".2f").rjust(5) for v in qator))

# %% [markdown]
# Ikkinchi bosqich: ballarni $\sqrt{d}$ ga boʻlamiz. Nega aynan $\sqrt{d}$?
# Faraz qilaylik, *q* va *k* ning komponentlari oʻzaro mustaqil, oʻrtachasi 0 ga,
# {term}`dispersiyasi <dispersiya>` esa 1 ga teng. U holda {term}`skalyar koʻpaytma`
# $q \cdot k = \sum_{j=1}^{d} q_j k_j$ — dispersiyasi 1 boʻlgan *d* ta hadning
# yigʻindisi, uning dispersiyasi *d*. Uni $\sqrt{d}$ ga boʻlish dispersiyani yana 1 ga
# qaytaradi. Boʻlinmasa, katta *d* da ballar katta boʻladi va softmax
# **{term}`toʻyinadi <toʻyinish>`** (ingl. *saturation*): bitta elementga
# deyarli $1$, qolganlarga deyarli $0$ beradi. Toʻyingan qatorlarda
# gradient deyarli yoʻqoladi.
#
# Uchinchi bosqich: softmax har qatorni musbat va yigʻindisi 1 boʻlgan
# {term}`ogʻirliklarga <ogʻirlik>` aylantiradi:
# $\mathrm{softmax}(z)_j = e^{z_j} / \sum_k e^{z_k}$.

# %%
ball_normal = ball / d**0.5
print(f"2-bosqich: √d = {son(d**0.5, '.3f')} ga boʻlish")
ogirlik = torch.softmax(ball_normal, dim=-1).detach()
print("3-bosqich: softmax — ogʻirliklar")
for qator in ogirlik[0]:
    print("  ".join(son(v, ".3f") for v in qator))
yigindi = ogirlik[0].sum(-1)
print("qator yigʻindilari:")
print("  ".join(son(v, ".4f") for v in yigindi))

# %% [markdown]
# :::{only} html
# {term}`Toʻyinishni <toʻyinish>` oʻzingiz koʻring: quyidagi surgich ballarni *c* ga
# koʻpaytiradi. Koʻpaytuvchi *c* oʻsgan sari har qatorda bitta ogʻirlik 1 ga yaqinlashadi; *c*
# kichraysa, ogʻirliklar tekislanadi.
# :::
#
# :::{only} latex
# Ballarni *c* ga koʻpaytirib, $\mathrm{softmax}(c \cdot QK^\top / \sqrt{d})$ ni
# qayta hisoblasak, koʻpaytuvchi *c* oʻsgan sari har qatorda bitta ogʻirlik 1 ga,
# qolganlari 0 ga yaqinlashadi; *c* kichraysa, ogʻirliklar tekislanadi.
# :::

# %%
softmax_xaritasi(
    "softmax",
    ball[0],
    d,
    izoh=f"Yuqoridagi ballar (*d* = {d}): *c* = 1 — √*d* ga boʻlingan,"
         f" *c* = √{d} ≈ {son(d**0.5, '.2f')} — boʻlinmagan.",
)

# %% [markdown]
# Buni tajribada tekshiramiz: *d* ni 8 dan 1024 gacha oʻzgartirib, *Q* va *K* ni
# yuqoridagidek hosil qilamiz (`nn.Linear` ning standart
# {term}`initsializatsiyasi <initsializatsiya>` bilan; initsializatsiya — {term}`parametrlarga <parametrlar>`
# boshlangʻich qiymat berish usuli). Ballarni $\sqrt{d}$ ga boʻlib va
# boʻlmasdan, ikki kattalikni oʻlchaymiz ({numref}`sqrt_d`): ballarning
# {term}`oʻrtacha kvadratik (standart) chetlanishi <oʻrtacha kvadratik (standart) chetlanish>`
# va qatordagi eng katta ogʻirlik.

# %%
supurish = []
for d_s in [8, 16, 32, 64, 128, 256, 512, 1024]:
    torch.manual_seed(0)
    # 64 ta ketma-ketlik, 16 ta pozitsiya
    h_s = torch.randn(64, 16, d_s)
    Wq_s, Wk_s = (nn.Linear(d_s, d_s, bias=False) for _ in range(2))
    with torch.no_grad():
        q_s, k_s = Wq_s(h_s), Wk_s(h_s)
        b_s = q_s @ k_s.transpose(1, 2)  # (64, 16, 16)
    for usul, z in [("boʻlishsiz", b_s),
                    ("√d ga boʻlingan", b_s / d_s**0.5)]:
        w = torch.softmax(z, dim=-1).amax(dim=-1)  # qatordagi eng katta
        supurish.append((d_s, usul, z.std().item(), w.mean().item(),
                         w.min().item(), q_s.var().item()))
sp = pd.DataFrame(supurish, columns=[
    "d", "usul", "std", "eng katta", "eng katta (min)", "q dispersiya",
]).pivot(index="d", columns="usul")

rasm, (b1, b2) = plt.subplots(2, 1, figsize=(5.6, 6.4), sharex=True)
sp["std"].plot(ax=b1, style=["o-", "s--"], logy=True, xlabel="",
               ylabel="ballarning standart chetlanishi")
sp["eng katta"].plot(ax=b2, style=["o-", "s--"], ylim=(0, 1.02),
                     ylabel="qatordagi eng katta ogʻirlik")
for b in (b1, b2):
    b.legend(title=None)
    b.set_xscale("log", base=2)
    b.grid(True, which="both", alpha=0.3)
fig("sqrt_d.png", caption=(
    "Ballar va softmax *d* ga qarab (16 ta pozitsiya,"
    " 64 ta ketma-ketlik). Yuqorida: ballarning standart"
    " chetlanishi. Pastda: qatordagi eng katta ogʻirlikning"
    " oʻrtachasi."))


# %% tags=["remove-cell"]
from chapter_code.kitob import glue, yopishtir

bol0, bol1 = (sp.xs(u, axis=1, level="usul")
              for u in ("boʻlishsiz", "√d ga boʻlingan"))
glue("sq_var_q", float(bol0["q dispersiya"].mean()), display=False)
glue("sq_std_8", float(bol0.loc[8, "std"]), display=False)
glue("sq_std_512", float(bol0.loc[512, "std"]), display=False)
glue("sq_std_1024", float(bol0.loc[1024, "std"]), display=False)
glue("sq_std_bol_min", float(bol1["std"].min()), display=False)
glue("sq_std_bol_max", float(bol1["std"].max()), display=False)
glue("sq_max_512", float(bol0.loc[512, "eng katta"]), display=False)
glue("sq_max_512_min", float(bol0.loc[512, "eng katta (min)"]),
     display=False)
glue("sq_max_512_bol", float(bol1.loc[512, "eng katta"]), display=False)


# %% [markdown]
# {numref}`%s-rasmning <sqrt_d>` yuqori qismida boʻlishsiz ballarning standart
# chetlanishi $\sqrt{d}$ ga proporsional oʻsadi: *d* = 8 da {glue:text}`sq_std_8:.2f`,
# *d* = 1024 da {glue:text}`sq_std_1024:.1f`. Ballar $\sqrt{d}$ ga boʻlinganda u *d* bilan oʻsmaydi: bu
# initsializatsiyada hamma *d* da {glue:text}`sq_std_bol_min:.2f`–{glue:text}`sq_std_bol_max:.2f` oraligʻida (1 emas:
# `nn.Linear` bilan hosil qilingan komponentlar dispersiyasi $\sigma^2$ taxminan {glue:text}`sq_var_q:.2f`,
# ball dispersiyasi esa $d\,\sigma^4$). Pastki qismda boʻlishsiz softmax *d* oʻsgan sari toʻyinadi
# (*d* = 512 da eng katta ogʻirlik oʻrtacha {glue:text}`sq_max_512:.2f`), boʻlingani esa
# ancha tekis ({glue:text}`sq_max_512_bol:.2f`).
#
# Toʻrt pozitsiyali misolga qaytamiz. Ogʻirliklar matritsasining har qatori — bitta
# pozitsiyaning «eʼtibor taqsimoti». Toʻrtinchi bosqich:
# {term}`qiymatlarning <qiymat>` shu ogʻirliklar bilan vaznli oʻrtachasini olamiz.

# %%
# (1, T, T) @ (1, T, d) -> (1, T, d)
chiqish = ogirlik @ V
print("4-bosqich: V ning vaznli oʻrtachasi")
print("chiqish:", tuple(chiqish.shape))

# %% [markdown]
# Chiqishning shakli kirishniki bilan bir xil: har pozitsiya uchun yangi vektor.
# Shu toʻrt bosqich — attentionning butun mexanizmi.
#
# ## Kalitni mazmuni boʻyicha topish
#
# Yuqorida parametrlar tasodifiy edi. Oʻqitilgan attention nimani uddalaydi? Eng
# yaqqol misol — **{term}`assotsiativ eslash`** (ingl. *associative recall*): modelga bir
# nechta «kalit → qiymat» jufti, soʻng bitta kalit beriladi; javob — shu kalitning qiymati.
# Masalan, «7 → 3, 12 → 5, 2 → 9; 12?» degan misolning javobi 5. Bizda har namunada
# {glue:text}`es_juftlar` ta juft bor. Kalitlar ham, qiymatlar ham {glue:text}`es_kalitlar` ta
# belgidan olinadi: kalitlar namuna ichida takrorlanmaydi,
# qiymatlar esa takrorlanishi mumkin. Soʻralgan kalit qaysi juftda turishi tasodifiy, shuning uchun javobni
# oʻrni boʻyicha topib boʻlmaydi: kalitni mazmuni boʻyicha qidirish kerak.
#
# Model — bitta attention {term}`qatlami <qatlam>` (`Eslash`). Har juft bitta
# {term}`token` (modelning bitta kirish elementi): kalit va qiymat
# {term}`embeddinglarining <embedding>` (har belgining oʻrganiladigan vektori) yigʻindisi.
# Attentionning soʻrovi soʻralgan kalitdan, kalitlari va qiymatlari esa juft tokenlaridan
# olinadi:
#
# ```{literalinclude} ../../chapter_code/eslash.py
# :pyobject: Eslash.forward
# :dedent:
# ```
#
# Kalit va qiymat bitta tokenda boʻlgani uchun bitta qatlam yetadi. Matnda ular alohida
# tokenlar, shuning uchun til modellari bu ishni ikki qatlamli {term}`induksiya boshi`
# (ingl. *induction head*) bilan bajaradi ({cite:alp}`olsson2022`).
#
# Nazorat modeli xuddi shunday, faqat soʻrov–kalit ballarisiz (`mazmunsiz=True`): unda ball
# faqat juftning oʻrniga bogʻliq. U soʻralgan kalitni juftlar bilan solishtira olmaydi,
# koʻpi bilan juftlarda eng koʻp uchragan qiymatni ayta oladi. Bunday taxminning
# {term}`aniqligini <aniqlik>` {term}`tasodifiy daraja` deymiz va uni {term}`sinov namunalaridan <sinov toʻplami>`
# hisoblaymiz. Har model besh {term}`seed` (tasodifiy sonlar generatorining boshlangʻich
# qiymati) bilan oʻqitiladi.

# %%
from chapter_code.eslash import (eslash_vazifasi, oqit_eslash,
                                 tasodifiy_daraja)
from chapter_code.oqitish import parallel, protokoli

seedlar = range(5)
turlar = {"mazmun boʻyicha": False, "faqat oʻrin boʻyicha": True}
ishlar = [(s, m) for m in turlar.values() for s in seedlar]
natija = parallel(oqit_eslash, ishlar)  # (aniqlik, ogʻirlik, model)
n = len(seedlar)
es = {nom: natija[i * n:(i + 1) * n] for i, nom in enumerate(turlar)}
# eng koʻp uchragan qiymatning juftlardagi ulushi, sinov namunalarida
tasodif = tasodifiy_daraja()
show(pd.DataFrame([{
    "model": nom,
    "seedlardagi aniqlik": "; ".join(son(a, ".3f") for a, _, _ in n),
    "javob juftiga ogʻirlik": "; ".join(son(w, ".2f") for _, w, _ in n),
} for nom, n in es.items()]), nom="eslash_jadval",
    izoh="Assotsiativ eslash: sinovdagi aniqlik va soʻrovning javob"
         " turgan juftga bergan oʻrtacha ogʻirligi (besh seed);"
         f" tasodifiy daraja {son(tasodif, '.2f')}.")

# %% tags=["remove-cell"]
p_es = protokoli(oqit_eslash) | protokoli(eslash_vazifasi)
yopishtir(es_juftlar=p_es["juftlar"], es_kalitlar=p_es["kalitlar"], es_qiymatlar=p_es["qiymatlar"],
          es_tasodif=tasodif, es_aniq=[a for a, _, _ in es["mazmun boʻyicha"]],
          es_w=[w for _, w, _ in es["mazmun boʻyicha"]], es_nazorat=[a for a, _, _ in es["faqat oʻrin boʻyicha"]])

# %% [markdown]
# Mazmun boʻyicha qidiradigan model besh seedning hammasida deyarli hamma sinov namunasini
# toʻgʻri yechdi va soʻrov ogʻirligining deyarli hammasini javob turgan juftga berdi
# ({numref}`eslash_jadval`). Nazorat modelining aniqligi esa tasodifiy daraja
# ({glue:text}`es_tasodif:.2f`) atrofida qoldi. Javob turgan juft har namunada boshqa joyda
# ({numref}`eslash_xarita`).

# %%
_, _, m0 = es["mazmun boʻyicha"][0]  # seed 0
k, v, q, y, joy = eslash_vazifasi(1000, seed=2)  # sinov namunalari
with torch.no_grad():
    m0(k, v, q)
w = m0.ogirlik[:, 0]  # (1000, juftlar)
# javob qaysi juftda tursa, oʻsha oʻrin uchun oʻrtacha ogʻirlik
joy_boyicha = [w[joy == j, j].mean().item() for j in range(w.shape[1])]
print("javob juftiga ogʻirlik, javob oʻrni boʻyicha:")
print("  " + "; ".join(son(x, ".3f") for x in joy_boyicha))
tartib = joy[:24].argsort()  # 24 ta namuna, javob oʻrni boʻyicha
rasm, b = plt.subplots(figsize=(5.6, 3.6))
t = b.imshow(w[:24][tartib], aspect="auto", vmin=0, vmax=1)
b.set(xlabel="juft oʻrni", ylabel="namuna")
plt.colorbar(t, ax=b, fraction=0.046)
fig("eslash_xarita.png", caption=(
    "Mazmun boʻyicha qidiradigan model (seed 0) soʻrovining 24 ta"
    " sinov namunasidagi"
    " ogʻirliklari; namunalar javob turgan juft oʻrni boʻyicha"
    " saralangan. Har qatorda ogʻirlik javob turgan juftga tushadi."))

# %% tags=["remove-cell"]
yopishtir(es_joy_min=min(joy_boyicha))

# %% [markdown]
# Javob qaysi oʻrinda turmasin, unga tushgan oʻrtacha ogʻirlikning eng kichigi
# {glue:text}`es_joy_min:.3f`. Soʻrov va kalitning skalyar koʻpaytmasi kalit
# qayerda turganini emas, unda nima borligini solishtiradi.
#
# ## Kauzal maska: kelajakka qaramaslik
#
# Toʻrt pozitsiyali misolda har pozitsiya hamma pozitsiyaga, oʻzidan keyingilariga ham
# qaradi. Matn yozadigan model (GPT kabi *{term}`dekoder`*, ingl. *decoder*) uchun bu
# mumkin emas: u matnni chapdan oʻngga bittadan token qoʻshib yozadi, keyingi token hali
# yoʻq. Oʻqitishda esa matn toʻliq beriladi va model har pozitsiyada keyingi tokenni bashorat
# qiladi; *i*-pozitsiya (*i* + 1)-pozitsiyaga qaray olsa, javobni koʻchirib oladi.
# Shuning uchun softmaxdan oldin diagonaldan yuqoridagi ballar $-\infty$ ga
# almashtiriladi: $e^{-\infty} = 0$, ularning ogʻirligi nol. Bu — **kauzal (sababiy)
# maska** (ingl. *causal mask*): *i*-pozitsiya faqat oʻziga va oʻzidan oldingilarga qaraydi.

# %%
# True — yopiladigan joylar: diagonaldan yuqorisi (j > i)
maska = torch.ones(T_kichik, T_kichik, dtype=torch.bool).triu(1)
ogirlik_maskali = torch.softmax(
    ball_normal.masked_fill(maska, float("-inf")), dim=-1
).detach()
# (1, 4, 4) @ (1, 4, d) -> (1, 4, d): attention chiqishi
chiqish_maskali = ogirlik_maskali @ V

juftlar = {"maskasiz": ogirlik, "kauzal maska bilan": ogirlik_maskali}
rasm, panellar = plt.subplots(1, 2, figsize=(5.6, 3.3), sharey=True)
for b, (sarlavha, w_) in zip(panellar, juftlar.items()):
    w_ = w_[0].numpy()
    b.imshow(w_, cmap="viridis", vmin=0, vmax=1)
    for (i, j), v in np.ndenumerate(w_):
        b.text(j, i, son(v, ".2f"), ha="center", va="center",
               color="white" if v < 0.6 else "black")
    b.set(title=sarlavha, xticks=range(4), yticks=range(4))
rasm.supxlabel("qaralayotgan pozitsiya (kalit)")
panellar[0].set_ylabel("soʻrov pozitsiyasi")
plt.tight_layout()
fig("kauzal.png", caption=(
    "Toʻrt pozitsiyali misolning ogʻirliklari: chapda maskasiz,"
    " oʻngda kauzal maska bilan. Maskadan keyin diagonaldan"
    " yuqorisi nol, har qator yigʻindisi baribir 1."))


# %% tags=["remove-cell"]
glue(
    "kauzal_yigindi_farq",
    float((ogirlik_maskali[0].sum(dim=-1) - 1).abs().max()),
    display=False,
)
glue(
    "kauzal_yuqori",
    float(ogirlik_maskali[0][maska].abs().max()),
    display=False,
)
glue("kauzal_birinchi", float(ogirlik_maskali[0, 0, 0]), display=False)


# %% [markdown]
# {numref}`%s-rasmning <kauzal>` oʻng qismida 0-qatorda faqat bitta ogʻirlik noldan farqli,
# u {glue:text}`kauzal_birinchi:g` ga teng: 0-pozitsiya faqat oʻziga qaraydi. Maska *V* ni emas,
# qaysi pozitsiyaga qarash mumkinligini oʻzgartiradi: maskali chiqish (`chiqish_maskali`) — oʻsha
# qiymatlarning (*V* qatorlarining) boshqacha vaznli oʻrtachasi.
#
# Matnni tushunadigan model (BERT kabi *{term}`koder`*, ingl. *encoder*) kauzal maska
# ishlatmaydi: unda har token ikki tomondagi tokenlarni koʻradi. Faqat paketdagi
# ketma-ketliklarni bir xil uzunlikka keltiradigan {term}`toʻldiruvchi tokenlar <toʻldiruvchi token>` yopiladi.
#
# {doc}`«Attention, RNN va LSTM bitta vazifada» <rekurrent>` darsida attentionni RNN va
# {term}`LSTM` bilan solishtiramiz: yoʻl uzunligidagi farq oʻqitishda nimaga olib kelishini
# oʻlchaymiz.
#

# %% [markdown]
# ## Mashqlar
#
# Avval natijani **taxmin qiling**, soʻng oʻlchang: ikkisi farq qilgan joyda eng koʻp
# narsa oʻrganasiz.
#
# **1-mashq ($\sqrt{d}$ ga boʻlmasdan).** «Attention toʻrt bosqichda»
# boʻlimida `d = 512` deb oʻzgartiring va `ball_normal = ball` deb yozing
# (boʻlishsiz). Har qatordagi eng katta ogʻirlik qanday boʻladi? Taxmin qiling,
# soʻng `ogirlik.max(dim=-1)` ni chiqaring va boʻlish bilan solishtiring.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Boʻlishsiz har qatordagi eng katta ogʻirlik {glue:text}`m1_bolishsiz`. Ballar
# $\sqrt{d}$ ga boʻlinganda esa {glue:text}`m1_bolib` (yechim kodi quyida).
#
# {numref}`%s-rasmdagi <sqrt_d>` 16 pozitsiyali oʻlchov ham shuni koʻrsatadi: *d* = 512 da
# boʻlishsiz ballarning standart chetlanishi {glue:text}`sq_std_512:.1f` (dispersiya 1
# boʻlganda $\sqrt{512} \approx 22{,}6$ boʻlardi). Bu softmaxni toʻyintirishga yetadi: eng katta
# ogʻirlik oʻrtacha {glue:text}`sq_max_512:.2f`, lekin har doim ham 1 ga yaqin emas —
# qatorlar boʻyicha eng kichigi {glue:text}`sq_max_512_min:.2f`. Boʻlinganda u oʻrtacha
# {glue:text}`sq_max_512_bol:.2f`. Toʻyingan qatorlarda softmaxning gradienti deyarli nol:
# ular orqali *Q* va *K* ga signal deyarli oʻtmaydi. Toʻyinmagan qatorlarda esa ballar
# ($\sqrt{d}$ ga boʻlinmagani uchun) katta, gradient ham katta. Demak, boʻlishsiz gradient umuman yoʻqolmaydi, balki juda notekis boʻladi:
# baʼzi qatorlardan deyarli hech narsa, baʼzilaridan juda koʻp keladi.
# :::
#
# **2-mashq (maska tartibni sezadimi?).** Maskasiz attention (pozitsiyalar haqida
# maʼlumotsiz) kirish tartibini koʻrmaydi: elementlarni aralashtirsak, har elementning
# chiqishi u bilan birga koʻchadi, oʻzi oʻzgarmaydi. Kauzal maska bilan-chi?
# «Kauzal maska» boʻlimidagi misolda `h` ni teskari tartibga qoʻying (`h.flip(1)`) va
# maskali chiqishni qayta hisoblang. Toʻrt elementdan qaysilarining chiqishi oʻzgaradi?
#
# :::{admonition} Yechim
# :class: dropdown
#
# Toʻrttasiniki ham oʻzgaradi. Maska bilan *i*-pozitsiyadagi element faqat
# oʻzini va oʻzidan oldingi elementlarni koʻradi. Asl tartibda 0-element faqat oʻzini
# koʻrardi, teskari tartibda u oxirida turadi va hammani koʻradi; qolgan elementlar
# koʻradigan toʻplam ham oʻzgaradi. Demak, kauzal maskaning oʻzi modelga
# tartib haqida maʼlumot beradi: {term}`pozitsiya kodlashsiz <pozitsiya kodlash>` dekoder ham
# pozitsiyani qisman sezishi mumkin {cite:p}`haviv2022`. Bu oʻqitishda
# qanchalik yordam berishini {doc}`«Pozitsiyalar uzunroq ketma-ketlikda» <pozitsiyalar>` darsining
# {ref}`«Pozitsiyasiz, lekin kauzal maska bilan» <kauzal-pozitsiyasiz>` boʻlimida oʻlchaymiz.
# :::
#
# **3-mashq (qiyinroq eslash).** Juftlar sonini 8 dan 32 ga oshiring, kalitlar esa 64 ta
# belgidan olinsin (32 ta juftda kalit takrorlanmasligi uchun 16 ta belgi yetmaydi):
# `oqit_eslash(0, juftlar=32, kalitlar=64)`. Aniqlik, javob juftiga ogʻirlik va tasodifiy
# daraja qanday oʻzgaradi?
#
# :::{admonition} Yechim
# :class: dropdown
#
# Aniqlik oʻzgarmaydi ({glue:text}`m3_aniq:.3f`), javob juftiga ogʻirlik esa biroz kamayadi
# ({glue:text}`m3_w:.2f`; yechim kodi quyida): skalyar koʻpaytma kalitlarni mazmuni boʻyicha
# solishtiradi, juftlar soni bunga deyarli taʼsir qilmaydi. Tasodifiy daraja
# {glue:text}`m3_tasodif:.2f` ga tushadi: 32 ta qiymat orasida eng koʻp uchraganining ulushi
# kichikroq, shuning uchun mazmunsiz model bu yerda yanada zaif boʻlar edi.
# :::


# %% tags=["hide-cell"]
# 1-mashq yechimi: toʻrt pozitsiyali misol, d = 512
torch.manual_seed(0)
h1 = torch.randn(1, 4, 512)
Wq1, Wk1, _ = (nn.Linear(512, 512, bias=False) for _ in range(3))
with torch.no_grad():
    ball1 = Wq1(h1) @ Wk1(h1).transpose(1, 2)
m1 = {nom: torch.softmax(b, -1).max(-1).values[0] for nom, b in
      [("boʻlishsiz", ball1), ("√d ga boʻlib", ball1 / 512**0.5)]}
for nom, m in m1.items():
    print(f"{nom}:", "; ".join(son(v, ".2f") for v in m))

# %% tags=["remove-cell"]
for nom, m in zip(("m1_bolishsiz", "m1_bolib"), m1.values()):
    glue(nom, "; ".join(son(v, ".2f") for v in m), display=False)


# %% tags=["hide-cell"]
# 3-mashq yechimi: 32 juft, 64 kalit
m3_aniq, m3_w, _ = oqit_eslash(0, juftlar=32, kalitlar=64)
m3_tasodif = tasodifiy_daraja(juftlar=32, kalitlar=64)
print(f"aniqlik {son(m3_aniq, '.3f')}; ogʻirlik {son(m3_w, '.2f')};"
      f" tasodifiy daraja {son(m3_tasodif, '.2f')}")

# %% tags=["remove-cell"]
yopishtir(m3_aniq=m3_aniq, m3_w=m3_w, m3_tasodif=m3_tasodif)
