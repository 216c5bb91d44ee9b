"""Sonlar oʻzbek oʻquvchisi oʻqiydigan shaklda: matn, jadval va rasmlar uchun bitta yordamchi.

Python ``0.997``, ``2.8e-05``, ``35333`` va ``98%`` deb yozadi; oʻzbek darsligi esa
0,997, 2,8·10⁻⁵, 35 333 va 98 % deb yozadi.  Oʻquvchi koddan tashqarida oʻqiydigan har
son :func:`son` orqali oʻtadi:

* kasr vergul: ``son(0.997, ".3f")`` → ``0,997``;
* butun qismi besh va undan koʻp raqamli boʻlsa, minglar ingichka uzilmas boʻshliq
  (U+202F) bilan guruhlanadi (``32 768``; 1024 kabi toʻrt xonali sonlar va yillar, oʻzbek
  va rus tipografiyasidagidek, ajratilmaydi);
* e-yozuv oʻrniga oʻnning darajalari: ``son(2.8e-5, ".1e")`` → ``2,8·10⁻⁵``
  (``1·10⁻⁵`` oʻrniga ``10⁻⁵`` yoziladi);
* foiz belgisi ingichka uzilmas boʻshliqdan keyin: ``son(0.988, ".1%")`` → ``98,8 %``;
* minus belgisi U+2212 (``−0,5``), cheksizlik uchun ``∞``.

Format spetsifikatsiyasi Pythonniki (``".3f"``, ``".1e"``, ``".0%"``, ``"g"``, ``""``):
u faqat nechta raqam boʻlishini aytadi; oʻzbekcha shakl keyin qoʻllanadi.  Sonning oʻzi
hech qachon oʻzgarmaydi, shuning uchun testlar avvalgidek sonlarni solishtiradi.

Kim chaqiradi: glue qilingan qiymatlar (``{glue:text}`nom:.3f```) — yigʻishning
``book/_ext/glue.py`` fayli orqali; jadval kataklari — ``kitob.show`` orqali; rasm
oʻqlaridagi belgilar — ``kitob.fig`` har oʻqqa qoʻyadigan :class:`OzbekFormat` orqali;
bob esa sondan yozuv yoki katak matnini yasagan har joyda.  Kod chiqishi (``print``)
Python yozganicha qoladi.
"""

from __future__ import annotations

import math
import numbers
import re

from matplotlib import ticker

#: narrow no-break space: between digit groups and before "%"
INGICHKA = "\u202f"
MINUS = "\u2212"
_DARAJA = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")

#: a number as Python's format() writes it (sign, digits with optional ","
#: groups, fraction, exponent, percent)
_PYTHON_SONI = re.compile(
    r"(?P<ishora>[-+\u2212]?)(?P<butun>\d[\d,]*)(?:\.(?P<kasr>\d*))?"
    r"(?:[eE](?P<daraja>[-+]?\d+))?(?P<foiz>%?)"
)


def _guruhla(butun: str) -> str:
    """'35333' → '35 333' (besh va undan koʻp raqam boʻlsa); '1024' oʻzgarmaydi."""
    if len(butun) < 5:
        return butun
    boshi = len(butun) % 3 or 3
    guruhlar = [butun[:boshi]] + [butun[i:i + 3] for i in range(boshi, len(butun), 3)]
    return INGICHKA.join(guruhlar)


def _bitta(m: re.Match) -> str:
    ishora = MINUS if m["ishora"] in ("-", MINUS) else m["ishora"]
    butun = _guruhla(m["butun"].replace(",", ""))
    s = butun + ("," + m["kasr"] if m["kasr"] else "")
    if m["daraja"] is not None and int(m["daraja"]) != 0:     # 1,05e+00 is just 1,05
        daraja = str(int(m["daraja"])).translate(_DARAJA)
        s = "10" + daraja if s == "1" else s + "·10" + daraja
    return ishora + s + (INGICHKA + "%" if m["foiz"] else "")


def ozbekcha(matn: str) -> str:
    """Python yozgan son (``'-2.8e-05'``, ``'35,333'``, ``'98.8%'``) oʻzbekcha shaklda.

    Butun matn bitta son boʻlishi kerak (atrofidagi boʻshliqlar tashlab yuboriladi);
    ``'inf'``/``'nan'`` ``∞``/``—`` ga aylanadi.  Boshqa har qanday matn — ``ValueError``.
    """
    s = matn.strip()
    if s.lstrip("+-").lower() in ("inf", "infinity"):
        return (MINUS if s.startswith("-") else "") + "∞"
    if s.lower() == "nan":
        return "—"
    m = _PYTHON_SONI.fullmatch(s)
    if m is None:
        raise ValueError(f"{matn!r} is not a number as Python writes it (for example '0.997', '2.8e-05', '98%')")
    return _bitta(m)


def son(qiymat: numbers.Real, spec: str = "") -> str:
    """``qiymat`` soni Pythonning ``spec`` format spetsifikatsiyasi bilan, oʻzbekcha shaklda.

    >>> son(0.997, ".3f"), son(2.8e-5, ".1e"), son(35333), son(0.988, ".1%")
    ('0,997', '2,8·10⁻⁵', '35\u202f333', '98,8\u202f%')
    """
    if not isinstance(qiymat, numbers.Real) and getattr(qiymat, "ndim", None) == 0:
        qiymat = qiymat.item()          # a one-number tensor or array: torch.tensor(0.5)
    if isinstance(qiymat, bool) or not isinstance(qiymat, numbers.Real):
        raise TypeError(f"son() takes one number (int, float, or a 0-dimensional tensor), "
                        f"got {type(qiymat).__name__} {qiymat!r}")
    if not isinstance(spec, str):
        raise TypeError(f"son(): spec must be a format spec string such as '.3f', got {spec!r}")
    qiymat = qiymat.item() if hasattr(qiymat, "item") else qiymat   # numpy scalar → Python
    try:
        python = format(qiymat, spec)
    except ValueError as xato:
        raise ValueError(f"son({qiymat!r}, {spec!r}): {xato}; use a spec such as '.3f', '.1e', '.0%', 'g' or ''") from None
    try:
        return ozbekcha(python)
    except ValueError:
        raise ValueError(f"son({qiymat!r}, {spec!r}) gave {python!r}, not one number: "
                         "leave width, fill and alignment out of the spec") from None


def foiz(ulush: numbers.Real, xona: int = 0) -> str:
    """Ulushni foizda yozadi: ``foiz(0.5)`` → ``'50 %'``, ``foiz(0.988, 1)`` → ``'98,8 %'``."""
    if isinstance(xona, bool) or not isinstance(xona, int) or xona < 0:
        raise ValueError(f"foiz(): xona is the number of decimals, a whole number ≥ 0; got {xona!r}")
    return son(ulush, f".{xona}%")


def pastga(qiymat: numbers.Real, xona: int = 2) -> float:
    """«Kamida *x*» degan gap uchun: *x* ni ``xona`` ta kasr xonasigacha pastga yaxlitlaydi
    (``pastga(0.946)`` → ``0.94``), shunda yozilgan chegara oʻlchangan qiymatdan oshmaydi
    (oddiy yaxlitlash 0,95 berib, «kamida 0,95» ni notoʻgʻri qilardi)."""
    k = 10**xona
    return math.floor(float(qiymat) * k + 1e-9) / k


def yuqoriga(qiymat: numbers.Real, xona: int = 2) -> float:
    """«Koʻpi bilan *x*» degan gap uchun: *x* ni ``xona`` ta kasr xonasigacha yuqoriga
    yaxlitlaydi (``yuqoriga(0.101)`` → ``0.11``)."""
    k = 10**xona
    return math.ceil(float(qiymat) * k - 1e-9) / k


# --------------------------------------------------------------------------
# figures
# --------------------------------------------------------------------------
_MATHTEXT_KASR = re.compile(r"(?<=\d)\.(?=\d)")


def yorliq(matn: str) -> str:
    """Oʻq belgisining oʻzbekcha shakli: oddiy son qayta yoziladi, mathtextga ``{,}`` va
    ``\\cdot`` qoʻyiladi.

    Son boʻlmagan yozuvlar (turkum nomlari, soʻzlar) oʻzgarishsiz qaytariladi.
    """
    if not matn:
        return matn
    if "$" in matn:   # mathtext, e.g. $\\mathdefault{2\\times10^{-3}}$ or $\\mathdefault{0.5}$
        return _MATHTEXT_KASR.sub("{,}", matn).replace(r"\times", r"\cdot")
    try:
        return ozbekcha(matn)
    except ValueError:
        return matn


class OzbekFormat(ticker.Formatter):
    """matplotlib oʻq belgilari formatlovchisi: boshqa formatlovchining yozuvlari, oʻzbekcha
    shaklda.

    U oʻqning oʻz formatlovchisini (``ScalarFormatter``, ``LogFormatter``...) oʻraydi:
    belgilar qayerda turishini va ularga nechta raqam kerakligini hamon oʻsha hal qiladi;
    har yozuv esa :func:`yorliq` orqali oʻtkaziladi.
    """

    def __init__(self, ichki: ticker.Formatter | None = None) -> None:
        self.ichki = ichki if ichki is not None else ticker.ScalarFormatter()

    def set_axis(self, axis) -> None:
        super().set_axis(axis)
        self.ichki.set_axis(axis)

    def set_locs(self, locs) -> None:
        super().set_locs(locs)
        self.ichki.set_locs(locs)

    def __call__(self, x, pos=None) -> str:
        return yorliq(self.ichki(x, pos))

    def format_ticks(self, values) -> list[str]:
        return [yorliq(s) for s in self.ichki.format_ticks(values)]

    def get_offset(self) -> str:
        return yorliq(self.ichki.get_offset())

    def format_data_short(self, value) -> str:
        return yorliq(self.ichki.format_data_short(value))


def oqlarni_ozbekcha(figura) -> None:
    """``figura`` ning har oʻqiga (rang shkalalariga ham) :class:`OzbekFormat` qoʻyadi;
    qayta chaqirilsa, hech narsa oʻzgarmaydi."""
    for ax in figura.axes:
        for oq in (ax.xaxis, ax.yaxis):
            for olish, qoyish in ((oq.get_major_formatter, oq.set_major_formatter),
                                  (oq.get_minor_formatter, oq.set_minor_formatter)):
                eski = olish()
                if not isinstance(eski, OzbekFormat):
                    qoyish(OzbekFormat(eski))


__all__ = ["son", "foiz", "ozbekcha", "yorliq", "OzbekFormat", "oqlarni_ozbekcha", "INGICHKA", "MINUS"]
