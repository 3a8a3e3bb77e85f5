"""Every Telegram error description the stand answers with, and the two exception types that carry them.

Descriptions are copied from what Telegram answers (see docs/bot-api.md); keep them word for word.
"""

from __future__ import annotations

# --- generic -------------------------------------------------------------------------------------------------
NOT_FOUND = "Not Found"
METHOD_NOT_FOUND = "Not Found: method not found"
UNAUTHORIZED = "Unauthorized"
BAD_REQUEST = "Bad Request"
FORBIDDEN_BLOCKED = "Forbidden: bot was blocked by the user"
BAD_GATEWAY = "Bad Gateway"
INTERNAL = "Internal Server Error"
TOO_MANY = "Too Many Requests"
STRINGS_NOT_UTF8 = "Bad Request: strings must be encoded in UTF-8"  # td's check of every string it uses
HEADERS_TOO_LARGE = "Request Header Fields Too Large: total headers size exceeded"  # td's HttpReader, 431
WRONG_REQUEST_LINE = "Bad Request: wrong request line"  # td's HttpReader

# --- chats and messages ----------------------------------------------------------------------------------------
CHAT_ID_EMPTY = "Bad Request: chat_id is empty"
TEXT_EMPTY = "Bad Request: message text is empty"
TEXT_TOO_LONG = "Bad Request: message is too long"
CAPTION_TOO_LONG = "Bad Request: message caption is too long"
EDIT_NOT_FOUND = "Bad Request: message to edit not found"
CANT_EDIT = "Bad Request: message can't be edited"
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
DELETE_NOT_FOUND = "Bad Request: message to delete not found"
REPLY_NOT_FOUND = "Bad Request: message to be replied not found"
REPLY_PARAMS_BAD = "Bad Request: can't parse reply parameters JSON object"

# --- keyboards ---------------------------------------------------------------------------------------------------
KEYBOARD_NOT_ARRAY = 'Bad Request: Field "inline_keyboard" must be of type Array'
TEXT_BUTTONS = "Bad Request: Text buttons are not allowed in the inline keyboard"
BUTTON_TYPE_INVALID = "Bad Request: BUTTON_TYPE_INVALID"
BUTTON_DATA_INVALID = "Bad Request: BUTTON_DATA_INVALID"
BUTTON_WEB_APP_URL = "Bad Request: inline keyboard button {problem}"
BUTTON_URL_INVALID = "Bad Request: inline keyboard button URL '{url}' is invalid: {reason}"  # td's check_link
BUTTON_NOT_OBJECT = "Bad Request: can't parse inline keyboard button: InlineKeyboardButton must be an Object"

# --- updates, commands, callbacks ----------------------------------------------------------------------------------
CONFLICT_POLLS = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"
)
ALLOWED_UPDATES_BAD = "Bad Request: can't parse allowed_updates JSON array"
COMMANDS_BAD = "Bad Request: can't parse commands JSON object"
CALLBACK_ID_EMPTY = "Bad Request: callback_query_id is empty"
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"

# --- webhooks ------------------------------------------------------------------------------------------------------
CONFLICT_WEBHOOK = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"
)
CONFLICT_SET_WEBHOOK = "Conflict: terminated by setWebhook request"
WEBHOOK_URL_INVALID = "Bad Request: invalid webhook URL specified"
BAD_WEBHOOK = "Bad Request: bad webhook: {reason}"
SECRET_TOKEN_BAD = "Bad Request: secret token {problem}"  # "is too long" / "contains unallowed characters"
WEBHOOK_SET = "Webhook was set"
WEBHOOK_ALREADY_SET = "Webhook is already set"
WEBHOOK_DELETED = "Webhook was deleted"
WEBHOOK_ALREADY_DELETED = "Webhook is already deleted"


def default_description(code: int, retry_after: int = 0) -> str:
    """The description a scheduled fault answers with when it names none (the reference stand's table)."""
    if code == 400:
        return BAD_REQUEST
    if code == 401:
        return UNAUTHORIZED
    if code == 403:
        return FORBIDDEN_BLOCKED
    if code == 404:
        return NOT_FOUND
    if code == 429:
        return f"{TOO_MANY}: retry after {retry_after}" if retry_after > 0 else TOO_MANY
    if code == 502:
        return BAD_GATEWAY
    return INTERNAL


class TelegramError(Exception):
    """A Bot API refusal: answered as ``{"ok":false,"error_code":status,"description":...}`` with that HTTP status."""

    def __init__(self, status: int, description: str, retry_after: int = 0) -> None:
        super().__init__(description)
        self.status = status
        self.description = description
        self.retry_after = retry_after


def bad_request(description: str) -> TelegramError:
    """The common case: a 400 with one of the descriptions above."""
    return TelegramError(400, description)


class SimError(Exception):
    """A simulation API refusal: answered as ``{"error": message}`` with the given HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
