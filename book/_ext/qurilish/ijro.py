"""Build side: a chapter re-executes exactly when the code it runs changes.

Jupyter Book's execution cache hashes only a notebook's code cells (and its
kernelspec), so an edit in ``chapter_code/`` would leave stale outputs in the
book (jupyter-book issue 1633).  This extension closes that gap, and only that:

* ``oqi`` is the reader of the chapters' percent-format ``.py`` files (named in
  ``_config.yml`` under ``nb_custom_formats``).  It reads the file with jupytext,
  finds the ``chapter_code`` modules the chapter imports (its ``import``
  statements, then those modules' own imports, transitively; read as text with
  ``ast``, nothing is imported) and writes a digest of those files and of
  ``requirements.lock`` into the notebook's kernelspec, which the cache hashes,
  together with the machine's arithmetic (``chapter_code.muhit``: the processor
  and the variables that choose PyTorch's and MKL's CPU kernels, under which an
  unstable training can end otherwise).  An edit in a module the chapter runs,
  or another ``ATEN_CPU_CAPABILITY``: new hash, a fresh execution.  An edit
  anywhere else (another ``chapter_code`` module, the build code, a template,
  a translation, CSS): the same hash, a cache hit.
* As a Sphinx extension it makes each chapter depend on the same files, so
  Sphinx re-reads the chapter when one of them changes (and only then asks the
  cache), and it gives Sphinx an environment version made from the build code
  (``book/_ext``, ``book/_templates``, ``book/_static``): after an edit there,
  every page is read and written again, its outputs taken from the cache.
"""

from __future__ import annotations

import ast
import copy
import functools
import hashlib
import pickle
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
# The root of the book being built (Sphinx's source folder), set by setup();
# outside a build the functions take the root as an argument.
ILDIZ: Path | None = None


def _ildiz() -> Path:
    if ILDIZ is None:
        raise RuntimeError("ijro: no book root; call it with the root, or from a Sphinx build")
    return ILDIZ


#: Notebooks jupytext read from a text, by a digest of the text, its format and jupytext's
#: version: kept between builds (a file beside the doctrees, set by setup) so that a build
#: parses only the chapters that changed.
_OQILGAN: dict[str, object] = {}
_OQILGAN_ESKI: dict[str, object] = {}
XOTIRA: Path | None = None


def oqilgan(matn: str, fmt: str):
    """``jupytext.reads(matn, fmt=fmt)``, parsed once for the same text (a copy is returned)."""
    kalit = hashlib.sha256(f"{jupytext.__version__}\0{fmt}\0{matn}".encode("utf-8", "surrogatepass")).hexdigest()
    if kalit not in _OQILGAN:
        _OQILGAN[kalit] = _OQILGAN_ESKI.pop(kalit, None) or jupytext.reads(matn, fmt=fmt)
    return copy.deepcopy(_OQILGAN[kalit])


def _xotirani_yukla(fayl: Path) -> None:
    global XOTIRA
    XOTIRA = fayl
    _OQILGAN.clear()
    _OQILGAN_ESKI.clear()
    try:
        with fayl.open("rb") as f:
            _OQILGAN_ESKI.update(pickle.load(f))
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError, ImportError):
        pass


#: At most this many texts are kept: what this build read, then the most recent of the others.
XOTIRA_HAJMI = 200


def _xotirani_saqla(app, exception) -> None:
    """build-finished: keep what this build read, and the last builds' (up to XOTIRA_HAJMI)."""
    if XOTIRA is None or exception is not None:
        return
    saqlanadi = dict(list(_OQILGAN_ESKI.items())[-max(0, XOTIRA_HAJMI - len(_OQILGAN)):])
    saqlanadi.update(_OQILGAN)
    vaqtincha = XOTIRA.with_suffix(".tmp")
    with vaqtincha.open("wb") as f:
        pickle.dump(saqlanadi, f, protocol=pickle.HIGHEST_PROTOCOL)
    vaqtincha.replace(XOTIRA)


#: jupytext's format for each kind of chapter file.
FORMATLAR = {".py": "py:percent", ".ipynb": "ipynb", ".md": "md:myst"}


@functools.lru_cache(maxsize=128)     # a text is read by its reader, its watcher, its archive
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


@functools.lru_cache(maxsize=512)     # each text parsed once a build
def _importlar(kod: str | None, paket: str | None) -> frozenset[str] | None:
    """Dotted names of the chapter_code modules ``kod`` imports, anywhere in it.

    ``paket`` is the package the code belongs to (relative imports resolve
    against it); None for a chapter.

    None when they cannot all be known: the code does not parse, imports
    dynamically (``importlib``, ``__import__``) or star-imports chapter_code.
    """
    if kod is None:
        return None
    try:
        daraxt = ast.parse(kod)
    except SyntaxError:
        return None
    topildi: set[str] = set()
    for tugun in ast.walk(daraxt):
        if isinstance(tugun, ast.Name) and tugun.id in ("importlib", "__import__"):
            return None
        if isinstance(tugun, ast.ImportFrom) and any(a.name == "*" for a in tugun.names) \
                and (tugun.level or (tugun.module or "").startswith(PAKET)):
            return None
        if isinstance(tugun, ast.Import):
            topildi |= {a.name for a in tugun.names}
        elif isinstance(tugun, ast.ImportFrom):
            if tugun.level and paket:               # from .malumot import vazifa
                asos = paket.rsplit(".", tugun.level - 1)[0]
                nom = f"{asos}.{tugun.module}" if tugun.module else asos
            else:
                nom = tugun.module or ""
            topildi.add(nom)
            # from chapter_code import kitob: kitob may be a module
            topildi |= {f"{nom}.{a.name}" for a in tugun.names}
    return frozenset(n for n in topildi if n == PAKET or n.startswith(PAKET + "."))


def _fayl(nom: str, ildiz: Path) -> Path | None:
    yol = ildiz.joinpath(*nom.split("."))
    for nomzod in (yol.with_suffix(".py"), yol / "__init__.py"):
        if nomzod.is_file():
            return nomzod
    return None


def kuzatilgan_fayllar(matn: str, ildiz: Path | None = None, fmt: str = "py:percent") -> list[Path]:
    """The files whose change re-executes the chapter whose text is ``matn``.

    The chapter_code modules it imports, transitively, each package's
    ``__init__.py`` with them, and the lock file.  Where the imports cannot all
    be known (a syntax error the execution will report, a dynamic or star
    import, a magic line naming chapter_code), every chapter_code module is
    watched, so nothing stale is ever reused.
    """
    ildiz = ildiz or _ildiz()
    bevosita = _importlar(_kod(matn, fmt), None)
    if bevosita is None:
        fayllar = set((ildiz / PAKET).rglob("*.py"))
    else:
        fayllar, korilgan, navbat = set(), set(), set(bevosita)
        while navbat:
            nom = navbat.pop()
            if nom in korilgan:
                continue
            korilgan.add(nom)
            qismlar = nom.split(".")
            navbat |= {".".join(qismlar[:i]) for i in range(1, len(qismlar))}   # parent packages
            fayl = _fayl(nom, ildiz)
            if fayl is None:
                continue                            # an attribute, not a module
            fayllar.add(fayl)
            paket = nom if fayl.name == "__init__.py" else nom.rpartition(".")[0]
            ichki = _importlar(fayl.read_text(encoding="utf-8"), paket)
            navbat |= (ichki if ichki is not None else
                       {f"{PAKET}.{p.stem}" for p in (ildiz / PAKET).glob("*.py")})
    royxat = sorted(fayllar)
    if (ildiz / QULF).is_file():
        royxat.append(ildiz / QULF)
    return royxat


def _izi(fayllar: list[Path], ildiz: Path) -> str:
    h = hashlib.sha256()
    for f in fayllar:
        h.update(f.relative_to(ildiz).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def kod_izi(matn: str, ildiz: Path | None = None) -> str:
    """SHA-256 over the paths and contents of the files the chapter ``matn`` runs,
    and over the machine's arithmetic (``chapter_code.muhit.izi``; nothing where the
    book's chapter_code has no muhit)."""
    ildiz = ildiz or _ildiz()
    hisob = muhit.izi() if muhit else ""
    return hashlib.sha256((_izi(kuzatilgan_fayllar(matn, ildiz), ildiz) + "\n"
                           + hisob).encode()).hexdigest()


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


def _bogla(app, docname, source) -> None:
    if app.env.doc2path(docname).endswith(".py"):
        for f in kuzatilgan_fayllar(source[0]):
            app.env.note_dependency(str(f))


def setup(app):
    global ILDIZ
    ILDIZ = Path(app.srcdir).resolve()
    _xotirani_yukla(Path(app.doctreedir).parent / "ijro_oqilgan.pickle")
    app.connect("source-read", _bogla)
    app.connect("build-finished", _xotirani_saqla)
    # a new environment version makes Sphinx read every page again (outputs from the cache)
    return {"parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": qurilish_izi(ILDIZ)}
