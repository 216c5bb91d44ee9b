"""tools/bogin.py: where an Uzbek word may be broken at a line's end, judged as a reader would.

The wrong splits below are the PDF's own, from when TeX hyphenated Uzbek by English patterns
(``pdftotext -raw`` of the book, lines ending in "-"); the right ones are Uzbek syllable breaks.
"""

import pytest

from bogin import harflar, qator_oxirlari, xato

#: (left part as printed, right part, what the reason says): the PDF's wrong breaks and the rules' cases.
YOMON = [
    ("raqamn", "ing", "vowel starts"),           # a suffix cut off
    ("shun", "ing", "vowel starts"),
    ("soʻrovn", "ing", "vowel starts"),
    ("mis", "olda", "vowel starts"),
    ("mod", "elda", "vowel starts"),
    ("poz", "itsiyalarni", "vowel starts"),
    ("Uch", "inchi", "vowel starts"),
    ("te", "zlatishini", "two consonants"),       # a syllable's onset split
    ("soʻ", "zlar,", "two consonants"),
    ("toʻldiru", "vchi", "two consonants"),
    ("ma", "tritsa", "two consonants"),
    ("qi", "shloq", "two consonants"),
    ("ten", "glashtirish", "ng is one sound"),    # one sound
    ("vazifan", "gizga", "ng is one sound"),
    ("den", "giz", "ng is one sound"),
    ("qis", "hloq", "sh is one letter"),
    ("kuc", "hli", "ch is one letter"),
    ("o", "ʻrganish", "oʻ is one letter"),
    ("tog", "ʻlar", "gʻ is one letter"),
    ("ma", "ʼlumot", "tutuq belgisi"),
    ("i-", "pozitsiyaning", "single letter"),     # one letter on a line
    ("oʻ-", "tadi.", "single letter"),
    ("a", "ka", "single letter"),
    ("eʼ", "tibor", "single letter"),
    ("LST", "Mda", "abbreviation"),               # abbreviations, names in capitals
    ("Pre-", "LNda", "abbreviation"),
    ("Py-", "Torchda", "abbreviation"),
    ("Kop-", "Boshli", "abbreviation"),
    ("GPT-", "2", "number"),                      # numbers and code
    ("1.2-", "jadvaldagi", "number"),
    ("(37-", "bet)", "number"),
    ("0-", "qadamni", "number"),
    ("Atten-", "tion(60)", "number"),
    ("si-", "nus_pozitsiya", "number"),
    ("oʻz-", "oʻzidan", "vowel starts"),          # an own hyphen where a hyphenation would be wrong
]

#: Breaks an Uzbek reader takes without a pause.
YAXSHI = [
    ("bi", "lan"), ("oʻr", "ganish"), ("mo", "del"), ("model", "lar"), ("bosh", "qa"),
    ("qish", "loq"), ("de", "ngiz"), ("un", "ga"), ("qilin", "gan"), ("maʼ", "lumot"),
    ("tabi", "at"), ("ogʻir", "lik"), ("tort", "ma"), ("Trans", "former"), ("gra", "dient"),
    ("ketma-", "ket"), ("boʻlak-", "boʻlak"), ("koʻpaytirish-qoʻ", "shishlar"),
    ("(na", "muna,"), ("bosh", "langʻich"), ("oʻqi", "tish"),
]


@pytest.mark.parametrize("chap,ong,sabab", YOMON, ids=lambda x: x if isinstance(x, str) else None)
def test_a_wrong_break_is_rejected_with_its_reason(chap, ong, sabab):
    natija = xato(chap, ong)
    assert natija is not None, f"{chap}|{ong} was accepted"
    assert sabab in natija, natija


@pytest.mark.parametrize("chap,ong", YAXSHI)
def test_a_syllable_break_is_accepted(chap, ong):
    assert xato(chap, ong) is None, xato(chap, ong)


def test_digraphs_and_the_tutuq_belgisi_are_one_letter():
    assert harflar("shoʻʼla") == ["sh", "oʻ", "ʼ", "l", "a"]      # ʼ after a consonant stands alone
    assert harflar("maʼlumot") == ["m", "aʼ", "l", "u", "m", "o", "t"]
    assert harflar("Tongda") == ["t", "o", "ng", "d", "a"]
    assert harflar("o‘qish") == ["oʻ", "q", "i", "sh"]             # the look-alike quotation mark


def test_every_line_ending_in_a_hyphen_is_judged():
    matn = ("Bu qator raqamn-\ning bilan tugaydi, bu esa ketma-\nket; oraliq belgi -\n"
            "shu yerda bi-\nlan va GPT-\n2 kabi.\n\nBoʻsh qatordan keyin soʻ-\n\nzlar.\n")
    assert qator_oxirlari(matn) == [
        ("raqamn-", "ing", xato("raqamn", "ing")),
        ("ketma-", "ket;", None),
        ("bi-", "lan", None),
        ("GPT-", "2", xato("GPT-", "2")),
        ("soʻ-", "zlar.", xato("soʻ", "zlar.")),      # blank lines between do not hide a break
    ]
    assert all(y[2] for y in qator_oxirlari(matn) if y[0] in ("raqamn-", "GPT-", "soʻ-"))
