"""Theme templates the book overrides (book/_templates/): a theme upgrade fails loudly.

A template in book/_templates/ shadows the theme's template of the same name, so
an upgrade that changes the theme's one would otherwise go unnoticed.  Every file
there is accounted for here (no build needed), as one of two kinds:

* an **extension** (``KENGAYTMALAR``): it extends, includes or imports the theme's
  own template (``"!name"``: Sphinx looks that up in the theme, never in
  book/_templates/) and changes only one string of its output, or wraps it.  The
  theme's template must still hold that string, exactly once; rendered here with
  the installed theme (Sphinx's own template loader, a stub page context) the
  override gives the Uzbek string and not the English one; and where the theme's
  template loses the string, the override calls Sphinx's ``warning()`` (an error
  in the book's ``-W`` build) rather than leave English on the page.
* a **page of the book's own** (``OZ_SAHIFALAR``): a template no theme has (the
  root redirect, ``yonaltirish.html``, rendered by ``html_additional_pages``); no
  theme's template of that name may appear, or it would be shadowed unnoticed.

A whole copy of a theme template is not allowed: every override so far could be an
extension, and a copy would go stale silently.
"""

import gettext
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pydata_sphinx_theme
import pytest
import sphinx
import sphinx_book_theme
from babel.messages.pofile import read_po
from conftest import ILDIZ
from jinja2 import nodes
from sphinx.jinja2glue import BuiltinTemplateLoader

SABLONLAR = ILDIZ / "book" / "_templates"
#: The installed themes' template folders, in Sphinx's lookup order (html_theme first).
MAVZULAR = {
    "sphinx-book-theme": Path(sphinx_book_theme.__file__).parent / "theme" / "sphinx_book_theme",
    "pydata-sphinx-theme": Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme",
}
BASIC = Path(sphinx.__file__).parent / "themes" / "basic"
#: Where an override's original is: the installed themes, and Sphinx's basic theme they build on.
PAPKALAR = {**MAVZULAR, "sphinx": BASIC}


@dataclass(frozen=True)
class Kengaytma:
    """An override built on the theme's own template ``asl`` (its path in the theme folder)."""

    mavzu: str                  # the theme (distribution name) whose template it builds on
    asl: str                    # that template, relative to the theme folder
    inglizcha: str | None       # the string of its output the override replaces or removes
    msgid: str | None = None    # ... by this booktheme.po message (None: removed)


KENGAYTMALAR = {
    "layout.html": Kengaytma("sphinx-book-theme", "layout.html", '<nav aria-label="Page">', "Page"),
    "sbt-sidebar-nav.html": Kengaytma("sphinx-book-theme", "components/sbt-sidebar-nav.html",
                                      'aria-label="Main"', "Main"),
    "toggle-primary-sidebar.html": Kengaytma("sphinx-book-theme", "components/toggle-primary-sidebar.html",
                                             'title="Toggle primary sidebar"', "Toggle primary sidebar"),
    "toggle-secondary-sidebar.html": Kengaytma("sphinx-book-theme", "components/toggle-secondary-sidebar.html",
                                               'title="Toggle secondary sidebar"', "Toggle secondary sidebar"),
    # the on-page contents under the book's id: the theme's script leaves them to kitob.js
    "page-toc.html": Kengaytma("sphinx-book-theme", "components/page-toc.html", 'id="pst-page-toc-nav"'),
    # a wrapper: the theme's link inside a navigation landmark, nothing of it changed
    "navbar-logo.html": Kengaytma("pydata-sphinx-theme", "components/navbar-logo.html", None),
    # the title's block, with an em dash where the theme puts " - " (test_tarjima reads the page's
    # title: a renamed block would leave the theme's hyphen, and that test fails)
    "search.html": Kengaytma("pydata-sphinx-theme", "search.html", None),
    # every macro's lines naming the icon script are dropped
    "static/webpack-macros.html": Kengaytma("pydata-sphinx-theme", "static/webpack-macros.html", "fontawesome.js"),
    # the index's body: a term's places named by their lessons' titles, not numbered
    "genindex.html": Kengaytma("sphinx", "genindex.html", "[{{ loop.index }}]"),
}


#: The book's own templates (a page, the script switch's button): no theme has one of that name.
OZ_SAHIFALAR = {"yonaltirish.html", "yozuv-tugmasi.html"}


# --- the helpers -----------------------------------------------------------------------


def _bizniki() -> set[str]:
    return {p.relative_to(SABLONLAR).as_posix() for p in SABLONLAR.rglob("*.html")}


def _muhit(oldin: tuple[Path, ...] = ()):
    """The book's Jinja environment as Sphinx builds it: our templates, then the themes.

    ``oldin``: theme folders looked up before the installed ones (a theme "upgrade").
    ``warning()`` calls are collected in the returned list instead of logged.
    """
    qidiruv = [str(SABLONLAR)] + [str(d / "components") for d in MAVZULAR.values()]
    builder = SimpleNamespace(config=SimpleNamespace(templates_path=qidiruv), confdir=str(ILDIZ),
                              app=SimpleNamespace(translator=gettext.NullTranslations()))
    mavzu = SimpleNamespace(get_theme_dirs=lambda: [str(d) for d in (*oldin, *MAVZULAR.values(), BASIC)])
    loader = BuiltinTemplateLoader()
    loader.init(builder, mavzu)
    ogohlar = []
    loader.environment.globals["warning"] = lambda xabar, *a, **k: ogohlar.append(xabar) or ""
    return loader.environment, ogohlar


def _tarjima():
    with open(ILDIZ / "locales" / "uz" / "LC_MESSAGES" / "booktheme.po", "rb") as f:
        xabarlar = {m.id: m.string for m in read_po(f) if m.id}
    return lambda s: xabarlar.get(s, s)


def _sahifa(**boshqa) -> dict:
    """A stub page context: what the overridden templates and the theme's ones read."""
    return {"translate": _tarjima(), "pathto": lambda p, *a: f"../{p}", "pagename": "book/attention",
            "root_doc": "book/index", "docstitle": "Kitob", "pagetitle": "Bob", "theme_toc_title": "Contents",
            "generate_toc_html": lambda *a: '<ul class="nav"><li>Boʻlim</li></ul>',
            "unique_html_id": lambda asos: f"{asos}-1",
            "generate_toctree_html": lambda *a, **k: '<ul class="bd-sidenav"><li>Bob</li></ul>',
            "theme_home_page_in_toc": False, "theme_max_navbar_depth": 4, "theme_collapse_navbar": False,
            "theme_show_navbar_depth": 1, "theme_logo": {"image_relative": {}, "text": "Kitob"},
            "theme_logo_link": None, "genindexentries": [("A", [("aniqlik", (
                [(True, "g.html#t")], [("Birinchi dars", [(False, "a.html#x")]),
                                       ("Ikkinchi dars", [(False, "b.html#y")])], None))])],
            **boshqa}


def _blok(env, nom: str, blok: str, sahifa: dict) -> str:
    """One block of an extending template, its super() chain resolved as a full render would."""
    t = env.get_template(nom)
    ctx = t.new_context(sahifa)
    ota = t
    while (ext := env.parse(env.loader.get_source(env, ota.name)[0]).find(nodes.Extends)) is not None:
        ota = env.get_template(ext.template.value)
        for k, f in ota.blocks.items():
            ctx.blocks.setdefault(k, []).append(f)
    return "".join(t.blocks[blok](ctx))


def _chiqishi(env, fayl: str, sahifa: dict) -> str:
    """What our override gives a page: the part of its output that it changes."""
    if fayl == "layout.html":
        return _blok(env, fayl, "docs_body", sahifa)
    if fayl == "search.html":
        return _blok(env, fayl, "htmltitle", sahifa)
    if fayl == "genindex.html":
        return _blok(env, fayl, "body", sahifa)
    if fayl == "static/webpack-macros.html":
        return env.from_string('{% import "static/webpack-macros.html" as w with context %}'
                               "{{ w.head_pre_assets() }}{{ w.head_js_preload() }}{{ w.body_post() }}").render(sahifa)
    return env.get_template(fayl).render(sahifa)


# --- every override is known -------------------------------------------------------------


def test_every_template_is_an_extension_or_a_page_of_the_books_own():
    assert not KENGAYTMALAR.keys() & OZ_SAHIFALAR
    assert _bizniki() == KENGAYTMALAR.keys() | OZ_SAHIFALAR, (
        "a template in book/_templates/ must be listed in tests/test_sablonlar.py: KENGAYTMALAR if it "
        "builds on the theme's own (\"!name\"), OZ_SAHIFALAR if it is a page no theme has")


@pytest.mark.parametrize("fayl", sorted(OZ_SAHIFALAR))
def test_a_page_of_the_books_own_shadows_no_theme_template(fayl):
    soyalanadi = [d / p / fayl for d in (*MAVZULAR.values(), BASIC) for p in ("", "components")
                  if (d / p / fayl).is_file()]
    assert not soyalanadi, f"book/_templates/{fayl} now shadows {soyalanadi}: rename it"


# --- extensions -------------------------------------------------------------------------


@pytest.mark.parametrize("fayl", sorted(KENGAYTMALAR))
def test_extension_builds_on_the_installed_themes_own_template(fayl):
    k = KENGAYTMALAR[fayl]
    manba = (SABLONLAR / fayl).read_text(encoding="utf-8")
    assert f'"!{k.asl}"' in manba, f"book/_templates/{fayl} does not extend/include/import \"!{k.asl}\""
    if k.inglizcha:
        sarlavha = manba.split("-#}")[0]
        assert manba.startswith("{#-") and f"{k.mavzu}'s {k.asl}" in sarlavha, (
            f"book/_templates/{fayl}: the header comment must name the theme's template it builds on")
    # "!name" finds the theme's template, in the theme the table names
    env, _ = _muhit()
    _, topilgan, _ = env.loader.get_source(env, f"!{k.asl}")
    assert Path(topilgan).resolve() == (PAPKALAR[k.mavzu] / k.asl).resolve(), topilgan


@pytest.mark.parametrize("fayl", sorted(f for f, k in KENGAYTMALAR.items() if k.inglizcha))
def test_the_string_an_extension_changes_is_still_in_the_theme(fayl):
    k = KENGAYTMALAR[fayl]
    asl = PAPKALAR[k.mavzu] / k.asl
    assert asl.read_text(encoding="utf-8").count(k.inglizcha) == 1, (
        f"the theme's {asl} no longer has {k.inglizcha!r} exactly once, which book/_templates/{fayl} "
        "replaces; compare and update the override (and this test)")
    assert k.inglizcha in (SABLONLAR / fayl).read_text(encoding="utf-8"), (
        f"book/_templates/{fayl} does not replace {k.inglizcha!r}, the string this test checks")


@pytest.mark.parametrize("fayl", sorted(KENGAYTMALAR))
def test_extension_renders_uzbek_with_the_installed_theme(fayl):
    k = KENGAYTMALAR[fayl]
    env, ogohlar = _muhit()
    html = _chiqishi(env, fayl, _sahifa())
    assert not ogohlar, ogohlar
    if k.inglizcha:
        assert k.inglizcha not in html, f"book/_templates/{fayl} leaves {k.inglizcha!r} in"
    if k.msgid:
        ozbekcha = _tarjima()(k.msgid)
        assert ozbekcha != k.msgid and k.inglizcha.replace(k.msgid, ozbekcha) in html, html
    if fayl == "static/webpack-macros.html":
        # the rest of the theme's macros is kept, digests and all: only the script's lines go
        asl = env.from_string('{% import "!static/webpack-macros.html" as w with context %}'
                              "{{ w.head_pre_assets() }}{{ w.head_js_preload() }}{{ w.body_post() }}").render(_sahifa())
        olingan = set(asl.splitlines()) - set(html.splitlines())
        assert set(html.splitlines()) <= set(asl.splitlines()) and "bootstrap.js" in html
        assert any("fontawesome.js" in s for s in olingan)
        assert all("fontawesome.js" in s or s.strip().startswith("<!--") for s in olingan), olingan
    if fayl == "search.html":
        # (this harness's page is "Kitob" and has no sphinx.po: the built page's title is
        # test_tarjima's "Qidirish — Attention va Transformer")
        assert html.strip().startswith("<title>") and html.strip().endswith(" &#8212; Kitob</title>"), html
    if fayl == "genindex.html":
        # a term's glossary link, then its lessons by their titles on its line; no "[1]"
        assert '<a href="g.html#t"><strong>aniqlik</strong></a> <span class="kitob-joylar">— ' \
               '<a href="a.html#x">Birinchi dars</a>; <a href="b.html#y">Ikkinchi dars</a></span>' in html, html
        assert "[1]" not in html
    if fayl == "page-toc.html":
        assert '<nav id="kitob-sahifa-mundarija" class="page-toc"' in html and "Boʻlim" in html, html
    if fayl == "navbar-logo.html":
        # (this harness has no sphinx.po: the name is the catalogue's "Home"; the built site's is
        # "Bosh sahifa", test_tarjima)
        assert html.startswith('<nav class="kitob-logo" aria-label="Home">') and html.endswith("</a></nav>")
        assert '<a class="navbar-brand logo" href="../book/index">' in html


def test_secondary_toggle_is_absent_on_a_page_without_contents():
    env, ogohlar = _muhit()
    assert _chiqishi(env, "toggle-secondary-sidebar.html", _sahifa(generate_toc_html=lambda *a: "")).strip() == ""
    html = _chiqishi(env, "layout.html", _sahifa(generate_toc_html=lambda *a: ""))
    assert "<nav" not in html and not ogohlar


@pytest.mark.parametrize("fayl", sorted(f for f, k in KENGAYTMALAR.items() if k.msgid))
def test_extension_warns_when_the_theme_drops_the_string(tmp_path, fayl):
    """A theme whose template says something else: the build stops (a warning, -W), not English."""
    k = KENGAYTMALAR[fayl]
    asl = MAVZULAR[k.mavzu] / k.asl
    yangi = tmp_path / "yangi-mavzu" / k.asl
    yangi.parent.mkdir(parents=True)
    yangi.write_text(asl.read_text(encoding="utf-8").replace(k.inglizcha, k.inglizcha.replace(k.msgid, "Renamed")))
    env, ogohlar = _muhit(oldin=(tmp_path / "yangi-mavzu",))
    _chiqishi(env, fayl, _sahifa())
    assert len(ogohlar) == 1 and f"book/_templates/{fayl}" in ogohlar[0] and k.inglizcha in ogohlar[0], ogohlar


#: The line of pydata-sphinx-theme's css block that book/_templates/layout.html replaces.
MAVZU_QATORI = 'document.documentElement.dataset.theme = localStorage.getItem("theme") || "{{ default_mode }}";'


def _css_sahifasi() -> dict:
    """The stub page with what the css block reads beyond it: the theme's default mode, its
    webpack macros (imported at the top of the theme's layout, which _blok does not run) and
    Sphinx's css() (a stand-in stylesheet)."""
    return _sahifa(default_mode="auto", css=lambda: '<link rel="stylesheet" href="kitob.css">',
                   _webpack=SimpleNamespace(head_pre_assets=lambda: "", head_js_preload=lambda: ""))


def test_layout_resolves_the_colour_scheme_in_the_themes_first_script():
    """The css block: data-theme resolved as pydata-sphinx-theme.js resolves it, not "auto"."""
    asl = MAVZULAR["pydata-sphinx-theme"] / "layout.html"
    assert asl.read_text(encoding="utf-8").count(MAVZU_QATORI) == 1, (
        f"the theme's {asl} no longer sets data-theme with {MAVZU_QATORI!r}; compare and update "
        "book/_templates/layout.html's css block (and this test)")
    env, ogohlar = _muhit()
    html = _blok(env, "layout.html", "css", _css_sahifasi())
    assert not ogohlar, ogohlar
    assert 'localStorage.getItem("theme") || "auto"' not in html
    assert ('document.documentElement.dataset.theme = ["light", "dark"].includes(document.documentElement'
            '.dataset.mode) ? document.documentElement.dataset.mode : matchMedia("(prefers-color-scheme: '
            'dark)").matches ? "dark" : "light";') in html, html
    # the rest of the block is the theme's: its mode line and the stylesheets
    assert 'document.documentElement.dataset.mode = localStorage.getItem("mode") || "auto";' in html
    assert html.count("<script") == 1 and '<link rel="stylesheet" href="kitob.css">' in html


def test_layout_warns_when_the_theme_sets_data_theme_otherwise(tmp_path):
    asl = MAVZULAR["pydata-sphinx-theme"] / "layout.html"
    yangi = tmp_path / "yangi-mavzu" / "layout.html"
    yangi.parent.mkdir(parents=True)
    yangi.write_text(asl.read_text(encoding="utf-8").replace(MAVZU_QATORI, MAVZU_QATORI.replace('"theme"', '"rang"')))
    env, ogohlar = _muhit(oldin=(tmp_path / "yangi-mavzu",))
    _blok(env, "layout.html", "css", _css_sahifasi())
    assert len(ogohlar) == 1 and "css block no longer sets data-theme" in ogohlar[0], ogohlar


def test_the_pages_one_stylesheet_takes_the_place_of_the_themes():
    """With uslub.py's file named, head_pre_assets links it alone, where the theme linked its own."""
    env, ogohlar = _muhit()
    shablon = '{% import "static/webpack-macros.html" as w with context %}{{ w.head_pre_assets() }}'
    asl = env.from_string(shablon).render(_sahifa())
    html = env.from_string(shablon).render(_sahifa(kitob_uslub="_static/uslub-0123456789.css", kitob_uslub_v="ab12"))
    assert not ogohlar, ogohlar
    assert asl.count('rel="stylesheet"') == 2 and "theme.css" in asl
    assert html.count('rel="stylesheet"') == 1 and "theme.css" not in html
    assert '<link href="../_static/uslub-0123456789.css?v=ab12" rel="stylesheet" />' in html, html
