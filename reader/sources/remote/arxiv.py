"""arXiv's API: ids asked for in batches (as arXiv asks), the Atom feed read by
:mod:`reader.sources.arxiv_atom`, an id arXiv rejects by name retried alone."""

from __future__ import annotations

import re
import time

from reader.models import PaperRecord
from reader.sources import ImportFormatError, arxiv_atom
from reader.sources.remote.client import ACCEPT_ATOM, Client, Failure, Outcome, web_page, with_query

# arXiv's API terms ask for at most one request every three seconds, and long id lists make
# URLs that some servers refuse; so ids go in batches, one batch at a time.
ARXIV_BATCH = 100
ARXIV_PAUSE = 3.0


# --- arXiv ----------------------------------------------------------------------------------

_ARXIV_ERROR = "arXiv reported an error: "


def fetch_arxiv(client: Client, ids: list[str]) -> dict[str, Outcome]:
    """Every arXiv id's record or problem, asking in batches."""
    outcomes: dict[str, Outcome] = {}
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


def _arxiv_batch(client: Client, ids: list[str], retry: bool) -> dict[str, Outcome]:
    """One request for ``ids``; an id arXiv rejects by name is retried without the others."""
    # Without max_results arXiv stops at 10 entries, whatever id_list holds.
    url = with_query(client.endpoints.arxiv, {"id_list": ",".join(ids),
                                                "max_results": str(len(ids))})
    try:
        answer = client.get(url, ACCEPT_ATOM)
    except Failure as exc:
        return dict.fromkeys(ids, str(exc))
    text = answer.text()
    page = web_page(answer, text)
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
        outcomes: dict[str, Outcome] = dict.fromkeys(named or ids, message)
        rest = [i for i in ids if i not in outcomes]
        if rest and retry:
            outcomes.update(_arxiv_batch(client, rest, retry=False))
        else:
            outcomes.update(dict.fromkeys(rest, message))
        return outcomes
    return _arxiv_outcomes(ids, result.records, result.problems)


def _arxiv_outcomes(
    ids: list[str], records: list[PaperRecord], problems: list[str]
) -> dict[str, Outcome]:
    """Match a feed's entries to the ids asked for."""
    by_id: dict[str, PaperRecord] = {}
    for record in records:
        if record.arxiv_id:
            by_id.setdefault(record.arxiv_id.lower(), record)
    errors = [p.partition(_ARXIV_ERROR)[2] for p in problems if _ARXIV_ERROR in p]
    # A feed cut off mid-way (the parser reports where) may have lost the missing entries.
    damage = next((p for p in problems if "XML is broken" in p), None)
    outcomes: dict[str, Outcome] = {}
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


