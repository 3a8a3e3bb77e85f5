"""tgfake.webapp: signing as Telegram documents it, validation, launch addresses, themes."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import parse_qsl, urlsplit

import pytest

from tgfake import webapp

TOKEN = "123456:ABC-DEF1234ghIkl"
VECTOR_FIELDS = {
    "auth_date": "1700000000",
    "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
    "user": '{"id":279058397,"first_name":"Vladislav","username":"vdkfrost","language_code":"ru"}',
}
VECTOR_HASH = "d16b987afd609aa3c33232cac13427d98b80535d6e4b3e4025a02a336fd343ef"


def telegram_hash(fields: dict[str, str], token: str) -> str:
    """Telegram's documented check, written out independently of tgfake.webapp."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()) if k != "hash")
    secret = hmac.new(key=b"WebAppData", msg=token.encode(), digestmod=hashlib.sha256).digest()
    return hmac.new(key=secret, msg=check.encode(), digestmod=hashlib.sha256).hexdigest()


def test_known_vector_independent_hmac_agrees() -> None:
    assert telegram_hash(VECTOR_FIELDS, TOKEN) == VECTOR_HASH


def test_sign_produces_the_known_vector() -> None:
    init_data = webapp.sign(VECTOR_FIELDS, TOKEN)
    fields = dict(parse_qsl(init_data, strict_parsing=True))
    assert fields["hash"] == VECTOR_HASH
    assert {k: v for k, v in fields.items() if k != "hash"} == VECTOR_FIELDS


def test_sign_encodes_keys_sorted_with_plus_for_spaces() -> None:
    init_data = webapp.sign({"user": '{"first_name":"A B"}', "auth_date": "1", "query_id": "q"}, TOKEN)
    keys = [pair.split("=", 1)[0] for pair in init_data.split("&")]
    assert keys == ["auth_date", "hash", "query_id", "user"]
    assert "user=%7B%22first_name%22%3A%22A+B%22%7D" in init_data


def test_sign_replaces_a_stale_hash() -> None:
    stale = {**VECTOR_FIELDS, "hash": "00"}
    assert dict(parse_qsl(webapp.sign(stale, TOKEN)))["hash"] == VECTOR_HASH


def test_validate_accepts_what_sign_signed() -> None:
    fields = webapp.validate(webapp.sign(VECTOR_FIELDS, TOKEN), TOKEN)
    assert fields == {**VECTOR_FIELDS, "hash": VECTOR_HASH}
    assert json.loads(fields["user"])["username"] == "vdkfrost"


def test_validate_accepts_telegrams_own_encoding() -> None:
    """Launch data from elsewhere (unsorted, %20 for spaces) validates too."""
    fields = {"user": '{"first_name":"A B"}', "auth_date": "5"}
    raw = "user=%7B%22first_name%22%3A%22A%20B%22%7D&auth_date=5&hash=" + telegram_hash(fields, TOKEN)
    assert webapp.validate(raw, TOKEN)["user"] == '{"first_name":"A B"}'


@pytest.mark.parametrize(
    ("init_data", "why"),
    [
        ("auth_date=1&query_id=q", "missing"),
        ("auth_date=1&query_id=q&hash=", "empty"),
        ("auth_date=1&query_id=q&hash=zz" + "0" * 62, "not hex"),
        ("auth_date=1&query_id=q&hash=" + "0" * 64, "wrong"),
    ],
)
def test_validate_refuses_a_bad_hash(init_data: str, why: str) -> None:
    with pytest.raises(webapp.BadHash):
        webapp.validate(init_data, TOKEN)


def test_validate_refuses_another_token_and_tampering() -> None:
    init_data = webapp.sign(VECTOR_FIELDS, TOKEN)
    with pytest.raises(webapp.BadHash):
        webapp.validate(init_data, "654321:other")
    with pytest.raises(webapp.BadHash):
        webapp.validate(init_data.replace("auth_date=1700000000", "auth_date=1700000001"), TOKEN)


def test_validate_refuses_a_repeated_field_even_when_hash_matches() -> None:
    signed = webapp.sign(VECTOR_FIELDS, TOKEN)
    with pytest.raises(webapp.BadHash, match="more than once"):
        webapp.validate(signed + "&auth_date=1700000000", TOKEN)


@pytest.mark.parametrize("bad", ["a=%zz&hash=00", "a%=1&hash=00", "a;b=1&hash=00"])
def test_validate_a_malformed_query_is_a_different_error(bad: str) -> None:
    with pytest.raises(webapp.MalformedInitData) as caught:
        webapp.validate(bad, TOKEN)
    assert not isinstance(caught.value, webapp.BadHash)
    assert isinstance(caught.value, ValueError)


def test_bad_hash_is_a_value_error() -> None:
    assert issubclass(webapp.BadHash, ValueError)


@pytest.mark.parametrize(
    "url",
    [
        "https://app.example.com/",
        "http://127.0.0.1:18792/",
        "http://localhost:5173/",
        "http://[::1]:8080/",
        "HTTPS://app.example.com/path?q=1#frag",
        "http://LOCALHOST/",
        "http://127.8.9.10/",
        " https://app.example.com/ ",
    ],
)
def test_url_problem_accepts(url: str) -> None:
    assert webapp.url_problem(url) is None


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        (
            "http://app.example.com/",
            "Web App URL 'http://app.example.com/' is invalid: Only HTTPS links are allowed",
        ),
        ("http://10.0.0.1/", "Web App URL 'http://10.0.0.1/' is invalid: Only HTTPS links are allowed"),
        ("ftp://app.example.com/", "Web App URL 'ftp://app.example.com/' is invalid"),
        ("app.example.com", "Web App URL 'app.example.com' is invalid"),
        ("", "Web App URL '' is invalid"),
        ("https://:443/app", "Web App URL 'https://:443/app' is invalid"),
        ("https://:/x", "Web App URL 'https://:/x' is invalid"),
        ("https://exa mple.com/", "Web App URL 'https://exa mple.com/' is invalid"),
        ("https://host:port/", "Web App URL 'https://host:port/' is invalid"),
        ("https://[::1/", "Web App URL 'https://[::1/' is invalid"),
        ("https://a.example/\x00", "Web App URL 'https://a.example/\x00' is invalid"),
    ],
)
def test_url_problem_refuses(url: str, problem: str) -> None:
    assert webapp.url_problem(url) == problem


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True),
        ("LocalHost", True),
        ("127.0.0.1", True),
        ("127.255.0.9", True),
        ("::1", True),
        ("[::1]", True),
        ("::ffff:127.0.0.1", True),
        ("128.0.0.1", False),
        ("example.com", False),
        ("localhost.example.com", False),
        ("", False),
    ],
)
def test_is_loopback_host(host: str, loopback: bool) -> None:
    assert webapp.is_loopback_host(host) is loopback


def test_theme_params_dark_unless_exactly_light() -> None:
    light, dark = webapp.theme_params("light"), webapp.theme_params("dark")
    assert light["bg_color"] == "#ffffff"
    assert light["destructive_text_color"] == "#ff3b30"
    assert dark["bg_color"] == "#212121"
    assert dark["button_color"] == "#8774e1"
    assert len(light) == len(dark) == 14
    assert webapp.theme_params("Light") == dark
    assert webapp.theme_params("") == dark
    light["bg_color"] = "#000000"  # a copy: callers cannot corrupt the table
    assert webapp.theme_params("light")["bg_color"] == "#ffffff"


def test_constants() -> None:
    assert (webapp.VERSION, webapp.PLATFORM, webapp.DEFAULT_COLOR_SCHEME) == ("10.1", "tgfake", "dark")


PARAMS = {"tgWebAppVersion": "10.1", "tgWebAppData": "a=1&hash=x", "tgWebAppPlatform": "tgfake"}
ENCODED = "tgWebAppData=a%3D1%26hash%3Dx&tgWebAppPlatform=tgfake&tgWebAppVersion=10.1"


@pytest.mark.parametrize(
    ("url", "start_param", "expected"),
    [
        ("https://app.example.com/", "", f"https://app.example.com/#{ENCODED}"),
        ("https://app.example.com/#", "", f"https://app.example.com/#{ENCODED}"),
        ("https://app.example.com/#/s/1", "", f"https://app.example.com/#/s/1?{ENCODED}"),
        ("https://app.example.com/#/s?x=1", "", f"https://app.example.com/#/s?x=1&{ENCODED}"),
        (
            "https://app.example.com/?session=sess_1&a=b",
            "ref 1",
            f"https://app.example.com/?a=b&session=sess_1&tgWebAppStartParam=ref+1#{ENCODED}",
        ),
        (
            "https://app.example.com/app#/home",
            "go",
            f"https://app.example.com/app?tgWebAppStartParam=go#/home?{ENCODED}",
        ),
    ],
)
def test_append_launch_params(url: str, start_param: str, expected: str) -> None:
    assert webapp.append_launch_params(url, PARAMS, start_param) == expected


def test_launch_params_decode_back_to_the_init_data() -> None:
    init_data = webapp.sign(VECTOR_FIELDS, TOKEN)
    url = webapp.append_launch_params("https://app.example.com/", {"tgWebAppData": init_data}, "")
    fragment = dict(parse_qsl(urlsplit(url).fragment))
    assert webapp.validate(fragment["tgWebAppData"], TOKEN)["query_id"] == VECTOR_FIELDS["query_id"]
