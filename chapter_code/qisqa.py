"""Qisqa protokol: bobning har yoʻlini yurgizadigan, lekin tez tugaydigan bajarilish.

Kitob doim toʻliq protokol bilan yigʻiladi.  ``KITOB_QISQA=1`` boʻlsa (faqat
``tests/test_takror.py`` shunday qiladi), bob xuddi oʻsha kod bilan, lekin kichikroq
oʻlchamlarda bajariladi:

* ``qisqartiriladi`` bilan belgilangan oʻqitishlar (``oqitish.oqit``,
  ``sonlar.oqit_tarjimon``) kamroq epoxa yoki qadam va kamroq namuna bilan oʻqitadi —
  shu funksiyaning oʻzi, har bir tsikli bilan;
* ``oqitish.mediana_ms`` vaqtni qisqaroq oʻlchaydi (``xotira_chuqqisi`` esa oʻzgarmaydi:
  birinchi profillangan chaqiriqning choʻqqisi ikki jarayonda turlicha chiqadi, shuning
  uchun qisqa protokol ham ikkinchisini oʻlchaydi — buni determinizm testi topgan);
* ombor (``chapter_code.ombor``) chetlab oʻtiladi: qisqa natija hech qachon saqlanmaydi
  va toʻliq yigʻish uni hech qachon olmaydi.

Natijalar (aniqliklar, jumlalar) toʻliq protokolnikidan boshqacha boʻladi; determinizm
testi esa qisqa protokolni ikki marta bajarib, ikkisini solishtiradi.  Ogʻir hech narsani
import qilmaydi.
"""

from __future__ import annotations

import functools
import inspect
import os

#: the switch
KALIT = "KITOB_QISQA"


def yoqilganmi() -> bool:
    """KITOB_QISQA '' yoki '0' dan boshqa qiymatga oʻrnatilgan boʻlsa, True."""
    return os.environ.get(KALIT, "") not in ("", "0")


def qisqartiriladi(**chegaralar):
    """Dekorator: qisqa protokolda ``chegaralar`` da nomlangan argumentlarning har biri
    berilgan chegaradan oshmaydi (``oqit(..., epoxalar=60)`` → ``epoxalar=2``); toʻliq
    protokolda funksiya oʻzgarishsiz chaqiriladi."""

    def bezak(fn):
        imzo = inspect.signature(fn)
        yoq = set(chegaralar) - set(imzo.parameters)
        if yoq:
            raise TypeError(f"{fn.__name__} has no argument(s) {sorted(yoq)} to shorten")

        @functools.wraps(fn)
        def oraliq(*args, **kwargs):
            if not yoqilganmi():
                return fn(*args, **kwargs)
            boglangan = imzo.bind(*args, **kwargs)
            boglangan.apply_defaults()
            for nom, chegara in chegaralar.items():
                boglangan.arguments[nom] = min(boglangan.arguments[nom], chegara)
            return fn(*boglangan.args, **boglangan.kwargs)

        return oraliq

    return bezak
