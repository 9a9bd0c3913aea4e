"""What the reader leaves for after its first frame: the modules of the commands it was not
given are not imported, and every command is still found by its name."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import reader.cli
from reader.cli import cli
from reader.cli.base import COMMAND_MODULES


def test_every_command_is_found_in_the_module_named_for_it() -> None:
    for module in pkgutil.iter_modules(reader.cli.__path__):
        importlib.import_module(f"reader.cli.{module.name}")
    assert set(cli.commands) == set(COMMAND_MODULES)
    for name, command in cli.commands.items():
        callback = command.callback
        while hasattr(callback, "__wrapped__"):
            callback = callback.__wrapped__
        assert callback.__module__ == f"reader.cli.{COMMAND_MODULES[name]}", name


def test_the_command_modules_are_imported_only_when_a_command_is_run() -> None:
    code = (
        "import sys\n"
        "import reader.cli\n"
        "print(sorted(m for m in sys.modules if m.startswith('reader.cli.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "['reader.cli.base']"
