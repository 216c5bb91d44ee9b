"""Deterministic: a second cold execution of the chapter gives the same text everywhere.

The book build executed the chapter once (``_build/jupyter_execute``); this test
executes it again from scratch with nbclient, in a fresh kernel on the same
machine, and compares what the reader reads: every printed line, every cell of
every table and every glued value.  The second execution bypasses the store of
kept trainings (``KITOB_OMBORSIZ=1``, ``chapter_code/ombor.py``): its twelve
trainings run again, so equal accuracies prove the trainings deterministic,
not merely read back from disk.

Excluded, and only these: quantities that ARE wall-clock measurements.  The
chapter measures how long a forward pass takes, to show how time grows with T;
a stopwatch never reads the same twice, so equal timings would mean the
measurement was faked.  They are named here one by one (columns, glued values,
and the summary row computed from them), and for each the test still checks
that the second run produced a positive number (or the same kind of text) in
that place, so an exclusion cannot hide a missing value.
"""

import json
import math
import re

import jupytext
import pytest
from conftest import DARSLAR, ILDIZ

from sonni_oqish import songa
from nbclient import NotebookClient

pytestmark = pytest.mark.build

# table columns holding milliseconds read off a clock
VAQT_USTUNLARI = {"fwd (ms)", "fwd+bwd (ms)", "vaqt (ms)", "keshsiz (ms)", "kesh bilan (ms)", "nisbat",
                  # the memory-bound decoding table: the limit divides by a timed copy
                  "chegara (ms)", "oldindan (ms)", "torch.cat (ms)", "GB/s",
                  # the capstone's attention variants: time per token
                  "ms/token"}
# glued values computed from those columns
VAQT_GLUE = {"attn_vaqt_osish", "rnn_vaqt_osish", "vaqt_960", "vaqt_osish_katta",
             "attn_tezroq_T", "tezlik_jumla", "vaqt_nisbat", "vaqt_nisbat_yonalish",
             "fl_vaqt_formula", "fl_vaqt_sdpa", "fl_vaqt_sdpa3", "fl_vaqt_formula_ms",
             "fl_vaqt_sdpa_ms", "fl_vaqt_sdpa_soz",
             "kv_ms_keshsiz", "kv_ms_kesh", "kv_ms_kesh_kichik", "kv_nisbat",
             "kv_qiyalik_keshsiz", "kv_qiyalik_kesh", "kv_qiyalik_keshsiz_soz", "kv_qiyalik_kesh_soz",
             "kv_qiyalik_keshsiz_oxir", "kv_egilish_gap",
             "vaqt_T2_jumla", "vaqt_T2_xulosa", "vaqt_nisbat_jumla",
             # the two tables' T = 240 forward, and their difference
             "t240_vaqt_jadval", "t240_xotira_jadval", "ikki_olchov_farq", "ikki_olchov_gap",
             # the summary's rows built from a timing ("attention is faster for T: ...")
             "xl_narx", "xl_parallel", "xl_kv",
             # memory-bound decoding: the copy's bandwidth and the step's times, and what is
             # computed or said from them
             "bw_gbs", "bw_ms", "bw_chegara_ms", "bw_ulush", "bw_ulush_gap", "bw_oqish_min",
             "bw_oqish_max", "bw_vaqt_osish", "bw_ergash_gap", "bw_hisob_gap", "bw_gmac_kesh",
             "bw_gmac_toliq", "bw_gmac_marta", "bw_cat_ms", "bw_cat_marta", "bw_cat_gap",
             "bw_kichik_chegara_ms", "bw_kichik_marta",
             # the capstone's attention variants: time per token, the big model's step, its limit
             "at_ms_min", "at_ms_max", "at_vaqt_gap", "at_k_mha_ms", "at_k_mqa_ms", "at_k_oyna_ms",
             "at_k_tezlik", "at_k_aylanadi", "at_k_gap", "at_k_ulush_min", "at_k_ulush_max"}


def _katak(matn: str) -> str:
    return re.sub(r"\\(.)", r"\1", matn.strip())


def _jadvallar(nb) -> dict[str, list[dict[str, str]]]:
    """Every table the helpers printed: name -> rows as {header: cell text}."""
    topildi = {}
    for hujayra in nb["cells"]:
        for chiqish in hujayra.get("outputs", []):
            md = chiqish.get("data", {}).get("text/markdown", "")
            md = "".join(md) if isinstance(md, list) else md
            nom = re.search(r"^:name: (\S+)", md, flags=re.M)
            if not md.startswith("```{table}") or not nom:
                continue
            qatorlar = [[_katak(k) for k in re.split(r"(?<!\\)\|", q.strip())[1:-1]]
                        for q in md.splitlines() if q.startswith("|")]
            sarlavha, _, *tana = qatorlar
            topildi[nom.group(1)] = [dict(zip(sarlavha, q)) for q in tana]
    return topildi


def _bosilgan(nb) -> list[str]:
    """Every line printed by a code cell, in order."""
    return [q for h in nb["cells"] for c in h.get("outputs", [])
            if c.get("output_type") == "stream" for q in "".join(c["text"]).splitlines()]


def _glue(nb) -> dict[str, str]:
    """Glued values of an executed notebook: name -> their text/plain form.

    A glued figure (no text form) is represented by its kinds of data; its
    pixels are not text and not compared.
    """
    qiymat = {}
    for h in nb["cells"]:
        for c in h.get("outputs", []):
            yozuv = c.get("metadata", {}).get("scrapbook", {})
            if "name" not in yozuv:
                continue
            old = yozuv.get("mime_prefix", "")
            data = {k.removeprefix(old): v for k, v in c["data"].items()}
            qiymat[yozuv["name"]] = data.get("text/plain") or " ".join(sorted(data))
    return qiymat


def _musbat_son(matn: str) -> bool:
    try:
        son = songa(matn.strip("'"))      # table cells are in Uzbek form (0,60)
    except ValueError:
        return False
    return math.isfinite(son) and son > 0


@pytest.fixture(scope="module")
def ikki_ijro(request, tmp_path_factory):
    """(first execution from the book build, a second cold execution), every lesson in order,
    each as one notebook of its cells.

    Each lesson executes again on its own, in a fresh kernel, as the build
    executes it.  The second execution needs nothing of the build, so it runs
    first, while the book builds in the background (tests/conftest.py).
    The first is the executed notebook the site publishes next to each lesson
    (yuklamalar.py merges every output, the glued values too, from the execution
    cache).
    """
    ombor_yoq = tmp_path_factory.getbasetemp() / "takror-ombor-yoq"
    ikkinchi = {"cells": []}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KITOB_OMBORSIZ", "1")        # the kernel inherits it: train again
        mp.setenv("KITOB_OMBOR", str(ombor_yoq))
        # its pictures elsewhere: the build may be reading _build/rasmlar at the same time
        mp.setenv("KITOB_RASM_PAPKASI", str(tmp_path_factory.mktemp("takror-rasmlar")))
        for dars in DARSLAR:
            nb = jupytext.read(ILDIZ / f"{dars}.py")
            NotebookClient(nb, timeout=900, kernel_name="python3",
                           resources={"metadata": {"path": str((ILDIZ / dars).parent)}}).execute()
            ikkinchi["cells"] += nb["cells"]
    assert not ombor_yoq.exists(), "the bypassed store was written"
    qurilgan = request.getfixturevalue("qurilgan")
    # the executed notebook published next to the lesson: every output, the glued
    # values too, from the execution cache (jupyter_execute/ has none after a cache hit)
    birinchi = {"cells": [h for dars in DARSLAR
                          for h in json.loads((qurilgan / "sayt" / f"{dars}.ipynb").read_text())["cells"]]}
    return birinchi, ikkinchi


def test_every_printed_line_is_the_same(ikki_ijro):
    a, b = (_bosilgan(nb) for nb in ikki_ijro)
    assert len(a) > 30
    assert a == b


def test_every_table_cell_is_the_same_except_the_stopwatch(ikki_ijro):
    a, b = (_jadvallar(nb) for nb in ikki_ijro)
    assert len(a) >= 7 and a.keys() == b.keys()
    for nom in a:
        assert len(a[nom]) == len(b[nom]), nom
        solishtirildi = 0
        for qa, qb in zip(a[nom], b[nom]):
            assert qa.keys() == qb.keys(), nom
            for ustun in qa:
                if ustun in VAQT_USTUNLARI:
                    assert _musbat_son(qb[ustun]), f"{nom}/{ustun}: {qb[ustun]!r}"
                else:
                    assert qa[ustun] == qb[ustun], f"{nom}, column {ustun!r}: {qa[ustun]!r} != {qb[ustun]!r}"
                    solishtirildi += 1
        assert solishtirildi >= len(a[nom]), f"{nom}: almost nothing of it was compared"


def test_every_glued_value_is_the_same_except_the_stopwatch(ikki_ijro):
    a, b = (_glue(nb) for nb in ikki_ijro)
    assert len(a) >= 30 and a.keys() == b.keys()
    assert VAQT_GLUE <= a.keys(), "an excluded timing value is no longer glued: update the list"
    for nom in a:
        if nom in VAQT_GLUE:
            assert b[nom], nom
            continue
        assert a[nom] == b[nom], f"{nom}: {a[nom]!r} != {b[nom]!r}"
