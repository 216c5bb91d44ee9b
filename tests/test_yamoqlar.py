"""Every patch of another package, listed once, each with the check that it still fits.

The book's build code relies in places on other packages' internals or exact text
(a private class, a minified script, a template, a JavaScript function's shape).  An
upgrade that changes one of them must fail loudly, never leave a page quietly English,
slow or stale.  Each ``Yamoq`` says what it patches, where, the version it was checked
against and the upstream issue where there is one; its ``tekshir`` returns what no longer
fits (or nothing).  The tests below run every check (``make unit``: seconds) and compare the
installed versions with the checked ones, so an upgrade stops with the list of patches to
look at again; each check is shown able to fail.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest


@dataclass(frozen=True)
class Yamoq:
    nom: str
    paket: str          #: the distribution patched (its version is checked)
    versiya: str        #: the version this patch was checked against
    qayerda: str        #: the book's module that patches
    nima: str           #: what it patches and why
    tekshir: Callable[[], str | None]
    havola: str = ""    #: the upstream issue or pull request, if there is one


def _fayl(paket: str, *yol: str) -> str:
    return Path(importlib.import_module(paket).__file__).parent.joinpath(*yol).read_text(encoding="utf-8")


def _bir_marta(matn: str, qidiruv: str, joy: str) -> str | None:
    n = matn.count(qidiruv)
    return None if n == 1 else f"{joy} holds {qidiruv!r} {n} times, not once"


def _katex_server() -> str | None:
    from sphinxcontrib.katex import KaTeXServer

    if list(inspect.signature(KaTeXServer.start_server_process).parameters) != ["rundir", "timeout"]:
        return "KaTeXServer.start_server_process(cls, rundir, timeout) changed its signature"
    if not all(hasattr(KaTeXServer, a) for a in ("build_command", "timeout_error")):
        return "KaTeXServer has no build_command/timeout_error, which katex._server_process calls"
    return None


def _katex_static() -> str | None:
    from sphinxcontrib import katex

    if not (hasattr(katex, "copy_file") and hasattr(katex, "filename_css")):
        return "sphinxcontrib.katex has no copy_file/filename_css, which tools/korish.py calls"
    if "mkdtemp()" not in inspect.getsource(katex.setup_static_path) \
            or "rmtree(app._katex_static_path)" not in inspect.getsource(katex.builder_finished):
        return ("sphinxcontrib.katex no longer makes _katex_static_path once and removes it after "
                "each build: tools/korish.py's rebuild of it may be unneeded or wrong")
    return None


def _sahifa_fayllari() -> str | None:
    from sphinx.builders.html import StandaloneHTMLBuilder

    from sphinx.application import Sphinx

    manba = inspect.getsource(StandaloneHTMLBuilder.prepare_writing)
    if "for js_filename, attrs in self.app.registry.js_files:" not in manba:
        return ("StandaloneHTMLBuilder.prepare_writing no longer adds the registry's scripts to "
                "_js_files: tools/korish.py's reset of both may be unneeded or wrong")
    if "self.registry.add_js_file" not in inspect.getsource(Sphinx.add_js_file):
        return "Sphinx.add_js_file no longer registers the script: see tools/korish.py's reset"
    from sphinx.testing.util import SphinxTestApp

    from sphinx.environment import BuildEnvironment

    if "self.env._pickled_doctree_cache.clear()" not in inspect.getsource(SphinxTestApp.build) \
            or "self._pickled_doctree_cache[docname]" not in inspect.getsource(BuildEnvironment.get_doctree):
        return ("BuildEnvironment.get_doctree no longer keeps doctrees in _pickled_doctree_cache (or "
                "Sphinx's test application no longer clears it before a build): tools/korish.py "
                "forgets a page's there when it is read again; see how a warm build works now")
    return None


def _thebe() -> str | None:
    from sphinx.events import EventListener
    from sphinx.registry import SphinxComponentRegistry

    reg = SphinxComponentRegistry()
    if "handler" not in EventListener._fields or not all(
            isinstance(getattr(reg, a, None), list) for a in ("css_files", "js_files")):
        return "Sphinx's EventListener.handler or registry.css_files/js_files are gone"
    if "app.add_css_file" not in inspect.getsource(importlib.import_module("sphinx_thebe")):
        return "sphinx_thebe no longer adds its stylesheet with app.add_css_file"
    return None


def _javascript() -> str | None:
    from sphinx.builders.html._assets import _JavaScript

    js = _JavaScript("a.js", priority=7, defer="defer")
    if (js.filename, js.priority, js.attributes.get("defer")) != ("a.js", 7, "defer"):
        return "sphinx.builders.html._assets._JavaScript has no filename/priority/attributes"
    return None


def _tab_stops() -> str | None:
    from qurilish import yakun

    js = _fayl("pydata_sphinx_theme", "theme", "pydata_sphinx_theme", "static", "scripts",
               "pydata-sphinx-theme.js")
    n = len(yakun._TAB_STOPS.findall(js))
    return None if n == 1 else f"pydata-sphinx-theme.js measures its scrollable boxes {n} times as yakun._TAB_STOPS expects"


def _uslublar() -> str | None:
    from sphinx.errors import ExtensionError

    from qurilish import uslub

    uslub.mavzu_uslublari.cache_clear()
    try:
        yollar = [y for y, _ in uslub.mavzu_uslublari()]
    except ExtensionError as xato:
        return str(xato)
    if not yollar or yollar[0] != "_static/styles/theme.css":
        return f"the theme's head_pre_assets links {yollar}, not theme.css first"
    return None


def _font_awesome() -> str | None:
    from qurilish import shrift

    papka = Path(importlib.import_module("pydata_sphinx_theme").__file__).parent / "theme" / \
        "pydata_sphinx_theme" / "static"
    css = (papka / shrift.PST_CSS).read_text(encoding="utf-8")
    ttflar = sorted((papka / shrift.FA_SHRIFTLAR).glob("*.ttf"))
    if not ttflar:
        return f"no Font Awesome .ttf in {shrift.FA_SHRIFTLAR}"
    for ttf in ttflar:
        if len(re.findall(rf'{re.escape(ttf.stem)}\.woff2\) format\("woff2"\),url\([^)]*/'
                          rf'{re.escape(ttf.stem)}\.ttf\) format\("truetype"\)', css)) != 1:
            return f"{shrift.PST_CSS} has no single @font-face src for {ttf.name}"
    return None


def _js_matnlar() -> str | None:
    from qurilish import tarjima

    for paket, fayllar in tarjima.JS_MATNLAR.items():
        for fayl, matnlar in fayllar.items():
            for asl, _, _ in matnlar:
                if xato := _bir_marta(_fayl(paket, "_static", fayl), asl, f"{paket}/_static/{fayl}"):
                    return xato
    return None


def _qatorlar() -> str | None:
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer
    from qurilish import kod
    from sphinx.highlighting import PygmentsBridge

    if list(inspect.signature(HtmlFormatter.wrap).parameters) != ["self", "source"]:
        return "pygments' HtmlFormatter.wrap(self, source) changed its signature"
    if PygmentsBridge("html").formatter is not HtmlFormatter:
        return "Sphinx's PygmentsBridge('html') no longer keeps its HTML formatter in .formatter"
    html = highlight("a = 1\n\n  b(2)\n", PythonLexer(), kod.qatorli(HtmlFormatter)())
    if html.count('<span class="q" style="--t:0">') != 1 or html.count('<span class="q" style="--t:2">') != 1:
        return f"the formatter's lines are not each in a span.q: {html!r}"
    return None


def _qidiruv() -> str | None:
    js = _fayl("sphinx", "themes", "basic", "static", "searchtools.js")
    for shakl in ("_parseQuery: (query) =>", "makeSearchSummary: (htmlText, keywords, anchor) =>",
                  "htmlToText: (htmlString, anchor) =>",
                  "return [query, searchTerms, excludedTerms, highlightTerms, objectTerms];"):
        if xato := _bir_marta(js, shakl, "Sphinx's searchtools.js"):
            return xato
    return None


def _qidiruv_kirishlari() -> str | None:
    manba = _fayl("sphinx", "search", "__init__.py")
    boshi = manba.find("    def load(self, stream: IO, format: Any) -> None:")
    oxiri = manba.find("    def dump(self", boshi)
    if boshi < 0 or oxiri < 0:
        return "Sphinx's IndexBuilder.load or dump is no longer where qidiruv.py wraps it"
    if "indexentries" in manba[boshi:oxiri] or "_index_entries" in manba[boshi:oxiri]:
        return "IndexBuilder.load restores the index entries itself now (sphinx#12599 fixed?): drop the wrapper"
    for qism in ("self._index_entries: dict[str, list[tuple[str, str, str]]] = env._search_index_index_entries",
                 "for docname, entries in self._index_entries.items():",
                 "indexentries=index_entries"):
        if xato := _bir_marta(manba, qism, "sphinx/search/__init__.py"):
            return xato
    return None


def _yashirin_katak() -> str | None:
    from myst_nb import sphinx_

    manba = inspect.getsource(sphinx_.visit_HideCellInput)
    for qism in ('<details class="admonition hide {classes}">', '<summary aria-label="Toggle hidden content">',
                 'node["prompt_show"]', 'node["prompt_hide"]', '"</summary>\\n"'):
        if qism not in manba:
            return f"MyST-NB's visit_HideCellInput no longer writes {qism!r}: compare tarjima._yashirin_katak"
    return None


def _kernelspec() -> str | None:
    import tempfile

    import nbformat
    from jupyter_cache.cache.main import JupyterCacheBase

    xeshlar = set()
    with tempfile.TemporaryDirectory() as papka:
        kesh = JupyterCacheBase(papka)
        for izi in ("a", "b"):
            nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")])
            nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "kitob_izi": izi}
            xeshlar.add(kesh.create_hashed_notebook(nb)[1])
    return None if len(xeshlar) == 2 else "jupyter-cache no longer hashes the kernelspec: ijro's digest would not re-execute"


def _raqamlash() -> str | None:
    from sphinx.environment.collectors.toctree import TocTreeCollector

    manba = inspect.getsource(TocTreeCollector.get_updated_docs)
    if "assign_figure_numbers" not in manba or "toc_fignumbers" not in inspect.getsource(
            TocTreeCollector.assign_figure_numbers):
        return "Sphinx no longer numbers figures into env.toc_fignumbers at env-get-updated"
    return None


def _raqamli_havola() -> str | None:
    from sphinx.domains.std import StandardDomain

    imzo = list(inspect.signature(StandardDomain._resolve_numref_xref).parameters)
    if imzo != ["self", "env", "fromdocname", "builder", "typ", "target", "node", "contnode"]:
        return f"StandardDomain._resolve_numref_xref's parameters are now {imzo}"
    manba = inspect.getsource(StandardDomain._resolve_numref_xref)
    if "env.get_doctree(docname)" not in manba:
        return ("StandardDomain._resolve_numref_xref no longer reads the target's page with "
                "env.get_doctree: RaqamliStd's kept doctrees may be unused or no longer needed")
    return None


def _glue_formati() -> str | None:
    from myst_nb.core import variables
    from myst_nb.ext.glue import crossref, roles

    for modul in (crossref, roles):
        if getattr(modul, "format_plain_text", None) is None:
            return f"{modul.__name__} no longer imports format_plain_text, which glue.py replaces"
    return None if callable(getattr(variables, "format_plain_text", None)) else "myst_nb.core.variables.format_plain_text is gone"


def _babel_tili() -> str | None:
    from sphinx.builders.latex.util import ExtBabel

    return None if callable(getattr(ExtBabel, "language_name", None)) else "ExtBabel.language_name is gone"


def _lugat_satri() -> str | None:
    """pdf.py's preamble patches \\parbox[t] to [b] in Sphinx's \\sphinxlineitem (a glossary term)."""
    manba = _fayl("sphinx", "texinputs", "sphinxlatexlists.sty")
    tana = re.search(r"\\newcommand\\sphinxlineitem\[2\]\{(.*?)\n\}%", manba, flags=re.S)
    if not tana:
        return "sphinxlatexlists.sty defines no \\sphinxlineitem[2]"
    return _bir_marta(tana.group(1), "\\parbox[t]", "\\sphinxlineitem")


def _quti_davomi() -> str | None:
    """pdf.py's preamble redefines sphinxnote as Sphinx 7.4 has it, keeping its title for the
    continuation of a split box; it turns off sphinxheavybox's own pieces' frames (border@open)."""
    manba = _fayl("sphinx", "texinputs", "sphinxlatexadmonitions.sty")
    asl = ("\\newenvironment{sphinxnote}[1]\n"
           "  {\\def\\spx@noticetype{note}\\begin{sphinxheavybox}\\sphinxstylenotetitle{#1}}\n"
           "  {\\end{sphinxheavybox}}")
    if asl not in manba:
        return "sphinxlatexadmonitions.sty's sphinxnote is no longer the one pdf.py redefines"
    if "\\csname ifspx@\\spx@noticetype @border@open\\endcsname" not in manba:
        return "sphinxheavybox no longer sets its pieces' frames under ifspx@<type>@border@open"
    return None


def _jadval_davomi() -> str | None:
    """book/_templates/longtable.tex.jinja is Sphinx's, but for its two continuation lines and
    its opening comment: rebuilt from the installed upstream, it must equal the copy."""
    ildiz = Path(__file__).resolve().parents[1]
    nusxa = (ildiz / "book" / "_templates" / "longtable.tex.jinja").read_text(encoding="utf-8")
    asl = _fayl("sphinx", "templates", "latex", "longtable.tex.jinja")
    ozgarishlar = [
        (r"\makebox[0pt]{\sphinxtablecontinued{\tablename\ \thetable{} \textendash{} "
         r"<%= _('continued from previous page') %>}}%",
         r"\makebox[0pt]{\sphinxtablecontinued{(\csname fnum@table\endcsname\kitobningdavomi)}}%"),
        (r"\makebox[0pt][r]{\sphinxtablecontinued{<%= _('continues on next page') %>}}%",
         r"\makebox[0pt][r]{\sphinxtablecontinued{(<%= _('continues on next page') %>)}}%"),
    ]
    for eski, yangi in ozgarishlar:
        if (xato := _bir_marta(asl, eski, "Sphinx's latex/longtable.tex.jinja")):
            return xato
        asl = asl.replace(eski, yangi)
    tana = nusxa.split("-#>\n", 1)[-1]
    return None if tana == asl else ("book/_templates/longtable.tex.jinja differs from Sphinx's "
                                     "longtable.tex.jinja beyond its two continuation lines: copy it again")


def _korsatkich() -> str | None:
    from test_korsatkich import korsatkich_yozuvlari

    try:
        yozuv = korsatkich_yozuvlari(("single", "oʻqish; soʻz", "id", True, None))
    except Exception as xato:          # noqa: BLE001  (whatever Sphinx's visit_index now raises)
        return f"LaTeXTranslator.visit_index, run on an index node, failed: {xato!r}"
    kerak = [r"\index{zbqizd@\kitobharf{Oʻ}\spxentry{oʻqish}!szbza@\spxentry{soʻz}|spxpagem}"]
    return None if yozuv == kerak else f"LaTeXTranslator.visit_index wrote {yozuv}, not {kerak}"


def _yuklama_menyusi() -> str | None:
    from qurilish import yuklamalar as boblar

    manba = _fayl("sphinx_book_theme", "header_buttons", "__init__.py")
    for nom in (boblar.MENYU, boblar.PDF_TUGMA):
        if f'"{nom}"' not in manba:
            return f"sphinx-book-theme's header buttons have no {nom!r}"
    return None


def _sablonlar() -> str | None:
    ildiz = Path(__file__).resolve().parents[1] / "book" / "_templates"
    if not sorted(ildiz.rglob("*.html")):
        return f"no template in {ildiz}"
    mavzular = [Path(importlib.import_module(p).__file__).parent / "theme" / p
                for p in ("sphinx_book_theme", "pydata_sphinx_theme")]
    mavzular.append(Path(importlib.import_module("sphinx").__file__).parent / "themes" / "basic")
    from test_sablonlar import OZ_SAHIFALAR          # the book's own pages override nothing

    for sablon in sorted(ildiz.rglob("*.html")):
        nom = sablon.relative_to(ildiz)
        if nom.as_posix() in OZ_SAHIFALAR:
            continue
        if not any((m / nom).is_file() or (m / "components" / nom).is_file() for m in mavzular):
            return f"no theme has {nom} any more, which book/_templates/{nom} overrides"
    return None


def _rollar() -> str | None:
    manba = _fayl("docutils", "writers", "_html_base.py")
    return (_bir_marta(manba, "'<div role=\"list\" class=\"citation-list\">", "docutils' _html_base.py")
            or _bir_marta(manba, 'role="doc-biblioentry"', "docutils' _html_base.py"))


def _versiya(paket: str) -> str:
    return importlib.metadata.version(paket)


YAMOQLAR = [
    Yamoq("KaTeX server start", "sphinxcontrib-katex", "0.9.11", "katex.py",
          "start_server_process retries the connection until the timeout: the original connects "
          "once when the socket file exists and dies with ConnectionRefusedError on a busy machine",
          _katex_server),
    Yamoq("KaTeX static folder per build", "sphinxcontrib-katex", "0.9.11", "tools/korish.py",
          "the preview's warm application builds again and again; the temporary _static folder "
          "the extension makes once and removes after every build is made again before each",
          _katex_static),
    Yamoq("a page's scripts in a warm application", "sphinx", "7.4.7", "tools/korish.py",
          "before each rebuild of the preview the registry's and the HTML builder's scripts and "
          "stylesheets are set back to the application's first (prepare_writing adds every "
          "registered one, the last build's pages' own too); a page read again is dropped from the "
          "environment's cache of doctrees read from disk (SphinxTestApp.build clears it all)",
          _sahifa_fayllari),
    Yamoq("no thebe", "sphinx-thebe", "0.3.1", "sahifa.py",
          "Jupyter Book always loads sphinx_thebe: its listeners (app.events.listeners) and files "
          "(app.registry) are removed, or every page declares THEBE_JS_URL twice", _thebe),
    Yamoq("deferred scripts", "sphinx", "7.4.7", "sahifa.py",
          "the page's scripts are rebuilt as sphinx.builders.html._assets._JavaScript (private) "
          "with defer and a priority", _javascript),
    Yamoq("tab stops box by box", "pydata-sphinx-theme", "0.17.1", "yakun.py",
          "the theme's minified script measures every scrollable box at load; its loop is "
          "handed to kitob.js", _tab_stops),
    Yamoq("one stylesheet a page", "pydata-sphinx-theme", "0.17.1", "uslub.py",
          "the stylesheets the theme's generated webpack-macros.html links in head_pre_assets are "
          "read from it and joined with the page's (book/_templates/static/webpack-macros.html "
          "links the one file instead)", _uslublar),
    Yamoq("Font Awesome cut", "pydata-sphinx-theme", "0.17.1", "shrift.py",
          "the theme stylesheet's @font-face src is rewritten to the cut WOFF2", _font_awesome),
    Yamoq("Uzbek strings in scripts", "sphinx-copybutton", "0.5.2", "tarjima.py",
          "exact English strings of copybutton.js_t and togglebutton.js are translated in the "
          "site's copies", _js_matnlar),
    Yamoq("Uzbek search wrappers", "sphinx", "7.4.7", "qidiruv.py",
          "Search._parseQuery, htmlToText and makeSearchSummary of searchtools.js are wrapped "
          "(stem-aware summaries and highlighting)", _qidiruv),
    Yamoq("index entries kept by a rebuild", "sphinx", "7.4.7", "qidiruv.py",
          "IndexBuilder.load also restores indexentries from the last searchindex.js and prune drops a "
          "removed page's: a rebuild kept only the written pages' entries, so the glossary's terms "
          "left search after a prose edit", _qidiruv_kirishlari,
          "https://github.com/sphinx-doc/sphinx/issues/12599"),
    Yamoq("hidden-cell markup", "myst-nb", "1.4.0", "tarjima.py",
          "MyST-NB's visit_HideCellInput is replaced: Uzbek aria-label, spans instead of p inside "
          "summary (invalid HTML upstream)", _yashirin_katak),
    Yamoq("execution digest in the kernelspec", "jupyter-cache", "1.0.1", "ijro.py",
          "the chapter_code digest is stamped into the kernelspec, which jupyter-cache hashes",
          _kernelspec),
    Yamoq("numbering per chapter", "sphinx", "7.4.7", "raqamlash.py",
          "env.toc_fignumbers is rewritten after Sphinx assigns numbers (env-get-updated)",
          _raqamlash),
    Yamoq("a numbered reference's page read once", "sphinx", "7.4.7", "raqamlash.py",
          "the standard domain is overridden (app.add_domain) by RaqamliStd, whose "
          "_resolve_numref_xref hands Sphinx's an environment that unpickles each page's doctree once "
          "a build: Sphinx unpickles the target's page for every {numref}", _raqamli_havola,
          "https://github.com/sphinx-doc/sphinx/issues/12611"),
    Yamoq("glued numbers in Uzbek form", "myst-nb", "1.4.0", "glue.py",
          "format_plain_text is replaced in myst_nb.ext.glue.crossref and .roles (no hook)",
          _glue_formati),
    Yamoq("babel's language name", "sphinx", "7.4.7", "pdf.py",
          "ExtBabel.language_name is wrapped: Sphinx knows no 'uz' for babel", _babel_tili),
    Yamoq("Uzbek index keys", "sphinx", "7.4.7", "pdf.py",
          "the LaTeX visitor of index nodes is LaTeXTranslator.visit_index with each key@display it "
          "writes rekeyed (add_node override): makeindex sorts the keys, Sphinx's are the entries' text",
          _korsatkich),
    Yamoq("a glossary term's second line", "sphinx", "7.4.7", "pdf.py",
          "\\sphinxlineitem's \\parbox[t] is patched to [b] (\\patchcmd in the preamble): a term that "
          "wrapped left only \\lineskip before its definition", _lugat_satri),
    Yamoq("a split box's title", "sphinx", "7.4.7", "pdf.py",
          "sphinxnote redefined as Sphinx's, but that a «Chuqurroq» box split over two pages repeats "
          "its title above the rest (\\MidFrameCommand, \\LastFrameCommand of framed.sty)", _quti_davomi),
    Yamoq("table continuation lines", "sphinx", "7.4.7", "book/_templates/longtable.tex.jinja",
          "Sphinx's longtable template with its two continuation lines in the book's words, "
          "\"(1.22-jadvalning davomi)\" and \"(davomi keyingi betda)\" like a code block's, "
          "instead of \" 1.22 – oldingi betdan davomi\"", _jadval_davomi),
    Yamoq("theme templates", "pydata-sphinx-theme", "0.17.1", "book/_templates",
          "templates shadow the themes' own (Uzbek strings, no icon script, search scripts on the "
          "search page only); tests/test_sablonlar.py checks each string they change", _sablonlar),
    Yamoq("download menu", "sphinx-book-theme", "1.3.0", "yuklamalar.py",
          "the header's download menu items are relinked to the book's files", _yuklama_menyusi),
    Yamoq("code lines in spans", "Pygments", "2.21.0", "kod.py",
          "Sphinx's HTML highlighters (PygmentsBridge.formatter, which Sphinx lets a project set) use an "
          "HtmlFormatter whose wrap() puts each line in a span.q with its indent, so a phone wraps a long "
          "line with a hanging indent", _qatorlar),
    Yamoq("ARIA roles of a citation list", "docutils", "0.21.2", "adabiyot.py",
          "role=\"list\" and role=\"doc-biblioentry\" of docutils' citation list are removed from the "
          "references page's body (html-page-context): axe counts both as violations", _rollar),
]


def _yol(y: Yamoq) -> str:
    return y.qayerda if "/" in y.qayerda else f"book/_ext/qurilish/{y.qayerda}"


def tekshir() -> list[str]:
    """What no longer fits, one line a patch."""
    xatolar = []
    for y in YAMOQLAR:
        if xato := y.tekshir():
            xatolar.append(f"{y.nom} ({_yol(y)}, checked with {y.paket} {y.versiya}, "
                           f"installed {_versiya(y.paket)}): {xato}")
    return xatolar


# --- the tests ---------------------------------------------------------------------

@pytest.mark.parametrize("yamoq", YAMOQLAR, ids=lambda y: y.nom)
def test_the_patch_fits_the_installed_package(yamoq):
    assert yamoq.tekshir() is None, f"{yamoq.nom} ({_yol(yamoq)}): {yamoq.tekshir()}"
    o = importlib.metadata.version(yamoq.paket)
    assert o == yamoq.versiya, (f"{yamoq.paket} is {o}, the patch '{yamoq.nom}' in {_yol(yamoq)} "
                                f"was checked with {yamoq.versiya}: check it again and update tests/test_yamoqlar.py")


def test_a_changed_upstream_is_a_clear_error(monkeypatch):
    from qurilish import yakun

    monkeypatch.setattr(yakun, "_TAB_STOPS", re.compile("no such loop"))
    assert "0 times" in _tab_stops()
    monkeypatch.setitem(globals(), "_fayl", lambda *a: "var Search = {};")
    assert "searchtools.js" in _qidiruv()
    assert "longtable.tex.jinja holds" in _jadval_davomi()
    assert "defines no \\sphinxlineitem" in _lugat_satri()
    monkeypatch.setitem(globals(), "_fayl", lambda *a: "\\newcommand\\sphinxlineitem[2]{\\parbox[c]{}\n}%")
    assert "\\parbox[t]' 0 times" in _lugat_satri()
    xatolar = tekshir()
    assert any(x.startswith("tab stops box by box (book/_ext/qurilish/yakun.py, checked with pydata-sphinx-theme")
               for x in xatolar), xatolar


def test_a_theme_that_links_its_stylesheets_otherwise_is_a_clear_error(monkeypatch):
    from qurilish import uslub

    monkeypatch.setattr(uslub, "_MAKRO_USLUB", re.compile("no such link"))
    uslub.mavzu_uslublari.cache_clear()
    try:
        assert "head_pre_assets no longer links its stylesheets" in _uslublar()
    finally:
        monkeypatch.undo()
        uslub.mavzu_uslublari.cache_clear()
    assert _uslublar() is None


def test_a_changed_index_writer_is_a_clear_error(monkeypatch):
    from docutils import nodes
    from sphinx.writers.latex import LaTeXTranslator

    def visit_index(self, node):                 # an upstream that writes no key@display
        self.body.append(r"\index{%s}" % node["entries"][0][1])
        raise nodes.SkipNode

    monkeypatch.setattr(LaTeXTranslator, "visit_index", visit_index)
    assert "is not key@display" in _korsatkich()


def test_a_numbered_reference_that_no_longer_reads_its_page_is_a_clear_error(monkeypatch):
    from sphinx.domains.std import StandardDomain

    def _resolve_numref_xref(self, env, fromdocname, builder, typ, target, node, contnode):
        return env.get_target_node(target)          # an upstream that keeps target nodes itself

    monkeypatch.setattr(StandardDomain, "_resolve_numref_xref", _resolve_numref_xref)
    assert "no longer reads the target's page" in _raqamli_havola()
