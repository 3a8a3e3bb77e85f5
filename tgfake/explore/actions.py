"""What the explorer does to a bot: its catalogue of people, texts and contents, each act a sim call (a Step)."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from typing import Any

from tgfake.explore.sim import Step

ALICE = 4242
"""The stand's default person: most acts are hers."""

HOSTILE_PEOPLE: tuple[dict[str, Any], ...] = (
    {"user_id": 5101, "first_name": "<3 Ann", "last_name": "&co", "username": "ann_lt3"},
    {"user_id": 5102, "first_name": "_Bob_", "last_name": "*Star*", "username": "_bob_"},
    {"user_id": 5103, "first_name": "[x](y)", "last_name": "`tick`", "username": "x_y_z"},
)
"""People whose names hold markup characters (HTML, Markdown and MarkdownV2 alike)."""

PLAIN_TEXT = "hello"

PREVIOUS = "$previous"
"""In a step's body: the message id the step before it answered (filled in when the step is done)."""

HOSTILE_TEXTS: tuple[str, ...] = (
    "\u2063",  # looks empty: an invisible separator
    "<b",
    "a & b",
    "_under_ *star* [link](x) `tick`",
    "\U0001f600\U0001f44d \u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627",  # emoji and right-to-left
    "x" * 4096,
)
"""Texts that break careless code: empty-looking, markup characters, emoji and RTL, the longest a person can send."""

WEB_APP_DATA = '{"explore": "<b>&"}'
"""What a Mini App opened from a reply keyboard button passes to ``Telegram.WebApp.sendData`` (JSON, as most do)."""

OGG_VOICE = base64.b64encode(b"OggS" + bytes(60)).decode()
"""A voice note's bytes (the stand keeps them as given: the bot may download them with getFile)."""

PNG_1X1 = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


@dataclass(slots=True)
class Action:
    """One thing to try: the person's steps (sim calls), in which chat, and what it is expected to bring."""

    label: str
    steps: list[Step]
    chat_id: int = ALICE
    kind: str = "text"
    """command, text, name, content, tap, press, group, fault, block"""
    expect_reply: bool = False
    controlled: tuple[str, ...] = ()
    """Strings a person controls in this act (their name, their text): what a markup injection would carry."""
    path: list[Step] = field(default_factory=list)
    """The steps from a fresh session that lead to the state this act starts from (taps, presses)."""
    setup: list[Step] = field(default_factory=list)
    """Stand settings done before the person acts (faults, blocks): part of the reproduction, not a person's act."""


def text_step(text: str, who: dict[str, Any] | None = None, **extra: Any) -> Step:
    return Step("/message", {"text": text, **(who or {"user_id": ALICE}), **extra})


def command_actions(commands: list[str]) -> list[Action]:
    """``/start``, ``/help`` and every command the bot put in its menu, each expected to be answered."""
    seen: list[str] = []
    for name in ["start", "help", *commands]:
        if name not in seen:
            seen.append(name)
    return [Action(label=f"/{name}", steps=[text_step(f"/{name}")], kind="command", expect_reply=True) for name in seen]


def text_actions() -> list[Action]:
    texts = (PLAIN_TEXT, *HOSTILE_TEXTS)
    return [Action(label=_short(t), steps=[text_step(t)], kind="text", controlled=_controlled(t)) for t in texts]


def name_actions() -> list[Action]:
    """Each hostile person starts the bot and writes to it; their name is what they control."""
    out: list[Action] = []
    for who in HOSTILE_PEOPLE:
        names = tuple(str(who[k]) for k in ("first_name", "last_name", "username"))
        start = text_step("/start", who)
        hello = text_step(PLAIN_TEXT, who)
        out.append(
            Action(
                label=f"/start as {who['first_name']}",
                steps=[start],
                chat_id=int(who["user_id"]),
                kind="name",
                controlled=names,
            )
        )
        out.append(
            Action(
                label=f"'hello' as {who['first_name']}",
                steps=[start, hello],
                chat_id=int(who["user_id"]),
                kind="name",
                controlled=(*names, PLAIN_TEXT),
            )
        )
    return out


def content_actions() -> list[Action]:
    """Messages that carry no text: what ``message.text.startswith`` trips over."""
    alice = {"user_id": ALICE}
    png = base64.b64encode(PNG_1X1).decode()
    items: list[tuple[str, Step]] = [
        ("a photo", Step("/file", {**alice, "photo": {"name": "cat.png", "data": png}})),
        (
            "a document",
            Step("/file", {**alice, "document": {"name": "notes.txt", "data": base64.b64encode(b"notes\n").decode()}}),
        ),
        ("a sticker", Step("/file", {**alice, "sticker": {"name": "hi.webp", "data": png}, "emoji": "\U0001f44d"})),
        ("a voice note", Step("/file", {**alice, "voice": {"name": "note.ogg", "data": OGG_VOICE}, "duration": 2})),
        ("a location", Step("/share", {**alice, "location": {"latitude": 48.8584, "longitude": 2.2945}})),
        ("a contact", Step("/share", {**alice, "contact": {"phone_number": "+15550100", "first_name": "Bob"}})),
        ("a poll", Step("/share", {**alice, "poll": {"question": "Tea?", "options": ["Yes", "No"]}})),
        (
            "a forward",
            Step("/forward", {**alice, "text": "forwarded", "origin": {"type": "hidden_user", "name": "Ann"}}),
        ),
    ]
    out = [Action(label=label, steps=[step], kind="content") for label, step in items]
    out.append(
        Action(
            label="an edited message",
            steps=[text_step("before"), Step("/edit", {**alice, "message_id": PREVIOUS, "text": "after"})],
            kind="content",
            controlled=("after",),
        )
    )
    return out


def answered_edit() -> tuple[Action, Action]:
    """A text the bot answers, then the person's edit of it (``edited_message``), done once the answer came."""
    said = text_step(PLAIN_TEXT)
    edit = Step("/edit", {"user_id": ALICE, "message_id": PREVIOUS, "text": "hello, edited"})
    return (
        Action(label="'hello' before an edit", steps=[said], kind="content", controlled=(PLAIN_TEXT,)),
        Action(
            label="an edit of a message the bot answered",
            steps=[edit],
            kind="content",
            controlled=("hello, edited",),
            path=[said],
        ),
    )


def commands_from(params: dict[str, Any]) -> list[str]:
    """The command names in a setMyCommands call's ``commands`` parameter (a JSON array), in order."""
    raw = params.get("commands", "")
    try:
        parsed = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        return []
    if not isinstance(parsed, list):
        return []
    return [str(c["command"]).lstrip("/") for c in parsed if isinstance(c, dict) and c.get("command")]


def _short(text: str) -> str:
    shown = text if len(text) <= 24 else f"{text[:12]}… ({len(text)} characters)"
    return json.dumps(shown, ensure_ascii=False)


def _controlled(text: str) -> tuple[str, ...]:
    return (text,) if text.strip() else ()
