"""Build side: the whole site in one command (``make book`` runs this).

Steps, each strict (warnings are errors; the first failure stops the build):

1. ``jupyter-book build . -W -n --keep-going`` — the HTML site; the chapter is
   executed here (or taken from the cache);
2. the same with ``--builder pdflatex`` — the PDF, from the same cached
   execution (no second run of the chapter), via xelatex;
3. the PDF and the executed notebook are copied into the staged site, next to
   the pages that link to them ("PDF yuklab olish", ".ipynb");
4. only then is the site published: a full copy goes to ``_build/nashr/<time>``
   and the link ``_build/sayt`` is switched to it in one atomic rename.  A
   build that fails (or is interrupted) at any step before leaves the
   published site exactly as it was; Sphinx's output ``_build/html`` is only
   the staging area.

Usage: ``python -m chapter_code.qurish [ROOT]`` (ROOT defaults to the project).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
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


def nashr_qil(build: Path, sahna: Path) -> Path:
    """Publish the staged site: copy it, then switch _build/sayt to the copy atomically."""
    nashrlar = build / "nashr"
    yangi = nashrlar / time.strftime(f"%Y%m%d-%H%M%S-{os.getpid()}")
    shutil.copytree(sahna, yangi, symlinks=True)
    vaqtincha = build / f".sayt-{os.getpid()}"
    vaqtincha.unlink(missing_ok=True)
    vaqtincha.symlink_to(yangi.relative_to(build))
    os.replace(vaqtincha, build / "sayt")          # atomic on POSIX
    for eski in nashrlar.iterdir():                  # older copies are no longer linked
        if eski != yangi:
            shutil.rmtree(eski, ignore_errors=True)
    return build / "sayt"


def qur(ildiz: Path = ILDIZ) -> Path:
    """Build HTML and PDF under ildiz/_build, then publish; return the published site."""
    build = ildiz / "_build"
    shutil.rmtree(build / "latex", ignore_errors=True)   # no stale .tex of an old name
    jb(ildiz)
    jb(ildiz, "--builder", "pdflatex")
    sahna = build / "html"
    shutil.copy(build / "latex" / PDF_NOMI, sahna / PDF_NOMI)
    for bob in BOBLAR:
        nb = build / "jupyter_execute" / "book" / f"{bob}.ipynb"
        shutil.copy(nb, sahna / f"{bob}.ipynb")
    sayt = nashr_qil(build, sahna)
    print(f"qurish: published {sayt / 'index.html'}; PDF {sayt / PDF_NOMI}", flush=True)
    return sayt


if __name__ == "__main__":
    qur(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else ILDIZ)
