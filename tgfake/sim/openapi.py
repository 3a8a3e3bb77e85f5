"""``GET /sim/openapi.json``: an OpenAPI 3.1 document of the sim API, made from the app's router (once it runs).

Every route under ``/sim/`` and ``/api/llm-completions`` is walked (method, path, path parameters); what each
takes and answers comes from a :class:`RouteDoc`: on the handler itself (``@documented(answer, body=Model)``,
one line above it), or, for the model's routes (llmstub wraps its handlers, so they carry nothing), from
:data:`MODEL_ROUTES`. Body and answer schemas are the pydantic models' own JSON schemas, the same models that
parse the bodies (``read_body``), so the document cannot describe a body the server does not read.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from aiohttp import web
from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import JsonSchemaMode

from llmstub.generate.fixtures import CHUNKS_PARAMS, LIST_PARAMS
from llmstub.generate.routes import CHUNKS_PATH, LIST_PATH
from llmstub.rules import Rule
from tgfake.sim import answers
from tgfake.wire import sim_json

ATTR = "tgfake_route_doc"
DOCUMENTED_PREFIXES = ("/sim/", LIST_PATH)
"""The routes the document covers: the sim API and the model's own (its ``/v1`` is OpenAI's and Anthropic's API)."""
SKIPPED_METHODS = ("HEAD",)
"""aiohttp answers HEAD for every GET; the document lists the GET."""
REF = "#/components/schemas/{model}"


@dataclass(frozen=True, slots=True)
class Param:
    """A query (or path) parameter: its name, JSON schema and what it means."""

    name: str
    schema: dict[str, Any]
    description: str = ""
    where: str = "query"
    empty: bool = True
    """Whether ``?name=`` counts as not given (every sim query parameter; not the fixture routes')."""


def query(name: str, description: str, kind: str = "string", **schema: Any) -> Param:
    return Param(name, {"type": kind, **schema}, description)


def path(name: str, description: str, kind: str = "string", **schema: Any) -> Param:
    return Param(name, {"type": kind, **schema}, description, "path")


@dataclass(frozen=True, slots=True)
class RouteDoc:
    """What a route takes and answers: ``answer`` is a type pydantic can describe (a model, a union of models),
    None for an answer that is not JSON (``media`` says which types it is)."""

    answer: Any
    body: type[BaseModel] | Any | None = None
    params: tuple[Param, ...] = ()
    errors: tuple[int, ...] = ()
    media: tuple[str, ...] = ()
    summary: str = ""
    body_required: bool = True
    error: type[BaseModel] = answers.SimErrorAnswer
    answer_media: str = "application/json"
    form_files: tuple[str, ...] = ()
    """The body also as ``multipart/form-data``: the model's fields as form fields, these as file parts."""


H = TypeVar("H", bound=Callable[..., Awaitable[web.StreamResponse]])


def documented(
    answer: Any,
    *,
    body: type[BaseModel] | None = None,
    params: tuple[Param, ...] = (),
    errors: tuple[int, ...] = (),
    media: tuple[str, ...] = (),
    body_required: bool = True,
    form_files: tuple[str, ...] = (),
) -> Callable[[H], H]:
    """Mark a sim handler with what it takes and answers (the document reads it; the handler is unchanged)."""

    def mark(handler: H) -> H:
        summary = " ".join((handler.__doc__ or "").strip().split("\n\n", 1)[0].split())
        doc = RouteDoc(answer, body, params, errors, media, summary, body_required, form_files=form_files)
        setattr(handler, ATTR, doc)
        return handler

    return mark


BOT = query("bot", "The bot (id or @username) whose view this is; none: the stand's default bot.")
CHAT_ID = path("id", "The chat id (a person's id for a private chat, negative for a group)", "integer")

FIXTURE_PARAM = "See docs/completion-fixtures.md: the values each takes."

MODEL_ROUTES: dict[tuple[str, str], RouteDoc] = {
    ("GET", "/sim/llm/log"): RouteDoc(answers.LlmLog, summary="The model's journal of answered requests."),
    ("DELETE", "/sim/llm/log"): RouteDoc(answers.Ok, summary="Empty the model's journal."),
    ("PUT", "/sim/llm/script"): RouteDoc(
        answers.ScriptSet, body=list[Rule], errors=(413,), summary="Replace the model's rules (a JSON list)."
    ),
    ("POST", "/sim/llm/reset"): RouteDoc(answers.Ok, summary="Reset the model: rules, sequences, journal."),
    ("GET", LIST_PATH): RouteDoc(
        None,
        params=tuple(Param(name, {"type": "string"}, FIXTURE_PARAM, empty=False) for name in LIST_PARAMS),
        media=("application/json", "application/x-ndjson", "text/csv"),
        error=answers.OpenAIErrorBody,
        summary="Generated completion records (fixtures), as JSON, NDJSON or CSV.",
    ),
    ("GET", CHUNKS_PATH): RouteDoc(
        None,
        params=tuple(Param(name, {"type": "string"}, FIXTURE_PARAM, empty=False) for name in CHUNKS_PARAMS),
        media=("application/json",),
        error=answers.OpenAIErrorBody,
        summary="The streamed chunks of one generated completion.",
    ),
}
"""The model's routes, by method and path: its handlers are closures made by ``Model.route``."""


@dataclass(frozen=True, slots=True)
class Operation:
    method: str
    path: str
    doc: RouteDoc | None


def operations(app: web.Application) -> Iterator[Operation]:
    """Every documented-prefix route of ``app``'s router, with its RouteDoc (None: nobody described it)."""
    for route in app.router.routes():
        resource = route.resource
        if resource is None or route.method in SKIPPED_METHODS:
            continue
        where = resource.canonical
        if not where.startswith(DOCUMENTED_PREFIXES):
            continue
        doc = getattr(route.handler, ATTR, None) or MODEL_ROUTES.get((route.method, where))
        yield Operation(route.method, where, doc)


def undocumented(app: web.Application) -> list[str]:
    """``METHOD /path`` of each covered route with no RouteDoc (the completeness test wants none)."""
    return [f"{op.method} {op.path}" for op in operations(app) if op.doc is None]


UNDESCRIBED = RouteDoc(answers.Answer, summary="Not described yet.")
STATUS_WORDS = {
    400: "The request is malformed: a body, field or parameter named in ``error``.",
    403: "Not allowed in this world (who may do this).",
    404: "Something named does not exist (a chat, message, bot, file, draft); under ``/s/<id>/``, the session.",
    408: "The wait timed out.",
    409: "The world is not in a state that allows this.",
    413: "The request body is too large.",
    429: "Too many of something (sessions).",
}


def document(app: web.Application, origin: str = "") -> dict[str, Any]:
    """The OpenAPI 3.1 document of the sim routes; ``origin`` (``http://host:port``) makes server URLs absolute."""
    ops = list(operations(app))
    inputs: list[tuple[tuple[str, str], JsonSchemaMode, TypeAdapter[Any]]] = []
    for op in ops:
        doc = op.doc or UNDESCRIBED
        key = f"{op.method} {op.path}"
        if doc.body is not None:
            inputs.append(((key, "body"), "validation", TypeAdapter(doc.body)))
        if doc.answer is not None:
            inputs.append(((key, "answer"), "validation", TypeAdapter(doc.answer)))
        inputs.append(((key, "error"), "validation", TypeAdapter(doc.error)))
    schemas, defs = TypeAdapter.json_schemas(inputs, ref_template=REF)
    components = defs.get("$defs", {})
    paths: dict[str, dict[str, Any]] = {}
    for op in ops:
        key = f"{op.method} {op.path}"
        parts = {name[1]: schema for (name, _), schema in schemas.items() if name[0] == key}
        paths.setdefault(op.path, {})[op.method.lower()] = _operation(op, parts, components)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "tgfake simulation API",
            "version": "1",
            "description": (
                "The test's side of the stand: play the people, steer the world, read what the bot did. "
                "Every route also serves one session under /s/{session}/ (the second server). The Bot API "
                "(/bot<token>/<method>) and the model's /v1 are the real services' APIs and are not described here."
            ),
        },
        "servers": document_servers(origin),
        "paths": paths,
        "components": {"schemas": components},
    }


def document_servers(origin: str) -> list[dict[str, Any]]:
    return [
        {"url": origin or "/", "description": "The default session"},
        {
            "url": f"{origin}/s/{{session}}",
            "description": "One session opened with POST /sim/sessions",
            "variables": {"session": {"default": "1", "description": "The session id"}},
        },
    ]


def _operation(op: Operation, schemas: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    doc = op.doc or UNDESCRIBED
    out: dict[str, Any] = {"operationId": _operation_id(op)}
    if doc.summary:
        out["summary"] = doc.summary
    params = [p for p in doc.params if p.where == "query"]
    declared = {p.name: p for p in doc.params if p.where == "path"}
    names = [part[1:-1] for part in op.path.split("/") if part.startswith("{") and part.endswith("}")]
    listed = [declared.get(name) or Param(name, {"type": "string"}, "", "path") for name in names]
    out["parameters"] = [_param(p) for p in listed + params]
    if doc.body is not None:
        body_schema = schemas["body"]
        bodies = {"application/json": {"schema": body_schema}}
        if doc.form_files:
            bodies["multipart/form-data"] = {"schema": _form(components, body_schema, doc.form_files)}
        out["requestBody"] = {"required": doc.body_required, "content": bodies}
    ok: dict[str, Any] = {"description": "Done"}
    content: dict[str, Any] = {}
    if doc.answer is not None:
        content[doc.answer_media] = {"schema": schemas["answer"]}
    for media in doc.media:
        content.setdefault(media, {"schema": {"type": "string"} if media.startswith("text/") else {}})
    if content:
        ok["content"] = content
    responses: dict[str, Any] = {"200": ok}
    statuses = {404, *doc.errors}
    if doc.body is not None:
        statuses |= {400, 413}
    if doc.params or names:
        statuses.add(400)
    error = {"application/json": {"schema": schemas["error"]}}
    for status in sorted(statuses):
        responses[str(status)] = {"description": STATUS_WORDS.get(status, "Refused"), "content": error}
    out["responses"] = responses
    return out


def _form(components: dict[str, Any], body: dict[str, Any], files: tuple[str, ...]) -> dict[str, Any]:
    """The body model's schema as a form: scalar fields as they are (sent as text), ``files`` as file parts."""
    model = components[body["$ref"].rsplit("/", 1)[1]]
    scalars = ("string", "integer", "number", "boolean")
    properties = {
        name: prop
        for name, prop in model["properties"].items()
        if name not in files and all(option.get("type") in scalars for option in prop.get("anyOf", [prop]))
    }
    for name in files:
        properties[name] = {"type": "string", "format": "binary", "description": f"the {name} as a file part"}
    return {"type": "object", "properties": properties}


def _param(p: Param) -> dict[str, Any]:
    out: dict[str, Any] = {"name": p.name, "in": p.where, "required": p.where == "path", "schema": p.schema}
    if p.description:
        out["description"] = p.description
    if p.where == "query" and p.empty:
        out["allowEmptyValue"] = True
    return out


def _operation_id(op: Operation) -> str:
    words = [w.strip("{}") for w in op.path.strip("/").replace("-", "_").split("/")]
    return op.method.lower() + "_" + "_".join(w for w in words if w)


class Cache:
    """The document of a running app, made on first request: its router is frozen by then, so it stays true."""

    def __init__(self) -> None:
        self.base: dict[str, Any] | None = None

    def document(self, app: web.Application, origin: str) -> dict[str, Any]:
        if self.base is None:
            self.base = document(app)
        return {**self.base, "servers": document_servers(origin)}


CACHE = web.AppKey("tgfake.openapi", Cache)
routes = web.RouteTableDef()


def register(app: web.Application) -> None:
    """Keep the document's cache on ``app`` (:mod:`tgfake.sim` adds :data:`routes` with the others)."""
    app[CACHE] = Cache()


@routes.get("/sim/openapi.json")
@documented(answers.Answer)
async def openapi(request: web.Request) -> web.Response:
    """This document."""
    return sim_json(request.app[CACHE].document(request.app, str(request.url.origin())))
