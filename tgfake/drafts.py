"""Streamed drafts: the previews a bot shows while it writes (sendMessageDraft, sendRichMessageDraft).

A draft is not a message: it has no message id, lives 30 seconds after its last revision (expired at
exactly 30 s), and an expired draft leaves no trace in the chat. What the bot sent is still kept, as
a per-draft timeline of revisions, so a test can check that an answer streamed and grew.
Plain objects; time is passed in from the stand's clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tgfake.text import to_transcript

DRAFT_LIFETIME = 30.0
"""Seconds a draft lives after its last revision."""

THINKING = "Thinking…"
"""What Telegram shows for a text draft whose text is empty."""


def iso(when: float) -> str:
    """A Unix time as the outbox writes times: RFC 3339 with the local offset."""
    return datetime.fromtimestamp(when).astimezone().isoformat()


@dataclass(slots=True)
class Revision:
    """One revision as the bot sent it: the timeline entry of ``GET /sim/chat/{id}/drafts/{draft_id}``."""

    revision: int
    kind: str  # "text" (sendMessageDraft) or "rich" (sendRichMessageDraft: the markdown is kept)
    text: str
    at: float
    parse_mode: str = ""
    can_stop: bool = False
    keep_on_stop: bool = False
    message_thread_id: int = 0
    entities: list[dict[str, Any]] = field(default_factory=list)  # of the parsed text (kind "text")

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"revision": self.revision, "kind": self.kind, "text": self.text}
        if self.entities:
            out["entities"] = self.entities
        if self.parse_mode:
            out["parse_mode"] = self.parse_mode
        if self.message_thread_id:
            out["message_thread_id"] = self.message_thread_id
        if self.can_stop:
            out["can_stop"] = True
        if self.keep_on_stop:
            out["keep_on_stop"] = True
        out["at"] = iso(self.at)
        out["at_unix"] = self.at
        return out


@dataclass(slots=True)
class Draft:
    """A live draft: its latest revision, how many there were, and whether it shows a Stop button."""

    draft_id: int
    kind: str
    text: str
    updated_at: float
    revisions: int
    parse_mode: str = ""
    can_stop: bool = False
    keep_on_stop: bool = False
    message_thread_id: int = 0
    stop_shown: bool = False  # can_stop, until a stop on a kept draft takes the button away
    entities: list[dict[str, Any]] = field(default_factory=list)

    def expired(self, now: float) -> bool:
        return now - self.updated_at >= DRAFT_LIFETIME

    def shown_text(self) -> str:
        """What the chat shows: an empty text draft is Telegram's "Thinking…" placeholder."""
        return THINKING if self.kind == "text" and not self.text else self.text

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"draft_id": self.draft_id, "kind": self.kind}
        if self.kind == "rich":
            out["markdown"] = self.text
        else:
            out["text"] = self.text
        if self.entities:
            out["entities"] = self.entities
        if self.parse_mode:
            out["parse_mode"] = self.parse_mode
        if self.message_thread_id:
            out["message_thread_id"] = self.message_thread_id
        out["updated_at"] = iso(self.updated_at)
        out["revisions"] = self.revisions
        if self.stop_shown:
            out["can_stop"] = True
        if self.keep_on_stop:
            out["keep_on_stop"] = True
        return out

    def lines(self) -> list[str]:
        """Transcript lines: ``draft <id> (rev <n>): <text>`` and ``    [Stop]`` while the button shows."""
        body = (to_transcript(self.text, self.entities) if self.text else self.shown_text()).replace("\n", "\n    ")
        lines = [f"draft {self.draft_id} (rev {self.revisions}): {body}"]
        if self.stop_shown:
            lines.append("    [Stop]")
        return lines


class DraftError(Exception):
    """Why a Stop press found nothing to stop (the sim answers 404 with this text)."""


@dataclass(slots=True)
class Drafts:
    """A chat's drafts: the live ones by id, and every revision ever sent, by id."""

    live: dict[int, Draft] = field(default_factory=dict)
    history: dict[int, list[Revision]] = field(default_factory=dict)

    def prune(self, now: float) -> None:
        """Forget expired drafts (on every read and write, so nothing depends on a timer)."""
        for draft_id in [d.draft_id for d in self.live.values() if d.expired(now)]:
            del self.live[draft_id]

    def settle(self, message_thread_id: int) -> None:
        """The bot's real message replaces the drafts it was streaming in that thread, as Telegram clients drop them;
        their revisions stay in the history."""
        for draft_id in [d.draft_id for d in self.live.values() if d.message_thread_id == message_thread_id]:
            del self.live[draft_id]

    def revise(
        self,
        now: float,
        draft_id: int,
        *,
        kind: str,
        text: str,
        entities: list[dict[str, Any]] | None = None,
        parse_mode: str = "",
        can_stop: bool = False,
        keep_on_stop: bool = False,
        message_thread_id: int = 0,
    ) -> Draft:
        """Record a revision: it replaces the text and the flags and renews the lifetime."""
        self.prune(now)
        draft = self.live.get(draft_id)
        if draft is None:
            draft = Draft(draft_id=draft_id, kind=kind, text=text, updated_at=now, revisions=0)
            self.live[draft_id] = draft
        draft.kind = kind
        draft.text = text
        draft.entities = list(entities or [])
        draft.parse_mode = parse_mode
        draft.updated_at = now
        draft.revisions += 1
        draft.can_stop = can_stop
        draft.keep_on_stop = keep_on_stop
        draft.message_thread_id = message_thread_id
        draft.stop_shown = can_stop
        self.history.setdefault(draft_id, []).append(
            Revision(
                revision=draft.revisions,
                kind=kind,
                text=text,
                at=now,
                parse_mode=parse_mode,
                entities=list(entities or []),
                can_stop=can_stop,
                keep_on_stop=keep_on_stop,
                message_thread_id=message_thread_id,
            )
        )
        return draft

    def current(self, now: float) -> list[Draft]:
        """Live drafts sorted by id."""
        self.prune(now)
        return [self.live[k] for k in sorted(self.live)]

    def stop(self, now: float, chat_id: int, draft_id: int | None) -> Draft:
        """The person presses Stop: on ``draft_id``, or on the newest draft showing the button.

        The draft goes away unless its latest revision asked ``keep_on_stop``; then it stays without
        the button until a new ``can_stop`` revision. Raises :class:`DraftError` when nothing stops.
        """
        self.prune(now)
        if draft_id is None:
            stoppable = [d for d in self.live.values() if d.stop_shown]
            if not stoppable:
                raise DraftError(f"chat {chat_id} has no draft with a Stop button")
            draft = max(stoppable, key=lambda d: (d.updated_at, d.draft_id))
        else:
            found = self.live.get(draft_id)
            if found is None:
                raise DraftError(f"draft {draft_id} not found in chat {chat_id}")
            if not found.stop_shown:
                raise DraftError(f"draft {draft_id} in chat {chat_id} shows no Stop button")
            draft = found
        if draft.keep_on_stop:
            draft.stop_shown = False
        else:
            del self.live[draft.draft_id]
        return draft
