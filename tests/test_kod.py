"""book/_ext/qurilish/kod.py: code highlighted without the spans that change nothing.

Fast tests: which token types the theme's two styles draw as plain text, and the
filter on real code (a coloured token keeps its span, names lose theirs, the text
stays).  Build tests: every code cell shows the notebook's code with no span of a
plain-text class left, the PDF's code is highlighted as before, and in Chromium an
unwrapped name has the colour its span had (light and dark).
"""

from __future__ import annotations

import json
import re

import pytest
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.token import STANDARD_TYPES, Generic, Keyword, Name, Punctuation, Token

from qurilish import kod
from conftest import DARSLAR

USLUBLAR = ("a11y-high-contrast-light", "a11y-high-contrast-dark")


def test_names_punctuation_and_whitespace_look_like_text_keywords_and_prompts_do_not():
    turlar = kod.tekis_turlar(*USLUBLAR)
    assert {Name, Punctuation, Token.Text.Whitespace} <= turlar
    assert Keyword not in turlar and Name.Builtin not in turlar
    assert not {Generic.Prompt, Generic.Output} & turlar
    # a style that draws names and punctuation unlike text (tango: black, bold) keeps their spans
    assert not {Name, Punctuation} & kod.tekis_turlar(*USLUBLAR, "tango")


def test_the_filter_drops_the_plain_spans_and_keeps_the_text_and_the_coloured_ones():
    manba = "def f(x):\n    return torch.softmax(x / 2, dim=-1)  # izoh\n"
    turlar = kod.tekis_turlar(*USLUBLAR)
    oddiy = highlight(manba, get_lexer_by_name("ipython3"), HtmlFormatter())
    lexer = kod._tekis_lexer(type(get_lexer_by_name("ipython3")), turlar)()
    tekis = highlight(manba, lexer, HtmlFormatter())
    assert re.sub(r"<[^>]+>", "", tekis) == re.sub(r"<[^>]+>", "", oddiy)
    assert '<span class="n">' in oddiy and '<span class="n">' not in tekis
    assert '<span class="p">' not in tekis and '<span class="w">' not in tekis
    for qoladi in ('<span class="k">def</span>', '<span class="c1"># izoh</span>', '<span class="mi">2</span>'):
        assert qoladi in tekis
    assert len(tekis) < 0.7 * len(oddiy)



def test_each_line_is_a_span_that_knows_its_indent_and_keeps_its_text():
    """The phone's wrapping needs a span per non-blank line with its indent (--t), the indent in
    a span that never breaks; the text (what a copy gives) is unchanged, newlines outside."""
    manba = "def f(x):\n\n    return x  # izoh\n        , 2\n"
    for lexer in (get_lexer_by_name("ipython3"), get_lexer_by_name("text")):
        oddiy = highlight(manba, lexer, HtmlFormatter())
        qatorli = highlight(manba, lexer, kod.qatorli(HtmlFormatter)())
        assert re.sub(r"<[^>]+>", "", qatorli) == re.sub(r"<[^>]+>", "", oddiy)
        assert re.findall(r'<span class="q" style="--t:(\d+)">', qatorli) == ["0", "4", "8"], qatorli
        assert qatorli.count('<span class="qb">') == 2
        assert "</span>\n\n<span" in qatorli          # the blank line: no span, the newlines outside

@pytest.mark.build
def test_every_code_cell_shows_the_notebooks_code_with_no_plain_span(qurilgan):
    from bs4 import BeautifulSoup

    tekis_sinflar = {STANDARD_TYPES[t] for t in kod.tekis_turlar(*USLUBLAR)}
    yashirin = {"remove-cell", "remove-input"}     # the lessons' bookkeeping cells show no code
    jami = 0
    for dars in DARSLAR:
        nb = json.loads((qurilgan / "jupyter_execute" / f"{dars}.ipynb").read_text(encoding="utf-8"))
        manba = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                 for c in nb["cells"] if c["cell_type"] == "code"
                 and not yashirin & set(c.get("metadata", {}).get("tags", []))]
        hujjat = BeautifulSoup((qurilgan / "sayt" / f"{dars}.html").read_text(encoding="utf-8"), "html.parser")
        korinadi = hujjat.select("div.cell_input pre")
        assert len(korinadi) == len(manba), dars
        for i, (a, pre) in enumerate(zip(manba, korinadi)):
            assert pre.get_text().strip("\n") == a.strip("\n"), f"{dars}, code cell {i}"
            ortiqcha = [s for s in pre.find_all("span") if set(s.get("class", [])) & tekis_sinflar]
            assert not ortiqcha, f"{dars}, code cell {i}: {ortiqcha[:3]}"
            assert pre.find("span", class_=True), f"{dars} {i}: no coloured token left"
        jami += len(manba)
    assert jami >= 20


@pytest.mark.build
def test_the_pdf_keeps_its_own_highlighting(qurilgan):
    tex = next((qurilgan / "latex").glob("*.tex")).read_text(encoding="utf-8")
    # the LaTeX builder is not filtered: names are still tokens of their own there
    assert tex.count(r"\PYG{n}{") > 100


@pytest.mark.build
@pytest.mark.parametrize("mavzu", ["light", "dark"])
def test_an_unwrapped_name_has_the_colour_its_span_had(qurilgan, mavzu):
    from playwright.sync_api import sync_playwright

    from test_brauzer import BAYROQLAR, CHROMIUM
    from xizmat import xizmat

    uslub = USLUBLAR[0 if mavzu == "light" else 1]
    kutilgan = HtmlFormatter(style=uslub).style.style_for_token(Token.Text)["color"]
    rgb = f"rgb({int(kutilgan[0:2], 16)}, {int(kutilgan[2:4], 16)}, {int(kutilgan[4:6], 16)})"
    with xizmat((qurilgan / "sayt").resolve()) as url, sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=BAYROQLAR)
        s = b.new_page(color_scheme=mavzu)
        s.goto(f"{url}/book/attention/mexanizm.html", wait_until="networkidle")
        ranglar = s.evaluate("""() => [...document.querySelectorAll('div.cell_input pre')].slice(0, 5)
            .map(p => getComputedStyle(p).color)""")
        literal = s.evaluate("""() => [...document.querySelectorAll('.highlight-python pre')]
            .map(p => getComputedStyle(p).color)""")
        b.close()
    assert ranglar and set(ranglar) == {rgb}, (ranglar, rgb)
    assert set(literal) <= {rgb}, literal
