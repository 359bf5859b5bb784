"""The diffusion LM engine: models, decoding, batching and serving.

Public surface: :class:`LLM` (synchronous), :class:`EngineWorker` (a background thread that
serves many concurrent requests), :class:`SamplingParams`, :class:`EngineConfig`, and the
result types. ``engine`` knows nothing of audio or asyncio.

Names are imported on first use, so ``import engine.errors`` (the user-facing error classes,
which ``voice`` raises everywhere) does not load torch.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.checkpoint import ModelLoadError, load_model
    from engine.config import DEMO_MODEL, EngineConfig
    from engine.engine import Engine, RequestError
    from engine.errors import ConfigError, UserError
    from engine.llm import LLM
    from engine.sampling import MODES, SamplingParams
    from engine.sequence import GenerationResult, TextDelta
    from engine.worker import EngineWorker, RequestHandle

_HOME = {
    "ModelLoadError": "engine.checkpoint",
    "load_model": "engine.checkpoint",
    "DEMO_MODEL": "engine.config",
    "EngineConfig": "engine.config",
    "Engine": "engine.engine",
    "RequestError": "engine.engine",
    "ConfigError": "engine.errors",
    "UserError": "engine.errors",
    "LLM": "engine.llm",
    "MODES": "engine.sampling",
    "SamplingParams": "engine.sampling",
    "GenerationResult": "engine.sequence",
    "TextDelta": "engine.sequence",
    "EngineWorker": "engine.worker",
    "RequestHandle": "engine.worker",
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOME[name]), name)
    globals()[name] = value  # found once; later look-ups skip this function
    return value


__all__ = [
    "DEMO_MODEL",
    "MODES",
    "LLM",
    "ConfigError",
    "Engine",
    "EngineWorker",
    "RequestHandle",
    "EngineConfig",
    "GenerationResult",
    "ModelLoadError",
    "RequestError",
    "SamplingParams",
    "TextDelta",
    "UserError",
    "load_model",
]
