"""Highlights and notes on a passage of a review, as on the abstract: chosen in the reading
view with the abstract's keys, stored by reply id with their place and words, shown again
when the review is, listed with the paper's highlights (by `reader highlights` too),
removable, and kept through a later edit of the review. Each test imports real
OpenReview replies into a real library."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from textual.pilot import Pilot
from textual.widgets import Input, Static

from reader.cli import cli
from reader.library import Library, shown_reply
from reader.ui.app import ReaderApp
from reader.ui.paper_parts import paper_parts
from reader.ui.screens.reading import ReadingScreen
from reader.ui.widgets.paper_view import PaperView
from reader.ui.widgets.replies import ReplyBox
from tests.test_app import SIZE, settle
from tests.test_signals_ui import open_reading, paper_of
from tests.waiting import until

DATA = Path(__file__).parent / "data"
#: A paper of the sample, and its first review (the first reply in its discussion).
FIRST = "DkHt2K1g2Y"


def _papers() -> list[dict[str, Any]]:
    return [json.loads(line) for line in (DATA / "openreview-replies-3.jsonl").open()]


def _write(path: Path, papers: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(paper) + "\n" for paper in papers))
    return path


def _conference(library: Library, tmp_path: Path) -> Library:
    library.import_files([_write(tmp_path / "conference.jsonl", _papers())])
    library.sync_index()
    library.reviews.sync_reviews()
    return library


async def _highlight_first_review(app: ReaderApp, pilot: Pilot, library: Library,
                                  note: str) -> tuple[ReadingScreen, str, str]:
    """In the reading view of FIRST, go to its first review, select its first sentence
    and highlight it with ``note``; returns the screen, the review's id and the sentence."""
    screen = await open_reading(app, pilot, paper_of(library, FIRST))
    await pilot.press("right_square_bracket")
    await pilot.press("right_parenthesis")
    await pilot.pause()
    target = screen.target
    assert target is not None and target.posting.reply.is_review
    assert screen.selection is not None
    reply = target.posting.reply
    shown = shown_reply(reply)
    sentence = shown.text[slice(*screen.selection)]
    assert sentence == shown.text[slice(*shown.sentences()[0])]
    await pilot.press("h")
    await pilot.pause()
    app.screen.query_one(Input).value = note
    await pilot.press("enter")
    await settle(app, pilot)
    return screen, reply.id, sentence


def _box(screen: ReadingScreen, reply_id: str) -> ReplyBox:
    return next(box for box in screen.replies if box.posting.reply.id == reply_id)


def _passage_styled(screen: ReadingScreen, box: ReplyBox, quote: str) -> bool:
    """Whether the reply shows ``quote`` in the style of a highlighted passage."""
    text = box.body
    start = text.plain.find(quote)
    assert start >= 0 and quote in str(box.render())
    end = start + len(quote)
    passage = screen.query_one(PaperView).get_component_rich_style("paper-view--passage")
    return any(span.start <= start and span.end >= end and span.style == passage
               for span in text.spans)


async def test_a_review_passage_is_highlighted_with_the_abstracts_keys_and_kept(
    library: Library, tmp_path: Path
) -> None:
    _conference(library, tmp_path)
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen, reply_id, sentence = await _highlight_first_review(
            app, pilot, library, "the claim to check")
        rows = library.store.conn.execute(
            "SELECT reply_id, quote, note, orphaned FROM highlights").fetchall()
        assert rows == [(reply_id, sentence, "the claim to check", 0)]
        # Shown at once: in the review, and listed with the paper's highlights.
        await settle(app, pilot)
        assert _passage_styled(screen, _box(screen, reply_id), sentence)
        listed = str(screen.query_one("#paper-highlights", Static).render())
        assert sentence[:40] in listed and "in Official Review · Reviewer_" in listed
        # The abstract marks no passage: the one highlighted is the review's.
        view = screen.query_one(PaperView)
        passage = view.get_component_rich_style("paper-view--passage")
        abstract = paper_parts(screen.paper, frozenset(), view.get_component_rich_style).abstract
        assert not [span for span in abstract.spans if span.style == passage]

    # The app again, on the same library: the highlight shows with the review.
    again = Library(library.paths.root)
    try:
        app = ReaderApp(again)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            screen = await open_reading(app, pilot, paper_of(again, FIRST))
            await settle(app, pilot)
            assert _passage_styled(screen, _box(screen, reply_id), sentence)
            assert "the claim to check" in str(
                screen.query_one("#paper-highlights", Static).render())
            # Removed with the abstract's key, on the same passage.
            await pilot.press("right_square_bracket", "right_parenthesis", "H")
            await settle(app, pilot)
            assert again.store.conn.execute("SELECT count(*) FROM highlights").fetchone()[0] == 0
            assert not _passage_styled(screen, _box(screen, reply_id), sentence)
    finally:
        again.close()


async def test_escape_clears_a_selection_in_a_review(library: Library, tmp_path: Path) -> None:
    _conference(library, tmp_path)
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = await open_reading(app, pilot, paper_of(library, FIRST))
        await pilot.press("right_square_bracket", "right_parenthesis", "right_curly_bracket")
        await pilot.pause()
        assert screen.selection is not None and screen.target is not None
        box = screen.target
        await pilot.press("escape")
        await pilot.pause()
        assert screen.selection is None and app.screen is screen
        assert box.posting.reply.id and screen.target is None


def test_a_review_highlight_survives_an_edit_of_the_review(
    library: Library, tmp_path: Path
) -> None:
    _conference(library, tmp_path)
    paper_id = paper_of(library, FIRST)
    review = library.replies(paper_id)[0]
    shown = shown_reply(review)
    start, end = shown.sentences()[1]
    quote = shown.text[start:end]
    kept = library.add_highlight(paper_id, start, end, "kept", reply_id=review.id)
    gone_start, gone_end = shown.sentences()[0]
    gone = library.add_highlight(paper_id, gone_start, gone_end, reply_id=review.id)

    # The reviewer rewrites the start of the summary: the first sentence is gone, the
    # second moves.
    papers = _papers()
    note = next(r for r in papers[0]["replies"] if r["id"] == review.id)
    first_section = next(name for name, _ in review.texts if name == "summary")
    body = note["content"][first_section]["value"]
    first_sentence = shown.text[gone_start:gone_end]
    assert body.startswith(first_sentence[:20])
    note["content"][first_section]["value"] = (
        "After the rebuttal, a longer opening line than before. " + body[len(first_sentence):])
    note["mdate"] = note["mdate"] + 86_400_000
    library.import_files([_write(tmp_path / "edited.jsonl", papers)])

    highlights = {h.id: h for h in library.paper(paper_id).highlights}  # type: ignore[union-attr]
    assert set(highlights) == {kept, gone}  # nothing dropped
    moved = highlights[kept]
    assert moved.quote == quote and moved.moved and not moved.orphaned
    edited = shown_reply(library.replies(paper_id)[0])
    assert edited.text[moved.start:moved.end] == quote
    assert highlights[gone].orphaned and highlights[gone].reply_id == review.id


def test_saving_a_review_highlight_never_reindexes_review_text(
    library: Library, tmp_path: Path
) -> None:
    _conference(library, tmp_path)
    paper_id = paper_of(library, FIRST)
    review = library.replies(paper_id)[0]
    start, end = shown_reply(review).sentences()[0]
    began = time.perf_counter()
    library.add_highlight(paper_id, start, end, "a note", reply_id=review.id)
    took = time.perf_counter() - began
    assert took < 0.5  # ≤ 50 ms on an idle machine; a busy one is not a freeze
    assert library.reviews.sync_reviews() == 0  # the words of the replies did not change
    # The paper's own fields hold the highlight: `highlight:` finds it.
    word = max(shown_reply(review).text[start:end].split(), key=len).strip(".,;:()")
    library.sync_index()
    assert paper_id in library.search(f"highlight:{word}").ids


def test_a_highlight_needs_a_passage_of_that_papers_reply(
    library: Library, tmp_path: Path
) -> None:
    _conference(library, tmp_path)
    paper_id = paper_of(library, FIRST)
    other = library.replies(paper_of(library, "sLkis6UGKk"))[0]
    from reader.library import StoreError

    for reply_id, span in ((other.id, (0, 5)), (library.replies(paper_id)[0].id, (0, 10**6))):
        try:
            library.add_highlight(paper_id, *span, reply_id=reply_id)
        except StoreError:
            continue
        raise AssertionError(f"{reply_id} {span} was accepted")


def test_reader_highlights_lists_review_passages_with_their_review(
    library: Library, tmp_path: Path
) -> None:
    _conference(library, tmp_path)
    paper_id = paper_of(library, FIRST)
    review = library.replies(paper_id)[0]
    start, end = shown_reply(review).sentences()[0]
    library.add_highlight(paper_id, start, end, "check this", reply_id=review.id)
    library.close()
    runner = CliRunner()
    plain = runner.invoke(cli, ["--library", str(library.paths.root), "highlights", FIRST])
    assert plain.exit_code == 0, plain.output
    assert "check this" in plain.output and f"Official Review · {review.signer}" in plain.output
    as_json = runner.invoke(
        cli, ["--library", str(library.paths.root), "highlights", FIRST, "--json"])
    assert as_json.exit_code == 0, as_json.output
    rows = json.loads(as_json.output)
    assert rows[0]["reply_id"] == review.id and rows[0]["reply"] == (
        f"Official_Review · {review.signer}")
    assert rows[0]["note"] == "check this" and rows[0]["status"] == "in place"


def test_a_revised_abstract_leaves_the_review_highlights_alone(
    library: Library, tmp_path: Path
) -> None:
    _conference(library, tmp_path)
    paper_id = paper_of(library, FIRST)
    review = library.replies(paper_id)[0]
    start, end = shown_reply(review).sentences()[0]
    kept = library.add_highlight(paper_id, start, end, reply_id=review.id)
    papers = _papers()
    papers[0]["content"]["abstract"] = "A wholly new abstract, with none of the old words."
    papers[0]["mdate"] = papers[0]["mdate"] + 86_400_000
    library.import_files([_write(tmp_path / "revised.jsonl", papers)])
    paper = library.paper(paper_id)
    assert paper is not None and paper.abstract.startswith("A wholly new abstract")
    (highlight,) = paper.highlights
    assert highlight.id == kept and (highlight.start, highlight.end) == (start, end)
    assert not highlight.orphaned and not highlight.moved


async def test_highlighting_a_review_leaves_it_where_it_was_on_screen(
    library: Library, tmp_path: Path
) -> None:
    """`]` leaves the view a line above the review it goes to; the highlight then listed
    above the reviews pushed that review down the screen by as many lines as it took."""
    _conference(library, tmp_path)
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = await open_reading(app, pilot, paper_of(library, FIRST))
        await pilot.press("right_square_bracket", "right_parenthesis")
        await pilot.pause()
        view = screen.query_one(PaperView)
        assert screen.target is not None
        reply_id = screen.target.posting.reply.id

        def on_screen() -> int:
            top = next(y for y, box in screen._reply_tops() if box.posting.reply.id == reply_id)
            return top - round(view.scroll_y)

        before = on_screen()
        await pilot.press("h")
        await pilot.pause()
        await pilot.press("enter")
        await settle(app, pilot)
        await until(pilot, lambda: "in Official Review" in str(
            screen.query_one("#paper-highlights", Static).render()), "the highlight listed")
        await until(pilot, lambda: on_screen() == before, "the review where it was", timeout=5)


def test_a_review_highlight_in_the_librarys_own_export_is_said_and_no_change_of_marks(
    library: Library, tmp_path: Path
) -> None:
    """A JSON or CSV export carries a review's highlight, which an import cannot place (no
    export carries the replies): the export says so, and importing the export again finds
    the paper's marks unchanged, not "kept its own" against the file's."""
    _conference(library, tmp_path)
    paper_id = paper_of(library, FIRST)
    review = library.replies(paper_id)[0]
    start, end = shown_reply(review).sentences()[0]
    library.add_highlight(paper_id, start, end, "check this", reply_id=review.id)
    library.set_starred(paper_id, True)
    library.close()
    runner = CliRunner()
    root = str(library.paths.root)
    for fmt in ("json", "csv"):
        out = tmp_path / f"own.{fmt}"
        done = runner.invoke(cli, ["--library", root, "export", "-q", f"key:{_key(root)}",
                                   "--format", fmt, "-o", str(out)])
        assert done.exit_code == 0, done.output
        assert "highlights in replies (1)" in done.output, done.output
        again = runner.invoke(cli, ["--library", root, "import", "--dry-run", str(out)])
        assert again.exit_code == 0, again.output
        assert "1 unchanged" in again.output and "kept its own" not in again.output, (
            again.output)
    # A note file names the review in words, as the window and `reader highlights` do.
    notes = runner.invoke(cli, ["--library", root, "notes", "export", str(tmp_path / "notes")])
    assert notes.exit_code == 0, notes.output
    [written] = (tmp_path / "notes").glob("*.md")
    assert f"— in Official Review · {review.signer}" in written.read_text(encoding="utf-8")


def _key(root: str) -> str:
    library = Library(Path(root))
    try:
        paper = library.paper(paper_of(library, FIRST))
        assert paper is not None
        return paper.citekey
    finally:
        library.close()
