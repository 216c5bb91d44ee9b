"""Write the language-model lesson's corpus: the chapter's own Uzbek prose at one commit, as plain text.

    .venv/bin/python tools/korpus.py            (writes chapter_code/korpus.txt from KOMMIT)
    .venv/bin/python tools/korpus.py --tekshir  (writes nothing; fails if the file differs)

The corpus is frozen: the lesson trains on ``chapter_code/korpus.txt`` as committed, so a prose edit
in the lessons never retrains it.  This command makes the same file again from the pages ``_toc.yml``
listed at ``KOMMIT`` (the lessons' Markdown cells, the opening page and the glossary; not the
bibliography, whose titles are English).  What is not prose is left out: code, tables, math, labels,
directive lines; a sentence that holds a glued number, a cross-reference, a citation or inline math
is dropped whole (its text would not read as a sentence without them).  A term's role gives its
word, a link its text, emphasis and code spans their letters.  Paragraphs end with a line break.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import jupytext
import yaml

ILDIZ = Path(__file__).resolve().parent.parent
#: The commit whose prose the corpus is (issue 44 froze it here).
KOMMIT = "30f04f8"
FAYL = ILDIZ / "chapter_code" / "korpus.txt"
#: Pages not taken: the bibliography's titles are English.
TASHQARI = {"book/attention/adabiyotlar"}

# a sentence with one of these is dropped whole
_TASHLANADI = re.compile(r"\{(?:glue(?::\w+)?|numref|cite(?::\w+)?|eq|ref)\}`|\$")
_ROL = re.compile(r"\{(?:term|doc|abbr)\}`([^`<]*?)\s*(?:<[^`]*>)?`")
_HAVOLA = re.compile(r"\[([^\]]+)\]\([^)]*\)")


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ILDIZ, check=True, capture_output=True,
                          text=True).stdout


def sahifalar(kommit: str) -> list[str]:
    """The documents the table of contents listed at ``kommit``, in its order."""
    toc = yaml.safe_load(_git("show", f"{kommit}:_toc.yml"))
    hujjatlar = [toc["root"]]
    for bob in toc.get("chapters", []):
        hujjatlar.append(bob["file"])
        hujjatlar += [s["file"] for s in bob.get("sections", [])]
    return [h for h in hujjatlar if h not in TASHQARI]


def _manba(kommit: str, hujjat: str) -> str:
    """The page's Markdown at ``kommit``: a lesson's Markdown cells, or the .md page itself."""
    fayllar = _git("ls-tree", "--name-only", kommit, f"{hujjat}.py", f"{hujjat}.md").split()
    if not fayllar:
        raise SystemExit(f"korpus: {hujjat} is in _toc.yml at {kommit} but has no .py or .md there")
    matn = _git("show", f"{kommit}:{fayllar[0]}")
    if fayllar[0].endswith(".md"):
        return matn
    nb = jupytext.reads(matn, fmt="py:percent")
    return "\n\n".join(h.source for h in nb.cells if h.cell_type == "markdown")


def _bloklar(markdown: str) -> list[str]:
    """The prose paragraphs of a page: code, math and tables out; directive fences and their
    options out, the prose inside an admonition kept."""
    paragraflar, joriy, ichida = [], [], None
    for qator in markdown.splitlines():
        q = qator.strip()
        if ichida:                                   # inside code, math or a table directive
            if q.startswith(ichida) and not q[len(ichida):].strip():
                ichida = None
            continue
        fence = re.match(r"^(`{3,}|:{3,})\s*(\{[\w-]+\})?", q)
        if q.startswith("$$"):
            ichida = "$$" if q == "$$" or not q.endswith("$$") or len(q) == 2 else None
            continue
        if fence:
            belgi, direktiva = fence.group(1), fence.group(2)
            prosa = direktiva in ("{admonition}", "{note}", "{tip}", "{important}", "{warning}",
                                  "{only}", "{glossary}")
            if q == belgi or prosa:                  # a closing fence, or an admonition's opening
                paragraflar.append(" ".join(joriy)); joriy = []
                continue
            ichida = belgi                           # code, a table, a figure: skipped to its end
            continue
        if not q or q.startswith(("|", "<")) or re.match(r"^\([\w-]+\)=$|^:[\w-]+:", q):
            paragraflar.append(" ".join(joriy)); joriy = []      # a table row, HTML, a label, an option
            continue
        if q.startswith("#"):                        # a heading: a paragraph of its own
            paragraflar.append(" ".join(joriy)); joriy = []
            paragraflar.append(q.lstrip("# ").strip())
            continue
        joriy.append(q)
    paragraflar.append(" ".join(joriy))
    return [p for p in paragraflar if p.strip()]


def _tozala(paragraf: str) -> str:
    """A paragraph as plain text, without the sentences that need the page's machinery."""
    gaplar = re.split(r"(?<=[.!?])\s+", paragraf)
    qolgan = []
    for gap in gaplar:
        if _TASHLANADI.search(gap):
            continue
        gap = _ROL.sub(lambda m: m.group(1), gap)
        gap = _HAVOLA.sub(lambda m: m.group(1), gap)
        gap = re.sub(r"^[-*] |^\d+\. ", "", gap)
        gap = gap.replace("**", "").replace("`", "")
        gap = re.sub(r"(?<![\w*])\*([^*]+)\*(?![\w*])", r"\1", gap)
        gap = re.sub(r"\s+", " ", gap).strip()
        if gap and not re.search(r"[{}\\]", gap):
            qolgan.append(gap)
    return " ".join(qolgan)


def korpus(kommit: str) -> str:
    qismlar = []
    for hujjat in sahifalar(kommit):
        for p in _bloklar(_manba(kommit, hujjat)):
            if t := _tozala(p):
                qismlar.append(t)
    return "\n".join(qismlar) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tekshir", action="store_true", help="write nothing; fail if the file differs")
    ap.add_argument("--kommit", default=KOMMIT)
    a = ap.parse_args()
    matn = korpus(a.kommit)
    if a.tekshir:
        if FAYL.read_text(encoding="utf-8") != matn:
            print(f"korpus: {FAYL} is not the prose at {a.kommit}; run tools/korpus.py", file=sys.stderr)
            return 1
        return 0
    FAYL.write_text(matn, encoding="utf-8")
    print(f"{FAYL.relative_to(ILDIZ)}: {len(matn)} belgi, {len(matn.split())} soʻz, {a.kommit}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
