"""Embeddings, moderations, audio and images, with the openai SDK as the oracle of every shape."""

from __future__ import annotations

import base64
import io
import math
import struct
import warnings
import wave
from typing import Any

import aiohttp
import mutagen.aac
import mutagen.flac
import mutagen.mp3
import mutagen.oggopus
import pytest
from openai import AsyncOpenAI, BadRequestError
from PIL import Image

from tests.llm.llm_support import LlmStand, MakeStand, invalid_request


def client_for(stand: LlmStand) -> AsyncOpenAI:
    return AsyncOpenAI(base_url=stand.base_url, api_key="sk-anything", max_retries=0)


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


# ----- embeddings -----


async def test_the_sdks_base64_default_and_floats_give_the_same_unit_vectors(llm: LlmStand) -> None:
    async with client_for(llm) as client:
        sdk = await client.embeddings.create(model="text-embedding-3-small", input=["red apple", "red car"])
        floats = await client.embeddings.create(model="m", input=["red apple", "red car"], encoding_format="float")
    assert [len(d.embedding) for d in sdk.data] == [1536, 1536]
    assert [d.embedding for d in sdk.data] == [d.embedding for d in floats.data]
    assert all(math.isclose(cosine(d.embedding, d.embedding), 1.0, rel_tol=1e-5) for d in sdk.data)
    assert [d.index for d in sdk.data] == [0, 1]
    assert sdk.usage.prompt_tokens == sdk.usage.total_tokens == 4
    assert sdk.model == "tgfake-demo"


async def test_shared_words_are_closer_and_vectors_are_stable(llm: LlmStand) -> None:
    async with client_for(llm) as client:
        answer = await client.embeddings.create(
            model="m",
            input=["the weather in Paris", "Paris weather today", "invoice number 42", "the weather in Paris"],
        )
    paris, weather, invoice, again = (d.embedding for d in answer.data)
    assert paris == again
    assert cosine(paris, weather) > 0.4 > cosine(paris, invoice)


async def test_dimensions_and_token_arrays(llm: LlmStand) -> None:
    async with client_for(llm) as client:
        answer = await client.embeddings.create(model="m", input=[[1, 2, 3], [1, 2, 4]], dimensions=64)
        single = await client.embeddings.create(model="m", input=[1, 2, 3], dimensions=64)
    assert [len(d.embedding) for d in answer.data] == [64, 64]
    assert single.data[0].embedding == answer.data[0].embedding
    assert answer.usage.prompt_tokens == 6


async def test_base64_is_little_endian_float32(llm: LlmStand) -> None:
    response = await llm.client.post(
        "/v1/embeddings", json={"input": "hello", "encoding_format": "base64", "dimensions": 8}
    )
    floats = await llm.client.post("/v1/embeddings", json={"input": "hello", "dimensions": 8})
    raw = base64.b64decode((await response.json())["data"][0]["embedding"])
    assert list(struct.unpack("<8f", raw)) == (await floats.json())["data"][0]["embedding"]


@pytest.mark.parametrize(
    ("body", "message", "param"),
    [
        ({}, "input is required", "input"),
        ({"input": ""}, "input[0] must not be empty", "input"),
        ({"input": []}, "input must be a non-empty string, an array of strings, or an array of token arrays", "input"),
        ({"input": [[]]}, "input[0] must be a non-empty string or a non-empty array of token ids (0 to 2**32-1)",
         "input"),
        ({"input": "a", "dimensions": 0}, "dimensions must be an integer from 1 to 3072", "dimensions"),
        ({"input": "a", "dimensions": 1e3}, "dimensions must be an integer from 1 to 3072", "dimensions"),
        ({"input": "a", "encoding_format": "hex"}, "encoding_format must be float or base64", "encoding_format"),
        ({"input": ["a"] * 2049}, "input must have at most 2048 items, got 2049", "input"),
    ],
)  # fmt: skip
async def test_bad_embedding_requests_name_the_field(
    llm: LlmStand, body: dict[str, Any], message: str, param: str
) -> None:
    response = await llm.client.post("/v1/embeddings", json=body)
    assert response.status == 400
    assert await response.json() == invalid_request(message, param)


# ----- moderations -----

MODERATION_RULES = [
    {"match": "knife", "flag": ["violence", "illicit/violent"]},
    {"match": "", "model": "strict", "flag": ["harassment"]},
]


async def test_a_flag_rule_flags_matching_inputs(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=MODERATION_RULES)
    async with client_for(stand) as client:
        answer = await client.moderations.create(input=["where is my KNIFE", "hello"])
        strict = await client.moderations.create(model="strict", input="hello")
    flagged, clear = answer.results
    assert (flagged.flagged, clear.flagged) == (True, False)
    assert flagged.categories.violence is True
    assert flagged.categories.illicit_violent is True
    assert flagged.categories.hate is False
    assert flagged.category_scores.violence > 0.9 > 0.01 > flagged.category_scores.hate
    assert answer.id.startswith("modr-tgfake-")
    assert answer.model == "omni-moderation-latest"
    assert strict.results[0].categories.harassment is True


async def test_moderation_rules_never_answer_completions(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=MODERATION_RULES)
    assert (await stand.say("a knife"))["choices"][0]["message"]["content"] == "You said: a knife"


async def test_parts_input_is_one_result(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=MODERATION_RULES)
    parts = [{"type": "text", "text": "a knife"}, {"type": "image_url", "image_url": {"url": "https://x/y.png"}}]
    response = await stand.client.post("/v1/moderations", json={"input": parts})
    results = (await response.json())["results"]
    assert len(results) == 1
    assert results[0]["flagged"] is True
    assert results[0]["category_applied_input_types"]["violence"] == ["text", "image"]
    assert results[0]["category_applied_input_types"]["hate"] == ["text"]


async def test_flag_rules_are_validated(llm: LlmStand) -> None:
    cases = {
        '[{"match": "x", "flag": ["gore"]}]': "rules[0]: unknown moderation category gore; the categories are "
        "harassment, harassment/threatening, hate, hate/threatening, illicit, illicit/violent, self-harm, "
        "self-harm/intent, self-harm/instructions, sexual, sexual/minors, violence, violence/graphic",
        '[{"match": "x", "flag": [], "answer": "a"}]': "rules[0]: a moderation rule matches with match and model "
        "only; drop answer",
        '[{"transcript": "t", "flag": []}]': "rules[0]: flag answers moderations and transcript transcriptions: "
        "one rule does one",
    }
    for script, message in cases.items():
        response = await llm.client.put("/sim/llm/script", data=script)
        assert (response.status, await response.json()) == (400, {"error": message})


# ----- audio -----


def wav_bytes(seconds: float) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(8000)
        file.writeframes(bytes(2 * int(8000 * seconds)))
    return out.getvalue()


async def test_transcriptions_answer_by_file_name_or_default(make_llm: MakeStand) -> None:
    stand = await make_llm(rules=[{"match": "order", "transcript": "two pizzas please"}])
    async with client_for(stand) as client:
        scripted = await client.audio.transcriptions.create(model="whisper-1", file=("Order-12.ogg", b"OggS..."))
        default = await client.audio.transcriptions.create(model="whisper-1", file=("voice.ogg", b"OggS..."))
        text = await client.audio.transcriptions.create(
            model="whisper-1", file=("order.wav", wav_bytes(2.5)), response_format="text"
        )
        verbose = await client.audio.transcriptions.create(
            model="whisper-1",
            file=("order.wav", wav_bytes(2.5)),
            response_format="verbose_json",
            timestamp_granularities=["word", "segment"],
        )
    form = aiohttp.FormData()
    form.add_field("file", b"\xff\xfb", filename="order.mp3")  # the SDK deprecates translations: post it by hand
    translated = await (await stand.client.post("/v1/audio/translations", data=form)).json()
    assert scripted.text == "two pizzas please"
    assert default.text == "Transcript of voice.ogg."
    assert text == "two pizzas please\n"
    assert (verbose.duration, verbose.text) == (2.5, "two pizzas please")
    assert verbose.words is not None
    assert [w.word for w in verbose.words] == ["two", "pizzas", "please"]
    assert verbose.words[-1].end == 2.5
    assert translated == {"text": "two pizzas please", "usage": {"seconds": 2, "type": "duration"}}


@pytest.mark.parametrize(
    ("response_format", "expected"),
    [
        ("srt", "1\n00:00:00,000 --> 00:00:02,500\nhi there\n\n"),
        ("vtt", "WEBVTT\n\n00:00:00.000 --> 00:00:02.500\nhi there\n\n"),
    ],
)
async def test_subtitle_formats(make_llm: MakeStand, response_format: str, expected: str) -> None:
    stand = await make_llm(transcript="hi there")
    async with client_for(stand) as client:
        answer = await client.audio.transcriptions.create(
            model="whisper-1",
            file=("a.wav", wav_bytes(2.5)),
            response_format=response_format,  # type: ignore[call-overload]
        )
    assert answer == expected


async def test_bad_transcription_requests(llm: LlmStand) -> None:
    not_multipart = await llm.client.post("/v1/audio/transcriptions", json={"file": "x"})
    assert await not_multipart.json() == invalid_request("the request must be multipart/form-data with a file field")
    async with client_for(llm) as client:
        with pytest.raises(BadRequestError) as caught:
            await client.audio.transcriptions.create(
                model="whisper-1",
                file=("a.wav", b"x"),
                response_format="xml",  # type: ignore[call-overload]
            )
    assert caught.value.param == "response_format"


FILE_HEAD = b'--XB\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\n'
MODEL_PART = b'--XB\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n'


@pytest.mark.parametrize("route", ["/v1/audio/transcriptions", "/v1/audio/translations"])
@pytest.mark.parametrize(
    ("body", "answer"),
    [
        (
            FILE_HEAD + b"RIFF",
            invalid_request("the multipart body cannot be read: it ends before its closing boundary"),
        ),
        (
            MODEL_PART + FILE_HEAD + b"RIFF\r\n--X",
            invalid_request("the multipart body cannot be read: it ends before its closing boundary"),
        ),
        (b"RIFF", invalid_request("the multipart body cannot be read: it does not open with its boundary")),
        (
            b'--XB\r\nContent-Disposition: form-data; name="file"\r\n\r\nnot a file\r\n--XB--\r\n',
            invalid_request("file must be a file (a part with a filename), not a text field", param="file"),
        ),
        (
            FILE_HEAD
            + b'RIFF\r\n--XB\r\nContent-Disposition: form-data; name="model"; filename="m"\r\n\r\nw\r\n--XB--',
            invalid_request("model must be a text field, not a file", param="model"),
        ),
    ],
    ids=["truncated-file", "truncated-boundary", "no-boundary", "file-as-text", "text-as-file"],
)
async def test_a_broken_multipart_body_is_a_400(llm: LlmStand, route: str, body: bytes, answer: Any) -> None:
    """POST /v1/audio/transcriptions (Content-Type: multipart/form-data; boundary=XB) with a body cut short, with
    no boundary, or with a field of the wrong kind: 400 in OpenAI's error shape, nothing half read."""
    headers = {"Content-Type": "multipart/form-data; boundary=XB"}
    resp = await llm.client.post(route, data=body, headers=headers)
    assert (resp.status, await resp.json()) == (400, answer)
    whole = await llm.client.post(route, data=MODEL_PART + FILE_HEAD + b"RIFF\r\n--XB--\r\n", headers=headers)
    assert (whole.status, (await whole.json())["text"]) == (200, "Transcript of a.wav.")


@pytest.mark.parametrize("warned", ["error", "ignore"])
async def test_a_part_with_a_broken_disposition_is_a_400(llm: LlmStand, warned: str) -> None:
    """``Content-Disposition: form-data;`` names no field: 400 whether aiohttp's warning about it is an error (as
    under pytest) or ignored (as in a served stand)."""
    body = b"--XB\r\nContent-Disposition: form-data;\r\n\r\nRIFF\r\n--XB--\r\n"
    with warnings.catch_warnings():
        warnings.simplefilter(warned)  # type: ignore[arg-type]
        resp = await llm.client.post(
            "/v1/audio/transcriptions", data=body, headers={"Content-Type": "multipart/form-data; boundary=XB"}
        )
    assert (resp.status, await resp.json()) == (
        400,
        invalid_request("the multipart body cannot be read: a part's headers are malformed"),
    )


@pytest.mark.parametrize(
    ("audio_format", "parse"),
    [
        ("mp3", mutagen.mp3.MP3),
        ("opus", mutagen.oggopus.OggOpus),
        ("aac", mutagen.aac.AAC),
        ("flac", mutagen.flac.FLAC),
    ],
)
async def test_speech_is_a_valid_file_of_the_asked_format(llm: LlmStand, audio_format: str, parse: Any) -> None:
    async with client_for(llm) as client:
        answer = await client.audio.speech.create(
            model="tts-1",
            voice="alloy",
            input="one two three four five",
            response_format=audio_format,  # type: ignore[arg-type]
        )
    data = answer.content
    info = parse(io.BytesIO(data)).info
    assert info.channels == 1
    assert 1.3 < info.length < 1.7  # 0.3 s a word


async def test_speech_as_wav_and_pcm(llm: LlmStand) -> None:
    async with client_for(llm) as client:
        wav = await client.audio.speech.create(model="tts-1", voice="alloy", input="one two", response_format="wav")
        pcm = await client.audio.speech.create(
            model="tts-1", voice="alloy", input="one two", response_format="pcm", speed=2.0
        )
    with wave.open(io.BytesIO(wav.content)) as file:
        assert (file.getnchannels(), file.getsampwidth(), file.getframerate()) == (1, 2, 24000)
        assert file.getnframes() == 24000 * 0.6
    assert len(pcm.content) == 2 * 24000 * 0.3
    assert wav.response.headers["content-type"] == "audio/wav"


async def test_bad_speech_requests(llm: LlmStand) -> None:
    cases = [
        ({"voice": "alloy"}, "input must be a non-empty string", "input"),
        ({"input": "x" * 4097}, "input must be at most 4096 characters, got 4097", "input"),
        ({"input": "a", "response_format": "ogg"}, "response_format must be one of mp3, opus, aac, flac, wav, pcm",
         "response_format"),
        ({"input": "a", "speed": 9}, "speed must be a number from 0.25 to 4.0", "speed"),
    ]  # fmt: skip
    for body, message, param in cases:
        response = await llm.client.post("/v1/audio/speech", json=body)
        assert (response.status, await response.json()) == (400, invalid_request(message, param))


# ----- images -----


async def test_images_as_base64_and_as_urls_served_here(llm: LlmStand) -> None:
    async with client_for(llm) as client:
        inline = await client.images.generate(prompt="a cat", size="256x256", response_format="b64_json", n=2)
        linked = await client.images.generate(prompt="a cat", size="1792x1024")
    assert inline.data is not None
    assert linked.data is not None
    first, second = (Image.open(io.BytesIO(base64.b64decode(d.b64_json or ""))) for d in inline.data)
    assert (first.format, first.size, second.size) == ("PNG", (256, 256), (256, 256))
    assert first.getpixel((0, 0)) != second.getpixel((0, 0))
    url = linked.data[0].url or ""
    assert url.startswith(str(llm.client.make_url("/v1/images/files/")))
    served = await llm.client.get(url.removeprefix(str(llm.client.make_url("/")).rstrip("/")))
    assert served.status == 200
    picture = Image.open(io.BytesIO(await served.read()))
    assert picture.size == (1792, 1024)
    assert picture.getpixel((0, 0)) == first.getpixel((0, 0))  # the same prompt and index: the same colour
    assert linked.data[0].revised_prompt == "a cat"


async def test_bad_image_requests(llm: LlmStand) -> None:
    cases = [
        ({}, "prompt must be a non-empty string", "prompt"),
        ({"prompt": "a", "n": 11}, "n must be an integer from 1 to 10", "n"),
        ({"prompt": "a", "size": "7x7"}, "size must be one of 256x256, 512x512, 1024x1024, 1792x1024, 1024x1792, "
         "1536x1024, 1024x1536 or auto", "size"),
        ({"prompt": "a", "response_format": "png"}, "response_format must be url or b64_json", "response_format"),
    ]  # fmt: skip
    for body, message, param in cases:
        response = await llm.client.post("/v1/images/generations", json=body)
        assert (response.status, await response.json()) == (400, invalid_request(message, param))
    missing = await llm.client.get("/v1/images/files/9999x1/ffffff.png")
    assert missing.status == 404
