"""The text API's answers on the wire: a request's engine events shaped as a chat completion
(:class:`ChatShape`) or a legacy text completion (:class:`CompletionShape`), sent as one JSON body
or as server-sent events (:func:`answer`). With tools offered, the reply is read for tool calls
(``engine.replies.ReplyReader``): calls are held back from the content and sent as tool-call
deltas. Every answer carries the engine's own numbers under ``diffvoice``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from engine import GenerationResult, TextDelta
from engine.replies import ReplyReader
from serve.http_api import ApiError
from serve.text_requests import SamplingRequest
from serve.text_service import ClientGone, TextService


def _failure(r: GenerationResult) -> ApiError | None:
    if r.finish_reason == "error":
        return ApiError(
            500, f"generation failed: {r.error or 'unknown error'}", type="server_error"
        )
    if r.finish_reason == "abort":
        return ApiError(
            503, "the request was aborted (the server is shutting down)", type="server_error"
        )
    return None


def _stats(r: GenerationResult) -> dict:
    ttft = r.time_to_first_text_s
    return {
        "nfe": r.nfe,
        "tokens_per_forward": round(r.tokens_per_forward, 3),
        "time_to_first_text_ms": None if ttft is None else round(ttft * 1000, 1),
        "total_ms": round(r.total_s * 1000, 1),
        "truncated_turns": r.truncated_turns,
    }


def _usage(r: GenerationResult) -> dict:
    return {
        "prompt_tokens": r.prompt_tokens,
        "completion_tokens": r.num_tokens,
        "total_tokens": r.prompt_tokens + r.num_tokens,
    }


def _sse(obj: dict) -> bytes:
    return b"data: " + json.dumps(obj, ensure_ascii=False).encode() + b"\n\n"


_SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


@dataclass
class ChatShape:
    """How chat completions look on the wire."""

    rid: str
    model: str
    tool_names: set[str] | None = None  # parse the reply for calls to these
    object: str = "chat.completion"
    # the conversation: the demo model's result pointer is replaced by the tool message it
    # points at (engine.replies.ReplyReader)
    messages: list[dict] | None = None

    def reader(self) -> ReplyReader:
        """What reads the reply: the pointer, and the calls when tools were offered."""
        return ReplyReader(self.messages, self.tool_names)

    def base(self, chunk: bool) -> dict:
        obj = self.object + (".chunk" if chunk else "")
        return {"id": self.rid, "object": obj, "created": int(time.time()), "model": self.model}

    def choice(self, text: str, finish: str | None, first: bool = False) -> dict:
        delta: dict = {"role": "assistant", "content": ""} if first else {}
        if text:
            delta["content"] = text
        return {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}

    def full(self, r: GenerationResult) -> dict:
        parsed = self.reader().message(r.text)
        finish = "tool_calls" if parsed.tool_calls else r.finish_reason
        return {"index": 0, "message": parsed.message(), "logprobs": None, "finish_reason": finish}


@dataclass
class CompletionShape(ChatShape):
    object: str = "text_completion"

    def base(self, chunk: bool) -> dict:
        return {"id": self.rid, "object": self.object, "created": int(time.time()),
                "model": self.model}

    def choice(self, text: str, finish: str | None, first: bool = False) -> dict:
        return {"index": 0, "text": text, "logprobs": None, "finish_reason": finish}

    def full(self, r: GenerationResult) -> dict:
        return {"index": 0, "text": r.text, "logprobs": None, "finish_reason": r.finish_reason}


async def answer(
    svc: TextService,
    request: Request,
    rid: str,
    req: SamplingRequest,
    q: asyncio.Queue,
    shape: ChatShape,
) -> Response:
    """Request ``rid``'s events from ``q`` as one JSON body, or streamed (``req.stream``);
    a plain request whose client went away is answered 499, aborted."""
    headers = {"X-Request-Id": rid}
    if not req.stream:
        try:
            async for ev in svc.events(rid, q, request.is_disconnected):
                if isinstance(ev, GenerationResult):
                    r = ev
        except ClientGone:
            return Response(status_code=499)
        err = _failure(r)
        if err is not None:
            raise err
        body = {
            **shape.base(False), "choices": [shape.full(r)], "usage": _usage(r),
            "diffvoice": _stats(r),
        }
        return JSONResponse(body, headers=headers)

    async def stream() -> AsyncIterator[bytes]:
        base = shape.base(True)
        if req.include_usage:
            base["usage"] = None
        is_chat = isinstance(shape, ChatShape) and not isinstance(shape, CompletionShape)
        if is_chat:  # the role chunk goes out at once, before any text is decoded
            yield _sse({**base, "choices": [shape.choice("", None, first=True)]})
        reader = shape.reader()  # tools offered: calls held back from content, sent as deltas

        def chunk(d: dict) -> bytes:
            if reader.calls is None:
                return _sse({**base, "choices": [shape.choice(d["content"], None)]})
            return _sse({**base, "choices": [
                {"index": 0, "delta": d, "logprobs": None, "finish_reason": None}]})

        def chunks(text: str) -> list[bytes]:
            return [chunk(d) for d in reader.feed(text)]

        sent = ""
        async for ev in svc.events(rid, q):
            if isinstance(ev, TextDelta):  # the engine streams only text that is final
                if ev.text:
                    for c in chunks(ev.text):
                        yield c
                    sent += ev.text
                continue
            err = _failure(ev)
            if err is not None:
                yield _sse(err.body())
                break
            if ev.text.startswith(sent) and len(ev.text) > len(sent):  # whatever is left over
                for c in chunks(ev.text[len(sent):]):
                    yield c
            finish = ev.finish_reason
            for d in reader.finish():
                yield chunk(d)
            if reader.calls is not None and reader.calls.calls:
                finish = "tool_calls"
            end = shape.choice("", finish)
            yield _sse({**base, "choices": [end], "diffvoice": _stats(ev)})
            if req.include_usage:
                yield _sse({**base, "choices": [], "usage": _usage(ev)})
        yield b"data: [DONE]\n\n"

    return StreamingResponse(
        stream(), media_type="text/event-stream; charset=utf-8", headers={**headers, **_SSE_HEADERS}
    )
