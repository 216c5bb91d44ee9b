"""Everything a reader sees is Uzbek: interface strings, orthography and search.

Fast tests check the catalogue (locales/uz), the chapter source's orthography
and the search normalisation (Python and its JavaScript mirror, run by node);
tests marked ``build`` check the built pages, scripts and search index.
"""

import io
import json
import re
import shutil
import subprocess
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

import jupytext
import pytest
import sphinx
from babel.messages.pofile import read_po
from bs4 import BeautifulSoup
from bs4.element import CData, Comment, Declaration, Doctype, ProcessingInstruction
from conftest import DARS_FAYLLARI, ILDIZ, bob_html
from conftest import SAHIFALAR as BOB_SAHIFALARI

from qurilish import qidiruv, tarjima

KATALOG = ILDIZ / "locales" / "uz" / "LC_MESSAGES"
PAKETLAR = Path(sphinx.__file__).resolve().parent.parent
SAHIFALAR = ["book/index.html", "book/attention/index.html", "book/attention/rekurrent.html",
             "book/attention/atamalar.html", "search.html", "genindex.html"]
#: An apostrophe that is not the official ʻ / ʼ, between two letters.
NOTOGRI = re.compile(r"(?<=[^\W\d_])['\u2018\u2019`](?=[^\W\d_])")
#: Attributes a screen reader reads out or a tooltip shows (data-havola: the title kitob.js gives
#: the glossary's term links, written once on the glossary: sahifa.py's _AtamaHavolalari).
ATRIBUTLAR = ("title", "aria-label", "placeholder", "alt", "data-bs-title", "data-tooltip", "data-havola")


def _katalog(nom: str):
    with open(KATALOG / nom, "rb") as f:
        return read_po(f)


def _xabarlar(nom: str) -> dict[str, str]:
    return {m.id: m.string for m in _katalog(nom) if m.id}


def _hammasi() -> dict[str, str]:
    jami = {}
    for po in sorted(KATALOG.glob("*.po")):
        jami.update(_xabarlar(po.name))
    return jami


# --- the catalogue ----------------------------------------------------------------


def test_every_domain_the_packages_use_has_an_uzbek_catalogue():
    assert sorted(p.stem for p in KATALOG.glob("*.po")) == [
        "booktheme", "copybutton", "mystnb", "sphinx", "togglebutton"]
    # the compiled files are build output, never committed
    natija = subprocess.run(["git", "ls-files", "locales"], cwd=ILDIZ, capture_output=True, text=True, check=True)
    fayllar = natija.stdout.split()
    assert "locales/uz/LC_MESSAGES/sphinx.po" in fayllar
    assert not [f for f in fayllar if f.endswith((".mo", ".js"))], fayllar


@pytest.mark.parametrize("po", ["sphinx.po", "booktheme.po", "togglebutton.po", "copybutton.po", "mystnb.po"])
def test_catalogue_is_complete_and_in_the_official_orthography(po):
    katalog = _katalog(po)
    xabarlar = [m for m in katalog if m.id]
    assert xabarlar
    for m in xabarlar:
        assert m.string, f"{po}: {m.id!r} is not translated"
        assert not m.fuzzy, f"{po}: {m.id!r} is fuzzy"
        assert not NOTOGRI.search(m.string), f"{po}: {m.string!r} has a non-Uzbek apostrophe"
        # typography: an ellipsis is one character (…), not three dots
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        assert not any("..." in t for t in strings), f"{po}: {m.string!r} writes … as three dots"
        # the same %-placeholders (a missing one breaks the page)
        assert sorted(re.findall(r"%\(\w+\)s", m.id)) == sorted(re.findall(r"%\(\w+\)s", m.string)), m.id
        assert m.id.count("%s") == m.string.count("%s"), m.id
    assert katalog.num_plurals == 2 and katalog.plural_expr == "(n != 1)"


def _pot_xabarlari(fayl: Path) -> set[str]:
    with open(fayl, "rb") as f:
        return {m.id for m in read_po(f) if m.id}


#: Sphinx's _() strings that are build-log messages, not page text (left in English).
JURNAL = {"glossary seems to be misformatted, check indentation",
          "glossary term must be preceded by empty line",
          "glossary terms must not be separated by empty lines",
          'HTML 4 is no longer supported by Sphinx. ("html4_writer=True" detected in configuration options)'}


def _sphinx_sahifa_xabarlari() -> set[str]:
    """Sphinx's reader-facing strings: _() in templates, search JavaScript and HTML-side Python."""
    from babel.messages.extract import extract_from_file

    ildiz = PAKETLAR / "sphinx"
    fayllar = [("python", ildiz / f) for f in (
        "writers/html5.py", "locale/__init__.py", "environment/adapters/indexentries.py",
        "builders/html/__init__.py", "domains/std/__init__.py", "domains/changeset.py")]
    fayllar += [("jinja2.ext:babel_extract", f) for f in sorted((ildiz / "themes" / "basic").glob("*.html"))]
    fayllar += [("javascript", f) for f in sorted((ildiz / "themes" / "basic" / "static").glob("*.js"))]
    xabarlar = set()
    for usul, f in fayllar:
        for _, msg, _, _ in extract_from_file(usul, f, keywords={"_": None, "gettext": None},
                                              options={"trimmed": "true"}):
            xabarlar.add(msg if isinstance(msg, str) else msg[0])
    return xabarlar - JURNAL


def test_catalogue_covers_every_string_the_packages_ship():
    sphinx_po = _xabarlar("sphinx.po")
    sphinx_ozi = _sphinx_sahifa_xabarlari()
    assert {"Link to this heading", "Search Results", "Symbols", "Note", "Index"} <= sphinx_ozi
    assert sphinx_ozi <= sphinx_po.keys(), sorted(sphinx_ozi - sphinx_po.keys())
    # pydata-sphinx-theme's strings are in the sphinx domain too
    pydata = _pot_xabarlari(PAKETLAR / "pydata_sphinx_theme" / "locale" / "sphinx.pot")
    assert pydata <= sphinx_po.keys(), sorted(pydata - sphinx_po.keys())
    kitob = _pot_xabarlari(PAKETLAR / "sphinx_book_theme" / "theme" / "sphinx_book_theme" / "static"
                           / "locales" / "ru" / "LC_MESSAGES" / "booktheme.po")
    assert kitob <= _xabarlar("booktheme.po").keys(), sorted(kitob - _xabarlar("booktheme.po").keys())
    toggle = _pot_xabarlari(PAKETLAR / "sphinx_togglebutton" / "translations" / "locales" / "ru"
                            / "LC_MESSAGES" / "togglebutton.po")
    assert toggle <= _xabarlar("togglebutton.po").keys()
    # the strings book/_ext/qurilish/tarjima.py takes from the catalogue
    for _, domen, msgid in tarjima.SOZLAMALAR:
        assert msgid in _xabarlar(f"{domen}.po")
    assert tarjima.QIDIRUV_MATNI in _xabarlar("booktheme.po")
    assert set(tarjima.COPYBUTTON.values()) <= _xabarlar("copybutton.po").keys()


def test_every_page_depends_on_the_catalogue(tmp_path):
    """An edited .po must rewrite the pages: each page notes every .po as a dependency."""
    from types import SimpleNamespace

    notes = []
    app = SimpleNamespace(srcdir=str(ILDIZ), config=SimpleNamespace(locale_dirs=["locales"], language="uz"),
                          env=SimpleNamespace(note_dependency=notes.append))
    tarjima._bogla(app, "book/attention", [""])
    assert sorted(Path(n).name for n in notes) == sorted(p.name for p in KATALOG.glob("*.po"))
    app.config.locale_dirs = [str(tmp_path)]      # a book without the catalogue notes nothing
    notes.clear()
    tarjima._bogla(app, "book/attention", [""])
    assert notes == []


def test_style_guide_vocabulary():
    x = _hammasi()
    assert x["Contents"] == "Mundarija" and x["Table of Contents"] == "Mundarija"
    assert x["Search"] == "Qidirish"
    assert (x["previous"], x["next"]) == ("Oldingi", "Keyingi")
    assert x["Index"] == "Koʻrsatkich"
    assert "Yuklab olish".lower() in x["Download source file"].lower()
    # "Print to PDF" saves a PDF rather than printing (language review, section 5)
    assert x["Print to PDF"] == "PDF sifatida saqlash" and "Manba" in x["Download source file"]
    assert (x["Light"], x["Dark"]) == ("Yorugʻ rejim", "Qorongʻi rejim")
    assert (x["Copy"], x["Copied!"]) == ("Nusxa olish", "Nusxa olindi!")
    assert (x["Click to show"], x["Click to hide"]) == ("Koʻrsatish uchun bosing", "Yashirish uchun bosing")
    # numbering as numfig_format in _config.yml; %s is the number within the chapter
    # (book/_ext/qurilish/raqamlash.py), so the pages say "1.1-rasm", "1.2-jadval"
    assert (x["Fig. %s"], x["Table %s"]) == ("%s-rasm", "%s-jadval")


# --- the chapter source ---------------------------------------------------------


def _markdown_matni(md: str) -> str:
    """Prose of a markdown cell: code blocks, inline code and mathematics removed."""
    md = re.sub(r"^(```|~~~).*?^\1", " ", md, flags=re.S | re.M)
    md = re.sub(r"\$\$.*?\$\$", " ", md, flags=re.S)
    md = re.sub(r"`[^`]*`", " ", md)
    return re.sub(r"\$[^$]*\$", " ", md)


def _satrlar(kod: str) -> list[str]:
    """The string literals of a code cell (labels, captions, printed text)."""
    return [t.string for t in tokenize.generate_tokens(io.StringIO(kod).readline)
            if t.type == tokenize.STRING]


def bob_matnlari(bob: str) -> list[str]:
    """The reader's text of a chapter: its markdown, and its code's string literals
    (figure labels, captions and printed output)."""
    matnlar = []
    yol = ILDIZ / bob
    for katak in jupytext.read(yol, fmt="md:myst" if yol.suffix == ".md" else None).cells:
        if katak.cell_type == "markdown":
            matnlar.append(_markdown_matni(katak.source))
        elif katak.cell_type == "code":
            matnlar.extend(_satrlar(katak.source))
    return matnlar


@pytest.mark.parametrize("bob", [str(f.relative_to(ILDIZ)) for f in DARS_FAYLLARI]
                         + ["book/index.md", "book/attention/index.md", "book/attention/atamalar.md"])
def test_chapter_source_uses_the_official_orthography(bob):
    matnlar = bob_matnlari(bob)
    assert matnlar
    yomon = [m for m in matnlar if NOTOGRI.search(m)]
    assert not yomon, yomon[:5]
    if bob.endswith(".py"):
        assert sum("ʻ" in m for m in matnlar) > 5, "the lesson's text should use ʻ"


# --- search normalisation ----------------------------------------------------------


@pytest.mark.parametrize("yozuv", ["o'rtacha", "o‘rtacha", "o’rtacha", "o`rtacha", "oʼrtacha", "oʻrtacha"])
def test_every_apostrophe_variant_becomes_the_index_form(yozuv):
    assert qidiruv.normallashtir(yozuv) == "oʻrtacha"
    assert qidiruv.SearchUzbek({}).split(f"Bu {yozuv} qiymat.") == ["Bu", "oʻrtacha", "qiymat"]


def test_apostrophes_that_are_not_inside_a_word_stay():
    assert qidiruv.normallashtir("'attention' va ‘Transformer’") == "'attention' va ‘Transformer’"
    assert qidiruv.SearchUzbek({}).split("'attention'") == ["attention"]


def test_search_language_has_no_english_stemming_or_stop_words():
    til = qidiruv.SearchUzbek({})
    assert til.lang == "uz" and not til.stopwords
    # an English (Porter) stemmer would make these "attent", "model", "queri"
    assert [til.stem(w) for w in ("Attention", "models", "query")] == ["attention", "models", "query"]
    assert til.word_filter("the") and til.word_filter("va")


def test_javascript_maps_the_same_characters_to_the_same_form():
    """uzNormallashtir (node) and normallashtir agree on every apostrophe, inside and outside words."""
    node = shutil.which("node")
    assert node, "node is needed (make installs nodejs): it runs the search JavaScript here"
    matnlar = [f"o{b}rtacha {b}attention{b} x{b}2 {b}" for b in qidiruv.APOSTROFLAR] + ["o-rtacha o\"rtacha"]
    dastur = qidiruv.JS_KOD + """
const q = JSON.parse(require("fs").readFileSync(0, "utf8"));
console.log(JSON.stringify(q.map(uzNormallashtir)));
"""
    natija = subprocess.run([node, "-e", dastur], input=json.dumps(matnlar),
                            capture_output=True, text=True, check=True)
    assert json.loads(natija.stdout) == [qidiruv.normallashtir(m) for m in matnlar]
    assert qidiruv.normallashtir(matnlar[0]).startswith(f"o{qidiruv.KANONIK}rtacha ")
    assert qidiruv.normallashtir(matnlar[-1]) == matnlar[-1]          # a hyphen or a quote is no apostrophe
    assert "uzNormallashtir(query)" in qidiruv.JS_BOLUVCHI and "this.stemWord = uzOzagi;" in qidiruv.JS_KOD


SOROVLAR = ["o'rtacha", "O‘rtacha og’irlik", "o`rtacha eʼtibor", "oʻrtacha", "Attention va Transformer",
            "maʼlumot ma'lumot", "'attention'"]


def _python_sorov(q: str) -> list[str]:
    """What Sphinx's searchtools.js looks up for a query, computed by the Python mirror."""
    til = qidiruv.SearchUzbek({})
    return [til.stem(w.lower()) for w in til.split(q)]


def test_javascript_and_python_agree_on_queries():
    node = shutil.which("node")
    assert node, "node is needed (make installs nodejs): it runs the search JavaScript here"
    dastur = (qidiruv.JS_KOD + qidiruv.JS_BOLUVCHI + """
const s = new Stemmer();
const q = JSON.parse(require("fs").readFileSync(0, "utf8"));
console.log(JSON.stringify(q.map(x => splitQuery(x.trim()).map(w => s.stemWord(w.toLowerCase())))));
""")
    natija = subprocess.run([node, "-e", dastur], input=json.dumps(SOROVLAR),
                            capture_output=True, text=True, check=True)
    assert json.loads(natija.stdout) == [_python_sorov(q) for q in SOROVLAR]
    assert _python_sorov("O‘rtacha og’irlik") == ["ortacha", "ogirlik"]     # keys: no apostrophe


# --- the built pages ------------------------------------------------------------------


#: Elements whose text is not read as prose: code, scripts, styles, maths source, <noscript>.
YOPIQ = {"script", "style", "pre", "code", "annotation", "noscript"}
#: Strings of the parsed page that are not text: comments, <!DOCTYPE>, CDATA ...
MATN_EMAS = (Comment, Declaration, Doctype, ProcessingInstruction, CData)


@dataclass
class _Matn:
    """Visible text and read-out attributes of a page, outside code and scripts."""

    hujjat: BeautifulSoup
    matnlar: list[str] = field(default_factory=list)
    atributlar: list[tuple[str, str, str]] = field(default_factory=list)   # (tag, attribute, value)


def _matnlari(ildiz) -> list[str]:
    """The text strings under ``ildiz``, white space collapsed, outside YOPIQ elements."""
    matnlar = []
    for s in ildiz.find_all(string=True):
        if isinstance(s, MATN_EMAS) or s.find_parent(YOPIQ):
            continue
        s = " ".join(s.split())
        if s:
            matnlar.append(s)
    return matnlar


def _oqi(qurilgan: Path, sahifa: str) -> _Matn:
    hujjat = BeautifulSoup((qurilgan / "sayt" / sahifa).read_text(encoding="utf-8"), "html.parser")
    p = _Matn(hujjat, matnlar=_matnlari(hujjat))
    for teg in hujjat.find_all(True):
        if teg.name in YOPIQ or teg.find_parent(YOPIQ):
            continue
        p.atributlar += [(teg.name, k, v) for k, v in teg.attrs.items() if k in ATRIBUTLAR and v]
    return p


def _noscript_matni(p: _Matn) -> list[str]:
    """<noscript> is shown when JavaScript is off: its text (not its styles) counts too."""
    matnlar = []
    for ichi in p.hujjat.find_all("noscript"):
        matnlar += [s for s in (" ".join(x.split()) for x in ichi.find_all(string=True)
                                if not isinstance(x, MATN_EMAS) and not x.find_parent("style")) if s]
    return matnlar


#: English interface text that must not appear anywhere a reader sees or hears.
INGLIZCHA_IBORALAR = [
    "Skip to main content", "Back to top", "Search this book", "Search...", "Contents",
    "Download source file", "Download this page", "Print to PDF", "Fullscreen mode", "Color mode",
    "System Settings", "On this page", "Toggle primary sidebar", "Toggle secondary sidebar",
    "Toggle navigation", "Site navigation", "Version warning", "Link to this", "previous page",
    "next page", "Please activate JavaScript", "Copyright", "Search Results", "Click to show",
    "Click to hide", "Show code cell", "Hide code cell", "Copy to clipboard", "Copied!", "By ",
]
#: ... and single English words that would be a whole label on their own.
INGLIZCHA_SOZLAR = {"Search", "Index", "Main", "Page", "next", "previous", "Light", "Dark", "Error",
                    "By", "Symbols", "Note", "Home", "Edit", "Copy", "Navigation"}
#: English msgids that are also the chapter's words (its subject keeps "attention", as the seed does).
BOBNING_SOZLARI = {"Attention", "attention"}


@pytest.fixture(scope="module")
def sahifalar(qurilgan):
    return {s: _oqi(qurilgan, s) for s in SAHIFALAR}


@pytest.mark.build
@pytest.mark.parametrize("sahifa", SAHIFALAR)
def test_page_is_uzbek(sahifalar, sahifa):
    p = sahifalar[sahifa]
    assert p.hujjat.html is not None and p.hujjat.html.get("lang") == "uz"
    matnlar = p.matnlar + _noscript_matni(p)
    atributlar = [v for _, _, v in p.atributlar]
    assert len(matnlar) > 20 and len(atributlar) > 15
    msgidlar = {m for m, s in _hammasi().items() if m != s} - BOBNING_SOZLARI
    for matn in matnlar + atributlar:
        for ibora in INGLIZCHA_IBORALAR:
            assert ibora not in matn, f"{sahifa}: English {ibora!r} in {matn!r}"
        assert matn not in INGLIZCHA_SOZLAR, f"{sahifa}: English label {matn!r}"
        assert matn not in msgidlar, f"{sahifa}: untranslated interface string {matn!r}"


#: Uzbek interface text every page shows (visible text or a read-out attribute).
# ("Sayt navigatsiyasi" and "Shu sahifada" labelled the two sidebar buttons of the theme's top
# bar, hidden by sphinx-book-theme; that bar, which showed only a second search box, is gone:
# book/_ext/qurilish/sahifa.py, navbar_persistent. The article's own buttons carry the labels below.)
HAR_SAHIFADA = ["Asosiy matnga oʻtish", "Yuqoriga qaytish", "Qidirish", "Bobdan qidirish…",
                "Bob mundarijasi", "Bob mundarijasini ochish yoki yopish",
                "Toʻliq ekran rejimi", "Rang rejimi", "Yorugʻ rejim", "Qorongʻi rejim", "Tizimdagidek",
                "Versiya haqida ogohlantirish", "Mualliflar: Mashinaviy oʻrganish darsligi jamoasi",
                "© Mualliflik huquqi, 2026.", "Koʻrsatkich", "Bosh sahifa"]
#: the header menu's PDF item is the book's PDF (yuklamalar.py), named so, not "Print to PDF"
SAHIFADA = {
    "book/index.html": ["Keyingi", "Keyingi sahifa", "Bobning PDF fayli",
                        "Sahifani yuklab olish", "Bu sarlavhaga havola"],
    "book/attention/index.html": ["Oldingi", "Keyingi", "Bobning PDF fayli"],
    "book/attention/rekurrent.html": ["Oldingi", "Oldingi sahifa", "Mundarija", "Sahifa mundarijasi",
                                      "Sahifa mundarijasini ochish yoki yopish",
                                      "Darsning Jupyter daftari: sahifadagi matn, kod va natijalar",
                                      "Darsning Python skripti: matni izohlarda",
                                      "Bobning PDF fayli", "Bu sarlavhaga havola", "Bu rasmga havola",
                                      "Bu jadvalga havola", "Yechim"],
    "book/attention/atamalar.html": ["Oldingi", "Bu atamaga havola"],
    "search.html": ["Qidirish — Attention va Transformer", "Xato",
                    "Qidiruv ishlashi uchun brauzerda JavaScriptni yoqing."],
    "genindex.html": ["Koʻrsatkich — Attention va Transformer", "pozitsiya kodlash"],
}


@pytest.mark.build
@pytest.mark.parametrize("sahifa", SAHIFALAR)
def test_tarjima_interface_strings_are_on_the_page(sahifalar, sahifa):
    p = sahifalar[sahifa]
    bari = set(p.matnlar) | {v for _, _, v in p.atributlar} | set(_noscript_matni(p))
    # the print-only table of contents is invisible on screen but read by screen readers
    for kerak in HAR_SAHIFADA + SAHIFADA[sahifa]:
        assert kerak in bari or p.hujjat.find(attrs={"aria-label": kerak}), f"{sahifa}: {kerak!r} is missing"


@pytest.mark.build
@pytest.mark.parametrize("sahifa", SAHIFALAR)
def test_built_pages_use_the_official_orthography(qurilgan, sahifalar, sahifa):
    p = sahifalar[sahifa]
    matnlar = p.matnlar + [v for _, _, v in p.atributlar]
    yomon = [m for m in matnlar if NOTOGRI.search(m)]
    assert not yomon, yomon[:5]
    assert any("ʻ" in m for m in matnlar)


@pytest.mark.build
def test_scripts_speak_uzbek(qurilgan):
    static = qurilgan / "sayt" / "_static"
    # Sphinx's search page strings: translations.js, loaded by every page
    tarjima = (static / "translations.js").read_text()
    xabarlar = json.loads(tarjima[tarjima.index("(") + 1:tarjima.rindex(")")])["messages"]
    assert xabarlar["Search Results"] == "Qidiruv natijalari"
    js_xabarlari = set()
    for f in ("searchtools.js", "sphinx_highlight.js"):
        js_xabarlari |= set(re.findall(r'_\(\s*"([^"]+)"\s*\)', (static / f).read_text()))
    assert len(js_xabarlari) >= 5
    assert js_xabarlari <= xabarlar.keys(), sorted(js_xabarlari - xabarlar.keys())
    for sahifa in SAHIFALAR:
        hujjat = BeautifulSoup((qurilgan / "sayt" / sahifa).read_text(encoding="utf-8"), "html.parser")
        assert any(s["src"].split("?")[0].endswith("_static/translations.js")
                   for s in hujjat.find_all("script", src=True)), f"{sahifa} does not load translations.js"
    # copybutton picks its table by <html lang>: an "uz" one is there
    copy = (static / "copybutton.js").read_text()
    for kerak in ('"uz": {', '"copy": "Nusxa olish"', '"copy_success": "Nusxa olindi!"',
                  '"copy_to_clipboard": "Buferga nusxa olish"'):
        assert kerak in copy
    toggle = (static / "togglebutton.js").read_text()
    assert "Toggle hidden content" not in toggle and 'aria-label="Yashirin qismni koʻrsatish yoki yashirish"' in toggle
    bob = BeautifulSoup(bob_html(qurilgan), "html.parser")
    skriptlar = " ".join(s.get_text() for s in bob.find_all("script"))
    assert "let toggleHintShow = 'Koʻrsatish uchun bosing';" in skriptlar
    assert "let toggleHintHide = 'Yashirish uchun bosing';" in skriptlar
    assert len(bob.select("div.dropdown.admonition")) >= 5    # the exercises' "Yechim" get the hints


def _indeks(qurilgan: Path) -> dict:
    matn = (qurilgan / "sayt" / "searchindex.js").read_text(encoding="utf-8")
    assert matn.startswith("Search.setIndex(")
    return json.loads(matn[len("Search.setIndex("):matn.rindex(")")])


@pytest.mark.build
@pytest.mark.parametrize("sorov", ["o'rtacha", "oʻrtacha", "o’rtacha", "o`rtacha", "attention",
                                   "e'tibor", "Eʼtibor", "ogʻirlik", "og'irlik"])
def test_search_finds_the_chapter(qurilgan, sorov):
    indeks = _indeks(qurilgan)
    bob = {indeks["docnames"].index(d) for d in BOB_SAHIFALARI}
    sozlar = _python_sorov(sorov)
    assert sozlar, f"{sorov!r} gives no word to look up"
    for soz in sozlar:
        hujjatlar = [indeks[k].get(soz) for k in ("terms", "titleterms")]
        topildi = set()
        for h in hujjatlar:
            topildi |= set(h if isinstance(h, list) else [] if h is None else [h])
        assert bob & topildi, f"{sorov!r} -> {soz!r} does not find the chapter"


@pytest.mark.build
def test_search_index_is_uzbek_not_english(qurilgan):
    indeks = _indeks(qurilgan)
    # words that point at a page (an incremental build leaves old words with an empty list)
    sozlar = {s for k in ("terms", "titleterms") for s, h in indeks[k].items() if h != []}
    assert "attention" in sozlar and "attent" not in sozlar          # no Porter stemming
    assert not any(NOTOGRI.search(s) or "ʼ" in s for s in sozlar)   # one apostrophe form
    assert "va" in sozlar                                           # no stop-words dropped
    til = (qurilgan / "sayt" / "_static" / "language_data.js").read_text()
    assert "var stopwords = [];" in til and "uzNormallashtir" in til
    assert "PorterStemmer" not in til


def test_an_editions_javascript_catalogue_is_written_in_its_script(tmp_path):
    """translations.js of an edition (kitob_yozuv): every message in the script, its placeholders,
    markup and names kept (PyData Sphinx Theme, %s), «<<asl yozuv>>» written as words."""
    from types import SimpleNamespace

    from qurilish import tarjima

    (tmp_path / "_static").mkdir()
    fayl = tmp_path / "_static" / "translations.js"
    xabarlar = {"Search Results": "Qidiruv natijalari", "<<original entry>>": "<<asl yozuv>>",
                "%s (role)": "%s (rol)", "Theme": "PyData Sphinx Theme mavzusi", "n": ["%s ta soʻz", "%s ta soʻz"]}
    fayl.write_text("Documentation.addTranslations(" + json.dumps(
        {"locale": "uz", "messages": xabarlar, "plural_expr": "0"}, ensure_ascii=False) + ");\n", encoding="utf-8")
    from qurilish.yozuv import Yozuv

    # the application as yozuvda.py leaves it: the edition's script read (kitob_yozuv = kirill)
    app = SimpleNamespace(outdir=str(tmp_path), builder=SimpleNamespace(format="html"),
                          _kitob_yozuv=Yozuv.oqi("kirill"))
    tarjima._js_katalog(app, None)
    matn = fayl.read_text(encoding="utf-8")
    yangi = json.loads(matn[len("Documentation.addTranslations("):-len(");\n")])["messages"]
    assert yangi == {"Search Results": "Қидирув натижалари", "<<original entry>>": "<<асл ёзув>>",
                     "%s (role)": "%s (роль)", "Theme": "PyData Sphinx Theme мавзуси",
                     "n": ["%s та сўз", "%s та сўз"]}
    app._kitob_yozuv = None                # the source's build: as it is
    fayl.write_text(matn.replace("Қидирув", "Q"), encoding="utf-8")
    tarjima._js_katalog(app, None)
    assert "Q натижалари" in fayl.read_text(encoding="utf-8")
