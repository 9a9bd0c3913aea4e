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

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from reader.errors import NetworkError
from reader.models import PaperRecord
from reader.sources.remote.arxiv import fetch_arxiv
from reader.sources.remote.client import MAX_BYTES, Client, Endpoints, Outcome
from reader.sources.remote.crossref import crossref_record, fetch_crossref
from reader.sources.remote.ids import classify
from reader.sources.remote.markup import jats_to_text
from reader.sources.remote.openreview import fetch_openreview

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


# Requests to Crossref and OpenReview run side by side, but only a few at once (both services
# ask clients to be polite).
_WORKERS = 4
_SERVICE = {"arxiv": "arXiv", "doi": "Crossref", "openreview": "OpenReview"}


class FetchError(NetworkError):
    """One clear line for the user (names the id and the service)."""


@dataclass
class FetchResult:
    """The records fetched, in the order of the ids asked for, and one line per failed id."""

    records: list[PaperRecord] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


# --- fetching -------------------------------------------------------------------------------

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

    client = Client(endpoints or Endpoints.from_env(), timeout, user_agent)
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


def _run(client: Client, keys: list[tuple[str, str]]) -> dict[tuple[str, str], Outcome]:
    """Ask the services about every key, side by side, and gather what each became."""
    arxiv_ids = [ident for kind, ident in keys if kind == "arxiv"]
    jobs: list[Callable[[], dict[tuple[str, str], Outcome]]] = []
    if arxiv_ids:
        jobs.append(lambda: {("arxiv", i): o for i, o in fetch_arxiv(client, arxiv_ids).items()})
    for kind, ident in keys:
        if kind == "doi":
            jobs.append(_single(client, fetch_crossref, kind, ident))
        elif kind == "openreview":
            jobs.append(_single(client, fetch_openreview, kind, ident))
    outcomes: dict[tuple[str, str], Outcome] = {}
    if len(jobs) == 1:
        outcomes.update(jobs[0]())
        return outcomes
    with ThreadPoolExecutor(max_workers=min(_WORKERS, len(jobs))) as pool:
        for found in pool.map(lambda job: job(), jobs):
            outcomes.update(found)
    return outcomes


def _single(
    client: Client, getter: Callable[[Client, str], Outcome], kind: str, ident: str
) -> Callable[[], dict[tuple[str, str], Outcome]]:
    """A job fetching one id, which never raises (a bug must not cost the other ids)."""

    def job() -> dict[tuple[str, str], Outcome]:
        try:
            outcome = getter(client, ident)
        except Exception as exc:  # reported as that id's problem
            outcome = f"{_SERVICE[kind]}'s answer could not be read ({type(exc).__name__})"
        return {(kind, ident): outcome}

    return job


