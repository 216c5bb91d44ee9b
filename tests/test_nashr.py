"""Nothing broken is ever published: every way a build can fail leaves the site as it was.

One small fixture book (its own copy of ``chapter_code/``, put first on
``PYTHONPATH`` so it can be broken without touching the project) is built and
published once; then each kind of breakage is built and must fail with a
message naming what is wrong, the published site keeping every byte; a build
interrupted by Ctrl-C likewise; and a good build afterwards publishes again.
"""

import hashlib
import os
import signal
import subprocess
import time

import pytest
from conftest import QURISH, kitob_nusxasi

pytestmark = pytest.mark.build

BOB = ("# %% [markdown]\n# # Nashr bobi\n\n"
       "# %%\nfrom chapter_code.modellar import parametrlar\n"
       "import os, pathlib, time\n"
       "if os.environ.get('KITOB_UXLA'):          # the Ctrl-C test: wait here\n"
       "    pathlib.Path(os.environ['KITOB_UXLA']).write_text('ishlayapti')\n"
       "    time.sleep(120)\n"
       "print('natija:', {son})\n")


def _buyruq(ildiz, **env):
    """The build command for the fixture book, and its environment (its own chapter_code/ first)."""
    return ([*QURISH, str(ildiz)], {**os.environ, "PYTHONPATH": str(ildiz), **env})


def _qur(ildiz):
    buyruq, muhit = _buyruq(ildiz)
    return subprocess.run(buyruq, capture_output=True, text=True, env=muhit)


def _izlar(papka):
    """path -> sha256 of every file of the published site."""
    return {p.relative_to(papka).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(papka.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def kitob(tmp_path_factory):
    """A published fixture book; yields (root, published site, its hashes, its target)."""
    ildiz = kitob_nusxasi(
        tmp_path_factory.mktemp("nashr"),
        "format: jb-book\nroot: book/index\nchapters:\n  - file: book/attention\n",
        {"book/index.md": "# Sinov\n\n```{tableofcontents}\n```\n",
         "book/attention.py": BOB.format(son=42)},
        chapter_code=True)

    birinchi = _qur(ildiz)
    assert birinchi.returncode == 0, (birinchi.stdout + birinchi.stderr)[-3000:]
    sayt = ildiz / "_build" / "sayt"
    assert sayt.is_symlink() and "natija: 42" in (sayt / "book" / "attention.html").read_text()
    assert (sayt / "attention-va-transformer.pdf").read_bytes()[:5] == b"%PDF-"
    return ildiz, sayt, _izlar(sayt), sayt.resolve()


# (what is broken, file to change, how, what the error must name)
BUZILISHLAR = {
    "a cell raises": (
        "book/attention.py", lambda s: s + "\n# %%\nraise RuntimeError('ataylab buzildi')\n",
        ["book/attention.py", "RuntimeError", "ataylab buzildi"]),
    "syntax error in the chapter": (
        "book/attention.py", lambda s: s + "\n# %%\nprint('yopilmagan qavs'\n",
        ["book/attention.py", "SyntaxError"]),
    "import error in chapter_code/": (
        "chapter_code/modellar.py", lambda s: s.replace("import torch.nn as nn", "import torch.nn as nn\nimport yoq_modul"),
        ["chapter_code/modellar.py", "ModuleNotFoundError", "yoq_modul"]),
    "syntax error in chapter_code/": (
        "chapter_code/modellar.py", lambda s: s + "\ndef buzuq(:\n",
        ["chapter_code/modellar.py", "SyntaxError"]),
    "_toc.yml names a missing page": (
        "_toc.yml", lambda s: s.replace("book/attention", "book/yoq_sahifa"),
        ["book/yoq_sahifa", "book/attention"]),
    "malformed _config.yml": (
        "_config.yml", lambda s: s.replace("execute:", "execute: [", 1),
        ["_config.yml", "line"]),
}


@pytest.mark.parametrize("nima", list(BUZILISHLAR))
def test_a_broken_build_fails_clearly_and_publishes_nothing(kitob, nima):
    ildiz, sayt, izlar, manzil = kitob
    fayl_nomi, buz, kutilgan = BUZILISHLAR[nima]
    fayl = ildiz / fayl_nomi
    asli = fayl.read_text()
    fayl.write_text(buz(asli))
    try:
        natija = _qur(ildiz)
    finally:
        fayl.write_text(asli)
    chiqish = natija.stdout + natija.stderr
    assert natija.returncode != 0, f"{nima}: the build succeeded"
    assert "qurish:" in chiqish, chiqish[-2000:]
    for soz in kutilgan:
        assert soz in chiqish, f"{nima}: the error does not name {soz!r}:\n{chiqish[-3000:]}"
    assert sayt.resolve() == manzil and _izlar(sayt) == izlar, f"{nima}: the published site changed"


def test_ctrl_c_leaves_the_site_intact_and_the_cache_usable(kitob, tmp_path):
    ildiz, sayt, izlar, manzil = kitob
    bob = ildiz / "book" / "attention.py"
    asli = bob.read_text()
    bob.write_text(BOB.format(son=44))          # new code: the chapter must execute
    belgi = tmp_path / "ishlayapti"
    try:
        buyruq, muhit = _buyruq(ildiz, KITOB_UXLA=str(belgi))
        # SIGINT back to its default in the build: a runner that starts the tests in the
        # background (`cmd &` without job control) passes SIGINT on as ignored, and Python then
        # installs no KeyboardInterrupt handler — the build would not see the Ctrl-C at all
        jarayon = subprocess.Popen(buyruq, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, start_new_session=True, env=muhit,
                                   preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        muddat = time.monotonic() + 120
        while not belgi.exists():
            assert jarayon.poll() is None, jarayon.stdout.read()[-3000:]
            assert time.monotonic() < muddat, "the chapter never started executing"
            time.sleep(0.2)
        os.killpg(jarayon.pid, signal.SIGINT)     # what Ctrl-C in a terminal sends
        chiqish, _ = jarayon.communicate(timeout=60)
        assert jarayon.returncode != 0
        assert "interrupted" in chiqish and "site was not changed" in chiqish, chiqish[-3000:]
        assert sayt.resolve() == manzil and _izlar(sayt) == izlar, "Ctrl-C changed the published site"

        # the cache still works: the next build executes and publishes ...
        keyingi = _qur(ildiz)
        assert keyingi.returncode == 0, (keyingi.stdout + keyingi.stderr)[-3000:]
        assert "natija: 44" in (sayt / "book" / "attention.html").read_text()
        assert "Executed notebook" in keyingi.stdout + keyingi.stderr
        # ... and the one after executes nothing: the chapter's outputs come from the cache
        yana = _qur(ildiz)
        assert yana.returncode == 0, (yana.stdout + yana.stderr)[-3000:]
        assert "Executing notebook" not in yana.stdout + yana.stderr
        assert "natija: 44" in (sayt / "book" / "attention.html").read_text()
        assert not manzil.exists(), "the old published copy was not removed"
    finally:
        bob.write_text(asli)
