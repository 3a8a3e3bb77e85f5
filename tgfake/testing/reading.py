"""Reading, waiting and control, written once for both clients; and the scripted model's routes."""

from __future__ import annotations

import contextlib
import json
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from tgfake.testing.core import Core, Local, Op, Req
from tgfake.testing.drivers import op
from tgfake.testing.values import QUIET_PERIOD, Call, ChatMessage

T = TypeVar("T")


class ReadingMethods:
    """Wait for the bot, read what it did, and control the stand (faults, clock, sessions, reset)."""

    @op
    def wait_for_reply(
        core: Core,
        /,
        *,
        chat: int | None = None,
        text: str | None = None,
        containing: str | None = None,
        timeout: float | None = None,
        html: str | None = None,
        kind: str | None = None,
    ) -> Op[ChatMessage]:
        """The bot's next message in the chat (the last one a person acted in) that a person reads, once it matches.

        Service messages (``* bot removed carol``, joins, pins) are passed over unless ``kind`` asks for them
        (``kind="service"``; ``kind="any"``: every message). ``html`` compares the formatted message as Telegram's
        HTML (:attr:`ChatMessage.html`). At the timeout the error names what the bot sent instead."""
        return core.wait_for_reply(chat, text, containing, timeout, html, kind)

    @op
    def expect_reply(
        core: Core,
        /,
        text: str | None = None,
        *,
        containing: str | None = None,
        chat: int | None = None,
        timeout: float | None = None,
        html: str | None = None,
        kind: str | None = None,
    ) -> Op[ChatMessage]:
        """Assert the bot's next message a person reads says ``text`` (or contains ``containing``, or is ``html``;
        of ``kind`` when given, e.g. ``"service"``); else fail naming what it sent, with the chat."""
        return core.wait_for_reply(chat, text, containing, timeout, html, kind)

    @op
    def expect_no_reply(
        core: Core, /, *, chat: int | None = None, within: float = QUIET_PERIOD, kind: str | None = None
    ) -> Op[None]:
        """Assert the bot posts nothing new a person reads in the chat for ``within`` seconds (``kind="any"``: not
        even a service message)."""
        return core.expect_no_reply(chat, within, kind)

    @op
    def wait_call(
        core: Core,
        /,
        method: str | None = None,
        count: int = 1,
        *,
        timeout: float | None = None,
        since: int | None = None,
        strict: bool = True,
        token: str = "",
    ) -> Op[list[Call]]:
        """Held by the stand until ``count`` calls of ``method`` (any when None; made with ``token`` when given)
        are in the outbox (``GET /sim/wait``); at the timeout an AssertionError, or ``[]`` when not ``strict``."""
        return core.wait_call(method, count, timeout, since, strict, token)

    @op
    def wait_until(
        core: Core,
        /,
        check: Callable[[], T | None],
        *,
        timeout: float | None = None,
        what: str = "a condition",
    ) -> Op[T]:
        """Re-run ``check`` after each call the bot makes until it returns non-None (server-held waits). The async
        client also awaits a ``check`` that returns an awaitable (a coroutine function: ``cast`` it for mypy)."""

        def checked() -> Op[T | None]:
            got: T | None = yield Local(check)
            return got

        return core.wait_until(checked, timeout, what)

    @op
    def transcript(core: Core, /, chat: int | None = None) -> Op[str]:
        """The chat as text (``GET /sim/chat/{id}?format=text``)."""
        return core.transcript(chat)

    @op
    def chat(core: Core, /, chat: int | None = None) -> Op[dict[str, Any]]:
        """The chat's JSON view (``GET /sim/chat/{id}``)."""
        return core.chat(chat)

    @op
    def messages(core: Core, /, chat: int | None = None) -> Op[list[ChatMessage]]:
        """The chat's messages as :class:`ChatMessage`, oldest first."""
        return core.messages(chat)

    @op
    def outbox(core: Core, /, method: str | None = None, *, since: int | None = None) -> Op[list[Call]]:
        """The bot's recorded calls, oldest first."""
        return core.outbox(method, since)

    @op
    def count(core: Core, /, method: str | None = None) -> Op[int]:
        """How many calls (of ``method``) the outbox holds."""
        return core.count(method)

    @op
    def state(core: Core) -> Op[dict[str, Any]]:
        """``GET /sim/state``: the bot, the people, the chats, the faults."""
        got = yield from core.do(Req("GET", "/sim/state"))
        return dict(got)

    @op
    def evidence(core: Core, /, chat: int | None = None) -> Op[str]:
        """The transcript and the outbox tail, as failures show them."""
        return core.evidence(chat)

    @op
    def fault(
        core: Core,
        /,
        method: str = "*",
        code: int = 500,
        *,
        description: str | None = None,
        retry_after: int | None = None,
        times: int | None = None,
        contains: str | None = None,
    ) -> Op[list[dict[str, Any]]]:
        """Schedule a refusal, e.g. ``fault("sendMessage", 429, retry_after=1, times=1)``."""
        body: dict[str, Any] = {"method": method, "code": code}
        for key, value in (
            ("description", description),
            ("retry_after", retry_after),
            ("times", times),
            ("contains", contains),
        ):
            if value is not None:
                body[key] = value
        got = yield from core.post("/sim/fault", body)
        return list(got.get("faults") or [])

    @op
    def clear_faults(core: Core, /, method: str | None = None) -> Op[None]:
        """Drop the scheduled faults (of ``method``)."""
        if method is None:
            yield from core.do(Req("DELETE", "/sim/fault"))
        else:
            yield from core.post("/sim/fault", {"method": method, "clear": True})

    @op
    def reset(core: Core) -> Op[None]:
        """Forget the conversation (``POST /sim/reset``; the model's state too when it is served)."""
        yield from core.do(Req("POST", "/sim/reset"))
        core.forget()

    @op
    def move_clock(core: Core, /, advance: float | None = None, *, to: float | None = None) -> Op[dict[str, Any]]:
        """Move this stand's (session's) clock by ``advance`` seconds or ``to`` a Unix time (``POST /sim/clock``)."""
        return core.post("/sim/clock", {"advance": advance} if to is None else {"set": to})

    @op
    def open_session(core: Core, /, name: str | None = None) -> Op[dict[str, Any]]:
        """A new session on this stand (``POST /sim/sessions``): its ``id`` and base URLs (``url``, ...)."""
        return core.post("/sim/sessions", {"id": name} if name else None)

    @op
    def end_session(core: Core, /, session_id: str) -> Op[None]:
        """End a session (``DELETE /sim/sessions/{id}``): its held polls answer, its routes then 404."""
        yield from core.do(Req("DELETE", f"/sim/sessions/{urllib.parse.quote(session_id, safe='')}"))


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


def _log(core: Core) -> Op[list[dict[str, Any]]]:
    got = yield from core.do(Req("GET", "/sim/llm/log"))
    return list(got.get("entries") or [])


class ModelMethods:
    """The scripted model's sim routes (``--llm``)."""

    @op
    def log(core: Core) -> Op[list[dict[str, Any]]]:
        """The journal's entries, oldest first (``GET /sim/llm/log``)."""
        return _log(core)

    @op
    def calls(core: Core) -> Op[int]:
        """Completions answered since the last reset, per the journal."""
        return len((yield from _log(core)))

    @op
    def script(core: Core, /, rules: Any) -> Op[None]:
        """Replace the model's rules (``PUT /sim/llm/script``): a list, JSON text, or a JSON file's path."""
        if isinstance(rules, Path):
            rules = rules.read_text()
        if isinstance(rules, str | bytes):
            raw = rules.encode() if isinstance(rules, str) else rules
            yield from core.do(Req("PUT", "/sim/llm/script", raw_body=raw))
        else:
            yield from core.do(Req("PUT", "/sim/llm/script", body=rules))

    @op
    def reset(core: Core) -> Op[None]:
        """Forget the model's journal and state (``POST /sim/llm/reset``)."""
        yield from core.do(Req("POST", "/sim/llm/reset"))

    @staticmethod
    def tools_called(entries: Sequence[Mapping[str, Any]]) -> list[str]:
        """Every tool the model asked the bot to call, in order."""
        return [name for e in entries for name in _tool_calls_in(e)]

    @staticmethod
    def system_prompts(entries: Sequence[Mapping[str, Any]]) -> list[str]:
        """The system text of each request."""
        return [_system_text(e) for e in entries]
