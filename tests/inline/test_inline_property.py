"""answerInlineQuery over arbitrary results JSON: always 200 or one of Telegram's 400s, never anything else."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tgfake.clock import ManualClock
from tgfake.models import BotIn, InlineIn
from tgfake.params import Params
from tgfake.stand import Stand
from tgfake.world import inline

TYPES = ["article", "photo", "gif", "mpeg4_gif", "video", "audio", "voice", "document", "location", "venue",
         "contact", "game", "sticker", "ARTICLE", "cartoon"]  # fmt: skip
FIELDS = [
    "id", "title", "description", "url", "caption", "parse_mode", "caption_entities", "reply_markup",
    "input_message_content", "message_text", "photo_url", "photo_file_id", "thumbnail_url", "gif_url",
    "mpeg4_url", "video_url", "mime_type", "audio_url", "voice_url", "document_url", "document_file_id",
    "latitude", "longitude", "live_period", "heading", "address", "phone_number", "first_name",
    "game_short_name", "sticker_file_id", "photo_width", "video_duration",
]  # fmt: skip
CONTENT = ["message_text", "parse_mode", "entities", "latitude", "longitude", "title", "address",
           "phone_number", "first_name", "payload", "currency", "prices", "description"]  # fmt: skip

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**40), max_value=2**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["https://x.org/a.jpg", "file_1", "<b>x", "*y", "HTML", "MarkdownV2", "video/mp4", "+1"])
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
keyboard = st.fixed_dictionaries(
    {"inline_keyboard": st.lists(st.lists(st.dictionaries(
        st.sampled_from(["text", "callback_data", "url", "pay"]), scalars, max_size=3), max_size=2), max_size=2)}
)  # fmt: skip
content = st.dictionaries(st.sampled_from(CONTENT), scalars | json_values, max_size=5)
result = st.builds(
    lambda kind, rid, fields, extra: {"type": kind, "id": rid, **fields, **extra},
    st.sampled_from(TYPES),
    st.text(min_size=1, max_size=8) | st.integers(min_value=0, max_value=99),
    st.dictionaries(st.sampled_from(FIELDS), scalars, max_size=8),
    st.dictionaries(st.sampled_from(["input_message_content", "reply_markup"]), content | keyboard, max_size=2),
)
results = st.one_of(
    st.lists(result, max_size=4).map(json.dumps),
    st.lists(result, max_size=4).map(json.dumps),
    st.lists(result, max_size=4).map(json.dumps),
    json_values.map(json.dumps),
    st.text(max_size=20),
)
others = st.dictionaries(
    st.sampled_from(["next_offset", "cache_time", "is_personal", "button", "switch_pm_text"]),
    st.text(max_size=70) | json_values.map(json.dumps),
    max_size=1,
)


def make_stand() -> tuple[Stand, str]:
    stand = Stand(clock=ManualClock())
    stand.create_bot(BotIn(token="777:p", username="prop_bot", supports_inline_queries=True))
    stand.person(4242, "", "", name_from_username=True)  # savePreparedInlineMessage's user
    return stand, "777:p"


STAND, TOKEN = make_stand()
COUNTER = itertools.count()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(results=results, others=others)
def test_any_results_json_is_answered_or_refused_in_telegrams_words(results: str, others: dict[str, Any]) -> None:
    query = inline.ask(STAND, InlineIn(bot="prop_bot", query=f"q{next(COUNTER)}"))  # never served from cache
    params = Params(values={"inline_query_id": query.id, "results": results, **others})
    call = asyncio.run(STAND.serve(TOKEN, "answerInlineQuery", params))
    body = call.response
    assert call.status in (200, 400), body
    if call.status == 400:
        assert body["description"].startswith("Bad Request: "), body
        assert query.answer is None
    else:
        assert body == {"ok": True, "result": True}
        assert query.answer is not None


@settings(max_examples=150, deadline=None)
@given(result=result.map(json.dumps) | json_values.map(json.dumps))
def test_a_web_app_result_is_answered_or_refused_in_telegrams_words(result: str) -> None:
    params = Params(values={"web_app_query_id": "none", "result": result, "user_id": "4242", "allow_bot_chats": "1"})
    for method in ("answerWebAppQuery", "savePreparedInlineMessage"):
        call = asyncio.run(STAND.serve(TOKEN, method, params))
        assert call.status in (200, 400), call.response
        if call.status == 400:
            assert call.response["description"].startswith("Bad Request: "), call.response
