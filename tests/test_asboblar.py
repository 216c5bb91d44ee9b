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
