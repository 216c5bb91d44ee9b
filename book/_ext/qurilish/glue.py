"""Build side: glued numbers written in Uzbek form (a Sphinx extension).

The chapter glues numbers as numbers (``glue("aniqlik", 0.997)``), so the tests
read them from the notebook as numbers, and the prose says how many digits to
show: ``{glue:text}`aniqlik:.3f```.  MyST-NB formats that with Python's
``format()`` — ``0.997``, ``2.8e-05``, ``98%``.  This extension makes
``{glue:text}`` write every glued *number* through ``chapter_code.raqam.son``,
the one helper that also writes the chapter's table cells and figure ticks:
``0,997``, ``2,8·10⁻⁵``, ``98 %`` in the web page and the PDF alike.  Glued
text (a ``str``) is left as it is.

MyST-NB sets every glued value in bold (``span.pasted-text``): right for a
number the build computed, heavy for the sentences the chapter builds from its
measurements ("uch seeddan ikkitasida vazifani yechdi, …").  A glued value of
three words or more gets the class ``pasted-gap`` as the page is read (a value
pasted from another page, as it is written), and ``kitob.css`` sets it in the
body's weight.

A value pasted from another page (``{glue:text}`dars.py::nom```) is looked up as the
page is written; MyST-NB does not record that the page depends on the other one, so
this extension does: when a page is read again, the pages pasting from it are written
again too.

One of the two places where the build imports from ``chapter_code`` (the other
is ``ijro``, for the arithmetic): the
helper is shared so that a number is written the same way wherever a reader
meets it.  A book whose ``chapter_code`` has no ``raqam`` (the tests' small
fixture books) keeps MyST-NB's format.  MyST-NB has no hook for this, so its ``format_plain_text`` is
replaced in the two modules that call it (the version is pinned in
requirements.lock; ``tests/test_raqam.py`` checks the replacement is in place
and the build test reads the result in the built page).
"""

from __future__ import annotations

from ast import literal_eval

from myst_nb.core import variables as _variables
from myst_nb.ext.glue import crossref as _crossref
from myst_nb.ext.glue import roles as _roles
from myst_nb.ext.glue.utils import PendingGlueReference

from docutils import nodes
from sphinx.util import logging

try:
    from chapter_code.raqam import son
except ImportError:      # a book whose chapter_code has no raqam (the tests' small fixture books)
    son = None

_ASL = _variables.format_plain_text
_LOG = logging.getLogger(__name__)


def ozbekcha_format(text: str, fmt_spec: str) -> str:
    """MyST-NB's ``format_plain_text`` for glued numbers in Uzbek form (text unchanged)."""
    try:
        qiymat = literal_eval(text)
    except (SyntaxError, ValueError):
        qiymat = None
    if isinstance(qiymat, (int, float)) and not isinstance(qiymat, bool):
        return son(qiymat, "" if fmt_spec == "s" else fmt_spec)
    return _ASL(text, fmt_spec)


def _gaplar(app, doctree) -> None:
    """Mark glued sentences (three words or more) so the stylesheet sets them unbolded."""
    for tugun in doctree.findall(nodes.inline):
        if "pasted-text" in tugun["classes"] and "pasted-gap" not in tugun["classes"] \
                and len(tugun.astext().split()) >= 3:
            tugun["classes"].append("pasted-gap")


def _gaplar_boshqa_sahifadan(app, doctree, docname) -> None:
    """The same for values pasted from another page ({glue:text}`dars.py::nom`), which MyST-NB
    resolves only as the page is written."""
    _gaplar(app, doctree)


def _manbalarini_yoz(app, doctree) -> None:
    """doctree-read: note the pages this page pastes values from (MyST-NB does not)."""
    manbalar = {t.refdoc for t in doctree.findall(PendingGlueReference)} - {app.env.docname}
    bogliq = app.env.__dict__.setdefault("raqamlar_manbalari", {})
    if manbalar:
        bogliq[app.env.docname] = manbalar
    else:
        bogliq.pop(app.env.docname, None)


def _oqiladiganlar(app, env, docnames) -> None:
    """env-before-read-docs: remember which pages this build reads again."""
    env.raqamlar_oqilgan = set(docnames)


def _ulardan_olganlar(app, env) -> list[str]:
    """env-get-updated: a page that pastes a value from a page read again is written again
    (its value may have changed; the page itself did not)."""
    oqilgan = getattr(env, "raqamlar_oqilgan", set())
    return sorted(d for d, manbalar in getattr(env, "raqamlar_manbalari", {}).items()
                  if manbalar & oqilgan and d in env.found_docs)


def _olib_tashla(app, env, docname) -> None:
    getattr(env, "raqamlar_manbalari", {}).pop(docname, None)


def setup(app):
    app.connect("doctree-read", _gaplar)
    app.connect("doctree-read", _manbalarini_yoz)
    app.connect("env-before-read-docs", _oqiladiganlar)
    app.connect("env-get-updated", _ulardan_olganlar)
    app.connect("env-purge-doc", _olib_tashla)
    app.connect("doctree-resolved", _gaplar_boshqa_sahifadan)
    if son is None:
        _LOG.info("raqamlar: this book has no chapter_code/raqam.py; glued numbers keep MyST-NB's format")
    else:
        _roles.format_plain_text = ozbekcha_format
        _crossref.format_plain_text = ozbekcha_format
    return {"parallel_read_safe": True, "parallel_write_safe": True}
