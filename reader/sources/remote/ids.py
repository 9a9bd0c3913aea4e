"""Which service an id or URL belongs to: arXiv ids (new and old style), DOIs, OpenReview
ids, bare or inside the URLs people paste."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, unquote, urlsplit

from reader.text.identifiers import normalize_doi
from reader.text.sanitize import clean_imported

# --- recognising ids ------------------------------------------------------------------------

# New-style ids (2007 on) are YYMM.NNNN or YYMM.NNNNN; old-style ids are archive/YYMMNNN, at
# times written with a subject class (math.GT/0309136) that is not part of the id.
_ARXIV_NEW = re.compile(r"(\d{4}\.\d{4,5})(?:v\d+)?")
_ARXIV_OLD = re.compile(r"([a-z]+(?:-[a-z]+)?)(?:\.[a-z]{2})?/(\d{7})(?:v\d+)?", re.IGNORECASE)
_ARXIV_PATHS = frozenset({"abs", "pdf", "html", "format", "ps", "src"})
_ARXIV_HOSTS = frozenset({"arxiv.org", "export.arxiv.org"})
_DOI = re.compile(r"10\.\d{4,9}/\S+")
_DOI_IN_PATH = re.compile(r"10\.\d{4,9}/.+")
_DOI_HOSTS = frozenset({"doi.org", "dx.doi.org"})
# arXiv mints DataCite DOIs (10.48550/arXiv.2401.01234); Crossref does not know them.
_ARXIV_DOI = re.compile(r"10\.48550/arxiv\.(.+)", re.IGNORECASE)
_OPENREVIEW_HOSTS = frozenset({"openreview.net", "api.openreview.net", "api2.openreview.net"})
_OPENREVIEW_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,16}")
# After an explicit "openreview:" any id-shaped token is taken at its word.
_OPENREVIEW_LOOSE = re.compile(r"[A-Za-z0-9_-]{3,64}")
_PREFIX = re.compile(r"(arxiv|doi|openreview)\s*:\s*(.*)", re.IGNORECASE | re.DOTALL)
_SCHEME = re.compile(r"https?://", re.IGNORECASE)
# "arxiv.org/abs/…" or "dl.acm.org/doi/…" pasted without a scheme.
_BARE_HOST = re.compile(r"(?:[a-z0-9-]+\.)+[a-z]{2,}/", re.IGNORECASE)


def classify(ref: str) -> tuple[str, str] | None:
    """``("arxiv", "2401.01234")``, ``("doi", "10.1145/…")`` or ``("openreview", "abcXYZ")``
    for an id or URL; None when ``ref`` is none of them.

    Understood: bare ids, ``arXiv:``/``doi:``/``openreview:`` prefixes, arxiv.org abs/pdf/html
    URLs (with a version or ``.pdf``), doi.org URLs, publisher URLs with a DOI in the path,
    and openreview.net forum/pdf URLs. arXiv's own DOIs (10.48550/arXiv.…) count as arXiv ids.
    A bare token that is neither a DOI nor an arXiv id is an OpenReview id only if it looks
    like one: 8–16 characters of ``[A-Za-z0-9_-]`` with a letter, and a digit or mixed case.
    """
    # Pasted ids come with stray quotes, angle brackets or invisible characters.
    text = clean_imported(ref).strip().strip("<>\"'“”‘’").strip()
    if not text:
        return None
    prefixed = _PREFIX.fullmatch(text)
    if prefixed:
        kind, rest = prefixed.group(1).lower(), prefixed.group(2).strip()
        if kind == "arxiv":
            found = _arxiv_id(rest)
            return ("arxiv", found) if found else None
        if kind == "doi":
            return _doi_ref(rest) or _url_ref(rest)
        if _OPENREVIEW_LOOSE.fullmatch(rest):
            return ("openreview", rest)
        return _url_ref(rest)
    # Ids before URLs: "math.GT/0309136" has the shape of a host name and a path.
    found = _arxiv_id(text)
    if found:
        return ("arxiv", found)
    doi = _doi_ref(text)
    if doi:
        return doi
    if _SCHEME.match(text) or _BARE_HOST.match(text):
        return _url_ref(text)
    if _looks_like_openreview_id(text):
        return ("openreview", text)
    return None


def _arxiv_id(text: str) -> str | None:
    """The canonical arXiv id (no version, no subject class) of exactly ``text``, or None."""
    new = _ARXIV_NEW.fullmatch(text)
    if new:
        return new.group(1)
    old = _ARXIV_OLD.fullmatch(text)
    if old:
        return f"{old.group(1).lower()}/{old.group(2)}"
    return None


def _doi_ref(text: str) -> tuple[str, str] | None:
    """A DOI that is all of ``text`` (an arXiv DOI as its arXiv id), or None."""
    if not _DOI.fullmatch(text):
        return None
    doi = normalize_doi(text)
    if not doi:
        return None
    arxiv_doi = _ARXIV_DOI.fullmatch(doi)
    if arxiv_doi:
        found = _arxiv_id(arxiv_doi.group(1))
        if found:
            return ("arxiv", found)
    return ("doi", doi)


def _looks_like_openreview_id(text: str) -> bool:
    """Whether a bare token is shaped like an OpenReview id (``B1-Hhnslg``, ``SOxO7e6ySB``).

    Without this test any word ("attention") would be sent to OpenReview as an id.
    """
    if not _OPENREVIEW_TOKEN.fullmatch(text):
        return False
    has_upper = any(c.isupper() for c in text)
    has_lower = any(c.islower() for c in text)
    has_digit = any(c.isdigit() for c in text)
    return (has_upper or has_lower) and (has_digit or (has_upper and has_lower))


def _url_ref(text: str) -> tuple[str, str] | None:
    """The id in an arXiv, doi.org, OpenReview or publisher URL, or None."""
    url = text if _SCHEME.match(text) else "https://" + text
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:  # e.g. a malformed port or IPv6 literal
        return None
    host = host.removeprefix("www.")
    path = unquote(parts.path)
    if host in _ARXIV_HOSTS:
        section, _, rest = path.strip("/").partition("/")
        if section.lower() not in _ARXIV_PATHS:
            return None
        rest = rest.strip("/")
        if rest.lower().endswith(".pdf"):
            rest = rest[:-4]
        found = _arxiv_id(rest)
        return ("arxiv", found) if found else None
    if host in _OPENREVIEW_HOSTS:
        ids = parse_qs(parts.query).get("id", [])
        if ids and _OPENREVIEW_LOOSE.fullmatch(ids[0]):
            return ("openreview", ids[0])
        return None
    if host in _DOI_HOSTS:
        return _doi_ref(path.strip("/"))
    # Publisher pages carry the DOI in the path (dl.acm.org/doi/10.1145/…).
    in_path = _DOI_IN_PATH.search(path)
    return _doi_ref(in_path.group(0).rstrip("/")) if in_path else None


