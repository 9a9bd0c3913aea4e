"""What an import works out of a record alone: the digest that tells two records of one
file apart must see every field that says something about the paper."""

from __future__ import annotations

from msgspec.structs import fields, replace

from reader.intake.prepare import fingerprint, prepare
from reader.models import PaperRecord
from reader.signals import Reply, Signals

FULL = PaperRecord(
    abstract="An abstract long enough to be sketched, so that its revision would be found again.",
    title="A title",
    authors=["Ada Lovelace"],
    venue="ICLR",
    year=2026,
    keywords=["graphs"],
    url="https://example.org/a",
    doi="10.1234/abc",
    source="a.bib",
    arxiv_id="2601.00001",
    openreview_id="abc123",
    date="2026-01-15",
    modified="2026-01-20T10:00:00Z",
    tldr="In short.",
    primary_area="learning",
    kind="article",
    citekey="lovelace2026title",
    csl={"volume": "3"},
    extra={"bibtex": {"note": "x"}},
    note="A note.",
    aliases=["ada26"],
    tags=["vigtig"],
)

CHANGED = {
    "abstract": "Another abstract.", "title": "Another", "title_derived": True,
    "authors": ["Alan Turing"], "venue": "NeurIPS", "year": 2025, "keywords": ["trees"],
    "url": "https://example.org/b", "doi": "10.1234/abd", "source": "b.bib",
    "arxiv_id": "2601.00002", "openreview_id": "abc124", "date": "2026-01-16",
    "modified": "2026-01-21T10:00:00Z",
    "withdrawn": True, "tldr": "Briefly.", "primary_area": "vision", "kind": "book",
    "citekey": "other", "csl": {"volume": "4"}, "extra": {"bibtex": {"note": "y"}},
    "note": "Another note.", "aliases": ["alan25"],
    "tags": ["later"], "tags_rewritten": [("Later", "later")],
    "replies": [Reply("r1", "abc123", "abc123", "Official_Review", {"rating": 6})],
    "signals": Signals(decision="poster"),
    "starred": True, "read": True, "highlights": [("A quote", "its note")],
    "replies_to_come": (("r1", 1769000000000),),
}


def test_every_field_but_the_source_and_the_tags_as_written_changes_the_digest() -> None:
    assert {f.name for f in fields(PaperRecord)} == set(CHANGED)
    for name, value in CHANGED.items():
        other = replace(FULL, **{name: value})
        # Where a record was read, and how the file wrote its tags, say nothing of its paper.
        same = name in ("source", "tags_rewritten")
        assert (fingerprint(other) == fingerprint(FULL)) is same, name


def test_dicts_are_digested_whatever_their_key_order() -> None:
    one = replace(FULL, csl={"volume": "3", "issue": "2"})
    two = replace(FULL, csl={"issue": "2", "volume": "3"})
    assert fingerprint(one) == fingerprint(two)


def test_a_prepared_record_has_its_identities() -> None:
    prepared = prepare(replace(FULL, authors=["Anonymous", "Ada Lovelace"]))
    assert prepared.record.authors == ["Ada Lovelace"]
    assert prepared.doi == "10.1234/abc" and prepared.key and len(prepared.sketch) == 16
    assert prepared.wanted_key == "lovelace2026title" and prepared.key_base == ""
    assert prepare(replace(FULL, citekey=None)).key_base.startswith("lovelace2026")


def test_a_sketch_is_made_of_the_start_of_a_text() -> None:
    """An abstract of megabytes is sketched from its first SKETCH_CHARS characters, as
    all of any real abstract is."""
    from reader.intake.identity import SKETCH_CHARS, sketch

    start = " ".join(f"word{i}" for i in range(SKETCH_CHARS // 4))[:SKETCH_CHARS]
    assert sketch(start + " and then many more words" * 100_000) == sketch(start)
