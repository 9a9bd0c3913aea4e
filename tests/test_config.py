"""The config file: parsing and checks, `reader config`, and the real app started with it."""

from __future__ import annotations

import io
import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console
from textual.widgets import Static

from reader.cite.clipboard import ROUTES, configured_routes
from reader.cli import cli
from reader.config import (
    DEFAULT_CITATION,
    TEMPLATE,
    Config,
    citation_name,
    key_error,
    load_config,
    parse_citation,
    parse_config,
)
from reader.library import Library
from reader.ui.app import ReaderApp
from reader.ui.configure import check_config, theme_names
from reader.ui.keymap import binding_ids, clashes, default_keys
from reader.ui.screens.help import HelpScreen
from reader.ui.widgets.paper_list import PaperList
from tests.test_app import SIZE, screen_text, settle

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where READER_CONFIG points for this test (not written yet)."""
    path = tmp_path / "conf" / "config.toml"
    monkeypatch.setenv("READER_CONFIG", str(path))
    monkeypatch.delenv("READER_CLIPBOARD", raising=False)
    return path


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def checked(path: Path) -> Config:
    """The file as the app reads it: checked against the real bindings and themes."""
    return check_config(path, theme_names())


# --- parsing and checks ---------------------------------------------------------------------


def test_a_missing_file_gives_the_defaults_silently(config_file: Path) -> None:
    config = load_config()
    assert config == Config(path=config_file)
    assert config.citation == DEFAULT_CITATION and config.problems == ()


def test_every_setting_is_read(config_file: Path) -> None:
    write(config_file, """
theme = "nord"
citation = "ieee"
clipboard = ["osc52", "file", "osc52"]
[keymap]
"paper.star" = "asterisk"
paper.copy = ["y", "ctrl+y"]
[keymap.list]
down = "j, down, ctrl+n"
""")
    config = checked(config_file)
    assert config.problems == ()
    assert config.theme == "nord"
    assert config.citation == ("text", "ieee")
    assert config.clipboard == ("osc52", "file")
    # Quoted ids, dotted ids and sub-tables all name the same bindings.
    assert config.keymap == {
        "paper.star": "asterisk", "paper.copy": "y,ctrl+y", "list.down": "j,down,ctrl+n",
    }


def test_a_toml_syntax_error_gives_all_defaults_and_names_file_and_line(
    config_file: Path,
) -> None:
    write(config_file, 'theme = "nord"\n[keymap\n"paper.star" = "S"\n')
    config = checked(config_file)
    assert (config.keymap, config.theme) == ({}, None)
    [problem] = config.problems
    assert str(config_file) in problem and "line 2" in problem and "all the defaults" in problem


def test_wrong_settings_fall_back_one_by_one_and_the_rest_applies(config_file: Path) -> None:
    write(config_file, """
colour = "blue"
theme = "no-such-theme"
citation = 3
clipboard = "carrier-pigeon"
[keymap]
"paper.star" = "asterisk"
"paper.stra" = "x"
"paper.note" = "Ctrl+n"
"paper.copy" = "homee"
"list.down" = 4
""")
    config = checked(config_file)
    assert config.keymap == {"paper.star": "asterisk"}
    assert (config.theme, config.citation, config.clipboard) == (None, DEFAULT_CITATION, None)
    text = "\n".join(config.problems)
    assert all(p.startswith(f"{config_file}: ") for p in config.problems)
    for key, says in [
        ("colour", "unknown setting"),
        ("theme", "unknown theme 'no-such-theme'"),
        ("citation", "not an integer"),
        ("clipboard", "unknown route 'carrier-pigeon'"),
        ("keymap.paper.stra", "unknown binding id"),
        ("keymap.paper.note", "unknown modifier 'Ctrl'"),
        ("keymap.paper.copy", "unknown key name 'homee'"),
        ("keymap.list.down", "not an integer"),
    ]:
        assert re.search(rf": {re.escape(key)}: .*{re.escape(says)}", text), (key, text)
    assert len(config.problems) == 8


def test_a_keymap_that_is_not_a_table_is_named(config_file: Path) -> None:
    write(config_file, 'keymap = "vim"\n')
    [problem] = checked(config_file).problems
    assert ": keymap: must be a table" in problem


def test_an_unreadable_file_gives_the_defaults(config_file: Path) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_bytes(b'theme = "\xff"\n')
    config = load_config()
    assert config.theme is None and "cannot be read" in config.problems[0]


def test_binding_ids_are_checked_only_when_known(tmp_path: Path) -> None:
    text = '[keymap]\n"some.future.binding" = "z"\n'
    assert parse_config(text, tmp_path / "c.toml").keymap == {"some.future.binding": "z"}
    assert parse_config(text, tmp_path / "c.toml", binding_ids={"paper.star"}).problems


@pytest.mark.parametrize(
    ("key", "ok"),
    [("S", True), ("?", True), ("ctrl+s", True), ("shift+tab", True), ("f5", True),
     ("question_mark", True), ("asterisk", True), ("pagedown", True), ("ä", True),
     ("Ctrl+s", False), ("homee", False), ("f25", False), ("ctrl++", False), ("+", False)],
)
def test_key_names(key: str, ok: bool) -> None:
    assert (key_error(key) == "") is ok, key_error(key)


@pytest.mark.parametrize(
    ("name", "pair"),
    [("bibtex", ("bibtex", "")), ("pandoc", ("pandoc", "")), ("CSLJSON", ("csljson", "")),
     ("apa", ("text", "apa")), ("ieee", ("text", "ieee")), ("text", ("text", "apa"))],
)
def test_citation_names_map_to_what_render_takes(name: str, pair: tuple[str, str]) -> None:
    assert parse_citation(name) == (pair, "")


def test_a_csl_file_is_a_citation_style(tmp_path: Path) -> None:
    style = write(tmp_path / "my-journal.csl", "<style/>")
    assert parse_citation(str(style)) == (("text", str(style)), "")
    assert citation_name(("text", str(style))) == str(style)
    # A relative path is found beside the config file.
    assert parse_citation("my-journal.csl", base=tmp_path) == (("text", str(style)), "")
    _, error = parse_citation("no-such-style")
    assert "unknown citation style 'no-such-style'" in error and "bibtex" in error


def test_the_environment_chooses_routes_over_the_config(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("READER_CLIPBOARD", raising=False)
    assert configured_routes() == ROUTES
    assert configured_routes(("file",)) == ("file",)
    monkeypatch.setenv("READER_CLIPBOARD", "osc52")
    assert configured_routes(("file",)) == ("osc52",)


def test_binding_ids_come_from_the_bindings_table() -> None:
    ids = binding_ids()
    assert {"paper.star", "app.search", "list.down", "help.close"} <= ids
    assert default_keys()["list.down"] == "j,down"


def test_a_key_taken_from_another_binding_is_a_clash() -> None:
    [clash] = clashes({"paper.note": "y"})
    assert "keymap.paper.note" in clash and "paper.copy" in clash
    # Swapping two keys takes nothing from anyone.
    assert clashes({"paper.star": "y", "paper.copy": "s"}) == []
    assert clashes({"paper.star": "*"}) == clashes({"paper.star": "asterisk"}) == []


def test_a_key_the_paper_list_takes_first_is_a_clash() -> None:
    [clash] = clashes({"paper.star": "j"})
    assert "paper.star" in clash and "only list.down answers" in clash
    [clash] = clashes({"list.down": "s"})
    assert "paper.star" in clash and "only list.down answers" in clash


def test_clashes_are_problems_of_the_file(config_file: Path) -> None:
    write(config_file, '[keymap]\n"paper.note" = "y"\n')
    config = checked(config_file)
    assert config.keymap == {"paper.note": "y"}
    assert config.problems and "paper.copy" in config.problems[0]


def test_the_template_and_the_readme_example_are_valid(config_file: Path) -> None:
    # Every commented example in the template, switched on.
    lines = [re.sub(r"^# (\w+ =|\"[\w.]+\" =)", r"\1", line) for line in TEMPLATE.splitlines()]
    write(config_file, "\n".join(lines))
    config = checked(config_file)
    assert config.problems == () and config.theme and config.keymap
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = readme.split("## Configuration", 1)[1].split("```toml\n", 1)[1].split("```")[0]
    write(config_file, example)
    config = checked(config_file)
    assert config.problems == ()
    assert (config.theme, config.citation) == ("reader-paper", ("text", "apa"))


# --- reader config ---------------------------------------------------------------------------


def run(*args: str, ok: bool = True):
    result = CliRunner().invoke(cli, ["config", *args], obj={})
    assert (result.exit_code == 0) is ok, (result.output, result.exception)
    return result


def test_config_path_says_where_and_whether_it_exists(config_file: Path) -> None:
    result = run("path")
    assert result.stdout.strip() == str(config_file)
    assert "does not exist" in result.stderr
    write(config_file, "")
    assert "It exists" in run("path").stderr


def test_config_show_prints_the_defaults_as_toml(config_file: Path) -> None:
    result = run("show")
    shown = tomllib.loads(result.stdout)
    assert shown["theme"] == "textual-dark" and shown["citation"] == "bibtex"
    assert shown["clipboard"] == list(ROUTES)
    assert shown["keymap"]["paper.star"] == "s"
    assert set(shown["keymap"]) == binding_ids()
    assert "not found" in result.stdout.splitlines()[0]


def test_config_show_gives_the_effective_settings_and_round_trips(config_file: Path) -> None:
    write(config_file, 'citation = "pandoc"\n[keymap]\n"paper.star" = "asterisk"\n')
    shown = run("show").stdout
    assert '"paper.star" = "asterisk"  # configured' in shown
    assert 'clipboard = ["system", "osc52", "file"]  # the default' in shown
    # What show prints is itself a valid config meaning the same.
    write(config_file, shown)
    again = checked(config_file)
    assert again.problems == ()
    assert again.keymap["paper.star"] == "asterisk" and again.citation == ("pandoc", "")


def test_config_show_says_when_the_environment_chooses_the_routes(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(config_file, 'clipboard = "file"\n')
    assert 'clipboard = ["file"]  # configured' in run("show").stdout
    monkeypatch.setenv("READER_CLIPBOARD", "osc52")
    assert 'clipboard = ["osc52"]  # from READER_CLIPBOARD' in run("show").stdout


def test_config_show_reports_problems_on_stderr_and_fails(config_file: Path) -> None:
    write(config_file, 'theme = "neon"\n[keymap]\n"paper.stra" = "x"\n')
    result = run("show", ok=False)
    assert result.exit_code == 1
    assert "theme: unknown theme 'neon'" in result.stderr
    assert "keymap.paper.stra: unknown binding id" in result.stderr
    assert tomllib.loads(result.stdout)["theme"] == "textual-dark"


def test_config_init_writes_a_template_once(config_file: Path) -> None:
    assert "Wrote" in run("init").stdout
    assert config_file.read_text(encoding="utf-8") == TEMPLATE
    assert "already exists" in run("init", ok=False).output
    assert run("show").exit_code == 0


# --- the app ---------------------------------------------------------------------------------


def rendered(content: object) -> str:
    """A Rich renderable as plain text."""
    console = Console(width=200, file=io.StringIO(), record=True)
    console.print(content)
    return console.export_text()


def config_notifications(app: ReaderApp) -> list[str]:
    return [n.message for n in app._notifications if n.title == "Problems in the config file"]


async def test_a_remapped_key_works_and_the_old_one_is_free(
    library: Library, config_file: Path
) -> None:
    write(config_file, '[keymap]\n"paper.star" = "asterisk"\n')
    app = ReaderApp(library)
    # Wide, because Textual moves a remapped binding to the end of the footer.
    async with app.run_test(size=(200, 40)) as pilot:
        await settle(app, pilot)
        papers = app.query_one(PaperList)
        first = papers.current_id
        await pilot.press("s")
        await settle(app, pilot)
        assert library.store.paper(first).starred is False  # type: ignore[union-attr]
        await pilot.press("asterisk")
        await settle(app, pilot)
        assert library.store.paper(first).starred is True  # type: ignore[union-attr]
        # The footer follows the keymap.
        footer = screen_text(app).splitlines()[-1]
        assert re.search(r"\* Star", footer), footer
        assert config_notifications(app) == []


async def test_the_help_screen_shows_the_configured_keys(
    library: Library, config_file: Path
) -> None:
    write(config_file, '[keymap]\n"paper.star" = "asterisk"\n"list.down" = "j,ctrl+n"\n')
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        # The whole help, not only the part that fits on the screen.
        text = "\n".join(rendered(w.content) for w in app.screen.query(".help-table"))
        text += rendered(app.screen.query_one("#help-syntax", Static).content)
        assert re.search(r"\*\s+Star", text), text
        assert re.search(r"j / ctrl\+n\s+Next paper", text), text
        assert "*, n and y work in the reading view too" in text


async def test_a_broken_file_falls_back_to_the_defaults_with_a_message(
    library: Library, config_file: Path
) -> None:
    write(config_file, '[keymap\n"paper.star" = "asterisk"\n')
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        [message] = config_notifications(app)
        assert str(config_file) in message and "not valid TOML" in message and "line 1" in message
        assert app.theme == "textual-dark"
        first = app.query_one(PaperList).current_id
        await pilot.press("s")  # the default key still stars
        await settle(app, pilot)
        assert library.store.paper(first).starred is True  # type: ignore[union-attr]


async def test_wrong_settings_are_named_and_the_valid_ones_apply(
    library: Library, config_file: Path
) -> None:
    write(config_file, """
colour = "blue"
theme = "neon"
[keymap]
"paper.stra" = "x"
"paper.star" = "asterisk"
""")
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        [message] = config_notifications(app)
        for named in ("colour: unknown setting", "theme: unknown theme 'neon'",
                      "keymap.paper.stra: unknown binding id"):
            assert named in message
        assert app.theme == "textual-dark"
        first = app.query_one(PaperList).current_id
        await pilot.press("asterisk")
        await settle(app, pilot)
        assert library.store.paper(first).starred is True  # type: ignore[union-attr]


@pytest.mark.parametrize("theme", ["reader-paper", "reader-ink", "nord"])
async def test_the_configured_theme_applies(
    library: Library, config_file: Path, theme: str
) -> None:
    write(config_file, f'theme = "{theme}"\n')
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.theme == theme
        assert config_notifications(app) == []


async def test_y_copies_in_the_configured_style_by_the_configured_route(
    library: Library, config_file: Path
) -> None:
    write(config_file, 'citation = "ieee"\nclipboard = "file"\n')
    app = ReaderApp(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        paper = library.store.paper(app.query_one(PaperList).current_id)  # type: ignore[arg-type]
        await pilot.press("y")
        await settle(app, pilot)
        copied = library.paths.clipboard_file.read_text(encoding="utf-8")
        assert copied.startswith("[1] ") and paper is not None and paper.title[:20] in copied
        # The file route alone: nothing went to the terminal.
        assert app.clipboard == ""
        assert any("IEEE" in n.message for n in app._notifications)


async def test_a_config_can_be_given_to_the_app(library: Library, tmp_path: Path) -> None:
    config = Config(keymap={"paper.copy": "c"}, theme="no-such-theme")
    app = ReaderApp(library, config=config)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "theme: unknown theme 'no-such-theme'" in config_notifications(app)[0]
        assert app.theme == "textual-dark"
