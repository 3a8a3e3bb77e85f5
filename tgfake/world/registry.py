"""The registry of bots and people: which bot a token names, "the bot" when none is named, and who a person is.

Bots survive a reset (Telegram keeps a bot with its token); people live in the world (:class:`World.users`), so
the methods that read or write them take the world. The default-bot rule: the pinned bot (the first ``--token``,
or ``POST /sim/bots`` with ``default``), else the bot that most recently called the Bot API (a reset keeps it),
else the stand's first bot, which the first token claims.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.errors import SimError, TelegramError
from tgfake.options import DEFAULT_BOT_ID, Options
from tgfake.params import parse_int
from tgfake.world.bots import Bot, Signal, check_token_shape, token_bot_id
from tgfake.world.people import DEFAULT_FIRST_NAME, DEFAULT_USER_ID, DEFAULT_USERNAME, User, capitalized

if TYPE_CHECKING:
    from tgfake.models import BotIn
    from tgfake.world.state import World


class Registry:
    """The stand's bots by id and by token, the default-bot rule, and the people's identities."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self.bots: dict[int, Bot] = {}
        self.tokens: dict[str, Bot] = {}
        self.bots_signal = Signal()  # a bot was added or set a webhook: the delivery worker looks again
        self.first_bot = self.make_first_bot()  # "the bot" until one calls; the first token claims it
        self.latest_bot: Bot | None = None  # the bot of the latest Bot API call (kept across resets)
        self.named_bot: Bot | None = None  # the first bot to call since the last reset: a transcript's "bot"
        self.pinned_bot: Bot | None = self.first_bot if options.all_tokens else None  # --token pins its first
        for token in options.all_tokens[1:]:
            self.register_token(token)

    @property
    def default_bot(self) -> Bot:
        """The bot meant when none is named (the sim's actions, launches, views): the pinned one (the first
        ``--token``, or ``POST /sim/bots`` with ``default``), else the bot that most recently called the Bot API (a
        reset keeps it), else the stand's first bot, which the first token claims."""
        return self.pinned_bot or self.latest_bot or self.first_bot

    def pin_default(self, bot: Bot) -> None:
        """``POST /sim/bots`` with ``default: true``: this bot is "the bot" whoever calls later, resets or not."""
        self.pinned_bot = bot

    def make_first_bot(self) -> Bot:
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

    def register_token(self, token: str) -> Bot:
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

    def bot_for_token(self, token: str, world: World) -> Bot:
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
                self._rekey_bot(first, bot_id, world)
            first.token = token
            self.tokens[token] = first
            return first
        return self.register_token(token)

    def _rekey_bot(self, bot: Bot, new_id: int, world: World) -> None:
        """Give a bot that nobody has called as yet its token's id, everywhere the world names it."""
        old = bot.id
        del self.bots[old]
        bot.user.id = new_id
        self.bots[new_id] = bot
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

    # --- people ----------------------------------------------------------------------------------------------------
    def person(
        self,
        world: World,
        user_id: int,
        username: str,
        first_name: str,
        *,
        name_from_username: bool,
        last_name: str = "",
    ) -> User:
        """The person with this id (4242 is alice), remembered with the names given the first time; a later
        ``last_name`` (none until given) renames them too."""
        uid = user_id or DEFAULT_USER_ID
        known = world.users.get(uid)
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
        world.users[uid] = user
        return user


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
