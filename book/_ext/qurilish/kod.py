"""Build side: code cells highlighted without the spans that change nothing, each line in a span
of its own (a Sphinx extension).

Pygments wraps every token in a span; in the two styles pydata-sphinx-theme writes into
``pygments.css`` names, punctuation and whitespace look exactly like plain text, so a
Pygments filter on the book's lexers (``kitob_kod_tillari``) highlights them as plain
text: no span.  Which token types qualify is read from the two styles, never from a list
kept by hand.  Only the HTML builder: the PDF's style may set such tokens in bold.

Every highlighted block's lines (code, printed output, included files) are each wrapped in
``<span class="q" style="--t:N">``, N the line's leading spaces, by the HTML formatter Sphinx
lets a project set (``PygmentsBridge.formatter``).  On a phone ``kitob.css`` wraps a long
line inside its span with a hanging indent, past its own indent, and a bar beside the
continuation (a background: copying leaves it out).  A blank line gets no span; the
newline stays outside the span, so a copy is the code as written.
"""

from __future__ import annotations

import re

from pygments.filter import Filter
from pygments.formatters import HtmlFormatter
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


_TEG = re.compile(r"<[^>]*>")
#: a line's indent: leading spaces, as plain text or in a whitespace token's span
_CHEKIN = re.compile(r'(<span class="w">)?( +)')


def qatorlarga(manba):
    """Pygments' stream of ``(1, line)`` lines and ``(0, wrapper)`` pieces, each non-blank line in
    a span that knows its indent; the newline after the span."""
    for tur, html in manba:
        matn = _TEG.sub("", html)
        if tur != 1 or not matn.strip():
            yield tur, html
            continue
        oxiri = "\n" if html.endswith("\n") else ""
        html = html[:len(html) - len(oxiri)]
        chekin = len(matn) - len(matn.lstrip(" "))
        # the indent in a span of its own that never breaks: else a line whose first word is
        # longer than a row would leave its indent alone on the row above
        if m := _CHEKIN.match(html):
            html = f'{m.group(1) or ""}<span class="qb">{m.group(2)}</span>{html[m.end():]}'
        yield 1, f'<span class="q" style="--t:{chekin}">{html}</span>{oxiri}'


def qatorli(asl: type) -> type:
    """An HTML formatter like ``asl`` whose lines are each in a span (``qatorlarga``)."""
    class Qatorli(asl):
        def wrap(self, source):
            return super().wrap(qatorlarga(source))
    Qatorli.__name__ = f"Qatorli{asl.__name__}"
    return Qatorli


def _qatorli_formatter(app) -> None:
    """builder-inited: the HTML builder's highlighters (light and dark) use ``qatorli``."""
    for nom in ("highlighter", "dark_highlighter"):
        h = getattr(app.builder, nom, None)
        if h is not None and h.dest == "html" and issubclass(h.formatter, HtmlFormatter):
            h.formatter = qatorli(h.formatter)


def setup(app):
    app.connect("builder-inited", _lexerlar)
    app.connect("builder-inited", _qatorli_formatter)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
