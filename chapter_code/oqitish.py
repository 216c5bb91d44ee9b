"""Training and measurement: ``oqit`` trains one model, ``parallel`` runs
many.

``oqit`` is the whole training protocol of the chapter (Adam, cross-entropy,
shuffled mini-batches taken by index slicing) and returns the test accuracy
and the trained model.  The trainings of the chapter are independent of one
another (model x seed), so ``parallel`` runs them in worker processes, one
thread each, as many at a time as there are cores; every run sets its own
seed, so the numbers do not depend on how many workers there are.

Kept, not repeated: ``oqit``'s results (accuracy and trained weights) go to
the store of ``chapter_code.ombor``, keyed by the source of the task, the
models and this module, the arguments, torch and the lock; the same call
with the same code takes them from there, and ``parallel`` starts workers
only for what is missing.  Measured afresh at every execution:
``xotira_chuqqisi`` (peak memory) and every timing a chapter takes — they
describe the machine, not the code.
"""

import ctypes
import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import torch
import torch.nn as nn

from chapter_code import muhit
from chapter_code.malumot import vazifa
from chapter_code.ombor import olchov, saqlanadi


def _yozuv(natija):
    """What the store keeps of a training: the accuracy and the trained
    weights."""
    aniqlik, model = natija
    return {"aniqlik": aniqlik, "vaznlar": model.state_dict()}


def _model(yozuv, yasa, *_, **__):
    """A kept training back as (accuracy, model): a new yasa() with the kept
    weights."""
    model = yasa()
    model.load_state_dict(yozuv["vaznlar"])
    return yozuv["aniqlik"], model.eval()


@saqlanadi(_yozuv, _model)
def oqit(
    yasa, T_, seed, epoxalar=60, n=2000, n_sinov=600, lr=0.005, batch=64
):
    """yasa() modelini oʻqitadi; (sinov aniqligi, model) qaytaradi."""
    torch.manual_seed(seed)
    Xtr, ytr = vazifa(n, T_, 1)
    Xte, yte = vazifa(n_sinov, T_, 2)
    m = yasa()
    opt = torch.optim.Adam(m.parameters(), lr=lr, fused=True)
    krit = nn.CrossEntropyLoss()
    tasodif = torch.Generator().manual_seed(seed)
    for _ in range(epoxalar):
        m.train()
        # har epoxada yangi tartib; b - bitta paketning indekslari
        tartib = torch.randperm(n, generator=tasodif)
        for i in range(0, n, batch):
            b = tartib[i : i + batch]
            opt.zero_grad()
            krit(m(Xtr[b]), ytr[b]).backward()
            opt.step()
    m.eval()
    with torch.no_grad():
        aniqlik = (m(Xte).argmax(1) == yte).float().mean()
    return float(aniqlik), m


def _malloc_sozla():
    """glibc: keep freed tensor memory for reuse instead of unmapping it.

    By default glibc serves every block over 128 KiB with a fresh mmap and
    returns it on free, so each (64, 60, 60) attention tensor page-faults
    its memory in again, step after step.  Serving blocks up to 32 MiB from
    the heap and not trimming it made 10-epoch trainings about 10-30 %
    faster on the 2-core development machine (an A/B run per model, noisy:
    another build was running); the arithmetic is unchanged.
    """
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:  # not glibc: nothing to tune
        return
    M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
    libc.mallopt(M_MMAP_THRESHOLD, 32 * 2**20)
    libc.mallopt(M_TRIM_THRESHOLD, 2**30)


def _bir_ip():
    """Worker set-up: one thread; denormal floats flushed to zero; malloc
    tuned.

    Once the attention model has learnt, most of its softmax weights are
    smaller than 1e-38; arithmetic on such denormal numbers is many times
    slower on x86 CPUs (measured: 4x slower training). Flushing them to zero
    changes no printed digit.
    """
    torch.set_num_threads(1)
    torch.set_flush_denormal(True)
    _malloc_sozla()


def _chaqir(vazifa_):
    fn, args = vazifa_
    return fn(*args)


def ishchilar_soni(ishlar, jarayonlar=None):
    """How many worker processes to use: one per core, never more than the
    jobs."""
    if jarayonlar is None:
        jarayonlar = (
            int(os.environ.get("KITOB_JARAYONLAR", 0))
            or os.cpu_count()
            or 1
        )
    if not isinstance(jarayonlar, int) or jarayonlar < 1:
        raise ValueError(
            "jarayonlar must be a positive whole number, got"
            f" {jarayonlar!r}"
        )
    return max(1, min(jarayonlar, len(ishlar)))


def parallel(fn, ishlar, jarayonlar=None):
    """``[fn(*args) for args in ishlar]``, run in worker processes with one
    thread each.

    ``fn`` and the arguments must be picklable (a module-level function,
    ``functools.partial`` instead of a lambda).  Results come back in order.
    The worker count comes from ``jarayonlar``, else the environment
    variable ``KITOB_JARAYONLAR``, else the number of cores.  For a function
    whose results are kept (``chapter_code.ombor``), kept results are taken
    from the store and only the others are computed (no worker is started if
    none is).
    """
    ishlar = [tuple(a) for a in ishlar]
    ombordan = getattr(fn, "ombordan", None)
    natijalar = [ombordan(*a) if ombordan else None for a in ishlar]
    qolgan = [i for i, r in enumerate(natijalar) if r is None]
    if qolgan:
        n = ishchilar_soni(qolgan, jarayonlar)
        with ProcessPoolExecutor(
            n, mp_context=get_context("spawn"), initializer=_bir_ip
        ) as ex:
            for i, r in zip(
                qolgan, ex.map(_chaqir, [(fn, ishlar[i]) for i in qolgan])
            ):
                natijalar[i] = r
    return natijalar


@olchov
def xotira_chuqqisi(fn, *args):
    """Peak bytes that ``fn(*args)`` allocates on the CPU, as PyTorch counts
    them.

    Runs ``fn`` under ``torch.profiler`` with memory profiling and adds up
    the allocations (+) of its operations at their start and the frees (-)
    at their end; the largest running total is the peak.  Returns (peak,
    result).

    It is measured on the second profiled call: the first profiled call of a
    model reports one (batch, T, d) activation more than every later call
    (131.26 vs 127.50 MiB for the chapter's attention at T = 480), and two
    cold executions of the chapter did not agree on which they got.  From
    the second call on, the figure is the same call after call.
    """
    import sys

    from torch.profiler import ProfilerActivity, profile

    # the profiler's C++ side logs start/stop lines to file descriptor 2;
    # they are not results, so they go to /dev/null for the measurement
    sys.stderr.flush()
    asl = os.dup(2)
    with open(os.devnull, "w") as bosh:
        os.dup2(bosh.fileno(), 2)
        try:
            # the second call is the one measured (docstring)
            for _ in range(2):
                with profile(
                    activities=[ProfilerActivity.CPU], profile_memory=True
                ) as p:
                    natija = fn(*args)
        finally:
            os.dup2(asl, 2)
            os.close(asl)
    # an operation's own allocations (+) count from its start, its own
    # frees (-) from its end: an operation that frees what its
    # sub-operations allocated (a negative "self" figure) must not
    # cancel them before they happen
    hodisalar = sorted(
        (
            (
                e.time_range.start
                if e.self_cpu_memory_usage > 0
                else e.time_range.end
            ),
            e.self_cpu_memory_usage,
        )
        for e in p.events()
    )
    joriy = chuqqi = 0
    for _, bayt in hodisalar:
        joriy += bayt
        chuqqi = max(chuqqi, joriy)
    return chuqqi, natija


@olchov
def mediana_ms(ifoda, iplar=1, **nomlar):
    """Median milliseconds of ``ifoda`` (a statement using ``nomlar``),
    measured by ``torch.utils.benchmark`` (``blocked_autorange``: many
    repeats) on ``iplar`` threads.
    """
    from torch.utils import benchmark

    t = benchmark.Timer(stmt=ifoda, globals=nomlar, num_threads=iplar)
    return t.blocked_autorange(min_run_time=0.3).median * 1000


def protsessor():
    """The CPU's name, for saying where timings were taken
    (``chapter_code.muhit``)."""
    return muhit.protsessor()[0]
