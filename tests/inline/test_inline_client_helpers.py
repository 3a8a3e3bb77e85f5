"""The testing client's inline helpers (sync and async) against the plugin's stand: type, scroll, pick."""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tgfake.testing import AsyncStandClient, StandClient


def post(client: StandClient, path: str, **params: Any) -> Any:
    data = urllib.parse.urlencode({k: str(v) for k, v in params.items()}).encode()
    with urllib.request.urlopen(urllib.request.Request(f"{client.url}{path}", data=data), timeout=10) as f:
        return json.loads(f.read())


@pytest.fixture
def inline_on(tgfake: StandClient) -> Iterator[StandClient]:
    """The stand's default bot with BotFather's inline mode and feedback on (off again afterwards)."""
    post(tgfake, "/bot123:abc/getMe")  # the token claims the stand's bot
    assert tgfake.inline_mode(feedback=100)["supports_inline_queries"] is True
    yield tgfake
    tgfake.inline_mode(False)


def answer_pages(client: StandClient, pages: int) -> threading.Thread:
    """A minimal inline bot in a thread: each query gets two articles and, but for the last page, a next offset."""

    def run() -> None:
        offset = 0
        for _ in range(pages):
            updates: list[dict[str, Any]] = []
            while not updates:
                updates = post(client, "/bot123:abc/getUpdates", offset=offset, timeout=5)["result"]
            offset = updates[-1]["update_id"] + 1
            query = next(u["inline_query"] for u in updates if "inline_query" in u)
            start = int(query["offset"] or 0)
            results = [
                {"type": "article", "id": str(i), "title": f"#{i}", "input_message_content": {"message_text": f"#{i}"}}
                for i in (start, start + 1)
            ]
            more = str(start + 2) if start == 0 else ""
            post(client, "/bot123:abc/answerInlineQuery", inline_query_id=query["id"], results=json.dumps(results),
                 next_offset=more)  # fmt: skip

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_inline_pages_and_choose_sends_the_result_via_the_bot(inline_on: StandClient) -> None:
    client = inline_on
    bot = answer_pages(client, 2)
    first = client.inline("num")
    assert [r["id"] for r in first["results"]] == ["0", "1"]
    assert first["next_offset"] == "2"
    second = client.inline_more()
    assert [r["title"] for r in second["results"]] == ["#2", "#3"]
    bot.join(10)
    sent = client.choose("3")
    assert sent.chat_id == 4242
    assert client.transcript().splitlines()[-1] == f"[{sent.message_id}] alice via @tgfake_bot: #3"
    chosen = post(client, "/bot123:abc/getUpdates", offset=-1)["result"][-1]
    assert chosen["chosen_inline_result"]["result_id"] == "3"


async def test_the_async_client_types_and_picks(inline_on: StandClient) -> None:
    bot = answer_pages(inline_on, 1)
    async with AsyncStandClient(inline_on.url) as client:
        answer = await client.inline("num", chat="group")
        assert answer["next_offset"] == "2"
        bot.join(10)
        sent = await client.choose("1")
        transcript = await client.transcript(sent.chat_id)
    assert transcript.splitlines()[-1] == f"[{sent.message_id}] alice via @tgfake_bot: #1"
