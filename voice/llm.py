"""The LLM stage's two back-ends: the in-process engine, or any OpenAI-compatible endpoint.

Both expose one blocking call, ``stream(messages, on_text)``, that runs in a worker thread,
hands committed text to ``on_text`` as it becomes final and returns the whole reply with its
decoding stats; ``cancel(turn)`` stops a reply early (barge-in).

Tools: ``stream(..., tools=[...], tool_choice=...)`` takes OpenAI function schemas; the reply's
tool calls come back in ``Reply.tool_calls`` (OpenAI shape: id, type, function.name,
function.arguments as JSON text) with ``finish_reason == "tool_calls"``, and ``on_text`` never
sees them. ``messages`` may hold assistant messages with ``tool_calls`` and ``tool`` results.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from engine import Engine, EngineWorker, GenerationResult, RequestError, SamplingParams
from engine.errors import UserError
from engine.replies import ReplyReader, content_of
from engine.tools import ToolFormatError, tool_request
from voice.remote import failure


class LLMError(UserError):
    """The LLM stage failed for this turn; the message is one line."""


@dataclass
class Reply:
    text: str  # the reply's text, tool calls taken out
    finish_reason: str  # "stop" | "length" | "tool_calls" | "abort"
    stats: dict
    tool_calls: list[dict] = field(default_factory=list)  # OpenAI tool calls, in order


class LocalLLM:
    """The in-process diffusion LM engine, shared by every session through one worker."""

    # The decoding to try again with when a reply comes out garbled (voice/reply_check.py).
    careful_mode = "reference"

    def __init__(self, worker: EngineWorker, params: SamplingParams) -> None:
        self.worker, self.params = worker, params
        self.name = "local"

    @classmethod
    def load(cls, engine_config, params: SamplingParams) -> LocalLLM:
        return cls(EngineWorker(Engine.load(engine_config)), params)

    def count_tokens(self, messages: list[dict]) -> int:
        return len(self.worker.tokenizer.chat_ids(messages))

    def stream(
        self,
        messages: list[dict],
        on_text: Callable[[str], None],
        request_id: str | None = None,
        *,
        tools: list[dict] | None = None,
        tool_choice: str | dict | None = None,
        parallel_tool_calls: bool | None = None,
        mode: str | None = None,
    ) -> Reply:
        """``mode``: this reply's decoding mode instead of the configured one."""
        done = threading.Event()
        final: list[GenerationResult] = []
        params = self.params if mode is None else replace(self.params, mode=mode)
        try:
            tr = tool_request(params, tools, tool_choice, parallel_tool_calls)
        except ToolFormatError as e:
            raise LLMError(str(e)) from None
        # the demo model says a tool result by pointing at it; calls are not spoken
        reader = ReplyReader(messages, tr.names if tr.parses_calls else None)

        def on_event(ev) -> None:
            if isinstance(ev, GenerationResult):
                final.append(ev)
                done.set()
            elif text := content_of(reader.feed(ev.text)):
                on_text(text)

        try:
            self.worker.submit(
                messages, tr.params, stream=True, request_id=request_id, on_event=on_event,
                tools=tr.prompt_tools,
            )
        except (RequestError, ValueError) as e:
            raise LLMError(str(e)) from None
        done.wait()
        r = final[0]
        if r.finish_reason == "error":
            raise LLMError(f"generation failed: {r.error}")
        stats = {
            "nfe": r.nfe,
            "tokens": r.num_tokens,
            "tokens_per_forward": round(r.tokens_per_forward, 2),
            "truncated_turns": r.truncated_turns,
        }
        if rest := content_of(reader.finish()):
            on_text(rest)
        parsed = reader.message(r.text)
        if parsed.invalid:
            stats["invalid_tool_calls"] = len(parsed.invalid)
        reason = "tool_calls" if parsed.tool_calls else r.finish_reason
        return Reply(parsed.content or "", reason, stats, parsed.tool_calls)

    def cancel(self, request_id: str) -> None:
        self.worker.abort(request_id)

    def close(self) -> None:
        self.worker.close()


class RemoteLLM:
    """Any OpenAI-compatible ``/v1/chat/completions`` endpoint, streamed over SSE."""

    def __init__(self, url: str, model: str, api_key: str, params: SamplingParams) -> None:
        self.url = url.rstrip("/")
        if not self.url.endswith("/chat/completions"):
            self.url += "/chat/completions" if self.url.endswith("/v1") else "/v1/chat/completions"
        self.model, self.api_key, self.params = model, api_key, params
        self.name = self.url
        self._cancelled: set[str] = set()

    def model_name(self) -> str:
        """``assistant.llm_model``, else the first id the endpoint's ``/v1/models`` lists
        (servers such as ours and vLLM answer an unknown model with 404)."""
        if not self.model:
            url = self.url.removesuffix("/chat/completions") + "/models"
            req = urllib.request.Request(url, headers=self._headers())
            try:
                with urllib.request.urlopen(req, timeout=30) as resp:
                    self.model = json.loads(resp.read())["data"][0]["id"]
            except (urllib.error.URLError, OSError, ValueError, KeyError, IndexError) as e:
                raise LLMError(
                    f"cannot ask {url} for its model (set assistant.llm_model): "
                    f"{getattr(e, 'reason', e)}"
                ) from None
        return self.model

    def _headers(self) -> dict[str, str]:
        return {
            "Content-Type": "application/json",
            "Authorization": f"Bearer {self.api_key or 'none'}",
        }

    def count_tokens(self, messages: list[dict]) -> int:
        chars = sum(
            len(m.get("content") or "") + len(json.dumps(m.get("tool_calls") or ""))
            for m in messages
        )
        return chars // 4 + 4 * len(messages)

    def stream(
        self,
        messages: list[dict],
        on_text: Callable[[str], None],
        request_id: str | None = None,
        *,
        tools: list[dict] | None = None,
        tool_choice: str | dict | None = None,
        parallel_tool_calls: bool | None = None,
    ) -> Reply:
        p = self.params
        body = {
            "model": self.model_name(),
            "messages": [_wire_message(m) for m in messages],
            "stream": True,
            "max_tokens": p.max_new_tokens,
            "temperature": p.temperature,
        }
        if tools:
            body["tools"] = tools
            if tool_choice is not None:
                body["tool_choice"] = tool_choice
            if parallel_tool_calls is not None:
                body["parallel_tool_calls"] = parallel_tool_calls
        if p.response_format is not None:
            body["response_format"] = p.response_format
        calls: dict[int, dict] = {}  # streamed tool calls by index
        req = urllib.request.Request(
            self.url,
            data=json.dumps(body).encode(),
            headers=self._headers(),
        )
        parts: list[str] = []
        reason = "stop"
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                for raw in resp:
                    if request_id is not None and request_id in self._cancelled:
                        self._cancelled.discard(request_id)
                        return Reply("".join(parts), "abort", {})
                    line = raw.decode("utf-8", "replace").strip()
                    if not line.startswith("data:"):
                        continue
                    data = line[5:].strip()
                    if data == "[DONE]":
                        break
                    chunk = json.loads(data)
                    if "error" in chunk:
                        raise LLMError(f"endpoint error: {chunk['error'].get('message')}")
                    choice = (chunk.get("choices") or [{}])[0]
                    delta = choice.get("delta") or {}
                    text = delta.get("content") or ""
                    if text:
                        parts.append(text)
                        on_text(text)
                    for tc in delta.get("tool_calls") or []:
                        _merge_call_delta(calls, tc)
                    reason = choice.get("finish_reason") or reason
        except (urllib.error.URLError, OSError, json.JSONDecodeError) as e:  # HTTPError too
            raise LLMError(failure(self.url, e)) from None
        tool_calls = [calls[i] for i in sorted(calls)]
        if tool_calls and reason == "stop":
            reason = "tool_calls"
        return Reply("".join(parts).strip(), reason, {}, tool_calls)

    def cancel(self, request_id: str) -> None:
        self._cancelled.add(request_id)

    def close(self) -> None:
        pass


def _wire_message(m: dict) -> dict:
    """A message as the OpenAI wire format wants it: tool-call arguments as JSON text."""
    if not m.get("tool_calls"):
        return m
    calls = []
    for c in m["tool_calls"]:
        f = c.get("function", {})
        args = f.get("arguments", {})
        calls.append({
            **c,
            "type": "function",
            "function": {**f, "arguments": args if isinstance(args, str) else json.dumps(args)},
        })
    return {**m, "tool_calls": calls}


def _merge_call_delta(calls: dict[int, dict], tc: dict) -> None:
    """Add one streamed ``delta.tool_calls`` entry: the first names the call, the rest append
    to its arguments."""
    i = tc.get("index", len(calls))
    f = tc.get("function") or {}
    call = calls.setdefault(
        i, {"id": "", "type": "function", "function": {"name": "", "arguments": ""}}
    )
    if tc.get("id"):
        call["id"] = tc["id"]
    if f.get("name"):
        call["function"]["name"] += f["name"]
    if f.get("arguments"):
        call["function"]["arguments"] += f["arguments"]
