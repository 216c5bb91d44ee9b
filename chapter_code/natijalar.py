"""Bir necha seed bilan oʻqitish qanday tugagani — oʻlchangan sonlardan tuzilgan oʻzbekcha gap.

Beqaror oʻqitish turli protsessorlarda turlicha tugaydi: bir xil seed bir mashinada
vazifani yechdi, boshqasida esa tasodifiy taxmin darajasida qoldi (bobdagi standart
boshlanishli LSTM shunday boʻldi).  Shuning uchun bobdagi birorta gap natijani oldindan
yozib qoʻymaydi.  ``Seedlar`` modelning har seeddagi sinov aniqligini oladi, seedlarni
yechganlar (aniqligi kamida ``yechdi_chegara``), tasodifiy darajada qolganlar
(``tasodif_chegara`` dan past) va oraliqdagilarga ajratadi hamda buni aytadigan gapni
yozadi: "uch seeddan ikkitasida vazifani yechdi, bittasida esa tasodifiy taxmin
darajasida qoldi".  Bob shu gaplarni glue qiladi; testlar esa glue qilingan har gap glue
qilingan aniqliklardan chiqadigan gapning aynan oʻzi ekanini tekshiradi.

Faqat 10 gacha boʻlgan sanoqlar soʻz bilan yoziladi (bob koʻpi bilan bir necha seed bilan
oʻqitadi); undan kattasi ``ValueError`` bilan rad etiladi.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from chapter_code.bichim import son

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


def seedlar_royxati(seedlar) -> str:
    """(0, 1, 2) -> "0, 1 va 2"; (3,) -> "3"."""
    s = [str(x) for x in seedlar]
    return s[0] if len(s) == 1 else ", ".join(s[:-1]) + " va " + s[-1]


@dataclass(frozen=True)
class Seedlar:
    """Modelning har seeddagi sinov aniqligi (``{seed: accuracy}``), qanday tugaganiga qarab.

    ``yechdi_chegara``: aniqlik shundan boshlab boʻlsa, seed vazifani yechgan;
    ``tasodif_chegara``: aniqlik undan past boʻlsa, seed tasodifiy taxmin darajasida
    qolgan (muvozanatli ikki sinfli vazifada tasodifiy taxmin 0,5 beradi; 600 ta sinov
    namunasida bitta aniqlikning standart xatosi taxminan 0,02, demak 0,6 tasodifdan
    besh standart xato yuqori).
    """

    aniqlik: dict
    yechdi_chegara: float = 0.9
    tasodif_chegara: float = 0.6
    _holat: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        if not isinstance(self.aniqlik, dict) or not self.aniqlik:
            raise ValueError(f"aniqlik must be a non-empty dict {{seed: accuracy}}, got {self.aniqlik!r}")
        _tekshir_son(len(self.aniqlik))
        for s, a in self.aniqlik.items():
            if not isinstance(s, int) or isinstance(a, bool) or not isinstance(a, (int, float)) \
                    or not 0 <= a <= 1:
                raise ValueError(f"each seed must be a whole number and each accuracy a number "
                                 f"from 0 to 1, got seed {s!r}: {a!r}")
        if not 0 < self.tasodif_chegara <= self.yechdi_chegara <= 1:
            raise ValueError("need 0 < tasodif_chegara <= yechdi_chegara <= 1, got "
                             f"{self.tasodif_chegara!r} and {self.yechdi_chegara!r}")
        holat = {s: "yechdi" if a >= self.yechdi_chegara else
                 "tasodifiy" if a < self.tasodif_chegara else "qisman"
                 for s, a in self.aniqlik.items()}
        object.__setattr__(self, "_holat", holat)

    # ---- counts -------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.aniqlik)

    def seedlari(self, holat: str) -> tuple:
        """``holat`` bilan tugagan seedlar ("yechdi", "qisman" yoki "tasodifiy"), tartib bilan."""
        if holat not in HOLATLAR:
            raise ValueError(f"holat must be one of {HOLATLAR}, got {holat!r}")
        return tuple(s for s in sorted(self.aniqlik) if self._holat[s] == holat)

    def soni(self, holat: str) -> int:
        return len(self.seedlari(holat))

    @property
    def aralashmi(self) -> bool:
        """Seedlar bir xil tugamagan boʻlsa (baʼzilari yechgan, baʼzilari yoʻq), True."""
        return sum(self.soni(h) > 0 for h in HOLATLAR) > 1

    @property
    def eng_yomon(self) -> int:
        """Aniqligi eng past seed (tenglik boʻlsa, shunday seedlarning birinchisi)."""
        return min(sorted(self.aniqlik), key=self.aniqlik.__getitem__)

    @property
    def eng_yaxshi(self) -> int:
        return max(sorted(self.aniqlik), key=self.aniqlik.__getitem__)

    @property
    def farq(self) -> float:
        """Eng yaxshi seed aniqligi bilan eng yomon seed aniqligi orasidagi farq."""
        return self.aniqlik[self.eng_yaxshi] - self.aniqlik[self.eng_yomon]

    def farq_xatosi(self, n_sinov: int) -> float:
        """``n_sinov`` ta sinov namunasida eng yaxshi va eng yomon seed farqining standart xatosi."""
        if not isinstance(n_sinov, int) or n_sinov < 1:
            raise ValueError(f"n_sinov must be a positive whole number, got {n_sinov!r}")
        return math.sqrt(sum(p * (1 - p) for p in (self.aniqlik[self.eng_yaxshi],
                                                   self.aniqlik[self.eng_yomon])) / n_sinov)

    # ---- sentences ----------------------------------------------------------
    def jumla(self) -> str:
        """Seedlar qanday tugagani: "uchala seedda ham vazifani yechdi" yoki "uch seeddan
        ikkitasida vazifani yechdi, bittasida esa tasodifiy taxmin darajasida qoldi"."""
        guruhlar = [(h, self.soni(h)) for h in HOLATLAR if self.soni(h)]
        if len(guruhlar) == 1:
            return f"{hammasida(self.n)} {_FEL[guruhlar[0][0]]}"
        qismlar = [f"{seeddan(guruhlar[0][1], self.n)} {_FEL[guruhlar[0][0]]}"]
        for i, (h, k) in enumerate(guruhlar[1:], 1):
            esa = " esa" if i == len(guruhlar) - 1 else ""
            qismlar.append(f"{nechtasida(k)}{esa} {_FEL[h]}")
        return ", ".join(qismlar)

    def qiymatlar(self, spec: str = ".3f") -> str:
        """Har seedning aniqligi: "seed 0, 1, 2: 0,472; 0,988; 0,997"."""
        seedlar = sorted(self.aniqlik)
        return (f"seed {', '.join(map(str, seedlar))}: "
                + "; ".join(son(self.aniqlik[s], spec) for s in seedlar))

    def eng_yomoni(self, spec: str = ".3f") -> str:
        """Eng yomon seed, aniqligi bilan: "eng yomoni — seed 0: 0,828"; hammasi bir xil
        yozilsa, "har birida 0,993" (bittasini eng yomoni deb atash notoʻgʻri boʻlardi)."""
        yozuvlar = {son(a, spec) for a in self.aniqlik.values()}
        if len(yozuvlar) == 1:
            return f"har birida {yozuvlar.pop()}"
        return f"eng yomoni — seed {self.eng_yomon}: {son(self.aniqlik[self.eng_yomon], spec)}"
