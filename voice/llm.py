"""The LLM stage's two back-ends: the in-process engine, or any OpenAI-compatible endpoint.

Both expose one blocking call, ``stream(messages, on_text)``, that runs in a worker thread,
hands committed text to ``on_text`` as it becomes final and returns the whole reply with its
decoding stats; ``cancel(turn)`` stops a reply early (barge-in).
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass

from engine import Engine, EngineWorker, GenerationResult, RequestError, SamplingParams


class LLMError(Exception):
    """The LLM stage failed for this turn; the message is one line."""


@dataclass
class Reply:
    text: str
    finish_reason: str
    stats: dict


class LocalLLM:
    """The in-process diffusion LM engine, shared by every session through one worker."""

    def __init__(self, worker: EngineWorker, params: SamplingParams) -> None:
        self.worker, self.params = worker, params
        self.name = "local"

    @classmethod
    def load(cls, engine_config, params: SamplingParams) -> LocalLLM:
        return cls(EngineWorker(Engine.load(engine_config)), params)

    def count_tokens(self, messages: list[dict]) -> int:
        return len(self.worker.tokenizer.chat_ids(messages))

    def stream(
        self, messages: list[dict], on_text: Callable[[str], None], request_id: str | None = None
    ) -> Reply:
        done = threading.Event()
        final: list[GenerationResult] = []

        def on_event(ev) -> None:
            if isinstance(ev, GenerationResult):
                final.append(ev)
                done.set()
            else:
                on_text(ev.text)

        try:
            self.worker.submit(
                messages, self.params, stream=True, request_id=request_id, on_event=on_event
            )
        except (RequestError, ValueError) as e:
            raise LLMError(str(e)) from None
        done.wait()
        r = final[0]
        if r.finish_reason == "error":
            raise LLMError(f"generation failed: {r.error}")
        return Reply(
            r.text,
            r.finish_reason,
            {
                "nfe": r.nfe,
                "tokens": r.num_tokens,
                "tokens_per_forward": round(r.tokens_per_forward, 2),
                "truncated_turns": r.truncated_turns,
            },
        )

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
        return sum(len(m["content"]) for m in messages) // 4 + 4 * len(messages)

    def stream(
        self, messages: list[dict], on_text: Callable[[str], None], request_id: str | None = None
    ) -> Reply:
        p = self.params
        body = {
            "model": self.model_name(),
            "messages": messages,
            "stream": True,
            "max_tokens": p.max_new_tokens,
            "temperature": p.temperature,
        }
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
                    text = (choice.get("delta") or {}).get("content") or ""
                    if text:
                        parts.append(text)
                        on_text(text)
                    reason = choice.get("finish_reason") or reason
        except urllib.error.HTTPError as e:
            try:
                msg = json.loads(e.read()).get("error", {}).get("message", "")
            except Exception:
                msg = ""
            raise LLMError(f"{self.url} answered HTTP {e.code} {msg}".strip()) from None
        except (urllib.error.URLError, OSError, json.JSONDecodeError) as e:
            raise LLMError(f"cannot reach {self.url}: {getattr(e, 'reason', e)}") from None
        return Reply("".join(parts).strip(), reason, {})

    def cancel(self, request_id: str) -> None:
        self._cancelled.add(request_id)

    def close(self) -> None:
        pass
