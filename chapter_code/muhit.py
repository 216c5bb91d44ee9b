"""The arithmetic this machine does: what decides how an unstable training ends.

The same code, seed and data give bit-for-bit the same training on one machine,
but not across machines: PyTorch picks its CPU kernels from what the processor
can do (``ATEN_CPU_CAPABILITY`` caps it: ``default``, ``avx2``, ``avx512``), MKL
its BLAS code path (``MKL_ENABLE_INSTRUCTIONS``, ``MKL_CBWR``) and oneDNN its
instruction set (``ONEDNN_MAX_CPU_ISA``), and a different order of additions
rounds differently.  An unstable training can then end elsewhere (the chapter's
LSTM stalled on one CPU and solved the task on another).

``izi()`` is a short text naming those inputs: the processor (its model name and
the instruction-set flags the kernels are chosen by) and the environment
variables that override the choice.  Results computed under one arithmetic are
kept under it: the store of trainings (``chapter_code.ombor``) and the build's
execution cache (``book/_ext/kesh.py``, the build's second door into this
package) put it in their keys, so a build under another setting trains and
executes afresh, and going back takes the kept results again.  Imports nothing
heavy (no torch), since the build reads it too.
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
    """(model name, the BELGILAR flags it has), from /proc/cpuinfo; platform's name elsewhere."""
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
    """The OZGARUVCHILAR that are set, with their values."""
    return {k: os.environ[k] for k in OZGARUVCHILAR if os.environ.get(k)}


def izi() -> str:
    """One line naming the arithmetic: processor, its kernel flags, the overriding variables."""
    nom, belgilar = protsessor()
    sozlama = " ".join(f"{k}={v}" for k, v in sozlamalar().items())
    return f"{nom} [{' '.join(belgilar)}] {sozlama}".rstrip()
