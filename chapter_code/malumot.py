"""Bobning sodda sunʼiy vazifasi: javobni ketma-ketlikning faqat birinchi elementi hal qiladi.

``T`` ta standart normal taqsimlangan sondan iborat ketma-ketlikning birinchi elementi
musbat boʻlsa, uning javobi 1, aks holda 0; qolgan ``T - 1`` ta son — shovqin.  Vazifani
yechadigan model 0-qadamdagi maʼlumotni butun ketma-ketlik boʻylab olib borishi kerak:
RNN aynan shu joyda ojiz, attention esa ojiz emas.
"""

import numpy as np
import torch


def vazifa(n, T, seed=0):
    """Faqat birinchi element javobni belgilaydi, qolganlari — shovqin."""
    rr = np.random.default_rng(seed)
    Xs = rr.normal(0, 1, (n, T, 1)).astype(np.float32)
    return torch.tensor(Xs), torch.tensor(
        (Xs[:, 0, 0] > 0).astype(np.int64)
    )
