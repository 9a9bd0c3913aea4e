"""The ``reader`` command: the TUI when run bare, and a subcommand for every action."""

from __future__ import annotations

# Each module registers its commands on the group when imported.
from reader.cli import citing, fetching, papers, revisions, signals, upkeep  # noqa: F401
from reader.cli.base import cli

__all__ = ["cli", "main"]


def main() -> None:
    """Entry point of the ``reader`` script."""
    cli(obj={})
