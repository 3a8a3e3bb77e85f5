"""The world's root: one session's Telegram as plain state, the object every rule of tgfake/world/ acts on.

:class:`Telegram` holds the options, the clock, the registry of bots and people (:mod:`tgfake.world.registry`)
and the world a reset forgets (:class:`~tgfake.world.state.World`), and answers the few lookups every rule needs
(a chat as a bot names it, a person by id, the time). The rules themselves live beside it: where a bot sends and
who a message reaches (:mod:`tgfake.world.rooms`), the person's actions (:mod:`tgfake.world.person`), who sees
what (:mod:`tgfake.world.visibility`), groups, payments, polls, inline mode... It imports none of them, and none
of the surfaces (``botapi``, ``sim``, ``llmstub``): they all import it.
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING

from tgfake.chats import Chat, type_for_id
from tgfake.clock import Clock, OffsetClock, SystemClock
from tgfake.options import Options
from tgfake.world import state
from tgfake.world.bots import Bot, Signal
from tgfake.world.members import ADMINISTRATOR, Member, default_permissions, full_rights
from tgfake.world.people import User
from tgfake.world.registry import Registry
from tgfake.world.state import World

if TYPE_CHECKING:
    from tgfake.models import BotIn


class Telegram:
    """One session's world: options, clock, bots and people, chats, the outbox's records and the faults.

    Survives a reset: the bots (identity, token, update id counter, subscription, webhook configuration; Telegram
    keeps them with the token), the people's defaults, and counters that are process-wide by design.
    """

    def __init__(self, options: Options | None = None, clock: Clock | None = None) -> None:
        self.options = options or Options()
        self.clock = OffsetClock(clock or SystemClock())  # its own offset: POST /sim/clock moves this stand only
        self.registry = Registry(self.options)
        self.world = World()
        self.next_query_id = 1  # Mini App query_id tgfake-N, for the life of the process
        self.closing = False
        self.calls_signal = Signal()  # the outbox grew, the clock moved, a reset: held sim waits look again

    # --- the registry -----------------------------------------------------------------------------------------
    @property
    def bots(self) -> dict[int, Bot]:
        return self.registry.bots

    @property
    def tokens(self) -> dict[str, Bot]:
        return self.registry.tokens

    @property
    def bots_signal(self) -> Signal:
        return self.registry.bots_signal

    @property
    def first_bot(self) -> Bot:
        return self.registry.first_bot

    @property
    def latest_bot(self) -> Bot | None:
        return self.registry.latest_bot

    @latest_bot.setter
    def latest_bot(self, bot: Bot | None) -> None:
        self.registry.latest_bot = bot

    @property
    def pinned_bot(self) -> Bot | None:
        return self.registry.pinned_bot

    @property
    def named_bot(self) -> Bot | None:
        """The first bot to call since the last reset (the transcript's ``bot`` unless one is pinned)."""
        return self.registry.named_bot

    @named_bot.setter
    def named_bot(self, bot: Bot | None) -> None:
        self.registry.named_bot = bot

    @property
    def default_bot(self) -> Bot:
        """The bot meant when none is named (see :mod:`tgfake.world.registry`)."""
        return self.registry.default_bot

    def pin_default(self, bot: Bot) -> None:
        self.registry.pin_default(bot)

    def add_bot(self, bot: Bot) -> Bot:
        return self.registry.add_bot(bot)

    def bot_for_token(self, token: str) -> Bot:
        """The bot a token names; 401 where Telegram would refuse."""
        return self.registry.bot_for_token(token, self.world)

    def find_bot(self, ref: str | int = "") -> Bot:
        """The bot a sim request names: by id, or by username with or without ``@``; none named is the default."""
        return self.registry.find_bot(ref)

    def create_bot(self, body: BotIn) -> Bot:
        return self.registry.create_bot(body)

    def person(
        self, user_id: int, username: str, first_name: str, *, name_from_username: bool, last_name: str = ""
    ) -> User:
        """The person with this id (4242 is alice), remembered with the names given the first time."""
        return self.registry.person(
            self.world, user_id, username, first_name, name_from_username=name_from_username, last_name=last_name
        )

    # --- time -------------------------------------------------------------------------------------------------
    def now(self) -> float:
        return self.clock.now()

    def unix_now(self) -> int:
        return int(self.clock.now())

    # --- chats ------------------------------------------------------------------------------------------------
    def chat(self, chat_id: int) -> Chat | None:
        """A chat as the default bot names it."""
        return self.chat_of(self.default_bot, chat_id)

    def chat_of(self, bot: Bot, chat_id: int) -> Chat | None:
        """A chat as ``bot`` names it (positive ids: its private chat with that person)."""
        if chat_id > 0:
            return self.world.private.get((bot.id, chat_id))
        return self.world.chats.get(chat_id)

    def chat_type(self, chat_id: int) -> str:
        chat = self.chat_of(self.default_bot, chat_id)
        return chat.type if chat is not None else type_for_id(chat_id)

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

    # --- lifecycle --------------------------------------------------------------------------------------------
    def forget(self) -> bool:
        """A reset's part in the world: a new :class:`World`, and every bot's conversation forgotten; whether the
        old history was long enough to be frozen out of the collector's sight (its memory is then worth releasing)."""
        frozen = len(self.world.calls) >= state.FREEZE_EVERY
        self.world = World()
        if frozen:
            gc.unfreeze()  # the old history is garbage now: let the collector see it again
        for bot in self.bots.values():
            bot.forget()
        self.registry.named_bot = None
        return frozen

    def is_closing(self) -> bool:
        return self.closing
