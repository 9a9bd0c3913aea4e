"""Paper identifiers (DOI, arXiv id, OpenReview id) in one canonical spelling each, so
that the same paper from two sources is recognised as one; and what a citation key may
be made of."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from reader.text.pattern import Pattern

_DOI = Pattern(r"(10\.\d{4,9}/\S+)", re.IGNORECASE)
# shortDOI's ``10/abcde``, alone or behind a resolver: anywhere else "10/" is a path.
_SHORT_DOI = Pattern(
    r"(?:(?:https?://)?(?:dx\.)?doi\.org/|doi:\s*)?(10/[a-z0-9]+)$", re.IGNORECASE
)
_ARXIV_NEW = Pattern(r"(?<![\w.])(\d{4}\.\d{4,5})(v\d+)?(?![\w.])")
_ARXIV_OLD = Pattern(r"(?<![\w.])([a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?(?![\w.])", re.IGNORECASE)
# A venue that names the archive, not a journal: "arXiv", "arXiv preprint", "arXiv e-prints",
# "arXiv preprint arXiv:1706.03762" (the form Google Scholar and Mendeley write).
_ARXIV_VENUE = Pattern(r"(?i)arxiv(?:\s+(?:preprint|e-?prints?))?(?:\s+arxiv:\S+)?")
_OPENREVIEW = Pattern(r"openreview\.net/(?:forum|pdf)\?(?:[^#\s]*&)?id=([\w\-]+)")
_OPENREVIEW_ID = Pattern(r"^[\w\-]{6,20}$")
# A cell or value that is one link to a paper's page, and nothing else: an OpenReview forum or
# PDF, an arXiv abstract or PDF (any version), a DOI resolver.
_PAPER_LINK = Pattern(
    r"\s*<?(?:https?://)?(?:www\.)?(?:"
    r"(?P<openreview>openreview\.net/(?:forum|pdf)\?\S+)"
    r"|(?P<arxiv>(?:export\.)?arxiv\.org/(?:abs|pdf)/\S+)"
    r"|(?P<doi>(?:dx\.)?doi\.org/\S+)"
    r")>?\s*",
    re.IGNORECASE,
)
#: A usable citation key: safe in BibTeX, LaTeX \cite and pandoc alike (pandoc lets a key
#: start with a digit or "_").
CITEKEY = Pattern(r"[A-Za-z0-9_][A-Za-z0-9_\-:./+]{0,99}")


def normalize_doi(value: str | None) -> str | None:
    """``https://doi.org/10.1145/ABC.`` → ``10.1145/abc``; None when it holds no DOI.

    The form DOIs are compared in (they are case-insensitive); a short DOI (``10/fqd6hj``)
    is its own DOI here, as it cannot be expanded without asking doi.org.
    """
    written = doi_as_written(value)
    return written.lower() if written else None


def compared_doi(written: str | None, url: str | None) -> str | None:
    """The compared form of a source's DOI ``written`` as :func:`normalize_doi` gives it,
    but the full DOI of a doi.org ``url`` when the written one is short or missing.

    A short DOI (``10/fqd6hj``) and its full form name one paper; every format that writes
    both a DOI and its link must be recognised by the same one.
    """
    doi = normalize_doi(written)
    if (doi is None or doi.startswith("10/")) and url and "doi" in url.lower():
        return normalize_doi(url) or doi
    return doi


def doi_as_written(value: str | None) -> str | None:
    """The DOI in ``value`` as its source spelled it (case, short form), without a resolver
    prefix or trailing punctuation; None when it holds no DOI."""
    if not value:
        return None
    text = value.strip()
    match = _DOI.search(text) or _SHORT_DOI.match(text)
    if not match:
        return None
    # Trailing punctuation is almost always from the prose.
    return match.group(1).rstrip(".,;)]}>\"'")


def normalize_arxiv_id(value: str | None) -> str | None:
    """``arXiv:2401.01234v2`` or an abs/pdf URL → ``2401.01234``; None when absent."""
    if not value:
        return None
    text = value.strip()
    for pattern in (_ARXIV_NEW, _ARXIV_OLD):
        match = pattern.search(text)
        if match:
            return match.group(1).lower() if pattern is _ARXIV_OLD else match.group(1)
    return None


def openreview_id(value: str | None) -> str | None:
    """The id of an OpenReview forum URL, or the value itself when it is a bare id."""
    if not value:
        return None
    text = value.strip()
    match = _OPENREVIEW.search(text)
    if match:
        return match.group(1)
    return text if _OPENREVIEW_ID.match(text) else None


def openreview_forum_id(url: str | None) -> str | None:
    """The id of the paper an OpenReview forum URL points to, or None for another URL: it
    identifies the paper as surely as a DOI, in any format that carries the URL."""
    return openreview_id(url) if url and "openreview.net/" in url else None


def openreview_forum_url(forum_id: str) -> str:
    """The link to an OpenReview forum, as exports write it for a paper's id."""
    return f"https://openreview.net/forum?id={forum_id}"


def openreview_forum_in(urls: Sequence[str]) -> str | None:
    """The OpenReview id of a record's links: its own link's, else that of a forum link
    after it (an export's for a paper whose own link is another, a proceedings page)."""
    own = openreview_forum_id(urls[0]) if urls else None
    return own or next((f for f in map(openreview_forum_link, urls[1:]) if f), None)


def openreview_forum_link(url: str) -> str | None:
    """The id of a link that is exactly an OpenReview forum's as exports write it, else None."""
    found = openreview_forum_id(url)
    return found if found and url.strip() == openreview_forum_url(found) else None


def identifier_of_link(value: object) -> tuple[str, str] | None:
    """The identifier a value that is only a link to a paper names, as (record field,
    identifier): ``("openreview_id", "aB3dE5fG7h")`` for an OpenReview forum or PDF link,
    ``("arxiv_id", "2401.01234")`` for an arXiv abstract or PDF link with or without a
    version, ``("doi", "10.1145/abc")`` for ``doi.org``/``dx.doi.org``; None for any other
    value (a link inside prose names another paper as often as this one)."""
    if not isinstance(value, str) or len(value) > 500:
        return None
    match = _PAPER_LINK.fullmatch(value)
    if match is None:
        return None
    if match.group("openreview"):
        found = openreview_id(match.group("openreview"))
        return ("openreview_id", found) if found else None
    if match.group("arxiv"):
        path = match.group("arxiv").split("/", 2)[2]
        path = path.removesuffix(".pdf")
        found = normalize_arxiv_id(path)
        return ("arxiv_id", found) if found else None
    found = doi_as_written(match.group("doi").split("/", 1)[1])
    return ("doi", found) if found else None


def linked_identifiers(values: Iterable[object]) -> dict[str, str]:
    """The identifiers named by the values that are links to a paper's pages (see
    :func:`identifier_of_link`): record field → id, and the first such link under
    ``link``. Two links naming different ids of one kind name no id of that kind: which
    is the paper's own is not known."""
    found: dict[str, str] = {}
    clashing: set[str] = set()
    link = ""
    for value in values:
        named = identifier_of_link(value)
        if named is None:
            continue
        field, identifier = named
        link = link or str(value).strip().strip("<>")
        if found.setdefault(field, identifier) != identifier:
            clashing.add(field)
    for field in clashing:
        del found[field]
    if link and found:
        found["link"] = link
    return found


def openreview_url(paper_id: str) -> str:
    """The forum URL of an OpenReview id."""
    return f"https://openreview.net/forum?id={paper_id}"


def arxiv_url(arxiv_id: str) -> str:
    """The abstract page of an arXiv id."""
    return f"https://arxiv.org/abs/{arxiv_id}"


def arxiv_venue(venue: str) -> bool:
    """Whether a venue names arXiv, the archive a preprint is in, not a journal."""
    return bool(_ARXIV_VENUE.fullmatch(venue.strip()))
