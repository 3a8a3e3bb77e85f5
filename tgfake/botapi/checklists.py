"""Checklists: sendChecklist and editMessageChecklist, business messages only (tgfake/world/checklists.py).

Both parse the checklist first (its refusals come before the connection's in Client.cpp: ``get_input_checklist``
runs in the query's own parsing), then go through the business connection as every business send does; without
``business_connection_id`` there is no connection: ``business connection not found``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.absent import no_business_connection
from tgfake.botapi.common import entities_json, post_message
from tgfake.botapi.fields import FieldError, decode_param, optional_bool, optional_string, required_int, required_string
from tgfake.botapi.keyboards import parse_inline_keyboard, parse_send_markup
from tgfake.botapi.registry import bot_method
from tgfake.content import Media
from tgfake.errors import TelegramError, bad_request
from tgfake.params import Params, to_integer
from tgfake.text import format_text
from tgfake.world import checklists

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall


def _text(ctx: BotCall, text: str, mode: str, entities: Any, field: str) -> dict[str, Any]:
    """A title or a task's text, parsed as any text, as the Checklist shows it (``field``, ``field_entities``); a
    parse error is wrapped like the fields' (TDLib's words keep their capital inside ``Can't parse InputChecklist:
    ...``)."""
    try:
        parsed = format_text(text, mode, json.dumps(entities) if entities is not None else None, allow_empty=True)
    except TelegramError as exc:
        words = exc.description.removeprefix("Bad Request: ")
        raise FieldError(words[:1].upper() + words[1:]) from None
    out: dict[str, Any] = {field: parsed.text}
    if parsed.entities:
        out[f"{field}_entities"] = entities_json(ctx, parsed)
    return out


def _checklist(ctx: BotCall, p: Params) -> dict[str, Any]:
    """``get_input_checklist``: a title, a parse mode or entities, two flags and the tasks (id and text each)."""
    if not p.text("checklist"):  # get_required_string_arg
        raise bad_request(errors.PARAMETER_REQUIRED.format(name="checklist"))
    value = decode_param(p, "checklist", "InputChecklist")
    try:
        if not isinstance(value, dict):
            raise FieldError(errors.NOT_AN_OBJECT)
        mode = optional_string(value, "parse_mode")
        out = _text(ctx, required_string(value, "title"), mode, value.get("title_entities"), "title")
        others_add = optional_bool(value, "others_can_add_tasks")
        others_mark = optional_bool(value, "others_can_mark_tasks_as_done")
        if "tasks" not in value:
            raise FieldError(errors.FIELD_MISSING.format(name="tasks"))
        if not isinstance(value["tasks"], list):
            raise FieldError(errors.FIELD_NOT_ARRAY.format(name="tasks"))
        out["tasks"] = [_checklist_task(ctx, task) for task in value["tasks"]]
    except FieldError as exc:
        raise bad_request(errors.CHECKLIST_PROBLEM.format(problem=exc.message)) from None
    if others_add:
        out["others_can_add_tasks"] = True
    if others_mark:
        out["others_can_mark_tasks_as_done"] = True
    return out


def _checklist_task(ctx: BotCall, task: Any) -> dict[str, Any]:
    try:
        if not isinstance(task, dict):
            raise FieldError(errors.NOT_AN_OBJECT)
        out: dict[str, Any] = {"id": required_int(task, "id")}
        text = required_string(task, "text")
        out.update(_text(ctx, text, optional_string(task, "parse_mode"), task.get("text_entities"), "text"))
        return out
    except FieldError as exc:
        raise FieldError(errors.CHECKLIST_TASK_PROBLEM.format(problem=exc.message)) from None


@bot_method("sendChecklist")
async def send_checklist(ctx: BotCall, p: Params) -> Any:
    """A checklist sent to a customer on the owner's behalf, through the connection as every business send.

    The checklist, then the markup (any kind, read as every send's is: Client.cpp's ``do_send_message``), then the
    connection and the chat (tgfake/world/business.py ``send_target``).
    """
    checklist = _checklist(ctx, p)
    keyboard = parse_send_markup(p.get("reply_markup"), "private")
    if not p.text("business_connection_id"):
        raise no_business_connection()
    return post_message(ctx, p, 0, keyboard, media=Media("checklist", fields=checklist))


@bot_method("editMessageChecklist")
async def edit_message_checklist(ctx: BotCall, p: Params) -> Any:
    """The bot's checklist in a business chat replaced (tasks marked done stay done if their id stays): the
    markup and the checklist are parsed, then the connection, the chat and the message."""
    keyboard = parse_inline_keyboard(p.get("reply_markup"), "private")
    checklist = _checklist(ctx, p)
    if not p.text("business_connection_id"):
        raise no_business_connection()
    message_id = max(0, min(to_integer(p.text("message_id")), 2**31 - 1))
    chat, msg = checklists.edit_target(
        ctx.telegram, ctx.bot, p.text("business_connection_id"), p.text("chat_id"), message_id
    )
    assert msg.media is not None
    done = {task["id"]: task for task in msg.media.fields["tasks"] if "completion_date" in task}
    for task in checklist["tasks"]:
        kept = done.get(task["id"])
        if kept is not None:
            task.update(completed_by_user=kept["completed_by_user"], completion_date=kept["completion_date"])
    msg.media = Media("checklist", fields=checklist)
    msg.keyboard = keyboard
    msg.edit_date = ctx.unix_now()
    return ctx.message_json(chat, msg)
