"""Drive a stand from tests: a typed client over the HTTP sim API, a threaded stand, a bot subprocess.

Everything here talks HTTP to ``/sim/...`` (never to the stand's Python objects), so the same test runs
against a stand in this process, one started by ``tgfake`` elsewhere, or one in a compose container.
The client comes in a sync form (:class:`StandClient`, for pytest-bdd steps and plain tests) and an
async one (:class:`AsyncStandClient`); both share one implementation written as generators that yield
HTTP requests (:class:`_Core`), so the two cannot disagree.

Waiting is always server-held: ``GET /sim/wait`` parks the request until the bot makes a call, and a
condition over the chat or the outbox is re-checked after each call the bot makes. There is no sleep
loop anywhere; a timeout is an absolute deadline.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiohttp

from tgfake.text import to_html
from tgfake.world.people import user_id_for

__all__ = [
    "DEFAULT_BOT_TOKEN",
    "DEFAULT_GROUP_ID",
    "AlbumItem",
    "AsyncModelClient",
    "AsyncStandClient",
    "BotProcess",
    "Call",
    "ChatMessage",
    "ModelClient",
    "Person",
    "SimAPIError",
    "StandClient",
    "ThreadedStand",
    "bot_environment",
    "person",
]

T = TypeVar("T")

DEFAULT_BOT_TOKEN = "123456:tgfake"
"""The token handed to a bot under test when the stand accepts any token."""

DEFAULT_GROUP_ID = -100000004242
"""The group the stand puts alice in when she writes with ``chat_type`` group (``-100000000000 - 4242``)."""

DEFAULT_TIMEOUT = 10.0
"""How long a wait for the bot lasts unless told otherwise: generous, since a green run never waits it out."""

QUIET_PERIOD = 0.5
"""How long ``expect_no_reply`` watches for a message that should not come."""

POLL_GRACE = 1.0
"""How long ``expect_no_reply`` first waits for the bot to poll again (it has then taken the update)."""

SETTLE = 2.0
"""How long a reply with the wrong text must stay unchanged (the bot making no call) before a wait fails."""

REPLY_METHODS = frozenset(
    {"sendmessage", "sendphoto", "senddocument", "sendrichmessage", "editmessagetext", "deletemessage"}
)


class SimAPIError(Exception):
    """The sim API refused a request: ``status`` and the ``error`` text it answered."""

    def __init__(self, status: int, message: str, path: str) -> None:
        super().__init__(f"{path}: HTTP {status}: {message}")
        self.status = status
        self.message = message
        self.path = path


# ----------------------------------------------------------------------------------------------------------
# People and chats


@dataclass(frozen=True, slots=True)
class Person:
    """Someone who writes to the bot; ``username`` doubles as the name in transcripts."""

    user_id: int
    username: str
    first_name: str = ""


def person(who: str | int | Person) -> Person:
    """Resolve ``"alice"``, ``"bob"``, a user id or a :class:`Person` to a :class:`Person`.

    alice is the stand's default user (4242). Other names get a stable id, so a feature file can name
    anyone and still be deterministic.
    """
    if isinstance(who, Person):
        return who
    if isinstance(who, int):
        return Person(who, "alice" if who == 4242 else "")
    name = who.strip().lstrip("@").lower()
    if not name:
        raise ValueError("a person needs a name")
    uid = user_id_for(name)
    return Person(uid, name, name[:1].upper() + name[1:])


ChatRef = int | str | None
"""A chat: its id, ``"private"`` (the person's own chat), ``"group"`` (the default group), or None."""


def _chat_target(chat: ChatRef, who: Person) -> tuple[int, str]:
    if chat is None or chat == "private":
        return who.user_id, "private"
    if chat == "group":
        return DEFAULT_GROUP_ID, "group"
    if chat == "supergroup":
        return DEFAULT_GROUP_ID, "supergroup"
    if isinstance(chat, str):
        raise ValueError(f"chat must be an id, 'private', 'group' or 'supergroup', not {chat!r}")
    return chat, "private" if chat > 0 else "group"


# ----------------------------------------------------------------------------------------------------------
# What the sim API returns


@dataclass(frozen=True, slots=True)
class Call:
    """One Bot API call the bot made, as the outbox recorded it."""

    seq: int
    method: str
    params: dict[str, str]
    status: int
    response: Any
    at: str = ""

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Call:
        params = raw.get("params") or {}
        return cls(
            seq=int(raw.get("seq", 0)),
            method=str(raw.get("method", "")),
            params={str(k): str(v) for k, v in params.items()},
            status=int(raw.get("status", 0)),
            response=raw.get("response"),
            at=str(raw.get("at", "")),
        )

    @property
    def ok(self) -> bool:
        return self.status == 200

    def line(self) -> str:
        """One line for failure reports."""
        shown = ", ".join(f"{k}={_clip(v)}" for k, v in self.params.items())
        return f"#{self.seq} {self.method} -> {self.status}  {shown}"


def _clip(v: str, n: int = 60) -> str:
    v = v.replace("\n", "\\n")
    return v if len(v) <= n else v[: n - 1] + "…"


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """A message as the stand's chat view shows it (``GET /sim/chat/{id}``)."""

    message_id: int
    from_bot: bool
    text: str
    caption: str = ""
    username: str = ""
    edited: bool = False
    deleted: bool = False
    keyboard: tuple[tuple[str, ...], ...] = ()
    entities: tuple[Mapping[str, Any], ...] = ()
    kind: str = "text"  # or photo, video, sticker, poll, location...: what the message carries
    forwarded_from: str = ""  # a forward's origin as the transcript names it ("alice", a channel's title)
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def content(self) -> Mapping[str, Any] | None:
        """What a non-text message carries, as the chat view shows its kind (a poll, a location, a photo's file...)."""
        value = self.raw.get(self.kind) if self.kind not in ("text", "service") else None
        return value if isinstance(value, Mapping) else None

    @property
    def poll(self) -> Mapping[str, Any] | None:
        """The poll (the Bot API ``Poll``: question, options with ``voter_count``, ``is_closed``...), else None."""
        return self.content if self.kind == "poll" else None

    def poll_option(self, label: str) -> int:
        """The index of the poll's option with this text (what :meth:`StandClient.vote` takes)."""
        labels = [str(o.get("text")) for o in (self.poll or {}).get("options") or []]
        if self.poll is None:
            raise AssertionError(f"message {self.message_id} is not a poll")
        if label not in labels:
            raise AssertionError(f"the poll of message {self.message_id} has no option {label!r}: {labels}")
        return labels.index(label)

    @property
    def reactions(self) -> dict[str, int]:
        """Who reacted how, counted: ``{"👍": 2}`` (the bot's own reaction included)."""
        out: dict[str, int] = {}
        for item in self.raw.get("reactions") or []:
            kind = item.get("type") or {}
            out[str(kind.get("emoji") or kind.get("custom_emoji_id") or "")] = int(item.get("total_count", 0))
        return out

    @property
    def reply_keyboard(self) -> tuple[tuple[str, ...], ...]:
        """The labels of the reply keyboard this message sent (``ReplyKeyboardMarkup``), rows of labels."""
        markup = self.raw.get("reply_keyboard") or {}
        return tuple(tuple(str(b.get("text", "")) for b in row) for row in markup.get("keyboard") or [])

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> ChatMessage:
        rows: list[tuple[str, ...]] = []
        for row in raw.get("keyboard") or []:
            rows.append(tuple(str(b.get("text", "")) if isinstance(b, Mapping) else str(b) for b in row))
        return cls(
            message_id=int(raw.get("message_id", 0)),
            from_bot=raw.get("from") == "bot",
            text=str(raw.get("text") or ""),
            caption=str(raw.get("caption") or ""),
            username=str(raw.get("username") or ""),
            edited=bool(raw.get("edited")),
            deleted=bool(raw.get("deleted")),
            keyboard=tuple(rows),
            entities=tuple(raw.get("entities") or raw.get("caption_entities") or ()),
            kind=str(raw.get("kind") or ("service" if raw.get("service") else "text")),
            forwarded_from=str(raw.get("forwarded_from") or ""),
            raw=raw,
        )

    @property
    def body(self) -> str:
        """The text, or the caption of a photo or document."""
        return self.text or self.caption

    @property
    def html(self) -> str:
        """The body with its formatting as Telegram's HTML (``<b>Hi</b>``); detected links and mentions stay plain."""
        return to_html(self.body, self.entities)

    def keyboard_text(self) -> str:
        """The keyboard as the text transcript draws it: ``[A] [B]`` per row, rows joined by newlines."""
        return "\n".join(" ".join(f"[{label}]" for label in row) for row in self.keyboard)


@dataclass(frozen=True, slots=True)
class Sent:
    """What ``send``, ``send_file`` (and ``send_photo``...), ``send_album`` and ``tap`` return: the minted ids."""

    chat_id: int
    update_id: int
    message_id: int = 0
    callback_query_id: str = ""
    file_id: str = ""  # send_file / send_photo / send_document: the file's id, for getFile
    media_group_id: str = ""  # send_album: the album every item belongs to


@dataclass(frozen=True, slots=True)
class AlbumItem:
    """One file of ``send_album``: its kind (``photo``, ``video``, ``document``, ``audio``), bytes and fields.

    ``fields`` are the kind's own (``duration``, ``width``, ``height`` of a video; ``performer``, ``title``).
    """

    kind: str
    data: bytes
    name: str = ""
    caption: str = ""
    fields: Mapping[str, Any] = field(default_factory=dict)

    def json(self) -> dict[str, Any]:
        out = {"type": self.kind, "name": self.name, "data": base64.b64encode(self.data).decode(), **self.fields}
        if self.caption:
            out["caption"] = self.caption
        return out


# ----------------------------------------------------------------------------------------------------------
# The shared implementation: generators that yield requests


@dataclass(frozen=True, slots=True)
class _Req:
    verb: str
    path: str
    query: Mapping[str, str] | None = None
    body: Any = None
    raw_body: bytes | None = None
    accept: tuple[int, ...] = (200,)
    timeout: float = 30.0
    text: bool = False  # the answer is text, not JSON


@dataclass(frozen=True, slots=True)
class _Resp:
    status: int
    text: str

    def json(self) -> Any:
        return json.loads(self.text) if self.text.strip() else None


_Op = Generator[_Req, _Resp, T]


def _fmt_seconds(s: float) -> str:
    return f"{max(s, 0.0):.3f}".rstrip("0").rstrip(".") or "0"


class _Core:
    """The client's state and logic, free of I/O: each operation yields the requests it needs.

    State: the last chat a person acted in (the default for reads), and per chat the id of the last
    bot message a ``wait_for_reply`` consumed, so successive replies are matched in order.
    """

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.last_chat: int | None = None
        self.last_tap: tuple[int, str, int] | None = None  # chat, callback query id, message id
        self.last_inline = ""  # the newest inline query this client typed
        self.cursor: dict[int, int] = {}

    def forget(self) -> None:
        """Drop what the client knows of the conversation (after a reset, or on another stand)."""
        self.last_chat = None
        self.last_tap = None
        self.last_inline = ""
        self.cursor.clear()

    # -- plumbing

    @staticmethod
    def _check(req: _Req, resp: _Resp) -> Any:
        if resp.status not in req.accept:
            try:
                msg = str((resp.json() or {}).get("error", resp.text))
            except (ValueError, AttributeError):
                msg = resp.text
            raise SimAPIError(resp.status, msg.strip(), req.path)
        if req.text:
            return resp.text
        try:
            return resp.json()
        except ValueError:
            return resp.text

    def _do(self, req: _Req) -> _Op[Any]:
        resp = yield req
        return self._check(req, resp)

    def chat_for(self, chat: int | None) -> int:
        if chat is not None:
            return chat
        if self.last_chat is None:
            return person("alice").user_id
        return self.last_chat

    # -- person

    def _sender(
        self, user: str | int | Person, chat: ChatRef, mention: bool, reply_to: int | None
    ) -> tuple[int, dict[str, Any]]:
        """The sender fields ``/sim/message`` and ``/sim/file`` share, and the chat they land in."""
        who = person(user)
        chat_id, chat_type = _chat_target(chat, who)
        body: dict[str, Any] = {"user_id": who.user_id, "chat_id": chat_id, "chat_type": chat_type}
        if who.username:
            body["username"] = who.username
        if who.first_name:
            body["first_name"] = who.first_name
        if mention:
            body["mention"] = True
        if reply_to is not None:
            body["reply_to_message_id"] = reply_to
        return chat_id, body

    def send(
        self, text: str, user: str | int | Person, chat: ChatRef, mention: bool, reply_to: int | None
    ) -> _Op[Sent]:
        chat_id, body = self._sender(user, chat, mention, reply_to)
        got = yield from self._do(_Req("POST", "/sim/message", body={"text": text, **body}))
        self.last_chat = chat_id
        return Sent(chat_id, int(got["update_id"]), message_id=int(got["message_id"]))

    def send_file(
        self,
        kind: str,
        data: bytes | str,
        name: str,
        caption: str,
        user: str | int | Person,
        chat: ChatRef,
        mention: bool,
        reply_to: int | None,
        fields: Mapping[str, Any] | None = None,
    ) -> _Op[Sent]:
        chat_id, body = self._sender(user, chat, mention, reply_to)
        if isinstance(data, str):  # a file the stand holds, by its id
            body[kind] = {"file_id": data}
        else:
            body[kind] = {"name": name, "data": base64.b64encode(data).decode()}
        body.update(fields or {})
        if caption:
            body["caption"] = caption
        got = yield from self._do(_Req("POST", "/sim/file", body=body))
        self.last_chat = chat_id
        return Sent(chat_id, int(got["update_id"]), message_id=int(got["message_id"]), file_id=str(got["file_id"]))

    def send_album(
        self,
        items: Sequence[AlbumItem | tuple[str, bytes]],
        user: str | int | Person,
        chat: ChatRef,
        mention: bool,
        reply_to: int | None,
    ) -> _Op[list[Sent]]:
        chat_id, body = self._sender(user, chat, mention, reply_to)
        body["items"] = [(i if isinstance(i, AlbumItem) else AlbumItem(*i)).json() for i in items]
        got = yield from self._do(_Req("POST", "/sim/album", body=body))
        self.last_chat = chat_id
        group = str(got["media_group_id"])
        return [
            Sent(chat_id, int(m["update_id"]), message_id=int(m["message_id"]), file_id=str(m["file_id"]),
                 media_group_id=group)
            for m in got["messages"]
        ]  # fmt: skip

    def set_profile(
        self,
        user: str | int | Person,
        photos: Sequence[bytes] | None,
        audios: Sequence[bytes | AlbumItem] | None,
        language_code: str | None = None,
    ) -> _Op[dict[str, Any]]:
        def part(one: bytes | AlbumItem) -> dict[str, Any]:
            item = one if isinstance(one, AlbumItem) else AlbumItem("audio", one)
            out = item.json()
            del out["type"]
            return out

        who = person(user)
        body: dict[str, Any] = {"user": who.username or who.user_id}
        if photos is not None:
            body["photos"] = [part(AlbumItem("photo", p)) for p in photos]
        if audios is not None:
            body["audios"] = [part(a) for a in audios]
        if language_code is not None:
            body["language_code"] = language_code
        got = yield from self._do(_Req("POST", "/sim/profile", body=body))
        return dict(got)

    def privacy(self, user: str | int | Person, hide_forwards: bool) -> _Op[dict[str, Any]]:
        who = person(user)
        body = {"user_id": who.user_id, "username": who.username, "hide_forwards": hide_forwards}
        got: dict[str, Any] = yield from self._do(_Req("POST", "/sim/privacy", body=body))
        return got

    def act(self, path: str, fields: Mapping[str, Any], user: str | int | Person, chat: ChatRef) -> _Op[Sent]:
        """One of the person's actions (``/sim/reply-button``...): the sender fields and the action's own."""
        chat_id, body = self._sender(user, chat, False, None)
        got = yield from self._do(_Req("POST", path, body={**body, **fields}))
        self.last_chat = chat_id
        return Sent(chat_id, int(got.get("update_id", 0)), message_id=int(got.get("message_id", 0)))

    def tap(
        self,
        label: str | None,
        user: str | int | Person,
        chat: int | None,
        message_id: int | None,
        data: str | None,
    ) -> _Op[Sent]:
        who = person(user)
        chat_id = chat if chat is not None else (self.last_chat if self.last_chat is not None else who.user_id)
        body: dict[str, Any] = {"chat_id": chat_id, "user_id": who.user_id}
        if who.username:
            body["username"] = who.username
        if who.first_name:
            body["first_name"] = who.first_name
        if label is not None:
            body["label"] = label
        if data is not None:
            body["data"] = data
        if message_id is not None:
            body["message_id"] = message_id
        got = yield from self._do(_Req("POST", "/sim/callback", body=body))
        self.last_chat = chat_id
        cbq = str(got["callback_query_id"])
        self.last_tap = (chat_id, cbq, int(message_id or 0))
        return Sent(chat_id, int(got["update_id"]), callback_query_id=cbq)

    def inline(
        self, query: str, bot: str | int | None, user: str | int | Person, chat: ChatRef, offset: str, wait: float
    ) -> _Op[dict[str, Any]]:
        """Type ``@bot query`` (``POST /sim/inline``) and wait for the answer (``GET /sim/inline``)."""
        _, body = self._sender(user, chat, False, None)
        body.update({"query": query, "offset": offset})
        if bot is not None:
            body["bot"] = bot
        asked = yield from self._do(_Req("POST", "/sim/inline", body=body))
        return (yield from self._answered(str(asked["inline_query_id"]), wait))

    def inline_more(self, wait: float) -> _Op[dict[str, Any]]:
        """The next page of the newest query (``POST /sim/inline/more``), once answered."""
        asked = yield from self._do(_Req("POST", "/sim/inline/more", body={"inline_query_id": self.last_inline}))
        return (yield from self._answered(str(asked["inline_query_id"]), wait))

    def _answered(self, query_id: str, wait: float) -> _Op[dict[str, Any]]:
        self.last_inline = query_id
        q = {"inline_query_id": query_id, "timeout": _fmt_seconds(wait)}
        got = yield from self._do(_Req("GET", "/sim/inline", query=q, timeout=wait + POLL_GRACE))
        if not got.get("answered"):
            raise TimeoutError(f"the bot did not answer inline query {query_id} within {_fmt_seconds(wait)}s")
        return dict(got)

    def inline_mode(self, enabled: bool, feedback: int, bot: str | int | None) -> _Op[dict[str, Any]]:
        """BotFather's ``/setinline`` and ``/setinlinefeedback`` (``POST /sim/bots/{bot}/inline``)."""
        if bot is None:
            state = yield from self._do(_Req("GET", "/sim/state"))
            bot = state["bot"]["id"]
        body = {"enabled": enabled, "feedback": feedback}
        return dict((yield from self._do(_Req("POST", f"/sim/bots/{bot}/inline", body=body))))

    def choose(self, result_id: str) -> _Op[Sent]:
        """Pick a result of the newest inline query (``POST /sim/inline/choose``): it is sent via the bot."""
        body = {"result_id": result_id, "inline_query_id": self.last_inline}
        got = yield from self._do(_Req("POST", "/sim/inline/choose", body=body))
        self.last_chat = int(got["chat_id"])
        return Sent(int(got["chat_id"]), int(got.get("update_id", 0)), message_id=int(got["message_id"]))

    # -- reading

    def outbox(self, method: str | None, since: int | None) -> _Op[list[Call]]:
        q = {}
        if method:
            q["method"] = method
        if since is not None:
            q["since"] = str(since)
        got = yield from self._do(_Req("GET", "/sim/outbox", query=q))
        return [Call.from_json(c) for c in got.get("calls") or []]

    def count(self, method: str | None) -> _Op[int]:
        q = {"method": method} if method else {}
        got = yield from self._do(_Req("GET", "/sim/outbox/count", query=q))
        return int(got["count"])

    def chat(self, chat: int | None) -> _Op[dict[str, Any]]:
        got = yield from self._do(_Req("GET", f"/sim/chat/{self.chat_for(chat)}"))
        return dict(got)

    def messages(self, chat: int | None) -> _Op[list[ChatMessage]]:
        view = yield from self.chat(chat)
        return [ChatMessage.from_json(m) for m in view.get("messages") or []]

    def transcript(self, chat: int | None) -> _Op[str]:
        got = yield from self._do(_Req("GET", f"/sim/chat/{self.chat_for(chat)}", query={"format": "text"}, text=True))
        return str(got) if not isinstance(got, str) else got

    def state(self) -> _Op[dict[str, Any]]:
        got = yield from self._do(_Req("GET", "/sim/state"))
        return dict(got)

    # -- control

    def reset(self) -> _Op[None]:
        yield from self._do(_Req("POST", "/sim/reset"))
        self.forget()

    def fault(
        self,
        method: str,
        code: int,
        description: str | None,
        retry_after: int | None,
        times: int | None,
        contains: str | None,
    ) -> _Op[list[dict[str, Any]]]:
        body: dict[str, Any] = {"method": method, "code": code}
        if description is not None:
            body["description"] = description
        if retry_after is not None:
            body["retry_after"] = retry_after
        if times is not None:
            body["times"] = times
        if contains is not None:
            body["contains"] = contains
        got = yield from self._do(_Req("POST", "/sim/fault", body=body))
        return list(got.get("faults") or [])

    def clear_fault(self, method: str | None) -> _Op[None]:
        if method is None:
            yield from self._do(_Req("DELETE", "/sim/fault"))
        else:
            yield from self._do(_Req("POST", "/sim/fault", body={"method": method, "clear": True}))

    def move_clock(self, advance: float | None, to: float | None) -> _Op[dict[str, Any]]:
        body = {"advance": advance} if to is None else {"set": to}
        got = yield from self._do(_Req("POST", "/sim/clock", body=body))
        return dict(got)

    def open_session(self, name: str | None) -> _Op[dict[str, Any]]:
        got = yield from self._do(_Req("POST", "/sim/sessions", body={"id": name} if name else None))
        return dict(got)

    def end_session(self, session_id: str) -> _Op[None]:
        yield from self._do(_Req("DELETE", f"/sim/sessions/{urllib.parse.quote(session_id, safe='')}"))

    # -- waiting

    def wait_call(
        self, method: str | None, count: int, timeout: float | None, since: int | None, strict: bool = True
    ) -> _Op[list[Call]]:
        """``GET /sim/wait``: held by the stand until the outbox has ``count`` such calls.

        At the timeout: an AssertionError carrying the transcript and outbox, or ``[]`` when not ``strict``.
        """
        t = self.timeout if timeout is None else timeout
        q = {"count": str(count), "timeout": _fmt_seconds(t)}
        if method:
            q["method"] = method
        if since is not None:
            q["since"] = str(since)
        req = _Req("GET", "/sim/wait", query=q, accept=(200, 408), timeout=t + 10)
        resp = yield req
        got = self._check(req, resp)
        if resp.status == 408:
            if not strict:
                return []
            evidence = yield from self.evidence(None)
            raise AssertionError(f"{got.get('error', 'timed out')}\n{evidence}")
        return [Call.from_json(c) for c in got.get("calls") or []]

    def _next_call(self, since: int, deadline: float) -> _Op[tuple[int, bool] | None]:
        """Park until the bot makes any call after ``since``: the new high mark and whether every new
        call was a getUpdates (an idle bot's poll); None at the deadline."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        q = {"count": "1", "since": str(since), "timeout": _fmt_seconds(remaining)}
        req = _Req("GET", "/sim/wait", query=q, accept=(200, 408), timeout=remaining + 10)
        resp = yield req
        got = self._check(req, resp)
        if resp.status == 408:
            return None
        calls = got.get("calls") or []
        if not calls:
            return None
        polls = all(str(c.get("method", "")).lower() == "getupdates" for c in calls)
        return max([since, *(int(c.get("seq", 0)) for c in calls)]), polls

    def wait_until(
        self,
        check: Callable[[], _Op[T | None]],
        timeout: float | None,
        what: str,
        wrong: Callable[[], bool] | None = None,
    ) -> _Op[T]:
        """Re-run ``check`` after every call the bot makes until it returns something; fail at the deadline.

        The high mark is read before each check, so a call landing between the check and the wait
        wakes the wait at once instead of being missed. When ``wrong()`` says the bot already did
        something else (a reply with other text), the wait fails once the bot has been quiet for
        ``SETTLE`` seconds, instead of at the deadline: a bot still streaming keeps making calls.
        """
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        settle: float | None = None  # when a wrong answer, unchanged, stops the wait
        mark = yield from self.count(None)
        while True:
            got = yield from check()
            if got is not None:
                return got
            wrong_now = wrong is not None and wrong()
            settle = (settle or time.monotonic() + SETTLE) if wrong_now else None
            new = yield from self._next_call(mark, min(deadline, settle or deadline))
            if new is None:
                got = yield from check()
                if got is not None:
                    return got
                evidence = yield from self.evidence(None)
                raise AssertionError(f"timed out waiting for {what}\n{evidence}")
            mark, polls = new
            if not polls:
                settle = None  # the bot is doing something: it may still be getting there

    def next_reply(self, chat: int | None) -> _Op[ChatMessage | None]:
        chat_id = self.chat_for(chat)
        msgs = yield from self.messages(chat_id)
        seen = self.cursor.get(chat_id, 0)
        for m in msgs:
            if m.from_bot and not m.deleted and m.message_id > seen:
                return m
        return None

    def wait_for_reply(
        self,
        chat: int | None,
        text: str | None,
        containing: str | None,
        timeout: float | None,
        html: str | None = None,
    ) -> _Op[ChatMessage]:
        """The bot's next message in the chat, once it matches; consumed, so the next call sees the one after.

        A bot that streams by editing its message is waited for until the edits reach the text.
        """
        chat_id = self.chat_for(chat)
        seen: list[ChatMessage] = []

        def check() -> _Op[ChatMessage | None]:
            seen.clear()
            m = yield from self.next_reply(chat_id)
            if m is None:
                return None
            seen.append(m)
            if text is not None and m.body != text:
                return None
            if containing is not None and containing not in m.body:
                return None
            if html is not None and m.html != html:
                return None
            return m

        want = "the bot's next message"
        if text is not None:
            want += f" to read {text!r}"
        if containing is not None:
            want += f" to contain {containing!r}"
        if html is not None:
            want += f" to read {html!r} as HTML"
        found = yield from self.wait_until(check, timeout, f"{want} in chat {chat_id}", wrong=lambda: bool(seen))
        self.cursor[chat_id] = found.message_id
        return found

    def expect_no_reply(self, chat: int | None, within: float) -> _Op[None]:
        """Watch the chat for ``within`` seconds (server-held) and fail if the bot posts a new message."""
        chat_id = self.chat_for(chat)
        # first let the bot take what it was sent: the stand answers once a getUpdates is held again
        # (a stand without ?polling answers 400, and the quiet window alone has to do)
        q = {"polling": "1", "timeout": _fmt_seconds(POLL_GRACE)}
        yield _Req("GET", "/sim/wait", query=q, accept=(200, 400, 408), timeout=POLL_GRACE + 10)
        deadline = time.monotonic() + within
        mark = yield from self.count(None)
        while True:
            m = yield from self.next_reply(chat_id)
            if m is not None:
                evidence = yield from self.evidence(chat_id)
                raise AssertionError(f"the bot sent a further message: [{m.message_id}] {m.body!r}\n{evidence}")
            new = yield from self._next_call(mark, deadline)
            if new is None:
                return
            mark = new[0]

    def evidence(self, chat: int | None) -> _Op[str]:
        """The transcript and the tail of the outbox, for failure messages."""
        parts = []
        try:
            text = yield from self.transcript(chat)
            parts.append(f"--- transcript of chat {self.chat_for(chat)} ---\n{text.rstrip()}")
            calls = yield from self.outbox(None, None)
            shown = [c for c in calls if c.method.lower() != "getupdates" or not c.ok][-30:]
            parts.append("--- outbox (getUpdates omitted) ---\n" + "\n".join(c.line() for c in shown))
        except (SimAPIError, OSError, aiohttp.ClientError) as e:
            parts.append(f"(could not read the stand: {e})")
        return "\n".join(parts)

    # -- model

    def model_log(self) -> _Op[dict[str, Any]]:
        got = yield from self._do(_Req("GET", "/sim/llm/log"))
        return dict(got)

    def model_script(self, rules: Any) -> _Op[None]:
        if isinstance(rules, str | bytes):
            yield from self._do(
                _Req("PUT", "/sim/llm/script", raw_body=rules.encode() if isinstance(rules, str) else rules)
            )
        else:
            yield from self._do(_Req("PUT", "/sim/llm/script", body=rules))

    def model_reset(self) -> _Op[None]:
        yield from self._do(_Req("POST", "/sim/llm/reset"))


# ----------------------------------------------------------------------------------------------------------
# Sync and async drivers


def _url(base: str, req: _Req) -> str:
    url = base + req.path
    if req.query:
        url += "?" + urllib.parse.urlencode(req.query)
    return url


def _payload(req: _Req) -> bytes | None:
    if req.raw_body is not None:
        return req.raw_body
    if req.body is not None:
        return json.dumps(req.body).encode()
    return None


class _SyncDriver:
    def __init__(self, base_url: str) -> None:
        self.base = base_url.rstrip("/")

    def run(self, op: _Op[T]) -> T:
        try:
            req = next(op)
            while True:
                resp = self.fetch(req)
                req = op.send(resp)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]

    def fetch(self, req: _Req) -> _Resp:
        data = _payload(req)
        r = urllib.request.Request(_url(self.base, req), data=data, method=req.verb)
        if data is not None:
            r.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(r, timeout=req.timeout) as f:
                return _Resp(f.status, f.read().decode())
        except urllib.error.HTTPError as e:
            with e:
                return _Resp(e.code, e.read().decode())


class _AsyncDriver:
    def __init__(self, base_url: str, session: aiohttp.ClientSession | None) -> None:
        self.base = base_url.rstrip("/")
        self._session = session
        self._own = session is None

    async def session(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = aiohttp.ClientSession()
        return self._session

    async def close(self) -> None:
        if self._own and self._session is not None:
            await self._session.close()
            self._session = None

    async def run(self, op: _Op[T]) -> T:
        try:
            req = next(op)
            while True:
                resp = await self.fetch(req)
                req = op.send(resp)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]

    async def fetch(self, req: _Req) -> _Resp:
        s = await self.session()
        data = _payload(req)
        headers = {"Content-Type": "application/json"} if data is not None else None
        async with s.request(
            req.verb,
            _url(self.base, req),
            data=data,
            headers=headers,
            timeout=aiohttp.ClientTimeout(total=req.timeout),
        ) as r:
            return _Resp(r.status, await r.text())


def _tool_calls_in(entry: Mapping[str, Any]) -> list[str]:
    """Names of the tools a model log entry's answer asked for (plain JSON or an SSE stream)."""
    raw = entry.get("response")
    texts: list[Any] = []
    if isinstance(raw, str):
        for line in raw.splitlines() or [raw]:
            line = line.strip()
            if line.startswith("data:"):
                line = line[5:].strip()
            if line.startswith("{"):
                with contextlib.suppress(ValueError):
                    texts.append(json.loads(line))
        if not texts and raw.strip().startswith("{"):
            with contextlib.suppress(ValueError):
                texts.append(json.loads(raw))
    elif isinstance(raw, Mapping):
        texts.append(raw)
    names: list[str] = []
    for obj in texts:
        for choice in obj.get("choices") or []:
            for part in ("message", "delta"):
                for tc in (choice.get(part) or {}).get("tool_calls") or []:
                    name = (tc.get("function") or {}).get("name")
                    if name:
                        names.append(str(name))
    return names


def _system_text(entry: Mapping[str, Any]) -> str:
    out = []
    for m in entry.get("messages") or []:
        if isinstance(m, Mapping) and m.get("role") in ("system", "developer"):
            c = m.get("content")
            out.append(c if isinstance(c, str) else json.dumps(c))
    return "\n".join(out)


class ModelClient:
    """The scripted model's sim routes (``--llm``), sync."""

    def __init__(self, core: _Core, driver: _SyncDriver) -> None:
        self._core = core
        self._driver = driver

    def log(self) -> list[dict[str, Any]]:
        """The journal's entries, oldest first (``GET /sim/llm/log``)."""
        return list(self._driver.run(self._core.model_log()).get("entries") or [])

    def calls(self) -> int:
        """Completions answered since the last reset, per the journal."""
        return len(self.log())

    def script(self, rules: Any) -> None:
        """Replace the model's rules (``PUT /sim/llm/script``): a list, JSON text, or a JSON file's path."""
        if isinstance(rules, Path):
            rules = rules.read_text()
        self._driver.run(self._core.model_script(rules))

    def reset(self) -> None:
        self._driver.run(self._core.model_reset())

    @staticmethod
    def tools_called(entries: Sequence[Mapping[str, Any]]) -> list[str]:
        """Every tool the model asked the bot to call, in order."""
        return [name for e in entries for name in _tool_calls_in(e)]

    @staticmethod
    def system_prompts(entries: Sequence[Mapping[str, Any]]) -> list[str]:
        """The system text of each request."""
        return [_system_text(e) for e in entries]


class AsyncModelClient:
    """The scripted model's sim routes (``--llm``), async."""

    def __init__(self, core: _Core, driver: _AsyncDriver) -> None:
        self._core = core
        self._driver = driver

    async def log(self) -> list[dict[str, Any]]:
        return list((await self._driver.run(self._core.model_log())).get("entries") or [])

    async def calls(self) -> int:
        return len(await self.log())

    async def script(self, rules: Any) -> None:
        if isinstance(rules, Path):
            rules = rules.read_text()
        await self._driver.run(self._core.model_script(rules))

    async def reset(self) -> None:
        await self._driver.run(self._core.model_reset())

    tools_called = staticmethod(ModelClient.tools_called)
    system_prompts = staticmethod(ModelClient.system_prompts)


class StandClient:
    """A test's handle on a stand, over HTTP: act as people, wait for the bot, read what it did.

    ``url`` is the stand's origin (``http://127.0.0.1:18790``). Replies are matched in order: each
    ``expect_reply`` consumes the bot's next message in the chat.
    """

    def __init__(self, url: str, *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.url = url.rstrip("/")
        self._core = _Core(timeout)
        self._driver = _SyncDriver(self.url)
        self.model = ModelClient(self._core, self._driver)

    def retarget(self, url: str) -> None:
        """Talk to another stand from now on (a test that switched to a stand of its own)."""
        self.url = url.rstrip("/")
        self._driver.base = self.url
        self._core.forget()

    # addresses to give a bot
    @property
    def bot_api_url(self) -> str:
        """``base_url`` for python-telegram-bot (it appends the token and method)."""
        return f"{self.url}/bot"

    @property
    def openai_base_url(self) -> str:
        return f"{self.url}/v1"

    @property
    def last_chat(self) -> int | None:
        return self._core.last_chat

    @property
    def last_tap(self) -> tuple[int, str, int] | None:
        return self._core.last_tap

    def send(
        self,
        text: str,
        *,
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        mention: bool = False,
        reply_to: int | None = None,
    ) -> Sent:
        """A person writes ``text`` (``POST /sim/message``); ``chat="group"`` writes in the default group."""
        return self._driver.run(self._core.send(text, user, chat, mention, reply_to))

    def send_photo(
        self,
        data: bytes,
        *,
        name: str = "",
        caption: str = "",
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        mention: bool = False,
        reply_to: int | None = None,
    ) -> Sent:
        """A person sends a PNG, JPEG or GIF (``POST /sim/file``); ``Sent.file_id`` names it for getFile."""
        return self._driver.run(self._core.send_file("photo", data, name, caption, user, chat, mention, reply_to))

    def send_document(
        self,
        data: bytes,
        *,
        name: str = "",
        caption: str = "",
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        mention: bool = False,
        reply_to: int | None = None,
    ) -> Sent:
        """A person sends any file as a document (``POST /sim/file``); its ``mime_type`` is sniffed from the bytes."""
        return self._driver.run(self._core.send_file("document", data, name, caption, user, chat, mention, reply_to))

    def send_file(
        self,
        kind: str,
        data: bytes | str,
        *,
        name: str = "",
        caption: str = "",
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        mention: bool = False,
        reply_to: int | None = None,
        **fields: Any,
    ) -> Sent:
        """A person sends a file of any kind (``POST /sim/file``): ``photo``, ``document``, ``video``, ``audio``,
        ``voice``, ``animation``, ``sticker`` or ``video_note``, with the kind's ``fields`` (``duration=3``,
        ``width``/``height``, ``length``, ``performer``/``title``, ``emoji``); ``Sent.file_id`` names it. ``data``
        as a ``str`` is the ``file_id`` of a file the stand holds, sent again as it is."""
        op = self._core.send_file(kind, data, name, caption, user, chat, mention, reply_to, fields)
        return self._driver.run(op)

    def send_album(
        self,
        items: Sequence[AlbumItem | tuple[str, bytes]],
        *,
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        mention: bool = False,
        reply_to: int | None = None,
    ) -> list[Sent]:
        """A person sends 2-10 files as one album (``POST /sim/album``): photos and videos mix, documents and
        audio only among their own kind; one ``Sent`` per item, all with the album's ``media_group_id``."""
        return self._driver.run(self._core.send_album(items, user, chat, mention, reply_to))

    def set_profile(
        self,
        user: str | int | Person = "alice",
        *,
        photos: Sequence[bytes] | None = None,
        audios: Sequence[bytes | AlbumItem] | None = None,
        language_code: str | None = None,
    ) -> dict[str, Any]:
        """A person's profile photos and audios, newest first, and their app's language (``POST /sim/profile``);
        None keeps what they have."""
        return self._driver.run(self._core.set_profile(user, photos, audios, language_code))

    def tap(
        self,
        label: str | None = None,
        *,
        user: str | int | Person = "alice",
        chat: int | None = None,
        message_id: int | None = None,
        data: str | None = None,
    ) -> Sent:
        """A person taps the button ``label`` on the newest message that has it (``POST /sim/callback``)."""
        return self._driver.run(self._core.tap(label, user, chat, message_id, data))

    def press(self, label: str, *, user: str | int | Person = "alice", chat: ChatRef = None, **shares: Any) -> Sent:
        """A person presses ``label`` on their reply keyboard (``POST /sim/reply-button``); ``shares`` carries
        what the button shares (``latitude``/``longitude``, ``users``, ``chat``, ``poll``, ``data``...)."""
        return self._driver.run(self._core.act("/sim/reply-button", {"label": label, **shares}, user, chat))

    def share(self, *, user: str | int | Person = "alice", chat: ChatRef = None, **content: Any) -> Sent:
        """A person sends a location, venue, contact, dice or poll (``POST /sim/share``), e.g.
        ``share(location={"latitude": 1.5, "longitude": 2.5})``."""
        return self._driver.run(self._core.act("/sim/share", content, user, chat))

    def vote(
        self, message_id: int, options: Sequence[int], *, user: str | int | Person = "alice", chat: ChatRef = None
    ) -> Sent:
        """A person votes in the poll of ``message_id`` (``POST /sim/vote``); no options retracts the vote."""
        body = {"message_id": message_id, "options": list(options)}
        return self._driver.run(self._core.act("/sim/vote", body, user, chat))

    def edit(self, message_id: int, text: str, *, user: str | int | Person = "alice", chat: ChatRef = None) -> Sent:
        """A person edits their message (``POST /sim/edit``): the bots that saw it get ``edited_message``."""
        return self._driver.run(self._core.act("/sim/edit", {"message_id": message_id, "text": text}, user, chat))

    def delete(self, message_id: int, *, user: str | int | Person = "alice", chat: ChatRef = None) -> Sent:
        """A person deletes a message (``POST /sim/delete``)."""
        return self._driver.run(self._core.act("/sim/delete", {"message_id": message_id}, user, chat))

    def react(self, message_id: int, *emoji: str, user: str | int | Person = "alice", chat: ChatRef = None) -> Sent:
        """A person sets their reactions on a message (``POST /sim/react``); none clears them."""
        body = {"message_id": message_id, "emoji": list(emoji)}
        return self._driver.run(self._core.act("/sim/react", body, user, chat))

    def forward(self, *, user: str | int | Person = "alice", chat: ChatRef = None, **source: Any) -> Sent:
        """A person forwards a message (``POST /sim/forward``): ``from_chat_id`` + ``message_id``, or ``text`` +
        ``origin``."""
        return self._driver.run(self._core.act("/sim/forward", source, user, chat))

    def hide_forwards(self, user: str | int | Person = "alice", hide: bool = True) -> None:
        """The person's forward privacy (``POST /sim/privacy``): forwards of their messages name them only."""
        self._driver.run(self._core.privacy(user, hide))

    def inline(
        self,
        query: str,
        *,
        bot: str | int | None = None,
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        offset: str = "",
        wait: float | None = None,
    ) -> dict[str, Any]:
        """A person types ``@bot query`` in a chat; returns the bot's answer (``results``, ``next_offset``...)."""
        wait = self._core.timeout if wait is None else wait
        return self._driver.run(self._core.inline(query, bot, user, chat, offset, wait))

    def inline_more(self, *, wait: float | None = None) -> dict[str, Any]:
        """The person scrolls the newest inline query's results: the next page, at the answer's ``next_offset``."""
        return self._driver.run(self._core.inline_more(self._core.timeout if wait is None else wait))

    def choose(self, result_id: str) -> Sent:
        """The person picks a result of the newest inline query: sent in the chat via the bot."""
        return self._driver.run(self._core.choose(result_id))

    def inline_mode(self, enabled: bool = True, *, feedback: int = 0, bot: str | int | None = None) -> dict[str, Any]:
        """Turn the bot's inline mode on or off and set its inline feedback percentage (the stand's bot if none)."""
        return self._driver.run(self._core.inline_mode(enabled, feedback, bot))

    def wait_for_reply(
        self,
        *,
        chat: int | None = None,
        text: str | None = None,
        containing: str | None = None,
        timeout: float | None = None,
        html: str | None = None,
    ) -> ChatMessage:
        """The bot's next message in the chat (the last one a person acted in), once it matches.

        ``html`` compares the formatted message as Telegram's HTML (:attr:`ChatMessage.html`)."""
        return self._driver.run(self._core.wait_for_reply(chat, text, containing, timeout, html))

    def expect_reply(
        self,
        text: str | None = None,
        *,
        containing: str | None = None,
        chat: int | None = None,
        timeout: float | None = None,
        html: str | None = None,
    ) -> ChatMessage:
        """Assert the bot's next message reads ``text`` (or contains ``containing``, or is ``html``); else show
        the chat."""
        return self.wait_for_reply(chat=chat, text=text, containing=containing, timeout=timeout, html=html)

    def expect_no_reply(self, *, chat: int | None = None, within: float = QUIET_PERIOD) -> None:
        """Assert the bot posts nothing new in the chat for ``within`` seconds."""
        self._driver.run(self._core.expect_no_reply(chat, within))

    def wait_call(
        self,
        method: str | None = None,
        count: int = 1,
        *,
        timeout: float | None = None,
        since: int | None = None,
        strict: bool = True,
    ) -> list[Call]:
        """Held by the stand until ``count`` calls of ``method`` (any when None) are in the outbox."""
        return self._driver.run(self._core.wait_call(method, count, timeout, since, strict))

    def wait_until(
        self, check: Callable[[], T | None], *, timeout: float | None = None, what: str = "a condition"
    ) -> T:
        """Re-run ``check`` after each call the bot makes until it returns non-None (server-held waits)."""

        def op() -> _Op[T | None]:
            return check()
            yield  # pragma: no cover - makes this a generator

        return self._driver.run(self._core.wait_until(op, timeout, what))

    def transcript(self, chat: int | None = None) -> str:
        """The chat as text (``GET /sim/chat/{id}?format=text``)."""
        return self._driver.run(self._core.transcript(chat))

    def chat(self, chat: int | None = None) -> dict[str, Any]:
        """The chat's JSON view."""
        return self._driver.run(self._core.chat(chat))

    def messages(self, chat: int | None = None) -> list[ChatMessage]:
        return self._driver.run(self._core.messages(chat))

    def outbox(self, method: str | None = None, *, since: int | None = None) -> list[Call]:
        """The bot's recorded calls, oldest first."""
        return self._driver.run(self._core.outbox(method, since))

    def count(self, method: str | None = None) -> int:
        return self._driver.run(self._core.count(method))

    def state(self) -> dict[str, Any]:
        return self._driver.run(self._core.state())

    def fault(
        self,
        method: str = "*",
        code: int = 500,
        *,
        description: str | None = None,
        retry_after: int | None = None,
        times: int | None = None,
        contains: str | None = None,
    ) -> list[dict[str, Any]]:
        """Schedule a refusal, e.g. ``fault("sendMessage", 429, retry_after=1, times=1)``."""
        return self._driver.run(self._core.fault(method, code, description, retry_after, times, contains))

    def clear_faults(self, method: str | None = None) -> None:
        self._driver.run(self._core.clear_fault(method))

    def reset(self) -> None:
        """Forget the conversation (``POST /sim/reset``; the model's state too when it is served)."""
        self._driver.run(self._core.reset())

    def move_clock(self, advance: float | None = None, *, to: float | None = None) -> dict[str, Any]:
        """Move this stand's (session's) clock by ``advance`` seconds or ``to`` a Unix time (``POST /sim/clock``)."""
        return self._driver.run(self._core.move_clock(advance, to))

    def open_session(self, name: str | None = None) -> dict[str, Any]:
        """A new session on this stand (``POST /sim/sessions``): its ``id`` and base URLs (``url``, ...)."""
        return self._driver.run(self._core.open_session(name))

    def end_session(self, session_id: str) -> None:
        """End a session (``DELETE /sim/sessions/{id}``): its held polls answer, its routes then 404."""
        self._driver.run(self._core.end_session(session_id))

    def evidence(self, chat: int | None = None) -> str:
        return self._driver.run(self._core.evidence(chat))


class AsyncStandClient:
    """:class:`StandClient` for async tests; the same methods, awaited. Close it (or use ``async with``)."""

    def __init__(
        self, url: str, *, timeout: float = DEFAULT_TIMEOUT, session: aiohttp.ClientSession | None = None
    ) -> None:
        self.url = url.rstrip("/")
        self._core = _Core(timeout)
        self._driver = _AsyncDriver(self.url, session)
        self.model = AsyncModelClient(self._core, self._driver)

    async def __aenter__(self) -> AsyncStandClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self._driver.close()

    @property
    def bot_api_url(self) -> str:
        return f"{self.url}/bot"

    @property
    def openai_base_url(self) -> str:
        return f"{self.url}/v1"

    async def send(
        self,
        text: str,
        *,
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        mention: bool = False,
        reply_to: int | None = None,
    ) -> Sent:
        return await self._driver.run(self._core.send(text, user, chat, mention, reply_to))

    async def send_photo(
        self,
        data: bytes,
        *,
        name: str = "",
        caption: str = "",
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        mention: bool = False,
        reply_to: int | None = None,
    ) -> Sent:
        return await self._driver.run(self._core.send_file("photo", data, name, caption, user, chat, mention, reply_to))

    async def send_document(
        self,
        data: bytes,
        *,
        name: str = "",
        caption: str = "",
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        mention: bool = False,
        reply_to: int | None = None,
    ) -> Sent:
        op = self._core.send_file("document", data, name, caption, user, chat, mention, reply_to)
        return await self._driver.run(op)

    async def send_file(
        self,
        kind: str,
        data: bytes | str,
        *,
        name: str = "",
        caption: str = "",
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        mention: bool = False,
        reply_to: int | None = None,
        **fields: Any,
    ) -> Sent:
        op = self._core.send_file(kind, data, name, caption, user, chat, mention, reply_to, fields)
        return await self._driver.run(op)

    async def send_album(
        self,
        items: Sequence[AlbumItem | tuple[str, bytes]],
        *,
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        mention: bool = False,
        reply_to: int | None = None,
    ) -> list[Sent]:
        return await self._driver.run(self._core.send_album(items, user, chat, mention, reply_to))

    async def set_profile(
        self,
        user: str | int | Person = "alice",
        *,
        photos: Sequence[bytes] | None = None,
        audios: Sequence[bytes | AlbumItem] | None = None,
        language_code: str | None = None,
    ) -> dict[str, Any]:
        return await self._driver.run(self._core.set_profile(user, photos, audios, language_code))

    async def tap(
        self,
        label: str | None = None,
        *,
        user: str | int | Person = "alice",
        chat: int | None = None,
        message_id: int | None = None,
        data: str | None = None,
    ) -> Sent:
        return await self._driver.run(self._core.tap(label, user, chat, message_id, data))

    async def press(
        self, label: str, *, user: str | int | Person = "alice", chat: ChatRef = None, **shares: Any
    ) -> Sent:
        """A person presses ``label`` on their reply keyboard (``POST /sim/reply-button``)."""
        return await self._driver.run(self._core.act("/sim/reply-button", {"label": label, **shares}, user, chat))

    async def share(self, *, user: str | int | Person = "alice", chat: ChatRef = None, **content: Any) -> Sent:
        """A person sends a location, venue, contact, dice or poll (``POST /sim/share``), e.g.
        ``share(location={"latitude": 1.5, "longitude": 2.5})``."""
        return await self._driver.run(self._core.act("/sim/share", content, user, chat))

    async def vote(
        self, message_id: int, options: Sequence[int], *, user: str | int | Person = "alice", chat: ChatRef = None
    ) -> Sent:
        """A person votes in the poll of ``message_id`` (``POST /sim/vote``); no options retracts the vote."""
        body = {"message_id": message_id, "options": list(options)}
        return await self._driver.run(self._core.act("/sim/vote", body, user, chat))

    async def edit(
        self, message_id: int, text: str, *, user: str | int | Person = "alice", chat: ChatRef = None
    ) -> Sent:
        """A person edits their message (``POST /sim/edit``): the bots that saw it get ``edited_message``."""
        return await self._driver.run(self._core.act("/sim/edit", {"message_id": message_id, "text": text}, user, chat))

    async def delete(self, message_id: int, *, user: str | int | Person = "alice", chat: ChatRef = None) -> Sent:
        """A person deletes a message (``POST /sim/delete``)."""
        return await self._driver.run(self._core.act("/sim/delete", {"message_id": message_id}, user, chat))

    async def react(
        self, message_id: int, *emoji: str, user: str | int | Person = "alice", chat: ChatRef = None
    ) -> Sent:
        """A person sets their reactions on a message (``POST /sim/react``); none clears them."""
        body = {"message_id": message_id, "emoji": list(emoji)}
        return await self._driver.run(self._core.act("/sim/react", body, user, chat))

    async def forward(self, *, user: str | int | Person = "alice", chat: ChatRef = None, **source: Any) -> Sent:
        """A person forwards a message (``POST /sim/forward``): ``from_chat_id`` + ``message_id``, or ``text`` +
        ``origin``."""
        return await self._driver.run(self._core.act("/sim/forward", source, user, chat))

    async def hide_forwards(self, user: str | int | Person = "alice", hide: bool = True) -> None:
        """The person's forward privacy (``POST /sim/privacy``): forwards of their messages name them only."""
        await self._driver.run(self._core.privacy(user, hide))

    async def inline(
        self,
        query: str,
        *,
        bot: str | int | None = None,
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        offset: str = "",
        wait: float | None = None,
    ) -> dict[str, Any]:
        """A person types ``@bot query`` in a chat; returns the bot's answer (``results``, ``next_offset``...)."""
        wait = self._core.timeout if wait is None else wait
        return await self._driver.run(self._core.inline(query, bot, user, chat, offset, wait))

    async def inline_more(self, *, wait: float | None = None) -> dict[str, Any]:
        """The person scrolls the newest inline query's results: the next page, at the answer's ``next_offset``."""
        return await self._driver.run(self._core.inline_more(self._core.timeout if wait is None else wait))

    async def choose(self, result_id: str) -> Sent:
        """The person picks a result of the newest inline query: sent in the chat via the bot."""
        return await self._driver.run(self._core.choose(result_id))

    async def inline_mode(
        self, enabled: bool = True, *, feedback: int = 0, bot: str | int | None = None
    ) -> dict[str, Any]:
        """Turn the bot's inline mode on or off and set its inline feedback percentage (the stand's bot if none)."""
        return await self._driver.run(self._core.inline_mode(enabled, feedback, bot))

    async def wait_for_reply(
        self,
        *,
        chat: int | None = None,
        text: str | None = None,
        containing: str | None = None,
        timeout: float | None = None,
        html: str | None = None,
    ) -> ChatMessage:
        return await self._driver.run(self._core.wait_for_reply(chat, text, containing, timeout, html))

    async def expect_reply(
        self,
        text: str | None = None,
        *,
        containing: str | None = None,
        chat: int | None = None,
        timeout: float | None = None,
        html: str | None = None,
    ) -> ChatMessage:
        return await self.wait_for_reply(chat=chat, text=text, containing=containing, timeout=timeout, html=html)

    async def expect_no_reply(self, *, chat: int | None = None, within: float = QUIET_PERIOD) -> None:
        await self._driver.run(self._core.expect_no_reply(chat, within))

    async def wait_call(
        self,
        method: str | None = None,
        count: int = 1,
        *,
        timeout: float | None = None,
        since: int | None = None,
        strict: bool = True,
    ) -> list[Call]:
        return await self._driver.run(self._core.wait_call(method, count, timeout, since, strict))

    async def transcript(self, chat: int | None = None) -> str:
        return await self._driver.run(self._core.transcript(chat))

    async def chat(self, chat: int | None = None) -> dict[str, Any]:
        return await self._driver.run(self._core.chat(chat))

    async def messages(self, chat: int | None = None) -> list[ChatMessage]:
        return await self._driver.run(self._core.messages(chat))

    async def outbox(self, method: str | None = None, *, since: int | None = None) -> list[Call]:
        return await self._driver.run(self._core.outbox(method, since))

    async def count(self, method: str | None = None) -> int:
        return await self._driver.run(self._core.count(method))

    async def state(self) -> dict[str, Any]:
        return await self._driver.run(self._core.state())

    async def fault(
        self,
        method: str = "*",
        code: int = 500,
        *,
        description: str | None = None,
        retry_after: int | None = None,
        times: int | None = None,
        contains: str | None = None,
    ) -> list[dict[str, Any]]:
        return await self._driver.run(self._core.fault(method, code, description, retry_after, times, contains))

    async def clear_faults(self, method: str | None = None) -> None:
        await self._driver.run(self._core.clear_fault(method))

    async def reset(self) -> None:
        await self._driver.run(self._core.reset())

    async def move_clock(self, advance: float | None = None, *, to: float | None = None) -> dict[str, Any]:
        return await self._driver.run(self._core.move_clock(advance, to))

    async def open_session(self, name: str | None = None) -> dict[str, Any]:
        return await self._driver.run(self._core.open_session(name))

    async def end_session(self, session_id: str) -> None:
        await self._driver.run(self._core.end_session(session_id))

    async def evidence(self, chat: int | None = None) -> str:
        return await self._driver.run(self._core.evidence(chat))


# ----------------------------------------------------------------------------------------------------------
# A stand in a thread


class ThreadedStand:
    """A stand served from a daemon thread with its own event loop, on a free loopback port.

    The bot under test (a subprocess, or client code in the test) talks to it while the test's own
    thread is blocked in a sync step, which is why it cannot share pytest-asyncio's loop.
    """

    def __init__(self, options: Any = None, *, model: Any = None, host: str = "127.0.0.1", port: int = 0) -> None:
        self.options = options
        self.model = model
        self.host = host
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    @property
    def url(self) -> str:
        if not self._ready.is_set():
            raise RuntimeError("the stand is not started")
        return f"http://{self.host}:{self.port}"

    def start(self) -> str:
        self._thread = threading.Thread(target=self._serve, name="tgfake-stand", daemon=True)
        self._thread.start()
        self._ready.wait(30)
        if self._error is not None:
            raise RuntimeError(f"the stand did not start: {self._error!r}") from self._error
        if not self._ready.is_set():
            raise RuntimeError("the stand did not start within 30 s")
        return self.url

    def _serve(self) -> None:
        from tgfake.app import create_app  # imported late: the testing client works without the server
        from tgfake.server import serve

        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            app = create_app(self.options, model=self.model)
            runner, self.port = loop.run_until_complete(serve(app, self.host, self.port, shutdown_timeout=2.0))
        except BaseException as e:  # reported to the starting thread
            self._error = e
            loop.close()
            self._ready.set()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(runner.cleanup())
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(15)
        self._thread = None

    def __enter__(self) -> ThreadedStand:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# ----------------------------------------------------------------------------------------------------------
# A bot under test


def bot_environment(url: str, *, token: str = "") -> dict[str, str]:
    """The environment an example bot reads: the stand's origin, a token, the model's base URL and a key."""
    return {
        "TELEGRAM_API": url.rstrip("/"),
        "BOT_TOKEN": token or DEFAULT_BOT_TOKEN,
        "OPENAI_BASE_URL": url.rstrip("/") + "/v1",
        "OPENAI_API_KEY": "tgfake",
    }


class BotProcess:
    """A bot under test as a subprocess, its output (stdout and stderr) kept in a file for failure reports."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        name: str = "",
    ) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("the bot command is empty")
        if self.argv[0] in ("python", "python3"):
            self.argv[0] = sys.executable  # the interpreter running the tests, with the same packages
        self.env = dict(env or {})
        self.cwd = cwd
        self.name = name or Path(self.argv[-1]).name
        fd, self._log_path = tempfile.mkstemp(prefix="tgfake-bot-", suffix=".log")
        os.close(fd)
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self) -> BotProcess:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        with open(self._log_path, "wb") as log:
            self._proc = subprocess.Popen(
                self.argv,
                env=env,
                cwd=self.cwd,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        return self

    @property
    def pid(self) -> int:
        return self._proc.pid if self._proc else 0

    @property
    def returncode(self) -> int | None:
        return None if self._proc is None else self._proc.poll()

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def output(self, offset: int = 0) -> str:
        """What the bot printed (from byte ``offset``)."""
        try:
            with open(self._log_path, "rb") as f:
                f.seek(offset)
                return f.read().decode(errors="replace")
        except FileNotFoundError:
            return ""

    def output_size(self) -> int:
        try:
            return os.path.getsize(self._log_path)
        except OSError:
            return 0

    def wait_ready(self, client: StandClient, *, since: int = 0, timeout: float = 20.0) -> None:
        """Block until the bot makes a Bot API call after outbox seq ``since``, or fail if it exits first.

        The wait is held on the stand in slices of a second so that a bot that crashes is noticed.
        """
        deadline = time.monotonic() + timeout
        while self.alive():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            if client.wait_call(None, 1, timeout=min(remaining, 1.0), since=since, strict=False):
                return
        code = self.returncode
        why = f"exited with status {code}" if code is not None else f"made no Bot API call within {timeout:g} s"
        raise AssertionError(f"the bot {self.name} {why}; its output:\n{self.output()}")

    def stop(self, timeout: float = 5.0) -> int | None:
        """SIGTERM, then SIGKILL after ``timeout``; the exit status."""
        proc = self._proc
        if proc is None:
            return None
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        return proc.returncode

    def close(self) -> None:
        self.stop()
        with contextlib.suppress(OSError):
            os.unlink(self._log_path)

    def __enter__(self) -> BotProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
