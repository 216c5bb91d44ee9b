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
# bilan qanday oʻsadi, {term}`RNN` bilan solishtirganda nimasi koʻp va nimasi kam. Modellar sifatida
# {doc}`«Attention, RNN va LSTM bitta vazifada» <rekurrent>` darsidagi `Ketma` va `Attention` modellaridan foydalanamiz.


# %%
import pandas as pd
import torch
import torch.nn as nn

from chapter_code.kitob import show, fig
from chapter_code.malumot import vazifa
from chapter_code.modellar import Ketma, Attention
from chapter_code.oqitish import mediana_ms, protsessor, xotira_chuqqisi

# %% [markdown]
# ## Vaqt: koʻp hisob, lekin biryoʻla
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
# Katta modellarda bunday matritsa har bir {term}`qatlamning <qatlam>` har bir {term}`boshida <bosh>`
# hosil boʻladi, *T* esa oʻn minglab {term}`tokenga <token>` yetadi. Bularning hammasi qancha
# xotira egallashini 1-mashqda hisoblaysiz, bunday matritsalarni umuman hosil qilmaydigan
# usulni esa keyingi darsda yozamiz.
#
# ## Mashqlar
#
# **1-mashq (hisob).** Bitta qatlamda 32 ta bosh bor, *T* = 32 768. Bitta ketma-ketlik uchun
# bitta oldinga oʻtishda shu qatlamning attention ogʻirlik matritsalari {term}`float32`
# formatida necha GiB (1 GiB = $2^{30}$ bayt) xotira egallaydi? Ikki baytli {term}`bfloat16`
# (ingl. *brain floating point*) formatida-chi? Avval qogʻozda hisoblang.
#
# :::{admonition} Yechim
# :class: dropdown
#
# Bitta matritsa $32\,768^2 = 2^{30}$ ta son. 32 ta boshning matritsalari float32 formatida
# {glue:text}`n1_f32:.0f` GiB, bfloat16 formatida esa {glue:text}`n1_bf16:.0f` GiB egallaydi —
# bu faqat bitta qatlamning bitta oʻtishi. Shuning uchun uzun kontekstda bu matritsalar
# xotirada toʻliq saqlanmaydi: ular boʻlaklab hisoblanadi va darhol ishlatiladi (keyingi darsga qarang).
# :::

# %% tags=["hide-cell"]
# 1-mashq yechimi: 32 bosh, T = 32 768
m1 = {bayt: 32 * 32768**2 * bayt / 2**30 for bayt in (4, 2)}
print(f"float32: {m1[4]:.0f} GiB, bfloat16: {m1[2]:.0f} GiB")


# %% tags=["remove-cell"]
glue("n1_f32", m1[4], display=False)
glue("n1_bf16", m1[2], display=False)
