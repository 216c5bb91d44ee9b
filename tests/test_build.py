"""The book builds strictly, and every output of the seed is on the chapter page in order.

These tests run ``jupyter-book build`` (marked ``build``: ``make unit`` skips them).
"""

import html as html_lib
import re
import shutil

import pytest
from conftest import ILDIZ, jb_build

pytestmark = pytest.mark.build


@pytest.fixture(scope="session")
def sahifa(qurilgan):
    """The chapter page's HTML."""
    return (qurilgan / "sayt" / "book" / "attention.html").read_text()


def _matn(html: str) -> str:
    """Visible text of the page's main part, tags removed."""
    asosiy = html[html.index("<main"):html.index("</main>")]
    asosiy = re.sub(r"<(script|style)\b.*?</\1>", " ", asosiy, flags=re.S)
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", asosiy))


def _joy(matn: str, *qismlar: str) -> int:
    """Position of the first part in the text; every part must be there."""
    for q in qismlar:
        assert q in matn, f"{q!r} is not on the chapter page"
    return matn.index(qismlar[0])


def _id(nom: str) -> str:
    """The HTML id docutils makes of a label (underscores become hyphens)."""
    return nom.replace("_", "-")


def _jadval(html: str, nom: str) -> str:
    m = re.search(rf'<table[^>]*id="{_id(nom)}".*?</table>', html, flags=re.S)
    assert m, f"table {nom!r} is not on the page"
    return m.group(0)


def _hujayralar(jadval: str) -> list[str]:
    return [html_lib.unescape(re.sub(r"<[^>]+>", "", c)).strip()
            for c in re.findall(r"<t[hd]\b.*?</t[hd]>", jadval, flags=re.S)]


def test_every_seed_output_is_on_the_page_in_order(sahifa):
    matn = " ".join(_matn(sahifa).split())
    joylar = [
        _joy(matn, "1-rasm RNN da maʼlumot zanjir boʻylab yuradi"),                     # 1 diagram
        _joy(matn, "1-qadam: har Q ni har K bilan", "3-qadam: softmax", "4-qadam:"),     # 2 worked example
        _joy(matn, "1-jadval Kirishning birinchi va oxirgi qadamiga"),                  # 3 gradients
        _joy(matn, "2-jadval Sinov aniqligi"),                                          # 4 training
        _joy(matn, "Pozitsiya kodlashsiz attention — kirishni", "maksimal farq"),       # 5 permutation
        _joy(matn, "Qadam 0 ga berilgan oʻrtacha eʼtibor", "Eng koʻp eʼtibor olgan qadam"),  # 6
        _joy(matn, "2-rasm Chapda: har qadamga berilgan oʻrtacha eʼtibor"),             # 7 figure
        _joy(matn, "3-jadval Bitta forward pass vaqti"),                                # 8 timing
        _joy(matn, "5-jadval Transformer blokining qismlari"),                          # 9 parts
        _joy(matn, "Parametrlar: 12704", "Chiqish: (2, 10, 32)"),                       # 10 block demo
        _joy(matn, "6-jadval Transformerlarning amaliy"),                               # 11 applications
        _joy(matn, "7-jadval Bobning xulosasi"),                                        # 12 summary
    ]
    assert joylar == sorted(joylar), "the outputs are not in the seed's order"


def test_tables_hold_the_seeds_rows(sahifa):
    grad = _hujayralar(_jadval(sahifa, "grad_jadval"))
    assert grad[:4] == ["model", "qadam 0", "qadam 59", "qadam 59 / qadam 0"]
    assert [grad[i] for i in (4, 8, 12)] == ["RNN", "LSTM", "attention"]
    sinov = _hujayralar(_jadval(sahifa, "sinov_jadval"))
    assert sinov[:5] == ["model", "seedlar", "oʻrtacha", "eng yomon", "parametrlar"]
    assert [sinov[i] for i in (5, 10, 15, 20)] == [
        "RNN", "LSTM", "attention (+ pozitsiya)", "attention (pozitsiyasiz)"]
    assert [sinov[i] for i in (9, 14, 19, 24)] == ["1186", "4546", "5218", "3298"]
    vaqt = _hujayralar(_jadval(sahifa, "vaqt_jadval"))
    assert [vaqt[i] for i in (4, 8, 12, 16)] == ["30", "60", "120", "240"]
    assert "LayerNorm" in " ".join(_hujayralar(_jadval(sahifa, "qismlar_jadval")))
    assert "RAG — qidirish + LLM" in _hujayralar(_jadval(sahifa, "qollash_jadval"))
    assert len(_hujayralar(_jadval(sahifa, "xulosa_jadval"))) == 2 * 11


def test_figures_have_images_alt_text_and_references(sahifa):
    for nom in ("yol_uzunligi", "attention_ogirligi", "xotira_vaqt"):
        m = re.search(rf'<figure[^>]*id="{_id(nom)}".*?</figure>', sahifa, flags=re.S)
        assert m, f"figure {nom!r} is missing"
        img = re.search(r'<img[^>]*src="([^"]+)"[^>]*>', m.group(0))
        assert img and 'alt="' in img.group(0) and 'alt=""' not in img.group(0)
        fayl = (ILDIZ / "_build" / "sayt" / "book" / img.group(1)).resolve()
        assert fayl.stat().st_size > 5000 and fayl.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f'href="#{_id(nom)}"' in sahifa, f"no {{numref}} points at {nom}"


def test_no_raw_output_reprs_or_error_on_the_page(sahifa):
    matn = _matn(sahifa)
    for yomon in ("<IPython.core.display", "<Figure size", "PosixPath(", "Traceback", "\x1b["):
        assert yomon not in matn


def test_a_cell_that_raises_fails_the_build_and_names_the_chapter(tmp_path):
    """A small fixture book with the project's configuration and a failing cell."""
    shutil.copy(ILDIZ / "_config.yml", tmp_path / "_config.yml")
    (tmp_path / "book").mkdir()
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: book/index\nchapters:\n  - file: book/xato\n")
    (tmp_path / "book" / "index.md").write_text("# Sinov\n\n```{tableofcontents}\n```\n")
    (tmp_path / "book" / "xato.py").write_text(
        "# %% [markdown]\n# # Xato bob\n\n# %%\nx = 1\n\n# %%\nraise ValueError('ataylab qilingan xato')\n")
    natija = jb_build(tmp_path)
    chiqish = natija.stdout + natija.stderr
    assert natija.returncode != 0
    assert "book/xato.py" in chiqish
    assert "ValueError" in chiqish and "ataylab qilingan xato" in chiqish
    assert not (tmp_path / "_build" / "html" / "book" / "xato.html").exists()


def test_mathematics_is_prerendered_and_assets_are_local(sahifa):
    assert sahifa.count('class="katex"') >= 20
    matn = _matn(sahifa)
    assert "\\(" not in matn and "\\[" not in matn and "$$" not in matn
    for teg in re.findall(r"<(?:script|link|img)\b[^>]*>", sahifa):
        assert not re.search(r'(?:src|href)="(?:https?:)?//', teg), f"external asset: {teg}"


def test_alt_texts_are_plain_text(sahifa):
    for alt in re.findall(r'<img[^>]*alt="([^"]*)"', sahifa):
        assert alt and "\\" not in alt, alt
