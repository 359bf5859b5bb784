"""The engine's model against transformers' reference implementations, and its cache path.

Each family's tiny checkpoint is loaded twice: through ``engine.checkpoint.load_model`` and, from
the same files on disk, into the transformers class with the same maths (LLaDA → Llama, Dream →
Qwen2, SDAR → Qwen3), made bidirectional or block-causal as the family needs. Logits must agree
to 1e-4. Then the engine's KV-cache path must give the logits the plain path gives.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from engine import LLM, SamplingParams
from engine.checkpoint import load_model
from tests.engine.tiny import make_checkpoint, make_variant

TOL = 1e-4
ASK = [{"role": "user", "content": "what is the capital of france"}]

# LLaDA's OLMo-style names → Llama's, written out here rather than taken from the loader so the
# test checks the loader's mapping instead of repeating it.
_LLADA_TO_LLAMA = {
    "q_proj": "self_attn.q_proj",
    "k_proj": "self_attn.k_proj",
    "v_proj": "self_attn.v_proj",
    "attn_out": "self_attn.o_proj",
    "ff_proj": "mlp.gate_proj",
    "up_proj": "mlp.up_proj",
    "ff_out": "mlp.down_proj",
    "attn_norm": "input_layernorm",
    "ff_norm": "post_attention_layernorm",
}


def _raw_state(folder: Path) -> dict[str, torch.Tensor]:
    """Every tensor on disk, from the single file or from all shards of the index."""
    index = folder / "model.safetensors.index.json"
    if index.exists():
        files = sorted(set(json.loads(index.read_text())["weight_map"].values()))
    else:
        files = ["model.safetensors"]
    state: dict[str, torch.Tensor] = {}
    for f in files:
        state.update(load_file(str(folder / f)))
    return state


def _llada_to_llama(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    top = {
        "model.transformer.wte.weight": "model.embed_tokens.weight",
        "model.transformer.ln_f.weight": "model.norm.weight",
        "model.transformer.ff_out.weight": "lm_head.weight",
    }
    out = {}
    for name, t in state.items():
        if name in top:
            out[top[name]] = t
            continue
        _, _, _, i, mod, leaf = name.split(".")  # model.transformer.blocks.{i}.{mod}.{leaf}
        out[f"model.layers.{i}.{_LLADA_TO_LLAMA[mod]}.{leaf}"] = t
    return out


def hf_reference(folder: Path, family: str, causal: bool = False) -> torch.nn.Module:
    """The transformers model with the family's maths, weights read from ``folder``."""
    import transformers as tf

    hf = json.loads((folder / "config.json").read_text())
    state = _raw_state(folder)
    if family == "llada":
        kw = dict(
            vocab_size=hf["embedding_size"],
            hidden_size=hf["d_model"],
            intermediate_size=hf["mlp_hidden_size"],
            num_hidden_layers=hf["n_layers"],
            num_attention_heads=hf["n_heads"],
            num_key_value_heads=hf["n_kv_heads"],
            rope_theta=hf["rope_theta"],
            rms_norm_eps=hf["rms_norm_eps"],
            tie_word_embeddings=False,
            attention_bias=False,
            mlp_bias=False,
        )
        cfg, cls, state = tf.LlamaConfig(**kw), tf.LlamaForCausalLM, _llada_to_llama(state)
    else:
        kw = dict(
            vocab_size=hf["vocab_size"],
            hidden_size=hf["hidden_size"],
            intermediate_size=hf["intermediate_size"],
            num_hidden_layers=hf["num_hidden_layers"],
            num_attention_heads=hf["num_attention_heads"],
            num_key_value_heads=hf["num_key_value_heads"],
            rope_theta=hf["rope_theta"],
            rms_norm_eps=hf["rms_norm_eps"],
            tie_word_embeddings=hf["tie_word_embeddings"],
        )
        if family == "dream":
            cfg, cls = tf.Qwen2Config(**kw), tf.Qwen2ForCausalLM
        else:
            cfg = tf.Qwen3Config(**kw, head_dim=hf["head_dim"], attention_bias=False)
            cls = tf.Qwen3ForCausalLM
    if family in ("llada", "dream") and not causal:
        cfg.is_causal = False
    cfg._attn_implementation = "eager"
    model = cls(cfg).eval()
    missing, unexpected = model.load_state_dict(state, strict=False)
    tied = {"lm_head.weight"} if cfg.tie_word_embeddings else set()
    assert not unexpected and set(missing) <= tied, (missing, unexpected)
    return model


def block_ends(prompt_len: int, length: int, bs: int, align: str) -> torch.Tensor:
    """Per position, one past the last key it may see under block-causal attention."""
    ends = []
    for i in range(length):
        if align == "prompt":
            e = prompt_len if i < prompt_len else prompt_len + ((i - prompt_len) // bs + 1) * bs
        else:
            e = (i // bs + 1) * bs
        ends.append(min(e, length))
    return torch.tensor(ends)


def block_mask(prompt_len: int, length: int, bs: int, align: str) -> torch.Tensor:
    """[1, 1, L, L] bool, True = may attend."""
    ends = block_ends(prompt_len, length, bs, align)
    return (torch.arange(length)[None, :] < ends[:, None])[None, None]


def _inputs(vocab: int, mask_id: int, batch: int = 2, length: int = 13) -> torch.Tensor:
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(0, vocab, (batch, length), generator=g)
    ids[:, length // 2 :] = mask_id  # the model sees masks where it will predict
    return ids


@pytest.mark.parametrize(
    "family,shards",
    [("llada", 1), ("llada", 3), ("dream", 1), ("dream", 2)],
    ids=["llada", "llada-sharded", "dream", "dream-sharded"],
)
def test_bidirectional_logits_match_transformers(tmp_path, family, shards):
    make_checkpoint(tmp_path, family, seed=3, shards=shards)
    if shards > 1:
        assert (tmp_path / "model.safetensors.index.json").exists()
        assert not (tmp_path / "model.safetensors").exists()
    ours, _ = load_model(tmp_path)
    ref = hf_reference(tmp_path, family)
    ids = _inputs(ours.cfg.vocab_size, ours.cfg.mask_token_id)
    pos = torch.arange(ids.shape[1]).expand_as(ids)
    with torch.no_grad():
        a = ours(ids, pos)  # attn_mask None: fully bidirectional
        b = ref(input_ids=ids, position_ids=pos).logits
        causal = hf_reference(tmp_path, family, causal=True)(input_ids=ids, position_ids=pos)
    err = (a - b).abs().max().item()
    assert err < TOL, f"{family}: max abs error {err:.2e}"
    # The reference really is bidirectional: the causal model gives other logits.
    assert (a - causal.logits).abs().max().item() > 1e-2


@pytest.mark.parametrize("align", ["prompt", "absolute"])
def test_sdar_block_causal_logits_match_qwen3(tmp_path, align):
    make_checkpoint(tmp_path, "sdar", seed=4)
    ours, _ = load_model(tmp_path)
    ref = hf_reference(tmp_path, "sdar")
    ids = _inputs(ours.cfg.vocab_size, ours.cfg.mask_token_id, length=14)
    L = ids.shape[1]
    pos = torch.arange(L).expand_as(ids)
    allowed = block_mask(5, L, ours.cfg.block_size, align).expand(2, 1, L, L)
    # transformers 5 passes a 4D mask through as it is; eager attention adds it.
    additive = torch.zeros(allowed.shape).masked_fill(~allowed, torch.finfo(torch.float32).min)
    with torch.no_grad():
        a = ours(ids, pos, attn_mask=allowed)
        b = ref(input_ids=ids, position_ids=pos, attention_mask=additive).logits
        full = ours(ids, pos)
    err = (a - b).abs().max().item()
    assert err < TOL, f"sdar ({align}): max abs error {err:.2e}"
    assert (a - full).abs().max().item() > 1e-2  # the mask matters


def test_sharded_checkpoint_loads_like_single_file(tmp_path):
    make_checkpoint(tmp_path / "one", "llada", seed=5)
    make_checkpoint(tmp_path / "many", "llada", seed=5, shards=4)
    a, _ = load_model(tmp_path / "one")
    b, _ = load_model(tmp_path / "many")
    sa, sb = a.state_dict(), b.state_dict()
    assert sa.keys() == sb.keys()
    assert all(torch.equal(sa[k], sb[k]) for k in sa)


@pytest.mark.parametrize("mode", ["cache", "parallel"])
@pytest.mark.parametrize("kind", ["sdar", "sdar-absolute", "fast_dllm_v2"])
def test_engine_cache_path_equals_plain_path_block_causal(tmp_path, kind, mode):
    """Every step's logits through the KV cache equal a full plain pass with the block mask."""
    make_variant(tmp_path, kind, seed=6)  # sdar, sdar-absolute or fast_dllm_v2
    llm = LLM.load(str(tmp_path), device="cpu", max_model_len=128, max_batch_size=2)
    eng, model = llm.engine, llm.engine.model
    cfg = model.cfg
    shift = 1 if cfg.logit_shift else 0
    seen: list[torch.Tensor] = []
    real_logits = model.logits

    def spy(hidden: torch.Tensor) -> torch.Tensor:
        out = real_logits(hidden)
        seen.append(out.clone())  # the engine edits its logits in place
        return out

    model.logits = spy  # type: ignore[method-assign]
    try:
        eng.add_request(ASK, SamplingParams(mode=mode, max_new_tokens=11, threshold=0.3))
        steps = 0
        while eng.has_work():
            seq = (eng.waiting or eng.running)[0]
            tokens = torch.tensor(seq.tokens)
            s, e = seq.block_bounds()
            eng.step()
            P = seq.prompt_len
            allowed = block_mask(P, e, cfg.block_size, cfg.block_align)
            with torch.no_grad():
                ref = model(tokens[None, :e], torch.arange(e)[None], attn_mask=allowed)[0]
            got = seen[-1][0, : e - s]
            err = (got - ref[s - shift : e - shift]).abs().max().item()
            assert err < TOL, f"step {steps}: max abs error {err:.2e}"
            steps += 1
        assert steps >= 3
    finally:
        del model.logits


@pytest.mark.parametrize("family", ["llada", "dream"])
def test_engine_full_recompute_equals_plain_path_bidirectional(tmp_path, family):
    """Parallel mode's full pass through the cache kernels equals a plain bidirectional pass."""
    make_checkpoint(tmp_path, family, seed=7)
    llm = LLM.load(str(tmp_path), device="cpu", max_model_len=128, max_batch_size=2)
    eng, model = llm.engine, llm.engine.model
    shift = 1 if model.cfg.logit_shift else 0
    seen: list[torch.Tensor] = []
    real_logits = model.logits
    model.logits = lambda h: seen.append(real_logits(h).clone()) or seen[-1].clone()  # type: ignore[method-assign]
    try:
        eng.add_request(ASK, SamplingParams(mode="parallel", max_new_tokens=8, block_size=4))
        while eng.has_work():
            seq = (eng.waiting or eng.running)[0]
            tokens = torch.tensor(seq.tokens)
            s, e = seq.block_bounds()
            eng.step()
            with torch.no_grad():
                ref = model(tokens[None], torch.arange(seq.total)[None])[0]
            err = (seen[-1][0, : e - s] - ref[s - shift : e - shift]).abs().max().item()
            assert err < TOL, f"max abs error {err:.2e}"
    finally:
        del model.logits
