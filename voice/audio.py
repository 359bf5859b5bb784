"""WAV input/output and resampling.

Everything the voice side listens to is 16 kHz mono int16 (``SAMPLE_RATE``): that is what
webrtcvad and Whisper want. ``read_wav`` turns any common WAV file into that; ``write_wav`` writes
int16 mono at any rate; ``resample`` and ``StreamResampler`` move audio between rates (Piper
speaks at 22.05 kHz, browsers play at 44.1/48 kHz).

The RIFF header is parsed here rather than with the stdlib ``wave`` module because ``wave`` on
Python 3.11 reads neither IEEE-float nor WAVE_FORMAT_EXTENSIBLE files, which many tools write.
"""

from __future__ import annotations

import io
import math
import os
import struct
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soxr

from engine.errors import UserError

SAMPLE_RATE = 16000
"""The rate every voice stage works at (Hz)."""

_FORMAT_PCM = 0x0001
_FORMAT_IEEE_FLOAT = 0x0003
_FORMAT_EXTENSIBLE = 0xFFFE
_FORMAT_NAMES = {
    0x0002: "MS ADPCM",
    0x0006: "A-law",
    0x0007: "mu-law",
    0x0011: "IMA ADPCM",
    0x0055: "MP3",
}
# A data chunk size left at its placeholder by writers that could not seek back (pipes).
_UNKNOWN_SIZE = 0xFFFFFFFF


class AudioError(UserError):
    """A WAV file could not be read; the message is one line a person can act on."""


@dataclass(frozen=True)
class _Format:
    tag: int  # _FORMAT_PCM or _FORMAT_IEEE_FLOAT after resolving EXTENSIBLE
    channels: int
    rate: int
    bits: int
    block_align: int


def read_wav(path: str | os.PathLike[str], sample_rate: int = SAMPLE_RATE) -> np.ndarray:
    """Read a WAV file as mono int16 at ``sample_rate`` (16 kHz by default).

    Accepts PCM 8/16/24/32-bit integer and 32/64-bit float samples, plain or
    WAVE_FORMAT_EXTENSIBLE, any rate and channel count. Channels are averaged; the rate is
    converted with soxr. Raises ``AudioError`` for a missing, non-WAV, corrupt or empty file.
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise AudioError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise AudioError(f"{p}: is a directory, not a WAV file") from None
    except OSError as exc:
        raise AudioError(f"{p}: cannot read file ({exc.strerror or exc})") from None
    try:
        return decode_wav(data, sample_rate)
    except AudioError as exc:
        raise AudioError(f"{p}: {exc}") from None


def decode_wav(data: bytes, sample_rate: int = SAMPLE_RATE) -> np.ndarray:
    """Decode the bytes of a WAV file to mono int16 at ``sample_rate``; see ``read_wav``."""
    fmt, payload = _parse_riff(data)
    frames = len(payload) // fmt.block_align
    if frames == 0:
        raise AudioError("WAV file contains no audio")
    samples = _to_float(payload[: frames * fmt.block_align], fmt)  # [frames, channels]
    mono = samples.mean(axis=1, dtype=np.float32) if fmt.channels > 1 else samples[:, 0]
    if fmt.rate != sample_rate:
        mono = soxr.resample(mono, fmt.rate, sample_rate)
    return float_to_int16(mono)


def write_wav(
    path: str | os.PathLike[str], audio: np.ndarray, sample_rate: int = SAMPLE_RATE
) -> None:
    """Write mono audio as a 16-bit PCM WAV file.

    ``audio`` is int16, or float in [-1, 1] (converted with clipping).
    """
    _write_wav(os.fspath(path), audio, sample_rate)


def wav_bytes(audio: np.ndarray, sample_rate: int = SAMPLE_RATE) -> bytes:
    """Mono audio as the bytes of a 16-bit PCM WAV file (as :func:`write_wav` writes it)."""
    buf = io.BytesIO()
    _write_wav(buf, audio, sample_rate)
    return buf.getvalue()


def _write_wav(target, audio: np.ndarray, sample_rate: int) -> None:
    pcm = _as_int16(audio)
    with wave.open(target, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(int(sample_rate))
        w.writeframes(pcm.astype("<i2", copy=False).tobytes())


def resample(audio: np.ndarray, from_rate: int, to_rate: int) -> np.ndarray:
    """Resample a whole mono signal with soxr (high quality).

    int16 in gives int16 out; float in gives float32 out. Same rates return the input unchanged.
    """
    if from_rate == to_rate:
        return audio
    if audio.ndim != 1:
        raise ValueError(f"resample expects mono (1-D) audio, got shape {audio.shape}")
    if len(audio) == 0:
        return audio.astype(np.int16 if audio.dtype == np.int16 else np.float32)
    if audio.dtype == np.int16:
        return soxr.resample(audio, from_rate, to_rate)
    return soxr.resample(audio.astype(np.float32, copy=False), from_rate, to_rate)


class StreamResampler:
    """Resample mono int16 audio that arrives in chunks, without clicks at chunk edges.

    soxr keeps filter state between calls, so output lags input by a few milliseconds; pass
    ``last=True`` with the final chunk (an empty one is fine) to get the remainder.
    """

    def __init__(self, from_rate: int, to_rate: int) -> None:
        self.from_rate = from_rate
        self.to_rate = to_rate
        self._stream = (
            None if from_rate == to_rate else soxr.ResampleStream(from_rate, to_rate, 1, "int16")
        )

    def process(self, chunk: np.ndarray, last: bool = False) -> np.ndarray:
        """Feed one int16 chunk; return the resampled int16 audio that is ready."""
        pcm = _as_int16(chunk)
        if self._stream is None:
            return pcm
        return self._stream.resample_chunk(pcm, last=last)


class LowDelayResampler:
    """Resample mono int16 audio that arrives in small chunks, holding back only ``delay_ms``.

    :class:`StreamResampler` (soxr) works in blocks: fed 20 ms chunks it holds back between 7
    and 37 ms of audio, which a live microphone pays in latency. This one is a plain polyphase
    windowed-sinc (Kaiser) filter whose only lookahead is its half length, ``delay_ms``: output
    sample *n* is ready as soon as the input ``delay_ms`` past it has arrived. The output is
    aligned with the input (no shift); the band edge is placed so that nothing above the lower
    Nyquist frequency folds back, at about 70 dB down (2 ms: flat to about 6.9 kHz when 16 kHz
    comes out). ``last=True`` pads the end with silence and returns the rest.
    """

    def __init__(self, from_rate: int, to_rate: int, delay_ms: float = 2.0) -> None:
        self.from_rate, self.to_rate = from_rate, to_rate
        if from_rate == to_rate:
            return
        g = math.gcd(from_rate, to_rate)
        self._up, self._down = to_rate // g, from_rate // g  # L, M
        fs = from_rate * self._up  # the rate at which the filter runs
        self._half = max(self._up, round(delay_ms / 1000 * fs))  # D: the filter's lookahead
        n = 2 * self._half + 1
        beta, atten_db = 7.0, 70.0
        width = (atten_db - 8.0) * fs / (2.285 * 2 * math.pi * (n - 1))  # transition band, Hz
        nyquist = min(from_rate, to_rate) / 2
        cutoff = max(nyquist - width / 2, nyquist / 2) / fs  # cycles per filter sample
        t = np.arange(n) - self._half
        h = 2 * cutoff * np.sinc(2 * cutoff * t) * np.kaiser(n, beta) * self._up
        self._taps = -(-n // self._up)  # K: input samples under the filter for one output
        h = np.concatenate([h, np.zeros(self._taps * self._up - n)])
        self._phases = h.reshape(self._taps, self._up).T.copy()  # [p, i] = h[p + i * L]
        # Input so far, from absolute index ``_x0``; zeros stand for the time before it began.
        self._x = np.zeros(self._taps, dtype=np.float64)
        self._x0 = -self._taps
        self._in = 0  # input samples received
        self._out = 0  # output samples returned

    def process(self, chunk: np.ndarray, last: bool = False) -> np.ndarray:
        """Feed one int16 chunk; return the resampled int16 audio that is ready."""
        pcm = _as_int16(chunk)
        if self.from_rate == self.to_rate:
            return pcm
        up, down, half = self._up, self._down, self._half
        self._x = np.concatenate([self._x, pcm.astype(np.float64)])
        self._in += len(pcm)
        if last:  # everything, with silence after the end
            end = -(-self._in * up // down)
            self._x = np.concatenate([self._x, np.zeros(half // up + self._taps + 1)])
        else:  # output n needs input up to (n * M + D) // L
            end = max(self._out, -(-(self._in * up - half) // down))
        y = self._filter(self._out, end)
        self._out = end
        keep = (self._out * down + half) // up - self._taps + 1 - self._x0  # oldest still needed
        if keep > 0:
            self._x, self._x0 = self._x[keep:], self._x0 + keep
        return np.clip(np.round(y), -32768, 32767).astype(np.int16)

    def _filter(self, start: int, end: int) -> np.ndarray:
        """Outputs ``start..end``. Outputs ``L`` apart share a phase of the filter and step
        ``M`` inputs: for a small ``L`` (16 ↔ 24 ↔ 48 kHz) each phase is one convolution over
        the input, every ``M``-th value kept; for a large one (22 050 ↔ 48 000: L = 320, a few
        outputs a phase) a gather of each output's inputs."""
        up, down, half, taps = self._up, self._down, self._half, self._taps
        if end <= start:
            return np.zeros(0)
        if up > 16:
            n = np.arange(start, end)
            pos = n * down + half  # where output n sits on the filter's time line
            hi = pos // up  # the newest input sample under the filter
            idx = (hi - self._x0)[:, None] - np.arange(taps)[None, :]
            return np.einsum("ni,ni->n", self._phases[pos - hi * up], self._x[idx])
        y = np.empty(end - start)
        for k in range(min(up, end - start)):
            count = -(-(end - start - k) // up)
            pos = (start + k) * down + half
            hi = pos // up - self._x0
            seg = self._x[hi - taps + 1 : hi + (count - 1) * down + 1]
            y[k::up] = np.convolve(seg, self._phases[pos % up], "valid")[::down]
        return y


def float_to_int16(audio: np.ndarray) -> np.ndarray:
    """Convert float audio in [-1, 1] to int16, clipping anything outside."""
    scaled = np.clip(np.asarray(audio, dtype=np.float32) * 32768.0, -32768.0, 32767.0)
    return np.round(scaled).astype(np.int16)


def _as_int16(audio: np.ndarray) -> np.ndarray:
    a = np.asarray(audio)
    if a.ndim != 1:
        raise ValueError(f"expected mono (1-D) audio, got shape {a.shape}")
    if a.dtype == np.int16:
        return a
    if np.issubdtype(a.dtype, np.floating):
        return float_to_int16(a)
    raise ValueError(f"expected int16 or float audio, got {a.dtype}")


def _parse_riff(data: bytes) -> tuple[_Format, bytes]:
    """Return the format and the sample bytes of a RIFF/WAVE file."""
    if len(data) < 12 or data[:4] not in (b"RIFF", b"RIFX", b"RF64") or data[8:12] != b"WAVE":
        raise AudioError("not a WAV file (no RIFF/WAVE header)")
    if data[:4] != b"RIFF":
        raise AudioError(f"unsupported WAV variant {data[:4].decode()} (only RIFF is read)")
    fmt: _Format | None = None
    pos = 12
    while pos + 8 <= len(data):
        chunk_id = data[pos : pos + 4]
        (size,) = struct.unpack_from("<I", data, pos + 4)
        body = pos + 8
        if chunk_id == b"fmt ":
            if body + size > len(data):
                raise AudioError("truncated or corrupt WAV (fmt chunk cut short)")
            fmt = _parse_fmt(data[body : body + size])
        elif chunk_id == b"data":
            if fmt is None:
                raise AudioError("corrupt WAV (data chunk before fmt chunk)")
            if size == _UNKNOWN_SIZE:
                return fmt, data[body:]
            if body + size > len(data):
                raise AudioError(
                    f"truncated or corrupt WAV (data chunk declares {size} bytes, "
                    f"{len(data) - body} present)"
                )
            return fmt, data[body : body + size]
        pos = body + size + (size & 1)  # chunks are padded to an even length
    if fmt is None:
        raise AudioError("truncated or corrupt WAV (no fmt chunk)")
    raise AudioError("truncated or corrupt WAV (no data chunk)")


def _parse_fmt(body: bytes) -> _Format:
    if len(body) < 16:
        raise AudioError("corrupt WAV (fmt chunk too short)")
    tag, channels, rate, _byte_rate, block_align, bits = struct.unpack_from("<HHIIHH", body)
    if tag == _FORMAT_EXTENSIBLE:
        if len(body) < 40:
            raise AudioError("corrupt WAV (WAVE_FORMAT_EXTENSIBLE fmt chunk too short)")
        # The sub-format GUID starts with the ordinary format tag.
        (tag,) = struct.unpack_from("<H", body, 24)
    if tag not in (_FORMAT_PCM, _FORMAT_IEEE_FLOAT):
        name = _FORMAT_NAMES.get(tag, f"format tag 0x{tag:04x}")
        raise AudioError(f"unsupported WAV encoding ({name}); use PCM or float samples")
    if channels == 0 or rate == 0:
        raise AudioError(f"corrupt WAV ({channels} channels at {rate} Hz)")
    ok_bits = (8, 16, 24, 32) if tag == _FORMAT_PCM else (32, 64)
    if bits not in ok_bits:
        kind = "integer" if tag == _FORMAT_PCM else "float"
        raise AudioError(f"unsupported WAV sample size ({bits}-bit {kind})")
    if block_align != channels * bits // 8:
        raise AudioError(
            f"corrupt WAV (block align {block_align} for {channels} x {bits}-bit samples)"
        )
    return _Format(tag, channels, rate, bits, block_align)


def _to_float(payload: bytes, fmt: _Format) -> np.ndarray:
    """Interleaved sample bytes → float32 array [frames, channels] in [-1, 1]."""
    if fmt.tag == _FORMAT_IEEE_FLOAT:
        x = np.frombuffer(payload, dtype="<f4" if fmt.bits == 32 else "<f8").astype(np.float32)
        x = np.nan_to_num(x, nan=0.0, posinf=1.0, neginf=-1.0)
    elif fmt.bits == 8:  # 8-bit WAV is unsigned
        x = (np.frombuffer(payload, dtype=np.uint8).astype(np.float32) - 128.0) / 128.0
    elif fmt.bits == 16:
        x = np.frombuffer(payload, dtype="<i2").astype(np.float32) / 32768.0
    elif fmt.bits == 24:
        b = np.frombuffer(payload, dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        v = b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)
        v = np.where(v >= 1 << 23, v - (1 << 24), v)
        x = v.astype(np.float32) / float(1 << 23)
    else:
        x = (np.frombuffer(payload, dtype="<i4").astype(np.float64) / float(1 << 31)).astype(
            np.float32
        )
    return x.reshape(-1, fmt.channels)
