"""The PDF: built with the site, Uzbek, every figure/table/glossary entry, fonts embedded, clean log."""

import re
import subprocess

import pytest

pytestmark = pytest.mark.build
NOM = "attention-va-transformer"


@pytest.fixture(scope="module")
def pdf_betlar(qurilgan):
    """The PDF's text (pdftotext -layout), one string per page."""
    natija = subprocess.run(["pdftotext", "-layout", str(qurilgan / "latex" / f"{NOM}.pdf"), "-"],
                            capture_output=True, text=True, check=True)
    return natija.stdout.split("\f")


@pytest.fixture(scope="module")
def pdf_matn(pdf_betlar):
    """The whole text on one line, runs of white space as one space."""
    return " ".join(" ".join(pdf_betlar).split())


@pytest.fixture(scope="module")
def sahifa_html(qurilgan):
    return (qurilgan / "sayt" / "book" / "attention.html").read_text()


def test_pdf_is_in_the_site_and_the_pages_link_to_it(qurilgan, sahifa_html):
    pdf = qurilgan / "sayt" / f"{NOM}.pdf"
    assert pdf.read_bytes()[:5] == b"%PDF-"
    for sahifa in (sahifa_html, (qurilgan / "sayt" / "book" / "index.html").read_text()):
        assert f'<a href="../{NOM}.pdf" download>PDF yuklab olish</a>' in sahifa
    assert (qurilgan / "sayt" / "attention.ipynb").read_text().startswith("{")
    assert '<a href="../attention.ipynb" download>' in sahifa_html
    assert (qurilgan / "sayt" / "_sources" / "book" / "attention.py").exists()


def test_pdf_text_is_uzbek_and_complete(pdf_matn, sahifa_html):
    for kerak in ("Attention va Transformer", "Mundarija", "1-bob", "Koʻrsatkich",
                  "Mashqlar", "Atamalar", "Yechim"):
        assert kerak in pdf_matn, kerak
    # every figure and table number of the web page is in the PDF
    raqamlar = set(re.findall(r'<span class="caption-number">(\d+-(?:rasm|jadval)) </span>', sahifa_html))
    assert len(raqamlar) >= 10
    for r in raqamlar:
        assert r in pdf_matn, r
    # every table header of the web page, and every glossary term
    for th in set(re.findall(r'<th class="head[^"]*"><p>([^<]+)</p></th>', sahifa_html)):
        assert " ".join(th.split()) in pdf_matn, th
    atamalar = re.findall(r'<dt id="term-[^"]*">([^<]+)<', sahifa_html)
    assert len(atamalar) >= 10
    for a in atamalar:
        assert " ".join(a.split()) in pdf_matn, a


def test_pdf_has_no_raw_reprs_or_ansi(pdf_matn):
    for yomon in ("IPython.core.display", "<Figure size", "PosixPath(", "\x1b[", "[0m"):
        assert yomon not in pdf_matn


def test_every_font_is_embedded(qurilgan):
    chiqish = subprocess.run(["pdffonts", str(qurilgan / "latex" / f"{NOM}.pdf")],
                             capture_output=True, text=True, check=True).stdout
    qatorlar = chiqish.splitlines()[2:]
    assert qatorlar, "pdffonts listed no fonts"
    for q in qatorlar:
        # columns: name type encoding emb sub uni object ID
        ustunlar = q.split()
        assert ustunlar[-5] == "yes", f"font not embedded: {q}"


def test_latex_log_has_no_missing_glyph_or_wide_overfull_box(qurilgan):
    log = (qurilgan / "latex" / f"{NOM}.log").read_text(errors="replace")
    assert "Missing character" not in log
    kengliklar = [float(x) for x in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]
    assert all(k <= 10 for k in kengliklar), kengliklar


def test_introduction_has_its_heading_and_header(pdf_betlar):
    """The root page's text opens with its own heading, not under a 'Mundarija' header."""
    betlar = pdf_betlar
    kirish = [b for b in betlar if "Bob nimani oʻrgatadi" in b]
    assert len(kirish) == 1, "the introduction is not on exactly one page"
    assert kirish[0].lstrip().startswith("Bob haqida"), kirish[0][:300]
    assert "Mundarija" not in kirish[0]
    mundarija = next(b for b in betlar if b.lstrip().startswith("Mundarija"))
    assert re.search(r"Bob haqida\s+\.*\s*1\b", mundarija), mundarija[:500]
