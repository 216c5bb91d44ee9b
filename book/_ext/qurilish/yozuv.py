"""Build side: the chapter's Uzbek written in another script, word by word (issue 48).

An edition's script is data, not code: a folder ``book/_yozuvlar/<name>/`` holds

* ``yozuv.yml``: the converter, a function of a kept library named ``module.function``
  (``alifbo.to_cyrillic``) with its options, or a letter table ``harflar.tsv`` (a toy
  script); the edition's name, its HTML ``lang`` and its Sphinx language, its alphabet's
  order and, for the PDF, the babel locale of its language (``babel``: TeX Live's
  ``babel-<locale>.ini``; without it the PDF is set as the source's language);
* ``istisnolar.tsv``: where the converter is wrong, ``latin<TAB>written<TAB>=`` for a whole
  word, ``+`` for a stem whose suffixes the converter writes (funksiya, funksiyaning);
* ``lotinda.txt``: the words printed as written (the policy below);
* optionally, a dictionary of the script (``lugat`` in ``yozuv.yml``: a word list, one form a
  line, as Debian's hunspell-uz ships it) and ``lugatda_yoq.txt``, the stems it lacks that the
  edition uses (``=form`` for a form that takes no ending: an abbreviation), each looked at (the
  check: ``Yozuv.lugatda_yoqlar``).

The policy, one rule: Uzbek words and Uzbek suffixes are written in the edition's script;
what is not Uzbek — an English term (attention, seed), a name (PyTorch, Vaswani), a Latin
acronym (GQA, RNN), a unit (KiB) — stays as it is, and an Uzbek suffix joined to it is
converted and stays joined (GQAning -> GQAнинг, seedga -> seedга).  A word is not Uzbek if
``lotinda.txt`` lists it (an all-lowercase entry in any case, one with capitals exactly), or
if it has two capitals or more, or a digit, before its suffix (GQA, 8B, KichikGPT).
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

#: Where the editions' scripts are kept (beside the lessons, not read by Sphinx).
PAPKA = Path(__file__).resolve().parents[2] / "_yozuvlar"

#: The Uzbek suffixes (morphemes) that may follow a word kept as written; a tail made of them
#: is converted (GQA|ning, LSTM|da|gi|dan, PyTorch|da).
QOSHIMCHALAR = frozenset("""
    lar i si ni ning ga ka qa da ta dan tan dagi gi gacha siz li lik niki ki cha dek day
    mi chi imiz ingiz miz ngiz dir ligi ning-chi dagi-chi da-chi ga-chi ni-chi
""".split())

#: A tail of one or more of them (the regex backtracks over the ways to split it).
_QOSHIMCHALI = re.compile("(?:" + "|".join(sorted(map(re.escape, QOSHIMCHALAR), key=len, reverse=True)) + ")+")

#: The Uzbek endings (suffixes, in the source's letters) the dictionary check strips to find a
#: word's stem: case, plural, possessive and the commonest verb and derivational endings.  Each
#: ending of one letter lets more misspellings through (a stray letter at a word's end), so there
#: are four: i (possessive), m, a and y (verb forms).  A stem counts when the dictionary has it, or
#: one of the forms in LUGAT_SHAKLLARI of it: the Uzbek list keeps forms, not stems (текширади,
#: not текшир).
LUGAT_QOSHIMCHALARI = tuple("""
    lar i si ni ning ga ka qa da ta dan tan gacha dagi day dek cha lik li siz chi ki niki gina
    im ing imiz ingiz miz ngiz m ng di gan moq ish ib adi ydi yapti moqda sa ma mas may masdan
    guncha gach ar dik shi la lash tir dir gich uvchi vchi ov uv gani ganda gandan sin roq mi
    ayotgan yotgan amiz aymiz ymiz asiz ysiz ylik lab ilgan lgan il in ir iz ngan lmoq ladi
    lanadi lanib langan ydigan adigan digan nadi a y sak yman aman yap man
""".split())

#: The forms of a stem that show the dictionary knows it (its infinitive, its third person).
LUGAT_SHAKLLARI = ("", "moq", "adi", "ydi", "di", "gan", "ib", "b", "ish", "sh", "lar", "ga", "da", "dan",
                   "dagi", "ni", "si")

#: A word of running text: letters with oʻ gʻ ʼ, digits joined to letters, hyphenated parts.
SOZ = re.compile(r"[0-9]*[^\W\d_][\wʻʼ’]*(?:-[\wʻʼ’]+)*")


class YozuvXatosi(ValueError):
    """A script's folder that cannot be used: the message names the file and what is wrong."""


def _qatorlar(fayl: Path):
    for n, qator in enumerate(fayl.read_text(encoding="utf-8").splitlines(), start=1):
        qator = qator.split("#", 1)[0].rstrip()
        if qator.strip():
            yield n, qator


def _otkazgich(sozlama: dict, papka: Path):
    """The converter of one word: a kept library's function, or a letter table."""
    if "harflar" in sozlama:
        return _harflar_otkazgichi(papka / sozlama["harflar"])
    nom = sozlama.get("otkazgich")
    if not isinstance(nom, str) or "." not in nom:
        raise YozuvXatosi(f"{papka / 'yozuv.yml'}: 'otkazgich' must name a function as "
                          f"module.function (alifbo.to_cyrillic) or 'harflar' a letter table; got {nom!r}")
    modul, _, funksiya = nom.rpartition(".")
    try:
        f = getattr(importlib.import_module(modul), funksiya)
    except (ImportError, AttributeError) as e:
        raise YozuvXatosi(f"{papka / 'yozuv.yml'}: otkazgich {nom!r} cannot be imported ({e}); "
                          "is the package in requirements.txt?") from None
    ops = dict(sozlama.get("sozlamalar") or {})

    def otkaz(matn: str) -> str:
        natija = f(matn, **ops)
        return getattr(natija, "text", natija)
    return otkaz


def _harflar_otkazgichi(fayl: Path):
    """A letter table ``latin<TAB>written``, longest match first (sh before s)."""
    if not fayl.is_file():
        raise YozuvXatosi(f"{fayl}: no such letter table")
    jadval = {}
    for n, qator in _qatorlar(fayl):
        qismlar = qator.split("\t")
        if len(qismlar) != 2:
            raise YozuvXatosi(f"{fayl}:{n}: expected 'latin<TAB>written', got {qator!r}")
        jadval[qismlar[0]] = qismlar[1]
    naqsh = re.compile("|".join(sorted(map(re.escape, jadval), key=len, reverse=True)))

    def otkaz(matn: str) -> str:
        # matched in lowercase; a capital letter gives its entry capitalised (Sh -> the entry of sh),
        # and a letter the table does not name stays as it is, capital or not
        kichik = matn.lower()
        if len(kichik) != len(matn):                # no Uzbek letter changes length in lowercase
            kichik = matn
        qismlar, oxiri = [], 0
        for m in naqsh.finditer(kichik):
            qismlar += [matn[oxiri:m.start()], _harf_holati(matn[m.start():m.end()], jadval[m.group(0)])]
            oxiri = m.end()
        return "".join(qismlar) + matn[oxiri:]
    return otkaz


@dataclass
class Yozuv:
    """One edition's script: ``soz`` writes a word, ``matn`` a run of text."""

    nom: str                     #: the folder's name (kirill)
    sarlavha: str                #: what the script switch says
    til: str                     #: the pages' lang attribute (uz-Cyrl)
    sphinx_tili: str             #: Sphinx's language (uz_Cyrl)
    otkaz: object = field(repr=False)
    butun: dict = field(default_factory=dict, repr=False)      #: whole-word exceptions
    ozaklar: dict = field(default_factory=dict, repr=False)    #: stem exceptions
    lotinda_har: frozenset = frozenset()                       #: kept, in any case
    lotinda_aniq: frozenset = frozenset()                      #: kept, exactly as listed
    alifbo: tuple = ()          #: the script's letters in their order (a glossary's), longest first matched
    babel: str = ""             #: the PDF's language: the babel locale imported (uz-Cyrl); "" the source's
    lugat: str = ""             #: the script's dictionary (a word list), "" for none
    lugatda_yoq: frozenset = frozenset()     #: the stems it lacks, looked at (lugatda_yoq.txt; =form: whole)

    @classmethod
    def oqi(cls, nom: str, papka: Path = PAPKA) -> "Yozuv":
        joy = papka / nom
        fayl = joy / "yozuv.yml"
        if not fayl.is_file():
            bor = sorted(p.name for p in papka.iterdir() if (p / "yozuv.yml").is_file()) if papka.is_dir() else []
            raise YozuvXatosi(f"no script {nom!r}: {fayl} is missing (scripts there: {', '.join(bor) or 'none'})")
        sozlama = yaml.safe_load(fayl.read_text(encoding="utf-8")) or {}
        for kalit in ("sarlavha", "til", "sphinx_tili"):
            if not isinstance(sozlama.get(kalit), str):
                raise YozuvXatosi(f"{fayl}: '{kalit}' (a string) is missing")
        butun, ozaklar = {}, {}
        if (joy / "istisnolar.tsv").is_file():
            for n, qator in _qatorlar(joy / "istisnolar.tsv"):
                q = qator.split("\t")
                if len(q) < 3 or q[2] not in ("=", "+"):
                    raise YozuvXatosi(f"{joy / 'istisnolar.tsv'}:{n}: expected 'latin<TAB>written<TAB>=' "
                                      f"(a whole word) or '+' (a stem), got {qator!r}")
                (butun if q[2] == "=" else ozaklar)[q[0].lower()] = q[1]
        lotinda = [s for _, q in _qatorlar(joy / "lotinda.txt") for s in q.split()] \
            if (joy / "lotinda.txt").is_file() else []
        alifbo = sozlama.get("alifbo", "")
        if not isinstance(alifbo, str) or not alifbo.split():
            raise YozuvXatosi(f"{fayl}: 'alifbo' (the script's letters in their order, separated by "
                              f"spaces: «а б в ...») is missing")
        babel = sozlama.get("babel", "")
        if not isinstance(babel, str) or not re.fullmatch(r"[A-Za-z-]*", babel):
            raise YozuvXatosi(f"{fayl}: 'babel' is {babel!r}: write the name of a babel locale, as in "
                              f"TeX Live's babel-<name>.ini (uz-Cyrl), or leave it out")
        lugat = sozlama.get("lugat", "")
        if not isinstance(lugat, str) or (lugat and not lugat.startswith("/")):
            raise YozuvXatosi(f"{fayl}: 'lugat' is {lugat!r}: write the absolute path of the script's "
                              f"word list (/usr/share/hunspell/uz_UZ.dic), or leave it out")
        yoq = frozenset(s.lower() for _, q in _qatorlar(joy / "lugatda_yoq.txt") for s in q.split()) \
            if (joy / "lugatda_yoq.txt").is_file() else frozenset()
        for s in yoq:
            if not re.fullmatch(r"=?[^\W\d_]+", s):
                raise YozuvXatosi(f"{joy / 'lugatda_yoq.txt'}: {s!r} is not a word: write a stem (токен) "
                                  "or, for a form that takes no ending, '=' and the form (=ингл)")
        return cls(nom, sozlama["sarlavha"], sozlama["til"], sozlama["sphinx_tili"],
                   _otkazgich(sozlama, joy), butun, ozaklar,
                   frozenset(s for s in lotinda if s == s.lower()),
                   frozenset(s for s in lotinda if s != s.lower()),
                   tuple(alifbo.lower().split()), babel, lugat, yoq)

    # --- one word -------------------------------------------------------------------

    def _lotin_qismi(self, soz: str) -> str | None:
        """A kept word and its Uzbek suffix (the longest kept base first), or None."""
        for k in range(len(soz), 0, -1):
            asos, dum = soz[:k], soz[k:]
            if dum and not dum.islower():
                continue
            royxatda = asos in self.lotinda_aniq or asos.lower() in self.lotinda_har
            # by the rule (capitals, digits) a kept base ends in a capital or a digit: 8B|da, not 8Bda
            qoidada = (sum(c.isupper() for c in asos) >= 2 or any(c.isdigit() for c in asos)) \
                and (asos[-1].isupper() or asos[-1].isdigit())
            if dum[:1] == "i" and asos in self.lotinda_aniq and asos.lower() not in self.lotinda_har:
                continue          # a name and a possessive i is an Uzbek word more often: Yang|i = yangi
            if (royxatda or qoidada) and dum and self.otkaz(dum) == dum \
                    and not any(c.isascii() and c.isalpha() for c in dum):
                return soz                        # its suffix written already (attentionни): as it is
            if (royxatda or qoidada) and (not dum or _QOSHIMCHALI.fullmatch(dum)):
                return asos + (self.otkaz(dum) if dum else "")
        return None

    def _bitta(self, soz: str) -> str:
        """A word (or a hyphenated part) kept as written, or an Uzbek one in this script (a
        whole-word exception first: it is the most particular rule)."""
        kichik = soz.lower()
        if kichik in self.butun:
            return _harf_holati(soz, self.butun[kichik])
        lotin = self._lotin_qismi(soz)
        if lotin is not None:
            return lotin
        for ozak in sorted(self.ozaklar, key=len, reverse=True):
            if kichik.startswith(ozak):
                dum = soz[len(ozak):]
                # the suffix after a letter of the same kind as the stem's last (e after a vowel: э)
                oldin = "a" if ozak[-1] in "aeiouʻ" else "b"
                return _harf_holati(soz, self.ozaklar[ozak] + (self.otkaz(oldin + dum)[1:] if dum else ""))
        return self.otkaz(soz)

    def soz(self, soz: str) -> str:
        """One word of running text in this script (hyphenated parts each on their own).  A single
        Latin letter is a variable (*T*, *K*) and stays, but for the pronoun u."""
        if len(soz) == 1 and soz.isascii() and soz.lower() != "u":
            return soz
        if "-" not in soz:
            return self._bitta(soz)
        lotin = self._lotin_qismi(soz)          # a hyphenated term kept whole (self-attention)
        if lotin is not None:
            return lotin
        return "-".join(self._bitta(q) if q else q for q in soz.split("-"))

    def matn(self, matn: str) -> str:
        """Running text: each word in this script, everything between words as it is."""
        return SOZ.sub(lambda m: self.soz(m.group(0)), matn)

    # --- the dictionary check ---------------------------------------------------------

    def lugatda_yoqlar(self, sozlar, qoshimchalar) -> list[str]:
        """Of ``sozlar`` (words in this script), those neither the dictionary (``lugat``) nor
        ``lugatda_yoq.txt`` knows: a word counts when it is there as it is, or as a known stem and
        a chain of Uzbek endings (LUGAT_QOSHIMCHALARI: моделлардан = модел|лар|дан; a stem's
        final к, қ may be written г, ғ before an ending: қиялиги).  ``qoshimchalar``: suffixes
        written joined to a word kept in the source's letters (GQA|нинг) or to a number (3-да),
        each a chain of endings or a word (1.5-расм)."""
        if not self.lugat:
            raise YozuvXatosi(f"the script {self.nom!r} names no dictionary ('lugat' in its yozuv.yml)")
        yol = Path(self.lugat)
        if not yol.is_file():
            raise YozuvXatosi(f"{yol} (the {self.nom} script's dictionary) is missing: "
                              "make setup installs Debian's hunspell-uz (tools/tizim.sh)")
        lugat = {q.strip().lower() for q in yol.read_text(encoding="utf-8").splitlines()[1:]}
        dumlar = sorted({self.otkaz(q) for q in LUGAT_QOSHIMCHALARI}, key=len, reverse=True)
        shakllar = [self.otkaz("a" + q)[1:] if q else q for q in LUGAT_SHAKLLARI]
        juftlar = {self.otkaz("k"): self.otkaz("g"), self.otkaz("q"): self.otkaz("gʻ")}

        def bormi(soz: str) -> bool:
            return soz in self.lugatda_yoq or any(soz + s in lugat for s in shakllar)

        def tahlil(soz: str, chuqur: int = 0) -> bool:
            if bormi(soz) or (chuqur == 0 and "=" + soz in self.lugatda_yoq):
                return True
            if chuqur == 4:
                return False
            for dum in dumlar:
                if soz.endswith(dum) and len(soz) - len(dum) >= 2:
                    ozak = soz[:-len(dum)]
                    variantlar = [ozak] + [ozak[:-1] + k for k, g in juftlar.items() if ozak.endswith(g)]
                    if any(tahlil(v, chuqur + 1) for v in variantlar):
                        return True
            return False

        def dummi(dum: str) -> bool:
            return not dum or any(dum.endswith(d) and dummi(dum[:-len(d)]) for d in dumlar)

        return sorted({s for s in sozlar if not tahlil(s.lower())}
                      | {d for d in qoshimchalar if not (dummi(d.lower()) or tahlil(d.lower()))})

    # --- the alphabet's order (a glossary) --------------------------------------------

    def _harflari(self, matn: str) -> list[str]:
        """``matn`` in lowercase as the alphabet's letters (longest first: oʻ before o) and the
        other characters one by one."""
        harflar, i, kichik = [], 0, matn.lower()
        uzunlar = sorted(self.alifbo, key=len, reverse=True)
        while i < len(kichik):
            h = next((h for h in uzunlar if kichik.startswith(h, i)), kichik[i])
            harflar.append(h)
            i += len(h)
        return harflar

    def tartib_kaliti(self, matn: str) -> tuple:
        """A sort key for ``matn`` in the alphabet's order: its letters by their place; a word kept
        in the source's letters (GQA, attention) after every word of the alphabet, in their
        order; signs and spaces count for nothing but a space (a word before a longer one)."""
        kalit = []
        for h in self._harflari(matn):
            if h in self.alifbo:
                kalit.append((1, self.alifbo.index(h)))
            elif h.isalnum():
                kalit.append((2, ord(h)))
            elif h.isspace():
                kalit.append((0, 0))
        return tuple(kalit)

    def ascii_kalit(self, matn: str) -> str:
        """``tartib_kaliti`` as ASCII letters, which makeindex sorts in the same order (the PDF's
        index): a letter of the alphabet is "a" and its place in two letters, any other letter or
        digit "b" and its code point in four; a space stays a space."""
        def harflar(son: int, n: int) -> str:
            return "".join(chr(97 + son // 26 ** k % 26) for k in reversed(range(n)))

        return "".join(" " if tur == 0 else "a" + harflar(son, 2) if tur == 1 else "b" + harflar(son, 4)
                       for tur, son in self.tartib_kaliti(matn))

    def harf_guruhi(self, matn: str) -> str:
        """The letter a glossary files ``matn`` under ("Ў"); "A–Z" for a word kept in the
        source's letters, "" for one that starts with no letter."""
        for h in self._harflari(matn):
            if h in self.alifbo:
                return h[:1].upper() + h[1:]
            if h.isalpha():
                return "A–Z"
            if h.isalnum():
                return ""
        return ""


def figura_otkazgichi(nom: str, papka: str):
    """Script ``nom``'s converter of a text, str -> str: what chapter_code.kitob calls to write a
    figure's words (the build names this function in ``KITOB_YOZUVLAR``, yozuvda.py)."""
    return Yozuv.oqi(nom, Path(papka)).matn


def _harf_holati(asl: str, yangi: str) -> str:
    """``yangi`` in the case of ``asl``: Capitalised or ALL CAPS."""
    if len(asl) > 1 and asl.isupper():
        return yangi.upper()
    if asl[:1].isupper():
        return yangi[:1].upper() + yangi[1:]
    return yangi


# --- a page's doctree -------------------------------------------------------------------

#: What stays as it is, with everything inside: code, printed output, formulas, raw markup,
#: the works cited (names and titles as published), comments and targets.
def _tegilmas_turlar():
    from docutils import nodes

    return (nodes.literal, nodes.literal_block, nodes.doctest_block, nodes.math, nodes.math_block,
            nodes.raw, nodes.comment, nodes.target, nodes.citation, nodes.substitution_definition)


#: A class that keeps a span as written: an example of the Latin script itself («oʻ», the BPE
#: merges), which converted would be false (the ``{lotin}`` role, yozuvda.py; a table's columns
#: that ``df.attrs["lotin"]`` names, chapter_code.kitob.show).
LOTIN_SINFI = "lotin"
#: The gloss marker: the emphasis after it is the English term (ingl. *query*).
INGLIZCHA = re.compile(r"\bingl\.\s*$")


def _tegilmasmi(tugun, turlar) -> bool:
    from docutils import nodes

    while tugun is not None:
        if isinstance(tugun, turlar) or LOTIN_SINFI in tugun.get("classes", ()):
            return True
        manzil = tugun.get("refuri", "") if isinstance(tugun, nodes.reference) else ""
        if manzil and tugun.astext().strip().rstrip("/") in (manzil.rstrip("/"),
                                                             manzil.split("://", 1)[-1].rstrip("/")):
            return True                          # a link whose text is its address
        if isinstance(tugun, nodes.emphasis):
            oldingi = tugun.previous_sibling()
            if isinstance(oldingi, nodes.Text) and INGLIZCHA.search(str(oldingi)):
                return True                      # the English of a gloss
        tugun = tugun.parent
    return False


def doctree_yoz(doctree, yozuv_: Yozuv) -> int:
    """Every text of the page's prose, headings, captions and tables written in ``yozuv_``;
    code, output, formulas, addresses, glosses' English and the works cited stay.  Returns how
    many texts changed."""
    from docutils import nodes

    turlar = _tegilmas_turlar()
    ozgardi = 0
    # which texts stay is decided before any is written: a gloss's English is known by the
    # «ingl.» before it, which would be written already
    for matn in [m for m in doctree.findall(nodes.Text) if not _tegilmasmi(m.parent, turlar)]:
        yangi = yozuv_.matn(str(matn))
        if yangi != str(matn):
            matn.parent.replace(matn, nodes.Text(yangi))
            ozgardi += 1
    return ozgardi
