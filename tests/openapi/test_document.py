"""``GET /sim/openapi.json``: a valid OpenAPI 3.1 document that lists every sim and model route, with the body
models the routes really read."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from openapi_spec_validator import validate
from pydantic import BaseModel

from llmstub import Model
from tests.conftest import Wire
from tgfake.app import create_app
from tgfake.clock import ManualClock
from tgfake.options import Options
from tgfake.sim.openapi import DOCUMENTED_PREFIXES, SKIPPED_METHODS, operations, undocumented


@pytest.fixture
async def model_wire(clock: ManualClock) -> AsyncIterator[Wire]:
    """A stand with the scripted model mounted (its /sim/llm and fixture routes)."""
    async with TestClient(TestServer(create_app(Options(poll_max=2.0), model=Model(), clock=clock))) as client:
        yield Wire(client)


async def served(wire: Wire, prefix: str = "") -> dict[str, Any]:
    resp = await wire.client.get(prefix + "/sim/openapi.json")
    assert resp.status == 200
    assert resp.content_type == "application/json"
    document: dict[str, Any] = await resp.json()
    return document


def router_routes(wire: Wire) -> set[tuple[str, str]]:
    """What the app's router serves under the documented prefixes, read here without the module under test."""
    app = wire.client.app
    assert app is not None
    return {
        (route.method.lower(), route.resource.canonical)
        for route in app.router.routes()
        if route.resource is not None
        and route.resource.canonical.startswith(DOCUMENTED_PREFIXES)
        and route.method not in SKIPPED_METHODS
    }


async def test_every_sim_and_model_route_is_described(model_wire: Wire) -> None:
    """A route added without a description (``@documented`` or MODEL_ROUTES) fails here, naming it."""
    app = model_wire.client.app
    assert app is not None
    assert undocumented(app) == []
    document = await served(model_wire)
    listed = {(verb, path) for path, item in document["paths"].items() for verb in item}
    assert listed == router_routes(model_wire)
    assert {("put", "/sim/llm/script"), ("get", "/api/llm-completions/chunks")} <= listed
    assert {("post", "/sim/message"), ("get", "/sim/chat/{id}/drafts/{draft_id}")} <= listed
    assert not any(path.startswith("/v1") for path in document["paths"])


async def test_the_document_is_valid_openapi_3_1(model_wire: Wire) -> None:
    document = await served(model_wire)
    assert document["openapi"] == "3.1.0"
    validate(document)  # raises on any violation of the OpenAPI 3.1 schema


async def test_without_a_model_its_routes_are_absent(wire: Wire) -> None:
    document = await served(wire)
    assert "/sim/message" in document["paths"]
    assert not any(path.startswith(("/sim/llm", "/api/")) for path in document["paths"])


async def test_servers_name_the_origin_and_the_session_prefix(wire: Wire) -> None:
    document = await served(wire)
    origin = str(wire.client.make_url("")).rstrip("/")
    root, session = document["servers"]
    assert root["url"] == origin
    assert session["url"] == origin + "/s/{session}"
    assert "session" in session["variables"]
    status, opened = await wire.sim("POST", "/sim/sessions", {"id": "doc"})
    assert status == 200, opened
    assert (await served(wire, "/s/doc"))["paths"] == document["paths"]


async def test_path_and_query_parameters(wire: Wire) -> None:
    paths = (await served(wire))["paths"]
    history = {p["name"]: p for p in paths["/sim/chat/{id}/drafts/{draft_id}"]["get"]["parameters"]}
    assert history["id"] == {**history["id"], "in": "path", "required": True, "schema": {"type": "integer"}}
    assert history["draft_id"]["schema"] == {"type": "integer"}
    assert (history["bot"]["in"], history["bot"]["required"]) == ("query", False)
    wait = {p["name"]: p["schema"] for p in paths["/sim/wait"]["get"]["parameters"]}
    assert wait["timeout"] == {"type": "number", "minimum": 0, "maximum": 60.0}
    theme = paths["/sim/webapp/theme/{scheme}"]["get"]["parameters"][0]
    assert theme["schema"]["enum"] == ["light", "dark"]


async def test_bodies_and_answers_are_the_pydantic_models(wire: Wire) -> None:
    """The document's schemas are the models' own (defaults, bounds, docstrings), answers and errors included."""
    from tgfake.models import MessageIn

    document = await served(wire)
    message = document["paths"]["/sim/message"]["post"]
    assert message["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/MessageIn"}
    schemas = document["components"]["schemas"]
    expected = MessageIn.model_json_schema(ref_template="#/components/schemas/{model}")
    assert schemas["MessageIn"] == expected
    assert schemas["MessageIn"]["properties"]["chat_id"]["minimum"] == -1997852516351  # td's last channel id
    ok = message["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok == {"$ref": "#/components/schemas/Sent"}
    assert set(schemas["Sent"]["required"]) == {"message_id", "update_id"}
    assert set(message["responses"]) >= {"200", "400", "404", "413"}
    error = message["responses"]["400"]["content"]["application/json"]["schema"]
    assert schemas[error["$ref"].rsplit("/", 1)[1]]["required"] == ["error"]


def _scalar_field(model: type[BaseModel]) -> str:
    """A field that takes no JSON array (so ``[[]]`` is wrong for it and only for a model that has it)."""
    scalars = ("string", "integer", "number", "boolean", "null")
    for name, prop in model.model_json_schema()["properties"].items():
        if all(option.get("type") in scalars for option in prop.get("anyOf", [prop])):
            return str(name)
    raise AssertionError(f"{model.__name__} has no scalar field")


async def test_each_route_reads_the_body_model_it_documents(wire: Wire) -> None:
    """A wrong-typed field of the documented model is refused naming that field: the handler reads that model."""
    status, made = await wire.sim("POST", "/sim/chats", {"type": "supergroup", "title": "Docs"})
    assert status == 200, made
    app = create_app()
    checked = 0
    for op in operations(app):
        assert op.doc is not None
        body = op.doc.body
        if not (isinstance(body, type) and issubclass(body, BaseModel)):
            continue
        field = _scalar_field(body)
        url = op.path.replace("{id}", str(made["chat_id"])).replace("{bot}", str(wire.stand.default_bot.id))
        got = await wire.sim(op.method, url, {field: [[]]})
        assert got[0] == 400, (op.path, field, got)
        assert re.match(rf"invalid JSON body: {field}[.:]", got[1]["error"]), (op.path, field, got)
        checked += 1
    assert checked >= 25  # the loop reached the routes (29 when written)


async def test_the_file_route_takes_json_or_a_form(wire: Wire) -> None:
    """``POST /sim/file``'s form: FileIn's scalar fields as form fields, photo and document as file parts."""
    content = (await served(wire))["paths"]["/sim/file"]["post"]["requestBody"]["content"]
    assert content["application/json"]["schema"] == {"$ref": "#/components/schemas/FileIn"}
    form = content["multipart/form-data"]["schema"]["properties"]
    assert form["photo"]["format"] == form["document"]["format"] == "binary"
    assert form["caption"]["type"] == "string"
    assert form["user_id"]["minimum"] == 0
