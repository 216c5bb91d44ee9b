"""What issue 42 measures of each lesson, in one table: its source and its built page.

    .venv/bin/python tools/darslar.py          (after make book: reads _build/sayt)

Per lesson: source lines; hidden code (non-blank lines in cells tagged remove-cell or
remove-input); glued spans of five words or more and their share of the prose words
(MyST-NB's ``pasted-text`` on the published page, outside code; the words counted are the
prose's, outside tables and figures);
uses of "nashr" in the prose; exercises ("N-mashq"); the core path's minutes by the opening
page's estimate (``oqish_daqiqasi``: no «Yechim», «Chuqurroq» or folded code).  The chapter's
totals at the end.  The targets (issue 42): at most 700 lines a lesson, 300 hidden lines in
all, 15 spans of five words or more, 2 % of the prose words, no "nashr", at least 2 exercises
a teaching lesson and 14 in all, a core path of at most 45 minutes.

    .venv/bin/python tools/darslar.py --telefon   (also the phone: Chromium at 390 x 844)

adds, with every computing cell shown (hidden cells opened) and every section drawn: code blocks
that scroll sideways, the share of the page's height that code cells and their printed output
take (figures and tables in an output not counted), and the page's height in screens (targets:
none, at most 35 %, at most 18 screens on average); the last column is the height with the
«Yechim» and «Chuqurroq» dropdowns opened too.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import jupytext
from bs4 import BeautifulSoup

ILDIZ = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ILDIZ / "tests"))
sys.path.insert(0, str(ILDIZ / "tools"))
from conftest import DARSLAR  # noqa: E402  (the chapter's lessons, from _toc.yml)

sys.path.insert(0, str(ILDIZ / "book" / "_ext"))
from qurilish.yuklamalar import oqish_daqiqasi  # noqa: E402

YASHIRIN = ("remove-cell", "remove-input")


def manba(dars: str) -> dict:
    yol = ILDIZ / f"{dars}.py"
    nb = jupytext.read(yol)
    yashirin = sum(sum(1 for q in c.source.splitlines() if q.strip())
                   for c in nb.cells
                   if c.cell_type == "code" and set(c.metadata.get("tags", [])) & set(YASHIRIN))
    return {"qatorlar": len(yol.read_text(encoding="utf-8").splitlines()), "yashirin": yashirin,
            "daqiqa": oqish_daqiqasi(yol, 120, 6)}


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
    ustunlar = ("qatorlar", "yashirin", "sozlar", "uzun_glue", "glue_sozlar", "nashr", "mashqlar", "daqiqa")
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
    if "--telefon" in sys.argv[1:]:
        telefon(sayt)
    return 0


TELEFON_JS = """async (ochiq) => {
  // every computing cell shown (a hide-cell is a <details>); the dropdowns («Yechim»,
  // «Chuqurroq»: sphinx-togglebutton's div.toggle-hidden) opened only when asked
  document.querySelectorAll('article details').forEach(d => { d.open = true; });
  if (ochiq) document.querySelectorAll('article .toggle-hidden').forEach(d => {
    d.classList.remove('toggle-hidden'); });
  document.querySelectorAll('article *').forEach(e => { e.style.contentVisibility = 'visible'; });
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const h = e => e.getBoundingClientRect().height;
  let kod = 0;
  document.querySelectorAll('article div.cell_input').forEach(c => { kod += h(c); });
  // printed output (a highlighted block); a figure or a table an output shows is not code
  document.querySelectorAll('article div.cell_output div.highlight').forEach(c => { kod += h(c); });
  // a listing of chapter_code (literalinclude) outside the cells
  document.querySelectorAll('article div.highlight-python').forEach(c => {
    if (!c.closest('div.cell')) kod += h(c); });
  const suriladi = [...document.querySelectorAll('article div.highlight > pre')]
    .filter(p => p.scrollWidth > p.clientWidth + 1).length;
  const H = document.documentElement.scrollHeight;
  return {suriladi, ulush: kod / H, ekran: H / innerHeight};
}"""


def telefon(sayt: Path) -> None:
    from playwright.sync_api import sync_playwright
    from xizmat import xizmat

    print(f"\n{'390 x 844':<14}{'suriladi':>12}{'kod %':>12}{'ekranlar':>12}{'ochiq':>10}")
    ekranlar, ochiq = [], []
    with xizmat(sayt) as url, sync_playwright() as p:
        brauzer = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"])
        sahifa = brauzer.new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
        for dars in DARSLAR:
            sahifa.goto(f"{url}{dars}.html", wait_until="networkidle")
            o = sahifa.evaluate(TELEFON_JS, False)
            h = sahifa.evaluate(TELEFON_JS, True)
            ekranlar.append(o["ekran"])
            ochiq.append(h["ekran"])
            print(f"{Path(dars).name:<14}{o['suriladi']:>12}{100 * o['ulush']:>11.2f}%{o['ekran']:>12.2f}"
                  f"{h['ekran']:>10.2f}")
        brauzer.close()
    print(f"{'oʻrtacha':<14}{'':>12}{'':>12}{sum(ekranlar) / len(ekranlar):>12.3f}"
          f"{sum(ochiq) / len(ochiq):>10.2f}")


if __name__ == "__main__":
    sys.exit(main())
