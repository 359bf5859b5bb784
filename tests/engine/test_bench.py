"""The decoding benchmark on a tiny random checkpoint: structure of its report and JSON line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.decoding import BATCH_ROW, PROMPTS, main, normalise, run_bench
from engine import LLM

KEYS = {
    "tokens_per_s",
    "tokens_per_forward",
    "speedup_vs_reference",
    "agreement_with_reference",
    "ms_per_forward",
    "time_to_first_text_ms",
    "peak_memory_mb",
}


def test_run_bench_report(sdar_dir):
    llm = LLM.load(str(sdar_dir), device="cpu", max_model_len=128, max_batch_size=4)
    report = run_bench(llm, PROMPTS[:3], max_new_tokens=8)
    modes = report["modes"]
    assert list(modes) == ["reference", "parallel", "cache", "dual_cache", BATCH_ROW]
    for name, s in modes.items():
        assert KEYS <= set(s), name
        assert s["prompts"] == 3 and s["errors"] == 0
        assert s["tokens_per_s"] > 0 and s["forwards"] >= 1
        assert s["tokens_per_forward"] == pytest.approx(s["tokens"] / s["forwards"], abs=1e-3)
        assert 0.0 <= s["agreement_with_reference"] <= 1.0
    ref = modes["reference"]
    assert ref["agreement_with_reference"] == 1.0 and ref["speedup_vs_reference"] == 1.0
    assert ref["forwards"] == 3 * 8  # one token per step, every position
    # SDAR's block cache is exact: cache mode decodes what parallel mode decodes.
    assert report["replies"]["cache"] == report["replies"]["parallel"]
    assert modes[BATCH_ROW]["forwards"] < modes["cache"]["forwards"]  # shared passes
    assert report["setup"]["family"] == "sdar" and report["setup"]["prompts"] == 3
    assert not llm.engine.has_work()


def test_reference_only(sdar_dir):
    report = run_bench(
        str(sdar_dir), PROMPTS[:2], modes=["reference"], max_new_tokens=4, batched=False,
        warmup=False,
    )  # fmt: skip
    assert list(report["modes"]) == ["reference"]
    assert report["modes"]["reference"]["agreement_with_reference"] == 1.0


def test_main_prints_table_then_one_json_line(sdar_dir, capsys):
    rc = main(
        [
            "--model",
            str(sdar_dir),
            "--device",
            "cpu",
            "--prompts",
            "2",
            "--max-new-tokens",
            "6",
            "--modes",
            "cache,parallel",
        ]
    )
    out = capsys.readouterr()
    assert rc == 0
    lines = out.out.strip().splitlines()
    data = json.loads(lines[-1])
    assert set(data["modes"]) == {"reference", "parallel", "cache", BATCH_ROW}
    for s in data["modes"].values():
        assert KEYS <= set(s)
    assert data["modes"]["reference"]["agreement_with_reference"] == 1.0
    assert any(line.startswith("reference") for line in lines[:-1])  # the table
    assert "bench: warming up" in out.err


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--model", "/no/such/checkpoint"], "does not exist"),
        (["--modes", "turbo"], "unknown mode 'turbo'"),
        (["--prompts", "0"], "--prompts"),
    ],
)
def test_main_errors_are_one_line(sdar_dir, capsys, argv, needle):
    if "--model" not in argv:
        argv = ["--model", str(sdar_dir), "--device", "cpu", *argv]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert needle in err[-1] and err[-1].startswith("bench: error:")


def test_normalise():
    assert normalise("  Paris, France!\n") == "paris france"
    assert normalise("It's 56.") == "its 56"
    assert normalise("Hello   there") == normalise("hello there.")


def test_gpu_engine_bench_logic_on_cpu(capsys, monkeypatch):
    """bench/gpu_engine.py's hidden --cpu-smoke runs its whole logic at toy sizes (torch kernels
    here; the Triton interpreter would take a minute). Its reply is two blocks, so LLaDA's cache
    step feeds the block and the masked block after it, and the replayed forward pass must
    still give exactly the step's logits: the block is not at the end of the fed tokens."""
    import importlib.util
    import sys

    path = Path(__file__).resolve().parents[2] / "bench" / "gpu_engine.py"
    spec = importlib.util.spec_from_file_location("gpu_engine_under_test", path)
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, mod)  # dataclasses look their module up
    spec.loader.exec_module(mod)
    rc = mod.main(["--cpu-smoke", "--kernels", "torch", "--batches", "1,2", "--iters", "2"])
    out = capsys.readouterr().out.strip().splitlines()
    report = json.loads(out[-1])
    assert rc == 0, report
    assert {c["model"] for c in report["cases"]} == {"llada-8b", "bd-1.5b"}
    assert len(report["cases"]) == 2 * 2 * 2  # models x batches x (full, cached)
    assert (report["prompt"], report["block"], report["gen"]) == (16, 8, 16)
    for c in report["cases"]:
        assert c["error"] is None and c["forward_ms"] > 0 and c["weight_gbps"] > 0
        assert c["replay_max_diff"] == 0.0, c  # same batch, same kernels: the same logits
    fed = {(c["model"], c["batch"], c["step"]): c["fed_tokens"] for c in report["cases"]}
    assert fed["llada-8b", 2, "full"] == 2 * (16 + 16)  # prompt + reply, both rows
    assert fed["llada-8b", 1, "cached"] == 8 + 8  # the block and the masked suffix
    assert fed["bd-1.5b", 1, "cached"] == 8 + 1  # the block and the position predicting its first
    assert report["copy_gbps"] > 0


def test_constrained_bench_on_the_demo_model(capsys):
    """``diffvoice bench --constrained`` on the bundled model: the tools set runs (it was
    skipped while forced calls were refused), every structured reply is valid in every mode it
    runs, and the summary line carries validity, field and tool accuracy."""
    from bench.decoding import main as bench_main

    assert bench_main(["--constrained", "--modes", "cache", "--max-new-tokens", "32"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    data = json.loads(out[-1])
    rows = data["constrained"]
    assert set(rows) == {f"{s}/{m}" for s in ("text", "tools", "json", "json-heldout")
                         for m in ("reference", "cache")}
    for name, row in rows.items():
        if not name.startswith("text/"):
            assert row["valid"] == row["n"] > 0, name
    s = data["summary"]
    assert s["validity"] == 1.0 and s["target"] == 0.9
    assert 0.0 <= s["field_accuracy"] <= 1.0 and 0.0 <= s["tool_accuracy"] <= 1.0
    # filled from its prose draft, a field holds what the model's plain reply says (29 of 30 for
    # the bundled model: asked "What's 8 times 7?" its draft says "Seven times seven is forty
    # nine", which "says" b = 7 only by the slip, and the fill gives b to the model)
    assert s["field_accuracy_when_said"] >= 0.95
    assert rows["json/cache"]["known"] > 0 and rows["json-heldout/cache"]["known"] > 0
