"""The testing client sends every file kind, albums and profiles (sync and async), and the Gherkin steps do too.

The test plays both sides: the person through the client or the steps, the bot through raw Bot API calls.
"""

from __future__ import annotations

import pytest

from tests.media.media_helpers import image_bytes, mp4_bytes, wav_bytes
from tests.plugin.test_client import bot_call
from tgfake.testing import DEFAULT_GROUP_ID, AlbumItem, AsyncStandClient, SimAPIError, StandClient

OGG = b"OggS\x00" + b"\x00" * 40


def test_send_file_sends_any_kind_with_its_fields(tgfake: StandClient) -> None:
    video = tgfake.send_file("video", mp4_bytes(), name="clip.mp4", caption="look", duration=3, width=64, height=48)
    voice = tgfake.send_file("voice", OGG, duration=2, user="bob", chat="group")
    sticker = tgfake.send_file("sticker", image_bytes("WEBP", (512, 512)), emoji="😀")
    assert (video.message_id, video.file_id, voice.chat_id, sticker.file_id) == (
        1,
        "file_1",
        DEFAULT_GROUP_ID,
        "file_3",
    )
    assert tgfake.transcript(4242) == "[1] alice: [video clip.mp4 3s] look\n[2] alice: [sticker 😀]\n"
    assert tgfake.transcript(DEFAULT_GROUP_ID) == "[1] bob: [voice 2s]\n"
    status, body = bot_call(tgfake, "getFile", file_id=voice.file_id)
    assert (status, body["result"]["file_path"]) == (200, "voice/file_2")
    with pytest.raises(SimAPIError) as refused:
        tgfake.send_file("sticker", image_bytes("PNG"), caption="no")
    assert "a sticker has no caption" in str(refused.value)
    again = tgfake.send_file("sticker", sticker.file_id)  # a str is a held file's id: the same file again
    assert (again.message_id, again.file_id) == (3, "file_3")
    assert tgfake.transcript(4242).splitlines()[-1] == "[3] alice: [sticker 😀]"


def test_send_album_sends_one_message_per_item(tgfake: StandClient) -> None:
    sent = tgfake.send_album(
        [AlbumItem("photo", image_bytes("PNG"), name="a.png", caption="trip"), ("video", mp4_bytes())]
    )
    assert [s.message_id for s in sent] == [1, 2]
    assert len({s.media_group_id for s in sent}) == 1
    assert sent[0].media_group_id
    assert tgfake.transcript() == "[1] alice: [album 2: photo, video] trip\n"
    with pytest.raises(SimAPIError) as refused:
        tgfake.send_album([("photo", image_bytes("PNG")), ("document", b"%PDF-1.4\n")])
    assert "a document can't be in an album with a photo" in str(refused.value)


def test_set_profile_gives_the_bot_profile_photos_and_audios(tgfake: StandClient) -> None:
    got = tgfake.set_profile("bob", photos=[image_bytes("PNG", (8, 8))], audios=[wav_bytes(1)])
    assert (got["photos"], got["audios"]) == (["file_1"], ["file_2"])
    status, body = bot_call(tgfake, "getUserProfilePhotos", user_id=got["user_id"])
    assert (status, body["result"]["total_count"], body["result"]["photos"][0][0]["width"]) == (200, 1, 8)
    status, body = bot_call(tgfake, "getUserProfileAudios", user_id=got["user_id"])
    assert (status, body["result"]["audios"][0]["duration"]) == (200, 1)


async def test_the_async_client_sends_kinds_albums_and_profiles(tgfake: StandClient) -> None:
    async with AsyncStandClient(tgfake.url) as client:
        sent = await client.send_file("audio", wav_bytes(2), name="t.wav", performer="Band")
        assert sent.file_id == "file_1"
        album = await client.send_album([("audio", wav_bytes(1)), ("audio", wav_bytes(1))])
        assert [s.message_id for s in album] == [2, 3]
        profile = await client.set_profile(photos=[image_bytes("GIF")])
        assert profile == {"user_id": 4242, "photos": ["file_4"], "audios": []}
        assert await client.transcript() == "[1] alice: [audio t.wav 2s]\n[2] alice: [album 2: audio, audio]\n"


def test_the_gherkin_steps_send_a_kind_and_an_album(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makeconftest('pytest_plugins = ["tgfake.bdd"]')
    (pytester.path / "m").mkdir()
    (pytester.path / "m" / "clip.mp4").write_bytes(mp4_bytes())
    (pytester.path / "m" / "cat.png").write_bytes(image_bytes("PNG", (6, 4)))
    (pytester.path / "note.ogg").write_bytes(OGG)
    pytester.makefile(
        ".feature",
        media="""
        Feature: The person sends files
          Scenario: A kind and an album
            When alice sends the video "m/clip.mp4" with the caption "look"
            And bob sends the video note "m/clip.mp4" in the group
            And alice sends an album of the photo "m/cat.png", the video "m/clip.mp4" and the photo "m/cat.png"
            Then the transcript is:
              \"\"\"
              [1] alice: [video clip.mp4] look
              [2] alice: [album 3: photo, video, photo]
              \"\"\"

          Scenario: A missing file names where it was looked for
            When alice sends the voice "nowhere.ogg"
        """,
    )
    pytester.makepyfile("from pytest_bdd import scenarios\n\nscenarios('media.feature')\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*no file 'nowhere.ogg' (looked at*"])
