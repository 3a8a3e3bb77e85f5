"""tgfake explore against small bots with planted bugs and their correct twin: every planted bug is found, as its
kind, once; the twin comes out clean. The bots are plain-HTTP Python (tests/explore/bots/plain_bot.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from tgfake.explore import Finding, explore, replay
from tgfake.explore.sim import Step
from tgfake.explore.trim import Trimming, trim_findings
from tgfake.explore.writers import pytest_source
from tgfake.options import Options
from tgfake.testing import ThreadedStand

BOT = str(Path(__file__).parent / "bots" / "plain_bot.py")
REPLY_TIME = 1.5
"""Short, since only a buggy bot ever waits it out: a correct one answers at once."""
QUIET = 0.1
"""These bots handle one update at a time, so the bot polling again (or the webhook answered) already means done:
the quiet window after each act only has to catch nothing."""

PLAIN_KINDS = (
    "crash",
    "no_reply",
    "unanswered_callback",
    "dead_button",
    "markup_injection",
    "not_modified",
    "too_long",
    "api_refused",
)
OWN_KINDS = (*PLAIN_KINDS, "slow_reply")
"""What the plain and python-telegram-bot bots plant besides the fault kinds (the slow command sleeps 2 s)."""


def run(plant: str = "", mode: str = "polling", **kwargs: object) -> dict[str, object]:
    env = {"PLANT": plant, "MODE": mode}
    kwargs.setdefault("trim", False)
    report = explore([sys.executable, BOT], env=env, reply_time=REPLY_TIME, quiet=QUIET, **kwargs)  # type: ignore[arg-type]
    answer = report.json()
    assert answer["mode"] == mode
    return answer


def kinds(report: dict[str, object]) -> list[str]:
    return sorted(str(f["kind"]) for f in report["findings"])  # type: ignore[attr-defined]


def test_the_correct_twin_comes_out_clean() -> None:
    """Every phase, polling: no finding, and the coverage names what was tried."""
    report = run("")
    assert report["findings"] == []
    coverage = report["coverage"]
    assert coverage["commands_tried"] == ["/start", "/help", "/menu", "/about", "/stats"]  # type: ignore[index]
    assert {'[Count] on "Hello, Alice!"', '[Back] on "This bot counts taps."'} <= set(
        coverage["buttons_tapped"]  # type: ignore[index]
    )
    assert coverage["reply_buttons_pressed"] == ["Red", "Blue", "Shop"]  # type: ignore[index]
    assert report["stopped"] == ""
    actions: list[str] = report["actions"]  # type: ignore[assignment]
    assert {
        "a sticker",
        "a voice note",
        "an edit of a message the bot answered",
        "press [Shop] (Mini App data)",
    } <= set(actions)
    assert {"tap [Count] twice", "tap [Info] twice", "tap [Refresh] twice", "tap [Back] twice"} <= set(actions)
    assert not any(a.startswith("tap [Docs]") for a in actions)  # a url button: Telegram sends nothing


def test_the_correct_twin_comes_out_clean_by_webhook() -> None:
    report = run("", "webhook", phases=("commands", "texts", "names", "contents", "buttons", "faults"))
    assert report["findings"] == []
    assert len(report["coverage"]["buttons_tapped"]) >= 6  # type: ignore[index]


@pytest.mark.parametrize("mode", ["polling", "webhook"])
def test_every_planted_bug_is_found_once_as_its_kind(mode: str) -> None:
    report = run(",".join(OWN_KINDS), mode, phases=("commands", "texts", "names", "contents", "buttons"))
    assert kinds(report) == sorted(OWN_KINDS)
    by_kind = {f["kind"]: f for f in report["findings"]}  # type: ignore[attr-defined]
    crash = by_kind["crash"]
    assert "KeyError: 'text'" in crash["evidence"]["output"]
    assert crash["steps"][0]["path"] == "/sim/file"
    assert by_kind["no_reply"]["steps"] == [{"path": "/sim/message", "body": {"text": "/help", "user_id": 4242}}]
    injected = by_kind["markup_injection"]["evidence"]["calls"][0]
    assert injected["status"] == 400
    assert injected["description"].startswith("Bad Request: can't parse entities: ")
    assert by_kind["too_long"]["evidence"]["calls"][0]["description"] == "Bad Request: message is too long"
    refused = by_kind["api_refused"]["evidence"]["calls"][0]
    assert (refused["method"], refused["description"]) == (
        "sendPhoto",
        "Bad Request: wrong file identifier/HTTP URL specified",
    )
    assert [s["body"].get("label") for s in by_kind["dead_button"]["steps"]] == [None, "Info", "Info"]  # a double tap
    assert by_kind["not_modified"]["evidence"]["calls"][0]["description"].startswith(
        "Bad Request: message is not modified"
    )
    assert "Hello, <b>" in by_kind["markup_injection"]["evidence"]["calls"][0]["params"]["text"]


@pytest.mark.parametrize(
    ("kind", "mode"),
    [
        ("retry_after_ignored", "polling"),
        ("fault_not_recovered", "polling"),
        ("blocked_not_handled", "polling"),
        ("retry_after_ignored", "webhook"),
        ("blocked_not_handled", "webhook"),
    ],
)
def test_a_planted_fault_bug_is_found(kind: str, mode: str) -> None:
    report = run(kind, mode, phases=("commands", "faults"))
    assert kinds(report) == [kind]
    steps = report["findings"][0]["steps"]  # type: ignore[index]
    assert steps[0]["path"] == "/sim/fault"


@pytest.mark.parametrize("mode", ["polling", "webhook"])
def test_a_slow_command_is_slow_reply_not_no_reply(mode: str) -> None:
    """/stats answers 2 s after the bot took it: later than the reply time (1.5 s), within its grace, so it is slow,
    measured on the stand's clock from the update taken to the reply; the twin's replies take milliseconds. /stats is
    slow again while Carol blocks the bot (the faults phase): the same finding, reported once."""
    report = run("slow_reply", mode, phases=("commands", "faults"))
    assert "/stats while Carol blocks the bot" in report["actions"]  # type: ignore[operator]
    assert kinds(report) == ["slow_reply"]
    finding = report["findings"][0]  # type: ignore[index]
    assert finding["title"].startswith("/stats answered after ")
    seconds = float(finding["title"].removeprefix("/stats answered after ").removesuffix(" s"))
    assert 2.0 <= seconds < 4.5
    assert finding["steps"] == [{"path": "/sim/message", "body": {"text": "/stats", "user_id": 4242}}]
    assert report["slow_reply"] == 1.0
    still = replay(
        [sys.executable, BOT],
        finding["steps"],
        "slow_reply",
        reply_time=REPLY_TIME,
        env={"PLANT": "slow_reply", "MODE": mode},
    )
    assert [f.kind for f in still] == ["slow_reply"]
    assert (
        replay([sys.executable, BOT], finding["steps"], "slow_reply", reply_time=REPLY_TIME, env={"MODE": mode}) == []
    )


def test_a_tap_on_a_message_already_as_the_bot_wants_it_is_not_modified_and_replays() -> None:
    """Every button is tapped twice quickly (the second tap's edit racing the first's is no finding: the twin does it
    too); on the state [Refresh] made, the planted bot edits to the same text. The finding's steps show it again on
    a fresh session (each pair of taps a quick pair again)."""
    report = run("not_modified", phases=("commands", "buttons"))
    assert kinds(report) == ["not_modified"]
    finding = report["findings"][0]  # type: ignore[index]
    assert finding["title"].startswith("editMessageText refused after tap [Refresh] twice: 400 Bad Request: message")
    labels = [s["body"].get("label") for s in finding["steps"]]
    assert labels == [None, "Refresh", "Refresh", "Refresh", "Refresh"]
    still = replay(
        [sys.executable, BOT], finding["steps"], "not_modified", reply_time=REPLY_TIME, env={"PLANT": "not_modified"}
    )
    assert [f.kind for f in still] == ["not_modified"]
    assert replay([sys.executable, BOT], finding["steps"], "not_modified", reply_time=REPLY_TIME) == []


def test_the_slow_reply_threshold_is_below_the_reply_time() -> None:
    with pytest.raises(
        ValueError, match=r"^the slow-reply threshold \(2 s\) must be above 0 and below the reply time \(1.5 s\)$"
    ):
        explore([sys.executable, BOT], reply_time=1.5, slow_reply=2.0)


def test_the_twin_survives_the_faults() -> None:
    assert run("", phases=("commands", "faults"))["findings"] == []


def test_the_same_seed_gives_the_same_actions_and_findings() -> None:
    first = run("markup_injection", phases=("commands", "texts", "names"), seed=7)
    second = run("markup_injection", phases=("commands", "texts", "names"), seed=7)
    assert first["actions"] == second["actions"]
    assert [f["steps"] for f in first["findings"]] == [f["steps"] for f in second["findings"]]  # type: ignore[attr-defined]
    assert kinds(first) == ["markup_injection"]


def test_the_budget_bounds_the_actions() -> None:
    report = run("", budget=4)
    assert report["coverage"]["actions"] == 4  # type: ignore[index]
    assert report["stopped"] == "budget"


def run_library(bot: str, plant: str, phases: tuple[str, ...]) -> list[str]:
    path = str(Path(__file__).parent / "bots" / bot)
    report = explore(
        [sys.executable, path], env={"PLANT": plant}, reply_time=REPLY_TIME, quiet=QUIET, phases=phases, trim=False
    )
    return sorted(f.kind for f in report.findings)


@pytest.mark.parametrize(
    ("plant", "phases", "found"),
    [
        ("", ("commands", "texts", "names", "contents", "buttons", "faults"), []),
        (",".join(OWN_KINDS), ("commands", "texts", "names", "contents", "buttons"), sorted(OWN_KINDS)),
        ("retry_after_ignored", ("commands", "faults"), ["retry_after_ignored"]),
        ("fault_not_recovered", ("commands", "faults"), ["fault_not_recovered", "fault_not_recovered"]),
        ("blocked_not_handled", ("commands", "faults"), ["blocked_not_handled"]),
    ],
    ids=["twin", "plain-kinds", "retry_after_ignored", "fault_not_recovered", "blocked_not_handled"],
)
def test_python_telegram_bot_bugs_are_found_and_its_twin_is_clean(
    plant: str, phases: tuple[str, ...], found: list[str]
) -> None:
    """The same kinds planted in a python-telegram-bot bot: its exceptions, its error handler, its retries."""
    assert run_library("ptb_bot.py", plant, phases) == found


AIOGRAM_KINDS = (*PLAIN_KINDS, "retry_after_ignored", "blocked_not_handled")


@pytest.mark.parametrize(
    ("plant", "found"), [("", []), (",".join(AIOGRAM_KINDS), sorted(AIOGRAM_KINDS))], ids=["twin", "every-bug"]
)
def test_aiogram_bugs_are_found_and_its_twin_is_clean(plant: str, found: list[str]) -> None:
    """aiogram handles each update as a task (it polls again before the handler ends): the quiet window counts.
    Every planted bug at once (one bot start: importing aiogram is slow on a busy machine)."""
    phases = ("commands", "texts", "names", "contents", "buttons", "faults")
    report = explore(
        [sys.executable, str(Path(__file__).parent / "bots" / "aiogram_bot.py")],
        env={"PLANT": plant},
        reply_time=REPLY_TIME,
        phases=phases,
        trim=False,
    )
    assert sorted(f.kind for f in report.findings) == found


def test_joining_a_group_shows_a_crash_on_a_message_without_text() -> None:
    """The moderation bot of the issue: a filter reading message.text trips over the bot's own join message."""
    report = run("crash", phases=("commands", "groups"))
    assert report["actions"][-5:] == [  # type: ignore[index]
        "the bot is made an administrator of a group",
        "/start@tgfake_bot in a group",
        "a mention in a group",
        "bob leaves the group",
        "bob joins the group",
    ]
    findings: list[dict[str, Any]] = report["findings"]  # type: ignore[assignment]
    assert len(findings) == 1
    crash = findings[0]
    assert crash["kind"] == "crash"
    assert crash["title"] == "KeyError: 'text' after the bot is made an administrator of a group"
    assert crash["steps"] == [
        {
            "path": "/sim/chats",
            "body": {"type": "group", "title": "Explore group", "members": ["bob"], "admins": ["@tgfake_bot"]},
        }
    ]


def test_a_broadcast_that_keeps_sending_to_a_person_who_blocked_the_bot() -> None:
    report = run("broadcast", phases=("commands", "faults"))
    assert kinds(report) == ["blocked_not_handled"]
    finding = report["findings"][0]  # type: ignore[index]
    assert finding["title"] == "the bot kept sending to Carol after she blocked it (/stats)"
    assert [c["description"] for c in finding["evidence"]["calls"]] == ["Forbidden: bot was blocked by the user"] * 2
    assert {"path": "/sim/block", "body": {"user": 5201}} in finding["steps"]
    assert run("announce", phases=("commands", "faults"))["findings"] == []  # its twin forgets Carol


def test_flood_limits_on_a_burst_of_sends_is_flood() -> None:
    """With the stand's flood limits, /about's two messages in a row to one private chat get a 429 (the bot waits
    and sends again); the acts themselves never do: the stand's clock moves between them."""
    report = explore(
        [sys.executable, BOT],
        reply_time=REPLY_TIME,
        quiet=QUIET,
        phases=("commands",),
        options=Options(flood_control=True),
        trim=False,
    ).json()
    assert kinds(report) == ["flood"]
    (call,) = report["findings"][0]["evidence"]["calls"]
    assert (call["method"], call["status"], call["description"]) == (
        "sendMessage",
        429,
        "Too Many Requests: retry after 1",
    )
    assert report["findings"][0]["steps"] == [{"path": "/sim/message", "body": {"text": "/about", "user_id": 4242}}]


def test_a_flood_findings_test_replays_with_flood_limits() -> None:
    """The --tests file's test of a flood finding starts its stand with the limits, so it fails while the bot
    sends two messages in a row (run here in this process)."""
    found = explore(
        [sys.executable, BOT],
        reply_time=REPLY_TIME,
        quiet=QUIET,
        phases=("commands",),
        options=Options(flood_control=True),
    )
    namespace: dict[str, Any] = {}
    exec(compile(pytest_source(found), "test_found.py", "exec"), namespace)
    (name,) = [n for n in namespace if n.startswith("test_01_flood")]
    with pytest.raises(
        AssertionError, match=r"^sendMessage refused after /about: 429 Too Many Requests: retry after 1$"
    ):
        namespace[name]()


def test_flood_limits_of_a_running_stand_are_read_from_it() -> None:
    """With ``url``, the stand's own flood limits (``GET /sim/options``) decide: the same 429 is ``flood`` on a stand
    started with them and does not happen on one without."""
    for flood, found in ((True, ["flood"]), (False, [])):
        stand = ThreadedStand(Options(flood_control=flood))
        try:
            report = explore(
                [sys.executable, BOT], url=stand.start(), reply_time=REPLY_TIME, quiet=QUIET, phases=("commands",)
            )
        finally:
            stand.stop()
        assert [f.kind for f in report.findings] == found


TELEBOT_KINDS = (*PLAIN_KINDS, "retry_after_ignored")


@pytest.mark.parametrize(
    ("plant", "phases", "found"),
    [
        ("", ("commands", "texts", "names", "contents", "buttons", "groups", "faults"), []),
        (
            ",".join(TELEBOT_KINDS),
            ("commands", "texts", "names", "contents", "buttons", "faults"),
            sorted(TELEBOT_KINDS),
        ),
        ("blocked_not_handled", ("commands", "faults"), ["blocked_not_handled"]),
    ],
    ids=["twin", "every-bug", "blocked_not_handled"],
)
def test_telebot_bugs_are_found_and_its_twin_is_clean(plant: str, phases: tuple[str, ...], found: list[str]) -> None:
    """pyTelegramBotAPI logs a handler's exception in one line ('Polling exception: ...') and pauses its loop: the
    line is the crash's evidence, and the next act waits for the loop to poll again."""
    assert run_library("telebot_bot.py", plant, phases) == found


def test_trimming_keeps_the_shortest_steps_that_still_show_the_finding() -> None:
    """A dead button found at the end of a longer path: the steps before it are dropped all at once (the tap alone
    finds no button), then by halves: /menu and 'hello' go, /start (which shows [Info]) stays; three replays."""
    steps = [
        Step("/message", {"text": "/menu", "user_id": 4242}),
        Step("/message", {"text": "hello", "user_id": 4242}),
        Step("/message", {"text": "/start", "user_id": 4242}),
        Step("/callback", {"user_id": 4242, "chat_id": 4242, "label": "Info"}),
        Step("/callback", {"user_id": 4242, "chat_id": 4242, "label": "Info"}),
    ]
    finding = Finding(kind="dead_button", title="tapping [Info] did nothing", steps=steps)
    stand = ThreadedStand(Options())
    try:
        how = Trimming([sys.executable, BOT], stand.start(), reply_time=REPLY_TIME, env={"PLANT": "dead_button"})
        trim_findings([finding], how)
    finally:
        stand.stop()
    assert [s.body.get("text") or s.body.get("label") for s in finding.steps] == ["/start", "Info", "Info"]
    assert finding.json()["trimmed_from"] == 5
