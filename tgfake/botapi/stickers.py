"""Sticker sets owned by the bot: upload, create, add, replace, reorder, edit, delete, and custom emoji look-ups.

Ported from Client.cpp's ``process_*sticker*_query`` with ``get_input_sticker(s)``, ``get_sticker_emojis``,
``get_mask_position``, ``get_sticker_format`` and ``get_sticker_type``; then TDLib's StickersManager checks
(``Sticker set title must be non-empty``, ...); then Telegram's server: a set name is letters, digits and
underscores, starts with a letter and ends in ``_by_<bot username>`` (``invalid sticker set name is specified``),
is unique (``sticker set name is already occupied``), and a set the bot does not own is ``STICKERSET_INVALID``.
A sticker named by a file id that is in none of this bot's sets is refused the same way. State:
:mod:`tgfake.world.stickers`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi import fields
from tgfake.botapi.fields import FieldError
from tgfake.botapi.managed import input_string
from tgfake.botapi.registry import bot_method
from tgfake.content import photo_size
from tgfake.errors import TelegramError, bad_request
from tgfake.filestore import WRONG_IDENTIFIER, mint
from tgfake.media import picture_size
from tgfake.params import Params, loads, to_integer
from tgfake.text.cleaning import clean_username, strip_empty_characters
from tgfake.wire import ATTACH
from tgfake.world.stickers import Sticker, StickerSet, Uploaded

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

MAX_STICKERS_PER_CALL = 50
MAX_EMOJIS = 20
MAX_SET_TEXT = 64  # code points: td cuts a set's title and name there
MASK_POINTS = ("forehead", "eyes", "mouth", "chin")
STICKER_TYPES = ("regular", "mask", "custom_emoji")
CUSTOM_EMOJI_BASE = 5_368_000_000_000_000_000


# --- reading the parameters ---------------------------------------------------------------------------------------
def sticker_format(value: str) -> str:
    """``get_sticker_format``: static, animated, video or auto; FieldError otherwise."""
    if value in ("static", "animated", "video", "auto"):
        return value
    raise FieldError(errors.STICKER_FORMAT_INVALID)


def _is_emoji(text: str) -> bool:
    """An approximation of ``td::is_emoji``: no letters, digits (but keycaps) or blanks, something beyond Latin-1."""
    if not text or any(c.isspace() for c in text):
        return False
    if any(c.isascii() and c.isalpha() for c in text):
        return False
    if text.isascii() and not text.endswith("\u20e3"):
        return False
    return any(ord(c) >= 0xA9 for c in text)


def emoji_list(value: Any) -> list[str]:
    """``get_sticker_emojis``: 1..20 strings, each an emoji; FieldError in TDLib's words."""
    if not isinstance(value, list):
        raise FieldError(errors.EMOJIS_NOT_ARRAY)
    if not value:
        raise FieldError(errors.EMOJIS_EMPTY)
    if len(value) > MAX_EMOJIS:
        raise FieldError(errors.EMOJIS_TOO_MANY)
    for emoji in value:
        if not isinstance(emoji, str):
            raise FieldError(errors.EMOJI_NOT_STRING)
        if not _is_emoji(emoji):
            raise FieldError(errors.EMOJI_INVALID)
    return list(value)


def mask_position(value: Any) -> dict[str, Any] | None:
    """``get_mask_position``: null is none; point (trimmed, any case) and the three numbers."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise FieldError(errors.MASK_NOT_OBJECT)
    point = fields.required_string(value, "point").lower().strip()
    if point not in MASK_POINTS:
        raise FieldError(errors.MASK_POINT_INVALID)
    out: dict[str, Any] = {"point": point}
    for name in ("x_shift", "y_shift", "scale"):
        if name not in value:
            raise FieldError(errors.FIELD_MISSING.format(name=name))
        out[name] = fields.optional_double(value, name)
    return out


def keywords(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise FieldError(errors.FIELD_NOT_ARRAY.format(name="keywords"))
    if not all(isinstance(k, str) for k in value):
        raise FieldError(errors.KEYWORD_NOT_STRING)
    return list(value)


def input_sticker(ctx: BotCall, p: Params, value: Any, default_format: str) -> dict[str, Any]:
    """``get_input_sticker``: the file (an upload of this request, an uploadStickerFile id, or a URL), the format,
    the emoji, the mask position and keywords."""
    if not isinstance(value, dict):
        raise FieldError(errors.INPUT_STICKER_NOT_OBJECT)
    ref = fields.optional_string(value, "sticker")
    size = _file_size(ctx, p, ref)
    if size is None:
        raise FieldError(errors.INPUT_STICKER_FILE_MISSING)
    if default_format:
        fmt = fields.optional_string(value, "format") or default_format
    else:
        fmt = fields.required_string(value, "format")
    fmt = sticker_format(fmt)
    if "emoji_list" not in value:
        raise FieldError(errors.FIELD_MISSING.format(name="emoji_list"))
    if not isinstance(value["emoji_list"], list):
        raise FieldError(errors.FIELD_NOT_ARRAY.format(name="emoji_list"))
    emojis = emoji_list(value["emoji_list"])
    mask = mask_position(value.get("mask_position"))
    words = keywords(value["keywords"]) if "keywords" in value else []
    upload = ctx.world.stickers.uploads.get(ref)
    if fmt == "auto":
        fmt = upload.format if upload is not None else "static"
    return {"size": size, "format": fmt, "emojis": emojis, "mask": mask, "keywords": words}


def _file_size(ctx: BotCall, p: Params, ref: str) -> int | None:
    """``get_input_file``: ``attach://<part>`` of this request, a file id the stand minted for a sticker, a URL."""
    if ref.startswith(ATTACH):
        upload = p.files.get(ref[len(ATTACH) :])
        return len(upload.data) if upload is not None else None
    uploaded = ctx.world.stickers.uploads.get(ref)
    if uploaded is not None:
        return uploaded.size
    found = ctx.world.stickers.find_sticker(ref)
    if found is not None:
        return found[1].size
    if ref.startswith(("http://", "https://")):  # downloaded before the call (tgfake/urlfiles.py), else unknown
        fetched = p.fetched.get(ref.strip()) if p.fetched else None
        if isinstance(fetched, TelegramError):
            raise fetched
        return len(fetched.data) if fetched is not None else 0
    return None


def read_stickers(ctx: BotCall, p: Params) -> list[dict[str, Any]]:
    """``get_input_stickers``: the ``stickers`` array, else the legacy single file (:func:`legacy_sticker`)."""
    if "stickers" not in p.values:
        return [legacy_sticker(ctx, p)]
    try:
        value = loads(p.text("stickers"))
    except ValueError:
        raise bad_request(errors.STICKERS_BAD) from None
    if not isinstance(value, list):
        raise bad_request(errors.STICKERS_NOT_ARRAY)
    if len(value) > MAX_STICKERS_PER_CALL:
        raise bad_request(errors.STICKERS_TOO_MANY)
    out = []
    for item in value:
        try:
            out.append(input_sticker(ctx, p, item, p.text("sticker_format")))
        except FieldError as exc:
            raise bad_request(errors.INPUT_STICKER_PROBLEM.format(problem=exc.message)) from None
    return out


def read_one_sticker(ctx: BotCall, p: Params) -> dict[str, Any]:
    """``get_input_sticker`` of the ``sticker`` parameter (addStickerToSet, replaceStickerInSet), else the legacy
    single file (:func:`legacy_sticker`)."""
    if "sticker" not in p.values and "sticker" not in p.files:
        return legacy_sticker(ctx, p)
    try:
        value = loads(p.text("sticker"))
    except ValueError:
        raise bad_request(errors.STICKER_BAD) from None
    try:
        return input_sticker(ctx, p, value, "auto")
    except FieldError as exc:
        raise bad_request(errors.STICKER_PROBLEM.format(problem=exc.message)) from None


def legacy_sticker(ctx: BotCall, p: Params) -> dict[str, Any]:
    """``get_legacy_input_sticker``, the form before Bot API 6.6 that Telegram still serves (node-telegram-bot-api
    0.x sends it): ``png_sticker`` (an upload, a file id or a URL; static, with its own ``mask_position``), else
    ``tgs_sticker`` (animated) or ``webm_sticker`` (video), which must be uploads; ``emojis`` is one string."""
    mask = None
    size = _legacy_file(ctx, p, "png_sticker", uploads_only=False)
    if size is not None:
        fmt = "static"
        mask = _legacy_mask(p)
    elif (size := _legacy_file(ctx, p, "tgs_sticker", uploads_only=True)) is not None:
        fmt = "animated"
    elif (size := _legacy_file(ctx, p, "webm_sticker", uploads_only=True)) is not None:
        fmt = "video"
    elif p.text("tgs_sticker"):
        raise bad_request(errors.ANIMATED_STICKER_NOT_UPLOADED)
    elif p.text("webm_sticker"):
        raise bad_request(errors.VIDEO_STICKER_NOT_UPLOADED)
    else:
        raise bad_request(errors.NO_STICKER_FILE)
    emojis = split_emojis(p.text("emojis"))
    if not emojis or len(emojis) > MAX_EMOJIS or not all(_is_emoji(e) for e in emojis):
        raise bad_request(errors.STICKER_EMOJI_INVALID)
    return {"size": size, "format": fmt, "emojis": emojis, "mask": mask, "keywords": []}


def _legacy_file(ctx: BotCall, p: Params, name: str, uploads_only: bool) -> int | None:
    """``get_input_file(query, name, force_file)``: the part ``name`` (or the ``attach://`` part it names), else, unless
    only uploads count, a file id or URL (an id the stand never minted is Telegram's wrong file identifier)."""
    ref = p.text(name)
    if ref.startswith(ATTACH) or not ref:
        upload = p.files.get(ref[len(ATTACH) :] if ref else name)
        return len(upload.data) if upload is not None else None
    if uploads_only:
        return None
    size = _file_size(ctx, p, ref)
    if size is None:
        raise bad_request(WRONG_IDENTIFIER)
    return size


def _legacy_mask(p: Params) -> dict[str, Any] | None:
    """``get_mask_position(query, "mask_position")``: absent or empty is none, else a MaskPosition JSON object."""
    raw = p.text("mask_position")
    if not raw:
        return None
    try:
        value = loads(raw)
    except ValueError:
        raise bad_request(errors.MASK_BAD) from None
    try:
        return mask_position(value)
    except FieldError as exc:
        raise bad_request(errors.MASK_PROBLEM.format(problem=exc.message)) from None


_JOINS_PREVIOUS = frozenset({0xFE0E, 0xFE0F, 0x20E3}) | set(range(0x1F3FB, 0x1F400)) | set(range(0xE0020, 0xE0080))
_REGIONAL = range(0x1F1E6, 0x1F200)


def split_emojis(text: str) -> list[str]:
    """One string of emoji (a legacy ``emojis``) as the emoji in it: variation selectors, skin tones, keycaps and tag
    characters stay with the one before, a zero-width joiner joins its neighbours, regional indicators pair up."""
    out: list[str] = []
    join = False
    for ch in text:
        cp = ord(ch)
        if out and (join or cp in _JOINS_PREVIOUS or cp == 0x200D):
            out[-1] += ch
            join = cp == 0x200D
            continue
        if out and cp in _REGIONAL and len(out[-1]) == 1 and ord(out[-1]) in _REGIONAL:
            out[-1] += ch
            continue
        out.append(ch)
        join = False
    return out


def set_name(text: str) -> str:
    """A sticker set name as td reads it to find the set: cleaned, cut to 64 characters, dots dropped, lower-cased."""
    return clean_username(strip_empty_characters(input_string(text), MAX_SET_TEXT))


def own_set(ctx: BotCall, name: str) -> StickerSet:
    found = ctx.world.stickers.sets.get(set_name(name))
    if found is None or found.owner_bot != ctx.bot.id:
        raise bad_request(errors.STICKERSET_INVALID)
    return found


def own_sticker(ctx: BotCall, p: Params, param: str = "sticker") -> tuple[StickerSet, Sticker]:
    """``get_sticker_input_file``: a non-blank file id, of a sticker in one of this bot's sets."""
    file_id = p.text(param).strip()
    if not file_id:
        raise bad_request(errors.STICKER_NOT_SPECIFIED)
    found = ctx.world.stickers.find_sticker(file_id)
    if found is None or found[0].owner_bot != ctx.bot.id:
        raise bad_request(errors.STICKERSET_INVALID)
    return found


def make_sticker(ctx: BotCall, sticker_set: StickerSet, item: dict[str, Any], repainting: bool) -> Sticker:
    number = ctx.world.stickers.mint()
    return Sticker(
        file_id=f"sticker_{number}",
        unique_id=f"sticker_unique_{number}",
        size=item["size"],
        format=item["format"],
        emojis=item["emojis"],
        keywords=item["keywords"],
        mask_position=item["mask"],
        custom_emoji_id=str(CUSTOM_EMOJI_BASE + number) if sticker_set.sticker_type == "custom_emoji" else "",
        set_name=sticker_set.name,
        sticker_type=sticker_set.sticker_type,
        needs_repainting=repainting,
    )


_SET_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


# --- the methods ------------------------------------------------------------------------------------------------------
@bot_method("uploadStickerFile")
async def upload_sticker_file(ctx: BotCall, p: Params) -> Any:
    """A sticker file for later sets: a File with a file id the sticker methods accept."""
    try:
        fmt = sticker_format(p.text("sticker_format"))
    except FieldError as exc:
        raise fields.refuse(exc.message) from None
    upload = p.files.get("sticker") or p.files.get("png_sticker")
    if upload is None:
        raise bad_request(errors.NO_FILE.format(what="sticker"))
    stickers = ctx.world.stickers
    number = stickers.mint()
    entry = Uploaded(f"sticker_file_{number}", f"sticker_file_unique_{number}", len(upload.data), fmt, ctx.bot.id)
    stickers.uploads[entry.file_id] = entry
    return {"file_id": entry.file_id, "file_unique_id": entry.unique_id, "file_size": entry.size}


@bot_method("createNewStickerSet")
async def create_new_sticker_set(ctx: BotCall, p: Params) -> Any:
    user_id = to_integer(p.text("user_id"))
    name, title = p.text("name"), p.text("title")
    items = read_stickers(ctx, p)
    kind = p.text("sticker_type") or "regular"
    if kind not in STICKER_TYPES:
        raise bad_request(errors.STICKER_TYPE_INVALID)
    if fields.to_bool(p.text("contains_masks")):
        kind = "mask"
    repainting = fields.to_bool(p.text("needs_repainting"))
    title = strip_empty_characters(input_string(title), MAX_SET_TEXT)
    if not title:
        raise bad_request(errors.SET_TITLE_EMPTY)
    name = strip_empty_characters(input_string(name), MAX_SET_TEXT)
    if not name:
        raise bad_request(errors.SET_NAME_EMPTY)
    if not items:
        raise bad_request(errors.SET_NO_STICKERS)
    if repainting and kind != "custom_emoji":
        raise bad_request(errors.REPAINTING_ONLY_EMOJI)
    suffix = f"_by_{ctx.bot.username}".lower()
    if not _SET_NAME.fullmatch(name) or not name.lower().endswith(suffix):
        raise bad_request(errors.SET_NAME_INVALID)
    sets = ctx.world.stickers.sets
    if name.lower() in sets:
        raise bad_request(errors.SET_NAME_OCCUPIED)
    sticker_set = StickerSet(
        name=name, title=title, sticker_type=kind, owner_bot=ctx.bot.id, owner_user=user_id
    )
    sticker_set.stickers = [make_sticker(ctx, sticker_set, item, repainting) for item in items]
    sets[name.lower()] = sticker_set
    return True


@bot_method("getStickerSet")
async def get_sticker_set(ctx: BotCall, p: Params) -> Any:
    """Any set of the stand by name (a bot may read every set, not only its own)."""
    found = ctx.world.stickers.sets.get(clean_username(input_string(p.text("name"))))
    if found is None:
        raise bad_request(errors.STICKERSET_INVALID)
    return found.json()


@bot_method("addStickerToSet")
async def add_sticker_to_set(ctx: BotCall, p: Params) -> Any:
    item = read_one_sticker(ctx, p)
    sticker_set = own_set(ctx, p.text("name"))
    sticker_set.stickers.append(make_sticker(ctx, sticker_set, item, False))
    return True


@bot_method("replaceStickerInSet")
async def replace_sticker_in_set(ctx: BotCall, p: Params) -> Any:
    if not p.text("old_sticker").strip():
        raise bad_request(errors.STICKER_NOT_SPECIFIED)
    item = read_one_sticker(ctx, p)
    sticker_set = own_set(ctx, p.text("name"))
    old_set, old = own_sticker(ctx, p, "old_sticker")
    if old_set is not sticker_set:
        raise bad_request(errors.STICKERSET_INVALID)
    index = sticker_set.stickers.index(old)
    sticker_set.stickers[index] = make_sticker(ctx, sticker_set, item, old.needs_repainting)
    return True


@bot_method("setStickerPositionInSet")
async def set_sticker_position_in_set(ctx: BotCall, p: Params) -> Any:
    """Moves the sticker to ``position`` (0-based; beyond the end means last)."""
    sticker_set, sticker = own_sticker(ctx, p)
    position = to_integer(p.text("position")) if p.text("position") else -1
    sticker_set.stickers.remove(sticker)
    if position < 0 or position > len(sticker_set.stickers):
        position = len(sticker_set.stickers)
    sticker_set.stickers.insert(position, sticker)
    return True


@bot_method("deleteStickerFromSet")
async def delete_sticker_from_set(ctx: BotCall, p: Params) -> Any:
    sticker_set, sticker = own_sticker(ctx, p)
    sticker_set.stickers.remove(sticker)
    return True


@bot_method("setStickerEmojiList")
async def set_sticker_emoji_list(ctx: BotCall, p: Params) -> Any:
    _, sticker = own_sticker(ctx, p)
    try:
        value = loads(p.text("emoji_list"))
    except ValueError:
        raise bad_request(errors.EMOJI_LIST_BAD) from None
    try:
        sticker.emojis = emoji_list(value)
    except FieldError as exc:
        raise bad_request(errors.EMOJI_LIST_PROBLEM.format(problem=exc.message)) from None
    return True


@bot_method("setStickerKeywords")
async def set_sticker_keywords(ctx: BotCall, p: Params) -> Any:
    _, sticker = own_sticker(ctx, p)
    words: list[str] = []
    if "keywords" in p.values:
        try:
            value = loads(p.text("keywords"))
        except ValueError:
            raise bad_request(errors.KEYWORDS_BAD) from None
        if not isinstance(value, list):
            raise bad_request(errors.KEYWORDS_NOT_ARRAY)
        try:
            words = keywords(value)
        except FieldError as exc:
            raise fields.refuse(exc.message) from None
    sticker.keywords = words
    return True


@bot_method("setStickerMaskPosition")
async def set_sticker_mask_position(ctx: BotCall, p: Params) -> Any:
    _, sticker = own_sticker(ctx, p)
    raw = p.text("mask_position")
    position = None
    if raw:
        try:
            value = loads(raw)
        except ValueError:
            raise bad_request(errors.MASK_BAD) from None
        try:
            position = mask_position(value)
        except FieldError as exc:
            raise bad_request(errors.MASK_PROBLEM.format(problem=exc.message)) from None
    sticker.mask_position = position
    return True


@bot_method("setStickerSetTitle")
async def set_sticker_set_title(ctx: BotCall, p: Params) -> Any:
    if not set_name(p.text("name")):
        raise bad_request(errors.SET_NAME_EMPTY)
    title = strip_empty_characters(input_string(p.text("title")), MAX_SET_TEXT)
    if not title:
        raise bad_request(errors.SET_TITLE_EMPTY)
    own_set(ctx, p.text("name")).title = title
    return True


@bot_method("setStickerSetThumbnail")
async def set_sticker_set_thumbnail(ctx: BotCall, p: Params) -> Any:
    """A thumbnail file of this request, a URL (downloaded) or a file id; absent removes it (the first sticker
    shows). A picture is kept in the file store at its own size; a .TGS or .WEBM one, or a file id, is 100×100."""
    try:
        sticker_format(p.text("format") or "auto")
    except FieldError as exc:
        raise fields.refuse(exc.message) from None
    sticker_set = own_set(ctx, p.text("name"))
    upload = p.files.get("thumbnail") or p.files.get("thumb")
    ref = (p.text("thumbnail") or p.text("thumb")).strip()
    fetched = p.fetched.get(ref) if p.fetched and ref else None
    if isinstance(fetched, TelegramError):  # a URL Telegram could not get
        raise fetched
    upload = upload or fetched
    if upload is None and not ref:
        sticker_set.thumbnail = None
        return True
    size = picture_size(upload.data) if upload is not None else None
    if upload is not None and size is not None:
        kept = mint(ctx.telegram, "thumbnail", upload.filename, upload.data, *size)
        sticker_set.thumbnail = photo_size(kept)
        return True
    number = ctx.world.stickers.mint()
    sticker_set.thumbnail = {
        "file_id": f"thumbnail_{number}",
        "file_unique_id": f"thumbnail_unique_{number}",
        "file_size": len(upload.data) if upload is not None else 0,
        "width": 100,
        "height": 100,
    }
    return True


@bot_method("setCustomEmojiStickerSetThumbnail")
async def set_custom_emoji_sticker_set_thumbnail(ctx: BotCall, p: Params) -> Any:
    if not set_name(p.text("name")):
        raise bad_request(errors.SET_NAME_EMPTY)
    sticker_set = own_set(ctx, p.text("name"))
    sticker_set.custom_emoji_thumbnail = str(to_integer(p.text("custom_emoji_id")) or "")
    return True


@bot_method("deleteStickerSet")
async def delete_sticker_set(ctx: BotCall, p: Params) -> Any:
    if not set_name(p.text("name")):
        raise bad_request(errors.SET_NAME_EMPTY)
    sticker_set = own_set(ctx, p.text("name"))
    del ctx.world.stickers.sets[sticker_set.name.lower()]
    return True


@bot_method("getCustomEmojiStickers")
async def get_custom_emoji_stickers(ctx: BotCall, p: Params) -> Any:
    """The custom emoji stickers with these ids, in the order asked; unknown ids are left out."""
    try:
        value = loads(p.text("custom_emoji_ids"))
    except ValueError:
        raise bad_request(errors.CUSTOM_EMOJI_IDS_BAD) from None
    if not isinstance(value, list):
        raise bad_request(errors.CUSTOM_EMOJI_IDS_NOT_ARRAY)
    wanted = []
    for item in value:
        if not isinstance(item, str):
            raise bad_request(errors.CUSTOM_EMOJI_ID_NOT_STRING)
        body = item[1:] if item[:1] == "-" else item
        if not (body.isascii() and body.isdigit() and -(2**63) <= int(item) < 2**63):
            raise bad_request(errors.CUSTOM_EMOJI_INVALID)
        wanted.append(str(int(item)))
    by_id = {
        s.custom_emoji_id: s
        for sticker_set in ctx.world.stickers.sets.values()
        for s in sticker_set.stickers
        if s.custom_emoji_id
    }
    return [by_id[i].json() for i in wanted if i in by_id]
