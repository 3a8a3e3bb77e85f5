"""A recorded Telegram conversation (``talk.json``): the Bot API calls a bot made and their answers, in order.

The file is ``{"tgfake_recording": 1, "bot": <getMe's user>, "calls": [...]}``; each call is ``{"method",
"params", "status", "response"}`` with ``params`` as the stand's outbox shows them (every value as text, an upload
as ``<file name> (<size> bytes)``, its SHA-256 under ``uploads``). The updates the bot received are the results of
its ``getUpdates`` calls. No token is ever part of it (a value that holds the token has it replaced by ``<token>``).

Comparing a replay with the recording reads both as lines, one per call, with the volatile fields normalised
(:data:`VOLATILE`: dates, message, update and file ids), and shows the difference as a unified diff.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import normalise
from ..normalise import VOLATILE

__all__ = [
    "FORMAT",
    "NOISE",
    "VOLATILE",
    "Talk",
    "TalkError",
    "call_lines",
    "diff_lines",
]

FORMAT = 1
NOISE = frozenset(
    {"getUpdates", "getMe", "deleteWebhook", "getWebhookInfo", "setWebhook", "close", "logOut", "sendChatAction",
     "sendMessageDraft", "getFile"}
)
"""Calls left out of the comparison by default: the polling loop, the bot's setup, and the timing-bound typing
indicator and drafts (how many a streamed answer makes depends on the pace)."""


class TalkError(ValueError):
    """A recording that cannot be read; the message names the file and the problem."""


@dataclass
class Talk:
    """A conversation: the bot (``getMe``'s user) and its calls in order."""

    bot: dict[str, Any] = field(default_factory=dict)
    calls: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def load(cls, path: str | Path) -> Talk:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise TalkError(f"{path}: {exc.strerror or exc}") from None
        except ValueError as exc:
            raise TalkError(f"{path}: not JSON: {exc}") from None
        if not isinstance(data, dict) or data.get("tgfake_recording") != FORMAT:
            raise TalkError(f"{path}: not a tgfake recording (no \"tgfake_recording\": {FORMAT})")
        calls = data.get("calls")
        if not isinstance(calls, list) or not all(isinstance(c, dict) and isinstance(c.get("method"), str)
                                                   for c in calls):
            raise TalkError(f"{path}: calls must be a list of objects with a method")
        bot = data.get("bot")
        if not isinstance(bot, dict):
            bot = {}
        return cls(bot=bot, calls=calls)

    def dump(self) -> str:
        return json.dumps({"tgfake_recording": FORMAT, "bot": self.bot, "calls": self.calls}, indent=2,
                          ensure_ascii=False) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the file whole (a temporary file beside it, renamed over it)."""
        target = Path(path)
        temporary = target.with_name(target.name + ".tmp")
        temporary.write_text(self.dump(), encoding="utf-8")
        temporary.replace(target)

    def turns(self) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
        """Each update the bot received, with the calls it made before the next one arrived."""
        turns: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
        for call in self.calls:
            if call["method"].lower() == "getupdates":
                result = (call.get("response") or {}).get("result")
                turns += [(update, []) for update in result or () if isinstance(update, dict)]
            elif turns:
                turns[-1][1].append(call)
        return turns


def call_lines(
    calls: Iterable[Mapping[str, Any]], *, ignore_methods: Iterable[str] = NOISE, ignore_fields: Iterable[str] = ()
) -> list[str]:
    """One line per compared call (:func:`tgfake.normalise.call_lines`), the :data:`NOISE` left out by default."""
    return normalise.call_lines(calls, ignore_methods=ignore_methods, ignore_fields=ignore_fields)


def diff_lines(recorded: Sequence[str], replayed: Sequence[str]) -> str:
    """A unified diff, ``-`` what the recording has and ``+`` what the replay did; empty when they agree."""
    if list(recorded) == list(replayed):
        return ""
    lines = difflib.unified_diff(list(recorded), list(replayed), "recorded", "replayed", lineterm="", n=2)
    return "\n".join(lines) + "\n"


TOKEN_SHAPE = re.compile(r"\d+:[A-Za-z0-9_-]{20,}")
"""A Bot API token (``123456:AA...``), scrubbed from anything a recording writes."""


def scrub(value: Any, token: str) -> Any:
    """``value`` with the token (and anything shaped like one) replaced by ``<token>``."""
    if isinstance(value, str):
        return TOKEN_SHAPE.sub("<token>", value.replace(token, "<token>") if token else value)
    if isinstance(value, Mapping):
        return {k: scrub(v, token) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub(v, token) for v in value]
    return value
