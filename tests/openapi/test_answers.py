"""Successful answers against the document: a tour of the sim API where every call succeeds (the fuzzer's requests
are mostly refused by the world, so its 200s are few), each answer validated with jsonschema against the 200 schema
the document gives for its route."""

from __future__ import annotations

import base64
import io
import json
from typing import Any

from jsonschema import Draft202012Validator
from PIL import Image

from tests.conftest import Wire

KB = json.dumps({"inline_keyboard": [[{"text": "Ping", "callback_data": "ping"}]]})


def png() -> str:
    out = io.BytesIO()
    Image.new("RGB", (4, 3), "red").save(out, "PNG")
    return base64.b64encode(out.getvalue()).decode()


class Checked:
    """Calls sim routes and validates each 200 answer against the document's schema for that operation."""

    def __init__(self, wire: Wire, document: dict[str, Any]) -> None:
        self.wire = wire
        self.document = document
        self.seen: set[tuple[str, str]] = set()

    async def __call__(self, verb: str, template: str, body: Any = None, **values: Any) -> Any:
        url = template.format(**values)
        resp = await self.wire.client.request(verb, url, json=body)
        assert resp.status == 200, (url, await resp.text())
        answer = await resp.json()
        schema = self.document["paths"][template.split("?")[0]][verb.lower()]["responses"]["200"]["content"]
        root = {**schema["application/json"]["schema"], "components": self.document["components"]}
        errors = [e.message for e in Draft202012Validator(root).iter_errors(answer)]
        assert errors == [], (verb, url, errors, answer)
        self.seen.add((verb, template.split("?")[0]))
        return answer


async def test_a_tour_of_successful_answers_matches_the_document(wire: Wire) -> None:
    resp = await wire.client.get("/sim/openapi.json")
    call = Checked(wire, await resp.json())
    await wire.ok("sendMessage", chat_id=4242, text="pick", reply_markup=KB)
    sent = await call("POST", "/sim/message", {"text": "hello"})
    await call("POST", "/sim/callback", {"label": "Ping"})
    await call("GET", "/sim/outbox?method=sendMessage")
    await call("GET", "/sim/outbox/count")
    await call("GET", "/sim/wait?method=sendMessage&timeout=0")
    await call("GET", "/sim/chat/{id}", id=4242)
    await call("GET", "/sim/chats")
    await call("GET", "/sim/state")
    await call("POST", "/sim/edit", {"message_id": sent["message_id"], "text": "hello again"})
    await call("POST", "/sim/react", {"message_id": sent["message_id"], "emoji": ["👍"]})
    await call("POST", "/sim/share", {"location": {"latitude": 1.5, "longitude": 2.5}})
    poll = await call("POST", "/sim/share", {"poll": {"question": "Tea?", "options": ["yes", "no"]}})
    await call("POST", "/sim/vote", {"message_id": poll["message_id"], "options": [0]})
    await call("POST", "/sim/forward", {"from_chat_id": 4242, "message_id": sent["message_id"]})
    await call("POST", "/sim/delete", {"message_id": sent["message_id"]})
    await call("POST", "/sim/file", {"photo": {"name": "dot.png", "data": png()}, "caption": "a dot"})
    await call("POST", "/sim/fault", {"method": "getMe", "code": 500, "times": 1})
    await call("DELETE", "/sim/fault")
    await call("GET", "/sim/clock")
    await call("POST", "/sim/clock", {"advance": 5})
    bot = await call("POST", "/sim/bots", {"username": "helper_bot"})
    await call("GET", "/sim/bots")
    made = await call("POST", "/sim/chats", {"title": "Team", "is_forum": True, "admins": [bot["bot"]["id"]]})
    cid = made["chat_id"]
    await call("POST", "/sim/chats/{id}/add", {"user": "bob"}, id=cid)
    await call("POST", "/sim/chats/{id}/promote", {"user": "bob", "rights": {"can_pin_messages": True}}, id=cid)
    await call("POST", "/sim/chats/{id}/demote", {"user": "bob"}, id=cid)
    await call("POST", "/sim/chats/{id}/restrict", {"user": "bob", "permissions": {"can_send_messages": False}}, id=cid)
    await call("POST", "/sim/chats/{id}/topics", {"name": "Support"}, id=cid)
    await call("POST", "/sim/chats/{id}/remove", {"user": "bob"}, id=cid)
    await call("POST", "/sim/chats/{id}/join", {"user": "carol"}, id=cid)
    await call("POST", "/sim/chats/{id}/leave", {"user": "carol"}, id=cid)
    group = await call("POST", "/sim/chats", {"type": "group", "title": "Old", "join_by_request": True})
    await call("POST", "/sim/chats/{id}/join-request", {"user": "dave"}, id=group["chat_id"])
    await call("POST", "/sim/chats/{id}/migrate", id=group["chat_id"])
    await call("POST", "/sim/block", {"user": 4242})
    await call("POST", "/sim/unblock", {"user": 4242})
    await call("GET", "/sim/webhook")
    await call("GET", "/sim/webapp/theme/{scheme}", scheme="dark")
    await call("POST", "/sim/webapp/launch", {"url": "https://example.org/app"})
    opened = await call("POST", "/sim/sessions", {"id": "tour"})
    await call("GET", "/sim/sessions")
    await call("DELETE", "/sim/sessions/{id}", id=opened["id"])
    await call("POST", "/sim/reset")
    assert len(call.seen) >= 35
