"""Search as Uzbek readers type: one key for every spelling, light suffix stemming.

``book/_ext/qurilish/qidiruv.py`` keeps the rules as data (apostrophes, Cyrillic table,
context letters, folds, suffixes, minimum stem) and applies them in Python to
the index and, through the same data embedded as JSON, in JavaScript to the
query.  Fast tests: each rule with expected values, and the two
implementations over the chapter source's words and hand-made cases (node).
Tests marked ``build``: the same over every word of the built chapter page
with the site's own ``language_data.js``, and the search page in Chromium.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import quote

import pytest
from bs4 import BeautifulSoup

from qurilish import qidiruv, tarjima
from test_brauzer import brauzer, manzil  # noqa: F401  (the same Chromium and local server)
from conftest import DARS_FAYLLARI, ILDIZ, SAHIFALAR, bob_html
from test_tarjima import bob_matnlari

TIL = qidiruv.SearchUzbek({})


def kalit(s: str) -> str:
    return qidiruv.qidiruv_kaliti(s)


def ozagi(s: str) -> str:
    return qidiruv.qidiruv_ozagi(s)


# --- the canonical key, rule by rule ------------------------------------------------------


def test_lower_case():
    assert kalit("POZITSIYA") == "pozitsiya" and kalit("Transformer") == "transformer"


@pytest.mark.parametrize("belgi", list(qidiruv.APOSTROFLAR))
def test_every_apostrophe_look_alike_is_removed_from_the_key(belgi):
    assert kalit(f"ko{belgi}rsatadi") == "korsatadi"
    assert kalit(f"to{belgi}g{belgi}ri") == "togri"
    assert kalit(f"e{belgi}tibor") == "etibor"
    # ... and between letters it keeps the word whole when a text or a query is split
    assert TIL.split(f"Bu ko{belgi}rsatadi.") == ["Bu", "koʻrsatadi"]


def test_the_apostrophe_set_has_the_keyboards_variants():
    # ASCII, typographic quotes, the official ʻ ʼ and the modifier letters keyboards use
    assert set("'`‘’ʼʻ\u02bd\u02b9\u00b4\u02cb\u02ca") <= set(qidiruv.APOSTROFLAR)
    assert kalit("o\u02bbrta") != kalit("o-rta")            # a hyphen is not an apostrophe


@pytest.mark.parametrize(("kirill", "lotin"), [
    ("кўрсатади", "korsatadi"), ("тўғри", "togri"), ("эътибор", "etibor"),
    ("шарт", "shart"), ("чизиқ", "chiziq"), ("ҳисоб", "hisob"), ("ёки", "yoki"),
    ("юқори", "yuqori"), ("ярим", "yarim"), ("жадвал", "jadval"), ("хато", "xato"),
    ("вазн", "vazn"), ("йўл", "yol"), ("фойда", "foyda"), ("щётка", "shyotka"),
    ("Кўрсатади", "korsatadi"),
])
def test_cyrillic_letters_become_the_official_latin(kirill, lotin):
    assert kalit(kirill) == lotin


@pytest.mark.parametrize(("kirill", "lotin"), [
    ("етарли", "yetarli"),        # е at the start of a word: ye
    ("поезд", "poyezd"),          # after a vowel: ye
    ("объект", "obyekt"),         # after ъ: ye
    ("лента", "lenta"),           # after a consonant: e
    ("градиент", "gradient"),     # after и: ye by the rule, then iye -> ie (the Latin text's spelling)
    ("позиция", "pozitsiya"),     # ц after a vowel: ts
    ("функция", "funksiya"),      # ц after a consonant: s
    ("цирк", "sirk"),             # ц at the start: s
    ("альфа", "alfa"),            # ь dropped
])
def test_context_letters_and_folds(kirill, lotin):
    assert kalit(kirill) == lotin


def test_the_iye_fold_applies_to_latin_too_so_both_spellings_meet():
    assert kalit("koeffitsiyent") == kalit("koeffitsient") == kalit("коэффициент") == "koeffitsient"
    assert kalit("gradiyent") == kalit("gradient")


def test_composed_and_decomposed_letters_are_one_key():
    assert kalit("и\u0306ўл") == kalit("йўл") == "yol"             # й written as и + breve


@pytest.mark.parametrize(("yozuv", "rasmiy"), [
    ("korsatadi", "koʻrsatadi"), ("togri", "toʻgʻri"), ("ko'rsatadi", "koʻrsatadi"),
    ("эътибор", "eʼtibor"), ("градиент", "gradient"), ("позиция", "pozitsiya"),
    ("кўрсатади", "koʻrsatadi"), ("тўғри", "toʻgʻri"), ("e'tibor", "eʼtibor"), ("etibor", "eʼtibor"),
])
def test_every_spelling_meets_the_official_one(yozuv, rasmiy):
    assert ozagi(yozuv) == ozagi(rasmiy)


def test_different_words_stay_different():
    assert ozagi("korsatadi") != ozagi("kursatadi")
    assert kalit("o'rtacha") != kalit("ortiqcha")


# --- the stemmer ---------------------------------------------------------------------------


@pytest.mark.parametrize(("soz", "ozak"), [
    ("pozitsiyaning", "pozitsiya"),     # -ning
    ("pozitsiyani", "pozitsiya"),       # -ni
    ("pozitsiyaga", "pozitsiya"),       # -ga
    ("blokka", "blok"),                 # -ka after k
    ("uzoqqa", "uzoq"),                 # -qa after q
    ("pozitsiyada", "pozitsiya"),       # -da
    ("pozitsiyadan", "pozitsiya"),      # -dan
    ("tortta", "tort"),                 # -ta after a voiceless consonant
    ("pozitsiyadagi", "pozitsiya"),     # -dagi
    ("pozitsiyagacha", "pozitsiya"),    # -gacha
    ("pozitsiyalar", "pozitsiya"),      # -lar
    ("modelim", "model"),               # -im
    ("modeling", "model"),              # -ing
    ("qiymati", "qiymat"),              # -i
    ("pozitsiyasi", "pozitsiya"),       # -si
    ("modelimiz", "model"),             # -imiz
    ("modelingiz", "model"),            # -ingiz
    ("qiymatlari", "qiymat"),           # -lari
    # chains: longest suffix first, again and again
    ("pozitsiyalarining", "pozitsiya"), ("qiymatlarni", "qiymat"), ("modelimizda", "model"),
    ("modelimizdagi", "model"), ("pozitsiyalarimizda", "pozitsiya"),
    # not suffixes: -ka/-qa/-ta after the wrong letter, and words with none
    ("boshqa", "boshqa"), ("ingichka", "ingichka"), ("maska", "maska"), ("lenta", "lenta"),
    ("model", "model"), ("attention", "attention"), ("transformer", "transformer"),
])
def test_each_suffix_rule(soz, ozak):
    assert ozagi(soz) == ozak


def test_the_minimum_stem_keeps_short_words():
    assert qidiruv.MIN_OZAK == 4
    # at 3 these would meet: key / keyingi (next), hal (solve) / hali (still), bosh (head) / boshqa
    assert ozagi("keyingi") == "keying" and ozagi("key") == "key"
    assert ozagi("hali") == "hali" and ozagi("nuqta") == "nuqta" and ozagi("bitta") == "bitta"
    assert ozagi("soni") == "soni"            # son + i: "son" is shorter than the minimum
    assert ozagi("qismi") == "qism"           # four letters left: stripped


def test_the_minimum_is_what_stops_the_stripping(monkeypatch):
    monkeypatch.setattr(qidiruv, "MIN_OZAK", 3)
    assert ozagi("keyingi") == "key"          # the collision MIN_OZAK = 4 avoids


def test_index_and_query_use_the_same_stem():
    assert TIL.stem("Pozitsiyalarining") == ozagi("pozitsiya") == "pozitsiya"
    assert TIL.split("ʻ ' soʻz") == ["soʻz"]          # a lone apostrophe is no word


# --- one set of rules, two implementations ---------------------------------------------------


def test_the_javascript_carries_the_python_tables():
    js = qidiruv.JS_KOD
    jadval = json.dumps(qidiruv.QOIDALAR, ensure_ascii=False)
    assert js.count(jadval) == 1
    assert json.loads(jadval) == {"apostroflar": qidiruv.APOSTROFLAR, "kanonik": qidiruv.KANONIK,
                                  "kirill": qidiruv.KIRILL, "kontekstli": qidiruv.KONTEKSTLI,
                                  "buklamalar": qidiruv.BUKLAMALAR, "qoshimchalar": qidiruv.QOSHIMCHALAR,
                                  "min_ozak": qidiruv.MIN_OZAK}
    # no rule is written a second time in the code around the tables
    kod = js.replace(jadval, "")
    for parcha in ("ning", "gacha", "ʻ", "ʼ", "'", "‘", "ц", "ye", "ts", "iye"):
        assert parcha not in kod, parcha
    assert not re.search(r"[<>]=?\s*\d", kod)          # the minimum length comes from the table


def _hamma_qatorlar() -> list[str]:
    return [" ".join(s) for s in (
        "Koʻrsatadi ko'rsatadi korsatadi Кўрсатади КЎРСАТАДИ".split(),
        "toʻgʻri to'g'ri to`g`ri to’g’ri togri тўғри ТЎҒРИ".split(),
        "eʼtibor e'tibor etibor эътибор ЭЪТИБОР".split(),
        "gradient gradiyent градиент pozitsiya pozitsiyaga pozitsiyalarining позиция позицияга".split(),
        "qiymatlarni modelimizda modelimizdagi keyingi key boshqa uzoqqa blokka".split(),
        "поезд объект функция цирк етарли лента альфа щётка коэффициент".split(),
        "d_model 512 x2 soʻz' 'attention' ‘Transformer’ ʻ ʼ".split(),
    )] + [f"ko{b}rsatadi e{b}tibor" for b in qidiruv.APOSTROFLAR]


def _node(js: str, sozlar: list[str], qatorlar: list[str]) -> tuple[list[str], list[list[str]]]:
    """Run the search JavaScript as searchtools.js does: stems of words, and of split queries."""
    node = shutil.which("node")
    assert node, "node is needed (make installs nodejs): it runs the search JavaScript here"
    dastur = js + """
const s = new Stemmer();
const kirish = JSON.parse(require("fs").readFileSync(0, "utf8"));
console.log(JSON.stringify([
  kirish.sozlar.map(w => s.stemWord(w.toLowerCase())),
  kirish.qatorlar.map(q => splitQuery(q.trim()).map(w => s.stemWord(w.toLowerCase())))]));
"""
    natija = subprocess.run([node, "-e", dastur], input=json.dumps({"sozlar": sozlar, "qatorlar": qatorlar}),
                            capture_output=True, text=True, check=True)
    return tuple(json.loads(natija.stdout))


def _python(sozlar: list[str], qatorlar: list[str]):
    return ([TIL.stem(w.lower()) for w in sozlar],
            [[TIL.stem(w.lower()) for w in TIL.split(q)] for q in qatorlar])


def _bob_manbasi_sozlari() -> list[str]:
    return sorted(set(TIL.split(" ".join(m for f in DARS_FAYLLARI
                                         for m in bob_matnlari(str(f.relative_to(ILDIZ)))))))


#: Words the chapter does not have: Cyrillic, every apostrophe, case, emoji, digits.
QOLDA = (["кўрсатади", "ТЎҒРИ", "эътибор", "Ёки", "щётка", "и\u0306ўл", "Koʻrsatadi", "😀soʻz",
          "x²", "12", "d_model", "İstanbul", "ß", "pozitsiyalarimizda", "ʻ", "ʻʼ"]
         + [f"to{b}g{b}ri" for b in qidiruv.APOSTROFLAR])


def test_javascript_and_python_agree_on_the_chapter_source_and_hand_made_words():
    sozlar = _bob_manbasi_sozlari()
    assert len(sozlar) > 1500
    sozlar += QOLDA
    qatorlar = _hamma_qatorlar()
    js_natija = _node(qidiruv.JS_KOD + qidiruv.JS_BOLUVCHI, sozlar, qatorlar)
    py_natija = _python(sozlar, qatorlar)
    assert js_natija[0] == py_natija[0], [(w, j, p) for w, j, p in zip(sozlar, *(js_natija[0], py_natija[0]))
                                          if j != p][:10]
    assert js_natija[1] == py_natija[1]
    # and the comparison sees the rules: the same query typed five ways, one key each time
    assert set(py_natija[1][0]) == {"korsatad"} and set(py_natija[1][1]) == {"togr"}


def _sahifa_sozlari(qurilgan: Path) -> list[str]:
    hujjat = BeautifulSoup(bob_html(qurilgan), "html.parser")
    for teg in hujjat(["script", "style"]):
        teg.decompose()
    return sorted(set(TIL.split(hujjat.get_text(" "))))


@pytest.mark.build
def test_the_sites_javascript_and_the_index_agree_on_every_word_of_the_chapter_page(qurilgan):
    """The built language_data.js (what readers run) against the Python that built the index."""
    sozlar = _sahifa_sozlari(qurilgan)
    assert len(sozlar) > 2500
    js = (qurilgan / "sayt" / "_static" / "language_data.js").read_text(encoding="utf-8")
    qatorlar = _hamma_qatorlar()
    js_natija = _node(js, sozlar + QOLDA, qatorlar)
    assert js_natija == tuple(_python(sozlar + QOLDA, qatorlar))


def _indeks(qurilgan: Path) -> dict:
    matn = (qurilgan / "sayt" / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(matn[len("Search.setIndex("):matn.rindex(")")])


@pytest.mark.build
def test_the_index_holds_stems_and_the_chapter_has_the_forms_the_browser_tests_rely_on(qurilgan):
    indeks = _indeks(qurilgan)
    darslar = {indeks["docnames"].index(d) for d in SAHIFALAR}
    for ozak in ("korsatad", "togr", "etibor", "gradient", "pozitsiya", "maqola"):
        topildi = set()
        for tur in ("terms", "titleterms"):       # a word of a heading is in titleterms only
            h = indeks[tur].get(ozak, [])
            topildi |= set(h if isinstance(h, list) else [h])
        assert darslar & topildi, ozak
    for shakl in ("pozitsiyaga", "pozitsiyalar", "qiymatlarni", "koʻrsatadi", "togri"):
        assert shakl not in indeks["terms"] and shakl not in indeks["titleterms"], f"{shakl!r} is indexed unstemmed"
    # "maqola" is on the chapter page only with suffixes; "maqolalarda" not at all
    sozlar = {s.lower() for s in _sahifa_sozlari(qurilgan)}
    assert "maqola" not in sozlar and {"maqolasida", "maqolasidagi"} <= sozlar
    assert "maqolalarda" not in sozlar and "pozitsiyalarimizda" not in sozlar


# --- the search page in Chromium -------------------------------------------------------------


#: One browser context for every search of this module's worker: the search index and the
#: pages a search fetches for its summaries come from its cache after the first search (each
#: search in a context of its own fetched and parsed them all again: CPU that make test, which
#: is CPU-bound, waited for).
_KONTEKSTLAR: dict = {}


def _qidir(brauzer, manzil: str, sorov: str, rasm: Path | None = None) -> dict:
    """Open search.html?q=...; return the results' links, summaries and highlighted words."""
    kontekst = _KONTEKSTLAR.get(id(brauzer))
    if kontekst is None:
        kontekst = _KONTEKSTLAR[id(brauzer)] = brauzer.new_context(viewport={"width": 1280, "height": 900})
    sahifa = kontekst.new_page()
    # this search's words only: the highlight terms an earlier search left in the origin's storage go
    sahifa.add_init_script("try { localStorage.removeItem('sphinx_highlight_terms') } catch (e) {}")
    xatolar: list[str] = []
    sahifa.on("console", lambda m: m.type == "error" and xatolar.append(m.text))
    sahifa.on("pageerror", lambda e: xatolar.append(str(e)))
    try:
        sahifa.goto(manzil + "search.html?q=" + quote(sorov), wait_until="networkidle")
        sahifa.wait_for_function(
            "() => (document.querySelector('#search-results p.search-summary') || {}).textContent",
            timeout=15_000)
        # every result fetches its page for a summary
        sahifa.wait_for_function(
            "() => [...document.querySelectorAll('#search-results ul.search > li')]"
            ".every(li => li.querySelector('p.context'))", timeout=15_000)
        sahifa.wait_for_load_state("networkidle")
        if rasm:
            sahifa.screenshot(path=rasm, full_page=True)
        natija = sahifa.evaluate("""() => ({
          holat: document.querySelector('#search-results p.search-summary').textContent,
          natijalar: [...document.querySelectorAll('#search-results ul.search > li')].map(li => ({
            href: li.querySelector('a').getAttribute('href'),
            nom: li.querySelector('a').textContent,
            xulosa: (li.querySelector('p.context') || {}).textContent || '',
            belgilangan: [...li.querySelectorAll('p.context span.highlighted')].map(s => s.textContent)})),
          belgilash: localStorage.getItem('sphinx_highlight_terms')})""")
    finally:
        sahifa.close()
    natija["xatolar"] = xatolar
    return natija


def _sahifasi(n: dict) -> str:
    """The docname a search result leads to (its href is relative to search.html)."""
    return n["href"].split("#")[0].split("?")[0].removesuffix(".html")


def _bob_natijasi(natija: dict) -> dict | None:
    return next((n for n in natija["natijalar"] if _sahifasi(n) in SAHIFALAR), None)


@pytest.mark.build
@pytest.mark.parametrize("sorov", ["FlashAttention", "Tarjimon", "LayerNorm", "ishoralar", "softmax"])
def test_search_leads_to_every_lesson_that_has_the_word(brauzer, manzil, qurilgan, sorov):
    """The chapter is several pages: a word is found on each lesson whose text has it."""
    kerak = set()
    for d in SAHIFALAR:
        hujjat = BeautifulSoup((qurilgan / "sayt" / f"{d}.html").read_text(encoding="utf-8"), "html.parser")
        for teg in hujjat(["script", "style", "nav", "header", "footer"]):
            teg.decompose()
        asosiy = hujjat.find("article") or hujjat
        if ozagi(sorov) in {ozagi(w) for w in TIL.split(asosiy.get_text(" "))}:
            kerak.add(d)
    assert kerak, f"no lesson has {sorov!r}"
    natija = _qidir(brauzer, manzil, sorov)
    topilgan = {_sahifasi(n) for n in natija["natijalar"]}
    assert kerak <= topilgan, f"{sorov!r}: lessons with it {sorted(kerak)}, found {sorted(topilgan)}"


@pytest.mark.build
@pytest.mark.parametrize("sorov", ["korsatadi", "togri", "ko'rsatadi", "эътибор", "градиент",
                                   "pozitsiya", "pozitsiyaga", "pozitsiyalarimizda", "maqola",
                                   "кўрсатади", "тўғри", "позиция"])
def test_search_page_finds_the_chapter_as_readers_type(brauzer, manzil, sorov):
    natija = _qidir(brauzer, manzil, sorov)
    assert not natija["xatolar"], natija["xatolar"]
    bob = _bob_natijasi(natija)
    assert bob, f"{sorov!r} found {[n['href'] for n in natija['natijalar']]}"
    # the summary shows a word of the page with the query's stem, highlighted
    assert bob["belgilangan"], f"{sorov!r}: nothing highlighted in {bob['xulosa'][:300]!r}"
    for soz in bob["belgilangan"]:
        assert ozagi(soz) == ozagi(sorov), (sorov, soz)
        assert soz.lower() in bob["xulosa"].lower()


@pytest.mark.build
@pytest.mark.parametrize("sorov", ["кўрсатади", "koʻrsatadi", "korsatadi", "тўғри", "pozitsiyaga"])
def test_the_cyrillic_editions_search_finds_the_chapter_typed_in_either_script(brauzer, manzil, sorov):
    """The Cyrillic edition's search page (its index made from its Cyrillic pages) finds a word
    typed in Cyrillic, in Latin, or without the ʻ, and highlights the page's Cyrillic word."""
    natija = _qidir(brauzer, manzil + "kirill/", sorov)
    assert not natija["xatolar"], natija["xatolar"]
    bob = _bob_natijasi(natija)
    assert bob, f"{sorov!r} found {[n['href'] for n in natija['natijalar']]}"
    assert bob["belgilangan"] and all(ozagi(s) == ozagi(sorov) and re.search("[а-яўқғҳ]", s.lower())
                                      for s in bob["belgilangan"]), (sorov, bob["belgilangan"])


@pytest.mark.build
def test_search_page_finds_nothing_for_nonsense(brauzer, manzil):
    natija = _qidir(brauzer, manzil, "qwxzjvb")
    assert natija["natijalar"] == [] and not natija["xatolar"], natija
    assert natija["holat"].startswith("Qidirilgan soʻzlarga mos natija topilmadi"), natija["holat"]


@pytest.mark.build
def test_a_query_without_the_apostrophe_shows_and_highlights_the_written_word(brauzer, manzil, qurilgan):
    papka = qurilgan / "screenshots"
    papka.mkdir(exist_ok=True)
    natija = _qidir(brauzer, manzil, "korsatadi", rasm=papka / "qidiruv-korsatadi.png")
    bob = _bob_natijasi(natija)
    assert bob and "koʻrsatadi" in bob["xulosa"].lower(), bob
    assert "koʻrsatadi" in [s.lower() for s in bob["belgilangan"]], bob
    # the page the reader opens highlights the word as written too
    assert "koʻrsatadi" in (natija["belgilash"] or "").split(), natija["belgilash"]


#: TeX as a summary would show it if a formula's source were read with its text (a script
#: with no Unicode form is written "e^(zⱼ)" on purpose: plain text, not TeX).
TEX = re.compile(r"\\[a-zA-Z]+|[\^_]\{|\{\\|\^[0-9A-Za-z]")


@pytest.mark.build
@pytest.mark.parametrize("sorov", ["softmax", "kvadratik", "xotira"])
def test_summaries_show_formulas_once_and_never_their_tex(brauzer, manzil, sorov):
    """A summary is the page's text around the word: a formula in it reads as shown, once,
    not followed by its MathML and TeX source ("O(T2)O(T^2)O(T2)")."""
    natija = _qidir(brauzer, manzil, sorov)
    xulosalar = [n["xulosa"] for n in natija["natijalar"]]
    assert xulosalar, f"{sorov!r} found nothing"
    tex = [x for x in xulosalar if TEX.search(x)]
    assert not tex, f"{sorov!r}: summaries with TeX source: {[x[:200] for x in tex]}"
    assert not natija["xatolar"], natija["xatolar"]


@pytest.mark.build
def test_a_formula_in_a_summary_reads_as_its_tex_says(brauzer, manzil):
    """«mebibayt, $2^{20}$ bayt»: the rendering's text flattens the power to "220" (an editor
    read «220 bayt»); a summary reads the formula's TeX, "2²⁰"."""
    natija = _qidir(brauzer, manzil, "mebibayt")
    xulosalar = " ".join(n["xulosa"] for n in natija["natijalar"])
    assert "2²⁰" in xulosalar and "220 bayt" not in xulosalar, xulosalar[:600]
    assert not natija["xatolar"], natija["xatolar"]


@pytest.mark.build
@pytest.mark.parametrize("sorov", ["kesh", "ajratuvchi", "gradient"])
def test_a_hit_is_named_and_opened_at_the_section_that_holds_the_word(brauzer, manzil, qurilgan, sorov):
    """A result whose word lies in a section is named "page > section" and leads there; the
    count says how many results are listed (results, not pages: a page may give two)."""
    natija = _qidir(brauzer, manzil, sorov)
    n = len(natija["natijalar"])
    assert natija["holat"] == f"Qidiruv tugadi: {n} ta mos natija topildi.", natija["holat"]
    bolimli = [r for r in natija["natijalar"] if " > " in r["nom"] and "#" in r["href"]]
    assert bolimli, f"{sorov!r}: no result names its section: {[r['nom'] for r in natija['natijalar']]}"
    for r in bolimli:
        sahifa, bolim = r["href"].split("#")
        hujjat = BeautifulSoup((qurilgan / "sayt" / sahifa).read_text(encoding="utf-8"), "html.parser")
        joy = hujjat.find(id=bolim)
        assert joy is not None, f"{r['href']}: no such section"
        if bolim.startswith("term-"):
            continue                                  # a glossary entry: Sphinx's own hit
        sarlavha = joy.find(["h2", "h3", "h4"])
        for teg in sarlavha.select(".headerlink, .katex-mathml"):
            teg.decompose()
        assert "".join(r["nom"].split(" > ", 1)[1].split()) == "".join(sarlavha.get_text().split()), r
        for teg in joy.select(".katex-mathml, script, style"):
            teg.decompose()
        assert ozagi(sorov) in {ozagi(w) for w in TIL.split(joy.get_text(" "))}, \
            f"{r['href']}: the section it opens does not hold {sorov!r}"


def _nasri(qurilgan, href: str) -> str:
    """The prose of the page a result leads to: its main text without code, printed output,
    maps and navigation, and without whitespace (a formula's pieces are spans)."""
    hujjat = BeautifulSoup((qurilgan / "sayt" / href.split("#")[0]).read_text(encoding="utf-8"), "html.parser")
    asosiy = hujjat.select_one("[role=main]") or hujjat
    for teg in asosiy.select("div.highlight, pre, div.cell_output, .kitob-xarita, nav, .onthispage, "
                             ".headerlink, .katex-mathml, script, style"):
        teg.decompose()
    return "".join(asosiy.get_text().split())


@pytest.mark.build
@pytest.mark.parametrize("sorov", ["ogirlik", "og'irlik", "оғирлик"])
def test_a_glossary_term_is_found_however_it_is_typed_and_summaries_are_prose(brauzer, manzil, qurilgan, sorov):
    """Issue 46: typed without ʻ, with ' or in Cyrillic (with ʻ Sphinx finds it itself), the
    glossary entry is among the results; the top six summaries are the pages' prose, not code."""
    natija = _qidir(brauzer, manzil, sorov)
    assert not natija["xatolar"], natija["xatolar"]
    hreflar = [n["href"] for n in natija["natijalar"]]
    assert "book/attention/atamalar.html#term-ogirlik" in hreflar[:3], hreflar[:6]
    for n in natija["natijalar"][:6]:
        parcha = "".join(n["xulosa"].replace("...", " ").split())
        if n["href"].endswith("#term-ogirlik"):
            continue                                  # the entry's own hit: the term itself
        assert len(parcha) > 30 and parcha[5:35] in _nasri(qurilgan, n["href"]), (
            f"{sorov!r}: the summary of {n['href']} is not the page's prose: {parcha[:120]!r}")


@pytest.mark.build
def test_a_followed_hit_lands_with_the_found_word_on_the_screen(brauzer, manzil):
    """Issue 46: following a search hit into a lesson's section brings the first marked word
    onto the screen (Sphinx left the page at the section's top, 1,6 screens above it)."""
    kontekst = brauzer.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        sahifa = kontekst.new_page()
        sahifa.goto(manzil + "search.html?q=" + quote("perpleksiya"), wait_until="networkidle")
        havola = sahifa.locator("#search-results ul.search > li a[href*='til_modeli.html#']").first
        havola.wait_for(timeout=15_000)
        sahifa.wait_for_function("() => [...document.querySelectorAll('#search-results ul.search > li')]"
                                 ".every(li => li.querySelector('p.context'))", timeout=15_000)
        havola.click()
        sahifa.wait_for_selector("span.highlighted", timeout=5000)
        sahifa.wait_for_timeout(300)
        joy = sahifa.evaluate("document.querySelector('.bd-article span.highlighted').getBoundingClientRect().toJSON()")
        assert 0 <= joy["top"] and joy["bottom"] <= 844, f"the found word is at y = {joy['top']:.0f}"
    finally:
        kontekst.close()
