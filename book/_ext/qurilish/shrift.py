"""Build side: the site's fonts cut to the glyphs its pages show (steps of ``yakun.py``).

Font Awesome (the theme's icons; its 1.5 MB icon script is left out by
``book/_templates/static/webpack-macros.html``) keeps only the icon rules the site names,
each font cut to their glyphs; KaTeX's fonts are cut to the characters of the rendered
formulas: a WOFF2 file of a few kB instead of 156 kB (``shriftni_kes``), named alone by its
``@font-face``.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

from sphinx.errors import ExtensionError

#: pydata-sphinx-theme's stylesheet and Font Awesome fonts, in the theme package and in the site.
PST_CSS = Path("styles") / "pydata-sphinx-theme.css"
FA_SHRIFTLAR = Path("vendor") / "fontawesome" / "webfonts"
#: KaTeX's stylesheet and fonts in the site (``katex.py`` copies them there).
KATEX = Path("_static") / "katex"
#: The name of a cut font beside its original: ``<font>.kitob.woff2``.
KESILGAN = ".kitob.woff2"

#: A Font Awesome icon rule: ``.fa-name:before,.fa-alias:before{content:"\\f576"}``.
_IKON_QOIDA = re.compile(r'((?:\.fa-[a-z0-9-]+:(?:before|after),?)+)\{content:"[^"]*"\}')
_IKON_NOMI = re.compile(r"\.fa-([a-z0-9-]+):")
_FA_SOZ = re.compile(r"\bfa-([a-z0-9-]+)")
#: Glyph code points in CSS: escapes (``"\\f576"``) and literal private-use characters.
_KOD_ESCAPE = re.compile(r"\\([0-9a-fA-F]{4,6})")
_PUA = re.compile("[\ue000-\uf8ff]")


def ishlatilgan_ikonlar(sayt: Path) -> set[str]:
    """Every ``fa-name`` the site's pages and scripts mention."""
    fayllar = [f for f in [*sayt.rglob("*.html"), *sayt.rglob("*.js")]
               if f.name != "fontawesome.js"]         # the icon script itself names them all
    return {n for f in fayllar for n in _FA_SOZ.findall(f.read_text(encoding="utf-8", errors="replace"))}


def ikonlarni_qisqartir(css: str, kerak: set[str]) -> str:
    """The stylesheet without the icon rules of icons nobody uses."""
    def qoida(m):
        return m.group(0) if set(_IKON_NOMI.findall(m.group(1))) & kerak else ""
    return _IKON_QOIDA.sub(qoida, css)


def kod_nuqtalari(css: str) -> set[int]:
    """The private-use code points (icon glyphs) a stylesheet names."""
    nuqtalar = {int(h, 16) for h in _KOD_ESCAPE.findall(css)} | {ord(c) for c in _PUA.findall(css)}
    return {n for n in nuqtalar if 0xE000 <= n <= 0xF8FF or n >= 0xF0000}


def shriftni_kes(asl: Path, maqsad: Path, nuqtalar: set[int], hinting: bool = True,
                  kesh: Path | None = None) -> None:
    """``asl`` cut to the ``nuqtalar`` it has, as WOFF2 at ``maqsad`` (without hinting if asked).

    With ``kesh`` (a folder outside the site), a cut made before from the same font, code
    points, options and fontTools is copied from there instead of being made again."""
    import fontTools
    from fontTools import subset

    if kesh is not None:
        kalit = hashlib.sha256(asl.read_bytes() + repr((sorted(nuqtalar), hinting,
                                                        fontTools.version)).encode()).hexdigest()
        nusxa = kesh / f"{kalit}.woff2"
        if nusxa.is_file():
            shutil.copyfile(nusxa, maqsad)
            return
    logging.getLogger("fontTools").setLevel(logging.WARNING)    # not a line per table
    sozlama = subset.Options()
    sozlama.flavor = "woff2"                # brotli
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


def font_awesome(app) -> None:
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
        kichik = f"{ttf.stem}{KESILGAN}"
        shriftni_kes(ttf, sayt_statik / FA_SHRIFTLAR / kichik, nuqtalar, kesh=shrift_keshi(app))
        # src:url(...x.woff2) format("woff2"),url(...x.ttf) format("truetype") -> the subset only
        css, n = re.subn(rf'url\(([^)]*/){re.escape(ttf.stem)}\.woff2\) format\("woff2"\),'
                         rf'url\([^)]*/{re.escape(ttf.stem)}\.ttf\) format\("truetype"\)',
                         rf'url(\g<1>{kichik}) format("woff2")', css)
        if n != 1:
            raise ExtensionError(f"book/_ext/qurilish/shrift.py: no @font-face for {ttf.name} in "
                                 f"{PST_CSS}; update the pattern for this pydata-sphinx-theme")
    (sayt_statik / PST_CSS).write_text(css, encoding="utf-8")


_FONT_FACE = re.compile(r"@font-face\s*\{([^}]*)\}")


def font_display(css: str) -> str:
    """``font-display:swap`` in every ``@font-face`` that sets none."""
    return _FONT_FACE.sub(lambda m: m.group(0) if "font-display" in m.group(1)
                          else "@font-face{" + m.group(1).rstrip(";") + ";font-display:swap}", css)


class _FormulaMatni(HTMLParser):
    """The text inside a page's ``span.katex-html`` boxes (what KaTeX's fonts draw), collected as
    the standard library's parser streams the page: a tree of every element (BeautifulSoup) took
    0,72 s for the chapter's pages, this 0,14 s."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chuqurlik, self.belgilar = 0, set()       # spans open inside a katex-html box

    def handle_starttag(self, teg, atributlar) -> None:
        if teg != "span":
            return
        if self.chuqurlik:
            self.chuqurlik += 1
        elif "katex-html" in (dict(atributlar).get("class") or "").split():
            self.chuqurlik = 1

    def handle_endtag(self, teg) -> None:
        if teg == "span" and self.chuqurlik:
            self.chuqurlik -= 1

    def handle_data(self, matn) -> None:
        if self.chuqurlik:
            self.belgilar.update(map(ord, matn))


@functools.lru_cache(maxsize=64)
def _formula_belgilari(matn: str) -> frozenset[int]:
    """The characters one page's rendered formulas show (kept: a warm application, the author's
    preview, parses again only the pages it wrote)."""
    if "katex-html" not in matn:
        return frozenset()
    oquvchi = _FormulaMatni()
    oquvchi.feed(matn)
    oquvchi.close()
    return frozenset(oquvchi.belgilar)


def katex_belgilari(sahifalar: list[str], css: str) -> set[int]:
    """Every character the pages' rendered formulas show (the text of each ``katex-html`` span),
    and those KaTeX's stylesheet writes itself."""
    belgilar = set().union(*map(_formula_belgilari, sahifalar))
    for m in re.finditer(r'content:\s*"((?:[^"\\]|\\.)*)"', css):
        s = re.sub(r"\\([0-9a-fA-F]{1,6})\s?", lambda h: chr(int(h.group(1), 16)), m.group(1))
        belgilar |= {ord(c) for c in s}
    return belgilar - {ord(c) for c in "\n\r\t"}


def katex(app) -> None:
    """KaTeX's fonts cut to what the site's formulas use; its @font-face names them only."""
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
        kichik = f"{nom.group(1)}{KESILGAN}"
        shriftni_kes(papka / f"{nom.group(1)}.ttf", papka / kichik, kerak, hinting=False,
                      kesh=shrift_keshi(app))
        blok = re.sub(r"src:[^;}]*", f'src:url(fonts/{kichik}) format("woff2")', blok, count=1)
        return "@font-face{" + blok + "}"
    css_yol.write_text(font_display(_FONT_FACE.sub(yuz, css)), encoding="utf-8")


def korinishi(app) -> None:
    """``font-display: swap`` in the theme's stylesheet (Font Awesome's ``@font-face``): its
    text shows at once in a fallback font, before the icon font arrives."""
    for f in (Path(app.outdir) / "_static").rglob("*.css"):
        matn = f.read_text(encoding="utf-8")
        if "@font-face" in matn and f.parent.name != "katex":
            yangi = font_display(matn)
            if yangi != matn:
                f.write_text(yangi, encoding="utf-8")
