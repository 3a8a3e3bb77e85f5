"""The parameter table (generated from aiogram) and the checks the real server makes before any method logic."""

from __future__ import annotations

import aiogram
import pytest
from aiohttp import FormData
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import Wire
from tgfake.botapi import method_names
from tgfake.botapi.schema import PRECHECKS, Param, load, method, methods
from tgfake.params import to_integer
from tools import gen_botapi_schema as gen

SOURCE, METHODS = load()


def test_schema_records_its_source() -> None:
    assert SOURCE == {"package": "aiogram", "version": gen.AIOGRAM_VERSION, "bot_api": "10.3"}


@pytest.mark.skipif(
    aiogram.__version__ != gen.AIOGRAM_VERSION,
    reason=f"schema.json was made from aiogram {gen.AIOGRAM_VERSION}; aiogram {aiogram.__version__} is installed",
)
def test_schema_json_and_the_coverage_table_are_what_the_generator_writes() -> None:
    """Regenerate both files in memory; a stale file means someone forgot ``python -m tools.gen_botapi_schema``."""
    schema = gen.build_schema()
    assert gen.SCHEMA_PATH.read_text(encoding="utf-8") == gen.render_schema(schema)
    docs = gen.DOCS_PATH.read_text(encoding="utf-8")
    assert docs == gen.render_docs(schema, docs)


def param(method_name: str, name: str) -> Param:
    entry = method(method_name)
    assert entry is not None, method_name
    found = entry.param(name)
    assert found is not None, (method_name, name)
    return found


def test_every_method_has_a_family_and_types_are_telegram_spelled() -> None:
    assert all(m.family for m in METHODS.values())
    send = method("SENDMESSAGE")
    assert send is not None
    chat_id, text = send.params[:2]
    assert (chat_id.name, chat_id.type, chat_id.required) == ("chat_id", "Integer or String", True)
    assert (text.name, text.type, text.required) == ("text", "String", True)
    assert param("sendMessage", "reply_markup").type == (
        "InlineKeyboardMarkup or ReplyKeyboardMarkup or ReplyKeyboardRemove or ForceReply"
    )
    assert param("sendMessage", "parse_mode").enum == ("MarkdownV2", "Markdown", "HTML")
    assert param("sendMessage", "reply_to_message_id").deprecated
    assert param("sendPhoto", "photo").type == "InputFile or String"
    assert param("setMyCommands", "scope").type == "BotCommandScope"
    assert param("setMyCommands", "commands").type == "Array of BotCommand"
    assert "typing" in (param("sendChatAction", "action").enum or ())
    assert param("banChatMember", "until_date").type == "Integer"


def test_every_precheck_names_a_parameter_of_its_method() -> None:
    for name, checks in PRECHECKS.items():
        entry = method(name)
        # getChatMembersCount-style aliases are not in the schema; every key here is a real method.
        assert entry is not None, name
        for step in checks:
            assert entry.param(step.param) is not None, (name, step.param)


@given(st.integers(min_value=-(10**12), max_value=10**12), st.text(alphabet="x .,+-e_@", max_size=5))
def test_to_integer_reads_the_leading_digits_like_td(number: int, tail: str) -> None:
    if tail[:1] == "-" and number >= 0:
        tail = "x" + tail
    assert to_integer(f"{number}{tail}") == number


@pytest.mark.parametrize("text", ["", "abc", " 5", "+5", "--5", "-"])
def test_to_integer_reads_garbage_as_zero(text: str) -> None:
    assert to_integer(text) == 0


# --- through the wire: the order is the server's, and a served method's own checks come after -----------------------
async def test_send_message_checks_the_text_before_the_chat(wire: Wire) -> None:
    await wire.refused("sendMessage", 400, "Bad Request: message text is empty")
    await wire.refused("sendMessage", 400, "Bad Request: chat_id is empty", text="hi")
    await wire.refused("sendMessage", 400, "Bad Request: message text is empty", chat_id=4242, text="")


async def test_send_photo_without_a_photo_is_refused_before_the_chat(wire: Wire) -> None:
    await wire.refused("sendPhoto", 400, "Bad Request: there is no photo in the request")
    await wire.refused("sendDocument", 400, "Bad Request: there is no document in the request", caption="x")
    form = FormData()
    form.add_field("photo", b"\x89PNG", filename="p.png", content_type="image/png")
    resp = await wire.client.post(f"/bot{wire.token}/sendPhoto", data=form)
    assert (resp.status, (await resp.json())["description"]) == (400, "Bad Request: chat_id is empty")


async def test_refusals_are_recorded_and_unknown_methods_stay_404(wire: Wire) -> None:
    # every method of the schema is served now; an unknown name is 404 before any parameter check
    assert set(method_names()) == {m.name for m in methods().values()}
    await wire.refused("verifyUser", 400, "Bad Request: invalid user_id specified")
    await wire.refused("noSuchMethod", 404, "Not Found: method not found", chat_id="")
    calls = await wire.outbox()
    assert [(c["method"], c["status"]) for c in calls] == [("verifyUser", 400), ("noSuchMethod", 404)]


async def test_a_fault_still_answers_before_the_checks(wire: Wire) -> None:
    await wire.sim("POST", "/sim/fault", {"method": "verifyUser", "code": 502, "times": 1})
    await wire.refused("verifyUser", 502, "Bad Gateway")
    await wire.refused("verifyUser", 400, "Bad Request: invalid user_id specified")


@pytest.mark.parametrize("value", ["", "0", "-5", "abc", "@alice"])
async def test_user_ids_that_read_as_zero_or_less_are_invalid(wire: Wire, value: str) -> None:
    await wire.refused("getManagedBotToken", 400, "Bad Request: invalid user_id specified", user_id=value)


async def test_a_user_id_reads_its_leading_digits_as_the_server_does(wire: Wire) -> None:
    await wire.say("hi")
    await wire.refused("getManagedBotToken", 400, "Bad Request: user is not a bot", user_id="4242abc")


async def test_required_strings_are_named_in_the_servers_words(wire: Wire) -> None:
    await wire.refused("setBusinessAccountName", 400, 'Bad Request: parameter "first_name" is required')
    await wire.refused("repostStory", 400, 'Bad Request: parameter "from_chat_id" is required', story_id=1)


async def test_message_ids_are_present_json_and_an_array(wire: Wire) -> None:
    method_name = "deleteBusinessMessages"
    await wire.refused(method_name, 400, "Bad Request: message identifiers are not specified")
    await wire.refused(method_name, 400, "Bad Request: can't parse message_ids JSON object", message_ids="[1,")
    await wire.refused(method_name, 400, "Bad Request: expected an Array of message identifiers", message_ids="{}")


async def test_the_sender_chat_check_has_words_of_its_own(wire: Wire) -> None:
    await wire.refused("removeChatVerification", 400, "Bad Request: sender_chat_id is empty")
    await wire.refused(
        "removeChatVerification", 400, "Bad Request: sender_chat_id is not a valid Integer", chat_id="@channel"
    )


async def test_a_business_chat_must_be_a_plain_integer(wire: Wire) -> None:
    await wire.refused("readBusinessMessage", 400, "Bad Request: chat identifier is empty", message_id=1)
    await wire.refused(
        "readBusinessMessage", 400, "Bad Request: chat identifier must be a valid Integer", chat_id="12x"
    )
    await wire.refused(
        "transferGift", 400, "Bad Request: chat identifier must be a valid Integer", new_owner_chat_id="@x"
    )
