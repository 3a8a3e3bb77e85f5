"""The other file kinds the bot sends: video, audio, voice, animation, sticker, video note.

Each goes through the one file path of :mod:`tgfake.botapi.media` (upload, ``attach://`` or a file id of the
same kind; a URL is refused as unfetchable); what a kind shows (duration, size, tags, emoji) is read there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tgfake.botapi.media import _send_file
from tgfake.botapi.registry import bot_method
from tgfake.params import Params

if TYPE_CHECKING:
    from tgfake.botapi.context import BotCall


@bot_method("sendVideo")
async def send_video(ctx: BotCall, p: Params) -> Any:
    """A video up to 50 MiB: width and height as stated, the duration as stated or read by mutagen (MP4)."""
    return await _send_file(ctx, p, "video")


@bot_method("sendAudio")
async def send_audio(ctx: BotCall, p: Params) -> Any:
    """Music up to 50 MiB: duration, title and performer as stated, else read from the file's headers and tags."""
    return await _send_file(ctx, p, "audio")


@bot_method("sendVoice")
async def send_voice(ctx: BotCall, p: Params) -> Any:
    """A voice note (OGG/Opus shows as ``audio/ogg``); the duration as stated or read from the file."""
    return await _send_file(ctx, p, "voice")


@bot_method("sendAnimation")
async def send_animation(ctx: BotCall, p: Params) -> Any:
    """A GIF or silent MP4, shown as ``animation`` and, as Telegram does, as ``document`` too."""
    return await _send_file(ctx, p, "animation")


@bot_method("sendSticker")
async def send_sticker(ctx: BotCall, p: Params) -> Any:
    """A regular sticker (WEBP/PNG size read by Pillow, .tgs animated, WEBM video) with its ``emoji``; no caption."""
    return await _send_file(ctx, p, "sticker")


@bot_method("sendVideoNote")
async def send_video_note(ctx: BotCall, p: Params) -> Any:
    """A round video: ``length`` (its side) and duration as stated; no caption."""
    return await _send_file(ctx, p, "video_note")
