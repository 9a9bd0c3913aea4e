"""The ``reader`` command: the TUI when run bare, and a subcommand for every action."""

from __future__ import annotations

# Each module of commands registers them on the group when imported, which the group
# does when a command is asked for (reader.cli.base.COMMAND_MODULES).
from reader.cli.base import cli

__all__ = ["cli", "main"]


def main() -> None:
    """Entry point of the ``reader`` script."""
    cli(obj={})
