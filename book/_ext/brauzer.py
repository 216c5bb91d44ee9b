"""Build side: what the reader's browser loads, and nothing more (a Sphinx extension).

The default Jupyter Book page asks the browser for ≈ 2.7 MB before its
figures, logs errors in the console and scrolls sideways on a phone.  This
extension, with ``book/_static/`` and ``book/_templates/``, trims that to what
a reader uses (``tests/test_brauzer.py`` checks it in a real Chromium):

* **no thebe**: Jupyter Book always loads ``sphinx_thebe`` (live code cells on
  Binder, not used here: ``launch_buttons.thebe: false``); its listeners are
  disconnected, so no page declares ``THEBE_JS_URL`` twice (a console error)
  or loads ``sphinx-thebe.js``/``.css``;
* **one search box**: no second one in an otherwise empty header bar
  (``navbar_persistent``, see ``_sozla``); no Read the Docs ad placeholder
  at the sidebar's foot (``primary_sidebar_end``);
* **a theme mode**: pydata-sphinx-theme logs "invalid theme mode" when the
  template variable ``default_mode`` (``html_context``) is not set; it is
  ``auto`` (follows the reader's system);
* **icons without the 1.5 MB icon script**: ``book/_templates/static/
  webpack-macros.html`` leaves out Font Awesome's ``fontawesome.js`` (it
  replaces icons by SVG); the theme's stylesheet already draws them with the
  Font Awesome web font.  After the build the stylesheet keeps only the icon
  rules the site's pages and scripts use, and each Font Awesome font is cut to
  the glyphs the stylesheets name (WOFF files of a few kB instead of 156 kB);
* **per page**: sphinx-design's stylesheet and script only on pages that use
  its components (``sd-`` classes); none does today;
* **the book's own stylesheet and icon**: ``book/_static/kitob.css`` (at
  phone width long inline code wraps, display maths scroll in their own box)
  and ``book/_static/favicon.svg``, when they exist;
* **an icon at the root**: ``favicon.ico``, which a browser asks for on a
  page that names none (the root redirect page): no 404.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

#: The book's static files (stylesheet, icon), relative to the source folder.
STATIK = Path("book") / "_static"
USLUB = "kitob.css"
BELGI = "favicon.svg"
#: ... and its favicon.ico twin, drawn in the SVG's colour with this font.
BELGI_SHRIFTI = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

#: pydata-sphinx-theme's stylesheet and Font Awesome fonts, in the theme package and in the site.
PST_CSS = Path("styles") / "pydata-sphinx-theme.css"
FA_SHRIFTLAR = Path("vendor") / "fontawesome" / "webfonts"

#: A Font Awesome icon rule: ``.fa-name:before,.fa-alias:before{content:"\\f576"}``.
_IKON_QOIDA = re.compile(r'((?:\.fa-[a-z0-9-]+:(?:before|after),?)+)\{content:"[^"]*"\}')
_IKON_NOMI = re.compile(r"\.fa-([a-z0-9-]+):")
_FA_SOZ = re.compile(r"\bfa-([a-z0-9-]+)")
#: Glyph code points in CSS: escapes (``"\\f576"``) and literal private-use characters.
_KOD_ESCAPE = re.compile(r"\\([0-9a-fA-F]{4,6})")
_PUA = re.compile("[\ue000-\uf8ff]")


def _thebesiz(app) -> None:
    """Disconnect every listener sphinx_thebe registered (it was set up before this extension)."""
    for tinglovchilar in app.events.listeners.values():
        tinglovchilar[:] = [t for t in tinglovchilar
                            if not getattr(t.handler, "__module__", "").startswith("sphinx_thebe")]
    # ... and the stylesheet its setup() registered directly
    reg = app.registry
    reg.css_files = [(f, a) for f, a in reg.css_files if not str(f).startswith("sphinx-thebe")]
    reg.js_files = [(f, a) for f, a in reg.js_files if not str(f or "").startswith("sphinx-thebe")]


def _sozla(app, config) -> None:
    """config-inited: a valid theme mode; the book's stylesheet and icon if the book has them."""
    config.html_context.setdefault("default_mode", "auto")
    # sphinx-book-theme sets no header search ("navbar_persistent ="), but pydata 0.17 only
    # sees options the user gives and adds one: a second search box in an empty top bar
    config.html_theme_options.setdefault("navbar_persistent", [])
    # the sidebar's foot holds Read the Docs' ad placeholder (an empty div off RTD): none
    config.html_theme_options.setdefault("primary_sidebar_end", [])
    statik = Path(app.srcdir) / STATIK
    if (statik / USLUB).is_file():
        config.html_static_path.append(str(statik))
        app.add_css_file(USLUB, priority=900)       # after the themes' stylesheets
    if (statik / BELGI).is_file() and not config.html_favicon:
        config.html_favicon = str(statik / BELGI)


def _sahifa(app, pagename, templatename, context, doctree) -> None:
    """html-page-context: leave out sphinx-design's files on a page without its components."""
    if "sd-" in context.get("body", ""):
        return
    dizayn = ("sphinx-design", "design-tabs", "sphinx_design")
    # new lists: the context's lists are the builder's own, shared by every page
    if "css_files" in context:
        context["css_files"] = [c for c in context["css_files"]
                                if not any(d in str(getattr(c, "filename", c)) for d in dizayn)]
    if "script_files" in context:
        context["script_files"] = [s for s in context["script_files"]
                                   if not any(d in str(getattr(s, "filename", s) or "") for d in dizayn)]


def ishlatilgan_ikonlar(sayt: Path) -> set[str]:
    """Every ``fa-name`` the site's pages and scripts mention."""
    nomlar: set[str] = set()
    for fayl in [*sayt.rglob("*.html"), *sayt.rglob("*.js")]:
        if fayl.name in ("fontawesome.js",):       # the icon script itself names them all
            continue
        nomlar |= set(_FA_SOZ.findall(fayl.read_text(encoding="utf-8", errors="replace")))
    return nomlar


def ikonlarni_qisqartir(css: str, kerak: set[str]) -> str:
    """The stylesheet without the icon rules of icons nobody uses."""
    def qoida(m):
        return m.group(0) if set(_IKON_NOMI.findall(m.group(1))) & kerak else ""
    return _IKON_QOIDA.sub(qoida, css)


def kod_nuqtalari(css: str) -> set[int]:
    """The private-use code points (icon glyphs) a stylesheet names."""
    nuqtalar = {int(h, 16) for h in _KOD_ESCAPE.findall(css)}
    nuqtalar |= {ord(c) for c in _PUA.findall(css)}
    return {n for n in nuqtalar if 0xE000 <= n <= 0xF8FF or n >= 0xF0000}


def _shriftni_kes(asl: Path, maqsad: Path, nuqtalar: set[int], hinting: bool = True,
                  kesh: Path | None = None) -> None:
    """``asl`` cut to the ``nuqtalar`` it has, as WOFF at ``maqsad`` (without hinting if asked).

    With ``kesh`` (a folder outside the site), a cut made before from the same font, code
    points, options and fontTools is copied from there instead of being made again."""
    import hashlib
    import shutil

    import fontTools
    from fontTools import subset

    if kesh is not None:
        kalit = hashlib.sha256(asl.read_bytes() + repr((sorted(nuqtalar), hinting,
                                                        fontTools.version)).encode()).hexdigest()
        nusxa = kesh / f"{kalit}.woff"
        if nusxa.is_file():
            shutil.copyfile(nusxa, maqsad)
            return
    logging.getLogger("fontTools").setLevel(logging.WARNING)    # not a line per table
    sozlama = subset.Options()
    sozlama.flavor = "woff"                 # zlib: no brotli needed
    sozlama.layout_features = ["*"]
    sozlama.hinting = hinting
    shrift = subset.load_font(str(asl), sozlama)
    kesuvchi = subset.Subsetter(sozlama)
    kesuvchi.populate(unicodes=sorted(nuqtalar & set(shrift.getBestCmap())))
    kesuvchi.subset(shrift)
    subset.save_font(shrift, str(maqsad), sozlama)
    if kesh is not None:
        kesh.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(maqsad, nusxa)


def shrift_keshi(app) -> Path:
    """Where cut fonts are kept between builds (outside the site)."""
    return Path(app.doctreedir).parent / "shriftlar"


def _font_awesome(app) -> None:
    """Trim the theme stylesheet's icon rules and the Font Awesome fonts to what the site uses."""
    import pydata_sphinx_theme

    sayt_statik = Path(app.outdir) / "_static"
    mavzu_statik = Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static"
    # always from the package's original: an incremental build may use an icon a previous one cut
    css = ikonlarni_qisqartir((mavzu_statik / PST_CSS).read_text(encoding="utf-8"),
                              ishlatilgan_ikonlar(Path(app.outdir)))
    nuqtalar = kod_nuqtalari(css)
    for f in sorted(sayt_statik.glob("*.css")) + sorted((sayt_statik / "styles").glob("*.css")):
        if f.name != PST_CSS.name:
            nuqtalar |= kod_nuqtalari(f.read_text(encoding="utf-8", errors="replace"))
    for ttf in sorted((mavzu_statik / FA_SHRIFTLAR).glob("*.ttf")):
        kichik = f"{ttf.stem}.kitob.woff"
        _shriftni_kes(ttf, sayt_statik / FA_SHRIFTLAR / kichik, nuqtalar, kesh=shrift_keshi(app))
        # src:url(...x.woff2) format("woff2"),url(...x.ttf) format("truetype") -> the subset only
        css, n = re.subn(rf'url\(([^)]*/){re.escape(ttf.stem)}\.woff2\) format\("woff2"\),'
                         rf'url\([^)]*/{re.escape(ttf.stem)}\.ttf\) format\("truetype"\)',
                         rf'url(\g<1>{kichik}) format("woff")', css)
        if n != 1:
            from sphinx.errors import ExtensionError
            raise ExtensionError(f"book/_ext/brauzer.py: no @font-face for {ttf.name} in "
                                 f"{PST_CSS}; update the pattern for this pydata-sphinx-theme")
    (sayt_statik / PST_CSS).write_text(css, encoding="utf-8")


def belgi_rangi(svg: str) -> str:
    """The fill colour of the icon's background (its first ``fill="#rrggbb"``)."""
    topildi = re.search(r'fill="(#[0-9a-fA-F]{6})"', svg)
    if not topildi:
        from sphinx.errors import ExtensionError
        raise ExtensionError(f"{STATIK / BELGI} has no fill=\"#rrggbb\" colour for favicon.ico")
    return topildi.group(1)


def _favicon_ico(app) -> None:
    """builder-inited: favicon.ico for the site root, drawn like book/_static/favicon.svg.

    A browser asks for /favicon.ico on a page that names no icon: the root
    redirect page (index.html) does not, and without this file that request
    is a 404 in the console.  It reaches the site through html_extra_path."""
    from PIL import Image, ImageDraw, ImageFont

    svg = Path(app.srcdir) / STATIK / BELGI
    if app.builder.format != "html" or not svg.is_file():
        return
    rasm = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    chiz = ImageDraw.Draw(rasm)
    chiz.rounded_rectangle((0, 0, 63, 63), radius=12, fill=belgi_rangi(svg.read_text(encoding="utf-8")))
    try:
        shrift = ImageFont.truetype(BELGI_SHRIFTI, 40)
    except OSError:                      # no DejaVu: Pillow's own font, smaller but still an "A"
        shrift = ImageFont.load_default()
    chiz.text((32, 34), "A", font=shrift, fill="white", anchor="mm")
    papka = Path(app.doctreedir).parent / "brauzer_extra"
    papka.mkdir(parents=True, exist_ok=True)
    rasm.save(papka / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])
    if str(papka) not in app.config.html_extra_path:
        app.config.html_extra_path.append(str(papka))


def _yakun(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    _font_awesome(app)


def setup(app):
    _thebesiz(app)
    app.connect("config-inited", _sozla)
    app.connect("html-page-context", _sahifa)
    app.connect("builder-inited", _favicon_ico)
    app.connect("build-finished", _yakun)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
