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
# RNN ketma-ketlikni bittadan qadam bilan oʻqiydi va uzoqdagi maʼlumotni
# eslab qolishga qiynaladi. Attention (oʻzbekchasi — *eʼtibor mexanizmi*) bu
# muammoni boshqacha hal qiladi: har bir pozitsiya qolgan hamma pozitsiyaga
# bevosita qaraydi. Zamonaviy til modellari (GPT, BERT, Llama) aynan shu
# gʻoyaga qurilgan Transformer bloklaridan iborat.
#
# Bu bobda siz:
#
# - attention ni toʻrt qadamda qoʻlda hisoblaysiz;
# - RNN, LSTM va attention ni bitta vazifada oʻlchab solishtirasiz;
# - pozitsiya kodlash nega kerakligini tajribada koʻrasiz;
# - attention narxini — vaqt va xotirani — oʻlchaysiz;
# - Transformer blokini yigʻasiz.
#
# Sahifadagi har bir son, jadval va rasm shu koddan, kitob yigʻilayotganda
# hisoblangan. Avval kutubxonalar va bobning umumiy kodi (`chapter_code/`)
# yuklanadi.

# %%
import inspect
from functools import partial

import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import torch
import torch.nn as nn

from chapter_code.kitob import diagramma, show, fig
from chapter_code.malumot import vazifa
from chapter_code.modellar import Ketma, Attention, TransformerBlok
from chapter_code.modellar import KopBoshli, Blok, KichikGPT
from chapter_code.modellar import parametrlar
from chapter_code.oqitish import oqit, parallel, xotira_chuqqisi
from myst_nb import glue

# %% [markdown]
# ## Nega attention: yoʻl uzunligi
#
# RNN ketma-ketlikni qadamma-qadam oʻqiydi: har qadamda yashirin holat
# yangilanadi. 1-qadamdagi maʼlumot 60-qadamga yetishi uchun 59 ta
# yangilanishdan oʻtadi. Har oʻtishda u biroz oʻzgaradi va kuchsizlanadi;
# oʻqitishda gradient ham xuddi shu yoʻlni teskari bosib oʻtadi.
#
# Attention da esa har pozitsiya istalgan boshqa pozitsiyaga bitta qadamda
# qaraydi. Quyidagi diagramma ({numref}`yol_uzunligi`) ikki yoʻlni
# solishtiradi.

# %%
rnn = "RNN: 59 ta qadam\\nbosib oʻtiladi"
att = "Attention: har qadamga\\nTOʻGʻRIDAN-TOʻGʻRI yoʻl"
diagramma(
    {
        "1-qadam": (0.2, 0.2, 1.3, 0.7, "manba"),
        "...": (1.9, 0.2, 1.3, 0.7, "manba"),
        "60-qadam": (3.6, 0.2, 1.3, 0.7, "manba"),
        rnn: (0.2, 1.5, 4.7, 0.8, "xizmat"),
        att: (0.2, 2.7, 4.7, 0.8, "qayta"),
    },
    [("1-qadam", rnn), ("60-qadam", rnn), (rnn, att)],
    nom="yol_uzunligi.png",
    izoh="RNN da maʼlumot zanjir boʻylab yuradi va yoʻlda kuchsizlanadi. "
         "Attention da har pozitsiya orasidagi masofa — bitta qadam.",
)

# %% [markdown]
# {numref}`%s-rasmdagi <yol_uzunligi>` asosiy farq — *yoʻl uzunligi*: RNN da
# ikki pozitsiya orasidagi yoʻl ular orasidagi masofaga teng, attention da
# esa doim bitta. Bu bobning qolgan qismi shu farqni oʻlchaydi.
#
# ## Attention toʻrt qadamda
#
# Attention har pozitsiya uchun uchta vektor yasaydi:
#
# - **soʻrov** (query, *Q*) — «men nimani qidiryapman?»;
# - **kalit** (key, *K*) — «menda nima bor?»;
# - **qiymat** (value, *V*) — «meni tanlashsa, nimani beraman?».
#
# Uchalasi ham kirishdan chiziqli proyeksiya bilan olinadi. Soʻng har soʻrov
# har kalit bilan solishtiriladi, oʻxshashlik balli ogʻirlikka aylantiriladi va
# qiymatlar shu ogʻirliklar bilan oʻrtachalanadi. Hammasi bitta formulada:
#
# $$
# \mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d}}\right) V
# $$
#
# Bu yerda *d* — kalit vektorining uzunligi. Kichik misolda har qadamni
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
# qadam: har soʻrovni har kalit bilan skalyar koʻpaytiramiz. Natija
# $4 \times 4$ ballar matritsasi: *i*-qator — *i*-pozitsiya qolganlarga
# qanchalik «oʻxshashi».

# %%
# (1, T, d) @ (1, d, T) -> (1, T, T)
ball = Q @ K.transpose(1, 2)
print("1-qadam: har Q ni har K bilan skalyar koʻpaytirish "
      "(oʻxshashlik balli)")
print(f"  ball shakli: {tuple(ball.shape)}  "
      "-> har pozitsiya har pozitsiyaga ball qoʻyadi")
print(np.round(ball[0].detach().numpy(), 2))

# %% [markdown]
# Ikkinchi qadam: ballarni $\sqrt{d}$ ga boʻlamiz. Nega aynan $\sqrt{d}$?
# Agar *q* va *k* bir-biridan mustaqil, komponentlari esa oʻzaro mustaqil,
# oʻrtachasi 0 va dispersiyasi 1 ga teng sonlar boʻlsa, skalyar koʻpaytma
# $q \cdot k = \sum_{j=1}^{d} q_j k_j$ — *d* ta hadning yigʻindisi, har
# hadning dispersiyasi 1, yigʻindiniki esa *d*. $\sqrt{d}$ ga boʻlish
# dispersiyani yana 1 ga qaytaradi. Boʻlmasak, katta *d* da ballar katta
# boʻladi, softmax bitta elementga deyarli $1$, qolganlarga deyarli $0$
# beradi va toʻyingan qatorlarda gradient deyarli yoʻqoladi. (Komponentlarning dispersiyasi 1
# emas, $\sigma^2$ boʻlsa, ball dispersiyasi $d\,\sigma^4$; boʻlish baribir
# uni *d* ga bogʻliq boʻlmaydigan qiladi — buni birozdan keyin oʻlchaymiz.)
#
# Uchinchi qadam: softmax har qatorni musbat va yigʻindisi 1 boʻlgan
# ogʻirliklarga aylantiradi:
# $\mathrm{softmax}(z)_j = e^{z_j} / \sum_k e^{z_k}$.

# %%
ball_normal = ball / d ** 0.5
print(f"2-qadam: sqrt(d) ga boʻlish (d={d}, sqrt={d**0.5:.3f})")
print("  Nega: d katta boʻlsa ballar ham katta boʻladi, "
      "softmax esa 0 va 1 ga yopishib qoladi.")
print()
ogirlik = torch.softmax(ball_normal, dim=-1)
print("3-qadam: softmax — ballarni ogʻirlikka aylantirish")
print(np.round(ogirlik[0].detach().numpy(), 3))
yigindi = ogirlik[0].sum(dim=-1).detach().numpy().round(4)
print(f"  har qator yigʻindisi: {yigindi}")

# %% [markdown]
# $\sqrt{d}$ haqidagi gapni oʻlchab koʻramiz. *d* ni 8 dan 1024 gacha
# oʻzgartirib, bobdagi kabi *Q* va *K* yasaymiz (tasodifiy kirish,
# `nn.Linear` ning standart boshlanishi) va ballarning standart ogʻishini
# hamda har qatordagi eng katta ogʻirlikni boʻlish bilan va boʻlmasdan
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
b1.set_xlabel("d"); b1.set_ylabel("ballarning standart ogʻishi"); b1.legend()
b2.set_xscale("log", base=2); b2.set_ylim(0, 1.02)
b2.set_xlabel("d"); b2.set_ylabel("qatordagi eng katta ogʻirlik"); b2.legend()
for b in (b1, b2):
    b.grid(True, which="both", alpha=0.3)
plt.tight_layout()
fig("sqrt_d.png",
    caption="Ballar va softmax d ga qarab (16 pozitsiya, 64 ta ketma-ketlik). "
            "Chapda: boʻlishsiz ballarning standart ogʻishi d bilan oʻsadi, "
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
# ogʻishi *d* = 8 da {glue:text}`sq_std_8:.2f`, *d* = 1024 da
# {glue:text}`sq_std_1024:.1f` — $\sqrt{d}$ kabi oʻsadi; $\sqrt{d}$ ga
# boʻlinganda esa hamma *d* da {glue:text}`sq_std_bol_min:.2f` …
# {glue:text}`sq_std_bol_max:.2f` oraligʻida qoladi. Son 1 emas: `nn.Linear`
# ning standart boshlanishida *Q* komponentlarining dispersiyasi 1 emas,
# taxminan {glue:text}`sq_var_q:.2f` (oʻlchandi), shuning uchun ballar
# dispersiyasi $d\,\sigma^4$. Muhimi — boʻlishdan keyin u *d* ga bogʻliq
# emas. Oʻng qismda: boʻlishsiz softmax *d* oʻsgan sari bitta elementga
# yopishadi (*d* = 512 da eng katta ogʻirlik oʻrtacha
# {glue:text}`sq_max_512:.2f`), boʻlingani esa ancha tekis
# ({glue:text}`sq_max_512_bol:.2f`).
#
# Ogʻirliklar matritsasining har qatori — bitta pozitsiyaning «eʼtibor
# taqsimoti». Toʻrtinchi qadam: qiymatlarni shu ogʻirliklar bilan
# oʻrtachalaymiz. Har pozitsiyaning chiqishi — hamma pozitsiya qiymatlarining
# ogʻirlikli yigʻindisi.

# %%
# (1, T, T) @ (1, T, d) -> (1, T, d)
chiqish = ogirlik @ V
print("4-qadam: ogʻirliklar bilan V ning oʻrtachasi "
      f"-> {tuple(chiqish.shape)}")
print()
print("Hammasi bitta qatorda:")
print("  softmax(Q @ K.T / sqrt(d)) @ V")

# %% [markdown]
# Chiqish kirish bilan bir xil shaklda: har pozitsiya uchun yangi vektor.
# Shu toʻrt qadam — attention ning butun mexanizmi.
#
# ## Kauzal maska: kelajakka qaramaslik
#
# Yuqoridagi misolda har pozitsiya hamma pozitsiyaga qaradi — oʻzidan
# keyingilariga ham. Matn yozadigan model (GPT kabi *dekoder*) uchun bu
# mumkin emas: u soʻzlarni chapdan oʻngga bittadan yasaydi, keyingi soʻz hali
# yoʻq. Oʻqitishda esa matn toʻliq beriladi va model har pozitsiyada
# keyingi tokenni (soʻz yoki soʻz boʻlagini) taxmin qiladi; agar
# *i*-pozitsiya *i* + 1-pozitsiyaga qaray olsa, javobni shunchaki koʻchirib
# oladi. Shuning uchun softmax dan oldin diagonaldan yuqoridagi ballar
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

rasm, panellar = plt.subplots(1, 2, figsize=(8.6, 3.6))
for b, (sarlavha, w_) in zip(panellar, [("maskasiz", ogirlik), ("kauzal maska bilan", ogirlik_maskali)]):
    qiymat = w_[0].detach().numpy()
    tasvir = b.imshow(qiymat, cmap="viridis", vmin=0, vmax=1)
    for i in range(T_kichik):
        for j in range(T_kichik):
            b.text(j, i, f"{qiymat[i, j]:.2f}".replace(".", ","), ha="center", va="center",
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
# har qator yigʻindisi baribir 1 (yuqorida chop etilgan). Maska
# qiymatlarni emas, kimga qarash mumkinligini oʻzgartiradi.
#
# Matnni tushunadigan model (BERT kabi *koder*, ingl. *encoder*) esa maska
# ishlatmaydi: u butun gapni birdan oladi va har soʻzni ikki tomondagi
# soʻzlar yordamida tushunadi — oʻqitishda u gapdagi yashirilgan soʻzlarni
# topishni oʻrganadi, kelajakni taxmin qilmaydi. Kauzal maskaning ikkinchi
# foydasi keyinroq, «KV kesh» boʻlimida koʻrinadi: oldingi pozitsiyalar
# keyingilarni koʻrmagani uchun ularning hisobi yangi token qoʻshilganda
# oʻzgarmaydi.
#
# Endi attention ni RNN bilan solishtiramiz.
#
# ## Vazifa va modellar
#
# Solishtirish uchun ataylab «RNN uchun noqulay» oʻyinchoq vazifa olamiz.
# Kirish — uzunligi *T* = 60 boʻlgan tasodifiy sonlar ketma-ketligi. Javob
# (0 yoki 1) faqat **birinchi** elementning ishorasiga bogʻliq; qolgan 59 ta
# element — shovqin. Vazifani yechish uchun model 0-qadamdagi maʼlumotni
# oxirigacha olib borishi kerak. Tasodifiy taxmin 50 % aniqlik beradi.
#
# ```{literalinclude} ../chapter_code/malumot.py
# :pyobject: vazifa
# ```
#
# Ikki rekurrent model: `Ketma("rnn")` va `Ketma("lstm")`. Ikkalasi ham
# ketma-ketlikni oxirigacha oʻqiydi va oxirgi yashirin holatdan javob beradi.
# LSTM ning `unutish` parametri — unutish darvozasi (*forget gate*)
# siljishining boshlangʻich qiymati; u nega muhimligini quyida oʻlchaymiz.
#
# ```{literalinclude} ../chapter_code/modellar.py
# :pyobject: Ketma
# ```
#
# Attention modeli yuqoridagi toʻrt qadamni aynan takrorlaydi. Farqi ikkita:
# kirish avval *d* = {glue:text}`d_model` oʻlchamga koʻtariladi va unga oʻrganiladigan
# **pozitsiya kodlash** (`self.poz`, har pozitsiyaga bitta vektor) qoʻshiladi;
# oxirida hamma pozitsiyalar chiqishi oʻrtachalanib, javobga aylanadi.
#
# ```{literalinclude} ../chapter_code/modellar.py
# :pyobject: Attention
# ```

# %% [markdown]
# ## Gradient birinchi qadamga yetib boradimi?
#
# Modelni oʻqitishdan oldin oddiy savol beramiz: yoʻqotish funksiyasining
# gradienti kirishning birinchi va oxirgi qadamiga qanchalik kuchli yetib
# boradi? Gradient — model oʻrganadigan signal. Agar 0-qadamga yetib
# boradigan gradient juda kichik boʻlsa, oʻqitish boshida model javob
# aynan oʻsha yerda ekanini sezishi qiyin.
#
# Har model uchun tasodifiy ogʻirliklar bilan bitta backward qilamiz va
# $|\partial L / \partial x_t|$ ni namunalar boʻyicha oʻrtachalaymiz.

# %%
T = 60
UNUTISH = 3.0      # LSTM unutish darvozasi siljishi (standart boshlanish: ≈ 0)
lstm_u = f"LSTM (unutish = {UNUTISH:g})"
grad_jadval = []
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
                        "qadam 0": f"{g[0]:.3e}",
                        f"qadam {T-1}": f"{g[T-1]:.3e}",
                        f"qadam {T-1} / qadam 0": f"{g[T-1] / g[0]:.2e}"})
    glue(f"grad_{qisqa}", float(g[T-1] / g[0]), display=False)
show(pd.DataFrame(grad_jadval),
     izoh=f"Kirishning birinchi va oxirgi qadamiga yetib boradigan "
          f"gradient (T={T}).",
     nom="grad_jadval")

# %% [markdown]
# {numref}`grad_jadval` farqni aniq koʻrsatadi. RNN da oxirgi qadam
# gradienti 0-qadamnikidan {glue:text}`grad_rnn:.1e` marta katta, LSTM da
# {glue:text}`grad_lstm:.1e` marta. Boshqacha aytganda, boshlangʻich
# modelda 0-qadamga deyarli hech narsa yetib bormaydi: signal 59 ta qadamda
# koʻpaytma-koʻpaytma soʻnadi. Attention da esa nisbat
# {glue:text}`grad_attention:.2f`: birinchi va oxirgi qadam teng huquqli.
# Uchinchi qator ham LSTM, faqat unutish darvozasi siljishi
# {glue:text}`unutish:g` dan boshlangan: unda nisbat atigi
# {glue:text}`grad_lstm_unutish:.2f`. Demak LSTM dagi soʻnish arxitekturaning
# emas, boshlangʻich qiymatning natijasi — sababini oʻqitishdan keyin
# koʻramiz.
#
# ## Oʻqitish: har model uch seed bilan
#
# Gradient — faqat boshlangʻich holat. Haqiqiy savol: modellar vazifani
# oʻrganadimi? Har model bir xil protokol bilan oʻqitiladi: bu — `oqit`
# funksiyasining standart qiymatlari, ularni koddan oʻqiymiz.

# %%
protokol = {nom: p.default for nom, p in inspect.signature(oqit).parameters.items()
            if p.default is not inspect.Parameter.empty}
print("oqit() protokoli:", protokol)
for nom, qiymat in protokol.items():
    glue(f"protokol_{nom}", qiymat, display=False)
glue("protokol_lr_uz", str(protokol["lr"]).replace(".", ","), display=False)
d_model = inspect.signature(Attention).parameters["d"].default
glue("d_model", d_model, display=False)

# %% [markdown]
# Yaʼni {glue:text}`protokol_epoxalar` epoxa, {glue:text}`protokol_n` ta
# oʻquv va {glue:text}`protokol_n_sinov` ta sinov namunasi,
# {glue:text}`protokol_batch` talik paketlar, Adam (oʻrganish tezligi
# {glue:text}`protokol_lr_uz`). Bitta natija tasodif boʻlishi mumkin,
# shuning uchun har model uch xil seed bilan oʻqitiladi.
#
# ```{literalinclude} ../chapter_code/oqitish.py
# :pyobject: oqit
# ```
#
# Oʻqitishlar bir-biriga bogʻliq emas, shuning uchun `parallel`
# (`chapter_code/oqitish.py`) ularni har yadroda bittadan alohida jarayonda
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
    sinov.append({"model": nom, "seedlar": str([round(a, 3) for a in aniq]),
                  "oʻrtacha": round(float(np.mean(aniq)), 4),
                  "eng yomon": round(min(aniq), 4),
                  "parametrlar": parametrlar(yasa())})
show(pd.DataFrame(sinov),
     izoh=f"Sinov aniqligi: {len(modellar)} model, {len(seedlar)} seed.",
     nom="sinov_jadval")
# 3-mashq yechimi: parametrlar formula bilan sanaladi (jadvaldagi son bilan solishtiring)
glue("T_vazifa", T, display=False)
glue("param_formula", 3 * d_model**2 + d_model * (T + 7) + 2, display=False)

# %% [markdown]
# Jadvaldagi sonlardan xulosalar uchun ularni nomlab olamiz.

# %%
aniqliklar = {nom: [natija[nom, s][0] for s in seedlar] for nom in modellar}
for nom, qisqa in [("RNN", "rnn"), ("LSTM", "lstm"), (lstm_u, "lstmu"),
                   ("attention (+ pozitsiya)", "attn"),
                   ("attention (pozitsiyasiz)", "attn0")]:
    glue(f"{qisqa}_min", min(aniqliklar[nom]), display=False)
    glue(f"{qisqa}_max", max(aniqliklar[nom]), display=False)
    glue(f"{qisqa}_orta", float(np.mean(aniqliklar[nom])), display=False)

# LSTM xotirasi har qadamda unutish darvozasiga koʻpaytiriladi: f = sigmoid(... + siljish).
# Boshlanishda (kirish hissasi kichik) f ≈ sigmoid(siljish); T-1 qadamdan keyin f^(T-1).
for nom, siljish in [("standart", 0.0), ("tavsiya", 1.0), ("unutish", UNUTISH),
                     ("katta", 5.0)]:
    f = torch.sigmoid(torch.tensor(siljish)).item()
    print(f"{nom:>9}: sigmoid({siljish:g}) = {f:.3f},  {f:.3f}^{T-1} = {f ** (T-1):.1e}")
    glue(f"f_{nom}", f, display=False)
    glue(f"f_{nom}_T", f ** (T - 1), display=False)

# %% [markdown]
# {numref}`%s-jadvaldan <sinov_jadval>` toʻrtta xulosa.
#
# - **Pozitsiyali attention** vazifani uchala seedda ham yechdi: eng yomon
#   seedda ham aniqlik {glue:text}`attn_min:.3f`.
# - **RNN** natijasi seedga qattiq bogʻliq: eng yaxshi seedda
#   {glue:text}`rnn_max:.3f`, eng yomonida {glue:text}`rnn_min:.3f`. Bitta
#   seed bilan oʻlchaganimizda, omadga qarab «RNN yaxshi ishlaydi» yoki
#   «oʻrtacha ishlaydi» degan boʻlardik. RNN ning boshlangʻich gradient
#   nisbati {glue:text}`grad_rnn:.1e` edi, lekin u uchala seedda ham
#   oʻrgandi: boshidagi kichik gradient oʻrganishni taqiqlamaydi, va
#   boshlangʻich nisbatning oʻzi natijani oldindan aytib bermaydi.
# - **LSTM** standart boshlanish bilan uchala seedda ham tasodifiy taxmin
#   darajasida qoldi (oʻrtacha {glue:text}`lstm_orta:.3f`).
# - **Unutish siljishi {glue:text}`unutish:g` boʻlgan LSTM** esa vazifani
#   uchala seedda yechdi (eng yomon seedda {glue:text}`lstmu_min:.3f`).
#   Arxitektura bir xil — farq faqat bitta boshlangʻich qiymatda.
#
# Nega? LSTM ning xotira hujayrasi har qadamda unutish darvozasi
# $f_t = \sigma(W x_t + U h_{t-1} + b_f)$ ga koʻpaytiriladi. PyTorch $b_f$ ni
# ikki kichik tasodifiy sonning yigʻindisi sifatida, nol atrofida
# boshlaydi, kirish hissasi ham boshida kichik; shuning uchun boshida
# $f_t \approx \sigma(0)$ = {glue:text}`f_standart:.2f` va 59 qadamdan
# keyin 0-qadamdagi maʼlumotning taxminan {glue:text}`f_standart_T:.0e`
# qismigina qoladi (bu sodda baho: haqiqiy darvozalar $\sigma(0)$ atrofida biroz
# farq qiladi, natija baribir juda kichik). Gradient esa faqat shu yoʻl
# bilan oqmaydi: *h* orqali oʻtadigan yoʻllar bu yerda sekinroq soʻnadi va
# 0-qadam gradientining deyarli hammasini ular olib keladi, shuning uchun
# {numref}`grad_jadval` dagi nisbat ({glue:text}`grad_lstm:.1e`) bu sodda
# baho aytadigandan bir necha tartib kichik.
# $b_f$ = {glue:text}`unutish:g` da $\sigma(b_f)$ =
# {glue:text}`f_unutish:.3f` va 59 qadamdan keyin
# {glue:text}`f_unutish_T:.2f` qismi qoladi: model 0-qadamni boshidanoq
# «eslaydi». Unutish darvozasini Gers, Schmidhuber va Cummins (2000)
# kiritgan; Jozefowicz, Zaremba va Sutskever (2015) uning siljishini 1 yoki
# 2 kabi katta qiymatdan boshlash kerakligini eslatib, har bir LSTM da 1
# ni tavsiya qiladi. Bizning *T* = 60 li vazifada 1 yetmaydi:
# $\sigma(1)^{59}$ = {glue:text}`f_tavsiya_T:.0e` (6-mashqda oʻzingiz
# sinab koʻring); biz {glue:text}`unutish:g` ni oldik. Xulosa: rekurrent model uzoq masofani
# eslay oladi, lekin buning uchun uni toʻgʻri boshlash kerak; attention da
# esa bu masofa boshidanoq bitta qadam.
#
# Pozitsiyasiz attention ham tasodifiy darajaga yaqin qoldi
# (eng yaxshi seedda {glue:text}`attn0_max:.3f`). Nega — keyingi boʻlimda.
#
# ## Pozitsiya kodlashsiz attention tartibni koʻrmaydi
#
# Attention formulasida pozitsiya raqami hech qayerda yoʻq. Agar kirish
# qatorlarini aralashtirsak, ballar matritsasining qatorlari va ustunlari
# xuddi shunday aralashadi, softmax va oʻrtacha esa tartibga qaramaydi.
# Demak pozitsiya kodlashsiz modelning chiqishi kirish tartibiga bogʻliq
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
farq = float((asl - aralash).abs().max())
print(f"  maksimal farq      : {farq:.2e}")
print()
print("Chiqish oʻzgarmadi. "
      "Demak model uchun ketma-ketlik — TARTIBSIZ TOʻPLAM.")
print("U «birinchi element» degan tushunchaga ega emas, "
      "shuning uchun vazifani yecha olmaydi.")
glue("aralash_farq", farq, display=False)

# %% [markdown]
# Maksimal farq {glue:text}`aralash_farq:.1e` — bu float32 hisobining
# yaxlitlash xatosi darajasi, yaʼni chiqish amalda bir xil. Model uchun
# «birinchi element» degan tushuncha yoʻq, shuning uchun
# {numref}`%s-jadvalda <sinov_jadval>` pozitsiyasiz attention vazifani yecha olmadi.
#
# Yechim — **pozitsiya kodlash**: har pozitsiyaga oʻz vektori qoʻshiladi
# (`hh + self.poz`). Endi 0-qadamdagi son boshqa qadamdagi xuddi shunday
# sondan farq qiladi. Bizning modelda bu vektorlar oʻrganiladi; asl
# Transformer maqolasida ular sinus va kosinuslardan yasalgan.
#
# ## Oʻqitilgan model nimaga qaraydi
#
# Attention ogʻirliklari modelning «qayerga qarayotganini» bevosita
# koʻrsatadi. {numref}`%s-jadvaldagi <sinov_jadval>` seed 0 bilan oʻqitilgan
# pozitsiyali modelni olamiz (uni qayta oʻqitmaymiz) va yangi 200 ta
# namunada ogʻirliklarni oʻrtachalaymiz.

# %%
aniqlik, model = natija["attention (+ pozitsiya)", 0]
Xv, _ = vazifa(200, T, 2)
with torch.no_grad():
    model(Xv)
w = model.ogirlik.mean(dim=(0, 1)).numpy()       # (200, T, T) -> (T,)

print(f"Oʻqitilgan attention modelining aniqligi: {aniqlik:.4f}")
print()
print(f"Qadam 0 ga berilgan oʻrtacha eʼtibor : {w[0]:.4f}")
print(f"Qolgan {T-1} qadamning oʻrtachasi      : {w[1:].mean():.6f}")
print(f"Eng koʻp eʼtibor olgan qadam        : {int(w.argmax())}")
print()
print("Model oʻzi topdi: javob BIRINCHI qadamda. "
      "Biz bunga hech qanday koʻrsatma bermadik.")
glue("qadam0", float(w[0]), display=False)
glue("qolgan_orta", float(w[1:].mean()), display=False)
glue("eng_kop_qadam", int(w.argmax()), display=False)

# %% [markdown]
# Oʻrtacha eʼtiborning {glue:text}`qadam0:.3f` qismi 0-qadamga tushadi,
# qolgan qadamlarning har biriga oʻrtacha {glue:text}`qolgan_orta:.1e`.
# Modelga javob qayerdaligini hech kim aytmagan: u buni gradient orqali
# oʻzi topdi. Xuddi shu ogʻirliklar {numref}`%s-rasmda <attention_ogirligi>`.

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
    caption="Chapda: har qadamga berilgan oʻrtacha eʼtibor; butun eʼtibor "
            "0-qadamga toʻplangan. Oʻngda: bitta namunaning attention "
            "matritsasi; chap ustun yorqin — har pozitsiya 0-qadamga "
            "qaraydi.")

# %% [markdown]
# {numref}`%s-rasmning <attention_ogirligi>` chap qismida bitta ustun qolganlaridan
# ancha baland; oʻng qismida matritsaning chap ustuni yorqin: har bir
# soʻrov qadami 0-qadamga qaraydi. Attention ogʻirliklari modelni
# tushuntirishning eng oddiy vositasi, lekin ehtiyot boʻling: koʻp qatlamli
# modellarda ogʻirlik va «sabab» har doim ham bir narsa emas.
#
# ## Attention narxi: $O(T^2)$
#
# Attention bepul emas. Ballar matritsasi $T \times T$: har pozitsiya har
# pozitsiyaga ball qoʻyadi. *T* ikki barobar oshsa, matritsa toʻrt barobar
# oʻsadi. RNN esa *T* ta qadamni ketma-ket bajaradi: uning ishi *T* ga
# chiziqli, lekin qadamlarni parallel qilib boʻlmaydi. Ikkalasini bir xil
# sharoitda oʻlchaymiz ({numref}`vaqt_jadval`): `torch.utils.benchmark`
# bilan (har oʻlchov koʻp marta takrorlanadi va medianasi olinadi), bitta
# ipda (*thread*), forward va forward + backward uchun. Har qatorda hisob
# hajmi — bitta namunaga koʻpaytirish-qoʻshishlar soni (*multiply-add*,
# MAC) — va *T* ga bogʻliq ketma-ket qadamlar soni ham bor: RNN da *T* ta,
# attention da *T* ga bogʻliq emas (jadvalda 1).

# %%
from chapter_code.oqitish import mediana_ms, protsessor

IPLAR = 1                                  # vaqt shu sondagi ipda oʻlchanadi
# 1e-38 dan kichik («denormal») sonlar x86 da juda sekin hisoblanadi; oʻqitish
# ishchilaridagi kabi ularni nolga tenglaymiz (backward da ular paydo boʻladi)
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
                            "qadamlar": qadamlar})
show(pd.DataFrame(vaqt_jadval).round(2),
     izoh=f"Bitta paket (64 ta namuna) vaqti, {IPLAR} ipda, mediana: fwd — "
          "forward, fwd+bwd — forward + backward; MAC — bitta namunaning "
          "forward dagi matritsa koʻpaytmalari (siljish, tanh, softmax, "
          "oʻrtachalash kirmaydi); qadamlar — T ga bogʻliq ketma-ket qadamlar.",
     nom="vaqt_jadval")
vj = pd.DataFrame(vaqt_jadval).pivot(index="T", columns="model")

# Matndagi jumlalar shu oʻlchovdan tuziladi
tezroq = [t for t in vj.index
          if vj.loc[t, ("fwd (ms)", "attention")] < vj.loc[t, ("fwd (ms)", "RNN")]]
T_kat = max(vj.index)
mac_nisbat = vj.loc[T_kat, ("MAC", "attention")] / vj.loc[T_kat, ("MAC", "RNN")]
vaqt_nisbat = vj.loc[T_kat, ("fwd (ms)", "attention")] / vj.loc[T_kat, ("fwd (ms)", "RNN")]
if tezroq:
    tezlik_jumla = ("Bu oʻlchovda attention ning forward hisobi T = "
                    + ", ".join(map(str, tezroq)) + " da RNN nikidan tezroq boʻldi.")
else:
    tezlik_jumla = ("Bu oʻlchovda attention ning forward hisobi hech bir T da "
                    "RNN nikidan tezroq boʻlmadi.")
glue("tezlik_jumla", tezlik_jumla, display=False)
glue("attn_tezroq_T", ", ".join(map(str, tezroq)) or "yoʻq", display=False)
glue("T_kat", int(T_kat), display=False)
glue("mac_nisbat", float(mac_nisbat), display=False)
glue("vaqt_nisbat", float(vaqt_nisbat), display=False)
glue("vaqt_nisbat_yonalish", "sekinroq" if vaqt_nisbat > 1 else "tezroq", display=False)
glue("attn_vaqt_osish", float(vj.loc[240, ("fwd (ms)", "attention")]
                              / vj.loc[120, ("fwd (ms)", "attention")]), display=False)
glue("rnn_vaqt_osish", float(vj.loc[240, ("fwd (ms)", "RNN")]
                             / vj.loc[120, ("fwd (ms)", "RNN")]), display=False)
glue("iplar", IPLAR, display=False)

# %% [markdown]
# {glue:text}`tezlik_jumla` *T* = {glue:text}`T_kat` da attention bitta
# namunaga RNN dan {glue:text}`mac_nisbat:.1f` marta koʻp koʻpaytirish-qoʻshish
# bajaradi, lekin ularning hammasi bitta ketma-ket qadamda, katta matritsa
# koʻpaytmalarida; RNN esa kam hisobni {glue:text}`T_kat` ta kichik qadamda
# navbat bilan bajaradi va har qadamda amallarning doimiy xarajatini
# toʻlaydi. Oʻlchovda attention shu *T* da RNN nikiga nisbatan
# {glue:text}`vaqt_nisbat:.2f` barobar vaqt oldi
# ({glue:text}`vaqt_nisbat_yonalish`). *T* 120 dan 240 ga oshganda RNN
# vaqti {glue:text}`rnn_vaqt_osish:.1f` marta, attention vaqti
# {glue:text}`attn_vaqt_osish:.1f` marta oʻsdi. Bu oʻlchov
# {glue:text}`iplar` ipda olingan; GPU yoki koʻp yadroda attention ning
# yagona qadamidagi *T* ta pozitsiya hisobi parallel bajarilishi mumkin, RNN ning
# *T* ta qadami esa baribir navbat bilan qoladi (buni bu bobda
# oʻlchamadik). Vaswani va boshq. (2017) bu parallellikni yoʻl uzunligi
# bilan birga attention ning asosiy afzalliklari qatorida keltiradi.
#
# Vaqt shovqinli oʻlchov: jadvaldagi millisekundlar har yigʻishda biroz
# farq qiladi. Xotira esa aniq hisoblanadi. Endi *T* ni 960 gacha
# oshirib, bitta forward pass uchun attention matritsasi egallaydigan
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
     izoh="Attention ning bitta forward pass narxi (64 ta namuna): "
          "matritsa hajmi, xotira choʻqqisi va vaqt.",
     nom="xotira_jadval")

# %% [markdown]
# {numref}`%s-jadvalning <xotira_jadval>` oxirgi qatorida (*T* = 960) attention
# matritsasining oʻzi {glue:text}`matritsa_960:.0f` MiB, bitta forward
# pass xotirasining choʻqqisi {glue:text}`chuqqi_960:.0f` MiB.
# {numref}`xotira_vaqt` ikkalasini log-log oʻqlarda koʻrsatadi.

# %%
mat = xotira["matritsa (MiB)"].values
osish = mat[1:] / mat[:-1]                  # T har ikki barobar oshganda
glue("matritsa_osish", float(osish.mean()), display=False)
glue("matritsa_960", float(xotira.loc[960, "matritsa (MiB)"]), display=False)
glue("chuqqi_960", float(xotira.loc[960, "choʻqqi (MiB)"]), display=False)
glue("vaqt_960", float(xotira.loc[960, "vaqt (ms)"]), display=False)
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
    caption="Attention ning bitta forward pass narxi (64 ta namuna), "
            "log-log oʻqlarda. Chapda: xotira — toʻgʻri chiziq, qiyaligi "
            "2, yaʼni T² ga proporsional. Oʻngda: vaqt.")

# %% [markdown]
# *T* har ikki barobar oshganda matritsa aniq
# {glue:text}`matritsa_osish:.1f` barobar oʻsdi — log-log oʻqlarda bu
# qiyaligi 2 ga teng toʻgʻri chiziq. Vaqt ham oʻsadi: *T* 240 dan 960 ga
# (4 marta) oshganda u {glue:text}`vaqt_osish_katta:.0f` marta oʻsdi,
# *T* = 960 da bitta forward pass {glue:text}`vaqt_960:.0f` ms.
#
# Demak $T^2$ bilan **ikkalasi ham** oʻsadi: xotira ham, vaqt ham. Bitta
# uzun hujjat (*T* = {glue:text}`uzun_T`) uchun bitta attention boshining
# bitta matritsasi {glue:text}`uzun_gib:.0f` GiB boʻladi, haqiqiy modelda
# esa boshlar va qatlamlar oʻnlab. FlashAttention kabi yadrolar (*kernel*)
# bu matritsani toʻliq saqlamaydi: $Q K^\top$ ni boʻlaklab hisoblaydi va
# softmax ni boʻlak-boʻlak yigʻadi. PyTorch da
# `torch.nn.functional.scaled_dot_product_attention` (SDPA) mos yadroni
# tanlaydi: CPU da flash yadrosi faqat 4 oʻlchamli kirishda (namuna, bosh,
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
                          "eng katta farq": f"{farq:.1e}"})
fl = pd.DataFrame(flash)
show(fl.round({"choʻqqi (MiB)": 2, "vaqt (ms)": 1}),
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
glue("fl_farq", float(fl["eng katta farq"].astype(float).max()), display=False)
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
# {glue:text}`fl_chuqqi_formula:.0f` MiB), SDPA niki
# {glue:text}`fl_xotira_sdpa:.2f` bilan — kvadratik emas
# ({glue:text}`fl_chuqqi_sdpa:.1f` MiB: asosan chiqishning oʻzi, u *T* ga
# chiziqli, qolgani har ipga kichik ish buferi; shuning uchun qiyalik 1
# dan ham kichik chiqishi mumkin). Xotira kitob yigʻilayotgan jarayonning
# iplar sonida, vaqt esa bitta ipda oʻlchangan. 3 oʻlchamli kirishdagi SDPA esa
# qiyaligi {glue:text}`fl_xotira_sdpa3:.2f` bilan —
# {glue:text}`fl_chuqqi_sdpa3:.0f` MiB: u $T \times T$ matritsani baribir
# yasaydi. Vaqt esa formulada ham, flash yadrosida ham qiyaligi
# {glue:text}`fl_vaqt_formula:.2f` va {glue:text}`fl_vaqt_sdpa:.2f` bilan
# oʻsdi: SDPA da ham {glue:text}`fl_vaqt_sdpa_soz`, *T* = 4096 da
# {glue:text}`fl_vaqt_sdpa_ms:.0f` ms (formulada
# {glue:text}`fl_vaqt_formula_ms:.0f` ms). Natijalar bir xil: eng katta
# farq {glue:text}`fl_farq:.1e`. Xulosa: FlashAttention turidagi yadro
# $T^2$ **xotirani** olib tashlaydi, $T^2$ **hisobni** esa yoʻq — har
# soʻrov baribir har kalit bilan solishtiriladi. Yadro kirish shaklini ham
# talab qiladi: boshqa shaklda bu foyda yoʻqoladi.

# %% [markdown]
# ## Transformer bloki
#
# Bizning `Attention` modelimiz bitta qatlam edi. Transformer bloki attention
# atrofiga yana uchta qism qoʻshadi va shu blok koʻp marta ustma-ust
# qoʻyiladi. Qismlar {numref}`%s-jadvalda <qismlar_jadval>`.

# %%
show(pd.DataFrame([
    ("1. Multi-head attention",
     "Bir nechta attention parallel ishlaydi — har biri boshqa munosabatga qaraydi"),
    ("2. Residual ulanish (x + attn(x))",
     "Gradientga toʻgʻri yoʻl beradi — chuqur tarmoq uchun shart"),
    ("3. LayerNorm",
     "Har pozitsiya vektorini normallashtiradi"),
    ("4. Feed-forward (2 qatlamli MLP)",
     "Attention yigʻgan maʼlumotni har pozitsiyada qayta ishlaydi"),
], columns=["Qism", "Vazifasi"]),
     izoh="Transformer blokining qismlari.", nom="qismlar_jadval")
print("Shu blok N marta ustma-ust qoʻyiladi. GPT, BERT, Llama — shu arxitekturaning")
print("variantlari; farqlari: normning joyi (quyida), pozitsiya kodlash turi,")
print("attention maskasi, blok soni va oʻlchami.")

# %% [markdown]
# ### Multi-head attention kodda
#
# **Multi-head attention** (*koʻp boshli attention*) *d* oʻlchamni bir
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
# PyTorch ning `nn.MultiheadAttention` qatlami aynan shu hisobni bajaradi:
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
# darajasi. Demak `nn.MultiheadAttention` — bobning boshidagi formulaning
# oʻzi emas: unga boshlarga boʻlish va chiqish proyeksiyasi qoʻshilgan.
# Har boshning oʻlchami {glue:text}`d_bosh`; bitta boshli attention bilan
# hisob hajmi deyarli bir xil, lekin endi boshlar har xil narsaga qarashi
# mumkin — buni bobning oxirida oʻqitilgan modelda koʻramiz.
#
# ### Normning joyi: post-LN va pre-LN
#
# Asl Transformer maqolasida (Vaswani va boshq., 2017) LayerNorm qoldiq
# qoʻshishdan **keyin** turadi (*post-LN*): `x = norm(x + f(x))`. GPT-2 dan
# boshlab koʻp modellar (Llama ham) uni qismning **oldiga** qoʻyadi
# (*pre-LN*): `x = x + f(norm(x))`. Pre-LN da qoldiq yoʻli (*residual
# stream*) normdan oʻtmaydi: kirishdan chiqishgacha toʻgʻri yoʻl qoladi,
# shuning uchun chuqur modellar barqarorroq oʻqitiladi
# ({numref}`post_pre_ln`). Llama bundan tashqari LayerNorm oʻrniga RMSNorm,
# feed-forward da SwiGLU va pozitsiyalar uchun RoPE ishlatadi (RoPE
# haqida quyida).

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
# Bobning `TransformerBlok` i — asl post-LN blok, `nn.MultiheadAttention`
# bilan:
#
# ```{literalinclude} ../chapter_code/modellar.py
# :pyobject: TransformerBlok
# ```
#
# `Blok` esa pre-LN va oʻzimiz yozgan `KopBoshli` bilan; u kerak boʻlsa
# ikkinchi attention — koderga qaraydigan *cross-attention* ni ham oladi
# (u quyida, kapstoun modelida ishlatiladi).
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
# GPT kabi dekoder modelining hammasi {numref}`%s-rasmda <arxitektura>`:
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
#
# ## Transformerlar qayerda ishlatiladi
#
# Amalda transformer deyarli hech qachon noldan oʻqitilmaydi. Katta model
# milliardlab soʻz ustida oʻqitilgan boʻladi; buni takrorlash uchun juda
# koʻp maʼlumot va hisoblash kerak. Oʻrniga tayyor model olinadi va oʻz
# vazifangizga moslashtiriladi (*fine-tuning*).
# {numref}`qollash_jadval` odatiy vazifalar va yondashuvlarni koʻrsatadi.

# %%
show(pd.DataFrame([
    ("Matn klassifikatsiya",
     "Tayyor model + oxirgi qatlam (fine-tuning)"),
    ("Savol-javob oʻz hujjatlaringiz ustida",
     "RAG — qidirish + LLM"),
    ("Oʻz uslubingizda matn",
     "LoRA fine-tuning"),
    ("Rasmdan matn (OCR)",
     "Vision transformer + dekoder"),
    ("Vaqt qatori",
     "Avval 34-bob: differensiyalash va klassik usullar"),
], columns=["Vazifa", "Yondashuv"]),
     izoh="Transformerlarning amaliy qoʻllanishi.", nom="qollash_jadval")
print("Muhim: bu vazifalarning hech birida transformer ni "
      "NOLDAN oʻqitmaysiz.")
print("Tayyor model olinadi va moslashtiriladi. "
      "Buning yoʻli — 38-bobda (LoRA, QLoRA).")

# %% [markdown]
# Vaqt qatorlari uchun avval klassik usullarni sinab koʻring (34-bob).
# Tayyor modelni kam resurs bilan moslashtirish yoʻllari — LoRA va QLoRA —
# 38-bobda.
#
# ## Xulosa
#
# {numref}`xulosa_jadval` bobning asosiy gʻoyalarini bittadan jumlada
# jamlaydi. «Oʻlchandi» deb yozilgan qatorlar shu sahifadagi oʻlchovlardan
# tuzilgan.

# %%
grad = {r["model"]: float(r[f"qadam {T-1} / qadam 0"]) for r in grad_jadval}
xulosa = pd.DataFrame([
    ("Attention formulasi", "softmax(Q @ K.T / sqrt(d)) @ V"),
    ("Q, K, V",
     "Soʻrov, kalit, qiymat — uchtasi ham chiziqli proyeksiya"),
    ("Nega sqrt(d)", "Softmax ni toʻyinishdan saqlaydi"),
    ("Yoʻl uzunligi",
     f"Har pozitsiya orasida bitta qadam — {T-1} emas"),
    ("Gradient oqimi",
     f"Oʻlchandi: nisbat attention da {grad['attention']:.2f}, "
     f"RNN da {grad['RNN']:.0e}, LSTM da {grad['LSTM']:.0e}"),
    ("Boshlanish",
     f"Oʻlchandi: LSTM aniqligi {np.mean(aniqliklar['LSTM']):.2f}, "
     f"unutish siljishi {UNUTISH:g} bilan {np.mean(aniqliklar[lstm_u]):.2f}"),
    ("Pozitsiya kodlash",
     f"Oʻlchandi: busiz model tartibni koʻrmaydi (farq {farq:.0e}), "
     f"aniqlik {max(aniqliklar['attention (pozitsiyasiz)']):.2f} dan oshmadi"),
    ("Tushuntirish",
     f"Ogʻirliklar modelning qarashini koʻrsatadi: "
     f"{w[0]:.0%} eʼtibor 0-qadamga"),
    ("O(T kvadrat)",
     f"Oʻlchandi: xotira ham, vaqt ham T² bilan oʻsadi; SDPA (flash, 4D) xotirani "
     f"{'chiziqli' if qiyalik('SDPA', 'choʻqqi (MiB)') < 1.5 else 'kvadratik'} qiladi, "
     "vaqtni emas"),
    ("Parallellik",
     f"T = {T_kat}: attention {mac_nisbat:.1f}× koʻp MAC, ketma-ket qadami 1 "
     f"(RNN da {T_kat}); {IPLAR} ipda {vaqt_nisbat:.1f}× "
     f"{'sekinroq' if vaqt_nisbat > 1 else 'tezroq'}"),
    ("Transformer bloki", "Attention + residual + norm + feed-forward"),
], columns=["Tushuncha", "Bitta jumla"])
show(xulosa, izoh="Bobning xulosasi.", nom="xulosa_jadval")

# %% [markdown]
# ## Mashqlar
#
# Kod bilan ishlaydigan mashqlarda avval natijani **taxmin qiling**, soʻng
# oʻlchang. Taxmin va oʻlchov farq qilsa — eng koʻp oʻrganiladigan joy shu.
#
# **1-mashq ($\sqrt{d}$ siz).** «Attention toʻrt qadamda» boʻlimida
# `d = 512` qiling va `ball_normal = ball` deb yozing (boʻlishni olib
# tashlang). Har qatordagi eng katta ogʻirlik qanday boʻladi? Taxmin
# qiling, soʻng `ogirlik.max(dim=-1)` ni chop eting va boʻlish bilan
# solishtiring.
#
# :::{admonition} Yechim
# :class: dropdown
#
# {numref}`sqrt_d` dagi oʻlchov javob beradi. Komponentlar dispersiyasi 1
# boʻlsa, boʻlishsiz ballarning standart ogʻishi $\sqrt{512} \approx 22{,}6$
# boʻlardi; `nn.Linear` ning standart boshlanishida esa u *d* = 512 da
# {glue:text}`sq_std_512:.1f` (oʻlchandi). Bu ham softmax ni toʻyintirishga
# yetadi: eng katta ogʻirlik oʻrtacha {glue:text}`sq_max_512:.2f`, lekin
# har doim ham 1 ga yaqin emas — eng kichigi {glue:text}`sq_max_512_min:.2f`.
# $\sqrt{d}$ ga boʻlinganda eng katta ogʻirlik oʻrtacha
# {glue:text}`sq_max_512_bol:.2f` va ogʻirliklar ancha tekis taqsimlanadi.
# (Bu sonlar {numref}`sqrt_d` dagi 16 pozitsiyali oʻlchovdan; «toʻrt
# qadam» misolining 4 pozitsiyasida tekis ogʻirlik $1/4$, shuning uchun
# boʻlingandagi eng katta ogʻirlik kattaroq chiqadi.) Toʻyingan qatorlarda
# softmax ning gradienti deyarli nol: ular orqali *Q* va *K* ga signal
# deyarli oʻtmaydi.
# :::
#
# **2-mashq (uzunroq ketma-ketlik).** Gradient jadvalini `T = 120` bilan
# qayta hisoblang. RNN dagi «qadam 119 / qadam 0» nisbati qanday
# oʻzgaradi? Attention dagi-chi?
#
# :::{admonition} Yechim
# :class: dropdown
#
# RNN da gradient har qadamda taxminan bir xil koʻpaytuvchiga koʻpaytiriladi,
# shuning uchun nisbat masofaga **eksponensial** bogʻliq: qadamlar ikki
# barobar koʻpaysa, nisbatning tartibi ham taxminan ikki barobar oshadi
# (float32 ning eng kichik sonlariga yetib, nolga aylanishi ham mumkin).
# Attention da nisbat yana 1 atrofida qoladi: yoʻl uzunligi *T* ga bogʻliq
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
# oʻzidan oldingi elementlarni koʻradi. Asl tartibda 0-element faqat oʻzini
# koʻrardi, teskari tartibda u oxirida turadi va hammani koʻradi; qolganlarida
# ham koʻradigan toʻplam oʻzgaradi. Demak kauzal maskaning oʻzi modelga
# tartib haqida maʼlumot beradi: pozitsiya kodlashsiz dekoder ham
# pozitsiyani qisman sezishi mumkin (Haviv va boshq., 2022). Maskasiz
# attention da esa har element hamma elementni koʻradi va chiqishi faqat
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
# {glue:text}`f_tavsiya_T:.0e` — 0-qadam xotirasi boshida deyarli toʻliq
# soʻnadi, shuning uchun model standart LSTM kabi tasodifiy darajaga yaqin
# qolishini kutamiz. $\sigma(5)^{59}$ = {glue:text}`f_katta_T:.2f` — xotira
# saqlanadi, vazifa yechilishi kerak. Oʻlchab, taxminingizni tekshiring;
# bahoning sodda ekanini ham unutmang: u boshlangʻich holatni tasvirlaydi,
# oʻqitish jarayonini emas.
# :::
#
# ## Atamalar
#
# :::{glossary}
# attention (eʼtibor mexanizmi)
#   ingl. *attention*. Har pozitsiya chiqishini hamma pozitsiya
#   qiymatlarining ogʻirlikli oʻrtachasi sifatida hisoblash usuli.
#
# soʻrov
#   ingl. *query*, *Q*. Pozitsiya «nimani qidirayotganini» ifodalovchi vektor.
#
# kalit
#   ingl. *key*, *K*. Pozitsiya «nimaga egaligini» ifodalovchi vektor;
#   soʻrov bilan solishtiriladi.
#
# qiymat
#   ingl. *value*, *V*. Pozitsiya tanlansa, chiqishga qoʻshadigan vektori.
#
# ball
#   ingl. *score*. Soʻrov va kalitning skalyar koʻpaytmasi (oʻxshashlik).
#
# ogʻirlik
#   ingl. *weight*. Softmax dan keyingi ball; bir qatordagilar yigʻindisi 1.
#
# pozitsiya kodlash
#   ingl. *positional encoding*. Har pozitsiyaga qoʻshiladigan vektor; usiz
#   attention tartibni koʻrmaydi.
#
# ketma-ketlik
#   ingl. *sequence*. Tartiblangan elementlar qatori, masalan vaqt
#   qadamlaridagi sonlar yoki soʻzlar.
#
# qadam
#   ingl. *step*, *time step*. Ketma-ketlikdagi bitta pozitsiya.
#
# yoʻl uzunligi
#   ingl. *path length*. Maʼlumot bir pozitsiyadan boshqasiga yetishi uchun
#   oʻtadigan amallar soni.
#
# residual ulanish
#   ingl. *residual connection*. Qatlam kirishini uning chiqishiga qoʻshish:
#   $x + f(x)$.
#
# qatlam
#   ingl. *layer*. Tarmoqning bitta hisoblash bosqichi.
#
# multi-head attention
#   ingl. *multi-head attention*. Bir nechta mustaqil attention «boshi»
#   parallel ishlaydi, natijalari birlashtiriladi.
#
# fine-tuning
#   ingl. *fine-tuning*. Oldindan oʻqitilgan modelni oʻz vazifangiz
#   maʼlumotida qisqa qoʻshimcha oʻqitish.
# :::
