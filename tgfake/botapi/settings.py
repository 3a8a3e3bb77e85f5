"""Bot settings: names, descriptions, commands by scope and language, default rights, profile photo, logOut, close.

Ported from telegram-bot-api's ``process_*_my_*_query`` (Client.cpp) and TDLib's ``set_commands``
(BotCommand.cpp), ``BotCommandScope::get_bot_command_scope`` and ``validate_bot_language_code``: the commands are
parsed first, then the scope, then its chat is resolved, then TDLib checks the scope against the chat, the
language, and each command. The state lives in :class:`tgfake.world.settings.BotSettings` on the bot.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi import fields
from tgfake.botapi.fields import FieldError, refuse
from tgfake.botapi.managed import input_string
from tgfake.botapi.registry import bot_method
from tgfake.chats import Chat
from tgfake.errors import bad_request
from tgfake.filestore import draw_sizes
from tgfake.media import PROFILE_PHOTO_BOXES, image_size
from tgfake.params import Params, Upload, to_integer
from tgfake.world.settings import CHAT_SCOPES, RIGHTS, Scope, rights_json, stored_rights

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

MAX_COMMAND = 32
MAX_COMMAND_DESCRIPTION = 256
_COMMAND_CHARS = re.compile(r"[a-z0-9_]+")
_LANGUAGE = re.compile(r"[a-z]{2}")


def language(p: Params) -> str:
    """``validate_bot_language_code``: empty, or two lower-case Latin letters."""
    code = p.text("language_code")
    if code and not _LANGUAGE.fullmatch(code):
        raise bad_request(errors.LANGUAGE_INVALID)
    return code


# --- commands --------------------------------------------------------------------------------------------------
def read_commands(p: Params) -> list[dict[str, Any]]:
    """``get_bot_commands``: absent or empty is the empty list; each item needs both fields as strings, and
    ``is_ephemeral`` (Bot API 10.3, newer than the Client.cpp read: TDLib's ``botCommand``) is an optional Boolean."""
    value = fields.decode_param(p, "commands", "commands")
    if value is None and not p.text("commands"):
        return []
    if not isinstance(value, list):
        raise bad_request(errors.COMMANDS_NOT_ARRAY)
    out = []
    for item in value:
        try:
            if not isinstance(item, dict):
                raise FieldError(errors.NOT_AN_OBJECT)
            command = fields.required_string(item, "command")
            description = fields.required_string(item, "description")
            ephemeral = fields.optional_bool(item, "is_ephemeral")
        except FieldError as exc:
            raise fields.wrapped("BotCommand", exc) from None
        out.append({"command": command, "description": description} | ({"is_ephemeral": True} if ephemeral else {}))
    return out


def read_scope(p: Params) -> tuple[str, str, int]:
    """``get_bot_command_scope``: (type, chat_id text, user_id); absent is ``default``."""
    value = fields.decode_param(p, "scope", "BotCommandScope")
    if value is None and not p.text("scope"):
        return "default", "", 0
    try:
        if not isinstance(value, dict):
            raise FieldError(errors.SCOPE_NOT_OBJECT)
        kind = fields.required_string(value, "type")
        if kind in ("default", "all_private_chats", "all_group_chats", "all_chat_administrators"):
            return kind, "", 0
        if kind not in CHAT_SCOPES:
            raise FieldError(errors.SCOPE_TYPE_UNSUPPORTED)
        chat_id = fields.required_string(value, "chat_id")
        if not chat_id:
            raise FieldError(errors.SCOPE_CHAT_EMPTY)
        if kind != "chat_member":
            return kind, chat_id, 0
        user_id = fields.required_long(value, "user_id")
        if user_id <= 0:
            raise FieldError(errors.SCOPE_USER_INVALID)
        return kind, chat_id, user_id
    except FieldError as exc:
        raise fields.wrapped("BotCommandScope", exc) from None


def find_chat(ctx: BotCall, ref: str) -> Chat:
    """``check_chat``: an ``@username`` of a public chat or an id this bot has a chat with, else ``chat not found``."""
    if ref.startswith("@"):
        name = ref[1:].lower()
        chat = next((c for c in ctx.world.chats.values() if c.username and c.username.lower() == name), None)
    else:
        chat = ctx.chat(to_integer(ref))
    if chat is None:
        raise bad_request(errors.CHAT_NOT_FOUND)
    return chat


def resolve_scope(ctx: BotCall, p: Params) -> Scope:
    """The scope named by ``scope``, its chat found and checked against the scope as TDLib checks it."""
    kind, chat_ref, user_id = read_scope(p)
    if not chat_ref:
        return kind, 0, 0
    chat = find_chat(ctx, chat_ref)
    if chat.type == "private" and kind != "chat":
        raise bad_request(errors.SCOPE_PRIVATE)
    if chat.type == "channel":
        raise bad_request(errors.SCOPE_CHANNEL)
    return kind, chat.id, user_id


def checked_command(item: dict[str, Any]) -> dict[str, Any]:
    """TDLib's checks (trimmed, one leading slash dropped, lengths in code points), then the server's characters."""
    command = item["command"].strip()
    if command.startswith("/"):
        command = command[1:]
    if not command:
        raise bad_request(errors.COMMAND_EMPTY)
    if len(command) > MAX_COMMAND:
        raise bad_request(errors.COMMAND_TOO_LONG.format(limit=MAX_COMMAND))
    description = item["description"].strip()
    if not description:
        raise bad_request(errors.COMMAND_DESCRIPTION_EMPTY)
    if len(description) > MAX_COMMAND_DESCRIPTION:
        raise bad_request(errors.COMMAND_DESCRIPTION_TOO_LONG.format(limit=MAX_COMMAND_DESCRIPTION))
    return {"command": command, "description": description} | (
        {"is_ephemeral": True} if item.get("is_ephemeral") else {}
    )


@bot_method("setMyCommands")
async def set_my_commands(ctx: BotCall, p: Params) -> Any:
    commands = read_commands(p)
    scope = resolve_scope(ctx, p)
    lang = language(p)
    checked = [checked_command(item) for item in commands]
    if any(not _COMMAND_CHARS.fullmatch(c["command"]) for c in checked):
        raise bad_request(errors.BOT_COMMAND_INVALID)
    ctx.bot.settings.set_commands(scope, lang, checked)
    return True


@bot_method("getMyCommands")
async def get_my_commands(ctx: BotCall, p: Params) -> Any:
    """Exactly the list set for this scope and language (no fallback: that is what a person sees, not this)."""
    scope = resolve_scope(ctx, p)
    return ctx.bot.settings.get_commands(scope, language(p))


@bot_method("deleteMyCommands")
async def delete_my_commands(ctx: BotCall, p: Params) -> Any:
    scope = resolve_scope(ctx, p)
    ctx.bot.settings.set_commands(scope, language(p), [])
    return True


# --- name and descriptions ---------------------------------------------------------------------------------------
@bot_method("setMyName")
async def set_my_name(ctx: BotCall, p: Params) -> Any:
    """The name without a language is the bot's first name (getMe shows it); empty removes a language's name."""
    _store(ctx.bot.settings.names, language(p), p.text("name"))
    return True


@bot_method("getMyName")
async def get_my_name(ctx: BotCall, p: Params) -> Any:
    lang = language(p)
    names = ctx.bot.settings.names
    return {"name": names.get(lang, "") if lang else names.get("") or ctx.bot.user.first_name}


@bot_method("setMyDescription")
async def set_my_description(ctx: BotCall, p: Params) -> Any:
    """Shown in an empty private chat with the bot (the sim's chat view carries it)."""
    _store(ctx.bot.settings.descriptions, language(p), p.text("description"))
    return True


@bot_method("getMyDescription")
async def get_my_description(ctx: BotCall, p: Params) -> Any:
    return {"description": ctx.bot.settings.descriptions.get(language(p), "")}


@bot_method("setMyShortDescription")
async def set_my_short_description(ctx: BotCall, p: Params) -> Any:
    _store(ctx.bot.settings.short_descriptions, language(p), p.text("short_description"))
    return True


@bot_method("getMyShortDescription")
async def get_my_short_description(ctx: BotCall, p: Params) -> Any:
    return {"short_description": ctx.bot.settings.short_descriptions.get(language(p), "")}


def _store(values: dict[str, str], lang: str, text: str) -> None:
    """td passes the text through clean_input_string only; the server checks its length."""
    text = input_string(text)
    if text:
        values[lang] = text
    else:
        values.pop(lang, None)


# --- default administrator rights ----------------------------------------------------------------------------------
def read_rights(p: Params) -> dict[str, bool] | None:
    """``get_chat_administrator_rights``: absent or empty clears; every field an optional Boolean."""
    value = fields.decode_param(p, "rights", "ChatAdministratorRights")
    if value is None and not p.text("rights"):
        return None
    try:
        if not isinstance(value, dict):
            raise FieldError(errors.RIGHTS_NOT_OBJECT)
        return {name: fields.optional_bool(value, name) for name in RIGHTS}
    except FieldError as exc:
        raise fields.wrapped("ChatAdministratorRights", exc) from None


def _for_channels(p: Params) -> bool:
    return fields.to_bool(p.text("for_channels"))


@bot_method("setMyDefaultAdministratorRights")
async def set_my_default_administrator_rights(ctx: BotCall, p: Params) -> Any:
    for_channels = _for_channels(p)
    rights = read_rights(p)
    kept = stored_rights(rights, for_channels) if rights is not None else None
    if for_channels:
        ctx.bot.settings.channel_rights = kept
    else:
        ctx.bot.settings.group_rights = kept
    return True


@bot_method("getMyDefaultAdministratorRights")
async def get_my_default_administrator_rights(ctx: BotCall, p: Params) -> Any:
    for_channels = _for_channels(p)
    settings = ctx.bot.settings
    return rights_json(settings.channel_rights if for_channels else settings.group_rights, for_channels)


# --- profile photo -------------------------------------------------------------------------------------------------
ATTACH = "attach://"


@bot_method("setMyProfilePhoto")
async def set_my_profile_photo(ctx: BotCall, p: Params) -> Any:
    """``get_input_chat_photo``: an InputProfilePhoto whose file is uploaded in the same request."""
    kind, upload = input_profile_photo(p)
    ctx.bot.settings.profile_photo = {"type": kind, "size": len(upload.data)}
    size = image_size(upload.data) if kind == "static" else None
    if size is not None:  # the bot's profile lists it first (getUserProfilePhotos of the bot), in its sizes
        photo = draw_sizes(ctx.telegram, upload.filename, upload.data, *size, boxes=PROFILE_PHOTO_BOXES)
        ctx.world.profiles.photos.setdefault(ctx.bot.id, []).insert(0, photo)
    return True


def input_profile_photo(p: Params) -> tuple[str, Upload]:
    """``get_input_chat_photo``: the photo's kind (``static``, ``animated``) and its upload (setMyProfilePhoto and
    setBusinessAccountProfilePhoto read it alike)."""
    if not p.text("photo"):
        raise bad_request(errors.PHOTO_NOT_SPECIFIED)
    value = fields.decode_param(p, "photo", "photo")
    try:
        if not isinstance(value, dict):
            raise bad_request(errors.PHOTO_NOT_OBJECT)
        kind = fields.required_string(value, "type")
        if kind not in ("static", "animated"):
            raise bad_request(errors.PHOTO_TYPE_INVALID)
        ref = fields.required_string(value, "photo" if kind == "static" else "animation")
        if kind == "animated":
            fields.optional_double(value, "main_frame_timestamp")
    except FieldError as exc:
        raise refuse(exc.message) from None
    part = ref[len(ATTACH) :] if ref.startswith(ATTACH) else None
    upload = p.files.get(part) if part else None
    if upload is None:
        raise bad_request(errors.PROFILE_PHOTO_NOT_UPLOADED)
    return kind, upload


@bot_method("removeMyProfilePhoto")
async def remove_my_profile_photo(ctx: BotCall, p: Params) -> Any:
    """The current photo goes (the bot's profile lists the older ones, if any)."""
    if ctx.bot.settings.profile_photo is not None and ctx.world.profiles.photos.get(ctx.bot.id):
        ctx.world.profiles.photos[ctx.bot.id].pop(0)
    ctx.bot.settings.profile_photo = None
    return True


# --- the bot's instance: logOut and close -------------------------------------------------------------------------


@bot_method("logOut")
async def log_out(ctx: BotCall, p: Params) -> Any:
    """The queue is dropped, held polls end, and every later call answers ``400 Logged out`` until a reset."""
    bot = ctx.bot
    bot.logged_out = True
    bot.pending = []
    bot.closing_polls()
    return True


@bot_method("close")
async def close(ctx: BotCall, p: Params) -> Any:
    """The instance closes: held polls end at once with what is pending; the queue is kept for the next start.

    Telegram answers 429 when a bot instance started 10 minutes or more after its server closes within its first 10
    minutes; the stand is a freshly started server, so close always succeeds.
    """
    ctx.bot.closing_polls()
    return True
