"""Reading back the numbers the book writes: the tests read its tables and glued text with this.

It lives with the tests, not in ``chapter_code/``: a student's archive needs only the writing
side (``chapter_code.bichim``).
"""

import re

_UZBEK_SONI = re.compile(
    r"(?P<ishora>[-+\u2212]?)(?P<butun>\d+(?:\u202f\d{3})*)(?:,(?P<kasr>\d+))?"
    r"(?:·10(?P<daraja>[⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))?(?P<foiz>\u202f%)?"
)
_ODDIY = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def songa(matn: str) -> float:
    """The number a text written by ``chapter_code.bichim.son`` stands for.

    ``'0,22'`` -> 0.22, ``'35 333'`` -> 35333.0, ``'2,8·10⁻⁵'`` -> 2.8e-05,
    ``'61 %'`` -> 0.61, ``'10⁻⁵'`` -> 1e-05, ``'∞'`` -> inf.  Any other text: ``ValueError``.
    """
    s = matn.strip()
    if s in ("∞", "−∞"):
        return float("-inf") if s.startswith("−") else float("inf")
    if s.startswith("10") and s[2:] and all(c in "⁰¹²³⁴⁵⁶⁷⁸⁹⁻" for c in s[2:]):
        return 10.0 ** int(s[2:].translate(_ODDIY))
    m = _UZBEK_SONI.fullmatch(s)
    if m is None:
        raise ValueError(f"{matn!r} is not a number as son() writes it (for example '0,997', '35 333', '2,8·10⁻⁵')")
    qiymat = float(m["butun"].replace("\u202f", "") + ("." + m["kasr"] if m["kasr"] else ""))
    if m["daraja"]:
        qiymat *= 10.0 ** int(m["daraja"].translate(_ODDIY))
    if m["ishora"] in ("-", "\u2212"):
        qiymat = -qiymat
    return qiymat / 100 if m["foiz"] else qiymat
