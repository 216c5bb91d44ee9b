"""book/_ext/boblar.py's pieces on small inputs (fast; the two-chapter book itself: test_boblar.py)."""

import pytest
from bs4 import BeautifulSoup

import boblar


def test_download_line_offers_the_source_in_its_own_format():
    py = BeautifulSoup(boblar.yuklab_html("book/bob", "kitob.pdf", True, ".py"), "html.parser")
    assert [a["href"] for a in py.select("p.yuklab-olish a")] == [
        "../kitob.pdf", "bob.py", "bob.ipynb", "bob.zip"]
    md = BeautifulSoup(boblar.yuklab_html("book/ichki/bob", "kitob.pdf", True, ".md"), "html.parser")
    assert [a["href"] for a in md.select("p.yuklab-olish a")] == [
        "../../kitob.pdf", "bob.md", "bob.ipynb", "bob.zip"]
    # an .ipynb chapter has no other source: its executed notebook is offered once
    nb = BeautifulSoup(boblar.yuklab_html("bob", "kitob.pdf", True, ".ipynb"), "html.parser")
    assert [a["href"] for a in nb.select("p.yuklab-olish a")] == ["kitob.pdf", "bob.ipynb", "bob.zip"]
    # a page that is not a notebook: the PDF only, and no instructions to run it
    matn = BeautifulSoup(boblar.yuklab_html("book/bob", "kitob.pdf", False), "html.parser")
    assert [a["href"] for a in matn.select("a")] == ["../kitob.pdf"] and not matn.select(".yuklab-izoh")


def test_chapter_numbers_follow_the_toc_and_cover_sub_pages():
    from sphinx_external_toc.parsing import parse_toc_data

    xarita = parse_toc_data({"format": "jb-book", "root": "index", "parts": [
        {"caption": "Birinchi qism", "chapters": [{"file": "a", "sections": [{"file": "a1"}]}]},
        {"caption": "Ikkinchi qism", "chapters": [{"file": "b"}, {"file": "c"}]}]})
    assert boblar.bob_raqamlari(xarita) == {"a": 1, "a1": 1, "b": 2, "c": 3}


def test_archive_requirements_are_the_marked_lines_at_the_locked_versions(tmp_path):
    from sphinx.errors import ExtensionError

    (tmp_path / "requirements.txt").write_text(
        "torch==2.13.0+cpu   # [bob] models\nNumPy  # [bob] data\npytest   # tests only\n")
    (tmp_path / "requirements.lock").write_text("numpy==2.4.6\npytest==9.0\ntorch==2.13.0+cpu\n")
    assert boblar.bob_talablari(tmp_path) == "torch==2.13.0\nnumpy==2.4.6\n"   # no local label
    (tmp_path / "requirements.lock").write_text("pytest==9.0\ntorch==2.13.0+cpu\n")
    with pytest.raises(ExtensionError, match="marks numpy \\[bob\\], but requirements.lock has no pin"):
        boblar.bob_talablari(tmp_path)
    (tmp_path / "requirements.txt").unlink()
    with pytest.raises(ExtensionError, match="requirements.txt is missing"):
        boblar.bob_talablari(tmp_path)
