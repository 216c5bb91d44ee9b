"""What issue 42 measures of each lesson, in one table: its source and its built page.

    .venv/bin/python tools/darslar.py          (after make book: reads _build/sayt)

Per lesson: source lines; hidden code (non-blank lines in cells tagged remove-cell or
remove-input); glued spans of five words or more and their share of the prose words
(MyST-NB's ``pasted-text`` on the published page, outside code; the words counted are the
prose's, outside tables and figures);
uses of "nashr" in the prose; exercises ("N-mashq").  The chapter's totals at the end.
The targets (issue 42): at most 700 lines a lesson, 300 hidden lines in all, 15 spans of
five words or more, 2 % of the prose words, no "nashr", at least 2 exercises a teaching
lesson and 14 in all.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import jupytext
from bs4 import BeautifulSoup

ILDIZ = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ILDIZ / "tests"))
from conftest import DARSLAR  # noqa: E402  (the chapter's lessons, from _toc.yml)

YASHIRIN = ("remove-cell", "remove-input")


def manba(dars: str) -> dict:
    yol = ILDIZ / f"{dars}.py"
    nb = jupytext.read(yol)
    yashirin = sum(sum(1 for q in c.source.splitlines() if q.strip())
                   for c in nb.cells
                   if c.cell_type == "code" and set(c.metadata.get("tags", [])) & set(YASHIRIN))
    return {"qatorlar": len(yol.read_text(encoding="utf-8").splitlines()), "yashirin": yashirin}


def sahifa(dars: str, sayt: Path) -> dict:
    html = BeautifulSoup((sayt / f"{dars}.html").read_text(encoding="utf-8"), "html.parser")
    maqola = html.select_one("main article") or html
    for t in maqola.select("pre, div.cell_input, div.cell_output, .katex, script, style"):
        t.decompose()
    # glued text in the prose and in hand-written tables (the summary's)
    uzun = [" ".join(s.get_text().split()) for s in maqola.select("span.pasted-text")]
    uzun = [u for u in uzun if len(u.split()) >= 5]
    for t in maqola.select("table, figure"):
        t.decompose()
    sozlar = len(maqola.get_text(" ").split())
    matn = maqola.get_text(" ")
    return {"sozlar": sozlar, "uzun_glue": len(uzun), "glue_sozlar": sum(len(u.split()) for u in uzun),
            "nashr": len(re.findall(r"\bnashr", matn, flags=re.I)),
            "mashqlar": len(set(re.findall(r"\b(\d+)-mashq\b", matn)))}


def main() -> int:
    sayt = ILDIZ / "_build" / "sayt"
    if not (sayt / f"{DARSLAR[0]}.html").is_file():
        print(f"{sayt.relative_to(ILDIZ)} has no built lesson: run make book first", file=sys.stderr)
        return 2
    ustunlar = ("qatorlar", "yashirin", "sozlar", "uzun_glue", "glue_sozlar", "nashr", "mashqlar")
    print(f"{'lesson':<14}" + "".join(f"{u:>12}" for u in ustunlar) + f"{'glue %':>8}")
    jami = dict.fromkeys(ustunlar, 0)
    for dars in DARSLAR:
        q = {**manba(dars), **sahifa(dars, sayt)}
        for u in ustunlar:
            jami[u] += q[u]
        print(f"{Path(dars).name:<14}" + "".join(f"{q[u]:>12}" for u in ustunlar)
              + f"{100 * q['glue_sozlar'] / max(q['sozlar'], 1):>7.1f}%")
    print(f"{'jami':<14}" + "".join(f"{jami[u]:>12}" for u in ustunlar)
          + f"{100 * jami['glue_sozlar'] / max(jami['sozlar'], 1):>7.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
