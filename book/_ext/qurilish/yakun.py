"""Build side: what runs after Sphinx has written the site, in one place and one order (a Sphinx extension).

What Sphinx can write, it writes (``sahifa.py``, ``kod.py``); what can only be made from
the finished site runs here, after every other ``build-finished`` handler, as the steps
of ``QADAMLAR`` in order.  Each step says what it changes and why; one that meets an
upstream file it does not expect stops the build (``ExtensionError``).
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from sphinx.errors import ExtensionError

from . import shrift, uslub, yuklamalar

# --- what the steps are made of ---------------------------------------------------

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
        raise ExtensionError(f"book/_ext/qurilish/yakun.py: {PYDATA_JS} does not measure its scrollable boxes as "
                             f"expected (found {n} times); compare it with kitob.js and update the pattern")
    return yangi


def siq(sayt: Path, turlar: set[str]) -> tuple[int, int]:
    """Write the gzip twin of every text file under ``sayt``; remove orphaned twins.

    Every twin is made anew (the whole site's text takes about 0.6 s at level 9), so it is
    never older than its file, which a host checks.  Returns (bytes before, bytes after)
    over the files compressed."""
    oldin = keyin = 0
    for egizak in sayt.rglob("*.gz"):
        if not egizak.with_suffix("").is_file():
            egizak.unlink()
    for fayl in sorted(sayt.rglob("*")):
        if fayl.suffix.lower() not in turlar or not fayl.is_file():
            continue
        baytlar = fayl.read_bytes()
        siqilgan = gzip.compress(baytlar, compresslevel=9, mtime=0)
        egizak = fayl.with_name(fayl.name + ".gz")
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


# --- the steps ------------------------------------------------------------------------

def _webp(app) -> None:
    """A lossless WebP twin of every PNG figure in ``_images/`` (``sahifa.py`` offers it first)."""
    webp_yoz(Path(app.outdir) / "_images")           # no figures, no folder: nothing to do


def _tab_stops(app) -> None:
    """pydata-sphinx-theme's script hands its measuring of every scrollable box at load (which
    lays a long page out at once) to ``kitob.js``, which keeps its rule box by box."""
    js = Path(app.outdir) / PYDATA_JS
    if not js.is_file() or not (Path(app.outdir) / "_static" / "kitob.js").is_file():
        return
    matn = js.read_text(encoding="utf-8")
    if "window.kitobTabStops||" not in matn:     # a build that wrote nothing left last build's as it was
        js.write_text(tab_stops_kitobga(matn), encoding="utf-8")


def _gzip(app) -> None:
    """A gzip twin of every text file (``x.css.gz``, level 9, no timestamp: the same file gives the
    same bytes), which a host that serves twins (nginx ``gzip_static``, ``tools/xizmat.py``) sends
    as it is; a twin whose file is gone is removed.  Last: every file is final."""
    siq(Path(app.outdir), set(app.config.kitob_gzip_turlari))


#: The order, written once.  Each step's docstring says what it changes: the old downloads removed first,
#: the twins, the cut fonts and the pages' one stylesheet (``uslub``) from the finished files, gzip last.
QADAMLAR = [yuklamalar.fayllar, _webp, shrift.katex, shrift.font_awesome, shrift.korinishi, uslub.yoz,
            _tab_stops, _gzip]


def _yakun(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    for qadam in QADAMLAR:
        qadam(app)


def setup(app):
    app.connect("build-finished", _yakun, priority=990)     # after every other extension's
    return {"parallel_read_safe": True, "parallel_write_safe": True}
