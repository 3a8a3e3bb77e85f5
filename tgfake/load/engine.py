"""The load engine: many people acting on one bot at a given rate, inside the stand's process, measured.

It runs as a task on the stand's own event loop and drives the people through the in-process world (the same
rules the sim routes call, without a request per message), so the stand, not the driver, is what the bot meets:
thousands of updates a second on one core. The world is built in bulk first (tgfake/world/bulk.py). Each act
is a person's, drawn from those whose think time is over, at the offered rate (``rate`` acts a second, after a
linear ``ramp``); it stops at ``duration``, at ``budget`` updates, or when asked (``POST /sim/load/stop``,
Ctrl-C in ``tgfake load``), then waits up to ``drain`` seconds for the bot to answer what it has. The figures
(tgfake/load/figures.py) are fed by the outbox's call listener, the webhook's delivery log and a sample each second
of the backlog and of the stand's own CPU and memory. Telegram's flood limits are on during the run unless
``flood`` is off (the session's options are restored after).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import heapq
import itertools
import os
import random
import resource
import time
from dataclasses import dataclass, field
from typing import Any

from tgfake.chats import Chat
from tgfake.errors import SimError, TelegramError
from tgfake.load.figures import Figures, Offer
from tgfake.load.scenario import DEFAULT, Action, Scenario, fill
from tgfake.models import CallbackIn, FileIn, SenderFields
from tgfake.stand import Stand
from tgfake.world import bulk, files, groups
from tgfake.world.bots import Bot

TICK = 0.005
"""Seconds between two rounds of acts: the pace is kept by counting, so a late round catches up."""
MAX_ROUND = 2000
"""Acts one round may do at most (a stalled loop does not flood the bot in one go when it wakes)."""
SCAN = 20
"""How many of a chat's newest messages are looked at for a keyboard to tap."""
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201e2a0a0"
    "6f0000000049454e44ae426082"
)
"""A 1x1 PNG: the photo people send."""
SERVICE_KEYS = ("new_chat_members", "left_chat_member", "group_chat_created", "supergroup_chat_created")


@dataclass(frozen=True, slots=True)
class Settings:
    """What a run does (``POST /sim/load``); docs/load.md describes each."""

    people: int = 100
    groups: int = 10
    members: int = 10
    rate: float = 50.0
    duration: float = 10.0
    ramp: float = 0.0
    budget: int = 0
    drain: float = 2.0
    flood: bool = True
    chat_burst: int = 3
    seed: int = 1
    bot_admin: bool = True
    scenario: Scenario = DEFAULT

    def json(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "scenario"}
        out["scenario"] = self.scenario.json()
        return out


@dataclass(slots=True)
class Person:
    uid: int
    name: str
    groups: list[int]
    started: int = 0  # how many of the scenario's start texts they sent
    blocked: bool = False


@dataclass(slots=True)
class Acts:
    done: int = 0
    refused: int = 0  # the world said no (a blocked chat, a group they left...)
    starved: int = 0  # rounds with acts due and nobody done thinking
    refusals: dict[str, int] = field(default_factory=dict)


class CpuMeter:
    """The stand's own CPU (percent of one core since the last sample) and resident memory."""

    def __init__(self) -> None:
        self.wall = time.monotonic()
        self.cpu = time.process_time()

    def sample(self) -> tuple[float, float]:
        wall, cpu = time.monotonic(), time.process_time()
        share = (cpu - self.cpu) / max(wall - self.wall, 1e-6) * 100.0
        self.wall, self.cpu = wall, cpu
        return share, rss_mb()


def rss_mb() -> float:
    """The process's resident memory now (``/proc/self/statm``), else its peak."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            pages = int(statm.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 1e6
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3


class Run:
    """One load run on one stand (a session's): build, act, drain, report."""

    def __init__(self, stand: Stand, bot: Bot, settings: Settings) -> None:
        self.stand = stand
        self.bot = bot
        self.settings = settings
        self.draw = random.Random(settings.seed)
        self.state = "building"
        self.stopped = ""
        self.t0 = stand.now()
        self.started_unix = time.time()
        self.offer_end = 0.0
        self.figures = Figures(self.t0, bot.id)
        self.people: list[Person] = []
        self.ready: list[tuple[float, int]] = []
        self.acts = Acts()
        self.build_ms = 0.0
        self.webhook_seen = 0
        self.photo_id = ""
        self.senders: dict[tuple[int, int], SenderFields] = {}
        self.world = stand.world  # the world the crowd is built in (a reset makes a new one: the run stops)
        self._stop = asyncio.Event()
        self._listener = self.figures.call
        self._saved = (stand.options, stand.world.flood.burst)
        self.task: asyncio.Task[None] | None = None
        self.outbox_from = self.outbox_to = 0  # the outbox's seqs after which and through which the run's calls are

    # --- control ------------------------------------------------------------------------------------------------
    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run(), name="tgfake-load")

    def stop(self, reason: str = "stopped") -> None:
        if not self.stopped:
            self.stopped = reason
        self._stop.set()

    async def wait(self) -> None:
        if self.task is not None:
            await asyncio.shield(self.task)

    @property
    def done(self) -> bool:
        return self.state == "done"

    # --- the run ------------------------------------------------------------------------------------------------
    async def run(self) -> None:
        stand, s = self.stand, self.settings
        stand.options = dataclasses.replace(stand.options, flood_control=s.flood)
        stand.world.flood.burst = s.chat_burst
        stand.call_listeners.append(self._listener)
        self.outbox_from = len(stand.world.calls)
        try:
            self._build()
            self.state = "running"
            self.t0 = self.figures.t0 = stand.now()
            await self._offer()
            self.offer_end = stand.now()
            self.state = "draining"
            await self._drain()
        finally:
            if self._listener in stand.call_listeners:
                stand.call_listeners.remove(self._listener)
            self.outbox_to = len(stand.world.calls)
            stand.options = self._saved[0]
            stand.world.flood.burst = self._saved[1]
            if not self.offer_end:
                self.offer_end = stand.now()
            self.state = "done"

    def _build(self) -> None:
        s = self.settings
        began = time.perf_counter()
        self.world = self.stand.world
        built = bulk.build(self.stand, self.bot, s.people, s.groups, s.members, bot_admin=s.bot_admin, seed=s.seed)
        member_of: dict[int, list[int]] = {}
        for gid, members in built.groups.items():
            for uid in members:
                member_of.setdefault(uid, []).append(gid)
        users = self.stand.world.users
        self.people = [Person(uid, users[uid].first_name, member_of.get(uid, [])) for uid in built.people]
        spread = self.settings.scenario.think
        now = self.stand.now()
        self.ready = [(now + self.draw.random() * spread, i) for i in range(len(self.people))]
        heapq.heapify(self.ready)
        self.build_ms = (time.perf_counter() - began) * 1000.0

    async def _offer(self) -> None:
        s, stand = self.settings, self.stand
        cpu = CpuMeter()
        next_sample = self.t0 + 1.0
        while not self._stop.is_set():
            if stand.closing or stand.world is not self.world:  # the session ended, or a reset forgot the crowd
                self.stop("stand closed" if stand.closing else "reset")
                break
            now = stand.now()
            elapsed = now - self.t0
            if elapsed >= s.duration:
                self.stop("duration")
                break
            due = int(self._target(elapsed)) - self.acts.done - self.acts.refused
            for _ in range(min(due, MAX_ROUND)):
                if s.budget and len(self.figures.offers) >= s.budget:
                    self.stop("budget")
                    break
                if not self._act_once(now):
                    self.acts.starved += 1
                    break
            self._scan_webhook()
            if now >= next_sample:
                self._sample(cpu, now)
                next_sample += 1.0
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), TICK)

    def _target(self, elapsed: float) -> float:
        """Acts due by ``elapsed`` seconds: the rate's integral, rising linearly over the ramp."""
        rate, ramp = self.settings.rate, self.settings.ramp
        if ramp <= 0 or elapsed >= ramp:
            return rate * (elapsed - ramp / 2 if ramp > 0 else elapsed)
        return rate * elapsed * elapsed / (2 * ramp)

    async def _drain(self) -> None:
        stand = self.stand
        deadline = stand.now() + self.settings.drain
        cpu = CpuMeter()
        next_sample = stand.now()
        while True:
            self._scan_webhook()
            now = stand.now()
            if now >= next_sample:
                self._sample(cpu, now)
                next_sample = now + 1.0
            ended = stand.closing or stand.world is not self.world
            if self.figures.answered >= self.figures.answerable or now >= deadline or ended:
                self._scan_webhook()
                self._sample(cpu, stand.now())
                return
            await stand.calls_signal.wait(min(deadline - now, 0.25))

    def _sample(self, cpu: CpuMeter, now: float) -> None:
        share, rss = cpu.sample()
        self.figures.sample(now, len(self.bot.pending), share, rss)

    def _scan_webhook(self) -> None:
        log = self.bot.webhook.deliveries
        if len(log) < self.webhook_seen:  # a reset started a new log
            self.webhook_seen = 0
        for d in log[self.webhook_seen :]:
            self.figures.webhook(d.update_id, d.started or d.at, d.attempt, not d.ok)
        self.webhook_seen = len(log)

    # --- one act ------------------------------------------------------------------------------------------------
    def _act_once(self, now: float) -> bool:
        """The next person done thinking acts; False when nobody is."""
        if not self.ready or self.ready[0][0] > now:
            return False
        _, index = heapq.heappop(self.ready)
        person = self.people[index]
        first = self.bot.next_update_id
        try:
            self._act(person)
            self.acts.done += 1
        except (SimError, TelegramError) as exc:
            self.acts.refused += 1
            words = getattr(exc, "message", "") or getattr(exc, "description", "") or str(exc)
            self.acts.refusals[words] = self.acts.refusals.get(words, 0) + 1
        self._offered(first, now)
        think = self.settings.scenario.think
        heapq.heappush(self.ready, (now + (self.draw.expovariate(1.0 / think) if think > 0 else 0.0), index))
        return True

    def _offered(self, first: int, now: float) -> None:
        """Every update the act queued for the bot (ids from ``first``) becomes an offer."""
        minted = self.bot.next_update_id - first
        if minted <= 0:
            return
        for update in itertools.islice(reversed(self.bot.pending), minted):
            if update["update_id"] >= first:
                self.figures.offer(_offer_of(update, now))

    def _act(self, person: Person) -> None:
        sc = self.settings.scenario
        if person.started < len(sc.start):
            person.started += 1
            self._say(person, 0, fill(sc.start[person.started - 1], person.name, self.draw))
            return
        in_group = bool(person.groups) and self.draw.random() < sc.groups
        if person.blocked and not in_group:
            if not person.groups:
                raise SimError(403, "blocked the bot and is in no group")
            in_group = True
        action = sc.pick(self.draw, in_group) or Action("text", 1.0, "{words}")
        chat_id = self.draw.choice(person.groups) if in_group else 0
        self._do(person, action, chat_id)

    def _do(self, person: Person, action: Action, chat_id: int) -> None:
        kind, stand = action.kind, self.stand
        if kind in ("text", "command"):
            self._say(person, chat_id, fill(action.text, person.name, self.draw))
        elif kind == "tap":
            self._tap(person, chat_id)
        elif kind == "press":
            self._press(person, chat_id)
        elif kind == "photo":
            self._photo(person, chat_id, fill(action.text, person.name, self.draw))
        elif kind == "join":
            self._join(person)
        elif kind == "leave":
            owned = [g for g in person.groups if stand.world.chats[g].members[person.uid].status != "creator"]
            gid = self.draw.choice(owned) if owned else 0
            if not gid:
                raise SimError(409, "in no group they may leave")
            groups.leave(stand, groups.chat_ref(stand, gid), stand.world.users[person.uid])
            person.groups.remove(gid)
        elif kind == "block":
            groups.block(stand, self.bot, stand.world.users[person.uid], True)
            person.blocked = True

    def _sender(self, person: Person, chat_id: int) -> SenderFields:
        """Who writes where, made once per person and chat (a body costs tens of microseconds to make)."""
        key = (person.uid, chat_id)
        body = self.senders.get(key)
        if body is None:
            body = self.senders[key] = SenderFields.model_construct(
                bot=self.bot.id, user_id=person.uid, chat_id=chat_id
            )
        return body

    def _say(self, person: Person, chat_id: int, text: str) -> None:
        self.stand.inject(self._sender(person, chat_id), text)

    def _chat(self, person: Person, chat_id: int) -> Chat:
        return self.stand.world.chats[chat_id] if chat_id else self.stand.private_chat(self.bot, person.uid)

    def _tap(self, person: Person, chat_id: int) -> None:
        chat = self._chat(person, chat_id)
        for msg in itertools.islice(reversed(chat.messages.values()), SCAN):
            if msg.deleted or not msg.keyboard or not msg.from_bot:
                continue
            buttons = [b for row in msg.keyboard for b in row if b.callback_data is not None]
            if buttons:
                button = self.draw.choice(buttons)
                body = CallbackIn.model_construct(
                    bot=self.bot.id, user_id=person.uid, chat_id=chat.id, message_id=msg.message_id, label=button.text
                )
                self.stand.inject_callback(body)
                return
        self._say(person, chat_id, fill("{words}", person.name, self.draw))  # nothing to tap: they write

    def _press(self, person: Person, chat_id: int) -> None:
        chat = self._chat(person, chat_id)
        shown = chat.reply_keyboards.get(person.uid) or chat.reply_keyboards.get(0)
        labels = [] if shown is None or shown.hidden else [b.text for row in shown.markup.rows for b in row]
        if labels and shown is not None and shown.markup.kind == "keyboard":
            self._say(person, chat_id, self.draw.choice(labels))
        else:
            self._say(person, chat_id, fill("{words}", person.name, self.draw))

    def _photo(self, person: Person, chat_id: int, caption: str) -> None:
        body = FileIn.model_validate(
            {"bot": self.bot.id, "user_id": person.uid, "chat_id": chat_id, "caption": caption}
        )
        sent = files.send_file(self.stand, body, "photo", "load.png", b"" if self.photo_id else PNG, self.photo_id)
        self.photo_id = str(sent["file_id"])

    def _join(self, person: Person) -> None:
        stand = self.stand
        candidates = [gid for gid in bulk_groups(stand) if gid not in person.groups]
        if not candidates:
            raise SimError(409, "already in every group")
        gid = self.draw.choice(candidates)
        groups.join(stand, groups.chat_ref(stand, gid), stand.world.users[person.uid])
        person.groups.append(gid)

    # --- what is shown ------------------------------------------------------------------------------------------
    def elapsed(self) -> float:
        end = self.offer_end or self.stand.now()
        return max(end - self.t0, 0.0) if self.state != "building" else 0.0

    def progress(self) -> dict[str, Any]:
        f = self.figures
        recent = f.seconds[-2] if len(f.seconds) >= 2 else (f.seconds[-1] if f.seconds else None)
        return {
            "state": self.state,
            "stopped": self.stopped,
            "elapsed": round(self.elapsed(), 2),
            "offered": len(f.offers),
            "delivered": f.delivered,
            "answered": f.answered,
            "too_many": sum(s.too_many for s in f.seconds),
            "errors": sum(s.errors for s in f.seconds),
            "backlog": len(self.bot.pending),
            "last_second": recent.json(len(f.seconds) - 2) if recent is not None else None,
        }

    def report(self) -> dict[str, Any]:
        elapsed = self.elapsed()
        return {
            "state": self.state,
            "stopped": self.stopped,
            "started_at": round(self.started_unix, 3),
            "elapsed": round(elapsed, 3),
            "settings": self.settings.json(),
            "bot": {"id": self.bot.id, "username": self.bot.username, "webhook": self.bot.webhook.active},
            "world": {"people": len(self.people), "groups": self.settings.groups, "build_ms": round(self.build_ms, 1)},
            "acts": {
                "done": self.acts.done,
                "refused": self.acts.refused,
                "starved": self.acts.starved,
                "refusals": dict(self.acts.refusals),
            },
            "outbox": self._outbox(),
            "totals": self.figures.totals(elapsed),
            "seconds": self.figures.series(),
        }

    def _outbox(self) -> dict[str, Any]:
        """The run's span of the outbox and, counted there, the bot's calls in it (what the figures must match)."""
        through = self.outbox_to or len(self.stand.world.calls)
        mine = [c for c in self.stand.world.calls[self.outbox_from : through] if c.bot_id == self.bot.id]
        by_method: dict[str, int] = {}
        for c in mine:
            by_method[c.method] = by_method.get(c.method, 0) + 1
        too_many = sum(1 for c in mine if c.status == 429)
        return {"after": self.outbox_from, "through": through, "calls": len(mine), "by_method": by_method,
                "too_many": too_many}  # fmt: skip


def bulk_groups(stand: Stand) -> list[int]:
    return [cid for cid in stand.world.chats if cid <= -bulk.GROUP_ID_BASE]


def _offer_of(update: dict[str, Any], now: float) -> Offer:
    uid = int(update["update_id"])
    if "callback_query" in update:
        query = update["callback_query"]
        chat_id = int((query.get("message") or {}).get("chat", {}).get("id", 0))
        return Offer(uid, chat_id, now, query_id=str(query["id"]))
    message = update.get("message")
    if isinstance(message, dict):
        service = any(k in message for k in SERVICE_KEYS)
        return Offer(
            uid, int(message["chat"]["id"]), now, message_id=int(message["message_id"]), answerable=not service
        )
    return Offer(uid, 0, now, answerable=False)


__all__ = ["Run", "Settings"]
