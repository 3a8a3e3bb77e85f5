"""Streamed frames spliced into a pre-encoded chunk are byte for byte what encoding each chunk gives."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from llmstub import wire

ENV = wire.Envelope("chatcmpl-tgfake-1", 1_700_000_000, "tgfake-demo")


@given(st.lists(st.text(), max_size=8))
def test_spliced_chat_frames_equal_encoded_frames(pieces: list[str]) -> None:
    def chunk(piece: str) -> object:
        return wire.chat_chunk(ENV, delta={"content": piece})

    assert wire.sse_text_frames(chunk, pieces) == [wire.sse_frame(chunk(p)) for p in pieces]


@given(st.lists(st.text(), max_size=8))
def test_spliced_text_completion_frames_equal_encoded_frames(pieces: list[str]) -> None:
    def chunk(piece: str) -> object:
        return wire.text_chunk(ENV, piece)

    assert wire.sse_text_frames(chunk, pieces) == [wire.sse_frame(chunk(p)) for p in pieces]


@given(
    content=st.none() | st.text(),
    refusal=st.none() | st.text(),
    finish=st.sampled_from(["stop", "length", "content_filter"]),
    model=st.text(max_size=12),
    seq=st.integers(min_value=1, max_value=2**40),
    created=st.integers(min_value=0, max_value=2**40),
    tokens=st.integers(min_value=0, max_value=10**6),
    n=st.integers(min_value=1, max_value=4),
)
def test_a_completion_from_its_cached_encoding_equals_the_encoded_completion(
    content: str | None, refusal: str | None, finish: str, model: str, seq: int, created: int, tokens: int, n: int
) -> None:
    env = wire.Envelope(f"chatcmpl-tgfake-{seq}", created, model)
    usage = wire.usage_object(3, tokens)
    whole = wire.chat_completion(env, content=content, refusal=refusal, finish_reason=finish, usage=usage, n=n)
    spliced = wire.encoded_chat_completion(
        env, content=content, refusal=refusal, finish_reason=finish, usage=usage, n=n
    )
    assert spliced == (wire.dumps(whole) + "\n").encode()
