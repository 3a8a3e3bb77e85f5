"""The ChatPermissions decoder against arbitrary JSON objects (hypothesis): it never fails but with Telegram's words."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tgfake import errors
from tgfake.botapi.managed import MEDIA_KINDS, parse_permissions
from tgfake.errors import TelegramError
from tgfake.params import Params
from tgfake.world.members import PERMISSIONS

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=5,
)
FIELDS = st.sampled_from([*PERMISSIONS, "can_send_media_messages", "other"])


@given(st.dictionaries(FIELDS, JSON_VALUES, max_size=8), st.booleans())
@example({"can_send_photos": True, "can_send_media_messages": "8"}, True)  # the legacy field is not read then
@example({"can_send_media_messages": "8"}, False)  # and is, alone
def test_any_object_decodes_or_names_the_field_that_is_not_a_boolean(obj: dict[str, Any], independent: bool) -> None:
    params = Params(values={"permissions": json.dumps(obj)})
    # Client.cpp reads the legacy can_send_media_messages only when no media kind of its own is given.
    unread = {"other"} | ({"can_send_media_messages"} if any(k in obj for k in MEDIA_KINDS) else set())
    bad = {
        errors.PERMISSIONS_FIELD.format(name=n) for n, v in obj.items() if n not in unread and not isinstance(v, bool)
    }
    if bad:
        with pytest.raises(TelegramError) as refused:
            parse_permissions(params, allow_legacy=True, independent=independent)
        assert (refused.value.status, refused.value.description in bad) == (400, True)
        return
    perms, legacy = parse_permissions(params, allow_legacy=True, independent=independent)
    assert not legacy
    assert set(perms) == set(PERMISSIONS)
    if independent:  # nothing implied: each permission named is taken as given
        for name in PERMISSIONS:
            if name in obj:
                assert perms[name] is obj[name]


@given(st.booleans(), st.booleans(), st.booleans())
def test_polls_imply_messages_unless_independent_and_photos_do_not(
    photos: bool, polls: bool, independent: bool
) -> None:
    params = Params(values={"permissions": json.dumps({"can_send_photos": photos, "can_send_polls": polls})})
    perms, _ = parse_permissions(params, allow_legacy=False, independent=independent)
    assert perms["can_send_messages"] is (not independent and polls)
    assert perms["can_send_photos"] is photos
