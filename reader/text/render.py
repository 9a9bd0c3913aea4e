"""Render abstract text (LaTeX fragments plus light Markdown) as plain Unicode with style spans.

Abstracts mix LaTeX (``$\\alpha$``, ``\\emph{x}``, ``28\\%``, ``---``) with Markdown
emphasis (``**bold**``, ``*italic*``, backtick code).  :func:`render` turns them into
plain text for reading plus ``(start, end, style)`` spans that the UI turns into
styling.  The output is data, never markup: brackets and the like pass through.

How it works, per paragraph (paragraphs never share math or emphasis):

1. *Protect*: a scanner finds what must not reach pylatexenc as is.  Math
   (``$…$`` only when it looks like math, ``$$…$$``, ``\\(…\\)``, ``\\[…\\]``) is
   parked as a *raw* placeholder so Markdown cannot touch it; money dollars,
   unescaped ``%`` (not a comment in an abstract), ``&``, "approximately" ``~``,
   Markdown code spans and ``\\url`` targets become *literal* placeholders.
2. *Emphasis*: Markdown delimiters become private-use marker characters.
3. *Plain runs*: every stretch of ordinary text becomes a literal placeholder.
   pylatexenc is slow per character (~7 ms for 2,000 chars), so it only ever
   sees the LaTeX skeleton; placeholders also keep the source's whitespace.
4. *LaTeX*: if anything LaTeX-like is left, pylatexenc converts it, with a
   context that keeps unknown macros visible and turns ``\\textbf`` and friends
   into markers.  Any failure falls back to the unconverted skeleton.
5. *Finish*: placeholders are expanded and markers become spans.

Markers use private-use code points U+E000–U+E005 and placeholders the
supplementary private-use planes; those are replaced by U+FFFD in the input so
that they cannot be forged.

This module is part of the headless core and imports nothing from the UI.
"""

from __future__ import annotations

import functools
import logging
import re
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pylatexenc import latexwalker, macrospec
from pylatexenc.latex2text import LatexNodes2Text, get_default_latex_context_db

from reader.text.texscripts import convert_scripts

__all__ = ["Rendered", "plain_line", "render", "render_line", "to_plain"]

# pylatexenc reports tolerated parse errors through logging; with no handler
# configured, Python's last-resort handler would print them onto the terminal
# the UI is drawing on.  Parse problems are expected here and handled.
_pylatexenc_logger = logging.getLogger("pylatexenc")
_pylatexenc_logger.addHandler(logging.NullHandler())
_pylatexenc_logger.setLevel(logging.ERROR)

STYLES = ("bold", "italic", "code")


@dataclass(frozen=True, slots=True)
class Rendered:
    """Plain text to show, and style spans as ``(start, end, style)`` indexes into it."""

    text: str
    spans: tuple[tuple[int, int, str], ...]


# --- private-use alphabet ---------------------------------------------------

# Style markers: open/close pairs, in the order of STYLES.
_OPEN = {"bold": "\ue000", "italic": "\ue002", "code": "\ue004"}
_CLOSE = {"bold": "\ue001", "italic": "\ue003", "code": "\ue005"}
_MARKER_STYLE = {ch: (style, True) for style, ch in _OPEN.items()}
_MARKER_STYLE.update({ch: (style, False) for style, ch in _CLOSE.items()})

# Placeholders: one character each, the table index added to a base in the
# supplementary private-use planes.  One character, because pylatexenc's cost
# is per character.  Literal ones are expanded after pylatexenc, raw ones put
# back just before it.  65,534 slots exceed what a paragraph of
# _MAX_PARAGRAPH characters can need (each placeholder replaces >= 1 char).
_LIT_BASE = 0xF0000
_RAW_BASE = 0x100000
_SLOTS = 0xFFFE
_LIT_RE = re.compile("[\U000f0000-\U000ffffd]")
_RAW_RE = re.compile("[\U00100000-\U0010fffd]")
# Everything of ours that must never reach the output (or come from the input).
_PRIVATE_RE = re.compile("[\ue000-\ue005\U000f0000-\U0010ffff]")


def _placeholder(table: list[str], value: str, base: int) -> str:
    if len(table) >= _SLOTS:
        raise OverflowError("too many placeholders")  # caught per paragraph
    table.append(value)
    return chr(base + len(table) - 1)


def _expand(text: str, pattern: re.Pattern[str], table: list[str], base: int) -> str:
    def sub(m: re.Match[str]) -> str:
        index = ord(m.group()) - base
        return table[index] if index < len(table) else ""

    return pattern.sub(sub, text)


# --- limits -----------------------------------------------------------------

# A paragraph longer than this is shown verbatim: no abstract is this long, and
# it bounds the cost of the emphasis search on hostile input.
_MAX_PARAGRAPH = 50_000
# pylatexenc is slow and recursive; beyond this the skeleton is shown as is.
_MAX_LATEX = 20_000
# Longest emphasised phrase considered; keeps the emphasis regexes linear.
_MAX_EMPHASIS = 400
# Inputs up to this size are memoised by render().
_MAX_CACHED = 20_000


# --- step 1: protect --------------------------------------------------------

_SCAN_RE = re.compile(r"[\\`$%&~]")
_CONTROL_WORD_RE = re.compile(r"[A-Za-z@]+")
# A dollar amount right after "$": "$5 and", "$10 fee", "$5,000.", "$5-$10".
_MONEY_START_RE = re.compile(
    r"\d[\d,]*(?:\.\d+)?(?:[kKmMbB]|bn|USD)?(?=$|\s|[,;:!?)/\u2013\u2014-]|\.(?!\d))"
)
# Math content that is only a formatted amount ("$1,000$", "$4.99$").
_MONEY_ONLY_RE = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d\d")
_MATH_ENV_RE = re.compile(
    r"\{((?:equation|align|alignat|gather|multline|flalign|eqnarray|displaymath|math)\*?)\}"
)
# Characters that "\X" turns into themselves; done here so emphasis never sees them.
_ESCAPED_LITERALS = set("$%&#_{}*")
# Symbol macros found run together with a capitalised word in real titles.
_GLUED_RE = re.compile(r"(slash)[A-Z]")

# Delimiter sizes (\left( … \right), \bigl[): the delimiter is shown, the size is not,
# and "\right." is no delimiter at all.  Openers keep no space after them, closers none
# before them: "\left( 0001 \right)" reads "(0001)".
_DELIMITER = r"(\.|\\[{}|]|\\[A-Za-z]+|[^\s\\])"
_OPENER_RE = re.compile(r"\\(?:left|[bB]igg?l)(?![A-Za-z])\s*" + _DELIMITER + r"\s*")
_CLOSER_RE = re.compile(r"\s*\\(?:right|[bB]igg?r)(?![A-Za-z])\s*" + _DELIMITER)
_SIZED_RE = re.compile(r"\\(?:middle|[bB]igg?m?)(?![A-Za-z])\s*" + _DELIMITER)
_DELIMITER_NAMES = {".": "", "\\langle": "⟨", "\\rangle": "⟩", "\\lvert": "|", "\\rvert": "|"}


def _unsize(text: str) -> str:
    r"""Drop delimiter sizes: ``\left( x \right)`` → ``(x)``."""
    if "\\" not in text:
        return text

    def delimiter(m: re.Match[str]) -> str:
        return _DELIMITER_NAMES.get(m.group(1), m.group(1))

    for pattern in (_OPENER_RE, _CLOSER_RE, _SIZED_RE):
        text = pattern.sub(delimiter, text)
    return text


# A negative thin space between spaced-out symbols: "n / \\! \\log n".
_NEGATIVE_SPACE_RE = re.compile(r"(\s*)\\!(\s*)")


def _math(source: str) -> str:
    """Math source prepared for pylatexenc: scripts as Unicode where Unicode has them."""
    if "\\!" in source:
        source = _NEGATIVE_SPACE_RE.sub(lambda m: " " if m.group(1) or m.group(2) else "", source)
    return convert_scripts(source)


def _find_unescaped(text: str, needle: str, start: int) -> int:
    """Index of the next *needle* at or after *start* not preceded by an odd run of ``\\``."""
    while True:
        k = text.find(needle, start)
        if k < 0:
            return -1
        backslashes = 0
        while k - backslashes - 1 >= 0 and text[k - backslashes - 1] == "\\":
            backslashes += 1
        if backslashes % 2 == 0:
            return k
        start = k + 1


# Math source no amount of money has: a digit after the closing "$" is then no reason
# to doubt it ("360$^\\circ\\times$180$^\\circ$", "$<$1%", "FID$=$1.46").
_SURELY_MATH_RE = re.compile(r"[\\^_{]")


def _surely_math(content: str) -> bool:
    """True for ``$…$`` content that cannot be an amount: a macro, a script, a brace, or
    no digit at all."""
    return bool(_SURELY_MATH_RE.search(content)) or not any(c.isdigit() for c in content)


def _inline_math_end(p: str, j: int) -> int:
    """End (exclusive) of ``$…$`` math opening at *j*, or -1 if this ``$`` is not math.

    The rules follow Pandoc's: the opening ``$`` is followed by a non-space, the
    closing one preceded by a non-space and not followed by a digit (unless what it
    closes holds a macro, a script or a brace, which no amount of money does).  On top of
    that an opening ``$`` that starts an amount (``$5 and``) is never math, and
    each ``$`` pairs only with the next one, so in ``costs $5 and $10`` neither is.
    """
    n = len(p)
    if j + 1 >= n or p[j + 1].isspace() or _MONEY_START_RE.match(p, j + 1):
        return -1
    k = _find_unescaped(p, "$", j + 1)
    if k < 0 or p[k - 1].isspace():
        return -1
    if k + 1 < n and p[k + 1].isdigit() and not _surely_math(p[j + 1 : k]):
        return -1
    if _MONEY_ONLY_RE.fullmatch(p, j + 1, k):
        return -1
    return k + 1


def _code_span_end(p: str, j: int) -> int:
    """End (exclusive) of a Markdown code span opening at *j*, or -1.

    LaTeX opens quotes with backticks (as in `word'), so a span must be tight
    (no space just inside the backticks) and stand apart from words.
    """
    n = len(p)
    if j > 0 and p[j - 1].isalnum():
        return -1
    k = p.find("`", j + 1)
    if k < 0 or k == j + 1:
        return -1
    if p[j + 1].isspace() or p[k - 1].isspace():
        return -1
    if k + 1 < n and (p[k + 1].isalnum() or p[k + 1] == "`"):
        return -1
    return k + 1


def _protect(p: str, lits: list[str], raws: list[str]) -> str:
    """Step 1: park math as raw placeholders and literal-only text as literal ones."""

    def lit(value: str) -> str:
        return _placeholder(lits, value, _LIT_BASE)

    def raw(value: str) -> str:
        return _placeholder(raws, value, _RAW_BASE)

    out: list[str] = []
    i, n = 0, len(p)
    while i < n:
        m = _SCAN_RE.search(p, i)
        if m is None:
            out.append(p[i:])
            break
        j = m.start()
        out.append(p[i:j])
        c = p[j]
        if c == "\\":
            if j + 1 >= n:
                out.append(lit("\\"))
                i = n
                continue
            nxt = p[j + 1]
            if nxt in _ESCAPED_LITERALS:
                out.append(lit(nxt))
                i = j + 2
            elif nxt in "([":
                k = p.find("\\)" if nxt == "(" else "\\]", j + 2)
                if k >= 0:
                    out.append(raw(_math(p[j : k + 2])))
                    i = k + 2
                else:
                    # Unclosed: most likely a Markdown-escaped bracket.
                    out.append(lit(nxt))
                    i = j + 2
            elif nxt in ")]":
                # A closer with no opener would upset pylatexenc's math parser.
                out.append(lit(nxt))
                i = j + 2
            elif nxt.isascii() and nxt.isalpha():
                word = _CONTROL_WORD_RE.match(p, j + 1)
                assert word is not None
                i = word.end()
                out.append(p[j:i])
                glued = _GLUED_RE.match(word.group())
                if glued is not None:
                    # "InGaN\\slashGaN": the macro and the next word, run together.
                    i = j + 1 + glued.end(1)
                    out[-1] = f"\\{glued.group(1)}{{}}"
                    continue
                env = _MATH_ENV_RE.match(p, i) if word.group() == "begin" else None
                if env is not None:
                    close = f"\\end{{{env.group(1)}}}"
                    k = p.find(close, env.end())
                    if k >= 0:
                        # Math environments are math: no Markdown inside them.
                        out[-1] = raw(_math(p[j : k + len(close)]))
                        i = k + len(close)
                elif word.group() in ("url", "href") and i < n and p[i] == "{":
                    # URLs are verbatim: "~", "%" and "_" in them mean themselves.
                    k = p.find("}", i + 1)
                    if k >= 0:
                        out.append("{" + lit(p[i + 1 : k]) + "}")
                        i = k + 1
            else:
                out.append(p[j : j + 2])
                i = j + 2
        elif c == "`":
            if p.startswith("``", j):
                out.append("``")  # LaTeX opening double quote
                i = j + 2
                continue
            end = _code_span_end(p, j)
            if end < 0:
                out.append("`")
                i = j + 1
            else:
                out.append(_OPEN["code"] + lit(p[j + 1 : end - 1]) + _CLOSE["code"])
                i = end
        elif c == "$":
            if p.startswith("$$", j):
                k = _find_unescaped(p, "$$", j + 2)
                if k >= 0 and p[j + 2 : k].strip():
                    out.append(raw(_math(p[j : k + 2])))
                    i = k + 2
                else:
                    out.append(lit("$$"))
                    i = j + 2
                continue
            end = _inline_math_end(p, j)
            if end < 0:
                out.append(lit("$"))
                i = j + 1
            else:
                out.append(raw(_math(p[j:end])))
                i = end
        elif c == "~":
            # "~10%" means "about"; "Fig.~3" or "et al.~\cite" is a LaTeX tie.
            if j == 0 or p[j - 1].isspace() or p[j - 1] in "([":
                out.append(lit("~"))
            else:
                out.append("~")
            i = j + 1
        else:  # "%" or "&": an abstract has no comments and no table cells.
            out.append(lit(c))
            i = j + 1
    return "".join(out)


# --- step 2: Markdown emphasis ------------------------------------------------

# Openers must not follow a word character (so O*NET, 2*3, snake_case stay) and
# must be followed by a non-space (so "a * b" stays); closers the mirror image.
# "**" may close inside a word ("**con**tinual", seen in real abstracts).
_E = _MAX_EMPHASIS
_EMPHASIS_RULES: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (
        re.compile(rf"(?<![\w*\\])\*\*\*(?![\s*])(.{{1,{_E}}}?)(?<![\s*])\*\*\*(?!\*)", re.S),
        ("bold", "italic"),
    ),
    (re.compile(rf"(?<![\w*\\])\*\*(?![\s*])(.{{1,{_E}}}?)(?<![\s*])\*\*(?!\*)", re.S), ("bold",)),
    (re.compile(rf"(?<![\w\\])__(?![\s_])(.{{1,{_E}}}?)(?<![\s_])__(?![\w_])", re.S), ("bold",)),
    (re.compile(rf"(?<![\w*\\])\*(?![\s*])(.{{1,{_E}}}?)(?<![\s*])\*(?![\w*])", re.S), ("italic",)),
    (re.compile(rf"(?<![\w\\])_(?![\s_])(.{{1,{_E}}}?)(?<![\s_])_(?![\w_])", re.S), ("italic",)),
)


def _emphasis(text: str) -> str:
    """Step 2: replace Markdown emphasis delimiters by style markers."""
    if "*" not in text and "_" not in text:
        return text
    for pattern, styles in _EMPHASIS_RULES:
        opening = "".join(_OPEN[s] for s in styles)
        closing = "".join(_CLOSE[s] for s in reversed(styles))
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
_SKELETON_RE = re.compile(f"(?P<cs>{_CONTROL_SEQ})|(?P<run>{_PLAIN_RUN})|(?P<brace>[{{}}])")
_NEEDS_LATEX_RE = re.compile(r"[\\{}$~]|--|``|''")
_CS_NAME_RE = re.compile(r"\\([A-Za-z@]+|.)", re.S)


def _skeleton(text: str, lits: list[str]) -> str:
    """Step 3: replace plain runs by literal placeholders, leaving the LaTeX skeleton.

    Runs inside the argument of an accent or math-alphabet macro stay as they
    are, because pylatexenc works on those character by character (\\c{c},
    \\mathbf{x}); everywhere else, including inside \\textbf{…}, they go.
    """
    # One flag per open brace: must this group's text stay visible to pylatexenc?
    opaque: list[bool] = []
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
            elif opaque:
                opaque.pop()
        elif not (opaque and opaque[-1]):
            return _placeholder(lits, value, _LIT_BASE)
        return value

    return _SKELETON_RE.sub(sub, text)


def _is_charwise(name: str) -> bool:
    """True for macros whose argument pylatexenc must read (char by char, or as a name)."""
    return (
        len(name) == 1  # accents: \\c \\v \\H and control symbols \\" \\' \\^
        or name.startswith("math")
        or name in ("boldsymbol", "bm", "pmb", "begin", "end")  # environment names too
        or name in _COMBINING
    )


# --- step 4: LaTeX ------------------------------------------------------------

# Bare control words that produce a letter: the space after them separates
# nothing ("Sk\l odowska"), so it is dropped as LaTeX would.
_LETTER_MACROS = frozenset("l L o O i j ss SS aa AA ae AE oe OE dh DH th TH ng NG".split())
# Operator names, which TeX sets apart from a name that follows them.
_OPERATORS = frozenset(
    "log ln lg exp sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth "
    "max min sup inf lim liminf limsup arg det dim gcd hom ker Pr deg".split()
)
# Old-style declarations that style the rest of their group: {\bf x}, {\em x}.
_DECLARATIONS = {
    "bf": "bold",
    "bfseries": "bold",
    "em": "italic",
    "it": "italic",
    "itshape": "italic",
    "sl": "italic",
    "slshape": "italic",
    "tt": "code",
    "ttfamily": "code",
}


def _arg_text(node: Any, l2t: LatexNodes2Text, index: int = -1) -> str:
    """Text of argument *index* of a macro node, or "" when it was not given."""
    args = node.nodeargd.argnlist if node.nodeargd is not None else None
    if not args:
        return ""
    try:
        arg = args[index]
    except IndexError:
        return ""
    return "" if arg is None else l2t.nodelist_to_text([arg])


_Handler = Callable[[Any, LatexNodes2Text], str]


def _styled(style: str) -> _Handler:
    def handler(node: Any, l2t: LatexNodes2Text) -> str:
        return _OPEN[style] + _arg_text(node, l2t) + _CLOSE[style]

    return handler


def _constant(text: str) -> _Handler:
    return lambda node, l2t: text


def _citation(node: Any, l2t: LatexNodes2Text) -> str:
    key = _arg_text(node, l2t)
    return f"[{key}]" if key else ""


def _href(node: Any, l2t: LatexNodes2Text) -> str:
    text, url = _arg_text(node, l2t, 1), _arg_text(node, l2t, 0)
    return f"{text} ({url})" if text and url and text != url else text or url


def _unknown_macro(node: Any, l2t: LatexNodes2Text) -> str:
    r"""Show a macro nobody defined as written, e.g. ``\tool`` or ``\mymacro{arg}``."""
    out = "\\" + node.macroname
    args = node.nodeargd.argnlist if node.nodeargd is not None else None
    for arg in args or ():
        if arg is None:
            continue
        if arg.isNodeType(latexwalker.LatexGroupNode):
            opener, closer = arg.delimiters
            out += opener + l2t.nodelist_to_text(arg.nodelist) + closer
        else:
            out += l2t.nodelist_to_text([arg])
    return out


_CITE_MACROS = (
    "cite citet citep citealt citealp citeauthor citeyear citeyearpar citenum "
    "citetext citefullauthor citetalias citepalias Citet Citep Citealt Citealp Citeauthor"
).split()
_DISCARDED_MACROS = (
    "label color xspace noindent centering vspace hspace vphantom hphantom "
    "bibliography keywords setlength addlength setcounter addcounter usepackage "
    "documentclass newcommand renewcommand providecommand"
).split()
_CONTENT_MACROS = (
    "textsf textmd textup textrm textnormal textsc mbox textsuperscript textsubscript url"
).split()
# Font switches with no style of ours: they print nothing ("The \\sc CONNIVER Manual").
_FONT_SWITCHES = (
    "sc scshape rm rmfamily sf sffamily upshape mdseries normalfont mathversion "
    "small footnotesize scriptsize tiny large Large LARGE huge Huge normalsize"
).split()
# Accents pylatexenc does not know, as the combining mark each puts on every character
# of its argument (an overline spans them all: \overline{10} → 1̅0̅).
_COMBINING = {
    "ocirc": "\u030a",
    "overline": "\u0305",
    "underline": "\u0332",
    "widetilde": "\u0303",
    "widehat": "\u0302",
}


def _combining(mark: str) -> _Handler:
    def handler(node: Any, l2t: LatexNodes2Text) -> str:
        text = _arg_text(node, l2t)
        return unicodedata.normalize("NFC", "".join(c + mark for c in text if not c.isspace()))

    return handler


# Our macro handlers, consulted before pylatexenc's own table.  Called directly
# rather than through MacroTextSpec: pylatexenc inspects a callable's signature
# on every use, which was a measurable share of the render time.
_MACRO_HANDLERS: dict[str, _Handler] = {
    "emph": _styled("italic"),
    "textit": _styled("italic"),
    "textsl": _styled("italic"),
    "textbf": _styled("bold"),
    "texttt": _styled("code"),
    "href": _href,
    "LaTeX": _constant("LaTeX"),
    "TeX": _constant("TeX"),
    "newline": _constant("\n"),
    "linebreak": _constant("\n"),
    "slash": _constant("/"),
    "/": _constant(""),  # italic correction
    **{name: _combining(mark) for name, mark in _COMBINING.items()},
    **{name: _citation for name in _CITE_MACROS},
    **{name: _arg_text for name in _CONTENT_MACROS},
    # Declarations print nothing themselves; the enclosing group is styled.
    **{name: _constant("") for name in [*_DISCARDED_MACROS, *_DECLARATIONS, *_FONT_SWITCHES]},
}


def _build_parse_context() -> macrospec.LatexContextDb:
    db = latexwalker.get_default_latex_context_db()
    # pylatexenc's parser does not know that \href takes two arguments (its
    # text converter then fails with an IndexError).
    db.add_context_category(
        "reader",
        macros=[
            macrospec.std_macro("href", "{{"),
            macrospec.std_macro("textsuperscript", "{"),
            macrospec.std_macro("textsubscript", "{"),
            macrospec.std_macro("textnormal", "{"),
            macrospec.std_macro("textrm", "{"),
            *(macrospec.std_macro(name, "{") for name in _COMBINING),
        ],
        prepend=True,
    )
    return db


def _node_end(node: Any) -> int | None:
    pos, length = getattr(node, "pos", None), getattr(node, "len", None)
    return pos + length if isinstance(pos, int) and isinstance(length, int) else None


class _Converter(LatexNodes2Text):
    """pylatexenc's converter with our macros, source spacing and visible unknown macros."""

    def is_unknown(self, name: str) -> bool:
        """True for a macro neither we nor pylatexenc define."""
        return name not in _MACRO_HANDLERS and self.latex_context.get_macro_spec(name) is None

    def macro_node_to_text(self, node: Any) -> str:
        handler = _MACRO_HANDLERS.get(node.macroname)
        if handler is not None:
            return handler(node, self)
        if self.is_unknown(node.macroname):
            # pylatexenc would drop it, losing words such as a paper's "\tool".
            return _unknown_macro(node, self)
        return str(super().macro_node_to_text(node))

    def nodelist_to_text(self, nodelist: Any) -> str:
        parts: list[str] = []
        prev: Any = None
        prev_text = ""
        # End offset of an unknown macro (or of a group glued to it): a group
        # starting exactly there is that macro's argument and keeps its braces.
        glue_end: int | None = None
        for node in nodelist:
            if node is None:
                continue
            if (
                prev is not None
                and prev.isNodeType(latexwalker.LatexMacroNode)
                and node.isNodeType(latexwalker.LatexCharsNode)
                and prev_text
                and not prev_text[-1].isspace()
                and not _has_args(prev)
                and prev.macroname not in _LETTER_MACROS
                and prev.macroname != "slash"
            ):
                # Keep the author's space after a bare macro that printed
                # something ("O(\log T)", "\tool incorporates"); strict LaTeX
                # would swallow it.
                parts.append(prev.macro_post_space)
            if (
                glue_end is not None
                and node.isNodeType(latexwalker.LatexGroupNode)
                and node.pos == glue_end
            ):
                opener, closer = node.delimiters
                prev_text = opener + self.nodelist_to_text(node.nodelist) + closer
                glue_end = _node_end(node)
            else:
                prev_text = self.node_to_text(node)
                glue_end = None
                if node.isNodeType(latexwalker.LatexMacroNode) and self.is_unknown(
                    node.macroname
                ):
                    glue_end = _node_end(node)
            if (
                prev is not None
                and prev.isNodeType(latexwalker.LatexMacroNode)
                and prev.macroname in _OPERATORS
                and not _has_args(prev)
                and node.isNodeType(latexwalker.LatexMacroNode)
                and prev_text[:1].isalnum()
            ):
                # TeX sets an operator apart from what follows: "\\log\\log n" is "log log n".
                parts.append(" ")
            parts.append(prev_text)
            prev = node
        return "".join(parts)

    def chars_node_to_text(self, node: Any, textcol: int = 0) -> str:
        # Whitespace between constructs ("\textbf{a} \textbf{b}") is kept.
        return str(node.chars)

    def group_node_to_text(self, node: Any) -> str:
        text = self.nodelist_to_text(node.nodelist)
        for child in node.nodelist:
            if child.isNodeType(latexwalker.LatexCharsNode) and not child.chars.strip():
                continue
            if child.isNodeType(latexwalker.LatexMacroNode) and child.macroname in _DECLARATIONS:
                style = _DECLARATIONS[child.macroname]
                return _OPEN[style] + text + _CLOSE[style]
            break
        return text


def _has_args(node: Any) -> bool:
    args = node.nodeargd.argnlist if node.nodeargd is not None else None
    return any(a is not None for a in args or ())


_CONVERTER = _Converter(latex_context=get_default_latex_context_db(), math_mode="text")
_PARSE_CONTEXT = _build_parse_context()
# The converter keeps per-call state (equation context), so one call at a time.
_CONVERTER_LOCK = threading.Lock()


def _latex_to_text(latex: str) -> str:
    """Convert LaTeX with pylatexenc; raises on whatever pylatexenc raises."""
    with _CONVERTER_LOCK:
        return str(_CONVERTER.latex_to_text(latex, latex_context=_PARSE_CONTEXT))


# --- step 5: finish -----------------------------------------------------------


def _extract_spans(text: str) -> Rendered:
    """Strip markers (and any stray private-use characters) from *text*, recording spans."""
    if not _PRIVATE_RE.search(text):
        return Rendered(text, ())
    out: list[str] = []
    length = 0
    open_at: dict[str, list[int]] = {style: [] for style in STYLES}
    spans: list[tuple[int, int, str]] = []
    last = 0
    for m in _PRIVATE_RE.finditer(text):
        chunk = text[last : m.start()]
        out.append(chunk)
        length += len(chunk)
        last = m.end()
        marker = _MARKER_STYLE.get(m.group())
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

_PARAGRAPH_SPLIT_RE = re.compile(r"(\n[ \t]*\n\s*)")


def _render_paragraph(p: str) -> str:
    """Render one paragraph to text that still carries style markers; never raises."""
    if len(p) > _MAX_PARAGRAPH:
        return p
    try:
        return _convert_paragraph(p)
    except Exception:
        return p  # a bug here costs one paragraph its styling, not the reader


def _convert_paragraph(p: str) -> str:
    lits: list[str] = []
    raws: list[str] = []
    protected = _emphasis(_protect(_unsize(p), lits, raws))
    skeleton = _expand(_skeleton(protected, lits), _RAW_RE, raws, _RAW_BASE)
    converted = skeleton
    if len(skeleton) <= _MAX_LATEX and _NEEDS_LATEX_RE.search(skeleton):
        try:
            converted = _latex_to_text(skeleton)
        except Exception:  # includes RecursionError on deeply nested braces
            converted = skeleton  # show the LaTeX as written rather than nothing
    # Literal values never contain placeholders themselves (runs stop at them),
    # so one pass expands everything.
    return _expand(converted, _LIT_RE, lits, _LIT_BASE)


def _render(source: str) -> Rendered:
    source = _PRIVATE_RE.sub("\ufffd", source)
    pieces = _PARAGRAPH_SPLIT_RE.split(source)
    out = [
        piece if index % 2 else _render_paragraph(piece) for index, piece in enumerate(pieces)
    ]
    return _extract_spans("".join(out))


@functools.lru_cache(maxsize=1024)
def _render_cached(source: str) -> Rendered:
    return _render(source)


def render(source: str) -> Rendered:
    """Render abstract text with LaTeX and Markdown to plain text and style spans; never raises."""
    try:
        if len(source) <= _MAX_CACHED:
            return _render_cached(source)
        return _render(source)
    except Exception:
        # Belt and braces: a bug here must not take the reader down.
        return Rendered(str(source), ())


# Text without any of these has nothing for the steps above to do: no LaTeX, no Markdown,
# no markers. Checked against every text of the ICLR 2026 sample (half of them qualify).
_MAY_NEED_RENDERING = re.compile(
    r"[\\$*_`~^{}\[\]<>&#%|\x00-\x08\x0b-\x1f\x7f\ue000-\uf8ff\U000f0000-\U0010ffff]"
    r"|--|``|''|^[ \t]*(?:[-+]|\d+[.)])[ \t]",
    re.MULTILINE,
)


def to_plain(source: str) -> str:
    """Render *source* and return just the text."""
    if not _MAY_NEED_RENDERING.search(source):
        # Indexing a library calls this for every abstract; most are plain prose.
        return source
    return render(source).text


_WHITESPACE_RE = re.compile(r"\s+")


def render_line(source: str) -> Rendered:
    """Render a one-line field (title, TL;DR, name, venue) like an abstract, on one line.

    Whitespace is folded to single spaces before rendering, and any line break the
    LaTeX produces (``\\\\``, ``\\newline``) becomes a space, so spans keep indexing the text.
    """
    folded = _WHITESPACE_RE.sub(" ", source).strip()
    if not _MAY_NEED_RENDERING.search(folded):
        return Rendered(folded, ())
    rendered = render(folded)
    if "  " not in rendered.text and not _LINE_BREAK_RE.search(rendered.text):
        return rendered
    return _fold(rendered)


_LINE_BREAK_RE = re.compile(r"[^\S ]")


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


def title_words(source: str) -> str:
    """A title as its words, for comparing and indexing: TeX rendered when it has commands
    or groups (``R{\\'e}nyi`` → ``Rényi``, as BibTeX titles are stored), other text as is."""
    if "\\" in source or "{" in source:
        return plain_line(source)
    return source
