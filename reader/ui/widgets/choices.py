"""A list of choices in a dialog, moved with the reader's keys."""

from __future__ import annotations

from textual.widgets import OptionList

from reader.ui import bindings


class Choices(OptionList):
    """An option list that j and k move in as well as the arrows, as they move in the list
    of papers: in the citation picker, `j j enter` copied the first style."""

    BINDINGS = bindings.CHOICES
