"""Build side: a page's stylesheets as one file (``html-page-context``, and a step of ``yakun.py``).

A phone paints nothing until every stylesheet in ``<head>`` has arrived.  The themes and
the extensions link eleven (the theme's ``theme.css`` then ``@import``\\ s Sphinx's
``basic.css``, one more round trip), and a browser asks one host for six at a time: on a
slow connection the rest wait their turn.  Each page here links one file holding the same
stylesheets in the same order, so the cascade is unchanged:

* the theme's own, which its ``head_pre_assets`` macro links (``mavzu_uslublari`` reads
  them from the theme's generated ``webpack-macros.html``; ``book/_templates/static/
  webpack-macros.html`` links the one file in their place);
* then the page's ``css_files`` in Sphinx's order (by priority), as long as each is a local
  plain stylesheet (one with a ``media`` or a ``title``, or on another host, and every
  one after it, keeps its own link).

The file is ``_static/uslub-<key>.css``: the key is made from the files' paths (one file
for every page that loads the same ones), its ``?v=`` from their versions, so a changed
stylesheet is fetched anew.  What it holds can only be read once the build is over
(``shrift.py`` cuts the theme's icon rules and KaTeX's fonts then): each page's list is kept
in the doctree folder (``uslublar/``), and ``yoz`` writes every file its list names at the
end of every build, from the files as the site has them.  Each stylesheet's relative
``url()``\\ s are written from the new file's folder, an ``@import`` is replaced by the file
it names, and ``@charset`` and source-map comments are left out.
"""

from __future__ import annotations

import functools
import hashlib
import json
import posixpath
import re
from pathlib import Path

from sphinx.errors import ExtensionError


#: Where the pages' lists of stylesheets are kept (in the doctree folder, not in the site).
ROYXATLAR = "uslublar"
#: The theme's generated macros, and a stylesheet's line in them.
MAKROLAR = Path("theme") / "pydata_sphinx_theme" / "static" / "webpack-macros.html"
_MAKRO = re.compile(r"\{% macro head_pre_assets\(\) %\}(.*?)\{% endmacro %\}", re.S)
_MAKRO_USLUB = re.compile(r"""<link href="\{\{ pathto\('(_static/[^']+\.css)', 1\) \}\}\?digest=(\w+)" """
                          r"""rel="stylesheet" />""")
#: ``url(x)``, ``url("x")`` or ``url('x')`` (a quoted data: URI may hold parentheses).
_URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)""")
_IMPORT = re.compile(r"""@import\s+(?:url\(\s*)?["']?([^"')\s;]+)["']?\s*\)?\s*;""")
_CHARSET = re.compile(r"""@charset\s+["'](?i:utf-8)["']\s*;""")
_XARITA = re.compile(r"/\*# sourceMappingURL=[^*]*\*/")
#: The one file's name in a page.
_NOMI = re.compile(r"_static/(uslub-[0-9a-f]{10})\.css")


@functools.cache
def mavzu_uslublari() -> tuple[tuple[str, str], ...]:
    """The theme's stylesheets, ``(path in the site, digest)``, in the order its ``head_pre_assets`` links them."""
    import pydata_sphinx_theme

    fayl = Path(pydata_sphinx_theme.__file__).parent / MAKROLAR
    return makro_uslublari(fayl.read_text(encoding="utf-8"), fayl)


def makro_uslublari(matn: str, fayl) -> tuple[tuple[str, str], ...]:
    """The stylesheets a ``webpack-macros.html`` text's ``head_pre_assets`` links; an error for one
    it links in another form (it would stay beside the one file, out of its place in the cascade)."""
    m = _MAKRO.search(matn)
    topildi = tuple(_MAKRO_USLUB.findall(m.group(1))) if m else ()
    if not topildi or m.group(1).count('rel="stylesheet"') != len(topildi):
        raise ExtensionError(f"book/_ext/qurilish/uslub.py: {fayl}'s head_pre_assets no longer links its "
                             f"stylesheets as <link href=\"{{{{ pathto('_static/….css', 1) }}}}?digest=…\" "
                             f"rel=\"stylesheet\" />; compare it with uslub._MAKRO_USLUB and update the pattern")
    return topildi


def _birlashadimi(css) -> bool:
    nom = str(getattr(css, "filename", "") or "")
    qolgan = set(getattr(css, "attributes", {}) or {}) - {"rel", "type"}
    return nom.endswith(".css") and "://" not in nom and not qolgan


def _sahifa(app, pagename, templatename, context, doctree) -> None:
    """html-page-context, after every other handler: the page's stylesheets as one file."""
    from sphinx.builders.html._assets import _file_checksum

    if app.builder.format != "html" or "css_files" not in context:
        return
    tartib = sorted(context["css_files"], key=lambda c: getattr(c, "priority", 500))   # as Sphinx sorts
    n = next((i for i, c in enumerate(tartib) if not _birlashadimi(c)), len(tartib))
    qismlar = list(mavzu_uslublari()) + [(str(c.filename), _file_checksum(Path(app.outdir), c.filename))
                                         for c in tartib[:n]]
    yollar = [y for y, _ in qismlar]
    kalit = hashlib.sha256("\n".join(yollar).encode()).hexdigest()[:10]
    royxat = Path(app.doctreedir) / ROYXATLAR / f"uslub-{kalit}.json"
    matn = json.dumps(yollar, indent=0)
    if not royxat.is_file() or royxat.read_text(encoding="utf-8") != matn:
        royxat.parent.mkdir(parents=True, exist_ok=True)
        vaqtincha = royxat.with_suffix(f".{id(context)}.tmp")   # a parallel writer's name is its own
        vaqtincha.write_text(matn, encoding="utf-8")
        vaqtincha.replace(royxat)
    context["css_files"] = tartib[n:]
    context["kitob_uslub"] = f"_static/{royxat.stem}.css"
    context["kitob_uslub_v"] = hashlib.sha256(repr(qismlar).encode()).hexdigest()[:8]


def url_yangi(url: str, papka: str) -> str:
    """A stylesheet's ``url`` in folder ``papka`` (of ``_static``) as written from ``_static`` itself."""
    if not url or url.startswith(("data:", "#", "/")) or "://" in url:
        return url
    yol, qolgan = re.match(r"([^?#]*)(.*)", url).groups()
    return posixpath.normpath(posixpath.join(papka, yol)) + qolgan


def _url(m: re.Match, papka: str) -> str:
    url = next(g for g in m.groups() if g is not None)
    yangi = url_yangi(url, papka)
    return m.group(0) if yangi == url else f'url("{yangi}")'


def birlashtir(static: Path, yollar: list[str], ichida: tuple[str, ...] = ()) -> str:
    """The stylesheets at ``yollar`` (under ``static``, ``_static/…``) as one, read from ``static``."""
    bolaklar = []
    for yol in yollar:
        nisbiy = posixpath.normpath(yol.removeprefix("_static/"))
        if nisbiy.startswith("../") or nisbiy in ichida:
            raise ExtensionError(f"book/_ext/qurilish/uslub.py: {yol} is outside _static or imports itself")
        fayl = static / nisbiy
        if not fayl.is_file():
            raise ExtensionError(f"book/_ext/qurilish/uslub.py: a page links {yol}, which the site does not have")
        matn = _XARITA.sub("", _CHARSET.sub("", fayl.read_text(encoding="utf-8")))
        papka = posixpath.dirname(nisbiy)
        # an @import's file is put in its place after this file's urls are rewritten, its own by itself
        ichki = []
        matn = _IMPORT.sub(lambda m: ichki.append(url_yangi(m.group(1), papka)) or f"\0{len(ichki) - 1}\0", matn)
        matn = _URL.sub(functools.partial(_url, papka=papka), matn)
        matn = re.sub("\0([0-9]+)\0", lambda m: birlashtir(static, [ichki[int(m.group(1))]], (*ichida, nisbiy)),
                      matn)
        if "@import" in matn or "@charset" in matn:
            raise ExtensionError(f"book/_ext/qurilish/uslub.py: {yol} has an @import or @charset this file "
                                 "cannot join (with a media query, or not UTF-8); link it apart")
        bolaklar.append(f"/* {nisbiy} */\n{matn.strip()}\n")
    return "".join(bolaklar)


def yoz(app) -> None:
    """Every page's one stylesheet, from the stylesheets as the finished site has them (a step of
    ``yakun.py``).  A list no page names any more (an older build's) goes, with its file."""
    papka = Path(app.doctreedir) / ROYXATLAR
    static = Path(app.outdir) / "_static"
    nomlangan = set()
    for sahifa in Path(app.outdir).rglob("*.html"):
        nomlangan |= set(_NOMI.findall(sahifa.read_text(encoding="utf-8")))
    for royxat in sorted(papka.glob("uslub-*.json")):
        fayl = static / f"{royxat.stem}.css"
        if royxat.stem not in nomlangan:
            royxat.unlink()
            fayl.unlink(missing_ok=True)
            continue
        fayl.write_text(birlashtir(static, json.loads(royxat.read_text(encoding="utf-8"))), encoding="utf-8")


def setup(app):
    app.connect("html-page-context", _sahifa, priority=990)     # after every handler that adds a stylesheet
    return {"parallel_read_safe": True, "parallel_write_safe": True}
