"""Build side: the same pages in fewer bytes (a Sphinx extension).

The chapter page must stay under its budget (``tests/test_brauzer.py``: 1 MB
besides its figures), and the chapter grows.  When the HTML build has
finished, two cuts are made that a reader cannot see, each derived from the
built site itself, not from a list kept by hand (``tests/test_yengil.py``
checks them, in Chromium too):

* **code blocks without spans that change nothing**.  Pygments wraps every
  token of a code cell in ``<span class="n">``; ``_static/pygments.css`` (light
  and dark, written by pydata-sphinx-theme) gives several token classes (name,
  punctuation, whitespace ...) nothing but the colour the ``.highlight`` block
  has.  A class qualifies only if, in every theme, its one declaration is that
  colour written out, and no other stylesheet's selector that can match on the
  site and no script's selector string names it.  Its spans are unwrapped, and a
  span of a class that sets only a colour goes on through the next one of the
  same colours in every theme when only blank text lies between them (``=`` and
  the string after it); the text, as escaped, is kept byte for byte.  The
  unwrapped text sits directly in ``<pre>``, which the theme colours with its
  own text colour (not the block's), so such a ``pre`` gets the class ``tekis``
  and one rule per theme (``<theme> .highlight pre.tekis { color: <the block's
  colour> }``, appended to pygments.css).  A block is left as it is if any
  non-blank text in it is not in a span whose class colours it (a cell's printed
  output keeps the theme's colour), or if it is not a flat row of spans
  (highlighted lines);
* **stylesheets without the rules no page can use**.  Each stylesheet a page
  links (and what it ``@import``\\ s) loses the rules none of whose selectors
  can ever match: a selector, with its pseudo-classes and pseudo-elements
  (``:hover``, ``::before``, ``:not(...)``) taken away, is kept if every class,
  id, attribute and element name in it occurs in some built page or in the
  text of some script the pages load (not Sphinx's search index, which is
  data; string literals, identifiers,
  ``dataset.fooBar`` as ``data-foo-bar``, and a literal ending or starting in
  ``-`` as a prefix or suffix of names built at run time) — so the classes the
  theme, Bootstrap, the copy and toggle buttons and the search add when a
  reader clicks, the sidebar moved into its dialog on a phone, print styles,
  dark mode (``data-theme``) keep their rules.  At-rules other than
  ``@media``/``@supports``/``@container``/``@layer`` (``@font-face``,
  ``@keyframes``, ``@property`` ...) are kept whole, and so is a selector it
  does not understand; a comment goes with the rule after it (``/*!`` licences
  and the comments at the head of a file always stay).

The cut stylesheets keep their names; the pages' links to them get
``?v=<checksum of the cut file>`` (as Sphinx does), so a browser never mixes a
new page with an old cut.  Every build cuts the pages and stylesheets as
Sphinx and the themes wrote them: a copy of each is kept in
``_build/yengil_asl/asl/`` (the site before the cut, for the tests too), used
when a build did not write the file again.  A stylesheet it cannot read is
left whole, and a pygments.css it does not expect leaves the code as it is;
either is said on stderr (``yengil: ...``), not as a Sphinx warning, which
would fail the strict build of a page that still works, only heavier.

Each step is a pure function of text, and its result is kept (``Xotira``,
``_build/yengil_asl/xotira.pickle``) under a digest of its inputs: after a prose
edit only the edited page is read again, and the stylesheets are cut again only
when the names the pages use have changed.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import re
import sys
import zlib
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

#: The class of a ``pre`` whose plain text takes the code block's colour.
TEKIS = "tekis"
#: Scripts that only hold data for other scripts (Sphinx's search index).
MALUMOT_SKRIPTLARI = {"searchindex.js"}
#: Where the stylesheets as written by the build are kept (beside the doctrees).
ASL_PAPKA = "yengil_asl"

# --- reading CSS ----------------------------------------------------------------------------

#: At-rules whose block holds rules (those are cut inside); any other is kept whole.
_ICHLI_AT = {"media", "supports", "container", "layer", "document", "-moz-document", "scope"}


@dataclass
class Tugun:
    """One piece of a stylesheet.

    ``tur``: ``izoh`` (a comment), ``bayonot`` (``@import ...;``, ``@charset``),
    ``qoida`` (``selectors{declarations}``), ``blok`` (an at-rule holding rules:
    ``ichki``), ``at`` (any other at-rule with a block, kept whole).
    """
    tur: str
    bosh: str               # the selectors, the at-rule's prelude, or the whole comment/statement
    tana: str = ""          # the declarations (qoida) or the raw block (at)
    ichki: list = field(default_factory=list)
    izdan: bool = False     # a comment on the same line as the end of the rule before it: its note


def _satr_oxiri(t: str, i: int) -> int:
    """Index after the CSS string starting at t[i]."""
    q, i = t[i], i + 1
    while i < len(t):
        if t[i] == "\\":
            i += 2
            continue
        if t[i] == q or t[i] == "\n":
            return i + 1
        i += 1
    return i


def _blok_oxiri(t: str, i: int) -> int:
    """Index after the block whose ``{`` is at t[i] (strings, comments and nesting respected)."""
    chuqurlik = 0
    while i < len(t):
        c = t[i]
        if t.startswith("/*", i):
            j = t.find("*/", i + 2)
            i = len(t) if j < 0 else j + 2
            continue
        if c in "\"'":
            i = _satr_oxiri(t, i)
            continue
        if c == "\\":
            i += 2
            continue
        if c == "{":
            chuqurlik += 1
        elif c == "}":
            chuqurlik -= 1
            if chuqurlik == 0:
                return i + 1
        i += 1
    raise ValueError("CSS: a block is never closed")


def ajrat(t: str) -> list[Tugun]:
    """A stylesheet as a list of Tugun (raises ValueError on what it cannot read)."""
    tugunlar, _ = _ajrat(t, 0, ichida=False)
    return tugunlar


def _ajrat(t: str, i: int, ichida: bool) -> tuple[list[Tugun], int]:
    tugunlar: list[Tugun] = []
    boshi = i
    while i < len(t):
        c = t[i]
        if t.startswith("/*", i):
            if t[boshi:i].strip():
                # a comment inside a selector or prelude: keep it in there
                j = t.find("*/", i + 2)
                i = len(t) if j < 0 else j + 2
                continue
            j = t.find("*/", i + 2)
            j = len(t) if j < 0 else j + 2
            izdan = bool(tugunlar) and tugunlar[-1].tur != "izoh" and "\n" not in t[boshi:i]
            tugunlar.append(Tugun("izoh", t[i:j], izdan=izdan))
            i = boshi = j
            continue
        if c in "\"'":
            i = _satr_oxiri(t, i)
        elif c == "\\":
            i += 2
        elif c == ";":
            if t[boshi:i].strip():
                tugunlar.append(Tugun("bayonot", t[boshi:i + 1].strip()))
            i = boshi = i + 1
        elif c == "}":
            if not ichida:
                raise ValueError("CSS: a '}' closes nothing")
            if t[boshi:i].strip():
                tugunlar.append(Tugun("bayonot", t[boshi:i].strip()))
            return tugunlar, i + 1
        elif c == "{":
            bosh = t[boshi:i].strip()
            at = re.match(r"@([\w-]+)", bosh)
            if at and at.group(1).lower() in _ICHLI_AT:
                ichki, i = _ajrat(t, i + 1, ichida=True)
                tugunlar.append(Tugun("blok", bosh, ichki=ichki))
            else:
                j = _blok_oxiri(t, i)
                tugunlar.append(Tugun("at" if at else "qoida", bosh, t[i + 1:j - 1]))
                i = j
            boshi = i
        else:
            i += 1
    if ichida:
        raise ValueError("CSS: a block is never closed")
    if t[boshi:].strip():
        tugunlar.append(Tugun("bayonot", t[boshi:].strip()))
    return tugunlar, i


def yoz(tugunlar: list[Tugun]) -> str:
    """The stylesheet again (without the whitespace between rules)."""
    qismlar = []
    for n in tugunlar:
        if n.tur in ("izoh", "bayonot"):
            qismlar.append(n.bosh if n.tur == "izoh" or n.bosh.endswith(";") else n.bosh + ";")
        elif n.tur == "blok":
            qismlar.append(n.bosh + "{" + yoz(n.ichki) + "}")
        else:
            qismlar.append(n.bosh + "{" + n.tana + "}")
    return "".join(qismlar)


def _belgilar(s: str, i: int = 0):
    """(index, character) of ``s`` from ``i`` on, stepping over escapes and quoted strings."""
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c in "\"'":
            i = _satr_oxiri(s, i)
            continue
        yield i, c
        i += 1


def vergul_bilan(s: str) -> list[str]:
    """A selector list split at its top-level commas."""
    qismlar, chuqurlik, boshi = [], 0, 0
    for i, c in _belgilar(s):
        if c in "([":
            chuqurlik += 1
        elif c in ")]":
            chuqurlik -= 1
        elif c == "," and chuqurlik == 0:
            qismlar.append(s[boshi:i])
            boshi = i + 1
    qismlar.append(s[boshi:])
    return [q.strip() for q in qismlar if q.strip()]


def ezilgan(tana: str) -> dict[str, str]:
    """Declarations as {property: value} (lower case, whitespace squeezed)."""
    natija = {}
    for e in tana.split(";"):
        if ":" in e:
            k, v = e.split(":", 1)
            natija[k.strip().lower()] = " ".join(v.split()).lower()
    return natija


# --- selectors and the names in them ------------------------------------------------------------

_ISM = (r"-?(?:[_a-zA-Z]|[^\x00-\x7f]|\\[0-9a-fA-F]{1,6}\s?|\\[^\n0-9a-fA-F])"
        r"(?:[\w-]|[^\x00-\x7f]|\\[0-9a-fA-F]{1,6}\s?|\\[^\n0-9a-fA-F])*")
_ISM_RE = re.compile(_ISM)
_ATRIBUT_NOMI = re.compile(r"\s*(?:(?:\*|" + _ISM + r")?\|(?!=))?(" + _ISM + ")")


def _escapesiz(s: str) -> str:
    return re.sub(r"\\([0-9a-fA-F]{1,6})\s?|\\(.)",
                  lambda m: chr(int(m.group(1), 16)) if m.group(1) else m.group(2), s)


def _qavs_oxiri(s: str, i: int, ochiq: str, yopiq: str) -> int:
    """Index after the bracket opened at s[i]."""
    chuqurlik = 0
    for j, c in _belgilar(s, i):
        if c == ochiq:
            chuqurlik += 1
        elif c == yopiq:
            chuqurlik -= 1
            if chuqurlik == 0:
                return j + 1
    return len(s)


def psevdosiz(selektor: str) -> str:
    """The selector without pseudo-classes and pseudo-elements (with their arguments).

    It matches every element the selector can match in any state: ``a:hover`` ->
    ``a``, ``.x :not(.y)`` -> ``.x *``, ``::selection`` -> ``*``."""
    chiqish, i = [], 0
    while i < len(selektor):
        c = selektor[i]
        if c == "\\":
            chiqish.append(selektor[i:i + 2])
            i += 2
        elif c == "[":
            j = _qavs_oxiri(selektor, i, "[", "]")
            chiqish.append(selektor[i:j])
            i = j
        elif c == ":":
            j = i + 1 + (selektor[i + 1:i + 2] == ":")
            m = _ISM_RE.match(selektor, j)
            j = m.end() if m else j
            if selektor[j:j + 1] == "(":
                j = _qavs_oxiri(selektor, j, "(", ")")
            oldingi = "".join(chiqish)
            if not oldingi or oldingi[-1] in " \t\n\r\f>+~":     # nothing left of the compound
                chiqish.append("*")
            i = j
        else:
            chiqish.append(c)
            i += 1
    return "".join(chiqish).strip()


def nomlar(selektor: str) -> tuple[set[str], set[str], set[str], set[str]]:
    """(classes, ids, attribute names, element names) of a selector without pseudo-classes.

    Raises ValueError on what it does not understand (a namespace, an odd character)."""
    sinflar, idlar, atributlar, teglar = set(), set(), set(), set()
    s, i, boshida = selektor, 0, True
    while i < len(s):
        c = s[i]
        if c in " \t\n\r\f>+~":
            boshida, i = True, i + 1
        elif c == "*":
            if s[i + 1:i + 2] == "|":
                raise ValueError(selektor)
            boshida, i = False, i + 1
        elif c in ".#":
            m = _ISM_RE.match(s, i + 1)
            if not m:
                raise ValueError(selektor)
            (sinflar if c == "." else idlar).add(_escapesiz(m.group()))
            boshida, i = False, m.end()
        elif c == "[":
            j = _qavs_oxiri(s, i, "[", "]")
            m = _ATRIBUT_NOMI.match(s[i + 1:j - 1])
            if not m:
                raise ValueError(selektor)
            atributlar.add(_escapesiz(m.group(1)).lower())
            boshida, i = False, j
        elif boshida and (m := _ISM_RE.match(s, i)):
            if s[m.end():m.end() + 1] == "|":
                raise ValueError(selektor)
            teglar.add(_escapesiz(m.group()).lower())
            boshida, i = False, m.end()
        else:
            raise ValueError(selektor)
    return sinflar, idlar, atributlar, teglar


# --- what the pages and their scripts can put in the DOM ----------------------------------------

#: Elements the browser's parser adds by itself (a <tr> right in a <table> gets a <tbody>).
_YASHIRIN_TEGLAR = {"html", "head", "body", "tbody", "colgroup"}
#: Attributes the browser sets without any script: a reader opening a <details>.
_BRAUZER_ATRIBUTLARI = {"open"}
_JS_SATR = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`', re.S)
_JS_SOZ = re.compile(r"[A-Za-z0-9_-]+")
_DATASET = re.compile(r"""dataset(?:\.|\[\s*["'])([A-Za-z_$][\w$]*)""")


@dataclass
class Lugat:
    """Every name a reader's DOM can hold: from the pages, and from the scripts' text."""
    sinflar: set[str] = field(default_factory=set)
    idlar: set[str] = field(default_factory=set)
    atributlar: set[str] = field(default_factory=set)
    teglar: set[str] = field(default_factory=set)
    js: set[str] = field(default_factory=set)           # every word in the scripts
    oldlar: tuple = ()                                    # "kind-" in a script: kind-title may exist
    ortlar: tuple = ()                                    # "-auto" in a script: bs-tooltip-auto may exist

    def _bor(self, nom: str, toplam: set[str]) -> bool:
        return (nom in toplam or nom in self.js or nom.lower() in self.js
                or nom.startswith(self.oldlar) or nom.endswith(self.ortlar))

    def mumkin(self, selektor: str) -> bool:
        """Can the selector (in any state) ever match an element of a page?"""
        try:
            sinflar, idlar, atributlar, teglar = nomlar(psevdosiz(selektor))
        except ValueError:
            return True             # not understood: kept
        return (all(self._bor(n, self.sinflar) for n in sinflar)
                and all(self._bor(n, self.idlar) for n in idlar)
                and all(self._bor(n, self.atributlar) for n in atributlar)
                and all(self._bor(n, self.teglar) for n in teglar))


class _Sahifa(HTMLParser):
    def __init__(self, lugat: Lugat, skriptlar: list[str]):
        super().__init__(convert_charrefs=True)
        self.lugat, self.skriptlar, self._skriptda = lugat, skriptlar, False

    def handle_starttag(self, teg, atributlar):
        lug = self.lugat
        lug.teglar.add(teg)
        for nom, qiymat in atributlar:
            lug.atributlar.add(nom)
            if qiymat is None:
                continue
            if nom == "class":
                lug.sinflar.update(qiymat.split())
            elif nom == "id":
                lug.idlar.add(qiymat)
            elif nom.startswith("on"):              # onclick="...": a script too
                self.skriptlar.append(qiymat)
        self._skriptda = teg == "script"

    def handle_endtag(self, teg):
        self._skriptda = False

    def handle_data(self, matn):
        if self._skriptda:
            self.skriptlar.append(matn)


def _sahifa_nomlari(matn: str) -> tuple[set, set, set, set, list[str]]:
    """A page's classes, ids, attributes, elements, and its inline scripts (``<script>``, ``on...``)."""
    lug, skriptlar = Lugat(), []
    o = _Sahifa(lug, skriptlar)
    o.feed(matn)
    o.close()
    return lug.sinflar, lug.idlar, lug.atributlar, lug.teglar, skriptlar


def _skript_nomlari(js: str) -> tuple[set, set, set]:
    """A script's words (``dataset.fooBar`` as ``data-foo-bar`` too), and the prefixes and
    suffixes its string literals build names from."""
    sozlar = set(_JS_SOZ.findall(js))
    for m in _DATASET.finditer(js):
        sozlar.add("data-" + re.sub(r"[A-Z]", lambda x: "-" + x.group().lower(), m.group(1)))
    oldlar, ortlar = set(), set()
    for m in _JS_SATR.finditer(js):
        for soz in _JS_SOZ.findall(m.group()):
            if len(soz.strip("-")) >= 2 and soz != soz.strip("-"):
                if soz.endswith("-"):
                    oldlar.add(soz.lstrip("-"))
                if soz.startswith("-"):
                    ortlar.add(soz.rstrip("-"))
    return sozlar, oldlar, ortlar


def lugat_tuz(sahifalar: list[str], skriptlar: list[str], xotira: "Xotira | None" = None) -> Lugat:
    """The vocabulary of pages (their HTML) and scripts (their source).

    With ``xotira``, a page or script read by an earlier build is not read again."""
    ol = xotira.ol if xotira else (lambda _tur, _kirish, hisobla: hisobla())
    lug = Lugat(teglar=set(_YASHIRIN_TEGLAR), atributlar=set(_BRAUZER_ATRIBUTLARI))
    skriptlar = list(skriptlar)
    for matn in sahifalar:
        sinflar, idlar, atributlar, teglar, ichki = ol("sahifa", [matn], lambda: _sahifa_nomlari(matn))
        lug.sinflar |= sinflar
        lug.idlar |= idlar
        lug.atributlar |= atributlar
        lug.teglar |= teglar
        skriptlar += ichki
    oldlar, ortlar = set(), set()
    for js in skriptlar:
        sozlar, old, ort = ol("skript", [js], lambda: _skript_nomlari(js))
        lug.js |= sozlar
        oldlar |= old
        ortlar |= ort
    lug.js |= {s.lower() for s in lug.js}
    lug.oldlar, lug.ortlar = tuple(sorted(oldlar)), tuple(sorted(ortlar))
    return lug


def lugat_izi(lug: Lugat) -> str:
    """A digest of everything in the vocabulary (equal vocabularies cut alike)."""
    return hashlib.sha256(repr([sorted(lug.sinflar), sorted(lug.idlar), sorted(lug.atributlar),
                                sorted(lug.teglar), sorted(lug.js), lug.oldlar, lug.ortlar])
                          .encode()).hexdigest()


class Xotira:
    """This module's results kept between builds, each under a digest of its inputs.

    The steps are pure functions of text (a page's names, a stylesheet's cut), so a
    build that finds the same inputs takes the result of the last build: a prose edit
    re-reads one page, not the site.  The digest includes this module's own source:
    an edit here starts afresh.  What this build did not use is dropped when saved."""

    def __init__(self, fayl: Path):
        self.fayl = fayl
        self.manba = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
        try:
            with fayl.open("rb") as f:
                self.eski = pickle.load(f)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError):
            self.eski = {}
        self.yangi: dict = {}

    def ol(self, tur: str, kirishlar: list[str], hisobla):
        """``hisobla()``, or what it returned for the same ``tur`` and ``kirishlar`` before."""
        h = hashlib.sha256(f"{self.manba}\0{tur}".encode())
        for k in kirishlar:
            h.update(b"\0" + hashlib.sha256(k.encode("utf-8", "surrogatepass")).digest())
        kalit = h.hexdigest()
        if kalit not in self.yangi:
            self.yangi[kalit] = self.eski[kalit] if kalit in self.eski else hisobla()
        return self.yangi[kalit]

    def saqla(self) -> None:
        self.fayl.parent.mkdir(parents=True, exist_ok=True)
        vaqtincha = self.fayl.with_suffix(".tmp")
        with vaqtincha.open("wb") as f:
            pickle.dump(self.yangi, f, protocol=pickle.HIGHEST_PROTOCOL)
        vaqtincha.replace(self.fayl)


# --- cutting a stylesheet -------------------------------------------------------------------------

def _sara(tugunlar: list[Tugun], lugat: Lugat) -> tuple[list[Tugun], int]:
    """The nodes a page can use, and how many rules went."""
    qoldi: list[Tugun] = []
    izohlar: list[Tugun] = []           # comments waiting for the rule after them
    ketdi, kerak = 0, True
    for n in tugunlar:
        if n.tur == "izoh" and n.izdan and not izohlar:     # the note of the rule before
            if kerak or n.bosh.startswith("/*!"):
                qoldi.append(n)
            continue
        if n.tur == "izoh":
            izohlar.append(n)
            continue
        if n.tur == "blok":
            ichki, k = _sara(n.ichki, lugat)
            ketdi += k
            # an emptied @layer block still fixes the layers' order: kept
            kerak = any(i.tur != "izoh" for i in ichki) or n.bosh.lower().startswith("@layer")
            n = Tugun("blok", n.bosh, ichki=ichki)
        elif n.tur == "qoida":
            kerak = "{" in n.tana or any(lugat.mumkin(s) for s in vergul_bilan(n.bosh))
            ketdi += not kerak
        else:
            kerak = True
        if kerak:
            qoldi += izohlar + [n]
        else:
            qoldi += [i for i in izohlar if i.bosh.startswith("/*!")]
        izohlar = []
    return qoldi + izohlar, ketdi


def keraksizini_ol(css: str, lugat: Lugat) -> str:
    """The stylesheet without the rules whose selectors can match nothing (see the module's text)."""
    tugunlar = ajrat(css)
    # the comments at the head of the file are about the file, not about the rule after them
    n = next((i for i, t in enumerate(tugunlar) if t.tur != "izoh"), len(tugunlar))
    qoldi, ketdi = _sara(tugunlar[n:], lugat)
    if not ketdi:
        return css
    qoldi = tugunlar[:n] + qoldi
    # a source map no longer fits the cut file
    qoldi = [n for n in qoldi if not (n.tur == "izoh" and n.bosh.startswith("/*# sourceMappingURL"))]
    return yoz(qoldi)


# --- Pygments spans -----------------------------------------------------------------------------

class Kutilmagan(Exception):
    """The site is not what a cut expects: that cut is skipped, with this reason said on stderr."""


_FON_SELEKTOR = re.compile(r"^(?P<p>(?:.*\s)?\.highlight)$")
_TOKEN_SELEKTOR = re.compile(r"^(?P<p>(?:.*\s)?\.highlight)\s+\.(?P<c>[\w-]+)$")
_SINF_RE = re.compile(r"\.(" + _ISM + ")")
#: A colour written out (``#080808``, ``rgb(...)``, ``red``), not one taken from elsewhere.
_RANG = re.compile(r"#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})|(?:rgba?|hsla?)\([\d.,%\s/]+\)|[a-z]+")
_RANG_EMAS = {"inherit", "initial", "unset", "revert", "revert-layer", "currentcolor", "var"}


def _rang(qiymat: str) -> str | None:
    """The colour, normalised (``#ABC`` -> ``#aabbcc``), if it is written out; else None."""
    q = " ".join(qiymat.split()).lower()
    if not _RANG.fullmatch(q) or q in _RANG_EMAS:
        return None
    if q.startswith("#") and len(q) in (4, 5):
        q = "#" + "".join(2 * h for h in q[1:])
    return q


@dataclass
class Pygments:
    """What pygments.css says about the token classes (see pygments_sinflari)."""
    mavzular: tuple = ()                    # the themes' selectors of the block: '<theme> .highlight'
    blok: tuple = ()                        # the block's colour in each theme (same order)
    ortiqcha: frozenset = frozenset()       # only the block's colour, in every theme: unwrapped
    rangli: frozenset = frozenset()         # a colour of its own in every theme
    tengdosh: dict = field(default_factory=dict)    # class -> its colours, when that is all it sets:
                                                    # neighbours of equal colours make one span


def _qoidalar_tekis(tugunlar, kontekst=""):
    """(the at-rules around it, selectors, declarations) of every rule, at any depth."""
    for n in tugunlar:
        if n.tur == "qoida":
            yield kontekst, n.bosh, n.tana
        elif n.tur == "blok":
            yield from _qoidalar_tekis(n.ichki, kontekst + n.bosh + "{")


def boshqa_tilga_olgan(css_lar: list[str], skriptlar: list[str], lugat: Lugat | None = None) -> set[str]:
    """The classes other stylesheets' selectors and scripts' selector strings name.

    With ``lugat``, a selector that can match nothing on the site (``.sig-param .o``,
    for API signatures the book has none of) names nothing."""
    sinflar: set[str] = set()
    for css in css_lar:
        for _, bosh, _ in _qoidalar_tekis(ajrat(css)):
            for s in vergul_bilan(bosh):
                if lugat is None or lugat.mumkin(s):
                    sinflar |= {_escapesiz(c) for c in _SINF_RE.findall(re.sub(r"\[[^\]]*\]", "", s))}
    for js in skriptlar:    # '.gp', "pre .n", ", .w" in a script: querySelector, closest ...
        sinflar |= set(re.findall(r"""(?<=["'`\s,>+~(])\.([\w-]+)""", js))
    return sinflar


def pygments_sinflari(pygments_css: str, boshqa: set[str] = frozenset()) -> Pygments:
    """What the token classes of ``pygments_css`` do, theme by theme.

    The themes are the selectors ``<theme> .highlight`` that set a colour (``html[data-theme="light"]
    .highlight``); a class counts only if, in every theme and nowhere else (no
    at-rule, no other selector in the file, not in ``boshqa``: what other stylesheets
    and scripts name), one rule gives it one declaration, a colour written out.
    Raises Kutilmagan if the block has no colour written out in every theme."""
    fon: dict[str, dict] = {}
    tokenlar: dict[str, dict[str, list[dict]]] = {}
    boshqa = set(boshqa)
    for kontekst, bosh, tana in _qoidalar_tekis(ajrat(pygments_css)):
        qiymatlar = ezilgan(tana)
        for s in vergul_bilan(bosh):
            s = " ".join(s.split())
            if not kontekst and (m := _FON_SELEKTOR.match(s)):
                fon.setdefault(m["p"], {}).update(qiymatlar)
            elif m := _TOKEN_SELEKTOR.match(s):
                tokenlar.setdefault(m["c"], {}).setdefault(kontekst + m["p"], []).append(qiymatlar)
            else:
                boshqa |= {_escapesiz(c) for c in _SINF_RE.findall(re.sub(r"\[[^\]]*\]", "", s))}
    mavzular = tuple(sorted(p for p, q in fon.items() if "color" in q))
    if not mavzular:
        raise Kutilmagan("pygments.css gives '.highlight' no colour")
    blok = tuple(_rang(fon[p]["color"]) for p in mavzular)
    if None in blok:
        raise Kutilmagan("pygments.css gives '.highlight' a colour not written out: "
                         + ", ".join(fon[p]["color"] for p in mavzular))
    rangli = frozenset(c for c, t in tokenlar.items()
                       if all(any(_rang(q.get("color", "")) for q in t.get(p, [])) for p in mavzular))
    sof = {}                # class -> its colours, when that is all it sets
    for c, t in tokenlar.items():
        if c in boshqa or set(t) != set(mavzular) or any(len(t[p]) != 1 or set(t[p][0]) != {"color"}
                                                         for p in mavzular):
            continue
        ranglar = tuple(_rang(t[p][0]["color"]) for p in mavzular)
        if None not in ranglar:
            sof[c] = ranglar
    return Pygments(mavzular, blok, frozenset(c for c, k in sof.items() if k == blok), rangli,
                    {c: k for c, k in sof.items() if k != blok})


def pre_qoidalari(pyg: Pygments) -> str:
    """The rules that give a ``pre.tekis`` the block's colour (that of its unwrapped spans), in each theme."""
    return "".join(f"\n{p} pre.{TEKIS} {{ color: {rang} }}" for p, rang in zip(pyg.mavzular, pyg.blok))


#: A Pygments block; its <pre> may carry attributes other than a class (tez.py's tabindex).
_PRE = re.compile(r'(<div class="highlight"><pre(?: (?!class=)[\w-]+="[^"]*")*)>(.*?)(</pre>)', re.S)
#: A Pygments block's inside, piece by piece: a span (with no span inside), text, or anything else.
_BOLAK = re.compile(r'<span(?: class="([^"<>]*)")?>([^<]*)</span>|([^<]+)|<')


def pre_ichini_tekisla(ichi: str, pyg: Pygments) -> str | None:
    """The inside of a Pygments ``<pre>`` without its redundant spans; None if it stays as it is.

    Spans of one class of ``pyg.ortiqcha`` are unwrapped; a span of one class of
    ``pyg.tengdosh`` goes on through the next one of the same colours when only blank
    text lies between them (an operator and a string, say).  The text, as escaped,
    stays byte for byte.  A block stays as it is if any non-blank text in it is not in
    a span of a class that colours it (``pyg.rangli``: it has the colour of the
    ``pre``, which ``tekis`` changes), if nothing changes, or if it holds anything but
    a flat row of spans and text (a span in a span: highlighted lines)."""
    chiqish: list[str] = []
    oxirgi = None       # (index in chiqish of the last span that may go on, its colours)
    ozgardi = False
    for m in _BOLAK.finditer(ichi):
        sinf, ichida, matn = m.groups()
        if ichida is None:                      # text between spans, or other markup
            if matn is None or matn.strip():
                return None
            chiqish.append(matn)
            continue
        sinflar = (sinf or "").split()
        if len(sinflar) == 1 and sinflar[0] in pyg.ortiqcha:
            chiqish.append(ichida)
            ozgardi = True
            if ichida.strip():
                oxirgi = None                   # ink between two spans: they stay two
            continue
        if ichida.strip() and not pyg.rangli.intersection(sinflar):
            return None
        rang = pyg.tengdosh.get(sinflar[0]) if len(sinflar) == 1 else None
        if rang is not None and oxirgi is not None and oxirgi[1] == rang:
            chiqish[oxirgi[0]] = chiqish[oxirgi[0]].removesuffix("</span>")
            chiqish.append(ichida + "</span>")
            ozgardi = True
        else:
            chiqish.append(m.group())
        oxirgi = (len(chiqish) - 1, rang) if rang is not None else None
    return "".join(chiqish) if ozgardi else None


def kodni_tekisla(html: str, pyg: Pygments) -> str:
    """Every Pygments block of a page without its redundant spans (see pre_ichini_tekisla)."""
    if not pyg.ortiqcha:            # merging alone would leave nothing for pre.tekis to colour
        return html

    def almashtir(m):
        yangi = pre_ichini_tekisla(m.group(2), pyg)
        return m.group() if yangi is None else f'{m.group(1)} class="{TEKIS}">{yangi}{m.group(3)}'
    return _PRE.sub(almashtir, html)


# --- the site -------------------------------------------------------------------------------------

_HAVOLA = re.compile(r"<(?:link|script)\b[^>]*>", re.I)
_ATR = re.compile(r'(?<![\w-])(rel|as|href|src)="([^"]*)"', re.I)
_IMPORT = re.compile(r"""@import\s+(?:url\(\s*)?(["']?)([^"')\s;]+)\1""", re.I)


def _mahalliy(manzil: str, papka: Path, sayt: Path) -> Path | None:
    """The site file a page's (or stylesheet's) relative link names, if it is one."""
    if not manzil or re.match(r"^[a-z][a-z0-9+.-]*:|^//|^/", manzil, re.I):
        return None
    yol = (papka / manzil.split("?")[0].split("#")[0]).resolve()
    return yol if yol.is_file() and sayt.resolve() in yol.parents else None


def sahifalar(sayt: Path) -> list[Path]:
    """The site's HTML pages (the themes' template snippets in _static are none)."""
    return sorted(p.resolve() for p in sayt.rglob("*.html") if p.relative_to(sayt).parts[0] != "_static")


def _havolalar(sayt: Path, matnlar: dict[Path, str]) -> tuple[list[Path], list[Path]]:
    """(stylesheets, scripts) the pages link to."""
    css, js = [], []
    for yol, matn in matnlar.items():
        for teg in _HAVOLA.findall(matn):
            a = {k.lower(): v for k, v in _ATR.findall(teg)}
            fayl = _mahalliy(a.get("href") or a.get("src", ""), yol.parent, sayt)
            if fayl is None:
                continue
            if teg[1:].lower().startswith("script") or a.get("as") == "script":
                js.append(fayl)
            elif "stylesheet" in a.get("rel", "").split() or a.get("as") == "style":
                css.append(fayl)
    return list(dict.fromkeys(css)), list(dict.fromkeys(js))


def _crc(baytlar: bytes) -> str:
    """Sphinx's checksum of an asset (``?v=``)."""
    return format(zlib.crc32(baytlar.translate(None, b"\r")) & 0xFFFFFFFF, "08x")


class _Asl:
    """The files as the build wrote them, so that every build cuts those, never its own cut.

    ``<papka>/asl/<path in the site>`` is a copy of each page and stylesheet as
    found; ``<papka>/kesilgan.json`` the sha256 of what was written back.  A file
    whose bytes are still that cut was not written again by this build (Sphinx
    leaves unchanged pages alone): its original is the copy."""

    def __init__(self, sayt: Path, papka: Path):
        self.sayt, self.papka = sayt.resolve(), papka
        self.jurnal = papka / "kesilgan.json"
        try:
            self.oldingi = json.loads(self.jurnal.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.oldingi = {}
        self.kesilgan: dict[str, str] = {}

    def oqi(self, fayl: Path) -> str:
        nom = fayl.relative_to(self.sayt).as_posix()
        baytlar = fayl.read_bytes()
        nusxa = self.papka / "asl" / nom
        if self.oldingi.get(nom) == hashlib.sha256(baytlar).hexdigest() and nusxa.is_file():
            baytlar = nusxa.read_bytes()            # our own cut from last time: start from the original
        else:
            nusxa.parent.mkdir(parents=True, exist_ok=True)
            nusxa.write_bytes(baytlar)
        self.kesilgan[nom] = hashlib.sha256(baytlar).hexdigest()    # (until yoz: unchanged)
        return baytlar.decode("utf-8")

    def yoz(self, fayl: Path, matn: str) -> None:
        baytlar = matn.encode("utf-8")
        if fayl.read_bytes() != baytlar:
            fayl.write_bytes(baytlar)
        self.kesilgan[fayl.relative_to(self.sayt).as_posix()] = hashlib.sha256(baytlar).hexdigest()

    def saqla(self) -> None:
        """Record this build's cut; drop the copies of files the site no longer has."""
        asl = self.papka / "asl"
        for nusxa in [p for p in asl.rglob("*") if p.is_file()] if asl.is_dir() else []:
            if nusxa.relative_to(asl).as_posix() not in self.kesilgan:
                nusxa.unlink()
        self.jurnal.write_text(json.dumps(self.kesilgan, indent=1, sort_keys=True), encoding="utf-8")


def yengillat(sayt: Path, asl_papka: Path) -> dict:
    """Both cuts on a built site (see the module's text); what they did, in bytes and words.

    Nothing is written before both are worked out.  ``hisobot["ogohlantirishlar"]``
    says which cut was skipped, and why (a stylesheet it cannot read, a
    pygments.css that is not what it expects)."""
    sayt = Path(sayt).resolve()
    asl = _Asl(sayt, Path(asl_papka))
    xotira = Xotira(Path(asl_papka) / "xotira.pickle")
    ol = xotira.ol
    matnlar = {p: asl.oqi(p) for p in sahifalar(sayt)}
    ogohlantirishlar: list[str] = []
    hisobot = {"html_oldin": sum(len(m.encode()) for m in matnlar.values())}
    css_yollari, js_yollari = _havolalar(sayt, matnlar)
    # the stylesheets as written, and those they @import
    css: dict[Path, str] = {}
    navbat = list(css_yollari)
    while navbat:
        f = navbat.pop(0)
        if f not in css:
            css[f] = asl.oqi(f)
            navbat += [g for m in _IMPORT.finditer(css[f]) if (g := _mahalliy(m.group(2), f.parent, sayt))]
    oqilmas = set()
    def oqiladimi(t: str) -> str | None:
        try:
            ajrat(t)
        except ValueError as xato:
            return str(xato)
        return None

    for f, t in css.items():
        xato = ol("oqiladimi", [t], lambda: oqiladimi(t))
        if xato is not None:
            oqilmas.add(f)
            ogohlantirishlar.append(f"{f.relative_to(sayt)} left whole: {xato}")
    # the search index is data, not code: its words name no element (and change with every edit)
    skriptlar = [f.read_text(encoding="utf-8", errors="replace") for f in js_yollari
                 if f.name not in MALUMOT_SKRIPTLARI]
    hisobot["css_oldin"] = sum(len(t.encode()) for t in css.values())

    # 1. code blocks
    pyg_fayl = next((f for f in css if f.name == "pygments.css"), None)
    pyg = Pygments()
    try:
        if pyg_fayl is None or pyg_fayl in oqilmas:
            raise Kutilmagan("no pygments.css it can read")
        hamma = lugat_tuz(list(matnlar.values()), skriptlar, xotira)
        belgi = re.compile(r"\." + TEKIS + r"(?![\w-])")
        if TEKIS in hamma.sinflar or any(belgi.search(t) for t in [*css.values(), *skriptlar]):
            raise Kutilmagan(f"the class {TEKIS!r} is in use already")
        boshqa_css = [t for f, t in css.items() if f != pyg_fayl and f not in oqilmas]
        boshqa = ol("boshqa", [*boshqa_css, "\0", *skriptlar, lugat_izi(hamma)],
                    lambda: boshqa_tilga_olgan(boshqa_css, skriptlar, hamma))
        pyg = pygments_sinflari(css[pyg_fayl], boshqa)
    except Kutilmagan as xato:
        ogohlantirishlar.append(f"code blocks left as they are: {xato}")
    pyg_izi = repr((pyg.mavzular, pyg.blok, sorted(pyg.ortiqcha), sorted(pyg.rangli),
                    sorted(pyg.tengdosh.items())))
    for p in matnlar:
        matnlar[p] = ol("kod", [matnlar[p], pyg_izi], lambda: kodni_tekisla(matnlar[p], pyg))
    if any(f' class="{TEKIS}">' in m for m in matnlar.values()):
        css[pyg_fayl] += pre_qoidalari(pyg) + "\n"
    hisobot["ortiqcha_sinflar"] = sorted(pyg.ortiqcha)
    hisobot["tengdosh_sinflar"] = sorted(pyg.tengdosh)
    hisobot["html_keyin"] = sum(len(m.encode()) for m in matnlar.values())

    # 2. stylesheets: cut, imported ones first (their ?v= goes into the importer)
    lugat = lugat_tuz(list(matnlar.values()), skriptlar, xotira)
    izi = lugat_izi(lugat)
    tayyor: dict[Path, str] = {}

    def tayyorla(f: Path, yolda: tuple = ()) -> str:
        if f not in tayyor:
            matn = css[f] if f in oqilmas else ol("kes", [css[f], izi], lambda: keraksizini_ol(css[f], lugat))
            for m in list(_IMPORT.finditer(matn))[::-1]:
                g = _mahalliy(m.group(2), f.parent, sayt)
                if g in css and g not in yolda and g != f:
                    manzil = m.group(2).split("?")[0] + f"?v={_crc(tayyorla(g, yolda + (f,)).encode())}"
                    matn = matn[:m.start(2)] + manzil + matn[m.end(2):]
            tayyor[f] = matn
        return tayyor[f]

    for f in css:
        tayyorla(f)
    hisobot["css_keyin"] = sum(len(t.encode()) for t in tayyor.values())

    # the links carry the cut files' checksums
    belgilar = {f: _crc(t.encode()) for f, t in tayyor.items()}

    def belgila(sahifa: Path, m) -> str:
        teg = m.group()
        a = {k.lower(): v for k, v in _ATR.findall(teg)}
        f = _mahalliy(a.get("href", ""), sahifa.parent, sayt)
        if f not in belgilar:
            return teg
        return re.sub(r'((?<![\w-])href=")([^"?#]*)(?:\?[^"#]*)?', rf'\g<1>\g<2>?v={belgilar[f]}', teg, count=1)

    for p in matnlar:
        matnlar[p] = _HAVOLA.sub(lambda m: belgila(p, m), matnlar[p])
    # all worked out: now written
    for f, t in tayyor.items():
        asl.yoz(f, t)
    for p, t in matnlar.items():
        asl.yoz(p, t)
    asl.saqla()
    xotira.saqla()
    hisobot["ogohlantirishlar"] = ogohlantirishlar
    return hisobot


def _yakun(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    from sphinx.util import logging

    papka = Path(app.doctreedir).parent / ASL_PAPKA
    h = yengillat(Path(app.outdir), papka)
    (papka / "hisobot.json").write_text(json.dumps(h, indent=1, ensure_ascii=False), encoding="utf-8")
    # not a Sphinx warning (-W would fail the build): the page still works, only heavier
    for o in h["ogohlantirishlar"]:
        print(f"yengil: {o}", file=sys.stderr, flush=True)
    logging.getLogger(__name__).info(
        "yengil: HTML %d -> %d bytes (spans of %s unwrapped), CSS %d -> %d bytes",
        h["html_oldin"], h["html_keyin"], " ".join(h["ortiqcha_sinflar"]) or "no class",
        h["css_oldin"], h["css_keyin"])


def setup(app):
    # after every other build-finished step that writes into the site (the themes'
    # pygments.css, myst-nb's stylesheet, brauzer.py's Font Awesome cut: priority 500)
    app.connect("build-finished", _yakun, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
