"""Benchmark of the build (``make bench``): every figure measured in one run, side by side.

(a) the seed's own code as written (helpers replaced by no-ops), from ../shared/seed/;
(b) cold execution of the chapter (no cache), with a per-cell profile;
(c) a cold full build: site and PDF (``python -m chapter_code.qurish``, as ``make book``);
(d) a warm rebuild after editing one line of prose (must execute no cell): the
    HTML alone (what an author waits for) and the full site + PDF;
(e) a rebuild after editing one line in chapter_code/ (must re-execute the chapter).

The builds run on a scratch copy of the repository, so the real cache and site
are untouched.  Prints a table and writes it as JSON to _build/bench.json.
Not a test: nothing here is collected by pytest.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import jupytext
import nbformat
from nbclient import NotebookClient

ILDIZ = Path(__file__).resolve().parent.parent
SEED = ILDIZ.parent / "shared" / "seed" / "000_45c3922668951166.txt"
JB = str(Path(sys.executable).parent / "jupyter-book")
BOB = "book/attention.py"
NOOP = "def diagramma(*a, **k): pass\ndef show(*a, **k): pass\ndef fig(*a, **k): pass\n"


def soat(fn):
    t0 = time.perf_counter()
    natija = fn()
    return time.perf_counter() - t0, natija


def seed_baseline(ish: Path) -> float:
    """(a) the seed as written, the three helpers as no-ops; its first line is the title."""
    matn = SEED.read_text().split("\n", 1)[1]
    skript = ish / "seed_baseline.py"
    skript.write_text(NOOP + matn)
    vaqt, natija = soat(lambda: subprocess.run([sys.executable, str(skript)], cwd=ish,
                                               capture_output=True, text=True))
    if natija.returncode != 0:
        raise SystemExit(f"the seed failed:\n{natija.stderr[-2000:]}")
    return vaqt


def chapter_cold(nusxa: Path) -> tuple[float, list[dict]]:
    """(b) execute the chapter with nbclient, no cache; per-cell wall times."""
    nb = jupytext.read(nusxa / BOB)
    client = NotebookClient(nb, timeout=1800, kernel_name="python3",
                            resources={"metadata": {"path": str(nusxa / "book")}})
    vaqt, _ = soat(client.execute)
    hujayralar = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        ex = cell.metadata.get("execution", {})
        t0, t1 = ex.get("iopub.execute_input"), ex.get("shell.execute_reply")
        if t0 and t1:
            sekund = (dt.datetime.fromisoformat(t1.replace("Z", "+00:00"))
                      - dt.datetime.fromisoformat(t0.replace("Z", "+00:00"))).total_seconds()
            hujayralar.append({"cell": i, "seconds": round(sekund, 2),
                               "first_line": cell.source.splitlines()[0][:60] if cell.source else ""})
    return vaqt, hujayralar


def build(nusxa: Path, toliq: bool = True) -> tuple[float, str]:
    """Site + PDF as make book does (toliq), or the HTML alone."""
    buyruq = ([sys.executable, "-m", "chapter_code.qurish", str(nusxa)] if toliq
              else [JB, "build", str(nusxa), "-W", "-n", "--keep-going"])
    vaqt, natija = soat(lambda: subprocess.run(buyruq, capture_output=True, text=True))
    log = natija.stdout + natija.stderr
    if natija.returncode != 0:
        raise SystemExit(f"build failed:\n{log[-3000:]}")
    return vaqt, log


def executed(log: str) -> bool:
    return "Executing notebook" in log


def nusxa_qil(maqsad: Path) -> Path:
    nusxa = maqsad / "kitob"
    shutil.copytree(ILDIZ, nusxa, ignore=shutil.ignore_patterns(
        "_build", ".venv", ".git", "__pycache__", ".pytest_cache"))
    return nusxa


def main() -> None:
    natija: dict = {"cores": os.cpu_count(), "workers": os.environ.get("KITOB_JARAYONLAR", "all cores")}
    with tempfile.TemporaryDirectory() as tmp:
        ish = Path(tmp)
        nusxa = nusxa_qil(ish)

        print("(a) seed as written ...", flush=True)
        natija["a_seed_baseline_s"] = round(seed_baseline(ish), 1)
        print("(b) cold chapter execution ...", flush=True)
        vaqt, hujayralar = chapter_cold(nusxa)
        natija["b_chapter_cold_s"] = round(vaqt, 1)
        natija["cells"] = hujayralar
        print("(c) cold full build ...", flush=True)
        vaqt, log = build(nusxa)
        natija["c_build_cold_s"] = round(vaqt, 1)
        natija["c_executed"] = executed(log)

        print("(d) warm rebuild after a prose edit ...", flush=True)
        bob = nusxa / BOB
        matn = bob.read_text()
        satr = next(s for s in matn.splitlines() if s.startswith("# Bu bobda siz"))
        bob.write_text(matn.replace(satr, satr + " (tahrir)", 1))
        vaqt, log = build(nusxa, toliq=False)
        natija["d_rebuild_prose_html_s"] = round(vaqt, 1)
        natija["d_executed"] = executed(log)
        bob.write_text(matn.replace(satr, satr + " (ikkinchi tahrir)", 1))
        vaqt, log = build(nusxa)
        natija["d_rebuild_prose_full_s"] = round(vaqt, 1)
        natija["d_executed"] = natija["d_executed"] or executed(log)

        print("(e) rebuild after a chapter_code/ edit ...", flush=True)
        with open(nusxa / "chapter_code" / "malumot.py", "a") as f:
            f.write("# benchmark edit\n")
        vaqt, log = build(nusxa)
        natija["e_rebuild_code_s"] = round(vaqt, 1)
        natija["e_executed"] = executed(log)

    natija["ratio_a_over_b"] = round(natija["a_seed_baseline_s"] / natija["b_chapter_cold_s"], 2)
    chiqish = ILDIZ / "_build" / "bench.json"
    chiqish.parent.mkdir(exist_ok=True)
    chiqish.write_text(json.dumps(natija, indent=2, ensure_ascii=False))

    print()
    print(f"{'measurement':<46}{'seconds':>9}  note")
    print("-" * 72)
    print(f"{'(a) seed as written (helpers no-op)':<46}{natija['a_seed_baseline_s']:>9}")
    print(f"{'(b) chapter, cold execution':<46}{natija['b_chapter_cold_s']:>9}  target <= 45")
    print(f"{'(c) full build, cold (HTML + PDF)':<46}{natija['c_build_cold_s']:>9}")
    print(f"{'(d) rebuild after a prose edit, HTML':<46}{natija['d_rebuild_prose_html_s']:>9}"
          f"  target <= 10, executed: {natija['d_executed']} (want False)")
    print(f"{'(d) rebuild after a prose edit, HTML + PDF':<46}{natija['d_rebuild_prose_full_s']:>9}")
    print(f"{'(e) rebuild after a chapter_code/ edit':<46}{natija['e_rebuild_code_s']:>9}"
          f"  executed: {natija['e_executed']} (want True)")
    print(f"ratio (a)/(b): {natija['ratio_a_over_b']}  (target >= 8)   cores: {natija['cores']}")
    print()
    print("per-cell profile of (b), slowest first:")
    for c in sorted(natija["cells"], key=lambda c: -c["seconds"])[:8]:
        print(f"  cell {c['cell']:>3} {c['seconds']:>7.2f} s  {c['first_line']}")
    print(f"\nwritten: {chiqish}")


if __name__ == "__main__":
    main()
