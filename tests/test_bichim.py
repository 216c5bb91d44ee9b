"""Numbers in Uzbek form (chapter_code/bichim.py) and where the book uses them."""

import re

import matplotlib.pyplot as plt
import numpy as np
import pytest

from chapter_code import bichim
from chapter_code.bichim import INGICHKA, MINUS, OzbekFormat, foiz, oqlarni_ozbekcha, ozbekcha, son, yorliq
from sonni_oqish import songa


@pytest.mark.parametrize("qiymat, spec, kutilgan", [
    (0.997, ".3f", "0,997"),
    (0.5, "", "0,5"),
    (2.8e-5, ".1e", "2,8·10⁻⁵"),
    (2.8e-5, "", "2,8·10⁻⁵"),            # repr uses e-notation below 1e-4
    (4.7e11, ".2g", "4,7·10¹¹"),
    (1e-5, ".0e", "10⁻⁵"),                 # 1·10⁻⁵ is written 10⁻⁵
    (1.5e3, ".1e", "1,5·10³"),
    (1.05, ".2e", "1,05"),                 # ·10⁰ is left out
    (32768, "", f"32{INGICHKA}768"),
    (1234567, "", f"1{INGICHKA}234{INGICHKA}567"),
    (1024, "", "1024"),                     # four digits stay whole
    (2026, "d", "2026"),
    (35333.4, ",.0f", f"35{INGICHKA}333"),  # Python's ',' grouping becomes the thin space
    (12345.678, ".2f", f"12{INGICHKA}345,68"),
    (0.988, ".1%", f"98,8{INGICHKA}%"),
    (0.5, ".0%", f"50{INGICHKA}%"),
    (-0.25, ".2f", f"{MINUS}0,25"),
    (0.25, "+.2f", "+0,25"),
    (-3e-7, ".0e", f"{MINUS}3·10⁻⁷"),
    (float("inf"), "", "∞"),
    (float("-inf"), "", f"{MINUS}∞"),
    (np.float32(0.25), ".2f", "0,25"),
    (np.int64(40000), "", f"40{INGICHKA}000"),
    (np.array(0.125), ".3f", "0,125"),                # 0-dimensional array (as torch.tensor(x))
    (7, "", "7"),
])
def test_son_writes_uzbek_numbers(qiymat, spec, kutilgan):
    assert son(qiymat, spec) == kutilgan


def test_songa_reads_back_what_son_writes():
    for x in [0.997, -0.25, 2.8e-5, 4.7e11, 1e-5, 35333, 1234567, 1024, 0.5, -3e-7, 12345.678]:
        for spec in ("", ".3g", ".2e", ".4f"):
            assert songa(son(x, spec)) == pytest.approx(float(format(x, spec)), rel=1e-12)
    assert songa(foiz(0.61)) == pytest.approx(0.61) and songa("∞") == float("inf")
    for yomon in ["0.5", "1e-5", "35 333", "abc", "", "0,5 s"]:
        with pytest.raises(ValueError, match="not a number as son"):
            songa(yomon)


def test_son_has_no_python_marks_left():
    for x in np.geomspace(1e-9, 1e12, 60):
        for spec in ("", "g", ".3e", ".2f", ".1%"):
            s = son(float(x), spec)
            assert not re.search(r"[.e+]", s) and s.count(",") <= 1, (x, spec, s)


@pytest.mark.parametrize("yomon, xabar", [
    (("0.5",), "takes one number"), ((True,), "takes one number"), ((None,), "takes one number"),
    ((np.array([0.5, 0.25]),), "takes one number"),
    ((0.5, 3), "spec must be"), ((0.5, ".3q"), "use a spec such as"), ((0.5, "*>12.3f"), "leave width"),
])
def test_son_says_what_is_wrong(yomon, xabar):
    with pytest.raises((TypeError, ValueError), match=xabar):
        son(*yomon)


def test_foiz_and_its_checks():
    assert foiz(0.5) == f"50{INGICHKA}%" and foiz(0.988, 1) == f"98,8{INGICHKA}%"
    with pytest.raises(ValueError, match="number of decimals"):
        foiz(0.5, -1)
    with pytest.raises(ValueError, match="number of decimals"):
        foiz(0.5, 1.5)


@pytest.mark.parametrize("matn, kutilgan", [
    ("0.5", "0,5"), ("−0.5", f"{MINUS}0,5"), ("1e-05", "10⁻⁵"), ("35,333", f"35{INGICHKA}333"),
    ("nan", "—"), (" 12 ", "12"),
])
def test_ozbekcha_converts_python_number_text(matn, kutilgan):
    assert ozbekcha(matn) == kutilgan


@pytest.mark.parametrize("matn", ["GPT-2", "0.5 s", "abc", "1.2.3", ""])
def test_ozbekcha_refuses_what_is_not_one_number(matn):
    with pytest.raises(ValueError, match="not a number as Python writes it"):
        ozbekcha(matn)


@pytest.mark.parametrize("matn, kutilgan", [
    ("0.25", "0,25"), ("GPT-2", "GPT-2"), ("qadam", "qadam"), ("", ""),
    (r"$\mathdefault{10^{-3}}$", r"$\mathdefault{10^{-3}}$"),
    (r"$\mathdefault{2\times10^{-3}}$", r"$\mathdefault{2\cdot10^{-3}}$"),
    (r"$\mathdefault{0.5}$", r"$\mathdefault{0{,}5}$"),
])
def test_tick_labels(matn, kutilgan):
    assert yorliq(matn) == kutilgan


def _yorliqlar(oq):
    return [t.get_text() for t in oq.get_ticklabels() if t.get_text()]


def test_every_axis_of_a_figure_gets_uzbek_ticks():
    figura, (a, b) = plt.subplots(1, 2)
    a.plot([0, 0.5, 1.5], [-0.25, 0.75, 0.5])
    b.loglog([1e-4, 1e-1], [20000, 50000])
    tasvir = a.imshow(np.array([[0.1, 0.9]]), extent=(0, 1.5, 0, 0.5))
    figura.colorbar(tasvir, ax=a)
    figura.canvas.draw()
    oldin = [s for ax in figura.axes for oq in (ax.xaxis, ax.yaxis) for s in _yorliqlar(oq)]
    assert any("." in s for s in oldin)             # the check below can fail
    oqlarni_ozbekcha(figura)
    oqlarni_ozbekcha(figura)                        # idempotent: wrapped once
    figura.canvas.draw()
    keyin = [s for ax in figura.axes for oq in (ax.xaxis, ax.yaxis) for s in _yorliqlar(oq)]
    assert keyin and not any(re.search(r"\d[.e]|e[-+]?\d", s) for s in keyin), keyin
    assert any(r"\mathdefault{10^{" in s for s in keyin)   # log axes: powers of ten, unchanged
    assert "0,5" in _yorliqlar(a.xaxis)
    assert all(isinstance(oq.get_major_formatter(), OzbekFormat)
               and not isinstance(oq.get_major_formatter().ichki, OzbekFormat)
               for ax in figura.axes for oq in (ax.xaxis, ax.yaxis))
    plt.close(figura)


def test_kitob_fig_puts_uzbek_ticks_on_the_saved_figure(tmp_path, monkeypatch):
    from chapter_code import kitob
    saqlangan = []
    monkeypatch.setitem(kitob.SOZLAMA, "rasm_papkasi", tmp_path)
    monkeypatch.setattr(kitob, "_display", lambda *a, **k: None)
    monkeypatch.setattr(kitob, "glue", lambda *a, **k: None)
    asl = kitob._rasm_chiqar

    def ushla(figura, *a):
        figura.canvas.draw()
        saqlangan.extend(_yorliqlar(figura.axes[0].yaxis))
        return asl(figura, *a)
    monkeypatch.setattr(kitob, "_rasm_chiqar", ushla)
    plt.plot([0, 1], [0.1, 0.35])
    kitob.fig("raqam_sinov.png", "Sinov")
    assert saqlangan and any("," in s for s in saqlangan) and not any("." in s for s in saqlangan), saqlangan


def test_the_build_writes_glued_numbers_with_son():
    import sys
    from conftest import ILDIZ
    sys.path.insert(0, str(ILDIZ / "book" / "_ext"))
    from qurilish import glue
    from myst_nb.ext.glue import crossref, roles

    assert glue.ozbekcha_format("0.99712", ".3f") == "0,997"
    assert glue.ozbekcha_format("2.8e-05", ".1e") == "2,8·10⁻⁵"
    assert glue.ozbekcha_format("35333", "s") == f"35{INGICHKA}333"   # no spec: the role passes "s"
    assert glue.ozbekcha_format("'T = 60'", "s") == "T = 60"          # text is left as text
    assert glue.ozbekcha_format("True", "s") == "True"
    ulangan = []
    glue.setup(type("App", (), {"connect": lambda self, hodisa, fn: ulangan.append((hodisa, fn))})())
    assert roles.format_plain_text is glue.ozbekcha_format
    assert crossref.format_plain_text is glue.ozbekcha_format
    assert bichim.son is glue.son
    assert sorted(ulangan, key=str) == sorted([
        ("doctree-read", glue._gaplar), ("doctree-read", glue._manbalari),
        ("doctree-resolved", glue._gaplar), ("doctree-resolved", glue._qoshimchalar)], key=str)


def test_glued_sentences_are_marked_for_body_weight_and_numbers_are_not():
    import sys
    from conftest import ILDIZ
    sys.path.insert(0, str(ILDIZ / "book" / "_ext"))
    from qurilish import glue
    from docutils import nodes

    hujjat = nodes.paragraph()
    jumla = nodes.inline("", "uch seeddan ikkitasida vazifani yechdi", classes=["pasted-text"])
    son_ = nodes.inline("", "0,997", classes=["pasted-text"])
    ikki = nodes.inline("", "ham ishladi", classes=["pasted-text"])
    boshqa = nodes.inline("", "bu uch soʻz", classes=["boshqa"])
    hujjat += [jumla, son_, ikki, boshqa]
    glue._gaplar(None, hujjat)
    assert "pasted-gap" in jumla["classes"]
    assert all("pasted-gap" not in t["classes"] for t in (son_, ikki, boshqa))


@pytest.mark.build
def test_every_figure_of_the_built_book_writes_its_numbers_in_uzbek_form(qurilgan):
    """The vector figures of the PDF build (the same figures as the web's PNGs): their text
    (tick labels, values written on heatmaps, titles) has no decimal point and no e-notation."""
    import subprocess

    rasmlar = [p for p in (qurilgan / "latex").glob("*.pdf") if not p.stem.startswith("attention")]
    assert len(rasmlar) >= 10, rasmlar
    vergulli = 0
    for p in rasmlar:
        matn = subprocess.run(["pdftotext", str(p), "-"], capture_output=True, text=True, check=True).stdout
        assert not re.search(r"\d\.\d|\de[-+]?\d", matn), (p.name, re.findall(r".{20}(?:\d\.\d|\de[-+]?\d).{10}", matn))
        vergulli += len(re.findall(r"\d,\d", matn))
    assert vergulli >= 20          # the figures do write decimals: in the Uzbek form


@pytest.mark.parametrize("qiymat, xona, past, yuqori", [
    (0.946, 2, 0.94, 0.95), (0.356, 2, 0.35, 0.36), (0.101, 2, 0.10, 0.11),
    (0.95, 2, 0.95, 0.95), (0.3, 1, 0.3, 0.3), (2.25, 2, 2.25, 2.25)])
def test_bounds_round_toward_the_claim(qiymat, xona, past, yuqori):
    """'kamida x' is never above the measured value, 'koʻpi bilan x' never below it; a value
    already at the decimals is left as it is (0,95 stays 0,95, not 0,94 by float noise)."""
    from chapter_code.bichim import pastga, yuqoriga
    assert pastga(qiymat, xona) == past <= qiymat
    assert yuqoriga(qiymat, xona) == yuqori >= qiymat


def test_yopishtir_needs_a_value():
    from chapter_code.kitob import yopishtir
    with pytest.raises(ValueError, match="hech qanday qiymat berilmadi"):
        yopishtir()


def test_a_case_ending_after_a_number_or_a_symbol_never_starts_a_line():
    """"4096 da", "T ga", "960 gacha": a no-break space before the ending, also where the source
    broke the line there (the PDF broke 19 such pairs across lines), after a digit, a formula, a glued number or a one-letter symbol; code
    and ordinary words are left as they are."""
    import sys
    from conftest import ILDIZ
    sys.path.insert(0, str(ILDIZ / "book" / "_ext"))
    from qurilish import glue
    from docutils import nodes

    gap = nodes.paragraph()
    gap += nodes.Text("Xotira T = 4096 da oʻsadi, 960\ngacha; 64 ta namuna, 50 % ni; bu dan emas ")
    gap += nodes.math("", "T")
    gap += nodes.Text("\nga bogʻliq, ")
    gap += nodes.emphasis("", "d")
    gap += nodes.Text(" = 128 da; ")
    gap += nodes.inline("", "0,97", classes=["pasted-text"])
    gap += nodes.Text(" dan yuqori; ")
    gap += nodes.Text("\n")                  # an earlier line break, equal to the one below
    gap += nodes.Text("T ni 960")            # MyST: a line break of the source is a text of its own
    gap += nodes.Text("\n")
    gap += nodes.Text("gacha; ")
    gap += nodes.Text("soni 64")
    gap += nodes.Text("\nta")
    gap += nodes.emphasis("", "katta")
    gap += nodes.Text(" da emas; ")
    gap += nodes.literal("", "KopBoshli")
    gap += nodes.Text(" ning kodida ")
    gap += nodes.literal("", "x = 3 da")
    hujjat = nodes.document(None, None)
    hujjat += gap
    glue._qoshimchalar(None, hujjat)
    assert gap.astext() == ("Xotira T = 4096\u00a0da oʻsadi, 960\u00a0gacha; 64\u00a0ta namuna, 50 %\u00a0ni; "
                            "bu dan emas T\u00a0ga bogʻliq, d = 128\u00a0da; 0,97\u00a0dan yuqori; \nT ni 960\u00a0gacha; soni 64\u00a0ta"
                            "katta da emas; "
                            "KopBoshli\u00a0ning kodida x = 3 da")


def test_a_word_after_a_number_stays_on_its_line_but_not_after_a_name_in_code():
    """"59 qadamimizda", "$i = 0$ juftlikning", a glued "60" and "qadamdan": after a number any
    lower-case word is joined by a no-break space (an editor found three breaks in the PDF);
    after a name in code or a symbol only an ending is, and a capital word never."""
    import sys
    from conftest import ILDIZ
    sys.path.insert(0, str(ILDIZ / "book" / "_ext"))
    from qurilish import glue
    from docutils import nodes

    gap = nodes.paragraph()
    gap += nodes.Text("bizning 59 qadamimizda, ")
    gap += nodes.math("", "i = 0")
    gap += nodes.Text("\njuftlikning, ")
    gap += nodes.inline("", "60", classes=["pasted-text"])
    gap += nodes.Text(" qadamdan; ")
    gap += nodes.literal("", "nn.Linear")
    gap += nodes.Text(" bilan, ")
    gap += nodes.emphasis("", "T")
    gap += nodes.Text(" bilan, 2017 Vaswani, 30 ")
    gap += nodes.reference("", "epoxa")          # a glossary link: the word in a node of its own
    gap += nodes.Text(" oʻqitamiz")
    hujjat = nodes.document(None, None)
    hujjat += gap
    glue._qoshimchalar(None, hujjat)
    assert gap.astext() == ("bizning 59\u00a0qadamimizda, i = 0\u00a0juftlikning, 60\u00a0qadamdan; "
                            "nn.Linear bilan, T bilan, 2017 Vaswani, 30\u00a0epoxa oʻqitamiz")
