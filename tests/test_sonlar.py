"""Numbers in Uzbek words: the words, their digits, the vocabularies, the data and decoding.

Everything here is fast: words and alignments are checked against hand-written
expectations and an independent word -> number parser written in this file;
greedy decoding and the alignment measure are checked with stand-in models
whose answers are known; the only training is a few steps of a tiny model.
"""

import random

import pytest
import torch
import torch.nn as nn

from chapter_code import sonlar
from chapter_code.sonlar import (BOSH, MANBA, MAQSAD, OXIR, PAD, dekodla, javob, manba_kodla,
                                 manba_soz, maqsad_kodla, muvofiqlik, oqit_tarjimon, soz_bilan,
                                 sonlar_toplami)

# written out by hand, not taken from the module
BIRLAR = {"bir": 1, "ikki": 2, "uch": 3, "toʻrt": 4, "besh": 5, "olti": 6, "yetti": 7,
          "sakkiz": 8, "toʻqqiz": 9}
ONLAR = {"oʻn": 10, "yigirma": 20, "oʻttiz": 30, "qirq": 40, "ellik": 50, "oltmish": 60,
         "yetmish": 70, "sakson": 80, "toʻqson": 90}

MALUM = {
    1: "bir",
    10: "oʻn",
    11: "oʻn bir",
    20: "yigirma",
    99: "toʻqson toʻqqiz",
    100: "bir yuz",
    101: "bir yuz bir",
    110: "bir yuz oʻn",
    999: "toʻqqiz yuz toʻqson toʻqqiz",
    1000: "bir ming",
    1001: "bir ming bir",
    2010: "ikki ming oʻn",
    10_000: "oʻn ming",
    12_345: "oʻn ikki ming uch yuz qirq besh",
    40_060: "qirq ming oltmish",
    100_000: "bir yuz ming",
    110_000: "bir yuz oʻn ming",
    347_205: "uch yuz qirq yetti ming ikki yuz besh",
    505_050: "besh yuz besh ming ellik",
    999_999: "toʻqqiz yuz toʻqson toʻqqiz ming toʻqqiz yuz toʻqson toʻqqiz",
}


def oqi(matn):
    """An independent parser: Uzbek number words -> the number (strict about the grammar)."""
    jami, guruh, yuzli = 0, 0, False
    for soz in matn.split(" "):
        if soz == "ming":
            assert 0 < guruh < 1000 and jami == 0, matn
            jami, guruh, yuzli = guruh * 1000, 0, False
        elif soz == "yuz":
            assert 1 <= guruh <= 9 and not yuzli, matn     # "yuz" only after a units word
            guruh, yuzli = guruh * 100, True
        elif soz in ONLAR:
            assert guruh % 100 == 0, matn                   # tens before units, once per group
            guruh += ONLAR[soz]
        else:
            assert guruh % 10 == 0, matn                    # one units word per place
            guruh += BIRLAR[soz]
    return jami + guruh


@pytest.mark.parametrize("n, kutilgan", MALUM.items())
def test_known_numbers_in_words(n, kutilgan):
    assert soz_bilan(n) == kutilgan
    assert oqi(kutilgan) == n


def _namunalar():
    """1..3000 in full, every 997th number, and 5000 random ones: a second's worth."""
    tasodif = random.Random(0)
    return sorted(set(range(1, 3001)) | set(range(1, 1_000_000, 997))
                  | {tasodif.randint(1, 999_999) for _ in range(5000)} | {999_999})


def test_words_read_back_to_the_number():
    for n in _namunalar():
        matn = soz_bilan(n)
        assert matn == " ".join(matn.split()), matn        # single spaces, no ends
        assert oqi(matn) == n, (n, matn)


def test_every_nonzero_digit_has_a_word_of_its_own():
    for n in _namunalar():
        raqamli = [s for s in soz_bilan(n).split() if s not in ("yuz", "ming")]
        assert len(raqamli) == sum(r != "0" for r in str(n)), n


def test_vocabularies():
    assert MANBA[PAD] == "<pad>" and MAQSAD[PAD] == "<pad>"
    assert set(MANBA[1:]) == set(BIRLAR) | set(ONLAR) | {"yuz", "ming"}
    assert len(MANBA) == len(set(MANBA)) == 21
    assert len({PAD, BOSH, OXIR}) == 3 and not (MAQSAD[BOSH] + MAQSAD[OXIR]).isdigit()
    assert sorted(t for t in MAQSAD if t.isdigit()) == list("0123456789")
    assert len(MAQSAD) == len(set(MAQSAD)) == 13
    # every word is used by some number, and the words use the official ʻ (U+02BB)
    ishlatilgan = {s for n in _namunalar() for s in soz_bilan(n).split()}
    assert ishlatilgan == set(MANBA[1:])
    assert not any(c in t for t in MANBA for c in "'\u2018\u2019`\u02bc")


@pytest.mark.parametrize("n, kutilgan", [
    (1, [0]),
    (10, [0, None]),                             # oʻn: the 1 is the tens word's, 0 has none
    (100, [0, None, None]),                      # bir yuz
    (1001, [0, None, None, 2]),                  # bir ming bir
    (12_345, [0, 1, 3, 5, 6]),                   # oʻn ikki ming uch yuz qirq besh
    (110_000, [0, 2, None, None, None, None]),   # bir yuz oʻn ming
    (347_205, [0, 2, 3, 5, None, 7]),            # uch yuz qirq yetti ming ikki yuz besh
    (505_050, [0, None, 2, None, 4, None]),      # besh yuz besh ming ellik
    (999_999, [0, 2, 3, 5, 7, 8]),
])
def test_manba_soz_known(n, kutilgan):
    assert manba_soz(n) == kutilgan


def test_manba_soz_points_at_the_word_of_each_digit():
    for n in _namunalar()[::3]:
        sozlar, raqamlar = soz_bilan(n).split(), str(n)
        indekslar = manba_soz(n)
        assert len(indekslar) == len(raqamlar)
        for joy, (r, i) in enumerate(zip(raqamlar, indekslar)):
            if r == "0":
                assert i is None
                continue
            xona = len(raqamlar) - 1 - joy           # 0 birlar, 1 oʻnlar, 2 yuzlar, 3 minglar...
            qiymat = ONLAR if xona % 3 == 1 else BIRLAR
            assert qiymat[sozlar[i]] == int(r) * (10 if xona % 3 == 1 else 1), (n, joy)
            if xona % 3 == 2:                        # hundreds: "<digit> yuz"
                assert sozlar[i + 1] == "yuz"
        ishlatilgan = [i for i in indekslar if i is not None]
        assert ishlatilgan == sorted(set(ishlatilgan))


@pytest.mark.parametrize("yomon", [0, -5, 1_000_000, 1.5, 12.0, "12", True, None])
def test_bad_input_names_the_range(yomon):
    with pytest.raises(ValueError, match="1 dan 999\u202f999 gacha"):
        soz_bilan(yomon)


def test_encoding_round_trip():
    royxat = [7, 100, 347_205, 10, 999_999, 1001]
    manba = manba_kodla(royxat)
    assert manba.dtype == torch.long and manba.shape == (6, 9)
    for qator, n in zip(manba.tolist(), royxat):
        sozlar = [MANBA[t] for t in qator if t != PAD]
        assert " ".join(sozlar) == soz_bilan(n)
        assert qator[len(sozlar):] == [PAD] * (len(qator) - len(sozlar))   # pad only at the end
    kirish, chiqish = maqsad_kodla(royxat)
    assert kirish.shape == chiqish.shape == (6, 7)
    assert dekodla(chiqish) == [str(n) for n in royxat]
    for k, c, n in zip(kirish.tolist(), chiqish.tolist(), royxat):
        L = len(str(n))
        assert k[0] == BOSH and k[1:L + 1] == c[:L] and c[L] == OXIR   # one step ahead
        assert k[L + 1:] == c[L + 1:] == [PAD] * (6 - L)


def test_decoding_stops_at_the_end_token():
    r = {str(i): MAQSAD.index(str(i)) for i in range(10)}
    tokenlar = torch.tensor([[r["4"], r["2"], OXIR, r["9"]],
                             [r["0"], r["7"], r["7"], r["1"]],
                             [OXIR, r["5"], PAD, PAD]])
    assert dekodla(tokenlar) == ["42", "0771", ""]


def test_held_out_numbers_never_occur_in_training():
    oquv, sinov = sonlar_toplami(0, 10_000, 1000)
    assert len(sinov) == len(set(sinov)) == 1000
    assert not set(oquv) & set(sinov)
    assert 9_900 <= len(oquv) <= 10_000
    assert all(1 <= s <= 999_999 for s in oquv + sinov)
    assert {len(str(s)) for s in oquv} == {1, 2, 3, 4, 5, 6}     # short numbers are trained too
    assert sonlar_toplami(0, 10_000, 1000) == (oquv, sinov)
    assert sonlar_toplami(1, 10_000, 1000)[1] != sinov


class _Bilguvchi(nn.Module):
    """A stand-in decoder that knows the answer: it reads the words with `oqi`.

    After the digits it says <oxir>, then keeps saying 7 (which ``javob`` must
    drop); with ``tugatmaydi`` it never says <oxir>.
    """

    def __init__(self, tugatmaydi=False):
        super().__init__()
        self.tugatmaydi = tugatmaydi

    def forward(self, manba, maqsad):
        ballar = torch.zeros(*maqsad.shape, len(MAQSAD))
        for b, qator in enumerate(manba.tolist()):
            raqamlar = str(oqi(" ".join(MANBA[t] for t in qator if t != PAD)))
            for t in range(maqsad.shape[1]):
                if self.tugatmaydi or t > len(raqamlar):
                    keyingi = "7"
                elif t == len(raqamlar):
                    keyingi = "<oxir>"
                else:
                    keyingi = raqamlar[t]
                ballar[b, t, MAQSAD.index(keyingi)] = 1.0
        return ballar


def test_greedy_decoding_with_a_model_that_knows_the_answer():
    royxat = [5, 347_205, 100, 999_999, 40_060]
    assert javob(_Bilguvchi(), royxat) == [str(n) for n in royxat]
    assert javob(_Bilguvchi(tugatmaydi=True), royxat) == ["7" * 7] * len(royxat)


class _Qaragan(nn.Module):
    """A stand-in with one decoder layer whose cross-attention is given: on the
    producing word (``siljish=0``) or on the next word, the last one on the
    first (``siljish=1``)."""

    def __init__(self, siljish, boshlar=2):
        super().__init__()
        self.siljish, self.boshlar = siljish, boshlar
        blok = nn.Module()
        blok.cross = nn.Module()
        self.dekoder = nn.ModuleList([blok])

    def forward(self, manba, maqsad):
        B, Tm = manba.shape
        w = torch.full((B, self.boshlar, maqsad.shape[1], Tm), 0.01)
        for b, qator in enumerate(manba.tolist()):
            sozlar = [MANBA[t] for t in qator if t != PAD]
            for t, i in enumerate(manba_soz(oqi(" ".join(sozlar)))):
                w[b, :, t, ((i or 0) + self.siljish) % len(sozlar)] = 1.0   # a zero looks at word 0
        self.dekoder[0].cross.ogirlik = w
        return torch.zeros(B, maqsad.shape[1], len(MAQSAD))


def test_alignment_of_a_real_model_has_a_row_per_layer_and_a_column_per_head_and_the_mean():
    torch.manual_seed(0)
    model = sonlar.Tarjimon(len(MANBA), len(MAQSAD), d=16, boshlar=2, qatlamlar=2, pad=PAD)
    royxat = [347_205, 9, 100_000]
    w = sonlar.kesishgan_ogirlik(model, royxat)
    assert w.shape == (2, 3, 2, 7, 8)                  # layers, numbers, heads, digits + 1, words
    ulush = muvofiqlik(model, royxat)
    assert ulush.shape == (2, 3) and ((ulush >= 0) & (ulush <= 1)).all()


def test_alignment_measure():
    royxat = [347_205, 12_345, 505_050, 17, 100_001]     # two words or more
    tola = muvofiqlik(_Qaragan(0), royxat)
    assert tola.shape == (1, 3) and torch.equal(tola, torch.ones(1, 3))
    assert torch.equal(muvofiqlik(_Qaragan(1), royxat), torch.zeros(1, 3))


KICHIK = dict(d=16, boshlar=2, qatlamlar=1, qadamlar=5, n=200, n_sinov=20, batch=16)


def _teng(a, b):
    assert a[0] == b[0]
    sa, sb = a[1].state_dict(), b[1].state_dict()
    assert sa.keys() == sb.keys() and sa
    assert all(torch.equal(sa[k], sb[k]) for k in sa)


def test_tiny_training_is_deterministic_and_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("KITOB_OMBORSIZ", "1")
    iplar = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        birinchi = oqit_tarjimon(3, **KICHIK)
        _teng(birinchi, oqit_tarjimon(3, **KICHIK))
        ikkinchi = oqit_tarjimon(4, **KICHIK)
        sa, sb = birinchi[1].state_dict(), ikkinchi[1].state_dict()
        assert not all(torch.equal(sa[k], sb[k]) for k in sa)
        # kept: the second call comes from the store, with the model's own sizes
        monkeypatch.setenv("KITOB_OMBORSIZ", "0")
        monkeypatch.setenv("KITOB_OMBOR", str(tmp_path))
        assert oqit_tarjimon.ombordan(3, **KICHIK) is None
        _teng(birinchi, oqit_tarjimon(3, **KICHIK))
        monkeypatch.setattr(sonlar, "sonlar_toplami", None)       # would fail if it trained
        kept = oqit_tarjimon(3, **KICHIK)
        _teng(birinchi, kept)
        assert not kept[1].training and kept[1].emb_manba.embedding_dim == 16
        assert kept[1].koder[0].attn.boshlar == 2 and len(kept[1].dekoder) == 1
        manba, (kirish, _) = manba_kodla([347_205, 12]), maqsad_kodla([347_205, 12])
        with torch.no_grad():
            assert torch.equal(kept[1](manba, kirish), birinchi[1](manba, kirish))
    finally:
        torch.set_num_threads(iplar)


def test_where_the_weight_goes():
    royxat = [347_205, 12_345, 505_050, 17, 100_001]
    oz = sonlar.ogirlik_qayerda(_Qaragan(0), royxat)         # weight 1 on the own word, 0.01 elsewhere
    assert oz.shape == (1, 3, 3)
    assert (oz[..., 0] == 1).all() and (oz[..., 1:] < 0.1).all()
    boshqa = sonlar.ogirlik_qayerda(_Qaragan(1), royxat)     # the next word: never the own one
    assert (boshqa[..., 0] < 0.1).all() and (boshqa[..., 1:].sum(-1) > 0.9).all()
    torch.manual_seed(0)                                     # softmax weights: the three shares make 1
    model = sonlar.Tarjimon(len(MANBA), len(MAQSAD), d=16, boshlar=2, qatlamlar=2, pad=PAD)
    ulush = sonlar.ogirlik_qayerda(model, royxat)
    assert ulush.shape == (2, 3, 3) and torch.allclose(ulush.sum(-1), torch.ones(2, 3), atol=1e-5)
    nol = sonlar.ogirlik_qayerda(model, royxat, nollar=True)     # zeros: no word of their own
    assert (nol[..., 0] == 0).all() and torch.allclose(nol.sum(-1), torch.ones(2, 3), atol=1e-5)
    assert not torch.allclose(nol, ulush)


def test_a_held_out_pattern_leaves_training_and_only_training(monkeypatch):
    monkeypatch.setenv("KITOB_OMBORSIZ", "1")
    korilgan = []
    asl = sonlar.manba_kodla
    monkeypatch.setattr(sonlar, "manba_kodla", lambda s: korilgan.append(list(s)) or asl(s))
    oqit_tarjimon(5, **KICHIK, tashla="0")
    oquv, sinov = sonlar.sonlar_toplami(5, KICHIK["n"], KICHIK["n_sinov"])
    assert korilgan[0] == [s for s in oquv if "0" not in str(s)] and len(korilgan[0]) < len(oquv)
    assert korilgan[1] == sinov                          # the test numbers are the same ones
    assert any("0" in str(s) for s in sinov)
    for yomon in ("a0", 0, ""):
        with pytest.raises(ValueError, match="tashla must be a string of digits such as '00'"):
            oqit_tarjimon(5, **KICHIK, tashla=yomon)


@pytest.mark.parametrize("h_kv, oyna", [(2, None), (1, 2)], ids=["MHA", "MQA-window2"])
def test_greedy_decoding_with_a_cache_writes_what_it_writes_without(h_kv, oyna):
    torch.manual_seed(3)          # an untrained model that writes answers of several lengths
    model = sonlar.Tarjimon(len(MANBA), len(MAQSAD), d=16, boshlar=2, qatlamlar=2, pad=PAD,
                            kv_boshlar=h_kv, oyna=oyna)
    royxat = [347_205, 9, 100_000, 40_060, 999_999]
    keshlar = []
    assert javob(model, royxat, keshlar=keshlar) == javob(model, royxat)
    # the answers were written token by token
    assert len(keshlar) == 2 and all(k["soni"] > 2 for k in keshlar)
    saqlangan = {k["k"].shape[2] for k in keshlar}
    assert saqlangan == {keshlar[0]["soni"] if oyna is None else oyna}


def _tarjimon(seed=0):
    from chapter_code.modellar import Tarjimon

    torch.manual_seed(seed)
    return Tarjimon(len(MANBA), len(MAQSAD), d=16, boshlar=4, qatlamlar=2).eval()


@pytest.mark.parametrize("n", [347_205, 12, 100_000])
def test_every_weight_of_the_map_is_the_models_at_the_step_that_wrote_its_token(n):
    """hamma_ogirliklar: the decoder's input is what greedy decoding chose, every position's
    weights are those of the step that wrote the next token (a pass over the prefix only),
    encoder weights are the encoder's, and the last 'head' is the heads' mean; hundredths."""
    model = _tarjimon()
    x = sonlar.hamma_ogirliklar(model, n)
    y = javob(model, [n], tokenlar=True)
    assert x["kirish"] == [MAQSAD[t] for t in y[0, :-1].tolist()]
    assert x["chiqish"] == [MAQSAD[t] for t in y[0, 1:].tolist()]
    assert x["javob"] == javob(model, [n])[0] and x["sozlar"] == soz_bilan(n).split()
    manba = manba_kodla([n])
    with torch.no_grad():
        for t in range(y.shape[1] - 1):
            ballar = model(manba, y[:, : t + 1])      # the step that chose token t + 1
            assert int(ballar[0, -1].argmax()) == int(y[0, t + 1])
            for q, blok in enumerate(model.dekoder):
                for tur, w in (("cross", blok.cross.ogirlik), ("dekoder", blok.attn.ogirlik)):
                    kutilgan = torch.cat([w[0, :, -1], w[0, :, -1].mean(0, keepdim=True)])
                    olingan = torch.tensor([x[tur][q][b][t][: w.shape[-1]] for b in range(5)])
                    assert torch.equal(olingan, (kutilgan * 100).round().int()), (tur, q, t)
        for q, blok in enumerate(model.koder):
            w = blok.attn.ogirlik[0]
            assert x["koder"][q] == (torch.cat([w, w.mean(0, keepdim=True)]) * 100).round().int().tolist()
    # the decoder never looks ahead: its weights on later tokens are 0
    for q in x["dekoder"]:
        for w in q:
            assert all(v == 0 for t, qator in enumerate(w) for v in qator[t + 1:])


def test_the_map_of_a_wrong_answer_keeps_what_the_model_wrote():
    """A model that writes a wrong number: the map's tokens are the model's, not the truth."""
    model = _tarjimon(seed=3)
    n = 347_205
    x = sonlar.hamma_ogirliklar(model, n)
    assert x["javob"] != str(n)
    assert "".join(t for t in x["kirish"][1:] if t.isdigit()).startswith(x["javob"])
