"""chapter_code.natijalar: how seeds ended, said in words; chapter_code.muhit: the arithmetic."""

import pytest

from chapter_code import muhit
from chapter_code.natijalar import Seedlar, hammasida, nechta, nechtasida, seeddan, seedlar_royxati


@pytest.mark.parametrize("k, soz", [(0, "hech birida"), (1, "bittasida"), (2, "ikkitasida"),
                                    (3, "uchtasida"), (4, "toʻrttasida"), (5, "beshtasida"),
                                    (10, "oʻntasida")])
def test_counts_in_words(k, soz):
    assert nechtasida(k) == soz


def test_all_of_n_and_k_of_n():
    assert hammasida(1) == "yagona seedda"
    assert hammasida(2) == "ikkala seedda ham"
    assert hammasida(5) == "beshala seedda ham"
    assert seeddan(3, 3) == "uchala seedda ham"
    assert seeddan(2, 3) == "uch seeddan ikkitasida"
    assert nechta(4) == "toʻrt"
    assert seedlar_royxati((0, 1, 2)) == "0, 1 va 2" and seedlar_royxati((7,)) == "7"


@pytest.mark.parametrize("yomon", [0, 11, -1, 2.0, True, "3"])
def test_counts_outside_one_to_ten_are_refused(yomon):
    with pytest.raises(ValueError, match="from 1 to 10"):
        nechta(yomon)


@pytest.mark.parametrize("k", [4, 0, -1, True])
def test_k_outside_one_to_n_is_refused(k):
    # 0 too: "uch seeddan hech birida" would need a negative verb
    with pytest.raises(ValueError, match="from 1 to n = 3"):
        seeddan(k, 3)


@pytest.mark.parametrize("aniqlik, jumla", [
    ({0: 0.99, 1: 0.995, 2: 0.98}, "uchala seedda ham vazifani yechdi"),
    ({0: 0.49, 1: 0.55, 2: 0.52}, "uchala seedda ham tasodifiy taxmin darajasida qoldi"),
    ({0: 0.472, 1: 0.988, 2: 0.997},
     "uch seeddan ikkitasida vazifani yechdi, bittasida esa tasodifiy taxmin darajasida qoldi"),
    # the forget-bias LSTM on an AMD EPYC: one seed stalled at 0.83
    ({0: 0.828, 1: 1.0, 2: 0.997}, "uch seeddan ikkitasida vazifani yechdi, bittasida esa qisman oʻrgandi"),
    ({0: 0.828, 1: 0.5, 2: 0.997},
     "uch seeddan bittasida vazifani yechdi, bittasida qisman oʻrgandi, "
     "bittasida esa tasodifiy taxmin darajasida qoldi"),
    ({0: 0.7, 1: 0.75}, "ikkala seedda ham qisman oʻrgandi"),
    ({0: 0.3, 1: 0.92, 2: 0.91, 3: 0.95, 4: 0.99},
     "besh seeddan toʻrttasida vazifani yechdi, bittasida esa tasodifiy taxmin darajasida qoldi"),
])
def test_the_sentence_follows_the_counts(aniqlik, jumla):
    assert Seedlar(aniqlik).jumla() == jumla


def test_the_boundaries_are_the_thresholds():
    s = Seedlar({0: 0.9, 1: 0.6, 2: 0.59999})
    assert s.seedlari("yechdi") == (0,) and s.seedlari("qisman") == (1,) and s.seedlari("tasodifiy") == (2,)
    assert Seedlar({0: 0.85}, yechdi_chegara=0.8).soni("yechdi") == 1


def test_worst_seed_values_and_spread():
    s = Seedlar({0: 0.828, 1: 1.0, 2: 0.997})
    assert s.eng_yomon == 0 and s.eng_yaxshi == 1
    assert s.eng_yomoni() == "eng yomoni — seed 0: 0,828"
    # all printed alike: none is called the worst
    assert Seedlar({0: 0.9931, 1: 0.9934, 2: 0.993}).eng_yomoni() == "har birida 0,993"
    assert s.qiymatlar() == "seed 0, 1, 2: 0,828; 1,000; 0,997"
    assert s.farq == pytest.approx(0.172)
    assert s.aralashmi and not Seedlar({0: 0.99, 1: 0.95}).aralashmi
    # sqrt((1·0 + 0.828·0.172) / 600)
    assert s.farq_xatosi(600) == pytest.approx(((0.828 * 0.172) / 600) ** 0.5)
    assert Seedlar({3: 0.5, 1: 0.5}).eng_yomon == 1          # a tie: the first seed


@pytest.mark.parametrize("aniqlik, xabar", [
    ({}, "non-empty dict"), ([0.9], "non-empty dict"),
    ({0: 1.2}, "from 0 to 1"), ({"0": 0.9}, "whole number"), ({0: True}, "from 0 to 1"),
    ({s: 0.9 for s in range(11)}, "from 1 to 10"),
])
def test_bad_accuracies_are_refused_with_what_is_wrong(aniqlik, xabar):
    with pytest.raises(ValueError, match=xabar):
        Seedlar(aniqlik)


def test_bad_thresholds_and_names_are_refused():
    with pytest.raises(ValueError, match="tasodif_chegara <= yechdi_chegara"):
        Seedlar({0: 0.9}, yechdi_chegara=0.5, tasodif_chegara=0.6)
    with pytest.raises(ValueError, match="holat must be one of"):
        Seedlar({0: 0.9}).soni("yaxshi")
    with pytest.raises(ValueError, match="n_sinov"):
        Seedlar({0: 0.9}).farq_xatosi(0)


def test_the_arithmetic_names_the_processor_and_the_overriding_variables(monkeypatch):
    for k in muhit.OZGARUVCHILAR:
        monkeypatch.delenv(k, raising=False)
    asl = muhit.izi()
    nom, belgilar = muhit.protsessor()
    assert nom and asl.startswith(nom)
    assert set(belgilar) <= set(muhit.BELGILAR)
    monkeypatch.setenv("ATEN_CPU_CAPABILITY", "default")
    monkeypatch.setenv("MKL_ENABLE_INSTRUCTIONS", "SSE4_2")
    boshqa = muhit.izi()
    assert boshqa != asl and boshqa.endswith("ATEN_CPU_CAPABILITY=default MKL_ENABLE_INSTRUCTIONS=SSE4_2")
    assert muhit.sozlamalar() == {"ATEN_CPU_CAPABILITY": "default", "MKL_ENABLE_INSTRUCTIONS": "SSE4_2"}


def test_another_arithmetic_is_another_store_key(monkeypatch):
    """A build under ATEN_CPU_CAPABILITY=default must not take the native build's trainings."""
    from functools import partial

    from chapter_code import ombor
    from chapter_code.modellar import Attention
    from chapter_code.oqitish import oqit

    monkeypatch.delenv("ATEN_CPU_CAPABILITY", raising=False)
    asl = ombor.kalit(oqit, (partial(Attention, 60), 60, 0), {})
    monkeypatch.setenv("ATEN_CPU_CAPABILITY", "default")
    assert ombor.kalit(oqit, (partial(Attention, 60), 60, 0), {}) != asl


def test_the_solved_sentence_has_two_prepared_wordings():
    from chapter_code.natijalar import yechdi_gapi
    assert yechdi_gapi(3, 5) == "besh seeddan uchtasida yechdi"
    assert yechdi_gapi(5, 5) == "beshala seedda ham yechdi"
    assert yechdi_gapi(0, 5) == "besh seedning hech birida yecha olmadi"
    with pytest.raises(ValueError):
        yechdi_gapi(6, 5)
