"""Tiny checkpoints with each family's real config fields, rebuilt bit for bit anywhere.

The decoding-parity golden data (``tests/engine/golden/*.json``) holds the tokens that each
family's published decoder produced on these checkpoints; ``test_parity.py`` checks that the
engine produces the same. Everything here depends only on NumPy's legacy ``RandomState`` (whose
streams NumPy keeps fixed) and float32 arithmetic, so the weights are the same on every machine
and torch version. Parameter names are the engine's (Qwen-style); the upstream harness renames
them for each family's own modeling code.

Real fields: vocabulary sizes, mask / end-of-text ids, RoPE thetas, norm epsilons, biases, tied
heads and block sizes are those of LLaDA-8B-Instruct, Dream-v0-Instruct-7B, SDAR-1.7B-Chat and
Fast_dLLM_v2_1.5B; widths and depths are tiny. A few dozen output rows are favoured (larger
lm-head rows), so confidences spread over (0, 1) instead of sitting near 1/V.
"""

from __future__ import annotations

import numpy as np
import torch

FAMILIES = ("llada", "dream", "sdar", "fast_dllm_v2")

# config.json of each tiny checkpoint, as the family publishes it (real ids and constants).
HF_CONFIGS: dict[str, dict] = {
    "llada": {
        "architectures": ["LLaDAModelLM"], "model_type": "llada", "activation_type": "silu",
        "block_type": "llama", "d_model": 64, "n_heads": 4, "n_kv_heads": 4, "n_layers": 2,
        "mlp_hidden_size": 96, "mlp_ratio": 4, "vocab_size": 126464, "embedding_size": 126464,
        "rope": True, "rope_theta": 500000.0, "rms_norm_eps": 1e-05, "layer_norm_type": "rms",
        "include_bias": False, "include_qkv_bias": False, "weight_tying": False,
        "mask_token_id": 126336, "eos_token_id": 126081, "pad_token_id": 126081,
        "max_sequence_length": 4096, "alibi": False, "flash_attention": False,
        "attention_dropout": 0.0, "residual_dropout": 0.0, "embedding_dropout": 0.0,
        "scale_logits": False, "input_emb_norm": False, "attention_layer_norm": False,
    },
    "dream": {
        "architectures": ["DreamModel"], "model_type": "Dream", "hidden_size": 64,
        "intermediate_size": 96, "num_hidden_layers": 2, "num_attention_heads": 4,
        "num_key_value_heads": 2, "vocab_size": 152064, "rope_theta": 1000000.0,
        "rms_norm_eps": 1e-06, "tie_word_embeddings": False, "mask_token_id": 151666,
        "eos_token_id": 151643, "pad_token_id": 151643, "bos_token_id": 151643,
        "max_position_embeddings": 131072, "hidden_act": "silu", "attention_dropout": 0.0,
        "use_sliding_window": False, "sliding_window": None, "max_window_layers": 2,
    },
    "sdar": {
        "architectures": ["SDARForCausalLM"], "model_type": "sdar", "hidden_size": 64,
        "intermediate_size": 96, "num_hidden_layers": 2, "num_attention_heads": 4,
        "num_key_value_heads": 2, "head_dim": 16, "vocab_size": 151936, "rope_theta": 1000000.0,
        "rms_norm_eps": 1e-06, "tie_word_embeddings": True, "mask_token_id": 151669,
        "eos_token_id": 151643, "bos_token_id": 151643, "block_size": 4,
        "max_position_embeddings": 32768, "hidden_act": "silu", "attention_bias": False,
        "attention_dropout": 0.0, "use_sliding_window": False, "sliding_window": None,
        "max_window_layers": 2, "rope_scaling": None,
    },
    "fast_dllm_v2": {
        "architectures": ["Fast_dLLM_QwenForCausalLM"], "model_type": "Fast_dLLM_Qwen",
        "hidden_size": 64, "intermediate_size": 96, "num_hidden_layers": 2,
        "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 151936,
        "rope_theta": 1000000.0, "rms_norm_eps": 1e-06, "tie_word_embeddings": True,
        "mask_token_id": 151665, "eos_token_id": 151645, "bos_token_id": 151643,
        "bd_size": 32, "max_position_embeddings": 32768, "hidden_act": "silu",
        "attention_dropout": 0.0, "use_sliding_window": False, "sliding_window": None,
        "max_window_layers": 2,
    },
}  # fmt: skip

N_FAVOURED = 48  # output rows that dominate the logits
SEEDS = {"llada": 11, "dream": 12, "sdar": 13, "fast_dllm_v2": 14}


def _dims(family: str) -> dict[str, int]:
    hf = HF_CONFIGS[family]
    if family == "llada":
        d, h, kv, layers, ff = (hf["d_model"], hf["n_heads"], hf["n_kv_heads"], hf["n_layers"],
                                hf["mlp_hidden_size"])  # fmt: skip
        hd = d // h
    else:
        d, h, kv, layers, ff = (hf["hidden_size"], hf["num_attention_heads"],
                                hf["num_key_value_heads"], hf["num_hidden_layers"],
                                hf["intermediate_size"])  # fmt: skip
        hd = hf.get("head_dim") or d // h
    return dict(d=d, h=h, kv=kv, layers=layers, ff=ff, hd=hd, V=hf["vocab_size"])


def favoured(family: str) -> list[int]:
    """The token ids whose output rows are scaled up (never the mask or end-of-text ids)."""
    hf = HF_CONFIGS[family]
    rs = np.random.RandomState(SEEDS[family] + 1000)
    avoid = {hf["mask_token_id"], hf["eos_token_id"]}
    ids = [int(i) for i in rs.choice(np.arange(1000, 100000), N_FAVOURED + 4, replace=False)]
    return [i for i in ids if i not in avoid][:N_FAVOURED]


def state_dict(family: str) -> dict[str, torch.Tensor]:
    """The checkpoint's weights under the engine's parameter names (float32)."""
    hf, k = HF_CONFIGS[family], _dims(family)
    rs = np.random.RandomState(SEEDS[family])

    def normal(shape: tuple[int, ...], std: float) -> torch.Tensor:
        return torch.from_numpy((rs.standard_normal(shape) * std).astype(np.float32))

    def norm(n: int) -> torch.Tensor:
        return torch.from_numpy((1.0 + 0.1 * rs.standard_normal(n)).astype(np.float32))

    d, hd, V = k["d"], k["hd"], k["V"]
    bias = family in ("dream", "fast_dllm_v2")
    sd: dict[str, torch.Tensor] = {"model.embed_tokens.weight": normal((V, d), 1.0)}
    for i in range(k["layers"]):
        p = f"model.layers.{i}."
        sd[p + "input_layernorm.weight"] = norm(d)
        sd[p + "post_attention_layernorm.weight"] = norm(d)
        for name, rows in (("q", k["h"]), ("k", k["kv"]), ("v", k["kv"])):
            sd[p + f"self_attn.{name}_proj.weight"] = normal((rows * hd, d), 0.3)
            if bias:
                sd[p + f"self_attn.{name}_proj.bias"] = normal((rows * hd,), 0.3)
        sd[p + "self_attn.o_proj.weight"] = normal((d, k["h"] * hd), 0.3)
        if family == "sdar":  # sharp attention: masked positions differ only through RoPE
            sd[p + "self_attn.q_norm.weight"] = 4.0 * norm(hd)
            sd[p + "self_attn.k_norm.weight"] = 4.0 * norm(hd)
        sd[p + "mlp.gate_proj.weight"] = normal((k["ff"], d), 0.3)
        sd[p + "mlp.up_proj.weight"] = normal((k["ff"], d), 0.3)
        sd[p + "mlp.down_proj.weight"] = normal((d, k["ff"]), 0.3)
    sd["model.norm.weight"] = norm(d)
    tied = hf.get("tie_word_embeddings", hf.get("weight_tying", False))
    head = sd["model.embed_tokens.weight"] if tied else normal((V, d), 1.0)
    head = head * 0.02  # the background: logits of a few tenths
    fav = torch.tensor(favoured(family))
    head[fav] = normal((len(fav), d), 0.8)  # the favoured rows: logits of several units
    head[hf["mask_token_id"]] = 0.0
    if tied:
        sd["model.embed_tokens.weight"] = head
    else:
        sd["lm_head.weight"] = head
    return sd


def prompts(family: str) -> dict[str, list[int]]:
    """Named prompts of ordinary (not favoured) tokens: lengths chosen so that replies start
    mid-block and on block boundaries. (A favoured token fed back would dominate its own
    position through a tied head and make every prediction the same.)"""
    rs = np.random.RandomState(SEEDS[family] + 2000)
    fav = set(favoured(family))
    out = {}
    for name, n in (("p13", 13), ("p8", 8), ("p37", 37), ("p64", 64)):
        ids = [int(i) for i in rs.randint(1000, 100000, n + 8) if int(i) not in fav]
        out[name] = ids[:n]
    return out


# The cases each golden file holds: (mode, prompt, max_new_tokens, decoding settings). Lengths
# are not multiples of the block, and prompts end mid-block (p13, p37) or on a block boundary
# (p8, p64). Bidirectional families decode in blocks of 8 (a decoding parameter upstream);
# block-causal ones use their checkpoint's block (SDAR 4; Fast-dLLM v2 32, sub-blocks of 8).
def _cases(modes: tuple[str, ...], runs: tuple[tuple[str, int, float], ...], **kw) -> list[dict]:
    return [dict(mode=m, prompt=p, max_new_tokens=n, threshold=t, **kw)
            for m in modes for p, n, t in runs]  # fmt: skip


CASES: dict[str, list[dict]] = {
    "llada": _cases(("reference", "parallel", "cache", "dual_cache"),
                    (("p13", 13, 0.9), ("p37", 11, 0.5)), block_size=8),
    "dream": _cases(("reference", "cache", "dual_cache"),
                    (("p13", 13, 0.9), ("p37", 11, 0.5)), block_size=8),
    "sdar": _cases(("reference", "parallel", "cache", "dual_cache"),
                   (("p13", 13, 0.9), ("p8", 9, 0.5))),
    "fast_dllm_v2": _cases(("cache",), (("p13", 45, 0.9), ("p64", 37, 0.5), ("p37", 30, 0.7)),
                           small_block_size=8),
}  # fmt: skip


def case_key(case: dict) -> str:
    extra = f"-sb{case['small_block_size']}" if "small_block_size" in case else ""
    bs = f"-b{case['block_size']}" if "block_size" in case else ""
    return (f"{case['mode']}-{case['prompt']}-n{case['max_new_tokens']}{bs}"
            f"-t{case['threshold']}{extra}")  # fmt: skip
