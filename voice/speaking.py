"""Saying a turn's reply: its text as the LLM commits it (cut into sentences, the first one
short, so the first audio comes early), each piece synthesised on the conversation's share of
the speech workers and played on the sink. What was played, and when, is what the turn heard
(a barge-in keeps those words) and the echo suppressor's reference. With ``speak`` off replies
are text only and nothing is synthesised."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from voice.audio import resample
from voice.echo import EchoPath
from voice.frames import Frame, ReplyTextFrame, TtsAudioFrame
from voice.sink import Sink
from voice.tts import split_sentences
from voice.turn import Turn

if TYPE_CHECKING:
    from voice.answering import Answerer
    from voice.speculation import Prepared

# A sentence is final once its end punctuation is followed by more text.
_BOUNDARY = re.compile(r"[.!?]+[\"')\]]*\s+")


class Speaker:
    """The conversation's voice: synthesis on its ``jobs`` lane, playback on ``sink``."""

    def __init__(
        self,
        tts,
        jobs,
        sink: Sink,
        echo: EchoPath,
        emit: Callable[[Frame], None],
        clock: Callable[[], float],
        first_chunk_chars: int,
    ) -> None:
        self.tts, self.jobs, self.sink, self.echo = tts, jobs, sink, echo
        self.emit, self.clock, self.first_chunk_chars = emit, clock, first_chunk_chars
        self.speak = True  # False: replies are text only, nothing is synthesised

    async def synth(self, text: str, speculative: bool = False) -> list:
        """``text`` as speech chunks, on this conversation's share of the speech workers."""
        return await self.jobs.run(_synthesize_all, self.tts, text, speculative=speculative)

    async def say(self, turn: Turn, piece: str, chunks: list | None = None) -> None:
        """Say one piece of the reply: synthesise it (unless ``chunks`` are given) and play
        it. A text-only conversation (``speak`` off) synthesises nothing."""
        if not self.speak:
            return
        if chunks is None:
            chunks = await self.synth(piece)
        turn.record.stamps.setdefault("first_tts_audio", self.clock())
        await self._play(turn, chunks, piece)

    async def _play(self, turn: Turn, chunks: list, piece: str) -> None:
        rec = turn.record
        for c in chunks:
            audio = c.audio
            if c.sample_rate != self.sink.sample_rate:
                audio = resample(audio, c.sample_rate, self.sink.sample_rate)
            if rec.interrupted:
                return
            self.emit(TtsAudioFrame(rec.turn, audio, self.sink.sample_rate, piece))
            start, end = await self.sink.play(audio, rec.turn)
            self.echo.played(start, audio, self.sink.sample_rate)
            rec.stamps.setdefault("first_audio_out", start)
            turn.heard.append((piece, start, end))

    async def say_prepared(self, turn: Turn, p: Prepared) -> None:
        """A reply written ahead (a speculation, a fixed sentence): all its text, then its
        pieces (the first one's audio may be ready too)."""
        rec = turn.record
        rec.reply, rec.stats, rec.calls = p.reply, dict(p.stats), list(p.calls)
        turn.messages, turn.shown, turn.rid = list(p.messages), rec.reply, p.rid
        for frame in p.frames:  # its tools' work, held while it was a speculation
            self.emit(frame)
        if rec.reply:
            self.emit(ReplyTextFrame(rec.turn, rec.reply, False))
        self.emit(ReplyTextFrame(rec.turn, rec.reply, True))
        for i, piece in enumerate(p.pieces):
            await self.say(turn, piece, p.first_audio if i == 0 and p.first_audio else None)

    async def stream_reply(self, turn: Turn, answers: Answerer) -> None:
        """Write the reply with ``answers`` and say each sentence as soon as it is final."""
        rec = turn.record
        loop = asyncio.get_running_loop()
        deltas: asyncio.Queue[str | None] = asyncio.Queue()
        pieces: asyncio.Queue[str | None] = asyncio.Queue()
        rid = turn.rid = answers.request_id("turn", rec.turn)

        def on_text(t: str) -> None:
            loop.call_soon_threadsafe(deltas.put_nowait, t)

        llm = asyncio.ensure_future(answers.start(turn.question, on_text, rid, rec.turn))
        llm.add_done_callback(lambda _: deltas.put_nowait(None))
        speaker = asyncio.create_task(self._say_queue(turn, pieces))
        first_max = self.first_chunk_chars
        try:
            pending, first = "", True
            while (d := await deltas.get()) is not None:
                rec.stamps.setdefault("first_text", self.clock())
                self.emit(ReplyTextFrame(rec.turn, d, False))
                turn.shown += d
                pending += d
                cut = None
                for m in _BOUNDARY.finditer(pending):
                    cut = m.end()
                if cut is not None:
                    for p in split_sentences(pending[:cut], first_max if first else 10**6):
                        pieces.put_nowait(p)
                    first, pending = False, pending[cut:]
            reply = await llm
            rec.stamps["reply_done"] = self.clock()
            rec.stamps.setdefault("first_text", rec.stamps["reply_done"])
            rec.reply, rec.stats, rec.calls = reply.text, dict(reply.stats), list(reply.calls)
            turn.messages = list(reply.messages)
            self.emit(ReplyTextFrame(rec.turn, rec.reply, True))
            for p in split_sentences(pending, first_max if first else 10**6):
                pieces.put_nowait(p)
            pieces.put_nowait(None)
            await speaker
        finally:
            if not llm.done():
                answers.cancel(rid)
                llm.cancel()
            speaker.cancel()

    async def _say_queue(self, turn: Turn, pieces: asyncio.Queue) -> None:
        while (piece := await pieces.get()) is not None:
            await self.say(turn, piece)


def _synthesize_all(tts, text: str) -> list:
    return list(tts.synthesize_stream(text, 10**6))
