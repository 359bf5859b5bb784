"""Decoding benchmark: LLaDA's reference decoder and every fast mode on the same model, one run.

A fixed set of short voice-assistant questions goes through the reference (one token per step,
full recompute, no early stop) and each fast mode (``parallel``, ``cache``, ``dual_cache``), one
request at a time, after a warm-up; then, as the row ``cache@batch``, all questions at once in
``cache`` mode. Per mode: reply tokens per second, tokens per forward pass, milliseconds per
forward pass, time to first text, peak memory, speed-up over the reference, and agreement with
the reference (the share of questions whose reply equals the reference's once whitespace, case
and punctuation are normalised). A table goes to stdout, progress to stderr, and the last line
is one JSON object ``{"modes": {...}, "setup": {...}}`` for scripts.

``diffvoice bench [--model PATH] [--device ...] [--modes ...] [--prompts N]`` calls :func:`main`;
``python -m bench.decoding`` does too.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import sys
import time
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path

import torch

from engine.config import DEMO_MODEL, EngineConfig
from engine.engine import Engine
from engine.errors import UserError
from engine.llm import LLM
from engine.sampling import MODES, SamplingParams
from engine.sequence import GenerationResult

FAST_MODES = ("parallel", "cache", "dual_cache")
BATCH_ROW = "cache@batch"

# Short questions of the kind people ask a voice assistant.
PROMPTS = (
    "What is the capital of France?",
    "How many days are there in a week?",
    "What is seven times eight?",
    "Tell me a short joke.",
    "What's the weather usually like in spring?",
    "How far away is the moon?",
    "Can you set a timer for ten minutes?",
    "What is the biggest planet in the solar system?",
    "Say hello to my friend Anna.",
    "How do I boil an egg?",
    "What time zone is London in?",
    "Spell the word cat.",
    "What is twelve plus thirty?",
    "Who wrote Romeo and Juliet?",
    "What colour is the sky?",
    "Thank you, that's all for now.",
)

_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Lower case, punctuation removed, whitespace collapsed: how replies are compared."""
    kept = "".join(c for c in text.lower() if not unicodedata.category(c).startswith("P"))
    return _SPACE.sub(" ", kept).strip()


def mode_params(
    mode: str, max_new_tokens: int, threshold: float, block_size: int
) -> SamplingParams:
    """Greedy parameters of one mode; the reference commits one token per step."""
    if mode == "reference":
        return SamplingParams(
            mode="reference",
            max_new_tokens=max_new_tokens,
            block_size=block_size,
            tokens_per_step=1,
        )
    return SamplingParams(
        mode=mode, max_new_tokens=max_new_tokens, block_size=block_size, threshold=threshold
    )


def as_llm(model: LLM | Engine | EngineConfig | str | Path) -> LLM:
    """An :class:`LLM` from an LLM, an Engine, an EngineConfig or a checkpoint path."""
    if isinstance(model, LLM):
        return model
    if isinstance(model, Engine):
        return LLM(model)
    if isinstance(model, EngineConfig):
        return LLM(Engine.load(model))
    if isinstance(model, str | Path):
        return LLM.load(str(model))
    raise TypeError(f"expected an LLM, Engine, EngineConfig or path, not {type(model).__name__}")


# --- measuring ----------------------------------------------------------------------------------
def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def _reset_peak(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats(device)


def _peak_mb(device: torch.device) -> float:
    """CUDA: most memory allocated since the last reset. CPU: the process's peak RSS so far."""
    if device.type == "cuda":
        return torch.cuda.max_memory_allocated(device) / 2**20
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / 2**20 if sys.platform == "darwin" else rss / 2**10  # bytes on macOS, else KiB


def _summary(
    results: list[GenerationResult], seconds: float, forwards: int, peak_mb: float
) -> dict:
    tokens = sum(r.num_tokens for r in results)
    firsts = [r.time_to_first_text_s for r in results if r.time_to_first_text_s is not None]
    return {
        "prompts": len(results),
        "tokens": tokens,
        "forwards": forwards,
        "seconds": round(seconds, 4),
        "tokens_per_s": round(tokens / seconds, 2) if seconds > 0 else 0.0,
        "tokens_per_forward": round(tokens / forwards, 3) if forwards else 0.0,
        "ms_per_forward": round(1000 * seconds / forwards, 3) if forwards else 0.0,
        "time_to_first_text_ms": round(1000 * sum(firsts) / len(firsts), 2) if firsts else None,
        "reply_ms": round(1000 * sum(r.total_s for r in results) / len(results), 2),
        "peak_memory_mb": round(peak_mb, 1),
        "errors": sum(r.finish_reason == "error" for r in results),
    }


def _one_at_a_time(
    llm: LLM, conversations: list[list[dict]], params: SamplingParams
) -> tuple[list[GenerationResult], dict]:
    device = llm.engine.device
    _sync(device)
    _reset_peak(device)
    t0 = time.perf_counter()
    results = [llm.chat(c, params) for c in conversations]
    _sync(device)
    seconds = time.perf_counter() - t0
    forwards = sum(r.nfe for r in results)
    return results, _summary(results, seconds, forwards, _peak_mb(device))


def _all_at_once(
    llm: LLM, conversations: list[list[dict]], params: SamplingParams
) -> tuple[list[GenerationResult], dict]:
    """Every conversation queued together; forwards counts batched passes, not per request."""
    engine = llm.engine
    _sync(engine.device)
    _reset_peak(engine.device)
    t0 = time.perf_counter()
    ids = [engine.add_request(c, params) for c in conversations]
    done: dict[str, GenerationResult] = {}
    steps = 0
    while len(done) < len(ids):
        out = engine.step()
        steps += 1
        done.update((r.request_id, r) for r in out.finished)
    _sync(engine.device)
    seconds = time.perf_counter() - t0
    results = [done[i] for i in ids]
    summary = _summary(results, seconds, steps, _peak_mb(engine.device))
    summary["batch"] = min(len(ids), engine.config.max_batch_size)
    summary["reply_ms"] = round(1000 * seconds, 2)  # every reply waits for the whole batch
    return results, summary


def run_bench(
    llm_or_engine_config: LLM | Engine | EngineConfig | str | Path,
    prompts: Sequence[str] | None = None,
    modes: Sequence[str] = ("reference", *FAST_MODES),
    *,
    max_new_tokens: int = 48,
    threshold: float = 0.9,
    block_size: int = 32,
    batched: bool = True,
    warmup: bool = True,
    progress: Callable[[str], None] | None = None,
) -> dict:
    """Run every mode over ``prompts`` (default: :data:`PROMPTS`) on one model.

    The reference always runs (agreement is measured against it), first. Returns
    ``{"modes": {mode: stats}, "setup": {...}, "replies": {mode: [text, ...]}}``; each mode's
    stats hold at least ``tokens_per_s``, ``tokens_per_forward``, ``speedup_vs_reference``
    (tokens per second over the reference's) and ``agreement_with_reference``.
    """
    say = progress or (lambda _msg: None)
    llm = as_llm(llm_or_engine_config)
    questions = list(PROMPTS if prompts is None else prompts)
    if not questions:
        raise ValueError("run_bench needs at least one prompt")
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        raise ValueError(f"unknown mode {unknown[0]!r}; modes: {', '.join(MODES)}")
    order = ["reference", *[m for m in FAST_MODES if m in modes]]
    conversations = [[{"role": "user", "content": q}] for q in questions]
    params = {m: mode_params(m, max_new_tokens, threshold, block_size) for m in order}
    for p in params.values():  # every question must fit before anything is timed
        for c in conversations:
            llm.engine.validate(c, p)

    if warmup:
        say("bench: warming up")
        for m in order:
            llm.chat(conversations[0], params[m])
        if batched:
            _all_at_once(
                llm,
                conversations[:2],
                params["cache"]
                if "cache" in params
                else mode_params("cache", max_new_tokens, threshold, block_size),
            )

    stats: dict[str, dict] = {}
    replies: dict[str, list[str]] = {}
    runs = [(m, _one_at_a_time, params[m]) for m in order]
    if batched:
        runs.append(
            (BATCH_ROW, _all_at_once, mode_params("cache", max_new_tokens, threshold, block_size))
        )
    for name, run, p in runs:
        say(f"bench: {name}, {len(conversations)} prompts")
        results, s = run(llm, conversations, p)
        stats[name], replies[name] = s, [r.text for r in results]

    ref, ref_tps = replies["reference"], stats["reference"]["tokens_per_s"]
    for name, s in stats.items():
        same = sum(normalise(a) == normalise(b) for a, b in zip(replies[name], ref, strict=True))
        s["agreement_with_reference"] = round(same / len(ref), 4)
        s["speedup_vs_reference"] = round(s["tokens_per_s"] / ref_tps, 3) if ref_tps else None
    cfg = llm.engine.model.cfg
    setup = {
        "model": str(llm.engine.config.model),
        "family": cfg.family,
        "parameters": sum(p.numel() for p in llm.engine.model.parameters()),
        "device": str(llm.engine.device),
        "dtype": str(next(llm.engine.model.parameters()).dtype).removeprefix("torch."),
        "prompts": len(conversations),
        "max_new_tokens": max_new_tokens,
        "threshold": threshold,
        "block_size": cfg.block_size if cfg.block_causal else block_size,
        "peak_memory": "cuda_max_allocated"
        if llm.engine.device.type == "cuda"
        else "process_peak_rss",
    }
    return {"modes": stats, "setup": setup, "replies": replies}


# --- output -------------------------------------------------------------------------------------
_COLUMNS = (
    ("mode", "{}", 12),
    ("tokens_per_s", "{:.1f}", 9),
    ("tokens_per_forward", "{:.2f}", 8),
    ("ms_per_forward", "{:.2f}", 8),
    ("time_to_first_text_ms", "{:.1f}", 10),
    ("reply_ms", "{:.1f}", 9),
    ("peak_memory_mb", "{:.0f}", 8),
    ("speedup_vs_reference", "{:.2f}x", 8),
    ("agreement_with_reference", "{:.0%}", 7),
)
_HEADERS = (
    "mode",
    "tok/s",
    "tok/fwd",
    "ms/fwd",
    "first ms",
    "reply ms",
    "peak MB",
    "speedup",
    "agree",
)


def format_table(report: dict) -> str:
    """The report's modes as an aligned text table."""
    lines = [
        "  ".join(
            h.rjust(w) if i else h.ljust(w)
            for i, (h, (_, _, w)) in enumerate(zip(_HEADERS, _COLUMNS, strict=True))
        )
    ]
    for name, s in report["modes"].items():
        cells = []
        for i, (key, fmt, width) in enumerate(_COLUMNS):
            v = name if key == "mode" else s.get(key)
            cell = "-" if v is None else fmt.format(v)
            cells.append(cell.rjust(width) if i else cell.ljust(width))
        lines.append("  ".join(cells))
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="diffvoice bench",
        description="Decoding benchmark: the reference decoder vs parallel, cache and dual_cache "
        "on the same model; prints a table and, last, one JSON line.",
    )
    p.add_argument("--model", default=DEMO_MODEL, help="checkpoint folder or hub id")
    p.add_argument("--device", default="auto", help="auto | cpu | cuda | cuda:N")
    p.add_argument("--dtype", default="auto", help="auto | float32 | bfloat16 | float16")
    p.add_argument(
        "--modes",
        default=",".join(FAST_MODES),
        help="fast modes to compare with the reference, comma-separated (default: all)",
    )
    p.add_argument(
        "--prompts",
        type=int,
        default=len(PROMPTS),
        metavar="N",
        help=f"how many of the {len(PROMPTS)} built-in questions to ask (default all: one "
        "prompt of 8 moves agreement by 12 points)",
    )
    p.add_argument("--max-new-tokens", type=int, default=48)
    p.add_argument("--threshold", type=float, default=0.9)
    p.add_argument(
        "--block-size",
        type=int,
        default=32,
        help="semi-autoregressive block for bidirectional models",
    )
    p.add_argument("--max-model-len", type=int, default=1024)
    p.add_argument("--no-batch", action="store_true", help="skip the cache@batch row")
    p.add_argument(
        "--constrained",
        action="store_true",
        help="instead: grammar-constrained vs free decoding on the same prompts, per mode: "
        "tokens per forward, validity, the expected tool and field accuracy on a labelled "
        "JSON set (bench/constrained.py)",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``diffvoice bench``: run the benchmark, print the table, then one JSON line."""
    args = build_parser().parse_args(None if argv is None else list(argv))
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if not 1 <= args.prompts <= len(PROMPTS):
        print(f"bench: error: --prompts must be between 1 and {len(PROMPTS)}", file=sys.stderr)
        return 2

    def progress(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    try:
        config = EngineConfig(
            model=args.model,
            device=args.device,
            dtype=args.dtype,
            max_batch_size=args.prompts,
            max_model_len=args.max_model_len,
        )
        progress(f"bench: loading {config.model}")
        if args.constrained:
            from bench import constrained

            llm = as_llm(config)
            setup = {"model": config.model, "device": str(llm.engine.device),
                     "max_new_tokens": args.max_new_tokens, "threshold": args.threshold}
            return constrained.main(llm, modes, args.max_new_tokens, args.threshold, setup)
        report = run_bench(
            config,
            PROMPTS[: args.prompts],
            ["reference", *modes],
            max_new_tokens=args.max_new_tokens,
            threshold=args.threshold,
            block_size=args.block_size,
            batched=not args.no_batch,
            progress=progress,
        )
    except (UserError, ValueError) as e:  # a model that will not load, a bad flag value
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        if args.model == DEMO_MODEL and not Path(DEMO_MODEL).exists():
            msg += " (the demo model is not trained yet: `diffvoice train`, or pass --model)"
        print(f"bench: error: {msg}", file=sys.stderr)
        return 2
    setup = report["setup"]
    print(
        f"{setup['model']} ({setup['family']}, {setup['parameters'] / 1e6:.1f}M parameters) "
        f"on {setup['device']} {setup['dtype']}; {setup['prompts']} prompts, "
        f"max_new_tokens {setup['max_new_tokens']}, threshold {setup['threshold']}"
    )
    print(format_table(report))
    print(json.dumps({"modes": report["modes"], "setup": setup}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
