"""References: every work the text cites is in book/adabiyotlar.bib and on the page of
references, each citation links to its entry, and the joins are Uzbek ("va", "va boshq.").

sphinxcontrib-bibtex already fails the strict build on a key the .bib lacks; these tests
check the rest: no entry that nothing cites, what the reader sees on the site and in the PDF.
"""

import re
import subprocess

import pytest
from bs4 import BeautifulSoup
from conftest import DARS_FAYLLARI, ILDIZ, SAHIFALAR

BIB = ILDIZ / "book" / "adabiyotlar.bib"
SAHIFA = "book/attention/adabiyotlar"
#: {cite}`key`, {cite:p}`a,b`, {cite:alp}`key` ...
HAVOLA = re.compile(r"\{cite(?::[a-z]+)?\}`([^`]+)`")


def _kalitlar() -> set[str]:
    return set(re.findall(r"^@\w+\{([^,\s]+),", BIB.read_text(encoding="utf-8"), flags=re.M))


def _keltirilgan() -> dict[str, list[str]]:
    """key -> the pages that cite it (lessons and Markdown pages)."""
    topildi: dict[str, list[str]] = {}
    for d in SAHIFALAR:
        for uch in (".py", ".md"):
            yol = ILDIZ / f"{d}{uch}"
            if yol.is_file():
                for guruh in HAVOLA.findall(yol.read_text(encoding="utf-8")):
                    for k in guruh.split(","):
                        topildi.setdefault(k.strip(), []).append(d)
    return topildi


def test_every_entry_is_cited_and_every_citation_has_an_entry():
    kalitlar, keltirilgan = _kalitlar(), _keltirilgan()
    assert len(kalitlar) >= 10
    assert not kalitlar - keltirilgan.keys(), f"entries nothing cites: {sorted(kalitlar - keltirilgan.keys())}"
    assert not keltirilgan.keys() - kalitlar, f"cited, not in the .bib: {sorted(keltirilgan.keys() - kalitlar)}"
    # the works the chapter leans on are cited where it says them
    for k, dars in [("vaswani2017", "pozitsiyalar"), ("gers2000", "rekurrent"),
                    ("jozefowicz2015", "rekurrent"), ("haviv2022", "mexanizm"), ("xiong2020", "transformer")]:
        assert any(p.endswith(dars) for p in keltirilgan[k]), (k, dars)


def test_no_lesson_names_a_work_by_hand():
    """"(Vaswani va boshq., 2017)" typed into the prose is a citation without a link."""
    qolgan = []
    for f in DARS_FAYLLARI + [ILDIZ / "book/attention/atamalar.md"]:
        for i, q in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if q.lstrip().startswith("#") and re.search(r"[A-Z][a-z]+ va boshq\.,? \(?(19|20)\d\d", q):
                qolgan.append(f"{f.name}:{i}: {q.strip()}")
    assert not qolgan, qolgan


def test_the_styles_join_names_in_uzbek():
    from pybtex.database import parse_string
    from pybtex.plugin import find_plugin
    import qurilish.adabiyot as modul
    from qurilish.adabiyot import BOSHQ, VA, MuallifYil, Royxat

    class App:
        def __init__(self):
            self.ulangan = []

        def connect(self, hodisa, funksiya):
            self.ulangan.append((hodisa, funksiya))

    app = App()
    modul.setup(app)      # registers the styles with sphinxcontrib-bibtex and pybtex
    yozuvlar = parse_string("""@article{a, author = {Bir, A. and Ikki, B. and Uch, C.}, title = {T},
        journal = {J}, year = {2020}}
        @article{b, author = {Bir, A. and Ikki, B.}, title = {U}, journal = {J}, year = {2021}}""", "bibtex")
    bichilgan = list(Royxat().format_entries(yozuvlar.entries.values()))
    royxat = [e.text.render_as("text") for e in bichilgan]
    # each label is the citation's text: the reader finds in the list what the text cited
    assert [e.label for e in bichilgan] == ["Bir va Ikki, 2021", "Bir va boshq., 2020"]
    # sorted by author, then year: the two-author entry first
    assert royxat == ["A. Bir va B. Ikki. U. J, 2021.", "A. Bir, B. Ikki va C. Uch. T. J, 2020."]
    assert not any(" and " in r for r in royxat)
    # BibTeX's "and others" as the citations write it, not pybtex's word "others"
    (boshqalar,) = Royxat().format_entries(parse_string("""@article{o, author = {Bir, A. and Ikki, B.
        and others}, title = {O}, journal = {J}, year = {2022}}""", "bibtex").entries.values())
    assert boshqalar.text.render_as("text") == "A. Bir, B. Ikki va boshq. O. J, 2022."
    uslub = MuallifYil()
    assert uslub.person.sep2 == uslub.person.last_sep == VA and uslub.person.other == BOSHQ
    assert (uslub.bracket_parenthetical.left, uslub.bracket_textual.right) == ("(", ")")
    # titles keep their capitals
    assert Royxat().format_entries([parse_string("""@article{c, author = {Bir, A.}, title = {Attention Is
        All You Need}, journal = {J}, year = {2017}}""", "bibtex").entries["c"]]).__next__() \
        .text.render_as("text") == "A. Bir. Attention Is All You Need. J, 2017."
    # a team's name in braces sorts by its letters, among the persons, not after them all
    jamoa = parse_string("""@article{g, author = {{Gemma Team, Google DeepMind}}, title = {G},
        journal = {J}, year = {2024}}
        @article{h, author = {Haviv, A.}, title = {H}, journal = {J}, year = {2022}}
        @article{f, author = {Dao, T.}, title = {F}, journal = {J}, year = {2022}}""", "bibtex")
    assert [e.label for e in Royxat().format_entries(jamoa.entries.values())] == [
        "Dao, 2022", "Gemma Team, Google DeepMind, 2024", "Haviv, 2022"]
    assert find_plugin("pybtex.style.formatting", "uz") is Royxat
    assert app.ulangan == [("html-page-context", modul._rollarsiz)]
    kontekst = {"body": '<div role="list" class="citation-list">\n<div class="citation" '
                        'id="id1" role="doc-biblioentry">'}
    modul._rollarsiz(app, "p", "page.html", kontekst, None)
    assert kontekst["body"] == '<div class="citation-list">\n<div class="citation" id="id1">'


def _oqi(qurilgan, d) -> BeautifulSoup:
    return BeautifulSoup((qurilgan / "sayt" / f"{d}.html").read_text(encoding="utf-8"), "html.parser")


@pytest.mark.build
def test_citations_link_to_their_entry_on_the_page_of_references(qurilgan):
    royxat = _oqi(qurilgan, SAHIFA)
    matn = royxat.get_text(" ", strip=True)
    for sarlavha in ("Attention Is All You Need", "Learning to Forget", "Train Short, Test Long"):
        assert sarlavha in matn, sarlavha
    # names joined in Uzbek (titles keep their own "and")
    assert "Dzmitry Bahdanau, Kyunghyun Cho va Yoshua Bengio." in matn and "et al" not in matn
    assert "[ Vaswani va boshq., 2017 ]" in matn       # the label is the citation's text
    keltirilgan = _keltirilgan()
    for kalit, sahifalar in keltirilgan.items():
        for d in set(sahifalar) - {SAHIFA}:
            html = _oqi(qurilgan, d)
            havolalar = [a for a in html.select("a[href*='adabiyotlar.html#']")]
            assert havolalar, f"{d} cites {kalit} but links to no entry"
            for a in havolalar:
                langar = a["href"].split("#", 1)[1]
                assert royxat.find(id=langar), f"{d}: {a['href']} has no entry"
    # the form the prose used before, now generated: "(Vaswani va boshq., 2017)", "Gers, Schmidhuber va Cummins"
    pozitsiyalar = _oqi(qurilgan, "book/attention/pozitsiyalar").get_text(" ", strip=True)
    assert "Vaswani va boshq., 2017" in pozitsiyalar
    assert "Press va boshq., 2022" in pozitsiyalar
    # a citation with every author (cite:ts) names all three
    assert "Gers, Schmidhuber va Cummins" in _oqi(qurilgan, "book/attention/rekurrent").get_text(" ", strip=True)
    assert "Gers, Schmidhuber va Cummins" in _oqi(qurilgan, "book/attention/rekurrent").get_text(" ", strip=True)


@pytest.mark.build
def test_the_pdf_lists_the_references_and_cites_them(qurilgan):
    pdf = qurilgan / "latex" / "attention-va-transformer.pdf"
    matn = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    for sarlavha in ("Attention Is All You Need", "Learning to Forget"):
        assert sarlavha in matn, sarlavha
    assert "Adabiyotlar" in matn
    assert "Gers, Schmidhuber va Cummins" in matn.replace("\n", " ")
