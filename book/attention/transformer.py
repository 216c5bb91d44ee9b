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
# Bu darsda {term}`attention <attention (eʼtibor mexanizmi)>` atrofiga {term}`Transformer` blokini yigʻamiz: {term}`koʻp boshli attention` va uni oʻrab turgan qismlar. Soʻng oʻqitilmagan kichik GPT bilan {term}`tokenlar <token>`
# yaratamiz va {term}`KV kesh` — oldingi {term}`kalit` va qiymatlar xotirasi — yaratishni necha marta
# tezlatishini va qancha joy egallashini oʻlchaymiz.


# %%
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import torch
import torch.nn as nn

from chapter_code.kitob import diagramma, show, fig
from chapter_code.bichim import son
from chapter_code.modellar import TransformerBlok
from chapter_code.modellar import KopBoshli, Blok, KichikGPT
from chapter_code.modellar import kesh_qosh, oldindan_kesh
from chapter_code.modellar import kesh_baytlari
from chapter_code.modellar import parametrlar
from chapter_code.oqitish import mediana_ms, protsessor

# %% [markdown]
# ## Transformer bloki
#
# {doc}`«Attention, RNN va LSTM bitta vazifada» <rekurrent>` darsidagi `Attention` modelimiz bitta {term}`qatlamdan <qatlam>` iborat edi. Transformer bloki attention
# atrofiga yana uchta qism qoʻshadi va shu blok koʻp marta ustma-ust
# qoʻyiladi. Qismlar {numref}`%s-jadvalda <qismlar_jadval>`.

# %%
show(
    pd.DataFrame(
        [
            (
                "1. Koʻp boshli attention (multi-head attention)",
                (
                    "Bir nechta attention parallel ishlaydi — har biri"
                    " boshqa munosabatga qaraydi"
                ),
            ),
            (
                "2. Qoldiq ulanish (residual): x + attn(x)",
                (
                    "Gradientga toʻsiqsiz yoʻl beradi — chuqur tarmoq"
                    " uchun shart"
                ),
            ),
            (
                "3. LayerNorm (qatlam boʻyicha normallashtirish)",
                (
                    "Har pozitsiya vektorini normallashtiradi:"
                    " oʻrtachasi 0, dispersiyasi 1 boʻladi"
                    " (oʻrganiladigan koʻpaytuvchi va siljishdan oldin)"
                ),
            ),
            (
                (
                    "4. Feed-forward (oldinga uzatuvchi tarmoq): 2"
                    " qatlamli MLP (koʻp qatlamli perseptron)"
                ),
                (
                    "Attention yigʻgan maʼlumotni har pozitsiyada qayta"
                    " ishlaydi"
                ),
            ),
        ],
        columns=["qism", "vazifasi"],
    ),
    izoh="Transformer blokining qismlari.",
    nom="qismlar_jadval",
)
print(
    "Shu blok N marta ustma-ust qoʻyiladi. GPT, BERT, Llama — shu"
    " arxitekturaning"
)
print(
    "variantlari; farqlari: normning joyi (quyida), pozitsiya kodlash"
    " turi,"
)
print("attention maskasi, blok soni va oʻlchami.")

# %% [markdown]
# ### Koʻp boshli attention kodda
#
# **Koʻp {term}`boshli <bosh>` attention** (*multi-head attention*) *d* oʻlchamni bir
# nechta «boshga» boʻladi: har bosh *Q*, *K*, *V* ning oʻz ustunlarini oladi
# va alohida attention hisoblaydi. Soʻng boshlarning chiqishlari yonma-yon
# qoʻyiladi va yana bitta chiziqli qatlamdan (`self.o`) oʻtadi. Boʻlish — faqat
# tenzor shaklini oʻzgartirish (`view` va `transpose`); shakllar kodda
# izohlangan.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: KopBoshli
# ```
#
# PyTorchning `nn.MultiheadAttention` qatlami aynan shu hisobni bajaradi:
# unga `KopBoshli` ning {term}`parametrlarini <parametrlar>` koʻchirsak, natija bir xil chiqadi.

# %%
torch.manual_seed(0)
d_blok, boshlar = 32, 4
kb = KopBoshli(d_blok, boshlar)
# (namuna, T, d)
x = torch.randn(2, 10, d_blok)
dh = d_blok // boshlar
q_boshlar = kb.q(x).view(2, 10, boshlar, dh).transpose(1, 2)
print(f"kirish x            : {tuple(x.shape)}    (namuna, T, d)")
print(
    f"Q, boshlarga boʻlingan: {tuple(q_boshlar.shape)}  (namuna, bosh,"
    " T, d/bosh)"
)
with torch.no_grad():
    chiqish_kb = kb(x)
print(
    f"ogʻirliklar         : {tuple(kb.ogirlik.shape)} (namuna, bosh,"
    " T, T)"
)
print(
    f"chiqish             : {tuple(chiqish_kb.shape)}    (namuna, T, d)"
)

mha = nn.MultiheadAttention(d_blok, boshlar, batch_first=True)
# parametrlarni koʻchiramiz
with torch.no_grad():
    mha.in_proj_weight.copy_(
        torch.cat([kb.q.weight, kb.k.weight, kb.v.weight])
    )
    mha.in_proj_bias.copy_(torch.cat([kb.q.bias, kb.k.bias, kb.v.bias]))
    mha.out_proj.weight.copy_(kb.o.weight)
    mha.out_proj.bias.copy_(kb.o.bias)
    mha_farq = float((mha(x, x, x)[0] - chiqish_kb).abs().max())
print(f"nn.MultiheadAttention bilan eng katta farq: {mha_farq:.1e}")


# %% tags=["remove-cell"]
from myst_nb import glue

glue("mha_farq", mha_farq, display=False)
glue("d_bosh", dh, display=False)


# %% [markdown]
# Eng katta farq {glue:text}`mha_farq:.0e` — {term}`float32` yaxlitlash xatosi
# darajasi. Demak, `nn.MultiheadAttention` va `KopBoshli` bir xil narsani
# hisoblaydi: {doc}`«Attention mexanizmi» <mexanizm>` darsidagi formulani, faqat boshlarga boʻlish va
# chiqish {term}`proyeksiyasi <proyeksiya>` qoʻshilgan holda.
# Har boshning oʻlchami {glue:text}`d_bosh`; bitta boshli attention bilan
# hisob hajmi deyarli bir xil, lekin endi boshlar har xil narsaga qarashi
# mumkin — buni {doc}`«Yakuniy misol: attention oʻzbekcha sonlarni oʻqiydi» <yakuniy>` darsida oʻqitilgan modelda koʻramiz.
#
# ### Normallashtirish qatlamining joyi: post-LN va pre-LN
#
# Asl Transformer maqolasida {cite:p}`vaswani2017` {term}`LayerNorm`
# {term}`qoldiq ulanishdan <qoldiq ulanish>` (*residual*) **keyin** turadi (*{term}`post-LN <post-LN va pre-LN>`*): `x = norm(x + f(x))`. GPT-2 kabi
# koʻp modellar (Llama ham) uni qismning **oldiga** qoʻyadi
# (*pre-LN*): `x = x + f(norm(x))`. Pre-LNda {term}`qoldiq yoʻli` (*residual
# stream*) normallashtirish qatlamidan oʻtmaydi: kirishdan chiqishgacha toʻsiqsiz yoʻl qoladi
# ({numref}`post_pre_ln`). {cite:t}`xiong2020` pre-LN
# modellarning {term}`oʻrganish tezligini <oʻrganish tezligi>` asta-sekin oshiradigan boshlangʻich {term}`bosqichsiz <bosqich>`
# (*{term}`warm-up`*) ham barqaror oʻqitilishini koʻrsatgan; bu bobda biz buni
# oʻlchamadik.
#
# Llama bundan tashqari uchta narsani boshqacha qiladi. LayerNorm oʻrniga
# {term}`RMSNorm <RMSNorm, SwiGLU>` ishlatadi: u oʻrtachani ayirmaydi, faqat oʻrtacha
# kvadratning ildiziga boʻladi. {term}`Feed-forward <feed-forward tarmoq>` qismida (ikki
# qatlamli {term}`MLP`) SwiGLU ({term}`darvozali <darvoza>`
# faollashtirish funksiyasi) ishlatadi. Pozitsiyalar uchun esa {term}`RoPE` ishlatadi
# (uni {doc}`«Pozitsiyalar uzunroq ketma-ketlikda» <pozitsiyalar>` darsida koʻrdik).

# %%
post = "Post-LN (2017)\nkirish x"
pre = "Pre-LN (GPT-2, Llama)\nkirish x"
# uzun formulalar ikki qatorda: telefonda ham oʻqiladigan shriftda
post1 = "x = LayerNorm(\nx + attention(x))"
post2 = "x = LayerNorm(\nx + FF(x))"
pre1 = "x = x + attention(\nLayerNorm(x))"
pre2 = "x = x + FF(\nLayerNorm(x))"
diagramma(
    {
        post: (0.2, 0.2, 4.0, 0.9, "manba"),
        post1: (0.2, 1.5, 4.0, 0.9, "xizmat"),
        post2: (0.2, 2.8, 4.0, 0.9, "xizmat"),
        "chiqish (post-LN)": (0.2, 4.1, 4.0, 0.6, "qayta"),
        pre: (4.8, 0.2, 4.0, 0.9, "manba"),
        pre1: (4.8, 1.5, 4.0, 0.9, "xizmat"),
        pre2: (4.8, 2.8, 4.0, 0.9, "xizmat"),
        "chiqish (pre-LN)": (4.8, 4.1, 4.0, 0.6, "qayta"),
    },
    [
        (post, post1),
        (post1, post2),
        (post2, "chiqish (post-LN)"),
        (pre, pre1),
        (pre1, pre2),
        (pre2, "chiqish (pre-LN)"),
    ],
    nom="post_pre_ln.png",
    izoh=(
        "Transformer blokining ikki turi (pastdan yuqoriga oʻqiladi)."
        " Chapda asl post-LN: qoldiq yoʻli har qismdan keyin"
        " normallashtirish qatlamidan oʻtadi. Oʻngda pre-LN:"
        " normallashtirish faqat qism kirishida, x + … yoʻli"
        " toʻsiqsiz qoladi."
    ),
)

# %% [markdown]
# Bobdagi `TransformerBlok` — asl post-LN blok, `nn.MultiheadAttention`
# bilan:
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: TransformerBlok
# ```
#
# `Blok` esa pre-LN tuzilishda va oʻzimiz yozgan `KopBoshli` bilan ishlaydi; u kerak boʻlsa
# ikkinchi attentionni ham oladi: {term}`koderga <koder>` qaraydigan **{term}`cross-attention`**
# (*oʻzaro attention*: {term}`soʻrovlar <soʻrov>` shu blokdan, kalit va qiymatlar koder
# chiqishidan olinadi). U {doc}`«Yakuniy misol: attention oʻzbekcha sonlarni oʻqiydi» <yakuniy>` darsida ishlatiladi.
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: Blok
# ```

# %%
blok = TransformerBlok()
namuna = torch.randn(2, 10, 32)
print(f"Kirish : {tuple(namuna.shape)}")
print(
    f"Chiqish: {tuple(blok(namuna).shape)}\n"
    "  (shakl saqlanadi — shuning uchun ustma-ust qoʻyish mumkin)"
)
print(
    f"Parametrlar soni: TransformerBlok {parametrlar(blok)}, "
    f"Blok {parametrlar(Blok(32, 4))}"
)


# %% tags=["remove-cell"]
glue("blok_param", parametrlar(blok), display=False)


# %% [markdown]
# Blok kirish shaklini saqlaydi, shuning uchun uni istalgancha ustma-ust
# qoʻyish mumkin. Bitta blokda {glue:text}`blok_param` ta parametr bor
# (ikkala turda ham bir xil: normallashtirish qatlami faqat joyini oʻzgartiradi); katta til
# modellarida bunday bloklar oʻnlab, *d* esa minglab.
#
# ### Butun arxitektura
#
# GPT kabi {term}`dekoder` modelining toʻliq tuzilishi {numref}`%s-rasmda <arxitektura>`:
# tokenlar indekslarga, indekslar vektorlarga (*{term}`embedding`*) aylanadi, ularga
# {term}`pozitsiya kodlash` qoʻshiladi, soʻng vektorlar *N* ta pre-LN blokdan (har birida {term}`kauzal maska <kauzal (sababiy) maska>`) va oxirgi normallashtirish qatlamidan oʻtadi. Chiziqli qatlam har pozitsiyada lugʻatdagi har
# token uchun {term}`ball` beradi: oxirgi pozitsiyaning ballari keyingi tokenni
# tanlash uchun ishlatiladi.

# %%
qismlar = [
    "tokenlar (lugʻatdagi raqamlari)",
    "embedding + pozitsiya kodlash",
    "N × Blok (pre-LN, kauzal maska)",
    "LayerNorm",
    "chiziqli qatlam → softmax",
    "keyingi token ehtimollari",
]
turlar = ["manba", "xizmat", "qayta", "xizmat", "xizmat", "manba"]
diagramma(
    {
        q: (0.2, 0.2 + 0.8 * i, 4.6, 0.5, t)
        for i, (q, t) in enumerate(zip(qismlar, turlar))
    },
    list(zip(qismlar, qismlar[1:])),
    nom="arxitektura.png",
    izoh=(
        "Dekoder (GPT turidagi) Transformer, pastdan yuqoriga oʻqiladi."
        " Bloklar — yuqoridagi pre-LN blok."
    ),
)

# %% [markdown]
# Shu arxitektura `chapter_code/modellar.py` dagi `KichikGPT` da — bir necha
# qatorda:
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: KichikGPT
# ```

# %% [markdown]
# ## KV kesh: oldingi hisobni saqlab qoʻyish
#
# GPT kabi dekoder matnni tokenma-token yaratadi. Har {term}`qadamda <qadam>` model shu
# paytgacha yozilgan matnni oladi va keyingi token uchun har bir lugʻat
# tokeniga ball hisoblaydi. Bu ballar — **{term}`logitlar <logit>`** (ingl. *logits*,
# {term}`softmaxdan <softmax>` oldingi ballar). Model bitta tokenni tanlaydi, uni matn
# oxiriga qoʻshadi va hammasi yangi token bilan takrorlanadi.
#
# Yangi tokenning soʻrovi har qatlamda oldingi hamma tokenlarning kalitlari
# bilan solishtiriladi va qiymatlaridan {term}`vaznli oʻrtacha` olinadi. Eng oddiy yoʻl — har qadamda butun matnni
# modeldan qayta oʻtkazish. U holda oldingi tokenlarning kalit va qiymatlari
# har qadamda qaytadan hisoblanadi, holbuki ular oʻzgarmaydi.
#
# Nega oʻzgarmaydi? Kauzal maska tufayli *i*-pozitsiya faqat oʻziga va
# oʻzidan oldingilarga qaraydi. Demak, uning har qatlamdagi vektori faqat
# 0-tokendan *i*-tokengacha boʻlgan tokenlarga bogʻliq. Matn oxiriga yangi
# token qoʻshilsa, bu vektor ham, undan olinadigan kalit va qiymat ham
# oʻzgarmaydi. Shuning uchun ularni bir marta hisoblab, saqlab qoʻyish
# mumkin. Bu — **KV kesh** (ingl. *KV cache*, kalit-qiymat keshi; *kesh* —
# qayta ishlatish uchun saqlab qoʻyilgan natijalar).
#
# Kesh bilan har qadamda
# modeldan faqat yangi token oʻtadi: uning *q*, *k*, *v* vektorlari
# hisoblanadi, *k* va *v* keshga qoʻshiladi, *q* esa keshdagi hamma
# kalitlarga qaraydi. Maskasiz koderda (BERT kabi) bunday qilib boʻlmaydi:
# u yerda oldingi pozitsiyalar ham yangi tokenga qaraydi, ularning birinchi
# qatlam chiqishi oʻzgaradi, demak, ikkinchi qatlamdan boshlab kalit va
# qiymatlari ham oʻzgaradi.

# %% [markdown]
# `KopBoshli` sinfimizda kesh — bitta `dict` (Pythonning nom boʻyicha
# olinadigan yozuvlar toʻplami). Unda
# kalitlar (`"k"`) va {term}`qiymatlar <qiymat>` (`"v"`) tenzorlari (namuna, bosh, *T*,
# bosh oʻlchami) shaklida turadi. `KopBoshli.forward` yangi kalit va qiymatlarni
# `kesh_qosh` ga beradi, u ularni `torch.cat` bilan oxiriga qoʻshadi va
# kesh koʻrgan tokenlarni sanaydi (`"soni"`). `"oyna"` qatori {term}`siljuvchi oyna attention`
# (ingl. *sliding-window attention*) uchun; uni {doc}`«Yakuniy misol: attention oʻzbekcha sonlarni oʻqiydi» <yakuniy>` darsida koʻramiz.
# Funksiyaning ikkinchi yarmini (oldindan ajratilgan kesh) keyinroq koʻramiz:
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: kesh_qosh
# :start-at: if "bufer_k" not in kesh
# :end-before: oldindan ajratilgan bufer: dastlabki
# :dedent:
# ```
#
# `KichikGPT` har blokka bittadan `dict` oladi. Yangi tokenlarning
# pozitsiyalari (`oldin`) kesh koʻrgan tokenlar sonidan boshlanadi, maska esa yangi
# soʻrovlarga keshdagi hamma kalitni, oʻzini va oʻzidan oldingi yangi
# tokenlarni koʻrsatadi. Ikkalasini `kesh_boshi` hisoblaydi:
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: kesh_boshi
# ```
#
# Avval ikki yoʻl bir xil natija berishini tekshiramiz. Model oʻqitilmagan,
# parametrlari tasodifiy. Bu yerda shu yetarli: biz matnning sifatini emas,
# ikki yoʻlning tengligini va vaqtini oʻlchaymiz. Tenglik har qanday
# parametrlarda kauzal maskadan kelib chiqadi, vaqt esa faqat oʻlchamlarga
# (qatlamlar soni, *d*, tokenlar soni) bogʻliq. Har qadamda eng katta logitli
# tokenni olamiz — bu **{term}`ochkoʻz tanlash`** (ingl. *greedy decoding*).
# {term}`Boshlangʻich matn <boshlangʻich matn>` (ingl. *prompt*) — {glue:text}`kv_boshi` ta tasodifiy
# token; undan keyin {glue:text}`kv_N` ta yangi token yaratamiz.
#
# Birinchi yoʻl — keshsiz: har qadamda butun matn modeldan oʻtadi.

# %%
torch.manual_seed(0)
LUGAT = 100  # lugʻatdagi tokenlar soni
# oʻqitilmagan
gpt = KichikGPT(LUGAT, d=64, boshlar=4, qatlamlar=2).eval()
# boshlangʻich matn (prompt): 8 ta token
boshi = torch.randint(LUGAT, (1, 8))
# nechta yangi token yaratamiz
N_YANGI = 40

idx_a, logitlar_a = boshi, []
with torch.no_grad():
    for _ in range(N_YANGI):
        # (1, T, lugʻat) -> (1, lugʻat)
        logit = gpt(idx_a)[:, -1]
        logitlar_a.append(logit)
        # (1, 1): eng katta logitli token
        yangi = logit.argmax(dim=-1, keepdim=True)
        # (1, T) -> (1, T + 1)
        idx_a = torch.cat([idx_a, yangi], dim=1)

# %% [markdown]
# Ikkinchi yoʻl — KV kesh bilan. Birinchi qadamda modelga butun
# boshlangʻich matn kiradi va kesh toʻladi; keyingi qadamlarda faqat oxirgi
# tanlangan token kiradi.

# %%
# har blokka bitta boʻsh dict
keshlar = [{} for _ in gpt.bloklar]
idx_b, logitlar_b, kirish = boshi, [], boshi
with torch.no_grad():
    for _ in range(N_YANGI):
        # (1, kirish uzunligi, lugʻat) -> (1, lugʻat)
        logit = gpt(kirish, keshlar)[:, -1]
        logitlar_b.append(logit)
        # (1, 1): keyingi qadamda faqat shu
        kirish = logit.argmax(dim=-1, keepdim=True)
        idx_b = torch.cat([idx_b, kirish], dim=1)


# %% [markdown]
# Ikki yoʻlni solishtiramiz: har qadamdagi logitlar va tanlangan tokenlar.

# %%
# ikkala roʻyxatda N_YANGI ta (1, lugʻat) logit: har qadamda bittadan
logit_farq = (
    (torch.cat(logitlar_a) - torch.cat(logitlar_b)).abs().max().item()
)
# nechta token farq qildi
farqli = int((idx_a != idx_b).sum())
print(f"logitlarning eng katta farqi: {logit_farq:.1e}")
print(f"farq qilgan tokenlar: {farqli} / {N_YANGI}")
print("yaratilgan tokenlar:")
print(idx_b[0, boshi.shape[1] :].numpy())
print(
    "birinchi blok keshi, k:",
    tuple(keshlar[0]["k"].shape),
    "(namuna, bosh, T, bosh oʻlchami)",
)


# %% tags=["remove-cell"]
glue("kv_N", N_YANGI, display=False)
glue("kv_boshi", boshi.shape[1], display=False)
glue("kv_farq", logit_farq, display=False)
glue("kv_farqli", farqli, display=False)
glue(
    "kv_tokenlar_jumla",
    (
        f"Ikkala yoʻl {N_YANGI} ta yangi tokenning hammasini aynan bir"
        " xil tanladi."
        if farqli == 0
        else (
            f"Ikki yoʻl {N_YANGI} ta yangi tokendan {farqli} tasida"
            " farq qildi."
        )
    ),
    display=False,
)


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
# oʻlchov — `torch.utils.benchmark` bilan koʻp takrorning {term}`medianasi <mediana>`,
# bitta {term}`oqimda <oqim>` (ingl. *thread*).
#
# Bir nozik joy bor: kesh har chaqiruvda oʻsadi. Bitta keshni takrordan
# takrorga ishlatsak, har takror avvalgisidan uzunroq keshdan boshlanardi.
# Shuning uchun keshni oʻlchovdan oldin tayyorlaymiz (`tayyor`) va har
# takrorda yangi `dict` obyektlari yaratamiz: `dict(k)` — yangi `dict`, u tayyor
# tenzorlarga ishora qiladi, `torch.cat` esa yangi tenzor yaratadi. Tayyor
# kesh oʻzgarmaydi, har takror bir xil ishni bajaradi — kod buni `assert`
# bilan tekshiradi.
#
# Jadvalda vaqtdan tashqari yana ikki xil ustun bor. {term}`MAC` — bitta qadamdagi
# koʻpaytirish-qoʻshishlar (ingl. *multiply-accumulate*) soni, yaʼni qadam
# bajaradigan hisob hajmi (faqat matritsa koʻpaytmalari). «Eng katta farq» —
# oʻlchangan ikki yoʻl bergan logitlarning farqi: ikkalasi aynan bir xil
# narsani hisoblaydi.

# %%
# narx darsidagi vaqt oʻlchovlari kabi
torch.set_flush_denormal(True)


def mac_keshsiz(
    T, d=gpt.emb.embedding_dim, L=len(gpt.bloklar), lugat=LUGAT
):
    # har qatlamda: T ta pozitsiyaning q, k, v, o (4·d·d) va
    # feed-forward (8·d·d), T × T ballar va ogʻirlik·v (2·T·T·d);
    # oxirida T ta pozitsiyaning logitlari
    return L * (12 * d * d * T + 2 * T * T * d) + T * d * lugat


def mac_kesh(
    T, d=gpt.emb.embedding_dim, L=len(gpt.bloklar), lugat=LUGAT
):
    # har qatlamda: bitta tokenning q, k, v, o va feed-forward, T
    # ta kalitga attention
    return L * (12 * d * d + 2 * T * d) + d * lugat


print(f"torch {torch.__version__}, 1 oqim, protsessor: {protsessor()}")

# %%
torch.manual_seed(1)
# vaqt tokenlarning qiymatiga bogʻliq emas
matn = torch.randint(LUGAT, (1, 1024))
kv_vaqt, eng_katta_farq = [], 0.0
with torch.no_grad():
    for Tx in [128, 256, 512, 1024]:
        idx = matn[:, :Tx]  # (1, T)
        keshsiz_ms = mediana_ms("gpt(idx)", iplar=1, gpt=gpt, idx=idx)
        tayyor = [{} for _ in gpt.bloklar]
        gpt(idx[:, :-1], tayyor)  # keshda T − 1 ta token
        # har takrorda yangi dict obyektlari, ular tayyor tenzorlarga
        # ishora qiladi
        kesh_ms = mediana_ms(
            "gpt(idx[:, -1:], [dict(k) for k in tayyor])",
            iplar=1,
            gpt=gpt,
            idx=idx,
            tayyor=tayyor,
        )
        # tayyor kesh oʻsmadi
        assert tayyor[0]["k"].shape[2] == Tx - 1
        # ikki yoʻl bir xil logit beradimi: (1, lugʻat) va (1, lugʻat)
        yangi_logit = gpt(idx[:, -1:], [dict(k) for k in tayyor])[:, -1]
        farq_T = (gpt(idx)[:, -1] - yangi_logit).abs().max().item()
        eng_katta_farq = max(eng_katta_farq, farq_T)
        kv_vaqt.append(
            {
                "T": Tx,
                "keshsiz (ms)": keshsiz_ms,
                "kesh bilan (ms)": kesh_ms,
                "nisbat": keshsiz_ms / kesh_ms,
                "MAC keshsiz": mac_keshsiz(Tx),
                "MAC kesh bilan": mac_kesh(Tx),
                "eng katta farq": son(farq_T, ".1e"),
            }
        )
kv = pd.DataFrame(kv_vaqt)
mln = {
    "MAC keshsiz": "MAC keshsiz (mln)",
    "MAC kesh bilan": "MAC kesh bilan (mln)",
}
show(
    kv.assign(**{u: kv[u] / 1e6 for u in mln})
    .rename(columns=mln)
    .round(
        {
            "keshsiz (ms)": 3,
            "kesh bilan (ms)": 3,
            "nisbat": 1,
            "MAC keshsiz (mln)": 2,
            "MAC kesh bilan (mln)": 2,
        }
    ),
    izoh=(
        "Matnda T ta token boʻlganda keyingi token logitlari: keshsiz"
        " (T ta token qayta hisoblanadi) va KV kesh bilan (faqat yangi"
        " token). Vaqt — bitta oqimda, mediana; nisbat — keshsiz vaqt /"
        " kesh bilan vaqt; MAC — bitta qadamning matritsa"
        " koʻpaytmalari, million hisobida; eng katta farq — ikki yoʻl"
        " logitlarining farqi."
    ),
    nom="kv_vaqt_jadval",
)

# %%
rasm, b1 = plt.subplots(figsize=(5.6, 3.8))
b1.plot(kv["T"], kv["keshsiz (ms)"], "o-", label="keshsiz")
b1.plot(kv["T"], kv["kesh bilan (ms)"], "s--", label="KV kesh bilan")
b1.set_xscale("log", base=2)
b1.set_yscale("log")
b1.set_xticks(kv["T"], kv["T"].astype(str))
b1.set_xlabel("matndagi tokenlar, T")
b1.set_ylabel("bitta token vaqti (ms)")
b1.grid(True, which="both", alpha=0.3)
b1.legend()
plt.tight_layout()
fig(
    "kv_kesh_vaqt.png",
    caption=(
        "Keyingi tokenni yaratish vaqti matn uzunligiga qarab, log-log"
        f" oʻqlarda (oʻqitilmagan KichikGPT, {len(gpt.bloklar)} qatlam,"
        f" d = {gpt.emb.embedding_dim}, bitta oqim)."
    ),
)


# %%
# T eng kichik boʻlgan qator
eng_kichik = kv.set_index("T").loc[kv["T"].min()]
# T eng katta boʻlgan qator
eng_katta = kv.set_index("T").loc[kv["T"].max()]
# log-log oʻqlardagi qiyalik: eng kichik kvadratlar toʻgʻri chizigʻi,
# hamma T orqali
kv_qiyalik = {
    ustun: float(np.polyfit(np.log2(kv["T"]), np.log2(kv[ustun]), 1)[0])
    for ustun in ["keshsiz (ms)", "kesh bilan (ms)"]
}
# oxirgi ikki nuqta orasidagi qiyalik (chiziq egilganmi?)
oxirgi_ikki = kv.sort_values("T").tail(2)
q_oxir = float(
    np.diff(np.log2(oxirgi_ikki["keshsiz (ms)"].values))[0]
    / np.diff(np.log2(oxirgi_ikki["T"].values))[0]
)
# MAC ustunining oʻsha oraliqdagi qiyaligi: hisob qanchalik tez oʻsadi
q_mac = float(
    np.diff(np.log2(oxirgi_ikki["MAC keshsiz"].values.astype(float)))[0]
    / np.diff(np.log2(oxirgi_ikki["T"].values))[0]
)


# %% tags=["remove-cell"]
def osish_sozi(q):
    # log-log qiyalikni soʻz bilan aytish
    for chegara, soz in [
        (0.5, "deyarli oʻzgarmadi"),
        (0.85, "chiziqlidan sekin oʻsdi"),
        (1.15, "taxminan chiziqli oʻsdi"),
        (1.85, "chiziqlidan tez, kvadratikdan sekin oʻsdi"),
        (2.15, "taxminan kvadratik oʻsdi"),
    ]:
        if q < chegara:
            return soz
    return "kvadratikdan ham tez oʻsdi"


for ustun, qisqa in [
    ("keshsiz (ms)", "keshsiz"),
    ("kesh bilan (ms)", "kesh"),
]:
    glue(f"kv_qiyalik_{qisqa}", kv_qiyalik[ustun], display=False)
    glue(
        f"kv_qiyalik_{qisqa}_soz",
        osish_sozi(kv_qiyalik[ustun]),
        display=False,
    )
    glue(f"kv_ms_{qisqa}", float(eng_katta[ustun]), display=False)
glue("kv_T_oxirgi_oldi", int(oxirgi_ikki["T"].iloc[0]), display=False)
glue("kv_qiyalik_keshsiz_oxir", q_oxir, display=False)
glue("kv_mac_qiyalik_oxir", q_mac, display=False)
glue(
    "kv_egilish_gap",
    (
        "bu MAC ustunining shu oraliqdagi qiyaligidan"
        f" ({son(q_mac, '.2f')}) katta: vaqt hisobdan tezroq oʻsadi."
        " Ehtimol, sababi MACga kirmagan T × T tenzorlardagi amallar"
        " (maska, softmax, boʻlish): katta T da bu tenzorlar"
        " protsessor keshiga sigʻmaydi (buni alohida oʻlchamadik)"
        if q_oxir > q_mac + 0.2
        else (
            "bu MAC ustunining shu oraliqdagi qiyaligiga"
            f" ({son(q_mac, '.2f')}) yaqin: vaqt hisob bilan birga"
            " oʻsadi"
        )
    ),
    display=False,
)
glue("kv_T_kichik", int(kv["T"].min()), display=False)
glue("kv_T_katta", int(kv["T"].max()), display=False)
glue("kv_nisbat", float(eng_katta["nisbat"]), display=False)
glue(
    "kv_mac_nisbat",
    float(eng_katta["MAC keshsiz"] / eng_katta["MAC kesh bilan"]),
    display=False,
)
glue(
    "kv_mac_osish_kesh",
    float(eng_katta["MAC kesh bilan"] / eng_kichik["MAC kesh bilan"]),
    display=False,
)
glue(
    "kv_ms_kesh_kichik",
    float(eng_kichik["kesh bilan (ms)"]),
    display=False,
)
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
# :::{admonition} Chuqurroq: vaqt *T* bilan qanday oʻsadi
# :class: dropdown
#
# Chiziqlarning {term}`qiyaligini <qiyalik>` log-log oʻqlarda hamma nuqta orqali oʻtkazilgan
# eng yaqin chiziqdan (eng kichik kvadratlar usuli) oʻlchadik:
# qiyalik 1 — *T* ga, 2 — *T*² ga proporsional oʻsish. Keshsiz yoʻlda model
# *T* ta pozitsiyaning har birida chiziqli qatlamlarni hisoblaydi (*T* ga
# chiziqli) va $T \times T$ ballar matritsasini hosil qiladi (*T*² ga). Agar
# vaqt hisob hajmiga proporsional boʻlsa, qiyalik 1 bilan 2
# orasida boʻlishi kutiladi. Oʻlchangan qiyalik
# {glue:text}`kv_qiyalik_keshsiz:.2f`: vaqt {glue:text}`kv_qiyalik_keshsiz_soz`.
#
# Oxirgi ikki nuqta orasida (*T* = {glue:text}`kv_T_oxirgi_oldi` →
# {glue:text}`kv_T_katta`) qiyalik {glue:text}`kv_qiyalik_keshsiz_oxir:.2f`;
# {glue:text}`kv_egilish_gap`. Kesh bilan vaqt juda kichik va
# shovqinli, shuning uchun uning qiyaligi
# ({glue:text}`kv_qiyalik_kesh:.2f`) {term}`nashrdan <nashr>` nashrga sezilarli
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
# farqlar nashrdan nashrga oʻzgaradi).
# :::
#
# MAC ustuniga koʻra keshsiz qadam kesh bilan
# qadamdan aynan *T* marta koʻp hisob qiladi: *T* ta pozitsiyaning har biri
# uchun xuddi shu ishni bajaradi (*T* = {glue:text}`kv_T_katta` da
# {glue:text}`kv_mac_nisbat:.0f` marta). Vaqt boʻyicha esa kesh atigi
# {glue:text}`kv_nisbat:.0f` marta tezroq.
#
# Sabab — hisobning hajmi emas. Bitta token uchun matritsalar juda kichik,
# vaqtning katta qismini esa har bir amalning oʻlchamga bogʻliq boʻlmagan
# doimiy narxi oladi (Python va PyTorch chaqiruvlari). Bitta qadamda bunday
# amallar oʻnlab. Katta modelda manzara boshqacha — buni keyingi
# qismda oʻlchaymiz.
#
# Bu — bitta token narxi. *N* ta token yaratish uchun shu qadamlar *N*
# marta takrorlanadi va matn har qadamda uzayadi. Keshsiz yoʻlda har qadam
# butun matnni qayta hisoblagani uchun umumiy ish *N* ga kamida kvadratik
# oʻsadi; kesh bilan esa har bir qadam arzon qoladi.

# %% [markdown]
# ### Katta modelda: xotira chegarasi
#
# Kesh bilan bitta qadam nima qiladi? Har qatlamda yangi tokenning vektori
# hamma parametr matritsalariga koʻpaytiriladi: har bir parametr xotiradan bir
# marta oʻqiladi va bitta koʻpaytirish-qoʻshishda ishlatiladi. Keyin soʻrov
# keshdagi hamma kalit va qiymatlarga qaraydi: ular ham bir marta
# oʻqiladi. Demak, qadam hisobga nisbatan juda koʻp bayt oʻqiydi: float32da
# har 4 baytga bitta MAC. Protsessor esa sonlarni xotiradan olib kelishdan
# ancha tezroq koʻpaytira oladi. Shuning uchun katta modelda qadamni hisob
# emas, **{term}`xotira oʻtkazuvchanligi`** (ingl. *memory bandwidth* — bir
# soniyada xotiradan oʻqiladigan baytlar) cheklaydi: qadam xotira bilan
# cheklangan (ingl. *memory-bound*). U kamida
#
# $$
# \text{chegara} = \frac{\text{parametrlar baytlari} + \text{kesh baytlari}}
# {\text{oʻtkazuvchanlik}}
# $$
#
# vaqt oladi.
#
# Oʻtkazuvchanlikni nashr tayyorlanayotgan mashinaning oʻzida, oddiy nusxalash bilan
# oʻlchaymiz: 64 {term}`MiB <KiB, MiB, GiB>` hajmli tenzorni boshqasiga koʻchiramiz. Bu hajm
# protsessorning tezkor xotirasiga — keshiga — sigʻmaydi (bu KV kesh emas,
# protsessorning oʻz xotirasi), demak, sonlar asosiy xotiradan keladi. Nusxalashda
# har bir bayt bir marta oʻqiladi va bir marta yoziladi, shuning uchun
# oʻtkazuvchanlik — 2 × 64 MiB / vaqt. Xotira oʻtkazuvchanligini oʻlchaydigan
# standart test — STREAM {cite:p}`mccalpin1995` — ham nusxalashni shunday sanaydi.
#
# Model — {glue:text}`bw_d` oʻlchamli, {glue:text}`bw_L` qatlamli, parametrlari
# {glue:text}`bw_vazn_mib:.0f` MiB boʻlgan oʻqitilmagan `KichikGPT`. Keshda
# *T* − 1 ta token turadi, vaqt — keyingi bitta token uchun. Keshni modeldan
# matn oʻtkazib toʻldirish shart emas: vaqt keshdagi sonlarga bogʻliq emas,
# shuning uchun uni tasodifiy sonlar bilan toʻldiramiz.
#
# Ikkinchi savol — `torch.cat`. U har qadamda butun keshni yangi tenzorga
# koʻchiradi: eski keshni oʻqiydi va yangisiga yozadi, yaʼni qadamga yana
# ikki marta kesh hajmicha xotira ishi qoʻshiladi. llama.cpp kabi
# dasturlarda kesh uchun joy oldindan ajratiladi va yangi kalitlar boʻsh
# joyga yoziladi. `kesh_qosh` ning ikkinchi yarmi shunday qiladi,
# `oldindan_kesh` esa shunday keshlarni yaratadi:
#
# ```{literalinclude} ../../chapter_code/modellar.py
# :pyobject: kesh_qosh
# :start-at: oldindan ajratilgan bufer: dastlabki
# :dedent:
# ```
#
# Ikkala keshni bir xil sonlar bilan toʻldirib, bir xil token uchun vaqtni
# oʻlchaymiz.

# %%
torch.manual_seed(2)
katta = KichikGPT(LUGAT, d=512, boshlar=8, qatlamlar=4, T_max=4096)
katta = katta.eval()
L_k, d_k = len(katta.bloklar), katta.emb.embedding_dim
h_k = katta.bloklar[0].attn.boshlar


def bayt(t):
    return t.nelement() * t.element_size()


# bitta qadam hamma vaznni oʻqiydi, embedding jadvalidan esa bitta
# qatorni
vazn_bayt = sum(bayt(p) for p in katta.parameters())
vazn_bayt -= bayt(katta.emb.weight[1:])

# oʻtkazuvchanlik: 64 MiB ni nusxalash, bitta oqimda
asl_t = torch.ones(2**24)
nusxa_t = torch.empty_like(asl_t)
nusxa_ms = mediana_ms(
    "nusxa_t.copy_(asl_t)", iplar=1, nusxa_t=nusxa_t, asl_t=asl_t
)
# bayt/s: har bayt bir marta oʻqiladi, bir marta yoziladi
otkaz = 2 * bayt(asl_t) / (nusxa_ms / 1000)

tok = torch.tensor([[7]])  # yangi token
bw_qatorlar, bw_farq = [], 0.0
with torch.no_grad():
    for Tx in [256, 1024, 2048, 4096]:
        # keshdagi T − 1 token: tasodifiy kalit va qiymatlar
        shakl = (1, h_k, Tx - 1, d_k // h_k)
        kv_t = [
            (torch.randn(shakl), torch.randn(shakl)) for _ in range(L_k)
        ]
        osuvchi = [{} for _ in range(L_k)]
        oldindan = oldindan_kesh(katta.bloklar, 1, Tx)
        for i, (k, v) in enumerate(kv_t):
            kesh_qosh(osuvchi[i], k, v)
            kesh_qosh(oldindan[i], k, v)  # bufer ichiga
        vaqt = {}
        turlar = [("cat", osuvchi), ("oldindan", oldindan)]
        for nom, keshlar_x in turlar:
            # har takror oʻz nusxasi bilan: tayyor kesh oʻzgarmaydi
            vaqt[nom] = mediana_ms(
                "katta(tok, [dict(k) for k in keshlar_x])",
                iplar=1,
                katta=katta,
                tok=tok,
                keshlar_x=keshlar_x,
            )
        a_ = katta(tok, [dict(k) for k in osuvchi])
        b_ = katta(tok, [dict(k) for k in oldindan])
        bw_farq = max(bw_farq, (a_ - b_).abs().max().item())
        # oʻqiladigan baytlar: parametrlar va T token keshi
        oqiladi = vazn_bayt + 2 * L_k * Tx * d_k * 4
        bw_qatorlar.append(
            {
                "T": Tx,
                "oʻqiladi (MiB)": oqiladi / 2**20,
                "chegara (ms)": oqiladi / otkaz * 1000,
                "oldindan (ms)": vaqt["oldindan"],
                "torch.cat (ms)": vaqt["cat"],
                "GB/s": oqiladi / vaqt["oldindan"] / 1e6,
            }
        )
    # taqqoslash uchun: shu model T = 256 tokenni birdaniga oʻqiydi
    idx_k = torch.randint(LUGAT, (1, 256))
    toliq_ms = mediana_ms(
        "katta(idx_k)", iplar=1, katta=katta, idx_k=idx_k
    )
bw = pd.DataFrame(bw_qatorlar)
show(
    bw.round(
        {
            "oʻqiladi (MiB)": 1,
            "chegara (ms)": 2,
            "oldindan (ms)": 2,
            "torch.cat (ms)": 2,
            "GB/s": 1,
        }
    ),
    izoh=(
        f"d = {d_k}, {L_k} qatlamli model, kesh bilan bitta token:"
        " qadam oʻqiydigan baytlar (parametrlar va kesh), xotira"
        " chegarasi (baytlar / nusxalash oʻtkazuvchanligi), oldindan"
        " ajratilgan va torch.cat bilan uzayadigan keshdagi vaqt"
        " (bitta oqim, mediana) va oldindan ajratilgan keshda"
        " erishilgan oʻqish tezligi (GB — 10⁹ bayt)."
    ),
    nom="kv_xotira_jadval",
)

# %%
rasm, b1 = plt.subplots(figsize=(5.6, 3.8))
b1.plot(bw["T"], bw["torch.cat (ms)"], "s--", label="torch.cat")
b1.plot(bw["T"], bw["oldindan (ms)"], "o-", label="oldindan ajratilgan")
b1.plot(bw["T"], bw["chegara (ms)"], ":", color="0.4",
        label="xotira chegarasi")
# chiziqli oʻqlar: baytlar T ga chiziqli oʻsadi
b1.set_xticks(bw["T"], bw["T"].astype(str))
b1.set_ylim(bottom=0)
b1.set_xlabel("keshdagi tokenlar, T")
b1.set_ylabel("bitta token vaqti (ms)")
b1.grid(True, alpha=0.3)
b1.legend()
plt.tight_layout()
fig(
    "kv_xotira_chegarasi.png",
    caption=(
        f"d = {d_k}, {L_k} qatlam: kesh bilan bitta token vaqti va"
        " xotira chegarasi (oʻqiladigan baytlar / oʻlchangan"
        " oʻtkazuvchanlik)."
    ),
)


# %% tags=["remove-cell"]
oxirgi = bw.iloc[-1]
birinchi = bw.iloc[0]
bw_gmac_kesh = (
    mac_kesh(int(oxirgi["T"]), d=d_k, L=L_k) / oxirgi["oldindan (ms)"] / 1e6
)
bw_gmac_toliq = mac_keshsiz(256, d=d_k, L=L_k) / toliq_ms / 1e6
bw_ulush = float(oxirgi["chegara (ms)"] / oxirgi["oldindan (ms)"])
bw_cat_marta = float(oxirgi["torch.cat (ms)"] / oxirgi["oldindan (ms)"])
# kichik model (d = 64), T eng katta: oʻqiladigan baytlar va chegara
kichik_bayt = sum(bayt(p) for p in gpt.parameters())
kichik_bayt -= bayt(gpt.emb.weight[1:])
kichik_bayt += 2 * len(gpt.bloklar) * kv["T"].max() * gpt.emb.embedding_dim * 4
kichik_chegara = kichik_bayt / otkaz * 1000
glue("bw_d", d_k, display=False)
glue("bw_L", L_k, display=False)
glue("bw_vazn_mib", vazn_bayt / 2**20, display=False)
glue("bw_gbs", otkaz / 1e9, display=False)
glue("bw_T", int(oxirgi["T"]), display=False)
glue("bw_ms", float(oxirgi["oldindan (ms)"]), display=False)
glue("bw_chegara_ms", float(oxirgi["chegara (ms)"]), display=False)
glue("bw_ulush", bw_ulush, display=False)
glue(
    "bw_ulush_gap",
    (
        "qadam oʻtkazuvchanlikning"
        f" {son(bw_ulush, '.0%')} qismida ishlaydi"
        if bw_ulush <= 1
        else "qadam nusxalash koʻrsatgan chegaradan ham tezroq: faqat"
        " oʻqish nusxalashdan (oʻqish va yozishdan) tezroq boʻlishi mumkin"
    ),
    display=False,
)
glue("bw_oqish_min", float(bw["GB/s"].min()), display=False)
glue("bw_oqish_max", float(bw["GB/s"].max()), display=False)
glue(
    "bw_bayt_osish",
    float(oxirgi["oʻqiladi (MiB)"] / birinchi["oʻqiladi (MiB)"]),
    display=False,
)
glue(
    "bw_vaqt_osish",
    float(oxirgi["oldindan (ms)"] / birinchi["oldindan (ms)"]),
    display=False,
)
oqish_tebranish = float(bw["GB/s"].max() / bw["GB/s"].min())
glue(
    "bw_ergash_gap",
    (
        "vaqt baytlarga ergashadi — qadam baytlarni deyarli doimiy"
        " tezlikda oʻqiydi"
        if oqish_tebranish <= 1.3
        else "oʻqish tezligi T bilan sezilarli oʻzgardi: vaqtni faqat"
        " baytlar belgilamaydi"
    ),
    display=False,
)
glue(
    "bw_hisob_gap",
    (
        "qadamda protsessor koʻp vaqt sonlarni kutadi. Vaqt esa"
        " baytlarga ergashadi. Ikkalasi birga token yaratish sikli"
        " hisob bilan emas, xotira bilan cheklanganini koʻrsatadi"
        if bw_gmac_toliq / bw_gmac_kesh > 3 and oqish_tebranish <= 1.3
        else (
            "qadam protsessorning hisob kuchidan kam foydalanadi, lekin"
            " vaqt baytlarga aniq ergashmagani uchun bu oʻlchov uni"
            " xotira bilan cheklangan deyishga yetmaydi: chaqiruvlar ham"
            " vaqt olishi mumkin"
            if bw_gmac_toliq / bw_gmac_kesh > 3
            else "farq kichik, bu oʻlchovda qadamni hisob ham cheklaydi"
        )
    ),
    display=False,
)
glue("bw_gmac_kesh", float(bw_gmac_kesh), display=False)
glue("bw_gmac_toliq", float(bw_gmac_toliq), display=False)
glue(
    "bw_gmac_marta", float(bw_gmac_toliq / bw_gmac_kesh), display=False
)
glue("bw_cat_ms", float(oxirgi["torch.cat (ms)"]), display=False)
glue("bw_cat_marta", bw_cat_marta, display=False)
glue(
    "bw_cat_gap",
    (
        f"{son(bw_cat_marta, '.1f')} marta sekinroq: ortiqcha koʻchirish"
        " qadam vaqtining katta qismini egallagan"
        if bw_cat_marta > 1.2
        else "ikki kesh orasidagi farq oʻlchov shovqinidan katta emas"
    ),
    display=False,
)
glue("bw_farq", bw_farq, display=False)
glue("bw_kichik_chegara_ms", float(kichik_chegara), display=False)
glue(
    "bw_kichik_marta",
    float(eng_katta["kesh bilan (ms)"] / kichik_chegara),
    display=False,
)


# %% [markdown]
# Natijalar {numref}`%s-jadvalda <kv_xotira_jadval>` va
# {numref}`%s-rasmda <kv_xotira_chegarasi>`. Nusxalash bitta oqimda
# {glue:text}`bw_gbs:.1f` GB/s berdi (GB — 10⁹ bayt). Uchta kuzatuv:
#
# 1. **Vaqt va baytlar.** *T* oʻsganda qadam oʻqiydigan baytlar
#    {glue:text}`bw_bayt_osish:.1f` marta, vaqt
#    {glue:text}`bw_vaqt_osish:.1f` marta oʻsdi; erishilgan oʻqish tezligi
#    hamma *T* da
#    {glue:text}`bw_oqish_min:.1f`–{glue:text}`bw_oqish_max:.1f` GB/s oraligʻida boʻldi:
#    {glue:text}`bw_ergash_gap`. *T* =
#    {glue:text}`bw_T` da qadam {glue:text}`bw_ms:.2f` ms oldi, chegara esa
#    {glue:text}`bw_chegara_ms:.2f` ms: {glue:text}`bw_ulush_gap`. Bu
#    chegara — nusxalash tezligi; qadamdagi matritsani vektorga
#    koʻpaytirish xotirani nusxalashdan sekinroq oʻqishi mumkin, shuning
#    uchun qadam chegaraga yetmasa, qolgan vaqt boshqa ishga ketgan
#    degani emas.
# 2. **Hisob tezligi.** Shu *T* da kesh bilan qadam soniyasiga
#    {glue:text}`bw_gmac_kesh:.1f` mlrd MAC bajardi, xuddi shu model
#    256 tokenni birdaniga oʻqiganda esa {glue:text}`bw_gmac_toliq:.1f`
#    mlrd MAC — {glue:text}`bw_gmac_marta:.0f` marta koʻp. Bir xil
#    protsessor, bir xil parametrlar: {glue:text}`bw_hisob_gap`.
# 3. **`torch.cat`.** *T* = {glue:text}`bw_T` da torch.cat bilan
#    qadam {glue:text}`bw_cat_ms:.2f` ms oldi — {glue:text}`bw_cat_gap`.
#    Ikki kesh bergan logitlarning eng katta farqi
#    {glue:text}`bw_farq:.1e`.
#
# Yuqoridagi kichik model (*d* = 64) uchun xuddi shu chegara *T* =
# {glue:text}`kv_T_katta` da {glue:text}`bw_kichik_chegara_ms:.3f` ms,
# oʻlchangan vaqt esa undan {glue:text}`bw_kichik_marta:.0f` marta koʻp. U
# yerda vaqtni xotira emas, chaqiruvlar oladi (uning parametrlari va KV keshi
# protsessor keshiga sigʻadi, shuning uchun haqiqiy chegara bundan ham
# past). Katta modellarni tez ishlatish usullarining koʻpi — kesh va
# parametrlarni kichraytirish ({term}`GQA <guruhli soʻrov attention (GQA)>` — kalit/qiymat boshlari kamaytirilgan attention, quyida; 16 va 8 bitli sonlar) — shundan kelib
# chiqadi: oʻqiladigan bayt qancha kam boʻlsa, token shuncha tez.

# %% [markdown]
# ### Kesh qancha joy egallaydi
#
# Kesh tekin emas: u xotirada turadi. Har qatlamda har bir token uchun
# bitta kalit va bitta {term}`qiymat` vektori saqlanadi. Har biri $n_{kv}$ ta
# boshda $d_{\text{bosh}}$ tadan son. Demak,
#
# $$
# \text{kesh hajmi} = 2 \cdot L \cdot T \cdot n_{kv} \cdot d_{\text{bosh}} \cdot b,
# $$
#
# bu yerda 2 — kalit va qiymat, *L* — qatlamlar soni, *T* — keshdagi
# tokenlar soni, $n_{kv}$ — kalit/qiymat boshlari soni, $d_{\text{bosh}}$ —
# bitta boshning oʻlchami, *b* — bitta sonning bayt hajmi (float32da 4,
# {term}`bfloat16da <bfloat16>` 2; bfloat16 — 16 bitli suzuvchi vergulli son formati). Kesh *T* ga
# chiziqli oʻsadi: matn qancha uzun boʻlsa, kesh shuncha katta.
#
# Katta modellarda kesh xotiraning asosiy isteʼmolchilaridan biriga
# aylanadi. Shuning uchun Llama 3 kabi modellar **guruhli soʻrov
# attention** (ingl. *grouped-query attention*, GQA; {cite:alp}`ainslie2023`) ishlatadi: soʻrov
# boshlari koʻp, kalit/qiymat boshlari esa kam. Bir guruhdagi bir nechta
# soʻrov boshi bitta kalit/qiymat boshini birgalikda ishlatadi, keshda esa
# faqat kalit/qiymat boshlari saqlanadi.
#
# Formulani ikki modelda hisoblaymiz: bobdagi `KichikGPT` va Llama 3 8B
# ({cite:alp}`llama3`; qiymatlar Meta eʼlon qilgan `config.json` dan). `KichikGPT` uchun
# formulani yuqorida tokenlar yaratilgandan keyin `keshlar` da turgan haqiqiy
# tenzorlar baytlari bilan ham solishtiramiz. KiB — $2^{10}$, MiB — $2^{20}$,
# GiB — $2^{30}$ bayt.


# %%
def kesh_bayt(L, T, n_kv, d_bosh, b):
    # har qatlamda 2 ta tenzor (kalitlar va qiymatlar), har biri T
    # × n_kv × d_bosh son
    return 2 * L * T * n_kv * d_bosh * b


# KichikGPT: yuqorida N_YANGI ta token yaratilgandan keyingi kesh
L_gpt, n_gpt = len(gpt.bloklar), gpt.bloklar[0].attn.boshlar
d_bosh_gpt = gpt.emb.embedding_dim // n_gpt
# float32: 4 bayt
b_gpt = keshlar[0]["k"].element_size()
T_kesh = keshlar[0]["k"].shape[2]
formula_gpt = kesh_bayt(L_gpt, T_kesh, n_gpt, d_bosh_gpt, b_gpt)
# keshlardagi tenzorlar haqiqatan egallagan baytlar
haqiqiy_gpt = kesh_baytlari(keshlar)
T_max_gpt = gpt.poz.shape[0]
print(
    f"KichikGPT, {T_kesh} token: formula {formula_gpt} bayt, keshlarda"
    f" {haqiqiy_gpt} bayt"
)
assert formula_gpt == haqiqiy_gpt

# %%
# Meta Llama 3 8B: config.json
# (huggingface.co/meta-llama/Meta-Llama-3-8B)
llama3_8b = {
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "hidden_size": 4096,
    "max_position_embeddings": 8192,
    "torch_dtype": "bfloat16",
}
L_l, T_l = (
    llama3_8b["num_hidden_layers"],
    llama3_8b["max_position_embeddings"],
)
n_q_l, n_kv_l = (
    llama3_8b["num_attention_heads"],
    llama3_8b["num_key_value_heads"],
)
# 4096 / 32
d_bosh_l = llama3_8b["hidden_size"] // n_q_l
b_l = torch.empty(
    0, dtype=getattr(torch, llama3_8b["torch_dtype"])
).element_size()

hajm = pd.DataFrame(
    [
        (
            "KichikGPT",
            L_gpt,
            n_gpt,
            n_gpt,
            d_bosh_gpt,
            b_gpt,
            T_max_gpt,
        ),
        ("Llama 3 8B (GQA)", L_l, n_q_l, n_kv_l, d_bosh_l, b_l, T_l),
        ("Llama 3 8B, GQAsiz", L_l, n_q_l, n_q_l, d_bosh_l, b_l, T_l),
    ],
    columns=[
        "model",
        "qatlamlar",
        "soʻrov boshlari",
        "KV boshlar",
        "bosh oʻlchami",
        "bayt",
        "T",
    ],
)
hajm["kesh (MiB)"] = (
    kesh_bayt(
        hajm["qatlamlar"],
        hajm["T"],
        hajm["KV boshlar"],
        hajm["bosh oʻlchami"],
        hajm["bayt"],
    )
    / 2**20
)
show(
    hajm,
    izoh=(
        "KV kesh hajmi toʻliq kontekstda (T — modelning eng katta"
        " uzunligi): KichikGPT (float32) va Llama 3 8B (bfloat16, Meta"
        f" config.json); oxirgi qator — GQAsiz holat: Llama 3 8B"
        f" modelidagi {n_q_l} ta soʻrov boshining har biri oʻz kalit"
        " va qiymatini saqlaydi."
    ),
    nom="kv_hajm_jadval",
)

# %% tags=["remove-cell"]
glue("kv_kesh_T", T_kesh, display=False)
glue("kv_formula_bayt", formula_gpt, display=False)
glue("kv_haqiqiy_bayt", haqiqiy_gpt, display=False)
glue("kv_T_max", T_max_gpt, display=False)
glue("kv_gpt_mib", float(hajm.loc[0, "kesh (MiB)"]), display=False)
glue("kv_llama_q", n_q_l, display=False)
glue("kv_llama_kv", n_kv_l, display=False)
glue("kv_llama_T", T_l, display=False)
glue("kv_llama_gqa_marta", n_q_l // n_kv_l, display=False)
glue(
    "kv_llama_token_kib",
    kesh_bayt(L_l, 1, n_kv_l, d_bosh_l, b_l) / 2**10,
    display=False,
)
glue(
    "kv_llama_gib",
    float(hajm.loc[1, "kesh (MiB)"]) / 2**10,
    display=False,
)
glue(
    "kv_llama_mha_gib",
    float(hajm.loc[2, "kesh (MiB)"]) / 2**10,
    display=False,
)


# %% [markdown]
# Formula va haqiqiy kesh mos keldi: {glue:text}`kv_kesh_T` ta token
# (boshlangʻich matn va yaratilgan tokenlar, oxirgisidan tashqari — u hali
# modeldan oʻtmagan) uchun formula {glue:text}`kv_formula_bayt:d` bayt
# beradi, keshdagi tenzorlar ham {glue:text}`kv_haqiqiy_bayt:d` bayt.
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

# %% tags=["remove-cell"]
# Xulosa sahifasi uchun (xulosa.py dagi jadval bu gaplarni shu darsdan
# oladi)
glue(
    "xl_kv",
    f"Oʻlchandi: natija bir xil (farq {son(logit_farq, '.0e')}); T ="
    f" {kv['T'].max()} da bu nashrda"
    f" {son(kv['nisbat'].iloc[-1], '.0f')} marta tezroq",
    display=False,
)

# %% [markdown]
# ## Mashqlar
#
# Kod bilan ishlaydigan mashqlarda avval natijani **taxmin qiling**, soʻng
# oʻlchang. Taxmin va oʻlchov farq qilsa — eng koʻp oʻrganiladigan joy shu.
#
# **1-mashq (KV kesh hajmi).** `KichikGPT(LUGAT, d=64, boshlar=8)` va
# `KichikGPT(LUGAT, d=64, qatlamlar=4)` ni yarating. Har birida
# {glue:text}`kv_T_max` tokenli kesh necha MiB boʻladi? Avval formuladan
# taxmin qiling. Soʻng keshni toʻldiring: modelga `matn` ni `keshlar`
# (har blokka bitta boʻsh `dict`) bilan bering va ulardagi tenzorlar
# baytlarini `kesh_baytlari` bilan sanang.
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
# kichraytirish uchun kalit/qiymat boshlarini kamaytirish (GQA), *d* ni
# kichraytirish yoki sonlarni qisqaroq formatda saqlash mumkin.
# :::


# %% tags=["hide-cell"]
# 1-mashq yechimi: boshlar yoki qatlamlar soni oʻzgarganda oʻlchangan
# kesh
mashq_mib = {}
for nom_, sozlama in [
    ("bosh8", {"boshlar": 8}),
    ("qatlam4", {"qatlamlar": 4}),
]:
    torch.manual_seed(0)
    m_ = KichikGPT(LUGAT, d=64, **sozlama).eval()
    keshlar_ = [{} for _ in m_.bloklar]
    with torch.no_grad():
        # keshni toʻliq toʻldiramiz
        m_(matn[:, : m_.poz.shape[0]], keshlar_)
    mashq_mib[nom_] = kesh_baytlari(keshlar_) / 2**20
    print(f"{sozlama}: kesh {mashq_mib[nom_]:.2f} MiB")


# %% tags=["remove-cell"]
for nom_, mib in mashq_mib.items():
    glue(f"kv_mashq_{nom_}_mib", mib, display=False)
