"""reader's own themes, registered on the app beside Textual's.

Both are made for long reading: quiet surfaces, one accent for what matters (matches,
stars), and a cursor that stands out without glaring.
"""

from __future__ import annotations

from textual.theme import Theme

#: Dark: ink-blue night, steel-blue cursor, amber matches and stars.
INK = Theme(
    name="reader-ink",
    primary="#6CA6C1",
    secondary="#8E9AAF",
    accent="#E0B15C",
    warning="#E0B15C",
    error="#D0605E",
    success="#7FB77E",
    foreground="#D6DDE6",
    background="#14181F",
    surface="#1B212B",
    panel="#242C38",
    dark=True,
    variables={
        "block-cursor-background": "#2F5470",
        "block-cursor-foreground": "#F0F4F8",
        "block-cursor-text-style": "bold",
        "footer-key-foreground": "#6CA6C1",
        "input-selection-background": "#6CA6C1 35%",
    },
)

#: Light: sepia paper, brown ink, rust accent.
PAPER = Theme(
    name="reader-paper",
    primary="#8A4B2A",
    secondary="#5F6F52",
    accent="#B5651D",
    warning="#9A6200",
    error="#A23B2A",
    success="#4F7A3A",
    foreground="#3B2F22",
    background="#F4ECD8",
    surface="#EFE5CC",
    panel="#E4D7B8",
    dark=False,
    variables={
        "block-cursor-background": "#8A4B2A",
        "block-cursor-foreground": "#FBF6EA",
        "block-cursor-text-style": "bold",
        "footer-key-foreground": "#8A4B2A",
        "input-selection-background": "#B5651D 30%",
    },
)

THEMES = (INK, PAPER)
