"""The photos and audios on each person's profile, newest first: what getUserProfilePhotos/Audios page through.

Set through ``POST /sim/profile`` (tgfake/world/files.py checks and stores the files); a person nobody set
anything for has none, as a fresh Telegram account has none. Plain state: the files live in the one file store.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tgfake.content import StoredFile


@dataclass(slots=True)
class Profiles:
    """Person id -> their profile photos, and -> their profile audios (newest first)."""

    photos: dict[int, list[StoredFile]] = field(default_factory=dict)
    audios: dict[int, list[StoredFile]] = field(default_factory=dict)
    personal_chats: dict[int, int] = field(default_factory=dict)  # person id -> the channel on their profile

    def page(self, kind: str, user_id: int, offset: int, limit: int) -> tuple[int, list[StoredFile]]:
        """The total and the ``limit`` files from ``offset`` on (both already clamped as Client.cpp clamps them)."""
        files = (self.photos if kind == "photos" else self.audios).get(user_id, [])
        return len(files), files[offset : offset + limit]
