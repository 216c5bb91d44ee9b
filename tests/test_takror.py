"""Deterministic: two cold executions of the chapter give the same text everywhere.

The chapter executes twice from scratch with nbclient, every lesson in order, each in a
fresh kernel, as the build executes it: once from the lessons' sources, once as a reader
downloads it (the built site's archive unpacked, its notebooks run with its own chapter_code,
the hidden glue cells run beside them: yuklangan_daftar).  The two are compared in what the
reader reads:
every printed line, every cell of every table and every glued value.  Both run the
reduced protocol (``KITOB_QISQA=1``, ``chapter_code/qisqa.py``): the same cells and the
same functions (every training's loops, every sampling and measuring function), with
fewer epochs, steps and examples and shorter timings; the store of kept results is
bypassed under it, so both executions train and measure again, and equal accuracies prove
the trainings deterministic, not merely read back from disk.  The second needs the session's
build (its archive) and waits for it; the first runs while the build runs, on the cores the
build leaves idle (a control group of the lowest CPU weight), or after it where there is no
such group (tests/conftest.py).  Why a reduced protocol
still tests determinism, and what it cannot see, is in README ("make test").

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
import os
import re
import time

import jupytext
import nbformat
import posixpath
import zipfile
import pytest
from conftest import DARSLAR, ILDIZ, bosilgan_satrlar, holat_papkasi, tez_guruhga

from sonni_oqish import songa
from nbclient import NotebookClient

pytestmark = pytest.mark.ijro

# table columns holding milliseconds read off a clock
VAQT_USTUNLARI = {"oldinga (ms)", "oldinga va orqaga (ms)", "vaqt (ms)", "keshsiz (ms)", "kesh bilan (ms)", "nisbat"}
# columns of numbers computed from those times that may take either sign: flash's log-log slopes
# of the times (under the reduced protocol's 10-ms clock, beside a loaded build, a slope came out
# -0,06 once: a slope of noise is still a number)
VAQT_QIYALIK_USTUNLARI = {"vaqt"}
# glued values computed from those columns
VAQT_GLUE = {# narx: attention's time over the RNN's; flash: the times' slopes, SDPA's speed-up
             "vaqt_nisbat", "fl_vq", "fl_vq_bolak", "fl_vq_sdpa", "fl_vq_3d",
             "fl_vaqt_foiz", "fl_bolak_gap",
             # transformer: a token's time with and without the cache, and its growth with T
             "kv_ms_keshsiz", "kv_ms_kesh", "kv_nisbat", "kv_osish_keshsiz",
             "kv_osish_kesh",
             # til_modeli: a token's time with and without the cache on the trained model
             "kesh_ms", "keshsiz_ms"}


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
    return bosilgan_satrlar(nb["cells"])


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


def _musbat_son(matn: str, ishorali: bool = False) -> bool:
    """A finite number in the book's form (0,60), positive unless ``ishorali``."""
    try:
        son = songa(matn.strip("'"))      # table cells are in Uzbek form (0,60)
    except ValueError:
        return False
    return math.isfinite(son) and (ishorali or son > 0)


#: A hidden cell run beside a downloaded notebook: in a namespace of its own over the lesson's,
#: so that the glued values are made as in the build while a name it assigns stays out of the
#: notebook's (a downloaded cell that needed one would fail with NameError).
YASHIRIN = """_kitob_ns = globals().setdefault("_kitob_yashirin", {{}})
_kitob_ns_ = {{**globals(), **_kitob_ns}}
exec(compile({kod!r}, "<yashirin katak>", "exec"), _kitob_ns_)
_kitob_ns.update({{k: v for k, v in _kitob_ns_.items() if k not in globals() or v is not globals()[k]}})
del _kitob_ns_"""


def yuklangan_daftar(papka, dars: str):
    """The lesson ``dars``'s notebook as downloaded (from the unpacked archive ``papka``), its
    outputs cleared, with the source's hidden cells (the glue bookkeeping the download leaves out)
    put back where the source has them, each run as YASHIRIN."""
    nb = nbformat.read(papka / f"{posixpath.basename(dars)}.ipynb", as_version=4)
    manba = jupytext.read(ILDIZ / f"{dars}.py")
    kodlar = [h for h in nb.cells if h.cell_type == "code"]
    for h in kodlar:
        h.outputs, h.execution_count = [], None
    yangi, j = [*nb.cells[:2]], 2                  # the first line and the Colab cell
    for h in [h for h in manba.cells if h.cell_type == "code"]:
        if "remove-cell" in h.metadata.get("tags", []):
            yangi.append(nbformat.v4.new_code_cell(YASHIRIN.format(kod=h.source)))
            continue
        while nb.cells[j].cell_type != "code":      # the downloaded text before this cell
            yangi.append(nb.cells[j])
            j += 1
        assert nb.cells[j].source == h.source, f"{dars}: the download's cell differs from the source's"
        yangi.append(nb.cells[j])
        j += 1
    yangi += nb.cells[j:]
    assert [h for h in yangi if h in kodlar] == kodlar[:], f"{dars}: a downloaded cell was left out"
    nb.cells = yangi
    return nb


def _ijro(papka, ombor, yuklama=None) -> dict:
    """One cold execution of the chapter under the reduced protocol: every lesson in order,
    each in a fresh kernel, as the build executes it; the lessons' cells as one notebook.
    With ``yuklama`` (the unpacked archive a reader downloads), the downloaded notebooks run
    there, importing its own chapter_code (yuklangan_daftar).

    The store is pointed at ``ombor``, which must still not exist afterwards: the reduced
    protocol neither reads nor writes it (test_the_execution_left_the_store_alone)."""
    nb_hammasi = {"cells": []}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KITOB_QISQA", "1")          # the kernel inherits it (chapter_code/qisqa.py)
        # the trainings through parallel's pool, as in the build, but one worker process:
        # the results do not depend on the number (test_oqitish), and the build runs beside
        mp.setenv("KITOB_JARAYONLAR", "1")
        mp.delenv("KITOB_OMBORSIZ", raising=False)
        mp.setenv("KITOB_OMBOR", str(ombor))
        # its pictures elsewhere: the build may be reading _build/rasmlar at the same time
        mp.setenv("KITOB_RASM_PAPKASI", str(papka / "rasmlar"))
        for dars in DARSLAR:
            tez_guruhga()        # once the build has ended: the session's longest chain
            if yuklama is None:
                nb, joy = jupytext.read(ILDIZ / f"{dars}.py"), (ILDIZ / dars).parent
            else:
                nb, joy = yuklangan_daftar(yuklama, dars), yuklama
            # startup_timeout: in the low group beside the build a kernel may wait minutes for
            # a core before it answers (nbclient's default, 60 s, failed one in run x84)
            NotebookClient(nb, timeout=900, startup_timeout=IJRO_MUDDATI, kernel_name="python3",
                           resources={"metadata": {"path": str(joy)}}).execute()
            if yuklama is not None:       # its chapter_code was the archive's (the kernel's first path)
                assert not [c for h in nb.cells for c in h.get("outputs", []) if c.get("output_type") == "error"]
            nb_hammasi["cells"] += nb["cells"]
    return nb_hammasi


#: how long the comparisons wait for the two executions at most (seconds)
IJRO_MUDDATI = 3600


@pytest.mark.parametrize("i", [1, 2])
def test_a_cold_execution_of_the_chapter(i, tmp_path, request):
    """One of the two executions, each a test of its own so that two workers run them side by
    side (the first while the session's book build runs, on the cores it leaves idle:
    conftest.pytest_runtest_setup).
    The first runs the lessons' sources; the second the notebooks a reader downloads, from the
    built site's archive unpacked (issue 43: they run as they are, every cell, in a fresh
    kernel).  It leaves the executed cells in the session's folder for the comparisons, or, if
    the execution failed, a file that says so."""
    yol = holat_papkasi() / f"takror-{i}.json"
    try:
        yuklama = None
        if i == 2:
            sayt = request.getfixturevalue("qurilgan") / "sayt"
            with zipfile.ZipFile(sayt / "book" / "attention" / "attention.zip") as z:
                z.extractall(tmp_path / "oquvchi")
            yuklama = tmp_path / "oquvchi" / "attention"
        nb = _ijro(tmp_path, holat_papkasi() / f"ombor-{i}", yuklama)
    except BaseException as xato:
        yol.with_suffix(".xato").write_text(f"{type(xato).__name__}: {xato}"[:4000], encoding="utf-8")
        raise
    vaqtincha = yol.with_suffix(".tmp")
    vaqtincha.write_text(json.dumps(nb), encoding="utf-8")
    os.replace(vaqtincha, yol)


@pytest.mark.parametrize("i", [1, 2])
def test_the_execution_left_the_store_alone(i):
    """The reduced protocol neither reads nor writes the store of kept results: the folder its
    execution was pointed at does not exist.  (With its execution, one unit of work: a test
    of its own behind the execution keeps the worker from taking another unit meanwhile.)"""
    yol = holat_papkasi() / f"takror-{i}.json"
    assert yol.is_file(), f"execution {i} did not finish"
    assert not (holat_papkasi() / f"ombor-{i}").exists(), "the reduced protocol wrote into the store"


@pytest.fixture(scope="module")
def ikki_ijro():
    """(the first, the second cold execution) of the chapter under the reduced protocol, once
    both tests above have left them (conftest._qism runs these comparisons last)."""
    papka, boshi = holat_papkasi(), time.time()
    yollar = [papka / f"takror-{i}.json" for i in (1, 2)]
    while not all(y.is_file() for y in yollar):
        xatolar = [y.with_suffix(".xato").read_text(encoding="utf-8") for y in yollar if y.with_suffix(".xato").is_file()]
        assert not xatolar, "an execution of the chapter failed: " + "; ".join(xatolar)
        holat = papka / "holat"          # the build's exit code: the second execution needs it
        assert not holat.is_file() or holat.read_text().strip() == "0", "the book build failed"
        assert time.time() - boshi < IJRO_MUDDATI, f"the executions have not finished in {IJRO_MUDDATI} s"
        time.sleep(0.5)
    return tuple(json.loads(y.read_text(encoding="utf-8")) for y in yollar)


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
                if ustun in VAQT_USTUNLARI | VAQT_QIYALIK_USTUNLARI:
                    ishorali = ustun in VAQT_QIYALIK_USTUNLARI
                    assert _musbat_son(qb[ustun], ishorali), f"{nom}/{ustun}: {qb[ustun]!r}"
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


def test_the_reduced_trainings_still_end_by_their_seed(ikki_ijro):
    """The comparison can fail: under the reduced protocol the seeds of one model still end
    at different accuracies, so a training that drew another random number would print
    another one.  (Were every reduced training to end at the same accuracy, equal tables
    would prove nothing.)"""
    a, _ = ikki_ijro
    sinov = _jadvallar(a)["sinov_jadval"]
    turli = [q["model"] for q in sinov if len(set(q["seedlardagi aniqlik"].split("; "))) > 1]
    assert len(turli) >= 2, sinov

