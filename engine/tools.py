"""Tool calling: conversations with tool calls, tools in the prompt, tool calls out of the reply.

The contract (docs/api.md, "Tools"): tools are OpenAI function schemas, rendered into the prompt
by the checkpoint's own chat template (``apply_chat_template(..., tools=...)``); a model calls a
tool by writing, Hermes/Qwen style,
``<tool_call>{"name": "NAME", "arguments": {...}}</tool_call>`` (one or more), which
``engine.replies.parse_tool_calls`` turns into OpenAI ``tool_calls``. Tool results come back as
``{"role": "tool", "tool_call_id": ..., "content": ...}`` messages.

A template that knows nothing of tools gets the documented fallback (:func:`fallback_messages`):
the tool list and the calling convention go into the system message, the assistant's earlier
calls become ``<tool_call>`` text and tool results become user turns wrapped in
``<tool_response>`` — the same text Qwen's own template produces.

``tool_choice`` ``required`` and a named function are enforced by grammar (:func:`tool_grammar`,
a Lark grammar for llguidance that embeds each function's ``parameters`` schema).
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass

from engine.sampling import SamplingParams

OPEN, CLOSE = "<tool_call>", "</tool_call>"
ROLES = ("system", "user", "assistant", "tool")


class ToolFormatError(ValueError):
    """Tools, a tool choice or a conversation with tool calls that cannot be used as given."""


# --- validation -------------------------------------------------------------------------------
def normalize_tools(tools: object) -> list[dict]:
    """OpenAI ``tools`` → the same list, checked: ``[{"type": "function", "function": {...}}]``."""
    if tools is None:
        return []
    if not isinstance(tools, list):
        raise ToolFormatError("tools must be a list of {type: 'function', function: {...}}")
    out, seen = [], set()
    for i, t in enumerate(tools):
        if not isinstance(t, dict) or t.get("type", "function") != "function":
            raise ToolFormatError(f"tools[{i}] must be {{type: 'function', function: {{...}}}}")
        f = t.get("function")
        if not isinstance(f, dict):
            raise ToolFormatError(f"tools[{i}].function must be an object")
        name = f.get("name")
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", name):
            raise ToolFormatError(
                f"tools[{i}].function.name must be 1-64 letters, digits, '_', '.' or '-'"
            )
        if name in seen:
            raise ToolFormatError(f"tools[{i}]: the function name {name!r} is used twice")
        seen.add(name)
        params = f.get("parameters", {"type": "object", "properties": {}})
        if not isinstance(params, dict):
            raise ToolFormatError(f"tools[{i}].function.parameters must be a JSON schema object")
        desc = f.get("description")
        if desc is not None and not isinstance(desc, str):
            raise ToolFormatError(f"tools[{i}].function.description must be a string")
        fn = {"name": name, "parameters": params}
        if desc:
            fn["description"] = desc
        if f.get("strict") is not None:
            fn["strict"] = bool(f["strict"])
        out.append({"type": "function", "function": fn})
    return out


def normalize_tool_choice(choice: object, tools: list[dict]) -> str | dict:
    """``auto`` | ``none`` | ``required`` | ``{"type": "function", "function": {"name": N}}``."""
    if choice is None:
        return "auto" if tools else "none"
    if choice in ("auto", "none", "required"):
        if choice == "required" and not tools:
            raise ToolFormatError("tool_choice 'required' needs at least one tool")
        return choice
    if isinstance(choice, dict) and choice.get("type") == "function":
        f = choice.get("function")
        name = f.get("name") if isinstance(f, dict) else None
        if not isinstance(name, str) or name not in {t["function"]["name"] for t in tools}:
            raise ToolFormatError(
                f"tool_choice names {str(name)[:64]!r}, which is not one of the tools"
            )
        return {"type": "function", "function": {"name": name}}
    raise ToolFormatError(
        "tool_choice must be 'auto', 'none', 'required' or "
        "{type: 'function', function: {name: ...}}"
    )


def _arguments(i: int, j: int, args: object) -> dict:
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except json.JSONDecodeError:
            raise ToolFormatError(
                f"messages[{i}].tool_calls[{j}].function.arguments is not valid JSON"
            ) from None
    if not isinstance(args, dict):
        raise ToolFormatError(f"messages[{i}].tool_calls[{j}].function.arguments must be an object")
    return args


def normalize_messages(messages: object) -> list[dict]:
    """Check a conversation and put it in the shape chat templates expect.

    Roles: system, user, assistant (string content, or ``None``/absent when it has
    ``tool_calls``) and tool (``content`` plus the ``tool_call_id`` it answers). Tool calls keep
    their id; their ``arguments`` become a dict, as Hugging Face chat templates want them (the
    OpenAI wire format sends a JSON string).
    """
    if not isinstance(messages, list) or not messages:
        raise ToolFormatError("messages must be a non-empty list")
    out = []
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or m.get("role") not in ROLES:
            raise ToolFormatError(
                f"messages[{i}] needs a role of system, user, assistant or tool"
            )
        role, content = m["role"], m.get("content")
        calls = m.get("tool_calls") or []
        if role == "assistant" and calls:
            if not isinstance(calls, list):
                raise ToolFormatError(f"messages[{i}].tool_calls must be a list")
            norm = []
            for j, c in enumerate(calls):
                f = c.get("function") if isinstance(c, dict) else None
                if not isinstance(f, dict) or not isinstance(f.get("name"), str):
                    raise ToolFormatError(
                        f"messages[{i}].tool_calls[{j}] needs function.name and function.arguments"
                    )
                cid = c.get("id") or f"call_{i}_{j}"
                if not isinstance(cid, str):
                    raise ToolFormatError(f"messages[{i}].tool_calls[{j}].id must be a string")
                args = _arguments(i, j, f.get("arguments", {}))
                norm.append(
                    {"id": cid, "type": "function",
                     "function": {"name": f["name"], "arguments": args}}
                )
            if content is not None and not isinstance(content, str):
                raise ToolFormatError(f"messages[{i}].content must be a string")
            out.append({"role": "assistant", "content": content or "", "tool_calls": norm})
            continue
        if calls:
            raise ToolFormatError(f"messages[{i}]: only assistant messages carry tool_calls")
        if not isinstance(content, str):
            raise ToolFormatError(f"messages[{i}] needs string content")
        msg = {"role": role, "content": content}
        if role == "tool":
            cid = m.get("tool_call_id")
            if cid is not None and not isinstance(cid, str):
                raise ToolFormatError(f"messages[{i}].tool_call_id must be a string")
            msg["tool_call_id"] = cid or ""
            if isinstance(m.get("name"), str):
                msg["name"] = m["name"]
        out.append(msg)
    return out


# --- rendering --------------------------------------------------------------------------------
@dataclass(frozen=True)
class TemplateSupport:
    """What a chat template renders itself (read from its source)."""

    tools: bool  # reads the ``tools`` variable
    tool_calls: bool  # renders an assistant message's ``tool_calls``
    tool_role: bool  # renders ``tool`` messages

    @classmethod
    def of(cls, template: str) -> TemplateSupport:
        return cls(
            tools=re.search(r"\btools\b", template) is not None,
            tool_calls="tool_calls" in template,
            tool_role=re.search(r"""['"]tool['"]""", template) is not None,
        )


def tools_system_text(tools: list[dict]) -> str:
    """The fallback's tool instructions (Hermes/Qwen wording, compact)."""
    lines = [
        "You may call one or more functions to assist with the user query.",
        "You are provided with function signatures within <tools></tools> XML tags:",
        "<tools>",
        *(json.dumps(t, ensure_ascii=False) for t in tools),
        "</tools>",
        "For each function call, return a json object with function name and arguments within "
        f'{OPEN}{CLOSE} XML tags:',
        f'{OPEN}{{"name": <function-name>, "arguments": <args-json-object>}}{CLOSE}',
    ]
    return "\n".join(lines)


def call_text(calls: list[dict]) -> str:
    """Assistant tool calls as the text a model writes for them."""
    return "\n".join(
        OPEN
        + json.dumps(
            {"name": c["function"]["name"], "arguments": c["function"]["arguments"]},
            ensure_ascii=False,
        )
        + CLOSE
        for c in calls
    )


def fallback_messages(
    messages: list[dict], tools: list[dict], support: TemplateSupport
) -> list[dict]:
    """Rewrite what the template cannot render into plain system/user/assistant text."""
    out = []
    for m in messages:
        if m["role"] == "assistant" and m.get("tool_calls") and not support.tool_calls:
            text = "\n".join(x for x in (m["content"], call_text(m["tool_calls"])) if x)
            out.append({"role": "assistant", "content": text})
        elif m["role"] == "tool" and not support.tool_role:
            out.append({"role": "user", "content": f"<tool_response>\n{m['content']}\n"
                                                   "</tool_response>"})
        else:
            out.append(m)
    if tools and not support.tools:
        text = tools_system_text(tools)
        if out and out[0]["role"] == "system":
            out[0] = {**out[0], "content": f"{out[0]['content']}\n\n{text}"}
        else:
            out.insert(0, {"role": "system", "content": text})
    return out


# --- parsing ----------------------------------------------------------------------------------
# --- tool choice → grammar --------------------------------------------------------------------
def _lark_str(s: str) -> str:
    return json.dumps(s)


def tool_grammar(tools: list[dict], choice: str | dict, parallel: bool = True) -> str | None:
    """A Lark grammar (llguidance dialect) for replies that must call a tool, or None.

    ``required``: one or more calls (one when ``parallel`` is false) to any of the tools;
    a named choice: exactly one call to that function. Each call is
    ``<tool_call>{"name": "NAME", "arguments": ARGS}</tool_call>`` with ARGS valid against the
    function's ``parameters`` schema (compact JSON, so the keys and punctuation are forced and
    the model only fills the values).
    """
    if choice in ("auto", "none"):
        return None
    if isinstance(choice, dict):
        allowed = [t for t in tools if t["function"]["name"] == choice["function"]["name"]]
        parallel = False
    else:
        allowed = tools
    # The separators json.dumps and Qwen's template use, so that forced text reads as trained.
    opts = {"whitespace_flexible": False, "item_separator": ", ", "key_separator": ": "}
    rules, alts = [], []
    for i, t in enumerate(allowed):
        params = dict(t["function"]["parameters"] or {"type": "object"})
        params.setdefault("type", "object")
        params["x-guidance"] = {**params.get("x-guidance", {}), **opts}
        head = OPEN + '{"name": ' + json.dumps(t["function"]["name"]) + ', "arguments": '
        rules.append(f"args{i}: %json {json.dumps(params)}")
        alts.append(f"call{i}: {_lark_str(head)} args{i} {_lark_str('}' + CLOSE)}")
    calls = " | ".join(f"call{i}" for i in range(len(allowed)))
    start = f"start: {calls}" if not parallel else f'start: ({calls}) ("\\n" ({calls}))*'
    return "\n".join([start, *alts, *rules])


@dataclass
class ToolRequest:
    """What a request with tools asks of the engine, from the OpenAI fields."""

    prompt_tools: list[dict]  # tools rendered into the prompt ([] for tool_choice "none")
    params: SamplingParams  # with the tool grammar for "required" / a named choice
    names: set[str]  # the callable functions (parsing ignores others)
    choice: str | dict

    @property
    def parses_calls(self) -> bool:
        return self.choice != "none" and bool(self.names)


def tool_request(
    params: SamplingParams,
    tools: object = None,
    tool_choice: object = None,
    parallel_tool_calls: bool | None = None,
) -> ToolRequest:
    """Check ``tools`` / ``tool_choice`` / ``parallel_tool_calls`` and map them onto a request.

    ``none`` keeps the tools out of the prompt (earlier calls and results in the conversation
    are still rendered) and parses no calls; ``auto`` renders them and parses whatever calls
    the model writes; ``required`` and a named function also constrain the reply by grammar, so
    it is nothing but calls. A tool grammar replaces a ``response_format`` (OpenAI's precedence:
    the forced call is the reply).
    """
    norm = normalize_tools(tools)
    choice = normalize_tool_choice(tool_choice, norm)
    if parallel_tool_calls is not None and not isinstance(parallel_tool_calls, bool):
        raise ToolFormatError("parallel_tool_calls must be true or false")
    grammar = tool_grammar(norm, choice, parallel_tool_calls is not False)
    if grammar is not None:
        params = dataclasses.replace(params, response_format={"type": "lark", "lark": grammar})
    names = {t["function"]["name"] for t in norm}
    return ToolRequest(norm if choice != "none" else [], params, names, choice)
