"""Where the wall time of a ``make test`` goes: one table, printed at the end and kept as JSON.

A pytest plugin (``conftest.py`` loads it).  It records, on one clock (seconds since the
epoch):

* the set-up: from the start of ``make`` (``KITOB_TEST_BOSHI``, which the Makefile sets when
  it starts) to the start of pytest: the virtual environment, the locked packages, npm;
* the book build that runs in the background (``conftest._YIGISH``), by the steps
  ``tools/qurish.py`` times itself (``_build/qurish-vaqtlari.json``: the HTML with the
  lessons' execution, the PDF, the publication);
* every test's set-up, call and tear-down, each counted in one phase: the second execution
  (``test_takror``), Lighthouse (``test_mayoq``), the browser (``test_brauzer``), the tests that
  build a fixture book of their own (they call ``conftest.kitob_nusxasi``: noticed, not
  listed), the other tests of the built site, and the unit tests (no build);
* Lighthouse's runs, which start in the background once the site is published
  (``conftest.mayoq_hisobotlari``);
* the time the tests spent waiting for the background build (``qurilgan``).

Each row gives the summed seconds and when the phase began and ended, in seconds after
``make test`` started, so the rows that overlap (the background build and the tests running
meanwhile) show as overlapping.  The table is printed after pytest's summary and written to
``_build/test-vaqtlari.json``.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

#: phases in the order the table lists them; the tests' phases come after the build's
FAZALAR = {
    "tayyorlov": "set-up: venv, packages, npm (make)",
    "yigish-html": "book build: HTML, lessons executed (background)",
    "yigish-pdf": "book build: PDF (background)",
    "yigish-nashr": "book build: publication (background)",
    "mayoq-fon": "Lighthouse, every page (background, after the build)",
    "birlik": "unit tests (no build)",
    "nusxa": "tests that build a fixture book",
    "takror": "determinism: two reduced executions",
    "kutish": "waiting for the background build",
    "brauzer": "browser tests (Chromium)",
    "mayoq": "Lighthouse tests (and waiting for its reports)",
    "qurilgan": "other tests of the built book",
}
#: a test module whose tests are one phase, whatever else they do
MODUL_FAZASI = {"test_takror": "takror", "test_mayoq": "mayoq", "test_brauzer": "brauzer"}


class Vaqtlar:
    """The records of one session: [(phase, test id or '', start, end)]."""

    def __init__(self, ildiz: Path):
        self.ildiz = ildiz
        self.yozuvlar: list[tuple[str, str, float, float]] = []
        self.nusxali: set[str] = set()        # tests (or module fixtures' first tests) with a fixture book
        self.joriy: str | None = None         # the test whose set-up, call or tear-down runs now
        self.boshi = time.time()
        self.make_boshi = float(os.environ.get("KITOB_TEST_BOSHI") or self.boshi)

    def nusxa_yasaldi(self) -> None:
        """conftest.kitob_nusxasi calls this: the running test builds a fixture book."""
        if self.joriy:
            self.nusxali.add(self.joriy)

    def kutdi(self, boshi: float, oxiri: float) -> None:
        self.yozuvlar.append(("kutish", "", boshi, oxiri))

    def fonda(self, faza: str, boshi: float, oxiri: float) -> None:
        """Work done in the background (not by a test): its own row."""
        self.yozuvlar.append((faza, "", boshi, oxiri))

    def test_fazasi(self, report) -> str:
        modul = Path(report.location[0]).stem
        if modul in MODUL_FAZASI:
            return MODUL_FAZASI[modul]
        if report.nodeid in self.nusxali:
            return "nusxa"
        return "qurilgan" if "build" in report.keywords else "birlik"

    def yigish_qadamlari(self) -> None:
        """The background build's own steps, from the file tools/qurish.py writes."""
        fayl = self.ildiz / "_build" / "qurish-vaqtlari.json"
        if not fayl.is_file():
            return
        qadamlar = json.loads(fayl.read_text(encoding="utf-8"))
        if qadamlar.get("boshi", 0) < self.boshi:      # a build of an earlier session
            return
        for nom, (b, o) in qadamlar["qadamlar"].items():
            self.yozuvlar.append((f"yigish-{nom}", "", b, o))

    def jadval(self, oxiri: float) -> dict:
        t0 = self.make_boshi
        qatorlar = [{"faza": "tayyorlov", "nomi": FAZALAR["tayyorlov"], "testlar": 0,
                     "soniya": round(self.boshi - t0, 1), "dan": 0.0, "gacha": round(self.boshi - t0, 1)}]
        kutishlar = [(b, o) for f, _, b, o in self.yozuvlar if f == "kutish"]

        def sof(faza: str, b: float, o: float) -> float:
            """A test's seconds without the wait for the build (a set-up that waited holds it)."""
            if faza == "kutish":
                return o - b
            return o - b - sum(max(0.0, min(o, ko) - max(b, kb)) for kb, ko in kutishlar)

        for faza, nomi in list(FAZALAR.items())[1:]:
            y = [r for r in self.yozuvlar if r[0] == faza]
            if not y:
                continue
            qatorlar.append({"faza": faza, "nomi": nomi, "testlar": len({r[1] for r in y if r[1]}),
                             "soniya": round(sum(sof(faza, b, o) for _, _, b, o in y), 1),
                             "dan": round(min(b for _, _, b, _ in y) - t0, 1),
                             "gacha": round(max(o for _, _, _, o in y) - t0, 1)})
        return {"make_test_boshi": t0, "pytest_boshi": self.boshi, "oxiri": oxiri,
                "jami_soniya": round(oxiri - t0, 1), "pytest_soniya": round(oxiri - self.boshi, 1),
                "fazalar": qatorlar}


_V: Vaqtlar | None = None


def vaqtlar() -> Vaqtlar | None:
    """This session's recorder (None outside pytest)."""
    return _V


def pytest_configure(config):
    global _V
    _V = Vaqtlar(Path(str(config.rootpath)))


def pytest_runtest_logstart(nodeid, location):
    if _V:
        _V.joriy = nodeid


def pytest_runtest_logreport(report):
    if _V:
        _V.yozuvlar.append((_V.test_fazasi(report), report.nodeid, report.start, report.stop))


def pytest_terminal_summary(terminalreporter):
    if _V is None or not _V.yozuvlar:
        return
    _V.yigish_qadamlari()
    natija = _V.jadval(time.time())
    fayl = _V.ildiz / "_build" / "test-vaqtlari.json"
    fayl.parent.mkdir(exist_ok=True)
    fayl.write_text(json.dumps(natija, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tr = terminalreporter
    tr.section("where the time went (seconds; from/to: after make test started)")
    tr.write_line(f"{'phase':<50} {'tests':>5} {'seconds':>8} {'from':>7} {'to':>7}")
    for q in natija["fazalar"]:
        tr.write_line(f"{q['nomi']:<50} {q['testlar'] or '':>5} {q['soniya']:>8.1f} "
                      f"{q['dan']:>7.1f} {q['gacha']:>7.1f}")
    tr.write_line(f"{'wall time, from make to the last test':<50} {'':>5} {natija['jami_soniya']:>8.1f}"
                  f"  (pytest {natija['pytest_soniya']:.1f}); written to {fayl.relative_to(_V.ildiz)}")
