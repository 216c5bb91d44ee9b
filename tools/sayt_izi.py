"""What a reader gets from each page of a built site, and the difference between two sites.

``python tools/sayt_izi.py OLD NEW`` compares two published sites (``_build/sayt`` of two
builds made from the same store of measurements, so the measured numbers agree; with
``--sonsiz`` digits are compared as 0, for builds that measured anew): for
every page its visible text (the words of the body without scripts, styles and templates;
markup inside a word changes nothing), its links (``href`` of ``a``, as written, ``?v=`` checksums dropped) and its
images (``src``/``srcset`` of ``img`` and ``source``, and their ``alt``).  It prints
what differs, page by page, and exits 1 if anything does.  Build code that only
changes how a page is made (its markup, its stylesheets, its fonts) leaves this
unchanged; ``tests/test_sayt_izi.py`` shows it sees each kind of change.
"""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path

from bs4 import BeautifulSoup

_V = re.compile(r"\?v=[0-9a-f]+")


_RAQAM = re.compile(r"\d+")
_XESH = re.compile(r"[0-9a-f]{32,64}")


def sahifa_izi(matn: str, sonsiz: bool = False) -> dict[str, list[str]]:
    """The visible text (its words), links and images of one page; ``sonsiz``: every run of
    digits in the text read as 0 and a figure's content hash in its name as # (two builds
    that measured the machine anew draw its figures anew)."""
    hujjat = BeautifulSoup(matn, "html.parser")
    body = hujjat.body or hujjat
    for t in body.find_all(["script", "style", "template", "noscript"]):
        t.decompose()
    # word by word: markup inside a word or a line (a span unwrapped) changes nothing a reader sees
    sozlar = body.get_text("").split()
    if sonsiz:
        sozlar = [_RAQAM.sub("0", s) for s in sozlar]
    nomi = (lambda s: _XESH.sub("#", _V.sub("", s))) if sonsiz else (lambda s: _V.sub("", s))
    havolalar = [nomi(a["href"]) for a in body.find_all("a", href=True)]
    rasmlar = [f'{t.name} {nomi(t.get("src") or t.get("srcset") or "")} alt={t.get("alt", "")!r}'
               for t in body.find_all(["img", "source"])]
    return {"matn": sozlar, "havolalar": havolalar, "rasmlar": rasmlar}


def sayt_izi(sayt: Path, sonsiz: bool = False) -> dict[str, dict[str, list[str]]]:
    """Every page of a site (not the themes' snippets in _static) -> its sahifa_izi."""
    return {p.relative_to(sayt).as_posix(): sahifa_izi(p.read_text(encoding="utf-8"), sonsiz)
            for p in sorted(sayt.rglob("*.html")) if "_static" not in p.relative_to(sayt).parts}


def farq(eski: dict, yangi: dict) -> list[str]:
    """What differs between two sayt_izi, as lines to read."""
    qatorlar = []
    for sahifa in sorted(set(eski) | set(yangi)):
        if sahifa not in yangi or sahifa not in eski:
            qatorlar.append(f"{sahifa}: only in the {'old' if sahifa in eski else 'new'} site")
            continue
        for qism in ("matn", "havolalar", "rasmlar"):
            a, b = eski[sahifa][qism], yangi[sahifa][qism]
            if a != b:
                qatorlar.append(f"{sahifa}, {qism}:")
                qatorlar += ["  " + q for q in difflib.unified_diff(a, b, lineterm="", n=3)][2:]
    return qatorlar


def main(argv: list[str]) -> int:
    sonsiz = "--sonsiz" in argv
    argv = [a for a in argv if a != "--sonsiz"]
    if len(argv) != 2 or not all(Path(a, "index.html").is_file() for a in argv):
        print("usage: python tools/sayt_izi.py [--sonsiz] OLD_SITE NEW_SITE  (two built sites, e.g. "
              "_build/sayt; --sonsiz: digits in the text compared as 0, for builds that measured anew)",
              file=sys.stderr)
        return 2
    eski, yangi = (sayt_izi(Path(a), sonsiz) for a in argv)
    qatorlar = farq(eski, yangi)
    print("\n".join(qatorlar) if qatorlar else f"the same: {len(yangi)} pages, their text, links and images")
    return 1 if qatorlar else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
