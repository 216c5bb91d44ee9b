"""Build side: the chapter re-executes exactly when its code changes.

Jupyter Book's execution cache hashes only a notebook's code cells (and its
kernelspec), so an edit in ``chapter_code/`` would leave stale outputs in the
book (jupyter-book issue 1633).  Two pieces close that gap:

* ``oqi`` is the reader of the chapter's percent-format ``.py`` files (named in
  ``_config.yml`` under ``nb_custom_formats``).  It reads the file with jupytext
  and writes a digest of ``chapter_code/`` and ``requirements.lock`` into the
  notebook's kernelspec, which the cache hashes: new code, new hash, a fresh
  execution; the same code, a cache hit.
* As a Sphinx extension (``sphinx.extra_extensions`` in ``_config.yml``) it
  makes every chapter depend on those files, so Sphinx re-reads the chapter
  when one of them changes (and only then asks the cache).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import jupytext

KALIT = "kitob_kod_izi"
# The book's root (Sphinx's source folder); setup() sets it to the book being built.
ILDIZ = Path(__file__).resolve().parent.parent


def kuzatilgan_fayllar(ildiz: Path | None = None) -> list[Path]:
    """The files whose change re-executes the chapter: chapter_code/**/*.py and the lock."""
    ildiz = ildiz or ILDIZ
    fayllar = sorted((ildiz / "chapter_code").rglob("*.py"))
    fayllar.append(ildiz / "requirements.lock")
    return [f for f in fayllar if f.is_file()]


def kod_izi(ildiz: Path | None = None) -> str:
    """SHA-256 over the watched files' paths and contents."""
    ildiz = ildiz or ILDIZ
    h = hashlib.sha256()
    for f in kuzatilgan_fayllar(ildiz):
        h.update(f.relative_to(ildiz).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def oqi(matn: str, **kwargs):
    """Read a Jupytext text notebook and stamp the code digest into its kernelspec."""
    nb = jupytext.reads(matn, **kwargs)
    spec = nb.metadata.setdefault("kernelspec", {"name": "python3", "display_name": "Python 3",
                                                 "language": "python"})
    spec[KALIT] = kod_izi()
    return nb


def _bogla(app, docname, source) -> None:
    if app.env.doc2path(docname).endswith(".py"):
        for f in kuzatilgan_fayllar():
            app.env.note_dependency(str(f))


def setup(app):
    global ILDIZ
    ILDIZ = Path(app.srcdir).resolve()
    app.connect("source-read", _bogla)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
