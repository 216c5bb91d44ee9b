"""Every chapter gets the whole treatment: per-chapter numbers, a download line, files that run.

One fixture book of two chapters in the two shapes a chapter can take is built
and published once with ``qurish`` (HTML and PDF), its own copy of
``chapter_code/`` first on ``PYTHONPATH`` as in ``test_nashr.py``: chapter 1 a
folder of lessons (``book/birinchi/index.md`` and two lessons, ``dars1.py`` and
``dars2.py``), chapter 2 one notebook page (``book/ikkinchi.py``); each notebook
page (Jupytext percent format) has a numbered table, a numbered figure, a glued
number and a ``{numref}`` to both, and the second lesson refers to the first
lesson's figure and pastes its glued number.  Then, reading the published site:

* the lessons of chapter 1 number on through the chapter ("1.1-rasm" in the
  first, "1.2-rasm" in the second) and chapter 2 starts again ("2.1-rasm"), in
  the captions and in the ``{numref}`` text, on the web and in the PDF, where
  chapter 1 is one chapter whose lessons are its sections, before chapter 2;
  a reference and a glued value reach from one lesson into the other;
* a one-page chapter has the download line under its title, with four links
  that resolve to files of the published site (the ``.py`` is the source byte
  for byte, the ``.ipynb`` an executed notebook, the PDF a PDF) and the two
  sentences on how to run it; a chapter of lessons offers the PDF and its
  archive on its opening page, and each lesson its source, its executed
  notebook and the archive;
* each chapter's ``.zip`` holds exactly its pages (source and executed
  notebook), the ``chapter_code`` modules they import (chapter 2 imports one
  more than chapter 1) and a ``requirements.txt`` of ``name==version`` pins;
* the root ``index.html`` sends the browser to ``book/index.html``; a hidden
  input cell's toggle has the Uzbek aria-label;
* a reader can run what they download: each chapter's archive, extracted into an
  empty folder, executes (every lesson) in a kernel that cannot see the project (the project's
  root, which the venv's ``.pth`` file puts on every process's path, is taken
  off the kernel's ``sys.path``), imports ``chapter_code`` from the extracted
  folder and prints what the published notebook printed.
"""

import json
import os
import posixpath
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pytest
import yaml
from babel.messages.pofile import read_po
from bs4 import BeautifulSoup
from conftest import ILDIZ, QURISH, bosilgan_satrlar, kitob_nusxasi

pytestmark = pytest.mark.build

TOC = ("format: jb-book\nroot: book/index\nchapters:\n"
       "  - file: book/birinchi/index\n    sections:\n"
       "      - file: book/birinchi/dars1\n      - file: book/birinchi/dars2\n"
       "  - file: book/ikkinchi\n")

INDEX = "# Sinov kitobi\n\nIkki bobli sinov kitobi.\n\n```{tableofcontents}\n```\n"


def _bob(n: int, sarlavha: str, qoshimcha_import: str = "", qoshimcha_kod: str = "",
         yashirin: str = "", qoshimcha_matn: str = "") -> str:
    """A tiny notebook page: a glued number, a numbered table and figure, numrefs to both."""
    return f"""# %% [markdown]
# # {sarlavha}
#
# Bob{n} matni boshlanadi. Oʻlchangan son {{glue:text}}`son{n}` ga teng.
# Rasmga qarang: {{numref}}`rasm{n}`. Jadvalga qarang: {{numref}}`jadval{n}`.
{qoshimcha_matn}
# %%
import os

import matplotlib.pyplot as plt
import pandas as pd
from myst_nb import glue

import chapter_code
from chapter_code.kitob import show, fig
{qoshimcha_import}
print("chapter_code:", os.path.dirname(os.path.abspath(chapter_code.__file__)))
glue("son{n}", {40 + n}, display=False)
print("bob{n} son:", {40 + n})
{qoshimcha_kod}
# %% [markdown]
# ## Jadval va rasm

# %%
show(pd.DataFrame({{"x": [1, 2, 3], "kvadrat": [1, 4, 9]}}), izoh="Bob{n} jadvali", nom="jadval{n}")

# %%
plt.subplots(figsize=(3, 2))
plt.plot([1, 2, 3], [1, 4, 9])
fig("rasm{n}.png", caption="Bob{n} rasmi")
{yashirin}"""


BIRINCHI = "# Birinchi bob\n\nBirinchi bob ikki darsdan iborat.\n"
DARS1 = _bob(1, "Birinchi dars")
DARS2 = _bob(3, "Ikkinchi dars", qoshimcha_matn=(
    "# Oldingi darsdagi rasm: {numref}`rasm1`. Oldingi darsdagi son: {glue:text}`dars1.py::son1:d`.\n"))
IKKINCHI = _bob(
    2, "Ikkinchi bob",
    qoshimcha_import="from chapter_code.malumot import vazifa\n",
    qoshimcha_kod='X, y = vazifa(8, 3, seed=1)\nprint("vazifa:", tuple(X.shape), int(y.sum()))\n',
    qoshimcha_matn="# Koʻrsatkichdagi atama: {index}`sinov atamasi`.\n",
    yashirin='\n# %% tags=["hide-input"]\nprint("yashirin katak natijasi")\n')

SAHIFALAR = {"book/index.md": INDEX, "book/birinchi/index.md": BIRINCHI, "book/birinchi/dars1.py": DARS1,
             "book/birinchi/dars2.py": DARS2, "book/ikkinchi.py": IKKINCHI}

#: notebook page -> (n of its labels, its chapter, its figures' number in the chapter, title)
BOBLAR = {
    "birinchi/dars1": (1, 1, 1, "Birinchi dars"),
    "birinchi/dars2": (3, 1, 2, "Ikkinchi dars"),
    "ikkinchi": (2, 2, 1, "Ikkinchi bob"),
}
#: chapter's archive (under book/) -> (its pages, the chapter_code files they import, transitively)
ARXIVLAR = {
    "birinchi/birinchi.zip": (["birinchi/dars1", "birinchi/dars2"],
                              {"chapter_code/__init__.py", "chapter_code/kitob.py",
                               "chapter_code/bichim.py"}),      # kitob imports bichim
    "ikkinchi.zip": (["ikkinchi"], {"chapter_code/__init__.py", "chapter_code/kitob.py",
                                    "chapter_code/bichim.py", "chapter_code/malumot.py"}),
}
PDF = yaml.safe_load((ILDIZ / "_config.yml").read_text())["latex"]["latex_documents"]["targetname"]
PDF = PDF.removesuffix(".tex") + ".pdf"


def _matn(el) -> str:
    return " ".join(el.get_text(" ").split())


@pytest.fixture(scope="module")
def kitob(tmp_path_factory):
    """The fixture book, built and published once: (root, published site, build output)."""
    ildiz = kitob_nusxasi(tmp_path_factory.mktemp("boblar"), TOC, SAHIFALAR, chapter_code=True)
    natija = subprocess.run([*QURISH, str(ildiz)], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(ildiz)})
    chiqish = natija.stdout + natija.stderr
    assert natija.returncode == 0, chiqish[-4000:]
    assert ": WARNING:" not in chiqish, chiqish[-3000:]
    sayt = ildiz / "_build" / "sayt"
    assert sayt.is_symlink()
    return ildiz, sayt, chiqish


def _sahifa(sayt: Path, nom: str) -> BeautifulSoup:
    return BeautifulSoup((sayt / "book" / f"{nom}.html").read_text(encoding="utf-8"), "html.parser")


def _bosilgan(nb) -> list[str]:
    """Every line the notebook's code cells printed, in order."""
    return bosilgan_satrlar(nb["cells"])


def _jadval_html(nb) -> list[str]:
    """The HTML of every table the helpers displayed."""
    return ["".join(c["data"]["text/html"]) for h in nb.cells if h.cell_type == "code"
            for c in h.get("outputs", []) if "<table" in "".join(c.get("data", {}).get("text/html", ""))]


def _jadval_md(nb) -> list[str]:
    """The MyST markdown of every table the helpers displayed."""
    return [c["data"]["text/markdown"] for h in nb.cells if h.cell_type == "code"
            for c in h.get("outputs", []) if "text/markdown" in c.get("data", {})
            and "".join(c["data"]["text/markdown"]).startswith("```{table}")]


# --- numbering ------------------------------------------------------------------------

@pytest.mark.parametrize("nom", list(BOBLAR))
def test_figures_and_tables_are_numbered_within_their_chapter_on_the_web(kitob, nom):
    _, sayt, _ = kitob
    n, bob, k, _ = BOBLAR[nom]
    sahifa = _sahifa(sayt, nom)
    rasm = sahifa.find("figure", id=f"rasm{n}")
    jadval = sahifa.find("table", id=f"jadval{n}")
    assert rasm is not None and jadval is not None, f"{nom}: the figure or table is not on the page"
    assert _matn(rasm.select_one(".caption-number")) == f"{bob}.{k}-rasm"
    assert _matn(rasm.find("figcaption")).startswith(f"{bob}.{k}-rasm Bob{n} rasmi")
    assert _matn(jadval.select_one(".caption-number")) == f"{bob}.{k}-jadval"
    assert _matn(jadval.find("caption")).startswith(f"{bob}.{k}-jadval Bob{n} jadvali")
    # the {numref} in the text says the same number and links to the figure / table
    havolalar = {a["href"]: _matn(a) for a in sahifa.select("a.reference.internal")
                 if a.select_one(".std-numref")}
    kutilgan = {f"#rasm{n}": f"{bob}.{k}-rasm", f"#jadval{n}": f"{bob}.{k}-jadval"}
    if nom == "birinchi/dars2":      # a reference into the first lesson
        kutilgan["dars1.html#rasm1"] = "1.1-rasm"
    assert havolalar == kutilgan
    # the glued number reached the text
    assert f"Oʻlchangan son {40 + n} ga teng" in _matn(sahifa.find("article"))
    # no page numbers a figure through the book: no other chapter's number here
    assert f"{3 - bob}.1-rasm" not in _matn(sahifa.find("article"))


def test_a_lesson_shows_a_value_glued_in_another(kitob):
    _, sayt, _ = kitob
    matn = _matn(_sahifa(sayt, "birinchi/dars2").find("article"))
    assert re.search(r"Oldingi darsdagi son: 41 ?\.", matn), matn[:1000]


def test_the_pdf_numbers_the_same_way_each_chapter_in_its_part(kitob):
    ildiz, sayt, _ = kitob
    pdf = sayt / PDF
    assert pdf.read_bytes()[:5] == b"%PDF-"
    matn = " ".join(subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True,
                                   check=True).stdout.split())
    boshlar = [matn.index(f"Bob{n} matni boshlanadi") for n in (1, 3, 2)]
    assert boshlar == sorted(boshlar), "the PDF's pages are not in the book's order"
    qismlar = {1: matn[boshlar[0]:boshlar[1]], 3: matn[boshlar[1]:boshlar[2]], 2: matn[boshlar[2]:]}
    for nom, (n, bob, k, _) in BOBLAR.items():
        for kutilgan in (f"Oʻlchangan son {40 + n} ga teng",
                         f"Rasmga qarang: {bob}.{k}-rasm", f"Jadvalga qarang: {bob}.{k}-jadval",
                         f"{bob}.{k}-jadval Bob{n} jadvali", f"{bob}.{k}-rasm Bob{n} rasmi",   # as on the web
                         f"bob{n} son: {40 + n}"):
            assert kutilgan in qismlar[n], f"{nom}'s part of the PDF lacks {kutilgan!r}:\n{qismlar[n][:3000]}"
        assert f"{3 - bob}.1-rasm" not in qismlar[n] and f"{3 - bob}.1-jadval" not in qismlar[n]
    assert "Oldingi darsdagi rasm: 1.1-rasm" in qismlar[3] and "Oldingi darsdagi son: 41" in qismlar[3]
    assert "vazifa: (8, 3, 1)" in qismlar[2] and "yashirin katak natijasi" in qismlar[2]
    # chapter 1 is one chapter of the PDF, its lessons its sections, in the site's order
    tex = next((ildiz / "_build" / "latex").glob("*.tex")).read_text(encoding="utf-8")
    tuzilish = re.findall(r"^\\(chapter|section)\{([^}]*)\}", tex, flags=re.M)
    assert [s for s in tuzilish if s[1] in ("Birinchi bob", "Birinchi dars", "Ikkinchi dars",
                                            "Ikkinchi bob")] == [
        ("chapter", "Birinchi bob"), ("section", "Birinchi dars"), ("section", "Ikkinchi dars"),
        ("chapter", "Ikkinchi bob")], tuzilish


# --- the download line and its files --------------------------------------------------------

def _yuklab(sayt: Path, nom: str) -> tuple[dict, BeautifulSoup]:
    """The page's download line under its title: link suffix -> the site's file; and the paragraph after."""
    sahifa = _sahifa(sayt, nom)
    sarlavha = sahifa.find("article").find("h1")
    qator = sarlavha.find_next_sibling()
    assert qator.name == "p" and "yuklab-olish" in qator["class"], str(qator)[:500]
    assert _matn(qator).startswith("Yuklab olish:")
    fayllar = {}
    for a in qator.find_all("a"):
        assert a.has_attr("download"), str(a)
        qism = urlsplit(a["href"])
        assert not qism.scheme and not qism.netloc, f"{a['href']} leaves the site"
        fayl = (sayt / "book" / posixpath.dirname(nom) / unquote(qism.path)).resolve()
        assert fayl.is_relative_to(sayt.resolve()) and fayl.is_file(), f"{a['href']} resolves to no file"
        assert fayl.suffix not in fayllar, str(qator)
        fayllar[fayl.suffix] = fayl
    izoh = qator.find_next_sibling()
    # folded under one line, so that the page's first sentence follows the download line
    assert izoh.name == "details" and "yuklab-izoh" in izoh["class"] and not izoh.has_attr("open"), str(izoh)[:500]
    assert _matn(izoh.summary) == "Kodni oʻz kompyuteringizda ishga tushirish"
    return fayllar, izoh.find("p", recursive=False)


@pytest.mark.parametrize("nom", list(BOBLAR))
def test_the_download_line_sits_under_the_title_and_its_links_resolve(kitob, nom):
    ildiz, sayt, _ = kitob
    n, _, _, sarlavha = BOBLAR[nom]
    assert _matn(_sahifa(sayt, nom).find("article").find("h1")).startswith(sarlavha)
    fayllar, izoh = _yuklab(sayt, nom)
    dars = "/" in nom                   # a lesson of a chapter of lessons
    assert sorted(fayllar) == ([".ipynb", ".py", ".zip"] if dars else [".ipynb", ".pdf", ".py", ".zip"])
    if not dars:
        assert fayllar[".pdf"] == (sayt / PDF).resolve()
        assert fayllar[".pdf"].read_bytes()[:5] == b"%PDF-"
    assert fayllar[".py"].name == f"{posixpath.basename(nom)}.py"
    nb = nbformat.read(fayllar[".ipynb"], as_version=4)
    nbformat.validate(nb)
    # the notebook as the page reads: its first line and the Colab cell, then the page's cells,
    # executed, its table in HTML (the MyST form only the build reads is not there)
    kod = [h for h in nb.cells if h.cell_type == "code"]
    assert nb.cells[0].cell_type == "markdown" and "README.md" in nb.cells[0].source
    assert "google.colab" in kod[0].source and not kod[0].outputs
    assert kod[1:] and all(h.execution_count for h in kod[1:]), "the notebook is not executed"
    assert f"bob{n} son: {40 + n}" in _bosilgan(nb)
    assert not _jadval_md(nb)
    assert len(_jadval_html(nb)) == 1
    # ... and the script is the same notebook in the percent format, the text in comments
    import jupytext
    skript = jupytext.reads(fayllar[".py"].read_text(encoding="utf-8"), fmt="py:percent")
    assert [(h.cell_type, h.source) for h in skript.cells] == [(h.cell_type, h.source) for h in nb.cells]
    with zipfile.ZipFile(fayllar[".zip"]) as z:
        assert z.testzip() is None
    assert fayllar[".zip"].relative_to((sayt / "book").resolve()).as_posix() in ARXIVLAR

    # ... and the sentences on how to run it, right below
    matn = _matn(izoh)
    gaplar = re.split(r"(?<=\.) (?=[A-Z])", matn)
    if dars:
        assert len(gaplar) == 2 and gaplar[1].startswith("Ularni ishga tushirish uchun bobning "
                                                         ".zip arxivini oling"), gaplar
        return
    assert len(gaplar) == 2 and matn.endswith("."), gaplar
    assert gaplar[0].startswith("Bob kodini oʻzingiz ishga tushirish uchun .zip arxivini oching")
    assert "pip install -r requirements.txt" in gaplar[1]
    assert f"{nom}.ipynb ni JupyterLabda ochib, hamma kataklarni ishga tushiring" in gaplar[1]


def test_a_chapter_of_lessons_offers_the_pdf_and_its_archive_and_lists_its_lessons(kitob):
    _, sayt, _ = kitob
    fayllar, izoh = _yuklab(sayt, "birinchi/index")
    assert sorted(fayllar) == [".pdf", ".zip"]
    assert fayllar[".pdf"] == (sayt / PDF).resolve()
    assert fayllar[".zip"] == (sayt / "book" / "birinchi" / "birinchi.zip").resolve()
    matn = _matn(izoh)
    assert matn.startswith("Bob kodini oʻzingiz ishga tushirish uchun .zip arxivini oching")
    assert "pip install -r requirements.txt" in matn and "dars1.ipynb faylidan boshlab" in matn
    # the lessons in order, each linked, each with its reading time
    sahifa = _sahifa(sayt, "birinchi/index")
    darslar = sahifa.select("ol.darslar > li")
    assert [(li.a["href"], _matn(li.a)) for li in darslar] == [
        ("dars1.html", "Birinchi dars"), ("dars2.html", "Ikkinchi dars")]
    assert all(re.search(r" — taxminan \d+ daqiqa$", _matn(li)) for li in darslar), [_matn(li) for li in darslar]
    assert not sahifa.select("p.yuklab-olish a[href$='.py'], p.yuklab-olish a[href$='.ipynb']")
def test_the_root_page_is_no_chapter(kitob):
    ildiz, sayt, _ = kitob
    sahifa = BeautifulSoup((sayt / "book" / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert not sahifa.select(".yuklab-izoh")
    assert not list((sayt / "book").glob("index.zip"))
    # its one line offers the whole book as the PDF named in _config.yml
    (qator,) = sahifa.select("p.yuklab-olish")
    pdf = yaml.safe_load((ildiz / "_config.yml").read_text())["latex"]["latex_documents"]["targetname"]
    assert [a["href"] for a in qator.select("a")] == ["../" + pdf.replace(".tex", ".pdf")]


def _talablar(ildiz: Path) -> list[str]:
    """The [bob] lines of the project's requirements.txt, pinned by its requirements.lock."""
    def nom(s):
        return re.sub(r"[-_.]+", "-", s).lower()
    qulf = {nom(q.split("==")[0]): q.strip().split("+")[0]        # no local label (+cpu)
            for q in (ildiz / "requirements.lock").read_text().splitlines()
            if "==" in q and not q.startswith("#")}
    return [qulf[nom(re.split(r"[=<>!~\[; ]", q.split("#")[0].strip())[0])]
            for q in (ildiz / "requirements.txt").read_text().splitlines()
            if "[bob]" in q.partition("#")[2] and q.split("#")[0].strip()]


def test_each_archive_holds_exactly_what_its_chapter_runs(kitob):
    ildiz, sayt, _ = kitob
    ichi = {}
    for arxiv, (sahifalar, kodlar) in ARXIVLAR.items():
        nom = posixpath.basename(arxiv).removesuffix(".zip")
        with zipfile.ZipFile(sayt / "book" / arxiv) as z:
            fayllar = {i.filename: z.read(i) for i in z.infolist()}
        kutilgan = {f"{nom}/requirements.txt", f"{nom}/README.md", *(f"{nom}/{k}" for k in kodlar)}
        for s in sahifalar:
            dars = posixpath.basename(s)
            kutilgan |= {f"{nom}/{dars}.py", f"{nom}/{dars}.ipynb"}
            assert fayllar[f"{nom}/{dars}.py"] == (sayt / "book" / f"{s}.py").read_bytes()
            assert fayllar[f"{nom}/{dars}.ipynb"] == (sayt / "book" / f"{s}.ipynb").read_bytes()
        readme = fayllar[f"{nom}/README.md"].decode()
        assert "pip install -r requirements.txt" in readme and "Colab" in readme
        assert set(fayllar) == kutilgan, f"{arxiv}: {sorted(fayllar)}"
        for k in kodlar:
            assert fayllar[f"{nom}/{k}"] == (ildiz / k).read_bytes(), f"{arxiv}: {k} differs"
        indeks, *talablar = fayllar[f"{nom}/requirements.txt"].decode().splitlines()
        assert indeks == "--extra-index-url https://download.pytorch.org/whl/cpu"
        assert talablar and all(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*==[^=\s]+", q)
                                for q in talablar), talablar
        assert talablar == _talablar(ildiz)
        ichi[nom] = {f.split("/", 1)[1] for f in fayllar if "/chapter_code/" in f}
    # chapter 2 imports one module more than chapter 1, and only its archive has it
    assert ichi["ikkinchi"] - ichi["birinchi"] == {"chapter_code/malumot.py"}
    assert ichi["birinchi"] < ichi["ikkinchi"]


def test_the_pins_are_what_this_build_ran_with(kitob):
    """The archive's requirements.txt names the versions the published notebook was executed with."""
    from importlib.metadata import version

    ildiz, _, _ = kitob
    for q in _talablar(ildiz):
        nom, _, versiya = q.partition("==")
        assert version(nom).split("+")[0] == versiya, f"{q}: this environment has {version(nom)}"


def test_the_root_index_sends_the_browser_to_the_root_page(kitob):
    _, sayt, _ = kitob
    matn = (sayt / "index.html").read_text(encoding="utf-8")
    assert matn.lstrip().lower().startswith("<!doctype html>")
    sahifa = BeautifulSoup(matn, "html.parser")
    assert sahifa.html["lang"] == "uz"
    assert sahifa.find("meta", charset=True)["charset"].lower() == "utf-8"
    assert _matn(sahifa.title)
    yonaltirish = sahifa.find("meta", attrs={"http-equiv": re.compile("^refresh$", re.I)})
    assert yonaltirish is not None
    assert re.fullmatch(r"0;\s*url=book/index\.html", yonaltirish["content"]), yonaltirish["content"]
    assert sahifa.find("link", rel="canonical")["href"] == "book/index.html"
    assert [a["href"] for a in sahifa.find_all("a")] == ["book/index.html"]
    assert (sayt / "book" / "index.html").is_file()


def test_a_hidden_input_cell_has_the_uzbek_toggle_label(kitob):
    _, sayt, _ = kitob
    with open(ILDIZ / "locales" / "uz" / "LC_MESSAGES" / "mystnb.po", "rb") as f:
        katalog = read_po(f)
    uzbekcha = katalog.get("Toggle hidden content").string
    assert uzbekcha and uzbekcha != "Toggle hidden content"
    yashirin = _sahifa(sayt, "ikkinchi").select("details.hide.above-input")
    assert len(yashirin) == 1, "the hide-input cell has no toggle"
    assert yashirin[0].find("summary")["aria-label"] == uzbekcha
    assert "yashirin katak natijasi" in yashirin[0].find_parent(class_="cell").get_text()
    assert not _sahifa(sayt, "birinchi/dars1").select("details.hide")


# --- a reader can run what they download ------------------------------------------------------

#: The kernel the reader's JupyterLab would start (python -m ipykernel_launcher), except that
#: every sys.path entry from which chapter_code could be imported is dropped first: the venv's
#: .pth file puts the project's root on the path of every process, and a reader has no project.
YADRO = """\
import os, sys
if sys.path and sys.path[0] == "":
    del sys.path[0]                 # as ipykernel_launcher does; IPython puts the cwd back
sys.path[:] = [p for p in sys.path if not os.path.exists(os.path.join(p, "chapter_code"))]
from ipykernel import kernelapp
kernelapp.launch_new_instance()
"""

#: Executes a notebook with nbclient (python -I: no PYTHONPATH, no current folder on the path).
IJROCHI = """\
import sys
import nbformat
from nbclient import NotebookClient
kirish, papka, chiqish = sys.argv[1:]
nb = nbformat.read(kirish, as_version=4)
NotebookClient(nb, timeout=600, kernel_name="python3",
               resources={"metadata": {"path": papka}}).execute()
nbformat.write(nb, chiqish)
"""

#: Appended to the reader's copy: where chapter_code can be imported from, as the kernel sees it.
TEKSHIRUV = """\
import json, os, sys
print("KITOB_YOLLAR", json.dumps([os.path.realpath(p or ".") for p in sys.path
                                  if os.path.exists(os.path.join(p or ".", "chapter_code"))]))
print("KITOB_ILDIZ_YOQ", not any(os.path.realpath(p or ".") == os.path.realpath({ildiz!r})
                                 for p in sys.path))
"""


@pytest.mark.parametrize("arxiv", list(ARXIVLAR))
def test_a_reader_can_run_the_downloaded_chapter(kitob, tmp_path, arxiv):
    ildiz, sayt, _ = kitob
    oquvchi = tmp_path / "oquvchi"
    with zipfile.ZipFile(sayt / "book" / arxiv) as z:
        z.extractall(oquvchi)
    papka = (oquvchi / posixpath.basename(arxiv).removesuffix(".zip")).resolve()

    # a kernel spec "python3" of our own, found first through JUPYTER_PATH
    spec = tmp_path / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-c", YADRO, "-f", "{connection_file}"],
        "display_name": "Python 3 (loyihasiz)", "language": "python"}))
    muhit = {k: v for k, v in os.environ.items()
             if k != "PYTHONPATH" and not k.startswith(("KITOB_", "JUPYTER"))}
    muhit["JUPYTER_PATH"] = str(tmp_path / "jupyter")

    for sahifa in ARXIVLAR[arxiv][0]:           # every lesson, in order, each in a fresh kernel
        dars = posixpath.basename(sahifa)
        nb = nbformat.read(papka / f"{dars}.ipynb", as_version=4)
        for h in nb.cells:                  # run it from scratch: nothing kept from the build
            if h.cell_type == "code":
                h.outputs, h.execution_count = [], None
        nb.cells.append(nbformat.v4.new_code_cell(TEKSHIRUV.format(ildiz=str(ILDIZ))))
        kirish = tmp_path / f"{dars}-kirish.ipynb"
        nbformat.write(nb, kirish)
        chiqish = tmp_path / f"{dars}-chiqish.ipynb"
        natija = subprocess.run([sys.executable, "-I", "-c", IJROCHI, str(kirish), str(papka), str(chiqish)],
                                capture_output=True, text=True, env=muhit, cwd=tmp_path, timeout=900)
        assert natija.returncode == 0, (natija.stdout + natija.stderr)[-4000:]
        yangi = nbformat.read(chiqish, as_version=4)
        assert not [c for h in yangi.cells for c in h.get("outputs", []) if c.output_type == "error"]

        # the kernel could import chapter_code only from the extracted folder, and did
        *satrlar, yollar, ildiz_yoq = _bosilgan(yangi)
        assert yollar == f"KITOB_YOLLAR {json.dumps([str(papka)])}", yollar
        assert ildiz_yoq == "KITOB_ILDIZ_YOQ True"
        assert f"chapter_code: {papka / 'chapter_code'}" in satrlar
        n = BOBLAR[sahifa][0]
        assert (papka / "_build" / "rasmlar" / f"rasm{n}.png").is_file(), "fig() wrote outside the reader's folder"

        # ... and it printed what the published notebook printed (the build's copy was the fixture's own)
        nashr = nbformat.read(sayt / "book" / f"{sahifa}.ipynb", as_version=4)
        eski = _bosilgan(nashr)
        assert f"chapter_code: {(ildiz / 'chapter_code').resolve()}" in eski
        assert ([s for s in satrlar if not s.startswith("chapter_code:")]
                == [s for s in eski if not s.startswith("chapter_code:")])
        # the same table; the download's caption numbered as the page numbers it ("1.1-jadval")
        (jadval,) = _jadval_html(nashr)
        raqam = re.search(r"<caption><strong>(\d+\.\d+-jadval)</strong> ", jadval)
        assert raqam and _jadval_html(yangi) == [jadval.replace(raqam[0], "<caption>")]
        if sahifa == "ikkinchi":
            assert "vazifa: (8, 3, 1) 3" in satrlar and "yashirin katak natijasi" in satrlar


# --- an edit rewrites what it changes --------------------------------------------------

def test_an_edit_rewrites_its_page_the_pages_pasting_from_it_and_all_when_numbers_move(tmp_path):
    """A prose edit rewrites its own page (and the opening page that lists it), not the others;
    a value glued anew reaches the lesson that pastes it; a figure added before another moves
    the numbers on every page that shows or cites them."""
    from conftest import jb_build

    ildiz = kitob_nusxasi(tmp_path, TOC, SAHIFALAR, chapter_code=True)
    html = ildiz / "_build" / "html" / "book"

    def qur() -> dict[str, int]:
        natija = jb_build(ildiz)
        assert natija.returncode == 0, (natija.stdout + natija.stderr)[-4000:]
        return {p.relative_to(html).as_posix(): p.stat().st_mtime_ns for p in html.rglob("*.html")}

    def yoz(nom: str, matn: str) -> None:
        (ildiz / "book" / nom).write_text(matn, encoding="utf-8")

    def kirishlar() -> dict:
        indeks = (html.parent / "searchindex.js").read_text(encoding="utf-8")
        return json.loads(indeks[indeks.index("(") + 1:indeks.rindex(")")])["indexentries"]

    oldin, kirishlar_oldin = qur(), kirishlar()
    assert "sinov atamasi" in kirishlar_oldin, kirishlar_oldin
    yoz("birinchi/dars2.py", DARS2.replace("Bob3 matni boshlanadi.", "Bob3 matni (tahrir) boshlanadi."))
    keyin = qur()
    # search keeps the index entries of the pages not written again (sphinx#12599: qidiruv.py)
    assert kirishlar() == kirishlar_oldin
    yozilgan = {p for p in keyin if keyin[p] != oldin[p]}
    assert {"birinchi/dars2.html", "birinchi/index.html"} <= yozilgan, yozilgan
    assert not yozilgan & {"birinchi/dars1.html", "ikkinchi.html"}, yozilgan
    assert "Bob3 matni (tahrir) boshlanadi." in _matn(_sahifa(html.parent, "birinchi/dars2"))

    yoz("birinchi/dars1.py", DARS1.replace('glue("son1", 41,', 'glue("son1", 51,'))
    qur()
    assert re.search(r"Oldingi darsdagi son: 51 ?\.", _matn(_sahifa(html.parent, "birinchi/dars2"))), \
        "the lesson pasting a value from an edited one still shows the old value"

    yoz("birinchi/dars1.py", _bob(1, "Birinchi dars", qoshimcha_kod=(
        'plt.subplots(figsize=(3, 2))\nplt.plot([0, 1])\nfig("yangi.png", caption="Yangi rasm")\n')))
    qur()
    dars2 = _sahifa(html.parent, "birinchi/dars2")
    assert _matn(dars2.find("figure", id="rasm3").select_one(".caption-number")) == "1.3-rasm"
    assert {_matn(a) for a in dars2.select('a.reference.internal[href="dars1.html#rasm1"]')} == {"1.2-rasm"}
    assert _matn(_sahifa(html.parent, "ikkinchi").find("figure", id="rasm2").select_one(".caption-number")) \
        == "2.1-rasm"
