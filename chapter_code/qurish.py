"""Build side: the whole site in one command (``make book`` runs this).

Steps, each strict (warnings are errors; the first failure stops the build):

0. ``tekshir``: ``_config.yml`` and ``_toc.yml`` are valid YAML and every page
   the table of contents names exists — otherwise a one-line error that names
   the file, the line or the missing page, before anything is built;
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

import html
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

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


SAHIFA_TURLARI = (".md", ".py", ".ipynb")


def _toc_fayllari(tugun) -> list[str]:
    """Every ``file:`` (and ``root:``) entry of a parsed _toc.yml, in order."""
    if isinstance(tugun, dict):
        topilgan = [tugun[k] for k in ("root", "file") if isinstance(tugun.get(k), str)]
        for v in tugun.values():
            if isinstance(v, (dict, list)):
                topilgan += _toc_fayllari(v)
        return topilgan
    if isinstance(tugun, list):
        return [f for t in tugun for f in _toc_fayllari(t)]
    return []


def tekshir(ildiz: Path) -> dict:
    """Refuse, with a clear message, a configuration the build would trip over.

    Returns the parsed ``_config.yml``.
    """
    sozlama = {}
    for nom in ("_config.yml", "_toc.yml"):
        fayl = ildiz / nom
        if not fayl.is_file():
            raise SystemExit(f"qurish: {fayl} is missing; the book needs {nom} at its root")
        try:
            sozlama[nom] = yaml.safe_load(fayl.read_text(encoding="utf-8"))
        except yaml.YAMLError as xato:
            joy = getattr(xato, "problem_mark", None)
            qator = f" at line {joy.line + 1}, column {joy.column + 1}" if joy else ""
            raise SystemExit(f"qurish: {nom} is not valid YAML{qator}: "
                             f"{getattr(xato, 'problem', xato)}; fix it and build again")
        if not isinstance(sozlama[nom], dict):
            raise SystemExit(f"qurish: {nom} must be a YAML mapping (key: value lines), "
                             f"got {type(sozlama[nom]).__name__}")
    for sahifa in _toc_fayllari(sozlama["_toc.yml"]):
        yol = ildiz / sahifa
        if not any(yol.with_suffix(k).is_file() or Path(f"{yol}{k}").is_file()
                   for k in ("", *SAHIFA_TURLARI)):
            bor = sorted(p.relative_to(ildiz).with_suffix("").as_posix()
                         for k in SAHIFA_TURLARI for p in yol.parent.glob(f"*{k}"))
            raise SystemExit(f"qurish: _toc.yml names {sahifa!r}, but no {sahifa}.md/.py/.ipynb "
                             f"exists; pages in {yol.parent.relative_to(ildiz)}/: {', '.join(bor) or 'none'}")
    return sozlama["_config.yml"]


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


YONALTIRISH = """<!DOCTYPE html>
<html lang="uz">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Refresh" content="0; url={manzil}">
<title>{sarlavha}</title>
<link rel="canonical" href="{manzil}">
</head>
<body>
<p><a href="{manzil}">{sarlavha}</a></p>
</body>
</html>
"""


def yonaltirish(sahna: Path, sarlavha: str) -> None:
    """Replace Jupyter Book's bare one-line redirect (no doctype, no title) with a valid page.

    It still sends the browser on to the first page, and shows a link for a
    browser that does not follow the refresh.
    """
    eski = (sahna / "index.html").read_text(encoding="utf-8")
    topildi = re.search(r'url=([^"\s]+)', eski)
    if not topildi:
        raise SystemExit(f"qurish: {sahna / 'index.html'} is not Jupyter Book's redirect page")
    (sahna / "index.html").write_text(
        YONALTIRISH.format(manzil=html.escape(topildi.group(1)), sarlavha=html.escape(sarlavha)),
        encoding="utf-8")


def qur(ildiz: Path = ILDIZ) -> Path:
    """Build HTML and PDF under ildiz/_build, then publish; return the published site."""
    sozlama = tekshir(ildiz)
    build = ildiz / "_build"
    shutil.rmtree(build / "latex", ignore_errors=True)   # no stale .tex of an old name
    jb(ildiz)
    jb(ildiz, "--builder", "pdflatex")
    sahna = build / "html"
    shutil.copy(build / "latex" / PDF_NOMI, sahna / PDF_NOMI)
    for bob in BOBLAR:
        nb = build / "jupyter_execute" / "book" / f"{bob}.ipynb"
        shutil.copy(nb, sahna / f"{bob}.ipynb")
    yonaltirish(sahna, str(sozlama.get("title") or "Kitob"))
    sayt = nashr_qil(build, sahna)
    print(f"qurish: published {sayt / 'index.html'}; PDF {sayt / PDF_NOMI}", flush=True)
    return sayt


def main(argv: list[str]) -> None:
    try:
        qur(Path(argv[0]).resolve() if argv else ILDIZ)
    except KeyboardInterrupt:
        # Ctrl-C: the staging area may be half-written, but nothing was
        # published; the execution cache only ever records finished notebooks.
        print("qurish: interrupted (Ctrl-C); the published site was not changed; "
              "run the build again to finish it", file=sys.stderr, flush=True)
        raise SystemExit(130) from None


if __name__ == "__main__":
    main(sys.argv[1:])
