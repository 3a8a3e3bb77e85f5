"""The registry serves exactly the documented Bot API methods, each reachable over HTTP in any letter case."""

from __future__ import annotations

import pytest

from tests.conftest import Wire
from tgfake.botapi import lookup, method_names

DOCUMENTED = [
    "answerCallbackQuery",
    "approveChatJoinRequest",
    "banChatMember",
    "banChatSenderChat",
    "closeForumTopic",
    "closeGeneralForumTopic",
    "createChatInviteLink",
    "createChatSubscriptionInviteLink",
    "createForumTopic",
    "declineChatJoinRequest",
    "deleteChatPhoto",
    "deleteForumTopic",
    "deleteMessage",
    "deleteWebhook",
    "editChatInviteLink",
    "editChatSubscriptionInviteLink",
    "editForumTopic",
    "editGeneralForumTopic",
    "editMessageReplyMarkup",
    "editMessageText",
    "exportChatInviteLink",
    "getChat",
    "getChatAdministrators",
    "getChatMember",
    "getChatMemberCount",
    "getChatMenuButton",
    "getFile",
    "getForumTopicIconStickers",
    "getMe",
    "getMyCommands",
    "getUpdates",
    "getWebhookInfo",
    "hideGeneralForumTopic",
    "leaveChat",
    "pinChatMessage",
    "promoteChatMember",
    "reopenForumTopic",
    "reopenGeneralForumTopic",
    "restrictChatMember",
    "revokeChatInviteLink",
    "sendChatAction",
    "sendDocument",
    "sendMessage",
    "sendMessageDraft",
    "sendPhoto",
    "sendRichMessage",
    "sendRichMessageDraft",
    "setChatAdministratorCustomTitle",
    "setChatDescription",
    "setChatMenuButton",
    "setChatPermissions",
    "setChatPhoto",
    "setChatTitle",
    "setMyCommands",
    "setWebhook",
    "unbanChatMember",
    "unbanChatSenderChat",
    "unhideGeneralForumTopic",
    "unpinAllChatMessages",
    "unpinAllForumTopicMessages",
    "unpinAllGeneralForumTopicMessages",
    "unpinChatMessage",
]


def test_registry_serves_exactly_the_documented_methods() -> None:
    assert method_names() == sorted(DOCUMENTED)


def test_lookup_ignores_letter_case_and_knows_nothing_else() -> None:
    assert lookup("SENDMESSAGE") is lookup("sendMessage") is not None
    assert lookup("sendPhotoo") is None


@pytest.mark.parametrize("method", DOCUMENTED)
async def test_every_documented_method_is_served(wire: Wire, method: str) -> None:
    """Called bare, no method answers "method not found" (they answer or refuse with a 400 of their own)."""
    status, body = await wire.call(method, timeout=0)
    assert (status, body.get("description")) != (404, "Not Found: method not found")
    assert status in (200, 400), body
