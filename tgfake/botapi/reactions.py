"""setMessageReaction, deleteMessageReaction, deleteAllMessageReactions: the bot's reactions and a moderator's removals.

``reaction`` is read as telegram-bot-api's ``get_reaction_types`` reads it (a JSON array of ReactionType objects,
refused in its words), then TDLib refuses an empty emoji, and Telegram's server an emoji outside the reaction set
(``REACTION_INVALID``; a custom emoji only if someone already reacted with it) and more than one reaction (a bot is
not Premium: ``REACTIONS_TOO_MANY``). The bot's reaction is kept beside the people's (``StoredMessage.reactions``,
under the bot's id), so the chat JSON and the transcript count it; the administrator bots that hear of reactions
get ``message_reaction`` (``message_reaction_count`` in channels), as for a person's.

Removing another sender's reactions needs a group or supergroup where the bot has ``can_delete_messages``
(``CHAT_ADMIN_REQUIRED`` otherwise, the server's word); the sender is ``user_id`` or ``actor_chat_id``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.common import chat_id, checked_chat, named_message
from tgfake.botapi.fields import FieldError, required_long, required_string
from tgfake.botapi.registry import bot_method
from tgfake.chats import Chat, StoredMessage
from tgfake.errors import bad_request
from tgfake.extras import reaction_counts
from tgfake.params import Params, loads, parse_int, to_integer
from tgfake.world import visibility

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

# Telegram's reaction emoji (ReactionTypeEmoji.emoji in the Bot API documentation), in its order.
REACTION_EMOJI = frozenset(
    [
        "👍",
        "👎",
        "❤",
        "🔥",
        "🥰",
        "👏",
        "😁",
        "🤔",
        "🤯",
        "😱",
        "🤬",
        "😢",
        "🎉",
        "🤩",
        "🤮",
        "💩",
        "🙏",
        "👌",
        "🕊",
        "🤡",
        "🥱",
        "🥴",
        "😍",
        "🐳",
        "❤️\u200d🔥",
        "🌚",
        "🌭",
        "💯",
        "🤣",
        "⚡",
        "🍌",
        "🏆",
        "💔",
        "🤨",
        "😐",
        "🍓",
        "🍾",
        "💋",
        "🖕",
        "😈",
        "😴",
        "😭",
        "🤓",
        "👻",
        "👨\u200d💻",
        "👀",
        "🎃",
        "🙈",
        "😇",
        "😨",
        "🤝",
        "✍",
        "🤗",
        "🫡",
        "🎅",
        "🎄",
        "☃",
        "💅",
        "🤪",
        "🗿",
        "🆒",
        "💘",
        "🙉",
        "🦄",
        "😘",
        "💊",
        "🙊",
        "😎",
        "👾",
        "🤷\u200d♂️",
        "🤷",
        "🤷\u200d♀️",
        "😡",
    ]
)
MAX_BOT_REACTIONS = 1


def _problem(text: str) -> Any:
    return bad_request(errors.REACTION_PROBLEM.format(problem=text))


def _reaction(value: Any) -> dict[str, Any]:
    """``get_reaction_type``: an object with ``type`` emoji (``emoji``) or custom_emoji (``custom_emoji_id``), its
    fields read as TDLib's JsonObject reads them (a String field takes a Number's text, a Long a String of digits)."""
    if not isinstance(value, dict):
        raise _problem(errors.NOT_AN_OBJECT)
    try:
        kind = required_string(value, "type")
        if kind == "emoji":
            return {"type": "emoji", "emoji": required_string(value, "emoji")}
        if kind == "custom_emoji":
            return {"type": "custom_emoji", "custom_emoji_id": str(required_long(value, "custom_emoji_id"))}
    except FieldError as exc:
        raise _problem(exc.message) from None
    raise _problem(errors.REACTION_TYPE_INVALID)


def parse_reactions(p: Params) -> list[dict[str, Any]]:
    """``get_reaction_types``: absent or empty is no reaction (it clears the bot's)."""
    raw = p.text("reaction")
    if not raw:
        return []
    try:
        value = loads(raw)
    except ValueError:
        raise bad_request(errors.REACTIONS_BAD) from None
    if not isinstance(value, list):
        raise bad_request(errors.REACTIONS_NOT_ARRAY)
    return [_reaction(item) for item in value]


def _allowed(reaction: dict[str, Any], msg: StoredMessage) -> bool:
    if reaction["type"] == "emoji":
        return bool(reaction["emoji"] in REACTION_EMOJI)
    return any(reaction in chosen for chosen in msg.reactions.values())


def announce(ctx: BotCall, chat: Chat, msg: StoredMessage, actor: dict[str, Any], old: list[dict[str, Any]]) -> None:
    """Tell the bots that hear of reactions here (not the one reacting) what changed, as for a person's."""
    date = ctx.unix_now()
    new = msg.reactions.get(actor["id"], [])
    for bot in visibility.reaction_recipients(ctx.telegram, chat):
        if bot.id == ctx.bot.id:
            continue
        if chat.type == "channel":
            counts = {"chat": chat.json(), "message_id": msg.message_id, "date": date}
            bot.push("message_reaction_count", {**counts, "reactions": reaction_counts(msg.reactions)})
            continue
        payload = {"chat": chat.json(), "message_id": msg.message_id, "user": actor, "date": date}
        bot.push("message_reaction", {**payload, "old_reaction": old, "new_reaction": new})


@bot_method("setMessageReaction")
async def set_message_reaction(ctx: BotCall, p: Params) -> Any:
    """The bot's reaction (at most one; none clears it); ``is_big`` only animates, so it is accepted and not kept."""
    reactions = parse_reactions(p)
    chat = checked_chat(ctx, chat_id(p), write=False)
    msg = named_message(chat, p, "message to react")
    if any(r["type"] == "emoji" and not r["emoji"] for r in reactions):
        raise bad_request(errors.REACTION_EMPTY)
    if any(not _allowed(r, msg) for r in reactions):
        raise bad_request(errors.REACTION_INVALID)
    if len(reactions) > MAX_BOT_REACTIONS:
        raise bad_request(errors.REACTIONS_TOO_MANY)
    old = msg.reactions.get(ctx.bot.id, [])
    if reactions:
        msg.reactions[ctx.bot.id] = reactions
    else:
        msg.reactions.pop(ctx.bot.id, None)
    if old != reactions:
        announce(ctx, chat, msg, ctx.bot.user.json(), old)
    return True


def _sender(ctx: BotCall, p: Params) -> int:
    """``user_id`` (``get_user_id`` when given) or else ``actor_chat_id`` (``check_chat_no_fail``'s words)."""
    if p.text("user_id"):
        user_id = to_integer(p.text("user_id"))
        if user_id <= 0:
            raise bad_request(errors.INVALID_ID.format(name="user_id"))
        return user_id
    actor = p.text("actor_chat_id")
    if not actor:
        raise bad_request(errors.SENDER_CHAT_ID_EMPTY)
    value = parse_int(actor)
    if value is None or actor.strip() != actor:
        raise bad_request(errors.SENDER_CHAT_ID_BAD)
    return value


def _moderate(ctx: BotCall, chat: Chat, sender: int) -> None:
    """TDLib's ``have_input_peer`` for the sender, then the server's rights check."""
    if sender not in ctx.world.users and sender not in ctx.telegram.bots and sender not in ctx.world.chats:
        raise bad_request(errors.REACTION_SENDER_NOT_FOUND)
    member = chat.member(ctx.bot.id)
    if chat.type not in ("group", "supergroup") or member is None or not member.can("can_delete_messages"):
        raise bad_request(errors.CHAT_ADMIN_REQUIRED)


def _remove(ctx: BotCall, chat: Chat, msg: StoredMessage, sender: int) -> None:
    old = msg.reactions.pop(sender, None)
    if old:
        actor = ctx.world.users.get(sender)
        if actor is not None:
            announce(ctx, chat, msg, actor.json(), old)


@bot_method("deleteMessageReaction")
async def delete_message_reaction(ctx: BotCall, p: Params) -> Any:
    """Removes one sender's reactions from one message."""
    sender = _sender(ctx, p) if p.text("user_id") else 0
    chat = checked_chat(ctx, chat_id(p))
    msg = named_message(chat, p, "message to delete reactions")
    sender = sender or _sender(ctx, p)
    _moderate(ctx, chat, sender)
    _remove(ctx, chat, msg, sender)
    return True


@bot_method("deleteAllMessageReactions")
async def delete_all_message_reactions(ctx: BotCall, p: Params) -> Any:
    """Removes one sender's reactions from every message of the chat (Telegram: its recent ones)."""
    sender = _sender(ctx, p) if p.text("user_id") else 0
    chat = checked_chat(ctx, chat_id(p))
    sender = sender or _sender(ctx, p)
    _moderate(ctx, chat, sender)
    for msg in list(chat.messages.values()):
        if not msg.deleted:
            _remove(ctx, chat, msg, sender)
    return True
