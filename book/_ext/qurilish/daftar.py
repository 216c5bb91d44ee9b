"""Build side: the lessons a student downloads, written from the page as it reads (a Sphinx extension).

The sources are the author's MyST; a student who downloads a lesson gets a Jupyter notebook
(``.ipynb``) and a script (``.py``, Jupytext's percent format) that read like the page:

* the text is the page's **resolved** doctree (glued numbers as the page shows them, a term as
  its word, "1.3-rasm" for a numbered reference, a citation as its text, a lesson named by its
  title and linking to its notebook), rendered to Markdown by ``sphinx-markdown-builder``'s
  translator; what that translator does not know is handled here (``Matn``): the «Yechim» and
  «Chuqurroq» dropdowns as HTML ``<details>``, included code with a note of its file, and no
  raw HTML, anchors or index entries;
* the code cells and their outputs are the executed notebook's (MyST-NB's cell containers in
  the doctree give each cell's index), without the cells the page hides (``remove-cell``: the
  ``glue`` bookkeeping) and without what only the build reads (glue records; a table's MyST
  form where its HTML is there);
* above them, one line on whose numbers these are and how to run the notebook, and a first
  code cell that sets the lesson up in Colab (it does nothing elsewhere).

The files are written when the build's environment is complete, before any page is written
(``env-check-consistency``), so that the pages can give their sizes; only the lessons read in
this build are written again (``yuklamalar.fayllar`` checks that each is there).
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

import nbformat
from docutils import nodes
from sphinx.errors import ExtensionError
from sphinx_markdown_builder.contexts import IndentContext, SubContext, SubContextParams, WrappedContext
from sphinx_markdown_builder.translator import MarkdownTranslator

#: What stands for a code cell in the page's Markdown until the text is cut into cells.
BELGI = "\u2063KOD{}\u2063"
_BELGI = re.compile("\u2063KOD(\\d+)\u2063")
#: Dropdown admonitions: their title is the <summary> of a closed <details>.
YOPIQ = "dropdown"
#: Outputs the build reads and a reader does not: glue records (MyST-NB's scrapbook).
GLUE_KALITI = "scrapbook"


class Matn(MarkdownTranslator):
    """The page's text in Markdown, code cells left as markers (``BELGI``)."""

    def __init__(self, document, builder, docname: str, darslar: set[str]):
        super().__init__(document, builder)
        self.docname = docname
        self.darslar = darslar          # the lessons that have a notebook: a link to one goes to it

    # a code cell: a marker, its cell comes from the executed notebook
    def visit_container(self, node):
        if node.get("nb_element") == "cell_code":
            self.add(BELGI.format(node["cell_index"]), prefix_eol=2, suffix_eol=2)
            raise nodes.SkipNode

    def depart_container(self, node):
        pass

    # what only the page has: its download line (raw HTML), anchors, index entries
    def visit_raw(self, node):
        raise nodes.SkipNode

    def visit_target(self, node):
        raise nodes.SkipNode

    # links: to another lesson by its title, to its notebook; the rest (terms, numbered
    # references, citations: anchors of the site) as their text; addresses outside as links
    def visit_reference(self, node):
        uri = node.get("refuri", "")
        if re.match(r"^[a-z]+://", uri):
            return super().visit_reference(node)
        manzil, _, langar = uri.partition("#")
        sahifa = posixpath.normpath(posixpath.join(posixpath.dirname(self.docname), manzil))
        sahifa = sahifa.removesuffix(".html")
        if manzil and not langar and sahifa in self.darslar:
            daftar_ = posixpath.relpath(sahifa + ".ipynb", posixpath.dirname(self.docname) or ".")
            self._push_context(WrappedContext("[", f"]({daftar_})"))
        else:
            self._push_context(WrappedContext("", ""))

    def depart_reference(self, node):
        self._pop_context()

    # admonitions: a dropdown (a solution, a side topic) as a closed <details>, another as a quote
    def visit_admonition(self, node):
        sarlavha = node[0].astext() if node.children and isinstance(node[0], nodes.title) else ""
        if YOPIQ in node.get("classes", []):
            self.add(f"<details>\n<summary>{sarlavha}</summary>", prefix_eol=2, suffix_eol=2)
            self._push_context(SubContext(SubContextParams(2, 2)))
        else:
            self._push_context(IndentContext("> ", empty=True, params=SubContextParams(2, 2)))
            if sarlavha:
                self.add(f"**{sarlavha}**", prefix_eol=1, suffix_eol=2)

    def depart_admonition(self, node):
        self._pop_context()
        if YOPIQ in node.get("classes", []):
            self.add("</details>", prefix_eol=2, suffix_eol=2)

    def visit_title(self, node):
        if isinstance(node.parent, nodes.admonition):
            raise nodes.SkipNode
        super().visit_title(node)

    def depart_title(self, node):
        self._pop_context()

    # included code: a fenced block and the file it comes from
    def visit_literal_block(self, node):
        fayl = node.attributes.get("source")
        if fayl:
            ildiz = Path(self.builder.srcdir)
            yol = Path(fayl)
            nom = yol.relative_to(ildiz).as_posix() if yol.is_absolute() and yol.is_relative_to(ildiz) else yol.name
            self.add(f"*`{nom}` faylidan:*", prefix_eol=2, suffix_eol=1)
            if node.get("language") in (None, "default") and fayl.endswith(".py"):
                node["language"] = "python"            # (this resolved copy only: highlighted as Python)
        super().visit_literal_block(node)

    # a figure outside a cell: its image and its caption in italics
    def visit_caption(self, node):
        self._push_context(WrappedContext("*", "*", params=SubContextParams(1, 2)))

    def depart_caption(self, node):
        self._pop_context()


def _matn(app, docname: str, doctree: nodes.document, darslar: set[str]) -> str:
    tarjimon = Matn(doctree, app.builder, docname, darslar)
    doctree.walkabout(tarjimon)
    return tarjimon.astext()


def qismlar(app, docname: str, doctree: nodes.document, darslar: set[str]) -> list:
    """The page in order: Markdown texts (str) and the indices of its code cells (int)."""
    natija: list = []
    for i, bolak in enumerate(_BELGI.split(_matn(app, docname, doctree, darslar))):
        if i % 2:
            natija.append(int(bolak))
        elif bolak.strip():
            natija.append(bolak.strip() + "\n")
    ochiq = [q for q in natija if isinstance(q, str) and q.count("<details>") != q.count("</details>")]
    if ochiq:
        raise ExtensionError(f"{docname}: a code cell stands inside a dropdown; a notebook cannot "
                             f"hold it there (the text around it: {ochiq[0][:200]!r})")
    return natija


_NOM = re.compile(r"^:name: (\S+)$", flags=re.M)
_IZOH = re.compile(r"<(?:fig)?caption>")


def _chiqishlar(chiqishlar: list, raqamlar: dict[str, str]) -> list:
    """A cell's outputs as a reader sees them: no glue records; a table or figure in its HTML form
    (its MyST form, ```{table} or {glue:figure}, is what the build reads), its caption numbered
    as the page numbers it ("1.4-jadval"; ``raqamlar``: the element's id -> its number)."""
    qoldi = []
    for c in chiqishlar:
        if GLUE_KALITI in c.get("metadata", {}):
            continue
        if "data" in c and "text/html" in c["data"]:
            data = {k: v for k, v in c["data"].items() if k != "text/markdown"}
            nom = _NOM.search("".join(c["data"].get("text/markdown", "")))
            raqam = raqamlar.get(nodes.make_id(nom[1])) if nom else None
            if raqam:
                data["text/html"] = _IZOH.sub(lambda m: f"{m[0]}<strong>{raqam}</strong> ",
                                              "".join(data["text/html"]), count=1)
            c = nbformat.from_dict({**c, "data": data})
        qoldi.append(c)
    return qoldi


def kod_katagi(asl, raqamlar: dict[str, str] | None = None) -> nbformat.NotebookNode:
    """A code cell of the download from the executed notebook's: its source, its outputs as a reader
    sees them; a cell whose code the page folds (``hide-input``, ``hide-cell``, ``remove-input``)
    opens folded in Jupyter."""
    teglar = asl.metadata.get("tags", [])
    yangi = nbformat.v4.new_code_cell(asl.source, outputs=_chiqishlar(asl.get("outputs", []), raqamlar or {}),
                                      execution_count=asl.get("execution_count"))
    if {"hide-input", "hide-cell", "remove-input"} & set(teglar):
        yangi.metadata["jupyter"] = {"source_hidden": True}
    if "hide-cell" in teglar:
        yangi.metadata["jupyter"]["outputs_hidden"] = True
    return yangi


#: The notebook's first line: whose numbers these are and how to run it.
BOSHI = ("*«{bob}» bobining «{dars}» darsi. Undagi sonlar, jadvallar va rasmlar kitob qurilgan "
         "kompyuterda{muhit} olingan: oʻzingiz ishga tushirsangiz, vaqtlar boshqacha, "
         "oʻqitish natijalari esa farqli chiqishi mumkin. Ishga tushirish yoʻli bob arxividagi "
         "`README.md` faylida; Colabda quyidagi birinchi katakni bajaring.*\n")

#: ... of a chapter that is one page.
BOSHI_BIR = ("*«{bob}» bobi. Undagi sonlar, jadvallar va rasmlar kitob qurilgan kompyuterda{muhit} "
             "olingan: oʻzingiz ishga tushirsangiz, vaqtlar boshqacha, oʻqitish natijalari "
             "esa farqli chiqishi mumkin. Ishga tushirish yoʻli bob arxividagi `README.md` faylida; "
             "Colabda quyidagi birinchi katakni bajaring.*\n")

#: The first code cell: in Colab, the chapter's archive uploaded, unpacked and installed; elsewhere nothing.
COLAB = '''\
# Colab uchun: bob arxivini ({arxiv}) yuklang; katak uni ochadi va kerakli
# paketlarni oʻrnatadi. Oʻz kompyuteringizda bu katak hech narsa qilmaydi.
import sys
if "google.colab" in sys.modules:
    import os, subprocess, zipfile
    from google.colab import files
    nom = next(iter(files.upload()))
    zipfile.ZipFile(nom).extractall(".")
    os.chdir("{papka}")
    sys.path.insert(0, os.getcwd())
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "-r",
                    "requirements.txt", "--extra-index-url",
                    "https://download.pytorch.org/whl/cpu"], check=True)'''


def daftar(qism: list, bajarilgan: nbformat.NotebookNode, boshi: str, colab: str,
           raqamlar: dict[str, str] | None = None) -> nbformat.NotebookNode:
    """The download: the first line and the Colab cell, then the page's texts and code cells."""
    nb = nbformat.v4.new_notebook(metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"}})
    nb.cells = [nbformat.v4.new_markdown_cell(boshi), nbformat.v4.new_code_cell(colab)]
    for q in qism:
        if isinstance(q, str):
            nb.cells.append(nbformat.v4.new_markdown_cell(q.rstrip("\n")))
        else:
            nb.cells.append(kod_katagi(bajarilgan.cells[q], raqamlar))
    for i, h in enumerate(nb.cells):            # ids stable from build to build (the same bytes)
        h["id"] = f"k{i:03d}"
    return nb


def skript(nb: nbformat.NotebookNode) -> str:
    """The notebook as a script in Jupytext's percent format (text as comments, no outputs)."""
    import jupytext

    nusxa = nbformat.from_dict(json.loads(json.dumps(nb)))
    for h in nusxa.cells:
        h.metadata.pop("jupyter", None)
        h.pop("id", None)
    nusxa.metadata = {"kernelspec": nb.metadata["kernelspec"],
                      "jupytext": {"formats": "ipynb,py:percent", "notebook_metadata_filter": "-all",
                                   "cell_metadata_filter": "-all"}}
    return jupytext.writes(nusxa, fmt="py:percent")
