"""Games: which messages are games, and each game message's high-score table (a reset forgets them)."""

from __future__ import annotations

from dataclasses import dataclass, field


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
