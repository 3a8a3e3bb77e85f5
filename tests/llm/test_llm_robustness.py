"""Generated hostile input never makes the model or the fixtures answer 500 (issue 14's classes).

Bodies mix the fields the routes read with the classes that once broke them: nesting past any limit,
lone surrogates (as escapes and in header bytes), huge and non-finite numbers, invalid UTF-8; the
fixture routes get extreme dates and odd query text. Every answer must be below 500 and, for a
refusal, an error object; afterwards the journal must still read.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llmstub import Model, ModelOptions
from tgfake.options import Options
from tgfake.testing import ThreadedStand

ROUTES = [
    "/v1/chat/completions",
    "/v1/completions",
    "/v1/embeddings",
    "/v1/moderations",
    "/v1/images/generations",
    "/v1/audio/speech",
]
FIELDS = [
    "model", "messages", "prompt", "stream", "stream_options", "tools", "tool_choice", "functions",
    "function_call", "response_format", "n", "user", "seed", "max_tokens", "input", "dimensions",
    "encoding_format", "voice", "size", "quality", "style",
]  # fmt: skip

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
    | st.sampled_from(["json_schema", "json_object", "required", "none", "base64", "float", "mp3", "wav"])
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=16,
)
messages = st.lists(
    st.fixed_dictionaries({"role": st.sampled_from(["user", "system", "assistant", "tool"]), "content": json_values}),
    max_size=3,
)
bodies = st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=6) | st.fixed_dictionaries(
    {"messages": messages}, optional={"response_format": json_values, "tools": json_values, "n": json_values}
)


def hostile(text: str, data: st.DataObject) -> bytes:
    """Splice one of issue 14's classes into a valid JSON text, at a value position when possible."""
    kind = data.draw(st.sampled_from(["none", "deep", "surrogate", "number", "utf8", "bom"]))
    if kind == "none":
        return text.encode()
    if kind == "bom":
        return b"\xef\xbb\xbf" + text.encode()
    if kind == "utf8":
        raw = text.encode()
        at = data.draw(st.integers(0, len(raw)))
        return raw[:at] + data.draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80"])) + raw[at:]
    if kind == "deep":
        depth = data.draw(st.integers(60, 3000))
        opener = data.draw(st.sampled_from(["[", '{"a":']))
        closer = "]" if opener == "[" else "}"
        value = opener * depth + "1" + closer * depth
    elif kind == "surrogate":
        value = '"' + data.draw(st.sampled_from(["\\ud800", "\\udfff", "x\\udbff", "\\ud83d\\u0041"])) + '"'
    else:
        value = data.draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "-1e400", "9" * 5000, "1" * 400]))
    if text.endswith("}") and len(text) > 2:
        key = data.draw(st.sampled_from(FIELDS))
        return (text[:-1] + f',"{key}":{value}}}').encode()
    return value.encode()


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    with ThreadedStand(Options(poll_max=0.05), model=Model(ModelOptions(delay=0.0))) as stand:
        yield stand.url


def request(url: str, *, data: bytes | None = None, method: str = "POST") -> tuple[int, bytes]:
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=20) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def assert_refusal_or_answer(status: int, answer: bytes) -> None:
    assert status < 500, answer[:500]
    if status >= 400 and answer.startswith(b"{"):
        assert json.loads(answer)["error"]


SLOW = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SLOW
@given(route=st.sampled_from(ROUTES), body=bodies | json_values, data=st.data())
def test_the_model_routes_never_answer_500(origin: str, route: str, body: Any, data: st.DataObject) -> None:
    raw = hostile(json.dumps(body), data)
    status, answer = request(origin + route, data=raw)
    assert_refusal_or_answer(status, answer)
    log_status, log = request(origin + "/sim/llm/log", method="GET")
    assert log_status == 200, log[:300]
    json.loads(log)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=json_values, data=st.data())
def test_the_script_route_never_answers_500(origin: str, body: Any, data: st.DataObject) -> None:
    rules = body if isinstance(body, list) else [body]
    status, answer = request(origin + "/sim/llm/script", data=hostile(json.dumps(rules), data), method="PUT")
    assert_refusal_or_answer(status, answer)
    request(origin + "/sim/llm/script", data=b"[]", method="PUT")


dates = st.one_of(
    st.datetimes(timezones=st.timezones()).map(lambda d: d.isoformat()),
    st.sampled_from(
        [
            "9999-12-31T23:59:59.999-14:00",
            "9999-12-31T23:59:59.999+14:00",
            "0001-01-01T00:00:00+14:00",
            "1970-01-01T00:00:00+00:01",
            "1970-01-01",
            "9999-12-31",
            "+275760-09-13",
            "2026-02-30",
            "2026-07-30T24:00:00Z",
        ]
    ),
)
query_text = st.text(max_size=30) | st.integers(min_value=-(2**70), max_value=2**70).map(str) | dates


@SLOW
@given(
    params=st.dictionaries(
        st.sampled_from(["asOf", "seed", "count", "maxTokens", "prompt", "model", "finishReason", "fields", "format"]),
        query_text,
        max_size=4,
    ),
    chunks=st.booleans(),
    raw=st.sampled_from(["", "asOf=%ff", "prompt=%ED%A0%80", "seed=%00", "asOf=%2B1e999"]),
)
def test_the_fixture_routes_never_answer_500(origin: str, params: dict[str, str], chunks: bool, raw: str) -> None:
    safe = {k: v.encode("utf-8", "surrogatepass").decode("utf-8", "replace") for k, v in params.items()}
    query = "&".join(part for part in (urllib.parse.urlencode(safe), raw) if part)
    path = "/api/llm-completions/chunks" if chunks else "/api/llm-completions"
    status, answer = request(f"{origin}{path}?{query}", method="GET")
    assert status < 500, answer[:500]


def test_the_model_still_serves(origin: str) -> None:
    status, body = request(
        f"{origin}/v1/chat/completions", data=b'{"messages":[{"role":"user","content":"still here"}]}'
    )
    assert (status, json.loads(body)["choices"][0]["message"]["content"]) == (200, "You said: still here")


MULTIPART = (
    b'--XB\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n'
    b'--XB\r\nContent-Disposition: form-data; name="response_format"\r\n\r\njson\r\n'
    b'--XB\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n'
    b"RIFF\x24\x00\x00\x00WAVEfmt \r\n--XB--\r\n"
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    route=st.sampled_from(["/v1/audio/transcriptions", "/v1/audio/translations"]),
    cut=st.integers(0, len(MULTIPART)),
    noise=st.binary(max_size=12),
)
def test_a_cut_multipart_body_is_answered_or_refused_never_500(origin: str, route: str, cut: int, noise: bytes) -> None:
    """Any prefix of a valid transcription form, with any bytes after it: a 200 only for the whole form, else a 400
    in OpenAI's error shape."""
    body = MULTIPART[:cut] + noise
    req = urllib.request.Request(origin + route, data=body, method="POST")
    req.add_header("Content-Type", "multipart/form-data; boundary=XB")
    try:
        with urllib.request.urlopen(req, timeout=20) as resp:
            status, answer = resp.status, resp.read()
    except urllib.error.HTTPError as err:
        status, answer = err.code, err.read()
    assert status in (200, 400), answer[:300]
    if status == 400:
        error = json.loads(answer)["error"]
        assert set(error) == {"message", "type", "param", "code"}
        assert error["type"] == "invalid_request_error"
    else:
        assert body.startswith(MULTIPART[: MULTIPART.index(b"--XB--")])
