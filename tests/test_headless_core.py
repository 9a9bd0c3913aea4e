"""The core never imports Textual: the CLI and scripts use it without a UI."""

from __future__ import annotations

import subprocess
import sys

CORE = [
    "reader.models", "reader.store.database", "reader.search.analysis", "reader.search.index",
    "reader.search.query",
    "reader.library",
    "reader.sources", "reader.sources.seed", "reader.cite.citations", "reader.cite.clipboard",
    "reader.text.titles", "reader.text.render", "reader.text.sanitize", "reader.resources",
    "reader.locations", "reader.config", "reader.cite.format_names",
]


def test_core_imports_without_textual() -> None:
    script = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'textual' or name.startswith('textual.'):\n"
        "            raise ImportError('the core must not import textual: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        + "".join(f"import {m}\n" for m in CORE)
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_starting_the_reader_leaves_citations_export_and_network_unloaded() -> None:
    """What `reader` imports before its first frame: the citation engine, the exporters,
    the network code and Whoosh load when first used (the first three were a fifth of the
    start, Whoosh a quarter of what remained)."""
    script = (
        "import sys, reader.cli, reader.ui.app\n"
        "print(' '.join(m for m in ('reader.cite.csl', 'reader.cite.formats', 'reader.cite.export',"
        " 'reader.sources.remote', 'whoosh') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""
