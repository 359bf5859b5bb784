"""OpenAI's audio endpoints over our speech models, so other tools can use them:
``POST /v1/audio/transcriptions`` (Whisper; a multipart WAV upload; ``json``, ``text`` or
``verbose_json``) and ``POST /v1/audio/speech`` (Piper; ``wav``, ``pcm``, ``mp3``, ``opus``,
``aac`` or ``flac``, streamed sentence by sentence as it is synthesised, as audio bytes or, with
``stream_format: "sse"``, as ``speech.audio.delta`` events). Audio goes out at 24 kHz, as
OpenAI's does.

Models run in worker threads; the event loop never waits on them. :func:`routes` gives the
server's app both endpoints.
"""

from __future__ import annotations

import base64
import json
import struct
import time
from collections.abc import AsyncIterator
from functools import partial
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from serve.http_api import ApiError, read_json, route, validation_error
from voice.audio import SAMPLE_RATE, AudioError, decode_wav, resample

SPEECH_RATE = 24000  # OpenAI's pcm and wav output rate
MAX_UPLOAD_BYTES = 25 << 20  # OpenAI's own limit for an audio upload
MAX_SPEECH_CHARS = 4096  # OpenAI's limit for speech input
# OpenAI's compressed speech formats: (container, encoder, media type), encoded with PyAV
# (faster-whisper's own dependency, with FFmpeg's encoders)
CODECS = {"mp3": ("mp3", "libmp3lame", "audio/mpeg"), "opus": ("ogg", "libopus", "audio/opus"),
          "aac": ("adts", "aac", "audio/aac"), "flac": ("flac", "flac", "audio/flac")}


class SpeechRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    input: str
    model: str | None = None
    voice: Any = None  # one voice is served; any name is accepted
    response_format: Literal["wav", "pcm", "mp3", "opus", "aac", "flac"] = "wav"
    speed: float | None = None
    instructions: str | None = None
    stream_format: Literal["audio", "sse"] | None = None

    @field_validator("input")
    @classmethod
    def _text(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("input is empty")
        if len(v) > MAX_SPEECH_CHARS:
            raise ValueError(f"input is longer than {MAX_SPEECH_CHARS} characters")
        return v

    @field_validator("speed")
    @classmethod
    def _speed(cls, v: float | None) -> float | None:
        if v is not None and v != 1.0:
            raise ValueError("only speed 1.0 is supported")
        return v


def routes(models: Any, max_body_bytes: int) -> list[Route]:
    """The audio endpoints over ``models`` (``voice.pipeline.Models``: Whisper, Piper and the
    scheduler they share with the voice sessions); a speech request's JSON body is at most
    ``max_body_bytes``."""
    return [
        route("/v1/audio/transcriptions", "POST", partial(transcriptions, models)),
        route("/v1/audio/speech", "POST", partial(speech, models, max_body_bytes)),
    ]


async def transcriptions(models: Any, request: Request) -> Response:
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > MAX_UPLOAD_BYTES:
        raise ApiError(400, f"the upload is {size} bytes; at most {MAX_UPLOAD_BYTES} allowed",
                       "file")
    if not request.headers.get("content-type", "").startswith("multipart/form-data"):
        raise ApiError(400, "send the audio as multipart/form-data with a 'file' field")
    try:
        form = await request.form(max_files=1, max_fields=16, max_part_size=MAX_UPLOAD_BYTES)
    except Exception as e:  # the multipart parser's own errors
        raise ApiError(400, f"the form could not be read: {e}") from None
    try:
        upload = form.get("file")
        if upload is None or isinstance(upload, str):
            raise ApiError(400, "a 'file' field with the audio is required", "file")
        fmt = form.get("response_format") or "json"
        if fmt not in ("json", "text", "verbose_json"):
            raise ApiError(400, "response_format must be json, text or verbose_json",
                           "response_format")
        language = form.get("language")
        if language not in (None, "", "en"):
            raise ApiError(400, "only English (language 'en') is served", "language")
        data = await upload.read()
    finally:
        await form.close()
    try:
        audio = decode_wav(data, SAMPLE_RATE)
    except AudioError as e:
        raise ApiError(400, f"the file is not audio this server can read (WAV only): {e}",
                       "file") from None
    t0 = time.perf_counter()
    lane = models.scheduler.lane("audio-api")  # Whisper is shared fairly with voice sessions
    try:
        text = await lane.run(models.asr.transcribe, audio)
    finally:
        lane.close()
    if fmt == "text":
        return PlainTextResponse(text)
    if fmt == "json":
        return JSONResponse({"text": text})
    duration = len(audio) / SAMPLE_RATE
    return JSONResponse({
        "task": "transcribe", "language": "english", "duration": round(duration, 3),
        "text": text,
        "segments": [{"id": 0, "seek": 0, "start": 0.0, "end": round(duration, 3), "text": text,
                      "tokens": [], "temperature": 0.0, "avg_logprob": 0.0,
                      "compression_ratio": 1.0, "no_speech_prob": 0.0}],
        "diffvoice": {"transcribe_ms": round((time.perf_counter() - t0) * 1000, 1)},
    })


async def speech(models: Any, max_body_bytes: int, request: Request) -> Response:
    try:
        req = SpeechRequest.model_validate(await read_json(request, max_body_bytes))
    except ValidationError as e:
        raise validation_error(e) from None
    tts = models.tts

    fmt = req.response_format
    encoder = _Encoder(fmt) if fmt in CODECS else None

    async def chunks() -> AsyncIterator[bytes]:
        """Synthesised sentence by sentence on the shared workers (fairly, with the voice
        sessions); each sentence leaves as soon as it is ready (encoded there too)."""
        it = iter(tts.synthesize_stream(req.input))
        done = object()
        lane = models.scheduler.lane("audio-api")
        try:
            if fmt == "wav":
                yield _wav_header(SPEECH_RATE)
            while (c := await lane.run(next, it, done)) is not done:
                pcm = c.audio if c.sample_rate == SPEECH_RATE else \
                    resample(c.audio, c.sample_rate, SPEECH_RATE)
                pcm = np.asarray(pcm, dtype="<i2")
                yield pcm.tobytes() if encoder is None else await lane.run(encoder.encode, pcm)
            if encoder is not None:
                yield await lane.run(encoder.encode, None)
        finally:
            lane.close()

    async def events() -> AsyncIterator[str]:
        """``stream_format: "sse"``: the same audio as OpenAI's ``speech.audio.delta`` events,
        then ``speech.audio.done``."""
        async for b in chunks():
            if b:
                delta = {"type": "speech.audio.delta", "audio": base64.b64encode(b).decode()}
                yield f"data: {json.dumps(delta)}\n\n"
        usage = {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}
        yield f"data: {json.dumps({'type': 'speech.audio.done', 'usage': usage})}\n\n"

    if req.stream_format == "sse":
        return StreamingResponse(events(), media_type="text/event-stream")
    media = encoder.media if encoder else "audio/wav" if fmt == "wav" else "audio/pcm"
    return StreamingResponse(chunks(), media_type=media)


class _Encoder:
    """24 kHz PCM16 → mp3, opus (Ogg), aac (ADTS) or flac, piece by piece: each call gives the
    bytes the muxer has written so far (``None`` ends the stream)."""

    def __init__(self, fmt: str) -> None:
        import av  # PyAV comes with faster-whisper

        container, codec, self.media = CODECS[fmt]
        self._out = bytearray()
        opts = {"page_duration": "100000"} if container == "ogg" else {}  # 100 ms Ogg pages
        self._file = av.open(self, "w", format=container, options=opts)
        self._stream = self._file.add_stream(codec, rate=SPEECH_RATE, layout="mono")
        self._pts = 0

    def write(self, data: bytes) -> int:  # the muxer's output
        self._out += data
        return len(data)

    def encode(self, pcm: np.ndarray | None) -> bytes:
        import av

        if pcm is None:
            packets = self._stream.encode(None)
        else:
            frame = av.AudioFrame.from_ndarray(pcm.reshape(1, -1), format="s16", layout="mono")
            frame.sample_rate, frame.pts = SPEECH_RATE, self._pts
            self._pts += len(pcm)
            packets = self._stream.encode(frame)
        self._file.mux(packets)
        if pcm is None:
            self._file.close()
        out = bytes(self._out)
        self._out.clear()
        return out


def _wav_header(rate: int) -> bytes:
    """A 16-bit mono WAV header for a stream of unknown length (sizes at their maximum, as
    streaming servers write them; players read to the end)."""
    unknown = 0xFFFFFFFF
    fmt = struct.pack("<HHIIHH", 1, 1, rate, rate * 2, 2, 16)
    return (b"RIFF" + struct.pack("<I", unknown) + b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt
            + b"data" + struct.pack("<I", unknown - 36))
