"""The WAV reader fuzzed with hypothesis: any bytes give audio or an AudioError, nothing else."""

from __future__ import annotations

import struct

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from voice.audio import AudioError, decode_wav

FUZZ = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


def _check(data: bytes) -> None:
    try:
        audio = decode_wav(data)
    except AudioError as e:
        assert str(e) and "\n" not in str(e)
        return
    assert audio.dtype == np.int16 and audio.ndim == 1


@FUZZ
@given(st.binary(max_size=512))
def test_fuzz_wav_reader_random_bytes(data: bytes) -> None:
    _check(data)


@FUZZ
@given(
    tag=st.sampled_from([1, 3, 6, 7, 0xFFFE, 0, 2, 85]),
    channels=st.integers(0, 9),
    rate=st.sampled_from([0, 1, 7999, 8000, 16000, 22050, 44100, 48000, 96000, 2**31 - 1]),
    bits=st.sampled_from([0, 4, 8, 12, 16, 20, 24, 32, 64]),
    payload=st.binary(max_size=2048),
    declared=st.integers(0, 2**32 - 1),
    riff_size=st.integers(0, 2**32 - 1),
)
def test_fuzz_wav_reader_header_fields(tag, channels, rate, bits, payload, declared, riff_size):
    block = channels * bits // 8
    fmt = struct.pack("<HHIIHH", tag, channels, rate, rate * block % 2**32, block % 2**16, bits)
    data = (
        b"RIFF" + struct.pack("<I", riff_size) + b"WAVE"
        + b"fmt " + struct.pack("<I", len(fmt)) + fmt
        + b"data" + struct.pack("<I", declared) + payload
    )
    _check(data)
