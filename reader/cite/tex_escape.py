"""Field values written as BibTeX: special characters escaped, TeX the source wrote kept as
TeX, title words brace-protected from case changes, braces balanced whatever the input."""

from __future__ import annotations

import re

from pylatexenc.latexencode import unicode_to_latex

from reader.text.names import is_group_name
from reader.text.tex_plain import MATH, TEX_MATH

# LaTeX escapes for text fields. Braces are handled separately (see _escape_braces).
TEXT_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "_": r"\_",
    "#": r"\#",
    "$": r"\$",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}
# BibTeX counts every brace, escaped or not, when it looks for the end of a value, so a
# stray "\}" would end the field early. "\{" and "\}" are only safe when the braces nest;
# otherwise the brace-free text commands are used instead.
NESTING_BRACES = {"{": r"\{", "}": r"\}"}
LONE_BRACES = {"{": r"\textbraceleft{}", "}": r"\textbraceright{}"}

# What an abstract read from a .bib file holds as TeX: math, and commands or control
# symbols (\backslash, \%, \', and the control space of "e.g.\ this", which escaped went
# out as \textbackslash{} and came back so).
TEX_KEPT = re.compile(MATH + r"|\\(?:[A-Za-z]+|[^A-Za-z\n])", re.DOTALL)
# A private-use character stands in for math while a title's words are protected.
KEPT_MARK = "\ue000"

# What escape_text replaces; in TeX from a .bib file, braces and ties stay.
_SPECIAL = re.compile(r"[\\&%_#$~^{}]")
_SPECIAL_IN_TEX = re.compile(r"[\\&%_#$^]")
_BRACE = re.compile(r"[{}]")
# Control characters and line or paragraph separators (Unicode categories Cc, Zl, Zp).
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")

# A standalone "and" inside one author's name would split it into two authors.
_AND_WORD = re.compile(r"(?<!\S)(and)(?!\S)", re.IGNORECASE)


def escape_name_part(text: str) -> str:
    """A part of a name, escaped; braced when a comma or an "and" would split it."""
    escaped = _AND_WORD.sub(r"{\1}", escape_text(text))
    return "{" + escaped + "}" if "," in escaped else escaped


def ascii_field(name: str, value: str) -> str:
    """A field value with non-ASCII characters as LaTeX (text) or percent-encoded (URL, DOI)."""
    if value.isascii():
        return value
    if name in ("url", "doi", "eprint"):
        # Identifiers are not LaTeX: an IRI's characters become UTF-8 percent escapes, the
        # "%" escaped for LaTeX like the others in escape_url.
        return "".join(
            c if c.isascii() else "".join(f"\\%{b:02X}" for b in c.encode("utf-8"))
            for c in value
        )
    # Braces around each replacement ("{\\'e}"): BibTeX then treats the accented letter as one
    # character when it sorts, abbreviates or changes case.
    escaped: str = unicode_to_latex(
        value,
        non_ascii_only=True,
        replacement_latex_protection="braces-all",
        unknown_char_policy=unknown_char,
    )
    return escaped


def unknown_char(char: str) -> str:
    """LaTeX for a character pylatexenc has no command for (CJK, emoji): its code point."""
    return f"{{\\symbol{{\"{ord(char):04X}}}}}"


def fold(text: str) -> str:
    """Text on one line: whitespace and control characters become single spaces."""
    text = _CONTROL.sub(" ", text)
    if _SURROGATE.search(text):
        # A lone surrogate cannot be encoded when the entry is written to a file.
        text = _SURROGATE.sub("\ufffd", text)
    return " ".join(text.split())


def braces_nest(text: str) -> bool:
    """Whether every brace in the text has a partner, in order."""
    depth = 0
    for brace in _BRACE.findall(text):
        if brace == "{":
            depth += 1
        else:
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def escape_text(text: str, braces: dict[str, str] | None = None) -> str:
    """Text with BibTeX/LaTeX special characters escaped."""
    if braces is None:
        braces = NESTING_BRACES if braces_nest(text) else LONE_BRACES
    return _SPECIAL.sub(lambda m: TEXT_ESCAPES.get(m.group()) or braces[m.group()], text)


_LIGATURE = re.compile(r"(?<=-)(?=-)|(?<=`)(?=`)|(?<=')(?=')")


def unligatured(escaped: str) -> str:
    """Escaped plain text with TeX's ligatures broken (``--`` as ``-{}-``): a keyword's
    "Social sciences -- Data processing" is two hyphens, which TeX would read as a dash."""
    return _LIGATURE.sub("{}", escaped)


def escape_tex(text: str, kept: re.Pattern[str]) -> str:
    """Text for a BibTeX field with what ``kept`` matches (TeX) written as it is.

    Around it, what plain text means literally is escaped (a lone "%", "&", "_", "$" …).
    With :data:`TEX_KEPT`, TeX read from a .bib file is written back unchanged, so an
    import of the export reads the same text again.
    """
    if not braces_nest(text):
        # BibTeX counts every brace, so TeX with unpaired ones cannot be written as it is.
        return escape_text(text, LONE_BRACES)
    tex = kept is TEX_KEPT
    if tex and not tex_braces_nest(text):
        tex, kept = False, TEX_MATH
    out: list[str] = []
    last = 0
    for match in kept.finditer(text):
        if not (tex or tex_braces_nest(match.group(0))):
            continue  # math whose braces pair with escaped ones outside it
        out.append(escape_around_tex(text[last : match.start()], tex))
        out.append(match.group(0))
        last = match.end()
    out.append(escape_around_tex(text[last:], tex))
    return "".join(out)


def tex_braces_nest(text: str) -> bool:
    """Whether braces nest both counting "\\{" and "\\}" (as BibTeX does) and not (as TeX)."""
    return braces_nest(text) and braces_nest(re.sub(r"\\[{}]", "", text))


def escape_around_tex(text: str, tex: bool) -> str:
    """The text between kept TeX: specials escaped; braces kept when the source is TeX."""
    if not tex:
        return escape_text(text, NESTING_BRACES)
    # "~" stays: in TeX source it is a tie, and the renderer reads it as one.
    return _SPECIAL_IN_TEX.sub(lambda m: TEXT_ESCAPES[m.group()], text)


def escape_title(title: str) -> str:
    """An escaped title whose mixed-case words are brace-protected from case changes.

    Math is written as the title holds it, braced so that BibTeX does not recase it; the
    words around it are escaped and protected as usual.
    """
    braces = NESTING_BRACES if braces_nest(title) else LONE_BRACES
    kept: list[str] = []
    if braces is NESTING_BRACES and KEPT_MARK not in title:

        def mark(match: re.Match[str]) -> str:
            if not tex_braces_nest(match.group(0)):
                return match.group(0)
            kept.append("{" + match.group(0) + "}")
            return KEPT_MARK

        title = TEX_MATH.sub(mark, title)
    escaped = " ".join(escape_title_word(w, braces) for w in title.split(" "))
    if not kept:
        return escaped
    pieces = iter(kept)
    return re.sub(KEPT_MARK, lambda _m: next(pieces), escaped)


def escape_title_word(word: str, braces: dict[str, str]) -> str:
    """One escaped title word, its core wrapped in braces if styles must not recase it."""
    alnum = [i for i, c in enumerate(word) if c.isalnum()]
    if not alnum:
        return escape_text(word, braces)
    start, end = alnum[0], alnum[-1] + 1
    core = word[start:end]
    # Protect acronyms and mixed case (GDPval, KaLM-Embedding-V2, LLMs) and lone capitals
    # other than "A" (Vitamin D, Am I …). The protecting braces go around the core only, so
    # they open on a letter: "{\" would make BibTeX treat the group as an accent command.
    # A core holding braces of its own is left alone rather than risk unbalancing it.
    protect = (
        any(c.isupper() for c in core[1:]) or (len(core) == 1 and core.isupper() and core != "A")
    ) and not any(c in "{}" for c in core)
    escaped = escape_text(core, braces)
    if protect:
        escaped = "{" + escaped + "}"
    return escape_text(word[:start], braces) + escaped + escape_text(word[end:], braces)


def escape_name(name: str) -> str:
    """One author name, escaped so BibTeX reads it as exactly one name."""
    escaped = _AND_WORD.sub(r"{\1}", escape_text(name))
    # BibTeX takes at most two commas ("von Last, Jr, First"); anything more is not a
    # personal name, so it is braced whole, like a corporate author. A group's name ("The
    # BABAR Collaboration") is braced too: unbraced, BibTeX reads a given name "The BABAR"
    # and a family name "Collaboration".
    if escaped.count(",") > 1 or is_group_name(name):
        escaped = "{" + escaped + "}"
    return escaped


def escape_url(url: str) -> str:
    """A URL written verbatim except for what would break the braces or LaTeX."""
    # Percent-encoding keeps the URL meaning the same; the "%" itself then needs "\%"
    # because LaTeX reads it as a comment when BibTeX copies the URL into the .bbl file.
    url = url.replace(" ", "%20").replace("{", "%7B").replace("}", "%7D").replace("\\", "%5C")
    return url.replace("%", r"\%")


def escape_doi(doi: str) -> str:
    """A DOI written verbatim, minus characters that cannot appear in a braced value."""
    return "".join(c for c in doi if c not in "{}\\ ").replace("%", r"\%")
