"""Kitob yordamchilari: bobdagi diagrammalar, jadvallar va rasmlar.

Bob uchta yordamchini chaqiradi; nomlari bobning dastlabki variantidagidek yozilgan:

* ``diagramma(qutilar, yoylar, nom, izoh)`` quti va strelkalardan iborat diagramma chizadi;
* ``show(df, izoh=None, nom=None)`` ``DataFrame`` ni haqiqiy jadval sifatida koʻrsatadi;
* ``fig(nom, caption)`` joriy matplotlib rasmini saqlaydi va koʻrsatadi.

Har yordamchi biror narsa chizishi yoki yozishidan oldin argumentlarini tekshiradi va
notoʻgʻri qiymatni hamda toʻgʻrisi qanday boʻlishini aytadigan ``ValueError``/``TypeError``
chiqaradi.  Rasm va jadvallar kitobga MyST markdown chiqishi (``{glue:figure}`` yoki
``{table}`` direktivasi) sifatida yetib boradi; shuning uchun Sphinx ularni bob ichida
raqamlaydi («1.1-rasm», «1.1-jadval»), ``{numref}`` uchun nishon beradi va veb uchun
HTMLga, PDF uchun LaTeXga (booktabs) aylantiradi.  Rasmning tasviri MyST-NBning ``glue``
funksiyasi bilan PNG (veb uchun) va PDF (vektor, bosma uchun) shaklida saqlanadi; uni
``{glue:figure}`` direktivasi sahifaga qoʻyadi.  Koddan keladigan har matn markdownga
qoʻyilishidan oldin ekranlanadi (escape), shuning uchun jadval katagidagi ``<script>``
matnligicha qoladi; faqat izohdagi ``*T*`` kabi oʻzgaruvchi (bir–uch lotin harfi) darslar
matnidagidek kursiv boʻladi.

Oʻquvchi yoki muallif oʻzgartirmoqchi boʻlishi mumkin boʻlgan sozlamalar (diagramma
turlarining ranglari, rasm aniqligi, rasm fayllari yoziladigan papka) bitta joyda —
``SOZLAMA`` da.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import html
import io
import json
import os
import pkgutil
import re
import string
import sys
from pathlib import Path

import matplotlib.colors as mcolors
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch
from matplotlib.text import Text
from myst_nb import glue

from chapter_code import ILDIZ
from chapter_code.bichim import oqlarni_ozbekcha, son

#: The one place for settings of the book helpers.
SOZLAMA = {
    # kind of box -> (fill colour, edge colour); colour-blind safe (Okabe-Ito).
    "ranglar": {
        "manba": ("#d6e9f8", "#0072b2"),   # source: where the data starts
        "xizmat": ("#fde9cc", "#e69f00"),  # service: a step that processes it
        "qayta": ("#d4f0e6", "#009e73"),   # again / the better path
    },
    "dpi": 150,                 # resolution of raster pictures
    "shrift": 15,               # largest font size of a diagram label (pt)
    "eng_kichik_shrift": 8,     # labels shrink down to this size to fit their box
    "birlik_dyuym": 1.0,        # inches of picture per unit of diagram coordinates
    # a figure's text must read at phone width: the width (CSS px) a figure is shown at on a
    # 390 px phone (tests/test_brauzer.py measures it) and the least size of its text there
    "telefon_px": 342,
    "eng_kichik_px": 9.0,
    # the folder the picture files are written to (inside the build folder)
    "rasm_papkasi": Path(os.environ.get("KITOB_RASM_PAPKASI", ILDIZ / "_build" / "rasmlar")),
}

#: matplotlib's text size for the chapter's figures (every label, tick and legend: their
#: defaults are relative to it): 11 pt reads on a 390 px phone in a figure up to 5.8 in wide.
plt.rcParams["font.size"] = 11

_RASM_KENGAYTMALARI = (".png", ".pdf")
_NOM_QOLIPI = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")


# --------------------------------------------------------------------------
# escaping
# --------------------------------------------------------------------------
def yopishtir(**qiymatlar) -> None:
    """Har qiymatni oʻz nomi bilan matnga beradi (``myst_nb.glue``, ``display=False``):
    ``yopishtir(a=1, b=2)`` — ``glue("a", 1, display=False)`` va ``glue("b", 2, ...)``.
    Darslarning yashirin kataklari qisqa boʻladi: bir nechta son bitta chaqiriqda."""
    if not qiymatlar:
        raise ValueError("yopishtir(): hech qanday qiymat berilmadi; yopishtir(nom=qiymat, ...) deb chaqiring")
    for nom, qiymat in qiymatlar.items():
        glue(nom, qiymat, display=False)


def md_escape(matn: object) -> str:
    """Matnni MyST markdown uchun ekranlaydi: u yozilganicha, aynan koʻrinadi.

    CommonMark istalgan ASCII tinish belgisini teskari chiziq (backslash) bilan
    ekranlashga ruxsat beradi, shuning uchun hammasi ekranlanadi: ``<script>`` matn
    boʻlib qoladi, ``$x$`` formula boʻlmaydi, ``|`` jadval katagini boʻlmaydi.  Qator
    uzilishlari boʻshliqqa aylanadi; ingichka uzilmas boʻshliq (U+202F: ``bichim.son``
    35 333 ni shunday yozadi) saqlanadi.
    """
    return _ekranla(_bir_qator(matn))


def _bir_qator(matn: object) -> str:
    # only ordinary whitespace collapses: the narrow no-break space of "35 333" and "61 %" stays
    return re.sub(r"[ \t\r\n\f\v]+", " ", str(matn)).strip(" ")


def _ekranla(s: str) -> str:
    return "".join("\\" + c if c in string.punctuation else c for c in s)


#: Izohdagi oʻzgaruvchi, matndagidek kursivda: ``*T*``, ``*d*`` (bir–uch lotin harfi).
KURSIV = re.compile(r"\*([A-Za-z]{1,3})\*")


def izoh_md(izoh: object) -> str:
    """Rasm yoki jadval izohi MyST markdownda: ``md_escape`` kabi ekranlanadi, faqat
    ``*T*`` kabi oʻzgaruvchi kursiv boʻlib qoladi (darslar matni ularni shunday yozadi)."""
    qismlar = KURSIV.split(_bir_qator(izoh))        # juft oʻrinlarda matn, toqlarida oʻzgaruvchi
    return "".join(_ekranla(q) if i % 2 == 0 else f"*{q}*" for i, q in enumerate(qismlar))


def izoh_html(izoh: object) -> str:
    """Izoh HTMLda (JupyterLab va interaktiv xarita): ``*T*`` — ``<i>T</i>``."""
    return KURSIV.sub(r"<i>\1</i>", html.escape(str(izoh)))


def izoh_matn(izoh: object) -> str:
    """Izoh oddiy matnda: ``*T*`` — ``T``."""
    return KURSIV.sub(r"\1", str(izoh))


# --------------------------------------------------------------------------
# argument checks
# --------------------------------------------------------------------------
def _tekshir_nom(nom: object) -> Path:
    """Rasm fayli nomini tekshiradi va rasm qayerga yozilishini qaytaradi.

    Nom — papkasiz (``..`` ham yoʻq), .png yoki .pdf bilan tugaydigan oddiy fayl nomi;
    shunday qilib rasm hech qachon yigʻish papkasidan tashqariga yozilmaydi.
    """
    if not isinstance(nom, str):
        raise TypeError(f"nom must be a file name string such as 'rasm.png', got {type(nom).__name__}: {nom!r}")
    yol = Path(nom)
    if yol.is_absolute() or len(yol.parts) != 1 or nom != yol.name:
        raise ValueError(
            f"nom={nom!r} is not a bare file name: pictures are written only inside "
            f"{SOZLAMA['rasm_papkasi']}; give a name such as 'rasm.png' with no folder"
        )
    if yol.suffix.lower() not in _RASM_KENGAYTMALARI or not _NOM_QOLIPI.match(yol.stem):
        raise ValueError(
            f"nom={nom!r} must be letters, digits, '_' or '-' followed by one of "
            f"{', '.join(_RASM_KENGAYTMALARI)} (for example 'yol_uzunligi.png')"
        )
    return SOZLAMA["rasm_papkasi"] / yol.name


def _tekshir_matn(qiymat: object, nomi: str) -> str:
    if not isinstance(qiymat, str) or not qiymat.strip():
        raise ValueError(f"{nomi} must be a non-empty string, got {qiymat!r}")
    return qiymat


def _tekshir_diagramma(qutilar, yoylar) -> None:
    if not isinstance(qutilar, dict) or not qutilar:
        raise TypeError(
            "qutilar must be a non-empty dict {label: (x, y, w, h, kind)}, "
            f"got {type(qutilar).__name__}: {qutilar!r}"
        )
    turlar = SOZLAMA["ranglar"]
    for yorliq, quti in qutilar.items():
        if not isinstance(quti, (tuple, list)) or len(quti) != 5:
            raise ValueError(f"box {yorliq!r} must be (x, y, w, h, kind), got {quti!r}")
        *raqamlar, tur = quti
        if not all(isinstance(r, (int, float)) and not isinstance(r, bool) for r in raqamlar):
            raise TypeError(f"box {yorliq!r}: x, y, w, h must be numbers, got {tuple(raqamlar)!r}")
        if tur not in turlar:
            raise ValueError(
                f"box {yorliq!r} has unknown kind {tur!r}; valid kinds: {', '.join(sorted(turlar))}"
            )
        if raqamlar[2] <= 0 or raqamlar[3] <= 0:
            raise ValueError(
                f"box {yorliq!r} has width={raqamlar[2]!r}, height={raqamlar[3]!r}; both must be positive"
            )
    if not isinstance(yoylar, (list, tuple)):
        raise TypeError(f"yoylar must be a list of (from, to) pairs, got {type(yoylar).__name__}")
    for yoy in yoylar:
        if not isinstance(yoy, (tuple, list)) or len(yoy) != 2:
            raise ValueError(f"edge {yoy!r} must be a (from, to) pair of box labels")
        for uchi in yoy:
            if uchi not in qutilar:
                raise ValueError(
                    f"edge {tuple(yoy)!r} names box {uchi!r}, which does not exist; "
                    f"boxes: {', '.join(map(repr, qutilar))}"
                )


# --------------------------------------------------------------------------
# output: what the notebook cell displays
# --------------------------------------------------------------------------
def _display(bundle: dict, metadata: dict | None = None) -> None:
    """Xom mime toʻplamini ishlab turgan Jupyter yadrosi orqali chiqaradi (testlar bu
    funksiyani almashtiradi)."""
    from IPython.display import display

    display(bundle, raw=True, metadata=metadata or {})


#: The PNG text chunk that carries the size (pt) of a figure's smallest text, for the
#: browser test that checks it at phone width.
SHRIFT_KALITI = "Kitob-eng-kichik-shrift"


def eng_kichik_matn(figura: Figure) -> tuple[float, str]:
    """Rasm ichida chizilgan eng kichik matn, (oʻlchami pt hisobida, matni): oʻq nomlari,
    oʻq belgilari, legendalar, annotatsiyalar va diagramma yozuvlari — hammasi birga."""
    figura.canvas.draw()
    chegara = figura.bbox
    sozlar = [(m.get_fontsize(), m.get_text()) for m in figura.findobj(Text)
              if m.get_visible() and m.get_text().strip()
              and m.get_window_extent().overlaps(chegara)]
    return min(sozlar, default=(float("inf"), ""))


def _oqiladimi(figura: Figure, nom: str) -> float:
    """Rasmdagi eng kichik matnning oʻlchami (pt), agar u telefon kengligida oʻqilsa
    (rasm ``SOZLAMA["telefon_px"]`` kenglikda koʻrsatilganda ``SOZLAMA["eng_kichik_px"]``
    CSS px); aks holda rasm koʻpi bilan qancha keng yoki matni kamida qancha katta boʻlishi
    kerakligini aytadigan ValueError."""
    shrift, matn = eng_kichik_matn(figura)
    # the saved picture's width: the drawing's tight box and savefig's margin on both sides
    dyuym = (figura.get_tightbbox(figura.canvas.get_renderer()).width
             + 2 * plt.rcParams["savefig.pad_inches"])
    px = shrift / 72 * SOZLAMA["telefon_px"] / dyuym
    if px < SOZLAMA["eng_kichik_px"]:
        kerak = telefonda_eng_kichik_shrift(dyuym)
        raise ValueError(
            f"{nom}: its smallest text ({shrift:g} pt, {matn[:40]!r}) would be {px:.1f} CSS px "
            f"high on a 390 px phone, where the {dyuym:.1f} in wide picture is shown "
            f"{SOZLAMA['telefon_px']} px wide; {SOZLAMA['eng_kichik_px']:g} px needs text of at "
            f"least {kerak:.1f} pt at this width, or the figure at most "
            f"{shrift * SOZLAMA['telefon_px'] / (72 * SOZLAMA['eng_kichik_px']):.1f} in wide: "
            "stack the panels (plt.subplots(2, 1)), draw it narrower or set a larger fontsize")
    return shrift


#: The build's door for the editions in other scripts (issue 48): ``KITOB_YOZUVLAR``, which the
#: build sets for its kernels (book/_ext/qurilish/yozuvda.py), is JSON naming a function
#: (``otkazgich``, "module:name", found on the folders ``yol``) that, given an edition's name and
#: the scripts' folder (``papka``), returns that script's converter of a text (str -> str); and
#: the editions (``nomlar``).  This module imports no build code: it calls what the build names.
#: A run without the variable (a reader's) draws each figure in the source's Latin only.
YOZUVLAR_MUHITI = "KITOB_YOZUVLAR"


@functools.lru_cache(maxsize=None)
def _yozuvlar(qiymat: str | None) -> tuple:
    """(edition's name, its converter) of each edition ``KITOB_YOZUVLAR`` names."""
    if not qiymat:
        return ()
    sozlama = json.loads(qiymat)
    for yol in sozlama["yol"]:
        if yol not in sys.path:
            sys.path.insert(0, yol)
    # the build's function, never a chapter_code module (so ijro's walker, which must see every
    # chapter_code import a lesson makes, misses none here)
    yasovchi = pkgutil.resolve_name(sozlama["otkazgich"])
    return tuple((nom, yasovchi(nom, sozlama["papka"])) for nom in sozlama["nomlar"])


_FORMULA = re.compile(r"(\$[^$]*\$)")


@contextlib.contextmanager
def _yozuvda(figura: Figure, otkaz):
    """While inside, the figure's words are written by ``otkaz``: titles, axis labels, legends,
    annotations and a diagram's labels.  Tick labels stay (a value, or the model's own tokens,
    which are the source's letters), as does a formula ($...$)."""
    tiklar = {id(t) for ax in figura.axes for oq in (ax.xaxis, ax.yaxis)
              for tik in oq.get_major_ticks() + oq.get_minor_ticks() for t in (tik.label1, tik.label2)}
    asllar = []
    for matn in figura.findobj(Text):
        asl = matn.get_text()
        if id(matn) in tiklar or not asl:
            continue
        yangi = "".join(q if i % 2 else otkaz(q) for i, q in enumerate(_FORMULA.split(asl)))
        if yangi != asl:
            asllar.append((matn, asl))
            matn.set_text(yangi)
    try:
        yield
    finally:
        for matn, asl in asllar:
            matn.set_text(asl)


def _rasm_baytlari(figura: Figure, nom: str = "rasm") -> dict[str, bytes]:
    """Rasmning PNG (veb) va PDF (bosma, vektor) baytlari — matni telefon kengligida
    oʻqilishi tekshirilgandan keyin (PNG eng kichik matnining oʻlchamini oʻzida saqlaydi:
    SHRIFT_KALITI); yigʻish ``KITOB_YOZUVLAR`` ni bersa, boshqa yozuvdagi nashrlar uchun ham,
    xuddi shu figuradan (``<nom>-png``, ``<nom>-pdf``, ``<nom>-qora``)."""
    shrift = _oqiladimi(figura, nom)
    yozuvlar = _yozuvlar(os.environ.get(YOZUVLAR_MUHITI))
    chiqish = {}

    def saqla(kalit: str) -> None:
        for fmt, meta in (("png", {SHRIFT_KALITI: f"{shrift:g}"}), ("pdf", {"CreationDate": None})):
            buf = io.BytesIO()
            figura.savefig(buf, format=fmt, dpi=SOZLAMA["dpi"], bbox_inches="tight",
                           facecolor="white", metadata=meta)
            chiqish[kalit + fmt] = buf.getvalue()
    saqla("")
    for nom, otkaz in yozuvlar:
        with _yozuvda(figura, otkaz):
            saqla(f"{nom}-")
    chiqish["qora"] = _qorongi_png(figura, shrift)   # last: it recolours the figure
    for nom, otkaz in yozuvlar:
        with _yozuvda(figura, otkaz):
            chiqish[f"{nom}-qora"] = _qorongi_png(figura, shrift)
    return chiqish


#: The site's dark theme (pydata-sphinx-theme, as Chromium computes it): its background and text,
#: a lighter grey for the axes' lines and a dim one for grid lines.
QORONGI = {"fon": "#121212", "matn": "#ced6dd", "chiziq": "#9aa4ad", "tor": "#3b4149"}
#: The dark picture is dimmed to this share of its brightness: white becomes the text's brightest
#: channel, so no colour of the data (a colour map's yellow, a diagram's pale box) is brighter than
#: the page's text.  Its background, text and lines are drawn brighter by as much, and end as
#: ``QORONGI`` says.
QORONGI_YORUGLIK = max(mcolors.to_rgb(QORONGI["matn"]))


def _xom(rang: str) -> str:
    """The colour to draw so that, dimmed to ``QORONGI_YORUGLIK``, it is ``rang``."""
    return mcolors.to_hex([min(1.0, c / QORONGI_YORUGLIK) for c in mcolors.to_rgb(rang)])


#: what the dark picture's glue key adds to its figure's name
QORA = "-qora"
#: the gid of a text that sits on a box of its own colour (a diagram's label): it keeps its colour
ICHKI_YOZUV = "kitob-ichki-yozuv"


def _qoramtir(rang) -> bool:
    """A colour a reader cannot see on the dark background (relative luminance under 0,2)."""
    if rang is None or (isinstance(rang, str) and rang == "none"):
        return False
    r, g, b, a = mcolors.to_rgba(rang)
    if a == 0:
        return False
    yorugl = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * yorugl[0] + 0.7152 * yorugl[1] + 0.0722 * yorugl[2] < 0.2


def _qorongi_png(figura: Figure, shrift: float) -> bytes:
    """The same figure for the site's dark theme, as PNG: the background and the axes dark,
    dark text and lines light (``QORONGI``); the data's own colours, a colour map and the numbers
    written on its cells, and a diagram's labels on their boxes stay as drawn.  The figure is
    changed in place: call this last."""
    from matplotlib.collections import Collection, QuadMesh
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from PIL import Image, PngImagePlugin

    QORONGI_ = {nom: _xom(rang) for nom, rang in QORONGI.items()}   # drawn, before the dimming
    figura.patch.set_facecolor(QORONGI_["fon"])
    for ax in figura.axes:
        ax.patch.set_facecolor(QORONGI_["fon"])
        ax.tick_params(which="both", color=QORONGI_["chiziq"])
        for spine in ax.spines.values():
            spine.set_edgecolor(QORONGI_["chiziq"])
        for chiziq in ax.get_xgridlines() + ax.get_ygridlines():
            chiziq.set_color(QORONGI_["tor"])
        xarita = bool(ax.images) or any(isinstance(c, QuadMesh) for c in ax.collections)
        for matn in ax.texts if xarita else []:
            matn.set_gid(matn.get_gid() or ICHKI_YOZUV)   # a number on a coloured cell
        if ax.get_legend() is not None:
            ax.get_legend().get_frame().set_facecolor(QORONGI_["fon"])
            ax.get_legend().get_frame().set_edgecolor(QORONGI_["tor"])
    for obj in figura.findobj():
        if isinstance(obj, Text):
            if obj.get_gid() != ICHKI_YOZUV and obj.get_bbox_patch() is None and _qoramtir(obj.get_color()):
                obj.set_color(QORONGI_["matn"])
        elif isinstance(obj, Line2D):
            for ol, qoy in (("get_color", "set_color"), ("get_markerfacecolor", "set_markerfacecolor"),
                            ("get_markeredgecolor", "set_markeredgecolor")):
                if _qoramtir(getattr(obj, ol)()):
                    getattr(obj, qoy)(QORONGI_["chiziq"])
        elif isinstance(obj, FancyArrowPatch) or (isinstance(obj, Patch) and not isinstance(obj, FancyBboxPatch)):
            if obj is figura.patch or any(obj is ax.patch for ax in figura.axes):
                continue
            if _qoramtir(obj.get_edgecolor()):
                obj.set_edgecolor(QORONGI_["chiziq"])
            if isinstance(obj, FancyArrowPatch) and _qoramtir(obj.get_facecolor()):
                obj.set_facecolor(QORONGI_["chiziq"])
        elif isinstance(obj, Collection) and not isinstance(obj, QuadMesh):
            qirra = obj.get_edgecolor()
            if len(qirra) and all(_qoramtir(r) for r in qirra):
                obj.set_edgecolor(QORONGI_["chiziq"])
    buf = io.BytesIO()
    figura.savefig(buf, format="png", dpi=SOZLAMA["dpi"], bbox_inches="tight", facecolor=QORONGI_["fon"])
    rasm = Image.open(buf)
    *rgb, alfa = rasm.convert("RGBA").split()
    rasm = Image.merge("RGBA", [k.point(lambda v: round(v * QORONGI_YORUGLIK)) for k in rgb] + [alfa])
    meta = PngImagePlugin.PngInfo()
    meta.add_text(SHRIFT_KALITI, f"{shrift:g}")
    chiqish = io.BytesIO()
    rasm.save(chiqish, format="png", pnginfo=meta, optimize=True)
    return chiqish.getvalue()


class _Rasm:
    """IPython koʻrsatadigan chizilgan rasm: veb uchun PNG, bosma uchun PDF (vektor).

    Bu toʻplamni MyST-NBning ``glue`` funksiyasi saqlaydi; soʻng ``{glue:figure}``
    direktivasi HTMLda image/png ni, LaTeXda application/pdf ni oladi (MyST-NB mime
    turini har builder uchun oʻz ustuvorligi boʻyicha tanlaydi).  Ikkilik maʼlumot
    base64 matni sifatida yoziladi — IPythonning oʻz ``Image`` sinfida va saqlangan
    notebookda ham shunday.
    """

    def __init__(self, baytlar: dict[str, bytes], kalit: str) -> None:
        self.baytlar = baytlar
        self.kalit = kalit

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        # include/exclude are applied by IPython's DisplayFormatter afterwards
        return {
            **{mime: base64.b64encode(self.baytlar[fmt]).decode("ascii")
               for fmt, mime in (("png", "image/png"), ("pdf", "application/pdf")) if fmt in self.baytlar},
            "text/plain": f"<rasm {self.kalit}>",
        }


def _rasm_chiqar(figura: Figure, yol: Path, izoh: str, alt: str) -> None:
    """Rasm faylini yozadi, tasvirini glue qiladi va uni raqamlangan rasm sifatida koʻrsatadi."""
    baytlar = _rasm_baytlari(figura, yol.name)
    yol.parent.mkdir(parents=True, exist_ok=True)
    yol.write_bytes(baytlar[yol.suffix.lower()[1:]])
    kalit = yol.stem
    rasm = _Rasm(baytlar, kalit)
    # 1) the picture itself, stored in the notebook but not shown (MyST-NB glue); and the same
    #    picture for the site's dark theme, which the build puts beside it (book/_ext/qurilish/qorongi.py)
    glue(kalit, rasm, display=False)
    glue(kalit + QORA, _Rasm({"png": baytlar["qora"]}, kalit + QORA), display=False)
    #    and both in each other script the build asked for (<name>-<script>, <name>-<script>-qora)
    for nom, _ in _yozuvlar(os.environ.get(YOZUVLAR_MUHITI)):
        boshqa = f"{kalit}-{nom}"
        glue(boshqa, _Rasm({fmt: baytlar[f"{nom}-{fmt}"] for fmt in ("png", "pdf")}, boshqa), display=False)
        glue(boshqa + QORA, _Rasm({"png": baytlar[f"{nom}-qora"]}, boshqa + QORA), display=False)
    # 2) a numbered figure that pastes it: markdown for the book, HTML for JupyterLab
    markdown = "\n".join([
        f"```{{glue:figure}} {kalit}",
        f":name: {kalit}",
        # a directive option is literal text (not markdown): one line, no escaping
        f":alt: {_bir_qator(alt)}",
        "",
        izoh_md(izoh),
        "```",
    ])
    png64 = rasm._repr_mimebundle_()["image/png"]   # the same picture the glue holds
    html_ = (f'<figure><img src="data:image/png;base64,{png64}" alt="{html.escape(alt)}">'
             f"<figcaption>{izoh_html(izoh)}</figcaption></figure>")
    _display({"text/markdown": markdown, "text/html": html_, "text/plain": f"[rasm: {izoh_matn(izoh)}]"})


# --------------------------------------------------------------------------
# the three helpers
# --------------------------------------------------------------------------
def _qator(yorliq: str) -> str:
    """Yozuvni qatorlarga boʻladi: qator uzilishi — yangi qator belgisi yoki ikki belgi,
    teskari chiziq va n."""
    return yorliq.replace("\\n", "\n")


def telefonda_eng_kichik_shrift(dyuym: float) -> float:
    """``dyuym`` dyuym enli rasmda telefon kengligida oʻqiladigan eng kichik shrift oʻlchami
    (pt): rasm ``SOZLAMA["telefon_px"]`` kenglikda koʻrsatilganda
    ``SOZLAMA["eng_kichik_px"]`` CSS px."""
    return SOZLAMA["eng_kichik_px"] * 72 * dyuym / SOZLAMA["telefon_px"]


def _sigdir(figura: Figure, matn, quti: FancyBboxPatch, eng_kichik: float) -> None:
    """Yozuv shriftini u oʻz qutisiga (chetidan joy qoldirib) sigʻguncha kichraytiradi,
    lekin ``eng_kichik`` pt dan pastga tushirmaydi: faqat undan kichik shriftda sigʻadigan
    yozuvda uni nomlab ValueError chiqaradi."""
    renderer = figura.canvas.get_renderer()
    qb = quti.get_window_extent(renderer)
    while True:
        mb = matn.get_window_extent(renderer)
        if mb.width <= qb.width * 0.92 and mb.height <= qb.height * 0.88:
            return
        if matn.get_fontsize() - 0.5 < eng_kichik:
            raise ValueError(
                f"diagramma: the label {matn.get_text()!r} does not fit its box at "
                f"{eng_kichik:.1f} pt, the least size that reads on a phone in a diagram this "
                "wide; break it into lines with \\n, make its box wider or taller, or the "
                "diagram narrower")
        matn.set_fontsize(matn.get_fontsize() - 0.5)


def diagramma(qutilar: dict, yoylar: list, nom: str, izoh: str, alt: str | None = None) -> None:
    """Quti va strelkalardan iborat diagramma chizadi va uni raqamlangan rasm sifatida koʻrsatadi.

    qutilar: ``{label: (x, y, w, h, kind)}`` — yorliq (label) boʻyicha qutilar; (x, y) —
        pastki chap burchak, w va h — eni va boʻyi, kind (turi) — ``SOZLAMA["ranglar"]``
        dagi turlardan biri ("manba", "xizmat", "qayta").
    yoylar: ``[(from_label, to_label), ...]`` — qaysi qutidan qaysi qutiga; strelkalar
        qutining chetidan chetiga tortiladi.
    nom: rasm faylining nomi ("yol_uzunligi.png"); uning kengaytmasiz qismi
        ``{numref}`` uchun nishon boʻladi.
    izoh: rasm izohi.  alt: muqobil matn (berilmasa — qutilar va strelkalar soʻz bilan).
    Rasm ``SOZLAMA["rasm_papkasi"] / nom`` ga yoziladi.
    """
    _tekshir_diagramma(qutilar, yoylar)
    yol = _tekshir_nom(nom)
    _tekshir_matn(izoh, "izoh")
    ranglar = SOZLAMA["ranglar"]

    x0 = min(q[0] for q in qutilar.values())
    y0 = min(q[1] for q in qutilar.values())
    x1 = max(q[0] + q[2] for q in qutilar.values())
    y1 = max(q[1] + q[3] for q in qutilar.values())
    chet = 0.15
    birlik = SOZLAMA["birlik_dyuym"]
    figura = Figure(figsize=((x1 - x0 + 2 * chet) * birlik, (y1 - y0 + 2 * chet) * birlik))
    FigureCanvasAgg(figura)   # a canvas of its own: pyplot's global state is not touched
    # the saved picture is the figure and savefig's margin on both sides; sizes in half points
    eng_kichik = max(SOZLAMA["eng_kichik_shrift"], np.ceil(2 * telefonda_eng_kichik_shrift(
        figura.get_figwidth() + 2 * plt.rcParams["savefig.pad_inches"] + 0.05)) / 2)
    ax = figura.add_axes((0, 0, 1, 1))
    ax.set_xlim(x0 - chet, x1 + chet)
    ax.set_ylim(y0 - chet, y1 + chet)
    ax.set_axis_off()

    patchlar, yozuvlar = {}, []
    for yorliq, (x, y, w, h, tur) in qutilar.items():
        fon, chiziq = ranglar[tur]
        quti = FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0,rounding_size=0.08",
                              facecolor=fon, edgecolor=chiziq, linewidth=1.6, zorder=2)
        ax.add_patch(quti)
        patchlar[yorliq] = quti
        matn = ax.text(x + w / 2, y + h / 2, _qator(yorliq), ha="center", va="center",
                       fontsize=max(SOZLAMA["shrift"], eng_kichik), color="#1a1a1a", zorder=3,
                       linespacing=1.25, gid=ICHKI_YOZUV)
        _sigdir(figura, matn, quti, eng_kichik)
        yozuvlar.append(matn)
    # every label at the size of the one that had to shrink most: one diagram, one type size
    shrift = min(matn.get_fontsize() for matn in yozuvlar)
    for matn in yozuvlar:
        matn.set_fontsize(shrift)

    for a, b in yoylar:
        qa, qb = qutilar[a], qutilar[b]
        ax.add_patch(FancyArrowPatch(
            (qa[0] + qa[2] / 2, qa[1] + qa[3] / 2), (qb[0] + qb[2] / 2, qb[1] + qb[3] / 2),
            patchA=patchlar[a], patchB=patchlar[b], arrowstyle="-|>", mutation_scale=16,
            color="#444444", linewidth=1.4, shrinkA=2, shrinkB=2, zorder=1,
        ))

    _rasm_chiqar(figura, yol, izoh, _diagramma_alt(qutilar, yoylar) if alt is None else alt)


def _diagramma_alt(qutilar: dict, yoylar: list) -> str:
    """Diagrammaning muqobil matni, ovoz chiqarib oʻqiladigan qilib: strelkalar zanjirlari
    («a → b → c»; har quti bir marta), soʻng strelkasiz qutilar «Yozuvlar» deb."""
    def bir_qator(yorliq):
        return " ".join(_qator(yorliq).split())

    chiqish: dict = {}
    kirish: dict = {}
    for a, b in yoylar:
        chiqish.setdefault(a, []).append(b)
        kirish.setdefault(b, []).append(a)
    # zanjir ichida: bitta kiruvchi va oldingisining yagona chiquvchisi
    ichki = {b for b, a in kirish.items() if len(a) == 1 and len(chiqish[a[0]]) == 1}
    zanjirlar, otilgan = [], set()
    for q in qutilar:
        for b in ([] if q in ichki else chiqish.get(q, [])):
            zanjir = [q, b]
            otilgan.add((q, b))
            while zanjir[-1] in ichki and len(chiqish.get(zanjir[-1], [])) == 1:
                otilgan.add((zanjir[-1], chiqish[zanjir[-1]][0]))
                zanjir.append(chiqish[zanjir[-1]][0])
            zanjirlar.append(" → ".join(map(bir_qator, zanjir)))
    # halqa: hech qaysi qutisi zanjir boshi boʻlmagan strelkalar
    zanjirlar += [f"{bir_qator(a)} → {bir_qator(b)}" for a, b in yoylar if (a, b) not in otilgan]
    yozuvlar = [bir_qator(q) for q in qutilar if q not in chiqish and q not in kirish]
    return ("Diagramma: " + "; ".join(zanjirlar)
            + (". Yozuvlar: " + "; ".join(yozuvlar) if yozuvlar else "") + ".")


def fig(nom: str, caption: str, alt: str | None = None) -> None:
    """Joriy matplotlib rasmini ``nom`` nomi bilan saqlaydi, yopadi va raqamlab koʻrsatadi.

    Rasm izohi — ``caption``, muqobil matn — ``alt`` (berilmasa, izohning oʻzi).
    Rasm ``SOZLAMA["rasm_papkasi"] / nom`` ga yoziladi.
    """
    yol = _tekshir_nom(nom)
    _tekshir_matn(caption, "caption")
    if not plt.get_fignums():
        raise ValueError(
            f"fig({nom!r}): there is no open matplotlib figure to save; draw one first "
            "(for example with plt.subplots()) and call fig() in the same cell"
        )
    figura = plt.gcf()
    if not any(ax.has_data() or ax.images for ax in figura.axes):
        plt.close(figura)
        raise ValueError(f"fig({nom!r}): the current figure has nothing drawn on it")
    try:
        oqlarni_ozbekcha(figura)   # tick labels in Uzbek form: 0,5; 10⁻³; 35 333
        _rasm_chiqar(figura, yol, caption, alt or izoh_matn(caption))
    finally:
        plt.close(figura)


def _xonalar(ustun: pd.Series) -> int | None:
    """Ustundagi kasr son kataklari nechta kasr xonasi bilan koʻrsatiladi: ularning
    birortasiga kerak boʻlgan eng koʻp xona, shunda ustun 0,99 / 0,994 emas, 0,990 / 0,994
    deb oʻqiladi.  None: biror katakka oʻnning darajasi kerak (2,8·10⁻⁵), shuning uchun har
    katak oʻzining eng qisqa shaklida qoladi."""
    kerak = 0
    for v in ustun:
        if isinstance(v, (float, np.floating)) and not isinstance(v, bool) and np.isfinite(v):
            yozuv = repr(round(float(v), 10))
            if "e" in yozuv:
                return None
            kerak = max(kerak, len(yozuv.partition(".")[2]) if yozuv.partition(".")[2] != "0" else 0)
    return kerak


def _hujayra(qiymat: object, xonalar: int | None = None) -> str:
    """Jadval katagining matni: sonlar oʻzbekcha shaklda (``bichim.son``), NaN — tire."""
    if isinstance(qiymat, (bool, np.bool_)):
        return str(qiymat)
    if isinstance(qiymat, (float, np.floating)):
        if qiymat != qiymat:
            return "—"
        return son(round(float(qiymat), 10)) if xonalar is None else son(float(qiymat), f".{xonalar}f")
    if isinstance(qiymat, (int, np.integer)):
        return son(int(qiymat))
    return str(qiymat)


#: A cell that is a number (or numbers) already written in the book's form: "2,427·10⁻¹⁷",
#: "35 333", "61 %", "0,996; 0,998".
_SON_MATN = re.compile(r"^[−-]?\d[\d\u202f]*(?:,\d+)?(?:·10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?(?:\u202f%)?$")


def _sonmi(ustun: pd.Series) -> bool:
    """Oʻngga tekislanadigan ustunmi: sonlar yoki kitob shaklida yozilgan sonlar."""
    if pd.api.types.is_bool_dtype(ustun):
        return False
    if pd.api.types.is_numeric_dtype(ustun):
        return True
    kataklar = [str(k) for k in ustun if str(k).strip()]
    return bool(kataklar) and all(_SON_MATN.match(q.strip()) for k in kataklar for q in k.split("; "))


def _katak_md(matn: str, lotin: bool) -> str:
    """A markdown cell's text: escaped (md_escape), or with ``lotin`` in the ``{lotin}`` role, whose
    text is taken as written (a cell with a backtick, a pipe or a backslash cannot be: escaped)."""
    if lotin and matn.strip() and not set("`|\\\n") & set(matn):
        return f"{{lotin}}`{matn}`"
    return md_escape(matn)


def jadval_bundle(df: pd.DataFrame, izoh: str | None = None, nom: str | None = None) -> dict:
    """``show`` koʻrsatadigan mime toʻplami: MyST markdown, HTML va oddiy matn.

    Markdown — ``{table}`` direktivasi ichidagi quvurli (pipe) jadval (``izoh`` berilsa,
    raqamlangan va nishonli); sonli ustunlar oʻngga tekislanadi.
    """
    sarlavhalar = [md_escape(c) for c in df.columns]
    tekis = [("---:" if _sonmi(df[c]) else ":---") for c in df.columns]
    qatorlar = ["| " + " | ".join(sarlavhalar) + " |", "|" + "|".join(tekis) + "|"]
    # df.attrs["xonalar"] = {ustun: n}: shu ustun n xonali (aniqlik 1,000 ham)
    xonalar = [df.attrs.get("xonalar", {}).get(c, _xonalar(df[c])) for c in df.columns]
    # every cell's text as the book writes it: the same in the markdown, the HTML and the plain text
    kataklar = [[_hujayra(v, x) for v, x in zip(qator, xonalar)]   # keeps each column's own type
                for qator in df.itertuples(index=False)]
    # df.attrs["lotin"] = [ustun, ...]: shu ustunlardagi matn — lotin yozuvining oʻzi (tokenlar),
    # kitobning boshqa yozuvdagi nashrida ham oʻzgarmaydi ({lotin} roli)
    lotin = [c in df.attrs.get("lotin", ()) for c in df.columns]
    for qator in kataklar:
        qatorlar.append("| " + " | ".join(_katak_md(k, l) or " " for k, l in zip(qator, lotin)) + " |")
    bosh = "```{table}" + (f" {izoh_md(izoh)}" if izoh else "")
    opsiyalar = [f":name: {nom}"] if nom else []
    markdown = "\n".join([bosh, *opsiyalar, ":align: center", "", *qatorlar, "```"])

    # the HTML a notebook shows (the book's page shows the markdown): number columns on the right
    ong = [' style="text-align: right"' if t_ == "---:" else "" for t_ in tekis]
    html_jadval = ('<table class="dataframe">'
                   + (f"<caption>{izoh_html(izoh)}</caption>" if izoh else "")
                   + "<thead><tr>" + "".join(f"<th{o}>{html.escape(str(c))}</th>" for c, o in zip(df.columns, ong))
                   + "</tr></thead><tbody>"
                   + "".join("<tr>" + "".join(f"<td{o}>{html.escape(k)}</td>" for k, o in zip(q, ong)) + "</tr>"
                             for q in kataklar)
                   + "</tbody></table>")
    matn = pd.DataFrame(kataklar, columns=[str(c) for c in df.columns]).to_string(index=False)
    if izoh:
        matn = izoh_matn(izoh) + "\n" + matn
    return {"text/markdown": markdown, "text/html": html_jadval, "text/plain": matn}


def show(df: pd.DataFrame, izoh: str | None = None, nom: str | None = None) -> None:
    """``DataFrame`` ni jadval sifatida koʻrsatadi; ``izoh`` berilsa — shu sarlavhali
    raqamlangan jadval.

    ``nom`` — ``{numref}`` uchun nishon (harflar, raqamlar, '_' yoki '-').
    """
    if not isinstance(df, pd.DataFrame):
        raise TypeError(
            f"show() takes a pandas DataFrame, got {type(df).__name__}; "
            "wrap it first, for example show(pd.DataFrame(rows))"
        )
    if df.columns.empty:
        raise ValueError("show() got a DataFrame with no columns; there is nothing to tabulate")
    if izoh is not None:
        _tekshir_matn(izoh, "izoh")
    if nom is not None and (not isinstance(nom, str) or not _NOM_QOLIPI.match(nom)):
        raise ValueError(f"nom={nom!r} must be a label of letters, digits, '_' or '-' (for example 'grad_jadval')")
    if nom is not None and izoh is None:
        raise ValueError(f"show(nom={nom!r}) needs izoh: only a captioned table is numbered and can be referenced")
    _display(jadval_bundle(df, izoh, nom))


#: What every example of an interactive map carries (``sonlar.hamma_ogirliklar`` gives them).
_XARITA_KALITLARI = ("son", "javob", "sozlar", "kirish", "chiqish", "koder", "dekoder", "cross")


def _tekshir_xarita(nom: object, izoh: object) -> None:
    if not isinstance(nom, str) or not _NOM_QOLIPI.match(nom):
        raise ValueError(f"nom={nom!r} must be a name of letters, digits, '_' or '-' (for example 'tarjima')")
    _tekshir_matn(izoh, "izoh")


def xarita_bundle(nom: str, misollar: list, izoh: str) -> dict:
    """The mime bundle of an interactive map of attention weights.

    For the book, MyST markdown holding one raw HTML block (the LaTeX writer leaves raw
    HTML out: in the PDF the figures before the map stand in for it); for JupyterLab, the
    same HTML.  The block is a ``div.kitob-xarita`` whose data travel in a
    ``<script type="application/json">``: the build moves them to a file beside the page
    (``book/_ext/qurilish/xarita.py``) and ``book/_static/xarita.js`` draws the map once
    it comes into view.  Without JavaScript the div says where the same weights are drawn.
    """
    _tekshir_xarita(nom, izoh)
    if not isinstance(misollar, list) or not misollar:
        raise ValueError("misollar must be a non-empty list of sonlar.hamma_ogirliklar(model, n) results")
    for i, m in enumerate(misollar):
        yoq = [k for k in _XARITA_KALITLARI if not isinstance(m, dict) or k not in m]
        if yoq:
            raise ValueError(f"misollar[{i}] lacks {', '.join(yoq)}: give sonlar.hamma_ogirliklar(model, n) results")
        for tur, sorov, kalit in (("koder", "sozlar", "sozlar"), ("dekoder", "chiqish", "kirish"),
                                  ("cross", "chiqish", "sozlar")):
            shakl = {(len(w), len(w[0]) if w else 0) for qatlam in m[tur] for w in qatlam}
            if shakl != {(len(m[sorov]), len(m[kalit]))}:
                raise ValueError(f"misollar[{i}][{tur!r}]: every head must hold one row per "
                                 f"{sorov!r} token and one column per {kalit!r} token "
                                 f"({len(m[sorov])} x {len(m[kalit])}); found {sorted(shakl)}")
    return _xarita_bundle(nom, {"misollar": misollar}, izoh,
                          "yuqoridagi ikki rasm bitta misolning koder-dekoder attentionini koʻrsatadi")


def _xarita_bundle(nom: str, malumot: dict, izoh: str, orniga: str, nima: str = "interaktiv xarita") -> dict:
    """A map's bundle: its data in a JSON script that cannot close early; ``orniga`` says what
    on the page stands in for it (without JavaScript, and in ``data-orniga`` for
    ``xarita.js`` when its data cannot be loaded); ``nima`` names the control ("interaktiv
    xarita", a slider's "surgichli jadval"; in ``data-nima`` for that message too)."""
    matn = json.dumps(malumot, ensure_ascii=False, separators=(",", ":"))
    html_ = (f'<div class="kitob-xarita" data-xarita="{nom}" data-nima="{html.escape(nima)}" '
             f'data-orniga="{html.escape(orniga)}">\n'
             f'<p class="kitob-xarita-izoh">{izoh_html(izoh)}</p>\n'
             f'<p class="kitob-xarita-jssiz">Bu {html.escape(nima)} JavaScript bilan ishlaydi. '
             f'JavaScript oʻchiq boʻlsa, {html.escape(orniga)}.</p>\n'
             '<script type="application/json" data-xarita-malumot>'
             + matn.replace("</", "<\\/") + "</script>\n</div>")
    return {"text/markdown": f"```{{raw}} html\n{html_}\n```\n", "text/html": html_,
            "text/plain": f"{nima[0].upper()}{nima[1:]}: {izoh_matn(izoh)}"}


def softmax_bundle(nom: str, ball, d: int, izoh: str) -> dict:
    """The bundle of a control that scales the scores ``ball`` (T x T) and shows their softmax
    in the page: ``softmax(c * ball / sqrt(d))`` as the reader moves c (``xarita.js``)."""
    _tekshir_xarita(nom, izoh)
    qiymatlar = np.asarray(ball.detach() if hasattr(ball, "detach") else ball, dtype=float)
    if qiymatlar.ndim != 2 or qiymatlar.shape[0] != qiymatlar.shape[1] or not qiymatlar.size:
        raise ValueError(f"ball must be a square matrix of scores (T x T), got shape {qiymatlar.shape}")
    if not np.isfinite(qiymatlar).all():
        raise ValueError("ball holds a value that is not a finite number (nan or inf)")
    if not isinstance(d, int) or d < 1:
        raise ValueError(f"d must be the vectors' size, a positive int, got {d!r}")
    return _xarita_bundle(nom, {"ballar": qiymatlar.tolist(), "d": d}, izoh,
                          "uning oʻrniga yuqorida ekranga chiqarilgan ogʻirliklarga (c\u00a0=\u00a01) qarang", "surgichli jadval")


def softmax_xaritasi(nom: str, ball, d: int, izoh: str) -> None:
    """Ballarni koʻpaytiruvchi c ni oʻquvchi oʻzi suradi va ogʻirliklar — softmax(c · ball /
    √d) — sahifada qayta hisoblanadi (saytda): c oʻsgan sari softmax toʻyinadi."""
    _display(softmax_bundle(nom, ball, d, izoh))


def xarita(nom: str, misollar: list, izoh: str) -> None:
    """Attention ogʻirliklarining interaktiv xaritasini koʻrsatadi (saytda).

    ``misollar`` — ``sonlar.hamma_ogirliklar(model, n)`` natijalari roʻyxati; ``izoh`` —
    xarita nimani koʻrsatishini aytadigan gap.  Oʻquvchi misolni, attention turini,
    qatlamni va boshni tanlaydi, soʻrov tokenini bosadi: har kalitning ogʻirligi chiqadi.
    PDF da va JavaScriptsiz undan oldingi rasmlar uning oʻrnida turadi.
    """
    _display(xarita_bundle(nom, misollar, izoh))


__all__ = ["SOZLAMA", "diagramma", "fig", "show", "jadval_bundle", "md_escape", "xarita", "xarita_bundle",
           "softmax_xaritasi", "softmax_bundle"]
