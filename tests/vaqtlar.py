"""Where the wall time of a ``make test`` goes: one table, printed at the end and kept as JSON.

A pytest plugin (``conftest.py`` loads it).  It records, on one clock (seconds since the
epoch):

* the set-up: from the start of ``make`` (``KITOB_TEST_BOSHI``, which the Makefile sets when
  it starts) to the start of pytest: the virtual environment, the locked packages, npm;
* the book build that runs in the background (``conftest._qurishni_boshla``), by the steps
  ``tools/qurish.py`` times itself (``_build/qurish-vaqtlari.json``: the PDF with the
  lessons' execution, which comes first because the site's download links give its size;
  the HTML from the same cached execution; the publication);
* every test's set-up, call and tear-down, each counted in one phase: the two executions of
  the determinism test (``test_takror``), Lighthouse (``test_mayoq``), the browser
  (``test_brauzer``), the other tests of the built book (they use ``qurilgan``), the tests
  that build fixture books of their own (marked ``build``, without ``qurilgan``) and the
  unit tests;
* the time the tests spent waiting for the background build (``qurilgan``);
* the CPU seconds the whole machine was busy while pytest ran (``/proc/stat``: every process,
  the build's kernels and training workers and the browsers too, which a test's own
  ``getrusage`` misses when they are not its children).  On 2 cores half of it is the least
  wall time the session can take, however its work is scheduled.

With pytest-xdist the tests run in worker processes: each worker puts a test's phase and its
waits into the report (``user_properties``), and the controller, which receives every
report, makes the table.  Each row gives the summed seconds (over both workers) and when the
phase began and ended, in seconds after ``make test`` started, so the rows that overlap
(the background build and the tests running meanwhile) show as overlapping.  The table is
printed after pytest's summary and written to ``_build/test-vaqtlari.json``, which also
lists every test (its phase, from, to and seconds), to find what ran last.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

#: phases in the order the table lists them; the tests' phases come after the build's
FAZALAR = {
    "tayyorlov": "set-up: venv, packages, npm (make)",
    "yigish-pdf": "book build: lessons executed, PDF (background)",
    "yigish-html": "book build: HTML (background)",
    "yigish-nashr": "book build: publication (background)",
    "birlik": "unit tests (no build)",
    "nusxa": "tests that build fixture books",
    "takror": "determinism: two reduced executions",
    "kutish": "waiting for the background build",
    "brauzer": "browser tests (Chromium)",
    "mayoq": "Lighthouse",
    "qurilgan": "other tests of the built book",
}
#: a test module whose tests are one phase, whatever else they do
MODUL_FAZASI = {"test_takror": "takror", "test_mayoq": "mayoq", "test_brauzer": "brauzer"}
#: the key of a record in a report's user_properties
KALIT = "vaqtlar"


def test_fazasi(item) -> str:
    """The phase a test counts in (FAZALAR)."""
    if item.path.stem in MODUL_FAZASI:
        return MODUL_FAZASI[item.path.stem]
    if "qurilgan" in item.fixturenames:
        return "qurilgan"
    return "nusxa" if item.get_closest_marker("build") else "birlik"


class Vaqtlar:
    """The records of one session: [(phase, test id or '', start, end, seconds)]; a test's
    seconds leave out the time it waited for the build (its own row)."""

    def __init__(self, ildiz: Path):
        self.ildiz = ildiz
        self.yozuvlar: list[tuple[str, str, float, float, float]] = []
        self.fon: list[tuple[str, float, float]] = []     # a worker's waits, not yet reported
        self.boshi = time.time()
        self.make_boshi = float(os.environ.get("KITOB_TEST_BOSHI") or self.boshi)
        self.mashina_boshi = mashina_cpu()

    def kutdi(self, boshi: float, oxiri: float) -> None:
        """The running test waited for the background build from ``boshi`` to ``oxiri``."""
        self.fon.append(("kutish", boshi, oxiri))

    def yigish_qadamlari(self) -> None:
        """The background build's own steps, from the file tools/qurish.py writes."""
        fayl = self.ildiz / "_build" / "qurish-vaqtlari.json"
        if not fayl.is_file():
            return
        qadamlar = json.loads(fayl.read_text(encoding="utf-8"))
        if qadamlar.get("boshi", 0) < self.boshi:      # a build of an earlier session
            return
        for nom, (b, o) in qadamlar["qadamlar"].items():
            self.yozuvlar.append((f"yigish-{nom}", "", b, o, o - b))

    def jadval(self, oxiri: float) -> dict:
        t0 = self.make_boshi
        qatorlar = [{"faza": "tayyorlov", "nomi": FAZALAR["tayyorlov"], "testlar": 0,
                     "soniya": round(self.boshi - t0, 1), "dan": 0.0, "gacha": round(self.boshi - t0, 1)}]
        for faza, nomi in list(FAZALAR.items())[1:]:
            y = [r for r in self.yozuvlar if r[0] == faza]
            if not y:
                continue
            qatorlar.append({"faza": faza, "nomi": nomi, "testlar": len({r[1] for r in y if r[1]}),
                             "soniya": round(sum(r[4] for r in y), 1),
                             "dan": round(min(r[2] for r in y) - t0, 1),
                             "gacha": round(max(r[3] for r in y) - t0, 1)})
        return {"make_test_boshi": t0, "pytest_boshi": self.boshi, "oxiri": oxiri,
                "cpu_mashina": round(mashina_cpu() - self.mashina_boshi, 1),
                "yadrolar": os.cpu_count(),
                "jami_soniya": round(oxiri - t0, 1), "pytest_soniya": round(oxiri - self.boshi, 1),
                "fazalar": qatorlar,
                # each test: its phase, id, from and to (after make started), seconds without its waits
                "testlar": [[r[0], r[1], round(r[2] - t0, 1), round(r[3] - t0, 1), round(r[4], 1)]
                            for r in sorted(self.yozuvlar, key=lambda r: r[2]) if r[1]]}


def mashina_cpu() -> float:
    """The CPU seconds every core of this machine has been busy since it booted (/proc/stat:
    all but idle and iowait), or 0 where there is no /proc/stat."""
    try:
        sutun = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0
    return (sum(sutun[:8]) - sutun[3] - sutun[4]) / os.sysconf("SC_CLK_TCK")


_V: Vaqtlar | None = None


def vaqtlar() -> Vaqtlar:
    """This process's recorder."""
    return _V


def pytest_configure(config):
    global _V
    _V = Vaqtlar(Path(str(config.rootpath)))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """In the process that runs the test: its phase and its waits go into the report."""
    report = yield
    report.user_properties.append((KALIT, {"faza": test_fazasi(item), "fon": _V.fon}))
    _V.fon = []
    return report


def pytest_runtest_logreport(report):
    """In the process that prints the summary (the controller, or the only process)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    for nom, qiymat in report.user_properties:
        if nom == KALIT:
            kutdi = sum(o - b for _, b, o in qiymat["fon"])
            _V.yozuvlar.append((qiymat["faza"], report.nodeid, report.start, report.stop,
                                report.stop - report.start - kutdi))
            _V.yozuvlar += [(f, "", b, o, o - b) for f, b, o in qiymat["fon"]]


def pytest_terminal_summary(terminalreporter):
    if os.environ.get("PYTEST_XDIST_WORKER") or not _V.yozuvlar:
        return
    _V.yigish_qadamlari()
    natija = _V.jadval(time.time())
    fayl = _V.ildiz / "_build" / "test-vaqtlari.json"
    fayl.parent.mkdir(exist_ok=True)
    fayl.write_text(json.dumps(natija, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tr = terminalreporter
    tr.section("where the time went (seconds; from/to: after make started)")
    tr.write_line(f"{'phase':<50} {'tests':>5} {'seconds':>8} {'from':>7} {'to':>7}")
    for q in natija["fazalar"]:
        tr.write_line(f"{q['nomi']:<50} {q['testlar'] or '':>5} {q['soniya']:>8.1f} "
                      f"{q['dan']:>7.1f} {q['gacha']:>7.1f}")
    tr.write_line(f"{'CPU busy, whole machine, while pytest ran':<50} {'':>5} {natija['cpu_mashina']:>8.1f}"
                  f"  ({natija['yadrolar']} cores: at least {natija['cpu_mashina'] / natija['yadrolar']:.0f} s of wall time)")
    tr.write_line(f"{'wall time, from make to the last test':<50} {'':>5} {natija['jami_soniya']:>8.1f}"
                  f"  (pytest {natija['pytest_soniya']:.1f}); written to {fayl.relative_to(_V.ildiz)}")
