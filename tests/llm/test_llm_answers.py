"""Answer choice on the legacy path: rules, answers in turn, echo; tool turns; tag stripping."""

from __future__ import annotations

import json
from typing import Any

from tests.llm.llm_support import LlmStand, MakeStand, content, sse_events, without_created

WEATHER_RULES: list[dict[str, Any]] = [
    {
        "match": "weather",
        "tool": {"name": "get_weather", "arguments": {"city": "Paris"}},
        "answer": "It is sunny in Paris.",
    },
    {"match": "ping", "answer": "pong"},
    {"match": "", "answer": "I only know about the weather."},
]


async def test_answers_in_turn_table_from_the_seed(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=[{"match": "ping", "answer": "pong"}], answers=["first", "second"])
    answers = [content(await stand.say(prompt)) for prompt in ("a", "b", "ping", "c")]
    assert answers == ["first", "second", "pong", "second"]


async def test_answers_repeat_from_the_first_once_used_up(make_llm: MakeStand) -> None:
    stand = await make_llm(answers=["one", "two", "three"])
    assert [content(await stand.say("x")) for _ in range(7)] == [
        "one",
        "two",
        "three",
        "one",
        "two",
        "three",
        "one",
    ]


async def test_first_matching_rule_wins_case_insensitively(make_llm: MakeStand) -> None:
    stand = await make_llm(
        rules=[{"match": "PING", "answer": "pong"}, {"match": "ping me", "answer": "never"}],
        answers=["canned"],
    )
    assert content(await stand.say("please Ping me")) == "pong"
    assert content(await stand.say("nothing")) == "canned"


async def test_empty_match_is_a_catch_all_even_for_an_empty_prompt(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=WEATHER_RULES)
    assert content(await stand.say("ping")) == "pong"
    assert content(await stand.say("tell me a joke")) == "I only know about the weather."
    assert content(await stand.chat_json({"messages": []})) == "I only know about the weather."


async def test_a_matching_rule_with_an_empty_answer_answers_empty(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=[{"match": "quiet", "answer": ""}], answers=["canned"])
    answer = await stand.say("be quiet")
    assert content(answer) == ""
    assert answer["usage"] == {"completion_tokens": 0, "prompt_tokens": 1, "total_tokens": 1}


async def test_echo_when_neither_rules_nor_answers(llm: LlmStand) -> None:
    answer = await llm.say("  hello   world ")
    assert content(answer) == "You said: hello   world"
    assert answer["usage"]["completion_tokens"] == 4


# ----- tool turns -----

TOOL_CALL = (
    '{"choices":[{"finish_reason":"tool_calls","index":0,"message":{"content":null,"role":"assistant",'
    '"tool_calls":[{"function":{"arguments":"{\\"city\\": \\"Paris\\"}","name":"get_weather"},'
    '"id":"call_llmstub_1","type":"function"}]}}],"created":0,"id":"chatcmpl-tgfake-1",'
    '"model":"tgfake-demo","object":"chat.completion","usage":{"completion_tokens":1,"prompt_tokens":1,'
    '"total_tokens":2}}\n'
)
TOOL_ANSWER = (
    '{"choices":[{"finish_reason":"stop","index":0,"message":{"content":"It is sunny in Paris.",'
    '"role":"assistant"}}],"created":0,"id":"chatcmpl-tgfake-2","model":"tgfake-demo",'
    '"object":"chat.completion","usage":{"completion_tokens":5,"prompt_tokens":1,"total_tokens":6}}\n'
)
TOOL_TURN_SECOND = """{"messages": [
  {"role": "user", "content": "What is the weather?"},
  {"role": "assistant", "content": null, "tool_calls": [{"id": "call_llmstub_1", "type": "function",
   "function": {"name": "get_weather", "arguments": "{}"}}]},
  {"role": "tool", "tool_call_id": "call_llmstub_1", "content": "sunny"}
]}"""


async def test_tool_turn_from_the_seed(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=WEATHER_RULES)
    first = await stand.chat('{"messages": [{"role": "user", "content": "What is the weather?"}]}')
    assert without_created(await first.text()) == TOOL_CALL
    second = await stand.chat(TOOL_TURN_SECOND)
    assert without_created(await second.text()) == TOOL_ANSWER


async def test_tool_without_arguments_sends_an_empty_object(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=[{"match": "time", "tool": {"name": "now"}, "answer": "noon"}])
    call = (await stand.say("what time"))["choices"][0]["message"]["tool_calls"][0]
    assert call["function"] == {"arguments": "{}", "name": "now"}


async def test_an_assistant_message_last_calls_the_tool_again(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=WEATHER_RULES)
    answer = await stand.chat_json(
        {
            "messages": [
                {"role": "user", "content": "weather?"},
                {"role": "assistant", "content": "let me check"},
            ]
        }
    )
    assert answer["choices"][0]["finish_reason"] == "tool_calls"


async def test_streamed_tool_call_is_one_chunk_then_finish_usage_done(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=WEATHER_RULES, delay=10.0)  # a pause would be visible; none is taken
    response = await stand.chat({"stream": True, "messages": [{"role": "user", "content": "weather?"}]})
    events = [json.loads(e) for e in sse_events(await response.text())[:-1]]
    assert len(events) == 3
    assert events[0]["choices"] == [
        {
            "delta": {
                "role": "assistant",
                "tool_calls": [
                    {
                        "function": {"arguments": '{"city": "Paris"}', "name": "get_weather"},
                        "id": "call_llmstub_1",
                        "index": 0,
                        "type": "function",
                    }
                ],
            },
            "finish_reason": None,
            "index": 0,
        }
    ]
    assert events[1]["choices"] == [{"delta": {}, "finish_reason": "tool_calls", "index": 0}]
    assert events[2]["usage"] == {"completion_tokens": 1, "prompt_tokens": 1, "total_tokens": 2}
    assert events[2]["choices"] == []


async def test_tool_calls_move_the_answer_rotation(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=WEATHER_RULES[:1], answers=["first", "second", "third"])
    assert content(await stand.say("a")) == "first"
    await stand.say("weather")
    assert content(await stand.say("b")) == "third"


# ----- tag stripping -----

STATE_AFTER = {
    "messages": [
        {"role": "user", "content": "hello"},
        {"role": "user", "content": "<turn_context>state</turn_context>"},
    ]
}


async def test_strip_tag_from_the_seed(make_llm: MakeStand) -> None:
    stripped = await make_llm(strip_tags=["turn_context"])
    assert content(await stripped.chat_json(STATE_AFTER)) == "You said: hello"
    plain = await make_llm()
    assert content(await plain.chat_json(STATE_AFTER)) == "You said: <turn_context>state</turn_context>"


async def test_strip_tag_cuts_blocks_inside_a_message_and_unclosed_ones(make_llm: MakeStand) -> None:
    stand = await make_llm(strip_tags=["turn_context", "memo"])
    answer = await stand.say("before <turn_context>x</turn_context> after <memo>a</memo>!<TURN_CONTEXT>k")
    assert content(answer) == "You said: before  after !<TURN_CONTEXT>k"
    assert content(await stand.say("open <turn_context> never closed")) == "You said: open"


async def test_a_user_message_left_empty_is_skipped_for_the_tool_result_check(make_llm: MakeStand) -> None:
    messages = [
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function"}]},
        {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
        {"role": "user", "content": "<turn_context>state</turn_context>"},
    ]
    rules = [{"match": "", "tool": {"name": "get_weather"}, "answer": "It is sunny in Paris."}]
    stripped = await make_llm(rules=rules, strip_tags=["turn_context"])
    assert content(await stripped.chat_json({"messages": messages})) == "It is sunny in Paris."
    plain = await make_llm(rules=rules)
    answer = await plain.chat_json({"messages": messages})
    assert answer["choices"][0]["finish_reason"] == "tool_calls"
