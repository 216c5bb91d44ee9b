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
# # Attention narxi: vaqt va xotira
#
# Bu darsda {term}`attention <attention (eʼtibor mexanizmi)>` narxini oʻlchaymiz: vaqt va xotira {term}`ketma-ketlik` uzunligi *T*
# bilan qanday oʻsadi, {term}`RNN` bilan solishtirganda nimasi koʻp va nimasi kam, PyTorchning
# {term}`SDPA` (ingl. *scaled dot-product attention*) funksiyasi nimani tejaydi. Modellar sifatida
# {doc}`«Attention, RNN va LSTM bitta vazifada» <rekurrent>` darsidagi `Ketma` va `Attention` modellaridan foydalanamiz.


# %%
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F

from chapter_code.kitob import show, fig
from chapter_code.bichim import son
from chapter_code.malumot import vazifa
from chapter_code.modellar import Ketma, Attention
from chapter_code.oqitish import mediana_ms, protsessor, xotira_chuqqisi

# %% [markdown]
# ## Vaqt: koʻp hisob, lekin bir yoʻla
#
# Attention arzonga tushmaydi. {term}`Ballar <ball>` matritsasi $T \times T$: har pozitsiya har
# pozitsiyaga ball qoʻyadi. *T* ikki barobar oshsa, matritsa toʻrt barobar
# oʻsadi. RNN esa *T* ta {term}`qadamni <qadam>` ketma-ket bajaradi: uning hisob hajmi *T* ga
# chiziqli bogʻliq, lekin qadamlarni parallel qilib boʻlmaydi.
#
# {numref}`vaqt_jadval` ikkala modelning vaqtini ikki holatda beradi: faqat {term}`oldinga oʻtish`
# (ingl. *forward pass*) hamda oldinga va {term}`orqaga oʻtish`. Har qatorda bitta namunaning
# koʻpaytirish-qoʻshishlar (ingl. *multiply-accumulate*, {term}`MAC`) soni ham bor.
#
# Vaqt bitta {term}`oqimda <oqim>` (ingl. *thread*) oʻlchanadi: `mediana_ms` funksiyasi hisobni koʻp
# marta takrorlaydi va vaqtlarning {term}`medianasini <mediana>` oladi. Boshqa dasturlar hisobni
# sekinlashtirishi mumkin: aniq sonlarga emas, qaysi hisob tezroq va necha barobar
# ekaniga qarang.

# %%
torch.set_num_threads(1)  # vaqt bitta oqimda oʻlchanadi
torch.set_flush_denormal(True)  # «denormal» sonlar sekin: 0 boʻladi


def rnn_mac(T, h=32):
    # har qadamda W_ih·x (h·1) va W_hh·h (h·h); oxirida fc (h·2)
    return T * (h * 1 + h * h) + h * 2


def attn_mac(T, d=32):
    # kirish T·d; Q, K, V 3·T·d²; Q·Kᵀ va ogʻirlik·V 2·T²·d; fc d·2
    return T * d + 3 * T * d * d + 2 * T * T * d + d * 2


qatorlar = []
for T in [30, 60, 120, 240]:
    X, y = vazifa(64, T, 3)
    torch.manual_seed(0)
    for nom, m, mac in [("RNN", Ketma("rnn"), rnn_mac(T)),
                        ("attention", Attention(T), attn_mac(T))]:
        with torch.no_grad():
            fwd = mediana_ms("m(X)", m=m, X=X)
        fwd_bwd = mediana_ms("m.zero_grad(); k(m(X), y).backward()",
                             m=m, X=X, y=y, k=nn.CrossEntropyLoss())
        qatorlar.append((T, nom, mac, fwd, fwd_bwd))
vaqt = pd.DataFrame(qatorlar, columns=[
    "T", "model", "MAC", "oldinga (ms)", "oldinga va orqaga (ms)"])
show(vaqt.round(2), nom="vaqt_jadval", izoh=(
    "Bitta paket (64 ta namuna) vaqti, bitta oqimda, mediana;"
    " MAC — bitta namunaning oldinga oʻtishdagi hisobi."))

# T = 240 da attention RNNdan necha marta koʻp MAC va vaqt oladi
v = vaqt[vaqt["T"] == 240].set_index("model")
nisbat = v.loc["attention"] / v.loc["RNN"]
mac_nisbat, vaqt_nisbat = nisbat["MAC"], nisbat["oldinga (ms)"]

# %% tags=["remove-cell"]
from myst_nb import glue  # qiymatlarni matnga beradi

glue("mac_nisbat", float(mac_nisbat), display=False)
# bob sonlari qaysi protsessorda olingani (kirish sahifasi uchun)
cpu = torch.backends.cpu.get_cpu_capability()
glue("hisob_muhiti", f"{protsessor()} ({cpu.replace('AVX512', 'AVX-512')})", display=False)
glue("vaqt_nisbat", float(vaqt_nisbat), display=False)

# %% [markdown]
# *T* = 240 da attention bitta namuna uchun RNNdan {glue:text}`mac_nisbat:.1f`
# marta koʻproq koʻpaytirish-qoʻshish bajaradi, oʻlchovda esa RNNdan
# {glue:text}`vaqt_nisbat:.1f` marta sekinroq ishladi: vaqt hisob hajmichalik oshmadi.
# Sabablari, ehtimol, ikkita: katta matritsa koʻpaytmasida bitta MAC arzonroq, RNNning 240 ta
# kichik qadamida esa har qadamning doimiy narxi (chaqiruvlar) koʻp; bu oʻlchov ikkisini
# ajratmaydi.
#
# GPU yoki koʻp yadroli protsessorda attentionning *T* ta pozitsiyasini parallel
# hisoblash mumkin, RNNning qadamlari esa baribir navbat bilan bajariladi.
# {cite:t}`vaswani2017` bu parallellikni {term}`yoʻl uzunligining <yoʻl uzunligi>` qisqaligi bilan birga attentionning
# afzalliklari qatorida keltiradi.
#
# ## Xotira *T*² bilan oʻsadi
#
# Vaqt — shovqinli oʻlchov, xotirani esa aniq sanash mumkin. *T* ni 960 gacha oshirib, bitta
# oldinga oʻtishda attention matritsasi egallaydigan baytlarni va PyTorch oʻlchagan
# {term}`xotira choʻqqisini <xotira choʻqqisi>` (ingl. *peak memory*) yozib olamiz
# ({numref}`xotira_jadval`).

# %%
qatorlar = []
for T in [30, 60, 120, 240, 480, 960]:
    X, _ = vazifa(64, T, 3)
    m = Attention(T)
    with torch.no_grad():
        chuqqi, _ = xotira_chuqqisi(m, X)
        m(X)  # m.ogirlik: (64, T, T) ogʻirliklar, 4 baytdan
    matritsa = m.ogirlik.nelement() * m.ogirlik.element_size()
    qatorlar.append((T, matritsa / 2**20, chuqqi / 2**20))
xotira = pd.DataFrame(qatorlar, columns=[
    "T", "matritsa (MiB)", "choʻqqi (MiB)"]).set_index("T")
show(xotira.round(2).reset_index(), nom="xotira_jadval",
     izoh="Attentionning bitta oldinga oʻtishdagi xotirasi"
          " (64 ta namuna): matritsa hajmi va xotira choʻqqisi.")

b = xotira.plot(loglog=True, style=["o-", "s--"], figsize=(5.6, 3.6),
                ylabel="xotira (MiB)")
b.set_xticks(xotira.index, xotira.index.astype(str))
b.minorticks_off()
b.grid(alpha=0.3)
fig("xotira_vaqt.png", caption=(
    "Attentionning bitta oldinga oʻtishdagi xotirasi (64 ta namuna),"
    " log-log oʻqlarda. Matritsa — qiyaligi 2 boʻlgan chiziq (*T*² ga"
    " proporsional); katta *T* da choʻqqining qiyaligi ham 2 ga"
    " yaqinlashadi, oʻzi esa matritsadan ikki barobardan ham katta."))

# %% tags=["remove-cell"]
glue("matritsa_960", float(xotira.loc[960, "matritsa (MiB)"]), display=False)
glue("chuqqi_960", float(xotira.loc[960, "choʻqqi (MiB)"]), display=False)

# %% [markdown]
# Matritsada $64 \cdot T^2$ ta element bor, shuning uchun log-log oʻqlarda
# ({numref}`xotira_vaqt`) u {term}`qiyaligi <qiyalik>` 2 ga teng chiziq. *T* = 960 da 64 ta namunaning
# {term}`ogʻirliklari <ogʻirlik>` {glue:text}`matritsa_960:.0f` {term}`MiB <KiB, MiB, GiB>` (mebibayt, $2^{20}$ bayt),
# choʻqqi esa {glue:text}`chuqqi_960:.0f` MiB — ikki barobardan ham koʻp. {term}`Softmax <softmax>` ballar matritsasidan
# xuddi shunday katta ogʻirliklar matritsasini hosil qiladi va bir lahza ikkalasi ham xotirada turadi.
#
# Katta modellarda bunday matritsa har {term}`qatlamda <qatlam>` va har {term}`boshda <bosh>`
# bor, *T* esa oʻn minglab {term}`tokenga <token>` yetadi. Bu qancha xotira ekanini 1-mashqda hisoblaysiz.
#
# ## FlashAttention va SDPA
#
# {term}`FlashAttention` ({cite:alp}`dao2022`) — $T \times T$ matritsani xotirada
# toʻliq saqlamaydigan attention {term}`kerneli <kernel>` (ingl. *kernel*: bitta amalni
# bajaradigan past darajali funksiya). U $Q K^\top$ ni ham, softmaxni ham boʻlaklab hisoblaydi.
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
glue("bolak_farq", float(bolak_farq), display=False)

# %% [markdown]
# Ikki usul bir xil natija beradi: farq faqat {term}`float32` yaxlitlashidan keladi.
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
# {glue:text}`fl_mib:.0f` MiB, yaʼni ikkita $8 \times 4096 \times 4096$ matritsa (ballar va
# ogʻirliklar). SDPAda qiyalik {glue:text}`fl_xq_sdpa:.2f`, choʻqqi atigi
# {glue:text}`fl_mib_sdpa:.2f` MiB: asosan chiqishning oʻzi (u *T* ga chiziqli) va oʻzgarmas
# kichik bufer, shuning uchun qiyalik 1 dan kichik. Boʻlaklab hisobda qiyalik
# {glue:text}`fl_xq_bolak:.2f`: choʻqqini *T* ga chiziqli oʻsadigan $8 \times T \times B$
# boʻlaklar belgilaydi. 3D kirishda esa SDPA $T \times T$ matritsani baribir hosil qiladi:
# qiyalik {glue:text}`fl_xq_3d:.2f`.
#
# Vaqt esa toʻrtala usulda ham $T^2$ ga yaqin yoki undan tezroq oʻsdi
# ({numref}`qiyalik_jadval`): har soʻrov baribir har kalit bilan solishtiriladi. *T* = 4096 da flash kerneli
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
# skriptda tekshirib koʻring: `mediana_ms` ni chaqirmasdan, bitta oqimda *T* = 2048 da ikki
# funksiyani bir necha marta chaqiring va vaqtlarning medianasini oling.
#
# ### Baytlar: FlashAttention GPUda nega tezroq
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
# **1-mashq (hisob).** Bitta qatlamda 32 ta bosh, *T* = 32 768. Bitta ketma-ketlikning
# bitta oldinga oʻtishida shu qatlamning attention ogʻirlik matritsalari {term}`float32`
# formatida necha GiB ($2^{30}$ bayt) boʻladi? Ikki baytli {term}`bfloat16` formatida-chi?
# Avval qogʻozda hisoblang.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Bitta matritsa $32\,768^2 = 2^{30}$ ta son. 32 ta boshning matritsalari float32 formatida
# {glue:text}`n1_f32:.0f` GiB, bfloat16 formatida esa {glue:text}`n1_bf16:.0f` GiB egallaydi —
# bu faqat bitta qatlamning bitta oʻtishi. Shuning uchun uzun kontekstli modellar bu matritsalarni
# toʻliq saqlamaydi: FlashAttention turidagi kernel bilan boʻlaklab hisoblaydi.
# :::
#
# **2-mashq (maskani oʻzingiz yozing).** {term}`Kauzal maskani <kauzal (sababiy) maska>`
# `formula` funksiyasiga qoʻshing: *i*-soʻrov faqat $j \le i$ kalitlarga qarasin. Natijani
# `F.scaled_dot_product_attention(Q, K, V, is_causal=True)` bilan
# solishtiring (*T* = 512 da). Farq qancha boʻlishi kerak?
#
# :::{admonition} Yechim
# :class: dropdown
#
# Diagonaldan yuqoridagi ballarni $-\infty$ ga almashtiramiz: softmaxdan keyin ularning
# ogʻirliklari aniq 0 boʻladi (yechim kodi quyida). SDPA natijasidan eng katta farq
# {glue:text}`n2_farq:.1e`: ikkalasi bir xil hisoblaydi, faqat amallar tartibi boshqacha, farq
# yaxlitlashdan keladi.
# :::
#
# **3-mashq (*d* oshsa).** *T* = 2048 da *d* ni 32 dan 128 ga oshiring.
# Qoʻlda yozilgan funksiyaning xotira choʻqqisi necha marta oʻsadi? Avval taxmin
# qiling, soʻng `xotira_chuqqisi` bilan oʻlchang.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Oʻzgarmaydi: *d* = 32 da ham, *d* = 128 da ham choʻqqi {glue:text}`n3_128:.0f` MiB.
# $T \times T$ matritsaning hajmi *d* ga bogʻliq emas; *d* bilan faqat *Q*, *K*, *V* va
# chiqish oʻsadi, ular esa *T* ga chiziqli. Hisob hajmi ($2 T^2 d$) esa toʻrt barobar oʻsadi.
# :::
#
# **4-mashq (boʻlak kattaligi).** *T* = 2048 da `bolaklab` funksiyasini *B* = 32, 128 va 512
# bilan chaqiring. Natijaning `formula` funksiyasidan farqi va xotira choʻqqisi qanday
# oʻzgaradi? Avval taxmin qiling, soʻng `xotira_chuqqisi` bilan oʻlchang.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Natija oʻzgarmaydi: uchala *B* da ham farq faqat yaxlitlashdan keladi (eng kattasi
# {glue:text}`n4_farq:.1e`), chunki boʻlaklash faqat qoʻshish tartibini oʻzgartiradi. Choʻqqi
# esa *B* bilan oʻsadi: *B* = 32 da {glue:text}`n4_32:.0f` MiB, *B* = 512 da
# {glue:text}`n4_512:.0f` MiB, chunki katta *B* da xotirani asosan $8 \times T \times B$ ballar
# boʻlagi va uning eksponentalari egallaydi. Toʻliq matritsali `formula` funksiyasining choʻqqisi esa
# {glue:text}`n3_32:.0f` MiB (3-mashq).
# :::

# %% tags=["hide-cell"]
# 1-mashq yechimi: 32 bosh, T = 32 768
m1 = {bayt: 32 * 32768**2 * bayt / 2**30 for bayt in (4, 2)}
print(f"float32: {m1[4]:.0f} GiB, bfloat16: {m1[2]:.0f} GiB")


# 2-mashq yechimi: kauzal maska bilan qoʻlda hisob
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
n2_farq = (formula_kauzal(Q, K, V) - sdpa).abs().max()
print(f"eng katta farq: {son(n2_farq, '.1e')}")

# 3-mashq yechimi: d = 32 va 128, T = 2048
m3 = {}
for d in (32, 128):
    Q, K, V = (torch.randn(8, 1, 2048, d) for _ in range(3))
    with torch.no_grad():
        m3[d] = xotira_chuqqisi(formula, Q, K, V)[0] / 2**20
print(f"d = 32: {m3[32]:.0f} MiB, d = 128: {m3[128]:.0f} MiB")

# 4-mashq yechimi: B = 32 ... 512, T = 2048
Q, K, V = (torch.randn(8, 1, 2048, 32) for _ in range(3))
m4, n4_farq = {}, 0.0
with torch.no_grad():
    asl = formula(Q, K, V)
    for B in (32, 128, 512):
        chuqqi, chiq = xotira_chuqqisi(bolaklab, Q, K, V, B)
        m4[B] = chuqqi / 2**20
        n4_farq = max(n4_farq, float((chiq - asl).abs().max()))
print(", ".join(f"B = {B}: {m:.0f} MiB" for B, m in m4.items()))
print(f"eng katta farq: {son(n4_farq, '.1e')}")

# %% tags=["remove-cell"]
glue("n1_f32", m1[4], display=False)
glue("n1_bf16", m1[2], display=False)
glue("n2_farq", float(n2_farq), display=False)
glue("n3_32", m3[32], display=False)
glue("n3_128", m3[128], display=False)
glue("n4_farq", n4_farq, display=False)
glue("n4_32", m4[32], display=False)
glue("n4_512", m4[512], display=False)
