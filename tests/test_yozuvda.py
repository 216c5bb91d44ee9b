"""book/_ext/qurilish/yozuvda.py: a book written in another script from its Latin build (issue 48).

A fixture book (two pages of reStructuredText, Sphinx's basic theme) is built as the chapter
is, in Latin; then its environment is copied and the edition is written in a toy third script
(a letter table made in the test, as in test_yozuv.py): nothing is read again, the prose,
headings and navigation are in the script, code and formulas are as written, the pages say
their language.  No notebook and no execution: about a second.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from qurilish.yozuv import Yozuv

KONF = '''
extensions = ["qurilish.yozuvda"]
project = "Oʻyin kitobi"
language = "uz"
html_theme = "basic"

from qurilish import SOZLAMALAR


def setup(app):
    for nom in ("kitob_yozuv", "kitob_yozuv_papkasi"):
        asl, qayta, turlar = SOZLAMALAR[nom]
        app.add_config_value(nom, asl, qayta, types=turlar)
'''
BOSH = """Salom dunyo
===========

Bu oʻsha kitob: shu yerda ``salom_soz`` bor.

.. code-block:: python

   print("salom")

Formula: :math:`a + s`.

.. toctree::

   ikkinchi
"""
#: The book's catalogue: one string of the basic theme's search box.
KATALOG = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "Quick search"
msgstr "Tez qidirish"
"""
IKKINCHI = """Ikkinchi sahifa
===============

Asosiy soʻz.
"""


def _yozuv_papkasi(ildiz: Path) -> Path:
    papka = ildiz / "yozuvlar" / "oyna"
    papka.mkdir(parents=True)
    (papka / "yozuv.yml").write_text("sarlavha: Oyna\ntil: uz-Zyyy\nsphinx_tili: uz\nharflar: harflar.tsv\n",
                                     encoding="utf-8")
    (papka / "harflar.tsv").write_text("sh\tʃ\noʻ\tø\na\tα\ns\tς\n", encoding="utf-8")
    return papka.parent


def _qur(manba: Path, chiqish: Path, doctrees: Path, **sozlama) -> str:
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    holat = io.StringIO()
    with patch_docutils(manba), docutils_namespace():
        app = Sphinx(str(manba), str(manba), str(chiqish), str(doctrees), "html", confoverrides=sozlama,
                     status=holat, warning=holat, freshenv=False, warningiserror=True)
        app.build(False, [])
    return holat.getvalue()


@pytest.fixture(scope="module")
def kitob(tmp_path_factory):
    ildiz = tmp_path_factory.mktemp("yozuvda")
    manba = ildiz / "manba"
    manba.mkdir()
    (manba / "conf.py").write_text(KONF, encoding="utf-8")
    (manba / "index.rst").write_text(BOSH, encoding="utf-8")
    (manba / "ikkinchi.rst").write_text(IKKINCHI, encoding="utf-8")
    (manba / "locales" / "uz" / "LC_MESSAGES").mkdir(parents=True)
    (manba / "locales" / "uz" / "LC_MESSAGES" / "sphinx.po").write_text(KATALOG, encoding="utf-8")
    yozuvlar = _yozuv_papkasi(ildiz)
    _qur(manba, ildiz / "lotin", ildiz / "doctrees")
    shutil.copytree(ildiz / "doctrees", ildiz / "oyna-doctrees")
    holat = _qur(manba, ildiz / "oyna", ildiz / "oyna-doctrees",
                 kitob_yozuv="oyna", kitob_yozuv_papkasi=str(yozuvlar))
    # the Latin book built again in the same process, after the edition
    _qur(manba, ildiz / "lotin-yana", ildiz / "doctrees")
    return ildiz, holat, Yozuv.oqi("oyna", yozuvlar)


def _sahifa(papka: Path, nom: str) -> BeautifulSoup:
    return BeautifulSoup((papka / f"{nom}.html").read_text(encoding="utf-8"), "html.parser")


def test_the_edition_reads_nothing_again(kitob):
    _, holat, _ = kitob
    assert "0 added, 0 changed, 0 removed" in holat, holat


def test_prose_headings_and_navigation_are_in_the_script(kitob):
    ildiz, _, y = kitob
    assert y.matn("Salom Dunyo") == "Σαlom Dunyo"      # the toy table did something
    bosh = _sahifa(ildiz / "oyna", "index")
    assert bosh.html["lang"] == "uz-Zyyy"
    assert bosh.h1.get_text().rstrip("¶") == y.matn("Salom dunyo")
    assert y.matn("Bu oʻsha kitob: shu yerda") in bosh.select_one("div.body p").get_text()
    # the contents' link to the second page, and that page's title with the book's
    assert bosh.select_one(".toctree-wrapper a").get_text() == y.matn("Ikkinchi sahifa")
    ikkinchi = _sahifa(ildiz / "oyna", "ikkinchi")
    # (Sphinx's default title for the book: the project's name, its empty release, "documentation")
    assert ikkinchi.title.get_text() == f"{y.matn('Ikkinchi sahifa')} — {y.matn('Oʻyin kitobi  documentation')}"
    assert y.matn("Asosiy soʻz.") in ikkinchi.select_one("div.body").get_text()


def test_code_literals_and_formulas_stay_as_written(kitob):
    ildiz, _, _ = kitob
    bosh = _sahifa(ildiz / "oyna", "index")
    assert bosh.select_one("div.highlight pre").get_text() == 'print("salom")\n'
    assert bosh.select_one("code").get_text() == "salom_soz"
    assert r"\(a + s\)" in bosh.select_one("div.body").get_text()


def test_the_interface_strings_come_from_the_catalogue_written_in_the_script(kitob):
    ildiz, _, y = kitob
    assert y.matn("Tez qidirish") == "Tez qidiriʃ"
    assert _sahifa(ildiz / "oyna", "index").select_one("#searchbox h3").get_text() == "Tez qidiriʃ"


@pytest.mark.parametrize("papka", ["lotin", "lotin-yana"])
def test_the_latin_build_is_untouched_before_and_after(kitob, papka):
    ildiz, _, _ = kitob
    bosh = _sahifa(ildiz / papka, "index")
    assert bosh.html["lang"] == "uz" and bosh.h1.get_text().rstrip("¶") == "Salom dunyo"
    assert bosh.select_one(".toctree-wrapper a").get_text() == "Ikkinchi sahifa"
    assert bosh.select_one("#searchbox h3").get_text() == "Tez qidirish"


def test_a_catalogue_message_keeps_its_placeholders_and_markup(kitob):
    from qurilish.yozuvda import _xabar

    _, _, y = kitob
    assert _xabar(y, 'Sahifa %(sphinx_version)s, %s va {type}: <a href="sahifa.html">sahifa</a>&#8212;soʻz') \
        == 'Σαhifα %(sphinx_version)s, %s vα {type}: <a href="sahifa.html">ςαhifα</a>&#8212;ςøz'


def test_html_the_extensions_write_is_written_in_the_script_but_its_code_and_markup_are_not(kitob):
    from qurilish.yozuvda import html_yoz

    _, _, y = kitob
    asl = ('<p class="yuklab-olish">Yuklab olish: <a href="narx.ipynb" download>Jupyter daftari '
           '(.ipynb, 100 kB)</a> &#183; <code>narx.ipynb</code> ni oching</p>\n<!-- izoh -->')
    assert html_yoz(y, asl) == (
        '<p class="yuklab-olish">Yuklαb oliʃ: <a href="narx.ipynb" download>Jupyter dαftαri '
        '(.ipynb, 100 kB)</a> &#183; <code>narx.ipynb</code> ni oching</p>\n<!-- izoh -->')


# --- the chapter itself (after the build) --------------------------------------------------


@pytest.mark.build
def test_the_chapter_is_written_in_cyrillic_from_its_latin_build(qurilgan):
    """tools/yozuvda.py on the built chapter: nothing read again, every page written, its prose
    and interface in Cyrillic, its code blocks exactly the Latin pages' ones."""
    import subprocess
    import sys

    from conftest import ILDIZ

    natija = subprocess.run([sys.executable, str(ILDIZ / "tools" / "yozuvda.py"), "kirill"],
                            capture_output=True, text=True, timeout=300)
    assert natija.returncode == 0, natija.stdout[-2000:] + natija.stderr[-3000:]
    assert "0 added, 0 changed, 0 removed" in natija.stdout
    assert "WARNING" not in natija.stderr, natija.stderr[-3000:]
    lotin, kirill = qurilgan / "sayt" / "book" / "attention", qurilgan / "yozuv-kirill" / "book" / "attention"
    sahifalar = sorted(p.name for p in lotin.glob("*.html"))
    assert sahifalar and sorted(p.name for p in kirill.glob("*.html")) == sahifalar
    for nom in sahifalar:
        l, k = _sahifa(lotin, nom[:-5]), _sahifa(kirill, nom[:-5])
        assert k.html["lang"] == "uz-Cyrl", nom
        assert [p.get_text() for p in k.select("div.highlight pre")] == \
               [p.get_text() for p in l.select("div.highlight pre")], f"{nom}: a code block changed"
    narx = _sahifa(kirill, "narx")
    assert narx.h1.get_text().startswith("Attention нархи"), narx.h1.get_text()
    assert narx.select_one(".search-button__default-text").get_text().strip() == "Қидириш"
    assert narx.select_one("p.yuklab-olish").get_text().startswith("Юклаб олиш:")
