"""Timestamps as the library stores them."""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> str:
    """The current time as an ISO 8601 UTC string."""
    return datetime.now(UTC).isoformat(timespec="seconds")
