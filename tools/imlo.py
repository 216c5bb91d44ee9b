"""The chapter's Uzbek spelling rules as a checker (pure functions; tests in test_imlo.py).

What a reader reads — the prose of ``book/attention.py``, the captions and
table cells written in its code, the glossary, and the text of the built
pages — is searched for five recurring rule breaks (/work/shared/STYLE.md,
"Uzbek text"):

``son``
    Numbers: a decimal comma (0,997, not 0.997); powers of ten as 2,8·10⁻⁵,
    never 2.8e-05; one percent style — the number, a narrow no-break space
    (U+202F), then % ("98 %"); five or more integer digits grouped in threes
    with U+202F ("32 768").  A ``{glue:text}`` role or an f-string field whose
    format spec always prints a dot, an e or a glued % (``:.2f``, ``:.1e``,
    ``:.0%``) is reported in the source as well, where it can be fixed.
``qoʻshimcha``
    A suffix written apart after an abbreviation or a foreign word ("RNN da",
    "attention ni") or after a numbered reference ("1.2-rasm dagi"): Uzbek
    spelling joins it ("RNNda", "attentionni", "1.2-rasmdagi").
``atama``
    One meaning per term: a word written in a meaning the chapter gives another
    word (``BIR_MAZMUN``: "toʻgʻri" is "correct", never the forward pass; "yadro"
    a CPU core, never a kernel; "oqim" the thread, ...), or a calque the chapter
    replaced ("yasamoq", "yigʻish" for a build).
``havola``
    Each glossary term's first use in each lesson's prose is a ``{term}`` link to
    its entry in "Atamalar" (``python tools/imlo.py --havola`` writes the missing ones).
``izoh``
    An English term a student will meet (``ATAMALAR``) must be glossed where
    it first appears in the prose and be listed in the "Atamalar" glossary.

Never checked: code (inline code, code cells, ``<pre>``, ``<code>``), maths
(``$…$``, ``$$…$$``, ``.math`` and KaTeX output), URLs, and what code prints
(stream and text/plain outputs stay as Python prints them).  Tables in outputs
are checked: their cells are reader-facing.

Deliberately allowed (documented practice, not an oversight):

* a spaced suffix after a formula ("$\\sqrt{d}$ ga", "*T* ga": a one-letter
  italic variable is a formula written in italics) or after a number
  ("60 ta", "1 ga teng"): mathematics-textbook practice;
* a spaced suffix after inline code ("`Blok` esa", "`dict` lar"): programming
  books separate code from Uzbek suffixes, because joining would change the
  identifier the reader copies;
* a spaced suffix after a glued value ({glue:text}): glued values are numbers
  (or whole phrases) here, so the number rule applies.

A finding prints as ``line: «fragment» (context) … rule … what would be right``.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

# --- rules' data ------------------------------------------------------------------

#: Uzbek suffixes (and suffix chains) that, written as a separate word after an
#: abbreviation or a foreign word, are a spelling error.  "ta" is a counter word
#: after a number ("59 ta") and "da" a conjunction after an Uzbek word, so the
#: checker only looks at them after the words below, never after numbers.
QOSHIMCHALAR = (
    "da", "ga", "ka", "qa", "ni", "ning", "dan", "tan", "dagi", "dagilar", "dagidek",
    "gacha", "dek", "day", "dir", "mi", "cha", "siz", "li", "lik", "i", "si", "ta", "tasi",
    "lar", "larni", "larning", "larda", "lardan", "larga", "lardagi",
    "niki", "nikidan", "nikiga", "nikida", "dagina", "gina",
)

#: Foreign words (and mixed-case names) the chapter uses with Uzbek suffixes.
#: Upper-case abbreviations (RNN, LSTM, GPT-2, KV, SDPA, MAC...) need no entry:
#: ``QISQARTMA`` finds them.  Collected from the chapter's prose, captions and
#: glued sentences (grep "<word> da|ga|ni|ning..." in book/attention.py).
XORIJIY_SOZLAR = (
    "attention", "Attention", "softmax", "Softmax", "transformer", "Transformer",
    "seed", "batch", "dropout", "embedding", "float32", "float16", "bfloat16",
    "forward", "backward", "feed-forward", "Feed-forward", "multi-head", "Multi-head",
    "cross-attention", "Cross-attention", "self-attention", "fine-tuning",
    "teacher forcing", "logit", "prompt", "token", "dict", "Python", "PyTorch", "Llama",
    "LayerNorm", "RMSNorm", "SwiGLU", "FlashAttention", "RoPE", "LoRA", "QLoRA",
    "pre-LN", "post-LN", "Pre-LN", "Post-LN", "kernel", "thread", "warm-up", "flash",
    "encoder", "decoder", "benchmark", "MiB", "GiB", "KiB", "JavaScript", "Thebe",
    # an Uzbek loanword, listed because the chapter writes "KV kesh ni"
    "kesh",
)

#: An abbreviation: two or more capital letters or digits, starting with a
#: capital, optionally with hyphenated parts (RNN, LSTM, GPT-2, KV, MLP, BERT).
QISQARTMA = r"[A-Z][A-Z0-9]*[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*|[A-Z][A-Z0-9]+-[0-9]+"

#: English terms a student will meet: (name, aliases, glossary names).
#: The first occurrence of any alias in the prose must carry a gloss; one of the
#: glossary names (or aliases) must head an entry of "Atamalar", or be its
#: "ingl. …" part.  Aliases with a capital letter match case-sensitively; an
#: alias matches at the start of a word, with an Uzbek suffix joined ("seedlar").
#: Not listed: softmax (explained where it is used, 150-153, and judged fine by
#: the language review), koder/dekoder (the Uzbek words; their first use is the
#: explanation itself: "Matn yozadigan model (GPT kabi *dekoder*)"), proper names
#: (Transformer, GPT, BERT, Llama, PyTorch) and general computing words (CPU, GPU).
ATAMALAR: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = [
    ("attention", ("attention", "eʼtibor mexanizmi"), ("attention",)),
    ("seed", ("seed",), ("seed",)),                          # review §3: never explained
    ("epoxa", ("epoxa", "epoch"), ("epoxa", "epoch")),
    ("batch", ("batch", "paket"), ("batch", "paket")),       # "64 talik paketlar"
    ("forward pass", ("forward", "oldinga oʻtish"), ("forward pass", "oldinga oʻtish")),
    ("backward pass", ("backward", "orqaga oʻtish"), ("backward pass", "orqaga oʻtish")),
    ("kauzal maska", ("kauzal maska", "causal mask"), ("kauzal maska",)),
    ("residual", ("residual", "qoldiq ulanish"), ("residual", "qoldiq ulanish")),
    ("multi-head attention", ("multi-head attention", "koʻp boshli attention"),
     ("multi-head attention",)),
    ("feed-forward", ("feed-forward",), ("feed-forward",)),
    ("MLP", ("MLP",), ("MLP",)),                              # table "2 qatlamli MLP"
    ("LayerNorm", ("LayerNorm",), ("LayerNorm",)),
    ("pre-LN / post-LN", ("pre-LN", "post-LN", "Pre-LN", "Post-LN"), ("pre-LN", "post-LN")),
    ("embedding", ("embedding",), ("embedding",)),
    ("cross-attention", ("cross-attention", "Cross-attention"), ("cross-attention",)),
    ("teacher forcing", ("teacher forcing",), ("teacher forcing",)),
    ("token", ("token",), ("token",)),
    ("logit", ("logit",), ("logit",)),
    ("prompt", ("prompt", "boshlangʻich matn"), ("prompt", "boshlangʻich matn")),
    ("KV kesh", ("KV kesh", "KV cache"), ("KV kesh",)),
    ("GQA", ("GQA", "grouped-query attention", "guruhlangan soʻrovli attention"), ("GQA",)),
    ("RoPE", ("RoPE", "rotary position embedding"), ("RoPE",)),
    ("FlashAttention", ("FlashAttention",), ("FlashAttention",)),
    ("SDPA", ("SDPA", "scaled_dot_product_attention"), ("SDPA",)),
    ("MAC", ("MAC", "multiply-accumulate"), ("MAC",)),
    ("oqim (thread)", ("thread",), ("oqim", "thread")),
    ("kernel", ("kernel",), ("kernel",)),
    ("initsializatsiya", ("initsializatsiya",), ("initsializatsiya", "initialization")),
    ("float32", ("float32",), ("float32",)),
    ("bfloat16", ("bfloat16",), ("bfloat16",)),
    ("MiB", ("MiB", "GiB", "KiB"), ("MiB",)),
    ("fine-tuning", ("fine-tuning",), ("fine-tuning",)),
    ("LLM", ("LLM",), ("LLM",)),                              # qoʻllash jadvali
    ("RAG", ("RAG",), ("RAG",)),
    ("LoRA", ("LoRA",), ("LoRA",)),
    ("QLoRA", ("QLoRA",), ("QLoRA",)),
    ("OCR", ("OCR",), ("OCR",)),
]

#: One meaning per term (STYLE.md "one meaning per term"; issue 28): each entry is a word
#: written in a meaning the chapter gives another word, as (pattern, the word and the meaning it
#: keeps, what to write instead).  A pattern matches case-insensitively at a word start.
BIR_MAZMUN: list[tuple[str, str, str]] = [
    (r"toʻgʻri\s+(?:va\s+(?:teskari|orqaga)\s+)?oʻtish", "«toʻgʻri» faqat «xatosiz» maʼnosida",
     "oldinga oʻtish (forward pass)"),
    (r"teskari\s+oʻtish", "«teskari oʻtish» emas", "orqaga oʻtish (backward pass)"),
    (r"toʻgʻri\s+chiziq", "«toʻgʻri» faqat «xatosiz» maʼnosida", "chiziq"),
    (r"toʻgʻridan-toʻgʻri", "«toʻgʻri» faqat «xatosiz» maʼnosida", "bevosita"),
    (r"toʻgʻri\s+(?:yoʻl|tarqal)|yoʻl(?:i)?\s+toʻgʻri\b", "«toʻgʻri» faqat «xatosiz» maʼnosida",
     "bevosita yoʻl; oldinga tarqaluvchi (feed-forward)"),
    (r"(?<!protsessor )(?<!ikki )(?<!koʻp )(?<!bitta )(?<!har )(?<!\d )yadro(?!l(?:i|ar soni)\b)",
     "«yadro» faqat protsessor yadrosi", "kernel (hisob funksiyasi)"),
    (r"ip(?:da|ga|ni|dagi|li|lar\w*)?(?![\wʻʼ])", "«ip» emas (thread)", "oqim"),
    (r"(?:standart|yomon|yaxshi|tasodifiy|turli|bitta|har\s+xil)\s+boshlan(?!gʻich)|toʻgʻri\s+(?:boshlash|initsializatsiya)",
     "«boshlanish» faqat «boshi» maʼnosida", "initsializatsiya"),
    (r"norm(?:da|ga|ni|dan|ning|i|lar\w*)?(?![\wʻʼ])", "«norm» otsiz qoʻllanmaydi",
     "normallashtirish qatlami"),
    (r"klass(?!ik|ifik)", "«klass» emas (class)", "sinf"),
    (r"vazn(?!li\s+(?:oʻrtacha|yigʻindi))", "«vazn» faqat «vaznli oʻrtacha/yigʻindi»da",
     "parametr(lar) yoki ogʻirlik"),
    (r"token\w*\s+raqam|lugʻatdagi\s+raqam|tokenlar\s+raqamlarga",
     "«raqam» faqat 0–9 raqami", "indeks (tokenning lugʻatdagi indeksi)"),
    (r"nolmas", "«nolmas» emas", "noldan farqli"),
    (r"maksimal\s+farq", "«eng katta farq» bitta atama", "eng katta farq"),
    (r"yasa(?:[bdgmnlsy]\w*)?(?![\wʻʼ])", "«yasamoq» kalkasi", "hosil qilmoq, tuzmoq, yaratmoq"),
    (r"yigʻi(?:sh|l(?:gan|ayotgan|ganda))", "«yigʻish» (build) oʻquvchiga tushunarsiz",
     "darsda qurilish haqida gapirmang (kirish sahifasidagi izoh yetadi)"),
]
_BIR_MAZMUN = [(re.compile(rf"(?<![\wʻʼ\-]){n}", re.IGNORECASE), q, t) for n, q, t in BIR_MAZMUN]


#: A dotted number that is legitimately dotted is preceded by one of these (a
#: product with a version: "Python 3.11", "GPT-3.5", "Jupyter Book 1.0.4"), or
#: has two or more dots (a version: "2.13.0"), or is a numbered reference
#: followed by a hyphen and a word ("1.2-rasm", "1.3-jadvaldan", as numfig writes).
VERSIYA_OLDIDAN = re.compile(
    r"(?:\b(?:Python|torch|PyTorch|Jupyter Book|Sphinx|MyST-NB|NumPy|numpy|pandas|CUDA|"
    r"Llama|versiya|version)\s+v?|\bGPT-|\bv)$")

# --- findings and text pieces ------------------------------------------------------


@dataclass(frozen=True)
class Topilma:
    """One rule break: where, the fragment, which rule, what would be right."""

    qator: int | str          # a line of book/attention.py, or "page:line" of a built page
    parcha: str               # the offending fragment as the reader sees it
    qoida: str                # "son", "qoʻshimcha", "atama" or "izoh"
    tavsiya: str              # what would be right
    kontekst: str = ""        # a little text around it
    joy: int = field(default=-1, compare=False, repr=False)   # offset in the checked text

    def __str__(self) -> str:
        k = f" ({self.kontekst})" if self.kontekst and self.kontekst != self.parcha else ""
        return f"{self.qator}: «{self.parcha}»{k} … {self.qoida} … {self.tavsiya}"


@dataclass
class Parcha:
    """A piece of reader-visible text: its lines (line number, cleaned text)."""

    turi: str                           # "matn", "sarlavha", "izoh" (caption), "jadval", "glue", "atamalar"
    qatorlar: list[tuple[int | str, str]] = field(default_factory=list)
    asl: dict = field(default_factory=dict)   # line -> the raw source line (for messages)


# --- the rules, on plain text ------------------------------------------------------------

_USTKI = str.maketrans("0123456789-+−", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺⁻")
_E_SON = re.compile(r"(?<![\w.,])(\d+)(?:[.,](\d+))?[eE]([+\-−]?)(\d+)(?![\w])")
_NUQTALI = re.compile(r"(?<![\w.,])\d+(?:\.\d+)+(?![\d])")
_FOIZ = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)?)([ \u00a0\u2009]?)%")
_UZUN = re.compile(r"(?<![\w.,\u202f])(\d{5,})(?![\d])")
_BOSHLIQ_GURUH = re.compile(r"(?<![\w.,\u202f])(\d{1,3})((?:[ \u00a0\u2009]\d{3})+)(?![\d\w])")
_BOLIM_RAQAMI = re.compile(r"-[^\W\d_]")


def _guruhla(raqamlar: str) -> str:
    """32768 -> 32 768 (U+202F between groups of three)."""
    bosh = len(raqamlar) % 3 or 3
    qismlar = [raqamlar[:bosh]] + [raqamlar[i:i + 3] for i in range(bosh, len(raqamlar), 3)]
    return "\u202f".join(qismlar)


_ODDIY_BOSHLIQ = re.compile(r"[ \t\r\n\f\v]+")


def _bir_qator(matn: str) -> str:
    """Ordinary whitespace runs -> one space; U+202F and U+00A0 stay (str.split() would eat them)."""
    return _ODDIY_BOSHLIQ.sub(" ", matn).strip()


def _kontekst(matn: str, bosh: int, oxir: int, en: int = 30) -> str:
    a, b = max(0, bosh - en), min(len(matn), oxir + en)
    return ("…" if a else "") + _bir_qator(matn[a:b]) + ("…" if b < len(matn) else "")


def son_qoidasi(matn: str, qator: int | str = 0) -> list[Topilma]:
    """Numbers in reader text: decimal comma, no e-notation, "98 %" with U+202F, 32 768."""
    topilmalar = []
    band = []                                       # spans already reported (e-notation)

    for m in _E_SON.finditer(matn):
        butun, kasr, ishora, daraja = m.groups()
        mantissa = butun + ("," + kasr if kasr else "")
        daraja = daraja.lstrip("0") or "0"
        ishora = "⁻" if ishora in ("-", "−") else ""
        if daraja == "0":
            tavsiya = mantissa
        elif mantissa == "1":
            tavsiya = f"10{ishora}{daraja.translate(_USTKI)}"
        else:
            tavsiya = f"{mantissa}·10{ishora}{daraja.translate(_USTKI)}"
        topilmalar.append(Topilma(qator, m.group(), "son: e-yozuv",
                                  f"«{tavsiya}»" + ("" if daraja == "0" else " yoki $…\\cdot10^{…}$"), _kontekst(matn, *m.span()), m.start()))
        band.append(m.span())

    def bandmi(i: int) -> bool:
        return any(a <= i < b for a, b in band)

    for m in _NUQTALI.finditer(matn):
        if bandmi(m.start()):
            continue
        s = m.group()
        if s.count(".") >= 2:                                      # 2.13.0: a version
            continue
        if _BOLIM_RAQAMI.match(matn, m.end()):                     # 1.2-rasm, 1.3-jadvaldan
            continue
        if VERSIYA_OLDIDAN.search(matn[max(0, m.start() - 20):m.start()]):   # Python 3.11, GPT-3.5
            continue
        topilmalar.append(Topilma(qator, s, "son: oʻnli nuqta", f"«{s.replace('.', ',')}»",
                                  _kontekst(matn, *m.span()), m.start()))

    for m in _FOIZ.finditer(matn):
        son = m.group(1).replace(".", ",")
        topilmalar.append(Topilma(qator, m.group(), "son: foiz yozuvi",
                                  f"«{son}\u202f%» (son, ingichka boʻshliq U+202F, %)",
                                  _kontekst(matn, *m.span()), m.start()))

    for m in _UZUN.finditer(matn):
        if bandmi(m.start()):
            continue
        topilmalar.append(Topilma(qator, m.group(1), "son: xonalar guruhlanmagan",
                                  f"«{_guruhla(m.group(1))}» (guruhlar orasida U+202F)", _kontekst(matn, *m.span()), m.start()))
    for m in _BOSHLIQ_GURUH.finditer(matn):
        raqamlar = m.group(1) + re.sub(r"\D", "", m.group(2))
        if len(raqamlar) >= 5:
            topilmalar.append(Topilma(qator, m.group(), "son: guruhlar oddiy boʻshliq bilan",
                                      f"«{_guruhla(raqamlar)}» (oddiy boʻshliq oʻrniga U+202F)", _kontekst(matn, *m.span()), m.start()))
    return topilmalar


def atama_qoidasi(matn: str, qator: int | str = 0) -> list[Topilma]:
    """A term in a meaning the chapter gives another word (``BIR_MAZMUN``); a match inside
    an earlier rule's match ("teskari oʻtish" in "toʻgʻri va teskari oʻtish") is not repeated."""
    topilmalar, band = [], []
    for r, q, t in _BIR_MAZMUN:
        for m in r.finditer(matn):
            if not any(a <= m.start() and m.end() <= b for a, b in band):
                band.append(m.span())
                topilmalar.append(Topilma(qator, _bir_qator(m.group()), f"atama: {q}", t,
                                          _kontekst(matn, *m.span()), m.start()))
    return topilmalar


def _qoshimcha_regex() -> re.Pattern:
    sozlar = sorted(XORIJIY_SOZLAR, key=len, reverse=True)
    soz = "|".join(re.escape(s).replace(r"\ ", r"\s+") for s in sozlar)
    qosh = "|".join(sorted(QOSHIMCHALAR, key=len, reverse=True))
    # a numbered reference as numref renders it: 1.2-rasm, 3-jadval
    havola = r"\d+(?:\.\d+)*-(?:rasm|jadval|bob|mashq)"
    return re.compile(
        rf"(?<![\w\-ʻʼ`$.])(?P<soz>{havola}|{QISQARTMA}|(?:{soz}))"
        rf"(?P<orasi>(?=[ \t\n\u00a0])[ \t\u00a0]*\n?[ \t\u00a0]*)(?P<qosh>{qosh})(?![\wʻʼ]|-(?!chi\b))")


_QOSHIMCHA = _qoshimcha_regex()
#: A suffix written apart after a closing quotation mark: «00» li, «yuz» ga (it joins: «00»li).
_QOSHTIRNOQ = re.compile(rf"»[ \t\u00a0]+(?P<qosh>{'|'.join(sorted(QOSHIMCHALAR, key=len, reverse=True))})(?![\wʻʼ-])")


def qoshimcha_qoidasi(matn: str, qator: int | str = 0) -> list[Topilma]:
    """A suffix written apart after an abbreviation, a foreign word or a numbered reference."""
    topilmalar = []
    for m in _QOSHIMCHA.finditer(matn):
        soz, qosh = m.group("soz"), m.group("qosh")
        soz_bir = _bir_qator(soz)
        tavsiya = f"«{soz_bir}{qosh}»"
        if soz.lower().startswith("attention"):
            tavsiya += f" (yoki «eʼtibor mexanizmi{qosh}» shaklida)"
        topilmalar.append(Topilma(qator, f"{soz_bir} {qosh}", "qoʻshimcha ajratib yozilgan",
                                  tavsiya, _kontekst(matn, *m.span()), m.start()))
    for m in _QOSHTIRNOQ.finditer(matn):
        topilmalar.append(Topilma(qator, f"» {m.group('qosh')}", "qoʻshimcha ajratib yozilgan",
                                  f"«…»{m.group('qosh')}", _kontekst(matn, *m.span()), m.start()))
    return topilmalar


def _atama_regex(alias: str) -> re.Pattern:
    naqsh = re.escape(alias).replace(r"\ ", r"\s+")
    if alias != alias.lower():
        # an abbreviation or a name: may take a lower-case suffix, not more capitals
        return re.compile(rf"(?<![\w\-ʻʼ]){naqsh}(?![A-Z0-9])")
    return re.compile(rf"(?<![\w\-ʻʼ]){naqsh}", re.IGNORECASE)


#: After the term (and a joined suffix, closing ** or * or »): " (" or " — ".
_IZOH_KEYIN = re.compile(r"[\wʻʼ]*[*»”\"]*(?:\s+\(|\s+—\s)")
#: Before the term: "(", "(ingl. " or "(ingl. …, " — the term inside the English gloss of an
#: Uzbek term: "koʻp boshli attention (multi-head …", "(ingl. *grouped-query attention*, GQA".
_IZOH_OLDIN = re.compile(r"\((?:ingl\.\s*(?:[^()]*,\s*)?)?[*«\"]*$")


_GAP_OXIRI = re.compile(r"(?<!ingl)(?<!boshq)(?<!masalan)[.!?](?=\s)|\n\s*\n")


def gap_chegaralari(matn: str, i: int) -> tuple[int, int]:
    """The sentence around offset i: (start, end); "ingl." and "boshq." do not end one."""
    bosh, oxir = 0, len(matn)
    for m in _GAP_OXIRI.finditer(matn):
        if m.end() <= i:
            bosh = m.end()
        elif m.start() >= i:
            oxir = m.start()
            break
    return bosh, oxir


def izohlanganmi(matn: str, bosh: int, oxir: int) -> bool:
    """Does the term at matn[bosh:oxir] carry a gloss: "Term (…)", "Term — …" or "(Term"?"""
    if _IZOH_KEYIN.match(matn, oxir):
        return True
    return bool(_IZOH_OLDIN.search(matn[max(0, bosh - 60):bosh]))


# --- reading the chapter source ---------------------------------------------------------

_INLINE_KOD = re.compile(r"``.+?``|`[^`\n]+`")
_ROL = re.compile(r"\{(?P<rol>[\w:-]+)\}`(?P<ichi>[^`]*)`")
_MATEMATIKA = re.compile(r"\$\$.+?\$\$|(?<![\\$])\$(?!\s)[^$\n]+?(?<![\s\\])\$")
_HAVOLA_MD = re.compile(r"\[([^\]]*)\]\(([^)]*)\)")
_URL = re.compile(r"<?https?://[^\s>)]+>?|\bwww\.[^\s)]+")
_HTML_IZOH = re.compile(r"<!--.*?-->", re.S)
_BELGI = re.compile(r"(?<!\\)\*{1,3}|(?<![\w\\])_{1,2}(?=\w)|(?<=\w)_{1,2}(?![\w])")


def format_spec_topilmasi(spec: str) -> str | None:
    """What a Python format spec always prints that a reader must not see (None: nothing)."""
    m = re.fullmatch(r"[^.]*?(?:\.(\d+))?([a-zA-Z%]?)", spec)
    if not m:
        return None
    aniqlik, tur = m.groups()
    yechim = f"son(x, \"{spec}\") yozing (chapter_code/bichim.py)"
    if tur in ("e", "E"):
        return f"«:{spec}» e-yozuv chiqaradi (2.8e-05), oʻquvchi 2,8·10⁻⁵ koʻrishi kerak: {yechim}"
    if tur == "%":
        return f"«:{spec}» foizni songa yopishtiradi (95%), oʻquvchi «95\u202f%» koʻrishi kerak: {yechim}"
    if tur in ("f", "F") and aniqlik and int(aniqlik) > 0:
        return f"«:{spec}» oʻnli nuqta chiqaradi (0.90), oʻquvchi 0,90 koʻrishi kerak: {yechim}"
    return None


def _rol_matni(rol: str, ichi: str, belgilar: dict[str, str]) -> str:
    """What a MyST role shows the reader, for the rules (placeholders for numbers)."""
    if rol in ("glue:text", "glue", "glue:any", "glue:md"):
        return "{glue}"
    if rol == "numref":
        m = re.match(r"(.*?)\s*<([^>]+)>$", ichi)
        if m:                                         # {numref}`%s-rasmdagi <yorliq>`
            return m.group(1).replace("%s", "1.1")
        tur = belgilar.get(ichi.strip(), "rasm")
        return f"1.1-{tur}"
    if rol in ("ref", "doc", "term"):
        m = re.match(r"(.*?)\s*<([^>]+)>$", ichi)
        return m.group(1) if m else (ichi if rol == "term" else "{" + rol + "}")
    return "{" + rol + "}"


def _tozala(qator: str, belgilar: dict[str, str]) -> str:
    """A markdown line -> the text the reader sees, with code and maths as placeholders."""
    qator = _URL.sub("{url}", qator)
    qator = _HAVOLA_MD.sub(lambda m: m.group(1), qator)

    def rol(m):
        # A glued number's spec (":.3f", ":.1e", ":.0%") only says how many digits: the build
        # writes it with chapter_code.bichim.son (book/_ext/qurilish/glue.py) in Uzbek form, so the
        # spec is not a finding here; the check over the built pages reads what came out.
        return _rol_matni(m.group("rol"), m.group("ichi"), belgilar)

    qator = _ROL.sub(rol, qator)
    qator = _INLINE_KOD.sub("`…`", qator)
    qator = _MATEMATIKA.sub("$…$", qator)
    qator = _BELGI.sub("", qator)
    return qator


def _katakchalar(manba: str) -> list[tuple[str, int, list[str]]]:
    """Jupytext percent cells: (kind "markdown"/"code", first line number, lines)."""
    katakchalar = []
    tur, bosh, joriy = None, 1, []
    for i, q in enumerate(manba.splitlines(), 1):
        if q.startswith("# %%"):
            if tur is not None:
                katakchalar.append((tur, bosh, joriy))
            tur = "markdown" if "[markdown]" in q else "code"
            bosh, joriy = i + 1, []
        elif tur is not None:
            joriy.append(q)
    if tur is not None:
        katakchalar.append((tur, bosh, joriy))
    return katakchalar


def belgilar(manba: str) -> dict[str, str]:
    """numref labels -> "rasm" or "jadval": fig()/diagramma() names figures, show(nom=) tables."""
    natija = {}
    for tur, _, qatorlar in _katakchalar(manba):
        if tur != "code":
            continue
        try:
            daraxt = ast.parse("\n".join(qatorlar))
        except SyntaxError:
            continue
        for t in ast.walk(daraxt):
            if isinstance(t, ast.Call) and isinstance(t.func, ast.Name):
                nom = None
                if t.func.id == "fig" and t.args and isinstance(t.args[0], ast.Constant):
                    nom, turi = t.args[0].value, "rasm"
                for k in t.keywords:
                    if k.arg == "nom" and isinstance(k.value, ast.Constant):
                        nom = k.value.value
                        turi = "jadval" if t.func.id == "show" else "rasm"
                if isinstance(nom, str):
                    natija[Path(nom).stem] = turi
    return natija


def markdown_parchalari(manba: str) -> list[Parcha]:
    """The prose of the markdown cells, headings and glossary apart, cleaned line by line."""
    yorliqlar = belgilar(manba)
    parchalar = []
    for tur, bosh, qatorlar in _katakchalar(manba):
        if tur != "markdown":
            continue
        matn_qatorlari = [re.sub(r"^# ?", "", q) if q.startswith("#") else q for q in qatorlar]
        joriy = Parcha("matn")
        parchalar.append(joriy)
        holat = None                  # inside: "kod" (``` fence), "math" ($$), "izoh" (<!--)
        ochilgan = False              # just after a ::: or ``` opening: option lines follow
        for i, q in enumerate(matn_qatorlari):
            raqam = bosh + i
            s = q.strip()
            if holat == "kod":
                if s.startswith("```"):
                    holat = None
                continue
            if holat == "math":
                if s.endswith("$$"):
                    holat = None
                continue
            if holat == "izoh":
                if "-->" in s:
                    holat = None
                continue
            if s.startswith("```"):
                holat = "kod"
                continue
            if s.startswith("$$"):
                if not (len(s) > 2 and s.endswith("$$")):
                    holat = "math"
                continue
            if s.startswith("<!--"):
                if "-->" not in s:
                    holat = "izoh"
                continue
            if re.fullmatch(r"\(.+\)=", s):                      # (yorliq)=
                continue
            if s.startswith(":::"):
                m = re.match(r":::+\{(\w+)\}\s*(.*)", s)
                if m and m.group(1) == "glossary":
                    joriy = Parcha("atamalar")
                    parchalar.append(joriy)
                elif not m and joriy.turi == "atamalar":      # the glossary's closing :::
                    joriy = Parcha("matn")
                    parchalar.append(joriy)
                ochilgan = True
                if m and m.group(2):                          # the directive's title: "Yechim"
                    joriy.qatorlar.append((raqam, m.group(2)))
                    joriy.asl[raqam] = q
                continue
            if ochilgan and re.match(r":\w[\w-]*:", s):        # directive options
                continue
            ochilgan = False
            if s.startswith("#"):                             # a heading: its own piece
                sarlavha = Parcha("sarlavha")
                sarlavha.qatorlar.append((raqam, _tozala(s.lstrip("#").strip(), yorliqlar)))
                sarlavha.asl[raqam] = q
                parchalar.append(sarlavha)
                joriy = Parcha(joriy.turi)
                parchalar.append(joriy)
                continue
            joriy.qatorlar.append((raqam, _tozala(q, yorliqlar)))
            joriy.asl[raqam] = q
    return [p for p in parchalar if p.qatorlar]


# --- strings of the code cells the reader sees -------------------------------------------

def _satr_qismlari(tugun: ast.AST, nomlar: dict[str, list[ast.AST]], topilmalar: list,
                   raqam: int, chuqurlik: int = 0) -> list[str]:
    """The literal text of a string expression (f-string fields become "{…}")."""
    if chuqurlik > 5:
        return []
    if isinstance(tugun, ast.Constant) and isinstance(tugun.value, str):
        return [tugun.value]
    if isinstance(tugun, ast.JoinedStr):
        qism = ""
        for v in tugun.values:
            if isinstance(v, ast.Constant):
                qism += str(v.value)
            elif isinstance(v, ast.FormattedValue):
                if v.format_spec is not None:
                    spec = "".join(str(c.value) for c in v.format_spec.values
                                   if isinstance(c, ast.Constant))
                    xato = format_spec_topilmasi(spec)
                    if xato:
                        topilmalar.append(Topilma(raqam, "{" + ast.unparse(v.value) + ":" + spec + "}",
                                                  "son: f-satr formati", xato))
                qism += "{…}"
        return [qism]
    if isinstance(tugun, ast.BinOp) and isinstance(tugun.op, ast.Add):
        chap = _satr_qismlari(tugun.left, nomlar, topilmalar, raqam, chuqurlik + 1)
        ong = _satr_qismlari(tugun.right, nomlar, topilmalar, raqam, chuqurlik + 1)
        if len(chap) == 1 and len(ong) == 1:
            return [chap[0] + ong[0]]
        return chap + ong
    if isinstance(tugun, ast.IfExp):
        return (_satr_qismlari(tugun.body, nomlar, topilmalar, raqam, chuqurlik + 1)
                + _satr_qismlari(tugun.orelse, nomlar, topilmalar, raqam, chuqurlik + 1))
    if isinstance(tugun, ast.BoolOp):
        return [s for v in tugun.values
                for s in _satr_qismlari(v, nomlar, topilmalar, raqam, chuqurlik + 1)]
    if isinstance(tugun, ast.Name) and tugun.id in nomlar:
        return [s for v in nomlar[tugun.id]
                for s in _satr_qismlari(v, nomlar, topilmalar, raqam, chuqurlik + 1)]
    return []


def _jadval_satrlari(tugun: ast.AST, nomlar: dict[str, list[ast.AST]]) -> list[tuple[ast.AST, list]]:
    """Rows of a literal table, pd.DataFrame([...], columns=[...]): (row node, its cell nodes).

    A row of a two-column table reads as "term — explanation", so its cells are
    joined with " — " (a gloss rule sees "LayerNorm — Har pozitsiya ...").
    """
    if isinstance(tugun, ast.Name) and tugun.id in nomlar:
        return [s for v in nomlar[tugun.id] for s in _jadval_satrlari(v, nomlar)]
    if not (isinstance(tugun, ast.Call) and isinstance(tugun.func, ast.Attribute)
            and tugun.func.attr == "DataFrame"):
        return []
    qatorlar = []
    for arg in tugun.args[:1]:
        if isinstance(arg, (ast.List, ast.Tuple)):
            for qator in arg.elts:
                if isinstance(qator, (ast.List, ast.Tuple)):
                    qatorlar.append((qator, list(qator.elts)))
                elif isinstance(qator, ast.Dict):          # a record: its keys are headers
                    qatorlar.append((qator, [k for k in qator.keys if k is not None]))
    for k in tugun.keywords:
        if k.arg == "columns" and isinstance(k.value, (ast.List, ast.Tuple)):
            qatorlar += [(e, [e]) for e in k.value.elts]
    return qatorlar


def kod_parchalari(manba: str, topilmalar: list | None = None) -> list[Parcha]:
    """Captions (fig, show izoh=, diagramma izoh=), literal table cells and glued sentences."""
    topilmalar = [] if topilmalar is None else topilmalar
    katakchalar = [(b, q) for t, b, q in _katakchalar(manba) if t == "code"]
    # simple assignments name = <expression>, over the whole chapter (glue and show use names)
    nomlar: dict[str, list[ast.AST]] = {}
    daraxtlar = []
    for bosh, qatorlar in katakchalar:
        try:
            daraxt = ast.parse("\n".join(qatorlar))
        except SyntaxError:
            continue
        daraxtlar.append((bosh, qatorlar, daraxt))
        for t in ast.walk(daraxt):
            if isinstance(t, ast.Assign) and len(t.targets) == 1 and isinstance(t.targets[0], ast.Name):
                nomlar.setdefault(t.targets[0].id, []).append(t.value)

    parchalar = []
    for bosh, qatorlar, daraxt in daraxtlar:
        for t in ast.walk(daraxt):
            if not (isinstance(t, ast.Call) and isinstance(t.func, ast.Name)):
                continue
            ifodalar = []                                       # (kind, node)
            f = t.func.id
            if f == "fig":
                if len(t.args) > 1:
                    ifodalar.append(("izoh", t.args[1]))
                ifodalar += [("izoh", k.value) for k in t.keywords if k.arg == "caption"]
            elif f in ("show", "diagramma"):
                ifodalar += [("izoh", k.value) for k in t.keywords if k.arg == "izoh"]
                if f == "show" and t.args:
                    for qator, kataklar in _jadval_satrlari(t.args[0], nomlar):
                        ifodalar.append(("jadval", qator, kataklar))
            elif f == "glue" and len(t.args) > 1:
                ifodalar.append(("glue", t.args[1]))
            for turi, tugun, *kataklar in ifodalar:
                raqam = bosh + tugun.lineno - 1
                oxiri = bosh + (tugun.end_lineno or tugun.lineno) - 1
                if kataklar:
                    qismlar = [_satr_qismlari(k, nomlar, topilmalar, bosh + k.lineno - 1)
                               for k in kataklar[0]]
                    matnlar = [" — ".join(q[0] for q in qismlar if q)] if any(qismlar) else []
                else:
                    matnlar = _satr_qismlari(tugun, nomlar, topilmalar, raqam)
                if turi == "glue":
                    # a glued value must be words to matter here; numbers go through the build check
                    matnlar = [m for m in matnlar if re.search(r"[^\W\d_]{3,}", m)]
                for m in matnlar:
                    p = Parcha(turi)
                    p.qatorlar.append((raqam, m))
                    p.asl.update({r: qatorlar[r - bosh] for r in range(raqam, oxiri + 1)
                                  if 0 <= r - bosh < len(qatorlar)})
                    parchalar.append(p)
    return parchalar


def _aniq_qator(parcha: Parcha, qator: int | str, fragment: str) -> int | str:
    """A string spanning several source lines: the line that holds the fragment."""
    if not isinstance(qator, int) or len(parcha.asl) < 2:
        return qator
    boshi = fragment.split()[0] if fragment.split() else fragment
    for r in sorted(parcha.asl):
        if r >= qator and boshi in parcha.asl[r]:
            return r
    return qator


def _qoidalar(parcha: Parcha) -> list[Topilma]:
    """Number and suffix rules over a piece (its lines joined: a suffix may follow a line break)."""
    matn, boshlar = "", []
    for qator, q in parcha.qatorlar:
        boshlar.append((len(matn), qator))
        matn += q + "\n"

    def qatori(i: int) -> int | str:
        return [q for b, q in boshlar if b <= max(i, 0)][-1]

    topilmalar = []
    for t in son_qoidasi(matn) + qoshimcha_qoidasi(matn) + atama_qoidasi(matn):
        qator = _aniq_qator(parcha, qatori(t.joy), t.parcha)
        topilmalar.append(Topilma(qator, t.parcha, t.qoida, t.tavsiya, t.kontekst, t.joy))
    return topilmalar


def atamalar_lugati(parchalar: list[Parcha]) -> list[str]:
    """The glossary's entries, each as "term line + its 'ingl. …' part"."""
    yozuvlar = []
    for p in parchalar:
        if p.turi != "atamalar":
            continue
        for raqam, q in p.qatorlar:
            asl = p.asl.get(raqam, q)
            asl = re.sub(r"^# ?", "", asl)
            if not q.strip():
                continue
            if not asl.startswith((" ", "\t")):            # a term line
                yozuvlar.append(q.strip())
            elif yozuvlar and "ingl." in q and "ingl." not in yozuvlar[-1]:
                yozuvlar[-1] += " | " + q.strip().split(".", 1)[1].split(".")[0].strip()
    return yozuvlar


def izoh_qoidasi(parchalar: list[Parcha], atamalar=None) -> list[Topilma]:
    """Every term of ATAMALAR: glossed at its first use in the prose, and in "Atamalar"."""
    atamalar = ATAMALAR if atamalar is None else atamalar
    lugat = atamalar_lugati(parchalar)
    # the prose in reading order: text, captions, table cells (not headings, glossary, glue)
    nasr = sorted(((q, matn, p) for p in parchalar if p.turi in ("matn", "izoh", "jadval")
                   for q, matn in [(p.qatorlar[0][0], "\n".join(s for _, s in p.qatorlar))]),
                  key=lambda x: x[0] if isinstance(x[0], int) else 0)
    # every alias of every term: an occurrence inside a longer alias of another term
    # ("embedding" in "rotary position embedding", RoPE's gloss) is not a use
    hamma = [(a, _atama_regex(a)) for _, aliaslar, _ in atamalar for a in aliaslar]
    topilmalar = []
    for nom, aliaslar, lugat_nomlari in atamalar:
        regexlar = [_atama_regex(a) for a in aliaslar]
        birinchi = None
        for _, matn, p in nasr:
            uzunlar = [m.span() for a, r in hamma if a not in aliaslar for m in r.finditer(matn)]
            topilgan = sorted((m for r in regexlar for m in r.finditer(matn)
                               if not any(a <= m.start() and m.end() <= b and b - a > m.end() - m.start()
                                          for a, b in uzunlar)),
                              key=lambda m: m.start())
            if topilgan:
                birinchi = (p, matn, topilgan)
                break
        if birinchi:
            p, matn, topilgan = birinchi
            m = topilgan[0]
            # the gloss may come at a later occurrence in the same sentence
            a, b = gap_chegaralari(matn, m.start())
            qator = p.qatorlar[0][0]
            for i, (r, _) in enumerate(p.qatorlar):
                if sum(len(s) + 1 for _, s in p.qatorlar[:i]) <= m.start():
                    qator = r
            if not any(izohlanganmi(matn, t.start(), t.end()) for t in topilgan if a <= t.start() < b):
                topilmalar.append(Topilma(
                    qator, m.group(), f"izoh: «{nom}» birinchi uchrashida izohlanmagan",
                    "oʻzbekcha izoh qoʻying: «oʻzbekcha atama (ingl. …)» yoki «… — izoh»",
                    _kontekst(matn, *m.span())))
        # (b) the glossary (only for a term the chapter uses)
        if not birinchi:
            continue
        lugatda = any(_atama_regex(a).search(y) for y in lugat for a in lugat_nomlari + aliaslar)
        if not lugatda:
            topilmalar.append(Topilma(
                "Atamalar", nom, "izoh: «Atamalar» boʻlimida yoʻq",
                f"«Atamalar»ga «{lugat_nomlari[0]}» yozuvini qoʻshing (bobda birinchi {qator}-qatorda)"))
    return topilmalar


def manba_parchalari(manba: str, topilmalar: list | None = None) -> list[Parcha]:
    """Everything the reader sees that is written in the chapter source."""
    return markdown_parchalari(manba) + kod_parchalari(manba, topilmalar)


def manbani_tekshir(manba: str) -> list[Topilma]:
    """All findings in a chapter source (jupytext percent), sorted by line."""
    topilmalar: list[Topilma] = []
    parchalar = manba_parchalari(manba, topilmalar)
    for p in parchalar:
        topilmalar += _qoidalar(p)
    topilmalar += izoh_qoidasi(parchalar)
    # one finding per (line, fragment, rule): the same caption may be gathered twice
    yagona = {(t.qator, t.parcha, t.qoida): t for t in topilmalar}
    return sorted(yagona.values(), key=lambda t: (isinstance(t.qator, str), t.qator
                                                  if isinstance(t.qator, int) else 0, t.qoida))


# --- links to the glossary -------------------------------------------------------------

#: Glossary terms a lesson writes in other words than the term line's (a regex; the default
#: is the term line itself, its last word with any Uzbek ending).  Common words that are
#: also the start of other words ("bosh" in "boshqa", "boshida") list their forms.
ATAMA_NAQSHLARI: dict[str, str] = {
    "attention (eʼtibor mexanizmi)": r"attention|eʼtibor\s+mexanizm",
    "oʻrtacha kvadratik (standart) chetlanish":
        r"oʻrtacha\s+kvadratik\s+\(standart\)\s+chetlanish|standart\s+chetlanish",
    "kauzal (sababiy) maska": r"kauzal\s+(?:\(sababiy\)\s+)?maska",
    "guruhlangan soʻrovli attention (GQA)": r"GQA|guruhlangan\s+soʻrovli\s+attention",
    "post-LN va pre-LN": r"[Pp]ost-LN|[Pp]re-LN",
    "KiB, MiB, GiB": r"[KMG]iB",
    "bosh": r"bosh(?:lar|li)[\wʻʼ]*|(?<=\d-)bosh[\wʻʼ]*",
    "qiymat": r"qiymat(?:lar)?(?=\s*\()|qiymat[\wʻʼ]*(?=\s+(?:vektor|vaznli))",
    "qadam": r"qadam(?:lar|i|da|ga|ni|ning|dan)?(?![\wʻʼ])(?<!bir\sqadam)",
    "oqim": r"oqim(?:da|lar[\wʻʼ]*)?(?![\wʻʼ])",
    "ball": r"ball(?:ar|i|ni|ga|ning)?[\wʻʼ]*(?<!ballistik)",
    "token": r"token",
    "siljish": r"siljish",
    "feed-forward tarmoq": r"feed-forward",
    "koʻp soʻrovli attention (MQA)": r"koʻp\s+soʻrovli\s+attention|MQA",
    "nat": r"nat(?![\wʻʼ])",
    "silliqlash": r"silliqla(?:sh|n)[\wʻʼ]*",
}

_TERM = re.compile(r"\{term\}`(?P<ichi>[^`]*)`")
_KORINISH = re.compile(r"(.*?)\s*<([^>]+)>$", re.S)


def lugat_atamalari(lugat_md: str) -> list[str]:
    """The term lines of the glossary page (a MyST ``glossary`` directive), in its order."""
    atamalar, ichida = [], False
    for q in lugat_md.splitlines():
        if q.startswith(":::{glossary}"):
            ichida = True
        elif ichida and q.startswith(":::"):
            break
        elif ichida and q.strip() and not q.startswith((" ", "\t")):
            atamalar.append(q.strip())
    return atamalar


def atama_naqshi(atama: str) -> re.Pattern:
    """Where a lesson uses a glossary term: ``ATAMA_NAQSHLARI`` or the term's own words, the
    last word with any ending (a final k/q may soften: ogʻirlik → ogʻirligi)."""
    naqsh = ATAMA_NAQSHLARI.get(atama)
    if naqsh is None:
        sozlar = [re.escape(s) for s in atama.split()]
        sozlar[-1] = re.sub(r"k$", "[kg]", re.sub(r"q$", "(?:q|gʻ)", sozlar[-1]))
        naqsh = r"\s+".join(sozlar) + r"[\wʻʼ]*"
    bayroq = 0 if atama != atama.lower() and atama not in ATAMA_NAQSHLARI else re.IGNORECASE
    return re.compile(rf"(?<![\wʻʼ\-`])(?:{naqsh})", bayroq)


def nasr_niqobi(manba: str) -> tuple[str, list[tuple[int, int, str]]]:
    """The lesson source with everything but its prose blanked by \\x01 (same offsets):
    code cells, headings, directives' options, inline code, maths, links and roles; a
    ``{term}`` role keeps only the text it shows.  Also each term role's (start, end, target)."""
    nasr = {r for p in markdown_parchalari(manba) if p.turi == "matn" for r, _ in p.qatorlar}
    niqob, terminlar, joy = [], [], 0
    for raqam, q in enumerate(manba.splitlines(keepends=True), 1):
        belgilar = list(re.sub(r"[^\n]", "\1", q))      # \1: not prose (no match crosses it)
        if raqam in nasr:
            bosh = 2 if q.startswith("# ") else int(q.startswith("#"))
            belgilar[:bosh] = " " * bosh                   # a wrapped line's "# " is a space
            ish = q[:bosh].replace("#", " ") + q[bosh:]
            for m in _TERM.finditer(ish):
                t = _KORINISH.match(m.group("ichi"))
                korinish, nishon = (t.group(1), t.group(2)) if t else (m.group("ichi"),) * 2
                terminlar.append((joy + m.start("ichi"), joy + m.start("ichi") + len(korinish), nishon))
                ish = ish[:m.start()] + "\0" * (m.end() - m.start()) + ish[m.end():]
                belgilar[m.start("ichi"):m.start("ichi") + len(korinish)] = list(korinish)
            for r in (_ROL, _INLINE_KOD, _MATEMATIKA, _HAVOLA_MD, _URL, _HTML_IZOH):
                ish = r.sub(lambda m: "\0" * len(m.group()), ish)
            for i, b in enumerate(ish):
                if b != "\0" and i >= bosh:
                    belgilar[i] = b
        niqob.append("".join(belgilar))
        joy += len(q)
    return "".join(niqob), terminlar


def birinchi_uchrashuvlar(manba: str, atamalar: list[str]) -> dict[str, tuple[int, int, str | None]]:
    """Each glossary term's first use in a lesson's prose: (start, end of the whole word, the
    target of the {term} role it is in, or None)."""
    niqob, terminlar = nasr_niqobi(manba)
    natija = {}
    for atama in atamalar:
        for m in atama_naqshi(atama).finditer(niqob):
            ichida = next((n for a, b, n in terminlar if a <= m.start() < b), None)
            if ichida not in (None, atama):    # inside another term's link: a use of that term
                continue
            oxir = m.end() + len(re.match(r"[\wʻʼ]*", niqob[m.end():]).group())
            natija[atama] = (m.start(), oxir, ichida)
            break
    return natija


def havola_qoidasi(manba: str, atamalar: list[str], dars: str = "") -> list[Topilma]:
    """Every glossary term is linked ({term}) at its first use in the lesson's prose."""
    topilmalar = []
    for atama, (a, b, nishon) in birinchi_uchrashuvlar(manba, atamalar).items():
        if nishon != atama:
            qator = manba.count("\n", 0, a) + 1
            soz = re.sub(r"\s*\n#\s*|\s+", " ", manba[a:b])
            topilmalar.append(Topilma(
                f"{dars}{qator}", soz, "havola: atama birinchi uchrashida lugʻatga bogʻlanmagan",
                f"{{term}}`{soz} <{atama}>`", _kontekst(manba, a, b), a))
    return topilmalar


def havolalarni_qoy(manba: str, atamalar: list[str]) -> str:
    """The lesson with each term's first use wrapped in a {term} role (an author's fixer).
    Of two uses that overlap ("koʻp boshli attention" and "bosh") the longer is linked first;
    the other term's first use is then looked for again, outside that link."""
    while True:
        joylar, band = [], []
        for atama, (a, b, nishon) in sorted(birinchi_uchrashuvlar(manba, atamalar).items(),
                                            key=lambda x: x[1][0] - x[1][1]):
            if nishon is None and not any(a < y and x < b for x, y in band):
                joylar.append((a, b, atama))
                band.append((a, b))
        if not joylar:
            return manba
        for a, b, atama in sorted(joylar, reverse=True):
            soz = re.sub(r"\s*\n#\s*|\s+", " ", manba[a:b])
            manba = manba[:a] + (f"{{term}}`{soz} <{atama}>`" if soz != atama
                                 else f"{{term}}`{atama}`") + manba[b:]


# --- reading the built pages ------------------------------------------------------------

#: Elements whose text is never checked: code, maths, scripts, what code printed, and the
#: entries of the list of references.
OLIB_TASHLA = ("pre", "code", "script", "style", "noscript", "svg", "math",
               ".math", ".katex", ".katex-display", ".katex-mathml", ".MathJax",
               ".cell_output .output.stream", ".cell_output .output.text_plain",
               ".cell_output .output.traceback", ".cell_output .output.stderr", ".cell_input",
               ".headerlink",
               # the list of references: each entry in its own language (titles, arXiv numbers)
               ".citation-list")
#: Block elements: a block's own text (its child blocks apart) is one piece.
BLOKLAR = ("p", "li", "dt", "dd", "th", "td", "h1", "h2", "h3", "h4", "h5", "h6",
           "caption", "figcaption", "blockquote", "section", "div", "nav", "header",
           "footer", "table", "tr", "ul", "ol", "dl", "figure", "body", "button", "form")


def sahifa_parchalari(html: str, nom: str = "sahifa",
                      yopishtirmalar: list[tuple[int, str]] | None = None) -> list[Parcha]:
    """The visible text of a built page: one piece per block, labelled "page:line".

    A piece inside a table is labelled with the table's caption; with
    ``yopishtirmalar`` (the chapter's {glue:text} roles in order, as
    ``glue_rollari`` gives them) each glued value (``.pasted-text``) is matched to
    its role and source line, kept in the piece's ``asl`` as {value text: [labels]}.
    """
    from bs4 import BeautifulSoup, NavigableString
    from bs4.element import Comment

    sh = BeautifulSoup(html, "html.parser")
    tana = sh.body or sh
    yopishgan = tana.select(".pasted-text")
    if yopishtirmalar is not None and len(yopishgan) == len(yopishtirmalar):
        for span, (qator, kalit) in zip(yopishgan, yopishtirmalar):
            span["data-imlo"] = f"{{glue}}`{kalit}`, {qator}-qator"
    for tanlov in OLIB_TASHLA:
        for t in tana.select(tanlov):
            joy = "$…$" if "math" in tanlov or "katex" in tanlov.lower() else (
                "`…`" if tanlov in ("code", "pre") else "")
            t.replace_with(NavigableString(joy) if joy else "")
    for c in tana.find_all(string=lambda s: isinstance(s, Comment)):
        c.extract()
    parchalar = []

    def yur(tugun, joriy):
        for bola in tugun.children:
            if isinstance(bola, NavigableString):
                joriy[1].append(str(bola))
                continue
            if bola.get("data-imlo"):
                joriy[2].setdefault(_bir_qator(bola.get_text()), []).append(bola["data-imlo"])
            if bola.name in BLOKLAR:
                yangi = [bola.sourceline or 0, [], {}]
                yur(bola, yangi)
                yoz(yangi, bola)
                joriy[1].append(" ")
            else:
                if bola.name == "br":
                    joriy[1].append(" ")
                yur(bola, joriy)

    def yoz(blok, tugun):
        matn = _bir_qator("".join(blok[1]))
        if matn:
            p = Parcha("sahifa")
            yorliq = f"{nom}:{blok[0]}"
            jadval = tugun.find_parent("table") if tugun.name != "table" else None
            if jadval is not None and jadval.caption is not None:
                yorliq += " [jadval «" + _bir_qator(jadval.caption.get_text())[:60] + "»]"
            p.qatorlar.append((yorliq, matn))
            p.asl = blok[2]
            parchalar.append(p)

    ildiz = [tana.sourceline or 0, [], {}]
    yur(tana, ildiz)
    yoz(ildiz, tana)
    return parchalar


def glue_rollari(manba: str) -> list[tuple[int, str]]:
    """The {glue:text} roles of the chapter's markdown in reading order: (line, "key:spec")."""
    natija = []
    for tur, bosh, qatorlar in _katakchalar(manba):
        if tur == "markdown":
            for i, q in enumerate(qatorlar):
                natija += [(bosh + i, m.group("ichi")) for m in _ROL.finditer(q)
                           if m.group("rol").startswith("glue")]
    return natija


def sahifani_tekshir(html: str, nom: str = "sahifa",
                     yopishtirmalar: list[tuple[int, str]] | None = None) -> list[Topilma]:
    """Number and suffix rules over a built page's visible text."""
    topilmalar = []
    for p in sahifa_parchalari(html, nom, yopishtirmalar):
        qator, matn = p.qatorlar[0]
        for t in (son_qoidasi(matn, qator) + qoshimcha_qoidasi(matn, qator)
                  + atama_qoidasi(matn, qator)):
            manba = p.asl.get(t.parcha) or [y for matn_, yy in p.asl.items()
                                             if t.parcha in matn_ for y in yy]
            if manba:
                t = Topilma(f"{qator} [" + "; ".join(manba) + "]", t.parcha, t.qoida, t.tavsiya,
                            t.kontekst, t.joy)
            topilmalar.append(t)
    return topilmalar


def hisobot(topilmalar: list[Topilma]) -> str:
    """One finding a line, grouped by rule."""
    guruhlar: dict[str, list[str]] = {}
    for t in topilmalar:
        guruhlar.setdefault(t.qoida.split(":")[0], []).append(str(t))
    return "\n".join(f"== {g} ({len(s)}) ==\n" + "\n".join(s) for g, s in guruhlar.items())


def main(argv: list[str] | None = None) -> int:
    """``python tools/imlo.py --havola``: link each glossary term's first use in every lesson
    (book/attention/*.py) to its entry; without arguments, print what is unlinked."""
    import argparse

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--havola", action="store_true", help="write the missing {term} links")
    args = ap.parse_args(argv)
    papka = Path(__file__).resolve().parent.parent / "book" / "attention"
    atamalar = lugat_atamalari((papka / "atamalar.md").read_text(encoding="utf-8"))
    topilmalar = []
    for dars in sorted(papka.glob("*.py")):
        manba = dars.read_text(encoding="utf-8")
        if args.havola and (yangi := havolalarni_qoy(manba, atamalar)) != manba:
            manba = yangi
            dars.write_text(manba, encoding="utf-8")
        topilmalar += havola_qoidasi(manba, atamalar, f"{dars.name}:")
    print(hisobot(topilmalar) or "hamma atama birinchi uchrashida bogʻlangan")
    return 1 if topilmalar else 0


if __name__ == "__main__":
    raise SystemExit(main())
