"""The client's shared implementation, free of I/O: operations are generators that yield the requests they need.

A driver (:mod:`tgfake.testing.drivers`) runs an operation: it sends each yielded :class:`Req` over HTTP (urllib or
aiohttp) and sends the :class:`Resp` back in, or calls a yielded :class:`Local` (a test's own check) and sends its
result back. So the sync and async clients share every line of logic and cannot disagree.

Waiting is always server-held: ``GET /sim/wait`` parks the request until the bot makes a call, and a condition over
the chat or the outbox is re-checked after each call the bot makes. There is no sleep loop anywhere; a timeout is an
absolute deadline.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import aiohttp

from tgfake.testing.values import (
    DEFAULT_GROUP_ID,
    POLL_GRACE,
    SERVICE,
    SETTLE,
    Call,
    ChatMessage,
    ChatRef,
    Person,
    SimAPIError,
    person,
)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Req:
    """One HTTP request to the stand (``path`` under its origin)."""

    verb: str
    path: str
    query: Mapping[str, str] | None = None
    body: Any = None
    raw_body: bytes | None = None
    accept: tuple[int, ...] = (200,)
    timeout: float = 30.0
    text: bool = False  # the answer is text, not JSON


@dataclass(frozen=True, slots=True)
class Resp:
    status: int
    text: str

    def json(self) -> Any:
        return json.loads(self.text) if self.text.strip() else None


@dataclass(frozen=True, slots=True)
class Local:
    """A call of the test's own code (a ``wait_until`` check): the sync driver calls it, the async one awaits it.
    A ``blocking`` one (an exploration) the async driver runs in a thread, so its event loop goes on."""

    fn: Callable[[], Any]
    blocking: bool = False


Op = Generator[Req | Local, Any, T]
"""An operation: yields requests (answered with a :class:`Resp`) and local calls (answered with their result)."""


def fmt_seconds(s: float) -> str:
    return f"{max(s, 0.0):.3f}".rstrip("0").rstrip(".") or "0"


def chat_target(chat: ChatRef, who: Person) -> tuple[int, str]:
    """The chat a person acts in and its type: their private chat, the default group, or the chat named."""
    if chat is None or chat == "private":
        return who.user_id, "private"
    if chat == "group":
        return DEFAULT_GROUP_ID, "group"
    if chat == "supergroup":
        return DEFAULT_GROUP_ID, "supergroup"
    if isinstance(chat, str):
        raise ValueError(f"chat must be an id, 'private', 'group' or 'supergroup', not {chat!r}")
    return chat, "private" if chat > 0 else "group"


class Core:
    """The client's state and the plumbing every operation uses.

    State: the last chat a person acted in (the default for reads), and per chat the id of the last bot message a
    ``wait_for_reply`` consumed, so successive replies are matched in order.
    """

    def __init__(self, timeout: float, url: str = "") -> None:
        self.timeout = timeout
        self.url = url
        """The stand's URL the client talks to (its origin, or a session's)."""
        self.last_chat: int | None = None
        self.last_tap: tuple[int, str, int] | None = None  # chat, callback query id, message id
        self.last_inline = ""  # the newest inline query this client typed
        self.cursor: dict[int, int] = {}

    def acted_in(self, chat_id: int) -> None:
        """A person acted in this chat: the default chat of the reads and waits that name none."""
        self.last_chat = chat_id

    def tapped(self, chat_id: int, callback_query_id: str, message_id: int) -> None:
        self.last_chat = chat_id
        self.last_tap = (chat_id, callback_query_id, message_id)

    def forget(self) -> None:
        """Drop what the client knows of the conversation (after a reset, or on another stand)."""
        self.last_chat = None
        self.last_tap = None
        self.last_inline = ""
        self.cursor.clear()

    # -- plumbing

    @staticmethod
    def check(req: Req, resp: Resp) -> Any:
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

    def ask(self, req: Req) -> Op[Resp]:
        """The stand's answer to ``req``, whatever its status."""
        resp = yield req
        assert isinstance(resp, Resp)
        return resp

    def do(self, req: Req) -> Op[Any]:
        """The stand's JSON (or text) answer to ``req``; a status ``req`` does not accept raises SimAPIError."""
        resp = yield from self.ask(req)
        return self.check(req, resp)

    def post(self, path: str, body: Any = None) -> Op[dict[str, Any]]:
        got = yield from self.do(Req("POST", path, body=body))
        return dict(got or {})

    def chat_for(self, chat: int | None) -> int:
        if chat is not None:
            return chat
        if self.last_chat is None:
            return person("alice").user_id
        return self.last_chat

    def sender(
        self, user: str | int | Person, chat: ChatRef, mention: bool = False, reply_to: int | None = None
    ) -> tuple[int, dict[str, Any]]:
        """The sender fields the person's routes share, and the chat the action lands in."""
        who = person(user)
        chat_id, chat_type = chat_target(chat, who)
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

    # -- reading

    def outbox(self, method: str | None, since: int | None) -> Op[list[Call]]:
        q = {}
        if method:
            q["method"] = method
        if since is not None:
            q["since"] = str(since)
        got = yield from self.do(Req("GET", "/sim/outbox", query=q))
        return [Call.from_json(c) for c in got.get("calls") or []]

    def count(self, method: str | None) -> Op[int]:
        q = {"method": method} if method else {}
        got = yield from self.do(Req("GET", "/sim/outbox/count", query=q))
        return int(got["count"])

    def chat(self, chat: int | None) -> Op[dict[str, Any]]:
        got = yield from self.do(Req("GET", f"/sim/chat/{self.chat_for(chat)}"))
        return dict(got)

    def messages(self, chat: int | None) -> Op[list[ChatMessage]]:
        view = yield from self.chat(chat)
        return [ChatMessage.from_json(m) for m in view.get("messages") or []]

    def transcript(self, chat: int | None) -> Op[str]:
        got = yield from self.do(Req("GET", f"/sim/chat/{self.chat_for(chat)}", query={"format": "text"}, text=True))
        return got if isinstance(got, str) else str(got)

    def evidence(self, chat: int | None) -> Op[str]:
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

    def line_of(self, chat: int, message_id: int) -> Op[str]:
        """A message's first transcript line without its ``[id]`` (``* bot removed carol``, ``bot: Hi``)."""
        text = yield from self.transcript(chat)
        prefix = f"[{message_id}] "
        return next((line[len(prefix) :] for line in text.splitlines() if line.startswith(prefix)), "")

    # -- waiting

    def wait_call(
        self,
        method: str | None,
        count: int,
        timeout: float | None,
        since: int | None,
        strict: bool = True,
        token: str = "",
    ) -> Op[list[Call]]:
        """``GET /sim/wait``: held by the stand until the outbox has ``count`` such calls (``token``: made with it).

        At the timeout: an AssertionError carrying the transcript and outbox, or ``[]`` when not ``strict``.
        """
        t = self.timeout if timeout is None else timeout
        q = {"count": str(count), "timeout": fmt_seconds(t)}
        if method:
            q["method"] = method
        if since is not None:
            q["since"] = str(since)
        if token:
            q["token"] = token
        req = Req("GET", "/sim/wait", query=q, accept=(200, 408), timeout=t + 10)
        resp = yield from self.ask(req)
        got = self.check(req, resp)
        if resp.status == 408:
            if not strict:
                return []
            evidence = yield from self.evidence(None)
            raise AssertionError(f"{got.get('error', 'timed out')}\n{evidence}")
        return [Call.from_json(c) for c in got.get("calls") or []]

    def next_call(self, since: int, deadline: float) -> Op[tuple[int, bool] | None]:
        """Park until the bot makes any call after ``since``: the new high mark and whether every new
        call was a getUpdates (an idle bot's poll); None at the deadline."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        q = {"count": "1", "since": str(since), "timeout": fmt_seconds(remaining)}
        req = Req("GET", "/sim/wait", query=q, accept=(200, 408), timeout=remaining + 10)
        resp = yield from self.ask(req)
        got = self.check(req, resp)
        if resp.status == 408:
            return None
        calls = got.get("calls") or []
        if not calls:
            return None
        polls = all(str(c.get("method", "")).lower() == "getupdates" for c in calls)
        return max([since, *(int(c.get("seq", 0)) for c in calls)]), polls

    def wait_until(
        self,
        check: Callable[[], Op[T | None]],
        timeout: float | None,
        what: str,
        wrong: Callable[[], bool] | None = None,
        seen: Callable[[], Op[str]] | None = None,
    ) -> Op[T]:
        """Re-run ``check`` after every call the bot makes until it returns something; fail at the deadline.

        The high mark is read before each check, so a call landing between the check and the wait
        wakes the wait at once instead of being missed. When ``wrong()`` says the bot already did
        something else (a reply with other text), the wait fails once the bot has been quiet for
        ``SETTLE`` seconds, instead of at the deadline: a bot still streaming keeps making calls.
        ``seen()`` names what the bot did instead, for the failure's first line.
        """
        t = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + t
        settle: float | None = None  # when a wrong answer, unchanged, stops the wait
        mark = yield from self.count(None)
        while True:
            got = yield from check()
            if got is not None:
                return got
            wrong_now = wrong is not None and wrong()
            settle = (settle or time.monotonic() + SETTLE) if wrong_now else None
            new = yield from self.next_call(mark, min(deadline, settle or deadline))
            if new is None:
                got = yield from check()
                if got is not None:
                    return got
                instead = (yield from seen()) if seen is not None else ""
                evidence = yield from self.evidence(None)
                within = "" if settle is not None and settle < deadline else f" within {fmt_seconds(t)} s"
                raise AssertionError(f"timed out waiting for {what}{within}{instead}\n{evidence}")
            mark, polls = new
            if not polls:
                settle = None  # the bot is doing something: it may still be getting there

    def next_reply(
        self, chat: int | None, kind: str | None = None
    ) -> Op[tuple[ChatMessage | None, ChatMessage | None]]:
        """The bot's next unread message in the chat that a person reads (of ``kind`` when given: ``"service"``
        for service lines, ``"any"`` for every message), and the first unread bot message passed over for it."""
        chat_id = self.chat_for(chat)
        msgs = yield from self.messages(chat_id)
        seen = self.cursor.get(chat_id, 0)
        skipped: ChatMessage | None = None
        for m in msgs:
            if not m.from_bot or m.deleted or m.message_id <= seen:
                continue
            if kind == "any" or (m.kind == kind if kind is not None else m.kind != SERVICE):
                return m, skipped
            skipped = skipped or m
        return None, skipped

    def wait_for_reply(
        self,
        chat: int | None,
        text: str | None,
        containing: str | None,
        timeout: float | None,
        html: str | None = None,
        kind: str | None = None,
    ) -> Op[ChatMessage]:
        """The bot's next message in the chat that a person reads, once it matches; consumed, so the next call sees
        the one after. Service messages (joins, removals, pins) are passed over unless ``kind`` asks for them.

        A bot that streams by editing its message is waited for until the edits reach the text.
        """
        chat_id = self.chat_for(chat)
        found: list[ChatMessage] = []  # the candidate of the last check
        passed: list[ChatMessage] = []  # a message of another kind, passed over

        def check() -> Op[ChatMessage | None]:
            found.clear()
            passed.clear()
            m, skipped = yield from self.next_reply(chat_id, kind)
            if skipped is not None:
                passed.append(skipped)
            if m is None:
                return None
            found.append(m)
            if text is not None and m.body != text:
                return None
            if containing is not None and containing not in m.body:
                return None
            if html is not None and m.html != html:
                return None
            return m

        def seen() -> Op[str]:
            if found:
                line = yield from self.line_of(chat_id, found[0].message_id)
                return f"; the bot's next message was: {line}"
            if passed:
                m = passed[0]
                what = "a service message" if m.kind == SERVICE else f"a {m.kind} message"
                line = yield from self.line_of(chat_id, m.message_id)
                return f"; the bot's next message was {what}: {line}"
            return "; the bot sent no message"

        want = "the bot's next message" if kind in (None, "any") else f"the bot's next {kind} message"
        if text is not None:
            want += f" to read {text!r}"
        if containing is not None:
            want += f" to contain {containing!r}"
        if html is not None:
            want += f" to read {html!r} as HTML"
        got = yield from self.wait_until(
            check, timeout, f"{want} in chat {chat_id}", wrong=lambda: bool(found), seen=seen
        )
        self.cursor[chat_id] = got.message_id
        return got

    def expect_no_reply(self, chat: int | None, within: float, kind: str | None = None) -> Op[None]:
        """Watch the chat for ``within`` seconds (server-held) and fail if the bot posts a new message a person reads
        (of ``kind`` when given, as :meth:`next_reply` picks)."""
        chat_id = self.chat_for(chat)
        # first let the bot take what it was sent: the stand answers once a getUpdates is held again
        # (a stand without ?polling answers 400, and the quiet window alone has to do)
        q = {"polling": "1", "timeout": fmt_seconds(POLL_GRACE)}
        yield from self.ask(Req("GET", "/sim/wait", query=q, accept=(200, 400, 408), timeout=POLL_GRACE + 10))
        deadline = time.monotonic() + within
        mark = yield from self.count(None)
        while True:
            m, _ = yield from self.next_reply(chat_id, kind)
            if m is not None:
                evidence = yield from self.evidence(chat_id)
                raise AssertionError(f"the bot sent a further message: [{m.message_id}] {m.body!r}\n{evidence}")
            new = yield from self.next_call(mark, deadline)
            if new is None:
                return
            mark = new[0]
