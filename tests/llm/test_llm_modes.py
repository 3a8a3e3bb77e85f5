"""Echo and random modes through the official ``openai`` client (sync and async), chat and legacy.

Token counts below are worked out by hand with the documented tokenizer (a word or one punctuation
mark): ``Hello, world!`` is ``Hello`` ``, `` ``world`` ``!`` = 4 tokens.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import openai
import pytest
from openai import AsyncOpenAI, OpenAI

from llmstub.generate import tokenize
from llmstub.generate.conversations import EXAMPLE_SOURCE, build
from tests.llm.llm_support import LlmStand, MakeStand, sse_events


def aclient(stand: LlmStand) -> AsyncOpenAI:
    return AsyncOpenAI(base_url=stand.base_url, api_key="sk-anything", max_retries=0)


def sclient(stand: LlmStand) -> OpenAI:
    return OpenAI(base_url=stand.base_url, api_key="sk-anything", max_retries=0)


USER_HELLO: Any = [{"role": "user", "content": "Hello, world!"}]


# ----- echo mode -----


async def test_echo_chat_returns_the_last_message_with_tokenizer_usage(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="echo")
    messages: Any = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hello, world!"},
    ]
    async with aclient(stand) as client:
        completion = await client.chat.completions.create(model="any", messages=messages)
    assert completion.choices[0].message.content == "Hello, world!"
    assert completion.choices[0].finish_reason == "stop"
    assert completion.usage is not None
    # "Be brief." is 3 tokens, "Hello, world!" 4; the echo is 4.
    assert (completion.usage.prompt_tokens, completion.usage.completion_tokens) == (7, 4)
    assert completion.usage.total_tokens == 11


async def test_echo_chat_streams_one_chunk_per_token(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="echo")

    def run() -> tuple[list[str], list[str | None], Any]:
        with sclient(stand) as client:
            stream = client.chat.completions.create(
                model="any", messages=USER_HELLO, stream=True, stream_options={"include_usage": True}
            )
            pieces: list[str] = []
            finishes: list[str | None] = []
            usage: Any = None
            for chunk in stream:
                if chunk.usage is not None:
                    usage = chunk.usage
                for choice in chunk.choices:
                    if choice.delta.content:
                        pieces.append(choice.delta.content)
                    finishes.append(choice.finish_reason)
            return pieces, finishes, usage

    pieces, finishes, usage = await asyncio.to_thread(run)
    assert pieces == ["Hello", ", ", "world", "!"]
    assert [f for f in finishes if f is not None] == ["stop"]
    assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (4, 4, 8)


async def test_echo_stream_groups_tokens_by_chunk_words(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="echo", chunk_words=3)
    response = await stand.chat({"messages": USER_HELLO, "stream": True})
    events = [json.loads(e) for e in sse_events(await response.text())[:-1]]
    contents = [c["choices"][0]["delta"].get("content") for c in events if c["choices"]]
    assert contents == ["", "Hello, world", "!", None]


async def test_echo_completions_return_the_prompt_unmodified(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="echo")
    prompt = "  Keep  my\tspacing. "
    async with aclient(stand) as client:
        completion = await client.completions.create(model="any", prompt=prompt)
        streamed = await client.completions.create(
            model="any", prompt=prompt, stream=True, stream_options={"include_usage": True}
        )
        chunks = [chunk async for chunk in streamed]
    assert completion.object == "text_completion"
    assert completion.id == "cmpl-tgfake-1"
    assert completion.choices[0].text == prompt
    assert completion.choices[0].finish_reason == "stop"
    assert completion.usage is not None
    assert (completion.usage.prompt_tokens, completion.usage.completion_tokens) == (4, 4)
    texts = [c.choices[0].text for c in chunks if c.choices]
    assert texts == ["  Keep  ", "my\t", "spacing", ". ", ""]
    assert "".join(texts) == prompt
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
    assert chunks[-1].usage is not None
    assert chunks[-1].usage.total_tokens == 8
    assert {c.id for c in chunks} == {"cmpl-tgfake-2"}


async def test_echo_max_tokens_below_the_prompt_is_a_journaled_400(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="echo")
    async with aclient(stand) as client:
        with pytest.raises(openai.BadRequestError) as refused:
            await client.chat.completions.create(model="any", messages=USER_HELLO, max_tokens=3)
        exact = await client.chat.completions.create(model="any", messages=USER_HELLO, max_tokens=4)
    assert refused.value.status_code == 400
    assert refused.value.body == {
        "message": "max_tokens is 3, but echo mode returns the last message unmodified and it is 4 tokens "
        "long. Please raise max_tokens to at least 4 or shorten the last message.",
        "type": "invalid_request_error",
        "param": "max_tokens",
        "code": "invalid_value",
    }
    assert exact.choices[0].message.content == "Hello, world!"
    assert exact.choices[0].finish_reason == "length"  # the answer used its whole allowance
    entries = (await stand.log())["entries"]
    assert [e["status"] for e in entries] == [400, 200]
    assert "max_tokens is 3" in entries[0]["response"]


async def test_echo_context_window_counts_the_prompt_twice(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="echo", max_model_len=8)
    fits = await stand.client.post("/v1/completions", json={"prompt": "one two three four"})
    assert fits.status == 200, await fits.text()
    assert (await fits.json())["choices"][0]["text"] == "one two three four"
    over = await stand.client.post("/v1/completions", json={"prompt": "one two three four five"})
    assert over.status == 400
    assert await over.json() == {
        "error": {
            "message": "This model's maximum context length is 8 tokens. However, you requested 10 tokens "
            "(5 in the prompt, 5 in the echoed completion). Please reduce the length of the prompt.",
            "type": "invalid_request_error",
            "param": "prompt",
            "code": "context_length_exceeded",
        }
    }


async def test_echo_sees_user_text_after_tag_stripping(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="echo", strip_tags=["ctx"])
    messages = [
        {"role": "user", "content": "hello <ctx>state</ctx>there"},
        {"role": "user", "content": "<ctx>only state</ctx>"},
    ]
    answer = await stand.chat_json({"messages": messages})
    assert answer["choices"][0]["message"]["content"] == "hello there"


# ----- random mode -----


async def answers(stand: LlmStand, count: int, **extra: Any) -> list[str]:
    texts = []
    for _ in range(count):
        answer = await stand.chat_json({"messages": USER_HELLO, **extra})
        texts.append(answer["choices"][0]["message"]["content"])
    return texts


async def test_random_answers_repeat_with_the_model_seed(make_llm: MakeStand) -> None:
    first = await answers(await make_llm(mode="random", seed=11), 4)
    second = await answers(await make_llm(mode="random", seed=11), 4)
    other = await answers(await make_llm(mode="random", seed=12), 4)
    assert first == second
    assert first != other
    assert len(set(first)) > 1  # one seeded generator per model, not one seed per request


async def test_a_request_seed_reproduces_one_answer(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="random")
    async with aclient(stand) as client:
        texts = [
            (await client.chat.completions.create(model="any", messages=USER_HELLO, seed=5))
            .choices[0]
            .message.content
            for _ in range(3)
        ]
    assert len(set(texts)) == 1
    other = await make_llm(mode="random", seed=99)
    assert await answers(other, 1, seed=5) == texts[:1]


async def test_random_chat_usage_and_finish_reason(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="random", seed=3)
    async with aclient(stand) as client:
        for _ in range(20):
            completion = await client.chat.completions.create(model="any", messages=USER_HELLO, max_tokens=6)
            text = completion.choices[0].message.content or ""
            assert completion.usage is not None
            assert completion.usage.prompt_tokens == 4
            assert completion.usage.completion_tokens == len(tokenize(text))
            assert 1 <= completion.usage.completion_tokens <= 6
            expected = "length" if completion.usage.completion_tokens == 6 else "stop"
            assert completion.choices[0].finish_reason == expected


async def test_random_ignore_eos_gives_exactly_max_tokens(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="random", seed=1)
    async with aclient(stand) as client:
        completion = await client.chat.completions.create(
            model="any", messages=USER_HELLO, max_completion_tokens=37, extra_body={"ignore_eos": True}
        )
        legacy = await client.completions.create(
            model="any", prompt="Hi", max_tokens=9, extra_body={"ignore_eos": True}
        )
    assert completion.usage is not None
    assert completion.usage.completion_tokens == 37
    assert len(tokenize(completion.choices[0].message.content or "")) == 37
    assert completion.choices[0].finish_reason == "length"
    assert legacy.usage is not None
    assert legacy.usage.completion_tokens == 9
    assert legacy.choices[0].finish_reason == "length"


async def test_random_stream_is_the_answer_token_by_token(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="random")
    body = {"messages": USER_HELLO, "seed": 21, "max_tokens": 50}
    whole = await stand.chat_json(body)
    async with aclient(stand) as client:
        stream = await client.chat.completions.create(
            model="any",
            messages=USER_HELLO,
            seed=21,
            max_tokens=50,
            stream=True,
            stream_options={"include_usage": True},
        )
        chunks = [chunk async for chunk in stream]
    pieces = [c.choices[0].delta.content for c in chunks if c.choices and c.choices[0].delta.content]
    text = whole["choices"][0]["message"]["content"]
    assert "".join(pieces) == text
    assert pieces == tokenize(text)
    assert chunks[-1].usage is not None
    assert chunks[-1].usage.completion_tokens == whole["usage"]["completion_tokens"] == len(pieces)
    finishes = [c.choices[0].finish_reason for c in chunks if c.choices and c.choices[0].finish_reason]
    assert finishes == [whole["choices"][0]["finish_reason"]]


async def test_random_legacy_completions_sync_streamed_and_not(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="random")

    def run() -> tuple[Any, list[Any]]:
        with sclient(stand) as client:
            whole = client.completions.create(model="any", prompt="Tell me more.", seed=8)
            chunks = list(
                client.completions.create(
                    model="any", prompt="Tell me more.", seed=8, stream=True, stream_options={"include_usage": True}
                )
            )
            return whole, chunks

    whole, chunks = await asyncio.to_thread(run)
    assert whole.object == "text_completion"
    assert whole.usage.prompt_tokens == 4
    assert whole.usage.completion_tokens == len(tokenize(whole.choices[0].text)) > 0
    assert "".join(c.choices[0].text for c in chunks if c.choices) == whole.choices[0].text
    assert chunks[-1].usage.completion_tokens == whole.usage.completion_tokens
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == whole.choices[0].finish_reason


async def test_random_context_window_boundary(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="random", max_model_len=4)
    fits = await stand.client.post("/v1/completions", json={"prompt": "one two three"})
    assert fits.status == 200, await fits.text()
    body = await fits.json()
    assert body["usage"]["completion_tokens"] == 1  # the window leaves exactly one token
    assert body["choices"][0]["finish_reason"] == "length"
    over = await stand.client.post("/v1/completions", json={"prompt": "one two three four", "max_tokens": 1})
    assert over.status == 400
    error = (await over.json())["error"]
    assert error["code"] == "context_length_exceeded"
    assert error["message"] == (
        "This model's maximum context length is 4 tokens. However, you requested 5 tokens "
        "(4 in the prompt, 1 in the completion). Please reduce the length of the prompt."
    )


async def test_random_answers_from_a_dataset(make_llm: MakeStand, tmp_path: Path) -> None:
    path = tmp_path / "answers.sqlite"
    build(json.loads(EXAMPLE_SOURCE.read_text(encoding="utf-8")), path)
    stand = await make_llm(mode="random", seed=2, dataset=str(path))
    stored = (
        "tgfake is a test stand that plays the Telegram Bot API and an OpenAI-compatible model, so a bot "
        "can be tested offline from end to end."
    )
    for _ in range(5):
        answer = await stand.say("What is tgfake?", max_tokens=200)
        text = answer["choices"][0]["message"]["content"]
        assert text
        assert stored.startswith(text)


async def test_reset_rewinds_the_seeded_generator(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="random", seed=4)
    before = await answers(stand, 3)
    assert (await stand.client.post("/sim/llm/reset")).status == 200
    assert await answers(stand, 3) == before


# ----- scripted answers in generated modes, and request checks -----


async def test_rules_and_canned_answers_come_before_the_mode(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="random", rules=[{"match": "ping", "answer": "pong"}], answers=["canned"])
    rule = await stand.say("ping")
    assert rule["choices"][0]["message"]["content"] == "pong"
    assert rule["usage"] == {"completion_tokens": 1, "prompt_tokens": 1, "total_tokens": 2}
    assert (await stand.say("anything"))["choices"][0]["message"]["content"] == "canned"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("max_tokens", "5", 'max_tokens must be an integer, got "5"'),
        ("max_tokens", 2.5, "max_tokens must be an integer, got 2.5"),
        ("max_completion_tokens", True, "max_completion_tokens must be an integer, got true"),
        ("seed", "x", 'seed must be an integer, got "x"'),
        ("ignore_eos", "yes", 'ignore_eos must be a boolean, got "yes"'),
        ("max_tokens", 0, "max_tokens must be at least 1, got 0"),
    ],
)
async def test_badly_typed_generation_fields_are_400(
    make_llm: MakeStand, field: str, value: Any, message: str
) -> None:
    stand = await make_llm(mode="random")
    answer = await stand.chat_json({"messages": USER_HELLO, field: value}, status=400)
    assert answer["error"]["message"] == message
    assert answer["error"]["param"] == field


async def test_script_mode_ignores_generation_fields(llm: LlmStand) -> None:
    answer = await llm.say("hi", max_tokens="whatever", seed="x")
    assert answer["choices"][0]["message"]["content"] == "You said: hi"


async def test_paced_generated_streams_keep_the_framing(make_llm: MakeStand) -> None:
    stand = await make_llm(mode="echo", delay=0.001)
    chat = await stand.chat({"messages": USER_HELLO, "stream": True})
    events = sse_events(await chat.text())
    deltas = [json.loads(e)["choices"][0]["delta"].get("content") for e in events[1:5]]
    assert deltas == ["Hello", ", ", "world", "!"]
    legacy = await stand.client.post("/v1/completions", json={"prompt": "Hello, world!", "stream": True})
    events = sse_events(await legacy.text())
    assert [json.loads(e)["choices"][0]["text"] for e in events[:4]] == ["Hello", ", ", "world", "!"]
    assert events[-1] == "[DONE]"
