"""TeX sub- and superscripts as Unicode characters, where Unicode has them.

``In$_x$Ga$_{1-x}$N`` reads ``InₓGa₁₋ₓN`` and ``360$^\\circ$`` reads ``360°``.  A script is
converted only when every character of it has a Unicode sub- or superscript form; any
other is left as ``^c`` (one character) or ``^(…)`` (several), so that it never reads as
part of the text around it.  Works on math source, before the rest of the LaTeX is
converted; part of the headless core.
"""

from __future__ import annotations

import functools
import re

from reader.text.pattern import Pattern

__all__ = ["convert_scripts"]

_SUPERSCRIPTS = dict(
    zip(
        "0123456789+-−=()"
        "abcdefghijklmnoprstuvwxyz"
        "ABDEGHIJKLMNOPRTUVW"
        "αβγδεϵθιφϕχ",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾"
        "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ"
        "ᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ"
        "ᵅᵝᵞᵟᵋᵋᶿᶥᵠᵠᵡ",
        strict=True,
    )
)
_SUBSCRIPTS = dict(
    zip(
        "0123456789+-−=()aehijklmnoprstuvxβγρφϕχ",
        "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵩᵪ",
        strict=True,
    )
)
# Superscripts whose usual reading is a symbol of its own rather than a raised one.
_SUPERSCRIPT_SYMBOLS = {
    "\\circ": "°",
    "\\prime": "′",
    "'": "′",
    "\\prime\\prime": "″",
    "''": "″",
    "\\top": "ᵀ",
    "\\intercal": "ᵀ",
    "*": "*",
    "\\ast": "*",
    "\\star": "⋆",
    "\\dagger": "†",
    "\\ddagger": "‡",
}

# One script: "^" or "_", then a group (one level of nesting), a control word or
# symbol, or one character.
_SCRIPT_RE = Pattern(
    r"(?<!\\)([\^_])\s*(\{(?:[^{}]|\{[^{}]*\})*\}|\\[A-Za-z]+|\\[^A-Za-z]|[^\s{}\\])"
)
_ENDS_IN_CONTROL_WORD = Pattern(r"\\([A-Za-z]+)\s*$")
_TOKEN_RE = Pattern(r"\\[A-Za-z]+\s*|\\[^A-Za-z]|[{}]|\s+|.", re.S)
# Font switches in a script change no character we can show: _{\rm max}, _{\text{max}}.
_FONT_MACROS = frozenset(
    "rm it bf sf tt mathrm mathit mathbf mathsf mathtt mathnormal text textrm textit "
    "textbf textsf texttt textnormal operatorname boldsymbol bm".split()
)
# Thin spaces and the like, which a script can do without.
_SPACING = frozenset(["\\,", "\\!", "\\;", "\\:", "\\ "])


@functools.cache
def _symbol(name: str) -> str | None:
    """The character pylatexenc gives for a symbol macro (``\\alpha`` → α), if one."""
    from pylatexenc.latex2text import get_default_latex_context_db

    spec = get_default_latex_context_db().get_macro_spec(name)
    repl = getattr(spec, "simplify_repl", None)
    return repl if isinstance(repl, str) and len(repl) == 1 else None


@functools.cache
def _known(name: str) -> bool:
    """True for a macro pylatexenc converts (``\\max``, ``\\ell``), not one it would drop."""
    from pylatexenc.latex2text import get_default_latex_context_db

    return get_default_latex_context_db().get_macro_spec(name) is not None


def _characters(body: str) -> str | None:
    """The characters a script's source stands for, or None if it holds more than
    symbols, letters and font switches (fractions, accents, nested scripts…)."""
    out: list[str] = []
    for m in _TOKEN_RE.finditer(body):
        token = m.group().strip()
        if not token or token in "{}" or token in _SPACING:
            continue
        if token.startswith("\\") and token[1:2].isalpha():
            name = token[1:]
            if name in _FONT_MACROS:
                continue
            char = _symbol(name)
            if char is None:
                return None
            out.append(char)
        elif token.startswith("\\"):
            out.append(token[1:])
        else:
            out.append(token)
    return "".join(out)


def _script(kind: str, source: str) -> str:
    """One script, converted when Unicode allows, else marked off by parentheses."""
    body = source[1:-1].strip() if source.startswith("{") else source
    compact = "".join(body.split())
    if kind == "^" and compact in _SUPERSCRIPT_SYMBOLS:
        return _SUPERSCRIPT_SYMBOLS[compact]
    table = _SUPERSCRIPTS if kind == "^" else _SUBSCRIPTS
    chars = _characters(body)
    if chars and all(c in table for c in chars):
        return "".join(table[c] for c in chars)
    if chars is not None and len(chars) == 1:
        return kind + chars
    if not body:
        return ""
    if body.startswith("(") and body.endswith(")"):
        return kind + body
    # Braces would be dropped by the LaTeX conversion and "x^ab" read as "x" then "ab".
    return f"{kind}({body})"


def convert_scripts(math: str) -> str:
    """Math source with each sub- and superscript as Unicode where it can be (x^2 → x²)."""
    if "^" not in math and "_" not in math:
        return math

    def sub(m: re.Match[str]) -> str:
        out = _script(m.group(1), convert_scripts(m.group(2)))
        # "\\ell" then "ₚ" would read as one macro name: pylatexenc takes any letter.
        before = _ENDS_IN_CONTROL_WORD.search(m.string[max(0, m.start() - 40) : m.start()])
        if out[:1].isalpha() and before is not None:
            # A macro of no symbol we know stays as written, with its script ("\\R^n").
            return "{}" + out if _known(before.group(1)) else m.group()
        return out

    return _SCRIPT_RE.sub(sub, math)
