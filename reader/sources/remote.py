"""Paper metadata fetched from the web by identifier: arXiv ids, DOIs and OpenReview ids.

:func:`classify` tells which service an id or URL belongs to; :func:`fetch` asks the services
and returns :class:`~reader.models.PaperRecord` values plus one problem line per id that did
not work out. Three services answer:

* arXiv's API (an Atom feed, read with :mod:`reader.sources.arxiv_atom`); all arXiv ids go
  in one request, as arXiv asks clients to batch rather than hammer it.
* Crossref's REST API for DOIs (JSON; the abstract, when there is one, is JATS XML).
* OpenReview's API v2 (``{"notes": […]}``, read with :mod:`reader.sources.openreview`).

Only the standard library speaks HTTP: every request has a timeout, a User-Agent and an
``Accept`` header, follows redirects to http(s) only, and reads at most :data:`MAX_BYTES`.
A network failure, an HTTP error or a strange answer costs the ids concerned and nothing
else; :class:`FetchError` is raised only when no id given is usable at all.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from email.message import Message
from html.parser import HTMLParser
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlencode, urlsplit

from reader.models import PaperRecord
from reader.sources import ImportFormatError, arxiv_atom, openreview
from reader.sources.jsonsniff import clean_abstract, clean_title, iso_date, string_list
from reader.sources.seed import TITLE_MAX
from reader.text.identifiers import normalize_doi
from reader.text.render import to_plain
from reader.text.sanitize import clean_imported
from reader.text.titles import derive_title

__all__ = [
    "Endpoints",
    "FetchError",
    "FetchResult",
    "MAX_BYTES",
    "classify",
    "crossref_record",
    "fetch",
    "jats_to_text",
]

#: The most a single answer may weigh; a work's metadata is a few kilobytes.
MAX_BYTES = 20 * 1024 * 1024
# arXiv's API terms ask for at most one request every three seconds, and long id lists make
# URLs that some servers refuse; so ids go in batches, one batch at a time.
ARXIV_BATCH = 100
ARXIV_PAUSE = 3.0
# Requests to Crossref and OpenReview run side by side, but only a few at once (both services
# ask clients to be polite).
_WORKERS = 4
# A slow but steady trickle defeats the per-read socket timeout; the whole answer must come
# within this many timeouts.
_TOTAL_TIMEOUTS = 5

_ACCEPT_ATOM = "application/atom+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.1"
_ACCEPT_JSON = "application/json, */*;q=0.1"

_ENV = {"arxiv": "READER_ARXIV_API", "crossref": "READER_CROSSREF_API",
        "openreview": "READER_OPENREVIEW_API"}
_SERVICE = {"arxiv": "arXiv", "doi": "Crossref", "openreview": "OpenReview"}


@dataclass(frozen=True)
class Endpoints:
    """Where the three services live; tests (and mirrors) point these elsewhere."""

    arxiv: str = "https://export.arxiv.org/api/query"
    crossref: str = "https://api.crossref.org/works/"
    openreview: str = "https://api2.openreview.net/notes"

    @classmethod
    def from_env(cls) -> Endpoints:
        """The defaults, each overridden by ``READER_ARXIV_API``, ``READER_CROSSREF_API`` or
        ``READER_OPENREVIEW_API`` when that is set and not blank."""
        defaults = cls()
        values = {
            name: os.environ.get(variable, "").strip() or getattr(defaults, name)
            for name, variable in _ENV.items()
        }
        return cls(**values)


class FetchError(Exception):
    """One clear line for the user (names the id and the service)."""


@dataclass
class FetchResult:
    """The records fetched, in the order of the ids asked for, and one line per failed id."""

    records: list[PaperRecord] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


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


# --- fetching -------------------------------------------------------------------------------

#: What became of one id: its record, or the problem text (without the id in front).
_Outcome = PaperRecord | str


def fetch(
    refs: Sequence[str],
    endpoints: Endpoints | None = None,
    timeout: float = 10.0,
    user_agent: str = "reader/0.1 (paper reader)",
) -> FetchResult:
    """Records for the refs (arXiv ids batched into one request with ``id_list=a,b,c``), and one
    problem line per ref that failed (``2401.99999: arXiv has no such paper``,
    ``10.1/x: Crossref answered 404 Not Found``, ``…: could not reach export.arxiv.org
    (offline?): <reason>``, ``…: timed out after 10 s``).

    Records and problems come in the order of ``refs``; an id given twice (in any spelling) is
    fetched once. Raises :class:`FetchError` when ``refs`` holds no id at all, or none that
    is recognised.
    """
    given = [ref.strip() for ref in refs if ref and ref.strip()]
    if not given:
        raise FetchError("no paper ids given (an arXiv id, a DOI or an OpenReview id or URL)")
    wanted: dict[tuple[str, str], str] = {}  # (kind, id) → the ref as first written
    order: list[tuple[str, tuple[str, str] | None]] = []
    unknown: list[str] = []
    for ref in given:
        key = classify(ref)
        if key is None:
            unknown.append(ref)
        else:
            wanted.setdefault(key, ref)
        order.append((ref, key))
    if not wanted:
        raise FetchError(f"not an arXiv id, DOI or OpenReview id: {', '.join(unknown)}")

    client = _Client(endpoints or Endpoints.from_env(), timeout, user_agent)
    outcomes = _run(client, list(wanted))

    result = FetchResult()
    done: set[tuple[str, str]] = set()
    for ref, key in order:
        if key is None:
            result.problems.append(f"{ref}: not an arXiv id, DOI or OpenReview id")
            continue
        if key in done:
            continue
        done.add(key)
        outcome = outcomes[key]
        if isinstance(outcome, str):
            result.problems.append(f"{wanted[key]}: {outcome}")
        else:
            result.records.append(outcome)
    return result


def _run(client: _Client, keys: list[tuple[str, str]]) -> dict[tuple[str, str], _Outcome]:
    """Ask the services about every key, side by side, and gather what each became."""
    arxiv_ids = [ident for kind, ident in keys if kind == "arxiv"]
    jobs: list[Callable[[], dict[tuple[str, str], _Outcome]]] = []
    if arxiv_ids:
        jobs.append(lambda: {("arxiv", i): o for i, o in _fetch_arxiv(client, arxiv_ids).items()})
    for kind, ident in keys:
        if kind == "doi":
            jobs.append(_single(client, _fetch_crossref, kind, ident))
        elif kind == "openreview":
            jobs.append(_single(client, _fetch_openreview, kind, ident))
    outcomes: dict[tuple[str, str], _Outcome] = {}
    if len(jobs) == 1:
        outcomes.update(jobs[0]())
        return outcomes
    with ThreadPoolExecutor(max_workers=min(_WORKERS, len(jobs))) as pool:
        for found in pool.map(lambda job: job(), jobs):
            outcomes.update(found)
    return outcomes


def _single(
    client: _Client, getter: Callable[[_Client, str], _Outcome], kind: str, ident: str
) -> Callable[[], dict[tuple[str, str], _Outcome]]:
    """A job fetching one id, which never raises (a bug must not cost the other ids)."""

    def job() -> dict[tuple[str, str], _Outcome]:
        try:
            outcome = getter(client, ident)
        except Exception as exc:  # reported as that id's problem
            outcome = f"{_SERVICE[kind]}'s answer could not be read ({type(exc).__name__})"
        return {(kind, ident): outcome}

    return job


# --- HTTP -----------------------------------------------------------------------------------


class _Failure(Exception):
    """No usable answer came; the message is the problem text."""


@dataclass(frozen=True, slots=True)
class _Answer:
    """An HTTP answer, good or bad, with its body read."""

    status: int
    reason: str
    content_type: str
    charset: str | None
    body: bytes

    def text(self) -> str:
        """The body as text, in the charset the server named (UTF-8 when none)."""
        try:
            return self.body.decode(self.charset or "utf-8", errors="replace")
        except LookupError:  # a charset Python does not know
            return self.body.decode("utf-8", errors="replace")

    def status_line(self, service: str) -> str:
        """``Crossref answered 404 Not Found``."""
        try:
            phrase = self.reason or HTTPStatus(self.status).phrase
        except ValueError:
            phrase = ""
        return f"{service} answered {self.status} {phrase}".rstrip()


class _RedirectHandler(urllib.request.HTTPRedirectHandler):
    """Follows redirects to http(s) URLs only (urllib would also follow them to ftp)."""

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: Any,
        code: int,
        msg: str,
        headers: http.client.HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        if urlsplit(newurl).scheme.lower() not in ("http", "https"):
            raise urllib.error.HTTPError(
                newurl, code, f"redirect to a non-http address refused: {newurl}", headers, fp
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _opener() -> urllib.request.OpenerDirector:
    """An opener for http(s) only: no file:, ftp: or data: handlers, unlike urllib's default."""
    opener = urllib.request.OpenerDirector()
    handlers: list[urllib.request.BaseHandler] = [
        urllib.request.ProxyHandler(),  # honour http_proxy/https_proxy, as users expect
        urllib.request.UnknownHandler(),
        urllib.request.HTTPHandler(),
        urllib.request.HTTPDefaultErrorHandler(),
        _RedirectHandler(),
        urllib.request.HTTPErrorProcessor(),
    ]
    if hasattr(urllib.request, "HTTPSHandler"):  # absent when Python was built without ssl
        handlers.append(urllib.request.HTTPSHandler())
    for handler in handlers:
        opener.add_handler(handler)
    return opener


class _Client:
    """The settings shared by all requests of one :func:`fetch`."""

    def __init__(self, endpoints: Endpoints, timeout: float, user_agent: str) -> None:
        self.endpoints = endpoints
        self.timeout = timeout
        self.user_agent = user_agent
        self.opener = _opener()

    def get(self, url: str, accept: str) -> _Answer:
        """GET ``url``; an HTTP error status is an answer, a network failure is _Failure."""
        parts = urlsplit(url)
        host = parts.netloc or url
        if parts.scheme.lower() not in ("http", "https"):
            raise _Failure(f"{url} is not an http(s) address; check the READER_*_API settings")
        request = urllib.request.Request(
            url, headers={"User-Agent": self.user_agent, "Accept": accept}
        )
        deadline = time.monotonic() + self.timeout * _TOTAL_TIMEOUTS
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                return self._answer(response, response.status, response.reason, deadline, host)
        except urllib.error.HTTPError as exc:
            reason = str(exc.reason or "")
            try:
                return self._answer(exc, exc.code, reason, deadline, host)
            except (_Failure, OSError, http.client.HTTPException):
                # The error status says enough; its body is only a nicety.
                return _Answer(exc.code, reason, "", None, b"")
            finally:
                exc.close()
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise _Failure(self._timed_out()) from None
            raise _Failure(f"could not reach {host} (offline?): {_why(exc.reason)}") from None
        except TimeoutError:
            raise _Failure(self._timed_out()) from None
        except (http.client.InvalidURL, ValueError) as exc:
            # e.g. a port that is not a number in READER_*_API
            raise _Failure(f"{url} is not a usable address ({exc})") from None
        except http.client.HTTPException as exc:
            raise _Failure(
                f"{host} broke off its answer ({type(exc).__name__}); try again later"
            ) from None
        except OSError as exc:
            raise _Failure(f"the connection to {host} failed: {_why(exc)}") from None

    def _answer(
        self, response: Any, status: int, reason: str, deadline: float, host: str
    ) -> _Answer:
        """Read the body, at most MAX_BYTES and by the deadline."""
        headers: Message = response.headers
        length = headers.get("Content-Length", "")
        if length.strip().isdigit() and int(length) > MAX_BYTES:
            raise _Failure(f"{host} sent an answer larger than {_size(MAX_BYTES)}")
        # read1 returns what has arrived rather than waiting for a whole chunk, so the
        # deadline is checked while a slow answer trickles in.
        read = getattr(response, "read1", None) or response.read
        chunks: list[bytes] = []
        size = 0
        while True:
            if time.monotonic() > deadline:
                total = self.timeout * _TOTAL_TIMEOUTS
                raise _Failure(f"{host} took longer than {total:g} s to answer; gave up")
            chunk = read(64 * 1024)
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_BYTES:
                raise _Failure(f"{host} sent an answer larger than {_size(MAX_BYTES)}")
            chunks.append(chunk)
        return _Answer(
            status, reason, headers.get_content_type(), headers.get_content_charset(),
            b"".join(chunks),
        )

    def _timed_out(self) -> str:
        return f"timed out after {self.timeout:g} s"


def _size(count: int) -> str:
    """``20 MB`` or ``4,096 bytes``."""
    megabytes = count / 2**20
    return f"{megabytes:g} MB" if megabytes >= 1 else f"{count:,} bytes"


def _why(reason: object) -> str:
    """The human part of a network error: ``Connection refused``, not ``[Errno 111] …``."""
    if isinstance(reason, OSError) and reason.strerror:
        return str(reason.strerror)
    return str(reason) or type(reason).__name__


def _with_query(base: str, params: dict[str, str]) -> str:
    """``base`` with ``params`` added to its query string."""
    joiner = "&" if "?" in base else "?"
    # Commas and slashes stay readable in arXiv's id_list (and arXiv accepts them so).
    return base + joiner + urlencode(params, safe=",/", quote_via=quote)


_HTML_START = re.compile(r"\A\s*(?:<!doctype\s+html|<html|<head|<body)", re.IGNORECASE)
_HTML_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)


def _web_page(answer: _Answer, text: str) -> str | None:
    """``answered with a web page`` (and its title), when the body is HTML; else None."""
    if answer.content_type != "text/html" and not _HTML_START.match(text):
        return None
    title = _HTML_TITLE.search(text[:20_000])
    name = " ".join(jats_to_text(title.group(1)).split())[:80] if title else ""
    return f"a web page{f' ({name!r})' if name else ''}"


def _json(answer: _Answer, service: str) -> Any:
    """The JSON body of a good answer; raises _Failure with the reason otherwise."""
    text = answer.text()
    page = _web_page(answer, text)
    if answer.status >= 400:
        raise _Failure(answer.status_line(service) + (f" with {page}" if page else ""))
    if page:
        raise _Failure(f"{service} answered with {page} where JSON was expected")
    if not text.strip():
        raise _Failure(f"{service} sent an empty answer")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _Failure(
            f"{service}'s answer is not valid JSON (line {exc.lineno} column {exc.colno}: "
            f"{exc.msg})"
        ) from None
    except (ValueError, RecursionError):
        raise _Failure(f"{service}'s answer is not JSON reader can read") from None


# --- arXiv ----------------------------------------------------------------------------------

_ARXIV_ERROR = "arXiv reported an error: "


def _fetch_arxiv(client: _Client, ids: list[str]) -> dict[str, _Outcome]:
    """Every arXiv id's record or problem, asking in batches."""
    outcomes: dict[str, _Outcome] = {}
    for start in range(0, len(ids), ARXIV_BATCH):
        if start:
            time.sleep(ARXIV_PAUSE)
        batch = ids[start:start + ARXIV_BATCH]
        try:
            outcomes.update(_arxiv_batch(client, batch, retry=True))
        except Exception as exc:  # a bug must not cost the other services
            outcomes.update(
                {i: f"arXiv's answer could not be read ({type(exc).__name__})" for i in batch}
            )
    return outcomes


def _arxiv_batch(client: _Client, ids: list[str], retry: bool) -> dict[str, _Outcome]:
    """One request for ``ids``; an id arXiv rejects by name is retried without the others."""
    # Without max_results arXiv stops at 10 entries, whatever id_list holds.
    url = _with_query(client.endpoints.arxiv, {"id_list": ",".join(ids),
                                                "max_results": str(len(ids))})
    try:
        answer = client.get(url, _ACCEPT_ATOM)
    except _Failure as exc:
        return dict.fromkeys(ids, str(exc))
    text = answer.text()
    page = _web_page(answer, text)
    if page or (answer.status >= 400 and "<feed" not in text[:2000]):
        status = answer.status_line("arXiv") if answer.status >= 400 else "arXiv answered"
        return dict.fromkeys(ids, f"{status} with {page}" if page else status)
    try:
        result = arxiv_atom.parse(text, "arXiv's answer")
    except ImportFormatError as exc:
        message = re.sub(r"\AarXiv's answer(?::\d+)?:\s*", "", str(exc))
        if not message.startswith(_ARXIV_ERROR):
            if answer.status >= 400:
                return dict.fromkeys(ids, answer.status_line("arXiv"))
            return dict.fromkeys(ids, f"arXiv's answer could not be read ({message.strip()})")
        # An error feed answers for the whole request. When it names some of the ids, those
        # are the culprits and the others deserve a request of their own.
        named = [i for i in ids if _names_id(message, i)]
        outcomes: dict[str, _Outcome] = dict.fromkeys(named or ids, message)
        rest = [i for i in ids if i not in outcomes]
        if rest and retry:
            outcomes.update(_arxiv_batch(client, rest, retry=False))
        else:
            outcomes.update(dict.fromkeys(rest, message))
        return outcomes
    return _arxiv_outcomes(ids, result.records, result.problems)


def _arxiv_outcomes(
    ids: list[str], records: list[PaperRecord], problems: list[str]
) -> dict[str, _Outcome]:
    """Match a feed's entries to the ids asked for."""
    by_id: dict[str, PaperRecord] = {}
    for record in records:
        if record.arxiv_id:
            by_id.setdefault(record.arxiv_id.lower(), record)
    errors = [p.partition(_ARXIV_ERROR)[2] for p in problems if _ARXIV_ERROR in p]
    # A feed cut off mid-way (the parser reports where) may have lost the missing entries.
    damage = next((p for p in problems if "XML is broken" in p), None)
    outcomes: dict[str, _Outcome] = {}
    for ident in ids:
        found = by_id.get(ident.lower())
        if found is not None:
            found.source = f"arxiv:{ident}"
            outcomes[ident] = found
            continue
        error = next((e for e in errors if _names_id(e, ident)), None)
        if error:
            outcomes[ident] = _ARXIV_ERROR + error
        elif damage:
            outcomes[ident] = f"not in arXiv's answer, which was damaged ({damage})"
        else:
            # arXiv answers an unknown id with no entry, or an entry without title/abstract.
            outcomes[ident] = "arXiv has no such paper"
    return outcomes


def _names_id(message: str, ident: str) -> bool:
    """Whether an arXiv error message names ``ident`` as a whole word."""
    pattern = rf"(?<![\w.]){re.escape(ident)}(?![\w/]|\.\d)"
    return re.search(pattern, message, re.IGNORECASE) is not None


# --- Crossref -------------------------------------------------------------------------------

_CROSSREF_DATES = ("issued", "published-print", "published-online", "published", "created")


def _fetch_crossref(client: _Client, doi: str) -> _Outcome:
    """The record Crossref holds for ``doi``, or the problem."""
    base = client.endpoints.crossref
    # Crossref asks for the whole DOI to be url-encoded: DOIs hold ';', '#', '?' and '/'.
    url = (base if base.endswith("/") else base + "/") + quote(doi, safe="")
    try:
        data = _json(client.get(url, _ACCEPT_JSON), "Crossref")
    except _Failure as exc:
        return str(exc)
    message = data.get("message") if isinstance(data, dict) else None
    if not isinstance(message, dict) or data.get("status") not in ("ok", None):
        return "Crossref's answer holds no work"
    record = crossref_record(message, doi)
    return record if record is not None else "Crossref's record has neither title nor abstract"


def crossref_record(message: dict[str, Any], doi: str | None = None) -> PaperRecord | None:
    """A record from the ``message`` of a Crossref work, or None with neither title nor
    abstract. ``doi`` is the DOI asked for (it names the record's source)."""
    title = _markup_line(_first(message.get("title")))
    subtitle = _markup_line(_first(message.get("subtitle")))
    if title and subtitle and subtitle.casefold() not in title.casefold():
        title = f"{title}: {subtitle}"
    abstract = clean_abstract(jats_to_text(_text(message.get("abstract"))))
    title_derived = False
    if not title:
        if not abstract:
            return None
        title = derive_title(to_plain(abstract[:20_000]), max_len=TITLE_MAX)
        title_derived = True
    found_doi = normalize_doi(_text(message.get("DOI"))) or normalize_doi(doi)
    url = clean_title(message.get("URL"))
    if not url.lower().startswith(("http://", "https://")):
        url = f"https://doi.org/{found_doi}" if found_doi else ""
    date = _crossref_date(message)
    return PaperRecord(
        abstract=abstract,
        title=title,
        title_derived=title_derived,
        authors=_crossref_authors(message.get("author")),
        venue=_markup_line(_first(message.get("container-title"))) or None,
        year=int(date[:4]) if date else None,
        keywords=string_list(message.get("subject")),
        url=url or None,
        doi=found_doi,
        source=f"doi:{doi or found_doi}",
        date=date,
        kind=clean_title(message.get("type")) or None,
    )


def _first(value: Any) -> Any:
    """The first of a list (Crossref wraps titles in lists), or the value itself."""
    if isinstance(value, list):
        return value[0] if value else None
    return value


def _text(value: Any) -> str:
    """``value`` when it is a string, else ""."""
    return value if isinstance(value, str) else ""


def _markup_line(value: Any) -> str:
    """A title or name that may hold markup (``<i>E. coli</i>``, ``&amp;``) as one line."""
    return clean_title(" ".join(jats_to_text(_text(value)).split()))


def _crossref_authors(value: Any) -> list[str]:
    """"Given Family" per person, or the name of an organisation author."""
    names: list[str] = []
    for person in value if isinstance(value, list) else []:
        if not isinstance(person, dict):
            continue
        parts = (_markup_line(person.get(key)) for key in ("given", "family", "suffix"))
        name = " ".join(p for p in parts if p) or _markup_line(person.get("name"))
        if name and name not in names:
            names.append(name)
    return names


def _crossref_date(message: dict[str, Any]) -> str | None:
    """ISO date of the first of Crossref's dates that has a year."""
    for key in _CROSSREF_DATES:
        value = message.get(key)
        parts = value.get("date-parts") if isinstance(value, dict) else None
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            found = iso_date(*(parts[0] + [None, None])[:3])
            if found:
                return found
    return None


_ASCII_SPACE = re.compile(r"[ \t\n\r\f\v]+")


class _MarkupText(HTMLParser):
    """Collects the text of JATS or HTML markup, one paragraph per block element.

    ``HTMLParser`` rather than an XML parser: Crossref's JATS is not always well-formed, and
    this parser never expands entity declarations, fetches anything or fails on bad markup.
    """

    _BLOCKS = frozenset({
        "p", "sec", "title", "list", "list-item", "def-item", "disp-quote", "abstract",
        "trans-abstract", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6",
    })
    # Invisible or duplicated content: MathML's TeX annotations repeat the formula.
    _SKIP = frozenset({"script", "style", "annotation", "annotation-xml", "object-id"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[str] = []
        self._current: list[str] = []
        self._skipping = 0

    @staticmethod
    def _local(tag: str) -> str:
        return tag.rpartition(":")[2].lower()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        name = self._local(tag)
        if name in self._SKIP:
            self._skipping += 1
        elif name in self._BLOCKS:
            self._break()

    def handle_endtag(self, tag: str) -> None:
        name = self._local(tag)
        if name in self._SKIP:
            self._skipping = max(0, self._skipping - 1)
        elif name in self._BLOCKS:
            self._break()

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self._current.append(data)

    def close(self) -> None:
        super().close()
        self._break()

    def _break(self) -> None:
        text = "".join(self._current)
        self._current = []
        # Plain text inside one element may still hold blank-line paragraphs.
        for block in re.split(r"\n[ \t]*\n", text):
            # Only ASCII whitespace folds: a no-break or thin space (20&#x2009;ms) is meant.
            folded = _ASCII_SPACE.sub(" ", block).strip(" ")
            if folded:
                self.paragraphs.append(folded)


_ABSTRACT_HEADING = re.compile(r"(?:abstract|summary)\s*[.:]?", re.IGNORECASE)


def jats_to_text(markup: str) -> str:
    """Plain text of a JATS (or HTML) fragment such as Crossref's ``abstract``.

    Tags go, entities are decoded, each paragraph (``<jats:p>``, ``<jats:sec>``, ``<jats:title>``
    …) becomes one line of folded text, paragraphs are separated by a blank line, and a
    leading "Abstract" heading is dropped.
    """
    if not markup:
        return ""
    parser = _MarkupText()
    parser.feed(markup)
    parser.close()
    paragraphs = parser.paragraphs
    if paragraphs and _ABSTRACT_HEADING.fullmatch(paragraphs[0]):
        paragraphs = paragraphs[1:]
    return clean_imported("\n\n".join(paragraphs))


# --- OpenReview -----------------------------------------------------------------------------


def _fetch_openreview(client: _Client, forum_id: str) -> _Outcome:
    """The record of OpenReview note ``forum_id``, or the problem."""
    url = _with_query(client.endpoints.openreview, {"id": forum_id})
    try:
        answer = client.get(url, _ACCEPT_JSON)
    except _Failure as exc:
        return str(exc)
    # OpenReview answers an unknown id with 404 and {"name": "NotFoundError", …}.
    if answer.status == 404 and b"NotFound" in answer.body[:2000]:
        return "OpenReview has no such paper"
    try:
        data = _json(answer, "OpenReview")
    except _Failure as exc:
        return str(exc)
    notes = data.get("notes") if isinstance(data, dict) else None
    if not isinstance(notes, list):
        return "OpenReview's answer holds no notes"
    if not notes:
        return "OpenReview has no such paper"
    try:
        result = openreview.parse(json.dumps({"notes": notes}), "OpenReview's answer")
    except ImportFormatError as exc:
        return f"OpenReview's answer could not be read ({exc})"
    records = [r for r in result.records if r.openreview_id == forum_id] or result.records
    if not records:
        reason = result.problems[0] if result.problems else "no usable note"
        return f"OpenReview's answer could not be read ({reason})"
    record = records[0]
    record.source = f"openreview:{forum_id}"
    return record
