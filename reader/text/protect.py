"""Step 1 of rendering: what must not reach pylatexenc as it is (math, money dollars,
``%``, ``&``, ``~``, Markdown code spans, ``\\url`` targets) parked as placeholders; the
steps are described in :mod:`reader.text.render`."""

from __future__ import annotations

import re

from reader.text.markers import CLOSE, LIT_BASE, OPEN, RAW_BASE, placeholder
from reader.text.pattern import Pattern
from reader.text.texscripts import convert_scripts

# --- step 1: protect --------------------------------------------------------

_SCAN_RE = re.compile(r"[\\`$%&~]")
_CONTROL_WORD_RE = Pattern(r"[A-Za-z@]+")
# A dollar amount right after "$": "$5 and", "$10 fee", "$5,000.", "$5-$10".
_MONEY_START_RE = Pattern(
    r"\d[\d,]*(?:\.\d+)?(?:[kKmMbB]|bn|USD)?(?=$|\s|[,;:!?)/\u2013\u2014-]|\.(?!\d))"
)
# Math content that is only an amount with thousands ("$1,000$"). ("$2.53$" is math: an
# FID, a loss, an accuracy, far more often than a price with a stray dollar after it.)
_MONEY_ONLY_RE = Pattern(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_MATH_ENV_RE = Pattern(
    r"\{((?:equation|align|alignat|gather|multline|flalign|eqnarray|displaymath|math)\*?)\}"
)
# Characters that "\X" turns into themselves; done here so emphasis never sees them.
_ESCAPED_LITERALS = set("$%&#_{}*")
# Symbol macros found run together with a capitalised word in real titles.
_GLUED_RE = Pattern(r"(slash)[A-Z]")

# Delimiter sizes (\left( … \right), \bigl[): the delimiter is shown, the size is not,
# and "\right." is no delimiter at all.  Openers keep no space after them, closers none
# before them: "\left( 0001 \right)" reads "(0001)".
_DELIMITER = r"(\.|\\[{}|]|\\[A-Za-z]+|[^\s\\])"
_OPENER_RE = Pattern(r"\\(?:left|[bB]igg?l)(?![A-Za-z])\s*" + _DELIMITER + r"\s*")
_CLOSER_RE = Pattern(r"\s*\\(?:right|[bB]igg?r)(?![A-Za-z])\s*" + _DELIMITER)
_SIZED_RE = Pattern(r"\\(?:middle|[bB]igg?m?)(?![A-Za-z])\s*" + _DELIMITER)
_DELIMITER_NAMES = {".": "", "\\langle": "⟨", "\\rangle": "⟩", "\\lvert": "|", "\\rvert": "|"}


def unsize(text: str) -> str:
    r"""Drop delimiter sizes: ``\left( x \right)`` → ``(x)``."""
    if "\\" not in text:
        return text

    def delimiter(m: re.Match[str]) -> str:
        return _DELIMITER_NAMES.get(m.group(1), m.group(1))

    for pattern in (_OPENER_RE, _CLOSER_RE, _SIZED_RE):
        text = pattern.sub(delimiter, text)
    return text


# A negative thin space between spaced-out symbols: "n / \\! \\log n".
_NEGATIVE_SPACE_RE = Pattern(r"(\s*)\\!(\s*)")


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
_SURELY_MATH_RE = Pattern(r"[\\^_{]")


def _surely_math(content: str) -> bool:
    """True for ``$…$`` content that cannot be an amount: a macro, a script, a brace, or
    no digit at all."""
    return bool(_SURELY_MATH_RE.search(content)) or not any(c.isdigit() for c in content)


def _inline_math_end(p: str, j: int) -> int:
    """End (exclusive) of ``$…$`` math opening at *j*, or -1 if this ``$`` is not math.

    The rules follow Pandoc's: the opening ``$`` is followed by a non-space, the
    closing one preceded by a non-space and not followed by a digit (unless what it
    closes holds a macro, a script or a brace, which no amount of money does).  On top of
    that an opening ``$`` that starts an amount (``$5 and``) is math only when what it
    closes holds one of those (``$1-\\delta$``), and
    each ``$`` pairs only with the next one, so in ``costs $5 and $10`` neither is.
    """
    n = len(p)
    if j + 1 >= n or p[j + 1].isspace():
        return -1
    k = _find_unescaped(p, "$", j + 1)
    if _MONEY_START_RE.match(p, j + 1) and (k < 0 or not _surely_math(p[j + 1 : k])):
        return -1  # (an amount, unless what it closes holds a macro: "$25 \times$")
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


def protect(p: str, lits: list[str], raws: list[str]) -> str:
    """Step 1: park math as raw placeholders and literal-only text as literal ones."""

    def lit(value: str) -> str:
        return placeholder(lits, value, LIT_BASE)

    def raw(value: str) -> str:
        return placeholder(raws, value, RAW_BASE)

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
                out.append(OPEN["code"] + lit(p[j + 1 : end - 1]) + CLOSE["code"])
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


