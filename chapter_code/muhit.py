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

Hisoblar shu mashinada qancha vaqt olgani ham shu yerda yuritiladi (``sarf``): ombor har
saqlanadigan hisob vaqtini qoʻshib boradi.  Yigʻish darsni oʻqiyotganda uning nomini
``KITOB_DARS`` ga yozadi; shu dars yadrosi yigʻindini ombordagi ``sarf/<dars>.json`` ga
yozib boradi, yuklab olinadigan arxiv README si esa darslar qancha vaqt olishini undan oladi.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import platform
import sys
from pathlib import Path

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


# --------------------------------------------------------------------------
# the time the stored computations take
# --------------------------------------------------------------------------
#: The variable the build sets to the page it reads (``book/_ext/qurilish/ijro.py``): the lesson
#: whose kernel this is.
DARS = "KITOB_DARS"
#: Seconds this process's stored computations took (NaN once a record without its time was read).
_SARF = 0.0


def ombor_papkasi() -> Path:
    """Ombor papkasi (``chapter_code.ombor``): $KITOB_OMBOR, u boʻlmasa loyiha ildizidagi
    _build/ombor."""
    from chapter_code import ILDIZ

    return Path(os.environ.get("KITOB_OMBOR") or ILDIZ / "_build" / "ombor")


def sarf_fayli(dars: str, ombor: Path | None = None) -> Path:
    """Where a lesson's kernel keeps the seconds its stored computations took."""
    return (ombor or ombor_papkasi()) / "sarf" / f"{dars}.json"


def _darsmi() -> str | None:
    """The lesson this process is the kernel of: the build names it, and only the lesson's own
    process (not a ``parallel`` worker, nor the build that set the name) is its kernel."""
    dars = os.environ.get(DARS)
    if not dars or multiprocessing.parent_process() is not None:
        return None
    ipython = sys.modules.get("IPython")
    return dars if ipython is not None and ipython.get_ipython() is not None else None


def sarf() -> float:
    """Seconds this process's stored computations took, run one after another (NaN if a record
    read from the store had no time)."""
    return _SARF


def sarf_tikla(soniya: float) -> None:
    """Set this process's time back to ``soniya`` (a stored computation that calls another adds
    its own measured time, which holds the inner one's)."""
    global _SARF
    _SARF = soniya


def sarf_qosh(soniya: float) -> None:
    """Add ``soniya`` to this process's time; a lesson's kernel writes the sum where the build
    reads it (``sarf_fayli``)."""
    global _SARF
    _SARF += soniya
    _sarf_yoz()


def _sarf_yoz() -> None:
    dars = _darsmi()
    if dars:
        yol = sarf_fayli(dars)
        yol.parent.mkdir(parents=True, exist_ok=True)
        vaqtincha = yol.with_suffix(f".{os.getpid()}.tmp")
        vaqtincha.write_text(json.dumps({"soniya": None if math.isnan(_SARF) else _SARF}))
        os.replace(vaqtincha, yol)


def sarf_oqi(dars: str, ombor: Path | None = None) -> float | None:
    """The seconds a lesson's stored computations took when the build last ran it (None: not
    known: a record had no time, or the lesson does not import chapter_code)."""
    try:
        return json.loads(sarf_fayli(dars, ombor).read_text(encoding="utf-8"))["soniya"]
    except (OSError, ValueError, KeyError):
        return None


_sarf_yoz()      # a lesson's kernel starts at 0 (a lesson that no longer computes anything: 0, not its old time)
