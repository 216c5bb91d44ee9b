"""Shared code of the book's chapters: what a chapter imports, and nothing else.

Split by concern: ``kitob`` (book helpers: diagrams, tables, figures),
``raqam`` (numbers in Uzbek form: 0,997; 2,8·10⁻⁵; 98 %),
``malumot`` (the toy task), ``modellar`` (the models), ``sonlar`` (the
capstone: Uzbek number words), ``oqitish`` (training and measurement),
``natijalar`` (how trainings over several seeds ended, said from the counts),
``muhit`` (the machine's arithmetic, which decides how an unstable training
ends) and ``ombor`` (results of long computations kept on disk, keyed by their
code and that arithmetic).  The build code (Sphinx extensions, the build
driver) lives in ``book/_ext/``; neither side imports the other, with two
exceptions: the build writes glued numbers with ``raqam`` (numbers in Uzbek
form), the helper that writes the chapter's tables and figure ticks too, and
keys its execution cache with ``muhit``, as the store keys trainings.  This package imports
nothing heavy on its own: a chapter imports the modules it uses directly.
"""

from pathlib import Path

#: The project's root (the folder that holds chapter_code/): pictures and the
#: store of results go under its _build/.
ILDIZ = Path(__file__).resolve().parent.parent
