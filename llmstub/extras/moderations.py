"""``POST /v1/moderations``: nothing is flagged unless a rule with ``flag`` matches the input.

A rule ``{"match": "knife", "flag": ["violence"]}`` flags every input containing "knife"
(case-insensitive; ``model`` filters as for completions): the listed categories are true with a
score of 0.99, the others false at 0.0001. One result per input string; an array of typed parts
(text and image_url) is one input whose text parts are matched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from ..http import error_response, json_response, read_post_object
from ..rules import MODERATION_CATEGORIES, Rule

if TYPE_CHECKING:
    from ..serving import ServingModel

__all__ = ["DEFAULT_MODERATION_MODEL", "moderations", "verdict"]

DEFAULT_MODERATION_MODEL = "omni-moderation-latest"
FLAGGED_SCORE = 0.99
CLEAR_SCORE = 0.0001
IMAGE_CATEGORIES = frozenset(
    {"self-harm", "self-harm/intent", "self-harm/instructions", "sexual", "violence", "violence/graphic"}
)


def verdict(rules: list[Rule], text: str, model: str) -> set[str]:
    """The categories the first matching moderation rule flags (none when no rule matches)."""
    lowered = text.lower()
    for rule in rules:
        if rule.flag is None or (rule.model is not None and rule.model != model):
            continue
        if rule.match.lower() in lowered:
            return set(rule.flag)
    return set()


def _result(flagged: set[str], images: bool) -> dict[str, Any]:
    return {
        "categories": {name: name in flagged for name in MODERATION_CATEGORIES},
        "category_applied_input_types": {
            name: ["text", "image"] if images and name in IMAGE_CATEGORIES else ["text"]
            for name in MODERATION_CATEGORIES
        },
        "category_scores": {name: FLAGGED_SCORE if name in flagged else CLEAR_SCORE for name in MODERATION_CATEGORIES},
        "flagged": bool(flagged),
    }


def _texts(value: Any) -> list[tuple[str, bool]] | str:
    """Each input as (text, has images), or the refusal's message."""
    if isinstance(value, str):
        return [(value, False)]
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return [(v, False) for v in value]
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        texts, images = [], False
        for index, part in enumerate(value):
            kind = part.get("type")
            if kind == "text" and isinstance(part.get("text"), str):
                texts.append(part["text"])
            elif kind == "image_url" and isinstance(part.get("image_url"), dict):
                images = True
            else:
                return f"input[{index}] must be a text part or an image_url part"
        return [(" ".join(texts), images)]
    return "input must be a string, an array of strings, or an array of text and image_url parts"


async def moderations(model: ServingModel, request: web.Request) -> web.StreamResponse:
    body = await read_post_object(request)
    if isinstance(body, web.Response):
        return body
    if "input" not in body:
        return error_response(400, "input is required", param="input")
    texts = _texts(body["input"])
    if isinstance(texts, str):
        return error_response(400, texts, param="input")
    asked = body.get("model")
    if asked is not None and not isinstance(asked, str):
        return error_response(400, "model must be a string", param="model")
    rules = model.rules
    results = [_result(verdict(rules, text, asked or ""), images) for text, images in texts]
    answer = {"id": f"modr-tgfake-{model.next_id('moderation')}", "model": asked or DEFAULT_MODERATION_MODEL}
    return json_response(200, answer | {"results": results})
