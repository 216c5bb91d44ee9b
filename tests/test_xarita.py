"""A lesson's interactive map keeps its data out of the page (book/_ext/qurilish/xarita.py).

The map as ``chapter_code.kitob.xarita`` writes it goes through the build side: its data
leave the raw HTML for a file beside the page, named by the map's ``data-manba``.  The page in a browser: tests/test_brauzer.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from docutils import nodes

from chapter_code import kitob
from qurilish import xarita

MISOL = {"son": 12, "javob": "12", "sozlar": ["oʻn", "ikki"], "kirish": ["<boshlanish>", "1", "2"],
         "chiqish": ["1", "2", "<oxir>"],
         "koder": [[[[50, 50], [40, 60]]] * 2], "dekoder": [[[[100, 0, 0], [30, 70, 0], [20, 30, 50]]] * 2],
         "cross": [[[[90, 10], [5, 95], [50, 50]]] * 2]}


def _html(nom="tarjima"):
    return kitob.xarita_bundle(nom, [MISOL], "Sinov.")["text/html"]


def test_the_data_leave_the_page_for_the_file_its_map_names():
    html, fayllar = xarita.ajrat(_html(), "yakuniy")
    assert list(fayllar) == ["yakuniy.xarita-tarjima.js"]
    assert xarita.malumoti(fayllar["yakuniy.xarita-tarjima.js"]) == {"misollar": [MISOL]}
    assert fayllar["yakuniy.xarita-tarjima.js"].startswith(
        '(window.kitobXaritaMalumot ||= {})["yakuniy.xarita-tarjima.js"] = {"misollar":')
    assert 'data-xarita="tarjima" data-manba="yakuniy.xarita-tarjima.js"' in html
    assert "<script" not in html and "JavaScript" in html
    with pytest.raises(ValueError, match="not a map's data file"):
        xarita.malumoti('{"misollar": []}')


def test_a_map_without_its_data_block_or_with_a_taken_name_stops_the_build():
    buzilgan = _html().replace('data-xarita-malumot', 'data-boshqa')
    with pytest.raises(ValueError, match="1 interactive maps but 0 data blocks"):
        xarita.ajrat(buzilgan, "yakuniy")
    with pytest.raises(ValueError, match="a name of its own"):
        xarita.ajrat(_html() + _html(), "yakuniy")


def test_the_html_build_writes_each_map_beside_its_page_and_the_latex_build_leaves_it(tmp_path):
    app = SimpleNamespace(builder=SimpleNamespace(format="html"), outdir=str(tmp_path))
    doctree = nodes.section("", nodes.raw("", _html(), format="html"),
                            nodes.raw("", _html("boshqa"), format="html"), nodes.raw("", "<p>x</p>", format="html"))
    xarita._yozilganda(app, doctree, "book/attention/yakuniy")
    assert all("<script" not in t.astext() for t in doctree.findall(nodes.raw))
    assert 'data-manba="yakuniy.xarita-boshqa.js"' in doctree.astext()
    papka = tmp_path / "book" / "attention"
    assert sorted(p.name for p in papka.iterdir()) == ["yakuniy.xarita-boshqa.js", "yakuniy.xarita-tarjima.js"]
    assert xarita.malumoti((papka / "yakuniy.xarita-tarjima.js").read_text()) == {"misollar": [MISOL]}
    # the latex builder leaves the page alone (its writer skips raw HTML)
    latex = SimpleNamespace(builder=SimpleNamespace(format="latex"))
    daraxt = nodes.section("", nodes.raw("", _html(), format="html"))
    xarita._yozilganda(latex, daraxt, "x")
    assert "<script" in daraxt.astext()


XARITA_JS = Path(__file__).resolve().parents[1] / "book" / "_static" / "xarita.js"


def test_every_word_the_maps_write_is_in_the_one_object_an_edition_writes_in_its_script():
    """xarita.js writes no Uzbek of its own outside its SOZ object (every soz("key") it calls is
    there), and an edition's copy has each of those words in its script, the values put in
    ({name}) and the script around them as they were."""
    from qurilish.yozuv import Yozuv
    from qurilish.yozuvda import _xabar

    js = XARITA_JS.read_text(encoding="utf-8")
    sozlar = xarita.sozlari(js)
    # outside SOZ, no string of the script but its keys holds an Uzbek word with oʻ, gʻ or ʼ
    tashqari = re.sub(r"/\* kitob-soz \*/.*?/\* kitob-soz \*/", "", js, flags=re.S)
    tashqari = re.sub(r"//[^\n]*|/\*.*?\*/", "", tashqari, flags=re.S)
    # every key soz() is called with is there, and every word there is asked for
    assert set(re.findall(r'soz\("([^"]+)"', js)) <= set(sozlar) <= set(re.findall(r'"([^"\n]+)"', tashqari))
    assert not [m for m in re.findall(r"[\"'`]([^\"'`\n]*[ʻʼ][^\"'`\n]*)[\"'`]", tashqari) if m not in sozlar]
    y = Yozuv.oqi("kirill")
    yangi = xarita.sozlarini_yoz(js, lambda matn: _xabar(y, matn))
    yangi_sozlar = xarita.sozlari(yangi)
    assert yangi_sozlar.keys() == sozlar.keys()
    assert yangi_sozlar["bittaga"] == "{kim} {boshda} энг кўп {eng}{ga} қарайди: {w}."
    assert yangi_sozlar["Hamma"] == "Ҳамма оғирликлар жадвалда"
    assert yangi.replace(json.dumps(yangi_sozlar, ensure_ascii=False), "") == \
        js.replace(re.search(r"/\* kitob-soz \*/ (\{.*?\}) /\* kitob-soz \*/", js, re.S)[1], "")
    with pytest.raises(ValueError, match="no words between /\\* kitob-soz \\*/ comments"):
        xarita.sozlarini_yoz("const SOZ = {};", str.upper)


def test_a_maps_sentences_and_its_stand_in_are_written_in_the_edition():
    from qurilish.yozuv import Yozuv
    from qurilish.yozuvda import html_yoz

    html = kitob.xarita_bundle("tarjima", [MISOL], "Seed 0 modeli: misolni tanlang.")["text/html"]
    yangi = html_yoz(Yozuv.oqi("kirill"), html, ("data-nima", "data-orniga"))
    assert "Seed 0 модели: мисолни танланг." in yangi
    assert 'data-nima="интерактив харита"' in yangi and 'data-xarita="tarjima"' in yangi
    assert html_yoz(Yozuv.oqi("kirill"), html) != yangi      # attributes only when named
