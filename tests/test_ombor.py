"""Trainings are kept by their code: a kept result is the fresh one, and only code edits retrain.

The fast tests run tiny trainings (one epoch of 64 samples) in a store of
their own (``KITOB_OMBOR`` in a temporary folder).  The build-marked test
copies ``chapter_code/`` into a temporary project and edits it file by file
in fresh processes: an edit in the models or the task retrains, an edit in the
plotting helpers does not.
"""

import functools
import os
import subprocess
import sys
import textwrap

import pytest
import torch
from conftest import ILDIZ

from chapter_code import oqitish
from chapter_code.modellar import Attention, Ketma
from chapter_code import ombor as ombor_moduli
from chapter_code.ombor import kalit

KICHIK = dict(epoxalar=1, n=64, n_sinov=32, batch=32)


@pytest.fixture
def ombor(tmp_path, monkeypatch):
    """A store of the test's own; counts how many times the training really ran."""
    monkeypatch.setenv("KITOB_OMBOR", str(tmp_path / "ombor"))
    monkeypatch.delenv("KITOB_OMBORSIZ", raising=False)
    sanoq = []
    asl = oqitish.vazifa
    monkeypatch.setattr(oqitish, "vazifa", lambda *a: sanoq.append(a) or asl(*a))
    return tmp_path / "ombor", sanoq


def _teng(a, b):
    assert a[0] == b[0]
    sa, sb = a[1].state_dict(), b[1].state_dict()
    assert sa.keys() == sb.keys() and sa
    for k in sa:
        assert torch.equal(sa[k], sb[k]), k


def test_a_kept_result_equals_a_fresh_one_exactly(ombor, monkeypatch):
    papka, sanoq = ombor
    yasa = functools.partial(Attention, 12)
    birinchi = oqitish.oqit(yasa, 12, 0, **KICHIK)         # trains, then keeps
    assert len(sanoq) == 2 and len(list(papka.rglob("*.pt"))) == 1
    ikkinchi = oqitish.oqit(yasa, 12, 0, **KICHIK)         # from the store
    assert len(sanoq) == 2, "the second call trained again"
    _teng(birinchi, ikkinchi)
    monkeypatch.setenv("KITOB_OMBORSIZ", "1")                # bypass: a fresh training
    yangi = oqitish.oqit(yasa, 12, 0, **KICHIK)
    assert len(sanoq) == 4
    _teng(yangi, ikkinchi)
    Xs = torch.randn(3, 12, 1)
    with torch.no_grad():
        assert torch.equal(yangi[1](Xs), ikkinchi[1](Xs))


def test_other_arguments_are_other_entries(ombor):
    papka, sanoq = ombor
    oqitish.oqit(functools.partial(Ketma, "rnn"), 8, 0, **KICHIK)
    oqitish.oqit(functools.partial(Ketma, "rnn"), 8, 1, **KICHIK)           # another seed
    oqitish.oqit(functools.partial(Ketma, "lstm"), 8, 0, **KICHIK)          # another model
    oqitish.oqit(functools.partial(Ketma, "rnn"), 8, 0, **{**KICHIK, "lr": 0.01})
    assert len(sanoq) == 8 and len(list(papka.rglob("*.pt"))) == 4


def test_bypass_reads_and_writes_nothing(ombor, monkeypatch):
    papka, sanoq = ombor
    monkeypatch.setenv("KITOB_OMBORSIZ", "1")
    oqitish.oqit(functools.partial(Ketma, "rnn"), 8, 0, **KICHIK)
    assert not papka.exists()


@pytest.mark.parametrize("buzish", ["garbage", "truncated", "another key"])
def test_an_unreadable_entry_is_recomputed_with_a_message(ombor, capfd, buzish):
    papka, sanoq = ombor
    yasa = functools.partial(Ketma, "rnn")
    toza = oqitish.oqit(yasa, 8, 0, **KICHIK)
    (yozuv,) = papka.rglob("*.pt")
    if buzish == "garbage":
        yozuv.write_bytes(b"bu torch fayli emas")
    elif buzish == "truncated":
        yozuv.write_bytes(yozuv.read_bytes()[:100])
    else:       # a valid entry of another call, under this call's name
        oqitish.oqit(yasa, 8, 1, **KICHIK)
        (boshqa,) = set(papka.rglob("*.pt")) - {yozuv}
        yozuv.write_bytes(boshqa.read_bytes())
    oldin = len(sanoq)
    capfd.readouterr()
    qayta = oqitish.oqit(yasa, 8, 0, **KICHIK)
    xabar = capfd.readouterr().err
    assert len(sanoq) == oldin + 2, "a broken entry was used instead of training again"
    assert "ombor:" in xabar and str(yozuv) in xabar and "computing it again" in xabar
    _teng(qayta, toza)
    oqitish.oqit(yasa, 8, 0, **KICHIK)                          # rewritten: a hit again
    assert len(sanoq) == oldin + 2


def test_parallel_starts_no_worker_when_everything_is_kept(ombor, monkeypatch):
    papka, sanoq = ombor
    ishlar = [(functools.partial(Ketma, "rnn"), 8, s, *KICHIK.values()) for s in (0, 1)]
    birinchi = [oqitish.oqit(*a) for a in ishlar]

    def ishchisiz(*a, **k):
        raise AssertionError("parallel started workers for kept results")
    monkeypatch.setattr(oqitish, "ProcessPoolExecutor", ishchisiz)
    for a, b in zip(birinchi, oqitish.parallel(oqitish.oqit, ishlar)):
        _teng(a, b)


def test_code_defined_in_the_chapter_cannot_be_a_key():
    with pytest.raises(TypeError, match="defined in the chapter itself"):
        kalit(oqitish.oqit, (lambda: Ketma("rnn"), 8, 0), {})
    with pytest.raises(TypeError, match="cannot key a kept result by an argument of type Tensor"):
        kalit(oqitish.oqit, (torch.zeros(2), 8, 0), {})


def test_defaults_and_keywords_give_the_same_key():
    yasa = functools.partial(Ketma, "rnn")
    birinchi = kalit(oqitish.oqit, (yasa, 60, 0), {})
    assert kalit(oqitish.oqit, (yasa, 60), {"seed": 0, "epoxalar": 60}) == birinchi
    assert kalit(oqitish.oqit, (yasa, 60, 0), {"epoxalar": 59}) != birinchi


def test_a_call_is_written_under_the_key_it_was_looked_up_with(ombor, monkeypatch):
    """An edit of the training code while a training runs must not file the old result as new."""
    papka, sanoq = ombor
    from chapter_code import ombor as ombor_moduli
    yasa = functools.partial(Ketma, "rnn")
    oldingi = kalit(oqitish.oqit, (yasa, 8, 0), KICHIK)
    asl_vazifa = oqitish.vazifa
    modellar = next(f for f in ombor_moduli._MANBALAR if f.name == "modellar.py")

    def tahrir_paytida(*a):             # the model code "changes" once the training has started
        monkeypatch.setitem(ombor_moduli._MANBALAR, modellar, b"# tahrir\n")
        return asl_vazifa(*a)
    monkeypatch.setattr(oqitish, "vazifa", tahrir_paytida)
    oqitish.oqit(yasa, 8, 0, **KICHIK)
    assert kalit(oqitish.oqit, (yasa, 8, 0), KICHIK) != oldingi    # the edit is a new key ...
    assert [p.stem for p in papka.rglob("*.pt")] == [oldingi]      # ... but the result ran old code


def test_imports_are_followed_from_the_source_wherever_they_are(tmp_path, monkeypatch):
    from chapter_code import ombor as ombor_moduli

    paket = tmp_path / "chapter_code"
    paket.mkdir()
    (paket / "__init__.py").write_text("")
    (paket / "a.py").write_text("def f():\n    from chapter_code.b import g\n    return g\n")
    (paket / "b.py").write_text("from .c import h\n")
    (paket / "c.py").write_text("h = 1\n")
    (paket / "d.py").write_text("import importlib\nm = importlib.import_module('chapter_code.c')\n")
    (paket / "e.py").write_text("x = 1\n")
    monkeypatch.setattr(ombor_moduli, "ILDIZ", tmp_path)
    monkeypatch.setattr(ombor_moduli, "_MANBALAR", {})
    nomlar = lambda m: [f.name for f in ombor_moduli.manba_fayllari({m})]  # noqa: E731
    assert nomlar("chapter_code.a") == ["__init__.py", "a.py", "b.py", "c.py"]   # import inside a function
    assert nomlar("chapter_code.d") == ["__init__.py", "a.py", "b.py", "c.py", "d.py", "e.py"]   # dynamic: all
    assert nomlar("torch.nn") == []                     # outside chapter_code: the torch version keys it


SKRIPT = textwrap.dedent("""
    import functools, sys
    from chapter_code import oqitish
    from chapter_code.modellar import Ketma
    sanoq = []
    asl = oqitish.vazifa
    oqitish.vazifa = lambda *a: sanoq.append(a) or asl(*a)
    aniqlik, _ = oqitish.oqit(functools.partial(Ketma, "rnn"), 8, 0, epoxalar=1, n=64, n_sinov=32, batch=32)
    print("trained" if sanoq else "kept", aniqlik, oqitish.__file__)
""")


@pytest.mark.build      # copies chapter_code/ and starts fresh processes: not for make unit
def test_model_code_edits_retrain_and_plotting_edits_do_not(tmp_path):
    import shutil
    shutil.copytree(ILDIZ / "chapter_code", tmp_path / "chapter_code",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ILDIZ / "requirements.lock", tmp_path / "requirements.lock")
    muhit = {**os.environ, "PYTHONPATH": str(tmp_path), "KITOB_OMBOR": str(tmp_path / "ombor")}
    muhit.pop("KITOB_OMBORSIZ", None)

    def ishga():
        natija = subprocess.run([sys.executable, "-c", SKRIPT], cwd=tmp_path, env=muhit,
                                capture_output=True, text=True)
        assert natija.returncode == 0, natija.stderr[-2000:]
        *chiqish, fayl = natija.stdout.split()
        assert fayl.startswith(str(tmp_path)), f"the copy was not the one imported: {fayl}"
        return chiqish

    def qoshimcha(yol, satr="\n# tahrir\n"):
        with open(tmp_path / "chapter_code" / yol, "a") as f:
            f.write(satr)

    holat, aniqlik = ishga()
    assert holat == "trained"
    assert ishga() == ["kept", aniqlik]
    qoshimcha("kitob.py")                     # plotting helpers: not training code
    assert ishga() == ["kept", aniqlik]
    for yol in ("modellar.py", "malumot.py", "oqitish.py", "ombor.py"):   # models, task, training
        qoshimcha(yol)
        assert ishga() == ["trained", aniqlik], f"an edit in {yol} did not retrain"
        assert ishga() == ["kept", aniqlik]
    with open(tmp_path / "requirements.lock", "a") as f:
        f.write("yangi-paket==1.0\n")
    assert ishga()[0] == "trained", "a lock edit did not retrain"


# --- measurements of the machine (oqitish.mediana_ms, oqitish.xotira_chuqqisi) ---------------

def test_a_measurement_is_kept_by_what_it_measures(ombor, monkeypatch):
    """A second identical call reads the kept figure back; another input, other weights, another
    statement, another thread count or autograd on measure again; KITOB_OMBORSIZ measures afresh."""
    from torch.utils import benchmark

    papka, _ = ombor
    olchandi = []
    asl = benchmark.Timer.blocked_autorange
    monkeypatch.setattr(benchmark.Timer, "blocked_autorange",
                        lambda self, **k: olchandi.append(1) or asl(self, **k))
    torch.manual_seed(0)
    m, X = Attention(8), torch.randn(4, 8, 1)
    with torch.no_grad():
        birinchi = oqitish.mediana_ms("m(X)", m=m, X=X)
        assert oqitish.mediana_ms("m(X)", m=m, X=X) == birinchi and len(olchandi) == 1
        assert oqitish.mediana_ms("m(X)", m=m, X=X.clone()) == birinchi and len(olchandi) == 1
        for boshqa in (dict(m=m, X=X + 1), dict(m=Attention(8), X=X)):   # new seed: other weights
            oqitish.mediana_ms("m(X)", **boshqa)
        oqitish.mediana_ms("m(X) + 0", m=m, X=X)
        oqitish.mediana_ms("m(X)", iplar=2, m=m, X=X)
        assert len(olchandi) == 5
    oqitish.mediana_ms("m(X)", m=m, X=X)                 # autograd records: another measurement
    assert len(olchandi) == 6
    m.eval()                                            # another mode of the model
    with torch.no_grad():
        oqitish.mediana_ms("m(X)", m=m, X=X)
    assert len(olchandi) == 7
    assert len(list((papka / "mediana_ms").glob("*.pt"))) == 7
    monkeypatch.setenv("KITOB_OMBORSIZ", "1")
    m.train()
    with torch.no_grad():
        oqitish.mediana_ms("m(X)", m=m, X=X)
    assert len(olchandi) == 8


def test_a_kept_peak_of_memory_returns_the_same_peak_and_result(ombor):
    papka, _ = ombor
    torch.manual_seed(0)
    m, X = Attention(8), torch.randn(4, 8, 1)
    with torch.no_grad():
        a = oqitish.xotira_chuqqisi(m, X)
        b = oqitish.xotira_chuqqisi(m, X)
    assert a[0] == b[0] > 0 and torch.equal(a[1], b[1])
    assert len(list((papka / "xotira_chuqqisi").glob("*.pt"))) == 1


def test_a_measurement_refuses_what_it_cannot_key():
    from chapter_code.ombor import olchov_kaliti

    muhit = {"__name__": "__main__"}
    exec("def f(x):\n    return x\n", muhit)     # a lesson's function whose source is nowhere
    with pytest.raises(TypeError, match="source cannot be read"):
        olchov_kaliti(oqitish.mediana_ms, ("f(1)",), {"f": muhit["f"]})
    with pytest.raises(TypeError, match="or is a lambda"):
        olchov_kaliti(oqitish.mediana_ms, ("f(1)",), {"f": lambda x: x})
    with pytest.raises(TypeError, match="cannot key a kept result by an argument of type object"):
        olchov_kaliti(oqitish.mediana_ms, ("o",), {"o": object()})


def test_the_time_of_stored_computations_adds_up_once(ombor, monkeypatch):
    """``muhit.sarf``: a computed call adds its measured time, a kept one the time in its record,
    a stored computation inside another is counted once (in the outer one's time), and a
    ``parallel`` worker's time reaches the caller."""
    from chapter_code import muhit

    soniyalar = iter([10.0, 13.0, 100.0, 102.0, 105.0, 106.0])    # perf_counter, call by call
    monkeypatch.setattr(ombor_moduli.time, "perf_counter", lambda: next(soniyalar))
    muhit.sarf_tikla(0.0)
    assert _ichki(1) == 1 and muhit.sarf() == 3.0                  # computed: 13 - 10
    assert _ichki(1) == 1 and muhit.sarf() == 6.0                  # kept: its record's 3 s
    assert _tashqi(2) == 2 and muhit.sarf() == 12.0                # 106 - 100, the inner 2 s inside it
    muhit.sarf_tikla(0.0)
    monkeypatch.undo()
    monkeypatch.setenv("KITOB_OMBOR", str(ombor[0]))
    kichik = functools.partial(oqitish.oqit, functools.partial(Ketma, "lstm", h=4), **KICHIK)
    (natija,) = oqitish.parallel(kichik, [(5, 0)], jarayonlar=1)
    worker = muhit.sarf()
    assert worker > 0 and natija[0] >= 0
    muhit.sarf_tikla(0.0)
    oqitish.parallel(kichik, [(5, 0)])
    assert muhit.sarf() == worker                                 # kept: the same seconds again


@ombor_moduli.saqlanadi(lambda n: n, lambda yozuv, *a: yozuv)
def _ichki(n):
    return n


@ombor_moduli.saqlanadi(lambda n: n, lambda yozuv, *a: yozuv)
def _tashqi(n):
    _ichki(n + 10)
    return n
