"""Bad configuration is refused before anything is built, with a message naming what is wrong."""

import shutil

import pytest
from conftest import ILDIZ

from qurish import tekshir


@pytest.fixture
def kitob(tmp_path):
    shutil.copy(ILDIZ / "_config.yml", tmp_path / "_config.yml")
    shutil.copy(ILDIZ / "_toc.yml", tmp_path / "_toc.yml")
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "index.md").write_text("# Sinov\n")
    (tmp_path / "book" / "attention.py").write_text("# %%\nx = 1\n")
    return tmp_path


def test_the_projects_own_configuration_passes():
    tekshir(ILDIZ)


def test_a_valid_fixture_passes(kitob):
    tekshir(kitob)


def test_toc_naming_a_missing_page(kitob):
    (kitob / "book" / "attention.py").unlink()
    with pytest.raises(SystemExit, match=r"_toc.yml names 'book/attention', but no "
                                         r"book/attention.md/.py/.ipynb exists; pages in book/: book/index"):
        tekshir(kitob)


def test_malformed_config_names_the_line(kitob):
    with open(kitob / "_config.yml", "a") as f:
        f.write("title: [yopilmagan\n")
    with pytest.raises(SystemExit, match=r"_config.yml is not valid YAML at line \d+, column \d+"):
        tekshir(kitob)


def test_config_that_is_not_a_mapping(kitob):
    (kitob / "_config.yml").write_text("- bir\n- ikki\n")
    with pytest.raises(SystemExit, match="_config.yml must be a YAML mapping"):
        tekshir(kitob)


def test_missing_toc(kitob):
    (kitob / "_toc.yml").unlink()
    with pytest.raises(SystemExit, match="_toc.yml is missing"):
        tekshir(kitob)
