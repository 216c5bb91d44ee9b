"""The hand-written Transformer against independent references.

KopBoshli against torch.nn.MultiheadAttention and F.scaled_dot_product_attention,
kauzal_maska against triu / an explicit loop / torch's lower-right causal bias,
sinus_pozitsiya against the formula of Vaswani et al. (2017) in plain Python,
the KV cache of KichikGPT against the full forward pass, the pad and causal
masks of Tarjimon by invariance, and the pre-LN structure of Blok.

Comparisons with torch modules run in float64 (tolerance 1e-10); the KV-cache
and invariance tests run in float32 as the chapter does (tolerance 1e-5).
"""

import math

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.attention.bias import causal_lower_right

from chapter_code.modellar import (Attention, Blok, KichikGPT, KopBoshli, Tarjimon, kauzal_maska, kesh_baytlari, oldindan_kesh,
                                  sinus_pozitsiya)

TOL64 = 1e-10   # float64: the same arithmetic in a different order
TOL32 = 1e-5    # float32: cached vs full forward, padded vs unpadded


def _juftlik(d, h, seed):
    """A KopBoshli and a torch MultiheadAttention with the same weights, both float64."""
    torch.manual_seed(seed)
    kb = KopBoshli(d, h).double().eval()
    mha = nn.MultiheadAttention(d, h, batch_first=True, dropout=0.0).double().eval()
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([kb.q.weight, kb.k.weight, kb.v.weight]))
        mha.in_proj_bias.copy_(torch.cat([kb.q.bias, kb.k.bias, kb.v.bias]))
        mha.out_proj.weight.copy_(kb.o.weight)
        mha.out_proj.bias.copy_(kb.o.bias)
    return kb, mha


def _boshlarga(t, h):
    """(B, T, d) -> (B, h, T, d/h), the head split done independently of KopBoshli."""
    B, T, d = t.shape
    return t.reshape(B, T, h, d // h).permute(0, 2, 1, 3)


# ---------------------------------------------------------------------------
# 1. KopBoshli == nn.MultiheadAttention

@pytest.mark.parametrize("kesishgan", [False, True], ids=["self", "cross"])
@pytest.mark.parametrize("kauzal", [False, True], ids=["nomask", "causal"])
@pytest.mark.parametrize("pad", [False, True], ids=["nopad", "pad"])
@pytest.mark.parametrize("d, h", [(8, 1), (12, 3), (16, 4)])
def test_kopboshli_equals_torch_multihead_attention(kesishgan, kauzal, pad, d, h):
    kb, mha = _juftlik(d, h, seed=d + h)
    B, Tq = 3, 5
    Tk = 7 if kesishgan else Tq
    x = torch.randn(B, Tq, d, dtype=torch.float64)
    manba = torch.randn(B, Tk, d, dtype=torch.float64) if kesishgan else None
    kv = x if manba is None else manba
    attn_mask = kauzal_maska(Tq, Tk) if kauzal else None
    # key padding: the last keys of some batch rows are padding; key 0 never is,
    # so no query row is fully masked (which would give NaN in both)
    kpm = torch.zeros(B, Tk, dtype=torch.bool)
    if pad:
        kpm[0, -2:] = True
        kpm[2, -1:] = True
    maska = None
    if kauzal:
        maska = attn_mask
    if pad:
        pm = kpm[:, None, None, :]                       # (B, 1, 1, Tk)
        maska = pm if maska is None else (maska | pm)
    with torch.no_grad():
        y = kb(x, manba=manba, maska=maska)
        y_ref, w_ref = mha(x, kv, kv, attn_mask=attn_mask, key_padding_mask=kpm if pad else None,
                           need_weights=True, average_attn_weights=False)
        _, w_ort = mha(x, kv, kv, attn_mask=attn_mask, key_padding_mask=kpm if pad else None,
                       need_weights=True, average_attn_weights=True)
    assert y.shape == (B, Tq, d)
    assert torch.allclose(y, y_ref, atol=TOL64, rtol=0)
    w = kb.ogirlik
    assert w.shape == (B, h, Tq, Tk)
    assert torch.allclose(w, w_ref, atol=TOL64, rtol=0)                 # per head
    assert torch.allclose(w.mean(1), w_ort, atol=TOL64, rtol=0)         # averaged over heads
    assert torch.allclose(w.sum(-1), torch.ones(B, h, Tq, dtype=w.dtype), atol=TOL64, rtol=0)
    yashirin = torch.zeros(B, 1, Tq, Tk, dtype=torch.bool)
    if kauzal:
        yashirin = yashirin | attn_mask
    if pad:
        yashirin = yashirin | kpm[:, None, None, :]
    yashirin = yashirin.expand(B, h, Tq, Tk)
    assert yashirin.any() == (kauzal or pad)
    assert (w[yashirin] == 0).all()                                      # exactly 0, not small
    assert (w[~yashirin] > 0).all()


def test_kopboshli_rejects_width_not_divisible_by_heads():
    with pytest.raises(ValueError, match="d=10"):
        KopBoshli(10, 4)


# ---------------------------------------------------------------------------
# 2. Causal attention and kauzal_maska

@pytest.mark.parametrize("d, h, T", [(8, 2, 1), (12, 3, 6), (16, 4, 9)])
def test_causal_kopboshli_equals_sdpa_per_head(d, h, T):
    torch.manual_seed(T)
    kb = KopBoshli(d, h).double()
    x = torch.randn(2, T, d, dtype=torch.float64)
    with torch.no_grad():
        y = kb(x, maska=kauzal_maska(T))
        q, k, v = (_boshlarga(lin(x), h) for lin in (kb.q, kb.k, kb.v))
        sdpa = F.scaled_dot_product_attention(q, k, v, is_causal=True)      # (B, h, T, dh)
        assert torch.allclose(kb.ogirlik @ v, sdpa, atol=TOL64, rtol=0)
        y_ref = kb.o(sdpa.permute(0, 2, 1, 3).reshape(2, T, d))
    assert torch.allclose(y, y_ref, atol=TOL64, rtol=0)


@pytest.mark.parametrize("T", [1, 2, 5, 16])
def test_causal_mask_square_is_strict_upper_triangle(T):
    m = kauzal_maska(T)
    assert m.dtype == torch.bool and m.shape == (T, T)
    assert torch.equal(m, torch.triu(torch.ones(T, T, dtype=torch.bool), 1))
    assert torch.equal(kauzal_maska(T, T), m)


@pytest.mark.parametrize("Tq, Tk", [(1, 1), (1, 6), (2, 5), (3, 8), (4, 4)])
def test_causal_mask_with_cache_is_lower_right_aligned(Tq, Tk):
    m = kauzal_maska(Tq, Tk)
    assert m.shape == (Tq, Tk)
    for i in range(Tq):
        for j in range(Tk):
            # query i sits at absolute position Tk - Tq + i and sees keys 0 .. Tk - Tq + i
            assert bool(m[i, j]) == (j > Tk - Tq + i), (i, j)
    assert not m[:, 0].any()                       # every query sees at least key 0
    # the same alignment as torch's lower-right causal bias
    torch.manual_seed(Tq * 10 + Tk)
    q, k, v = torch.randn(1, 1, Tq, 4), torch.randn(1, 1, Tk, 4), torch.randn(1, 1, Tk, 4)
    ours = F.scaled_dot_product_attention(q, k, v, attn_mask=~m)
    ref = F.scaled_dot_product_attention(q, k, v, attn_mask=causal_lower_right(Tq, Tk))
    assert torch.allclose(ours, ref, atol=1e-6)


@pytest.mark.parametrize("Tq, Tk", [(2, 1), (5, 3)])
def test_causal_mask_rejects_fewer_keys_than_queries(Tq, Tk):
    with pytest.raises(ValueError, match=f"Tq={Tq}, Tk={Tk}"):
        kauzal_maska(Tq, Tk)


# ---------------------------------------------------------------------------
# 3. KichikGPT: KV cache and causality

def _gpt(seed=0, lugat=37, d=32, boshlar=4, qatlamlar=3, T_max=64):
    torch.manual_seed(seed)
    return KichikGPT(lugat, d=d, boshlar=boshlar, qatlamlar=qatlamlar, T_max=T_max).eval()


@pytest.mark.parametrize("prefiks", [1, 4, 11], ids=["token-by-token", "prefix4", "prefix11"])
def test_kv_cache_matches_full_forward(prefiks):
    m = _gpt(seed=prefiks)
    B, T, h, dh = 2, 12, 4, 8
    idx = torch.randint(0, 37, (B, T))
    with torch.no_grad():
        toliq = m(idx)
        keshlar = [{} for _ in m.bloklar]
        bolaklar = [m(idx[:, :prefiks], keshlar=keshlar)]
        for t in range(prefiks, T):
            bolaklar.append(m(idx[:, t:t + 1], keshlar=keshlar))
            for kesh in keshlar:
                assert kesh["k"].shape == (B, h, t + 1, dh)
        qadamlab = torch.cat(bolaklar, dim=1)
    assert qadamlab.shape == toliq.shape == (B, T, 37)
    assert torch.allclose(qadamlab, toliq, atol=TOL32, rtol=0), (qadamlab - toliq).abs().max()
    assert len(keshlar) == len(m.bloklar)
    for kesh in keshlar:
        assert set(kesh) == {"k", "v", "soni"} and kesh["soni"] == T
        assert kesh["k"].shape == kesh["v"].shape == (B, h, T, dh)
    # the cached keys are the keys of the full sequence: block 0's, recomputed by hand
    with torch.no_grad():
        x0 = m.emb(idx) + sinus_pozitsiya(T, 32)
        k0 = _boshlarga(m.bloklar[0].attn.k(m.bloklar[0].norm1(x0)), h)
    assert torch.allclose(keshlar[0]["k"], k0, atol=TOL32, rtol=0)


def test_kv_cache_is_needed_for_position():
    """Without the cache, a lone token is read at position 0: the logits differ (the test can fail)."""
    m = _gpt(seed=3)
    idx = torch.randint(0, 37, (1, 6))
    with torch.no_grad():
        toliq = m(idx)
        yakka = m(idx[:, -1:])
    assert not torch.allclose(yakka[:, 0], toliq[:, -1], atol=1e-3)


@pytest.mark.parametrize("t", [0, 5, 9])
def test_gpt_future_token_does_not_change_earlier_logits(t):
    m = _gpt(seed=t)
    idx = torch.randint(0, 37, (2, 10))
    boshqa = idx.clone()
    boshqa[:, t] = (idx[:, t] + 1) % 37
    with torch.no_grad():
        a, b = m(idx), m(boshqa)
    assert torch.allclose(a[:, :t], b[:, :t], atol=1e-6, rtol=0)
    assert (a[:, t] - b[:, t]).abs().max() > 1e-3          # the change is seen from t on


def test_gpt_longer_than_t_max_raises():
    m = _gpt(T_max=8)
    with pytest.raises(ValueError, match="T_max=8"):
        m(torch.zeros(1, 9, dtype=torch.long))
    keshlar = [{} for _ in m.bloklar]
    with torch.no_grad():
        m(torch.zeros(1, 8, dtype=torch.long), keshlar=keshlar)
    with pytest.raises(ValueError, match="T_max=8"):
        m(torch.zeros(1, 1, dtype=torch.long), keshlar=keshlar)


# ---------------------------------------------------------------------------
# 4. sinus_pozitsiya == Vaswani et al. (2017)

def _vaswani(T, d):
    """PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(p / 10000^(2i/d)), plain Python."""
    pe = [[0.0] * d for _ in range(T)]
    for p in range(T):
        for i in range(d // 2):
            burchak = p / 10000 ** (2 * i / d)
            pe[p][2 * i] = math.sin(burchak)
            pe[p][2 * i + 1] = math.cos(burchak)
    return torch.tensor(pe, dtype=torch.float64)


@pytest.mark.parametrize("T, d", [(1, 2), (7, 4), (50, 16), (64, 32)])
def test_sinus_positions_equal_vaswani_formula(T, d):
    pe = sinus_pozitsiya(T, d)
    assert pe.shape == (T, d)
    # float32: the angle p / 10000^(2i/d) up to p = 63 carries ~1e-5 absolute error
    assert torch.allclose(pe.double(), _vaswani(T, d), atol=2e-5, rtol=0)
    assert torch.equal(pe[0, 0::2], torch.zeros(d // 2))    # sin 0
    assert torch.equal(pe[0, 1::2], torch.ones(d // 2))     # cos 0


@pytest.mark.parametrize("d", [1, 3, 33])
def test_sinus_positions_reject_odd_width(d):
    with pytest.raises(ValueError, match=f"d={d}"):
        sinus_pozitsiya(5, d)


def test_sinus_positions_rows_differ():
    pe = sinus_pozitsiya(100, 16)
    masofa = torch.cdist(pe, pe)
    masofa.fill_diagonal_(float("inf"))
    assert masofa.min() > 1e-2


# ---------------------------------------------------------------------------
# 5. Attention: positions

def _attention_qolda(m, x, poz):
    """The Attention forward written out again, with the position rows given."""
    hh = m.inp(x) + poz
    Q, K, V = m.q(hh), m.k(hh), m.v(hh)
    w = torch.softmax(Q @ K.transpose(1, 2) / K.shape[-1] ** 0.5, dim=-1)
    return m.fc((w @ V).mean(1)), w


@pytest.mark.parametrize("T", [1, 3, 10, 40])
def test_attention_sinus_runs_at_any_length_and_depends_on_order(T):
    torch.manual_seed(T)
    m = Attention(10, d=16, pozitsiya="sinus")
    x = torch.randn(4, T, 1)
    with torch.no_grad():
        y = m(x)
        y_ref, w_ref = _attention_qolda(m, x, sinus_pozitsiya(T, 16))
    assert y.shape == (4, 2)
    assert torch.allclose(y, y_ref, atol=1e-6)
    assert torch.allclose(m.ogirlik, w_ref, atol=1e-6)
    if T > 1:
        with torch.no_grad():
            teskari = m(x.flip(1))
        assert (teskari - y).abs().max() > 1e-5      # positions make the order matter


@pytest.mark.parametrize("T", [1, 4, 9])
def test_attention_learned_positions_shorter_sequence_uses_first_rows(T):
    torch.manual_seed(T)
    m = Attention(10, d=8)
    x = torch.randn(3, T, 1)
    with torch.no_grad():
        y = m(x)
        y_ref, w_ref = _attention_qolda(m, x, m.poz[:, :T])
        y_yomon, _ = _attention_qolda(m, x, m.poz[:, -T:])   # the last rows: a different answer
    assert y.shape == (3, 2)
    assert torch.allclose(y, y_ref, atol=1e-6)
    assert torch.allclose(m.ogirlik, w_ref, atol=1e-6)
    assert not torch.allclose(y, y_yomon, atol=1e-6)


@pytest.mark.parametrize("T", [11, 30])
def test_attention_learned_positions_longer_sequence_raises(T):
    m = Attention(10, d=8)
    with pytest.raises(ValueError, match=rf"10 ta pozitsiya uchun bor.*T={T}.*T <= 10"):
        m(torch.randn(2, T, 1))


@pytest.mark.parametrize("yomon", ["learned", "sin", None, "True", "RoPE"])
def test_attention_rejects_bad_pozitsiya(yomon):
    with pytest.raises(ValueError, match="pozitsiya"):
        Attention(5, d=8, pozitsiya=yomon)


# ---------------------------------------------------------------------------
# 6. Tarjimon: pad mask, causal decoder, shape

def _tarjimon(seed=0):
    torch.manual_seed(seed)
    return Tarjimon(19, 23, d=32, boshlar=4, qatlamlar=2, T_max=32, pad=0).eval()


@pytest.mark.parametrize("qoshimcha", [1, 5, 20])
def test_tarjimon_extra_source_padding_does_not_change_logits(qoshimcha):
    m = _tarjimon(seed=qoshimcha)
    manba = torch.randint(1, 19, (3, 6))
    manba[1, 4:] = 0                                 # one example already padded
    maqsad = torch.randint(1, 23, (3, 5))
    uzun = torch.cat([manba, torch.zeros(3, qoshimcha, dtype=torch.long)], dim=1)
    with torch.no_grad():
        a, b = m(manba, maqsad), m(uzun, maqsad)
        boshqa = manba.clone()
        boshqa[0, 2] = manba[0, 2] % 18 + 1          # a different real token
        c = m(boshqa, maqsad)
    assert a.shape == b.shape == (3, 5, 23)
    assert torch.allclose(a, b, atol=TOL32, rtol=0), (a - b).abs().max()
    assert (a[0] - c[0]).abs().max() > 1e-3          # the source does matter


@pytest.mark.parametrize("t", [0, 3, 6])
def test_tarjimon_later_target_token_does_not_change_earlier_logits(t):
    m = _tarjimon(seed=t)
    manba = torch.randint(1, 19, (2, 5))
    maqsad = torch.randint(1, 23, (2, 7))
    boshqa = maqsad.clone()
    boshqa[:, t] = maqsad[:, t] % 22 + 1
    with torch.no_grad():
        a, b = m(manba, maqsad), m(manba, boshqa)
    assert a.shape == (2, 7, 23)
    assert torch.allclose(a[:, :t], b[:, :t], atol=1e-6, rtol=0)
    assert (a[:, t] - b[:, t]).abs().max() > 1e-3


def test_tarjimon_output_shape_with_different_lengths():
    m = _tarjimon()
    with torch.no_grad():
        y = m(torch.randint(1, 19, (4, 9)), torch.randint(1, 23, (4, 3)))
    assert y.shape == (4, 3, 23)
    assert torch.isfinite(y).all()


# ---------------------------------------------------------------------------
# 7. Blok: pre-LN

def _nollash(*qatlamlar):
    with torch.no_grad():
        for q in qatlamlar:
            q.weight.zero_()
            q.bias.zero_()


@pytest.mark.parametrize("kesishgan", [False, True], ids=["decoder-only", "cross"])
def test_blok_with_zeroed_output_projections_is_identity(kesishgan):
    torch.manual_seed(0)
    blok = Blok(16, 4, kesishgan=kesishgan)
    x = torch.randn(2, 5, 16) * 3 + 1                # not normalised: post-LN would change it
    xotira = torch.randn(2, 7, 16) if kesishgan else None
    with torch.no_grad():
        oldin = blok(x, maska=kauzal_maska(5), xotira=xotira)
    assert (oldin - x).abs().max() > 1e-3            # a live block is not the identity
    _nollash(blok.attn.o, blok.ff[-1], *([blok.cross.o] if kesishgan else []))
    with torch.no_grad():
        y = blok(x, maska=kauzal_maska(5), xotira=xotira)
    assert torch.equal(y, x)                         # x + 0 + 0, exactly


def test_blok_equals_pre_ln_formula_with_torch_attention():
    """x + MHA(LN1 x); + cross-MHA(LN_x x, memory); + FF(LN2 x), with torch's MultiheadAttention."""
    torch.manual_seed(1)
    d, h = 16, 4
    blok = Blok(d, h, kesishgan=True).double()
    mha_self = nn.MultiheadAttention(d, h, batch_first=True).double()
    mha_cross = nn.MultiheadAttention(d, h, batch_first=True).double()
    with torch.no_grad():
        for kb, mha in ((blok.attn, mha_self), (blok.cross, mha_cross)):
            mha.in_proj_weight.copy_(torch.cat([kb.q.weight, kb.k.weight, kb.v.weight]))
            mha.in_proj_bias.copy_(torch.cat([kb.q.bias, kb.k.bias, kb.v.bias]))
            mha.out_proj.weight.copy_(kb.o.weight)
            mha.out_proj.bias.copy_(kb.o.bias)
        x = torch.randn(2, 5, d, dtype=torch.float64)
        xotira = torch.randn(2, 7, d, dtype=torch.float64)
        kpm = torch.zeros(2, 7, dtype=torch.bool)
        kpm[1, -3:] = True
        y = blok(x, maska=kauzal_maska(5), xotira=xotira, xotira_maska=kpm[:, None, None, :])

        def ln(t):
            return F.layer_norm(t, (d,), eps=1e-5)   # fresh LayerNorms: weight 1, bias 0

        n = ln(x)
        r = x + mha_self(n, n, n, attn_mask=kauzal_maska(5), need_weights=False)[0]
        n = ln(r)
        r = r + mha_cross(n, xotira, xotira, key_padding_mask=kpm, need_weights=False)[0]
        ff = blok.ff
        r = r + F.linear(F.gelu(F.linear(ln(r), ff[0].weight, ff[0].bias)), ff[2].weight, ff[2].bias)
    assert torch.allclose(y, r, atol=TOL64, rtol=0)


# --- edge cases found by the first round of these tests, now refused with a clear message

@pytest.mark.parametrize("yomon", [1, 0, 1.0])
def test_attention_rejects_truthy_lookalikes_of_pozitsiya(yomon):
    # 1 == True, but it must not silently build a model without positions
    with pytest.raises(ValueError, match="pozitsiya"):
        Attention(5, d=8, pozitsiya=yomon)


def test_attention_sinus_rejects_odd_width_when_built():
    with pytest.raises(ValueError, match="d juft boʻlishi kerak"):
        Attention(5, d=7, pozitsiya="sinus")


def test_tarjimon_too_long_and_all_padding_are_refused():
    torch.manual_seed(0)
    m = Tarjimon(10, 8, d=16, boshlar=2, qatlamlar=1, T_max=8)
    with pytest.raises(ValueError, match="T_max=8"):
        m(torch.randint(1, 10, (2, 9)), torch.randint(1, 8, (2, 3)))
    with pytest.raises(ValueError, match="T_max=8"):
        m(torch.randint(1, 10, (2, 3)), torch.randint(1, 8, (2, 9)))
    manba = torch.randint(1, 10, (2, 4))
    manba[1] = 0
    with pytest.raises(ValueError, match="butunlay toʻldiruvchi"):
        m(manba, torch.randint(1, 8, (2, 3)))


# --- exercise 4 of the chapter: the causal mask alone makes attention order-sensitive

def _attention(h, Wq, Wk, Wv, maska=None):
    ball = Wq(h) @ Wk(h).transpose(1, 2) / h.shape[-1] ** 0.5
    if maska is not None:
        ball = ball.masked_fill(maska, float("-inf"))
    return torch.softmax(ball, dim=-1) @ Wv(h)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_exercise4_flip_moves_unmasked_outputs_but_changes_every_masked_one(seed):
    torch.manual_seed(seed)
    T, d = 4, 8
    h = torch.randn(1, T, d)
    Wq, Wk, Wv = (nn.Linear(d, d, bias=False) for _ in range(3))
    maska = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    with torch.no_grad():
        # without the mask: each element's output moves with it, unchanged
        asl, teskari = _attention(h, Wq, Wk, Wv), _attention(h.flip(1), Wq, Wk, Wv)
        assert torch.allclose(asl, teskari.flip(1), atol=1e-6)
        # with the mask: every element's output changes (what it sees changes)
        asl_m, teskari_m = _attention(h, Wq, Wk, Wv, maska), _attention(h.flip(1), Wq, Wk, Wv, maska)
        farq = (asl_m - teskari_m.flip(1)).abs().amax(dim=-1)[0]
        assert (farq > 1e-3).all(), farq


# ---------------------------------------------------------------------------
# 6. Grouped-query attention, the sliding window and the preallocated cache

def _takrorlangan(gqa, h):
    """The MHA KopBoshli that grouped-query attention is: every key/value head's rows
    repeated for the query heads of its group (query head i reads key/value head
    i // (h / h_kv)), built from the weights, not from KopBoshli's forward."""
    mha = KopBoshli(gqa.q.in_features, h).double().eval()
    dh, guruh = gqa.q.out_features // h, h // gqa.kv_boshlar
    with torch.no_grad():
        for nom in ("q", "o"):
            getattr(mha, nom).load_state_dict(getattr(gqa, nom).state_dict())
        for nom in ("k", "v"):
            q, m = getattr(gqa, nom), getattr(mha, nom)
            m.weight.copy_(q.weight.view(gqa.kv_boshlar, dh, -1).repeat_interleave(guruh, 0).reshape(h * dh, -1))
            m.bias.copy_(q.bias.view(gqa.kv_boshlar, dh).repeat_interleave(guruh, 0).reshape(-1))
    return mha


@pytest.mark.parametrize("h, h_kv", [(4, 2), (4, 1), (6, 3), (8, 2)])
@pytest.mark.parametrize("kesishgan", [False, True], ids=["self", "cross"])
def test_grouped_query_attention_is_multi_head_with_shared_key_value_heads(h, h_kv, kesishgan):
    torch.manual_seed(h * 10 + h_kv)
    gqa = KopBoshli(8 * h, h, h_kv).double().eval()
    assert gqa.k.weight.shape == gqa.v.weight.shape == (8 * h_kv, 8 * h)
    mha = _takrorlangan(gqa, h)
    x = torch.randn(2, 7, 8 * h, dtype=torch.float64)
    manba = torch.randn(2, 5, 8 * h, dtype=torch.float64) if kesishgan else None
    maska = None if kesishgan else kauzal_maska(7)
    with torch.no_grad():
        a, b = gqa(x, manba=manba, maska=maska), mha(x, manba=manba, maska=maska)
    assert torch.allclose(a, b, atol=TOL64, rtol=0), (a - b).abs().max()
    # and the heads of one group really share: their weights are equal only in the MHA copy
    assert torch.equal(mha.k.weight[:8], mha.k.weight[8:16]) == (h // h_kv > 1)


@pytest.mark.parametrize("h, h_kv", [(4, 2), (4, 1), (8, 4)])
def test_grouped_query_attention_equals_torch_sdpa_with_enable_gqa(h, h_kv):
    torch.manual_seed(h + h_kv)
    gqa = KopBoshli(4 * h, h, h_kv).double().eval()
    x = torch.randn(3, 9, 4 * h, dtype=torch.float64)
    with torch.no_grad():
        q, k, v = (_boshlarga(getattr(gqa, n)(x), hh) for n, hh in (("q", h), ("k", h_kv), ("v", h_kv)))
        kutilgan = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        kutilgan = gqa.o(kutilgan.transpose(1, 2).reshape(3, 9, 4 * h))
        olingan = gqa(x, maska=kauzal_maska(9))
    assert torch.allclose(olingan, kutilgan, atol=TOL64, rtol=0)


@pytest.mark.parametrize("h, h_kv", [(4, 3), (4, 0), (6, 4)])
def test_kopboshli_rejects_key_value_heads_that_do_not_divide_the_heads(h, h_kv):
    with pytest.raises(ValueError, match=f"boshlar={h} ta soʻrov boshi kv_boshlar={h_kv}"):
        KopBoshli(12, h, h_kv)


@pytest.mark.parametrize("h_kv", [4, 2, 1], ids=["MHA", "GQA", "MQA"])
def test_kv_cache_of_grouped_query_attention_holds_only_its_key_value_heads(h_kv):
    m = KichikGPT(37, d=32, boshlar=4, qatlamlar=3, T_max=64, kv_boshlar=h_kv).eval()
    idx = torch.randint(0, 37, (2, 10))
    with torch.no_grad():
        toliq = m(idx)
        keshlar = [{} for _ in m.bloklar]
        qadamlab = torch.cat([m(idx[:, t:t + 1], keshlar) for t in range(10)], dim=1)
    assert torch.allclose(qadamlab, toliq, atol=TOL32, rtol=0)
    assert all(k["k"].shape == k["v"].shape == (2, h_kv, 10, 8) for k in keshlar)
    bayt = kesh_baytlari(keshlar)
    assert bayt == 2 * 3 * 10 * h_kv * 8 * 4 * 2        # 2 L T h_kv d_head b, batch 2


def test_preallocated_cache_gives_the_same_logits_and_never_moves():
    m = _gpt(seed=5)
    idx = torch.randint(0, 37, (2, 12))
    with torch.no_grad():
        toliq = m(idx)
        keshlar = oldindan_kesh(m.bloklar, 2, 12)
        joylar = [k["bufer_k"].data_ptr() for k in keshlar]
        bolaklar = [m(idx[:, :3], keshlar)]
        for t in range(3, 12):
            bolaklar.append(m(idx[:, t:t + 1], keshlar))
            assert [k["n"] for k in keshlar] == [t + 1] * 3
            assert [k["bufer_k"].data_ptr() for k in keshlar] == joylar     # written in place
        qadamlab = torch.cat(bolaklar, dim=1)
        # the buffer holds exactly the keys the growing cache holds
        osuvchi = [{} for _ in m.bloklar]
        m(idx, osuvchi)
    assert torch.allclose(qadamlab, toliq, atol=TOL32, rtol=0)
    assert all(torch.allclose(a["bufer_k"], b["k"], atol=TOL32, rtol=0) for a, b in zip(keshlar, osuvchi))
    with pytest.raises(ValueError, match="keshga 12 ta token sigʻadi, 13 tasi sigʻmaydi"):
        with torch.no_grad():
            m(idx[:, :1], keshlar)


@pytest.mark.parametrize("Tq, Tk, oyna", [(5, 5, 1), (5, 5, 2), (6, 6, 3), (1, 9, 4), (3, 8, 2), (4, 4, 10)])
def test_sliding_window_mask_hides_the_future_and_keys_older_than_the_window(Tq, Tk, oyna):
    maska = kauzal_maska(Tq, Tk, oyna)
    for i in range(Tq):
        p = Tk - Tq + i                              # the query's position among the keys
        for j in range(Tk):
            assert maska[i, j].item() == (j > p or j <= p - oyna), (i, j)
    if oyna >= Tk:
        assert torch.equal(maska, kauzal_maska(Tq, Tk))


def test_sliding_window_rejects_an_empty_window():
    with pytest.raises(ValueError, match="oyna uzunligi kamida 1 boʻlishi kerak, berilgani: 0"):
        kauzal_maska(4, 4, 0)


def test_one_layer_with_a_window_of_three_reads_only_the_last_three_tokens():
    torch.manual_seed(2)
    m = KichikGPT(37, d=16, boshlar=2, qatlamlar=1, T_max=32, oyna=3).eval()
    idx = torch.randint(0, 37, (1, 10))
    with torch.no_grad():
        asl = m(idx)[0, 9]
        for t, korinadi in ((6, False), (7, True), (9, True)):
            boshqa = idx.clone()
            boshqa[0, t] = (idx[0, t] + 1) % 37
            assert (m(boshqa)[0, 9] - asl).abs().max().item() > 1e-4 if korinadi else \
                torch.allclose(m(boshqa)[0, 9], asl, atol=1e-6, rtol=0), t
        # with a cache the window is the same
        keshlar = [{}]
        qadamlab = torch.cat([m(idx[:, t:t + 1], keshlar) for t in range(10)], dim=1)
    assert torch.allclose(qadamlab[0, 9], asl, atol=TOL32, rtol=0)


def test_tarjimon_takes_grouped_query_heads_and_a_window():
    torch.manual_seed(0)
    m = Tarjimon(20, 12, d=16, boshlar=4, qatlamlar=2, kv_boshlar=1, oyna=2).eval()
    assert all(b.attn.k.weight.shape == (4, 16) for b in list(m.koder) + list(m.dekoder))
    assert all(b.cross.v.weight.shape == (4, 16) for b in m.dekoder)
    with torch.no_grad():
        chiqish = m(torch.randint(1, 20, (2, 6)), torch.randint(1, 12, (2, 5)))
    assert chiqish.shape == (2, 5, 12)


@pytest.mark.parametrize("h_kv, oyna", [(4, None), (2, None), (1, None), (4, 2), (1, 3)],
                         ids=["MHA", "GQA", "MQA", "window2", "MQA-window3"])
def test_tarjimon_decodes_with_a_cache_as_it_does_without(h_kv, oyna):
    torch.manual_seed(h_kv * 7 + (oyna or 0))
    m = Tarjimon(20, 12, d=16, boshlar=4, qatlamlar=2, kv_boshlar=h_kv, oyna=oyna).eval()
    manba, maqsad = torch.randint(1, 20, (3, 6)), torch.randint(1, 12, (3, 8))
    with torch.no_grad():
        toliq = m(manba, maqsad)
        keshlar, xotira = [{} for _ in m.dekoder], m.kodla(manba)
        qadamlab = []
        for t in range(8):
            qadamlab.append(m(manba, maqsad[:, t:t + 1], keshlar, xotira))
            saqlangan = t + 1 if oyna is None else min(t + 1, oyna)
            # a window keeps only its last tokens, and counts every token it saw
            assert all(k["k"].shape == (3, h_kv, saqlangan, 4) and k["soni"] == t + 1 for k in keshlar)
    assert torch.allclose(torch.cat(qadamlab, dim=1), toliq, atol=TOL32, rtol=0)
    assert kesh_baytlari(keshlar) == 2 * 2 * saqlangan * h_kv * 4 * 4 * 3     # 2 L T h_kv d_head b, batch 3


def test_a_window_cache_of_kichikgpt_stays_at_the_window_and_keeps_the_positions():
    torch.manual_seed(4)
    m = KichikGPT(37, d=16, boshlar=2, qatlamlar=2, T_max=32, oyna=4).eval()
    idx = torch.randint(0, 37, (2, 12))
    with torch.no_grad():
        toliq = m(idx)
        keshlar = [{} for _ in m.bloklar]
        bolaklar = [m(idx[:, :5], keshlar)]                 # a prefill longer than the window
        assert [k["k"].shape[2] for k in keshlar] == [4, 4] and keshlar[0]["soni"] == 5
        bolaklar += [m(idx[:, t:t + 1], keshlar) for t in range(5, 12)]
    assert torch.allclose(torch.cat(bolaklar, dim=1), toliq, atol=TOL32, rtol=0)
    assert kesh_baytlari(keshlar) == 2 * 2 * 4 * 2 * 8 * 4 * 2
