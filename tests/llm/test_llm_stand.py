"""The model on a whole tgfake stand: one origin for Telegram, /v1, the fixtures, and one reset."""

from __future__ import annotations

from aiohttp.test_utils import TestClient, TestServer

from llmstub import Model, ModelOptions
from tgfake.app import create_app
from tgfake.options import Options

HELLO = {"messages": [{"role": "user", "content": "Hello, world!"}]}


async def test_a_random_mode_stand_serves_chat_legacy_and_fixtures_and_resets() -> None:
    model = Model(ModelOptions(mode="random", seed=1))
    async with TestClient(TestServer(create_app(Options(), model=model))) as client:
        chat = await client.post("/v1/chat/completions", json=HELLO)
        assert chat.status == 200
        first = (await chat.json())["choices"][0]["message"]["content"]
        assert first
        legacy = await client.post("/v1/completions", json={"prompt": "Hello"})
        assert legacy.status == 200
        assert (await legacy.json())["object"] == "text_completion"
        fixtures = await client.get("/api/llm-completions", params={"seed": "5", "count": "2"})
        assert fixtures.status == 200
        body = await fixtures.json()
        assert len(body["data"]) == 2
        assert body["meta"]["seed"] == 5
        chunks = await client.get("/api/llm-completions/chunks", params={"tokens": "3"})
        assert chunks.status == 200
        me = await client.get("/bot123:abc/getMe")  # Telegram on the same origin
        assert me.status == 200
        assert (await me.json())["result"]["username"] == "tgfake_bot"

        assert len(model.log()) == 2
        reset = await client.post("/sim/reset")
        assert reset.status == 200
        assert model.log() == []
        again = await client.post("/v1/chat/completions", json=HELLO)
        assert (await again.json())["choices"][0]["message"]["content"] == first  # generator rewound
