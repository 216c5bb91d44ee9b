"""Build side: what each page loads and says, set as Sphinx writes it (a Sphinx extension).

Only the configuration, the templates' environment, the HTML translator (the glossary's term
links) and each page's template context (``html-page-context``) change here, so a page is
written right the first time; each function says what it sets and
why.  What must change files after the build is in ``yakun.py``.  ``tests/test_brauzer.py``
checks the result in Chromium, ``tests/test_mayoq.py`` with Lighthouse.
"""

from __future__ import annotations

import html
import re
import types
from pathlib import Path

from docutils import nodes
from sphinx.locale import _ as _sphinx

from .pdf import harf_guruhi, tartib_kaliti

#: The book's static files (stylesheet, script, icon), relative to the source folder.
STATIK = Path("book") / "_static"
USLUB, SKRIPT, BELGI = "kitob.css", "kitob.js", "favicon.svg"

_GAP_OXIRI = re.compile(r"(?<=[.!?…])\s+(?=[A-ZʻʼА-ЯЎҚҒҲ\"«(0-9])")
_IMG = re.compile(r"<img\b[^>]*>")
_ATR = re.compile(r'([\w-]+)="([^"]*)"')


# --- configuration and the book's files ------------------------------------------------

def _thebesiz(app) -> None:
    """Disconnect every listener sphinx_thebe registered (live code on Binder: off here, and
    Jupyter Book always loads it; it was set up before this extension)."""
    for tinglovchilar in app.events.listeners.values():
        tinglovchilar[:] = [t for t in tinglovchilar
                            if not getattr(t.handler, "__module__", "").startswith("sphinx_thebe")]
    # ... and the stylesheet its setup() registered directly
    reg = app.registry
    reg.css_files = [(f, a) for f, a in reg.css_files if not str(f).startswith("sphinx-thebe")]
    reg.js_files = [(f, a) for f, a in reg.js_files if not str(f or "").startswith("sphinx-thebe")]


def _sozla(app, config) -> None:
    """config-inited: a valid theme mode (unset, pydata logs "invalid theme mode"); the book's
    stylesheet (after the themes'), script (deferred) and icon."""
    config.html_context.setdefault("default_mode", "auto")
    # sphinx-book-theme sets no header search ("navbar_persistent ="), but pydata 0.17 only
    # sees options the user gives and adds one: a second search box in an empty top bar
    config.html_theme_options.setdefault("navbar_persistent", [])
    # the sidebar's foot holds Read the Docs' ad placeholder (an empty div off RTD): none
    config.html_theme_options.setdefault("primary_sidebar_end", [])
    # the script switch (yozuvda.py, issue 48) before the header's buttons, where there are
    # editions in other scripts
    if config.kitob_yozuvlar:
        config.html_theme_options.setdefault("article_header_end", ["yozuv-tugmasi.html", "article-header-buttons.html"])
    statik = Path(app.srcdir) / STATIK
    if not statik.is_dir():
        return
    if str(statik) not in config.html_static_path:
        config.html_static_path.append(str(statik))
    if (statik / USLUB).is_file():
        app.add_css_file(USLUB, priority=900)       # after the themes' stylesheets
    if (statik / SKRIPT).is_file():
        app.add_js_file(SKRIPT, loading_method="defer")
    if (statik / BELGI).is_file() and not config.html_favicon:
        config.html_favicon = str(statik / BELGI)


# --- descriptions ------------------------------------------------------------------

def _birinchi_xatboshi(doctree) -> str | None:
    """The text of the document's first paragraph of prose (not in a figure, table, list or note)."""
    ichida_emas = (nodes.figure, nodes.table, nodes.list_item, nodes.Admonition, nodes.footnote,
                   nodes.citation, nodes.field_list, nodes.line_block, nodes.caption)
    def ichidami(tugun) -> bool:
        return tugun is not None and (isinstance(tugun, ichida_emas) or ichidami(tugun.parent))

    for p in doctree.findall(nodes.paragraph):
        if ichidami(p.parent) or next(iter(p.findall(nodes.math)), None) is not None:
            continue
        matn = " ".join(p.astext().split())
        if len(matn) >= 40:
            return matn
    return None


def qisqartir(matn: str, uzunlik: int) -> str:
    """Whole sentences of ``matn`` up to ``uzunlik`` characters; a longer first one is cut at a word."""
    matn = " ".join(matn.split())
    gaplar = _GAP_OXIRI.split(matn)
    natija = ""
    for gap in gaplar:
        yangi = f"{natija} {gap}".strip()
        if len(yangi) > uzunlik:
            break
        natija = yangi
    if not natija:
        natija = matn[: uzunlik - 1].rsplit(" ", 1)[0].rstrip(",;:—– ") + "…"
    return natija


def tavsif(app, pagename: str, doctree, sarlavha: str = "") -> str:
    """A page's description: its first paragraph; else its title and the front page's.
    (sphinxext-opengraph's takes the title, the LaTeX of formulas and "..." into it, and
    gives none to a page without a doctree.)"""
    uzunlik = app.config.kitob_tavsif_uzunligi
    if doctree is not None:
        matn = _birinchi_xatboshi(doctree)
        if matn:
            return qisqartir(matn, uzunlik)
    bosh = _birinchi_xatboshi(app.env.get_doctree(app.config.root_doc))
    if not bosh:
        return qisqartir(sarlavha or app.config.project, uzunlik)
    return qisqartir(f"{sarlavha}. {bosh}" if sarlavha else bosh, uzunlik)


def meta(matn: str) -> str:
    return f'<meta name="description" content="{html.escape(matn, quote=True)}" />\n'


# --- page context ---------------------------------------------------------------

def _rasm_olchami(manbalar: dict[str, Path], src: str) -> tuple[int, int] | None:
    """(width, height) in pixels of the image a page's ``src`` names (``manbalar``: its name in
    ``_images/`` -> the file Sphinx copies there)."""
    from PIL import Image

    yol = manbalar.get(Path(src.split("?")[0]).name)
    if yol is None or not yol.is_file():
        return None
    with Image.open(yol) as rasm:
        return rasm.size


def _atribut_qosh(teg: str, qoshimcha: list[str]) -> str:
    """An opening tag with ``qoshimcha`` (``name="value"`` strings) added before its end."""
    oxir = " />" if teg.endswith("/>") else ">"
    return teg[: -len(oxir)].rstrip() + "".join(" " + q for q in qoshimcha) + oxir if qoshimcha else teg


def rasmlarni_dangasa(body: str, olcham) -> str:
    """Every ``<img>``: ``loading="lazy" decoding="async"`` and its size (``olcham(src)``) when known,
    with its ratio as ``--nisbat`` (kitob.css keeps a figure within the screen's height by it)."""
    def bitta(m):
        teg = m.group(0)
        a = dict(_ATR.findall(teg))
        qoshimcha = [f'{k}="{v}"' for k, v in (("loading", "lazy"), ("decoding", "async")) if k not in a]
        wh = None if {"width", "height", "style"} & set(a) else olcham(a.get("src", ""))
        olchov = [f'width="{wh[0]}" height="{wh[1]}" style="--nisbat: {wh[0] / wh[1]:.4f}"'] if wh else []
        return _atribut_qosh(teg, qoshimcha + olchov)
    return _IMG.sub(bitta, body)


#: The boxes the theme gives a tab stop when they scroll (its selectors), and display maths.
_QUTI = re.compile(r'<(?:pre\b|div class="(?:output\b|pst-scrollable-table-container\b|math\b))[^>]*>')


def tab_toxtash(body: str) -> str:
    """``tabindex="0"`` on every box that may scroll: reachable by keyboard before kitob.js
    has measured it (it then sets -1 where the box does not scroll, as the theme does)."""
    return _QUTI.sub(lambda m: _atribut_qosh(m.group(0), [] if "tabindex=" in m.group(0) else ['tabindex="0"']),
                     body)


_PNG_IMG = re.compile(r'<img\b[^>]*\bsrc="([^"]*_images/[^"/]+)\.png"[^>]*>')


def webp_bilan(body: str, bormi) -> str:
    """Each figure PNG of ``_images/`` offered as WebP too: ``<picture>`` with a WebP source.

    ``bormi(name)`` says whether the site will have ``_images/<name>.webp``.  The
    PNG stays the image's ``src`` (a browser without WebP shows it)."""
    def bitta(m):
        if not bormi(Path(m.group(1)).name) or body[:m.start()].endswith(f'srcset="{m.group(1)}.webp">'):
            return m.group(0)
        return f'<picture><source type="image/webp" srcset="{m.group(1)}.webp">{m.group(0)}</picture>'
    return _PNG_IMG.sub(bitta, body)


def _skript_nomi(js) -> str:
    return str(getattr(js, "filename", "") or "").rsplit("/", 1)[-1].split("?")[0]


def tarjimalar_oldin(skriptlar: list) -> list:
    """The page's scripts with translations.js straight after doctools.js, whose catalogue it
    fills, at its priority (Sphinx sorts by priority after html-page-context, keeping this
    order), not last: deferred scripts run in order, and sphinx_highlight.js writes its "Hide
    Search Matches" link as soon as it runs; before the translations it was English."""
    from sphinx.builders.html._assets import _JavaScript

    tarjima = [js for js in skriptlar if _skript_nomi(js) == "translations.js"]
    qolgan = [js for js in skriptlar if _skript_nomi(js) != "translations.js"]
    joy = next((i + 1 for i, js in enumerate(qolgan) if _skript_nomi(js) == "doctools.js"), None)
    if not tarjima or joy is None:
        return list(skriptlar)
    ustuvor = getattr(qolgan[joy - 1], "priority", 500)
    tarjima = [_JavaScript(js.filename, priority=ustuvor, **dict(getattr(js, "attributes", {}) or {}))
               for js in tarjima]
    return qolgan[:joy] + tarjima + qolgan[joy:]


def _royxatlar(app, pagename, templatename, context, doctree) -> None:
    """html-page-context at 500, before pydata-sphinx-theme's: each page gets its own file lists,
    without sphinx-design's where it uses none of its components (``sd-``), and so without the
    theme's inline scripts added while the page is written, which failed before the deferred
    documentation_options.js ("DOCUMENTATION_OPTIONS is not defined")."""
    dizayn = () if "sd-" in context.get("body", "") else ("sphinx-design", "design-tabs", "sphinx_design")
    for k in ("css_files", "script_files"):     # new lists: the builder's own are shared by every page
        if k in context:
            context[k] = [f for f in context[k] if not any(d in str(getattr(f, "filename", f) or "")
                                                             for d in dizayn)]


def _tartib(app) -> list[str]:
    """The book's pages in the order of its contents."""
    tartib: list[str] = []

    def yur(doc):
        tartib.append(doc)
        for bola in app.env.toctree_includes.get(doc, []):
            yur(bola)
    yur(app.config.root_doc)
    return tartib


def _darslar_boyicha(app, yozuv):
    """An entry of the site's index with its places named: the term's own link (the glossary's),
    then one line a page that uses it, the page's title linking to its first use there, in the
    book's order.  (Sphinx's template numbers a term's further links "[1], [2]", which say nothing.)"""
    nom, (havolalar, ostlari, kalit) = yozuv
    if ostlari or len(havolalar) < 2:
        return yozuv
    tartib, birinchi = _tartib(app), {}
    for asosiy, uri in havolalar[1:]:
        birinchi.setdefault(uri.split(".html")[0], (asosiy, uri))
    sahifalar = sorted(birinchi, key=lambda d: tartib.index(d) if d in tartib else len(tartib))
    return nom, (havolalar[:1], [(app.env.titles[d].astext(), [birinchi[d]]) for d in sahifalar], kalit)


def _sahifa(app, pagename, templatename, context, doctree) -> None:
    """html-page-context: the page's description; its scripts deferred (they do not hold up
    the page); its figures lazy, sized (nothing jumps as they arrive) and offered as WebP
    (``yakun.py`` writes it; the PNG stays for an old browser and the PDF); a tab stop on
    every box that may scroll."""
    from sphinx.builders.html._assets import _JavaScript

    from sphinx.locale import _

    # Sphinx's own pages have no title in their context: the name their template shows
    sarlavha = re.sub(r"<[^>]+>", "", context.get("title") or "") or {
        "search": _("Search"), "genindex": _("Index")}.get(pagename, "")
    context["metatags"] = context.get("metatags", "") + meta(tavsif(app, pagename, doctree, html.unescape(sarlavha)))
    # the search page runs Sphinx's search scripts as it is read (its template puts them
    # after the head's): they need documentation_options.js and the rest already run
    def kechiktir(js, a):        # a new object: the builder's own are shared by every page
        if not getattr(js, "filename", None) or {"async", "defer"} & set(a) or a.get("type") == "module":
            return js
        return _JavaScript(js.filename, priority=js.priority, **{**a, "defer": "defer"})
    if "script_files" in context:               # a new list, too
        context["script_files"] = [js if pagename == "search" else kechiktir(js, dict(getattr(
            js, "attributes", {}) or {})) for js in tarjimalar_oldin(context["script_files"])]
    if pagename == "genindex" and context.get("genindexentries"):    # the PDF index's order (pdf.py)
        context["genindexentries"] = korsatkich_guruhlari(
            [_darslar_boyicha(app, y) for _, g in context["genindexentries"] for y in g], tartib_kaliti, harf_guruhi)
    if context.get("body"):
        manbalar = {chiqish: Path(app.srcdir) / manba for manba, chiqish in app.builder.images.items()}
        body = rasmlarni_dangasa(context["body"], lambda src: _rasm_olchami(manbalar, src))
        pnglar = {Path(n).stem for n in manbalar if n.lower().endswith(".png")}
        context["body"] = tab_toxtash(webp_bilan(body, lambda nom: nom in pnglar))


def korsatkich_guruhlari(yozuvlar: list, kalit, guruh) -> list:
    """The index's entries (name, data) sorted by ``kalit`` of their names and filed under
    ``guruh`` of them ("_" for a name that starts with no letter): Sphinx's genindexentries."""
    guruhlar: dict = {}
    for y in sorted(yozuvlar, key=lambda y: kalit(y[0])):
        guruhlar.setdefault(guruh(y[0]) or "_", []).append(y)
    return list(guruhlar.items())


#: The letter bar's name for a screen reader (an edition writes it in its script).
HARFLAR_IZOHI = "Atamalar harf boʻyicha"


def harflar_qatori(atamalar: list[tuple[str, str]], guruh=harf_guruhi, izoh: str = HARFLAR_IZOHI) -> str:
    """A glossary's letter bar: (term, its id) in the glossary's order -> one link a letter
    ("A", "Oʻ", "Sh"; ``guruh`` files a term under its letter), to the first term filed under it."""
    birinchi: dict[str, str] = {}
    for matn, id_ in atamalar:
        birinchi.setdefault(guruh(matn) or "#", id_)
    havolalar = "".join(f'<a href="#{html.escape(i)}">{html.escape(h)}</a>' for h, i in birinchi.items())
    return f'<nav class="kitob-harflar" aria-label="{html.escape(izoh)}">{havolalar}</nav>\n'


def _harflar(app, doctree, docname) -> None:
    """doctree-resolved (HTML): a letter bar before each glossary, so that a reader on a phone
    reaches a term in one tap instead of scrolling the glossary's eighteen screens."""
    if app.builder.format != "html" or app.config.kitob_yozuv:     # an edition orders its own (yozuvda)
        return
    harflar_qoy(doctree)


def harflar_qoy(doctree, tartib=None, guruh=harf_guruhi, izoh: str = HARFLAR_IZOHI) -> None:
    """Each glossary of the page, its terms sorted by ``tartib`` (None: as the author wrote
    them), gets its letter bar (``harflar_qatori``) before it."""
    for lugat in list(doctree.findall(lambda n: isinstance(n, nodes.definition_list)
                                      and "glossary" in n["classes"])):
        if tartib is not None:
            bandlar = sorted(lugat.children, key=lambda b: tartib(next(iter(b.findall(nodes.term)), b).astext()))
            lugat.children = []
            lugat.extend(bandlar)
        atamalar = [(t.astext(), t["ids"][0]) for t in lugat.findall(nodes.term) if t["ids"]]
        if len(atamalar) > 1:
            lugat.parent.insert(lugat.parent.index(lugat),
                                nodes.raw("", harflar_qatori(atamalar, guruh, izoh), format="html"))


class _AtamaHavolalari:
    """The HTML translator's glossary: a term's "#" link (its permalink) is not written after
    each of the glossary's hundred terms but once, as the title on its ``<dl data-havola>``,
    and kitob.js adds the links when the page is read.  The glossary's HTML is 0,7 kB smaller
    compressed, which keeps it within the first round trip of a phone's connection (Lighthouse's
    slow-start window, about 14 kB; issue 46).  Headings keep their links in the HTML."""

    def visit_definition_list(self, node):
        super().visit_definition_list(node)
        if "glossary" in node["classes"] and self.config.html_permalinks:
            nom = html.escape(_sphinx("Link to this term"))
            self.body[-1] = self.body[-1].replace("<dl ", f'<dl data-havola="{nom}" ', 1)

    def add_permalink_ref(self, node, title):
        if not isinstance(node, nodes.term):
            super().add_permalink_ref(node, title)


def _tarjimon(app) -> None:
    """builder-inited, after pydata-sphinx-theme's own mixin (priority 500): the HTML builder's
    translator with _AtamaHavolalari mixed in."""
    if app.builder.format != "html":
        return
    asl = app.registry.translators.get(app.builder.name) or app.builder.default_translator_class
    app.set_translator(app.builder.name, types.new_class("KitobHTML5Translator", (_AtamaHavolalari, asl)),
                       override=True)


def _shablonlar(app) -> None:
    """builder-inited: the theme's templates rendered without the blank lines their tags leave
    (Jinja's trim_blocks and lstrip_blocks; the pages' text is the same), so every page is lighter."""
    shablonlar = getattr(app.builder, "templates", None)
    if shablonlar is not None:
        shablonlar.environment.trim_blocks = True
        shablonlar.environment.lstrip_blocks = True


def setup(app):
    _thebesiz(app)
    app.connect("builder-inited", _tarjimon, priority=600)
    app.connect("builder-inited", _shablonlar)
    app.connect("doctree-resolved", _harflar)
    app.connect("config-inited", _sozla)
    app.connect("html-page-context", _royxatlar, priority=500)    # connected before the theme's
    app.connect("html-page-context", _sahifa, priority=800)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
