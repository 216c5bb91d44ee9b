"""Build side: the whole site in one command (``make book`` runs this).

Steps, each strict (warnings are errors; the first failure stops the build):

1. ``jupyter-book build . -W -n --keep-going`` — the HTML site; the chapter is
   executed here (or taken from the cache);
2. the same with ``--builder pdflatex`` — the PDF, from the same cached
   execution (no second run of the chapter), via xelatex;
3. the PDF and the executed notebook are copied into the site, next to the
   pages that link to them ("PDF yuklab olish", ".ipynb").

Usage: ``python -m chapter_code.qurish [ROOT]`` (ROOT defaults to the project).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ILDIZ = Path(__file__).resolve().parent.parent
JB = str(Path(sys.executable).parent / "jupyter-book")
PDF_NOMI = "attention-va-transformer.pdf"
BOBLAR = ["attention"]          # chapters whose executed notebook is offered


def jb(ildiz: Path, *qoshimcha: str) -> None:
    buyruq = [JB, "build", str(ildiz), "-W", "-n", "--keep-going", *qoshimcha]
    print("+", " ".join(buyruq), flush=True)
    natija = subprocess.run(buyruq)
    if natija.returncode != 0:
        raise SystemExit(f"qurish: the build failed ({' '.join(qoshimcha) or 'html'}); "
                         "the reason is printed above")


def qur(ildiz: Path = ILDIZ) -> Path:
    """Build HTML and PDF under ildiz/_build; return the site folder."""
    build = ildiz / "_build"
    shutil.rmtree(build / "latex", ignore_errors=True)   # no stale .tex of an old name
    jb(ildiz)
    jb(ildiz, "--builder", "pdflatex")
    sayt = build / "html"
    shutil.copy(build / "latex" / PDF_NOMI, sayt / PDF_NOMI)
    for bob in BOBLAR:
        nb = build / "jupyter_execute" / "book" / f"{bob}.ipynb"
        shutil.copy(nb, sayt / f"{bob}.ipynb")
    print(f"qurish: site {sayt / 'index.html'}; PDF {sayt / PDF_NOMI}", flush=True)
    return sayt


if __name__ == "__main__":
    qur(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ILDIZ)
