"""Shared fixtures: the project's root, its build, fixture books, captured helper output.

The two rooms of the project are both importable here: ``chapter_code`` (what
chapters import) and the build code in ``book/_ext`` (``qurish``, ``kesh``...).
"""

import shutil
import subprocess
import sys
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

_TESTLAR = Path(__file__).resolve().parent
for _yol in (_TESTLAR.parent, _TESTLAR.parent / "book" / "_ext"):
    if str(_yol) not in sys.path:
        sys.path.insert(0, str(_yol))

from qurish import ILDIZ, jb_buyrugi  # noqa: E402  (the project's root and build command, defined once)

QURISH = [sys.executable, str(ILDIZ / "book" / "_ext" / "qurish.py")]


def jb_build(ildiz: Path, **kwargs) -> subprocess.CompletedProcess:
    """The strict build every test uses (qurish.jb_buyrugi): warnings are errors, all reported."""
    return subprocess.run(jb_buyrugi(ildiz), capture_output=True, text=True, **kwargs)


def kitob_nusxasi(maqsad: Path, toc: str, sahifalar: dict[str, str], chapter_code: bool = False) -> Path:
    """A fixture book in ``maqsad``: the project's configuration and build code, the given pages.

    ``toc`` is the text of _toc.yml; ``sahifalar`` maps paths under the root to
    their text.  ``chapter_code=True`` copies the project's chapter_code/ and
    requirements files too (the fixture's own copy, which a test may change).
    """
    shutil.copy(ILDIZ / "_config.yml", maqsad / "_config.yml")
    for papka in ("book/_ext", "book/_templates", "book/_static"):
        shutil.copytree(ILDIZ / papka, maqsad / papka, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ILDIZ / "locales", maqsad / "locales", ignore=shutil.ignore_patterns("*.mo", "*.js"))
    if chapter_code:
        shutil.copytree(ILDIZ / "chapter_code", maqsad / "chapter_code",
                        ignore=shutil.ignore_patterns("__pycache__"))
        for f in ("requirements.txt", "requirements.lock"):
            shutil.copy(ILDIZ / f, maqsad / f)
    (maqsad / "_toc.yml").write_text(toc)
    for yol, matn in sahifalar.items():
        (maqsad / yol).parent.mkdir(parents=True, exist_ok=True)
        (maqsad / yol).write_text(matn)
    return maqsad


@pytest.fixture(scope="session")
def qurilgan():
    """Build site and PDF once per test session, as `make book` does; return _build/."""
    natija = subprocess.run([*QURISH, str(ILDIZ)], capture_output=True, text=True)
    chiqish = natija.stdout + natija.stderr
    assert natija.returncode == 0, chiqish[-4000:]
    # -W turns every Sphinx warning into a failure; none may be printed either
    assert ": WARNING:" not in chiqish, chiqish[-3000:]
    return ILDIZ / "_build"


def pytest_configure(config):
    config.addinivalue_line("markers", "build: builds the book with jupyter-book (slow)")


def pytest_collection_modifyitems(config, items):
    """A test that needs the built book must be marked build, or make unit would build it."""
    yoq = [i.nodeid for i in items
           if "qurilgan" in getattr(i, "fixturenames", ()) and i.get_closest_marker("build") is None]
    if yoq:
        raise pytest.UsageError("these tests use the qurilgan fixture (a full build) but are not "
                                "marked @pytest.mark.build: " + ", ".join(yoq))


@pytest.fixture
def chiqishlar(monkeypatch, tmp_path):
    """Capture what the helpers display, and write their pictures into tmp_path."""
    from chapter_code import kitob

    olingan = []
    monkeypatch.setattr(kitob, "_display", lambda bundle, metadata=None: olingan.append((bundle, metadata or {})))
    monkeypatch.setitem(kitob.SOZLAMA, "rasm_papkasi", tmp_path / "rasmlar")
    return olingan
