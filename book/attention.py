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
# Bu bobda siz attention (eʼtibor mexanizmi) qanday ishlashini qoʻlda hisoblab
# koʻrasiz, uni RNN va LSTM bilan bitta vazifada solishtirasiz va Transformer
# blokini yigʻasiz. Har bir jadval va rasm shu sahifadagi kod bilan hisoblangan.
#
# Avval kerakli kutubxonalar va bobning umumiy kodi (`chapter_code/`) yuklanadi.

# %%
import time
from functools import partial

import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import torch
import torch.nn as nn

from chapter_code.kitob import diagramma, show, fig
from chapter_code.malumot import vazifa
from chapter_code.modellar import Ketma, Attention, TransformerBlok
from chapter_code.modellar import parametrlar
from chapter_code.oqitish import oqit, parallel

# %% [markdown]
# ## Nega attention: yoʻl uzunligi
#
# RNN ketma-ketlikni qadamma-qadam oʻqiydi. Birinchi qadamdagi maʼlumot oxirgi
# qadamga yetib borishi uchun butun zanjirdan oʻtadi. Attention esa istalgan
# ikki pozitsiyani bevosita bogʻlaydi ({numref}`yol_uzunligi`).

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
# ## Attention toʻrt qadamda
#
# Kichik misol: 4 pozitsiyali ketma-ketlik, har pozitsiya 8 oʻlchamli vektor.
# Uchta chiziqli qatlam undan soʻrov (Q), kalit (K) va qiymat (V) yasaydi.

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
# Birinchi qadam: har soʻrovni har kalit bilan skalyar koʻpaytiramiz.

# %%
# (1, T, d) @ (1, d, T) -> (1, T, T)
ball = Q @ K.transpose(1, 2)
print("1-qadam: har Q ni har K bilan skalyar koʻpaytirish "
      "(oʻxshashlik balli)")
print(f"  ball shakli: {tuple(ball.shape)}  "
      "-> har pozitsiya har pozitsiyaga ball qoʻyadi")
print(np.round(ball[0].detach().numpy(), 2))

# %% [markdown]
# Ikkinchi va uchinchi qadam: ballarni $\sqrt{d}$ ga boʻlamiz va softmax bilan
# ogʻirlikka aylantiramiz.

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
# Toʻrtinchi qadam: qiymatlarning shu ogʻirliklar bilan oʻrtachasi.

# %%
# (1, T, T) @ (1, T, d) -> (1, T, d)
chiqish = ogirlik @ V
print("4-qadam: ogʻirliklar bilan V ning oʻrtachasi "
      f"-> {tuple(chiqish.shape)}")
print()
print("Hammasi bitta qatorda:")
print("  softmax(Q @ K.T / sqrt(d)) @ V")

# %% [markdown]
# ## Vazifa va modellar
#
# Oʻyinchoq vazifa: uzunligi $T = 60$ boʻlgan tasodifiy ketma-ketlikda javobni
# faqat birinchi element belgilaydi.
#
# ```{literalinclude} ../chapter_code/malumot.py
# :pyobject: vazifa
# ```
#
# Ikki rekurrent model (RNN va LSTM) va qoʻlda yozilgan attention:
#
# ```{literalinclude} ../chapter_code/modellar.py
# :pyobject: Ketma
# ```
#
# ```{literalinclude} ../chapter_code/modellar.py
# :pyobject: Attention
# ```

# %% [markdown]
# ## Gradient birinchi qadamga yetib boradimi?
#
# Oʻqitishdan oldin, tasodifiy ogʻirliklar bilan, kirishning har qadamiga
# qancha gradient yetib borishini oʻlchaymiz
# ({numref}`grad_jadval`).

# %%
T = 60
grad_jadval = []
for nom, yasa in [("RNN", partial(Ketma, "rnn")),
                  ("LSTM", partial(Ketma, "lstm")),
                  ("attention", partial(Attention, T))]:
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
show(pd.DataFrame(grad_jadval),
     izoh=f"Kirishning birinchi va oxirgi qadamiga yetib boradigan "
          f"gradient (T={T}).",
     nom="grad_jadval")

# %% [markdown]
# ## Oʻqitish: 4 model × 3 seed
#
# Har model bir xil protokol bilan oʻqitiladi: 60 epoxa, 2000 ta oʻquv va 600 ta
# sinov namunasi, 64 talik paketlar, Adam.
#
# ```{literalinclude} ../chapter_code/oqitish.py
# :pyobject: oqit
# ```
#
# Oʻn ikki oʻqitish bir-biriga bogʻliq emas, shuning uchun `parallel` ularni
# har yadroda bittadan jarayonda yuradi. Natijalar
# {numref}`%s-jadvalda <sinov_jadval>`.

# %%
modellar = {
    "RNN": partial(Ketma, "rnn"),
    "LSTM": partial(Ketma, "lstm"),
    "attention (+ pozitsiya)": partial(Attention, T),
    "attention (pozitsiyasiz)": partial(Attention, T, pozitsiya=False),
}
seedlar = (0, 1, 2)
ishlar = [(yasa, T, s) for yasa in modellar.values() for s in seedlar]
kalitlar = [(nom, s) for nom in modellar for s in seedlar]
natija = dict(zip(kalitlar, parallel(oqit, ishlar)))   # 12 ta oʻqitish

# %%
print("Tasodifiy javob = 0.50. Har model 3 seed bilan.")
sinov = []
for nom, yasa in modellar.items():
    aniq = [natija[nom, s][0] for s in seedlar]
    sinov.append({"model": nom, "seedlar": str([round(a, 3) for a in aniq]),
                  "oʻrtacha": round(float(np.mean(aniq)), 4),
                  "eng yomon": round(min(aniq), 4),
                  "parametrlar": parametrlar(yasa())})
show(pd.DataFrame(sinov), izoh="Sinov aniqligi: 4 model, 3 seed.",
     nom="sinov_jadval")

# %% [markdown]
# ## Pozitsiya kodlashsiz attention tartibni koʻrmaydi
#
# Pozitsiya kodlashsiz attention modeliga bir xil sonlarni boshqa tartibda
# beramiz va chiqishni solishtiramiz.

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
print(f"  maksimal farq      : {float((asl - aralash).abs().max()):.2e}")
print()
print("Chiqish oʻzgarmadi. "
      "Demak model uchun ketma-ketlik — TARTIBSIZ TOʻPLAM.")
print("U «birinchi element» degan tushunchaga ega emas, "
      "shuning uchun vazifani yecha olmaydi.")

# %% [markdown]
# ## Oʻqitilgan model nimaga qaraydi
#
# Jadvaldagi seed 0 bilan oʻqitilgan attention (+ pozitsiya) modelini olamiz va
# yangi namunalarda uning attention ogʻirliklarini oʻrtachalaymiz.

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

# %% [markdown]
# Xuddi shu ogʻirliklar rasmda ({numref}`attention_ogirligi`).

# %%
rasm, (b1, b2) = plt.subplots(1, 2, figsize=(14, 4.2),
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
# ## O(T²) narxi
#
# Attention matritsasi $T \times T$. Ketma-ketlik uzunligini ikki barobar
# oshirib, vaqtni oʻlchaymiz ({numref}`vaqt_jadval`).

# %%
vaqt_jadval = []
for Tx in [30, 60, 120, 240]:
    Xb, _ = vazifa(64, Tx, 3)
    r_m, a_m = Ketma("rnn"), Attention(Tx)
    with torch.no_grad():
        r_m(Xb); a_m(Xb)                                   # isitish
        t0 = time.perf_counter(); [r_m(Xb) for _ in range(10)]
        t_rnn = (time.perf_counter() - t0) * 100   # ms, bitta forward
        t0 = time.perf_counter(); [a_m(Xb) for _ in range(10)]
        t_attn = (time.perf_counter() - t0) * 100
    vaqt_jadval.append({"T": Tx, "RNN vaqti (ms)": round(t_rnn, 2),
                        "attention vaqti (ms)": round(t_attn, 2),
                        "attention matritsasi": f"{Tx}×{Tx} = {Tx*Tx}"})
show(pd.DataFrame(vaqt_jadval),
     izoh="Bitta forward pass vaqti (64 ta namuna) va attention "
          "matritsasining hajmi.",
     nom="vaqt_jadval")
print("Matritsa hajmi ustuni: T ikki barobar oshsa, "
      "u ANIQ toʻrt barobar oʻsadi.")
print("Vaqt ustuni esa boshqa narsani aytadi.")

# %% [markdown]
# ## Transformer bloki
#
# Attention — Transformer blokining bir qismi. Qolgan qismlari
# {numref}`%s-jadvalda <qismlar_jadval>`.

# %%
show(pd.DataFrame([
    ("1. Multi-head attention",
     "Bir nechta attention parallel — har biri boshqa munosabatga qaraydi"),
    ("2. Residual ulanish (x + attn(x))",
     "Gradientga toʻgʻri yoʻl beradi — chuqur tarmoq uchun shart"),
    ("3. LayerNorm",
     "Har qatlam chiqishini barqarorlashtiradi"),
    ("4. Feed-forward (2 qatlamli MLP)",
     "Attention yigʻgan maʼlumotni qayta ishlaydi"),
], columns=["Qism", "Vazifasi"]),
     izoh="Transformer blokining qismlari.", nom="qismlar_jadval")
print("Shu blok N marta taxlanadi. "
      "GPT, BERT, Llama — hammasi shu naqshning variantlari.")
print("Farqlar: blok soni, oʻlcham, pozitsiya kodlash turi "
      "va attention maskasi.")

# %% [markdown]
# ```{literalinclude} ../chapter_code/modellar.py
# :pyobject: TransformerBlok
# ```

# %%
blok = TransformerBlok()
namuna = torch.randn(2, 10, 32)
print(f"Kirish : {tuple(namuna.shape)}")
print(f"Chiqish: {tuple(blok(namuna).shape)}   "
      "(shakl saqlanadi — shuning uchun taxlash mumkin)")
print(f"Parametrlar: {parametrlar(blok)}")
print()
print("nn.MultiheadAttention — biz qoʻlda yozgan formulaning "
      "tayyor, tezroq versiyasi.")

# %% [markdown]
# ## Transformerlar qayerda ishlatiladi
#
# {numref}`qollash_jadval` amaliy vazifalar va ularga yondashuvni koʻrsatadi.

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
# ## Xulosa
#
# {numref}`xulosa_jadval` bobning asosiy gʻoyalarini bittadan jumlada jamlaydi.

# %%
show(pd.DataFrame([
    ("Attention formulasi",
     "softmax(Q @ K.T / sqrt(d)) @ V"),
    ("Q, K, V",
     "Soʻrov, kalit, qiymat — uchtasi ham chiziqli proyeksiya"),
    ("Nega sqrt(d)",
     "Softmax ni toʻyinishdan saqlaydi"),
    ("Yoʻl uzunligi",
     "Har pozitsiya orasida bitta qadam — 59 emas"),
    ("Gradient oqimi",
     "Oʻlchandi: nisbat birga yaqin, RNN da milliardlar"),
    ("Pozitsiya kodlash",
     "Oʻlchandi: busiz model tartibni koʻrmaydi"),
    ("Tushuntirish",
     "Ogʻirliklar modelning qarashini koʻrsatadi"),
    ("O(T kvadrat)",
     "Matritsa 4 barobar oʻsadi — toʻsiq XOTIRADA, tezlikda emas"),
    ("Parallellik",
     "Oʻlchandi: kichik T da attention RNN dan tezroq"),
    ("Transformer bloki",
     "Attention + residual + norm + feed-forward"),
], columns=["Tushuncha", "Bitta jumla"]),
     izoh="Bobning xulosasi.", nom="xulosa_jadval")
