"""The site's address on paper (book/_ext/qurilish/pdf.py, issue 46): ``kitob_sayt_manzili``
in ``_config.yml`` is checked, sets the tag the lessons' ``{only}`` blocks read, and
``{sayt}`path``` becomes the page's address; used while the setting is empty, the build
stops and says what to do. (The built PDF with the setting empty: test_pdf.py.)"""

from types import SimpleNamespace

import pytest
import yaml
from conftest import ILDIZ
from docutils import nodes
from sphinx.errors import ConfigError, ExtensionError

from qurilish.pdf import _sayt_havolalari, _sayt_manzili, sayt_havola, sayt_url


def _ilova(manzil: str):
    return SimpleNamespace(tags=set(), config=SimpleNamespace(kitob_sayt_manzili=manzil))


def _sozla(manzil: str):
    app = _ilova(manzil)
    _sayt_manzili(app, app.config)
    return app


def test_the_setting_is_in_config_yml_and_empty_until_the_site_has_an_address():
    sozlama = yaml.safe_load((ILDIZ / "_config.yml").read_text(encoding="utf-8"))["sphinx"]["config"]
    assert sozlama["kitob_sayt_manzili"] == ""


def test_an_address_sets_the_tag_and_names_the_page():
    assert "sayt_manzili" in _sozla("https://example.org/kitob/").tags
    assert not _sozla("").tags and not _sozla("  ").tags
    assert sayt_url("https://example.org/kitob/", "book/attention/yakuniy") == \
        "https://example.org/kitob/book/attention/yakuniy.html"
    assert sayt_url("https://example.org/kitob", "book/index") == "https://example.org/kitob/book/index.html"


@pytest.mark.parametrize("yomon", ["example.org/kitob", "ftp://example.org/", "https://", "https://x.org/?a=1"])
def test_a_wrong_address_stops_the_build_and_says_what_is_right(yomon):
    with pytest.raises(ConfigError, match=r"kitob_sayt_manzili .*https://example.org/attention/"):
        _sozla(yomon)


def _sahifa():
    doc = nodes.paragraph()
    doc += sayt_havola("{sayt}`book/attention/yakuniy`", "book/attention/yakuniy")
    return doc


def test_the_role_becomes_a_link_to_the_page():
    doc = _sahifa()
    _sayt_havolalari(_ilova("https://example.org/kitob/"), doc, "book/attention/yakuniy")
    (havola,) = doc.findall(nodes.reference)
    assert havola["refuri"] == havola.astext() == "https://example.org/kitob/book/attention/yakuniy.html"
    assert not list(doc.findall(sayt_havola))


def test_the_role_without_an_address_stops_the_build():
    with pytest.raises(ExtensionError, match=r"kitob_sayt_manzili .* is empty.*sayt_manzili"):
        _sayt_havolalari(_ilova(""), _sahifa(), "book/attention/yakuniy")
