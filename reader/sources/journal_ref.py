"""arXiv's journal references: free text an author types ("Phys.Rev.D76:013009,2007",
"Nature 450, 123-126 (2007)", "Proceedings of ICML 2019"), read as the CSL variables they
name where the text has the common shape of a journal, a volume, pages and a year; kept
whole as the container's title where it has not. And a withdrawal, which arXiv says only in
words: the comment an author gives it, or the abstract arXiv's administrators replace.

Both arXiv formats (the API's Atom feed and the Kaggle snapshot) read them here.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["journal_reference", "published_year", "withdrawn"]

# A journal's name (ending in a letter, a dot or a bracket), its volume (digits, perhaps a
# letter: "76", "0709", "12A"), its first page or article number ("013009", "L12",
# "1146-1165"), then the year: "Phys.Rev.D76:013009,2007", "Phys. Rev. D 76, 013009 (2007)",
# "JHEP 0709:058,2007", "Astrophys.J.668:1146-1165,2007", "Nature 450, 123-126 (2007)",
# "Journal of Applied Physics, vol 104, 073536 (2008)".
_JOURNAL_VOLUME_PAGES = re.compile(
    r"""^(?P<name>.*?[A-Za-z.)\]])\s*,?\s*(?:[Vv]ol\.?\s*)?
        (?P<volume>\d{1,4}[A-Z]?)\s*[:,]\s*(?:pp?\.\s*)?
        (?P<page>[A-Za-z]{0,2}\d+(?:\s*[-–]+\s*[A-Za-z]{0,2}\d+)?)\s*
        (?:,\s*|\(\s*)(?P<year>(?:18|19|20)\d\d)\)?\.?$""",
    re.VERBOSE,
)

# "Advances in Neural Information Processing Systems 30 (2017) 5998-6008", "Illinois J. Math.
# 52 (2008) no.2, 681-689": a name, its volume, the year in brackets, then the pages; a
# volume's letter is its journal's section ("Phys.Lett. B716 (2012) 1-29": "Phys.Lett. B",
# volume 716), as in "Phys.Rev.D76:013009,2007".
_VOLUME_YEAR_PAGES = re.compile(
    r"""^(?P<name>.*?[A-Za-z.)\]])\s*(?P<volume>\d{1,4}[A-Z]?)\s*
        \(\s*(?P<year>(?:18|19|20)\d\d)\s*\),?\s*(?:no\.\s*(?P<issue>\d+),?\s*)?(?:pp?\.\s*)?
        (?P<page>[A-Za-z]{0,2}\d+(?:\s*[-–]+\s*[A-Za-z]{0,2}\d+)?)\.?$""",
    re.VERBOSE,
)


# "J. Low. Temp. Phys. Vol. 140 pp77-89 (2005)": a volume named so, the pages after "pp",
# the year in brackets.
_NAMED_VOLUME_PAGES = re.compile(
    r"""^(?P<name>.*?[A-Za-z.)\]])\s*,?\s*[Vv]ol\.?\s*(?P<volume>\d{1,4}[A-Z]?)\s*,?\s*
        pp?\.?\s*(?P<page>\d+(?:\s*[-–]+\s*\d+)?)\s*\(\s*(?P<year>(?:18|19|20)\d\d)\s*\)\.?$""",
    re.VERBOSE,
)
# "Statistical Science 2008, Vol. 23, No. 1, 65-68" (how the IMS journals' papers on arXiv
# say theirs): the year after the name, then the volume and issue named so, then the pages.
_YEAR_NAMED_VOLUME = re.compile(
    r"""^(?P<name>.*?[A-Za-z.)\]])\s*,?\s*(?P<year>(?:18|19|20)\d\d)\s*,\s*
        [Vv]ol\.?\s*(?P<volume>\d{1,4}[A-Z]?)\s*,\s*(?:[Nn]o\.?\s*(?P<issue>\d+)\s*,\s*)?
        (?:pp?\.\s*)?(?P<page>[A-Za-z]{0,2}\d+(?:\s*[-–]+\s*[A-Za-z]{0,2}\d+)?)\.?$""",
    re.VERBOSE,
)
# "Science & Education, September 2014, 23(9): 1853-1873": the (month and) year after the
# name, then volume(issue): pages.
_YEAR_VOLUME_ISSUE = re.compile(
    r"""^(?P<name>.*?[A-Za-z.)\]])\s*,\s*(?:[A-Z][a-z]{2,8}\.?\s+)?(?P<year>(?:18|19|20)\d\d)
        \s*,\s*(?P<volume>\d{1,4}[A-Z]?)\s*\(\s*(?P<issue>\d+)\s*\)\s*[:,]\s*(?:pp?\.\s*)?
        (?P<page>[A-Za-z]{0,2}\d+(?:\s*[-–]+\s*[A-Za-z]{0,2}\d+)?)\.?$""",
    re.VERBOSE,
)
# A name that ends in the word for a number ("RIMS Kokyuroku, No.1551, …"): the number
# after it is the issue, not a volume.
_NUMBER_WORD = re.compile(r",?\s*No\.?$")
# Free text is kept whole as the container's title only when it reads as a name: a whole
# citation ("L. H. Friedman. Order of … Journal of Nanophotonics, 1(1):013513, 2007.") is
# no venue, and is kept as written beside.
_MOST_NAME_WORDS = 10


def journal_reference(text: str, doi: str | None = None) -> dict[str, Any]:
    """The CSL variables a journal reference names: ``container-title``, with ``volume``,
    ``page`` (``issue``), the year it was published (``issued``, see
    :func:`published_year`) and the type of a journal article when the text has the shape
    of a citation; {} for none. The sources keep the text as written beside.

    Of several references ("Adv.Theor.Math.Phys.2:231-252,1998; Int.J.Theor.Phys.38:
    1113-1133,1999": the paper and its reprint), the one the paper's ``doi`` names is cited
    (its volume and first page are in it, as most publishers write them), else the first;
    when the DOI is another's that cannot be told, every reference is named, so that the
    DOI is not given to the first."""
    text = " ".join(text.split())
    if not text:
        return {}
    matches = [_citation(part.strip()) for part in text.split("; ")]
    owned = [m for m in matches if m is not None and _names_doi(m, doi)]
    match = owned[0] if owned else matches[0]
    if match is None:
        return {"container-title": text} if len(text.split()) <= _MOST_NAME_WORDS else {}
    page = re.sub(r"\s*[-–]+\s*", "–", match.group("page"))
    name = match.group("name").strip()
    found = {
        # Published in a journal (or a proceedings' volume): cited as such, not as a preprint.
        "type": "article-journal",
        "container-title": name,
        "volume": match.group("volume"),
        "page": page,
    }
    if _NUMBER_WORD.search(name):
        found["container-title"] = _NUMBER_WORD.sub("", name).strip()
        found["issue"] = found.pop("volume")
    if match.groupdict().get("issue"):
        found["issue"] = match.group("issue")
    # The year it was published there, which a citation of the journal article gives.
    found["issued"] = {"date-parts": [[int(match.group("year"))]]}
    if doi and len(matches) > 1 and not owned:
        found["container-title"] = text  # (its volume and pages: the first reference's)
        for variable in ("volume", "issue", "page"):
            found.pop(variable, None)
    return found


def _citation(text: str) -> re.Match[str] | None:
    """A reference with the shape of a journal citation: a name, a volume, pages, a year."""
    return (_JOURNAL_VOLUME_PAGES.match(text) or _VOLUME_YEAR_PAGES.match(text)
            or _NAMED_VOLUME_PAGES.match(text) or _YEAR_NAMED_VOLUME.match(text)
            or _YEAR_VOLUME_ISSUE.match(text))


def _names_doi(match: re.Match[str], doi: str | None) -> bool:
    """Whether ``doi`` holds the reference's volume and first page ("Phys.Rev.D76:013009"
    in 10.1103/PhysRevD.76.013009), each as a number of its own."""
    first_page = re.split(r"\s*[-–]", match.group("page"))[0]
    numbers = re.findall(r"[A-Za-z]?\d+", doi or "")
    return bool(doi) and all(
        any(n.lstrip("0") == value.lstrip("0") or n == value for n in numbers)
        for value in (match.group("volume"), first_page))


def published_year(csl: dict[str, Any]) -> int | None:
    """The year of the journal a reference names (taken out of ``csl``): the paper's year,
    cited as the journal article it is; its arXiv date stays its own date."""
    issued = csl.pop("issued", None)
    return int(issued["date-parts"][0][0]) if isinstance(issued, dict) else None


# "This paper has been withdrawn by the author due to …", "This submission has been
# withdrawn by arXiv administrators", "Paper withdrawn", or a text that is only "Withdrawn."
# (not "Withdrawn patients show …").
_WITHDRAWN = re.compile(
    r"^\W*(?:(?:this|the)\s+(?:paper|article|submission|manuscript|preprint|version)\s+"
    r"(?:has\s+been|is|was)\s+withdrawn\b|(?:(?:paper|article|submission)\s+)?withdrawn\W*$)",
    re.IGNORECASE,
)


def withdrawn(comment: str | None, abstract: str | None) -> bool:
    """Whether the paper was withdrawn from arXiv, as its comment or its abstract says at
    its start (a comment that mentions a withdrawal further on is not one)."""
    return any(text and _WITHDRAWN.match(text) for text in (comment, abstract))
