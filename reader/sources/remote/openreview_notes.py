"""Papers with every public reply, fetched from OpenReview's API v2 into a JSON-lines file.

What is fetched is a :class:`Plan`: a whole venue (``/notes?invitation=…/-/Submission&
details=replies``, pages of up to 1,000 submissions by ``offset`` and ``limit``) or a list
of forums (``/notes?forum=ID``: the submission and its replies, one forum a step). Each
paper becomes one line ``{…the submission note…, "replies": [notes…]}``, the shape of the
OpenReview dumps reader imports, so the file is imported like any other.

The file grows a page at a time and a small state file beside the cache says how far it
got: a run stopped by Ctrl-C, a network failure or a refusal keeps every whole page, and
the same command run again continues from the next offset. Offsets are stable while a
venue's submissions are; a venue still taking submissions may shift under a resumed run
(the import merges a paper met twice).

429 and 5xx answers are asked again, a bounded number of times, after the wait the
server names in ``Retry-After`` or a doubling one; a ``403 ChallengeRequiredError`` stops
the run with how to log in (:mod:`reader.sources.remote.openreview_login`).

``openreview-py``, OpenReview's own client, is not used: it brings requests and a dozen
other packages, reads a venue whole with no way to keep pages as they come or to continue
from an offset, and its retries print to standard output; this module is what reader needs
of it over the standard library client the other services use already.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

from reader.sources.remote import FetchError
from reader.sources.remote.client import (
    ACCEPT_JSON,
    Answer,
    Client,
    Endpoints,
    Failure,
    with_query,
)
from reader.sources.remote.openreview_login import (
    Credentials,
    challenge_message,
    how_to_log_in,
    is_challenge,
    log_in,
)
from reader.sources.remote.openreview_plan import (
    FetchState,
    Plan,
    forums_plan,
    load_state,
    save_state,
    venue_plan,
)

#: The most notes OpenReview gives in one answer.
PAGE_SIZE = 1000
#: Statuses asked again: too many requests, and the server's passing troubles.
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
RETRIES = 5
#: A wait longer than this (in Retry-After) stops the run instead: run it again later.
MAX_WAIT = 300.0
#: A page of a venue with its replies runs to tens of megabytes.
MAX_PAGE_BYTES = 512 * 1024 * 1024

__all__ = ["NotesFetcher", "Outcome", "Plan", "forums_plan", "venue_plan"]

#: Called after each page with the papers fetched so far and the total, when known.
Progress = Callable[[int, int | None], None]


@dataclass
class Outcome:
    """What a run left in ``path``: papers and replies written (by this run and the ones
    it continued), how far it got, and why it stopped early if it did."""

    path: Path
    papers: int = 0
    replies: int = 0
    done: int = 0
    total: int | None = None
    complete: bool = False
    #: Units (notes of a venue, forums of a list) already there when this run began.
    resumed_from: int = 0
    #: Why the run stopped before the end: "interrupted" or the problem.
    stopped: str | None = None
    #: Whether it stopped because it was asked to (Ctrl-C, esc), not for a problem.
    interrupted: bool = False
    problems: list[str] = field(default_factory=list)
    #: Answers asked again, and why ("429 (waited 2 s)").
    retried: list[str] = field(default_factory=list)


@dataclass
class _Page:
    """One step of a plan: its lines, how many units (notes, forums) it took, the total
    when known, the replies its lines hold, and problems met (a forum not found)."""

    lines: list[bytes]
    units: int
    total: int | None
    replies: int = 0
    problems: list[str] = field(default_factory=list)


class NotesFetcher:
    """Fetches plans over one client, logged in when credentials are given."""

    def __init__(
        self,
        client: Client,
        credentials: Credentials | None = None,
        *,
        page_size: int = PAGE_SIZE,
        retries: int = RETRIES,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.client = client
        if client.max_bytes is None:
            client.max_bytes = MAX_PAGE_BYTES
        self.credentials = credentials
        self.page_size = max(1, min(page_size, PAGE_SIZE))
        self.retries = retries
        self.sleep = sleep
        self.token: str | None = None
        #: Every answer asked again, and why ("429 (waited 2 s)").
        self.retried: list[str] = []
        #: Asked during a wait between tries too, so that a stop is not kept waiting.
        self._stopped: Callable[[], bool] | None = None

    @classmethod
    def from_env(
        cls, credentials: Credentials | None, timeout: float = 60.0, page_size: int = PAGE_SIZE,
        user_agent: str = "reader/0.1 (paper reader)",
    ) -> NotesFetcher:
        """A fetcher speaking to OpenReview, or where ``READER_OPENREVIEW_API`` points."""
        return cls(Client(Endpoints.from_env(), timeout, user_agent), credentials,
                   page_size=page_size)

    def run(
        self, plan: Plan, path: Path, state_path: Path, progress: Progress | None = None,
        stopped: Callable[[], bool] | None = None,
    ) -> Outcome:
        """Fetch ``plan`` into ``path``, continuing what ``state_path`` says an earlier run
        of the same plan into the same file left; every whole page is kept whatever stops
        the run (Ctrl-C included: the outcome then says "interrupted"; ``stopped``, asked
        before each request, stops it the same way, from another thread)."""
        state = load_state(state_path, plan, path)
        outcome = Outcome(path, resumed_from=state.next)
        self._stopped = stopped
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "r+b" if path.exists() else "w+b") as out:
            out.truncate(state.size)  # a page half written when the last run stopped
            out.seek(state.size)
            try:
                if self.credentials is not None and self.token is None:
                    self.token = log_in(self.client, self.credentials)
                pages = self._venue_pages if plan.params else self._forum_pages
                if stopped is not None and stopped():
                    raise KeyboardInterrupt
                for page in pages(plan, state):
                    out.write(b"".join(page.lines))
                    out.flush()
                    os.fsync(out.fileno())
                    state.size = out.tell()
                    state.next += page.units
                    state.papers += len(page.lines)
                    state.replies += page.replies
                    state.total = page.total
                    state.problems.extend(page.problems)
                    save_state(state_path, state)
                    if progress is not None:
                        progress(state.next, state.total)
                    done = state.total is not None and state.next >= state.total
                    if stopped is not None and not done and stopped():
                        raise KeyboardInterrupt  # stopped as Ctrl-C stops it: pages kept
                state.complete = True
                save_state(state_path, state)
            except KeyboardInterrupt:
                outcome.stopped, outcome.interrupted = "interrupted", True
            except FetchError as exc:
                outcome.stopped = str(exc)
            finally:
                out.truncate(state.size)
        outcome.papers, outcome.replies = state.papers, state.replies
        outcome.done, outcome.total = state.next, state.total
        outcome.complete, outcome.problems = state.complete, list(state.problems)
        outcome.retried = list(self.retried)
        return outcome

    # --- the pages of a plan ------------------------------------------------------------

    def _venue_pages(self, plan: Plan, state: FetchState) -> Iterator[_Page]:
        """The pages of the venue, from ``state.next`` on."""
        offset = state.next
        total = state.total
        while total is None or offset < total:
            params = dict(plan.params)
            params.update(offset=str(offset), limit=str(self.page_size))
            data = self._notes(params)
            notes = [n for n in data.get("notes", []) if isinstance(n, dict)]
            count = data.get("count")
            if isinstance(count, int) and count >= 0:
                total = count
            if not notes:
                return
            offset += len(notes)
            replies = [_replies_of(note) for note in notes]
            yield _Page([_line(note, found) for note, found in zip(notes, replies, strict=True)],
                        len(notes), total, sum(len(found) for found in replies))
            if total is None and len(notes) < self.page_size:
                return

    def _forum_pages(self, plan: Plan, state: FetchState) -> Iterator[_Page]:
        """A page for each forum, from ``state.next`` on."""
        total = len(plan.forums)
        for forum in plan.forums[state.next:]:
            notes = self._forum(forum)
            paper = next((n for n in notes if n.get("id") == forum), None)
            if paper is None:
                yield _Page([], 1, total,
                            problems=[f"{forum}: OpenReview has no such paper (or not public)"])
                continue
            replies = [n for n in notes if n is not paper]
            yield _Page([_line(paper, replies)], 1, total, len(replies))

    def _forum(self, forum: str) -> list[dict[str, Any]]:
        """Every note of one forum (the submission among them), however many pages."""
        notes: list[dict[str, Any]] = []
        while True:
            params = {"forum": forum, "offset": str(len(notes)), "limit": str(PAGE_SIZE)}
            data = self._notes(params, missing_ok=True)
            page = [n for n in data.get("notes", []) if isinstance(n, dict)]
            notes.extend(page)
            count = data.get("count")
            if len(page) < PAGE_SIZE or (isinstance(count, int) and len(notes) >= count):
                return notes

    # --- one answer -----------------------------------------------------------------------

    def _notes(self, params: dict[str, str], missing_ok: bool = False) -> dict[str, Any]:
        """The JSON object of a notes query, asked again on 429/5xx and broken connections
        up to ``retries`` times; FetchError when no good answer came."""
        url = with_query(self.client.endpoints.openreview, params)
        answer = self._answer(url)
        if missing_ok and answer.status == 404 and b"NotFound" in answer.body[:2000]:
            return {"notes": []}
        if is_challenge(answer.status, answer.body):
            raise FetchError(challenge_message(self.token is not None))
        if answer.status in (401, 403) and self.token is None:
            raise FetchError(f"{answer.status_line('OpenReview')}: log in to fetch: "
                             f"{how_to_log_in()}")
        try:
            text = answer.text()
            if answer.status >= 400:
                raise Failure(answer.status_line("OpenReview"))
            data = json.loads(text)
        except Failure as exc:
            raise FetchError(str(exc)) from None
        except (ValueError, RecursionError):
            raise FetchError("OpenReview's answer is not JSON reader can read") from None
        if not isinstance(data, dict) or not isinstance(data.get("notes"), list):
            raise FetchError("OpenReview's answer holds no notes")
        return data

    def _answer(self, url: str) -> Answer:
        """One answer that is not a passing trouble, waiting between tries as asked."""
        relogged = False
        for attempt in range(self.retries + 1):
            auth = f"Bearer {self.token}" if self.token else None
            try:
                answer = self.client.get(url, ACCEPT_JSON, authorization=auth)
            except Failure as exc:
                # Offline, a host asked once more after a second is enough: five tries
                # with their waits kept a user half a minute for the same answer.
                if not exc.transient or attempt == self.retries or (
                        exc.unreachable and attempt >= 1):
                    raise FetchError(f"OpenReview: {exc}") from None
                self._wait(_backoff(attempt), str(exc))
                continue
            if answer.status == 401 and self.credentials is not None and not relogged:
                # The token ran out (an hour by default) during a long fetch.
                relogged = True
                self.token = log_in(self.client, self.credentials)
                continue
            if answer.status not in RETRY_STATUSES:
                return answer
            if attempt == self.retries:
                raise FetchError(
                    f"{answer.status_line('OpenReview')} {self.retries + 1} times; gave up "
                    "(run the same command later to continue)"
                )
            wait = _retry_after(answer)
            if wait is not None and wait > MAX_WAIT:
                raise FetchError(
                    f"{answer.status_line('OpenReview')} and asks to wait {wait / 60:.0f} "
                    "minutes; run the same command then to continue"
                )
            self._wait(_backoff(attempt) if wait is None else wait, str(answer.status))
        raise AssertionError("unreachable")  # the loop returns or raises

    def _wait(self, seconds: float, why: str) -> None:
        self.retried.append(f"{why} (waited {seconds:g} s)")
        stopped = self._stopped
        if stopped is None or self.sleep is not time.sleep:
            self.sleep(seconds)
            return
        until = time.monotonic() + seconds
        while (left := until - time.monotonic()) > 0:
            if stopped():
                raise KeyboardInterrupt  # stopped while waiting to try again
            time.sleep(min(0.1, left))


def _backoff(attempt: int) -> float:
    """1, 2, 4, 8 … seconds, at most a minute."""
    return float(min(60, 2**attempt))


def _retry_after(answer: Answer) -> float | None:
    """The wait ``Retry-After`` names (seconds or an HTTP date), if the answer has one."""
    value = answer.retry_after
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _replies_of(note: dict[str, Any]) -> list[Any]:
    """The replies a venue query gave with a submission (``details.replies``, or the direct
    replies alone when only those came)."""
    details = note.get("details")
    if not isinstance(details, dict):
        return []
    replies = details.get("replies")
    if not isinstance(replies, list):
        replies = details.get("directReplies")
    return replies if isinstance(replies, list) else []


def _line(paper: dict[str, Any], replies: list[Any]) -> bytes:
    """One line of the file: the submission note, its ``replies`` beside its fields."""
    record = {k: v for k, v in paper.items() if k != "details"}
    record["replies"] = replies
    try:
        return json.dumps(record, ensure_ascii=False).encode() + b"\n"
    except UnicodeEncodeError:  # a lone surrogate (JSON allows "\ud800"): kept escaped
        return json.dumps(record).encode() + b"\n"
