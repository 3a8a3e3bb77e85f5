"""Every method's parameters (``schema.json``) and the checks the real server makes before any method logic.

``schema.json`` is generated from aiogram by ``python -m tools.gen_botapi_schema``: names, Telegram types,
required flags and enums. The checks are ported from tdlib/telegram-bot-api ``telegram-bot-api/Client.cpp``
(v10.0, commit 01a3679): each ``process_<method>_query`` reads a few parameters synchronously with the helpers
``get_user_id`` (``invalid user_id specified``), ``get_required_string_arg`` (``parameter "x" is required``),
``get_input_file`` (``there is no photo in the request``), ``get_location``, ``get_message_ids``, and then names the
chat (``check_chat``: ``chat_id is empty``), before it asks TDLib anything. ``PRECHECKS`` lists those reads per
method in the server's order. Everything else the server reads leniently (an ill-formed Integer reads as 0, a
Boolean is true only for true/yes/1), so it is the methods' logic, not a generic type check, that refuses it.

Where a served method's existing refusals are pinned by the stand's tests, its entry keeps them winning: a
method's handler still makes its own checks after these (``sendChatAction`` checks its action itself).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tgfake import errors
from tgfake.errors import bad_request
from tgfake.params import Params, loads, to_integer

SCHEMA_PATH = Path(__file__).with_name("schema.json")


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: str
    required: bool
    enum: tuple[str, ...] | None = None
    deprecated: bool = False


@dataclass(frozen=True, slots=True)
class Method:
    name: str
    family: str
    issue: str
    returns: str
    params: tuple[Param, ...]

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


@cache
def load() -> tuple[dict[str, str], dict[str, Method]]:
    """The schema's source (aiogram version, Bot API version) and its methods by lower-cased name (read once)."""
    raw: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    methods = {
        name.lower(): Method(
            name=name,
            family=entry["family"],
            issue=entry["issue"],
            returns=entry["returns"],
            params=tuple(
                Param(
                    name=p["name"],
                    type=p["type"],
                    required=p["required"],
                    enum=tuple(p["enum"]) if "enum" in p else None,
                    deprecated=p.get("deprecated", False),
                )
                for p in entry["params"]
            ),
        )
        for name, entry in raw["methods"].items()
    }
    return dict(raw["source"]), methods


def methods() -> dict[str, Method]:
    return load()[1]


def method(name: str) -> Method | None:
    """The Bot API method called ``name`` (any letter case), or None for a name Telegram does not have."""
    return methods().get(name.lower())


# --- the reading helpers of Client.cpp, as predicates (td::to_integer is tgfake.params.to_integer) ------------
def _is_integer(text: str) -> bool:
    """``td::to_integer_safe`` succeeds: the whole text is an optionally signed base-10 integer in range."""
    body = text[1:] if text[:1] == "-" else text
    return body.isascii() and body.isdigit() and -(2**63) <= int(text) < 2**63


@dataclass(frozen=True, slots=True)
class Check:
    """One parameter read: ``refuses(params)`` gives the description the server answers with, or None."""

    param: str
    refuses: Callable[[Params], str | None]


def chat(param: str = "chat_id") -> Check:
    """``check_chat``: an empty chat is refused here; which chats exist is the method's business."""
    return Check(param, lambda p: f"Bad Request: {param} is empty" if not p.text(param) else None)


def required(param: str) -> Check:
    """``get_required_string_arg``."""
    return Check(param, lambda p: None if p.text(param) else errors.PARAMETER_REQUIRED.format(name=param))


def text(param: str = "text") -> Check:
    """``get_input_message_text``: only the empty string is refused (whitespace is text)."""
    return Check(param, lambda p: None if p.text(param) else errors.TEXT_EMPTY)


def user(param: str = "user_id") -> Check:
    """``get_user_id``: garbage reads as 0, and 0 or less is refused."""
    return Check(param, lambda p: None if to_integer(p.text(param)) > 0 else errors.INVALID_ID.format(name=param))


def user_if_given(param: str = "user_id") -> Check:
    """``get_user_id`` read only when the parameter is there (the reaction removals take ``actor_chat_id`` else)."""
    return Check(
        param,
        lambda p: None if not p.text(param) or to_integer(p.text(param)) > 0 else errors.INVALID_ID.format(name=param),
    )


def upload(param: str, what: str = "") -> Check:
    """``get_input_file``: neither a file part nor a (file id or URL) string."""

    def refuses(p: Params) -> str | None:
        return None if param in p.files or p.text(param) else errors.NO_FILE.format(what=what or param)

    return Check(param, refuses)


def coordinate(param: str) -> Check:
    """``get_location``: latitude and longitude are trimmed, then must not be empty."""
    return Check(param, lambda p: None if p.text(param).strip() else errors.COORDINATE_EMPTY.format(name=param))


def _integer_chat(param: str, empty: str, bad: str) -> Check:
    def refuses(p: Params) -> str | None:
        value = p.text(param)
        if not value:
            return empty
        return None if _is_integer(value) else bad

    return Check(param, refuses)


def sender_chat(param: str) -> Check:
    """``check_chat_no_fail``: words of its own (it says sender_chat_id whatever the parameter is called)."""
    return _integer_chat(param, errors.SENDER_CHAT_ID_EMPTY, errors.SENDER_CHAT_ID_BAD)


def business_chat(param: str = "chat_id") -> Check:
    """``get_business_connection_chat_id``: the chat of a business connection must be a plain Integer."""
    return _integer_chat(param, errors.CHAT_IDENTIFIER_EMPTY, errors.CHAT_IDENTIFIER_BAD)


def message_ids(param: str = "message_ids") -> Check:
    """``get_message_ids``: present, JSON, an array (its items are the method's business)."""

    def refuses(p: Params) -> str | None:
        raw = p.text(param)
        if not raw:
            return errors.MESSAGE_IDS_EMPTY
        try:
            value = loads(raw)
        except ValueError:
            return errors.MESSAGE_IDS_BAD.format(name=param)
        return None if isinstance(value, list) else errors.MESSAGE_IDS_NOT_ARRAY

    return Check(param, refuses)


_C = (chat(),)
_U = (user(),)
_UC = (user(), chat())

# Method (lower-cased, as the server keys them) -> its up-front reads in Client.cpp's order. Methods absent here
# read nothing up front that can fail, or only through JSON objects their own logic parses.
PRECHECKS: dict[str, tuple[Check, ...]] = {
    # messages: the content is read before the chat (do_send_message names the chat last)
    "sendmessage": (text(), chat()),
    "sendanimation": (upload("animation"), chat()),
    "sendaudio": (upload("audio"), chat()),
    "senddocument": (upload("document"), chat()),
    "sendphoto": (upload("photo"), chat()),
    "senddice": _C,
    "sendlivephoto": (upload("live_photo", "live photo"), upload("photo"), chat()),
    "sendsticker": (upload("sticker"), chat()),
    "sendvideo": (upload("video"), chat()),
    "sendvideonote": (upload("video_note", "video note"), chat()),
    "sendvoice": (upload("voice"), chat()),
    "sendpaidmedia": _C,
    "sendgame": (required("game_short_name"), chat()),
    "sendlocation": (coordinate("latitude"), coordinate("longitude"), chat()),
    "sendvenue": (coordinate("latitude"), coordinate("longitude"), chat()),
    "sendcontact": (required("phone_number"), required("first_name"), chat()),
    "sendpoll": _C,
    "sendmediagroup": _C,
    "copymessage": (required("from_chat_id"), chat()),
    "copymessages": (required("from_chat_id"), message_ids(), chat()),
    "forwardmessage": (required("from_chat_id"), chat()),
    "forwardmessages": (required("from_chat_id"), message_ids(), chat()),
    "deletemessages": (message_ids(), chat()),
    "setmessagereaction": _C,
    "deletemessagereaction": (user_if_given(), chat()),
    "deleteallmessagereactions": (user_if_given(), chat()),
    "editmessagelivelocation": (coordinate("latitude"), coordinate("longitude")),
    # users
    "getuserprofilephotos": _U,
    "getuserprofileaudios": _U,
    "setuseremojistatus": _U,
    "getuserpersonalchatmessages": _U,
    "setpassportdataerrors": _U,
    "savepreparedinlinemessage": _U,
    "savepreparedkeyboardbutton": _U,
    "setgamescore": _U,
    "getgamehighscores": _U,
    # payments and gifts
    "refundstarpayment": (user(), required("telegram_payment_charge_id")),
    "edituserstarsubscription": _U,
    "giftpremiumsubscription": _U,
    "getusergifts": _U,
    "getchatgifts": _C,
    "transfergift": (business_chat("new_owner_chat_id"),),
    # business connections and stories
    "setbusinessaccountname": (required("first_name"),),
    "deletebusinessmessages": (message_ids(),),
    "readbusinessmessage": (business_chat(),),
    "repoststory": (required("from_chat_id"),),
    # verification and managed bots
    "verifyuser": _U,
    "verifychat": _C,
    "removeuserverification": _U,
    "removechatverification": (sender_chat("chat_id"),),
    "getmanagedbottoken": _U,
    "replacemanagedbottoken": _U,
    "getmanagedbotaccesssettings": _U,
    "setmanagedbotaccesssettings": _U,
    # chats, members, invite links, topics
    "getchat": _C,
    "leavechat": _C,
    "setchatphoto": (upload("photo"), chat()),
    "deletechatphoto": _C,
    "setchattitle": _C,
    "setchatdescription": _C,
    "setchatpermissions": _C,
    "setchatstickerset": _C,
    "deletechatstickerset": _C,
    "pinchatmessage": _C,
    "unpinchatmessage": _C,
    "unpinallchatmessages": _C,
    "getchatadministrators": _C,
    "getchatmembercount": _C,
    "getchatmember": _UC,
    "promotechatmember": _UC,
    "setchatadministratorcustomtitle": _UC,
    "setchatmembertag": _UC,
    "banchatmember": _UC,
    "restrictchatmember": _UC,
    "unbanchatmember": _UC,
    "banchatsenderchat": (chat(), sender_chat("sender_chat_id")),
    "unbanchatsenderchat": (chat(), sender_chat("sender_chat_id")),
    "approvechatjoinrequest": _UC,
    "declinechatjoinrequest": _UC,
    "getuserchatboosts": _UC,
    "exportchatinvitelink": _C,
    "createchatinvitelink": _C,
    "createchatsubscriptioninvitelink": _C,
    "editchatinvitelink": _C,
    "editchatsubscriptioninvitelink": _C,
    "revokechatinvitelink": _C,
    "approvesuggestedpost": _C,
    "declinesuggestedpost": _C,
    "createforumtopic": _C,
    "editforumtopic": _C,
    "closeforumtopic": _C,
    "reopenforumtopic": _C,
    "deleteforumtopic": _C,
    "unpinallforumtopicmessages": _C,
    "editgeneralforumtopic": _C,
    "closegeneralforumtopic": _C,
    "reopengeneralforumtopic": _C,
    "hidegeneralforumtopic": _C,
    "unhidegeneralforumtopic": _C,
    "unpinallgeneralforumtopicmessages": _C,
    # stickers
    "getcustomemojistickers": (required("custom_emoji_ids"),),
    "uploadstickerfile": _U,
    "createnewstickerset": _U,
    "addstickertoset": _U,
    "replacestickerinset": _U,
    "setstickersetthumbnail": _U,
}


def check(method_name: str, p: Params) -> None:
    """Refuse the call as the real server does before any method logic; the first failing read wins."""
    for step in PRECHECKS.get(method_name.lower(), ()):
        problem = step.refuses(p)
        if problem is not None:
            raise bad_request(problem)
