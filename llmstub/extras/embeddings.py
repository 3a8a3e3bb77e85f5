"""``POST /v1/embeddings``: deterministic vectors that a retrieval test can reason about.

A vector is feature hashing of the input's lowercased words: each word adds ±1 at 16 positions picked
by its BLAKE2 hash, and the sum is scaled to unit length (OpenAI's embeddings are unit vectors). So
the same text always gets the same vector, on any machine; texts sharing words are closer (a higher
cosine) than texts sharing none; and a token array embeds its token ids as words. Values are float32,
the precision ``encoding_format: base64`` carries, so both encodings give the same numbers.
"""

from __future__ import annotations

import base64
import hashlib
import math
import re
import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from aiohttp import web

from ..generate import count_tokens
from ..http import error_response, json_response, read_post_object

if TYPE_CHECKING:
    from ..serving import ServingModel

__all__ = ["DEFAULT_DIMENSIONS", "MAX_DIMENSIONS", "MAX_INPUTS", "embed", "embeddings"]

DEFAULT_DIMENSIONS = 1536  # text-embedding-3-small's
MAX_DIMENSIONS = 3072  # text-embedding-3-large's
MAX_INPUTS = 2048
_PLACES = 16
_WORD = re.compile(r"\w+")


def embed(words: Sequence[str], dimensions: int) -> list[float]:
    """The unit vector of ``words`` (the whole text when it has none), rounded to float32."""
    vector = [0.0] * dimensions
    for word in words:
        digest = hashlib.blake2b(word.encode("utf-8", "surrogatepass"), digest_size=64).digest()
        for place in range(_PLACES):
            value = int.from_bytes(digest[place * 4 : place * 4 + 4], "little")
            vector[(value >> 1) % dimensions] += -1.0 if value & 1 else 1.0
    norm = math.sqrt(sum(v * v for v in vector))
    if norm == 0:  # words whose places cancelled out: fall back to one place
        vector[0], norm = 1.0, 1.0
    packed = struct.pack(f"<{dimensions}f", *(v / norm for v in vector))
    return list(struct.unpack(f"<{dimensions}f", packed))


def _inputs(value: Any) -> list[tuple[list[str], int]] | str:
    """Each input as (words, tokens), or the refusal's message."""
    single_tokens = isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    if isinstance(value, str) or (value and single_tokens):
        value = [value]
    if not isinstance(value, list) or not value:
        return "input must be a non-empty string, an array of strings, or an array of token arrays"
    if len(value) > MAX_INPUTS:
        return f"input must have at most {MAX_INPUTS} items, got {len(value)}"
    out: list[tuple[list[str], int]] = []
    for index, item in enumerate(value):
        if isinstance(item, str):
            if not item:
                return f"input[{index}] must not be empty"
            out.append((_WORD.findall(item.lower()) or [item], count_tokens(item)))
        elif isinstance(item, list) and item and all(
            isinstance(t, int) and not isinstance(t, bool) and 0 <= t < 2**32 for t in item
        ):
            out.append(([str(t) for t in item], len(item)))
        else:
            return f"input[{index}] must be a non-empty string or a non-empty array of token ids (0 to 2**32-1)"
    return out


async def embeddings(model: ServingModel, request: web.Request) -> web.StreamResponse:
    body = await read_post_object(request)
    if isinstance(body, web.Response):
        return body
    if "input" not in body:
        return error_response(400, "input is required", param="input")
    inputs = _inputs(body["input"])
    if isinstance(inputs, str):
        return error_response(400, inputs, param="input")
    dimensions = body.get("dimensions")
    if dimensions is None:
        dimensions = DEFAULT_DIMENSIONS
    elif isinstance(dimensions, bool) or not isinstance(dimensions, int) or not 1 <= dimensions <= MAX_DIMENSIONS:
        return error_response(
            400, f"dimensions must be an integer from 1 to {MAX_DIMENSIONS}", param="dimensions"
        )
    encoding = body.get("encoding_format") or "float"
    if encoding not in ("float", "base64"):
        return error_response(400, "encoding_format must be float or base64", param="encoding_format")
    data = []
    for index, (words, _) in enumerate(inputs):
        vector = embed(words, dimensions)
        encoded: Any = vector
        if encoding == "base64":
            encoded = base64.b64encode(struct.pack(f"<{dimensions}f", *vector)).decode()
        data.append({"embedding": encoded, "index": index, "object": "embedding"})
    tokens = sum(t for _, t in inputs)
    return json_response(
        200,
        {
            "data": data,
            "model": model.model_id,
            "object": "list",
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        },
    )
