"""``/v1/audio/transcriptions`` (and ``translations``) and ``/v1/audio/speech``.

A transcription's text is scripted: the first rule with ``transcript`` whose ``match`` occurs in the
uploaded file's name (case-insensitive; ``model`` filters too) gives it, else
``ModelOptions.transcript``, else ``Transcript of <file name>.``. The duration is read from a WAV
file's header, otherwise estimated at 0.4 s a word. Speech answers ``seconds`` of silence in the
asked format (:mod:`.sounds`), 0.3 s a word of the input, 0.3 s to 8 s.
"""

from __future__ import annotations

import io
import math
import wave
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web
from aiohttp.hdrs import CONTENT_DISPOSITION
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.multipart import BadContentDispositionHeader, BadContentDispositionParam

from ..http import SURROGATES, error_response, json_response, read_post_object
from .sounds import CONTENT_TYPES, silence

if TYPE_CHECKING:
    from ..serving import ServingModel as Model  # the model serving the request (llmstub/serving.py)

__all__ = ["MAX_FILE", "RESPONSE_FORMATS", "speech", "transcriptions", "translations"]

MAX_FILE = 25 << 20  # OpenAI's limit for an uploaded audio file
RESPONSE_FORMATS = ("json", "text", "srt", "verbose_json", "vtt")
MAX_INPUT = 4096


MALFORMED_HEADERS = "the multipart body cannot be read: a part's headers are malformed"
FILE_FIELDS = frozenset({"file"})
"""The parts that must be files (a part with a filename, as ``curl -F file=@a.wav`` and the SDKs send it)."""


class _FormError(ValueError):
    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param


async def _read_form(request: web.Request) -> dict[str, Any]:
    """The multipart fields: strings, and ``file`` as (name, bytes); ``_FormError`` names a problem.

    A body cut short (no closing boundary, a part that ends with the body) or one that never opens with its
    boundary is refused whole, never half read; a file field sent as text, or a text field sent as a file, is
    refused naming the field.
    """
    if not request.content_type.startswith("multipart/"):
        raise _FormError("the request must be multipart/form-data with a file field")
    try:
        reader = await request.multipart()
    except (ValueError, AssertionError) as exc:
        raise _FormError(f"the multipart body cannot be read: {exc}") from None
    fields: dict[str, Any] = {}
    grains: list[str] = []
    parts = 0
    try:
        async for part in reader:
            parts += 1
            if not isinstance(part, BodyPartReader):
                raise _FormError("nested multipart bodies are not supported")
            await _read_part(part, fields, grains)
    except (HttpProcessingError, BadContentDispositionHeader, BadContentDispositionParam):
        raise _FormError(MALFORMED_HEADERS) from None  # header lines; a disposition (a warning, raised when errors)
    except (ValueError, AssertionError) as exc:  # aiohttp's reader: a boundary missing, or read past the body
        if isinstance(exc, _FormError):
            raise
        if not parts:
            raise _FormError("the multipart body cannot be read: it does not open with its boundary") from None
        raise _FormError("the multipart body cannot be read: it ends before its closing boundary") from None
    fields["timestamp_granularities"] = grains
    return fields


async def _read_part(part: BodyPartReader, fields: dict[str, Any], grains: list[str]) -> None:
    if part.name is None and CONTENT_DISPOSITION in part.headers:  # aiohttp warned and read no name
        raise _FormError(MALFORMED_HEADERS)
    name = part.name or ""
    is_file = part.filename is not None
    if name in FILE_FIELDS and not is_file:
        raise _FormError(f"{name} must be a file (a part with a filename), not a text field", param=name)
    if is_file and name not in FILE_FIELDS:
        raise _FormError(f"{name or 'a part'} must be a text field, not a file", param=name or None)
    data = bytearray()
    while chunk := await part.read_chunk(64 << 10):
        data.extend(chunk)
        if len(data) > MAX_FILE:
            raise _FormError(f"{name or 'a part'} is larger than {MAX_FILE} bytes", param=name or None)
    if name in FILE_FIELDS:
        fields[name] = (part.filename or name, bytes(data))
        return
    try:
        text = bytes(data).decode("utf-8")
    except UnicodeDecodeError:
        raise _FormError(f"{name} is not valid UTF-8", param=name or None) from None
    if name in ("timestamp_granularities[]", "timestamp_granularities"):
        grains.append(text)
    else:
        fields[name] = text


def _duration(data: bytes, words: int) -> float:
    if data[:4] == b"RIFF" and data[8:12] == b"WAVE":
        try:
            with wave.open(io.BytesIO(data)) as file:
                frames: int = file.getnframes()
                rate: int = file.getframerate()
                return frames / rate
        except (wave.Error, EOFError, ZeroDivisionError):
            pass
    return max(1.0, 0.4 * words)


def _stamp(seconds: float, separator: str) -> str:
    millis = round(seconds * 1000)
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    secs, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}{separator}{millis:03d}"


def _text_for(model: Model, filename: str, asked_model: str) -> str:
    lowered = filename.lower()
    for rule in model.rules:
        if rule.transcript is None or (rule.model is not None and rule.model != asked_model):
            continue
        if rule.match.lower() in lowered:
            return rule.transcript
    return model.options.transcript or f"Transcript of {filename}."


async def _transcribe(model: Model, request: web.Request, task: str) -> web.StreamResponse:
    if request.method != "POST":
        return model.method_not_allowed("POST")
    try:
        form = await _read_form(request)
    except _FormError as exc:
        return error_response(400, str(exc), param=exc.param)
    if "file" not in form:
        return error_response(400, "file is required", param="file")
    filename, data = form["file"]
    if SURROGATES.search(filename):
        return error_response(400, "the file name is not valid UTF-8", param="file")
    response_format = form.get("response_format") or "json"
    if response_format not in RESPONSE_FORMATS:
        return error_response(
            400, f"response_format must be one of {', '.join(RESPONSE_FORMATS)}", param="response_format"
        )
    grains = form["timestamp_granularities"]
    if any(g not in ("word", "segment") for g in grains):
        return error_response(400, "timestamp_granularities must be word or segment", param="timestamp_granularities")
    text = _text_for(model, filename, form.get("model", ""))
    words = text.split()
    seconds = round(_duration(data, len(words)), 3)
    if response_format == "text":
        return web.Response(text=text + "\n", content_type="text/plain")
    if response_format in ("srt", "vtt"):
        if response_format == "srt":
            body = f"1\n{_stamp(0, ',')} --> {_stamp(seconds, ',')}\n{text}\n\n"
        else:
            body = f"WEBVTT\n\n{_stamp(0, '.')} --> {_stamp(seconds, '.')}\n{text}\n\n"
        return web.Response(text=body, content_type="text/plain")
    usage = {"seconds": math.ceil(seconds), "type": "duration"}
    if response_format == "json":
        return json_response(200, {"text": text, "usage": usage})
    verbose: dict[str, Any] = {
        "duration": seconds,
        "language": form.get("language") or "english" if task == "transcribe" else "english",
        "segments": [
            {
                "avg_logprob": -0.1,
                "compression_ratio": 1.0,
                "end": seconds,
                "id": 0,
                "no_speech_prob": 0.0,
                "seek": 0,
                "start": 0.0,
                "temperature": 0.0,
                "text": text,
                "tokens": list(range(len(words))),
            }
        ],
        "task": task,
        "text": text,
        "usage": usage,
    }
    if "word" in grains:
        step = seconds / max(1, len(words))
        verbose["words"] = [
            {"end": round((i + 1) * step, 3), "start": round(i * step, 3), "word": word} for i, word in enumerate(words)
        ]
    return json_response(200, verbose)


async def transcriptions(model: Model, request: web.Request) -> web.StreamResponse:
    return await _transcribe(model, request, "transcribe")


async def translations(model: Model, request: web.Request) -> web.StreamResponse:
    return await _transcribe(model, request, "translate")


async def speech(model: Model, request: web.Request) -> web.StreamResponse:
    body = await read_post_object(request)
    if isinstance(body, web.Response):
        return body
    text = body.get("input")
    if not isinstance(text, str) or not text:
        return error_response(400, "input must be a non-empty string", param="input")
    if len(text) > MAX_INPUT:
        return error_response(400, f"input must be at most {MAX_INPUT} characters, got {len(text)}", param="input")
    voice = body.get("voice")
    if voice is not None and not isinstance(voice, str | dict):
        return error_response(400, "voice must be a string", param="voice")
    audio_format = body.get("response_format") or "mp3"
    if audio_format not in CONTENT_TYPES:
        return error_response(
            400, f"response_format must be one of {', '.join(CONTENT_TYPES)}", param="response_format"
        )
    speed = body.get("speed", 1.0)
    if speed is None:
        speed = 1.0
    if isinstance(speed, bool) or not isinstance(speed, int | float) or not 0.25 <= speed <= 4.0:
        return error_response(400, "speed must be a number from 0.25 to 4.0", param="speed")
    seconds = min(8.0, max(0.3, 0.3 * len(text.split()))) / speed
    return web.Response(body=silence(audio_format, seconds), content_type=CONTENT_TYPES[audio_format])
