"""Echo and random answers (seed 000): content, refusals at their exact boundaries, finish reasons."""

from __future__ import annotations

import random
from typing import Any

import pytest

from llmstub.generate import Generated, GenerationError, count_tokens, generate_answer, tokenize
from llmstub.generate.text import LEAD_INS, SENTENCES


def ok(answer: Generated | GenerationError) -> Generated:
    assert isinstance(answer, Generated), answer
    return answer


def refused(answer: Generated | GenerationError) -> GenerationError:
    assert isinstance(answer, GenerationError), answer
    assert answer.status == 400
    return answer


def words(n: int) -> str:
    return " ".join(f"w{i}" for i in range(n))


# --------------------------------------------------------------------------- tokenizer


def test_tokenizer_splits_words_and_single_punctuation_marks() -> None:
    assert tokenize("Testing, testing 1,2,3.") == ["Testing", ", ", "testing ", "1", ",", "2", ",", "3", "."]
    assert tokenize("  Hi!!  ") == ["  Hi", "!", "!  "]
    assert tokenize("") == []
    assert tokenize(" \n ") == []
    assert count_tokens("naïve café — ok") == 4


# --------------------------------------------------------------------------- echo


def test_echo_returns_the_prompt_unmodified() -> None:
    prompt = "  Keep   my spacing,\nplease!  "
    answer = ok(generate_answer(mode="echo", prompt=prompt, max_tokens=50, ignore_eos=True))
    assert answer.text == prompt
    assert "".join(answer.tokens) == prompt
    assert answer.completion_tokens == answer.prompt_tokens == count_tokens(prompt) == 6
    assert answer.finish_reason == "stop"


def test_echo_in_chat_returns_the_last_message_and_counts_the_whole_conversation() -> None:
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [{"type": "text", "text": "Echo"}, {"type": "text", "text": "this."}]},
    ]
    answer = ok(generate_answer(mode="echo", messages=messages))
    assert answer.text == "Echo this."
    assert answer.prompt_tokens == 3 + 3
    assert answer.completion_tokens == 3


def test_echo_context_check_boundary() -> None:
    assert ok(generate_answer(mode="echo", prompt=words(50), max_model_len=100)).text == words(50)
    error = refused(generate_answer(mode="echo", prompt=words(51), max_model_len=101))
    assert error.message == (
        "This model's maximum context length is 101 tokens. However, you requested 102 tokens "
        "(51 in the prompt, 51 in the echoed completion). Please reduce the length of the prompt."
    )
    assert (error.param, error.code, error.type) == (
        "prompt",
        "context_length_exceeded",
        "invalid_request_error",
    )
    assert error.body() == {
        "error": {
            "message": error.message,
            "type": "invalid_request_error",
            "param": "prompt",
            "code": "context_length_exceeded",
        }
    }


def test_echo_max_tokens_boundary() -> None:
    answer = ok(generate_answer(mode="echo", prompt=words(10), max_tokens=10))
    assert answer.text == words(10)
    assert answer.finish_reason == "length"  # the answer used the whole allowance
    assert ok(generate_answer(mode="echo", prompt=words(10), max_tokens=11)).finish_reason == "stop"
    error = refused(generate_answer(mode="echo", prompt=words(10), max_tokens=9))
    assert error.message == (
        "max_tokens is 9, but echo mode returns the prompt unmodified and it is 10 tokens long. "
        "Please raise max_tokens to at least 10 or shorten the prompt."
    )
    assert error.param == "max_tokens"


def test_echo_max_completion_tokens_wins_over_max_tokens() -> None:
    messages = [{"role": "user", "content": words(10)}]
    error = refused(generate_answer(mode="echo", messages=messages, max_tokens=100, max_completion_tokens=5))
    assert error.param == "max_completion_tokens"
    assert "the last message unmodified and it is 10 tokens long" in error.message
    ok(generate_answer(mode="echo", messages=messages, max_tokens=5, max_completion_tokens=10))


# --------------------------------------------------------------------------- random


def test_random_context_check_boundary() -> None:
    answer = ok(generate_answer(mode="random", prompt=words(99), max_model_len=100, seed=1))
    assert (answer.completion_tokens, answer.finish_reason) == (1, "length")
    error = refused(generate_answer(mode="random", prompt=words(100), max_model_len=100, max_tokens=1))
    assert error.message == (
        "This model's maximum context length is 100 tokens. However, you requested 101 tokens "
        "(100 in the prompt, 1 in the completion). Please reduce the length of the prompt."
    )
    assert error.code == "context_length_exceeded"


def test_random_does_not_count_max_tokens_in_the_context_check() -> None:
    answer = ok(
        generate_answer(mode="random", prompt=words(90), max_tokens=500, max_model_len=100, ignore_eos=True)
    )
    assert answer.completion_tokens == 10  # capped to the room left: 100 - 90
    assert answer.finish_reason == "length"


def test_random_ignore_eos_gives_exactly_max_tokens() -> None:
    for n in (1, 7, 64, 333):
        answer = ok(generate_answer(mode="random", prompt="Hi", max_tokens=n, ignore_eos=True, seed=n))
        assert answer.completion_tokens == n == count_tokens(answer.text)
        assert answer.finish_reason == "length"


def test_random_text_comes_from_the_predefined_sentences() -> None:
    answer = ok(generate_answer(mode="random", prompt="Hi", max_tokens=400, ignore_eos=True, seed=3))
    assert answer.text.startswith(LEAD_INS)
    body = answer.text.split(",", 1)[1].strip()
    first_sentence = body.split(".")[0] + "."
    assert any(s.lower() == first_sentence.lower() for s in SENTENCES)
    assert "".join(answer.tokens) == answer.text
    assert tokenize(answer.text) == list(answer.tokens)


def test_random_is_reproducible_from_a_seed_or_an_rng() -> None:
    first = generate_answer(mode="random", prompt="Hi", max_tokens=80, seed=42)
    assert first == generate_answer(mode="random", prompt="Hi", max_tokens=80, seed=42)
    assert first == generate_answer(mode="random", prompt="Hi", max_tokens=80, rng=random.Random(42))
    assert first != generate_answer(mode="random", prompt="Hi", max_tokens=80, seed=43)


@pytest.mark.parametrize("mode", ["echo", "random"])
def test_max_tokens_below_one_is_refused(mode: str) -> None:
    error = refused(generate_answer(mode=mode, prompt="Hi", max_tokens=0))  # type: ignore[arg-type]
    assert error.message == "max_tokens must be at least 1, got 0"
    assert error.param == "max_tokens"


def test_random_ignore_eos_needs_a_max() -> None:
    error = refused(generate_answer(mode="random", prompt="Hi", ignore_eos=True))
    assert error.message == "ignore_eos is true but neither max_tokens nor max_completion_tokens is set"


def test_empty_messages_are_refused() -> None:
    assert refused(generate_answer(mode="random", messages=[])).param == "messages"


def test_programming_errors_raise() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        generate_answer(mode="echo")
    with pytest.raises(ValueError, match="mode"):
        generate_answer(mode="script", prompt="x")  # type: ignore[arg-type]
