"""Shared fixtures: the repository root, and a captured ``_display`` for the book helpers."""

import sys
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

ILDIZ = Path(__file__).resolve().parent.parent
if str(ILDIZ) not in sys.path:
    sys.path.insert(0, str(ILDIZ))


def pytest_configure(config):
    config.addinivalue_line("markers", "build: builds the book with jupyter-book (slow)")


@pytest.fixture
def chiqishlar(monkeypatch, tmp_path):
    """Capture what the helpers display, and write their pictures into tmp_path."""
    from chapter_code import kitob

    olingan = []
    monkeypatch.setattr(kitob, "_display", lambda bundle, metadata=None: olingan.append((bundle, metadata or {})))
    monkeypatch.setitem(kitob.SOZLAMA, "rasm_papkasi", tmp_path / "rasmlar")
    return olingan
