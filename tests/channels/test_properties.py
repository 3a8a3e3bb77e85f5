"""Properties of the two parsers issue 25's channel families added: Client.cpp's ``get_user_ids`` as
setManagedBotAccessSettings reads ``added_user_ids``, and a send's ``ephemeral_message_parameters``. Any text is
either read (into what the rules say it is) or refused with one of the words the docs list, never anything else."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tgfake import errors
from tgfake.botapi.ephemeral_sends import PARAMETERS_BAD, PARAMETERS_NOT_OBJECT, requested
from tgfake.botapi.managed_bots import MAX_ADDED_USERS, added_user_ids
from tgfake.errors import TelegramError
from tgfake.params import Params

USER_ID_WORDS = {
    errors.USER_IDS_EMPTY,
    errors.MESSAGE_IDS_BAD.format(name="added_user_ids"),
    errors.USER_IDS_NOT_ARRAY,
    errors.USER_IDS_TOO_MANY,
    errors.USER_ID_NOT_NUMBER,
    errors.USER_ID_UNPARSABLE,
    errors.USER_ID_INVALID,
}
EPHEMERAL_WORDS = {PARAMETERS_BAD, PARAMETERS_NOT_OBJECT, errors.INVALID_ID.format(name="receiver_user_id")}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=12) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=14,
)
texts = json_values.map(json.dumps) | st.text(max_size=30)


def outcome(read: Callable[[], Any]) -> tuple[Any, TelegramError | None]:
    """What a reader answers, or the refusal it raised."""
    try:
        return read(), None
    except TelegramError as exc:
        return None, exc


@given(raw=texts)
def test_added_user_ids_are_read_or_refused_in_client_cpps_words(raw: str) -> None:
    got, refused = outcome(lambda: added_user_ids(Params({"added_user_ids": raw})))
    if refused is not None:
        assert (refused.status, refused.description in USER_ID_WORDS) == (400, True), refused.description
        return
    value = json.loads(raw)
    assert isinstance(value, list)
    assert len(got) == len(value) <= MAX_ADDED_USERS
    assert all(0 < u < 2**63 for u in got)
    assert got == [int(v) for v in value]


@given(ids=st.lists(st.integers(1, 2**63 - 1) | st.integers(1, 2**40).map(str), max_size=MAX_ADDED_USERS))
def test_every_list_of_positive_ids_is_read_as_itself(ids: list[Any]) -> None:
    assert added_user_ids(Params({"added_user_ids": json.dumps(ids)})) == [int(i) for i in ids]


@given(raw=texts)
def test_ephemeral_parameters_name_a_receiver_or_are_refused(raw: str) -> None:
    got, refused = outcome(lambda: requested(Params({"ephemeral_message_parameters": raw})))
    if refused is not None:
        assert (refused.status, refused.description in EPHEMERAL_WORDS) == (400, True), refused.description
        return
    if not raw:
        assert got is None  # an empty parameter is an ordinary send
        return
    value = json.loads(raw)
    assert isinstance(value, dict)
    assert got is not None
    assert got > 0


@given(receiver=st.integers(1, 2**53))
def test_a_receiver_is_read_from_either_place(receiver: int) -> None:
    nested = Params({"ephemeral_message_parameters": json.dumps({"receiver_user_id": receiver})})
    assert requested(nested) == requested(Params({"receiver_user_id": str(receiver)})) == receiver
