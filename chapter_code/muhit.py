"""Shu mashinaning arifmetikasi: beqaror oʻqitish qanday tugashini u hal qiladi.

Bir xil kod, seed va maʼlumot bitta mashinada bitma-bit bir xil oʻqitish beradi, turli
mashinalarda esa har doim emas: PyTorch CPU yadrolarini protsessor nimalarga qodirligiga
qarab tanlaydi (``ATEN_CPU_CAPABILITY`` bu tanlovning yuqori chegarasini qoʻyadi:
``default``, ``avx2``, ``avx512``), MKL — oʻz BLAS kodining yoʻlini
(``MKL_ENABLE_INSTRUCTIONS``, ``MKL_CBWR``), oneDNN esa koʻrsatmalar toʻplamini
(``ONEDNN_MAX_CPU_ISA``); qoʻshishlar tartibi boshqacha boʻlsa, yaxlitlash ham boshqacha
boʻladi.  Shunda beqaror oʻqitish boshqacha tugashi mumkin (bobdagi LSTM bir protsessorda
toʻxtab qoldi, boshqasida esa vazifani yechdi).

``izi()`` — shu omillarni aytadigan qisqa matn: protsessor (model nomi va yadrolar
tanlanadigan koʻrsatmalar toʻplami belgilari) hamda bu tanlovni oʻzgartiradigan muhit
oʻzgaruvchilari.  Bir arifmetikada hisoblangan natijalar shu arifmetika ostida saqlanadi:
oʻqitishlar ombori (``chapter_code.ombor``) ham, yigʻishning bajarish keshi
(``book/_ext/ijro.py``, yigʻishning bu paketga ikkinchi eshigi) ham uni oʻz kalitiga
qoʻshadi; shuning uchun boshqa sozlamadagi yigʻish yangidan oʻqitadi va bajaradi, avvalgi
sozlamaga qaytilganda esa saqlangan natijalar yana olinadi.  Ogʻir hech narsani (torchni
ham) import qilmaydi, chunki uni yigʻish ham oʻqiydi.
"""

from __future__ import annotations

import os
import platform

#: environment variables that change which CPU code the libraries run
OZGARUVCHILAR = ("ATEN_CPU_CAPABILITY", "MKL_ENABLE_INSTRUCTIONS", "MKL_CBWR",
                 "ONEDNN_MAX_CPU_ISA", "DNNL_MAX_CPU_ISA")
#: the processor flags PyTorch, MKL and oneDNN choose their kernels by
BELGILAR = ("sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl",
            "avx512_vnni", "avx512_bf16", "amx_tile", "neon", "asimd", "sve")


def protsessor() -> tuple[str, tuple[str, ...]]:
    """(model nomi, BELGILAR dan unda borlari) — /proc/cpuinfo dan; boshqa tizimlarda
    platform bergan nom."""
    nom, belgilar = "", set()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for qator in f:
                kalit, _, qiymat = qator.partition(":")
                kalit = kalit.strip()
                if kalit == "model name" and not nom:
                    nom = qiymat.strip()
                elif kalit in ("flags", "Features") and not belgilar:
                    belgilar = set(qiymat.split())
    except OSError:
        pass
    return (nom or platform.processor() or platform.machine() or "nomaʼlum",
            tuple(b for b in BELGILAR if b in belgilar))


def sozlamalar() -> dict[str, str]:
    """OZGARUVCHILAR dan oʻrnatilganlari, qiymatlari bilan."""
    return {k: os.environ[k] for k in OZGARUVCHILAR if os.environ.get(k)}


def izi() -> str:
    """Arifmetikani nomlaydigan bitta qator: protsessor, uning yadrolar tanlanadigan
    belgilari va bu tanlovni oʻzgartiradigan oʻzgaruvchilar."""
    nom, belgilar = protsessor()
    sozlama = " ".join(f"{k}={v}" for k, v in sozlamalar().items())
    return f"{nom} [{' '.join(belgilar)}] {sozlama}".rstrip()
