"""Accents pylatexenc does not know, as the combining mark each puts on every character of
its argument (an overline spans them all: ``\\overline{10}`` → 1̅0̅): known to the renderer
(which reads their argument char by char) and handled by the LaTeX step."""

COMBINING = {
    "ocirc": "\u030a",
    "overline": "\u0305",
    "underline": "\u0332",
    "widetilde": "\u0303",
    "widehat": "\u0302",
}
