"""Held-out evaluation of a model on the demo domain, through the engine's public API.

``diffvoice eval`` (or ``python -m training.evaluate --model models/demo``) takes the
held-out split saved beside the weights (``heldout.jsonl``; else it regenerates it from the seed
and corpus size in ``training.json``), asks the engine for replies in each decoding mode, and
reports the share of replies that contain the expected answer and are well-formed (see
:mod:`training.scoring`), with forward passes and time per reply.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from training.corpus import Dialog, build_corpus, read_jsonl
from training.scoring import score

DEFAULT_MODES = ("reference", "parallel", "cache")

# Spoken-style questions shown in the model README (one per intent).
EXAMPLES: tuple[tuple[str, ...], ...] = (
    ("hey what's the capital of australia",),
    ("what is 7 times 8",),
    ("um how many miles is ten kilometers",),
    ("What's the capital of France?", "and of germany"),
    ("how do you spell music",),
    ("which planet is fourth from the sun",),
    ("what day comes after wednesday",),
    ("who are you",),
    ("tell me a joke about robots",),
    ("what's the weather like in paris tomorrow",),
)


def _training_record(model: str) -> dict:
    path = Path(model) / "training.json"
    return json.loads(path.read_text()) if path.exists() else {}


def heldout_for(
    model: str, seed: int | None = None, corpus_size: int | None = None
) -> list[Dialog]:
    """The held-out split a model was trained against: its ``heldout.jsonl`` when present,
    else regenerated with the seed and corpus size of its ``training.json``."""
    saved = Path(model) / "heldout.jsonl"
    if saved.exists() and seed is None and corpus_size is None:
        return read_jsonl(saved)
    rec = _training_record(model).get("config", {})
    seed = rec.get("seed", 0) if seed is None else seed
    size = rec.get("corpus_size", 100_000) if corpus_size is None else corpus_size
    return build_corpus(seed, size).heldout


def _params(mode: str, max_new_tokens: int, threshold: float):
    from engine import SamplingParams

    if mode == "reference":
        return SamplingParams(mode="reference", max_new_tokens=max_new_tokens, tokens_per_step=1)
    return SamplingParams(mode=mode, max_new_tokens=max_new_tokens, threshold=threshold)


def evaluate(
    model_path: str,
    modes: tuple[str, ...] = DEFAULT_MODES,
    limit: int = 0,
    threshold: float = 0.9,
    batch_size: int = 64,
    max_new_tokens: int | None = None,
    items: list[Dialog] | None = None,
    progress: bool = True,
    threads: int | None = 1,
) -> dict:
    """Held-out accuracy of ``model_path`` per decoding mode; returns a JSON-able dict.

    ``result["modes"][mode]`` has ``accuracy`` (right answer and well-formed), ``right_answer``,
    ``well_formed``, ``by_split``, ``by_skill``, ``nfe_per_reply``, ``ms_per_reply`` and
    ``failures`` (a few wrong replies to read). ``threads`` sets torch's intra-op threads for
    the run (None: leave as is); one is the default because on a busy machine two threads
    stall each other at every small op.
    """
    import torch

    old_threads = torch.get_num_threads()
    if threads:
        torch.set_num_threads(threads)
    try:
        return _evaluate(model_path, modes, limit, threshold, batch_size, max_new_tokens, items,
                         progress)  # fmt: skip
    finally:
        torch.set_num_threads(old_threads)


def _evaluate(model_path, modes, limit, threshold, batch_size, max_new_tokens, items, progress):
    from engine import LLM
    from engine.replies import expand_result

    items = items if items is not None else heldout_for(model_path)
    if limit:
        items = items[:limit]
    llm = LLM.load(model_path, device="cpu", max_batch_size=batch_size)
    mcfg = llm.engine.model.cfg
    new = max_new_tokens or (mcfg.block_size if mcfg.block_causal else 32)
    out: dict = {"model": str(model_path), "items": len(items), "threshold": threshold,
                 "max_new_tokens": new, "modes": {}}  # fmt: skip
    prompts = [d.prompt for d in items]
    for mode in modes:
        t0 = time.perf_counter()
        results = _generate(llm, prompts, _params(mode, new, threshold))
        wall = time.perf_counter() - t0
        # the demo model's result pointer, said as the assistant says it (engine.tools)
        replies = [expand_result(r.text, p).strip() for r, p in zip(results, prompts, strict=True)]
        res = score(items, replies)
        ok = res.pop("ok")
        res.update(group_accuracy(items, ok))
        res["nfe_per_reply"] = round(sum(r.nfe for r in results) / max(1, len(results)), 2)
        res["ms_per_reply"] = round(1000 * wall / max(1, len(results)), 1)
        res["failures"] = [
            {"prompt": d.prompt[-1]["content"], "reply": r, "answers": list(d.answers),
             "skill": d.skill}
            for d, r, good in zip(items, replies, ok, strict=True) if not good
        ][:25]  # fmt: skip
        out["modes"][mode] = res
        if progress:
            print(f"{mode:>10}: {res['accuracy']:.1%} right and well-formed "
                  f"({res['right_answer']:.1%} right, {res['well_formed']:.1%} well-formed), "
                  f"{res['nfe_per_reply']} passes, {res['ms_per_reply']} ms per reply "
                  f"(batched {batch_size})", file=sys.stderr)  # fmt: skip
            groups = ", ".join(f"{k} {v:.1%} of {res['group_items'][k]}"
                               for k, v in res["groups"].items())  # fmt: skip
            print(f"{'':>10}  {groups}", file=sys.stderr)
    return out


# The held-out kinds of the skills without tools; scored as before the tools came, so the two
# models compare. The others: tool calls, replies to tool results, refusals of the tool era,
# and old held-out questions asked with the tools on offer ("voice").
OLD_SPLITS = ("template", "combo", "fact", "followup")


def group_accuracy(items: list[Dialog], ok: list[bool]) -> dict:
    """Accuracy of the old skills' held-out rows and of each new kind of row."""
    groups: dict[str, list[bool]] = {}
    for d, good in zip(items, ok, strict=True):
        key = "old_skills" if d.split in OLD_SPLITS else d.split
        groups.setdefault(key, []).append(good)
    return {
        "groups": {k: round(sum(v) / len(v), 4) for k, v in groups.items()},
        "group_items": {k: len(v) for k, v in groups.items()},
    }


def _generate(llm, conversations: list[list[dict]], params) -> list:
    """Replies through the engine; conversations with tool turns (the ``tools`` list and
    ``tool`` results of the held-out tool rows) go in as ids rendered by the model's own chat
    template, which knows those roles."""
    ids = []
    for c in conversations:
        if all(m["role"] in ("system", "user", "assistant") for m in c):
            ids.append(llm.engine.add_request(c, params))
        else:
            text = llm.tokenizer.tok.apply_chat_template(c, add_generation_prompt=True,
                                                         tokenize=False)  # fmt: skip
            prompt = llm.tokenizer.encode(text)
            ids.append(llm.engine.add_request(None, params, prompt_ids=prompt))
    done: dict = {}
    while len(done) < len(ids):
        for r in llm.engine.step().finished:
            done[r.request_id] = r
    return [done[i] for i in ids]


def examples(model_path: str, mode: str = "cache", threshold: float = 0.9) -> list[list[dict]]:
    """The README's example conversations: each spoken-style question and the model's reply."""
    from engine import LLM

    llm = LLM.load(model_path, device="cpu", max_batch_size=4)
    new = llm.engine.model.cfg.block_size or 32
    convs = []
    for turns in EXAMPLES:
        msgs: list[dict] = []
        for q in turns:
            msgs.append({"role": "user", "content": q})
            reply = llm.chat(msgs, _params(mode, new, threshold)).text.strip()
            msgs.append({"role": "assistant", "content": reply})
        convs.append(msgs)
    return convs


def main(argv: list[str] | None = None) -> int:
    from engine import DEMO_MODEL

    p = argparse.ArgumentParser(description="Held-out accuracy on the demo domain.")
    p.add_argument("--model", default=DEMO_MODEL)
    p.add_argument("--modes", default=",".join(DEFAULT_MODES))
    p.add_argument("--limit", type=int, default=0, help="only the first N held-out dialogs")
    p.add_argument("--threshold", type=float, default=0.9)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument(
        "--threads",
        type=int,
        default=1,
        help="torch threads (default 1: on a busy machine more threads stall each other)",
    )
    p.add_argument("--json", type=Path, default=None, help="write the full result here")
    p.add_argument(
        "--write-readme",
        action="store_true",
        help="also write the model folder's README.md (results and examples)",
    )
    a = p.parse_args(argv)
    modes = tuple(a.modes.split(","))
    res = evaluate(a.model, modes, a.limit, a.threshold, a.batch_size, threads=a.threads)
    if a.json:
        a.json.write_text(json.dumps(res, indent=2) + "\n")
    if a.write_readme:
        from training.model_card import write_readme

        (Path(a.model) / "eval.json").write_text(json.dumps(res, indent=2) + "\n")
        import torch

        torch.set_num_threads(a.threads)
        write_readme(Path(a.model), res, examples(a.model))
    summary = {m: round(r["accuracy"], 4) for m, r in res["modes"].items()}
    groups = {m: r["groups"] for m, r in res["modes"].items()}
    print(json.dumps({"items": res["items"], "accuracy": summary, "groups": groups}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
