"""The voice turn loop: audio in → turn detection → ASR → diffusion LM → streaming TTS → audio out.

An asyncio pipeline. Input audio flows through a fresh :class:`TurnDetector`; each finished
utterance becomes a turn task: ASR in a worker thread, the LLM streaming committed text from its
own thread, a sentence splitter that hands the first short piece to TTS as soon as it is final,
and a TTS task whose audio goes to the sink while the LLM may still be refining later blocks.
The event loop never waits on a model. Every turn has an id; speech that starts while the
assistant is busy interrupts it (barge-in) and the history keeps only what was actually spoken.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import numpy as np

from voice.audio import SAMPLE_RATE
from voice.config import AppConfig
from voice.llm import LLMError, LocalLLM, RemoteLLM
from voice.tts import split_sentences
from voice.vad import SpeechEnded, SpeechStarted, TurnDetector

# A sentence is final once its end punctuation is followed by more text.
_BOUNDARY = re.compile(r"[.!?]+[\"')\]]*\s+")


@dataclass
class TurnRecord:
    """What one turn heard, said and how long each stage took."""

    turn: int
    transcript: str = ""
    reply: str = ""
    spoken: str = ""  # what was actually played (less than reply after a barge-in)
    latency_ms: dict[str, float] = field(default_factory=dict)
    stats: dict = field(default_factory=dict)
    interrupted: bool = False
    error: str | None = None

    def to_json(self) -> dict:
        d = {
            "turn": self.turn,
            "transcript": self.transcript,
            "reply": self.reply,
            "latency_ms": {k: round(v, 1) for k, v in self.latency_ms.items()},
            "llm": self.stats,
        }
        if self.interrupted:
            d["interrupted"] = True
            d["spoken"] = self.spoken
        if self.error:
            d["error"] = self.error
        return d


class Assistant:
    """The models (loaded once per process) and the conversation history."""

    def __init__(self, cfg: AppConfig, progress: Callable[[str], None] | None = None) -> None:
        from voice.asr import Transcriber
        from voice.tts import Synthesizer

        self.cfg = cfg
        a = cfg.asr
        self.asr = Transcriber(
            None if a.model == "bundled" else a.model,
            device=a.device,
            compute_type=None if a.compute_type == "auto" else a.compute_type,
            language=a.language,
            beam_size=a.beam_size,
            progress=progress,
        )
        self.tts = Synthesizer(
            None if cfg.tts.voice == "bundled" else cfg.tts.voice,
            volume=cfg.tts.volume,
            progress=progress,
        )
        self.asr.load()
        self.tts.load()
        s = cfg.assistant
        if s.llm_url:
            self.llm: LocalLLM | RemoteLLM = RemoteLLM(
                s.llm_url, s.llm_model, s.llm_api_key, cfg.sampling
            )
        else:
            if progress:
                progress(f"Loading diffusion LM {cfg.engine.model} ...")
            self.llm = LocalLLM.load(cfg.engine, cfg.sampling)
        self.history: list[dict] = []

    def messages_for(self, transcript: str) -> list[dict]:
        """System prompt + as much recent history as fits the token budget + the new question."""
        system = (
            [{"role": "system", "content": self.cfg.assistant.system_prompt}]
            if self.cfg.assistant.system_prompt
            else []
        )
        user = [{"role": "user", "content": transcript}]
        hist = list(self.history)
        while hist and self.llm.count_tokens(system + hist + user) > self.cfg.assistant.history_tokens:
            hist = hist[2:]
        return system + hist + user

    def remember(self, transcript: str, spoken: str) -> None:
        self.history += [
            {"role": "user", "content": transcript},
            {"role": "assistant", "content": spoken},
        ]

    def reset(self) -> None:
        self.history.clear()

    def close(self) -> None:
        self.llm.close()


class Sink:
    """Where the assistant's voice goes."""

    sample_rate: int

    async def play(self, audio: np.ndarray, turn: int) -> None:  # int16 at sample_rate
        raise NotImplementedError

    async def stop(self, turn: int) -> None:
        """Barge-in: drop what is queued for ``turn``."""

    async def drain(self) -> None:
        """Wait until everything queued has been played."""


class WavSink(Sink):
    """Collects everything the assistant said (for ``--output``)."""

    def __init__(self, sample_rate: int) -> None:
        self.sample_rate = sample_rate
        self.chunks: list[np.ndarray] = []

    async def play(self, audio: np.ndarray, turn: int) -> None:
        self.chunks.append(audio)

    def end_turn(self) -> None:
        if self.chunks:
            self.chunks.append(np.zeros(self.sample_rate * 3 // 10, dtype=np.int16))

    def audio(self) -> np.ndarray:
        return np.concatenate(self.chunks) if self.chunks else np.zeros(0, dtype=np.int16)


class Pipeline:
    """One conversation: feed it audio chunks; it runs turns and reports them."""

    def __init__(
        self,
        assistant: Assistant,
        sink: Sink,
        on_turn: Callable[[TurnRecord], None],
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.a, self.sink, self.on_turn, self.clock = assistant, sink, on_turn, clock
        self.detector = TurnDetector(SAMPLE_RATE, **assistant.cfg.vad.detector_args())
        self._turn_ids = itertools.count(1)
        self._active: asyncio.Task | None = None
        self._active_id = 0
        self._active_req: str | None = None
        self._t0: float | None = None  # wall time of stream offset 0
        self.realtime = True
        self.records: list[TurnRecord] = []

    def _wall(self, offset: int) -> float:
        assert self._t0 is not None
        return self._t0 + offset / SAMPLE_RATE

    async def run(self, source: AsyncIterator[np.ndarray], realtime: bool = True) -> None:
        """Consume ``source`` to its end, then finish the last turn."""
        self.realtime = realtime
        self._t0 = self.clock()
        async for chunk in source:
            for ev in self.detector.feed(chunk):
                await self._on_event(ev)
        for ev in self.detector.flush():
            await self._on_event(ev)
        if self._active is not None:
            await self._active
        await self.sink.drain()

    async def _on_event(self, ev) -> None:
        if isinstance(ev, SpeechStarted) and self._active is not None and not self._active.done():
            await self._interrupt()
        elif isinstance(ev, SpeechEnded):
            if self._active is not None and not self._active.done():
                await self._interrupt()
            detected = self.clock()
            speech_end = self._wall(ev.speech_end) if self.realtime else None
            self._active = asyncio.create_task(self._turn(ev, detected, speech_end))
            if not self.realtime:
                # Replaying as fast as possible: the "user" waits for each answer.
                await self._active

    async def _interrupt(self) -> None:
        task = self._active
        if task is None:
            return
        if self._active_req is not None:
            self.a.llm.cancel(self._active_req)
        await self.sink.stop(self._active_id)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass

    async def _turn(self, ev: SpeechEnded, detected: float, speech_end: float | None) -> None:
        turn = next(self._turn_ids)
        self._active_id = turn
        rec = TurnRecord(turn)
        # In real-time replay "speech end" is when the audio's speech ended; in --fast mode
        # there is no such moment, so latencies count from end-of-turn detection and the
        # configured end-of-turn silence is added as the VAD stage.
        t_ref = speech_end if speech_end is not None else detected
        lat = rec.latency_ms

        def mark(name: str) -> None:
            lat[name] = (self.clock() - t_ref) * 1000.0 + (
                0.0 if speech_end is not None else float(self.a.cfg.vad.end_ms)
            )

        mark("turn_detected")
        spoken_parts: list[str] = []
        try:
            rec.transcript = (await asyncio.to_thread(self.a.asr.transcribe, ev.audio)).strip()
            mark("asr_done")
            if not rec.transcript:
                rec.error = "no speech recognised"
                return
            await self._reply(rec, mark, spoken_parts)
            self.a.remember(rec.transcript, rec.reply)
        except asyncio.CancelledError:
            rec.interrupted = True
            rec.spoken = " ".join(spoken_parts)
            if rec.transcript and rec.spoken:
                self.a.remember(rec.transcript, rec.spoken)
            raise
        except LLMError as e:
            rec.error = str(e)
        finally:
            if rec.transcript or rec.error:
                self.records.append(rec)
                self.on_turn(rec)
            if isinstance(self.sink, WavSink):
                self.sink.end_turn()

    async def _reply(self, rec: TurnRecord, mark, spoken_parts: list[str]) -> None:
        loop = asyncio.get_running_loop()
        deltas: asyncio.Queue[str | None] = asyncio.Queue()
        pieces: asyncio.Queue[str | None] = asyncio.Queue()
        rid = f"turn-{id(self)}-{rec.turn}"
        self._active_req = rid
        messages = self.a.messages_for(rec.transcript)

        def on_text(t: str) -> None:
            loop.call_soon_threadsafe(deltas.put_nowait, t)

        llm = asyncio.create_task(asyncio.to_thread(self.a.llm.stream, messages, on_text, rid))
        llm.add_done_callback(lambda _: deltas.put_nowait(None))
        speaker = asyncio.create_task(self._speak(rec, pieces, mark, spoken_parts))
        try:
            pending, first = "", True
            while (d := await deltas.get()) is not None:
                if "first_text" not in rec.latency_ms:
                    mark("first_text")
                pending += d
                cut = None
                for m in _BOUNDARY.finditer(pending):
                    cut = m.end()
                if cut is not None:
                    for p in split_sentences(
                        pending[:cut], self.a.cfg.tts.first_chunk_chars if first else 10**6
                    ):
                        pieces.put_nowait(p)
                    first, pending = False, pending[cut:]
            reply = await llm
            mark("reply_done")
            rec.reply, rec.stats = reply.text, reply.stats
            for p in split_sentences(pending, self.a.cfg.tts.first_chunk_chars if first else 10**6):
                pieces.put_nowait(p)
            pieces.put_nowait(None)
            await speaker
        finally:
            self._active_req = None
            if not llm.done():
                self.a.llm.cancel(rid)
            speaker.cancel()

    async def _speak(self, rec: TurnRecord, pieces: asyncio.Queue, mark, spoken: list[str]) -> None:
        while (piece := await pieces.get()) is not None:
            chunks = await asyncio.to_thread(lambda p=piece: list(self.a.tts.synthesize_stream(p, 10**6)))
            if "first_tts_audio" not in rec.latency_ms:
                mark("first_tts_audio")
            for c in chunks:
                audio = c.audio
                if c.sample_rate != self.sink.sample_rate:
                    from voice.audio import resample

                    audio = resample(audio, c.sample_rate, self.sink.sample_rate)
                await self.sink.play(audio, rec.turn)
                if "first_audio_out" not in rec.latency_ms:
                    mark("first_audio_out")
            spoken.append(piece)


async def wav_source(audio: np.ndarray, realtime: bool, chunk_ms: int = 20) -> AsyncIterator[np.ndarray]:
    """Replay a recording as a microphone: ``chunk_ms`` pieces at real-time pace (or at once)."""
    n = SAMPLE_RATE * chunk_ms // 1000
    t0 = time.perf_counter()
    for i in range(0, len(audio), n):
        if realtime:
            delay = t0 + i / SAMPLE_RATE - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
        else:
            await asyncio.sleep(0)
        yield audio[i : i + n]
    # Trailing silence so the last turn's end is detected like a live one.
    silence = np.zeros(n, dtype=np.int16)
    for _ in range(2000 // chunk_ms):
        if realtime:
            await asyncio.sleep(chunk_ms / 1000)
        yield silence
