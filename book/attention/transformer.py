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
# yigʻamiz: {term}`koʻp boshli attention` va uni oʻrab turgan qismlar. Soʻng oʻqitilmagan kichik GPT
# bilan {term}`tokenlar <token>` yaratamiz. {term}`KV kesh` — oldingi {term}`kalit` va qiymatlar
# xotirasi — natijani oʻzgartirmasligini, yaratishni qancha tezlashtirishini va qancha joy
# egallashini koʻramiz. Oxirida katta model bitta tokenga qancha bayt oʻqishini hisoblaymiz.

# %%
import pandas as pd
import matplotlib.pyplot as plt
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
# | 1. Koʻp boshli attention (multi-head attention) | Bir nechta attention parallel ishlaydi — har biri boshqa munosabatga qaraydi |
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
# **{term}`Koʻp boshli attention <koʻp boshli attention>`** *d* oʻlchamni bir nechta «boshga» boʻladi: har bosh
# *Q*, *K*, *V* ning oʻz ustunlarini oladi va alohida attention
# hisoblaydi. Soʻng {term}`boshlarning <bosh>` chiqishlari yonma-yon qoʻyiladi va yana bitta chiziqli qatlamdan
# (`self.o`) oʻtadi. Boʻlish — faqat tenzor shaklini oʻzgartirish (`view`, `transpose`). Quyida
# `KopBoshli` ning `forward` metodi keltirilgan (bobning modellari `chapter_code/modellar.py`
# faylida). Undagi `self.q`, `self.k`, `self.v` va `self.o` — chiziqli qatlamlar, `manba` esa kalit
# va qiymatlar qayerdan olinishini beradi (odatda `x` ning oʻzi). Koddagi KV kesh qatorlarini shu
# darsning oxirida, {term}`guruhli soʻrov attention <guruhli soʻrov attention (GQA)>` (GQA) qatorlarini esa yakuniy darsda koʻramiz.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: KopBoshli
# :start-at: def forward
# :dedent:
# ```
#
# Kichik misolni olamiz: ikkita namuna, *T* = 10, *d* = 32 va toʻrtta bosh. PyTorchning
# `nn.MultiheadAttention` qatlami aynan shu hisobni bajaradi: unga `KopBoshli` ning
# {term}`parametrlarini <parametrlar>` koʻchirsak, natija bir xil chiqishi kerak.

# %%
torch.manual_seed(0)
d_blok, boshlar = 32, 4
kb = KopBoshli(d_blok, boshlar)
x = torch.randn(2, 10, d_blok)  # (namuna, T, d)
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
# Har boshga *Q*, *K*, *V* ning {glue:text}`d_bosh` tadan ustuni tushadi.
# {term}`Ogʻirliklar <ogʻirlik>` — har bosh uchun alohida $T \times T$ matritsa, chiqish esa yana
# kirish shaklida. Eng katta farq {glue:text}`mha_farq:.1e` — {term}`float32` yaxlitlash xatosi
# darajasi. Demak, `nn.MultiheadAttention` va `KopBoshli` bir xil narsani hisoblaydi:
# {doc}`«Attention mexanizmi» <mexanizm>` darsidagi formulani, faqat boshlarga boʻlish va chiqish
# {term}`proyeksiyasi <proyeksiya>` qoʻshilgan holda. Bitta boshli attention bilan hisob hajmi
# deyarli bir xil, lekin endi boshlar har xil narsaga qarashi mumkin — buni
# {doc}`«Yakuniy misol: attention oʻzbekcha sonlarni oʻqiydi» <yakuniy>` darsida oʻqitilgan modelda
# koʻramiz.
#
# ### Normallashtirish qatlamining joyi: post-LN va pre-LN
#
# Asl Transformer maqolasida {cite:p}`vaswani2017` {term}`LayerNorm`
# {term}`qoldiq ulanishdan <qoldiq ulanish>` **keyin** turadi, GPT-2 va Llama esa
# normallashtirishni qismning oldiga qoʻyadi. Quyida `f` — attention yoki {term}`feed-forward <feed-forward tarmoq>`:
#
# - {term}`post-LN <post-LN va pre-LN>` (2017) — `x = norm(x + f(x))`;
# - pre-LN (GPT-2, Llama) — `x = x + f(norm(x))`.
#
# Pre-LNda {term}`qoldiq yoʻli` (ingl. *residual stream*) normallashtirish qatlamidan oʻtmaydi: kirishdan
# chiqishgacha toʻsiqsiz yoʻl qoladi. {cite:t}`xiong2020` pre-LN modellar
# {term}`oʻrganish tezligini <oʻrganish tezligi>` asta-sekin oshirmasdan ham ({term}`warm-up`
# davrisiz) barqaror oʻqitilishini koʻrsatgan.
#
# :::{admonition} Chuqurroq: Llama blokining yana uchta farqi
# :class: dropdown
#
# - LayerNorm oʻrniga {term}`RMSNorm`: u oʻrtachani ayirmaydi, faqat oʻrtacha
#   kvadratning ildiziga boʻladi (uni 2-mashqda oʻzingiz yozasiz);
# - feed-forward qismida oddiy ikki qatlamli MLP oʻrniga {term}`SwiGLU` — uchta matritsali
#   {term}`darvozali <darvoza>` faollashtirish;
# - pozitsiyalar uchun {term}`RoPE` (uni {doc}`«Pozitsiyalar uzunroq ketma-ketlikda» <pozitsiyalar>`
#   darsida koʻrdik).
# :::
#
# Bobdagi `Blok` — pre-LN blok, oʻzimiz yozgan `KopBoshli` bilan. Undagi ixtiyoriy ikkinchi
# attention — {term}`koder`–{term}`dekoder` attention (ingl. {term}`cross-attention`):
# dekoder unda koderga qaraydi; uni
# yakuniy misolda ishlatamiz.
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
# Blok kirish shaklini saqlaydi, shuning uchun uni istalgancha ustma-ust qoʻyish mumkin. Bitta
# blokda {glue:text}`blok_param:d` ta parametr bor. Post-LN blokda ham xuddi shuncha:
# normallashtirish qatlami faqat joyini oʻzgartiradi. Katta til modellarida bloklar soni oʻnlab,
# *d* esa bir necha ming boʻladi.
#
# ### Butun arxitektura
#
# GPT kabi {term}`dekoder` modelining toʻliq tuzilishi {numref}`%s-rasmda <arxitektura>`
# koʻrsatilgan. Tokenlar indekslarga, indekslar vektorlarga (*{term}`embedding`*) aylanadi, ularga
# pozitsiya kodlash
# qoʻshiladi, soʻng vektorlar *N* ta pre-LN blokdan (har birida
# {term}`kauzal maska <kauzal (sababiy) maska>`) va oxirgi normallashtirish qatlamidan oʻtadi.
# Chiziqli qatlam har pozitsiyada {term}`lugʻatdagi <lugʻat>` har token uchun bitta son beradi —
# **{term}`logit`** ({term}`softmaxdan <softmax>` oldingi son). Oxirgi pozitsiyaning
# logitlari keyingi tokenni tanlash uchun ishlatiladi.

# %% tags=["remove-input"]
nomlar = ["tokenlar (lugʻatdagi indekslari)", "embedding + pozitsiya"
          " kodlash", "N × Blok (pre-LN, kauzal maska)", "LayerNorm",
          "chiziqli qatlam → softmax", "keyingi token ehtimollari"]
turlar = ["manba", "xizmat", "qayta", "xizmat", "xizmat", "manba"]
joy = {q: (0.2, 0.2 + 0.8 * i, 4.6, 0.5, t)  # pastdan yuqoriga
       for i, (q, t) in enumerate(zip(nomlar, turlar))}
diagramma(joy, list(zip(nomlar, nomlar[1:])), nom="arxitektura.png",
          izoh="Dekoder (GPT turidagi) Transformer, pastdan yuqoriga"
          " oʻqiladi. Har blok — yuqorida koʻrilgan pre-LN Blok.")

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
# GPT kabi dekoder matnni tokenma-token yaratadi. Har **yaratish {term}`qadami <qadam>`** bir xil
# ishdan iborat: model shu paytgacha yozilgan matndan har bir lugʻat tokeniga {term}`logit`
# hisoblaydi, bitta tokenni tanlaydi va uni matn oxiriga — keyingi pozitsiyaga — qoʻshadi. Yangi
# tokenning {term}`soʻrovi <soʻrov>` har qatlamda oldingi hamma tokenlarning
# kalitlari bilan solishtiriladi va qiymatlaridan {term}`vaznli oʻrtacha` olinadi. Eng oddiy yoʻl —
# har qadamda butun matnni modeldan qayta oʻtkazish. U holda oldingi tokenlarning kalit va
# qiymatlari har qadamda qaytadan hisoblanadi, holbuki ular oʻzgarmaydi.
#
# Nega oʻzgarmaydi? Kauzal maska tufayli *i*-pozitsiya faqat oʻziga va oʻzidan oldingilarga qaraydi.
# Demak, uning har qatlamdagi vektori faqat 0-tokendan *i*-tokengacha boʻlgan tokenlarga bogʻliq.
# Matn oxiriga yangi token qoʻshilsa, bu vektor ham, undan olinadigan kalit va qiymat ham
# oʻzgarmaydi. Shuning uchun ularni bir marta hisoblab, saqlab qoʻyish mumkin. Bu — **KV kesh**
# (ingl. *KV cache*, kalit-qiymat keshi; *kesh* — qayta ishlatish uchun saqlab qoʻyilgan natijalar).
#
# Kesh bilan har qadamda modeldan faqat yangi token oʻtadi: uning *q*, *k*, *v* vektorlari
# hisoblanadi, *k* va *v* keshga qoʻshiladi, *q* esa keshdagi hamma kalitlarga qaraydi. Maskasiz
# koderda (BERT kabi) bunday qilib boʻlmaydi: u yerda oldingi pozitsiyalar ham yangi tokenga
# qaraydi, shuning uchun ularning vektorlari oʻzgaradi.
#
# Bobning kodida har blokning keshi — bitta `dict` (Pythonning nom boʻyicha olinadigan yozuvlar
# toʻplami), uni `KichikGPT` har blokka beradi.
#
# :::{admonition} Chuqurroq: kesh kodda
# :class: dropdown
#
# Kesh `dict`ida kalitlar (`"k"`) va {term}`qiymatlar <qiymat>` (`"v"`) tenzorlari
# (namuna, bosh, *T*, bosh oʻlchami) shaklida turadi. `KopBoshli.forward` yangi kalit va
# qiymatlarni `kesh_qosh` ga
# beradi, u ularni `torch.cat` bilan oxiriga qoʻshadi va kesh koʻrgan tokenlarni sanaydi (`"soni"`).
# `"oyna"` yozuvi {term}`siljuvchi oyna attention` (ingl. *sliding-window attention*) uchun; uni
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
# `kesh_qosh` funksiyasining qolgan qismi shunday keshni yuritadi: har matnga eng katta uzunlikdagi
# bitta bufer ajratiladi.
#
# Yangi tokenlarning pozitsiyalari kesh koʻrgan tokenlar sonidan boshlanadi, maska esa yangi
# soʻrovlarga keshdagi hamma kalitni, oʻzini va oʻzidan oldingi yangi tokenlarni koʻrsatadi:
# ikkalasini `kesh_boshi` funksiyasi hisoblaydi.
# :::
#
# Avval ikki yoʻl bir xil natija berishini tekshiramiz. Model oʻqitilmagan: tenglik har qanday
# parametrlarda kauzal maskadan kelib chiqadi, vaqt esa faqat oʻlchamlarga bogʻliq. Har qadamda eng
# katta logitli tokenni olamiz — bu **{term}`ochkoʻz tanlash`** (ingl. *greedy decoding*).
# {term}`Boshlangʻich matn <boshlangʻich matn>` (ingl. *prompt*) — {glue:text}`kv_boshi` ta
# tasodifiy token; undan keyin {glue:text}`kv_N` ta yangi token yaratamiz.
#
# Ikkala yoʻlni `yarat` funksiyasi bajaradi. Keshsiz yoʻlda har qadamda butun matn modeldan oʻtadi.
# Kesh bilan esa birinchi qadamda modelga butun boshlangʻich matn kiradi va kesh toʻladi, keyingi
# qadamlarda faqat oxirgi tanlangan token kiradi.

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
# Ikkala yoʻl {glue:text}`kv_N` ta yangi tokenning hammasini aynan bir xil tanladi. Logitlarning eng
# katta farqi {glue:text}`kv_farq:.1e`. Bu ham yaxlitlash xatosi: kesh bilan matritsalar boshqa
# shaklda koʻpaytiriladi va qoʻshish tartibi biroz oʻzgaradi. Kesh hisobni
# qisqartiradi, natijani oʻzgartirmaydi.
#
# ### Bitta token qancha vaqt oladi
#
# Matnda *T* ta token bor, keyingi token logitlari kerak. Keshsiz yoʻlda model *T* ta tokenning
# hammasini qayta hisoblaydi. Kesh bilan esa keshda *T* − 1 ta token tayyor turadi va modelga faqat
# oxirgi token kiradi. Vaqt — `torch.utils.benchmark` bilan koʻp takrorning
# {term}`medianasi <mediana>`, bitta {term}`oqimda <oqim>`.

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
     izoh="Matnda T ta token boʻlganda keyingi token logitlarini"
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
# Natijalar {numref}`%s-jadvalda <kv_vaqt_jadval>` va {numref}`%s-rasmda <kv_kesh_vaqt>`
# keltirilgan. *T* = {glue:text}`kv_T_katta:.0f` da kesh bilan bitta yaratish qadami
# {glue:text}`kv_nisbat:.0f` marta tezroq: {glue:text}`kv_ms_keshsiz:.2f` ms oʻrniga
# {glue:text}`kv_ms_kesh:.2f` ms.
#
# Ikki chiziq *T* bilan turlicha oʻsadi. *T* = {glue:text}`kv_T_kichik:.0f` dan
# {glue:text}`kv_T_katta:.0f` gacha, yaʼni sakkiz marta oshganda, keshsiz qadamning vaqti
# {glue:text}`kv_osish_keshsiz:.0f` marta oʻsdi — *T* ning oʻzidan ham tez, chunki $T \times T$
# {term}`ballar <ball>` matritsasi *T*² bilan oʻsadi. Kesh bilan qadamning vaqti esa ancha kam
# oʻzgardi.
#
# Keshsiz qadam *T* ta pozitsiyaning har biri uchun kesh bilan qadamning ishini bajaradi, yaʼni
# *T* marta koʻproq hisob qiladi. Vaqt boʻyicha tezlashuv esa bundan ancha kichik boʻldi. Sabab — kesh
# bilan qadamdagi matritsalar juda kichik: vaqtning katta qismini har amalning oʻlchamga bogʻliq
# boʻlmagan doimiy narxi (Python va PyTorch chaqiruvlari) oladi.
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
# Keshning ham narxi bor: u xotirada turadi. Har qatlamda har bir token uchun bitta kalit va bitta
# {term}`qiymat` vektori saqlanadi. Har biri $n_{kv}$ ta boshda $d_{\text{bosh}}$ tadan son. Demak,
#
# $$
# \text{kesh hajmi} = 2 \cdot L \cdot T \cdot n_{kv} \cdot d_{\text{bosh}} \cdot b,
# $$
#
# bu yerda 2 — kalit va qiymat, *L* — qatlamlar soni, *T* — keshdagi tokenlar soni, $n_{kv}$ —
# kalit/qiymat boshlari soni, $d_{\text{bosh}}$ — bitta boshning oʻlchami, *b* — bitta sonning bayt
# hajmi (float32da 4, {term}`bfloat16da <bfloat16>` 2). Kesh *T* ga chiziqli oʻsadi.
#
# Katta modellarda xotirani eng koʻp egallaydigan qismlardan biri — kesh. Shuning uchun Llama 3 kabi
# modellar **{term}`guruhli soʻrov attention <guruhli soʻrov attention (GQA)>`** (ingl.
# *grouped-query attention*, GQA; {cite:alp}`ainslie2023`) ishlatadi. Unda bir guruhdagi bir
# nechta soʻrov boshi bitta kalit/qiymat boshini birgalikda ishlatadi. Keshda esa faqat
# kalit/qiymat boshlari saqlangani uchun kesh (soʻrov boshlari soni) / (kalit/qiymat boshlari
# soni) marta kichrayadi.
#
# Avval formulani yuqorida toʻldirilgan keshlardagi haqiqiy tenzorlar bilan tekshiramiz.

# %%
def kesh_bayt(L, T, n_kv, d_bosh, b):
    return 2 * L * T * n_kv * d_bosh * b  # formula


L_gpt, n_gpt = len(gpt.bloklar), gpt.bloklar[0].attn.boshlar
d_bosh_gpt = gpt.emb.embedding_dim // n_gpt
b_gpt = keshlar[0]["k"].element_size()  # float32: 4 bayt
T_kesh = keshlar[0]["k"].shape[2]  # (namuna, bosh, T, bosh oʻlchami)
formula_gpt = kesh_bayt(L_gpt, T_kesh, n_gpt, d_bosh_gpt, b_gpt)
haqiqiy_gpt = kesh_baytlari(keshlar)  # tenzorlar egallagan baytlar
print(f"{T_kesh} ta token, formula: {son(formula_gpt, 'd')} bayt")
print(f"keshlardagi tenzorlar: {son(haqiqiy_gpt, 'd')} bayt")

# %% [markdown]
# Formula va haqiqiy kesh mos keldi: {glue:text}`kv_kesh_T:d` ta token (boshlangʻich matn va
# yaratilgan tokenlar, oxirgisidan tashqari — u hali modeldan oʻtmagan)
# {glue:text}`kv_haqiqiy_bayt:d` bayt egallaydi.
#
# Endi toʻliq kontekstdagi hajmni ikki modelda hisoblaymiz ({numref}`kv_hajm_jadval`): `KichikGPT`
# va Llama 3 8B ({cite:alp}`llama3`; qiymatlar Meta eʼlon qilgan `config.json` dan).
# {term}`KiB <KiB, MiB, GiB>` — $2^{10}$, MiB — $2^{20}$, GiB — $2^{30}$ bayt.

# %%
# huggingface.co/meta-llama/Meta-Llama-3-8B: config.json
c = {"vocab_size": 128256, "hidden_size": 4096,
     "intermediate_size": 14336, "num_hidden_layers": 32,
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
           "kalit va qiymat boshlari",
           "bosh oʻlchami", "bitta son (bayt)"])
# soʻrov boshlaridan boshqa qatorlar — kesh_bayt tartibida
hajm.loc["kesh (MiB)"] = kesh_bayt(
    *hajm.drop("soʻrov boshlari").values) / 2**20
show(hajm.rename_axis("kattalik").reset_index(), nom="kv_hajm_jadval",
     izoh="KV kesh hajmi toʻliq kontekstda (T — kontekst oynasi)."
          " GQAsiz — Llama 3 8B, agar har soʻrov boshi"
          " oʻz kalit va qiymatini saqlasa.")
token_kib = kesh_bayt(L_l, 1, n_kv_l, d_bosh_l, b_l) / 2**10  # Llama

# %% tags=["remove-cell"]
mib = hajm.loc["kesh (MiB)"].tolist()
for nom, qiymat in dict(
    kv_kesh_T=T_kesh, kv_formula_bayt=formula_gpt, kv_gpt_mib=mib[0],
    kv_haqiqiy_bayt=haqiqiy_gpt, kv_T_max=T_gpt, kv_llama_q=n_q_l,
    kv_llama_gqa_marta=n_q_l // n_kv_l,
    kv_llama_token_kib=token_kib, kv_llama_gib=mib[1] / 2**10,
    kv_llama_mha_gib=mib[2] / 2**10,
).items():
    glue(nom, qiymat, display=False)

# %% [markdown]
# `KichikGPT` ning {glue:text}`kv_T_max:d` tokenli keshi atigi {glue:text}`kv_gpt_mib:g` MiB.
# Llama 3 8Bda esa bitta tokenning keshi {glue:text}`kv_llama_token_kib:g` KiB, toʻliq kontekstniki —
# {glue:text}`kv_llama_gib:g` GiB. Bu bitta matn uchun: model bir vaqtda bir nechta foydalanuvchiga
# javob yozsa, har biriga oʻz keshi kerak. GQAsiz kesh {glue:text}`kv_llama_mha_gib:g` GiB boʻlardi:
# GQA uni {glue:text}`kv_llama_gqa_marta:d` marta kichraytiradi.
#
# Keshni kichraytirishning boshqa yoʻli ham bor. DeepSeek-V2 ({cite:alp}`deepseekv2`)
# **{term}`yashirin vektorli attention <yashirin vektorli attention (MLA)>`** (ingl. *multi-head
# latent attention*, MLA) ishlatadi. Unda har token uchun kalit va qiymatlar emas, ulardan siqilgan
# bitta qisqa vektor keshlanadi. Kalit va qiymatlar shu vektordan proyeksiya bilan olinadi.
# {numref}`mla_jadval` bitta tokenning keshini DeepSeek-V2 oʻlchamlarida toʻrt xil attention bilan
# hisoblaydi: {term}`MHA` (oddiy koʻp boshli attention, har soʻrov boshining oʻz kalit/qiymat boshi
# bor), GQA, {term}`MQA <koʻp soʻrovli attention (MQA)>` (hamma soʻrov boshlari uchun bitta
# kalit/qiymat boshi) va MLA.

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
mla = pd.DataFrame({"qatlamda (son)": sonlar})
mla["bitta token (KiB)"] = mla["qatlamda (son)"] * L_ds * 2 / 2**10
# MLA keshi nechta kalit/qiymat boshiga teng
mla["kalit/qiymat boshlari"] = mla["qatlamda (son)"] / (2 * d_ds)
show(mla.rename_axis("attention").reset_index(), nom="mla_jadval",
     izoh="Bitta tokenning KV keshi DeepSeek-V2 oʻlchamlarida"
          " (60 qatlam, bosh oʻlchami 128, bfloat16).")

# %% tags=["remove-cell"]
yopishtir(mla_dc=ds["kv_lora_rank"], mla_dr=ds["qk_rope_head_dim"], mla_kib=float(mla.loc["MLA", "bitta token (KiB)"]),
          mla_mha_marta=float(sonlar["MHA"] / sonlar["MLA"]), mla_guruh=float(mla.loc["MLA", "kalit/qiymat boshlari"]))

# %% [markdown]
# MLA har qatlamda {glue:text}`mla_dc:d` sonli siqilgan vektorni va {glue:text}`mla_dr:d` sonli
# alohida kalitni saqlaydi: bitta token {glue:text}`mla_kib:g` KiB egallaydi. Bu {term}`MHAdan
# <MHA>` {glue:text}`mla_mha_marta:.0f` marta kam va atigi {glue:text}`mla_guruh:g` guruhli GQA
# keshiga teng ({numref}`mla_jadval`). Kalit va qiymatlarni har qadamda qayta tiklamaslik uchun
# kengaytiruvchi proyeksiya (ingl. *up-projection*) matritsalari soʻrov va chiqish matritsalariga
# birlashtiriladi: ballar
# bevosita siqilgan vektorlar bilan hisoblanadi. Buning evaziga har bosh MHAdagidan koʻproq hisob
# qiladi: kesh kichrayadi, hisob esa koʻpayadi. {term}`RoPE` burishi esa pozitsiyaga bogʻliq va bu
# birlashtirishni buzardi. Shuning uchun pozitsiya alohida, siqilmagan kichik kalit orqali
# beriladi: jadvaldagi {glue:text}`mla_dr:d` son shu.
#
# ### Katta modelda bitta token: baytlar va oʻtkazuvchanlik
#
# Kesh bilan bitta yaratish qadamida har bir parametr xotiradan bir marta oʻqiladi va har matn
# uchun bitta koʻpaytirish-qoʻshishda ({term}`MAC`) ishlatiladi. Keshdagi kalit va qiymatlar ham
# bir marta oʻqiladi. GPU esa sonlarni xotiradan olib kelishdan ancha tez koʻpaytiradi. Shuning
# uchun qadamning vaqtini koʻpincha hisob emas, **{term}`xotira oʻtkazuvchanligi`** (ingl.
# *memory bandwidth*) belgilaydi:
#
# $$
# t_{\text{qadam}} \ge \frac{\text{oʻqiladigan baytlar}}{\text{oʻtkazuvchanlik}},
# $$
#
# bu yerda baytlar — parametrlar va kesh baytlari. Bu — quyi chegara: haqiqiy qadam undan tez
# boʻlmaydi.
#
# Buni Llama 3 8B uchun hisoblaymiz. GPU haqida ikki faraz qilamiz (A100 kabi maʼlumotlar markazi
# GPUlari darajasida): GPU xotiradan soniyasiga {glue:text}`gpu_tbs:.0f` TB oʻqiydi va soniyasiga
# {glue:text}`gpu_tmac:.0f`·10¹² MAC bajaradi. Oʻtkazuvchanlik oʻnlik birliklarda beriladi, shuning
# uchun bu boʻlimda baytlar ham shunday: 1 GB = 10⁹ bayt, 1 TB = 10¹² bayt. *B* — bir vaqtda
# yoziladigan matnlar soni: parametrlar hamma matnlar uchun bir marta oʻqiladi, keshni esa har matn
# oʻzinikini oʻqiydi.

# %%
ff, V = c["intermediate_size"], c["vocab_size"]
d_kv = n_kv_l * d_bosh_l  # kalit/qiymat qatlamlarining chiqishi
# qatlam: q va o (d·d), k va v (d·d_kv), SwiGLU (3 ta d·ff
# matritsa), 2 ta RMSNorm (d)
qatlam = 2 * d_l * d_l + 2 * d_l * d_kv + 3 * d_l * ff + 2 * d_l
# + oxirgi RMSNorm, embedding va chiqish qatlami (V·d dan)
P = L_l * qatlam + d_l + 2 * V * d_l
P_oqiladi = P - V * d_l  # embedding jadvalidan faqat bitta qator
print(f"parametrlar: {son(P / 1e9, '.2f')} mlrd")

OTKAZ, HISOB = 2e12, 150e12  # faraz: bayt/s va MAC/s


def token_chegarasi(B, T, n_kv=n_kv_l):
    # B ta matn, har birining keshida T ta token
    kesh = B * kesh_bayt(L_l, T, n_kv, d_bosh_l, b_l)
    bayt = P_oqiladi * b_l + kesh
    # har parametr har matn uchun bitta MAC; attention har
    # qatlamda 2·T·d MAC (ballar va vaznli oʻrtacha)
    mac = B * (P_oqiladi + 2 * L_l * T * d_l)
    # jadval ustunlari: GB, GB; chegaralar, ms; token/s (eng koʻpi)
    return (B, T, kesh / 1e9, bayt / 1e9, bayt / OTKAZ * 1e3,
            mac / HISOB * 1e3, round(B * OTKAZ / bayt))


holatlar = [(1, 1024), (1, 8192), (16, 8192)]  # (B, T)
chegara = pd.DataFrame(
    [token_chegarasi(B, T) for B, T in holatlar],
    columns=["B", "T", "kesh (GB)", "oʻqiladigan (GB)", "oʻqish (ms)",
             "hisob (ms)", "token/s"])
show(chegara.round({"kesh (GB)": 2, "oʻqiladigan (GB)": 2,
                   "oʻqish (ms)": 2, "hisob (ms)": 3}),
     nom="chegara_jadval",
     izoh="Llama 3 8B (bfloat16), kesh bilan bitta qadam: oʻqiladigan"
          " baytlar, ularni oʻqish vaqti (xotira chegarasi), hisob"
          " vaqti (hisob chegarasi) va soniyasiga yoziladigan tokenlar"
          " sonining yuqori chegarasi (GB — 10⁹ bayt).")

# %% tags=["remove-input"]
rasm, b = plt.subplots(figsize=(5.6, 2.6))
vazn = chegara["oʻqiladigan (GB)"] - chegara["kesh (GB)"]
nom_ = [f"B = {B}, T = {T}" for B, T in holatlar]
b.barh(nom_, vazn, label="parametrlar")
b.barh(nom_, chegara["kesh (GB)"], left=vazn, label="KV kesh")
b.set_xlabel("bitta qadamda oʻqiladigan baytlar (GB)")
b.invert_yaxis()
b.legend()
plt.tight_layout()
fig("llama_baytlar.png", caption="Llama 3 8B, kesh bilan bitta qadam:"
    " oʻqiladigan baytlar — parametrlar va KV kesh.")

# %% tags=["remove-cell"]
bitta, paket = chegara.iloc[0], chegara.iloc[2]
for nom, qiymat in dict(
    gpu_tbs=OTKAZ / 1e12, gpu_tmac=HISOB / 1e12, ll_param=P / 1e9,
    ll_vazn_gb=P_oqiladi * b_l / 1e9, ll_tok=bitta["token/s"],
    ll_ms=bitta["oʻqish (ms)"], ll_hisob_ms=bitta["hisob (ms)"],
    ll_marta=bitta["oʻqish (ms)"] / bitta["hisob (ms)"],
    ll_B=paket["B"], ll_B_kesh=paket["kesh (GB)"], ll_B_tok=paket[
        "token/s"], ll_B_ms=paket["oʻqish (ms)"],
    ll_B_marta=paket["oʻqish (ms)"] / paket["hisob (ms)"]).items():
    glue(nom, float(qiymat), display=False)

# %% [markdown]
# Llama 3 8Bda {glue:text}`ll_param:.2f` mlrd parametr bor; bitta qadam ulardan
# {glue:text}`ll_vazn_gb:.1f` GB oʻqiydi (embedding jadvalidan faqat bitta qatorni), qolgan
# baytlar — kesh ({numref}`chegara_jadval`, {numref}`llama_baytlar`). Bitta matnda (*B* = 1, *T* = 1024) xotira
# chegarasi {glue:text}`ll_ms:.2f` ms, hisob uchun esa {glue:text}`ll_hisob_ms:.2f` ms yetardi:
# hisob xotiradan {glue:text}`ll_marta:.0f` marta tezroq tugaydi. Demak, GPU koʻp vaqt sonlarni kutadi
# va soniyasiga {glue:text}`ll_tok:.0f` tadan koʻp token yoza olmaydi.
#
# {glue:text}`ll_B:.0f` ta matnni birga yozsak, parametrlar bir marta oʻqiladi va
# {glue:text}`ll_B:.0f` ta tokenga xizmat qiladi: soniyasiga {glue:text}`ll_B_tok:.0f` tagacha
# token. Endi kesh ({glue:text}`ll_B_kesh:.2f` GB) parametrlardan ham koʻp bayt oladi, qadam
# {glue:text}`ll_B_ms:.2f` ms, hisob esa baribir xotiradan {glue:text}`ll_B_marta:.0f` marta tezroq.
# Shuning uchun katta modellarni tez ishlatish usullarining koʻpi token uchun oʻqiladigan baytni
# kamaytiradi: matnlarni birga yozish, GQA, 8 yoki 4 bitli sonlar.
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
# Yechim kodi quyida. `torch.nn.RMSNorm` dan eng katta farq {glue:text}`t2_farq:.1e`, yaʼni
# yaxlitlash xatosi. Har vektordan oʻrtachasi ayirilgan kirishda RMSNorm va LayerNorm farqi
# {glue:text}`t2_ln_farq:.1e`: oʻrtacha 0 boʻlsa, oʻrtacha kvadrat {term}`dispersiyaga <dispersiya>`
# teng, ikkalasi bir xil hisob. RMSNorm oʻrtachani hisoblamaydi va siljish parametri yoʻq: ishi
# kamroq.
# :::
#
# **3-mashq (GQAsiz Llama).** Llama 3 8Bda GQA boʻlmasa ($n_{kv}$ = {glue:text}`kv_llama_q:d`),
# *B* = {glue:text}`ll_B:.0f` va *T* = 8192 boʻlganda bitta qadam necha GB oʻqiydi va xotira chegarasi
# necha ms boʻladi? Avval qogʻozda hisoblang, soʻng `token_chegarasi` ni `n_kv` bilan chaqiring.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Kesh {glue:text}`kv_llama_gqa_marta:d` marta kattaroq: {glue:text}`t3_kesh:.1f` GB. Qadam
# {glue:text}`t3_gb:.1f` GB oʻqiydi, xotira chegarasi {glue:text}`t3_ms:.1f` ms — GQA bilan qadamdan
# {glue:text}`t3_marta:.1f` marta sekinroq. Parametrlar bilan birga bunday kesh «80 GB» deb sotiladigan GPU
# xotirasining (aslida 80 GiB) deyarli hammasini egallaydi: oraliq natijalar (aktivatsiyalar) uchun joy qolmaydi.
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

# 3-mashq yechimi: GQAsiz, B = 16, T = 8192
m3 = token_chegarasi(16, 8192, n_kv=n_q_l)  # (B, T, kesh, GB, ms, …)
print(f"{son(m3[3], '.1f')} GB, {son(m3[4], '.1f')} ms")

# %% tags=["remove-cell"]
for nom, qiymat in dict(
    kv_mashq_bosh8_mib=mashq_mib["boshlar"], t2_farq=t2_farq,
    kv_mashq_qatlam4_mib=mashq_mib["qatlamlar"], t2_ln_farq=t2_ln_farq,
    t3_kesh=m3[2], t3_gb=m3[3], t3_ms=m3[4],
    t3_marta=m3[4] / paket["oʻqish (ms)"]).items():
    glue(nom, float(qiymat), display=False)
