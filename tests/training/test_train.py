"""A few training steps on a tiny config: the loss falls, runs resume, the folder loads."""

from __future__ import annotations

import json

import pytest

from training.train import TrainConfig, load_config, train

TINY = dict(
    corpus_size=2000, vocab_size=768, hidden_size=64, intermediate_size=128, num_layers=2,
    num_heads=2, num_kv_heads=2, block_size=64, batch_size=16, lr=3e-3, warmup_steps=5,
    bf16=False, compile=False, checkpoint_every=10, log_every=5, eval_every=0,
)  # fmt: skip


def tiny(tmp_path, **kw) -> TrainConfig:
    return TrainConfig(out_dir=str(tmp_path / "model"), run_dir=str(tmp_path / "run"),
                       **{**TINY, **kw})  # fmt: skip


@pytest.mark.slow
def test_a_few_steps_lower_the_loss_and_write_a_loadable_folder(tmp_path):
    summary = train(tiny(tmp_path, steps=40), quiet=True)
    hist = json.loads((tmp_path / "run" / "training.json").read_text())
    assert hist["steps"] == 40 == summary["steps"]
    import torch

    ck = torch.load(tmp_path / "run" / "ckpt.pt", weights_only=False)
    losses = ck["history"]
    assert sum(losses[-5:]) / 5 < 0.7 * sum(losses[:5]) / 5
    out = tmp_path / "model"
    for f in ("config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json",
              "generation_config.json", "loss.png", "training.json", "heldout.jsonl"):  # fmt: skip
        assert (out / f).exists(), f
    from engine.checkpoint import load_model

    model, _ = load_model(out)
    assert model.cfg.family == "sdar" and model.cfg.block_align == "prompt"
    assert model.cfg.mask_token_id == 1 and model.cfg.eos_token_ids == [0]

    # The evaluation runs through the engine on the held-out split saved beside the weights.
    from training.evaluate import evaluate

    res = evaluate(str(out), modes=("reference", "cache"), limit=6, batch_size=6, progress=False)
    assert res["items"] == 6 and set(res["modes"]) == {"reference", "cache"}
    ref = res["modes"]["reference"]
    assert 0.0 <= ref["accuracy"] <= 1.0 and ref["nfe_per_reply"] == 64
    assert res["modes"]["cache"]["nfe_per_reply"] <= 64


@pytest.mark.slow
def test_training_resumes_from_its_checkpoint(tmp_path):
    train(tiny(tmp_path, steps=10), quiet=True)
    import torch

    first = torch.load(tmp_path / "run" / "ckpt.pt", weights_only=False)
    assert first["step"] == 10
    summary = train(tiny(tmp_path, steps=20), quiet=True)
    again = torch.load(tmp_path / "run" / "ckpt.pt", weights_only=False)
    assert summary["steps"] == 20 and again["step"] == 20
    assert again["history"][:10] == first["history"]


def test_unknown_config_key_is_named(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text("steps = 3\nlearning_rate = 0.1\n")
    with pytest.raises(ValueError, match="learning_rate"):
        load_config(cfg)


def test_demo_preset_loads():
    cfg = load_config("configs/demo-model.toml")
    assert cfg.out_dir == "models/demo" and cfg.block_size == 32
    over = TrainConfig.from_toml("configs/demo-model.toml", ["steps=7", "run_dir=/tmp/x"])
    assert over.steps == 7 and over.run_dir == "/tmp/x"


def test_json_preset_is_a_gentle_warm_start_into_runs():
    cfg = load_config("configs/demo-model-json.toml")
    assert cfg.init_from == "models/demo" and cfg.out_dir.startswith("runs/")
    assert cfg.json_dialogs > 0 and cfg.tool_dialogs > 0 and cfg.old_dialogs > 0
    assert cfg.lr < 6e-4 and cfg.max_wall_min == cfg.time_budget_min == 30


def test_json_rows_join_the_training_split_only(small_corpus):
    from training.skills_json import build_json_corpus

    mixed = build_json_corpus(3, small_corpus, 300)
    assert len(mixed.train) == len(small_corpus.train) + 300
    assert mixed.heldout == small_corpus.heldout
    assert sum(d.skill.startswith("json_") for d in mixed.train) == 300


@pytest.mark.parametrize(
    "sets, needle",
    [
        (["steps"], "--set needs key=value, got 'steps'"),
        (["train.learning_rate=0.1"], "unknown training config key 'learning_rate'"),
        (["block_size=4"], "block_size must be at least 8"),
    ],
)
def test_overrides_share_the_app_parser_and_its_errors(sets, needle):
    """``diffvoice train --set`` reads items as ``--set`` does everywhere; a bad one is a one-line
    user-facing ConfigError (still a ValueError)."""
    from engine.errors import ConfigError

    with pytest.raises(ConfigError) as e:
        TrainConfig.from_toml("configs/demo-model.toml", sets)
    assert needle in str(e.value) and "\n" not in str(e.value)
