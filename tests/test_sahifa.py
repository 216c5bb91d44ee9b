"""Unit tests of book/_ext/qurilish/sahifa.py, shrift.py and yakun.py (fast on a phone) and tools/xizmat.py (the site served as a host serves it)."""

from __future__ import annotations

import gzip
import os
import re
import urllib.request
from pathlib import Path

import pytest
from docutils.core import publish_doctree

from qurilish import SOZLAMALAR, sahifa, shrift, yakun

MATN = set(SOZLAMALAR["kitob_gzip_turlari"][0])
from xizmat import xizmat


# --- descriptions ------------------------------------------------------------------

def test_description_takes_whole_sentences_up_to_the_limit():
    matn = "Birinchi gap shu. Ikkinchi gap ham bor. " + "Uchinchi gap juda uzun " * 20 + "."
    assert sahifa.qisqartir(matn, 60) == "Birinchi gap shu. Ikkinchi gap ham bor."
    assert sahifa.qisqartir("Qisqa.", 60) == "Qisqa."


def test_description_cuts_a_long_first_sentence_at_a_word():
    matn = "Bu gap " + "juda " * 80 + "uzun."
    natija = sahifa.qisqartir(matn, 50)
    assert len(natija) <= 50 and natija.endswith("…") and " juda…" in natija, natija


def test_description_is_the_first_prose_paragraph_not_a_caption_list_or_formula():
    doctree = publish_doctree(
        "Sarlavha\n========\n\n"
        "- ro'yxatdagi uzun band, tavsifga kirmasligi kerak bo'lgan matn\n\n"
        ".. note:: Eslatma ichidagi uzun matn ham tavsifga kirmaydi, hech qachon.\n\n"
        "Qisqa.\n\n"
        "Bu xatboshi tavsif boʻladi: u sahifaning oʻz matni, qoʻlda yozilgan nusxa emas.\n")
    assert sahifa._birinchi_xatboshi(doctree) == ("Bu xatboshi tavsif boʻladi: u sahifaning oʻz "
                                               "matni, qoʻlda yozilgan nusxa emas.")


def test_meta_tag_escapes_quotes():
    assert sahifa.meta('U "attention" & <b>') == \
        '<meta name="description" content="U &quot;attention&quot; &amp; &lt;b&gt;" />\n'


# --- figures ------------------------------------------------------------------------

def test_images_get_lazy_loading_async_decoding_and_their_size():
    body = '<p>x</p><img alt="a" src="../_images/r.png" /><img src="b.png" loading="eager">'
    natija = sahifa.rasmlarni_dangasa(body, lambda src: (800, 600) if src.endswith("r.png") else None)
    assert '<img alt="a" src="../_images/r.png" loading="lazy" decoding="async" width="800" height="600" style="--nisbat: 1.3333" />' in natija
    # an author's own loading= is kept; no size when it is not known
    assert '<img src="b.png" loading="eager" decoding="async">' in natija
    assert sahifa.rasmlarni_dangasa(natija, lambda src: (800, 600) if src.endswith("r.png") else None) == natija, "applied twice, it changes nothing more"


def test_an_image_with_its_own_size_or_style_keeps_it():
    for teg in ('<img src="r.png" width="10">', '<img src="r.png" style="width: 50%">'):
        natija = sahifa.rasmlarni_dangasa(teg, lambda src: (800, 600))
        assert "800" not in natija and 'loading="lazy"' in natija, natija


# --- fonts --------------------------------------------------------------------------

def test_every_font_face_gets_font_display_swap_once():
    css = ('@font-face{font-family:A;src:url(a.woff) format("woff")}'
           '@font-face{font-family:B;font-display:block;src:url(b.woff)}p{color:red}')
    natija = shrift.font_display(css)
    assert natija.count("font-display:swap") == 1 and "font-display:block" in natija, natija
    assert shrift.font_display(natija) == natija


def test_katex_characters_come_from_the_rendered_formulas_and_the_stylesheet():
    sahifa = ('<span class="katex"><span class="katex-mathml"><math><mi>Ж</mi></math></span>'
              '<span class="katex-html" aria-hidden="true"><span class="mord mathnormal">q</span>'
              '<span class="mord">√</span></span></span><p>matn</p>')
    belgilar = shrift.katex_belgilari([sahifa], '.x:after{content:"\\2192"}')
    assert {ord("q"), ord("√"), 0x2192} <= belgilar
    assert ord("Ж") not in belgilar, "MathML is not drawn with KaTeX's fonts"
    assert ord("m") not in belgilar, "the page's text outside formulas is not in the maths fonts"


# --- the theme's tab stops ----------------------------------------------------------

def test_the_installed_theme_script_hands_its_tab_stops_to_kitob_js():
    import pydata_sphinx_theme

    js = (Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static"
          / "scripts" / "pydata-sphinx-theme.js").read_text(encoding="utf-8")
    yangi = yakun.tab_stops_kitobga(js)
    assert "window.kitobTabStops||" in yangi and len(yangi) - len(js) < 200
    # the theme's own rule is kept as the fallback when kitob.js is not there
    assert yangi.count("scrollWidth>") == js.count("scrollWidth>")


def test_an_unexpected_theme_script_is_a_clear_error():
    from sphinx.errors import ExtensionError

    with pytest.raises(ExtensionError, match="does not measure its scrollable boxes as expected"):
        yakun.tab_stops_kitobga("function I(){}")


# --- gzip twins and the host-like server ---------------------------------------------

def _sayt(papka: Path) -> Path:
    (papka / "book").mkdir(parents=True)
    (papka / "book" / "a.html").write_text("<p>" + "salom " * 500 + "</p>", encoding="utf-8")
    (papka / "s.css").write_text("p{color:red}" * 200)
    (papka / "r.png").write_bytes(b"\x89PNG" + os.urandom(2000))
    (papka / "k.js").write_text("x")                  # too small to gain
    (papka / "eski.css.gz").write_bytes(b"orphan")
    return papka


def test_gzip_twins_for_text_only_and_no_orphans(tmp_path):
    sayt = _sayt(tmp_path)
    oldin, keyin = yakun.siq(sayt, MATN)
    assert gzip.decompress((sayt / "book" / "a.html.gz").read_bytes()) == (sayt / "book" / "a.html").read_bytes()
    assert (sayt / "s.css.gz").is_file() and not (sayt / "r.png.gz").exists()
    assert not (sayt / "k.js.gz").exists(), "a twin that is not smaller is not written"
    assert not (sayt / "eski.css.gz").exists(), "a twin without its file is removed"
    assert keyin < oldin / 5
    ikkinchi = (sayt / "s.css.gz").read_bytes()
    yakun.siq(sayt, MATN)
    assert (sayt / "s.css.gz").read_bytes() == ikkinchi, "the same file gives the same twin"


def _ol(url: str, gzip_qabul: bool) -> tuple[int, dict, bytes]:
    sorov = urllib.request.Request(url, headers={"Accept-Encoding": "gzip, deflate"} if gzip_qabul else {})
    try:
        with urllib.request.urlopen(sorov) as javob:
            return javob.status, dict(javob.headers), javob.read()
    except urllib.error.HTTPError as xato:
        return xato.code, dict(xato.headers), xato.read()


def test_server_sends_the_twin_to_a_client_that_accepts_gzip(tmp_path):
    sayt = _sayt(tmp_path)
    yakun.siq(sayt, MATN)
    asl = (sayt / "book" / "a.html").read_bytes()
    with xizmat(sayt) as url:
        holat, sarlavhalar, tana = _ol(url + "book/a.html", gzip_qabul=True)
        assert holat == 200 and sarlavhalar["Content-Encoding"] == "gzip"
        assert sarlavhalar["Content-Type"].startswith("text/html") and gzip.decompress(tana) == asl
        holat, sarlavhalar, tana = _ol(url + "book/a.html", gzip_qabul=False)
        assert holat == 200 and "Content-Encoding" not in sarlavhalar and tana == asl
        holat, sarlavhalar, tana = _ol(url + "r.png", gzip_qabul=True)
        assert "Content-Encoding" not in sarlavhalar and tana == (sayt / "r.png").read_bytes()


def test_server_refuses_a_twin_older_than_its_file(tmp_path):
    sayt = _sayt(tmp_path)
    yakun.siq(sayt, MATN)
    fayl = sayt / "s.css"
    fayl.write_text("p{color:blue}" * 200)
    os.utime(fayl, (fayl.stat().st_atime, (sayt / "s.css.gz").stat().st_mtime + 10))
    with xizmat(sayt) as url:
        holat, _, tana = _ol(url + "s.css", gzip_qabul=True)
    assert holat == 500 and re.search(rb"s\.css\.gz is older than s\.css", tana), tana[:300]


def test_figure_pngs_are_offered_as_webp_in_a_picture():
    body = ('<img alt="a" src="../_images/abc.png" loading="lazy" />'
            '<img alt="b" src="../_images/yoq.png" /><img alt="c" src="logo.png" />')
    natija = sahifa.webp_bilan(body, lambda nom: nom == "abc")
    assert natija.startswith('<picture><source type="image/webp" srcset="../_images/abc.webp">'
                             '<img alt="a" src="../_images/abc.png" loading="lazy" /></picture>'), natija
    assert '<img alt="b" src="../_images/yoq.png" /><img alt="c" src="logo.png" />' in natija
    assert sahifa.webp_bilan(natija, lambda nom: True).count("<picture>") == 2, "a picture is not wrapped again"


def test_webp_twins_have_the_same_pixels_and_follow_their_png(tmp_path):
    from PIL import Image, ImageChops, ImageDraw

    rasm = Image.new("RGBA", (300, 120), "white")
    ImageDraw.Draw(rasm).line((0, 0, 299, 119), fill=(200, 30, 30, 255), width=3)
    rasm.save(tmp_path / "r.png")
    (tmp_path / "eski.webp").write_bytes(b"orphan")
    assert yakun.webp_yoz(tmp_path) == 1
    with Image.open(tmp_path / "r.webp") as w, Image.open(tmp_path / "r.png") as p:
        assert w.size == p.size and ImageChops.difference(w.convert("RGBA"), p.convert("RGBA")).getbbox() is None
    assert not (tmp_path / "eski.webp").exists()
    assert yakun.webp_yoz(tmp_path) == 0, "an up-to-date twin is not written again"


def test_every_box_that_may_scroll_starts_with_a_tab_stop():
    body = ('<div class="highlight"><pre><span>x</span></pre></div><pre tabindex="-1">y</pre>'
            '<div class="output stream highlight-myst-ansi notranslate"><div class="highlight"><pre>z</pre>'
            '</div></div><div class="pst-scrollable-table-container"><table></table></div>'
            '<div class="math notranslate nohighlight">m</div><div class="outputs">n</div>')
    natija = sahifa.tab_toxtash(body)
    assert natija.count('tabindex="0"') == 5, natija
    assert '<pre tabindex="-1">' in natija and '<div class="outputs">' in natija
    assert sahifa.tab_toxtash(natija) == natija


def test_translations_run_before_the_scripts_that_use_them():
    from sphinx.builders.html._assets import _JavaScript

    skriptlar = [_JavaScript(n, priority=q) for n, q in (
        ("_static/documentation_options.js", 200), ("_static/doctools.js", 200),
        ("_static/sphinx_highlight.js", 200), ("_static/kitob.js", 500), ("_static/translations.js?v=1", 500))]
    natija = sahifa.tarjimalar_oldin(skriptlar)
    tartib = ["_static/documentation_options.js", "_static/doctools.js", "_static/translations.js?v=1",
              "_static/sphinx_highlight.js", "_static/kitob.js"]
    assert [s.filename for s in natija] == tartib
    # Sphinx sorts the page's scripts by priority afterwards: the order survives it
    assert [s.filename for s in sorted(natija, key=lambda js: js.priority)] == tartib
    # no translations (an English book), or no doctools: left as it was
    assert sahifa.tarjimalar_oldin(skriptlar[:4]) == skriptlar[:4]
    assert sahifa.tarjimalar_oldin(skriptlar[2:]) == skriptlar[2:]


def test_a_glossarys_letter_bar_links_each_letter_to_its_first_term():
    from qurilish.sahifa import harflar_qatori

    qator = harflar_qatori([("AdamW", "term-AdamW"), ("aniqlik", "term-aniqlik"), ("bosh", "term-bosh"),
                            ("softmax", "term-softmax"), ("oʻrganish tezligi", "term-o-rganish"),
                            ("shovqin", "term-shovqin")])
    havolalar = re.findall(r'<a href="#([^"]+)">([^<]+)</a>', qator)
    # one link a letter, to its first term; Oʻ and Sh are letters of their own
    assert havolalar == [("term-AdamW", "A"), ("term-bosh", "B"), ("term-softmax", "S"),
                         ("term-o-rganish", "Oʻ"), ("term-shovqin", "Sh")]
    assert qator.startswith('<nav class="kitob-harflar" aria-label="Atamalar harf boʻyicha">')
