"""Webhooks: setWebhook, deleteWebhook, getWebhookInfo (the worker that POSTs updates is :mod:`tgfake.delivery`)."""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi.bot import read_allowed_updates
from tgfake.botapi.context import Described
from tgfake.botapi.registry import bot_method
from tgfake.errors import bad_request
from tgfake.params import Params, parse_int
from tgfake.webhooks import (
    DEFAULT_MAX_CONNECTIONS,
    MAX_CERTIFICATE_BYTES,
    MAX_CONNECTIONS,
    BadWebhook,
    WebhookConfig,
    WebhookUrlError,
    check_url,
    secret_problem,
    verify,
)

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

IP_ADDRESS_BAD = "Bad Request: invalid IP address specified"


@bot_method("setWebhook")
async def set_webhook(ctx: BotCall, p: Params) -> Any:
    """Set (or, with an empty ``url``, remove) the webhook; every check passes before anything changes.

    Checks in order: the url (``invalid webhook URL specified``), ``secret_token``, the ``certificate``'s size,
    ``ip_address``, the webhook's verification (``bad webhook: <reason>``), ``allowed_updates``. A host other than
    loopback is set as Telegram sets it but never contacted (its updates wait).
    ``max_connections`` (default 40; garbage reads as 0) is clamped to 1..100. A ``certificate`` (an upload or
    ``attach://``) is what https deliveries trust, as for a self-signed webhook. A waiting getUpdates is terminated
    with 409.
    """
    url = p.text("url")
    if not url:
        return _remove(ctx, p)
    try:
        parts = check_url(url)
    except WebhookUrlError:
        raise bad_request(errors.WEBHOOK_URL_INVALID) from None
    secret = p.text("secret_token")
    problem = secret_problem(secret)
    if problem is not None:
        raise bad_request(errors.SECRET_TOKEN_BAD.format(problem=problem))
    certificate = p.files.get("certificate")
    if certificate is not None and len(certificate.data) > MAX_CERTIFICATE_BYTES:
        raise bad_request(errors.CERTIFICATE_TOO_BIG.format(size=len(certificate.data)))
    ip = p.text("ip_address").strip()
    if ip:
        try:
            ipaddress.ip_address(ip)
        except ValueError:
            raise bad_request(IP_ADDRESS_BAD) from None
    try:
        local = verify(parts)
    except BadWebhook as exc:
        raise bad_request(errors.BAD_WEBHOOK.format(reason=exc)) from None
    read_allowed_updates(ctx, p)
    raw = p.text("max_connections")  # as Telegram reads it: absent is 40, garbage is 0, then clamped to 1..100
    wanted = (parse_int(raw) or 0) if raw else DEFAULT_MAX_CONNECTIONS
    config = WebhookConfig(
        url=url,
        token=ctx.bot.token,
        secret_token=secret,
        max_connections=min(max(wanted, 1), MAX_CONNECTIONS),
        ip_address=ip,
        certificate=certificate.data if certificate is not None else b"",
        local=local,
    )
    drop = p.flag("drop_pending_updates")
    if config == ctx.bot.webhook.config and not drop and not config.certificate:  # a certificate always re-sets
        return Described(True, errors.WEBHOOK_ALREADY_SET)
    if drop:
        ctx.bot.pending = []
    ctx.bot.webhook.set(config)
    ctx.bot.updates_signal.fire()  # a held poll ends with 409; the delivery worker starts on the queue
    return Described(True, errors.WEBHOOK_SET)


@bot_method("deleteWebhook")
async def delete_webhook(ctx: BotCall, p: Params) -> Any:
    """Remove the webhook (the bot may poll again); ``drop_pending_updates`` empties the queue."""
    return _remove(ctx, p)


def _remove(ctx: BotCall, p: Params) -> Described:
    drop = p.flag("drop_pending_updates")
    if not ctx.bot.webhook.active and not drop:
        return Described(True, errors.WEBHOOK_ALREADY_DELETED)
    if drop:
        ctx.bot.pending = []
    ctx.bot.webhook.set(None)
    ctx.bot.updates_signal.fire()
    return Described(True, errors.WEBHOOK_DELETED)


@bot_method("getWebhookInfo")
async def get_webhook_info(ctx: BotCall, p: Params) -> Any:
    """Telegram's WebhookInfo: ``max_connections`` while set, ``ip_address`` and the last error only when there are."""
    hook = ctx.bot.webhook
    config = hook.config
    info: dict[str, Any] = {
        "allowed_updates": ctx.bot.allowed_json(),
        "has_custom_certificate": config is not None and bool(config.certificate),
    }
    if config is not None and config.ip_address:
        info["ip_address"] = config.ip_address
    if hook.last_error_date:
        info["last_error_date"] = hook.last_error_date
        info["last_error_message"] = hook.last_error_message
    if config is not None:
        info["max_connections"] = config.max_connections
    info["pending_update_count"] = len(ctx.bot.pending)
    info["url"] = config.url if config is not None else ""
    return info
