"""Fixtures the engine tests share: one thread for tiny models, and a tiny SDAR checkpoint."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from tests.engine.tiny import make_checkpoint


@pytest.fixture(autouse=True, scope="module")
def _one_thread():
    """Tiny models run fastest on one thread; more only fight over a busy machine's cores."""
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


@pytest.fixture(scope="module")
def sdar_dir(tmp_path_factory) -> Path:
    """A tiny random SDAR checkpoint (seed 0), built once per test module that asks for it."""
    folder = tmp_path_factory.mktemp("ckpt") / "sdar"
    make_checkpoint(folder, "sdar")
    return folder
