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
# # FlashAttention: attentionni boʻlaklab hisoblash
#
# {doc}`«Attention narxi: vaqt va xotira» <narx>` darsida
# {term}`attention <attention (eʼtibor mexanizmi)>` egallaydigan xotira *T*² ga proporsional
# oʻsishini koʻrdik: {term}`ballar <ball>` ham, {term}`ogʻirliklar <ogʻirlik>` ham *T* × *T*
# oʻlchamli matritsalar. Bu darsda bu matritsalarni hosil qilmaydigan usulni yozamiz, uni
# PyTorchning {term}`SDPA` (ingl. *scaled dot-product attention*) funksiyasi bilan
# solishtiramiz va bu usul GPUda oddiy usuldan nega tezroq ishlashini baytlarni sanab
# tushuntiramiz.

# %%
import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F

from chapter_code.kitob import show
from chapter_code.bichim import son
from chapter_code.oqitish import mediana_ms, xotira_chuqqisi

# %% [markdown]
# ## Softmaxni boʻlaklab hisoblash
#
# {term}`FlashAttention` ({cite:alp}`dao2022`) — $T \times T$ matritsani xotirada
# toʻliq saqlamaydigan attention {term}`kerneli <kernel>` (ingl. *kernel*: bitta amalni
# bajaradigan past darajali funksiya). U $Q K^\top$ ni ham, {term}`softmaxni <softmax>` ham boʻlaklab hisoblaydi.
#
# Softmaxning maxraji — qatordagi hamma eksponentalar yigʻindisi. Lekin bu yigʻindini
# {term}`kalitlarning <kalit>` boʻlaklari boʻyicha hisoblash mumkin ({cite:alp}`milakov2018`).
# Har {term}`soʻrov` uchun uchta narsa saqlanadi: shu paytgacha koʻrilgan eng katta ball *m*,
# eksponentalar yigʻindisi *s* va {term}`qiymatlarning <qiymat>` vaznli yigʻindisi *o*.
# Eksponentalar $e^{\text{ball} - m}$ koʻrinishida olinadi: shunda ular 1 dan oshmaydi. Yangi
# boʻlakda kattaroq ball chiqsa, *m* yangi *m′* ga almashadi, eski *s* va *o* esa $e^{m - m′}$ ga
# koʻpaytiriladi: ular eski maksimumga nisbatan hisoblangan edi. Oxirida $o / s$ — aynan
# softmax ogʻirliklari bilan olingan {term}`vaznli oʻrtacha`. Xotirada bir vaqtda faqat $T \times B$ ta
# ball turadi (*B* — boʻlakdagi kalitlar soni), $T \times T$ matritsa esa hech qachon hosil qilinmaydi.

# %%
torch.set_num_threads(1)  # vaqt bitta oqimda oʻlchanadi
torch.set_flush_denormal(True)  # «denormal» sonlar sekin: 0 boʻladi


def formula(Q, K, V):  # bobdagi formula: T×T matritsa toʻliq
    d = Q.shape[-1]
    w = torch.softmax(Q @ K.transpose(-2, -1) / d**0.5, -1)
    return w @ V


def bolaklab(Q, K, V, B=128):
    # kalitlar B tadan olinadi; m — eng katta ball,
    # s — eksponentalar yigʻindisi, o — vaznli yigʻindi
    d = Q.shape[-1]
    m = torch.full(Q.shape[:-1] + (1,), float("-inf"))
    s = torch.zeros(Q.shape[:-1] + (1,))
    o = torch.zeros_like(Q)
    for j in range(0, K.shape[-2], B):
        # (…, T, d) @ (…, d, B) -> (…, T, B): bitta boʻlak
        ball = Q @ K[..., j:j + B, :].transpose(-2, -1) / d**0.5
        m_yangi = torch.maximum(m, ball.amax(-1, keepdim=True))
        tuzatish = torch.exp(m - m_yangi)  # eski maksimumdan yangisiga
        e = torch.exp(ball - m_yangi)
        s = s * tuzatish + e.sum(-1, keepdim=True)
        o = o * tuzatish + e @ V[..., j:j + B, :]
        m = m_yangi
    return o / s


torch.manual_seed(0)
Q, K, V = (torch.randn(8, 1, 1024, 32) for _ in range(3))
with torch.no_grad():
    bolak_farq = (bolaklab(Q, K, V) - formula(Q, K, V)).abs().max()
print(f"eng katta farq: {son(bolak_farq, '.1e')}")

# %% tags=["remove-cell"]
from myst_nb import glue  # qiymatlarni matnga beradi

glue("bolak_farq", float(bolak_farq), display=False)

# %% [markdown]
# Ikki usul bir xil natija beradi: farq faqat {term}`float32` yaxlitlashidan keladi.
#
# ## SDPA: PyTorchning tayyor kerneli
#
# PyTorchda `F.scaled_dot_product_attention` (SDPA) bir nechta kerneldan kirishga mosini oʻzi
# tanlaydi; ulardan biri — FlashAttention gʻoyasi asosidagi flash kerneli. Protsessorda u faqat
# toʻrt oʻqli (4D) tenzorda ishlaydi: ({term}`paket`, bosh, *T*, *d*). Kirish uch oʻqli boʻlsa, SDPA
# oddiy («math») yoʻlga oʻtadi. {numref}`flash_jadval` *T* = 4096 gacha toʻrt usulni
# solishtiradi: formula boʻyicha qoʻlda yozilgan funksiya («qoʻlda»), «boʻlaklab» va SDPA (4D va
# 3D kirishda); sakkizta namuna, bitta bosh, *d* = 32.

# %%
sdpa = F.scaled_dot_product_attention
qatorlar, farq = [], 0.0
for T in [512, 1024, 2048, 4096]:
    torch.manual_seed(0)
    # (paket, bosh, T, d); 3D: bosh oʻqisiz (paket, T, d)
    qkv = tuple(torch.randn(8, 1, T, 32) for _ in range(3))
    usullar = {"qoʻlda": (formula, qkv), "boʻlaklab": (bolaklab, qkv),
               "SDPA": (sdpa, qkv),
               "SDPA, 3D": (sdpa, tuple(x[:, 0] for x in qkv))}
    with torch.no_grad():
        asl = formula(*qkv)
        for nom, (fn, kir) in usullar.items():
            chuqqi, chiq = xotira_chuqqisi(fn, *kir)
            xato = (chiq.reshape(asl.shape) - asl).abs().max()
            farq = max(farq, float(xato))  # qoʻlda hisobdan farq
            ms = mediana_ms("fn(*k)", fn=fn, k=kir)
            qatorlar.append((T, nom, chuqqi / 2**20, ms))
fl = pd.DataFrame(qatorlar, columns=[
    "T", "usul", "choʻqqi (MiB)", "vaqt (ms)"])
show(fl.round({"choʻqqi (MiB)": 2, "vaqt (ms)": 1}), nom="flash_jadval",
     izoh="Qoʻlda, boʻlaklab va SDPA bilan attention: xotira"
          " choʻqqisi va vaqt (bitta oqimda, mediana; sakkizta"
          " namuna, *d* = 32).")

# %% [markdown]
# Oʻsishni log-log {term}`qiyalik` bilan oʻlchaymiz: *T* = 1024, 2048 va 4096 nuqtalariga
# eng kichik kvadratlar usuli bilan chiziq oʻtkazamiz. Qiyalik 2 — $T^2$ ga, qiyalik 1 — *T* ga
# proporsional oʻsish ({numref}`qiyalik_jadval`).

# %%
def qiyalik(usul, ustun):
    a = fl[(fl["usul"] == usul) & (fl["T"] >= 1024)]
    return float(np.polyfit(np.log2(a["T"]), np.log2(a[ustun]), 1)[0])


qiy = pd.DataFrame({c.split()[0]: {u: qiyalik(u, c) for u in usullar}
                    for c in ["choʻqqi (MiB)", "vaqt (ms)"]})
show(qiy.round(2).rename_axis("usul").reset_index(),
     nom="qiyalik_jadval", izoh="Choʻqqi va vaqtning log-log qiyaligi.")
# T = 4096 da: SDPA vaqti / qoʻlda
katta = fl[fl["T"] == 4096].set_index("usul")
ulush = katta["vaqt (ms)"]["SDPA"] / katta["vaqt (ms)"]["qoʻlda"]

# %% tags=["remove-cell"]
for u, q in [("qoʻlda", ""), ("boʻlaklab", "_bolak"), ("SDPA", "_sdpa"),
             ("SDPA, 3D", "_3d")]:
    glue(f"fl_xq{q}", float(qiy.loc[u, "choʻqqi"]), display=False)
    glue(f"fl_vq{q}", float(qiy.loc[u, "vaqt"]), display=False)
    glue(f"fl_mib{q}", float(katta.loc[u, "choʻqqi (MiB)"]), display=False)
glue("fl_vaqt_foiz", 100 * float(ulush), display=False)
# ikki tayyor jumladan biri: boʻlaklab hisob T = 4096 da qoʻlda yozilganidan tezmi
bolak_sekin = katta.loc["boʻlaklab", "vaqt (ms)"] >= katta.loc["qoʻlda", "vaqt (ms)"]
glue("fl_bolak_gap", "Boʻlaklab hisob esa xotirani tejasa ham, tezlashmadi"
     if bolak_sekin else "Boʻlaklab hisob ham qoʻlda yozilganidan biroz tezroq: xotirani tejash bu"
     " yerda ham vaqt yutdi", display=False)
glue("fl_farq", float(farq), display=False)

# %% [markdown]
# Toʻrtala usulning chiqishlari amalda bir xil: eng katta farq {glue:text}`fl_farq:.1e`.
# Qoʻlda hisoblaganda xotira qiyaligi {glue:text}`fl_xq:.2f`: *T* = 4096 da choʻqqi
# {glue:text}`fl_mib:.0f` {term}`MiB <KiB, MiB, GiB>`, yaʼni ikkita $8 \times 4096 \times 4096$ matritsa (ballar va
# ogʻirliklar). SDPAda qiyalik {glue:text}`fl_xq_sdpa:.2f`, choʻqqi atigi
# {glue:text}`fl_mib_sdpa:.2f` MiB: asosan chiqishning oʻzi (u *T* ga chiziqli) va oʻzgarmas
# kichik bufer, shuning uchun qiyalik 1 dan kichik. Boʻlaklab hisobda qiyalik
# {glue:text}`fl_xq_bolak:.2f`: choʻqqini *T* ga chiziqli oʻsadigan $8 \times T \times B$
# boʻlaklar belgilaydi. 3D kirishda esa SDPA $T \times T$ matritsani baribir hosil qiladi:
# qiyalik {glue:text}`fl_xq_3d:.2f`.
#
# Vaqt esa toʻrtala usulda ham *T* ning oʻzidan ancha tez oʻsdi: qiyaliklar 1 dan ancha katta
# ({numref}`qiyalik_jadval`), chunki har soʻrov baribir har kalit bilan solishtiriladi va hisob
# hajmi $T^2$ ga proporsional. *T* = 4096 da flash kerneli
# qoʻlda yozilgan funksiya vaqtining {glue:text}`fl_vaqt_foiz:.0f` foizida ishladi, hisob hajmi
# esa ikkalasida deyarli bir xil. Flash kerneli ham xotirani tejaydi, ham amallarni bitta
# kernelda birlashtiradi; bu oʻlchov ikki taʼsirni ajratmaydi. {glue:text}`fl_bolak_gap`.
#
# Bu vaqtlar protsessorga va xotira ajratuvchisiga (ingl. *memory allocator*: dasturga xotira
# beradigan kutubxona) ham bogʻliq. Oʻlchovlarimizda `mediana_ms` ajratuvchini shunday sozlaydi:
# boʻshatilgan xotira tizimga qaytarilmaydi, qayta ishlatiladi; bu sozlama jarayon (ishlayotgan
# dastur) oxirigacha amal qiladi. Bu funksiya chaqirilmagan jarayonda esa Linuxda glibc
# kutubxonasining odatiy sozlamasi amal qiladi. U holda jadvaldagi *T* = 1024 va undan katta
# qiymatlarda qoʻlda yozilgan funksiya har chaqiruvda $T \times T$ matritsalar uchun tizimdan yangi
# xotira oladi va ancha sekinlashadi (*T* = 512 da esa baʼzan). Ikki funksiya orasidagi farq keskin
# qisqaradi: protsessorga qarab boʻlaklab funksiya hatto tezroq boʻlishi mumkin. Buni alohida
# skriptda tekshirib koʻring: `mediana_ms` ni chaqirmasdan, bitta {term}`oqimda <oqim>` *T* = 2048 da ikki
# funksiyani bir necha marta chaqiring va vaqtlarning {term}`medianasini <mediana>` oling.
#
# ## Baytlar: FlashAttention GPUda nega tezroq ishlaydi
#
# GPUda ikki xil xotira bor: katta, lekin sekin asosiy xotira va har hisoblash blokidagi
# kichik, tez xotira. GPU koʻpaytirishni sonlarni asosiy xotiradan olib kelishdan ancha tez
# bajaradi, shuning uchun attention vaqtini koʻpincha koʻchirilgan baytlar belgilaydi.
# {cite:t}`dao2022` FlashAttentionni shu baytlarni kamaytirish uchun ishlab chiqqan. Bitta bosh
# uchun koʻchiriladigan baytlarni sanaymiz ({term}`bfloat16`, 2 bayt):
#
# - **oddiy yoʻl**: *Q* va *K* oʻqiladi, ballar matritsasi yoziladi va softmax uchun qayta
#   oʻqiladi, ogʻirliklar yoziladi va *V* bilan birga qayta oʻqiladi, chiqish yoziladi;
# - **boʻlaklab** (FlashAttention-2dagi tartib, {cite:alp}`dao2023`): soʻrovlar ham *B* tadan
#   olinadi. Soʻrov boʻlagi tez xotirada turadi, *K* va *V* esa har soʻrov boʻlagi uchun asosiy
#   xotiradan qayta oʻqiladi; $T \times T$ matritsa asosiy xotiraga umuman tushmaydi.

# %%
def baytlar(T, d, B=None, b=2):
    if B is None:  # oddiy yoʻl: Q, K, V, chiqish va 4 marta T×T
        return (4 * T * d + 4 * T * T) * b
    # Q va chiqish bir marta; K va V har boʻlakda (T/B marta)
    return (2 * T * d + 2 * T * d * (T // B)) * b


T_b, B_b = 4096, 128
bayt = pd.DataFrame(
    [(d, baytlar(T_b, d) / 2**20, baytlar(T_b, d, B_b) / 2**20)
     for d in (64, 128)],
    columns=["d", "oddiy (MiB)", "boʻlaklab (MiB)"]).set_index("d")
bayt["nisbat"] = bayt["oddiy (MiB)"] / bayt["boʻlaklab (MiB)"]
show(bayt.round(1).reset_index(), nom="bayt_jadval",
     izoh="Bitta boshning attentioni asosiy xotiradan oʻqiydigan va"
          " unga yozadigan baytlar (*T* = 4096, *B* = 128, bfloat16).")

# %% tags=["remove-cell"]
glue("bayt_T", T_b, display=False)
glue("bayt_B", B_b, display=False)
for d in (64, 128):
    glue(f"bayt_nisbat_{d}", float(bayt.loc[d, "nisbat"]), display=False)

# %% [markdown]
# *T* = {glue:text}`bayt_T:d` va *B* = {glue:text}`bayt_B:d` da boʻlaklab hisoblash
# *d* = 64 da {glue:text}`bayt_nisbat_64:.1f` marta, *d* = 128 da {glue:text}`bayt_nisbat_128:.1f`
# marta kamroq bayt koʻchiradi ({numref}`bayt_jadval`). Katta *T* da bu nisbat $2B/d$ ga
# yaqinlashadi: oddiy yoʻl $4T^2$ ta, boʻlaklab $2T^2 d/B$ ta son koʻchiradi, hisob hajmi esa
# ikkalasida bir xil.
#
# Agar vaqtni baytlar belgilasa, boʻlaklab hisoblash shuncha marta tezroq boʻladi: *B* qancha katta
# boʻlsa, shuncha tezroq, lekin *B* ni tez xotiraning sigʻimi cheklaydi. GPUdagi tezlanishni
# {cite:t}`dao2022` oʻlchagan.
#
# Xulosa: FlashAttention turidagi kernel $T^2$ hajmli **xotira sarfini** *T* ga
# chiziqli qiladi, $T^2$ **hisob hajmini** esa kamaytirmaydi.
#
# ## Mashqlar
#
# **1-mashq (maskani oʻzingiz yozing).** {term}`Kauzal maskani <kauzal (sababiy) maska>`
# `formula` funksiyasiga qoʻshing: *i*-soʻrov faqat $j \le i$ kalitlarga qarasin. Natijani
# `F.scaled_dot_product_attention(Q, K, V, is_causal=True)` bilan
# solishtiring (*T* = 512 da). Farq qancha boʻlishi kerak?
#
# :::{admonition} Yechim
# :class: dropdown
#
# Diagonaldan yuqoridagi ballarni $-\infty$ ga almashtiramiz: softmaxdan keyin ularning
# ogʻirliklari aniq 0 boʻladi (yechim kodi quyida). SDPA natijasidan eng katta farq
# {glue:text}`f1_farq:.1e`: ikkalasi bir xil hisoblaydi, faqat amallar tartibi boshqacha, farq
# yaxlitlashdan keladi.
# :::
#
# **2-mashq (*d* oshsa).** *T* = 2048 da *d* ni 32 dan 128 ga oshiring.
# Qoʻlda yozilgan funksiyaning {term}`xotira choʻqqisi` necha marta oʻsadi? Avval taxmin
# qiling, soʻng `xotira_chuqqisi` bilan oʻlchang.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Oʻzgarmaydi: *d* = 32 da ham, *d* = 128 da ham choʻqqi {glue:text}`f2_128:.0f` MiB.
# $T \times T$ matritsaning hajmi *d* ga bogʻliq emas; *d* bilan faqat *Q*, *K*, *V* va
# chiqish oʻsadi, ular esa *T* ga chiziqli. Hisob hajmi ($2 T^2 d$) esa toʻrt barobar oʻsadi.
# :::
#
# **3-mashq (boʻlak kattaligi).** *T* = 2048 da `bolaklab` funksiyasini *B* = 32, 128 va 512
# bilan chaqiring. Natijaning `formula` funksiyasidan farqi va xotira choʻqqisi qanday
# oʻzgaradi? Avval taxmin qiling, soʻng `xotira_chuqqisi` bilan oʻlchang.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Natija oʻzgarmaydi: uchala *B* da ham farq faqat yaxlitlashdan keladi (eng kattasi
# {glue:text}`f3_farq:.1e`), chunki boʻlaklash faqat qoʻshish tartibini oʻzgartiradi. Choʻqqi
# esa *B* bilan oʻsadi: *B* = 32 da {glue:text}`f3_32:.0f` MiB, *B* = 512 da
# {glue:text}`f3_512:.0f` MiB, chunki katta *B* da xotirani asosan $8 \times T \times B$ ballar
# boʻlagi va uning eksponentalari egallaydi. Toʻliq matritsali `formula` funksiyasining choʻqqisi esa
# {glue:text}`f2_32:.0f` MiB (2-mashq).
# :::

# %% tags=["hide-cell"]
# 1-mashq yechimi: kauzal maska bilan qoʻlda hisob
def formula_kauzal(Q, K, V):
    d, T = Q.shape[-1], Q.shape[-2]
    ball = Q @ K.transpose(-2, -1) / d**0.5
    # True — diagonaldan yuqorisi (j > i)
    maska = torch.ones(T, T, dtype=torch.bool).triu(1)
    ball = ball.masked_fill(maska, float("-inf"))
    return torch.softmax(ball, -1) @ V


torch.manual_seed(0)
Q, K, V = (torch.randn(8, 1, 512, 32) for _ in range(3))
sdpa = F.scaled_dot_product_attention(Q, K, V, is_causal=True)
f1_farq = (formula_kauzal(Q, K, V) - sdpa).abs().max()
print(f"eng katta farq: {son(f1_farq, '.1e')}")

# 2-mashq yechimi: d = 32 va 128, T = 2048
f2 = {}
for d in (32, 128):
    Q, K, V = (torch.randn(8, 1, 2048, d) for _ in range(3))
    with torch.no_grad():
        f2[d] = xotira_chuqqisi(formula, Q, K, V)[0] / 2**20
print(f"d = 32: {f2[32]:.0f} MiB, d = 128: {f2[128]:.0f} MiB")

# 3-mashq yechimi: B = 32 ... 512, T = 2048
Q, K, V = (torch.randn(8, 1, 2048, 32) for _ in range(3))
f3, f3_farq = {}, 0.0
with torch.no_grad():
    asl = formula(Q, K, V)
    for B in (32, 128, 512):
        chuqqi, chiq = xotira_chuqqisi(bolaklab, Q, K, V, B)
        f3[B] = chuqqi / 2**20
        f3_farq = max(f3_farq, float((chiq - asl).abs().max()))
print(", ".join(f"B = {B}: {m:.0f} MiB" for B, m in f3.items()))
print(f"eng katta farq: {son(f3_farq, '.1e')}")


# %% tags=["remove-cell"]
glue("f1_farq", float(f1_farq), display=False)
glue("f2_32", f2[32], display=False)
glue("f2_128", f2[128], display=False)
glue("f3_farq", f3_farq, display=False)
glue("f3_32", f3[32], display=False)
glue("f3_512", f3[512], display=False)
