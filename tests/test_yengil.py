"""book/_ext/yengil.py: the same pages in fewer bytes.

Fast tests (no build) on small hand-written pages and stylesheets: each rule
of the two cuts, shown able to fail — a span whose class colours the text
stays, a block with text outside spans stays, a rule whose class only a
script names stays, an unused rule goes, ``@font-face`` stays ... — and the
whole cut on a small site (idempotent, originals kept, warnings instead of
a broken page).  Build tests (``-m build``): on the built chapter every code
cell's text is the notebook's and every ``<pre>`` reads as before; in Chromium
the chapter with the cut files and with the originals (``_build/yengil_asl/asl/``
laid over a copy of the site) look the same, pixel for pixel, light and dark,
on a computer and a phone, with a solution opened, the search dialog and
the search page, the phone's sidebar, a copied code cell.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

import pytest

import yengil
from conftest import DARSLAR, SAHIFALAR
from test_brauzer import brauzer  # noqa: F401  (the same Chromium fixture)
from xizmat import xizmat
from yengil import (TEKIS, Kutilmagan, Pygments, ajrat, keraksizini_ol, lugat_tuz, nomlar,
                    pre_ichini_tekisla, pre_qoidalari, psevdosiz, pygments_sinflari, yengillat)


def kes(css: str, sahifa: str = "", skript: str = "") -> str:
    """The stylesheet cut for one page (and one script it loads)."""
    return keraksizini_ol(css, lugat_tuz([sahifa], [skript] if skript else []))


def matni(ichi: str) -> str:
    """What a reader sees (and copies) of a <pre>'s inside."""
    return html.unescape(re.sub(r"<[^>]*>", "", ichi))


# --- 1. stylesheets: a rule goes only if no page and no script can use it -----------------

def test_an_unused_rule_goes_a_used_one_stays():
    css = ".bor{color:red}.yoq{color:blue}"
    assert kes(css, '<div class="bor">x</div>') == ".bor{color:red}"


def test_nothing_to_cut_leaves_the_file_byte_for_byte():
    css = "/* a */\n.bor {\n  color: red;\n}\n\n#id  >  p { margin: 0 }\n"
    assert kes(css, '<div class="bor" id="id"><p>x</p></div>') == css


def test_a_class_named_only_in_a_script_literal_is_kept():
    css = ".ochiq{display:block}"
    assert kes(css, "<div></div>") == ""
    assert kes(css, "<div></div>", 'el.classList.add("ochiq")') == css
    # ... and in a page's inline script
    assert kes(css, '<div></div><script>e.className = "ochiq";</script>') == css


def test_class_prefixes_and_suffixes_built_at_run_time_are_kept():
    css = ".tur-sarlavha{a:1}.bs-tooltip-auto{b:2}.tur{c:3}"
    assert kes(css, "", 'x.add("tur-" + nom); y = `bs-${a}-auto`') == ".tur-sarlavha{a:1}.bs-tooltip-auto{b:2}"


def test_dataset_names_keep_their_attribute_rules_dark_mode_too():
    css = 'html[data-theme=dark] .bor{color:white}[data-foo-bar]{x:1}'
    sahifa = '<html><body><div class="bor"></div></body></html>'
    assert kes(css, sahifa) == ""
    assert kes(css, sahifa, "document.documentElement.dataset.theme = m; el.dataset.fooBar = 1") == css


def test_pseudo_classes_and_elements_match_in_some_state():
    css = ".bor:hover{a:1}.bor::before{b:2}p:not(.yoq){c:3}:root{--x:1}.yoq:hover{d:4}details[open] p{e:5}"
    assert kes(css, '<details><p class="bor">x</p></details>') == \
        ".bor:hover{a:1}.bor::before{b:2}p:not(.yoq){c:3}:root{--x:1}details[open] p{e:5}"


def test_font_face_keyframes_and_licences_stay_a_plain_comment_goes_with_its_rule():
    css = ("/*! MIT licence */\n@font-face{font-family:X;src:url(x.woff)}\n"
           "@keyframes aylan{to{transform:rotate(1turn)}}\n"
           "/* the unused rule's note */\n.yoq{color:red}\n.bor{color:blue} /* its note */\n")
    assert kes(css, '<b class="bor"></b>') == (
        "/*! MIT licence */@font-face{font-family:X;src:url(x.woff)}"
        "@keyframes aylan{to{transform:rotate(1turn)}}.bor{color:blue}/* its note */")


def test_the_comments_at_the_head_of_a_file_stay_with_the_file():
    css = "/* kitob.css: the book's own rules */\n/* a note */\n.yoq{a:1}\n/* its note */\n.yoq2{b:2}.bor{c:3}"
    assert kes(css, '<p class="bor">') == "/* kitob.css: the book's own rules *//* a note */.bor{c:3}"


def test_media_blocks_are_cut_inside_and_go_when_empty():
    css = "@media print{.yoq{a:1}}@media (max-width:600px){.bor{b:2}.yoq{c:3}}@layer a, b;"
    assert kes(css, '<i class="bor"></i>') == "@media (max-width:600px){.bor{b:2}}@layer a, b;"


def test_a_selector_it_does_not_understand_is_kept():
    css = "svg|a{a:1}.a &{b:2}.yoq{c:3}"
    assert kes(css, "<svg></svg>") == "svg|a{a:1}.a &{b:2}"


def test_a_source_map_comment_goes_with_the_cut():
    css = ".bor{a:1}.yoq{b:2}\n/*# sourceMappingURL=x.css.map */"
    assert kes(css, '<p class="bor">') == ".bor{a:1}"


def test_selector_names_without_pseudo_classes():
    assert psevdosiz(".x :not(.y)") == ".x *"
    assert psevdosiz("a:hover::after") == "a"
    assert psevdosiz('a[href^="http:"]:focus') == 'a[href^="http:"]'
    assert nomlar(psevdosiz(r"div.md\:flex > #top [data-x=1]")) == ({"md:flex"}, {"top"}, {"data-x"}, {"div"})
    with pytest.raises(ValueError):
        nomlar("svg|a")


def test_css_it_cannot_read_raises():
    for buzuq in (".a{color:red", ".a{}}", "@media x{.a{b:1}"):
        with pytest.raises(ValueError):
            ajrat(buzuq)


# --- 2. Pygments spans --------------------------------------------------------------------

L, D = 'html[data-theme="light"] .highlight', 'html[data-theme="dark"] .highlight'
PYGMENTS_CSS = f"""
{L} pre {{ line-height: 125%; }}
{L} .hll {{ background-color: #fae4c2 }}
{L} {{ background: #fefefe; color: #080808 }}
{L} .n {{ color: #080808 }} /* Name */
{L} .p {{ color: #080808 }} /* Punctuation */
{L} .w {{ color: #080808 }}
{L} .k {{ color: #6730C5 }}
{L} .kn {{ color: #6730c5 }}
{L} .o {{ color: #00622F }}
{L} .s {{ color: #00622F }}
{L} .gs {{ font-weight: bold }}
{L} .gp {{ color: #080808 }}
{L} .ni {{ color: #080808 }}
{L} .c {{ color: #515151; font-style: italic }}
{D} pre {{ line-height: 125%; }}
{D} .hll {{ background-color: #ffd9002e }}
{D} {{ background: #2b2b2b; color: #F8F8F2 }}
{D} .n {{ color: #F8F8F2 }}
{D} .p {{ color: #f8f8f2 }}
{D} .w {{ color: #F8F8F2 }}
{D} .k {{ color: #DCC6E0 }}
{D} .kn {{ color: #DCC6E0 }}
{D} .o {{ color: #ABE338 }}
{D} .s {{ color: #FFD900 }}
{D} .gs {{ font-weight: bold }}
{D} .gp {{ color: #F8F8F2 }}
{D} .ni {{ color: #ABCDEF }}
{D} .c {{ color: #D4D0AB; font-style: italic }}
"""


@pytest.fixture
def pyg() -> Pygments:
    # .gp is named by the copy button's script: it is not touched
    return pygments_sinflari(PYGMENTS_CSS, {"gp"})


def test_only_classes_with_the_blocks_own_colour_in_every_theme_are_redundant(pyg):
    assert pyg.ortiqcha == {"n", "p", "w"}          # not .ni: its dark colour is its own
    assert pyg.blok == ("#f8f8f2", "#080808") and pyg.mavzular == (D, L)
    # merged with a neighbour: only a colour, the same one in both themes (k and kn)
    assert set(pyg.tengdosh) == {"k", "kn", "o", "s", "ni"}
    assert pyg.tengdosh["k"] == pyg.tengdosh["kn"] and pyg.tengdosh["o"] != pyg.tengdosh["s"]
    assert "gs" not in pyg.rangli and "c" in pyg.rangli and "c" not in pyg.tengdosh


def test_a_class_another_stylesheet_or_script_names_is_not_touched():
    assert "n" not in pygments_sinflari(PYGMENTS_CSS, {"n"}).ortiqcha
    assert yengil.boshqa_tilga_olgan([".sig .n{color:red}"], ['q = pre.querySelectorAll(".w, .gp")']) \
        >= {"sig", "n", "w", "gp"}
    # with the site's vocabulary, a selector that can match nothing there names nothing
    lug = lugat_tuz(['<div class="highlight"><pre><span class="n">x</span></pre></div>'], [])
    assert yengil.boshqa_tilga_olgan([".sig-param .n{color:red}"], [], lug) == set()
    assert yengil.boshqa_tilga_olgan([".highlight .n{color:red}"], [], lug) == {"highlight", "n"}


def test_a_class_with_one_theme_only_or_in_a_media_query_is_not_redundant():
    css = PYGMENTS_CSS.replace(f"{D} .n {{ color: #F8F8F2 }}", "") + f"@media print {{ {L} .p {{ color: #080808 }} }}"
    pyg = pygments_sinflari(css)
    assert "n" not in pyg.ortiqcha and "p" not in pyg.ortiqcha and "w" in pyg.ortiqcha


def test_the_tekis_rule_gives_the_colour_the_unwrapped_spans_had(pyg):
    qoidalar = pre_qoidalari(pyg)
    assert qoidalar == (f"\n{D} pre.{TEKIS} {{ color: #f8f8f2 }}\n{L} pre.{TEKIS} {{ color: #080808 }}")
    for mavzu, rang in zip(pyg.mavzular, pyg.blok):
        for sinf in pyg.ortiqcha:
            yozilgan = re.search(re.escape(f"{mavzu} .{sinf} ") + r"\{ color: (#\w+) \}", PYGMENTS_CSS).group(1)
            assert yozilgan.lower() == rang


def test_a_block_colour_not_written_out_or_missing_stops_the_code_cut():
    with pytest.raises(Kutilmagan, match="not written out"):
        pygments_sinflari(PYGMENTS_CSS.replace("color: #080808 }\n", "color: var(--x) }\n", 1))
    with pytest.raises(Kutilmagan, match="not written out"):
        pygments_sinflari(PYGMENTS_CSS.replace("color: #F8F8F2 }\n", "color: inherit }\n", 1))
    with pytest.raises(Kutilmagan, match="no colour"):
        pygments_sinflari(".highlight .n { color: red }")


KOD = ('<span></span><span class="kn">import</span><span class="w"> </span><span class="n">torch</span>\n'
       '<span class="n">x</span> <span class="o">=</span> <span class="s">&quot;a &lt; b&quot;</span>'
       '<span class="p">(</span><span class="k">if</span><span class="w"> </span><span class="k">not</span>'
       '<span class="p">)</span>\n')


def test_redundant_spans_are_unwrapped_and_the_text_stays_byte_for_byte(pyg):
    yangi = pre_ichini_tekisla(KOD, pyg)
    assert matni(yangi) == matni(KOD) and re.sub(r"<[^>]*>", "", yangi) == re.sub(r"<[^>]*>", "", KOD)
    assert not re.search(r'class="(n|w|p|nn)"', yangi)
    assert yangi.startswith("<span></span>"), "the empty span keeps a leading blank line in a <pre>"
    assert '<span class="kn">import</span>' in yangi          # a colour of its own: stays
    assert '<span class="k">if not</span>' in yangi            # neighbours of one colour: one span


def test_spans_merge_only_across_blank_text_and_only_with_the_same_colours(pyg):
    assert pre_ichini_tekisla('<span class="o">=</span> <span class="o">=</span><span class="n">x</span>',
                              pyg) == '<span class="o">= =</span>x'
    # ink between them (an unwrapped name) keeps them two
    ichi = '<span class="o">=</span><span class="n">y</span><span class="o">=</span>'
    assert pre_ichini_tekisla(ichi, pyg) == '<span class="o">=</span>y<span class="o">=</span>'
    # o and s have the same colour in light, not in dark: never merged
    ichi = '<span class="o">=</span> <span class="s">1</span><span class="n">z</span>'
    assert pre_ichini_tekisla(ichi, pyg) == '<span class="o">=</span> <span class="s">1</span>z'


def test_a_span_with_a_class_that_colours_it_stays(pyg):
    ichi = '<span class="ni">a</span><span class="c"># izoh</span><span class="gp">&gt;&gt;&gt;</span>'
    assert pre_ichini_tekisla(ichi, pyg) is None       # nothing to change


def test_text_outside_spans_keeps_the_block_untouched(pyg):
    # a cell's printed output: its text has the colour of the <pre>, which tekis would change
    assert pre_ichini_tekisla('<span class="n">x</span> natija: 3\n', pyg) is None
    assert pre_ichini_tekisla('<span class="n">x</span><span>3</span>', pyg) is None
    assert pre_ichini_tekisla('<span class="n">x</span><span class="gs">3</span>', pyg) is None
    # blank text outside spans has no colour to lose
    assert pre_ichini_tekisla('<span class="n">x</span> \n', pyg) == "x \n"


def test_anything_but_a_flat_row_of_spans_keeps_the_block_untouched(pyg):
    assert pre_ichini_tekisla('<span class="hll"><span class="n">x</span>\n</span>', pyg) is None
    assert pre_ichini_tekisla('<a href="#x"><span class="n">x</span></a>', pyg) is None
    assert pre_ichini_tekisla('<span class="n" id="q">x</span>', pyg) is None


def test_only_pygments_blocks_get_the_class(pyg):
    sahifa = ('<div class="highlight"><pre><span class="n">x</span></pre></div>'
              '<div class="highlight"><pre><span class="n">x</span> 1</pre></div>'
              '<pre><span class="n">x</span></pre>')
    assert yengil.kodni_tekisla(sahifa, pyg) == (
        f'<div class="highlight"><pre class="{TEKIS}">x</pre></div>'
        '<div class="highlight"><pre><span class="n">x</span> 1</pre></div>'
        '<pre><span class="n">x</span></pre>')
    # a <pre> with another attribute (tez.py's tabindex) keeps it, the class goes after it
    assert yengil.kodni_tekisla('<div class="highlight"><pre tabindex="0"><span class="n">x</span></pre></div>',
                                pyg) == f'<div class="highlight"><pre tabindex="0" class="{TEKIS}">x</pre></div>'


# --- 3. a small site: both cuts, the originals kept, rebuilt, warnings ---------------------

SAHIFA = """<!DOCTYPE html><html data-theme="light"><head>
<link rel="stylesheet" href="_static/pygments.css?v=1"/>
<link rel="stylesheet" href="_static/sayt.css?digest=abc"/>
<script src="_static/sayt.js"></script></head><body>
<div class="highlight"><pre><span></span><span class="n">x</span><span class="w"> </span><span class="o">=</span><span class="w"> </span><span class="k">not</span><span class="w"> </span><span class="n">y</span>
</pre></div>
<div class="output"><div class="highlight"><pre>natija: 3
</pre></div></div>
<p class="bor">matn</p></body></html>
"""
SAYT_CSS = """@import "ichki.css";
/*! licence */
.bor{color:red}.yoq{color:blue}.ochiq{display:block}
@font-face{font-family:X;src:url(x.woff)}
"""
SAYT_JS = "document.documentElement.dataset.theme = t; b.classList.add('ochiq'); exclude = '.linenos, .gp';"


def kichik_sayt(ildiz: Path) -> Path:
    sayt = ildiz / "html"
    (sayt / "_static").mkdir(parents=True)
    (sayt / "index.html").write_text(SAHIFA, encoding="utf-8")
    (sayt / "_static" / "pygments.css").write_text(PYGMENTS_CSS, encoding="utf-8")
    (sayt / "_static" / "sayt.css").write_text(SAYT_CSS, encoding="utf-8")
    (sayt / "_static" / "ichki.css").write_text(".ichki{a:1}.bor b{c:2}", encoding="utf-8")
    (sayt / "_static" / "sayt.js").write_text(SAYT_JS, encoding="utf-8")
    return sayt


def fayllar(sayt: Path) -> dict[str, bytes]:
    return {p.relative_to(sayt).as_posix(): p.read_bytes() for p in sorted(sayt.rglob("*")) if p.is_file()}


def test_the_cut_on_a_small_site(tmp_path):
    sayt = kichik_sayt(tmp_path)
    asl = fayllar(sayt)
    h = yengillat(sayt, tmp_path / "yengil_asl")
    assert h["ogohlantirishlar"] == [] and h["ortiqcha_sinflar"] == ["n", "p", "w"]
    sahifa = (sayt / "index.html").read_text(encoding="utf-8")
    # the code: unwrapped, the output left alone, the text as it was
    assert f'<pre class="{TEKIS}"><span></span>x <span class="o">=</span> <span class="k">not</span> y\n</pre>' in sahifa
    assert "<pre>natija: 3\n</pre>" in sahifa
    assert matni(sahifa) == matni(SAHIFA)
    pyg_css = (sayt / "_static" / "pygments.css").read_text()
    for mavzu, rang in ((L, "#080808"), (D, "#f8f8f2")):
        assert re.search(re.escape(f"{mavzu} pre.{TEKIS}") + r"\s*\{\s*color: " + rang + r"\s*\}", pyg_css), pyg_css
    assert ".gp" in pyg_css and ".hll" not in pyg_css        # the copy button's class kept; no page has hll
    # the stylesheets: unused rules gone, what the script adds, @font-face and the licence kept
    sayt_css = (sayt / "_static" / "sayt.css").read_text()
    assert ".yoq" not in sayt_css and ".ochiq{display:block}" in sayt_css and "@font-face" in sayt_css
    assert "/*! licence */" in sayt_css
    assert (sayt / "_static" / "ichki.css").read_text() == ".bor b{c:2}"
    # the links (and the @import) carry the checksums of the cut files
    for nom in ("pygments.css", "sayt.css"):
        v = yengil._crc((sayt / "_static" / nom).read_bytes())
        assert f'href="_static/{nom}?v={v}"' in sahifa
    assert f'@import "ichki.css?v={yengil._crc(b".bor b{c:2}")}";' in sayt_css
    # every file it changed is kept as it was, under asl/
    for nom, baytlar in fayllar(tmp_path / "yengil_asl" / "asl").items():
        assert baytlar == asl[nom], nom
    assert {"index.html", "_static/pygments.css", "_static/sayt.css", "_static/ichki.css"} <= \
        set(fayllar(tmp_path / "yengil_asl" / "asl"))
    assert (sayt / "_static" / "sayt.js").read_text() == SAYT_JS


def test_a_rebuild_cuts_the_originals_again_never_its_own_cut(tmp_path):
    sayt = kichik_sayt(tmp_path)
    yengillat(sayt, tmp_path / "yengil_asl")
    birinchi = fayllar(sayt)
    # a rebuild that writes nothing again (every file still our cut) ...
    yengillat(sayt, tmp_path / "yengil_asl")
    assert fayllar(sayt) == birinchi
    # ... or writes some files again, as Sphinx and the themes do
    (sayt / "_static" / "pygments.css").write_text(PYGMENTS_CSS, encoding="utf-8")
    (sayt / "index.html").write_text(SAHIFA, encoding="utf-8")
    h = yengillat(sayt, tmp_path / "yengil_asl")
    assert fayllar(sayt) == birinchi and h["html_oldin"] == len(SAHIFA.encode())
    # a page the site no longer has leaves no copy behind
    (sayt / "eski.html").write_text(SAHIFA, encoding="utf-8")
    yengillat(sayt, tmp_path / "yengil_asl")
    (sayt / "eski.html").unlink()
    yengillat(sayt, tmp_path / "yengil_asl")
    assert not (tmp_path / "yengil_asl" / "asl" / "eski.html").exists()


def test_a_stylesheet_it_cannot_read_is_left_whole_and_said(tmp_path):
    sayt = kichik_sayt(tmp_path)
    (sayt / "_static" / "sayt.css").write_text(SAYT_CSS + ".ochiq{", encoding="utf-8")
    h = yengillat(sayt, tmp_path / "yengil_asl")
    # its rules as they were (its @import names the cut ichki.css by its new checksum)
    assert re.sub(r"\?v=\w+", "", (sayt / "_static" / "sayt.css").read_text()) == SAYT_CSS + ".ochiq{"
    assert any("sayt.css left whole" in o for o in h["ogohlantirishlar"]), h["ogohlantirishlar"]
    assert f'class="{TEKIS}"' in (sayt / "index.html").read_text()    # the rest is still cut


@pytest.mark.parametrize(("buzish", "sabab"), [
    (lambda s: (s / "_static" / "pygments.css").write_text(".highlight .n { color: red }"), "no colour"),
    (lambda s: (s / "_static" / "pygments.css").unlink(), "no pygments.css"),
    (lambda s: (s / "_static" / "sayt.js").write_text(SAYT_JS + f'q(".{TEKIS}")'), "in use already"),
])
def test_an_unexpected_pygments_css_leaves_the_code_as_it_is_and_says_so(tmp_path, buzish, sabab):
    sayt = kichik_sayt(tmp_path)
    buzish(sayt)
    h = yengillat(sayt, tmp_path / "yengil_asl")
    assert any(sabab in o for o in h["ogohlantirishlar"]), h["ogohlantirishlar"]
    sahifa = (sayt / "index.html").read_text()
    assert TEKIS not in sahifa and '<span class="n">x</span>' in sahifa
    assert ".yoq" not in (sayt / "_static" / "sayt.css").read_text()     # the CSS cut still done


def test_a_warning_goes_to_stderr_not_to_sphinx_which_would_fail_the_strict_build(tmp_path, capsys):
    sayt = kichik_sayt(tmp_path)
    (sayt / "_static" / "pygments.css").unlink()

    class Ilova:                    # what _yakun reads of a Sphinx application
        outdir = str(sayt)
        doctreedir = str(tmp_path / ".doctrees")
        builder = type("B", (), {"format": "html"})()

    yengil._yakun(Ilova, None)
    chiqish = capsys.readouterr()
    assert "yengil: code blocks left as they are: no pygments.css" in chiqish.err
    assert "WARNING" not in chiqish.err + chiqish.out
    assert json.loads((tmp_path / "yengil_asl" / "hisobot.json").read_text())["ogohlantirishlar"]


# --- 4. the built chapter ------------------------------------------------------------------

#: the chapter's pages, and a lesson with a solution dropdown and code (the script checks)
BOB_SAHIFALARI = [f"{d}.html" for d in SAHIFALAR]
BOB = "book/attention/mexanizm.html"


def _pre_matnlari(sahifa: str) -> list[str]:
    from bs4 import BeautifulSoup
    return [p.get_text() for p in BeautifulSoup(sahifa, "html.parser").find_all("pre")]


@pytest.fixture(scope="module")
def asl_sayt(qurilgan, tmp_path_factory) -> Path:
    """A copy of the published site with the files as the build wrote them, before the cut."""
    nusxa = tmp_path_factory.mktemp("asl") / "sayt"
    shutil.copytree((qurilgan / "sayt").resolve(), nusxa)
    asl = qurilgan / "yengil_asl" / "asl"
    for yol in BOB_SAHIFALARI:
        assert (asl / yol).is_file(), f"no original of {yol} in {asl}: was book/_ext/yengil.py run?"
    for fayl in asl.rglob("*"):
        if fayl.is_file():
            assert (nusxa / fayl.relative_to(asl)).is_file(), f"{fayl} is not in the site"
            shutil.copy(fayl, nusxa / fayl.relative_to(asl))
            # its gzip twin is the cut file's: gone, so the server sends the original itself
            (nusxa / f"{fayl.relative_to(asl)}.gz").unlink(missing_ok=True)
    return nusxa


@pytest.mark.build
def test_the_chapter_is_lighter_and_every_pre_reads_as_before(qurilgan, asl_sayt):
    kesilgan = {y: (qurilgan / "sayt" / y).read_text(encoding="utf-8") for y in BOB_SAHIFALARI}
    asl = {y: (asl_sayt / y).read_text(encoding="utf-8") for y in BOB_SAHIFALARI}
    # over the whole chapter (its lessons together)
    assert sum(map(len, kesilgan.values())) < sum(map(len, asl.values())) - 100_000, \
        {y: (len(asl[y]), len(kesilgan[y])) for y in asl}
    assert sum(len(re.findall(f'<pre[^>]* class="{TEKIS}">', k)) for k in kesilgan.values()) >= 40
    for y in BOB_SAHIFALARI:
        assert _pre_matnlari(kesilgan[y]) == _pre_matnlari(asl[y]), y
    for nom in ("_static/styles/pydata-sphinx-theme.css", "_static/pygments.css"):
        assert (qurilgan / "sayt" / nom).stat().st_size < (asl_sayt / nom).stat().st_size, nom


@pytest.mark.build
def test_every_code_cell_shows_the_notebooks_code(qurilgan):
    from bs4 import BeautifulSoup

    # cells tagged remove-cell / remove-input (the lessons' sentence bookkeeping) show no code
    yashirin = {"remove-cell", "remove-input"}
    jami = tekislari = 0
    for dars in DARSLAR:
        nb = json.loads((qurilgan / "jupyter_execute" / f"{dars}.ipynb").read_text(encoding="utf-8"))
        manba = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                 for c in nb["cells"] if c["cell_type"] == "code"
                 and not yashirin & set(c.get("metadata", {}).get("tags", []))]
        hujjat = BeautifulSoup((qurilgan / "sayt" / f"{dars}.html").read_text(encoding="utf-8"), "html.parser")
        korinadi = [p.get_text() for p in hujjat.select("div.cell_input pre")]
        assert len(korinadi) == len(manba), dars
        for i, (a, b) in enumerate(zip(manba, korinadi)):
            assert b.strip("\n") == a.strip("\n"), f"{dars}, code cell {i}: the page shows {b[:200]!r}"
        jami += len(manba)
        tekislari += len(hujjat.select(f"div.cell_input pre.{TEKIS}"))
    assert jami >= 20
    assert tekislari >= jami - 2, "the cells' code was not cut"


# --- 5. the same page in Chromium ---------------------------------------------------------

TELEFON = {"width": 390, "height": 844}
KOMPYUTER = {"width": 1280, "height": 900}
#: The whole chapter is compared a tall window at a time: one full-page screenshot of a
#: page 60 000 px long is not painted whole by Chromium (text missing in places, at random).
#: No stylesheet of the site asks for the window's height.
BALAND = 4000

#: Ready to compare: every image loaded, fonts loaded (no scrolling: Bootstrap's scrollspy
#: would mark the table of contents by how fast the page was scrolled).  The figures load
#: lazily (book/_ext/tez.py): both sites are told to load them now.
TAYYOR_JS = """async () => {
  const imgs = [...document.images];
  imgs.forEach(i => { i.loading = 'eager'; });
  await Promise.all(imgs.map(i => i.complete ? null : new Promise(r => { i.onload = i.onerror = r; })));
  await document.fonts.ready;
  return true;
}"""

#: Every visible character of every <pre> and of every inline <code> (Chromium places an
#: inline code word a sub-pixel step apart now and then: compared by letter, as <pre> is): its look — colour, weight, style and the background
#: it shows (a span's own is transparent: the first opaque one from it up) — and, if asked
#: (``joy``: slow, a Range per character), where it is.
KOD_JS = """joy => [...document.querySelectorAll('pre, :not(pre) > code')].map(pre => {
  const fon = el => { for (let e = el; e; e = e.parentElement) {
    const b = getComputedStyle(e).backgroundColor; if (!/^rgba\\(.*, 0\\)$|^transparent$/.test(b)) return b; } };
  const korinish = [], joylar = [], r = document.createRange();
  const w = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
  for (let n; (n = w.nextNode());) {
    const s = getComputedStyle(n.parentElement);
    const k = [s.color, s.fontWeight, s.fontStyle, fon(n.parentElement), s.textDecorationLine].join(' ');
    for (let i = 0; i < n.data.length; i++) {
      const ch = n.data[i];
      if (/\\s/.test(ch)) continue;
      if (joy) {
        r.setStart(n, i); r.setEnd(n, i + 1);
        const q = r.getBoundingClientRect();
        joylar.push([q.x, q.y + scrollY]);
      }
      const o = korinish[korinish.length - 1];
      if (o && o[1] === k) o[0] += ch; else korinish.push([ch, k]);
    }
  }
  return {korinish, joylar};
})"""

#: The whole page laid out in both: kitob.css lets Chromium skip sections off screen
#: (content-visibility), which makes where a letter lies depend on what was scrolled past.
TOLIQ_CSS = ".bd-article section { content-visibility: visible !important }"

#: The code's letters (blocks and inline) painted transparent: what is left must be the same pixels.
#: A box's scrollbar is left out too: the browser draws it from the box's scroll width, which
#: follows the letters (compared, SURILISH apart) and may round to the other pixel on one
#: site.  (One clean-clone run of 4 saw a 1 px row across the foot of a scrolling code block
#: differ, and it did not come back: the bar is the likely cause, not a proven one.)
KODSIZ_CSS = ("pre, pre *, :not(pre) > code, :not(pre) > code * "
              "{ color: transparent !important; text-shadow: none !important }"
              " * { scrollbar-width: none !important }")
#: How far a letter of code may move sideways: Chromium starts every inline box (every
#: span) at a multiple of 1/64 px, so fewer spans move a letter by a fraction of a pixel
#: (0.28 px at most on the chapter, its letters 8.4 px wide); never up or down.
SURILISH = 0.5

#: Colour transitions and animations over (the theme's, the copy button's).
TINCH_JS = """() => { void document.body.offsetHeight;
  return document.getAnimations().every(a => a.playState !== 'running'); }"""


@pytest.fixture(scope="module")
def manzillar(qurilgan, asl_sayt):
    """{"kesilgan": URL of the published site, "asl": URL of the original copy}."""
    with xizmat((qurilgan / "sayt").resolve()) as kesilgan, xizmat(asl_sayt) as asl:
        yield {"kesilgan": kesilgan, "asl": asl}


#: Chromium does not paint text quite the same way every time (the same site against itself:
#: now and then a pixel, once a word of inline code, a sub-pixel step apart): a pair of
#: screenshots that differ is taken again, painted afresh, this many times before it counts.
URINISH = 3
#: ... and differences this small (out of 255) are rasterising noise: an edge under the
#: search dialog's backdrop comes out a level or three apart from one run to the next.
SHOVQIN = 4


def _farqi(juft: dict[str, bytes]) -> str | None:
    """None if the original's and the cut site's screenshots are the same pixels (within SHOVQIN)."""
    import io

    from PIL import Image, ImageChops

    a, b = (Image.open(io.BytesIO(juft[k])).convert("RGB") for k in ("asl", "kesilgan"))
    if a.size != b.size:
        return f"sizes {a.size} (original) and {b.size} (cut)"
    quti = ImageChops.difference(a, b).point(lambda v: 255 if v > SHOVQIN else 0).getbbox()
    return None if quti is None else f"pixels differ by more than {SHOVQIN}/255 inside {quti}"


def _saqla(juft: dict[str, bytes], papka: Path, nom: str) -> str:
    papka.mkdir(parents=True, exist_ok=True)
    for k, r in juft.items():
        (papka / f"yengil-{nom}-{k}.png").write_bytes(r)
    return f"see {papka}/yengil-{nom}-*.png"


class _IkkiSayt:
    """The same page open on both sites (original, cut) at once, the code's letters painted out
    (KODSIZ_CSS) once ``kod`` has been read; console errors collected."""

    def __init__(self, brauzer, manzillar, yol, kod_joyi=None, **kontekst):
        self.kontekstlar, self.sahifalar, self.kod, self.xatolar = [], {}, {}, []
        for nom, manzil in manzillar.items():
            k = brauzer.new_context(**kontekst)
            self.kontekstlar.append(k)
            s = k.new_page()
            s.on("console", lambda m, nom=nom: m.type == "error" and self.xatolar.append(f"{nom}: {m.text}"))
            s.on("pageerror", lambda e, nom=nom: self.xatolar.append(f"{nom}: {e}"))
            s.goto(manzil + yol, wait_until="networkidle")
            s.add_style_tag(content=TOLIQ_CSS)
            s.evaluate(TAYYOR_JS)
            if kod_joyi is not None:
                self.kod[nom] = s.evaluate(KOD_JS, kod_joyi)
            s.add_style_tag(content=KODSIZ_CSS)
            self.sahifalar[nom] = s

    def yop(self):
        for k in self.kontekstlar:
            k.close()


@pytest.mark.build
@pytest.mark.parametrize("ekran", ["kompyuter", "telefon"])
@pytest.mark.parametrize("mavzu", ["light", "dark"])
def test_the_chapter_looks_the_same_with_the_cut_files(brauzer, manzillar, qurilgan, mavzu, ekran):
    """Every letter of code: the same look, at most SURILISH px aside; the rest: the same pixels."""
    oyna = {"width": (KOMPYUTER if ekran == "kompyuter" else TELEFON)["width"], "height": BALAND}
    # where the letters are does not depend on the colours: measured in the light theme only
    eng_kop = 0.0
    sanoq = {"pre": 0, "harf": 0}
    for yol in BOB_SAHIFALARI:
        ikki = _IkkiSayt(brauzer, manzillar, yol, kod_joyi=mavzu == "light", color_scheme=mavzu, viewport=oyna)
        try:
            asl, kesilgan = ikki.kod["asl"], ikki.kod["kesilgan"]
            assert len(asl) == len(kesilgan), (yol, len(asl), len(kesilgan))
            sanoq["pre"] += len(asl)
            for i, (a, b) in enumerate(zip(asl, kesilgan)):
                assert a["korinish"] == b["korinish"], next(
                    f"<pre> {i}: {x[0]!r} looks {x[1]} in the original, {y[0]!r} {y[1]} cut"
                    for x, y in zip(a["korinish"] + [["", ""]], b["korinish"] + [["", ""]]) if x != y)
                for (x1, y1), (x2, y2) in zip(a["joylar"], b["joylar"]):
                    assert y1 == y2, f"{yol}, <pre> {i}: a letter moved from y={y1} to y={y2}"
                    eng_kop = max(eng_kop, abs(x1 - x2))
            sanoq["harf"] += sum(len(a["joylar"]) for a in asl)

            balandlik = {nom: s.evaluate("document.documentElement.scrollHeight") for nom, s in ikki.sahifalar.items()}
            assert balandlik["asl"] == balandlik["kesilgan"], balandlik
            for n, y in enumerate(range(0, balandlik["asl"], BALAND)):
                for urinish in range(URINISH):
                    juft = {}
                    for nom, s in ikki.sahifalar.items():
                        if urinish:                 # painted afresh: away and back
                            s.evaluate(f"scrollTo(0, {y + 3 * BALAND})")
                            s.wait_for_timeout(100)
                        s.evaluate(f"scrollTo(0, {y})")
                        s.wait_for_timeout(100)     # the table of contents follows the scrolling
                        _tinch(s)
                        juft[nom] = s.screenshot()
                    if (farq := _farqi(juft)) is None:
                        break
                else:
                    nom = f"{Path(yol).stem}-{mavzu}-{ekran}-{n}"
                    pytest.fail(f"{nom} (scrolled to y={y}): {farq}; {_saqla(juft, qurilgan / 'screenshots', nom)}")
            assert not ikki.xatolar, ikki.xatolar
        finally:
            ikki.yop()
    assert sanoq["pre"] >= 50, sanoq
    assert mavzu == "dark" or sanoq["harf"] > 10_000, "no letter of code measured"
    assert eng_kop <= SURILISH, f"a letter of code moved {eng_kop} px sideways"


def _tinch(s):
    s.wait_for_function(TINCH_JS, polling="raf", timeout=10_000)
    s.evaluate("document.fonts.ready.then(() => true)")


def _yechim(s):
    """An exercise's solution opened (a togglebutton dropdown)."""
    yechim = s.locator(".admonition.dropdown").first
    yechim.locator("button.toggle-button").click()
    s.wait_for_function("e => !e.classList.contains('toggle-hidden')", arg=yechim.element_handle())
    _tinch(s)
    return yechim.screenshot()


def _qidiruv_oynasi(s):
    """The search dialog (Ctrl+K) with a word typed in it."""
    s.keyboard.press("Control+k")
    maydon = s.locator("#pst-search-dialog input[name=q]")
    maydon.wait_for(state="visible")
    maydon.press_sequentially("attention")
    _tinch(s)
    return s.screenshot()


def _qidiruv_sahifasi(s):
    """The search page with its results (their summaries come from the pages)."""
    s.locator("#search-results ul.search li").first.wait_for(timeout=15_000)
    s.wait_for_function("() => !document.querySelector('#search-progress')?.textContent.includes('...')",
                        timeout=15_000)
    s.wait_for_load_state("networkidle")
    _tinch(s)
    return s.screenshot(full_page=True)


def _yon_panel(s):
    """On a phone: the sidebar opened from the top bar's button (a dialog)."""
    s.locator("button.primary-toggle:visible").first.click()
    s.locator("#pst-primary-sidebar-modal, .bd-sidebar-primary").first.wait_for(state="visible")
    _tinch(s)
    return s.screenshot()


def _nusxa(s):
    """A code cell under the pointer, its copy button clicked ("copied" tooltip)."""
    katak = s.locator("div.cell_input div.highlight").nth(2)
    katak.scroll_into_view_if_needed()
    katak.hover()
    s.locator("div.cell_input button.copybtn").nth(2).click()
    s.wait_for_timeout(300)
    _tinch(s)
    return katak.screenshot()


def _mavzu_tugmasi(s):
    """The theme button under the pointer, its tooltip shown."""
    tugma = s.locator("button.theme-switch-button:visible").first
    tugma.hover()
    s.locator(".tooltip").first.wait_for(state="visible", timeout=5000)
    _tinch(s)
    return s.screenshot()


@pytest.mark.build
@pytest.mark.parametrize("mavzu", ["light", "dark"])
@pytest.mark.parametrize(("nom", "yol", "qil", "ekran"), [
    ("yechim", BOB, _yechim, KOMPYUTER),
    ("qidiruv-oynasi", BOB, _qidiruv_oynasi, KOMPYUTER),
    ("qidiruv-sahifasi", "search.html?q=attention", _qidiruv_sahifasi, KOMPYUTER),
    ("yon-panel", BOB, _yon_panel, TELEFON),
    ("nusxa", BOB, _nusxa, KOMPYUTER),
    ("mavzu-tugmasi", BOB, _mavzu_tugmasi, KOMPYUTER),
])
def test_what_scripts_show_looks_the_same_with_the_cut_files(brauzer, manzillar, qurilgan, mavzu,
                                                             nom, yol, qil, ekran):
    """What the page's scripts show on a click, a key, the pointer: the same pixels on both sites."""
    for _ in range(URINISH):                # each time from a fresh page (see URINISH)
        ikki = _IkkiSayt(brauzer, manzillar, yol, color_scheme=mavzu, viewport=ekran,
                         permissions=["clipboard-read", "clipboard-write"])
        try:
            juft = {k: qil(s) for k, s in ikki.sahifalar.items()}
            assert not ikki.xatolar, ikki.xatolar
        finally:
            ikki.yop()
        if (farq := _farqi(juft)) is None:
            return
    pytest.fail(f"{nom}-{mavzu}: {farq}; {_saqla(juft, qurilgan / 'screenshots', f'{nom}-{mavzu}')}")


