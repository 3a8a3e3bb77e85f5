"""python-telegram-bot and aiogram as oracles: every file kind parses into their typed objects and re-sends."""

from __future__ import annotations

import io

from aiogram.types import BufferedInputFile
from telegram import InputFile

from tests.clients import aiogram_bot, ptb_bot
from tests.conftest import Wire
from tests.media.media_helpers import image_bytes, mp4_bytes, wav_bytes


async def test_python_telegram_bot_media_echo(wire: Wire) -> None:
    """Sticker, voice and video go up, come back typed, and go out again by file id (what an echo bot does)."""
    webp = image_bytes("WEBP", (512, 512))
    async with ptb_bot(wire) as bot:
        sticker = await bot.send_sticker(4242, InputFile(io.BytesIO(webp), filename="s.webp"), emoji="🔥")
        voice = await bot.send_voice(4242, InputFile(io.BytesIO(wav_bytes(2)), filename="v.wav"))
        video = await bot.send_video(
            4242, InputFile(io.BytesIO(mp4_bytes()), filename="c.mp4"), width=320, height=240, duration=7
        )
        assert sticker.sticker is not None
        assert voice.voice is not None
        assert video.video is not None
        echoed = await bot.send_sticker(4242, sticker.sticker.file_id)
        again = await bot.send_video(4242, video.video.file_id, caption="again")
        file = await bot.get_file(voice.voice.file_id)
        data = await file.download_as_bytearray()
    assert (sticker.sticker.emoji, sticker.sticker.width, sticker.sticker.type) == ("🔥", 512, "regular")
    assert voice.voice.duration == 2
    assert (video.video.width, video.video.height) == (320, 240)
    assert echoed.sticker is not None
    assert echoed.sticker.file_id == sticker.sticker.file_id
    assert again.video is not None
    assert again.video.duration == video.video.duration
    assert bytes(data) == wav_bytes(2)
    assert (await wire.text()).splitlines()[-1] == "[5] bot: [video c.mp4 7s] again"


async def test_aiogram_animation_audio_and_video_note(wire: Wire) -> None:
    bot = aiogram_bot(wire)
    try:
        anim = await bot.send_animation(4242, BufferedInputFile(image_bytes("GIF", (8, 6)), filename="a.gif"))
        audio = await bot.send_audio(4242, BufferedInputFile(wav_bytes(4), filename="t.wav"), title="Tone")
        note = await bot.send_video_note(4242, BufferedInputFile(mp4_bytes(), filename="n.mp4"), length=200)
    finally:
        await bot.session.close()
    assert anim.animation is not None
    assert (anim.animation.width, anim.animation.height) == (8, 6)
    assert anim.document is not None
    assert anim.document.file_id == anim.animation.file_id
    assert audio.audio is not None
    assert (audio.audio.duration, audio.audio.title) == (4, "Tone")
    assert note.video_note is not None
    assert note.video_note.length == 200
