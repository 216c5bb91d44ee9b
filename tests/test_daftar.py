"""The downloads a student gets (book/_ext/qurilish/daftar.py, yuklamalar.py), counted in the built site.

Each lesson's notebook and script read like its page: no MyST role or directive, no hidden build
cell, glued numbers as the page shows them, terms as words, numbered references as "1.3-rasm",
solutions closed in <details>; every download link says its size.  (That they run: test_takror.py
executes the archive's notebooks; the fixture books: test_boblar.py.)
"""

import json
import re
import zipfile

import jupytext
import nbformat
import pytest
from bs4 import BeautifulSoup
from conftest import DARSLAR, SAHIFALAR



#: A MyST role ({term}`…`, {glue:text}`…`) and a directive (```{table}, :::{admonition}).
ROL = re.compile(r"\{[a-z][a-z:-]*\}`")
DIREKTIVA = re.compile(r"^\s*(?:#\s*)?(?:```+|:::+)\s*\{", flags=re.M)


def _daftar(qurilgan, dars):
    return nbformat.read(qurilgan / "sayt" / f"{dars}.ipynb", as_version=4)


def _matnlar(nb) -> str:
    return "\n".join(h.source for h in nb.cells if h.cell_type == "markdown")


def _chiqishlar(nb) -> str:
    return "\n".join(json.dumps(c.get("data", {}), ensure_ascii=False) + "".join(c.get("text", ""))
                     for h in nb.cells if h.cell_type == "code" for c in h.get("outputs", []))


@pytest.mark.build
@pytest.mark.parametrize("dars", DARSLAR)
def test_a_downloaded_lesson_has_no_myst_and_no_hidden_cell(qurilgan, dars):
    nb = _daftar(qurilgan, dars)
    skript = (qurilgan / "sayt" / f"{dars}.py").read_text(encoding="utf-8")
    for nom, matn in [("notebook text", _matnlar(nb)), ("notebook outputs", _chiqishlar(nb)), ("script", skript)]:
        assert not ROL.findall(matn), (nom, ROL.findall(matn)[:5])
        assert not DIREKTIVA.findall(matn), (nom, DIREKTIVA.findall(matn)[:5])
    assert not [h for h in nb.cells if "remove-cell" in h.metadata.get("tags", [])]
    assert not [c for h in nb.cells for c in h.get("outputs", []) if "scrapbook" in c.get("metadata", {})]
    # ... and the source it was made from has both, so the counts above can fail
    manba = (qurilgan / "sayt" / "_sources" / f"{dars}.py").read_text(encoding="utf-8")
    assert ROL.search(manba) and 'tags=["remove-cell"]' in manba or dars.endswith("xulosa")


@pytest.mark.build
@pytest.mark.parametrize("dars", DARSLAR)
def test_a_downloaded_lesson_reads_like_its_page(qurilgan, dars):
    nb = _daftar(qurilgan, dars)
    sahifa = BeautifulSoup((qurilgan / "sayt" / f"{dars}.html").read_text(encoding="utf-8"), "html.parser")
    matn = _matnlar(nb)
    # the first line: whose numbers these are and how to run it; then the Colab cell
    assert "kitob qurilgan kompyuterda" in nb.cells[0].source and "README.md" in nb.cells[0].source
    assert nb.cells[1].cell_type == "code" and "google.colab" in nb.cells[1].source
    # the page's title and every section heading, in order
    def yigiq(s):                                  # no spaces, no Markdown emphasis
        return re.sub(r"[\s*]", "", s).rstrip("#")
    sarlavhalar = [h.get_text(" ", strip=True) for h in sahifa.select("article h1, article h2")]
    kodsiz = re.sub(r"^```.*?^```", "", matn, flags=re.M | re.S)        # a code comment is no heading
    markdown = [q.lstrip("#") for q in kodsiz.splitlines() if re.match(r"#{1,2} ", q)]
    assert [yigiq(s) for s in markdown] == [yigiq(s) for s in sarlavhalar]
    # every code cell of the page, in order (and the cells the page folds)
    sahifa_kodi = [pre.get_text() for pre in sahifa.select("div.cell div.cell_input pre")]
    kod = [h.source for h in nb.cells[2:] if h.cell_type == "code"]
    assert len(kod) >= len(sahifa_kodi) and all(s.strip() in "\n".join(kod) for s in sahifa_kodi)
    # a numbered reference as the page writes it, glued numbers in the book's form
    for raqam in {a.get_text(strip=True) for a in sahifa.select("article p a span.std-numref")}:
        assert raqam in matn, raqam
    bir_qator = re.sub(r"[ \t\n]+", " ", matn)       # (not str.split: it splits at the numbers' U+202F)
    for son in [s.get_text() for s in sahifa.select("article p span.pasted-text")][:20]:
        assert son.strip() in bir_qator, son
    # exercises' solutions closed, one <details> each
    yechimlar = len(sahifa.select("article details.dropdown summary, article div.dropdown p.admonition-title"))
    assert matn.count("<details>") == matn.count("</details>") == matn.count("<summary>") >= yechimlar
    # a term as its word: the page links it to the glossary, the notebook does not
    assert not re.search(r"atamalar(?:\.html|\.md|\.ipynb|#|\)|>)", matn), \
        re.search(r".{40}atamalar(?:\.html|\.md|\.ipynb|#|\)|>).{20}", matn)


@pytest.mark.build
def test_a_lesson_links_the_other_lessons_notebooks(qurilgan):
    nb = _daftar(qurilgan, "book/attention/narx")
    assert "[«Attention, RNN va LSTM bitta vazifada»](rekurrent.ipynb)" in _matnlar(nb)


@pytest.mark.build
def test_included_code_says_where_it_comes_from(qurilgan):
    matn = _matnlar(_daftar(qurilgan, "book/attention/rekurrent"))
    assert re.search(r"\*`chapter_code/[a-z_]+\.py` faylidan:\*\n```python\n", matn), matn[:2000]


@pytest.mark.build
def test_a_downloaded_table_is_numbered_and_written_as_the_page_writes_it(qurilgan):
    nb = _daftar(qurilgan, "book/attention/narx")
    jadvallar = ["".join(c["data"]["text/html"]) for h in nb.cells if h.cell_type == "code"
                 for c in h.outputs if "<table" in "".join(c.get("data", {}).get("text/html", ""))]
    assert jadvallar and all("<caption><strong>1." in j and "-jadval</strong>" in j for j in jadvallar)
    assert not [j for j in jadvallar if re.search(r"<td[^>]*>\d+\.\d", j)], "a number with a decimal point"


@pytest.mark.build
def test_the_script_is_the_notebook_in_the_percent_format(qurilgan):
    for dars in DARSLAR:
        nb = _daftar(qurilgan, dars)
        skript = jupytext.reads((qurilgan / "sayt" / f"{dars}.py").read_text(encoding="utf-8"), fmt="py:percent")
        assert [(h.cell_type, h.source) for h in skript.cells] == [(h.cell_type, h.source) for h in nb.cells], dars


@pytest.mark.build
def test_the_archive_has_a_readme_and_the_torch_index(qurilgan):
    with zipfile.ZipFile(qurilgan / "sayt" / "book" / "attention" / "attention.zip") as z:
        readme = z.read("attention/README.md").decode()
        talablar = z.read("attention/requirements.txt").decode().splitlines()
    assert talablar[0] == "--extra-index-url https://download.pytorch.org/whl/cpu"
    assert any(t.startswith("torch==") for t in talablar)
    for kerak in ("python3 -m venv", "pip install -r requirements.txt", "Colab", "mexanizm.ipynb",
                  "protsessori"):
        assert kerak in readme, kerak


@pytest.mark.build
def test_the_readme_says_how_long_each_lesson_computes_as_its_kernel_measured(qurilgan):
    """The README's time table: every lesson's notebook, the time its kernel kept for the
    trainings and measurements it ran (chapter_code.muhit.sarf), and their sum; the lessons that
    train take at least a few seconds (a table of zeros would mean the kernels kept nothing)."""
    from book._ext.qurilish.yuklamalar import vaqt_matni

    from chapter_code import muhit

    with zipfile.ZipFile(qurilgan / "sayt" / "book" / "attention" / "attention.zip") as z:
        readme = z.read("attention/README.md").decode()
    qatorlar = dict(re.findall(r"^\| `?([^`|]+?)`? \| ([^|]+) \|$", readme, re.M))
    soniyalar = {}
    for dars in DARSLAR:
        nom = dars.rsplit("/", 1)[1] + ".ipynb"
        soniya = muhit.sarf_oqi(dars, qurilgan / "ombor")
        soniyalar[nom] = soniya or 0.0
        assert qatorlar.get(nom) == vaqt_matni(soniya if soniya is not None else 0.0), (nom, qatorlar)
    assert qatorlar["Jami"] == vaqt_matni(sum(soniyalar.values()))
    for nom in ("rekurrent.ipynb", "pozitsiyalar.ipynb", "yakuniy.ipynb"):
        assert soniyalar[nom] >= 5, (nom, soniyalar[nom])


@pytest.mark.build
def test_every_download_link_says_its_size(qurilgan):
    """Every link that downloads a file (the download lines, the header's menu, the root page's
    PDF) says its size, "758 kB" or "2,15 MB" (now 0 without; 44 before issue 43)."""
    sayt = qurilgan / "sayt"
    hajmsiz, sanaldi = [], 0
    for d in SAHIFALAR:
        sahifa = BeautifulSoup((sayt / f"{d}.html").read_text(encoding="utf-8"), "html.parser")
        havolalar = sahifa.select("a[download]") + sahifa.select(".dropdown-download-buttons a")
        for a in havolalar:
            sanaldi += 1
            if not re.search(r"\d+(?:,\d+)?[\u00a0 ][kM]B\)", a.get_text(" ", strip=True)):
                hajmsiz.append((d, a.get("href"), a.get_text(" ", strip=True)))
    assert sanaldi >= 30 and not hajmsiz, hajmsiz


@pytest.mark.parametrize("dars", DARSLAR)
def test_a_hidden_cell_changes_no_state_the_download_would_miss(dars):
    """The download leaves the hidden cells out, and test_takror runs them beside it in a namespace
    of their own: so no hidden cell may draw random numbers, train, or change torch's settings —
    the notebook a reader runs would then compute other numbers than the page (nor may a visible
    cell read a name a hidden one makes: test_takror fails with NameError)."""
    from conftest import ILDIZ

    holat = re.compile(r"manual_seed|\brand|set_num_threads|set_flush|\boqit\w*\(|\.train\(|np\.random|"
                       r"torch\.use_deterministic|\bglobal\b")
    for h in jupytext.read(ILDIZ / f"{dars}.py").cells:
        if "remove-cell" in h.metadata.get("tags", []):
            assert not holat.search(h.source), (dars, holat.search(h.source)[0], h.source[:300])
