"""The webhook delivery worker: POSTs pending updates to the bot's webhook, up to ``max_connections`` at once.

One supervisor per stand (the root and each session: :class:`Deliveries`), run for the app's life through
``cleanup_ctx`` (:meth:`Deliveries.run`); a session's stops when the session ends. Each bot's worker waits
on the stand's update signal with the retry deadline as timeout ("the next update or the retry, whichever comes
first"), so an idle or failing webhook costs nothing between attempts. The state it reads and writes is plain data
(:class:`tgfake.webhooks.Webhook` on the stand).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ssl
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
from aiohttp import web

from tgfake.params import Params
from tgfake.stand import Stand
from tgfake.webhooks import SECRET_HEADER, Delivery, WebhookConfig
from tgfake.wire import compact, decode_text, form_pairs, json_pairs
from tgfake.world.bots import Bot

IDLE_WAIT = 3600.0  # seconds between re-checks with nothing to do (any update wakes the worker at once)
MAX_REPLY = 1 << 20
# Telegram does not serve these from a webhook answer (nobody would see their result, or they end the webhook).
_NOT_SERVED_IN_REPLY = ("setwebhook", "deletewebhook", "close", "logout")


class Deliveries:
    """One delivery supervisor per stand (the root and each session), all sharing the app's one ClientSession.

    Stands registered before the app starts (pinned sessions) get their supervisor when :meth:`open` runs.
    """

    def __init__(self) -> None:
        self.client: aiohttp.ClientSession | None = None
        self.stands: list[Stand] = []
        self.tasks: dict[Stand, asyncio.Task[None]] = {}

    def start(self, stand: Stand) -> None:
        self.stands.append(stand)
        if self.client is not None:
            self._spawn(stand, self.client)

    def _spawn(self, stand: Stand, client: aiohttp.ClientSession) -> None:
        self.tasks[stand] = asyncio.create_task(deliver_forever(stand, client), name="tgfake-webhook-delivery")

    def stop(self, stand: Stand) -> None:
        """A session ended: its supervisor (and any POST in flight) stops at once."""
        if stand in self.stands:
            self.stands.remove(stand)
        task = self.tasks.pop(stand, None)
        if task is not None:
            task.cancel()

    def open(self, client: aiohttp.ClientSession) -> None:
        self.client = client
        for stand in self.stands:
            self._spawn(stand, client)

    async def run(self, app: web.Application) -> AsyncIterator[None]:
        """``cleanup_ctx``: one ClientSession for the app's life, a supervisor per stand; cancelled at cleanup."""
        async with aiohttp.ClientSession(auto_decompress=True) as client:
            self.open(client)
            yield
            await self.close()

    async def close(self) -> None:
        tasks = list(self.tasks.values())
        self.tasks.clear()
        self.client = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task


@functools.lru_cache(maxsize=16)
def trusting(certificate: bytes) -> ssl.SSLContext:
    """A TLS client context that trusts exactly the webhook's uploaded certificate (PEM or DER), as Telegram checks
    a self-signed webhook; the host name is still checked against it. Raises ``ssl.SSLError`` when it is none."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # peer and host name verified; no system CAs
    try:
        context.load_verify_locations(cadata=certificate.decode("ascii"))
    except UnicodeDecodeError:
        context.load_verify_locations(cadata=certificate)
    return context


async def deliver_forever(stand: Stand, session: aiohttp.ClientSession) -> None:
    """One delivery task per bot (a hanging webhook of one bot never delays another's); new bots get theirs."""
    tasks: dict[int, asyncio.Task[None]] = {}
    try:
        while not stand.closing:
            for bot in list(stand.bots.values()):
                if bot.id not in tasks:
                    tasks[bot.id] = asyncio.create_task(
                        deliver_bot(stand, bot, session), name=f"tgfake-webhook-{bot.id}"
                    )
            await stand.bots_signal.wait(IDLE_WAIT)
    finally:
        for task in tasks.values():
            task.cancel()
        for task in tasks.values():
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def deliver_bot(stand: Stand, bot: Bot, session: aiohttp.ClientSession) -> None:
    """Deliver the bot's queue whenever its webhook is set, until close.

    A healthy webhook gets up to ``max_connections`` POSTs at once, never two of one chat (its updates arrive in
    order), as telegram-bot-api's WebhookActor sends them; each confirmed update leaves the queue. After a failure,
    the update that failed is retried alone on its schedule (:meth:`Webhook.fail`) until it goes through.
    """
    hook = bot.webhook
    flight = Flight()
    try:
        while not stand.closing:
            config = hook.config
            if config is None or not config.local or not bot.pending:  # the stand reaches only loopback hosts
                await flight.wait(bot, IDLE_WAIT)
                continue
            if hook.failures and flight.tasks:  # a failure: the others in flight land first
                await flight.wait(bot, IDLE_WAIT, updates=False)
                continue
            if hook.failures:
                await _retry_head(stand, bot, session, config)
                continue
            flight.fill(stand, bot, session, config)
            await flight.wait(bot, IDLE_WAIT)
    finally:
        flight.cancel()


async def _retry_head(stand: Stand, bot: Bot, session: aiohttp.ClientSession, config: WebhookConfig) -> None:
    """A failing webhook: the update that failed (``head``) alone, when its retry is due (or the next update,
    whichever comes first); once it is gone (through, or forgotten by a reset) the schedule starts over."""
    hook = bot.webhook
    update = next((u for u in bot.pending if u["update_id"] == hook.head), None)
    if update is None:
        hook.failures, hook.retry_at = 0, 0.0
        return
    remaining = hook.retry_at - asyncio.get_running_loop().time()
    if remaining > 0:
        await bot.updates_signal.wait(remaining)
        return
    if await deliver(stand, bot, session, config, update, confirm=False):
        _drop(bot, update)


def queue_of(update: dict[str, Any]) -> int:
    """The chat (else the person) an update is about: one POST at a time per such queue keeps its order."""
    for key, value in update.items():
        if key == "update_id" or not isinstance(value, dict):
            continue
        for holder in (value, value.get("message")):
            if isinstance(holder, dict) and isinstance(holder.get("chat"), dict):
                return int(holder["chat"].get("id", 0))
        sender = value.get("from") or value.get("user")
        if isinstance(sender, dict):
            return int(sender.get("id", 0))
    return 0


def _drop(bot: Bot, update: dict[str, Any]) -> None:
    """A confirmed update leaves the queue (the oldest ones are in flight: it is found near the front)."""
    for index, queued in enumerate(bot.pending):
        if queued is update:
            del bot.pending[index]
            return


class Flight:
    """The POSTs in flight to a healthy webhook, by update id, and the queues (chats) they hold."""

    def __init__(self) -> None:
        self.tasks: dict[int, asyncio.Task[None]] = {}
        self.queues: set[int] = set()

    def fill(self, stand: Stand, bot: Bot, session: aiohttp.ClientSession, config: WebhookConfig) -> None:
        """Start POSTs for the oldest updates whose queue is free, up to ``max_connections`` in flight."""
        for update in bot.pending:
            if len(self.tasks) >= config.max_connections:
                return
            uid = update["update_id"]
            if uid in self.tasks:
                continue
            queue = queue_of(update)
            if queue in self.queues:
                continue
            self.queues.add(queue)
            task = asyncio.create_task(self._one(stand, bot, session, config, update, queue))
            self.tasks[uid] = task

    async def _one(
        self,
        stand: Stand,
        bot: Bot,
        session: aiohttp.ClientSession,
        config: WebhookConfig,
        update: dict[str, Any],
        queue: int,
    ) -> None:
        uid = update["update_id"]
        try:
            if await deliver(stand, bot, session, config, update, confirm=False):
                _drop(bot, update)  # before anyone woken by the delivery looks at the queue
        finally:
            self.tasks.pop(uid, None)
            self.queues.discard(queue)
            bot.updates_signal.fire()

    async def wait(self, bot: Bot, timeout: float, *, updates: bool = True) -> None:
        """Until a POST lands (each fires the update signal) or, with ``updates``, a new update comes."""
        if updates or not self.tasks:
            await bot.updates_signal.wait(timeout)
        else:
            await asyncio.wait(list(self.tasks.values()), timeout=timeout, return_when=asyncio.FIRST_COMPLETED)

    def cancel(self) -> None:
        for task in self.tasks.values():
            task.cancel()


async def post(
    session: aiohttp.ClientSession,
    config: WebhookConfig,
    headers: dict[str, str],
    update: dict[str, Any],
    tls: ssl.SSLContext | bool,
    timeout: float,
) -> tuple[int, str, float | None, tuple[str, Params] | None]:
    """The POST itself: its status, the error as Telegram reports it (empty when confirmed), a ``Retry-After``
    and the Bot API call the answer carries."""
    status, error, retry_after, reply = 0, "", None, None
    try:
        async with session.post(
            config.url,
            data=compact(update).encode(),
            headers=headers,
            timeout=aiohttp.ClientTimeout(total=timeout),
            ssl=tls,
        ) as resp:
            status = resp.status
            if 200 <= status < 300:
                reply = await read_reply(resp)
            else:
                error = f"Wrong response from the webhook: {status} {resp.reason or ''}".rstrip()
                retry_after = _retry_after(resp.headers.get("Retry-After"))
    except TimeoutError:
        error = "Read timeout expired"
    except aiohttp.ClientConnectorError as exc:
        error = "Connection refused" if isinstance(exc.os_error, ConnectionRefusedError) else f"Connection error: {exc}"
    except aiohttp.ClientError as exc:
        error = f"Connection error: {exc.__class__.__name__}: {exc}".rstrip(": ")
    return status, error, retry_after, reply


async def deliver(
    stand: Stand,
    bot: Bot,
    session: aiohttp.ClientSession,
    config: WebhookConfig,
    update: dict[str, Any],
    *,
    confirm: bool = True,
) -> bool:
    """One POST: a 2xx confirms the update (and its body may carry a method to run); anything else is retried.

    ``confirm`` False leaves the queue to the caller (POSTs in flight together); returns whether it went through.
    """
    hook = bot.webhook
    world = stand.world  # a reset during the POST forgets this attempt: it belonged to the old conversation
    headers = {"Content-Type": "application/json"}
    if config.secret_token:
        headers[SECRET_HEADER] = config.secret_token
    tls: ssl.SSLContext | bool = True
    started = stand.now()
    try:
        tls = trusting(config.certificate) if config.certificate else True
    except ssl.SSLError as exc:  # the uploaded certificate is no certificate: Telegram's webhook never connects
        status, error, retry_after, reply = 0, f"Can't create an SSL context: {exc.strerror or exc}", None, None
    else:
        status, error, retry_after, reply = await post(session, config, headers, update, tls, hook.request_timeout)
    if stand.world is not world:
        return False
    delivery = Delivery(
        update_id=update["update_id"],
        attempt=hook.failures + 1,
        at=stand.now(),
        url=config.url,
        status=status,
        error=error,
        started=started,
    )
    if error:
        hook.head = update["update_id"]  # retried alone from now on (a head failing after others is the head)
        hook.fail(asyncio.get_running_loop().time(), stand.unix_now(), error, retry_after)
    else:
        if confirm:
            bot.confirm(update["update_id"] + 1)
        if reply is not None:
            method, params = reply
            delivery.reply_method = method
            if not method.lower().startswith("get") and method.lower() not in _NOT_SERVED_IN_REPLY:
                delivery.reply_status = (await stand.serve(config.token, method, params)).status
    hook.deliveries.append(delivery)
    stand.calls_signal.fire()  # sim waits on deliveries share the outbox's signal
    return not error


async def read_reply(resp: aiohttp.ClientResponse) -> tuple[str, Params] | None:
    """A Bot API call in a webhook answer (JSON, urlencoded or multipart, as aiogram sends it), else None."""
    ctype = resp.content_type
    values: dict[str, str] = {}
    try:
        if ctype in ("application/json", "application/x-www-form-urlencoded"):  # read as a request's body is
            text = decode_text(await resp.content.read(MAX_REPLY))
            for key, value in json_pairs(text) if ctype == "application/json" else form_pairs(text):
                values.setdefault(key, value)
        elif ctype == "multipart/form-data":
            reader = aiohttp.MultipartReader(resp.headers, resp.content)
            async for part in reader:
                if isinstance(part, aiohttp.BodyPartReader) and part.name and part.filename is None:
                    values.setdefault(part.name, decode_text(bytes(await part.read())))
        else:
            return None
    except (ValueError, aiohttp.ClientError):
        return None
    method = values.pop("method", "")
    return (method, Params(values=values)) if method else None


def _retry_after(raw: str | None) -> float | None:
    try:
        return float(raw) if raw else None
    except ValueError:
        return None
