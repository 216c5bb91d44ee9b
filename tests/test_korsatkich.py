"""The PDF index's Uzbek order (book/_ext/qurilish/pdf.py): the sort key makeindex compares,
the letter each entry is filed under, and the \\index lines the LaTeX writer gets."""

from types import SimpleNamespace

import imlo
import pytest
from conftest import ILDIZ
from docutils import nodes
from sphinx import addnodes

from qurilish.pdf import ALIFBO, _korsatkich, harf_guruhi, tartib_kaliti


def test_the_alphabet_is_the_uzbek_one():
    assert ALIFBO[-5:] == ["oʻ", "gʻ", "sh", "ch", "ng"] and ALIFBO[:26] == list("abcdefghijklmnopqrstuvwxyz")


def test_letters_after_z_sort_after_z_each_on_its_own():
    # in the Uzbek order, as a dictionary lists them
    tartib = ["aniq moslik", "aniqlik", "bosqich", "bosh", "boshlangʻich", "cross-attention",
              "float16", "float32", "kv kesh", "koʻp", "oqim", "orqaga", "ogʻirlik", "ochkoʻz",
              "siljish", "soʻrov", "yoʻl uzunligi", "yoʻqotish", "zarb", "oʻrganish", "oʻrta",
              "gʻalaba", "shahar", "chiziq", "ngram"]
    for aralash in (sorted(tartib), sorted(tartib, reverse=True)):
        assert sorted(aralash, key=tartib_kaliti) == tartib


def test_the_key_is_plain_ascii_and_ignores_signs_case_and_accents():
    assert tartib_kaliti("Oʻrganish tezligi") == "zbrganizd tezaligi"
    assert tartib_kaliti("o‘rganish  tezligi") == tartib_kaliti("o'rganish tezligi") == "zbrganizd tezaligi"
    assert tartib_kaliti("ketma-ketlik") == tartib_kaliti("ketmaketlik")
    assert tartib_kaliti("eʼtibor") == "etibor" and tartib_kaliti("Lebrón") == "lebron"
    assert tartib_kaliti("KiB, MiB") == "kib mib"
    assert all(tartib_kaliti(a).isascii() for a in ["Gʻoya", "Choʻqqi", "Shunday", "yoʻl"])


def test_the_glossary_written_in_uzbek_order_keeps_its_order():
    """The glossary's author listed its terms in the Uzbek order: the key agrees."""
    atamalar = imlo.lugat_atamalari((ILDIZ / "book/attention/atamalar.md").read_text(encoding="utf-8"))
    assert len(atamalar) >= 50 and any(a.startswith("oʻ") for a in atamalar)
    assert sorted(atamalar, key=tartib_kaliti) == atamalar


@pytest.mark.parametrize("atama,harf", [
    ("aniqlik", "A"), ("Oʻrganish", "Oʻ"), ("ogʻirlik", "O"), ("gʻoya", "Gʻ"), ("gradient", "G"),
    ("Shunday", "Sh"), ("siljish", "S"), ("chiziq", "Ch"), ("cross-attention", "C"), ("32 bit", ""),
    ("«attention sink»", "A")])                   # signs count for nothing, in the order as here
def test_each_entry_is_filed_under_its_letter(atama, harf):
    assert harf_guruhi(atama) == harf


def korsatkich_yozuvlari(*yozuvlar) -> list[str]:
    """What the LaTeX writer appends for index nodes with these entries (Sphinx's visit_index,
    run with the book's keys; the writer's own encoding left out)."""
    tarjimon = SimpleNamespace(body=[], encode=lambda matn: matn)
    for yozuv in yozuvlar:
        with pytest.raises(nodes.SkipNode):
            _korsatkich(tarjimon, addnodes.index(entries=[yozuv], inline=True))
    return tarjimon.body


def test_every_index_entry_gets_the_uzbek_key_and_its_letter():
    assert korsatkich_yozuvlari(
        ("single", "oʻrganish tezligi", "id1", True, None),
        ("single", "kalit; soʻrov", "id2", False, None),
        ("pair", "a@b; c!d", "id3", False, None),
        ("see", "oʻqish; oʻrganish", "id4", False, None),
    ) == [
        r"\index{zbrganizd tezaligi@\kitobharf{Oʻ}\spxentry{oʻrganish tezligi}|spxpagem}",
        r"\index{kalit@\kitobharf{K}\spxentry{kalit}!szbrov@\spxentry{soʻrov}}",
        r'\index{ab@\kitobharf{A}\spxentry{a"@b}!cd@\spxentry{c"!d}}'
        r'\index{cd@\kitobharf{C}\spxentry{c"!d}!ab@\spxentry{a"@b}}',
        r"\index{zbqizd@\kitobharf{Oʻ}\spxentry{oʻqish}|see{oʻrganish}}",
    ]


@pytest.mark.build
def test_the_sites_index_follows_the_same_order(qurilgan):
    """genindex.html (sahifa.py regroups it): letter groups in ALIFBO's order, each entry under its
    own letter, entries in tartib_kaliti's order; Oʻ after Y (Sphinx alone filed it under O)."""
    from bs4 import BeautifulSoup

    sh = BeautifulSoup((qurilgan / "sayt" / "genindex.html").read_text(encoding="utf-8"), "html.parser")
    guruhlar = sh.select("article h2")
    harflar = [h.get_text(strip=True) for h in guruhlar]
    assert harflar == sorted(harflar, key=lambda h: ALIFBO.index(h.lower())) and "Oʻ" in harflar
    hammasi = []
    for h in guruhlar:
        jadval = h.find_next_sibling("table")
        yozuvlar = [a.get_text(" ", strip=True) for a in jadval.select("td > ul > li > a:first-child")]
        assert yozuvlar and all(harf_guruhi(y) == h.get_text(strip=True) for y in yozuvlar), (h, yozuvlar)
        hammasi += yozuvlar
    assert hammasi == sorted(hammasi, key=tartib_kaliti) and len(hammasi) >= 90


@pytest.mark.build
def test_the_sites_index_leads_to_each_lesson_that_links_a_term(qurilgan):
    """Every lesson that links a term in a paragraph is a place of the term in genindex.html (pdf.py
    files it where it stands): a line under the term, titled as the lesson, linking to the term's first
    use there, in the book's order (sahifa.py, _templates/genindex.html; Sphinx alone wrote "[1], [2]"); the glossary's own
    link is the term itself, in bold."""
    from bs4 import BeautifulSoup
    from conftest import DARSLAR, SAHIFALAR

    sayt = qurilgan / "sayt"
    sh = BeautifulSoup((sayt / "genindex.html").read_text(encoding="utf-8"), "html.parser")
    sarlavhalar = {}
    for dars in SAHIFALAR:
        h1 = BeautifulSoup((sayt / f"{dars}.html").read_text(encoding="utf-8"), "html.parser").select_one("article h1")
        sarlavhalar[f"{dars}.html"] = h1.get_text(" ", strip=True).rstrip("#").strip()
    joylar, langarlar = {}, []
    assert "[1]" not in sh.select_one("article").get_text()
    for li in sh.select("td > ul > li"):
        havolalar = [a["href"] for a in li.find_all("a", recursive=False)]
        assert len(havolalar) == 1 and "#term-" in havolalar[0] and li.a.strong, li
        ostlari = [(a.get_text(" ", strip=True), a["href"]) for a in li.select(":scope > span.kitob-joylar > a")]
        sahifalar = [h.split("#")[0] for _, h in ostlari]
        assert sahifalar == sorted(sahifalar, key=list(sarlavhalar).index), li
        assert len(set(sahifalar)) == len(sahifalar), li
        for matn, h in ostlari:
            assert matn == sarlavhalar[h.split("#")[0]], (matn, h)
        joylar[havolalar[0].split("#")[1]] = set(sahifalar)
        langarlar += [h for _, h in ostlari]
    tekshirildi = 0
    for dars in DARSLAR:
        sahifa = BeautifulSoup((sayt / f"{dars}.html").read_text(encoding="utf-8"), "html.parser")
        # each locator opens at its paragraph, which the search page shows as the hit's summary (an
        # empty anchor gave Sphinx's search no summary, and its script an error)
        for h in [h for h in langarlar if h.startswith(f"{dars}.html#")]:
            langar = sahifa.find(id=h.split("#")[1])
            assert langar is not None and len(langar.get_text(" ", strip=True)) >= 20, h
        for a in sahifa.select("article p a.reference.internal[href*='atamalar.html#term-']"):
            atama = a["href"].split("#")[1]
            assert f"{dars}.html" in joylar.get(atama, set()), (dars, atama, joylar.get(atama))
            tekshirildi += 1
    assert tekshirildi >= 150, tekshirildi
