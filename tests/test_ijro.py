"""The execution cache follows what a chapter imports, not a folder.

A small fixture book (the project's configuration and build code, one tiny
chapter, its own ``chapter_code/`` of three modules) is built again after each
kind of edit; the chapter appends a line to a counter file every time it
really executes.  An edit in a module the chapter imports (directly or through
another module) or in the lock re-executes it; an edit in a module it does not
import, in the build code, a template, a translation or the CSS re-renders the
page and executes no cell.
"""

import os
from pathlib import Path

import pytest
from conftest import jb_build, kitob_nusxasi

from qurilish import ijro

BOB = '''# %% [markdown]
# # Kesh bobi
#
# Bu satr nasr.

# %%
from pathlib import Path
from chapter_code.yordam import X
with open(Path.cwd() / "bajarildi.txt", "a") as f:
    f.write("bir\\n")
print("natija:", 6 * 7, X)
'''

KOD = {
    "chapter_code/__init__.py": "",
    "chapter_code/yordam.py": "from chapter_code.ichki import Y\nX = Y + 1\n",
    "chapter_code/ichki.py": "Y = 1\n",
    "chapter_code/boshqa.py": "Z = 1\n",          # not imported by the chapter
}


@pytest.fixture(scope="module")
def kitob(tmp_path_factory):
    ildiz = kitob_nusxasi(
        tmp_path_factory.mktemp("kesh"),
        "format: jb-book\nroot: book/index\nchapters:\n  - file: book/bob\n",
        {"book/index.md": "# Sinov\n\n```{tableofcontents}\n```\n", "book/bob.py": BOB,
         "requirements.lock": "torch==2.13.0+cpu\n",
         "requirements.txt": "torch==2.13.0+cpu  # [bob] the models\n", **KOD})
    assert qur(ildiz) == 1
    return ildiz


def qur(ildiz: Path) -> int:
    """Build; return how many times the chapter has executed so far."""
    natija = jb_build(ildiz, env={**os.environ, "PYTHONPATH": str(ildiz)})
    assert natija.returncode == 0, natija.stdout[-3000:] + natija.stderr[-3000:]
    sanoq = ildiz / "book" / "bajarildi.txt"
    return len(sanoq.read_text().splitlines()) if sanoq.exists() else 0


def sahifa(ildiz: Path) -> str:
    return (ildiz / "_build" / "html" / "book" / "bob.html").read_text()


def tahrir(ildiz: Path, yol: str, eski: str, yangi: str) -> str:
    """Replace ``eski`` by ``yangi`` in a file of the book; return the old text (to restore)."""
    fayl = ildiz / yol
    matn = fayl.read_text()
    assert eski in matn, f"{eski!r} is not in {yol}"
    fayl.write_text(matn.replace(eski, yangi, 1))
    return matn


def qayta_qur(ildiz: Path, yol: str, eski: str, yangi: str, oldin: int | None = None) -> tuple[int, str]:
    """Edit, build, return (executions during that build, the page); the edit is undone after.
    ``oldin``: the executions so far, if the caller has just built with nothing pending (the
    edit before it was undone: a build first)."""
    if oldin is None:
        oldin = qur(ildiz)                   # nothing pending: a build with no change
    asli = tahrir(ildiz, yol, eski, yangi)
    try:
        keyin = qur(ildiz)
        return keyin - oldin, sahifa(ildiz)
    finally:
        (ildiz / yol).write_text(asli)


@pytest.mark.build
def test_prose_edit_reuses_the_cache_and_keeps_outputs(kitob):
    bajarildi, bet = qayta_qur(kitob, "book/bob.py", "Bu satr nasr.", "Bu satr tahrirlangan nasr.")
    assert bajarildi == 0, "a prose edit re-executed the chapter"
    assert "tahrirlangan nasr" in bet and "natija: 42 2" in bet
    # building again with nothing changed keeps every output (MyST-NB issue 617)
    oldin = qur(kitob)
    assert qur(kitob) == oldin and "natija: 42 2" in sahifa(kitob)


@pytest.mark.build
@pytest.mark.parametrize("yol, eski, yangi, kutilgan", [
    ("chapter_code/yordam.py", "X = Y + 1", "X = Y + 2", "natija: 42 3"),   # imported directly
    ("chapter_code/ichki.py", "Y = 1", "Y = 5", "natija: 42 6"),           # imported through yordam
])
def test_an_edit_in_an_imported_module_re_executes(kitob, yol, eski, yangi, kutilgan):
    bajarildi, bet = qayta_qur(kitob, yol, eski, yangi)
    assert bajarildi == 1, f"an edit in {yol} executed the chapter {bajarildi} times"
    assert kutilgan in bet


@pytest.mark.build
def test_a_lock_edit_re_executes_and_touch_does_not(kitob):
    oldin = qur(kitob)
    (kitob / "chapter_code" / "yordam.py").touch()       # same content: cache hit
    assert qur(kitob) == oldin
    bajarildi, _ = qayta_qur(kitob, "requirements.lock", "torch==2.13.0+cpu\n",
                             "torch==2.13.0+cpu\nnumpy==2.4.6\n", oldin=oldin)
    assert bajarildi == 1


@pytest.mark.build
@pytest.mark.parametrize("yol, eski, yangi, korinadi", [
    # a module the chapter does not import
    ("chapter_code/boshqa.py", "Z = 1", "Z = 2", None),
    # build code: a Sphinx extension (a new environment version: every page read again)
    ("book/_ext/qurilish/sahifa.py", '"""Build side', '# kesh sinovi\n"""Build side', None),
    # a theme template: shows in the page
    ("book/_templates/navbar-logo.html", "<nav class=", "<!-- kesh-sinovi --><nav class=",
     "<!-- kesh-sinovi -->"),
    # a translation (the search box's placeholder, from booktheme.po)
    ("locales/uz/LC_MESSAGES/booktheme.po", 'msgstr "Bobdan qidirish', 'msgstr "Bobdan izlash',
     "Bobdan izlash"),
])
def test_build_side_edits_re_render_but_execute_no_cell(kitob, yol, eski, yangi, korinadi):
    bet_yoli = kitob / "_build" / "html" / "book" / "bob.html"
    oldin = qur(kitob)
    oldingi_vaqt = bet_yoli.stat().st_mtime_ns
    bajarildi, bet = qayta_qur(kitob, yol, eski, yangi, oldin=oldin)
    assert bajarildi == 0, f"an edit in {yol} executed the chapter"
    assert "natija: 42 2" in bet, "the page lost the chapter's outputs"
    if yol.startswith(("book/", "locales/")):
        assert bet_yoli.stat().st_mtime_ns > oldingi_vaqt, f"an edit in {yol} did not re-render the page"
    if korinadi:
        assert korinadi in bet


@pytest.mark.build
def test_a_css_edit_reaches_the_site_and_executes_no_cell(kitob):
    bajarildi, _ = qayta_qur(kitob, "book/_static/kitob.css", "/*", "/* kesh-sinovi */\n/*")
    assert bajarildi == 0
    # (qayta_qur undid the edit; the built copy is the edited one)
    assert "kesh-sinovi" in (kitob / "_build" / "html" / "_static" / "kitob.css").read_text()


# --- what a chapter watches (fast, no build) ---------------------------------------

def _kod(ildiz: Path, fayllar: dict[str, str]) -> None:
    for yol, matn in fayllar.items():
        (ildiz / yol).parent.mkdir(parents=True, exist_ok=True)
        (ildiz / yol).write_text(matn)


def _nomlar(matn: str, ildiz: Path) -> list[str]:
    return [f.relative_to(ildiz).as_posix() for f in ijro.kuzatilgan_fayllar(matn, ildiz)]


@pytest.fixture
def paket(tmp_path):
    _kod(tmp_path, {
        "chapter_code/__init__.py": "",
        "chapter_code/a.py": "from .b import f\n",          # relative import
        "chapter_code/b.py": "import numpy\nf = 1\n",
        "chapter_code/c.py": "",
        "chapter_code/ichki/__init__.py": "",
        "chapter_code/ichki/d.py": "from chapter_code import c\n",
        "requirements.lock": "x==1\n",
    })
    return tmp_path


@pytest.mark.parametrize("kod, kutilgan", [
    ("from chapter_code.a import f", ["a", "b"]),
    ("import chapter_code.c", ["c"]),
    ("from chapter_code import c, a", ["a", "b", "c"]),
    ("from chapter_code.ichki.d import c", ["c", "ichki/__init__", "ichki/d"]),
    ("import numpy\nx = 1", []),
])
def test_watched_files_follow_the_imports(paket, kod, kutilgan):
    matn = f"# %% [markdown]\n# # Bob\n\n# %%\n%matplotlib inline\n{kod}\n"
    kutilgan_fayllar = ([] if not kutilgan else ["chapter_code/__init__.py"]) + [
        f"chapter_code/{k}.py" for k in kutilgan]
    assert _nomlar(matn, paket) == sorted(set(kutilgan_fayllar)) + ["requirements.lock"]


@pytest.mark.parametrize("kod", [
    "from chapter_code.a import f\nprint('yopilmagan'",                 # does not parse
    "import importlib\nm = importlib.import_module('chapter_code.c')",   # dynamic
    "m = __import__('chapter_code.c')",
    "from chapter_code import *",                                       # star
    "%run -m chapter_code.c",                                           # a magic naming it
])
def test_imports_that_cannot_be_followed_watch_every_module(paket, kod):
    matn = f"# %%\n{kod}\n"
    assert len(_nomlar(matn, paket)) == 7       # 6 modules + the lock


@pytest.mark.parametrize("kod, kutilgan", [
    ("import chapter_code.c as c", ["c"]),
    ("def f():\n    from chapter_code.a import f\n    return f", ["a", "b"]),    # inside a function
    ("%%time\nfrom chapter_code import c", ["c"]),                             # under a cell magic
])
def test_other_import_forms_are_followed(paket, kod, kutilgan):
    matn = f"# %%\n{kod}\n"
    assert _nomlar(matn, paket) == ["chapter_code/__init__.py"] + [
        f"chapter_code/{k}.py" for k in kutilgan] + ["requirements.lock"]


def test_digest_changes_with_what_is_imported_only(paket):
    matn = "# %%\nfrom chapter_code.a import f\n"
    birinchi = ijro.kod_izi(matn, paket)
    (paket / "chapter_code" / "c.py").write_text("o = 1\n")             # not imported
    assert ijro.kod_izi(matn, paket) == birinchi
    (paket / "chapter_code" / "b.py").write_text("import numpy\nf = 2\n")   # imported through a
    ikkinchi = ijro.kod_izi(matn, paket)
    (paket / "requirements.lock").write_text("x==2\n")
    uchinchi = ijro.kod_izi(matn, paket)
    assert len({birinchi, ikkinchi, uchinchi}) == 3
    assert ijro.kod_izi(matn, paket) == uchinchi


def test_digest_changes_with_the_editions_scripts_the_figures_are_drawn_in(paket, tmp_path, monkeypatch):
    """An edit of an edition's exception list re-executes the lessons (their figures are drawn in
    that script too); another script's folder, or a book without editions, does not count."""
    import json

    matn = "# %%\nfrom chapter_code.a import f\n"
    monkeypatch.delenv("KITOB_YOZUVLAR", raising=False)
    yoq = ijro.kod_izi(matn, paket)
    for nom in ("kirill", "boshqa"):
        (tmp_path / nom).mkdir()
        (tmp_path / nom / "istisnolar.tsv").write_text("a\tб\t=\n", encoding="utf-8")
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "yozuvchi.py").write_text("def f(): pass\n")
    monkeypatch.setenv("KITOB_YOZUVLAR", json.dumps({"yol": [str(tmp_path / "m")], "otkazgich": "yozuvchi:f",
                                                     "papka": str(tmp_path), "nomlar": ["kirill"]}))
    bor = ijro.kod_izi(matn, paket)
    assert [n for n, _ in ijro.yozuvlar_fayllari()] == ["kirill/istisnolar.tsv", "yozuvchi.py"]
    (tmp_path / "boshqa" / "istisnolar.tsv").write_text("a\tв\t=\n", encoding="utf-8")
    assert ijro.kod_izi(matn, paket) == bor
    (tmp_path / "kirill" / "istisnolar.tsv").write_text("a\tв\t=\n", encoding="utf-8")
    tahrir = ijro.kod_izi(matn, paket)
    (tmp_path / "m" / "yozuvchi.py").write_text("def f(): return 1\n")
    assert len({yoq, bor, tahrir, ijro.kod_izi(matn, paket)}) == 4


def test_build_code_digest_covers_extensions_templates_and_static(tmp_path):
    _kod(tmp_path, {"book/_ext/a.py": "x = 1\n", "book/_templates/t.html": "<p>",
                    "book/_static/s.css": "p {}"})
    izlar = {ijro.qurilish_izi(tmp_path)}
    for yol in ("book/_ext/a.py", "book/_templates/t.html", "book/_static/s.css"):
        with open(tmp_path / yol, "a") as f:
            f.write("\n")
        izlar.add(ijro.qurilish_izi(tmp_path))
    assert len(izlar) == 4
