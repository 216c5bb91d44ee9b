"""How trainings over several seeds ended, said in Uzbek from the measured numbers.

A training that is unstable ends differently on different CPUs: the same seed
solved the task on one machine and stayed at chance on another (the chapter's
default-initialised LSTM did).  So no sentence of the chapter states an outcome
typed in advance.  ``Seedlar`` takes a model's test accuracy on each seed,
sorts the seeds into solved (at least ``yechdi_chegara``), at chance (below
``tasodif_chegara``) and in between, and writes the sentence that says so:
"uch seeddan ikkitasida vazifani yechdi, bittasida esa tasodifiy taxmin
darajasida qoldi".  The chapter glues those sentences; the tests check that
each glued sentence is the one the glued accuracies give.

Only counts up to ten are written in words (the chapter trains at most a few
seeds); more is refused with a ``ValueError``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from chapter_code.raqam import son

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
    """3 -> "uch" (a count before a noun: "uch seed")."""
    return _SON[_tekshir_son(k)]


def nechtasida(k: int) -> str:
    """2 -> "ikkitasida" ("in two of them"); 0 -> "hech birida" (which needs a negative verb)."""
    return "hech birida" if k == 0 else _TA[_tekshir_son(k)] + "sida"


def hammasida(n: int) -> str:
    """3 -> "uchala seedda ham" ("on all three seeds"); 1 -> "yagona seedda"."""
    return "yagona seedda" if _tekshir_son(n) == 1 else f"{_JAMI[n]} seedda ham"


def seeddan(k: int, n: int) -> str:
    """(2, 3) -> "uch seeddan ikkitasida"; (3, 3) -> "uchala seedda ham".

    k = 0 is refused: "uch seeddan hech birida" needs a negative verb, which
    the sentences built on this ("… vazifani yechdi") do not have.
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
    """A model's test accuracy on each seed (``{seed: accuracy}``), sorted by how it ended.

    ``yechdi_chegara``: from this accuracy on, the seed solved the task;
    ``tasodif_chegara``: below it, the seed stayed at chance (0.5 on a
    balanced two-class task; with 600 test samples one accuracy has a
    standard error of about 0.02, so 0.6 is five of them above chance).
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
        """The seeds that ended as ``holat`` ("yechdi", "qisman" or "tasodifiy"), in order."""
        if holat not in HOLATLAR:
            raise ValueError(f"holat must be one of {HOLATLAR}, got {holat!r}")
        return tuple(s for s in sorted(self.aniqlik) if self._holat[s] == holat)

    def soni(self, holat: str) -> int:
        return len(self.seedlari(holat))

    @property
    def aralashmi(self) -> bool:
        """True when the seeds did not all end the same way (some solved, some not)."""
        return sum(self.soni(h) > 0 for h in HOLATLAR) > 1

    @property
    def eng_yomon(self) -> int:
        """The seed with the lowest accuracy (the first such seed on a tie)."""
        return min(sorted(self.aniqlik), key=self.aniqlik.__getitem__)

    @property
    def eng_yaxshi(self) -> int:
        return max(sorted(self.aniqlik), key=self.aniqlik.__getitem__)

    @property
    def farq(self) -> float:
        """Best seed's accuracy minus the worst's."""
        return self.aniqlik[self.eng_yaxshi] - self.aniqlik[self.eng_yomon]

    def farq_xatosi(self, n_sinov: int) -> float:
        """Standard error of the best-minus-worst difference on ``n_sinov`` test samples."""
        if not isinstance(n_sinov, int) or n_sinov < 1:
            raise ValueError(f"n_sinov must be a positive whole number, got {n_sinov!r}")
        return math.sqrt(sum(p * (1 - p) for p in (self.aniqlik[self.eng_yaxshi],
                                                   self.aniqlik[self.eng_yomon])) / n_sinov)

    # ---- sentences ----------------------------------------------------------
    def jumla(self) -> str:
        """How the seeds ended: "uchala seedda ham vazifani yechdi" or
        "uch seeddan ikkitasida vazifani yechdi, bittasida esa tasodifiy taxmin darajasida qoldi"."""
        guruhlar = [(h, self.soni(h)) for h in HOLATLAR if self.soni(h)]
        if len(guruhlar) == 1:
            return f"{hammasida(self.n)} {_FEL[guruhlar[0][0]]}"
        qismlar = [f"{seeddan(guruhlar[0][1], self.n)} {_FEL[guruhlar[0][0]]}"]
        for i, (h, k) in enumerate(guruhlar[1:], 1):
            esa = " esa" if i == len(guruhlar) - 1 else ""
            qismlar.append(f"{nechtasida(k)}{esa} {_FEL[h]}")
        return ", ".join(qismlar)

    def qiymatlar(self, spec: str = ".3f") -> str:
        """Every seed's accuracy: "seed 0, 1, 2: 0,472; 0,988; 0,997"."""
        seedlar = sorted(self.aniqlik)
        return (f"seed {', '.join(map(str, seedlar))}: "
                + "; ".join(son(self.aniqlik[s], spec) for s in seedlar))

    def eng_yomoni(self, spec: str = ".3f") -> str:
        """The worst seed named with its accuracy: "eng yomoni — seed 0: 0,828"."""
        return f"eng yomoni — seed {self.eng_yomon}: {son(self.aniqlik[self.eng_yomon], spec)}"
