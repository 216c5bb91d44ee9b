"""The chapter's toy task: only the first element of a sequence decides.

A sequence of ``T`` standard-normal numbers gets the label 1 when its FIRST
element is positive and 0 otherwise; the other ``T - 1`` numbers are noise.
A model that solves the task must carry information from step 0 across the
whole sequence, which is exactly where an RNN is weak and attention is not.
"""

import numpy as np
import torch


def vazifa(n, T, seed=0):
    """Faqat BIRINCHI element javobni belgilaydi. Qolgani shovqin."""
    rr = np.random.default_rng(seed)
    Xs = rr.normal(0, 1, (n, T, 1)).astype(np.float32)
    return torch.tensor(Xs), torch.tensor(
        (Xs[:, 0, 0] > 0).astype(np.int64)
    )
