"""Step 4 of rendering: the LaTeX skeleton converted by pylatexenc, with our macro
handlers (font switches, styles as markers, accents pylatexenc lacks, citations, unknown
macros kept visible); the steps are described in :mod:`reader.text.render`."""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
from collections.abc import Callable
from typing import Any

from pylatexenc import latexwalker, macrospec
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

from reader.text.accents import COMBINING
from reader.text.markers import CLOSE, OPEN

# pylatexenc reports tolerated parse errors through logging; with no handler
# configured, Python's last-resort handler would print them onto the terminal
# the UI is drawing on.  Parse problems are expected here and handled.
_pylatexenc_logger = logging.getLogger("pylatexenc")
_pylatexenc_logger.addHandler(logging.NullHandler())
_pylatexenc_logger.setLevel(logging.ERROR)


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
        return OPEN[style] + _arg_text(node, l2t) + CLOSE[style]

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
    out: str = "\\" + node.macroname
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
    "documentclass newcommand renewcommand providecommand relax protect"
).split()
_CONTENT_MACROS = (
    "textsf textmd textup textrm textnormal textsc mbox textsuperscript textsubscript url"
).split()
# Font switches with no style of ours: they print nothing ("The \\sc CONNIVER Manual").
_FONT_SWITCHES = (
    "sc scshape rm rmfamily sf sffamily upshape mdseries normalfont mathversion "
    "small footnotesize scriptsize tiny large Large LARGE huge Huge normalsize"
).split()


def _combining(mark: str) -> _Handler:
    def handler(node: Any, l2t: LatexNodes2Text) -> str:
        text = _arg_text(node, l2t)
        return unicodedata.normalize("NFC", "".join(c + mark for c in text if not c.isspace()))

    return handler


_ABBREVIATIONS = {
    "eg": "e.g.", "Eg": "E.g.", "ie": "i.e.", "Ie": "I.e.", "etal": "et al.", "etc": "etc.",
    "vs": "vs.", "wrt": "w.r.t.", "cf": "cf.", "Cf": "Cf.", "iid": "i.i.d.",
}


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
    # The escapes of the ASCII characters (a BibTeX writer's, ours): pylatexenc gives the
    # spacing modifier letters (ˆ, ˜), and "M^3" came back from a round trip as "Mˆ3".
    "textasciicircum": _constant("^"),
    "textasciitilde": _constant("~"),
    # The Latin abbreviations conference style files define (cvpr.sty's \eg, \ie, \etal …),
    # which authors leave in the abstracts they paste.
    **{name: _constant(text) for name, text in _ABBREVIATIONS.items()},
    "/": _constant(""),  # italic correction
    **{name: _combining(mark) for name, mark in COMBINING.items()},
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
            # amsmath's text-style and display-style fractions, as \frac.
            macrospec.std_macro("tfrac", False, 2),
            macrospec.std_macro("dfrac", False, 2),
            *(macrospec.std_macro(name, "{") for name in COMBINING),
        ],
        prepend=True,
    )
    return db


def _node_end(node: Any) -> int | None:
    pos, length = getattr(node, "pos", None), getattr(node, "len", None)
    return pos + length if isinstance(pos, int) and isinstance(length, int) else None


class _Converter(LatexNodes2Text):  # type: ignore[misc]  # untyped base
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
                and (node.isNodeType(latexwalker.LatexCharsNode) or (
                    node.isNodeType(latexwalker.LatexMacroNode) and _has_args(node)
                    and prev.macroname not in _OPERATORS))  # (set apart below)
                and prev_text
                and not prev_text[-1].isspace()
                and not _has_args(prev)
                and prev.macroname not in _LETTER_MACROS
                and prev.macroname != "slash"
            ):
                # Keep the author's space after a bare macro that printed
                # something ("O(\log T)", "\tool incorporates"), before text or a
                # macro printing its argument ("\rightarrow \mathrm{ZZ}"); strict
                # LaTeX would swallow it.
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
            ) or (
                node.isNodeType(latexwalker.LatexMacroNode)
                and node.macroname in _OPERATORS
                and not _has_args(node)
                and next((part[-1] for part in reversed(parts) if part), "").isalnum()
            ):
                # TeX sets an operator apart from what follows and from what precedes it:
                # "\\log\\log n" is "log log n", "d\\log d" is "d log d".
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
                return OPEN[style] + text + CLOSE[style]
            break
        return text


def _has_args(node: Any) -> bool:
    args = node.nodeargd.argnlist if node.nodeargd is not None else None
    return any(a is not None for a in args or ())


def _text_context() -> Any:
    db = get_default_latex_context_db()
    db.add_context_category(
        "reader", macros=[MacroTextSpec(name, "%s/%s") for name in ("tfrac", "dfrac")],
        prepend=True,
    )
    return db


_CONVERTER = _Converter(latex_context=_text_context(), math_mode="text")
_PARSE_CONTEXT = _build_parse_context()
# The converter keeps per-call state (equation context), so one call at a time.
_CONVERTER_LOCK = threading.Lock()


def known_macro(name: str) -> bool:
    """Whether ``name`` is a macro we or pylatexenc convert (``textbf``, ``alpha``)."""
    return not _CONVERTER.is_unknown(name)


# A command written with its backslash doubled, as an over-escaping form stores it
# (ICLR 2026: "$\\textbf{PEFT}$"): in TeX a line break before the word "textbf", drawn
# "textbfPEFT".
_DOUBLED_BACKSLASH = re.compile(r"\\\\([A-Za-z]+)")


def commands_undoubled(text: str) -> str:
    """``text`` with each command written with its backslash doubled read as the command,
    where it is one we or pylatexenc convert; before any other word, ``\\`` stays a line
    break."""
    return _DOUBLED_BACKSLASH.sub(
        lambda match: match[0][1:] if known_macro(match[1]) else match[0], text)


# Mendeley's BibTeX writes the TeX of an abstract escaped as text: "$\epsilon$" becomes
# "{\$}\backslashepsilon{\$}" (drawn "$\backslashepsilon{$}"), "{\bf 289}" becomes
# "{\{}$\backslash$bf 289{\}}" and "R\'{e}nyi" "R$\backslash$'{\{}e{\}}nyi".
_MENDELEY_MACRO = re.compile(r"\\backslash(?:\{\})?([A-Za-z]+)")
_MENDELEY_BACKSLASH = re.compile(r"\$\\backslash\$(?=[A-Za-z'`^\"~=.])")
_MENDELEY_ESCAPES = (("{\\$}", "$"), ("{\\_}", "_"), ("{\\^{}}", "^"), ("{\\{}", "{"),
                     ("{\\}}", "}"))


def mendeley_unescaped(text: str) -> str:
    """``text`` with the TeX Mendeley escaped as text read as TeX again, where it escaped a
    command we or pylatexenc convert (``\\backslashepsilon``) or wrote a backslash as
    ``$\\backslash$`` before a command or an accent; otherwise as written (a
    ``\\backslash`` of a set difference stays one)."""
    glued = _MENDELEY_MACRO.sub(lambda m: "\\" + m[1] if known_macro(m[1]) else m[0], text)
    glued = _MENDELEY_BACKSLASH.sub(lambda _m: "\\", glued)
    if glued == text:
        return text
    for escaped, plain in _MENDELEY_ESCAPES:
        glued = glued.replace(escaped, plain)
    return glued


def latex_to_text(latex: str) -> str:
    """Convert LaTeX with pylatexenc; raises on whatever pylatexenc raises."""
    with _CONVERTER_LOCK:
        return str(_CONVERTER.latex_to_text(latex, latex_context=_PARSE_CONTEXT))


