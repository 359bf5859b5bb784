"""OpenAI's Realtime API at /v1/realtime, driven by the official ``openai`` client (sync and
async) against the real server: real VAD, Whisper, Piper and a tiny LM, Piper-voiced questions.

A spoken turn end to end, a typed turn, a cancelled response, client-decided turns
(``turn_detection: null``), bad events answered by ``error`` while the session carries on,
text-only sessions (nothing synthesised), and function calling: the client's tools, a forced
call, its output and the answer to it (on a tiny byte-level model that can write the call).
"""

from __future__ import annotations

import asyncio
import base64
import copy
import json
from collections.abc import Iterator
from typing import Any

import jsonschema
import numpy as np
import pytest
from openai import AsyncOpenAI, OpenAI

from tests.web.conftest import ServerThread, heard, tiny_config, tool_checkpoint
from voice.audio import resample
from voice.models import Models

TIMEOUT = 120  # s; the machine is shared
QUESTION = "What is the capital of France?"
RATE = 24000  # the Realtime API's PCM rate


@pytest.fixture(scope="module")
def server(tiny_models: Models, tiny_model) -> Iterator[ServerThread]:
    """Audio may run ahead of real time (the test sends speech at once); one Whisper call a turn;
    a token, as a deployment would have."""
    cfg = tiny_config(tiny_model, "assistant.speculative=false")
    with ServerThread(tiny_models, cfg, token="rt-token", audio_burst_s=600.0) as s:
        yield s


@pytest.fixture(scope="module")
def speech24(tiny_models: Models) -> bytes:
    """Piper saying QUESTION, 24 kHz PCM16, with silence before and after (the end of turn)."""
    tts = tiny_models.tts
    sp = resample(tts.synthesize(QUESTION), tts.sample_rate, RATE)
    quiet = np.zeros(RATE // 2, dtype=np.int16)
    return np.concatenate([quiet, sp, quiet, quiet, quiet]).astype("<i2").tobytes()


def chunks(pcm: bytes, ms: int = 100) -> Iterator[str]:
    step = RATE * 2 * ms // 1000
    for i in range(0, len(pcm), step):
        yield base64.b64encode(pcm[i : i + step]).decode()


class Events:
    """Every event received, read with a wanted type."""

    def __init__(self, recv) -> None:
        self.recv, self.seen = recv, []

    def until(self, type_: str, pred=lambda e: True) -> Any:
        for _ in range(100_000):
            ev = self.recv()
            self.seen.append(ev)
            if ev.type == type_ and pred(ev):
                return ev
        raise AssertionError(f"no {type_}")

    def types(self) -> list[str]:
        return [e.type for e in self.seen]

    def of(self, response_id: str, type_: str | None = None) -> list:
        """The events of one response (of one type)."""
        return [e for e in self.seen if getattr(e, "response_id", None) == response_id
                and (type_ is None or e.type == type_)]  # fmt: skip


def client(server: ServerThread, key: str = "rt-token") -> OpenAI:
    return OpenAI(base_url=server.api_url, api_key=key, max_retries=0, timeout=TIMEOUT)


def test_spoken_turn_end_to_end(server: ServerThread, speech24: bytes) -> None:
    with client(server).realtime.connect(model="diffvoice") as conn:
        ev = Events(conn.recv)
        created = ev.until("session.created")
        assert created.session.audio.input.format.rate == RATE
        conn.session.update(session={
            "type": "realtime", "instructions": "Answer briefly.",
            "audio": {"input": {"format": {"type": "audio/pcm", "rate": RATE},
                                "turn_detection": {"type": "server_vad"}},
                      "output": {"format": {"type": "audio/pcm", "rate": RATE}}},
        })
        assert ev.until("session.updated").session.instructions == "Answer briefly."
        for b64 in chunks(speech24):
            conn.input_audio_buffer.append(audio=b64)
        started = ev.until("input_audio_buffer.speech_started")
        stopped = ev.until("input_audio_buffer.speech_stopped")
        assert stopped.item_id == started.item_id and stopped.audio_end_ms > 1000
        done = ev.until("conversation.item.input_audio_transcription.completed")
        assert heard(done.transcript, QUESTION), done.transcript
        resp = ev.until("response.done")
        assert resp.response.status == "completed"
        types = ev.types()
        for t in ("input_audio_buffer.committed", "conversation.item.added", "response.created",
                  "response.output_audio_transcript.delta", "response.output_audio.delta"):
            assert t in types, t
        audio = b"".join(
            base64.b64decode(e.delta) for e in ev.seen if e.type == "response.output_audio.delta"
        )
        assert len(audio) // 2 > RATE // 10  # more than 0.1 s of reply speech, at 24 kHz
        # Order: speech_stopped → committed → response.created → first audio → response.done
        assert types.index("input_audio_buffer.speech_stopped") < types.index("response.created")
        assert types.index("response.created") < types.index("response.output_audio.delta")


def test_typed_turn_and_cancel_async(server: ServerThread) -> None:
    async def main() -> None:
        c = AsyncOpenAI(base_url=server.api_url, api_key="rt-token", max_retries=0)
        async with c.realtime.connect(model="diffvoice") as conn:
            seen: list = []

            async def until(type_: str) -> Any:
                while True:
                    e = await asyncio.wait_for(conn.recv(), TIMEOUT)
                    seen.append(e)
                    if e.type == type_:
                        return e

            await until("session.created")
            await conn.conversation.item.create(item={
                "type": "message", "role": "user",
                "content": [{"type": "input_text", "text": "hello there"}],
            })
            added = await until("conversation.item.added")
            assert added.item.content[0].text == "hello there"
            await conn.response.create()
            created = await until("response.created")
            await until("response.output_audio.delta")
            done = await until("response.done")
            assert done.response.id == created.response.id
            assert done.response.status == "completed"
            transcript = "".join(
                e.delta for e in seen if e.type == "response.output_audio_transcript.delta"
            )
            assert transcript.strip()

            # A cancel: the response ends as cancelled and no audio of it follows.
            await conn.conversation.item.create(item={
                "type": "message", "role": "user",
                "content": [{"type": "input_text", "text": "tell me about the moon"}],
            })
            await conn.response.create()
            second = await until("response.created")
            await conn.response.cancel()
            done = await until("response.done")
            assert done.response.id == second.response.id
            assert done.response.status == "cancelled"
            start = len(seen)
            await conn.conversation.item.create(item={
                "type": "message", "role": "user",
                "content": [{"type": "input_text", "text": "hi"}],
            })
            await conn.response.create()
            third = await until("response.done")
            late = [
                e for e in seen[start:] if getattr(e, "response_id", None) == second.response.id
            ]
            assert late == [] and third.response.status == "completed"
        await c.close()

    asyncio.run(main())


@pytest.mark.parametrize(
    "event, code",
    [
        ({"type": "dance"}, "unknown_event"),
        ({"type": "input_audio_buffer.append", "audio": "not base64!"}, "invalid_value"),
        ({"type": "input_audio_buffer.append"}, "invalid_event"),
        ({"type": "session.update", "session": {"type": "realtime", "audio": {"input": {
            "format": {"type": "audio/pcm", "rate": 44100}}}}}, "invalid_value"),
        ({"type": "session.update", "session": {"type": "transcription"}}, "invalid_value"),
        ({"type": "conversation.item.create", "item": {"type": "message", "role": "user",
                                                       "content": []}}, "invalid_event"),
        ({"type": "response.create"}, None),  # nothing to answer: a response saying nothing
        ({"type": "conversation.item.truncate", "item_id": "item_none", "content_index": 0,
          "audio_end_ms": 0}, "invalid_value"),  # no such assistant message
    ],
    ids=["unknown", "bad-base64", "no-audio", "bad-rate", "not-realtime", "empty-item",
         "idle-response-create", "truncate-unknown-item"],
)
def test_bad_events_get_errors_and_session_goes_on(
    server: ServerThread, event: dict, code: str | None
) -> None:
    with client(server).realtime.connect(model="diffvoice") as conn:
        ev = Events(conn.recv)
        ev.until("session.created")
        conn.send(event)
        conn.conversation.item.create(item={
            "type": "message", "role": "user",
            "content": [{"type": "input_text", "text": "hello"}],
        })
        ev.until("conversation.item.added")
        errors = [e for e in ev.seen if e.type == "error"]
        if code is None:
            assert errors == []
        else:
            assert [e.error.code for e in errors] == [code] and errors[0].error.message
        conn.response.create()
        assert ev.until("response.done").response.status == "completed"


def test_client_decided_turns(server: ServerThread, speech24: bytes) -> None:
    """turn_detection null: the audio is a turn when the client commits it."""
    with client(server).realtime.connect(model="diffvoice") as conn:
        ev = Events(conn.recv)
        ev.until("session.created")
        conn.session.update(session={"type": "realtime", "output_modalities": ["text"],
                                     "audio": {"input": {"turn_detection": None}}})
        ev.until("session.updated")
        for b64 in chunks(speech24):
            conn.input_audio_buffer.append(audio=b64)
        conn.input_audio_buffer.commit()
        ev.until("input_audio_buffer.committed")
        done = ev.until("conversation.item.input_audio_transcription.completed")
        assert heard(done.transcript, QUESTION), done.transcript
        assert "input_audio_buffer.speech_started" not in ev.types()
        conn.response.create()
        resp = ev.until("response.done")
        assert resp.response.status == "completed"
        types = ev.types()
        assert "response.output_text.delta" in types and "response.output_audio.delta" not in types


def test_token_is_required(server: ServerThread) -> None:
    from websockets.exceptions import InvalidStatus

    with pytest.raises(InvalidStatus) as e, client(server, "wrong").realtime.connect(model="x"):
        pass
    assert e.value.response.status_code == 401


def test_appended_audio_is_resampled_as_one_stream() -> None:
    """24 kHz audio appended in 20 ms pieces reaches the session as one continuous 16 kHz
    signal, at once: resampling each piece alone would put a click at every edge, and a block
    resampler would hold back up to 37 ms (no server needed)."""
    from serve.realtime import RealtimeEvents
    from voice.audio import SAMPLE_RATE

    class Sock:
        async def send(self, message: str) -> None:
            pass

    t = np.arange(RATE) / RATE
    tone = (8000 * np.sin(2 * np.pi * 440 * t)).astype("<i2")
    rt = RealtimeEvents(Sock(), "m")
    rt._pending.clear()
    piece = RATE // 50

    async def feed() -> None:
        for i in range(0, len(tone), piece):
            b64 = base64.b64encode(tone[i : i + piece].tobytes()).decode()
            await rt._client_event(f'{{"type": "input_audio_buffer.append", "audio": "{b64}"}}')

    asyncio.run(feed())
    got = np.frombuffer(b"".join(rt._pending), dtype="<i2").astype(int)
    want = resample(tone, RATE, SAMPLE_RATE).astype(int)
    assert SAMPLE_RATE - 3 * SAMPLE_RATE // 1000 <= len(got) <= SAMPLE_RATE  # ≤ 3 ms held back
    assert np.abs(got - want[: len(got)]).max() < 50  # one stream: no clicks at piece edges


def test_text_only_session_never_synthesises(
    server: ServerThread, tiny_models: Models, monkeypatch
) -> None:
    """output_modalities ["text"]: the reply comes as text deltas, no audio and no speech
    synthesis at all (Piper is never called); response.done still comes."""
    calls = []
    real = tiny_models.tts.synthesize_stream

    def spy(*a, **kw):
        calls.append(a)
        return real(*a, **kw)

    monkeypatch.setattr(tiny_models.tts, "synthesize_stream", spy)
    with client(server).realtime.connect(model="diffvoice") as conn:
        ev = Events(conn.recv)
        ev.until("session.created")
        conn.session.update(session={"type": "realtime", "output_modalities": ["text"]})
        assert ev.until("session.updated").session.output_modalities == ["text"]
        conn.conversation.item.create(item={
            "type": "message", "role": "user",
            "content": [{"type": "input_text", "text": "hello there"}],
        })
        conn.response.create()
        done = ev.until("response.done")
        assert done.response.status == "completed"
        text = "".join(e.delta for e in ev.of(done.response.id, "response.output_text.delta"))
        assert text.strip()
        types = ev.types()
        assert "response.output_audio.delta" not in types
        assert "response.output_audio_transcript.delta" not in types
        final = ev.of(done.response.id, "response.output_text.done")[0].text
        assert final.strip() == text.strip()
        (item,) = done.response.output
        assert item.content[0].type == "output_text" and item.content[0].text == final
        latency = done.response.metadata["diffvoice"]["latency_ms"]
        assert "first_tts_audio" not in latency and "first_audio_out" not in latency
    assert calls == []


# A client function whose arguments the grammar forces into a few tokens.
SET_TIMER = {
    "type": "function", "name": "set_timer", "description": "Start a timer.",
    "parameters": {"type": "object", "properties": {
        "seconds": {"type": "integer", "minimum": 1, "maximum": 3600},
        "unit": {"type": "string", "enum": ["s", "min"]},
    }, "required": ["seconds", "unit"], "additionalProperties": False},
}  # fmt: skip


@pytest.fixture(scope="module")
def tool_server(tiny_models: Models, tmp_path_factory) -> Iterator[ServerThread]:
    """The same Whisper and Piper, with a tiny byte-level LM that can write tool calls."""
    from engine import Engine, EngineConfig, EngineWorker, SamplingParams
    from voice.llm import LocalLLM

    folder = tool_checkpoint(tmp_path_factory.mktemp("ckpt") / "tiny-llada")
    engine = Engine.load(EngineConfig(model=str(folder), device="cpu", max_batch_size=4,
                                      max_model_len=512))  # fmt: skip
    models = copy.copy(tiny_models)
    models.llm = LocalLLM(EngineWorker(engine), SamplingParams(max_new_tokens=96, block_size=16))
    cfg = tiny_config(folder, "assistant.speculative=false")
    try:
        with ServerThread(models, cfg, token="rt-token") as s:
            yield s
    finally:
        models.llm.close()


def _history(server: ServerThread, call_id: str) -> list[dict]:
    """The pipeline's history of the session that holds ``call_id``."""
    for session in list(server.server.sessions.values()):
        if call_id in json.dumps(session.pipe.history):
            return session.pipe.history
    raise AssertionError(f"no session has {call_id}")


def test_function_call_then_its_output_then_the_answer(tool_server: ServerThread) -> None:
    """A typed turn with tool_choice naming a client function: the model calls it (grammar-
    forced, arguments valid for the schema), the response is that call and nothing is said.
    The call's output (an unknown call id first: an error, and the session goes on) and a
    response.create bring the answer, spoken, from the call and its output."""
    with client(tool_server).realtime.connect(model="diffvoice") as conn:
        ev = Events(conn.recv)
        ev.until("session.created")
        conn.session.update(session={
            "type": "realtime", "tools": [SET_TIMER],
            "tool_choice": {"type": "function", "name": "set_timer"},
        })
        updated = ev.until("session.updated").session
        assert [t.name for t in updated.tools] == ["set_timer"]
        assert updated.tool_choice.name == "set_timer"
        conn.conversation.item.create(item={
            "type": "message", "role": "user",
            "content": [{"type": "input_text", "text": "set a timer for five minutes"}],
        })
        conn.response.create()
        done = ev.until("response.done")
        assert done.response.status == "completed"
        (item,) = done.response.output
        assert item.type == "function_call" and item.name == "set_timer"
        args = json.loads(item.arguments)
        jsonschema.validate(args, SET_TIMER["parameters"])
        rid = done.response.id
        (added,) = ev.of(rid, "response.output_item.added")
        assert added.item.type == "function_call" and added.item.call_id == item.call_id
        (delta,) = ev.of(rid, "response.function_call_arguments.delta")
        (args_done,) = ev.of(rid, "response.function_call_arguments.done")
        assert delta.call_id == args_done.call_id == item.call_id
        assert delta.item_id == args_done.item_id == item.id and delta.output_index == 0
        assert args_done.name == "set_timer" and args_done.arguments == item.arguments
        assert ev.of(rid, "response.output_item.done")[0].item.status == "completed"
        assert not ev.of(rid, "response.output_audio.delta")
        history = _history(tool_server, item.call_id)
        assert [m["role"] for m in history] == ["user", "assistant"]
        assert history[0]["content"] == "set a timer for five minutes"
        assert [c["id"] for c in history[1]["tool_calls"]] == [item.call_id]

        conn.conversation.item.create(item={
            "type": "function_call_output", "call_id": "call_unknown", "output": "{}",
        })
        error = ev.until("error")
        assert error.error.code == "invalid_value" and error.error.param == "item.call_id"
        conn.session.update(session={"type": "realtime", "tool_choice": "auto"})
        ev.until("session.updated")
        output = json.dumps({"ok": True, "ends_in_seconds": 300})
        conn.conversation.item.create(item={
            "type": "function_call_output", "call_id": item.call_id, "output": output,
        })
        out = ev.until("conversation.item.added")
        assert out.item.type == "function_call_output" and out.item.call_id == item.call_id
        assert ev.until("conversation.item.done").item.output == output
        conn.response.create()
        created = ev.until("response.created")
        answer = ev.until("response.done")
        assert answer.response.id == created.response.id != rid
        assert answer.response.status == "completed"
        said = "".join(e.delta for e in ev.of(answer.response.id,
                                              "response.output_audio_transcript.delta"))
        assert said.strip() and ev.of(answer.response.id, "response.output_audio.delta")
        (message,) = answer.response.output
        assert message.type == "message" and message.content[0].transcript.strip()
        assert [m["role"] for m in history] == ["user", "assistant", "tool", "assistant"]
        assert history[2] == {"role": "tool", "tool_call_id": item.call_id, "content": output}
        assert history[3] == {"role": "assistant", "content": message.content[0].transcript}


def test_truncate_and_the_empty_response(server: ServerThread) -> None:
    """A response.create with nothing to answer (an app asking the model to speak first, as
    Pipecat's LLMRunFrame does) gets a response that says nothing. conversation.item.truncate
    (Pipecat and LiveKit send it when the user speaks over a reply) is answered by
    conversation.item.truncated within the audio sent, by OpenAI's errors past its end or for
    a content part the message does not have."""
    with client(server).realtime.connect(model="diffvoice") as conn:
        ev = Events(conn.recv)
        ev.until("session.created")
        conn.response.create()
        created = ev.until("response.created")
        empty = ev.until("response.done")
        assert empty.response.id == created.response.id
        assert empty.response.status == "completed" and empty.response.output == []
        conn.conversation.item.create(item={
            "type": "message", "role": "user",
            "content": [{"type": "input_text", "text": "hello there"}],
        })
        conn.response.create()
        done = ev.until("response.done")
        (message,) = done.response.output
        audio = b"".join(base64.b64decode(e.delta)
                         for e in ev.of(done.response.id, "response.output_audio.delta"))
        ms = len(audio) // 2 * 1000 // RATE
        assert ms > 100
        for fields, param in (({"audio_end_ms": ms + 1}, "audio_end_ms"),
                              ({"content_index": 1}, "content_index"),
                              ({"item_id": "item_unknown"}, "item_id")):
            conn.send({"type": "conversation.item.truncate", "item_id": message.id,
                       "content_index": 0, "audio_end_ms": 0, **fields})
            error = ev.until("error")
            assert (error.error.code, error.error.param) == ("invalid_value", param)
        conn.conversation.item.truncate(item_id=message.id, content_index=0,
                                        audio_end_ms=ms // 2)
        cut = ev.until("conversation.item.truncated")
        assert (cut.item_id, cut.content_index, cut.audio_end_ms) == (message.id, 0, ms // 2)
