"""The author's live preview (``make preview``, ``tools/korish.py``) on a small fixture book.

It serves the HTML the strict build writes, with only the reload script added; a prose edit
reaches the page without executing a cell; a failing cell is shown (in the terminal and in
the state the page asks for) and the preview keeps running; the build lock is free while it
is idle; the published site is never touched.
"""

import fcntl
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import ILDIZ, jb_build, kitob_nusxasi

pytestmark = pytest.mark.build

BOB = '''# %% [markdown]
# # Koʻrish bobi
#
# Bu satr nasr.

# %%
from pathlib import Path
with open(Path.cwd() / "bajarildi.txt", "a") as f:
    f.write("bir\\n")
print("natija:", 6 * 7)
'''
TEG = b'<script src="/__korish__/jonli.js"></script>'


def _bosh_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ol(url: str, muddat: float = 60) -> bytes:
    with urllib.request.urlopen(url, timeout=muddat) as javob:
        return javob.read()


def _keyingi(url: str, oldingi: dict, muddat: float = 120) -> dict:
    """The preview's state once a build after ``oldingi`` has ended (asked as the page asks)."""
    chegara, h = time.time() + muddat, oldingi
    while time.time() < chegara:
        h = json.loads(_ol(f"{url}__korish__/holat?v={h['v']}&q={int(h['qurilmoqda'])}"))
        if h["v"] != oldingi["v"] and not h["qurilmoqda"]:
            return h
    raise AssertionError(f"no build ended within {muddat} s of the edit")


def _bajarildi(ildiz: Path) -> int:
    f = ildiz / "book" / "bajarildi.txt"
    return len(f.read_text().splitlines()) if f.exists() else 0


def test_the_preview_serves_the_build_reloads_after_an_edit_and_shows_a_failing_cell(tmp_path):
    ildiz = kitob_nusxasi(tmp_path, "format: jb-book\nroot: book/index\nchapters:\n  - file: book/bob\n",
                          {"book/index.md": "# Sinov\n\n```{tableofcontents}\n```\n", "book/bob.py": BOB,
                           "requirements.lock": "torch==2.13.0+cpu\n",
                           "requirements.txt": "torch==2.13.0+cpu  # [bob] the models\n"})
    env = {**os.environ, "PYTHONPATH": str(ildiz)}
    # the strict build's page, to compare with; then a published site the preview must not touch
    natija = jb_build(ildiz, env=env)
    assert natija.returncode == 0, natija.stdout[-3000:] + natija.stderr[-3000:]
    asl = (ildiz / "_build" / "html" / "book" / "bob.html").read_bytes()
    sayt = ildiz / "_build" / "sayt"
    sayt.mkdir()
    (sayt / "index.html").write_text("nashr qilingan")
    sayt_izi = [(p, p.stat().st_mtime_ns) for p in sayt.rglob("*")]
    bajarildi = _bajarildi(ildiz)

    port = _bosh_port()
    url = f"http://127.0.0.1:{port}/"
    jurnal = open(tmp_path / "korish.log", "w+")
    jarayon = subprocess.Popen([sys.executable, str(ILDIZ / "tools" / "korish.py"), str(ildiz),
                                "--port", str(port)], stdout=jurnal, stderr=subprocess.STDOUT, env=env)
    try:
        chegara = time.time() + 180
        while "korish: http://" not in (tmp_path / "korish.log").read_text():
            assert jarayon.poll() is None and time.time() < chegara, (tmp_path / "korish.log").read_text()[-3000:]
            time.sleep(0.2)
        holat = json.loads(_ol(url + "__korish__/holat"))
        assert holat["xato"] == "", holat["xato"]

        # the same HTML as the strict build, the reload script added as it is sent
        sahifa = _ol(url + "book/bob.html")
        assert sahifa.count(TEG) == 1 and sahifa.replace(TEG, b"") == asl
        assert b"location.reload" in _ol(url + "__korish__/jonli.js")
        assert _bajarildi(ildiz) == bajarildi, "the preview's first build executed a cell the cache holds"

        # idle: the build lock is free (make book and make test never wait for a preview)
        with open(ildiz / "_build" / ".qurish.lock", "a+") as f:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(f, fcntl.LOCK_UN)

        # a prose edit: on the page, no cell executed
        bob = ildiz / "book" / "bob.py"
        bob.write_text(BOB.replace("Bu satr nasr.", "Bu satr tahrirlangan nasr."))
        holat = _keyingi(url, holat)
        assert holat["xato"] == "", holat["xato"]
        assert "Bu satr tahrirlangan nasr." in _ol(url + "book/bob.html").decode()
        assert _bajarildi(ildiz) == bajarildi

        # a failing cell: its error in the state the page shows, and in the terminal
        bob.write_text(BOB.replace('print("natija:", 6 * 7)', 'raise ValueError("korish sinovi")'))
        holat = _keyingi(url, holat)
        assert "korish sinovi" in holat["xato"], holat["xato"]
        assert jarayon.poll() is None, "the preview stopped after a failing cell"
        assert "korish sinovi" in (tmp_path / "korish.log").read_text()

        # fixed: the error is gone, the output back
        bob.write_text(BOB.replace("print(\"natija:\", 6 * 7)", "print(\"natija:\", 6 * 8)"))
        holat = _keyingi(url, holat)
        assert holat["xato"] == "", holat["xato"]
        assert "natija: 48" in _ol(url + "book/bob.html").decode()
    finally:
        jarayon.terminate()
        jarayon.wait(timeout=30)
        jurnal.close()
    assert [(p, p.stat().st_mtime_ns) for p in sayt.rglob("*")] == sayt_izi
    assert (sayt / "index.html").read_text() == "nashr qilingan"


def test_a_taken_port_is_named_with_the_way_out(tmp_path):
    with socket.socket() as band:
        band.bind(("127.0.0.1", 0))
        band.listen()
        port = band.getsockname()[1]
        natija = subprocess.run([sys.executable, str(ILDIZ / "tools" / "korish.py"), "--port", str(port)],
                                capture_output=True, text=True, timeout=120)
    assert natija.returncode != 0
    assert f"port {port} is taken" in natija.stderr and "PORT=" in natija.stderr, natija.stderr
