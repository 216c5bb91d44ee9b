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
# tayyor {term}`kerneli <kernel>` ({term}`SDPA`) undan nimani tejaydi. Modellar — {doc}`«Attention, RNN va LSTM bitta vazifada» <rekurrent>`
# darsidagi `Ketma` va `Attention`.


# %%

import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import torch
import torch.nn as nn

from chapter_code.kitob import show, fig
from chapter_code.bichim import son
from chapter_code.malumot import vazifa
from chapter_code.modellar import Ketma, Attention
from chapter_code.oqitish import xotira_chuqqisi

# %% [markdown]
# ## Vaqt va xotira: $O(T^2)$
#
# Attention bepul emas. {term}`Ballar <ball>` matritsasi $T \times T$: har pozitsiya har
# pozitsiyaga ball qoʻyadi. *T* ikki barobar oshsa, matritsa toʻrt barobar
# oʻsadi. RNN esa *T* ta {term}`qadamni <qadam>` ketma-ket bajaradi: uning hisob hajmi *T* ga
# chiziqli bogʻliq, lekin qadamlarni parallel qilib boʻlmaydi. Ikkalasini bir xil
# sharoitda oʻlchaymiz ({numref}`vaqt_jadval`).
#
# Vaqtni ikki holat uchun oʻlchaymiz: faqat {term}`oldinga oʻtish` (*forward pass*:
# kirishdan chiqishgacha hisob) hamda oldinga va {term}`orqaga oʻtish`. Har qatorda
# hisob hajmi — bitta namuna uchun koʻpaytirish-qoʻshishlar soni
# (*multiply-accumulate*, {term}`MAC`) — va *T* ga bogʻliq ketma-ket
# {term}`bosqichlar <bosqich>` soni ham bor: RNNda *T* ta, attentionda *T* ga bogʻliq
# emas (jadvalda 1).
#
# Oʻlchov `torch.utils.benchmark` bilan, bitta {term}`oqimda <oqim>` (*thread*)
# bajariladi: har oʻlchov koʻp marta takrorlanadi va {term}`medianasi <mediana>`
# olinadi. Oʻlchashdan oldin ifoda ikki marta bajariladi (isitish), katta
# tenzorlarning xotirasi esa jarayonda qayta ishlatiladi
# (`chapter_code/oqitish.py`). Aks holda har chaqiruv operatsion tizimdan
# xotirani yangidan oladi va bir xil hisobning vaqti jarayonga qarab sezilarli
# oʻzgaradi.

# %%
from chapter_code.oqitish import mediana_ms, protsessor

# vaqt shu sondagi oqimda oʻlchanadi
IPLAR = 1
# 1e-38 dan kichik («denormal») sonlar x86 protsessorlarida juda sekin
# hisoblanadi; oʻqitish ishchilaridagi kabi ularni nolga tenglaymiz
# (orqaga oʻtishda ular paydo boʻladi)
torch.set_flush_denormal(True)


def rnn_mac(T, h=32):
    # har qadamda: W_ih x (h·1) + W_hh h (h·h); oxirida fc (h·2)
    return T * (h * 1 + h * h) + h * 2


def attn_mac(T, d=32):
    # kirish (T·d), Q, K, V (3·T·d·d), Q·Kᵀ va ogʻirlik·V
    # (2·T·T·d), fc (d·2)
    return T * d + 3 * T * d * d + 2 * T * T * d + d * 2


def median_ms(ifoda, **nomlar):
    # torch.utils.benchmark: koʻp takror, mediana
    # (chapter_code/oqitish.py)
    return mediana_ms(ifoda, iplar=IPLAR, **nomlar)


print(
    f"torch {torch.__version__}, {IPLAR} oqim,"
    f" protsessor: {protsessor()}"
)
vaqt_jadval = []
for Tx in [30, 60, 120, 240]:
    Xb, yb = vazifa(64, Tx, 3)
    torch.manual_seed(0)
    for nom, m, mac, qadamlar in [
        ("RNN", Ketma("rnn"), rnn_mac(Tx), Tx),
        ("attention", Attention(Tx), attn_mac(Tx), 1),
    ]:
        with torch.no_grad():
            fwd = median_ms("m(X)", m=m, X=Xb)
        fwd_bwd = median_ms(
            "m.zero_grad(); krit(m(X), y).backward()",
            m=m,
            X=Xb,
            y=yb,
            krit=nn.CrossEntropyLoss(),
        )
        vaqt_jadval.append(
            {
                "T": Tx,
                "model": nom,
                "fwd (ms)": fwd,
                "fwd+bwd (ms)": fwd_bwd,
                "MAC": mac,
                "ketma-ket bosqichlar": qadamlar,
            }
        )
show(
    pd.DataFrame(vaqt_jadval).round(2),
    izoh=(
        f"Bitta paket (64 ta namuna) vaqti, {IPLAR} oqimda, mediana."
        " fwd — oldinga oʻtish (forward), fwd+bwd — oldinga va orqaga"
        " oʻtish. MAC — bitta namunaning oldinga oʻtishdagi matritsa"
        " koʻpaytmalari (siljish, tanh, softmax, oʻrtalashtirish"
        " kirmaydi). Ketma-ket bosqichlar — T ga bogʻliq, navbat bilan"
        " bajariladigan bosqichlar."
    ),
    nom="vaqt_jadval",
)
vj = pd.DataFrame(vaqt_jadval).pivot(index="T", columns="model")

tezroq = [
    t
    for t in vj.index
    if vj.loc[t, ("fwd (ms)", "attention")]
    < vj.loc[t, ("fwd (ms)", "RNN")]
]
T_kat = max(vj.index)
mac_nisbat = (
    vj.loc[T_kat, ("MAC", "attention")] / vj.loc[T_kat, ("MAC", "RNN")]
)
vaqt_nisbat = (
    vj.loc[T_kat, ("fwd (ms)", "attention")]
    / vj.loc[T_kat, ("fwd (ms)", "RNN")]
)


# %% tags=["remove-cell"]
from myst_nb import glue

if tezroq:
    tezlik_jumla = (
        "Bu oʻlchovda attentionning oldinga oʻtishi T = "
        + ", ".join(map(str, tezroq))
        + " da RNNnikidan tezroq boʻldi."
    )
else:
    tezlik_jumla = (
        "Bu oʻlchovda attentionning oldinga oʻtishi hech bir T da "
        "RNNnikidan tezroq boʻlmadi."
    )
glue("tezlik_jumla", tezlik_jumla, display=False)
glue(
    "attn_tezroq_T",
    ", ".join(map(str, tezroq)) or "yoʻq",
    display=False,
)
glue("T_kat", int(T_kat), display=False)
glue("mac_nisbat", float(mac_nisbat), display=False)
glue("vaqt_nisbat", float(vaqt_nisbat), display=False)
glue(
    "vaqt_nisbat_yonalish",
    "sekinroq" if vaqt_nisbat > 1 else "tezroq",
    display=False,
)
glue(
    "vaqt_nisbat_jumla",
    (
        f"RNNdan {son(vaqt_nisbat, '.2f')} marta sekinroq ishladi"
        if vaqt_nisbat > 1
        else (
            f"RNNdan {son(1 / vaqt_nisbat, '.2f')} marta tezroq ishladi"
        )
    ),
    display=False,
)
for nom, model in [
    ("attn_vaqt_osish", "attention"),
    ("rnn_vaqt_osish", "RNN"),
]:
    ustun = ("fwd (ms)", model)
    glue(nom, float(vj.loc[240, ustun] / vj.loc[120, ustun]), display=False)
glue("iplar", IPLAR, display=False)


# %% [markdown]
# {glue:text}`tezlik_jumla` *T* = {glue:text}`T_kat` da attention bitta
# namuna uchun RNNdan {glue:text}`mac_nisbat:.1f` marta koʻproq koʻpaytirish-qoʻshish
# bajaradi, lekin hammasini bitta bosqichda, katta matritsa
# koʻpaytmalarida. RNN esa kamroq hisobni {glue:text}`T_kat` ta kichik qadamda
# navbat bilan bajaradi; har qadamda har bir amalni chaqirishning oʻzi ham vaqt
# oladi. Oʻlchovda attention shu *T* da {glue:text}`vaqt_nisbat_jumla`. *T* 120 dan 240 ga oshganda RNN
# vaqti {glue:text}`rnn_vaqt_osish:.1f` marta, attention vaqti
# {glue:text}`attn_vaqt_osish:.1f` marta oʻsdi.
#
# Bu oʻlchov
# {glue:text}`iplar` oqimda olingan; GPU yoki koʻp yadroli protsessorda attentionning
# yagona bosqichidagi *T* ta pozitsiya hisobi parallel bajarilishi mumkin, RNNning
# *T* ta qadami esa baribir navbat bilan bajariladi (buni bu bobda
# oʻlchamadik). {cite:t}`vaswani2017` bu parallellikni {term}`yoʻl uzunligi`
# bilan birga attentionning asosiy afzalliklari qatorida keltiradi.
#
# Vaqt shovqinli oʻlchov: jadvaldagi millisekundlar har {term}`nashrda <nashr>` biroz
# farq qiladi. Xotira esa aniq hisoblanadi. Endi *T* ni 960 gacha
# oshirib, bitta oldinga oʻtishda attention matritsasi egallaydigan
# baytlarni, PyTorch oʻlchagan {term}`xotira choʻqqisini <xotira choʻqqisi>` va vaqtni yozib olamiz.

# %%
xotira = []
for Tx in [30, 60, 120, 240, 480, 960]:
    Xb, _ = vazifa(64, Tx, 3)
    a_m = Attention(Tx)
    with torch.no_grad():
        a_m(Xb)  # isitish
        chuqqi, _ = xotira_chuqqisi(a_m, Xb)
        # ms, bitta forward
        ms = median_ms("m(X)", m=a_m, X=Xb)
    matritsa = a_m.ogirlik.nelement() * a_m.ogirlik.element_size()
    xotira.append(
        {
            "T": Tx,
            "matritsa (MiB)": matritsa / 2**20,
            "choʻqqi (MiB)": chuqqi / 2**20,
            "vaqt (ms)": ms,
        }
    )
xotira = pd.DataFrame(xotira).set_index("T")
show(
    xotira.round(2).reset_index(),
    izoh=(
        "Attentionning bitta oldinga oʻtishdagi narxi (64 ta namuna): "
        "matritsa hajmi, xotira choʻqqisi va vaqt."
    ),
    nom="xotira_jadval",
)

# %% [markdown]
# {numref}`%s-jadvalning <xotira_jadval>` oxirgi qatorida (*T* = 960) attention
# matritsasining oʻzi {glue:text}`matritsa_960:.0f` {term}`MiB <KiB, MiB, GiB>` (mebibayt, $2^{20}$ bayt), bitta oldinga
# oʻtishdagi xotira choʻqqisi {glue:text}`chuqqi_960:.0f` MiB.
# {numref}`xotira_vaqt` ikkalasini log-log oʻqlarda koʻrsatadi.

# %%
mat = xotira["matritsa (MiB)"].values
# T har ikki barobar oshganda
osish = mat[1:] / mat[:-1]
vaqt_qiyalik = float(
    np.log(xotira.loc[960, "vaqt (ms)"] / xotira.loc[240, "vaqt (ms)"])
    / np.log(4)
)
# bitta uzun hujjat, bitta bosh
uzun = 32768

rasm, (b1, b2) = plt.subplots(2, 1, figsize=(5.6, 6.4), sharex=True)
b1.loglog(
    xotira.index, xotira["matritsa (MiB)"], "o-", label="matritsa"
)
b1.loglog(xotira.index, xotira["choʻqqi (MiB)"], "s--", label="choʻqqi")
b1.set_ylabel("xotira (MiB)")
b1.legend()
b2.loglog(xotira.index, xotira["vaqt (ms)"], "o-", color="#d55e00")
# x oʻqida faqat oʻlchangan T lar (oraliq belgilar bir-biriga tegardi)
b2.set_xticks(xotira.index, [str(t) for t in xotira.index])
b2.minorticks_off()
b2.set_xlabel("T")
b2.set_ylabel("vaqt (ms)")
for b in (b1, b2):
    b.grid(True, which="both", alpha=0.3)
plt.tight_layout()
fig(
    "xotira_vaqt.png",
    caption=(
        "Attentionning bitta oldinga oʻtishdagi narxi (64 ta namuna), "
        "log-log oʻqlarda. Yuqorida: xotira — qiyaligi 2 boʻlgan"
        " chiziq, yaʼni T² ga proporsional. Pastda: vaqt."
    ),
)


# %% tags=["remove-cell"]
glue("matritsa_osish", float(osish.mean()), display=False)
glue(
    "matritsa_960",
    float(xotira.loc[960, "matritsa (MiB)"]),
    display=False,
)
glue(
    "chuqqi_960", float(xotira.loc[960, "choʻqqi (MiB)"]), display=False
)
glue("vaqt_960", float(xotira.loc[960, "vaqt (ms)"]), display=False)
if vaqt_qiyalik >= 2.15:
    vaqt_T2 = (
        "bu T² qonuni boʻyicha kutiladigan 16 martadan ham koʻp"
    )
elif vaqt_qiyalik >= 1.85:
    vaqt_T2 = "bu T² qonuni boʻyicha kutiladigan 16 martaga yaqin"
else:
    vaqt_T2 = (
        "bu T² qonuni boʻyicha kutiladigan 16 martadan kam: bu oraliqda"
        " vaqt T² dan sekinroq oʻsdi"
    )
glue("vaqt_T2_jumla", vaqt_T2, display=False)
# qiyalik 2 atrofida (1,85–2,15) — «taxminan T²»
if vaqt_qiyalik >= 2.15:
    T2_xulosa = "xotira T² ga proporsional, vaqt esa undan ham tez"
elif vaqt_qiyalik >= 1.85:
    T2_xulosa = "xotira ham, vaqt ham taxminan T² ga proporsional"
else:
    T2_xulosa = "xotira T² ga proporsional, vaqt ham tez"
glue("vaqt_T2_xulosa", T2_xulosa + " oʻsadi", display=False)
glue(
    "vaqt_osish_katta",
    float(xotira.loc[960, "vaqt (ms)"] / xotira.loc[240, "vaqt (ms)"]),
    display=False,
)
glue("uzun_T", uzun, display=False)
# bir xil hisob, ikki jadval: farq vaqt oʻlchovining shovqinimi
t240_a = float(vj.loc[240, ("fwd (ms)", "attention")])
t240_b = float(xotira.loc[240, "vaqt (ms)"])
ikki_farq = abs(t240_a - t240_b) / min(t240_a, t240_b)
glue("t240_vaqt_jadval", t240_a, display=False)
glue("t240_xotira_jadval", t240_b, display=False)
glue("ikki_olchov_farq", ikki_farq, display=False)
glue(
    "ikki_olchov_gap",
    (
        f"ular {son(ikki_farq, '.0%')} farq qiladi — bunday farqni vaqt"
        " oʻlchovining shovqini ham beradi, hisob esa bir xil"
        if ikki_farq <= 0.25
        else f"ular {son(ikki_farq, '.0%')} farq qiladi, bu shovqindan"
        " katta; sababini bu nashrda aniqlamadik"
    ),
    display=False,
)
glue("uzun_gib", uzun * uzun * 4 / 2**30, display=False)


# %% [markdown]
# *T* har ikki barobar oshganda matritsa aniq
# {glue:text}`matritsa_osish:.1f` barobar oʻsdi — log-log oʻqlarda bu
# {term}`qiyaligi <qiyalik>` 2 ga teng chiziq. Vaqt ham oʻsadi: *T* 240 dan 960 ga
# (4 marta) oshganda u {glue:text}`vaqt_osish_katta:.0f` marta oʻsdi —
# {glue:text}`vaqt_T2_jumla`. *T* = 960 da bitta oldinga oʻtish
# {glue:text}`vaqt_960:.0f` ms.
#
# *T* = 240 dagi oldinga oʻtish ikki marta oʻlchandi:
# {numref}`%s-jadvalda <vaqt_jadval>` {glue:text}`t240_vaqt_jadval:.2f` ms,
# {numref}`%s-jadvalda <xotira_jadval>` {glue:text}`t240_xotira_jadval:.2f` ms.
# Bu — bir xil hisobning ikki alohida oʻlchovi (boshqa tasodifiy parametrli
# model, boshqa payt): {glue:text}`ikki_olchov_gap`.
#
# Demak, {glue:text}`vaqt_T2_xulosa`. Bitta
# uzun hujjat (*T* = {glue:text}`uzun_T`) uchun bitta attention matritsasining
# oʻzi {glue:text}`uzun_gib:.0f` GiB boʻladi. Haqiqiy modelda esa bunday
# matritsa har {term}`qatlamda <qatlam>` va har «boshda» bor ({term}`boshlar <bosh>` haqida — {doc}`«Transformer bloki va KV kesh» <transformer>` darsida),
# qatlamlar va boshlar esa oʻnlab.
#
# ## FlashAttention va SDPA
#
# {term}`FlashAttention` ({cite:alp}`dao2022`) — $T \times T$ matritsani xotirada
# toʻliq saqlamaydigan attention kerneli (ingl. *kernel*: bitta amalni
# bajaradigan optimallashtirilgan past darajali funksiya). Bunday kernellar
# $Q K^\top$ ni boʻlaklab hisoblaydi va {term}`softmaxni <softmax>` boʻlak-boʻlak
# yigʻadi. PyTorchda `torch.nn.functional.scaled_dot_product_attention`
# (SDPA) mos kernelni tanlaydi: CPUda flash kerneli faqat 4 oʻlchamli kirishda (namuna, bosh,
# *T*, *d*) ishlaydi, 3 oʻlchamli kirishda SDPA oddiy («math») yoʻlga
# qaytadi. SDPAni (4 va 3 oʻlchamli kirish bilan) qoʻlda yozilgan formula bilan
# *T* = 4096 gacha solishtiramiz: 8 ta namuna, bitta bosh, *d* = 32, xotira choʻqqisi
# (`xotira_chuqqisi`), vaqt (mediana) va formula natijasidan eng katta farq
# ({numref}`flash_jadval`).

# %%
import torch.nn.functional as F


def yozilgan(Q, K, V):
    # bobdagi formula: T×T matritsa toʻliq yasaladi
    return (
        torch.softmax(
            Q @ K.transpose(-2, -1) / Q.shape[-1] ** 0.5, dim=-1
        )
        @ V
    )


flash = []
for Tx in [256, 512, 1024, 2048, 4096]:
    torch.manual_seed(0)
    # (namuna, bosh, T, d)
    Q, K, V = (torch.randn(8, 1, Tx, 32) for _ in range(3))
    # (namuna, T, d)
    uch = (Q[:, 0], K[:, 0], V[:, 0])
    with torch.no_grad():
        asl = yozilgan(Q, K, V)
        for nom, fn, kirish in [
            ("formula", yozilgan, (Q, K, V)),
            ("SDPA", F.scaled_dot_product_attention, (Q, K, V)),
            ("SDPA, 3 oʻlchamli", F.scaled_dot_product_attention, uch),
        ]:
            chuqqi, chiqish = xotira_chuqqisi(fn, *kirish)
            farq = (chiqish.reshape(asl.shape) - asl).abs().max()
            flash.append(
                {
                    "T": Tx,
                    "usul": nom,
                    "choʻqqi (MiB)": chuqqi / 2**20,
                    "vaqt (ms)": median_ms(
                        "fn(*kirish)", fn=fn, kirish=kirish
                    ),
                    "eng katta farq": float(farq),
                }
            )
fl = pd.DataFrame(flash)
show(
    fl.round({"choʻqqi (MiB)": 2, "vaqt (ms)": 1}).assign(
        **{
            "eng katta farq": (
                fl["eng katta farq"].map(lambda v: son(v, ".1e"))
            )
        }
    ),
    izoh=(
        "Qoʻlda yozilgan formula va SDPA: xotira choʻqqisi, vaqt"
        f" ({IPLAR}"
        " oqimda, mediana) va formula natijasidan eng katta farq (8 ta"
        " namuna, d = 32)."
    ),
    nom="flash_jadval",
)


def qiyalik(usul, ustun, eng_kichik_T=1024):
    # log-log qiyalik: T ≥ 1024 nuqtalari orqali eng kichik
    # kvadratlar toʻgʻri chizigʻi
    a = fl[(fl.usul == usul) & (fl["T"] >= eng_kichik_T)]
    return float(np.polyfit(np.log2(a["T"]), np.log2(a[ustun]), 1)[0])


katta = fl[fl["T"] == 4096].set_index("usul")

rasm, (b1, b2) = plt.subplots(2, 1, figsize=(5.6, 6.4), sharex=True)
for usul, belgi in [
    ("formula", "o-"),
    ("SDPA", "s--"),
    ("SDPA, 3 oʻlchamli", "^:"),
]:
    a = fl[fl.usul == usul]
    b1.loglog(a["T"], a["choʻqqi (MiB)"], belgi, label=usul)
    b2.loglog(a["T"], a["vaqt (ms)"], belgi, label=usul)
b1.set_ylabel("xotira choʻqqisi (MiB)")
b1.legend()
Tlar = sorted(fl["T"].unique())
b2.set_xticks(Tlar, [str(t) for t in Tlar])
b2.minorticks_off()
b2.set_xlabel("T")
b2.set_ylabel("vaqt (ms)")
b2.legend()
for b in (b1, b2):
    b.grid(True, which="both", alpha=0.3)
plt.tight_layout()
fig(
    "flash.png",
    caption=(
        "Qoʻlda yozilgan formula va SDPA (4 va 3 oʻlchamli kirish),"
        " log-log"
        " oʻqlarda (8 ta namuna, d = 32). Yuqorida: xotira choʻqqisi."
        " Pastda: vaqt."
    ),
)


# %% tags=["remove-cell"]
for usul, q in [
    ("formula", "formula"),
    ("SDPA", "sdpa"),
    ("SDPA, 3 oʻlchamli", "sdpa3"),
]:
    for ustun, qisqa in [
        ("choʻqqi (MiB)", "xotira"),
        ("vaqt (ms)", "vaqt"),
    ]:
        glue(f"fl_{qisqa}_{q}", qiyalik(usul, ustun), display=False)
for nom, usul, ustun in [
    ("fl_chuqqi_formula", "formula", "choʻqqi (MiB)"),
    ("fl_chuqqi_sdpa", "SDPA", "choʻqqi (MiB)"),
    ("fl_vaqt_formula_ms", "formula", "vaqt (ms)"),
    ("fl_vaqt_sdpa_ms", "SDPA", "vaqt (ms)"),
    ("fl_chuqqi_sdpa3", "SDPA, 3 oʻlchamli", "choʻqqi (MiB)"),
]:
    glue(nom, float(katta.loc[usul, ustun]), display=False)
glue("fl_farq", float(fl["eng katta farq"].max()), display=False)
glue(
    "fl_xotira_sdpa_soz",
    (
        "chiziqli"
        if qiyalik("SDPA", "choʻqqi (MiB)") < 1.5
        else "kvadratik"
    ),
    display=False,
)
glue(
    "fl_xotira_sdpa3_soz",
    (
        "chiziqli"
        if qiyalik("SDPA, 3 oʻlchamli", "choʻqqi (MiB)") < 1.5
        else "kvadratik"
    ),
    display=False,
)
glue(
    "fl_vaqt_sdpa_soz",
    (
        "kvadratik"
        if qiyalik("SDPA", "vaqt (ms)") >= 1.5
        else "kvadratikdan sekin"
    ),
    display=False,
)


# %% [markdown]
# {numref}`%s-rasmdagi <flash>` chiziqlarning qiyaligini *T* = 1024, 2048
# va 4096 nuqtalari orqali oʻtkazilgan eng yaqin chiziqdan
# (eng kichik kvadratlar usuli) oʻlchadik: qiyalik 2 — $T^2$ ga, qiyalik 1 —
# *T* ga proporsional. Formula boʻyicha hisobda xotira qiyaligi
# {glue:text}`fl_xotira_formula:.2f` boʻldi (*T* = 4096 da
# {glue:text}`fl_chuqqi_formula:.0f` MiB). SDPAda esa qiyalik
# {glue:text}`fl_xotira_sdpa:.2f` — kvadratik emas. *T* = 4096 da SDPA
# {glue:text}`fl_chuqqi_sdpa:.1f` MiB ishlatadi: asosan chiqishning oʻzi (u *T* ga
# chiziqli), qolgani har oqimga kichik ish buferi; shuning uchun qiyalik 1
# dan ham kichik chiqishi mumkin.
#
# Xotira nashr tayyorlanayotgan jarayondagi oqimlar soni bilan, vaqt esa bitta
# oqimda oʻlchangan. 3 oʻlchamli kirishda SDPA xotirasi qiyaligi
# {glue:text}`fl_xotira_sdpa3:.2f` bilan oʻsib, {glue:text}`fl_chuqqi_sdpa3:.0f`
# MiBga yetdi: u $T \times T$ matritsani baribir hosil qiladi. Vaqt esa formulada
# ham, flash kernelida ham oʻsdi: qiyalik mos ravishda
# {glue:text}`fl_vaqt_formula:.2f` va {glue:text}`fl_vaqt_sdpa:.2f`; SDPAda ham {glue:text}`fl_vaqt_sdpa_soz`, *T* = 4096 da
# {glue:text}`fl_vaqt_sdpa_ms:.0f` ms (formulada
# {glue:text}`fl_vaqt_formula_ms:.0f` ms).
#
# Natijalar amalda bir xil: eng katta
# farq {glue:text}`fl_farq:.1e`. Xulosa: FlashAttention turidagi kernel
# $T^2$ hajmli **xotira sarfini** yoʻqotadi, $T^2$ **hisob hajmini** esa kamaytirmaydi — har
# {term}`soʻrov` baribir har {term}`kalit` bilan solishtiriladi. Kernel maʼlum kirish shaklini ham
# talab qiladi: boshqa shaklda bu foyda yoʻqoladi.

# %% tags=["remove-cell"]
# Xulosa sahifasi uchun (xulosa.py dagi jadval bu gaplarni shu darsdan
# oladi)
glue(
    "xl_narx",
    "Oʻlchandi:"
    f" {T2_xulosa}"
    " oʻsadi; 4 oʻlchamli kirishdagi SDPA (flash) xotirani"
    f" {'chiziqli' if qiyalik('SDPA', 'choʻqqi (MiB)') < 1.5 else 'kvadratik'}"
    " qiladi, vaqtni emas",
    display=False,
)
glue(
    "xl_parallel",
    f"Oʻlchandi (T = {T_kat}): attention {son(mac_nisbat, '.1f')} marta"
    f" koʻp MAC, ketma-ket bosqichi 1 (RNNda {T_kat}); {IPLAR} oqimda"
    f" {son(vaqt_nisbat, '.1f')} marta"
    f" {'sekinroq' if vaqt_nisbat > 1 else 'tezroq'}",
    display=False,
)
