"""The book helpers: diagramma, show, fig - their files, their markup and their errors."""

import base64
import io

import IPython.core.formatters
import matplotlib.pyplot as plt
import myst_nb.ext.glue
import nbformat
import pandas as pd
import pytest
import yaml
from myst_nb.core.render import get_mime_priority
from PIL import Image

from chapter_code import kitob
from chapter_code.kitob import diagramma, fig, izoh_md, jadval_bundle, md_escape, show

QUTILAR = {
    "A": (0.0, 0.0, 1.0, 0.5, "manba"),
    "B\\nikki qator": (2.0, 0.0, 1.0, 0.5, "xizmat"),
    "C": (1.0, 1.0, 1.0, 0.5, "qayta"),
}
YOYLAR = [("A", "B\\nikki qator"), ("B\\nikki qator", "C")]


GLUE = "application/papermill.record/"


@pytest.fixture(autouse=True)
def glue_kitob_display_orqali(monkeypatch):
    """Publish what MyST-NB's glue() displays through kitob._display (chiqishlar captures it).

    In the kernel glue() formats the object with the shell's DisplayFormatter and
    publishes it with IPython's display().  Here glue() itself runs unchanged;
    only those two ends are replaced: a fresh DisplayFormatter (so no global
    InteractiveShell is created in the test process) and kitob._display.
    """
    formatter = IPython.core.formatters.DisplayFormatter()
    monkeypatch.setattr(IPython.core.formatters, "format_display_data",
                        lambda obj, include=None, exclude=None: formatter.format(obj, include, exclude))
    monkeypatch.setattr(myst_nb.ext.glue, "ipy_display",
                        lambda bundle, raw, metadata: kitob._display(bundle, metadata))


@pytest.fixture(autouse=True)
def yozuvlarsiz(monkeypatch):
    """A figure in the source's script only, as a reader's run draws it (a build in this process
    may have asked for the editions' scripts: yozuvda.py sets KITOB_YOZUVLAR for its kernels)."""
    monkeypatch.delenv(kitob.YOZUVLAR_MUHITI, raising=False)


def _png(bundle_key_data):
    return Image.open(io.BytesIO(base64.b64decode(bundle_key_data)))


def _mime_tanlovi(data: dict, builder: str) -> str:
    """The mime type MyST-NB renders for ``builder`` with the book's _config.yml overrides."""
    sozlama = yaml.safe_load((kitob.ILDIZ / "_config.yml").read_text())["sphinx"]["config"]
    tartib = get_mime_priority(builder, [tuple(o) for o in sozlama["nb_mime_priority_overrides"]])
    return next(m for m in tartib if m in data)


def test_diagramma_writes_a_valid_png_and_a_numbered_figure(chiqishlar, tmp_path):
    diagramma(QUTILAR, YOYLAR, nom="sinov.png", izoh="Sinov diagrammasi.")
    fayl = tmp_path / "rasmlar" / "sinov.png"
    rasm = Image.open(fayl)
    rasm.verify()
    assert rasm.format == "PNG" and rasm.size[0] > 100 and rasm.size[1] > 50
    (glue, glue_meta), (qora, qora_meta), (korinish, _) = chiqishlar
    assert glue_meta["scrapbook"] == {"name": "sinov", "mime_prefix": GLUE}
    # the dark theme's picture, glued beside it: a PNG only (the PDF never shows it)
    assert qora_meta["scrapbook"]["name"] == "sinov" + kitob.QORA
    assert set(qora) == {GLUE + "image/png", GLUE + "text/plain"}
    assert set(glue) == {GLUE + "image/png", GLUE + "application/pdf", GLUE + "text/plain"}
    assert base64.b64decode(glue[GLUE + "image/png"]) == fayl.read_bytes()
    assert base64.b64decode(glue[GLUE + "application/pdf"]).startswith(b"%PDF")
    md = korinish["text/markdown"]
    assert md.startswith("```{glue:figure} sinov\n:name: sinov\n:alt: ")
    assert "Sinov diagrammasi\\." in md
    # the default alt text reads the arrows as one chain, line breaks as spaces; a directive
    # option is literal, so it carries no markdown escapes
    alt = next(q for q in md.splitlines() if q.startswith(":alt: "))
    assert alt == ":alt: Diagramma: A → B ikki qator → C."


def test_a_diagrams_alt_text_reads_its_chains_once_and_its_labels_after():
    """Each box is named once where it can be: a chain of arrows is one «a → b → c», a branch
    starts a new one, a box with no arrow is a label («Yozuvlar»), a cycle lists its arrows."""
    from chapter_code.kitob import _diagramma_alt

    q = {k: None for k in ["Izoh:\nikki qator", "0", "1", "…", "59", "a", "b", "c"]}
    assert _diagramma_alt(q, [("0", "1"), ("1", "…"), ("…", "59"), ("a", "b"), ("a", "c")]) == \
        "Diagramma: 0 → 1 → … → 59; a → b; a → c. Yozuvlar: Izoh: ikki qator."
    assert _diagramma_alt({"a": 0, "b": 0}, [("a", "b"), ("b", "a")]) == "Diagramma: a → b; b → a."


def test_glued_figure_gives_png_to_html_and_vector_pdf_to_latex(chiqishlar):
    """What MyST-NB reads back from the glue output: PNG for the web, PDF for the PDF build."""
    diagramma(QUTILAR, YOYLAR, nom="yopishgan.png", izoh="Yopishgan.")
    glue, glue_meta = chiqishlar[0]
    hujayra = nbformat.v4.new_code_cell(outputs=[
        nbformat.v4.new_output("display_data", data=glue, metadata=glue_meta),
        nbformat.v4.new_output("display_data", data=chiqishlar[2][0]),
    ])
    ((nom, chiqish),) = myst_nb.ext.glue.extract_glue_data_cell(hujayra)
    assert nom == "yopishgan"
    assert len(hujayra.outputs) == 1          # the glued picture itself is not shown
    data = chiqish["data"]
    assert _mime_tanlovi(data, "html") == "image/png"
    assert _mime_tanlovi(data, "latex") == "application/pdf"
    assert _png(data["image/png"]).format == "PNG"
    assert base64.b64decode(data["application/pdf"]).startswith(b"%PDF")
    assert data["text/plain"] == "<rasm yopishgan>"


def _yorugligi(rgb) -> float:
    c = [v / 255 for v in rgb[:3]]
    c = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]


def test_the_dark_picture_is_the_same_figure_on_the_dark_theme(chiqishlar):
    """Its background is the theme's, its axis text and black lines are light (contrast with the
    background at least 4,5:1), the data's colours and a colour map's cell numbers stay."""
    _, ax = plt.subplots(1, 2)
    ax[0].plot([0, 1], [1, 0], color="black", label="qora")
    ax[0].plot([0, 1], [0, 1], color="tab:orange", label="sariq")
    ax[0].set_xlabel("qadam")
    ax[0].legend()
    ax[1].imshow([[0, 1], [1, 0]], cmap="viridis")
    ax[1].text(0, 0, "0,5", color="white")
    ax[1].text(1, 0, "0,9", color="black")
    fig("qorongi.png", caption="Qorongʻi.")
    oq, qora = (_png(chiqishlar[i][0][GLUE + "image/png"]).convert("RGB") for i in (0, 1))
    assert oq.size == qora.size
    fon = tuple(int(kitob.QORONGI["fon"][i:i + 2], 16) for i in (1, 3, 5))
    assert qora.getpixel((2, 2)) == fon and oq.getpixel((2, 2)) == (255, 255, 255)
    ranglar = {qora.getpixel((x, y)) for x in range(0, qora.size[0], 2) for y in range(0, qora.size[1], 2)}
    # the orange line and the colour map are in both pictures, dimmed in the dark one
    xira = kitob.QORONGI_YORUGLIK
    for rang in ((255, 127, 14), (68, 1, 84), (253, 231, 36)):
        assert rang in {oq.getpixel((x, y)) for x in range(0, oq.size[0], 2) for y in range(0, oq.size[1], 2)}
        assert tuple(round(v * xira) for v in rang) in ranglar, rang
    # nothing is brighter than the page's text (the colour map's yellow was)
    assert max(max(r) for r in ranglar) <= max(int(kitob.QORONGI["matn"][i:i + 2], 16) for i in (1, 3, 5))
    # no black is left but the number written on its cell (kept: it reads on the yellow cell)
    matn = tuple(int(kitob.QORONGI["matn"][i:i + 2], 16) for i in (1, 3, 5))
    assert (_yorugligi(matn) + 0.05) / (_yorugligi(fon) + 0.05) >= 4.5
    assert matn in ranglar
    kenglik = qora.size[0]
    chap = {qora.getpixel((x, y)) for x in range(0, kenglik // 2) for y in range(0, qora.size[1])}
    assert (0, 0, 0) not in chap, "black is left on the dark picture's plot"
    assert (0, 0, 0) in {qora.getpixel((x, y)) for x in range(kenglik // 2, kenglik) for y in range(qora.size[1])}


def test_a_diagrams_labels_keep_their_colour_on_their_boxes(chiqishlar):
    diagramma(QUTILAR, YOYLAR, nom="qora_diagramma.png", izoh="Qorongʻi diagramma.")
    qora = _png(chiqishlar[1][0][GLUE + "image/png"]).convert("RGB")
    ranglar = {qora.getpixel((x, y)) for x in range(0, qora.size[0], 2) for y in range(0, qora.size[1], 2)}
    for fon, _ in kitob.SOZLAMA["ranglar"].values():
        assert tuple(round(int(fon[i:i + 2], 16) * kitob.QORONGI_YORUGLIK) for i in (1, 3, 5)) in ranglar
    assert tuple([round(0x1a * kitob.QORONGI_YORUGLIK)] * 3) in {qora.getpixel((x, y)) for x in range(qora.size[0]) for y in range(qora.size[1])}


def test_diagramma_breaks_lines_on_backslash_n_and_newline():
    assert kitob._qator("a\\nb") == "a\nb"
    assert kitob._qator("a\nb") == "a\nb"


def test_diagramma_colours_each_kind_from_the_palette(chiqishlar, tmp_path):
    diagramma(QUTILAR, YOYLAR, nom="rang.png", izoh="Ranglar.")
    rasm = Image.open(tmp_path / "rasmlar" / "rang.png").convert("RGB")
    ranglar = {rasm.getpixel((x, y)) for x in range(0, rasm.size[0], 3) for y in range(0, rasm.size[1], 3)}
    for fon, _ in kitob.SOZLAMA["ranglar"].values():
        rgb = tuple(int(fon[i:i + 2], 16) for i in (1, 3, 5))
        assert rgb in ranglar, f"fill colour {fon} of a kind is not in the picture"


def test_fig_saves_closes_and_shows(chiqishlar, tmp_path):
    plt.subplots()
    plt.plot([0, 1], [1, 0])
    fig("chiziq.png", caption="Bitta chiziq.")
    assert Image.open(tmp_path / "rasmlar" / "chiziq.png").format == "PNG"
    assert plt.get_fignums() == []
    (glue, glue_meta), _, (korinish, _) = chiqishlar
    assert glue_meta["scrapbook"]["name"] == "chiziq" and GLUE + "application/pdf" in glue
    md = korinish["text/markdown"]
    assert ":name: chiziq" in md and ":alt: Bitta chiziq.\n" in md


def test_a_figures_alt_text_keeps_the_numbers_thin_space_and_drops_the_italics(chiqishlar):
    """The alt text is one line, but "138 402" keeps its U+202F (str.split took it for a space)
    and a caption's *T* is read as T."""
    plt.subplots()
    plt.plot([0, 1], [1, 0])
    fig("son.png", caption="138\u202f402 sonini yozish,\n*T* = 60.")
    md = chiqishlar[-1][0]["text/markdown"]
    assert ":alt: 138\u202f402 sonini yozish, T = 60.\n" in md, md


def test_fig_can_write_a_pdf_file(chiqishlar, tmp_path):
    plt.subplots()
    plt.plot([0, 1], [1, 0])
    fig("chiziq.pdf", caption="Bitta chiziq.")
    fayl = (tmp_path / "rasmlar" / "chiziq.pdf").read_bytes()
    assert fayl.startswith(b"%PDF")
    glue = chiqishlar[0][0]
    assert base64.b64decode(glue[GLUE + "application/pdf"]) == fayl


def test_show_builds_a_numbered_table_with_escaped_cells():
    df = pd.DataFrame({"matn": ["<script>alert(1)</script>", "a|b"], "son": [1.5, 2]})
    b = jadval_bundle(df, izoh="Sinov $jadvali$.", nom="sinov_jadval")
    md = b["text/markdown"]
    assert md.splitlines()[0] == "```{table} Sinov \\$jadvali\\$\\."
    assert ":name: sinov_jadval" in md
    assert "\\<script\\>alert\\(1\\)\\<\\/script\\>" in md
    assert "a\\|b" in md
    assert "|:---|---:|" in md            # text left, numbers right
    assert "<script>" not in b["text/html"] and "&lt;script&gt;" in b["text/html"]
    assert "<caption>Sinov $jadvali$.</caption>" in b["text/html"]
    assert b["text/plain"].startswith("Sinov $jadvali$.\n")


def test_a_captions_variable_is_italic_as_in_the_prose_and_nothing_else_is_markup():
    """izoh «*T* = 60 da» keeps *T* as emphasis (the prose writes *T*); any other asterisk, a
    longer word between asterisks and every other punctuation stay escaped text."""
    b = jadval_bundle(pd.DataFrame({"a": [1]}), izoh="Gradient (*T* = 60, *d_k*), 2*3 va *uzun*.", nom="j")
    assert b["text/markdown"].splitlines()[0] == \
        "```{table} Gradient \\(*T* \\= 60\\, \\*d\\_k\\*\\)\\, 2\\*3 va \\*uzun\\*\\."
    assert "<caption>Gradient (<i>T</i> = 60, *d_k*), 2*3 va *uzun*.</caption>" in b["text/html"]
    assert b["text/plain"].startswith("Gradient (T = 60, *d_k*), 2*3 va *uzun*.\n")
    assert izoh_md("  *T*  va\n*d* ") == "*T* va *d*"         # spaces collapse as md_escape's do


def test_numbers_already_in_the_books_form_are_aligned_right():
    """A column of numbers the lesson wrote in the book's form (strings) reads as numbers: right."""
    df = pd.DataFrame({"model": ["RNN", "LSTM"], "nisbat": ["2,427·10⁻¹⁷", "35\u202f333"],
                       "seedlar": ["0,996; 0,998", "0,5; 61\u202f%"], "izoh": ["0,5 dan", "—"]})
    assert "|:---|---:|---:|:---|" in jadval_bundle(df)["text/markdown"]


def test_show_without_caption_is_an_unnumbered_table(chiqishlar):
    show(pd.DataFrame({"a": [1]}))
    md = chiqishlar[0][0]["text/markdown"]
    assert md.splitlines()[0] == "```{table}" and ":name:" not in md


def test_md_escape_escapes_every_ascii_punctuation():
    assert md_escape("a*b_c`d") == "a\\*b\\_c\\`d"
    assert md_escape("bir\nikki") == "bir ikki"
    assert md_escape("oʻrtacha") == "oʻrtacha"


# --------------------------------------------------------------------------
# bad input: a clear error before anything is drawn or written
# --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "qutilar, yoylar, xato, matn",
    [
        ({"A": (0, 0, 1, 1, "yoq")}, [], ValueError, "unknown kind 'yoq'; valid kinds: manba, qayta, xizmat"),
        ({"A": (0, 0, 1, 1, "manba")}, [("A", "Z")], ValueError, "names box 'Z', which does not exist"),
        ({"A": (0, 0, 0, 1, "manba")}, [], ValueError, "width=0, height=1; both must be positive"),
        ({"A": (0, 0, 1, -2, "manba")}, [], ValueError, "both must be positive"),
        ({"A": (0, 0, 1, "x", "manba")}, [], TypeError, "must be numbers"),
        ({"A": (0, 0, 1, 1)}, [], ValueError, "must be (x, y, w, h, kind)"),
        ([], [], TypeError, "non-empty dict"),
        ({"A": (0, 0, 1, 1, "manba")}, [("A",)], ValueError, "(from, to) pair"),
    ],
)
def test_diagramma_rejects_bad_input_before_drawing(chiqishlar, tmp_path, qutilar, yoylar, xato, matn):
    with pytest.raises(xato) as e:
        diagramma(qutilar, yoylar, nom="yomon.png", izoh="Yomon.")
    assert matn in str(e.value)
    assert chiqishlar == [] and not (tmp_path / "rasmlar").exists()


@pytest.mark.parametrize("nom", ["../x.png", "/tmp/x.png", "a/b.png", "x.gif", "x.svg", "x", "", ".png", 5])
def test_picture_names_cannot_leave_the_build_folder(chiqishlar, tmp_path, nom):
    with pytest.raises((ValueError, TypeError)) as e:
        diagramma(QUTILAR, YOYLAR, nom=nom, izoh="Yomon.")
    assert "nom" in str(e.value)
    assert chiqishlar == [] and not (tmp_path / "rasmlar").exists()


def test_picture_name_error_lists_the_accepted_endings(chiqishlar):
    with pytest.raises(ValueError, match=r"followed by one of \.png, \.pdf \(for example"):
        diagramma(QUTILAR, YOYLAR, nom="x.svg", izoh="Yomon.")


@pytest.mark.parametrize("yomon", [[1, 2], {"a": [1]}, "jadval", None, pd.Series([1])])
def test_show_rejects_what_is_not_a_dataframe(chiqishlar, yomon):
    with pytest.raises(TypeError, match="show\\(\\) takes a pandas DataFrame, got"):
        show(yomon)
    assert chiqishlar == []


def test_show_rejects_a_label_without_a_caption(chiqishlar):
    with pytest.raises(ValueError, match="needs izoh"):
        show(pd.DataFrame({"a": [1]}), nom="x")
    assert chiqishlar == []


def test_fig_without_an_open_figure_is_an_error(chiqishlar, tmp_path):
    plt.close("all")
    with pytest.raises(ValueError, match="no open matplotlib figure"):
        fig("bosh.png", caption="Boʻsh.")
    assert chiqishlar == [] and not (tmp_path / "rasmlar").exists()


def test_fig_with_nothing_drawn_is_an_error(chiqishlar, tmp_path):
    plt.subplots()
    with pytest.raises(ValueError, match="nothing drawn"):
        fig("bosh.png", caption="Boʻsh.")
    assert plt.get_fignums() == [] and chiqishlar == []


def test_empty_caption_is_an_error(chiqishlar):
    with pytest.raises(ValueError, match="izoh must be a non-empty string"):
        diagramma(QUTILAR, YOYLAR, nom="x.png", izoh="  ")


def test_show_keeps_integer_columns_integer_in_mixed_tables():
    df = pd.DataFrame({"T": [30, 960], "MiB": [0.22, 487.51]})
    qatorlar = jadval_bundle(df)["text/markdown"].splitlines()
    assert "| 30 | 0\\,22 |" in qatorlar and "| 960 | 487\\,51 |" in qatorlar   # decimal comma (bichim.son)


def test_md_escape_keeps_the_narrow_no_break_space_of_uzbek_numbers():
    from chapter_code.bichim import son
    assert md_escape(f"T = {son(32768)}\nva {son(0.61, '.0%')}") == "T \\= 32\u202f768 va 61\u202f\\%"
    assert md_escape("a \t\n  b") == "a b"                      # ordinary whitespace still collapses


def test_show_gives_a_float_column_one_number_of_decimals():
    df = pd.DataFrame({"T": [30, 60], "aniqlik": [0.99, 0.994], "MiB": [225.0, 0.22],
                       "kichik": [2.8e-05, 0.5], "aralash": [0.9, "vektor yoʻq"]})
    qatorlar = jadval_bundle(df)["text/markdown"].splitlines()
    assert "| 30 | 0\\,990 | 225\\,00 | 2\\,8·10⁻⁵ | 0\\,9 |" in qatorlar, qatorlar
    assert "| 60 | 0\\,994 | 0\\,22 | 0\\,5 | vektor yoʻq |" in qatorlar, qatorlar


# --- figures read at phone width (issue 24, item 2) -----------------------------------------

def _telefonda_px(png: Image.Image, shrift: float) -> float:
    """CSS px of ``shrift``-pt text of the picture shown SOZLAMA["telefon_px"] wide."""
    return shrift * kitob.SOZLAMA["dpi"] / 72 * kitob.SOZLAMA["telefon_px"] / png.size[0]


def test_a_wide_figure_with_small_text_is_refused_with_the_fix(chiqishlar):
    plt.subplots(1, 2, figsize=(11, 3.6))[1][0].plot([0, 1], [1, 0])
    with pytest.raises(ValueError, match=r"keng\.png: its smallest text .* CSS px .* at most "
                                         r"[\d.]+ in wide: stack the panels"):
        fig("keng.png", caption="Keng rasm.")
    assert plt.get_fignums() == [] and chiqishlar == []


def test_a_stacked_figure_reads_at_phone_width_and_its_png_says_its_smallest_text(chiqishlar, tmp_path):
    _, (b1, b2) = plt.subplots(2, 1, figsize=(5.6, 6.4))
    b1.plot([0, 1], [1, 0])
    b2.plot([0, 1], [0, 1])
    b2.legend(["ikkinchi"], fontsize=12)
    fig("ustma_ust.png", caption="Ikki panel.")
    png = Image.open(tmp_path / "rasmlar" / "ustma_ust.png")
    shrift = float(png.text[kitob.SHRIFT_KALITI])
    assert shrift == plt.rcParams["font.size"]       # the ticks' size, smaller than the legend's
    assert _telefonda_px(png, shrift) >= kitob.SOZLAMA["eng_kichik_px"]


def test_the_smallest_text_is_found_among_annotations_too():
    f, b = plt.subplots(figsize=(4, 3))
    b.plot([0, 1])
    b.text(0.5, 0.5, "kichik", fontsize=6)
    b.text(5, 5, "tashqarida", fontsize=3)           # outside the picture: not drawn
    assert kitob.eng_kichik_matn(f) == (6, "kichik")
    plt.close(f)


def test_a_diagram_label_that_fits_only_below_the_phone_size_is_refused(chiqishlar):
    qutilar = {"juda uzun yorliq, bir qatorda sigʻmaydi": (0.0, 0.0, 1.0, 0.4, "manba"),
               "B": (5.0, 0.0, 1.0, 0.4, "xizmat")}
    with pytest.raises(ValueError, match=r"does not fit its box at [\d.]+ pt.*\\n"):
        diagramma(qutilar, [], nom="tor.png", izoh="Tor quti.")
    assert chiqishlar == []


def test_a_diagrams_labels_read_at_phone_width(chiqishlar, tmp_path):
    diagramma(QUTILAR, YOYLAR, nom="diagramma.png", izoh="Uch quti.")
    png = Image.open(tmp_path / "rasmlar" / "diagramma.png")
    assert _telefonda_px(png, float(png.text[kitob.SHRIFT_KALITI])) >= kitob.SOZLAMA["eng_kichik_px"]


def _xarita_misoli():
    import torch

    from chapter_code.modellar import Tarjimon
    from chapter_code.sonlar import MANBA, MAQSAD, hamma_ogirliklar

    torch.manual_seed(0)
    model = Tarjimon(len(MANBA), len(MAQSAD), d=16, boshlar=4, qatlamlar=1)
    return [hamma_ogirliklar(model, n) for n in (347_205, 12)]


def test_a_map_is_raw_html_for_the_book_and_html_for_jupyterlab(chiqishlar):
    """The book gets MyST markdown holding one raw HTML block (left out of the PDF by the LaTeX
    writer); its data are the examples as given, in a JSON script that cannot close early."""
    import json
    import re

    misollar = _xarita_misoli()
    misollar[0]["sozlar"][0] = "</script><b>"          # a token that would end the script
    kitob.xarita("tarjima", misollar, izoh="Sinov <xaritasi>.")
    (bundle, _), = chiqishlar
    assert _mime_tanlovi(bundle, "html") == "text/markdown" == _mime_tanlovi(bundle, "latex")
    md = bundle["text/markdown"]
    assert md.startswith("```{raw} html\n") and md.rstrip().endswith("```") and md.count("```") == 2
    html_ = bundle["text/html"]
    assert html_ in md and 'class="kitob-xarita" data-xarita="tarjima"' in html_
    assert "Sinov &lt;xaritasi&gt;." in html_ and "JavaScript" in html_
    skript = re.search(r'<script type="application/json" data-xarita-malumot>(.*?)</script>', html_, re.S)
    assert "</" not in skript.group(1)
    assert json.loads(skript.group(1).replace("<\\/", "</")) == {"misollar": misollar}


@pytest.mark.parametrize("buzish, xato", [
    (lambda m: m.clear(), "non-empty list"),
    (lambda m: m[1].pop("cross"), r"misollar\[1\] lacks cross"),
    (lambda m: m[0]["koder"][0][2].pop(), r"misollar\[0\]\['koder'\]: every head must hold one row per 'sozlar'"),
    (lambda m: m[0]["cross"][0][0][0].pop(), r"misollar\[0\]\['cross'\]"),
])
def test_a_map_rejects_examples_whose_shapes_do_not_match_their_tokens(chiqishlar, buzish, xato):
    misollar = _xarita_misoli()
    buzish(misollar)
    with pytest.raises(ValueError, match=xato):
        kitob.xarita("tarjima", misollar, izoh="Sinov.")
    with pytest.raises(ValueError, match="nom="):
        kitob.xarita("yomon nom", _xarita_misoli(), izoh="Sinov.")
    assert not chiqishlar


def test_the_softmax_control_carries_the_scores_and_rejects_what_is_not_a_square_of_numbers(chiqishlar):
    import json
    import re

    import torch

    ball = torch.randn(4, 4, requires_grad=True)
    kitob.softmax_xaritasi("softmax", ball, 8, izoh="Sinov.")
    (bundle, _), = chiqishlar
    assert _mime_tanlovi(bundle, "latex") == "text/markdown" and bundle["text/markdown"].startswith("```{raw} html")
    skript = re.search(r"data-xarita-malumot>(.*?)</script>", bundle["text/html"], re.S).group(1)
    assert json.loads(skript) == {"ballar": ball.detach().tolist(), "d": 8}
    for yomon, d, xato in [(torch.ones(3, 4), 8, "square"), (torch.ones(4), 8, "square"),
                           (torch.tensor([[1.0, float("nan")], [0.0, 1.0]]), 8, "finite"),
                           (torch.ones(2, 2), 0, "positive int")]:
        with pytest.raises(ValueError, match=xato):
            kitob.softmax_xaritasi("softmax", yomon, d, izoh="Sinov.")
    assert len(chiqishlar) == 1


def test_a_figure_is_drawn_in_each_scripts_edition_from_the_same_figure(chiqishlar, monkeypatch):
    """With KITOB_YOZUVLAR (the build's kernels), fig() glues the same figure with its words in
    Cyrillic, light and dark; tick labels (values, the model's tokens) and formulas stay as drawn,
    and the figure's own words are the Latin ones again afterwards."""
    import json

    monkeypatch.setenv(kitob.YOZUVLAR_MUHITI, json.dumps(
        {"yol": [str(kitob.ILDIZ / "book" / "_ext")], "otkazgich": "qurilish.yozuv:figura_otkazgichi",
         "papka": str(kitob.ILDIZ / "book" / "_yozuvlar"), "nomlar": ["kirill"]}))
    rasm, ax = plt.subplots(figsize=(5.6, 3.6))
    ax.bar(["soʻz", "harf"], [1, 2])
    ax.set_title("Xotira choʻqqisi")
    ax.set_ylabel("vaqt ($T^2$ gacha)")
    ((nom, kirill),) = kitob._yozuvlar(__import__("os").environ[kitob.YOZUVLAR_MUHITI])
    assert nom == "kirill"
    with kitob._yozuvda(rasm, kirill):
        assert ax.get_title() == "Хотира чўққиси"
        assert ax.get_ylabel() == "вақт ($T^2$ гача)"
        assert [t.get_text() for t in ax.get_xticklabels()] == ["soʻz", "harf"]
    assert (ax.get_title(), ax.get_ylabel()) == ("Xotira choʻqqisi", "vaqt ($T^2$ gacha)")
    fig("yozuvli.png", caption="Yozuvli rasm.")
    glue = {meta["scrapbook"]["name"]: {k[len(GLUE):]: v for k, v in bundle.items() if k.startswith(GLUE)}
            for bundle, meta in chiqishlar if "scrapbook" in meta}
    assert set(glue) == {"yozuvli", "yozuvli-qora", "yozuvli-kirill", "yozuvli-kirill-qora"}
    lotin, kirillcha = _png(glue["yozuvli"]["image/png"]), _png(glue["yozuvli-kirill"]["image/png"])
    assert lotin.tobytes() != kirillcha.tobytes()           # the words differ, drawn
    assert base64.b64decode(glue["yozuvli-kirill"]["application/pdf"]).startswith(b"%PDF")
    assert _png(glue["yozuvli-kirill-qora"]["image/png"]).getpixel((2, 2))[:3] != (255, 255, 255)


def test_a_tables_columns_of_latin_tokens_are_marked_so_an_edition_keeps_them():
    """df.attrs["lotin"] names columns whose text is the Latin script itself (tokens): their cells
    are in the {lotin} role, taken as written; a cell the role cannot hold is escaped as any."""
    df = pd.DataFrame({"tartib": [1, 2, 3], "token": ["·kesh", "a|b", "oʻ"], "izoh": ["bir", "ikki", "uch"]})
    df.attrs["lotin"] = ["token"]
    md = kitob.jadval_bundle(df, "Tokenlar.", "t")["text/markdown"]
    assert "| 1 | {lotin}`·kesh` | bir |" in md and "| 3 | {lotin}`oʻ` | uch |" in md
    assert r"| 2 | a\|b | ikki |" in md
