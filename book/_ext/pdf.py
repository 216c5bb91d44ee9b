"""Build side: the Uzbek PDF (a Sphinx extension for the LaTeX builder, xelatex).

Sphinx knows no Babel language for ``uz`` (docutils has no Uzbek), warns, and
falls back to English captions.  This extension tells Sphinx's LaTeX builder
that ``uz`` is babel's ``uzbek`` (loaded from TeX Live's ``uz`` ini file with
``provide=*``), supplies the Uzbek captions the ini file leaves empty, numbers
chapters, figures and tables the Uzbek ordinal way ("1-bob", and within the
chapter "1.1-rasm", "1.1-jadval", as on the web), gives a link to another
lesson or section its page ("Attention mexanizmi (12-bet)"), and sets fonts that have every glyph the chapter
uses (DejaVu: ʻ ʼ — √ ≈ × → and Greek).  An author's own ``latex_elements``
in ``_config.yml`` win over these defaults.
"""

from __future__ import annotations

import os
from datetime import date, datetime, timezone

from sphinx.builders.latex import util

#: Uzbek names LaTeX prints; babel's uz-Latn ini file has none of them.
#: (Figure and table names come from ``numfig_format``: "1.1-rasm", "1.1-jadval".)
NOMLAR = {
    "contentsname": "Mundarija",
    "indexname": "Koʻrsatkich",
    "chaptername": "bob",
    "partname": "qism",
    "appendixname": "Ilova",
    "refname": "Adabiyotlar",
    "bibname": "Adabiyotlar",
    "pagename": "bet",
    "seename": "qarang",
    "alsoname": "yana qarang",
}

#: Uzbek month names (Latin), January first.
OYLAR = ("yanvar", "fevral", "mart", "aprel", "may", "iyun",
         "iyul", "avgust", "sentabr", "oktabr", "noyabr", "dekabr")


def sana(kun: date) -> str:
    """The Uzbek date the title page shows: 2026-11-05 -> "2026-yil 5-noyabr".

    Built here rather than with ``today_fmt``: "%d" gives a leading zero
    ("05-noyabr"), and "%-d" is a glibc extension, not portable.
    """
    return f"{kun.year}-yil {kun.day}-{OYLAR[kun.month - 1]}"


def bugun() -> date:
    """Today, or the day of $SOURCE_DATE_EPOCH (a reproducible build), as Sphinx reads it."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is not None:
        return datetime.fromtimestamp(int(epoch), tz=timezone.utc).date()
    return date.today()


PREAMBULA = r"""
\makeatletter
% A caption's number and its text are separated as on the web, by a space: "1.1-rasm Matn"
% (LaTeX's default, for figures and longtables alike, is a colon).
\usepackage[labelsep=space]{caption}
% Chapters in the Uzbek ordinal style: "1-bob".
\usepackage{titlesec}
\titleformat{\chapter}[display]{\normalfont\sffamily\bfseries}%
  {\Large\thechapter-\chaptername}{8pt}{\Huge}
\titlespacing*{\chapter}{0pt}{0pt}{24pt}
% ... and in the running footer: "1-bob. Attention va Transformer"
\renewcommand{\chaptermark}[1]{\markboth{\thechapter-\chaptername.\ #1}{}}
% A link to another lesson or section says its page in the Uzbek way, "(12-bet)": Sphinx
% writes \autopageref*{label} after it (latex_show_pagerefs), hyperref (loaded after this
% preamble, hence at \begin{document}) would say "page 12".
\AtBeginDocument{\renewcommand*{\autopageref}{\@ifstar{\kitob@bet}{\kitob@bet}}}
\newcommand*{\kitob@bet}[1]{\pageref*{#1}-\pagename}
\makeatother
"""


def _nomlar() -> str:
    ichi = "".join(rf"\def\{k}{{{v}}}" for k, v in NOMLAR.items())
    return rf"\addto\captionsuzbek{{{ichi}}}" + "\n" + ichi


def _language_name(asl):
    def language_name(self, language_code: str) -> str:
        if language_code.split("_")[0].split("-")[0] == "uz":
            return "uzbek"
        return asl(self, language_code)
    return language_name


def _sozla(app, config) -> None:
    elementlar = {
        # babel, not polyglossia (which has no Uzbek); the class option
        # "uzbek" is read from TeX Live's ini file
        "babel": r"\usepackage[provide=*]{babel}",
        "polyglossia": "",
        "fontpkg": "\n".join([
            r"\setmainfont{DejaVu Serif}",
            r"\setsansfont{DejaVu Sans}",
            r"\setmonofont{DejaVu Sans Mono}[Scale=0.84]",
        ]),
        "fncychap": "",
        "preamble": PREAMBULA + _nomlar(),
        "papersize": "a4paper",
        "pointsize": "11pt",
        "sphinxsetup": "verbatimwrapslines=true, verbatimforcewraps=true, TitleColor={rgb}{0.1,0.1,0.1}",
        "printindex": r"\def\indexname{%s}\footnotesize\raggedright\printindex" % NOMLAR["indexname"],
    }
    for k, v in elementlar.items():
        config.latex_elements.setdefault(k, v)
    # makeindex (in TeX Live's binaries) instead of xindy (a separate package)
    config.latex_use_xindy = False
    # on paper a link to another lesson needs its page: "Attention mexanizmi (12-bet)"
    config.latex_show_pagerefs = True
    # figures and tables numbered within their chapter, as on the web (boblar.py):
    # chapter 2's first figure is 2.1-rasm (Sphinx's LaTeX option numfigreset=1)
    config.numfig_secnum_depth = 1
    # the title page's date in Uzbek: "2026-yil 5-noyabr" (an author's today/today_fmt win)
    if not config.today and not config.today_fmt:
        config.today = sana(bugun())


def _kirish_sarlavhasi(app, env) -> None:
    """Give the front matter (the root page's text, after the contents) its heading.

    Sphinx's LaTeX writer uses the root page's title as the book's title and
    drops it from the text, so the introduction would start untitled, with the
    running header still saying "Mundarija".  Here it gets an unnumbered
    chapter heading, its own running header and a line in the contents.
    """
    if app.builder.name != "latex" or "tableofcontents" in app.config.latex_elements:
        return
    from sphinx.util.texescape import escape

    sarlavha = env.titles.get(app.config.root_doc)
    if sarlavha is None:
        return
    s = escape(sarlavha.astext())
    app.builder.context["tableofcontents"] = (
        r"\sphinxtableofcontents" "\n"
        rf"\chapter*{{{s}}}\addcontentsline{{toc}}{{chapter}}{{{s}}}\markboth{{{s}}}{{{s}}}")


def setup(app):
    if not getattr(util.ExtBabel.language_name, "_kitob", False):
        yangi = _language_name(util.ExtBabel.language_name)
        yangi._kitob = True
        util.ExtBabel.language_name = yangi
    app.connect("config-inited", _sozla)
    app.connect("env-updated", _kirish_sarlavhasi)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
