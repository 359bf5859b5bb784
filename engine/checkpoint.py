"""Loading and saving Hugging Face format checkpoints of diffusion LMs.

A checkpoint is a folder with ``config.json``, ``model.safetensors`` (or shards listed in
``model.safetensors.index.json``) and tokenizer files — local, or fetched by hub id where the
machine has internet. Each family keeps its own parameter names on disk; they are mapped to the
engine's Qwen-style module names here.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import torch

from engine.errors import UserError
from engine.model import FAMILIES, DiffusionLM, ModelConfig


class ModelLoadError(UserError):
    """A checkpoint could not be found, parsed or loaded; the message is one line."""


SUPPORTED = (
    "LLaDA (LLaDAModelLM), Dream (DreamModel), SDAR (SDARForCausalLM), "
    "Fast-dLLM v2 (Fast_dLLM_QwenForCausalLM)"
)

# Architecture names and model types seen in the wild → family.
_ARCH_FAMILY = {
    "lladamodellm": "llada",
    "llada": "llada",
    "dreammodel": "dream",
    "dream": "dream",
    "sdarforcausallm": "sdar",
    "sdar": "sdar",
    "fast_dllm_qwenforcausallm": "fast_dllm_v2",
    "fast_dllm_v2": "fast_dllm_v2",
    "fast_dllm_qwen": "fast_dllm_v2",
}

# Known mask ids for checkpoints whose config.json does not name one.
_DEFAULT_MASK = {"llada": 126336, "dream": 151666, "sdar": 151669, "fast_dllm_v2": 151665}


def detect_family(hf: dict) -> str:
    names = [a.lower() for a in hf.get("architectures") or []]
    names.append(str(hf.get("model_type", "")).lower())
    for n in names:
        if n in _ARCH_FAMILY:
            return _ARCH_FAMILY[n]
    shown = ", ".join(hf.get("architectures") or []) or hf.get("model_type") or "none given"
    raise ModelLoadError(f"unsupported architecture ({shown}); supported: {SUPPORTED}")


def _eos_list(v: object) -> list[int]:
    if v is None:
        return []
    return [int(x) for x in v] if isinstance(v, list) else [int(v)]  # type: ignore[union-attr]


def config_from_hf(hf: dict) -> ModelConfig:
    """Translate a checkpoint's ``config.json`` into a :class:`ModelConfig`."""
    family = detect_family(hf)
    ours = hf.get("diffvoice", {})
    try:
        if family == "llada":
            cfg = ModelConfig(
                family=family,
                vocab_size=int(hf.get("embedding_size") or hf["vocab_size"]),
                hidden_size=int(hf["d_model"]),
                intermediate_size=int(hf["mlp_hidden_size"]),
                num_layers=int(hf["n_layers"]),
                num_heads=int(hf["n_heads"]),
                num_kv_heads=int(hf.get("n_kv_heads") or hf["n_heads"]),
                rope_theta=float(hf.get("rope_theta", 10000.0)),
                rms_norm_eps=float(hf.get("rms_norm_eps", 1e-5)),
                tie_word_embeddings=bool(hf.get("weight_tying", False)),
                qkv_bias=bool(hf.get("include_qkv_bias", hf.get("include_bias", False))),
                mask_token_id=int(hf.get("mask_token_id", _DEFAULT_MASK[family])),
                eos_token_ids=_eos_list(hf.get("eos_token_id", 126081)) + [126348],
                max_position_embeddings=int(hf.get("max_sequence_length", 4096)),
            )
        else:
            qwen2 = family in ("dream", "fast_dllm_v2")
            cfg = ModelConfig(
                family=family,
                vocab_size=int(hf["vocab_size"]),
                hidden_size=int(hf["hidden_size"]),
                intermediate_size=int(hf["intermediate_size"]),
                num_layers=int(hf["num_hidden_layers"]),
                num_heads=int(hf["num_attention_heads"]),
                num_kv_heads=int(hf.get("num_key_value_heads") or hf["num_attention_heads"]),
                head_dim=int(hf.get("head_dim") or 0),
                rope_theta=float(hf.get("rope_theta", 10000.0)),
                rms_norm_eps=float(hf.get("rms_norm_eps", 1e-6)),
                tie_word_embeddings=bool(hf.get("tie_word_embeddings", False)),
                qkv_bias=qwen2 or bool(hf.get("attention_bias", False)),
                qk_norm=family == "sdar",
                logit_shift=family in ("dream", "fast_dllm_v2"),
                mask_token_id=int(hf.get("mask_token_id", _DEFAULT_MASK[family])),
                eos_token_ids=_eos_list(hf.get("eos_token_id")),
                block_size=int(hf.get("block_size") or hf.get("bd_size") or (
                    32 if family == "fast_dllm_v2" else 4 if family == "sdar" else 0)),
                block_align=str(ours.get("block_align", "absolute")),
                json_from_draft=bool(ours.get("json_from_draft", False)),
                max_position_embeddings=int(hf.get("max_position_embeddings", 4096)),
            )
    except KeyError as e:
        raise ModelLoadError(f"config.json lacks {e.args[0]!r} for a {family} model") from None
    except (ValueError, TypeError) as e:
        raise ModelLoadError(f"config.json: {_one_line(e)}") from None
    return cfg


def hf_config(cfg: ModelConfig) -> dict:
    """A ``config.json`` for a model of the ``sdar`` family (what the demo model ships as)."""
    if cfg.family != "sdar":
        raise ValueError("only sdar-family models are saved by diffvoice")
    return {
        "architectures": ["SDARForCausalLM"],
        "model_type": "sdar",
        "vocab_size": cfg.vocab_size,
        "hidden_size": cfg.hidden_size,
        "intermediate_size": cfg.intermediate_size,
        "num_hidden_layers": cfg.num_layers,
        "num_attention_heads": cfg.num_heads,
        "num_key_value_heads": cfg.num_kv_heads,
        "head_dim": cfg.head_dim,
        "hidden_act": "silu",
        "rope_theta": cfg.rope_theta,
        "rms_norm_eps": cfg.rms_norm_eps,
        "tie_word_embeddings": cfg.tie_word_embeddings,
        "attention_bias": cfg.qkv_bias,
        "mask_token_id": cfg.mask_token_id,
        "eos_token_id": cfg.eos_token_ids[0] if len(cfg.eos_token_ids) == 1 else cfg.eos_token_ids,
        "block_size": cfg.block_size,
        "max_position_embeddings": cfg.max_position_embeddings,
        "diffvoice": {"block_align": cfg.block_align, "json_from_draft": cfg.json_from_draft},
    }


_LLADA_LAYER = {
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
_LLADA_TOP = {
    "model.transformer.wte.weight": "model.embed_tokens.weight",
    "model.transformer.ln_f.weight": "model.norm.weight",
    "model.transformer.ff_out.weight": "lm_head.weight",
}
_LLADA_BLOCK = re.compile(r"model\.transformer\.blocks\.(\d+)\.(\w+)\.(weight|bias)$")


def map_name(family: str, name: str) -> str | None:
    """Checkpoint parameter name → engine module name (None: not a parameter we use)."""
    if family == "llada":
        if name in _LLADA_TOP:
            return _LLADA_TOP[name]
        m = _LLADA_BLOCK.match(name)
        if m and m.group(2) in _LLADA_LAYER:
            return f"model.layers.{m.group(1)}.{_LLADA_LAYER[m.group(2)]}.{m.group(3)}"
        return None
    if name.endswith("rotary_emb.inv_freq"):
        return None
    return name


def resolve(path_or_id: str | os.PathLike) -> Path:
    """A local checkpoint folder, or a hub id fetched into the local cache."""
    p = Path(path_or_id).expanduser()
    if p.is_dir():
        return p
    s = str(path_or_id)
    if p.exists():
        raise ModelLoadError(f"model path {s} is a file; give the checkpoint's folder")
    if re.fullmatch(r"[\w.-]+/[\w.-]+", s) and not s.startswith((".", "/")):
        try:
            from huggingface_hub import snapshot_download

            return Path(
                snapshot_download(
                    s, allow_patterns=["*.json", "*.safetensors", "*.jinja", "*.txt", "*.model"]
                )
            )
        except Exception as e:  # offline, unknown repo, gated...
            msg = str(e).splitlines()[0] if str(e) else type(e).__name__
            raise ModelLoadError(f"cannot fetch model {s!r} from the hub: {msg}") from None
    raise ModelLoadError(f"model path {s} does not exist")


def _one_line(e: BaseException) -> str:
    """A library's error message folded onto one line."""
    return " ".join(str(e).split()) or type(e).__name__


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise ModelLoadError(f"{path} is missing") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ModelLoadError(f"{path} is not valid JSON ({e})") from None


def _weight_files(folder: Path) -> list[Path]:
    index = folder / "model.safetensors.index.json"
    if index.exists():
        shards = sorted(set(_read_json(index).get("weight_map", {}).values()))
        if not shards:
            raise ModelLoadError(f"{index} lists no shards")
        return [folder / s for s in shards]
    single = folder / "model.safetensors"
    if single.exists():
        return [single]
    found = sorted(folder.glob("*.safetensors"))
    if not found:
        raise ModelLoadError(f"no *.safetensors weights in {folder}")
    return found


def load_model(
    path_or_id: str | os.PathLike,
    device: str | torch.device = "cpu",
    dtype: torch.dtype | None = None,
) -> tuple[DiffusionLM, Path]:
    """Build the model from a checkpoint; bf16 on CUDA, fp32 on CPU unless ``dtype`` is given."""
    from safetensors import SafetensorError, safe_open

    folder = resolve(path_or_id)
    hf = _read_json(folder / "config.json")
    if not isinstance(hf, dict):
        raise ModelLoadError(f"{folder / 'config.json'} is not a JSON object")
    cfg = config_from_hf(hf)
    device = torch.device(device)
    if dtype is None:
        dtype = torch.bfloat16 if device.type == "cuda" else torch.float32
    with torch.device("meta"):
        model = DiffusionLM(cfg)
    expected = dict(model.named_parameters())
    tied = cfg.tie_word_embeddings
    state: dict[str, torch.Tensor] = {}
    for f in _weight_files(folder):
        if not f.exists():
            raise ModelLoadError(f"weight shard {f} is missing")
        try:
            with safe_open(str(f), framework="pt", device=str(device)) as sf:
                for name in sf.keys():
                    ours = map_name(cfg.family, name)
                    if ours is None or (tied and ours == "lm_head.weight"):
                        continue
                    if ours not in expected:
                        raise ModelLoadError(f"{f.name}: unexpected parameter {name}")
                    state[ours] = sf.get_tensor(name).to(dtype)
        except SafetensorError as e:
            raise ModelLoadError(f"corrupt safetensors file {f}: {_one_line(e)}") from None
        except OSError as e:
            raise ModelLoadError(f"cannot read {f}: {_one_line(e)}") from None
    missing = [n for n in expected if n not in state and not (tied and n == "lm_head.weight")]
    if missing:
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        raise ModelLoadError(f"checkpoint {folder} lacks {', '.join(missing[:3])}{more}")
    for name, t in state.items():
        if t.shape != expected[name].shape:
            raise ModelLoadError(
                f"{name}: shape {tuple(t.shape)} in the checkpoint, {tuple(expected[name].shape)}"
                " expected from config.json"
            )
    model.load_state_dict(state, strict=False, assign=True)
    if tied:
        model.lm_head.weight = model.model.embed_tokens.weight
    # RMSNorm weights etc. are all parameters; nothing else lives on the meta device.
    model.eval().requires_grad_(False)
    return model, folder


def save_pretrained(
    model: DiffusionLM, out_dir: str | os.PathLike, dtype: torch.dtype | None = None
) -> None:
    """Write ``config.json`` and ``model.safetensors`` (Qwen3/SDAR names) into ``out_dir``."""
    from safetensors.torch import save_file

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    state = {}
    for name, p in model.state_dict().items():
        if model.cfg.tie_word_embeddings and name == "lm_head.weight":
            continue
        t = p.detach().to("cpu")
        state[name] = (t.to(dtype) if dtype is not None else t).contiguous()
    save_file(state, str(out / "model.safetensors"), metadata={"format": "pt"})
    (out / "config.json").write_text(json.dumps(hf_config(model.cfg), indent=2) + "\n")


__all__ = [
    "FAMILIES",
    "ModelLoadError",
    "config_from_hf",
    "detect_family",
    "load_model",
    "map_name",
    "resolve",
    "save_pretrained",
]
