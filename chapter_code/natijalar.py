"""Bir necha seed bilan oʻqitish qanday tugagani: ikki tayyor gapdan biri, sanoq soʻz bilan.

Beqaror oʻqitish turli protsessorlarda turlicha tugaydi: bir xil seed bir mashinada
vazifani yechadi, boshqasida yecha olmaydi.  Bobning gaplarini muallif yozadi, kod faqat
sonni qoʻyadi; natijaning ikki halol oʻqilishi boʻlsa (hech bir seedda yecha olmadi /
N seeddan K tasida yechdi), ``yechdi_gapi`` ikkisidan birini tanlaydi.  Testlar glue
qilingan gap glue qilingan aniqliklardan chiqadigan gapning aynan oʻzi ekanini
tekshiradi.

Faqat 10 gacha boʻlgan sanoqlar soʻz bilan yoziladi (bob koʻpi bilan bir necha seed bilan
oʻqitadi); undan kattasi ``ValueError`` bilan rad etiladi.
"""

from __future__ import annotations


#: 1..10 in words, with the forms a count takes: "uch seeddan", "uchtasida", "uchala seedda".
_SON = {1: "bir", 2: "ikki", 3: "uch", 4: "toʻrt", 5: "besh", 6: "olti", 7: "yetti",
        8: "sakkiz", 9: "toʻqqiz", 10: "oʻn"}
_TA = {1: "bitta", 2: "ikkita", 3: "uchta", 4: "toʻrtta", 5: "beshta", 6: "oltita",
       7: "yettita", 8: "sakkizta", 9: "toʻqqizta", 10: "oʻnta"}
_JAMI = {2: "ikkala", 3: "uchala", 4: "toʻrtala", 5: "beshala", 6: "oltala", 7: "yettala",
         8: "sakkizala", 9: "toʻqqizala", 10: "oʻnala"}

#: what each kind of ending is called in a sentence, in the order sentences name them
HOLATLAR = ("yechdi", "qisman", "tasodifiy")
_FEL = {"yechdi": "vazifani yechdi",
        "qisman": "qisman oʻrgandi",
        "tasodifiy": "tasodifiy taxmin darajasida qoldi"}


def _tekshir_son(k: int, eng_kichik: int = 1) -> int:
    if not isinstance(k, int) or isinstance(k, bool) or not eng_kichik <= k <= 10:
        raise ValueError(f"a count from {eng_kichik} to 10 is written in words, got {k!r}")
    return k


def nechta(k: int) -> str:
    """3 -> "uch" (otdan oldin keladigan sanoq: "uch seed")."""
    return _SON[_tekshir_son(k)]


def nechtasida(k: int) -> str:
    """2 -> "ikkitasida"; 0 -> "hech birida" (undan keyin boʻlishsiz feʼl kerak)."""
    return "hech birida" if k == 0 else _TA[_tekshir_son(k)] + "sida"


def hammasida(n: int) -> str:
    """3 -> "uchala seedda ham"; 1 -> "yagona seedda"."""
    return "yagona seedda" if _tekshir_son(n) == 1 else f"{_JAMI[n]} seedda ham"


def yechdi_gapi(k: int, n: int) -> str:
    """Vazifani n seeddan k tasida yechgan model haqida ikki tayyor gapdan biri (gap
    "Model vazifani …" dan keyin keladi): (3, 5) -> "besh seeddan uchtasida yechdi",
    (5, 5) -> "beshala seedda ham yechdi", (0, 5) -> "besh seedning hech birida yecha
    olmadi"."""
    if k == 0:
        return f"{nechta(_tekshir_son(n))} seedning hech birida yecha olmadi"
    return f"{seeddan(k, n)} yechdi"


def seeddan(k: int, n: int) -> str:
    """(2, 3) -> "uch seeddan ikkitasida"; (3, 3) -> "uchala seedda ham".

    k = 0 rad etiladi: "uch seeddan hech birida" dan keyin boʻlishsiz feʼl kerak,
    shu funksiya asosida tuziladigan gaplarda ("… vazifani yechdi") esa u yoʻq.
    """
    _tekshir_son(n)
    if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= n:
        raise ValueError(f"k must be a whole number from 1 to n = {n}, got {k!r} "
                         "(for none, write the negative sentence yourself)")
    return hammasida(n) if k == n else f"{nechta(n)} seeddan {nechtasida(k)}"
