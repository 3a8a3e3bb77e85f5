"""Sticker sets owned by bots, and the sticker files uploaded for them (a reset forgets them, as the world).

Plain objects; the methods are in ``tgfake/botapi/stickers.py``. Each sticker gets a file id, a unique id and, in a
custom emoji set, a custom emoji id; a set is found by its name in any letter case, as Telegram finds it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FORMATS = {"static": (False, False), "animated": (True, False), "video": (False, True)}  # is_animated, is_video


@dataclass(slots=True)
class Sticker:
    file_id: str
    unique_id: str
    size: int
    format: str  # static, animated, video
    emojis: list[str]
    keywords: list[str] = field(default_factory=list)
    mask_position: dict[str, Any] | None = None
    custom_emoji_id: str = ""
    set_name: str = ""
    sticker_type: str = "regular"
    needs_repainting: bool = False

    def json(self) -> dict[str, Any]:
        """Client.cpp's JsonSticker: fields in its order; 512×512 (the stand does not read the image)."""
        animated, video = FORMATS.get(self.format, (False, False))
        out: dict[str, Any] = {"width": 512, "height": 512}
        if self.emojis:
            out["emoji"] = self.emojis[0]
        if self.set_name:
            out["set_name"] = self.set_name
        out["is_animated"] = animated
        out["is_video"] = video
        out["type"] = self.sticker_type
        if self.sticker_type == "mask" and self.mask_position is not None:
            out["mask_position"] = self.mask_position
        if self.sticker_type == "custom_emoji":
            out["custom_emoji_id"] = self.custom_emoji_id
            if self.needs_repainting:
                out["needs_repainting"] = True
        out["file_id"] = self.file_id
        out["file_unique_id"] = self.unique_id
        out["file_size"] = self.size
        return out


@dataclass(slots=True)
class StickerSet:
    name: str
    title: str
    sticker_type: str
    owner_bot: int
    owner_user: int
    stickers: list[Sticker] = field(default_factory=list)
    thumbnail: dict[str, Any] | None = None
    custom_emoji_thumbnail: str = ""

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "title": self.title,
            "sticker_type": self.sticker_type,
            "contains_masks": self.sticker_type == "mask",
            "stickers": [s.json() for s in self.stickers],
        }
        if self.thumbnail is not None:
            out["thumbnail"] = self.thumbnail
        return out


@dataclass(slots=True)
class Uploaded:
    """A file uploadStickerFile took: usable by file id in the sticker methods of the same bot."""

    file_id: str
    unique_id: str
    size: int
    format: str
    bot_id: int


@dataclass(slots=True)
class Stickers:
    sets: dict[str, StickerSet] = field(default_factory=dict)  # lower-cased name -> set
    uploads: dict[str, Uploaded] = field(default_factory=dict)  # file id -> upload
    next_id: int = 1

    def mint(self) -> int:
        value = self.next_id
        self.next_id += 1
        return value

    def find_sticker(self, file_id: str) -> tuple[StickerSet, Sticker] | None:
        for sticker_set in self.sets.values():
            for sticker in sticker_set.stickers:
                if sticker.file_id == file_id:
                    return sticker_set, sticker
        return None
