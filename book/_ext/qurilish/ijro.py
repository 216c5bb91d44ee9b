"""Build side: a chapter re-executes exactly when the code it runs changes.

Jupyter Book's cache hashes only a notebook's code cells and kernelspec: an edit in
``chapter_code/`` would leave stale outputs (jupyter-book issue 1633).  ``oqi``, the
reader of the chapters' ``.py`` files, writes into the kernelspec a digest of the modules
the chapter imports (``kuzatilgan_fayllar``), ``requirements.lock`` and the machine's
arithmetic (``chapter_code.muhit``: another ``ATEN_CPU_CAPABILITY`` may end an unstable
training otherwise), and the editions' scripts its figures are drawn in too (``yozuvlar_izi``).  Sphinx re-reads a chapter when one of those files changes, and
every page after an edit of the build code (``QURILISH_PAPKALARI``: the environment
version), its outputs from the cache.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import modulefinder
import os
import re
import tempfile
from pathlib import Path

import jupytext

try:        # the build's second door into chapter_code (see muhit's docstring)
    from chapter_code import muhit
except ImportError:      # a book whose chapter_code has no muhit (the tests' small fixture books)
    muhit = None

KALIT = "kitob_kod_izi"
PAKET = "chapter_code"
QULF = "requirements.lock"
#: Folders of build code, relative to the book's root: their change re-renders every page.
QURILISH_PAPKALARI = ("book/_ext", "book/_templates", "book/_static")
# The root of the book being built (Sphinx's source folder), set by setup(); else an argument.
ILDIZ: Path | None = None


def _ildiz() -> Path:
    if ILDIZ is None:
        raise RuntimeError("ijro: no book root; call it with the root, or from a Sphinx build")
    return ILDIZ


@functools.lru_cache(maxsize=128)     # a text is read by its reader, its watcher, its archive
def _oqilgan(matn: str, fmt: str):
    return jupytext.reads(matn, fmt=fmt)


def oqilgan(matn: str, fmt: str):
    """``jupytext.reads(matn, fmt=fmt)``, parsed once for the same text (a copy is returned)."""
    return copy.deepcopy(_oqilgan(matn, fmt))


#: jupytext's format for each kind of chapter file.
FORMATLAR = {".py": "py:percent", ".ipynb": "ipynb", ".md": "md:myst"}


def _kod(matn: str, fmt: str) -> str | None:
    """The Python of a chapter's text: its code cells, IPython magics and shell lines left out.

    None when a magic or shell line names chapter_code (``%run -m chapter_code.a``):
    what it runs cannot be followed.
    """
    nb = oqilgan(matn, fmt)
    qatorlar = []
    for h in nb.cells:
        if h.cell_type != "code":
            continue
        for q in h.source.splitlines():
            if not q.lstrip().startswith(("%", "!")):
                qatorlar.append(q)
            elif PAKET in q:
                return None
    return "\n".join(qatorlar)


#: What the walker cannot follow: a dynamic import, a star import of chapter_code.
_KORINMAS = re.compile(r"\b__import__\s*\(|^\s*(?:import|from)\s+importlib\b"
                       r"|^\s*from\s+(?:\.|chapter_code)[\w.]*\s+import\s+\*", re.M)


def _modul_fayllari(kod: str | None, ildiz: Path) -> set[Path] | None:
    """The chapter_code files ``kod`` imports, transitively, with their packages' ``__init__.py``
    (``modulefinder`` reads the code, on the book's root only); None when they cannot all be
    known: the code or a module it reaches does not compile, imports dynamically (``importlib``,
    ``__import__``) or star-imports chapter_code."""
    if kod is None or _KORINMAS.search(kod):
        return None
    izlovchi = modulefinder.ModuleFinder(path=[str(ildiz)])
    with tempfile.TemporaryDirectory() as papka:
        (Path(papka) / "bob.py").write_text(kod, encoding="utf-8")
        try:
            izlovchi.run_script(str(Path(papka) / "bob.py"))
        except SyntaxError:
            return None
    fayllar = {Path(m.__file__) for nom, m in izlovchi.modules.items()
               if m.__file__ and (nom == PAKET or nom.startswith(PAKET + "."))}
    if any(_KORINMAS.search(f.read_text(encoding="utf-8")) for f in fayllar):
        return None
    return fayllar


def _malumot_fayllari(modullar: set[Path]) -> set[Path]:
    """The data files beside the modules that one of them names (``til.py`` reads
    ``korpus.txt``): what the code computes depends on them as on its source, and a download
    must carry them; a module that names none brings none."""
    matnlar = [m.read_text(encoding="utf-8") for m in modullar]
    return {f for papka in {m.parent for m in modullar} for f in papka.iterdir()
            if f.is_file() and f.suffix not in (".py", ".pyc") and not f.name.startswith(".")
            and any(f.name in matn for matn in matnlar)}


@functools.lru_cache(maxsize=128)     # a text is watched by its reader, its page, its archive
def _kuzatilgan(matn: str, fmt: str, ildiz: Path, _vaqtlar: tuple) -> tuple[Path, ...]:
    fayllar = _modul_fayllari(_kod(matn, fmt), ildiz)
    fayllar = set(fayllar if fayllar is not None else (ildiz / PAKET).rglob("*.py"))
    royxat = sorted(fayllar | _malumot_fayllari(fayllar))
    return tuple(royxat + [ildiz / QULF] if (ildiz / QULF).is_file() else royxat)


def kuzatilgan_fayllar(matn: str, ildiz: Path | None = None, fmt: str = "py:percent") -> list[Path]:
    """The files whose change re-executes the chapter ``matn``: the chapter_code modules it
    imports, transitively, their packages' ``__init__.py``, the data files beside them that
    they name (``_malumot_fayllari``) and the lock file.  Where the
    imports cannot all be known (a syntax error, a dynamic or star import, a magic line
    naming chapter_code), every chapter_code module: nothing stale is ever reused."""
    ildiz = ildiz or _ildiz()
    vaqtlar = tuple((f, f.stat().st_mtime_ns) for f in sorted((ildiz / PAKET).rglob("*"))
                    if f.is_file() and "__pycache__" not in f.parts)
    return list(_kuzatilgan(matn, fmt, ildiz, vaqtlar))


def _izi(fayllar: list[Path], ildiz: Path) -> str:
    h = hashlib.sha256()
    for f in fayllar:
        h.update(f.relative_to(ildiz).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def yozuvlar_fayllari() -> list[tuple[str, Path]]:
    """What the kernels draw the figures' words in the editions' scripts with (``KITOB_YOZUVLAR``,
    which yozuvda.py sets for a book with editions): each script's folder (its exceptions, the
    words kept in Latin) and the converter's module, as (name, file); none without editions."""
    import json

    qiymat = os.environ.get("KITOB_YOZUVLAR")
    if not qiymat:
        return []
    sozlama = json.loads(qiymat)
    papka = Path(sozlama["papka"])
    modul = sozlama["otkazgich"].split(":")[0].replace(".", "/") + ".py"
    fayllar = [(f.relative_to(papka).as_posix(), f) for nom in sorted(sozlama["nomlar"])
               for f in sorted((papka / nom).rglob("*")) if f.is_file()]
    return fayllar + [(modul, Path(y) / modul) for y in sozlama["yol"] if (Path(y) / modul).is_file()][:1]


def yozuvlar_izi() -> str:
    """SHA-256 over ``yozuvlar_fayllari``: an edit of an edition's exception re-executes the
    lessons, so that no figure keeps the old word; "" without editions."""
    fayllar = yozuvlar_fayllari()
    if not fayllar:
        return ""
    h = hashlib.sha256()
    for nom, f in fayllar:
        h.update(nom.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def kod_izi(matn: str, ildiz: Path | None = None) -> str:
    """SHA-256 over the paths and contents of the files the chapter ``matn`` runs,
    over the machine's arithmetic (``chapter_code.muhit.izi``; nothing where the
    book's chapter_code has no muhit) and over the editions' scripts its figures are drawn in
    too (``yozuvlar_izi``)."""
    ildiz = ildiz or _ildiz()
    hisob = muhit.izi() if muhit else ""
    return hashlib.sha256((_izi(kuzatilgan_fayllar(matn, ildiz), ildiz) + "\n"
                           + hisob + "\n" + yozuvlar_izi()).encode()).hexdigest()


def qurilish_izi(ildiz: Path | None = None) -> str:
    """SHA-256 over the build code: every file under QURILISH_PAPKALARI."""
    ildiz = ildiz or _ildiz()
    fayllar = sorted(f for p in QURILISH_PAPKALARI for f in (ildiz / p).rglob("*")
                     if f.is_file() and "__pycache__" not in f.parts)
    return _izi(fayllar, ildiz)


def oqi(matn: str, **kwargs):
    """Read a Jupytext text notebook and stamp the digest of the code it runs into its kernelspec."""
    nb = oqilgan(matn, kwargs["fmt"]) if set(kwargs) == {"fmt"} else jupytext.reads(matn, **kwargs)
    spec = nb.metadata.setdefault("kernelspec", {"name": "python3", "display_name": "Python 3",
                                                 "language": "python"})
    spec[KALIT] = kod_izi(matn)
    return nb


#: The variable naming the page being read, from its source read to its doctree: a lesson's kernel,
#: started meanwhile, inherits it and keeps there the time its stored computations took
#: (``chapter_code.muhit.sarf``).
#: (None: the book's chapter_code keeps no time, as in the tests' small books).
DARS = muhit.DARS if muhit else None


def _bogla(app, docname, source) -> None:
    if app.env.doc2path(docname).endswith(".py"):
        if DARS:
            os.environ[DARS] = docname
        for f in [*kuzatilgan_fayllar(source[0]), *(f for _, f in yozuvlar_fayllari())]:
            app.env.note_dependency(str(f))


def _oqildi(app, doctree) -> None:
    if DARS:
        os.environ.pop(DARS, None)


def setup(app):
    global ILDIZ
    ILDIZ = Path(app.srcdir).resolve()
    app.connect("source-read", _bogla)
    app.connect("doctree-read", _oqildi)
    # a new environment version makes Sphinx read every page again (outputs from the cache)
    return {"parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": qurilish_izi(ILDIZ)}
