"""What a person's message carries instead of text: contact, location, venue, dice, poll, users_shared,
chat_shared, web_app_data. Kept as the Bot API fields themselves (``StoredMessage.extra``), so the message JSON
is them as they are; this module words them for the transcript.

(The bot's own media kinds have their own model on the msgs branch; these map one to one onto its kinds.)
"""

from __future__ import annotations

from typing import Any

CONTENT_KEYS = frozenset(
    {"contact", "location", "venue", "dice", "poll", "users_shared", "chat_shared", "web_app_data"}
)
"""The extras that stand instead of text (``forward_origin`` and ``quote`` go with a text)."""


def has_content(extra: dict[str, Any]) -> bool:
    return not CONTENT_KEYS.isdisjoint(extra)


def origin_name(origin: dict[str, Any]) -> str:
    """Who a forward names: the user, the hidden user's name, the chat or channel title."""
    if origin["type"] == "user":
        return _name(origin["sender_user"])
    if origin["type"] == "hidden_user":
        return str(origin["sender_user_name"])
    return _name(origin.get("sender_chat") or origin.get("chat") or {})


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


def _name(obj: dict[str, Any]) -> str:
    return str(obj.get("username") or obj.get("first_name") or obj.get("title") or obj.get("user_id") or "")


def extra_label(extra: dict[str, Any]) -> str:
    """One readable body for the transcript: ``[location 51.5, -0.12]``, ``[contact Alice +1555…]``..."""
    if "venue" in extra:
        v = extra["venue"]
        return f"[venue {v.get('title', '')}, {v.get('address', '')}]"
    if "location" in extra:
        loc = extra["location"]
        live = f" live {loc['live_period']}s" if loc.get("live_period") else ""
        return f"[location {loc['latitude']}, {loc['longitude']}{live}]"
    if "contact" in extra:
        c = extra["contact"]
        name = " ".join(x for x in (c.get("first_name"), c.get("last_name")) if x)
        return f"[contact {name} {c.get('phone_number', '')}]"
    if "dice" in extra:
        d = extra["dice"]
        return f"[dice {d['emoji']} {d['value']}]"
    if "poll" in extra:
        p = extra["poll"]
        word = "quiz" if p.get("type") == "quiz" else "poll"
        options = " ".join(f"[{o['text']}: {o['voter_count']}]" for o in p.get("options", []))
        closed = " (closed)" if p.get("is_closed") else ""
        return f"[{word} {p['question']!r}{closed}] {options}".rstrip()
    if "users_shared" in extra:
        users = ", ".join(_name(u) for u in extra["users_shared"]["users"])
        return f"[shared users {users} for request {extra['users_shared']['request_id']}]"
    if "chat_shared" in extra:
        c = extra["chat_shared"]
        return f"[shared chat {_name(c)} ({c['chat_id']}) for request {c['request_id']}]"
    if "web_app_data" in extra:
        w = extra["web_app_data"]
        return f"[web app data from {w['button_text']!r}: {w['data']}]"
    return "[" + ", ".join(extra) + "]"
