"""Build side: the chapter's site and PDF written in another script (issue 48).

``python tools/yozuvda.py [name]`` (``kirill`` by default, a folder of ``book/_yozuvlar/``),
after ``make book``: the edition is written from the Latin build's reading, so nothing is read
or executed again (``book/_ext/qurilish/yozuvda.py``).  Under the book's build lock it copies
the Latin build's environment (``_build/.doctrees``) to ``_build/.yozuv-<name>-doctrees`` and
writes from it the LaTeX into ``_build/yozuv-<name>-latex/`` and its PDF with xelatex, as
Jupyter Book makes the source's, then the HTML into ``_build/yozuv-<name>/`` with the PDF;
strictly (warnings are errors).  The published site, ``_build/sayt``, is not touched: ``make
book`` (``tools/qurish.py``) writes the editions ``kitob_yozuvlar`` of ``_config.yml`` names this
way and publishes each in the site's ``<name>/``, its PDF beside its pages.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
import time
from pathlib import Path

ILDIZ = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ILDIZ / "book" / "_ext"))
sys.path.insert(0, str(ILDIZ / "tools"))
from qurilish import qulf, yuklamalar, yozuv  # noqa: E402
from qurish import jb_sozlamalari, pdf_nomi, tekshir  # noqa: E402


def _yoz(ildiz: Path, nom: str, builder: str, chiqish: Path, doctrees: Path) -> None:
    """Write edition ``nom`` with ``builder`` into ``chiqish`` from the reading in ``doctrees``."""
    from jupyter_book.pdf import update_latex_documents
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    sozlama, jb = jb_sozlamalari(ildiz, kitob_yozuv=nom)
    with patch_docutils(None), docutils_namespace():
        app = Sphinx(srcdir=str(ildiz), confdir=None, outdir=str(chiqish), doctreedir=str(doctrees),
                     buildername=builder, confoverrides=sozlama, status=sys.stdout, warning=sys.stderr,
                     freshenv=False, warningiserror=True, keep_going=True)
        # the PDF's title and name, as Jupyter Book sets them once the application is made
        app.config.latex_documents = update_latex_documents(app.config.latex_documents, jb["latex_doc_overrides"])
        app.build(False, [])
    if app.statuscode:
        raise SystemExit(f"yozuvda: the {nom} edition's {builder} failed; the reason is printed above")


def yozuvda(nom: str, ildiz: Path = ILDIZ, qulf_bilan: bool = True) -> Path:
    """The edition in script ``nom``: its folder of HTML, ``_build/yozuv-<nom>`` (beside
    ``_build/html``: MyST-NB finds the executed notebooks from there), with its PDF.
    ``qulf_bilan=False``: the caller holds the build's lock already (``tools/qurish.py``, which
    moves the folder into the site it stages)."""
    yozuv.Yozuv.oqi(nom)                          # a script that is not there says so first
    tekshir(ildiz)
    build = ildiz / "_build"
    asl = build / ".doctrees" / "environment.pickle"
    if not asl.is_file():
        raise SystemExit(f"yozuvda: {asl} is missing: the edition is written from the Latin build's "
                         "reading; run make book first")
    chiqish, doctrees = build / f"yozuv-{nom}", build / f".yozuv-{nom}-doctrees"
    with qulf.ushla(build) if qulf_bilan else contextlib.nullcontext():
        # every page written again: a page whose source is older than its last edition may still
        # have new outputs (a re-executed lesson), which Sphinx's mtime check would not see
        shutil.rmtree(chiqish, ignore_errors=True)
        shutil.rmtree(doctrees, ignore_errors=True)
        shutil.copytree(build / ".doctrees", doctrees)
        # the PDF first (its pages' download lines give its size), from the same reading, as
        # `jupyter-book build --builder pdflatex` makes the source's: Sphinx's LaTeX, then its
        # Makefile's latexmk with xelatex
        latex, pdf = build / yuklamalar.latex_papkasi(nom), pdf_nomi(tekshir(ildiz))
        shutil.rmtree(latex, ignore_errors=True)
        _yoz(ildiz, nom, "latex", latex, doctrees)
        if subprocess.run(["make", "all-pdf"], cwd=latex, stdout=subprocess.DEVNULL).returncode:
            raise SystemExit(f"yozuvda: xelatex failed on the {nom} edition's PDF: see "
                             f"{latex / pdf.replace('.pdf', '.log')}")
        _yoz(ildiz, nom, "html", chiqish, doctrees)
        shutil.copy(latex / pdf, chiqish / pdf)
    return chiqish


if __name__ == "__main__":
    boshi = time.perf_counter()
    papka = yozuvda(sys.argv[1] if len(sys.argv) > 1 else "kirill")
    print(f"yozuvda: {papka / 'index.html'} in {time.perf_counter() - boshi:.1f} s", flush=True)
