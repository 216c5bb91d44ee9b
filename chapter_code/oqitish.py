"""Oʻqitish va oʻlchash: ``oqit`` bitta modelni oʻqitadi, ``parallel`` esa koʻp
oʻqitishni yurgizadi.

``oqit`` — bobning butun oʻqitish tartibi (Adam, cross-entropy, indeks boʻyicha kesib
olinadigan aralashtirilgan kichik paketlar); u sinov aniqligini va oʻqitilgan modelni
qaytaradi.  Bobdagi oʻqitishlar bir-biriga bogʻliq emas (model × seed), shuning uchun
``parallel`` ularni ishchi jarayonlarda yurgizadi: har biri bitta ipda, bir vaqtda
yadrolar soncha jarayon.  Har oʻqitish oʻz seedini oʻzi oʻrnatadi, shuning uchun sonlar
ishchilar soniga bogʻliq emas.

Saqlanadi, takrorlanmaydi: ``oqit`` natijalari (aniqlik va oʻqitilgan vaznlar)
``chapter_code.ombor`` omboriga yoziladi; kaliti — vazifa, modellar va shu modulning
manbasi, argumentlar, torch va lock fayli.  Xuddi shu kod bilan xuddi shu chaqiriq
ularni oʻsha yerdan oladi, ``parallel`` esa ishchilarni faqat yetishmayotgan natijalar
uchun ishga tushiradi.  Vaqt va xotira oʻlchovlari (``mediana_ms``, ``xotira_chuqqisi``)
ham omborda saqlanadi, lekin ularning kaliti oʻlchagan mashinani ham (yadrolar va iplar
soni bilan) oʻz ichiga oladi: ular kodni emas, mashinani tavsiflaydi.
"""

import ctypes
import functools
import inspect
import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import torch
import torch.nn as nn

from chapter_code import muhit, qisqa
from chapter_code.malumot import vazifa
from chapter_code.ombor import olchov, saqlanadi
from chapter_code.qisqa import qisqartiriladi


def _yozuv(natija):
    """Ombor oʻqitishdan nimani saqlaydi: aniqlikni va oʻqitilgan
    vaznlarni."""
    aniqlik, model = natija
    return {"aniqlik": aniqlik, "vaznlar": model.state_dict()}


def _model(yozuv, yasa, *_, **__):
    """Saqlangan oʻqitishni qaytadan (aniqlik, model) juftligiga aylantiradi:
    saqlangan vaznlar yuklangan yangi yasa()."""
    model = yasa()
    model.load_state_dict(yozuv["vaznlar"])
    return yozuv["aniqlik"], model.eval()


@saqlanadi(_yozuv, _model)
@qisqartiriladi(epoxalar=2, n=256, n_sinov=100)
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
        # har epoxada yangi tartib; b — bitta paketning indekslari
        tartib = torch.randperm(n, generator=tasodif)
        for i in range(0, n, batch):
            b = tartib[i : i + batch]
            opt.zero_grad()
            krit(m(Xtr[b]), ytr[b]).backward()
            opt.step()
    m.eval()
    with torch.no_grad():
        # aniqlik Python float bilan hisoblanadi: float32 da
        # 540/600 = 0,89999998 «kamida 0,9» chegarasidan oʻtmas edi
        aniqlik = (m(Xte).argmax(1) == yte).sum().item() / len(yte)
    return aniqlik, m


def _malloc_sozla():
    """glibc: boʻshatilgan tenzor xotirasini tizimga qaytarmay, qayta ishlatish uchun
    saqlaydi.

    Odatda glibc 128 KiB dan katta har blokni yangi mmap bilan beradi va boʻshatilganda
    tizimga qaytaradi, shuning uchun har (64, 60, 60) attention tenzori oʻz xotirasini
    har yangilanishda qaytadan sahifa xatolari (page fault) orqali oladi.  Hamma blokni
    uyumdan (heap) berish va uyumni qisqartirmaslik 10 epoxalik oʻqitishlarni 2 yadroli
    ishlab chiqish mashinasida taxminan 10–30 % tezlashtirdi.  Vaqt oʻlchovlarini esa
    barqaror qiladi: busiz T = 240 dagi bitta attention oldinga oʻtishi (64 namuna) bir
    xil kod va vaznlar bilan jarayonga qarab 10 dan 17 ms gacha, T = 480 dagisi 41 dan
    389 ms gacha chiqdi; bu bilan 10–11 va 40–42 ms (shu mashinada, 2026-12-04).
    Arifmetika oʻzgarmaydi; mmap baribir zaxira yoʻl boʻlib qoladi (uyum oʻsolmasa).
    """
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:  # not glibc: nothing to tune
        return
    M_TRIM_THRESHOLD, M_MMAP_MAX = -1, -4
    libc.mallopt(M_MMAP_MAX, 0)
    libc.mallopt(M_TRIM_THRESHOLD, 2**31 - 1)


def _bir_ip():
    """Ishchi jarayonni sozlash: bitta ip; denormal kasr sonlar nolga aylantiriladi;
    malloc sozlanadi.

    Attention modeli oʻrganib boʻlgach, softmax ogʻirliklarining koʻpi 10⁻³⁸ dan kichik
    boʻladi; x86 protsessorlarida bunday denormal sonlar ustidagi arifmetika bir necha
    barobar sekin (oʻlchangan: oʻqitish 4 marta sekinlashgan). Ularni nolga aylantirish
    chop etiladigan birorta raqamni ham oʻzgartirmaydi.
    """
    torch.set_num_threads(1)
    torch.set_flush_denormal(True)
    _malloc_sozla()


def _chaqir(vazifa_):
    """A worker's call: its result and the seconds its stored computations took (the lesson's
    kernel adds them to its own: ``muhit.sarf``).  It runs with the caller's ``KITOB_*``
    settings of now (the store's place, its bypass, the reduced protocol): a worker is forked
    from the forkserver, which kept the environment of the first ``parallel`` call, so a
    worker of a process that changed them wrote to the old store (a test after another one,
    in one process)."""
    fn, args, sozlamalar = vazifa_
    for nom in [n for n in os.environ if n.startswith("KITOB_")]:
        os.environ.pop(nom)
    os.environ.update(sozlamalar)
    boshi = muhit.sarf()
    natija = fn(*args)
    return natija, muhit.sarf() - boshi


def ishchilar_soni(ishlar, jarayonlar=None):
    """Nechta ishchi jarayon ishlatiladi: har yadroga bittadan, lekin hech qachon
    ishlar sonidan koʻp emas."""
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


def _kontekst():
    """Ishchi jarayonlar «forkserver» dan: u jarayonda bir marta ishga tushadi va faqat torch ni
    oldindan import qiladi; har ishchi undan nusxa sifatida tez hosil boʻladi (yangi jarayon
    har ``parallel`` chaqiruvida torch ni qaytadan import qilsa, ~1,4 s ketardi: 25 ms ga
    qarshi).  ``chapter_code`` esa har ishchida diskdan yangidan import qilinadi: tahrirlangan
    kod koʻrinadi."""
    kontekst = get_context("forkserver")
    kontekst.set_forkserver_preload(["torch"])
    return kontekst


def parallel(fn, ishlar, jarayonlar=None):
    """``[fn(*args) for args in ishlar]`` — ishchi jarayonlarda, har birida bitta ip
    bilan bajariladi.

    ``fn`` va argumentlar pickle qilinadigan boʻlishi kerak (modul darajasidagi funksiya;
    lambda oʻrniga ``functools.partial``; saqlanadigan funksiyaning ``partial`` i ham
    ombordan oʻqiydi).  Natijalar tartib bilan qaytadi.  Ishchilar
    soni ``jarayonlar`` dan, u berilmasa ``KITOB_JARAYONLAR`` muhit oʻzgaruvchisidan, u
    ham boʻlmasa yadrolar sonidan olinadi.  Natijalari saqlanadigan funksiyada
    (``chapter_code.ombor``) saqlangan natijalar ombordan olinadi va faqat qolganlari
    hisoblanadi (hisoblanadigani qolmasa, birorta ishchi ishga tushirilmaydi).
    """
    ishlar = [tuple(a) for a in ishlar]
    ombordan = getattr(fn, "ombordan", None)
    if isinstance(fn, functools.partial) and hasattr(fn.func, "ombordan"):
        ombordan = functools.partial(fn.func.ombordan, *fn.args, **fn.keywords)
    natijalar = [ombordan(*a) if ombordan else None for a in ishlar]
    qolgan = [i for i, r in enumerate(natijalar) if r is None]
    if qolgan:
        n = ishchilar_soni(qolgan, jarayonlar)
        sozlamalar = {k: v for k, v in os.environ.items() if k.startswith("KITOB_")}
        with ProcessPoolExecutor(
            n, mp_context=_kontekst(), initializer=_bir_ip
        ) as ex:
            for i, (r, soniya) in zip(
                qolgan, ex.map(_chaqir, [(fn, ishlar[i], sozlamalar) for i in qolgan])
            ):
                natijalar[i] = r
                muhit.sarf_qosh(soniya)
    return natijalar


def protokoli(fn):
    """``fn`` ning standart qiymatli argumentlari (nomi -> qiymati): oʻqitish
    funksiyasining protokoli, darsda koʻrsatish uchun."""
    return {
        nom: p.default
        for nom, p in inspect.signature(fn).parameters.items()
        if p.default is not inspect.Parameter.empty
    }


@olchov
def baho(fn, *args):
    """``fn(*args)``: darsda oʻqitilgan modelni baholash, natijasi omborda.

    Kalit — ``fn`` ning manbasi va argumentlari (model — vaznlari bilan, tenzor —
    baytlari bilan; ``ombor`` ga qarang), shuning uchun dars qayta bajarilganda (masalan,
    rasm tahriridan keyin) baho qayta hisoblanmaydi, ``fn`` yoki model oʻzgarsa esa
    qayta hisoblanadi.  ``fn`` sonlar yoki tenzorlar (yoki ulardan iborat tuple) qaytarishi kerak.
    """
    return fn(*args)


@olchov
def xotira_chuqqisi(fn, *args):
    """``fn(*args)`` CPUda ajratadigan xotiraning choʻqqisi (baytlarda), PyTorch
    sanaganidek.

    ``fn`` ni ``torch.profiler`` ostida xotira profillash bilan yurgizadi va amallarning
    ajratishlarini (+) ular boshlangan paytda, boʻshatishlarini (-) ular tugagan paytda
    qoʻshib boradi; joriy yigʻindining eng katta qiymati — choʻqqi.  (choʻqqi, natija)
    qaytaradi.

    Ikkinchi profillangan chaqiriq oʻlchanadi: modelning birinchi profillangan chaqirigʻi
    keyingi har chaqiriqdan bitta (batch, T, d) aktivatsiyaga koʻp koʻrsatadi (bobdagi
    attention uchun T = 480 da 127,50 MiB oʻrniga 131,26 MiB), bobning ikki sovuq
    bajarilishi esa qaysi birini olgani boʻyicha mos kelmadi.  Ikkinchi chaqiriqdan
    boshlab natija har chaqiriqda bir xil.
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
            # the second call is the one measured (docstring), in the reduced
            # protocol too: the first call's peak differs between two processes
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
    """``ifoda`` ning (``nomlar`` dan foydalanadigan ifoda) millisekundlardagi medianasi;
    ``torch.utils.benchmark`` bilan (``blocked_autorange``: koʻp takror) ``iplar`` ta
    ipda oʻlchanadi.

    Bitta ipda soat — jarayonning protsessor vaqti (``time.process_time``): kompyuterda bir
    vaqtda boshqa dasturlar ishlasa ham, faqat shu hisobga ketgan vaqt sanaladi.  Devor
    soati bunda ikki barobargacha oʻsadi va oʻlchovdan oʻlchovga sakraydi: ``make test`` da kitob yigʻilayotganda yonida
    testlar ishlaydi, va T = 1024, 2048, 4096 dagi vaqtlar qiyaligi tinch kompyuterdagi 2,02
    oʻrniga 2,35 chiqqan (protsessor vaqtida yuklama ostida ham 2,05–2,08).  Bir necha ipda
    protsessor vaqti iplar boʻyicha qoʻshiladi, shuning uchun u yerda devor soati.
    """
    import time

    from torch.utils import benchmark

    _malloc_sozla()  # katta tenzorlar xotirasi qayta ishlatiladi
    soat = time.process_time if iplar == 1 else time.perf_counter
    t = benchmark.Timer(stmt=ifoda, globals=nomlar, num_threads=iplar, timer=soat)
    if qisqa.yoqilganmi():  # qisqa protokol: isitishsiz, bitta chaqiriq
        return t.timeit(1).median * 1000
    t.timeit(2)  # isitish: uyum kerakli hajmgacha oʻsadi
    return t.blocked_autorange(min_run_time=0.3).median * 1000


def protsessor():
    """Protsessor nomi: vaqtlar qayerda oʻlchanganini aytish uchun
    (``chapter_code.muhit``)."""
    return muhit.protsessor()[0]
