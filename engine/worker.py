"""A background thread that serves many concurrent requests through one :class:`Engine`.

Callers on any thread ``submit`` a conversation and read its events from a
:class:`RequestHandle` (text deltas, then one :class:`GenerationResult`); ``abort`` stops a
request at the next step boundary and frees its cache at once. Requests submitted while others
run join the batch at the next step. The voice pipeline wraps handles for asyncio; the HTTP API
reads them from its handler threads.
"""

from __future__ import annotations

import itertools
import logging
import queue
import threading
from collections.abc import Callable, Iterator

from engine.engine import DraftPrompt, Engine, RequestError
from engine.sampling import SamplingParams
from engine.sequence import GenerationResult, TextDelta

Event = TextDelta | GenerationResult
log = logging.getLogger("engine.worker")


class RequestHandle:
    """Events of one request; iterate it, or call :meth:`result`."""

    def __init__(self, request_id: str, on_event: Callable[[Event], None] | None) -> None:
        self.request_id = request_id
        self._q: queue.Queue[Event] = queue.Queue()
        self._on_event = on_event
        self.final: GenerationResult | None = None
        self._done = threading.Event()

    def _put(self, ev: Event) -> None:
        try:
            if self._on_event is not None:
                self._on_event(ev)
            else:
                self._q.put(ev)
        finally:
            if isinstance(ev, GenerationResult):
                self.final = ev
                self._done.set()

    def __iter__(self) -> Iterator[Event]:
        while True:
            ev = self._q.get()
            yield ev
            if isinstance(ev, GenerationResult):
                return

    def result(self, timeout: float | None = None) -> GenerationResult:
        """Block until the request ends; returns its result (works with ``on_event`` too)."""
        if not self._done.wait(timeout):
            raise TimeoutError(f"request {self.request_id} did not finish in time")
        assert self.final is not None
        return self.final


class EngineWorker:
    """Runs ``engine.step()`` on its own thread while there is work."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._handles: dict[str, RequestHandle] = {}
        self._aborts: list[str] = []
        # (id, prompt ids, params, stream, dropped turns, the prose draft it waits for)
        self._pending: list[
            tuple[str, list[int], SamplingParams, bool, int, DraftPrompt | None]
        ] = []
        self._ids = itertools.count()
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="diffvoice-engine", daemon=True)
        self._thread.start()

    @property
    def tokenizer(self):
        return self.engine.tokenizer

    def submit(
        self,
        messages: list[dict],
        params: SamplingParams | None = None,
        *,
        stream: bool = False,
        request_id: str | None = None,
        on_event: Callable[[Event], None] | None = None,
        tools: list[dict] | None = None,
        prompt_ids: list[int] | None = None,
    ) -> RequestHandle:
        """Queue a conversation (or raw ``prompt_ids``, which ``messages`` must then leave None);
        bad requests raise :class:`RequestError` here, synchronously."""
        params = params or SamplingParams()
        # tokenising off the engine thread
        draft = self.engine.draft_prompt(messages, params, tools)
        ids, dropped, params = self.engine.resolve(messages, params, prompt_ids, tools=tools)
        with self._lock:
            if self._stop:
                raise RequestError("the engine is shutting down")
            rid = request_id or f"w-{next(self._ids)}"
            if rid in self._handles:
                raise RequestError(f"request id {rid} is already in use")
            handle = RequestHandle(rid, on_event)
            self._handles[rid] = handle
            self._pending.append((rid, ids, params, stream, dropped, draft))
            self._wake.notify()
        return handle

    def abort(self, request_id: str) -> None:
        """Stop a request; its handle receives a result with ``finish_reason == "abort"``."""
        with self._lock:
            if request_id in self._handles:
                self._aborts.append(request_id)
                self._wake.notify()

    def active(self) -> int:
        with self._lock:
            return len(self._handles)

    def close(self) -> None:
        with self._lock:
            self._stop = True
            self._aborts.extend(self._handles)
            self._wake.notify()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            with self._lock:
                while (
                    not self._stop
                    and not self._aborts
                    and not self._pending
                    and not self.engine.has_work()
                ):
                    self._wake.wait()
                done: list[tuple[RequestHandle, Event]] = []
                for rid, ids, params, stream, dropped, draft in self._pending:
                    try:
                        self.engine.add_request(
                            prompt_ids=ids, params=params, request_id=rid, stream=stream,
                            truncated_turns=dropped, draft=draft,
                        )
                    except Exception as e:  # answer this request; keep serving the others
                        h = self._handles.pop(rid, None)
                        if h is not None:
                            done.append((h, _error_result(rid, ids, e)))
                self._pending.clear()
                for rid in self._aborts:
                    res = self.engine.abort(rid)
                    h = self._handles.pop(rid, None)
                    if h is not None and res is not None:
                        done.append((h, res))
                self._aborts.clear()
                if self._stop and not self.engine.has_work():
                    stop = True
                else:
                    stop = False
            self._deliver(done)
            if stop:
                return
            # The step runs outside the lock so submit/abort never wait for a forward pass.
            try:
                out = self.engine.step() if self.engine.has_work() else None
            except Exception as e:  # never leave callers waiting on a dead thread
                out = None
                with self._lock:
                    failed = [s.request_id for s in [*self.engine.running, *self.engine.waiting]]
                    events = []
                    for rid in failed:
                        res = self.engine.abort(rid)
                        h = self._handles.pop(rid, None)
                        if h is not None and res is not None:
                            res.finish_reason, res.error = "error", f"{type(e).__name__}: {e}"
                            events.append((h, res))
                self._deliver(events)
            if out is None:
                continue
            with self._lock:
                events = []
                for d in out.deltas:
                    h = self._handles.get(d.request_id)
                    if h is not None:
                        events.append((h, d))
                for r in out.finished:
                    h = self._handles.pop(r.request_id, None)
                    if h is not None:
                        events.append((h, r))
            self._deliver(events)

    def _deliver(self, events: list[tuple[RequestHandle, Event]]) -> None:
        """Hand events to their handles (outside the lock). A callback that raises loses its own
        request — aborted, so it stops taking decode steps — never the engine thread."""
        for h, ev in events:
            try:
                h._put(ev)
            except Exception:
                log.exception("request %s: its event callback failed; aborting it", h.request_id)
                if not isinstance(ev, GenerationResult):
                    self.abort(h.request_id)


def _error_result(request_id: str, prompt_ids: list[int], e: Exception) -> GenerationResult:
    return GenerationResult(
        request_id=request_id, text="", token_ids=[], finish_reason="error", nfe=0,
        num_tokens=0, prompt_tokens=len(prompt_ids), time_to_first_text_s=None, total_s=0.0,
        error=f"{type(e).__name__}: {e}",
    )
