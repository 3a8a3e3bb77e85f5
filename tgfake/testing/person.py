"""The person's side, written once for both clients: writing, files, taps, shares, polls, edits, inline, payments."""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from typing import Any

from tgfake.testing.core import Core, Op, Req, fmt_seconds
from tgfake.testing.drivers import op
from tgfake.testing.values import POLL_GRACE, AlbumItem, ChatRef, Person, Sent, person


def _sent(chat_id: int, got: Mapping[str, Any]) -> Sent:
    return Sent(chat_id, int(got.get("update_id", 0)), message_id=int(got.get("message_id", 0)))


def _act(core: Core, /, path: str, fields: Mapping[str, Any], user: str | int | Person, chat: ChatRef) -> Op[Sent]:
    """One of the person's actions (``/sim/reply-button``...): the sender fields and the action's own."""
    chat_id, body = core.sender(user, chat)
    got = yield from core.post(path, {**body, **fields})
    core.acted_in(chat_id)
    return _sent(chat_id, got)


def _file(
    core: Core,
    /,
    kind: str,
    data: bytes | str,
    name: str,
    caption: str,
    user: str | int | Person,
    chat: ChatRef,
    mention: bool,
    reply_to: int | None,
    fields: Mapping[str, Any] | None = None,
) -> Op[Sent]:
    chat_id, body = core.sender(user, chat, mention, reply_to)
    if isinstance(data, str):  # a file the stand holds, by its id
        body[kind] = {"file_id": data}
    else:
        body[kind] = {"name": name, "data": base64.b64encode(data).decode()}
    body.update(fields or {})
    if caption:
        body["caption"] = caption
    got = yield from core.post("/sim/file", body)
    core.acted_in(chat_id)
    return Sent(chat_id, int(got["update_id"]), message_id=int(got["message_id"]), file_id=str(got["file_id"]))


def _answered(core: Core, /, query_id: str, wait: float) -> Op[dict[str, Any]]:
    core.last_inline = query_id
    q = {"inline_query_id": query_id, "timeout": fmt_seconds(wait)}
    got = yield from core.do(Req("GET", "/sim/inline", query=q, timeout=wait + POLL_GRACE))
    if not got.get("answered"):
        raise TimeoutError(f"the bot did not answer inline query {query_id} within {fmt_seconds(wait)}s")
    return dict(got)


class PersonMethods:
    """What a person does in a chat (``user`` is a name, an id or a :class:`Person`; ``chat`` an id, ``"private"``,
    ``"group"``, or None for their private chat)."""

    @op
    def send(
        core: Core,
        /,
        text: str,
        *,
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        mention: bool = False,
        reply_to: int | None = None,
    ) -> Op[Sent]:
        """A person writes ``text`` (``POST /sim/message``); ``chat="group"`` writes in the default group."""
        chat_id, body = core.sender(user, chat, mention, reply_to)
        got = yield from core.post("/sim/message", {"text": text, **body})
        core.acted_in(chat_id)
        return Sent(chat_id, int(got["update_id"]), message_id=int(got["message_id"]))

    @op
    def send_photo(
        core: Core,
        /,
        data: bytes,
        *,
        name: str = "",
        caption: str = "",
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        mention: bool = False,
        reply_to: int | None = None,
    ) -> Op[Sent]:
        """A person sends a PNG, JPEG or GIF (``POST /sim/file``); ``Sent.file_id`` names it for getFile."""
        return _file(core, "photo", data, name, caption, user, chat, mention, reply_to)

    @op
    def send_document(
        core: Core,
        /,
        data: bytes,
        *,
        name: str = "",
        caption: str = "",
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        mention: bool = False,
        reply_to: int | None = None,
    ) -> Op[Sent]:
        """A person sends any file as a document (``POST /sim/file``); its ``mime_type`` is sniffed from the bytes."""
        return _file(core, "document", data, name, caption, user, chat, mention, reply_to)

    @op
    def send_file(
        core: Core,
        /,
        kind: str,
        data: bytes | str,
        *,
        name: str = "",
        caption: str = "",
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        mention: bool = False,
        reply_to: int | None = None,
        **fields: Any,
    ) -> Op[Sent]:
        """A person sends a file of any kind (``POST /sim/file``): ``photo``, ``document``, ``video``, ``audio``,
        ``voice``, ``animation``, ``sticker`` or ``video_note``, with the kind's ``fields`` (``duration=3``,
        ``width``/``height``, ``length``, ``performer``/``title``, ``emoji``); ``Sent.file_id`` names it. ``data``
        as a ``str`` is the ``file_id`` of a file the stand holds, sent again as it is."""
        return _file(core, kind, data, name, caption, user, chat, mention, reply_to, fields)

    @op
    def send_album(
        core: Core,
        /,
        items: Sequence[AlbumItem | tuple[str, bytes]],
        *,
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        mention: bool = False,
        reply_to: int | None = None,
    ) -> Op[list[Sent]]:
        """A person sends 2-10 files as one album (``POST /sim/album``): photos and videos mix, documents and
        audio only among their own kind; one ``Sent`` per item, all with the album's ``media_group_id``."""
        chat_id, body = core.sender(user, chat, mention, reply_to)
        body["items"] = [(i if isinstance(i, AlbumItem) else AlbumItem(*i)).json() for i in items]
        got = yield from core.post("/sim/album", body)
        core.acted_in(chat_id)
        group = str(got["media_group_id"])
        return [
            Sent(chat_id, int(m["update_id"]), message_id=int(m["message_id"]), file_id=str(m["file_id"]),
                 media_group_id=group)
            for m in got["messages"]
        ]  # fmt: skip

    @op
    def set_profile(
        core: Core,
        /,
        user: str | int | Person = "alice",
        *,
        photos: Sequence[bytes] | None = None,
        audios: Sequence[bytes | AlbumItem] | None = None,
        language_code: str | None = None,
        personal_chat: int | None = None,
    ) -> Op[dict[str, Any]]:
        """A person's profile photos and audios, newest first, their app's language and the channel on their profile
        (``personal_chat``, 0 for none) (``POST /sim/profile``); None keeps what they have."""

        def part(one: bytes | AlbumItem) -> dict[str, Any]:
            item = one if isinstance(one, AlbumItem) else AlbumItem("audio", one)
            out = item.json()
            del out["type"]
            return out

        who = person(user)
        body: dict[str, Any] = {"user": who.username or who.user_id}
        if photos is not None:
            body["photos"] = [part(AlbumItem("photo", p)) for p in photos]
        if audios is not None:
            body["audios"] = [part(a) for a in audios]
        if language_code is not None:
            body["language_code"] = language_code
        if personal_chat is not None:
            body["personal_chat"] = personal_chat
        return (yield from core.post("/sim/profile", body))

    @op
    def tap(
        core: Core,
        /,
        label: str | None = None,
        *,
        user: str | int | Person = "alice",
        chat: int | None = None,
        message_id: int | None = None,
        data: str | None = None,
    ) -> Op[Sent]:
        """A person taps the button ``label`` on the newest message that has it (``POST /sim/callback``)."""
        who = person(user)
        chat_id = chat if chat is not None else (core.last_chat if core.last_chat is not None else who.user_id)
        body: dict[str, Any] = {"chat_id": chat_id, "user_id": who.user_id}
        if who.username:
            body["username"] = who.username
        if who.first_name:
            body["first_name"] = who.first_name
        if label is not None:
            body["label"] = label
        if data is not None:
            body["data"] = data
        if message_id is not None:
            body["message_id"] = message_id
        got = yield from core.post("/sim/callback", body)
        core.acted_in(chat_id)
        cbq = str(got["callback_query_id"])
        core.tapped(chat_id, cbq, int(message_id or 0))
        return Sent(chat_id, int(got["update_id"]), callback_query_id=cbq)

    @op
    def press(
        core: Core, /, label: str, *, user: str | int | Person = "alice", chat: ChatRef = None, **shares: Any
    ) -> Op[Sent]:
        """A person presses ``label`` on their reply keyboard (``POST /sim/reply-button``); ``shares`` carries
        what the button shares (``latitude``/``longitude``, ``users``, ``chat``, ``poll``, ``data``...)."""
        return _act(core, "/sim/reply-button", {"label": label, **shares}, user, chat)

    @op
    def share(core: Core, /, *, user: str | int | Person = "alice", chat: ChatRef = None, **content: Any) -> Op[Sent]:
        """A person sends a location, venue, contact, dice or poll (``POST /sim/share``), e.g.
        ``share(location={"latitude": 1.5, "longitude": 2.5})``."""
        return _act(core, "/sim/share", content, user, chat)

    @op
    def vote(
        core: Core,
        /,
        message_id: int,
        options: Sequence[int],
        *,
        user: str | int | Person = "alice",
        chat: ChatRef = None,
    ) -> Op[Sent]:
        """A person votes in the poll of ``message_id`` (``POST /sim/vote``); no options retracts the vote."""
        return _act(core, "/sim/vote", {"message_id": message_id, "options": list(options)}, user, chat)

    @op
    def edit(
        core: Core, /, message_id: int, text: str, *, user: str | int | Person = "alice", chat: ChatRef = None
    ) -> Op[Sent]:
        """A person edits their message (``POST /sim/edit``): the bots that saw it get ``edited_message``."""
        return _act(core, "/sim/edit", {"message_id": message_id, "text": text}, user, chat)

    @op
    def delete(core: Core, /, message_id: int, *, user: str | int | Person = "alice", chat: ChatRef = None) -> Op[Sent]:
        """A person deletes a message (``POST /sim/delete``)."""
        return _act(core, "/sim/delete", {"message_id": message_id}, user, chat)

    @op
    def react(
        core: Core, /, message_id: int, *emoji: str, user: str | int | Person = "alice", chat: ChatRef = None
    ) -> Op[Sent]:
        """A person sets their reactions on a message (``POST /sim/react``); none clears them."""
        return _act(core, "/sim/react", {"message_id": message_id, "emoji": list(emoji)}, user, chat)

    @op
    def forward(core: Core, /, *, user: str | int | Person = "alice", chat: ChatRef = None, **source: Any) -> Op[Sent]:
        """A person forwards a message (``POST /sim/forward``): ``from_chat_id`` + ``message_id``, or ``text`` +
        ``origin``."""
        return _act(core, "/sim/forward", source, user, chat)

    @op
    def hide_forwards(core: Core, /, user: str | int | Person = "alice", hide: bool = True) -> Op[None]:
        """The person's forward privacy (``POST /sim/privacy``): forwards of their messages name them only."""
        who = person(user)
        yield from core.post("/sim/privacy", {"user_id": who.user_id, "username": who.username, "hide_forwards": hide})

    @op
    def pay(
        core: Core,
        /,
        message_id: int | None = None,
        *,
        link: str = "",
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        bot: str | int | None = None,
        tip: int = 0,
        shipping_option_id: str = "",
        timeout: float | None = None,
        **form: Any,
    ) -> Op[dict[str, Any]]:
        """A person pays an invoice (``POST /sim/pay``): ``message_id`` in the chat (none: the newest invoice there),
        or an invoice ``link``; ``form`` is what the payment form holds (``name``, ``phone_number``, ``email``,
        ``shipping_address``). The invoice's outcome: ``{"status": "paid", ...}``, ``declined``,
        ``shipping_refused`` or ``timeout`` (with the step); ``timeout`` is how long each of the bot's answers is
        waited for. A paid media message's ``message_id`` buys it."""
        chat_id, body = core.sender(user, chat)
        if message_id is not None:
            body["message_id"] = message_id
        if link:
            body["link"] = link
        if bot is not None:
            body["bot"] = bot
        if tip:
            body["tip"] = tip
        if shipping_option_id:
            body["shipping_option_id"] = shipping_option_id
        wait = core.timeout if timeout is None else timeout
        body.update(form, timeout=wait)
        body.pop("chat_type", None)
        got = yield from core.do(Req("POST", "/sim/pay", body=body, timeout=2 * wait + 10))
        core.acted_in(chat_id)
        return dict(got)

    @op
    def inline(
        core: Core,
        /,
        query: str,
        *,
        bot: str | int | None = None,
        user: str | int | Person = "alice",
        chat: ChatRef = None,
        offset: str = "",
        wait: float | None = None,
    ) -> Op[dict[str, Any]]:
        """A person types ``@bot query`` in a chat (``POST /sim/inline``); returns the bot's answer (``results``,
        ``next_offset``...) once it comes (``GET /sim/inline``), else TimeoutError."""
        _, body = core.sender(user, chat)
        body.update({"query": query, "offset": offset})
        if bot is not None:
            body["bot"] = bot
        asked = yield from core.post("/sim/inline", body)
        return (yield from _answered(core, str(asked["inline_query_id"]), core.timeout if wait is None else wait))

    @op
    def inline_more(core: Core, /, *, wait: float | None = None) -> Op[dict[str, Any]]:
        """The person scrolls the newest inline query's results: the next page, at the answer's ``next_offset``."""
        asked = yield from core.post("/sim/inline/more", {"inline_query_id": core.last_inline})
        return (yield from _answered(core, str(asked["inline_query_id"]), core.timeout if wait is None else wait))

    @op
    def choose(core: Core, /, result_id: str) -> Op[Sent]:
        """The person picks a result of the newest inline query (``POST /sim/inline/choose``): sent via the bot."""
        got = yield from core.post("/sim/inline/choose", {"result_id": result_id, "inline_query_id": core.last_inline})
        core.acted_in(int(got["chat_id"]))
        return _sent(int(got["chat_id"]), got)
