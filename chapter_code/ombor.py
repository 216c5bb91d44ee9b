"""Results of long computations kept on disk, keyed by the code that produces them.

A chapter is re-executed whenever one of its cells changes; its trainings
should not be, unless their own code changed.  ``saqlanadi`` (Uzbek: "is kept")
wraps such a function: its result is written to the store
(``_build/ombor/<function>/<key>.pt``) and taken from there the next time the
same call is made.  The key is a SHA-256 of

* the source of the code that produces the result: the module of the function,
  the modules of every function or class passed to it (the model's
  constructor), and the ``chapter_code`` modules those import, transitively
  (task, models, training; imports found by reading the source, wherever they
  are in it; a dynamic import brings in the whole package) — any edit there
  retrains.  Each file is read once per process, right after its import, so
  an edit made while a training runs is keyed as the change it is;
* the arguments, bound to the function's signature with its defaults, written
  out canonically (a ``functools.partial`` as its
  function and arguments; anything else that has no exact text form is
  refused with a ``TypeError`` rather than keyed by a memory address);
* the torch version and ``requirements.lock``;
* the arithmetic of the machine (``chapter_code.muhit.izi``: the processor and
  the variables that choose PyTorch's, MKL's and oneDNN's CPU kernels), since
  an unstable training can end differently under another one; a build with
  ``ATEN_CPU_CAPABILITY=default`` trains afresh, and back under the native
  setting takes the kept results again.

An entry that cannot be read (a truncated file, another version's format, a
key that does not match) is reported on stderr and computed again, never used.
``KITOB_OMBORSIZ=1`` in the environment bypasses the store (nothing read,
nothing written): every call computes afresh.  ``KITOB_OMBOR`` moves it.
``make clean`` empties it with the rest of ``_build/``.

Known limit: a training's key does not include the thread count or the denormal
setting; the chapters train through ``parallel``, whose workers always use one
thread with denormals flushed (``oqitish._bir_ip``), so entries are made under
the same settings.  A measurement's key has the cores and threads; the
denormal setting is the lesson's (``torch.set_flush_denormal``), the same in
every execution of it.

What the chapters keep here is named where they call it: the trainings
(``oqitish.oqit``: test accuracy and trained weights) and the measurements of
the machine (``oqitish.mediana_ms``: a median time; ``oqitish.xotira_chuqqisi``:
a peak of memory and the result).  A measurement (``olchov``) is keyed like a
training, except that its arguments are the very objects measured — a model,
tensors, a function of the lesson — so each is written out by what decides the
result: a tensor by its type, shape and bytes, a model by its class's source,
its structure, its mode and its weights, a function of the lesson by its
source (only its own: a lesson function it calls is not followed).  And the
machine is part of its key as a measurement sees it: besides the arithmetic,
the number of cores and of PyTorch's threads (the processor's name is in
``muhit.izi``), and whether autograd records (``torch.no_grad``).  So a lesson re-executed after an edit of a plot
reads its timings back; another machine, another torch or lock, or an edit
of the measured code measures again.  ``KITOB_OMBORSIZ=1`` measures everything
afresh.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import inspect
import os
import sys
from pathlib import Path

import torch

from chapter_code import ILDIZ, muhit

PAKET = "chapter_code"


def papka() -> Path:
    """The store's folder: $KITOB_OMBOR, else _build/ombor under the project root."""
    return Path(os.environ.get("KITOB_OMBOR") or ILDIZ / "_build" / "ombor")


def yoqilganmi() -> bool:
    """False when KITOB_OMBORSIZ is set to anything but '' or '0'."""
    return os.environ.get("KITOB_OMBORSIZ", "") in ("", "0")


# --------------------------------------------------------------------------
# the key
# --------------------------------------------------------------------------
#: Source bytes of each file as first read by this process (right after its import):
#: an edit made on disk while a training runs does not change that training's key.
_MANBALAR: dict[Path, bytes] = {}


def _manba(fayl: Path) -> bytes:
    if fayl not in _MANBALAR:
        _MANBALAR[fayl] = fayl.read_bytes()
    return _MANBALAR[fayl]


def _fayli(nom: str) -> Path | None:
    """The source file of the chapter_code module ``nom`` (None for a name that is not a module)."""
    if nom != PAKET and not nom.startswith(PAKET + "."):
        return None
    yol = ILDIZ.joinpath(*nom.split("."))
    for nomzod in (yol.with_suffix(".py"), yol / "__init__.py"):
        if nomzod.is_file():
            return nomzod
    return None


def _modul_importlari(fayl: Path, modul: str) -> set[str]:
    """chapter_code modules the source of ``modul`` imports, anywhere in it (read, not imported).

    A dynamic import (``importlib``, ``__import__``, ``from chapter_code import *``)
    cannot be followed: the whole package is then part of the key.
    """
    paket = modul if fayl.name == "__init__.py" else modul.rpartition(".")[0]
    topildi = set()
    for tugun in ast.walk(ast.parse(_manba(fayl))):
        if isinstance(tugun, ast.Import):
            topildi |= {a.name for a in tugun.names}
        elif isinstance(tugun, ast.ImportFrom):
            nom = (paket.rsplit(".", tugun.level - 1)[0] + (f".{tugun.module}" if tugun.module else "")
                   if tugun.level else tugun.module or "")
            if any(a.name == "*" for a in tugun.names) and nom.startswith(PAKET):
                return {f"{PAKET}.{p.stem}" for p in (ILDIZ / PAKET).glob("*.py")}
            topildi |= {nom} | {f"{nom}.{a.name}" for a in tugun.names}
        elif isinstance(tugun, ast.Name) and tugun.id in ("importlib", "__import__"):
            return {f"{PAKET}.{p.stem}" for p in (ILDIZ / PAKET).glob("*.py")}
    return {n for n in topildi if _fayli(n) is not None}


def manba_fayllari(modullar: set[str]) -> list[Path]:
    """Source files of the chapter_code ``modullar``, their packages and what they import, transitively.

    Modules outside chapter_code (torch, the standard library) are covered by
    the torch version and the lock file in the key.
    """
    fayllar, navbat, korilgan = set(), set(modullar), set()
    while navbat:
        nom = navbat.pop()
        if nom in korilgan:
            continue
        korilgan.add(nom)
        qismlar = nom.split(".")
        navbat |= {".".join(qismlar[:i]) for i in range(1, len(qismlar))}   # parent packages
        fayl = _fayli(nom)
        if fayl is not None:
            fayllar.add(fayl)
            navbat |= _modul_importlari(fayl, nom)
    return sorted(fayllar)


def _tavsif(qiymat, modullar: set[str], ichki=None) -> str:
    """An exact, stable text form of an argument; the modules of the code it names go to ``modullar``.

    ``ichki`` writes what a tuple, list, dict or partial holds (``_tavsif`` itself by
    default; ``_qiymat_izi`` for a measurement, whose containers hold tensors and models)."""
    ichki = ichki or _tavsif
    if qiymat is None or isinstance(qiymat, (bool, int, str)):
        return repr(qiymat)
    if isinstance(qiymat, float):
        return qiymat.hex()
    if isinstance(qiymat, (tuple, list)):
        ichi = ", ".join(ichki(q, modullar) for q in qiymat)
        return f"{type(qiymat).__name__}({ichi})"
    if isinstance(qiymat, dict):
        return "dict(" + ", ".join(f"{_tavsif(k, modullar)}: {ichki(v, modullar)}"
                                   for k, v in sorted(qiymat.items(), key=lambda kv: repr(kv[0]))) + ")"
    if isinstance(qiymat, functools.partial):
        return (f"partial({ichki(qiymat.func, modullar)}, {ichki(qiymat.args, modullar)}, "
                f"{ichki(qiymat.keywords, modullar)})")
    if inspect.isclass(qiymat) or inspect.isfunction(qiymat) or inspect.isbuiltin(qiymat):
        modul, nom = qiymat.__module__, qiymat.__qualname__
        if modul == "__main__" or "<" in nom:
            raise TypeError(
                f"{nom} is defined in the chapter itself (or is a lambda): a kept result is keyed by "
                "the source of its code, which must be in an importable module; move it to "
                "chapter_code/ or pass functools.partial(SomeClass, ...) instead")
        modullar.add(modul)
        return f"{modul}.{nom}"
    raise TypeError(f"cannot key a kept result by an argument of type {type(qiymat).__name__} "
                    f"({qiymat!r:.60}); pass numbers, strings, tuples, dicts, functions, classes "
                    "or functools.partial")


def _qiymat_izi(qiymat, modullar: set[str]) -> str:
    """A measured object written out by what decides the measurement (module docstring)."""
    if isinstance(qiymat, torch.Tensor):
        t = qiymat.detach().cpu().contiguous()
        baytlar = t.reshape(-1).view(torch.uint8).numpy().tobytes() if t.numel() else b""
        return (f"tensor({t.dtype}, {tuple(t.shape)}, {qiymat.requires_grad}, "
                f"{hashlib.sha256(baytlar).hexdigest()})")
    if isinstance(qiymat, torch.nn.Module):
        sinf = type(qiymat)
        if sinf.__module__ == "__main__":
            sinf_izi = _lesson_manbasi(sinf)
        else:
            modullar.add(sinf.__module__)
            sinf_izi = f"{sinf.__module__}.{sinf.__qualname__}"
        rejim = "".join("1" if m.training else "0" for m in qiymat.modules())
        holat = ", ".join(f"{k}: {_qiymat_izi(v, modullar)}" for k, v in qiymat.state_dict().items())
        return f"module({sinf_izi}, {qiymat!r}, {rejim}, {{{holat}}})"
    if (inspect.isfunction(qiymat) or inspect.isclass(qiymat)) and qiymat.__module__ == "__main__":
        return _lesson_manbasi(qiymat)
    return _tavsif(qiymat, modullar, _qiymat_izi)


def _lesson_manbasi(obj) -> str:
    """A function or class defined in the lesson itself, by its source (IPython keeps every cell's)."""
    try:
        return f"manba({inspect.getsource(obj)!r})"
    except (OSError, TypeError):
        raise TypeError(f"{obj.__qualname__} is defined where its source cannot be read: a kept "
                        "measurement is keyed by the source of what it measures; define it in a "
                        "lesson's cell or in chapter_code/") from None


def olchov_kaliti(fn, args: tuple, kwargs: dict) -> str:
    """The store's key of the measurement ``fn(*args, **kwargs)`` (module docstring): its
    code, the objects it measures, and the machine with its cores and threads."""
    modullar = {fn.__module__}
    boglangan = inspect.signature(fn).bind(*args, **kwargs)
    boglangan.apply_defaults()
    tavsif = _tavsif(fn, modullar) + "".join(
        f"{nom}={_qiymat_izi(q, modullar)};" for nom, q in boglangan.arguments.items())
    h = hashlib.sha256()
    h.update(f"olchov\ntorch {torch.__version__}\n{muhit.izi()}\ncores {os.cpu_count()} "
             f"threads {torch.get_num_threads()} grad {torch.is_grad_enabled()}\n{tavsif}\n".encode())
    qulf = ILDIZ / "requirements.lock"
    for fayl in manba_fayllari(modullar) + ([qulf] if qulf.is_file() else []):
        h.update(fayl.relative_to(ILDIZ).as_posix().encode() + b"\0" + _manba(fayl) + b"\0")
    return h.hexdigest()


def kalit(fn, args: tuple, kwargs: dict) -> str:
    """The store's key of the call ``fn(*args, **kwargs)`` (see the module docstring).

    The arguments are bound to ``fn``'s signature with its defaults filled in,
    so ``oqit(m, 60, 0)`` and ``oqit(m, 60, seed=0, epoxalar=60)`` are one entry.
    """
    modullar = {fn.__module__}
    boglangan = inspect.signature(fn).bind(*args, **kwargs)
    boglangan.apply_defaults()
    tavsif = _tavsif(fn, modullar) + _tavsif(dict(boglangan.arguments), modullar)
    h = hashlib.sha256()
    h.update(f"torch {torch.__version__}\n{muhit.izi()}\n{tavsif}\n".encode())
    qulf = ILDIZ / "requirements.lock"
    for fayl in manba_fayllari(modullar) + ([qulf] if qulf.is_file() else []):
        h.update(fayl.relative_to(ILDIZ).as_posix().encode() + b"\0" + _manba(fayl) + b"\0")
    return h.hexdigest()


# --------------------------------------------------------------------------
# reading and writing entries
# --------------------------------------------------------------------------
def _yol(fn, k: str) -> Path:
    return papka() / fn.__qualname__ / f"{k}.pt"


def _xabar(matn: str) -> None:
    """A note for the author, on the process's own stderr: the build's console, not the
    chapter's output (a kernel's sys.stderr would put it into the published page)."""
    print(f"ombor: {matn}", file=sys.__stderr__, flush=True)


def saqlanadi(saqla, tikla, kalitlash=None):
    """Decorator: keep ``fn``'s results in the store, keyed by its code and arguments.

    ``saqla(natija)`` turns a result into what is written (tensors, numbers,
    strings, lists and dicts of them: read back with ``weights_only=True``);
    ``tikla(yozuv, *args, **kwargs)`` turns it back into the result.
    The wrapped function gets ``ombordan(*args, **kwargs)``, which returns the
    kept result or ``None`` without computing anything (``parallel`` uses it
    to send only what is missing to its workers).  ``kalitlash`` makes the
    key (``kalit`` by default; ``olchov_kaliti`` for a measurement).
    """
    kalitlash = kalitlash or kalit

    def bezak(fn):
        def _ol(k, args, kwargs):
            yol = _yol(fn, k)
            if not yol.exists():
                return None
            try:
                yozuv = torch.load(yol, weights_only=True)
                if not isinstance(yozuv, dict) or yozuv.get("kalit") != k:
                    raise ValueError("its key does not match its file name")
                return tikla(yozuv["natija"], *args, **kwargs)
            except Exception as xato:           # any unreadable entry: compute again, say so
                _xabar(f"{yol} could not be used ({type(xato).__name__}: {xato}); computing it again")
                return None

        def ombordan(*args, **kwargs):
            return _ol(kalitlash(fn, args, kwargs), args, kwargs) if yoqilganmi() else None

        @functools.wraps(fn)
        def oraliq(*args, **kwargs):
            if not yoqilganmi():
                return fn(*args, **kwargs)
            k = kalitlash(fn, args, kwargs)      # one key per call: looked up and written under it
            topildi = _ol(k, args, kwargs)
            if topildi is not None:
                return topildi
            natija = fn(*args, **kwargs)
            yol = _yol(fn, k)
            yol.parent.mkdir(parents=True, exist_ok=True)
            vaqtincha = yol.with_suffix(f".{os.getpid()}.tmp")
            torch.save({"kalit": k, "natija": saqla(natija)}, vaqtincha)
            os.replace(vaqtincha, yol)          # a reader never sees half a file
            return natija

        oraliq.ombordan = ombordan
        return oraliq
    return bezak


def olchov(fn):
    """Decorator: keep a measurement of the machine (a number, or a tuple of numbers and tensors)
    in the store, keyed by ``olchov_kaliti``."""
    return saqlanadi(lambda natija: natija, lambda yozuv, *a, **k: yozuv, olchov_kaliti)(fn)
