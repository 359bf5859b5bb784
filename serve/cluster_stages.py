"""The speech stages and the engine as a front-end of ``diffvoice cluster`` sees them: objects
with the local ones' interfaces (:class:`voice.asr.Transcriber`, :class:`voice.tts.Synthesizer`,
:class:`engine.EngineWorker` under :class:`voice.llm.LocalLLM` and the text API) that call the
ASR, TTS and engine deployments through Ray Serve deployment handles (serve/cluster.py).

Every call blocks and runs in a worker thread, as the local models' calls do (the speech
scheduler's workers, the LLM stream threads); Serve's router runs on its own event loop, so a
thread may wait on a response. A replica that dies under a speech call gets the call again on
another replica (:data:`RETRIES` times); anything else fails the turn with a one-line error,
which the session sends as ``turn_failed``.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import numpy as np
from ray import exceptions as rex
from ray.serve.exceptions import RequestCancelledError

from engine import GenerationResult, RequestError, SamplingParams, TextDelta
from engine.worker import RequestHandle
from voice.asr import Heard
from voice.tts import SpeechChunk

log = logging.getLogger("serve.cluster")

RETRIES = 2  # a speech call whose replica died is sent again, to another replica, this often
_RETRY_PAUSE_S = 0.2  # the router learns of a dead replica within a moment; give it one
SPEECH_TIMEOUT_S = 120.0  # a speech call that takes longer fails its turn, never hangs it
# A replica that died, or that Serve found unreachable: the call may go to another one.
_REPLICA_GONE = (rex.RayActorError, rex.ActorUnavailableError)


class StageError(RuntimeError):
    """A call to another deployment failed; the message is one line (the turn's error)."""


def _unwrap(e: BaseException, stage: str) -> BaseException:
    """The stage's own exception (``RecognitionTimeout``, ``RequestError``...) out of Ray's
    wrapper, whose text holds a remote traceback; anything else as one line."""
    if isinstance(e, rex.RayTaskError) and isinstance(e.cause, Exception):
        return e.cause
    first = (str(e).strip().splitlines() or [type(e).__name__])[0]
    return StageError(f"{stage}: {type(e).__name__}: {first}")


def _call(stage: str, attempt: Callable[[], Any]) -> Any:
    """``attempt()`` with :data:`RETRIES` more tries while its replica is the one that failed."""
    for n in itertools.count():
        try:
            return attempt()
        except _REPLICA_GONE as e:
            if n >= RETRIES:
                raise _unwrap(e, stage) from None
            log.warning("%s replica lost (%s); trying another", stage, type(e).__name__)
            time.sleep(_RETRY_PAUSE_S)
        except rex.RayTaskError as e:
            raise _unwrap(e, stage) from None
        except TimeoutError:
            raise StageError(f"{stage} did not answer within {SPEECH_TIMEOUT_S:.0f} s") from None
    raise AssertionError("unreachable")


class ClusterTranscriber:
    """Whisper on the ASR deployment: ``transcribe`` and ``hear`` as
    :class:`voice.asr.Transcriber`'s."""

    def __init__(self, handle: Any, window_s: int) -> None:
        self.handle, self.window_s = handle, window_s

    def load(self) -> None:
        """Loaded on the ASR replicas already."""

    def transcribe(self, audio: np.ndarray, stop: threading.Event | None = None) -> str:
        """The utterance's transcript (``stop`` is accepted for the interface's sake: a call
        in flight runs to its end)."""
        a = np.asarray(audio)
        if len(a) == 0:
            return ""
        return _call("asr", lambda: self.handle.transcribe.remote(a).result(
            timeout_s=SPEECH_TIMEOUT_S))

    def hear(self, audio: np.ndarray, stop: threading.Event | None = None) -> Heard:
        """The transcript with Whisper's P(the sentence ended there), as
        :meth:`voice.asr.Transcriber.hear` (the end-of-turn decision at a pause uses it)."""
        a = np.asarray(audio)
        if len(a) == 0:
            return Heard("")
        text, ending = _call("asr", lambda: self.handle.hear.remote(a).result(
            timeout_s=SPEECH_TIMEOUT_S))
        return Heard(text, ending)


class ClusterSynthesizer:
    """Piper on the TTS deployment, streamed: ``synthesize_stream`` yields each chunk as the
    replica makes it, as :class:`voice.tts.Synthesizer`'s does."""

    def __init__(self, handle: Any, sample_rate: int) -> None:
        self.handle, self.sample_rate = handle.options(stream=True), sample_rate

    def load(self) -> None:
        """Loaded on the TTS replicas already."""

    def synthesize_stream(self, text: str, first_max_chars: int = 40) -> Iterator[SpeechChunk]:
        sent = 0  # chunks already yielded: a retry after a lost replica skips them
        for n in itertools.count():
            got = 0
            gen = self.handle.synthesize_stream.remote(text, first_max_chars)
            try:
                for chunk in gen:
                    got += 1
                    if got > sent:
                        sent = got
                        yield chunk
                return
            except _REPLICA_GONE as e:
                if n >= RETRIES:
                    raise _unwrap(e, "tts") from None
                log.warning("tts replica lost (%s); trying another", type(e).__name__)
                time.sleep(_RETRY_PAUSE_S)
            except rex.RayTaskError as e:
                raise _unwrap(e, "tts") from None
            finally:
                gen.cancel()  # the consumer stopped early (barge-in): stop the replica too

    def synthesize(self, text: str) -> np.ndarray:
        chunks = [c.audio for c in self.synthesize_stream(text)]
        return np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int16)


class _Request(RequestHandle):
    """One engine request in flight, read as a local one is (events, ``result``), with the
    streamed call that carries it (cancel it to stop the request)."""

    def __init__(self, rid: str, gen: Any, on_event: Callable | None) -> None:
        super().__init__(rid, on_event)
        self.gen = gen
        self.text: list[str] = []


class ClusterWorker:
    """The engine deployment as an :class:`engine.EngineWorker`: ``submit`` (bad requests raise
    :class:`RequestError` here, synchronously), ``abort``, ``tokenizer``, and ``engine`` for the
    context sizes the text API quotes. Each request is one streamed call; its events reach
    ``on_event`` from a pump thread. Aborting cancels the call, whichever replica holds it."""

    def __init__(self, handle: Any, tokenizer: Any, max_len: int, model_cfg: Any) -> None:
        self.handle = handle.options(stream=True)
        self.tokenizer = tokenizer
        self.engine = SimpleNamespace(max_len=max_len, model=SimpleNamespace(cfg=model_cfg))
        # request ids are the caller's; several front-ends share an engine replica
        self._prefix = uuid.uuid4().hex[:8]
        self._ids = itertools.count()
        self._lock = threading.Lock()
        self._requests: dict[str, _Request] = {}

    def submit(
        self,
        messages: list[dict] | None,
        params: SamplingParams | None = None,
        *,
        stream: bool = False,
        request_id: str | None = None,
        on_event: Callable[[TextDelta | GenerationResult], None] | None = None,
        tools: list[dict] | None = None,
        prompt_ids: list[int] | None = None,
    ) -> _Request:
        rid = request_id or f"w-{next(self._ids)}"
        with self._lock:
            if rid in self._requests:
                raise RequestError(f"request id {rid} is already in use")
        gen = self.handle.run.remote(
            f"{self._prefix}:{rid}", messages, params or SamplingParams(), stream, tools,
            prompt_ids,
        )
        try:
            first = next(gen)  # ("accepted",) or ("refused", message, reason)
        except (rex.RayError, RequestCancelledError, StopIteration) as e:
            raise RequestError(f"the engine is unavailable ({_unwrap(e, 'engine')})") from None
        if first[0] == "refused":
            raise RequestError(first[1], first[2])
        req = _Request(rid, gen, on_event)
        with self._lock:
            self._requests[rid] = req
        threading.Thread(target=self._pump, args=(req,), name=f"engine-{rid}",
                         daemon=True).start()  # fmt: skip
        return req

    def _pump(self, req: _Request) -> None:
        final: GenerationResult | None = None
        error = None
        try:
            for ev in req.gen:
                if isinstance(ev, GenerationResult):
                    final = ev
                    break
                req.text.append(ev.text)
                self._deliver(req, TextDelta(req.request_id, ev.text))
        except RequestCancelledError:
            error = "abort"
        except Exception as e:  # the replica died, or the stream broke: this request fails
            error = str(_unwrap(e, "engine"))
        if final is None:
            text = "".join(req.text)
            final = GenerationResult(
                req.request_id, text, [], "abort" if error == "abort" else "error", 0, 0, 0,
                None, 0.0, error=None if error == "abort" else (error or "the stream ended"),
            )
        else:
            final.request_id = req.request_id
        with self._lock:
            self._requests.pop(req.request_id, None)
        self._deliver(req, final)

    @staticmethod
    def _deliver(req: _Request, ev: TextDelta | GenerationResult) -> None:
        try:
            req._put(ev)  # to on_event or the handle's queue; a result ends the request
        except Exception:
            log.exception("event handler of %s failed", req.request_id)

    def abort(self, request_id: str) -> None:
        """Stop a request; its handler receives a result with ``finish_reason == "abort"``."""
        with self._lock:
            req = self._requests.get(request_id)
        if req is not None:
            req.gen.cancel()

    def active(self) -> int:
        with self._lock:
            return len(self._requests)

    def close(self) -> None:
        with self._lock:
            reqs = list(self._requests.values())
        for r in reqs:
            r.gen.cancel()
