"""Shared fixtures: the repository root, and a captured ``_display`` for the book helpers."""

import subprocess
import sys
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

ILDIZ = Path(__file__).resolve().parent.parent
JB = str(Path(sys.executable).parent / "jupyter-book")
if str(ILDIZ) not in sys.path:
    sys.path.insert(0, str(ILDIZ))


def jb_build(ildiz: Path) -> subprocess.CompletedProcess:
    """The strict build every test uses: warnings are errors, all reported."""
    return subprocess.run([JB, "build", str(ildiz), "-W", "-n", "--keep-going"],
                          capture_output=True, text=True)


@pytest.fixture(scope="session")
def qurilgan():
    """Build site and PDF once per test session, as `make book` does; return _build/."""
    natija = subprocess.run([sys.executable, "-m", "chapter_code.qurish", str(ILDIZ)],
                            capture_output=True, text=True)
    chiqish = natija.stdout + natija.stderr
    assert natija.returncode == 0, chiqish[-4000:]
    # -W turns every Sphinx warning into a failure; none may be printed either
    assert ": WARNING:" not in chiqish, chiqish[-3000:]
    return ILDIZ / "_build"


def pytest_configure(config):
    config.addinivalue_line("markers", "build: builds the book with jupyter-book (slow)")


@pytest.fixture
def chiqishlar(monkeypatch, tmp_path):
    """Capture what the helpers display, and write their pictures into tmp_path."""
    from chapter_code import kitob

    olingan = []
    monkeypatch.setattr(kitob, "_display", lambda bundle, metadata=None: olingan.append((bundle, metadata or {})))
    monkeypatch.setitem(kitob.SOZLAMA, "rasm_papkasi", tmp_path / "rasmlar")
    return olingan
