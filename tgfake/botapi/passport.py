"""setPassportDataErrors: the errors are checked as telegram-bot-api reads them and kept for the person.

Ported from ``get_passport_element_errors`` / ``get_passport_element_error`` / ``get_passport_element_error_source``
(Client.cpp): a JSON array of objects with a known ``type``, a ``message`` and a ``source`` whose hashes are base64;
then ``check_user``. The errors are not matched against what a person shared (``POST /sim/passport``,
tgfake/world/passport.py): they are only kept (``World.grants.passport_errors``) and the answer is True, as
Telegram's is.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

from tgfake import errors
from tgfake.botapi import fields
from tgfake.botapi.absent import known_user
from tgfake.botapi.fields import FieldError
from tgfake.botapi.registry import bot_method
from tgfake.errors import bad_request
from tgfake.params import Params, loads

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall

ELEMENT_TYPES = frozenset(
    (
        "personal_details",
        "passport",
        "driver_license",
        "identity_card",
        "internal_passport",
        "address",
        "utility_bill",
        "bank_statement",
        "rental_agreement",
        "passport_registration",
        "temporary_registration",
        "phone_number",
        "email",
    )
)
ONE_FILE = frozenset(("file", "selfie", "translation_file", "front_side", "reverse_side"))
MANY_FILES = frozenset(("files", "translation_files"))


def _hash(value: str) -> str:
    """``get_passport_element_hash``: td::is_base64, which takes only the canonical encoding (padded to a multiple of
    4, the unused bits of the last character zero), so it is exactly what re-encodes to itself."""
    try:
        canonical = base64.b64encode(base64.b64decode(value, validate=True)).decode() == value
    except ValueError:
        canonical = False
    if not canonical:
        raise FieldError("hash isn't a valid base64-encoded string")
    return value


def _source(obj: dict[str, Any]) -> dict[str, Any]:
    source = fields.optional_string(obj, "source")
    if source in ("", "unspecified"):
        return {"source": "unspecified", "element_hash": _hash(fields.required_string(obj, "element_hash"))}
    if source == "data":
        data_hash = _hash(fields.required_string(obj, "data_hash"))
        return {"source": source, "data_hash": data_hash, "field_name": fields.required_string(obj, "field_name")}
    if source in ONE_FILE:
        return {"source": source, "file_hash": _hash(fields.required_string(obj, "file_hash"))}
    if source in MANY_FILES:
        if "file_hashes" not in obj:
            raise FieldError(errors.FIELD_MISSING.format(name="file_hashes"))
        hashes = obj["file_hashes"]
        if not isinstance(hashes, list):
            raise FieldError(errors.FIELD_NOT_ARRAY.format(name="file_hashes"))
        if any(not isinstance(h, str) for h in hashes):
            raise FieldError("hash must be a string")
        return {"source": source, "file_hashes": [_hash(h) for h in hashes]}
    raise FieldError("wrong source specified")


def _element_error(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise FieldError("expected an Object")
    element_type = fields.required_string(value, "type")
    if element_type not in ELEMENT_TYPES:
        raise FieldError("wrong Telegram Passport element type specified")
    message = fields.required_string(value, "message")
    return {"type": element_type, "message": message, **_source(value)}


def passport_errors(p: Params) -> list[dict[str, Any]]:
    """``errors`` as the server reads it: a JSON array of PassportElementError, each checked in its order."""
    try:
        value = loads(p.text("errors"))
    except ValueError:
        raise bad_request(errors.PASSPORT_ERRORS_BAD_JSON) from None
    if not isinstance(value, list):
        raise bad_request(errors.PASSPORT_ERRORS_NOT_ARRAY)
    out = []
    for item in value:
        try:
            out.append(_element_error(item))
        except FieldError as exc:
            raise bad_request(errors.PASSPORT_ERROR_PROBLEM.format(problem=exc.message)) from None
    return out


@bot_method("setPassportDataErrors")
async def set_passport_data_errors(ctx: BotCall, p: Params) -> Any:
    """Errors checked field by field, then kept for the person (the stand holds no passport data to mark)."""
    found = passport_errors(p)
    user_id = known_user(ctx, p)
    ctx.world.grants.passport_errors[(ctx.bot.id, user_id)] = found
    return True
