"""The diffusion LM engine: models, decoding, batching and serving.

Public surface: :class:`LLM` (synchronous), :class:`EngineWorker` (a background thread that
serves many concurrent requests), :class:`SamplingParams`, :class:`EngineConfig`, and the
result types. ``engine`` knows nothing of audio or asyncio.
"""

from engine.checkpoint import ModelLoadError, load_model
from engine.config import DEMO_MODEL, EngineConfig
from engine.engine import Engine, RequestError
from engine.llm import LLM
from engine.sampling import MODES, SamplingParams
from engine.sequence import GenerationResult, TextDelta
from engine.worker import EngineWorker, RequestHandle

__all__ = [
    "DEMO_MODEL",
    "MODES",
    "LLM",
    "Engine",
    "EngineWorker",
    "RequestHandle",
    "EngineConfig",
    "GenerationResult",
    "ModelLoadError",
    "RequestError",
    "SamplingParams",
    "TextDelta",
    "load_model",
]
