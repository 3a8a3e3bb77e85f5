"""The explorer: acts as people on a stand in a seeded, bounded order and turns what the bot did into findings.

Every wait is held on the stand (``GET /sim/wait``, ``/sim/wait?polling=1``, ``/sim/webhook/wait``) with a
deadline; "no reply within N s" is such a wait timing out. Nothing sleeps.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from tgfake.explore import judge
from tgfake.explore.actions import (
    ALICE,
    PREVIOUS,
    WEB_APP_DATA,
    Action,
    answered_edit,
    command_actions,
    commands_from,
    content_actions,
    name_actions,
    text_actions,
    text_step,
)
from tgfake.explore.findings import Coverage, Finding, Report
from tgfake.explore.sim import BotCall, Sim, Step
from tgfake.harness import SimAPIError

DIGITS = re.compile(r"\d+")
"""Numbers in a message's text do not make a new state (a counter shown after each tap is one state)."""

FLOOD_GAP = 3.1
"""With flood limits on, the stand's clock moves this far before each act (over a group's 20 per minute pace), so
a 429 shows sends of one act going over a limit, never the acts' own pace."""

WAIT_SLICE = 1.0
"""Long waits are held in slices of this many seconds, so that a bot that died is noticed at once."""

MAX_SERVER_WAIT = 60.0

CAROL_ID = 5201
CAROL: dict[str, Any] = {"user_id": CAROL_ID, "first_name": "Carol", "username": "carol"}
"""The person who blocks the bot."""

FOLLOW_UP_GRACE = 5.0
"""Extra time a bot gets to answer again after an injected fault (it may back off first)."""

REPLY_GRACE = 3.0
"""A command's reply is waited for up to this many reply times: one that comes late is ``slow_reply``, only one
that never comes is ``no_reply``."""


PHASES = ("commands", "texts", "names", "contents", "buttons", "groups", "faults")
"""The phases of an exploration, in the order they run."""


class BotUnderTest(Protocol):
    """The bot's process as the explorer sees it."""

    def alive(self) -> bool: ...

    def output(self, offset: int = 0) -> str: ...

    def output_size(self) -> int: ...

    def restart(self) -> None: ...


@dataclass(slots=True)
class Settings:
    budget: int = 300
    time_limit: float = 120.0
    seed: int = 1
    reply_time: float = 3.0
    quiet: float = 0.2
    """How long the bot must stay silent after an act before the act counts as handled."""
    flood_limits: bool = False
    """The stand runs with Telegram's flood limits: a 429 nobody injected is a ``flood`` finding."""
    reserve: int = 24
    """Actions kept for the group and fault phases while walking buttons."""
    phases: tuple[str, ...] = PHASES
    """Which phases run (in their fixed order): a test that needs only some keeps them short."""
    slow_reply: float = 1.0
    """A reply that came this many seconds after the bot took the update (or later) is a ``slow_reply`` finding."""

    def __post_init__(self) -> None:
        check_slow_reply(self.slow_reply, self.reply_time)


def check_slow_reply(slow_reply: float, reply_time: float) -> None:
    """The slow-reply threshold sits below the reply time (ValueError otherwise, in words)."""
    if not 0 < slow_reply < reply_time:
        raise ValueError(
            f"the slow-reply threshold ({slow_reply:g} s) must be above 0 and below the reply time ({reply_time:g} s)"
        )


@dataclass(slots=True)
class State:
    """A distinct (message text, inline keyboard) the bot showed, and how to reach it from a fresh session."""

    index: int
    key: str
    text: str
    buttons: list[dict[str, Any]]
    path: list[Step]
    chat_id: int

    def json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "text": self.text[:200],
            "buttons": [str(b.get("text", "")) for b in self.buttons],
            "chat_id": self.chat_id,
        }


@dataclass(slots=True)
class Outcome:
    """What one act brought: the steps as done, the sim's answers, the bot's calls (getUpdates left out)."""

    action: Action
    steps: list[Step]
    answers: list[dict[str, Any]]
    calls: list[BotCall]
    output: str
    alive: bool
    refused_steps: list[str] = field(default_factory=list)
    latency: float | None = None
    """Seconds from the bot taking the act's update to its first message or edit to the act's chat, on the stand's
    clock (None: no single update, or no reply)."""


class Explorer:
    """One exploration of one bot on one session of a stand."""

    def __init__(
        self,
        sim: Sim,
        bot: BotUnderTest,
        settings: Settings,
        *,
        webhook: bool = False,
        progress: Callable[[Explorer], None] | None = None,
    ) -> None:
        self.sim = sim
        self.bot = bot
        self.settings = settings
        self.webhook = webhook
        self.progress = progress
        self.rng = random.Random(settings.seed)
        self.coverage = Coverage()
        self.findings: list[Finding] = []
        self._keys: set[str] = set()
        self.states: dict[str, State] = {}
        self._queue: deque[State] = deque()
        self._started = time.monotonic()
        self._reply_keyboards: set[str] = set()
        self._previous = 0
        """The message id the last step that sent a message answered: what a later step's ``$previous`` means."""
        self.stopped = ""
        self.log: list[str] = []

    # --- bounds ----------------------------------------------------------------------------------------------------
    def room(self, reserve: int = 0) -> bool:
        if self.coverage.actions + reserve >= self.settings.budget:
            if not reserve:
                self.stopped = self.stopped or "budget"
            return False
        if time.monotonic() - self._started >= self.settings.time_limit:
            self.stopped = "time"
            return False
        return True

    # --- the walk --------------------------------------------------------------------------------------------------
    def run(self, command: list[str], later: list[Callable[[Explorer], None]] | None = None) -> Report:
        """Every phase in turn while the budget and the time last; ``later`` phases (faults) run last."""
        own: dict[str, Callable[[], None]] = {
            "commands": self._commands,
            "texts": self._texts,
            "names": self._names,
            "contents": self._contents,
            "buttons": self._buttons,
            "groups": self._groups,
        }
        if "buttons" not in self.settings.phases or not {"groups", "faults"} & set(self.settings.phases):
            self.settings.reserve = 0
        for name in PHASES:
            if name not in self.settings.phases:
                continue
            if not self.room():
                break
            if name in own:
                own[name]()
            else:
                for phase in later or []:
                    phase(self)
        self.coverage.seconds = time.monotonic() - self._started
        self.coverage.states = [s.json() for s in self.states.values()]
        report = Report(command=command, seed=self.settings.seed, budget=self.settings.budget, stopped=self.stopped)
        report.findings = list(self.findings)
        report.coverage = self.coverage
        report.mode = "webhook" if self.webhook else "polling"
        report.actions = list(self.log)
        report.reply_time = self.settings.reply_time
        report.slow_reply = self.settings.slow_reply
        return report

    def _commands(self) -> None:
        names: list[str] = []
        for call in self.sim.calls():
            if call.method.lower() == "setmycommands" and call.ok:
                names += [n for n in commands_from(call.params) if n not in names]
        for action in command_actions(names):
            if not self.room():
                return
            self.coverage.commands.append(action.label)
            self.act(action)

    def _texts(self) -> None:
        actions = text_actions()
        head, rest = actions[:1], actions[1:]
        self.rng.shuffle(rest)
        for action in head + rest:
            if not self.room():
                return
            self.act(action)

    def _names(self) -> None:
        for action in name_actions():
            if not self.room():
                return
            self.act(action)

    def _contents(self) -> None:
        for action in content_actions():
            if not self.room():
                return
            self.act(action)
        said, edit = answered_edit()
        if not self.room(1):
            return
        first = self.act(said)
        if first is not None and any(judge.is_reply(c, ALICE) for c in first.calls) and self.room():
            self.act(edit)  # the person edits a message the bot has answered: an edited_message update

    def _buttons(self) -> None:
        """Breadth-first over the distinct states: tap every callback button of each twice quickly."""
        while self._queue and self.room(self.settings.reserve):
            state = self._queue.popleft()
            for button in state.buttons:
                if not self.room(self.settings.reserve):
                    return
                data = button.get("callback_data")
                if data is None:
                    continue  # url, Mini App, login, switch-inline buttons send no callback
                label = str(button.get("text", ""))
                message_id = self._reach(state)
                if message_id is None:
                    continue
                self.coverage.buttons.append(f"[{label}] on {judge_clip(state.text)}")
                self._tap(state, label, str(data), message_id)

    def _reach(self, state: State) -> int | None:
        """A live message showing ``state``: the newest one, or one made again by replaying the state's path."""
        found = self._showing(state)
        if found is not None:
            return found
        if not self.room(self.settings.reserve):
            return None
        replay = Action(label="replay", steps=list(state.path), chat_id=state.chat_id, kind="replay")
        self.act(replay, judge_it=False)
        return self._showing(state)

    def _showing(self, state: State) -> int | None:
        view = self.sim.chat(state.chat_id)
        for msg in reversed(view.get("messages", [])):
            if msg.get("deleted") or msg.get("from") != "bot":
                continue
            if state_key(msg) == state.key:
                return int(msg["message_id"])
        return None

    def _tap(self, state: State, label: str, data: str, message_id: int) -> None:
        """Two taps in a row, as a quick double tap sends them: the second carries the same button's data to the
        same message before the bot has handled the first (a label looked up again could race the bot's edit).

        A button that left its message showing the state it was tapped on (a refresh, a counter) is tapped once
        more after the bot handled the pair: what it does to a message that is already as it wants it."""
        who = {"user_id": state.chat_id if state.chat_id > 0 else ALICE, "chat_id": state.chat_id}
        step = Step("/callback", {**who, "label": label})
        steps = [
            Step("/callback", {**who, "label": label, "message_id": message_id}),
            Step("/callback", {**who, "data": data, "message_id": message_id}),
        ]
        action = Action(
            label=f"tap [{label}] twice", steps=steps, chat_id=state.chat_id, kind="tap", path=list(state.path)
        )
        self.double_tap(action, label, recorded=[step, step])
        if self._key_of(state.chat_id, message_id) != state.key or not self.room(self.settings.reserve):
            return
        again = Step("/callback", {**who, "label": label, "message_id": message_id})
        once = Action(label=f"tap [{label}] again", steps=[again], chat_id=state.chat_id, kind="tap", path=state.path)
        self.double_tap(once, label, recorded=[step])

    def _key_of(self, chat_id: int, message_id: int) -> str:
        for msg in self.sim.chat(chat_id).get("messages", []):
            if msg.get("message_id") == message_id and not msg.get("deleted"):
                return state_key(msg)
        return ""

    def double_tap(self, action: Action, label: str, recorded: list[Step] | None = None) -> None:
        """Do a (double) tap and judge it: every query answered; an edit refused as not modified because it raced
        the first tap's edit of the same message to the same text is the race, not a finding."""
        outcome = self.act(action, judge_it=False, recorded=recorded)
        if outcome is None:
            return
        self.judge(outcome, tolerated=lambda call: judge.raced_edit(call, outcome.calls))
        raced = any(judge.raced_edit(call, outcome.calls) for call in outcome.calls)
        self.check_callbacks(outcome, label, raced=raced)

    def check_callbacks(self, outcome: Outcome, label: str, raced: bool = False) -> None:
        """Each tap's callback query must be answered; a tap with no effect at all is a dead button. With ``raced``
        (the second tap's edit lost the race to the first's), only the first tap's query must be: the second's
        handler stopped at the refusal the bot could not have foreseen."""
        ids = [str(a.get("callback_query_id", "")) for a in outcome.answers if a.get("callback_query_id")]
        for query_id in ids[:1] if raced else ids:
            if any(judge.answers_callback(c, query_id) for c in outcome.calls):
                continue
            effect = [c for c in outcome.calls if judge.is_reply(c) or c.method.lower().startswith("delete")]
            kind = "unanswered_callback" if effect else "dead_button"
            title = (
                f"tapping [{label}] brought no answerCallbackQuery (the person sees a spinner)"
                if effect
                else f"tapping [{label}] did nothing: no answer, no message, no edit"
            )
            self.report(kind, title, outcome, key=f"{kind}:{label}")
            break

    def _groups(self) -> None:
        username = str(self.sim.state().get("bot", {}).get("username", ""))
        create = Step(
            "/chats",
            {"type": "group", "title": "Explore group", "members": ["bob"], "admins": [f"@{username}"]},
        )
        added = self.act(Action(label="the bot is made an administrator of a group", steps=[create], kind="group"))
        if added is None or not added.answers or "chat_id" not in added.answers[0]:
            return  # the stand refused the group (its words are in the act's refused steps)
        group = int(added.answers[0]["chat_id"])
        alice = {"user_id": ALICE, "chat_id": group}
        acts = [
            Action(label=f"/start@{username} in a group", steps=[text_step(f"/start@{username}", alice)]),
            Action(
                label="a mention in a group", steps=[text_step("hello", alice, mention=True)], controlled=("hello",)
            ),
            Action(label="bob leaves the group", steps=[Step(f"/chats/{group}/leave", {"user": "bob"})]),
            Action(label="bob joins the group", steps=[Step(f"/chats/{group}/join", {"user": "bob"})]),
        ]
        for action in acts:
            if not self.room():
                return
            action.chat_id = group
            action.kind = "group"
            action.path = [create]
            self.act(action)

    # --- one act ---------------------------------------------------------------------------------------------------
    def act(
        self,
        action: Action,
        *,
        judge_it: bool = True,
        recorded: list[Step] | None = None,
        want: Callable[[list[BotCall]], bool] | None = None,
        wait: float | None = None,
    ) -> Outcome | None:
        """Do the action's steps, wait until the bot has handled them, then judge what it did."""
        if self.settings.flood_limits:
            self.sim.advance_clock(FLOOD_GAP)  # each act starts with the limits' windows free: no wait, no sleep
        since = self.sim.last_seq()
        offset = self.bot.output_size()
        delivered = self._delivered() if self.webhook else 0
        for step in action.setup:
            self.sim.do(step)
        steps: list[Step] = []
        answers: list[dict[str, Any]] = []
        refused: list[str] = []
        updates = 0
        for step in action.steps:
            body = dict(step.body)
            if body.get("message_id") == PREVIOUS:
                body["message_id"] = self._previous
            done = Step(step.path, body)
            try:
                answer = self.sim.do(done)
            except SimAPIError as exc:
                refused.append(f"{exc.path}: {exc.status} {exc.message}")
                answer = {}
            answers.append(answer if isinstance(answer, dict) else {})
            if int(answers[-1].get("message_id") or 0) > 0 and step.path != "/edit":
                self._previous = int(answers[-1]["message_id"])
            steps.append(step if step.body.get("message_id") == PREVIOUS else done)  # $previous kept: replayable
            if int(answers[-1].get("update_id") or 0) > 0 or "callback_query_id" in answers[-1]:
                updates += 1
        self.coverage.actions += 1
        self.log.append(action.label)
        queries = [str(a["callback_query_id"]) for a in answers if a.get("callback_query_id")]
        if want is None and queries:
            want = lambda calls: all(any(judge.answers_callback(c, q) for c in calls) for q in queries)  # noqa: E731
        if want is None and action.expect_reply:
            chat = action.chat_id
            want = lambda calls: any(judge.is_reply(c, chat) for c in calls)  # noqa: E731
        limit = wait or self.settings.reply_time * (REPLY_GRACE if action.expect_reply else 1.0)
        calls, polls = self._settle(since, updates, delivered, want, limit)
        if updates and not self.webhook and self.bot.alive() and not self.sim.wait_polling(0):
            # a polling loop that paused (it backs off after an error): the next act waits until it polls again
            self._sliced(time.monotonic() + FOLLOW_UP_GRACE, self.sim.wait_polling)
        outcome = Outcome(
            action=action,
            steps=list(action.path) + (recorded if recorded is not None else steps),
            answers=answers,
            calls=calls,
            output=self.bot.output(offset),
            alive=self.bot.alive(),
            refused_steps=refused,
        )
        ids = [int(a.get("update_id") or 0) for a in answers if int(a.get("update_id") or 0) > 0]
        if len(ids) == 1:
            outcome.latency = self._latency(ids[0], action.chat_id, polls, calls)
        self._learn(outcome)
        if judge_it:
            self.judge(outcome)
        elif not outcome.alive:
            self.bot.restart()
        if self.progress is not None:
            self.progress(self)
        return outcome

    def _delivered(self) -> int:
        view = self.sim.webhook()
        return sum(1 for d in view.get("deliveries", []) if d.get("ok"))

    def _settle(
        self,
        since: int,
        updates: int,
        delivered: int,
        want: Callable[[list[BotCall]], bool] | None,
        limit: float,
    ) -> tuple[list[BotCall], list[BotCall]]:
        """Hold until the bot took the updates, went idle and stayed silent for ``quiet`` (or ``want`` held).

        Answers the bot's calls (getUpdates left out) and, apart, its getUpdates calls (what it took, and when)."""
        deadline = time.monotonic() + limit
        if updates:
            if self.webhook:
                self._sliced(deadline, lambda t: self.sim.wait_delivered(delivered + updates, t))
            else:
                self._sliced(deadline, lambda t: bool(self.sim.wait_calls(since, t, method="getUpdates")))
                self._sliced(deadline, self.sim.wait_polling)
        seen = since
        calls: list[BotCall] = []
        polls: list[BotCall] = []
        while True:
            satisfied = want is None or want(calls)
            remaining = deadline - time.monotonic()
            if remaining <= 0 or (not satisfied and not self.bot.alive()):
                break
            timeout = min(self.settings.quiet, remaining) if satisfied else min(WAIT_SLICE, remaining)
            new = self.sim.wait_calls(seen, timeout)
            if not new:
                if satisfied:
                    break
                continue
            seen = max(c.seq for c in new)
            calls += [c for c in new if c.method.lower() != "getupdates"]
            polls += [c for c in new if c.method.lower() == "getupdates"]
        return calls, polls

    def _latency(self, update_id: int, chat_id: int, polls: list[BotCall], calls: list[BotCall]) -> float | None:
        """From the bot taking the update (its getUpdates answered, or the webhook POST going out) to its first
        message or edit to the chat, both on the stand's clock: the bot's start-up and the explorer's own pace
        never count."""
        if not any(judge.is_reply(c, chat_id) for c in calls):
            return None
        if self.webhook:
            taken = judge.delivery_started(self.sim.webhook().get("deliveries", []), update_id)
            after = 0
        else:
            poll = judge.taking_poll(polls, update_id)
            taken, after = (poll.at, poll.seq) if poll is not None else (None, 0)
        if taken is None:
            return None
        for call in calls:
            if call.seq > after and call.at >= taken and judge.is_reply(call, chat_id):
                return call.at - taken
        return None

    def _sliced(self, deadline: float, wait: Callable[[float], bool]) -> bool:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            if wait(min(WAIT_SLICE, remaining, MAX_SERVER_WAIT)):
                return True
            if not self.bot.alive():
                return False

    # --- what was learnt -------------------------------------------------------------------------------------------
    def _learn(self, outcome: Outcome) -> None:
        """New (message, keyboard) states join the queue; a reply keyboard's text buttons are pressed later."""
        chats = {outcome.action.chat_id}
        if outcome.action.kind == "name" or not any(judge.is_reply(c) for c in outcome.calls):
            return  # the hostile names' greetings are the same keyboards again: walked once, in alice's chat
        for chat_id in chats:
            view = self.sim.chat(chat_id)
            for msg in view.get("messages", []):
                if msg.get("deleted") or msg.get("from") != "bot" or not msg.get("keyboard"):
                    continue
                key = state_key(msg)
                if key in self.states:
                    continue
                buttons = [b for row in msg["keyboard"] for b in row]
                state = State(
                    len(self.states),
                    key,
                    str(msg.get("text") or msg.get("caption") or ""),
                    buttons,
                    list(outcome.steps),
                    chat_id,
                )
                self.states[key] = state
                self._queue.append(state)
                self.coverage.edges.append({"via": outcome.action.label, "to": state.index})
            self._press_later(view, outcome)

    def _press_later(self, view: dict[str, Any], outcome: Outcome) -> None:
        board = view.get("reply_keyboard") or {}
        if not board or board.get("hidden"):
            return
        buttons = [b for row in board.get("keyboard") or [] for b in row if isinstance(b, dict)]
        for button in buttons:
            label = str(button.get("text", ""))
            # a text button sends its label; a Mini App button, what the Mini App passes to sendData
            app = set(button) == {"text", "web_app"}
            if not (app or set(button) == {"text"}):
                continue
            if label in self._reply_keyboards or not self.room(self.settings.reserve):
                continue
            self._reply_keyboards.add(label)
            self.coverage.reply_buttons.append(label)
            body: dict[str, Any] = {"user_id": ALICE, "chat_id": outcome.action.chat_id, "label": label}
            if app:
                body["data"] = WEB_APP_DATA
            self.act(
                Action(
                    label=f"press [{label}]" + (" (Mini App data)" if app else ""),
                    steps=[Step("/reply-button", body)],
                    chat_id=outcome.action.chat_id,
                    kind="press",
                    path=list(outcome.steps),
                    controlled=(WEB_APP_DATA,) if app else (),
                )
            )

    # --- judging ---------------------------------------------------------------------------------------------------
    def judge(
        self,
        outcome: Outcome,
        *,
        expected: Callable[[BotCall], bool] | None = None,
        tolerated: Callable[[BotCall], bool] | None = None,
    ) -> None:
        """Findings from one act: a crash, refused calls, a command left unanswered, a slow reply.

        A traceback that is the library raising a refusal the act's calls show (``BadRequest: Message is too
        long``) is that refusal's evidence, not a crash of its own. ``expected`` refusals (an injected fault's) are
        no findings and no traceback is a crash then (the bot may log while it recovers); ``tolerated`` refusals
        are no findings, and only a traceback raising one of them is no crash.
        """
        action = outcome.action
        trace = judge.traceback_in(outcome.output)
        line = judge.exception_line(trace)
        raised = False
        for call in outcome.calls:
            if call.ok or (expected is not None and expected(call)):
                continue
            if tolerated is not None and tolerated(call):
                raised = raised or (bool(trace) and judge.raises(line, call))
                continue
            kind = judge.refusal_kind(call, action.controlled, self.settings.flood_limits)
            title = f"{call.method} refused after {action.label}: {call.status} {call.description}"
            key = f"{kind}:{call.method.lower()}:{call.description}"
            if kind == "markup_injection":
                title = f"{call.method} with text a person controls refused: {call.description}"
                key = f"{kind}:{call.method.lower()}"
            shows = bool(trace) and judge.raises(line, call)
            raised = raised or shows
            self.report(kind, title, outcome, key=key, calls=[call], output=trace if shows else "")
        if not outcome.alive:
            self.report(
                "crash",
                f"the bot exited after {action.label}",
                outcome,
                key=f"crash:exit:{line}",
                output=trace or outcome.output[-4000:],
            )
            self.bot.restart()
        elif trace and expected is None and not raised:
            self.report("crash", f"{line} after {action.label}", outcome, key=f"crash:{line}", output=trace)
        if action.expect_reply and outcome.alive and not any(judge.is_reply(c, action.chat_id) for c in outcome.calls):
            self.report(
                "no_reply",
                f"{action.label} got no message within {self.settings.reply_time * REPLY_GRACE:g} s",
                outcome,
                key=f"no_reply:{action.label}",
            )
        latency = outcome.latency
        if latency is not None and latency >= self.settings.slow_reply and outcome.alive:
            said = [str(s.body.get("text")) for s in action.steps if s.path == "/message" and s.body.get("text")]
            self.report(
                "slow_reply",
                f"{action.label} answered after {latency:.1f} s",
                outcome,
                key=f"slow_reply:{said[-1] if said else action.label}",  # a command slow again later: the same
            )

    def report(
        self,
        kind: str,
        title: str,
        outcome: Outcome,
        *,
        key: str,
        calls: list[BotCall] | None = None,
        output: str = "",
    ) -> None:
        if key in self._keys:
            return
        self._keys.add(key)
        try:
            transcript = self.sim.transcript(outcome.action.chat_id)
        except OSError:
            transcript = ""
        refused = [c for c in outcome.calls if not c.ok]
        self.findings.append(
            Finding(
                kind=kind,
                title=title,
                steps=list(outcome.steps),
                calls=calls if calls is not None else refused,
                output=output,
                transcript=transcript,
                chat_id=outcome.action.chat_id,
                key=key,
            )
        )


def state_key(msg: dict[str, Any]) -> str:
    """A message's state: its text and its inline keyboard (labels and what each button does)."""
    text = DIGITS.sub("#", str(msg.get("text") or msg.get("caption") or ""))
    return json.dumps([text, msg.get("keyboard") or []], sort_keys=True, ensure_ascii=False)


def judge_clip(text: str, n: int = 30) -> str:
    one = " ".join(text.split())
    return json.dumps(one if len(one) <= n else one[: n - 1] + "…", ensure_ascii=False)
