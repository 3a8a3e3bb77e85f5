"""Replaying a finding's steps on a fresh session: does the bot still show the bug? (what ``--tests`` runs)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tgfake.explore import faults
from tgfake.explore.actions import Action
from tgfake.explore.engine import CAROL_ID, Explorer, Settings
from tgfake.explore.findings import Finding
from tgfake.explore.sim import Step, bot_on_stand
from tgfake.options import Options

FAULT_KINDS = frozenset({"retry_after_ignored", "fault_not_recovered", "blocked_not_handled"})
PERSON_FIELDS = ("text", "first_name", "last_name", "username")


def replay(
    command: Sequence[str] | str,
    steps: Sequence[Step | dict[str, Any]],
    kind: str,
    *,
    url: str | None = None,
    reply_time: float = 3.0,
    slow_reply: float = 1.0,
    options: Options | None = None,
    env: dict[str, str] | None = None,
    cwd: str | None = None,
) -> list[Finding]:
    """Start the bot on a fresh session, do ``steps`` (sim calls, as a finding lists them) and judge them again:
    the findings of ``kind`` they still show (none once the bug is fixed).

    The fault kinds run their check again (the injected fault, the follow-up ``/start``), as exploring did.
    """
    done = [
        s if isinstance(s, Step) else Step(str(s["path"]).removeprefix("/sim"), dict(s.get("body") or {}))
        for s in steps
    ]
    with bot_on_stand(command, url=url, options=options, env=env, cwd=cwd) as (sim, bot, webhook):
        settings = Settings(reply_time=reply_time, slow_reply=slow_reply, flood_limits=sim.flood_limits())
        ex = Explorer(sim, bot, settings, webhook=webhook)
        if kind in FAULT_KINDS:
            _fault_check(done)(ex)
        else:
            _person_steps(ex, done, kind)
        return [f for f in ex.findings if f.kind == kind]


def _person_steps(ex: Explorer, steps: list[Step], kind: str) -> None:
    controlled = tuple(str(s.body[k]) for s in steps for k in PERSON_FIELDS if s.body.get(k))
    groups = units(steps)
    for n, group in enumerate(groups):
        last = n == len(groups) - 1
        first = group[0]
        chat = int(first.body.get("chat_id") or first.body.get("user_id") or 4242)
        action = Action(
            label=_label(first),
            steps=group,
            chat_id=chat,
            kind="tap" if first.path == "/callback" else "replay",
            controlled=controlled,
            expect_reply=last and kind in ("no_reply", "slow_reply"),
        )
        if first.path == "/callback":
            action.steps = _exact_taps(ex, group)
            ex.double_tap(action, str(first.body.get("label", "")))
            continue
        outcome = ex.act(action, judge_it=False)
        if outcome is None:
            return
        ex.judge(outcome)


def _exact_taps(ex: Explorer, taps: list[Step]) -> list[Step]:
    """Taps by label made exact, as exploring did them: the newest message showing the button, the second of a
    quick pair sending the same button's data to it (looking the label up again could race the bot's edit)."""
    label = str(taps[0].body.get("label", ""))
    chat = int(taps[0].body.get("chat_id") or taps[0].body.get("user_id") or 4242)
    if "label" not in taps[0].body or "message_id" in taps[0].body:
        return taps
    for msg in reversed(ex.sim.chat(chat).get("messages", [])):
        if msg.get("deleted") or msg.get("from") != "bot":
            continue
        buttons = [b for row in msg.get("keyboard") or [] for b in row if str(b.get("text", "")) == label]
        if buttons and buttons[0].get("callback_data") is not None:
            at = {"message_id": int(msg["message_id"])}
            data = {k: v for k, v in taps[0].body.items() if k != "label"}
            first = Step("/callback", {**taps[0].body, **at})
            return [first] + [Step("/callback", {**data, "data": str(buttons[0]["callback_data"]), **at})] * (
                len(taps) - 1
            )
    return taps


def units(steps: Sequence[Step]) -> list[list[Step]]:
    """The steps in the acts a replay does: one each, but a quick double tap's two equal taps are one act (a third
    equal tap is a tap again, later)."""
    out: list[list[Step]] = []
    for step in steps:
        if out and step.path == "/callback" and out[-1] == [step]:
            out[-1].append(step)
        else:
            out.append([step])
    return out


def _label(step: Step) -> str:
    if step.path == "/message":
        return str(step.body.get("text", ""))[:40]
    if step.path == "/callback":
        return f"tap [{step.body.get('label', '')}]"
    return step.path.lstrip("/")


def _blocked_with(commands: list[str]) -> Callable[[Explorer], None]:
    def check(ex: Explorer) -> None:
        ex.coverage.commands = list(dict.fromkeys(commands))
        faults.blocked(ex)

    return check


def _fault_check(steps: list[Step]) -> Callable[[Explorer], None]:
    """Which fault check the steps come from: the fault they schedule, or the block."""
    for step in steps:
        if step.path == "/block":
            commands = [
                str(s.body.get("text")) for s in steps if s.path == "/message" and s.body.get("user_id") != CAROL_ID
            ]
            return _blocked_with(commands)
        if step.path == "/fault":
            method = str(step.body.get("method", "")).lower()
            code = int(step.body.get("code", 0))
            if code == 429:
                return faults.retry_after
            if code == 403:
                return faults.forbidden_send
            return faults.bad_gateway_poll if method == "getupdates" else faults.bad_gateway_send
    raise ValueError("these steps schedule no fault and no block")
