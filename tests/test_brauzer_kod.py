"""chapter_code/brauzer.py's pieces on small inputs (fast; the site itself: test_brauzer.py)."""

from chapter_code.brauzer import ikonlarni_qisqartir, ishlatilgan_ikonlar, kod_nuqtalari

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
