"""Two rooms: chapter code and build code never import each other.

``chapter_code/`` holds what chapters import; ``book/_ext/qurilish/`` holds the build
code (the Sphinx extensions; the driver is ``tools/qurish.py``).  Read with ``ast`` (nothing is
imported here): no module of one room imports a module of the other, and the
chapters import only ``chapter_code`` of the two.

Two doors between them, on purpose: the build writes glued numbers with
``chapter_code.bichim`` (book/_ext/qurilish/glue.py), the same helper that writes the
chapter's table cells and figure ticks, so a number reads the same wherever a
reader meets it; and the execution cache keys a chapter by the machine's
arithmetic with ``chapter_code.muhit`` (book/_ext/qurilish/ijro.py), the same text the
store of trainings keys by, so both tell apart the same settings.  Neither
module imports anything else of ``chapter_code`` or any model code, so the
build does not pull in the chapter's machinery.
"""

import ast

import pytest
from conftest import ILDIZ

KITOB = ILDIZ / "chapter_code"
QURILISH = ILDIZ / "book" / "_ext"
#: The build code's modules: the package book/_ext/qurilish (imported as qurilish.<module>).
QURILISH_FAYLLARI = sorted(QURILISH.rglob("*.py"))
QURILISH_MODULLARI = {"qurilish"} | {p.stem for p in QURILISH_FAYLLARI} - {"__init__"}


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
    from qurilish import MODULLAR

    assert {"ijro", "raqamlash", "qorongi", "yuklamalar", "qulf", "katex", "pdf", "tarjima", "qidiruv", "sahifa", "uslub",
            "glue", "kod", "adabiyot", "xarita", "yozuvda", "yakun"} == set(MODULLAR)
    # shrift, daftar and yozuv are helpers of yakun, yuklamalar and yozuvda, set up through them
    assert set(MODULLAR) | {"shrift", "daftar", "yozuv", "qurilish"} == QURILISH_MODULLARI, \
        "a module of the package not set up"
    assert not QURILISH_MODULLARI & {p.stem for p in KITOB.glob("*.py")}, "a module name in both rooms"


@pytest.mark.parametrize("fayl", sorted(KITOB.glob("*.py")), ids=lambda p: p.name)
def test_chapter_code_imports_no_build_code(fayl):
    assert not _importlar(fayl.read_text(encoding="utf-8")) & (QURILISH_MODULLARI | {"sphinx", "docutils", "myst_parser"}), fayl


def _chapter_code_modullari(manba: str) -> set[str]:
    """The chapter_code modules a source imports ("chapter_code.bichim" → "bichim")."""
    nomlar = set()
    for tugun in ast.walk(ast.parse(manba)):
        if isinstance(tugun, ast.Import):
            nomlar |= {a.name for a in tugun.names if a.name.split(".")[0] == "chapter_code"}
        elif isinstance(tugun, ast.ImportFrom) and not tugun.level and tugun.module \
                and tugun.module.split(".")[0] == "chapter_code":
            nomlar |= ({tugun.module} if tugun.module != "chapter_code"
                       else {f"chapter_code.{a.name}" for a in tugun.names})
    return nomlar


#: the chapter_code modules the build may import (numbers in Uzbek form; the arithmetic)
ESHIK = {"chapter_code.bichim", "chapter_code.muhit"}


@pytest.mark.parametrize("fayl", QURILISH_FAYLLARI + sorted((ILDIZ / "tools").glob("*.py")), ids=lambda p: p.name)
def test_build_code_imports_no_chapter_code_but_the_two_doors(fayl):
    assert _chapter_code_modullari(fayl.read_text(encoding="utf-8")) <= ESHIK, fayl


def test_the_door_is_checked_and_the_number_helper_imports_nothing_heavy():
    assert _chapter_code_modullari("import chapter_code.kitob") == {"chapter_code.kitob"}
    assert _chapter_code_modullari("from chapter_code import modellar") == {"chapter_code.modellar"}
    assert not _chapter_code_modullari("from chapter_code.bichim import son") - ESHIK
    importlar = _importlar((KITOB / "bichim.py").read_text(encoding="utf-8"))
    assert importlar <= {"__future__", "math", "numbers", "re", "matplotlib"}, importlar
    importlar = _importlar((KITOB / "muhit.py").read_text(encoding="utf-8"))
    # the standard library's light modules (the time kept per lesson: json, its file, the kernel
    # check) and the package's own __init__ (only pathlib)
    assert importlar <= {"__future__", "os", "platform", "json", "math", "multiprocessing", "sys",
                         "pathlib", "chapter_code"}, importlar
    assert _importlar((KITOB / "__init__.py").read_text(encoding="utf-8")) <= {"__future__", "pathlib"}


def test_the_chapters_import_no_build_code():
    import jupytext

    boblar = sorted((ILDIZ / "book").rglob("*.py"))
    boblar = [b for b in boblar if "_ext" not in b.parts]
    assert boblar
    for bob in boblar:
        kod = "\n".join(q for h in jupytext.read(bob).cells if h.cell_type == "code"
                        for q in h.source.splitlines() if not q.lstrip().startswith(("%", "!")))
        nomlar = _importlar(kod)
        assert "chapter_code" in nomlar and not nomlar & QURILISH_MODULLARI, bob
