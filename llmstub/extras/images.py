"""``POST /v1/images/generations``: a solid-colour PNG of the asked size, as base64 or a URL served here.

The colour comes from a hash of the prompt, so the same prompt draws the same picture. A URL
(``response_format: url``, DALL·E's default) points at ``GET /v1/images/files/<w>x<h>/<rrggbb>.png``,
which draws it again on each request: nothing is stored.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
from typing import TYPE_CHECKING

from aiohttp import web
from PIL import Image

from ..http import error_response, json_response, read_post_object

if TYPE_CHECKING:
    from ..serving import ServingModel

__all__ = ["SIZES", "image_file", "images", "png"]

SIZES = ("256x256", "512x512", "1024x1024", "1792x1024", "1024x1792", "1536x1024", "1024x1536")
DEFAULT_SIZE = "1024x1024"
MAX_IMAGES = 10
FILE_PATH = re.compile(r"(\d{1,4})x(\d{1,4})/([0-9a-f]{6})\.png")


def png(width: int, height: int, colour: str) -> bytes:
    """A PNG of one ``rrggbb`` colour (solid colours compress to a few hundred bytes)."""
    out = io.BytesIO()
    Image.new("RGB", (width, height), "#" + colour).save(out, format="PNG")
    return out.getvalue()


async def images(model: ServingModel, request: web.Request) -> web.StreamResponse:
    body = await read_post_object(request)
    if isinstance(body, web.Response):
        return body
    prompt = body.get("prompt")
    if not isinstance(prompt, str) or not prompt:
        return error_response(400, "prompt must be a non-empty string", param="prompt")
    count = body.get("n")
    if count is None:
        count = 1
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_IMAGES:
        return error_response(400, f"n must be an integer from 1 to {MAX_IMAGES}", param="n")
    size = body.get("size") or DEFAULT_SIZE
    if size == "auto":
        size = DEFAULT_SIZE
    if size not in SIZES:
        return error_response(400, f"size must be one of {', '.join(SIZES)} or auto", param="size")
    response_format = body.get("response_format") or "url"
    if response_format not in ("url", "b64_json"):
        return error_response(400, "response_format must be url or b64_json", param="response_format")
    width, height = (int(side) for side in size.split("x"))
    data = []
    for index in range(count):
        colour = hashlib.sha256(f"{index}:{prompt}".encode("utf-8", "surrogatepass")).hexdigest()[:6]
        if response_format == "b64_json":
            item = {"b64_json": base64.b64encode(png(width, height, colour)).decode()}
        else:
            origin = f"{request.scheme}://{request.host}"
            item = {"url": f"{origin}/v1/images/files/{width}x{height}/{colour}.png"}
        data.append(item | {"revised_prompt": prompt})
    return json_response(200, {"created": int(model.clock()), "data": data})


async def image_file(model: ServingModel, request: web.Request) -> web.StreamResponse:
    if request.method not in ("GET", "HEAD"):
        return model.method_not_allowed("GET, HEAD")
    found = FILE_PATH.fullmatch(request.match_info["name"])
    if found is None or not all(1 <= int(found[i]) <= 1792 for i in (1, 2)):
        return error_response(404, "no such image", code="not_found")
    return web.Response(body=png(int(found[1]), int(found[2]), found[3]), content_type="image/png")
