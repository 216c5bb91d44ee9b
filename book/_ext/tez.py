"""Build side: fast on a phone over a slow network (a Sphinx extension).

Many readers open the chapter on a phone over a mobile network;
``tests/test_mayoq.py`` (Lighthouse's accessibility, best practices, SEO and
the bytes of the first view) and ``make bench`` (its performance score) measure
it.  What this extension does, each from the built site itself:

* **a description per page**: ``<meta name="description">`` from the page's
  own first paragraph (whole sentences, up to ``TAVSIF_UZUNLIGI`` characters);
  a page without one (search, index) takes its title and the front page's; the
  root redirect page (``book/_ext/boblar.py``) takes the front page's;
* **the interface's translations first**: Sphinx's ``translations.js`` runs right
  after ``doctools.js`` (Sphinx lists it last, after the scripts that use it);
* **scripts that do not hold up the page**: the scripts Sphinx and the
  extensions put in ``<head>`` load with ``defer`` (in the same order, run
  before ``DOMContentLoaded``, when every one of them starts its work), except
  on the search page, whose search scripts run as the page is read and need
  them first;
  the three search scripts pydata-sphinx-theme loads on every page for a
  search-as-you-type it does not switch on stay on the search page
  (``book/_templates/layout.html``);
* **figures loaded when the reader gets to them**: ``loading="lazy"``,
  ``decoding="async"`` and the picture's ``width``/``height`` (its box is
  reserved before it arrives: nothing jumps);
* **figures as WebP**: every PNG figure gets a lossless WebP twin (the same
  pixels, full sharpness, about a third of the bytes), offered first in a
  ``<picture>``; the PNG stays for a browser without WebP (and the PDF);
* **tab stops without laying the page out**: pydata-sphinx-theme measures
  every code and output box at load (tabindex 0 if it scrolls, -1 if not),
  which lays a long page out at once; its script is pointed at
  ``book/_static/kitob.js``, which keeps the rule but measures a box when it
  comes near the screen, the rest after the reader's first action (at once on
  a first Tab).  Until then every such box has ``tabindex="0"`` from the build:
  a keyboard reaches every box that may scroll;
* **maths fonts cut to the glyphs the pages use**: KaTeX's fonts, like Font
  Awesome's in ``brauzer.py``, become small WOFF files holding the characters
  the rendered formulas (and KaTeX's stylesheet) contain; every ``@font-face``
  gets ``font-display: swap`` (text shows at once in a fallback font);
* **compressed ahead of time**: every text file (HTML, CSS, JavaScript, SVG,
  JSON ...) gets a gzip twin beside it (``x.css.gz``, level 9, no timestamp
  inside, so the same file gives the same bytes).  A host that serves such
  twins (nginx ``gzip_static on``, ``tests/xizmat.py``) sends them as they
  are; one that compresses by itself ignores them.  A twin whose file is gone
  is removed.
"""

from __future__ import annotations

import gzip
import html
import os
import re
from pathlib import Path

from docutils import nodes

#: At most this many characters of whole sentences go into a page's description.
TAVSIF_UZUNLIGI = 250
#: What a host compresses: text.  Images, fonts (WOFF/WOFF2), PDF and archives are compressed already.
MATN_TURLARI = {".html", ".css", ".js", ".mjs", ".svg", ".json", ".txt", ".xml", ".map", ".inv", ".ico"}
#: The book's script (book/_static/kitob.js): tab stops measured box by box.
SKRIPT = "kitob.js"
#: KaTeX's stylesheet and fonts in the site (``book/_ext/sayt.py`` copies them there).
KATEX = Path("_static") / "katex"

_GAP_OXIRI = re.compile(r"(?<=[.!?…])\s+(?=[A-ZʻʼА-ЯЎҚҒҲ\"«(0-9])")
_IMG = re.compile(r"<img\b[^>]*>")
_ATR = re.compile(r'([\w-]+)="([^"]*)"')


# --- descriptions ------------------------------------------------------------------

def _birinchi_xatboshi(doctree) -> str | None:
    """The text of the document's first paragraph of prose (not in a figure, table, list or note)."""
    ichida_emas = (nodes.figure, nodes.table, nodes.list_item, nodes.Admonition, nodes.footnote,
                   nodes.citation, nodes.field_list, nodes.line_block, nodes.caption)
    for p in doctree.findall(nodes.paragraph):
        ota = p.parent
        yaroqli = True
        while ota is not None:
            if isinstance(ota, ichida_emas):
                yaroqli = False
                break
            ota = ota.parent
        if not yaroqli or next(iter(p.findall(nodes.math)), None) is not None:
            continue
        matn = " ".join(p.astext().split())
        if len(matn) >= 40:
            return matn
    return None


def qisqartir(matn: str, uzunlik: int = TAVSIF_UZUNLIGI) -> str:
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
    """A page's description: its first paragraph; else its title and the front page's."""
    if doctree is not None:
        matn = _birinchi_xatboshi(doctree)
        if matn:
            return qisqartir(matn)
    bosh = _birinchi_xatboshi(app.env.get_doctree(app.config.root_doc))
    if not bosh:
        return qisqartir(sarlavha or app.config.project)
    return qisqartir(f"{sarlavha}. {bosh}" if sarlavha else bosh)


def _meta(matn: str) -> str:
    return f'<meta name="description" content="{html.escape(matn, quote=True)}" />\n'


# --- page context: description, deferred scripts, lazy figures ------------------------

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
    if not qoshimcha:
        return teg
    oxir = " />" if teg.endswith("/>") else ">"
    return teg[: -len(oxir)].rstrip() + " " + " ".join(qoshimcha) + oxir


def rasmlarni_dangasa(body: str, olcham) -> str:
    """Every ``<img>``: ``loading="lazy" decoding="async"`` and its size (``olcham(src)``) when known."""
    def bitta(m):
        teg = m.group(0)
        a = dict(_ATR.findall(teg))
        qoshimcha = []
        if "loading" not in a:
            qoshimcha.append('loading="lazy"')
        if "decoding" not in a:
            qoshimcha.append('decoding="async"')
        if "width" not in a and "height" not in a and "style" not in a:
            wh = olcham(a.get("src", ""))
            if wh:
                qoshimcha.append(f'width="{wh[0]}" height="{wh[1]}"')
        return _atribut_qosh(teg, qoshimcha)
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
    """The page's scripts with Sphinx's translations (translations.js) straight after
    doctools.js, whose catalogue they fill, and with its priority (Sphinx sorts the
    scripts by priority after html-page-context; the sort keeps this order).  Sphinx adds
    them last; deferred scripts run in order once the page is read, and
    sphinx_highlight.js writes its "Hide Search Matches" link as soon as it runs: before
    the translations it was English."""
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


def _sahifa(app, pagename, templatename, context, doctree) -> None:
    """html-page-context: the page's description, its head scripts deferred, its figures lazy."""
    from sphinx.builders.html._assets import _JavaScript

    from sphinx.locale import _

    # Sphinx's own pages have no title in their context: the name their template shows
    sarlavha = re.sub(r"<[^>]+>", "", context.get("title") or "") or {
        "search": _("Search"), "genindex": _("Index")}.get(pagename, "")
    context["metatags"] = context.get("metatags", "") + _meta(tavsif(app, pagename, doctree, html.unescape(sarlavha)))
    # the search page runs Sphinx's search scripts as it is read (its template puts them
    # after the head's): they need documentation_options.js and the rest already run
    if "script_files" in context:
        context["script_files"] = tarjimalar_oldin(context["script_files"])
    if "script_files" in context and pagename != "search":
        yangi = []
        for js in context["script_files"]:
            a = dict(getattr(js, "attributes", {}) or {})
            if getattr(js, "filename", None) and not ({"async", "defer"} & set(a)) and a.get("type") != "module":
                js = _JavaScript(js.filename, priority=js.priority, **{**a, "defer": "defer"})
            yangi.append(js)
        context["script_files"] = yangi         # a new list: the builder's own is shared by every page
    if context.get("body"):
        manbalar = {chiqish: Path(app.srcdir) / manba for manba, chiqish in app.builder.images.items()}
        body = rasmlarni_dangasa(context["body"], lambda src: _rasm_olchami(manbalar, src))
        pnglar = {Path(n).stem for n in manbalar if n.lower().endswith(".png")}
        context["body"] = tab_toxtash(webp_bilan(body, lambda nom: nom in pnglar))


# --- after the build: the root page's description, KaTeX fonts, gzip twins ------------------

def _ildiz_tavsifi(app) -> None:
    """The root redirect page (boblar.py) gets the front page's description."""
    ildiz = Path(app.outdir) / "index.html"
    if not ildiz.is_file():
        return
    matn = ildiz.read_text(encoding="utf-8")
    if 'name="description"' in matn:
        return
    meta = _meta(tavsif(app, app.config.root_doc, app.env.get_doctree(app.config.root_doc)))
    ildiz.write_text(matn.replace("<title>", meta + "<title>", 1), encoding="utf-8")


_FONT_FACE = re.compile(r"@font-face\s*\{([^}]*)\}")


def font_display(css: str) -> str:
    """``font-display:swap`` in every ``@font-face`` that sets none."""
    return _FONT_FACE.sub(lambda m: m.group(0) if "font-display" in m.group(1)
                          else "@font-face{" + m.group(1).rstrip(";") + ";font-display:swap}", css)


_KATEX_HTML = re.compile(r'<span class="katex-html"[^>]*>')
_TEG_YOKI_MATN = re.compile(r"<(/?)([a-zA-Z][\w-]*)[^>]*?(/?)>|([^<]+)")
_BOSH_TEGLAR = {"br", "img", "hr", "wbr", "input", "area", "col", "embed", "source", "track"}


def katex_belgilari(sahifalar: list[str], css: str) -> set[int]:
    """Every character the pages' rendered formulas show, and those KaTeX's stylesheet writes itself.

    The text of each ``<span class="katex-html">`` (as KaTeX writes it: elements and
    text, no comments), read tag by tag to its closing tag."""
    belgilar: set[int] = set()
    for matn in sahifalar:
        for bosh in _KATEX_HTML.finditer(matn):
            chuqurlik = 1
            for t in _TEG_YOKI_MATN.finditer(matn, bosh.end()):
                if t.group(4) is not None:
                    belgilar |= {ord(c) for c in html.unescape(t.group(4))}
                elif t.group(1):
                    chuqurlik -= 1
                    if chuqurlik == 0:
                        break
                elif not t.group(3) and t.group(2).lower() not in _BOSH_TEGLAR:
                    chuqurlik += 1
    for m in re.finditer(r'content:\s*"((?:[^"\\]|\\.)*)"', css):
        s = re.sub(r"\\([0-9a-fA-F]{1,6})\s?", lambda h: chr(int(h.group(1), 16)), m.group(1))
        belgilar |= {ord(c) for c in s}
    return belgilar - {ord(c) for c in "\n\r\t"}


def _katex_shriftlari(app) -> None:
    """KaTeX's fonts cut to what the site's formulas use; its @font-face names them only."""
    import logging

    from brauzer import _shriftni_kes, shrift_keshi

    # KaTeX's fonts carry a zero timestamp: fontTools warns about it on every font
    logging.getLogger("fontTools.ttLib.tables._h_e_a_d").setLevel(logging.ERROR)
    sayt = Path(app.outdir)
    css_yol = sayt / KATEX / "katex.min.css"
    if not css_yol.is_file():
        return
    css = css_yol.read_text(encoding="utf-8")
    sahifalar = [p.read_text(encoding="utf-8") for p in sayt.rglob("*.html")
                 if p.relative_to(sayt).parts[0] != "_static"]
    kerak = katex_belgilari(sahifalar, css) | {ord(" ")}
    papka = sayt / KATEX / "fonts"

    def yuz(m):
        blok = m.group(1)
        nom = re.search(r"url\(fonts/(KaTeX_[\w-]+)\.woff2\)", blok)
        if not nom or not (papka / f"{nom.group(1)}.ttf").is_file():
            return m.group(0)
        kichik = f"{nom.group(1)}.kitob.woff"
        _shriftni_kes(papka / f"{nom.group(1)}.ttf", papka / kichik, kerak, hinting=False,
                      kesh=shrift_keshi(app))
        blok = re.sub(r"src:[^;}]*", f'src:url(fonts/{kichik}) format("woff")', blok, count=1)
        return "@font-face{" + blok + "}"
    css_yol.write_text(font_display(_FONT_FACE.sub(yuz, css)), encoding="utf-8")


def _shrift_korinishi(app) -> None:
    """font-display: swap in the theme's stylesheet (Font Awesome's @font-face)."""
    for f in (Path(app.outdir) / "_static").rglob("*.css"):
        matn = f.read_text(encoding="utf-8")
        if "@font-face" in matn and f.parent.name != "katex":
            yangi = font_display(matn)
            if yangi != matn:
                f.write_text(yangi, encoding="utf-8")


#: pydata-sphinx-theme's measuring of every scrollable box at once (its minified bundle, 0.17).
_TAB_STOPS = re.compile(r'(document\.querySelectorAll\(\[[^\]]*\]\.join\(", "\)\))'
                        r'\.forEach\((\w)=>\{\2\.tabIndex=\2\.scrollWidth>\2\.clientWidth\|\|'
                        r'\2\.scrollHeight>\2\.clientHeight\?0:-1\}\)')
PYDATA_JS = Path("_static") / "scripts" / "pydata-sphinx-theme.js"


def tab_stops_kitobga(js: str) -> str:
    """The theme's script with its tab-stop measuring handed to kitob.js (which keeps its rule)."""
    yangi, n = _TAB_STOPS.subn(lambda m: f"(window.kitobTabStops||(l=>l.forEach({m.group(2)}=>{{"
                               f"{m.group(2)}.tabIndex={m.group(2)}.scrollWidth>{m.group(2)}.clientWidth||"
                               f"{m.group(2)}.scrollHeight>{m.group(2)}.clientHeight?0:-1}})))({m.group(1)})", js)
    if n != 1:
        from sphinx.errors import ExtensionError
        raise ExtensionError(f"book/_ext/tez.py: {PYDATA_JS} does not measure its scrollable boxes as "
                             f"expected (found {n} times); compare it with kitob.js and update the pattern")
    return yangi


def _pydata_js(app) -> None:
    js = Path(app.outdir) / PYDATA_JS
    if not js.is_file() or not (Path(app.outdir) / "_static" / SKRIPT).is_file():
        return
    matn = js.read_text(encoding="utf-8")
    if "window.kitobTabStops||" not in matn:     # a build that wrote nothing left last build's as it was
        js.write_text(tab_stops_kitobga(matn), encoding="utf-8")


def siq(sayt: Path) -> tuple[int, int]:
    """Write the gzip twin of every text file under ``sayt``; remove orphaned twins.

    A twin that still holds its file's bytes is kept (compressing is the slow part)
    and touched, so it is never older than its file.

    Returns (bytes before, bytes after) over the files compressed."""
    oldin = keyin = 0
    for egizak in sayt.rglob("*.gz"):
        if not egizak.with_suffix("").is_file():
            egizak.unlink()
    for fayl in sorted(sayt.rglob("*")):
        if fayl.suffix.lower() not in MATN_TURLARI or not fayl.is_file():
            continue
        baytlar = fayl.read_bytes()
        egizak = fayl.with_name(fayl.name + ".gz")
        if egizak.is_file() and egizak.stat().st_size < len(baytlar):
            eski = egizak.read_bytes()
            try:
                bir_xil = gzip.decompress(eski) == baytlar
            except (OSError, EOFError):
                bir_xil = False
            if bir_xil:                             # last build's twin still fits: not made again
                os.utime(egizak)                    # ... but not older than its file (a host checks)
                oldin += len(baytlar)
                keyin += len(eski)
                continue
        siqilgan = gzip.compress(baytlar, compresslevel=9, mtime=0)
        if len(siqilgan) >= len(baytlar):           # nothing gained: the host sends the file
            egizak.unlink(missing_ok=True)
            continue
        egizak.write_bytes(siqilgan)
        oldin += len(baytlar)
        keyin += len(siqilgan)
    return oldin, keyin


def webp_yoz(papka: Path) -> int:
    """A lossless WebP twin of every PNG in ``papka`` (same pixels, a third of the bytes or less)."""
    from PIL import Image

    yozildi = 0
    for png in sorted(papka.glob("*.png")):
        webp = png.with_suffix(".webp")
        if webp.is_file() and webp.stat().st_mtime >= png.stat().st_mtime:
            continue
        with Image.open(png) as rasm:
            rasm.save(webp, "WEBP", lossless=True, method=4)
        yozildi += 1
    for webp in papka.glob("*.webp"):
        if not webp.with_suffix(".png").is_file():
            webp.unlink()
    return yozildi


def _oldin(app, exception) -> None:
    """build-finished, before yengil (900) cuts the stylesheets and keeps their originals."""
    if exception is not None or app.builder.format != "html":
        return
    _ildiz_tavsifi(app)
    if (Path(app.outdir) / "_images").is_dir():
        webp_yoz(Path(app.outdir) / "_images")
    _katex_shriftlari(app)
    _shrift_korinishi(app)
    _pydata_js(app)


def _oxirida(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    siq(Path(app.outdir))


def _sozla(app, config) -> None:
    """config-inited: the book's script, deferred, when the book has one."""
    statik = Path(app.srcdir) / "book" / "_static"
    if (statik / SKRIPT).is_file():
        if str(statik) not in config.html_static_path:
            config.html_static_path.append(str(statik))
        app.add_js_file(SKRIPT, loading_method="defer")


def setup(app):
    app.connect("config-inited", _sozla)
    app.connect("html-page-context", _sahifa, priority=800)
    app.connect("build-finished", _oldin, priority=800)      # after brauzer's Font Awesome cut (500)
    app.connect("build-finished", _oxirida, priority=990)    # last: every file is final
    return {"parallel_read_safe": True, "parallel_write_safe": True}
