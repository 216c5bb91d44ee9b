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
# # Attention va Transformer
#
# RNN ketma-ketlik elementlarini birma-bir oʻqiydi va uzoqdagi maʼlumotni
# eslab qolishga qiynaladi. Attention (oʻzbekchasi — *eʼtibor mexanizmi*) bu
# muammoni boshqacha hal qiladi: har bir pozitsiya qolgan hamma pozitsiyaga
# bevosita qaraydi. Zamonaviy til modellari (GPT, BERT, Llama) aynan shu
# gʻoya asosida qurilgan Transformer bloklaridan iborat.
#
# Bu bobda siz:
#
# - attentionni toʻrt bosqichda qoʻlda hisoblaysiz va unga kauzal (sababiy)
#   maska qoʻshasiz;
# - RNN, LSTM va attentionni bitta vazifada oʻlchab solishtirasiz;
# - pozitsiya kodlash nega kerakligini va qaysi turi uzunroq
#   ketma-ketlikka koʻchishini tajribada koʻrasiz;
# - attention narxini — vaqt va xotirani — oʻlchaysiz;
# - koʻp boshli attention (*multi-head attention*) va Transformer blokini
#   yigʻasiz, KV kesh (oldingi kalit va qiymatlar xotirasi) matn yaratishni
#   necha marta tezlatishini oʻlchaysiz;
# - oʻzbekcha soʻz bilan yozilgan sonlarni raqamga aylantiradigan kichik
#   Transformer oʻqitasiz va u qaysi soʻzga qarayotganini koʻrasiz.
#
# Sahifadagi har bir son, jadval va rasm shu koddan, kitob yigʻilayotganda
# hisoblangan. Avval kutubxonalar va bobning umumiy kodi (`chapter_code/`)
# yuklanadi.

# %%
import inspect
import math
from functools import partial

import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import torch
import torch.nn as nn

from chapter_code.kitob import diagramma, show, fig
from chapter_code.raqam import son, foiz
from chapter_code.malumot import vazifa
from chapter_code.modellar import Ketma, Attention, TransformerBlok
from chapter_code.modellar import KopBoshli, Blok, KichikGPT, sinus_pozitsiya
from chapter_code.modellar import parametrlar
from chapter_code.oqitish import oqit, parallel, xotira_chuqqisi
from chapter_code.natijalar import Seedlar, hammasida, nechtasida, seeddan
from chapter_code import muhit
from myst_nb import glue

# %% [markdown]
# ## Nega attention: yoʻl uzunligi
#
# RNN ketma-ketlikni qadamma-qadam oʻqiydi: har qadamda yashirin holat
# yangilanadi. Qadamlarni Python kabi 0 dan sanaymiz: 60 ta qadam — 0-qadamdan
# 59-qadamgacha. 0-qadamdagi maʼlumot oxirgi, 59-qadamga yetishi uchun 59 ta
# yangilanishdan oʻtadi. Har oʻtishda u biroz oʻzgaradi va kuchsizlanadi;
# oʻqitishda gradient ham xuddi shu yoʻlni teskari bosib oʻtadi.
#
# Attentionda esa har pozitsiya istalgan boshqa pozitsiyaga bevosita,
# oraliq holatlarsiz qaraydi. Quyidagi diagramma ({numref}`yol_uzunligi`) ikki yoʻlni
# solishtiradi.

# %%
rnn = "RNN: 59 ta qadam\\nbosib oʻtiladi"
att = "Attention: har qadamga\\nTOʻGʻRIDAN-TOʻGʻRI yoʻl"
diagramma(
    {
        "0-qadam": (0.2, 0.2, 1.3, 0.7, "manba"),
        "...": (1.9, 0.2, 1.3, 0.7, "manba"),
        "59-qadam": (3.6, 0.2, 1.3, 0.7, "manba"),
        rnn: (0.2, 1.5, 4.7, 0.8, "xizmat"),
        att: (0.2, 2.7, 4.7, 0.8, "qayta"),
    },
    [("0-qadam", rnn), ("59-qadam", rnn), (rnn, att)],
    nom="yol_uzunligi.png",
    izoh="RNNda maʼlumot zanjir boʻylab yuradi va yoʻlda kuchsizlanadi. "
         "Attentionda istalgan ikki pozitsiya orasidagi yoʻl — bitta bogʻlanish.",
)

# %% [markdown]
# {numref}`%s-rasmdagi <yol_uzunligi>` asosiy farq — *yoʻl uzunligi*: RNNda
# ikki pozitsiya orasidagi yoʻl ular orasidagi masofaga teng, attentionda
# esa doim bitta bogʻlanish. Bu bobning qolgan qismi shu farqni oʻlchaydi.
#
# ## Attention toʻrt bosqichda
#
# Attention har pozitsiya uchun uchta vektor yasaydi:
#
# - **soʻrov** (query, *Q*) — «men nimani qidiryapman?»;
# - **kalit** (key, *K*) — «menda nima bor?»;
# - **qiymat** (value, *V*) — «meni tanlashsa, nimani beraman?».
#
# Uchalasi ham kirishdan chiziqli proyeksiya bilan olinadi. Soʻng har soʻrov
# har kalit bilan solishtiriladi, oʻxshashlik balli ogʻirlikka aylantiriladi va
# qiymatlarning shu ogʻirliklar bilan vaznli oʻrtachasi olinadi. Hammasi bitta
# formulada:
#
# $$
# \mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d}}\right) V
# $$
#
# Bu yerda *d* — kalit vektorining oʻlchami. Kichik misolda har bosqichni
# alohida koʻramiz: 4 pozitsiyali ketma-ketlik, har pozitsiya 8 oʻlchamli
# vektor.

# %%
torch.manual_seed(0)
T_kichik, d = 4, 8
h = torch.randn(1, T_kichik, d)

Wq, Wk, Wv = (nn.Linear(d, d, bias=False) for _ in range(3))
Q, K, V = Wq(h), Wk(h), Wv(h)
print(f"Kirish h: {tuple(h.shape)}   -> {T_kichik} pozitsiya, "
      f"har biri {d} oʻlchamli vektor")
print(f"Q, K, V : {tuple(Q.shape)}")

# %% [markdown]
# Kirish $4 \times 8$ matritsa edi; *Q*, *K*, *V* ham shunday. Birinchi
# bosqich: har soʻrovni har kalit bilan skalyar koʻpaytiramiz. Natija —
# $4 \times 4$ ballar matritsasi: *i*-qator *i*-pozitsiyaning boshqalarga
# qanchalik «oʻxshashini» koʻrsatadi.

# %%
# (1, T, d) @ (1, d, T) -> (1, T, T)
ball = Q @ K.transpose(1, 2)
print("1-bosqich: har Q ni har K bilan skalyar koʻpaytirish "
      "(oʻxshashlik balli)")
print(f"  ball shakli: {tuple(ball.shape)}  "
      "-> har pozitsiya har pozitsiyaga ball qoʻyadi")
print(np.round(ball[0].detach().numpy(), 2))

# %% [markdown]
# Ikkinchi bosqich: ballarni $\sqrt{d}$ ga boʻlamiz. Nega aynan $\sqrt{d}$?
# Agar *q* va *k* bir-biridan mustaqil, komponentlari esa oʻzaro mustaqil,
# oʻrtachasi 0 va dispersiyasi 1 ga teng sonlar boʻlsa, skalyar koʻpaytma
# $q \cdot k = \sum_{j=1}^{d} q_j k_j$ — *d* ta hadning yigʻindisi, har
# hadning dispersiyasi 1, yigʻindiniki esa *d*. $\sqrt{d}$ ga boʻlish
# dispersiyani yana 1 ga qaytaradi. $\sqrt{d}$ ga boʻlinmasa, katta *d* da
# ballar katta boʻladi va softmax **toʻyinadi** (*saturation*): bitta elementga
# deyarli $1$, qolganlarga deyarli $0$ beradi. Bunday toʻyingan qatorlarda
# gradient deyarli yoʻqoladi. (Komponentlarning dispersiyasi 1
# emas, $\sigma^2$ boʻlsa, ball dispersiyasi $d\,\sigma^4$; boʻlish baribir
# uni *d* ga bogʻliq boʻlmaydigan qiladi — buni birozdan keyin oʻlchaymiz.)
#
# Uchinchi bosqich: softmax har qatorni musbat va yigʻindisi 1 boʻlgan
# ogʻirliklarga aylantiradi:
# $\mathrm{softmax}(z)_j = e^{z_j} / \sum_k e^{z_k}$.

# %%
ball_normal = ball / d ** 0.5
print(f"2-bosqich: sqrt(d) ga boʻlish (d={d}, sqrt={d**0.5:.3f})")
print("  Nega: d katta boʻlsa, ballar ham katta boʻladi, "
      "softmax esa toʻyinadi (0 va 1 ga yopishadi).")
print()
ogirlik = torch.softmax(ball_normal, dim=-1)
print("3-bosqich: softmax — ballarni ogʻirlikka aylantirish")
print(np.round(ogirlik[0].detach().numpy(), 3))
yigindi = ogirlik[0].sum(dim=-1).detach().numpy().round(4)
print(f"  har qator yigʻindisi: {yigindi}")

# %% [markdown]
# $\sqrt{d}$ haqidagi gapni oʻlchab koʻramiz. *d* ni 8 dan 1024 gacha
# oʻzgartirib, bobdagi kabi *Q* va *K* yasaymiz (tasodifiy kirish,
# `nn.Linear` ning standart boshlanishi) va ballarning oʻrtacha kvadratik
# (standart) chetlanishini hamda har qatordagi eng katta ogʻirlikni boʻlish bilan va boʻlmasdan
# yozib olamiz ({numref}`sqrt_d`).

# %%
supurish = []
for d_s in [8, 16, 32, 64, 128, 256, 512, 1024]:
    torch.manual_seed(0)
    h_s = torch.randn(64, 16, d_s)         # 64 ta ketma-ketlik, 16 pozitsiya
    Wq_s, Wk_s = (nn.Linear(d_s, d_s, bias=False) for _ in range(2))
    with torch.no_grad():
        q_s, k_s = Wq_s(h_s), Wk_s(h_s)
        b_s = q_s @ k_s.transpose(1, 2)   # (64, 16, 16)
    for usul, z in [("boʻlishsiz", b_s), ("sqrt(d) ga boʻlib", b_s / d_s ** 0.5)]:
        eng_katta = torch.softmax(z, dim=-1).max(dim=-1).values
        supurish.append({"d": d_s, "usul": usul, "ball std": z.std().item(),
                         "eng katta ogʻirlik": eng_katta.mean().item(),
                         "eng katta (min)": eng_katta.min().item(),
                         "q komponenti dispersiyasi": q_s.var().item()})
sp = pd.DataFrame(supurish)
bol0 = sp[sp.usul == "boʻlishsiz"].set_index("d")
bol1 = sp[sp.usul == "sqrt(d) ga boʻlib"].set_index("d")

rasm, (b1, b2) = plt.subplots(1, 2, figsize=(11, 3.6))
for jadval_, belgi in [(bol0, "o-"), (bol1, "s--")]:
    b1.plot(jadval_.index, jadval_["ball std"], belgi, label=jadval_["usul"].iloc[0])
    b2.plot(jadval_.index, jadval_["eng katta ogʻirlik"], belgi, label=jadval_["usul"].iloc[0])
b1.set_xscale("log", base=2); b1.set_yscale("log")
b1.set_xlabel("d"); b1.set_ylabel("ballarning standart chetlanishi"); b1.legend()
b2.set_xscale("log", base=2); b2.set_ylim(0, 1.02)
b2.set_xlabel("d"); b2.set_ylabel("qatordagi eng katta ogʻirlik"); b2.legend()
for b in (b1, b2):
    b.grid(True, which="both", alpha=0.3)
plt.tight_layout()
fig("sqrt_d.png",
    caption="Ballar va softmax d ga qarab (16 pozitsiya, 64 ta ketma-ketlik). "
            "Chapda: boʻlishsiz ballarning standart chetlanishi d bilan oʻsadi, "
            "sqrt(d) ga boʻlinganda oʻzgarmaydi. Oʻngda: qatordagi eng katta "
            "ogʻirlikning oʻrtachasi.")
glue("sq_var_q", float(bol0["q komponenti dispersiyasi"].mean()), display=False)
glue("sq_std_8", float(bol0.loc[8, "ball std"]), display=False)
glue("sq_std_512", float(bol0.loc[512, "ball std"]), display=False)
glue("sq_std_1024", float(bol0.loc[1024, "ball std"]), display=False)
glue("sq_std_bol_min", float(bol1["ball std"].min()), display=False)
glue("sq_std_bol_max", float(bol1["ball std"].max()), display=False)
glue("sq_max_512", float(bol0.loc[512, "eng katta ogʻirlik"]), display=False)
glue("sq_max_512_min", float(bol0.loc[512, "eng katta (min)"]), display=False)
glue("sq_max_512_bol", float(bol1.loc[512, "eng katta ogʻirlik"]), display=False)

# %% [markdown]
# {numref}`%s-rasmning <sqrt_d>` chap qismida boʻlishsiz ballarning standart
# chetlanishi *d* = 8 da {glue:text}`sq_std_8:.2f`, *d* = 1024 da
# {glue:text}`sq_std_1024:.1f` — $\sqrt{d}$ kabi oʻsadi; $\sqrt{d}$ ga
# boʻlinganda esa hamma *d* da {glue:text}`sq_std_bol_min:.2f` …
# {glue:text}`sq_std_bol_max:.2f` oraligʻida qoladi. Bu son 1 ga teng emas: `nn.Linear`
# ning standart boshlanishida *Q* komponentlarining dispersiyasi 1 emas,
# taxminan {glue:text}`sq_var_q:.2f` (oʻlchandi), shuning uchun ballar
# dispersiyasi $d\,\sigma^4$. Muhimi — boʻlishdan keyin u *d* ga bogʻliq
# emas. Oʻng qismda: boʻlishsiz softmax *d* oʻsgan sari toʻyinadi — ogʻirlik
# bitta elementga toʻplanadi (*d* = 512 da eng katta ogʻirlik oʻrtacha
# {glue:text}`sq_max_512:.2f`), boʻlingani esa ancha tekis
# ({glue:text}`sq_max_512_bol:.2f`).
#
# Ogʻirliklar matritsasining har qatori — bitta pozitsiyaning «eʼtibor
# taqsimoti». Toʻrtinchi bosqich: qiymatlarning shu ogʻirliklar bilan vaznli
# oʻrtachasini olamiz. Har pozitsiyaning chiqishi — hamma pozitsiya
# qiymatlarining vaznli yigʻindisi.

# %%
# (1, T, T) @ (1, T, d) -> (1, T, d)
chiqish = ogirlik @ V
print("4-bosqich: ogʻirliklar bilan V ning vaznli oʻrtachasi "
      f"-> {tuple(chiqish.shape)}")
print()
print("Hammasi bitta qatorda:")
print("  softmax(Q @ K.T / sqrt(d)) @ V")

# %% [markdown]
# Chiqish kirish bilan bir xil shaklda: har pozitsiya uchun yangi vektor.
# Shu toʻrt bosqich — attentionning butun mexanizmi.
#
# ## Kauzal maska: kelajakka qaramaslik
#
# Yuqoridagi misolda har pozitsiya hamma pozitsiyaga qaradi — oʻzidan
# keyingilariga ham. Matn yozadigan model (GPT kabi *dekoder*, ingl. *decoder*) uchun bu
# mumkin emas: u soʻzlarni chapdan oʻngga bittadan yasaydi, keyingi soʻz hali
# yoʻq. Oʻqitishda esa matn toʻliq beriladi va model har pozitsiyada
# keyingi tokenni (soʻz yoki soʻz boʻlagini) taxmin qiladi; agar
# *i*-pozitsiya (*i* + 1)-pozitsiyaga qaray olsa, javobni shunchaki koʻchirib
# oladi. Shuning uchun softmaxdan oldin diagonaldan yuqoridagi ballar
# $-\infty$ bilan almashtiriladi: $e^{-\infty} = 0$, demak u joylarning
# ogʻirligi nol. Bu — **kauzal (sababiy) maska** (*causal mask*):
# *i*-pozitsiya faqat oʻziga va oʻzidan oldingilarga qaraydi.

# %%
# True — yashiriladigan joylar: diagonaldan yuqorisi (j > i)
maska = torch.triu(torch.ones(T_kichik, T_kichik, dtype=torch.bool), diagonal=1)
ogirlik_maskali = torch.softmax(ball_normal.masked_fill(maska, float("-inf")), dim=-1).detach()
print("maska (1 — yashirilgan):")
print(maska.int().numpy())
print("maskali ogʻirliklar:")
print(np.round(ogirlik_maskali[0].detach().numpy(), 3))
print(f"  har qator yigʻindisi: {ogirlik_maskali[0].sum(dim=-1).detach().numpy().round(4)}")
glue("kauzal_yigindi_farq",
     float((ogirlik_maskali[0].sum(dim=-1) - 1).abs().max()), display=False)
glue("kauzal_yuqori", float(ogirlik_maskali[0][maska].abs().max()), display=False)
glue("kauzal_birinchi", float(ogirlik_maskali[0, 0, 0]), display=False)
chiqish_maskali = ogirlik_maskali @ V        # (1, 4, 4) @ (1, 4, d) -> (1, 4, d): attention chiqishi

rasm, panellar = plt.subplots(1, 2, figsize=(8.6, 3.6))
for b, (sarlavha, w_) in zip(panellar, [("maskasiz", ogirlik), ("kauzal maska bilan", ogirlik_maskali)]):
    qiymat = w_[0].detach().numpy()
    tasvir = b.imshow(qiymat, cmap="viridis", vmin=0, vmax=1)
    for i in range(T_kichik):
        for j in range(T_kichik):
            b.text(j, i, son(qiymat[i, j], ".2f"), ha="center", va="center",
                   color="white" if qiymat[i, j] < 0.6 else "black", fontsize=10)
    b.set_title(sarlavha)
    b.set_xlabel("qaralayotgan pozitsiya (kalit)"); b.set_ylabel("soʻrov pozitsiyasi")
    b.set_xticks(range(T_kichik)); b.set_yticks(range(T_kichik))
plt.colorbar(tasvir, ax=panellar, fraction=0.046)
fig("kauzal.png",
    caption="Toʻrt pozitsiyali misolning ogʻirliklari: chapda maskasiz, oʻngda "
            "kauzal maska bilan. Maskadan keyin diagonaldan yuqorisi nol, har "
            "qator yigʻindisi baribir 1.")

# %% [markdown]
# {numref}`%s-rasmning <kauzal>` oʻng qismida diagonaldan yuqoridagi
# ogʻirliklar aniq nol (eng kattasi {glue:text}`kauzal_yuqori:g`), 0-qatorda
# yagona ogʻirlik {glue:text}`kauzal_birinchi:g`: birinchi pozitsiya faqat
# oʻziga qaraydi. Softmax qolgan ballarni qayta normallashtirgani uchun
# har qator yigʻindisi baribir 1 (yuqorida chop etilgan). Maska *V*
# qiymatlarini emas, kimga qarash mumkinligini oʻzgartiradi: chiqish
# (`chiqish_maskali`) oʻsha *V* larning boshqacha vaznli oʻrtachasi.
#
# Matnni tushunadigan model (BERT kabi *koder*, ingl. *encoder*) esa kauzal
# maska ishlatmaydi (faqat gaplarni bir uzunlikka keltirgan toʻldiruvchi
# tokenlar yopiladi): u butun gapni birdan oladi va har soʻzni ikki tomondagi
# soʻzlar yordamida tushunadi — oʻqitishda u gapdagi yashirilgan soʻzlarni
# topishni oʻrganadi, kelajakni taxmin qilmaydi. Kauzal maskaning ikkinchi
# foydasi keyinroq, «KV kesh» boʻlimida koʻrinadi: oldingi pozitsiyalar
# keyingilarni koʻrmagani uchun ularning hisobi yangi token qoʻshilganda
# oʻzgarmaydi.
#
# Endi attentionni RNN bilan solishtiramiz.
#
# ## Vazifa va modellar
#
# Solishtirish uchun ataylab «RNN uchun noqulay» sodda sunʼiy masala olamiz.
# Kirish — uzunligi *T* = 60 boʻlgan tasodifiy sonlar ketma-ketligi. Javob
# (0 yoki 1) faqat **birinchi** elementning ishorasiga bogʻliq; qolgan 59 ta
# element — shovqin. Vazifani yechish uchun model 0-qadamdagi maʼlumotni
# oxirigacha olib borishi kerak. Tasodifiy taxmin 50 % aniqlik beradi.
#
# ```{literalinclude} ../chapter_code/malumot.py
# :pyobject: vazifa
# ```
#
# Ikki rekurrent model: `Ketma("rnn")` va `Ketma("lstm")`. Ikkalasi ham
# ketma-ketlikni oxirigacha oʻqiydi va oxirgi yashirin holatdan javob beradi.
# LSTMning `unutish` parametri — unutish darvozasi (*forget gate*)
# siljishining boshlangʻich qiymati; u nega muhimligini quyida oʻlchaymiz.
#
# ```{literalinclude} ../chapter_code/modellar.py
# :pyobject: Ketma
# ```
#
# Attention modeli yuqoridagi toʻrt bosqichni aynan takrorlaydi. Bu —
# **self-attention** (*oʻz-oʻziga attention*): soʻrov, kalit va qiymat bitta
# ketma-ketlikdan olinadi. Yuqoridagi misoldan farqi ikkita:
# kirish avval *d* = {glue:text}`d_model` oʻlchamga koʻtariladi va unga oʻrganiladigan
# **pozitsiya kodlash** (`self.poz`, har pozitsiyaga bitta vektor) qoʻshiladi;
# oxirida hamma pozitsiyalarning chiqishlari oʻrtalashtirilib, javobga aylanadi.
#
# ```{literalinclude} ../chapter_code/modellar.py
# :pyobject: Attention
# ```

# %% [markdown]
# ## Gradient 0-qadamga yetib boradimi?
#
# Modelni oʻqitishdan oldin oddiy savol qoʻyamiz: yoʻqotish funksiyasining
# gradienti kirishning birinchi va oxirgi qadamiga qanchalik kuchli yetib
# boradi? Gradient — model oʻrganishda tayanadigan signal. Agar 0-qadamga yetib
# boradigan gradient juda kichik boʻlsa, oʻqitish boshida model javob
# aynan oʻsha yerda ekanini sezishi qiyin.
#
# Har model uchun tasodifiy parametrlar (vaznlar) bilan bitta teskari oʻtish
# (*backward pass*: yoʻqotishdan orqaga qarab gradientlarni hisoblash) qilamiz
# va $|\partial L / \partial x_t|$ ni namunalar boʻyicha oʻrtalashtiramiz.

# %%
T = 60
UNUTISH = 3.0      # LSTM unutish darvozasi siljishi (standart boshlanish: ≈ 0)
lstm_u = f"LSTM (unutish = {UNUTISH:g})"
grad_jadval, grad_nisbat = [], {}
for nom, qisqa, yasa in [
        ("RNN", "rnn", partial(Ketma, "rnn")),
        ("LSTM", "lstm", partial(Ketma, "lstm")),
        (lstm_u, "lstm_unutish", partial(Ketma, "lstm", unutish=UNUTISH)),
        ("attention", "attention", partial(Attention, T))]:
    torch.manual_seed(0)
    Xg, yg = vazifa(256, T, 1)
    Xg.requires_grad_(True)
    m = yasa()
    nn.CrossEntropyLoss()(m(Xg), yg).backward()
    # (256, T, 1) -> (T,): har qadamdagi |gradient| ning oʻrtachasi
    g = Xg.grad.abs().mean(dim=(0, 2))
    grad_jadval.append({"model": nom,
                        "0-qadam": son(g[0], ".3e"),
                        f"{T-1}-qadam": son(g[T-1], ".3e"),
                        f"{T-1}-qadam / 0-qadam": son(g[T-1] / g[0], ".2e")})
    grad_nisbat[nom] = float(g[T-1] / g[0])
    glue(f"grad_{qisqa}", grad_nisbat[nom], display=False)
show(pd.DataFrame(grad_jadval),
     izoh=f"Kirishning birinchi va oxirgi qadamiga yetib boradigan "
          f"gradient (T={T}).",
     nom="grad_jadval")

# %% [markdown]
# {numref}`grad_jadval` farqni aniq koʻrsatadi. RNNda oxirgi qadam
# gradienti 0-qadamnikidan {glue:text}`grad_rnn:.1e` marta katta, LSTMda
# {glue:text}`grad_lstm:.1e` marta. Boshqacha aytganda, boshlangʻich
# modelda 0-qadamga deyarli hech narsa yetib bormaydi: signal 59 ta qadamda
# har birida koʻpaytirilib, eksponensial soʻnadi — bu **gradientning soʻnishi**
# (*vanishing gradient*). Attentionda esa nisbat
# {glue:text}`grad_attention:.2f`: birinchi va oxirgi qadam teng huquqli.
# Uchinchi qator ham LSTM, faqat unutish darvozasi siljishi
# {glue:text}`unutish:g` dan boshlangan: unda nisbat atigi
# {glue:text}`grad_lstm_unutish:.2f`. Demak, LSTMdagi soʻnish arxitekturaning
# emas, boshlangʻich qiymatning natijasi — sababini oʻqitishdan keyin
# koʻramiz.
#
# ## Oʻqitish: har model uch seed bilan
#
# Gradient tahlili faqat oʻqitishdan oldingi holatni koʻrsatadi. Haqiqiy savol: modellar vazifani
# oʻrganadimi? Har model bir xil protokol bilan oʻqitiladi: bu — `oqit`
# funksiyasining standart qiymatlari, ularni koddan oʻqiymiz.

# %%
protokol = {nom: p.default for nom, p in inspect.signature(oqit).parameters.items()
            if p.default is not inspect.Parameter.empty}
print("oqit() protokoli:", protokol)
for nom, qiymat in protokol.items():
    glue(f"protokol_{nom}", qiymat, display=False)
d_model = inspect.signature(Attention).parameters["d"].default
glue("d_model", d_model, display=False)

# %% [markdown]
# Yaʼni {glue:text}`protokol_epoxalar` epoxa (*epoch*: oʻquv namunalarining
# hammasidan bir marta oʻtish), {glue:text}`protokol_n` ta oʻquv va
# {glue:text}`protokol_n_sinov` ta sinov namunasi, {glue:text}`protokol_batch`
# talik paketlar (*batch*: parametrlar bir marta yangilanadigan namunalar
# guruhi), Adam optimizatori, oʻrganish tezligi (*learning rate*)
# {glue:text}`protokol_lr`. Bitta natija tasodif boʻlishi mumkin, shuning uchun
# har model uch xil seed (*seed*: tasodifiy sonlar generatorining boshlangʻich
# qiymati; bu yerda u boshlangʻich parametrlarni va paketlar tartibini
# belgilaydi, maʼlumot esa uchala seedda bir xil) bilan oʻqitiladi.
#
# ```{literalinclude} ../chapter_code/oqitish.py
# :pyobject: oqit
# ```
#
# Oʻqitishlar bir-biriga bogʻliq emas, shuning uchun `parallel`
# (`chapter_code/oqitish.py`) ularni har protsessor yadrosida bittadan alohida jarayonda
# yurgizadi. Har oʻqitish oʻz seedini oʻzi oʻrnatadi, shuning uchun natija
# jarayonlar soniga bogʻliq emas. Oʻqitish natijalari (aniqlik va
# vaznlar) diskda saqlanadi va faqat oʻqitish kodi (vazifa, modellar,
# `oqit`) yoki argumentlari oʻzgarganda qayta hisoblanadi
# (`chapter_code/ombor.py`); vaqt va xotira oʻlchovlari esa har safar
# yangidan olinadi.

# %%
glue("unutish", UNUTISH, display=False)
modellar = {
    "RNN": partial(Ketma, "rnn"),
    "LSTM": partial(Ketma, "lstm"),
    lstm_u: partial(Ketma, "lstm", unutish=UNUTISH),
    "attention (+ pozitsiya)": partial(Attention, T),
    "attention (pozitsiyasiz)": partial(Attention, T, pozitsiya=False),
}
seedlar = (0, 1, 2)
ishlar = [(yasa, T, s) for yasa in modellar.values() for s in seedlar]
kalitlar = [(nom, s) for nom in modellar for s in seedlar]
natija = dict(zip(kalitlar, parallel(oqit, ishlar)))   # har model × har seed

# %%
print(f"Tasodifiy javob = 0.50. Har model {len(seedlar)} seed bilan.")
sinov = []
for nom, yasa in modellar.items():
    aniq = [natija[nom, s][0] for s in seedlar]
    sinov.append({"model": nom, "seedlar": "; ".join(son(a, ".3f") for a in aniq),
                  "oʻrtacha": round(float(np.mean(aniq)), 4),
                  "eng yomon": round(min(aniq), 4),
                  "parametrlar soni": parametrlar(yasa())})
show(pd.DataFrame(sinov),
     izoh=f"Sinov aniqligi: {len(modellar)} model, {len(seedlar)} seed.",
     nom="sinov_jadval")
# 3-mashq yechimi: parametrlar formula bilan sanaladi (jadvaldagi son bilan solishtiring)
glue("T_vazifa", T, display=False)
glue("param_formula", 3 * d_model**2 + d_model * (T + 7) + 2, display=False)

# %% [markdown]
# Xulosa chiqarish uchun jadvaldagi sonlarni nomlab olamiz.

# %%
aniqliklar = {nom: [natija[nom, s][0] for s in seedlar] for nom in modellar}
# Seedlar: har seed qanday tugaganini sanaydi — yechdi (≥ 0,9), qisman,
# tasodifiy daraja (< 0,6) — va buni gap bilan aytadi (chapter_code/natijalar.py)
tugadi = {nom: Seedlar(dict(zip(seedlar, aniq))) for nom, aniq in aniqliklar.items()}
for nom, qisqa in [("RNN", "rnn"), ("LSTM", "lstm"), (lstm_u, "lstmu"),
                   ("attention (+ pozitsiya)", "attn"),
                   ("attention (pozitsiyasiz)", "attn0")]:
    glue(f"{qisqa}_seedlar", aniqliklar[nom], display=False)
    glue(f"{qisqa}_min", min(aniqliklar[nom]), display=False)
    glue(f"{qisqa}_max", max(aniqliklar[nom]), display=False)
    glue(f"{qisqa}_orta", float(np.mean(aniqliklar[nom])), display=False)
    glue(f"{qisqa}_jumla", tugadi[nom].jumla(), display=False)
    glue(f"{qisqa}_yomoni", tugadi[nom].eng_yomoni(), display=False)
    glue(f"{qisqa}_yechdi", tugadi[nom].soni("yechdi"), display=False)
glue("seedlar_soni", len(seedlar), display=False)

# LSTM xotirasi har qadamda unutish darvozasiga koʻpaytiriladi: f = sigmoid(... + siljish).
# Boshlanishda (kirish hissasi kichik) f ≈ sigmoid(siljish); T-1 qadamdan keyin f^(T-1).
for nom, siljish in [("standart", 0.0), ("tavsiya", 1.0), ("unutish", UNUTISH),
                     ("katta", 5.0)]:
    f = torch.sigmoid(torch.tensor(siljish)).item()
    print(f"{nom:>9}: sigmoid({siljish:g}) = {f:.3f},  {f:.3f}^{T-1} = {f ** (T-1):.1e}")
    glue(f"f_{nom}", f, display=False)
    glue(f"f_{nom}_T", f ** (T - 1), display=False)

# %% tags=["remove-cell"]
# Matndagi gaplar shu yigʻishning oʻlchovidan tuziladi: boshqa protsessorda
# (boshqa yadrolar, boshqa yaxlitlash) beqaror oʻqitish boshqacha tugashi mumkin.
n_sinov, n_seed = protokol["n_sinov"], len(seedlar)
glue("hisob_muhiti", f"{muhit.protsessor()[0]}, PyTorch koʻrsatmalar toʻplami: "
     f"{torch.backends.cpu.get_cpu_capability()}", display=False)
rnn, lstm, lstmu = tugadi["RNN"], tugadi["LSTM"], tugadi[lstm_u]
rnn_xato = rnn.farq_xatosi(n_sinov)                # eng yaxshi − eng yomon farqining standart xatosi
rnn_sonlar = (f"eng yaxshi seedda {son(max(rnn.aniqlik.values()), '.3f')}, eng yomonida "
              f"{son(min(rnn.aniqlik.values()), '.3f')}")
if rnn.farq > 3 * rnn_xato:
    glue("rnn_gap", f"natijasi seedga bogʻliq: {rnn_sonlar} — farq {son(rnn.farq, '.3f')} tasodifiy "
         f"xatodan katta (bu farqning standart xatosi taxminan {son(rnn_xato, '.3f')})"
         + (". Bitta seed bilan oʻlchaganimizda, qaysi seed tushganiga qarab boshqa-boshqa xulosa "
            "chiqargan boʻlardik" if rnn.aralashmi else ""), display=False)
else:
    glue("rnn_gap", f"natijasi seedga deyarli bogʻliq emas: {rnn_sonlar} — farq "
         f"{son(rnn.farq, '.3f')} tasodifiy xato chegarasida (bu farqning standart xatosi "
         f"taxminan {son(rnn_xato, '.3f')})", display=False)
k0 = rnn.soni("tasodifiy")
if k0 == 0:
    rnn_oqish = (f"Shunga qaramay u {hammasida(n_seed)} tasodifiy taxmindan sezilarli yuqori "
                 "natija berdi: boshidagi kichik gradient bu yerda RNNga toʻsqinlik qilmadi — "
                 "boshlangʻich nisbatning oʻzi natijani oldindan aytib bermaydi.")
elif k0 < n_seed:
    rnn_oqish = (f"U {seeddan(n_seed - k0, n_seed)} tasodifiy taxmindan sezilarli yuqori natija "
                 f"berdi, {nechtasida(k0)} esa tasodifiy taxmin darajasida qoldi: demak "
                 "boshlangʻich nisbatning oʻzi (u bitta boshlanishda oʻlchangan) natijani oldindan "
                 "aytib bermaydi.")
else:
    rnn_oqish = (f"U {hammasida(n_seed)} tasodifiy taxmin darajasida qoldi: ehtimol, gradientning "
                 "soʻnishi oʻrganishga yoʻl bermagan (buni alohida tekshirmadik).")
glue("rnn_oqish", rnn_oqish, display=False)
glue("lstm_gap", ("ishonchsiz: " if lstm.aralashmi else "") + f"{lstm.jumla()} ({lstm.qiymatlar()})",
     display=False)
glue("lstmu_gap", f"{lstmu.jumla()} ({lstmu.qiymatlar()})", display=False)
kd, ku = lstm.soni("yechdi"), lstmu.soni("yechdi")
asos = "Arxitektura bir xil, farq faqat bitta boshlangʻich qiymatda"
eslaydi = max(t.soni("yechdi") for t in (rnn, lstm, lstmu)) > 0   # biror rekurrent model yechdimi
boshi = "rekurrent model uzoq masofani eslay oladi" if eslaydi else \
    "bu yigʻishda rekurrent modellarning hech biri vazifani yechmadi"
if kd == ku == n_seed:
    solishtir = f"{asos} — bu yigʻishda ikkalasi ham hamma seedda yechdi."
    xulosa_gap = f"{boshi}; bu yigʻishda boshlangʻich qiymat natijani oʻzgartirmadi"
elif ku - kd >= 2 or (kd == 0 and ku == n_seed):
    solishtir = f"{asos} — va shu qiymat vazifani yechgan seedlar sonini {kd} dan {ku} ga oshirdi."
    xulosa_gap = f"{boshi} va toʻgʻri boshlash bunga katta yordam beradi"
elif ku - kd == 1:
    solishtir = (f"{asos} — shu qiymat vazifani yechgan seedlar sonini {kd} dan {ku} ga oshirdi; "
                 f"{n_seed} seed bilan bu farq hali aniq emas.")
    xulosa_gap = f"{boshi}; toʻgʻri boshlash bunga yordam berishi mumkin, lekin {n_seed} seed bilan bu aniq emas"
elif ku == kd:
    solishtir = (f"{asos} — lekin bu yigʻishda u vazifani yechgan seedlar sonini oʻzgartirmadi "
                 f"(ikkalasida ham {ku} ta).")
    xulosa_gap = f"{boshi}, lekin uni oʻqitish ishonchsiz: bu yigʻishda boshlangʻich qiymat yordam bermadi"
else:
    solishtir = (f"{asos} — lekin bu yigʻishda u vazifani yechgan seedlar sonini {kd} dan {ku} ga "
                 "kamaytirdi.")
    xulosa_gap = f"{boshi}, lekin uni oʻqitish ishonchsiz: bu yigʻishda boshlangʻich qiymat yordam bermadi"
glue("lstm_solishtir", solishtir, display=False)
glue("lstm_xulosa_gap", xulosa_gap, display=False)
glue("lstm_nega", "Nega unutish siljishi yordam berdi?" if ku > kd else
     "Unutish siljishi nimani oʻzgartiradi?", display=False)
if lstm.aralashmi:
    glue("lstm_kafolat_gap", "kafolat yoʻq: bu yigʻishda ham natija seedga bogʻliq boʻldi", display=False)
elif kd == 0:
    glue("lstm_kafolat_gap", f"bu yigʻishda {hammasida(n_seed)} yenga olmadi, boshqa protsessorda "
         "esa boshqacha tugashi mumkin", display=False)
else:
    glue("lstm_kafolat_gap", f"bu yigʻishda {hammasida(n_seed)} yengdi, lekin bu kafolat emas: "
         "boshqa protsessorda boshqacha tugashi mumkin", display=False)
toxtagan = [s_ for s_ in sorted(lstmu.aniqlik) if s_ not in lstmu.seedlari("yechdi")]
glue("lstmu_toxtagan", f"Bu yigʻishda siljish {son(UNUTISH, 'g')} bilan ham "
     + ", ".join(f"seed {s_} ({son(lstmu.aniqlik[s_], '.3f')})" for s_ in toxtagan)
     + " vazifani yechmadi." if toxtagan else
     f"Bu yigʻishda siljish {son(UNUTISH, 'g')} bilan hamma seed vazifani yechdi.", display=False)
# pozitsiyasiz attention: tartibni koʻrmaydigan eng yaxshi qoida (ishoralar koʻpchiligi) shu sinov
# toʻplamida qancha beradi (oqit ning sinov maʼlumoti: vazifa(n_sinov, T, 2))
X_sinov, y_sinov = vazifa(n_sinov, T, 2)
kop_sinov = ((2 * (X_sinov > 0).sum(dim=(1, 2)) > T).long() == y_sinov).float().mean().item()
attn0_max = max(aniqliklar["attention (pozitsiyasiz)"])
glue("attn0_qoida", kop_sinov, display=False)
glue("attn0_gap", f"tasodifiy darajaga yaqin qoldi (eng yaxshi seedda {son(attn0_max, '.3f')}); "
     f"tartibni koʻrmaydigan eng yaxshi qoida (ishoralar koʻpchiligi, quyida koʻramiz) shu sinov "
     f"namunalarida {son(kop_sinov, '.3f')} beradi"
     if attn0_max < kop_sinov + 0.05 else
     f"kutilmagan natija berdi: eng yaxshi seedda {son(attn0_max, '.3f')}, tartibni koʻrmaydigan "
     f"eng yaxshi qoida esa shu sinov namunalarida {son(kop_sinov, '.3f')} beradi", display=False)
glue("yechdi_chegara", lstm.yechdi_chegara, display=False)
glue("tasodif_chegara", lstm.tasodif_chegara, display=False)
glue("bitta_xato", float(np.sqrt(0.25 / n_sinov)), display=False)

# %% [markdown]
# Agar seedning sinov aniqligi kamida {glue:text}`yechdi_chegara:.1f` boʻlsa, u
# vazifani **yechdi** deymiz; {glue:text}`tasodif_chegara:.1f` dan past boʻlsa —
# **tasodifiy taxmin darajasida qoldi** (tasodifiy javob namunalarning yarmini
# toʻgʻri topadi; {glue:text}`protokol_n_sinov` ta sinov namunasida bitta
# aniqlikning standart xatosi taxminan {glue:text}`bitta_xato:.2f`); oraligʻida
# esa — **qisman oʻrgandi**. {numref}`%s-jadvaldan <sinov_jadval>` toʻrtta xulosa.
#
# - **Pozitsiyali attention** {glue:text}`attn_jumla`
#   ({glue:text}`attn_yomoni`).
# - **RNN** {glue:text}`rnn_gap`. RNNning boshlangʻich gradient
#   nisbati {glue:text}`grad_rnn:.1e` edi. {glue:text}`rnn_oqish`
# - **LSTM** standart boshlanish bilan {glue:text}`lstm_gap`.
# - **Unutish siljishi {glue:text}`unutish:g` boʻlgan LSTM**
#   {glue:text}`lstmu_gap`. {glue:text}`lstm_solishtir`
#
# {glue:text}`lstm_nega` LSTMning xotira hujayrasi har qadamda unutish darvozasi
# $f_t = \sigma(W x_t + U h_{t-1} + b_f)$ ga koʻpaytiriladi. PyTorch $b_f$ ni
# ikki kichik tasodifiy sonning yigʻindisi sifatida, nol atrofida
# boshlaydi, kirish hissasi ham boshida kichik; shuning uchun boshida
# $f_t \approx \sigma(0)$ = {glue:text}`f_standart:.2f` va 59 qadamdan
# keyin 0-qadamdagi maʼlumotning taxminan {glue:text}`f_standart_T:.0e`
# qismigina qoladi (bu sodda baho: haqiqiy darvozalar $\sigma(0)$ atrofida biroz
# farq qiladi, natija baribir juda kichik). Gradient esa faqat shu yoʻl
# bilan oqmaydi: *h* orqali oʻtadigan yoʻllar bu yerda sekinroq soʻnadi va
# 0-qadam gradientining deyarli hammasini ular olib keladi, shuning uchun
# {numref}`%s-jadvaldagi <grad_jadval>` nisbat ({glue:text}`grad_lstm:.1e`) bu sodda
# baho aytadigandan bir necha tartib kichik.
# $b_f$ = {glue:text}`unutish:g` da $\sigma(b_f)$ =
# {glue:text}`f_unutish:.3f` va 59 qadamdan keyin
# {glue:text}`f_unutish_T:.2f` qismi qoladi: model 0-qadamni boshidanoq
# «eslaydi». Standart boshlanishda esa oʻqitish bu soʻnishni yengishi ham,
# yenga olmasligi ham mumkin: {glue:text}`lstm_kafolat_gap`. Unutish darvozasini Gers, Schmidhuber va Cummins (2000)
# kiritgan; Jozefowicz, Zaremba va Sutskever (2015) uning siljishini 1 yoki
# 2 kabi katta qiymatdan boshlash kerakligini eslatib, har bir LSTMda 1
# dan boshlashni tavsiya qiladi. *T* = 60 boʻlgan vazifamizda boshlangʻich baho boʻyicha 1 yetmaydi:
# $\sigma(1)^{59}$ = {glue:text}`f_tavsiya_T:.0e` (6-mashqda oʻzingiz
# sinab koʻring); biz {glue:text}`unutish:g` ni oldik. Bu ham kafolat emas:
# baho faqat oʻqitish boshidagi holatni tasvirlaydi, qanday tugashini esa
# oʻqitishning oʻzi hal qiladi. Xulosa: {glue:text}`lstm_xulosa_gap`;
# attentionda esa bu masofa boshidanoq bitta bogʻlanish.
#
# Bu natijalar kitob yigʻilgan protsessorda oʻlchandi ({glue:text}`hisob_muhiti`).
# Bir xil kod va seed bitta mashinada odatda aynan bir xil natija beradi (bu
# kitobda buni test tekshiradi: bob ikki marta bajarilib, natijalar
# solishtiriladi). Boshqa protsessorda esa kutubxonalar boshqa hisob
# yadrolarini tanlaydi, qoʻshishlar tartibi va yaxlitlash oʻzgaradi, va
# beqaror oʻqitish boshqacha tugashi mumkin. Shuning uchun yuqoridagi gaplar
# har yigʻishda oʻlchovdan tuziladi.
#
# Pozitsiyasiz attention {glue:text}`attn0_gap`. Nega — keyingi boʻlimda.
#
# ## Pozitsiya kodlashsiz attention tartibni koʻrmaydi
#
# Attention formulasida pozitsiya raqami hech qayerda yoʻq. Agar kirish
# qatorlarini aralashtirsak, ballar matritsasining qatorlari va ustunlari
# xuddi shunday aralashadi, softmax va oʻrtacha esa tartibga qaramaydi.
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

print("Pozitsiya kodlashsiz attention — kirishni aralashtirib koʻramiz:")
print(f"  asl chiqish[0]     : {asl[0].numpy().round(5)}")
print(f"  aralash chiqish[0] : {aralash[0].numpy().round(5)}")
aralash_farq = float((asl - aralash).abs().max())
print(f"  maksimal farq      : {aralash_farq:.2e}")
print()
print("Chiqish oʻzgarmadi. "
      "Demak, model uchun ketma-ketlik — TARTIBSIZ TOʻPLAM.")
print("U «birinchi element» degan tushunchaga ega emas, "
      "shuning uchun vazifani yecha olmaydi.")
glue("aralash_farq", aralash_farq, display=False)

# %% [markdown]
# Maksimal farq {glue:text}`aralash_farq:.1e` — bu float32 (32 bitli kasr son
# formati) hisobining
# yaxlitlash xatosi darajasi, yaʼni chiqish amalda bir xil. Model uchun
# «birinchi element» degan tushuncha yoʻq, shuning uchun
# {numref}`%s-jadvalda <sinov_jadval>` pozitsiyasiz attention vazifani yecha olmadi.
#
# Yechim — **pozitsiya kodlash**: har pozitsiyaga oʻz vektori qoʻshiladi
# (`hh + self.poz`). Endi 0-qadamdagi son boshqa qadamdagi xuddi shunday
# sondan farq qiladi. Modelimizda bu vektorlar oʻrganiladi; asl
# Transformer maqolasida ular sinus va kosinuslardan yasalgan.
#
# ## Oʻqitilgan model qayerga qaraydi
#
# Attention ogʻirliklari modelning «qayerga qarayotganini» bevosita
# koʻrsatadi. {numref}`%s-jadvaldagi <sinov_jadval>` pozitsiyali modellardan
# sinovda eng yaxshi natija bergani (teng boʻlsa — birinchisi), seed
# {glue:text}`attn_seed` bilan oʻqitilganini olamiz (uni qayta oʻqitmaymiz) va yangi 200 ta namunada
# ogʻirliklarni oʻrtalashtiramiz.

# %%
attn_seed = tugadi["attention (+ pozitsiya)"].eng_yaxshi      # sinovda eng yaxshi seed
aniqlik, model = natija["attention (+ pozitsiya)", attn_seed]
Xv, _ = vazifa(200, T, 2)
with torch.no_grad():
    model(Xv)
w = model.ogirlik.mean(dim=(0, 1)).numpy()       # (200, T, T) -> (T,)

print(f"Oʻqitilgan attention modelining (seed {attn_seed}) aniqligi: {aniqlik:.4f}")
print()
print(f"0-qadamga berilgan oʻrtacha eʼtibor   : {w[0]:.4f}")
print(f"Qolgan {T-1} qadamning oʻrtachasi      : {w[1:].mean():.6f}")
print(f"Eng koʻp eʼtibor olgan qadam        : {int(w.argmax())}")
qaraydi0 = int(w.argmax()) == 0 and w[0] > 0.5      # eʼtiborning koʻpi 0-qadamdami
if qaraydi0:
    print()
    print("Model oʻzi topdi: javob BIRINCHI qadamda. "
          "Biz bunga hech qanday koʻrsatma bermadik.")
glue("attn_seed", attn_seed, display=False)
glue("qadam0", float(w[0]), display=False)
glue("qolgan_orta", float(w[1:].mean()), display=False)
glue("eng_kop_qadam", int(w.argmax()), display=False)

# %% tags=["remove-cell"]
glue("qadam0_gap", "Modelga javob qayerdaligini hech kim aytmagan: u buni gradient orqali oʻzi topdi."
     if qaraydi0 else "Demak, bu model javobni faqat 0-qadamdan olmayapti: eʼtiborning "
     "koʻp qismi boshqa qadamlarga ketadi.", display=False)
# rasmning oʻng qismi — bitta namuna: uning har soʻrov qadami 0-qadamga koʻp ogʻirlik beradimi
bir_namuna0 = float(model.ogirlik[0][:, 0].min())
glue("bir_namuna0", bir_namuna0, display=False)
glue("qadam0_rasm_gap", "chap qismida bitta ustun qolganlaridan ancha baland; oʻng qismida "
     "matritsaning chap ustuni yorqin: har bir soʻrov qadami 0-qadamga qaraydi"
     if qaraydi0 and bir_namuna0 > 0.5 else
     "chap qismida 0-qadam ustuni eng baland, lekin oʻng qismidagi namunada hamma soʻrov "
     "qadami ham 0-qadamga koʻp qaramaydi" if qaraydi0 else
     "eʼtibor 0-qadamga toʻplanmagan: u boshqa qadamlarga ham tarqalgan", display=False)

# %% [markdown]
# Oʻrtacha eʼtiborning {glue:text}`qadam0:.1%` qismi 0-qadamga tushadi,
# qolgan qadamlarning har biriga oʻrtacha {glue:text}`qolgan_orta:.1e`.
# {glue:text}`qadam0_gap` Xuddi shu ogʻirliklar {numref}`%s-rasmda <attention_ogirligi>`.

# %%
rasm, (b1, b2) = plt.subplots(1, 2, figsize=(11, 3.6),
                              gridspec_kw={"width_ratios": [1.15, 1]})
b1.bar(np.arange(T), w, color="#1a73e8")
b1.set_xlabel("ketma-ketlik qadami"); b1.set_ylabel("ogʻirlik")
tasvir = b2.imshow(model.ogirlik[0].numpy(), cmap="viridis", aspect="auto")
b2.set_xlabel("qaralayotgan qadam"); b2.set_ylabel("soʻrov qadami")
plt.colorbar(tasvir, ax=b2, fraction=0.046)
plt.tight_layout()
fig("attention_ogirligi.png",
    caption=f"Chapda: har qadamga berilgan oʻrtacha eʼtibor (seed {attn_seed}); "
            f"eʼtiborning {foiz(w[0], 1)} qismi 0-qadamga tushgan. Oʻngda: bitta namunaning "
            "attention matritsasi; chap ustun — har soʻrov qadami 0-qadamga bergan ogʻirlik.")

# %% [markdown]
# {numref}`%s-rasmning <attention_ogirligi>` {glue:text}`qadam0_rasm_gap`. Attention ogʻirliklari modelni
# tushuntirishning eng oddiy vositasi, lekin ehtiyot boʻling: koʻp qatlamli
# modellarda ogʻirlik va «sabab» har doim ham bir narsa emas.

# %% [markdown]
# (pozitsiyalar_uzunroq)=
# ## Pozitsiyalar uzunroq ketma-ketlikda
#
# Modelimizdagi pozitsiya vektorlari oʻrganiladi va ularning soni qatʼiy:
# `Attention(60)` da aniq 60 ta, 0-pozitsiyadan 59-pozitsiyagacha. Qisqaroq
# ketma-ketlikda model ularning boshidagilarini oladi (`self.poz[:, :T]`).
# Uzunroq ketma-ketlikda esa 60-pozitsiya va undan keyingilar uchun vektor
# umuman yoʻq.
#
# Asl Transformer maqolasida (Vaswani va boshq., 2017) pozitsiya vektorlari
# oʻrganilmaydi, balki formula bilan hisoblanadi. Bu —
# **sinusoidal pozitsiya kodlash** (*sinusoidal positional encoding*).
# *p*-pozitsiya vektorining juft va toq komponentlari:
#
# $$
# \mathrm{PE}[p, 2i] = \sin\!\left(\frac{p}{10000^{2i/d}}\right), \qquad
# \mathrm{PE}[p, 2i+1] = \cos\!\left(\frac{p}{10000^{2i/d}}\right).
# $$
#
# Bu yerda *d* — vektor oʻlchami, *i* — komponentlar juftligining raqami
# ($i = 0, 1, \dots, d/2 - 1$). Har juftlik — oʻz chastotasidagi toʻlqin:
# $i = 0$ juftlik har $2\pi$ pozitsiyada bir marta takrorlanadi, keyingilari
# tobora sekinroq tebranadi. Formulada *T* yoʻq: vektorni istalgan
# pozitsiya uchun hisoblash mumkin. Kodda buni `sinus_pozitsiya` qiladi,
# `Attention(T, pozitsiya="sinus")` esa natijani kirishga qoʻshadi
# (yuqoridagi `Attention` kodining `elif self.sinus` qatori).
#
# ```{literalinclude} ../chapter_code/modellar.py
# :pyobject: sinus_pozitsiya
# ```
#
# Matritsani modelimiz oʻlchami *d* = {glue:text}`d_model` va
# {glue:text}`poz_T_rasm` ta pozitsiya uchun chizamiz
# ({numref}`sinus_pozitsiya`). Yonida — ikki pozitsiya vektorining
# **kosinus oʻxshashligi** (*cosine similarity*, vektorlar orasidagi
# burchak kosinusi: 1 — yoʻnalishi bir xil), ular orasidagi masofaga qarab.

# %%
poz_T_rasm = 128
pe = sinus_pozitsiya(poz_T_rasm, d_model)                  # (128, d): qator — pozitsiya
# har pozitsiyaning 0-pozitsiya bilan kosinus oʻxshashligi: (128, d), (1, d) -> (128,)
oxshash = torch.nn.functional.cosine_similarity(pe, pe[:1], dim=1)
# skalyar koʻpaytma faqat masofaga bogʻliqmi? 5 va 25, 50 va 70: masofa ikkalasida 20
print(f"PE[5]·PE[25] = {pe[5] @ pe[25]:.4f},  PE[50]·PE[70] = {pe[50] @ pe[70]:.4f}")
glue("poz_T_rasm", poz_T_rasm, display=False)
glue("poz_oxshash_1", oxshash[1].item(), display=False)
glue("poz_oxshash_uzoq", oxshash[10:].max().item(), display=False)
davr = 2 * np.pi * 10000 ** ((d_model - 2) / d_model)     # oxirgi juftlik: i = d/2 - 1
glue("poz_davr_max", davr, display=False)

# %%
rasm, (b1, b2) = plt.subplots(1, 2, figsize=(11, 3.6), gridspec_kw={"width_ratios": [1.6, 1]})
tasvir = b1.imshow(pe.T.numpy(), cmap="RdBu_r", vmin=-1, vmax=1, aspect="auto")
b1.set_xlabel("pozitsiya p"); b1.set_ylabel("komponent")
plt.colorbar(tasvir, ax=b1, fraction=0.046, ticks=[-1, 0, 1])
b2.plot(np.arange(poz_T_rasm), oxshash.numpy(), color="#1a73e8")
b2.set_xlabel("masofa (pozitsiya)"); b2.set_ylabel("kosinus oʻxshashligi")
b2.grid(True, alpha=0.3)
plt.tight_layout()
fig("sinus_pozitsiya.png",
    caption=f"Chapda: sinusoidal pozitsiya kodlash, {poz_T_rasm} pozitsiya × {d_model} "
            "komponent (qizil — +1, koʻk — −1). Oʻngda: ikki pozitsiya vektorining "
            "kosinus oʻxshashligi, ular orasidagi masofaga qarab.")

# %% [markdown]
# {numref}`%s-rasmning <sinus_pozitsiya>` chap qismida har ustun — bitta
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
# Oʻng qismda: qoʻshni pozitsiyalar vektorlari juda oʻxshash (kosinus
# oʻxshashligi {glue:text}`poz_oxshash_1:.3f`). Masofa oshgani sari oʻxshashlik
# kamayadi, lekin tekis emas: toʻlqinlar goh mos tushadi, goh yoʻq. 10 va
# undan katta masofada u {glue:text}`poz_oxshash_uzoq:.2f` dan oshmadi. Kod
# chiqargan ikki son esa yana bir xossani koʻrsatadi: skalyar koʻpaytma
# faqat masofaga bogʻliq, pozitsiyalarning oʻziga emas. Sababi —
# $\sin a \sin b + \cos a \cos b = \cos(a - b)$.
#
# Endi asosiy savol: *T* = 60 da oʻqitilgan model uzunroq ketma-ketlikda
# ishlaydimi? Bu xossa **uzunlikka umumlashtirish** (*length
# generalisation*) deyiladi. `Attention(60, pozitsiya="sinus")` ni bobning
# protokoli bilan (`oqit` ning standart qiymatlari) ikkita seed bilan
# oʻqitamiz: seed 0 — asosiy model, seed 1 — natija seedga qanchalik
# bogʻliqligini koʻrish uchun (ikkalasi ikki yadroda bir vaqtda oʻqitiladi). Yonida — {numref}`%s-jadvaldagi <sinov_jadval>`
# oʻrganiladigan pozitsiyali model (seed 0). U omborda saqlangan, `parallel`
# uni qayta oʻqitmaydi.

# %%
poz_seedlar = (0, 1)
poz_ishlar = ([(partial(Attention, T, pozitsiya="sinus"), T, s) for s in poz_seedlar]   # yangi
              + [(partial(Attention, T), T, 0)])                   # bobdagi, ombordan
*sinuslar, (org_aniq, m_organ) = parallel(oqit, poz_ishlar)
m_sinus = sinuslar[0][1]                        # asosiy sinusoidal model: seed 0
print(f"T = {T} dagi sinov aniqligi: sinusoidal "
      + ", ".join(f"seed {s} — {a:.3f}" for s, (a, _) in zip(poz_seedlar, sinuslar))
      + f"; oʻrganiladigan (seed 0) {org_aniq:.3f}")

# %% tags=["remove-cell"]
poz_tugadi = Seedlar({s: a for s, (a, _) in zip(poz_seedlar, sinuslar)})
glue("poz_oqit_sin", [a for a, _ in sinuslar], display=False)        # oqit ning sinov aniqliklari
glue("poz_oqit_org", org_aniq, display=False)
glue("poz_oqitish_gap", "Oʻqitish uzunligida uchala model ham (ikki sinusoidal va oʻrganiladigan) "
     "vazifani yechdi." if poz_tugadi.soni("yechdi") == poz_tugadi.n
     and org_aniq >= poz_tugadi.yechdi_chegara else
     f"Oʻqitish uzunligida sinusoidal model {poz_tugadi.jumla()} ({poz_tugadi.qiymatlar()}); "
     f"oʻrganiladigan pozitsiyali modelning aniqligi {son(org_aniq, '.3f')}.", display=False)

# %% [markdown]
# {glue:text}`poz_oqitish_gap` Endi har bir
# *T* = {glue:text}`poz_Tlar_matn` uchun yangi sinov maʼlumotini yasaymiz
# ({glue:text}`poz_n` ta namuna; seed oʻqitishda ishlatilmagan) va
# modellarni baholaymiz. Sinusoidal model uchun har soʻrov 0-qadamga bergan
# oʻrtacha ogʻirlikni ham yozib olamiz: model javobni aynan 0-qadamdan
# olayotganini shu koʻrsatadi.
#
# Solishtirish uchun pozitsiyani umuman bilmaydigan ikki qoida ham bor.
# Tartibni koʻrmaydigan model faqat sonlar toʻplamini biladi. Toʻplam
# berilsa, birinchi element ulardan istalgani boʻlishi mumkin, hammasi bir
# xil ehtimol bilan. Demak, $x_0 > 0$ boʻlish ehtimoli — toʻplamdagi musbat
# sonlar ulushi. Shuning uchun tartibni bilmaydigan qoidalar ichida eng yaxshisi —
# **ishoralar koʻpchiligi**: musbat sonlar koʻp boʻlsa, javob 1. Ikkinchi
# qoida — yigʻindining ishorasi, $\mathrm{sign}(\sum_t x_t)$: u ham tartibga
# qaramaydi, lekin nazariy jihatdan biroz kuchsizroq. Model bu qoidalardan
# yuqori boʻlsa, u pozitsiyani ishlatayotgan boʻladi.

# %%
def poz_baho(m, X, y, bolak=250):
    # aniqlik va soʻrovlarning 0-qadamga oʻrtacha ogʻirligi;
    # boʻlaklab: (2000, 240, 240) matritsa birdaniga 460 MB boʻlardi
    togri, w0 = 0, 0.0
    with torch.no_grad():
        for i in range(0, len(X), bolak):
            togri += (m(X[i:i + bolak]).argmax(1) == y[i:i + bolak]).sum().item()
            w0 += m.ogirlik[:, :, 0].sum().item()   # (bolak, T, T) -> (bolak, T): 0-kalit ustuni
    return togri / len(X), w0 / (len(X) * X.shape[1])

# %%
poz_Tlar, poz_n = [30, 60, 120, 240], 2000
poz_aniq = {"sinusoidal": {}, "sinusoidal, seed 1": {},
            "oʻrganiladigan": {}, "ishoralar koʻpchiligi": {}, "sign(Σx)": {}}
poz_etibor = {}
for Tx in poz_Tlar:
    Xp, yp = vazifa(poz_n, Tx, 4)             # oʻqitish seed 1, sinov seed 2 bilan edi
    poz_aniq["sinusoidal"][Tx], poz_etibor[Tx] = poz_baho(m_sinus, Xp, yp)
    for s in poz_seedlar[1:]:
        poz_aniq[f"sinusoidal, seed {s}"][Tx] = poz_baho(sinuslar[s][1], Xp, yp)[0]
    if Tx <= m_organ.poz.shape[1]:              # oʻrganiladigan vektorlar bor joyda
        poz_aniq["oʻrganiladigan"][Tx] = poz_baho(m_organ, Xp, yp)[0]
    musbat = (Xp > 0).sum(dim=(1, 2))          # (n, T, 1) -> (n,): musbat sonlar soni
    poz_aniq["ishoralar koʻpchiligi"][Tx] = ((2 * musbat > Tx).long() == yp).float().mean().item()
    poz_aniq["sign(Σx)"][Tx] = ((Xp.sum(dim=(1, 2)) > 0).long() == yp).float().mean().item()

# %% [markdown]
# Natijalar {numref}`%s-jadvalda <poz_jadval>`.

# %%
poz_jadval = pd.DataFrame(
    [{"model yoki qoida": nom, **{f"T = {Tx}": round(q[Tx], 3) if Tx in q else "vektor yoʻq"
                                  for Tx in poz_Tlar}}
     for nom, q in poz_aniq.items()])
show(poz_jadval,
     izoh=f"Aniqlik turli uzunlikdagi yangi sinov maʼlumotida (har T da {poz_n} ta namuna). "
          f"Hamma model T = {T} da oʻqitilgan (seed koʻrsatilmagani — seed 0); pastki "
          "ikki qator — pozitsiyani bilmaydigan qoidalar.",
     nom="poz_jadval")
print(f"oʻrganiladigan model: self.poz shakli {tuple(m_organ.poz.shape)} — faqat "
      f"0…{m_organ.poz.shape[1] - 1}-pozitsiyalar uchun vektor bor")
print("sinusoidal model, 0-qadamga oʻrtacha ogʻirlik:",
      ", ".join(f"T = {Tx}: {poz_etibor[Tx]:.4f}" for Tx in poz_Tlar))

# %%
glue("poz_Tlar_matn", ", ".join(map(str, poz_Tlar[:-1])) + f" va {poz_Tlar[-1]}", display=False)
glue("poz_n", poz_n, display=False)
glue("poz_T_max", poz_Tlar[-1], display=False)
glue("poz_org_T", m_organ.poz.shape[1], display=False)
for nom, qisqa in [("sinusoidal", "sin"), ("sinusoidal, seed 1", "sin1"),
                   ("oʻrganiladigan", "org"),
                   ("ishoralar koʻpchiligi", "kop"), ("sign(Σx)", "yig")]:
    for Tx, a in poz_aniq[nom].items():
        glue(f"poz_{qisqa}_{Tx}", a, display=False)
sin_q = list(poz_aniq["sinusoidal"].values())
sin_farq = max(sin_q) - min(sin_q)
# bitta aniqlikning standart xatosi: sqrt(p(1 - p) / n)
sin_xato = float(np.sqrt(np.mean(sin_q) * (1 - np.mean(sin_q)) / poz_n))
glue("poz_sin_farq", sin_farq, display=False)
glue("poz_xato", sin_xato, display=False)
farq_xato = float(np.sqrt(2) * sin_xato)        # ikki aniqlik farqining standart xatosi
glue("poz_farq_soz", "tasodifiy xato chegarasida" if sin_farq <= 3 * farq_xato
     else "tasodifiy xatodan kattaroq", display=False)
glue("poz_farq_xato", farq_xato, display=False)
glue("poz_qoida_max", max(max(poz_aniq[q].values())
                               for q in ("ishoralar koʻpchiligi", "sign(Σx)")), display=False)
glue("poz_etibor_min", min(poz_etibor.values()), display=False)

# %% tags=["remove-cell"]
# gaplar oʻlchovdan: «ishladi» — aniqlik kamida 0,9 (Seedlar.yechdi_chegara); «yomonlashdi» —
# oʻqitish uzunligida (T = 60) ishlagan, bu T da esa yoʻq
ishladi = lambda a: a >= poz_tugadi.yechdi_chegara
Tmax = poz_Tlar[-1]


def holat(nom, Tx):
    q = poz_aniq[nom]
    return "ishladi" if ishladi(q[Tx]) else "yomonlashdi" if ishladi(q[T]) else "ishlamadi"


h0, h1 = holat("sinusoidal", Tmax), holat("sinusoidal, seed 1", Tmax)
glue("poz_sin_soz", {"ishladi": "ham ishladi", "yomonlashdi": "yomonlashdi",
                     "ishlamadi": "ham ishlamadi (oʻqitish uzunligida ham yechmagan edi)"}[h0], display=False)
glue("poz_sin1_soz", ("ham " if (h1 == "ishladi") == (h0 == "ishladi") else "esa ")
     + {"ishladi": "ishladi", "yomonlashdi": "yomonlashdi", "ishlamadi": "ishlamadi"}[h1], display=False)
glue("poz_org_soz", {"ishladi": "ham ishladi", "yomonlashdi": "yomonlashdi",
                     "ishlamadi": "ishlamadi"}[holat("oʻrganiladigan", 30)], display=False)
keyingi = [Tx for Tx in poz_Tlar if Tx > T]           # oʻqitishda koʻrilmagan pozitsiyalari bor uzunliklar
if not ishladi(poz_aniq["sinusoidal"][T]):
    glue("poz_chalgitmadi", "Bu model oʻqitish uzunligida ham vazifani yechmagan, shuning uchun "
         "uzunroq ketma-ketlik haqida undan xulosa chiqarib boʻlmaydi.", display=False)
else:
    glue("poz_chalgitmadi", f"Model oʻqitishda {T}-pozitsiya va undan keyingilarini hech koʻrmagan, "
         + ("lekin ular uni chalgʻitmadi." if all(ishladi(poz_aniq["sinusoidal"][Tx]) for Tx in keyingi)
            else "va ular uni chalgʻitdi."), display=False)
sinus_nomlar = [n_ for n_ in poz_aniq if n_.startswith("sinus")]
sin_hammasi = all(ishladi(poz_aniq[n_][Tx]) for n_ in sinus_nomlar for Tx in poz_Tlar)
modellar_min = min(a for n_ in sinus_nomlar + ["oʻrganiladigan"] for a in poz_aniq[n_].values())
glue("poz_modellar_min", modellar_min, display=False)
qoida_max = max(max(poz_aniq[q].values()) for q in ("ishoralar koʻpchiligi", "sign(Σx)"))
glue("poz_qoida_gap", "Hamma model ulardan ancha yuqori — ular pozitsiyani ishlatmoqda."
     if modellar_min > qoida_max + 0.1 else
     f"Modellar esa har doim ham ulardan ancha yuqori emas: eng past aniqlik "
     f"{son(modellar_min, '.3f')}.", display=False)
glue("poz_xavf_gap", "Ogʻirlik 0-qadamda qolgani uchun bu uzunliklarda ikkalasi ham sezilmadi."
     if min(poz_etibor.values()) > 0.9 else
     f"Bu uzunliklarda 0-qadam ulushi {son(min(poz_etibor.values()), '.3f')} gacha tushdi: "
     "xavf sezildi.", display=False)
glue("poz_nega", "Nega bu ishladi?" if sin_hammasi else "Nega bu har doim ishlamaydi?", display=False)
glue("poz_yaxshi_gap", f"Bizning vazifamizda faqat bitta pozitsiya muhim, shuning uchun T = "
     f"{Tmax} gacha natija bunchalik yaxshi." if sin_hammasi else
     "Bizning vazifamizda faqat bitta pozitsiya muhim, lekin shunda ham natija har doim yaxshi "
     "chiqmadi.", display=False)

# %% [markdown]
# {numref}`%s-jadvaldan <poz_jadval>` uchta xulosa.
#
# - **Sinusoidal model** *T* = {glue:text}`poz_T_max` da {glue:text}`poz_sin_soz`:
#   aniqlik {glue:text}`poz_sin_240:.3f` (*T* = 60 da {glue:text}`poz_sin_60:.3f`).
#   Toʻrt uzunlikdagi eng katta va eng kichik aniqlik farqi
#   {glue:text}`poz_sin_farq:.3f` — bu {glue:text}`poz_farq_soz` (ikki
#   aniqlik farqining standart xatosi taxminan {glue:text}`poz_farq_xato:.3f`).
#   {glue:text}`poz_chalgitmadi` Seed 1 bilan oʻqitilgan model *T* =
#   {glue:text}`poz_T_max` da {glue:text}`poz_sin1_soz`: {glue:text}`poz_sin1_240:.3f`.
# - **Oʻrganiladigan model** *T* = 30 da {glue:text}`poz_org_soz`
#   ({glue:text}`poz_org_30:.3f`): qisqa ketma-ketlikda u faqat birinchi 30 ta
#   vektorini oladi. *T* = 120 va 240 da esa uni ishga tushirib boʻlmaydi:
#   {glue:text}`poz_org_T`-pozitsiyadan boshlab uning qoʻshadigan vektori yoʻq,
#   `forward` `ValueError` bilan toʻxtaydi.
# - **Tartibni bilmaydigan qoidalar** hech bir *T* da {glue:text}`poz_qoida_max:.3f` dan
#   oshmadi. Nazariy jihatdan ular *T* oshgan sari tasodifiy taxmin
#   darajasiga (50 %) yaqinlashadi: uzunroq ketma-ketlikda birinchi sonning
#   toʻplamdagi hissasi kichrayadi. {glue:text}`poz_qoida_gap`
#
# Sinusoidal model (seed 0) qayerga qarayotganini ogʻirliklar koʻrsatadi:
# har *T* da soʻrovlar 0-qadamga oʻrtacha kamida
# {glue:text}`poz_etibor_min:.3f` ogʻirlik berdi. Uzunroq ketma-ketlikda
# ikki xavf bor. Birinchisi — softmaxning suyulishi
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
poz_T_uzun = 960
Xu, _ = vazifa(100, poz_T_uzun, 4)
beshliklar = []                                # har seedda eng koʻp ogʻirlik olgan 5 pozitsiya
uzun_0qadam = {}                               # har seedda 0-qadam ogʻirligi
for s, (_, m_s) in zip(poz_seedlar, sinuslar):
    ogir_s = torch.zeros(poz_T_uzun)           # har kalitga oʻrtacha ogʻirlik
    with torch.no_grad():
        for i in range(0, len(Xu), 25):       # 25 ta namuna: (25, 960, 960) matritsa ≈ 90 MB
            m_s(Xu[i:i + 25])
            ogir_s += m_s.ogirlik.sum(dim=(0, 1))   # (25, 960, 960) -> (960,)
    ogir_s /= len(Xu) * poz_T_uzun            # har soʻrov qatorining yigʻindisi 1
    eng_kop_s = ogir_s[1:].argsort(descending=True)[:5] + 1
    beshliklar.append(set(eng_kop_s.tolist()))
    print(f"seed {s}: 0-qadam {ogir_s[0]:.3f};  1…{T - 1}: {ogir_s[1:T].sum():.3f};  "
          f"{T}…{poz_T_uzun - 1} (oʻqitishda yoʻq): {ogir_s[T:].sum():.3f}")
    print("        eng koʻp ogʻirlik olgan boshqa pozitsiyalar:",
          ", ".join(f"{p} ({ogir_s[p]:.3f})" for p in eng_kop_s.tolist()))
    uzun_0qadam[s] = ogir_s[0].item()
    glue(f"poz_etibor_uzun_{s}", uzun_0qadam[s], display=False)
    if s == 0:
        ogir, eng_kop = ogir_s, eng_kop_s      # asosiy model (seed 0)
umumiy = sorted(set.intersection(*beshliklar))
glue("poz_umumiy", ", ".join(map(str, umumiy)) or "hech qaysi", display=False)
umumiy_matn = (", ".join(map(str, umumiy[:-1])) + " va " if len(umumiy) > 1 else "") + str(umumiy[-1]) \
    if umumiy else ""
glue("poz_umumiy_jumla",
     f"qisman bir xil: har modelda eng koʻp ogʻirlik olgan beshta pozitsiyadan {umumiy_matn} "
     "ikkalasida ham bor. Koʻrinishidan, qaysi pozitsiyalar 0-pozitsiyaga «oʻxshab» qolishini "
     "kodlash vektorlarining oʻzi belgilaydi"
     + (", qanchalik kuchli adashishni esa oʻqitilgan model (seed) belgilaydi"
        if abs(uzun_0qadam[1] - uzun_0qadam[0]) > 0.1 else "") if umumiy else
     "ikkala modelda har xil: eng koʻp ogʻirlik olgan beshta pozitsiyadan hech biri ikkalasida "
     "birga uchramadi", display=False)
glue("poz_umumiy_soni", len(umumiy), display=False)
glue("poz_T_uzun", poz_T_uzun, display=False)
glue("poz_etibor_uzun", ogir[0].item(), display=False)
glue("poz_yangi_ulush", float(ogir[T:].sum() / (1 - ogir[0])), display=False)
glue("poz_top", ", ".join(map(str, eng_kop[:3].tolist())), display=False)
top_ulush = float(ogir[eng_kop].sum() / (1 - ogir[0]))   # 0-qadamdan qochgan ogʻirlikdan beshtasiniki
glue("poz_top_ulush", top_ulush, display=False)

# %% tags=["remove-cell"]
qolgan_soni = poz_T_uzun - 1                        # 0-qadamdan boshqa pozitsiyalar
tekis_ulush = len(eng_kop) / qolgan_soni           # bir tekis boʻlinsa beshta pozitsiya ulushi
hammasi_yangi = all(p_ >= T for p_ in eng_kop.tolist())    # beshtasi ham oʻqitishda boʻlmaganmi
eng_kattalari = ", ".join(map(str, eng_kop[:3].tolist()))
if top_ulush > 10 * tekis_ulush:
    glue("poz_uzun_gap", f"va bir tekis emas: atigi beshta pozitsiya 0-qadamdan qochgan "
         f"ogʻirlikning {foiz(top_ulush)} qismini oldi (eng kattalari — {eng_kattalari}-pozitsiyalar). "
         f"Bu oddiy suyulish emas: unda ogʻirlik qolgan {qolgan_soni} pozitsiyaga teng boʻlinardi va "
         f"beshtasiga {foiz(tekis_ulush, 1)} tushardi. Har namunada sonlar boshqa, pozitsiyalar esa bir "
         "xil. Demak, eʼtiborni bu pozitsiyalarning vektorlari tortmoqda — model uchun ular "
         "0-pozitsiyaga oʻxshab qolgan."
         + (" Oʻqitishda bunday pozitsiyalar boʻlmagan, shuning uchun model ularni «0-pozitsiya emas» "
            "deb oʻrganmagan." if hammasi_yangi else ""), display=False)
elif top_ulush > 2 * tekis_ulush:
    glue("poz_uzun_gap", f"va notekis: eng koʻp ogʻirlik olgan beshta pozitsiya 0-qadamdan qochgan "
         f"ogʻirlikning {foiz(top_ulush)} qismini oldi (eng kattalari — {eng_kattalari}-pozitsiyalar; "
         f"qolgan {qolgan_soni} pozitsiyaga teng boʻlinganda beshtasiga {foiz(tekis_ulush, 1)} tushardi).",
         display=False)
else:
    glue("poz_uzun_gap", f"deyarli bir tekis: eng koʻp ogʻirlik olgan beshta pozitsiya 0-qadamdan "
         f"qochgan ogʻirlikning atigi {foiz(top_ulush)} qismini oldi (qolgan {qolgan_soni} pozitsiyaga "
         f"teng boʻlinganda {foiz(tekis_ulush, 1)}). Bu oddiy suyulishga oʻxshaydi: kalitlar koʻpaydi "
         "va ogʻirlik ular orasida boʻlindi.", display=False)
glue("poz_top_yangi", hammasi_yangi, display=False)
w0_uzun = [uzun_0qadam[s] for s in poz_seedlar]       # seed 0 va seed 1: 0-qadam ogʻirligi
if abs(w0_uzun[1] - w0_uzun[0]) <= 0.1:
    seed1_gap = f"Seed 1 modelida ham shunga yaqin: T = {poz_T_uzun} da 0-qadam {son(w0_uzun[1], '.3f')} ogʻirlik oldi"
elif w0_uzun[1] < w0_uzun[0]:
    seed1_gap = (f"Seed 1 modelida bu {'ancha kuchli' if w0_uzun[1] < w0_uzun[0] / 2 else 'kuchliroq'}: "
                 f"T = {poz_T_uzun} da 0-qadam atigi {son(w0_uzun[1], '.3f')} ogʻirlik oldi"
                 + (". Bu uzunlikda u 0-qadamga deyarli qaramaydi" if w0_uzun[1] < 0.1 else ""))
else:
    seed1_gap = (f"Seed 1 modelida bu kuchsizroq: T = {poz_T_uzun} da 0-qadam "
                 f"{son(w0_uzun[1], '.3f')} ogʻirlik oldi")
glue("poz_seed1_gap", seed1_gap, display=False)
glue("poz_seedlar_farqli", abs(w0_uzun[1] - w0_uzun[0]) > 0.1, display=False)
glue("poz_mashq7_gap", f"Oʻlchovingiz shuni koʻrsatsa, xulosa T = {poz_T_uzun} dagi tajribadagi kabi: "
     "yangi pozitsiyalarga koʻchish faqat sinusoidal formulaga emas, oʻqitilgan modelga ham bogʻliq, "
     "shuning uchun uni bitta seed bilan baholab boʻlmaydi." if abs(w0_uzun[1] - w0_uzun[0]) > 0.1 else
     "Oʻlchovingiz shuni koʻrsatsa, xulosa: yangi pozitsiyalarga koʻchish faqat sinusoidal formulaga "
     "emas, oʻqitilgan modelga ham bogʻliq, shuning uchun uni bitta seed bilan baholab boʻlmaydi "
     f"(bu yigʻishdagi T = {poz_T_uzun} tajribasida ikki seed bir-biriga yaqin chiqdi).", display=False)

# %% [markdown]
# *T* = {glue:text}`poz_T_uzun` da seed 0 modelida 0-qadam oʻrtacha ogʻirlikning
# {glue:text}`poz_etibor_uzun:.1%` qismini oldi. Qolganining
# {glue:text}`poz_yangi_ulush:.0%` qismi oʻqitishda boʻlmagan pozitsiyalarga
# ketdi, {glue:text}`poz_uzun_gap`
#
# {glue:text}`poz_seed1_gap`. Eng koʻp ogʻirlik olgan pozitsiyalar
# esa {glue:text}`poz_umumiy_jumla`.
#
# Xulosa: sinusoidal kodlash istalgan uzunlikda vektor beradi, lekin model
# bu vektorlarni oʻqitishda koʻrmagan joyda ham toʻgʻri ishlatishiga kafolat
# yoʻq. {glue:text}`poz_yaxshi_gap` Til modellarida sinusoidal kodlash oʻqitish
# uzunligidan biroz oʻtgach yomonlashadi (Press, Smith va Lewis, 2022).
# Qisqaroq oʻqitish uzunligi bilan natija seedga qanchalik bogʻliqligini
# 7-mashqda oʻzingiz oʻlchaysiz.
#
# Zamonaviy til modellari, masalan Llama, pozitsiyani boshqacha beradi:
# **RoPE** (*rotary position embedding*, aylantiruvchi pozitsiya kodlash;
# Su va boshq., 2021). RoPE kirishga hech narsa qoʻshmaydi. U har attention
# qatlamida soʻrov va kalit vektorlarining komponentlarini juftlarga
# ajratadi va har juftlikni tekislikda burchakka buradi. *p*-pozitsiyada
# *i*-juftlikning burchagi $p\,\theta_i$, bu yerda
# $\theta_i = b^{-2i/d}$: asos $b = 10000$ boʻlsa — sinusoidal kodlashdagi
# chastotalar (Llama 3 modelida $b = 500\,000$, konfiguratsiyadagi `rope_theta`:
# sekin burilishlar uzun kontekstga yetadi). Qiymat
# vektorlari burilmaydi. *m*-soʻrov va *n*-kalitning skalyar koʻpaytmasida
# ikki burilishdan faqat burchaklar farqi qoladi: $(m - n)\,\theta_i$. Demak,
# ballga pozitsiya faqat nisbiy masofa $m - n$ orqali kiradi — yuqorida
# sinus vektorlarda koʻrgan xossamiz endi toʻgʻridan-toʻgʻri ballarda
# ishlaydi. Lekin RoPE ham oʻqitish uzunligidan ancha uzoqqa oʻz-oʻzidan
# koʻchmaydi: model bir vaqtda koʻradigan uzunlikni (kontekst oynasini,
# *context window*) kengaytirish uchun burchaklarni qayta masshtablash
# usullari ishlatiladi (masalan, Chen va boshq., 2023).

# %% [markdown]
# ## Attention narxi: $O(T^2)$
#
# Attention bepul emas. Ballar matritsasi $T \times T$: har pozitsiya har
# pozitsiyaga ball qoʻyadi. *T* ikki barobar oshsa, matritsa toʻrt barobar
# oʻsadi. RNN esa *T* ta qadamni ketma-ket bajaradi: uning hisob hajmi *T* ga
# chiziqli bogʻliq, lekin qadamlarni parallel qilib boʻlmaydi. Ikkalasini bir xil
# sharoitda oʻlchaymiz ({numref}`vaqt_jadval`): `torch.utils.benchmark`
# bilan (har oʻlchov koʻp marta takrorlanadi va medianasi olinadi), bitta
# ipda (*thread*), toʻgʻri oʻtish (*forward pass*: kirishdan chiqishgacha
# hisob) va toʻgʻri + teskari oʻtish uchun. Har qatorda hisob
# hajmi — bitta namuna uchun koʻpaytirish-qoʻshishlar soni (*multiply–accumulate*,
# MAC) — va *T* ga bogʻliq ketma-ket bosqichlar soni ham bor: RNNda *T* ta,
# attentionda *T* ga bogʻliq emas (jadvalda 1).

# %%
from chapter_code.oqitish import mediana_ms, protsessor

IPLAR = 1                                  # vaqt shu sondagi ipda oʻlchanadi
# 1e-38 dan kichik («denormal») sonlar x86 protsessorlarida juda sekin hisoblanadi;
# oʻqitish ishchilaridagi kabi ularni nolga tenglaymiz (teskari oʻtishda ular paydo boʻladi)
torch.set_flush_denormal(True)


def rnn_mac(T, h=32):
    # har qadamda: W_ih x (h·1) + W_hh h (h·h); oxirida fc (h·2)
    return T * (h * 1 + h * h) + h * 2


def attn_mac(T, d=32):
    # kirish (T·d), Q, K, V (3·T·d·d), Q·Kᵀ va ogʻirlik·V (2·T·T·d), fc (d·2)
    return T * d + 3 * T * d * d + 2 * T * T * d + d * 2


def median_ms(ifoda, **nomlar):
    # torch.utils.benchmark: koʻp takror, mediana (chapter_code/oqitish.py)
    return mediana_ms(ifoda, iplar=IPLAR, **nomlar)


print(f"torch {torch.__version__}, {IPLAR} ip, protsessor: {protsessor()}")
vaqt_jadval = []
for Tx in [30, 60, 120, 240]:
    Xb, yb = vazifa(64, Tx, 3)
    torch.manual_seed(0)
    for nom, m, mac, qadamlar in [("RNN", Ketma("rnn"), rnn_mac(Tx), Tx),
                                  ("attention", Attention(Tx), attn_mac(Tx), 1)]:
        with torch.no_grad():
            fwd = median_ms("m(X)", m=m, X=Xb)
        fwd_bwd = median_ms("m.zero_grad(); krit(m(X), y).backward()",
                            m=m, X=Xb, y=yb, krit=nn.CrossEntropyLoss())
        vaqt_jadval.append({"T": Tx, "model": nom, "fwd (ms)": fwd,
                            "fwd+bwd (ms)": fwd_bwd, "MAC": mac,
                            "ketma-ket bosqichlar": qadamlar})
show(pd.DataFrame(vaqt_jadval).round(2),
     izoh=f"Bitta paket (64 ta namuna) vaqti, {IPLAR} ipda, mediana: fwd — "
          "toʻgʻri oʻtish (forward), fwd+bwd — toʻgʻri va teskari oʻtish; MAC — "
          "bitta namunaning toʻgʻri oʻtishdagi matritsa koʻpaytmalari (siljish, tanh, "
          "softmax, oʻrtalashtirish kirmaydi); ketma-ket bosqichlar — T ga bogʻliq, navbat bilan bajariladigan bosqichlar.",
     nom="vaqt_jadval")
vj = pd.DataFrame(vaqt_jadval).pivot(index="T", columns="model")

# Matndagi jumlalar shu oʻlchovdan tuziladi
tezroq = [t for t in vj.index
          if vj.loc[t, ("fwd (ms)", "attention")] < vj.loc[t, ("fwd (ms)", "RNN")]]
T_kat = max(vj.index)
mac_nisbat = vj.loc[T_kat, ("MAC", "attention")] / vj.loc[T_kat, ("MAC", "RNN")]
vaqt_nisbat = vj.loc[T_kat, ("fwd (ms)", "attention")] / vj.loc[T_kat, ("fwd (ms)", "RNN")]
if tezroq:
    tezlik_jumla = ("Bu oʻlchovda attentionning toʻgʻri oʻtishi T = "
                    + ", ".join(map(str, tezroq)) + " da RNNnikidan tezroq boʻldi.")
else:
    tezlik_jumla = ("Bu oʻlchovda attentionning toʻgʻri oʻtishi hech bir T da "
                    "RNNnikidan tezroq boʻlmadi.")
glue("tezlik_jumla", tezlik_jumla, display=False)
glue("attn_tezroq_T", ", ".join(map(str, tezroq)) or "yoʻq", display=False)
glue("T_kat", int(T_kat), display=False)
glue("mac_nisbat", float(mac_nisbat), display=False)
glue("vaqt_nisbat", float(vaqt_nisbat), display=False)
glue("vaqt_nisbat_yonalish", "sekinroq" if vaqt_nisbat > 1 else "tezroq", display=False)
glue("vaqt_nisbat_jumla", f"RNNdan {son(vaqt_nisbat, '.2f')} marta sekinroq ishladi" if vaqt_nisbat > 1
     else f"RNNdan {son(1 / vaqt_nisbat, '.2f')} marta tezroq ishladi", display=False)
glue("attn_vaqt_osish", float(vj.loc[240, ("fwd (ms)", "attention")]
                              / vj.loc[120, ("fwd (ms)", "attention")]), display=False)
glue("rnn_vaqt_osish", float(vj.loc[240, ("fwd (ms)", "RNN")]
                             / vj.loc[120, ("fwd (ms)", "RNN")]), display=False)
glue("iplar", IPLAR, display=False)

# %% [markdown]
# {glue:text}`tezlik_jumla` *T* = {glue:text}`T_kat` da attention bitta
# namuna uchun RNNdan {glue:text}`mac_nisbat:.1f` marta koʻp koʻpaytirish-qoʻshish
# bajaradi, lekin ularning hammasi bitta bosqichda, katta matritsa
# koʻpaytmalarida; RNN esa kam hisobni {glue:text}`T_kat` ta kichik qadamda
# navbat bilan bajaradi va har qadamda amallarning doimiy xarajatini
# toʻlaydi. Oʻlchovda attention shu *T* da {glue:text}`vaqt_nisbat_jumla`. *T* 120 dan 240 ga oshganda RNN
# vaqti {glue:text}`rnn_vaqt_osish:.1f` marta, attention vaqti
# {glue:text}`attn_vaqt_osish:.1f` marta oʻsdi. Bu oʻlchov
# {glue:text}`iplar` ipda olingan; GPU yoki koʻp yadroda attentionning
# yagona bosqichidagi *T* ta pozitsiya hisobi parallel bajarilishi mumkin, RNNning
# *T* ta qadami esa baribir navbat bilan qoladi (buni bu bobda
# oʻlchamadik). Vaswani va boshq. (2017) bu parallellikni yoʻl uzunligi
# bilan birga attentionning asosiy afzalliklari qatorida keltiradi.
#
# Vaqt shovqinli oʻlchov: jadvaldagi millisekundlar har yigʻishda biroz
# farq qiladi. Xotira esa aniq hisoblanadi. Endi *T* ni 960 gacha
# oshirib, bitta toʻgʻri oʻtishda attention matritsasi egallaydigan
# baytlarni, PyTorch oʻlchagan xotira choʻqqisini va vaqtni yozib olamiz.

# %%
xotira = []
for Tx in [30, 60, 120, 240, 480, 960]:
    Xb, _ = vazifa(64, Tx, 3)
    a_m = Attention(Tx)
    with torch.no_grad():
        a_m(Xb)                                            # isitish
        chuqqi, _ = xotira_chuqqisi(a_m, Xb)
        ms = median_ms("m(X)", m=a_m, X=Xb)                # ms, bitta forward
    matritsa = a_m.ogirlik.nelement() * a_m.ogirlik.element_size()
    xotira.append({"T": Tx, "matritsa (MiB)": matritsa / 2**20,
                   "choʻqqi (MiB)": chuqqi / 2**20, "vaqt (ms)": ms})
xotira = pd.DataFrame(xotira).set_index("T")
show(xotira.round(2).reset_index(),
     izoh="Attentionning bitta toʻgʻri oʻtishdagi narxi (64 ta namuna): "
          "matritsa hajmi, xotira choʻqqisi va vaqt.",
     nom="xotira_jadval")

# %% [markdown]
# {numref}`%s-jadvalning <xotira_jadval>` oxirgi qatorida (*T* = 960) attention
# matritsasining oʻzi {glue:text}`matritsa_960:.0f` MiB (mebibayt, $2^{20}$ bayt), bitta toʻgʻri
# oʻtishdagi xotira choʻqqisi {glue:text}`chuqqi_960:.0f` MiB.
# {numref}`xotira_vaqt` ikkalasini log-log oʻqlarda koʻrsatadi.

# %%
mat = xotira["matritsa (MiB)"].values
osish = mat[1:] / mat[:-1]                  # T har ikki barobar oshganda
glue("matritsa_osish", float(osish.mean()), display=False)
glue("matritsa_960", float(xotira.loc[960, "matritsa (MiB)"]), display=False)
glue("chuqqi_960", float(xotira.loc[960, "choʻqqi (MiB)"]), display=False)
glue("vaqt_960", float(xotira.loc[960, "vaqt (ms)"]), display=False)
vaqt_qiyalik = float(np.log(xotira.loc[960, "vaqt (ms)"] / xotira.loc[240, "vaqt (ms)"]) / np.log(4))
if vaqt_qiyalik >= 2.15:
    vaqt_T2 = "bu T² qonuni boʻyicha kutiladigan 16 martadan ham koʻp: vaqt T² dan ham tez oʻsdi"
elif vaqt_qiyalik >= 1.85:
    vaqt_T2 = "bu T² qonuni boʻyicha kutiladigan 16 martaga yaqin"
else:
    vaqt_T2 = "bu T² qonuni boʻyicha kutiladigan 16 martadan kam: bu oraliqda vaqt T² dan sekinroq oʻsdi"
glue("vaqt_T2_jumla", vaqt_T2, display=False)
glue("vaqt_T2_xulosa", "xotira ham, vaqt ham kamida T² bilan oʻsadi" if vaqt_qiyalik >= 1.85
     else "xotira T² bilan oʻsadi, vaqt ham tez oʻsadi", display=False)
glue("vaqt_osish_katta", float(xotira.loc[960, "vaqt (ms)"]
                               / xotira.loc[240, "vaqt (ms)"]), display=False)
uzun = 32768                                # bitta uzun hujjat, bitta bosh
glue("uzun_T", uzun, display=False)
glue("uzun_gib", uzun * uzun * 4 / 2**30, display=False)

rasm, (b1, b2) = plt.subplots(1, 2, figsize=(11, 4))
b1.loglog(xotira.index, xotira["matritsa (MiB)"], "o-", label="matritsa")
b1.loglog(xotira.index, xotira["choʻqqi (MiB)"], "s--", label="choʻqqi")
b1.set_xlabel("T"); b1.set_ylabel("xotira (MiB)"); b1.legend()
b2.loglog(xotira.index, xotira["vaqt (ms)"], "o-", color="#d55e00")
b2.set_xlabel("T"); b2.set_ylabel("vaqt (ms)")
for b in (b1, b2):
    b.grid(True, which="both", alpha=0.3)
plt.tight_layout()
fig("xotira_vaqt.png",
    caption="Attentionning bitta toʻgʻri oʻtishdagi narxi (64 ta namuna), "
            "log-log oʻqlarda. Chapda: xotira — toʻgʻri chiziq, qiyaligi "
            "2, yaʼni T² ga proporsional. Oʻngda: vaqt.")

# %% [markdown]
# *T* har ikki barobar oshganda matritsa aniq
# {glue:text}`matritsa_osish:.1f` barobar oʻsdi — log-log oʻqlarda bu
# qiyaligi 2 ga teng toʻgʻri chiziq. Vaqt ham oʻsadi: *T* 240 dan 960 ga
# (4 marta) oshganda u {glue:text}`vaqt_osish_katta:.0f` marta oʻsdi —
# {glue:text}`vaqt_T2_jumla`. *T* = 960 da bitta toʻgʻri oʻtish
# {glue:text}`vaqt_960:.0f` ms.
#
# Demak, {glue:text}`vaqt_T2_xulosa`. Bitta
# uzun hujjat (*T* = {glue:text}`uzun_T`) uchun bitta attention matritsasining
# oʻzi {glue:text}`uzun_gib:.0f` GiB boʻladi. Haqiqiy modelda esa bunday
# matritsa har qatlamda va har «boshda» bor (boshlar haqida — quyida),
# qatlamlar va boshlar esa oʻnlab. FlashAttention (Dao va boshq., 2022;
# matritsani xotirada toʻliq saqlamaydigan attention) kabi yadrolar
# (*kernel*: bitta amalni bajaradigan optimallashtirilgan past darajali
# funksiya) $Q K^\top$ ni boʻlaklab hisoblaydi va softmaxni boʻlak-boʻlak
# yigʻadi. PyTorchda `torch.nn.functional.scaled_dot_product_attention`
# (SDPA) mos yadroni tanlaydi: CPUda flash yadrosi faqat 4 oʻlchamli kirishda (namuna, bosh,
# *T*, *d*) ishlaydi, 3 oʻlchamli kirishda SDPA oddiy («math») yoʻlga
# qaytadi. Ikkalasini yozilgan formula bilan *T* = 4096 gacha
# solishtiramiz: 8 ta namuna, bitta bosh, *d* = 32, xotira choʻqqisi
# (`xotira_chuqqisi`), vaqt (mediana) va formula natijasidan eng katta farq
# ({numref}`flash_jadval`).

# %%
import torch.nn.functional as F


def yozilgan(Q, K, V):
    # bobdagi formula: T×T matritsa toʻliq yasaladi
    return torch.softmax(Q @ K.transpose(-2, -1) / Q.shape[-1] ** 0.5, dim=-1) @ V


flash = []
for Tx in [256, 512, 1024, 2048, 4096]:
    torch.manual_seed(0)
    Q, K, V = (torch.randn(8, 1, Tx, 32) for _ in range(3))    # (namuna, bosh, T, d)
    uch = (Q[:, 0], K[:, 0], V[:, 0])                              # (namuna, T, d)
    with torch.no_grad():
        asl = yozilgan(Q, K, V)
        for nom, fn, kirish in [("formula", yozilgan, (Q, K, V)),
                                ("SDPA", F.scaled_dot_product_attention, (Q, K, V)),
                                ("SDPA, 3 oʻlchamli", F.scaled_dot_product_attention, uch)]:
            chuqqi, chiqish = xotira_chuqqisi(fn, *kirish)
            farq = (chiqish.reshape(asl.shape) - asl).abs().max()
            flash.append({"T": Tx, "usul": nom, "choʻqqi (MiB)": chuqqi / 2**20,
                          "vaqt (ms)": median_ms("fn(*kirish)", fn=fn, kirish=kirish),
                          "eng katta farq": float(farq)})
fl = pd.DataFrame(flash)
show(fl.round({"choʻqqi (MiB)": 2, "vaqt (ms)": 1})
       .assign(**{"eng katta farq": fl["eng katta farq"].map(lambda v: son(v, ".1e"))}),
     izoh=f"Yozilgan formula va SDPA: xotira choʻqqisi, vaqt ({IPLAR} ipda, "
          "mediana) va formula natijasidan eng katta farq (8 ta namuna, d = 32).",
     nom="flash_jadval")


def qiyalik(usul, ustun, eng_kichik_T=1024):
    # log-log qiyalik: T ≥ 1024 nuqtalari orqali eng kichik kvadratlar toʻgʻri chizigʻi
    a = fl[(fl.usul == usul) & (fl["T"] >= eng_kichik_T)]
    return float(np.polyfit(np.log2(a["T"]), np.log2(a[ustun]), 1)[0])


for usul, q in [("formula", "formula"), ("SDPA", "sdpa"), ("SDPA, 3 oʻlchamli", "sdpa3")]:
    for ustun, qisqa in [("choʻqqi (MiB)", "xotira"), ("vaqt (ms)", "vaqt")]:
        glue(f"fl_{qisqa}_{q}", qiyalik(usul, ustun), display=False)
katta = fl[fl["T"] == 4096].set_index("usul")
glue("fl_chuqqi_formula", float(katta.loc["formula", "choʻqqi (MiB)"]), display=False)
glue("fl_chuqqi_sdpa", float(katta.loc["SDPA", "choʻqqi (MiB)"]), display=False)
glue("fl_vaqt_formula_ms", float(katta.loc["formula", "vaqt (ms)"]), display=False)
glue("fl_vaqt_sdpa_ms", float(katta.loc["SDPA", "vaqt (ms)"]), display=False)
glue("fl_chuqqi_sdpa3", float(katta.loc["SDPA, 3 oʻlchamli", "choʻqqi (MiB)"]), display=False)
glue("fl_farq", float(fl["eng katta farq"].max()), display=False)
glue("fl_xotira_sdpa_soz",
     "chiziqli" if qiyalik("SDPA", "choʻqqi (MiB)") < 1.5 else "kvadratik", display=False)
glue("fl_xotira_sdpa3_soz",
     "chiziqli" if qiyalik("SDPA, 3 oʻlchamli", "choʻqqi (MiB)") < 1.5 else "kvadratik",
     display=False)
glue("fl_vaqt_sdpa_soz",
     "kvadratik" if qiyalik("SDPA", "vaqt (ms)") >= 1.5 else "kvadratikdan sekin", display=False)

rasm, (b1, b2) = plt.subplots(1, 2, figsize=(11, 3.6))
for usul, belgi in [("formula", "o-"), ("SDPA", "s--"), ("SDPA, 3 oʻlchamli", "^:")]:
    a = fl[fl.usul == usul]
    b1.loglog(a["T"], a["choʻqqi (MiB)"], belgi, label=usul)
    b2.loglog(a["T"], a["vaqt (ms)"], belgi, label=usul)
b1.set_xlabel("T"); b1.set_ylabel("xotira choʻqqisi (MiB)"); b1.legend()
b2.set_xlabel("T"); b2.set_ylabel("vaqt (ms)"); b2.legend()
for b in (b1, b2):
    b.grid(True, which="both", alpha=0.3)
plt.tight_layout()
fig("flash.png",
    caption="Yozilgan formula va SDPA (4 va 3 oʻlchamli kirish), log-log oʻqlarda "
            "(8 ta namuna, d = 32). "
            "Chapda: xotira choʻqqisi. Oʻngda: vaqt.")

# %% [markdown]
# {numref}`%s-rasmdagi <flash>` chiziqlarning qiyaligini *T* = 1024, 2048
# va 4096 nuqtalari orqali oʻtkazilgan eng yaqin toʻgʻri chiziqdan
# (eng kichik kvadratlar usuli) oʻlchadik: qiyalik 2 — $T^2$ ga, qiyalik 1 —
# *T* ga proporsional. Formulaning xotirasi qiyaligi
# {glue:text}`fl_xotira_formula:.2f` bilan oʻsdi (*T* = 4096 da
# {glue:text}`fl_chuqqi_formula:.0f` MiB), SDPAniki
# {glue:text}`fl_xotira_sdpa:.2f` bilan — kvadratik emas
# ({glue:text}`fl_chuqqi_sdpa:.1f` MiB: asosan chiqishning oʻzi, u *T* ga
# chiziqli, qolgani har ipga kichik ish buferi; shuning uchun qiyalik 1
# dan ham kichik chiqishi mumkin). Xotira kitob yigʻilayotgan jarayonning
# iplar sonida, vaqt esa bitta ipda oʻlchangan. 3 oʻlchamli kirishdagi SDPA esa
# qiyaligi {glue:text}`fl_xotira_sdpa3:.2f` bilan —
# {glue:text}`fl_chuqqi_sdpa3:.0f` MiB: u $T \times T$ matritsani baribir
# yasaydi. Vaqt esa formulada ham, flash yadrosida ham qiyaligi
# {glue:text}`fl_vaqt_formula:.2f` va {glue:text}`fl_vaqt_sdpa:.2f` bilan
# oʻsdi: SDPAda ham {glue:text}`fl_vaqt_sdpa_soz`, *T* = 4096 da
# {glue:text}`fl_vaqt_sdpa_ms:.0f` ms (formulada
# {glue:text}`fl_vaqt_formula_ms:.0f` ms). Natijalar bir xil: eng katta
# farq {glue:text}`fl_farq:.1e`. Xulosa: FlashAttention turidagi yadro
# $T^2$ **xotirani** olib tashlaydi, $T^2$ **hisobni** esa yoʻq — har
# soʻrov baribir har kalit bilan solishtiriladi. Yadro maʼlum kirish shaklini ham
# talab qiladi: boshqa shaklda bu foyda yoʻqoladi.

# %% [markdown]
# ## Transformer bloki
#
# Bizning `Attention` modelimiz bitta qatlam edi. Transformer bloki attention
# atrofiga yana uchta qism qoʻshadi va shu blok koʻp marta ustma-ust
# qoʻyiladi. Qismlar {numref}`%s-jadvalda <qismlar_jadval>`.

# %%
show(pd.DataFrame([
    ("1. Koʻp boshli attention (multi-head attention)",
     "Bir nechta attention parallel ishlaydi — har biri boshqa munosabatga qaraydi"),
    ("2. Qoldiq ulanish (residual): x + attn(x)",
     "Gradientga toʻgʻri yoʻl beradi — chuqur tarmoq uchun shart"),
    ("3. LayerNorm (qatlam normallashtirish)",
     "Har pozitsiya vektorini normallashtiradi: oʻrtachasi 0, dispersiyasi 1 boʻladi "
     "(oʻrganiladigan koʻpaytuvchi va siljishdan oldin)"),
    ("4. Feed-forward (toʻgʻri tarqaluvchi tarmoq): 2 qatlamli MLP (koʻp qatlamli perseptron)",
     "Attention yigʻgan maʼlumotni har pozitsiyada qayta ishlaydi"),
], columns=["Qism", "Vazifasi"]),
     izoh="Transformer blokining qismlari.", nom="qismlar_jadval")
print("Shu blok N marta ustma-ust qoʻyiladi. GPT, BERT, Llama — shu arxitekturaning")
print("variantlari; farqlari: normning joyi (quyida), pozitsiya kodlash turi,")
print("attention maskasi, blok soni va oʻlchami.")

# %% [markdown]
# ### Koʻp boshli attention kodda
#
# **Koʻp boshli attention** (*multi-head attention*) *d* oʻlchamni bir
# nechta «boshga» boʻladi: har bosh *Q*, *K*, *V* ning oʻz ustunlarini oladi
# va alohida attention hisoblaydi, soʻng boshlar chiqishi yonma-yon qoʻyilib,
# yana bitta chiziqli qatlamdan (`self.o`) oʻtadi. Boʻlish — faqat
# tenzor shaklini oʻzgartirish (`view` va `transpose`); shakllar kodda
# izohlangan.
#
# ```{literalinclude} ../chapter_code/modellar.py
# :pyobject: KopBoshli
# ```
#
# PyTorchning `nn.MultiheadAttention` qatlami aynan shu hisobni bajaradi:
# unga `KopBoshli` ning vaznlarini koʻchirsak, natija bir xil chiqadi.

# %%
torch.manual_seed(0)
d_blok, boshlar = 32, 4
kb = KopBoshli(d_blok, boshlar)
x = torch.randn(2, 10, d_blok)                           # (namuna, T, d)
dh = d_blok // boshlar
q_boshlar = kb.q(x).view(2, 10, boshlar, dh).transpose(1, 2)
print(f"kirish x            : {tuple(x.shape)}    (namuna, T, d)")
print(f"Q, boshlarga boʻlingan: {tuple(q_boshlar.shape)}  (namuna, bosh, T, d/bosh)")
with torch.no_grad():
    chiqish_kb = kb(x)
print(f"ogʻirliklar         : {tuple(kb.ogirlik.shape)} (namuna, bosh, T, T)")
print(f"chiqish             : {tuple(chiqish_kb.shape)}    (namuna, T, d)")

mha = nn.MultiheadAttention(d_blok, boshlar, batch_first=True)
with torch.no_grad():                                     # vaznlarni koʻchiramiz
    mha.in_proj_weight.copy_(torch.cat([kb.q.weight, kb.k.weight, kb.v.weight]))
    mha.in_proj_bias.copy_(torch.cat([kb.q.bias, kb.k.bias, kb.v.bias]))
    mha.out_proj.weight.copy_(kb.o.weight)
    mha.out_proj.bias.copy_(kb.o.bias)
    mha_farq = float((mha(x, x, x)[0] - chiqish_kb).abs().max())
print(f"nn.MultiheadAttention bilan eng katta farq: {mha_farq:.1e}")
glue("mha_farq", mha_farq, display=False)
glue("d_bosh", dh, display=False)

# %% [markdown]
# Eng katta farq {glue:text}`mha_farq:.0e` — float32 yaxlitlash xatosi
# darajasi. Demak, `nn.MultiheadAttention` `KopBoshli` bilan bir xil hisoblaydi:
# bu bobning boshidagi formulaning oʻzi emas, unga boshlarga boʻlish va chiqish
# proyeksiyasi qoʻshilgan.
# Har boshning oʻlchami {glue:text}`d_bosh`; bitta boshli attention bilan
# hisob hajmi deyarli bir xil, lekin endi boshlar har xil narsaga qarashi
# mumkin — buni bobning oxirida oʻqitilgan modelda koʻramiz.
#
# ### Normning joyi: post-LN va pre-LN
#
# Asl Transformer maqolasida (Vaswani va boshq., 2017) LayerNorm qoldiq
# qoʻshishdan **keyin** turadi (*post-LN*): `x = norm(x + f(x))`. GPT-2 kabi
# koʻp modellar (Llama ham) uni qismning **oldiga** qoʻyadi
# (*pre-LN*): `x = x + f(norm(x))`. Pre-LNda qoldiq yoʻli (*residual
# stream*) normdan oʻtmaydi: kirishdan chiqishgacha toʻgʻri yoʻl qoladi
# ({numref}`post_pre_ln`). Xiong va boshq. (2020) pre-LN
# modellar oʻrganish tezligini asta-sekin oshiradigan boshlangʻich bosqichsiz
# (*warm-up*) ham barqaror oʻqitilishini koʻrsatgan; bu bobda biz buni
# oʻlchamadik. Llama bundan tashqari LayerNorm oʻrniga RMSNorm (oʻrtachani
# ayirmasdan, faqat oʻrtacha kvadratning ildiziga boʻladigan normallashtirish),
# feed-forward qismida SwiGLU (darvozali faollashtirish funksiyasi) va
# pozitsiyalar uchun RoPE ishlatadi (RoPE haqida «{ref}`pozitsiyalar_uzunroq`»
# boʻlimida).

# %%
post = "Post-LN (2017)\\nkirish x"
pre = "Pre-LN (GPT-2, Llama)\\nkirish x"
post1, post2 = "x = LayerNorm(x + attention(x))", "x = LayerNorm(x + FF(x))"
pre1, pre2 = "x = x + attention(LayerNorm(x))", "x = x + FF(LayerNorm(x))"
diagramma(
    {
        post: (0.2, 0.2, 4.0, 0.8, "manba"),
        post1: (0.2, 1.5, 4.0, 0.7, "xizmat"),
        post2: (0.2, 2.7, 4.0, 0.7, "xizmat"),
        "chiqish (post-LN)": (0.2, 3.9, 4.0, 0.6, "qayta"),
        pre: (4.8, 0.2, 4.0, 0.8, "manba"),
        pre1: (4.8, 1.5, 4.0, 0.7, "xizmat"),
        pre2: (4.8, 2.7, 4.0, 0.7, "xizmat"),
        "chiqish (pre-LN)": (4.8, 3.9, 4.0, 0.6, "qayta"),
    },
    [(post, post1), (post1, post2), (post2, "chiqish (post-LN)"),
     (pre, pre1), (pre1, pre2), (pre2, "chiqish (pre-LN)")],
    nom="post_pre_ln.png",
    izoh="Transformer blokining ikki turi (pastdan yuqoriga oʻqiladi). Chapda "
         "asl post-LN: qoldiq yoʻli har qismdan keyin normdan oʻtadi. "
         "Oʻngda pre-LN: norm faqat qism kirishida, x + … yoʻli toʻgʻri qoladi.",
)

# %% [markdown]
# Bobdagi `TransformerBlok` — asl post-LN blok, `nn.MultiheadAttention`
# bilan:
#
# ```{literalinclude} ../chapter_code/modellar.py
# :pyobject: TransformerBlok
# ```
#
# `Blok` esa pre-LN va oʻzimiz yozgan `KopBoshli` bilan; u kerak boʻlsa
# ikkinchi attentionni ham oladi: koderga qaraydigan **cross-attention**
# (*oʻzaro attention*: soʻrovlar shu blokdan, kalit va qiymatlar koder
# chiqishidan olinadi). U quyida, yakuniy misolda ishlatiladi.
#
# ```{literalinclude} ../chapter_code/modellar.py
# :pyobject: Blok
# ```

# %%
blok = TransformerBlok()
namuna = torch.randn(2, 10, 32)
print(f"Kirish : {tuple(namuna.shape)}")
print(f"Chiqish: {tuple(blok(namuna).shape)}   "
      "(shakl saqlanadi — shuning uchun ustma-ust qoʻyish mumkin)")
print(f"Parametrlar soni: TransformerBlok {parametrlar(blok)}, "
      f"Blok {parametrlar(Blok(32, 4))}")
glue("blok_param", parametrlar(blok), display=False)

# %% [markdown]
# Blok kirish shaklini saqlaydi, shuning uchun uni istalgancha ustma-ust
# qoʻyish mumkin. Bitta blokda {glue:text}`blok_param` ta parametr bor
# (ikkala turda ham bir xil: norm faqat joyini oʻzgartiradi); katta til
# modellarida bunday bloklar oʻnlab, *d* esa minglab.
#
# ### Butun arxitektura
#
# GPT kabi dekoder modelining toʻliq tuzilishi {numref}`%s-rasmda <arxitektura>`:
# tokenlar raqamlarga, raqamlar vektorlarga (*embedding*) aylanadi, ularga
# pozitsiya kodlash qoʻshiladi, soʻng *N* ta pre-LN blok (har birida kauzal
# maska) va oxirgi norm. Chiziqli qatlam har pozitsiyada lugʻatdagi har
# token uchun ball beradi: oxirgi pozitsiyaning ballari keyingi tokenni
# tanlash uchun ishlatiladi.

# %%
qismlar = ["tokenlar (lugʻatdagi raqamlari)",
           "embedding + pozitsiya kodlash",
           "N × Blok (pre-LN, kauzal maska)",
           "LayerNorm",
           "chiziqli qatlam → softmax",
           "keyingi token ehtimollari"]
turlar = ["manba", "xizmat", "qayta", "xizmat", "xizmat", "manba"]
diagramma(
    {q: (0.2, 0.2 + 0.8 * i, 4.6, 0.5, t) for i, (q, t) in enumerate(zip(qismlar, turlar))},
    list(zip(qismlar, qismlar[1:])),
    nom="arxitektura.png",
    izoh="Dekoder (GPT turidagi) Transformer, pastdan yuqoriga oʻqiladi. "
         "Bloklar — yuqoridagi pre-LN blok.",
)

# %% [markdown]
# Shu arxitektura `chapter_code/modellar.py` dagi `KichikGPT` da — bir necha
# qatorda:
#
# ```{literalinclude} ../chapter_code/modellar.py
# :pyobject: KichikGPT
# ```

# %% [markdown]
# ## KV kesh: oldingi hisobni saqlab qoʻyish
#
# GPT kabi dekoder matnni tokenma-token yaratadi. Har qadamda model shu
# paytgacha yozilgan matnni oladi va keyingi token uchun har bir lugʻat
# tokeniga ball hisoblaydi. Bu ballar — **logitlar** (ingl. *logits*,
# softmaxdan oldingi ballar). Model bitta tokenni tanlaydi, uni matn
# oxiriga qoʻshadi va hammasi yangi token bilan takrorlanadi.
#
# Yangi tokenning soʻrovi har qatlamda oldingi hamma tokenlarning kalit va
# qiymatlari bilan uchrashadi. Eng oddiy yoʻl — har qadamda butun matnni
# modeldan qayta oʻtkazish. Unda oldingi tokenlarning kalit va qiymatlari
# har qadamda qaytadan hisoblanadi, holbuki ular oʻzgarmaydi.
#
# Nega oʻzgarmaydi? Kauzal maska tufayli *i*-pozitsiya faqat oʻziga va
# oʻzidan oldingilarga qaraydi. Demak, uning har qatlamdagi vektori faqat
# 0-tokendan *i*-tokengacha boʻlgan tokenlarga bogʻliq. Matn oxiriga yangi
# token qoʻshilsa, bu vektor ham, undan olinadigan kalit va qiymat ham
# oʻzgarmaydi. Shuning uchun ularni bir marta hisoblab, saqlab qoʻyish
# mumkin. Bu — **KV kesh** (ingl. *KV cache*, kalit–qiymat keshi; *kesh* —
# qayta ishlatish uchun saqlab qoʻyilgan natijalar). Kesh bilan har qadamda
# modeldan faqat yangi token oʻtadi: uning *q*, *k*, *v* vektorlari
# hisoblanadi, *k* va *v* keshga qoʻshiladi, *q* esa keshdagi hamma
# kalitlarga qaraydi. Maskasiz koderda (BERT kabi) bunday qilib boʻlmaydi:
# u yerda oldingi pozitsiyalar ham yangi tokenga qaraydi, ularning birinchi
# qatlam chiqishi oʻzgaradi, demak ikkinchi qatlamdan boshlab kalit va
# qiymatlari ham oʻzgaradi.

# %% [markdown]
# `KopBoshli` klassimizda kesh — bitta `dict`. Unda
# kalitlar (`"k"`) va qiymatlar (`"v"`) (namuna, bosh, *T*, bosh oʻlchami)
# shaklida turadi, yangilari `torch.cat` bilan oxiriga qoʻshiladi:
#
# ```{literalinclude} ../chapter_code/modellar.py
# :pyobject: KopBoshli.forward
# :start-at: if kesh is not None
# :end-before: ball = q @ k
# :dedent:
# ```
#
# `KichikGPT` har blokka bittadan dict oladi. Yangi tokenlarning
# pozitsiyasini u keshdagi tokenlar sonidan (`oldin`) biladi, maska esa
# yangi soʻrovlarga keshdagi hamma kalitni, oʻzini va oʻzidan oldingi yangi
# tokenlarni koʻrsatadi:
#
# ```{literalinclude} ../chapter_code/modellar.py
# :pyobject: KichikGPT.forward
# :start-at: oldin =
# :end-before: for i, blok
# :dedent:
# ```
#
# Avval ikki yoʻl bir xil natija berishini tekshiramiz. Model oʻqitilmagan,
# vaznlari tasodifiy. Bu yerda shu yetarli: biz matnning sifatini emas,
# ikki yoʻlning tengligini va vaqtini oʻlchaymiz. Tenglik har qanday
# vaznlarda kauzal maskadan kelib chiqadi, vaqt esa faqat oʻlchamlarga
# (qatlamlar soni, *d*, tokenlar soni) bogʻliq. Har qadamda eng katta logitli
# tokenni olamiz — bu **ochkoʻz tanlash** (ingl. *greedy decoding*).
# Boshlangʻich matn (ingl. *prompt*) — {glue:text}`kv_boshi` ta tasodifiy
# token, undan keyin {glue:text}`kv_N` ta yangi token yaratamiz.
#
# Birinchi yoʻl — keshsiz: har qadamda butun matn modeldan oʻtadi.

# %%
torch.manual_seed(0)
LUGAT = 100                                  # lugʻatdagi tokenlar soni
gpt = KichikGPT(LUGAT, d=64, boshlar=4, qatlamlar=2).eval()   # oʻqitilmagan
boshi = torch.randint(LUGAT, (1, 8))         # boshlangʻich matn (prompt): 8 ta token
N_YANGI = 40                                 # nechta yangi token yaratamiz

idx_a, logitlar_a = boshi, []
with torch.no_grad():
    for _ in range(N_YANGI):
        logit = gpt(idx_a)[:, -1]                    # (1, T, lugʻat) -> (1, lugʻat)
        logitlar_a.append(logit)
        yangi = logit.argmax(dim=-1, keepdim=True)   # (1, 1): eng katta logitli token
        idx_a = torch.cat([idx_a, yangi], dim=1)     # (1, T) -> (1, T + 1)

# %% [markdown]
# Ikkinchi yoʻl — KV kesh bilan. Birinchi qadamda modelga butun
# boshlangʻich matn kiradi va kesh toʻladi; keyingi qadamlarda faqat oxirgi
# tanlangan token kiradi.

# %%
keshlar = [{} for _ in gpt.bloklar]                  # har blokka bitta boʻsh dict
idx_b, logitlar_b, kirish = boshi, [], boshi
with torch.no_grad():
    for _ in range(N_YANGI):
        logit = gpt(kirish, keshlar)[:, -1]          # (1, kirish uzunligi, lugʻat) -> (1, lugʻat)
        logitlar_b.append(logit)
        kirish = logit.argmax(dim=-1, keepdim=True)  # (1, 1): keyingi qadamda faqat shu
        idx_b = torch.cat([idx_b, kirish], dim=1)


# %% [markdown]
# Ikki yoʻlni solishtiramiz: har qadamdagi logitlar va tanlangan tokenlar.

# %%
# ikkala roʻyxatda N_YANGI ta (1, lugʻat) logit: har qadamda bittadan
logit_farq = (torch.cat(logitlar_a) - torch.cat(logitlar_b)).abs().max().item()
farqli = int((idx_a != idx_b).sum())               # nechta token farq qildi
print(f"logitlarning eng katta farqi: {logit_farq:.1e}")
print(f"farq qilgan tokenlar: {farqli} / {N_YANGI}")
print("yaratilgan tokenlar:", idx_b[0, boshi.shape[1]:].tolist())
print("birinchi blok keshi, k:", tuple(keshlar[0]["k"].shape), "(namuna, bosh, T, bosh oʻlchami)")
glue("kv_N", N_YANGI, display=False)
glue("kv_boshi", boshi.shape[1], display=False)
glue("kv_farq", logit_farq, display=False)
glue("kv_farqli", farqli, display=False)
glue("kv_tokenlar_jumla",
     f"Ikkala yoʻl {N_YANGI} ta yangi tokenning hammasini aynan bir xil tanladi."
     if farqli == 0 else
     f"Ikki yoʻl {N_YANGI} ta yangi tokendan {farqli} tasida farq qildi.", display=False)

# %% [markdown]
# {glue:text}`kv_tokenlar_jumla` Logitlarning eng katta farqi
# {glue:text}`kv_farq:.1e` — float32 hisobining yaxlitlash xatosi darajasi:
# kesh bilan matritsalar boshqa shaklda koʻpaytiriladi va qoʻshish tartibi
# biroz oʻzgaradi. Kesh hisobni qisqartiradi, natijani oʻzgartirmaydi.
#
# ### Bitta token qancha vaqt oladi
#
# Endi vaqtni oʻlchaymiz. Matnda *T* ta token bor, keyingi token logitlari
# kerak. Keshsiz yoʻlda model *T* ta tokenning hammasini qayta hisoblaydi.
# Kesh bilan esa keshda *T* − 1 ta token tayyor turadi, modelga faqat
# oxirgi token kiradi va uning soʻrovi *T* ta kalitga qaraydi. Har bir
# oʻlchov — `torch.utils.benchmark` bilan koʻp takrorning medianasi,
# bitta ipda (ingl. *thread*).
#
# Bir nozik joy bor: kesh har chaqiruvda oʻsadi. Bitta keshni takrordan
# takrorga ishlatsak, har takror avvalgisidan uzunroq keshdan boshlanardi.
# Shuning uchun keshni oʻlchovdan oldin tayyorlaymiz (`tayyor`) va har
# takrorda yangi dictlar yasaymiz: `dict(k)` — yangi dict, u tayyor
# tenzorlarga ishora qiladi, `torch.cat` esa yangi tenzor yasaydi. Tayyor
# kesh oʻzgarmaydi, har takror bir xil ishni bajaradi — kod buni `assert`
# bilan tekshiradi.
#
# Jadvalda vaqtdan tashqari yana ikki xil ustun bor. MAC — bitta qadamdagi
# koʻpaytirish-qoʻshishlar (ingl. *multiply–accumulate*) soni, yaʼni qadam
# bajaradigan hisob hajmi (faqat matritsa koʻpaytmalari). «Eng katta farq» —
# oʻlchangan ikki yoʻl bergan logitlarning farqi: ikkalasi aynan bir xil
# narsani hisoblaydi.

# %%
torch.set_flush_denormal(True)        # bobdagi boshqa vaqt oʻlchovlari kabi


def mac_keshsiz(T, d=gpt.emb.embedding_dim, L=len(gpt.bloklar), lugat=LUGAT):
    # har qatlamda: T ta pozitsiyaning q, k, v, o (4·d·d) va feed-forward (8·d·d),
    # T × T ballar va ogʻirlik·v (2·T·T·d); oxirida T ta pozitsiyaning logitlari
    return L * (12 * d * d * T + 2 * T * T * d) + T * d * lugat


def mac_kesh(T, d=gpt.emb.embedding_dim, L=len(gpt.bloklar), lugat=LUGAT):
    # har qatlamda: bitta tokenning q, k, v, o va feed-forward, T ta kalitga attention
    return L * (12 * d * d + 2 * T * d) + d * lugat


print(f"torch {torch.__version__}, 1 ip, protsessor: {protsessor()}")

# %%
torch.manual_seed(1)
matn = torch.randint(LUGAT, (1, 1024))           # vaqt tokenlarning qiymatiga bogʻliq emas
kv_vaqt, eng_katta_farq = [], 0.0
with torch.no_grad():
    for Tx in [128, 256, 512, 1024]:
        idx = matn[:, :Tx]                       # (1, T)
        keshsiz_ms = mediana_ms("gpt(idx)", iplar=1, gpt=gpt, idx=idx)
        tayyor = [{} for _ in gpt.bloklar]
        gpt(idx[:, :-1], tayyor)                 # keshda T − 1 ta token
        # har takrorda yangi dictlar, ular tayyor tenzorlarga ishora qiladi
        kesh_ms = mediana_ms("gpt(idx[:, -1:], [dict(k) for k in tayyor])",
                             iplar=1, gpt=gpt, idx=idx, tayyor=tayyor)
        assert tayyor[0]["k"].shape[2] == Tx - 1     # tayyor kesh oʻsmadi
        # ikki yoʻl bir xil logit beradimi: (1, lugʻat) va (1, lugʻat)
        yangi_logit = gpt(idx[:, -1:], [dict(k) for k in tayyor])[:, -1]
        farq_T = (gpt(idx)[:, -1] - yangi_logit).abs().max().item()
        eng_katta_farq = max(eng_katta_farq, farq_T)
        kv_vaqt.append({"T": Tx, "keshsiz (ms)": keshsiz_ms, "kesh bilan (ms)": kesh_ms,
                        "nisbat": keshsiz_ms / kesh_ms, "MAC keshsiz": mac_keshsiz(Tx),
                        "MAC kesh bilan": mac_kesh(Tx), "eng katta farq": son(farq_T, ".1e")})
kv = pd.DataFrame(kv_vaqt)
mln = {"MAC keshsiz": "MAC keshsiz (mln)", "MAC kesh bilan": "MAC kesh bilan (mln)"}
show(kv.assign(**{u: kv[u] / 1e6 for u in mln}).rename(columns=mln)
       .round({"keshsiz (ms)": 3, "kesh bilan (ms)": 3, "nisbat": 1,
               "MAC keshsiz (mln)": 2, "MAC kesh bilan (mln)": 2}),
     izoh="Matnda T ta token boʻlganda keyingi token logitlari: keshsiz (T ta token "
          "qayta hisoblanadi) va KV kesh bilan (faqat yangi token). Vaqt — bitta ipda, "
          "mediana; nisbat — keshsiz vaqt / kesh bilan vaqt; MAC — bitta qadamning "
          "matritsa koʻpaytmalari, million hisobida; eng katta farq — ikki yoʻl "
          "logitlarining farqi.",
     nom="kv_vaqt_jadval")

# %%
rasm, b1 = plt.subplots(figsize=(5.6, 3.8))
b1.plot(kv["T"], kv["keshsiz (ms)"], "o-", label="keshsiz")
b1.plot(kv["T"], kv["kesh bilan (ms)"], "s--", label="KV kesh bilan")
b1.set_xscale("log", base=2); b1.set_yscale("log")
b1.set_xticks(kv["T"], kv["T"].astype(str))
b1.set_xlabel("matndagi tokenlar, T"); b1.set_ylabel("bitta token vaqti (ms)")
b1.grid(True, which="both", alpha=0.3); b1.legend()
plt.tight_layout()
fig("kv_kesh_vaqt.png",
    caption="Keyingi tokenni yaratish vaqti matn uzunligiga qarab, log-log oʻqlarda "
            f"(oʻqitilmagan KichikGPT, {len(gpt.bloklar)} qatlam, "
            f"d = {gpt.emb.embedding_dim}, bitta ip).")


# %%
def osish_sozi(q):
    # log-log qiyalikni soʻz bilan aytish
    for chegara, soz in [(0.5, "deyarli oʻzgarmadi"), (0.85, "chiziqlidan sekin oʻsdi"),
                         (1.15, "taxminan chiziqli oʻsdi"),
                         (1.85, "chiziqlidan tez, kvadratikdan sekin oʻsdi"),
                         (2.15, "taxminan kvadratik oʻsdi")]:
        if q < chegara:
            return soz
    return "kvadratikdan ham tez oʻsdi"


eng_kichik = kv.set_index("T").loc[kv["T"].min()]     # T eng kichik boʻlgan qator
eng_katta = kv.set_index("T").loc[kv["T"].max()]      # T eng katta boʻlgan qator
for ustun, qisqa in [("keshsiz (ms)", "keshsiz"), ("kesh bilan (ms)", "kesh")]:
    # eng kichik kvadratlar toʻgʻri chizigʻi log-log oʻqlarda, hamma T orqali
    q = float(np.polyfit(np.log2(kv["T"]), np.log2(kv[ustun]), 1)[0])
    glue(f"kv_qiyalik_{qisqa}", q, display=False)
    glue(f"kv_qiyalik_{qisqa}_soz", osish_sozi(q), display=False)
    glue(f"kv_ms_{qisqa}", float(eng_katta[ustun]), display=False)
# oxirgi ikki nuqta orasidagi qiyalik (chiziq egilganmi?)
oxirgi_ikki = kv.sort_values("T").tail(2)
glue("kv_T_oxirgi_oldi", int(oxirgi_ikki["T"].iloc[0]), display=False)
q_oxir = float(np.diff(np.log2(oxirgi_ikki["keshsiz (ms)"].values))[0]
               / np.diff(np.log2(oxirgi_ikki["T"].values))[0])
q_hammasi = float(np.polyfit(np.log2(kv["T"]), np.log2(kv["keshsiz (ms)"]), 1)[0])
glue("kv_qiyalik_keshsiz_oxir", q_oxir, display=False)
# MAC ustunining oʻsha oraliqdagi qiyaligi: hisob qanchalik tez oʻsadi
q_mac = float(np.diff(np.log2(oxirgi_ikki["MAC keshsiz"].values.astype(float)))[0]
              / np.diff(np.log2(oxirgi_ikki["T"].values))[0])
glue("kv_mac_qiyalik_oxir", q_mac, display=False)
glue("kv_egilish_gap",
     f"bu MAC ustunining shu oraliqdagi qiyaligidan ({son(q_mac, '.2f')}) katta: vaqt hisobdan tezroq "
     "oʻsadi. Ehtimol, sababi MACga kirmagan T × T tenzorlardagi amallar (maska, softmax, "
     "boʻlish): katta T da bu tenzorlar protsessor keshiga sigʻmaydi (buni alohida "
     "oʻlchamadik)" if q_oxir > q_mac + 0.2 else
     f"bu MAC ustunining shu oraliqdagi qiyaligiga ({son(q_mac, '.2f')}) yaqin: vaqt hisob bilan "
     "birga oʻsadi", display=False)
glue("kv_T_kichik", int(kv["T"].min()), display=False)
glue("kv_T_katta", int(kv["T"].max()), display=False)
glue("kv_nisbat", float(eng_katta["nisbat"]), display=False)
glue("kv_mac_nisbat", float(eng_katta["MAC keshsiz"] / eng_katta["MAC kesh bilan"]), display=False)
glue("kv_mac_osish_kesh", float(eng_katta["MAC kesh bilan"] / eng_kichik["MAC kesh bilan"]), display=False)
glue("kv_ms_kesh_kichik", float(eng_kichik["kesh bilan (ms)"]), display=False)
glue("kv_vaqt_farq", eng_katta_farq, display=False)

# %% [markdown]
# Natijalar {numref}`%s-jadvalda <kv_vaqt_jadval>` va
# {numref}`%s-rasmda <kv_kesh_vaqt>`. *T* = {glue:text}`kv_T_katta` da
# keshsiz yoʻl bitta token uchun {glue:text}`kv_ms_keshsiz:.2f` ms, kesh
# bilan esa {glue:text}`kv_ms_kesh:.2f` ms oldi — {glue:text}`kv_nisbat:.0f`
# marta tezroq.
# Ikki yoʻl logitlarining eng katta farqi hamma *T* da
# {glue:text}`kv_vaqt_farq:.1e` dan oshmadi.
#
# Chiziqlarning qiyaligini log-log oʻqlarda hamma nuqta orqali oʻtkazilgan
# eng yaqin toʻgʻri chiziqdan (eng kichik kvadratlar usuli) oʻlchadik:
# qiyalik 1 — *T* ga, 2 — *T*² ga proporsional oʻsish. Keshsiz yoʻlda model
# *T* ta pozitsiyaning har birida chiziqli qatlamlarni hisoblaydi (*T* ga
# chiziqli) va $T \times T$ ballar matritsasini yasaydi (*T*² ga), shuning
# uchun, agar vaqt hisob hajmiga proporsional boʻlsa, qiyalik 1 bilan 2
# orasida boʻlishi kutiladi. Oʻlchangan qiyalik
# {glue:text}`kv_qiyalik_keshsiz:.2f`: vaqt {glue:text}`kv_qiyalik_keshsiz_soz`.
# Oxirgi ikki nuqta orasida (*T* = {glue:text}`kv_T_oxirgi_oldi` →
# {glue:text}`kv_T_katta`) qiyalik {glue:text}`kv_qiyalik_keshsiz_oxir:.2f`;
# {glue:text}`kv_egilish_gap`. Kesh bilan vaqt juda kichik va
# shovqinli, shuning uchun uning qiyaligi
# ({glue:text}`kv_qiyalik_kesh:.2f`) yigʻishdan yigʻishga sezilarli
# oʻzgaradi; undan xulosa chiqarmaymiz.
#
# Nazariy jihatdan kesh bilan ham ish *T* ga chiziqli bogʻliq: yangi soʻrov
# *T* ta kalitga qaraydi (MAC ustuni shu koʻpaytirishlarni sanaydi), `torch.cat`
# esa butun keshni yangi tenzorga koʻchiradi (koʻchirish ham *T* ga
# chiziqli, lekin MACga kirmaydi). *T* = {glue:text}`kv_T_kichik` dan
# {glue:text}`kv_T_katta` gacha kesh bilan qadamning MAC soni
# {glue:text}`kv_mac_osish_kesh:.1f` marta oʻsdi. Demak, *N* ta tokenni kesh
# bilan yaratish ham jami $O(N^2)$ ish: kesh attentionning kvadratik
# narxini yoʻqotmaydi, faqat oldingi tokenlarni har qadamda qayta
# hisoblashni olib tashlaydi (keshsiz jami $O(N^3)$ boʻlardi).
# Oʻlchangan vaqt esa *T* = {glue:text}`kv_T_kichik` da
# {glue:text}`kv_ms_kesh_kichik:.2f` ms, *T* = {glue:text}`kv_T_katta` da
# {glue:text}`kv_ms_kesh:.2f` ms boʻldi (vaqt — shovqinli oʻlchov, kichik
# farqlar yigʻishdan yigʻishga oʻzgaradi). Keshsiz qadam esa kesh bilan
# qadamdan aynan *T* marta koʻp hisob qiladi: *T* ta pozitsiyaning har biri
# uchun xuddi shu ishni bajaradi (*T* = {glue:text}`kv_T_katta` da
# {glue:text}`kv_mac_nisbat:.0f` marta). Vaqt boʻyicha esa kesh atigi
# {glue:text}`kv_nisbat:.0f` marta tezroq.
#
# Sabab — hisobning hajmi emas, PyTorch chaqiruvlari (operatorlar) soni. Bitta token uchun matritsalar
# juda kichik. Vaqtning katta qismini har bir amalning oʻlchamga bogʻliq
# boʻlmagan doimiy narxi oladi (Python va PyTorch chaqiruvlari), bitta
# qadamda esa bunday amallar oʻnlab. Model kattalashgani sari matritsalar
# ham kattalashadi va hisobning oʻzi ustun kela boshlaydi (buni bu yerda
# oʻlchamadik).
#
# Bu — bitta token narxi. *N* ta token yaratish uchun shu qadamlar *N*
# marta takrorlanadi va matn har qadamda uzayadi. Keshsiz yoʻlda har qadam
# butun matnni qayta hisoblagani uchun umumiy ish *N* ga kamida kvadratik
# oʻsadi; kesh bilan esa har bir qadam arzon qoladi.

# %% [markdown]
# ### Kesh qancha joy egallaydi
#
# Kesh tekin emas: u xotirada turadi. Har qatlamda har bir token uchun
# bitta kalit va bitta qiymat vektori saqlanadi. Har biri $n_{kv}$ ta
# boshda $d_{\text{bosh}}$ tadan son. Demak,
#
# $$
# \text{kesh hajmi} = 2 \cdot L \cdot T \cdot n_{kv} \cdot d_{\text{bosh}} \cdot b,
# $$
#
# bu yerda 2 — kalit va qiymat, *L* — qatlamlar soni, *T* — keshdagi
# tokenlar soni, $n_{kv}$ — kalit/qiymat boshlari soni, $d_{\text{bosh}}$ —
# bitta boshning oʻlchami, *b* — bitta sonning baytlari (float32da 4,
# bfloat16da 2; bfloat16 — 16 bitli kasr son formati). Kesh *T* ga
# chiziqli oʻsadi: matn qancha uzun boʻlsa, kesh shuncha katta.
#
# Katta modellarda kesh xotiraning asosiy isteʼmolchilaridan biriga
# aylanadi. Shuning uchun Llama 3 kabi modellar **guruhli soʻrov
# attention** (ingl. *grouped-query attention*, GQA) ishlatadi: soʻrov
# boshlari koʻp, kalit/qiymat boshlari esa kam. Bir guruhdagi bir nechta
# soʻrov boshi bitta kalit/qiymat boshini birgalikda ishlatadi, keshda esa
# faqat kalit/qiymat boshlari saqlanadi.
#
# Formulani ikki modelda hisoblaymiz: bobdagi `KichikGPT` va Llama 3 8B
# (Meta eʼlon qilgan `config.json` dagi qiymatlar). `KichikGPT` uchun
# formulani yuqorida tokenlar yaratilgandan keyin dictlarda turgan haqiqiy
# tenzorlar baytlari bilan ham solishtiramiz. KiB — $2^{10}$, MiB — $2^{20}$,
# GiB — $2^{30}$ bayt.


# %%
def kesh_bayt(L, T, n_kv, d_bosh, b):
    # har qatlamda 2 ta tenzor (kalitlar va qiymatlar), har biri T × n_kv × d_bosh son
    return 2 * L * T * n_kv * d_bosh * b


def keshdagi_bayt(keshlar):
    # dictlarda haqiqatan turgan tenzorlar hajmi
    return sum(t.nelement() * t.element_size() for kesh in keshlar for t in kesh.values())


# KichikGPT: yuqorida N_YANGI ta token yaratilgandan keyingi kesh
L_gpt, n_gpt = len(gpt.bloklar), gpt.bloklar[0].attn.boshlar
d_bosh_gpt = gpt.emb.embedding_dim // n_gpt
b_gpt = keshlar[0]["k"].element_size()                     # float32: 4 bayt
T_kesh = keshlar[0]["k"].shape[2]
formula_gpt = kesh_bayt(L_gpt, T_kesh, n_gpt, d_bosh_gpt, b_gpt)
haqiqiy_gpt = keshdagi_bayt(keshlar)
T_max_gpt = gpt.poz.shape[0]
print(f"KichikGPT, {T_kesh} token: formula {formula_gpt} bayt, dictlarda {haqiqiy_gpt} bayt")
assert formula_gpt == haqiqiy_gpt

# %%
# Meta Llama 3 8B: config.json (huggingface.co/meta-llama/Meta-Llama-3-8B)
llama3_8b = {"num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
             "hidden_size": 4096, "max_position_embeddings": 8192, "torch_dtype": "bfloat16"}
L_l, T_l = llama3_8b["num_hidden_layers"], llama3_8b["max_position_embeddings"]
n_q_l, n_kv_l = llama3_8b["num_attention_heads"], llama3_8b["num_key_value_heads"]
d_bosh_l = llama3_8b["hidden_size"] // n_q_l                                  # 4096 / 32
b_l = torch.empty(0, dtype=getattr(torch, llama3_8b["torch_dtype"])).element_size()

hajm = pd.DataFrame([
    ("KichikGPT", L_gpt, n_gpt, n_gpt, d_bosh_gpt, b_gpt, T_max_gpt),
    ("Llama 3 8B (GQA)", L_l, n_q_l, n_kv_l, d_bosh_l, b_l, T_l),
    ("Llama 3 8B, GQAsiz", L_l, n_q_l, n_q_l, d_bosh_l, b_l, T_l),
], columns=["model", "qatlamlar", "soʻrov boshlari", "KV boshlar", "bosh oʻlchami", "bayt", "T"])
hajm["kesh (MiB)"] = kesh_bayt(hajm["qatlamlar"], hajm["T"], hajm["KV boshlar"],
                               hajm["bosh oʻlchami"], hajm["bayt"]) / 2**20
show(hajm, izoh="KV kesh hajmi toʻliq kontekstda (T — modelning eng katta uzunligi): "
                "KichikGPT (float32) va Llama 3 8B (bfloat16, Meta config.json); oxirgi "
                f"qator — Llama 3 8B modelining {n_q_l} ta "
                "soʻrov boshining har biri oʻz kalit/qiymatini saqlaganda (GQAsiz).",
     nom="kv_hajm_jadval")

# %%
glue("kv_kesh_T", T_kesh, display=False)
glue("kv_formula_bayt", formula_gpt, display=False)
glue("kv_haqiqiy_bayt", haqiqiy_gpt, display=False)
glue("kv_T_max", T_max_gpt, display=False)
glue("kv_gpt_mib", float(hajm.loc[0, "kesh (MiB)"]), display=False)
glue("kv_llama_q", n_q_l, display=False)
glue("kv_llama_kv", n_kv_l, display=False)
glue("kv_llama_T", T_l, display=False)
glue("kv_llama_gqa_marta", n_q_l // n_kv_l, display=False)
glue("kv_llama_token_kib", kesh_bayt(L_l, 1, n_kv_l, d_bosh_l, b_l) / 2**10, display=False)
glue("kv_llama_gib", float(hajm.loc[1, "kesh (MiB)"]) / 2**10, display=False)
glue("kv_llama_mha_gib", float(hajm.loc[2, "kesh (MiB)"]) / 2**10, display=False)

# 8-mashq yechimi: boshlar yoki qatlamlar soni oʻzgarganda oʻlchangan kesh
for nom_, sozlama in [("bosh8", {"boshlar": 8}), ("qatlam4", {"qatlamlar": 4})]:
    torch.manual_seed(0)
    m_ = KichikGPT(LUGAT, d=64, **sozlama).eval()
    keshlar_ = [{} for _ in m_.bloklar]
    with torch.no_grad():
        m_(matn[:, :m_.poz.shape[0]], keshlar_)               # keshni toʻliq toʻldiramiz
    glue(f"kv_mashq_{nom_}_mib", keshdagi_bayt(keshlar_) / 2**20, display=False)

# %% [markdown]
# Formula va haqiqiy kesh mos keldi: {glue:text}`kv_kesh_T` ta token
# (boshlangʻich matn va yaratilgan tokenlar, oxirgisidan tashqari — u hali
# modeldan oʻtmagan) uchun formula {glue:text}`kv_formula_bayt:d` bayt
# beradi, dictlardagi tenzorlar ham {glue:text}`kv_haqiqiy_bayt:d` bayt.
# {numref}`kv_hajm_jadval` toʻliq kontekstdagi hajmni koʻrsatadi.
# `KichikGPT` ning {glue:text}`kv_T_max` tokenli keshi atigi
# {glue:text}`kv_gpt_mib:g` MiB.
#
# Llama 3 8B modelida esa bitta tokenning keshi {glue:text}`kv_llama_token_kib:g`
# KiB, toʻliq kontekst ({glue:text}`kv_llama_T` token) —
# {glue:text}`kv_llama_gib:g` GiB. Bu bitta matn uchun: model bir vaqtda
# bir nechta foydalanuvchiga javob yozsa, har biriga oʻz keshi kerak.
# GQA boʻlmaganda, yaʼni {glue:text}`kv_llama_q` ta soʻrov boshining har
# biri oʻz kalit va qiymatini saqlaganda, kesh
# {glue:text}`kv_llama_mha_gib:g` GiB boʻlardi. {glue:text}`kv_llama_kv`
# ta kalit/qiymat boshi bilan u {glue:text}`kv_llama_gqa_marta` marta
# kichik.

# %% [markdown]
# ## Yakuniy misol: attention oʻzbekcha sonlarni oʻqiydi
#
# Endi hamma qismni bitta haqiqiy vazifada yigʻamiz. Model oʻzbekcha soʻz
# bilan yozilgan sonni oʻqiydi va uni raqamlar bilan yozadi: «uch yuz qirq
# yetti ming ikki yuz besh» → `347205`. Kirish — haqiqiy oʻzbekcha soʻzlar,
# chiqish — raqamlar, va qaysi raqam qaysi soʻzdan kelishini biz aniq
# bilamiz. Shuning uchun modelning qayerga qarashini tekshirish mumkin.
#
# Maʼlumotni kod yasaydi: hech narsa yuklab olinmaydi. Son 1 dan
# 999 999 gacha; hujjatlardagi kabi «bir yuz», «bir ming» deb yoziladi,
# shunda har nolmas raqamning oʻz soʻzi bor.
#
# ```{literalinclude} ../chapter_code/sonlar.py
# :pyobject: soz_bilan
# ```
#
# Bu — tarjima vazifasi, shuning uchun asl Transformer maqolasidagi kabi
# **koder–dekoder** modelini olamiz (`Tarjimon`). Koder soʻzlarni kauzal
# maskasiz attention bilan oʻqiydi: har soʻz hamma soʻzni koʻradi, faqat
# qisqa sonlarni bir uzunlikka keltirgan toʻldiruvchi `<pad>` tokenlar
# yopiladi. Dekoder raqamlarni bittadan yozadi: oʻzi yozgan
# raqamlarga kauzal maska bilan qaraydi, soʻzlarga esa **cross-attention**
# (*oʻzaro attention*: soʻrovlar dekoderdan, kalit va qiymatlar koder
# chiqishidan) orqali qaraydi. Ikkalasi ham yuqoridagi pre-LN `Blok`.
#
# ```{literalinclude} ../chapter_code/modellar.py
# :pyobject: Tarjimon
# ```
#
# Oʻqitishda dekoder kirishiga oʻzi yozgan emas, toʻgʻri oldingi raqamlar
# beriladi (*teacher forcing*, «oʻqituvchi yordami»): hamma pozitsiya bitta
# hisobda oʻqitiladi. Sinov sonlari oʻqitishda hech qachon uchramaydi; javob
# faqat hamma raqami toʻgʻri boʻlsa toʻgʻri hisoblanadi (*aniq moslik*,
# ingl. *exact match*). Oʻqitish kodi — `chapter_code/sonlar.py` dagi
# `oqit_tarjimon`; u ham omborda saqlanadi. Ikki seed bilan oʻqitamiz:
# ular ikki yadroda parallel ishlaydi.

# %%
import inspect as _inspect
from chapter_code.sonlar import (oqit_tarjimon, sonlar_toplami, soz_bilan, javob,
                                 manba_soz, kesishgan_ogirlik, moslik, ogirlik_qayerda)

tarjima_seedlar = (0, 1)
tarjimonlar = parallel(oqit_tarjimon, [(s,) for s in tarjima_seedlar])
tarjima_protokol = {nom: p.default for nom, p in
                    _inspect.signature(oqit_tarjimon).parameters.items()
                    if p.default is not _inspect.Parameter.empty}
print("oqit_tarjimon() protokoli:", tarjima_protokol)
for s, (aniq_, m_) in zip(tarjima_seedlar, tarjimonlar):
    print(f"seed {s}: sinov aniqligi (aniq moslik) {aniq_:.3f}, "
          f"parametrlar soni {parametrlar(m_)}")
tarjima_aniq, tarjimon = tarjimonlar[0]
_, sinov_sonlar = sonlar_toplami(0, tarjima_protokol["n"], tarjima_protokol["n_sinov"])
sinov_javob = javob(tarjimon, sinov_sonlar)
glue("tr_aniq_0", tarjimonlar[0][0], display=False)
glue("tr_aniq_1", tarjimonlar[1][0], display=False)
glue("tr_n_sinov", tarjima_protokol["n_sinov"], display=False)
glue("tr_qadamlar", tarjima_protokol["qadamlar"], display=False)
xato_0 = [s for j, s in zip(sinov_javob, sinov_sonlar) if j != str(s)]   # seed 0 xato qilgan sonlar
# seed 1 modeli oʻz sinov sonlarida (ular ham oʻqitishda uchramagan)
_, sinov_sonlar_1 = sonlar_toplami(1, tarjima_protokol["n"], tarjima_protokol["n_sinov"])
xato_1 = [s for j, s in zip(javob(tarjimonlar[1][1], sinov_sonlar_1), sinov_sonlar_1) if j != str(s)]
for qisqa, sonlar_, xatolar in [("tr", sinov_sonlar, xato_0), ("tr1", sinov_sonlar_1, xato_1)]:
    glue(f"{qisqa}_xato_soni", len(xatolar), display=False)
    glue(f"{qisqa}_00_xato", sum("00" in str(s) for s in xatolar), display=False)
    glue(f"{qisqa}_00_sinov", sum("00" in str(s) for s in sonlar_), display=False)

# %% tags=["remove-cell"]
# «xatolar 00 li sonlarga toʻplangan»: xatolar tasodifan tushganda (har xato «00» li son boʻlish
# ehtimoli — sinov sonlaridagi ulushi) shuncha «00» li xato chiqish ehtimoli 1 % dan kichik
def toplanganmi(xato_soni, xato_00, sinov_00, n_):
    p_ = sinov_00 / n_
    dum = sum(math.comb(xato_soni, k) * p_**k * (1 - p_)**(xato_soni - k)
              for k in range(xato_00, xato_soni + 1))
    return xato_00 > 0 and dum < 0.01


def xato_gapi(jami, nolli):
    # «6 ta xatoning hammasida», «19 ta xatoning 17 tasida», «yagona xatoda» (nolli ≥ 1)
    if jami == 1:
        return "yagona xatoda"
    return f"{jami} ta xatoning " + ("hammasida" if nolli == jami else f"{nolli} tasida")


n_tr = tarjima_protokol["n_sinov"]
sinov00 = [sum("00" in str(s) for s in sonlar_) for sonlar_ in (sinov_sonlar, sinov_sonlar_1)]
xato00 = [sum("00" in str(s) for s in x) for x in (xato_0, xato_1)]
kons = [toplanganmi(len(x), x00, s00, n_tr) for x, x00, s00 in zip((xato_0, xato_1), xato00, sinov00)]


def toplanmagan(xatolar, x00):
    return (f"{len(xatolar)} ta xatoning hech birida ketma-ket nollar yoʻq" if x00 == 0 else
            f"{xato_gapi(len(xatolar), x00)} ketma-ket nollar bor")


if not xato_0:
    gap0 = "Seed 0 modeli sinov sonlarining hammasini toʻgʻri yozdi."
elif kons[0]:
    gap0 = (f"Xatolarga qarang: {xato_gapi(len(xato_0), xato00[0])} ketma-ket nollar («00») bor, "
            f"holbuki {n_tr} ta sinov sonining atigi {sinov00[0]} tasida shunday.")
else:
    gap0 = (f"Xatolar «00» li sonlarga toʻplanmagan: {toplanmagan(xato_0, xato00[0])} "
            f"({n_tr} ta sinov sonining {sinov00[0]} tasida bor).")
if not xato_1:
    gap1 = "Seed 1 modeli esa oʻz sinov sonlarining hammasini toʻgʻri yozdi."
elif kons[1]:
    gap1 = (f"Seed 1 modelida {'ham shu manzara' if kons[0] else 'esa xatolar «00» li sonlarga toʻplangan'}: "
            f"oʻz sinov sonlaridagi {xato_gapi(len(xato_1), xato00[1])} «00» bor (sinov "
            f"sonlarining {sinov00[1]} tasida bor).")
else:
    gap1 = (f"Seed 1 modelida xatolar «00» li sonlarga toʻplanmagan: {toplanmagan(xato_1, xato00[1])} "
            f"(sinov sonlarining {sinov00[1]} tasida bor).")
sabab = (" Masalan, «… yuz ming …» kabi sonlardagi nollar guruhini hech bir soʻz aytmaydi: model "
         "uni «yuz» va «ming» soʻzlarining joylashuvidan topishi kerak." if any(kons) else "")
glue("tr_00_paragraf", gap0 + " " + gap1 + sabab, display=False)

# %% [markdown]
# Seed 0 bilan oʻqitilgan model {glue:text}`tr_n_sinov` ta yangi sonning
# {glue:text}`tr_aniq_0:.1%` qismini toʻliq toʻgʻri yozdi (seed 1 da
# {glue:text}`tr_aniq_1:.1%`); bunga parametrlarni {glue:text}`tr_qadamlar`
# marta yangilash yetdi. {numref}`%s-jadvalda <tarjima_misollar>` sinov
# sonlaridan bir nechta toʻgʻri javob va modelning hamma xatolari
# ({glue:text}`tr_xato_soni` ta) bor.

# %%
togri_misol = [(s, j) for s, j in zip(sinov_sonlar, sinov_javob) if j == str(s)][:4]
xato_misol = [(s, j) for s, j in zip(sinov_sonlar, sinov_javob) if j != str(s)]
# sonlar oʻqish uchun xonalari guruhlab koʻrsatiladi (138 402); model javobi raqamlardan
# iborat boʻlmasa yoki 0 bilan boshlansa, model yozganicha qoladi
def guruhla(j):
    return son(int(j)) if j.isdigit() and not j.startswith("0") else j


show(pd.DataFrame([{"soʻz bilan": soz_bilan(s), "toʻgʻri javob": son(s),
                    "model javobi": guruhla(j), "toʻgʻrimi": "ha" if j == str(s) else "yoʻq"}
                   for s, j in togri_misol + xato_misol]),
     izoh="Oʻqitishda uchramagan sonlar: birinchi toʻrtta toʻgʻri javob va "
          "modelning hamma xatosi (seed 0).",
     nom="tarjima_misollar")

# %% [markdown]
# {glue:text}`tr_00_paragraf` Endi model yozayotganda
# qayerga qarashini koʻramiz. Dekoderning yagona qatlamidagi
# cross-attention ogʻirliklarini olamiz: har qator — bitta raqamni
# yozayotgan pozitsiya, har ustun — bitta soʻz. Misol sifatida bitta nolli
# olti xonali sinov sonini tanlaymiz.

# %%
misol = next(s for s in sinov_sonlar if len(str(s)) == 6 and str(s).count("0") == 1)
sozlar = soz_bilan(misol).split()
raqamlar = list(str(misol))
# (qatlamlar, 1, boshlar, Tq, Tm) -> oxirgi (yagona) qatlam, 1-namuna: (boshlar, Tq, Tm)
w_tr = kesishgan_ogirlik(tarjimon, [misol])[-1, 0][:, :len(raqamlar), :len(sozlar)]
w_orta = w_tr.mean(0)                                  # boshlar oʻrtachasi: (raqamlar, soʻzlar)
print(f"{misol} = «{soz_bilan(misol)}»;  model javobi: {javob(tarjimon, [misol])[0]}")
for t, (r, j) in enumerate(zip(raqamlar, manba_soz(misol))):
    eng = int(w_orta[t].argmax())
    print(f"  {t}-raqam {r}: eng koʻp «{sozlar[eng]}» ga ({w_orta[t, eng]:.2f}); "
          f"uni beradigan soʻz: {'yoʻq (nol)' if j is None else '«' + sozlar[j] + '»'}")

misol_togri = all(int(w_orta[t].argmax()) == j for t, j in enumerate(manba_soz(misol)) if j is not None)
rasm, b = plt.subplots(figsize=(7.2, 3.8))
tasvir = b.imshow(w_orta.numpy(), cmap="viridis", vmin=0, vmax=1, aspect="auto")
b.set_xticks(range(len(sozlar)), sozlar, rotation=35, ha="right")
b.set_yticks(range(len(raqamlar)), [f"{t}-raqam: {r}" for t, r in enumerate(raqamlar)])
b.set_xlabel("soʻz (koder)"); b.set_ylabel("yozilayotgan raqam (dekoder)")
plt.colorbar(tasvir, ax=b, fraction=0.046)
plt.tight_layout()
fig("tarjima_xarita.png",
    caption=f"Cross-attention: {son(misol)} sonini yozayotgan dekoder qaysi soʻzga "
            "qaraydi (yagona dekoder qatlami, 4 boshning oʻrtachasi). "
            + ("Har nolmas raqamning eng yorqin katagi — uni beradigan soʻz"
               if misol_togri else "Nolmas raqamlarning hammasida ham eng yorqin katak uni "
               "beradigan soʻzda emas") + "; nolning soʻzi yoʻq.")

ulush = moslik(tarjimon, sinov_sonlar)[-1]            # (boshlar + 1,): oxirgi qatlam
# [oʻz soʻzi, «yuz»/«ming», boshqa soʻz] ulushlari: (boshlar + 1, 3)
qayerda = ogirlik_qayerda(tarjimon, sinov_sonlar)[-1]
glue("tr_moslik", float(ulush[-1]), display=False)
glue("tr_orta_oz", float(qayerda[-1, 0]), display=False)
glue("tr_orta_ym", float(qayerda[-1, 1]), display=False)
# nollar: ularning soʻzi yoʻq; ogʻirligining qanchasi «yuz»/«ming» ga tushadi
nol_ym = float(ogirlik_qayerda(tarjimon, sinov_sonlar, nollar=True)[-1, -1, 1])
glue("tr_nol_ym", nol_ym, display=False)
glue("tr_moslik_min", float(ulush[:-1].min()), display=False)
glue("tr_moslik_max", float(ulush[:-1].max()), display=False)
glue("tr_misol", misol, display=False)
glue("tr_misol_togri", misol_togri, display=False)
nol_t = raqamlar.index("0")
glue("tr_nol_soz", sozlar[int(w_orta[nol_t].argmax())], display=False)

# %% tags=["remove-cell"]
# «bitta yorqin katak»: har nolmas raqam qatorida eng katta ogʻirlik yarmidan koʻp
yorqin = all(float(w_orta[t].max()) > 0.5 for t, j in enumerate(manba_soz(misol)) if j is not None)
glue("tr_misol_yorqin", yorqin, display=False)
glue("tr_xarita_gap", "har nolmas raqamning qatorida bitta yorqin katak bor va bu katak aynan shu "
     "raqamni beradigan soʻz ustunida" if misol_togri and yorqin else
     "har nolmas raqamning qatoridagi eng yorqin katak aynan shu raqamni beradigan soʻz ustunida, "
     "lekin baʼzi qatorlarda ogʻirlik bir necha soʻzga tarqalgan" if misol_togri else
     "nolmas raqamlarning hammasida ham eng yorqin katak shu raqamni beradigan soʻz ustunida emas",
     display=False)
glue("tr_nol_gap", "aynan shu soʻzlar qaysi xonalar boʻsh qolganini bildiradi" if nol_ym > 0.5 else
     "qolgani boshqa soʻzlarga tarqaladi", display=False)

# %% [markdown]
# {numref}`%s-rasmda <tarjima_xarita>` {glue:text}`tr_xarita_gap`. Raqamni
# beradigan soʻz: yuz minglar raqami uchun — birinchi soʻz, oʻnliklar raqami
# uchun — oʻnlik soʻzi (masalan, «qirq» 4 ni beradi). Bu — asl attention
# maqolasidagi (Bahdanau va boshq., 2015) mashhur tekislash (*alignment*)
# rasmining oʻzbekcha varianti, va tekislashni modelga hech kim oʻrgatmagan:
# u faqat toʻgʻri raqamlarni yozishga oʻqitilgan. Hamma sinov sonlarida, dekoderga toʻgʻri oldingi raqamlar
# berilganda (oʻqitishdagi kabi), nolmas raqamlarning
# {glue:text}`tr_moslik:.1%` qismida eng kuchli oʻrtacha ogʻirlik aynan
# oʻsha raqamni beradigan soʻzga tushdi.
#
# Xarita mukammal emas. Nol raqamining soʻzi yoʻq: bu misolda u eng koʻp
# «{glue:text}`tr_nol_soz`» soʻziga qaraydi, hamma sinov sonlarida esa nollar
# ogʻirligining oʻrtacha {glue:text}`tr_nol_ym:.0%` qismi «yuz» va «ming»
# soʻzlariga tushadi — {glue:text}`tr_nol_gap`. Nolmas raqamlarda ham ogʻirlik
# bitta soʻzda toʻliq emas: hamma sinov sonlarida oʻrtacha
# {glue:text}`tr_orta_oz:.0%` qismi oʻz soʻziga, {glue:text}`tr_orta_ym:.0%`
# qismi «yuz» va «ming» soʻzlariga, qolgani boshqa soʻzlarga tushadi.
#
# Bu xarita 4 boshning oʻrtachasi. Har bosh alohida qayerga qaraydi?
# {numref}`%s-rasmda <tarjima_boshlar>` oʻsha misolning toʻrtala boshi.

# %%
rasm, panellar = plt.subplots(1, w_tr.shape[0], figsize=(11, 3.4), sharey=True)
for h_i, b in enumerate(panellar):
    b.imshow(w_tr[h_i].numpy(), cmap="viridis", vmin=0, vmax=1, aspect="auto")
    b.set_title(f"{h_i}-bosh: {foiz(ulush[h_i])}")
    b.set_xticks(range(len(sozlar)), sozlar, rotation=60, ha="right", fontsize=8)
    b.set_yticks(range(len(raqamlar)), raqamlar)
panellar[0].set_ylabel("yozilayotgan raqam")
plt.tight_layout()
fig("tarjima_boshlar.png",
    caption="Oʻsha misolda har boshning cross-attention ogʻirliklari. Sarlavhada: "
            "hamma sinov sonlarida nolmas raqamning eng kuchli ogʻirligi oʻz "
            "soʻziga tushgan ulush (shu boshda).")

zaif = int(ulush[:-1].argmin())                        # toʻgʻri soʻzga eng kam tushadigan bosh
glue("tr_zaif_bosh", zaif, display=False)
glue("tr_zaif_oz", float(qayerda[zaif, 0]), display=False)
glue("tr_zaif_ym", float(qayerda[zaif, 1]), display=False)
glue("tr_zaif_boshqa", float(qayerda[zaif, 2]), display=False)
glue("tr0_ym_max", float(qayerda[:-1, 1].max()), display=False)
# Boshqa seed bilan oʻqitilgan model: «yuz»/«ming» ga eng koʻp qaraydigan boshi
qayerda_1 = ogirlik_qayerda(tarjimonlar[1][1], sinov_sonlar_1)[-1]
ym_1 = int(qayerda_1[:-1, 1].argmax())
glue("tr1_ym_bosh", ym_1, display=False)
glue("tr1_ym", float(qayerda_1[ym_1, 1]), display=False)
ulush_1 = moslik(tarjimonlar[1][1], sinov_sonlar_1)[-1]    # (boshlar + 1,): seed 1, oxirgi qatlam
glue("tr1_ym_moslik", float(ulush_1[ym_1]), display=False)

# %% tags=["remove-cell"]
boshlar_farqli = float(ulush[:-1].max() - ulush[:-1].min()) > 0.1
glue("tr_boshlar_soz", "bir xil emas" if boshlar_farqli else "bir-biriga oʻxshaydi", display=False)
oz_, ym_, boshqa_ = (float(x) for x in qayerda[zaif])
orta_oz = float(qayerda[-1, 0])                        # boshlar oʻrtachasi: oʻz soʻziga
if oz_ > max(ym_, boshqa_):
    zaif_gap = (f"Eng past ulushli {zaif}-bosh ham ogʻirligining eng katta qismini — {foiz(oz_)} — "
                f"oʻz soʻziga beradi (boshlar oʻrtachasida {foiz(orta_oz)}), qolganini esa: "
                f"{foiz(ym_)} qismini «yuz» va «ming» soʻzlariga, {foiz(boshqa_)} qismini boshqa "
                "soʻzlarga.")
else:
    zaif_gap = (f"Eng past ulushli {zaif}-bosh ogʻirligining eng katta qismini oʻz soʻziga emas, "
                + ("«yuz» va «ming» soʻzlariga" if ym_ >= boshqa_ else "boshqa soʻzlarga")
                + f" beradi: oʻz soʻziga {foiz(oz_)}, «yuz» va «ming» ga {foiz(ym_)}, "
                f"boshqa soʻzlarga {foiz(boshqa_)}.")
glue("tr_zaif_gap", zaif_gap, display=False)
glue("tr_kop_boshli_gap", "Koʻp boshli attentionning maʼnosi shu: har bosh oʻz Q, K "
     "proyeksiyasi bilan boshqa narsaga qaraydi, chiqish esa ularning hammasini birlashtiradi."
     if boshlar_farqli else "Bu yigʻishda boshlar bir-birini takrorlagan: koʻp boshli attention "
     "har boshni boshqa narsaga qarashga majbur qilmaydi, u faqat bunga imkon beradi.",
     display=False)
# har seedda «yuz»/«ming» ga eng koʻp qaraydigan bosh: (bosh, ulushi, toʻgʻri soʻzga tushish ulushi)
ym_bosh = [(int(q[:-1, 1].argmax()), float(q[:-1, 1].max()), float(m_[int(q[:-1, 1].argmax())]))
           for q, m_ in ((qayerda, ulush), (qayerda_1, ulush_1))]
bor = [u > 0.5 for _, u, _ in ym_bosh]                # shu seedda «yuz»/«ming» boshi bormi
yoq = [u < 0.3 for _, u, _ in ym_bosh]                # hech bir bosh ularga koʻp qaramaydimi


def ym_gapi(s):
    bosh, u, m_ = ym_bosh[s]
    return (f"seed {s} bilan oʻqitilgan modelda (uning oʻz sinov sonlarida) {bosh}-bosh "
            f"ogʻirligining {foiz(u)} qismini «yuz» va «ming» soʻzlariga beradi (toʻgʻri soʻzga "
            f"tushish ulushi {'atigi ' if m_ < 0.5 else ''}{foiz(m_)}): ehtimol, u xonalarni "
            "kuzatadi (buni alohida tekshirmadik)")


if (bor[0] and yoq[1]) or (bor[1] and yoq[0]):
    bir, boshqa = (0, 1) if bor[0] else (1, 0)
    gap = (f"Boshlar ishni qanday taqsimlashi seedga bogʻliq. {ym_gapi(bir)[0].upper()}"
           f"{ym_gapi(bir)[1:]}. Seed {boshqa} modelida esa hech bir bosh «yuz» va «ming» "
           f"soʻzlariga {foiz(ym_bosh[boshqa][1])} dan koʻp bermaydi.")
elif all(bor):
    gap = ("Ikkala seedda ham «yuz» va «ming» soʻzlariga ixtisoslashgan bosh bor: "
           + "; ".join(f"seed {s_} da {ym_bosh[s_][0]}-bosh ({foiz(ym_bosh[s_][1])})" for s_ in (0, 1))
           + ". Ehtimol, ular xonalarni kuzatadi (buni alohida tekshirmadik).")
elif all(yoq):
    gap = ("Hech bir seedda «yuz» va «ming» soʻzlariga ixtisoslashgan bosh chiqmadi: bunday soʻzlarga "
           + " va ".join(f"seed {s_} da eng koʻpi {foiz(ym_bosh[s_][1])}" for s_ in (0, 1)) + ".")
else:
    gap = ("«Yuz» va «ming» soʻzlariga eng koʻp qaraydigan bosh "
           + ", ".join(f"seed {s_} da ogʻirligining {foiz(ym_bosh[s_][1])} qismini" for s_ in (0, 1))
           + " ularga beradi: aniq ixtisoslashgan bosh haqida gapirish uchun bu yetarli emas.")
glue("tr_seed_boshlar_gap", gap, display=False)

# %% [markdown]
# {numref}`%s-rasmdagi <tarjima_boshlar>` boshlar {glue:text}`tr_boshlar_soz`: hamma sinov
# sonlarida ularning «toʻgʻri soʻzga tushish» ulushi
# {glue:text}`tr_moslik_min:.0%` dan {glue:text}`tr_moslik_max:.0%` gacha.
# {glue:text}`tr_zaif_gap` {glue:text}`tr_kop_boshli_gap`
#
# {glue:text}`tr_seed_boshlar_gap`

# %% [markdown]
# ## Transformerlar qayerda ishlatiladi
#
# Amalda Transformer deyarli hech qachon noldan oʻqitilmaydi. Katta model
# milliardlab soʻzli matnlarda oʻqitilgan boʻladi; buni takrorlash uchun juda
# koʻp maʼlumot va hisoblash kerak. Buning oʻrniga tayyor model olinadi va
# oʻz vazifangizga moslashtiriladi: u sizning maʼlumotingizda qisqa
# qoʻshimcha oʻqitiladi (*fine-tuning*). Jadvaldagi qisqartmalar: LLM (*large
# language model*) — katta til modeli; RAG (*retrieval-augmented
# generation*) — avval hujjatlardan mos parchalar qidiriladi, soʻng LLM
# ular asosida javob yozadi; LoRA (*low-rank adaptation*) — modelning oʻzi
# emas, unga qoʻshilgan kichik matritsalar oʻqitiladi; OCR (*optical
# character recognition*) — rasmdagi matnni tanish.
# {numref}`qollash_jadval` odatiy vazifalar va yondashuvlarni koʻrsatadi.

# %%
show(pd.DataFrame([
    ("Matnni tasniflash (klassifikatsiya)",
     "Tayyor model + oxirgi qatlam (fine-tuning)"),
    ("Oʻz hujjatlaringiz boʻyicha savol-javob",
     "RAG: qidirish + LLM"),
    ("Oʻz uslubingizda matn",
     "LoRA bilan fine-tuning"),
    ("Rasmdagi matnni tanish (OCR)",
     "Vision Transformer (rasm uchun Transformer) + dekoder"),
    ("Vaqt qatorlari",
     "Avval toʻliq darslikning 34-bobi: ayirmalarni olish (differencing) va klassik usullar"),
], columns=["Vazifa", "Yondashuv"]),
     izoh="Transformerlarning amaliy qoʻllanishi.", nom="qollash_jadval")
print("Muhim: bu vazifalarning hech birida Transformerni "
      "NOLDAN oʻqitmaysiz.")
print("Tayyor model olinadi va moslashtiriladi. "
      "Buning yoʻli — toʻliq darslikning 38-bobida (LoRA, QLoRA).")

# %% [markdown]
# Bu sahifa — kitobning bitta bobi; 34- va 38-boblar toʻliq darslikda.
# Vaqt qatorlari uchun avval klassik usullarni sinab koʻring (34-bob).
# Tayyor modelni kam resurs bilan moslashtirish yoʻllari — LoRA va QLoRA
# (QLoRA — sonlari kam bitda saqlangan modelga qoʻllanadigan LoRA) — 38-bobda.
#
# ## Xulosa
#
# {numref}`xulosa_jadval` bobning asosiy gʻoyalarini bittadan jumlada
# jamlaydi. «Oʻlchandi» deb yozilgan qatorlar shu sahifadagi oʻlchovlardan
# tuzilgan.

# %%
grad = grad_nisbat                          # oxirgi / birinchi qadam gradienti, har model
xulosa = pd.DataFrame([
    ("Attention formulasi", "softmax(Q @ K.T / sqrt(d)) @ V"),
    ("Q, K, V",
     "Soʻrov, kalit, qiymat — uchtasi ham chiziqli proyeksiya"),
    ("Nega sqrt(d)", "Softmaxni toʻyinishdan saqlaydi"),
    ("Yoʻl uzunligi",
     f"Istalgan ikki pozitsiya orasida bitta bogʻlanish — {T-1} ta qadam emas"),
    ("Gradient oqimi",
     f"Oʻlchandi: nisbat attentionda {son(grad['attention'], '.2f')}, "
     f"RNNda {son(grad['RNN'], '.1e')}, LSTMda {son(grad['LSTM'], '.1e')}"),
    ("Boshlanish",
     f"Oʻlchandi: vazifani yechgan seedlar ({n_seed} tadan) — standart LSTMda "
     f"{tugadi['LSTM'].soni('yechdi')} ta, unutish siljishi {son(UNUTISH, 'g')} bilan "
     f"{tugadi[lstm_u].soni('yechdi')} ta; eng yomon seedlar {son(min(aniqliklar['LSTM']), '.2f')} "
     f"va {son(min(aniqliklar[lstm_u]), '.2f')}"),
    ("Pozitsiya kodlash",
     f"Oʻlchandi: busiz model tartibni koʻrmaydi (farq {son(aralash_farq, '.0e')}), "
     f"aniqlik {son(max(aniqliklar['attention (pozitsiyasiz)']), '.2f')} dan oshmadi"),
    ("Tushuntirish",
     f"Ogʻirliklar model qayerga qarashini koʻrsatadi: "
     f"eʼtiborning {foiz(w[0], 1)} qismi 0-qadamga"),
    ("O(T²)",
     f"Oʻlchandi: {'xotira ham, vaqt ham kamida T² bilan' if vaqt_qiyalik >= 1.85 else 'xotira T² bilan, vaqt ham tez'} "
     "oʻsadi; 4 oʻlchamli kirishdagi SDPA (flash) xotirani "
     f"{'chiziqli' if qiyalik('SDPA', 'choʻqqi (MiB)') < 1.5 else 'kvadratik'} qiladi, "
     "vaqtni emas"),
    ("Parallellik",
     f"T = {T_kat}: attention {son(mac_nisbat, '.1f')}× koʻp MAC, ketma-ket bosqichi 1 "
     f"(RNNda {T_kat}); {IPLAR} ipda {son(vaqt_nisbat, '.1f')}× "
     f"{'sekinroq' if vaqt_nisbat > 1 else 'tezroq'}"),
    ("Transformer bloki", "Attention + qoldiq ulanish + norm + feed-forward; GPT-2, Llama: pre-LN"),
    ("Kauzal maska",
     f"Oʻlchandi: diagonaldan yuqorisi {son(ogirlik_maskali[0][maska].abs().max().item(), 'g')}, "
     "qatorlar yigʻindisi 1"),
    ("Uzunroq ketma-ketlik",
     f"Oʻlchandi: sinusoidal T = {T} → {Tmax}: aniqlik kamida "
     f"{son(min(poz_aniq[n][Tmax] for n in sinus_nomlar), '.3f')} ({len(sinus_nomlar)} seed)"
     + (f"; T = {poz_T_uzun} da kafolat yoʻq" if sin_hammasi else f"; T ≤ {Tmax} da ham har doim ishlamadi")),
    ("KV kesh",
     f"Oʻlchandi: natija bir xil (farq {son(logit_farq, '.0e')}); T = {kv['T'].max()}: "
     f"bu yigʻishda {son(kv['nisbat'].iloc[-1], '.0f')}× tezroq"),
    ("Cross-attention",
     f"Oʻlchandi: aniqlik {son(tarjima_aniq, '.3f')}; nolmas raqamlarning "
     f"{foiz(ulush[-1])} qismida eng kuchli ogʻirlik oʻz soʻzida"),
], columns=["Tushuncha", "Bitta jumla"])
show(xulosa, izoh="Bobning xulosasi.", nom="xulosa_jadval")

# %% [markdown]
# ## Mashqlar
#
# Kod bilan ishlaydigan mashqlarda avval natijani **taxmin qiling**, soʻng
# oʻlchang. Taxmin va oʻlchov farq qilsa — eng koʻp oʻrganiladigan joy shu.
#
# **1-mashq ($\sqrt{d}$ ga boʻlmasdan).** «Attention toʻrt bosqichda»
# boʻlimida `d = 512` deb oʻzgartiring va `ball_normal = ball` deb yozing
# (boʻlishni olib tashlang). Har qatordagi eng katta ogʻirlik qanday
# boʻladi? Taxmin qiling, soʻng `ogirlik.max(dim=-1)` ni ekranga chiqaring
# va boʻlish bilan solishtiring.
#
# :::{admonition} Yechim
# :class: dropdown
#
# {numref}`%s-rasmdagi <sqrt_d>` oʻlchov javob beradi. Komponentlar dispersiyasi 1
# boʻlsa, boʻlishsiz ballarning standart chetlanishi $\sqrt{512} \approx 22{,}6$
# boʻlardi; `nn.Linear` ning standart boshlanishida esa u *d* = 512 da
# {glue:text}`sq_std_512:.1f` (oʻlchandi). Bu ham softmaxni toʻyintirishga
# yetadi: eng katta ogʻirlik oʻrtacha {glue:text}`sq_max_512:.2f`, lekin
# har doim ham 1 ga yaqin emas — eng kichigi {glue:text}`sq_max_512_min:.2f`.
# $\sqrt{d}$ ga boʻlinganda eng katta ogʻirlik oʻrtacha
# {glue:text}`sq_max_512_bol:.2f` va ogʻirliklar ancha tekis taqsimlanadi.
# (Bu sonlar {numref}`%s-rasmdagi <sqrt_d>` 16 pozitsiyali oʻlchovdan; «toʻrt
# bosqich» misolining 4 pozitsiyasida tekis ogʻirlik $1/4$, shuning uchun
# boʻlingandagi eng katta ogʻirlik kattaroq chiqadi.) Toʻyingan qatorlarda
# softmaxning gradienti deyarli nol: ular orqali *Q* va *K* ga signal
# deyarli oʻtmaydi.
# :::
#
# **2-mashq (uzunroq ketma-ketlik).** Gradient jadvalini `T = 120` bilan
# qayta hisoblang. RNNdagi «119-qadam / 0-qadam» nisbati qanday
# oʻzgaradi? Attentiondagi-chi?
#
# :::{admonition} Yechim
# :class: dropdown
#
# RNNda gradient har qadamda taxminan bir xil koʻpaytuvchiga koʻpaytiriladi,
# shuning uchun nisbat masofaga **eksponensial** bogʻliq: qadamlar ikki
# barobar koʻpaysa, nisbatning tartibi ham taxminan ikki barobar oshadi
# (0-qadam gradienti float32 ifodalay oladigan eng kichik sondan ham
# kichrayib, nolga aylanishi mumkin — unda nisbat cheksiz boʻladi).
# Attentionda nisbat yana 1 atrofida qoladi: yoʻl uzunligi *T* ga bogʻliq
# emas.
# :::
#
# **3-mashq (parametrlarni sanash).** `Attention(60)` da nechta parametr
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
# **4-mashq (maska tartibni sezadimi?).** Pozitsiya kodlashsiz attention
# kirish tartibini koʻrmaydi: elementlarni aralashtirsak, har elementning
# chiqishi u bilan birga koʻchadi, oʻzi oʻzgarmaydi. Kauzal maska bilan-chi?
# «Kauzal maska» boʻlimidagi misolda `h` ni teskari tartibga qoʻying
# (`h.flip(1)`) va maskali chiqishni qayta hisoblang. Toʻrt elementdan
# qaysilarining chiqishi oʻzgaradi? Avval taxmin qiling.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Toʻrttasiniki ham oʻzgaradi. Maska bilan *i*-pozitsiyadagi element faqat
# oʻzini va oʻzidan oldingi elementlarni koʻradi. Asl tartibda 0-element faqat oʻzini
# koʻrardi, teskari tartibda u oxirida turadi va hammani koʻradi; qolganlarida
# ham koʻradigan toʻplam oʻzgaradi. Demak, kauzal maskaning oʻzi modelga
# tartib haqida maʼlumot beradi: pozitsiya kodlashsiz dekoder ham
# pozitsiyani qisman sezishi mumkin (Haviv va boshq., 2022). Maskasiz
# attentionda esa har element hamma elementni koʻradi va chiqishi faqat
# u bilan birga joyini almashtiradi (`tests/test_transformer.py` ikkalasini
# tekshiradi).
# :::
#
# **5-mashq (oʻylash uchun).** Oʻqitilmagan `Attention(T, pozitsiya=True)`
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
# **6-mashq (unutish siljishi).** `partial(Ketma, "lstm", unutish=1.0)` ni
# `parallel(oqit, ...)` bilan uchta seedda oʻqiting, soʻng `unutish=5.0`
# bilan takrorlang. Oʻqitishdan oldin natijani taxmin qiling.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Taxmin uchun bobdagi bahoni hisoblang: $\sigma(1)^{59}$ =
# {glue:text}`f_tavsiya_T:.0e` — standart LSTMdagidan
# ({glue:text}`f_standart_T:.0e`) ancha katta, lekin baribir juda kichik:
# boshlangʻich bahoga koʻra 0-qadam xotirasi boshida deyarli toʻliq soʻnadi.
# $\sigma(5)^{59}$ = {glue:text}`f_katta_T:.2f` — xotira boshidanoq
# saqlanadi. Lekin baho faqat oʻqitish boshidagi holatni tasvirlaydi: oʻqitish
# yomon boshlanishda ham soʻnishni yengishi, yaxshi boshlanishda ham toʻxtab
# qolishi mumkin. {glue:text}`lstmu_toxtagan` Natija seedga va protsessorga bogʻliq,
# shuning uchun xulosani faqat oʻz oʻlchovingizdan, har seed qanday
# tugaganini sanab chiqaring.
# :::
#
# **7-mashq (qisqa oʻqitish).** Sinusoidal modelni *T* = 30 da oʻqiting:
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
#
# **8-mashq (KV kesh hajmi).** `KichikGPT(LUGAT, d=64, boshlar=8)` va
# `KichikGPT(LUGAT, d=64, qatlamlar=4)` ni yasang. Har birida
# {glue:text}`kv_T_max` tokenli kesh necha MiB boʻladi? Avval formuladan
# taxmin qiling. Soʻng keshni toʻldiring: modelga `matn` ni `keshlar`
# (har blokka bitta boʻsh dict) bilan bering va dictlardagi tenzorlar
# baytlarini `keshdagi_bayt` bilan sanang.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Formulada $n_{kv} \cdot d_{\text{bosh}}$ koʻpaytmasi turibdi. Oddiy
# koʻp boshli attentionda u *d* ga teng: boshlar ikki barobar koʻpaysa,
# har boshning oʻlchami ikki barobar kichrayadi. Shuning uchun boshlar
# sonini oshirish keshni oʻzgartirmaydi: oʻlchandi —
# {glue:text}`kv_mashq_bosh8_mib:g` MiB, xuddi asl modeldagidek
# ({glue:text}`kv_gpt_mib:g` MiB). Qatlamlar ikki barobar koʻpaysa, kesh
# ham ikki barobar oshadi: {glue:text}`kv_mashq_qatlam4_mib:g` MiB. Keshni
# kalit/qiymat boshlarini kamaytirish (GQA), *d* ni kichraytirish yoki
# sonlarni qisqaroq formatda saqlash kichraytiradi.
# :::
#
# ## Atamalar
#
# :::{glossary}
# attention (eʼtibor mexanizmi)
#   ingl. *attention*. Har pozitsiya chiqishini hamma pozitsiya
#   qiymatlarining vaznli oʻrtachasi sifatida hisoblash usuli.
#
# soʻrov
#   ingl. *query*, *Q*. Pozitsiya «nimani qidirayotganini» ifodalovchi vektor.
#
# kalit
#   ingl. *key*, *K*. Pozitsiya «nimaga egaligini» ifodalovchi vektor;
#   soʻrov bilan solishtiriladi.
#
# qiymat
#   ingl. *value*, *V*. Pozitsiya tanlansa, uning chiqishga qoʻshadigan vektori.
#
# ball
#   ingl. *score*. Soʻrov va kalitning skalyar koʻpaytmasi (oʻxshashlik).
#
# ogʻirlik
#   ingl. *attention weight*. Softmaxdan keyingi ball; bir qatordagilar
#   yigʻindisi 1. Model parametrlari (vaznlar) bilan adashtirmang.
#
# pozitsiya kodlash
#   ingl. *positional encoding*. Har pozitsiyaga qoʻshiladigan vektor; usiz
#   attention tartibni koʻrmaydi.
#
# ketma-ketlik
#   ingl. *sequence*. Tartiblangan elementlar qatori, masalan, vaqt
#   qadamlaridagi sonlar yoki soʻzlar.
#
# qadam
#   ingl. *time step*. Ketma-ketlikdagi bitta pozitsiya; 0 dan sanaladi
#   (0-qadam, 1-qadam, …). Algoritmning bosqichlari va parametrlarni yangilash
#   boshqa soʻzlar bilan ataladi.
#
# bosqich
#   ingl. *stage*. Algoritmning bitta qismi, masalan, attentionning toʻrt
#   bosqichi.
#
# vaznli oʻrtacha
#   ingl. *weighted average*. Har qiymat oʻz vazni (ogʻirligi) bilan
#   koʻpaytirilib qoʻshiladi; vaznlar yigʻindisi 1.
#
# oʻrtacha kvadratik (standart) chetlanish
#   ingl. *standard deviation*. Sonlarning oʻz oʻrtachasidan odatdagi
#   uzoqligi; dispersiyaning kvadrat ildizi.
#
# toʻyinish
#   ingl. *saturation*. Softmax kirishidagi ballar juda katta boʻlganda u
#   bitta elementga deyarli 1, qolganlarga deyarli 0 beradi; bunday joyda
#   gradient deyarli nol.
#
# gradientning soʻnishi
#   ingl. *vanishing gradient*. Gradient koʻp qadam orqali orqaga
#   uzatilganda har qadamda koʻpaytirilib, nolga yaqinlashib ketishi.
#
# unutish darvozasi
#   ingl. *forget gate*. LSTMda xotira hujayrasi har qadamda
#   koʻpaytiriladigan 0 va 1 orasidagi son; uning siljishi boshida qancha
#   eslab qolinishini belgilaydi.
#
# parametrlar (vaznlar)
#   ingl. *parameters, weights*. Model oʻqitishda oʻzgartiradigan sonlar
#   (matritsalar va siljishlar).
#
# seed
#   ingl. *seed*. Tasodifiy sonlar generatorining boshlangʻich qiymati: u
#   boshlangʻich parametrlar, maʼlumotlar tartibi kabi tasodifiy tanlovlarni
#   belgilaydi. Bir xil
#   seed — bir xil natija.
#
# epoxa
#   ingl. *epoch*. Oʻqitishda oʻquv namunalarining hammasidan bir marta
#   oʻtish.
#
# paket
#   ingl. *batch*. Parametrlar bir marta yangilanadigan namunalar guruhi.
#
# oʻrganish tezligi
#   ingl. *learning rate*. Har yangilanishda parametrlar qanchalik katta
#   qadam bilan (gradientga teskari tomonga) siljishini belgilovchi son.
#
# toʻgʻri oʻtish
#   ingl. *forward pass*. Kirishdan chiqish va yoʻqotishgacha hisoblash.
#
# teskari oʻtish
#   ingl. *backward pass*. Yoʻqotishdan orqaga qarab har parametr (va
#   kirish) boʻyicha gradientni hisoblash.
#
# yoʻl uzunligi
#   ingl. *path length*. Maʼlumot bir pozitsiyadan boshqasiga yetishi uchun
#   oʻtadigan amallar soni.
#
# qoldiq ulanish
#   ingl. *residual connection*. Qatlam kirishini uning chiqishiga qoʻshish:
#   $x + f(x)$.
#
# qatlam
#   ingl. *layer*. Tarmoqning bitta hisoblash bosqichi.
#
# koʻp boshli attention
#   ingl. *multi-head attention*. Bir nechta mustaqil attention «boshi»
#   parallel ishlaydi, natijalari birlashtiriladi.
#
# feed-forward tarmoq
#   ingl. *feed-forward network*. Transformer blokida har pozitsiyaga
#   alohida qoʻllanadigan ikki qatlamli MLP.
#
# MLP
#   ingl. *multilayer perceptron*, koʻp qatlamli perseptron. Chiziqli
#   qatlamlar va ular orasidagi nochiziqli funksiyalardan iborat tarmoq.
#
# FlashAttention
#   ingl. *FlashAttention*. $T \times T$ matritsani xotirada toʻliq
#   saqlamasdan, boʻlaklab hisoblaydigan attention yadrosi (Dao va boshq.,
#   2022).
#
# yadro
#   ingl. *kernel*. Bitta amalni (masalan, attentionni) bajaradigan
#   optimallashtirilgan past darajali funksiya.
#
# LLM
#   ingl. *large language model*. Katta til modeli: milliardlab parametrli,
#   juda koʻp matnda oʻqitilgan Transformer.
#
# RAG
#   ingl. *retrieval-augmented generation*. Avval hujjatlardan mos
#   parchalarni qidirib, soʻng LLM ular asosida javob yozadigan usul.
#
# LoRA
#   ingl. *low-rank adaptation*. Modelning oʻzini emas, unga qoʻshilgan
#   kichik (past rangli) matritsalarni oʻqitib moslashtirish usuli.
#
# OCR
#   ingl. *optical character recognition*. Rasmdagi matnni tanish.
#
# fine-tuning
#   ingl. *fine-tuning*. Oldindan oʻqitilgan modelni oʻz vazifangiz
#   maʼlumotida qisqa qoʻshimcha oʻqitish.
#
# kauzal (sababiy) maska
#   ingl. *causal mask*. Softmaxdan oldin diagonaldan yuqoridagi ballarni
#   $-\infty$ ga almashtirish: har pozitsiya faqat oʻziga va oʻzidan
#   oldingilarga qaraydi.
#
# token
#   ingl. *token*. Model oʻqiydigan matn birligi (soʻz, soʻz boʻlagi yoki
#   belgi); modelga lugʻatdagi raqami bilan beriladi.
#
# koder
#   ingl. *encoder*. Kirishni butunligicha, kauzal maskasiz attention bilan
#   oʻqiydigan model yoki uning qismi (BERT kabi); faqat toʻldiruvchi
#   tokenlar yopilishi mumkin.
#
# embedding
#   ingl. *embedding*. Token raqamini oʻrganiladigan vektorga aylantiruvchi
#   jadval.
#
# bosh
#   ingl. *head*. Koʻp boshli attentiondagi bitta mustaqil attention: *d*
#   ning oʻz qismida, oʻz *Q*, *K*, *V* proyeksiyalari bilan ishlaydi.
#
# post-LN va pre-LN
#   ingl. *post-LN, pre-LN*. LayerNorm qoldiq qoʻshishdan keyin (asl
#   Transformer) yoki qism oldida (GPT-2, Llama; Llamada LayerNorm oʻrnida
#   RMSNorm) turadigan blok turlari.
#
# siljish
#   ingl. *bias*. Chiziqli qatlamda koʻpaytmaga qoʻshiladigan oʻrganiladigan
#   son: $Wx + b$ dagi $b$.
#
# boshlanish (boshlangʻich qiymatlar)
#   ingl. *initialization*. Oʻqitish boshlanishidan oldin parametrlarga
#   beriladigan qiymatlar (odatda tasodifiy).
#
# toʻldiruvchi token
#   ingl. *padding token*, `<pad>`. Qisqa ketma-ketliklarni paketdagi eng
#   uzuniga tenglashtirish uchun oxiriga qoʻshiladigan, maska bilan
#   yopiladigan token.
#
# standart xato
#   ingl. *standard error*. Oʻlchangan kattalik (masalan, aniqlik) tasodifan
#   qanchalik tebranishining bahosi; aniqlik (ulush) uchun $\sqrt{p(1-p)/n}$.
#
# suyulish
#   ingl. *dilution*. Kalitlar koʻpayganda softmax ogʻirligining koʻp kalit
#   orasida yoyilib, har biriga kamroq tushishi.
#
# kontekst oynasi
#   ingl. *context window*. Model bir vaqtda koʻra oladigan eng koʻp token
#   soni.
#
# warm-up
#   ingl. *warm-up*. Oʻqitish boshida oʻrganish tezligini noldan asta-sekin
#   oshirib boriladigan bosqich (oʻrganish tezligi noldan yoki kichik qiymatdan
#   oshib boradi).
#
# RMSNorm, SwiGLU
#   ingl. *root mean square normalization*, *Swish-gated linear unit*.
#   Llama ishlatadigan normallashtirish (oʻrtachani ayirmaydi, faqat oʻrtacha
#   kvadrat ildiziga boʻladi) va feed-forward qismidagi darvozali
#   faollashtirish.
#
# qoldiq yoʻli
#   ingl. *residual stream*. Bloklar orqali oʻtadigan `x + …` yoʻli; pre-LNda
#   u normdan oʻtmaydi.
#
# cross-attention
#   ingl. *cross-attention*, oʻzaro attention. Soʻrovlar dekoderdan, kalit va
#   qiymatlar koder chiqishidan olinadigan attention.
#
# self-attention
#   ingl. *self-attention*, oʻz-oʻziga attention. Soʻrov, kalit va qiymat
#   bitta ketma-ketlikdan olinadigan attention.
#
# teacher forcing
#   ingl. *teacher forcing*, «oʻqituvchi yordami». Oʻqitishda dekoder
#   kirishiga oʻzi yozgan emas, toʻgʻri oldingi tokenlar beriladi.
#
# aniq moslik
#   ingl. *exact match*. Javob faqat hamma tokeni toʻgʻri boʻlsa toʻgʻri
#   hisoblanadigan aniqlik.
#
# tekislash
#   ingl. *alignment*. Chiqishdagi har element kirishning qaysi qismidan
#   kelishini koʻrsatuvchi moslik; attention xaritasida koʻrinadi.
#
# sinusoidal pozitsiya kodlash
#   ingl. *sinusoidal positional encoding*. Har pozitsiyaga turli
#   chastotali sinus va kosinuslardan formula bilan yasalgan vektor; istalgan
#   uzunlikda hisoblanadi.
#
# kosinus oʻxshashligi
#   ingl. *cosine similarity*. Ikki vektor orasidagi burchak kosinusi: 1 —
#   yoʻnalishi bir xil, 0 — perpendikulyar.
#
# RoPE
#   ingl. *rotary position embedding*. Soʻrov va kalit komponentlari
#   juftlarini pozitsiyaga proporsional burchakka burish; ball nisbiy
#   masofaga bogʻliq boʻladi.
#
# ishoralar koʻpchiligi
#   ingl. *majority vote (of signs)*. Musbat sonlar koʻp boʻlsa 1 deb
#   javob beruvchi qoida; bu bobdagi vazifada tartibni bilmaydigan
#   qoidalarning eng yaxshisi.
#
# uzunlikka umumlashtirish
#   ingl. *length generalisation (extrapolation)*. Modelning oʻqitishda
#   koʻrmagan uzunlikdagi ketma-ketlikda ham ishlashi.
#
# KV kesh
#   ingl. *KV cache*, kalit–qiymat keshi. Dekoder oldingi tokenlarning har
#   qatlamdagi kalit va qiymatlarini saqlab qoʻyadi; yangi token uchun ular
#   qayta hisoblanmaydi.
#
# float32
#   ingl. *32-bit floating point*. 32 bitli kasr son formati (bitta son 4
#   bayt); PyTorchda odatiy.
#
# LayerNorm
#   ingl. *layer normalization*, qatlam normallashtirish. Har pozitsiya
#   vektorini oʻrtachasi 0, dispersiyasi 1 boʻladigan qilib siljitish va
#   masshtablash (keyin oʻrganiladigan koʻpaytuvchi va siljish).
#
# SDPA
#   ingl. *scaled dot-product attention*. PyTorchning
#   `scaled_dot_product_attention` funksiyasi: bobdagi formula, mos yadro
#   (masalan, flash) bilan hisoblanadi.
#
# QLoRA
#   ingl. *quantized LoRA*. Sonlari kam bitda (4 bitda) saqlangan modelga
#   qoʻllanadigan LoRA.
#
# guruhli soʻrov attention (GQA)
#   ingl. *grouped-query attention*. Bir nechta soʻrov boshi bitta kalit/qiymat
#   boshini birgalikda ishlatadi; KV kesh (soʻrov boshlari soni) / (kalit/qiymat
#   boshlari soni) marta kichrayadi.
#
# logit
#   ingl. *logit*. Softmaxdan oldingi ball; model lugʻatdagi har token uchun
#   bittadan beradi.
#
# ochkoʻz tanlash
#   ingl. *greedy decoding*. Har qadamda eng katta logitli tokenni olib, matnni
#   tokenma-token yaratish.
#
# boshlangʻich matn
#   ingl. *prompt*. Yaratish boshlanishidan oldin modelga beriladigan tokenlar.
#
# dekoder
#   ingl. *decoder*. Kauzal maskali model yoki uning qismi (GPT kabi):
#   matnni chapdan oʻngga tokenma-token yaratadi.
#
# bfloat16
#   ingl. *bfloat16*. 16 bitli kasr son formati: float32 bilan bir xil
#   oraliq, lekin aniqligi kamroq; bitta son 2 bayt.
#
# MAC
#   ingl. *multiply–accumulate*. Bitta koʻpaytirish va bitta qoʻshish; hisob hajmini
#   sanash birligi.
#
# ip
#   ingl. *thread*. Protsessordagi alohida hisob oqimi; bobdagi vaqtlar bitta
#   ipda oʻlchanadi.
#
# KiB, MiB, GiB
#   ingl. *kibibyte, mebibyte, gibibyte*. $2^{10}$, $2^{20}$ va $2^{30}$ bayt.
# :::
