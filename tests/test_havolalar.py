"""Every internal link and anchor of the published site resolves; nothing points outside it."""

from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

import pytest
from bs4 import BeautifulSoup


@dataclass
class _Sahifa:
    """What a page links to (tag, address), in order, and the anchors it defines."""

    havolalar: list[tuple[str, str]] = field(default_factory=list)
    idlar: set[str] = field(default_factory=set)


def _oqi(fayl) -> _Sahifa:
    y = _Sahifa()
    for teg in BeautifulSoup(fayl.read_text(encoding="utf-8"), "html.parser").find_all(True):
        for k in ("id", "name"):
            if teg.get(k):
                y.idlar.add(teg[k])
        for k in ("href", "src"):
            if teg.get(k) is not None:
                y.havolalar.append((teg.name, teg[k]))
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
