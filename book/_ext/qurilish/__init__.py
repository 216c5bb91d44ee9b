"""The book's build code: Sphinx extensions, one module a mechanism (named in ``_config.yml``).

``setup`` sets them up in this order and registers the book's settings as typed config
values (``kitob_*``, changed under ``sphinx: config:`` in ``_config.yml``).  The chapters
never import this package; it imports only ``bichim`` and ``muhit`` from ``chapter_code``.

=============  ==================================================================
``qulf``       one build of a book at a time (``_build/.qurish.lock``)
``ijro``       a lesson re-executes when the ``chapter_code`` it imports changes
``raqamlash``  which pages are chapters; figures and tables numbered per chapter
``qorongi``    each figure's picture for the dark theme beside the light one
``yuklamalar`` each chapter's download line, files and archive; the root redirect
``daftar``     (used by ``yuklamalar``) the lessons' notebooks and scripts as the pages read
``katex``      mathematics rendered at build time by KaTeX (no CDN, no script)
``pdf``        the Uzbek PDF: babel without hyphenation, captions, fonts, index order, answers
``tarjima``    the interface in Uzbek (``locales/``, strings in the packages' scripts)
``qidiruv``    Uzbek search: one key for every spelling, light stemming
``sahifa``     what each page loads and says (context at ``html-page-context``)
``uslub``      each page's stylesheets as one file, in their order
``glue``       glued numbers written in Uzbek form
``kod``        code highlighted without spans that change nothing
``adabiyot``   citations and the list of references joined in Uzbek (sphinxcontrib-bibtex)
``xarita``     the data of a lesson's interactive maps in a file beside the page
``yozuvda``    an edition in another script, written from the Latin build's reading (``yozuv``)
``yakun``      after the build, in one order: files, WebP, cut fonts (``shrift``), stylesheets, gzip
=============  ==================================================================
"""

from __future__ import annotations

#: In setup order: the lock first (before anything writes), the post-build pipeline last.
MODULLAR = ["qulf", "ijro", "raqamlash", "qorongi", "yuklamalar", "katex", "pdf", "tarjima", "qidiruv",
            "sahifa", "uslub", "glue", "kod", "adabiyot", "xarita", "yozuvda", "yakun"]

#: The book's settings: name -> (default, rebuild, types).
SOZLAMALAR = {
    # sahifa: at most this many characters of whole sentences in a page's description
    "kitob_tavsif_uzunligi": (250, "html", [int]),
    # kod: the lexers of the book's code (code cells: the kernel's language; literalinclude)
    "kitob_kod_tillari": (["ipython3", "python"], "html", [list]),
    # katex: Debian's KaTeX (libjs-katex), whose script renders and whose stylesheet displays
    "kitob_katex_papkasi": ("/usr/share/javascript/katex", "html", [str]),
    # yuklamalar: how fast a lesson is read: words of prose and lines of code a minute
    "kitob_soz_daqiqa": (120, "env", [int]),
    "kitob_kod_daqiqa": (6, "env", [int]),
    # pdf: the published site's address, which the PDF names for its interactive parts
    # ("" while it has none: the PDF then says what they show)
    "kitob_sayt_manzili": ("", "env", [str]),
    # yozuvda: the edition's script (a folder of kitob_yozuv_papkasi; "" the source's Latin); "":
    # a change reads nothing again, the edition is written from the Latin build's reading
    "kitob_yozuv": ("", "", [str]),
    "kitob_yozuv_papkasi": ("", "", [str]),
    # yozuvda: the editions published beside the source's (folders of book/_yozuvlar/, each
    # written into the site's <name>/ by make book), and the source's script's name on their
    # script switch
    "kitob_yozuvlar": ([], "html", [list]),
    "kitob_asl_yozuv": ("Lotin", "html", [str]),
    # yakun: what a host compresses (text); images, WOFF2, PDF and archives already are
    "kitob_gzip_turlari": ([".html", ".css", ".js", ".mjs", ".svg", ".json", ".txt", ".xml", ".map",
                            ".inv", ".ico"], "html", [list]),
}


def setup(app):
    for nom, (asl, qayta, turlar) in SOZLAMALAR.items():
        app.add_config_value(nom, asl, qayta, types=turlar)
    for modul in MODULLAR:
        app.setup_extension(f"{__name__}.{modul}")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
