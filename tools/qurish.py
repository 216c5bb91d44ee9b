"""Build side: the whole site in one command (``make book`` runs this).

One build of a book at a time: the build holds ``_build/.qurish.lock`` (an
advisory ``flock``) from the first step to the last; a second build of the same
book (an author's ``make book`` while the tests build, or a plain
``jupyter-book build``, which the ``qulf`` extension makes take the same lock)
says whose build it waits for and starts when that one has finished, so the
two never write into the same folders at once.

Steps, each strict (warnings are errors; the first failure stops the build):

0. ``tekshir``: ``_config.yml`` and ``_toc.yml`` are valid YAML and every page
   the table of contents names exists — otherwise a one-line error that names
   the file, the line or the missing page, before anything is built;
1. ``jupyter-book build . -W -n --keep-going --builder pdflatex`` — the PDF, via
   xelatex; the chapter is executed here (or taken from the cache);
2. the same for HTML — the site, from the same cached execution (no second run
   of the chapter); it comes second because its download links give the PDF's
   size; the chapters' downloads (each lesson's notebook and script as the page
   reads, the archive) are written by the ``yuklamalar`` extension before its
   pages;
3. the editions in other scripts that ``kitob_yozuvlar`` of ``_config.yml`` names
   (``tools/yozuvda.py``: written from step 2's reading, nothing read or executed
   again, about 10 s each);
4. the PDF is copied into the staged site (its name is the LaTeX target of
   ``_config.yml``), each edition into its folder ``<name>/`` with the PDF;
5. only then is the site published: a full copy goes to ``_build/nashr/<time>``
   and the link ``_build/sayt`` is switched to it in one atomic rename.  A
   build that fails (or is interrupted) at any step before leaves the
   published site exactly as it was; Sphinx's output ``_build/html`` is only
   the staging area.

Usage: ``python tools/qurish.py [ROOT]`` (ROOT defaults to the project).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "book" / "_ext"))
from qurilish import ijro, qulf  # noqa: E402  (the build code: book/_ext/qurilish)

#: The project's root: the folder above book/.
ILDIZ = Path(__file__).resolve().parents[1]
JB = str(Path(sys.executable).parent / "jupyter-book")


def jb_buyrugi(ildiz: Path, *qoshimcha: str) -> list[str]:
    """The strict build command: warnings are errors (-W), references checked (-n), all reported."""
    return [JB, "build", str(ildiz), "-W", "-n", "--keep-going", *qoshimcha]


def pdf_nomi(sozlama: dict) -> str:
    """The PDF's file name: the LaTeX target named in _config.yml, with .pdf."""
    try:
        tex = sozlama["latex"]["latex_documents"]["targetname"]
    except (KeyError, TypeError):
        raise SystemExit("qurish: _config.yml names no PDF: set latex: latex_documents: "
                         "targetname: <name>.tex") from None
    if not isinstance(tex, str) or not tex.endswith(".tex") or "/" in tex:
        raise SystemExit(f"qurish: _config.yml's latex_documents targetname is {tex!r}; "
                         "it must be a file name ending in .tex, such as kitob.tex")
    return tex[:-len(".tex")] + ".pdf"


def jb(ildiz: Path, *qoshimcha: str) -> None:
    buyruq = jb_buyrugi(ildiz, *qoshimcha)
    print("+", " ".join(buyruq), flush=True)
    natija = subprocess.run(buyruq)
    if natija.returncode != 0:
        raise SystemExit(f"qurish: the build failed ({' '.join(qoshimcha) or 'html'}); "
                         "the reason is printed above")


SAHIFA_TURLARI = tuple(ijro.FORMATLAR)      # the kinds of page a book can list: .py .ipynb .md


def jb_sozlamalari(ildiz: Path, **ustidan) -> tuple[dict, dict]:
    """The Sphinx configuration ``jupyter-book build ildiz -n`` makes from ``_config.yml`` and
    ``_toc.yml``, with ``ustidan`` over it, and what Jupyter Book sets once the application is
    made (``latex_doc_overrides``: the PDF's title and name): for a build in this process (the
    preview, an edition in another script)."""
    from jupyter_book.config import get_final_config

    return get_final_config(
        user_yaml=ildiz / "_config.yml",
        cli_config={"external_toc_path": (ildiz / "_toc.yml").as_posix(),
                    "latex_individualpages": False, "nitpicky": True, **ustidan},
        sourcedir=ildiz, use_external_toc=True)


def sphinx_sozlamasi(ildiz: Path, **ustidan) -> dict:
    """``jb_sozlamalari``'s Sphinx configuration."""
    return jb_sozlamalari(ildiz, **ustidan)[0]

def tekshir(ildiz: Path) -> dict:
    """Refuse, with a clear message, a configuration the build would trip over.

    Returns the parsed ``_config.yml``.
    """
    from sphinx_external_toc.parsing import MalformedError, parse_toc_data

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
    try:
        xarita = parse_toc_data(sozlama["_toc.yml"])
    except MalformedError as xato:
        raise SystemExit(f"qurish: _toc.yml is not a valid table of contents: {xato}") from None
    for sahifa in xarita:
        yol = ildiz / sahifa
        if not any(yol.with_suffix(k).is_file() or Path(f"{yol}{k}").is_file()
                   for k in ("", *SAHIFA_TURLARI)):
            bor = sorted(p.relative_to(ildiz).with_suffix("").as_posix()
                         for k in SAHIFA_TURLARI for p in yol.parent.glob(f"*{k}"))
            raise SystemExit(f"qurish: _toc.yml names {sahifa!r}, but no {sahifa}.md/.py/.ipynb "
                             f"exists; pages in {yol.parent.relative_to(ildiz)}/: {', '.join(bor) or 'none'}")
    pdf_nomi(sozlama["_config.yml"])
    return sozlama["_config.yml"]


def nashr_qil(build: Path, sahna: Path) -> Path:
    """Publish the staged site: copy it, then switch _build/sayt to the copy atomically.

    The copy it replaces is kept until the next publication, so whoever is
    reading it right now (a server pointed at the resolved folder, a test)
    does not lose files under its feet; older copies are removed.
    """
    nashrlar = build / "nashr"
    yangi = nashrlar / time.strftime(f"%Y%m%d-%H%M%S-{os.getpid()}")
    shutil.copytree(sahna, yangi, symlinks=True)
    sayt = build / "sayt"
    oldingi = sayt.resolve() if sayt.is_symlink() else None
    vaqtincha = build / f".sayt-{os.getpid()}"
    vaqtincha.unlink(missing_ok=True)
    vaqtincha.symlink_to(yangi.relative_to(build))
    os.replace(vaqtincha, sayt)                      # atomic on POSIX
    for eski in nashrlar.iterdir():                  # no longer linked, nor just replaced
        if eski not in (yangi, oldingi):
            shutil.rmtree(eski, ignore_errors=True)
    return build / "sayt"


def qurilish_kodi_turdimi(ildiz: Path, build: Path, izi: str) -> None:
    """Refuse to publish a site built while its build code changed (book/_ext, _templates,
    _static: ``ijro.qurilish_izi``).  Its HTML and PDF were made by different code, and the
    environment Sphinx keeps would no longer match its search index (the next build would
    fail, "search index couldn't be loaded"); the kept environment is removed, so the next
    build reads every page again (their outputs from the cache, nothing re-executed)."""
    if ijro.qurilish_izi(ildiz) == izi:
        return
    (build / ".doctrees" / "environment.pickle").unlink(missing_ok=True)
    raise SystemExit("qurish: the build code (book/_ext, book/_templates, book/_static) "
                     "changed while the book was being built; nothing was published. "
                     "Build again: every page is read again, nothing re-executes")


class Vaqtlar:
    """The build's steps on the wall clock: ``with vaqtlar("html"): ...``; each finished step is
    written at once to ``_build/qurish-vaqtlari.json`` (tests/vaqtlar.py puts them in make
    test's table of where the time went)."""

    def __init__(self, build: Path):
        self.fayl = build / "qurish-vaqtlari.json"
        self.yozuv = {"boshi": time.time(), "qadamlar": {}}

    @contextlib.contextmanager
    def __call__(self, qadam: str):
        boshi = time.time()
        yield
        self.yozuv["qadamlar"][qadam] = [boshi, time.time()]
        self.fayl.parent.mkdir(parents=True, exist_ok=True)
        self.fayl.write_text(json.dumps(self.yozuv, indent=2) + "\n", encoding="utf-8")

    def xulosa(self) -> str:
        return ", ".join(f"{q} {o - b:.0f} s" for q, (b, o) in self.yozuv["qadamlar"].items())


def qur(ildiz: Path = ILDIZ) -> Path:
    """Build HTML and PDF under ildiz/_build, then publish; return the published site."""
    sozlama = tekshir(ildiz)
    pdf = pdf_nomi(sozlama)
    build = ildiz / "_build"
    vaqtlar = Vaqtlar(build)
    with qulf.ushla(build):
        shutil.rmtree(build / "latex", ignore_errors=True)   # no stale .tex of an old name
        izi = ijro.qurilish_izi(ildiz)
        # the PDF first: the site's download links give its size
        with vaqtlar("pdf"):
            jb(ildiz, "--builder", "pdflatex")
        with vaqtlar("html"):
            jb(ildiz)
        sahna = build / "html"
        yozuvlar = list((sozlama.get("sphinx") or {}).get("config", {}).get("kitob_yozuvlar") or [])
        if yozuvlar:
            from yozuvda import yozuvda
            with vaqtlar("yozuvlar"):           # each edition, its PDF too, moved into the staged site's <name>/
                for nom in yozuvlar:
                    shutil.rmtree(sahna / nom, ignore_errors=True)
                    os.replace(yozuvda(nom, ildiz, qulf_bilan=False), sahna / nom)
        with vaqtlar("nashr"):
            qurilish_kodi_turdimi(ildiz, build, izi)
            shutil.copy(build / "latex" / pdf, sahna / pdf)    # each edition's is in its folder
            sayt = nashr_qil(build, sahna)
    print(f"qurish: published {sayt / 'index.html'}; PDF {sayt / pdf} "
          f"({vaqtlar.xulosa()})", flush=True)
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
