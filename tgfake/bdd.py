"""A Gherkin step library (pytest-bdd) for dialog regression tests of any bot, in any language.

Load it in your top-level ``conftest.py`` (the plugin's fixtures come with installing tgfake)::

    pytest_plugins = ["tgfake.bdd"]

and bind your features with ``scenarios("features")``. Every step talks to the stand over HTTP (the
bot may be Python, Go, Node...), waits on the stand (server-held ``/sim/wait``), never on sleeps, and a
failing step shows the chat's transcript and the bot's calls. The steps are synchronous, because the
stand serves from its own thread (or from another process).

Steps (``alice`` may be any name; quotes are part of the step):

Given
  the stand runs the script "path.json"      (relative to the feature file, else to the project)
  the stand runs the script:                 (doc string: the JSON rules)
  the model answers "one", "two"             (canned answers in turn: a stand of its own)
  the model echoes                           (no rules: ``You said: <prompt>``)
  sendMessage fails with 429 retry after 1, once     (also: twice, 3 times, always; ``when it contains "x"``)
  the bot is running                         (``BOT_CMD`` or the ``tgfake_bot_command`` fixture)
  the bot "python my_bot.py" is running
  the bot has inline mode on                 (BotFather's /setinline; ``with inline feedback``)
  a group "Club" with bob, carol and the bot (alice's supergroup; also ``a basic group``, ``a channel``, ``a forum``;
                                             ``@helper_bot`` names another bot)
  the bot is an administrator of "Club"      (or a person: ``bob is an administrator of "Club"``)
  alice connects the bot to her business account with "can_reply"    (the rights; none: no rights)
When
  alice sends "hello"                        (``in the group``; ``in "Club"``; ``, mentioning the bot``)
  dave joins "Club"                           (also: ``dave leaves "Club"``)
  alice adds dave to "Club"                  (also: ``alice bans carol from "Club"``, ``alice removes carol from
                                             "Club"``, ``alice restricts carol in "Club"``; the bot by ``the bot``)
  alice pays the invoice                     (the newest in her last chat; ``with a tip of 5``)
  alice sent "/start" and got a reply         (a Given: the reply is consumed, whatever it says)
  alice taps "Ping"
  alice sends the video "clip.mp4"           (any kind: photo, document, video, audio, voice, animation, sticker,
                                             video note; ``with the caption "text"``; ``in the group``; the path
                                             relative to the feature file, else to the project)
  alice sends an album of the photo "a.png" and the video "b.mp4"    (2-10 items, ``, `` or `` and `` between)
  alice types the inline query "cats"          (``in the group``; the bot needs inline mode on)
  alice picks the inline result "Cats"         (by title, else by result id)
  bob writes "hi" to alice's business account    (a customer: ``business_message`` for the connected bot)
Then
  the bot replies "text"
  the bot answers bob "text" on alice's behalf    (a send through alice's business connection)
  the bot replies with a message containing "text"
  the bot replies with HTML "<b>Hi</b>"       (the formatting as Telegram's HTML; links stay plain)
  the bot shows the keyboard [A] [B]          (rows separated by `` / ``)
  the bot edits the message to "text"
  the bot offers the inline results "Cats", "Dogs"    (the titles of its answer, in order)
  the bot posts the service message "* bot removed carol"    (service lines are not replies: this reads them)
  the bot sends an invoice for "Boost"
  carol is banned from "Club"                (also: ``a member of``, ``an administrator of``, ``the owner of``,
                                             ``restricted in``, ``gone from``)
  the payment is paid                        (or ``declined``, ``shipping_refused``, ``timeout``; ``with "Sold out"``)
  the tap was answered with "text"            (or: the tap was answered)
  the bot showed typing
  the bot streamed its answer                (drafts or edits before the final text)
  the transcript is:                         (doc string in ``GET /sim/chat/{id}?format=text`` form)
  the model was called 2 times
  the model was called with a system prompt containing "text"
  the model was called with a message containing "text"
  the model was last called with a message containing "text"
  the model answered with status 429 once
  the model called the tool "get_weather"
  the outbox has 2 sendMessage calls with status 429
  the bot sent no further message
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd import given, parsers, then, when

from tgfake.pytest_plugin import BotPool, StandSession, _command, use_pooled_bot
from tgfake.testing import AlbumItem, ChatInfo, ChatMessage, ModelClient, StandClient

pytest_plugins = ["tgfake.bdd_accounts"]  # the channel and business steps, loaded with these

__all__: list[str] = []

_FEATURE = pytest.StashKey[Path]()
_QUOTED = r'"(?P<text>.*)"'


def pytest_bdd_before_scenario(request: pytest.FixtureRequest, feature: Any, scenario: Any) -> None:
    """Remember the feature file, so a script path in a step is read relative to it."""
    request.node.stash[_FEATURE] = Path(feature.filename)


def _unquote(text: str) -> str:
    return text.replace('\\"', '"')


def _resolve(request: pytest.FixtureRequest, name: str, what: str = "script file") -> Path:
    candidates: list[Path] = []
    feature: Path | None = request.node.stash.get(_FEATURE, None)
    if feature is not None:
        candidates.append(feature.parent / name)
    candidates += [Path(request.config.rootpath) / name, Path(name)]
    for path in candidates:
        if path.is_file():
            return path
    raise AssertionError(f"no {what} {name!r} (looked at {', '.join(str(c) for c in candidates)})")


def _fail(client: StandClient, message: str) -> AssertionError:
    return AssertionError(f"{message}\n{client.evidence()}")


# ---------------------------------------------------------------------------------------------------------
# Given: the stand and the bot


@given(parsers.re(r'the stand runs the script "(?P<path>[^"]+)"'))
def stand_runs_script_file(request: pytest.FixtureRequest, tgfake_stand: StandSession, path: str) -> None:
    tgfake_stand.set_script(json.loads(_resolve(request, path).read_text()))


@given("the stand runs the script:")
def stand_runs_script(tgfake_stand: StandSession, docstring: str) -> None:
    tgfake_stand.set_script(json.loads(docstring))


@given("the model echoes")
def model_echoes(tgfake_stand: StandSession) -> None:
    tgfake_stand.set_script([])


@given(parsers.re(r'the model answers (?P<answers>".*")'))
def model_answers(tgfake_stand: StandSession, answers: str) -> None:
    texts = [_unquote(a) for a in re.findall(r'"((?:[^"\\]|\\.)*)"', answers)]
    tgfake_stand.use_private(answers=texts)


_TIMES = {"once": 1, "twice": 2, "always": 0}


@given(
    parsers.re(
        r"(?P<method>\*|\w+) fails with (?P<code>\d{3})(?: retry after (?P<retry>\d+))?"
        r"(?:,? (?P<times>once|twice|always|\d+ times))?"
        r'(?: when it contains "(?P<contains>.*)")?'
    )
)
def method_fails(
    tgfake: StandClient, method: str, code: str, retry: str | None, times: str | None, contains: str | None
) -> None:
    count = None if times is None else _TIMES.get(times)
    if times is not None and count is None:
        count = int(times.split()[0])
    tgfake.fault(
        method,
        int(code),
        retry_after=int(retry) if retry else None,
        times=count or None,
        contains=_unquote(contains) if contains is not None else None,
    )


def _bot_running(
    request: pytest.FixtureRequest, stand: StandSession, pool: BotPool, command: Any, env: dict[str, str]
) -> None:
    if os.environ.get("TGFAKE_BOT") == "external":
        return  # the bot runs elsewhere (compose) and polls this stand already
    use_pooled_bot(request, pool, stand, _command(None, command), env, cwd=request.config.rootpath)


@given("the bot is running")
def bot_is_running(
    request: pytest.FixtureRequest,
    tgfake_stand: StandSession,
    tgfake_bot_pool: BotPool,
    tgfake_bot_command: Any,
    tgfake_bot_env: dict[str, str],
) -> None:
    _bot_running(request, tgfake_stand, tgfake_bot_pool, tgfake_bot_command, tgfake_bot_env)


@given(parsers.re(r'the bot "(?P<command>[^"]+)" is running'))
def named_bot_is_running(
    request: pytest.FixtureRequest,
    tgfake_stand: StandSession,
    tgfake_bot_pool: BotPool,
    tgfake_bot_env: dict[str, str],
    command: str,
) -> None:
    _bot_running(request, tgfake_stand, tgfake_bot_pool, command, tgfake_bot_env)


# ---------------------------------------------------------------------------------------------------------
# When: people act


_TEXT = r'"(?P<text>(?:[^"\\]|\\.)*)"'  # quotes inside escaped as \"
_WHERE = r'(?:(?P<group> in the group)| in "(?P<title>[^"]+)")?(?P<mention>,? mentioning the bot)?'


@when(parsers.re(r"(?P<who>[A-Za-z][\w-]*) sends " + _TEXT + _WHERE))
@given(parsers.re(r"(?P<who>[A-Za-z][\w-]*) sent " + _TEXT + _WHERE))
def person_sends(
    request: pytest.FixtureRequest,
    tgfake: StandClient,
    who: str,
    text: str,
    group: str | None,
    title: str | None,
    mention: str | None,
) -> None:
    chat: int | str | None = _named_chat(request, title).id if title else "group" if group else None
    tgfake.send(_unquote(text), user=who, chat=chat, mention=bool(mention))


@given(parsers.re(r"(?P<who>[A-Za-z][\w-]*) sent " + _QUOTED + r" and got a reply"))
def person_sent_and_got_reply(tgfake: StandClient, who: str, text: str) -> None:
    tgfake.send(_unquote(text), user=who)
    tgfake.wait_for_reply()


@when(parsers.re(r"(?P<who>[A-Za-z][\w-]*) taps " + _QUOTED))
def person_taps(tgfake: StandClient, who: str, text: str) -> None:
    tgfake.tap(_unquote(text), user=who)


_KIND = r"(?:photo|document|video note|video|audio|voice|animation|sticker)"
_ITEM = re.compile(rf'the (?P<kind>{_KIND}) "(?P<path>[^"]+)"')


@when(
    parsers.re(
        rf'(?P<who>[A-Za-z][\w-]*) sends the (?P<kind>{_KIND}) "(?P<path>[^"]+)"'
        r'(?: with the caption "(?P<caption>.*?)")?(?P<group> in the group)?$'
    )
)
def person_sends_file(
    request: pytest.FixtureRequest,
    tgfake: StandClient,
    who: str,
    kind: str,
    path: str,
    caption: str | None,
    group: str | None,
) -> None:
    """A file of any kind read from ``path``; what its bytes tell (size, duration) is read from them."""
    file = _resolve(request, path, "file")
    chat = "group" if group else None
    tgfake.send_file(
        kind.replace(" ", "_"), file.read_bytes(), name=file.name, caption=_unquote(caption or ""), user=who, chat=chat
    )


@when(parsers.re(r"(?P<who>[A-Za-z][\w-]*) sends an album of (?P<items>.+?)(?P<group> in the group)?$"))
def person_sends_album(
    request: pytest.FixtureRequest, tgfake: StandClient, who: str, items: str, group: str | None
) -> None:
    """``the photo "a.png", the video "b.mp4" and the photo "c.jpg"``: one message per item, one media_group_id."""
    found = [(m["kind"].replace(" ", "_"), _resolve(request, m["path"], "file")) for m in _ITEM.finditer(items)]
    if not found:
        raise AssertionError(f'an album lists its items as: the photo "a.png" and the video "b.mp4" (got {items!r})')
    album = [AlbumItem(kind, path.read_bytes(), name=path.name) for kind, path in found]
    tgfake.send_album(album, user=who, chat="group" if group else None)


@when(
    parsers.re(
        r"(?P<who>[A-Za-z][\w-]*) presses the reply button " + _QUOTED + r"(?: sharing the location "
        r"(?P<lat>-?[\d.]+), (?P<lon>-?[\d.]+))?"
    )
)
def person_presses(tgfake: StandClient, who: str, text: str, lat: str | None = None, lon: str | None = None) -> None:
    """A reply keyboard button; a location button shares the coordinates given."""
    shares: dict[str, Any] = {}
    if lat is not None and lon is not None:
        shares = {"latitude": float(lat), "longitude": float(lon)}
    tgfake.press(_unquote(text), user=who, **shares)


@when(parsers.re(r"(?P<who>[A-Za-z][\w-]*) shares the location (?P<lat>-?[\d.]+), (?P<lon>-?[\d.]+)"))
def person_shares_location(tgfake: StandClient, who: str, lat: str, lon: str) -> None:
    tgfake.share(user=who, location={"latitude": float(lat), "longitude": float(lon)})


@when(parsers.re(r"(?P<who>[A-Za-z][\w-]*) edits message (?P<mid>\d+) to " + _QUOTED))
def person_edits(tgfake: StandClient, who: str, mid: str, text: str) -> None:
    tgfake.edit(int(mid), _unquote(text), user=who)


@when(parsers.re(r"(?P<who>[A-Za-z][\w-]*) reacts with " + _QUOTED + r" to message (?P<mid>\d+)"))
def person_reacts(tgfake: StandClient, who: str, text: str, mid: str) -> None:
    tgfake.react(int(mid), _unquote(text), user=who)


@when(parsers.re(r"(?P<who>[A-Za-z][\w-]*) votes for " + _QUOTED + r" in the poll of message (?P<mid>\d+)"))
def person_votes(tgfake: StandClient, who: str, text: str, mid: str) -> None:
    """Options by label: ``"Yes"``, or several as ``"Yes", "No"`` (a poll that takes several answers)."""
    message = next((m for m in tgfake.messages() if m.message_id == int(mid)), None)
    if message is None or message.poll is None:
        raise _fail(tgfake, f"message {mid} is not a poll")
    try:
        chosen = [message.poll_option(w) for w in re.findall(r'"([^"]*)"', f'"{text}"')]
    except AssertionError as exc:
        raise _fail(tgfake, str(exc)) from None
    tgfake.vote(int(mid), chosen, user=who)


_INLINE_ANSWER = pytest.StashKey[dict[str, Any]]()


@given(parsers.re(r"the bot has inline mode on(?P<feedback> with inline feedback)?"))
def bot_has_inline_mode(tgfake: StandClient, feedback: str | None) -> None:
    tgfake.inline_mode(True, feedback=100 if feedback else 0)


@when(parsers.re(r"(?P<who>[A-Za-z][\w-]*) types the inline query " + _QUOTED + r"(?P<group> in the group)?"))
def person_types_inline(
    request: pytest.FixtureRequest, tgfake: StandClient, who: str, text: str, group: str | None
) -> None:
    request.node.stash[_INLINE_ANSWER] = tgfake.inline(_unquote(text), user=who, chat="group" if group else None)


@when(parsers.re(r"(?P<who>[A-Za-z][\w-]*) picks the inline result " + _QUOTED))
def person_picks_inline(request: pytest.FixtureRequest, tgfake: StandClient, who: str, text: str) -> None:
    answer = request.node.stash.get(_INLINE_ANSWER, None)
    if answer is None:
        raise _fail(tgfake, "no inline query was typed before picking a result")
    want = _unquote(text)
    results = answer.get("results") or []
    found = next((r for r in results if r.get("title") == want), None) or next(
        (r for r in results if str(r.get("id")) == want), None
    )
    if found is None:
        offered = [str(r.get("title") or r.get("id")) for r in results]
        raise _fail(tgfake, f"the bot offered no inline result {want!r}: {offered}")
    tgfake.choose(str(found["id"]))


# ---------------------------------------------------------------------------------------------------------
# Then: the bot's side


_LAST_REPLY = pytest.StashKey[ChatMessage]()


@then("the chat matches its snapshot")
def chat_matches_snapshot(tgfake: StandClient) -> None:
    tgfake.assert_snapshot()


@then("the chat and the bot's calls match their snapshot")
def chat_and_calls_match_snapshot(tgfake: StandClient) -> None:
    tgfake.assert_snapshot(calls=True)


@then(parsers.re(r"the bot replies " + _QUOTED))
def bot_replies(request: pytest.FixtureRequest, tgfake: StandClient, text: str) -> None:
    request.node.stash[_LAST_REPLY] = tgfake.expect_reply(_unquote(text))


@then(parsers.re(r"the bot replies with HTML " + _QUOTED))
def bot_replies_html(request: pytest.FixtureRequest, tgfake: StandClient, text: str) -> None:
    request.node.stash[_LAST_REPLY] = tgfake.expect_reply(html=_unquote(text))


@then(parsers.re(r"the bot replies with a (?:message|reply) containing " + _QUOTED))
def bot_replies_containing(request: pytest.FixtureRequest, tgfake: StandClient, text: str) -> None:
    request.node.stash[_LAST_REPLY] = tgfake.expect_reply(containing=_unquote(text))


def _parse_keyboard(spec: str) -> tuple[tuple[str, ...], ...]:
    rows = [r for r in re.split(r"\s*(?:/|\n)\s*", spec.strip()) if r]
    return tuple(tuple(re.findall(r"\[([^\]]*)\]", row)) for row in rows)


@then(parsers.re(r"the bot shows the keyboard (?P<spec>\[.*\])"))
def bot_shows_keyboard(request: pytest.FixtureRequest, tgfake: StandClient, spec: str) -> None:
    want = _parse_keyboard(spec)
    reply = request.node.stash.get(_LAST_REPLY, None)
    if reply is None:
        reply = tgfake.wait_for_reply()
        request.node.stash[_LAST_REPLY] = reply
    # the message as it is now: the bot may have edited its keyboard since
    current = next((m for m in tgfake.messages() if m.message_id == reply.message_id), reply)
    if current.keyboard != want:
        shown = current.keyboard_text() or "(no keyboard)"
        raise _fail(tgfake, f"message {current.message_id} shows {shown}, expected {spec}")


@then(parsers.re(r"the bot shows the reply keyboard (?P<spec>\[.*\])"))
def bot_shows_reply_keyboard(tgfake: StandClient, spec: str) -> None:
    """The person's current reply keyboard (``[A] [B] / [C]``: rows split by ``/``)."""
    want = _parse_keyboard(spec)
    board = tgfake.chat().get("reply_keyboard") or {}
    got = tuple(tuple(str(b.get("text", "")) for b in row) for row in board.get("keyboard") or [])
    if got != want:
        shown = " / ".join(" ".join(f"[{label}]" for label in row) for row in got) or "(no reply keyboard)"
        raise _fail(tgfake, f"the person's reply keyboard is {shown}, expected {spec}")


@then(parsers.re(r"the poll of message (?P<mid>\d+) shows " + _QUOTED))
def poll_shows(tgfake: StandClient, mid: str, text: str) -> None:
    """Each option with its votes as the transcript writes them: ``"Yes: 1", "No: 0"``; ``(closed)`` is not asked."""
    message = next((m for m in tgfake.messages() if m.message_id == int(mid)), None)
    if message is None or message.poll is None:
        raise _fail(tgfake, f"message {mid} is not a poll")
    want = re.findall(r'"([^"]*)"', f'"{text}"')
    got = [f"{o['text']}: {o['voter_count']}" for o in message.poll["options"]]
    if got != want:
        raise _fail(tgfake, f"the poll of message {mid} shows {got}, expected {want}")


@then(parsers.re(r"the bot offers the inline results (?P<titles>\".*\")"))
def bot_offers_inline(request: pytest.FixtureRequest, tgfake: StandClient, titles: str) -> None:
    answer = request.node.stash.get(_INLINE_ANSWER, None)
    if answer is None:
        raise _fail(tgfake, "no inline query was typed")
    want = re.findall(r'"([^"]*)"', titles)
    got = [str(r.get("title") or r.get("id")) for r in answer.get("results") or []]
    if got != want:
        raise _fail(tgfake, f"the bot offered the inline results {got}, expected {want}")


@then(parsers.re(r"the bot edits the message to " + _QUOTED))
def bot_edits_message(tgfake: StandClient, text: str) -> None:
    want = _unquote(text)

    def edited() -> ChatMessage | None:
        return next((m for m in tgfake.messages() if m.from_bot and m.edited and m.body == want), None)

    tgfake.wait_until(edited, what=f"a message of the bot edited to {want!r}")


@given(parsers.re(r"(?P<who>[A-Za-z][\w-]*) hides (?:their|his|her) account in forwards"))
def person_hides_forwards(tgfake: StandClient, who: str) -> None:
    tgfake.hide_forwards(who)


@then(parsers.re(r"the bot forwards a message from " + _QUOTED))
def bot_forwards_from(tgfake: StandClient, text: str) -> None:
    want = _unquote(text)

    def forwarded() -> ChatMessage | None:
        return next((m for m in tgfake.messages() if m.from_bot and m.forwarded_from == want), None)

    tgfake.wait_until(forwarded, what=f"a forward of the bot from {want!r}")


@then(parsers.re(r"the bot reacts with " + _QUOTED + r" to message (?P<mid>\d+)"))
def bot_reacts(tgfake: StandClient, text: str, mid: str) -> None:
    want = _unquote(text)

    def reacted() -> ChatMessage | None:
        found = next((m for m in tgfake.messages() if m.message_id == int(mid)), None)
        return found if found is not None and found.reactions.get(want) else None

    tgfake.wait_until(reacted, what=f"a {want} reaction on message {mid}")


def _tap_answer(tgfake: StandClient) -> dict[str, str]:
    tap = tgfake.last_tap
    if tap is None:
        raise _fail(tgfake, "nobody tapped a button in this scenario")
    _, cbq, _ = tap

    def answered() -> dict[str, str] | None:
        for call in tgfake.outbox("answerCallbackQuery"):
            if call.ok and call.params.get("callback_query_id") == cbq:
                return call.params
        return None

    return tgfake.wait_until(answered, what=f"the bot to answer the tap {cbq}")


@then(parsers.re(r"the tap was answered with " + _QUOTED))
def tap_answered_with(tgfake: StandClient, text: str) -> None:
    got = _tap_answer(tgfake).get("text", "")
    if got != _unquote(text):
        raise _fail(tgfake, f"the tap was answered with {got!r}, expected {_unquote(text)!r}")


@then("the tap was answered")
def tap_answered(tgfake: StandClient) -> None:
    _tap_answer(tgfake)


def _chat_calls(tgfake: StandClient, method: str) -> list[Any]:
    chat = str(tgfake.last_chat)
    return [c for c in tgfake.outbox(method) if c.params.get("chat_id") == chat]


@then("the bot showed typing")
def bot_showed_typing(tgfake: StandClient) -> None:
    def typing() -> bool | None:
        return any(c.params.get("action") == "typing" for c in _chat_calls(tgfake, "sendChatAction")) or None

    tgfake.wait_until(typing, what="a sendChatAction typing")


@then("the bot streamed its answer")
def bot_streamed(tgfake: StandClient) -> None:
    drafts = [c for c in _chat_calls(tgfake, "sendMessageDraft") if c.ok]
    edits = [c for c in _chat_calls(tgfake, "editMessageText") if c.ok]
    if not drafts and not edits:
        raise _fail(tgfake, "the bot sent its answer at once: no sendMessageDraft and no editMessageText")


def _normalise(text: str) -> str:
    lines = [line.rstrip() for line in text.strip("\n").splitlines()]
    return "\n".join(lines)


@then("the transcript is:")
def transcript_is(tgfake: StandClient, docstring: str) -> None:
    want = _normalise(docstring)
    keep_typing = want.endswith("typing…")

    def matches() -> str | None:
        got = _normalise(tgfake.transcript())
        if not keep_typing and got.endswith("typing…"):
            got = _normalise(got[: -len("typing…")])
        return got if got == want else None

    try:
        tgfake.wait_until(matches, what="the transcript")
    except AssertionError as e:
        raise AssertionError(f"expected the transcript:\n{want}\n\n{e}") from None


def _model_entries(tgfake: StandClient, at_least: int = 1) -> list[dict[str, Any]]:
    def enough() -> list[dict[str, Any]] | None:
        entries = tgfake.model.log()
        return entries if len(entries) >= at_least else None

    return tgfake.wait_until(enough, what=f"{at_least} model call(s) in /sim/llm/log")


@then(parsers.re(r"the model was called (?P<n>\d+) times?"))
def model_called_times(tgfake: StandClient, n: str) -> None:
    entries = _model_entries(tgfake, int(n)) if int(n) else tgfake.model.log()
    if len(entries) != int(n):
        raise _fail(tgfake, f"the model was called {len(entries)} times, expected {n}")


@then(parsers.re(r"the model was called with a system prompt containing " + _QUOTED))
def model_system_prompt(tgfake: StandClient, text: str) -> None:
    prompts = ModelClient.system_prompts(_model_entries(tgfake))
    if not any(_unquote(text) in p for p in prompts):
        raise _fail(tgfake, f"no model call had a system prompt containing {text!r}; they were {prompts!r}")


@then(parsers.re(r"the model was called with a message containing " + _QUOTED))
def model_message(tgfake: StandClient, text: str) -> None:
    want = _unquote(text)
    entries = _model_entries(tgfake)
    for entry in entries:
        for m in entry.get("messages") or []:
            content = m.get("content") if isinstance(m, dict) else None
            if want in (content if isinstance(content, str) else json.dumps(content)):
                return
    raise _fail(tgfake, f"no model call carried a message containing {want!r}")


@then(parsers.re(r"the model was last called with a message containing " + _QUOTED))
def model_last_message(tgfake: StandClient, text: str) -> None:
    want = _unquote(text)
    last = _model_entries(tgfake)[-1]
    contents = [m.get("content") for m in last.get("messages") or [] if isinstance(m, dict)]
    if not any(want in (c if isinstance(c, str) else json.dumps(c)) for c in contents):
        raise _fail(tgfake, f"the model's last call carried no message containing {want!r}: {contents!r}")


@then(parsers.re(r"the model answered with status (?P<status>\d{3}) (?P<times>once|twice|\d+ times)"))
def model_answered_status(tgfake: StandClient, status: str, times: str) -> None:
    n = _TIMES.get(times) or int(times.split()[0])
    got = [e for e in tgfake.model.log() if int(e.get("status", 0)) == int(status)]
    if len(got) != n:
        raise _fail(tgfake, f"the model answered {status} {len(got)} times, expected {n}")


@then(parsers.re(r'the model called the tool "(?P<name>[^"]+)"'))
def model_called_tool(tgfake: StandClient, name: str) -> None:
    def called() -> list[str] | None:
        names = ModelClient.tools_called(tgfake.model.log())
        return names if name in names else None

    tgfake.wait_until(called, what=f"the model to call the tool {name!r}")


@then(parsers.re(r"the outbox has (?P<n>\d+) (?P<method>\w+) calls?(?: with status (?P<status>\d{3}))?"))
def outbox_has(tgfake: StandClient, n: str, method: str, status: str | None) -> None:
    def counted() -> int | None:
        got = sum(1 for c in tgfake.outbox(method) if status is None or c.status == int(status))
        return got if got >= int(n) else None

    got = tgfake.wait_until(counted, what=f"{n} {method} calls")
    if got != int(n):
        raise _fail(tgfake, f"the outbox has {got} {method} calls, expected {n}")


@then("the bot sent no further message")
def bot_sent_nothing_more(tgfake: StandClient) -> None:
    tgfake.expect_no_reply()


# ---------------------------------------------------------------------------------------------------------
# Groups, joins and payments

_CHATS = pytest.StashKey[dict[str, ChatInfo]]()
_PAID = pytest.StashKey[dict[str, Any]]()
_ACCOUNT = r"(?P<who>the bot|@?[A-Za-z][\w-]*)"
_STATUS = {
    "a member of": "member",
    "an administrator of": "administrator",
    "the owner of": "creator",
    "banned from": "kicked",
    "restricted in": "restricted",
    "gone from": "left",
}


def _named_chat(request: pytest.FixtureRequest, title: str) -> ChatInfo:
    chats: dict[str, ChatInfo] = request.node.stash.get(_CHATS, {})
    if title not in chats:
        made = ", ".join(repr(t) for t in chats) or "none"
        raise AssertionError(f'no chat "{title}" in this scenario (made: {made}): Given a group "{title}" with ...')
    return chats[title]


def _account(tgfake: StandClient, who: str) -> str:
    """``the bot`` as the stand's bot's @username; people and other bots as named."""
    return f"@{tgfake.state()['bot']['username']}" if who == "the bot" else who


@given(
    parsers.re(
        r'an? (?P<kind>basic group|group|supergroup|channel|forum) "(?P<title>[^"]+)"(?: with (?P<members>.+))?$'
    )
)
def chat_exists(
    request: pytest.FixtureRequest, tgfake: StandClient, kind: str, title: str, members: str | None
) -> None:
    """alice's chat; ``group`` is a supergroup (what Telegram makes today), ``basic group`` the old kind."""
    names = [n.strip() for n in re.split(r",| and ", members or "") if n.strip()]
    chat = tgfake.create_chat(
        title,
        type={"basic group": "group", "channel": "channel"}.get(kind, "supergroup"),
        forum=kind == "forum",
        members=[_account(tgfake, n) for n in names],
    )
    request.node.stash.setdefault(_CHATS, {})[title] = chat


@given(parsers.re(_ACCOUNT + r' is an administrator of "(?P<title>[^"]+)"'))
def is_administrator(request: pytest.FixtureRequest, tgfake: StandClient, who: str, title: str) -> None:
    if _named_chat(request, title).type == "channel":  # a channel's administrator: every channel right
        tgfake.promote(_named_chat(request, title), _account(tgfake, who))
        return
    tgfake.promote(
        _named_chat(request, title),
        _account(tgfake, who),
        can_delete_messages=True,
        can_restrict_members=True,
        can_invite_users=True,
        can_pin_messages=True,
    )


@when(parsers.re(_ACCOUNT + r' (?P<verb>joins|leaves) "(?P<title>[^"]+)"'))
def joins_or_leaves(request: pytest.FixtureRequest, tgfake: StandClient, who: str, verb: str, title: str) -> None:
    chat = _named_chat(request, title)
    if verb == "joins":
        tgfake.join(chat, user=_account(tgfake, who))
    else:
        tgfake.leave(chat, user=_account(tgfake, who))


@when(
    parsers.re(
        r"(?P<by>[A-Za-z][\w-]*) (?P<verb>adds|bans|removes|restricts) "
        + _ACCOUNT
        + r' (?:to|from|in) "(?P<title>[^"]+)"'
    )
)
def member_changes(
    request: pytest.FixtureRequest, tgfake: StandClient, by: str, verb: str, who: str, title: str
) -> None:
    """``restricts``: no sending at all (``can_send_messages`` off)."""
    chat, account = _named_chat(request, title), _account(tgfake, who)
    if verb == "adds":
        tgfake.add(chat, account, by=by)
    elif verb == "bans":
        tgfake.ban(chat, account, by=by)
    elif verb == "removes":
        tgfake.remove(chat, account, by=by)
    else:
        tgfake.restrict(chat, account, by=by, can_send_messages=False)


@then(parsers.re(_ACCOUNT + r" is (?P<status>" + "|".join(_STATUS) + r') "(?P<title>[^"]+)"'))
def has_status(request: pytest.FixtureRequest, tgfake: StandClient, who: str, status: str, title: str) -> None:
    chat = _named_chat(request, title)
    now = tgfake.chat_info(chat).status_of(_account(tgfake, who))
    if now != _STATUS[status]:
        raise _fail(tgfake, f"{who} is {now or 'not known'} in {title!r}, not {_STATUS[status]}")


@then(parsers.re(r"the bot posts the service message " + _QUOTED))
def bot_posts_service(tgfake: StandClient, text: str) -> None:
    """The bot's next service line (``* bot removed carol``), as the transcript writes it."""
    message = tgfake.expect_reply(kind="service")
    line = next((ln for ln in tgfake.transcript().splitlines() if ln.startswith(f"[{message.message_id}] ")), "")
    if line.split(" ", 1)[-1] != _unquote(text):
        raise _fail(tgfake, f"the bot's service message reads {line!r}, not {_unquote(text)!r}")


@then(parsers.re(r"the bot sends an invoice for " + _QUOTED))
def bot_sends_invoice(tgfake: StandClient, text: str) -> None:
    """The bot's next message a person reads is an invoice with that title."""
    message = tgfake.expect_reply()
    if message.kind != "invoice" or (message.content or {}).get("title") != _unquote(text):
        raise _fail(tgfake, f"message {message.message_id} is not an invoice for {_unquote(text)!r}")


@when(parsers.re(r"(?P<who>[A-Za-z][\w-]*) pays the invoice(?: with a tip of (?P<tip>\d+))?"))
def person_pays(request: pytest.FixtureRequest, tgfake: StandClient, who: str, tip: str | None) -> None:
    """The newest invoice in the person's last chat; the outcome is kept for ``the payment is ...``."""
    chat = tgfake.last_chat
    request.node.stash[_PAID] = tgfake.pay(user=who, chat=chat, tip=int(tip or 0))


@then(parsers.re(r"the payment (?:is|was) (?P<status>\w+)(?: with " + _QUOTED + ")?"))
def payment_is(request: pytest.FixtureRequest, tgfake: StandClient, status: str, text: str | None) -> None:
    outcome = request.node.stash.get(_PAID, None)
    if outcome is None:
        raise AssertionError("no payment in this scenario: When alice pays the invoice")
    if outcome.get("status") != status or (text is not None and outcome.get("error_message") != _unquote(text)):
        raise _fail(tgfake, f"the payment ended {outcome}, not {status}" + (f" with {text!r}" if text else ""))
