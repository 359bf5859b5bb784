"""voice.audio: WAV reading in every common encoding, resampling, writing, and clear errors."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import pytest

from tests.voice.voice_wavs import (
    ENCODINGS,
    data_chunk,
    encode,
    fmt_chunk,
    make_wav,
    peak_frequency,
    riff,
    rms,
    sine,
)
from voice.audio import (
    SAMPLE_RATE,
    AudioError,
    LowDelayResampler,
    StreamResampler,
    decode_wav,
    read_wav,
    resample,
    write_wav,
)

FREQ = 440.0
AMP = 0.5


def _check_sine(audio: np.ndarray, seconds: float, amplitude: float) -> None:
    assert audio.dtype == np.int16 and audio.ndim == 1
    assert abs(len(audio) - seconds * SAMPLE_RATE) <= 1
    assert abs(peak_frequency(audio, SAMPLE_RATE) - FREQ) < 2.0
    # Skip the edges, where the resampling filter rings.
    body = audio[800:-800].astype(np.float64) / 32768
    assert rms(body) == pytest.approx(amplitude / np.sqrt(2), rel=0.03)


@pytest.mark.parametrize("channels", [1, 2], ids=["mono", "stereo"])
@pytest.mark.parametrize("rate", [8000, 16000, 22050, 44100, 48000])
def test_pcm16_any_rate_and_channels(tmp_path: Path, rate: int, channels: int) -> None:
    x = sine(FREQ, 1.0, rate, AMP)
    # Stereo: the right channel at half level, so the downmix has 3/4 of the left's amplitude.
    samples = np.stack([x, 0.5 * x], axis=1) if channels == 2 else x
    path = tmp_path / "s.wav"
    path.write_bytes(make_wav(samples, rate))
    _check_sine(read_wav(path), 1.0, AMP * 0.75 if channels == 2 else AMP)


@pytest.mark.parametrize("extensible", [False, True], ids=["plain", "extensible"])
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_encoding(tmp_path: Path, encoding: str, extensible: bool) -> None:
    x = sine(FREQ, 0.5, 44100, AMP)
    path = tmp_path / "s.wav"
    path.write_bytes(make_wav(np.stack([x, x], axis=1), 44100, encoding, extensible))
    _check_sine(read_wav(path), 0.5, AMP)


def test_multichannel_downmix(tmp_path: Path) -> None:
    x = sine(FREQ, 0.5, 48000, AMP)
    six = np.stack([x, x, x, -x, x, x], axis=1)  # mean = 4/6 of x
    path = tmp_path / "s.wav"
    path.write_bytes(make_wav(six, 48000, "float32", extensible=True))
    _check_sine(read_wav(path), 0.5, AMP * 4 / 6)


def test_16k_mono_int16_is_read_exactly(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    audio = rng.integers(-32768, 32767, 4000, dtype=np.int16)
    path = tmp_path / "a.wav"
    write_wav(path, audio, SAMPLE_RATE)
    np.testing.assert_array_equal(read_wav(path), audio)


def test_write_wav_header_and_round_trip(tmp_path: Path) -> None:
    audio = np.round(sine(FREQ, 0.25, 22050, AMP) * 32767).astype(np.int16)
    path = tmp_path / "w.wav"
    write_wav(path, audio, 22050)
    with wave.open(str(path)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 22050)
        assert w.getnframes() == len(audio)
    np.testing.assert_array_equal(read_wav(path, sample_rate=22050), audio)


def test_write_wav_float_is_clipped(tmp_path: Path) -> None:
    path = tmp_path / "f.wav"
    write_wav(path, np.array([0.0, 0.5, 2.0, -2.0], dtype=np.float32), 8000)
    np.testing.assert_array_equal(read_wav(path, 8000), [0, 16384, 32767, -32768])


def test_streamed_wav_with_unknown_data_size() -> None:
    payload, tag, bits = encode(sine(FREQ, 0.5, 16000, AMP)[:, None], "pcm16")
    data = riff(fmt_chunk(tag, 1, 16000, bits), data_chunk(payload, declared=0xFFFFFFFF))
    _check_sine(decode_wav(data), 0.5, AMP)


def test_resample_keeps_dtype_length_and_pitch() -> None:
    x = np.round(sine(FREQ, 1.0, 22050, AMP) * 32767).astype(np.int16)
    y = resample(x, 22050, 48000)
    assert y.dtype == np.int16 and len(y) == 48000
    assert abs(peak_frequency(y, 48000) - FREQ) < 2.0
    f = resample(x.astype(np.float32) / 32768, 22050, 16000)
    assert f.dtype == np.float32 and len(f) == 16000
    assert resample(x, 22050, 22050) is x


def test_stream_resampler_matches_one_shot() -> None:
    x = np.round(sine(FREQ, 1.0, 22050, AMP) * 32767).astype(np.int16)
    r = StreamResampler(22050, 48000)
    parts = [r.process(x[i : i + 1234]) for i in range(0, len(x), 1234)]
    parts.append(r.process(np.zeros(0, np.int16), last=True))
    y = np.concatenate(parts)
    assert y.dtype == np.int16 and abs(len(y) - 48000) <= 2
    whole = resample(x, 22050, 48000)
    n = min(len(y), len(whole))
    # Same signal, no clicks at the 1234-sample chunk edges.
    assert np.max(np.abs(y[:n].astype(int) - whole[:n].astype(int))) < 200
    assert StreamResampler(16000, 16000).process(x) is x



@pytest.mark.parametrize("rates", [(24000, 16000), (16000, 24000), (22050, 48000)])
def test_low_delay_resampler_matches_one_shot_and_holds_back_2_ms(rates) -> None:
    src, dst = rates
    x = np.round(sine(FREQ, 1.0, src, AMP) * 32767).astype(np.int16)
    r = LowDelayResampler(src, dst)
    step = src // 50  # 20 ms, as a microphone sends
    parts, held = [], []
    for i in range(step, len(x) + 1, step):
        parts.append(r.process(x[i - step : i]))
        held.append(i * dst / src - sum(map(len, parts)))
    parts.append(r.process(np.zeros(0, np.int16), last=True))
    y = np.concatenate(parts)
    whole = resample(x, src, dst)
    assert y.dtype == np.int16 and len(y) == len(whole)
    assert np.max(np.abs(y.astype(int) - whole.astype(int))) < 50  # aligned, no clicks
    assert max(held) <= 0.0021 * dst + 1  # only the filter's 2 ms lookahead
    assert LowDelayResampler(16000, 16000).process(x) is x


def test_low_delay_resampler_keeps_speech_band_and_stops_aliases() -> None:
    t = np.arange(24000) / 24000
    rms = {}
    for f in (6000, 10000):  # 10 kHz would fold back to 6 kHz at 16 kHz
        x = np.round(np.sin(2 * np.pi * f * t) * 16000).astype(np.int16)
        y = LowDelayResampler(24000, 16000).process(x)[200:-200].astype(float)
        rms[f] = np.sqrt(np.mean(y**2))
    assert rms[6000] == pytest.approx(16000 / np.sqrt(2), rel=0.01)
    assert rms[10000] < 16000 / np.sqrt(2) * 10 ** (-60 / 20)  # 60 dB down


@pytest.mark.parametrize("rates", [(24000, 16000), (16000, 48000), (48000, 16000),
                                   (44100, 16000)])
def test_low_delay_resampler_convolves_each_phase_as_the_filter_says(rates) -> None:
    """Outputs L apart share a phase: the per-phase convolutions (small L) give exactly the
    samples of the filter applied output by output, in chunks of any size."""
    src, dst = rates
    x = (np.random.default_rng(3).standard_normal(src // 2) * 3000).astype(np.int16)
    r = LowDelayResampler(src, dst)
    sizes = np.random.default_rng(4).integers(1, 700, size=len(x))
    got, i = [], 0
    for n in sizes:
        got.append(r.process(x[i : i + n]))
        i += n
        if i >= len(x):
            break
    got.append(r.process(np.zeros(0, np.int16), last=True))
    y = np.concatenate(got)
    # the filter by definition: output n at n*M + D on its time line, over the input
    ref = LowDelayResampler(src, dst)
    up, down, half, taps = ref._up, ref._down, ref._half, ref._taps
    padded = np.concatenate([np.zeros(taps), x.astype(float), np.zeros(half // up + taps + 1)])
    n = np.arange(len(y))
    pos = n * down + half
    hi = pos // up + taps
    want = np.array([ref._phases[p] @ padded[h - np.arange(taps)]
                     for p, h in zip(pos % up, hi, strict=True)])
    assert np.array_equal(y, np.clip(np.round(want), -32768, 32767).astype(np.int16))

# -- errors ------------------------------------------------------------------------------


def _good_wav() -> bytes:
    return make_wav(sine(FREQ, 0.1, 16000, AMP), 16000)


def _error(path: Path) -> str:
    with pytest.raises(AudioError) as info:
        read_wav(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    return message


def test_error_missing_file(tmp_path: Path) -> None:
    assert "no such file" in _error(tmp_path / "nope.wav")


def test_error_directory(tmp_path: Path) -> None:
    assert "directory" in _error(tmp_path)


@pytest.mark.parametrize(
    "content",
    [b"", b"hello, this is text\n", b"ID3\x03\x00" + bytes(100), b"RIFF\x10\x00\x00\x00AVI LIST"],
    ids=["empty-file", "text", "mp3", "avi"],
)
def test_error_not_a_wav(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "x.wav"
    path.write_bytes(content)
    assert "not a WAV file" in _error(path)


@pytest.mark.parametrize("cut", [20, 30, 44, 1000], ids=lambda n: f"cut-at-{n}")
def test_error_truncated(tmp_path: Path, cut: int) -> None:
    path = tmp_path / "t.wav"
    path.write_bytes(_good_wav()[:cut])
    assert "truncated" in _error(path)


def test_error_corrupt_fmt(tmp_path: Path) -> None:
    payload, tag, bits = encode(np.zeros((10, 1)), "pcm16")
    bad_fmt = fmt_chunk(tag, 0, 16000, bits)  # zero channels
    path = tmp_path / "c.wav"
    path.write_bytes(riff(bad_fmt, data_chunk(payload)))
    assert "corrupt" in _error(path)


def test_error_unsupported_encoding(tmp_path: Path) -> None:
    path = tmp_path / "alaw.wav"
    path.write_bytes(riff(fmt_chunk(6, 1, 8000, 8), data_chunk(bytes(800))))
    assert "A-law" in _error(path)


@pytest.mark.parametrize("payload", [b"", b"\x01"], ids=["no-samples", "half-a-sample"])
def test_error_empty_audio(tmp_path: Path, payload: bytes) -> None:
    path = tmp_path / "e.wav"
    path.write_bytes(riff(fmt_chunk(1, 1, 16000, 16), data_chunk(payload)))
    assert "no audio" in _error(path)
