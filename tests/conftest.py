"""Test-wide set-up.

Triton kernels run under the CPU interpreter when there is no CUDA device. The variable must be
set before any ``@triton.jit`` decorator runs, so it is set here, before tests import kernels.
"""

import os

import torch

if not torch.cuda.is_available():
    os.environ.setdefault("TRITON_INTERPRET", "1")

# Tests never reach a model hub.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
