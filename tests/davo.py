"""A kind-(a) claim of the chapter (issue 42): true by design, with a margin.

``davo(name, measured, at_least=…)`` (or ``at_most=…``) asserts one claim the text states
without a branch, and the failure names the claim and the value measured here: on such a
machine the claim is not robust, so make it robust or cut it (README).  The margin (the
distance from the threshold) is not asserted.  When ``KITOB_DAVOLAR`` names a file, each
claim is also appended to it as a JSON line with its margin: ``make arifmetika`` gathers
them over its CPU settings and prints each claim's smallest margin.
"""

from __future__ import annotations

import json
import os


def davo(nom: str, qiymat: float, *, kamida: float | None = None, kopi: float | None = None) -> None:
    """Assert ``kamida <= qiymat`` and/or ``qiymat <= kopi``; record the margin if asked."""
    if kamida is None and kopi is None:
        raise TypeError(f"claim {nom!r}: give kamida= (at least) or kopi= (at most)")
    qiymat = float(qiymat)
    chetlar = [qiymat - kamida] if kamida is not None else []
    chetlar += [kopi - qiymat] if kopi is not None else []
    zaxira = min(chetlar)
    if fayl := os.environ.get("KITOB_DAVOLAR"):
        with open(fayl, "a", encoding="utf-8") as f:
            f.write(json.dumps({"davo": nom, "qiymat": qiymat, "kamida": kamida, "kopi": kopi,
                                "zaxira": zaxira}, ensure_ascii=False) + "\n")
    chegara = " and ".join(([f"at least {kamida:g}"] if kamida is not None else [])
                           + ([f"at most {kopi:g}"] if kopi is not None else []))
    assert zaxira >= 0, (f"the chapter's claim «{nom}» does not hold on this machine: measured "
                         f"{qiymat:g}, the text needs {chegara}. The claim is not robust: make it "
                         f"robust (protocol, seeds) or cut it (README, «Daʼvolar»)")
