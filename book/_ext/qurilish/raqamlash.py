"""Build side: which pages are chapters, and figures numbered within their chapter (a Sphinx extension).

Nothing here names a chapter: the chapters are the entries under the root of ``_toc.yml``
(sphinx-external-toc), in order, and a page listed under one (a lesson) belongs to it.
Figures, tables and listings are numbered "<chapter>.<n>" ("2.1-rasm", as in Uzbek
textbooks and as the PDF numbers them), not through the whole book as Sphinx does
(``_raqamla``); on the web every figure's picture links to its file, so a phone reader
taps a wide figure to zoom it (``_rasm_havolasi``).
"""

from __future__ import annotations

import copy
import posixpath

from docutils import nodes
from sphinx.domains.std import StandardDomain
from sphinx.errors import ExtensionError


# --- which pages are chapters ------------------------------------------------------

def _boblar(xarita) -> list[str]:
    """The chapters: the entries under the root of a sphinx-external-toc site map, in order."""
    return [str(e) for d in xarita.root.subtrees for e in d.items if isinstance(e, str) and e in xarita]


def bob_raqamlari(xarita) -> dict[str, int]:
    """docname -> chapter number, from a sphinx-external-toc site map: the chapters numbered
    from 1, and a page listed under a chapter belongs to it."""
    raqamlar: dict[str, int] = {}

    def ichki(docname: str, raqam: int) -> None:
        raqamlar[docname] = raqam
        for daraxt in getattr(xarita[docname] if docname in xarita else None, "subtrees", []):
            for element in daraxt.items:
                if isinstance(element, str) and element in xarita and element not in raqamlar:
                    ichki(str(element), raqam)

    for i, bob in enumerate(_boblar(xarita), start=1):
        ichki(bob, i)
    return raqamlar


def _xarita(app):
    # sphinx-external-toc moves it from the config to the environment as reading starts; before
    # that (builder-inited: yuklamalar's downloads) it is the config's
    xarita = getattr(app.env, "external_site_map", None) or getattr(app.config, "external_site_map", None)
    if xarita is None:
        raise ExtensionError("raqamlash.py needs sphinx-external-toc's site map (_toc.yml)")
    return xarita


def _raqamlar(app) -> dict[str, int]:
    return bob_raqamlari(_xarita(app))


def _bob_boshi(app) -> set[str]:
    """The docnames that are chapters themselves (the first page of each)."""
    return set(_boblar(_xarita(app)))


def bob_sahifalari(raqamlar: dict[str, int], bob: str) -> list[str]:
    """The pages of the chapter that starts at ``bob``, in the book's order (its lessons after it)."""
    return [d for d, r in raqamlar.items() if r == raqamlar[bob] and d != bob]


def arxiv_nomi(docname: str) -> str:
    """The name of a chapter's archive: its page's name, or its folder's for a chapter folder
    whose opening page is ``index`` (book/attention/index -> attention.zip)."""
    nom = posixpath.basename(docname)
    papka = posixpath.basename(posixpath.dirname(docname))
    return papka if nom == "index" and papka else nom


# --- numbering ---------------------------------------------------------------------

def _sphinx_raqamlari(app, env) -> list[str]:
    """env-get-updated, before Sphinx's numbering: give Sphinx back its own numbers of the last
    build.  It rewrites every page whose numbers differ from those it kept
    (``env.toc_fignumbers``), which are ours (per chapter): every page with a figure, after
    any edit.  Compared with its own, it rewrites only the pages whose numbering changed."""
    if hasattr(env, "boblar_sphinx_raqamlari"):
        env.toc_fignumbers = copy.deepcopy(env.boblar_sphinx_raqamlari)
    return []


def _raqamla(app, env) -> list[str]:
    """env-get-updated, after Sphinx numbered figures through the book: number them per chapter.

    When any page's numbers differ from the last build's, every page is rewritten: a
    ``{numref}`` on one page may cite another page's figure (Sphinx does not record which)."""
    raqamlar = _raqamlar(app)
    env.boblar_sphinx_raqamlari = copy.deepcopy(env.toc_fignumbers)
    oldingi = getattr(env, "boblar_raqamlari", {})
    orni = {doc: i for i, doc in enumerate(raqamlar)}       # the book's order of pages
    hisoblagich: dict[tuple[int, str], int] = {}
    # within a page Sphinx's numbers follow the page's order; across a chapter's lessons, the book's
    tartib = sorted(((son, doc, tur, id_)
                     for doc, turlar in env.toc_fignumbers.items() if doc in raqamlar
                     for tur, idlar in turlar.items() for id_, son in idlar.items()),
                    key=lambda t: (raqamlar[t[1]], orni[t[1]], t[0]))
    for _, doc, tur, id_ in tartib:
        bob = raqamlar[doc]
        hisoblagich[bob, tur] = hisoblagich.get((bob, tur), 0) + 1
        env.toc_fignumbers[doc][tur][id_] = (bob, hisoblagich[bob, tur])
    env.boblar_raqamlari = copy.deepcopy(env.toc_fignumbers)
    if oldingi == env.toc_fignumbers:
        return []
    return sorted(env.found_docs)


def _rasm_havolasi(app, doctree, docname: str) -> None:
    """Each figure's picture a link to its file, on the web (the reference node Sphinx's
    ``post_process_images`` makes for a scaled image, whose target it computes the same way:
    the picture's unique name in ``_images/``, relative to the page)."""
    if app.builder.format != "html" or not app.config.html_scaled_image_link:
        return
    from sphinx.util.osutil import relative_uri

    rasmlar = relative_uri(app.builder.get_target_uri(docname), app.builder.imagedir)
    for rasm in [r for f in doctree.findall(nodes.figure) for r in f.findall(nodes.image)]:
        if isinstance(rasm.parent, nodes.reference) or rasm["uri"] not in app.env.images:
            continue
        # the theme's class for the light or dark picture (qorongi.py) hides its link with it
        mavzu = [c for c in rasm["classes"] if c in ("only-light", "only-dark")]
        havola = nodes.reference("", "", internal=True, classes=["rasm-toliq", *mavzu],
                                 refuri=posixpath.join(rasmlar, app.env.images[rasm["uri"]][1]))
        rasm.replace_self(havola)
        havola.append(rasm)


# --- numbered references ------------------------------------------------------------

class _BirMartaOchilgan:
    """The environment as a numbered reference sees it, but each page's doctree unpickled once:
    the domain keeps them (``RaqamliStd``)."""

    def __init__(self, env, doctreelar: dict) -> None:
        self._env, self._doctreelar = env, doctreelar

    def __getattr__(self, nom):
        return getattr(self._env, nom)

    def get_doctree(self, docname: str):
        if docname not in self._doctreelar:
            self._doctreelar[docname] = self._env.get_doctree(docname)
        return self._doctreelar[docname]


class RaqamliStd(StandardDomain):
    """Sphinx's standard domain, but a ``{numref}`` reads its target's doctree once a build, not
    once a reference: Sphinx unpickles the whole page to learn the target's kind (a figure, a
    table), so the chapter's 84 references unpickled 84 doctrees, 1,4 s of a 9,6 s rebuild
    (sphinx-doc/sphinx#12611, #12883).  The kept doctrees are only read here (the target node's
    kind and ids); a page read again drops its own (``clear_doc``)."""

    def __init__(self, env) -> None:
        super().__init__(env)
        self._doctreelar: dict = {}

    def clear_doc(self, docname: str) -> None:
        self._doctreelar.pop(docname, None)
        super().clear_doc(docname)

    def _resolve_numref_xref(self, env, *args):
        return super()._resolve_numref_xref(_BirMartaOchilgan(env, self._doctreelar), *args)


def setup(app):
    app.add_domain(RaqamliStd, override=True)
    app.connect("env-get-updated", _sphinx_raqamlari, priority=100)   # before Sphinx's numbering (500)
    app.connect("env-get-updated", _raqamla, priority=900)            # after it
    app.connect("doctree-resolved", _rasm_havolasi)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
