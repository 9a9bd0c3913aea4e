"""Citation keys and BibTeX entries for papers in the library.

Part of the headless core: plain string work, no Textual, no I/O.

Keys are readable (``smith2024gdpval``, ``gdpval2026``), ASCII-only and unique within the
library. Entries are written for both classic BibTeX and biber: special characters are
escaped, non-ASCII text stays Unicode, title acronyms are brace-protected from case
changes, and any input, however hostile, still yields one well-formed entry.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from pylatexenc.latexencode import unicode_to_latex

from reader.models import Paper
from reader.text.render import plain_line

__all__ = ["CITEKEY", "bibtex_entry", "entry_key", "make_citekey", "usable_key"]

# Caps on the two key parts, so keys built from long words stay typeable.
_MAX_TITLE_WORD = 20
_MAX_FAMILY = 20
# make_citekey appends suffixes until `taken` says no; a `taken` that never does would
# otherwise loop forever. No real library comes near this many same-base keys.
_MAX_SUFFIX_ATTEMPTS = 1_000_000

# Words that say nothing about a paper and so make poor key words.
_STOPWORDS = frozenset(
    """
    a an the on of in for to and or at by as be into onto over under via with without
    from towards toward through beyond about between versus vs is are was were being
    when how what why which who where whether do does did can could should would may
    might will must not no we our us you your it its this that these those
    using use let make makes making there here all any some more most than
    """.split()
)

# Latin letters that NFKD does not decompose into a base letter plus combining marks.
_ASCII_EXTRA = str.maketrans(
    {
        "ß": "ss",
        "ẞ": "SS",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "ø": "o",
        "Ø": "O",
        "đ": "d",
        "Đ": "D",
        "ð": "d",
        "Ð": "D",
        "þ": "th",
        "Þ": "Th",
        "ł": "l",
        "Ł": "L",
        "ı": "i",
        "ħ": "h",
        "Ħ": "H",
    }
)

# Generational suffixes are not family names ("Martin Luther King Jr." → "king").
_NAME_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})

_NON_KEY_CHARS = re.compile(r"[^a-z0-9]+")
# Safe in BibTeX, LaTeX \cite and pandoc alike (pandoc lets a key start with a digit or "_").
CITEKEY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_\-:./+]{0,99}")
# Characters BibTeX, biber and bibtexparser all accept inside an entry key.
_UNSAFE_KEY_CHARS = re.compile(r"[^A-Za-z0-9_:.+/-]+")

# Well-known ML/NLP/CV venues, spelled out for reference managers; the acronym stays in
# parentheses so the venue is still recognisable at a glance.
_VENUE_NAMES = {
    "iclr": "International Conference on Learning Representations (ICLR)",
    "neurips": "Advances in Neural Information Processing Systems (NeurIPS)",
    "nips": "Advances in Neural Information Processing Systems (NeurIPS)",
    "icml": "International Conference on Machine Learning (ICML)",
    "aistats": "International Conference on Artificial Intelligence and Statistics (AISTATS)",
    "uai": "Conference on Uncertainty in Artificial Intelligence (UAI)",
    "colt": "Conference on Learning Theory (COLT)",
    "corl": "Conference on Robot Learning (CoRL)",
    "colm": "Conference on Language Modeling (COLM)",
    "aaai": "AAAI Conference on Artificial Intelligence (AAAI)",
    "ijcai": "International Joint Conference on Artificial Intelligence (IJCAI)",
    "acl": "Annual Meeting of the Association for Computational Linguistics (ACL)",
    "emnlp": "Conference on Empirical Methods in Natural Language Processing (EMNLP)",
    "naacl": (
        "Conference of the North American Chapter of the Association for "
        "Computational Linguistics (NAACL)"
    ),
    "eacl": (
        "Conference of the European Chapter of the Association for Computational Linguistics (EACL)"
    ),
    "coling": "International Conference on Computational Linguistics (COLING)",
    "cvpr": "IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)",
    "iccv": "IEEE/CVF International Conference on Computer Vision (ICCV)",
    "eccv": "European Conference on Computer Vision (ECCV)",
    "kdd": "ACM SIGKDD Conference on Knowledge Discovery and Data Mining (KDD)",
}
# "ICLR" or "ICLR 2026"; the year, if any, goes inside the parentheses.
_VENUE_WITH_YEAR = re.compile(r"([A-Za-z]+)(?:\s+(\d{4}))?")

# LaTeX escapes for text fields. Braces are handled separately (see _escape_braces).
_TEXT_ESCAPES = {
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
_NESTING_BRACES = {"{": r"\{", "}": r"\}"}
_LONE_BRACES = {"{": r"\textbraceleft{}", "}": r"\textbraceright{}"}

# Source entry types (BibTeX, CSL) whose venue is a journal.
_JOURNAL_KINDS = frozenset({"article", "article-journal", "journal-article"})
_ISO_DATE = re.compile(r"(\d{4})(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?)?(?!\d)")

# Math in stored text ($…$, $$…$$, \(…\), \[…\]), which every source we read writes in TeX
# and an export writes back as it is. A "$" that opens or closes on a space is no math
# delimiter ("costs $5 and $6").
_MATH = r"\$\$.+?\$\$|\$(?!\s)(?:[^$\\]|\\.)+?(?<!\s)\$|\\\(.+?\\\)|\\\[.+?\\\]"
_TEX_MATH = re.compile(_MATH, re.DOTALL)
# What an abstract read from a .bib file holds as TeX: math, and commands or control
# symbols (\backslash, \%, \').
_TEX_KEPT = re.compile(_MATH + r"|\\(?:[A-Za-z]+|[^A-Za-z\s])", re.DOTALL)
# A private-use character stands in for math while a title's words are protected.
_KEPT_MARK = "\ue000"
_TEX_MARKUP = re.compile(r"[{}\\$]")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
# A standalone "and" inside one author's name would split it into two authors.
_AND_WORD = re.compile(r"(?<!\S)(and)(?!\S)", re.IGNORECASE)


def make_citekey(
    title: str, authors: list[str], year: int | None, taken: Callable[[str], bool]
) -> str:
    """A readable, stable citation key unique in the library."""
    base = citekey_base(title, authors, year)
    if not taken(base):
        return base
    for n in range(1, _MAX_SUFFIX_ATTEMPTS + 1):
        key = base + _letter_suffix(n)
        if not taken(key):
            return key
    raise RuntimeError(f"no free citation key for base {base!r}")


def citekey_base(title: str, authors: list[str], year: int | None) -> str:
    """The key before any disambiguating suffix: ``smith2024gdpval`` or ``gdpval2026``."""
    # From the text as rendered: "\texttt{EditCast3D}" must give "editcast3d", not "texttt…".
    word = _title_word(plain_line(title))
    family = _family_name([plain_line(authors[0])] if authors else [])
    year_part = _NON_KEY_CHARS.sub("", str(year)) if year is not None else ""
    return f"{family}{year_part}{word}" if family else f"{word}{year_part}"


class CitekeyAllocator:
    """Hands out unique keys for many papers at once (an import).

    Gives the same keys as make_citekey while keys are only added, without probing every
    suffix again for each of a thousand papers whose titles start alike.
    """

    def __init__(self, taken: set[str]) -> None:
        self.taken = taken
        self._next: dict[str, int] = {}

    def allocate(self, title: str, authors: list[str], year: int | None) -> str:
        """A free key for this paper, now taken."""
        base = citekey_base(title, authors, year)
        n = self._next.get(base, 0)
        key = base + _letter_suffix(n) if n else base
        while key in self.taken:
            n += 1
            key = base + _letter_suffix(n)
        self._next[base] = n + 1
        self.taken.add(key)
        return key

    def claim(self, wanted: str) -> str:
        """``wanted`` if it is free, else the first free ``wanted`` + a, b …; now taken."""
        key, n = wanted, 0
        while key in self.taken:
            n += 1
            key = wanted + _letter_suffix(n)
        self.taken.add(key)
        return key


def usable_key(key: str | None) -> str | None:
    """A source's citation key as the library can keep it: as written when it is safe for
    BibTeX, LaTeX and pandoc, else with the unsafe characters dropped (None if nothing is left)."""
    key = (key or "").strip()
    if not key or CITEKEY.fullmatch(key):
        return key or None
    cleaned = re.sub(r"[^A-Za-z0-9_\-:./+]", "", _ascii_keep_case(key))[:100]
    cleaned = re.sub(r"^[^A-Za-z0-9_]+", "", cleaned)
    return cleaned if CITEKEY.fullmatch(cleaned) else None


def bibtex_entry(paper: Paper, *, unicode: bool = True, biblatex: bool = False) -> str:
    """A BibTeX entry for the paper, valid for bibtex/biber and parseable by bibtexparser.

    ``unicode`` keeps non-ASCII text as it is (biber, or bibtex with a UTF-8 document); without
    it every non-ASCII character becomes a LaTeX command, for classic 8-bit BibTeX.
    ``biblatex`` writes biblatex's entry types and fields (``date``, ``journaltitle``,
    ``eprinttype``) instead of classic BibTeX's. The source's entry type, every variable of
    the record and the source's own unmodelled fields are written back.
    """
    source = paper.extra.get("bibtex", {}) if isinstance(paper.extra, dict) else {}
    aliases: dict[str, str] = source.get("@fields", {}) if isinstance(source, dict) else {}
    csl_type = paper.csl.get("type") if isinstance(paper.csl.get("type"), str) else None
    venue = _fold(paper.venue or "")
    entry_type = _entry_type(paper, source, csl_type, venue, biblatex)
    journal = bool(venue) and entry_type in _JOURNAL_ENTRY_TYPES
    if biblatex and venue.lower().startswith("arxiv") and not source:
        # "arXiv preprint arXiv:…" is no venue: biblatex says it with eprint fields.
        venue = ""
    fields: list[tuple[str, str]] = []
    # What the source's crossref parent gave the entry is the parent's to say: the entry is
    # written with its own fields and the crossref, as its source wrote it.
    inherited = (
        set(source.get("@inherited", []))
        if isinstance(source, dict) and source.get("crossref") else set()
    )

    title = _fold(paper.title or "")
    subtitle = source.get("subtitle") if isinstance(source, dict) else None
    if isinstance(subtitle, str):
        title = _title_without(title, subtitle)
    if title and source and not paper.title_derived and _TEX_MARKUP.search(title):
        # A title read from a .bib file is TeX as its source wrote it (braces protecting its
        # case included), and goes back as it came. One without any TeX (read from RIS, or
        # never protected) is protected like any plain title.
        fields.append(("title", _escape_tex(title, _TEX_KEPT)))
    elif title and not (paper.title_derived and source):
        fields.append(("title", _escape_title(title)))
    others = source.get("@others", []) if isinstance(source, dict) else []
    authors = _record_names(paper, "author")
    if authors is None:
        authors = [_escape_name(n) for n in (_fold(a) for a in (paper.authors or [])) if n]
    if "author" in inherited:
        authors = []
    if authors or "author" in others:
        fields.append(("author", " and ".join(authors + (["others"] if "author" in others
                                                         else []))))
    for variable, name in (("editor", "editor"), ("translator", "translator"),
                           ("container-author", "bookauthor")):
        names = _record_names(paper, variable) or []
        if names and variable not in inherited:
            fields.append((name, " and ".join(names + (["others"] if name in others else []))))
    if venue and "container-title" not in inherited:
        default = ("journaltitle" if biblatex else "journal") if journal else "booktitle"
        name = aliases.get("container-title", default)
        if biblatex and name == "journal":
            name = "journaltitle"
        value = venue if source or csl_type else _expand_venue(venue)
        fields.append((name, _escape_text(value)))
    fields += _record_fields(paper, entry_type, aliases, biblatex, inherited)
    date = "" if "date" in source or "issued" in inherited else _iso_date(paper)
    if not (biblatex or aliases.get("issued") == "date"
            or (date.count("-") == 2 and "issued" in paper.csl)):
        date = ""  # classic BibTeX says year and month; a day needs biblatex's date
    if date:
        fields.append(("date", date))
    own_date = "issued" not in inherited
    if (paper.year is not None and not (biblatex and date) and "year" not in source
            and own_date):
        fields.append(("year", _escape_text(_fold(str(paper.year)))))
    month = _month(paper) if own_date else ""
    if month and not (biblatex and date) and "month" not in source:
        fields.append(("month", month))
    from reader.record import source_doi

    doi = _escape_doi(_fold(source_doi(paper.csl, paper.doi) or ""))
    if doi:
        fields.append(("doi", doi))
    url = _escape_url(_fold(paper.url or ""))
    if url:
        fields.append(("url", url))
    arxiv_id = _escape_doi(_fold(paper.arxiv_id or ""))
    if arxiv_id and "eprint" not in source:
        fields.append(("eprint", arxiv_id))
        fields.append(("eprinttype", "arxiv") if biblatex else ("archivePrefix", "arXiv"))
    keywords = [k for k in (_fold(k) for k in (paper.keywords or [])) if k]
    if keywords:
        name = aliases.get("keywords", "keywords")
        fields.append((name, ", ".join(_escape_text(k) for k in keywords)))
    # A blank line inside a braced value is legal BibTeX: paragraphs stay paragraphs.
    abstract = "\n\n".join(
        p for p in (_fold(p) for p in _PARAGRAPH_BREAK.split(paper.abstract or "")) if p
    )
    if abstract:
        # An abstract from a .bib file is TeX as its source wrote it; others are plain text
        # with TeX math.
        tex = _escape_tex(abstract, _TEX_KEPT if source else _TEX_MATH)
        fields.append(("abstract", tex))
    if paper.aliases:
        # biblatex's key aliases: \cite{alias} finds the entry; classic BibTeX ignores them.
        fields.append(("ids", ", ".join(paper.aliases)))
    written = {name for name, _ in fields}
    for name, value in source.items() if isinstance(source, dict) else ():
        if name.startswith("@") or name in written or not isinstance(value, str):
            continue
        # As the source wrote it (LaTeX and all): reader does not know what it means.
        fields.append((name, value if _braces_nest(value) else _escape_text(value)))

    if not unicode:
        fields = [(name, _ascii_field(name, value)) for name, value in fields]
    body = ",\n".join(
        f"  {name} = {value}" if name == "month" and value in _MONTH_MACROS
        else f"  {name} = {{{value}}}"
        for name, value in fields
    )
    head = f"@{entry_type}{{{entry_key(paper)}"
    return f"{head},\n{body}\n}}" if body else f"{head},\n}}"


# Entry types whose container is a journal (``journal`` / ``journaltitle``).
_JOURNAL_ENTRY_TYPES = frozenset({"article", "periodical", "suppperiodical"})
# Record variables and the BibTeX fields they are written to, in the order written.
_BIBTEX_FIELDS = (
    ("collection-title", "series"),
    ("volume", "volume"),
    ("issue", "number"),
    ("number", "number"),
    ("chapter-number", "chapter"),
    ("page", "pages"),
    ("edition", "edition"),
    ("publisher", "publisher"),
    ("publisher-place", "address"),
    ("event", "eventtitle"),
    ("event-place", "venue"),
    ("number-of-pages", "pagetotal"),
    ("genre", "type"),
    ("ISBN", "isbn"),
    ("ISSN", "issn"),
    ("language", "language"),
    ("note", "note"),
)
_THESIS_TYPES = frozenset({"phdthesis", "mastersthesis", "thesis"})
_REPORT_TYPES = frozenset({"techreport", "report"})
_MONTH_MACROS = "jan feb mar apr may jun jul aug sep oct nov dec".split()


def _title_without(title: str, subtitle: str) -> str:
    """The title with the source's subtitle, which the importer appended, taken off again
    (as TeX, or as plain text in a library imported before titles were kept as TeX)."""
    from reader.sources.bibtex import plain_field, tex_field

    for form in (tex_field(subtitle), plain_field(subtitle)):
        if form and title.endswith(": " + form):
            return title[: -len(form) - 2]
    return title


def _entry_type(
    paper: Paper, source: dict[str, object], csl_type: str | None, venue: str, biblatex: bool
) -> str:
    """The source's entry type, else the one for the record's CSL type, else from the venue."""
    from reader.record import bibtex_type_for

    kind = source.get("@type") if isinstance(source, dict) else None
    if isinstance(kind, str) and kind:
        return kind
    if csl_type:
        return bibtex_type_for(csl_type, biblatex=biblatex)
    if venue and (paper.kind or "").strip().lower() in _JOURNAL_KINDS:
        return "article"
    if venue and not (biblatex and venue.lower().startswith("arxiv")):
        return "inproceedings"
    if biblatex and (paper.url or paper.arxiv_id):
        return "online"
    return "misc"


def _record_names(paper: Paper, variable: str) -> list[str] | None:
    """The record's names of one variable as BibTeX names, None when it has none stored."""
    names = paper.csl.get(variable)
    if not isinstance(names, list) or not names:
        return None
    if variable == "author" and len(names) != len(paper.authors or []):
        return None  # the names were edited since: the display names are the truth
    out = []
    for name in names:
        if not isinstance(name, dict):
            continue
        literal = _fold(str(name.get("literal", "")))
        if literal:
            out.append("{" + _escape_text(literal) + "}")
            continue
        family = " ".join(
            _fold(str(name.get(p, ""))) for p in ("non-dropping-particle", "family")
            if name.get(p)
        )
        given = " ".join(
            _fold(str(name.get(p, ""))) for p in ("given", "dropping-particle") if name.get(p)
        )
        suffix = _fold(str(name.get("suffix", "")))
        family = _escape_name_part(family)
        parts = [family, _escape_name_part(suffix), _escape_name_part(given)] if suffix else [
            family, _escape_name_part(given)]
        out.append(", ".join(p for p in parts if p) if given or suffix else family)
    return [n for n in out if n]


def _escape_name_part(text: str) -> str:
    """A part of a name, escaped; braced when a comma or an "and" would split it."""
    escaped = _AND_WORD.sub(r"{\1}", _escape_text(text))
    return "{" + escaped + "}" if "," in escaped else escaped


def _record_fields(
    paper: Paper,
    entry_type: str,
    aliases: dict[str, str],
    biblatex: bool,
    inherited: set[str],
) -> list[tuple[str, str]]:
    """The record's variables as BibTeX fields (under the source's own names where known),
    but for those ``inherited`` from a crossref parent."""
    fields: list[tuple[str, str]] = []
    written: set[str] = set()
    for variable, default in _BIBTEX_FIELDS:
        value = paper.csl.get(variable)
        if value in (None, "") or isinstance(value, dict | list) or variable in inherited:
            continue
        name = aliases.get(variable, default)
        if variable == "publisher" and variable not in aliases:
            if entry_type in _THESIS_TYPES:
                name = "institution" if biblatex else "school"
            elif entry_type in _REPORT_TYPES:
                name = "institution"
        if variable == "publisher-place" and biblatex and variable not in aliases:
            name = "location"
        if name in written:
            continue
        text = _fold(str(value))
        if variable == "page":
            text = re.sub(r"\s*[-\u2013\u2014]+\s*", "--", text)
        fields.append((name, _escape_text(text)))
        written.add(name)
    accessed = paper.csl.get("accessed")
    if isinstance(accessed, dict):
        from reader.record import iso_from_parts

        iso = iso_from_parts(accessed)
        if iso:
            fields.append(("urldate", iso))
    return fields


def _month(paper: Paper) -> str:
    """The month of the record's date as a BibTeX macro (``nov``), or ""."""
    issued = paper.csl.get("issued")
    parts = issued.get("date-parts") if isinstance(issued, dict) else None
    if not (isinstance(parts, list) and parts and isinstance(parts[0], list)):
        return ""
    if len(parts[0]) < 2:
        return ""
    try:
        month = int(parts[0][1])
    except (TypeError, ValueError):
        return ""
    return _MONTH_MACROS[month - 1] if 1 <= month <= 12 else ""


def _iso_date(paper: Paper) -> str:
    """The paper's ISO date for biblatex when it agrees with its year, else just the year."""
    match = _ISO_DATE.match(_fold(paper.date or ""))
    if match and (paper.year is None or match.group(1) == f"{paper.year:04d}"):
        return match.group(0)
    return f"{paper.year:04d}" if paper.year is not None and 0 <= paper.year <= 9999 else ""


def _ascii_field(name: str, value: str) -> str:
    """A field value with non-ASCII characters as LaTeX (text) or percent-encoded (URL, DOI)."""
    if value.isascii():
        return value
    if name in ("url", "doi", "eprint"):
        # Identifiers are not LaTeX: an IRI's characters become UTF-8 percent escapes, the
        # "%" escaped for LaTeX like the others in _escape_url.
        return "".join(
            c if c.isascii() else "".join(f"\\%{b:02X}" for b in c.encode("utf-8"))
            for c in value
        )
    # Braces around each replacement ("{\\'e}"): BibTeX then treats the accented letter as one
    # character when it sorts, abbreviates or changes case.
    return unicode_to_latex(
        value,
        non_ascii_only=True,
        replacement_latex_protection="braces-all",
        unknown_char_policy=_unknown_char,
    )


def _unknown_char(char: str) -> str:
    """LaTeX for a character pylatexenc has no command for (CJK, emoji): its code point."""
    return f"{{\\symbol{{\"{ord(char):04X}}}}}"


# --- citation keys -------------------------------------------------------------------


def _ascii(text: str) -> str:
    """Text reduced to lower-case ASCII letters and digits ("Schrödinger" → "schrodinger")."""
    if text.isascii():
        return _NON_KEY_CHARS.sub("", text.lower())  # what the rest gives, without its cost
    decomposed = unicodedata.normalize("NFKD", text.translate(_ASCII_EXTRA))
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NON_KEY_CHARS.sub("", stripped.lower().encode("ascii", "ignore").decode("ascii"))


def _title_word(title: str) -> str:
    """The first significant title word, as a key fragment; "paper" if there is none."""
    first = ""
    # Lazily: only the words up to the first significant one are transliterated.
    for word in (_ascii(t) for t in title.split()):
        if not word:
            continue
        if word not in _STOPWORDS:
            return word[:_MAX_TITLE_WORD]
        first = first or word
    # A title made only of stopwords ("What if?") still beats a generic placeholder.
    return (first or "paper")[:_MAX_TITLE_WORD]


def _family_name(authors: list[str]) -> str:
    """The first author's family name as a key fragment, or "" when there is none usable."""
    if not authors:
        return ""
    name = authors[0]
    if "," in name:
        # "Family, Given" (BibTeX order): everything before the comma, particles included.
        family = name.split(",", 1)[0]
    else:
        tokens = name.split()
        while len(tokens) > 1 and _ascii(tokens[-1]) in _NAME_SUFFIXES:
            tokens.pop()
        family = tokens[-1] if tokens else ""
    # A family name in a non-Latin script folds to "": the key then takes the author-less
    # form rather than starting with a bare year.
    return _ascii(family)[:_MAX_FAMILY]


def _letter_suffix(n: int) -> str:
    """The n-th disambiguation suffix, counting from 1: a … z, aa … az, ba …"""
    letters = ""
    while n > 0:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("a") + rem) + letters
    return letters


def entry_key(paper: Paper) -> str:
    """The paper's stored key, made safe for BibTeX, or a fresh one if nothing is left."""
    key = _UNSAFE_KEY_CHARS.sub("", _ascii_keep_case(paper.citekey or ""))
    if key:
        return key
    return make_citekey(paper.title or "", paper.authors or [], paper.year, lambda _k: False)


def _ascii_keep_case(text: str) -> str:
    """Text transliterated to ASCII, keeping case and punctuation."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_ASCII_EXTRA))
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return stripped.encode("ascii", "ignore").decode("ascii")


# --- field values --------------------------------------------------------------------


def _fold(text: str) -> str:
    """Text on one line: whitespace and control characters become single spaces."""
    out: list[str] = []
    for ch in text:
        category = unicodedata.category(ch)
        if ch.isspace() or category in ("Cc", "Zl", "Zp"):
            out.append(" ")
        elif category == "Cs":
            # A lone surrogate cannot be encoded when the entry is written to a file.
            out.append("\ufffd")
        else:
            out.append(ch)
    return " ".join("".join(out).split())


def _braces_nest(text: str) -> bool:
    """Whether every brace in the text has a partner, in order."""
    depth = 0
    for ch in text:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _escape_text(text: str, braces: dict[str, str] | None = None) -> str:
    """Text with BibTeX/LaTeX special characters escaped."""
    if braces is None:
        braces = _NESTING_BRACES if _braces_nest(text) else _LONE_BRACES
    return "".join(_TEXT_ESCAPES.get(c) or braces.get(c) or c for c in text)


def _escape_tex(text: str, kept: re.Pattern[str]) -> str:
    """Text for a BibTeX field with what ``kept`` matches (TeX) written as it is.

    Around it, what plain text means literally is escaped (a lone "%", "&", "_", "$" …).
    With :data:`_TEX_KEPT`, TeX read from a .bib file is written back unchanged, so an
    import of the export reads the same text again.
    """
    if not _braces_nest(text):
        # BibTeX counts every brace, so TeX with unpaired ones cannot be written as it is.
        return _escape_text(text, _LONE_BRACES)
    tex = kept is _TEX_KEPT
    if tex and not _tex_braces_nest(text):
        tex, kept = False, _TEX_MATH
    out: list[str] = []
    last = 0
    for match in kept.finditer(text):
        if not (tex or _tex_braces_nest(match.group(0))):
            continue  # math whose braces pair with escaped ones outside it
        out.append(_escape_around_tex(text[last : match.start()], tex))
        out.append(match.group(0))
        last = match.end()
    out.append(_escape_around_tex(text[last:], tex))
    return "".join(out)


def _tex_braces_nest(text: str) -> bool:
    """Whether braces nest both counting "\\{" and "\\}" (as BibTeX does) and not (as TeX)."""
    return _braces_nest(text) and _braces_nest(re.sub(r"\\[{}]", "", text))


def _escape_around_tex(text: str, tex: bool) -> str:
    """The text between kept TeX: specials escaped; braces kept when the source is TeX."""
    if not tex:
        return _escape_text(text, _NESTING_BRACES)
    # "~" stays: in TeX source it is a tie, and the renderer reads it as one.
    return "".join(c if c == "~" else _TEXT_ESCAPES.get(c, c) for c in text)


def _escape_title(title: str) -> str:
    """An escaped title whose mixed-case words are brace-protected from case changes.

    Math is written as the title holds it, braced so that BibTeX does not recase it; the
    words around it are escaped and protected as usual.
    """
    braces = _NESTING_BRACES if _braces_nest(title) else _LONE_BRACES
    kept: list[str] = []
    if braces is _NESTING_BRACES and _KEPT_MARK not in title:

        def mark(match: re.Match[str]) -> str:
            if not _tex_braces_nest(match.group(0)):
                return match.group(0)
            kept.append("{" + match.group(0) + "}")
            return _KEPT_MARK

        title = _TEX_MATH.sub(mark, title)
    escaped = " ".join(_escape_title_word(w, braces) for w in title.split(" "))
    if not kept:
        return escaped
    pieces = iter(kept)
    return re.sub(_KEPT_MARK, lambda _m: next(pieces), escaped)


def _escape_title_word(word: str, braces: dict[str, str]) -> str:
    """One escaped title word, its core wrapped in braces if styles must not recase it."""
    alnum = [i for i, c in enumerate(word) if c.isalnum()]
    if not alnum:
        return _escape_text(word, braces)
    start, end = alnum[0], alnum[-1] + 1
    core = word[start:end]
    # Protect acronyms and mixed case (GDPval, KaLM-Embedding-V2, LLMs) and lone capitals
    # other than "A" (Vitamin D, Am I …). The protecting braces go around the core only, so
    # they open on a letter: "{\" would make BibTeX treat the group as an accent command.
    # A core holding braces of its own is left alone rather than risk unbalancing it.
    protect = (
        any(c.isupper() for c in core[1:]) or (len(core) == 1 and core.isupper() and core != "A")
    ) and not any(c in "{}" for c in core)
    escaped = _escape_text(core, braces)
    if protect:
        escaped = "{" + escaped + "}"
    return _escape_text(word[:start], braces) + escaped + _escape_text(word[end:], braces)


def _escape_name(name: str) -> str:
    """One author name, escaped so BibTeX reads it as exactly one name."""
    escaped = _AND_WORD.sub(r"{\1}", _escape_text(name))
    # BibTeX takes at most two commas ("von Last, Jr, First"); anything more is not a
    # personal name, so it is braced whole, like a corporate author.
    if escaped.count(",") > 1:
        escaped = "{" + escaped + "}"
    return escaped


def _expand_venue(venue: str) -> str:
    """A well-known venue acronym spelled out ("ICLR 2026" → "International … (ICLR 2026)")."""
    match = _VENUE_WITH_YEAR.fullmatch(venue)
    if not match or match.group(1).lower() not in _VENUE_NAMES:
        return venue
    full = _VENUE_NAMES[match.group(1).lower()]
    return full[:-1] + f" {match.group(2)})" if match.group(2) else full


def _escape_url(url: str) -> str:
    """A URL written verbatim except for what would break the braces or LaTeX."""
    # Percent-encoding keeps the URL meaning the same; the "%" itself then needs "\%"
    # because LaTeX reads it as a comment when BibTeX copies the URL into the .bbl file.
    url = url.replace(" ", "%20").replace("{", "%7B").replace("}", "%7D").replace("\\", "%5C")
    return url.replace("%", r"\%")


def _escape_doi(doi: str) -> str:
    """A DOI written verbatim, minus characters that cannot appear in a braced value."""
    return "".join(c for c in doi if c not in "{}\\ ").replace("%", r"\%")
