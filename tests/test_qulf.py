"""One build of a book at a time: two builds started together never mix their output.

A fixture book's chapter, when ``KITOB_UXLA`` names a file, writes that file
and then waits until the file ``KITOB_QOYVOR`` names exists: the test holds
build A open in the middle of its execution for as long as it needs, and lets
it go by creating that file (no fixed sleeps; every wait polls for a condition
with a deadline).  Build A is ``qurish``; build B, started on the same root
while A waits, is ``qurish`` again or a plain ``jupyter-book build``.  B must
say that it waits for A (naming A's process id), must be blocked on the lock
file (the kernel's ``/proc/locks`` shows A holding it and B waiting for it)
without having written anything under ``_build``, and once A is let go both
finish successfully, one after the other, leaving a whole site; when B is
``qurish`` its publication is the last.
"""

import os
import subprocess
import time
from pathlib import Path

import pytest
from conftest import QURISH, jb_buyrugi, kitob_nusxasi

pytestmark = pytest.mark.build

BOB = """# %% [markdown]
# # Qulf bobi
#
# Bir vaqtda ikki yigʻish: ikkinchisi birinchisini kutadi.

# %%
import os
import pathlib
import time

if os.environ.get("KITOB_UXLA"):          # hold the build open until the test lets it go
    pathlib.Path(os.environ["KITOB_UXLA"]).write_text("ishlayapti")
    qoyvor = pathlib.Path(os.environ["KITOB_QOYVOR"])
    muddat = time.monotonic() + 600
    while not qoyvor.exists() and time.monotonic() < muddat:
        time.sleep(0.05)
print("nashr:", {belgi!r})
"""

PDF = "attention-va-transformer.pdf"
MUDDAT = 600          # seconds: the longest any one condition is waited for
KUTISH = "another build of this book is running"
BOSHLADI = "the other build has finished; building now"


@pytest.fixture(scope="module")
def ildiz(tmp_path_factory):
    """A fixture book of one notebook chapter (its own chapter_code/ and requirements)."""
    return kitob_nusxasi(
        tmp_path_factory.mktemp("qulf"),
        "format: jb-book\nroot: book/index\nchapters:\n  - file: book/qulf\n",
        {"book/index.md": "# Qulf sinovi\n\n```{tableofcontents}\n```\n",
         "book/qulf.py": BOB.format(belgi="boshlangich")},
        chapter_code=True)


def _muhit(ildiz: Path, **qoshimcha) -> dict:
    """The environment of a build: the fixture's own chapter_code first, no inherited lock."""
    muhit = {k: v for k, v in os.environ.items()
             if k not in ("KITOB_UXLA", "KITOB_QOYVOR", "KITOB_QURISH_QULFI")}
    # unbuffered: the output file keeps the order in which things were printed
    return {**muhit, "PYTHONPATH": str(ildiz), "PYTHONUNBUFFERED": "1", **qoshimcha}


class Jarayon:
    """A build running in the background, its output (stdout and stderr) in a file."""

    def __init__(self, buyruq: list[str], muhit: dict, jurnal: Path):
        self.jurnal = jurnal
        self._fayl = open(jurnal, "w")
        self.p = subprocess.Popen(buyruq, stdout=self._fayl, stderr=subprocess.STDOUT,
                                  env=muhit, start_new_session=True)
        self.pid = self.p.pid

    def chiqish(self) -> str:
        return self.jurnal.read_text(errors="replace")

    def tugat(self, muddat: float = MUDDAT) -> int:
        try:
            return self.p.wait(timeout=muddat)
        finally:
            self._fayl.close()

    def toxtat(self) -> None:
        """Cleanup after a failed test: end this build's process group (ours), if it still runs."""
        if self.p.poll() is None:
            os.killpg(self.pid, 9)
            self.p.wait()
        self._fayl.close()


def _kut(shart, nima: str, *ishlashi_kerak: Jarayon) -> None:
    """Poll until ``shart()`` holds; fail if the deadline passes or a build that must run ends."""
    muddat = time.monotonic() + MUDDAT
    while not shart():
        for j in ishlashi_kerak:
            assert j.p.poll() is None, f"{nima}: the build ended (exit {j.p.returncode}):\n{j.chiqish()[-3000:]}"
        assert time.monotonic() < muddat, f"{nima}: not within {MUDDAT} s"
        time.sleep(0.1)


def _qulf_egalari(qulf: Path) -> tuple[set[int], set[int]]:
    """(pids holding, pids waiting for) the flock on ``qulf``, from the kernel's /proc/locks."""
    st = qulf.stat()
    fayl = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    ushlagan, kutgan = set(), set()
    for qator in Path("/proc/locks").read_text().splitlines():
        soz = qator.split()
        if len(soz) < 7:
            continue
        kutadi = soz[1] == "->"
        soz = soz[2:] if kutadi else soz[1:]
        if soz[0] == "FLOCK" and soz[4] == fayl:
            (kutgan if kutadi else ushlagan).add(int(soz[3]))
    return ushlagan, kutgan


def _izlar(build: Path) -> dict[str, tuple]:
    """Every path under _build: (kind, size, modification time) -- any write changes it."""
    izlar = {}
    for p in [build, *build.rglob("*")]:
        st = p.lstat()
        tur = "l" if p.is_symlink() else "d" if p.is_dir() else "f"
        izlar[p.relative_to(build).as_posix()] = (tur, st.st_size, st.st_mtime_ns,
                                                 os.readlink(p) if tur == "l" else None)
    return izlar


def _butun_sayt(sayt: Path, belgi: str) -> None:
    """The published site is whole and shows this run's chapter."""
    assert (sayt / "index.html").is_file() and (sayt / "book" / "index.html").is_file()
    assert f"nashr: {belgi}" in (sayt / "book" / "qulf.html").read_text(encoding="utf-8")
    assert (sayt / PDF).read_bytes()[:5] == b"%PDF-"
    for k in (".py", ".ipynb", ".zip"):
        assert (sayt / "book" / f"qulf{k}").is_file(), f"qulf{k} is not published"


def _ikki_yigish(ildiz: Path, tmp_path: Path, belgi: str, b_buyrugi: list[str]):
    """Build A (qurish, held open in its chapter) and B (``b_buyrugi``) at once; return both, finished."""
    (ildiz / "book" / "qulf.py").write_text(BOB.format(belgi=belgi))   # new code: A executes it
    build = ildiz / "_build"
    belgi_fayli, qoyvor = tmp_path / "ishlayapti", tmp_path / "qoyvor"
    a = Jarayon([*QURISH, str(ildiz)],
                _muhit(ildiz, KITOB_UXLA=str(belgi_fayli), KITOB_QOYVOR=str(qoyvor)),
                tmp_path / "a.log")
    b = None
    try:
        _kut(belgi_fayli.exists, "build A's chapter started executing", a)
        qulf = build / ".qurish.lock"
        assert _qulf_egalari(qulf) == ({a.pid}, set()), "build A does not hold the lock"
        oldin = _izlar(build)

        b = Jarayon(b_buyrugi, _muhit(ildiz), tmp_path / "b.log")
        _kut(lambda: KUTISH in b.chiqish(), "build B said it waits", a, b)
        _kut(lambda: b.pid in _qulf_egalari(qulf)[1], "build B is blocked on the lock", a, b)
        # B waits for A, by A's process id, and has written nothing yet: its message is the
        # last thing it printed, and nothing under _build changed since A started waiting
        chiqish = b.chiqish()
        satr = chiqish.rstrip("\n").splitlines()[-1]
        assert KUTISH in satr and f"(pid {a.pid}, started" in satr, f"B does not name A's pid {a.pid}:\n{chiqish}"
        assert "waiting for it to finish" in satr
        assert _qulf_egalari(qulf) == ({a.pid}, {b.pid})
        assert b.p.poll() is None and a.p.poll() is None
        assert _izlar(build) == oldin, "build B wrote under _build while build A held the lock"

        qoyvor.write_text("")                         # let A go
        a_kod = a.tugat()
        assert a_kod == 0, a.chiqish()[-4000:]
        b_kod = b.tugat()
        assert b_kod == 0, b.chiqish()[-4000:]
    finally:
        for j in (a, b):
            if j is not None:
                j.toxtat()
    assert KUTISH not in a.chiqish(), "build A waited for someone"
    b_chiqish = b.chiqish()
    # B went on only after A had finished: the line after its waiting message says so
    satrlar = b_chiqish.splitlines()
    i = next(i for i, q in enumerate(satrlar) if KUTISH in q)
    assert BOSHLADI in satrlar[i + 1], b_chiqish[:3000]
    assert ": WARNING:" not in a.chiqish() + b_chiqish
    return a, b


def test_a_second_qurish_waits_for_the_first_and_publishes_last(ildiz, tmp_path):
    a, b = _ikki_yigish(ildiz, tmp_path, "birinchi", [*QURISH, str(ildiz)])
    b_chiqish = b.chiqish()
    assert b_chiqish.startswith(f"qurish: {KUTISH}"), b_chiqish[:2000]
    assert "+ " not in b_chiqish.split(BOSHLADI)[0], "B built before A had finished"
    assert "qurish: published" in a.chiqish() and "qurish: published" in b_chiqish
    sayt = ildiz / "_build" / "sayt"
    assert sayt.is_symlink()
    # the publication linked now is B's (nashr/<time>-<pid>); A's, which it replaced, is
    # kept until the next publication (a reader of it loses nothing); any older one is gone
    assert sayt.resolve().name.endswith(f"-{b.pid}"), sayt.resolve()
    nashrlar = sorted(p.name for p in (ildiz / "_build" / "nashr").iterdir())
    assert len(nashrlar) == 2 and nashrlar[0].endswith(f"-{a.pid}"), nashrlar
    assert nashrlar[1] == sayt.resolve().name, nashrlar
    _butun_sayt(sayt, "birinchi")


def test_a_plain_jupyter_book_build_waits_for_qurish(ildiz, tmp_path):
    a, b = _ikki_yigish(ildiz, tmp_path, "ikkinchi", jb_buyrugi(ildiz))
    b_chiqish = b.chiqish()
    assert f"jupyter-book: {KUTISH}" in b_chiqish and "build succeeded" in b_chiqish.split(BOSHLADI)[1]
    # A published; B (no publisher) rebuilt the staging area afterwards, from the same execution
    sayt = ildiz / "_build" / "sayt"
    assert sayt.resolve().name.endswith(f"-{a.pid}"), sayt.resolve()
    _butun_sayt(sayt, "ikkinchi")
    assert "nashr: ikkinchi" in (ildiz / "_build" / "html" / "book" / "qulf.html").read_text()
    assert "Executing notebook" not in b_chiqish, "B executed the chapter again instead of the cache"
