"""Code for reading (issue 24, item 4): what a student reads in a lesson's code cells.

* Bookkeeping that only passes values to the text — ``glue`` calls and the sentences
  built for them — sits in hidden cells (``remove-cell``); a visible cell computes,
  prints, tabulates or draws.
* Every line of a visible code cell is at most ``ENG_UZUN`` characters, so that a code
  block fits a laptop's column without scrolling (the browser side of this is
  ``test_brauzer.py::test_code_and_its_output_fit_a_laptops_column``).

Each check is a function of a cell's source, shown failing on a bad cell below.
"""

from __future__ import annotations

import ast

import jupytext
import pytest
from conftest import DARS_FAYLLARI as DARSLAR

#: The longest line of a visible code cell: a laptop's column (about 80 letters of the
#: code font at 1280 px) with room to spare.
ENG_UZUN = 72
#: Cell tags that keep a cell's code out of the reader's way.
YASHIRIN = {"remove-cell", "remove-input", "hide-input", "hide-cell"}


def korinadigan_kataklar(dars) -> list[tuple[int, str]]:
    """(number, source) of every code cell a reader sees in the lesson ``dars``."""
    return [(i, h.source) for i, h in enumerate(jupytext.read(dars).cells)
            if h.cell_type == "code" and not YASHIRIN & set(h.metadata.get("tags", []))]


def uzun_qatorlar(manba: str) -> list[str]:
    """The lines of ``manba`` longer than ENG_UZUN characters."""
    return [q for q in manba.splitlines() if len(q) > ENG_UZUN]


def glue_chaqiriqlari(manba: str) -> list[int]:
    """Line numbers of every call of ``glue`` in ``manba`` (at any depth: in loops too)."""
    return [n.lineno for n in ast.walk(ast.parse(manba))
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "glue"]


@pytest.mark.parametrize("dars", DARSLAR, ids=lambda d: d.stem)
def test_visible_code_passes_nothing_to_the_text(dars):
    topilgan = {i: q for i, manba in korinadigan_kataklar(dars) if (q := glue_chaqiriqlari(manba))}
    assert not topilgan, (f"{dars.name}: glue in visible cells (cell: lines) {topilgan}; "
                          "move it into a cell tagged remove-cell after the cell that computes it")


@pytest.mark.parametrize("dars", DARSLAR, ids=lambda d: d.stem)
def test_visible_code_lines_fit_a_laptop(dars):
    uzun = [(i, len(q), q) for i, manba in korinadigan_kataklar(dars) for q in uzun_qatorlar(manba)]
    assert not uzun, (f"{dars.name}: {len(uzun)} lines over {ENG_UZUN} characters "
                      f"(cell, length, line): {uzun[:5]}")


def test_the_checks_find_what_they_look_for():
    assert glue_chaqiriqlari('x = 1\nglue("x", x, display=False)\n') == [2]
    assert glue_chaqiriqlari('for k in d:\n    glue(k, d[k])\n') == [2]
    assert glue_chaqiriqlari('y = 2 * x\nprint(y)\n') == []
    assert uzun_qatorlar("a = 1\n" + "b = " + "1 + " * 20 + "1\n") == ["b = " + "1 + " * 20 + "1"]
    assert uzun_qatorlar("x" * ENG_UZUN) == []


def test_a_hidden_cell_is_not_read_and_a_visible_one_is(tmp_path):
    dars = tmp_path / "dars.py"
    dars.write_text('# %%\nx = 1\n\n# %% tags=["remove-cell"]\nglue("x", x)\n\n'
                    '# %% [markdown]\n# Matn\n', encoding="utf-8")
    assert korinadigan_kataklar(dars) == [(0, "x = 1")]
