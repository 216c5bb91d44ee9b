"""The book builds strictly, and every output of the seed is on the chapter page in order.

These tests run ``jupyter-book build`` (marked ``build``: ``make unit`` skips them).
The pages are read with BeautifulSoup.  Figures and tables are numbered within
the chapter ("1.1-rasm", "1.2-jadval": ``book/_ext/qurilish/raqamlash.py``).
"""

import re

import pytest
from bs4 import BeautifulSoup, Tag
from conftest import SAHIFALAR, bob_html, jb_build, kitob_nusxasi

pytestmark = pytest.mark.build


@pytest.fixture(scope="session")
def sahifa(qurilgan):
    """The chapter's pages (opening page, lessons, glossary) in order, parsed as one."""
    return BeautifulSoup(bob_html(qurilgan), "html.parser")


def _matn(sahifa: BeautifulSoup) -> str:
    """Visible text of the pages' main parts, in order: no tags, no scripts or styles, entities decoded."""
    asosiylar = sahifa.find_all("main")
    assert asosiylar, "the pages have no <main>"
    asosiy = BeautifulSoup("".join(map(str, asosiylar)), "html.parser")    # a copy: the fixture stays whole
    for teg in asosiy.find_all(["script", "style"]):
        teg.decompose()
    return asosiy.get_text(" ")


def _joy(matn: str, *qismlar: str) -> int:
    """Position of the first part in the text; every part must be there."""
    for q in qismlar:
        assert q in matn, f"{q!r} is not on the chapter page"
    return matn.index(qismlar[0])


def _id(nom: str) -> str:
    """The HTML id docutils makes of a label (underscores become hyphens)."""
    return nom.replace("_", "-")


def _jadval(sahifa: BeautifulSoup, nom: str) -> Tag:
    jadval = sahifa.find("table", id=_id(nom))
    assert jadval is not None, f"table {nom!r} is not on the page"
    return jadval


def _hujayralar(jadval: Tag) -> list[str]:
    """The text of every header and data cell, row by row."""
    return [c.get_text().strip() for c in jadval.find_all(["th", "td"])]


def _raqami(element: Tag) -> str:
    """The number in a figure's or table's caption, e.g. "1.2-rasm"."""
    raqam = element.find(class_="caption-number")
    assert raqam is not None, f"{element.name} #{element.get('id')} has no numbered caption"
    return raqam.get_text().strip()


def _nomli(sahifa: BeautifulSoup, nom: str, boshi: str) -> str:
    """ "<number> <caption start>" of the figure or table labelled ``nom``: the number is read
    from the page (new sections renumber what follows them), the caption start is the seed's."""
    element = sahifa.find(["figure", "table"], id=_id(nom))
    assert element is not None, f"{nom!r} is not on the chapter page"
    return f"{_raqami(element)} {boshi}"


def test_every_seed_output_is_on_the_page_in_order(sahifa):
    matn = " ".join(_matn(sahifa).split())
    joylar = [
        _joy(matn, _nomli(sahifa, "yol_uzunligi", "RNNda maʼlumot zanjir boʻylab yuradi")),  # 1 diagram
        _joy(matn, "1-bosqich: har Q ni har K bilan", "3-bosqich: softmax", "4-bosqich:"),     # 2 worked example
        _joy(matn, _nomli(sahifa, "grad_jadval", "Kirishning 0-qadamiga va oxirgi qadamiga")),  # 3 gradients
        _joy(matn, _nomli(sahifa, "sinov_jadval", "Sinov aniqligi")),                   # 4 training
        _joy(matn, "Pozitsiya kodlashsiz attention — kirishni", "eng katta farq"),       # 5 permutation
        _joy(matn, "0-qadamga oʻrtacha ogʻirlik", "eng katta ogʻirlik:"),  # 6
        _joy(matn, _nomli(sahifa, "attention_ogirligi",
                          "Yuqorida: oʻqitilgan model har qadamga bergan")),            # 7 figure
        # 8 timing (the seed's torch/CPU line: the opening page names the CPU once, issue 42)
        _joy(matn, _nomli(sahifa, "vaqt_jadval", "Bitta paket (64 ta namuna) vaqti")),
        _joy(matn, _nomli(sahifa, "qismlar_jadval", "Transformer blokining qismlari")),  # 9 parts
        _joy(matn, "parametrlar: 12 704", "chiqish: (2, 10, 32)"),                # 10 block demo
        _joy(matn, _nomli(sahifa, "qollash_jadval", "Transformerlarning amaliy")),      # 11 applications
        _joy(matn, _nomli(sahifa, "xulosa_jadval", "Bobning xulosasi")),                # 12 summary
    ]
    assert joylar == sorted(joylar), "the outputs are not in the seed's order"


def test_figures_and_tables_are_numbered_within_the_chapter_in_order(sahifa):
    """Chapter 1's figures are 1.1-rasm, 1.2-rasm, ... and its tables 1.1-jadval, ... in page order."""
    for teg, tur, kamida in (("figure", "rasm", 3), ("table", "jadval", 7)):
        raqamlar = [_raqami(e) for e in sahifa.find_all(teg) if e.find(class_="caption-number")]
        assert len(raqamlar) >= kamida, raqamlar
        assert raqamlar == [f"1.{i}-{tur}" for i in range(1, len(raqamlar) + 1)], raqamlar


def test_every_reference_names_the_number_of_its_target(sahifa):
    """A {numref} says the figure's or table's own number ("1.2-jadvalda" points at 1.2-jadval)."""
    havolalar = sahifa.select("a.reference.internal span.std-numref")
    assert len(havolalar) >= 10
    for span in havolalar:
        # a reference to another lesson is "<lesson>.html#<id>"
        maqsad = sahifa.find(id=span.find_parent("a")["href"].partition("#")[2])
        assert maqsad is not None and maqsad.name in ("figure", "table"), span
        assert span.get_text().startswith(_raqami(maqsad)), (span.get_text(), _raqami(maqsad))


def test_tables_hold_the_seeds_rows(sahifa):
    grad = _hujayralar(_jadval(sahifa, "grad_jadval"))
    assert grad[:4] == ["model", "0-qadam", "59-qadam", "59-qadam / 0-qadam"]
    assert [grad[i] for i in (4, 8, 12, 16)] == ["RNN", "LSTM", "LSTM (unutish = 3)", "attention"]
    assert len(grad) == 4 * 5
    sinov = _hujayralar(_jadval(sahifa, "sinov_jadval"))
    # (no "eng yomon" column: the list of seeds shows the worst, and four columns fit a line of the PDF)
    assert sinov[:4] == ["model", "seedlardagi aniqlik", "oʻrtacha", "parametrlar soni"]
    assert [sinov[i] for i in (4, 8, 12, 16)] == [
        "RNN", "LSTM", "pozitsiyali attention", "pozitsiyasiz attention"]
    assert [sinov[i] for i in (7, 11, 15, 19)] == ["1186", "4546", "5218", "3298"]
    assert len(sinov) == 5 * 4
    vaqt = _hujayralar(_jadval(sahifa, "vaqt_jadval"))
    # (the RNN's T steps in turn against attention's one are the lesson's prose, not a column:
    # a sixth column made the table 37 px wider than a 390-px phone)
    assert vaqt[:5] == ["T", "model", "MAC", "oldinga (ms)", "oldinga va orqaga (ms)"]
    qatorlar = [vaqt[i:i + 5] for i in range(5, len(vaqt), 5)]
    assert [(q[0], q[1]) for q in qatorlar] == [
        (str(T), m) for T in (30, 60, 120, 240) for m in ("RNN", "attention")]
    assert "LayerNorm" in " ".join(_hujayralar(_jadval(sahifa, "qismlar_jadval")))
    assert "RAG: qidirish + LLM" in _hujayralar(_jadval(sahifa, "qollash_jadval"))
    assert len(_hujayralar(_jadval(sahifa, "xulosa_jadval"))) == 2 * 19     # header + 18 rows


def test_figures_have_images_alt_text_and_references(sahifa, qurilgan):
    for nom in ("yol_uzunligi", "sqrt_d", "attention_ogirligi", "xotira_vaqt"):
        rasm = sahifa.find("figure", id=_id(nom))
        assert rasm is not None, f"figure {nom!r} is missing"
        img = rasm.find("img")
        assert img is not None and img.get("src"), f"figure {nom!r} has no image"
        assert (img.get("alt") or "").strip(), f"figure {nom!r}: the image has no alt text"
        fayl = (qurilgan / "sayt" / "book" / "attention" / img["src"]).resolve()
        assert fayl.stat().st_size > 5000 and fayl.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert sahifa.find("a", href=re.compile(f"#{_id(nom)}$")), f"no {{numref}} points at {nom}"


def test_no_raw_output_reprs_or_error_on_the_page(sahifa):
    matn = _matn(sahifa)
    for yomon in ("<IPython.core.display", "<Figure size", "PosixPath(", "Traceback", "\x1b["):
        assert yomon not in matn


def test_a_cell_that_raises_fails_the_build_and_names_the_chapter(tmp_path):
    """A small fixture book with the project's configuration and build code, and a failing cell."""
    kitob_nusxasi(tmp_path, "format: jb-book\nroot: book/index\nchapters:\n  - file: book/xato\n", {
        "book/index.md": "# Sinov\n\n```{tableofcontents}\n```\n",
        "book/xato.py": "# %% [markdown]\n# # Xato bob\n\n# %%\nx = 1\n\n"
                        "# %%\nraise ValueError('ataylab qilingan xato')\n"})
    natija = jb_build(tmp_path)
    chiqish = natija.stdout + natija.stderr
    assert natija.returncode != 0
    assert "book/xato.py" in chiqish, chiqish[-3000:]
    assert "ValueError" in chiqish and "ataylab qilingan xato" in chiqish, chiqish[-3000:]
    assert not (tmp_path / "_build" / "html" / "book" / "xato.html").exists()


#: An asset address that leaves the site: http:, https: or protocol-relative.
TASHQI = re.compile(r"(?:https?:)?//", re.I)


def test_mathematics_is_prerendered_and_assets_are_local(sahifa):
    assert len(sahifa.select(".katex")) >= 20
    matn = _matn(sahifa)
    assert "\\(" not in matn and "\\[" not in matn and "$$" not in matn
    tegler = sahifa.find_all(["script", "link", "img"])
    assert len(tegler) >= 10
    for teg in tegler:
        for atr in ("src", "href"):
            assert not TASHQI.match((teg.get(atr) or "").strip()), f"external asset: {teg}"


def test_alt_texts_are_plain_text(sahifa):
    rasmlar = sahifa.find_all("img")
    assert len(rasmlar) >= 3
    for img in rasmlar:
        alt = img.get("alt")
        assert alt and "\\" not in alt, img


def test_a_glued_number_and_its_unit_stay_on_one_line(qurilgan):
    """After a glued number, the unit or counter word is joined by a no-break space (qurilish.glue
    QOSHIMCHALAR): no line, on the phone or on paper, ends between "225" and "MiB"."""
    from qurilish.glue import QOSHIMCHALAR

    html = bob_html(qurilgan)
    birlik = QOSHIMCHALAR + r"\b"
    ajralgan = re.findall(r'class="[^"]*pasted-text[^"]*">[^<]*</span> ' + birlik, html)
    birga = re.findall(r'class="[^"]*pasted-text[^"]*">[^<]*</span>\u00a0' + birlik, html)
    assert not ajralgan, ajralgan[:5]
    assert len(birga) > 50, len(birga)


def test_no_line_starts_with_a_unit_or_an_ending_after_a_number(qurilgan):
    """The text a reader sees (prose, captions, table cells; not code, output or formulas) never has a
    breakable space between a number and the unit or ending written after it ("225 MiB", "1,77 nat",
    "61 foizida", "4096 da"), typed or glued (qurilish.glue QOSHIMCHALAR), nor between a number and
    the word after it ("59 qadamimizda": SONDAN_KEYIN), nor around an expression's sign (*T* × *T*)."""
    from qurilish.glue import _AMALDAN_KEYIN as KEYIN
    from qurilish.glue import _AMALDAN_OLDIN as OLDIN
    from qurilish.glue import AMALLAR, QOSHIMCHALAR, SONDAN_KEYIN

    # an ending after anything that ends in a digit ("bfloat16 ga"); any word after a number that
    # stands alone ("59 qadamimizda", not the glossary's "float32" before its "formatida")
    qolip = re.compile(r"(?:[0-9%²³][ \n]+" + QOSHIMCHALAR
                       + r"|(?<![A-Za-z_\d,])\d+(?:[,\u202f]\d+)*%?[ \n]+" + SONDAN_KEYIN + r")\b")
    for d in SAHIFALAR:
        sahifa = BeautifulSoup((qurilgan / "sayt" / f"{d}.html").read_text(encoding="utf-8"), "html.parser")
        for t in sahifa.select("pre, code, script, style, .katex, .cell_output, .bd-sidebar-primary, "
                               ".bd-sidebar-secondary, header, nav"):
            t.decompose()
        matn = sahifa.get_text()
        ajralgan = [m.group(0) for m in qolip.finditer(matn)]
        # nor on either side of an expression's sign (*T* × *T*, (*i* + 1), 2 → 9: glue.AMALLAR)
        ajralgan += [m.group(0) for m in re.finditer(
            rf"\S(?:{OLDIN}[ \n][{AMALLAR}][ \xa0\n]|{OLDIN}[ \xa0\n][{AMALLAR}][ \n]){KEYIN}\S", matn)]
        assert not ajralgan, f"{d}: {ajralgan[:6]}"


def test_each_pages_title_names_it_once(qurilgan):
    """A page's <title> is its own title, then the book's: «Attention mexanizmi — Attention va
    Transformer». The chapter page bears the book's title itself, and its tab does not repeat it."""
    kitob = "Attention va Transformer"
    for d in SAHIFALAR:
        sahifa = BeautifulSoup((qurilgan / "sayt" / f"{d}.html").read_text(encoding="utf-8"), "html.parser")
        sarlavha = sahifa.select_one("main h1").get_text(" ", strip=True).rstrip("#").strip()
        kutilgan = kitob if sarlavha == kitob else f"{sarlavha} — {kitob}"
        assert sahifa.title.get_text() == kutilgan, (d, sahifa.title.get_text())
