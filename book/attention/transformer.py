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
# # Transformer bloki va KV kesh
#
# Bu darsda {term}`attention <attention (eʼtibor mexanizmi)>` atrofiga {term}`Transformer` blokini
# yigʻamiz. Soʻng kichik GPT bilan {term}`tokenlar <token>` yaratamiz va {term}`KV kesh` — oldingi
# {term}`kalit` va qiymatlar xotirasi — token yaratishni qancha tezlashtirishini va qancha joy
# egallashini koʻramiz.

# %%
import pandas as pd
import torch
import torch.nn as nn

from chapter_code.kitob import diagramma, show, fig
from chapter_code.bichim import son
from chapter_code.modellar import KopBoshli, Blok, KichikGPT
from chapter_code.modellar import kesh_baytlari, parametrlar
from chapter_code.oqitish import mediana_ms

# %% [markdown]
# ## Transformer bloki
#
# {doc}`«Attention, RNN va LSTM bitta vazifada» <rekurrent>` darsidagi `Attention` modelimiz bitta
# {term}`qatlamdan <qatlam>` iborat edi. Transformer bloki attention atrofiga yana uchta qism
# qoʻshadi: {term}`qoldiq ulanish` (ingl. *residual connection*), {term}`LayerNorm` (qatlam
# boʻyicha normallashtirish) va {term}`feed-forward <feed-forward tarmoq>` (oldinga uzatuvchi)
# tarmoq — ikki qatlamli {term}`MLP` (koʻp qatlamli perseptron). Shu blok koʻp marta ustma-ust
# qoʻyiladi. Qismlar {numref}`%s-jadvalda <qismlar_jadval>` keltirilgan.
#
# ```{table} Transformer blokining qismlari.
# :name: qismlar_jadval
#
# | qism | vazifasi |
# |:---|:---|
# | 1. Koʻp boshli attention (ingl. *multi-head attention*) | Bir nechta attention parallel ishlaydi — har biri boshqa munosabatga qaraydi |
# | 2. Qoldiq ulanish: `x + attn(x)` | Gradientga toʻsiqsiz yoʻl beradi — usiz chuqur tarmoqni oʻqitish juda qiyin |
# | 3. LayerNorm | Har pozitsiya vektorini normallashtiradi: oʻrtachasi 0, dispersiyasi 1 boʻladi (oʻrganiladigan koʻpaytuvchi va siljishdan oldin) |
# | 4. Feed-forward: ikki qatlamli MLP | Attention yigʻgan maʼlumotni har pozitsiyada qayta ishlaydi |
# ```
#
# GPT, BERT va Llama — shu arxitekturaning variantlari. Ular normallashtirish qatlamining joyi
# (quyida), {term}`pozitsiya kodlash` turi, attention maskasi, bloklar soni va oʻlchami bilan farq
# qiladi.
#
# ### Koʻp boshli attention kodda
#
# **{term}`Koʻp boshli attention <koʻp boshli attention>`** *d* oʻlchamni bir nechta
# «boshga» boʻladi: har bosh *Q*, *K*, *V* ning oʻz ustunlari bilan alohida attention
# hisoblaydi. Soʻng {term}`boshlarning <bosh>` chiqishlari yonma-yon qoʻyiladi va yana bitta chiziqli qatlamdan
# (`self.o`) oʻtadi. Boʻlish — faqat tenzor shaklini oʻzgartirish (`view`, `transpose`). Quyida
# `chapter_code/modellar.py` faylidagi `KopBoshli.forward` metodi keltirilgan. Undagi `manba` —
# kalit va qiymatlar olinadigan tenzor, odatda `x` ning oʻzi. Kesh qatorlarini keyinroq koʻramiz.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: KopBoshli
# :start-at: def forward
# :dedent:
# ```
#
# Misol: ikkita namuna, *T* = 10, *d* = 32, toʻrtta bosh. PyTorchning `nn.MultiheadAttention`
# qatlamiga `KopBoshli` ning {term}`parametrlarini <parametrlar>` koʻchirsak, natija bir xil
# chiqishi kerak.

# %%
torch.manual_seed(0)
d_blok, boshlar = 32, 4
kb = KopBoshli(d_blok, boshlar)
x = torch.randn(2, 10, d_blok)  # (paket, T, d)
with torch.no_grad():
    chiqish_kb = kb(x)
print("ogʻirliklar:", tuple(kb.ogirlik.shape))
print("chiqish:    ", tuple(chiqish_kb.shape))

mha = nn.MultiheadAttention(d_blok, boshlar, batch_first=True)
q, k, v = kb.q, kb.k, kb.v  # KopBoshli ning parametrlari
mha.load_state_dict({
    "in_proj_weight": torch.cat([q.weight, k.weight, v.weight]),
    "in_proj_bias": torch.cat([q.bias, k.bias, v.bias]),
    "out_proj.weight": kb.o.weight, "out_proj.bias": kb.o.bias})
with torch.no_grad():
    mha_farq = (mha(x, x, x)[0] - chiqish_kb).abs().max().item()
print("eng katta farq:", son(mha_farq, ".1e"))

# %% [markdown]
# Har boshga {glue:text}`d_bosh` tadan ustun tushadi. {term}`Ogʻirliklar <ogʻirlik>` — har bosh
# uchun alohida $T \times T$ matritsa, chiqish esa kirish shaklida. Eng katta farq
# {glue:text}`mha_farq:.1e` — {term}`float32` yaxlitlash xatosi: ikkala qatlam bir xil hisoblaydi.
# Hisob hajmi bitta boshli attention bilan deyarli bir xil, lekin endi har bosh boshqa narsaga
# qarashi mumkin; buni {doc}`«Yakuniy misol: attention oʻzbekcha sonlarni oʻqiydi» <yakuniy>`
# darsida koʻramiz.
#
# ### Normallashtirish qatlamining joyi: post-LN va pre-LN
#
# Asl Transformer maqolasida {cite:p}`vaswani2017` LayerNorm qoldiq ulanishdan **keyin** turadi,
# GPT-2 va Llama esa uni qismning oldiga qoʻyadi (`f` — attention yoki feed-forward):
#
# - {term}`post-LN <post-LN va pre-LN>` (2017) — `x = norm(x + f(x))`;
# - pre-LN (GPT-2, Llama) — `x = x + f(norm(x))`.
#
# Pre-LNda {term}`qoldiq yoʻli` (ingl. *residual stream*) normallashtirishdan oʻtmaydi: kirishdan
# chiqishgacha toʻsiqsiz yoʻl qoladi. {cite:t}`xiong2020` pre-LN modellar {term}`oʻrganish tezligini <oʻrganish tezligi>`
# boshida {term}`asta-sekin oshirmasdan <oʻrganish tezligini asta-sekin oshirish>` (ingl. *warm-up*)
# ham barqaror oʻqitilishini koʻrsatgan.
#
# :::{admonition} Chuqurroq: Llama blokining yana uchta farqi
# :class: dropdown
#
# - LayerNorm oʻrniga {term}`RMSNorm`: u oʻrtachani ayirmaydi, faqat oʻrtacha
#   kvadratning ildiziga boʻladi (uni 2-mashqda oʻzingiz yozasiz);
# - feed-forward qismida oddiy ikki qatlamli MLP oʻrniga {term}`SwiGLU` — uchta matritsali
#   {term}`darvozali <darvoza>` faollashtirish;
# - pozitsiyalar uchun {term}`RoPE`: uni {doc}`«Pozitsiyalar uzunroq ketma-ketlikda» <pozitsiyalar>`
#   darsida koʻrdik.
# :::
#
# Bobdagi `Blok` — `KopBoshli` bilan pre-LN blok. Undagi ixtiyoriy ikkinchi attention —
# {term}`koder-dekoder attention` (ingl. *cross-attention*): {term}`dekoder` unda {term}`koderga <koder>`
# qaraydi; uni yakuniy misolda ishlatamiz.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: Blok
# ```

# %%
blok = Blok(32, 4)
namuna = torch.randn(2, 10, 32)
print("kirish: ", tuple(namuna.shape))
print("chiqish:", tuple(blok(namuna).shape))
print("parametrlar:", son(parametrlar(blok), "d"))

# %% [markdown]
# Blok kirish shaklini saqlaydi, shuning uchun bloklarni istalgancha ustma-ust qoʻyish mumkin.
# Bitta blokda {glue:text}`blok_param:d` ta parametr bor; post-LN blokda ham shuncha:
# normallashtirish faqat joyini oʻzgartiradi.
#
# ### Butun arxitektura
#
# GPT kabi dekoder modelining tuzilishi {numref}`%s-rasmda <arxitektura>` koʻrsatilgan. Tokenlar vektorlarga
# (*{term}`embedding`*) aylanadi, ularga pozitsiya kodlash qoʻshiladi, soʻng ular *N* ta pre-LN
# blokdan ({term}`kauzal maska <kauzal (sababiy) maska>` bilan) va oxirgi LayerNormdan oʻtadi.
# Chiziqli qatlam har pozitsiyada {term}`lugʻatdagi <lugʻat>` har token uchun bitta son beradi —
# **{term}`logit`** ({term}`softmaxdan <softmax>` oldingi son). Keyingi token oxirgi pozitsiyaning
# logitlaridan tanlanadi.

# %% tags=["remove-input"]
nomlar = ["tokenlar (lugʻatdagi indekslari)", "embedding + pozitsiya"
          " kodlash", "N × Blok (pre-LN, kauzal maska)", "LayerNorm",
          "chiziqli qatlam, softmax", "keyingi token ehtimollari"]
turlar = ["manba", "xizmat", "qayta", "xizmat", "xizmat", "manba"]
joy = {q: (0.2, 0.2 + 0.8 * i, 4.6, 0.5, t)  # pastdan yuqoriga
       for i, (q, t) in enumerate(zip(nomlar, turlar))}
diagramma(joy, list(zip(nomlar, nomlar[1:])), nom="arxitektura.png",
          izoh="Dekoder (GPT turidagi) Transformer, pastdan yuqoriga"
          " oʻqiladi. Har blok — yuqorida koʻrilgan pre-LN blok.")

# %% [markdown]
# `KichikGPT` modelining `forward` metodi shu arxitekturani bir necha qatorda yozadi:
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: KichikGPT
# :start-at: def forward
# :dedent:
# ```

# %% [markdown]
# ## KV kesh: oldingi hisobni saqlab qoʻyish
#
# GPT matnni tokenma-token yaratadi. Har **yaratish qadamida** model shu paytgacha
# yozilgan matndan lugʻatdagi har token uchun logit hisoblaydi, bitta tokenni tanlaydi va uni matn
# oxiriga qoʻshadi. Eng oddiy yoʻl — har {term}`qadamda <qadam>` butun matnni modeldan qayta oʻtkazish. Unda
# oldingi tokenlarning kalit va qiymatlari har qadamda qaytadan hisoblanadi, holbuki ular
# oʻzgarmaydi.
#
# Nega oʻzgarmaydi? Kauzal maska tufayli *i*-pozitsiyaning har qatlamdagi vektori faqat
# 0-tokendan *i*-tokengacha boʻlgan tokenlarga bogʻliq. Matnga yangi token qoʻshilsa, bu vektor ham, undan olingan kalit va qiymat ham oʻzgarmaydi. Ularni bir marta
# hisoblab saqlab qoʻyish mumkin: bu — **KV kesh** (ingl. *KV cache*; *kesh* — qayta ishlatish
# uchun saqlangan natijalar). Kesh bilan har qadamda modeldan faqat yangi token oʻtadi: uning *k*
# va *v* vektorlari keshga qoʻshiladi, {term}`soʻrovi <soʻrov>` *q* esa keshdagi hamma kalitlarga
# qaraydi. Maskasiz koderda (BERT kabi) bunday qilib boʻlmaydi: u yerda oldingi pozitsiyalar ham
# yangi tokenga qaraydi.
#
# :::{admonition} Chuqurroq: kesh kodda
# :class: dropdown
#
# Kesh `dict` obyektida kalitlar (`"k"`) va {term}`qiymatlar <qiymat>` (`"v"`) tenzorlari
# ({term}`paket`, bosh, *T*, bosh oʻlchami) shaklida turadi. `KopBoshli.forward` yangi kalit va
# qiymatlarni `kesh_qosh` ga
# beradi, u ularni `torch.cat` bilan oxiriga qoʻshadi va kesh koʻrgan tokenlarni sanaydi (`"soni"`).
# Kesh `dict` obyektidagi `"oyna"` yozuvi {term}`siljuvchi oynali attention` (ingl. *sliding-window
# attention*) uchun; uni
# {doc}`«Yakuniy misol: attention oʻzbekcha sonlarni oʻqiydi» <yakuniy>` darsida koʻramiz.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: kesh_qosh
# :start-at: if "bufer_k" not in kesh
# :end-before: oldindan ajratilgan bufer: dastlabki
# :dedent:
# ```
#
# Biz ishlatgan `torch.cat` har qadamda butun keshni yangi tenzorga koʻchiradi. Koʻp amaliy
# tizimlar esa kesh uchun joyni oldindan ajratadi va yangi kalitlarni boʻsh joyga yozadi.
# Shunday keshni `kesh_qosh` funksiyasining qolgan qismi yuritadi: har matnga eng katta
# uzunlikdagi bitta bufer ajratiladi.
#
# Yangi tokenlarning pozitsiyalari kesh koʻrgan tokenlar sonidan boshlanadi, maska esa yangi
# soʻrovlarga keshdagi hamma kalitni, oʻzini va oʻzidan oldingi yangi tokenlarni koʻrsatadi:
# ikkalasini `kesh_boshi` funksiyasi hisoblaydi.
# :::
#
# Avval ikki yoʻl bir xil natija berishini tekshiramiz. Model oʻqitilmagan: tenglik har qanday
# parametrlarda kauzal maskadan kelib chiqadi. Har qadamda eng katta logitli tokenni olamiz — bu
# **{term}`ochkoʻz tanlash`** (ingl. *greedy decoding*).
# {term}`Boshlangʻich matn <boshlangʻich matn>` (ingl. *prompt*) {glue:text}`kv_boshi` ta
# tasodifiy tokendan iborat, undan keyin {glue:text}`kv_N` ta yangi token yaratamiz. Kesh bilan
# birinchi qadamda modelga butun boshlangʻich matn kiradi, keyin esa faqat oxirgi tanlangan token.

# %%
torch.manual_seed(0)
LUGAT = 100  # lugʻatdagi tokenlar soni
gpt = KichikGPT(LUGAT, d=64, boshlar=4, qatlamlar=2).eval()
boshi = torch.randint(LUGAT, (1, 8))  # boshlangʻich matn
N_YANGI = 40  # nechta yangi token yaratamiz


@torch.no_grad()
def yarat(kesh):
    # kesh bilan: har blokka bitta boʻsh dict
    keshlar = [{} for _ in gpt.bloklar] if kesh else None
    idx, kirish, logitlar = boshi, boshi, []
    for _ in range(N_YANGI):
        # (1, kirish uzunligi, lugʻat) -> (1, lugʻat)
        logitlar.append(gpt(kirish, keshlar)[:, -1])
        # (1, 1): eng katta logitli token
        yangi = logitlar[-1].argmax(dim=-1, keepdim=True)
        idx = torch.cat([idx, yangi], dim=1)  # (1, T + 1)
        # keshsiz: butun matn; kesh bilan: faqat yangi token
        kirish = yangi if kesh else idx
    return idx, torch.cat(logitlar), keshlar


idx_a, logitlar_a, _ = yarat(kesh=False)
idx_b, logitlar_b, keshlar = yarat(kesh=True)
logit_farq = (logitlar_a - logitlar_b).abs().max().item()
farqli = int((idx_a != idx_b).sum())
print("logitlar farqi:", son(logit_farq, ".1e"))
print(f"farqli tokenlar: {farqli} / {N_YANGI}")

# %% tags=["remove-cell"]
from chapter_code.kitob import glue, yopishtir  # qiymatlarni matnga beradi

yopishtir(mha_farq=mha_farq, d_bosh=d_blok // boshlar, blok_param=parametrlar(blok), kv_N=N_YANGI,
          kv_boshi=boshi.shape[1], kv_farq=logit_farq, kv_farqli=farqli)

# %% [markdown]
# Ikkala yoʻl {glue:text}`kv_N` ta tokenning hammasini bir xil tanladi. Logitlarning eng katta
# farqi {glue:text}`kv_farq:.1e` — yaxlitlash xatosi (kesh bilan qoʻshish tartibi biroz boshqa).
#
# ### Bitta token qancha vaqt oladi
#
# Aytaylik, matnda *T* ta token bor va keyingi tokenning logitlari kerak. Keshsiz model *T* ta tokenning
# hammasini qayta hisoblaydi; kesh bilan esa keshda $T - 1$ ta token tayyor, modelga faqat oxirgi
# token kiradi. Vaqtni bitta {term}`oqimda <oqim>` koʻp marta oʻlchab, {term}`medianasini <mediana>`
# olamiz.

# %%
torch.set_flush_denormal(True)  # narx darsidagi kabi
torch.manual_seed(1)
matn = torch.randint(LUGAT, (1, 1024))  # qiymatlari vaqtga taʼsirsiz
qatorlar = []
with torch.no_grad():
    for T in [128, 256, 512, 1024]:
        idx = matn[:, :T]  # (1, T)
        tayyor = [{} for _ in gpt.bloklar]
        gpt(idx[:, :-1], tayyor)  # keshda T − 1 ta token
        keshsiz = mediana_ms("gpt(idx)", gpt=gpt, idx=idx)
        # har takrorda yangi dict: tayyor tenzorlarga ishora qiladi
        kesh = mediana_ms(
            "gpt(idx[:, -1:], [dict(k) for k in tayyor])",
            gpt=gpt, idx=idx, tayyor=tayyor)
        qatorlar.append((T, keshsiz, kesh, keshsiz / kesh))
kv = pd.DataFrame(qatorlar, columns=[
    "T", "keshsiz (ms)", "kesh bilan (ms)", "nisbat"]).set_index("T")
show(kv.round(2).reset_index(), nom="kv_vaqt_jadval",
     izoh="Matnda *T* ta token boʻlganda keyingi token logitlarini"
          " hisoblash vaqti:"
          " keshsiz va KV kesh bilan (bitta oqimda, mediana);"
          " nisbat — keshsiz vaqt / kesh bilan vaqt.")

# %%
b1 = kv.drop(columns="nisbat").plot(
    loglog=True, style=["o-", "s--"], figsize=(5.6, 3.8), grid=True,
    xlabel="matndagi tokenlar, T", ylabel="bitta token vaqti (ms)")
b1.set_xticks(kv.index, kv.index.astype(str))
b1.minorticks_off()
fig("kv_kesh_vaqt.png",
    caption="Keyingi tokenni yaratish vaqti matn uzunligiga qarab,"
            " log-log oʻqlarda (oʻqitilmagan KichikGPT, bitta oqim).")
kichik, katta = kv.iloc[0], kv.iloc[-1]
osish = katta / kichik  # T sakkiz marta oshganda vaqt necha marta

# %% tags=["remove-cell"]
for nom, qiymat in dict(
    kv_T_kichik=kv.index[0], kv_T_katta=kv.index[-1],
    kv_nisbat=katta["nisbat"], kv_ms_keshsiz=katta["keshsiz (ms)"],
    kv_osish_keshsiz=osish["keshsiz (ms)"],
    kv_ms_kesh=katta["kesh bilan (ms)"],
    kv_osish_kesh=osish["kesh bilan (ms)"]).items():
    glue(nom, float(qiymat), display=False)

# %% [markdown]
# *T* = {glue:text}`kv_T_katta:.0f` da kesh bilan qadam {glue:text}`kv_nisbat:.0f` marta tezroq:
# {glue:text}`kv_ms_keshsiz:.2f` ms oʻrniga {glue:text}`kv_ms_kesh:.2f` ms
# ({numref}`kv_vaqt_jadval`, {numref}`kv_kesh_vaqt`). *T* sakkiz marta oshganda keshsiz qadamning
# vaqti {glue:text}`kv_osish_keshsiz:.0f` marta oʻsdi — *T* ning oʻzidan ham tez, chunki
# {term}`ballar <ball>` matritsasi *T*² bilan oʻsadi. Kesh bilan qadamning vaqti esa ancha kam
# oʻzgardi.
#
# Keshsiz qadam *T* marta koʻproq hisob qiladi, lekin tezlashuv bundan ancha kichik: kesh bilan
# qadamdagi matritsalar juda kichik, vaqtning katta qismini har amalning doimiy narxi (Python va
# PyTorch chaqiruvlari) oladi.
#
# :::{admonition} Chuqurroq: *N* ta token jami qancha ish talab qiladi
# :class: dropdown
#
# *N* ta token yaratishda qadam *N* marta takrorlanadi. Kesh bilan
# qadamning ishi *T* ga chiziqli (yangi soʻrov *T* ta kalitga qaraydi), jami $O(N^2)$; keshsiz
# qadamning ishi *T*² gacha oʻsadi, jami $O(N^3)$. Kesh attentionning kvadratik narxini yoʻqotmaydi,
# faqat oldingi tokenlarni qayta hisoblashni olib tashlaydi.
# :::

# %% [markdown]
# ### Kesh qancha joy egallaydi
#
# Kesh xotirada turadi. Har qatlamda har token uchun bitta kalit va bitta {term}`qiymat` vektori
# saqlanadi, har biri $n_{kv}$ ta boshda $d_{\text{bosh}}$ tadan son:
#
# $$
# \text{kesh hajmi} = 2 \cdot L \cdot T \cdot n_{kv} \cdot d_{\text{bosh}} \cdot b,
# $$
#
# bu yerda 2 — kalit va qiymat, *L* — qatlamlar soni, *T* — keshdagi tokenlar soni, $n_{kv}$ —
# kalit/qiymat boshlari soni, $d_{\text{bosh}}$ — bitta boshning oʻlchami, *b* — bitta sonning bayt
# hajmi (float32da 4, {term}`bfloat16da <bfloat16>` 2).
#
# Katta modellarda kesh xotiraning katta qismini egallaydi. Shuning uchun Llama 3 kabi modellar
# **{term}`guruhlangan soʻrovli attention <guruhlangan soʻrovli attention (GQA)>`** (ingl. *grouped-query
# attention*, GQA; {cite:alp}`ainslie2023`) qoʻllaydi: bir guruhdagi bir nechta soʻrov boshi bitta
# kalit/qiymat boshidan birgalikda foydalanadi. Keshda faqat kalit/qiymat boshlari saqlanadi, shuning
# uchun u (soʻrov boshlari soni) / (kalit/qiymat boshlari soni) marta kichrayadi.
#
# Avval formulani yuqorida toʻldirilgan keshlarning tenzorlari bilan tekshiramiz.

# %%
def kesh_bayt(L, T, n_kv, d_bosh, b):
    return 2 * L * T * n_kv * d_bosh * b  # formula


L_gpt, n_gpt = len(gpt.bloklar), gpt.bloklar[0].attn.boshlar
d_bosh_gpt = gpt.emb.embedding_dim // n_gpt
b_gpt = keshlar[0]["k"].element_size()  # float32: 4 bayt
T_kesh = keshlar[0]["k"].shape[2]  # (paket, bosh, T, bosh oʻlchami)
formula_gpt = kesh_bayt(L_gpt, T_kesh, n_gpt, d_bosh_gpt, b_gpt)
haqiqiy_gpt = kesh_baytlari(keshlar)  # tenzorlar egallagan baytlar
print(f"{T_kesh} ta token, formula: {son(formula_gpt, 'd')} bayt")
print(f"keshlardagi tenzorlar: {son(haqiqiy_gpt, 'd')} bayt")

# %% [markdown]
# Formula va kesh mos keldi: {glue:text}`kv_kesh_T:d` ta token (oxirgi yaratilgan token hali
# modeldan oʻtmagan) {glue:text}`kv_haqiqiy_bayt:d` bayt egallaydi. Endi toʻliq kontekstdagi
# hajmni `KichikGPT` va Llama 3 8B ({cite:alp}`llama3`; Meta eʼlon qilgan `config.json`) uchun
# hisoblaymiz. {term}`KiB <KiB, MiB, GiB>` — $2^{10}$, MiB — $2^{20}$, GiB — $2^{30}$ bayt.

# %%
# huggingface.co/meta-llama/Meta-Llama-3-8B: config.json
c = {"hidden_size": 4096, "num_hidden_layers": 32,
     "num_attention_heads": 32, "num_key_value_heads": 8,
     "max_position_embeddings": 8192}  # torch_dtype: bfloat16
L_l, d_l = c["num_hidden_layers"], c["hidden_size"]
n_q_l, n_kv_l = c["num_attention_heads"], c["num_key_value_heads"]
T_l, b_l = c["max_position_embeddings"], 2  # bfloat16: 2 bayt
d_bosh_l = d_l // n_q_l  # 4096 / 32

T_gpt = gpt.poz.shape[0]  # KichikGPT ning kontekst oynasi
hajm = pd.DataFrame({  # har model — bitta ustun
    "KichikGPT": [L_gpt, T_gpt, n_gpt, n_gpt, d_bosh_gpt, b_gpt],
    "Llama 3 8B": [L_l, T_l, n_q_l, n_kv_l, d_bosh_l, b_l],
    "GQAsiz": [L_l, T_l, n_q_l, n_q_l, d_bosh_l, b_l]},
    index=["qatlamlar", "T", "soʻrov boshlari",
           "kalit/qiymat boshlari",
           "bosh oʻlchami", "bitta son (bayt)"])
# soʻrov boshlaridan boshqa qatorlar — kesh_bayt tartibida
hajm.loc["kesh (MiB)"] = kesh_bayt(
    *hajm.drop("soʻrov boshlari").values) / 2**20
show(hajm.rename_axis("kattalik").reset_index(), nom="kv_hajm_jadval",
     izoh="KV kesh hajmi toʻliq kontekstda (*T* — kontekst oynasi)."
          " GQAsiz — Llama 3 8B, agar har soʻrov boshi"
          " oʻz kalit va qiymatini saqlasa.")
token_kib = kesh_bayt(L_l, 1, n_kv_l, d_bosh_l, b_l) / 2**10  # Llama

# %% tags=["remove-cell"]
mib = hajm.loc["kesh (MiB)"].tolist()
for nom, qiymat in dict(
    kv_kesh_T=T_kesh, kv_formula_bayt=formula_gpt, kv_gpt_mib=mib[0],
    kv_haqiqiy_bayt=haqiqiy_gpt, kv_T_max=T_gpt,
    kv_llama_gqa_marta=n_q_l // n_kv_l,
    kv_llama_token_kib=token_kib, kv_llama_gib=mib[1] / 2**10,
    kv_llama_mha_gib=mib[2] / 2**10,
).items():
    glue(nom, qiymat, display=False)

# %% [markdown]
# `KichikGPT` ning {glue:text}`kv_T_max:d` tokenli keshi atigi {glue:text}`kv_gpt_mib:g` MiB.
# Llama 3 8Bda bitta tokenning keshi {glue:text}`kv_llama_token_kib:g` KiB, toʻliq kontekstniki esa
# {glue:text}`kv_llama_gib:g` GiB. Bu — bitta matn uchun: har foydalanuvchiga oʻz keshi kerak.
# GQAsiz kesh {glue:text}`kv_llama_mha_gib:g` GiB boʻlardi.
#
# DeepSeek-V2 ({cite:alp}`deepseekv2`) keshni boshqa yoʻl bilan kichraytiradi. Uning
# **{term}`siqilgan vektorli attentioni <siqilgan vektorli attention (MLA)>`** (ingl. *multi-head
# latent attention*, MLA) har token uchun kalit va qiymatlarni emas, ulardan siqilgan bitta qisqa
# vektorni keshlaydi. Kalit va qiymatlar shu vektordan {term}`proyeksiya` bilan olinadi.
# {numref}`mla_jadval` bitta tokenning keshini DeepSeek-V2 oʻlchamlarida toʻrt xil attention bilan
# hisoblaydi: {term}`MHA` (har soʻrov boshining oʻz kalit/qiymat boshi), GQA,
# {term}`MQA <koʻp soʻrovli attention (MQA)>` (hamma soʻrov boshlariga bitta kalit/qiymat boshi)
# va MLA.

# %%
# huggingface.co/deepseek-ai/DeepSeek-V2: config.json
ds = {"num_hidden_layers": 60, "num_attention_heads": 128,
      "qk_nope_head_dim": 128, "kv_lora_rank": 512,
      "qk_rope_head_dim": 64}  # torch_dtype: bfloat16
L_ds, d_ds = ds["num_hidden_layers"], ds["qk_nope_head_dim"]
n_kv = {"MHA": ds["num_attention_heads"], "GQA": 8, "MQA": 1}
# bitta qatlamda bitta token uchun keshlanadigan sonlar
sonlar = {nom: 2 * n * d_ds for nom, n in n_kv.items()}
sonlar["MLA"] = ds["kv_lora_rank"] + ds["qk_rope_head_dim"]
mla = pd.DataFrame({"bir qatlamda (son)": sonlar})
mla["bitta token (KiB)"] = mla["bir qatlamda (son)"] * L_ds * 2 / 2**10
# MLA keshi nechta kalit/qiymat boshiga teng
boshlar_soni = mla["bir qatlamda (son)"] / (2 * d_ds)
mla["kalit/qiymat boshlari"] = boshlar_soni.map(lambda b: son(b, "g"))
show(mla.rename_axis("attention").reset_index(), nom="mla_jadval",
     izoh="Bitta tokenning KV keshi DeepSeek-V2 oʻlchamlarida"
          " (60 qatlam, bosh oʻlchami 128, bfloat16).")

# %% tags=["remove-cell"]
yopishtir(mla_dc=ds["kv_lora_rank"], mla_dr=ds["qk_rope_head_dim"], mla_kib=float(mla.loc["MLA", "bitta token (KiB)"]),
          mla_mha_marta=float(sonlar["MHA"] / sonlar["MLA"]), mla_guruh=float(boshlar_soni["MLA"]))

# %% [markdown]
# MLA har qatlamda {glue:text}`mla_dc:d` sonli siqilgan vektorni va {glue:text}`mla_dr:d` sonli
# alohida kalitni saqlaydi: bitta token {glue:text}`mla_kib:g` KiB egallaydi. Bu MHAdagidan
# {glue:text}`mla_mha_marta:.0f` marta kam va kalit/qiymat boshlari soni {glue:text}`mla_guruh:g`
# boʻlgan faraziy GQA keshiga teng (jadvalning oxirgi ustuni).
#
# :::{admonition} Chuqurroq: MLA kalitlarni tiklamasdan qanday hisoblaydi
# :class: dropdown
#
# Kalit va qiymatlar har qadamda siqilgan vektordan qayta tiklanmaydi: kengaytiruvchi proyeksiya
# (ingl. *up-projection*) matritsalari oldindan soʻrov va chiqish matritsalari bilan koʻpaytirib
# birlashtiriladi. Ballar bevosita siqilgan vektorlar bilan hisoblanadi. Kesh kichrayadi, buning
# evaziga hisob koʻpayadi. {term}`RoPE` burishi pozitsiyaga bogʻliq va bu birlashtirishni buzardi,
# shuning uchun pozitsiya alohida, siqilmagan kichik kalit orqali beriladi: jadvalning MLA
# qatoridagi sonlarning {glue:text}`mla_dr:d` tasi shu kalitniki.
# :::
#
# :::{admonition} Chuqurroq: kesh hajmi va yaratish tezligi
# :class: dropdown
#
# Kesh hajmi tezlikka ham taʼsir qiladi. Kesh bilan bitta qadamda har parametr va keshdagi har
# kalit va qiymat xotiradan bir marta oʻqiladi, hisob esa kam: GPU sonlarni xotiradan olib
# kelishdan ancha tez koʻpaytiradi. Shuning uchun katta modelda yaratish qadamining vaqtini
# koʻpincha **{term}`xotira oʻtkazuvchanligi`** (ingl. *memory bandwidth*) belgilaydi: GQA va MLA
# oʻqiladigan baytni kamaytirib, yaratishni ham tezlashtiradi.
# :::
#
# ## Mashqlar
#
# **1-mashq (KV kesh hajmi).** `KichikGPT(LUGAT, d=64, boshlar=8)` va
# `KichikGPT(LUGAT, d=64, qatlamlar=4)` da {glue:text}`kv_T_max:d` tokenli kesh necha MiB? Avval
# formuladan taxmin qiling, soʻng keshni `matn` bilan toʻldirib, `kesh_baytlari` bilan sanang.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Formulada $n_{kv} \cdot d_{\text{bosh}}$ koʻpaytmasi turibdi. Oddiy koʻp boshli attentionda u *d*
# ga teng: boshlar ikki barobar koʻpaysa, har boshning oʻlchami ikki barobar kichrayadi. Shuning
# uchun boshlar sonini oshirish keshni oʻzgartirmaydi: asl modeldagidek {glue:text}`kv_gpt_mib:g`
# MiB. Qatlamlar ikki barobar koʻpaysa, kesh ham ikki
# barobar oshadi: {glue:text}`kv_mashq_qatlam4_mib:g` MiB. Keshni kichraytirish uchun kalit/qiymat
# boshlarini kamaytirish (GQA), *d* ni kichraytirish yoki sonlarni qisqaroq formatda saqlash mumkin.
# :::
#
# **2-mashq (RMSNormni oʻzingiz yozing).** RMSNorm:
# $y = x / \sqrt{\operatorname{mean}(x^2) + \varepsilon} \cdot w$, oʻrtacha — oxirgi oʻq boʻyicha,
# `w` — oʻrganiladigan koʻpaytuvchi (boshida birlar). Uni `nn.Module` sifatida yozing va (64, 10,
# 64) shakldagi tasodifiy kirishda `torch.nn.RMSNorm(64, eps=1e-6)` bilan solishtiring. Eng katta
# farq qancha? Oʻrtachasi 0 boʻlgan kirishda RMSNorm LayerNorm bilan (koʻpaytuvchi va
# {term}`siljishsiz <siljish>`) bir xilmi?
#
# :::{admonition} Yechim
# :class: dropdown
#
# Yechim kodi quyida. PyTorchning `torch.nn.RMSNorm` qatlamidan eng katta farq
# {glue:text}`t2_farq:.1e`, yaʼni
# yaxlitlash xatosi. Har vektordan oʻrtachasi ayirilgan kirishda RMSNorm va LayerNorm farqi
# {glue:text}`t2_ln_farq:.1e`: oʻrtacha 0 boʻlsa, oʻrtacha kvadrat {term}`dispersiyaga <dispersiya>`
# teng, ikkalasi bir xil hisoblaydi. RMSNorm oʻrtachani hisoblamaydi va siljish parametri yoʻq: ishi
# kamroq.
# :::

# %% tags=["hide-cell"]
# 1-mashq yechimi: boshlar yoki qatlamlar soni oʻzgarganda kesh
mashq_mib = {}
for kalit, qiymat in [("boshlar", 8), ("qatlamlar", 4)]:
    m_ = KichikGPT(LUGAT, d=64, **{kalit: qiymat}).eval()
    keshlar_ = [{} for _ in m_.bloklar]
    with torch.no_grad():
        m_(matn, keshlar_)  # toʻliq kesh: 1024 token
    mashq_mib[kalit] = kesh_baytlari(keshlar_) / 2**20
    print(f"{kalit} = {qiymat}: {son(mashq_mib[kalit], '.2f')} MiB")


# 2-mashq yechimi: RMSNorm
class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.eps, self.w = eps, nn.Parameter(torch.ones(d))

    def forward(self, x):
        # oxirgi oʻq boʻyicha oʻrtacha kvadrat: (..., d) -> (..., 1)
        rms = (x.pow(2).mean(-1, keepdim=True) + self.eps).sqrt()
        return x / rms * self.w


torch.manual_seed(0)
x2 = torch.randn(64, 10, 64)
with torch.no_grad():
    rms_t = nn.RMSNorm(64, eps=1e-6)  # PyTorchniki
    t2_farq = (RMSNorm(64)(x2) - rms_t(x2)).abs().max().item()
    x0 = x2 - x2.mean(-1, keepdim=True)  # har vektorning oʻrtachasi 0
    ln = nn.LayerNorm(64, eps=1e-6, elementwise_affine=False)
    t2_ln_farq = (RMSNorm(64)(x0) - ln(x0)).abs().max().item()
print("nn.RMSNorm bilan farq:", son(t2_farq, ".1e"))
print("LayerNorm bilan farq: ", son(t2_ln_farq, ".1e"))

# %% tags=["remove-cell"]
for nom, qiymat in dict(
    kv_mashq_bosh8_mib=mashq_mib["boshlar"], t2_farq=t2_farq,
    kv_mashq_qatlam4_mib=mashq_mib["qatlamlar"], t2_ln_farq=t2_ln_farq,
).items():
    glue(nom, float(qiymat), display=False)
