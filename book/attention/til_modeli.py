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
# Oldingi darsda `KichikGPT` {term}`tokenlar <token>` yaratdi, lekin u oʻqitilmagani uchun ular
# tasodifiy chiqdi. Bu darsda uni oʻzbekcha matnda oʻqitamiz. Matnni harflarga va {term}`BPE`
# boʻlaklariga boʻlib, ikkala holda ham bittadan model oʻqitamiz. Ularning
# {term}`yoʻqotishini <yoʻqotish funksiyasi>` oddiy sanoq modellari — {term}`unigram` va
# {term}`bigram` — bilan solishtiramiz. Matn yaratishning uch usulini — {term}`ochkoʻz tanlash`,
# {term}`harorat` bilan tanlash va {term}`top-k` — sinaymiz. Oxirida {term}`KV kesh`
# oʻqitilgan modelda qanday ishlashini koʻramiz.
#
# Model kichik, protsessorda oʻqitiladi, {term}`parametrlari <parametrlar>` bir necha yuz marta
# yangilanadi. Shuning uchun dars katta til modeli ({term}`LLM`) nimani oʻrganishini emas, kichik
# model shuncha yangilanishda nimani oʻrganishini koʻrsatadi.

# %%
import collections
import math
import textwrap
from functools import partial

import pandas as pd
import matplotlib.pyplot as plt
import torch

from chapter_code.kitob import show, fig
from chapter_code.bichim import son, foiz
from chapter_code.modellar import KichikGPT, parametrlar
from chapter_code.oqitish import mediana_ms, parallel, protokoli, baho
from chapter_code import til

# %% [markdown]
# ## Matn
#
# Modelni oʻqitish uchun toʻplangan matn — {term}`korpus`. Korpusimiz — shu bob matnining
# avvalgi bir tahriri: darslar, bobga kirish va atama izohlari. Undan jadvallar, kod kataklari
# hamda hisoblangan son keltirilgan gaplar olib tashlangan. Korpus `chapter_code/korpus.txt` faylida
# saqlangan. Har oʻninchi xatboshi {term}`tekshirish matniga <tekshirish matni>` ajratiladi:
# model uni oʻqitishda koʻrmaydi, biz esa modelni shu matnda baholaymiz.

# %%
matn = til.korpus()
oqish, tekshir = til.ajrat(matn)  # har 10-xatboshi tekshirishga
print("belgilar:", son(len(matn)),
      " soʻzlar:", son(len(til.sozlar(matn))))
print("belgilar — oʻqitish:", son(len(oqish)),
      " tekshirish:", son(len(tekshir)))
for qator in tekshir.splitlines()[:3]:  # tekshirish matnining boshi
    print(qator if len(qator) <= 66 else qator[:66] + " …")

# %% [markdown]
# Korpusdagi {glue:text}`korpus_soz` ta soʻz juda kam: katta til modellari bundan millionlab, eng
# yiriklari esa milliardlab marta uzun matnda oʻqitiladi.

# %% [markdown]
# ## Tokenlar
#
# Model matnni emas, tokenlar {term}`ketma-ketligini <ketma-ketlik>` oʻqiydi: har token modelga
# {term}`lugʻatdagi <lugʻat>` indeksi bilan beriladi. Eng oddiy token — harf. Lotin alifbosida
# *{lotin}`oʻ`*, *{lotin}`gʻ`*, *{lotin}`sh`* va *{lotin}`ch`* ikki belgi bilan yozilsa ham alohida
# harf. Bu darsda *{lotin}`oʻ`* va *{lotin}`gʻ`* bittadan token, tutuq belgisi (*{lotin}`ʼ`*) ham
# alohida token; *{lotin}`sh`* va *{lotin}`ch`* harflari hamda *{lotin}`ng`* harf birikmasi esa
# ikkitadan token boʻlib qoladi: ularni BPE oʻzi birlashtiradi.

# %%
def korinishi(token):  # boʻshliq · boʻlib koʻrinadi
    return token.replace(" ", "·")


harflar = til.harflar("Oʻgʻil maʼlumot oldi")
print(" | ".join(korinishi(h) for h in harflar))

# %% [markdown]
# Harflar bilan model bitta soʻzni koʻp {term}`qadamda <qadam>` yozadi. **BPE** (ingl. *byte pair
# encoding*; bu yerda baytlar emas, harflar birlashtiriladi) harflardan boshlaydi va har safar
# matnda eng koʻp uchraydigan qoʻshni juftni bitta yangi tokenga birlashtiradi. Juftlar faqat
# oʻqitish matnida va soʻz ichida sanaladi. Soʻz oldidagi boʻshliq soʻzga qoʻshiladi: «{lotin}`·kesh`»
# (· — boʻshliq) bitta token boʻlishi mumkin. Matnni tokenlarga boʻladigan va tokenlardan qayta
# tiklaydigan dastur — {term}`tokenlovchi` (ingl. *tokenizer*). Birinchi birlashmalar
# {numref}`%s-jadvalda <bpe_jadval>` keltirilgan.

# %%
BIRLASHMALAR = 500
birlashmalar = til.bpe_birlashmalari(BIRLASHMALAR)
harf_tok = til.tokenlovchi("harf")
bpe_tok = til.tokenlovchi("bpe", BIRLASHMALAR)

birinchi = pd.DataFrame(
    [(i + 1, korinishi(a), korinishi(b), korinishi(a + b))
     for i, (a, b) in enumerate(birlashmalar[:13])],
    columns=["tartib", "chapdagi", "oʻngdagi", "yangi token"])
# tokenlar kitobning kirillcha matnida ham lotin yozuvida qoladi
birinchi.attrs["lotin"] = ["chapdagi", "oʻngdagi", "yangi token"]
show(birinchi, nom="bpe_jadval", izoh=f"BPEning birinchi"
     f" {len(birinchi)} ta birlashmasi (· — boʻshliq).")

# %% [markdown]
# BPE *{lotin}`sh`* va *{lotin}`ch`* ni oʻzi topadi, *{lotin}`ng`* ni esa keyinroq,
# {glue:text}`ng_tartib`-birlashmada. Koʻplik qoʻshimchasi *{lotin}`-lar`* ikki birlashmada hosil
# boʻladi: {glue:text}`la_tartib`-birlashmada *{lotin}`la`*, {glue:text}`lar_tartib`-birlashmada
# *{lotin}`lar`*. Harflar lugʻatida katta va kichik harflar,
# raqamlar, boʻshliq, yangi qator, tinish va baʼzi matematik belgilar bor. Tekshirish matnini
# ikkala usulda tokenlarga boʻlamiz ({numref}`tokenlar_jadval`).

# %%
gap = "Attention oʻzbekcha yozadi."
qatorlar = []
for nom, tok in [("harflar", harf_tok), ("BPE", bpe_tok)]:
    n_tok = len(tok.kodla(tekshir))
    qatorlar.append({
        "usul": nom, "lugʻat kattaligi": len(tok),
        "soʻzga token": n_tok / len(til.sozlar(tekshir)),
        "misol": " ".join(korinishi(t) for t in tok.tokenlar(gap))})
tokenlar = pd.DataFrame(qatorlar)
tokenlar.attrs["lotin"] = ["misol"]  # tokenlar: lotin yozuvida
show(tokenlar.round(1), nom="tokenlar_jadval",
     izoh="Ikki tokenlash usuli: lugʻat kattaligi, tekshirish matnida"
          " bitta soʻzga oʻrtacha toʻgʻri keladigan tokenlar soni"
          " va misol gap.")

# %% [markdown]
# BPE bilan soʻzga kamroq token toʻgʻri keladi, lekin lugʻat kattalashsa, model ham
# kattalashadi. Lugʻatga modelning ikki {term}`qatlami <qatlam>` bogʻliq: kirishdagi
# {term}`embedding` har token uchun *d* ta son saqlaydi (*d* — token vektorining oʻlchami, bizda
# {glue:text}`p_d`), chiqish qatlami esa har token uchun *d* ta koʻpaytuvchi va bitta
# {term}`siljishdan <siljish>` iborat ({numref}`lugat_jadval`).

# %%
protokol = protokoli(til.til_oqit)  # oʻqitish sozlamalari
shakl = dict(d=protokol["d"], boshlar=protokol["boshlar"],
             qatlamlar=protokol["qatlamlar"], T_max=protokol["T"])
qatorlar = []
for nom, V in [("harflar", len(harf_tok)), ("BPE", len(bpe_tok)),
               ("GPT-2", 50257), ("Llama 3", 128256)]:
    m_ = KichikGPT(V, **shakl)
    lugatga = parametrlar(m_.emb) + parametrlar(m_.chiqish)
    qatorlar.append({
        "lugʻat": nom, "lugʻat kattaligi": V,
        "embedding va chiqish": lugatga,
        "lugʻat qatlamlari ulushi (%)":
            100 * lugatga / parametrlar(m_)})
lugat, qolgan = pd.DataFrame(qatorlar), parametrlar(m_) - lugatga
show(lugat.round(1), nom="lugat_jadval",
     izoh=f"KichikGPT parametrlari (*d* = {shakl['d']}); qolgan"
          f" qatlamlarda {son(qolgan)} ta, lugʻatga bogʻliq emas.")

# %% [markdown]
# :::{admonition} Chuqurroq: katta modellarda lugʻat qatlamlari
# :class: dropdown
#
# Kichik modelimizga GPT-2 yoki Llama 3 lugʻati berilsa, bu ikki qatlam parametrlarning deyarli
# hammasini egallardi. Haqiqiy GPT-2 va Llama 3 modellarida ularning ulushi ancha kichik: qolgan
# qatlamlarning parametrlari *d*² ga, lugʻat qatlamlariniki esa faqat *d* ga proporsional oʻsadi.
# Bu modellarda *d* katta (eng kichik GPT-2 modelida 768, Llama 3 8Bda 4096), qatlamlar esa oʻnlab.
# :::
#
# ## Oʻqitish
#
# Lugʻatidan boshqa hamma jihati bir xil ikkita `KichikGPT` modelini oʻqitamiz: biri harflarda,
# ikkinchisi BPE tokenlarida. Har yangilanishda model oʻqitish matnidan tasodifiy olingan
# {glue:text}`p_batch` ta parchadan iborat {term}`paketni <paket>` koʻradi (har parcha
# {glue:text}`p_T` ta token) va har pozitsiyada keyingi tokenni bashorat qiladi. Parametrlarni
# {glue:text}`p_qadamlar` marta {term}`AdamW` algoritmi bilan yangilaymiz (Adamdan farqi — u har
# yangilanishda parametrlarni nolga qarab biroz kichraytiradi).
# {term}`Oʻrganish tezligi <oʻrganish tezligi>` kosinus egri chizigʻi boʻyicha nolgacha kamayadi.
#
# BPE tokeni bir necha harfdan iborat (tekshirish matnida oʻrtacha
# {glue:text}`bpe_harf_token:.1f` harf). Ikkala modelni bir xil oʻlchash uchun tekshirish matnidagi
# jami yoʻqotishni harflar soniga boʻlamiz: **bir harfga yoʻqotish** ({term}`nat` birligida, yaʼni
# natural logarifm bilan hisoblanganda); boʻshliq, raqam va tinish belgisi ham harf hisoblanadi. Ikki oddiy model
# ehtimollarni oʻqitish matnidagi sanoqlardan oladi:
#
# - **unigram** — har harfga uning chastotasini beradi;
# - **bigram** — har harfga uning shu oldingi harfdan keyin kelish chastotasini beradi.
#
# Ikkalasida ham har sanoqqa 1 qoʻshiladi ({term}`silliqlash`): aks holda oʻqitish matnida uchramagan
# juft nol ehtimol va cheksiz yoʻqotish olardi.

# %%
ishlar = [("harf", 0), ("bpe", BIRLASHMALAR)]  # (birlik, birlashmalar)
(egri_h, model_h), (egri_b, model_b) = parallel(til.til_oqit, ishlar)
unigram, bigram = til.unigram_bigram(oqish, tekshir)

fig_, ax = plt.subplots(figsize=(6.4, 3.6))
for nom, egri in [("harflar", egri_h), ("BPE", egri_b)]:
    ax.plot(*zip(*egri), marker="o", markersize=3, label=nom)
ax.axhline(unigram, color="grey", linestyle=":", label="unigram")
ax.axhline(bigram, color="black", linestyle="--", label="bigram")
ax.set_xlabel("parametr yangilanishlari")
ax.set_ylabel("bir harfga yoʻqotish (nat)")
ax.set_ylim(1, 5)
ax.legend()
fig("til_egri.png",
    caption="Tekshirish matnidagi bir harfga yoʻqotish oʻqitish"
    " davomida: harflarda va BPE tokenlarida oʻqitilgan modellar;"
    " gorizontal chiziqlar — unigram va bigram.")

# %% [markdown]
# {glue:text}`p_qadamlar` ta yangilanishdan keyin harflar modelining yoʻqotishi bir harfga
# {glue:text}`harf_oxirgi:.2f` nat — bigramnikidan ({glue:text}`bigram:.2f`) ancha kam: model
# oldingi bitta harfdan uzoqroqqa qaraydi. Yoʻqotishning eksponentasi — {term}`perpleksiya`:
# model har harfda goʻyo shuncha teng ehtimolli variant orasidan tanlaydi. Harflar modeli uchun u
# {glue:text}`harf_perp:.1f`, bigram uchun {glue:text}`bigram_perp:.1f`, unigram uchun
# {glue:text}`unigram_perp:.1f`.
#
# BPE modelining egri chizigʻi boshidanoq pastroqda. Oʻqitilmagan model hamma tokenga deyarli teng
# ehtimol beradi, shuning uchun uning bir tokenga yoʻqotishi taxminan $\ln |\mathcal{V}|$ ($|\mathcal{V}|$ — lugʻat
# kattaligi), BPE tokenining yoʻqotishi esa undagi bir necha harfga boʻlinadi. Oxirida BPE
# modelining yoʻqotishi bir harfga {glue:text}`bpe_oxirgi:.2f` nat — harflar modelinikidan kam
# (perpleksiyasi {glue:text}`bpe_perp:.1f`).
#
# Lekin BPE modelining yoʻqotishi {glue:text}`bpe_eng_qadam`-yangilanishda eng kichik
# ({glue:text}`bpe_eng:.2f`), keyin oʻsadi: model oʻqitish matnini yod ola boshlaydi
# ({term}`ortiqcha moslashish`). BPE tokenlarida oʻqitish matni qisqa — atigi
# {glue:text}`bpe_oqish_tok` ta token, modelda esa {glue:text}`bpe_param` ta parametr bor: har
# oʻqitish tokeniga taxminan {glue:text}`bpe_nisbat:.0f` ta (harflar modelida
# {glue:text}`harf_nisbat:.0f` ta). BPE modeli oʻqitish matnidan oʻrtacha
# {glue:text}`bpe_davr:.0f` marta oʻtdi ({glue:text}`bpe_davr:.0f` {term}`epoxa`), harflar modeli — {glue:text}`harf_davr:.0f` marta.
#
# Shuncha yangilanishda BPE modeli koʻrmagan matnni yaxshiroq bashorat qiladi, shuning uchun
# matnlarni shu model bilan yaratamiz. Lekin bundan BPE doim yaxshiroq degan xulosa chiqmaydi.
# Ikkala modelning paketidagi tokenlar soni bir xil, oʻqitish matnida esa BPE tokeni oʻrtacha
# {glue:text}`bpe_harf_oqish:.1f` harf: har yangilanishda BPE modeli shuncha marta koʻproq harf
# koʻradi. Harflar modelining yoʻqotishi oxirgi {glue:text}`harf_oxir_n` ta yangilanishda ham
# {glue:text}`harf_oxir_kamay:.2f` nat kamaydi. Uzoqroq oʻqitilsa, u BPE modelidan oʻzib ketishi
# mumkin. Ikkala model bitta {term}`seed` bilan oʻqitilgan: boshqa seedda farq kattaroq ham,
# kichikroq ham chiqishi mumkin.

# %% [markdown]
# ## Matn yaratish usullari
#
# Model har qadamda lugʻatdagi har token uchun bitta {term}`logit` beradi. Keyingi tokenni
# tanlashning uch usuli:
#
# - **ochkoʻz tanlash** — eng katta logitli tokenni olish; bir xil
#   {term}`boshlangʻich matndan <boshlangʻich matn>` doim bir xil matn chiqadi;
# - **harorat bilan tanlash** — logitlarni avval haroratga boʻlib, tokenni
#   $\operatorname{softmax}(\text{logit}/\tau)$ ehtimollariga koʻra tasodifiy tanlash
#   ($\tau$ — harorat; {term}`softmax` logitlarni ehtimollarga aylantiradi). Harorat $\tau < 1$
#   boʻlsa, ehtimollar eng kattasiga toʻplanadi, $\tau > 1$ boʻlsa, tekislanadi;
# - **top-k** — faqat eng ehtimolli *k* ta token orasidan tanlash.
#
# Toʻrt sozlamani sinaymiz: ochkoʻz tanlash, $\tau = 0{,}7$ va $\tau = 1{,}5$ da harorat bilan
# tanlash va $\tau = 1{,}5$, $k = 5$ da top-k. Har sozlamada {glue:text}`namuna_soni` ta namuna
# yaratamiz, har birida {glue:text}`namuna_n` ta token. Namunalar tekshirish matnining turli
# xatboshilaridagi dastlabki ikki soʻzdan boshlanadi. {numref}`namuna_jadval` yaratilgan
# soʻzlarning qancha qismi korpusda borligini koʻrsatadi (soʻzlar takrorlari bilan sanalgan). Jadval
# ostida har sozlamadan bitta namuna chiqarilgan (« / » — yangi xatboshi).

# %%
sozlar_toplami = set(til.sozlar(matn))  # korpusdagi hamma soʻzlar
NAMUNA_N = 120  # har matnda nechta token
# sozlama: (harorat, top_k); None — ochkoʻz yoki cheklovsiz
usullar = {"ochkoʻz": (None, None), "τ = 0,7": (0.7, None),
           "τ = 1,5": (1.5, None), "top-k, k = 5, τ = 1,5": (1.5, 5)}
yoz = partial(til.namunalar, n=NAMUNA_N)
matnlar = dict(zip(usullar, parallel(
    yoz, [("bpe", BIRLASHMALAR, *u) for u in usullar.values()])))
qatorlar = []
for nom in usullar:
    ulush, soni = til.soz_ulushi(matnlar[nom], sozlar_toplami)
    qatorlar.append({"sozlama": nom, "soʻzlar soni": soni,
                     "korpusdagi soʻzlar (%)": 100 * ulush})
namuna = pd.DataFrame(qatorlar)
uzunlik = til.uzunlik_boyicha(matnlar["τ = 0,7"], sozlar_toplami)
uzunlar = [s_ for m_ in matnlar["τ = 0,7"] for s_ in til.sozlar(m_)
           if len(til.harflar(s_)) > 3]  # uch harfdan uzun soʻzlar
kop = pd.Series(uzunlar).value_counts()
show(namuna.round(1), nom="namuna_jadval",
     izoh="BPE modeli yozgan soʻzlarning qancha qismi korpusda bor.")
boshlanishlar = til.boshlanishlar()
for nom, m_ in matnlar.items():  # ikkinchi matn, har sozlamada
    print(nom + ":")
    matn_ = (boshlanishlar[1] + m_[1]).replace("\n", " / ")
    print(textwrap.fill(matn_, 68,
                        initial_indent="  ", subsequent_indent="  "))

# %% [markdown]
# Ochkoʻz tanlashda korpusdagi soʻzlar ulushi eng yuqori: model har safar eng ehtimolli tokenni
# oladi. Lekin bu oʻlchov takrorni sezmaydi: ochkoʻz tanlash bir iborani qayta-qayta yozishi
# mumkin, takrorlangan soʻz esa har safar hisobga kiradi. Harorat oshsa, ulush kamayadi; top-k esa $\tau = 1{,}5$ da
# ham ehtimoli kichik tokenlarni kesib, ulushni yana koʻtaradi.
#
# Model nimani oʻrgandi? Harorat $\tau = 0{,}7$ boʻlganda yozilgan 1–3 harfli soʻzlarning
# {glue:text}`qisqa_ulush:.0f` foizi, 4–6 harflilarning {glue:text}`orta_ulush:.0f` foizi, 7 va
# undan ortiq harflilarning esa {glue:text}`uzun_ulush:.0f` foizi korpusda bor. Uch harfdan uzun
# soʻzlardan model eng koʻp shularni yozgan: {glue:text}`kop_sozlar` («ingl» — *ingl.*, yaʼni
# «inglizcha» qisqartmasi). Ularning har biri BPE lugʻatida bitta token: model qaysi tokenlar koʻp
# uchrashini va qaysi tokendan keyin qaysi biri kelishini oʻrgangan. Korpusda yoʻq uzun soʻzlarni
# model BPE lugʻatidagi tokenlardan yigʻgan; gaplari esa maʼnosiz. {glue:text}`p_qadamlar` ta yangilanish va
# {glue:text}`oqish_belgi` belgili oʻqitish matni faqat shuncha narsani oʻrgatishga yetadi.
#
# Demak, korpusdagi soʻzlar ulushi model nimani oʻrganganini yaxshi koʻrsatmaydi: tokenlar
# juftlarini sanaydigan oddiy model ham korpusdagi soʻzlarni koʻp yozishi mumkin. Modelning harf
# unigrami va bigramidan ustunligini tekshirish matnidagi yoʻqotish koʻrsatadi
# ({numref}`til_egri`); BPE modelini esa token juftlarini sanaydigan model bilan 3-mashqda
# solishtirasiz.
#
# ## Oʻqitilgan modelda KV kesh
#
# Oldingi darsda KV kesh oʻqitilmagan modelda natijani oʻzgartirmagan edi; oʻqitilgan modelda ham
# shunday boʻlishi kerak. Harorat $\tau = 0{,}7$ boʻlganda, bir xil seed bilan, kesh bilan va keshsiz
# {glue:text}`kesh_n` ta token yaratamiz: boshlangʻich matn bilan birga {term}`kontekst oynasi`
# ({glue:text}`p_T` ta token) toʻladi.

# %%
boshi = torch.tensor([bpe_tok.kodla(boshlanishlar[0])])
# kesh bilan matn T tokendan oshmaydi
kesh_n = protokol["T"] - boshi.shape[1]
a = til.yarat(model_b, boshi, kesh_n, harorat=0.7, seed=3)
b = til.yarat(model_b, boshi, kesh_n, harorat=0.7, seed=3, kesh=True)
bir_xil = torch.equal(a, b)
ifoda = "yarat(m, b, n, harorat=0.7, kesh=k)"
ms = {kesh: mediana_ms(ifoda, yarat=til.yarat, m=model_b, b=boshi,
                       n=kesh_n, k=kesh) / kesh_n
      for kesh in (False, True)}
print("tokenlar bir xilmi:", "ha" if bir_xil else "yoʻq")
print(textwrap.fill(bpe_tok.dekodla(b[0]).replace("\n", " / "), 68))

# %% [markdown]
# Tokenlar bir xil. Vaqt jihatidan esa kesh bu yerda kam yutadi: bitta tokenga keshsiz
# {glue:text}`keshsiz_ms:.2f` ms, kesh bilan {glue:text}`kesh_ms:.2f` ms ketadi (bir necha oʻlchovning
# {term}`medianasi <mediana>`; alohida oʻlchovlarda farq kattaroq ham, kichikroq ham chiqadi).
# Matn qisqa va model kichik: keshsiz ham har qadamdagi hisob oz, vaqtning koʻpi funksiyalarni
# chaqirishga ketadi. Keshning foydasi uzun matnda koʻrinadi:
# {doc}`«Transformer bloki va KV kesh» <transformer>` darsida matn uzunligi
# *T* = {glue:text}`transformer.py::kv_T_katta:.0f` boʻlganda kesh bitta yaratish qadamini
# {glue:text}`transformer.py::kv_nisbat:.0f` marta tezlashtirgan edi.
#
# ## Mashqlar
#
# **1-mashq ({term}`top-p`).** Top-p (ingl. *nucleus sampling*) usulida tokenlar ehtimoli kamayish
# tartibida saralanadi va ehtimollar yigʻindisi *p* ga yetguncha toʻplamga qoʻshiladi; keyingi
# token shu toʻplamdan tanlanadi. `til.keyingi(logit, harorat, top_k, tasodif)` bilan bir xil
# argumentli funksiya yozing (uchinchi argument bu yerda *p* vazifasini bajaradi) va uni
# `til.davomlar` ning `tanlash=` argumenti orqali bering. {numref}`%s-jadvaldagidek
# <namuna_jadval>` har boshlangʻich matndan {glue:text}`namuna_n` tadan (`NAMUNA_N`) token yarating.
# Harorat $\tau = 1{,}5$ va $p = 0{,}9$ boʻlganda korpusdagi soʻzlar ulushini
# {numref}`%s-jadvaldagi <namuna_jadval>` ulushlar bilan solishtiring.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Top-p bilan ($p = 0{,}9$) soʻzlarning {glue:text}`topp_ulush:.1f` foizi korpusda bor — top-k bilan olingan ulushdan kam.
# Yuqori harorat ($\tau = 1{,}5$) taqsimotni tekislaydi, shuning uchun ehtimollar yigʻindisi $0{,}9$ ga yetguncha
# toʻplamga koʻp token kiradi; $k = 5$ esa har qadamda beshtadan ortigʻini qoldirmaydi. Top-p
# nechta tokenni qoldirishni har qadamda taqsimotning oʻziga qarab belgilaydi: taqsimot oʻtkir
# boʻlsa — oz, tekis boʻlsa — koʻp. Bu haroratda esa top-p ulushi oddiy harorat bilan
# tanlashdagi ulushdan ($\tau = 1{,}5$; {glue:text}`t15_ulush:.1f` foiz) deyarli farq qilmaydi: $p = 0{,}9$ faqat eng kam ehtimolli
# tokenlarni — ehtimollari yigʻindisi $0{,}1$ dan oshmaydiganlarini — kesadi.
# :::
#
# **2-mashq (birlashmalar soni).** 100 va 2000 ta birlashmali ikki BPE tokenlovchisini hosil qiling
# (`til.tokenlovchi("bpe", n)`). Har birida tekshirish matnidagi bitta soʻzga nechta token toʻgʻri
# keladi va lugʻatga bogʻliq ikki qatlam (embedding va chiqish) `KichikGPT` parametrlarining
# necha foizini egallaydi ({numref}`%s-jadvaldagidek <lugat_jadval>`)? Avval taxmin qiling: birlashmalar 20 marta koʻpaysa, bitta soʻzga
# toʻgʻri keladigan tokenlar soni ham 20 marta kamayadimi?
#
# :::{admonition} Yechim
# :class: dropdown
#
# Birlashmalar 100 ta boʻlsa, bitta soʻzga {glue:text}`m100_soz:.1f` token, lugʻat qatlamlari ulushi
# {glue:text}`m100_ulush:.0f` foiz; 2000 ta bilan {glue:text}`m2000_soz:.1f` token va
# {glue:text}`m2000_ulush:.0f` foiz. Bitta soʻzga toʻgʻri keladigan tokenlar soni 20 marta emas,
# {glue:text}`m_marta:.1f` marta kamayadi: birinchi birlashmalar koʻp uchraydigan juftlarni
# birlashtirib, matnni tez qisqartiradi; keyingilari esa kam uchraydigan juftlarni birlashtirib,
# uni oz qisqartiradi. Lugʻat qatlamlarining ulushi esa ancha oshadi.
# :::
#
# **3-mashq (tokenlar bigrami).** BPE tokenlarida bigram tuzing: oʻqitish matnida har token
# juftini sanang va keyingi tokenning ehtimolini $(n_{ab} + k) / (n_a + k\,|\mathcal{V}|)$ deb oling ($|\mathcal{V}|$ —
# lugʻat kattaligi). Tekshirish matnida bir harfga yoʻqotishni $k = 1$ va $k = 0{,}01$ da
# hisoblang. 600 ta yangilanishdan keyingi BPE modeli bilan solishtiring: qaysi biri yaxshiroq?
#
# :::{admonition} Yechim
# :class: dropdown
#
# Silliqlash kuchli boʻlsa ($k = 1$), bigram BPE modelidan yomonroq: {glue:text}`m3_k1:.2f` nat,
# BPE modeliniki {glue:text}`bpe_oxirgi:.2f` nat. Kuchsiz silliqlash ($k = 0{,}01$) bilan bigram {glue:text}`m3_k001:.2f` nat
# beradi: oddiy sanoq BPE modelidan yaxshiroq! Koʻp juftlar oʻqitish matnida bir-ikki marta
# uchraydi, shuning uchun natija silliqlashga kuchli bogʻliq: $k = 1$ koʻrilmagan juftlarga juda
# koʻp ehtimol beradi.
#
# BPE modeli {glue:text}`p_qadamlar`-yangilanishga kelib ortiqcha moslashib boʻlgan: qisqa oʻqitish matni
# uchun bu juda koʻp yangilanish. Shuning uchun {term}`Transformer` bigramga yutqazdi. Vaqtida
# toʻxtatilsa, u sinalgan ikki *k* bilan silliqlangan bigramlardan ozgina ustun keladi: eng yaxshi
# nuqtasida ({glue:text}`bpe_eng_qadam`-yangilanish) yoʻqotishi {glue:text}`bpe_eng:.2f` nat. Lekin bu
# nuqtani (bigramdagi *k* ni ham) tekshirish matniga qarab tanladik, natija bitta seedniki, farq esa
# kichik. Bigramni unigram bilan aralashtirib silliqlasak
# ($0{,}7 \cdot n_{ab}/n_a + 0{,}3 \cdot p_b$, bu yerda $p_b$ — *b* tokenining unigram ehtimoli),
# bigram {glue:text}`m3_aralash:.2f` nat beradi: demak, bu masalada
# Transformer yaxshi silliqlangan bigramdan ustun emas. Uchala mashqning kodi quyida.
# :::

# %% tags=["hide-cell"]
# 1-mashq yechimi: top-p
def top_p(logit, harorat, p, tasodif):
    ehtimol = (logit / harorat).softmax(-1)
    saralangan, tartib = ehtimol.sort(-1, descending=True)
    # oldingilarining yigʻindisi p ga yetgan tokenlar tashlanadi
    tashla = saralangan.cumsum(-1) - saralangan >= p
    saralangan = saralangan.masked_fill(tashla, 0)
    tanlov = torch.multinomial(saralangan, 1, generator=tasodif)
    return tartib.gather(-1, tanlov)[..., 0]


def namuna_ulushi(model, tanlash, harorat, p):
    matnlar_ = til.davomlar(model, bpe_tok, boshlanishlar, NAMUNA_N,
                            harorat=harorat, top_k=p, tanlash=tanlash)
    return til.soz_ulushi(matnlar_, sozlar_toplami)[0]


topp_ulush = baho(namuna_ulushi, model_b, top_p, 1.5, 0.9)
print(f"top-p, p = 0,9: {foiz(topp_ulush, 1)}")

# 2-mashq yechimi: 100 va 2000 ta birlashma
mashq2 = {}
for n in (100, 2000):
    tok_ = til.tokenlovchi("bpe", n)
    m_ = KichikGPT(len(tok_), **shakl)
    lugatga = parametrlar(m_.emb) + parametrlar(m_.chiqish)
    mashq2[n] = (len(tok_.kodla(tekshir)) / len(til.sozlar(tekshir)),
                 100 * lugatga / parametrlar(m_))
    print(f"{n} ta birlashma: soʻzga {son(mashq2[n][0], '.1f')} token,"
          f" lugʻat qatlamlari ulushi {foiz(mashq2[n][1] / 100)}")

# 3-mashq yechimi: BPE tokenlari juftlarini sanaydigan bigram
t_o, t_t = bpe_tok.kodla(oqish), bpe_tok.kodla(tekshir)
bir = collections.Counter(t_o)
ikki = collections.Counter(zip(t_o, t_o[1:]))
V, harf_soni = len(bpe_tok), len(til.harflar(tekshir))
m3 = {}
for k in (1, 0.01):
    nat = -sum(math.log((ikki[a_, b_] + k) / (bir[a_] + k * V))
               for a_, b_ in zip(t_t, t_t[1:]))
    m3[k] = nat / harf_soni  # bir harfga
    print(f"k = {son(k, 'g')}: bir harfga {son(m3[k], '.2f')} nat")
# unigram bilan aralashtirilgan bigram
# (koʻrilmagan token ham nol boʻlmagan ehtimol oladi)
m3_aralash = -sum(math.log(0.7 * ikki[a_, b_] / max(bir[a_], 1)
                           + 0.3 * (bir[b_] + 1) / (len(t_o) + V))
                  for a_, b_ in zip(t_t, t_t[1:])) / harf_soni
print(f"aralash bigram: bir harfga {son(m3_aralash, '.2f')} nat")

# %% tags=["remove-cell"]
from myst_nb import glue  # qiymatlarni matnga beradi

oxirgi = {n: e[-1][1] for n, e in (("harf", egri_h), ("bpe", egri_b))}
bpe_eng_qadam, bpe_eng = min(egri_b, key=lambda qy: qy[1])
bpe_oqish_tok, harf_oqish_tok = len(bpe_tok.kodla(oqish)), len(harf_tok.kodla(oqish))
qadam_tok = protokol["batch"] * protokol["T"]
oxir_uchdan = egri_h[(len(egri_h) - 1) * 2 // 3]  # oxirgi uchdan bir qism boshi
ustun = "korpusdagi soʻzlar (%)"
for nom, qiymat in dict(
        birlashma_soni=BIRLASHMALAR, bpe_lugat=len(bpe_tok), harf_lugat=len(harf_tok),
        bpe_soz=tokenlar.loc[1, "soʻzga token"], harf_soz=tokenlar.loc[0, "soʻzga token"],
        harf_ulush=lugat.loc[0, "lugʻat qatlamlari ulushi (%)"],
        bpe_ulush=lugat.loc[1, "lugʻat qatlamlari ulushi (%)"],
        p_batch=protokol["batch"], p_d=protokol["d"], p_T=protokol["T"], p_qadamlar=protokol["qadamlar"],
        harf_oxirgi=oxirgi["harf"], bigram=bigram, harf_perp=math.exp(oxirgi["harf"]),
        bpe_perp=math.exp(oxirgi["bpe"]), unigram_perp=math.exp(unigram),
        bigram_perp=math.exp(bigram), korpus_soz=son(len(til.sozlar(matn))),
        harf_lnv=math.log(len(harf_tok)), bpe_lnv=math.log(len(bpe_tok)),
        harf_bosh=egri_h[0][1], bpe_bosh=egri_b[0][1],
        harf_oxir_n=egri_h[-1][0] - oxir_uchdan[0],
        bpe_harf_oqish=harf_oqish_tok / bpe_oqish_tok,
        harf_oxir_kamay=oxir_uchdan[1] - egri_h[-1][1],
        bpe_eng_qadam=bpe_eng_qadam, bpe_eng=bpe_eng, bpe_oxirgi=oxirgi["bpe"],
        bpe_oqish_tok=son(bpe_oqish_tok), qadam_tok=son(qadam_tok), oqish_belgi=son(len(oqish)),
        harf_oqish_tok=son(harf_oqish_tok), bpe_param=son(parametrlar(model_b)),
        harf_param=son(parametrlar(model_h)),
        bpe_nisbat=parametrlar(model_b) / bpe_oqish_tok,
        harf_nisbat=parametrlar(model_h) / harf_oqish_tok, lar_tartib=birlashmalar.index(("la", "r")) + 1,
        ng_tartib=birlashmalar.index(("n", "g")) + 1,
        la_tartib=birlashmalar.index(("l", "a")) + 1,
        bpe_harf_token=len(harf_tok.kodla(tekshir)) / len(bpe_tok.kodla(tekshir)),
        bpe_davr=protokol["qadamlar"] * qadam_tok / bpe_oqish_tok,
        harf_davr=protokol["qadamlar"] * qadam_tok / harf_oqish_tok,
        namuna_soni=len(matnlar["ochkoʻz"]), namuna_n=NAMUNA_N,
        och_ulush=namuna.loc[0, ustun], t07_ulush=namuna.loc[1, ustun],
        t15_ulush=namuna.loc[2, ustun], topk_ulush=namuna.loc[3, ustun],
        qisqa_ulush=100 * uzunlik["1–3"], orta_ulush=100 * uzunlik["4–6"],
        uzun_ulush=100 * uzunlik["7+"], kop_sozlar=", ".join(f"«{s_}»" for s_ in kop.index[:5]),
        kesh_n=kesh_n, kesh_bir_xil=bir_xil, kesh_ms=ms[True], keshsiz_ms=ms[False],
        topp_ulush=100 * topp_ulush, m100_soz=mashq2[100][0], m100_ulush=mashq2[100][1],
        m2000_soz=mashq2[2000][0], m2000_ulush=mashq2[2000][1],
        m_marta=mashq2[100][0] / mashq2[2000][0], m3_k1=m3[1], m3_k001=m3[0.01],
        m3_aralash=m3_aralash).items():
    glue(nom, qiymat if isinstance(qiymat, (str, int)) else float(qiymat), display=False)
