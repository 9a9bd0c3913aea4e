"""The terminal's bytes read as what was typed: bracketed pastes that contain ESC kept whole
and in order, and esc typed quickly before another key read as the two keys.

Textual's terminal parser treats an ESC inside a bracketed paste as the start of a key
sequence: what follows it is sent as key presses *before* the paste, so pasting
``AAA <ESC>[31mBBB`` types ``^[31mBBB`` and then pastes ``AAA ``. This parser hands it the
paste with each ESC replaced by its visible stand-in (␛, as reader.text.sanitize shows control
characters everywhere), so the paste arrives as one event, in order, and inert.

A terminal sends esc as a lone ESC byte and alt+j as ESC followed by ``j``: esc then ``j``
typed quickly, or sent over a slow link in one packet, are the bytes of alt+j. Textual reads
them as alt+j (which the note editor types as ``j``) or, when more bytes follow at once, as a
literal ``^`` and the keys after it. The window binds no alt+key, and a user who types esc
and then a key means both: ESC followed by a character that cannot begin a longer sequence
is read as esc and then that key. ESC ``[`` and ESC ``O`` begin the terminal's own
sequences (the arrows, the function keys) and are left to Textual, as are the two-byte
sequences it names: alt+backspace, esc esc, the Linux console's shift+tab, the word motions
of iTerm's natural text editing (ESC ``b`` and ESC ``f``: a macOS user's option+arrows in
the note editor) and the characters a Mac's option key sends so (ESC ``1`` is ``¡``).
"""

from __future__ import annotations

from collections.abc import Iterable

from textual import events
from textual._ansi_sequences import ANSI_SEQUENCES_KEYS
from textual._xterm_parser import XTermParser
from textual.message import Message

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
_ESC_SHOWN = "\u241b"
#: What may follow ESC in a terminal's sequences (CSI, SS3, OSC, DCS, SOS, PM, APC, ST), and
#: in the two-byte sequences Textual names (esc esc, alt+backspace, shift+tab, the word
#: motions, option-key characters): after ESC, any other character is a key typed after esc.
_SEQUENCE_STARTS = frozenset("[O]PX^_\\") | {
    sequence[1] for sequence in ANSI_SEQUENCES_KEYS if len(sequence) == 2 and sequence[0] == "\x1b"
}


class PasteSafeParser(XTermParser):
    """Textual's parser, fed pastes without raw ESC characters."""

    def __init__(self, debug: bool = False) -> None:
        super().__init__(debug)
        self._in_paste = False
        self._held = ""

    def feed(self, data: str) -> Iterable[events.Event | Message]:  # type: ignore[override]
        """Parse ``data`` (an empty string ends the input)."""
        return super().feed(self._guard(data) if data else data)

    def _sequence_to_key_events(
        self, sequence: str, alt: bool = False
    ) -> Iterable[events.Key]:
        """The keys of ``sequence``: ESC and one character that cannot begin a longer
        sequence are esc and then that character's key (see the module's docstring)."""
        if len(sequence) == 2 and sequence[0] == "\x1b" and sequence[1] not in _SEQUENCE_STARTS:
            yield events.Key("escape", "\x1b")
            yield from super()._sequence_to_key_events(sequence[1])
            return
        yield from super()._sequence_to_key_events(sequence, alt)

    def _guard(self, data: str) -> str:
        data, self._held = self._held + data, ""
        out: list[str] = []
        at = 0
        while at < len(data):
            if not self._in_paste:
                start = data.find(PASTE_START, at)
                if start < 0:
                    out.append(data[at:])
                    break
                out.append(data[at : start + len(PASTE_START)])
                at = start + len(PASTE_START)
                self._in_paste = True
                continue
            end = data.find(PASTE_END, at)
            if end < 0:
                chunk = data[at:]
                # The end marker may be split across reads: hold back what could begin it.
                for size in range(min(len(PASTE_END) - 1, len(chunk)), 0, -1):
                    if PASTE_END.startswith(chunk[-size:]):
                        self._held = chunk[-size:]
                        chunk = chunk[:-size]
                        break
                out.append(chunk.replace("\x1b", _ESC_SHOWN))
                break
            out.append(data[at:end].replace("\x1b", _ESC_SHOWN) + PASTE_END)
            at = end + len(PASTE_END)
            self._in_paste = False
        return "".join(out)


def keep_pastes_in_order() -> None:
    """Make the terminal drivers read input with PasteSafeParser."""
    # The drivers construct their parser by this module-level name when the app starts.
    from textual.drivers import linux_driver

    linux_driver.XTermParser = PasteSafeParser  # type: ignore[misc]
    try:
        from textual.drivers import linux_inline_driver
    except ImportError:  # pragma: no cover - absent on some platforms
        return
    linux_inline_driver.XTermParser = PasteSafeParser  # type: ignore[misc]
