"""The door translates: what the store and the index raise in their own terms (``sqlite3``,
``OSError``, Whoosh) leaves :class:`reader.library.Library` as a
:class:`reader.errors.ReaderError` of the kind a user can act on, so that no front end
needs to know SQLite. The translation itself (and its wording) is
:func:`reader.errors.translate`."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from reader.errors import translate

_C = TypeVar("_C", bound=type)

#: Members not wrapped: the connections and the index themselves (the core's own way in,
#: used beside the door by the library's parts and by tests), and a block's borrowed
#: connection, whose errors are met inside the caller's block.
_UNWRAPPED = frozenset({"store", "index", "session", "paths"})


@contextmanager
def translated() -> Iterator[None]:
    """Raise any SQLite, OS or Whoosh error of the block as the ReaderError it stands for
    (chained to it); every other error passes unchanged."""
    try:
        yield
    except Exception as exc:
        error = translate(exc)
        if error is None:
            raise
        raise error from exc


def _wrapped(method: Callable[..., Any]) -> Callable[..., Any]:
    if inspect.isgeneratorfunction(method):

        @functools.wraps(method)
        def generator(*args: Any, **kwargs: Any) -> Any:
            with translated():
                return (yield from method(*args, **kwargs))

        return generator

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        # A plain try rather than translated(): some of these run on every key press.
        try:
            return method(*args, **kwargs)
        except Exception as exc:
            error = translate(exc)
            if error is None:
                raise
            raise error from exc

    return wrapper


def translating(cls: _C) -> _C:
    """Make every public method of ``cls`` (its own and its bases'), and opening it,
    translate what it
    raises. Internal calls between the methods go through the wrapper too, which passes a
    ReaderError on untouched."""
    for name in dir(cls):
        if (name.startswith("_") and name != "__init__") or name in _UNWRAPPED:
            continue
        member = inspect.getattr_static(cls, name)
        if inspect.isfunction(member):
            setattr(cls, name, _wrapped(member))
    return cls
