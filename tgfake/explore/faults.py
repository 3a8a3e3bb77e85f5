"""The fault phase: one injected 429 with retry_after, one 502, one 403 on a send, a person who blocks the bot.

Each fault is scheduled with ``POST /sim/fault`` (``times: 1``) just before the person acts, so it is part of the
reproduction (a setup step). What a fault brings by itself (the refused call, a traceback the bot logs while it
recovers) is expected; the finding is what comes after: calling again too soon, not answering any more, crashing
or sending again to a person who blocked the bot.
"""

from __future__ import annotations

from collections.abc import Callable

from tgfake import errors
from tgfake.explore import judge
from tgfake.explore.actions import ALICE, Action, text_step
from tgfake.explore.engine import CAROL, CAROL_ID, FOLLOW_UP_GRACE, Explorer, Outcome
from tgfake.explore.sim import BotCall, Step

RETRY_AFTER = 1
"""The retry_after of the injected 429, in seconds: what the bot must wait before calling again."""

CLOCK_SLACK = 0.05


def fault_step(method: str, code: int, retry_after: int = 0) -> Step:
    body: dict[str, object] = {"method": method, "code": code, "times": 1}
    if retry_after:
        body["retry_after"] = retry_after
    return Step("/fault", body)


def run_faults(ex: Explorer) -> None:
    """The fault checks, each while the budget lasts."""
    for check in (retry_after, bad_gateway_send, bad_gateway_poll, forbidden_send, blocked):
        if not ex.room():
            return
        check(ex)


def _start() -> Step:
    return text_step("/start")


def _replied(chat: int) -> Callable[[list[BotCall]], bool]:
    return lambda calls: any(judge.is_reply(c, chat) and c.ok for c in calls)


def _follow_up(ex: Explorer, after: Outcome, kind: str, what: str) -> None:
    """Once the fault has passed, /start must be answered again (the bot may back off a little first)."""
    if not ex.room():
        return
    action = Action(label=f"/start after {what}", steps=[_start()], kind="fault", path=list(after.steps))
    replied = _replied(ALICE)
    outcome = ex.act(action, judge_it=False, want=replied, wait=ex.settings.reply_time + FOLLOW_UP_GRACE)
    if outcome is None:
        return
    if not outcome.alive or not any(judge.is_reply(c, ALICE) and c.ok for c in outcome.calls):
        ex.report(
            kind,
            f"after {what}, the bot no longer answers /start",
            outcome,
            key=f"{kind}:{what}",
            output=judge.traceback_in(after.output + outcome.output),
        )
        ex.bot.restart()
    else:
        ex.judge(outcome)


def _died(ex: Explorer, outcome: Outcome, what: str) -> bool:
    """The bot exited on the fault itself: it did not recover (started again, exploring goes on)."""
    if outcome.alive:
        return False
    ex.report(
        "fault_not_recovered",
        f"the bot exited after {what}",
        outcome,
        key=f"fault_not_recovered:{what}",
        output=judge.traceback_in(outcome.output) or outcome.output[-4000:],
    )
    ex.bot.restart()
    return True


def _injected(method: str, code: int) -> Callable[[BotCall], bool]:
    return lambda call: call.method.lower() == method.lower() and call.status == code


def retry_after(ex: Explorer) -> None:
    what = f"a 429 with retry_after {RETRY_AFTER} on sendMessage"
    action = Action(
        label=f"/start with {what}", steps=[_start()], kind="fault", setup=[fault_step("sendMessage", 429, RETRY_AFTER)]
    )
    two = lambda calls: sum(1 for c in calls if c.method.lower() == "sendmessage") >= 2  # noqa: E731
    outcome = ex.act(action, judge_it=False, want=two, wait=ex.settings.reply_time + RETRY_AFTER)
    if outcome is None:
        return
    outcome.steps = list(action.setup) + outcome.steps
    if _died(ex, outcome, what):
        return
    sends = [c for c in outcome.calls if c.method.lower() == "sendmessage"]
    refused = [c for c in sends if c.status == 429]
    if refused:
        first = refused[0]
        again = [c for c in sends if c.seq > first.seq]
        if again and again[0].at - first.at < RETRY_AFTER - CLOCK_SLACK:
            ex.report(
                "retry_after_ignored",
                f"sendMessage called again {again[0].at - first.at:.2f} s after a 429 asking for {RETRY_AFTER} s",
                outcome,
                key="retry_after_ignored",
                calls=[first, again[0]],
            )
    ex.judge(outcome, expected=_injected("sendMessage", 429))
    _follow_up(ex, outcome, "fault_not_recovered", what)


def bad_gateway_send(ex: Explorer) -> None:
    what = "a 502 on sendMessage"
    action = Action(label=f"/start with {what}", steps=[_start()], kind="fault", setup=[fault_step("sendMessage", 502)])
    outcome = ex.act(action, judge_it=False)
    if outcome is None:
        return
    outcome.steps = list(action.setup) + outcome.steps
    if _died(ex, outcome, what):
        return
    ex.judge(outcome, expected=_injected("sendMessage", 502))
    _follow_up(ex, outcome, "fault_not_recovered", what)


def bad_gateway_poll(ex: Explorer) -> None:
    if ex.webhook:
        return
    what = "a 502 on getUpdates"
    # the held poll takes 'hello'; the bot's next getUpdates is the one refused
    action = Action(
        label=f"'hello' with {what}", steps=[text_step("hello")], kind="fault", setup=[fault_step("getUpdates", 502)]
    )
    outcome = ex.act(action, judge_it=False)
    if outcome is None:
        return
    outcome.steps = list(action.setup) + outcome.steps
    if _died(ex, outcome, what):
        return
    ex.judge(outcome, expected=_injected("getUpdates", 502))
    _follow_up(ex, outcome, "fault_not_recovered", what)


def forbidden_send(ex: Explorer) -> None:
    what = "a 403 'bot was blocked by the user' on sendMessage"
    fault = Step("/fault", {"method": "sendMessage", "code": 403, "description": errors.FORBIDDEN_BLOCKED, "times": 1})
    action = Action(label=f"/start with {what}", steps=[_start()], kind="fault", setup=[fault])
    outcome = ex.act(action, judge_it=False)
    if outcome is None:
        return
    outcome.steps = list(action.setup) + outcome.steps
    if not outcome.alive:
        ex.report(
            "blocked_not_handled",
            f"the bot exited after {what}",
            outcome,
            key=f"blocked_not_handled:{what}",
            output=judge.traceback_in(outcome.output) or outcome.output[-4000:],
        )
        ex.bot.restart()
        return
    trace = judge.traceback_in(outcome.output)
    if trace:
        ex.report(
            "blocked_not_handled",
            f"{judge.exception_line(trace)} after {what}",
            outcome,
            key=f"blocked_not_handled:{what}",
            output=trace,
        )
    ex.judge(outcome, expected=_injected("sendMessage", 403))
    _follow_up(ex, outcome, "blocked_not_handled", what)


def blocked(ex: Explorer) -> None:
    """Carol starts the bot and blocks it; alice then uses every command, and once more each one that sent to
    Carol: after a send refused because she blocked it, nothing may go to her again."""
    start = text_step("/start", CAROL)
    block = Step("/block", {"user": CAROL_ID})
    unblock = Step("/unblock", {"user": CAROL_ID})
    first = ex.act(Action(label="/start as Carol", steps=[start], chat_id=CAROL_ID, kind="block"))
    if first is None or not ex.room():
        return
    blocked = ex.act(
        Action(label="Carol blocks the bot", steps=[block], chat_id=CAROL_ID, kind="block", path=[start]),
        judge_it=False,
    )
    if blocked is None:
        return
    path = [start, block]
    carol = str(CAROL_ID)
    refused: list[BotCall] = []
    labels = [*ex.coverage.commands]
    again: list[str] = []
    for label in labels:
        if not ex.room():
            break
        action = Action(
            label=f"{label} while Carol blocks the bot", steps=[text_step(label)], kind="block", path=list(path)
        )
        outcome = ex.act(action, judge_it=False)
        if outcome is None:
            break
        path += outcome.steps[len(action.path) :]
        to_carol = [c for c in outcome.calls if str(c.params.get("chat_id", "")) == carol and c.status == 403]
        if refused and to_carol:
            ex.report(
                "blocked_not_handled",
                f"the bot kept sending to Carol after she blocked it ({label})",
                outcome,
                key="blocked_not_handled:kept",
                calls=[refused[0], to_carol[0]],
            )
        refused += to_carol
        if to_carol and label not in again:
            again.append(label)
            labels.append(label)  # the same command again: a bot that forgot Carol sends to her no more
        if to_carol and (not outcome.alive or judge.traceback_in(outcome.output)):
            ex.report(
                "blocked_not_handled",
                f"the bot crashed on a send to Carol, who blocked it ({label})",
                outcome,
                key="blocked_not_handled:crash",
                calls=to_carol[:1],
                output=judge.traceback_in(outcome.output) or outcome.output[-4000:],
            )
            if not outcome.alive:
                ex.bot.restart()
            continue
        ex.judge(outcome, expected=lambda c: str(c.params.get("chat_id", "")) == carol and c.status == 403)
    ex.sim.do(unblock)
