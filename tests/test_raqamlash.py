"""Unit tests of book/_ext/qurilish/raqamlash.py's numbered references (no build)."""

from __future__ import annotations

from types import SimpleNamespace

from docutils import nodes
from docutils.utils import new_document
from sphinx.addnodes import pending_xref

from qurilish.raqamlash import RaqamliStd


def test_a_numbered_reference_reads_each_page_once_until_it_is_read_again():
    """``RaqamliStd`` (raqamlash.py): Sphinx unpickles the target's whole page for every
    ``{numref}``; the book's domain keeps each page's doctree until the page is read again."""
    ochilgan = []

    def get_doctree(docname):
        ochilgan.append(docname)
        hujjat = new_document(docname)
        rasm = nodes.figure(ids=["rasm-a"])
        hujjat += rasm
        hujjat.note_implicit_target(rasm)
        return hujjat

    env = SimpleNamespace(domaindata={}, app=SimpleNamespace(registry=SimpleNamespace(enumerable_nodes={})),
                          get_doctree=get_doctree, toc_fignumbers={"dars": {"figure": {"rasm-a": (1, 4)}}},
                          config=SimpleNamespace(numfig=True, numfig_format={"figure": "%s-rasm"}))
    domen = RaqamliStd(env)
    domen.labels["a"] = ("dars", "rasm-a", "Sarlavha")
    quruvchi = SimpleNamespace(get_relative_uri=lambda dan, ga: f"{ga}.html")

    def havola():
        tugun = pending_xref("", refexplicit=False)
        return domen._resolve_numref_xref(env, "boshqa", quruvchi, "numref", "a", tugun,
                                          nodes.inline("", "")).astext()

    assert [havola(), havola(), havola()] == ["1.4-rasm"] * 3
    assert ochilgan == ["dars"], "three references to one page unpickle it once"
    domen.clear_doc("dars")                  # the page is read again: its labels noted anew
    domen.labels["a"] = ("dars", "rasm-a", "Sarlavha")
    assert havola() == "1.4-rasm" and ochilgan == ["dars", "dars"]
