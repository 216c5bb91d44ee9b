"""Build side: each figure's picture for the dark theme beside the light one (a Sphinx extension).

``chapter_code.kitob`` draws each figure twice from the same figure object: the picture it shows,
and one for the site's dark theme that it glues as ``<figure's name>-qora``.  Here, as a page is
read, the dark picture becomes a second image in the figure's PNG (web) output.  The two carry
pydata-sphinx-theme's classes: it shows ``only-light`` in the light theme and ``only-dark`` in the
dark one, and filters neither an ``only-dark`` image nor lays it on a white card.  The PDF takes
the figure's vector output (``application/pdf``) and never sees the dark picture.
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

from docutils import nodes

#: the glue key's ending (chapter_code.kitob.QORA; the build does not import the chapter's code)
QORA = "-qora"


def _papka(rasm: nodes.image) -> Path:
    """The folder of a picture MyST-NB wrote, relative to the source folder (its URI, before Sphinx
    collects it, is ``/_build/jupyter_execute/<hash>.png``: a leading / means the source folder)."""
    return Path(rasm["uri"].lstrip("/")).parent


def glue(app, rasm: nodes.image, docname: str) -> dict:
    """Page ``docname``'s glued values, which MyST-NB writes beside its pictures as
    ``<page>.glue.json`` ({} if it glued nothing)."""
    yol = Path(app.srcdir) / _papka(rasm) / f"{docname}.glue.json"
    return json.loads(yol.read_text(encoding="utf-8")) if yol.is_file() else {}


def yopishgan_rasm(app, rasm: nodes.image, qiymat: dict, mime: str) -> str | None:
    """A glued picture (``qiymat``, one value of ``glue``) of type ``mime`` written beside
    ``rasm``'s file, named by its content: its URI relative to the source folder, or None if
    the value holds no such picture."""
    malumot = qiymat.get("data", {}).get(mime)
    if malumot is None:
        return None
    baytlar = base64.b64decode(malumot)
    nisbiy = (_papka(rasm) / f"{hashlib.sha256(baytlar).hexdigest()}.{mime.split('/')[1]}").as_posix()
    fayl = Path(app.srcdir) / nisbiy
    if not fayl.is_file():
        fayl.write_bytes(baytlar)
    return nisbiy


def qorongi_rasmlar(app, doctree) -> None:
    """doctree-read, before Sphinx collects the page's images: a figure whose dark picture was
    glued shows it in the dark theme and its own picture in the light one."""
    yopishgan = None
    for figura in doctree.findall(nodes.figure):
        for quti in figura.findall(nodes.container):
            rasm = next(iter(quti.findall(nodes.image)), None) if quti.get("mime_type") == "image/png" else None
            if rasm is None or not figura["names"] or "only-light" in rasm["classes"]:
                continue
            yopishgan = glue(app, rasm, app.env.docname) if yopishgan is None else yopishgan
            nisbiy = yopishgan_rasm(app, rasm, yopishgan.get(figura["names"][0] + QORA, {}), "image/png")
            if nisbiy is None:        # a figure that chapter_code.kitob did not draw
                continue
            rasm["classes"].append("only-light")
            quti.append(nodes.image(uri="/" + nisbiy, alt=rasm.get("alt", ""), classes=["only-dark"]))


def setup(app):
    # Sphinx's image collector reads the page's images at doctree-read (priority 500)
    app.connect("doctree-read", qorongi_rasmlar, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
