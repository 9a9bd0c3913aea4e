"""A part of a composed object made the first time it is reached, its module imported then.

The library and its store are each composed of parts reached by name (``library.imports``,
``store.revisions``). Most of them are not needed to show a library: importing their
modules, and the modules those import, held the window's first frame back. A part
declared with :class:`Part` costs nothing until it is first used.
"""

from __future__ import annotations

import importlib
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class Part(Generic[T]):
    """The part named ``name`` in ``module``, made with its owner as the one argument on
    first use and kept in the owner's ``__dict__`` (so later reads never come here).

    Two threads reaching a part for the first time at once may each make one, and one is
    kept: the parts declared so hold no state of their own, only their owner.
    """

    def __init__(self, module: str, name: str) -> None:
        self._module = module
        self._name = name
        self._attribute = name

    def __set_name__(self, owner: type, attribute: str) -> None:
        self._attribute = attribute

    @overload
    def __get__(self, owner: None, kind: type | None = None) -> Part[T]: ...

    @overload
    def __get__(self, owner: object, kind: type | None = None) -> T: ...

    def __get__(self, owner: object | None, kind: type | None = None) -> Part[T] | T:
        if owner is None:
            return self
        made: T = getattr(importlib.import_module(self._module), self._name)(owner)
        return owner.__dict__.setdefault(self._attribute, made)  # type: ignore[no-any-return]

    def made(self, owner: Any) -> bool:
        """Whether ``owner`` has made this part yet."""
        return self._attribute in owner.__dict__
