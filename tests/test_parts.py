"""Parts made on first use: the library's and the store's, and the descriptor itself."""

from __future__ import annotations

from reader.library import Library
from reader.library.core import Library as Door
from reader.parts import Part


class _Owner:
    made_count = 0
    counter: Part[_Counter] = Part(__name__, "_Counter")


class _Counter:
    def __init__(self, owner: _Owner) -> None:
        owner.made_count += 1
        self.owner = owner


def test_a_part_is_made_once_with_its_owner_and_kept() -> None:
    owner = _Owner()
    assert not _Owner.counter.made(owner)
    first = owner.counter
    assert first.owner is owner
    assert owner.counter is first
    assert owner.made_count == 1
    assert _Owner.counter.made(owner)
    assert not _Owner.counter.made(_Owner())


def test_a_library_makes_its_parts_as_they_are_used(library: Library) -> None:
    assert not Door.imports.made(library)
    assert library.imports is library.imports
    assert Door.imports.made(library)
    assert library.store.marks is library.store.marks
