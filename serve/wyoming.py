"""Home Assistant's Wyoming protocol over the assistant's own models: ``diffvoice wyoming``.

One TCP port (10300 by default, loopback unless ``--host`` says otherwise) serves the three
Wyoming services Home Assistant's Assist pipeline uses, announced by ``describe`` → ``info``:

- **asr** (Whisper): ``transcribe``, then ``audio-start``/``audio-chunk``…/``audio-stop`` in any
  rate, width and channel count (converted to 16 kHz mono) → ``transcript``.
- **tts** (Piper): ``synthesize`` → ``audio-start``, ``audio-chunk``… (sentence by sentence, as
  they are synthesised), ``audio-stop``; streamed too (``synthesize-start``, ``-chunk``… as an
  LLM writes them, ``-stop`` → … ``synthesize-stopped``): each sentence is spoken as soon as it
  is complete, and the ``synthesize`` a streaming client also sends for older servers is then
  ignored, as Wyoming specifies.
- **handle** (the conversation agent): ``transcript`` → ``handled`` with the assistant's reply,
  from the same LLM, tool loop and system prompt as ``diffvoice serve``. The conversation is
  kept per ``context.conversation_id`` (else per connection) for the last exchanges; a request
  the assistant cannot answer is ``not-handled`` with its reason. Timers are left out of this
  service's tools: a Wyoming conversation agent has no way to ring one later.

Whisper and Piper run on the same fair scheduler as the voice sessions (``Models.scheduler``);
every connection has its own lane, closed when it goes, so a client that vanishes mid-stream
frees its slot and its queued work. At most ``server.max_sessions`` connections at once; more
are told so with an ``error`` event and closed. A bad event gets an ``error`` event (with a
``code``) and the connection stays usable.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np
from wyoming.asr import Transcribe, Transcript
from wyoming.audio import AudioChunk, AudioChunkConverter, AudioStart, AudioStop
from wyoming.error import Error
from wyoming.event import Event
from wyoming.handle import Handled, NotHandled
from wyoming.info import (
    AsrModel,
    AsrProgram,
    Attribution,
    Describe,
    HandleModel,
    HandleProgram,
    Info,
    TtsProgram,
    TtsVoice,
)
from wyoming.server import AsyncEventHandler
from wyoming.tts import (
    Synthesize,
    SynthesizeChunk,
    SynthesizeStart,
    SynthesizeStop,
    SynthesizeStopped,
)

from voice.audio import SAMPLE_RATE
from voice.conversation import Conversation
from voice.tools import TOOL_SPECS, Toolbox, answer, tools_supported

DEFAULT_PORT = 10300
MAX_AUDIO_S = 60  # longest utterance a transcribe request may send
MAX_TEXT_CHARS = 4096  # longest text to synthesise (OpenAI's speech limit)
CHUNK_SAMPLES = 1024  # audio-chunk size we send (Piper's own chunks are whole sentences)
_CONVERSATIONS = 64  # conversations remembered by id, oldest forgotten first
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_ATTRIBUTION = Attribution(name="diffvoice", url="https://github.com/diffvoice/diffvoice")


def describe(models: Any) -> Info:
    """What this server offers: one program per service, in Wyoming's terms."""
    tts = models.tts
    rate = getattr(tts, "sample_rate", None)
    asr = models.cfg.asr
    whisper = asr.url or ("whisper tiny.en (bundled)" if asr.model == "bundled" else asr.model)
    return Info(
        asr=[AsrProgram(
            name="diffvoice-whisper", description="Whisper (faster-whisper) in diffvoice",
            attribution=_ATTRIBUTION, installed=True, version=None,
            models=[AsrModel(name=str(whisper),
                             description="Whisper", attribution=_ATTRIBUTION, installed=True,
                             version=None, languages=["en"])],
        )],
        tts=[TtsProgram(
            name="diffvoice-piper", description="Piper in diffvoice", attribution=_ATTRIBUTION,
            installed=True, version=None, supports_synthesize_streaming=True,
            voices=[TtsVoice(name="diffvoice", description=f"diffvoice (Piper, {rate} Hz)",
                             attribution=_ATTRIBUTION, installed=True, version=None,
                             languages=["en"])],
        )],
        handle=[HandleProgram(
            name="diffvoice", description="The diffvoice assistant (a diffusion LM and its tools)",
            attribution=_ATTRIBUTION, installed=True, version=None,
            models=[HandleModel(name="diffvoice", description="diffvoice assistant",
                                attribution=_ATTRIBUTION, installed=True, version=None,
                                languages=["en"])],
        )],
    )


class _Talk:
    """One conversation: its exchanges and its own tools (the calculator's "that", the units
    the user last asked about)."""

    def __init__(self, server: WyomingServer) -> None:
        s = server.cfg.assistant
        self.conversation = Conversation(keep=min(8, s.history_turns or 8))
        self.toolbox = server.new_toolbox()

    def close(self) -> None:
        if self.toolbox is not None:
            self.toolbox.close()


class _Conversations:
    """Conversations by id, the least recently used forgotten first."""

    def __init__(self, server: WyomingServer) -> None:
        self.server = server
        self._by_id: OrderedDict[str, _Talk] = OrderedDict()

    def get(self, key: str) -> _Talk:
        talk = self._by_id.pop(key, None) or _Talk(self.server)
        self._by_id[key] = talk
        while len(self._by_id) > _CONVERSATIONS:
            self._by_id.popitem(last=False)[1].close()
        return talk

    def close(self) -> None:
        for talk in self._by_id.values():
            talk.close()
        self._by_id.clear()


class WyomingHandler(AsyncEventHandler):
    """One client connection: its audio being transcribed, its text being spoken, its talk."""

    def __init__(self, reader, writer, server: WyomingServer) -> None:
        super().__init__(reader, writer)
        self.server = server
        self.models = server.models
        self.lane = server.models.scheduler.lane("wyoming")
        self._audio: list[np.ndarray] | None = None  # the utterance being received
        self._samples = 0
        self._odd = b""  # the part of a sample a chunk ended in
        self._audio_over = self._text_over = False  # the audio / text under way went past
        # its limit (said once; the rest is not kept)
        self._converter = AudioChunkConverter(rate=SAMPLE_RATE, width=2, channels=1)
        self._streaming: list[str] | None = None  # text of a streamed synthesis not yet said
        self._speaking = False  # audio-start sent for the synthesis under way
        self._own: _Talk | None = None  # the connection's conversation, without an id

    # --- events -------------------------------------------------------------------------------
    async def handle_event(self, event: Event) -> bool:
        try:
            await self._dispatch(event)
        except _BadEvent as e:
            await self.write_event(Error(text=str(e), code=e.code).event())
            if e.then is not None:  # the request still ends the way its client waits for
                await self.write_event(e.then)
        return True

    async def _dispatch(self, event: Event) -> None:
        t = event.type
        if Describe.is_type(t):
            await self.write_event(describe(self.models).event())
        elif Transcribe.is_type(t):
            self._audio, self._samples = None, 0  # a new request: what came before is dropped
        elif AudioStart.is_type(t):
            self._audio, self._samples, self._odd, self._audio_over = [], 0, b"", False
        elif AudioChunk.is_type(t):
            await self._audio_chunk(event)
        elif AudioStop.is_type(t):
            await self._transcribe()
        elif SynthesizeStart.is_type(t):
            self._streaming, self._speaking, self._text_over = [], False, False
        elif SynthesizeChunk.is_type(t):
            await self._stream_text(SynthesizeChunk.from_event(event).text)
        elif SynthesizeStop.is_type(t):
            await self._stream_stop()
        elif Synthesize.is_type(t):
            if self._streaming is None:  # a streaming client sends it too, for older servers
                await self._synthesize_all(Synthesize.from_event(event).text)
        elif Transcript.is_type(t):
            await self._handle(Transcript.from_event(event))
        else:
            raise _BadEvent(f"unsupported event type {t!r}", "unsupported-event")

    # --- asr ----------------------------------------------------------------------------------
    async def _audio_chunk(self, event: Event) -> None:
        if self._audio is None:
            raise _BadEvent("audio-chunk before audio-start", "no-audio-start")
        if self._audio_over:
            return  # past the limit (said once): the rest of the utterance is not kept
        chunk = AudioChunk.from_event(event)
        # A chunk need not hold whole samples: Home Assistant's speech-to-text API passes on
        # an HTTP body cut wherever its reader split it. What is left of a sample waits for the
        # next chunk.
        frame = max(1, chunk.width * chunk.channels)
        data = self._odd + chunk.audio
        whole = len(data) - len(data) % frame
        self._odd = data[whole:]
        try:
            pcm = self._converter.convert(AudioChunk(rate=chunk.rate, width=chunk.width,
                                                     channels=chunk.channels, audio=data[:whole]))
        except Exception as e:  # a width or rate the converter cannot read
            raise _BadEvent(f"unreadable audio chunk: {e}", "bad-audio") from None
        samples = np.frombuffer(pcm.audio, dtype="<i2")
        room = MAX_AUDIO_S * SAMPLE_RATE - self._samples
        self._audio.append(samples[:room])
        self._samples += min(len(samples), room)
        if len(samples) > room:
            self._audio_over = True
            raise _BadEvent(f"audio is longer than {MAX_AUDIO_S} s: the first {MAX_AUDIO_S} s "
                            "are transcribed", "audio-too-long")

    async def _transcribe(self) -> None:
        if self._audio is None:
            raise _BadEvent("audio-stop without audio", "no-audio-start")
        audio = np.concatenate(self._audio) if self._audio else np.zeros(0, np.int16)
        self._audio = None
        try:
            text = await self.lane.run(self.models.asr.transcribe, audio)
        except Exception as e:  # a recognition timeout, a remote ASR down
            raise _BadEvent(f"transcription failed: {e}", "asr-failed",
                            then=Transcript(text="", language="en").event()) from None
        await self.write_event(Transcript(text=text, language="en").event())

    # --- tts ----------------------------------------------------------------------------------
    async def _speak(self, text: str) -> None:
        """Synthesize ``text`` sentence by sentence on the shared workers, each one sent as
        soon as it is ready; audio-start goes before the first."""
        it = iter(self.models.tts.synthesize_stream(text))
        done = object()
        while (c := await self.lane.run(next, it, done)) is not done:
            pcm = np.asarray(c.audio, dtype="<i2")
            if not self._speaking:
                self._speaking = True
                await self.write_event(AudioStart(rate=c.sample_rate, width=2, channels=1).event())
            for i in range(0, len(pcm), CHUNK_SAMPLES):
                await self.write_event(AudioChunk(
                    rate=c.sample_rate, width=2, channels=1,
                    audio=pcm[i:i + CHUNK_SAMPLES].tobytes()).event())

    async def _synthesize_all(self, text: str) -> None:
        self._speaking = False
        if len(text) > MAX_TEXT_CHARS:  # said, and the (empty) stream still ends
            await self.write_event(Error(text=_TOO_LONG, code="text-too-long").event())
        else:
            await self._speak(text)
        await self._end_audio()

    async def _end_audio(self) -> None:
        if not self._speaking:  # nothing to say: still a well-formed (empty) stream
            rate = int(getattr(self.models.tts, "sample_rate", 22050))
            await self.write_event(AudioStart(rate=rate, width=2, channels=1).event())
        await self.write_event(AudioStop().event())
        self._speaking = False

    async def _stream_text(self, text: str) -> None:
        if self._streaming is None:
            raise _BadEvent("synthesize-chunk before synthesize-start", "no-synthesize-start")
        if self._text_over:
            return  # past the limit (said once): synthesize-stop still ends the stream
        self._streaming.append(text)
        pending = "".join(self._streaming)
        if len(pending) > MAX_TEXT_CHARS:
            self._streaming, self._text_over = [], True
            raise _BadEvent(_TOO_LONG, "text-too-long")
        parts = _SENTENCE_END.split(pending)
        if len(parts) > 1:  # whole sentences go now; the unfinished one waits for more text
            self._streaming = [parts[-1]]
            await self._speak(" ".join(parts[:-1]))

    async def _stream_stop(self) -> None:
        if self._streaming is None:
            raise _BadEvent("synthesize-stop before synthesize-start", "no-synthesize-start")
        rest, self._streaming = "".join(self._streaming).strip(), None
        if rest:
            await self._speak(rest)
        await self._end_audio()
        await self.write_event(SynthesizeStopped().event())

    # --- handle -------------------------------------------------------------------------------
    async def _handle(self, t: Transcript) -> None:
        text = t.text.strip()
        if not text:
            await self.write_event(NotHandled(text="I didn't hear anything.",
                                              context=t.context).event())
            return
        if len(text) > self.server.cfg.server.max_text_chars:
            raise _BadEvent("transcript is too long", "text-too-long", then=NotHandled(
                text="Sorry, that was too long for me.", context=t.context).event())
        key = (t.context or {}).get("conversation_id")
        if key:
            talk = self.server.conversations.get(str(key))
        else:
            talk = self._own = self._own or _Talk(self.server)
        try:
            reply = await asyncio.to_thread(self.server.reply, talk, text)
        except Exception as e:  # the LLM failed: say so, as Wyoming does
            await self.write_event(NotHandled(text=f"Sorry, that failed: {e}",
                                              context=t.context).event())
            return
        await self.write_event(Handled(text=reply, context=t.context).event())

    async def disconnect(self) -> None:
        self.lane.close()  # its queued Whisper and Piper work is dropped, its slot freed
        self.server.connections.discard(self)
        if self._own is not None:
            self._own.close()


class _BadEvent(Exception):
    """An ``error`` event with ``code``, then ``then`` (if any): the event that ends the
    request, which clients wait for whatever came before (Home Assistant's read no ``error``)."""

    def __init__(self, text: str, code: str, then: Event | None = None) -> None:
        super().__init__(text)
        self.code, self.then = code, then


_TOO_LONG = f"text is longer than {MAX_TEXT_CHARS} characters: nothing more of it is spoken"


class WyomingServer:
    """The server: ``async with WyomingServer(models, cfg, host, port) as s: await
    s.serve_forever()``; ``port=0`` picks a free one (:attr:`port`)."""

    def __init__(self, models: Any, cfg: Any, host: str = "127.0.0.1",
                 port: int = DEFAULT_PORT) -> None:
        self.models, self.cfg, self.host, self._port = models, cfg, host, port
        self.connections: set[WyomingHandler] = set()
        self.conversations = _Conversations(self)
        self._tools = cfg.assistant.tools and tools_supported(models.llm)
        self._specs = [s for s in TOOL_SPECS if s["function"]["name"] != "timer"]
        self._server: asyncio.AbstractServer | None = None

    def new_toolbox(self):
        """A conversation's tools, timers left out (nothing could ring them), or None."""
        if not self._tools:
            return None
        box = Toolbox(lambda timer, sentence: None)
        box.specs = self._specs
        return box

    def reply(self, talk: _Talk, text: str) -> str:
        """The assistant's answer to ``text`` in ``talk`` (a worker thread); the exchange is
        added to its history, which keeps the last ``assistant.history_turns`` exchanges."""
        s = self.cfg.assistant
        msgs = talk.conversation.messages_for(s.system_prompt, text, s.history_turns)
        a = answer(self.models.llm, msgs, talk.toolbox, lambda _t: None)
        talk.conversation.remember(text, a.text, a.messages)
        return a.text

    def _connect(self, reader, writer) -> None:
        handler = WyomingHandler(reader, writer, self)
        if len(self.connections) >= self.cfg.server.max_sessions:
            asyncio.create_task(self._refuse(handler))
            return
        self.connections.add(handler)
        asyncio.create_task(handler.run(), name="wyoming connection")

    async def _refuse(self, handler: WyomingHandler) -> None:
        n = self.cfg.server.max_sessions
        try:
            await handler.write_event(Error(text=f"the server is full ({n} connections)",
                                            code="server-full").event())
        finally:
            handler.lane.close()
            handler.writer.close()

    @property
    def port(self) -> int:
        return self._server.sockets[0].getsockname()[1] if self._server else self._port

    async def start(self) -> None:
        from serve.links import bind as _bind

        sock = _bind(self.host, self._port)  # a taken port is a one-line error
        self._server = await asyncio.start_server(self._connect, sock=sock)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for h in list(self.connections):
            await h.stop()
        self.conversations.close()

    async def serve_forever(self) -> None:
        assert self._server is not None
        await self._server.serve_forever()

    async def __aenter__(self) -> WyomingServer:
        await self.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()


def serve_wyoming(cfg: Any, host: str | None = None, port: int | None = None,
                  progress: Callable[[str], None] | None = None) -> None:
    """``diffvoice wyoming``: load the models once and serve Wyoming until Ctrl-C."""
    from voice.models import Models

    host = host or "127.0.0.1"
    port = DEFAULT_PORT if port is None else port
    say = progress or (lambda m: print(m, file=sys.stderr, flush=True))
    models = Models(cfg, progress=say)

    async def main() -> None:
        async with WyomingServer(models, cfg, host, port) as s:
            note = "" if host in ("127.0.0.1", "localhost", "::1") else \
                " (Wyoming has no authentication: anyone who can reach this port can use it)"
            print(f"diffvoice: Wyoming asr, tts and handle at tcp://{host}:{s.port}{note}; "
                  "Ctrl-C to stop", flush=True)
            await s.serve_forever()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    finally:
        models.close()


__all__ = ["DEFAULT_PORT", "WyomingServer", "describe", "serve_wyoming"]
