"""Every key binding of the UI in one table, each with an id a keymap can remap.

Widgets and screens take their ``BINDINGS`` from here, and the help screen is generated
from the same table, so what ``?`` shows is what the keys do.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

#: The main screen and everything on it.
APP: list[BindingType] = [
    # Priority: handled before the keys behind it are passed on, so they land in the box.
    # Not in the footer: the search box says it ("/ to search: …").
    Binding("slash", "focus_search", "Search", id="app.search", priority=True, show=False),
    Binding("s", "toggle_star", "Star", id="paper.star"),
    Binding("n", "edit_note", "Note", id="paper.note"),
    Binding("r", "toggle_read", "Mark read", id="paper.read"),
    Binding("space", "next_unseen", "Next unseen", id="app.next_unseen"),
    Binding("t", "edit_tags", "Tags", id="paper.tags"),
    Binding("m", "more_like", "More like this", id="paper.similar", show=False),
    Binding("f", "for_you", "For you", id="app.for_you", show=False),
    Binding("e", "edit_metadata", "Edit details", id="paper.edit", show=False),
    Binding("o", "open_url", "Open in browser", id="paper.open", show=False),
    Binding("O", "cycle_sort", "Sort", id="app.sort", show=False),
    Binding("R", "overview", "Ratings overview", id="app.overview", show=False),
    Binding("S", "save_search", "Save search", id="app.save_search", show=False),
    *[
        Binding(str(n), f"open_saved({n})", f"Saved search {n}", id=f"app.saved_{n}",
                show=False)
        for n in range(1, 10)
    ],
    Binding("y", "copy_citation", "Copy", id="paper.copy"),
    Binding("Y", "pick_citation", "Copy as…", id="paper.copy_as", show=False),
    Binding("v", "toggle_mark", "Mark", id="paper.mark", show=False),
    Binding("V", "clear_marks", "Clear marks", id="paper.clear_marks", show=False),
    Binding("x", "export", "Export", id="app.export", show=False),
    Binding("i", "import_file", "Import", id="app.import", show=False),
    Binding("a", "add_by_id", "Add by id", id="app.add", show=False),
    Binding("F", "fetch_replies", "Fetch reviews", id="paper.fetch_replies", show=False),
    Binding("escape", "clear_search", "Clear search", id="app.clear", show=False),
    Binding("ctrl+g", "accept_suggestion", "Did you mean", id="search.suggestion"),
    Binding("question_mark", "help", "Help", id="app.help"),
    Binding("q", "quit", "Quit", id="app.quit"),
    # Textual's own ctrl+q, under an action of its own: `quit` is off while the search box
    # takes the typing (q is a letter there), and ctrl+q must quit from everywhere.
    Binding("ctrl+q", "quit_anywhere", "Quit", id="app.quit_anywhere", priority=True,
            show=False),
]

#: Keys of the main screen that act on any screen (the others act where a paper is at hand:
#: the main screen and the reading view).
EVERY_SCREEN = frozenset({"app.help", "app.quit", "app.quit_anywhere"})
#: The key offered only while a search suggests a query.
SUGGESTION = "search.suggestion"


def actions_of(table: list[BindingType], leave_out: frozenset[str] = frozenset()) -> frozenset[str]:
    """The names of the actions bound in ``table`` (without their arguments), but for the
    bindings whose ids are in ``leave_out``."""
    return frozenset(
        binding.action.split("(", 1)[0]
        for binding in table
        if isinstance(binding, Binding) and binding.id not in leave_out
    )


#: The actions of the main screen that need the list's current paper at hand.
PAPER_ACTIONS = actions_of(APP, EVERY_SCREEN | {SUGGESTION})
#: The actions of the main screen that the search box takes as typing when it has focus.
TYPED_IN_BOX = actions_of(APP, frozenset({SUGGESTION, "app.quit_anywhere"}))

#: The paper list.
PAPER_LIST: list[BindingType] = [
    Binding("j,down", "cursor_down", "Next paper", id="list.down", show=False),
    Binding("k,up", "cursor_up", "Previous paper", id="list.up", show=False),
    Binding("g,home", "first", "First paper", id="list.first", show=False),
    Binding("G,end", "last", "Last paper", id="list.last", show=False),
    Binding("pagedown,ctrl+f", "page_down", "Page down", id="list.page_down", show=False),
    Binding("pageup,ctrl+b", "page_up", "Page up", id="list.page_up", show=False),
    Binding("enter", "open", "Open", id="list.open"),
]

#: The search box.
SEARCH: list[BindingType] = [
    # Priority: these act before the box sees the key, and keys pressed behind them wait.
    Binding("enter,down,tab", "to_list", "To the list", id="search.to_list", priority=True,
            key_display="enter/↓/tab"),
    Binding("escape", "escape", "Clear and leave", id="search.escape", priority=True),
]

#: The full-width reading view.
READING: list[BindingType] = [
    Binding("j,down", "next_paper", "Next paper", id="reading.next"),
    Binding("k,up", "previous_paper", "Previous paper", id="reading.previous"),
    Binding("right_parenthesis", "sentence(1)", "Next sentence", id="reading.sentence_next"),
    Binding("left_parenthesis", "sentence(-1)", "Previous sentence",
            id="reading.sentence_previous", show=False),
    Binding("shift+right", "extend(1)", "Extend selection a word", id="reading.extend",
            show=False),
    Binding("shift+left", "extend(-1)", "Shrink selection a word", id="reading.shrink",
            show=False),
    Binding("right_curly_bracket", "extend_sentence(1)", "Extend selection a sentence",
            id="reading.extend_sentence", show=False),
    Binding("left_curly_bracket", "extend_sentence(-1)", "Shrink selection a sentence",
            id="reading.shrink_sentence", show=False),
    Binding("h", "highlight", "Highlight", id="reading.highlight"),
    Binding("H", "remove_highlight", "Remove highlight", id="reading.remove_highlight",
            show=False),
    Binding("right_square_bracket", "next_reply", "Next review", id="reading.next_reply"),
    Binding("left_square_bracket", "previous_reply", "Previous review",
            id="reading.previous_reply", show=False),
    Binding("z", "whole_reply", "Show whole what is cut", id="reading.whole_reply",
            show=False),
    Binding("pagedown", "scroll_page_down", "Scroll down", id="reading.page_down",
            show=False),
    Binding("pageup", "scroll_page_up", "Scroll up", id="reading.page_up", show=False),
    Binding("escape,q", "close", "Back", id="reading.close"),
]

#: A review, title or abstract too long for the reading view, shown whole (the arrow and
#: page keys scroll it).
WHOLE_TEXT: list[BindingType] = [
    Binding("escape,q,z", "close", "Close the whole text", id="whole.close"),
]

#: The ratings overview (the arrow and page keys scroll it).
OVERVIEW: list[BindingType] = [
    Binding("escape,q,R", "close", "Close the overview", id="overview.close"),
]

#: The note editor.
NOTE_EDITOR: list[BindingType] = [
    # "Close", not "Save and close": the editor saves as it goes (its status line says so),
    # and in a read-only library there is nothing to save. Priority: it acts before the
    # keys typed behind it reach the text, where they would be typed into the note.
    Binding("escape", "close", "Close", id="note.close", priority=True),
    Binding("ctrl+o", "versions", "Versions", id="note.versions"),
]

#: The versions of a note.
VERSIONS: list[BindingType] = [
    Binding("escape", "cancel", "Back", id="versions.cancel"),
]

#: The one-line prompts (import a file, add by id).
PROMPT: list[BindingType] = [
    # A priority binding, so that keys typed right behind enter act on the view below.
    Binding("enter", "answer", "Answer", id="prompt.answer", priority=True),
    Binding("escape", "cancel", "Cancel", id="prompt.cancel"),
    # As a shell completes a path (the dialog has one field: tab moved nowhere).
    Binding("tab", "complete", "Complete", id="prompt.complete", show=False),
]

#: The tag editor.
TAGS: list[BindingType] = [
    Binding("enter", "save", "Save", id="tags.save", priority=True),
    Binding("escape", "cancel", "Cancel", id="tags.cancel"),
]

#: The metadata form.
FORM: list[BindingType] = [
    Binding("ctrl+s", "save", "Save", id="form.save"),
    Binding("escape", "cancel", "Cancel", id="form.cancel"),
]

#: The citation picker.
PICKER: list[BindingType] = [
    # Before the list's own enter (which the footer does not show): copies the highlighted.
    Binding("enter", "copy", "Copy", id="picker.copy", priority=True),
    Binding("escape", "cancel", "Cancel", id="picker.cancel"),
]

#: A list of choices in a dialog (the citation styles, a note's versions): j and k move
#: in it as in the list of papers, beside the arrows.
CHOICES: list[BindingType] = [
    Binding("j", "cursor_down", "Next", id="choices.down", show=False),
    Binding("k", "cursor_up", "Previous", id="choices.up", show=False),
]

#: The help screen.
HELP: list[BindingType] = [
    Binding("j,down", "scroll_down", "Scroll down", id="help.down", show=False),
    Binding("k,up", "scroll_up", "Scroll up", id="help.up", show=False),
    Binding("escape,q,question_mark", "close", "Close help", id="help.close"),
]

#: Sections of the help screen, in order.
SECTIONS: list[tuple[str, list[BindingType]]] = [
    ("Papers", APP),
    ("List", PAPER_LIST),
    ("Search box", SEARCH),
    ("Reading view", READING),
    ("Other screens", [*OVERVIEW, *WHOLE_TEXT]),
    ("Note editor", NOTE_EDITOR),
    ("Note versions", VERSIONS),
    ("Prompts", PROMPT),
    ("Tag editor", TAGS),
    ("Details form", FORM),
    ("Citation picker", PICKER),
    ("Help", HELP),
]
