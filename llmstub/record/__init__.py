"""Record a real model's answers as a rules file, and replay them through the same engine
(``--llm-record``; see docs/record-replay.md)."""

from .answers import RawJson, UnreadableAnswer, read_error, read_success
from .proxy import RECORD_MODES, RecordingModel, RecordOptions
from .recording import DEFAULT_MATCH, MATCH_FIELDS, Recording, dumps_rules, parse_match

__all__ = [
    "DEFAULT_MATCH",
    "MATCH_FIELDS",
    "RECORD_MODES",
    "RawJson",
    "RecordOptions",
    "Recording",
    "RecordingModel",
    "UnreadableAnswer",
    "dumps_rules",
    "parse_match",
    "read_error",
    "read_success",
]
