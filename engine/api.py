"""An OpenAI-compatible HTTP API for the engine, on the standard library's threaded HTTP server.

``GET /v1/models`` and ``POST /v1/chat/completions`` (plain JSON, or server-sent events with
``"stream": true``). Each connection gets a handler thread that submits its request to the shared
:class:`EngineWorker` and waits on the request's events, so concurrent requests are decoded
together in one batch. A client that goes away mid-request has its request aborted; errors come
back in OpenAI's shape, ``{"error": {"message", "type", "param", "code"}}``. Diffusion decoding
extras (``mode``, ``threshold``, ``block_size``, ...) ride along at the top level of the body, which
is where the ``openai`` client's ``extra_body`` puts them.
"""

from __future__ import annotations

import dataclasses
import hmac
import json
import logging
import queue
import select
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partialmethod
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from engine.config import EngineConfig
from engine.engine import Engine, RequestError
from engine.sampling import SamplingParams
from engine.sequence import GenerationResult, TextDelta
from engine.tools import (
    ToolCallStream,
    ToolFormatError,
    normalize_messages,
    reply_message,
    tool_request,
)
from engine.worker import EngineWorker

log = logging.getLogger("engine.api")

DEFAULT_MAX_BODY_BYTES = 1 << 20
_DRAIN_LIMIT = 16 << 20  # an oversized body up to this size is read and discarded
_POLL_S = 0.2  # how often a waiting handler checks whether its client is still there

ROLES = {
    "system": "system", "developer": "system", "user": "user", "assistant": "assistant",
    "tool": "tool",
}
# Diffusion extras: SamplingParams fields a request may set besides the OpenAI ones.
EXTRAS = {"mode": str, "threshold": float, "block_size": int, "tokens_per_step": int, "top_k": int}
_OPENAI = {"temperature": float, "top_p": float, "seed": int}
# Accepted and ignored whatever their value.
_IGNORED = set(
    "model user metadata store service_tier safety_identifier "
    "prompt_cache_key".split()
)
# OpenAI features this server lacks: accepted only at a value that asks for nothing.
_UNSUPPORTED = set(
    "frequency_penalty presence_penalty logit_bias logprobs top_logprobs "
    "functions function_call modalities audio prediction reasoning_effort "
    "web_search_options verbosity".split()
)
_NEUTRAL = (None, False, 0, "", [], {}, {"type": "text"}, ["text"], "none", "auto")
_KNOWN = (
    _IGNORED
    | _UNSUPPORTED
    | set(EXTRAS)
    | set(_OPENAI)
    | {"messages", "stream", "stream_options", "n", "stop", "max_tokens", "max_completion_tokens"}
    | {"tools", "tool_choice", "parallel_tool_calls", "response_format"}
)


@dataclass(eq=False)
class ApiError(Exception):
    """A request answered with an OpenAI-style error body."""

    status: int
    message: str
    param: str | None = None
    type: str = "invalid_request_error"
    code: str | None = None

    def __post_init__(self) -> None:
        super().__init__(self.message)

    def body(self) -> dict:
        keys = ("message", "type", "param", "code")
        return {"error": {k: getattr(self, k) for k in keys}}


@dataclass
class ChatRequest:
    """A validated ``/v1/chat/completions`` body."""

    messages: list[dict]
    params: SamplingParams
    stream: bool
    include_usage: bool
    tools: list[dict] = field(default_factory=list)  # rendered into the prompt
    tool_names: set[str] | None = None  # parse the reply for calls to these (None: don't)


# --- request parsing --------------------------------------------------------------------------
_KINDS = {  # JSON type checks; bool is an int in Python but never a number in a request
    int: ("an integer", lambda v: isinstance(v, int) and not isinstance(v, bool)),
    float: ("a number", lambda v: isinstance(v, int | float) and not isinstance(v, bool)),
    str: ("a string", lambda v: isinstance(v, str)),
}


def _check_type(key: str, value: object, kind: type) -> None:
    name, ok = _KINDS[kind]
    if not ok(value):
        raise ApiError(400, f"{key} must be {name}", key)


def _message_text(i: int, m: object) -> dict:
    if not isinstance(m, dict):
        raise ApiError(400, f"messages[{i}] must be an object", f"messages[{i}]")
    role = m.get("role")
    if role not in ROLES:
        raise ApiError(
            400,
            f"messages[{i}] has role {role!r}; supported roles are {', '.join(ROLES)}",
            f"messages[{i}].role",
        )
    content = m.get("content")
    if role == "assistant" and m.get("tool_calls") and content is None:
        content = ""
    if isinstance(content, list):
        texts = []
        for part in content:
            if not (
                isinstance(part, dict)
                and part.get("type") == "text"
                and isinstance(part.get("text"), str)
            ):
                raise ApiError(
                    400,
                    "only text content parts ({type: 'text', text: ...}) are supported",
                    f"messages[{i}].content",
                )
            texts.append(part["text"])
        content = "\n".join(texts)
    if not isinstance(content, str):
        raise ApiError(
            400,
            f"messages[{i}].content must be a string or a list of text parts",
            f"messages[{i}].content",
        )
    out = {"role": ROLES[role], "content": content}
    for key in ("tool_calls", "tool_call_id", "name"):
        if m.get(key) is not None:
            out[key] = m[key]
    try:
        normalize_messages([out])  # tool calls and tool results are well formed
    except ToolFormatError as e:
        raise ApiError(400, str(e).replace("messages[0]", f"messages[{i}]"),
                       f"messages[{i}]") from None
    return out


def parse_chat_request(body: object, base: SamplingParams) -> ChatRequest:
    """Validate a chat completion body and map it onto ``base`` sampling parameters."""
    if not isinstance(body, dict):
        raise ApiError(400, "the request body must be a JSON object")
    body = dict(body)
    extra = body.pop("extra_body", None)  # a client that nested extra_body literally
    if isinstance(extra, dict):
        body.update(extra)
    elif extra is not None:
        raise ApiError(400, "extra_body must be an object", "extra_body")

    for key, value in body.items():
        if key not in _KNOWN:
            raise ApiError(400, f"unrecognized request argument {key!r}", key)
        if key in _UNSUPPORTED and value not in _NEUTRAL:
            raise ApiError(400, f"{key} is not supported by this server", key)
    if body.get("model") is not None:
        _check_type("model", body["model"], str)

    msgs = body.get("messages")
    if not isinstance(msgs, list) or not msgs:
        raise ApiError(400, "messages must be a non-empty list of messages", "messages")
    messages = [_message_text(i, m) for i, m in enumerate(msgs)]

    stream = body.get("stream")
    if stream is not None and not isinstance(stream, bool):
        raise ApiError(400, "stream must be true or false", "stream")
    opts = body.get("stream_options") or {}
    if not isinstance(opts, dict) or not isinstance(opts.get("include_usage", False), bool):
        raise ApiError(400, "stream_options must be {include_usage: bool}", "stream_options")
    n = body.get("n")
    if n is not None and n != 1:
        raise ApiError(400, "only n=1 is supported", "n")

    overrides: dict[str, object] = {}
    names: dict[str, str] = {}  # SamplingParams field -> the key the client used
    for key in ("max_tokens", "max_completion_tokens"):  # the newer name wins when both are set
        if body.get(key) is not None:
            _check_type(key, body[key], int)
            overrides["max_new_tokens"], names["max_new_tokens"] = body[key], key
    for key, kind in (_OPENAI | EXTRAS).items():
        if body.get(key) is not None:
            _check_type(key, body[key], kind)
            overrides[key] = body[key]
    stop = body.get("stop")
    if stop is not None:
        if isinstance(stop, str):
            stop = [stop]
        if not (isinstance(stop, list) and all(isinstance(s, str) for s in stop)):
            raise ApiError(400, "stop must be a string or a list of strings", "stop")
        overrides["stop"] = stop
    if body.get("response_format") is not None:
        overrides["response_format"] = body["response_format"]
    if "mode" in overrides and base.early_stop == (base.mode != "reference"):
        overrides["early_stop"] = None  # re-derive the mode's default
    try:
        params = dataclasses.replace(base, **overrides)
    except ValueError as e:
        field = str(e).split(" ", 1)[0]
        key = names.get(field, field)
        raise ApiError(400, str(e).replace(field, key, 1), key) from None
    try:
        tr = tool_request(
            params, body.get("tools"), body.get("tool_choice"), body.get("parallel_tool_calls")
        )
    except ToolFormatError as e:
        key = next((k for k in ("tool_choice", "parallel_tool_calls") if k in str(e)), "tools")
        raise ApiError(400, str(e), key) from None
    return ChatRequest(
        messages, tr.params, bool(stream), bool(opts.get("include_usage")),
        tools=tr.prompt_tools, tool_names=tr.names if tr.parses_calls else None,
    )


# --- responses --------------------------------------------------------------------------------
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


# --- HTTP -------------------------------------------------------------------------------------
class _ClientGone(Exception):
    pass


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "diffvoice"
    timeout = 300  # idle keep-alive connections give their thread back after this
    server: _Server

    # Routing ----------------------------------------------------------------------------------
    def _dispatch(self, method: str) -> None:
        """Every method comes here, so a known path with the wrong method gets a 405."""
        self._body_read = method in ("GET", "HEAD", "OPTIONS", "DELETE") and not self.headers.get(
            "Content-Length"
        )
        self._headers_sent = self._streaming = False
        self._extra_headers: dict[str, str] = {}
        api = self.server.api
        path = self.path.split("?", 1)[0].rstrip("/") or "/"
        try:
            if path == "/health" and method == "GET":
                return self._send_json(200, {"status": "ok"})
            if api.token is not None:
                self._check_auth(api.token)
            if path == "/v1/chat/completions":
                self._allow(method, "POST")
                return self._chat()
            if path == "/v1/models":
                self._allow(method, "GET")
                return self._send_json(200, {"object": "list", "data": [api.model_card()]})
            if path.startswith("/v1/models/"):
                self._allow(method, "GET")
                name = path[len("/v1/models/") :]
                if name != api.model_name:
                    raise ApiError(
                        404, f"model {name!r} not found", "model", code="model_not_found"
                    )
                return self._send_json(200, api.model_card())
            raise ApiError(404, f"no such endpoint: {method} {path}", type="not_found_error")
        except ApiError as e:
            self._send_error(e)
        except (_ClientGone, ConnectionError, TimeoutError):
            self.close_connection = True
        except Exception as e:  # a bug here must not kill the connection thread silently
            log.exception("error serving %s %s", method, path)
            self._send_error(
                ApiError(500, f"internal error: {type(e).__name__}: {e}", type="server_error")
            )

    do_GET = partialmethod(_dispatch, "GET")
    do_POST = partialmethod(_dispatch, "POST")
    do_PUT = partialmethod(_dispatch, "PUT")
    do_PATCH = partialmethod(_dispatch, "PATCH")
    do_DELETE = partialmethod(_dispatch, "DELETE")
    do_HEAD = partialmethod(_dispatch, "HEAD")
    do_OPTIONS = partialmethod(_dispatch, "OPTIONS")

    def _allow(self, method: str, allowed: str) -> None:
        if method != allowed:
            self._extra_headers = {"Allow": allowed}
            raise ApiError(
                405, f"{method} is not allowed here; use {allowed}", type="invalid_request_error"
            )

    def _check_auth(self, token: str) -> None:
        got = self.headers.get("Authorization", "")
        scheme, _, value = got.partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(
            value.strip().encode(), token.encode()
        ):
            self._extra_headers = {"WWW-Authenticate": "Bearer"}
            raise ApiError(
                401,
                "missing or invalid API key; send Authorization: Bearer <token>",
                code="invalid_api_key",
            )

    # Chat completions -------------------------------------------------------------------------
    def _read_json(self) -> object:
        api = self.server.api
        if self.headers.get("Transfer-Encoding"):
            raise ApiError(400, "chunked request bodies are not supported; send Content-Length")
        try:
            length = int(self.headers.get("Content-Length", ""))
            if length < 0:
                raise ValueError
        except ValueError:
            raise ApiError(400, "a valid Content-Length header is required") from None
        if length > api.max_body_bytes:
            if length <= _DRAIN_LIMIT:  # so the client reads our answer, not a reset connection
                self._discard(length)
            raise ApiError(
                400, f"the request body is {length} bytes; at most {api.max_body_bytes} allowed"
            )
        raw = self.rfile.read(length)
        self._body_read = len(raw) == length
        if not self._body_read:
            raise _ClientGone
        ctype = self.headers.get("Content-Type", "")
        if ctype.split(";", 1)[0].strip().lower() != "application/json":
            raise ApiError(400, f"Content-Type must be application/json, not {ctype!r}")
        try:
            return json.loads(raw, parse_constant=_reject_constant)
        except (ValueError, RecursionError) as e:
            raise ApiError(400, f"the request body is not valid JSON: {e}") from None

    def _discard(self, length: int) -> None:
        while length > 0:
            got = self.rfile.read(min(length, 1 << 16))
            if not got:
                return
            length -= len(got)
        self._body_read = True

    def _chat(self) -> None:
        api = self.server.api
        req = parse_chat_request(self._read_json(), api.default_params)
        rid = f"chatcmpl-{uuid.uuid4().hex[:24]}"
        events = api.run(rid, req, self._client_gone)
        try:
            first = next(events)  # submit errors surface here, before any header is sent
            err = _failure(first) if isinstance(first, GenerationResult) else None
            if err is not None:
                raise err
            if req.stream:
                self._stream(rid, req, first, events)
            else:
                self._complete(rid, req, first)
        finally:
            events.close()

    def _complete(self, rid: str, req: ChatRequest, first: TextDelta | GenerationResult) -> None:
        r = first
        assert isinstance(r, GenerationResult)  # non-streaming requests have no deltas
        api = self.server.api
        message, called = reply_message(r.text, req.tool_names)
        self._send_json(
            200,
            {
                "id": rid,
                "object": "chat.completion",
                "created": int(time.time()),
                "model": api.model_name,
                "choices": [
                    {
                        "index": 0,
                        "message": message,
                        "logprobs": None,
                        "finish_reason": "tool_calls" if called else r.finish_reason,
                    }
                ],
                "usage": _usage(r),
                "diffvoice": _stats(r),
            },
            {"X-Request-Id": rid},
        )

    def _stream(
        self,
        rid: str,
        req: ChatRequest,
        first: TextDelta | GenerationResult,
        events: Iterator[TextDelta | GenerationResult],
    ) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Accel-Buffering", "no")
        self.send_header("X-Request-Id", rid)
        self._chunked = self.request_version == "HTTP/1.1"
        if self._chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self._headers_sent = self._streaming = True

        base = {
            "id": rid,
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": self.server.api.model_name,
        }
        if req.include_usage:
            base["usage"] = None

        def chunk(delta: dict, finish: str | None = None, **extra: object) -> None:
            choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
            self._event({**base, "choices": [choice], **extra})

        chunk({"role": "assistant", "content": ""})
        calls = ToolCallStream(req.tool_names) if req.tool_names is not None else None

        def text(piece: str) -> None:
            for delta in calls.feed(piece) if calls is not None else [{"content": piece}]:
                chunk(delta)

        sent, ev = "", first
        while isinstance(ev, TextDelta):  # the engine streams only text that is final
            if ev.text:
                text(ev.text)
                sent += ev.text
            ev = next(events)
        err = _failure(ev)
        if err is not None:
            self._event(err.body())
        else:
            if ev.text.startswith(sent) and len(ev.text) > len(sent):  # whatever is left over
                text(ev.text[len(sent) :])
            reason = ev.finish_reason
            if calls is not None:
                for delta in calls.finish():
                    chunk(delta)
                reason = "tool_calls" if calls.calls else reason
            chunk({}, reason, diffvoice=_stats(ev))
            if req.include_usage:
                self._event({**base, "choices": [], "usage": _usage(ev)})
        self._write(b"data: [DONE]\n\n")
        if self._chunked:
            self.wfile.write(b"0\r\n\r\n")

    def _event(self, obj: dict) -> None:
        self._write(b"data: " + json.dumps(obj, ensure_ascii=False).encode() + b"\n\n")

    def _write(self, data: bytes) -> None:
        if self._chunked:
            data = f"{len(data):X}\r\n".encode() + data + b"\r\n"
        self.wfile.write(data)

    def _client_gone(self) -> bool:
        """True when the peer has closed its end (a readable socket with nothing to read)."""
        sock = self.connection
        try:
            readable, _, _ = select.select([sock], [], [], 0)
            return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""
        except (OSError, ValueError):
            return True

    # Plumbing ---------------------------------------------------------------------------------
    def _send_json(self, status: int, obj: dict, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(obj, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if not self._body_read:  # leftover body bytes would be read as the next request
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self._headers_sent = True
        if self.command != "HEAD":
            self.wfile.write(data)

    def _send_error(self, e: ApiError) -> None:
        if e.status >= 500:
            log.warning(
                "%s %s -> %d %s", self.command, getattr(self, "path", ""), e.status, e.message
            )
        if self._headers_sent:
            if self._streaming:  # mid-stream: the best we can do is an error event
                try:
                    self._event(e.body())
                except OSError:
                    pass
            self.close_connection = True
            return
        try:
            self._send_json(e.status, e.body(), self._extra_headers)
        except OSError:
            self.close_connection = True

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Protocol-level errors (bad request line, headers too long) in OpenAI's shape."""
        self._body_read = self._headers_sent = self._streaming = False
        self._extra_headers = {}
        self._send_error(ApiError(code, message or explain or "bad request"))

    def log_message(self, format: str, *args: object) -> None:
        log.info("%s %s", self.address_string(), format % args)


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # open keep-alive connections never block shutdown
    api: ApiServer


class ApiServer:
    """The HTTP server; ``start()`` serves on a background thread, ``serve_forever()`` here.

    The worker stays the caller's: :meth:`shutdown` aborts requests in flight and closes the
    listening socket but does not close the worker.
    """

    def __init__(
        self,
        worker: EngineWorker,
        host: str = "127.0.0.1",
        port: int = 8000,
        model_name: str = "diffvoice",
        token: str | None = None,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
        default_params: SamplingParams | None = None,
    ) -> None:
        if max_body_bytes < 1:
            raise ValueError("max_body_bytes must be positive")
        self.worker, self.model_name = worker, model_name
        self.token = token or None
        self.max_body_bytes = max_body_bytes
        self.default_params = default_params or SamplingParams()
        self.created = int(time.time())
        self._active: set[str] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._httpd = _Server((host, port), _Handler)
        self._httpd.api = self
        self.host = host
        self.port: int = self._httpd.server_address[1]

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def model_card(self) -> dict:
        return {
            "id": self.model_name,
            "object": "model",
            "created": self.created,
            "owned_by": "diffvoice",
        }

    def run(
        self, rid: str, req: ChatRequest, client_gone: Callable[[], bool]
    ) -> Iterator[TextDelta | GenerationResult]:
        """Submit a request and yield its events; aborts it if the client goes or stops reading.

        Bad requests raise :class:`ApiError` on the first ``next``.
        """
        q: queue.SimpleQueue[TextDelta | GenerationResult] = queue.SimpleQueue()
        try:
            self.worker.submit(
                req.messages, req.params, stream=req.stream, request_id=rid, on_event=q.put,
                tools=req.tools,
            )
        except RequestError as e:
            msg = str(e)
            param = next(
                (k for k in ("response_format", "max_new_tokens", "message") if k in msg), None
            )
            param = {"message": "messages", "max_new_tokens": "max_tokens"}.get(param, param)
            if param is None and ("grammar" in msg or "schema" in msg):
                param = "response_format"
            raise ApiError(400, msg, param) from None
        with self._lock:
            self._active.add(rid)
        done = False
        try:
            while True:
                try:
                    ev = q.get(timeout=_POLL_S)
                except queue.Empty:
                    if client_gone():
                        raise _ClientGone from None
                    continue
                done = isinstance(ev, GenerationResult)
                yield ev
                if done:
                    return
        finally:
            with self._lock:
                self._active.discard(rid)
            if not done:  # the client went away, or writing to it failed
                log.info("aborting %s: the client went away or could not be written to", rid)
                self.worker.abort(rid)

    def serve_forever(self) -> None:
        self._httpd.serve_forever(poll_interval=0.2)

    def start(self) -> ApiServer:
        self._thread = threading.Thread(
            target=self.serve_forever, name="diffvoice-api", daemon=True
        )
        self._thread.start()
        return self

    def shutdown(self) -> None:
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join()
            self._thread = None
        self._httpd.server_close()
        with self._lock:
            active = list(self._active)
        for rid in active:
            self.worker.abort(rid)


def model_id(model: str) -> str:
    """The served model id: a local checkpoint's folder name, or the hub id as given."""
    p = Path(model)
    return p.resolve().name if p.is_dir() else model


def serve(
    engine_config: EngineConfig,
    host: str = "127.0.0.1",
    port: int = 8000,
    token: str | None = None,
    *,
    model_name: str | None = None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    default_params: SamplingParams | None = None,
) -> None:
    """Load the engine and serve the API until Ctrl-C."""
    worker = EngineWorker(Engine.load(engine_config))
    server = ApiServer(
        worker,
        host,
        port,
        model_name or model_id(engine_config.model),
        token,
        max_body_bytes,
        default_params,
    )
    auth = " (bearer token required)" if server.token else ""
    print(f"diffvoice API: {server.model_name} at {server.url}{auth}; Ctrl-C to stop", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        worker.close()
