"""A small cache of the most recently used values, bounded by their total weight (one each,
or what each one holds), for what the search keeps between queries: a segment's paper ids,
a term's decoded postings."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["Kept"]

_V = TypeVar("_V")


class Kept(Generic[_V]):
    """Values by key, the least recently used let go once their weights add up to more
    than ``most`` (the newest is always kept, however heavy). Safe across threads."""

    def __init__(self, most: int, weigh: Callable[[_V], int] = lambda _: 1) -> None:
        self._most = most
        self._weigh = weigh
        self._values: OrderedDict[Hashable, _V] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> _V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def put(self, key: Hashable, value: _V) -> _V:
        """Keep ``value`` for ``key`` as the most recently used; returns it."""
        with self._lock:
            old = self._values.pop(key, None)
            if old is not None:
                self._held -= self._weigh(old)
            self._values[key] = value
            self._held += self._weigh(value)
            while self._held > self._most and len(self._values) > 1:
                _, dropped = self._values.popitem(last=False)
                self._held -= self._weigh(dropped)
        return value
