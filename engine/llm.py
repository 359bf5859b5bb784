"""The synchronous face of the engine: load a model, generate replies for a list of chats."""

from __future__ import annotations

from collections.abc import Iterator

from engine.config import EngineConfig
from engine.engine import Engine
from engine.sampling import SamplingParams
from engine.sequence import GenerationResult, TextDelta


class LLM:
    """``LLM.load(...)`` then ``generate`` (batched), ``chat`` or ``stream``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @classmethod
    def load(cls, model: str | None = None, **kwargs) -> LLM:
        cfg = EngineConfig(**({"model": model} if model else {}), **kwargs)
        return cls(Engine.load(cfg))

    @property
    def tokenizer(self):
        return self.engine.tokenizer

    def generate(
        self,
        conversations: list[list[dict]],
        params: SamplingParams | None = None,
        tools: list[dict] | None = None,
    ) -> list[GenerationResult]:
        """Replies for several conversations, decoded together in shared forward passes.

        ``tools`` are rendered into each prompt; turn the replies into OpenAI tool calls with
        ``engine.replies.parse_tool_calls`` (``engine.tools.tool_request`` maps ``tool_choice``
        onto ``params``)."""
        ids = [self.engine.add_request(c, params, tools=tools) for c in conversations]
        done: dict[str, GenerationResult] = {}
        while len(done) < len(ids):
            for r in self.engine.step().finished:
                done[r.request_id] = r
        return [done[i] for i in ids]

    def chat(
        self,
        messages: list[dict],
        params: SamplingParams | None = None,
        tools: list[dict] | None = None,
    ) -> GenerationResult:
        return self.generate([messages], params, tools)[0]

    def stream(
        self, messages: list[dict], params: SamplingParams | None = None
    ) -> Iterator[TextDelta | GenerationResult]:
        """Committed text as it becomes final, then the result."""
        rid = self.engine.add_request(messages, params, stream=True)
        while True:
            out = self.engine.step()
            for d in out.deltas:
                if d.request_id == rid:
                    yield d
            for r in out.finished:
                if r.request_id == rid:
                    yield r
                    return
