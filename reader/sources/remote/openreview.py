"""OpenReview's API v2: one note by forum id, read with :mod:`reader.sources.openreview`."""

from __future__ import annotations

import json

from reader.sources import ImportFormatError, openreview
from reader.sources.remote.client import (
    ACCEPT_JSON,
    Client,
    Failure,
    Outcome,
    read_json,
    with_query,
)

# --- OpenReview -----------------------------------------------------------------------------


def fetch_openreview(client: Client, forum_id: str) -> Outcome:
    """The record of OpenReview note ``forum_id``, or the problem."""
    url = with_query(client.endpoints.openreview, {"id": forum_id})
    try:
        answer = client.get(url, ACCEPT_JSON)
    except Failure as exc:
        return str(exc)
    # OpenReview answers an unknown id with 404 and {"name": "NotFoundError", …}.
    if answer.status == 404 and b"NotFound" in answer.body[:2000]:
        return "OpenReview has no such paper"
    try:
        data = read_json(answer, "OpenReview")
    except Failure as exc:
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
