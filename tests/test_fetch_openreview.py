"""Fetching papers with their replies from OpenReview's API v2: the real fetcher and the
``reader fetch openreview`` command against a local server on 127.0.0.1.

The server answers from recordings built out of real notes: twelve ICLR 2026 submissions
with their replies, as OpenReview served them (tests/data/remote/openreview-iclr2026-12
.jsonl.gz, a copy of lines of the shared sample), turned back into the notes of API v2
answers: a venue query's pages with ``details.replies``, a ``/notes?forum=ID`` answer.
It pages by ``offset``/``limit``, answers 429 and 503 when told to, refuses anonymous
requests with 403 ChallengeRequiredError, and logs in with ``POST /login``. Nothing here
reaches beyond the loopback: READER_OPENREVIEW_API points at a closed local port unless a
test points it at the server.
"""

from __future__ import annotations

import copy
import gzip
import json
import sys
import threading
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from reader.cli import cli
from reader.library import Library
from reader.sources.remote import Endpoints, openreview_login
from reader.sources.remote.client import Client
from reader.sources.remote.openreview_login import Credentials, find_credentials, how_to_log_in
from reader.sources.remote.openreview_notes import NotesFetcher, Outcome, forums_plan, venue_plan
from tests.test_remote import ReplayHandler, ReplayServer, Reply, closed_port

RECORDING = Path(__file__).parent / "data" / "remote" / "openreview-iclr2026-12.jsonl.gz"
VENUE = "ICLR.cc/2026/Conference"
INVITATION = f"{VENUE}/-/Submission"
USERNAME = "reader-tester@example.org"
PASSWORD = "correct horse battery staple"
TOKEN = "tok-3f8a1c"
#: The keyring lookup itself, before the fixture below puts it out of reach.
FROM_KEYRING = openreview_login._from_keyring
CHALLENGE = json.dumps({
    "name": "ChallengeRequiredError", "message": "Challenge required", "status": 403,
}).encode()


def _sample() -> list[dict[str, Any]]:
    """The recorded papers, one object each with its ``replies``, as the dump holds them."""
    with gzip.open(RECORDING, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle.read().split("\n") if line]


SAMPLE = _sample()
IDS = [paper["id"] for paper in SAMPLE]


def _submission_note(paper: dict[str, Any]) -> dict[str, Any]:
    """A dump's paper as the API v2 note it was: content values wrapped in ``{"value"}``,
    the venue id, invitations and signatures of an ICLR 2026 submission."""
    number = paper["number"]
    status = "Withdrawn_Submission" if paper["withdrawn"] else "Submission"
    content = {key: {"value": value} for key, value in paper["content"].items()}
    content["venueid"] = {"value": f"{VENUE}/{status}"}
    return {
        "id": paper["id"], "forum": paper["id"], "number": number,
        "cdate": paper["cdate"], "tcdate": paper["cdate"], "mdate": paper["mdate"],
        "tmdate": paper["mdate"], "license": "CC BY 4.0",
        "signatures": [f"{VENUE}/Submission{number}/Authors"], "readers": ["everyone"],
        "writers": [VENUE, f"{VENUE}/Submission{number}/Authors"],
        "invitations": [INVITATION, f"{VENUE}/-/Post_Submission"], "domain": VENUE,
        "version": 2, "content": content,
    }


class NotesServer(ReplayServer):
    """Answers notes queries from the recording, pages by offset and limit, and plays the
    troubles a test queues for a given offset (or a forum) first."""

    def __init__(self) -> None:
        ThreadingHTTPServer.__init__(self, ("127.0.0.1", 0), NotesHandler)
        self.seen = []
        self.release = threading.Event()
        self.notes = {paper["id"]: _submission_note(paper) for paper in SAMPLE}
        self.replies = {paper["id"]: paper["replies"] for paper in SAMPLE}
        #: offset (or forum id) → answers to give before the good one
        self.troubles: dict[str, list[Reply]] = {}
        #: Notes requests without ``Bearer TOKEN`` are refused with 403 ChallengeRequired.
        self.require_login = False
        self.logins: list[dict[str, Any]] = []

    def notes_asked(self) -> list[dict[str, list[str]]]:
        return [seen.query for seen in self.seen if seen.path == "/openreview/notes"]

    def reply(self, path: str, query: dict[str, list[str]]) -> Reply:
        if path != "/openreview/notes":
            return Reply(404, "text/plain", b"no such path")
        one = {key: values[0] for key, values in query.items()}
        queued = self.troubles.get(one.get("forum") or one.get("offset", ""))
        if queued:
            return queued.pop(0)
        headers = self.seen[-1].headers
        if self.require_login and headers.get("Authorization") != f"Bearer {TOKEN}":
            return Reply(403, "application/json", CHALLENGE)
        offset, limit = int(one.get("offset", 0)), int(one.get("limit", 1000))
        if "forum" in one:
            forum = one["forum"]
            if forum not in self.notes:
                return Reply(body=b'{"notes": [], "count": 0}')
            notes = [self.notes[forum], *self.replies[forum]]
        elif one.get("invitation") == INVITATION:
            notes = []
            for forum, note in self.notes.items():
                note = copy.deepcopy(note)
                if one.get("details") == "replies":
                    note["details"] = {"replies": self.replies[forum]}
                notes.append(note)
        elif "invitation" in one:
            notes = []  # an invitation with no notes, or none by that name
        else:
            return Reply(400, "application/json", b'{"name": "ValidationError"}')
        page = notes[offset:offset + limit]
        return Reply(body=json.dumps({"notes": page, "count": len(notes)}).encode())

    def log_in(self, body: bytes) -> Reply:
        sent = json.loads(body)
        self.logins.append(sent)
        if sent == {"id": USERNAME, "password": PASSWORD}:
            return Reply(body=json.dumps({"token": TOKEN, "user": {"id": USERNAME}}).encode())
        return Reply(400, "application/json", json.dumps({
            "name": "InvalidCredentialsError", "message": "Invalid username or password",
        }).encode())


class NotesHandler(ReplayHandler):
    server: NotesServer

    def do_POST(self) -> None:  # the name http.server calls
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        reply = (self.server.log_in(body) if self.path == "/openreview/login"
                 else Reply(404, "text/plain", b"no such path"))
        self.send_response(reply.status)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        self.wfile.write(reply.body)


@pytest.fixture(autouse=True)
def _loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """No proxy between the client and 127.0.0.1, no login from the environment, and
    OpenReview itself out of reach: a closed local port unless a test names the server."""
    for name in ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY",
                 "ALL_PROXY", "OPENREVIEW_USERNAME", "OPENREVIEW_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("READER_OPENREVIEW_API", f"http://127.0.0.1:{closed_port()}/notes")
    # The OS keyring (if the optional package is installed) is not the tester's to read.
    monkeypatch.setattr(
        "reader.sources.remote.openreview_login._from_keyring", lambda username: None
    )


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[NotesServer]:
    replay = NotesServer()
    thread = threading.Thread(target=replay.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    monkeypatch.setenv("READER_OPENREVIEW_API", f"{replay.base}/openreview/notes")
    try:
        yield replay
    finally:
        replay.shutdown()
        replay.server_close()
        thread.join(5)


def _fetcher(server: NotesServer, waits: list[float], credentials: Credentials | None = None,
             page_size: int = 5) -> NotesFetcher:
    endpoints = Endpoints(openreview=f"{server.base}/openreview/notes")
    client = Client(endpoints, 5.0, "reader-tests")
    return NotesFetcher(client, credentials, page_size=page_size, sleep=waits.append)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line]


def _run_cli(library_dir: Path, *args: str) -> Any:
    return CliRunner().invoke(cli, ["--library", str(library_dir), *args], obj={})


# --- the fetcher ----------------------------------------------------------------------------


def test_a_venue_comes_page_by_page_with_every_reply(server: NotesServer, tmp_path: Path):
    seen: list[tuple[int, int | None]] = []
    out = tmp_path / "venue.jsonl"
    outcome = _fetcher(server, []).run(
        venue_plan(VENUE), out, tmp_path / "state.json",
        lambda done, total: seen.append((done, total)),
    )

    assert outcome.complete and outcome.stopped is None
    asked = server.notes_asked()
    assert [q["offset"] for q in asked] == [["0"], ["5"], ["10"]]
    assert all(q["limit"] == ["5"] and q["invitation"] == [INVITATION]
               and q["details"] == ["replies"] for q in asked)
    assert seen == [(5, 12), (10, 12), (12, 12)]
    lines = _lines(out)
    assert [line["id"] for line in lines] == IDS
    # The shape of the dumps: the submission, its replies beside its fields, no details.
    for line, paper in zip(lines, SAMPLE, strict=True):
        assert "details" not in line
        assert line["replies"] == paper["replies"]
        assert line["content"]["title"] == {"value": paper["content"]["title"]}
    assert outcome.papers == 12
    assert outcome.replies == sum(len(p["replies"]) for p in SAMPLE)


def test_429_waits_as_retry_after_says_then_goes_on(server: NotesServer, tmp_path: Path):
    server.troubles["5"] = [Reply(429, "application/json", b'{"name": "RateLimitError"}',
                                  {"Retry-After": "7"})]
    waits: list[float] = []
    outcome = _fetcher(server, waits).run(venue_plan(VENUE), tmp_path / "v.jsonl",
                                          tmp_path / "s.json")
    assert outcome.complete
    assert waits == [7.0]
    assert [q["offset"] for q in server.notes_asked()] == [["0"], ["5"], ["5"], ["10"]]
    assert [line["id"] for line in _lines(tmp_path / "v.jsonl")] == IDS


def test_503_is_asked_again_after_a_growing_wait(server: NotesServer, tmp_path: Path):
    server.troubles["0"] = [Reply(503, "text/html", b"<html>down</html>"),
                            Reply(502, "text/plain", b"bad gateway")]
    waits: list[float] = []
    outcome = _fetcher(server, waits).run(venue_plan(VENUE), tmp_path / "v.jsonl",
                                          tmp_path / "s.json")
    assert outcome.complete and outcome.papers == 12
    assert waits == [1.0, 2.0]


def test_retries_are_bounded_and_the_pages_before_are_kept(server: NotesServer,
                                                            tmp_path: Path):
    server.troubles["10"] = [Reply(503, "text/plain", b"down")] * 10
    waits: list[float] = []
    outcome = _fetcher(server, waits).run(venue_plan(VENUE), tmp_path / "v.jsonl",
                                          tmp_path / "s.json")
    assert not outcome.complete
    assert outcome.stopped is not None and "503" in outcome.stopped
    assert "6 times" in outcome.stopped and "continue" in outcome.stopped
    assert len(waits) == 5
    assert [line["id"] for line in _lines(tmp_path / "v.jsonl")] == IDS[:10]


def test_a_challenge_says_how_to_log_in(server: NotesServer, tmp_path: Path):
    server.require_login = True
    outcome = _fetcher(server, []).run(venue_plan(VENUE), tmp_path / "v.jsonl",
                                       tmp_path / "s.json")
    assert outcome.papers == 0
    message = outcome.stopped or ""
    assert "403 ChallengeRequiredError" in message
    assert "OPENREVIEW_USERNAME" in message and "OPENREVIEW_PASSWORD" in message
    assert "keyring" in message
    assert "\n" not in message


def test_login_gives_a_bearer_token_for_every_request(server: NotesServer, tmp_path: Path):
    server.require_login = True
    outcome = _fetcher(server, [], Credentials(USERNAME, PASSWORD)).run(
        venue_plan(VENUE), tmp_path / "v.jsonl", tmp_path / "s.json")
    assert outcome.complete and outcome.papers == 12
    assert server.logins == [{"id": USERNAME, "password": PASSWORD}]
    notes = [s for s in server.seen if s.path == "/openreview/notes"]
    assert notes and all(s.headers["Authorization"] == f"Bearer {TOKEN}" for s in notes)
    assert PASSWORD not in repr(Credentials(USERNAME, PASSWORD))
    assert PASSWORD not in (tmp_path / "s.json").read_text()


def test_a_refused_login_is_one_line_without_the_password(server: NotesServer,
                                                         tmp_path: Path):
    outcome = _fetcher(server, [], Credentials(USERNAME, "wrong")).run(
        venue_plan(VENUE), tmp_path / "v.jsonl", tmp_path / "s.json")
    message = outcome.stopped or ""
    assert message.startswith("OpenReview refused the login from the environment")
    assert "Invalid username or password" in message
    assert "wrong" not in message and USERNAME not in message
    assert server.notes_asked() == []


def test_ctrl_c_keeps_the_pages_and_a_rerun_continues(server: NotesServer, tmp_path: Path):
    out, state = tmp_path / "v.jsonl", tmp_path / "s.json"

    def interrupt_after_first_page(done: int, total: int | None) -> None:
        if done >= 5:
            raise KeyboardInterrupt

    first = _fetcher(server, []).run(venue_plan(VENUE), out, state, interrupt_after_first_page)
    assert first.stopped == "interrupted" and not first.complete
    assert [line["id"] for line in _lines(out)] == IDS[:5]

    server.seen.clear()
    second = _fetcher(server, []).run(venue_plan(VENUE), out, state)
    assert second.complete and second.resumed_from == 5
    assert [q["offset"] for q in server.notes_asked()] == [["5"], ["10"]]
    assert [line["id"] for line in _lines(out)] == IDS
    assert second.papers == 12

    # Done: the next run fetches everything again (reviews change).
    server.seen.clear()
    third = _fetcher(server, []).run(venue_plan(VENUE), out, state)
    assert third.resumed_from == 0 and [line["id"] for line in _lines(out)] == IDS
    assert [q["offset"] for q in server.notes_asked()] == [["0"], ["5"], ["10"]]


def test_a_half_written_page_is_cut_off_before_continuing(server: NotesServer,
                                                          tmp_path: Path):
    out, state = tmp_path / "v.jsonl", tmp_path / "s.json"

    def interrupt(done: int, total: int | None) -> None:
        raise KeyboardInterrupt

    _fetcher(server, []).run(venue_plan(VENUE), out, state, interrupt)
    with open(out, "ab") as handle:
        handle.write(b'{"id": "half a li')  # as a crash in the middle of a write leaves
    outcome = _fetcher(server, []).run(venue_plan(VENUE), out, state)
    assert outcome.complete
    assert [line["id"] for line in _lines(out)] == IDS


def test_forums_each_with_their_replies(server: NotesServer, tmp_path: Path):
    wanted = [IDS[3], "NoSuchPaper1", IDS[0]]
    outcome = _fetcher(server, []).run(forums_plan(wanted, "some"), tmp_path / "f.jsonl",
                                       tmp_path / "s.json")
    assert outcome.complete and outcome.papers == 2
    assert outcome.problems == ["NoSuchPaper1: OpenReview has no such paper (or not public)"]
    lines = _lines(tmp_path / "f.jsonl")
    assert [line["id"] for line in lines] == [IDS[3], IDS[0]]
    assert lines[0]["replies"] == SAMPLE[3]["replies"]
    assert [q["forum"] for q in server.notes_asked()] == [[w] for w in wanted]


def test_an_unreachable_server_stops_with_the_reason(tmp_path: Path):
    endpoints = Endpoints(openreview=f"http://127.0.0.1:{closed_port()}/notes")
    waits: list[float] = []
    fetcher = NotesFetcher(Client(endpoints, 2.0, "reader-tests"), retries=2,
                           sleep=waits.append)
    outcome: Outcome = fetcher.run(venue_plan(VENUE), tmp_path / "v.jsonl",
                                   tmp_path / "s.json")
    assert outcome.papers == 0 and "could not reach 127.0.0.1" in (outcome.stopped or "")
    # Asked once more after a second (a passing blip), not five times over half a minute.
    assert waits == [1.0]


@pytest.mark.parametrize(
    ("venue", "param"),
    [
        (VENUE, ("invitation", INVITATION)),
        (INVITATION, ("invitation", INVITATION)),
        (f"{VENUE}/Withdrawn_Submission", ("content.venueid", f"{VENUE}/Withdrawn_Submission")),
    ],
)
def test_what_a_venue_asks_for(venue: str, param: tuple[str, str]):
    assert venue_plan(venue).params == (param, ("details", "replies"))


# --- the command ----------------------------------------------------------------------------


def test_the_command_fetches_a_venue_and_imports_it(server: NotesServer, tmp_path: Path):
    lib = tmp_path / "lib"
    result = _run_cli(lib, "fetch", "openreview", "--venue", VENUE, "--page-size", "5")
    assert result.exit_code == 0, result.output
    replies = sum(len(p["replies"]) for p in SAMPLE)
    assert f"Fetched 12 papers with {replies} replies from OpenReview" in result.output
    written = lib / "cache" / "openreview" / "ICLR.cc-2026-Conference.jsonl"
    assert written.exists() and len(_lines(written)) == 12
    library = Library(lib)
    try:
        papers = list(library.store.iter_papers())
        assert sorted(p.openreview_id or "" for p in papers) == sorted(IDS)
        assert sum(p.withdrawn for p in papers) == sum(p["withdrawn"] for p in SAMPLE)
    finally:
        library.close()


def test_the_file_written_imports_through_reader_import(server: NotesServer, tmp_path: Path):
    out = tmp_path / "iclr.jsonl"
    result = _run_cli(tmp_path / "a", "fetch", "openreview", "--venue", VENUE, "-o", str(out),
                      "--no-import")
    assert result.exit_code == 0, result.output
    library = Library(tmp_path / "a")
    try:
        assert list(library.store.iter_papers()) == []
    finally:
        library.close()
    result = _run_cli(tmp_path / "b", "import", str(out))
    assert result.exit_code == 0, result.output
    assert "12" in result.output
    library = Library(tmp_path / "b")
    try:
        titles = {p.openreview_id: p.title for p in library.store.iter_papers()}
    finally:
        library.close()
    assert titles == {p["id"]: p["content"]["title"] for p in SAMPLE}


def test_the_command_keeps_what_came_on_ctrl_c_and_continues(
    server: NotesServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    lib = tmp_path / "lib"
    from reader.cli import fetching

    real_update = fetching._FetchBar.update

    def interrupted(self: Any, done: int, total: int | None) -> None:
        real_update(self, done, total)
        raise KeyboardInterrupt  # as Ctrl-C pressed during the second request

    monkeypatch.setattr(fetching._FetchBar, "update", interrupted)
    result = _run_cli(lib, "fetch", "openreview", "--venue", VENUE, "--page-size", "5")
    assert result.exit_code == 130, result.output
    assert "Interrupted. The 5 papers that came are kept" in result.output
    library = Library(lib)
    try:
        assert len(list(library.store.iter_papers())) == 5
    finally:
        library.close()

    monkeypatch.setattr(fetching._FetchBar, "update", real_update)
    server.seen.clear()
    result = _run_cli(lib, "fetch", "openreview", "--venue", VENUE, "--page-size", "5")
    assert result.exit_code == 0, result.output
    assert "continuing a fetch stopped after 5" in result.output
    assert [q["offset"] for q in server.notes_asked()] == [["5"], ["10"]]
    library = Library(lib)
    try:
        assert len(list(library.store.iter_papers())) == 12
    finally:
        library.close()


def test_the_command_says_how_to_log_in(server: NotesServer, tmp_path: Path):
    server.require_login = True
    result = _run_cli(tmp_path / "lib", "fetch", "openreview", "--venue", VENUE)
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert "403 ChallengeRequiredError" in lines[0] and "OPENREVIEW_USERNAME" in lines[0]


def test_the_command_logs_in_from_the_environment(
    server: NotesServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    server.require_login = True
    monkeypatch.setenv("OPENREVIEW_USERNAME", USERNAME)
    monkeypatch.setenv("OPENREVIEW_PASSWORD", PASSWORD)
    lib = tmp_path / "lib"
    result = _run_cli(lib, "fetch", "openreview", "--venue", VENUE)
    assert result.exit_code == 0, result.output
    assert server.logins == [{"id": USERNAME, "password": PASSWORD}]
    assert PASSWORD not in result.output
    # Never stored: no file of the library holds the password (nor the token).
    for path in lib.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert PASSWORD.encode() not in data and TOKEN.encode() not in data, path


def test_the_command_fetches_the_starred_papers(server: NotesServer, tmp_path: Path):
    lib = tmp_path / "lib"
    library = Library(lib)
    try:
        library.import_files([RECORDING])
        by_forum = {p.openreview_id: p.id for p in library.store.iter_papers()}
        for forum in (IDS[2], IDS[7]):
            library.set_starred(by_forum[forum], True)
    finally:
        library.close()
    result = _run_cli(lib, "fetch", "openreview", "--starred")
    assert result.exit_code == 0, result.output
    assert sorted(q["forum"][0] for q in server.notes_asked()) == sorted([IDS[2], IDS[7]])
    assert "Fetched 2 papers" in result.output


def test_the_command_takes_ids_urls_and_citation_keys(server: NotesServer, tmp_path: Path):
    lib = tmp_path / "lib"
    url = f"https://openreview.net/forum?id={IDS[1]}"
    result = _run_cli(lib, "fetch", "openreview", IDS[0], url)
    assert result.exit_code == 0, result.output
    assert [q["forum"] for q in server.notes_asked()] == [[IDS[0]], [IDS[1]]]
    library = Library(lib)
    try:
        paper = next(p for p in library.store.iter_papers() if p.openreview_id == IDS[0])
    finally:
        library.close()
    server.seen.clear()
    result = _run_cli(lib, "fetch", "openreview", paper.citekey, "--no-import")
    assert result.exit_code == 0, result.output
    assert [q["forum"] for q in server.notes_asked()] == [[IDS[0]]]


def test_the_command_wants_one_thing_to_fetch(tmp_path: Path):
    result = _run_cli(tmp_path / "lib", "fetch", "openreview")
    assert result.exit_code == 1 and "name what to fetch" in result.output
    result = _run_cli(tmp_path / "lib", "fetch", "openreview", "--venue", VENUE, "--starred")
    assert result.exit_code == 1 and "one of them" in result.output


# --- credentials ------------------------------------------------------------------------------


def test_credentials_come_from_the_environment_first():
    found = find_credentials({"OPENREVIEW_USERNAME": USERNAME, "OPENREVIEW_PASSWORD": PASSWORD})
    assert found == Credentials(USERNAME, PASSWORD)
    assert find_credentials({}) is None


def test_a_password_in_the_os_keyring(monkeypatch: pytest.MonkeyPatch):
    asked: list[tuple[str, str]] = []

    def get_password(service: str, username: str) -> str:
        asked.append((service, username))
        return PASSWORD

    fake = SimpleNamespace(get_password=get_password, get_credential=lambda s, u: None)
    monkeypatch.setitem(sys.modules, "keyring", fake)
    monkeypatch.setattr(openreview_login, "_from_keyring", FROM_KEYRING)
    found = find_credentials({"OPENREVIEW_USERNAME": USERNAME})
    assert found is not None and found.password == PASSWORD
    assert found.origin == "the OS keyring" and asked == [("openreview.net", USERNAME)]
    assert "pip install" not in how_to_log_in()


def test_without_the_keyring_package_the_message_says_how_to_add_it(
    monkeypatch: pytest.MonkeyPatch,
):
    monkeypatch.setitem(sys.modules, "keyring", None)  # import keyring → ImportError
    monkeypatch.setattr(openreview_login, "_from_keyring", FROM_KEYRING)
    assert find_credentials({"OPENREVIEW_USERNAME": USERNAME}) is None
    assert "pip install 'reader[keyring]'" in how_to_log_in()


def test_a_lone_surrogate_in_a_reply_is_kept_escaped(server: NotesServer, tmp_path: Path):
    forum = IDS[0]
    server.replies[forum] = [{**server.replies[forum][0], "content": {"summary": {
        "value": "broken \ud800 text"}}}]
    outcome = _fetcher(server, []).run(forums_plan([forum], "one"), tmp_path / "f.jsonl",
                                       tmp_path / "s.json")
    assert outcome.complete
    assert b"\\ud800" in (tmp_path / "f.jsonl").read_bytes()
    assert _lines(tmp_path / "f.jsonl")[0]["replies"][0]["content"]["summary"]["value"] == (
        "broken \ud800 text")


def test_a_venue_with_no_paper_says_so(server: NotesServer, tmp_path: Path):
    result = _run_cli(tmp_path / "lib", "fetch", "openreview", "--venue",
                      "ICLR.cc/2026/Conference/-/Nothing")
    assert result.exit_code == 1
    assert result.output.strip() == (
        "Error: OpenReview gave no paper for the venue ICLR.cc/2026/Conference/-/Nothing; "
        "nothing imported")
