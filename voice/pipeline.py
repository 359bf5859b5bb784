"""The real-time voice pipeline: input → turn detection → ASR → diffusion LM → TTS → output.

One :class:`Pipeline` per conversation, all sharing one :class:`voice.models.Models` (Whisper,
Piper and the LLM back-end, loaded once per process). Audio chunks go in through
:meth:`Pipeline.feed`; a fresh :class:`TurnDetector` turns them into speech events; each
finished utterance becomes a turn task that transcribes it in a worker thread, streams the
reply's committed text from the LLM thread, cuts it into sentences (the first one short) and
synthesises them while the LLM may still be refining later blocks. Audio goes to a
:class:`voice.sink.Sink`; everything else leaves as typed frames.

The pipeline owns the turns; each other concern has one owner of its own:

- ``voice.turn``: a turn (:class:`Turn`: record, audio, task, what was heard) and its metrics
  (:class:`TurnRecord`); an interruption is one path, :meth:`Pipeline.interrupt`: silence,
  cancel, then settle history and frames.
- ``voice.speculation``: at a pause the turn is prepared ahead (ASR, reply, first sentence of
  audio); speech that resumes cancels it. The pause's transcript decides the end of the turn
  (``voice.endpoint``): complete, it ends now and the prepared audio plays; incomplete, it
  waits for more. Latency counts from the audible end.
- ``voice.answering``: the prompt, the built-in tools and the client's functions, the tool loop
  on the LLM threads. ``voice.speaking``: the reply said sentence by sentence (``speak`` off:
  text only). ``voice.conversation``: the history. ``voice.echo``: what the speaker played is
  the reference of an echo suppressor on the microphone.
- Barge-in: speech that starts while the assistant is busy stops playback at once, aborts
  generation and synthesis, and the history keeps only the words that were played; speech just
  after the answer began (a false start) takes the answer back and the whole utterance is
  answered as one turn.
- The client's own functions (:meth:`Pipeline.set_functions`): a turn in which the model calls
  one ends with the call (a ``FunctionCallFrame``, the call kept in the history), the client's
  output joins the history (:meth:`Pipeline.add_tool_output`) and :meth:`Pipeline.respond`
  answers it in a follow-up turn.
- The event loop never waits on a model; a monitor measures its lag during turns.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import numpy as np

from voice.answering import Answerer
from voice.asr import Heard
from voice.audio import SAMPLE_RATE
from voice.config import AppConfig
from voice.conversation import Conversation, asks_reset
from voice.frames import (
    EndFrame,
    ErrorFrame,
    Frame,
    FunctionCallFrame,
    InterruptionFrame,
    ReplyTextFrame,
    SpeechStartedFrame,
    SpeechStoppedFrame,
    TimerFiredFrame,
    TranscriptFrame,
    TurnMetricsFrame,
)
from voice.lag import LoopLag
from voice.listening import Listener
from voice.llm import LLMError
from voice.models import Models
from voice.sink import Sink
from voice.speaking import Speaker
from voice.speculation import Prepared, Speculator
from voice.turn import Turn, TurnRecord, with_carry
from voice.vad import SpeechEnded, SpeechPaused, SpeechResumed, SpeechStarted


class Pipeline:
    """One conversation. ``feed`` audio (or ``run`` a source); frames go to ``on_frame``."""

    def __init__(
        self,
        models: Models,
        cfg: AppConfig,
        sink: Sink,
        on_frame: Callable[[Frame], None] | None = None,
        on_turn: Callable[[TurnRecord], None] | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.m, self.cfg, self.sink, self.clock = models, cfg, sink, clock
        self._on_frame, self._on_turn = on_frame, on_turn
        self.listener = Listener(cfg, sink.plays_here, clock)  # the microphone side
        self.detector = self.listener.detector
        self.jobs = models.scheduler.lane()  # this conversation's share of Whisper and Piper
        self.conversation = Conversation()
        self.records: list[TurnRecord] = []
        self.answers = Answerer(models, cfg.assistant, self.conversation, self.emit, str(id(self)))
        self.speaker = Speaker(models.tts, self.jobs, sink, self.listener.echo, self.emit, clock,
                               cfg.tts.first_chunk_chars)  # fmt: skip
        self.speculation = Speculator(self.hear, self.answers, self.speaker, self.jobs,
                                      cfg, clock)  # fmt: skip
        self.lag = LoopLag(clock)
        self._ids = itertools.count(1)
        self._last_id = 0  # id of the newest turn
        self._turn: Turn | None = None  # the newest turn: being answered, or its answer playing
        self._closed = False

    # --- frames -------------------------------------------------------------------------
    def emit(self, frame: Frame) -> None:
        if self._on_frame is not None:
            self._on_frame(frame)

    # --- input --------------------------------------------------------------------------
    def start(self, realtime: bool = True) -> None:
        """Begin a stream now (stream offset 0 = this moment)."""
        self.listener.start(realtime)
        self.answers.ensure_tools(self._timer_fired)
        self.lag.start()

    async def feed(self, chunk: np.ndarray) -> None:
        """Add int16 16 kHz mono audio from the user."""
        if self.listener.t0 is None:
            self.start()
        for ev in self.listener.hear(chunk):
            await self._on_event(ev)
        # Smart endpoint: at a pause whose transcript is complete, the turn is over.
        if self.listener.smart and self.speculation.ends_turn(self.detector.position):
            for ev in self.detector.end_now():
                await self._on_end(ev, self.clock(), "complete")

    async def finish(self) -> None:
        """End of input: close an open turn, wait for the answer and its playback."""
        for ev in self.detector.flush():
            await self._on_event(ev)
        if self._turn is not None and self._turn.task is not None:
            await asyncio.gather(self._turn.task, return_exceptions=True)
        await self.sink.drain()

    async def run(self, source: AsyncIterator[np.ndarray], realtime: bool = True) -> None:
        """Consume ``source`` to its end, then finish the last turn and shut down."""
        self.start(realtime)
        try:
            async for chunk in source:
                await self.feed(chunk)
            await self.finish()
        finally:
            await self.close()

    async def close(self) -> None:
        """Cancel everything this conversation started; nothing is left running."""
        self._closed = True
        self.answers.close()
        self.speculation.cancel()
        if self._turn is not None and self._turn.answering():
            await self.interrupt()
        await self.lag.close()
        self.jobs.close()
        self.emit(EndFrame(self._last_id))

    # --- the conversation ---------------------------------------------------------------
    @property
    def history(self) -> list[dict]:
        """The conversation's messages (:class:`voice.conversation.Conversation` owns them)."""
        return self.conversation.messages

    @history.setter
    def history(self, messages: list[dict]) -> None:
        self.conversation.messages = list(messages)

    def reset(self) -> None:
        """Forget the conversation (a spoken or API reset), and what its tools remember."""
        self.conversation.reset()

    def messages_for(self, transcript: str | None) -> list[dict]:
        """The prompt for ``transcript`` (None: the history answered as it is)."""
        return self.answers.messages_for(transcript)

    def instruct(self, system_prompt: str) -> None:
        """This conversation's system prompt from now on (a Realtime session's
        ``instructions``); the configuration it was started with is left as it was."""
        self.answers.instruct(system_prompt)

    @property
    def speak(self) -> bool:
        """False: replies are text only, nothing is synthesised."""
        return self.speaker.speak

    @speak.setter
    def speak(self, on: bool) -> None:
        self.speaker.speak = on

    def set_functions(
        self, tools: list[dict] | None = None, tool_choice: str | dict | None = None
    ) -> None:
        """Offer the client's own functions to the model (:meth:`Answerer.set_functions`)."""
        self.answers.set_functions(tools, tool_choice)

    def open_calls(self) -> list[str]:
        """Ids of the client's function calls in the history still waiting for their output."""
        return self.conversation.open_calls()

    def add_tool_output(self, call_id: str, output: str) -> None:
        """The client ran its function: its output joins the history as a ``tool`` message
        (answered by the next :meth:`respond`). Raises ValueError for a call that is not
        waiting for an output."""
        self.conversation.add_tool_output(call_id, output)

    async def transcribe(self, audio: np.ndarray, speculative: bool = False) -> str:
        """``audio`` (16 kHz) as text, on this conversation's own share of the speech workers
        (also for turns a client decides itself, as the Realtime API's commits)."""
        text = await self.jobs.run(self.m.asr.transcribe, audio, speculative=speculative)
        return text.strip()

    async def hear(self, audio: np.ndarray, speculative: bool = False) -> Heard:
        """:meth:`transcribe` with Whisper's P(the sentence ended there) where the recogniser
        gives it (a local Whisper's short window, a cluster's; a transcription endpoint's is
        None)."""
        return await self.jobs.run(self.m.asr.hear, audio, speculative=speculative)

    # --- turns that need no speech: typed, follow-ups, announcements --------------------
    async def ask(self, text: str) -> None:
        """A typed question: a new turn answered like a spoken one, without ASR."""
        await self.interrupt()
        turn = Turn(self._record_now(), None)
        self._begin(turn, lambda: self._answer(turn, None, text))
        await asyncio.sleep(0)  # let the turn start (see _on_event)

    async def respond(self) -> int:
        """A turn that answers the conversation as it is (after :meth:`add_tool_output`): no
        new question, a reply like any other. Returns its turn id; raises ValueError when the
        history does not end with tool output."""
        if not self.conversation.awaits_answer():
            raise ValueError("nothing to respond to: add the output of a function call first")
        await self.interrupt()
        turn = Turn(self._record_now(follow_up=True), None)
        self._begin(turn, lambda: self._answer(turn, None, None))
        return turn.id

    def _record_now(self, **kw) -> TurnRecord:
        """A new turn with nothing to hear (typed, or a follow-up): it ends its speech now."""
        rec = TurnRecord(self._new_id(), **kw)
        now = self.clock()
        for k in ("audible_end", "speech_end", "turn_detected"):
            rec.stamps[k] = now
        return rec

    def _timer_fired(self, timer, text: str) -> None:
        """A timer is due (on the loop): speak up once the current answer is done."""
        if not self._closed:
            asyncio.ensure_future(self.announce(text, timer))

    async def announce(self, text: str, timer=None) -> None:
        """Speak ``text`` unprompted, in a turn of its own, after any answer in progress
        (a barge-in stops it like any reply)."""
        while self._turn is not None and self._turn.answering():
            await asyncio.gather(self._turn.task, return_exceptions=True)
        if self._closed:
            return
        rec = TurnRecord(self._new_id(), reply=text, announcement=True)
        rec.stamps["audible_end"] = rec.stamps["speech_end"] = self.clock()
        self.emit(TimerFiredFrame(rec.turn, text, getattr(timer, "label", ""),
                                  getattr(timer, "reminder", False),
                                  getattr(timer, "seconds", 0)))  # fmt: skip
        self.emit(ReplyTextFrame(rec.turn, text, True))
        turn = Turn(rec, None)
        self._begin(turn, lambda: self._say_announcement(turn), "timer")
        await asyncio.gather(turn.task, return_exceptions=True)

    async def _say_announcement(self, turn: Turn) -> None:
        rec = turn.record
        await self.speaker.say(turn, rec.reply)
        rec.spoken = rec.reply
        rec.stats["announcement"] = True
        # Said unprompted, it is part of the conversation: "what was that?", "set it again"
        # (messages_for drops it with the exchange before it).
        self.conversation.say(rec.spoken)

    # --- turn detection -----------------------------------------------------------------
    def _new_id(self) -> int:
        self._last_id = next(self._ids)
        return self._last_id

    async def _on_event(self, ev) -> None:
        if isinstance(ev, SpeechStarted):
            await self.interrupt(onset=self.listener.onset(ev))
            self.emit(SpeechStartedFrame(self._last_id + 1, ev.at_ms))
        elif isinstance(ev, SpeechPaused):
            if self.listener.realtime and not self._closed and self.speculation.worth(ev):
                self.speculation.pause(ev, self._with_carry(ev.audio), self._last_id + 1)
        elif isinstance(ev, SpeechResumed):
            self.speculation.resumed()
        elif isinstance(ev, SpeechEnded):
            await self._on_end(ev, self.clock())

    async def _on_end(self, ev: SpeechEnded, detected: float, why: str = "silence") -> None:
        await self.interrupt()
        rec = TurnRecord(self._new_id(), endpoint=why)
        self.emit(
            SpeechStoppedFrame(rec.turn, ev.at_ms, ev.speech_end * 1000 / SAMPLE_RATE, ev.forced)
        )
        spec = self.speculation.take(ev)
        self.listener.place(rec, ev, detected)
        turn = Turn(rec, self._with_carry(ev.audio))
        self._begin(turn, lambda: self._answer(turn, spec, None))
        # Let the turn start before the next event arrives.
        await asyncio.sleep(0)
        if not self.listener.realtime and self._turn is not None and self._turn.task is not None:
            # Replaying as fast as possible: the "user" waits for each answer.
            await asyncio.gather(self._turn.task, return_exceptions=True)

    def _begin(self, turn: Turn, work: Callable[[], Awaitable], name: str = "turn") -> None:
        """Make ``turn`` the current one and start ``work`` on it (answering, announcing)."""
        self.answers.ensure_tools(self._timer_fired)  # a typed first turn comes before start
        if self._turn is not None:
            self._turn.carry = None  # consumed by _with_carry
        self._turn = turn
        turn.task = asyncio.create_task(self._run(turn, work), name=f"{name}-{turn.id}")

    async def _run(self, turn: Turn, work: Callable[[], Awaitable]) -> None:
        """A turn's task: a failure ends the turn with an error event (the conversation goes
        on); its record is published at the end (an interrupted one's by interrupt)."""
        rec = turn.record
        try:
            await work()
        except LLMError as e:
            rec.error = str(e)
            self.emit(ErrorFrame(rec.turn, rec.error))
        except Exception as e:  # ASR or TTS failure: this turn fails, the conversation goes on
            rec.error = f"{type(e).__name__}: {e}"
            self.emit(ErrorFrame(rec.turn, rec.error))
        finally:
            if not rec.interrupted:
                self._publish(turn)

    def _with_carry(self, audio: np.ndarray) -> np.ndarray:
        carry = self._turn.carry if self._turn is not None else None
        return with_carry(carry, audio, self.cfg.vad.max_utterance_ms)

    def busy(self) -> bool:
        """The assistant is preparing, saying or still playing an answer."""
        return (self._turn is not None and self._turn.answering()) or self.sink.busy()

    # --- the one way to interrupt -------------------------------------------------------
    async def interrupt(self, onset: float | None = None) -> None:
        """Stop the assistant now (barge-in, or the client asked), wherever the current turn
        is: preparing, speaking or still playing.

        Silence first (what the user notices), then the turn's task is cancelled, and this one
        place settles what the turn leaves behind: what was heard goes into the history and the
        ``InterruptionFrame``. A false start (the user was still talking: nothing heard yet, or
        ``onset`` of the new speech within ``vad.takeback_ms`` of the first audio) takes the
        turn back whole: no reply in the history, and its speech carried into the next turn.
        """
        turn = self._turn
        if turn is None or turn.record.interrupted or not self.busy():
            return
        t = self.clock()
        rec = turn.record
        rec.interrupted = True  # from here on nothing of this turn is played
        await self.sink.stop(rec.turn)
        self.listener.echo.cut(t)
        if turn.task is not None and not turn.task.done():
            turn.task.cancel()
            await asyncio.gather(turn.task, return_exceptions=True)
        turn.cut_at(t, onset, self.speak, self.cfg.vad.takeback_ms / 1000.0)
        if rec.taken_back and turn.rid:  # as if never said: what its tools did is undone too
            self.answers.drop(turn.rid)
        if turn.remembered:
            said = {"role": "assistant", "content": rec.reply}
            self.conversation.cut_short(said, rec.spoken, rec.follow_up)
        elif (rec.transcript or rec.follow_up) and rec.spoken:
            self._remember(turn, rec.transcript or None, rec.spoken, [])
        self.emit(InterruptionFrame(rec.turn, rec.spoken))
        rec.stats["barge_in_stop_ms"] = round((self.clock() - t) * 1000, 1)
        self._publish(turn)

    def _publish(self, turn: Turn) -> None:
        """The turn's record is final: keep it and report it (once)."""
        if turn.closed:
            return
        turn.closed = True
        rec = turn.record
        rec.stats["loop_lag_max_ms"] = self.lag.max_ms
        if rec.transcript or rec.error or rec.announcement or rec.follow_up:
            self.records.append(rec)
            self.emit(TurnMetricsFrame(rec.turn, rec.latency_ms, dict(rec.stats)))
            if self._on_turn is not None:
                self._on_turn(rec)

    # --- answering ----------------------------------------------------------------------
    async def _answer(self, turn: Turn, spec: asyncio.Task | None, text: str | None) -> None:
        """Transcribe (or take the speculative work), reply, speak. Cancelled by interrupt."""
        rec = turn.record
        self.lag.reset()
        prepared = None if spec is None else await self.speculation.result(spec)
        if prepared is not None:
            rec.speculative, rec.transcript = True, prepared.transcript
            rec.stamps.update(prepared.stamps)
        elif not rec.follow_up:
            rec.transcript = text if turn.audio is None else await self.transcribe(turn.audio)
            rec.stamps["asr_done"] = self.clock()
        if not rec.follow_up:
            self.emit(TranscriptFrame(rec.turn, rec.transcript, True))
            if not rec.transcript:
                rec.error = "no speech recognised"
                self.emit(ErrorFrame(rec.turn, rec.error))
                return
        reset = asks_reset(rec.transcript)
        if reset:
            self.reset()
            rec.reply = "Okay, let's start over."
            prepared = Prepared(reply=rec.reply, pieces=[rec.reply])
        if prepared is not None and (prepared.reply or prepared.pieces or prepared.calls):
            await self.speaker.say_prepared(turn, prepared)
        else:
            await self.speaker.stream_reply(turn, self.answers)
        rec.spoken = rec.reply
        if rec.calls:  # the client runs them: the turn ends with the calls, no answer yet
            for c in rec.calls:
                f = c["function"]
                self.emit(FunctionCallFrame(rec.turn, c["id"], f["name"], f["arguments"]))
            # the answer's messages end with the round's call message: no answer of its own
            self._remember(turn, turn.question, None, turn.messages)
        elif not rec.reply.strip():  # never a silent turn: say that nothing came back
            rec.error = "the model gave an empty reply"
            self.emit(ErrorFrame(rec.turn, rec.error))
        elif not reset:
            self._remember(turn, turn.question, rec.reply, turn.messages)

    def _remember(self, turn: Turn, user: str | None, said: str | None, tools: list[dict]) -> None:
        """Keep the exchange (:meth:`Conversation.remember`) and that it was kept."""
        turn.remembered = True
        self.conversation.remember(user, said, tools)
