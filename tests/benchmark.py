"""Benchmark of the author's loop (``make bench``): every figure measured in one run, side by side.

On a scratch copy of the repository (its own ``_build``, its own store of kept
trainings; the real cache, store and site are untouched):

(a) cold execution of the chapter (nbclient, fresh kernel, empty store), and,
    right after it, the same for the chapter at commit ``BAZA`` (f1dd76e, before
    the store existed) from ``git archive``: the ratio says whether the store
    slowed the cold path;
(b) a cold full build (site + PDF, ``qurish``, as ``make book``);
(c) HTML rebuilds after one edit each, reporting seconds, whether the chapter
    executed and how many trainings ran (new entries in the store):
    prose; one plotting cell (a figure's size); build code (a comment in an
    extension); the plotting helpers (``chapter_code/kitob.py``); model code
    (``chapter_code/modellar.py``: every training depends on it).

With ``BENCH_SEED=<path of the seed draft>`` it also times that draft as
written (helpers as no-ops), which takes about 8 minutes.  Prints a table and writes
``_build/bench.json``.  Not a test: nothing here is collected by pytest.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import jupytext
from nbclient import NotebookClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "book" / "_ext"))
from qurish import ILDIZ, jb_buyrugi  # noqa: E402

BOB = "book/attention.py"
BAZA = "f1dd76e"
NOOP = "def diagramma(*a, **k): pass\ndef show(*a, **k): pass\ndef fig(*a, **k): pass\n"


def soat(fn):
    t0 = time.perf_counter()
    natija = fn()
    return time.perf_counter() - t0, natija


def seed_baseline(ish: Path, seed: Path) -> float:
    """The seed as written, the three helpers as no-ops; its first line is the title."""
    if not seed.is_file():
        raise SystemExit(f"BENCH_SEED={seed}: no such file; give the path of the seed draft")
    matn = seed.read_text().split("\n", 1)[1]
    skript = ish / "seed_baseline.py"
    skript.write_text(NOOP + matn)
    vaqt, natija = soat(lambda: subprocess.run([sys.executable, str(skript)], cwd=ish,
                                               capture_output=True, text=True))
    if natija.returncode != 0:
        raise SystemExit(f"the seed failed:\n{natija.stderr[-2000:]}")
    return vaqt


def sovuq_ijro(ildiz: Path, ombor: Path) -> tuple[float, list[dict]]:
    """Execute the chapter of the project at ``ildiz`` in a fresh kernel, empty store; per-cell times."""
    nb = jupytext.read(ildiz / BOB)
    eski = dict(os.environ)
    os.environ.update(PYTHONPATH=str(ildiz), KITOB_OMBOR=str(ombor))   # the kernel inherits them
    os.environ.pop("KITOB_OMBORSIZ", None)
    try:
        client = NotebookClient(nb, timeout=1800, kernel_name="python3",
                                resources={"metadata": {"path": str(ildiz / "book")}})
        vaqt, _ = soat(client.execute)
    finally:
        os.environ.clear()
        os.environ.update(eski)
    hujayralar = []
    for i, cell in enumerate(nb.cells):
        ex = cell.metadata.get("execution", {}) if cell.cell_type == "code" else {}
        t0, t1 = ex.get("iopub.execute_input"), ex.get("shell.execute_reply")
        if t0 and t1:
            sekund = (dt.datetime.fromisoformat(t1.replace("Z", "+00:00"))
                      - dt.datetime.fromisoformat(t0.replace("Z", "+00:00"))).total_seconds()
            hujayralar.append({"cell": i, "seconds": round(sekund, 2),
                               "first_line": cell.source.splitlines()[0][:60] if cell.source else ""})
    return vaqt, hujayralar


def qur(nusxa: Path, toliq: bool = False) -> tuple[float, str]:
    """Site + PDF as make book does (toliq), or the HTML alone (what an author waits for)."""
    buyruq = ([sys.executable, str(nusxa / "book" / "_ext" / "qurish.py"), str(nusxa)] if toliq
              else jb_buyrugi(nusxa))
    muhit = {**os.environ, "PYTHONPATH": str(nusxa)}
    muhit.pop("KITOB_OMBORSIZ", None)
    vaqt, natija = soat(lambda: subprocess.run(buyruq, capture_output=True, text=True, env=muhit))
    log = natija.stdout + natija.stderr
    if natija.returncode != 0:
        raise SystemExit(f"build failed:\n{log[-3000:]}")
    return vaqt, log


def nusxa_qil(maqsad: Path) -> Path:
    nusxa = maqsad / "kitob"
    shutil.copytree(ILDIZ, nusxa, ignore=shutil.ignore_patterns(
        "_build", ".venv", ".git", "__pycache__", ".pytest_cache"))
    return nusxa


def baza_qil(maqsad: Path) -> Path:
    """The project at commit BAZA, from git archive."""
    arxiv = subprocess.run(["git", "-C", str(ILDIZ), "archive", BAZA], capture_output=True, check=True)
    baza = maqsad / "baza"
    with tarfile.open(fileobj=io.BytesIO(arxiv.stdout)) as t:
        t.extractall(baza, filter="data")
    return baza


def tahrir(fayl: Path, eski: str, yangi: str) -> None:
    matn = fayl.read_text()
    if eski not in matn:
        raise SystemExit(f"benchmark: {eski!r} is not in {fayl}; update the benchmark's edit")
    fayl.write_text(matn.replace(eski, yangi, 1))


def main() -> None:
    natija: dict = {"cores": os.cpu_count(), "workers": os.environ.get("KITOB_JARAYONLAR", "all cores")}
    with tempfile.TemporaryDirectory() as tmp:
        ish = Path(tmp)
        nusxa = nusxa_qil(ish)
        ombor = nusxa / "_build" / "ombor"

        if os.environ.get("BENCH_SEED"):
            print("seed as written ...", flush=True)
            natija["seed_s"] = round(seed_baseline(ish, Path(os.environ["BENCH_SEED"])), 1)
        print("(a) cold execution, this commit and", BAZA, "...", flush=True)
        vaqt, hujayralar = sovuq_ijro(nusxa, ish / "bosh-ombor")
        natija["a_cold_s"], natija["cells"] = round(vaqt, 1), hujayralar
        vaqt, _ = sovuq_ijro(baza_qil(ish), ish / "baza-ombor")
        natija["a_cold_base_s"] = round(vaqt, 1)
        print("(b) cold full build ...", flush=True)
        vaqt, log = qur(nusxa, toliq=True)
        natija["b_build_cold_s"] = round(vaqt, 1)

        def ozgarish(nom: str, yol: str, eski: str, yangi: str) -> None:
            print(f"(c) {nom} ...", flush=True)
            qur(nusxa)                                # nothing pending
            oldin = set(ombor.rglob("*.pt"))
            tahrir(nusxa / yol, eski, yangi)
            vaqt, log = qur(nusxa)
            natija[nom] = {"s": round(vaqt, 1), "executed": "Executing notebook" in log,
                           "trainings": len(set(ombor.rglob("*.pt")) - oldin)}

        ozgarish("prose", BOB, "# Bu bobda siz:", "# Bu bobda siz (tahrir):")
        ozgarish("plotting cell", BOB, "figsize=(11, 3.6)", "figsize=(11, 3.7)")
        ozgarish("build code", "book/_ext/brauzer.py", '"""Build side', '# tahrir\n"""Build side')
        ozgarish("plotting helpers", "chapter_code/kitob.py", '"""Book helpers', '# tahrir\n"""Book helpers')
        ozgarish("model code", "chapter_code/modellar.py", '"""The chapter', '# tahrir\n"""The chapter')

    natija["ratio_cold_over_base"] = round(natija["a_cold_s"] / natija["a_cold_base_s"], 2)
    chiqish = ILDIZ / "_build" / "bench.json"
    chiqish.parent.mkdir(exist_ok=True)
    chiqish.write_text(json.dumps(natija, indent=2, ensure_ascii=False))

    print()
    print(f"{'measurement':<44}{'seconds':>8}  executed  trainings  target")
    print("-" * 90)
    if "seed_s" in natija:
        print(f"{'seed as written (helpers no-op)':<44}{natija['seed_s']:>8}")
    print(f"{'(a) cold execution, empty store':<44}{natija['a_cold_s']:>8}")
    print(f"{'(a) cold execution at ' + BAZA:<44}{natija['a_cold_base_s']:>8}"
          f"  ratio {natija['ratio_cold_over_base']} (target <= 1, i.e. no slower)")
    print(f"{'(b) cold full build (HTML + PDF)':<44}{natija['b_build_cold_s']:>8}")
    maqsad = {"prose": "<= 5 s, no execution", "plotting cell": "<= 20 s, 0 trainings",
              "build code": "<= 10 s, no execution", "plotting helpers": "0 trainings",
              "model code": "re-executes, retrains 12"}
    for nom, m in maqsad.items():
        r = natija[nom]
        print(f"{'(c) edit ' + nom + ', rebuild HTML':<44}{r['s']:>8}  {str(r['executed']):<8}  "
              f"{r['trainings']:>9}  {m}")
    print()
    print("per-cell profile of (a), slowest first:")
    for c in sorted(natija["cells"], key=lambda c: -c["seconds"])[:8]:
        print(f"  cell {c['cell']:>3} {c['seconds']:>7.2f} s  {c['first_line']}")
    print(f"\nwritten: {chiqish}")


if __name__ == "__main__":
    main()
