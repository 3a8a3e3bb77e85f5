"""The stand: one session's Telegram world, as plain objects driven by thin HTTP handlers.

Nothing here knows about aiohttp; tests and the in-process API drive it directly, the app serves it. A stand holds
many bots (each with its own projection: :class:`tgfake.world.bots.Bot`), the people, the chats and their
members, the outbox and the faults. Which bot gets which update is decided in :mod:`tgfake.world.visibility`.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import json
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from tgfake import errors, reply_keyboards
from tgfake.bounds import UNKNOWN_USER_LIMIT
from tgfake.chats import (
    Chat,
    StoredMessage,
    button_in,
    comment_thread,
    message_json,
    message_view,
    origin_of,
    transcript_lines,
    type_for_id,
)
from tgfake.clock import Clock, OffsetClock, SystemClock
from tgfake.content import Media, StoredFile
from tgfake.errors import SimError, TelegramError
from tgfake.faults import Fault, Faults
from tgfake.models import MAX_TEXT, BotIn, CallbackIn, ClockIn, FaultIn, MessageIn, SenderFields
from tgfake.options import DEFAULT_BOT_ID, Options
from tgfake.params import Params, parse_int
from tgfake.text import plain_entities, utf16_len
from tgfake.webhooks import Webhook
from tgfake.world import visibility
from tgfake.world.bots import Bot, Signal, check_token_shape, token_bot_id
from tgfake.world.flood import COUNTED, FloodControl
from tgfake.world.games import Games
from tgfake.world.grants import Grants
from tgfake.world.inline import Inline
from tgfake.world.members import ADMINISTRATOR, MEMBER, Member, default_permissions, full_rights
from tgfake.world.payments import Payments
from tgfake.world.people import (
    DEFAULT_FIRST_NAME,
    DEFAULT_USER_ID,
    DEFAULT_USERNAME,
    User,
    capitalized,
    stand_in_sender,
)
from tgfake.world.polls import Polls, close_due
from tgfake.world.profiles import Profiles
from tgfake.world.stickers import Stickers

__all__ = ["DEFAULT_USER_ID", "BotCall", "Call", "Described", "Signal", "Stand", "World"]

GROUP_ID_BASE = -100000000000
CHAT_PARAMS = ("chat_id", "from_chat_id")
"""The parameters ``check_chat`` reads a chat from, so an ``@username`` there names a public chat."""

FREEZE_EVERY = 8192
"""Recorded calls between two ``gc.freeze()``: the history only grows until a reset, so the collector need not
scan it again and again (a full collection over 100k stored calls took tens of milliseconds: the p99)."""
DEFAULT_GROUP_TITLE = "Fake group"


_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)  # built once: json.dumps builds one per call


def dump(value: Any) -> str:
    """Compact UTF-8 JSON, as Telegram writes it."""
    return _COMPACT.encode(value)


@dataclass(slots=True)
class Call:
    """One Bot API call as the outbox records it (``bot_id``: which bot made it).

    The answer is kept as the compact UTF-8 JSON that went out on the wire (``body``), not as nested dicts: one
    bytes object per call instead of a tree of small objects keeps a long history small and out of the garbage
    collector's way. ``response`` decodes it when someone reads the outbox.
    """

    seq: int
    at: float
    method: str
    params: dict[str, str]
    status: int
    body: bytes
    bot_id: int = 0
    retry_after: int = 0

    @property
    def response(self) -> dict[str, Any]:
        decoded: dict[str, Any] = json.loads(self.body)
        return decoded

    def json(self) -> dict[str, Any]:
        at = datetime.fromtimestamp(self.at).astimezone().isoformat()
        return {
            "seq": self.seq,
            "at": at,
            "method": self.method,
            "params": self.params,
            "status": self.status,
            "response": self.response,
            "bot_id": self.bot_id,
        }


@dataclass(slots=True)
class World:
    """What a reset forgets: people, chats, the outbox and faults. Reset builds a new one instead of clearing."""

    users: dict[int, User] = field(default_factory=dict)
    chats: dict[int, Chat] = field(default_factory=dict)  # groups, supergroups and channels by id
    private: dict[tuple[int, int], Chat] = field(default_factory=dict)  # (bot id, person id) -> their private chat
    calls: list[Call] = field(default_factory=list)
    faults: Faults = field(default_factory=Faults)
    flood: FloodControl = field(default_factory=FloodControl)
    next_cbq: int = 1
    polls: Polls = field(default_factory=Polls)  # votes and timed closes of every poll (tgfake/world/polls.py)
    files: dict[str, StoredFile] = field(default_factory=dict)  # uploads by file id (file_1, ...)
    payments: Payments = field(default_factory=Payments)  # invoices, open queries, charges, Stars
    games: Games = field(default_factory=Games)  # game messages and their high scores
    stickers: Stickers = field(default_factory=Stickers)  # sticker sets owned by bots, uploaded sticker files
    grants: Grants = field(default_factory=Grants)  # emoji status access, passport data errors
    profiles: Profiles = field(default_factory=Profiles)  # the people's profile photos and audios
    inline: Inline = field(default_factory=Inline)  # inline queries and answers, inline and prepared messages


@dataclass(frozen=True, slots=True)
class BotCall:
    """One Bot API call's view of the world: the stand and the bot making the call (``ctx`` in method code).

    Chat ids are read as this bot reads them: a positive id is the bot's own private chat with that person.
    """

    stand: Stand
    bot: Bot

    @property
    def world(self) -> World:
        return self.stand.world

    def now(self) -> float:
        return self.stand.now()

    def unix_now(self) -> int:
        return self.stand.unix_now()

    def chat(self, chat_id: int) -> Chat | None:
        return self.stand.chat_of(self.bot, chat_id)

    def chat_type(self, chat_id: int) -> str:
        chat = self.chat(chat_id)
        return chat.type if chat is not None else type_for_id(chat_id)

    def chat_for_send(self, chat_id: int) -> Chat:
        """The chat this bot writes to; refused as Telegram refuses it (blocked, not a member), else created."""
        return self.stand.chat_for_send(self.bot, chat_id)

    def message_json(self, chat: Chat, msg: StoredMessage) -> dict[str, Any]:
        return message_json(chat, msg)

    def push(self, kind: str, payload: dict[str, Any]) -> int:
        return self.bot.push(kind, payload)


class Stand:
    """A fake Telegram: bots, people, chats, the outbox, faults, and the people's actions.

    Survives a reset: the bots (identity, token, update id counter, subscription, webhook configuration; Telegram
    keeps them with the token), the people's defaults, and counters that are process-wide by design.
    """

    def __init__(self, options: Options | None = None, clock: Clock | None = None) -> None:
        self.options = options or Options()
        self.clock = OffsetClock(clock or SystemClock())  # its own offset: POST /sim/clock moves this stand only
        self.bots: dict[int, Bot] = {}
        self.tokens: dict[str, Bot] = {}
        self.next_query_id = 1  # Mini App query_id tgfake-N, for the life of the process
        self.world = World()
        self.closing = False
        self.calls_signal = Signal()
        self.bots_signal = Signal()  # a bot was added or set a webhook: the delivery worker looks again
        self.call_listeners: list[Callable[[Call], None]] = []
        self.reset_hooks: list[Callable[[], None]] = []  # other parts of the origin (the model) reset with us
        self.first_bot = self._make_first_bot()  # "the bot" until one calls; the first token claims it
        self.latest_bot: Bot | None = None  # the bot of the latest Bot API call (kept across resets)
        self.named_bot: Bot | None = None  # the first bot to call since the last reset: a transcript's "bot"
        self.pinned_bot: Bot | None = self.first_bot if self.options.all_tokens else None  # --token pins its first
        for token in self.options.all_tokens[1:]:
            self._register_token(token)

    # --- bots ----------------------------------------------------------------------------------------------------
    @property
    def default_bot(self) -> Bot:
        """The bot meant when none is named (the sim's actions, launches, views): the pinned one (the first
        ``--token``, or ``POST /sim/bots`` with ``default``), else the bot that most recently called the Bot API (a
        reset keeps it), else the stand's first bot, which the first token claims."""
        return self.pinned_bot or self.latest_bot or self.first_bot

    def pin_default(self, bot: Bot) -> None:
        """``POST /sim/bots`` with ``default: true``: this bot is "the bot" whoever calls later, resets or not."""
        self.pinned_bot = bot

    def _make_first_bot(self) -> Bot:
        """The stand's first bot, "the bot" before any call; a fixed ``--token`` (the first) is its token."""
        token = self.options.all_tokens[0] if self.options.all_tokens else ""
        bot_id = self.options.bot_id or token_bot_id(token) or DEFAULT_BOT_ID
        bot = Bot(
            user=User(id=bot_id, first_name=self.options.bot_name, username=self.options.bot_username, is_bot=True),
            token=token,
            allowed_updates=tuple(self.options.allowed_updates) if self.options.allowed_updates else None,
        )
        self.bots[bot.id] = bot
        if token:
            self.tokens[token] = bot
        return bot

    def _register_token(self, token: str) -> Bot:
        """A token seen for the first time becomes a bot whose id is the token's number."""
        bot_id = token_bot_id(token)
        if bot_id is None or bot_id in self.bots:  # a known bot with another secret: Telegram's 401
            raise TelegramError(401, errors.UNAUTHORIZED)
        bot = Bot(user=User(id=bot_id, first_name=f"Bot {bot_id}", username=f"bot{bot_id}_bot", is_bot=True))
        bot.token = token
        return self.add_bot(bot)

    def add_bot(self, bot: Bot) -> Bot:
        self.bots[bot.id] = bot
        if bot.token:
            self.tokens[bot.token] = bot
        self.bots_signal.fire()
        return bot

    def bot_for_token(self, token: str) -> Bot:
        """The bot a token names; 401 where Telegram would refuse.

        With ``--strict`` a token is checked as Telegram checks its shape, and only the tokens of the stand's bots
        (``--token``, ``POST /sim/bots``) are accepted. With ``--token`` only the listed tokens are. Otherwise any
        token is: one without a bot id (``TEST``) names the stand's first bot; the first token with an id claims
        the first bot (which then takes that id, unless ``--bot-id`` fixed it); every other id is a bot of its
        own, and a known id with another secret is refused, as Telegram refuses it.
        """
        bot = self.tokens.get(token)
        if bot is not None:
            return bot
        if self.options.strict:
            check_token_shape(token)
            raise TelegramError(401, errors.UNAUTHORIZED)  # no such bot: its authorization fails
        if self.options.all_tokens:
            raise TelegramError(401, errors.UNAUTHORIZED)
        first = self.first_bot
        bot_id = token_bot_id(token)
        if bot_id is None:
            if not first.token:
                first.token = token
            self.tokens[token] = first
            return first
        if token_bot_id(first.token) is None and (bot_id == first.id or bot_id not in self.bots):
            if not self.options.bot_id and bot_id != first.id:
                self._rekey_bot(first, bot_id)
            first.token = token
            self.tokens[token] = first
            return first
        return self._register_token(token)

    def _rekey_bot(self, bot: Bot, new_id: int) -> None:
        """Give a bot that nobody has called as yet its token's id, everywhere the world names it."""
        old = bot.id
        del self.bots[old]
        bot.user.id = new_id
        self.bots[new_id] = bot
        world = self.world
        world.private = {(new_id if b == old else b, u): c for (b, u), c in world.private.items()}
        for chat in world.private.values():
            if chat.bot_id == old:
                chat.bot_id = new_id
        for chat in world.chats.values():
            if old in chat.members:
                chat.members[new_id] = chat.members.pop(old)
        for queued in self.bots.values():  # updates already rendered (a group made before the bot's first call)
            for update in queued.pending:
                _rename_bot(update, old, new_id)

    def find_bot(self, ref: str | int = "") -> Bot:
        """The bot a sim request names: by id, or by username with or without ``@``; none named is the default."""
        if ref in ("", 0):
            return self.default_bot
        if isinstance(ref, int):
            bot = self.bots.get(ref)
        elif (number := parse_int(ref)) is not None:  # ASCII digits only ("²" is a digit to str.isdigit)
            bot = self.bots.get(number)
        else:
            name = ref.strip().removeprefix("@").lower()
            bot = next((b for b in self.bots.values() if b.username.lower() == name), None)
        if bot is None:
            raise SimError(404, f"bot {ref} not found")
        return bot

    def create_bot(self, body: BotIn) -> Bot:
        """``POST /sim/bots``: a bot with a name, a username and BotFather flags; its token is made if not given."""
        token = body.token
        bot_id = body.id or (token_bot_id(token) if token else None) or self._free_bot_id()
        if token and token_bot_id(token) != bot_id:
            raise SimError(400, f"token {token!r} does not start with the bot id {bot_id}")
        if bot_id in self.bots:
            raise SimError(409, f"bot {bot_id} already exists")
        username = body.username.removeprefix("@") or f"bot{bot_id}_bot"
        if not username.lower().endswith("bot"):
            raise SimError(400, f"username {username!r} must end in 'bot', as BotFather requires")
        if any(b.username.lower() == username.lower() for b in self.bots.values()):
            raise SimError(409, f"username @{username} is taken")
        bot = Bot(
            user=User(id=bot_id, first_name=body.first_name or f"Bot {bot_id}", username=username, is_bot=True),
            token=token or f"{bot_id}:tgfake-{bot_id}",
            can_join_groups=body.can_join_groups,
            can_read_all_group_messages=body.can_read_all_group_messages,
            supports_inline_queries=body.supports_inline_queries,
            inline_feedback=100 if body.inline_feedback is True else int(body.inline_feedback),
        )
        self.add_bot(bot)
        if body.default:
            self.pin_default(bot)
        return bot

    def _free_bot_id(self) -> int:
        return max(max(self.bots, default=DEFAULT_BOT_ID), DEFAULT_BOT_ID) + 1

    # --- identity of the default bot (the in-process API of a one-bot stand) --------------------------------------
    @property
    def bot_user(self) -> dict[str, Any]:
        return self.default_bot.user.json()

    def get_me(self) -> dict[str, Any]:
        return self.default_bot.get_me()

    @property
    def webhook(self) -> Webhook:
        """The default bot's webhook."""
        return self.default_bot.webhook

    @property
    def updates_signal(self) -> Signal:
        return self.default_bot.updates_signal

    @property
    def next_update_id(self) -> int:
        return self.default_bot.next_update_id

    @property
    def allowed_updates(self) -> tuple[str, ...] | None:
        return self.default_bot.allowed_updates

    @property
    def signing_token(self) -> str:
        """The token Mini App launches are signed with: the default bot's (the latest caller's unless pinned)."""
        return self.default_bot.token

    def push_update(self, kind: str, payload: dict[str, Any]) -> int:
        """Queue an update for the default bot."""
        return self.default_bot.push(kind, payload)

    def now(self) -> float:
        return self.clock.now()

    def unix_now(self) -> int:
        return int(self.clock.now())

    def move_clock(self, body: ClockIn) -> None:
        """``POST /sim/clock``: exactly one of ``advance`` (seconds, may be negative) or ``set`` (a Unix time).

        Whatever reads time lazily (drafts, the typing window, ``until_date``) sees the new time at once; held sim
        waits re-check their condition.
        """
        if (body.advance is None) == (body.set is None):
            raise SimError(400, "give exactly one of advance (seconds) or set (a Unix time)")
        amount = body.advance if body.advance is not None else body.set
        if amount is None or not math.isfinite(amount):
            raise SimError(400, "the clock moves by a finite number of seconds")
        if body.set is not None:
            if body.set < 0:
                raise SimError(400, "set must be a Unix time (seconds since 1970), not negative")
            self.clock.set(body.set)
        else:
            self.clock.advance(amount)
        close_due(self)  # a timed poll whose time has come closes now: its bot hears of it
        self.calls_signal.fire()

    def clock_json(self) -> dict[str, Any]:
        now = self.now()
        return {"now": now, "unix": int(now), "offset": self.clock.offset}

    # --- lifecycle -----------------------------------------------------------------------------------------------
    def reset(self) -> None:
        """Forget the conversation (see the class docstring for what stays); held polls keep waiting."""
        frozen = len(self.world.calls) >= FREEZE_EVERY
        self.world = World()
        if frozen:
            gc.unfreeze()  # the old history is garbage now: let the collector see it again
        for bot in self.bots.values():
            bot.forget()
        self.named_bot = None
        for hook in self.reset_hooks:
            hook()
        self.calls_signal.fire()

    def close(self) -> None:
        """Release every held poll (answered with what it has); idempotent."""
        self.closing = True
        for bot in self.bots.values():
            bot.updates_signal.fire()
        self.calls_signal.fire()
        self.bots_signal.fire()

    def is_closing(self) -> bool:
        return self.closing

    # --- people --------------------------------------------------------------------------------------------------
    def person(
        self, user_id: int, username: str, first_name: str, *, name_from_username: bool, last_name: str = ""
    ) -> User:
        """The person with this id (4242 is alice), remembered with the names given the first time; a later
        ``last_name`` (none until given) renames them too."""
        uid = user_id or DEFAULT_USER_ID
        known = self.world.users.get(uid)
        if known is not None and last_name:
            known.last_name = last_name
        if known is not None and not username and not first_name:
            return known
        name = username or (known.username if known else "") or (DEFAULT_USERNAME if uid == DEFAULT_USER_ID else "")
        if first_name:
            first = first_name
        elif username and name_from_username:
            first = capitalized(username)
        elif known is not None:
            first = known.first_name
        else:
            first = capitalized(name) if name and name_from_username else DEFAULT_FIRST_NAME
        if known is not None:
            known.username, known.first_name = name, first
            return known
        user = User(id=uid, first_name=first, username=name, last_name=last_name)
        self.world.users[uid] = user
        return user

    # --- chats ---------------------------------------------------------------------------------------------------
    def chat(self, chat_id: int) -> Chat | None:
        """A chat as the default bot names it."""
        return self.chat_of(self.default_bot, chat_id)

    def chat_of(self, bot: Bot, chat_id: int) -> Chat | None:
        """A chat as ``bot`` names it (positive ids: its private chat with that person)."""
        if chat_id > 0:
            return self.world.private.get((bot.id, chat_id))
        return self.world.chats.get(chat_id)

    def private_chat(self, bot: Bot, person: User | int) -> Chat:
        """The private chat between a bot and a person (by id if the sim has not met them yet), made on first use."""
        user = person if isinstance(person, User) else self.world.users.get(person)
        uid = person.id if isinstance(person, User) else person
        chat = self.world.private.get((bot.id, uid))
        if chat is None:
            chat = Chat(id=uid, type="private", user=user, bot_id=bot.id)
            self.world.private[(bot.id, uid)] = chat
        elif user is not None:
            chat.user = user
        return chat

    def group(self, chat_id: int, chat_type: str = "", title: str = "", *, bot: Bot | None = None) -> Chat:
        """A group, supergroup or channel, made on first use (lenient: see docs/world.md) with ``bot`` as admin."""
        chat = self.world.chats.get(chat_id)
        if chat is None:
            chat = Chat(id=chat_id, type=chat_type or type_for_id(chat_id), title=title)
            if chat.type != "channel":
                chat.permissions = default_permissions()
            self.world.chats[chat_id] = chat
            if bot is not None:
                self.add_member(chat, Member(user=bot.user, status=ADMINISTRATOR, rights=full_rights(chat.type)))
        return chat

    def add_member(self, chat: Chat, member: Member) -> Member:
        chat.members[member.user.id] = member
        return member

    def chat_for_send(self, bot: Bot, chat_id: int) -> Chat:
        """Where ``bot`` sends: its private chat (403 if the person blocked it) or a chat it is in.

        A chat nobody has described yet is made on first use, as the reference stand does (documented in
        docs/world.md); a chat that exists refuses a bot that is not in it, with Telegram's 403. With
        ``--strict`` nothing is made: a chat or person the world does not have is ``chat not found``, a person
        who never wrote to this bot is Telegram's ``bot can't initiate conversation with a user``.
        """
        if chat_id > 0:
            if self.chat_of(bot, chat_id) is None and (self.options.strict or chat_id >= UNKNOWN_USER_LIMIT):
                if chat_id not in self.world.users:
                    raise TelegramError(400, errors.CHAT_NOT_FOUND)
                if self.options.strict:
                    raise TelegramError(403, errors.FORBIDDEN_CANT_INITIATE)
            chat = self.private_chat(bot, chat_id)
            if chat.blocked:
                raise TelegramError(403, errors.FORBIDDEN_BLOCKED)
            return chat
        known = self.world.chats.get(chat_id)
        if known is None:
            if self.options.strict:
                raise TelegramError(400, errors.CHAT_NOT_FOUND)
            return self.group(chat_id, bot=bot)
        visibility.check_access(known, bot)
        return known

    def chat_type(self, chat_id: int) -> str:
        chat = self.chat_of(self.default_bot, chat_id)
        return chat.type if chat is not None else type_for_id(chat_id)

    def message_json(self, chat: Chat, msg: StoredMessage) -> dict[str, Any]:
        return message_json(chat, msg)

    def deliver(self, chat: Chat, msg: StoredMessage, *, edited: bool = False) -> dict[int, int]:
        """Queue a new (or edited) message for every bot that sees it; returns bot id -> update id."""
        out: dict[int, int] = {}
        for bot, kind in visibility.recipients(self, chat, msg):
            if edited:
                kind = "edited_" + kind
            out[bot.id] = bot.push(kind, message_json(chat, msg))
        if chat.linked_chat_id and chat.type == "channel" and not edited and msg.service is None:
            self._forward_to_discussion(chat, msg)
        return out

    def _forward_to_discussion(self, channel: Chat, post: StoredMessage) -> None:
        """A channel post's automatic forward into the channel's discussion supergroup, as Telegram makes it: the
        same content from Telegram on behalf of the channel, ``is_automatic_forward``, the post as its origin, and
        no keyboard. People's comments reply to it (their thread: :func:`tgfake.chats.comment_thread`)."""
        group = self.world.chats.get(channel.linked_chat_id)
        if group is None or group.type != "supergroup":
            return
        origin = origin_of(channel, post)
        copy = replace(
            post,
            message_id=group.mint_message_id(),
            sender=stand_in_sender(channel.id, group.id, automatic_forward=True),
            sender_chat=channel,
            reply_to=None,
            quote=None,
            keyboard=None,
            reply_markup=None,
            edit_date=None,
            thread_id=0,
            extra={**post.extra, "forward_origin": origin, "is_automatic_forward": True},
            reactions={},
            inline_message_id="",
        )
        self.deliver(group, group.add(copy))

    # --- the person ----------------------------------------------------------------------------------------------
    def inject_message(self, body: MessageIn) -> tuple[int, int]:
        """The person sends a text; returns (message_id, update_id)."""
        if not body.text.strip():
            raise SimError(400, "text is empty")
        if len(body.text) > MAX_TEXT:
            raise SimError(400, f"text is longer than {MAX_TEXT} characters")
        return self.inject(body, body.text, extra=self._quote(body))

    def _quote(self, body: MessageIn) -> dict[str, Any] | None:
        """A manual quote of the replied-to message: its text must contain the quote (position in UTF-16 units)."""
        if not body.quote:
            return None
        chat = self.person_chat(
            body,
            self.person(body.user_id, body.username, body.first_name, name_from_username=True),
            self.find_bot(body.bot),
        )
        target = chat.live(body.reply_to_message_id) if body.reply_to_message_id else None
        if target is None:
            raise SimError(400, "a quote needs reply_to_message_id, a live message of the chat")
        source = target.caption if target.is_media else target.text
        at = source.find(body.quote)
        if at < 0:
            raise SimError(400, f"message {target.message_id} does not contain the quote {body.quote!r}")
        return {"quote": {"text": body.quote, "position": utf16_len(source[:at]), "is_manual": True}}

    def person_chat(self, body: SenderFields, person: User, bot: Bot) -> Chat:
        """The chat a person writes in: their private chat with the bot, or a group (made on first use)."""
        chat_type = body.chat_type.strip().lower()
        if body.chat_id >= 0 and chat_type in ("", "private"):
            chat = self.private_chat(bot, person if body.chat_id in (0, person.id) else body.chat_id)
            if chat.blocked:
                raise SimError(403, f"{person.handle} blocked @{bot.username}: unblock it first (POST /sim/unblock)")
            return chat
        if body.chat_id > 0:
            raise SimError(400, f"chat_id {body.chat_id} of a {chat_type} must be negative (as every group's is)")
        if chat_type == "private":
            if body.chat_id not in self.world.chats:
                raise SimError(400, "a private chat's chat_id is the person's user_id: it must be positive")
            chat_type = ""  # an existing group's id wins over the type
        chat_id = body.chat_id or GROUP_ID_BASE - person.id
        known = self.world.chats.get(chat_id)
        if known is None:
            chat = self.group(chat_id, chat_type, body.chat_title or DEFAULT_GROUP_TITLE, bot=bot)
        else:
            chat = known
            if not chat.title:
                chat.title = body.chat_title or DEFAULT_GROUP_TITLE
        member = chat.members.get(person.id)
        if member is None:
            self.add_member(chat, Member(user=person, status=MEMBER))
        elif not member.present:
            raise SimError(403, f"{person.handle} is not a member of chat {chat.id} ({member.status})")
        return chat

    def inject(
        self,
        body: SenderFields,
        text: str,
        extra: dict[str, Any] | None = None,
        reply_to: int | None = None,
        media: Media | None = None,
        media_group_id: str = "",
        entities: list[dict[str, Any]] | None = None,
    ) -> tuple[int, int]:
        """The person's message: a text, or with ``media`` a file or shared content whose caption is ``text``.

        Entities are the ones Telegram detects (commands, mentions, links, ...); a caption's go out as
        ``caption_entities``, as Telegram's do. Returns the message id and the update id the addressed bot
        (``bot``, else the default one) got, 0 if it saw nothing. ``media`` (a file of any kind, a contact, a
        location, a poll...: tgfake/content.py) is what the message carries, ``text`` its caption if that kind takes
        one; ``extra`` (forward_origin, quote) goes with it; ``reply_to`` overrides the body's; ``media_group_id``
        is the album it belongs to, ``entities`` the ones the client sent merged with the detected ones (none:
        detect them here).
        """
        has_media = media is not None
        bot = self.find_bot(body.bot)
        person = self.person(
            body.user_id, body.username, body.first_name, name_from_username=True, last_name=body.last_name
        )
        chat = self.person_chat(body, person, bot)
        if body.mention:
            handle = "@" + bot.username
            text = f"{handle} {text}" if text else handle
        entities = [e.json() for e in plain_entities(text)] if entities is None else entities
        if body.mention and not (entities and entities[0]["offset"] == 0 and entities[0]["type"] == "mention"):
            # a bot username the detector would not take (too short, odd characters) is still mentioned
            entities = [{"offset": 0, "length": utf16_len(handle), "type": "mention"}] + [
                e for e in entities if e["offset"] >= utf16_len(handle)
            ]
        if reply_to is None:
            reply_to = body.reply_to_message_id if body.reply_to_message_id in chat.messages else None
        sender_chat = self._sender_chat(body, chat, person) if body.sender_chat_id else None
        signature = ""
        if sender_chat is chat:
            member = chat.members.get(person.id)
            signature = member.custom_title if member is not None else ""
        msg = chat.add(
            StoredMessage(
                message_id=chat.mint_message_id(),
                date=self.unix_now(),
                sender=person
                if sender_chat is None
                else stand_in_sender(sender_chat.id, chat.id, automatic_forward=False),
                sender_chat=sender_chat,
                signature=signature,
                text="" if has_media else text,
                caption=text if has_media else "",
                entities=entities,
                reply_to=reply_to,
                media=media,
                media_group_id=media_group_id,
                thread_id=body.message_thread_id or comment_thread(chat, reply_to),
                extra=extra or {},
            )
        )
        got = self.deliver(chat, msg)
        return msg.message_id, got.get(bot.id, 0)

    def _sender_chat(self, body: SenderFields, chat: Chat, person: User) -> Chat:
        """The chat a person writes on behalf of in a supergroup: the group itself (an anonymous administrator) or
        a channel they own or administer, not one the group banned (``banChatSenderChat``)."""
        if chat.type != "supergroup":
            raise SimError(400, "only in a supergroup can a person write on behalf of a chat")
        if body.sender_chat_id == chat.id:
            speaker = chat
        else:
            found = self.world.chats.get(body.sender_chat_id)
            if found is None or found.type != "channel":
                raise SimError(404, f"sender_chat_id {body.sender_chat_id} is not a channel of the stand")
            speaker = found
        member = speaker.members.get(person.id)
        if member is None or not member.is_admin:
            raise SimError(403, f"{person.handle} is not an administrator of {speaker.title!r}")
        until = chat.banned_senders.get(speaker.id)
        if until is not None and (until == 0 or until > self.unix_now()):
            raise SimError(403, f"{speaker.title!r} is banned in {chat.title!r} (banChatSenderChat)")
        return speaker

    def inject_callback(self, body: CallbackIn) -> tuple[str, int]:
        """The person taps a button (by label, or sends ``data`` as if they had); returns (query id, update id)."""
        if not body.label and not body.data:
            raise SimError(400, "data or label is required")
        person = self.person(body.user_id, body.username, body.first_name, name_from_username=False)
        chat_id = body.chat_id or person.id
        named = self.find_bot(body.bot) if body.bot else None
        chat = self.chat_of(named or self.default_bot, chat_id)
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
        game = None
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
            if hit.url is not None:
                raise SimError(400, f"[{hit.text}] is a url button: it opens {hit.url}, Telegram sends no callback")
            if hit.switch_inline is not None:
                query = hit.switch_inline[1] if isinstance(hit.switch_inline[1], str) else ""
                raise SimError(400, f"[{hit.text}] switches to inline mode: POST /sim/inline with query {query!r}")
            if hit.web_app_url is not None:
                raise SimError(
                    400, f"[{hit.text}] opens the Mini App {hit.web_app_url}: POST /sim/webapp/launch with that url"
                )
            data = hit.callback_data or ""
            game = self.world.games.messages.get((chat.id, target.message_id)) if hit.callback_game else None
        bot = self._owner(chat, target, named)
        query_id = f"cbq-{self.world.next_cbq}"
        self.world.next_cbq += 1
        bot.callback_queries[query_id] = chat_id
        payload: dict[str, Any] = {
            "id": query_id,
            "from": person.json(),
            "message": self.message_json(chat, target),
            "chat_instance": str(chat_id),
        }
        if target.inline_message_id:  # a message sent via an inline bot: the tap is the bot's, without the message
            del payload["message"]
            payload = {"id": query_id, "from": person.json(), "inline_message_id": target.inline_message_id, **payload}
        if data:
            payload["data"] = data
        elif not body.data and game is not None:  # a callback_game button: the game's short name, no data
            payload["game_short_name"] = game.short_name
        return query_id, bot.push("callback_query", payload)

    def _owner(self, chat: Chat, msg: StoredMessage, named: Bot | None) -> Bot:
        """The bot a tap goes to: the one that sent the message with the keyboard (or sent it via inline mode)."""
        if msg.via_bot is not None and msg.via_bot.id in self.bots:
            return self.bots[msg.via_bot.id]
        if msg.sender is not None and msg.sender.is_bot and msg.sender.id in self.bots:
            return self.bots[msg.sender.id]
        if chat.bot_id in self.bots:
            return self.bots[chat.bot_id]
        return named or self.default_bot

    # --- outbox --------------------------------------------------------------------------------------------------
    def record(self, method: str, params: Params, status: int, envelope: dict[str, Any], bot_id: int = 0) -> Call:
        """Keep one answered call in the outbox (its envelope encoded once, as it goes out)."""
        retry = envelope.get("parameters", {}).get("retry_after", 0) if status == 429 else 0
        call = Call(
            seq=len(self.world.calls) + 1,
            at=self.now(),
            method=method,
            params=params.summary(),
            status=status,
            body=dump(envelope).encode(),
            bot_id=bot_id,
            retry_after=retry,
        )
        self.world.calls.append(call)
        if call.seq % FREEZE_EVERY == 0:
            gc.freeze()  # what is stored so far is long-lived: keep it out of every later collection
        for listener in self.call_listeners:
            listener(call)
        self.calls_signal.fire()
        return call

    def calls(self, method: str = "", since: int = 0, bot_id: int = 0) -> list[Call]:
        """Recorded calls, oldest first; ``method`` compares case-insensitively, ``bot_id`` picks one bot's.

        ``seq`` is the position in the outbox plus one (calls are only appended; a reset starts a new outbox), so
        ``since`` slices instead of scanning: a server-held wait costs only the calls it has not seen.
        """
        want = method.lower()
        recent = self.world.calls[max(since, 0) :]
        return [c for c in recent if (not want or c.method.lower() == want) and (not bot_id or c.bot_id == bot_id)]

    def chats(self) -> list[dict[str, Any]]:
        return self.chat_summaries()

    async def wait_call(self, method: str, count: int = 1, timeout: float = 5.0) -> list[Call]:
        """The in-process twin of ``GET /sim/wait``: the matching calls once there are ``count`` of them."""
        return await self.wait_calls(method, count, timeout)

    async def wait_calls(self, method: str, count: int, timeout: float, since: int = 0, bot_id: int = 0) -> list[Call]:
        """Hold until at least ``count`` matching calls are recorded or the deadline passes; returns the matches."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            found = self.calls(method, since, bot_id)
            remaining = deadline - loop.time()
            if len(found) >= count or remaining <= 0 or self.closing:
                return found
            await self.calls_signal.wait(remaining)

    @property
    def held_polls(self) -> int:
        return self.default_bot.held_polls

    async def wait_polling(self, timeout: float, bot: Bot | None = None) -> bool:
        """Hold until the bot has a getUpdates held (it is idle, waiting for updates) or the deadline."""
        target = bot or self.default_bot
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not target.held_polls:
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
        """Serve one Bot API call and record it; returns (status, envelope) for in-process callers."""
        served = await self.serve(token, method, params)
        return served.status, served.response

    before_call: Callable[[BotCall, str, Params], Awaitable[None] | None] | None = None
    """Run once the token, the method, the parameter prechecks, ``@username`` chats and flood limits are through,
    before the method: the app's downloads of files named by URL (tgfake/urlfiles.py ``UrlFetcher.before_call``,
    which checks the chat first); None (a bare Stand) fetches nothing."""

    async def serve(self, token: str, method: str, params: Params) -> Call:
        """Serve one Bot API call in the reference stand's check order and record it; returns the recorded call.

        A call cancelled while held (its client went away) raises CancelledError and is neither answered nor recorded.
        """
        lookup, check_params = _method_registry()
        bot_id = 0
        try:
            bot = self.bot_for_token(token)
            bot_id = bot.id
            self.latest_bot = bot  # "the bot" from now on, unless a default is pinned (default_bot)
            if self.named_bot is None:
                self.named_bot = bot
            if bot.logged_out and method.lower() not in ("logout", "close"):
                raise TelegramError(400, errors.LOGGED_OUT)
            fault = self.world.faults.fire(method, params)
            if fault is not None:
                raise fault
            handler = lookup(method)
            if handler is None:
                raise TelegramError(404, errors.METHOD_NOT_FOUND)
            check_params(method, params)
            values = params.values
            if values.get("chat_id", "")[:1] == "@" or values.get("from_chat_id", "")[:1] == "@":
                self._name_public_chats(params)
            close_due(self)  # timed polls close on the stand's clock, seen at the next call
            flood_chat = self._flood_chat(bot, method, params)
            waiting = self.before_call(BotCall(self, bot), method, params) if self.before_call else None
            if waiting is not None:
                await waiting
            status, envelope = 200, envelope_of(await handler(BotCall(self, bot), params))
            if flood_chat:
                self.world.flood.note(bot.id, flood_chat, self.now())
        except TelegramError as exc:
            status, envelope = exc.status, envelope_of(exc)
        return self.record(method, params, status, envelope, bot_id)

    def _name_public_chats(self, params: Params) -> None:
        """Resolve ``@username`` chat parameters once, before the method reads them (:meth:`Params.chat`)."""
        for name in CHAT_PARAMS:
            value = params.values.get(name)
            if value and value[0] == "@":
                if params.chats is None:
                    params.chats = {}
                params.chats[name] = visibility.public_chat_id(self, value)

    def _flood_chat(self, bot: Bot, method: str, params: Params) -> int:
        """With ``--flood-control``, the chat a counted send goes to (0: not counted), refused while over a limit."""
        if not self.options.flood_control or method.lower() not in COUNTED:
            return 0
        chat_id = params.chat()
        if not chat_id:
            return 0
        wait = self.world.flood.retry_after(bot.id, chat_id, self.now())
        if wait:
            raise TelegramError(429, f"{errors.TOO_MANY}: retry after {wait}", retry_after=wait)
        return chat_id

    # --- views ---------------------------------------------------------------------------------------------------
    def view(self, chat_id: int, bot: Bot | None = None) -> ChatView:
        """A chat as tests read it: ``.json()`` (the sim view), ``.text()`` (the transcript), ``.find_button()``."""
        return ChatView(self, chat_id, bot or self.default_bot)

    def sender_name(self, msg: StoredMessage) -> str:
        """Who a transcript line names: ``bot`` for the pinned bot, else the first bot to call since the last reset
        (a name that stays put while several bots poll in turn), another bot's username, the person's."""
        sender = msg.sender
        if sender is None:
            return "user"
        if msg.sender_chat is not None:  # on behalf of a chat: the chat signs it
            return msg.sender_chat.username or msg.sender_chat.title
        if sender.is_bot:
            named = self.pinned_bot or self.named_bot or self.first_bot
            return "bot" if sender.id == named.id else sender.username
        return sender.username or "user"

    def chat_view(self, chat_id: int, bot: Bot | None = None) -> dict[str, Any]:
        """A chat as ``GET /sim/chat/{id}`` shows it; an unknown chat is an empty view typed by its id's sign."""
        close_due(self)
        bot = bot or self.default_bot
        chat = self.chat_of(bot, chat_id) or Chat(id=chat_id, type=type_for_id(chat_id))
        out: dict[str, Any] = {"chat_id": chat.id, "type": chat.type}
        if chat.title:
            out["title"] = chat.title
        out["typing"] = chat.typing(self.now())
        out["messages"] = [message_view(m) for m in chat.messages.values()]
        out["drafts"] = [d.json() for d in chat.drafts.current(self.now())]
        out["callbacks"] = [a.json() for a in chat.callbacks]
        out["menu_button"] = bot.menus.shown(chat.id, chat.type)
        out.update(reply_keyboards.view(chat))
        out.update(self.settings_view(bot, chat))
        if chat.type == "private":
            out["bot"] = bot.username
            if chat.blocked:
                out["blocked"] = True
        else:
            out["members"] = chat.members_view()
        return out

    def settings_view(self, bot: Bot, chat: Chat) -> dict[str, Any]:
        """What the person sees of the bot's settings: its command menu here, its description on an empty chat."""
        person = chat.id if chat.type == "private" else DEFAULT_USER_ID  # a group is seen as the default person
        viewer = chat.user or self.world.users.get(person) or User(id=person, first_name=DEFAULT_FIRST_NAME)
        member = chat.members.get(viewer.id)
        is_admin = member is not None and member.status in ("creator", ADMINISTRATOR)
        settings = bot.settings
        out: dict[str, Any] = {}
        commands = settings.commands_seen(
            chat.type, chat.id, viewer.id, is_admin=is_admin, language=viewer.language_code
        )
        if commands:
            out["commands"] = commands
        description = settings.localized(settings.descriptions, viewer.language_code)
        if chat.type == "private" and description and not chat.messages:
            out["description"] = description
        notices = self.world.payments.notices.get(chat.id)
        if notices:
            out["payment_notices"] = list(notices)
        return out

    def chat_text(self, chat_id: int, bot: Bot | None = None) -> str:
        """The transcript: one line per live message, keyboards under it, ``typing…`` last while typing."""
        close_due(self)
        chat = self.chat_of(bot or self.default_bot, chat_id)
        if chat is None:
            return ""
        lines = transcript_lines(chat, self.sender_name)
        for draft in chat.drafts.current(self.now()):
            lines.extend(draft.lines())
        if chat.typing(self.now()):
            lines.append("typing…")
        return "".join(line + "\n" for line in lines)

    def chat_summaries(self, bot: Bot | None = None) -> list[dict[str, Any]]:
        """Every group and channel, and ``bot``'s private chats (the default bot's unless named)."""
        bot = bot or self.default_bot
        chats = [c for (b, _), c in self.world.private.items() if b == bot.id] + list(self.world.chats.values())
        out = []
        for chat in sorted(chats, key=lambda c: c.id):
            item: dict[str, Any] = {"chat_id": chat.id, "type": chat.type}
            if chat.type == "private" and chat.user is not None:
                item["title"] = "@" + chat.user.username
            elif chat.title:
                item["title"] = chat.title
            item["messages"] = len(chat.messages)
            out.append(item)
        return out

    def state(self) -> dict[str, Any]:
        bot = self.default_bot
        return {
            "allowed_updates": bot.allowed_json(),
            "bot": bot.get_me(),
            "bots": [b.get_me() for b in self.bots.values()],
            "calls": len(self.world.calls),
            "commands": bot.commands,
            "faults": self.world.faults.list(),
            "held_polls": bot.held_polls,
            "menu_button": bot.menus.bot_button(),
            "next_update_id": bot.next_update_id,
            "pending_updates": len(bot.pending),
        }


@dataclass(frozen=True, slots=True)
class ChatView:
    """A read-only window on one chat (the in-process twin of ``GET /sim/chat/{id}``)."""

    stand: Stand
    chat_id: int
    bot: Bot

    def json(self) -> dict[str, Any]:
        return self.stand.chat_view(self.chat_id, self.bot)

    def text(self) -> str:
        return self.stand.chat_text(self.chat_id, self.bot)

    def find_button(self, label: str) -> tuple[StoredMessage, Any] | None:
        chat = self.stand.chat_of(self.bot, self.chat_id)
        return chat.find_button(label) if chat is not None else None


@dataclass(frozen=True, slots=True)
class Described:
    """A method result Telegram answers with a ``description`` beside it (setWebhook's "Webhook was set")."""

    result: Any
    description: str


def _rename_bot(value: Any, old: int, new: int) -> None:
    """Every bot ``User`` object in a rendered update that names the bot ``old`` now names it ``new``."""
    if isinstance(value, dict):
        if value.get("id") == old and value.get("is_bot") is True:
            value["id"] = new
        for item in value.values():
            _rename_bot(item, old, new)
    elif isinstance(value, list):
        for item in value:
            _rename_bot(item, old, new)


@functools.cache
def _method_registry() -> tuple[Callable[[str], Any], Callable[[str, Params], None]]:
    """The registry's lookup and the parameter prechecks, imported on first use (the method modules import this
    one) and then kept: an import statement on every call cost a few percent of getMe."""
    from tgfake.botapi import lookup
    from tgfake.botapi.schema import check

    return lookup, check


def envelope_of(outcome: Any) -> dict[str, Any]:
    """The one envelope: a refusal (``parameters.retry_after`` only when set), a described result, or a result."""
    if isinstance(outcome, TelegramError):
        out: dict[str, Any] = {"ok": False, "error_code": outcome.status, "description": outcome.description}
        if outcome.migrate_to_chat_id:
            out["parameters"] = {"migrate_to_chat_id": outcome.migrate_to_chat_id}
        elif outcome.retry_after > 0:
            out["parameters"] = {"retry_after": outcome.retry_after}
        return out
    if isinstance(outcome, Described):
        return {"ok": True, "result": outcome.result, "description": outcome.description}
    return {"ok": True, "result": outcome}
