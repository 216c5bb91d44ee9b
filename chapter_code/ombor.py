"""Uzoq hisoblarning natijalari diskda saqlanadi; kaliti — ularni hisoblaydigan kod.

Bob kataklaridan biri oʻzgarsa, bob qayta bajariladi; undagi oʻqitishlar esa faqat oʻz
kodi oʻzgargandagina qayta bajarilishi kerak.  ``saqlanadi`` (yaʼni «saqlab qoʻyiladi»)
shunday funksiyani oʻraydi: uning natijasi omborga (``_build/ombor/<funksiya>/<kalit>.pt``)
yoziladi va keyingi safar xuddi shunday chaqiriqda oʻsha yerdan olinadi.  Kalit —
quyidagilarning SHA-256 xeshi:

* natijani hisoblaydigan kodning manbasi: funksiyaning moduli, unga berilgan har funksiya
  yoki sinfning moduli (model konstruktori) va ular import qiladigan ``chapter_code``
  modullari, zanjir boʻylab (vazifa, modellar, oʻqitish; importlarni ``modulefinder``
  manbani oʻqib topadi, manbaning qayerida boʻlmasin; dinamik import butun paketni kalitga qoʻshadi) —
  u yerdagi har tahrir qayta oʻqitishga olib keladi.  Har fayl jarayonda bir marta, import
  qilingan zahoti oʻqiladi, shuning uchun oʻqitish ketayotganda kiritilgan tahrir oʻsha
  oʻqitish kalitiga tushmaydi va keyingi chaqiriqda oʻzgarish sifatida koʻrinadi;
* argumentlar: funksiya signaturasiga standart qiymatlari bilan bogʻlanib, kanonik shaklda
  yoziladi (``functools.partial`` — funksiyasi va argumentlari sifatida; aniq matn shakli
  boʻlmagan boshqa har narsa xotira manzili boʻyicha kalitlanmaydi, ``TypeError`` bilan
  rad etiladi);
* torch versiyasi va ``requirements.lock``;
* mashinaning arifmetikasi (``chapter_code.muhit.izi``: protsessor hamda PyTorch, MKL va
  oneDNN CPU yadrolarini tanlaydigan oʻzgaruvchilar), chunki beqaror oʻqitish boshqa
  arifmetikada boshqacha tugashi mumkin; ``ATEN_CPU_CAPABILITY=default`` bilan yigʻish
  yangidan oʻqitadi, odatiy sozlamaga qaytilganda esa saqlangan natijalar yana olinadi.

Oʻqib boʻlmaydigan yozuv (uzilib qolgan fayl, boshqa versiyaning formati, mos kelmaydigan
kalit) haqida stderr ga xabar beriladi va u qayta hisoblanadi, hech qachon ishlatilmaydi.
Muhitda ``KITOB_OMBORSIZ=1`` boʻlsa, ombor chetlab oʻtiladi (hech narsa oʻqilmaydi ham,
yozilmaydi ham): har chaqiriq yangidan hisoblaydi.  ``KITOB_OMBOR`` omborni boshqa joyga
koʻchiradi.  ``make clean`` uni ``_build/`` ning qolgan qismi bilan birga boʻshatadi.

Maʼlum cheklov: oʻqitish kaliti iplar sonini va denormal sonlar sozlamasini oʻz ichiga
olmaydi; boblar ``parallel`` orqali oʻqitadi, uning ishchi jarayonlari esa doim bitta
ipda, denormal sonlarni nolga aylantirib ishlaydi (``oqitish._bir_ip``), shuning uchun
yozuvlar bir xil sozlamada yaratiladi.  Oʻlchov kalitida yadrolar va iplar soni bor;
denormal sozlamasi esa darsniki (``torch.set_flush_denormal``), u darsning har
bajarilishida bir xil.

Boblar bu yerda nimani saqlashi chaqiriladigan joyida koʻrsatilgan: oʻqitishlar
(``oqitish.oqit``: sinov aniqligi va oʻqitilgan vaznlar) va mashina oʻlchovlari
(``oqitish.mediana_ms``: vaqt medianasi; ``oqitish.xotira_chuqqisi``: xotira choʻqqisi va
natija).  Oʻlchov (``olchov``) xuddi oʻqitish kabi kalitlanadi, faqat uning argumentlari
oʻlchanayotgan obyektlarning oʻzi — model, tenzorlar, darsdagi funksiya; shuning uchun har
biri natijani nima belgilasa, shu bilan yoziladi: tenzor — turi, shakli va baytlari bilan,
model — sinfining manbasi, tuzilishi, rejimi va vaznlari bilan, darsdagi funksiya — oʻz
manbasi bilan (faqat oʻziniki: u chaqiradigan boshqa dars funksiyasi kuzatilmaydi).
Mashina ham kalitga oʻlchov uni qanday koʻrsa, shunday kiradi: arifmetikadan tashqari
yadrolar soni va PyTorch iplari soni (protsessor nomi ``muhit.izi`` da bor) hamda
autograd hisoblarni yozib boryaptimi (``torch.no_grad``).  Shunday qilib, rasm tahriridan
keyin qayta bajarilgan dars oʻz vaqtlarini ombordan oʻqiydi; boshqa mashina, boshqa torch
yoki lock fayli, yoki oʻlchanayotgan kodning tahriri esa qayta oʻlchashga olib keladi.
``KITOB_OMBORSIZ=1`` hammasini yangidan oʻlchaydi.

Har yozuv oʻz hisobi qancha vaqt olganini ham saqlaydi (``soniya``).  Jarayon oʻzi
chaqirgan saqlanadigan hisoblar vaqtini qoʻshib boradi (``sarf``: ombordan olingani —
yozuvidagi vaqt, hisoblangani — oʻlchangani, ``parallel`` ishchilariniki ham), yaʼni
ular ketma-ket bajarilsa qancha vaqt olishini (``muhit.sarf``).
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import modulefinder
import os
import re
import math
import sys
import time
from pathlib import Path

import torch

from chapter_code import ILDIZ, muhit, qisqa

PAKET = "chapter_code"


papka = muhit.ombor_papkasi


def yoqilganmi() -> bool:
    """KITOB_OMBORSIZ '' yoki '0' dan boshqa qiymatga oʻrnatilgan boʻlsa, False; qisqa
    protokolda ham (``chapter_code.qisqa``: uning natijalari saqlanmaydi)."""
    return os.environ.get("KITOB_OMBORSIZ", "") in ("", "0") and not qisqa.yoqilganmi()


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


def _paketdami(nom: str) -> bool:
    return nom == PAKET or nom.startswith(PAKET + ".")


#: Dinamik import: ``__import__`` chaqiruvi yoki chapter_code dan yulduzcha bilan import.
_KUZATILMAS = re.compile(r"\b__import__\s*\(|^\s*from\s+(?:\.|chapter_code)[\w.]*\s+import\s+\*", re.M)


def manba_fayllari(modullar: set[str]) -> list[Path]:
    """chapter_code ``modullar`` i, ularning paketlari va ular (manbaning istalgan joyida)
    import qiladigan modullarning manba fayllari, zanjir boʻylab.

    Importlarni standart kutubxonaning ``modulefinder`` i topadi: u manbani oʻqiydi, hech
    narsani import qilmaydi va faqat loyiha ildizida qidiradi.  chapter_code dan
    tashqaridagi modullar (torch, standart kutubxona) kalitdagi torch versiyasi va lock
    fayli bilan qamrab olinadi.  Dinamik importni (``importlib``, ``__import__`` chaqiruvi,
    chapter_code dan yulduzcha bilan import) kuzatib boʻlmaydi: bunda butun paket kalitga kiradi.
    """
    izlovchi = modulefinder.ModuleFinder(path=[str(ILDIZ)])
    for nom in sorted(filter(_paketdami, modullar)):
        izlovchi.import_hook(nom)
    fayllar = {Path(m.__file__) for nom, m in izlovchi.modules.items() if m.__file__ and _paketdami(nom)}
    if "importlib" in izlovchi.badmodules or any(
            _KUZATILMAS.search(_manba(f).decode("utf-8")) for f in fayllar):
        return sorted((ILDIZ / PAKET).rglob("*.py"))
    return sorted(fayllar)


def _tavsif(qiymat, modullar: set[str], ichki=None) -> str:
    """Argumentning aniq va barqaror matn shakli; u nomlagan kodning modullari ``modullar``
    ga qoʻshiladi.

    ``ichki`` tuple, list, dict yoki partial ichidagini yozadi (standart holda ``_tavsif``
    ning oʻzi; oʻlchovda ``_qiymat_izi``, chunki uning konteynerlarida tenzorlar va
    modellar boʻladi)."""
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
    """Oʻlchanadigan obyekt oʻlchovni nima belgilasa, shu bilan yoziladi (modul
    tavsifiga qarang)."""
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
    """Darsning oʻzida taʼriflangan funksiya yoki sinf, oʻz manbasi bilan (IPython har
    katakning manbasini saqlaydi)."""
    try:
        return f"manba({inspect.getsource(obj)!r})"
    except (OSError, TypeError):
        raise TypeError(f"{obj.__qualname__} is defined where its source cannot be read: a kept "
                        "measurement is keyed by the source of what it measures; define it in a "
                        "lesson's cell or in chapter_code/") from None


def olchov_kaliti(fn, args: tuple, kwargs: dict) -> str:
    """``fn(*args, **kwargs)`` oʻlchovining ombordagi kaliti (modul tavsifiga qarang): uning
    kodi, u oʻlchaydigan obyektlar va mashina, yadrolar va iplar soni bilan."""
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
    """``fn(*args, **kwargs)`` chaqirigʻining ombordagi kaliti (modul tavsifiga qarang).

    Argumentlar standart qiymatlari toʻldirilgan holda ``fn`` signaturasiga bogʻlanadi,
    shuning uchun ``oqit(m, 60, 0)`` va ``oqit(m, 60, seed=0, epoxalar=60)`` — bitta yozuv.
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
    """Muallif uchun xabar, jarayonning oʻz stderr oqimiga: bu bob chiqishi emas, yigʻish
    konsoli (Jupyter yadrosining sys.stderr oqimi uni nashr qilinadigan sahifaga qoʻyardi)."""
    print(f"ombor: {matn}", file=sys.__stderr__, flush=True)


def _olchab(fn, args, kwargs):
    """``fn(*args, **kwargs)`` and the seconds it took, added to the process's (``muhit.sarf``);
    a stored computation it calls is in that time already, so it is not added twice."""
    oldin, boshi = muhit.sarf(), time.perf_counter()
    natija = fn(*args, **kwargs)
    soniya = time.perf_counter() - boshi
    muhit.sarf_tikla(oldin)
    muhit.sarf_qosh(soniya)
    return natija, soniya


def saqlanadi(saqla, tikla, kalitlash=None):
    """Dekorator: ``fn`` natijalarini omborda saqlaydi; kaliti — uning kodi va argumentlari.

    ``saqla(natija)`` natijani yoziladigan koʻrinishga keltiradi (tenzorlar, sonlar, satrlar
    va ulardan tuzilgan roʻyxat va lugʻatlar: ``weights_only=True`` bilan qayta oʻqiladi);
    ``tikla(yozuv, *args, **kwargs)`` uni qaytadan natijaga aylantiradi.
    Oʻralgan funksiyada ``ombordan(*args, **kwargs)`` ham boʻladi: u hech narsa
    hisoblamasdan saqlangan natijani yoki ``None`` ni qaytaradi (``parallel`` undan
    ishchilarga faqat yetishmayotganlarini yuborish uchun foydalanadi).  ``kalitlash``
    kalitni yasaydi (standart holda ``kalit``; oʻlchov uchun ``olchov_kaliti``).
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
                natija = tikla(yozuv["natija"], *args, **kwargs)
                muhit.sarf_qosh(yozuv.get("soniya", math.nan))
                return natija
            except Exception as xato:           # any unreadable entry: compute again, say so
                _xabar(f"{yol} could not be used ({type(xato).__name__}: {xato}); computing it again")
                return None

        def ombordan(*args, **kwargs):
            return _ol(kalitlash(fn, args, kwargs), args, kwargs) if yoqilganmi() else None

        @functools.wraps(fn)
        def oraliq(*args, **kwargs):
            if not yoqilganmi():
                return _olchab(fn, args, kwargs)[0]
            k = kalitlash(fn, args, kwargs)      # one key per call: looked up and written under it
            topildi = _ol(k, args, kwargs)
            if topildi is not None:
                return topildi
            natija, soniya = _olchab(fn, args, kwargs)
            yol = _yol(fn, k)
            yol.parent.mkdir(parents=True, exist_ok=True)
            vaqtincha = yol.with_suffix(f".{os.getpid()}.tmp")
            torch.save({"kalit": k, "natija": saqla(natija), "soniya": soniya}, vaqtincha)
            os.replace(vaqtincha, yol)          # a reader never sees half a file
            return natija

        oraliq.ombordan = ombordan
        return oraliq
    return bezak


def olchov(fn):
    """Dekorator: mashina oʻlchovini (son yoki sonlar va tenzorlardan iborat tuple) omborda
    saqlaydi; kaliti — ``olchov_kaliti``."""
    return saqlanadi(lambda natija: natija, lambda yozuv, *a, **k: yozuv, olchov_kaliti)(fn)
