"""Checklists: sendChecklist and editMessageChecklist, business messages only.

The stand's people connect no business account, so both parse the checklist first (its refusals come before
the connection's in Client.cpp: ``get_input_checklist`` runs in the query's own parsing) and then answer
``business connection not found``, as :mod:`tgfake.botapi.business` does.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.absent import no_business_connection
from tgfake.botapi.fields import FieldError, decode_param, optional_bool, optional_string, required_int, required_string
from tgfake.botapi.keyboards import parse_inline_keyboard, parse_send_markup
from tgfake.botapi.registry import bot_method
from tgfake.errors import TelegramError, bad_request
from tgfake.params import Params
from tgfake.text import format_text

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

REFUSAL_ONLY = True


def _text(text: str, mode: str, entities: Any) -> None:
    """A title or a task's text, parsed as any text; a parse error is wrapped like the fields' (TDLib's words keep
    their capital inside ``Can't parse InputChecklist: ...``)."""
    try:
        format_text(text, mode, json.dumps(entities) if entities is not None else None, allow_empty=True)
    except TelegramError as exc:
        words = exc.description.removeprefix("Bad Request: ")
        raise FieldError(words[:1].upper() + words[1:]) from None


def _checklist(p: Params) -> None:
    """``get_input_checklist``: a title, a parse mode or entities, two flags and the tasks (id and text each)."""
    if not p.text("checklist"):  # get_required_string_arg
        raise bad_request(errors.PARAMETER_REQUIRED.format(name="checklist"))
    value = decode_param(p, "checklist", "InputChecklist")
    try:
        if not isinstance(value, dict):
            raise FieldError(errors.NOT_AN_OBJECT)
        _text(required_string(value, "title"), optional_string(value, "parse_mode"), value.get("title_entities"))
        optional_bool(value, "others_can_add_tasks")
        optional_bool(value, "others_can_mark_tasks_as_done")
        if "tasks" not in value:
            raise FieldError(errors.FIELD_MISSING.format(name="tasks"))
        if not isinstance(value["tasks"], list):
            raise FieldError(errors.FIELD_NOT_ARRAY.format(name="tasks"))
        for task in value["tasks"]:
            _checklist_task(task)
    except FieldError as exc:
        raise bad_request(errors.CHECKLIST_PROBLEM.format(problem=exc.message)) from None


def _checklist_task(task: Any) -> None:
    try:
        if not isinstance(task, dict):
            raise FieldError(errors.NOT_AN_OBJECT)
        required_int(task, "id")
        text = required_string(task, "text")
        _text(text, optional_string(task, "parse_mode"), task.get("text_entities"))
    except FieldError as exc:
        raise FieldError(errors.CHECKLIST_TASK_PROBLEM.format(problem=exc.message)) from None


@bot_method("sendChecklist")
async def send_checklist(ctx: BotCall, p: Params) -> Any:
    """A business message: the checklist and the markup (any kind) are parsed, then the connection is not found.

    The markup is read as every send's is (Client.cpp's ``do_send_message``), before the connection is looked up.
    """
    _checklist(p)
    parse_send_markup(p.get("reply_markup"), "private")
    raise no_business_connection()


@bot_method("editMessageChecklist")
async def edit_message_checklist(ctx: BotCall, p: Params) -> Any:
    """A business message's edit: the markup and the checklist are parsed, then the connection is not found."""
    parse_inline_keyboard(p.get("reply_markup"), "private")
    _checklist(p)
    raise no_business_connection()
