"""Render abstract text (LaTeX fragments plus light Markdown) as plain Unicode with style spans.

Abstracts mix LaTeX (``$\\alpha$``, ``\\emph{x}``, ``28\\%``, ``---``) with Markdown
emphasis (``**bold**``, ``*italic*``, backtick code).  :func:`render` turns them into
plain text for reading plus ``(start, end, style)`` spans that the UI turns into
styling.  The output is data, never markup: brackets and the like pass through.

How it works, per paragraph (paragraphs never share math or emphasis):

1. *Protect*: a scanner finds what must not reach pylatexenc as is. Math (``$…$`` only
   when it looks like math, ``$$…$$``, ``\\(…\\)``, ``\\[…\\]``) is parked as a *raw*
   placeholder so Markdown cannot touch it; money dollars, unescaped ``%`` (not a comment
   in an abstract), ``&``, "approximately" ``~``, Markdown code spans and ``\\url`` targets
   become *literal* placeholders. A command written with its backslash doubled (an
   over-escaping form's ``\\\\textbf``) is read as the command first.
2. *Emphasis*: Markdown delimiters become private-use marker characters.
3. *Plain runs*: every stretch of ordinary text becomes a literal placeholder. pylatexenc
   is slow per character (~7 ms for 2,000 chars), so it only ever sees the LaTeX
   skeleton; placeholders also keep the source's whitespace.
4. *LaTeX*: if anything LaTeX-like is left, pylatexenc converts it, with a context that
   keeps unknown macros visible and turns ``\\textbf`` and friends into markers. Any
   failure falls back to the unconverted skeleton.
5. *Finish*: placeholders are expanded and markers become spans.

Markers use private-use code points U+E000–U+E005 and placeholders the supplementary
private-use planes; those are replaced by U+FFFD in the input so that they cannot be
forged.

This module is part of the headless core and imports nothing from the UI.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

from msgspec import Struct

from reader.text.accents import COMBINING
from reader.text.markers import (
    CLOSE,
    LIT_BASE,
    LIT_RE,
    MARKER_STYLE,
    MAX_CACHED,
    MAX_EMPHASIS,
    MAX_LATEX,
    MAX_PARAGRAPH,
    OPEN,
    PRIVATE_RE,
    RAW_BASE,
    RAW_RE,
    STYLES,
    expand,
    placeholder,
)
from reader.text.pattern import Pattern
from reader.text.protect import protect, unsize

__all__ = ["Rendered", "plain_line", "render", "render_line", "to_plain"]

class Rendered(Struct, frozen=True):
    """Plain text to show, and style spans as ``(start, end, style)`` indexes into it."""

    text: str
    spans: tuple[tuple[int, int, str], ...]


# --- step 2: Markdown emphasis ------------------------------------------------

# Openers must not follow a word character (so O*NET, 2*3, snake_case stay) and
# must be followed by a non-space (so "a * b" stays); closers the mirror image.
# "**" may close inside a word ("**con**tinual", seen in real abstracts).
_E = MAX_EMPHASIS
_EMPHASIS_RULES: tuple[tuple[Pattern, tuple[str, ...]], ...] = (
    (
        Pattern(rf"(?<![\w*\\])\*\*\*(?![\s*])(.{{1,{_E}}}?)(?<![\s*])\*\*\*(?!\*)", re.S),
        ("bold", "italic"),
    ),
    (Pattern(rf"(?<![\w*\\])\*\*(?![\s*])(.{{1,{_E}}}?)(?<![\s*])\*\*(?!\*)", re.S), ("bold",)),
    (Pattern(rf"(?<![\w\\])__(?![\s_])(.{{1,{_E}}}?)(?<![\s_])__(?![\w_])", re.S), ("bold",)),
    (Pattern(rf"(?<![\w*\\])\*(?![\s*])(.{{1,{_E}}}?)(?<![\s*])\*(?![\w*])", re.S), ("italic",)),
    (Pattern(rf"(?<![\w\\])_(?![\s_])(.{{1,{_E}}}?)(?<![\s_])_(?![\w_])", re.S), ("italic",)),
)


def _emphasis(text: str) -> str:
    """Step 2: replace Markdown emphasis delimiters by style markers."""
    if "*" not in text and "_" not in text:
        return text
    for pattern, styles in _EMPHASIS_RULES:
        opening = "".join(OPEN[s] for s in styles)
        closing = "".join(CLOSE[s] for s in reversed(styles))
        text = pattern.sub(f"{opening}\\1{closing}", text)
    return text


# --- step 3: plain runs -------------------------------------------------------

# A control sequence keeps what follows it up to one letter raw: that letter may
# be an accent's argument (\"o) and the space before it is the macro's.
_CONTROL_SEQ = r"\\(?:[A-Za-z@]+|[^A-Za-z@])[ \t]*\n?[ \t]*[^\W_]?"
# Ordinary text: nothing LaTeX reads specially.  "-", "`" and "'" are ordinary
# unless doubled ("--", "``", "''" are ligatures); brackets stay raw because a
# macro may take them as an optional argument.
_PLAIN_RUN = (
    r"(?:[^\\{}$\[\]~`'\-\U000f0000-\U0010ffff]|(?<!-)-(?!-)|(?<!`)`(?!`)|(?<!')'(?!'))+"
)
_SKELETON_RE = Pattern(f"(?P<cs>{_CONTROL_SEQ})|(?P<run>{_PLAIN_RUN})|(?P<brace>[{{}}])")
_NEEDS_LATEX_RE = Pattern(r"[\\{}$~]|--|``|''")
_CS_NAME_RE = Pattern(r"\\([A-Za-z@]+|.)", re.S)
# What a group right after is an argument of: a superscript or subscript, another group
# (``\\frac{a}{b}``), an optional argument, a parked \\url or \\href target.
# What a group that opens on it groups: a macro (``{\\em x}``) or math (``{$O(n)$}``).
_GROUP_OPENING = Pattern(r"[\\\U000f0000-\U0010ffff]")
_ARGUMENT_BEFORE = Pattern(r"[\^_}\]\U000f0000-\U0010ffff]")


def _skeleton(text: str, lits: list[str], bare_braces: bool = False) -> str:
    """Step 3: replace plain runs by literal placeholders, leaving the LaTeX skeleton.

    Runs inside the argument of an accent or math-alphabet macro stay as they
    are, because pylatexenc works on those character by character (\\c{c},
    \\mathbf{x}); everywhere else, including inside \\textbf{…}, they go.

    With ``bare_braces``, a brace group that is no macro's argument and does not open on
    a macro (``{\\em x}``) is text, kept with its braces: an abstract's "k in {3, 4, 6}"
    is a set, as OpenReview and arXiv show it, where a BibTeX title's ``{BERT}`` only
    protects a word.
    """
    # One flag per open brace: must this group's text stay visible to pylatexenc?
    opaque: list[bool] = []
    # One flag per open brace: is it a literal brace, its closing one literal too?
    literal: list[bool] = []
    # (end offset, name) of the last control sequence, if a group may follow it.
    pending: tuple[int, str] | None = None

    def sub(m: re.Match[str]) -> str:
        nonlocal pending
        kind, value = m.lastgroup, m.group()
        if kind == "cs":
            name = _CS_NAME_RE.match(value)
            assert name is not None
            # If the match took a letter after the name, no group is its argument.
            taken = value[name.end() :].strip()
            pending = None if taken else (m.end(), name.group(1))
            return value
        arg_of = pending[1] if pending is not None and pending[0] == m.start() else None
        pending = None
        if kind == "brace":
            if value == "{":
                inherited = bool(opaque) and opaque[-1]
                opaque.append(inherited or (arg_of is not None and _is_charwise(arg_of)))
                bare = (
                    bare_braces and arg_of is None and not inherited
                    and not _GROUP_OPENING.match(text, m.end())
                    and not (m.start() and _ARGUMENT_BEFORE.match(text, m.start() - 1))
                )
                literal.append(bare)
                if bare:
                    return placeholder(lits, value, LIT_BASE)
            elif opaque:
                opaque.pop()
                if literal.pop():
                    return placeholder(lits, value, LIT_BASE)
        elif not (opaque and opaque[-1]):
            return placeholder(lits, value, LIT_BASE)
        return value

    return _SKELETON_RE.sub(sub, text)


def _is_charwise(name: str) -> bool:
    """True for macros whose argument pylatexenc must read (char by char, or as a name)."""
    return (
        len(name) == 1  # accents: \\c \\v \\H and control symbols \\" \\' \\^
        or name.startswith("math")
        or name in ("boldsymbol", "bm", "pmb", "begin", "end")  # environment names too
        or name in COMBINING
    )


# --- step 5: finish -----------------------------------------------------------


def _extract_spans(text: str) -> Rendered:
    """Strip markers (and any stray private-use characters) from *text*, recording spans."""
    if not PRIVATE_RE.search(text):
        return Rendered(text, ())
    out: list[str] = []
    length = 0
    open_at: dict[str, list[int]] = {style: [] for style in STYLES}
    spans: list[tuple[int, int, str]] = []
    last = 0
    for m in PRIVATE_RE.finditer(text):
        chunk = text[last : m.start()]
        out.append(chunk)
        length += len(chunk)
        last = m.end()
        marker = MARKER_STYLE.get(m.group())
        if marker is None:
            continue  # a placeholder that lost its way: drop it
        style, is_open = marker
        if is_open:
            open_at[style].append(length)
        elif open_at[style]:
            start = open_at[style].pop()
            if length > start:
                spans.append((start, length, style))
    out.append(text[last:])
    return Rendered("".join(out), tuple(sorted(set(spans))))


# --- driver -------------------------------------------------------------------

_PARAGRAPH_SPLIT_RE = Pattern(r"(\n[ \t]*\n\s*)")


def _render_paragraph(p: str, bare_braces: bool) -> str:
    """Render one paragraph to text that still carries style markers; never raises."""
    if len(p) > MAX_PARAGRAPH:
        return p
    try:
        return _convert_paragraph(p, bare_braces)
    except Exception:
        return p  # a bug here costs one paragraph its styling, not the reader


def _convert_paragraph(p: str, bare_braces: bool) -> str:
    lits: list[str] = []
    raws: list[str] = []
    if "\\\\" in p or "\\backslash" in p:
        from reader.text.latex import commands_undoubled, mendeley_unescaped

        p = mendeley_unescaped(commands_undoubled(p))
    protected = _emphasis(protect(unsize(p), lits, raws))
    skeleton = expand(_skeleton(protected, lits, bare_braces), RAW_RE, raws, RAW_BASE)
    converted = skeleton
    if len(skeleton) <= MAX_LATEX and _NEEDS_LATEX_RE.search(skeleton):
        # pylatexenc and the converter are made with the first TeX met: a screen of plain
        # titles (the reader's first, often) does not wait for them.
        from reader.text.latex import latex_to_text

        try:
            converted = latex_to_text(skeleton)
        except Exception:  # includes RecursionError on deeply nested braces
            converted = skeleton  # show the LaTeX as written rather than nothing
    # Literal values never contain placeholders themselves (runs stop at them),
    # so one pass expands everything.
    return expand(converted, LIT_RE, lits, LIT_BASE)


def _render(source: str, bare_braces: bool) -> Rendered:
    source = PRIVATE_RE.sub("\ufffd", source)
    pieces = _PARAGRAPH_SPLIT_RE.split(source)
    out = [
        piece if index % 2 else _render_paragraph(piece, bare_braces)
        for index, piece in enumerate(pieces)
    ]
    return _extract_spans("".join(out))


@functools.lru_cache(maxsize=1024)
def _render_cached(source: str, bare_braces: bool) -> Rendered:
    return _render(source, bare_braces)


def render(source: str, *, groups: bool = False) -> Rendered:
    """Render abstract text with LaTeX and Markdown to plain text and style spans; never
    raises. A brace group that is no macro's is text (``{3, 4, 6}``), unless ``groups``
    (a BibTeX value's braces, which protect words and group)."""
    try:
        if len(source) <= MAX_CACHED:
            return _render_cached(source, not groups)
        return _render(source, not groups)
    except Exception:
        # Belt and braces: a bug here must not take the reader down.
        return Rendered(str(source), ())


# Text without any of these has nothing for the steps above to do: no LaTeX, no Markdown,
# no markers (half the ICLR 2026 sample's texts). Three searches: one pattern of the three
# alternatives, each tried at every character, took 2.4 times as long over a conference.
_MARKUP_CHARACTERS = re.compile(r"[\\$*_`~^{}\[\]<>&#%|\x00-\x08\x0b-\x1f\x7f]")
_LIGATURES = re.compile(r"(--+|``|'')")
_LIST_LINE = re.compile(r"^[ \t]*(?:[-+]|\d+[.)])[ \t]", re.MULTILINE)
# The private-use characters of markers and protected spans, looked for only beyond ASCII:
# in the class above, their ranges took 0.65 ms to compile on the way to the first frame.
_PRIVATE_USE = Pattern(r"[\ue000-\uf8ff\U000f0000-\U0010ffff]")


def _may_need_rendering(text: str) -> bool:
    """Whether ``text`` holds anything rendering changes (see above)."""
    if _MARKUP_CHARACTERS.search(text) or _LIGATURES.search(text) or _LIST_LINE.search(text):
        return True
    return not text.isascii() and _PRIVATE_USE.search(text) is not None


# Plain texts already rendered, by source: see rendered_as.
_KNOWN: ContextVar[Mapping[str, str] | None] = ContextVar("_KNOWN", default=None)


@contextmanager
def rendered_as(known: Mapping[str, str]) -> Iterator[None]:
    """Within, :func:`to_plain` answers with ``known``'s plain text for its sources (their
    renderings, made before), so that code that renders, such as an exporter, need not
    render them again."""
    token = _KNOWN.set(known)
    try:
        yield
    finally:
        _KNOWN.reset(token)


def to_plain(source: str, *, groups: bool = False, ligatures: bool = True) -> str:
    """Render *source* and return just the text; ``groups`` as for :func:`render`.

    Without ``ligatures``, a text whose only TeX-looking marks are doubled hyphens,
    backquotes or quotes (TeX's en dash and quotes) comes back as written: in a text not
    written as TeX (a CSV's, a RIS file's) they are the characters its author typed."""
    if not _may_need_rendering(source) or (
        not ligatures and not _may_need_rendering(_LIGATURES.sub("", source))
    ):
        # Indexing a library calls this for every abstract; most are plain prose.
        return source
    if not ligatures and "$" not in source and _LIGATURES.search(source):
        # The text between them rendered, they as typed. (Math is rendered whole, its
        # ligatures too: a split would cut "$a -- b$" in two.)
        pieces = _LIGATURES.split(source)
        return "".join(
            piece if n % 2 else to_plain(piece, groups=groups) for n, piece in enumerate(pieces)
        )
    if groups:
        return render(source, groups=True).text
    known = _KNOWN.get()
    if known is not None:
        plain = known.get(source)
        if plain is not None:
            return plain
    return render(source).text


_WHITESPACE_RE = re.compile(r"\s+")
_LINE_BREAK_RE = Pattern(r"[^\S ]")


def render_line(source: str) -> Rendered:
    """Render a one-line field (title, TL;DR, name, venue) like an abstract, on one line:
    whitespace folded to single spaces before rendering, and any line break the LaTeX
    produces (``\\\\``, ``\\newline``) a space, so that spans keep indexing the text."""
    folded = _WHITESPACE_RE.sub(" ", source).strip()
    if not _may_need_rendering(folded):
        return Rendered(folded, ())
    if "\\" not in folded and "$" not in folded:
        # Braces with no command or math only group (BibTeX titles protect words with
        # them): the words are the text, as the converter would give them at far more cost.
        words = folded.replace("{", "").replace("}", "")
        if "  " not in words and words == words.strip() and not _may_need_rendering(words):
            return Rendered(words, ())
    rendered = render(folded, groups=True)
    if "  " not in rendered.text and not _LINE_BREAK_RE.search(rendered.text):
        return rendered
    return _fold(rendered)


def _fold(rendered: Rendered) -> Rendered:
    """Fold whitespace runs of rendered text to single spaces, moving the spans with them."""
    out: list[str] = []
    # new_index[i]: where character i of the old text starts in the new one.
    new_index: list[int] = []
    for c in rendered.text:
        new_index.append(len(out))
        if c.isspace():
            if out and out[-1] != " ":
                out.append(" ")
        else:
            out.append(c)
    new_index.append(len(out))
    while out and out[-1] == " ":
        out.pop()
    end = len(out)
    spans = tuple(
        (new_index[a], min(new_index[b], end), style)
        for a, b, style in rendered.spans
        if new_index[a] < min(new_index[b], end)
    )
    return Rendered("".join(out), spans)


def plain_line(source: str) -> str:
    """TeX and Markdown in a bibliographic field as plain one-line Unicode; never raises.

    The converter for titles, names, venues and TL;DRs wherever they are shown, cited
    or compared: ``The {\\sc Conniver} Manual`` gives ``The Conniver Manual``.
    """
    return render_line(source).text

