"""Build side: the book written in another script, from the Latin build's own reading (issue 48).

An edition in another script is the same book: the same pages read once, the same executed
chapter.  So it is written from the environment the Latin build left (``tools/yozuvda.py``
copies it), with ``kitob_yozuv`` naming the script's folder (``book/_yozuvlar/<name>/``,
``yozuv.py``).  That setting asks for no new reading (its rebuild is ""): Sphinx finds every
page up to date and only writes them, about 10 s for the chapter instead of a full build.

While writing, with ``kitob_yozuv`` set:

* each page's resolved doctree is written in the script (``yozuv.doctree_yoz``: prose,
  headings, captions, tables; code, output, formulas, addresses, glosses' English and the
  works cited stay);
* the pages' titles and contents, which the navigation, the sidebar and the previous/next
  links are made from, are written in it once the environment is there;
* the page says its language (``lang``, the script's ``til``) and the book's title is written
  in the script.

With ``kitob_yozuv`` empty (the Latin build) nothing here runs.  Not yet written in the
script (issue 48's next steps): the interface strings, the lines the later extensions add
(downloads, the maps), the figures' own text.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.errors import ExtensionError

from . import yozuv


def _yozuv(app) -> yozuv.Yozuv | None:
    return getattr(app, "_kitob_yozuv", None)


def _boshla(app) -> None:
    nom = app.config.kitob_yozuv
    if not nom:
        return
    try:
        app._kitob_yozuv = yozuv.Yozuv.oqi(nom, Path(app.config.kitob_yozuv_papkasi or yozuv.PAPKA))
    except yozuv.YozuvXatosi as xato:
        raise ExtensionError(f"kitob_yozuv = {nom!r}: {xato}") from None


def _muhit(app, env) -> list[str]:
    """The titles and contents the navigation is made from, written in the script (once: the
    environment is this edition's own copy)."""
    y = _yozuv(app)
    if y is None or getattr(env, "_kitob_yozuvda", None) == y.nom:
        return []
    for jadval in (env.titles, env.longtitles, env.tocs):
        for doctree in jadval.values():
            yozuv.doctree_yoz(doctree, y)
    env._kitob_yozuvda = y.nom
    return []


def _sahifa(app, doctree, docname) -> None:
    y = _yozuv(app)
    if y is not None:
        yozuv.doctree_yoz(doctree, y)


def _kontekst(app, pagename, templatename, context, doctree) -> None:
    y = _yozuv(app)
    if y is None:
        return
    context["language"] = y.til
    for kalit in ("docstitle", "shorttitle"):
        if isinstance(context.get(kalit), str):
            context[kalit] = y.matn(context[kalit])


def setup(app):
    # kitob_yozuv and kitob_yozuv_papkasi are registered with the book's settings (__init__.py)
    app.connect("builder-inited", _boshla)
    app.connect("env-updated", _muhit)
    # after the other extensions have resolved the page (references, numbers, glued values)
    app.connect("doctree-resolved", _sahifa, priority=900)
    app.connect("html-page-context", _kontekst)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
