"""OpenAI's text endpoints over the engine: ``/v1/models``, ``/v1/chat/completions`` and the
legacy ``/v1/completions``, JSON or server-sent events.

Requests are typed (pydantic, strict: ``"8"`` is not an integer and ``true`` is not a number;
unknown fields are an error). Each request is submitted to the shared :class:`EngineWorker`
from its own asyncio task, and the worker's events come back to the event loop, so every
request in flight is decoded in one batch. A client that goes away has its request aborted.
Errors come back in OpenAI's shape, ``{"error": {"message", "type", "param", "code"}}``.
Diffusion extras (``mode``, ``threshold``, ``block_size``, ...) ride along at the top level of
the body, which is where the ``openai`` client's ``extra_body`` puts them.

To add a request field: declare it on the request model, take it out of ``UNSUPPORTED``, and
use it in :meth:`ChatCompletionRequest.to_engine`. Tools (``tools``, ``tool_choice``,
``parallel_tool_calls``) and structured output (``response_format``) map onto the engine through
``engine.tools.tool_request`` and ``SamplingParams.response_format``; replies are parsed and
streamed as tool calls by ``engine.replies`` (docs/api.md, "Tools and structured output").
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from engine import EngineWorker, GenerationResult, RequestError, SamplingParams, TextDelta
from engine.replies import ReplyReader
from engine.tools import ToolFormatError, normalize_messages, tool_request

log = logging.getLogger("serve.openai_api")

ROLES = {
    "system": "system", "developer": "system", "user": "user", "assistant": "assistant",
    "tool": "tool",
}
# OpenAI features this server lacks: accepted only at a value that asks for nothing.
UNSUPPORTED = frozenset(
    "frequency_penalty presence_penalty logit_bias logprobs top_logprobs "
    "functions function_call modalities audio prediction reasoning_effort "
    "web_search_options verbosity echo suffix best_of".split()
)
_NEUTRAL = (False, 0, "", [], {}, {"type": "text"}, ["text"], "none", "auto")
_POLL_S = 0.25  # how often a plain (non-streamed) request checks that its client is still there


# --- errors ---------------------------------------------------------------------------------
@dataclass(eq=False)
class ApiError(Exception):
    """A request answered with an OpenAI-style error body."""

    status: int
    message: str
    param: str | None = None
    type: str = "invalid_request_error"
    code: str | None = None
    headers: dict[str, str] | None = None

    def __post_init__(self) -> None:
        super().__init__(self.message)

    def body(self) -> dict:
        keys = ("message", "type", "param", "code")
        return {"error": {k: getattr(self, k) for k in keys}}

    def response(self) -> JSONResponse:
        if self.status >= 500:
            log.warning("-> %d %s", self.status, self.message)
        return JSONResponse(self.body(), self.status, headers=self.headers)


def _param(loc: tuple) -> str | None:
    """A pydantic error location as the client wrote it: ``messages[0].role``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or None


def validation_error(e: ValidationError) -> ApiError:
    err = e.errors(include_url=False)[0]
    param = _param(err["loc"])
    msg = err["msg"].removeprefix("Value error, ")
    if err["type"] == "extra_forbidden":
        return ApiError(400, f"unrecognized request argument {param!r}", param)
    return ApiError(400, f"{param}: {msg}" if param else msg, param)


async def read_json(request: Request, limit: int) -> Any:
    """The request body as JSON: at most ``limit`` bytes, ``application/json``, no NaN."""
    ctype = request.headers.get("content-type", "")
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > limit:
        raise ApiError(400, f"the request body is {size} bytes; at most {limit} allowed")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ApiError(400, f"the request body is over {limit} bytes; at most {limit} allowed")
    if ctype.split(";", 1)[0].strip().lower() != "application/json":
        raise ApiError(400, f"Content-Type must be application/json, not {ctype[:80]!r}")
    try:
        return json.loads(body, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as e:
        raise ApiError(400, f"the request body is not valid JSON: {e}") from None


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")


# --- request models -------------------------------------------------------------------------
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class StreamOptions(_Strict):
    include_usage: bool = False


class ChatMessage(BaseModel):
    """One message; ``content`` arrives as text or text parts and is kept as one string."""

    model_config = ConfigDict(extra="ignore", strict=True)

    role: str
    content: str | None = None
    name: str | None = None
    tool_calls: list[Any] | None = None
    tool_call_id: str | None = None

    @field_validator("role", mode="before")
    @classmethod
    def _role(cls, v: Any) -> Any:
        if v not in ROLES:
            raise ValueError(f"role {v!r} is not supported; supported roles are {', '.join(ROLES)}")
        return v

    @field_validator("content", mode="before")
    @classmethod
    def _content(cls, v: Any) -> Any:
        if isinstance(v, list):
            texts = []
            for part in v:
                if not (
                    isinstance(part, dict)
                    and part.get("type") == "text"
                    and isinstance(part.get("text"), str)
                ):
                    raise ValueError(
                        "only text content parts ({type: 'text', text: ...}) are supported"
                    )
                texts.append(part["text"])
            return "\n".join(texts)
        if v is not None and not isinstance(v, str):
            raise ValueError("content must be a string or a list of text parts")
        return v

    @model_validator(mode="after")
    def _tool_fields(self) -> ChatMessage:
        """Tool calls (assistant) and tool results are well formed, as the engine reads them."""
        try:
            normalize_messages([self.to_engine()])
        except ToolFormatError as e:
            raise ValueError(str(e).removeprefix("messages[0]").lstrip(": .") or str(e)) from None
        return self

    def to_engine(self) -> dict:
        out: dict = {"role": ROLES[self.role], "content": self.content or ""}
        if self.tool_calls:
            out["tool_calls"] = self.tool_calls
        if self.role == "tool":
            out["tool_call_id"] = self.tool_call_id or ""
        if self.name is not None and self.role == "tool":
            out["name"] = self.name
        return out


class _Sampling(_Strict):
    """Fields both completion endpoints share: the OpenAI ones, then the diffusion extras."""

    model: str | None = None
    stream: bool | None = None
    stream_options: StreamOptions | None = None
    n: int | None = None
    stop: str | list[str] | None = None
    max_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    seed: int | None = None
    # diffusion extras
    mode: str | None = None
    threshold: float | None = None
    block_size: int | None = None
    tokens_per_step: int | None = None
    top_k: int | None = None
    # accepted and ignored
    user: Any = None
    metadata: Any = None
    store: Any = None
    service_tier: Any = None
    safety_identifier: Any = None
    prompt_cache_key: Any = None
    # unsupported: only a neutral value is accepted
    frequency_penalty: Any = None
    presence_penalty: Any = None
    logit_bias: Any = None
    logprobs: Any = None

    @model_validator(mode="before")
    @classmethod
    def _flatten_extra_body(cls, data: Any) -> Any:
        """Unwrap a literal ``extra_body`` object (a client that nested it) into the body."""
        if not isinstance(data, dict):
            raise ValueError("the request body must be a JSON object")
        extra = data.get("extra_body")
        if extra is None:
            return data
        if not isinstance(extra, dict):
            raise ValueError("extra_body must be an object")
        return {**{k: v for k, v in data.items() if k != "extra_body"}, **extra}

    @model_validator(mode="after")
    def _check(self) -> _Sampling:
        for key in sorted(UNSUPPORTED & self.model_fields_set):
            if not _neutral(key, getattr(self, key)):
                raise _FieldError(key, f"{key} is not supported by this server")
        if self.n is not None and self.n != 1:
            raise _FieldError("n", "only n=1 is supported")
        return self

    @field_validator("stop", mode="before")
    @classmethod
    def _stop(cls, v: Any) -> Any:
        if v is None or isinstance(v, str):
            return v
        if isinstance(v, list) and all(isinstance(s, str) for s in v):
            return v
        raise ValueError("stop must be a string or a list of strings")

    def budget_key(self) -> str:
        return "max_tokens"

    def params(self, base: SamplingParams) -> SamplingParams:
        """``base`` with this request's fields; errors name the client's field."""
        overrides: dict[str, Any] = {}
        key = self.budget_key()
        budget = getattr(self, key)
        if budget is not None:
            overrides["max_new_tokens"] = budget
        else:  # a structured reply's budget then fits its schema (Engine.resolve)
            overrides["fit_budget"] = True
        for f in ("temperature", "top_p", "seed", "mode", "threshold", "block_size",
                  "tokens_per_step", "top_k"):
            if getattr(self, f) is not None:
                overrides[f] = getattr(self, f)
        if self.stop is not None:
            overrides["stop"] = [self.stop] if isinstance(self.stop, str) else self.stop
        if "mode" in overrides and base.early_stop == (base.mode != "reference"):
            overrides["early_stop"] = None  # re-derive the mode's default
        try:
            return dataclasses.replace(base, **overrides)
        except ValueError as e:
            field = str(e).split(" ", 1)[0]
            name = key if field == "max_new_tokens" else field
            raise ApiError(400, str(e).replace(field, name, 1), name) from None

    @property
    def include_usage(self) -> bool:
        return bool(self.stream_options and self.stream_options.include_usage)


def _neutral(key: str, value: Any) -> bool:
    """Whether an unsupported field asks for nothing (``true`` is not ``1`` here)."""
    if value is None or (key == "best_of" and type(value) is int and value == 1):
        return True
    return any(type(value) is type(n) and value == n for n in _NEUTRAL)


class _FieldError(ValueError):
    """A model-level check that blames one field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class ChatCompletionRequest(_Sampling):
    """A ``/v1/chat/completions`` body."""

    messages: list[ChatMessage]
    max_completion_tokens: int | None = None
    parallel_tool_calls: Any = None
    top_logprobs: Any = None
    tools: Any = None
    tool_choice: Any = None
    functions: Any = None
    function_call: Any = None
    response_format: Any = None
    modalities: Any = None
    audio: Any = None
    prediction: Any = None
    reasoning_effort: Any = None
    web_search_options: Any = None
    verbosity: Any = None

    @field_validator("messages")
    @classmethod
    def _non_empty(cls, v: list[ChatMessage]) -> list[ChatMessage]:
        if not v:
            raise ValueError("messages must be a non-empty list of messages")
        return v

    def budget_key(self) -> str:  # the newer name wins when both are set
        return "max_completion_tokens" if self.max_completion_tokens is not None else "max_tokens"

    def to_engine(self) -> list[dict]:
        return [m.to_engine() for m in self.messages]

    def tool_params(self, params: SamplingParams):
        """``params`` with this request's ``response_format`` and tool choice, as an
        ``engine.tools.ToolRequest`` (tools for the prompt, the names to parse calls for)."""
        if self.response_format is not None:
            try:
                params = dataclasses.replace(params, response_format=self.response_format)
            except ValueError as e:
                raise ApiError(400, str(e), "response_format") from None
        try:
            return tool_request(params, self.tools, self.tool_choice, self.parallel_tool_calls)
        except ToolFormatError as e:
            msg = str(e)
            key = next((k for k in ("tool_choice", "parallel_tool_calls") if k in msg), "tools")
            raise ApiError(400, msg, key) from None


class CompletionRequest(_Sampling):
    """A legacy ``/v1/completions`` body: one text prompt, continued as it stands."""

    prompt: str | list[str] | list[int]
    echo: Any = None
    suffix: Any = None
    best_of: Any = None
    top_logprobs: Any = None

    @field_validator("prompt", mode="before")
    @classmethod
    def _one_prompt(cls, v: Any) -> Any:
        if isinstance(v, list) and v and all(isinstance(p, str) for p in v):
            if len(v) != 1:
                raise ValueError("only one prompt per request is supported")
            v = v[0]
        if isinstance(v, str):
            if not v.strip():
                raise ValueError("prompt is empty")
            return v
        if isinstance(v, list) and v and all(isinstance(t, int) for t in v):
            return v
        raise ValueError("prompt must be a string, a list of one string, or token ids")


def parse(model: type[_Sampling], body: Any) -> _Sampling:
    try:
        return model.model_validate(body)
    except ValidationError as e:
        cause = e.errors(include_url=False)[0].get("ctx", {}).get("error")
        if isinstance(cause, _FieldError):
            raise ApiError(400, str(cause), cause.field) from None
        raise validation_error(e) from None


# --- the engine, from asyncio ---------------------------------------------------------------
class _ClientGone(Exception):
    pass


@dataclass
class TextService:
    """The LLM behind the text endpoints: a worker, the served model id, default parameters."""

    worker: EngineWorker
    model_name: str
    default_params: SamplingParams
    max_body_bytes: int = 1 << 20

    def __post_init__(self) -> None:
        self.created = int(time.time())

    def model_card(self) -> dict:
        return {
            "id": self.model_name, "object": "model", "created": self.created,
            "owned_by": "diffvoice",
        }

    def check_model(self, name: str | None) -> None:
        if name is not None and name != self.model_name:
            raise ApiError(
                404, f"the model {name!r} does not exist; this server serves {self.model_name!r}",
                "model", code="model_not_found",
            )

    async def submit(
        self,
        rid: str,
        req: _Sampling,
        params: SamplingParams,
        messages: list[dict] | None = None,
        prompt_ids: list[int] | None = None,
        tools: list[dict] | None = None,
    ) -> asyncio.Queue:
        """Queue the request on the worker; its events arrive on the returned queue."""
        loop = asyncio.get_running_loop()
        q: asyncio.Queue[TextDelta | GenerationResult] = asyncio.Queue()

        def on_event(ev: TextDelta | GenerationResult) -> None:
            loop.call_soon_threadsafe(q.put_nowait, ev)

        def submit() -> None:
            self.worker.submit(
                messages, params, stream=bool(req.stream), request_id=rid, on_event=on_event,
                prompt_ids=prompt_ids, tools=tools,
            )

        try:  # tokenising happens in submit: off the event loop
            await asyncio.to_thread(submit)
        except RequestError as e:
            raise self._request_error(e, req, params, messages, prompt_ids) from None
        return q

    def _request_error(
        self,
        e: RequestError,
        req: _Sampling,
        params: SamplingParams,
        messages: list[dict] | None,
        prompt_ids: list[int] | None,
    ) -> ApiError:
        """The engine's refusal as the OpenAI API words it, naming the parameter at fault (the
        engine says which, ``RequestError.reason``): the caller's own budget is blamed when it
        is the budget that does not fit, the conversation otherwise."""
        key = req.budget_key()
        reason, msg = e.reason, str(e)
        if reason == "response_format":
            return ApiError(400, msg, "response_format")
        own_budget = getattr(req, key) is not None
        if reason in ("budget", "context") and own_budget:
            engine, tok = self.worker.engine, self.worker.tokenizer
            if prompt_ids is None:
                system = [m for m in (messages or [])[:1] if m["role"] == "system"]
                prompt_ids = tok.chat_ids(system + (messages or [])[-1:])
            cfg = engine.model.cfg
            block = cfg.block_size if cfg.block_causal else params.block_size
            room = engine.max_len - block - len(prompt_ids)
            if room < params.max_new_tokens:
                room_text = f"at most {room}" if room > 0 else "none"
                return ApiError(
                    400,
                    f"{key} is {params.max_new_tokens}, but the prompt of {len(prompt_ids)} "
                    f"tokens leaves room for {room_text} in the context of {engine.max_len} tokens",
                    key,
                )
        if reason == "budget" and own_budget:  # e.g. below the response format's shortest reply
            return ApiError(400, msg.replace("max_new_tokens", key, 1), key)
        if reason in ("budget", "context", "messages", "prompt"):
            return ApiError(400, msg, "prompt" if prompt_ids is not None else "messages")
        return ApiError(400, msg, None)

    async def events(
        self, rid: str, q: asyncio.Queue, gone: Callable[[], Any] | None = None
    ) -> AsyncIterator[TextDelta | GenerationResult]:
        """The request's events; aborts it when the consumer stops early (client gone)."""
        done = False
        try:
            while True:
                if gone is None:
                    ev = await q.get()
                else:
                    try:
                        ev = await asyncio.wait_for(q.get(), _POLL_S)
                    except TimeoutError:
                        if await gone():
                            raise _ClientGone from None
                        continue
                done = isinstance(ev, GenerationResult)
                yield ev
                if done:
                    return
        finally:
            if not done:
                log.info("aborting %s: the client went away", rid)
                self.worker.abort(rid)


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


# --- endpoints ------------------------------------------------------------------------------
async def list_models(svc: TextService) -> Response:
    return JSONResponse({"object": "list", "data": [svc.model_card()]})


async def get_model(svc: TextService, name: str) -> Response:
    svc.check_model(name)
    return JSONResponse(svc.model_card())


async def chat_completions(svc: TextService, request: Request) -> Response:
    req = parse(ChatCompletionRequest, await read_json(request, svc.max_body_bytes))
    assert isinstance(req, ChatCompletionRequest)
    svc.check_model(req.model)
    tr = req.tool_params(req.params(svc.default_params))
    rid = f"chatcmpl-{uuid.uuid4().hex[:24]}"
    messages = req.to_engine()
    q = await svc.submit(rid, req, tr.params, messages=messages, tools=tr.prompt_tools)
    names = tr.names if tr.parses_calls else None
    shape = _ChatShape(rid, svc.model_name, names, messages=messages)
    return await _answer(svc, request, rid, req, q, shape)


async def completions(svc: TextService, request: Request) -> Response:
    req = parse(CompletionRequest, await read_json(request, svc.max_body_bytes))
    assert isinstance(req, CompletionRequest)
    svc.check_model(req.model)
    params = req.params(svc.default_params)
    prompt = req.prompt
    ids = svc.worker.tokenizer.encode(prompt) if isinstance(prompt, str) else list(prompt)
    vocab = len(svc.worker.tokenizer.tok)
    if not ids or any(not 0 <= t < vocab for t in ids):
        raise ApiError(400, f"prompt token ids must be in 0..{vocab - 1}", "prompt")
    rid = f"cmpl-{uuid.uuid4().hex[:24]}"
    q = await svc.submit(rid, req, params, prompt_ids=ids)
    return await _answer(svc, request, rid, req, q, _CompletionShape(rid, svc.model_name))


@dataclass
class _ChatShape:
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
class _CompletionShape(_ChatShape):
    object: str = "text_completion"

    def base(self, chunk: bool) -> dict:
        return {"id": self.rid, "object": self.object, "created": int(time.time()),
                "model": self.model}

    def choice(self, text: str, finish: str | None, first: bool = False) -> dict:
        return {"index": 0, "text": text, "logprobs": None, "finish_reason": finish}

    def full(self, r: GenerationResult) -> dict:
        return {"index": 0, "text": r.text, "logprobs": None, "finish_reason": r.finish_reason}


async def _answer(
    svc: TextService, request: Request, rid: str, req: _Sampling, q: asyncio.Queue, shape
) -> Response:
    headers = {"X-Request-Id": rid}
    if not req.stream:
        try:
            async for ev in svc.events(rid, q, request.is_disconnected):
                if isinstance(ev, GenerationResult):
                    r = ev
        except _ClientGone:
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
        is_chat = isinstance(shape, _ChatShape) and not isinstance(shape, _CompletionShape)
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


def model_id(model: str) -> str:
    """The served model id: a local checkpoint's folder name, or the hub id as given."""
    p = Path(model)
    return p.resolve().name if p.is_dir() else model
