"""A library that cannot be written to opens read-only: search, cite, export, stats and the
doctor work; every write says in one line why it cannot; the reader says so at start.

Tests run as root, whom file modes do not stop, so the library is made read-only the way a
person would ask for it (READER_READ_ONLY), or with a read-only mount where one can be made.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from reader.cli import cli
from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.screens.note import NoteScreen
from tests.conftest import SEEDS
from tests.test_app import screen_text, settle

REFUSED = "is read-only (READER_READ_ONLY is set): it can be searched, cited and exported"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pristine") / "lib"
    library = Library(root)
    library.import_files(SEEDS[:1])
    library.set_starred(library.store.all_ids()[0], True)
    library.close()
    return root


@pytest.fixture
def lib(pristine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "lib"
    shutil.copytree(pristine, root)
    monkeypatch.setenv("READER_READ_ONLY", "1")
    return root


def run(root: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--library", str(root), *args], obj={})


def digests(root: Path) -> dict[str, str]:
    """Every file of the library and its checksum: what a read-only run must leave alone
    (but SQLite's working files, which it makes to read where the directory lets it)."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*"))
            if p.is_file() and not p.name.endswith(("-wal", "-shm"))}


def test_reading_commands_work_and_write_nothing(lib: Path) -> None:
    before = digests(lib)
    for args in (["stats"], ["search", "graph"], ["cite", "1"],
                 ["export", "--format", "bibtex"], ["doctor"]):
        result = run(lib, *args)
        assert result.exit_code == 0, (args, result.output)
    assert run(lib, "stats").output.strip() == "19 papers, 1 starred, 0 with notes"
    doctor = run(lib, "doctor").output.strip().splitlines()
    assert doctor[0].startswith("database: ok")
    assert doctor[1].endswith("; the library is read-only)")
    assert digests(lib) == before


@pytest.mark.parametrize("args", [["star", "2"], ["note", "2", "--text", "hello"],
                                  ["import", str(SEEDS[1])], ["reindex"]])
def test_writes_say_in_one_line_why_they_cannot(lib: Path, args: list[str]) -> None:
    before = digests(lib)
    result = run(lib, *args)
    assert result.exit_code != 0
    message = result.output.strip()
    assert "\n" not in message and REFUSED in message, message
    assert digests(lib) == before


async def test_the_reader_says_read_only_at_start(lib: Path) -> None:
    library = Library(lib)
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        notices = [n.message for n in app._notifications]
        assert any(m.startswith("Read-only library (READER_READ_ONLY is set)") for m in notices)
        await pilot.press("j", "j")  # papers seen: nothing is stored, nothing to tell
        await settle(app, pilot)
        assert app.is_running
        # `i` says at once that an import cannot be saved, before a path is typed for it.
        screen = app.screen
        await pilot.press("i")
        await settle(app, pilot)
        assert app.screen is screen
        notices = [n.message for n in app._notifications]
        assert any("an import cannot be saved" in m for m in notices)
    library.close()


async def test_a_note_is_shown_not_edited(lib: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("READER_READ_ONLY")
    writable = Library(lib)
    first, second = writable.store.all_ids()[:2]
    writable.save_note(first, "kept as written")
    writable.close()
    monkeypatch.setenv("READER_READ_ONLY", "1")
    library = Library(lib)
    app = ReaderApp(library)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        app.paper_list.cursor = app.paper_list.ids.index(first)
        await pilot.press("n")
        await settle(app, pilot)
        # Shown in an editor that takes no typing, saying why.
        assert isinstance(app.screen, NoteScreen)
        shown = screen_text(app)
        assert "kept as written" in shown
        assert "Read-only library (READER_READ_ONLY is set): this note is shown" in shown
        # The footer offers to close it, not to save it.
        assert "Close" in shown and "Save and close" not in shown
        await pilot.press("escape")
        await settle(app, pilot)
        assert not isinstance(app.screen, NoteScreen)
        # On a paper without a note, the words typed for it go to the editor, not to the
        # commands their letters are bound to (q quits, s stars, i imports).
        app.paper_list.cursor = app.paper_list.ids.index(second)
        await pilot.press("n", *"quick idea", "escape")
        await settle(app, pilot)
        assert app.is_running and not isinstance(app.screen, NoteScreen)
        assert app.paper_list.current_id == second
        assert library.note(second).text == ""
    library.close()


def test_backup_of_a_read_only_library_names_where_to_write(lib: Path, tmp_path: Path) -> None:
    refused = run(lib, "backup")
    assert refused.exit_code == 1
    assert "its backups folder cannot be written; name where the copy goes: reader backup " \
        "FILE" in refused.output
    assert not (lib / "backups").exists()
    done = run(lib, "backup", str(tmp_path / "copy.sqlite"))
    assert done.exit_code == 0 and (tmp_path / "copy.sqlite").stat().st_size > 0


def on_read_only_mount(root: Path, commands: str) -> subprocess.CompletedProcess[str]:
    """Run shell ``commands`` with ``root`` mounted read-only over itself, in a mount
    namespace of their own; the test is skipped where no such mount can be made."""
    script = f"mount --bind {root} {root} && mount -o remount,bind,ro {root} && {commands}"
    try:
        done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True,
                              text=True, timeout=120)
    except FileNotFoundError:
        pytest.skip("no unshare here")
    if "mount" in done.stderr and "permission denied" in done.stderr.lower():
        pytest.skip("no read-only mount can be made here")
    if "unshare failed" in done.stderr:
        pytest.skip("no mount namespace here")
    return done


def test_a_library_on_a_read_only_mount(pristine: Path, tmp_path: Path) -> None:
    """The real thing where the machine lets a test make a read-only mount."""
    root = tmp_path / "lib"
    shutil.copytree(pristine, root)
    done = on_read_only_mount(root, (
        f"{sys.executable} -m reader --library {root} search graph && "
        f"{sys.executable} -m reader --library {root} doctor && "
        f"! {sys.executable} -m reader --library {root} star 2"
    ))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the library is read-only" in done.stdout
    assert f"is read-only (its directory {root} cannot be written to)" in done.stderr


def test_the_readers_watch_on_a_read_only_mount(pristine: Path, tmp_path: Path) -> None:
    """The reader watches its library for commits elsewhere with a connection of its own:
    on a read-only mount that connection opens as the library's does (it crashed the
    window at start)."""
    root = tmp_path / "lib"
    shutil.copytree(pristine, root)
    probe = (
        "from pathlib import Path; from reader.store.watch import ChangeWatch; "
        f"print('changed', ChangeWatch(Path('{root}') / 'library.sqlite').changed())"
    )
    done = on_read_only_mount(root, f"{sys.executable} -c \"{probe}\"")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "changed False"


def test_the_doctor_of_a_read_only_library_says_the_review_index_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It said nothing of the review text index, which it checks in a library it may write."""
    root = tmp_path / "lib"
    library = Library(root)
    library.import_files([Path(__file__).parent / "data" / "openreview-replies-3.jsonl"])
    library.close()
    monkeypatch.setenv("READER_READ_ONLY", "1")
    doctor = run(root, "doctor").output
    assert "review text index: ok (3 papers with replies)" in doctor, doctor


def test_no_library_where_none_can_be_made_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An empty directory that cannot be written to: not "cannot open the library database
    # …: unable to open database file", as if a database there were unreadable.
    monkeypatch.setenv("READER_READ_ONLY", "1")
    empty = tmp_path / "empty"
    empty.mkdir()
    table = tmp_path / "papers.csv"
    table.write_text("title,abstract\nA Paper,What it says.\n", encoding="utf-8")
    made = CliRunner().invoke(cli, ["--library", str(empty), "import", str(table)], obj={})
    assert (made.exit_code, made.output.strip()) == (
        1, f"Error: cannot make a library in {empty}: READER_READ_ONLY is set")
    read = CliRunner().invoke(cli, ["--library", str(empty), "stats"], obj={})
    assert (read.exit_code, read.output.strip()) == (
        1, f"Error: {empty} holds no library, and one cannot be made there: READER_READ_ONLY "
        "is set")
    assert list(empty.iterdir()) == []


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_the_read_only_notice_leaves_the_editors_status_line_readable(
    lib: Path, size: tuple[int, int]
) -> None:
    """The start's notice stands above the note editor's status line, which says whole why
    the note is not edited: neither covers the other."""
    from textual.widgets import Static
    from textual.widgets._toast import Toast

    library = Library(lib)
    app = ReaderApp(library, load_sample=False)
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(app, pilot)
        await pilot.press("n")
        await settle(app, pilot)
        assert isinstance(app.screen, NoteScreen)
        status = app.screen.query_one("#note-status", Static)
        [toast] = app.screen.query(Toast)
        assert "Read-only library" in str(toast.render())
        assert not status.region.overlaps(toast.region)
        # The whole line shows: as many rows as it needs.
        assert status.content_region.height * status.content_region.width >= len(
            str(status.render()))
        assert str(status.render()).endswith("esc closes")
    library.close()
