"""Build side: citations and the list of references in Uzbek (styles for sphinxcontrib-bibtex).

A lesson cites ``book/adabiyotlar.bib`` with ``{cite:p}``/``{cite:t}``; the list ends the
chapter and the PDF.  sphinxcontrib-bibtex and pybtex join names in English ("Vaswani et
al."); these styles, chosen in ``_config.yml`` (``uz``), join them in Uzbek, in round
brackets: "(Vaswani va boshq., 2017)", "Press, Smith va Lewis (2022)"; titles keep their capitals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pybtex.backends.plaintext import Backend as MatnBackend
from pybtex.plugin import register_plugin as pybtex_plugin
from pybtex.style.formatting.unsrt import Style as Unsrt
from pybtex.style.labels import BaseLabelStyle
from pybtex.style.sorting.author_year_title import SortingStyle
from pybtex.style.template import FieldIsMissing, field as maydon, href, join, node, sentence
from sphinxcontrib.bibtex.plugin import register_plugin
from sphinxcontrib.bibtex.style.referencing import BracketStyle, PersonStyle
from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle

#: How names are joined: two names, the last of three or more, and what stands for the rest.
VA, BOSHQ = " va ", " va boshq."


def _shaxs() -> PersonStyle:
    return PersonStyle(sep2=VA, last_sep=VA, other=BOSHQ)


def _qavs() -> BracketStyle:
    return BracketStyle(left="(", right=")", sep="; ")


@dataclass
class MuallifYil(AuthorYearReferenceStyle):
    """Author-year citations: "(Vaswani va boshq., 2017)", "Xiong va boshq. (2020)"."""

    person: PersonStyle = field(default_factory=_shaxs)
    bracket_parenthetical: BracketStyle = field(default_factory=_qavs)
    bracket_textual: BracketStyle = field(default_factory=_qavs)
    bracket_year: BracketStyle = field(default_factory=_qavs)


class Yorliq(BaseLabelStyle):
    """Each entry's label in the list is its citation without brackets ("Vaswani va boshq.,
    2017"), so the reader finds in the list what the text cited (pybtex's labels are numbers)."""

    def format_labels(self, sorted_entries):
        for yozuv in sorted_entries:
            shaxslar = yozuv.persons.get("author", [])
            # rendered with the text backend itself: render_as("text") looks the backend up among
            # every installed package's entry points on each call (0,8 s a build for 200 names)
            nomlar = [" ".join(n.render(MatnBackend()) for n in s.rich_last_names) for s in shaxslar]
            muallif = nomlar[0] + BOSHQ if len(nomlar) > 2 else VA.join(nomlar)
            yield f"{muallif}, {yozuv.fields['year']}"


class Tartib(SortingStyle):
    """pybtex's author-year-title order, with a team's name in braces ("{Gemma Team, Google
    DeepMind}") sorted by its letters: pybtex keeps the brace in the key, and "{" sorts after
    every letter, so the teams stood at the end of the list."""

    def person_key(self, person):
        return super().person_key(person).replace("{", "").replace("}", "")


@node
def _nomlar(children, context, role):
    """pybtex's ``names`` joined by "va", with BibTeX's "and others" written "va boshq." as the
    citations write it (pybtex's ``names`` prints the word "others")."""
    assert not children
    try:
        shaxslar = list(context["entry"].persons[role])
    except KeyError:
        raise FieldIsMissing(role, context["entry"]) from None
    uslub = context["style"]
    boshqalar = bool(shaxslar) and str(shaxslar[-1]) == "others"
    nomlar = [uslub.format_name(s, uslub.abbreviate_names) for s in shaxslar[: -1 if boshqalar else None]]
    if boshqalar:
        return join(sep=", ")[nomlar].format_data(context) + BOSHQ
    return join(sep=", ", sep2=VA, last_sep=VA)[nomlar].format_data(context)


class Royxat(Unsrt):
    """The list: pybtex's ``unsrt`` with every author named and joined by "va", sorted by
    author and year, labelled as the text cites it."""

    default_sorting_style = "uz"
    default_label_style = "uz"

    def format_names(self, role, as_sentence=True):
        nomlar = _nomlar(role)
        return sentence[nomlar] if as_sentence else nomlar

    def format_title(self, e, which_field, as_sentence=True):
        sarlavha = maydon(which_field)
        return sentence[sarlavha] if as_sentence else sarlavha

    def format_url(self, e):
        """"URL: arxiv.org/abs/2305.13245", one unbreakable run: the link goes to the whole address,
        the text shows it without "https://" (in print, five lines ended in "URL: https://", an
        editor found)."""
        url = maydon("url", raw=True)
        return join["URL:\u00a0", href(url)[re.sub(r"^https?://", "", e.fields.get("url", ""))]]


#: docutils' HTML5 markup of a list of citations and what replaces it: ``role="list"`` on a
#: div whose children are not list items, and the deprecated ``doc-biblioentry`` role; axe
#: counts both as violations (aria-required-children, aria-deprecated-role) and Lighthouse
#: marks accessibility down to 92.  A div of entries needs no role.
ROLLAR = {'<div role="list" class="citation-list">': '<div class="citation-list">',
          ' role="doc-biblioentry"': ""}


def _rollarsiz(app, pagename, templatename, context, doctree):
    """The page of references without the two ARIA roles docutils writes (see ROLLAR)."""
    body = context.get("body", "")
    if "citation-list" in body:
        for eski, yangi in ROLLAR.items():
            body = body.replace(eski, yangi)
        context["body"] = body


def setup(app):
    app.connect("html-page-context", _rollarsiz)
    register_plugin("sphinxcontrib.bibtex.style.referencing", "uz", MuallifYil)
    pybtex_plugin("pybtex.style.labels", "uz", Yorliq)
    pybtex_plugin("pybtex.style.sorting", "uz", Tartib)
    pybtex_plugin("pybtex.style.formatting", "uz", Royxat)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
