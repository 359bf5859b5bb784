"""GPU benchmark of the engine's forward pass at real model sizes (random bf16 weights).

Two geometries are built directly on the GPU, no checkpoint needed:

- ``llada-8b``: LLaDA-8B (hidden 4096, 32 layers, 32 heads, MLP 12288, vocab 126464),
  bidirectional;
- ``bd-1.5b``: a 1.5B block-diffusion model shaped like Qwen2.5-1.5B / Fast-dLLM v2 (hidden
  1536, 28 layers, 12 heads / 2 KV heads, MLP 8960, vocab 151936, tied head, blocks of 32).

For batch 1 and 8, a 256-token prompt and a 32-token block, each is timed two ways:

- **full**: the full-recompute step (``reference`` mode: every step re-encodes prompt + reply);
- **cached**: a steady-state step of ``cache`` mode (the block is fed — for LLaDA's prefix cache
  with every masked position after it, none with the default one-block reply; the prefix, and
  for block-causal models every finished block, is read from the KV cache),

each with the Triton kernels on and off (``kernels.set_backend("triton" | "torch")``). Two
timings per case: ``forward ms`` replays the engine's exact forward pass (the runner's batch
captured from a real step: same ids, positions, cache metadata and logit window, wherever the
step's plan put the block among the fed tokens) plus the head on the window and the unmask
selection, timed with CUDA events; ``step ms`` is a whole ``Engine.step()`` (planning,
host↔device metadata, forward, commit), timed on the wall clock. Each replay is checked against
the logits of the step it was captured from (``replay_max_diff``, zero up to rounding).
Achieved weight-read bandwidth is parameter bytes (the untied input embedding excluded: only a
few rows are gathered) per forward, shown against a measured device-to-device copy bandwidth
(read + write bytes per second). A table comes first, then one JSON line.

Run from the repository root: ``python bench/gpu_engine.py`` (about 2–4 minutes on an H100/H200;
the model builds dominate). Without CUDA it exits with a one-line message and status 2.
``--cpu-smoke`` runs the same code at toy sizes on the CPU (Triton under its interpreter), with a
two-block reply so that LLaDA's cache step feeds a masked suffix: about a minute, a check of the
logic before GPU time is spent.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

GEOMETRIES: dict[str, dict] = {
    "llada-8b": dict(
        family="llada", vocab_size=126464, hidden_size=4096, intermediate_size=12288,
        num_layers=32, num_heads=32, num_kv_heads=32, rope_theta=500000.0, rms_norm_eps=1e-5,
        mask_token_id=126336, eos_token_ids=[126081], max_position_embeddings=4096,
    ),
    "bd-1.5b": dict(
        family="fast_dllm_v2", vocab_size=151936, hidden_size=1536, intermediate_size=8960,
        num_layers=28, num_heads=12, num_kv_heads=2, rope_theta=1000000.0, rms_norm_eps=1e-6,
        tie_word_embeddings=True, block_size=32, mask_token_id=151665, eos_token_ids=[151645],
        max_position_embeddings=32768,
    ),
}  # fmt: skip

# --cpu-smoke: the same code path at toy sizes, to check the logic without a GPU.
SMOKE_GEOMETRIES: dict[str, dict] = {
    "llada-8b": dict(GEOMETRIES["llada-8b"], vocab_size=512, hidden_size=64,
                     intermediate_size=128, num_layers=2, num_heads=4, num_kv_heads=4,
                     mask_token_id=500, eos_token_ids=[1]),
    "bd-1.5b": dict(GEOMETRIES["bd-1.5b"], vocab_size=640, hidden_size=48, intermediate_size=96,
                    num_layers=2, num_heads=6, num_kv_heads=2, block_size=8, mask_token_id=600,
                    eos_token_ids=[1]),
}  # fmt: skip


@dataclass
class Case:
    """One measured configuration and its numbers."""

    model: str
    batch: int
    step: str  # "full" | "cached"
    kernels: str  # "triton" | "torch"
    fed_tokens: int = 0  # query tokens per forward, whole batch
    forward_ms: float | None = None
    replay_max_diff: float | None = None  # replayed logits vs the captured step's
    step_ms: float | None = None
    weight_gbps: float | None = None
    of_copy: float | None = None  # weight_gbps / copy bandwidth
    error: str | None = None
    extra: dict = field(default_factory=dict)


class _Ids:
    """Tokenizer stand-in: the benchmark feeds token ids and never reads text."""

    def __init__(self, eos: int) -> None:
        self.eos_token_ids = [eos]

    def decode(self, ids: list[int]) -> str:
        return ""


def _one_line(e: BaseException) -> str:
    return f"{type(e).__name__}: {' '.join(str(e).split())}"[:300]


# --- timing ---------------------------------------------------------------------------------
def _sync(device) -> None:
    import torch

    if device.type == "cuda":
        torch.cuda.synchronize(device)


def time_gpu_ms(fn: Callable[[], object], device, warmup: int, iters: int) -> float:
    """Median milliseconds of ``fn``: CUDA events on a GPU, the wall clock elsewhere."""
    import torch

    for _ in range(warmup):
        fn()
    _sync(device)
    times = []
    for _ in range(iters):
        if device.type == "cuda":
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        else:
            t0 = time.perf_counter()
            fn()
            times.append(1000 * (time.perf_counter() - t0))
    return statistics.median(times)


def copy_bandwidth_gbps(device, nbytes: int) -> float:
    """Device-to-device copy bandwidth, counting bytes read plus bytes written."""
    import torch

    src = torch.empty(nbytes // 2, dtype=torch.bfloat16, device=device).normal_()
    dst = torch.empty_like(src)
    ms = time_gpu_ms(lambda: dst.copy_(src), device, warmup=3, iters=10)
    return 2 * nbytes / (ms / 1000) / 1e9


# --- model --------------------------------------------------------------------------------------
def build_model(geometry: dict, device, dtype):
    """A DiffusionLM with random weights allocated straight on ``device`` in ``dtype``."""
    import torch

    from engine.model import DiffusionLM, ModelConfig

    cfg = ModelConfig(**geometry)
    old = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        with torch.device("meta"):
            model = DiffusionLM(cfg)
    finally:
        torch.set_default_dtype(old)
    model = model.to_empty(device=device)
    if cfg.tie_word_embeddings:  # to_empty gives each module its own tensor
        model.lm_head.weight = model.model.embed_tokens.weight
    g = torch.Generator(device=device).manual_seed(0)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name:
                p.fill_(1.0)
            else:  # GPT-2 style: small enough that 32 layers stay finite in bf16
                p.normal_(0.0, 0.02, generator=g)
    return model.eval().requires_grad_(False)


def weight_bytes(model) -> int:
    """Bytes of weights one forward pass reads (unique tensors; untied embedding excluded)."""
    seen, total = set(), 0
    emb = model.model.embed_tokens.weight
    tied = model.lm_head.weight is emb
    for p in model.parameters():
        if id(p) in seen or (p is emb and not tied):
            continue
        seen.add(id(p))
        total += p.numel() * p.element_size()
    return total


# --- measurements ---------------------------------------------------------------------------------
def measure(
    engine, kind: str, batch: int, prompt: int, gen: int, block: int, warmup: int, iters: int
) -> tuple[float, float, int, float, Callable[[], object]]:
    """(forward ms, step ms, fed tokens, replay max |diff|, replay) for one step kind at ``batch``.

    Requests are added with random prompt ids; one untimed step puts them in steady state (the
    cache-mode refresh / prefill), ``warmup`` more steps compile and warm, then ``iters`` timed
    engine steps follow, each committing one token of the block. The runner's batch of the next
    step is captured with the logits it gave; ``replay`` reruns that batch (forward, head on
    each row's window as the step's plan placed it, unmask selection) and returns the window
    logits — timed alone, it is the GPU-only number. Replayed logits must equal the step's.
    """
    import torch

    from engine.sampling import SamplingParams

    model, device = engine.model, engine.device
    cfg = model.cfg
    if kind == "full":
        params = SamplingParams(
            mode="reference", max_new_tokens=gen, block_size=block, tokens_per_step=1
        )
    else:
        params = SamplingParams(
            mode="cache", max_new_tokens=gen, block_size=block, threshold=1.0, early_stop=False
        )
    g = torch.Generator().manual_seed(batch)
    rids = []
    for _ in range(batch):
        ids = torch.randint(0, cfg.vocab_size, (prompt,), generator=g)
        ids[ids == cfg.mask_token_id] = 0
        rids.append(engine.add_request(prompt_ids=ids.tolist(), params=params))
    try:
        for _ in range(1 + warmup):  # admission + refresh/prefill, then warm-up steps
            engine.step()
        steps = []
        for _ in range(iters):
            _sync(device)
            t0 = time.perf_counter()
            out = engine.step()
            _sync(device)
            steps.append(1000 * (time.perf_counter() - t0))
            if out.finished:
                raise RuntimeError(
                    f"requests ended during timing: {out.finished[0].finish_reason} "
                    f"{out.finished[0].error or ''}".strip()
                )
        if len(engine.running) != batch:
            raise RuntimeError(f"{len(engine.running)} of {batch} requests still running")

        # Capture the next step's batch (the window rows say where each plan's block lies among
        # the fed tokens: at the end for a block-causal model, before the masked suffix for
        # LLaDA's prefix cache) and the logits the step computed from it; then replay it alone.
        runner = engine.runner
        captured: dict = {}
        real_run = runner.run

        def spy(b):
            out = real_run(b)
            captured.update(batch=b, logits=out.clone())  # the engine may edit its logits
            return out

        runner.run = spy
        try:
            engine.step()
        finally:
            del runner.run
        b = captured["batch"]
        fed = int(b.cache.valid.sum())
        thr = torch.full((batch,), 0.9, device=device)
        zeros = torch.zeros(batch, dtype=torch.long, device=device)
        temp = torch.zeros(batch, device=device)
        from kernels import unmask_select

        def forward():
            with torch.inference_mode():
                logits = runner.run(b)  # [B, Lw, V]: forward, then the head on each window
                unmask_select(logits, b.eligible, thr, zeros, temp, zeros, seed=0)
                return logits

        diff = _max_diff(forward(), captured["logits"])
        fwd_ms = time_gpu_ms(forward, device, warmup=warmup, iters=iters)
        return fwd_ms, statistics.median(steps), fed, diff, forward
    finally:
        for rid in rids:
            engine.abort(rid)


def _max_diff(a, b) -> float:
    """Largest |a - b| over finite entries; inf where the two disagree on which are finite."""
    import torch

    a, b = a.float(), b.float()
    finite = torch.isfinite(b)  # the mask token's logit is -inf in both
    if not torch.equal(finite, torch.isfinite(a)):
        return float("inf")
    return float((a - b)[finite].abs().max()) if bool(finite.any()) else 0.0


def run(args) -> dict:
    import torch

    import kernels
    from engine.config import EngineConfig
    from engine.engine import Engine

    smoke = args.cpu_smoke
    device = torch.device("cpu" if smoke else "cuda")
    dtype = torch.float32 if smoke else torch.bfloat16
    geometries = SMOKE_GEOMETRIES if smoke else GEOMETRIES
    prompt, block, gen = args.prompt, args.block, args.gen or args.block
    batches = [int(b) for b in args.batches.split(",")]
    backends = [b for b in args.kernels.split(",") if b]
    say = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731

    name = "cpu (smoke test)" if smoke else torch.cuda.get_device_name(device)
    say(f"gpu_engine: {name}; measuring copy bandwidth")
    copy_gbps = copy_bandwidth_gbps(device, (64 << 20) if smoke else (1 << 30))
    cases: list[Case] = []
    checks: dict[str, dict] = {}
    for model_name in args.models.split(","):
        geometry = dict(geometries[model_name])
        if geometry["family"] == "fast_dllm_v2":
            geometry["block_size"] = block if not smoke else geometry["block_size"]
        t0 = time.perf_counter()
        say(f"gpu_engine: building {model_name} with random weights")
        model = build_model(geometry, device, dtype)
        nbytes = weight_bytes(model)
        n_params = sum(p.numel() for p in model.parameters())
        bs = model.cfg.block_size if model.cfg.block_causal else block
        max_len = prompt + gen + bs + 64
        engine = Engine(
            model,
            _Ids(model.cfg.eos_token_ids[0]),
            EngineConfig(
                model=f"random:{model_name}",
                device=device.type,
                max_batch_size=max(batches),
                max_model_len=max(64, max_len),
            ),
            device,
        )
        say(
            f"gpu_engine: {model_name}: {n_params / 1e9:.2f}B parameters, "
            f"{nbytes / 1e9:.2f} GB read per forward, built in {time.perf_counter() - t0:.1f} s"
        )
        replay: Callable[[], object] | None = None
        for backend in backends:
            kernels.set_backend(backend)
            for batch in batches:
                for kind in ("full", "cached"):
                    case = Case(model_name, batch, kind, backend)
                    say(f"gpu_engine: {model_name} batch {batch} {kind} {backend}")
                    try:
                        fwd, step, fed, diff, again = measure(
                            engine, kind, batch, prompt, gen, block, args.warmup, args.iters
                        )
                        case.forward_ms, case.step_ms, case.fed_tokens = fwd, step, fed
                        case.replay_max_diff = float(f"{diff:.3g}")
                        case.weight_gbps = nbytes / (fwd / 1000) / 1e9
                        case.of_copy = case.weight_gbps / copy_gbps
                        if replay is None and kind == "full":
                            replay = again  # writes every K/V it reads: self-contained
                        again = None  # holds the model and cache alive
                    except Exception as e:  # one failing case must not hide the others
                        case.error = _one_line(e)
                        if os.environ.get("DIFFVOICE_DEBUG"):
                            raise
                    cases.append(case)
        checks[model_name] = {"parameters": n_params, "weight_gb": round(nbytes / 1e9, 3)}
        if replay is not None and {"torch", "triton"} <= set(backends):
            # One captured full-recompute pass, replayed under each backend: same inputs, so
            # the logits may differ only by rounding.
            try:
                out = {}
                for backend in ("torch", "triton"):
                    kernels.set_backend(backend)
                    out[backend] = replay()[0].float()  # [Lw, V], batch row 0's window
                a, b = out["torch"], out["triton"]
                checks[model_name].update(
                    max_abs_logit_diff=float(f"{_max_diff(b, a):.3g}"),
                    argmax_agreement=round(float((a.argmax(-1) == b.argmax(-1)).float().mean()), 4),
                )
            except Exception as e:
                checks[model_name]["check_error"] = _one_line(e)
        kernels.set_backend("auto")
        replay = None
        del engine, model
        if device.type == "cuda":
            torch.cuda.empty_cache()
    return {
        "device": name,
        "dtype": str(dtype).removeprefix("torch."),
        "prompt": prompt,
        "block": block,
        "gen": gen,
        "copy_gbps": round(copy_gbps, 1),
        "models": checks,
        "cases": [
            {
                k: (round(v, 3) if isinstance(v, float) else v)
                for k, v in vars(c).items()
                if k != "extra"
            }
            for c in cases
        ],
        "speedups": _speedups(cases),
    }


def _speedups(cases: list[Case]) -> list[dict]:
    """Per model and batch: cached over full (each backend), Triton over torch (each step)."""
    ms = {(c.model, c.batch, c.step, c.kernels): c.forward_ms for c in cases if c.forward_ms}
    out = []
    for model, batch in dict.fromkeys((c.model, c.batch) for c in cases):
        row: dict = {"model": model, "batch": batch}
        for k in ("torch", "triton"):
            full, cached = ms.get((model, batch, "full", k)), ms.get((model, batch, "cached", k))
            if full and cached:
                row[f"cached_vs_full_{k}"] = round(full / cached, 2)
        for s in ("full", "cached"):
            t, tr = ms.get((model, batch, s, "torch")), ms.get((model, batch, s, "triton"))
            if t and tr:
                row[f"triton_vs_torch_{s}"] = round(t / tr, 2)
        out.append(row)
    return out


def format_table(report: dict) -> str:
    head = (
        f"{'model':<9} {'batch':>5} {'step':<6} {'kernels':<7} {'fed':>5} "
        f"{'forward ms':>10} {'step ms':>8} {'weights GB/s':>12} {'of copy':>7} {'replay':>8}"
    )
    lines = [
        f"{report['device']}: copy bandwidth {report['copy_gbps']:.0f} GB/s (read + write); "
        f"prompt {report['prompt']}, block {report['block']}, {report['dtype']}",
        head,
    ]
    for c in report["cases"]:
        if c["error"]:
            lines.append(
                f"{c['model']:<9} {c['batch']:>5} {c['step']:<6} {c['kernels']:<7} "
                f"error: {c['error']}"
            )
            continue
        lines.append(
            f"{c['model']:<9} {c['batch']:>5} {c['step']:<6} {c['kernels']:<7} "
            f"{c['fed_tokens']:>5} {c['forward_ms']:>10.2f} {c['step_ms']:>8.2f} "
            f"{c['weight_gbps']:>12.0f} {c['of_copy']:>7.0%} {c['replay_max_diff']:>8.1e}"
        )
    for s in report["speedups"]:
        parts = [
            f"{k.replace('_', ' ')} {v:.2f}x" for k, v in s.items() if k not in ("model", "batch")
        ]
        lines.append(f"{s['model']} batch {s['batch']}: " + ", ".join(parts))
    for m, c in report["models"].items():
        if "max_abs_logit_diff" in c:
            lines.append(
                f"{m}: triton vs torch logits max |diff| {c['max_abs_logit_diff']}, "
                f"argmax agreement {c['argmax_agreement']:.0%}"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models", default="llada-8b,bd-1.5b")
    p.add_argument("--batches", default="1,8")
    p.add_argument("--prompt", type=int, default=256)
    p.add_argument("--block", type=int, default=32)
    p.add_argument("--gen", type=int, default=0, help="reply length (default: one block)")
    p.add_argument("--kernels", default="torch,triton", help="backends to compare")
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--iters", type=int, default=10)
    p.add_argument("--cpu-smoke", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.cpu_smoke:
        # Tiny shapes on the CPU; Triton kernels (if asked for) run in its interpreter, which
        # must be switched on before any kernel is defined.
        os.environ.setdefault("TRITON_INTERPRET", "1")
        if args.prompt == 256:
            args.prompt, args.block = 16, 8
        args.gen = args.gen or 2 * args.block  # LLaDA's cache step then feeds a masked suffix
        import torch

        torch.set_num_threads(1)  # toy sizes: threads only fight over the cores
        if args.batches == "1,8":
            args.batches = "1,2"
        # The interpreted Triton kernels take about a second a forward even at toy sizes: one
        # timed step and no warm-up keep the whole run near a minute (timings mean nothing here).
        args.iters, args.warmup = min(args.iters, 1), 0
    import torch

    if not args.cpu_smoke and not torch.cuda.is_available():
        print(
            "gpu_engine: no CUDA device found; this benchmark needs one GPU (H100/H200 class)",
            file=sys.stderr,
        )
        return 2
    unknown = [m for m in args.models.split(",") if m not in GEOMETRIES]
    if unknown:
        print(
            f"gpu_engine: unknown model {unknown[0]!r}; choose from {', '.join(GEOMETRIES)}",
            file=sys.stderr,
        )
        return 2
    if args.gen and args.gen < args.block:
        print("gpu_engine: --gen must be at least --block", file=sys.stderr)
        return 2
    if args.warmup + args.iters + 2 > args.block:
        # every step commits one token of the first block: it must outlast warm-up and timing,
        # or a cached run would time the next block's full pass too
        print("gpu_engine: --warmup + --iters + 2 must not exceed --block", file=sys.stderr)
        return 2
    report = run(args)
    print(format_table(report))
    print(json.dumps(report))
    return 0 if not any(c["error"] for c in report["cases"]) else 1


if __name__ == "__main__":
    sys.exit(main())
