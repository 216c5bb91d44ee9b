"""Build side: the interface in Uzbek — the packages' strings from the book's catalogue (a Sphinx extension).

Sphinx, the themes, copybutton, togglebutton and MyST-NB ship no Uzbek.  The book's
``locales/uz/LC_MESSAGES/<domain>.po`` is compiled at build time (``kompilyatsiya``,
``sphinx_js``); config strings come from it (``SOZLAMALAR``), strings in the packages'
JavaScript are replaced in the site's copies (``JS_MATNLAR``), MyST-NB's hidden-cell
label is rendered here.  Theme templates' strings: ``book/_templates/``.
"""

from __future__ import annotations

import html
import importlib
import json
import shutil
from pathlib import Path

from sphinx.errors import ExtensionError
from sphinx.locale import get_translation
from sphinx.util.i18n import CatalogRepository

TIL = "uz"

# --- interface strings --------------------------------------------------------

#: Config values that hold an English interface string by default:
#: (config name, gettext domain, the English default = msgid).
SOZLAMALAR = [("togglebutton_hint", "togglebutton", "Click to show"),
              ("togglebutton_hint_hide", "togglebutton", "Click to hide"),
              ("nb_code_prompt_show", "mystnb", "Show code cell {type}"),
              ("nb_code_prompt_hide", "mystnb", "Hide code cell {type}")]
#: Jupyter Book's placeholder of the search field (a theme option).
QIDIRUV_MATNI = "Search this book..."

#: English strings hard-coded in the packages' JavaScript: package static folder -> file ->
#: [(exact upstream text, domain, msgid)].  In the site's copy each text gets the translation; a
#: text that is no longer there (the package changed) stops the build.
JS_MATNLAR = {
    "sphinx_copybutton": {"copybutton.js_t": [("const messages = {\n", "copybutton", None)]},
    "sphinx_togglebutton": {"togglebutton.js": [
        ('aria-label="Toggle hidden content"', "togglebutton", "Toggle hidden content")]},
}
#: copybutton.js keeps one table of its texts per language: the 'uz' entry.
COPYBUTTON = {"copy": "Copy", "copy_to_clipboard": "Copy to clipboard",
              "copy_success": "Copied!", "copy_failure": "Failed to copy"}


def _katalog_papkalari(app) -> list[Path]:
    """The LC_MESSAGES folders of the book's language under locale_dirs."""
    papkalar = [Path(app.srcdir, d, app.config.language, "LC_MESSAGES") for d in app.config.locale_dirs]
    return [p for p in papkalar if p.is_dir()]


def kompilyatsiya(app) -> list[str]:
    """Compile every out-of-date .po of the book's language into .mo next to it; return the domains."""
    repo = CatalogRepository(app.srcdir, app.config.locale_dirs, app.config.language,
                             app.config.source_encoding)
    domenlar = []
    for katalog in repo.catalogs:
        if katalog.is_outdated():
            katalog.write_mo(app.config.language, app.config.gettext_allow_fuzzy_translations)
        domenlar.append(katalog.domain)
    return domenlar


def sphinx_js(po: Path) -> Path:
    """Write sphinx.js (Sphinx's JavaScript catalogue) next to sphinx.po; return its path."""
    from babel.messages.pofile import read_po

    with open(po, "rb") as f:
        katalog = read_po(f, locale=TIL)
    xabarlar = {m.id: m.string for m in katalog if m.id and m.string and not m.fuzzy
                and isinstance(m.id, str)}
    matn = ("Documentation.addTranslations(" + json.dumps(
        {"locale": TIL, "messages": dict(sorted(xabarlar.items())),
         "plural_expr": katalog.plural_expr}, ensure_ascii=False, indent=4) + ");\n")
    js = po.with_suffix(".js")
    if not js.exists() or js.read_text(encoding="utf-8") != matn:
        js.write_text(matn, encoding="utf-8")
    return js


def _sozla(app, config) -> None:
    """config-inited (before the packages read their values): compile, register, translate config."""
    if config.language != TIL:
        return
    # Sphinx looks for sphinx.js relative to the working directory: make locale_dirs absolute
    config.locale_dirs = [str(Path(app.srcdir, d)) for d in config.locale_dirs]
    papkalar = _katalog_papkalari(app)
    if not papkalar:
        return          # a book without the catalogue (e.g. a test fixture) stays in English
    domenlar = kompilyatsiya(app)
    for po in [p / "sphinx.po" for p in papkalar if (p / "sphinx.po").is_file()]:
        sphinx_js(po)
    for domen in sorted(set(domenlar) - {"sphinx"}):
        for papka in papkalar:
            # the first catalogue that has the language wins; the packages' own have no Uzbek
            app.add_message_catalog(domen, str(papka.parent.parent))
    # an edition in another script (kitob_yozuv): the strings the pages' scripts and the search
    # field show, in it (MyST-NB's prompts are read with the page: yozuvda.py writes them there)
    yoz = _yoz(app)
    for nom, domen, msgid in SOZLAMALAR:
        # (a package whose default was translated as it was set up, in a process that had
        # loaded the catalogue for an earlier build, holds the translation already)
        tarjima = get_translation(domen)(msgid)
        if nom in config and config[nom] in (msgid, tarjima):
            config[nom] = yoz(tarjima) if nom.startswith("togglebutton_") else tarjima
    mavzu = config.html_theme_options
    if mavzu.get("search_bar_text") == QIDIRUV_MATNI:
        mavzu["search_bar_text"] = yoz(get_translation("booktheme")(QIDIRUV_MATNI))


def _js_tarjima(paket: str, fayl: str, matn: str, yoz=lambda matn: matn, til: str = TIL) -> str:
    """``matn`` (a package's file) with its English texts translated, and written by ``yoz`` (an
    edition's script); copybutton's table gets an entry under ``til``, the pages' lang attribute,
    which is the key copybutton.js looks its texts up by (an edition's uz-Cyrl, not uz)."""
    for asl, domen, msgid in JS_MATNLAR[paket][fayl]:
        if asl not in matn:
            raise ExtensionError(f"{paket}/_static/{fayl} no longer contains {asl!r}: "
                                 "update JS_MATNLAR in book/_ext/qurilish/tarjima.py for this version")
        tarjima = get_translation(domen)

        def tr(msgid: str) -> str:
            return yoz(tarjima(msgid))
        if paket == "sphinx_copybutton":
            jadval = ",\n".join(f"    {json.dumps(k)}: {json.dumps(tr(v), ensure_ascii=False)}"
                                for k, v in COPYBUTTON.items())
            yangi = asl + f"  {json.dumps(til)}: {{\n{jadval},\n  }},\n"
        else:
            yangi = asl.replace(msgid, html.escape(tr(msgid)))
        matn = matn.replace(asl, yangi)
    return matn


def _yoz(app):
    """The book's translations as an edition in another script (kitob_yozuv) shows them: written
    in its script; the source's as they are."""
    from .yozuvda import _xabar, _yozuv

    y = _yozuv(app)
    return (lambda matn: matn) if y is None else (lambda matn: _xabar(y, matn))


def _js_nusxalar(app) -> None:
    """builder-inited (after the packages added their static folders): use Uzbek copies of them
    (an edition's own, in its script)."""
    if app.builder.format != "html" or app.config.language != TIL or not _katalog_papkalari(app):
        return
    from .yozuvda import _yozuv

    yozuv = app.config.kitob_yozuv
    maqsad = Path(app.doctreedir).parent / (f"uzbek_static-{yozuv}" if yozuv else "uzbek_static")
    yoz, y = _yoz(app), _yozuv(app)
    til = y.til if y is not None else TIL        # copybutton's key: the pages' lang
    yollar = app.config.html_static_path
    for paket, fayllar in JS_MATNLAR.items():
        asl = Path(importlib.import_module(paket).__file__).parent / "_static"
        joy = [i for i, y in enumerate(yollar) if Path(app.confdir, y).resolve() == asl.resolve()]
        if not joy:
            raise ExtensionError(f"{paket} did not add {asl} to html_static_path; "
                                 "book/_ext/qurilish/tarjima.py cannot translate its JavaScript")
        nusxa = maqsad / paket
        shutil.rmtree(nusxa, ignore_errors=True)     # gone or not: a copy afresh
        shutil.copytree(asl, nusxa)
        for fayl in fayllar:
            f = nusxa / fayl
            f.write_text(_js_tarjima(paket, fayl, f.read_text(encoding="utf-8"), yoz, til), encoding="utf-8")
        for i in joy:
            yollar[i] = str(nusxa)


def _js_katalog(app, exception) -> None:
    """build-finished: an edition's translations.js (Sphinx's JavaScript catalogue: the search
    page's messages, the figure viewer's button) written in its script."""
    from .yozuvda import _yozuv

    fayl = Path(app.outdir) / "_static" / "translations.js"
    if exception is not None or app.builder.format != "html" or _yozuv(app) is None or not fayl.is_file():
        return
    yoz, matn = _yoz(app), fayl.read_text(encoding="utf-8")
    boshi, oxiri = "Documentation.addTranslations(", ");\n"
    if not (matn.startswith(boshi) and matn.endswith(oxiri)):
        raise ExtensionError(f"{fayl} is not Documentation.addTranslations(...); (sphinx_js): "
                             "book/_ext/qurilish/tarjima.py cannot write it in the edition's script")
    katalog = json.loads(matn[len(boshi):-len(oxiri)])
    katalog["messages"] = {k: [yoz(m) for m in v] if isinstance(v, list) else yoz(v)
                           for k, v in katalog["messages"].items()}
    fayl.write_text(boshi + json.dumps(katalog, ensure_ascii=False, indent=4) + oxiri, encoding="utf-8")


def _bogla(app, docname, source) -> None:
    """source-read: every page depends on the catalogue, so an edited .po rewrites the pages."""
    for po in sorted(po for papka in _katalog_papkalari(app) for po in papka.glob("*.po")):
        app.env.note_dependency(str(po))


def _yashirin_katak(self, node) -> None:
    """MyST-NB's hidden-cell <details>, with an Uzbek aria-label (upstream: "Toggle hidden
    content") and its two prompts as <span>s, not <p>s (a <summary> holds phrasing content
    only: the validator refused upstream's markup); kitob.css gives the spans the rules
    mystnb.css gives the <p>s."""
    tr = get_translation("mystnb")
    classes = " ".join(node["classes"])
    self.body.append(f'<details class="admonition hide {classes}">\n')
    self.body.append(f'<summary aria-label="{html.escape(tr("Toggle hidden content"))}">\n')
    self.body.append(f'<span class="collapsed admonition-title">{html.escape(node["prompt_show"])}</span>\n')
    self.body.append(f'<span class="expanded admonition-title">{html.escape(node["prompt_hide"])}</span>\n')
    self.body.append("</summary>\n")


def setup(app):
    from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput

    app.add_node(HideCodeCellNode, override=True, html=(_yashirin_katak, depart_HideCellInput))
    # before togglebutton (500) turns its hints into JavaScript on config-inited
    app.connect("config-inited", _sozla, priority=400)
    # after copybutton and togglebutton (500) add their static folders on builder-inited
    app.connect("builder-inited", _js_nusxalar, priority=600)
    app.connect("source-read", _bogla)
    app.connect("build-finished", _js_katalog)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
