"""Games: the bots' BotFather games, which messages are games, and each game message's high-score table (a reset
forgets them all)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tgfake.content import Media, media_json, photo_sizes

if TYPE_CHECKING:
    from tgfake.content import StoredFile


@dataclass(slots=True)
class Game:
    """A game made with BotFather's ``/newgame`` for one bot: what sendGame shows of it."""

    title: str
    description: str
    photo: StoredFile
    animation: StoredFile | None = None

    def json(self) -> dict[str, Any]:
        """The Bot API Game, in JsonGame's order: title, description, the photo's sizes, the animation if any."""
        out: dict[str, Any] = {"title": self.title, "description": self.description, "photo": photo_sizes(self.photo)}
        if self.animation is not None:
            out["animation"] = media_json(Media("animation", self.animation))["animation"]
        return out


@dataclass(slots=True)
class GameMessage:
    """One sendGame message: its short name and the scores set on it (person id -> score)."""

    short_name: str
    scores: dict[int, int] = field(default_factory=dict)

    def table(self) -> list[tuple[int, int]]:
        """(person id, score), best first; equal scores keep the order they were reached in."""
        return sorted(self.scores.items(), key=lambda item: -item[1])


@dataclass(slots=True)
class Games:
    messages: dict[tuple[int, int], GameMessage] = field(default_factory=dict)  # (chat id, message id) -> game
    catalogue: dict[tuple[int, str], Game] = field(default_factory=dict)  # (bot id, short name) -> BotFather's game
