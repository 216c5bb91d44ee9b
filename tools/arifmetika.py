"""The chapter under other arithmetic: build it and run the claim tests once per CPU setting.

Unstable trainings end differently on different CPUs.  A claim the chapter states
without a branch (kind a, README) must hold with a margin on all of them;
``tests/test_claims.py`` asserts each through ``tests/davo.py``, which here also
records the claim's margin (its distance from the threshold).  This runs the claims
under other arithmetic on one machine: PyTorch picks its CPU kernels from
``ATEN_CPU_CAPABILITY`` and MKL from ``MKL_ENABLE_INSTRUCTIONS`` (oneDNN from
``ONEDNN_MAX_CPU_ISA``), so each setting below gives other rounding, other
trainings, and — where an outcome flips — other sentences.

For each setting: a copy of the project (without ``_build``) in a temporary
folder, so the published site and the store are not touched; an empty store
and execution cache; then ``pytest tests/test_claims.py tests/test_build.py``
there (its fixture builds the book).  Prints each setting's test result and the
measured values of the spread the text glues (kind b), then every kind-(a) claim with
its value and margin in each setting and its smallest margin; writes it all to
``_build/arifmetika.json``.

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
#: glued values that report how trainings ended (kind b: the text glues their spread)
KORSATILADI = ("hisob_muhiti", "rnn_seedlar", "lstm_seedlar", "attn_seedlar", "attn0_seedlar",
               "rnn_yechdi", "lstm_yechdi", "tr_aniq_0", "tr_aniq_1", "tz_yopiq_00_max",
               "tr_moslik_foiz", "at_min")


def bitta(nom: str, ozgaruvchilar: dict[str, str]) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"arifmetika-{nom}-") as papka:
        nusxa = Path(papka) / "loyiha"
        shutil.copytree(ILDIZ, nusxa, ignore=shutil.ignore_patterns(
            "_build", ".venv", ".git", "node_modules", "__pycache__", ".pytest_cache"))
        muhit = {k: v for k, v in os.environ.items() if k not in ("KITOB_OMBOR", "KITOB_OMBORSIZ")}
        davolar = nusxa / "davolar.jsonl"
        muhit.update(ozgaruvchilar, PYTHONPATH=str(nusxa),     # the copy's chapter_code, not ours
                     KITOB_DAVOLAR=str(davolar))
        boshi = time.monotonic()
        natija = subprocess.run([sys.executable, "-m", "pytest", "tests/test_claims.py", "tests/test_build.py",
                                 "-q", "-p", "no:cacheprovider"], cwd=nusxa, env=muhit,
                                capture_output=True, text=True)
        soniya = time.monotonic() - boshi
        glue = {}                               # every lesson's glued values
        for yol in sorted((nusxa / "_build" / "jupyter_execute").rglob("*.glue.json")):
            glue.update(json.loads(yol.read_text()))
        # read while the copy exists (the temporary folder goes with the block)
        yozuvlar = ([json.loads(q) for q in davolar.read_text(encoding="utf-8").splitlines()]
                    if davolar.is_file() else [])
    return {"sozlama": ozgaruvchilar, "soniya": round(soniya), "otdi": natija.returncode == 0,
            "pytest": natija.stdout.strip().splitlines()[-1:] if natija.stdout.strip() else [],
            "chiqish": "" if natija.returncode == 0 else (natija.stdout + natija.stderr)[-4000:],
            "natijalar": {k: glue.get(k, {}).get("data", {}).get("text/plain") for k in KORSATILADI},
            "davolar": yozuvlar}


def zaxiralar(hammasi: dict) -> dict[str, dict]:
    """Each kind-(a) claim: its value and margin in each setting, and its smallest margin."""
    davolar: dict[str, dict] = {}
    for nom, natija in hammasi.items():
        for d in natija["davolar"]:
            q = davolar.setdefault(d["davo"], {"sozlamalar": {}, "eng_kichik": float("inf")})
            q["sozlamalar"][nom] = (d["qiymat"], d["zaxira"])
            q["eng_kichik"] = min(q["eng_kichik"], d["zaxira"])
    return davolar


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
    davolar = zaxiralar(hammasi)
    print(f"\n{len(davolar)} kind-(a) claims, smallest margin over {len(hammasi)} setting(s) "
          f"(value/margin per setting):")
    for davo, q in sorted(davolar.items(), key=lambda x: x[1]["eng_kichik"]):
        boylab = "; ".join(f"{n} {v:.4g}/{z:.3g}" for n, (v, z) in q["sozlamalar"].items())
        print(f"  {q['eng_kichik']:>10.4g}  {davo}  ({boylab})")
    (ILDIZ / "_build").mkdir(exist_ok=True)
    (ILDIZ / "_build" / "arifmetika.json").write_text(
        json.dumps({"sozlamalar": hammasi, "davolar": davolar}, ensure_ascii=False, indent=1))
    return 0 if all(n["otdi"] for n in hammasi.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
