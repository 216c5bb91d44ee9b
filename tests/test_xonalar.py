"""Two rooms: chapter code and build code never import each other.

``chapter_code/`` holds what chapters import; ``book/_ext/`` holds the build
code (the driver and the Sphinx extensions).  Read with ``ast`` (nothing is
imported here): no module of one room imports a module of the other, and the
chapters import only ``chapter_code`` of the two.
"""

import ast

import pytest
from conftest import ILDIZ

KITOB = ILDIZ / "chapter_code"
QURILISH = ILDIZ / "book" / "_ext"
QURILISH_MODULLARI = {p.stem for p in QURILISH.glob("*.py")}


def _importlar(manba: str) -> set[str]:
    """Top-level package names a Python source imports (anywhere in it)."""
    nomlar = set()
    for tugun in ast.walk(ast.parse(manba)):
        if isinstance(tugun, ast.Import):
            nomlar |= {a.name.split(".")[0] for a in tugun.names}
        elif isinstance(tugun, ast.ImportFrom) and not tugun.level and tugun.module:
            nomlar.add(tugun.module.split(".")[0])
    return nomlar


def test_both_rooms_exist_and_hold_their_modules():
    assert {"kitob", "malumot", "modellar", "oqitish", "ombor"} <= {p.stem for p in KITOB.glob("*.py")}
    assert {"qurish", "kesh", "boblar", "qulf", "sayt", "pdf", "uzbek", "brauzer"} <= QURILISH_MODULLARI
    assert not QURILISH_MODULLARI & {p.stem for p in KITOB.glob("*.py")}, "a module name in both rooms"


@pytest.mark.parametrize("fayl", sorted(KITOB.glob("*.py")), ids=lambda p: p.name)
def test_chapter_code_imports_no_build_code(fayl):
    assert not _importlar(fayl.read_text(encoding="utf-8")) & (QURILISH_MODULLARI | {"sphinx", "docutils", "myst_parser"}), fayl


@pytest.mark.parametrize("fayl", sorted(QURILISH.glob("*.py")), ids=lambda p: p.name)
def test_build_code_imports_no_chapter_code(fayl):
    assert "chapter_code" not in _importlar(fayl.read_text(encoding="utf-8")), fayl


def test_the_chapters_import_no_build_code():
    import jupytext

    boblar = sorted((ILDIZ / "book").glob("*.py"))
    assert boblar
    for bob in boblar:
        kod = "\n".join(q for h in jupytext.read(bob).cells if h.cell_type == "code"
                        for q in h.source.splitlines() if not q.lstrip().startswith(("%", "!")))
        nomlar = _importlar(kod)
        assert "chapter_code" in nomlar and not nomlar & QURILISH_MODULLARI, bob
