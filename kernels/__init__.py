"""Fused GPU ops for the decoding hot path.

Each op lives in its own file with a Triton kernel, a launcher, a plain-torch reference
(``*_ref``) and one public function. The public function takes the Triton path on CUDA tensors
and the reference elsewhere; :func:`set_backend` lets tests and benchmarks force either path.
The engine calls only the public functions re-exported here.
"""

from kernels.attention import block_attention
from kernels.dispatch import set_backend, use_triton
from kernels.rmsnorm import rmsnorm
from kernels.rope import apply_rope, rope_cos_sin
from kernels.swiglu import swiglu
from kernels.unmask import unmask_select

__all__ = [
    "apply_rope",
    "block_attention",
    "rmsnorm",
    "rope_cos_sin",
    "set_backend",
    "swiglu",
    "unmask_select",
    "use_triton",
]
