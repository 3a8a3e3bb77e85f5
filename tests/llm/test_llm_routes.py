"""Routes, request reading and the seed's curl exchanges, compared byte for byte (modulo ``created``)."""

from __future__ import annotations

import json

from aiohttp import web

from llmstub import Model
from tests.llm.llm_support import LlmStand, MakeStand, content, invalid_request, sse_events, without_created

SEED_PLAIN = (
    '{"choices":[{"finish_reason":"stop","index":0,"message":{"content":"You said: hi there",'
    '"role":"assistant"}}],"created":0,"id":"chatcmpl-tgfake-1","model":"tgfake-demo",'
    '"object":"chat.completion","usage":{"completion_tokens":4,"prompt_tokens":1,"total_tokens":5}}\n'
)

_CHUNK = (
    '{{"choices":[{{"delta":{delta},"finish_reason":{finish},"index":0}}],"created":0,'
    '"id":"chatcmpl-tgfake-2","model":"tgfake-demo","object":"chat.completion.chunk"}}'
)
SEED_STREAM = [
    _CHUNK.format(delta='{"content":"","role":"assistant"}', finish="null"),
    _CHUNK.format(delta='{"content":"You "}', finish="null"),
    _CHUNK.format(delta='{"content":"said: "}', finish="null"),
    _CHUNK.format(delta='{"content":"two "}', finish="null"),
    _CHUNK.format(delta='{"content":"words"}', finish="null"),
    _CHUNK.format(delta="{}", finish='"stop"'),
    '{"choices":[],"created":0,"id":"chatcmpl-tgfake-2","model":"tgfake-demo",'
    '"object":"chat.completion.chunk","usage":{"completion_tokens":4,"prompt_tokens":1,"total_tokens":5}}',
    "[DONE]",
]


async def test_models_lists_the_one_model(llm: LlmStand) -> None:
    response = await llm.client.get("/v1/models")
    assert response.status == 200
    assert response.content_type == "application/json"
    assert await response.text() == (
        '{"data":[{"id":"tgfake-demo","object":"model","owned_by":"tgfake"}],"object":"list"}\n'
    )


async def test_llm_model_names_the_reported_id(make_llm: MakeStand) -> None:
    stand = await make_llm(model_id="my-model")
    models = await (await stand.client.get("/v1/models")).json()
    assert [m["id"] for m in models["data"]] == ["my-model"]
    answer = await stand.say("hi", model="gpt-4o")
    assert answer["model"] == "my-model"


async def test_seed_exchange_without_streaming(llm: LlmStand) -> None:
    response = await llm.chat(
        '{"model": "any", "messages": [{"role": "user", "content": "hi there"}]}',
        headers={"Authorization": "Bearer whatever"},
    )
    assert response.status == 200
    assert response.content_type == "application/json"
    assert without_created(await response.text()) == SEED_PLAIN


async def test_seed_exchange_streamed(llm: LlmStand) -> None:
    await llm.say("hi there")
    response = await llm.chat('{"stream": true, "messages": [{"role": "user", "content": "two words"}]}')
    assert response.status == 200
    assert response.headers["Content-Type"] == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache"
    assert sse_events(without_created(await response.text())) == SEED_STREAM


async def test_usage_chunk_is_sent_whatever_stream_options_says(llm: LlmStand) -> None:
    for options in ({"include_usage": False}, {"include_usage": True}, None):
        body = {"stream": True, "stream_options": options, "messages": [{"role": "user", "content": "x"}]}
        events = sse_events(await (await llm.chat(body)).text())
        usage = json.loads(events[-2])
        assert usage["choices"] == []
        assert usage["usage"] == {"completion_tokens": 3, "prompt_tokens": 1, "total_tokens": 4}


async def test_other_v1_paths_are_a_plain_404(llm: LlmStand) -> None:
    for method, path in (("GET", "/v1/files"), ("POST", "/v1/batches"), ("POST", "/v1/assistants"), ("GET", "/v1/")):
        response = await llm.client.request(method, path)
        assert response.status == 404
        assert response.content_type == "text/plain"
        assert await response.text() == "404 page not found\n"


async def test_known_path_with_the_wrong_method_is_405(llm: LlmStand) -> None:
    response = await llm.client.get("/v1/chat/completions")
    assert response.status == 405
    assert response.headers["Allow"] == "POST"
    response = await llm.client.post("/v1/models")
    assert response.status == 405
    assert response.headers["Allow"] == "GET, HEAD"


async def test_a_body_that_is_not_json_is_400(llm: LlmStand) -> None:
    for body in ("nope", "", "{"):
        response = await llm.chat(body)
        assert response.status == 400
        assert await response.text() == (
            '{"error":{"code":null,"message":"invalid JSON body","param":null,"type":"invalid_request_error"}}\n'
        )
    assert (await llm.log())["calls"] == 0


async def test_badly_shaped_requests_name_the_field(llm: LlmStand) -> None:
    cases = {
        "[]": ("request body must be a JSON object", None),
        '{"messages": {}}': ("messages must be an array", "messages"),
        '{"messages": [1]}': ("messages[0] must be an object", "messages"),
        '{"messages": [{"role": "user", "content": 5}]}': (
            "messages[0].content must be a string, an array of parts or null",
            "messages",
        ),
        '{"stream": "yes", "messages": []}': ("stream must be a boolean", "stream"),
        '{"model": 3}': ("model must be a string", "model"),
        '{"tools": {}}': ("tools must be an array", "tools"),
        '{"user": 1}': ("user must be a string", "user"),
    }
    for body, (message, param) in cases.items():
        assert await llm.chat_json(body, status=400) == invalid_request(message, param)


async def test_content_as_typed_parts_counts_the_text_parts(llm: LlmStand) -> None:
    answer = await llm.say(
        [  # type: ignore[arg-type]
            {"type": "text", "text": "look "},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
            {"type": "text", "text": "here"},
        ]
    )
    assert content(answer) == "You said: look here"


async def test_prompt_is_the_newest_user_message_with_text(llm: LlmStand) -> None:
    answer = await llm.chat_json(
        {
            "messages": [
                {"role": "system", "content": "be kind"},
                {"role": "user", "content": "  first  "},
                {"role": "user", "content": "  second  "},
                {"role": "user", "content": "   "},
                {"role": "assistant", "content": "earlier answer"},
            ]
        }
    )
    assert content(answer) == "You said: second"
    assert answer["usage"] == {"completion_tokens": 3, "prompt_tokens": 1, "total_tokens": 4}


async def test_no_user_text_echoes_an_empty_prompt(llm: LlmStand) -> None:
    assert content(await llm.chat_json({"messages": []})) == "You said: "
    assert content(await llm.chat_json({})) == "You said: "


async def test_ids_number_the_calls(llm: LlmStand) -> None:
    ids = [(await llm.say(str(n)))["id"] for n in range(3)]
    assert ids == ["chatcmpl-tgfake-1", "chatcmpl-tgfake-2", "chatcmpl-tgfake-3"]


async def test_model_lives_on_the_app_and_two_models_are_independent(make_llm: MakeStand) -> None:
    from llmstub import MODEL_KEY

    first = await make_llm(answers=["one"])
    second = await make_llm(answers=["two"])
    assert content(await first.say("x")) == "one"
    assert content(await second.say("x")) == "two"
    assert first.client.app is not None
    assert first.client.app[MODEL_KEY] is first.model
    assert (await first.say("y"))["id"] == "chatcmpl-tgfake-2"
    assert (await second.say("y"))["id"] == "chatcmpl-tgfake-2"


async def test_register_adds_routes_only_under_v1_sim_llm_and_the_fixtures() -> None:
    app = web.Application()
    Model().register(app)
    paths = {resource.canonical for resource in app.router.resources()}
    assert paths == {
        "/v1/models",
        "/v1/models/{model_id}",
        "/v1/chat/completions",
        "/v1/embeddings",
        "/v1/moderations",
        "/v1/audio/transcriptions",
        "/v1/audio/translations",
        "/v1/audio/speech",
        "/v1/images/generations",
        "/v1/images/files/{name}",
        "/v1/completions",
        "/v1/responses",
        "/v1/responses/{id}",
        "/v1/messages",
        "/v1/{tail}",
        "/api/llm-completions",
        "/api/llm-completions/chunks",
        "/sim/llm/log",
        "/sim/llm/script",
        "/sim/llm/reset",
    }
