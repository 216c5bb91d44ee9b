"""Shared fixtures: the project's root, its build, fixture books, captured helper output.

The two rooms of the project are both importable here: ``chapter_code`` (what
chapters import) and the build code in ``book/_ext`` (``ijro``, ``boblar``...; the driver ``qurish`` in ``tools``).
"""

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

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


def bosilgan_satrlar(cells) -> list[str]:
    """Every line the code cells printed, in order.  A kernel may flush one print in pieces
    (``print("a:", 43)`` as "a:" then " 43"), so a cell's stream outputs are joined before
    they are split into lines."""
    return [q for h in cells if h.get("cell_type", "code") == "code"
            for q in "".join("".join(c["text"]) for c in h.get("outputs", [])
                             if c.get("output_type") == "stream").splitlines()]


def jb_build(ildiz: Path, **kwargs) -> subprocess.CompletedProcess:
    """The strict build every test uses (qurish.jb_buyrugi): warnings are errors, all reported."""
    return subprocess.run(jb_buyrugi(ildiz), capture_output=True, text=True, **kwargs)


def kitob_nusxasi(maqsad: Path, toc: str, sahifalar: dict[str, str], chapter_code: bool = False) -> Path:
    """A fixture book in ``maqsad``: the project's configuration and build code, the given pages.

    ``toc`` is the text of _toc.yml; ``sahifalar`` maps paths under the root to
    their text.  ``chapter_code=True`` copies the project's chapter_code/ and
    requirements files too (the fixture's own copy, which a test may change).
    """
    # the project's configuration without its editions in other scripts: a fixture book is
    # written in the source's script (test_yozuvda.py builds a fixture edition of its own)
    (maqsad / "_config.yml").write_text(re.sub(r"(?m)^\s*kitob_yozuvlar:.*\n", "", (
        ILDIZ / "_config.yml").read_text(encoding="utf-8")), encoding="utf-8")
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
#: test that needs it (pytest_collection_modifyitems).  ``make test`` runs the tests in worker
#: processes (pytest-xdist, one a core and one more): the first worker to get there starts the build and,
#: when it ends, writes its exit code and output into the session's status file; the other
#: workers read them from there.  Meanwhile the workers run the unit tests (pytest_runtest_setup
#: holds back the tests that build or execute on their own).
_YIGISH: dict = {}
#: how long a worker waits for another worker's build at most (seconds)
YIGISH_MUDDATI = 3600


def _holat_yoli() -> Path:
    """This session's folder for the build's status: one per ``pytest`` command (the controller
    names it in KITOB_TEST_SESSIYA, which its workers inherit)."""
    return Path(tempfile.gettempdir()) / f"kitob-test-{os.environ['KITOB_TEST_SESSIYA']}"


def holat_papkasi() -> Path:
    """_holat_yoli, made if it is not there yet."""
    papka = _holat_yoli()
    papka.mkdir(exist_ok=True)
    return papka


def _qurishni_boshla() -> None:
    if "boshlandi" in _YIGISH:
        return
    _YIGISH["boshlandi"] = True
    papka = holat_papkasi()
    qulf = open(papka / "quruvchi.lock", "w")
    try:
        fcntl.flock(qulf, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:          # the other worker builds
        qulf.close()
        return
    _YIGISH["qulf"] = qulf            # held for the session: one builder per session
    # into a file, not a pipe: a pipe nobody reads would stop the build when it fills
    chiqish = open(papka / "chiqish.txt", "w+", encoding="utf-8")
    jarayon = subprocess.Popen([*QURISH, str(ILDIZ)], stdout=chiqish,
                               stderr=subprocess.STDOUT, text=True)

    def kut() -> None:
        jarayon.wait()
        chiqish.close()
        vaqtincha = papka / "holat.tmp"
        vaqtincha.write_text(str(jarayon.returncode))
        os.replace(vaqtincha, papka / "holat")       # the other worker never reads half of it
        _guruhdan_chiqar()          # the tests that filled the idle cores: full weight now

    _YIGISH["ip"] = threading.Thread(target=kut, name="qurish", daemon=True)
    _YIGISH["ip"].start()


def yigish_tugasin() -> None:
    """Wait, if this session builds the book, until the build has ended (whether or not it
    succeeded).  For the tests that build or execute on their own (fixture books, the
    determinism test's two executions): they go after the build, which everything that reads
    the build waits for, rather than taking the cores from it (``make test`` on 2 cores:
    the build took 298 s alone, 528–621 s beside them)."""
    if "boshlandi" not in _YIGISH:
        return
    papka = holat_papkasi()
    boshi = time.time()
    while not (papka / "holat").is_file():
        assert time.time() - boshi < YIGISH_MUDDATI, f"the book build ran {YIGISH_MUDDATI} s and has not finished"
        time.sleep(0.2)
    from vaqtlar import vaqtlar
    vaqtlar().kutdi(boshi, time.time())


# --- the cores the build leaves idle -----------------------------------------------------------
# The build keeps both cores busy most of the time, but not always: narx and flash time their kernels on
# one thread, each lesson starts a kernel, LaTeX runs on one core (144 core-seconds idle of
# its 712, run x45).  The tests that need no build (fixture books, the first execution of the
# chapter) would fill them, but beside the build at the same priority they double its time
# (528-621 s instead of 298, issue 41), and nice cannot help: Linux schedules each session as
# one group (autogroup), and every Jupyter kernel starts a session of its own.  A control group
# of the lowest CPU weight does: its processes, and every process they start, get a core only
# when nothing else wants it.  So while the build runs, those tests run in such a group; when
# it ends, the builder moves everything in the group back (_guruhdan_chiqar), and any later
# test runs as before.  Where no writable cgroup-v1 cpu hierarchy exists, they wait for the
# build as before (yigish_tugasin).

def _cpu_guruhi() -> Path | None:
    """This process's group in a writable cgroup-v1 hierarchy of the cpu controller, or None."""
    try:
        joylar = {}
        for satr in Path("/proc/mounts").read_text().splitlines():
            _, joy, tur, tanlov, *_ = satr.split()
            if tur == "cgroup" and "cpu" in tanlov.split(","):
                joylar["cpu"] = Path(joy)
        if "cpu" not in joylar:
            return None
        for satr in Path("/proc/self/cgroup").read_text().splitlines():
            _, nazoratchilar, yol = satr.split(":", 2)
            if "cpu" in nazoratchilar.split(","):
                guruh = joylar["cpu"] / yol.lstrip("/")
                return guruh if os.access(guruh, os.W_OK) and (guruh / "cpu.shares").is_file() else None
    except (OSError, ValueError):
        return None
    return None


#: The weight of the group the determinism test's executions move into once the build has
#: ended (tez_guruhga): eight sessions' worth.  After the build, the second execution (of the
#: downloaded notebooks, which the build makes) is the session's longest chain: at the same
#: weight as the browser and the fixture books it took 347 s and ended 60 s before the last
#: test (run x59), with one core idle for the last 35 s.  With the weight it takes the core it
#: needs and the rest of the work fills the other; its results do not depend on it (only its
#: stopwatch readings, which the test excludes).
TEZ_ULUSH = 8192


def _past_guruh_yarat() -> None:
    """In the controller: the session's group of the lowest weight (cpu.shares 2; a session of
    its own gets 1024) beside this process's, and one of a high weight (TEZ_ULUSH), named in
    the environment the workers inherit."""
    asl = _cpu_guruhi()
    if asl is None or os.environ.get("KITOB_TEST_GURUHSIZ"):
        return
    past = asl / f"kitob-test-{os.environ['KITOB_TEST_SESSIYA']}"
    tez = asl / f"kitob-test-{os.environ['KITOB_TEST_SESSIYA']}-tez"
    try:
        for guruh, ulush in ((past, 2), (tez, TEZ_ULUSH)):
            guruh.mkdir()
            (guruh / "cpu.shares").write_text(str(ulush))
    except OSError:                 # neither, then: a group made before the failure goes
        for guruh in (past, tez):
            try:
                guruh.rmdir()
            except OSError:
                pass
        return
    os.environ["KITOB_TEST_PAST_GURUH"] = str(past)
    os.environ["KITOB_TEST_TEZ_GURUH"] = str(tez)
    os.environ["KITOB_TEST_ASL_GURUH"] = str(asl)


def tez_guruhga() -> None:
    """The determinism test's execution, before each lesson's kernel starts: once the build has
    ended, this worker (and the kernels it starts from now on) goes into the high group; the
    test's teardown moves it back (pytest_runtest_teardown)."""
    tez = os.environ.get("KITOB_TEST_TEZ_GURUH")
    if not tez or ("boshlandi" in _YIGISH and not _yigish_tugadimi()):
        return
    try:
        (Path(tez) / "cgroup.procs").write_text(str(os.getpid()))
    except OSError:         # the group is gone (the controller ended): nothing to gain
        return
    _YIGISH["tezda"] = True


def _guruhdan_chiqar(pidlar: list[int] | None = None, guruh: str = "KITOB_TEST_PAST_GURUH") -> None:
    """Move ``pidlar`` (default: every process in the low group, or in ``guruh``) back to the
    original group."""
    past, asl = os.environ.get(guruh), os.environ.get("KITOB_TEST_ASL_GURUH")
    if not past:
        return
    for _ in range(5):      # a process may start another while they move
        qolgan = pidlar if pidlar is not None else [
            int(x) for x in (Path(past) / "cgroup.procs").read_text().split()]
        for pid in qolgan:
            try:
                (Path(asl) / "cgroup.procs").write_text(str(pid))
            except OSError:         # it has ended
                pass
        if pidlar is not None or not (Path(past) / "cgroup.procs").read_text().split():
            return


def _past_guruh_olib_tashla() -> None:
    """In the controller, at the end: the group emptied and removed."""
    for nom in ("KITOB_TEST_PAST_GURUH", "KITOB_TEST_TEZ_GURUH"):
        guruh = os.environ.get(nom)
        if guruh and Path(guruh).is_dir():
            _guruhdan_chiqar(guruh=nom)
            try:
                Path(guruh).rmdir()
            except OSError:
                pass


def _yigish_tugadimi() -> bool:
    return (holat_papkasi() / "holat").is_file()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before its fixtures: a test that builds or executes on its own runs in the low group
    while the session's build runs, if there is one; otherwise it waits for the build
    (yigish_tugasin).  The comparisons of the two executions always wait."""
    qism = _qism(item)
    past = os.environ.get("KITOB_TEST_PAST_GURUH")
    if qism in (1, 3) and past and "boshlandi" in _YIGISH and not _yigish_tugadimi():
        (Path(past) / "cgroup.procs").write_text(str(os.getpid()))
        _YIGISH["pastda"] = True
        if _yigish_tugadimi():      # it ended meanwhile, perhaps before the builder moved us
            _guruhdan_chiqar([os.getpid()])
        return
    if qism in (1, 3, 4):
        yigish_tugasin()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item):
    if _YIGISH.pop("pastda", False):
        _guruhdan_chiqar([os.getpid()])
    if _YIGISH.pop("tezda", False):
        _guruhdan_chiqar([os.getpid()], guruh="KITOB_TEST_TEZ_GURUH")


@pytest.fixture(scope="session")
def qurilgan():
    """Build site and PDF once per test session, as `make book` does; return _build/.

    The build started in the background when the tests were collected; the tests
    that need it run last (pytest_collection_modifyitems), so by then it has
    usually finished.
    """
    _qurishni_boshla()
    yigish_tugasin()
    papka = holat_papkasi()
    kod = int((papka / "holat").read_text())
    chiqish = (papka / "chiqish.txt").read_text(encoding="utf-8")
    assert kod == 0, chiqish[-4000:]
    # -W turns every Sphinx warning into a failure; none may be printed either
    assert ": WARNING:" not in chiqish, chiqish[-3000:]
    return ILDIZ / "_build"


def pytest_configure(config):
    config.addinivalue_line("markers", "build: builds the book with jupyter-book (slow)")
    config.addinivalue_line("markers", "ijro: executes the whole chapter (slow; not in make unit)")
    # one name for this pytest command, inherited by its workers (_holat_papkasi); a pytest
    # started inside another one's test gets its own
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        # PyTorch's OpenMP threads, in every process the session starts (the build, its
        # kernels, the chapter's two executions, the fixture books), sleep when they have no
        # work instead of spinning for it.  The session keeps both cores busy, so a spinning
        # thread burns a core its peer is waiting for: one reduced execution of the chapter
        # beside two busy processes took 107,8 CPU-s and 503 s spinning, 73,8 and 379 s
        # sleeping (measured at stop 59).  The number of threads, and with it
        # every result, is unchanged; the wait policy is not in the store's key (muhit.izi).
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        os.environ["KITOB_TEST_SESSIYA"] = f"{os.getpid()}-{time.time_ns()}"
        for nom in ("KITOB_TEST_PAST_GURUH", "KITOB_TEST_TEZ_GURUH", "KITOB_TEST_ASL_GURUH"):   # a pytest inside a test
            os.environ.pop(nom, None)
        _past_guruh_yarat()


#: Test modules that start before the others of their part (_qism), longest first, so that no
#: worker is left alone with a long one at the end: the two executions of the chapter, then
#: Lighthouse and the browser among the tests that read the build.
#: test_qidiruv is one unit (its tests share a browser context) of about 50 s: started after
#: the browser's, it was the last test, on one core, for 35 s (run x59).
OLDIN = ("test_takror", "test_mayoq", "test_qidiruv", "test_brauzer")
#: Modules whose tests of the built book are spread over the workers, as units of their own:
#: they share only a browser and a local server, which are cheap to start in each worker, and
#: together they are the longest part after the build.  "test": each test function with all
#: its parameters; "param": each parameter with all the functions that take it (Lighthouse:
#: one page's run serves its two tests; the determinism test: each execution of the chapter
#: in a worker of its own, the comparisons, without a parameter, one unit).
BOLINADI = {"test_brauzer": "test", "test_mayoq": "param", "test_takror": "param"}
#: test_brauzer's longest units (a function with all its parameters), longest first (worker-s in
#: run x61: 66, 56, 44, 42, 35, 29, 26): started first, so that the last minute is filled with
#: short ones (the contents test and a map test, 35 and 33 s, ended the session in x61 with
#: one core idle).
BRAUZER_UZUNLARI = ("test_the_attention_map_shows_the_models_weights_on_tap_click_and_keys",
                    "test_axe_finds_no_violations",
                    "test_theme_toggle_and_dark_mode_keeps_figures_and_tables_readable",
                    "test_phone_width_has_no_sideways_scroll_a_steady_height_and_controls_a_finger_takes",
                    "test_the_contents_highlight_the_section_being_read_and_every_figure_fits_the_screen",
                    "test_every_display_formula_reads_from_its_first_character_to_its_last",
                    "test_back_from_a_glossary_or_lesson_link_returns_to_the_link")


def pytest_sessionfinish(session):
    """The worker that builds outlives its build: xdist ends a worker that has no tests left,
    while the other one may still be waiting for the build to finish."""
    if "ip" in _YIGISH:
        _YIGISH["ip"].join()


def pytest_unconfigure(config):
    """The session's folder goes with the process that named it (the controller, or the only one)."""
    if not os.environ.get("PYTEST_XDIST_WORKER") and "KITOB_TEST_SESSIYA" in os.environ:
        _past_guruh_olib_tashla()
        shutil.rmtree(_holat_yoli(), ignore_errors=True)


def _yigishga_kerakmi(item) -> bool:
    return "qurilgan" in getattr(item, "fixturenames", ())


#: Fixtures that gather what other tests of the session made: the tests that use them go last.
YIGUVCHILAR = ("ikki_ijro",)


def _qism(item) -> int:
    """The part of the session a test runs in: 0 unit tests (beside the build), 1 the
    determinism test's executions, 2 the tests that read the build, 3 fixture books, 4 the
    comparisons of the two executions (YIGUVCHILAR: they only wait for parts 1)."""
    if _yigishga_kerakmi(item):
        return 2
    if any(f in getattr(item, "fixturenames", ()) for f in YIGUVCHILAR):
        return 4
    if item.get_closest_marker("build") is not None:
        return 3
    return 1 if item.get_closest_marker("ijro") is not None else 0


@pytest.hookimpl(optionalhook=True)     # a hook of pytest-xdist: none without it (-p no:xdist)
def pytest_xdist_make_scheduler(config, log):
    """The workers' units of work (pytest-xdist; in the controller), in the order collection
    left them: a module's tests of one part of the session (_qism; BOLINADI: smaller units).
    By module, as ``--dist loadscope``, so that a module's fixtures are made once; but never a
    unit that mixes two parts, which would hold a worker waiting for the build while tests
    that need none are left.  (``--dist loadgroup``
    would do it with marks, but pytest-xdist 3.8 cannot rename a test under pytest 9, so it
    ignores them.)  The workers write each test's part into the session's folder while they
    collect (pytest_collection_modifyitems)."""
    from xdist.scheduler import LoadScopeScheduling

    # in collection's order (pytest_collection_modifyitems), not xdist's default of the
    # largest unit first, which would leave the two executions of the chapter to the end
    config.option.loadscopereorder = False

    class Bolaklar(LoadScopeScheduling):
        def _reschedule(self, node) -> None:
            """xdist's, but a worker gets its next unit only when it has fewer than two tests
            left (xdist: three), so that no unit waits behind a long test (a Lighthouse page
            behind an execution of the chapter waited 470 s, run x9).  A worker runs a test
            only once it knows the next (or is told to stop): two left is enough."""
            if not node.shutting_down and self.workqueue \
                    and self._pending_of(self.assigned_work[node]) >= 2:
                return
            super()._reschedule(node)

        def _split_scope(self, nodeid: str) -> str:
            if "qismlar" not in _YIGISH:
                _YIGISH["qismlar"] = json.loads((holat_papkasi() / "qismlar.json").read_text())
            modul, _, test = nodeid.partition("::")
            qism = _YIGISH["qismlar"][nodeid]
            funksiya, _, param = test.partition("[")
            qanday = BOLINADI.get(Path(modul).stem)
            if qanday == "test":
                return f"{modul}::{funksiya}@{qism}"
            if qanday == "param" and param:
                return f"{modul}[{param}@{qism}"
            return f"{modul}@{qism}"

    return Bolaklar(config, log)


@pytest.hookimpl(trylast=True)          # after -m has deselected
def pytest_collection_modifyitems(config, items):
    """A test that needs the built book must be marked build, or make unit would build it.

    If any selected test needs the build, it starts in the background once collection is
    done, and the unit tests run meanwhile.  Then, once it has ended (yigish_tugasin): the
    determinism test's two executions, the tests that read the build, and last the tests
    that build fixture books of their own, so that these share the cores with the browser's
    waits rather than with the build (OLDIN: the order within each part).
    """
    yoq = [i.nodeid for i in items if _yigishga_kerakmi(i) and i.get_closest_marker("build") is None]
    if yoq:
        raise pytest.UsageError("these tests use the qurilgan fixture (a full build) but are not "
                                "marked @pytest.mark.build: " + ", ".join(yoq))

    # with a low group (pytest_runtest_setup), the fixture books come right after the
    # executions: they fill the cores the build leaves idle, and the tests that read the build
    # follow them
    navbat = {0: 0, 1: 1, 3: 2, 2: 3, 4: 4} if os.environ.get("KITOB_TEST_PAST_GURUH") else {q: q for q in range(5)}

    def tartib(i) -> tuple:
        modul = i.path.stem
        funksiya = getattr(i, "originalname", i.name)
        uzun = BRAUZER_UZUNLARI.index(funksiya) if modul == "test_brauzer" and funksiya in BRAUZER_UZUNLARI \
            else len(BRAUZER_UZUNLARI)
        return navbat[_qism(i)], OLDIN.index(modul) if modul in OLDIN else len(OLDIN), uzun

    items[:] = sorted(items, key=tartib)          # a stable sort: otherwise in their order
    if os.environ.get("PYTEST_XDIST_WORKER"):     # for the controller's units of work
        vaqtincha = holat_papkasi() / f"qismlar.{os.getpid()}.tmp"
        vaqtincha.write_text(json.dumps({i.nodeid: _qism(i) for i in items}))
        os.replace(vaqtincha, holat_papkasi() / "qismlar.json")
    if any(_yigishga_kerakmi(i) for i in items) and not config.option.collectonly:
        _qurishni_boshla()


@pytest.fixture
def chiqishlar(monkeypatch, tmp_path):
    """Capture what the helpers display, and write their pictures into tmp_path."""
    from chapter_code import kitob

    olingan = []
    monkeypatch.setattr(kitob, "_display", lambda bundle, metadata=None: olingan.append((bundle, metadata or {})))
    monkeypatch.setitem(kitob.SOZLAMA, "rasm_papkasi", tmp_path / "rasmlar")
    return olingan
