"""Publishing is atomic: a failed build leaves the published site byte-for-byte as it was."""

import hashlib
import shutil
import subprocess
import sys

import pytest
from conftest import ILDIZ

pytestmark = pytest.mark.build

BOB = "# %% [markdown]\n# # Nashr bobi\n\n# %%\nprint('natija:', {son})\n"


def _qur(ildiz):
    return subprocess.run([sys.executable, "-m", "chapter_code.qurish", str(ildiz)],
                          capture_output=True, text=True)


def _izlar(papka):
    """path -> sha256 of every file of the published site."""
    return {p.relative_to(papka).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(papka.rglob("*")) if p.is_file()}


def test_failed_build_leaves_the_published_site_intact(tmp_path):
    shutil.copy(ILDIZ / "_config.yml", tmp_path / "_config.yml")
    (tmp_path / "_toc.yml").write_text("format: jb-book\nroot: book/index\nchapters:\n  - file: book/attention\n")
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "index.md").write_text("# Sinov\n\n```{tableofcontents}\n```\n")
    bob = tmp_path / "book" / "attention.py"
    bob.write_text(BOB.format(son=42))

    birinchi = _qur(tmp_path)
    assert birinchi.returncode == 0, (birinchi.stdout + birinchi.stderr)[-3000:]
    sayt = tmp_path / "_build" / "sayt"
    assert sayt.is_symlink() and "natija: 42" in (sayt / "book" / "attention.html").read_text()
    assert (sayt / "attention-va-transformer.pdf").read_bytes()[:5] == b"%PDF-"
    oldin, manzil = _izlar(sayt), sayt.resolve()

    bob.write_text(BOB.format(son=42) + "\n# %%\nraise RuntimeError('ataylab buzildi')\n")
    ikkinchi = _qur(tmp_path)
    chiqish = ikkinchi.stdout + ikkinchi.stderr
    assert ikkinchi.returncode != 0
    assert "book/attention.py" in chiqish and "ataylab buzildi" in chiqish
    assert "qurish: the build failed" in chiqish
    assert sayt.resolve() == manzil and _izlar(sayt) == oldin

    bob.write_text(BOB.format(son=43))
    uchinchi = _qur(tmp_path)
    assert uchinchi.returncode == 0, (uchinchi.stdout + uchinchi.stderr)[-3000:]
    assert "natija: 43" in (sayt / "book" / "attention.html").read_text()
    assert not manzil.exists(), "the old published copy was not removed"
