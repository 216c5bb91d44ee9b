"""Build side: one build of a book at a time (a context manager and a Sphinx extension).

Two builds of one book at once would write into the same ``_build``.  Every build holds
``flock`` on ``_build/.qurish.lock`` (``qurish`` to the publication, a ``jupyter-book build``
for its run); one that finds it taken says whose it is and waits.  The kernel releases
it when its process ends, however it ends: a crashed build never leaves it stuck.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import time
from pathlib import Path

FAYL = ".qurish.lock"
#: Set by ``ushla`` for the processes it starts: the lock is already theirs.
MUHIT = "KITOB_QURISH_QULFI"


def _ol(yol: Path, kim: str):
    """Take the lock at ``yol`` (waiting if need be); return the open file that holds it."""
    yol.parent.mkdir(parents=True, exist_ok=True)
    f = open(yol, "a+", encoding="utf-8")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.seek(0)
        egasi = f.read().strip() or "another process"
        print(f"{kim}: another build of this book is running ({egasi}); "
              f"waiting for it to finish (lock {yol}) ...", file=sys.stderr, flush=True)
        fcntl.flock(f, fcntl.LOCK_EX)
        print(f"{kim}: the other build has finished; building now", file=sys.stderr, flush=True)
    f.seek(0)
    f.truncate()
    f.write(f"pid {os.getpid()}, started {time.strftime('%Y-%m-%d %H:%M:%S')}: "
            f"{' '.join(sys.argv)}\n")
    f.flush()
    return f


@contextlib.contextmanager
def ushla(build: Path):
    """Hold the book's build lock (``build``/.qurish.lock) for the ``with`` block."""
    yol = build.resolve() / FAYL
    f = _ol(yol, "qurish")
    eski = os.environ.get(MUHIT)
    os.environ[MUHIT] = str(yol)          # the jupyter-book builds started inside inherit it
    try:
        yield yol
    finally:
        if eski is None:
            os.environ.pop(MUHIT, None)
        else:
            os.environ[MUHIT] = eski
        f.truncate(0)
        fcntl.flock(f, fcntl.LOCK_UN)
        f.close()


_USHLANGAN: dict[Path, object] = {}   # locks this Sphinx process holds, until it ends


def setup(app):
    yol = Path(app.outdir).resolve().parent / FAYL
    # not when started by qurish (which holds it), nor twice in one process
    if os.environ.get(MUHIT) != str(yol) and yol not in _USHLANGAN:
        _USHLANGAN[yol] = _ol(yol, "jupyter-book")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
