"""The engine behind the text API, from asyncio: :class:`TextService` submits each request to the
shared :class:`EngineWorker` from its own asyncio task, and the worker's events come back to the
event loop, so every request in flight is decoded in one batch. A client that goes away has its
request aborted. The engine's refusals come back as :class:`ApiError`, naming the client's
parameter at fault.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import EngineWorker, GenerationResult, RequestError, SamplingParams, TextDelta
from serve.http_api import ApiError
from serve.text_requests import SamplingRequest

log = logging.getLogger("serve.text_service")

_POLL_S = 0.25  # how often a plain (non-streamed) request checks that its client is still there


class ClientGone(Exception):
    """The client of a plain (non-streamed) request went away before its answer."""


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
        req: SamplingRequest,
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
        req: SamplingRequest,
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
                            raise ClientGone from None
                        continue
                done = isinstance(ev, GenerationResult)
                yield ev
                if done:
                    return
        finally:
            if not done:
                log.info("aborting %s: the client went away", rid)
                self.worker.abort(rid)


def model_id(model: str) -> str:
    """The served model id: a local checkpoint's folder name, or the hub id as given."""
    p = Path(model)
    return p.resolve().name if p.is_dir() else model
