"""Gifts: the catalogue the sim sets, a bot's gift paid from its Star balance, the gifts people and chats own, and
a business account's gifts managed through its connection (converted to Stars, upgraded, transferred).

Rules over :class:`~tgfake.world.business_state.Business`'s ``catalogue`` and ``owned``. A catalogue gift is the Bot
API Gift (its sticker a stand-in the stand draws no file for); a limited one counts down as it is sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.errors import SimError, bad_request
from tgfake.world import business
from tgfake.world.business_state import OwnedGift

if TYPE_CHECKING:
    from tgfake.world.bots import Bot
    from tgfake.world.business_state import Connection
    from tgfake.world.people import User
    from tgfake.world.telegram import Telegram

GIFT_ID_BASE = 5_170_000_000_000_000_000
UNIQUE_NUMBER_BASE = 1


def set_catalogue(t: Telegram, gifts: list[dict[str, Any]], *, replace: bool = True) -> list[dict[str, Any]]:
    """The sim's catalogue (``PUT /sim/gifts``): each ``{"id"?, "star_count", "upgrade_star_count"?, "total_count"?,
    "emoji"?}``; replaces the old one (gifts already owned stay), or adds to it. Returns it as getAvailableGifts
    shows it."""
    state = t.world.business
    if replace:
        state.catalogue = {}
        state.sold = {}
    for n, spec in enumerate(gifts, start=len(state.catalogue) + 1):
        gift_id = str(spec.get("id") or GIFT_ID_BASE + n)
        if gift_id in state.catalogue:
            raise SimError(400, f"gift id {gift_id} is in the catalogue twice")
        sticker = {
            "file_id": f"gift-sticker-{gift_id}",
            "file_unique_id": f"gift{gift_id}",
            "type": "regular",
            "width": 512,
            "height": 512,
            "emoji": spec.get("emoji") or "🎁",
            "is_animated": True,
            "is_video": False,
        }
        gift: dict[str, Any] = {"id": gift_id, "sticker": sticker, "star_count": spec["star_count"]}
        if spec.get("upgrade_star_count"):
            gift["upgrade_star_count"] = spec["upgrade_star_count"]
        if spec.get("total_count"):
            gift["total_count"] = spec["total_count"]
        state.catalogue[gift_id] = gift
    return available(t)


def _shown(t: Telegram, gift: dict[str, Any]) -> dict[str, Any]:
    """A catalogue gift as Client.cpp's JsonGift writes it, with what is left of a limited one."""
    out = {k: v for k, v in gift.items() if k != "total_count"}
    total = gift.get("total_count")
    if total:
        out["remaining_count"] = total - t.world.business.sold.get(gift["id"], 0)
        out["total_count"] = total
    return out


def available(t: Telegram) -> list[dict[str, Any]]:
    return [_shown(t, gift) for gift in t.world.business.catalogue.values()]


def send(
    t: Telegram, bot: Bot, owner_id: int, gift_id: str, text: str, entities: list[dict[str, Any]], *, upgrade: bool
) -> None:
    """sendGift: a catalogue gift (``STARGIFT_INVALID`` for another id), not sold out (``STARGIFT_USAGE_LIMITED``),
    paid from the bot's Stars with its upgrade when ``upgrade`` (``BALANCE_TOO_LOW``); the receiver owns it."""
    state = t.world.business
    gift = state.catalogue.get(gift_id)
    if gift is None:
        raise bad_request(errors.STARGIFT_INVALID)
    total = gift.get("total_count")
    if total and state.sold.get(gift_id, 0) >= total:
        raise bad_request(errors.STARGIFT_USAGE_LIMITED)
    prepaid = int(gift.get("upgrade_star_count", 0)) if upgrade else 0
    price = int(gift["star_count"]) + prepaid
    payments = t.world.payments
    if payments.balance(bot.id) < price:
        raise bad_request(errors.BALANCE_TOO_LOW)
    shown = _shown(t, gift)
    partner = {"type": "user", "transaction_type": "gift_purchase", "gift": shown}
    if owner_id in t.world.users:
        partner["user"] = t.world.users[owner_id].json()
    entry = {"id": payments.transaction_id(), "amount": price, "date": t.unix_now(), "receiver": partner}
    payments.record(bot.id, -price, entry)
    if total:
        state.sold[gift_id] = state.sold.get(gift_id, 0) + 1
    owned = OwnedGift(
        id=f"{owner_id}_{state.next_id}",
        owner_id=owner_id,
        gift=_shown(t, gift),
        sender=bot.user,
        date=t.unix_now(),
        text=text,
        entities=entities,
        prepaid_upgrade=prepaid,
    )
    state.next_id += 1
    state.owned[owned.id] = owned


def give(t: Telegram, owner: User, gift_id: str, sender: User | None) -> OwnedGift:
    """The sim: a person receives a catalogue gift from another person (nothing is paid by a bot)."""
    state = t.world.business
    gift = state.catalogue.get(gift_id)
    if gift is None:
        raise SimError(404, f"no gift {gift_id} in the catalogue (PUT /sim/gifts)")
    owned = OwnedGift(
        id=f"{owner.id}_{state.next_id}", owner_id=owner.id, gift=_shown(t, gift), sender=sender, date=t.unix_now()
    )
    state.next_id += 1
    state.owned[owned.id] = owned
    return owned


def owned_by(
    t: Telegram, owner_id: int, flags: dict[str, bool], offset: str, limit: int, *, managed: bool
) -> dict[str, Any]:
    """OwnedGifts: the gifts ``owner_id`` owns, newest first, filtered by the ``exclude_*`` flags given,
    ``sort_by_price`` (dearest first), from ``offset`` (a position), at most ``limit``."""
    gifts = [g for g in t.world.business.owned.values() if g.owner_id == owner_id and not g.converted]
    gifts.reverse()
    if flags.get("exclude_unique"):
        gifts = [g for g in gifts if g.unique is None]
    if flags.get("exclude_unlimited"):
        gifts = [g for g in gifts if g.unique is not None or g.gift.get("total_count")]
    if flags.get("exclude_limited"):
        gifts = [g for g in gifts if g.unique is not None or not g.gift.get("total_count")]
    if flags.get("sort_by_price"):
        gifts.sort(key=lambda g: -int(g.gift.get("star_count", 0)))
    start = int(offset) if offset.isdigit() else 0
    page = gifts[start : start + limit]
    out: dict[str, Any] = {"total_count": len(gifts), "gifts": [g.json(managed=managed) for g in page]}
    if start + limit < len(gifts):
        out["next_offset"] = str(start + limit)
    return out


def _own(t: Telegram, conn: Connection, owned_gift_id: str) -> OwnedGift:
    gift = t.world.business.owned.get(owned_gift_id)
    if gift is None or gift.converted:
        raise bad_request(errors.STARGIFT_NOT_FOUND)
    if gift.owner_id != conn.owner.id:
        raise bad_request(errors.STARGIFT_OWNER_INVALID)
    return gift


def convert(t: Telegram, conn: Connection, owned_gift_id: str) -> None:
    """convertGiftToStars: a regular gift of the account becomes its ``convert_star_count`` Stars."""
    gift = _own(t, conn, owned_gift_id)
    if gift.unique is not None:
        raise bad_request(errors.STARGIFT_ALREADY_UPGRADED)
    gift.converted = True
    t.world.business.account(conn.owner.id).stars += int(gift.gift["star_count"])


def upgrade(t: Telegram, bot: Bot, conn: Connection, owned_gift_id: str, star_count: int, keep: bool) -> None:
    """upgradeGift: a gift that can be upgraded becomes unique; unless its upgrade was prepaid, ``star_count`` must
    be its price, paid from the bot's Stars."""
    gift = _own(t, conn, owned_gift_id)
    if gift.unique is not None:
        raise bad_request(errors.STARGIFT_ALREADY_UPGRADED)
    price = int(gift.gift.get("upgrade_star_count", 0))
    if not price:
        raise bad_request(errors.STARGIFT_UPGRADE_UNAVAILABLE)
    if not gift.prepaid_upgrade:
        if star_count != price:
            raise bad_request(errors.STARS_AMOUNT_INVALID)
        if t.world.payments.balance(bot.id) < price:
            raise bad_request(errors.BALANCE_TOO_LOW)
        partner = {"type": "user", "transaction_type": "gift_upgrade_purchase", "user": conn.owner.json()}
        entry = {"id": t.world.payments.transaction_id(), "amount": price, "date": t.unix_now(), "receiver": partner}
        t.world.payments.record(bot.id, -price, entry)
    number = sum(1 for g in t.world.business.owned.values() if g.unique is not None) + UNIQUE_NUMBER_BASE
    emoji = gift.gift["sticker"].get("emoji", "")
    gift.unique = {
        "gift_id": gift.gift["id"],
        "base_name": f"Gift {emoji}".strip(),
        "name": f"Gift-{number}",
        "number": number,
        "model": {"name": "Original", "sticker": gift.gift["sticker"], "rarity_per_mille": 0},
        "symbol": {"name": "Star", "sticker": gift.gift["sticker"], "rarity_per_mille": 0},
        "backdrop": {
            "name": "Blue",
            "colors": {
                "center_color": 0x5B9BD5,
                "edge_color": 0x2E75B6,
                "symbol_color": 0xFFFFFF,
                "text_color": 0xFFFFFF,
            },
            "rarity_per_mille": 0,
        },
    }
    if not keep:
        gift.text, gift.entities = "", []


def transfer(t: Telegram, bot: Bot, conn: Connection, owned_gift_id: str, new_owner_id: int, star_count: int) -> None:
    """transferGift: a unique gift of the account goes to another person or chat the stand knows (``chat not
    found``); a paid transfer's ``star_count`` comes from the bot's Stars."""
    gift = _own(t, conn, owned_gift_id)
    if gift.unique is None:
        raise bad_request(errors.STARGIFT_NOT_UNIQUE)
    if new_owner_id not in t.world.users and new_owner_id not in t.world.chats:
        raise bad_request(errors.CHAT_NOT_FOUND)
    if star_count:
        if t.world.payments.balance(bot.id) < star_count:
            raise bad_request(errors.BALANCE_TOO_LOW)
        partner = {"type": "user", "transaction_type": "gift_transfer", "user": conn.owner.json()}
        entry = {
            "id": t.world.payments.transaction_id(),
            "amount": star_count,
            "date": t.unix_now(),
            "receiver": partner,
        }
        t.world.payments.record(bot.id, -star_count, entry)
    gift.owner_id = new_owner_id
    gift.sender = conn.owner
    gift.date = t.unix_now()


def managing(t: Telegram, bot: Bot, connection_id: str, right: str) -> Connection:
    return business.managed(t, bot, connection_id, right)
