"""Shared fixtures: the project's root, its build, fixture books, captured helper output.

The two rooms of the project are both importable here: ``chapter_code`` (what
chapters import) and the build code in ``book/_ext`` (``ijro``, ``boblar``...; the driver ``qurish`` in ``tools``).
"""

import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import time

import matplotlib
import pytest

matplotlib.use("Agg")

#: where the wall time goes: tests/vaqtlar.py (a table at the end, _build/test-vaqtlari.json)
pytest_plugins = ["vaqtlar"]

_TESTLAR = Path(__file__).resolve().parent
for _yol in (_TESTLAR.parent, _TESTLAR.parent / "book" / "_ext", _TESTLAR.parent / "tools"):
    if str(_yol) not in sys.path:
        sys.path.insert(0, str(_yol))

from qurish import ILDIZ, jb_buyrugi  # noqa: E402  (the project's root and build command, defined once)

QURISH = [sys.executable, str(ILDIZ / "tools" / "qurish.py")]


def bob_sahifalari(ildiz: Path = ILDIZ) -> list[str]:
    """The docnames of the book's chapter pages, in the book's order (each chapter, then its lessons)."""
    import yaml

    toc = yaml.safe_load((ildiz / "_toc.yml").read_text(encoding="utf-8"))
    sahifalar: list[str] = []

    def ichki(yozuvlar) -> None:
        for y in yozuvlar or []:
            if "file" in y:
                sahifalar.append(y["file"])
            ichki(y.get("sections"))

    ichki(toc.get("chapters"))
    return sahifalar


#: The chapter's pages (opening page, lessons, glossary) and the lessons that are notebooks.
SAHIFALAR = bob_sahifalari()
DARSLAR = [d for d in SAHIFALAR if (ILDIZ / f"{d}.py").is_file()]
#: The chapter's sources: every lesson's .py, in order.
DARS_FAYLLARI = [ILDIZ / f"{d}.py" for d in DARSLAR]


def _sarlavhasiz(matn: str) -> str:
    """A percent-format source without its Jupytext header."""
    if matn.startswith("# ---\n"):
        return matn[matn.index("\n# ---\n", 1) + len("\n# ---\n"):]
    return matn


def darslar_matni(ildiz: Path = ILDIZ) -> str:
    """The chapter as one percent-format source, read in order: its pages without their
    Jupytext headers, a page written in Markdown (the opening page, the glossary) as a
    markdown cell whose title is a section's."""
    qismlar = []
    for i, d in enumerate(bob_sahifalari(ildiz)):
        if (ildiz / f"{d}.py").is_file():
            qismlar.append(_sarlavhasiz((ildiz / f"{d}.py").read_text(encoding="utf-8")))
        elif (ildiz / f"{d}.md").is_file():
            qatorlar = (ildiz / f"{d}.md").read_text(encoding="utf-8").splitlines()
            if i:
                qatorlar[0] = "#" + qatorlar[0]
            qismlar.append("# %% [markdown]\n" + "\n".join(("# " + q).rstrip() for q in qatorlar) + "\n")
    return "\n".join(qismlar)


def bob_glue(qurilgan: Path) -> dict:
    """name -> glued output of every lesson (MyST-NB's <lesson>.glue.json); a name glued by two
    lessons is refused, so a value on one page is never another page's."""
    import json

    birga: dict = {}
    for d in DARSLAR:
        yol = qurilgan / "jupyter_execute" / f"{d}.glue.json"
        if not yol.is_file():           # MyST-NB writes none for a lesson that glues nothing
            assert not [h for h in json.loads((yol.parent / f"{yol.name.split('.')[0]}.ipynb").read_text())["cells"]
                        if "glue(" in "".join(h.get("source", ""))], f"{d} glues, but has no {yol.name}"
            continue
        for nom, chiqish in json.loads(yol.read_text()).items():
            assert nom not in birga, f"{nom!r} is glued by two lessons (one is {d})"
            birga[nom] = chiqish
    return birga


def bob_html(qurilgan: Path) -> str:
    """The published pages of the chapter, in order, joined (for checks that read the whole chapter)."""
    return "\n".join((qurilgan / "sayt" / f"{d}.html").read_text(encoding="utf-8") for d in SAHIFALAR)


def jb_build(ildiz: Path, **kwargs) -> subprocess.CompletedProcess:
    """The strict build every test uses (qurish.jb_buyrugi): warnings are errors, all reported."""
    return subprocess.run(jb_buyrugi(ildiz), capture_output=True, text=True, **kwargs)


def kitob_nusxasi(maqsad: Path, toc: str, sahifalar: dict[str, str], chapter_code: bool = False) -> Path:
    """A fixture book in ``maqsad``: the project's configuration and build code, the given pages.

    ``toc`` is the text of _toc.yml; ``sahifalar`` maps paths under the root to
    their text.  ``chapter_code=True`` copies the project's chapter_code/ and
    requirements files too (the fixture's own copy, which a test may change).
    """
    from vaqtlar import vaqtlar
    if vaqtlar():
        vaqtlar().nusxa_yasaldi()       # the time table counts this test as a fixture build
    shutil.copy(ILDIZ / "_config.yml", maqsad / "_config.yml")
    (maqsad / "book").mkdir(parents=True, exist_ok=True)
    shutil.copy(ILDIZ / "book" / "adabiyotlar.bib", maqsad / "book" / "adabiyotlar.bib")  # _config.yml names it
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


#: The book build of this test session, started in the background once collection shows a
#: test that needs it (pytest_collection_modifyitems): it runs on one core while the tests
#: that do not need it run on the other.
_YIGISH: dict = {}


def _qurishni_boshla() -> None:
    if "jarayon" not in _YIGISH:
        # into a file, not a pipe: a pipe nobody reads would stop the build when it fills
        _YIGISH["chiqish"] = tempfile.TemporaryFile("w+", encoding="utf-8")
        _YIGISH["jarayon"] = subprocess.Popen([*QURISH, str(ILDIZ)], stdout=_YIGISH["chiqish"],
                                              stderr=subprocess.STDOUT, text=True)


#: Lighthouse on every page (tests/test_mayoq.py), in a thread started the moment the build
#: has published the site: it runs on one core while the browser tests run on the other.
_MAYOQ: dict = {}


def _mayoqni_boshla(qurilgan: Path) -> None:
    if "ip" in _MAYOQ or not _MAYOQ.get("kerak"):
        return

    def ishla() -> None:
        import mayoq
        from xizmat import xizmat

        boshi = time.time()
        try:
            yoq = mayoq.tayyormi()
            if yoq:
                raise RuntimeError(yoq)
            natija = {}
            with xizmat((qurilgan / "sayt").resolve()) as url:
                for nom, yol in mayoq.SAHIFALAR.items():
                    natija[yol] = mayoq.olch(url + yol, qurilgan / "mayoq" / f"test-{nom}")
            _MAYOQ["natija"] = natija
        except BaseException as xato:       # re-raised in the test that reads the reports
            _MAYOQ["xato"] = xato
        finally:
            _MAYOQ["vaqt"] = (boshi, time.time())

    _MAYOQ["ip"] = threading.Thread(target=ishla, name="lighthouse", daemon=True)
    _MAYOQ["ip"].start()


@pytest.fixture(scope="session")
def mayoq_hisobotlari(qurilgan) -> dict:
    """{page: Lighthouse report} of every page of the published site (tools/mayoq.py),
    from the thread the build's end started (the reports: _build/mayoq/test-*)."""
    _MAYOQ["kerak"] = True
    _mayoqni_boshla(qurilgan)
    _MAYOQ["ip"].join()
    from vaqtlar import vaqtlar
    if vaqtlar():
        vaqtlar().fonda("mayoq-fon", *_MAYOQ["vaqt"])
    if "xato" in _MAYOQ:
        raise _MAYOQ["xato"]
    return _MAYOQ["natija"]


@pytest.fixture(scope="session")
def qurilgan():
    """Build site and PDF once per test session, as `make book` does; return _build/.

    The build started in the background when the tests were collected; the tests
    that need it run last (pytest_collection_modifyitems), so by then it has
    usually finished.
    """
    _qurishni_boshla()
    jarayon = _YIGISH["jarayon"]
    boshi = time.time()
    jarayon.wait()
    from vaqtlar import vaqtlar
    if vaqtlar():
        vaqtlar().kutdi(boshi, time.time())
    _YIGISH["chiqish"].seek(0)
    chiqish = _YIGISH["chiqish"].read()
    assert jarayon.returncode == 0, chiqish[-4000:]
    # -W turns every Sphinx warning into a failure; none may be printed either
    assert ": WARNING:" not in chiqish, chiqish[-3000:]
    _mayoqni_boshla(ILDIZ / "_build")
    return ILDIZ / "_build"


def pytest_configure(config):
    config.addinivalue_line("markers", "build: builds the book with jupyter-book (slow)")
    config.addinivalue_line("markers", "ijro: executes the whole chapter (slow; not in make unit)")


def pytest_collection_modifyitems(config, items):
    """A test that needs the built book must be marked build, or make unit would build it.

    If any selected test needs the build, it starts in the background once collection is
    done, and the tests that need it go last (in their order): the others (unit tests,
    fixture books, the determinism test's second execution) run meanwhile on the other
    core (pytest_collection_finish).
    """
    yoq = [i.nodeid for i in items
           if "qurilgan" in getattr(i, "fixturenames", ()) and i.get_closest_marker("build") is None]
    if yoq:
        raise pytest.UsageError("these tests use the qurilgan fixture (a full build) but are not "
                                "marked @pytest.mark.build: " + ", ".join(yoq))


def pytest_collection_finish(session):
    """After deselection (``-m "not build"`` selects none of them): see above."""
    kerak = [i for i in session.items if "qurilgan" in getattr(i, "fixturenames", ())]
    _MAYOQ["kerak"] = any("mayoq_hisobotlari" in getattr(i, "fixturenames", ()) for i in kerak)
    if kerak and not session.config.option.collectonly:
        session.items[:] = [i for i in session.items if i not in kerak] + kerak
        _qurishni_boshla()


@pytest.fixture
def chiqishlar(monkeypatch, tmp_path):
    """Capture what the helpers display, and write their pictures into tmp_path."""
    from chapter_code import kitob

    olingan = []
    monkeypatch.setattr(kitob, "_display", lambda bundle, metadata=None: olingan.append((bundle, metadata or {})))
    monkeypatch.setitem(kitob.SOZLAMA, "rasm_papkasi", tmp_path / "rasmlar")
    return olingan
