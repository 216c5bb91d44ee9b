"""book/_ext/qurilish/shrift.py's icon cut and sahifa.py's per-page files on small inputs (fast; the site itself: test_brauzer.py)."""

from sphinx.builders.html._assets import _CascadingStyleSheet, _JavaScript

from qurilish.sahifa import _royxatlar
from qurilish.shrift import ikonlarni_qisqartir, ishlatilgan_ikonlar, kod_nuqtalari

CSS = ('.fa-bars:before{content:"\\f0c9"}.fa-navicon:before,.fa-moon-o:before{content:"\\f186"}'
       '.fa-trash:before{content:"\\f1f8"}.fa-solid,.fas{font-weight:900}'
       '.x:after{content:"\\2014"}:root{--pst-icon-info:"\uf05a"}')


def test_unused_icon_rules_go_and_the_rest_stays():
    qoldi = ikonlarni_qisqartir(CSS, {"bars", "moon-o"})
    assert ".fa-bars:before" in qoldi
    assert ".fa-navicon:before,.fa-moon-o:before" in qoldi      # kept whole: one alias is used
    assert "fa-trash" not in qoldi
    assert ".fa-solid,.fas{font-weight:900}" in qoldi and "--pst-icon-info" in qoldi


def test_code_points_are_the_private_use_glyphs_escaped_or_literal():
    assert kod_nuqtalari(CSS) == {0xF0C9, 0xF186, 0xF1F8, 0xF05A}     # not the em dash \2014
    assert kod_nuqtalari(ikonlarni_qisqartir(CSS, set())) == {0xF05A}


def test_icons_used_come_from_pages_and_scripts_but_not_the_icon_script(tmp_path):
    (tmp_path / "a.html").write_text('<i class="fa-solid fa-bars"></i>')
    (tmp_path / "s.js").write_text('e.classList.add("fa-xmark")')
    (tmp_path / "fontawesome.js").write_text('"fa-trash" "fa-anchor"')
    assert ishlatilgan_ikonlar(tmp_path) == {"solid", "bars", "xmark"}


def _kontekst(body):
    return {"body": body,
            "css_files": [_CascadingStyleSheet("sphinx-design.min.css"), _CascadingStyleSheet("kitob.css")],
            "script_files": [_JavaScript("design-tabs.js"), _JavaScript("doctools.js"), _JavaScript(None, body="x=1")]}


def test_sphinx_design_files_only_on_pages_that_use_it():
    oddiy = _kontekst("<p>matn</p>")
    quruvchiniki = oddiy["css_files"]
    _royxatlar(None, "bob", "page.html", oddiy, None)
    assert [c.filename for c in oddiy["css_files"]] == ["kitob.css"]
    assert [s.filename for s in oddiy["script_files"]] == ["doctools.js", None]
    assert len(quruvchiniki) == 2, "the builder's own list (shared by every page) was changed"
    karta = _kontekst('<div class="sd-card">...</div>')
    _royxatlar(None, "bob", "page.html", karta, None)
    assert len(karta["css_files"]) == 2 and len(karta["script_files"]) == 3
