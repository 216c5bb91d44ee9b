"""A table from show() becomes a real table in Sphinx: HTML for the web, booktabs LaTeX for print."""

import subprocess
import sys

import pandas as pd
import pytest

from chapter_code.kitob import jadval_bundle

DF = pd.DataFrame({"model": ["RNN", "<script>x</script>"], "aniqlik": [0.5, 0.99]})


@pytest.fixture(scope="module")
def qurilgan(tmp_path_factory):
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
        chiqish = tmp_path_factory.mktemp(builder)
        subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", builder, str(manba), str(chiqish)],
                       check=True)
        natija[builder] = chiqish
    return natija


def test_html_has_a_numbered_captioned_table(qurilgan):
    html = (qurilgan["html"] / "index.html").read_text()
    assert '<table class="docutils align-center" id="aniq">' in html
    assert '<span class="caption-number">1-jadval </span><span class="caption-text">Aniqlik jadvali.</span>' in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html and "<script>x" not in html
    assert '<th class="head text-right"><p>aniqlik</p></th>' in html
    assert ">1-jadval</span></a> ga qarang" in html


def test_latex_is_a_booktabs_table_with_caption(qurilgan):
    tex = next(qurilgan["latex"].glob("*.tex")).read_text()
    assert r"\sphinxtoprule" in tex and r"\sphinxbottomrule" in tex
    assert r"\sphinxcaption{Aniqlik jadvali.}" in tex
    assert r"\label{\detokenize{index:aniq}}" in tex
    # the cell is plain text in the table body (xelatex prints < and > as they are)
    tana = tex[tex.index(r"\sphinxmidrule"):tex.index(r"\sphinxbottomrule")]
    assert "<script>x</script>" in tana and r"\sphinxAtStartPar" in tana
    sty = (qurilgan["latex"] / "sphinxlatextables.sty").read_text()
    assert "booktabs" in sty
