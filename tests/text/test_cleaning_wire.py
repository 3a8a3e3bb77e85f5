"""TDLib's string cleaning where the Bot API reaches it, through the wire: every string first through
clean_input_string, then a chat title, a topic name or an invite link name through clean_name, a chat description
through strip_empty_characters (td/telegram/misc.cpp; the functions' own table is test_tdlib_string_cleaning.py)."""

from __future__ import annotations

import io
import json

from aiohttp import FormData

from tests.conftest import Wire
from tests.world.helpers import BOT, add_bot, make_chat

FINDER = "777:inline-finder"
BLANKS = "\u00a0\u3000\u2800\u200b\U000e0041 \n\t\r"  # no-break, ideographic and braille spaces, ZWSP, a tag, ...


async def group(wire: Wire, **body: object) -> int:
    await add_bot(wire)
    return await make_chat(wire, admins=[BOT], **body)


async def test_a_chat_title_is_cleaned_as_a_name(wire: Wire) -> None:
    cid = await group(wire)
    await wire.ok("setChatTitle", chat_id=cid, title="\u3000 Book\u00a0\u00a0\n\tclub\r\u2028 \u2800")
    assert (await wire.ok("getChat", chat_id=cid))["title"] == "Book club"  # a tab is a space once cleaned
    empty = "Bad Request: title must be non-empty"
    await wire.refused("setChatTitle", 400, empty, chat_id=cid, title=BLANKS)
    await wire.ok("setChatTitle", chat_id=cid, title="é" * 127 + "\u00a0\u00a0x")
    assert (await wire.ok("getChat", chat_id=cid))["title"] == "é" * 127  # cut to 128, then trimmed


async def test_a_topic_and_an_invite_link_name_are_cleaned_as_names(wire: Wire) -> None:
    cid = await group(wire, is_forum=True)
    topic = await wire.ok("createForumTopic", chat_id=cid, name="\u2000Release\u00a0 \u00a0notes\u205f")
    assert topic["name"] == "Release notes"
    await wire.refused("createForumTopic", 400, "Bad Request: name must be non-empty", chat_id=cid, name=BLANKS)
    thread = topic["message_thread_id"]
    # a name that is empty only once cleaned by clean_input_string is no rename at all, as in td
    assert await wire.ok("editForumTopic", chat_id=cid, message_thread_id=thread, name="\r\u2028") is True
    link = await wire.ok("createChatInviteLink", chat_id=cid, name="  Friends\u00a0\u3000and\nfamily  ")
    assert link["name"] == "Friends and family"


async def test_a_description_is_stripped_of_empty_characters(wire: Wire) -> None:
    cid = await group(wire)
    await wire.ok("setChatDescription", chat_id=cid, description="\u3000Rules:\u00a0\u00a0be\tkind\r\n\u2800")
    assert (await wire.ok("getChat", chat_id=cid))["description"] == "Rules:\u00a0\u00a0be kind"  # inner blanks kept
    await wire.ok("setChatDescription", chat_id=cid, description=BLANKS)
    assert "description" not in await wire.ok("getChat", chat_id=cid)  # nothing visible: no description


async def test_a_message_of_invisible_characters_only_is_empty(wire: Wire) -> None:
    await wire.say("hi")
    empty = "Bad Request: text must be non-empty"
    await wire.refused("sendMessage", 400, empty, chat_id=4242, text="\u200b\u2800\U000e0041\u00a0\r")
    sent = await wire.ok("sendMessage", chat_id=4242, text="\u200b\u2800a\r\u2028")
    assert sent["text"] == "\u200b\u2800a"


async def test_a_document_file_name_loses_its_empty_characters_and_a_right_to_left_override(wire: Wire) -> None:
    """td keeps a document's file name through strip_empty_characters(name, 255, strip_rtlo=True): the override
    that makes ``exe.txt`` read as ``txt.exe`` goes."""
    await wire.say("hi")
    assert await document_name(wire, "\u3000\u202ereport\u202etxt.exe ") == "report txt.exe"
    assert await document_name(wire, "é" * 300 + ".txt") == "é" * 255


async def document_name(wire: Wire, filename: str) -> str:
    """sendDocument with a part named in raw UTF-8 (as httpx, python-telegram-bot's client, writes a name)."""
    form = FormData(quote_fields=False)
    form.add_field("chat_id", "4242")
    form.add_field("document", io.BytesIO(b"MZ"), filename=filename, content_type="application/octet-stream")
    resp = await wire.client.post(f"/bot{wire.token}/sendDocument", data=form)
    body = await resp.json()
    assert resp.status == 200, body
    return str(body["result"]["document"]["file_name"])


async def test_a_bot_name_is_an_input_string(wire: Wire) -> None:
    await wire.ok("setMyName", name="Helper\rbot\x01")
    assert await wire.ok("getMyName") == {"name": "Helperbot "}
    await wire.ok("setMyName", name="\r")  # nothing left once cleaned: the name is removed
    assert (await wire.ok("getMyName"))["name"] == (await wire.ok("getMe"))["first_name"]


async def test_an_inline_document_is_named_as_td_names_a_file_by_its_url(wire: Wire) -> None:
    """td's get_url_file_name: the last segment of the URL's path as parse_url keeps it (a space stays %20)."""
    body = {"token": FINDER, "username": "finder_bot", "supports_inline_queries": True}
    status, got = await wire.sim("POST", "/sim/bots", body)
    assert status == 200, got
    wire.token = FINDER
    await wire.sim("POST", "/sim/inline", {"bot": "finder_bot", "query": "docs"})
    query = (await wire.ok("getUpdates", offset=-1))[-1]["inline_query"]
    url = "https://x.org/files/Annual report 2026.pdf?dl=1#page=2"
    result = {"type": "document", "id": "d", "title": "Report", "document_url": url, "mime_type": "application/pdf"}
    await wire.ok("answerInlineQuery", inline_query_id=query["id"], results=json.dumps([result]))
    status, body = await wire.sim("POST", "/sim/inline/choose", {"result_id": "d"})
    assert status == 200, body
    message = (await wire.ok("getUpdates", offset=-1))[-1]["message"]
    assert message["document"]["file_name"] == "Annual%20report%202026.pdf"
