"""Build side: a lesson's interactive maps keep their data in a file of their own (a Sphinx extension).

``chapter_code.kitob.xarita`` writes a map as raw HTML with its data in a JSON script,
which every reader would download with the page.  As the HTML builder writes the page, the
data go to ``<page>.xarita-<nom>.js`` beside it, named by the map's ``data-manba``:
``book/_static/xarita.js`` loads it once the page has loaded.  A script, not a JSON file
for ``fetch``: a browser runs a script beside a page opened from files (the site copied to
a reader's disk), and refuses it a ``fetch``.  (When the page is written, not read: the PDF
build, which tools/qurish.py runs first, reads the pages the two builds share, and the HTML
build then writes them without reading them again.)

Every word ``xarita.js`` writes is in one JSON object between two ``kitob-soz`` comments; an
edition in another script (``kitob_yozuv``, yozuvda.py) writes its copy of the script with
that object in its script (``sozlarini_yoz``).
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

from docutils import nodes

_QUTI = re.compile(r'<div class="kitob-xarita" data-xarita="([\w-]+)"')
_MALUMOT = re.compile(r'<script type="application/json" data-xarita-malumot>(.*?)</script>\n?', re.S)


#: How a data file keeps its data: under its own name in one object of the page's window.
_SKRIPT = "(window.kitobXaritaMalumot ||= {{}})[{nom}] = {malumot};\n"


def skript(nom: str, malumot: str) -> str:
    """The data file ``nom``'s text: the JSON ``malumot`` as a script."""
    return _SKRIPT.format(nom=json.dumps(nom), malumot=malumot)


def malumoti(matn: str):
    """What a data file (``skript``) holds, read back."""
    boshi, _, qolgani = matn.partition("] = ")
    if not boshi.startswith("(window.kitobXaritaMalumot ||= {})[") or not qolgani.endswith(";\n"):
        raise ValueError("not a map's data file (qurilish.xarita.skript)")
    return json.loads(qolgani[:-2])


def ajrat(html: str, sahifa: str) -> tuple[str, dict[str, str]]:
    """The raw HTML of a page's maps without their data, and the data: file name -> its text
    (``skript``)."""
    nomlar = [f"{sahifa}.xarita-{nom}.js" for nom in _QUTI.findall(html)]
    malumotlar = [m.replace("<\\/", "</") for m in _MALUMOT.findall(html)]
    if len(malumotlar) != len(set(nomlar)) or len(nomlar) != len(set(nomlar)):
        raise ValueError(f"{sahifa}: {len(nomlar)} interactive maps but {len(malumotlar)} data blocks; "
                         "write each map, under a name of its own, with chapter_code.kitob.xarita")
    nomi = iter(nomlar)
    html = _QUTI.sub(lambda m: f'{m.group(0)} data-manba="{next(nomi)}"', html)
    return _MALUMOT.sub("", html), {nom: skript(nom, m) for nom, m in zip(nomlar, malumotlar)}


def _yozilganda(app, doctree, docname) -> None:
    """doctree-resolved (HTML builder): each map's data out of the page, into its file."""
    if app.builder.format != "html":
        return
    papka = Path(app.outdir) / posixpath.dirname(docname)
    for tugun in list(doctree.findall(nodes.raw)):
        if "html" in tugun.get("format", "").split() and "kitob-xarita" in tugun.astext():
            html, fayllar = ajrat(tugun.astext(), posixpath.basename(docname))
            tugun.replace_self(nodes.raw("", html, format="html"))
            for nom, malumot in fayllar.items():
                papka.mkdir(parents=True, exist_ok=True)
                (papka / nom).write_text(malumot, encoding="utf-8")


#: The words of xarita.js: a JSON object between two of these comments.
_SOZLAR = re.compile(r"(/\* kitob-soz \*/ )(\{.*?\})( /\* kitob-soz \*/)", re.S)


def _sozlar(js: str) -> re.Match:
    m = _SOZLAR.search(js)
    if m is None:
        raise ValueError("xarita.js keeps no words between /* kitob-soz */ comments: write them there")
    return m


def sozlari(js: str) -> dict[str, str]:
    """The words of xarita.js (its ``SOZ`` object): key -> text, ``{name}`` where a value goes."""
    return json.loads(_sozlar(js)[2])


def sozlarini_yoz(js: str, yoz) -> str:
    """xarita.js with each of its words (``sozlari``) written by ``yoz``; a script whose words
    are not where this expects them stops the build."""
    m = _sozlar(js)
    sozlar = {k: yoz(v) for k, v in json.loads(m[2]).items()}
    return js[:m.start(2)] + json.dumps(sozlar, ensure_ascii=False) + js[m.end(2):]


def _yozuvda(app, exception) -> None:
    """build-finished: an edition's copy of xarita.js, its words in the edition's script."""
    from .yozuvda import _xabar, _yozuv

    y = _yozuv(app)
    fayl = Path(app.outdir) / "_static" / "xarita.js"
    if exception is None and y is not None and app.builder.format == "html" and fayl.is_file():
        fayl.write_text(sozlarini_yoz(fayl.read_text(encoding="utf-8"), lambda matn: _xabar(y, matn)),
                        encoding="utf-8")


def setup(app):
    app.connect("doctree-resolved", _yozilganda)
    app.connect("build-finished", _yozuvda)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
