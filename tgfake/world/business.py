"""Business accounts: a person connects a bot to their account with rights, their customers write to them, and the
bot answers and manages the account on their behalf within those rights.

Rules over the world's state (:class:`~tgfake.world.business_state.Business`). The person's side (connecting,
changing rights, disconnecting; a customer writing, editing, deleting) is called by the sim; the bot's side by
tgfake/botapi/business.py and by every send that takes ``business_connection_id`` (``send_target``). The checks
follow TDLib's ``BusinessConnectionManager::check_business_connection`` and then Telegram's server: a disabled
connection, the right the call needs, and the 24-hour window in which a bot may answer a customer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.bounds import is_valid_username
from tgfake.chats import StoredMessage, message_json
from tgfake.errors import SimError, bad_request
from tgfake.text import plain_entities
from tgfake.world.business_state import RIGHTS, BusinessChat, Connection

if TYPE_CHECKING:
    from tgfake.world.bots import Bot
    from tgfake.world.people import User
    from tgfake.world.telegram import Telegram

REPLY_WINDOW = 24 * 3600
"""A bot may answer a customer on the owner's behalf only within a day of the customer's last message."""


# --- the person's side (the sim) -----------------------------------------------------------------------------------
def connect(t: Telegram, bot: Bot, owner: User, rights: dict[str, bool]) -> tuple[Connection, int]:
    """The person connects ``bot`` to their business account (again: with new rights, enabled); the bot gets
    ``business_connection``. Returns the connection and the update id."""
    unknown = sorted(set(rights) - set(RIGHTS))
    if unknown:
        raise SimError(400, f"unknown business bot rights: {', '.join(unknown)} (known: {', '.join(RIGHTS)})")
    if owner.is_bot:
        raise SimError(400, f"@{owner.username} is a bot: only a person has a business account")
    business = t.world.business
    known = business.between(bot, owner.id)
    if known is not None:
        conn = known
        conn.rights = {name: bool(rights.get(name)) for name in RIGHTS}
        conn.enabled = True
    else:
        conn = Connection(
            id=business.mint_id(bot.id, owner.id),
            bot=bot,
            owner=owner,
            date=t.unix_now(),
            rights={name: bool(rights.get(name)) for name in RIGHTS},
        )
        business.connections[conn.id] = conn
    return conn, bot.push("business_connection", conn.json())


def disconnect(t: Telegram, bot: Bot, owner: User) -> tuple[Connection, int]:
    """The person disconnects the bot: the connection stays known, disabled, and the bot is told."""
    conn = connection_between(t, bot, owner)
    conn.enabled = False
    return conn, bot.push("business_connection", conn.json())


def connection_between(t: Telegram, bot: Bot, owner: User) -> Connection:
    known = t.world.business.between(bot, owner.id)
    if known is None:
        raise SimError(404, f"{owner.handle} has not connected @{bot.username} to a business account")
    return known


def business_chat(t: Telegram, conn: Connection, customer: User) -> BusinessChat:
    """The business chat between the owner and a customer, made on first use."""
    chat = conn.chats.get(customer.id)
    if chat is None:
        counter = t.world.business.account(conn.owner.id).messages
        chat = BusinessChat(id=customer.id, type="private", user=customer, counter=counter)
        conn.chats[customer.id] = chat
    return chat


def _customer_chat(t: Telegram, conn: Connection, customer: User) -> BusinessChat:
    if customer.id == conn.owner.id:
        raise SimError(400, f"{customer.handle} owns the business account: a customer is someone else")
    if customer.is_bot:
        raise SimError(400, f"@{customer.username} is a bot: bots do not write to business accounts")
    return business_chat(t, conn, customer)


def customer_writes(
    t: Telegram, conn: Connection, customer: User, text: str, reply_to: int = 0, *, by_owner: bool = False
) -> tuple[StoredMessage, int]:
    """A customer writes to the business account (or, ``by_owner``, the owner answers them by hand); the bot gets
    ``business_message`` while the connection is enabled. Returns the message and the update id (0: none)."""
    chat = _customer_chat(t, conn, customer)
    if reply_to and chat.live(reply_to) is None:
        raise SimError(404, f"message {reply_to} is not a live message of the business chat with {customer.handle}")
    msg = chat.add(
        StoredMessage(
            message_id=chat.mint_message_id(),
            date=t.unix_now(),
            sender=conn.owner if by_owner else customer,
            text=text,
            entities=_entities(text),
            reply_to=reply_to or None,
            extra={"business_connection_id": conn.id},
        )
    )
    if not by_owner:
        conn.heard[customer.id] = msg.date
    return msg, push(t, conn, "business_message", chat, msg)


def customer_edits(t: Telegram, conn: Connection, customer: User, message_id: int, text: str) -> int:
    """The customer edits their message: ``edited_business_message``."""
    chat = _customer_chat(t, conn, customer)
    msg = chat.live(message_id)
    if msg is None or msg.sender is None or msg.sender.id != customer.id:
        raise SimError(404, f"{customer.handle} has no live message {message_id} in the business chat")
    msg.text = text
    msg.entities = _entities(text)
    msg.edit_date = t.unix_now()
    return push(t, conn, "edited_business_message", chat, msg)


def customer_deletes(t: Telegram, conn: Connection, customer: User, message_ids: list[int]) -> int:
    """The customer deletes messages of the chat (theirs, or the owner's for both sides):
    ``deleted_business_messages`` with the chat and the ids."""
    chat = _customer_chat(t, conn, customer)
    gone = [mid for mid in message_ids if chat.live(mid) is not None]
    if not gone:
        raise SimError(404, f"none of {message_ids} is a live message of the business chat with {customer.handle}")
    for mid in gone:
        chat.messages[mid].deleted = True
    if not conn.enabled:
        return 0
    return conn.bot.push(
        "deleted_business_messages", {"business_connection_id": conn.id, "chat": chat.json(), "message_ids": gone}
    )


def push(t: Telegram, conn: Connection, kind: str, chat: BusinessChat, msg: StoredMessage) -> int:
    """Queue a business update for the connected bot, unless the person disabled the connection."""
    if not conn.enabled:
        return 0
    return conn.bot.push(kind, message_json(chat, msg))


def _entities(text: str) -> list[dict[str, Any]]:
    return [e.json() for e in plain_entities(text)]


# --- the bot's side -----------------------------------------------------------------------------------------------
def connection_of(t: Telegram, bot: Bot, connection_id: str) -> Connection:
    """``check_business_connection``: the bot's own connection by id, else ``business connection not found``."""
    conn = t.world.business.connections.get(connection_id)
    if conn is None or conn.bot is not bot:
        raise bad_request(errors.BUSINESS_CONNECTION_NOT_FOUND)
    return conn


def business_chat_id(text: str) -> int:
    """``get_business_connection_chat_id``: the chat beside a connection is a plain Integer."""
    if not text:
        raise bad_request(errors.CHAT_IDENTIFIER_EMPTY)
    body = text[1:] if text[:1] == "-" else text  # td::to_integer_safe: no blanks, no plus sign
    if not (body.isascii() and body.isdigit() and -(2**63) <= int(text) < 2**63):
        raise bad_request(errors.CHAT_IDENTIFIER_BAD)
    return int(text)


def require(conn: Connection, right: str) -> None:
    """The server's checks of a call through a connection: enabled, and with the right the call needs."""
    if not conn.enabled:
        raise bad_request(errors.BUSINESS_CONNECTION_INVALID)
    if not conn.can(right):
        raise bad_request(errors.BOT_ACCESS_FORBIDDEN)


def chat_of(t: Telegram, conn: Connection, chat_id: int) -> BusinessChat:
    """TDLib's checks of the chat (private, not the owner), then the business chat with that person (made if the
    stand knows them: the owner may have chats the sim never showed)."""
    if chat_id <= 0:
        raise bad_request(errors.BUSINESS_CHAT_NOT_PRIVATE)
    if chat_id == conn.owner.id:
        raise bad_request(errors.BUSINESS_SEND_TO_SELF)
    chat = conn.chats.get(chat_id)
    if chat is None:
        person = t.world.users.get(chat_id)
        if person is None:
            raise bad_request(errors.CHAT_NOT_FOUND)
        chat = business_chat(t, conn, person)
    return chat


def send_target(t: Telegram, bot: Bot, connection_id: str, chat_id_text: str) -> tuple[BusinessChat, dict[str, Any]]:
    """Where a send with ``business_connection_id`` goes, in Client.cpp's and TDLib's order, then the server's:
    the chat must be an Integer, the connection the bot's, the chat a customer's; the connection enabled with
    ``can_reply``; the customer must have written within 24 hours. Returns the chat and what the new message
    carries besides (its sender is the owner, :func:`sender`)."""
    chat_id = business_chat_id(chat_id_text)
    conn = connection_of(t, bot, connection_id)
    chat = chat_of(t, conn, chat_id)
    require(conn, "can_reply")
    heard = conn.heard.get(chat_id)
    if heard is None or t.unix_now() - heard > REPLY_WINDOW:
        raise bad_request(errors.BUSINESS_PEER_USAGE_MISSING)
    return chat, {"business_connection_id": conn.id, "sender_business_bot": bot.user.json()}


def action_target(t: Telegram, bot: Bot, connection_id: str, chat_id_text: str) -> BusinessChat:
    """sendChatAction through a connection: the chat and the connection as a send's, enabled with ``can_reply``."""
    chat_id = business_chat_id(chat_id_text)
    conn = connection_of(t, bot, connection_id)
    chat = chat_of(t, conn, chat_id)
    require(conn, "can_reply")
    return chat


def edit_target(
    t: Telegram, bot: Bot, connection_id: str, chat_id_text: str, message_id: int
) -> tuple[BusinessChat, StoredMessage]:
    """A message the bot sent through the connection, to edit (or stop a poll of): the chat and the connection as
    a send's (without the 24-hour window), then ``message to edit not found`` / ``message can't be edited``."""
    chat_id = business_chat_id(chat_id_text)
    conn = connection_of(t, bot, connection_id)
    chat = chat_of(t, conn, chat_id)
    require(conn, "can_reply")
    msg = chat.live(message_id)
    if msg is None:
        raise bad_request(errors.EDIT_NOT_FOUND)
    if msg.extra.get("sender_business_bot", {}).get("id") != bot.id:
        raise bad_request(errors.CANT_EDIT)
    return chat, msg


def sender(t: Telegram, message_extra: dict[str, Any]) -> User:
    """The owner a business message is sent as."""
    return t.world.business.connections[message_extra["business_connection_id"]].owner


def read_message(t: Telegram, bot: Bot, connection_id: str, chat_id_text: str, message_id: int) -> None:
    """readBusinessMessage: the customer's message is marked read (``can_read_messages``)."""
    chat_id = business_chat_id(chat_id_text)
    conn = connection_of(t, bot, connection_id)
    chat = chat_of(t, conn, chat_id)
    require(conn, "can_read_messages")
    msg = chat.live(message_id)
    if msg is None or msg.sender is None or msg.sender.id != chat_id:
        raise bad_request(errors.MESSAGE_ID_INVALID)
    conn.read[chat_id] = max(conn.read.get(chat_id, 0), message_id)


def delete_messages(t: Telegram, bot: Bot, connection_id: str, message_ids: list[int]) -> None:
    """deleteBusinessMessages: the bot's own messages need ``can_delete_sent_messages`` (or all), any other
    ``can_delete_all_messages``; ids the account does not have are skipped; either all go or none."""
    conn = connection_of(t, bot, connection_id)
    if not conn.enabled:
        raise bad_request(errors.BUSINESS_CONNECTION_INVALID)
    found = [m for m in (_find(conn, mid) for mid in message_ids) if m is not None]
    for msg in found:
        own = msg.extra.get("sender_business_bot", {}).get("id") == bot.id
        if not (conn.can("can_delete_all_messages") or (own and conn.can("can_delete_sent_messages"))):
            raise bad_request(errors.BOT_ACCESS_FORBIDDEN)
    for msg in found:
        msg.deleted = True


def _find(conn: Connection, message_id: int) -> StoredMessage | None:
    """A live message of the owner's account by id (ids are the account's, unique over its chats)."""
    for chat in conn.chats.values():
        msg = chat.live(message_id)
        if msg is not None:
            return msg
    return None


# --- the account methods ---------------------------------------------------------------------------------------------
MAX_NAME = 64  # td's clean_name keeps this many characters of a first or last name
MAX_BIO = 70  # a bio longer than this is the server's ABOUT_TOO_LONG (Premium accounts have 140)
MIN_STAR_TRANSFER, MAX_STAR_TRANSFER = 1, 10_000
MIN_NEW_USERNAME = 5  # td's is_allowed_username


def managed(t: Telegram, bot: Bot, connection_id: str, right: str) -> Connection:
    """The connection an account method acts through, checked for ``right``."""
    conn = connection_of(t, bot, connection_id)
    require(conn, right)
    return conn


def set_name(conn: Connection, first_name: str, last_name: str) -> None:
    owner = conn.owner
    owner.first_name = " ".join(first_name.split())[:MAX_NAME]
    owner.last_name = " ".join(last_name.split())[:MAX_NAME]


def set_username(t: Telegram, conn: Connection, username: str) -> None:
    """account.updateUsername: td's username rule (5 characters at least for a new one), free, and different."""
    name = username.removeprefix("@")
    owner = conn.owner
    if name and (not is_valid_username(name) or len(name) < MIN_NEW_USERNAME):
        raise bad_request(errors.USERNAME_INVALID)
    if name.lower() == owner.username.lower():
        raise bad_request(errors.USERNAME_NOT_MODIFIED)
    taken = [u for u in t.world.users.values() if u.id != owner.id and u.username.lower() == name.lower()]
    if name and (taken or any(b.username.lower() == name.lower() for b in t.bots.values())):
        raise bad_request(errors.USERNAME_OCCUPIED)
    owner.username = name


def set_bio(t: Telegram, conn: Connection, bio: str) -> None:
    if len(bio) > MAX_BIO:
        raise bad_request(errors.ABOUT_TOO_LONG)
    t.world.business.account(conn.owner.id).bio = bio


def set_photo(t: Telegram, conn: Connection, photo: dict[str, Any] | None, *, public: bool) -> None:
    account = t.world.business.account(conn.owner.id)
    if public:
        account.public_photo = photo
    else:
        account.photo = photo


def set_gift_settings(t: Telegram, conn: Connection, show_gift_button: bool, accepted: dict[str, bool]) -> None:
    account = t.world.business.account(conn.owner.id)
    account.gift_settings = {"show_gift_button": show_gift_button, "accepted_gift_types": accepted}


def star_balance(t: Telegram, conn: Connection) -> int:
    return t.world.business.account(conn.owner.id).stars


def transfer_stars(t: Telegram, bot: Bot, conn: Connection, star_count: int) -> None:
    """Stars from the account to the bot's balance: 1 to 10000, no more than the account has; the bot's
    getStarTransactions shows it from the person (``business_account_transfer``)."""
    if not MIN_STAR_TRANSFER <= star_count <= MAX_STAR_TRANSFER:
        raise bad_request(errors.STARS_AMOUNT_INVALID)
    account = t.world.business.account(conn.owner.id)
    if star_count > account.stars:
        raise bad_request(errors.BALANCE_TOO_LOW)
    account.stars -= star_count
    payments = t.world.payments
    source = {"type": "user", "transaction_type": "business_account_transfer", "user": conn.owner.json()}
    entry = {"id": payments.transaction_id(), "amount": star_count, "date": t.unix_now(), "source": source}
    payments.record(bot.id, star_count, entry)
