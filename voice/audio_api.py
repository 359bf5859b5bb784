"""OpenAI's audio endpoints over our speech models, so other tools can use them:
``POST /v1/audio/transcriptions`` (Whisper; a multipart WAV upload; ``json``, ``text`` or
``verbose_json``) and ``POST /v1/audio/speech`` (Piper; ``wav`` or ``pcm``, streamed sentence by
sentence as it is synthesised). Audio goes out at 24 kHz, as OpenAI's does.

Models run in worker threads; the event loop never waits on them.
"""

from __future__ import annotations

import struct
import time
from collections.abc import AsyncIterator
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse

from voice.audio import SAMPLE_RATE, AudioError, decode_wav, resample
from voice.openai_api import ApiError, read_json, validation_error

SPEECH_RATE = 24000  # OpenAI's pcm and wav output rate
MAX_UPLOAD_BYTES = 25 << 20  # OpenAI's own limit for an audio upload
MAX_SPEECH_CHARS = 4096  # OpenAI's limit for speech input


class SpeechRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    input: str
    model: str | None = None
    voice: Any = None  # one voice is served; any name is accepted
    response_format: Literal["wav", "pcm"] = "wav"
    speed: float | None = None
    instructions: str | None = None
    stream_format: Literal["audio"] | None = None

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
    async with form:
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


async def speech(models: Any, request: Request, max_body_bytes: int) -> Response:
    try:
        req = SpeechRequest.model_validate(await read_json(request, max_body_bytes))
    except ValidationError as e:
        raise validation_error(e) from None
    tts = models.tts

    async def chunks() -> AsyncIterator[bytes]:
        """Synthesised sentence by sentence on the shared workers (fairly, with the voice
        sessions); each sentence leaves as soon as it is ready."""
        it = iter(tts.synthesize_stream(req.input))
        done = object()
        lane = models.scheduler.lane("audio-api")
        try:
            if req.response_format == "wav":
                yield _wav_header(SPEECH_RATE)
            while (c := await lane.run(next, it, done)) is not done:
                pcm = c.audio if c.sample_rate == SPEECH_RATE else \
                    resample(c.audio, c.sample_rate, SPEECH_RATE)
                yield np.asarray(pcm, dtype="<i2").tobytes()
        finally:
            lane.close()

    media = "audio/wav" if req.response_format == "wav" else "audio/pcm"
    return StreamingResponse(chunks(), media_type=media)


def _wav_header(rate: int) -> bytes:
    """A 16-bit mono WAV header for a stream of unknown length (sizes at their maximum, as
    streaming servers write them; players read to the end)."""
    unknown = 0xFFFFFFFF
    fmt = struct.pack("<HHIIHH", 1, 1, rate, rate * 2, 2, 16)
    return (b"RIFF" + struct.pack("<I", unknown) + b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt
            + b"data" + struct.pack("<I", unknown - 36))
