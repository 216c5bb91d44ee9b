"""Build side: the Uzbek PDF (a Sphinx extension for the LaTeX builder, xelatex).

Sphinx knows no babel language for ``uz`` and falls back to English; here ``uz`` is babel's
``uzbek`` (TeX Live's ini file, ``provide=*``, no hyphenation) with the captions the ini file
leaves empty (``NOMLAR``), chapters and captions numbered the Uzbek way ("1-bob", "1.1-rasm",
as on the web), page references "(12-bet)", DejaVu fonts that have every glyph the chapter
uses, the index in the Uzbek alphabet's order (``tartib_kaliti``) and the solutions gathered
at the chapter's end (``_javoblar``).  An author's own ``latex_elements`` win over these.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urlsplit

from docutils import nodes
from sphinx import addnodes
from sphinx.builders.latex import util
from sphinx.errors import ConfigError, ExtensionError
from sphinx.writers.latex import LaTeXTranslator

from .yozuvda import _yozuv

#: Uzbek names LaTeX prints; babel's uz-Latn ini file has none of them.
#: (Figure and table names come from ``numfig_format``: "1.1-rasm", "1.1-jadval".)
#: (\kitobdavomi and \kitobningdavomi are the book's own: a split «Chuqurroq» box's continuation,
#: PREAMBULA, and a long table's, "(1.22-jadvalning davomi)", book/_templates/longtable.tex.jinja.)
NOMLAR = {"contentsname": "Mundarija", "indexname": "Koʻrsatkich", "chaptername": "bob", "partname": "qism",
          "appendixname": "Ilova", "refname": "Adabiyotlar", "bibname": "Adabiyotlar", "pagename": "bet",
          "seename": "qarang", "alsoname": "yana qarang", "kitobdavomi": "davomi",
          "kitobningdavomi": "ning davomi"}

#: The name an edition's language has in the PDF (babel's \babelprovide of the script's locale).
YOZUV_TILI = "kitobyozuvi"

#: The title page's date in Uzbek, "2026-yil 5-noyabr": Sphinx formats it with Babel's Uzbek
#: month names, ``%-d`` without a leading zero, on the day of $SOURCE_DATE_EPOCH if set.
SANA = "%Y-yil %-d-%B"


PREAMBULA = r"""
\makeatletter
% A caption's number and its text are separated as on the web, by a space: "1.1-rasm Matn"
% (LaTeX's default, for figures and longtables alike, is a colon).
\usepackage[labelsep=space]{caption}
% Table cells (Sphinx's tabulary column T, which it defines as J) ragged right, never hyphenated:
% justified, a narrow one spread "0,940;      0,940;"; and in 9 pt, no column under 6.5em: else
% "Tushuntirish" or "1024" ran past their cells.
\newcolumntype{T}{>{\hyphenpenalty=\@M}L}
\setlength{\tymin}{6.5em}
\AtBeginEnvironment{tabulary}{\footnotesize}
% No word hyphenated (uzbek has no patterns; English ones broke "raqamn-ing"), no line ended at a word's
% own hyphen (to TeX "0-qadam", "Pre-LN" are "ketma-ket") or in inline code (boxed): lines stretch.
\exhyphenpenalty=\@M \emergencystretch=3em \protected\def\sphinxcode#1{\mbox{\texttt{#1}}}
% The index in the Uzbek order (keys: tartib_kaliti), makeindex's own letter groups dropped: an
% entry names its letter (\kitobharf{Oʻ}, written unexpanded as \spxentry), which heads its first;
% entries are terms, set in the text's font (Sphinx's default is \texttt).
\def\kitobharf{\@backslashchar kitobharf}\def\kitob@harf{}
\def\kitob@harfi#1{\def\kitob@h{#1}\ifx\kitob@h\kitob@harf\else\ifx\kitob@harf\@empty\else\kitob@bosh\fi
  \kitob@sarlavha{#1}\item\global\let\kitob@harf\kitob@h\fi}
\AtBeginEnvironment{sphinxtheindex}{\let\kitobharf\kitob@harfi\let\kitob@bosh\indexspace\let\indexspace\relax
  \let\kitob@sarlavha\sphinxstyleindexlettergroup\let\sphinxstyleindexlettergroup\@gobble
  \let\sphinxstyleindexentry\@firstofone}
% A code block split across pages keeps no depth on the page (by default its last line's, up to
% 3 pt past the page's foot: an overfull \vbox at every split).
\AtBeginEnvironment{sphinxVerbatim}{\setlength{\splitmaxdepth}{\z@}}
% Table rows a quarter taller than LaTeX's: a cell's descenders no longer touch the next row's
% shading, and a two-line cell reads as one (an editor found the text tables cramped).
\renewcommand{\arraystretch}{1.25}
% A table and its caption on one page (the caption package let a caption above its table end a
% page): Sphinx's tabulary tables never break, so each, caption and table, is one box.
\let\kitob@attablestart\sphinxattablestart\let\kitob@attableend\sphinxattableend
\def\sphinxattablestart{\kitob@attablestart\noindent\begin{minipage}{\linewidth}}
\def\sphinxattableend{\end{minipage}\par\kitob@attableend}
% A blank page (none with openany; an author's openright makes them) has no header or footer;
% contents' page numbers fit 3 digits.
\usepackage{emptypage}\renewcommand{\@pnumwidth}{2em}
% The glossary in two columns (_ikki_ustunli_lugat): short entries, as in a printed dictionary.
\usepackage{multicol}
% A glossary term that wraps to a second line keeps the usual line spacing above its definition:
% Sphinx's \sphinxlineitem sets a term in a \parbox[t], whose depth (the term's second line) left
% only \lineskip before the definition (an editor found the lines touching).  [b] puts the term's
% last line on the baseline.  A patch of Sphinx's sphinxlatexlists.sty (tests/test_yamoqlar.py);
% if the macro changes, the build stops here.
\usepackage{etoolbox}\AtBeginDocument{\patchcmd{\sphinxlineitem}{\parbox[t]}{\parbox[b]}{}{%
  \PackageError{kitob}{Sphinx's \string\sphinxlineitem\space has no \string\parbox[t] any more}{See
  book/_ext/qurilish/pdf.py.}}}
% A figure goes on a page of its own only if it fills three quarters of it: a smaller one
% stands at the top of a page with text under it (LaTeX's defaults: a half, 0.7, 0.2).
\renewcommand{\floatpagefraction}{.75}\renewcommand{\topfraction}{.85}\renewcommand{\textfraction}{.1}
% Text ragged right: Uzbek has no hyphenation patterns, so justified lines could only stretch their
% word gaps (an editor counted loose lines on most pages); a formula never breaks at "=" or "+".
\usepackage{ragged2e}\AtBeginDocument{\RaggedRight}\relpenalty=\@M \binoppenalty=\@M
% A formula keeps its spaces: ragged2e's right margin stretches only so far (2em), so a loose line
% stretched the spaces around "=" in "(i = 0, 1, ...)" to five times their width (an editor measured
% 5-15 pt against 3); the spaces between words take the stretch, those in a formula have none.
\AtBeginDocument{\thickmuskip=5mu\relax \medmuskip=4mu minus 4mu\relax}
% A list is never the first thing on a page after the sentence that leads in to it ("… sanoqlardan
% oladi:" then "• unigram …"): no page break where a list begins (LaTeX's -51 invited one there).
\@beginparpenalty=\@M
% A short code block or printed output is not split across pages: before each, _bir_betda asks for
% its height (\kitobjoy); a longer one may still split, as code in a book does.  Not the needspace
% package: its \needspace puts \penalty-100 before every block, and under Sphinx's \raggedbottom
% (every underfull page has badness 0) that penalty is the cheapest break on the page, so a block
% that fits was sent to the next page whenever what followed it did not fit (an editor found pages
% four-fifths blank).  \kitobjoy breaks only when the block does not fit; its \penalty0 brings
% \pagetotal up to date and is an ordinary break, no cheaper than any other.  A code block moves
% only when less than a quarter of the page is left: with more, moving it left the page a third to
% a half empty (editors found four such pages, then four more at a third), so it splits there with
% its continuation lines, as code in a book does.  A «Chuqurroq» box moves only when less than 0,15 of the page is left: split, its
% continuation repeats its title (below).
% A lesson's figures are set before its exercises begin (\FloatBarrier before «Mashqlar»,
% _mashqdan_oldin): a figure that floated on split an exercise mid-sentence.
\usepackage{placeins}
\newcommand{\kitobjoy}[2][.25]{\par\penalty\z@\begingroup\setlength{\dimen@}{#2}%
  \dimen@ii\pagegoal\advance\dimen@ii-\pagetotal
  \ifdim\dimen@>\dimen@ii\ifdim\dimen@ii<#1\textheight\ifdim\dimen@ii>\z@\vfil\fi\break
  \else\typeout{kitobjoy: may split, \the\dimen@ii\space of \the\textheight, bound #1}\fi\fi
  \endgroup}
% A «Chuqurroq» box (Sphinx's note) split over two pages repeats its title above its continuation,
% "… (davomi)": framed.sty frames each later piece with \MidFrameCommand or \LastFrameCommand and
% measures the frame each adds, so the title's row is counted when the box is split.  sphinxnote is
% Sphinx 7.4's but for the title kept (tests/test_yamoqlar.py); with the title repeated, a box may
% split as a code block does (_bir_betda) instead of leaving a third of a page blank.
\newbox\kitob@parcha
\long\def\kitob@davomli#1#2{\setbox\kitob@parcha\vbox{#2}#1{\vbox{\hsize\wd\kitob@parcha
  \linewidth\hsize\sphinxstylenotetitle{\kitob@sarlavha\ (\kitobdavomi)}\box\kitob@parcha}}}
\renewenvironment{sphinxnote}[1]
  {\def\spx@noticetype{note}\def\kitob@sarlavha{#1}%
   \def\MidFrameCommand{\kitob@davomli\FrameCommand}\let\LastFrameCommand\MidFrameCommand
   \@nameuse{spx@note@border@openfalse}% or sphinxheavybox sets its own pieces' frames
   \begin{sphinxheavybox}\sphinxstylenotetitle{#1}}
  {\end{sphinxheavybox}}
% A glossary link upright (Sphinx sets it in italics, the form of the English glosses beside it);
% an address broken only after a slash ("https:" / "//arxiv.org" and "2407." / "21783" were not).
\protected\def\sphinxtermref#1{#1}
\AddToHook{begindocument/end}{\def\UrlBreaks{\do\/}\def\UrlBigBreaks{}\def\UrlNoBreaks{\do\:\do\(\do\[\do\{\do\<}}
% Captions smaller than the text and their label in bold, so a caption does not read as running text.
\captionsetup{font=small,labelfont=bf}
% Chapters in the Uzbek ordinal style: "1-bob".
\usepackage{titlesec}
\titleformat{\chapter}[display]{\normalfont\sffamily\bfseries}{\Large\thechapter-\chaptername}{8pt}{\Huge}
\titlespacing*{\chapter}{0pt}{0pt}{24pt}
% ... and in the running footer: "1-bob. Attention va Transformer"
\renewcommand{\chaptermark}[1]{\markboth{\thechapter-\chaptername.\ #1}{}}
% ... and a section's number as its heading writes it, "1.9 Atamalar" (report.cls: "1.9. Atamalar")
\renewcommand{\sectionmark}[1]{\markright{\thesection\quad #1}}
% A link to another lesson or section says its page the Uzbek way, "(12-bet)": Sphinx writes
% \autopageref*{label} after it; hyperref, loaded after this preamble (so: at \begin{document}), "page 12".
\AtBeginDocument{\renewcommand*{\autopageref}{\@ifstar{\kitob@bet}{\kitob@bet}}}
\newcommand*{\kitob@bet}[1]{\pageref*{#1}-\pagename}
% The list of references' page, which the chapter's list of lessons names (_javoblar): a label
% after its heading, which Sphinx's sphinxthebibliography opens; a renamed environment stops the build.
\usepackage{etoolbox}\AtBeginDocument{\apptocmd{\sphinxthebibliography}{\label{kitob-adabiyotlar}}{}{%
  \PackageError{kitob}{sphinxthebibliography changed: the references' page has no label}{}}}
\makeatother
"""


def _nomlar(nomlar: dict[str, str], til: str) -> str:
    """The names, for the language ``til`` and at once; an edition's language (YOZUV_TILI) takes
    the captions Sphinx gives babel's uzbek first (sphinxmessages.sty: no "Figure" before a
    number that says "1.1-rasm" itself; the uz-Cyrl ini has no table name: "?table?")."""
    ichi = "".join(rf"\def\{k}{{{v}}}" for k, v in nomlar.items())
    oldin = r"\captionsuzbek" if til != "uzbek" else ""
    return rf"\expandafter\addto\csname captions{til}\endcsname{{{oldin}{ichi}}}" + "\n" + ichi


def _soz(app, matn: str) -> str:
    """The book's own words on paper (not the pages'), in the edition's script if one is written."""
    y = _yozuv(app)
    return matn if y is None else y.matn(matn)


def _language_name(asl):
    """Sphinx's ExtBabel.language_name, knowing that ``uz`` is babel's ``uzbek``."""
    def language_name(self, language_code: str) -> str:
        return "uzbek" if re.split("[_-]", language_code)[0] == "uz" else asl(self, language_code)
    language_name._kitob = True
    return language_name


#: The Uzbek alphabet in its order; c and w (of foreign words) where the Latin alphabet has them.
ALIFBO = "a b c d e f g h i j k l m n o p q r s t u v w x y z oʻ gʻ sh ch ng".split()
_KOD = {h: h if i < 25 else "z" + "abcdef"[i - 25] for i, h in enumerate(ALIFBO)}
_HARFLAR = re.compile(r"[og][ʻ‘'`]|sh|ch|ng|[a-z0-9]|\s+")


def tartib_kaliti(matn: str) -> str:
    """An ASCII key makeindex sorts as ``matn`` in the Uzbek order: a..y stand for themselves, z and
    the letters after it for z and one more (z "za", oʻ "zb" ... ng "zf"), digits (before letters)
    and spaces (a word before a longer one) for themselves; signs, accents and case for nothing."""
    harflar = _HARFLAR.findall(unicodedata.normalize("NFKD", matn.lower()))
    return " ".join("".join(_KOD.get(re.sub("[‘'`]", "ʻ", h), h) if h.strip() else " " for h in harflar).split())


def harf_guruhi(matn: str) -> str:
    """The letter an index files ``matn`` under: "A", "Oʻ", "Sh"; "" if it starts with no letter."""
    k = tartib_kaliti(matn)
    return (ALIFBO[25 + "abcdef".index(k[1])] if k[0] == "z" else k[0]).capitalize() if k[:1].isalpha() else ""


#: One level of an \index{key@display!key@display|format} Sphinx writes ("x quotes x).
_ICHI = r'"[\s\S]|\{(?:"[\s\S]|[^"{}]|\{[^{}]*\})*\}'
_DARAJA = re.compile(rf'(\\index\{{|!)((?:{_ICHI}|[^"@!|{{}}])*)@((?:{_ICHI}|[^"!|{{}}])*)')


#: What of an entry's display is not words: TeX's commands and their braces, makeindex's quotes.
_BUYRUQ = re.compile(r'\\[a-zA-Z]+|\\.|"[\s\S]|[{}]')


def _daraja(m: re.Match, y=None) -> str:
    """One level of an entry keyed and lettered in the Uzbek order, or (``y``: an edition's
    script) its words written in that script, keyed and lettered in its alphabet's order."""
    matn = re.sub(r'\\[a-zA-Z]+|"(?=.)', "", m[2].replace(r"\sphinxhyphen{}", "-"))
    korinish = m[3].replace(r"\sphinxhyphen{}", "-")    # in a glossary's item TeX writes "\sphinxhyphen {}"
    if y is None:
        kalit, harf = tartib_kaliti(matn), harf_guruhi(matn)
    else:
        matn, oxiri, qismlar = y.matn(matn), 0, []
        for b in _BUYRUQ.finditer(korinish):
            qismlar += [y.matn(korinish[oxiri:b.start()]), b.group(0)]
            oxiri = b.end()
        korinish = "".join(qismlar) + y.matn(korinish[oxiri:])
        kalit, harf = y.ascii_kalit(matn), y.harf_guruhi(matn)
    harf = "" if m[1] == "!" else rf"\kitobharf{{{harf}}}"
    return f"{m[1]}{kalit or m[2]}@{harf}{korinish}"


def _korsatkich(self, node) -> None:
    """Sphinx's visit_index, each entry it writes keyed and lettered the Uzbek way (PREAMBULA)."""
    boshi, y = len(self.body), getattr(getattr(getattr(self, "builder", None), "app", None), "_kitob_yozuv", None)
    try:
        LaTeXTranslator.visit_index(self, node)
    finally:
        for i in range(boshi, len(self.body)):
            self.body[i], n = _DARAJA.subn(lambda m: _daraja(m, y), self.body[i])
            if self.body[i].count(r"\index{") > n:
                raise ExtensionError(f"pdf.py: an index entry Sphinx wrote is not key@display: {self.body[i]}")


def _matn(self, node) -> None:
    """Text on paper: no line begins with a dash; "T = 60", "ingl. term" and a model's name with
    its number ("Llama 3", "Llama 3 8B") stay on one line (no-break spaces)."""
    matn = re.sub(r" (?=[—=])|(?<==) (?=\d|$)|(?<=\bingl\.) ", "~", self.encode(node.astext()))
    self.body.append(re.sub(r"\b(Llama|Mistral|Gemma|Qwen) (\d+)(?: (?=\d+B))?",
                            lambda m: m.group(0).replace(" ", "~"), matn))


def _sozla(app, config) -> None:
    # babel (polyglossia has no Uzbek): "uzbek" from TeX Live's ini file, without hyphenation; an
    # edition's PDF (kitob_yozuv) is in its script's language, which its folder names (yozuv.yml's
    # babel: a locale, imported as YOZUV_TILI), with the same words in its script
    babel, til = r"\usepackage[provide=*]{babel}\babelprovide[hyphenrules=nohyphenation]{uzbek}", "uzbek"
    y, nomlar = _yozuv(app), NOMLAR
    if y is not None:
        nomlar = {k: y.matn(v) for k, v in NOMLAR.items()}
        if y.babel:
            babel += rf"\babelprovide[import={y.babel},main,hyphenrules=nohyphenation]{{{YOZUV_TILI}}}"
            til = YOZUV_TILI
    elementlar = {
        "babel": babel,
        "polyglossia": "",
        # formulas in DejaVu's own math font (fonts-dejavu-extra), not Latin Modern beside DejaVu
        # text: unicode-math after amsmath, as its manual asks
        "fontpkg": "\n".join([r"\setmainfont{DejaVu Serif}", r"\setsansfont{DejaVu Sans}",
                               r"\setmonofont{DejaVu Sans Mono}[Scale=0.84]",
                               r"\usepackage{unicode-math}", r"\setmathfont{DejaVu Math TeX Gyre}"]),
        "fncychap": "",
        "preamble": PREAMBULA + _nomlar(nomlar, til),
        "papersize": "a4paper",
        "pointsize": "11pt",
        # a part starts on the next page, not the next right-hand one: no blank pages in a PDF
        # read on a screen (five of them after the title, the contents, the preface, the lessons
        # and the references)
        "extraclassoptions": "openany",
        "sphinxsetup": "verbatimwrapslines=true, verbatimforcewraps=true, TitleColor={rgb}{0.1,0.1,0.1}",
        "printindex": r"\def\indexname{%s}\footnotesize\raggedright\printindex" % nomlar["indexname"],
    }
    config.latex_elements = {**elementlar, **config.latex_elements}
    # makeindex (in TeX Live's binaries) instead of xindy (a separate package)
    config.latex_use_xindy = False
    # on paper a link to another lesson needs its page: "Attention mexanizmi (12-bet)"
    config.latex_show_pagerefs = True
    # figures and tables numbered per chapter as on the web (raqamlash.py): 2.1-rasm (numfigreset=1)
    config.numfig_secnum_depth = 1
    # the title page's date in Uzbek (an author's today/today_fmt win); an edition's, in its
    # script (_sana)
    if not config.today and not config.today_fmt:
        config.today_fmt = SANA


def _sana(app) -> None:
    """builder-inited: an edition's title page's date in its script (set in the builder's context,
    not as the configuration's today: that is an "env" value, and the edition would read every
    page again)."""
    y = _yozuv(app)
    if y is not None and app.builder.name == "latex":
        app.builder.context["date"] = y.matn(app.builder.context["date"])


def _kirish_sarlavhasi(app, env) -> None:
    """The front matter (the root page's text, after the contents) gets an unnumbered chapter
    heading, its running header and a line in the contents: Sphinx's LaTeX writer makes the root
    page's title the book's and drops it (the introduction began untitled, under "Mundarija")."""
    if app.builder.name != "latex" or "tableofcontents" in app.config.latex_elements or \
            app.config.root_doc not in env.titles:
        return
    from sphinx.util.texescape import escape

    s = escape(env.titles[app.config.root_doc].astext())
    app.builder.context["tableofcontents"] = (
        r"\sphinxtableofcontents" "\n"
        rf"\chapter*{{{s}}}\addcontentsline{{toc}}{{chapter}}{{{s}}}\markboth{{{s}}}{{{s}}}")


#: What an exercise's solution is on the web: a dropdown admonition with this title.
YECHIM = "Yechim"
_MASHQ = re.compile(r"^(\d+)-mashq")


def _javoblar(app, doctree, docname) -> None:
    """On paper the solutions wait at the chapter's end: every exercise's solution (a dropdown
    titled YECHIM under its exercise on the web) and the hide-cell code cells after it move into
    a section "Javoblar" closing the chapter, under the lesson's title and the exercise's number,
    linking each other's page.  Runs on the one tree the LaTeX builder resolves (the root's).
    The references are the list at the book's end, where Sphinx gathers the citations: the web's
    page of them ({bibliography}), here a heading without its list, leaves the book, and the line
    listing it, so the contents says "Adabiyotlar" once."""
    if app.builder.name != "latex" or docname != app.config.root_doc:
        return
    sahifalar = {k.docname for k in app.env.get_domain("cite").bibliographies}
    adabiyotli = set()                        # ids of the lists of lessons that named the references
    for ota in list(doctree.findall(nodes.Element)):
        for bola in [b for b in ota.children if isinstance(b, addnodes.start_of_file) and b["docname"] in sahifalar
                     or isinstance(b, nodes.list_item) and any(r.get("refuri", "").lstrip("%").split("#")[0]
                                                               in sahifalar for r in b.findall(nodes.reference))]:
            if next(bola.findall(nodes.citation), None):
                raise ExtensionError(f"pdf.py: {bola.get('docname')} still holds citations (Sphinx gathers them)")
            if "darslar" in ota.get("classes", []):
                adabiyotli.add(id(ota))
            ota.remove(bola)
    boblar = set(app.env.toctree_includes.get(app.config.root_doc, []))
    javoblar: dict[int, tuple] = {}           # id(chapter) -> (chapter, [solutions])
    # from the last to the first: taking a solution's cells out moves none of the places before it
    for n, (ota, i, quti, fayllar) in reversed(list(enumerate(_yechimlar(doctree, [])))):
        bob = next((f for f in fayllar if f["docname"] in boblar), None)
        if bob is None:
            continue
        # the exercise's number: the paragraph that opens it, the nearest before the solution that
        # starts "N-mashq" (an exercise may run over several paragraphs)
        raqam = boshi = None
        for oldingi in reversed(ota.children[:i]):
            if not isinstance(oldingi, nodes.paragraph):
                break
            if raqam := _MASHQ.match(oldingi.astext()):
                boshi = oldingi
                break
        # the solution's code, if any: the hide-cell cells right after it (folded on the web) go with it
        kodlar = []
        while (i + 1 < len(ota.children) and isinstance(ota.children[i + 1], nodes.container)
               and "tag_hide-cell" in ota.children[i + 1].get("classes", [])):
            kodlar.append(ota.children.pop(i + 1))
        belgi = f"kitob-javob-{n}"
        # the answer's link back names the page where the exercise begins (an editor found it
        # naming the next page, where the line below had gone), and that line never starts a page
        # of its own: it stays with the exercise's last line
        yorliq = rf"\phantomsection\label{{kitob-mashq-{n}}}"
        if boshi is not None:
            boshi.insert(0, nodes.raw("", yorliq, format="latex"))
        havola = nodes.paragraph("", "", nodes.raw("", (
            ("" if boshi is not None else yorliq)
            + rf"\hyperref[{belgi}]{{{_soz(app, f'{YECHIM}: «Javoblar» boʻlimida,')} \pageref*{{{belgi}}}-\pagename}}"),
            format="latex"))
        ota.children[i] = havola
        havola.parent = ota
        ota.insert(i, nodes.raw("", r"\nopagebreak[4]", format="latex"))
        tana = [b.deepcopy() for b in quti.children if not isinstance(b, nodes.title)]
        tana += [k.deepcopy() for k in kodlar]
        nom = _soz(app, f"{raqam.group(1)}-mashq" if raqam else YECHIM)
        javoblar.setdefault(id(bob), (bob, []))[1].append((fayllar[-1]["docname"], nom, n, tana))
    for k, (bob, royxat) in enumerate(javoblar.values()):
        royxat.sort(key=lambda javob: javob[2])           # in the order of the exercises
        bolim = nodes.section("", nodes.title("", "Javoblar"), ids=[f"kitob-javoblar-{id(bob)}"])
        bolim += nodes.raw("", rf"\label{{kitob-javoblar-{k}}}", format="latex")
        _royxatga(bob, rf"\hyperref[kitob-javoblar-{k}]{{\sphinxcrossref{{{_soz(app, 'Javoblar')}}}}} "
                       rf"(\pageref*{{kitob-javoblar-{k}}}-\pagename)")
        oxirgi_dars = None
        for dars, nom, n, tana in royxat:
            if dars != oxirgi_dars:
                bolim += nodes.rubric("", app.env.titles[dars].astext())
                oxirgi_dars = dars
            # in its lesson's scope: its references to the lesson's figures keep resolving
            fayl = addnodes.start_of_file(docname=dars)
            # the exercise's number never ends a page: its answer follows it
            fayl += nodes.raw("", (
                rf"\par\noindent\phantomsection\label{{kitob-javob-{n}}}\textbf{{{nom}}} "
                rf"(\hyperref[kitob-mashq-{n}]{{\pageref*{{kitob-mashq-{n}}}-\pagename}})"
                r"\par\nopagebreak[4]"), format="latex")
            fayl.extend(tana)
            bolim += fayl
        next(b for b in bob.children if isinstance(b, nodes.section)).append(bolim)
    # the references, taken out of the lists of lessons above, are named there by their page at the book's end
    for royxat in doctree.findall(nodes.enumerated_list):
        if id(royxat) in adabiyotli:
            royxat += nodes.list_item("", nodes.paragraph("", "", nodes.raw(
                "", r"\hyperref[kitob-adabiyotlar]{\sphinxcrossref{\bibname}} (\pageref*{kitob-adabiyotlar}-\pagename)",
                format="latex")))


def _royxatga(bob, latex: str) -> None:
    """A last item, in LaTeX, of the chapter's list of lessons (yuklamalar._darslar_royxati), if it has one."""
    for royxat in _ichida(bob, nodes.enumerated_list):
        if "darslar" in royxat.get("classes", []):
            royxat += nodes.list_item("", nodes.paragraph("", "", nodes.raw("", latex, format="latex")))
            return


def _ichida(tugun, tur):
    """Every node of type ``tur`` under ``tugun``, walking its children (the LaTeX builder moves an
    included document's children under a start_of_file without setting their ``parent``)."""
    for bola in tugun.children:
        if isinstance(bola, tur):
            yield bola
        if isinstance(bola, nodes.Element):
            yield from _ichida(bola, tur)


def _yechimlar(tugun, fayllar):
    """(parent, index, admonition, files) of every solution in the tree, walking down from the top:
    the files are the start_of_file nodes it lies in, outermost first.  (The LaTeX builder moves each
    included document's children under a start_of_file without setting their ``parent``.)"""
    for i, bola in enumerate(tugun.children):
        if not isinstance(bola, nodes.Element):
            continue
        if isinstance(bola, addnodes.start_of_file):
            yield from _yechimlar(bola, [*fayllar, bola])
        elif (isinstance(bola, nodes.admonition) and "dropdown" in bola.get("classes", [])
              and bola.children and isinstance(bola[0], nodes.title) and bola[0].astext() == YECHIM):
            yield tugun, i, bola, fayllar
        else:
            yield from _yechimlar(bola, fayllar)


#: A code block or printed output of up to this many lines is kept on one page.
BIR_BETDA = 24
#: About this many characters of running text fill a line of the PDF's column.
QATOR_BELGI = 80


def _kirish_gapi(blok):
    """The paragraph right before a code block or the code cell that holds it, if it leads in to it
    (it ends with a colon) and is at most five lines long; else None."""
    katak = blok.parent
    while katak is not None and "cell" not in katak.get("classes", []):
        katak = katak.parent
    katak = katak if katak is not None else blok
    # the cell's first block only (its code, or its output when the code is hidden): what the
    # paragraph leads in to; a later block (the output under the code) has its own request
    if katak.parent is None or katak.parent.index(katak) == 0 or next(katak.findall(nodes.literal_block)) is not blok:
        return None
    oldingi = katak.parent[katak.parent.index(katak) - 1]
    matn = oldingi.astext().rstrip()
    if isinstance(oldingi, nodes.paragraph) and matn.endswith(":") and len(matn) <= 5 * QATOR_BELGI:
        return oldingi
    return None


def _bir_betda(app, doctree, docname) -> None:
    """doctree-resolved, LaTeX only: before each literal block of at most BIR_BETDA lines, a
    \\kitobjoy of its lines and two more (its frame), so that it moves whole to the next page
    rather than split ("davomi keyingi betda") when the page has no room for it."""
    if app.builder.name != "latex":
        return
    for blok in list(doctree.findall(nodes.literal_block)):
        qatorlar = blok.astext().count("\n") + 1
        if qatorlar <= BIR_BETDA and blok.parent is not None:
            joy, oldin = blok.parent, blok
            # a short paragraph that leads in to the cell ("…quyidagicha:") goes with it: the
            # request stands before the paragraph (an editor found a lead-in alone at a page's foot)
            kirish = _kirish_gapi(blok)
            if kirish is not None:
                joy, oldin = kirish.parent, kirish
                qatorlar += -(-len(kirish.astext()) // QATOR_BELGI) + 1
            joy.insert(joy.index(oldin), nodes.raw(
                "", rf"\kitobjoy{{{qatorlar + 2}\baselineskip}}", format="latex"))
    # a «Chuqurroq» box (a dropdown admonition left in the lesson) as well: its lines estimated
    # from its text (a line of the PDF's column holds about QATOR_BELGI characters), plus its
    # title and frame; it moves whole only when less than 0,15 of the page is left (a box that
    # always moved left a third of a page blank, an editor found): split, its continuation
    # repeats the title ("… (davomi)", PREAMBULA)
    for quti in list(doctree.findall(nodes.admonition)):
        if "dropdown" not in quti.get("classes", []) or quti.parent is None:
            continue
        qatorlar = sum(-(-len(b.astext()) // QATOR_BELGI) + 1 for b in quti.findall(nodes.paragraph))
        if qatorlar <= BIR_BETDA:
            quti.parent.insert(quti.parent.index(quti), nodes.raw(
                "", rf"\kitobjoy[.15]{{{qatorlar + 3}\baselineskip}}", format="latex"))


def _mashqdan_oldin(app, doctree, docname) -> None:
    """doctree-resolved, LaTeX only: a \\FloatBarrier before each «Mashqlar» section, so the
    lesson's figures are placed before its exercises (a reviewer found a figure that had
    floated into the middle of exercise 4's sentence).  Not before other sections: a barrier
    before every section, and then one before each section that follows a figure's, left pages
    23-59 % empty where the figure did not fit (editors found both); a figure may float past a
    heading, as in any printed book."""
    if app.builder.name != "latex":
        return
    for bolim in list(doctree.findall(nodes.section)):
        if bolim.parent is None:
            continue
        sarlavha = bolim.next_node(nodes.title)
        if sarlavha is not None and sarlavha.astext().strip() == "Mashqlar":
            bolim.parent.insert(bolim.parent.index(bolim), nodes.raw("", r"\FloatBarrier", format="latex"))


def _faqat_saytda(app, doctree, docname) -> None:
    """doctree-resolved, LaTeX only: a code cell whose every output is HTML (an interactive map)
    leaves the PDF, code and all: on paper it would be code with nothing under it.  The lesson
    says in an {only} latex paragraph what the map shows."""
    if app.builder.name != "latex":
        return
    for katak in list(doctree.findall(nodes.container)):
        if "cell" not in katak.get("classes", []) or katak.parent is None:
            continue
        chiqishlar = [c for c in katak.children if "cell_output" in c.get("classes", [])]
        barglar = [n for c in chiqishlar for n in c.findall(nodes.Element) if not isinstance(n, nodes.container)]
        if barglar and all(isinstance(n, nodes.raw) and "html" in n.get("format", "").split() for n in barglar):
            katak.parent.remove(katak)


def _ustunlar_tekisligi(app, doctree, docname) -> None:
    """doctree-resolved, LaTeX only: a table's number columns right-aligned, as on the web.  MyST
    marks a column written ``---:`` by its cells' class ``text-right``, which Sphinx's LaTeX writer
    ignores (every tabulary column is T); a tabularcolumns spec before the table gives such a
    column tabulary's R (ragged left: the digits line up) and the others the book's T."""
    if app.builder.name != "latex":
        return
    for jadval in list(doctree.findall(nodes.table)):
        guruh = next(iter(jadval.findall(nodes.tgroup)), None)
        tana = next(iter(jadval.findall(nodes.tbody)), None)
        if guruh is None or tana is None or jadval.parent is None:
            continue
        qatorlar = [[e for e in q.children if isinstance(e, nodes.entry)] for q in tana.findall(nodes.row)]
        if not qatorlar or any(len(q) != guruh["cols"] for q in qatorlar):
            continue                               # spanned cells: left as Sphinx sets them
        ongda = [all("text-right" in q[i].get("classes", []) for q in qatorlar) for i in range(guruh["cols"])]
        if any(ongda):
            ota = jadval.parent
            ota.insert(ota.index(jadval), addnodes.tabular_col_spec(spec="".join("R" if o else "T" for o in ongda)))


def _atama_joylari(app, doctree) -> None:
    """doctree-read: a glossary link in a paragraph also files an index entry where it stands, so the
    index leads to the lessons that use a term, not only to the glossary.  The entry is the term as
    the glossary writes it (read first: Sphinx reads in name order, and "atamalar" comes early)."""
    nomlar = {n.lower(): n for tur, n in app.env.get_domain("std").objects if tur == "term"}
    royxat = app.env.get_domain("index").entries.setdefault(app.env.docname, [])   # read before this event
    for n, xref in enumerate([] if doctree.next_node(addnodes.glossary) else list(doctree.findall(addnodes.pending_xref))):
        ota = xref.parent
        while isinstance(ota, nodes.Inline):        # in bold or italics: the paragraph it is in
            ota = ota.parent
        nom = nomlar.get(xref["reftarget"].lower()) if xref.get("reftype") == "term" else None
        if nom and isinstance(ota, nodes.paragraph):
            ota["ids"] = ota["ids"] or [f"atama-{n}"]    # the paragraph: search shows it (an empty target broke it)
            royxat.append(("single", nom, ota["ids"][0], "", None))
            xref.parent.insert(xref.parent.index(xref), addnodes.index(entries=[royxat[-1]]))


# --- the site's address on paper ---------------------------------------------------------

class sayt_havola(nodes.Inline, nodes.TextElement):
    """``{sayt}`path``: a page of the site by its path without ``.html`` (resolved at
    doctree-resolved, after ``{only}`` has dropped what the builder does not show)."""


def _sayt_manzili(app, config) -> None:
    """``kitob_sayt_manzili`` (``_config.yml``, ``sphinx: config:``): the address the published
    site has. Set, it is the tag ``sayt_manzili``, so that ``{only} latex and sayt_manzili``
    names the site's pages on paper and ``{only} latex and not sayt_manzili`` says instead
    what the site's interactive parts show."""
    manzil = config.kitob_sayt_manzili.strip()
    if not manzil:
        return
    qism = urlsplit(manzil)
    if qism.scheme not in ("https", "http") or not qism.netloc or qism.query or qism.fragment:
        raise ConfigError(
            f"kitob_sayt_manzili in _config.yml is {manzil!r}: write the published site's address, "
            "the folder its index.html is in (for example https://example.org/attention/), "
            "or leave it empty (\"\") while the site has none")
    app.tags.add("sayt_manzili")


def _sayt_roli(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [sayt_havola(rawtext, text.strip().lstrip("/"))], []


def sayt_url(manzil: str, yol: str) -> str:
    """The address of the site's page ``yol`` (``book/attention/yakuniy``) under ``manzil``."""
    return f"{manzil.strip().rstrip('/')}/{yol}.html"


def _sayt_havolalari(app, doctree, docname) -> None:
    manzil = app.config.kitob_sayt_manzili.strip()
    for tugun in list(doctree.findall(sayt_havola)):
        if not manzil:
            raise ExtensionError(
                f"{docname}: {{sayt}}`{tugun.astext()}` names the site's address, but kitob_sayt_manzili "
                "in _config.yml is empty: put the sentence in an {only} block with the tag "
                "sayt_manzili (and say in a 'not sayt_manzili' one what the page shows)")
        url = sayt_url(manzil, tugun.astext())
        tugun.replace_self(nodes.reference(url, url, refuri=url))


def _ikki_ustunli_lugat(app, doctree, docname) -> None:
    """doctree-resolved, LaTeX only: a glossary is set in two columns (multicol), as a printed
    dictionary is: its entries are a line or three, and one column left half of each line empty.
    A term never ends a column without its definition's first line (\\clubpenalty inside the columns:
    the term is its paragraph's first line)."""
    if app.builder.name != "latex":
        return
    for lugat in list(doctree.findall(addnodes.glossary)):
        ota = lugat.parent
        ota.insert(ota.index(lugat) + 1, nodes.raw("", "\\end{multicols}\n", format="latex"))
        ota.insert(ota.index(lugat), nodes.raw("", "\\begin{multicols}{2}\\clubpenalty=10000 \\csname @clubpenalty\\endcsname=10000\n", format="latex"))


def setup(app):
    if not getattr(util.ExtBabel.language_name, "_kitob", False):
        util.ExtBabel.language_name = _language_name(util.ExtBabel.language_name)
    app.add_node(addnodes.index, override=True, latex=(_korsatkich, None))
    app.add_node(nodes.Text, override=True, latex=(_matn, LaTeXTranslator.depart_Text))
    app.connect("config-inited", _sozla)
    app.connect("builder-inited", _sana, priority=950)      # after yozuvda.py's, which reads the script
    app.connect("config-inited", _sayt_manzili)
    app.add_node(sayt_havola)
    app.add_role("sayt", _sayt_roli)
    app.connect("doctree-resolved", _sayt_havolalari)
    app.connect("env-updated", _kirish_sarlavhasi)
    app.connect("doctree-resolved", _javoblar)
    app.connect("doctree-resolved", _bir_betda)
    app.connect("doctree-resolved", _faqat_saytda)
    app.connect("doctree-resolved", _mashqdan_oldin)
    app.connect("doctree-resolved", _ustunlar_tekisligi)
    app.connect("doctree-resolved", _ikki_ustunli_lugat)
    app.connect("doctree-read", _atama_joylari)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
