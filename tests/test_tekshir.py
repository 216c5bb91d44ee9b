"""Bad configuration is refused before anything is built, with a message naming what is wrong.

``tekshir`` returns the parsed ``_config.yml`` (the build reads it once);
it parses ``_toc.yml`` with sphinx-external-toc and checks the PDF's name
(``latex: latex_documents: targetname``, a ``.tex`` file name).
"""

import shutil

import pytest
import yaml
from conftest import ILDIZ, bob_sahifalari

from qurish import pdf_nomi, tekshir


@pytest.fixture
def kitob(tmp_path):
    shutil.copy(ILDIZ / "_config.yml", tmp_path / "_config.yml")
    shutil.copy(ILDIZ / "_toc.yml", tmp_path / "_toc.yml")
    (tmp_path / "book").mkdir()
    shutil.copy(ILDIZ / "book" / "adabiyotlar.bib", tmp_path / "book" / "adabiyotlar.bib")  # _config.yml names it
    (tmp_path / "book" / "index.md").write_text("# Sinov\n")
    for sahifa in bob_sahifalari():        # the project's chapter pages, each as a stub of its kind
        yol = tmp_path / sahifa
        yol.parent.mkdir(parents=True, exist_ok=True)
        if (ILDIZ / f"{sahifa}.py").is_file():
            yol.with_suffix(".py").write_text("# %%\nx = 1\n")
        else:
            yol.with_suffix(".md").write_text("# Sahifa\n")
    return tmp_path


def _sozla(kitob, ozgartir) -> None:
    """Rewrite the fixture's _config.yml after ``ozgartir(config)`` changed the parsed mapping."""
    sozlama = yaml.safe_load((kitob / "_config.yml").read_text(encoding="utf-8"))
    ozgartir(sozlama)
    (kitob / "_config.yml").write_text(yaml.safe_dump(sozlama, allow_unicode=True), encoding="utf-8")


def test_the_projects_own_configuration_passes():
    sozlama = tekshir(ILDIZ)
    # what it returns is the project's _config.yml, parsed, with the PDF's name in it
    assert sozlama == yaml.safe_load((ILDIZ / "_config.yml").read_text(encoding="utf-8"))
    assert sozlama["title"] == "Attention va Transformer"
    assert sozlama["latex"]["latex_documents"]["targetname"] == "attention-va-transformer.tex"
    assert pdf_nomi(sozlama) == "attention-va-transformer.pdf"


def test_a_valid_fixture_passes(kitob):
    _sozla(kitob, lambda s: (s.update(title="Sinov kitobi"),
                             s["latex"]["latex_documents"].update(targetname="sinov.tex")))
    sozlama = tekshir(kitob)
    # the configuration of the book it was given, not the project's
    assert sozlama == yaml.safe_load((kitob / "_config.yml").read_text(encoding="utf-8"))
    assert sozlama["title"] == "Sinov kitobi"
    assert pdf_nomi(sozlama) == "sinov.pdf"


def test_toc_naming_a_missing_page(kitob):
    (kitob / "book" / "attention" / "rekurrent.py").unlink()
    with pytest.raises(SystemExit, match=r"_toc.yml names 'book/attention/rekurrent', but no "
                                         r"book/attention/rekurrent.md/.py/.ipynb exists; pages in "
                                         r"book/attention/: book/attention/adabiyotlar, book/attention/atamalar, book/attention/flash, "
                                         r"book/attention/index, book/attention/mexanizm, "):
        tekshir(kitob)


def test_toc_that_is_not_a_table_of_contents(kitob):
    (kitob / "_toc.yml").write_text("format: jb-book\nchapters:\n  - file: book/attention\n")   # no root
    with pytest.raises(SystemExit, match=r"^qurish: _toc.yml is not a valid table of contents: .*root"):
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


@pytest.mark.parametrize("nom", ["attention-va-transformer.pdf", "attention-va-transformer",
                                 "pdf/attention.tex", 42])
def test_a_bad_pdf_name_is_refused(kitob, nom):
    _sozla(kitob, lambda s: s["latex"]["latex_documents"].update(targetname=nom))
    with pytest.raises(SystemExit) as xato:
        tekshir(kitob)
    assert str(xato.value) == (f"qurish: _config.yml's latex_documents targetname is {nom!r}; "
                               "it must be a file name ending in .tex, such as kitob.tex")


def test_a_config_without_a_pdf_name_is_refused(kitob):
    _sozla(kitob, lambda s: s.pop("latex"))
    with pytest.raises(SystemExit, match=r"^qurish: _config.yml names no PDF: set latex: "
                                         r"latex_documents: targetname: <name>\.tex$"):
        tekshir(kitob)


def _soxta_jb(kitob, ozgartir_pdfda: bool):
    """A stand-in for jupyter-book: the HTML build writes a page, the PDF build writes the PDF
    and (if asked) edits the build code meanwhile, as an author saving a file would."""
    import qurish

    def jb(ildiz, *qoshimcha):
        build = ildiz / "_build"
        (build / ".doctrees").mkdir(parents=True, exist_ok=True)
        (build / ".doctrees" / "environment.pickle").write_bytes(b"env")
        if "pdflatex" in qoshimcha:
            (build / "latex").mkdir(parents=True, exist_ok=True)
            (build / "latex" / qurish.pdf_nomi(tekshir(ildiz))).write_bytes(b"%PDF-1.5")
            if ozgartir_pdfda:
                (ildiz / "book" / "_static" / "kitob.css").write_text("/* oʻzgardi */\n")
        else:
            (build / "html").mkdir(parents=True, exist_ok=True)
            (build / "html" / "index.html").write_text("<p>sahifa</p>")
    return jb


@pytest.mark.parametrize("ozgardi", [False, True], ids=["unchanged", "changed-meanwhile"])
def test_a_build_whose_build_code_changed_meanwhile_publishes_nothing(kitob, monkeypatch, ozgardi):
    import qurish

    (kitob / "book" / "_static").mkdir()
    (kitob / "book" / "_static" / "kitob.css").write_text("/* asl */\n")
    monkeypatch.setattr(qurish, "jb", _soxta_jb(kitob, ozgardi))
    # the stand-in build leaves no reading to write an edition in another script from
    _sozla(kitob, lambda s: s["sphinx"]["config"].pop("kitob_yozuvlar"))
    build = kitob / "_build"
    if not ozgardi:
        assert qurish.qur(kitob) == build / "sayt"
        assert (build / "sayt" / "index.html").is_file()
        assert (build / ".doctrees" / "environment.pickle").is_file()
        return
    with pytest.raises(SystemExit, match=r"build code .* changed while the book was being built; "
                                         r"nothing was published"):
        qurish.qur(kitob)
    assert not (build / "sayt").exists()
    # the kept environment is gone: the next build reads every page again
    assert not (build / ".doctrees" / "environment.pickle").exists()
