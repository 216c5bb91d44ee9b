"""Build side: Uzbek search (a Sphinx extension: the search language ``uz``).

Every word of the index and of the reader's query gets one canonical key
(``qidiruv_kaliti``: "koʻrsatadi", "ko'rsatadi", "korsatadi" and "кўрсатади" are one),
then a light stem (``ozak``: "pozitsiya", "pozitsiyaga", "pozitsiyalarining" are one).
The rules are data, written once (APOSTROFLAR ... MIN_OZAK): Python applies them to the
index, the search page's JavaScript (``JS_KOD``) reads the same tables as JSON and applies
them to the query, so the two cannot drift (``tests/test_qidiruv.py`` runs both with
node).  A result's summary is centred on the page's word with the query's stem, that word
is highlighted, and the hit names its section.  The price of the stems: see ``ozak``.
"""

from __future__ import annotations

import io
import json
import re
import unicodedata

from sphinx.search import IndexBuilder, SearchLanguage

TIL = "uz"

#: Apostrophe look-alikes typed for the marks of oʻ, gʻ and the tutuq belgisi: ASCII ' and `,
#: ´, the modifier letters ʹ ʻ ʼ ʽ ˈ ˊ ˋ (the official ʻ and ʼ among them), ‘ ’ ‛, ′ and ＇.
APOSTROFLAR = "'`\u00b4\u02b9\u02bb\u02bc\u02bd\u02c8\u02ca\u02cb\u2018\u2019\u201b\u2032\uff07"
#: Between two letters every one of them is this one when words are split
#: (``normallashtir``), so "oʻrtacha" stays one word however it is typed.
KANONIK = "\u02bb"
_ORADA = re.compile(r"(?<=\w)[" + re.escape(APOSTROFLAR) + r"](?=\w)")

#: Uzbek Cyrillic -> the official Latin alphabet, letter by letter (е and ц: KONTEKSTLI).
KIRILL = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "ё": "yo", "ж": "j", "з": "z", "и": "i", "й": "y",
    "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t", "у": "u",
    "ф": "f", "х": "x", "ч": "ch", "ш": "sh", "щ": "sh", "ъ": "\u02bc", "ы": "i", "ь": "", "э": "e",
    "ю": "yu", "я": "ya", "ў": "o\u02bb", "қ": "q", "ғ": "g\u02bb", "ҳ": "h"}
#: Vowels (Cyrillic, and Latin for mixed words): the context of е and ц.
UNLILAR = "аеёиоуэюяўыaeiou"
#: letter -> [at the start of a word, after one of these letters, there, elsewhere]: е is "ye" at
#: the start of a word and after a vowel, ъ or ь ("етарли" yetarli, "поезд" poyezd, "объект"
#: obyekt), else "e"; ц is "ts" after a vowel ("позиция" pozitsiya), else "s" ("функция" funksiya).
KONTEKSTLI = {"е": ["ye", UNLILAR + "ъь", "ye", "e"], "ц": ["s", UNLILAR, "ts", "s"]}
#: Folds of the key after transliteration: the rule writes е after и as "ye" ("градиент" ->
#: gradiyent), the Latin text keeps the loanword's "gradient"; no Uzbek word contrasts the two.
BUKLAMALAR = [["iye", "ie"]]

#: Suffixes the stemmer strips, as [suffix, letters one of which must precede it ("" = any)]:
#: case endings (-ning, -ni, -ga/-ka/-qa, -da/-ta, -dan/-tan, -dagi, -gacha), plural -lar,
#: possessives (-im, -ing, -i/-si, -imiz, -ingiz, -lari).  -ka follows k and -qa follows q
#: ("blokka", "uzoqqa"), so "boshqa" (other) is not "bosh" (head); -ta/-tan follow a voiceless
#: consonant.  Written as keys (no apostrophes).
QOSHIMCHALAR = [
    ["gacha", ""], ["ingiz", ""], ["dagi", ""], ["imiz", ""], ["lari", ""], ["ning", ""],
    ["dan", ""], ["tan", "ptkfsxqh"], ["ing", ""], ["lar", ""],
    ["ga", ""], ["ka", "k"], ["qa", "q"], ["da", ""], ["ta", "ptkfsxqh"], ["ni", ""],
    ["im", ""], ["si", ""], ["i", ""],
]
#: The shortest stem left: a suffix is stripped only if at least this many
#: letters remain (measured over the chapter's words: see ``ozak``).
MIN_OZAK = 4


def normallashtir(matn: str) -> str:
    """Every apostrophe variant between two word characters becomes ʻ (words stay whole when split)."""
    return _ORADA.sub(KANONIK, matn)


def qidiruv_kaliti(soz: str) -> str:
    """The canonical search key of one word: lower case, Latin, no apostrophes, folded
    ("кўрсатади", "koʻrsatadi" → "korsatadi"; "эътибор", "eʼtibor" → "etibor")."""
    harflar = list(unicodedata.normalize("NFC", soz).lower())
    chiqish = []
    for i, h in enumerate(harflar):
        if h in KONTEKSTLI:
            boshida, keyin, ha, yoq = KONTEKSTLI[h]
            chiqish.append(boshida if i == 0 else ha if harflar[i - 1] in keyin else yoq)
        else:
            chiqish.append(KIRILL.get(h, h))
    kalit = "".join(h for h in "".join(chiqish) if h not in APOSTROFLAR)
    for eski, yangi in BUKLAMALAR:
        kalit = kalit.replace(eski, yangi)
    return kalit


def ozak(kalit: str) -> str:
    """The stem of a key: the longest matching suffix stripped, again and again.

    A suffix goes only if MIN_OZAK letters remain and its preceding-letter condition
    holds: "pozitsiyalarining" -> "pozitsiya", "modelimizdagi" -> "model".  Verbs lose
    only a final -i or -ni ("korsatadi" -> "korsatad"); a query is stemmed the same way.

    MIN_OZAK = 4 was measured over every word of the chapter's text (3,045 words, 2,338
    stems; 261 stems join 956 keys, e.g. 18 forms of "model").  At 3 unrelated words
    meet ("key" and "keyingi", "hal" and "hali", "old" and "oldingi"); at 5 common short
    nouns lose their forms (vaqt, qism, rasm, matn, blok, token).  Accepted at 4: "bosh"
    and "boʻsh" are one key (the other keys two spellings share are one word written
    with and without ʻ); -ni read where -i was meant after an n ("tokeni" -> "toke",
    while "token" keeps its stem and is still found by its other forms); stems under
    four letters keep some forms apart ("soni", "sonni", "sonlar").
    """
    while True:
        for qoshimcha, oldidan in QOSHIMCHALAR:
            qoldiq = len(kalit) - len(qoshimcha)
            if (qoldiq >= MIN_OZAK and kalit.endswith(qoshimcha)
                    and (not oldidan or kalit[qoldiq - 1] in oldidan)):
                kalit = kalit[:qoldiq]
                break
        else:
            return kalit


def qidiruv_ozagi(soz: str) -> str:
    """What the index holds for a word and what a query word is looked up as."""
    return ozak(qidiruv_kaliti(soz))


#: The rules as the JavaScript reads them (JSON: the same objects as above).
QOIDALAR = {"apostroflar": APOSTROFLAR, "kanonik": KANONIK, "kirill": KIRILL,
            "kontekstli": KONTEKSTLI, "buklamalar": BUKLAMALAR, "qoshimchalar": QOSHIMCHALAR,
            "min_ozak": MIN_OZAK}

#: language_data.js: ``splitQuery`` joins words over apostrophes like ``normallashtir``,
#: ``Stemmer.stemWord`` is ``qidiruv_ozagi``; the search page's summaries are centred on the
#: page's word with the query's stem (Sphinx looks for the stem itself, which "korsat..." is
#: not in "koʻrsatadi"), and the words found are highlighted.
#: A formula in a search summary, read from its TeX as plain text: no word rule of the tables
#: above, so kept apart from JS_KOD (whose code around the tables must not repeat one).
JS_FORMULA = r"""
/* a formula in a summary is read from its TeX as plain text, once: 2^{20} is "2²⁰", not "220" as
 * the rendering flattens it (an editor read "mebibayt, 220 bayt"), \cdot "·", z_j "zⱼ"; a
 * script with no Unicode form keeps its brackets, "e^(zⱼ)"
 */
var uzUstki = Object.fromEntries([..."0123456789+-−=()nijkT"].map((c, i) => [c, "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱʲᵏᵀ"[i]]));
var uzOstki = Object.fromEntries([..."0123456789+-−=()aehijklmnoprstuvx"].map((c, i) => [c, "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"[i]]));
var uzBuyruqlar = {cdot: "·", times: "×", le: "≤", leq: "≤", ge: "≥", geq: "≥", approx: "≈", to: "→",
  infty: "∞", sum: "∑", prod: "∏", in: "∈", ne: "≠", neq: "≠", pm: "±", ldots: "…", dots: "…",
  cdots: "…", top: "ᵀ", sigma: "σ", alpha: "α", beta: "β", theta: "θ", mu: "μ", lambda: "λ",
  ell: "ℓ", left: "", right: "", quad: " ", qquad: " ", mid: "|", lvert: "|", rvert: "|"};
var uzFormula = (tex) => {
  let f = tex.replace(/\\(?:mathrm|text|operatorname|mathbf|mathit|boldsymbol)\{([^{}]*)\}/g, "$1")
    .replace(/\\mathcal\{V\}/g, "𝒱")
    .replace(/\\sqrt\{([^{}]*)\}/g, (_, a) => "√" + (a.length > 1 ? `(${a})` : a))
    .replace(/\\frac\{([^{}]*)\}\{([^{}]*)\}/g, "($1)/($2)")
    .replace(/\{,\}/g, ",")
    .replace(/\\[,;:! ]/g, " ")
    .replace(/\\([a-zA-Z]+)/g, (_, b) => (b in uzBuyruqlar ? uzBuyruqlar[b] : b));
  for (const [belgi, jadval] of [["_", uzOstki], ["^", uzUstki]]) {
    f = f.replace(new RegExp(`\\${belgi}(?:\\{([^{}]*)\\}|(\\S))`, "g"), (_, ichi, bitta) => {
      const t = ichi ?? bitta;
      if ([...t].every((c) => c in jadval || c === "ᵀ")) return [...t].map((c) => jadval[c] || c).join("");
      return `${belgi}(${t})`;
    });
  }
  return f.replace(/[{}]/g, "").replace(/\s*·\s*/g, "·").replace(/\s+/g, " ").trim();
};
"""

JS_KOD = r"""
/* Uzbek search (book/_ext/qurilish/qidiruv.py): the rules are the JSON below, the same data the index used */
var uzQoidalar = """ + json.dumps(QOIDALAR, ensure_ascii=False) + r""";
var uzBelgilar = uzQoidalar.apostroflar.replace(/[\\\]\[^-]/g, "\\$&");
var uzApostrof = new RegExp("([\\p{Letter}\\p{Number}_])[" + uzBelgilar + "](?=[\\p{Letter}\\p{Number}_])", "gu");
/* a word as written, apostrophes inside it kept as they are (to find it in the text of a page) */
var uzYozilgan = new RegExp("[\\p{Letter}\\p{Number}_]+(?:[" + uzBelgilar + "][\\p{Letter}\\p{Number}_]+)*", "gu");
var uzNormallashtir = (matn) => matn.replace(uzApostrof, "$1" + uzQoidalar.kanonik);
var uzKalit = (soz) => {
  const harflar = Array.from(soz.normalize("NFC").toLowerCase());
  let kalit = harflar.map((h, i) => {
    const k = uzQoidalar.kontekstli[h];
    if (k) return i === 0 ? k[0] : (k[1].includes(harflar[i - 1]) ? k[2] : k[3]);
    return Object.prototype.hasOwnProperty.call(uzQoidalar.kirill, h) ? uzQoidalar.kirill[h] : h;
  }).join("");
  kalit = Array.from(kalit).filter((h) => !uzQoidalar.apostroflar.includes(h)).join("");
  for (const [eski, yangi] of uzQoidalar.buklamalar) kalit = kalit.split(eski).join(yangi);
  return kalit;
};
var uzOzak = (kalit) => {
  let h = Array.from(kalit);
  for (;;) {
    const topilgan = uzQoidalar.qoshimchalar.find(([q, oldidan]) => {
      const qoldiq = h.length - Array.from(q).length;
      return qoldiq >= uzQoidalar.min_ozak && h.slice(qoldiq).join("") === q
        && (!oldidan || oldidan.includes(h[qoldiq - 1]));
    });
    if (!topilgan) return h.join("");
    h = h.slice(0, h.length - Array.from(topilgan[0]).length);
  }
};
var uzOzagi = (soz) => uzOzak(uzKalit(soz));
var Stemmer = function() { this.stemWord = uzOzagi; };
/* the search page: summaries and highlighting by stem (Sphinx 7.4 searchtools.js) */
var uzUlash = () => {
  if (typeof Search === "undefined" || Search.uzUlangan) return;
  Search.uzUlangan = true;
  let belgilanadi = null;   // the highlight terms of the current query (a Set searchtools keeps)
  const tahlil = Search._parseQuery;
  if (typeof tahlil === "function") Search._parseQuery = (query) => {
    const natija = tahlil(query);
    if (Array.isArray(natija) && natija[3] instanceof Set) belgilanadi = natija[3];
    return natija;
  };
  // a glossary term (Sphinx finds it among the index entries, and a section by the title,
  // comparing them with the query as typed) is found however the word is typed: without the
  // apostrophe, with an ASCII one, in Cyrillic. Entries, titles and the query are compared by
  // the keys while the search runs; a hit shows a title as written.
  const izla = Search._performSearch;
  if (typeof izla === "function") Search._performSearch = (query, ...qolgani) => {
    const indeks = Search._index;
    if (!indeks || !indeks.indexentries || !indeks.alltitles) return izla(query, ...qolgani);
    if (!indeks.uzKirishlar) {
      const kalitla = (lugat, asli) => {
        const yangi = {};
        for (const [yozuv, joylar] of Object.entries(lugat)) {
          const k = uzKalit(yozuv);
          (yangi[k] ||= []).push(...joylar);
          if (asli) asli.set(k, yozuv);
        }
        return yangi;
      };
      indeks.uzSarlavhaAsli = new Map();
      indeks.uzKirishlar = kalitla(indeks.indexentries, null);
      indeks.uzSarlavhalar = kalitla(indeks.alltitles, indeks.uzSarlavhaAsli);
    }
    const [kirishlar, sarlavhalar] = [indeks.indexentries, indeks.alltitles];
    [indeks.indexentries, indeks.alltitles] = [indeks.uzKirishlar, indeks.uzSarlavhalar];
    let natija;
    try {
      natija = izla(uzKalit(query), ...qolgani);
    } finally {
      [indeks.indexentries, indeks.alltitles] = [kirishlar, sarlavhalar];
    }
    const asli = indeks.uzSarlavhaAsli;
    // a page once: the hit with no place on the page goes when a hit names a place on it (a term, a
    // section), which the reader reaches with the word on screen
    const joyli = new Set(natija.filter((n) => n[2]).map((n) => n[0]));
    natija = natija.filter((n) => n[2] || !joyli.has(n[0]));
    return natija.map((n) => {          // the title of a section (a key while searching) as written
      const i = n[1].lastIndexOf(" > ");
      const sarlavha = asli.get(i === -1 ? n[1] : n[1].slice(i + 3));
      if (sarlavha === undefined) return n;
      return [n[0], i === -1 || sarlavha === n[1].slice(0, i) ? sarlavha : `${n[1].slice(0, i)} > ${sarlavha}`,
              ...n.slice(2)];
    });
  };
  // a formula once, as read from the TeX (uzFormula); never the print-only or side menu, the
  // menu of the page or the download box; a space after each block (a glossary term and the note
  // under it read "harorat ingl. …", not "haroratingl."); and, while kodsiz is set, without code
  // and printed output, so that a summary is prose
  let kodsiz = false;
  const matnga = Search.htmlToText;
  if (typeof matnga === "function") Search.htmlToText = (htmlString, anchor) => {
    const hujjat = new DOMParser().parseFromString(htmlString, "text/html");
    hujjat.querySelectorAll(".katex").forEach((k) => {
      const tex = k.querySelector(`annotation[encoding="application/x-tex"]`);
      k.replaceWith(tex ? uzFormula(tex.textContent) : k.querySelector(".katex-html")?.textContent || "");
    });
    hujjat.querySelectorAll("#jb-print-docs-body, .bd-sidebar-secondary, .onthispage, details.yuklab-izoh"
                            + (kodsiz ? ", div.highlight, pre, div.cell_output, .kitob-xarita, nav" : ""))
      .forEach((e) => e.remove());
    hujjat.querySelectorAll("dt, dd, p, li, h1, h2, h3, h4, th, td, figcaption, summary")
      .forEach((e) => e.append(" "));
    return matnga(hujjat.documentElement.outerHTML, anchor);
  };
  // the section that holds the word: the hit is named "page > section" (as Sphinx names a
  // hit in a section title) and opens there
  const bolimi = (htmlText, soz) => {
    const hujjat = new DOMParser().parseFromString(htmlText, "text/html");
    const asosiy = hujjat.querySelector("[role=main]");
    if (!asosiy) return null;
    const yurgich = hujjat.createTreeWalker(asosiy, NodeFilter.SHOW_TEXT);
    for (let n = yurgich.nextNode(); n; n = yurgich.nextNode()) {
      if (n.parentElement.closest(".katex-mathml, script, style, .headerlink")) continue;
      if (!n.textContent.toLowerCase().includes(soz)) continue;
      const bolim = n.parentElement.closest("section[id]");
      const sarlavha = bolim && bolim.querySelector(":scope > h2, :scope > h3, :scope > h4");
      if (!sarlavha) return null;
      const nusxa = sarlavha.cloneNode(true);
      nusxa.querySelectorAll(".headerlink, .katex-mathml").forEach((c) => c.remove());
      return { id: bolim.id, nom: nusxa.textContent.trim() };
    }
    return null;
  };
  const xulosa = Search.makeSearchSummary;
  if (typeof xulosa !== "function" || typeof Search.htmlToText !== "function") return;
  Search.makeSearchSummary = (htmlText, keywords, anchor) => {
    const ozaklar = new Set(keywords);
    const mosi = () => {
      const matn = Search.htmlToText(htmlText, anchor);
      const sozlar = [...new Set((matn.match(uzYozilgan) || []).map((s) => s.toLowerCase()))];
      return [matn, sozlar.filter((s) => ozaklar.has(uzOzagi(s)))];
    };
    // the summary from the prose when the word is there, else from the whole page
    kodsiz = true;
    let [matn, mos] = mosi();
    if (!mos.length) { kodsiz = false; [matn, mos] = mosi(); }
    try {
      return uzXulosa(htmlText, keywords, anchor, matn, mos);
    } finally {
      kodsiz = false;
    }
  };
  const uzXulosa = (htmlText, keywords, anchor, matn, mos) => {
    if (!mos.length) return xulosa(htmlText, keywords, anchor);
    if (belgilanadi) {
      mos.forEach((s) => belgilanadi.add(s));
      if (typeof SPHINX_HIGHLIGHT_ENABLED !== "undefined" && SPHINX_HIGHLIGHT_ENABLED)
        localStorage.setItem("sphinx_highlight_terms", [...belgilanadi].join(" "));
    }
    // the summary of Sphinx, around the first of these words on the page
    const matnKichik = matn.toLowerCase();
    const birinchi = mos.reduce((a, b) => (matnKichik.indexOf(a) <= matnKichik.indexOf(b) ? a : b));
    const qism = xulosa(htmlText, [birinchi], anchor);
    const bolim = anchor ? null : bolimi(htmlText, birinchi);
    if (bolim && qism) queueMicrotask(() => {   // once searchtools has added the summary to the item
      const havola = qism.parentElement && qism.parentElement.querySelector("a");
      if (!havola) return;
      havola.textContent += " > " + bolim.nom;
      havola.setAttribute("href", havola.getAttribute("href").split("#")[0] + "#" + bolim.id);
    });
    return qism;
  };
};
uzUlash();
if (typeof document !== "undefined") document.addEventListener("DOMContentLoaded", uzUlash);
"""
JS_BOLUVCHI = r"""
var splitQuery = (query) => uzNormallashtir(query)
    .split(/[^\p{Letter}\p{Number}_\p{Emoji_Presentation}]+/gu)
    .filter(term => uzKalit(term))  // remove empty strings and lone apostrophes
"""


class SearchUzbek(SearchLanguage):
    """Uzbek: one key for every spelling (Latin or Cyrillic, any apostrophe), light suffix stemming."""

    lang = TIL
    language_name = "Uzbek"
    stopwords: set[str] = set()
    js_stemmer_code = JS_FORMULA + JS_KOD
    js_splitter_code = JS_BOLUVCHI
    _word_re = re.compile(r"\w+")

    def split(self, input: str) -> list[str]:
        return [s for s in self._word_re.findall(normallashtir(input)) if qidiruv_kaliti(s)]

    def stem(self, word: str) -> str:
        return qidiruv_ozagi(word)


def _kirishlar_bilan_yukla(asl):
    """IndexBuilder.load, also restoring the index entries (sphinx-doc/sphinx#12599, open).  A
    rebuild loads the last searchindex.js and feeds only the pages it writes; load restores the
    words and titles but not ``indexentries``, whose store (the environment's) is pickled before
    the pages are written, so after an edit the index kept only the written pages' entries: the
    glossary's terms vanished from search after a prose edit, and came back with a fresh build."""
    def load(self, stream, format) -> None:
        matn = stream.read()
        asl(self, io.StringIO(matn), format)                      # its checks (ValueError) first
        muzlagan = (self.formats[format] if isinstance(format, str) else format).loads(matn)
        hujjatlar = muzlagan["docnames"]
        tiklangan: dict[str, list[tuple[str, str, str]]] = {}
        for kirish, joylar in muzlagan.get("indexentries", {}).items():
            for hujjat, langar, asosiy in joylar:
                tiklangan.setdefault(hujjatlar[hujjat], []).append((kirish, langar, "main" if asosiy else ""))
        for hujjat in sorted(tiklangan):                          # the pages written now feed theirs again
            self._index_entries[hujjat] = sorted(tiklangan[hujjat])
    return load


def _kirishlar_bilan_kesadi(asl):
    """IndexBuilder.prune, also dropping a removed page's index entries (freeze would fail on it)."""
    def prune(self, docnames) -> None:
        asl(self, docnames)
        qoladi = set(docnames)
        for hujjat in [h for h in self._index_entries if h not in qoladi]:
            del self._index_entries[hujjat]
    return prune


if not getattr(IndexBuilder.load, "kitob", False):
    IndexBuilder.load = _kirishlar_bilan_yukla(IndexBuilder.load)
    IndexBuilder.prune = _kirishlar_bilan_kesadi(IndexBuilder.prune)
    IndexBuilder.load.kitob = True


def setup(app):
    app.add_search_language(SearchUzbek)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
