"""Shared code of the chapter "Attention va Transformer".

Split by concern: ``kitob`` (book helpers: diagrams, tables, figures),
``malumot`` (the toy task), ``modellar`` (the models) and ``oqitish``
(training and measurement).  The chapter imports from these modules directly,
so this package imports nothing heavy on its own.
"""
