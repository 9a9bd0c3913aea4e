"""reader/search/ reaches into Whoosh's private attributes: the installed Whoosh must be the
minor release they were read from, and each must still be where search/ reads it.

Whoosh promises nothing about names with a leading underscore. The fast segment writer, the
array ranking and the expanding queries read and write about thirty of them, so
``pyproject.toml`` pins ``whoosh-reloaded`` to one minor release; these tests say what to check
before moving the pin.
"""

from __future__ import annotations

import importlib
import inspect
import re
from importlib.metadata import version
from pathlib import Path

import pytest

SEARCH = Path(__file__).resolve().parent.parent / "reader" / "search"

#: The minor release of whoosh-reloaded the private uses were written against.
WRITTEN_AGAINST = "2.7"

#: Every private Whoosh name search/ uses, by the Whoosh class that defines it.
PRIVATE_USES: dict[str, tuple[str, ...]] = {
    # build.py: FastSegmentWriter extends it; build_processes.py finalises its segments.
    "whoosh.writing.SegmentWriter": (
        "_check_state", "_check_fields", "_added", "_flush_segment", "_finalize_segment",
    ),
    # build.py: _write_postings hands a whole block of postings to the postings writer.
    "whoosh.codec.whoosh3.W3FieldWriter": ("_postwriter",),
    "whoosh.codec.whoosh3.W3PostingsWriter": (
        "_blocklimit", "_ids", "_weights", "_values", "_maxweight", "_minlength", "_maxlength",
        "_write_block",
    ),
    # parsing.py: the expanding queries remember what Whoosh's expansion found.
    "whoosh.query.terms.PatternQuery": ("_btexts",),
    "whoosh.query.terms.FuzzyTerm": ("_btexts",),
    # ranking.py: matchers evaluated as arrays, postings read block by block (a phrase's
    # positions too), and the field lengths read straight from their column.
    "whoosh.codec.whoosh3.W3LeafMatcher": (
        "_term", "_next_block", "_read_data", "_data", "_read_ids", "_ids", "_read_values",
        "_values",
    ),
    "whoosh.matching.mcore.ListMatcher": ("_scorer", "_ids", "_all_weights", "_weights", "_term"),
    "whoosh.matching.wrappers.FilterMatcher": ("_ids", "_exclude"),
    "whoosh.matching.combo.ArrayUnionMatcher": ("_scored", "_submatchers", "_boost"),
    "whoosh.reading.SegmentReader": ("_perdoc", "_terms"),
    # lexicon.py: a field's words cut out of the term file as a whole.
    "whoosh.codec.whoosh3.W3TermsReader": ("_keycoder", "_tindex"),
    "whoosh.codec.whoosh3.W3PerDocReader": ("_cached_reader",),
    "whoosh.columns.FixedBytesColumn.Reader": ("_count", "_dbfile", "_basepos"),
}


def _listed() -> str:
    return "\n".join(f"  {owner}: {', '.join(names)}" for owner, names in PRIVATE_USES.items())


def _resolve(dotted: str) -> type:
    """The class a dotted name names (a nested class too)."""
    parts = dotted.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for name in parts[split:]:
            found = getattr(found, name)
        assert isinstance(found, type), dotted
        return found
    raise AssertionError(f"no module for {dotted}")


def _defines(cls: type, name: str) -> bool:
    """Whether ``cls`` or a base has ``name``: as a class attribute, or set on the instance."""
    if hasattr(cls, name):
        return True
    assigned = re.compile(rf"\bself\.{name}\s*(=|,[^=\n]*=)")
    for klass in cls.__mro__[:-1]:
        if assigned.search(inspect.getsource(klass)):
            return True
    return False


def test_whoosh_is_the_minor_release_search_was_written_against() -> None:
    installed = version("whoosh-reloaded")
    if ".".join(installed.split(".")[:2]) != WRITTEN_AGAINST:
        pytest.fail(
            f"whoosh-reloaded {installed} is installed, but reader/search/ was written "
            f"against Whoosh {WRITTEN_AGAINST}.x and uses these private names:\n{_listed()}\n"
            "Check that each still means what search/ takes it for (the index build, the "
            "ranking and the expanding queries), then move WRITTEN_AGAINST here and the "
            "whoosh-reloaded pin in pyproject.toml together.",
            pytrace=False,
        )


def test_each_private_name_is_still_where_search_reads_it() -> None:
    missing = [
        f"{owner}.{name}"
        for owner, names in PRIVATE_USES.items()
        for name in names
        if not _defines(_resolve(owner), name)
    ]
    assert not missing, f"Whoosh no longer has what reader/search/ reads: {missing}"


def test_the_list_names_every_private_name_search_reaches_for() -> None:
    """A private name read off another object (``writer._ids``, ``super()._btexts``) in
    search/ is Whoosh's, and so is one read off ``self`` that search/ never sets itself."""
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted(SEARCH.glob("*.py")))
    code = "\n".join(line.split("#", 1)[0] for line in source.splitlines())
    ours = set(re.findall(r"\bdef (_[a-z]\w*)", code))
    ours |= set(re.findall(r"\bself\.(_[a-z]\w*)\s*(?::[^=\n]*)?=", code))
    ours |= set(re.findall(r"^\s*(_[a-z]\w*)\s*(?::[^=\n]*)?=", code, re.MULTILINE))
    used = set()
    for found in re.finditer(r"(\w+|\))(?=\.(_[a-z]\w*))", code):
        owner, name = found.groups()
        if owner not in ("self", "cls") or name not in ours:
            used.add(name)
    listed = {name for names in PRIVATE_USES.values() for name in names}
    assert used <= listed, f"private Whoosh names used but not listed: {sorted(used - listed)}"
