"""The chapter under other arithmetic: build it and run the claim tests once per CPU setting.

Unstable trainings end differently on different CPUs; the chapter's sentences
are built from what the build measured, and ``tests/test_claims.py`` checks that
they say so.  This shows it on one machine: PyTorch picks its CPU kernels from
``ATEN_CPU_CAPABILITY`` and MKL from ``MKL_ENABLE_INSTRUCTIONS`` (oneDNN from
``ONEDNN_MAX_CPU_ISA``), so each setting below gives other rounding, other
trainings, and — where an outcome flips — other sentences.

For each setting: a copy of the project (without ``_build``) in a temporary
folder, so the published site and the store are not touched; an empty store
and execution cache; then ``pytest tests/test_claims.py tests/test_build.py``
there (its fixture builds the book).  Prints each setting's outcome sentences
and writes them with the test results to ``_build/arifmetika.json``.

    .venv/bin/python tools/arifmetika.py            # the settings below, native first
    .venv/bin/python tools/arifmetika.py default    # only those named

About four minutes a setting on two cores.  Exits 1 if any setting's tests fail.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ILDIZ = Path(__file__).resolve().parent.parent
SOZLAMALAR = {
    "native": {},
    "default": {"ATEN_CPU_CAPABILITY": "default", "MKL_ENABLE_INSTRUCTIONS": "SSE4_2"},
    "aten-default": {"ATEN_CPU_CAPABILITY": "default"},
    "compatible": {"ATEN_CPU_CAPABILITY": "default", "MKL_CBWR": "COMPATIBLE", "ONEDNN_MAX_CPU_ISA": "SSE41"},
}
#: the glued sentences and counts that report how trainings ended
KORSATILADI = ("hisob_muhiti", "rnn_seedlar", "lstm_seedlar", "lstmu_seedlar", "attn_seedlar",
               "attn0_seedlar", "rnn_gap", "lstm_gap", "lstmu_gap", "lstm_solishtir", "poz_oqitish_gap",
               "poz_sin_soz", "poz_sin1_soz", "poz_seed1_gap", "tr_aniq_0", "tr_aniq_1", "tz_yopiq_00_max",
               "tr_moslik_foiz", "at_min")


def bitta(nom: str, ozgaruvchilar: dict[str, str]) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"arifmetika-{nom}-") as papka:
        nusxa = Path(papka) / "loyiha"
        shutil.copytree(ILDIZ, nusxa, ignore=shutil.ignore_patterns(
            "_build", ".venv", ".git", "node_modules", "__pycache__", ".pytest_cache"))
        muhit = {k: v for k, v in os.environ.items() if k not in ("KITOB_OMBOR", "KITOB_OMBORSIZ")}
        muhit.update(ozgaruvchilar, PYTHONPATH=str(nusxa))     # the copy's chapter_code, not ours
        boshi = time.monotonic()
        natija = subprocess.run([sys.executable, "-m", "pytest", "tests/test_claims.py", "tests/test_build.py",
                                 "-q", "-p", "no:cacheprovider"], cwd=nusxa, env=muhit,
                                capture_output=True, text=True)
        soniya = time.monotonic() - boshi
        glue = {}                               # every lesson's glued values
        for yol in sorted((nusxa / "_build" / "jupyter_execute").rglob("*.glue.json")):
            glue.update(json.loads(yol.read_text()))
    return {"sozlama": ozgaruvchilar, "soniya": round(soniya), "otdi": natija.returncode == 0,
            "pytest": natija.stdout.strip().splitlines()[-1:] if natija.stdout.strip() else [],
            "chiqish": "" if natija.returncode == 0 else (natija.stdout + natija.stderr)[-4000:],
            "natijalar": {k: glue.get(k, {}).get("data", {}).get("text/plain") for k in KORSATILADI}}


def main(nomlar: list[str]) -> int:
    yomon = [n for n in nomlar if n not in SOZLAMALAR]
    if yomon:
        print(f"arifmetika: unknown setting(s) {yomon}; choose from {list(SOZLAMALAR)}", file=sys.stderr)
        return 2
    hammasi = {}
    for nom in nomlar or list(SOZLAMALAR):
        print(f"=== {nom}: {SOZLAMALAR[nom] or 'no variables (this CPU as it is)'}", flush=True)
        hammasi[nom] = natija = bitta(nom, SOZLAMALAR[nom])
        print(f"    tests {'passed' if natija['otdi'] else 'FAILED'} in {natija['soniya']} s: "
              f"{' '.join(natija['pytest'])}")
        for k, v in natija["natijalar"].items():
            print(f"    {k}: {v}")
        if not natija["otdi"]:
            print(natija["chiqish"])
    (ILDIZ / "_build").mkdir(exist_ok=True)
    (ILDIZ / "_build" / "arifmetika.json").write_text(json.dumps(hammasi, ensure_ascii=False, indent=1))
    return 0 if all(n["otdi"] for n in hammasi.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
