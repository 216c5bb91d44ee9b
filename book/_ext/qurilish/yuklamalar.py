"""Build side: every chapter's downloads, made from its sources and executed notebooks (a Sphinx extension).

A download line under each chapter's title, made here rather than typed into the chapter
(``_yuklab_qatori``); the files it names, written beside the pages when the HTML build
finishes (``fayllar``, a step of ``yakun.py``); the theme's header menu giving the same
files (``sarlavha_yuklamalari``); the site's root ``index.html`` sending the browser to
the root page (``_yonaltirish``).  The chapters are those of ``raqamlash.py``; the PDF's
name is the LaTeX target of ``_config.yml``.
"""

from __future__ import annotations

import html
import posixpath
import re
import shutil
import zipfile
from pathlib import Path

from docutils import nodes
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from sphinx import addnodes
from sphinx.errors import ExtensionError

from . import ijro
from .raqamlash import _bob_boshi, _raqamlar, arxiv_nomi, bob_sahifalari

#: Fixed date of every file in the archives: the same chapter gives the same bytes.
ZIP_SANASI = (2026, 1, 1, 0, 0, 0)
#: A requirements.txt line the chapters need to run carries this mark in its comment.
BOB_BELGISI = "[bob]"

# --- the download line ---------------------------------------------------------------

def pdf_nomi(app) -> str:
    return Path(app.config.latex_documents[0][1]).with_suffix(".pdf").name


def _notebookmi(app, docname: str) -> bool:
    from myst_nb.sphinx_ import NbMetadataCollector

    return NbMetadataCollector.get_exec_data(app.env, docname) is not None


#: How to run what was downloaded, after the sentence saying what the archive holds.
ISHGA_TUSHIRISH = (
    "Arxiv papkasida <code>pip install -r requirements.txt jupyterlab "
    "--extra-index-url https://download.pytorch.org/whl/cpu</code> buyrugʻini bajaring "
    "(oxirgi qismi PyTorchning CPU versiyasi uchun), soʻng {nimani} JupyterLabda ochib, "
    "hamma kataklarni ishga tushiring.")


def _qator(havolalar: list[tuple[str, str]], izoh: str = "") -> str:
    """A download line of (address, label) links, and the note under it if any."""
    ichi = " · ".join(f'<a href="{html.escape(h)}" download>{nom}</a>' for h, nom in havolalar)
    return (f'<p class="yuklab-olish">Yuklab olish: {ichi}</p>\n'
            + (f'<p class="yuklab-izoh">{izoh}</p>\n' if izoh else ""))


def _pdf(docname: str, pdf: str) -> str:
    return posixpath.relpath(pdf, posixpath.dirname(docname) or ".")


def _manbalar(docname: str, kengaytma: str, kimning: str) -> list[tuple[str, str]]:
    """A notebook page's source (unless it is an .ipynb: its executed notebook is it) and its
    executed notebook."""
    nom = posixpath.basename(docname)
    manba = [(nom + kengaytma, f"{kimning} manbasi ({html.escape(kengaytma)})")] if kengaytma != ".ipynb" else []
    return manba + [(f"{nom}.ipynb", "bajarilgan Jupyter daftari (.ipynb)")]


def yuklab_html(docname: str, pdf: str, notebook: bool, kengaytma: str = ".py") -> str:
    """The download line (and, for a notebook, how to run it) of the one-page chapter ``docname``;
    ``kengaytma`` is the suffix of its source."""
    if not notebook:
        return _qator([(_pdf(docname, pdf), "PDF")])
    nom = posixpath.basename(docname)
    ichida = ", ".join(f"<code>{html.escape(nom + k)}</code>" for k in dict.fromkeys((".ipynb", kengaytma)))
    return _qator([(_pdf(docname, pdf), "PDF"), *_manbalar(docname, kengaytma, "bob"),
                   (f"{nom}.zip", "ishga tushirish uchun toʻplam (.zip)")],
                  f"Bobni oʻzingiz ishga tushirish uchun .zip arxivini oching: unda bob ({ichida}), u "
                  "import qiladigan <code>chapter_code/</code> modullari va <code>requirements.txt</code> "
                  "bor. " + ISHGA_TUSHIRISH.format(nimani=f"<code>{html.escape(nom)}.ipynb</code> ni"))


def bob_html(docname: str, pdf: str, darslar: list[str]) -> str:
    """The opening page of a chapter of lessons: the PDF and the chapter's archive."""
    havolalar = [(_pdf(docname, pdf), "PDF"), (arxiv_nomi(docname) + ".zip", "bobning hamma darslari (.zip)")]
    if not darslar:
        return _qator(havolalar)
    return _qator(havolalar, (
        "Bobni oʻzingiz ishga tushirish uchun .zip arxivini oching: unda har dars (<code>.py</code> "
        "va bajarilgan <code>.ipynb</code>), ular import qiladigan <code>chapter_code/</code> "
        "modullari va <code>requirements.txt</code> bor. " + ISHGA_TUSHIRISH.format(
            nimani=f"darslarni (<code>{html.escape(darslar[0])}.ipynb</code> dan boshlab)")))


def dars_html(docname: str, bob: str, kengaytma: str = ".py") -> str:
    """A lesson's download line: its source, its executed notebook and the chapter's archive."""
    arxiv = posixpath.relpath(posixpath.join(posixpath.dirname(bob), arxiv_nomi(bob) + ".zip"),
                              posixpath.dirname(docname) or ".")
    return _qator([*_manbalar(docname, kengaytma, "dars"), (arxiv, "bobning hamma darslari (.zip)")],
                  "Darsni oʻzingiz ishga tushirish uchun bobning .zip arxivini oling: unda hamma darslar, "
                  "ular import qiladigan <code>chapter_code/</code> modullari va "
                  "<code>requirements.txt</code> bor.")


def ildiz_html(docname: str, pdf: str) -> str:
    """The root page's line: the whole book as one PDF."""
    return (f'<p class="yuklab-olish"><a href="{html.escape(_pdf(docname, pdf))}" download>PDF yuklab olish</a>'
            " — butun bob bitta faylda, chop etish uchun.</p>\n")


def _kod_qatorimi(qator: str) -> bool:
    """Whether a line of code is read: not blank, not a comment, not only closing brackets
    (a call wrapped one argument a line ends on a lone ``)``)."""
    return bool(qator.strip()) and not qator.lstrip().startswith("#") and not set(qator.strip()) <= set(")]},:")


#: A closed dropdown whose title starts with one of these is outside a lesson's core path: a
#: worked answer, or a part that goes deeper than the lesson's main line.
YOPIQ_QISMLAR = ("Yechim", "Chuqurroq")
_YOPIQ_BOSHI = re.compile(r"^(:{3,}|`{3,})\{admonition\}\s*(%s)\b" % "|".join(YOPIQ_QISMLAR))


def asosiy_matn(markdown: str) -> str:
    """A markdown cell without its closed «Yechim»/«Chuqurroq» admonitions (fence to fence)."""
    qolgan, yopuvchi = [], None
    for qator in markdown.splitlines():
        if yopuvchi is None:
            if m := _YOPIQ_BOSHI.match(qator.strip()):
                yopuvchi = m.group(1)
            else:
                qolgan.append(qator)
        elif qator.strip() == yopuvchi:
            yopuvchi = None
    return "\n".join(qolgan)


def oqish_daqiqasi(manba: Path, soz_daqiqa: int, kod_daqiqa: int) -> int:
    """About how many minutes a lesson's core path takes: its prose at ``soz_daqiqa`` words and its
    visible code at ``kod_daqiqa`` lines a minute, rounded to five minutes (at least five).  The
    core path leaves out what a reader opens only by choice: closed «Yechim» and «Chuqurroq»
    admonitions (``YOPIQ_QISMLAR``) and folded code (``hide-cell``, a solution's code)."""
    if manba.suffix in ijro.FORMATLAR:
        nb = ijro.oqilgan(manba.read_text(encoding="utf-8"), ijro.FORMATLAR[manba.suffix])
        sozlar = kod = 0
        for h in nb.cells:
            teglar = h.metadata.get("tags", [])
            if "remove-cell" in teglar or "hide-cell" in teglar:
                continue
            if h.cell_type == "markdown":
                sozlar += len(asosiy_matn(h.source).split())
            elif h.cell_type == "code" and "remove-input" not in teglar:
                kod += sum(1 for q in h.source.splitlines() if _kod_qatorimi(q))
    else:
        sozlar, kod = len(manba.read_text(encoding="utf-8").split()), 0
    return max(5, 5 * round((sozlar / soz_daqiqa + kod / kod_daqiqa) / 5))


def _dars_notebookmi(app, docname: str) -> bool:
    """Whether a lesson is a notebook, known before it is read (the opening page is read first):
    by its source's kind, as MyST-NB decides it (a .py read by nb_custom_formats, an .ipynb)."""
    return Path(app.env.doc2path(docname)).suffix in {".ipynb", *app.config.nb_custom_formats}


def _darslar_royxati(app, bob: str, darslar: list[str]) -> nodes.Node:
    """The opening page's list of its chapter's pages, in order, each lesson with its reading time."""
    royxat = nodes.enumerated_list(classes=["darslar"])
    soz, kod = app.config.kitob_soz_daqiqa, app.config.kitob_kod_daqiqa
    for dars in darslar:
        manba = Path(app.env.doc2path(dars))
        app.env.note_dependency(str(manba))
        havola = addnodes.pending_xref("", nodes.inline("", dars), refdomain="std", reftype="doc",
                                       reftarget="/" + dars, refexplicit=False, refwarn=True,
                                       refdoc=bob)
        # a lesson (a notebook) says its reading time; the glossary or the references, looked up
        # rather than read through, none
        vaqt = ([nodes.Text(f" — taxminan {oqish_daqiqasi(manba, soz, kod)} daqiqa")]
                if _dars_notebookmi(app, dars) else [])
        royxat += nodes.list_item("", nodes.paragraph("", "", havola, *vaqt))
    # how the minutes are counted (soz words, kod lines a minute) stays in the config and README
    izoh = nodes.paragraph("", "Oʻqish vaqti taxminiy; yechimlar va «Chuqurroq» qismlari "
                               "unga kirmaydi.")
    return [nodes.rubric("", "Darslar"), royxat, izoh]


def _yuklab_qatori(app, doctree) -> None:
    """doctree-read: the download line under a page's title (the PDF's under the root's).  A
    one-page chapter offers PDF, source, executed notebook, archive; a chapter of lessons'
    opening page the PDF and the archive, and lists the lessons; each lesson that is a
    notebook its source, its executed notebook and the archive."""
    docname = app.env.docname
    ildizmi = docname == app.config.root_doc
    raqamlar, boshlar = _raqamlar(app), _bob_boshi(app)
    if not ildizmi and docname not in raqamlar:
        return
    bob = docname if docname in boshlar else next(
        (b for b in boshlar if raqamlar.get(b) == raqamlar.get(docname)), None)
    darslar = bob_sahifalari(raqamlar, bob) if bob else []
    notebook = _notebookmi(app, docname)
    if not ildizmi and docname not in boshlar and not notebook:
        return                                   # a lesson page without code (a glossary)
    bolim = next(iter(doctree.findall(nodes.section)), None)
    if bolim is None or not isinstance(bolim[0], nodes.title):
        raise ExtensionError(f"{app.env.doc2path(docname)}: a chapter must start with a title "
                             "(a '# ...' heading) for its download line to go under it")
    kengaytma = Path(app.env.doc2path(docname)).suffix
    if ildizmi:
        satr = ildiz_html(docname, pdf_nomi(app))
    elif docname in boshlar and not darslar:
        satr = yuklab_html(docname, pdf_nomi(app), notebook, kengaytma)
    elif docname in boshlar:
        satr = bob_html(docname, pdf_nomi(app), [posixpath.basename(d) for d in darslar
                                                  if _dars_notebookmi(app, d)])
        joy = next((i for i, t in enumerate(bolim.children) if isinstance(t, nodes.compound)
                    and "toctree-wrapper" in t["classes"]), len(bolim.children))
        for i, tugun in enumerate(_darslar_royxati(app, docname, darslar)):
            bolim.insert(joy + i, tugun)
    else:
        satr = dars_html(docname, bob, kengaytma)
    bolim.insert(1, nodes.raw("", satr, format="html"))


# --- the files of the download line --------------------------------------------------

def bob_talablari(ildiz: Path) -> str:
    """requirements.txt of the archive: the lock's pins of the packages marked [bob].

    A pin's local label (``+cpu``) is left out: the same release, any build of it.
    """
    for nom in ("requirements.txt", "requirements.lock"):
        if not (ildiz / nom).is_file():
            raise ExtensionError(f"{ildiz / nom} is missing: a notebook chapter's archive gets its "
                                 f"requirements from requirements.txt (lines marked {BOB_BELGISI}) "
                                 "pinned by requirements.lock")
    kerak = []
    for qator in (ildiz / "requirements.txt").read_text(encoding="utf-8").splitlines():
        talab, _, izoh = qator.partition("#")
        if BOB_BELGISI in izoh and talab.strip():
            kerak.append(canonicalize_name(Requirement(talab).name))
    qulf = {}
    for qator in (ildiz / "requirements.lock").read_text(encoding="utf-8").splitlines():
        if "==" in qator and not qator.startswith("#"):
            # without a local label: torch==2.13.0+cpu exists only for Linux and Windows; torch==2.13.0
            # with the CPU index (the page says how) takes it there, and PyPI's own build on a Mac
            qulf[canonicalize_name(qator.split("==")[0])] = qator.strip().split("+")[0]
    yoq = [k for k in kerak if k not in qulf]
    if yoq:
        raise ExtensionError(f"requirements.txt marks {', '.join(yoq)} {BOB_BELGISI}, but "
                             "requirements.lock has no pin for it; run make lock")
    return "".join(qulf[k] + "\n" for k in kerak)


def _zip_yoz(arxiv: zipfile.ZipFile, nom: str, baytlar: bytes) -> None:
    info = zipfile.ZipInfo(nom, date_time=ZIP_SANASI)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    arxiv.writestr(info, baytlar)


def darslar_arxivi(maqsad: Path, nom: str, darslar: list[tuple[Path, Path]], ildiz: Path) -> None:
    """Write a chapter's archive, a folder ``nom/`` that runs as it is: every lesson (its source,
    unless an .ipynb, and its executed notebook; a one-page chapter is its only lesson), the
    chapter_code modules any of them imports (the list that decides when a page re-executes:
    ``ijro.kuzatilgan_fayllar``) and requirements.txt (the packages marked ``[bob]`` in the
    project's, at the lock's versions)."""
    kodlar: set[Path] = set()
    for manba, _ in darslar:
        fmt = ijro.FORMATLAR.get(manba.suffix, "py:percent")
        kodlar |= {f for f in ijro.kuzatilgan_fayllar(manba.read_text(encoding="utf-8"), ildiz, fmt)
                   if f.suffix == ".py"}
    with zipfile.ZipFile(maqsad, "w") as arxiv:
        for manba, notebook in darslar:
            if manba.suffix != ".ipynb":
                _zip_yoz(arxiv, f"{nom}/{manba.name}", manba.read_bytes())
            _zip_yoz(arxiv, f"{nom}/{manba.stem}.ipynb", notebook.read_bytes())
        for f in sorted(kodlar):
            _zip_yoz(arxiv, f"{nom}/{f.relative_to(ildiz).as_posix()}", f.read_bytes())
        _zip_yoz(arxiv, f"{nom}/requirements.txt", bob_talablari(ildiz).encode())


def bajarilgan_notebook(app, docname: str) -> bytes:
    """The chapter's executed notebook, outputs included, as the reader downloads it: after a
    cache hit MyST-NB's ``jupyter_execute/<doc>.ipynb`` has no outputs (its glued values are
    in a file of their own), so the execution cache's executed copy is merged into it."""
    import nbformat
    from jupyter_cache import get_cache

    sozlama = app.env.mystnb_config
    yol = Path(sozlama.output_folder) / f"{docname}.ipynb"
    if not yol.is_file():
        raise ExtensionError(f"the executed notebook of {docname} is missing ({yol})")
    nb = nbformat.read(yol, as_version=4)
    try:
        _, nb = get_cache(sozlama.execution_cache_path).merge_match_into_notebook(nb)
    except KeyError:
        if not any(h.get("outputs") for h in nb.cells if h.cell_type == "code"):
            raise ExtensionError(f"{docname}: the execution cache has no executed copy of the "
                                 "chapter and its notebook has no outputs; build with "
                                 "execute_notebooks: cache") from None
    return nbformat.writes(nb).encode("utf-8")


#: Pages Sphinx writes that are no document of the book.
SPHINX_SAHIFALARI = {"search", "genindex", "py-modindex", "index"}      # index: the root redirect
#: What a page brings beside it: its downloads and its source copy.
YONIDAGILAR = (".html", ".ipynb", ".py", ".md", ".zip")


def eski_fayllar(sayt: Path, hujjatlar: set[str]) -> list[Path]:
    """Files an earlier build wrote for documents the book no longer has (Sphinx writes the
    pages it has and leaves the others): their pages, downloads and ``_sources`` copies."""
    eski = []
    for sahifa in sorted(sayt.rglob("*.html")):
        nom = sahifa.relative_to(sayt)
        if nom.parts[0].startswith("_"):
            continue
        doc = nom.with_suffix("").as_posix()
        if doc in hujjatlar or doc in SPHINX_SAHIFALARI:
            continue
        eski += [f for k in YONIDAGILAR if (f := sayt / f"{doc}{k}").is_file()]
        eski += sorted((sayt / "_sources").glob(f"{doc}.*"))
    for arxiv in sorted(sayt.rglob("*.zip")):      # an archive of a chapter whose page is gone
        papka = posixpath.normpath(arxiv.parent.relative_to(sayt).as_posix())
        egasi = {posixpath.normpath(f"{papka}/{arxiv.stem}")}              # a one-page chapter's
        if posixpath.basename(papka) == arxiv.stem:
            egasi.add(f"{papka}/index")                                    # a chapter of lessons'
        if not egasi & hujjatlar and arxiv not in eski:
            eski.append(arxiv)
    return eski


def fayllar(app) -> None:
    """After the HTML build (a step of yakun.py): each notebook page's source and executed
    notebook, each chapter's archive; the files of pages the book no longer has removed."""
    for eski in eski_fayllar(Path(app.outdir), set(app.env.found_docs)):
        eski.unlink()
    ildiz = Path(app.srcdir)
    raqamlar = _raqamlar(app)
    yozilgan: dict[str, tuple[Path, Path]] = {}
    for docname in raqamlar:
        if not _notebookmi(app, docname):
            continue
        manba = Path(app.env.doc2path(docname))
        papka = Path(app.outdir) / posixpath.dirname(docname)
        nom = posixpath.basename(docname)
        papka.mkdir(parents=True, exist_ok=True)
        if manba.suffix != ".ipynb":
            shutil.copyfile(manba, papka / f"{nom}{manba.suffix}")
        (papka / f"{nom}.ipynb").write_bytes(bajarilgan_notebook(app, docname))
        yozilgan[docname] = (manba, papka / f"{nom}.ipynb")
    for bob in sorted(_bob_boshi(app)):
        papka = Path(app.outdir) / posixpath.dirname(bob)
        darslar, nom = [yozilgan[d] for d in bob_sahifalari(raqamlar, bob) if d in yozilgan], arxiv_nomi(bob)
        if not darslar and bob in yozilgan:         # a one-page chapter: itself, under its own name
            darslar, nom = [yozilgan[bob]], posixpath.basename(bob)
        if darslar:
            papka.mkdir(parents=True, exist_ok=True)
            darslar_arxivi(papka / f"{nom}.zip", nom, darslar, ildiz)


# --- the header's download menu ----------------------------------------------------

#: The label sphinx-book-theme gives its download menu and the items in it.
MENYU, PDF_TUGMA, IPYNB_TUGMA, MANBA_TUGMA = ("download-buttons", "download-pdf-button",
                                              "download-notebook-button", "download-source-button")


def sarlavha_yuklamalari(guruh: dict, docname: str, pdf_manzil: str, notebook: bool,
                         kengaytma: str) -> dict:
    """The theme's download menu giving the book's files: its ".pdf" item (``window.print()``:
    a printout of the page) becomes a link to the book's PDF; on a notebook page the ".ipynb"
    and source items link to the files of the download line (the executed notebook, the
    lesson's source) beside the page, and a ".ipynb" item is added where the theme has none
    (it offers one only for a page written as a notebook).  Raises ExtensionError if the menu is not as expected."""
    tugmalar = {b.get("label"): b for b in guruh.get("buttons", [])}
    if PDF_TUGMA not in tugmalar:
        raise ExtensionError(f"sphinx-book-theme's download menu has no {PDF_TUGMA!r} item "
                             f"(it has {sorted(map(str, tugmalar))}); update book/_ext/qurilish/yuklamalar.py for this theme")
    nom = posixpath.basename(docname)
    yangi = []
    for b in guruh["buttons"]:
        if b.get("label") == PDF_TUGMA:
            b = {"type": "link", "url": pdf_manzil, "text": ".pdf", "icon": b.get("icon"),
                 "tooltip": "Kitobning PDF fayli", "label": PDF_TUGMA}
        elif notebook and b.get("label") == IPYNB_TUGMA:
            b = {**b, "url": f"{nom}.ipynb", "tooltip": "Bajarilgan Jupyter daftari (.ipynb)"}
        elif notebook and b.get("label") == MANBA_TUGMA and kengaytma != ".ipynb":
            b = {**b, "url": f"{nom}{kengaytma}"}
        yangi.append(b)
    if notebook and IPYNB_TUGMA not in tugmalar:       # a .py lesson: the theme offers no notebook
        yangi.insert(0, {"type": "link", "url": f"{nom}.ipynb", "text": ".ipynb", "icon": "fas fa-code",
                         "tooltip": "Bajarilgan Jupyter daftari (.ipynb)", "label": IPYNB_TUGMA})
    return {**guruh, "buttons": yangi}


def _sarlavha_menyusi(app, pagename, templatename, context, doctree) -> None:
    """html-page-context, after sphinx-book-theme (501) made its buttons: see sarlavha_yuklamalari."""
    tugmalar = context.get("header_buttons")
    if not tugmalar or pagename not in app.env.found_docs:
        return
    pdf_manzil = context["pathto"](pdf_nomi(app), 1)
    notebook = _notebookmi(app, pagename)
    kengaytma = Path(app.env.doc2path(pagename)).suffix
    context["header_buttons"] = [
        sarlavha_yuklamalari(g, pagename, pdf_manzil, notebook, kengaytma) if g.get("label") == MENYU else g
        for g in tugmalar]


# --- the root page -------------------------------------------------------------------

def _yonaltirish(app) -> None:
    """builder-inited (once sphinx-external-toc has set the root page): the site's root
    ``index.html`` is ``book/_templates/yonaltirish.html``, a page that sends the browser to the
    root page (its description comes from ``sahifa.py``, as every page's does)."""
    if app.config.root_doc != "index":
        app.config.html_additional_pages.setdefault("index", "yonaltirish.html")


def setup(app):
    app.connect("doctree-read", _yuklab_qatori)
    app.connect("builder-inited", _yonaltirish)
    app.connect("html-page-context", _sarlavha_menyusi, priority=600)   # after the theme's (501)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
