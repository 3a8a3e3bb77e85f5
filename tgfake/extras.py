"""What a message carries beside its content: where a forward came from, and reactions.

``StoredMessage.extra`` keeps ``forward_origin`` and ``quote`` as the Bot API fields themselves; the content a
message carries instead of text (a contact, a location, a poll, ``users_shared``...) is a :class:`Media` kind
(tgfake/content.py), the person's and the bot's alike. This module words the rest for the transcript.
"""

from __future__ import annotations

from typing import Any

from tgfake.content import account_name

ORIGIN = "forward_origin"


def legacy_forward_fields(origin: dict[str, Any]) -> dict[str, Any]:
    """The pre-7.0 ``forward_*`` fields the server still writes beside ``forward_origin`` (Client.cpp's
    JsonMessage), which bots written for the older API read: who or which chat, the post, the signature, the date."""
    out: dict[str, Any] = {}
    kind = origin["type"]
    if kind == "user":
        out["forward_from"] = origin["sender_user"]
    elif kind == "hidden_user":
        if origin.get("sender_user_name"):
            out["forward_sender_name"] = origin["sender_user_name"]
    else:
        out["forward_from_chat"] = origin["sender_chat" if kind == "chat" else "chat"]
        if kind == "channel":
            out["forward_from_message_id"] = origin["message_id"]
        if origin.get("author_signature"):
            out["forward_signature"] = origin["author_signature"]
    out["forward_date"] = origin["date"]
    return out


def origin_name(origin: dict[str, Any]) -> str:
    """Who a forward names: the user, the hidden user's name, the chat or channel title."""
    if origin["type"] == "user":
        return account_name(origin["sender_user"])
    if origin["type"] == "hidden_user":
        return str(origin["sender_user_name"])
    return account_name(origin.get("sender_chat") or origin.get("chat") or {})


def reaction_label(reaction: dict[str, Any]) -> str:
    return str(reaction.get("emoji") or reaction.get("custom_emoji_id") or reaction.get("type"))


def reaction_counts(reactions: dict[int, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The ReactionCount objects of one message (``message_reaction_count``), most chosen first."""
    counts: dict[str, tuple[dict[str, Any], int]] = {}
    for chosen in reactions.values():
        for reaction in chosen:
            key = reaction_label(reaction)
            counts[key] = (reaction, counts.get(key, (reaction, 0))[1] + 1)
    ordered = sorted(counts.values(), key=lambda item: -item[1])
    return [{"type": reaction, "total_count": n} for reaction, n in ordered]
