"""Shared code of the book's chapters: what a chapter imports, and nothing else.

Split by concern: ``kitob`` (book helpers: diagrams, tables, figures),
``malumot`` (the toy task), ``modellar`` (the models), ``oqitish`` (training
and measurement) and ``ombor`` (results of long computations kept on disk,
keyed by their code).  The build code (Sphinx extensions, the build driver)
lives in ``book/_ext/``; neither side imports the other.  This package imports
nothing heavy on its own: a chapter imports the modules it uses directly.
"""

from pathlib import Path

#: The project's root (the folder that holds chapter_code/): pictures and the
#: store of results go under its _build/.
ILDIZ = Path(__file__).resolve().parent.parent
