"""Every kernel compiles for a Hopper GPU (sm_90), checked on a machine without one.

The interpreter runs kernels as numpy code, so it cannot catch what only the GPU compiler
rejects (layouts, dot shapes, branch type unification). Triton compiles ahead of time down to
a cubin with its bundled ptxas and no device, so the launch-time specialisations (16-byte
aligned pointers, unit strides) are reproduced here and each kernel is compiled in a fresh
process without TRITON_INTERPRET.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
I32, F32 = "i32", "fp32"


def _specs() -> list[tuple[str, str, dict[str, str], dict[str, object], dict[str, int]]]:
    """(module, kernel, runtime arg types, constexpr values, launch options)."""
    specs = []
    # Per-row settings come in whatever dtype the engine keeps them: try two of each.
    for dt, block, fdt, idt in (("bf16", 4096, "fp32", "i64"), ("fp16", 4096, "fp64", "i32"),
                                ("fp32", 2048, "fp32", "i64")):  # fmt: skip
        row = dict(logits_ptr=f"*{dt}", temp_ptr=f"*{fdt}", L=I32, V=I32, stride_b=I32,
                   stride_l=I32)  # fmt: skip
        specs.append(("unmask", "_topk_cut_kernel", {**row, "topk_ptr": f"*{idt}",
                      "cut_ptr": "*fp32"}, {"BLOCK_V": block, "stride_v": 1},
                      {"num_warps": 8}))  # fmt: skip
        parts = {f"part_{c}_ptr": "*fp32" for c in "mdsx"}
        specs.append(("unmask", "_unmask_partial_kernel",
                      {**row, **parts, "part_i_ptr": "*i32", "cut_ptr": "*fp32", "seed_ptr": "*i64",
                       "tiles_per_split": I32},
                      {"BLOCK_V": block, "stride_v": 1}, {"num_warps": 8}))  # fmt: skip
        comb = {f"part_{c}_ptr": "*fp32" for c in "mdsx"}
        comb.update(part_i_ptr="*i32", masked_ptr="*u8", thr_ptr=f"*{fdt}", n_ptr=f"*{idt}",
                    tokens_ptr="*i64", conf_ptr="*fp32", commit_ptr="*u8", L=I32,
                    S=I32)  # fmt: skip
        specs.append(("unmask", "_unmask_combine_kernel", comb,
                      {"BLOCK_L": 32, "BLOCK_S": 16, "BLOCK_J": 32}, {"num_warps": 4}))  # fmt: skip
    for dt, wdt, res, block in (("bf16", "bf16", True, 4096), ("fp16", "fp32", False, 1024)):
        sig = dict(x_ptr=f"*{dt}", res_ptr=f"*{dt}", w_ptr=f"*{wdt}", y_ptr=f"*{dt}",
                   h_ptr=f"*{dt}", H=I32, stride_x=I32, stride_r=I32, stride_y=I32,
                   stride_h=I32, eps=F32)  # fmt: skip
        specs.append(("rmsnorm", "_rmsnorm_kernel", sig, {"HAS_RES": res, "BLOCK_H": block},
                      {"num_warps": block // 512}))  # fmt: skip
    specs.append(("swiglu", "_swiglu_kernel",
                  dict(g_ptr="*bf16", u_ptr="*bf16", o_ptr="*bf16", I=I32, stride_g=I32,
                       stride_u=I32, stride_o=I32), {"BLOCK": 1024}, {"num_warps": 4}))  # fmt: skip
    rope = dict(q_ptr="*bf16", k_ptr="*bf16", cos_ptr="*fp32", sin_ptr="*fp32", L=I32, HQ=I32,
                HK=I32, half=I32)  # fmt: skip
    rope.update({f"{p}_{d}": I32 for p in ("sq", "sk") for d in "blh"})
    rope.update({f"{p}_{d}": I32 for p in ("sc", "ss") for d in "bl"})
    specs.append(("rope", "_rope_kernel", rope,
                  {"BLOCK_H": 32, "BLOCK_D": 64, "sq_d": 1, "sk_d": 1, "sc_d": 1, "ss_d": 1},
                  {"num_warps": 4}))  # fmt: skip
    for dt, D, split, prec, idx in (
        ("bf16", 128, False, "tf32", "i32"),
        ("bf16", 128, True, "tf32", "i64"),
        ("fp16", 64, False, "tf32", "i64"),
        ("fp32", 64, False, "ieee", "i32"),
    ):
        att = dict(q_ptr=f"*{dt}", k_ptr=f"*{dt}", v_ptr=f"*{dt}",
                   o_ptr="*fp32" if split else f"*{dt}", ml_ptr="*fp32", slots_ptr=f"*{idx}",
                   lim_ptr=f"*{idx}", LQ=I32, HKV=I32, G=I32, S=I32, D=I32, M_PAD=I32,
                   qk_scale=F32, sl_b=I32, sl_l=I32)  # fmt: skip
        att.update({f"{p}_{d}": I32 for p in ("sq", "so") for d in "blh"})
        att.update({f"{p}_{d}": I32 for p in ("sk", "sv") for d in "nsh"})
        const = {"BLOCK_M": 32, "BLOCK_N": 64, "BLOCK_D": D, "SPLIT": split, "UPCAST": False,
                 "DOT_PREC": prec, "sq_d": 1, "sk_d": 1, "sv_d": 1, "so_d": 1}  # fmt: skip
        specs.append(("attention", "_block_attn_kernel", att, const,
                      {"num_warps": 4, "num_stages": 3}))  # fmt: skip
    specs.append(("attention", "_block_attn_combine_kernel",
                  dict(acc_ptr="*fp32", ml_ptr="*fp32", o_ptr="*bf16", R=I32, n_split=I32,
                       LQ=I32, HKV=I32, G=I32, D=I32, M_PAD=I32, so_b=I32, so_l=I32,
                       so_h=I32), {"BLOCK_D": 128, "so_d": 1}, {"num_warps": 2}))  # fmt: skip
    return specs


def compile_all() -> None:
    """Compile every spec for sm_90 (run in a process without TRITON_INTERPRET)."""
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    from triton.compiler import compile as triton_compile

    target = GPUTarget("cuda", 90, 32)
    for module, name, sig, const, opts in _specs():
        fn = getattr(importlib.import_module(f"kernels.{module}"), name)
        names = fn.arg_names
        missing = set(names) - set(sig) - set(const)
        assert not missing, f"{name}: no type for {sorted(missing)}"
        signature = {n: "constexpr" if n in const else sig[n] for n in names}
        # As at launch: pointers are 16-byte aligned.
        attrs = {(names.index(n),): [["tt.divisibility", 16]] for n in names
                 if n not in const and sig[n].startswith("*")}  # fmt: skip
        constexprs = {(names.index(n),): v for n, v in const.items()}
        src = ASTSource(fn=fn, signature=signature, constexprs=constexprs, attrs=attrs)
        binary = triton_compile(src, target=target, options=opts)
        assert binary.asm.get("cubin"), f"{name}: no cubin"
        print(f"compiled {module}.{name}")


def test_kernels_compile_for_sm90():
    pytest.importorskip("triton.backends.nvidia")
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env["TRITON_DEFAULT_FP_FUSION"] = "1"  # the default; set to silence Triton's notice
    code = "from tests.kernels.test_compile_kernel import compile_all; compile_all()"
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    assert proc.stdout.count("compiled ") == len(_specs())
