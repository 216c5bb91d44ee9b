"""book/_ext/qurilish/raqamlash.py's and yuklamalar.py's pieces on small inputs (fast; the two-chapter book itself: test_boblar.py)."""

import pytest
from bs4 import BeautifulSoup

from qurilish import SOZLAMALAR, raqamlash, yuklamalar


def test_download_line_offers_the_notebook_and_the_script_with_their_sizes():
    """Whatever the source's format (.py, .md, .ipynb), a notebook page offers the notebook and
    the script written as the page reads (daftar.py); each link says its size where it is known."""
    py = BeautifulSoup(yuklamalar.yuklab_html("book/bob", "kitob.pdf", True), "html.parser")
    assert [a["href"] for a in py.select("p.yuklab-olish a")] == ["../kitob.pdf", "bob.ipynb", "bob.py", "bob.zip"]
    hajmlar = {"../kitob.pdf": "758\u00a0kB", "bob.ipynb": "86\u00a0kB", "bob.py": "15\u00a0kB", "bob.zip": "2,15\u00a0MB"}
    sahifa = BeautifulSoup(yuklamalar.yuklab_html("book/bob", "kitob.pdf", True, hajmlar.get), "html.parser")
    assert [a.get_text() for a in sahifa.select("p.yuklab-olish a")] == [
        "PDF (758\u00a0kB)", "Jupyter daftari (.ipynb, 86\u00a0kB)", "Python skripti (.py, 15\u00a0kB)",
        "ishga tushirish uchun toʻplam (.zip, 2,15\u00a0MB)"]
    assert "README.md" in sahifa.select_one(".yuklab-izoh").get_text()
    # a page that is not a notebook: the PDF only, and no instructions to run it
    matn = BeautifulSoup(yuklamalar.yuklab_html("book/bob", "kitob.pdf", False), "html.parser")
    assert [a["href"] for a in matn.select("a")] == ["../kitob.pdf"] and not matn.select(".yuklab-izoh")


def test_a_files_size_is_said_the_uzbek_way():
    assert yuklamalar.hajm_matni(758_123) == "758\u00a0kB"
    assert yuklamalar.hajm_matni(2_150_000) == "2,15\u00a0MB"
    assert yuklamalar.hajm_matni(999_499) == "999\u00a0kB" and yuklamalar.hajm_matni(999_500) == "1,00\u00a0MB"
    assert yuklamalar.hajm_matni(12) == "1\u00a0kB"


def test_chapter_numbers_follow_the_toc_and_cover_sub_pages():
    from sphinx_external_toc.parsing import parse_toc_data

    xarita = parse_toc_data({"format": "jb-book", "root": "index", "parts": [
        {"caption": "Birinchi qism", "chapters": [{"file": "a", "sections": [{"file": "a1"}]}]},
        {"caption": "Ikkinchi qism", "chapters": [{"file": "b"}, {"file": "c"}]}]})
    assert raqamlash.bob_raqamlari(xarita) == {"a": 1, "a1": 1, "b": 2, "c": 3}


def test_archive_requirements_are_the_marked_lines_at_the_locked_versions(tmp_path):
    from sphinx.errors import ExtensionError

    (tmp_path / "requirements.txt").write_text(
        "torch==2.13.0+cpu   # [bob] models\nNumPy  # [bob] data\npytest   # tests only\n")
    (tmp_path / "requirements.lock").write_text("numpy==2.4.6\npytest==9.0\ntorch==2.13.0+cpu\n")
    assert yuklamalar.bob_talablari(tmp_path) == "torch==2.13.0\nnumpy==2.4.6\n"   # no local label
    (tmp_path / "requirements.lock").write_text("pytest==9.0\ntorch==2.13.0+cpu\n")
    with pytest.raises(ExtensionError, match="marks numpy \\[bob\\], but requirements.lock has no pin"):
        yuklamalar.bob_talablari(tmp_path)
    (tmp_path / "requirements.txt").unlink()
    with pytest.raises(ExtensionError, match="requirements.txt is missing"):
        yuklamalar.bob_talablari(tmp_path)


def test_a_chapter_of_lessons_has_its_own_lines():
    # the opening page: the PDF and the chapter's archive, named after its folder
    bosh = BeautifulSoup(yuklamalar.bob_html("book/attention/index", "kitob.pdf", ["mexanizm", "rekurrent"]),
                         "html.parser")
    assert [a["href"] for a in bosh.select("p.yuklab-olish a")] == ["../../kitob.pdf", "attention.zip"]
    assert "mexanizm.ipynb faylidan boshlab" in bosh.select_one(".yuklab-izoh > p").get_text()
    # a lesson: its source, its executed notebook, the chapter's archive
    dars = BeautifulSoup(yuklamalar.dars_html("book/attention/mexanizm", "book/attention/index"), "html.parser")
    assert [a["href"] for a in dars.select("p.yuklab-olish a")] == [
        "mexanizm.ipynb", "mexanizm.py", "attention.zip"]
    assert raqamlash.arxiv_nomi("book/attention/index") == "attention"
    assert raqamlash.arxiv_nomi("book/ikkinchi") == "ikkinchi"
    assert raqamlash.arxiv_nomi("index") == "index"


def test_a_chapters_pages_are_its_lessons_in_order():
    raqamlar = {"kirish": 0, "a": 1, "a/1": 1, "a/2": 1, "b": 2}
    assert raqamlash.bob_sahifalari(raqamlar, "a") == ["a/1", "a/2"]
    assert raqamlash.bob_sahifalari(raqamlar, "b") == []


def test_reading_time_counts_prose_and_visible_code(tmp_path):
    soz, kod_ = SOZLAMALAR["kitob_soz_daqiqa"][0], SOZLAMALAR["kitob_kod_daqiqa"][0]
    dars = tmp_path / "dars.py"
    nasr = " ".join(["soʻz"] * soz * 10)                    # ten minutes of prose
    kod = "\n".join(f"x{i} = {i}" for i in range(kod_ * 10))  # ten minutes of code
    yashirin = "\n".join(f"y{i} = {i}" for i in range(1000))
    dars.write_text(f"# %% [markdown]\n# {nasr}\n\n# %%\n{kod}\n\n# %% tags=[\"remove-cell\"]\n{yashirin}\n")
    assert yuklamalar.oqish_daqiqasi(dars, soz, kod_) == 20                 # the hidden cell is not read
    # a call wrapped one argument a line: its lone closing brackets are not lines to read
    ochilgan = "\n".join(f"f(\n    {i},\n)" for i in range(kod_ * 10))
    dars.write_text(f"# %% [markdown]\n# {nasr}\n\n# %%\n{ochilgan}\n")
    assert yuklamalar.oqish_daqiqasi(dars, soz, kod_) == 30
    (tmp_path / "qisqa.md").write_text("# Sarlavha\n\nBir necha soʻz.\n")
    assert yuklamalar.oqish_daqiqasi(tmp_path / "qisqa.md", soz, kod_) == 5   # at least five minutes


def test_reading_time_is_the_core_path(tmp_path):
    """Closed «Yechim» and «Chuqurroq» admonitions and folded code are read by choice: not counted."""
    soz, kod_ = SOZLAMALAR["kitob_soz_daqiqa"][0], SOZLAMALAR["kitob_kod_daqiqa"][0]
    dars = tmp_path / "dars.py"
    nasr = " ".join(["soʻz"] * soz * 10)
    yopiq = "\n".join(f"# :::{{admonition}} {nom}\n# :class: dropdown\n#\n# {nasr}\n# :::"
                      for nom in ("Yechim", "Chuqurroq: nega shunday"))
    yechim = "\n".join(f"x{i} = {i}" for i in range(kod_ * 10))
    dars.write_text(f"# %% [markdown]\n# {nasr}\n#\n{yopiq}\n# {nasr}\n\n"
                    f"# %% tags=[\"hide-cell\"]\n{yechim}\n")
    assert yuklamalar.oqish_daqiqasi(dars, soz, kod_) == 20      # the prose outside, twice ten minutes
    # an admonition of another title is read
    dars.write_text(f"# %% [markdown]\n# :::{{admonition}} Eslatma\n# {nasr}\n# :::\n")
    assert yuklamalar.oqish_daqiqasi(dars, soz, kod_) == 10


def test_files_of_a_document_the_book_no_longer_has_are_found(tmp_path):
    sayt = tmp_path
    for f in ("index.html", "search.html", "genindex.html", "book/index.html",
              "book/attention.html", "book/attention.py", "book/attention.ipynb", "book/attention.zip",
              "_sources/book/attention.py", "_sources/book/index.md",
              "book/attention/index.html", "book/attention/mexanizm.html", "book/attention/mexanizm.py",
              "book/attention/attention.zip", "book/attention/eski.zip", "_static/x.html"):
        (sayt / f).parent.mkdir(parents=True, exist_ok=True)
        (sayt / f).write_text("x")
    hujjatlar = {"book/index", "book/attention/index", "book/attention/mexanizm"}
    eski = sorted(p.relative_to(sayt).as_posix() for p in yuklamalar.eski_fayllar(sayt, hujjatlar))
    assert eski == ["_sources/book/attention.py", "book/attention.html", "book/attention.ipynb",
                    "book/attention.py", "book/attention.zip", "book/attention/eski.zip"]


def _menyu():
    return {"type": "group", "label": "download-buttons", "buttons": [
        {"type": "link", "url": "../../_sources/book/attention/mexanizm.ipynb", "text": ".ipynb",
         "label": "download-notebook-button"},
        {"type": "link", "url": "../../_sources/book/attention/mexanizm.py", "text": ".py",
         "label": "download-source-button"},
        {"type": "javascript", "javascript": "window.print()", "text": ".pdf", "icon": "fas fa-file-pdf",
         "label": "download-pdf-button"}]}


def test_the_header_download_menu_gives_the_books_pdf_and_the_files_beside_the_page():
    hajm = {"mexanizm.ipynb": "86\u00a0kB", "../../kitob.pdf": "758\u00a0kB"}.get
    guruh = yuklamalar.sarlavha_yuklamalari(_menyu(), "book/attention/mexanizm", "../../kitob.pdf", True,
                                            lambda m: hajm(m) or "")
    assert [(b["type"], b["url"], b["text"]) for b in guruh["buttons"]] == [
        ("link", "mexanizm.ipynb", "Jupyter daftari (.ipynb, 86\u00a0kB)"),
        ("link", "mexanizm.py", "Python skripti (.py)"),
        ("link", "../../kitob.pdf", "Bob (PDF, 758\u00a0kB)")]
    assert not any("javascript" in b for b in guruh["buttons"])
    # a page that is no notebook offers no source (its MyST): the PDF only
    md = yuklamalar.sarlavha_yuklamalari(_menyu(), "book/attention/atamalar", "../../kitob.pdf", False)
    assert [b["url"] for b in md["buttons"]] == ["../../kitob.pdf"]
    # a .py lesson: the theme gives no .ipynb item; the notebook is added
    menyu = _menyu()
    menyu["buttons"].pop(0)
    py = yuklamalar.sarlavha_yuklamalari(menyu, "book/attention/mexanizm", "../../kitob.pdf", True)
    assert [(b["url"], b["text"]) for b in py["buttons"]] == [
        ("mexanizm.ipynb", "Jupyter daftari (.ipynb)"), ("mexanizm.py", "Python skripti (.py)"),
        ("../../kitob.pdf", "Bob (PDF)")]


def test_a_download_menu_without_its_pdf_item_is_refused():
    from sphinx.errors import ExtensionError

    menyu = _menyu()
    menyu["buttons"].pop()
    with pytest.raises(ExtensionError, match="download-pdf-button"):
        yuklamalar.sarlavha_yuklamalari(menyu, "book/x", "kitob.pdf", True)


def test_a_download_is_written_again_when_the_chapters_numbers_move(tmp_path):
    """A lesson added before another renumbers the other's figures without touching its
    doctree or its notebook: the numbers the download was written with are kept in its
    metadata and compared (a clean clone never sees this; an author's next build did)."""
    import json
    from types import SimpleNamespace

    from book._ext.qurilish import yuklamalar

    env = SimpleNamespace(toc_fignumbers={"b/dars": {"figure": {"rasm": (1, 10)}}},
                          toc_secnumbers={"b/dars": {"": (1, 6)}},
                          titles={"b/dars": SimpleNamespace(astext=lambda: "Dars")},
                          mystnb_config=SimpleNamespace(output_folder=str(tmp_path / "ijro")))
    app = SimpleNamespace(env=env, doctreedir=str(tmp_path / "doctrees"))
    ipynb, py = tmp_path / "dars.ipynb", tmp_path / "dars.py"
    ipynb.write_text(json.dumps({"metadata": {yuklamalar.RAQAMLAR_KALITI: yuklamalar.raqamlar_izi(app)}}))
    py.write_text("# %%\n")
    assert not yuklamalar._eskimi(app, "b/dars", ipynb, py)
    env.toc_fignumbers["b/dars"]["figure"]["rasm"] = (1, 11)      # a lesson added before it
    assert yuklamalar._eskimi(app, "b/dars", ipynb, py)
    ipynb.write_text(json.dumps({"metadata": {}}))                 # written before this check
    env.toc_fignumbers["b/dars"]["figure"]["rasm"] = (1, 10)
    assert yuklamalar._eskimi(app, "b/dars", ipynb, py)
