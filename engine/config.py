"""Engine configuration: which model, where, and how many requests at once.

Also the one parser of ``--set key=value`` items, which the application's config
(``voice/config.py``) and the training config (``training/train.py``) both read.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import ConfigError

DEMO_MODEL = str(Path(__file__).resolve().parent.parent / "models" / "demo")


@dataclass
class EngineConfig:
    """Checks itself on construction; every field can be set from a TOML preset or ``--set``."""

    model: str = DEMO_MODEL  # local HF-format folder or hub id
    device: str = "auto"  # auto | cpu | cuda | cuda:N
    dtype: str = "auto"  # auto (bf16 on CUDA, fp32 on CPU) | float32 | bfloat16 | float16
    max_batch_size: int = 8  # sequences sharing one forward pass (= KV cache slots)
    max_model_len: int = 1024  # prompt + reply tokens per sequence
    seed: int = 0
    # CPU threads for torch: 0 = auto (one for small models, whose steps are too short to
    # share between cores and would contend with speech recognition and synthesis).
    threads: int = 0
    # Structured replies drafted in prose first and filled from the draft (engine/fill.py):
    # auto = as the checkpoint says ("diffvoice": {"json_from_draft": true}; the demo model
    # does), on, or off.
    json_from_draft: str = "auto"

    def __post_init__(self) -> None:
        if not isinstance(self.model, str) or not self.model:
            raise ValueError("engine.model must be a path or hub id")
        if self.device != "auto" and not (
            self.device == "cpu" or self.device == "cuda" or self.device.startswith("cuda:")
        ):
            raise ValueError("engine.device must be auto, cpu, cuda or cuda:N")
        if self.dtype not in ("auto", "float32", "bfloat16", "float16"):
            raise ValueError("engine.dtype must be auto, float32, bfloat16 or float16")
        if not isinstance(self.max_batch_size, int) or not 1 <= self.max_batch_size <= 256:
            raise ValueError("engine.max_batch_size must be between 1 and 256")
        if not isinstance(self.threads, int) or not 0 <= self.threads <= 256:
            raise ValueError("engine.threads must be between 0 and 256")
        if self.json_from_draft not in ("auto", "on", "off"):
            raise ValueError("engine.json_from_draft must be auto, on or off")
        if not isinstance(self.max_model_len, int) or not 64 <= self.max_model_len <= 131072:
            raise ValueError("engine.max_model_len must be between 64 and 131072")


def parse_overrides(items: Iterable[str]) -> dict[str, Any]:
    """``--set key=value`` items as ``{dotted key: value}``; a later item wins.

    A value is read as a TOML value (``0.8``, ``true``, ``"text"``, ``[1, 2]``); anything that is
    not one is the plain string (``engine.model=/models/x``). An item without ``=``, or with an
    empty key or key part, is a :class:`ConfigError`.
    """
    out: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key or not all(part.strip() for part in key.split(".")):
            raise ConfigError(f"--set needs key=value, got {item!r}")
        raw = raw.strip()
        try:
            out[key] = tomllib.loads(f"v = {raw}")["v"]
        except tomllib.TOMLDecodeError:
            out[key] = raw
    return out
