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
* raw HTML that the book's extensions make from their own words and mark ``kitob_matn`` (the
  download line) is written in it too, its code and markup as written;
* the page says its language (``lang``, the script's ``til``) and the book's title is written
  in the script;
* the interface strings the templates and the packages' Python take from a catalogue (Sphinx's,
  the themes', the book's ``locales/``) come through that catalogue written in the script: the
  Latin one stays the only one kept, the edition's is made from it as it is asked for.

* the glossary and the index are in the script's alphabetical order, with its letters;
* each figure shows its pictures drawn in the script: the Latin build's kernels drew them from
  the same figure objects (``KITOB_YOZUVLAR``, which this extension sets when
  ``kitob_yozuvlar`` names editions; ``chapter_code.kitob``).

With ``kitob_yozuv`` empty (the Latin build) only the script switch's links and that variable
come from here.  The PDF is written from the same reading with the LaTeX builder
(``tools/yozuvda.py``): the same pages in the script, its title page too (``_pdf_sarlavhasi``),
and pdf.py sets the words LaTeX prints in it.  Not yet written in the script (issue 48's next
steps): the strings in the packages' JavaScript, the maps' sentences.
"""

from __future__ import annotations

import gettext
import re
from pathlib import Path

from sphinx import locale
from sphinx.errors import ExtensionError

from . import yozuv


def _yozuv(app) -> yozuv.Yozuv | None:
    return getattr(app, "_kitob_yozuv", None)


#: What a catalogue's message holds that is not words: printf and format placeholders
#: (%(sphinx_version)s, %s, {type}), markup and entities; it stays as written («<<asl yozuv>>»,
#: words in double angle brackets, is words).
_BELGILAR = re.compile(r"%\([^)]*\)[#0 +-]*\d*(?:\.\d+)?[a-zA-Z%]|%[a-zA-Z%]|\{[^{}]*\}|(?<!<)<[^<>]*>(?!>)|&#?\w+;")


def _xabar(y: yozuv.Yozuv, matn: str) -> str:
    """A catalogue's message in the script, its placeholders and markup as written."""
    qismlar, oxiri = [], 0
    for m in _BELGILAR.finditer(matn):
        qismlar += [y.matn(matn[oxiri:m.start()]), m.group(0)]
        oxiri = m.end()
    return "".join(qismlar) + y.matn(matn[oxiri:])


class Katalogda(gettext.NullTranslations):
    """A catalogue's translations written in a script, as they are asked for; a message the
    catalogue does not translate (English) stays as it is."""

    def __init__(self, asl: gettext.NullTranslations, y: yozuv.Yozuv):
        super().__init__()
        self.asl, self.y = asl, y

    def _yoz(self, tarjima: str, *asllar: str) -> str:
        return tarjima if tarjima in asllar else _xabar(self.y, tarjima)

    def gettext(self, message):
        return self._yoz(self.asl.gettext(message), message)

    def ngettext(self, msgid1, msgid2, n):
        return self._yoz(self.asl.ngettext(msgid1, msgid2, n), msgid1, msgid2)

    def pgettext(self, context, message):
        return self._yoz(self.asl.pgettext(context, message), message)

    def npgettext(self, context, msgid1, msgid2, n):
        return self._yoz(self.asl.npgettext(context, msgid1, msgid2, n), msgid1, msgid2)


def _oqi(app, config) -> None:
    """config-inited, first: the script ``kitob_yozuv`` names, read once from its folder for
    every extension of this build (``_yozuv``; None: the source's); a script that is not there
    stops the build and says which are."""
    app._kitob_yozuv = None
    if config.kitob_yozuv:
        try:
            app._kitob_yozuv = yozuv.Yozuv.oqi(config.kitob_yozuv,
                                               Path(config.kitob_yozuv_papkasi or yozuv.PAPKA))
        except yozuv.YozuvXatosi as xato:
            raise ExtensionError(f"kitob_yozuv = {config.kitob_yozuv!r}: {xato}") from None


def _boshla(app) -> None:
    y = _yozuv(app)
    if y is None:
        return
    # the names figures and tables are numbered with ("1.1-rasm"), which the LaTeX writer prints
    # as they are: here, after the environment compared its configuration with the reading's
    # (numfig_format is an "env" value to Sphinx, but reading does not use it: set at
    # config-inited, it made the edition read every page again)
    app.config.numfig_format = {tur: _xabar(y, shakl) for tur, shakl in app.config.numfig_format.items()}
    # every catalogue of the pages loaded by now (Sphinx's, the themes', the book's; not the
    # "console" ones of the build's own messages), for this build only: sphinx.locale keeps
    # them for the process, and the next application there adds to them
    app._kitob_kataloglar = {k: t for k, t in locale.translators.items() if k[0] == "general"}
    for kalit, asl in app._kitob_kataloglar.items():
        locale.translators[kalit] = Katalogda(asl, y)
    app.translator = locale.translators.get(("general", "sphinx"), app.translator)
    shablonlar = getattr(app.builder, "templates", None)
    if shablonlar is not None:                   # the templates' _() took the Latin one at init
        shablonlar.environment.install_gettext_translations(app.translator)


def _tugat(app, exception) -> None:
    """The catalogues as they were, for whatever this process builds next."""
    asllar = getattr(app, "_kitob_kataloglar", None)
    if asllar is not None:
        locale.translators.update(asllar)
        app._kitob_kataloglar = None


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


def _pdf_sarlavhasi(app, env) -> None:
    """The PDF's title page (its title and author, from ``latex_documents``, which Jupyter Book
    and tools/yozuvda.py set once the application is made) in the script."""
    y = _yozuv(app)
    if y is not None and app.builder.name == "latex":
        app.config.latex_documents = [(bosh, nom, y.matn(sarlavha), y.matn(muallif), *qolgan)
                                      for bosh, nom, sarlavha, muallif, *qolgan in app.config.latex_documents]


#: Elements whose text an HTML string keeps as written: code and what is not prose.
_KOD_TEGLARI = frozenset({"code", "pre", "kbd", "samp", "var", "script", "style", "math", "svg"})


def html_yoz(y: yozuv.Yozuv, matn: str, atributlar: tuple[str, ...] = ()) -> str:
    """A piece of HTML with its text in the script: tags, entities, comments and the text inside
    code (``_KOD_TEGLARI``) as written, and attributes but those named in ``atributlar``."""
    import html
    from html.parser import HTMLParser

    qismlar: list[str] = []

    def teg_yoz(asl: str, attrs) -> str:
        for nom, qiymat in attrs:
            if nom in atributlar and qiymat:
                eski = f'{nom}="{html.escape(qiymat)}"'
                if eski not in asl:
                    raise ExtensionError(f"yozuvda.py: cannot find {eski} in {asl} to write it in the script")
                asl = asl.replace(eski, f'{nom}="{html.escape(y.matn(qiymat))}"')
        return asl

    class Yozuvchi(HTMLParser):
        ichida = 0

        def handle_starttag(self, teg, attrs):
            qismlar.append(teg_yoz(self.get_starttag_text(), attrs))
            self.ichida += teg in _KOD_TEGLARI

        def handle_startendtag(self, teg, attrs):
            qismlar.append(self.get_starttag_text())

        def handle_endtag(self, teg):
            qismlar.append(f"</{teg}>")
            self.ichida -= teg in _KOD_TEGLARI and self.ichida > 0

        def handle_data(self, data):
            qismlar.append(data if self.ichida else y.matn(data))

        def handle_entityref(self, nom):
            qismlar.append(f"&{nom};")

        def handle_charref(self, nom):
            qismlar.append(f"&#{nom};")

        def handle_comment(self, data):
            qismlar.append(f"<!--{data}-->")

        def handle_decl(self, decl):
            qismlar.append(f"<!{decl}>")

    oquvchi = Yozuvchi(convert_charrefs=False)
    oquvchi.feed(matn)
    oquvchi.close()
    return "".join(qismlar)


def _sahifa(app, doctree, docname) -> None:
    y = _yozuv(app)
    if y is None:
        return
    yozuv.doctree_yoz(doctree, y)
    # raw HTML the book's extensions wrote from their own Uzbek words (the download line)
    from docutils import nodes

    for tugun in doctree.findall(nodes.raw):
        if tugun.get("kitob_matn"):
            tugun.children = [nodes.Text(html_yoz(y, tugun.astext()))]
        elif 'class="kitob-xarita"' in tugun.astext():
            # an interactive map (chapter_code.kitob.xarita): its sentences, and what it is and
            # what stands in for it, which xarita.js says if its data do not load
            tugun.children = [nodes.Text(html_yoz(y, tugun.astext(), ("data-nima", "data-orniga")))]
    for rasm in doctree.findall(nodes.image):         # a picture's text for a screen reader
        if rasm.get("alt"):
            rasm["alt"] = y.matn(rasm["alt"])
    # a work cited stays as published, but the words the book's style joins its names with
    # ("Vaswani va boshq.", "Press, Smith va Lewis") are the book's, in the script as in the text
    from .adabiyot import BOSHQ, VA

    boglovchi = re.compile("|".join(re.escape(b) for b in (BOSHQ, VA)))

    def boglovchilari(matn: str) -> str:
        return boglovchi.sub(lambda m: y.matn(m.group(0)), matn)

    for manba in doctree.findall(nodes.citation):
        for matn in list(manba.findall(nodes.Text)):
            if (yangi := boglovchilari(str(matn))) != str(matn):
                matn.parent.replace(matn, nodes.Text(yangi))
    for havola in doctree.findall(nodes.reference):     # a citation's title: the work, as in the list
        if havola.get("reftitle"):
            havola["reftitle"] = boglovchilari(havola["reftitle"])
    # a figure's or table's number as the LaTeX writer prints it: "{number}-rasmning" as a
    # pattern (the web's is text by now)
    from sphinx import addnodes

    for tugun in doctree.findall(addnodes.number_reference):
        if isinstance(tugun.get("title"), str):
            tugun["title"] = _xabar(y, tugun["title"])
    # the prompts of a hidden cell's toggle, which MyST-NB copied from its configuration
    for tugun in doctree.findall(lambda t: isinstance(t, nodes.Element) and "prompt_show" in t.attributes):
        for kalit in ("prompt_show", "prompt_hide"):
            if isinstance(tugun.get(kalit), str):
                tugun[kalit] = _xabar(y, tugun[kalit])
    _lugat(y, doctree)
    _rasmlar(app, y, doctree, docname)


#: MIME type of each picture kind chapter_code.kitob glues.
_MIME = {"png": "image/png", "pdf": "application/pdf"}


def _rasmlar(app, y: yozuv.Yozuv, doctree, docname: str) -> None:
    """Each figure chapter_code.kitob drew shows its pictures drawn in the script: the kernel drew
    them from the same figure as the Latin ones (``KITOB_YOZUVLAR``, ``_muhit_ozgaruvchisi``) and
    glued them as ``<figure>-<script>`` and ``<figure>-<script>-qora``; here they replace the Latin
    pictures (light, dark, and the PDF's), written beside them (qorongi.py's way) and added to the
    images Sphinx copies.  The LaTeX builder resolves the whole book as one tree: each figure's
    page is the file it was brought in with.  A figure executed before the script was asked for
    (an old cache) keeps its Latin pictures."""
    import posixpath

    from docutils import nodes
    from sphinx import addnodes

    from .qorongi import QORA, glue, yopishgan_rasm

    def figuralar(tugun, sahifa: str):
        """(figure, its page) under ``tugun``, walking down: the LaTeX builder's files
        (start_of_file) are not their pages' parents."""
        for bola in tugun.children:
            if isinstance(bola, nodes.figure):
                yield bola, sahifa
            elif isinstance(bola, nodes.Element):
                yield from figuralar(bola, bola["docname"] if isinstance(bola, addnodes.start_of_file) else sahifa)

    yopishgan: dict[str, dict] = {}
    for figura, sahifa in figuralar(doctree, docname):
        if not figura["names"]:
            continue
        for rasm in figura.findall(nodes.image):
            mime = _MIME.get(rasm["uri"].rsplit(".", 1)[-1])
            if mime is None:
                continue
            if sahifa not in yopishgan:
                yopishgan[sahifa] = glue(app, rasm, sahifa)
            kalit = f"{figura['names'][0]}-{y.nom}" + (QORA if "only-dark" in rasm["classes"] else "")
            yangi = yopishgan_rasm(app, rasm, yopishgan[sahifa].get(kalit, {}), mime)
            if yangi is None:
                continue
            nomi = app.env.images.add_file(sahifa, yangi)
            rasm["uri"], rasm["candidates"] = yangi, {"*": yangi}
            if isinstance(rasm.parent, nodes.reference) and "rasm-toliq" in rasm.parent["classes"]:
                # the figure's link to its file (raqamlash.py), to this picture's file
                rasm.parent["refuri"] = posixpath.join(posixpath.dirname(rasm.parent["refuri"]), nomi)


def _muhit_ozgaruvchisi(app, config) -> None:
    """config-inited: the kernels this build starts draw each figure in the editions' scripts too
    (chapter_code.kitob reads ``KITOB_YOZUVLAR``: the function it calls for a script's converter,
    the folder that function is found in, the scripts' folder and the editions' names); nothing
    is set for a book without editions."""
    import json
    import os

    if config.kitob_yozuvlar:
        os.environ["KITOB_YOZUVLAR"] = json.dumps({
            "yol": [str(Path(__file__).resolve().parents[1])],
            "otkazgich": f"{yozuv.__name__}:{yozuv.figura_otkazgichi.__name__}",
            "papka": str(Path(config.kitob_yozuv_papkasi or yozuv.PAPKA).resolve()),
            "nomlar": list(config.kitob_yozuvlar)})


def _lugat(y: yozuv.Yozuv, doctree) -> None:
    """A glossary in the script's alphabetical order, with its letter bar in the script's letters
    (sahifa.py writes the source's)."""
    from .sahifa import HARFLAR_IZOHI, harflar_qoy

    harflar_qoy(doctree, y.tartib_kaliti, y.harf_guruhi, y.matn(HARFLAR_IZOHI))


def _kontekst(app, pagename, templatename, context, doctree) -> None:
    y = _yozuv(app)
    if y is None:
        return
    context["language"] = y.til
    for kalit in ("docstitle", "shorttitle", "project", "author", "copyright"):
        if isinstance(context.get(kalit), str):
            context[kalit] = y.matn(context[kalit])


def _tugmalar(app, pagename, templatename, context, doctree) -> None:
    """html-page-context, after the theme and yuklamalar.py made the header's buttons: their
    text and tooltips in the script (the book's download menu names its files in its own words)."""
    y = _yozuv(app)
    if y is None or not context.get("header_buttons"):
        return

    def yoz(tugma):
        if isinstance(tugma, dict):
            return {k: (_xabar(y, v) if k in ("text", "tooltip") and isinstance(v, str) else yoz(v))
                    for k, v in tugma.items()}
        return [yoz(t) for t in tugma] if isinstance(tugma, list) else tugma

    context["header_buttons"] = yoz(context["header_buttons"])


_TAVSIF = re.compile(r'(<meta name="description" content=")([^"]*)(")')


def _tavsif(app, pagename, templatename, context, doctree) -> None:
    """html-page-context (after sahifa.py's, which writes it): the description of a page with no
    text of its own (search, the index, the root's redirect) in the script: it is the book's
    first page's, from the Latin reading (a page's own is from its text, written already)."""
    import html

    y = _yozuv(app)
    if y is None or doctree is not None or not isinstance(context.get("metatags"), str):
        return                  # a page of its own: its description is its text, written already
    context["metatags"] = _TAVSIF.sub(
        lambda m: m[1] + html.escape(y.matn(html.unescape(m[2]))) + m[3], context["metatags"])


def _korsatkich(app, pagename, templatename, context, doctree) -> None:
    """html-page-context (after sahifa.py's, which orders the source's index): the index's
    terms in the script, in its alphabet's order and filed under its letters."""
    y = _yozuv(app)
    if y is None or pagename != "genindex" or not context.get("genindexentries"):
        return
    from .sahifa import korsatkich_guruhlari

    bandlar = [(y.matn(nom), (havolalar, [(y.matn(o), h) for o, h in ostlari], kalit))
               for _, guruh in context["genindexentries"] for nom, (havolalar, ostlari, kalit) in guruh]
    context["genindexentries"] = korsatkich_guruhlari(bandlar, y.tartib_kaliti, y.harf_guruhi)


def yozuv_havolalari(pagename: str, joriy: str, yozuvlar: list[tuple[str, str, str]],
                     asl: tuple[str, str, str]) -> list[dict]:
    """The script switch's links of page ``pagename`` in edition ``joriy`` ("" the source's):
    one to the same page in each other edition, ``(name, label, lang)`` each, the source's
    (``asl``) first.  The source's pages are the site's root, an edition's are its folder
    ``<name>/``; the links are relative, so the site works from any address and offline."""
    ildizga = "../" * pagename.count("/") + ("../" if joriy else "")
    return [{"nom": nom or "lotin", "sarlavha": sarlavha, "til": til,
             "href": f"{ildizga}{nom + '/' if nom else ''}{pagename}.html"}
            for nom, sarlavha, til in [asl, *yozuvlar] if nom != joriy]


def _havolalar(app, pagename, templatename, context, doctree) -> None:
    """html-page-context: the script switch's links (``kitob_yozuv_havolalari``: the header's
    button; ``kitob_yozuv_xaritasi``: the head's script that follows the remembered choice,
    layout.html)."""
    nomlar = list(app.config.kitob_yozuvlar or [])
    if not nomlar or app.builder.format != "html":
        return
    if getattr(app, "_kitob_yozuvlar", None) is None:
        papka = Path(app.config.kitob_yozuv_papkasi or yozuv.PAPKA)
        try:
            app._kitob_yozuvlar = [(y.nom, y.sarlavha, y.til) for y in (yozuv.Yozuv.oqi(n, papka) for n in nomlar)]
        except yozuv.YozuvXatosi as xato:
            raise ExtensionError(f"kitob_yozuvlar = {nomlar!r}: {xato}") from None
    havolalar = yozuv_havolalari(pagename, app.config.kitob_yozuv, app._kitob_yozuvlar,
                                 ("", app.config.kitob_asl_yozuv, app.config.language))
    context["kitob_yozuv_havolalari"] = havolalar
    context["kitob_yozuv_xaritasi"] = {h["nom"]: h["href"] for h in havolalar}


def _lotin_roli(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{lotin}`oʻ```: a piece of the Latin script itself (a letter, a token, a model's output),
    which an edition in another script keeps as written (yozuv.LOTIN_SINFI); no style of its own
    (``*{lotin}`oʻ`*`` for italics)."""
    from docutils import nodes

    return [nodes.inline(rawtext, text, classes=[yozuv.LOTIN_SINFI])], []


def setup(app):
    app.add_role("lotin", _lotin_roli)
    # before tarjima.py's (400) and pdf.py's (500), which write their words in the script
    app.connect("config-inited", _oqi, priority=300)
    app.connect("config-inited", _muhit_ozgaruvchisi)
    # kitob_yozuv and kitob_yozuv_papkasi are registered with the book's settings (__init__.py)
    # after the book's and the packages' catalogues are loaded (tarjima.py: 600)
    app.connect("builder-inited", _boshla, priority=900)
    app.connect("build-finished", _tugat)
    # before pdf.py's, which heads the PDF's front matter with the root page's title
    app.connect("env-updated", _muhit, priority=400)
    app.connect("env-updated", _pdf_sarlavhasi)
    # after the other extensions have resolved the page (references, numbers, glued values)
    app.connect("doctree-resolved", _sahifa, priority=900)
    app.connect("html-page-context", _kontekst)
    app.connect("html-page-context", _havolalar)
    app.connect("html-page-context", _korsatkich, priority=900)
    app.connect("html-page-context", _tugmalar, priority=900)
    app.connect("html-page-context", _tavsif, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
