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
# gradient 0-{term}`qadamga <qadam>` qanchalik yetib borishini oʻlchaymiz, modellarni
# oʻqitamiz va oʻqitilgan attention qayerga qarashini chizamiz.


# %%
import inspect
from functools import partial

import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import torch
import torch.nn as nn

from chapter_code.kitob import show, fig
from chapter_code.bichim import son
from chapter_code.malumot import vazifa
from chapter_code.modellar import Ketma, Attention
from chapter_code.modellar import parametrlar
from chapter_code.oqitish import oqit, parallel
from chapter_code.oqitish import protokoli

# %% [markdown]
# ## Vazifa va modellar
#
# Kirish — uzunligi *T* = 60 boʻlgan tasodifiy sonlar {term}`ketma-ketligi <ketma-ketlik>`. Javob
# (0 yoki 1) faqat **birinchi** elementning ishorasiga bogʻliq; qolgan 59 ta
# element — shovqin. Model 0-qadamdagi maʼlumotni oxirigacha olib borishi
# kerak: bu RNN uchun ataylab noqulay masala. Tasodifiy javobning
# {term}`aniqligi <aniqlik>` (toʻgʻri javoblar ulushi) $0{,}5$ ga teng.
#
# ```{literalinclude} ../../chapter_code/malumot.py
# :pyobject: vazifa
# ```
#
# Rekurrent modellar ikkita: `Ketma("rnn")` va `Ketma("lstm")`. Ikkalasi ham
# ketma-ketlikni oxirigacha oʻqiydi va oxirgi {term}`yashirin holat` asosida javob beradi.
# LSTM uchun `unutish` argumenti — {term}`unutish darvozasi` (ingl. *forget gate*)
# {term}`siljishining <siljish>` boshlangʻich qiymati.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: Ketma
# ```
#
# Attention modeli {doc}`«Attention mexanizmi» <mexanizm>` darsidagi toʻrt {term}`bosqichni <bosqich>` takrorlaydi. Bu —
# **{term}`oʻz-oʻziga attention`** (ingl. *self-attention*): {term}`soʻrov`, {term}`kalit` va qiymat bitta
# ketma-ketlikdan olinadi. Oʻsha darsdagi misoldan farqi uchta:
# kirishdagi har son avval chiziqli {term}`proyeksiya` bilan *d* = {glue:text}`d_model` oʻlchamli
# vektorga aylantiriladi; unga oʻrganiladigan
# **{term}`pozitsiya kodlash`** (`self.poz`, har pozitsiyaga bitta vektor) qoʻshiladi;
# oxirida hamma pozitsiyalarning chiqishlari oʻrtalashtirilib, javobga aylanadi.
#
# Quyida modelning `forward` metodi keltirilgan. Undagi {term}`kauzal maska <kauzal (sababiy) maska>` (`kauzal`) va pozitsiya
# kodlashning boshqa turlari {doc}`«Pozitsiyalar uzunroq ketma-ketlikda» <pozitsiyalar>` darsida kerak boʻladi.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: Attention.forward
# :dedent: 4
# ```

# %% [markdown]
# ## Gradient 0-qadamga yetib boradimi?
#
# {term}`Yoʻqotish funksiyasining <yoʻqotish funksiyasi>` gradienti — model
# oʻrganishda tayanadigan signal. U 0-qadamda juda kichik boʻlsa, oʻqitish
# boshida model javob aynan shu yerda ekanini sezishi qiyin.
# Har model uchun tasodifiy {term}`parametrlar` bilan bitta {term}`orqaga oʻtishni <orqaga oʻtish>`
# (ingl. *backward pass*) bajaramiz
# va $|\partial L / \partial x_t|$ ni namunalar boʻyicha oʻrtalashtiramiz.

# %%
T = 60
UNUTISH = 3.0  # LSTM unutish darvozasi siljishi (standart: ≈ 0)
lstm_u = f"LSTM (unutish = {UNUTISH:g})"
yasalar = {
    "RNN": partial(Ketma, "rnn"), "LSTM": partial(Ketma, "lstm"),
    lstm_u: partial(Ketma, "lstm", unutish=UNUTISH),
    "attention": partial(Attention, T),
}


def gradient(yasa, seed=0):
    # (256, T, 1) -> (T,): har qadamdagi |gradient| ning oʻrtachasi
    torch.manual_seed(seed)
    Xg, yg = vazifa(256, T, 1)
    Xg.requires_grad_(True)
    nn.CrossEntropyLoss()(yasa()(Xg), yg).backward()
    return Xg.grad.abs().mean(dim=(0, 2))


grad_jadval, grad_nisbat = [], {}
for nom, yasa in yasalar.items():
    g = gradient(yasa)
    grad_nisbat[nom] = float(g[T - 1] / g[0])
    grad_jadval.append({
        "model": nom,
        "0-qadam": son(g[0], ".3e"),
        f"{T-1}-qadam": son(g[T - 1], ".3e"),
        f"{T-1}-qadam / 0-qadam": son(grad_nisbat[nom], ".2e"),
    })
show(pd.DataFrame(grad_jadval), nom="grad_jadval", izoh=(
    "Kirishning 0-qadamiga va oxirgi qadamiga yetib boradigan "
    f"gradient (*T* = {T})."))
# nisbat 20 xil initsializatsiyada (seed 0–19)
grad_20 = {}
for nom in ("RNN", "LSTM", lstm_u):
    grad_20[nom] = [float(g[-1] / g[0]) for g in
                    (gradient(yasalar[nom], s) for s in range(20))]
    print(f"{nom}: mediana {son(np.median(grad_20[nom]), '#.2g')},"
          f" oraliq {son(min(grad_20[nom]), '#.2g')}"
          f"–{son(max(grad_20[nom]), '#.2g')}")

# %% tags=["remove-cell"]
from myst_nb import glue  # qiymatlarni matnga beradi

for nom, qisqa in [("RNN", "rnn"), ("LSTM", "lstm"),
                   (lstm_u, "lstm_unutish"), ("attention", "attention")]:
    glue(f"grad_{qisqa}", grad_nisbat[nom], display=False)
glue("grad_20_min", min(grad_20["RNN"] + grad_20["LSTM"]), display=False)
glue("grad_20_rnn_min", min(grad_20["RNN"]), display=False)
glue("grad_20_lstm_min", min(grad_20["LSTM"]), display=False)
glue("grad_20_u", grad_20[lstm_u], display=False)
glue("grad_20_u_min", min(grad_20[lstm_u]), display=False)
glue("grad_20_u_max", max(grad_20[lstm_u]), display=False)
# standart LSTMning eng kichik nisbati siljishi 3 lisining eng kattasidan necha marta katta
glue("grad_20_u_farq", min(grad_20["LSTM"]) / max(grad_20[lstm_u]), display=False)
glue("grad_20_rnn_med", float(np.median(grad_20["RNN"])), display=False)
glue("grad_20_lstm_med", float(np.median(grad_20["LSTM"])), display=False)

# %% [markdown]
# {numref}`%s-jadvalga <grad_jadval>` koʻra, RNNda oxirgi qadam gradienti
# 0-qadamnikidan {glue:text}`grad_rnn:.2e` marta katta, LSTMda
# {glue:text}`grad_lstm:.2e` marta. Aniq son {term}`initsializatsiyaga <initsializatsiya>`
# qarab oʻzgaradi: 20 xil initsializatsiyada nisbatning {term}`medianasi <mediana>` RNNda
# {glue:text}`grad_20_rnn_med:#.2g`, LSTMda {glue:text}`grad_20_lstm_med:#.2g`, eng kichigi esa RNNda {glue:text}`grad_20_rnn_min:#.2g`, LSTMda {glue:text}`grad_20_lstm_min:#.2g`. Oʻqitish boshida 0-qadamga
# deyarli hech narsa yetib bormaydi. Signal 59 ta qadamning har birida birdan kichik
# koʻpaytuvchiga koʻpaytirilib, eksponensial soʻnadi — bu
# **{term}`gradientning soʻnishi`** (ingl. *vanishing gradient*). Attentionda esa
# nisbat {glue:text}`grad_attention:.2f` ga teng: ikkala qadamga deyarli bir xil
# gradient yetadi.
#
# Uchinchi qatordagi LSTMda unutish {term}`darvozasi <darvoza>` siljishi 3 dan
# boshlangan, nisbat esa bu initsializatsiyada atigi {glue:text}`grad_lstm_unutish:.2f`.
# 20 xil initsializatsiyada u {glue:text}`grad_20_u_min:#.2g` dan {glue:text}`grad_20_u_max:#.2g` gacha oʻzgaradi,
# lekin baribir standart LSTMdagidan kamida {glue:text}`grad_20_u_farq:.1g` marta kichik boʻladi. LSTMning
# {term}`xotira hujayrasi` har qadamda unutish darvozasi
# $f_t = \sigma(W x_t + U h_{t-1} + b_f)$ ga koʻpaytiriladi. PyTorch $b_f$ ni
# nol atrofida tanlaydi, kirish hissasi ham dastlab kichik, shuning uchun
# $f_t \approx \sigma(b_f)$ va 59 qadamdan keyin 0-qadamdagi maʼlumotning
# $\sigma(b_f)^{59}$ qismi qoladi:

# %%
for siljish in (0.0, 1.0, 3.0):
    f = torch.sigmoid(torch.tensor(siljish)).item()
    print(f"b_f = {siljish:g}: σ(b_f) = {son(f, '.3f')};"
          f" σ(b_f)⁵⁹ = {son(f ** (T-1), '.1e')}")

# %% [markdown]
# Demak, arxitekturasi bir xil LSTMlarda ham oʻqitish boshidagi soʻnishni unutish darvozasi
# siljishining boshlangʻich qiymati belgilaydi. Bu sodda baho: gradient
# yashirin holat orqali ham oqadi, shuning uchun jadvaldagi nisbat undan farq
# qiladi. {cite:ts}`gers2000` bu darvozani
# kiritgan; {cite:ts}`jozefowicz2015` siljishni 1 dan boshlashni tavsiya
# qilgan, lekin bizning 59 qadamimizda $b_f = 1$ ham deyarli hech narsa
# qoldirmaydi. Bu faqat oʻqitish boshidagi holat: boshlangʻich gradient
# oʻqitish natijasini belgilamaydi. Quyida LSTM ham PyTorchning standart
# siljishi bilan oʻqitiladi.
#
# ## Oʻqitish: har model besh seed bilan
#
# Hamma modellar bir xil sharoitda, `oqit` funksiyasining standart
# argumentlari bilan oʻqitiladi.

# %%
protokol = protokoli(oqit)  # argument nomi -> standart qiymati
d_model = inspect.signature(Attention).parameters["d"].default

# %% tags=["remove-cell"]
for nom, qiymat in protokol.items():
    glue(f"protokol_{nom}", qiymat, display=False)
glue("d_model", d_model, display=False)

# %% [markdown]
# Oʻqitish {glue:text}`protokol_epoxalar` {term}`epoxa` (ingl. *epoch*: oʻqitish
# namunalarining hammasidan bir marta oʻtish) davom etadi. Maʼlumot —
# {glue:text}`protokol_n` ta oʻqitish va {glue:text}`protokol_n_sinov` ta {term}`sinov namunasi <sinov toʻplami>`,
# har {term}`paketda <paket>` (ingl. *batch*) {glue:text}`protokol_batch` ta namuna.
# Optimizator — Adam ({cite:alp}`kingma2015`), {term}`oʻrganish tezligi`
# (ingl. *learning rate*) {glue:text}`protokol_lr` va oʻzgarmaydi.
# {term}`Oʻrganish tezligini boshida asta-sekin oshirish <oʻrganish tezligini asta-sekin oshirish>`
# (ingl. *warm-up*) ham, {term}`gradient kesish` ham
# ishlatilmaydi.
#
# Bitta natija tasodifan chiqqan boʻlishi mumkin, shuning uchun har model besh xil {term}`seed`
# (tasodifiy sonlar generatorining boshlangʻich qiymati) bilan
# oʻqitiladi. Seed boshlangʻich parametrlarni va paketlar tartibini belgilaydi,
# maʼlumot esa hamma seedda bir xil.
#
# ```{literalinclude} ../../chapter_code/oqitish.py
# :pyobject: oqit
# :start-at: def oqit
# ```

# %%
modellar = {
    "RNN": partial(Ketma, "rnn"),
    "LSTM": partial(Ketma, "lstm"),
    "pozitsiyali attention": partial(Attention, T),
    "pozitsiyasiz attention": partial(Attention, T, pozitsiya=False),
}
seedlar = range(5)
kalitlar = [(nom, s) for nom in modellar for s in seedlar]
ishlar = [(modellar[nom], T, s) for nom, s in kalitlar]
# (model, seed) -> (aniqlik, oʻqitilgan model)
natija = dict(zip(kalitlar, parallel(oqit, ishlar)))
aniq = {nom: [natija[nom, s][0] for s in seedlar] for nom in modellar}
YECHDI = 0.9  # shu aniqlikdan boshlab seedda vazifani «yechdi» deymiz
sinov = [{
    "model": nom,
    "seedlardagi aniqlik": "; ".join(son(a, ".3f") for a in aniq[nom]),
    "oʻrtacha": round(float(np.mean(aniq[nom])), 3),
    "parametrlar soni": parametrlar(yasa()),
} for nom, yasa in modellar.items()]
show(pd.DataFrame(sinov), nom="sinov_jadval",
     izoh="Sinov aniqligi: har model besh seed bilan.")

# %% tags=["remove-cell"]
for nom, q in [("RNN", "rnn"), ("LSTM", "lstm"),
               ("pozitsiyali attention", "attn"),
               ("pozitsiyasiz attention", "attn0")]:
    glue(f"{q}_seedlar", aniq[nom], display=False)
    glue(f"{q}_min", min(aniq[nom]), display=False)
    glue(f"{q}_max", max(aniq[nom]), display=False)
from chapter_code.natijalar import yechdi_gapi

for nom, q in [("RNN", "rnn"), ("LSTM", "lstm")]:
    k = sum(a >= YECHDI for a in aniq[nom])
    glue(f"{q}_yechdi", k, display=False)
    glue(f"{q}_yechdi_gap", yechdi_gapi(k, len(seedlar)), display=False)
glue("yechdi_chegara", YECHDI, display=False)
glue("T_vazifa", T, display=False)
glue("param_formula", 3 * d_model**2 + d_model * (T + 7) + 2, display=False)
glue("poz_param", T * d_model, display=False)

# %% [markdown]
# Model biror seedda kamida {glue:text}`yechdi_chegara:.1f` aniqlikka erishsa, shu seedda vazifani
# **yechdi** deymiz. {numref}`%s-jadvaldan <sinov_jadval>` toʻrtta xulosa chiqaramiz:
#
# - **Pozitsiyali attention** vazifani besh seedning hammasida yechdi: eng yomon
#   seedda ham {glue:text}`attn_min:.3f`.
# - **RNN** vazifani {glue:text}`rnn_yechdi_gap`, lekin natijasi seedga kuchli
#   bogʻliq: {glue:text}`rnn_min:.3f` dan {glue:text}`rnn_max:.3f` gacha.
#   Boshidagi kichik gradient oʻrganishni imkonsiz qilmaydi.
# - **LSTM** vazifani {glue:text}`lstm_yechdi_gap`; aniqliklar
#   {glue:text}`lstm_min:.3f` dan {glue:text}`lstm_max:.3f` gacha. Uning natijasi
#   seedga ham, protsessor arifmetikasiga ham kuchli bogʻliq: boshqa protsessorda xuddi
#   shu seedlarning birortasida ham vazifa yechilmasligi mumkin.
# - **Pozitsiyasiz attention** vazifani hech bir seedda yecha olmadi: eng yaxshi
#   seedda {glue:text}`attn0_max:.3f`. Nega shundayligini keyingi boʻlimda koʻramiz.
#   Toʻgʻri javoblar yarmidan biroz koʻp ekani tasodif emas: tartibni koʻrmaydigan model ham
#   musbat sonlar koʻp yoki kamligidan foydalana oladi.
#
# Besh seed — kichik tanlanma: boshqa seedlarda RNN ham, LSTM ham vazifani ancha kamroq
# yechishi mumkin. Jadvaldagi oʻrtachalarni bu modellarning umumiy bahosi deb olmang.
#
# Pozitsiyali attentionda gradient ham 0-qadamga yetdi, vazifa ham yechildi.
# Lekin birinchisi ikkinchisining sababi ekanini bu tajribadan aytib
# boʻlmaydi: gradient faqat boshlangʻich parametrlarda oʻlchandi.
#
# ## Pozitsiya kodlashsiz attention tartibni koʻrmaydi
#
# Attention formulasida pozitsiya indeksi hech qayerda yoʻq. Kirish
# qatorlarini aralashtirsak, {term}`ballar <ball>` matritsasining qatorlari va ustunlari
# xuddi shunday aralashadi. {term}`Softmax` har qatorni alohida hisoblaydi, oʻrtacha esa
# tartibga bogʻliq emas.
# Demak, pozitsiya kodlashsiz modelning chiqishi kirish tartibiga bogʻliq
# emas. Tekshiramiz:

# %%
torch.manual_seed(0)
m_poz = Attention(T, pozitsiya=False)
Xs, _ = vazifa(8, T, 5)
with torch.no_grad():
    asl = m_poz(Xs)
    aralash = m_poz(Xs[:, torch.randperm(T)])  # qadamlar aralashadi
aralash_farq = float((asl - aralash).abs().max())
print("Pozitsiya kodlashsiz attention — kirishni aralashtiramiz:")
for nom, y in [("asl", asl), ("aralash", aralash)]:
    chiqish = "; ".join(son(v, ".5f") for v in y[0])
    print(f"  {nom} kirishda chiqish[0]: {chiqish}")
print(f"  eng katta farq: {son(aralash_farq, '.2e')}")

# %% tags=["remove-cell"]
glue("aralash_farq", aralash_farq, display=False)

# %% [markdown]
# Farq {term}`float32` (32 bitli suzuvchi vergulli son formati) hisobining
# yaxlitlash xatosi darajasida: chiqish amalda bir xil. Model uchun
# ketma-ketlik — tartibsiz toʻplam, unda «birinchi element» degan tushuncha
# yoʻq. Shuning uchun pozitsiyasiz attention vazifani yecha olmadi. Pozitsiya
# kodlash (`hh + self.poz[:, :T]`) esa 0-qadamdagi sonni boshqa qadamdagi
# xuddi shunday sondan farqlaydi.
#
# ## Oʻqitilgan model qayerga qaraydi
#
# Attention {term}`ogʻirliklari <ogʻirlik>` modelning «qayerga qarayotganini» bevosita
# koʻrsatadi. Sinovda eng yaxshi natija bergan seeddagi pozitsiyali attention
# modelini olamiz va 200 ta namunada uning ogʻirliklarini oʻrtalashtiramiz.

# %%
nomi = "pozitsiyali attention"
attn_seed = int(np.argmax(aniq[nomi]))
aniqlik, model = natija[nomi, attn_seed]
Xv, _ = vazifa(200, T, 2)
with torch.no_grad():
    model(Xv)
# (200, T, T) -> (T,): har qadamga oʻrtacha ogʻirlik
w = model.ogirlik.mean(dim=(0, 1)).numpy()
print(f"seed {attn_seed}, sinov aniqligi: {son(aniqlik, '.3f')}")
print(f"0-qadamga oʻrtacha ogʻirlik: {son(w[0], '.4f')}")
print(f"qolgan {T-1} qadamning har biriga oʻrtacha:"
      f" {son(w[1:].mean(), '.1e')}")
print(f"eng katta ogʻirlik: {int(w.argmax())}-qadamda")
# bitta namunada soʻrovlar boshqa qadamlarga bergan eng katta ulush
bir_namuna0 = float(model.ogirlik[0][:, 0].min())
qolgani = float(model.ogirlik[0][:, 1:].sum(-1).max())
print("bitta namunada 0-qadamdan boshqa qadamlarga eng koʻpi:",
      son(qolgani, ".1e"))

# %% tags=["remove-cell"]
glue("qadam0", float(w[0]), display=False)
glue("qadam0_foiz", 100 * float(w[0]), display=False)
glue("bir_namuna0", bir_namuna0, display=False)
glue("bir_namuna_qolgan", qolgani, display=False)

# %% [markdown]
# Ogʻirlikning deyarli hammasi 0-qadamga tushgan: javob qayerdaligini model
# oʻqitish davomida, gradient orqali oʻzi topdi. Xuddi shu ogʻirliklar
# {numref}`%s-rasmda <attention_ogirligi>` koʻrsatilgan.

# %%
rasm, (b1, b2) = plt.subplots(2, 1, figsize=(5.6, 6.4))
b1.bar(np.arange(T), w, color="#1a73e8")
b1.set(xlabel="ketma-ketlik qadami", ylabel="ogʻirlik")
tasvir = b2.imshow(model.ogirlik[0].numpy(), aspect="auto")
b2.set(xlabel="kalit qadami", ylabel="soʻrov qadami")
plt.colorbar(tasvir, ax=b2, fraction=0.046)
plt.tight_layout()
fig("attention_ogirligi.png", caption=(
    "Yuqorida: oʻqitilgan model har qadamga bergan oʻrtacha"
    " ogʻirlik. Pastda: bitta namunaning attention matritsasi;"
    " chap ustun — har soʻrov qadami 0-qadamga bergan ogʻirlik."))

# %% [markdown]
# Pastki matritsaning chap ustuni yorqin: bu namunada har soʻrov qadami
# ogʻirligini 0-qadamga toʻplaydi, boshqa qadamlarga eng koʻpi bilan
# {glue:text}`bir_namuna_qolgan:.1e` qoladi. Yuqorida ekranga chiqarilgan
# {glue:text}`qadam0:.4f` esa 200 namunaning oʻrtachasi. Attention
# ogʻirliklari modelni tushuntirishning eng oddiy vositasi, lekin ehtiyot
# boʻling: koʻp {term}`qatlamli <qatlam>` modellarda ogʻirlik va «sabab» har
# doim ham bir narsa emas.
#
# ## Mashqlar
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
# barobar koʻpaysa, nisbatdagi 10 ning daraja koʻrsatkichi ham taxminan ikki
# barobar oshadi.
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
# Jami $3d^2 + d\,(T + 7) + 2$; bizda *d* = {glue:text}`d_model` va
# *T* = {glue:text}`T_vazifa` boʻlgani uchun {glue:text}`param_formula` ta parametr — bu
# {numref}`%s-jadvaldagi <sinov_jadval>` son bilan bir xil. Pozitsiya kodlash
# $T \cdot d$ = {glue:text}`poz_param` ta parametr qoʻshadi: pozitsiyasiz model
# bilan farq aynan shu.
# :::
#
# **3-mashq (oʻylash uchun).** Oʻqitilmagan `Attention(T, pozitsiya=True)`
# ham kirish tartibini «koʻradimi»? Shu model bilan aralashtirish tajribasini (`aralash`)
# takrorlashdan oldin javob bering.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Ha. Pozitsiya vektorlari tasodifiy boshlangʻich qiymatga ega boʻlsa ham,
# ular har pozitsiyada har xil. Aralashtirilganda har elementga endi boshqa pozitsiya vektori
# qoʻshiladi va chiqish oʻzgaradi. Oʻqitish bu vektorlarga maʼno beradi.
# :::
#
# **4-mashq (RNN qadamini oʻzingiz yozing).** `Ketma("rnn")` ichidagi
# `nn.RNN` har qadamda $h_t = \tanh(W_{ih} x_t + b_{ih} + W_{hh} h_{t-1} + b_{hh})$
# ni hisoblaydi, $h_0 = 0$. Shu formulani `for` sikli bilan yozing
# (`m.rnn.weight_ih_l0`, `m.rnn.bias_ih_l0`, `m.rnn.weight_hh_l0`,
# `m.rnn.bias_hh_l0`) va oxirgi holatni `m.rnn(X)` bilan solishtiring. Farq qancha
# boʻlishi kerak?
#
# :::{admonition} Yechim
# :class: dropdown
#
# Formula `nn.RNN` ning oʻzi, shuning uchun farq faqat yaxlitlashdan keladi:
# 60 qadamdan keyin eng katta farq {glue:text}`m4_farq:.1e` ga teng (yechim kodi
# quyida keltirilgan).
# Bu sikl RNN nega parallellashmasligini ham koʻrsatadi: har qadam oldingi
# qadamning natijasini kutadi.
# :::

# %% tags=["hide-cell"]
# 4-mashq yechimi: RNN qadami qoʻlda
torch.manual_seed(0)
m = Ketma("rnn")
X, _ = vazifa(8, T, 3)
r = m.rnn
h = torch.zeros(8, r.hidden_size)
with torch.no_grad():
    for t in range(T):
        h = torch.tanh(
            X[:, t] @ r.weight_ih_l0.T + r.bias_ih_l0
            + h @ r.weight_hh_l0.T + r.bias_hh_l0
        )
    o, _ = r(X)
m4_farq = float((h - o[:, -1]).abs().max())
print(f"eng katta farq: {son(m4_farq, '.1e')}")

# %% tags=["remove-cell"]
glue("m4_farq", m4_farq, display=False)
