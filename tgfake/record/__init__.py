"""Record a bot's conversation with a real Bot API, and replay it to the bot on a stand (docs/record-replay.md)."""

from .proxy import Recorder, create_recorder
from .replay import ReplayResult, assert_replays, replay, replay_talk
from .talk import NOISE, VOLATILE, Talk, TalkError, call_lines, diff_lines

__all__ = [
    "NOISE",
    "VOLATILE",
    "Recorder",
    "ReplayResult",
    "Talk",
    "TalkError",
    "assert_replays",
    "call_lines",
    "create_recorder",
    "diff_lines",
    "replay",
    "replay_talk",
]
