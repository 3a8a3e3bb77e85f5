"""The stand: every piece of state of a fake Telegram, as plain objects driven by thin HTTP handlers.

Nothing here knows about aiohttp; tests and the in-process API drive it directly, the app serves it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tgfake import errors
from tgfake.chats import (
    Chat,
    Person,
    StoredFile,
    StoredMessage,
    button_in,
    message_json,
    message_lines,
    message_view,
    type_for_id,
)
from tgfake.clock import Clock, SystemClock
from tgfake.errors import SimError, TelegramError
from tgfake.faults import Fault, Faults
from tgfake.menus import MenuButtons
from tgfake.models import MAX_TEXT, CallbackIn, FaultIn, FileIn, MessageIn
from tgfake.options import Options
from tgfake.params import Params
from tgfake.webhooks import Webhook

DEFAULT_USER_ID = 4242
DEFAULT_USERNAME = "alice"
DEFAULT_FIRST_NAME = "Alice"
GROUP_ID_BASE = -100000000000
DEFAULT_GROUP_TITLE = "Fake group"
UPDATE_KINDS = ("message", "callback_query", "stopped_message_generation")

_COMMAND = re.compile(r"/[A-Za-z0-9_]+(?:@[A-Za-z0-9_]+)?")


def utf16_len(text: str) -> int:
    """Entity offsets and lengths count UTF-16 code units, as Telegram's do."""
    return len(text.encode("utf-16-le")) // 2


def capitalized(name: str) -> str:
    """The first character upper-cased (Unicode-aware: ``ёжик`` → ``Ёжик``)."""
    return name[:1].upper() + name[1:]


def dump(value: Any) -> str:
    """Compact UTF-8 JSON, as Telegram writes it."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@dataclass(slots=True)
class Call:
    """One Bot API call as the outbox records it."""

    seq: int
    at: float
    method: str
    params: dict[str, str]
    status: int
    response: dict[str, Any]

    def json(self) -> dict[str, Any]:
        at = datetime.fromtimestamp(self.at).astimezone().isoformat()
        return {
            "seq": self.seq,
            "at": at,
            "method": self.method,
            "params": self.params,
            "status": self.status,
            "response": self.response,
        }


@dataclass(slots=True)
class World:
    """What a reset forgets: the conversation state. Reset builds a new one instead of clearing fields."""

    pending: list[dict[str, Any]] = field(default_factory=list)
    chats: dict[int, Chat] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)
    faults: Faults = field(default_factory=Faults)
    commands: list[dict[str, Any]] = field(default_factory=list)
    next_cbq: int = 1
    callback_queries: dict[str, int] = field(default_factory=dict)  # unanswered query id -> chat id
    files: dict[str, StoredFile] = field(default_factory=dict)  # uploads by file id (file_1, ...)
    menus: MenuButtons = field(default_factory=MenuButtons)


class Signal:
    """Wakes every current waiter at once; waiters re-check their condition (no sleep loops anywhere)."""

    def __init__(self) -> None:
        self._event: asyncio.Event | None = None

    def fire(self) -> None:
        if self._event is not None:
            self._event.set()
            self._event = None

    async def wait(self, timeout: float) -> None:
        """Wait for the next ``fire`` or ``timeout`` seconds, whichever comes first."""
        if self._event is None:
            self._event = asyncio.Event()
        event = self._event
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)


class Stand:
    """A fake Telegram for one bot: update queue, chats, outbox, faults, and the person's actions.

    Survives a reset: the update id counter (a polling bot ignores ids below its offset), the subscription and the
    webhook's configuration (Telegram keeps them with the token), the signing token, and counters that are
    process-wide by design.
    """

    def __init__(self, options: Options | None = None, clock: Clock | None = None) -> None:
        self.options = options or Options()
        self.clock: Clock = clock or SystemClock()
        self.next_update_id = 1
        self.allowed_updates: tuple[str, ...] | None = (
            tuple(self.options.allowed_updates) if self.options.allowed_updates else None
        )
        self.signing_token = self.options.token
        self.next_query_id = 1  # Mini App query_id tgfake-N, for the life of the process
        self.world = World()
        self.webhook = Webhook()  # delivered by tgfake.delivery while set; getUpdates is refused meanwhile
        self.closing = False
        self.held_polls = 0  # getUpdates requests waiting right now: a bot holding one is idle
        self.polls_started = 0  # numbers held polls; the newest one terminates the older ones, as Telegram does
        self.newest_poll = 0
        self.updates_signal = Signal()
        self.calls_signal = Signal()
        self.call_listeners: list[Callable[[Call], None]] = []
        self.reset_hooks: list[Callable[[], None]] = []  # other parts of the origin (the model) reset with us

    # --- identity ------------------------------------------------------------------------------------------------
    @property
    def bot_user(self) -> dict[str, Any]:
        """The bot as ``from`` of its messages."""
        return {
            "id": self.options.bot_id,
            "is_bot": True,
            "first_name": self.options.bot_name,
            "username": self.options.bot_username,
        }

    def get_me(self) -> dict[str, Any]:
        return {
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "first_name": self.options.bot_name,
            "id": self.options.bot_id,
            "is_bot": True,
            "supports_inline_queries": False,
            "username": self.options.bot_username,
        }

    def now(self) -> float:
        return self.clock.now()

    def unix_now(self) -> int:
        return int(self.clock.now())

    # --- lifecycle -----------------------------------------------------------------------------------------------
    def reset(self) -> None:
        """Forget the conversation (see the class docstring for what stays); held polls keep waiting."""
        self.world = World()
        self.webhook.forget()
        for hook in self.reset_hooks:
            hook()
        self.updates_signal.fire()
        self.calls_signal.fire()

    def close(self) -> None:
        """Release every held poll (answered with what it has); idempotent."""
        self.closing = True
        self.updates_signal.fire()
        self.calls_signal.fire()

    # --- chats ---------------------------------------------------------------------------------------------------
    def chat(self, chat_id: int) -> Chat | None:
        return self.world.chats.get(chat_id)

    def chat_for_send(self, chat_id: int) -> Chat:
        """The chat a bot writes to, created on first use with the type its id implies."""
        chat = self.world.chats.get(chat_id)
        if chat is None:
            chat = Chat(id=chat_id, type=type_for_id(chat_id))
            self.world.chats[chat_id] = chat
        return chat

    def chat_type(self, chat_id: int) -> str:
        chat = self.world.chats.get(chat_id)
        return chat.type if chat is not None else type_for_id(chat_id)

    def message_json(self, chat: Chat, msg: StoredMessage) -> dict[str, Any]:
        return message_json(chat, msg, self.bot_user)

    # --- updates -------------------------------------------------------------------------------------------------
    def push_update(self, kind: str, payload: dict[str, Any]) -> int:
        """Mint the next update id and queue the update if the subscription wants its kind."""
        update_id = self.next_update_id
        self.next_update_id += 1
        if self.allowed_updates is None or kind in self.allowed_updates:
            self.world.pending.append({"update_id": update_id, kind: payload})
            self.updates_signal.fire()
        return update_id

    def set_allowed_updates(self, kinds: list[str] | None) -> None:
        """``None`` or ``[]`` means every kind."""
        self.allowed_updates = tuple(kinds) if kinds else None

    def confirm(self, offset: int) -> None:
        """Forget confirmed updates; a negative offset keeps only the newest ``-offset`` ones."""
        pending = self.world.pending
        if offset > 0:
            self.world.pending = [u for u in pending if u["update_id"] >= offset]
        elif offset < 0 and -offset < len(pending):
            self.world.pending = pending[offset:]

    async def get_updates(self, offset: int, limit: int, timeout: float) -> list[dict[str, Any]]:
        """Confirm by ``offset`` at once, then hold until something is pending, the deadline, or close.

        Only one poll is held at a time: a new poll that has to wait terminates the one already waiting with
        ``409 Conflict: terminated by other getUpdates request`` (an immediately answered poll does not), as
        Telegram does when two instances of a bot run.
        """
        self.confirm(offset)
        if limit <= 0 or limit > 100:
            limit = 100
        loop = asyncio.get_running_loop()
        deadline = loop.time() + min(timeout, self.options.poll_max)
        poll = 0
        while True:
            if poll and poll != self.newest_poll:
                raise TelegramError(409, errors.CONFLICT_POLLS)
            if self.webhook.active:
                raise TelegramError(409, errors.CONFLICT_SET_WEBHOOK if poll else errors.CONFLICT_WEBHOOK)
            batch = self.world.pending[:limit]
            remaining = deadline - loop.time()
            if batch or remaining <= 0 or self.closing:
                return list(batch)
            if not poll:  # about to hold: a poll already held (another bot instance) is terminated
                self.polls_started += 1
                poll = self.newest_poll = self.polls_started
                self.updates_signal.fire()
            self.held_polls += 1
            self.calls_signal.fire()
            try:
                await self.updates_signal.wait(remaining)
            finally:
                self.held_polls -= 1
            self.confirm(offset)

    # --- the person ----------------------------------------------------------------------------------------------
    def person(self, user_id: int, username: str, first_name: str, *, name_from_username: bool) -> Person:
        """Fill in the default identity (4242 is alice); first names derive from usernames for messages only."""
        uid = user_id or DEFAULT_USER_ID
        name = username or (DEFAULT_USERNAME if uid == DEFAULT_USER_ID else "")
        first = first_name or (capitalized(name) if name and name_from_username else DEFAULT_FIRST_NAME)
        return Person(id=uid, first_name=first, username=name)

    def inject_message(self, body: MessageIn) -> tuple[int, int]:
        """The person sends a text; returns (message_id, update_id)."""
        if not body.text.strip():
            raise SimError(400, "text is empty")
        if len(body.text) > MAX_TEXT:
            raise SimError(400, f"text is longer than {MAX_TEXT} characters")
        return self.inject(body, body.text)

    def inject(
        self,
        body: MessageIn | FileIn,
        text: str,
        photo: StoredFile | None = None,
        document: StoredFile | None = None,
    ) -> tuple[int, int]:
        """The person's message: a text, or with ``photo``/``document`` a file whose caption is ``text``.

        A caption's command or mention entity goes out as ``caption_entities``, as Telegram's does.
        """
        media = photo is not None or document is not None
        person = self.person(body.user_id, body.username, body.first_name, name_from_username=True)
        chat_type = body.chat_type.strip().lower() or type_for_id(body.chat_id or person.id)
        chat_id = body.chat_id or (person.id if chat_type == "private" else GROUP_ID_BASE - person.id)
        chat = self.world.chats.get(chat_id)
        if chat is None:
            if chat_type == "private" and chat_id < 0:
                raise SimError(400, "a private chat's chat_id is the person's user_id: it must be positive")
            chat = Chat(id=chat_id, type=chat_type)
            self.world.chats[chat_id] = chat
        if chat.type != "private" and not chat.title:
            chat.title = body.chat_title or DEFAULT_GROUP_TITLE
        if chat.type == "private":
            chat.user = person
        entities: list[dict[str, Any]] = []
        if body.mention:
            handle = "@" + self.options.bot_username
            text = f"{handle} {text}" if text else handle
            entities.append({"type": "mention", "offset": 0, "length": utf16_len(handle)})
        elif m := _COMMAND.match(text):
            entities.append({"type": "bot_command", "offset": 0, "length": utf16_len(m.group())})
        reply_to = body.reply_to_message_id if body.reply_to_message_id in chat.messages else None
        msg = chat.add(
            StoredMessage(
                message_id=chat.mint_message_id(),
                date=self.unix_now(),
                from_bot=False,
                sender=person,
                text="" if media else text,
                caption=text if media else "",
                entities=entities,
                reply_to=reply_to,
                photo=photo,
                document=document,
            )
        )
        update_id = self.push_update("message", self.message_json(chat, msg))
        return msg.message_id, update_id

    def inject_callback(self, body: CallbackIn) -> tuple[str, int]:
        """The person taps a button (by label, or sends ``data`` as if they had); returns (query id, update id)."""
        if not body.label and not body.data:
            raise SimError(400, "data or label is required")
        person = self.person(body.user_id, body.username, body.first_name, name_from_username=False)
        chat_id = body.chat_id or person.id
        chat = self.world.chats.get(chat_id)
        if chat is None or not chat.messages:
            raise SimError(404, f"chat {chat_id} has no messages")
        if body.message_id:
            target = chat.messages.get(body.message_id)
            if target is None:
                raise SimError(404, f"message {body.message_id} not found in chat {chat_id}")
        else:
            found = chat.newest_with_keyboard()
            if found is None:
                raise SimError(404, f"chat {chat_id} has no message with an inline keyboard")
            target = found
        data = body.data
        if not data:
            hit = None
            if body.message_id:
                hit = button_in(target, body.label)
            else:
                located = chat.find_button(body.label)
                if located is not None:
                    target, hit = located
            if hit is None:
                raise SimError(404, f"message {target.message_id} has no button {dump(body.label.strip())}")
            data = hit.callback_data or ""
        query_id = f"cbq-{self.world.next_cbq}"
        self.world.next_cbq += 1
        self.world.callback_queries[query_id] = chat_id
        payload: dict[str, Any] = {
            "id": query_id,
            "from": person.json(),
            "message": self.message_json(chat, target),
            "chat_instance": str(chat_id),
        }
        if data:
            payload["data"] = data
        return query_id, self.push_update("callback_query", payload)

    # --- outbox --------------------------------------------------------------------------------------------------
    def record(self, method: str, params: Params, status: int, response: dict[str, Any]) -> Call:
        call = Call(
            seq=len(self.world.calls) + 1,
            at=self.now(),
            method=method,
            params=params.summary(),
            status=status,
            response=response,
        )
        self.world.calls.append(call)
        for listener in self.call_listeners:
            listener(call)
        self.calls_signal.fire()
        return call

    def calls(self, method: str = "", since: int = 0) -> list[Call]:
        """Recorded calls, oldest first; ``method`` compares case-insensitively.

        ``seq`` is the position in the outbox plus one (calls are only appended; a reset starts a new outbox), so
        ``since`` slices instead of scanning: a server-held wait costs only the calls it has not seen.
        """
        want = method.lower()
        recent = self.world.calls[max(since, 0) :]
        return [c for c in recent if not want or c.method.lower() == want]

    def chats(self) -> list[dict[str, Any]]:
        return self.chat_summaries()

    async def wait_call(self, method: str, count: int = 1, timeout: float = 5.0) -> list[Call]:
        """The in-process twin of ``GET /sim/wait``: the matching calls once there are ``count`` of them."""
        return await self.wait_calls(method, count, timeout)

    async def wait_calls(self, method: str, count: int, timeout: float, since: int = 0) -> list[Call]:
        """Hold until at least ``count`` matching calls are recorded or the deadline passes; returns the matches."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            found = self.calls(method, since)
            remaining = deadline - loop.time()
            if len(found) >= count or remaining <= 0 or self.closing:
                return found
            await self.calls_signal.wait(remaining)

    async def wait_polling(self, timeout: float) -> bool:
        """Hold until a getUpdates is being held (the bot is idle, waiting for updates) or the deadline."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self.held_polls:
            remaining = deadline - loop.time()
            if remaining <= 0 or self.closing:
                return False
            await self.calls_signal.wait(remaining)
        return True

    # --- faults --------------------------------------------------------------------------------------------------
    def schedule_fault(self, body: FaultIn) -> None:
        if body.clear:
            self.world.faults.clear(body.method)
            return
        if body.code and not 400 <= body.code <= 599:
            raise SimError(400, f"code {body.code} is not an HTTP error status (400-599)")
        self.world.faults.set(
            Fault(
                method=body.method,
                code=body.code or 500,
                description=body.description,
                retry_after=body.retry_after,
                times=body.times,
                contains=body.contains,
            )
        )

    # --- the Bot API entry ---------------------------------------------------------------------------------------
    async def call(self, token: str, method: str, params: Params) -> tuple[int, dict[str, Any]]:
        """Serve one Bot API call in the reference stand's check order and record it; returns (status, envelope).

        A call cancelled while held (its client went away) raises CancelledError and is neither answered nor recorded.
        """
        from tgfake.botapi import lookup  # the method modules import this one

        try:
            if self.options.token and token != self.options.token:
                raise TelegramError(401, errors.UNAUTHORIZED)
            if not self.options.token:
                self.signing_token = token
            fault = self.world.faults.fire(method, params)
            if fault is not None:
                raise fault
            handler = lookup(method)
            if handler is None:
                raise TelegramError(404, errors.METHOD_NOT_FOUND)
            status, envelope = 200, envelope_of(await handler(self, params))
        except TelegramError as exc:
            status, envelope = exc.status, envelope_of(exc)
        self.record(method, params, status, envelope)
        return status, envelope

    # --- views ---------------------------------------------------------------------------------------------------
    def view(self, chat_id: int) -> ChatView:
        """A chat as tests read it: ``.json()`` (the sim view), ``.text()`` (the transcript), ``.find_button()``."""
        return ChatView(self, chat_id)

    def chat_view(self, chat_id: int) -> dict[str, Any]:
        """A chat as ``GET /sim/chat/{id}`` shows it; an unknown chat is an empty view typed by its id's sign."""
        chat = self.world.chats.get(chat_id) or Chat(id=chat_id, type=type_for_id(chat_id))
        out: dict[str, Any] = {"chat_id": chat.id, "type": chat.type}
        if chat.title:
            out["title"] = chat.title
        out["typing"] = chat.typing(self.now())
        out["messages"] = [message_view(m) for m in chat.messages.values()]
        out["drafts"] = [d.json() for d in chat.drafts.current(self.now())]
        out["callbacks"] = [a.json() for a in chat.callbacks]
        out["menu_button"] = self.world.menus.shown(chat.id, chat.type)
        return out

    def chat_text(self, chat_id: int) -> str:
        """The transcript: one line per live message, keyboards under it, ``typing…`` last while typing."""
        chat = self.world.chats.get(chat_id)
        if chat is None:
            return ""
        lines: list[str] = []
        for msg in chat.messages.values():
            if not msg.deleted:
                lines.extend(message_lines(msg))
        for draft in chat.drafts.current(self.now()):
            lines.extend(draft.lines())
        if chat.typing(self.now()):
            lines.append("typing…")
        return "".join(line + "\n" for line in lines)

    def chat_summaries(self) -> list[dict[str, Any]]:
        out = []
        for chat in sorted(self.world.chats.values(), key=lambda c: c.id):
            item: dict[str, Any] = {"chat_id": chat.id, "type": chat.type}
            if chat.type == "private" and chat.user is not None:
                item["title"] = "@" + chat.user.username
            elif chat.title:
                item["title"] = chat.title
            item["messages"] = len(chat.messages)
            out.append(item)
        return out

    def state(self) -> dict[str, Any]:
        return {
            "allowed_updates": list(self.allowed_updates) if self.allowed_updates is not None else None,
            "bot": self.get_me(),
            "calls": len(self.world.calls),
            "commands": self.world.commands,
            "faults": self.world.faults.list(),
            "held_polls": self.held_polls,
            "menu_button": self.world.menus.bot_button(),
            "next_update_id": self.next_update_id,
            "pending_updates": len(self.world.pending),
        }


@dataclass(frozen=True, slots=True)
class ChatView:
    """A read-only window on one chat (the in-process twin of ``GET /sim/chat/{id}``)."""

    stand: Stand
    chat_id: int

    def json(self) -> dict[str, Any]:
        return self.stand.chat_view(self.chat_id)

    def text(self) -> str:
        return self.stand.chat_text(self.chat_id)

    def find_button(self, label: str) -> tuple[StoredMessage, Any] | None:
        chat = self.stand.chat(self.chat_id)
        return chat.find_button(label) if chat is not None else None


@dataclass(frozen=True, slots=True)
class Described:
    """A method result Telegram answers with a ``description`` beside it (setWebhook's "Webhook was set")."""

    result: Any
    description: str


def envelope_of(outcome: Any) -> dict[str, Any]:
    """The one envelope: a refusal (``parameters.retry_after`` only when set), a described result, or a result."""
    if isinstance(outcome, TelegramError):
        out: dict[str, Any] = {"ok": False, "error_code": outcome.status, "description": outcome.description}
        if outcome.retry_after > 0:
            out["parameters"] = {"retry_after": outcome.retry_after}
        return out
    if isinstance(outcome, Described):
        return {"ok": True, "result": outcome.result, "description": outcome.description}
    return {"ok": True, "result": outcome}
