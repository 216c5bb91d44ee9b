"""Every internal link and anchor of the published site resolves; nothing points outside it."""

import re
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

import pytest


class _Yigich(HTMLParser):
    def __init__(self):
        super().__init__()
        self.havolalar, self.idlar = [], set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k in ("id", "name"):
            if a.get(k):
                self.idlar.add(a[k])
        for k in ("href", "src"):
            if a.get(k) is not None:
                self.havolalar.append((tag, a[k]))


def _oqi(fayl):
    y = _Yigich()
    y.feed(fayl.read_text(encoding="utf-8"))
    return y


def havola_xatolari(sayt):
    """Every href/src of the site's pages that does not resolve inside it."""
    sayt = sayt.resolve()
    # pages, not the themes' Jinja macro files they copy into _static/
    # (webpack-macros.html, sbt-webpack-macros.html: never linked, never shown)
    sahifalar = sorted(p for p in sayt.rglob("*.html") if "_static" not in p.relative_to(sayt).parts)
    idlar = {p: _oqi(p).idlar for p in sahifalar}
    xatolar = []
    for sahifa in sahifalar:
        for teg, havola in _oqi(sahifa).havolalar:
            qism = urlsplit(havola)
            if qism.scheme in ("mailto", "data", "javascript"):
                continue
            if qism.scheme or havola.startswith("//"):
                # the only absolute links allowed are in the page text, never assets
                if teg != "a":
                    xatolar.append(f"{sahifa.name}: external {teg} {havola}")
                continue
            maqsad = (sahifa.parent / unquote(qism.path)).resolve() if qism.path else sahifa
            if maqsad.is_dir():
                maqsad = maqsad / "index.html"
            if not maqsad.exists() or sayt not in maqsad.parents:
                xatolar.append(f"{sahifa.relative_to(sayt)}: {teg} {havola} -> missing")
            elif qism.fragment and maqsad.suffix == ".html":
                ids = idlar.get(maqsad) or _oqi(maqsad).idlar
                if unquote(qism.fragment) not in ids:
                    xatolar.append(f"{sahifa.relative_to(sayt)}: {havola} -> no anchor")
    return sahifalar, xatolar


@pytest.mark.build
def test_every_href_and_src_resolves(qurilgan):
    sahifalar, xatolar = havola_xatolari(qurilgan / "sayt")
    assert len(sahifalar) >= 4
    assert not xatolar, "\n".join(xatolar[:30])


def test_the_checker_finds_broken_links_and_anchors(tmp_path):
    (tmp_path / "a.html").write_text('<p id="bor"><a href="b.html#yoq">x</a><a href="c.html">y</a>'
                                     '<img src="https://cdn.example/x.png"><a href="#bor">z</a></p>')
    (tmp_path / "b.html").write_text('<p id="boshqa"></p>')
    _, xatolar = havola_xatolari(tmp_path)
    assert xatolar == ["a.html: b.html#yoq -> no anchor", "a.html: a c.html -> missing",
                       "a.html: external img https://cdn.example/x.png"]
