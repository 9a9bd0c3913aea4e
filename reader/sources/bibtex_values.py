"""BibTeX field values as text: TeX kept or made plain, abstracts, keywords, URLs and
identifiers, years and months (names are in reader.sources.bibtex_names)."""

from __future__ import annotations

import re

from reader.sources.dates import MONTHS
from reader.text.identifiers import normalize_arxiv_id
from reader.text.render import to_plain
from reader.text.sanitize import clean_imported
from reader.text.tex_plain import as_read

_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_ISO_DATE = re.compile(r"^\s*(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")
# ``{\noopsort{1973b}}1973``: a sort key hidden from the output, not the year.
_NOOPSORT = re.compile(r"\\noopsort\s*\{[^{}]*\}")
_KEYWORD_SEP = re.compile(r"[,;]")
# A ``~`` not preceded by a backslash is a tie (non-breaking space); ``\~n`` is an accent.
TIE = re.compile(r"(?<!\\)~")
_URL_MACRO = re.compile(r"^\\url\s*\{(.*)\}$", re.DOTALL)
# Mendeley writes ``10.1007/978-3-662-46803-6{\_}26``; identifiers are not LaTeX.
_ESCAPED = re.compile(r"\\([_%&#$~])")
_GROUP_BRACE = re.compile(r"(?<!\\)[{}]")
_SPACES = re.compile(r"\s+")
_BLANK_LINE = re.compile(r"\n[ \t]*\n\s*")
# What the brace and quote scanners stop at: an escape (with the character it escapes),
# a brace, a quote.
_BRACE_MARK = re.compile(r"\\.|[{}]", re.DOTALL)
_QUOTE_MARK = re.compile(r'\\.|[{}"]', re.DOTALL)
# Nesting deeper than this is not formatting but damage; pylatexenc would give up on it.
_MAX_BRACE_DEPTH = 40
# Better BibTeX writes the TeX a Zotero user typed as text, every special character escaped:
# ``$\sqrt{s}$`` as ``\$\textbackslash sqrt\{s\}\$``. A pair of escaped dollars around
# such escapes (or around TeX that works only as maths: scripts, commands) is that maths,
# whose text is the user's; money (``\$5 to \$10``) is spaced inside its dollars.
_ESCAPED_MATH = re.compile(r"\\\$(?!\s)((?:[^$\\]|\\(?!\$).)+?)(?<!\s)\\\$", re.DOTALL)
_MATH_MARK = re.compile(
    r"\\textbackslash|\\textasciicircum|[\^_]|\\(?!text)[A-Za-z]{2,}"
)
_TYPED = re.compile(
    r"\\textbackslash(?:\{\}|\s*)|\\textasciicircum(?:\{\}|\s*)"
    r"|\\textasciitilde(?:\{\}|\s*)|\\([{}_&%#])"
)
_TYPED_AS = {"\\textbackslash": "\\", "\\textasciicircum": "^", "\\textasciitilde": "~"}

_MONTHS = {
    "jan": "January",
    "feb": "February",
    "mar": "March",
    "apr": "April",
    "may": "May",
    "jun": "June",
    "jul": "July",
    "aug": "August",
    "sep": "September",
    "oct": "October",
    "nov": "November",
    "dec": "December",
}
_MONTH_NUMBERS = MONTHS


def closing_brace(text: str, start: int) -> int:
    """Index of the brace closing the one at ``start``, or ``len(text)`` if it is never closed."""
    depth = 0
    # An escaped brace does not count.
    for match in _BRACE_MARK.finditer(text, start):
        mark = match.group()
        if mark == "{":
            depth += 1
        elif mark == "}":
            depth -= 1
            if depth == 0:
                return match.start()
    return len(text)


def closing_quote(text: str, start: int) -> int:
    """Index of the quote closing the one at ``start`` (quotes inside braces do not count)."""
    depth = 0
    for match in _QUOTE_MARK.finditer(text, start + 1):
        mark = match.group()
        if mark == "{":
            depth += 1
        elif mark == "}":
            depth = max(depth - 1, 0)
        elif mark == '"' and depth == 0:
            return match.start()
    return len(text)


def plain(value: str) -> str:
    """A LaTeX field value (title, name, venue) as plain single-spaced Unicode."""
    if not value:
        return ""
    value = clean_imported(value)
    value = TIE.sub(" ", value)
    if _too_deep(value):
        # pylatexenc gives up on nesting this deep and the braces would be shown as written.
        value = re.sub(r"(?<!\\)[{}]", "", value)
    return _SPACES.sub(" ", to_plain(value, groups=True)).strip()


def plain_field(value: str) -> str:
    """A LaTeX field value as the importer stores names and venues (plain, single-spaced
    Unicode)."""
    return plain(value)


def _tex_line(value: str) -> str:
    """A field's TeX on one line, as the importer stores titles; "" when it says nothing."""
    if not value:
        return ""
    value = clean_imported(value)
    if _too_deep(value):
        return plain(value)  # not formatting but damage: no renderer would read it
    value = typed_math(_SPACES.sub(" ", value).strip())
    return value if value.strip("{} ") else ""


def tex_field(value: str) -> str:
    """A LaTeX field value as the importer stores titles (its TeX, single-spaced)."""
    return _tex_line(value)


def _too_deep(value: str) -> bool:
    """Whether braces in ``value`` nest deeper than formatting ever does."""
    if value.count("{") <= _MAX_BRACE_DEPTH:
        return False  # too few to nest that deep: most values are not looked at further
    depth = 0
    for char in value:
        if char == "{":
            depth += 1
            if depth > _MAX_BRACE_DEPTH:
                return True
        elif char == "}":
            depth = max(depth - 1, 0)
    return False


def typed_math(value: str) -> str:
    """The maths a field's escaped dollars hold as its author typed it (``$\\sqrt{s}$``),
    when an exporter escaped it as text; other text as it is."""
    if "\\$" not in value:
        return value
    return _ESCAPED_MATH.sub(_math_as_typed, value)


def _math_as_typed(match: re.Match[str]) -> str:
    inside = match.group(1)
    if not _MATH_MARK.search(inside) or not _nests(inside):
        # Not maths, or dollars that each sit in a group of their own (Mendeley's
        # ``{\$}\backslashtilde{\{}…{\$}``), whose text is not to be guessed.
        return match.group()
    return "$" + _TYPED.sub(_typed_character, inside) + "$"


def _nests(text: str) -> bool:
    """Whether the unescaped braces of ``text`` each have a partner, in order."""
    depth = 0
    for brace in _GROUP_BRACE.findall(text):
        depth += 1 if brace == "{" else -1
        if depth < 0:
            return False
    return depth == 0


def _typed_character(match: re.Match[str]) -> str:
    if match.group(1):
        return match.group(1)
    return _TYPED_AS[match.group().rstrip("{} \t\n")]


def _abstract(value: str) -> str:
    """The abstract as written, with hard line wraps joined and paragraph breaks kept."""
    value = typed_math(clean_imported(value).strip())
    paragraphs = (_SPACES.sub(" ", p).strip() for p in _BLANK_LINE.split(value))
    return "\n\n".join(p for p in paragraphs if p)


def abstract_field(value: str, *, tex: bool = False) -> str:
    """A BibTeX abstract as the importer stores it (its TeX, paragraphs kept; plain text
    escaped as the plain text, unless ``tex``: see :func:`as_read`)."""
    return as_read(_abstract(value), tex=tex)


def _keywords(value: str) -> list[str]:
    """Keywords split on commas and semicolons, plain text, without repeats."""
    keywords: list[str] = []
    for part in _KEYWORD_SEP.split(value):
        word = plain(part)
        if word and word not in keywords:
            keywords.append(word)
    return keywords


def _keys(value: str) -> list[str]:
    """The citation keys of a biblatex ``ids`` field (other keys the entry answers to)."""
    return [key for key in (_identifier(k) for k in value.split(",")) if key]


def url_of(fields: dict[str, str]) -> str | None:
    """The entry's URL: ``url``, or a ``\\url{…}`` in ``howpublished``."""
    for name in ("url", "howpublished"):
        value = clean_imported(fields.get(name, "")).strip()
        macro = _URL_MACRO.match(value)
        if macro:
            value = macro.group(1).strip()
        elif name == "howpublished":
            continue
        urls = _identifier(value).split()
        if urls:
            # Some tools put several URLs in the field (Mendeley: the arXiv page, then the
            # proceedings'): the first is the paper's, but for an arXiv page before another,
            # which the arXiv id links to anyway.
            return next((u for u in urls if "arxiv.org/" not in u.lower()), urls[0])
    return None


def arxiv_id_of(fields: dict[str, str]) -> str | None:
    """The arXiv id from ``eprint`` with ``archivePrefix``/``eprinttype`` arXiv, or elsewhere."""
    prefix = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip().lower()
    candidates = []
    if prefix == "arxiv":
        candidates.append(fields.get("eprint", ""))
    candidates.append(fields.get("arxivid", ""))
    url = fields.get("url", "")
    if "arxiv.org/" in url:
        candidates.append(url)
    journal = fields.get("journal", "")
    # Google Scholar's "arXiv preprint arXiv:2303.08774".
    if journal.lower().startswith("arxiv"):
        candidates.append(journal)
    for candidate in candidates:
        arxiv_id = normalize_arxiv_id(_identifier(candidate))
        if arxiv_id:
            return arxiv_id
    return None


def _identifier(value: str) -> str:
    """A DOI, URL or eprint with LaTeX escapes and grouping braces removed."""
    value = _ESCAPED.sub(r"\1", clean_imported(value))
    return _GROUP_BRACE.sub("", value).strip()


def _year_and_date(fields: dict[str, str]) -> tuple[int | None, str | None]:
    """Year (``year`` or BibLaTeX ``date``) and an ISO date as precise as the entry allows."""
    date_field = clean_imported(fields.get("date", ""))
    iso = _ISO_DATE.match(date_field)
    year_text = _NOOPSORT.sub("", fields.get("year", ""))
    year_match = _YEAR.search(year_text)
    year = int(year_match.group(1)) if year_match else None
    if iso:
        if year is None:
            year = int(iso.group(1))
        return year, iso.group(0).strip()
    if year is None:
        match = _YEAR.search(date_field)
        return (int(match.group(1)), match.group(1)) if match else (None, None)
    month = _month_number(fields.get("month", ""))
    return year, f"{year:04d}-{month:02d}" if month else f"{year:04d}"


def _month_number(value: str) -> int | None:
    """1–12 for ``jan``, ``January``, ``{7}`` …; None for ``10~jan`` ranges and the unknown."""
    text = value.strip().strip("{}").strip().lower()
    if text.isdigit():
        number = int(text)
        return number if 1 <= number <= 12 else None
    if text[:3] in _MONTH_NUMBERS and text.isalpha():
        return _MONTH_NUMBERS[text[:3]]
    return None
