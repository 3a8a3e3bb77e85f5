"""Generated answers (echo and random modes), datasets and the completion fixture routes."""

from __future__ import annotations

