"""Gherkin steps of tgfake.bdd for channels (boosts, guest summons, suggested posts) and business accounts, loaded
with it (its ``pytest_plugins``); the step list is in tgfake/bdd.py's docstring."""

from __future__ import annotations

import re

import pytest
from pytest_bdd import given, parsers, then, when

from tgfake.bdd import _QUOTED, _fail, _named_chat, _unquote
from tgfake.testing import StandClient
from tgfake.testing.values import person

# ---------------------------------------------------------------------------------------------------------
# Channels: boosts, guest summons, suggested posts (tgfake/testing/channels.py)


@when(parsers.re(r'(?P<who>[A-Za-z][\w-]*) (?P<verb>boosts|takes back (?:their|his|her) boosts of) "(?P<title>[^"]+)"'))
def boosts(request: pytest.FixtureRequest, tgfake: StandClient, who: str, verb: str, title: str) -> None:
    """``chat_boost`` (or ``removed_chat_boost``) for the chat's administrator bots; their answer is read there."""
    chat = _named_chat(request, title)
    if verb == "boosts":
        tgfake.boost(chat, user=who)
    else:
        tgfake.unboost(chat, user=who)


@when(parsers.re(r'(?P<who>[A-Za-z][\w-]*) summons the bot in "(?P<title>[^"]+)" with ' + _QUOTED))
def summons(request: pytest.FixtureRequest, tgfake: StandClient, who: str, title: str, text: str) -> None:
    """``guest_message``: the bot is not in the chat; its answerGuestQuery is read there."""
    tgfake.summon(_named_chat(request, title), _unquote(text), user=who)


@when(parsers.re(r"(?P<who>[A-Za-z][\w-]*) suggests the post " + _QUOTED + r' to "(?P<title>[^"]+)"'))
def suggests(request: pytest.FixtureRequest, tgfake: StandClient, who: str, text: str, title: str) -> None:
    """A suggestion in the channel's direct messages; the bot's service answer is read there."""
    tgfake.suggest_post(_named_chat(request, title), _unquote(text), user=who)


@then(parsers.re(r'"(?P<title>[^"]+)" shows the post ' + _QUOTED))
def channel_shows(request: pytest.FixtureRequest, tgfake: StandClient, title: str, text: str) -> None:
    """Once the bot has handled what it got (its next getUpdates is held), the chat's transcript has the post."""
    tgfake.sim("GET", "/sim/wait", query={"polling": "1", "timeout": "10"})
    chat = _named_chat(request, title)
    if _unquote(text) not in tgfake.transcript(chat.id):
        raise _fail(tgfake, f"{title!r} does not show {_unquote(text)!r}")


# ---------------------------------------------------------------------------------------------------------
# Business accounts (tgfake/testing/business.py)


@given(
    parsers.re(
        r"(?P<who>[A-Za-z][\w-]*) connects the bot to (?:her|his|their) business account"
        r"(?: with (?P<rights>\".*\"))?$"
    )
)
def person_connects_business(tgfake: StandClient, who: str, rights: str | None) -> None:
    """The person connects the bot with these BusinessBotRights; the bot gets ``business_connection``."""
    names = re.findall(r'"([^"]+)"', rights or "")
    tgfake.connect_business(who, **dict.fromkeys(names, True))


@when(parsers.re(r"(?P<who>[A-Za-z][\w-]*) writes " + _QUOTED + r" to (?P<owner>[A-Za-z][\w-]*)'s business account"))
def customer_writes(tgfake: StandClient, who: str, text: str, owner: str) -> None:
    tgfake.customer_writes(_unquote(text), customer=who, owner=owner)


@then(parsers.re(r"the bot answers (?P<who>[A-Za-z][\w-]*) " + _QUOTED + r" on (?P<owner>[A-Za-z][\w-]*)'s behalf"))
def bot_answers_customer(tgfake: StandClient, who: str, text: str, owner: str) -> None:
    """A send through ``owner``'s business connection to the customer, with that text (waited for on the stand)."""
    customer, wanted = str(person(who).user_id), _unquote(text)

    def answered() -> bool | None:
        calls = tgfake.outbox("sendMessage")
        hit = any(
            c.params.get("business_connection_id")
            and c.params.get("chat_id") == customer
            and c.params.get("text") == wanted
            and c.ok
            for c in calls
        )
        return True if hit else None

    tgfake.wait_until(answered, what=f"the bot to answer {who} {wanted!r} on {owner}'s behalf")
