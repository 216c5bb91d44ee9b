"""tools/tizim.sh: which Debian packages make installs, and what it says where the archive lacks one.

Run with a PATH of stand-ins (no real apt): this machine's node, xelatex, kpsewhich and the
rest where the test wants a package present, and ``id``, ``apt-get`` and ``apt-cache`` that
play root on an archive without Chromium's packages, as Ubuntu's is (Chromium is a snap there).
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ILDIZ

SKRIPT = ILDIZ / "tools" / "tizim.sh"
#: the commands the script looks for, each standing for its package
KITOB_BUYRUQLARI = ("node", "xelatex", "latexmk", "kpsewhich")
TEST_BUYRUQLARI = ("npm", "pdftotext", "java")


def _yugur(tmp_path: Path, maqsad: str, *bor: str) -> subprocess.CompletedProcess:
    """tools/tizim.sh ``maqsad`` with only the commands ``bor`` on PATH (and the stand-ins)."""
    papka = tmp_path / "bin"
    papka.mkdir()
    for nom in bor:
        asl = shutil.which(nom)
        if asl is None:
            pytest.skip(f"{nom} is not installed here (make installs it)")
        (papka / nom).symlink_to(asl)
    jurnal = tmp_path / "apt.log"
    stand_ins = {
        "id": "#!/bin/sh\necho 0\n",
        "apt-get": f'#!/bin/sh\necho "apt-get $*" >> {jurnal}\n',
        # the archive has every package but Chromium's two
        "apt-cache": '#!/bin/sh\ncase "$2" in chromium|chromium-headless-shell) exit 100;; esac\n',
    }
    for nom, matn in stand_ins.items():
        (papka / nom).write_text(matn)
        (papka / nom).chmod(0o755)
    jurnal.touch()
    natija = subprocess.run(["/bin/sh", str(SKRIPT), maqsad], capture_output=True, text=True,
                            env={"PATH": str(papka), "HOME": os.environ.get("HOME", "/root")})
    natija.apt = jurnal.read_text()
    return natija


def test_the_books_packages_are_enough_for_make_book(tmp_path):
    n = _yugur(tmp_path, "kitob", *KITOB_BUYRUQLARI)
    assert n.returncode == 0, n.stderr
    assert n.apt == "", "nothing is missing: apt-get is not run"


def test_an_archive_without_chromium_is_named_before_apt_get_install(tmp_path):
    n = _yugur(tmp_path, "hammasi", *KITOB_BUYRUQLARI, *TEST_BUYRUQLARI)
    assert n.returncode == 1
    assert "this system's package archive has no chromium chromium-headless-shell" in n.stderr, n.stderr
    assert "make book and make preview do not" in n.stderr
    assert "install" not in n.apt, "apt-get install was run for packages the archive lacks"


def test_a_missing_package_the_archive_has_is_installed(tmp_path):
    n = _yugur(tmp_path, "kitob", "xelatex", "latexmk", "kpsewhich")
    assert n.returncode == 0, n.stderr
    assert "install -y -qq --no-install-recommends nodejs" in n.apt, n.apt


def test_an_unknown_target_is_refused_with_the_two_it_knows(tmp_path):
    n = _yugur(tmp_path, "test")
    assert n.returncode == 2 and "say kitob" in n.stderr and "or hammasi" in n.stderr
