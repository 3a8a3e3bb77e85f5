"""Polls: sendPoll (regular and quiz) and stopPoll.

sendPoll reads its parameters in ``process_send_poll_query``'s order (question, options, description, type, the
quiz's explanation and correct options, open period, countries, media), then the send's chat and reply checks,
then TDLib's checks of the content (``create_input_message_content``: question and option lengths, the option
count, the quiz's correct options, countries) and the server's (a channel's poll is anonymous). The poll itself
is built and voted on by :mod:`tgfake.world.polls`, the same object as a poll a person makes; ``open_period`` /
``close_date`` close it on the stand's clock. Media of a poll, an option or an explanation are read as
``get_input_poll_media`` reads them, minted with the poll and written as ``JsonPollMedia`` (the chat page shows
polls without pictures).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.albums import file_media
from tgfake.botapi.common import chat_id, entities_json, own_message, post_message
from tgfake.botapi.fields import FieldError, decode_param, optional_string, refuse, required_string, to_bool
from tgfake.botapi.inline import location_fields, venue_fields
from tgfake.botapi.keyboards import parse_inline_keyboard, parse_send_markup
from tgfake.botapi.registry import bot_method
from tgfake.content import Media, media_json
from tgfake.errors import bad_request
from tgfake.params import Params, parse_int, to_integer
from tgfake.text import FormattedText, format_text
from tgfake.world import polls

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

MAX_QUESTION = 300  # a bot's question, in code points (TDLib: "server-side limit"; 255 for people)
MAX_OPTION = 100
MAX_OPTIONS = 12  # TDLib's default poll_answer_count_max
MAX_COUNTRIES = 12
MAX_OPEN_PERIOD = 2628000  # Client.cpp clamps open_period to 0..2628000
POLL_MEDIA = ("animation", "photo", "live_photo", "video", "audio", "document")  # and location, venue
OPTION_MEDIA = ("animation", "photo", "live_photo", "video", "sticker")


def _text(raw: str, mode: str, entities: str | None, *, allow_empty: bool = False) -> FormattedText:
    return format_text(raw, mode, entities, allow_empty=allow_empty)


def _custom_emoji_only(ctx: BotCall, text: FormattedText) -> list[dict[str, Any]]:
    """A question's or an option's entities: TDLib keeps only custom emoji (``keep_only_custom_emoji``)."""
    return [e for e in entities_json(ctx, text) if e["type"] == "custom_emoji"]


MediaMaker = Callable[[], Media] | None
"""A poll's (an explanation's, an option's) medium, checked now and minted with the poll; None for none."""


def _poll_media(ctx: BotCall, p: Params, raw: Any, *, for_option: bool) -> MediaMaker:
    """``get_input_poll_media``: null is no media; a location or venue read as InputLocation/InputVenue fields;
    a sticker (options only) or a file of its kind read as an InputMedia without caption or spoiler."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise FieldError(errors.NOT_AN_OBJECT)
    kind = required_string(raw, "type")
    if kind == "location":
        place = Media("location", fields=location_fields(raw))
        return lambda: place
    if kind == "venue":
        venue = Media("venue", fields=venue_fields(raw))
        return lambda: venue
    if kind not in (OPTION_MEDIA if for_option else POLL_MEDIA):
        raise FieldError(errors.POLL_MEDIA_TYPE)
    return file_media(ctx, p, raw, kind)


def _media_param(ctx: BotCall, p: Params, name: str) -> MediaMaker:
    value = decode_param(p, name, "InputPollMedia")
    try:
        return _poll_media(ctx, p, value, for_option=False)
    except FieldError as exc:
        raise bad_request(errors.POLL_MEDIA_PROBLEM.format(problem=exc.message)) from None


def _media_json(make: MediaMaker) -> polls.PollMedia:
    """``JsonPollMedia``: the medium's one field of its kind (a live photo without its still's ``photo``, an
    animation without its ``document``, a venue without its ``location``)."""
    if make is None:
        return None
    media = make()
    return {media.kind: media_json(media)[media.kind]}


def _options(ctx: BotCall, p: Params) -> list[tuple[FormattedText, list[dict[str, Any]], MediaMaker]]:
    """``get_input_poll_options``: a JSON array of strings or InputPollOption objects."""
    if not p.text("options"):  # json_decode of nothing fails
        raise bad_request(errors.CANT_PARSE_JSON.format(what="options"))
    value = decode_param(p, "options", "options")
    if not isinstance(value, list):
        raise bad_request(errors.POLL_OPTIONS_NOT_ARRAY)
    out: list[tuple[FormattedText, MediaMaker]] = []
    for item in value:
        if isinstance(item, str):
            out.append((_text(item, "", None, allow_empty=True), None))
            continue
        if not isinstance(item, dict):
            raise bad_request(errors.POLL_OPTION_NOT_STRING)
        try:
            text = required_string(item, "text")
            mode = optional_string(item, "text_parse_mode")
        except FieldError as exc:
            raise refuse(exc.message) from None
        entities = item.get("text_entities")
        option = _text(text, mode, json.dumps(entities) if entities is not None else None, allow_empty=True)
        try:
            out.append((option, _poll_media(ctx, p, item.get("media"), for_option=True)))
        except FieldError as exc:
            raise bad_request(errors.POLL_OPTION_MEDIA.format(problem=exc.message)) from None
    return [(option, _custom_emoji_only(ctx, option), media) for option, media in out]


def _correct_option_ids(p: Params) -> list[int]:
    """``correct_option_ids`` (a JSON array of integers) wins over ``correct_option_id`` (garbage reads as 0)."""
    if p.get("correct_option_ids") is not None:
        if not p.text("correct_option_ids"):  # given but empty: json_decode of nothing fails
            raise bad_request(errors.CANT_PARSE_JSON.format(what="correct option identifiers"))
        value = decode_param(p, "correct_option_ids", "correct option identifiers")
        if not isinstance(value, list):
            raise bad_request(errors.CORRECT_IDS_NOT_ARRAY)
        ids = []
        for item in value:
            if not isinstance(item, int | float) or isinstance(item, bool):
                raise bad_request(errors.CORRECT_ID_NOT_NUMBER)
            if not isinstance(item, int) or not -(2**31) <= item < 2**31:  # td::to_integer_safe<int32>
                raise bad_request(errors.CORRECT_ID_INVALID)
            ids.append(item)
        return ids
    if p.get("correct_option_id") is not None:
        raw = p.text("correct_option_id")
        return [to_integer(raw) if raw else -1]
    return []


def _country_codes(p: Params) -> list[str]:
    """``get_strings(query, 12, "country_codes")``."""
    value = decode_param(p, "country_codes", "country_codes")
    if value is None and not p.text("country_codes"):
        return []
    if not isinstance(value, list):
        raise bad_request(errors.STRINGS_NOT_ARRAY)
    if len(value) > MAX_COUNTRIES:
        raise bad_request(errors.TOO_MANY_ITEMS)
    if not all(isinstance(code, str) for code in value):
        raise bad_request(errors.STRINGS_NOT_ARRAY)
    return list(value)


def _check_content(
    chat_type: str,
    question: FormattedText,
    options: list[tuple[FormattedText, list[dict[str, Any]], MediaMaker]],
    quiz: bool,
    correct: list[int],
    countries: list[str],
    members_only: bool,
    is_anonymous: bool,
) -> None:
    """TDLib's checks of the poll (``create_input_message_content``, ``PollOption``, ``PollManager``), then the
    server's, in their order; they run once the chat and the reply target passed."""
    if not question.text:
        raise bad_request(errors.TEXT_MUST_BE_NON_EMPTY)
    if len(question.text) > MAX_QUESTION:
        raise bad_request(errors.POLL_QUESTION_TOO_LONG.format(limit=MAX_QUESTION))
    if not options:
        raise bad_request(errors.POLL_NO_OPTIONS)
    if len(options) > MAX_OPTIONS:
        raise bad_request(errors.POLL_TOO_MANY_OPTIONS.format(limit=MAX_OPTIONS))
    for option, _, _ in options:
        if not option.text:
            raise bad_request(errors.TEXT_MUST_BE_NON_EMPTY)
        if len(option.text) > MAX_OPTION:
            raise bad_request(errors.POLL_OPTION_TOO_LONG.format(limit=MAX_OPTION))
    if quiz:
        if not correct:
            raise bad_request(errors.QUIZ_NO_CORRECT)
        if any(a >= b for a, b in itertools.pairwise(correct)):
            raise bad_request(errors.QUIZ_CORRECT_NOT_INCREASING)
        if any(not 0 <= i < len(options) for i in correct):
            raise bad_request(errors.QUIZ_CORRECT_WRONG)
    for code in countries:
        if len(code) != 2 or not all("A" <= c <= "Z" for c in code):
            raise bad_request(errors.COUNTRY_CODE_INVALID)
    if chat_type != "channel" and (members_only or countries):
        raise bad_request(errors.POLL_VOTERS_RESTRICTED)
    if chat_type == "channel" and not is_anonymous:
        raise bad_request(errors.PUBLIC_VOTERS_FORBIDDEN)


@bot_method("sendPoll")
async def send_poll(ctx: BotCall, p: Params) -> Any:
    """A regular poll or a quiz; the bot that sent it hears of votes (``poll``, ``poll_answer``) and of its close."""
    cid = chat_id(p)
    question = _text(p.text("question"), p.text("question_parse_mode"), p.get("question_entities"), allow_empty=True)
    options = _options(ctx, p)
    description = _text(
        p.text("description"), p.text("description_parse_mode"), p.get("description_entities"), allow_empty=True
    )
    is_anonymous = to_bool(p.text("is_anonymous")) if p.get("is_anonymous") is not None else True
    multiple = to_bool(p.text("allows_multiple_answers"))
    poll_type = p.text("type")
    quiz = poll_type == "quiz"
    explanation = FormattedText("", ())
    explanation_media: MediaMaker = None
    correct: list[int] = []
    if quiz:
        explanation = _text(
            p.text("explanation"), p.text("explanation_parse_mode"), p.get("explanation_entities"), allow_empty=True
        )
        explanation_media = _media_param(ctx, p, "explanation_media")
        correct = _correct_option_ids(p)
    elif poll_type not in ("", "regular"):
        raise bad_request(errors.POLL_TYPE_UNSUPPORTED)
    revoting = to_bool(p.text("allows_revoting")) if p.get("allows_revoting") is not None else not quiz
    open_period = min(max(to_integer(p.text("open_period")), 0), MAX_OPEN_PERIOD)
    close_date = to_integer(p.text("close_date"))
    is_closed = to_bool(p.text("is_closed"))
    members_only = to_bool(p.text("members_only"))
    countries = _country_codes(p)
    media = _media_param(ctx, p, "media")
    keyboard = parse_send_markup(p.get("reply_markup"), ctx.chat_type(cid))

    now = ctx.unix_now()
    period, closes = (open_period, now + open_period) if open_period else (max(close_date - now, 0), close_date)

    def attach() -> dict[str, Any]:
        chat_type = ctx.chat_type(cid)
        _check_content(chat_type, question, options, quiz, correct, countries, members_only, is_anonymous)
        poll = polls.poll_object(
            ctx.world.polls.mint_id(),
            question.text,
            [(option.text, entities) for option, entities, _ in options],
            poll_type="quiz" if quiz else "regular",
            question_entities=_custom_emoji_only(ctx, question),
            is_anonymous=is_anonymous,
            allows_multiple_answers=multiple,
            allows_revoting=revoting,
            members_only=members_only,
            country_codes=countries,
            correct_option_ids=correct,
            explanation=(explanation.text, entities_json(ctx, explanation)),
            description=(description.text, entities_json(ctx, description)),
            open_period=period if closes else 0,
            close_date=closes if period else 0,
            is_closed=is_closed,
            media=_media_json(media),
            explanation_media=_media_json(explanation_media),
            option_media=[_media_json(make) for _, _, make in options],
        )
        return {"media": Media("poll", fields=poll)}

    sent = post_message(ctx, p, cid, keyboard, attach=attach)
    chat = ctx.chat(cid)
    msg = chat.messages.get(sent["message_id"]) if chat is not None else None
    if msg is not None and msg.media is not None and closes and not is_closed:
        ctx.world.polls.close_at(msg.media.fields, msg)
        # On the wall clock nobody may call at the close date: a timer wakes the bot's held getUpdates then. (A
        # moved clock closes the poll when it moves; an early timer finds nothing due.)
        asyncio.get_running_loop().call_later(max(closes - ctx.now(), 0.0), polls.close_due, ctx.telegram)
    return sent


@bot_method("stopPoll")
async def stop_poll(ctx: BotCall, p: Params) -> Any:
    """Close the bot's own poll now; answers the final Poll. The message's inline keyboard becomes
    ``reply_markup`` (none given removes it, as an edit does).

    In ``process_stop_poll_query``'s order: the markup is parsed first, then the business connection, then the
    chat and the message; nothing changes until all of them are read."""
    keyboard = parse_inline_keyboard(p.get("reply_markup"), ctx.chat_type(p.chat()))
    connection = p.text("business_connection_id")
    if connection:  # stopBusinessPoll: the poll the bot sent through that connection (as the owner)
        _, msg = own_message(ctx, p)
    else:
        cid = chat_id(p)
        chat = ctx.chat(cid)
        found = chat.live(parse_int(p.text("message_id")) or 0) if chat is not None else None
        if chat is None or found is None:
            raise bad_request(errors.POLL_MESSAGE_NOT_FOUND)
        msg = found
    poll = polls.poll_of(msg)
    if poll is None:
        raise bad_request(errors.NOT_A_POLL)
    if not connection and (msg.sender is None or msg.sender.id != ctx.bot.id):
        raise bad_request(errors.POLL_CANT_STOP)
    polls.close_due(ctx.telegram)
    if poll["is_closed"]:
        raise bad_request(errors.POLL_ALREADY_CLOSED)
    msg.keyboard = keyboard
    msg.edit_date = ctx.unix_now()
    return polls.close(ctx.telegram, msg)
