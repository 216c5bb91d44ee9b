"""The author's tools still fit the lessons they edit."""

import sys
from pathlib import Path

ILDIZ = Path(__file__).resolve().parents[1]


def test_the_benchmarks_edits_find_their_text():
    """make bench times a rebuild after an edit in each lesson (a prose line, a figure's size); a
    lesson rewritten so that an edit no longer finds its text fails here, not an hour into
    make bench."""
    sys.path.insert(0, str(ILDIZ / "tools"))
    import benchmark

    benchmark.tahrirlar_bormi(ILDIZ)   # raises SystemExit naming each edit that is lost
    for yol, eski in benchmark.RASM_TAHRIRLARI:
        assert (ILDIZ / yol).read_text().count(eski) == 1, (yol, eski)
        assert benchmark.rasm_tahriri(eski) != eski


def test_the_previews_prose_edit_finds_each_lessons_first_sentence():
    import benchmark

    for yol in benchmark.darslar(ILDIZ):
        assert benchmark.NASR_SATRI.search((ILDIZ / yol).read_text()), (
            f"{yol}: make bench's preview edit (benchmark.NASR_SATRI) finds no first sentence under the title")


def test_the_schedulers_lists_name_modules_and_tests_that_exist():
    """conftest's order of the session's units (OLDIN, BOLINADI, BRAUZER_UZUNLARI) names test
    modules and test functions; a renamed one would be passed over in silence."""
    import conftest

    papka = Path(__file__).parent
    for modul in (*conftest.OLDIN, *conftest.BOLINADI):
        assert (papka / f"{modul}.py").is_file(), modul
    manba = (papka / "test_brauzer.py").read_text(encoding="utf-8")
    yoq = [f for f in conftest.BRAUZER_UZUNLARI if f"\ndef {f}(" not in manba]
    assert not yoq, f"conftest.BRAUZER_UZUNLARI names no test of test_brauzer.py: {yoq}"
