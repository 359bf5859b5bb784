"""Train the demo diffusion chat model: ``python -m training.train --config FILE``.

The masked-diffusion objective for one reply block: each training reply is masked with its own
ratio t ~ U(t_min, 1), the model sees the prompt and the partly masked reply under block attention
(see :mod:`training.data`), and the loss is cross-entropy on the masked reply positions.

A run lives in ``run_dir`` (tokenizer, ``ckpt.pt`` every ``checkpoint_every`` steps, loss curve)
and resumes from its checkpoint when started again with the same config. At the end the model
folder ``out_dir`` gets the Hugging Face layout the engine loads: ``config.json``,
``model.safetensors`` (bf16), tokenizer files with the chat template, ``generation_config.json``,
``loss.png``, ``training.json`` (command, seed, steps, final loss, wall time) and
``heldout.jsonl`` (the evaluation split this model never saw).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import shlex
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

import torch
from tokenizers import Tokenizer
from tqdm import tqdm

from engine.checkpoint import save_pretrained
from engine.config import parse_overrides
from engine.errors import ConfigError
from engine.model import DiffusionLM, ModelConfig
from training.corpus import build_corpus, build_tool_corpus, texts_for_tokenizer, write_jsonl
from training.data import batch_iter, collate, collate_packed, encode_dialogs
from training.plot import plot_loss
from training.skills_json import build_json_corpus
from training.tokenizer import EOS, MASK, add_tool_tokens, save_tokenizer, train_tokenizer


@dataclass
class TrainConfig:
    """Everything a training run depends on; load presets with :func:`load_config`."""

    out_dir: str = "models/demo"
    run_dir: str = "runs/demo"
    seed: int = 0
    # corpus and tokenizer
    corpus_size: int = 100_000
    vocab_size: int = 3072
    # model (sdar family: Qwen3 layout with q/k RMSNorm, one prompt block + reply blocks)
    hidden_size: int = 384
    intermediate_size: int = 1024
    num_layers: int = 4
    num_heads: int = 6
    num_kv_heads: int = 6
    rope_theta: float = 10000.0
    rms_norm_eps: float = 1e-6
    block_size: int = 32
    # optimisation
    steps: int = 2000
    batch_size: int = 128
    lr: float = 2e-3
    min_lr_ratio: float = 0.1
    warmup_steps: int = 60
    weight_decay: float = 0.1
    grad_clip: float = 1.0
    t_min: float = 0.02
    # Pack random dialogs into rows of this many tokens (0: batch by similar prompt length).
    pack_len: int = 0
    # bf16 autocast: true, false, or "auto" — on only where the CPU computes bf16 fast (AMX or
    # AVX512-BF16). Elsewhere (AVX2-only CPUs) bf16 matmuls run ~30x slower than fp32.
    bf16: bool | str = "auto"
    # Warm start: begin from this model folder's weights and tokenizer (the tool tokens are
    # appended to its vocabulary; their embeddings start as the mean of their pieces').
    init_from: str = ""
    # Tool skills (training.skills_tools): this many tool/refusal rows, mixed with
    # ``old_dialogs`` dialogs of the corpus above (0 = no tool skills; 0 old = all of them).
    tool_dialogs: int = 0
    old_dialogs: int = 0
    # Requests in the shapes of training.requests (half tools, half the model's facts), added
    # to the tool mix above (0 = none).
    grammar_dialogs: int = 0
    # The share of those grammar rows asked after earlier exchanges (training.corpus.with_history).
    grammar_history: float = 0.0
    # More refusal rows, and the share of rows with tools on offer that offer fewer of them
    # (training.corpus.build_tool_corpus).
    refusal_dialogs: int = 0
    fewer_tools: float = 0.0
    # Questions about the world beyond the model's facts, refused (training.corpus.
    # unknown_refusals), and old conversations with follow-ups asked with asides.
    unknown_dialogs: int = 0
    follow_asides: int = 0
    old_asides: int = 0  # and old single questions with an aside (training.corpus.asides)
    # The model's facts corrected as they are said, followed up along their order, or asked by
    # position (training.corpus.fact_turns).
    fact_turns: int = 0
    # JSON replies (training.skills_json): this many rows for structured output, added to the
    # mix above (0 = none).
    json_dialogs: int = 0
    compile: bool = True  # torch.compile the training forward/backward (fuses elementwise ops)
    threads: int = 0  # torch threads; 0 = torch's default
    # Time budgets in minutes (0 = none). The learning-rate schedule follows whichever of
    # steps and budgets is furthest along, and training stops when any runs out.
    # ``time_budget_min`` counts the process's CPU time divided by its threads — the wall time
    # the run would take with the cores to itself — so other work on a shared machine does not
    # eat the model's training; ``max_wall_min`` caps real wall time whatever happens.
    time_budget_min: float = 0.0
    max_wall_min: float = 0.0
    # bookkeeping
    checkpoint_every: int = 100
    log_every: int = 10
    eval_every: int = 0  # quick held-out check with the built-in decoder; 0 = only at the end
    eval_items: int = 256

    def __post_init__(self) -> None:
        if self.hidden_size % self.num_heads:
            raise ValueError("hidden_size must be a multiple of num_heads")
        if self.block_size < 8:
            raise ValueError("block_size must be at least 8")
        if not 0 < self.t_min < 1:
            raise ValueError("t_min must be in (0, 1)")
        if self.steps < 1 or self.batch_size < 1:
            raise ValueError("steps and batch_size must be positive")
        if self.bf16 not in (True, False, "auto"):
            raise ValueError(f"bf16 must be true, false or \"auto\", got {self.bf16!r}")

    @classmethod
    def from_toml(cls, path: str | os.PathLike, sets: list[str] | None = None) -> TrainConfig:
        """A preset file plus ``--set key=value`` overrides (:func:`engine.config.parse_overrides`;
        a key may carry a ``train.`` prefix)."""
        overrides = {k.removeprefix("train."): v for k, v in parse_overrides(sets or []).items()}
        return load_config(path, **overrides)

    def model_config(self, tok: Tokenizer) -> ModelConfig:
        return ModelConfig(
            family="sdar",
            vocab_size=tok.get_vocab_size(),
            hidden_size=self.hidden_size,
            intermediate_size=self.intermediate_size,
            num_layers=self.num_layers,
            num_heads=self.num_heads,
            num_kv_heads=self.num_kv_heads,
            rope_theta=self.rope_theta,
            rms_norm_eps=self.rms_norm_eps,
            tie_word_embeddings=True,
            qk_norm=True,
            mask_token_id=tok.token_to_id(MASK),
            eos_token_ids=[tok.token_to_id(EOS)],
            block_size=self.block_size,
            block_align="prompt",
            json_from_draft=True,  # values in prose, then filled into JSON (engine/fill.py)
            max_position_embeddings=512,
        )


def load_config(path: str | os.PathLike | None = None, **overrides: object) -> TrainConfig:
    """Defaults < TOML file < ``overrides``; a bad file, key or value is a one-line
    :class:`ConfigError` (a ``ValueError``) that names it."""
    values: dict[str, object] = {}
    if path is not None:
        try:
            with open(path, "rb") as fh:
                values.update(tomllib.load(fh))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
            raise ConfigError(f"{path}: not valid TOML ({e})") from None
    in_file = set(values)
    values.update({k: v for k, v in overrides.items() if v is not None})
    known = {f.name for f in dataclasses.fields(TrainConfig)}
    for key in values:
        if key not in known:
            where = f" in {path}" if key in in_file and key not in overrides else ""
            raise ConfigError(f"unknown training config key {key!r}{where}")
    try:
        return TrainConfig(**values)  # type: ignore[arg-type]
    except (ValueError, TypeError) as e:
        raise ConfigError(f"invalid training config: {e}") from None


def cpu_kind() -> str:
    """The CPU's model name and the vector extension torch uses on it."""
    name = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                name = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    name = name or (os.uname().machine if hasattr(os, "uname") else "unknown CPU")
    return f"{name}, {os.cpu_count()} cores, {torch.backends.cpu.get_cpu_capability()}"


def bf16_is_fast(size: int = 256) -> tuple[bool, str]:
    """Whether bf16 matmuls beat fp32 on this CPU, measured: (answer, how it was decided)."""
    cap = torch.backends.cpu.get_cpu_capability()
    a32 = torch.randn(size, size)
    b32 = torch.randn(size, size)
    a16, b16 = a32.bfloat16(), b32.bfloat16()

    def best(a, b) -> float:
        times = []
        for _ in range(5):
            t = time.perf_counter()
            for _ in range(4):
                a @ b
            times.append(time.perf_counter() - t)
        return min(times) / 4

    best(a32, b32), best(a16, b16)  # warm up
    t32, t16 = best(a32, b32), best(a16, b16)
    fast = t16 < 0.9 * t32
    why = (f"{size}x{size} matmul: fp32 {1e3 * t32:.2f} ms, bf16 {1e3 * t16:.2f} ms "
           f"(torch CPU capability {cap})")  # fmt: skip
    return fast, why


def resolve_bf16(setting: bool | str) -> tuple[bool, str]:
    """The bf16 setting to train with, and why."""
    if setting == "auto":
        fast, why = bf16_is_fast()
        return fast, f"auto: {'bf16' if fast else 'fp32'} ({why})"
    return bool(setting), "set in the config"


def init_weights(model: DiffusionLM, num_layers: int) -> None:
    """GPT-2 style: N(0, 0.02), residual output projections scaled by 1/sqrt(2·layers)."""
    for name, p in model.named_parameters():
        if p.ndim < 2:
            continue
        std = 0.02
        if name.endswith(("o_proj.weight", "down_proj.weight")):
            std /= math.sqrt(2 * num_layers)
        torch.nn.init.normal_(p, mean=0.0, std=std)


def progress(step: int, wall_s: float, core_s: float, cfg: TrainConfig) -> float:
    """How far training is, 0..1: by steps, or by a time budget if that is further along."""
    p = step / cfg.steps
    if cfg.time_budget_min > 0:
        p = max(p, core_s / (60 * cfg.time_budget_min))
    if cfg.max_wall_min > 0:
        p = max(p, wall_s / (60 * cfg.max_wall_min))
    return min(1.0, p)


class Clock:
    """Wall time and dedicated-machine time (CPU time / threads), carried across resumes."""

    def __init__(self, wall_before: float = 0.0, core_before: float = 0.0) -> None:
        self.wall0, self.core0 = wall_before, core_before
        self.t0, self.c0 = time.perf_counter(), time.process_time()
        self.threads = torch.get_num_threads()

    def wall(self) -> float:
        return self.wall0 + time.perf_counter() - self.t0

    def core(self) -> float:
        return self.core0 + (time.process_time() - self.c0) / self.threads


def lr_at(step: int, cfg: TrainConfig, prog: float | None = None) -> float:
    """Linear warm-up over ``warmup_steps``, then cosine decay to ``min_lr_ratio · lr``
    following ``prog`` (default: ``step / steps``)."""
    if step < cfg.warmup_steps:
        return cfg.lr * (step + 1) / cfg.warmup_steps
    if prog is None:
        prog = step / cfg.steps
    w = cfg.warmup_steps / cfg.steps
    frac = (prog - w) / max(1e-9, 1 - w)
    cos = 0.5 * (1 + math.cos(math.pi * min(1.0, max(0.0, frac))))
    return cfg.lr * (cfg.min_lr_ratio + (1 - cfg.min_lr_ratio) * cos)


def make_optimizer(model: DiffusionLM, cfg: TrainConfig) -> torch.optim.AdamW:
    decay = [p for n, p in model.named_parameters() if p.ndim >= 2 and "embed" not in n]
    rest = [p for n, p in model.named_parameters() if not (p.ndim >= 2 and "embed" not in n)]
    groups = [
        {"params": decay, "weight_decay": cfg.weight_decay},
        {"params": rest, "weight_decay": 0.0},
    ]
    return torch.optim.AdamW(groups, lr=cfg.lr, betas=(0.9, 0.95), eps=1e-8)


def masked_loss(model: DiffusionLM, batch, bf16: bool) -> torch.Tensor:
    """Mean cross-entropy over masked reply positions."""
    where = batch.targets != -100  # [B, L]
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
        hidden = model(batch.input_ids, batch.positions, batch.attn_mask, return_hidden=True)
        logits = model.logits(hidden[where])  # [N, V]: only masked positions need logits
    return torch.nn.functional.cross_entropy(logits.float(), batch.targets[where])


def _tokenizer(cfg: TrainConfig, corpus, run: Path) -> Tokenizer:
    path = run / "tokenizer" / "tokenizer.json"
    if path.exists():  # resuming: the ids the checkpoint was trained with
        return Tokenizer.from_file(str(path))
    if cfg.init_from:  # warm start: the model's own vocabulary, plus the tool tokens
        tok = add_tool_tokens(Tokenizer.from_file(str(Path(cfg.init_from) / "tokenizer.json")))
    else:
        tok = train_tokenizer(texts_for_tokenizer(corpus), cfg.vocab_size)
    save_tokenizer(tok, run / "tokenizer")
    return tok


def warm_start(model: DiffusionLM, cfg: TrainConfig, tok: Tokenizer) -> int:
    """Load ``cfg.init_from``'s weights into ``model``; rows for tokens the old vocabulary
    lacked start as the mean embedding of the pieces the old tokenizer cut them into.
    Returns how many rows were new."""
    from engine.checkpoint import load_model

    old, folder = load_model(cfg.init_from, dtype=torch.float32)
    old_tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    state = {k: v.clone() for k, v in old.state_dict().items()}
    emb_name = "model.embed_tokens.weight"
    old_emb = state[emb_name]
    n_old, d = old_emb.shape
    n_new = tok.get_vocab_size()
    if n_new < n_old or old_emb.shape[1] != cfg.hidden_size:
        raise ValueError(f"{cfg.init_from} does not fit this config ({tuple(old_emb.shape)})")
    emb = torch.empty(n_new, d)
    emb[:n_old] = old_emb
    for i in range(n_old, n_new):
        text = tok.id_to_token(i)
        pieces = [j for j in old_tok.encode(text).ids if j < n_old] or list(range(6, n_old))
        emb[i] = old_emb[pieces].mean(0)
    state[emb_name] = emb
    state.pop("lm_head.weight", None)
    model.load_state_dict(state, strict=False)
    return n_new - n_old


def _save_checkpoint(path: Path, model, opt, step: int, history: list, clock: Clock) -> None:
    tmp = path.with_suffix(".tmp")
    torch.save(
        {
            "model": model.state_dict(),
            "optimizer": opt.state_dict(),
            "step": step,
            "history": history,
            "wall_s": clock.wall(),
            "core_s": clock.core(),
            "torch_rng": torch.get_rng_state(),
        },
        tmp,
    )
    os.replace(tmp, path)


def train(cfg: TrainConfig, command: str | None = None, quiet: bool = False) -> dict:
    """Run (or resume) training and write the model folder; returns the training summary."""
    if cfg.threads:
        torch.set_num_threads(cfg.threads)
    clock = Clock()
    torch.manual_seed(cfg.seed)
    run, out = Path(cfg.run_dir), Path(cfg.out_dir)
    run.mkdir(parents=True, exist_ok=True)
    (run / "config.json").write_text(json.dumps(dataclasses.asdict(cfg), indent=2) + "\n")

    bf16, bf16_why = resolve_bf16(cfg.bf16)
    if not quiet:
        print(f"bf16 autocast {'on' if bf16 else 'off'}: {bf16_why}", file=sys.stderr)
    corpus = build_corpus(cfg.seed, cfg.corpus_size)
    if cfg.tool_dialogs:
        corpus = build_tool_corpus(cfg.seed, corpus, cfg.tool_dialogs,
                                   cfg.old_dialogs or len(corpus.train),
                                   grammar_dialogs_n=cfg.grammar_dialogs,
                                   grammar_history_p=cfg.grammar_history,
                                   refusal_dialogs_n=cfg.refusal_dialogs,
                                   fewer_tools_p=cfg.fewer_tools,
                                   unknown_dialogs_n=cfg.unknown_dialogs,
                                   follow_asides_n=cfg.follow_asides,
                                   old_asides_n=cfg.old_asides,
                                   fact_turns_n=cfg.fact_turns)  # fmt: skip
    tok = _tokenizer(cfg, corpus, run)
    if cfg.json_dialogs:
        corpus = build_json_corpus(cfg.seed, corpus, cfg.json_dialogs, tok, cfg.block_size)
    data, dropped = encode_dialogs(corpus.train, tok, cfg.block_size, skip_long=True,
                                   max_prompt=cfg.pack_len - cfg.block_size if cfg.pack_len
                                   else 256)  # fmt: skip
    if dropped and not quiet:
        print(f"{dropped} training dialogs too long for one reply block: left out",
              file=sys.stderr)  # fmt: skip
    corpus = _fit_heldout(corpus, tok, cfg)
    if len(data) < cfg.batch_size:
        raise ValueError(f"corpus_size {cfg.corpus_size} is smaller than one batch")

    model = DiffusionLM(cfg.model_config(tok))
    init_weights(model, cfg.num_layers)
    new_rows = warm_start(model, cfg, tok) if cfg.init_from else 0
    if new_rows and not quiet:
        print(f"warm start from {cfg.init_from} ({new_rows} new token rows)", file=sys.stderr)
    opt = make_optimizer(model, cfg)
    step, history = 0, []
    ckpt = run / "ckpt.pt"
    if ckpt.exists():
        state = torch.load(ckpt, weights_only=False)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["optimizer"])
        step, history = state["step"], state["history"]
        clock = Clock(state["wall_s"], state.get("core_s", state["wall_s"]))
        torch.set_rng_state(state["torch_rng"])
        if not quiet:
            print(f"resuming {ckpt} at step {step}", file=sys.stderr)
    n_params = sum(p.numel() for p in model.parameters())

    model.train()
    fwd = torch.compile(model, dynamic=True) if cfg.compile else model
    bar = tqdm(total=cfg.steps, initial=step, desc="train", unit="step", disable=quiet,
               dynamic_ncols=True, mininterval=5.0)  # fmt: skip
    t_loop, seqs = time.perf_counter(), 0
    batches = batch_iter(data, cfg.batch_size, cfg.seed, start_step=step, packed=cfg.pack_len > 0)
    prog = progress(step, clock.wall(), clock.core(), cfg)
    while prog < 1.0:
        _, rows = next(batches)
        gen = torch.Generator().manual_seed(cfg.seed * 1_000_003 + step)
        dialogs = [data[i] for i in rows]
        if cfg.pack_len:
            batch = collate_packed(dialogs, tok, gen, cfg.pack_len, cfg.t_min)
        else:
            batch = collate(dialogs, tok, gen, cfg.t_min)
        lr = lr_at(step, cfg, prog)
        for g in opt.param_groups:
            g["lr"] = lr
        loss = masked_loss(fwd, batch, bf16)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
        opt.step()
        step += 1
        seqs += len(rows)
        history.append(loss.item())
        bar.update(1)
        prog = progress(step, clock.wall(), clock.core(), cfg)
        if step % cfg.log_every == 0 or prog >= 1.0:
            rate = seqs / (time.perf_counter() - t_loop)
            recent = sum(history[-cfg.log_every :]) / len(history[-cfg.log_every :])
            bar.set_postfix(loss=f"{recent:.3f}", seq_s=f"{rate:.0f}", lr=f"{lr:.1e}",
                            done=f"{prog:.0%}", core_min=f"{clock.core() / 60:.1f}")  # fmt: skip
        if step % cfg.checkpoint_every == 0 or prog >= 1.0:
            _save_checkpoint(ckpt, model, opt, step, history, clock)
            plot_loss(history, run / "loss.png", title=f"demo model, seed {cfg.seed}")
        if cfg.eval_every and step % cfg.eval_every == 0 and prog < 1.0:
            _quick_eval(model, tok, corpus, cfg, step, bar)
    bar.close()

    model.eval()
    tail = history[-50:]
    if step >= cfg.steps:
        stopped = "steps"
    elif cfg.max_wall_min and clock.wall() >= 60 * cfg.max_wall_min:
        stopped = "wall-time cap"
    else:
        stopped = "time budget"
    summary = {
        "command": command or "python -m training.train",
        "seed": cfg.seed,
        "steps": step,
        "planned_steps": cfg.steps,
        "stopped_by": stopped,
        "batch_size": cfg.batch_size,
        "sequences_seen": step * cfg.batch_size,
        "final_loss": round(sum(tail) / len(tail), 4),
        "wall_time_s": round(clock.wall(), 1),
        "dedicated_time_s": round(clock.core(), 1),
        "parameters": n_params,
        "corpus_dialogs": len(corpus.train),
        "heldout_dialogs": len(corpus.heldout),
        "threads": torch.get_num_threads(),
        "cpu": cpu_kind(),
        "bf16": bf16,
        "bf16_reason": bf16_why,
        "warm_start": cfg.init_from or None,
        "config": dataclasses.asdict(cfg),
    }
    write_model_folder(model, tok, cfg, out, history, summary)
    write_jsonl(corpus.heldout, out / "heldout.jsonl")
    (run / "training.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def _fit_heldout(corpus, tok: Tokenizer, cfg: TrainConfig):
    """Drop held-out tool rows whose reply cannot fit one block (old rows always fit)."""
    _, keep = encode_dialogs(corpus.heldout, tok, cfg.block_size, skip_long=True, max_prompt=512,
                             return_kept=True)  # fmt: skip
    return dataclasses.replace(corpus, heldout=[corpus.heldout[i] for i in keep])


def write_model_folder(model, tok, cfg: TrainConfig, out: Path, history, summary) -> None:
    """The Hugging Face layout the engine loads, plus the loss curve and training record."""
    out.mkdir(parents=True, exist_ok=True)
    save_pretrained(model, out, dtype=torch.bfloat16)
    save_tokenizer(tok, out)
    gen = {
        "mask_token_id": tok.token_to_id(MASK),
        "eos_token_id": tok.token_to_id(EOS),
        "pad_token_id": tok.token_to_id(EOS),
        "block_size": cfg.block_size,
        "max_new_tokens": cfg.block_size,
        "diffvoice": {"block_align": "prompt", "reply_fits_one_block": True},
    }
    (out / "generation_config.json").write_text(json.dumps(gen, indent=2) + "\n")
    minutes = summary["dedicated_time_s"] / 60
    title = f"demo model: {summary['steps']} steps, {minutes:.0f} min of {summary['threads']} cores"
    plot_loss(history, out / "loss.png", title=title)
    (out / "training.json").write_text(json.dumps(summary, indent=2) + "\n")


def _quick_eval(model, tok, corpus, cfg: TrainConfig, step: int, bar) -> None:
    from training.decode import decode_replies
    from training.scoring import score

    stride = max(1, len(corpus.heldout) // cfg.eval_items)  # every skill, not just the first
    items = corpus.heldout[::stride][: cfg.eval_items]
    replies = decode_replies(model, tok, [d.prompt for d in items], cfg.block_size, threshold=0.9)
    res = score(items, replies)
    bar.write(f"step {step}: held-out {res['accuracy']:.1%} ({len(items)} items, threshold 0.9)")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="Train the demo diffusion chat model.")
    p.add_argument("--config", type=Path, default=None, help="TOML preset file")
    p.add_argument("--steps", type=int, default=None)
    p.add_argument("--out-dir", default=None)
    p.add_argument("--run-dir", default=None)
    p.add_argument("--seed", type=int, default=None)
    a = p.parse_args(argv)
    cfg = load_config(a.config, steps=a.steps, out_dir=a.out_dir, run_dir=a.run_dir, seed=a.seed)
    command = "python -m training.train " + " ".join(
        shlex.quote(x) for x in (argv if argv is not None else sys.argv[1:])
    )
    summary = train(cfg, command=command)
    print(json.dumps({k: v for k, v in summary.items() if k != "config"}))


if __name__ == "__main__":
    main()
