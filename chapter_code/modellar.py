"""The chapter's models: two recurrent baselines, attention, a Transformer block.

``Ketma`` is an RNN or LSTM that reads the sequence step by step and classifies
from its last hidden state.  ``Attention`` is single-head self-attention written
out by hand, ``softmax(Q K^T / sqrt(d)) V``, with optional learned positional
encoding; it keeps its last attention weights in ``ogirlik`` so the chapter can
draw them.  ``TransformerBlok`` is a minimal but complete Transformer block.
"""

import torch
import torch.nn as nn


class Ketma(nn.Module):
    """RNN (turi="rnn") yoki LSTM (turi="lstm"), h ta yashirin birlik.

    unutish: LSTM ning unutish darvozasi (forget gate) siljishining
    boshlangʻich qiymati; None — PyTorch ning standart boshlanishi.
    """

    def __init__(self, turi, h=32, unutish=None):
        super().__init__()
        if turi not in ("rnn", "lstm"):
            raise ValueError(f"turi must be 'rnn' or 'lstm', got {turi!r}")
        if unutish is not None and turi != "lstm":
            raise ValueError(f"unutish (the forget-gate bias) exists only for turi='lstm', got turi={turi!r}")
        qatlam = nn.RNN if turi == "rnn" else nn.LSTM
        self.rnn = qatlam(1, h, batch_first=True)
        if unutish is not None:
            # PyTorch LSTM darvozalari tartibi: kirish, UNUTISH, hujayra, chiqish —
            # har biri h ta. Siljish ikki vektorda (bias_ih, bias_hh): yigʻindisi
            # unutish ga teng boʻlsin.
            with torch.no_grad():
                self.rnn.bias_ih_l0[h:2 * h].fill_(unutish)
                self.rnn.bias_hh_l0[h:2 * h].zero_()
        self.fc = nn.Linear(h, 2)

    def forward(self, x):
        o, _ = self.rnn(x)            # (batch, T, 1) -> (batch, T, h)
        return self.fc(o[:, -1])      # oxirgi qadam (batch, h) -> (batch, 2)


class Attention(nn.Module):
    """Uzunligi T boʻlgan ketma-ketlik uchun self-attention, kengligi d."""

    def __init__(self, T, d=32, pozitsiya=True):
        super().__init__()
        self.inp = nn.Linear(1, d)
        self.poz = (nn.Parameter(torch.randn(1, T, d) * 0.02)
                    if pozitsiya else None)
        self.q, self.k, self.v = (nn.Linear(d, d) for _ in range(3))
        self.fc = nn.Linear(d, 2)
        self.ogirlik = None

    def forward(self, x):
        hh = self.inp(x)                  # (batch, T, 1) -> (batch, T, d)
        if self.poz is not None:
            hh = hh + self.poz            # (batch, T, d) + (1, T, d)
        Qx, Kx, Vx = self.q(hh), self.k(hh), self.v(hh)  # (batch, T, d)
        # (batch, T, d) @ (batch, d, T) -> (batch, T, T)
        ball = Qx @ Kx.transpose(1, 2) / Kx.shape[-1] ** 0.5
        w = torch.softmax(ball, dim=-1)   # har qator yigʻindisi 1
        self.ogirlik = w.detach()
        # (batch, T, T) @ (batch, T, d) -> (batch, T, d) -> (batch, d)
        return self.fc((w @ Vx).mean(1))


class TransformerBlok(nn.Module):
    """Minimal, lekin toʻliq: attention + residual + norm + feed-forward."""

    def __init__(self, d=32, boshlar=4):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, boshlar, batch_first=True)
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(),
                                nn.Linear(4 * d, d))

    def forward(self, x):
        a, _ = self.attn(x, x, x)             # (batch, T, d)
        x = self.norm1(x + a)                 # residual + norm
        return self.norm2(x + self.ff(x))     # residual + norm


def parametrlar(model):
    """Number of trainable numbers (parameters) in a model."""
    return sum(p.numel() for p in model.parameters())
