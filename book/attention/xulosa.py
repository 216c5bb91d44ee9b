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
# # Transformerlar amalda va bob xulosasi
#
# Bu darsda {term}`Transformerlar <Transformer>` amalda qanday ishlatilishini koʻramiz va bobning
# asosiy gʻoyalarini bitta jadvalda jamlaymiz.


# %% [markdown]
# ## Amaliy qoʻllanish
#
# Bu bobda kichik modellarni noldan oʻqitdik. Katta Transformerni esa uni yaratgan
# jamoa bir marta, trillionlab {term}`tokenli <token>` matnlarda oʻqitadi; buni takrorlash uchun
# juda koʻp maʼlumot va hisoblash kerak. Shuning uchun odatda tayyor modelni oʻz vazifangizga
# moslashtirasiz: uni oʻz maʼlumotlaringizda qisqa muddat yana oʻqitasiz yoki unga kerakli
# hujjatlarni berasiz. Birinchi yoʻl — {term}`qoʻshimcha oʻqitish` (ingl. *fine-tuning*).
# {numref}`qollash_jadval` odatiy vazifalar va yondashuvlarni koʻrsatadi; oxirgi qatori —
# ogohlantirish: vaqt qatorlarini bashorat qilishda Transformer oddiy usullardan har doim ham
# yaxshi emas {cite:p}`zeng2023`. Jadvaldagi qisqartma va atamalar:
#
# - {term}`LLM` (ingl. *large language model*) — katta til modeli;
# - {term}`RAG` (ingl. *retrieval-augmented generation*; {cite:alp}`lewis2020`) — avval
#   hujjatlardan mos parchalar qidiriladi, soʻng LLM ular asosida javob yozadi;
# - {term}`LoRA` (ingl. *low-rank adaptation*; {cite:alp}`hu2022`) — modelning oʻzi emas,
#   unga qoʻshilgan kichik matritsalar oʻqitiladi;
# - {term}`OCR` (ingl. *optical character recognition*) — rasmdagi matnni tanib olish;
# - {term}`Vision Transformer` — rasmni boʻlaklarga boʻlib, ularni tokenlar kabi oʻqiydigan
#   Transformer {cite:p}`dosovitskiy2021`;
# - {term}`ARIMA` (ingl. *autoregressive integrated moving average*) — vaqt qatorlarining
#   klassik statistik modeli.

# %% [markdown]
# ```{table} Transformerlarning amaliy qoʻllanishi.
# :name: qollash_jadval
#
# | vazifa | yondashuv |
# |:---|:---|
# | Matnni tasniflash (klassifikatsiya) | Tayyor modelning oxiriga yangi qatlam qoʻyib, qoʻshimcha oʻqitish |
# | Oʻz hujjatlaringiz boʻyicha savol-javob | RAG: qidirish + LLM |
# | Oʻz uslubingizda matn yaratish | LoRA bilan qoʻshimcha oʻqitish |
# | Rasmdagi matnni tanib olish (OCR) | Vision Transformer + dekoder |
# | Vaqt qatorlarini bashorat qilish | Avval oddiy usullar: chiziqli modellar, ARIMA |
# ```

# %% [markdown]
# Tayyor modelni kam resurs bilan moslashtirishning keng tarqalgan ikki yoʻli —
# LoRA va {term}`QLoRA` (sonlari kam bitda saqlangan modelga qoʻllanadigan LoRA;
# {cite:alp}`dettmers2023`).
#
# LoRA gʻoyasini modeldagi bitta $d \times d$ oʻlchamli $W$ matritsada koʻramiz. Oddiy
# qoʻshimcha oʻqitish $W$ ning
# hamma elementini oʻzgartiradi. LoRA esa $W$ ni oʻzgartirmaydi va unga ikki kichik
# matritsaning koʻpaytmasini qoʻshadi: $W + BA$. Bunda $B$ ning oʻlchami
# $d \times r$, $A$ niki $r \times d$, rang $r$ esa $d$ dan ancha kichik.

# %%
from chapter_code.bichim import son

d, r = 4096, 8  # d — Llama 3 8Bdagidek, r — LoRA rangi
toliq = d * d  # W ning hamma elementi
lora = d * r + r * d  # B (d × r) va A (r × d)
print("toʻliq:", son(toliq, "d"))
print("LoRA:  ", son(lora, "d"))
print(f"nisbat: {son(toliq / lora, '.0f')} marta")

# %% [markdown]
# Oʻqitiladigan {term}`parametrlar` soni $d^2$ dan $2dr$ ga, yaʼni $d / (2r)$ marta
# kamayadi. $W$ oʻzgarmagani uchun parametr gradientlari ham faqat $B$ va $A$ uchun
# hisoblanadi va saqlanadi.

# %% [markdown]
# ## Xulosa
#
# {numref}`xulosa_jadval` bobning asosiy gʻoyalarini qisqacha
# jamlaydi. Undagi sonlar oldingi darslardagi oʻlchovlardan olingan.

# %% [markdown]
# ```{table} Bobning xulosasi.
# :name: xulosa_jadval
# :align: center
# :class: longtable
# :widths: 22 78
#
# | tushuncha | asosiy gʻoya |
# |:---|:---|
# | Attention formulasi | $\mathrm{softmax}(QK^\top / \sqrt{d})\,V$ |
# | Q, K, V | Soʻrov, kalit, qiymat — uchtasi ham chiziqli proyeksiya |
# | Nega $\sqrt{d}$ ga boʻlinadi | Softmaxni toʻyinishdan saqlaydi |
# | Yoʻl uzunligi | Istalgan ikki pozitsiya orasida bitta bogʻlanish; RNNda esa 0-qadamdan 59-qadamgacha (*T* = 60) 59 ta qadam |
# | Gradientning yetib borishi | Oʻqitish boshida 0-qadamga yetadigan gradient RNNda oxirgi qadamnikidan {glue:text}`rekurrent.py::grad_rnn:.2e` marta kichik (bobdagi initsializatsiyada), attentionda esa deyarli teng |
# | Initsializatsiya | Arxitekturasi bir xil LSTMlarda ham oʻqitish boshidagi gradientning soʻnishiga unutish darvozasining boshlangʻich siljishi kuchli taʼsir qiladi |
# | Pozitsiya kodlash | Maskasiz attention usiz tartibni koʻrmaydi va vazifani yecha olmaydi (aniqlik eng yaxshi seedda {glue:text}`rekurrent.py::attn0_max:.3f`) |
# | Ogʻirliklarni talqin qilish | Ogʻirliklar model qayerga qarashini koʻrsatadi: «Attention, RNN va LSTM bitta vazifada» darsidagi modelda har soʻrov oʻrtacha hisobda ogʻirligining deyarli hammasini 0-qadamga beradi |
# | Kvadratik narx | Xotira *T*² ga proporsional oʻsadi (*T* = 960 da 64 ta namunaning ogʻirliklari {glue:text}`narx.py::matritsa_960:.0f` MiB); flash kerneli xotira sarfini *T* ga chiziqli bogʻliq qiladi, hisob hajmini esa kamaytirmaydi |
# | Parallellik | *T* = 240 da attention RNNdan {glue:text}`narx.py::mac_nisbat:.1f` marta koʻproq hisob qiladi, lekin hammasini biryoʻla bajaradi; bitta oqimda u RNNdan sekin |
# | Transformer bloki | Attention + {term}`qoldiq ulanish` + LayerNorm + feed-forward; GPT-2, Llama: pre-LN |
# | Kauzal maska | Har pozitsiya faqat oʻzini va oldingilarni koʻradi: diagonaldan yuqoridagi ogʻirliklar aniq 0, har qatorning yigʻindisi 1 |
# | Uzunroq ketma-ketlik | RoPE bilan oʻqitilgan model koʻrmagan masofalarda adashadi: *T* = 60 da oʻqitilgan modellarning aniqligi besh seedimizda *T* = 240 da kamida {glue:text}`pozitsiyalar.py::poz_rope_pasayish:.2f` ga pasaydi. Sinusoidal pozitsiya kodlashli model *T* = 240 da vazifani {glue:text}`pozitsiyalar.py::poz_sin10_yechdi:s`; bu ham kafolat emas: *T* = 960 da uning aniqligi seedga qarab {glue:text}`pozitsiyalar.py::m2_min:.2f` dan {glue:text}`pozitsiyalar.py::m2_max:.2f` gacha boʻldi |
# | KV kesh | Oldingi kalit va qiymatlar saqlanadi: natija oʻzgarmaydi, har yaratish qadamida faqat yangi token hisoblanadi; Llama 3 8Bda bitta tokenning keshi {glue:text}`transformer.py::kv_llama_token_kib:.0f` KiB |
# | GQA, MQA, oyna, MLA | Keshni kichraytirish yoʻllari: kalit/qiymat boshlari kamaytiriladi (GQA Llama 3 8B keshini {glue:text}`transformer.py::kv_llama_gqa_marta:d` marta kichraytiradi), oynadan eski tokenlar tashlanadi yoki kesh siqiladi (MLA: DeepSeek-V2da bir tokenga {glue:text}`transformer.py::mla_kib:g` KiB) |
# | Til modeli | Bobning oʻz matnida oʻqitilgan `KichikGPT` harflar bigramidan ancha yaxshi: bir harfga {glue:text}`til_modeli.py::harf_oxirgi:.2f` va {glue:text}`til_modeli.py::bigram:.2f` {term}`nat`. BPE tokenlarida esa u qisqa matnda ortiqcha moslashdi va BPE tokenlari bigramidan (unigram bilan aralashtirilgan; «Attention oʻzbekcha yozadi» darsining 3-mashqi) ustun chiqmadi: bir harfga {glue:text}`til_modeli.py::bpe_oxirgi:.2f` va {glue:text}`til_modeli.py::m3_aralash:.2f` nat |
# | Kompozitsion umumlashtirish | «00»li sonlarsiz oʻqitilgan modellar «00»li sinov sonlarini ikki seedimizda faqat {glue:text}`yakuniy.py::tz_yopiq_00_min:.3f`–{glue:text}`yakuniy.py::tz_yopiq_00_max:.3f` aniqlik bilan yozdi: tanish soʻzlardan yangi birikma tuzish qobiliyati kichik modelimizda oʻz-oʻzidan yaxshi shakllanmadi |
# | Koder-dekoder attention | Raqam yozayotgan dekoder uni beradigan soʻzga qaraydi: seed 0 modelida noldan farqli raqamlarning {glue:text}`yakuniy.py::tr_moslik_foiz:.1f` foizida eng kuchli ogʻirlik oʻsha soʻzda |
# ```
