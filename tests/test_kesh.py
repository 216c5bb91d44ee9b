"""The execution cache: re-execute exactly when the code changes, keep outputs when not.

A small fixture book (the project's _config.yml, one tiny chapter, one file in
its own chapter_code/) is built several times; the chapter appends a line to a
counter file every time it really executes.
"""

import shutil
from pathlib import Path

import pytest
from conftest import ILDIZ, jb_build

import kesh

BOB = '''# %% [markdown]
# # Kesh bobi
#
# Bu satr nasr.

# %%
from pathlib import Path
with open(Path.cwd() / "bajarildi.txt", "a") as f:
    f.write("bir\\n")
print("natija:", 6 * 7)
'''


@pytest.fixture
def kitob(tmp_path):
    shutil.copy(ILDIZ / "_config.yml", tmp_path / "_config.yml")
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: book/index\nchapters:\n  - file: book/bob\n")
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "index.md").write_text("# Sinov\n\n```{tableofcontents}\n```\n")
    (tmp_path / "book" / "bob.py").write_text(BOB)
    (tmp_path / "chapter_code").mkdir()
    (tmp_path / "chapter_code" / "yordam.py").write_text("X = 1\n")
    (tmp_path / "requirements.lock").write_text("torch==2.13.0+cpu\n")
    return tmp_path


def qur(ildiz: Path) -> int:
    """Build; return how many times the chapter has executed so far."""
    natija = jb_build(ildiz)
    assert natija.returncode == 0, natija.stdout[-3000:] + natija.stderr[-3000:]
    sanoq = ildiz / "book" / "bajarildi.txt"
    return len(sanoq.read_text().splitlines()) if sanoq.exists() else 0


def sahifa(ildiz: Path) -> str:
    return (ildiz / "_build" / "html" / "book" / "bob.html").read_text()


@pytest.mark.build
def test_prose_edit_reuses_the_cache_and_keeps_outputs(kitob):
    assert qur(kitob) == 1
    assert "natija: 42" in sahifa(kitob)
    bob = kitob / "book" / "bob.py"
    bob.write_text(bob.read_text().replace("Bu satr nasr.", "Bu satr tahrirlangan nasr."))
    assert qur(kitob) == 1, "a prose edit re-executed the chapter"
    assert "tahrirlangan nasr" in sahifa(kitob) and "natija: 42" in sahifa(kitob)
    # building again with nothing changed keeps every output (MyST-NB issue 617)
    assert qur(kitob) == 1
    assert "natija: 42" in sahifa(kitob)


@pytest.mark.build
def test_chapter_code_edit_re_executes(kitob):
    assert qur(kitob) == 1
    (kitob / "chapter_code" / "yordam.py").write_text("X = 2\n")
    assert qur(kitob) == 2, "an edit in chapter_code/ did not re-execute the chapter"
    assert "natija: 42" in sahifa(kitob)


@pytest.mark.build
def test_lock_file_edit_re_executes_and_touch_does_not(kitob):
    assert qur(kitob) == 1
    (kitob / "chapter_code" / "yordam.py").touch()       # same content: cache hit
    assert qur(kitob) == 1
    (kitob / "requirements.lock").write_text("torch==2.13.0+cpu\nnumpy==2.4.6\n")
    assert qur(kitob) == 2


def test_digest_covers_code_and_lock(tmp_path):
    (tmp_path / "chapter_code" / "ichki").mkdir(parents=True)
    (tmp_path / "chapter_code" / "a.py").write_text("a = 1\n")
    (tmp_path / "requirements.lock").write_text("x==1\n")
    birinchi = kesh.kod_izi(tmp_path)
    (tmp_path / "chapter_code" / "ichki" / "b.py").write_text("b = 1\n")
    ikkinchi = kesh.kod_izi(tmp_path)
    (tmp_path / "requirements.lock").write_text("x==2\n")
    uchinchi = kesh.kod_izi(tmp_path)
    assert len({birinchi, ikkinchi, uchinchi}) == 3
    assert kesh.kod_izi(tmp_path) == uchinchi
