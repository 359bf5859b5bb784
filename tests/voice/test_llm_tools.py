"""Tool plumbing of the LLM stage: the local engine (demo-format prompts, tool calls held back
from the spoken text) and an OpenAI-compatible remote endpoint streaming tool-call deltas."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from engine import SamplingParams
from voice.llm import RemoteLLM, _merge_call_delta

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "set_timer",
            "parameters": {"type": "object", "properties": {"seconds": {"type": "integer"}}},
        },
    }
]


class _Endpoint(BaseHTTPRequestHandler):
    """Streams a short text, then one tool call split over three chunks (as OpenAI does)."""

    bodies: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _Endpoint.bodies.append(body)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        deltas = [
            {"role": "assistant", "content": "On it."},
            {"tool_calls": [{"index": 0, "id": "call_x", "type": "function",
                             "function": {"name": "set_timer", "arguments": ""}}]},
            {"tool_calls": [{"index": 0, "function": {"arguments": '{"seconds": '}}]},
            {"tool_calls": [{"index": 0, "function": {"arguments": "300}"}}]},
        ]
        for i, d in enumerate(deltas):
            fin = "tool_calls" if i == len(deltas) - 1 else None
            chunk = {"choices": [{"index": 0, "delta": d, "finish_reason": fin}]}
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        self.wfile.write(b"data: [DONE]\n\n")

    def log_message(self, *a) -> None:
        pass


@pytest.fixture
def endpoint():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Endpoint)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1"
    srv.shutdown()


def test_remote_sends_tools_and_assembles_streamed_calls(endpoint):
    llm = RemoteLLM(endpoint, "m", "", SamplingParams(max_new_tokens=32))
    shown: list[str] = []
    history = [
        {"role": "user", "content": "timer"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c0", "type": "function",
             "function": {"name": "set_timer", "arguments": {"seconds": 5}}}]},
        {"role": "tool", "tool_call_id": "c0", "content": "done"},
        {"role": "user", "content": "another for five minutes"},
    ]
    reply = llm.stream(history, shown.append, tools=TOOLS, tool_choice="auto")
    assert shown == ["On it."] and reply.text == "On it."
    assert reply.finish_reason == "tool_calls"
    call = {"name": "set_timer", "arguments": '{"seconds": 300}'}
    assert reply.tool_calls == [{"id": "call_x", "type": "function", "function": call}]
    sent = _Endpoint.bodies[-1]
    assert sent["tools"] == TOOLS and sent["tool_choice"] == "auto"
    # arguments go over the wire as JSON text, whatever the caller kept
    assert sent["messages"][1]["tool_calls"][0]["function"]["arguments"] == '{"seconds": 5}'
    assert llm.count_tokens(history) > 0


def test_merge_call_deltas_by_index():
    calls: dict[int, dict] = {}
    for tc in (
        {"index": 1, "id": "b", "function": {"name": "g", "arguments": "{}"}},
        {"index": 0, "id": "a", "function": {"name": "f", "arguments": '{"x"'}},
        {"index": 0, "function": {"arguments": ": 1}"}},
    ):
        _merge_call_delta(calls, tc)
    assert calls[0]["function"] == {"name": "f", "arguments": '{"x": 1}'}
    assert calls[1]["id"] == "b"
