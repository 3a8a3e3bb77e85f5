"""Property tests of the business parsers: the chat beside a connection (td::to_integer_safe) and
``accepted_gift_types`` (Client.cpp's get_accepted_gift_types)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tgfake.botapi.business import accepted_gift_types
from tgfake.errors import TelegramError
from tgfake.params import Params
from tgfake.world.business import business_chat_id

REQUIRED = ("unlimited_gifts", "limited_gifts", "unique_gifts", "premium_subscription")


@given(st.one_of(st.integers(min_value=-(2**70), max_value=2**70).map(str), st.text(max_size=12)))
def test_the_business_chat_is_a_plain_64_bit_integer(text: str) -> None:
    plain = re.fullmatch(r"-?[0-9]+", text, flags=re.ASCII) is not None and -(2**63) <= int(text) < 2**63
    if plain:
        assert business_chat_id(text) == int(text)
        return
    with pytest.raises(TelegramError) as refused:
        business_chat_id(text)
    wanted = "chat identifier is empty" if not text else "chat identifier must be a valid Integer"
    assert refused.value.description == f"Bad Request: {wanted}"


TYPES = st.fixed_dictionaries(
    {name: st.booleans() for name in REQUIRED}, optional={"gifts_from_channels": st.booleans()}
)


@given(TYPES)
def test_accepted_gift_types_read_back_with_channels_true_unless_given(types: dict[str, bool]) -> None:
    got = accepted_gift_types(Params(values={"accepted_gift_types": json.dumps(types)}))
    assert got == {"gifts_from_channels": True, **types}


@given(st.sampled_from(REQUIRED), st.one_of(st.none(), st.integers(), st.text(max_size=3)))
def test_a_missing_or_mistyped_gift_type_is_named(name: str, value: object) -> None:
    types: dict[str, object] = dict.fromkeys(REQUIRED, True)
    if value is None:
        del types[name]
    else:
        types[name] = value
    with pytest.raises(TelegramError) as refused:
        accepted_gift_types(Params(values={"accepted_gift_types": json.dumps(types)}))
    problem = f'can\'t find field "{name}"' if value is None else f'field "{name}" must be of type Boolean'
    assert refused.value.description == f"Bad Request: {problem}"
