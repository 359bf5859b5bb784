"""Checkpoint loading: every family's layout loads, and every broken checkpoint is refused with
one clear line (:class:`ModelLoadError`), never a traceback from deep inside a library."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file, save_file

from engine import Engine, EngineConfig, ModelLoadError
from engine.checkpoint import load_model, save_pretrained
from tests.engine.tiny import make_checkpoint


@pytest.fixture
def broken(sdar_dir, tmp_path) -> Path:
    """A fresh copy of a good checkpoint for a test to break."""
    folder = tmp_path / "broken"
    shutil.copytree(sdar_dir, folder)
    return folder


def _refused(path: Path | str, *needles: str) -> str:
    with pytest.raises(ModelLoadError) as info:
        load_model(path)
    msg = str(info.value)
    assert "\n" not in msg and msg.strip(), repr(msg)
    for n in needles:
        assert n in msg, f"{n!r} not in {msg!r}"
    return msg


@pytest.mark.parametrize("family", ["llada", "dream", "sdar"])
def test_each_family_loads_with_its_own_names(tmp_path, family):
    src = make_checkpoint(tmp_path, family, seed=2)
    model, folder = load_model(tmp_path)
    assert folder == tmp_path and model.cfg.family == family
    assert not any(p.is_meta for p in model.parameters())
    ours, theirs = model.state_dict(), src.state_dict()
    assert ours.keys() == theirs.keys()
    assert all(torch.equal(ours[k], theirs[k]) for k in ours)


def test_save_pretrained_round_trip(tmp_path, sdar_dir):
    model, _ = load_model(sdar_dir)
    save_pretrained(model, tmp_path, dtype=torch.bfloat16)
    again, _ = load_model(tmp_path)
    assert again.cfg == model.cfg
    theirs = again.state_dict()
    assert theirs.keys() == model.state_dict().keys()
    for name, a in model.state_dict().items():
        assert torch.allclose(a, theirs[name], atol=0.02, rtol=0.01), name
    assert again.lm_head.weight is again.model.embed_tokens.weight  # tied after loading


def test_unknown_architecture_lists_supported_ones(broken):
    cfg = json.loads((broken / "config.json").read_text())
    cfg.update(architectures=["GPT2LMHeadModel"], model_type="gpt2")
    (broken / "config.json").write_text(json.dumps(cfg))
    msg = _refused(broken, "GPT2LMHeadModel", "supported")
    for name in ("LLaDA", "Dream", "SDAR", "Fast-dLLM"):
        assert name in msg


@pytest.mark.parametrize(
    "content",
    [b"", b"not a safetensors file at all" * 10, None],
    ids=["empty", "garbage", "truncated"],
)
def test_corrupt_safetensors(broken, content):
    f = broken / "model.safetensors"
    data = f.read_bytes()
    f.write_bytes(data[: len(data) // 2] if content is None else content)
    _refused(broken, "corrupt", "model.safetensors")


def test_missing_weights(broken):
    (broken / "model.safetensors").unlink()
    _refused(broken, "no *.safetensors")


def test_missing_config(broken):
    (broken / "config.json").unlink()
    _refused(broken, "config.json", "missing")


def test_config_not_json(broken):
    (broken / "config.json").write_text("{architectures: [")
    _refused(broken, "config.json", "not valid JSON")


def test_config_lacks_a_field(broken):
    cfg = json.loads((broken / "config.json").read_text())
    del cfg["hidden_size"]
    (broken / "config.json").write_text(json.dumps(cfg))
    _refused(broken, "hidden_size")


def test_missing_tensor(broken):
    f = broken / "model.safetensors"
    state = load_file(str(f))
    del state["model.layers.1.mlp.up_proj.weight"]
    save_file(state, str(f))
    _refused(broken, "lacks", "model.layers.1.mlp.up_proj.weight")


def test_unexpected_tensor(broken):
    f = broken / "model.safetensors"
    state = load_file(str(f))
    state["model.layers.9.mlp.up_proj.weight"] = torch.zeros(2, 2)
    save_file(state, str(f))
    _refused(broken, "unexpected", "model.layers.9")


def test_shape_mismatch(broken):
    cfg = json.loads((broken / "config.json").read_text())
    cfg["intermediate_size"] += 8
    (broken / "config.json").write_text(json.dumps(cfg))
    _refused(broken, "shape", "mlp")


def test_missing_shard(tmp_path):
    make_checkpoint(tmp_path, "llada", shards=2)
    next(tmp_path.glob("model-00002-*.safetensors")).unlink()
    _refused(tmp_path, "shard", "missing")


def test_unknown_path(tmp_path):
    _refused(tmp_path / "nowhere", "does not exist")
    _refused("./no/such/model", "does not exist")


def test_file_instead_of_folder(sdar_dir):
    _refused(sdar_dir / "config.json", "is a file")


def test_hub_id_offline_is_one_line():
    # conftest sets HF_HUB_OFFLINE: fetching fails, and says so in one line.
    _refused("no-such-org/no-such-model-xyz", "no-such-org/no-such-model-xyz")


def test_engine_load_without_tokenizer(broken):
    (broken / "tokenizer.json").unlink()
    with pytest.raises(ModelLoadError, match="tokenizer.json"):
        Engine.load(EngineConfig(model=str(broken), device="cpu"))
