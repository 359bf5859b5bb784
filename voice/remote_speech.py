"""Speech recognition and synthesis on another machine: any OpenAI-compatible audio endpoint
(our own ``/v1/audio/*``, vLLM's Whisper server, OpenAI), as ``assistant.llm_url`` does for the LLM.

``asr.url`` gives a :class:`RemoteTranscriber` and ``tts.url`` a :class:`RemoteSynthesizer`; each
has the local stage's interface (``load``, ``transcribe`` / ``synthesize_stream``,
``sample_rate``), so the pipeline does not know where its audio is processed. Calls block and
run in the pipeline's worker threads, like the local models.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator

import numpy as np

from engine.errors import UserError
from voice.asr import Heard
from voice.audio import SAMPLE_RATE, wav_bytes
from voice.remote import failure
from voice.tts import SpeechChunk, split_sentences

SPEECH_RATE = 24000  # OpenAI's pcm output: 16-bit mono at 24 kHz
_TIMEOUT_S = 60


class RemoteSpeechError(UserError):
    """The remote audio endpoint failed; the message is one line."""


def _base(url: str) -> str:
    url = url.rstrip("/")
    return url if url.endswith("/v1") else url + "/v1"


def _call(req: urllib.request.Request) -> urllib.response.addinfourl:
    try:
        return urllib.request.urlopen(req, timeout=_TIMEOUT_S)
    except (urllib.error.URLError, OSError) as e:  # HTTPError too
        raise RemoteSpeechError(failure(req.full_url, e)) from None


class RemoteTranscriber:
    """``POST {url}/audio/transcriptions`` with the utterance as a 16 kHz WAV."""

    def __init__(self, url: str, model: str = "whisper-1", api_key: str = "") -> None:
        self.url = _base(url) + "/audio/transcriptions"
        self.model, self.api_key = model or "whisper-1", api_key

    def load(self) -> None:
        """Nothing to load here; the endpoint is asked on the first turn."""

    def transcribe(self, audio: np.ndarray, stop: threading.Event | None = None) -> str:
        """The endpoint's transcript (``stop`` is accepted for the local interface's sake: a
        request in flight runs to its end)."""
        a = np.asarray(audio)
        if len(a) == 0:
            return ""
        if a.dtype != np.int16:
            a = (np.clip(a, -1.0, 1.0) * 32767).astype(np.int16)
        wav = wav_bytes(a, SAMPLE_RATE)
        boundary = uuid.uuid4().hex
        fields = [("model", self.model), ("response_format", "json"), ("language", "en")]
        body = b"".join(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
            for k, v in fields
        )
        body += (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="turn.wav"\r\nContent-Type: audio/wav\r\n\r\n'
        ).encode() + wav + f"\r\n--{boundary}--\r\n".encode()
        req = urllib.request.Request(self.url, data=body, headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Authorization": f"Bearer {self.api_key or 'none'}",
        })
        with _call(req) as resp:
            try:
                return str(json.loads(resp.read())["text"]).strip()
            except (ValueError, KeyError, TypeError):
                raise RemoteSpeechError(f"{self.url} answered no transcript") from None

    def hear(self, audio: np.ndarray, stop: threading.Event | None = None) -> Heard:
        """The transcript as :meth:`voice.asr.Transcriber.hear` gives it; the endpoint does not
        say whether the sentence ended (``ending`` None)."""
        return Heard(self.transcribe(audio, stop))


class RemoteSynthesizer:
    """``POST {url}/audio/speech`` (``pcm``) sentence by sentence; audio is yielded as it
    arrives, so the first words can play before the sentence is complete."""

    sample_rate = SPEECH_RATE

    def __init__(
        self, url: str, model: str = "tts-1", voice: str = "alloy", api_key: str = ""
    ) -> None:
        self.url = _base(url) + "/audio/speech"
        self.model, self.voice, self.api_key = model or "tts-1", voice or "alloy", api_key

    def load(self) -> None:
        """Nothing to load here; the endpoint is asked on the first reply."""

    def synthesize_stream(self, text: str, first_max_chars: int = 40) -> Iterator[SpeechChunk]:
        for piece in split_sentences(text, first_max_chars):
            body = {"model": self.model, "voice": self.voice, "input": piece,
                    "response_format": "pcm"}
            req = urllib.request.Request(self.url, data=json.dumps(body).encode(), headers={
                "Content-Type": "application/json",
                "Authorization": f"Bearer {self.api_key or 'none'}",
            })
            with _call(req) as resp:
                rest = b""
                while chunk := resp.read(SPEECH_RATE // 5 * 2):  # ~0.2 s at a time
                    data = rest + chunk
                    rest = data[len(data) // 2 * 2 :]
                    pcm = np.frombuffer(data[: len(data) // 2 * 2], dtype="<i2").astype(np.int16)
                    if len(pcm):
                        yield SpeechChunk(piece, pcm, SPEECH_RATE)

    def synthesize(self, text: str) -> np.ndarray:
        chunks = [c.audio for c in self.synthesize_stream(text)]
        return np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int16)
