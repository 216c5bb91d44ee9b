"""Build side: every chapter's downloads, made from its pages and executed notebooks (a Sphinx extension).

A download line under each chapter's title, made here rather than typed into the chapter
(``_yuklab_qatori``), each link with its file's size (``_yuklab_hajmlari``); the files it
names — each lesson's notebook and script as its page reads (``daftar.py``) and each
chapter's archive with a README — written beside the pages before they are written
(``_daftarlar``), old files removed when the HTML build finishes (``fayllar``, a step of
``yakun.py``); the theme's header menu giving the same files (``sarlavha_yuklamalari``); the
site's root ``index.html`` sending the browser to the root page (``_yonaltirish``).  The
chapters are those of ``raqamlash.py``; the PDF's name is the LaTeX target of ``_config.yml``.
"""

from __future__ import annotations

import functools
import html
import json
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
    """The book's PDF: the LaTeX target of ``_config.yml`` (``latex: latex_documents:
    targetname``), as tools/qurish.py reads it.  Jupyter Book puts it into ``latex_documents``
    only after the Sphinx application is made, after builder-inited, when the downloads' sizes
    are first needed; so it is read from the file, and ``latex_documents`` only for a book
    without one."""
    yml = Path(app.srcdir) / "_config.yml"
    nom = _latex_nomi(str(yml), yml.stat().st_mtime_ns) if yml.is_file() else None
    return Path(nom or app.config.latex_documents[0][1]).with_suffix(".pdf").name


@functools.lru_cache(maxsize=4)
def _latex_nomi(yml: str, _mtime_ns: int) -> str | None:
    """``latex: latex_documents: targetname`` of a ``_config.yml`` (read once per version of it:
    pdf_nomi is asked on every page)."""
    import yaml

    sozlama = yaml.safe_load(Path(yml).read_text(encoding="utf-8")) or {}
    return (sozlama.get("latex") or {}).get("latex_documents", {}).get("targetname")


def _notebookmi(app, docname: str) -> bool:
    from myst_nb.sphinx_ import NbMetadataCollector

    return NbMetadataCollector.get_exec_data(app.env, docname) is not None


#: How to run what was downloaded, after the sentence saying what the archive holds.
ISHGA_TUSHIRISH = (
    "Arxiv papkasida <code>pip install -r requirements.txt jupyterlab</code> buyrugʻini bajaring, "
    "soʻng {nimani} JupyterLabda ochib, hamma kataklarni ishga tushiring; batafsil yoʻriqnoma arxivdagi "
    "<code>README.md</code> faylida.")


def hajm_matni(bayt: int) -> str:
    """A file's size the Uzbek way: "758 kB", "2,15 MB" (10³ and 10⁶ bytes; under 1 000 kB no
    digit group to space, so no need of the book's chapter_code/bichim.py, which a book may lack)."""
    if bayt < 999_500:
        return f"{max(1, round(bayt / 1000))}\u00a0kB"
    mb = f"{bayt / 1e6:.2f}".replace(".", ",")
    if bayt >= 999_995_000:
        raise ExtensionError(f"a download of {bayt} bytes: write its size with digit groups")
    return f"{mb}\u00a0MB"


def _hajmsiz(_manzil: str) -> str:
    return ""


#: The line a download line's folded note opens with.
IZOH_SARLAVHASI = "Kodni oʻz kompyuteringizda ishga tushirish"


def _qator(havolalar: list[tuple[str, str]], izoh: str = "", hajm=_hajmsiz) -> str:
    """A download line of (address, label) links, each with its size where ``hajm`` knows it
    (``hajm(address)`` is "758 kB" or ""), and the note under it if any."""
    def yorliq(h, nom):
        olcham = hajm(h)
        return f"{nom[:-1]}, {olcham})" if olcham and nom.endswith(")") else (
            f"{nom} ({olcham})" if olcham else nom)
    ichi = " · ".join(f'<a href="{html.escape(h)}" download>{yorliq(h, nom)}</a>' for h, nom in havolalar)
    # the note on running the code is folded under one line: the page's own first sentence
    # follows the download line, not nine lines of instructions (issue 46)
    return (f'<p class="yuklab-olish">Yuklab olish: {ichi}</p>\n'
            + (f'<details class="yuklab-izoh"><summary>{IZOH_SARLAVHASI}</summary>\n<p>{izoh}</p>\n'
               "</details>\n" if izoh else ""))


def _pdf(docname: str, pdf: str) -> str:
    return posixpath.relpath(pdf, posixpath.dirname(docname) or ".")


def _manbalar(docname: str) -> list[tuple[str, str]]:
    """A notebook page's downloads: its notebook and its script, both as the page reads
    (daftar.py), whatever its source's format."""
    nom = posixpath.basename(docname)
    return [(f"{nom}.ipynb", "Jupyter daftari (.ipynb)"), (f"{nom}.py", "Python skripti (.py)")]


def yuklab_html(docname: str, pdf: str, notebook: bool, hajm=_hajmsiz) -> str:
    """The download line (and, for a notebook, how to run it) of the one-page chapter ``docname``."""
    if not notebook:
        return _qator([(_pdf(docname, pdf), "PDF")], hajm=hajm)
    nom = posixpath.basename(docname)
    return _qator([(_pdf(docname, pdf), "PDF"), *_manbalar(docname),
                   (f"{nom}.zip", "ishga tushirish uchun toʻplam (.zip)")],
                  f"Bob kodini oʻzingiz ishga tushirish uchun .zip arxivini oching: unda bob "
                  f"(<code>{html.escape(nom)}.ipynb</code> va <code>.py</code>), u import qiladigan "
                  "<code>chapter_code/</code> modullari, <code>requirements.txt</code> va "
                  "<code>README.md</code> bor. " + ISHGA_TUSHIRISH.format(
                      nimani=f"<code>{html.escape(nom)}.ipynb</code> ni"), hajm)


def bob_html(docname: str, pdf: str, darslar: list[str], hajm=_hajmsiz) -> str:
    """The opening page of a chapter of lessons: the PDF and the chapter's archive."""
    havolalar = [(_pdf(docname, pdf), "PDF"), (arxiv_nomi(docname) + ".zip", "bobning hamma darslari (.zip)")]
    if not darslar:
        return _qator(havolalar, hajm=hajm)
    return _qator(havolalar, (
        "Bob kodini oʻzingiz ishga tushirish uchun .zip arxivini oching: unda har bir darsning Jupyter "
        "daftari (<code>.ipynb</code>) va Python skripti (<code>.py</code>), ular import qiladigan "
        "<code>chapter_code/</code> modullari, <code>requirements.txt</code> va <code>README.md</code> "
        "bor. " + ISHGA_TUSHIRISH.format(
            nimani=f"darslarni (<code>{html.escape(darslar[0])}.ipynb</code> faylidan boshlab)")), hajm)


def dars_html(docname: str, bob: str, hajm=_hajmsiz) -> str:
    """A lesson's download line: its notebook, its script and the chapter's archive."""
    arxiv = posixpath.relpath(posixpath.join(posixpath.dirname(bob), arxiv_nomi(bob) + ".zip"),
                              posixpath.dirname(docname) or ".")
    return _qator([*_manbalar(docname), (arxiv, "bobning hamma darslari (.zip)")],
                  "Daftarda sahifadagi matn, kod va natijalar bor, skriptda esa matn va kod. Ularni "
                  "ishga tushirish uchun bobning .zip arxivini oling: unda hamma darslar, ular "
                  "import qiladigan <code>chapter_code/</code> modullari, <code>requirements.txt</code> "
                  "va <code>README.md</code> bor.", hajm)


def ildiz_html(docname: str, pdf: str, hajm=_hajmsiz) -> str:
    """The root page's line: the whole book as one PDF."""
    manzil = _pdf(docname, pdf)
    olcham = hajm(manzil)
    return (f'<p class="yuklab-olish"><a href="{html.escape(manzil)}" download>PDF yuklab olish'
            f'{f" ({olcham})" if olcham else ""}</a> — butun bob bitta faylda, chop etish uchun.</p>\n')


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
    return [nodes.rubric("", "Bob tarkibi"), royxat, izoh]


def _yuklab_qatori(app, doctree) -> None:
    """doctree-read: the download line under a page's title (the PDF's under the root's), its
    HTML made when the page is written.  A one-page chapter offers PDF, notebook, script,
    archive; a chapter of lessons' opening page the PDF and the archive, and lists the lessons;
    each lesson that is a notebook its notebook, its script and the archive."""
    docname = app.env.docname
    ildizmi = docname == app.config.root_doc
    raqamlar, boshlar = _raqamlar(app), _bob_boshi(app)
    if not ildizmi and docname not in raqamlar:
        return
    bob = _bobi(app, docname)
    darslar = bob_sahifalari(raqamlar, bob) if bob else []
    notebook = _notebookmi(app, docname)
    if not ildizmi and docname not in boshlar and not notebook:
        return                                   # a lesson page without code (a glossary)
    bolim = next(iter(doctree.findall(nodes.section)), None)
    if bolim is None or not isinstance(bolim[0], nodes.title):
        raise ExtensionError(f"{app.env.doc2path(docname)}: a chapter must start with a title "
                             "(a '# ...' heading) for its download line to go under it")
    if ildizmi:
        tur, argumentlar = "ildiz", [docname, pdf_nomi(app)]
    elif docname in boshlar and not darslar:
        tur, argumentlar = "bir", [docname, pdf_nomi(app), notebook]
    elif docname in boshlar:
        tur, argumentlar = "bob", [docname, pdf_nomi(app), [posixpath.basename(d) for d in darslar
                                                            if _dars_notebookmi(app, d)]]
        joy = next((i for i, t in enumerate(bolim.children) if isinstance(t, nodes.compound)
                    and "toctree-wrapper" in t["classes"]), len(bolim.children))
        for i, tugun in enumerate(_darslar_royxati(app, docname, darslar)):
            bolim.insert(joy + i, tugun)
    else:
        tur, argumentlar = "dars", [docname, bob]
    # the line itself is written when the page is (_yuklab_hajmlari): the files' sizes are known then
    bolim.insert(1, nodes.raw("", "", format="html", classes=[YUKLAB_SINFI], kitob_yuklab=[tur, argumentlar]))


#: The download line's node until the page is written; what makes its HTML.
YUKLAB_SINFI = "kitob-yuklab"
QATORLAR = {"ildiz": ildiz_html, "bir": yuklab_html, "bob": bob_html, "dars": dars_html}


def fayl_hajmi(app, docname: str):
    """``hajm(address)`` for ``docname``'s page: the size of the file an address beside the page
    names, in the site being built or, for the PDF (built before the site: tools/qurish.py), in
    the LaTeX build's folder; "" for a file not there (an HTML-only ``jupyter-book build``)."""
    pdf = pdf_nomi(app)

    def hajm(manzil: str) -> str:
        yol = posixpath.normpath(posixpath.join(posixpath.dirname(docname), manzil))
        fayl = pdf_fayli(app) if yol == pdf else Path(app.outdir) / yol
        return hajm_matni(fayl.stat().st_size) if fayl.is_file() else ""
    return hajm


def latex_papkasi(yozuv: str = "") -> str:
    """The folder of ``_build`` the PDF is made in: ``latex``, or an edition's (``kitob_yozuv``)
    ``yozuv-<name>-latex`` (tools/yozuvda.py)."""
    return f"yozuv-{yozuv}-latex" if yozuv else "latex"


def pdf_fayli(app) -> Path:
    """The book's PDF as the site will publish it: the LaTeX build's, made just before the site
    (tools/qurish.py, tools/yozuvda.py); else the copy the last build left beside the pages (an
    HTML-only build)."""
    yangi = Path(app.outdir).parent / latex_papkasi(app.config.kitob_yozuv) / pdf_nomi(app)
    return yangi if yangi.is_file() else Path(app.outdir) / pdf_nomi(app)


def _yuklab_hajmlari(app, doctree, docname) -> None:
    """doctree-resolved: each download line's HTML, its files' sizes in it."""
    for tugun in list(doctree.findall(nodes.raw)):
        if YUKLAB_SINFI in tugun.get("classes", []):
            tur, argumentlar = tugun["kitob_yuklab"]
            satr = QATORLAR[tur](*argumentlar, hajm=fayl_hajmi(app, docname)) if app.builder.format == "html" else ""
            tugun["classes"].remove(YUKLAB_SINFI)         # (replace_self would keep the class: a <div>)
            tugun.children = []
            tugun += nodes.Text(satr)
            tugun["kitob_matn"] = True       # the book's own words: an edition writes them in its script (yozuvda)


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


#: The archive's README: what is in it and how to run it (Uzbek, Markdown).
README = """\
# «{bob}»: darslarni oʻzingiz ishga tushiring

Bu arxivda:

- har dars ikki shaklda: Jupyter daftari ({daftarlar}) va Python skripti (`.py`);
  ikkalasida ham sahifadagi matn va kod bor, daftarda esa kitob qurilganda olingan
  natijalar (jadvallar, rasmlar, chiqishlar) ham saqlangan;
- `chapter_code/` — darslar import qiladigan umumiy kod: modellar, maʼlumot, oʻqitish,
  jadval va rasm yordamchilari;
- `requirements.txt` — kerakli paketlar, kitob sinalgan versiyalarda.

Darslarni tartib bilan oʻqing: har dars oldingisidagi gʻoyalarga tayanadi.

## Kompyuterda (venv bilan)

Python 3.11 yoki yangirogʻi kerak. Arxiv papkasida:

```
python3 -m venv .venv
. .venv/bin/activate          # Windowsda: .venv\\Scripts\\activate
pip install -r requirements.txt jupyterlab
jupyter lab
```

`requirements.txt` PyTorchni https://download.pytorch.org/whl/cpu indeksidan oladi
(undagi `--extra-index-url` qatori): bu PyTorchning CPU versiyasi, GPU versiyasidan bir
necha barobar kichik. Soʻng JupyterLabda `{birinchi}` dan boshlab daftarlarni oching va
hamma kataklarni ishga tushiring. Skriptni VS Code yoki JupyterLab `# %%` kataklari
bilan katakma-katak bajarish mumkin.

## Colabda

Daftarni Colabda oching (*File → Upload notebook*) va birinchi kod katagini bajaring:
u shu arxivni soʻraydi, ochadi va paketlarni oʻrnatadi. Keyin qolgan kataklarni bajaring.

## Natijalar kitobdagidan farq qilishi mumkin

Daftardagi sonlar kitob qurilgan kompyuterda{muhit} olingan. Vaqt
oʻlchovlari har kompyuterda boshqacha chiqadi. Modellarni oʻqitish natijalari ham boshqa
protsessorda farq qilishi mumkin, seedga sezgir modellarda sezilarli darajada: bir xil seed bilan ham hisob tartibi va
yaxlitlash boshqacha boʻladi. Darslar bunday farqqa chidamli xulosalarni oʻrgatadi;
baʼzi jumlalar esa natija seedga bogʻliq ekanini ochiq aytadi.
{vaqtlar}"""

#: The README's section on how long the lessons' computations take (``sarf_jadvali``).
VAQTLAR = """
## Qancha vaqt oladi

Modellar kichik va protsessorda oʻqitiladi. Bob qurilgan kompyuterda{muhit} darslardagi
oʻqitishlar va oʻlchovlar ketma-ket bajarilganda shuncha vaqt oldi:

| Daftar | Vaqt |
|:--|--:|
{qatorlar}

`parallel` funksiyasi bir necha modelni kompyuter yadrolarida bir vaqtda oʻqitadi, shuning
uchun koʻp yadroli kompyuterda dars bundan tezroq tugashi mumkin; sekinroq protsessorda esa
uzoqroq ketadi. Hisoblangan natijalar `_build/ombor/` papkasiga yoziladi: daftarni qayta
bajarsangiz, ular oʻsha yerdan olinadi va dars bir necha soniyada tugaydi.
"""


def vaqt_matni(soniya: float | None) -> str:
    """Seconds as the README says them: "40 soniya", "3 daqiqa" (whole minutes)."""
    if soniya is None:
        return "oʻlchanmagan"
    if soniya < 0.5:
        return "1 soniyadan kam"
    return f"{max(1, round(soniya))} soniya" if soniya < 59.5 else f"{round(soniya / 60)} daqiqa"


def sarf_jadvali(vaqtlar: list[tuple[str, float | None]], protsessor: str) -> str:
    """The README's section on time: each notebook's (name, seconds) and their sum; empty when no
    lesson's time is known (a book whose chapter_code does not keep them)."""
    if all(s is None for _, s in vaqtlar):
        return ""
    qatorlar = [f"| `{nom}` | {vaqt_matni(s)} |" for nom, s in vaqtlar]
    if len(vaqtlar) > 1:
        jami = None if any(s is None for _, s in vaqtlar) else sum(s for _, s in vaqtlar)
        qatorlar.append(f"| Jami | {vaqt_matni(jami)} |")
    return VAQTLAR.format(muhit=protsessor, qatorlar="\n".join(qatorlar))


def darslar_arxivi(maqsad: Path, nom: str, darslar: list[tuple[Path, Path, Path]], ildiz: Path,
                   readme: str) -> None:
    """Write a chapter's archive, a folder ``nom/`` that runs as it is: every lesson (its notebook
    and its script as the page reads: daftar.py), the chapter_code modules any of them imports
    and the data files beside them (the list that decides when a page re-executes:
    ``ijro.kuzatilgan_fayllar``),
    requirements.txt (the packages marked ``[bob]`` in the project's, at the lock's versions,
    with the index of PyTorch's CPU build) and a README."""
    kodlar: set[Path] = set()
    for manba, _, _ in darslar:
        fmt = ijro.FORMATLAR.get(manba.suffix, "py:percent")
        kodlar |= {f for f in ijro.kuzatilgan_fayllar(manba.read_text(encoding="utf-8"), ildiz, fmt)
                   if f.name != ijro.QULF}       # the modules and the data beside them
    with zipfile.ZipFile(maqsad, "w") as arxiv:
        _zip_yoz(arxiv, f"{nom}/README.md", readme.encode())
        for _, daftar_, skript_ in darslar:
            _zip_yoz(arxiv, f"{nom}/{daftar_.name}", daftar_.read_bytes())
            _zip_yoz(arxiv, f"{nom}/{skript_.name}", skript_.read_bytes())
        for f in sorted(kodlar):
            _zip_yoz(arxiv, f"{nom}/{f.relative_to(ildiz).as_posix()}", f.read_bytes())
        _zip_yoz(arxiv, f"{nom}/requirements.txt", (TORCH_INDEKSI + bob_talablari(ildiz)).encode())


#: The first line of an archive's requirements.txt: pip finds PyTorch's CPU build there (on a Mac,
#: PyPI's own build of the same release).
TORCH_INDEKSI = "--extra-index-url https://download.pytorch.org/whl/cpu\n"


def bajarilgan_notebook(app, docname: str) -> bytes:
    """The chapter's executed notebook, outputs included: after a cache hit MyST-NB's
    ``jupyter_execute/<doc>.ipynb`` has no outputs (its glued values are in a file of their
    own), so the execution cache's executed copy is merged into it."""
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


#: The notebook metadata key that keeps the numbers the download was written with (``raqamlar_izi``).
RAQAMLAR_KALITI = "kitob_raqamlar"


def raqamlar_izi(app) -> str:
    """A digest of what a page's download takes from the other pages: every figure's and table's
    number, every section's number and every page's title.  A lesson added before another
    renumbers the other's figures without touching its doctree, so the mtimes alone miss it."""
    import hashlib

    env = app.env
    qiymat = [sorted((d, sorted((t, sorted(v.items())) for t, v in n.items()))
                     for d, n in env.toc_fignumbers.items()),
              sorted((d, sorted(n.items())) for d, n in env.toc_secnumbers.items()),
              sorted((d, t.astext()) for d, t in env.titles.items())]
    return hashlib.sha256(json.dumps(qiymat, default=str).encode()).hexdigest()[:16]


def _eskimi(app, docname: str, *yuklamalar_: Path) -> bool:
    """Whether a page's downloads are missing or older than what they are made of: the page as
    read (its doctree; the HTML and the PDF build share it, so "read in this build" would miss
    a page the PDF build read), its executed notebook, the code that writes them, and the
    numbers and titles of the other pages (``raqamlar_izi``, kept in the notebook's metadata)."""
    if not all(y.is_file() for y in yuklamalar_):
        return True
    manbalar = [Path(app.doctreedir) / f"{docname}.doctree",
                Path(app.env.mystnb_config.output_folder) / f"{docname}.ipynb",
                Path(__file__), Path(__file__).with_name("daftar.py")]
    if max(m.stat().st_mtime for m in manbalar if m.is_file()) > min(y.stat().st_mtime for y in yuklamalar_):
        return True
    daftar_ = next((y for y in yuklamalar_ if y.suffix == ".ipynb"), None)
    try:
        yozilgan = json.loads(daftar_.read_text(encoding="utf-8"))["metadata"].get(RAQAMLAR_KALITI)
    except (AttributeError, OSError, ValueError, KeyError):
        return True
    return yozilgan != raqamlar_izi(app)


def _bobi(app, docname: str) -> str | None:
    """The chapter a page belongs to: its opening page (the page itself if it opens one)."""
    raqamlar, boshlar = _raqamlar(app), _bob_boshi(app)
    return docname if docname in boshlar else next(
        (b for b in boshlar if raqamlar.get(b) == raqamlar.get(docname)), None)


#: The sizes the pages give, as they were when the pages were last written (beside them).
HAJMLAR_FAYLI = ".kitob-hajmlar.json"


#: The pages an earlier build of the shared environment read (the PDF's, before the site's).
OQILGAN_FAYLI = ".kitob-oqilgan.json"


def _oqilganlar(app, env, docnames) -> None:
    """env-before-read-docs: the pages read by a build other than HTML are noted (the HTML and
    the PDF build share the environment: tools/qurish.py builds the PDF first, so the HTML build
    reads nothing, and Sphinx writes again only the pages whose source is newer than their HTML,
    missing one whose pasted values or build code changed); the HTML build writes them again."""
    if app.builder.format == "html" or not docnames:
        return
    fayl = Path(app.doctreedir) / OQILGAN_FAYLI
    oldin = set(json.loads(fayl.read_text(encoding="utf-8"))) if fayl.is_file() else set()
    fayl.write_text(json.dumps(sorted(oldin | set(docnames))), encoding="utf-8")


def _hajmlar_yozilganmi(app) -> None:
    """builder-inited (HTML): the downloads brought up to date before Sphinx decides which pages
    to write (tools/qurish.py has built the PDF, which read every changed page, just before).
    The record beside the pages holds the sizes every written page gives; if it is missing or
    a size has changed (the PDF's on every page's menu, an archive's on its lessons), every
    page's HTML is removed from the staging folder, so Sphinx writes each again (from its kept
    doctree: nothing is read again) with the new sizes."""
    if app.builder.format != "html":
        return
    oqilgan = Path(app.doctreedir) / OQILGAN_FAYLI       # pages the PDF build read: written again
    if oqilgan.is_file():
        for d in json.loads(oqilgan.read_text(encoding="utf-8")):
            (Path(app.outdir) / f"{d}.html").unlink(missing_ok=True)
        oqilgan.unlink()
    app._kitob_hammasi = True                    # every page is written in this build
    if not app.env.all_docs:                     # a fresh environment: nothing kept, all is read
        return
    hajmlar = _daftarlar(app)
    fayl = Path(app.outdir) / HAJMLAR_FAYLI
    if fayl.is_file() and json.loads(fayl.read_text(encoding="utf-8")) == hajmlar:
        app._kitob_hammasi = False
        return
    fayl.unlink(missing_ok=True)
    for d in app.env.found_docs:
        (Path(app.outdir) / f"{d}.html").unlink(missing_ok=True)


def _yozishdan_oldin(app, builder) -> None:
    """write-started (HTML): the downloads of pages this build has just read (the first build,
    or a plain ``jupyter-book build`` with no PDF build before it).  If every page is written
    now, the record is their sizes; if some are not and a size changed, those give the old one:
    the record is removed, so the next build writes every page again."""
    if builder.format != "html":
        return
    hajmlar = _daftarlar(app)
    fayl = Path(app.outdir) / HAJMLAR_FAYLI
    if getattr(app, "_kitob_hammasi", True) or (
            fayl.is_file() and json.loads(fayl.read_text(encoding="utf-8")) == hajmlar):
        fayl.parent.mkdir(parents=True, exist_ok=True)
        fayl.write_text(json.dumps(hajmlar, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    else:
        fayl.unlink(missing_ok=True)


def _sarfi(dars: str, manba: Path, ildiz: Path) -> float | None:
    """The seconds a lesson's stored computations took, as its kernel kept them
    (``chapter_code.muhit.sarf``): 0 for a lesson that never imports the module that keeps them
    (it has none), None when not known (the tests' small books keep no time)."""
    if not ijro.muhit:
        return None
    fmt = ijro.FORMATLAR.get(manba.suffix, "py:percent")
    if Path(ijro.muhit.__file__).resolve() not in {
            f.resolve() for f in ijro.kuzatilgan_fayllar(manba.read_text(encoding="utf-8"), ildiz, fmt)}:
        return 0.0
    return ijro.muhit.sarf_oqi(dars)


def _daftarlar(app) -> dict[str, str]:
    """Each notebook page's download, its notebook and its script as the page reads (daftar.py),
    written again when missing or older than what it is made of (``_eskimi``); then each
    chapter's archive.  Returns the sizes the pages give: file -> "758 kB"."""
    import nbformat

    from . import daftar

    env = app.env
    # the processor, if the book's chapter_code can name it (ijro's door; the tests' small books: no)
    protsessor = f" ({ijro.muhit.protsessor()[0]} protsessori)" if ijro.muhit else ""
    raqamlar = _raqamlar(app)
    # (by the source's format: MyST-NB's own record is not there before the pages are read again)
    darslar = [d for d in raqamlar if _dars_notebookmi(app, d)]
    yozilgan: dict[str, tuple[Path, Path, Path]] = {}
    for d in darslar:
        papka, nom = Path(app.outdir) / posixpath.dirname(d), posixpath.basename(d)
        ipynb, py = papka / f"{nom}.ipynb", papka / f"{nom}.py"
        yozilgan[d] = (Path(env.doc2path(d)), ipynb, py)
        if not _eskimi(app, d, ipynb, py):
            continue
        bob = _bobi(app, d)
        bob_nomi, dars_nomi = env.titles[bob].astext() if bob else "", env.titles[d].astext()
        qism = daftar.qismlar(app, d, env.get_and_resolve_doctree(d, app.builder), set(darslar))
        bajarilgan = nbformat.reads(bajarilgan_notebook(app, d).decode("utf-8"), as_version=4)
        arxiv = arxiv_nomi(bob) if bob and bob != d else nom
        nb = daftar.daftar(qism, bajarilgan, daftar.BOSHI.format(
            bob=bob_nomi, dars=dars_nomi, muhit=protsessor) if bob != d else daftar.BOSHI_BIR.format(
            bob=bob_nomi, muhit=protsessor), daftar.COLAB.format(arxiv=f"{arxiv}.zip", papka=arxiv),
            {i: app.config.numfig_format[tur] % ".".join(map(str, son))     # "1.4-jadval"
             for tur, sonlar in env.toc_fignumbers.get(d, {}).items() for i, son in sonlar.items()})
        nb.metadata[RAQAMLAR_KALITI] = raqamlar_izi(app)
        papka.mkdir(parents=True, exist_ok=True)
        ipynb.write_text(nbformat.writes(nb) + "\n", encoding="utf-8")
        py.write_text(daftar.skript(nb), encoding="utf-8")
    ildiz = Path(app.srcdir)
    for bob in sorted(_bob_boshi(app)):
        papka = Path(app.outdir) / posixpath.dirname(bob)
        sahifalar, nom = [d for d in bob_sahifalari(raqamlar, bob) if d in yozilgan], arxiv_nomi(bob)
        if not sahifalar and bob in yozilgan:         # a one-page chapter: itself, under its own name
            sahifalar, nom = [bob], posixpath.basename(bob)
        bobnikilar = [yozilgan[d] for d in sahifalar]
        if bobnikilar:
            papka.mkdir(parents=True, exist_ok=True)
            vaqtlar = [(yozilgan[d][1].name, _sarfi(d, yozilgan[d][0], ildiz)) for d in sahifalar]
            readme = README.format(bob=env.titles[bob].astext(), muhit=protsessor,
                                   daftarlar=", ".join(f"`{i.name}`" for _, i, _ in bobnikilar),
                                   birinchi=bobnikilar[0][1].name,
                                   vaqtlar=sarf_jadvali(vaqtlar, protsessor))
            darslar_arxivi(papka / f"{nom}.zip", nom, bobnikilar, ildiz, readme)
    fayllar_ = [pdf_fayli(app), *Path(app.outdir).rglob("*.zip"),
                *(y for _, i, p in yozilgan.values() for y in (i, p))]
    return {f.name if f.suffix == ".pdf" else f.relative_to(app.outdir).as_posix(): hajm_matni(f.stat().st_size)
            for f in fayllar_ if f.is_file()}


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
    """After the HTML build (a step of yakun.py): the files of pages the book no longer has
    removed; each notebook page's downloads there (written before the pages: _daftarlar)."""
    for eski in eski_fayllar(Path(app.outdir), set(app.env.found_docs)):
        eski.unlink()
    for docname in _raqamlar(app):
        if _notebookmi(app, docname):
            for k in (".ipynb", ".py"):
                if not (Path(app.outdir) / f"{docname}{k}").is_file():
                    raise ExtensionError(f"the download {docname}{k} was not written")


# --- the header's download menu ----------------------------------------------------

#: The label sphinx-book-theme gives its download menu and the items in it.
MENYU, PDF_TUGMA, IPYNB_TUGMA, MANBA_TUGMA = ("download-buttons", "download-pdf-button",
                                              "download-notebook-button", "download-source-button")


def sarlavha_yuklamalari(guruh: dict, docname: str, pdf_manzil: str, notebook: bool, hajm=_hajmsiz) -> dict:
    """The theme's download menu giving the book's files, each named and sized as on the download
    line: its ".pdf" item (``window.print()``: a printout of the page) becomes a link to the book's
    PDF; on a notebook page its ".ipynb" and source items link to the lesson's notebook and script
    beside the page (daftar.py; added where the theme has none); a page that is no notebook offers
    no source (its MyST, which a reader cannot use).  Raises ExtensionError if the menu is not as
    expected."""
    tugmalar = {b.get("label"): b for b in guruh.get("buttons", [])}
    if PDF_TUGMA not in tugmalar:
        raise ExtensionError(f"sphinx-book-theme's download menu has no {PDF_TUGMA!r} item "
                             f"(it has {sorted(map(str, tugmalar))}); update book/_ext/qurilish/yuklamalar.py for this theme")
    nom = posixpath.basename(docname)

    def tugma(b, manzil, matn, izoh):
        olcham = hajm(manzil)
        return {**b, "type": "link", "url": manzil, "text": f"{matn[:-1]}, {olcham})" if olcham else matn,
                "tooltip": izoh, "label": b.get("label")}
    pdf = tugma({"icon": tugmalar[PDF_TUGMA].get("icon"), "label": PDF_TUGMA}, pdf_manzil, "Bob (PDF)",
                "Bobning PDF fayli")
    pdf.pop("javascript", None)
    if not notebook:
        return {**guruh, "buttons": [pdf]}
    ikon = (tugmalar.get(IPYNB_TUGMA) or {}).get("icon", "fas fa-code")
    return {**guruh, "buttons": [
        tugma({"icon": ikon, "label": IPYNB_TUGMA}, f"{nom}.ipynb", "Jupyter daftari (.ipynb)",
              "Darsning Jupyter daftari: sahifadagi matn, kod va natijalar"),
        tugma({"icon": (tugmalar.get(MANBA_TUGMA) or {}).get("icon", "fas fa-file"), "label": MANBA_TUGMA},
              f"{nom}.py", "Python skripti (.py)", "Darsning Python skripti: matni izohlarda"),
        pdf]}


def _sarlavha_menyusi(app, pagename, templatename, context, doctree) -> None:
    """html-page-context, after sphinx-book-theme (501) made its buttons: see sarlavha_yuklamalari."""
    tugmalar = context.get("header_buttons")
    if not tugmalar or pagename not in app.env.found_docs:
        return
    pdf_manzil = context["pathto"](pdf_nomi(app), 1)
    notebook = _notebookmi(app, pagename)
    hajm = fayl_hajmi(app, pagename)
    context["header_buttons"] = [
        sarlavha_yuklamalari(g, pagename, pdf_manzil, notebook, hajm) if g.get("label") == MENYU else g
        for g in tugmalar]


# --- the root page -------------------------------------------------------------------

def _yonaltirish(app) -> None:
    """builder-inited (once sphinx-external-toc has set the root page): the site's root
    ``index.html`` is ``book/_templates/yonaltirish.html``, a page that sends the browser to the
    root page (its description comes from ``sahifa.py``, as every page's does)."""
    if app.config.root_doc != "index":
        app.config.html_additional_pages.setdefault("index", "yonaltirish.html")


def setup(app):
    # sphinx-markdown-builder's settings, which its translator reads (daftar.py); its builder unused
    app.setup_extension("sphinx_markdown_builder")
    app.connect("doctree-read", _yuklab_qatori)
    app.connect("env-before-read-docs", _oqilganlar)
    app.connect("builder-inited", _hajmlar_yozilganmi, priority=900)   # after the environment's set-up
    app.connect("write-started", _yozishdan_oldin)
    app.connect("doctree-resolved", _yuklab_hajmlari)
    app.connect("builder-inited", _yonaltirish)
    app.connect("html-page-context", _sarlavha_menyusi, priority=600)   # after the theme's (501)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
