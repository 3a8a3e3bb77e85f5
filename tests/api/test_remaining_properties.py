"""Properties of issue 12's remaining methods: their JSON readers never answer 500, and base64 hashes are read as td.

Hypothesis builds JSON shaped like each method's objects (InputPaidMedia, PassportElementError, InlineQueryResult)
with wrong types, missing fields and odd values, over real HTTP to a stand in its own thread.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.test_robustness import envelope_is_well_formed, request
from tgfake.botapi.fields import FieldError
from tgfake.botapi.passport import _hash
from tgfake.options import Options
from tgfake.testing import ThreadedStand

KEYS = ["type", "media", "photo", "width", "height", "duration", "cover", "message", "source", "element_hash"]
KEYS += ["data_hash", "field_name", "file_hash", "file_hashes", "id", "title", "input_message_content"]
atoms = (
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.text(max_size=12)
    | st.sampled_from(["photo", "video", "live_photo", "attach://pic", "file_1", "passport", "files", "c2VjcmV0"])
)
shaped = st.recursive(
    atoms,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=5),
    max_leaves=8,
)
CALLS = {
    "sendPaidMedia": ("media", {"chat_id": "4242", "star_count": "5"}),
    "setPassportDataErrors": ("errors", {"user_id": "4242"}),
    "answerGuestQuery": ("result", {"guest_query_id": "1"}),
}


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    with ThreadedStand(Options(poll_max=0.05)) as stand:
        request(f"{stand.url}/sim/message", data=b'{"text": "hi"}', ctype="application/json")
        yield stand.url


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(method=st.sampled_from(sorted(CALLS)), value=st.lists(shaped, max_size=3) | shaped)
def test_object_readers_answer_in_the_envelope(origin: str, method: str, value: Any) -> None:
    param, fixed = CALLS[method]
    body = json.dumps({**fixed, param: json.dumps(value)}).encode()
    status, answer = request(f"{origin}/bot123:abc/{method}", data=body, ctype="application/json")
    envelope_is_well_formed(status, answer)


@given(raw=st.binary(max_size=40))
def test_every_base64_encoding_is_a_hash(raw: bytes) -> None:
    text = base64.b64encode(raw).decode()
    assert _hash(text) == text


ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


@given(raw=st.binary(min_size=1, max_size=40), data=st.data())
def test_a_character_outside_the_alphabet_spoils_a_hash(raw: bytes, data: Any) -> None:
    text = base64.b64encode(raw).decode().rstrip("=")
    at = data.draw(st.integers(0, len(text) - 1))
    bad = data.draw(st.characters().filter(lambda c: c not in ALPHABET and c != "="))
    spoiled = text[:at] + bad + text[at + 1 :]
    spoiled += "=" * (-len(spoiled) % 4)
    with pytest.raises(FieldError):
        _hash(spoiled)


@pytest.mark.parametrize(
    ("text", "accepted"),
    [("", True), ("Zg==", True), ("Zh==", False), ("Zg=", False), ("Zg", False), ("Zm8=", True), ("Zm9=", False)],
)
def test_td_takes_only_the_canonical_padded_encoding(text: str, accepted: bool) -> None:
    try:
        _hash(text)
        got = True
    except FieldError:
        got = False
    assert got == accepted
