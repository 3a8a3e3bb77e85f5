"""Reading what the bot did after one act: which calls are refusals, what kind of bug each shows, tracebacks."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from tgfake import errors
from tgfake.explore.sim import BotCall

TRACEBACK = "Traceback (most recent call last)"
TRACEBACK_LINES = 60
"""A traceback kept as evidence is at most this long; a longer one keeps its first lines and its last (the exception's
own line is what tells two tracebacks apart and names the refusal a library raised)."""
TRACEBACK_HEAD = 10
LOGGED_EXCEPTION = re.compile(r"^.*(?:Infinity polling|Threaded polling|Polling) exception: (.+?)\"?$", re.MULTILINE)
"""pyTelegramBotAPI's polling loop logs a handler's exception in one line (its traceback only at debug level)."""
NODE_UNCAUGHT = re.compile(r"^(?:Uncaught |Unhandled )?\w*Error(?:: .*)?\n\s+at ", re.MULTILINE)

REPLY_PREFIXES = ("send", "copymessage", "forwardmessage", "edit")
NOT_REPLIES = frozenset({"sendchataction", "sendmessagedraft"})

TOO_LONG = (errors.TEXT_TOO_LONG, errors.CAPTION_TOO_LONG, errors.RAW_TEXT_TOO_LONG)
NOT_MODIFIED = "Bad Request: message is not modified"
CANT_PARSE = errors.CANT_PARSE_ENTITIES.split("{", 1)[0].rstrip(": ")


def is_reply(call: BotCall, chat_id: int | None = None) -> bool:
    """A call that puts something in a chat (a send, copy, forward or edit), to ``chat_id`` when given."""
    method = call.method.lower()
    if method in NOT_REPLIES or not method.startswith(REPLY_PREFIXES):
        return False
    return chat_id is None or str(call.params.get("chat_id", "")) == str(chat_id)


def answers_callback(call: BotCall, query_id: str) -> bool:
    return call.method.lower() == "answercallbackquery" and call.params.get("callback_query_id") == query_id


def raced_edit(call: BotCall, calls: Sequence[BotCall]) -> bool:
    """An edit refused as not modified right after an edit of the same message to the same text went through: in a
    quick double tap, the second tap's edit racing the first's (the bot could not have known), not a bug."""
    if call.ok or not call.method.lower().startswith("edit") or not call.description.startswith(NOT_MODIFIED):
        return False
    target = ("chat_id", "message_id", "inline_message_id")
    return any(
        earlier.ok
        and earlier.seq < call.seq
        and earlier.method == call.method
        and all(earlier.params.get(k) == call.params.get(k) for k in target)
        and text_of(earlier) == text_of(call)
        for earlier in calls
    )


def taking_poll(polls: Iterable[BotCall], update_id: int) -> BotCall | None:
    """The getUpdates call whose answer handed the bot this update (its ``at``: when the stand answered it)."""
    for call in polls:
        result = call.response.get("result") if call.ok else None
        if isinstance(result, list) and any(isinstance(u, dict) and u.get("update_id") == update_id for u in result):
            return call
    return None


def delivery_started(deliveries: Iterable[dict[str, Any]], update_id: int) -> float | None:
    """When the webhook POST the bot confirmed for this update went out, on the stand's clock (None: not yet)."""
    for delivery in deliveries:
        if delivery.get("update_id") == update_id and delivery.get("ok") and "started" in delivery:
            return float(delivery["started"])
    return None


def text_of(call: BotCall) -> str:
    return str(call.params.get("text") or call.params.get("caption") or "")


def refusal_kind(call: BotCall, controlled: Iterable[str], flood_limits: bool) -> str:
    """The finding kind a refused call shows (the injected faults and blocks are sorted out by the caller)."""
    desc = call.description
    if desc.startswith(CANT_PARSE):
        text = text_of(call)
        if any(part and part in text for part in controlled):
            return "markup_injection"
        return "api_refused"
    if desc.startswith(NOT_MODIFIED):
        return "not_modified"
    if desc in TOO_LONG:
        return "too_long"
    if call.status == 429 and flood_limits:
        return "flood"
    return "api_refused"


def traceback_in(output: str) -> str:
    """The first unhandled exception the output shows (its lines), or ''."""
    at = output.find(TRACEBACK)
    if at >= 0:
        lines = output[at:].splitlines()
        kept = [lines[0]]
        for line in lines[1:]:
            kept.append(line)
            if line and not line.startswith((" ", "\t")):
                break  # the exception's own line ends the traceback
        if len(kept) > TRACEBACK_LINES:  # a deep stack: its head, then its innermost frames and the exception's line
            kept = [*kept[:TRACEBACK_HEAD], "  ...", *kept[TRACEBACK_HEAD - TRACEBACK_LINES + 1 :]]
        return "\n".join(kept)
    match = NODE_UNCAUGHT.search(output)
    if match:
        return "\n".join(output[match.start() :].splitlines()[:20])
    logged = LOGGED_EXCEPTION.search(output)
    if logged:
        return logged.group(0).strip()
    return ""


def exception_line(traceback: str) -> str:
    """The line naming the exception (what two tracebacks of the same bug share)."""
    lines = [line for line in traceback.splitlines() if line.strip()]
    if not lines:
        return ""
    if lines[0].startswith(TRACEBACK):
        return lines[-1].strip()
    logged = LOGGED_EXCEPTION.search(lines[0])
    return logged.group(1).strip() if logged else lines[0].strip()


def raises(exception: str, call: BotCall) -> bool:
    """The exception line is a library raising this refusal (its description, the error class's prefix aside)."""
    words = call.description.split(": ", 1)[-1].strip().lower()
    return bool(words) and words in exception.lower()
