"""Tiny random checkpoints in each family's real on-disk layout, built by the tests themselves."""

from __future__ import annotations

import json
from pathlib import Path

import torch
from safetensors.torch import save_file
from tokenizers import Tokenizer, models, pre_tokenizers

from engine.checkpoint import _LLADA_LAYER, save_pretrained
from engine.model import DiffusionLM, ModelConfig

WORDS = (
    "hello hi the capital of france is paris what seven times eight fifty six yes no "
    "a an and to in on it you i am are how what's planet mars earth sun moon one two three"
).split()
SPECIALS = ["<|pad|>", "<|endoftext|>", "<|mask|>", "<|user|>", "<|assistant|>", "<|system|>"]
CHAT_TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}"
    "{% if m['role'] == 'assistant' %}<|endoftext|>{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)


def write_tokenizer(folder: Path) -> tuple[int, int]:
    """A word-level tokenizer; returns (vocab size, mask id)."""
    vocab = {t: i for i, t in enumerate(SPECIALS + ["[UNK]"] + WORDS + [".", ",", "?", "!"])}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Punctuation()]
    )
    tok.add_special_tokens(SPECIALS)
    from tokenizers import decoders

    tok.decoder = decoders.WordPiece(prefix="##")  # joins words with spaces
    tok.save(str(folder / "tokenizer.json"))
    (folder / "tokenizer_config.json").write_text(
        json.dumps({"chat_template": CHAT_TEMPLATE, "eos_token": "<|endoftext|>"})
    )
    return len(vocab), vocab["<|mask|>"]


def tiny_config(family: str, vocab: int, mask: int, **kw) -> ModelConfig:
    base = dict(
        family=family, vocab_size=vocab, hidden_size=64, intermediate_size=96, num_layers=2,
        num_heads=4, num_kv_heads=2, head_dim=16, mask_token_id=mask, eos_token_ids=[1],
        rms_norm_eps=1e-6, rope_theta=10000.0,
    )
    if family == "sdar":
        base.update(block_size=4, block_align="prompt", tie_word_embeddings=True)
    base.update(kw)
    return ModelConfig(**base)


def random_model(cfg: ModelConfig, seed: int = 0) -> DiffusionLM:
    torch.manual_seed(seed)
    m = DiffusionLM(cfg)
    with torch.no_grad():
        for name, p in m.named_parameters():
            if "norm" in name:
                p.copy_(1.0 + 0.1 * torch.randn_like(p))
            else:
                p.normal_(0.0, 0.3)
    return m.eval()


def make_checkpoint(folder: Path, family: str, seed: int = 0, shards: int = 1, **kw) -> DiffusionLM:
    """Write a tiny random ``family`` checkpoint to ``folder``; returns the source model."""
    folder.mkdir(parents=True, exist_ok=True)
    vocab, mask = write_tokenizer(folder)
    cfg = tiny_config(family, vocab, mask, **kw)
    model = random_model(cfg, seed)
    if family == "sdar":
        save_pretrained(model, folder)
        return model
    sd = {k: v.contiguous() for k, v in model.state_dict().items()}
    if family == "llada":
        inv = {v: k for k, v in _LLADA_LAYER.items()}
        renamed = {}
        for k, v in sd.items():
            if k == "model.embed_tokens.weight":
                renamed["model.transformer.wte.weight"] = v
            elif k == "model.norm.weight":
                renamed["model.transformer.ln_f.weight"] = v
            elif k == "lm_head.weight":
                renamed["model.transformer.ff_out.weight"] = v
            else:
                _, _, i, *rest = k.split(".")
                mod, leaf = ".".join(rest[:-1]), rest[-1]
                renamed[f"model.transformer.blocks.{i}.{inv[mod]}.{leaf}"] = v
        sd = renamed
        hf = {
            "architectures": ["LLaDAModelLM"], "model_type": "llada", "d_model": cfg.hidden_size,
            "n_heads": cfg.num_heads, "n_kv_heads": cfg.num_kv_heads, "n_layers": cfg.num_layers,
            "mlp_hidden_size": cfg.intermediate_size, "vocab_size": vocab,
            "embedding_size": vocab, "rope_theta": cfg.rope_theta, "rms_norm_eps": 1e-6,
            "weight_tying": False, "mask_token_id": mask, "eos_token_id": 1,
            "max_sequence_length": 512, "activation_type": "silu", "layer_norm_type": "rms",
        }
    else:  # dream: Qwen2 names as they are
        hf = {
            "architectures": ["DreamModel"], "model_type": "Dream",
            "hidden_size": cfg.hidden_size, "intermediate_size": cfg.intermediate_size,
            "num_hidden_layers": cfg.num_layers, "num_attention_heads": cfg.num_heads,
            "num_key_value_heads": cfg.num_kv_heads, "vocab_size": vocab,
            "rope_theta": cfg.rope_theta, "rms_norm_eps": 1e-6, "tie_word_embeddings": False,
            "mask_token_id": mask, "eos_token_id": 1, "max_position_embeddings": 512,
        }
    (folder / "config.json").write_text(json.dumps(hf))
    names = sorted(sd)
    if shards == 1:
        save_file(sd, str(folder / "model.safetensors"))
    else:
        weight_map = {}
        for s in range(shards):
            part = {n: sd[n] for n in names[s::shards]}
            fn = f"model-{s + 1:05d}-of-{shards:05d}.safetensors"
            save_file(part, str(folder / fn))
            weight_map.update({n: fn for n in part})
        (folder / "model.safetensors.index.json").write_text(json.dumps({"weight_map": weight_map}))
    return model


def make_variant(folder: Path, kind: str, seed: int = 0) -> None:
    """A tiny checkpoint of ``kind``: a family, or a variant made by editing its config.json —
    ``fast_dllm_v2`` (Dream's Qwen2 layout, block-causal with blocks of 4) or ``sdar-absolute``
    (blocks counted from position 0, as SDAR itself does)."""
    if kind == "fast_dllm_v2":
        make_checkpoint(folder, "dream", seed=seed)
        patch = {"architectures": ["Fast_dLLM_QwenForCausalLM"], "bd_size": 4}
    elif kind == "sdar-absolute":
        make_checkpoint(folder, "sdar", seed=seed)
        patch = {"diffvoice": {"block_align": "absolute"}}
    else:
        make_checkpoint(folder, kind, seed=seed)
        return
    cfg = json.loads((folder / "config.json").read_text())
    cfg.update(patch)
    (folder / "config.json").write_text(json.dumps(cfg))
