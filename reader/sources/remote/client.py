"""Speaking HTTP to the services: where they live, one request with its limits, the
answer read (only the standard library; http(s) only; a size and time bound on every
answer)."""

from __future__ import annotations

import http.client
import json
import os
import re
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from email.message import Message
from http import HTTPStatus
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from reader.errors import NetworkError
from reader.models import PaperRecord
from reader.sources.remote.markup import jats_to_text

#: The most a single answer may weigh; a work's metadata is a few kilobytes.
MAX_BYTES = 20 * 1024 * 1024
# A slow but steady trickle defeats the per-read socket timeout; the whole answer must come
# within this many timeouts.
_TOTAL_TIMEOUTS = 5

ACCEPT_ATOM = "application/atom+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.1"
ACCEPT_JSON = "application/json, */*;q=0.1"

_ENV = {"arxiv": "READER_ARXIV_API", "crossref": "READER_CROSSREF_API",
        "openreview": "READER_OPENREVIEW_API"}


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


#: What became of one id: its record, or the problem text (without the id in front).
Outcome = PaperRecord | str


# --- HTTP -----------------------------------------------------------------------------------


class Failure(NetworkError):
    """No usable answer came; the message is the problem text. ``transient`` says the
    network failed (a timeout, a refused or broken connection): asking again may work;
    ``unreachable`` that the host could not be reached at all (no network, no such name,
    nothing listening), which one more try rules out better than a minute of them."""

    def __init__(self, message: str, transient: bool = False, unreachable: bool = False) -> None:
        super().__init__(message)
        self.transient = transient
        self.unreachable = unreachable


@dataclass(frozen=True, slots=True)
class Answer:
    """An HTTP answer, good or bad, with its body read."""

    status: int
    reason: str
    content_type: str
    charset: str | None
    body: bytes
    #: The Retry-After header, as sent (a 429 or a 503 may name a wait).
    retry_after: str = ""

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


class Client:
    """The settings shared by all requests of one :func:`fetch`."""

    def __init__(
        self, endpoints: Endpoints, timeout: float, user_agent: str,
        max_bytes: int | None = None,
    ) -> None:
        self.endpoints = endpoints
        self.timeout = timeout
        self.user_agent = user_agent
        #: The most one answer may weigh, when not MAX_BYTES (a page of a venue's notes
        #: with their replies weighs far more than one work's metadata).
        self.max_bytes = max_bytes
        self.opener = _opener()

    def get(
        self, url: str, accept: str, *, data: bytes | None = None,
        content_type: str = "application/json", authorization: str | None = None,
    ) -> Answer:
        """GET ``url`` (POST ``data`` when given); an HTTP error status is an answer, a
        network failure is Failure. ``authorization`` goes with this request only, never
        with a redirect (which may lead to another host)."""
        parts = urlsplit(url)
        host = parts.netloc or url
        if parts.scheme.lower() not in ("http", "https"):
            raise Failure(f"{url} is not an http(s) address; check the READER_*_API settings")
        headers = {"User-Agent": self.user_agent, "Accept": accept}
        if data is not None:
            headers["Content-Type"] = content_type
        request = urllib.request.Request(url, data=data, headers=headers)
        if authorization is not None:
            request.add_unredirected_header("Authorization", authorization)
        deadline = time.monotonic() + self.timeout * _TOTAL_TIMEOUTS
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                return self._answer(response, response.status, response.reason, deadline, host)
        except urllib.error.HTTPError as exc:
            reason = str(exc.reason or "")
            try:
                return self._answer(exc, exc.code, reason, deadline, host)
            except (Failure, OSError, http.client.HTTPException):
                # The error status says enough; its body is only a nicety.
                retry_after = exc.headers.get("Retry-After", "") if exc.headers else ""
                return Answer(exc.code, reason, "", None, b"", retry_after.strip())
            finally:
                exc.close()
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise Failure(self._timed_out(), transient=True) from None
            raise Failure(
                f"could not reach {host} (offline?): {_why(exc.reason)}", transient=True,
                unreachable=True,
            ) from None
        except TimeoutError:
            raise Failure(self._timed_out(), transient=True) from None
        except (http.client.InvalidURL, ValueError) as exc:
            # e.g. a port that is not a number in READER_*_API
            raise Failure(f"{url} is not a usable address ({exc})") from None
        except http.client.HTTPException as exc:
            raise Failure(
                f"{host} broke off its answer ({type(exc).__name__}); try again later",
                transient=True,
            ) from None
        except OSError as exc:
            raise Failure(
                f"the connection to {host} failed: {_why(exc)}", transient=True
            ) from None

    def _answer(
        self, response: Any, status: int, reason: str, deadline: float, host: str
    ) -> Answer:
        """Read the body, at most MAX_BYTES (or the client's own bound) and by the
        deadline."""
        limit = self.max_bytes or MAX_BYTES
        headers: Message = response.headers
        length = headers.get("Content-Length", "")
        if length.strip().isdigit() and int(length) > limit:
            raise Failure(f"{host} sent an answer larger than {_size(limit)}")
        # read1 returns what has arrived rather than waiting for a whole chunk, so the
        # deadline is checked while a slow answer trickles in.
        read = getattr(response, "read1", None) or response.read
        chunks: list[bytes] = []
        size = 0
        while True:
            if time.monotonic() > deadline:
                total = self.timeout * _TOTAL_TIMEOUTS
                raise Failure(
                    f"{host} took longer than {total:g} s to answer; gave up", transient=True
                )
            chunk = read(64 * 1024)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise Failure(f"{host} sent an answer larger than {_size(limit)}")
            chunks.append(chunk)
        return Answer(
            status, reason, headers.get_content_type(), headers.get_content_charset(),
            b"".join(chunks), headers.get("Retry-After", "").strip(),
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


def with_query(base: str, params: dict[str, str]) -> str:
    """``base`` with ``params`` added to its query string."""
    joiner = "&" if "?" in base else "?"
    # Commas and slashes stay readable in arXiv's id_list (and arXiv accepts them so).
    return base + joiner + urlencode(params, safe=",/", quote_via=quote)


_HTML_START = re.compile(r"\A\s*(?:<!doctype\s+html|<html|<head|<body)", re.IGNORECASE)
_HTML_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)


def web_page(answer: Answer, text: str) -> str | None:
    """``answered with a web page`` (and its title), when the body is HTML; else None."""
    if answer.content_type != "text/html" and not _HTML_START.match(text):
        return None
    title = _HTML_TITLE.search(text[:20_000])
    name = " ".join(jats_to_text(title.group(1)).split())[:80] if title else ""
    return f"a web page{f' ({name!r})' if name else ''}"


def read_json(answer: Answer, service: str) -> Any:
    """The JSON body of a good answer; raises Failure with the reason otherwise."""
    text = answer.text()
    page = web_page(answer, text)
    if answer.status >= 400:
        raise Failure(answer.status_line(service) + (f" with {page}" if page else ""))
    if page:
        raise Failure(f"{service} answered with {page} where JSON was expected")
    if not text.strip():
        raise Failure(f"{service} sent an empty answer")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise Failure(
            f"{service}'s answer is not valid JSON (line {exc.lineno} column {exc.colno}: "
            f"{exc.msg})"
        ) from None
    except (ValueError, RecursionError):
        raise Failure(f"{service}'s answer is not JSON reader can read") from None


