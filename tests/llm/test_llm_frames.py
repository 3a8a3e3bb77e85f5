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
