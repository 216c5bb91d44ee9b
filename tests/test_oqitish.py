"""Training: results depend on the seed only, not on how many workers run them.

Every test here trains afresh: the store of kept trainings is bypassed
(``KITOB_OMBORSIZ=1``, inherited by the worker processes), so a result read
back from disk can never stand in for a training.  Tests that start worker
processes or train for seconds are marked ``build`` (not in ``make unit``).
"""

import inspect
from functools import partial

import pytest
import torch

from chapter_code.modellar import Attention, Ketma
from chapter_code.malumot import vazifa
from chapter_code.oqitish import ishchilar_soni, oqit, parallel, xotira_chuqqisi

# a reduced protocol: same code, fewer epochs and samples
KICHIK = partial(oqit, epoxalar=2, n=256)
ISHLAR = [(partial(Ketma, "rnn"), 20, 0), (partial(Attention, 20), 20, 1),
          (partial(Attention, 20, pozitsiya=False), 20, 2)]


@pytest.fixture(autouse=True)
def omborsiz(monkeypatch):
    monkeypatch.setenv("KITOB_OMBORSIZ", "1")


def _holat(model):
    return {k: v.clone() for k, v in model.state_dict().items()}


@pytest.mark.build
def test_worker_count_does_not_change_results():
    bitta = parallel(KICHIK, ISHLAR, jarayonlar=1)
    ikkita = parallel(KICHIK, ISHLAR, jarayonlar=2)
    assert [a for a, _ in bitta] == [a for a, _ in ikkita]
    for (_, m1), (_, m2) in zip(bitta, ikkita):
        h1, h2 = _holat(m1), _holat(m2)
        assert h1.keys() == h2.keys()
        assert all(torch.equal(h1[k], h2[k]) for k in h1)


@pytest.mark.build
def test_parallel_keeps_order_and_matches_a_plain_loop():
    natija = parallel(pow, [(2, 3), (3, 2), (10, 0)], jarayonlar=2)
    assert natija == [8, 9, 1]


@pytest.mark.build
def test_training_learns_the_task_on_a_reduced_protocol():
    aniqlik, model = oqit(partial(Attention, 20), 20, 0, epoxalar=15, n=512)
    assert aniqlik > 0.9
    assert isinstance(model, Attention) and not model.training


@pytest.mark.parametrize("yomon", [0, -1, 1.5, "2"])
def test_bad_worker_count_is_an_error(yomon):
    with pytest.raises(ValueError, match="jarayonlar must be a positive whole number"):
        ishchilar_soni([1, 2], yomon)


def test_worker_count_never_exceeds_jobs():
    assert ishchilar_soni([1, 2, 3], 16) == 3
    assert ishchilar_soni([1] * 20, 2) == 2


def test_peak_memory_is_the_same_call_after_call():
    """The chapter's memory table must not depend on which call was measured."""
    torch.manual_seed(0)
    X, _ = vazifa(64, 480, 3)
    m = Attention(480)
    with torch.no_grad():
        m(X)                                         # warm-up, as in the chapter
        olchovlar = [xotira_chuqqisi(m, X)[0] for _ in range(3)]
    assert len(set(olchovlar)) == 1, olchovlar
    # at least the attention matrix (64 x 480 x 480 float32) is alive at the peak
    assert olchovlar[0] >= 64 * 480 * 480 * 4


@pytest.mark.build
def test_the_protocol_keeps_its_learning_rate_and_clips_no_gradient(monkeypatch):
    """What the recurrent lesson says of the protocol: a constant learning rate (no schedule,
    no warm-up) and no gradient clipping."""
    optimizatorlar, kesishlar = [], []
    asl_adam = torch.optim.Adam

    class Kuzatilgan(asl_adam):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            self.lrlar = []
            optimizatorlar.append(self)

        def step(self, *a, **k):
            self.lrlar.append(self.param_groups[0]["lr"])
            return super().step(*a, **k)

    monkeypatch.setattr(torch.optim, "Adam", Kuzatilgan)
    for nom in ("clip_grad_norm_", "clip_grad_value_"):
        monkeypatch.setattr(torch.nn.utils, nom, lambda *a, _n=nom, **k: kesishlar.append(_n))
    KICHIK(partial(Ketma, "lstm"), 10, 0)
    (opt,) = optimizatorlar
    lr = inspect.signature(oqit).parameters["lr"].default      # as the lesson reads it
    assert len(opt.lrlar) == 2 * 256 // 64 and set(opt.lrlar) == {lr}
    assert not kesishlar


def test_parallel_reads_a_kept_function_through_its_partial(monkeypatch, tmp_path):
    """A partial of a kept training is looked up in the store before any worker starts."""
    from chapter_code import oqitish

    monkeypatch.setenv("KITOB_OMBORSIZ", "0")
    monkeypatch.setenv("KITOB_OMBOR", str(tmp_path))
    qisqa = partial(oqit, epoxalar=1, n=64)
    birinchi = parallel(qisqa, [ISHLAR[1]], jarayonlar=1)
    monkeypatch.setattr(oqitish, "ProcessPoolExecutor", None)        # a worker would fail now
    ikkinchi = parallel(qisqa, [ISHLAR[1]], jarayonlar=1)
    assert ikkinchi[0][0] == birinchi[0][0]
    assert all(torch.equal(a, b) for a, b in zip(_holat(ikkinchi[0][1]).values(), _holat(birinchi[0][1]).values()))
