"""Microphone and speaker through sounddevice (PortAudio)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import numpy as np

from engine.errors import UserError
from voice.audio import SAMPLE_RATE
from voice.sink import Sink

NO_DEVICE_HINT = (
    "no audio device found; replay a file with --input FILE.wav --output REPLY.wav, "
    "or connect a microphone and speaker"
)


class AudioDeviceError(UserError):
    """No usable sound card; the message is one line and names the fix."""


def _sd():
    try:
        import sounddevice as sd
    except OSError as e:  # PortAudio library missing
        raise AudioDeviceError(f"{NO_DEVICE_HINT} (PortAudio: {e})") from None
    return sd


def check_devices(need_input: bool = True, need_output: bool = True) -> None:
    sd = _sd()
    try:
        devices = sd.query_devices()
    except Exception as e:
        raise AudioDeviceError(f"{NO_DEVICE_HINT} ({e})") from None
    has_in = any(d.get("max_input_channels", 0) > 0 for d in devices)
    has_out = any(d.get("max_output_channels", 0) > 0 for d in devices)
    if (need_input and not has_in) or (need_output and not has_out):
        raise AudioDeviceError(NO_DEVICE_HINT)


async def microphone(chunk_ms: int = 20) -> AsyncIterator[np.ndarray]:
    """16 kHz mono int16 chunks from the default input; the callback hands them to the loop."""
    sd = _sd()
    loop = asyncio.get_running_loop()
    q: asyncio.Queue[np.ndarray] = asyncio.Queue()

    def callback(indata, frames, time_info, status) -> None:
        loop.call_soon_threadsafe(q.put_nowait, indata[:, 0].copy())

    try:
        stream = sd.InputStream(
            samplerate=SAMPLE_RATE,
            channels=1,
            dtype="int16",
            blocksize=SAMPLE_RATE * chunk_ms // 1000,
            callback=callback,
        )
    except Exception as e:
        raise AudioDeviceError(f"{NO_DEVICE_HINT} ({e})") from None
    with stream:
        while True:
            yield await q.get()


class SpeakerSink(Sink):
    """Plays through the default output with a small jitter buffer; barge-in empties it."""

    def __init__(self, sample_rate: int, jitter_ms: int = 60) -> None:
        sd = _sd()
        self.sample_rate = sample_rate
        self._buf = np.zeros(0, dtype=np.int16)
        self._started = False
        self._prebuffer = sample_rate * jitter_ms // 1000
        try:
            self._stream = sd.OutputStream(
                samplerate=sample_rate, channels=1, dtype="int16", callback=self._callback
            )
            self._stream.start()
        except Exception as e:
            raise AudioDeviceError(f"{NO_DEVICE_HINT} ({e})") from None

    def _callback(self, outdata, frames, time_info, status) -> None:
        if not self._started and len(self._buf) < self._prebuffer:
            outdata.fill(0)
            return
        self._started = True
        n = min(frames, len(self._buf))
        outdata[:n, 0] = self._buf[:n]
        outdata[n:, 0] = 0
        self._buf = self._buf[n:]
        if not len(self._buf):
            self._started = False

    async def play(self, audio: np.ndarray, turn: int) -> tuple[float, float]:
        import time

        start = time.perf_counter() + len(self._buf) / self.sample_rate
        if not self._started:
            start += self._prebuffer / self.sample_rate
        self._buf = np.concatenate([self._buf, audio])
        return start, start + len(audio) / self.sample_rate

    def busy(self) -> bool:
        return len(self._buf) > 0

    async def stop(self, turn: int) -> None:
        self._buf = np.zeros(0, dtype=np.int16)

    async def drain(self) -> None:
        # One sleep for what is queued now, plus the device's own latency.
        await asyncio.sleep(len(self._buf) / self.sample_rate + 0.1)
