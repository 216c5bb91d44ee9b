"""Where an Uzbek word may be broken at a line's end: the rule a reader applies, as a function.

``xato("raqamn", "ing")`` says why a reader stumbles over a line that ends in "raqamn-" and
a next line that begins with "ing"; ``xato("bi", "lan")`` is None.  The rules are the
syllable rules of Uzbek spelling:

* a syllable break is V-CV ("bi-lan", "mo-del") or VC-CV ("oʻr-ganish", "bosh-qa"): the right
  part starts with one consonant and a vowel, or with a vowel after a vowel ("ta-bi-at");
  a right part that starts with a vowel after a consonant cuts off a suffix or a syllable's
  start ("raqamn-ing", "mis-olda"), one that starts with two consonants breaks a syllable
  ("te-zlatishini", "soʻ-zlar");
* oʻ gʻ sh ch ng are one letter each and are never split ("s-h", "o-ʻ"); n and g are two
  letters only where a suffix starting with g follows ("un-ga", "qilin-gan": ``_NG_QOSHIMCHA``),
  elsewhere ng is one sound and goes whole to one side ("de-ngiz", not "den-giz");
  the tutuq belgisi ʼ belongs to the vowel before it ("maʼ-lumot", not "ma-ʼlumot");
* no single letter stays on a line or goes to the next ("a-ka", "eʼ-tibor");
* nothing is broken inside a number, an abbreviation, a name written with capitals or code
  ("LST-Mda", "1.2-jadval", "GPT-2", "Flash-Attention", "nn.Li-near").

A hyphen at a line's end looks the same whether TeX hyphenated the word or the word has a
hyphen of its own ("ketma-ket"), so the reader judges both the same way: a break after a
word's own hyphen is right where a hyphenation would be ("ketma-|ket"), and wrong after a
number or before an abbreviation ("0-|qadam", "Pre-|LN").  ``xato`` takes the left part with
or without that hyphen.  ``qator_oxirlari`` reads a text laid out in lines (``pdftotext
-raw``) and judges every line that ends in a hyphen.
"""

from __future__ import annotations

import re

#: Vowels (oʻ is one letter); every other letter is a consonant.
UNLILAR = {"a", "e", "i", "o", "u", "oʻ"}
#: One letter of a word: a digraph, a vowel with the tutuq belgisi after it, any other letter;
#: a tutuq belgisi with no vowel before it stands alone (and is judged so).
_HARF = re.compile(r"[og]ʻ|sh|ch|ng|[aeiou]ʼ|[^\W\d_]")
#: After n|g, the g begins a suffix (n and g are two sounds): -ga, -gan, -gacha, -gina, -gi.
_NG_QOSHIMCHA = re.compile(r"g(?:a|ina|i$)")


def harflar(soz: str) -> list[str]:
    """The letters of a word, lower-case, a digraph or a vowel with its ʼ as one: "shoʻʼla"."""
    return _HARF.findall(soz.lower().replace("‘", "ʻ").replace("’", "ʼ"))


def _unli(harf: str) -> bool:
    return harf.rstrip("ʼ") in UNLILAR


def xato(chap: str, ong: str) -> str | None:
    """Why a reader stumbles over a word broken as ``chap|ong`` at a line's end, or None.

    ``chap`` is the left part as printed on its line (a trailing hyphen, the word's own or
    TeX's, may be there or not), ``ong`` the right part at the start of the next line;
    punctuation before the word and after it ("(", "»", ",") is not part of it."""
    chap, ong = (s.replace("‘", "ʻ").replace("’", "ʼ") for s in (chap.removesuffix("-"), ong))
    chap, ong = re.sub(r"^\W+", "", chap), re.sub(r"\W+$", "", ong)
    # the syllables at the break: the words of a compound meet at its own hyphens
    chap, ong = chap.rsplit("-", 1)[-1], ong.split("-", 1)[0]
    if not chap or not ong:
        return "nothing on one side of the break"
    butun = chap + ong
    if not re.fullmatch(r"[^\W\d_]+", butun):
        return f"{chap}|{ong}: inside a number, code or a sign (only a word of letters may be broken)"
    if sum(h.isupper() for h in butun) >= 2:
        return f"{chap}|{ong}: inside an abbreviation or a name written with capitals"
    c, o = chap.lower(), ong.lower()
    if (c[-1], o[0]) in {("s", "h"), ("c", "h"), ("o", "ʻ"), ("g", "ʻ")}:
        return f"{chap}|{ong}: {c[-1]}{o[0]} is one letter"
    if c[-1] == "n" and o[0] == "g" and not _NG_QOSHIMCHA.match(o):
        return f"{chap}|{ong}: ng is one sound here"
    chl, ohl = harflar(chap), harflar(ong)
    if ohl[0] == "ʼ":
        return f"{chap}|{ong}: the tutuq belgisi belongs to the vowel before it"
    if len(chl) == 1 or len(ohl) == 1:
        return f"{chap}|{ong}: a single letter is left on a line"
    if not any(map(_unli, chl)) or not any(map(_unli, ohl)):
        return f"{chap}|{ong}: a part without a vowel is no syllable"
    if _unli(ohl[0]) and not _unli(chl[-1]):
        return f"{chap}|{ong}: a vowel starts the next line after a consonant (the syllable is {chl[-1]}{ohl[0]})"
    if not _unli(ohl[0]) and not _unli(ohl[1]):
        return f"{chap}|{ong}: two consonants start the next line ({ohl[0]}{ohl[1]})"
    return None


def qator_oxirlari(matn: str) -> list[tuple[str, str, str | None]]:
    """Every line of ``matn`` that ends in a hyphen, judged: (its last word, the next line's
    first word, ``xato`` of the two).  A hyphen standing alone (a dash, a minus sign) ends no
    broken word and is not listed."""
    qatorlar = [q.split() for q in matn.splitlines()]
    qatorlar = [q for q in qatorlar if q]
    natija = []
    for q, keyingi in zip(qatorlar, qatorlar[1:]):
        if q[-1].endswith("-") and q[-1].strip("-"):
            natija.append((q[-1], keyingi[0], xato(q[-1], keyingi[0])))
    return natija
