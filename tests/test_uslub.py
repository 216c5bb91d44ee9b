"""book/_ext/qurilish/uslub.py: a page's stylesheets joined into one on small inputs (fast;
the built site's one file: test_mayoq.py)."""

import json
from types import SimpleNamespace

import pytest
from sphinx.builders.html._assets import _CascadingStyleSheet
from sphinx.errors import ExtensionError

from qurilish import uslub


def _static(tmp_path, fayllar: dict[str, str]):
    static = tmp_path / "_static"
    for yol, matn in fayllar.items():
        (static / yol).parent.mkdir(parents=True, exist_ok=True)
        (static / yol).write_text(matn, encoding="utf-8")
    return static


def test_urls_are_written_from_static_and_data_uris_stay_as_they_are():
    assert uslub.url_yangi("../vendor/fa.woff2", "styles") == "vendor/fa.woff2"
    assert uslub.url_yangi("fonts/a.woff2?v=1#iefix", "katex") == "katex/fonts/a.woff2?v=1#iefix"
    assert uslub.url_yangi("a.png", "") == "a.png"
    for ozi in ("data:image/svg+xml;x", "#id", "/abs.png", "https://x.org/a.png"):
        assert uslub.url_yangi(ozi, "styles") == ozi


def test_joined_in_order_with_imports_inlined_and_urls_rewritten(tmp_path):
    data = """url("data:image/svg+xml,%3Csvg fill='rgba(0, 0, 0, 0.25)'%3E")"""
    static = _static(tmp_path, {
        "styles/theme.css": '/* bir */\n@import "../basic.css";\n@import url("../ikki.css");\n',
        "ikki.css": ".ikki{background:url(ikki.png)}",
        "basic.css": "div.b{background:url(img/x.png)}",
        "styles/pst.css": f'@charset "UTF-8";\n.i{{src:url("../vendor/f.woff2")}} .d{{b:{data}}}\n'
                          "/*# sourceMappingURL=pst.css.map*/",
        "katex/katex.min.css": "@font-face{src:url(fonts/K.woff2) format(\"woff2\")}",
        "kitob.css": ".k{color:red}",
    })
    css = uslub.birlashtir(static, ["_static/styles/theme.css", "_static/styles/pst.css",
                                    "_static/katex/katex.min.css", "_static/kitob.css"])
    tartib = [css.index(s) for s in ("div.b", ".ikki{", ".i{", "@font-face", ".k{")]
    assert tartib == sorted(tartib), css
    assert 'url(img/x.png)' in css and 'url(ikki.png)' in css and 'url("vendor/f.woff2")' in css and 'url("katex/fonts/K.woff2")' in css
    assert data in css                                       # untouched, parentheses and all
    assert "@import" not in css and "@charset" not in css and "sourceMappingURL" not in css


@pytest.mark.parametrize("matn, xato", [
    ('@import "b.css" print;', "@import"),                  # with a media query: cannot be joined
    ('@charset "latin1";', "@charset"),
    ('@import "a.css";', "imports itself"),
    ('@import "yoq.css";', "does not have"),
])
def test_what_cannot_be_joined_stops_the_build_by_name(tmp_path, matn, xato):
    static = _static(tmp_path, {"a.css": matn, "b.css": "b{}"})
    with pytest.raises(ExtensionError, match=xato):
        uslub.birlashtir(static, ["_static/a.css"])


def test_the_themes_stylesheets_are_read_from_its_macros_and_a_changed_form_fails():
    yollar = [y for y, _ in uslub.mavzu_uslublari()]
    assert yollar == ["_static/styles/theme.css", "_static/styles/pydata-sphinx-theme.css"]
    with pytest.raises(ExtensionError, match="head_pre_assets"):
        uslub.makro_uslublari('{% macro head_pre_assets() %}<link rel="stylesheet" href="x.css">'
                              "{% endmacro %}", "macros.html")


def test_a_page_links_one_file_keyed_by_paths_and_versioned_by_content(tmp_path):
    static = _static(tmp_path / "out", {"a.css": "a{}", "b.css": "b{}", "chop.css": "p{}"})
    app = SimpleNamespace(builder=SimpleNamespace(format="html"), outdir=str(static.parent),
                          doctreedir=str(tmp_path / "dt"))
    css = [_CascadingStyleSheet("_static/b.css", priority=900), _CascadingStyleSheet("_static/a.css"),
           _CascadingStyleSheet("_static/chop.css", media="print", priority=950)]
    ctx = {"css_files": css}
    uslub._sahifa(app, "p", "page.html", ctx, None)
    # in Sphinx's order (a at 500 before b at 900); the print stylesheet keeps its own link
    assert [c.filename for c in ctx["css_files"]] == ["_static/chop.css"]
    royxat = tmp_path / "dt" / uslub.ROYXATLAR / (ctx["kitob_uslub"].split("/")[-1].replace(".css", ".json"))
    assert json.loads(royxat.read_text())[-2:] == ["_static/a.css", "_static/b.css"]
    birinchi = dict(ctx)
    (static / "b.css").write_text("b{color:red}")
    ctx = {"css_files": css}
    uslub._sahifa(app, "p", "page.html", ctx, None)
    assert ctx["kitob_uslub"] == birinchi["kitob_uslub"] and ctx["kitob_uslub_v"] != birinchi["kitob_uslub_v"]


def test_every_named_file_is_written_after_the_build_and_an_unnamed_list_goes(tmp_path):
    static = _static(tmp_path / "out", {"a.css": "a{}"})
    app = SimpleNamespace(builder=SimpleNamespace(format="html"), outdir=str(static.parent),
                          doctreedir=str(tmp_path / "dt"))
    ctx = {"css_files": [_CascadingStyleSheet("_static/a.css")]}
    (static / "styles").mkdir()
    (static / "styles" / "theme.css").write_text("t{}")
    (static / "styles" / "pydata-sphinx-theme.css").write_text("p{}")
    uslub._sahifa(app, "p", "page.html", ctx, None)
    eski = tmp_path / "dt" / uslub.ROYXATLAR / "uslub-0123456789.json"
    eski.write_text('["_static/a.css"]')
    (static.parent / "p.html").write_text(f'<link href="{ctx["kitob_uslub"]}?v=1" rel="stylesheet" />')
    uslub.yoz(app)
    assert (static.parent / ctx["kitob_uslub"]).read_text().split("\n")[1::2] == ["t{}", "p{}", "a{}"]
    assert not eski.exists() and not (static / "uslub-0123456789.css").exists()
