"""TDLib's own link tests, as a table: ``tdlib_link_cases.json`` holds the literal cases of tdlib/td's
``test/link.cpp`` TEST(Link, check_link) and ``tdutils/test/HttpUrl.cpp`` TEST(HttpUrl, parse_url), each with its
line there (the latter's loop over the bytes 1..255 is written out, one case per call, with its ``byte``; a byte
from 128 up is the code point of that number, since a Bot API string is always UTF-8).

TEST(HttpUrl, get_url_query_file_name) is written out over its loop of suffixes (``suffix``).

Left out: ``TEST(Link, parse_internal_link)`` and the other internal-link tables (how a client opens t.me and tg://
links; the Bot API only checks and stores them), and HttpUrl's ``parse_url_query`` (tgfake has no such function: it
never routes by a URL a bot sends).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Wire
from tgfake.text import detect
from tgfake.text.links import LinkError, check_link, get_url_file_name, get_url_query_file_name, parse_url

CASES: dict[str, Any] = json.loads((Path(__file__).parent / "tdlib_link_cases.json").read_text())


def rows(kind: str) -> list[Any]:
    return [
        pytest.param(c, id=f"L{c['line']}" + (f"-{c['byte']}" if "byte" in c else "") + f"-{i}")
        for i, c in enumerate(CASES[kind])
    ]


# td's test only says these are refused; the words are check_link_impl's (td/telegram/LinkManager.cpp) for each
PROTOCOL, PORT, TG, HOST = (
    "Unsupported URL protocol",
    "Wrong port number specified in the URL",
    "Wrong tg URL",
    "Unallowed characters in URL host",
)
REFUSALS = {
    "sftp://google.com": PROTOCOL,
    "http://google.com:0": PORT,
    "http://google.com:-1": PORT,
    "http:google.com": PORT,  # no "//": "google.com" is read as the port of host "http"
    "tg://http://google.com": TG,
    "tg:http://google.com": TG,
    "tg:https://google.com": TG,
    "tg:test@google.com": TG,
    "tg:google.com:80": TG,
    "tg:google.com": HOST,
    "tg:google.com:0": PORT,
    "tg:google.com:a": PORT,
    "tg:[2001:db8:0:0:0:ff00:42:8329]": TG,
    "tg:127.0.0.1": HOST,
    "http://localhost": "Wrong HTTP URL",
    "https://.": "Host is invalid",
}


@pytest.mark.parametrize("case", rows("check_link"))
def test_check_link(case: dict[str, Any]) -> None:
    url, expected = case["input"], case["expected"]
    if expected:
        assert check_link(url) == expected
    else:
        with pytest.raises(LinkError) as caught:
            check_link(url)
        assert str(caught.value) == f"URL '{url}' is invalid: {REFUSALS[url]}"
    check_find_urls(url, bool(expected))


def test_every_refusal_in_the_table_has_its_words() -> None:
    assert {c["input"] for c in CASES["check_link"] if not c["expected"]} == set(REFUSALS)


def check_find_urls(url: str, is_valid: bool) -> None:
    """td's check_find_urls: a valid tg:// or ton:// link is found whole as a tg URL, a valid http one as a URL."""
    lower = url.lower()
    found = [url[b:e] for b, e in detect.tg_urls(url)]
    if is_valid and lower.startswith(("tg://", "ton://")):
        assert found == [url]
    else:
        assert not found or found[0] != url
    if (
        is_valid
        and lower.startswith(("http", "t.me"))
        and "." in url
        and " " not in url
        and url != "http://.."
        and "ra.ph" not in url
        and "Aph" not in url
    ):
        assert [url[b:e] for b, e, _ in detect.urls(url)] == [url]


QUERIES = ("", "/.com", "#", "?t=1")  # td's test runs every case with each of these after it


@pytest.mark.parametrize("case", rows("parse_url"))
@pytest.mark.parametrize("query", QUERIES)
def test_parse_url(case: dict[str, Any], query: str) -> None:
    url = case["url"] + query
    if "error" in case:
        with pytest.raises(LinkError) as caught:
            parse_url(url)
        assert str(caught.value) == case["error"]
        return
    got = parse_url(url)
    assert (got.userinfo, got.host, got.is_ipv6, got.specified_port, got.port) == (
        case["userinfo"],
        case["host"],
        case["is_ipv6"],
        case["specified_port"],
        case["port"],
    )


@pytest.mark.parametrize("case", rows("get_url_query_file_name"))
def test_get_url_query_file_name(case: dict[str, Any]) -> None:
    path = case["prefix"] + case["file_name"] + case["suffix"]
    assert get_url_query_file_name(path) == case["file_name"]
    for host in ("http://telegram.org", "http://telegram.org:80", "telegram.org"):
        assert get_url_file_name(host + path) == case["file_name"]


@pytest.mark.parametrize("case", rows("check_link"))
async def test_a_url_button_is_checked_by_td_s_check_link(wire: Wire, case: dict[str, Any]) -> None:
    """Each case through the wire: a url button's link is stored normalised or refused in td's words."""
    url, expected = case["input"], case["expected"]
    markup = json.dumps({"inline_keyboard": [[{"text": "Go", "url": url}]]})
    if not expected:
        words = f"Bad Request: inline keyboard button URL '{url}' is invalid: {REFUSALS[url]}"
        await wire.refused("sendMessage", 400, words, chat_id=4242, text="x", reply_markup=markup)
        return
    sent = await wire.ok("sendMessage", chat_id=4242, text="x", reply_markup=markup)
    assert sent["reply_markup"]["inline_keyboard"][0][0]["url"] == expected
