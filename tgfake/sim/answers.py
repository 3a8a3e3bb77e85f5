"""The shapes of the sim API's answers, for its OpenAPI document (``GET /sim/openapi.json``).

The handlers build their answers as plain dicts; these models say what those dicts hold. Each is open
(``extra="allow"``): the keys named here are always (or, with a default, sometimes) present with these types,
and an answer may carry more. The schemathesis run in ``tests/openapi`` checks real answers against them, so a
handler that changes its answer without changing its model here fails there.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

JSONObject = dict[str, Any]


class Answer(BaseModel):
    """A JSON object answer; keys beyond the documented ones may appear."""

    model_config = ConfigDict(extra="allow")


class SimErrorAnswer(BaseModel):
    """Every sim refusal (4xx): what is wrong, in words (the 404 of an ended session too)."""

    model_config = ConfigDict(extra="forbid")
    error: str


class Ok(Answer):
    ok: Literal[True]


class Sent(Answer):
    """The person's message entered the chat: its id, and the id of the update queued for the bot."""

    message_id: int
    update_id: int


class FileSent(Sent):
    file_id: str


class CallbackSent(Answer):
    callback_query_id: str
    update_id: int


class Deleted(Answer):
    message_id: int
    deleted: Literal[True]


class CallView(Answer):
    """One Bot API call as the outbox recorded it: its parameters as sent and Telegram's envelope as answered."""

    seq: int
    at: str
    method: str
    params: dict[str, str]
    status: int
    response: JSONObject
    bot_id: int


class Calls(Answer):
    calls: list[CallView]


class Counted(Answer):
    count: int


class CallsWaited(Answer):
    calls: list[CallView]
    count: int


class Polling(Answer):
    """``?polling=1``: the bot has a getUpdates waiting."""

    polling: Literal[True]


class ChatViewAnswer(Answer):
    """A chat as the bot's side stored it: messages, drafts, callback answers, keyboards, menu button."""

    chat_id: int
    type: str
    title: str = ""
    typing: Any = None
    messages: list[JSONObject]
    drafts: list[JSONObject]
    callbacks: list[JSONObject]


class ChatSummary(Answer):
    chat_id: int
    type: str
    title: str = ""
    messages: int


class ChatList(Answer):
    chats: list[ChatSummary]


class BotUser(Answer):
    """A bot as ``getMe`` describes it."""

    id: int
    is_bot: Literal[True]
    first_name: str
    username: str
    can_join_groups: bool
    can_read_all_group_messages: bool
    supports_inline_queries: bool


class StandState(Answer):
    allowed_updates: list[str] | None
    bot: BotUser
    bots: list[BotUser]
    calls: int
    commands: list[JSONObject]
    faults: list[JSONObject]
    held_polls: int
    menu_button: JSONObject
    next_update_id: int
    pending_updates: int


class StandOptions(Answer):
    """The settings of the stand a session is on that change what a bot's calls get (``tgfake`` flags)."""

    flood_control: bool
    strict: bool
    poll_max: float
    url_files: str


class Faults(Answer):
    faults: list[JSONObject]
    ok: Literal[True]


class Clock(Answer):
    """This session's time: ``now`` (Unix seconds, fractional), ``unix`` (whole), ``offset`` from the base clock."""

    now: float
    unix: int
    offset: float


class DraftStopped(Answer):
    update_id: int


class DraftHistory(Answer):
    chat_id: int
    draft_id: int
    live: bool
    revisions: list[JSONObject]


class Launched(Answer):
    """What the Mini App receives: its URL with the launch parameters, the signed init data, the theme."""

    url: str
    init_data: str
    theme_params: dict[str, str]
    version: str
    platform: str


class WebhookView(Answer):
    webhook: JSONObject | None
    pending_update_count: int
    last_error_date: int
    last_error_message: str
    retry_in: float
    deliveries: list[JSONObject]


class BotCreated(Answer):
    bot: BotUser
    token: str


class ListedBot(BotUser):
    default: bool


class BotList(Answer):
    bots: list[ListedBot]


class ChatJSON(Answer):
    """A group, supergroup or channel as the Bot API's Chat, with its members (and topics, in a forum)."""

    id: int
    type: str
    members: list[JSONObject]
    topics: list[JSONObject] = []


class ChatCreated(Answer):
    chat_id: int
    chat: ChatJSON


class Membership(Answer):
    ok: Literal[True]
    status: str
    chat: ChatJSON


class JoinRequested(Answer):
    ok: Literal[True]
    update_ids: list[int]


class Migrated(Answer):
    ok: Literal[True]
    chat_id: int
    chat: ChatJSON


class TopicCreated(Answer):
    ok: Literal[True]
    message_thread_id: int
    topic: JSONObject


class Blocked(Answer):
    ok: Literal[True]
    update_id: int


class SessionAnswer(Answer):
    """A session's id and the base URLs its bot and its test are given."""

    id: str
    url: str
    bot_api_url: str
    file_url: str
    sim_url: str
    model_url: str | None
    pinned: bool
    idle: float


class SessionList(Answer):
    sessions: list[SessionAnswer]
    max_sessions: int
    idle_expiry: float


class Paid(Answer):
    """How the payment ended: ``paid`` (with the charge), or the step it stopped at and why."""

    status: str


class LlmLog(Answer):
    """The model's journal: every answered completion request, oldest first."""

    calls: int
    count: int
    dropped: int
    entries: list[JSONObject]


class ScriptSet(Answer):
    ok: Literal[True]
    rules: int


class OpenAIErrorBody(BaseModel):
    """The OpenAI error envelope, as the fixture routes refuse a query."""

    error: JSONObject


class Voted(Answer):
    poll_id: str
    update_id: int


class Updated(Answer):
    """The person changed a message: the update queued for each bot that hears of it, by bot id."""

    message_id: int
    updates: dict[str, int]


class Boosted(Answer):
    """The boosts a person gave (or took back from) a chat, as ChatBoost objects."""

    chat_id: int
    boosts: list[JSONObject]


class Verifier(Answer):
    bot: str
    verifier: bool
    verified: list[JSONObject]


class JoinRequestBot(Answer):
    chat_id: int
    bot: str | None
    queries: list[JSONObject]


class GuestSent(Sent):
    guest_query_id: str


class SubscriptionChanged(Answer):
    update_id: int
    state: str


class Suggested(Answer):
    """The suggestion's place: the channel's direct messages chat and the message's id there."""

    chat_id: int
    message_id: int


class EphemeralSent(Answer):
    ephemeral_message_id: int
    update_id: int
