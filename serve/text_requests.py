"""The text API's requests, typed: ``/v1/chat/completions`` (:class:`ChatCompletionRequest`) and
``/v1/completions`` (:class:`CompletionRequest`) bodies, checked strictly by pydantic (``"8"`` is
not an integer and ``true`` is not a number; unknown fields are an error) and turned into the
engine's ``SamplingParams`` and messages. :func:`parse` answers a bad body with an
:class:`ApiError` that names the client's field.

Diffusion extras (``mode``, ``threshold``, ``block_size``, ...) ride along at the top level of
the body, which is where the ``openai`` client's ``extra_body`` puts them. To add a request
field: declare it here, take it out of ``UNSUPPORTED``, and use it in
:meth:`SamplingRequest.params` or :meth:`ChatCompletionRequest.to_engine`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator

from engine import SamplingParams
from engine.tools import ToolFormatError, ToolRequest, normalize_messages, tool_request
from serve.http_api import ApiError, validation_error

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


class SamplingRequest(_Strict):
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
    def _check(self) -> SamplingRequest:
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


class ChatCompletionRequest(SamplingRequest):
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

    def tool_params(self, params: SamplingParams) -> ToolRequest:
        """``params`` with this request's ``response_format`` and tool choice, as a
        :class:`ToolRequest` (tools for the prompt, the names to parse calls for)."""
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


class CompletionRequest(SamplingRequest):
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


def parse(model: type[SamplingRequest], body: Any) -> SamplingRequest:
    """``body`` as a ``model``, or a 400 :class:`ApiError` naming the field at fault."""
    try:
        return model.model_validate(body)
    except ValidationError as e:
        cause = e.errors(include_url=False)[0].get("ctx", {}).get("error")
        if isinstance(cause, _FieldError):
            raise ApiError(400, str(cause), cause.field) from None
        raise validation_error(e) from None
