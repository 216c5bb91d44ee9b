"""Build side: glued numbers written in Uzbek form (a Sphinx extension).

The chapter glues numbers as numbers; the prose says the digits: ``{glue:text}`a:.3f```.
MyST-NB formats that with ``format()`` (``0.997``, ``2.8e-05``); here with
``chapter_code.bichim.son``, as the chapter's tables and ticks (``0,997``, ``2,8·10⁻⁵``,
``98 %``).  MyST-NB has no hook: its ``format_plain_text`` is replaced in the two modules
that call it (``tests/test_yamoqlar.py``); a book without ``bichim`` keeps MyST-NB's.
"""

from __future__ import annotations

import re
from ast import literal_eval
from pathlib import Path

from myst_nb.core import variables as _variables
from myst_nb.ext.glue import crossref as _crossref
from myst_nb.ext.glue import roles as _roles
from myst_nb.ext.glue.utils import PendingGlueReference

from docutils import nodes
from sphinx import addnodes
from sphinx.util import logging

from . import ijro

try:
    from chapter_code.bichim import son
except ImportError:      # a book whose chapter_code has no bichim (the tests' small fixture books)
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


def _gaplar(app, doctree, docname=None) -> None:
    """Mark glued sentences (three words or more) so the stylesheet sets them unbolded: as the page
    is read, and as it is written for values pasted from another page (resolved only then)."""
    for tugun in doctree.findall(nodes.inline):
        if "pasted-text" in tugun["classes"] and "pasted-gap" not in tugun["classes"] \
                and len(tugun.astext().split()) >= 3:
            tugun["classes"].append("pasted-gap")


#: Case endings, counters and units written after a number or a symbol as a word of their own
#: ("4096 da", "T ga", "960 gacha", "200 ta", "225 MiB", "1,77 nat", "61 foizida"), typed or glued:
#: the space (or the source's line break) before one is a no-break space, so that a line never
#: starts with it (editors counted 19 such breaks in the PDF, "T = 4096 / gacha", and 29 in the
#: HTML before a unit).
QOSHIMCHALAR = (r"(?:da|ga|ka|qa|dan|tan|gacha|ni|ning|niki|dagi|dagidan|dek|ta|tadan|marta"
                r"|KiB|MiB|GiB|MB|GB|TB|ms|bayt|nat|foiz\w*|mlrd|mln|ming|daqiqa\w*|soniya\w*|soat\w*)")
#: After a number, any word that follows it stays on its line too ("59 qadamimizda", "$i = 0$
#: juftlikning", "60 qadamdan": an editor found three such breaks in the PDF): a word in lower case,
#: or one of QOSHIMCHALAR.  After a symbol or a name in code, only QOSHIMCHALAR ("`nn.Linear` bilan"
#: may break: a long name and its word would not fit a phone's line).
SONDAN_KEYIN = rf"(?:{QOSHIMCHALAR}|[a-z]\w*)"
#: what a number ends with: a digit, a superscript, a percent sign or infinity
_SON = "[0-9²³¹⁰⁴⁵⁶⁷⁸⁹%∞]"
#: ... the break after one inside a text
_SONDAN_KEYIN = re.compile(rf"(?<={_SON})[ \n](?={SONDAN_KEYIN}\b)")
#: ... the break at the start of a text, or a text that is the break alone: after a symbol, and
#: after a number (a formula, a glued value or a text that ends with a digit)
_BOSHIDA = re.compile(rf"^[ \n](?={QOSHIMCHALAR}\b)")
_BOSHIDA_SONDAN = re.compile(rf"^[ \n](?={SONDAN_KEYIN}\b)")
_SON_OXIRI = re.compile(f"{_SON}$")
_SON_BOSHLIQ_OXIRI = re.compile(rf"{_SON}[ \n]$")
_SOZ_BOSHI = re.compile(rf"{SONDAN_KEYIN}\b")


#: an expression of symbols or numbers written in the text (*T* × *T*, (*i* + 1), *τ* < 1,
#: 2 → 9): no line breaks around its sign (editors found "T / × T", "(i + / 1)", "τ < / 1" and
#: "2 → / 9" in the PDF)
AMALLAR = "×+−<>≤≥→"
#: ... its operands: a symbol of one or two letters, a number, a bracket, or the node before or
#: after (a formula, an italic *T*); words around a sign ("qidirish + LLM") may break
_AMALDAN_OLDIN = r"(?:^|(?<=[0-9)²³∞])|(?<![^\W\d_]{3})(?<=[^\W\d_]))"
_AMALDAN_KEYIN = r"(?:$|(?=[0-9(−])|(?=[^\W\d_]{1,2}(?![^\W\d_])))"
_KOPAYTMA = re.compile(rf"{_AMALDAN_OLDIN} [{AMALLAR}] {_AMALDAN_KEYIN}")


def _belgimi(tugun) -> bool:
    """A formula, a name in code (`KopBoshli` ning), a glued number or an italic symbol of one
    or two letters (*T*, *d*)."""
    if isinstance(tugun, (nodes.math, nodes.literal)):
        return True
    if isinstance(tugun, nodes.inline) and "pasted-text" in tugun["classes"]:
        return True
    return isinstance(tugun, nodes.emphasis) and len(tugun.astext().strip()) <= 2


def _qoshimchalar(app, doctree, docname=None) -> None:
    """A case ending written after a number, a formula or a symbol is joined to it by a no-break
    space, in the text of paragraphs, captions and table cells (never inside code); so are the
    two sides of an expression's sign (AMALLAR)."""
    for matn in list(doctree.findall(nodes.Text)):
        ota = matn.parent
        if ota is None or isinstance(ota, (nodes.FixedTextElement, nodes.literal, nodes.math, nodes.raw)):
            continue
        asl = matn.astext()
        yangi = _KOPAYTMA.sub(lambda m: m.group(0).replace(" ", "\u00a0"), _SONDAN_KEYIN.sub("\u00a0", asl))
        # by identity: a Text is a str, and list.index would find the first equal one ("\n")
        i = next(k for k, bola in enumerate(ota.children) if bola is matn)
        oldingi = ota[i - 1] if i > 0 else None
        # the next node that writes something (an index entry or a target before a term does not)
        keyingi = next((b for b in ota.children[i + 1:] if not isinstance(b, (addnodes.index, nodes.target))),
                       None)
        if oldingi is not None and (_belgimi(oldingi) or (isinstance(oldingi, nodes.Text)
                                                         and _SON_OXIRI.search(oldingi.astext()))):
            # a line break of the source is a text of its own (MyST): "960", "\n", "gacha ...";
            # so is the space before a unit that links to the glossary: "225", " ", [MiB]
            bolak = asl + (keyingi.astext() if asl in (" ", "\n") and keyingi is not None else "")
            if (_BOSHIDA_SONDAN if _SON_OXIRI.search(oldingi.astext().rstrip()) else _BOSHIDA).match(bolak):
                yangi = "\u00a0" + yangi[1:]
        # "30 " before a glossary link, [epoxa]: the word stands in the next node
        if keyingi is not None and _SON_BOSHLIQ_OXIRI.search(yangi) and _SOZ_BOSHI.match(keyingi.astext()):
            yangi = yangi[:-1] + "\u00a0"
        if yangi != asl:
            ota[i] = nodes.Text(yangi)


def _manbalari(app, doctree) -> None:
    """doctree-read: a page that pastes values from other pages depends on their sources and on
    the code they run (``ijro.kuzatilgan_fayllar``), which MyST-NB does not record: when one of
    them changes, the page is read again (its outputs from the cache) with the new values."""
    for doc in sorted({t.refdoc for t in doctree.findall(PendingGlueReference)} - {app.env.docname}):
        manba = Path(app.env.doc2path(doc))
        fmt = ijro.FORMATLAR.get(manba.suffix)
        for f in [manba, *(ijro.kuzatilgan_fayllar(manba.read_text(encoding="utf-8"), fmt=fmt) if fmt else [])]:
            app.env.note_dependency(str(f))


def setup(app):
    app.connect("doctree-read", _gaplar)
    app.connect("doctree-read", _manbalari)
    app.connect("doctree-resolved", _gaplar)
    app.connect("doctree-resolved", _qoshimchalar)
    if son is None:
        _LOG.info("glue: this book has no chapter_code/bichim.py; glued numbers keep MyST-NB's format")
    else:
        _roles.format_plain_text = ozbekcha_format
        _crossref.format_plain_text = ozbekcha_format
    return {"parallel_read_safe": True, "parallel_write_safe": True}
