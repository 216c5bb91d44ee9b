"""The models: hand-written attention against references, invariance, shapes, sizes."""

import itertools

import pytest
import torch
import torch.nn.functional as F

from chapter_code.malumot import vazifa
from chapter_code.modellar import Attention, Ketma, TransformerBlok, parametrlar, rope


def _ichki(m, x):
    """Q, K, V of an Attention model for input x, computed from its layers."""
    hh = m.inp(x) + (m.poz if m.poz is not None else 0)
    return m.q(hh), m.k(hh), m.v(hh)


@pytest.mark.parametrize("T, d, seed", list(itertools.product([1, 5, 60], [4, 32], [0, 1])))
def test_attention_equals_softmax_formula_and_torch_sdpa(T, d, seed):
    torch.manual_seed(seed)
    m = Attention(T, d=d)
    x = torch.randn(3, T, 1)
    with torch.no_grad():
        chiqish = m(x)
        Q, K, V = (t.double() for t in _ichki(m, x))
        # independent reference in float64: exp / row sum, no torch.softmax
        ball = torch.einsum("btd,bsd->bts", Q, K) / d ** 0.5
        e = torch.exp(ball - ball.amax(-1, keepdim=True))
        w_ref = e / e.sum(-1, keepdim=True)
        assert torch.allclose(m.ogirlik.double(), w_ref, atol=1e-6)
        sdpa = F.scaled_dot_product_attention(Q, K, V)
        assert torch.allclose((w_ref @ V), sdpa, atol=1e-10)
        assert torch.allclose(chiqish.double(), m.fc.double()(sdpa.mean(1)), atol=1e-5)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_without_positions_attention_ignores_order(seed):
    torch.manual_seed(seed)
    m = Attention(60, pozitsiya=False)
    x, _ = vazifa(8, 60, seed)
    tartib = torch.randperm(60)
    with torch.no_grad():
        assert torch.allclose(m(x), m(x[:, tartib]), atol=1e-5)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_with_positions_attention_sees_order(seed):
    torch.manual_seed(seed)
    m = Attention(60, pozitsiya=True)
    x, _ = vazifa(8, 60, seed)
    with torch.no_grad():
        farq = (m(x) - m(x[:, torch.randperm(60)])).abs().max()
    assert farq > 1e-4


def test_shapes():
    x = torch.randn(5, 60, 1)
    assert Ketma("rnn")(x).shape == (5, 2)
    assert Ketma("lstm")(x).shape == (5, 2)
    m = Attention(60)
    assert m(x).shape == (5, 2)
    assert m.ogirlik.shape == (5, 60, 60)
    assert torch.allclose(m.ogirlik.sum(-1), torch.ones(5, 60))
    assert TransformerBlok()(torch.randn(2, 10, 32)).shape == (2, 10, 32)


@pytest.mark.parametrize("model, soni", [
    (lambda: Ketma("rnn"), 1186),
    (lambda: Ketma("lstm"), 4546),
    (lambda: Attention(60), 5218),
    (lambda: Attention(60, pozitsiya=False), 3298),
    (lambda: TransformerBlok(), 12704),
])
def test_parameter_counts_equal_the_seeds(model, soni):
    assert parametrlar(model()) == soni


def test_ketma_rejects_an_unknown_kind():
    with pytest.raises(ValueError, match="turi faqat 'rnn' yoki 'lstm' boʻladi, berilgani: 'gru'"):
        Ketma("gru")


def test_vazifa_label_is_the_sign_of_the_first_element():
    X, y = vazifa(100, 7, seed=3)
    assert X.shape == (100, 7, 1) and X.dtype == torch.float32
    assert torch.equal(y, (X[:, 0, 0] > 0).long())
    assert 20 < int(y.sum()) < 80


def test_lstm_forget_bias_sets_exactly_the_forget_gate():
    """PyTorch's gate order is input, forget, cell, output; the two bias vectors add up."""
    torch.manual_seed(0)
    m = Ketma("lstm", h=8, unutish=3.0)
    yigindi = m.rnn.bias_ih_l0 + m.rnn.bias_hh_l0
    assert torch.equal(yigindi[8:16], torch.full((8,), 3.0))
    torch.manual_seed(0)
    asl = Ketma("lstm", h=8)
    boshqa = [slice(0, 8), slice(16, 32)]      # input, cell and output gates: untouched
    for q in boshqa:
        assert torch.equal(m.rnn.bias_ih_l0[q], asl.rnn.bias_ih_l0[q])
        assert torch.equal(m.rnn.bias_hh_l0[q], asl.rnn.bias_hh_l0[q])
    # the forget gate starts open: sigmoid(3) of the cell state is kept at an input of 0
    x = torch.zeros(1, 1, 1)
    with torch.no_grad():
        _, (h, c) = m.rnn(x, (torch.zeros(1, 1, 8), torch.ones(1, 1, 8)))
        _, (h0, c0) = m.rnn(x, (torch.zeros(1, 1, 8), torch.zeros(1, 1, 8)))
    assert torch.allclose(c - c0, torch.sigmoid(torch.tensor(3.0)).expand(1, 1, 8), atol=1e-6)


def test_forget_bias_only_for_lstm():
    with pytest.raises(ValueError, match="faqat turi='lstm' da bor"):
        Ketma("rnn", unutish=3.0)


@pytest.mark.parametrize("seed", [0, 1])
def test_rope_score_depends_only_on_the_distance(seed):
    g = torch.Generator().manual_seed(seed)
    q, k = torch.randn(1, 16, generator=g, dtype=torch.float64), torch.randn(1, 16, generator=g, dtype=torch.float64)

    def ball(m, n):
        return (rope(q, boshi=m) @ rope(k, boshi=n).T).item()

    for m, n in [(3, 1), (10, 2), (0, 5)]:
        for siljish in (1, 7, 100):
            assert ball(m + siljish, n + siljish) == pytest.approx(ball(m, n), rel=1e-9, abs=1e-12)
    # and it does depend on the distance, and turns every position but 0
    assert ball(3, 1) != pytest.approx(ball(4, 1))
    assert torch.equal(rope(q, boshi=0), q) and not torch.allclose(rope(q, boshi=1), q)
    # a rotation: lengths are kept
    assert rope(q, boshi=9).norm().item() == pytest.approx(q.norm().item())


def test_rope_rotates_every_row_by_its_own_position():
    x = torch.randn(2, 5, 8)
    birga = rope(x, boshi=3)
    for t in range(5):
        assert torch.allclose(birga[:, t], rope(x[:, t : t + 1], boshi=3 + t)[:, 0])


def test_rope_refuses_an_odd_width():
    with pytest.raises(ValueError, match="d juft boʻlishi kerak, berilgani: d=5"):
        rope(torch.zeros(3, 5))


@pytest.mark.parametrize("seed", [0, 1])
def test_attention_with_rope_turns_queries_and_keys_and_scores_only_the_distance(seed):
    torch.manual_seed(seed)
    m = Attention(12, d=16, pozitsiya="rope")
    x = torch.randn(3, 12, 1)
    with torch.no_grad():
        y = m(x)
        hh = m.inp(x)                              # no vector is added to the input
        Q, K, V = rope(m.q(hh)), rope(m.k(hh)), m.v(hh)
        w = torch.softmax(Q @ K.transpose(1, 2) / 4.0, dim=-1)
        assert torch.allclose(m.ogirlik, w, atol=1e-6)
        assert torch.allclose(y, m.fc((w @ V).mean(1)), atol=1e-6)
        # the same number at every position: the score of query m and key n is a
        # function of m - n, so log-weight differences repeat along every diagonal
        m(torch.full((1, 12, 1), 0.7))
        lw = m.ogirlik[0].double().log()
        nisbiy = lw - lw.diagonal().unsqueeze(1)      # score(m, n) - score(m, m)
        assert torch.allclose(nisbiy[1:, 1:], nisbiy[:-1, :-1], atol=1e-4)
        assert (nisbiy - nisbiy.T).abs().max() > 1e-3   # but not on |m - n| alone
        # and the order of the numbers matters, unlike without positions
        assert (m(x) - m(x.flip(1))).abs().max() > 1e-5


@pytest.mark.parametrize("pozitsiya", [False, True, "sinus", "rope"])
def test_causal_attention_sees_only_the_past(pozitsiya):
    torch.manual_seed(3)
    m = Attention(9, d=8, pozitsiya=pozitsiya, kauzal=True)
    x = torch.randn(4, 9, 1)
    with torch.no_grad():
        m(x)
        w = m.ogirlik
        assert torch.equal(w.triu(1), torch.zeros_like(w))
        assert torch.allclose(w.sum(-1), torch.ones(4, 9))
        assert torch.equal(w[:, 0, 0], torch.ones(4))     # the first query sees itself only
        # changing the last number changes no query before it
        x2 = x.clone()
        x2[:, -1] += 5.0
        m(x2)
        assert torch.allclose(m.ogirlik[:, :-1, :-1], w[:, :-1, :-1], atol=1e-6)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_causal_mask_alone_makes_position_free_attention_see_order(seed):
    torch.manual_seed(seed)
    kauzal = Attention(60, pozitsiya=False, kauzal=True)
    maskasiz = Attention(60, pozitsiya=False)
    maskasiz.load_state_dict(kauzal.state_dict())       # the same weights, no mask
    x, _ = vazifa(8, 60, seed)
    tartib = torch.randperm(60)
    with torch.no_grad():
        assert torch.allclose(maskasiz(x), maskasiz(x[:, tartib]), atol=1e-5)
        assert (kauzal(x) - kauzal(x[:, tartib])).abs().max() > 1e-4


def test_rope_attention_refuses_an_odd_width():
    with pytest.raises(ValueError, match="rope pozitsiyalari uchun d juft boʻlishi kerak, berilgani: d=5"):
        Attention(4, d=5, pozitsiya="rope")
