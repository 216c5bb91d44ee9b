"""book/_ext/qurilish/yozuvda.py: a book written in another script from its Latin build (issue 48).

A fixture book (two pages of reStructuredText, Sphinx's basic theme) is built as the chapter
is, in Latin; then its environment is copied and the edition is written in a toy third script
(a letter table made in the test, as in test_yozuv.py): nothing is read again, the prose,
headings and navigation are in the script, code and formulas are as written, the pages say
their language; its LaTeX (Sphinx's LaTeX writer on a copy of the same reading, as the PDF's) is
in the script too.  No notebook, no execution and no xelatex: about two seconds.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from qurilish.yozuv import SOZ, Yozuv

KONF = '''
extensions = ["qurilish.yozuvda"]
project = "Oʻyin kitobi"
language = "uz"
html_theme = "basic"

from qurilish import SOZLAMALAR


def setup(app):
    for nom in ("kitob_yozuv", "kitob_yozuv_papkasi", "kitob_yozuvlar", "kitob_asl_yozuv"):
        asl, qayta, turlar = SOZLAMALAR[nom]
        app.add_config_value(nom, asl, qayta, types=turlar)
'''
BOSH = """Salom dunyo
===========

Bu oʻsha kitob: shu yerda ``salom_soz`` bor.

.. code-block:: python

   print("salom")

Formula: :math:`a + s`.

Lotin yozuvining oʻzi: :lotin:`sh va oʻ` qoladi.

.. toctree::

   ikkinchi
"""
#: The book's catalogue: one string of the basic theme's search box.
KATALOG = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "Quick search"
msgstr "Tez qidirish"
"""
IKKINCHI = """Ikkinchi sahifa
===============

Asosiy soʻz.
"""


def _yozuv_papkasi(ildiz: Path) -> Path:
    papka = ildiz / "yozuvlar" / "oyna"
    papka.mkdir(parents=True)
    (papka / "yozuv.yml").write_text("sarlavha: Oyna\ntil: uz-Zyyy\nsphinx_tili: uz\nharflar: harflar.tsv\n"
                                     "alifbo: α b d e f g h i j k l m n o p q r ς t u v x y z ø gʻ ʃ ch ng\n",
                                     encoding="utf-8")
    (papka / "harflar.tsv").write_text("sh\tʃ\noʻ\tø\na\tα\ns\tς\n", encoding="utf-8")
    return papka.parent


def _qur(manba: Path, chiqish: Path, doctrees: Path, builder: str = "html", qatiy: bool = True,
         **sozlama) -> str:
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    holat = io.StringIO()
    with patch_docutils(manba), docutils_namespace():
        app = Sphinx(str(manba), str(manba), str(chiqish), str(doctrees), builder, confoverrides=sozlama,
                     status=holat, warning=holat, freshenv=False, warningiserror=qatiy)
        app.build(False, [])
    return holat.getvalue()


@pytest.fixture(scope="module")
def kitob(tmp_path_factory):
    ildiz = tmp_path_factory.mktemp("yozuvda")
    manba = ildiz / "manba"
    manba.mkdir()
    (manba / "conf.py").write_text(KONF, encoding="utf-8")
    (manba / "index.rst").write_text(BOSH, encoding="utf-8")
    (manba / "ikkinchi.rst").write_text(IKKINCHI, encoding="utf-8")
    (manba / "locales" / "uz" / "LC_MESSAGES").mkdir(parents=True)
    (manba / "locales" / "uz" / "LC_MESSAGES" / "sphinx.po").write_text(KATALOG, encoding="utf-8")
    yozuvlar = _yozuv_papkasi(ildiz)
    _qur(manba, ildiz / "lotin", ildiz / "doctrees")
    shutil.copytree(ildiz / "doctrees", ildiz / "oyna-doctrees")
    holat = _qur(manba, ildiz / "oyna", ildiz / "oyna-doctrees",
                 kitob_yozuv="oyna", kitob_yozuv_papkasi=str(yozuvlar))
    # the edition's LaTeX, from a copy of the same reading, as tools/yozuvda.py writes its PDF's
    # (xelatex is not run here: the chapter's Cyrillic PDF is, test_the_cyrillic_pdf_...)
    shutil.copytree(ildiz / "oyna-doctrees", ildiz / "oyna-latex-doctrees")
    # (not strict: Sphinx alone knows no babel for "uz"; the book's pdf.py, not loaded here, does)
    latex = _qur(manba, ildiz / "oyna-latex", ildiz / "oyna-latex-doctrees", "latex", qatiy=False,
                 kitob_yozuv="oyna", kitob_yozuv_papkasi=str(yozuvlar))
    assert [q for q in latex.splitlines() if "WARNING" in q and "no Babel option known for language" not in q] == []
    # the Latin book built again in the same process, after the edition
    _qur(manba, ildiz / "lotin-yana", ildiz / "doctrees")
    return ildiz, holat, Yozuv.oqi("oyna", yozuvlar)


def _sahifa(papka: Path, nom: str) -> BeautifulSoup:
    return BeautifulSoup((papka / f"{nom}.html").read_text(encoding="utf-8"), "html.parser")


def test_the_edition_reads_nothing_again(kitob):
    _, holat, _ = kitob
    assert "0 added, 0 changed, 0 removed" in holat, holat


def test_prose_headings_and_navigation_are_in_the_script(kitob):
    ildiz, _, y = kitob
    assert y.matn("Salom Dunyo") == "Σαlom Dunyo"      # the toy table did something
    bosh = _sahifa(ildiz / "oyna", "index")
    assert bosh.html["lang"] == "uz-Zyyy"
    assert bosh.h1.get_text().rstrip("¶") == y.matn("Salom dunyo")
    assert y.matn("Bu oʻsha kitob: shu yerda") in bosh.select_one("div.body p").get_text()
    # the contents' link to the second page, and that page's title with the book's
    assert bosh.select_one(".toctree-wrapper a").get_text() == y.matn("Ikkinchi sahifa")
    ikkinchi = _sahifa(ildiz / "oyna", "ikkinchi")
    # (Sphinx's default title for the book: the project's name, its empty release, "documentation")
    assert ikkinchi.title.get_text() == f"{y.matn('Ikkinchi sahifa')} — {y.matn('Oʻyin kitobi  documentation')}"
    assert y.matn("Asosiy soʻz.") in ikkinchi.select_one("div.body").get_text()


def test_code_literals_and_formulas_stay_as_written(kitob):
    ildiz, _, y = kitob
    bosh = _sahifa(ildiz / "oyna", "index")
    assert bosh.select_one("div.highlight pre").get_text() == 'print("salom")\n'
    assert bosh.select_one("code").get_text() == "salom_soz"
    assert r"\(a + s\)" in bosh.select_one("div.body").get_text()
    # a piece of the Latin script itself ({lotin}): as written, the sentence around it in the script
    assert bosh.select_one("span.lotin").get_text() == "sh va oʻ"
    assert f'{y.matn("Lotin yozuvining oʻzi:")} sh va oʻ {y.matn("qoladi.")}' in bosh.select_one("div.body").get_text()


def test_the_toy_scripts_latex_is_written_in_it_from_the_same_reading(kitob):
    """The PDF's path is the same for any script: Sphinx's LaTeX writer on a copy of the edition's
    reading writes its prose and headings in the toy script, its code and formulas as written."""
    ildiz, _, y = kitob
    tex = next((ildiz / "oyna-latex").glob("*.tex")).read_text(encoding="utf-8")
    for kerak in ("\\chapter{" + y.matn("Ikkinchi sahifa") + "}", y.matn("Bu oʻsha kitob: shu yerda"),
                  y.matn("Asosiy soʻz."), r"\(a + s\)", r"salom\_soz", "{sh va oʻ}"):
        assert kerak in tex, kerak
    assert "Ikkinchi sahifa}" not in tex and "Asosiy soʻz." not in tex


def test_the_interface_strings_come_from_the_catalogue_written_in_the_script(kitob):
    ildiz, _, y = kitob
    assert y.matn("Tez qidirish") == "Tez qidiriʃ"
    assert _sahifa(ildiz / "oyna", "index").select_one("#searchbox h3").get_text() == "Tez qidiriʃ"


@pytest.mark.parametrize("papka", ["lotin", "lotin-yana"])
def test_the_latin_build_is_untouched_before_and_after(kitob, papka):
    ildiz, _, _ = kitob
    bosh = _sahifa(ildiz / papka, "index")
    assert bosh.html["lang"] == "uz" and bosh.h1.get_text().rstrip("¶") == "Salom dunyo"
    assert bosh.select_one(".toctree-wrapper a").get_text() == "Ikkinchi sahifa"
    assert bosh.select_one("#searchbox h3").get_text() == "Tez qidirish"


def test_a_catalogue_message_keeps_its_placeholders_and_markup(kitob):
    from qurilish.yozuvda import _xabar

    _, _, y = kitob
    assert _xabar(y, 'Sahifa %(sphinx_version)s, %s va {type}: <a href="sahifa.html">sahifa</a>&#8212;soʻz') \
        == 'Σαhifα %(sphinx_version)s, %s vα {type}: <a href="sahifa.html">ςαhifα</a>&#8212;ςøz'


def test_html_the_extensions_write_is_written_in_the_script_but_its_code_and_markup_are_not(kitob):
    from qurilish.yozuvda import html_yoz

    _, _, y = kitob
    asl = ('<p class="yuklab-olish">Yuklab olish: <a href="narx.ipynb" download>Jupyter daftari '
           '(.ipynb, 100 kB)</a> &#183; <code>narx.ipynb</code> ni oching</p>\n<!-- izoh -->')
    assert html_yoz(y, asl) == (
        '<p class="yuklab-olish">Yuklαb oliʃ: <a href="narx.ipynb" download>Jupyter dαftαri '
        '(.ipynb, 100 kB)</a> &#183; <code>narx.ipynb</code> ni oching</p>\n<!-- izoh -->')


# --- the chapter itself (after the build) --------------------------------------------------


def test_the_script_switch_links_the_same_page_in_each_other_script():
    from qurilish.yozuvda import yozuv_havolalari

    yozuvlar, asl = [("kirill", "Кирилл", "uz-Cyrl"), ("oyna", "Oyna", "uz-Zyyy")], ("", "Lotin", "uz")
    assert yozuv_havolalari("book/attention/narx", "", yozuvlar, asl) == [
        {"nom": "kirill", "sarlavha": "Кирилл", "til": "uz-Cyrl", "href": "../../kirill/book/attention/narx.html"},
        {"nom": "oyna", "sarlavha": "Oyna", "til": "uz-Zyyy", "href": "../../oyna/book/attention/narx.html"}]
    # from an edition: the source's pages first (the site's root is one folder up), then the others
    assert [(h["nom"], h["href"]) for h in yozuv_havolalari("book/attention/narx", "kirill", yozuvlar, asl)] == [
        ("lotin", "../../../book/attention/narx.html"), ("oyna", "../../../oyna/book/attention/narx.html")]
    assert [h["href"] for h in yozuv_havolalari("search", "kirill", yozuvlar, asl)] == ["../search.html",
                                                                                        "../oyna/search.html"]


@pytest.mark.build
def test_the_site_publishes_the_chapter_in_cyrillic_beside_the_latin(qurilgan):
    """make book writes the edition from the Latin build's reading into the site's kirill/: every
    page, its prose and interface in Cyrillic, its code blocks exactly the Latin pages' ones; each
    page of either script links to the same page in the other; the glossary in Cyrillic order."""
    from conftest import ILDIZ
    from qurish import pdf_nomi, tekshir

    sayt = qurilgan / "sayt"
    lotin, kirill = sayt / "book" / "attention", sayt / "kirill" / "book" / "attention"
    y = Yozuv.oqi("kirill")
    sahifalar = sorted(p.name for p in lotin.glob("*.html"))
    assert sahifalar and sorted(p.name for p in kirill.glob("*.html")) == sahifalar
    for nom in sahifalar:
        l, k = _sahifa(lotin, nom[:-5]), _sahifa(kirill, nom[:-5])
        assert k.html["lang"] == "uz-Cyrl", nom
        assert [p.get_text() for p in k.select("div.highlight pre")] == \
               [p.get_text() for p in l.select("div.highlight pre")], f"{nom}: a code block changed"
        # the switch, both ways
        a, b = l.select_one("a.kitob-yozuv"), k.select_one("a.kitob-yozuv")
        assert (a["href"], a.get_text(), a["lang"]) == (f"../../kirill/book/attention/{nom}", "Кирилл", "uz-Cyrl")
        assert (b["href"], b.get_text(), b["lang"]) == (f"../../../book/attention/{nom}", "Lotin", "uz")
        assert (lotin / a["href"]).resolve() == (kirill / nom).resolve()
        assert (kirill / b["href"]).resolve() == (lotin / nom).resolve()
        # the head's script that follows the remembered choice knows the same addresses
        assert json.dumps({"kirill": a["href"]}) in str(l.head) and json.dumps({"lotin": b["href"]}) in str(k.head)
    narx = _sahifa(kirill, "narx")
    assert narx.h1.get_text().startswith("Attention нархи"), narx.h1.get_text()
    assert narx.select_one(".search-button__default-text").get_text().strip() == "Қидириш"
    assert narx.select_one("p.yuklab-olish").get_text().startswith("Юклаб олиш:")
    # the glossary: every term, in the Cyrillic alphabet's order, its letter bar in Cyrillic letters
    atamalar = [dt.get_text().rstrip("#") for dt in _sahifa(kirill, "atamalar").select("dl.glossary > dt")]
    assert len(atamalar) == len(_sahifa(lotin, "atamalar").select("dl.glossary > dt")) > 100
    assert atamalar == sorted(atamalar, key=y.tartib_kaliti) != sorted(atamalar)
    harflar = [h.get_text() for h in _sahifa(kirill, "atamalar").select("nav.kitob-harflar a")]
    assert harflar[:3] == ["А", "Б", "В"] and {"Ў", "Қ", "Ҳ"} <= set(harflar) and harflar[-1] == "A–Z", harflar
    # the figures: drawn in Cyrillic by the same execution, from the same figure objects (each
    # light and dark picture another file, there); every lesson's figure
    for nom in sahifalar:
        lr = [i["src"] for i in _sahifa(lotin, nom[:-5]).select("figure img")]
        kr = [i["src"] for i in _sahifa(kirill, nom[:-5]).select("figure img")]
        assert len(lr) == len(kr) and not set(lr) & set(kr), f"{nom}: a figure is not drawn in Cyrillic"
        assert all((kirill / s).is_file() for s in kr), nom
        # ... and the text a screen reader reads for each picture is the Latin one, written in Cyrillic
        la = [i.get("alt", "") for i in _sahifa(lotin, nom[:-5]).select("figure img")]
        ka = [i.get("alt", "") for i in _sahifa(kirill, nom[:-5]).select("figure img")]
        assert ka == [y.matn(a) for a in la] and (not la or ka != la), nom
    # the PDF the edition's download menu names is beside it: its own (test below)
    pdf = pdf_nomi(tekshir(ILDIZ))
    assert (sayt / "kirill" / pdf).read_bytes() == (qurilgan / "yozuv-kirill-latex" / pdf).read_bytes()


#: A word with the Latin script's own signs (oʻ, gʻ, maʼlumot): in the Cyrillic PDF only in code.
LOTIN_SOZ = re.compile(r"[A-Za-z]*[ʻʼ][A-Za-zʻʼ]*")


@pytest.mark.build
def test_the_cyrillic_pdf_is_the_same_book_in_cyrillic(qurilgan):
    """The edition's PDF, written from the same reading by the LaTeX builder: its title page,
    contents, captions, page references, solutions and index in Cyrillic, the index in the
    Cyrillic alphabet's order; its figures the ones drawn in Cyrillic; no Uzbek word in Latin
    letters outside code; as many pages as the Latin PDF, give or take a few."""
    from conftest import ILDIZ
    from qurish import pdf_nomi, tekshir

    nom = pdf_nomi(tekshir(ILDIZ))
    papka, y = qurilgan / "yozuv-kirill-latex", Yozuv.oqi("kirill")

    def matni(pdf: Path) -> str:
        return subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout

    kirill, lotin = matni(papka / nom), matni(qurilgan / "latex" / nom)
    assert kirill.splitlines()[:3] == [y.matn(q) for q in lotin.splitlines()[:3]] != lotin.splitlines()[:3]
    for soz in ("Mundarija", "1-bob", "Koʻrsatkich", "Javoblar", "Adabiyotlar", "1.1-rasm", "1.1-jadval"):
        assert soz in lotin and soz not in kirill and y.matn(soz) in kirill, soz
    assert re.search(r"\(\d+-бет\)", kirill) and "-bet)" not in kirill
    # every word in Latin letters with oʻ, gʻ or ʼ is in the code the PDF prints, or an example of
    # the Latin script itself ({lotin})
    tex = (papka / nom.replace(".pdf", ".tex")).read_text(encoding="utf-8")
    kod = " ".join(re.findall(r"\\begin\{sphinxVerbatim\}.*?\\end\{sphinxVerbatim\}|\\sphinxcode\{.*?\}\}"
                              r"|\\DUrole\{lotin\}\{.*?\}", tex, flags=re.S))
    lotinda = {s for s in LOTIN_SOZ.findall(kirill.replace("\\n", " ")) if len(s) > 1}
    assert len(LOTIN_SOZ.findall(lotin)) > 1000 and lotinda and lotinda <= set(LOTIN_SOZ.findall(kod)), \
        sorted(lotinda - set(LOTIN_SOZ.findall(kod)))
    # its figures are the Cyrillic drawings, each another file than the Latin PDF's
    rasmlar = [re.findall(r"\\sphinxincludegraphics(?:\[[^]]*\])?\{\{([^}]*)\}", t) for t in
               (tex, (qurilgan / "latex" / nom.replace(".pdf", ".tex")).read_text(encoding="utf-8"))]
    assert len(rasmlar[0]) == len(rasmlar[1]) > 10 and not set(rasmlar[0]) & set(rasmlar[1])
    # the index: its letters in the Cyrillic alphabet's order, the words kept in Latin last
    korsatkich = kirill.split(y.matn("Koʻrsatkich"), 2)[2]        # after the contents' line, its heading
    harflar = [q for q in korsatkich.splitlines() if q in y.alifbo or q.lower() in y.alifbo or q == "A–Z"]
    assert len(harflar) > 15 and harflar[-1] == "A–Z", harflar
    assert harflar[:-1] == sorted(harflar[:-1], key=y.tartib_kaliti), harflar
    sonlar = [int(re.search(r"Pages:\s+(\d+)", subprocess.run(["pdfinfo", str(p)], capture_output=True, text=True).stdout)[1])
              for p in (papka / nom, qurilgan / "latex" / nom)]
    assert abs(sonlar[0] - sonlar[1]) <= 8, sonlar


#: On a Cyrillic page, what stays in Latin letters on purpose: the switch back to the Latin pages.
LOTINDA_QOLADI = {"Lotin"}


@pytest.mark.build
def test_no_uzbek_word_is_left_in_latin_letters_on_a_cyrillic_page(qurilgan):
    """Every word of a Cyrillic page a reader sees or hears (its text, its title, aria-label,
    placeholder and alt attributes, the toggles' hints) that the script would write otherwise is
    written in it: the interface, the download menu, hidden cells' prompts, the maps.  Code,
    formulas, outputs and the works cited stay as written; the maps' words are checked in
    the edition's copy of xarita.js."""
    from bs4 import NavigableString

    from qurilish.xarita import sozlari
    from qurilish.yozuvda import _xabar

    y = Yozuv.oqi("kirill")
    sayt = qurilgan / "sayt" / "kirill"
    qolgan: dict[str, set] = {}
    for fayl in sorted(f for f in sayt.rglob("*.html") if f.parts[len(sayt.parts)] != "_static"):
        s = BeautifulSoup(fayl.read_text(encoding="utf-8"), "html.parser")
        for t in s.select("pre, code, kbd, .highlight, .katex, .cell_output, .output, div.citation, style, "
                          "svg, span.lotin"):
            t.decompose()
        for em in s.find_all("em"):          # a gloss's English: ингл. *vanishing gradient*
            if isinstance(em.previous_sibling, str) and re.search(r"ингл\.\s*$", em.previous_sibling):
                em.decompose()
        # text (not the doctype, comments or scripts)
        matnlar = [t for t in s.find_all(string=True) if type(t) is NavigableString and t.parent.name != "script"]
        # a citation's title is the work cited: its names and title as published, but the words
        # the book's style joins the names with are the book's
        for havola in s.select('a[href*="adabiyotlar.html#"][title], a[href^="#"][title]'):
            if re.search(r"\b(va|boshq)\b", havola["title"]):
                qolgan.setdefault(havola["title"], set()).add(fayl.name)
            del havola["title"]
        matnlar += [t[a] for t in s.find_all(True) for a in ("title", "aria-label", "placeholder", "alt",
                                                             "data-havola") if isinstance(t.get(a), str)]
        matnlar += re.findall(r"let toggleHint\w+ = '([^']*)'", str(s))
        for matn in matnlar:
            for soz in (m.group(0) for m in SOZ.finditer(str(matn))):   # as the script's writer splits
                if soz not in LOTINDA_QOLADI and y.soz(soz) != soz:
                    qolgan.setdefault(soz, set()).add(fayl.relative_to(sayt).as_posix())
    assert not qolgan, qolgan
    sozlar = sozlari((sayt / "_static" / "xarita.js").read_text(encoding="utf-8"))
    assert sozlar["Hamma"] == y.matn("Hamma ogʻirliklar jadvalda") and all(
        v == _xabar(y, v) for v in sozlar.values())


#: Elements whose ends are word boundaries (the text of a page is read with nothing added between
#: inline elements, so that a suffix written after a formula or code stays joined to it).
BLOKLAR = ["p", "li", "dt", "dd", "td", "th", "caption", "figcaption", "h1", "h2", "h3", "h4", "h5",
           "h6", "div", "section", "nav", "header", "footer", "aside", "title", "button", "label",
           "option", "summary", "br"]


def _kirill_sozlari(sayt: Path) -> tuple[dict[str, set], dict[str, set]]:
    """Every Cyrillic word of the edition's pages, text and what a reader hears (title, aria-label,
    alt), and every Cyrillic suffix joined to something written as it is (code, a formula, a word
    kept in Latin, a number: GQAнинг, «la»лар, 3-да), or after it with the book's no-break space
    (T²\xa0га, 1\xa0дан), after a closing quote or bracket («юз»ни), and every part after a
    hyphen (билан-чи, 1.5-расм; a suffix or a word): ({word: pages}, {suffix or part: pages})."""
    kirill = "А-Яа-яЁёЎўҚқҒғҲҳЪъЬь"
    sozlar: dict[str, set] = {}
    dumlar: dict[str, set] = {}
    for fayl in sorted(f for f in sayt.rglob("*.html") if f.parts[len(sayt.parts)] != "_static"):
        nom = fayl.relative_to(sayt).as_posix()
        s = BeautifulSoup(fayl.read_text(encoding="utf-8"), "html.parser")
        for t in s.select("script, style, .kitob-harflar, .genindex-jumpbox"):
            t.decompose()
        # written as it is: a stand-in Latin word, so that a suffix joined to it is seen as one
        for t in s.select("pre, code, kbd, .highlight, .katex, .cell_output, .output, div.citation, svg, span.lotin"):
            t.replace_with("X")
        for t in s.find_all(BLOKLAR):
            t.insert(0, " ")
            t.append(" ")
        matnlar = [s.get_text("")] + [t[a] for t in s.find_all(True) for a in ("title", "aria-label", "alt",
                                                                               "data-havola")
                                       if isinstance(t.get(a), str)]
        for matn in matnlar:
            for mos in re.finditer(r"\w+(?:-\w+)*", matn):
                qismlar = mos.group(0).split("-")
                boglangan = matn[mos.start() - 1:mos.start()] in ("\xa0", "»", "”", ")")
                for k, q in enumerate(qismlar):
                    m = re.fullmatch(rf"(.*?)([{kirill}]+)", q)
                    if not m or (len(q) == 1 and q.isupper()):     # none, or a letter as a label
                        continue
                    oldin, dum = m.groups()
                    if oldin or k or boglangan:
                        dumlar.setdefault(dum, set()).add(nom)
                    else:
                        sozlar.setdefault(dum, set()).add(nom)
    return sozlar, dumlar


@pytest.mark.build
def test_every_cyrillic_word_is_in_the_dictionary_or_looked_at(qurilgan):
    """Every Cyrillic word of the edition is in hunspell-uz (as it is, or as a stem it knows and
    Uzbek endings) or its stem is in lugatda_yoq.txt, which lists the stems the dictionary lacks,
    each looked at; every suffix joined to a word kept as written is a chain of Uzbek endings.
    A misspelt word, or one the converter got wrong, is in neither."""
    y = Yozuv.oqi("kirill")
    sozlar, dumlar = _kirill_sozlari(qurilgan / "sayt" / "kirill")
    assert len(sozlar) > 2000 and len(dumlar) > 10, (len(sozlar), len(dumlar))
    yoq = y.lugatda_yoqlar(sozlar, [d for d in dumlar if d not in sozlar])
    assert not yoq, "\n".join(f"{s}: {', '.join(sorted(sozlar.get(s) or dumlar.get(s)))}" for s in yoq)
