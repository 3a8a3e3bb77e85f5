"""The world's side, written once for both clients: groups and channels, who is in them, bots, any sim route."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tgfake.testing.core import Core, Op, Req
from tgfake.testing.drivers import op
from tgfake.testing.values import AlbumItem, Person


@dataclass(frozen=True, slots=True)
class ChatInfo:
    """A group, supergroup or channel as the stand answers it (``POST /sim/chats`` and the membership routes)."""

    id: int
    type: str
    title: str = ""
    username: str = ""
    is_forum: bool = False
    members: tuple[Mapping[str, Any], ...] = ()
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> ChatInfo:
        return cls(
            id=int(raw.get("id") or raw.get("chat_id") or 0),  # a created chat's, or the chat view's
            type=str(raw.get("type", "")),
            title=str(raw.get("title") or ""),
            username=str(raw.get("username") or ""),
            is_forum=bool(raw.get("is_forum")),
            members=tuple(raw.get("members") or ()),
            raw=raw,
        )

    def status_of(self, who: str | int) -> str:
        """A member's status (``creator``, ``administrator``, ``member``, ``restricted``, ``left``, ``kicked``) by
        id, username or first name; ``""`` for someone the chat has never had."""
        key = who.lstrip("@").lower() if isinstance(who, str) else who
        for m in self.members:
            names = {str(m.get(k) or "").lower() for k in ("username", "first_name", "name")} - {""}
            if key in (m.get("user_id"), m.get("id")) or key in names:
                return str(m.get("status") or "")
        return ""


@dataclass(frozen=True, slots=True)
class Membership:
    """What a membership change left: the account's ``status`` in the chat, and the chat."""

    status: str
    chat: ChatInfo


@dataclass(frozen=True, slots=True)
class BotInfo:
    """A bot made with ``add_bot`` (``POST /sim/bots``): its id, username and the token to start it with."""

    id: int
    username: str
    token: str
    first_name: str = ""
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class BulkWorld:
    """What ``build_world`` made (``POST /sim/world/bulk``): the new people's ids, each new group's id with its
    members' ids (owner first), and how long the stand took."""

    people: tuple[int, ...]
    groups: Mapping[int, tuple[int, ...]]
    ms: float


Account = str | int | Person
"""A person (a name, an id, a :class:`Person`) or a bot (its ``@username`` or id)."""

ChatArg = int | ChatInfo


def _ref(who: Account) -> str | int:
    if isinstance(who, Person):
        return who.username or who.user_id
    return who


def _chat_id(chat: ChatArg) -> int:
    return chat.id if isinstance(chat, ChatInfo) else chat


def _member(core: Core, chat: ChatArg, verb: str, who: Account, by: Account | None, **fields: Any) -> Op[Membership]:
    body: dict[str, Any] = {"user": _ref(who), **{k: v for k, v in fields.items() if v not in (None, "", 0, {})}}
    if by is not None:
        body["by"] = _ref(by)
    got = yield from core.post(f"/sim/chats/{_chat_id(chat)}/{verb}", body)
    core.acted_in(_chat_id(chat))  # the bot's answer to a join, a ban... is read there
    return Membership(str(got.get("status", "")), ChatInfo.from_json(got.get("chat") or {}))


def _path(path: str) -> str:
    """``/sim/chats``, ``sim/chats`` and ``chats`` all name ``/sim/chats``."""
    path = "/" + path.lstrip("/")
    return path if path.startswith("/sim/") else "/sim" + path


class WorldMethods:
    """Groups, channels and forums, who is in them and with which rights, the stand's bots, and any sim route."""

    @op
    def create_chat(
        core: Core,
        /,
        title: str = "",
        *,
        type: str = "supergroup",  # the sim's and the Bot API's name
        members: Sequence[Account] = (),
        admins: Sequence[Account] = (),
        creator: Account = "alice",
        forum: bool = False,
        username: str = "",
        id: int = 0,
        description: str = "",
        join_by_request: bool = False,
        linked_chat_id: int = 0,
    ) -> Op[ChatInfo]:
        """A ``group``, ``supergroup`` (``forum=True``: a forum) or ``channel`` (``POST /sim/chats``), made by
        ``creator``, with ``members`` and ``admins`` in it (people by name or id, bots by ``@username``); a public
        one has a ``username``. Bots put in it get ``my_chat_member``."""
        body: dict[str, Any] = {"type": type, "title": title, "creator": _ref(creator)}
        body["members"] = [_ref(m) for m in members]
        body["admins"] = [_ref(a) for a in admins]
        for key, value in (
            ("is_forum", forum),
            ("username", username),
            ("id", id),
            ("description", description),
            ("join_by_request", join_by_request),
            ("linked_chat_id", linked_chat_id),
        ):
            if value:
                body[key] = value
        got = yield from core.post("/sim/chats", body)
        return ChatInfo.from_json(got["chat"])

    @op
    def chat_info(core: Core, /, chat: ChatArg | None = None) -> Op[ChatInfo]:
        """A group's or channel's state now (``GET /sim/chat/{id}``): its members and their status."""
        view = yield from core.chat(None if chat is None else _chat_id(chat))
        return ChatInfo.from_json(view)

    @op
    def join(core: Core, /, chat: ChatArg, *, user: Account = "alice", invite_link: str = "") -> Op[Membership]:
        """A person (or a bot) joins a chat (``POST /sim/chats/{id}/join``), by an ``invite_link`` if given."""
        return _member(core, chat, "join", user, None, invite_link=invite_link)

    @op
    def leave(core: Core, /, chat: ChatArg, *, user: Account = "alice") -> Op[Membership]:
        """A member leaves the chat (``POST /sim/chats/{id}/leave``)."""
        return _member(core, chat, "leave", user, None)

    @op
    def add(core: Core, /, chat: ChatArg, who: Account, *, by: Account | None = None) -> Op[Membership]:
        """``by`` (the owner when None) adds a person or a bot to the chat (``POST /sim/chats/{id}/add``)."""
        return _member(core, chat, "add", who, by)

    @op
    def ban(
        core: Core, /, chat: ChatArg, who: Account, *, by: Account | None = None, until_date: int = 0
    ) -> Op[Membership]:
        """``by`` (the owner when None) bans a member (``POST /sim/chats/{id}/remove``), until ``until_date``."""
        return _member(core, chat, "remove", who, by, until_date=until_date)

    @op
    def remove(core: Core, /, chat: ChatArg, who: Account, *, by: Account | None = None) -> Op[Membership]:
        """``by`` removes a member who may come back (``POST /sim/chats/{id}/remove`` with ``ban`` false)."""
        body: dict[str, Any] = {"user": _ref(who), "ban": False}
        if by is not None:
            body["by"] = _ref(by)
        got = yield from core.post(f"/sim/chats/{_chat_id(chat)}/remove", body)
        core.acted_in(_chat_id(chat))
        return Membership(str(got.get("status", "")), ChatInfo.from_json(got.get("chat") or {}))

    @op
    def promote(
        core: Core, /, chat: ChatArg, who: Account, *, by: Account | None = None, title: str = "", **rights: bool
    ) -> Op[Membership]:
        """``by`` makes a member an administrator with ``rights`` (``can_delete_messages=True``...) and a custom
        ``title`` (``POST /sim/chats/{id}/promote``)."""
        return _member(core, chat, "promote", who, by, rights=rights, custom_title=title)

    @op
    def demote(core: Core, /, chat: ChatArg, who: Account, *, by: Account | None = None) -> Op[Membership]:
        """``by`` makes an administrator a plain member again (``POST /sim/chats/{id}/demote``)."""
        return _member(core, chat, "demote", who, by)

    @op
    def restrict(
        core: Core,
        /,
        chat: ChatArg,
        who: Account,
        *,
        by: Account | None = None,
        until_date: int = 0,
        **permissions: bool,
    ) -> Op[Membership]:
        """``by`` restricts a member of a supergroup to ``permissions`` (``can_send_messages=False``...) until
        ``until_date`` (``POST /sim/chats/{id}/restrict``)."""
        return _member(core, chat, "restrict", who, by, permissions=permissions, until_date=until_date)

    @op
    def build_world(
        core: Core,
        /,
        people: int,
        groups: int = 0,
        *,
        members: int = 10,
        chat_type: str = "supergroup",
        bot_admin: bool = True,
        seed: int = 1,
    ) -> Op[BulkWorld]:
        """Many people and groups at once, the bot in every group (``POST /sim/world/bulk``); nothing announced."""
        body = {"people": people, "groups": groups, "members": members, "chat_type": chat_type}
        got = yield from core.post("/sim/world/bulk", {**body, "bot_admin": bot_admin, "seed": seed})
        made = {int(g["id"]): tuple(int(m) for m in g["members"]) for g in got["groups"]}
        return BulkWorld(tuple(int(p) for p in got["people"]), made, float(got["ms"]))

    @op
    def add_bot(
        core: Core,
        /,
        username: str = "",
        *,
        first_name: str = "",
        token: str = "",
        id: int = 0,
        can_join_groups: bool = True,
        can_read_all_group_messages: bool = False,
        supports_inline_queries: bool = False,
        inline_feedback: int = 0,
    ) -> Op[BotInfo]:
        """Another bot on the stand, as BotFather makes it (``POST /sim/bots``): ``can_join_groups``
        (``/setjoingroups``), ``can_read_all_group_messages`` (``/setprivacy`` off), ``supports_inline_queries``
        (``/setinline``), ``inline_feedback`` (a percentage). Start its process with the answered ``token``."""
        body: dict[str, Any] = {
            "can_join_groups": can_join_groups,
            "can_read_all_group_messages": can_read_all_group_messages,
            "supports_inline_queries": supports_inline_queries,
            "inline_feedback": inline_feedback,
        }
        for key, value in (("username", username), ("first_name", first_name), ("token", token), ("id", id)):
            if value:
                body[key] = value
        got = yield from core.post("/sim/bots", body)
        me = got["bot"]
        return BotInfo(int(me["id"]), str(me["username"]), str(got["token"]), str(me.get("first_name") or ""), got)

    @op
    def make_game(
        core: Core,
        /,
        short_name: str,
        title: str,
        description: str,
        photo: bytes,
        *,
        animation: bytes | None = None,
        bot: str | int | None = None,
    ) -> Op[dict[str, Any]]:
        """BotFather's ``/newgame`` for a bot (the stand's bot if none; ``POST /sim/bots/{bot}/games``): sendGame of
        ``short_name`` then shows this title, description, photo (PNG, JPEG or GIF) and animation (GIF or MP4)."""
        if bot is None:
            state = yield from core.do(Req("GET", "/sim/state"))
            bot = state["bot"]["id"]
        body: dict[str, Any] = {"short_name": short_name, "title": title, "description": description}
        body["photo"] = {k: v for k, v in AlbumItem("photo", photo, "photo").json().items() if k != "type"}
        if animation is not None:
            body["animation"] = {k: v for k, v in AlbumItem("animation", animation, "animation").json().items()
                                 if k != "type"}  # fmt: skip
        return (yield from core.post(f"/sim/bots/{bot}/games", body))

    @op
    def inline_mode(
        core: Core, /, enabled: bool = True, *, feedback: int = 0, bot: str | int | None = None
    ) -> Op[dict[str, Any]]:
        """BotFather's ``/setinline`` and ``/setinlinefeedback`` for a bot (the stand's bot if none;
        ``POST /sim/bots/{bot}/inline``)."""
        if bot is None:
            state = yield from core.do(Req("GET", "/sim/state"))
            bot = state["bot"]["id"]
        return (yield from core.post(f"/sim/bots/{bot}/inline", {"enabled": enabled, "feedback": feedback}))

    @op
    def sim(
        core: Core,
        /,
        verb: str,
        path: str,
        body: Any = None,
        *,
        query: Mapping[str, str] | None = None,
        accept: Sequence[int] = (200,),
        timeout: float = 30.0,
    ) -> Op[Any]:
        """Any sim route: ``sim("POST", "/sim/chats/-1001/join-request", {"user": "bob"})`` (``chats/...`` is
        read as ``/sim/chats/...``). The answer's JSON (text when it is not JSON); a status outside ``accept`` raises
        :class:`SimAPIError` with the stand's words."""
        req = Req(verb.upper(), _path(path), query=query, body=body, accept=tuple(accept), timeout=timeout, text=True)
        text = yield from core.do(req)
        try:
            return json.loads(text)
        except ValueError:
            return text
