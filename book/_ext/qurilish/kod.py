"""Build side: code cells highlighted without the spans that change nothing (a Sphinx extension).

Pygments wraps every token in a span; in the two styles pydata-sphinx-theme writes into
``pygments.css`` names, punctuation and whitespace look exactly like plain text, so a
Pygments filter on the book's lexers (``kitob_kod_tillari``) highlights them as plain
text: no span.  Which token types qualify is read from the two styles, never from a list
kept by hand.  Only the HTML builder: the PDF's style may set such tokens in bold.
"""

from __future__ import annotations

from pygments.filter import Filter
from pygments.styles import get_style_by_name
from pygments.token import STANDARD_TYPES, Generic, Token

#: Token types that keep their span whatever the style: sphinx-copybutton skips them.
QOLADI = {Generic.Prompt, Generic.Output}


def tekis_turlar(*uslublar: str) -> frozenset:
    """Token types that look like plain text (``Token.Text``) in every one of the Pygments styles."""
    turlar = set(STANDARD_TYPES) - QOLADI - {Token.Text}
    for nom in uslublar:
        uslub = get_style_by_name(nom)
        turlar = {t for t in turlar if uslub.style_for_token(t) == uslub.style_for_token(Token.Text)}
    return frozenset(turlar)


class Tekis(Filter):
    """A token of one of ``turlar`` becomes plain text (no span); adjacent text is merged by Pygments."""

    def __init__(self, turlar: frozenset, **options):
        super().__init__(**options)
        self.turlar = turlar

    def filter(self, lexer, stream):
        for tur, qiymat in stream:
            yield (Token.Text if tur in self.turlar else tur), qiymat


def _tekis_lexer(asl: type, turlar: frozenset) -> type:
    class TekisLexer(asl):
        def __init__(self, **options):
            super().__init__(**options)
            self.add_filter(Tekis(turlar))
    TekisLexer.__name__ = f"Tekis{asl.__name__}"
    return TekisLexer


def _lexerlar(app) -> None:
    """builder-inited: the book's lexers with the filter, for the styles this theme writes."""
    from pydata_sphinx_theme.utils import get_theme_options_dict
    from pygments.lexers import get_lexer_by_name

    if app.builder.format != "html":
        return
    sozlama = get_theme_options_dict(app)
    uslublar = [sozlama.get(k) or app.builder.theme.get_config("options", k)
                for k in ("pygments_light_style", "pygments_dark_style")]
    turlar = tekis_turlar(*uslublar)
    for til in app.config.kitob_kod_tillari:
        app.add_lexer(til, _tekis_lexer(type(get_lexer_by_name(til)), turlar))


def setup(app):
    app.connect("builder-inited", _lexerlar)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
