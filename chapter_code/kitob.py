"""Book helpers: the diagrams, tables and figures of the chapter.

The chapter calls three helpers, spelled as the seed spells them:

* ``diagramma(qutilar, yoylar, nom, izoh)`` draws a box-and-arrow diagram;
* ``show(df, izoh=None, nom=None)`` shows a DataFrame as a real table;
* ``fig(nom, caption)`` saves the current matplotlib figure and shows it.

Each helper checks its arguments before anything is drawn or written and raises
a ``ValueError``/``TypeError`` that names the bad value and what would be right.
Figures and tables reach the book as MyST markdown outputs (a ``{glue:figure}``
or ``{table}`` directive), so Sphinx numbers them within their chapter ("1.1-rasm", "1.1-jadval"), gives
them a label for ``{numref}`` and turns them into HTML for the web and LaTeX
(booktabs) for the PDF.  A figure's picture is stored with MyST-NB's ``glue``
as PNG (for the web) and PDF (vector, for the print build), which its
``{glue:figure}`` pastes.  Every piece of text that comes from code is escaped
before it is put into markdown, so a ``<script>`` in a table cell stays text.

Settings a reader or author may want to change (the palette of diagram kinds,
the figure resolution, the folder the picture files go to) live in ``SOZLAMA``.
"""

from __future__ import annotations

import base64
import html
import io
import os
import re
import string
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch
from matplotlib.text import Text
from myst_nb import glue

from chapter_code import ILDIZ
from chapter_code.raqam import oqlarni_ozbekcha, son

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
def md_escape(matn: object) -> str:
    """Escape text for MyST markdown so that it is shown literally.

    CommonMark lets any ASCII punctuation be escaped with a backslash, so every
    one is: ``<script>`` becomes text, ``$x$`` is not maths, ``|`` does not
    split a table cell.  Line breaks become spaces; a narrow no-break space
    (U+202F, as ``raqam.son`` writes 35 333) is kept.
    """
    # only ordinary whitespace collapses: the narrow no-break space of "35 333" and "61 %" stays
    s = re.sub(r"[ \t\r\n\f\v]+", " ", str(matn)).strip(" ")
    return "".join("\\" + c if c in string.punctuation else c for c in s)


# --------------------------------------------------------------------------
# argument checks
# --------------------------------------------------------------------------
def _tekshir_nom(nom: object) -> Path:
    """Check a picture file name and return where it is written.

    A name is a bare file name (no folder, no ``..``) ending in .png or .pdf,
    so that a picture can never be written outside the build folder.
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
    """Publish a raw mime bundle from the running kernel (tests replace this)."""
    from IPython.display import display

    display(bundle, raw=True, metadata=metadata or {})


#: The PNG text chunk that carries the size (pt) of a figure's smallest text, for the
#: browser test that checks it at phone width.
SHRIFT_KALITI = "Kitob-eng-kichik-shrift"


def eng_kichik_matn(figura: Figure) -> tuple[float, str]:
    """(size in pt, text) of the smallest text drawn inside the figure: labels, tick labels,
    legends, annotations and diagram labels alike."""
    figura.canvas.draw()
    chegara = figura.bbox
    sozlar = [(m.get_fontsize(), m.get_text()) for m in figura.findobj(Text)
              if m.get_visible() and m.get_text().strip()
              and m.get_window_extent().overlaps(chegara)]
    return min(sozlar, default=(float("inf"), ""))


def _oqiladimi(figura: Figure, nom: str) -> float:
    """The size (pt) of the figure's smallest text, if that text reads at phone width
    (``SOZLAMA["eng_kichik_px"]`` CSS px when the picture is ``SOZLAMA["telefon_px"]`` wide);
    else a ValueError that says how wide the figure may be or how large its text must be."""
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


def _rasm_baytlari(figura: Figure, nom: str = "rasm") -> dict[str, bytes]:
    """The figure as PNG (web) and PDF (print, vector) bytes, once its text is known to read
    at phone width (the PNG carries the size of its smallest text: SHRIFT_KALITI)."""
    shrift = _oqiladimi(figura, nom)
    chiqish = {}
    for fmt, meta in (("png", {SHRIFT_KALITI: f"{shrift:g}"}), ("pdf", {"CreationDate": None})):
        buf = io.BytesIO()
        figura.savefig(buf, format=fmt, dpi=SOZLAMA["dpi"], bbox_inches="tight",
                       facecolor="white", metadata=meta)
        chiqish[fmt] = buf.getvalue()
    return chiqish


class _Rasm:
    """A drawn figure as IPython displays it: PNG for the web, PDF (vector) for print.

    MyST-NB's ``glue`` stores this bundle; its ``{glue:figure}`` then takes the
    image/png in HTML and the application/pdf in LaTeX (MyST-NB's mime priority
    per builder).  Binary data is base64 text, as in IPython's own ``Image`` and
    in the saved notebook.
    """

    def __init__(self, baytlar: dict[str, bytes], kalit: str) -> None:
        self.baytlar = baytlar
        self.kalit = kalit

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        # include/exclude are applied by IPython's DisplayFormatter afterwards
        return {
            "image/png": base64.b64encode(self.baytlar["png"]).decode("ascii"),
            "application/pdf": base64.b64encode(self.baytlar["pdf"]).decode("ascii"),
            "text/plain": f"<rasm {self.kalit}>",
        }


def _rasm_chiqar(figura: Figure, yol: Path, izoh: str, alt: str) -> None:
    """Write the picture file, glue its image and display it as a numbered figure."""
    baytlar = _rasm_baytlari(figura, yol.name)
    yol.parent.mkdir(parents=True, exist_ok=True)
    yol.write_bytes(baytlar[yol.suffix.lower()[1:]])
    kalit = yol.stem
    rasm = _Rasm(baytlar, kalit)
    # 1) the picture itself, stored in the notebook but not shown (MyST-NB glue)
    glue(kalit, rasm, display=False)
    # 2) a numbered figure that pastes it: markdown for the book, HTML for JupyterLab
    markdown = "\n".join([
        f"```{{glue:figure}} {kalit}",
        f":name: {kalit}",
        # a directive option is literal text (not markdown): one line, no escaping
        f":alt: {' '.join(alt.split())}",
        "",
        md_escape(izoh),
        "```",
    ])
    png64 = rasm._repr_mimebundle_()["image/png"]   # the same picture the glue holds
    html_ = (f'<figure><img src="data:image/png;base64,{png64}" alt="{html.escape(alt)}">'
             f"<figcaption>{html.escape(izoh)}</figcaption></figure>")
    _display({"text/markdown": markdown, "text/html": html_, "text/plain": f"[rasm: {izoh}]"})


# --------------------------------------------------------------------------
# the three helpers
# --------------------------------------------------------------------------
def _qator(yorliq: str) -> str:
    """A label with its line breaks: a newline or the two characters backslash-n."""
    return yorliq.replace("\\n", "\n")


def telefonda_eng_kichik_shrift(dyuym: float) -> float:
    """The least font size (pt) that reads at phone width in a picture ``dyuym`` inches wide
    (``SOZLAMA["eng_kichik_px"]`` CSS px when it is shown ``SOZLAMA["telefon_px"]`` wide)."""
    return SOZLAMA["eng_kichik_px"] * 72 * dyuym / SOZLAMA["telefon_px"]


def _sigdir(figura: Figure, matn, quti: FancyBboxPatch, eng_kichik: float) -> None:
    """Shrink a label's font until it fits inside its box (with a margin), but not below
    ``eng_kichik`` pt: a label that fits only smaller is a ValueError naming it."""
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
    """Draw a box-and-arrow diagram and show it as a numbered figure.

    qutilar: ``{label: (x, y, w, h, kind)}``; (x, y) is the lower-left corner,
        kind is one of ``SOZLAMA["ranglar"]`` ("manba", "xizmat", "qayta").
    yoylar: ``[(from_label, to_label), ...]``; arrows run border to border.
    nom: the picture's file name ("yol_uzunligi.png"); its stem is the label
        for ``{numref}``.
    izoh: the caption.  alt: alt text (default: the boxes and arrows in words).
    The picture is written to ``SOZLAMA["rasm_papkasi"] / nom``.
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

    patchlar = {}
    for yorliq, (x, y, w, h, tur) in qutilar.items():
        fon, chiziq = ranglar[tur]
        quti = FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0,rounding_size=0.08",
                              facecolor=fon, edgecolor=chiziq, linewidth=1.6, zorder=2)
        ax.add_patch(quti)
        patchlar[yorliq] = quti
        matn = ax.text(x + w / 2, y + h / 2, _qator(yorliq), ha="center", va="center",
                       fontsize=max(SOZLAMA["shrift"], eng_kichik), color="#1a1a1a", zorder=3,
                       linespacing=1.25)
        _sigdir(figura, matn, quti, eng_kichik)

    for a, b in yoylar:
        qa, qb = qutilar[a], qutilar[b]
        ax.add_patch(FancyArrowPatch(
            (qa[0] + qa[2] / 2, qa[1] + qa[3] / 2), (qb[0] + qb[2] / 2, qb[1] + qb[3] / 2),
            patchA=patchlar[a], patchB=patchlar[b], arrowstyle="-|>", mutation_scale=16,
            color="#444444", linewidth=1.4, shrinkA=2, shrinkB=2, zorder=1,
        ))

    if alt is None:
        def bir_qator(yorliq):
            return " ".join(_qator(yorliq).split())
        alt = ("Diagramma. Qutilar: " + "; ".join(map(bir_qator, qutilar))
               + ". Strelkalar: "
               + "; ".join(f"{bir_qator(a)} → {bir_qator(b)}" for a, b in yoylar) + ".")
    _rasm_chiqar(figura, yol, izoh, alt)


def fig(nom: str, caption: str, alt: str | None = None) -> None:
    """Save the current matplotlib figure as ``nom``, close it, show it numbered.

    The caption is ``caption``; the alt text is ``alt`` (default: the caption).
    The picture is written to ``SOZLAMA["rasm_papkasi"] / nom``.
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
        _rasm_chiqar(figura, yol, caption, alt or caption)
    finally:
        plt.close(figura)


def _xonalar(ustun: pd.Series) -> int | None:
    """How many decimals a column's float cells show: the most any of them needs, so a column
    reads 0,990 / 0,994 rather than 0,99 / 0,994.  None: a cell needs a power of ten (2,8·10⁻⁵),
    so each cell keeps its own shortest form."""
    kerak = 0
    for v in ustun:
        if isinstance(v, (float, np.floating)) and not isinstance(v, bool) and np.isfinite(v):
            yozuv = repr(round(float(v), 10))
            if "e" in yozuv:
                return None
            kerak = max(kerak, len(yozuv.partition(".")[2]) if yozuv.partition(".")[2] != "0" else 0)
    return kerak


def _hujayra(qiymat: object, xonalar: int | None = None) -> str:
    """A table cell's text: numbers in Uzbek form (``raqam.son``), NaN as a dash."""
    if isinstance(qiymat, (bool, np.bool_)):
        return str(qiymat)
    if isinstance(qiymat, (float, np.floating)):
        if qiymat != qiymat:
            return "—"
        return son(round(float(qiymat), 10)) if xonalar is None else son(float(qiymat), f".{xonalar}f")
    if isinstance(qiymat, (int, np.integer)):
        return son(int(qiymat))
    return str(qiymat)


def _sonmi(ustun: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(ustun) and not pd.api.types.is_bool_dtype(ustun)


def jadval_bundle(df: pd.DataFrame, izoh: str | None = None, nom: str | None = None) -> dict:
    """The mime bundle ``show`` displays: MyST markdown, HTML and plain text.

    The markdown is a pipe table inside a ``{table}`` directive (numbered and
    labelled when ``izoh`` is given); numeric columns are right-aligned.
    """
    sarlavhalar = [md_escape(c) for c in df.columns]
    tekis = [("---:" if _sonmi(df[c]) else ":---") for c in df.columns]
    qatorlar = ["| " + " | ".join(sarlavhalar) + " |", "|" + "|".join(tekis) + "|"]
    xonalar = [_xonalar(df[c]) for c in df.columns]
    for qator in df.itertuples(index=False):   # keeps each column's own type
        qatorlar.append("| " + " | ".join(md_escape(_hujayra(v, x)) or " " for v, x in zip(qator, xonalar)) + " |")
    bosh = "```{table}" + (f" {md_escape(izoh)}" if izoh else "")
    opsiyalar = [f":name: {nom}"] if nom else []
    markdown = "\n".join([bosh, *opsiyalar, ":align: center", "", *qatorlar, "```"])

    html_jadval = df.to_html(index=False, escape=True, border=0)
    if izoh:
        html_jadval = html_jadval.replace(">", f"><caption>{html.escape(izoh)}</caption>", 1)
    matn = df.to_string(index=False)
    if izoh:
        matn = izoh + "\n" + matn
    return {"text/markdown": markdown, "text/html": html_jadval, "text/plain": matn}


def show(df: pd.DataFrame, izoh: str | None = None, nom: str | None = None) -> None:
    """Show a DataFrame as a table; with ``izoh`` a numbered table with that caption.

    ``nom`` is the label for ``{numref}`` (letters, digits, '_' or '-').
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


__all__ = ["SOZLAMA", "diagramma", "fig", "show", "jadval_bundle", "md_escape"]
