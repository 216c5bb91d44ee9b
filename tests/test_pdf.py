"""The PDF: built with the site, Uzbek, every figure/table/glossary entry, fonts embedded, clean log."""

import json
import re
import subprocess
import zipfile
from pathlib import Path

import pytest
from bogin import qator_oxirlari
from bs4 import BeautifulSoup
from conftest import DARSLAR, ILDIZ, SAHIFALAR, bob_html

from qurilish.pdf import tartib_kaliti

pytestmark = pytest.mark.build
NOM = "attention-va-transformer"
#: The chapter's opening page's download line (book/_ext/qurilish/yuklamalar.py): link text -> address,
#: relative to book/attention/; a lesson's line, with its own source and notebook.
YUKLAB = {"PDF": f"../../{NOM}.pdf", "bobning hamma darslari (.zip)": "attention.zip"}
DARS_YUKLAB = {"Jupyter daftari (.ipynb)": "{dars}.ipynb", "Python skripti (.py)": "{dars}.py",
               "bobning hamma darslari (.zip)": "attention.zip"}
#: A download link's size, as it says it: "PDF (758 kB)", "Python skripti (.py, 15 kB)".
HAJM = re.compile(r"(?: \(|, )(\d+(?:,\d+)?[\u00a0 ][kM]B)(?=\)$)\)?")


def _havolalar(qator, papka: Path) -> dict[str, str]:
    """A download line's links: label without its size -> address; each size is its file's."""
    from qurilish.yuklamalar import hajm_matni

    havolalar = {}
    for a in qator.find_all("a"):
        m = HAJM.search(_matni(a))
        assert m, f"{_matni(a)!r} does not say its size"
        assert m[1] == " ".join(hajm_matni((papka / a["href"]).stat().st_size).split()), _matni(a)
        havolalar[HAJM.sub(lambda m: ")" if m[0].startswith(",") else "", _matni(a))] = a["href"]
    return havolalar


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


#: A page's text block (A4, in pt): the running header stands above it, the footer below.
MATN_BLOKI = ["-x", "0", "-y", "55", "-W", "596", "-H", "730"]


@pytest.fixture(scope="module")
def pdf_bbox(qurilgan):
    """The PDF's words with their boxes (pdftotext -bbox, XHTML: one <page> each)."""
    natija = subprocess.run(["pdftotext", "-bbox", str(qurilgan / "latex" / f"{NOM}.pdf"), "-"],
                            capture_output=True, text=True, check=True)
    return natija.stdout


@pytest.fixture(scope="module")
def pdf_qatorlari(qurilgan):
    """The PDF's text line by line as printed, without running headers and footers: pdftotext
    -raw, which leaves a word broken at a line's end in two (without -raw it joins them)."""
    natija = subprocess.run(["pdftotext", "-raw", *MATN_BLOKI, str(qurilgan / "latex" / f"{NOM}.pdf"), "-"],
                            capture_output=True, text=True, check=True)
    return natija.stdout


def _oqi(fayl) -> BeautifulSoup:
    return BeautifulSoup(fayl.read_text(encoding="utf-8"), "html.parser")


@pytest.fixture(scope="module")
def sahifa_html(qurilgan):
    """The chapter's pages, in order, parsed as one."""
    return BeautifulSoup(bob_html(qurilgan), "html.parser")


def _matni(teg) -> str:
    return " ".join(teg.get_text().split())


def _yuklab_qatori(sahifa) -> tuple:
    """The download line right under the page's title, and the paragraph after it."""
    sarlavha = sahifa.select_one("main article section > h1")
    assert sarlavha is not None
    qator = sarlavha.find_next_sibling()
    assert qator.name == "p" and "yuklab-olish" in qator.get("class", []), qator
    assert _matni(qator).startswith("Yuklab olish:"), _matni(qator)
    assert all(a.has_attr("download") for a in qator.find_all("a"))
    izoh = qator.find_next_sibling()
    assert izoh.name == "details" and "yuklab-izoh" in izoh.get("class", []), izoh
    return sarlavha, qator, izoh.find("p", recursive=False)


def test_pdf_is_in_the_site_and_the_pages_link_to_it(qurilgan):
    sayt = qurilgan / "sayt"
    papka = sayt / "book" / "attention"
    assert (sayt / f"{NOM}.pdf").read_bytes()[:5] == b"%PDF-"
    # the title page: its own "PDF yuklab olish" link
    kirish = _oqi(sayt / "book" / "index.html")
    havolalar = [a for a in kirish.select("p.yuklab-olish a") if _matni(a).startswith("PDF yuklab olish")]
    assert len(havolalar) == 1 and havolalar[0].get("href") == f"../{NOM}.pdf"
    assert _havolalar(havolalar[0].parent, sayt / "book") == {"PDF yuklab olish": f"../{NOM}.pdf"}
    assert havolalar[0].has_attr("download")
    # the chapter's opening page: the PDF and the archive of every lesson
    sarlavha, qator, izoh = _yuklab_qatori(_oqi(papka / "index.html"))
    assert _matni(sarlavha).startswith("Attention va Transformer")
    assert _havolalar(qator, papka) == YUKLAB
    assert "mexanizm.ipynb" in _matni(izoh) and "requirements.txt" in _matni(izoh)
    assert (papka / YUKLAB["PDF"]).resolve() == (sayt / f"{NOM}.pdf").resolve()
    with zipfile.ZipFile(papka / "attention.zip") as arxiv:
        assert arxiv.testzip() is None
        nomlar = set(arxiv.namelist())
    assert {"attention/requirements.txt", "attention/README.md", "attention/chapter_code/modellar.py"} <= nomlar
    # each lesson: its notebook and its script as the page reads (test_daftar.py), executed, next
    # to its page and in the archive; the archive's copies are the same bytes
    for dars in DARSLAR:
        nom = dars.rsplit("/", 1)[1]
        _, qator, _ = _yuklab_qatori(_oqi(sayt / f"{dars}.html"))
        assert _havolalar(qator, papka) == {k: v.format(dars=nom) for k, v in DARS_YUKLAB.items()}
        nb = json.loads((papka / f"{nom}.ipynb").read_text(encoding="utf-8"))
        assert sum(bool(k.get("outputs")) for k in nb["cells"] if k["cell_type"] == "code") >= 1, dars
        with zipfile.ZipFile(papka / "attention.zip") as arxiv:
            assert arxiv.read(f"attention/{nom}.py") == (papka / f"{nom}.py").read_bytes()
            assert arxiv.read(f"attention/{nom}.ipynb") == (papka / f"{nom}.ipynb").read_bytes()
    # the executed notebooks are next to their pages, not at the site's root
    assert not list(sayt.glob("*.ipynb"))


def test_pdf_text_is_uzbek_and_complete(pdf_matn, sahifa_html):
    for kerak in ("Attention va Transformer", "Mundarija", "1-bob", "Koʻrsatkich",
                  "Mashqlar", "Atamalar", "Yechim"):
        assert kerak in pdf_matn, kerak
    # every figure and table number of the web page, numbered within the chapter, is in the PDF
    raqamlar = [_matni(s) for s in sahifa_html.select(".caption-number")]
    assert len(raqamlar) >= 10
    for r in raqamlar:
        assert re.fullmatch(r"1\.\d+-(?:rasm|jadval)", r), r
        assert r in pdf_matn, r
    # every table header of the web page, and every glossary term
    sarlavhalar = {_matni(th) for th in sahifa_html.select("th.head")}
    assert len(sarlavhalar) >= 10
    for th in sarlavhalar:
        assert th in pdf_matn, th
    atamalar = []
    for dt in sahifa_html.select('dt[id^="term-"]'):
        dt = BeautifulSoup(str(dt), "html.parser").dt         # a copy without its "#" link
        for a in dt.select("a.headerlink"):
            a.decompose()
        atamalar.append(_matni(dt))
    assert len(atamalar) >= 10
    for a in atamalar:
        assert a and a in pdf_matn, a


def test_the_chapter_is_one_chapter_of_the_pdf_its_lessons_its_sections(qurilgan, pdf_matn):
    """The same order and numbering as the site; a link to another lesson gives its page."""
    tex = (qurilgan / "latex" / f"{NOM}.tex").read_text(encoding="utf-8")
    tuzilish = re.findall(r"^\\(chapter|section)\{(.*)\}$", tex, flags=re.M)
    sarlavhalar = []
    for d in [d for d in SAHIFALAR if d not in ROYXAT_SAHIFALARI]:     # see the next test
        sahifa = _oqi(qurilgan / "sayt" / f"{d}.html").select_one("main article section > h1")
        a = sahifa.find("a", class_="headerlink")
        if a:
            a.decompose()
        sarlavhalar.append(_matni(sahifa))
    assert [(t, s.replace("\\sphinxhyphen{}", "-")) for t, s in tuzilish] == \
        [("chapter", sarlavhalar[0])] + [("section", s) for s in sarlavhalar[1:]] \
        + [("section", "Javoblar")], tuzilish               # the answers close the chapter
    # the opening page's list of pages: each with the page it starts on, a lesson with its reading
    # time, the glossary (looked up, not read through) without one
    for s in sarlavhalar[1:]:
        vaqt = "" if s == "Atamalar" else r" — taxminan \d+ daqiqa"
        assert re.search(re.escape(" ".join(s.split())) + r" \(\d+-bet\)" + vaqt, pdf_matn), s
    assert not re.search(r"Atamalar \(\d+-bet\) — taxminan", pdf_matn)


#: The pages that hold a {bibliography}: on the web the list of references, in the PDF its end.
ROYXAT_SAHIFALARI = [d for d in SAHIFALAR if (ILDIZ / f"{d}.md").is_file()
                     and "{bibliography}" in (ILDIZ / f"{d}.md").read_text(encoding="utf-8")]


def test_the_references_are_listed_once_at_the_books_end(qurilgan, pdf_qatorlari):
    """The contents names "Adabiyotlar" once, the back matter's list (pdf.py drops the web's page of
    references, which on paper would be a heading without its list), and the opening page's list
    of lessons does not send a reader to a page that is not there ("??-bet")."""
    assert ROYXAT_SAHIFALARI, "no page of the chapter holds the {bibliography}"
    mundarija = re.split(r"^\f*Mundarija$", pdf_qatorlari, flags=re.M)[1].split("Koʻrsatkich")[0]
    assert len(re.findall(r"^(?:[\d.]+ )?Adabiyotlar\b", mundarija, flags=re.M)) == 1, mundarija
    tex = (qurilgan / "latex" / f"{NOM}.tex").read_text(encoding="utf-8")
    assert "\\begin{sphinxthebibliography}" in tex and "??" not in pdf_qatorlari
    for d in ROYXAT_SAHIFALARI:
        assert f"{{{d}::doc}}" not in tex, d
    # ... and the list of lessons ends with the answers and the references, on the contents' pages
    sahifa = dict(re.findall(r"^(?:[\d.]+ )?(Javoblar|Adabiyotlar)[ .]*?(\d+)$", mundarija, flags=re.M))
    assert sahifa.keys() == {"Javoblar", "Adabiyotlar"}, mundarija
    royxat = re.split(r"^\f*Bob tarkibi$", pdf_qatorlari, flags=re.M)[1].split("Oʻqish vaqti taxminiy")[0]
    # an address breaks only after a slash: not "https:" / "//arxiv.org", not "2407." / "21783"
    assert not re.search(r"https?:$|^//|arxiv\.org/abs/\d+\.$", pdf_qatorlari, flags=re.M)
    assert re.findall(r"^\d+\. (Javoblar|Adabiyotlar) \((\d+)-bet\)$", royxat, flags=re.M) == [
        ("Javoblar", sahifa["Javoblar"]), ("Adabiyotlar", sahifa["Adabiyotlar"])], royxat
    # every item of that list set alike: a link in the cross-reference style (an editor saw the
    # last two upright under nine italic ones)
    tex_royxat = tex.split("Bob tarkibi}", 1)[1].split("\\end{enumerate}", 1)[0]
    bandlar = tex_royxat.split("\\item ")[1:]
    assert len(bandlar) >= 3 and all("\\sphinxcrossref{" in b for b in bandlar), tex_royxat


def qavs_ichidagi_betlar(matn: str) -> list[str]:
    """Each "(12-bet)" the PDF adds after a link that already stands inside brackets: "(… «Dars»
    (12-bet) darsi)", walking back from it to an unclosed "(" within the paragraph."""
    topilgan = []
    for m in re.finditer(r"\(\d+-bet\)", matn):
        chuqurlik = 0
        for belgi in reversed(matn[max(0, m.start() - 400):m.start()].split("\n\n")[-1]):
            if belgi == ")":
                chuqurlik += 1
            elif belgi == "(":
                if chuqurlik == 0:
                    topilgan.append(matn[max(0, m.start() - 60):m.end() + 20])
                    break
                chuqurlik -= 1
    return topilgan


def test_a_page_reference_never_opens_a_bracket_inside_brackets(pdf_qatorlari):
    """An editor read «(«Transformer bloki va KV kesh» (38-bet) darsi)» three times: on paper a
    link inside brackets gets its page in a second pair. The prose keeps such links out of brackets."""
    assert qavs_ichidagi_betlar(pdf_qatorlari) == []
    assert qavs_ichidagi_betlar("bor («Dars» (38-bet) darsi), T") != []
    assert qavs_ichidagi_betlar("(bir) «Dars» (38-bet) darsida (ikki)") == []


def test_the_index_sends_a_reader_to_the_lessons_that_use_a_term(qurilgan):
    """A term a lesson links in its prose has in the PDF index its glossary page in bold and the
    pages that use it (makeindex's .ind: one \\item an entry, a \\hyperpage a plain page)."""
    ind = (qurilgan / "latex" / f"{NOM}.ind").read_text(encoding="utf-8")
    yozuvlar = re.findall(r"\\item (.*?)(?=\n\s*\\item|\n\s*\\indexspace|\n\s*\\end)", ind, flags=re.S)
    assert len(yozuvlar) >= 90
    assert all(y.count("spxpagem") == 1 for y in yozuvlar), [y for y in yozuvlar if y.count("spxpagem") != 1]
    bir_nechta = [y for y in yozuvlar if "\\hyperpage" in y]
    assert len(bir_nechta) >= 60, len(bir_nechta)


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


def ortiqcha_qutilar(log: str) -> list[str]:
    """Every overfull box of a LaTeX log over 1 pt, wide or high: what runs into a margin."""
    return [m.group(0) for m in re.finditer(r"Overfull \\[hv]box \(([\d.]+)pt too (?:wide|high)\)[^\n]*", log)
            if float(m.group(1)) > 1]


def test_latex_log_has_no_missing_glyph_or_overfull_box(qurilgan):
    log = (qurilgan / "latex" / f"{NOM}.log").read_text(errors="replace")
    assert "Missing character" not in log
    assert not ortiqcha_qutilar(log)


def test_the_overfull_box_check_reads_both_kinds():
    log = ("Overfull \\hbox (6.96672pt too wide) in paragraph at lines 4245--4245\n"
           "Overfull \\vbox (2.05582pt too high) detected at line 1595\n"
           "Overfull \\vbox (0.96797pt too high) detected at line 597\n")
    assert ortiqcha_qutilar(log) == [
        "Overfull \\hbox (6.96672pt too wide) in paragraph at lines 4245--4245",
        "Overfull \\vbox (2.05582pt too high) detected at line 1595"]


def _bet_raqami(bet: str) -> int | None:
    """The page number a page prints in its footer (its last line's first or last number)."""
    qatorlar = [q for q in bet.splitlines() if q.strip()]
    m = re.match(r"^\s*(\d+)\s", qatorlar[-1]) or re.search(r"\s(\d+)\s*$", qatorlar[-1]) if qatorlar else None
    return int(m.group(1)) if m else None


def test_solutions_wait_at_the_chapters_end_with_links_both_ways(pdf_betlar, sahifa_html):
    """Each exercise says on which page of «Javoblar» its solution is; there the solution says
    on which page its exercise is; the solutions are no longer under their exercises."""
    webda = [d for d in sahifa_html.select(".admonition.dropdown")
             if _matni(d.select_one(".admonition-title")) == "Yechim"]
    assert len(webda) >= 5, len(webda)
    betlar = {_bet_raqami(b): b for b in pdf_betlar if b.strip()}
    mashqlar = [(raqam, int(n)) for raqam, b in betlar.items()
                for n in re.findall(r"Yechim: «Javoblar» boʻlimida, (\d+)-bet", b)]
    assert len(mashqlar) == len(webda), (len(mashqlar), len(webda))
    # ... each under its exercise's number, even when the exercise runs over several paragraphs
    javob_bosh = re.findall(r"(?m)^(\d+-mashq|Yechim) \((\d+)-bet\)$", "\n".join(pdf_betlar))
    assert len(javob_bosh) == len(webda) and all(n != "Yechim" for n, _ in javob_bosh), javob_bosh
    # ... which names the page where its exercise begins (an editor found one naming the next
    # page, where only the exercise's «Yechim» line had gone): the exercises and the solutions
    # are in the same order
    for (bet, javob), (nom, boshi) in zip(mashqlar, javob_bosh):
        boshi = int(boshi)
        assert javob in betlar and f"{nom} ({boshi}-bet)" in betlar[javob], \
            f"the exercise on page {bet} sends the reader to page {javob}, which does not send back"
        assert bet - 1 <= boshi <= bet and re.search(rf"(?m)^\s*{nom}\b", betlar[boshi]), \
            f"{nom}'s solution sends the reader to page {boshi}; its «Yechim» line is on page {bet}"
    # the solutions' text is in the PDF once: in «Javoblar», after the exercises
    matn = " ".join(" ".join(pdf_betlar).split())
    javoblar = matn.index("Javoblar Attention mexanizmi")
    for d in webda:
        boshi = _matn_boshi(d)
        assert matn.count(boshi) == 1 and matn.index(boshi) > javoblar, boshi
    # a solution's code (a folded cell after it on the web) and what it printed go with it
    kodlar = sahifa_html.select("div.cell.tag_hide-cell div.cell_output pre")
    assert kodlar, "no solution has code: the check proved nothing"
    for k in kodlar:
        chiqish = " ".join(k.get_text().split()[:4])
        # after «Javoblar» (a lesson may print the same words before: transformer's «eng katta
        # farq: 6,0·10⁻⁸» is flash's first solution's too)
        assert chiqish in matn[javoblar:], chiqish


def _matn_boshi(yechim) -> str:
    """Three words of a solution's text that are words on paper too: the first run of three
    that holds no formula (a formula's web text is its TeX source)."""
    nusxa = BeautifulSoup(str(yechim), "html.parser")
    nusxa.select_one(".admonition-title").decompose()
    for f in nusxa.select(".katex, .math"):
        f.replace_with(" ¤ ")
    for qism in _matni(nusxa).split("¤"):
        if len(qism.split()) >= 3:
            return " ".join(qism.split()[:3])
    raise AssertionError(f"no three words without a formula in {_matni(nusxa)[:80]!r}")


#: Two numbers of a list in one table cell: "0,940; 0,990".
_ROYXAT = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')
#: A table cell's words are set smaller than the text (9 pt, PREAMBULA's \footnotesize): a word box
#: under 10 pt high is in a cell (or code); the text's, at 11 pt, is justified by design.
KATAK_BOYI = 10


def royxat_oraliqlari(bbox_html: str) -> list[float]:
    """The gaps (pt) between "0,940;" and the number after it on the same line of a table cell."""
    sozlar = [(x0, y0, x1, t) for x0, y0, x1, y1, t in _ROYXAT.findall(bbox_html)
              if float(y1) - float(y0) < KATAK_BOYI]
    return [float(b[0]) - float(a[2]) for a, b in zip(sozlar, sozlar[1:])
            if re.fullmatch(r"\d[\d,]*;", a[3]) and re.match(r"\d", b[3]) and abs(float(a[1]) - float(b[1])) < 1]


def test_table_cells_are_not_justified(pdf_bbox):
    """A list of numbers in a narrow cell keeps its spaces plain: justified, a cell spread
    "0,940;" and "0,940;" 12 pt apart (a space of the text is 3.5 pt)."""
    oraliqlar = royxat_oraliqlari(pdf_bbox)
    assert len(oraliqlar) >= 5, "no lists of numbers in the tables: the check proved nothing"
    assert max(oraliqlar) < 6, sorted(oraliqlar)[-5:]


#: The relations whose spaces are measured in the text (at the text's size: not code or a cell).
MUNOSABATLAR = ("=", "≤", "≥")


def munosabat_oraliqlari(bbox_html: str) -> list[tuple[float, str]]:
    """The wider of the two gaps (pt) around each relation of an inline formula of the text
    ("𝑖 = 0"), with the three words."""
    oraliqlar = []
    for bet in bbox_html.split("<page ")[1:]:
        sozlar = [(float(x0), float(y0), float(x1), float(y1), t) for x0, y0, x1, y1, t in _ROYXAT.findall(bet)]
        for a, b, c in zip(sozlar, sozlar[1:], sozlar[2:]):
            if b[4] in MUNOSABATLAR and b[3] - b[1] >= KATAK_BOYI and abs(a[1] - b[1]) < 3 \
                    and abs(c[1] - b[1]) < 3 and a[2] < b[0] < c[0]:
                oraliqlar.append((round(max(b[0] - a[2], c[0] - b[2]), 1), f"{a[4]} {b[4]} {c[4]}"))
    return oraliqlar


def test_a_formula_in_the_text_keeps_its_spaces(pdf_bbox):
    """Ragged right still stretches a loose line: the spaces around "=" in "(i = 0, 1, ...)"
    stay as a formula sets them (about 3 pt at 11 pt; an editor measured 5-15 pt), and the
    stretch goes to the spaces between words."""
    oraliqlar = munosabat_oraliqlari(pdf_bbox)
    assert len(oraliqlar) >= 30, f"only {len(oraliqlar)} relations in the text: the check proved nothing"
    keng = [o for o in oraliqlar if o[0] > 5]
    assert not keng, f"relations set wider than a formula sets them: {sorted(keng)[-8:]}"


def test_the_relation_gap_check_measures_gaps():
    soz = '<word xMin="{}" yMin="100.0" xMax="{}" yMax="111.0">{}</word>'
    html_ = "<page " + soz.format(10, 14, "𝑖") + soz.format(27, 33, "=") + soz.format(36, 40, "0")
    assert munosabat_oraliqlari(html_) == [(13.0, "𝑖 = 0")]
    # code and table cells (under 10 pt) are not the text
    assert munosabat_oraliqlari(html_.replace('yMax="111.0"', 'yMax="109.0"')) == []


def test_the_justified_gap_check_measures_gaps():
    soz = '<word xMin="{}" yMin="100.0" xMax="{}" yMax="109.0">{}</word>'
    html_ = soz.format(10, 40, "0,940;") + soz.format(52, 82, "0,990") + soz.format(90, 99, "va")
    assert royxat_oraliqlari(html_) == [12.0]
    # the same words at the text's size (11 pt) are not a cell's
    assert royxat_oraliqlari(html_.replace('yMax="109.0"', 'yMax="111.0"')) == []


def test_no_page_is_blank_or_holds_only_a_header_or_footer(pdf_betlar):
    """A part starts on the next page (openany, pdf.py), so no page is left blank before it on a
    PDF read on a screen, and none holds only a running header or a page number."""
    yarim = [i + 1 for i, b in enumerate(pdf_betlar[:-1])
             if 0 < len([q for q in b.splitlines() if q.strip()]) <= 2]
    assert not yarim, f"pages that hold only a header or footer: {yarim}"
    bosh = [i + 1 for i, b in enumerate(pdf_betlar[:-1]) if not b.strip()]
    assert not bosh, f"blank pages: {bosh}"


def test_introduction_has_its_heading_and_header(pdf_betlar):
    """The root page's text opens with its own heading, not under a 'Mundarija' header."""
    betlar = pdf_betlar
    kirish = [b for b in betlar if "Bob nimani oʻrgatadi" in b]
    assert len(kirish) == 1, "the introduction is not on exactly one page"
    assert kirish[0].lstrip().startswith("Bob haqida"), kirish[0][:300]
    assert "Mundarija" not in kirish[0]
    mundarija = next(b for b in betlar if b.lstrip().startswith("Mundarija"))
    assert re.search(r"Bob haqida\s+\.*\s*1\b", mundarija), mundarija[:500]


def test_title_page_date_has_no_leading_zero(pdf_betlar):
    """The title page's date is Uzbek, "2026-yil 5-noyabr" (book/_ext/qurilish/pdf.py: sana), never "05-noyabr"."""
    oylar = "yanvar|fevral|mart|aprel|may|iyun|iyul|avgust|sentabr|oktabr|noyabr|dekabr"
    sana = re.search(rf"\b(\d{{4}})-yil (\d{{1,2}})-({oylar})\b", pdf_betlar[0])
    assert sana, pdf_betlar[0][:500]
    assert not sana.group(2).startswith("0"), sana.group()


def test_captions_are_written_as_on_the_web(pdf_matn, sahifa_html):
    """"1.1-rasm Matn" on paper as on the web: a space after the number, no colon."""
    assert not re.findall(r"\d+\.\d+-(?:rasm|jadval|roʻyxat):", pdf_matn), \
        re.findall(r"\d+\.\d+-(?:rasm|jadval|roʻyxat):.{0,30}", pdf_matn)[:5]
    webda = [" ".join(c.get_text(" ").split()) for c in sahifa_html.select("figcaption, caption")]
    webda = [w for w in webda if re.match(r"\d+\.\d+-(?:rasm|jadval) ", w)]
    assert len(webda) >= 10, webda
    for w in webda:
        boshi = " ".join(w.split()[:3])          # "1.1-jadval Kirishning birinchi"
        assert boshi in pdf_matn, f"the caption {boshi!r} is not written the same way in the PDF"


def test_a_table_and_its_caption_share_a_page(pdf_betlar, sahifa_html):
    """A caption never ends a page whose table begins the next: each table's caption and its
    first header cell are on one page."""
    jadvallar = [(" ".join(_matni(q) for q in t.caption.select(".caption-number, .caption-text")),
                  _matni(t.select_one("th"))) for t in sahifa_html.select("table")
                 if t.caption and t.select_one("th")]
    assert len(jadvallar) >= 10, len(jadvallar)
    betlar = [" ".join(b.split()) for b in pdf_betlar]
    ajralgan = []
    for izoh, ustun in jadvallar:
        boshi = " ".join(izoh.split()[:3])            # "1.9-jadval KV kesh"
        bet = next((b for b in betlar if boshi in b), None)
        assert bet is not None, f"the caption {boshi!r} is not in the PDF"
        if ustun not in bet.split(boshi, 1)[1]:
            ajralgan.append(boshi)
    assert not ajralgan, f"captions on another page than their table: {ajralgan}"


def _betlarning_sozlari(bbox_html: str) -> list[set[str]]:
    """The words of each page of the PDF, as pdftotext -bbox cuts them (a hyphenated word
    is two: "qatlam-" and "lar")."""
    return [set(re.findall(r"<word [^>]*>([^<]*)</word>", bet)) for bet in bbox_html.split("<page ")[1:]]


def test_no_word_of_a_table_header_is_hyphenated(pdf_bbox, sahifa_html):
    """Every word of every table's header stands whole on its table's page."""
    betlar = _betlarning_sozlari(pdf_bbox)
    bolingan = []
    jadvallar = [t for t in sahifa_html.select("table") if t.caption and t.select("th")]
    assert len(jadvallar) >= 10
    for t in jadvallar:
        raqam = _matni(t.caption.select_one(".caption-number"))       # "1.9-jadval"
        sozlar = {s for th in t.select("th") for s in _matni(th).split() if len(s) > 3}
        # the table's page: of the pages naming it, the one with most of its header's words (a
        # page that only refers to the table may share a common word such as "bitta")
        bet = max((b for b in betlar if raqam in b and sozlar & b), key=lambda b: len(sozlar & b), default=None)
        assert bet is not None, f"{raqam} is not in the PDF"
        bolingan += [(raqam, s) for s in sorted(sozlar - bet)]
    assert not bolingan, f"header words not whole on their page (hyphenated?): {bolingan}"


def test_no_word_is_broken_wrongly_at_a_line_end(pdf_qatorlari):
    """Every line that ends in a hyphen, with the next line's first word, judged as an Uzbek
    reader would (tools/bogin.py: syllables, digraphs, no single letter, nothing broken in a
    number, an abbreviation or code; a word's own hyphen only where a hyphenation would be
    right).  English patterns broke 58 of 263 ("raqamn-ing", "te-zlatishini", "1.2-jadval")."""
    assert len(pdf_qatorlari.splitlines()) > 2000, "pdftotext read almost nothing: the check proved nothing"
    yomon = [sabab for _, _, sabab in qator_oxirlari(pdf_qatorlari) if sabab]
    assert not yomon, f"{len(yomon)} words broken wrongly at a line's end:\n" + "\n".join(yomon)


#: The Uzbek alphabet, written out here as the reader knows it (c and w of foreign words).
ALIFBO = "a b c d e f g h i j k l m n o p q r s t u v w x y z oʻ gʻ sh ch ng".split()


def _harfi(soz: str) -> str | None:
    """The letter of the alphabet a word starts with ("oʻrganish": oʻ, "ogʻirlik": o)."""
    return max((h for h in ALIFBO if soz.lower().startswith(h)), key=len, default=None)


def test_the_index_follows_the_uzbek_alphabet(pdf_qatorlari):
    """The index ("Koʻrsatkich") heads each letter of the Uzbek alphabet in its order, Oʻ Gʻ Sh Ch
    after Z as letters of their own, and lists under each letter the entries that begin with
    it, in the Uzbek order (makeindex once filed "oʻrganish" under O, before "P")."""
    qatorlar = re.split(r"^\f*Koʻrsatkich$", pdf_qatorlari, flags=re.M)[-1].splitlines()
    sarlavhalar, yozuvlar, qism = [], [], ""
    for q in qatorlar:
        if q.lower() in ALIFBO:
            sarlavhalar.append(q.lower())
        elif re.fullmatch(r"[\d, –-]+", q) and not qism:
            continue                                 # the pages of an entry with many, on a line of their own
        elif m := re.fullmatch(r"(.+), [\d, –-]+", (qism + " " + q).strip()):
            yozuvlar.append((sarlavhalar[-1] if sarlavhalar else None, m[1]))
            qism = ""
        else:
            qism += " " + q                          # an entry too long for its column's line
    assert len(yozuvlar) >= 50 and "oʻ" in sarlavhalar, (sarlavhalar, yozuvlar[:5])
    assert sarlavhalar == sorted(set(sarlavhalar), key=ALIFBO.index), sarlavhalar
    notogri = [(s, y) for s, y in yozuvlar if _harfi(y) != s]
    assert not notogri, f"entries under another letter than their own: {notogri}"
    kalitlar = [tartib_kaliti(y) for _, y in yozuvlar]
    assert kalitlar == sorted(kalitlar), [y for _, y in yozuvlar]


def test_a_short_block_is_split_only_where_a_quarter_of_the_page_is_left(qurilgan, pdf_qatorlari):
    """The LaTeX source asks for room before every code block or printed output of at most
    BIR_BETDA lines (book/_ext/qurilish/pdf.py), so it moves whole to the next page unless a
    quarter of the page or more is left, and before every «Chuqurroq» box, which moves unless 0,15
    of it is left (its continuation repeats its title); \\kitobjoy logs each place where a block
    may split, with its bound.  The PDF's "davomi keyingi betda" marks are no more than the code
    blocks longer than that and those places."""
    from qurilish.pdf import BIR_BETDA

    tex = (qurilgan / "latex" / f"{NOM}.tex").read_text(encoding="utf-8")
    # what stands before each block: its last \kitobjoy is there, right before it or before the
    # short paragraph that leads in to it (pdf.py _kirish_gapi), with no other block between
    bloklar = []
    for m in re.finditer(r"\\begin\{sphinxVerbatim\}.*?\n(.*?)\\end\{sphinxVerbatim\}", tex, flags=re.S):
        oldin = tex[max(0, m.start() - 1500):m.start()]
        oldin = oldin[oldin.rfind(r"\kitobjoy"):] if r"\kitobjoy" in oldin else ""
        bloklar.append(("" if r"\end{sphinxVerbatim}" in oldin or "sphinxincludegraphics" in oldin
                        else oldin, m.group(1)))
    assert len(bloklar) > 50, len(bloklar)
    qisqa = [(oldin, ichi) for oldin, ichi in bloklar if ichi.count("\n") <= BIR_BETDA]
    xonasiz = [ichi[:60] for oldin, ichi in qisqa if not oldin]
    assert not xonasiz, f"short blocks with no \\kitobjoy before them: {xonasiz[:5]}"
    uzun = len(bloklar) - len(qisqa)
    log = (qurilgan / "latex" / f"{NOM}.log").read_text(encoding="utf-8", errors="replace")
    # each place a short block may split: the share of the page left, and the block's bound
    joylar = [(float(m.group(1)) / float(m.group(2)), float(m.group(3))) for m in
              re.finditer(r"kitobjoy: may split, ([\d.]+)pt of ([\d.]+)pt, bound (\.25|\.15)\b", log)]
    assert log.count("kitobjoy: may split") == len(joylar), \
        "a \\kitobjoy whose bound is neither a code block's (.25) nor a box's (.15)"
    assert all(ulush >= chegara for ulush, chegara in joylar), joylar
    bolingan = pdf_qatorlari.count("davomi keyingi betda")
    assert bolingan <= uzun + len(joylar), (bolingan, uzun, len(joylar))


def test_an_interactive_maps_cell_stays_on_the_web(qurilgan, pdf_qatorlari):
    """A cell whose only output is an interactive map (HTML) is not printed: on paper it would be
    code with nothing under it (qurilish.pdf._faqat_saytda); the web page keeps it."""
    for dars, chaqiruv in [("mexanizm", "softmax_xaritasi("), ("yakuniy", "hamma_ogirliklar(tarjimon, s)")]:
        sahifa = (qurilgan / "sayt" / "book" / "attention" / f"{dars}.html").read_text(encoding="utf-8")
        assert chaqiruv in BeautifulSoup(sahifa, "html.parser").get_text(), (dars, chaqiruv)
    assert "softmax_xaritasi(" not in pdf_qatorlari and "hamma_ogirliklar(tarjimon, s)" not in pdf_qatorlari


def test_the_glossary_is_set_in_two_columns(qurilgan):
    """pdf.py (_ikki_ustunli_lugat): the glossary's list, and only it, is in a two-column
    multicols, as a printed dictionary is (its entries are a line or three); a term never ends a
    column apart from its definition (the club penalties forbid a break after a paragraph's first line)."""
    tex = (qurilgan / "latex" / f"{NOM}.tex").read_text(encoding="utf-8")
    bloklar = re.findall(r"\\begin\{multicols\}\{2\}\s*(.*?)\\end\{multicols\}", tex, flags=re.S)
    assert len(bloklar) == 1, len(bloklar)
    ogohlar = "\\clubpenalty=10000 \\csname @clubpenalty\\endcsname=10000"
    assert bloklar[0].startswith(ogohlar), bloklar[0][:200]
    assert bloklar[0][len(ogohlar):].lstrip().startswith("\\begin{description}"), bloklar[0][:200]
    # every glossary entry is inside it (the preamble's patch of \\sphinxlineitem is not an entry)
    assert tex.split("\\begin{document}", 1)[1].count("\\sphinxlineitem") == bloklar[0].count("\\sphinxlineitem") >= 50


def test_a_sections_footer_numbers_it_as_its_heading_does(pdf_betlar):
    """A lesson's odd pages name it in the footer as its heading does, «1.1 Attention mexanizmi»,
    not report.cls's «1.1. Attention mexanizmi»; the even pages name the chapter, «1-bob. …»."""
    oxirgi = [[q for q in b.splitlines() if q.strip()][-1] for b in pdf_betlar if b.strip()]
    boʻlimli = [q for q in oxirgi if re.search(r"\b1\.\d+\s+\S", q)]
    assert len(boʻlimli) >= 20, oxirgi[:10]
    assert not [q for q in oxirgi if re.search(r"\b1\.\d+\.\s", q)], [q for q in oxirgi if re.search(r"\b1\.\d+\.\s", q)][:5]
    assert any("1-bob. Attention va Transformer" in q for q in oxirgi)


def test_a_reference_shows_its_address_without_the_scheme_and_in_one_piece(pdf_qatorlari, qurilgan):
    """«URL: arxiv.org/abs/2305.13245», never a line that ends in "https://" or "URL:" (an editor
    found five); the link itself goes to the whole address."""
    assert not [q for q in pdf_qatorlari.splitlines() if q.rstrip().endswith(("https://", "URL:", "//"))]
    assert pdf_qatorlari.count("URL: arxiv.org/abs/") >= 10
    sahifa = (qurilgan / "sayt" / "book" / "attention" / "adabiyotlar.html").read_text(encoding="utf-8")
    assert 'href="https://arxiv.org/abs/2305.13245">arxiv.org/abs/2305.13245</a>' in sahifa


def test_a_lead_in_never_ends_a_page_without_what_it_leads_in_to(pdf_betlar):
    """A short paragraph ending in a colon ("…bir necha qatorda yozadi:") moves with the code block
    it leads in to (pdf.py _kirish_gapi); an editor found two left alone at a page's foot.  (The
    glossary's two columns, whose lines hold a run of spaces, are not prose.)"""
    yolgiz = []
    for raqam, bet in enumerate(pdf_betlar, 1):
        qatorlar = [q.strip() for q in bet.splitlines() if q.strip()]
        if len(qatorlar) > 2 and qatorlar[-2].endswith(":") and "   " not in qatorlar[-2]:
            yolgiz.append((raqam, qatorlar[-2][-60:]))
    assert not yolgiz, yolgiz
