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
# # Attention oʻzbekcha yozadi
#
# Oldingi darsda `KichikGPT` tokenlarni yaratdi, lekin u oʻqitilmagan edi: tokenlari tasodifiy.
# Bu darsda uni oʻzbekcha matnda oʻqitamiz va u yozgan matnni oʻqiymiz. Avval matnni
# {term}`tokenlarga <token>` boʻlamiz: harflarga va {term}`BPE` boʻlaklariga. Soʻng modelni
# oʻqitamiz va uning {term}`yoʻqotishini <yoʻqotish funksiyasi>` ikki oddiy hisob bilan solishtiramiz. Oxirida
# matn yaratishning uch usulini — {term}`ochkoʻz tanlash`, {term}`harorat` va {term}`top-k` — sinaymiz
# va {term}`KV keshni <KV kesh>` oʻqitilgan modelda oʻlchaymiz.
#
# Model kichik va protsessorda bir necha yuz qadam oʻqitiladi. Shuning uchun bu dars katta til
# modeli nimani oʻrganishini emas, shuncha qadam nimani oʻrgatishini koʻrsatadi.

# %%
import pandas as pd
import matplotlib.pyplot as plt
import torch

from chapter_code.kitob import show, fig
from chapter_code.bichim import son
from chapter_code.modellar import KichikGPT, parametrlar
from chapter_code.oqitish import mediana_ms, parallel, protokoli, baho
from chapter_code import til

# %% [markdown]
# ## Matn
#
# Modelni shu bobning oʻz matnida oʻqitamiz: darslar, bob haqidagi sahifa va atamalar. Kod,
# jadvallar, formulalar va hisoblangan son turgan gaplar olib tashlangan, qolgani
# `chapter_code/korpus.txt` faylida bir marta yozib qoʻyilgan. Darslar keyin tahrir qilinsa ham,
# model oʻsha matnda oʻqiydi. Fayl `tools/korpus.py` buyrugʻi bilan qayta yoziladi. Har oʻninchi
# paragraf {term}`tekshirish matniga <tekshirish matni>` ajratiladi: model uni oʻqitishda koʻrmaydi,
# biz esa modelni shu matnda baholaymiz.

# %%
matn = til.korpus()
oqish, tekshir = til.ajrat(matn)  # har 10-paragraf — tekshirishga
print(f"belgilar: {son(len(matn))}, soʻzlar: {son(len(til.sozlar(matn)))}")
print(f"oʻqitish: {son(len(oqish))} belgi, tekshirish: {son(len(tekshir))} belgi")
print(tekshir[:240])

# %% [markdown]
# ## Tokenlar
#
# Model matnni emas, tokenlar ketma-ketligini oʻqiydi: har token {term}`lugʻatdagi <lugʻat>` bir
# indeks. Eng oddiy token — harf. Oʻzbek alifbosida *oʻ* va *gʻ* bitta harf, shuning uchun ularni
# bitta token qilamiz; *ʼ* (tutuq belgisi) ham alohida harf.

# %%
print(til.harflar("Oʻgʻil maʼlumot oldi"))

# %% [markdown]
# Harflar bilan har soʻz koʻp token boʻladi, model esa bitta soʻzni koʻp qadamda yozishi kerak.
# **{term}`BPE`** (ingl. *byte pair encoding*) tokenlarni matnning oʻzidan yigʻadi. Harflardan
# boshlanadi va har qadamda matnda eng koʻp uchraydigan qoʻshni juftni bitta yangi tokenga
# birlashtiradi. Juftlar faqat soʻz ichida sanaladi; soʻz oldidagi boʻshliq soʻzga qoʻshiladi,
# shuning uchun `" kesh"` va `"kesh"` — boshqa-boshqa tokenlar. Birlashmalarni faqat oʻqitish
# matnida oʻrganamiz. Birinchi birlashmalar {numref}`bpe_jadval` da.

# %%
BIRLASHMALAR = 500
birlashmalar = til.bpe_birlashmalari(BIRLASHMALAR)
harf_tok = til.tokenlovchi("harf")
bpe_tok = til.tokenlovchi("bpe", BIRLASHMALAR)
birinchi = pd.DataFrame(
    [(i + 1, repr(a), repr(b), repr(a + b)) for i, (a, b) in enumerate(birlashmalar[:12])],
    columns=["qadam", "chapdagi", "oʻngdagi", "yangi token"])
show(birinchi, nom="bpe_jadval", izoh="BPE ning birinchi 12 ta birlashmasi.")

# %% [markdown]
# Birinchi birlashmalar oʻzbek yozuvini oʻzi topadi: *s* va *h* juftidan *sh*, *c* va *h* dan
# *ch* hosil boʻladi, *-lar* esa ikki qadamda yigʻiladi. {glue:text}`birlashma_soni` ta
# birlashmadan keyin lugʻatda {glue:text}`bpe_lugat` ta token bor, harflar lugʻatida esa
# {glue:text}`harf_lugat` ta. Tekshirish matnini ikkala usulda tokenlarga boʻlamiz
# ({numref}`tokenlar_jadval`).

# %%
gap = "Attention oʻzbekcha yozadi."
qatorlar = []
for nom, tok in [("harflar", harf_tok), ("BPE", bpe_tok)]:
    n_tok = len(tok.kodla(tekshir))
    qatorlar.append({"usul": nom, "lugʻat": len(tok),
                     "soʻzga token": n_tok / len(til.sozlar(tekshir)),
                     "misol": " ".join(t.replace(" ", "·") for t in tok.tokenlar(gap))})
tokenlar = pd.DataFrame(qatorlar)
show(tokenlar.round(2), nom="tokenlar_jadval",
     izoh="Tekshirish matnida bitta soʻzga oʻrtacha nechta token toʻgʻri keladi.")

# %% [markdown]
# Misolda tokenlar boʻshliq bilan ajratilgan, · esa matndagi boʻshliq. BPE bilan bitta soʻz
# oʻrtacha {glue:text}`bpe_soz:.1f` ta token, harflar bilan {glue:text}`harf_soz:.1f` ta (oldidagi
# boʻshliq bilan). Lekin lugʻat kattalashsa, model ham
# kattalashadi. Modelning ikki qatlami lugʻatga bogʻliq: kirishdagi {term}`embedding` har token
# uchun *d* ta son saqlaydi, chiqish qatlami esa har token uchun *d* ta vazn va bitta siljishdan
# iborat. Qolgan qatlamlar lugʻatga bogʻliq emas ({numref}`lugat_jadval`).

# %%
qatorlar = []
for nom, V in [("harflar", len(harf_tok)), ("BPE", len(bpe_tok)),
               ("GPT-2", 50257), ("Llama 3", 128256)]:
    m_ = KichikGPT(V, d=64, boshlar=4, qatlamlar=2, T_max=64)
    lugatga = parametrlar(m_.emb) + parametrlar(m_.chiqish)
    qatorlar.append({"lugʻat": nom, "tokenlar": V, "embedding va chiqish": lugatga,
                     "qolgan qatlamlar": parametrlar(m_) - lugatga,
                     "lugʻat ulushi (%)": 100 * lugatga / parametrlar(m_)})
lugat = pd.DataFrame(qatorlar)
show(lugat.round(1), nom="lugat_jadval",
     izoh="d = 64 li ikki qatlamli KichikGPT parametrlari lugʻat kattaligiga qarab.")

# %% [markdown]
# Bizning harflar lugʻatida bu ikki qatlam modelning {glue:text}`harf_ulush:.0f` % ini, BPE
# lugʻatida esa {glue:text}`bpe_ulush:.0f` % ini egallaydi. GPT-2 lugʻati bilan ular modelning
# deyarli hammasi boʻlardi. Katta modellarda *d* minglab boʻladi, shuning uchun u yerda
# lugʻatning ulushi kichikroq.
#
# ## Oʻqitish
#
# Ikkita bir xil `KichikGPT` ni oʻqitamiz: biri harflarda, biri BPE tokenlarida. Har qadamda model
# oʻqitish matnidan tasodifiy olingan {glue:text}`p_batch` ta boʻlakni koʻradi (har biri
# {glue:text}`p_T` ta token) va har pozitsiyada keyingi tokenni bashorat qiladi. Qadamlar soni
# vaqt bilan emas, son bilan belgilangan: {glue:text}`p_qadamlar` ta, shuning uchun har kompyuterda
# bir xil oʻqitish boʻladi. Optimizator — AdamW, {term}`oʻrganish tezligi` kosinus boʻyicha nolga
# tushadi.
#
# Ikkala modelni bir xil oʻlchov bilan solishtirish kerak. Yoʻqotish bir tokenga hisoblanadi, BPE
# tokeni esa bir necha harf. Shuning uchun tekshirish matnidagi jami yoʻqotishni harflar soniga
# boʻlamiz: **bir harfga yoʻqotish** (natda: natural logarifm bilan). Uni ikki oddiy hisob
# bilan taqqoslaymiz, ikkalasi ham oʻqitish matnidan sanaladi:
#
# - **unigram** — har harfni oʻz chastotasi bilan bashorat qiladi;
# - **bigram** — oldingi harfga qarab keyingisining chastotasi bilan.

# %%
protokol = protokoli(til.til_oqit)
oqitishlar = parallel(til.til_oqit, [("harf", 0), ("bpe", BIRLASHMALAR)])
(egri_h, model_h), (egri_b, model_b) = oqitishlar
unigram, bigram = til.unigram_bigram(oqish, tekshir)

fig_, ax = plt.subplots(figsize=(6.4, 3.6))
for nom, egri in [("harflar", egri_h), ("BPE", egri_b)]:
    ax.plot(*zip(*egri), marker="o", markersize=3, label=nom)
ax.axhline(unigram, color="grey", linestyle=":", label="unigram")
ax.axhline(bigram, color="black", linestyle="--", label="bigram")
ax.set_xlabel("oʻqitish qadami")
ax.set_ylabel("bir harfga yoʻqotish (nat)")
ax.set_ylim(1, 4)
ax.legend()
fig("til_egri.png", caption="Tekshirish matnidagi yoʻqotish oʻqitish davomida:"
    " harflarda va BPE tokenlarida oʻqitilgan model, unigram va bigram bilan.")

# %% [markdown]
# Harflarda oʻqitilgan model {glue:text}`p_qadamlar` qadamdan keyin bir harfga
# {glue:text}`harf_oxirgi:.2f` nat yoʻqotadi: bigramdan ({glue:text}`bigram:.2f`) ancha kam,
# demak u oldingi bir harfdan uzoqroqqa qaraydi. Bu yoʻqotishning eksponentasi —
# {term}`perpleksiya`: {glue:text}`harf_perp:.1f`. Model har harfda goʻyo shuncha teng ehtimolli
# variant orasidan tanlaydi; unigram uchun bu son {glue:text}`unigram_perp:.1f`.
#
# BPE modeli boshidanoq pastroqda turadi: bitta token bir necha harfni birdaniga bashorat qiladi,
# shuning uchun tasodifiy model ham bir harfga kamroq yoʻqotadi. Oxirida u bir harfga
# {glue:text}`bpe_oxirgi:.2f` nat yoʻqotadi — harflar modelidan kam (perpleksiyasi
# {glue:text}`bpe_perp:.1f`). Lekin egri chiziqda boshqa narsa ham koʻrinadi: yoʻqotish
# {glue:text}`bpe_eng_qadam` -qadamda eng kichik ({glue:text}`bpe_eng:.2f`), keyin esa oʻsadi. Model
# oʻqitish matnini yod ola boshlaydi ({term}`ortiqcha moslashish`). Sababi — matn kichik. BPE bilan
# oʻqitish matni {glue:text}`bpe_oqish_tok` ta token, bir qadam esa {glue:text}`qadam_tok` ta token
# koʻradi, shuning uchun {glue:text}`p_qadamlar` qadamda model matnni {glue:text}`bpe_davr:.0f` marta
# oʻqib chiqadi, harflar bilan esa {glue:text}`harf_davr:.0f` marta. Shunga qaramay, shu qadamlar
# sonida BPE modeli koʻrmagan matnni yaxshiroq bashorat qiladi, shuning uchun namunalarni undan
# olamiz.

# %% [markdown]
# ## Namuna olish
#
# Model har qadamda lugʻatdagi har token uchun bitta logit beradi. Keyingi tokenni ulardan
# tanlashning uch usulini sinaymiz:
#
# - **ochkoʻz tanlash** — eng katta logitli token; bir xil boshlanishdan doim bir xil matn chiqadi;
# - **harorat** *τ* — tokenni $\operatorname{softmax}(\text{logit}/\tau)$ ehtimollari bilan
#   tasodifiy tanlash: *τ* < 1 ehtimollarni eng kattasiga yigʻadi, *τ* = 1 modelning oʻz
#   ehtimollarini oladi, *τ* > 1 esa ularni tekislaydi;
# - **top-k** — faqat eng ehtimolli *k* ta token orasidan tanlash.
#
# Har usulda {glue:text}`namuna_soni` ta matn yaratamiz (har biri {glue:text}`namuna_n` ta token),
# har biri tekshirish matnidagi boshqa paragrafning birinchi harfidan boshlanadi. Keyin yaratilgan soʻzlarning qancha qismi korpusda
# uchrashini sanaymiz ({numref}`namuna_jadval`).

# %%
sozlar_toplami = set(til.sozlar(matn))  # korpusdagi hamma soʻzlar
NAMUNA_N = 120  # har namunada nechta token
usullar = {"ochkoʻz": dict(), "τ = 0,7": dict(harorat=0.7),
           "τ = 1,5": dict(harorat=1.5), "top-k, k = 5, τ = 1,5": dict(harorat=1.5, top_k=5)}
qatorlar, matnlar = [], {}
for nom, sozlama in usullar.items():
    matnlar[nom] = til.namunalar("bpe", BIRLASHMALAR, n=NAMUNA_N, **sozlama)
    ulush, soni = til.soz_ulushi(matnlar[nom], sozlar_toplami)
    sozlar_ = [s_ for m_ in matnlar[nom] for s_ in til.sozlar(m_)]
    qatorlar.append({"usul": nom, "soʻzlar": soni, "korpusdagi soʻzlar (%)": 100 * ulush,
                     "har xil soʻzlar (%)": 100 * len(set(sozlar_)) / len(sozlar_)})
namuna = pd.DataFrame(qatorlar)
uzunlik = til.uzunlik_boyicha(matnlar["τ = 0,7"], sozlar_toplami)
kop = pd.Series([s_ for m_ in matnlar["τ = 0,7"] for s_ in til.sozlar(m_)
                 if len(til.harflar(s_)) > 3]).value_counts()
show(namuna.round(1), nom="namuna_jadval",
     izoh="BPE modeli yozgan soʻzlarning qancha qismi korpusda bor va qanchasi har xil.")
for nom, m_ in matnlar.items():
    print(f"{nom}:\n  {m_[1][:160]!r}\n")

# %% [markdown]
# Ochkoʻz tanlashda soʻzlarning {glue:text}`och_ulush:.0f` % i korpusda bor, lekin matnlar bir-biriga
# oʻxshaydi: har biri boshqa harfdan boshlansa ham, ular bir xil iboralarga tushib qoladi va har xil
# soʻzlar atigi {glue:text}`och_xil:.0f` %. Tasodifiy tanlashda matnlar xilma-xil
# ({glue:text}`t07_xil:.0f` %), harorat oshsa esa haqiqiy soʻzlar kamayadi: *τ* = 0,7 da
# {glue:text}`t07_ulush:.0f` %, *τ* = 1,5 da {glue:text}`t15_ulush:.0f` %. Top-k shu haroratda ehtimoli
# kichik tokenlarni kesadi va ulushni {glue:text}`topk_ulush:.0f` % ga qaytaradi.
#
# Model nimani oʻrgandi? *τ* = 0,7 da yozgan qisqa soʻzlarining (1–3 harf)
# {glue:text}`qisqa_ulush:.0f` % i korpusda bor, 4–6 harflilarining {glue:text}`orta_ulush:.0f` % i,
# 7 va undan koʻp harflilarining esa atigi {glue:text}`uzun_ulush:.0f` % i. U eng koʻp yozgan uch
# harfdan uzun soʻzlar: {glue:text}`kop_sozlar`. Demak, model harflar birikmalarini va koʻp uchraydigan qisqa
# soʻzlarni oʻrgangan, uzun soʻzlarni esa koʻpincha oʻzi toʻqiydi; gaplarda esa maʼno yoʻq. Bir necha
# yuz qadam va oltmish ming belgili matn shunga yetadi.
#
# ## KV kesh oʻqitilgan modelda
#
# Oldingi darsda KV kesh oʻqitilmagan modelda natijani oʻzgartirmagan edi. Oʻqitilgan modelda ham
# shunday boʻlishi kerak: bir xil seed bilan kesh bilan va keshsiz harorat 0,7 da
# {glue:text}`kesh_n` ta token yaratamiz.

# %%
boshi = til.boshlanishlar(bpe_tok, 1)
kesh_n = protokol["T"] - 1  # kesh bilan matn T tokendan oshmaydi
a = til.yarat(model_b, boshi, kesh_n, harorat=0.7, seed=3)
b = til.yarat(model_b, boshi, kesh_n, harorat=0.7, seed=3, kesh=True)
bir_xil = torch.equal(a, b)
ms = {kesh: mediana_ms("yarat(m, b, n, harorat=0.7, kesh=k)", yarat=til.yarat, m=model_b,
                       b=boshi, n=kesh_n, k=kesh) / kesh_n for kesh in (False, True)}
print("bir xil tokenlar:", bir_xil)
print(repr(bpe_tok.dekodla(b[0])))
print(f"bir token: keshsiz {son(ms[False], '.2f')} ms, kesh bilan {son(ms[True], '.2f')} ms")

# %% [markdown]
# Tokenlar bir xil. Vaqtda esa katta yutuq yoʻq: kesh bilan bitta token
# {glue:text}`kesh_ms:.2f` ms, keshsiz {glue:text}`keshsiz_ms:.2f` ms. Matn atigi {glue:text}`kesh_n` ta
# token, model esa kichik: keshsiz ham har qadamda hisoblanadigan narsa oz. Kesh uzun matnda yutadi
# ({doc}`«Transformer bloki va KV kesh» <transformer>` darsida *T* oʻsgan sari farq ham oʻsgan edi).
#
# ## Mashqlar
#
# **1-mashq (top-p).** Top-p (ingl. *nucleus sampling*) usulida tokenlar ehtimoli kamayish
# tartibida olinadi va yigʻindisi *p* ga yetguncha qoʻshib boriladi; tanlov shu toʻplamdan.
# `til.keyingi` kabi `tanlash(logit, harorat, top_k, tasodif)` funksiyasini yozing (`top_k`
# oʻrnida *p* ni bering) va *τ* = 1,5, *p* = 0,9 da korpusdagi soʻzlar ulushini
# {numref}`namuna_jadval` dagi usullar bilan solishtiring.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Yechim kodi quyida. *p* = 0,9 da soʻzlarning {glue:text}`topp_ulush:.0f` % i korpusda bor — top-k
# dagidan kam. *τ* = 1,5 taqsimotni tekislaydi, shuning uchun ehtimollar yigʻindisi 0,9 ga yetguncha
# toʻplamga koʻp token kiradi; *k* = 5 esa har qadamda beshtadan ortigʻini qoldirmaydi. Top-p
# nechta tokenni qoldirishni har qadamda taqsimotning oʻziga qarab tanlaydi: taqsimot oʻtkir
# boʻlsa — oz, tekis boʻlsa — koʻp.
# :::
#
# **2-mashq (birlashmalar soni).** BPE ni 100 va 2000 ta birlashma bilan oʻqiting
# (`til.tokenlovchi("bpe", n)`). Har birida tekshirish matnidagi bitta soʻzga nechta token toʻgʻri
# keladi va lugʻat `KichikGPT` ning necha foizini egallaydi ({numref}`lugat_jadval` dagidek)? Avval
# taxmin qiling: birlashmalar 20 barobar koʻpaysa, soʻzga token ham 20 barobar kamayadimi?
#
# :::{admonition} Yechim
# :class: dropdown
#
# Yechim kodi quyida. 100 ta birlashma bilan soʻzga {glue:text}`m100_soz:.1f` ta token, lugʻat ulushi
# {glue:text}`m100_ulush:.0f` %; 2000 ta bilan {glue:text}`m2000_soz:.1f` ta token va
# {glue:text}`m2000_ulush:.0f` %. Soʻzga token 20 barobar emas, {glue:text}`m_marta:.1f` marta kamayadi:
# birinchi birlashmalar koʻp uchraydigan juftlarni oladi va matnni tez qisqartiradi, keyingilari esa
# kamdan-kam uchraydigan soʻzlarni birlashtiradi. Lugʻat ulushi esa tez oʻsadi.
# :::

# %% tags=["hide-cell"]
# 1-mashq yechimi: top-p (top_k oʻrnida p)
def top_p(logit, harorat, p, tasodif):
    ehtimol = (logit / harorat).softmax(-1)
    saralangan, tartib = ehtimol.sort(-1, descending=True)
    # yigʻindisi p ga yetgunicha: oldingilari yigʻindisi p dan kichik boʻlgan tokenlar
    tashla = saralangan.cumsum(-1) - saralangan >= p
    saralangan = saralangan.masked_fill(tashla, 0)
    tanlov = torch.multinomial(saralangan, 1, generator=tasodif)
    return tartib.gather(-1, tanlov)[..., 0]


def namuna_ulushi(model, tanlash, harorat, qoshimcha):
    idx = til.yarat(model, til.boshlanishlar(bpe_tok), NAMUNA_N, harorat=harorat,
                    top_k=qoshimcha, tanlash=tanlash)
    return til.soz_ulushi([bpe_tok.dekodla(q) for q in idx], sozlar_toplami)[0]


topp_ulush = baho(namuna_ulushi, model_b, top_p, 1.5, 0.9)
print(f"top-p, p = 0,9: {son(100 * topp_ulush, '.0f')} %")


# 2-mashq yechimi: 100 va 2000 ta birlashma
mashq2 = {}
for n in (100, 2000):
    tok_ = til.tokenlovchi("bpe", n)
    m_ = KichikGPT(len(tok_), d=64, boshlar=4, qatlamlar=2, T_max=64)
    ulush = (parametrlar(m_.emb) + parametrlar(m_.chiqish)) / parametrlar(m_)
    mashq2[n] = (len(tok_.kodla(tekshir)) / len(til.sozlar(tekshir)), 100 * ulush)
    print(f"{n} ta birlashma: soʻzga {son(mashq2[n][0], '.1f')} token,"
          f" lugʻat ulushi {son(mashq2[n][1], '.0f')} %")

# %% tags=["remove-cell"]
import math

from myst_nb import glue  # qiymatlarni matnga beradi

oxirgi = {n: e[-1][1] for n, e in (("harf", egri_h), ("bpe", egri_b))}
bpe_eng_qadam, bpe_eng = min(egri_b, key=lambda qy: qy[1])
bpe_oqish_tok, harf_oqish_tok = len(bpe_tok.kodla(oqish)), len(harf_tok.kodla(oqish))
qadam_tok = protokol["batch"] * protokol["T"]
for nom, qiymat in dict(
        birlashma_soni=BIRLASHMALAR, bpe_lugat=len(bpe_tok), harf_lugat=len(harf_tok),
        bpe_soz=tokenlar.loc[1, "soʻzga token"], harf_soz=tokenlar.loc[0, "soʻzga token"],
        harf_ulush=lugat.loc[0, "lugʻat ulushi (%)"], bpe_ulush=lugat.loc[1, "lugʻat ulushi (%)"],
        p_batch=protokol["batch"], p_T=protokol["T"], p_qadamlar=protokol["qadamlar"],
        harf_oxirgi=oxirgi["harf"], bigram=bigram, harf_perp=math.exp(oxirgi["harf"]), bpe_perp=math.exp(oxirgi["bpe"]),
        unigram_perp=math.exp(unigram), bpe_eng_qadam=bpe_eng_qadam, bpe_eng=bpe_eng,
        bpe_oxirgi=oxirgi["bpe"], bpe_oqish_tok=son(bpe_oqish_tok), qadam_tok=son(qadam_tok),
        bpe_davr=protokol["qadamlar"] * qadam_tok / bpe_oqish_tok,
        harf_davr=protokol["qadamlar"] * qadam_tok / harf_oqish_tok,
        namuna_soni=len(matnlar["ochkoʻz"]), namuna_n=NAMUNA_N,
        och_ulush=namuna.loc[0, "korpusdagi soʻzlar (%)"], t07_ulush=namuna.loc[1, "korpusdagi soʻzlar (%)"],
        t15_ulush=namuna.loc[2, "korpusdagi soʻzlar (%)"], topk_ulush=namuna.loc[3, "korpusdagi soʻzlar (%)"],
        och_xil=namuna.loc[0, "har xil soʻzlar (%)"], t07_xil=namuna.loc[1, "har xil soʻzlar (%)"],
        qisqa_ulush=100 * uzunlik["1–3"], orta_ulush=100 * uzunlik["4–6"],
        uzun_ulush=100 * uzunlik["7+"], kop_sozlar=", ".join(f"«{s_}»" for s_ in kop.index[:5]),
        kesh_n=kesh_n, kesh_bir_xil=bir_xil, kesh_ms=ms[True], keshsiz_ms=ms[False],
        topp_ulush=100 * topp_ulush,
        m100_soz=mashq2[100][0], m100_ulush=mashq2[100][1], m2000_soz=mashq2[2000][0],
        m2000_ulush=mashq2[2000][1], m_marta=mashq2[100][0] / mashq2[2000][0]).items():
    glue(nom, qiymat if isinstance(qiymat, (str, int)) else float(qiymat), display=False)
