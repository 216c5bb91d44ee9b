"""A table from show() becomes a real table in Sphinx: HTML for the web, booktabs LaTeX for print.

A plain Sphinx project (no book extensions), so the table is numbered "1-jadval"
as Sphinx numbers it; the book's per-chapter "1.1-jadval" is test_build.py's.
The page is built in this process by ``sphinx.testing`` (as pydata-sphinx-theme's
tests build their sites), with the html and the latex builders; any warning fails it.
"""

import pandas as pd
import pytest
from bs4 import BeautifulSoup
from sphinx.testing.util import SphinxTestApp

from chapter_code.kitob import jadval_bundle

DF = pd.DataFrame({"model": ["RNN", "<script>x</script>"], "aniqlik": [0.5, 0.99]})


@pytest.fixture(scope="module")
def jadval_sayti(tmp_path_factory):
    """Build one page holding the table with the html and the latex builders."""
    manba = tmp_path_factory.mktemp("manba")
    (manba / "conf.py").write_text(
        "extensions = ['myst_parser']\nnumfig = True\n"
        "numfig_format = {'table': '%s-jadval'}\nlatex_engine = 'xelatex'\n"
    )
    md = jadval_bundle(DF, izoh="Aniqlik jadvali.", nom="aniq")["text/markdown"]
    (manba / "index.md").write_text("# Sahifa\n\n" + md + "\n\n{numref}`aniq` ga qarang.\n")
    natija = {}
    for builder in ("html", "latex"):
        app = SphinxTestApp(builder, srcdir=manba, builddir=tmp_path_factory.mktemp(builder))
        try:
            app.build()
            assert not app.warning.getvalue(), f"Sphinx ({builder}) warned:\n{app.warning.getvalue()}"
        finally:
            app.cleanup()
        natija[builder] = app.outdir
    return natija


def test_html_has_a_numbered_captioned_table(jadval_sayti):
    html = (jadval_sayti["html"] / "index.html").read_text(encoding="utf-8")
    sahifa = BeautifulSoup(html, "html.parser")
    jadval = sahifa.find("table", id="aniq")
    assert jadval is not None and {"docutils", "align-center"} <= set(jadval["class"])
    izoh = jadval.find("caption")
    assert izoh.find("span", class_="caption-number").get_text() == "1-jadval "
    assert izoh.find("span", class_="caption-text").get_text() == "Aniqlik jadvali."
    # the cell's text is the escaped string, not markup
    assert "<script>x</script>" in [td.get_text() for td in jadval.find_all("td")]
    assert "&lt;script&gt;x&lt;/script&gt;" in html and "<script>x" not in html
    ustunlar = jadval.select("thead th.head")
    assert [th.get_text() for th in ustunlar] == ["model", "aniqlik"]
    assert "text-right" in ustunlar[1]["class"]                     # numbers right-aligned
    # the {numref} links to the table and says its number
    havola = sahifa.select_one('a.reference.internal[href="#aniq"]')
    assert havola is not None and havola.get_text() == "1-jadval"
    assert havola.next_sibling.startswith(" ga qarang")


def test_latex_is_a_booktabs_table_with_caption(jadval_sayti):
    tex = next(jadval_sayti["latex"].glob("*.tex")).read_text()
    assert r"\sphinxtoprule" in tex and r"\sphinxbottomrule" in tex
    assert r"\sphinxcaption{Aniqlik jadvali.}" in tex
    assert r"\label{\detokenize{index:aniq}}" in tex
    # the cell is plain text in the table body (xelatex prints < and > as they are)
    tana = tex[tex.index(r"\sphinxmidrule"):tex.index(r"\sphinxbottomrule")]
    assert "<script>x</script>" in tana and r"\sphinxAtStartPar" in tana
    sty = (jadval_sayti["latex"] / "sphinxlatextables.sty").read_text()
    assert "booktabs" in sty
