"""Build WAV files byte by byte, in encodings the stdlib ``wave`` module cannot write."""

from __future__ import annotations

import struct

import numpy as np

# KSDATAFORMAT_SUBTYPE_* GUIDs share this tail after the two-byte format tag.
_GUID_TAIL = b"\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71"
ENCODINGS = ("pcm8", "pcm16", "pcm24", "pcm32", "float32", "float64")


def encode(samples: np.ndarray, encoding: str) -> tuple[bytes, int, int]:
    """Float samples [frames, channels] in [-1, 1] → (interleaved bytes, format tag, bits)."""
    x = np.asarray(samples, dtype=np.float64)
    if encoding == "pcm8":
        return (np.round(x * 127) + 128).astype(np.uint8).tobytes(), 1, 8
    if encoding == "pcm16":
        return np.round(x * 32767).astype("<i2").tobytes(), 1, 16
    if encoding == "pcm24":
        v = np.round(x * (2**23 - 1)).astype("<i4").reshape(-1)
        b = v.view(np.uint8).reshape(-1, 4)[:, :3]
        return b.tobytes(), 1, 24
    if encoding == "pcm32":
        return np.round(x * (2**31 - 1)).astype("<i4").tobytes(), 1, 32
    if encoding == "float32":
        return x.astype("<f4").tobytes(), 3, 32
    if encoding == "float64":
        return x.astype("<f8").tobytes(), 3, 64
    raise ValueError(encoding)


def fmt_chunk(tag: int, channels: int, rate: int, bits: int, extensible: bool = False) -> bytes:
    """A ``fmt `` chunk, plain or WAVE_FORMAT_EXTENSIBLE."""
    block = channels * bits // 8
    head = struct.pack("<HIIHH", channels, rate, rate * block, block, bits)
    if extensible:
        ext = struct.pack("<HI", bits, (1 << channels) - 1) + struct.pack("<H", tag) + _GUID_TAIL
        body = struct.pack("<H", 0xFFFE) + head + struct.pack("<H", len(ext)) + ext
    elif tag != 1:
        body = struct.pack("<H", tag) + head + struct.pack("<H", 0)
    else:
        body = struct.pack("<H", tag) + head
    return b"fmt " + struct.pack("<I", len(body)) + body


def riff(*chunks: bytes) -> bytes:
    """Wrap chunks in a RIFF/WAVE header."""
    body = b"WAVE" + b"".join(chunks)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def data_chunk(payload: bytes, declared: int | None = None) -> bytes:
    """A ``data`` chunk; ``declared`` overrides the size written in its header."""
    size = len(payload) if declared is None else declared
    pad = b"\x00" if len(payload) % 2 else b""
    return b"data" + struct.pack("<I", size) + payload + pad


def make_wav(
    samples: np.ndarray, rate: int, encoding: str = "pcm16", extensible: bool = False
) -> bytes:
    """A complete WAV file of ``samples`` [frames, channels] (or 1-D for mono)."""
    x = np.asarray(samples)
    if x.ndim == 1:
        x = x[:, None]
    payload, tag, bits = encode(x, encoding)
    # An odd-sized LIST chunk before the data checks that chunk padding is honoured.
    info = b"LIST" + struct.pack("<I", 5) + b"INFOx" + b"\x00"
    return riff(fmt_chunk(tag, x.shape[1], rate, bits, extensible), info, data_chunk(payload))


def sine(freq: float, seconds: float, rate: int, amplitude: float = 0.5) -> np.ndarray:
    """A float64 sine wave."""
    t = np.arange(int(round(seconds * rate))) / rate
    return amplitude * np.sin(2 * np.pi * freq * t)


def peak_frequency(audio: np.ndarray, rate: int) -> float:
    """The strongest frequency in ``audio`` (Hz)."""
    x = np.asarray(audio, dtype=np.float64)
    spectrum = np.abs(np.fft.rfft(x * np.hanning(len(x))))
    return float(np.fft.rfftfreq(len(x), 1 / rate)[np.argmax(spectrum)])


def rms(audio: np.ndarray) -> float:
    """Root mean square of int16 or float audio, in its own units."""
    x = np.asarray(audio, dtype=np.float64)
    return float(np.sqrt(np.mean(x**2))) if len(x) else 0.0
