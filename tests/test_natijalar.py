"""chapter_code.natijalar: how seeds ended, said in words; chapter_code.muhit: the arithmetic."""

import pytest

from chapter_code import muhit
from chapter_code.natijalar import hammasida, nechta, nechtasida, seeddan


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


@pytest.mark.parametrize("yomon", [0, 11, -1, 2.0, True, "3"])
def test_counts_outside_one_to_ten_are_refused(yomon):
    with pytest.raises(ValueError, match="from 1 to 10"):
        nechta(yomon)


@pytest.mark.parametrize("k", [4, 0, -1, True])
def test_k_outside_one_to_n_is_refused(k):
    # 0 too: "uch seeddan hech birida" would need a negative verb
    with pytest.raises(ValueError, match="from 1 to n = 3"):
        seeddan(k, 3)


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
