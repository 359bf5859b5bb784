"""The demo model folder's README.md: what the model is, how it was trained, how well it does."""

from __future__ import annotations

import json
from pathlib import Path

MODE_NOTES = {
    "reference": "one token per forward pass, no early stop (LLaDA's reference decoder)",
    "parallel": "confidence threshold, full recompute each pass",
    "cache": "confidence threshold with the KV cache (the engine's default)",
    "dual_cache": "confidence threshold, prefix and suffix cache",
}


def _minutes(s: float) -> str:
    return f"{s / 60:.1f} min"


def write_readme(model_dir: Path, eval_result: dict, examples: list[list[dict]]) -> Path:
    """Write ``README.md`` from ``training.json``, an evaluation result and example chats."""
    from training import facts

    n_countries, n_words = len(facts.COUNTRIES), len(facts.SPELL_WORDS)
    tr = json.loads((model_dir / "training.json").read_text())
    cfg = tr["config"]
    size_mb = (model_dir / "model.safetensors").stat().st_size / 1e6
    lines = [
        "# diffvoice demo model",
        "",
        "**What this is.** A tiny diffusion language model "
        f"({tr['parameters'] / 1e6:.1f}M parameters, {size_mb:.0f} MB in bf16) that the diffvoice "
        "project trains itself, on this repository's own generated corpus, so that the voice "
        "assistant works offline out of the box. It is domain-limited: it knows greetings and "
        f"small talk, who it is, capitals, continents, languages and currencies of {n_countries} "
        "countries, the planets, arithmetic on numbers up to ten, conversions between kilometers "
        "and miles, Celsius and Fahrenheit, kilograms and pounds, liters and gallons for a few "
        f"round values, the days and months, the spelling of {n_words} common words, a handful "
        "of jokes, and polite refusals for what it cannot know or do (weather, news, live "
        "prices, music, calls)."
        + (" It calls the assistant's built-in tools (clock, timers and reminders, calculator, "
           "units, spelling: `docs/tools.md`) in its own bare format, naming the tool while the "
           "tool reads the request from the user's words, and phrases their results."
           if tr.get("warm_start") or cfg.get("tool_dialogs") else "")
        + (" Asked for JSON (`response_format`), it fills in the values the grammar leaves "
           'open with the bare fact: `{"city":"Lima"}`, `{"result":56}`.'
           if cfg.get("json_dialogs") else "")
        + " Most other questions get \"Sorry, I don't "
        'know about that", but not all: outside its domain it knows nothing and may answer '
        "with a garbled or unrelated sentence, and it can be confidently wrong inside it. It is "
        "not a general assistant.",
        "",
        "**Using a real diffusion LM instead.** The engine loads Hugging Face checkpoints of the "
        "LLaDA, Dream, SDAR and Fast-dLLM v2 families by local path or hub id. Point "
        "`engine.model` at one, e.g. `diffvoice run --config configs/llada-8b.toml`, "
        "`diffvoice chat --set engine.model=GSAI-ML/LLaDA-8B-Instruct`, or "
        '`LLM.load("JetLM/SDAR-1.7B-Chat")` from Python. Those need a GPU (or a lot of patience) '
        "and a download; this one needs neither.",
        "",
        "## Model",
        "",
        f'- Block diffusion, Qwen3-style layout (`sdar` family with `block_align = "prompt"`): '
        f"{cfg['num_layers']} layers, hidden size {cfg['hidden_size']}, {cfg['num_heads']} heads, "
        f"SwiGLU {cfg['intermediate_size']}, RMSNorm with q/k norms, RoPE, tied embeddings.",
        f"- Byte-level BPE tokenizer with {cfg['vocab_size']} tokens trained on the corpus; "
        "special tokens `<|endoftext|>` (also ends a turn), `<|mask|>`, `<|user|>`, "
        "`<|assistant|>`, `<|system|>`, `<|pad|>`. Chat template in `tokenizer_config.json`.",
        f"- The prompt is one block; the reply is one block of {cfg['block_size']} tokens, "
        "padded with `<|endoftext|>`. Prompt tokens attend to the prompt, reply tokens to the "
        "prompt and the whole reply block.",
        "",
        "## Training",
        "",
        f"- Command: `{tr['command']}` (also `diffvoice train "
        f"{tr['command'].split('training.train ', 1)[-1]}`)",
        f"- Seed {tr['seed']}; {tr['steps']} steps of {tr['batch_size']} dialogs "
        f"({tr['sequences_seen']:,} sequences), stopped by {tr['stopped_by']}.",
        f"- Final loss (mean of the last 50 steps, masked-token cross-entropy): "
        f"{tr['final_loss']}.",
        f"- Wall time {_minutes(tr['wall_time_s'])} on a 2-core CPU machine"
        + (f" ({tr['cpu']})" if tr.get("cpu") else "")
        + f" (corpus, tokenizer, compilation and training); {_minutes(tr['dedicated_time_s'])} "
        f"of its {tr['threads']} cores in the training process (CPU time / threads).",
        f"- Dtype: {'bf16 autocast' if tr.get('bf16', True) else 'fp32'}"
        + (f", chosen by measuring the CPU: {tr['bf16_reason']}." if tr.get("bf16_reason")
           else "."),
        *([f"- Warm start: from the weights of `{tr['warm_start']}` (the model before the tool "
           "skills; the tool tokens appended to its vocabulary), on a mix of its own corpus "
           f"({cfg.get('old_dialogs') or 'all'} dialogs) and {cfg.get('tool_dialogs')} tool "
           "and refusal rows (`training/skills_tools.py`)."]
          if tr.get("warm_start") and not cfg.get("json_dialogs")
          and not cfg.get("grammar_dialogs") else []),
        *([("- Warm start, in four stages: `configs/demo-model-context.toml` from the tool "
            "model, `configs/demo-model-refusals.toml` from its weights, "
            "`configs/demo-model-followups.toml` from those, then "
            "`configs/demo-model-facts.toml` (this record) from the weights of "
            f"`{tr['warm_start']}` as the third stage left them, "
            if cfg.get("fact_turns") else
            "- Warm start, in three stages: `configs/demo-model-context.toml` from the tool "
            "model, `configs/demo-model-refusals.toml` from its weights, then "
            "`configs/demo-model-followups.toml` (this record) from the weights of "
            f"`{tr['warm_start']}` as the second stage left them, "
            if cfg.get("unknown_dialogs") else
            "- Warm start, in two stages: `configs/demo-model-context.toml` from the tool model, "
            "then `configs/demo-model-refusals.toml` (this record) from the weights of "
            f"`{tr['warm_start']}` as the first stage left them, "
            if cfg.get("refusal_dialogs") else
            f"- Warm start: from the weights of `{tr['warm_start']}` (the tool model), "
            if cfg.get("grammar_history") else
            "- Warm start, in two stages: `configs/demo-model-grammar.toml` from the tool model, "
            "then `configs/demo-model-asides.toml` (this record) from the weights of "
            f"`{tr['warm_start']}` as the first stage left them, ")
           + "on a mix of its own corpus "
           f"({cfg.get('old_dialogs') or 'all'} dialogs), {cfg.get('tool_dialogs')} tool and "
           f"refusal rows (`training/skills_tools.py`) and {cfg['grammar_dialogs']} rows built "
           "from the grammar of request shapes (`training/requests.py`: a request's core as a "
           "question, clause, noun phrase, command or fronted topic, inside a frame for its "
           "form, with politeness, fillers and asides; tool requests, the model's own facts, "
           "refusals, and old questions said with an aside)"
           + (f", {round(100 * cfg['grammar_history'])}% of them asked after one or two "
              "earlier exchanges, an old question's or a tool's (`training.corpus.with_history`)"
              if cfg.get("grammar_history") else "")
           + (f"; {cfg['refusal_dialogs']} more refusal rows, and {round(100 * cfg['fewer_tools'])}"
              "% of the rows with tools on offer offering one or two fewer (never the one the row "
              "calls; `training.corpus.fewer_tools`)" if cfg.get("refusal_dialogs") else "")
           + (f"; {cfg['unknown_dialogs']} questions about the world beyond the model's facts "
              "(history, people, how-to, cooking, health, television, sport), refused "
              "(`training.corpus.unknown_refusals`), and up to "
              f"{cfg.get('follow_asides', 0)} old conversations of two or more questions asked "
              "with asides around their turns (`training.corpus.asides`)"
              + (f", and {cfg['old_asides']} more old single questions with an aside"
                 if cfg.get("old_asides") else "")
              if cfg.get("unknown_dialogs") else "")
           + (f"; {cfg['fact_turns']} of the model's facts said as people say them: a value "
              "corrected as it is said (\"the capital of Sweden, no hang on, Norway\"), a "
              "follow-up that steps along an order (\"and the one after that?\") and the planets "
              "at either end asked by position (`training.corpus.fact_turns`)"
              if cfg.get("fact_turns") else "")
           + ". Held-out rows as before."]
          if tr.get("warm_start") and cfg.get("grammar_dialogs") else []),
        *([f"- Warm start: from the weights of `{tr['warm_start']}` (the model with the tool "
           "skills, before JSON replies), on a mix of its own corpus "
           f"({cfg.get('old_dialogs') or 'all'} dialogs), {cfg.get('tool_dialogs')} tool "
           f"and refusal rows (`training/skills_tools.py`) and {cfg['json_dialogs']} JSON-reply "
           "rows (`training/skills_json.py`: the engine's hint \"Reply in JSON with the keys: "
           '..." in the system message, compact JSON of the bare fact as the reply).']
          if tr.get("warm_start") and cfg.get("json_dialogs") else []),
        f"- Objective: masked diffusion on the reply block, masking ratio t ~ U({cfg['t_min']}, 1) "
        "per dialog, loss on masked reply positions; AdamW, lr "
        f"{cfg['lr']} with warm-up and cosine decay"
        + (
            f", random dialogs packed into rows of {cfg['pack_len']} tokens (each attends only "
            "to itself)"
            if cfg.get("pack_len")
            else ", batches of similar prompt length"
        )
        + ". Loss curve: `loss.png`.",
        f"- Corpus: {tr['corpus_dialogs']:,} generated dialogs "
        "(`training/corpus.py`) — question templates per intent with fillers, "
        "lowercase and unpunctuated variants, digits or words, small misrecognitions, some "
        'after a system message or an earlier exchange, some follow-ups ("and of Germany?").',
        "",
        "## Held-out evaluation",
        "",
        f"`diffvoice eval` on {eval_result['items']} held-out dialogs: new wordings of each "
        "intent, (wording, fact) pairs never seen together, arithmetic pairs whose mirror was "
        'trained, and follow-ups. A reply counts when it contains the expected answer ("Paris", '
        '"fifty six") and is well-formed (non-empty, at most 30 words, no word doubled, ends '
        "with punctuation).",
        "",
        "| decoding | right and well-formed | right answer | well-formed | passes per reply "
        "| ms per reply (batched) |",
        "|---|---|---|---|---|---|",
    ]
    for mode, r in eval_result["modes"].items():
        lines.append(
            f"| {mode}: {MODE_NOTES.get(mode, '')} | **{r['accuracy']:.1%}** "
            f"| {r['right_answer']:.1%} | {r['well_formed']:.1%} | {r['nfe_per_reply']} "
            f"| {r['ms_per_reply']} |"
        )
    first = next(iter(eval_result["modes"].values()))
    if first.get("groups"):
        lines += [
            "",
            "By group (" + next(iter(eval_result["modes"])) + "): "
            + ", ".join(f"{k} {v:.1%} of {first['group_items'][k]}"
                        for k, v in first["groups"].items())
            + " (old_skills: the held-out rows of the skills before the tools, scored as "
            "before; tools_call: the right tool call; tools_reply: the reply to a tool result; "
            "refusal: new off-domain wordings; voice: old questions with the tools on offer).",
        ]
    lines += [
        "",
        "By kind of held-out item ("
        + next(iter(eval_result["modes"]))
        + "): "
        + ", ".join(f"{k} {v:.0%}" for k, v in first["by_split"].items())
        + ".",
        "",
    ]
    default = eval_result["modes"].get("cache", first)
    n = default.get("skill_items", {})
    weak = sorted((v, k) for k, v in default.get("by_skill", {}).items() if v < 0.7)
    if weak:
        lines += [
            "Weak spots (under 70% with the default decoding; `eval.json` lists every failure): "
            + ", ".join(f"{k} {v:.0%} of {n.get(k, '?')}" for v, k in weak)
            + ". Held-out wordings of rarely seen intents and arithmetic pairs never trained "
            "in that order are where this small model still answers wrongly.",
            "",
        ]
    lines += [
        "## Example conversations",
        "",
        "Spoken-style prompts as speech recognition "
        "hands them over, replies from the engine's default decoding:",
        "",
    ]
    for i, conv in enumerate(examples, 1):
        lines.append(
            f"{i}. "
            + " → ".join(
                f"*{m['content']}*" if m["role"] == "user" else f'"{m["content"]}"' for m in conv
            )
        )
    lines += [
        "",
        "## Files",
        "",
        "`config.json`, `model.safetensors` (bf16), `tokenizer.json`, `tokenizer_config.json` "
        "(chat template), `special_tokens_map.json`, `generation_config.json`, `training.json` "
        "(the full training record), `heldout.jsonl` (the evaluation split, never trained on), "
        "`eval.json` (the evaluation, with failures to read), `loss.png`.",
        "",
        "Licence: GPL-3.0-or-later, like the rest of diffvoice; the training data is generated "
        "by the project.",
        "",
    ]
    path = model_dir / "README.md"
    path.write_text("\n".join(lines))
    return path
