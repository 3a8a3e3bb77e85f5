"""Polls, the bot's (sendPoll) and the person's (a request_poll button, ``POST /sim/share``) alike: one object,
its votes, its closing.

A poll is the message's :class:`~tgfake.content.Media` of kind ``poll`` whose fields are the Bot API ``Poll``
(written by :func:`poll_object` in telegram-bot-api's ``JsonPoll`` order), so the message JSON, the ``poll``
update, the sim view and the transcript all read the same dict. :class:`Polls` (on the world) keeps what that
object does not show: who chose what, and when a timed poll (``open_period`` / ``close_date``) closes on the
stand's clock. Transport-free.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from tgfake.errors import SimError
from tgfake.world import visibility

if TYPE_CHECKING:
    from tgfake.chats import StoredMessage
    from tgfake.world.people import User
    from tgfake.world.telegram import Telegram

PollMedia = dict[str, Any] | None
"""A poll's, an explanation's or an option's medium as Client.cpp's ``JsonPollMedia`` writes it, or none."""


def poll_object(
    poll_id: str,
    question: str,
    options: list[tuple[str, list[dict[str, Any]]]],
    *,
    poll_type: str = "regular",
    question_entities: list[dict[str, Any]] | None = None,
    is_anonymous: bool = True,
    allows_multiple_answers: bool = False,
    allows_revoting: bool | None = None,
    members_only: bool = False,
    country_codes: list[str] | None = None,
    correct_option_ids: list[int] | None = None,
    explanation: tuple[str, list[dict[str, Any]]] = ("", []),
    description: tuple[str, list[dict[str, Any]]] = ("", []),
    open_period: int = 0,
    close_date: int = 0,
    is_closed: bool = False,
    media: PollMedia = None,
    explanation_media: PollMedia = None,
    option_media: list[PollMedia] | None = None,
) -> dict[str, Any]:
    """The Bot API ``Poll`` with no votes yet, fields in ``JsonPoll``'s order (options' ids persist: Bot API 9.6).

    ``allows_revoting`` defaults to false for quizzes only, as Client.cpp reads it. The media (of the poll, its
    explanation, each option) are ``JsonPollMedia`` objects: the one field of their kind (``photo``, ``video``,
    ``location``...).
    """
    out: dict[str, Any] = {"id": poll_id, "question": question}
    if question_entities:
        out["question_entities"] = question_entities
    out["options"] = []
    for i, (text, entities) in enumerate(options):
        option: dict[str, Any] = {"persistent_id": str(i), "text": text}
        if entities:
            option["text_entities"] = entities
        if option_media and option_media[i] is not None:
            option["media"] = option_media[i]
        option["voter_count"] = 0
        out["options"].append(option)
    out["total_voter_count"] = 0
    if open_period and close_date:
        out["open_period"] = open_period
        out["close_date"] = close_date
    out["is_closed"] = is_closed
    out["is_anonymous"] = is_anonymous
    out["allows_multiple_answers"] = allows_multiple_answers
    out["allows_revoting"] = poll_type != "quiz" if allows_revoting is None else allows_revoting
    out["members_only"] = members_only
    if country_codes:
        out["country_codes"] = country_codes
    out["type"] = poll_type
    if poll_type == "quiz":
        ids = correct_option_ids or []
        if len(ids) == 1:
            out["correct_option_id"] = ids[0]
        if ids:
            out["correct_option_ids"] = ids
        if explanation[0]:
            out["explanation"] = explanation[0]
            out["explanation_entities"] = explanation[1]
        if explanation_media is not None:
            out["explanation_media"] = explanation_media
    if description[0]:
        out["description"] = description[0]
        if description[1]:
            out["description_entities"] = description[1]
    if media is not None:
        out["media"] = media
    return out


def poll_of(msg: StoredMessage) -> dict[str, Any] | None:
    """The poll a message carries, or None."""
    return msg.media.fields if msg.media is not None and msg.media.kind == "poll" else None


def copied(stand: Telegram, poll: dict[str, Any]) -> dict[str, Any]:
    """A copy of a poll (copyMessage): a new poll with the same question and options and no votes yet."""
    out = copy.deepcopy(poll)
    out["id"] = stand.world.polls.mint_id()
    for option in out["options"]:
        option["voter_count"] = 0
    out["total_voter_count"] = 0
    return out


def vote(stand: Telegram, msg: StoredMessage, person: User, options: list[int]) -> dict[str, Any]:
    """The person chooses ``options`` (none: retracts); the counts change and the poll's bot hears of it.

    The bot that sent the poll gets ``poll_answer`` (not for an anonymous poll) and ``poll`` (the new counts); a
    person's own poll reaches no bot (:func:`visibility.poll_owner`). Returns ``poll_id`` and the update id.
    """
    close_due(stand)
    poll = poll_of(msg)
    if poll is None:
        raise SimError(400, f"message {msg.message_id} is not a poll")
    if poll["is_closed"]:
        raise SimError(409, f"the poll of message {msg.message_id} is closed")
    votes = stand.world.polls.votes.setdefault(poll["id"], {})
    before = votes.get(person.id, [])
    chosen = sorted(set(options))
    if any(not 0 <= i < len(poll["options"]) for i in chosen):
        raise SimError(400, f"options are 0..{len(poll['options']) - 1}")
    if len(chosen) > 1 and not poll["allows_multiple_answers"]:
        raise SimError(400, "this poll takes one answer")
    if before and not poll["allows_revoting"]:
        raise SimError(409, "this poll's answers can't be changed or retracted")
    if not chosen and not before:
        raise SimError(409, f"{person.handle} has not voted in this poll")
    for i in before:
        poll["options"][i]["voter_count"] -= 1
    for i in chosen:
        poll["options"][i]["voter_count"] += 1
    if chosen:
        votes[person.id] = chosen
    else:
        votes.pop(person.id, None)
    poll["total_voter_count"] = len(votes)
    out: dict[str, Any] = {"poll_id": poll["id"], "update_id": 0}
    owner = visibility.poll_owner(stand, msg)
    if owner is not None:
        if not poll["is_anonymous"]:
            answer = {"poll_id": poll["id"], "user": person.json(), "option_ids": chosen}
            answer["option_persistent_ids"] = [poll["options"][i]["persistent_id"] for i in chosen]
            out["update_id"] = owner.push("poll_answer", answer)
        update_id = owner.push("poll", copy.deepcopy(poll))
        out["update_id"] = out["update_id"] or update_id
    return out


def close(stand: Telegram, msg: StoredMessage) -> dict[str, Any]:
    """Close the message's poll (stopPoll, or its time is up): the bot that sent it gets the final ``poll``."""
    poll = poll_of(msg)
    assert poll is not None
    poll["is_closed"] = True
    stand.world.polls.closing.pop(poll["id"], None)
    owner = visibility.poll_owner(stand, msg)
    if owner is not None:
        owner.push("poll", copy.deepcopy(poll))
    return poll


def close_due(stand: Telegram) -> None:
    """Close every timed poll whose ``close_date`` the stand's clock has reached (cheap when none is timed)."""
    closing = stand.world.polls.closing
    if not closing:
        return
    now = stand.unix_now()
    for poll_id, (at, msg) in list(closing.items()):
        if at > now:
            continue
        closing.pop(poll_id)
        poll = poll_of(msg)
        if poll is not None and not poll["is_closed"] and not msg.deleted:  # a deleted poll tells no one
            close(stand, msg)
