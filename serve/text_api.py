"""OpenAI's text endpoints over the engine: ``/v1/models``, ``/v1/chat/completions`` and the
legacy ``/v1/completions``, JSON or server-sent events, as :func:`routes` for the server's app.

One module per part: ``text_requests`` types and checks the bodies (pydantic, strict),
``text_service`` submits them to the shared ``EngineWorker`` from asyncio (one batch for every
request in flight; a client that goes away has its request aborted), ``text_replies`` shapes
the answers and streams them. Errors come back in OpenAI's shape (``serve.http_api``).

Tools (``tools``, ``tool_choice``, ``parallel_tool_calls``) and structured output
(``response_format``) map onto the engine through ``engine.tools.tool_request`` and
``SamplingParams.response_format``; replies are parsed and streamed as tool calls by
``engine.replies`` (docs/api.md, "Tools and structured output").
"""

from __future__ import annotations

import uuid
from functools import partial

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from serve.http_api import ApiError, read_json, route
from serve.text_replies import ChatShape, CompletionShape, answer
from serve.text_requests import ChatCompletionRequest, CompletionRequest, parse
from serve.text_service import TextService


def routes(svc: TextService) -> list[Route]:
    """The text endpoints, answered by ``svc``."""
    return [
        route("/v1/models", "GET", partial(list_models, svc)),
        route("/v1/models/{name:path}", "GET", partial(get_model, svc)),
        route("/v1/chat/completions", "POST", partial(chat_completions, svc)),
        route("/v1/completions", "POST", partial(completions, svc)),
    ]


async def list_models(svc: TextService, request: Request) -> Response:
    return JSONResponse({"object": "list", "data": [svc.model_card()]})


async def get_model(svc: TextService, request: Request) -> Response:
    svc.check_model(request.path_params["name"])
    return JSONResponse(svc.model_card())


async def chat_completions(svc: TextService, request: Request) -> Response:
    req = parse(ChatCompletionRequest, await read_json(request, svc.max_body_bytes))
    assert isinstance(req, ChatCompletionRequest)
    svc.check_model(req.model)
    tr = req.tool_params(req.params(svc.default_params))
    rid = f"chatcmpl-{uuid.uuid4().hex[:24]}"
    messages = req.to_engine()
    q = await svc.submit(rid, req, tr.params, messages=messages, tools=tr.prompt_tools)
    names = tr.names if tr.parses_calls else None
    shape = ChatShape(rid, svc.model_name, names, messages=messages)
    return await answer(svc, request, rid, req, q, shape)


async def completions(svc: TextService, request: Request) -> Response:
    req = parse(CompletionRequest, await read_json(request, svc.max_body_bytes))
    assert isinstance(req, CompletionRequest)
    svc.check_model(req.model)
    params = req.params(svc.default_params)
    prompt = req.prompt
    ids = svc.worker.tokenizer.encode(prompt) if isinstance(prompt, str) else list(prompt)
    vocab = len(svc.worker.tokenizer.tok)
    if not ids or any(not 0 <= t < vocab for t in ids):
        raise ApiError(400, f"prompt token ids must be in 0..{vocab - 1}", "prompt")
    rid = f"cmpl-{uuid.uuid4().hex[:24]}"
    q = await svc.submit(rid, req, params, prompt_ids=ids)
    return await answer(svc, request, rid, req, q, CompletionShape(rid, svc.model_name))
