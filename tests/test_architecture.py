"""The architecture holds: the import contracts in pyproject.toml (the layers, one door into
the core, sources apart from the library, the store apart from the index and the import
logic, text at the bottom); modules and classes of a size one can read; the app composed
of collaborators rather than mixins, its keys each finding their action."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from textual.app import App

from reader.library import Library

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_are_kept() -> None:
    """`lint-imports` finds every contract kept (it exits 1 and names the import if not)."""
    script = "import sys; from importlinter.cli import lint_imports_command; lint_imports_command()"
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


#: A module longer than this says in its docstring why it must be one piece.
MODULE_LINES = 400
KEPT_WHOLE = "Kept whole:"


def test_modules_are_short_or_say_why() -> None:
    """No module of reader is over about 400 lines unless its docstring has a paragraph
    starting "Kept whole:" that says why it cannot be split."""
    long = []
    for path in sorted((ROOT / "reader").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n")
        if lines <= MODULE_LINES:
            continue
        doc = ast.get_docstring(ast.parse(text)) or ""
        if KEPT_WHOLE not in doc:
            long.append(f"{path.relative_to(ROOT)}: {lines} lines")
    assert not long, "modules over 400 lines that do not say why:\n" + "\n".join(long)


#: A class with more methods than this does more than one thing: its parts become
#: collaborators that it composes, each owning its state.
CLASS_METHODS = 30
#: The classes over that, each with how many methods it has at most, and why. A class
#: leaves the list once it is under the limit, and a count here only goes down.
LARGE_CLASSES: dict[str, int] = {}
#: How many mixins of reader the app is made of (it was twelve: eleven features and their
#: base); only goes down.
FEATURE_MIXINS = 0


def _is_type_checking(test: ast.expr) -> bool:
    return isinstance(test, ast.Name) and test.id == "TYPE_CHECKING" or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _methods(body: list[ast.stmt]) -> set[str]:
    """The methods a class body defines (those declared for the type checker only are
    not methods)."""
    names: set[str] = set()
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.If) and not _is_type_checking(node.test):
            names |= _methods(node.body) | _methods(node.orelse)
    return names


class _Classes:
    """Every class of reader, read from the source: its methods and its bases of reader."""

    def __init__(self) -> None:
        #: "module.Class" -> (the methods it defines, the names of its bases)
        self.defined: dict[str, tuple[set[str], list[str]]] = {}
        #: module -> {name imported: "module.name" it comes from}
        self.imported: dict[str, dict[str, str]] = {}
        for path in sorted((ROOT / "reader").rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names = self.imported.setdefault(module, {})
            for node in tree.body:
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("reader"):
                    for alias in node.names:
                        names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                elif isinstance(node, ast.ClassDef):
                    bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
                    self.defined[f"{module}.{node.name}"] = (_methods(node.body), bases)

    def resolve(self, module: str, name: str) -> str | None:
        """The class ``name`` stands for in ``module`` ("module.Class"), if reader's."""
        for _ in range(10):  # through re-exports
            if f"{module}.{name}" in self.defined:
                return f"{module}.{name}"
            source = self.imported.get(module, {}).get(name)
            if source is None:
                return None
            module, name = source.rsplit(".", 1)
        return None

    def methods(self, qualified: str) -> set[str]:
        """The methods of a class and of its bases of reader (its mixins)."""
        own, bases = self.defined[qualified]
        module = qualified.rsplit(".", 1)[0]
        names = set(own)
        for base in bases:
            resolved = self.resolve(module, base)
            if resolved is not None:
                names |= self.methods(resolved)
        return names


def test_classes_are_small_or_listed() -> None:
    """No class of reader has more than 30 methods (its mixins' counted) but those listed
    with why, each no larger than listed."""
    classes = _Classes()
    counts = {name: len(classes.methods(name)) for name in classes.defined}
    large = {name: n for name, n in counts.items() if n > CLASS_METHODS}
    grown = {
        name: n for name, n in large.items() if n > LARGE_CLASSES.get(name, CLASS_METHODS)
    }
    assert not grown, f"classes over {CLASS_METHODS} methods, or larger than listed: {grown}"
    shrunk = {name: counts.get(name) for name in LARGE_CLASSES if name not in large}
    assert not shrunk, f"classes now within {CLASS_METHODS} methods: take them off the list"


def test_the_app_is_made_of_fewer_mixins() -> None:
    """The app's features are collaborators it owns: the mixins still among its bases are
    no more than counted (and the count only goes down)."""
    classes = _Classes()
    _, bases = classes.defined["reader.ui.app.ReaderApp"]
    mixins = [b for b in bases if classes.resolve("reader.ui.app", b) is not None]
    assert len(mixins) <= FEATURE_MIXINS, mixins


def test_every_key_of_the_app_has_its_action(empty_library: Library) -> None:
    """Each action bound on the app is a method of the app or of the collaborator that
    owns it, found where Textual looks for it (``action_<name>`` of the app)."""
    from reader.ui import bindings
    from reader.ui.app import ReaderApp

    app = ReaderApp(empty_library, load_sample=False)
    missing = [
        name for name in sorted(bindings.actions_of(bindings.APP))
        if not callable(getattr(app, f"action_{name}", None))
    ]
    assert not missing, missing
    # The app's own quit is replaced by the window's, which waits for its writes.
    assert app.action_quit.__func__ is not App.action_quit  # type: ignore[attr-defined]


#: Textual's private names the app uses where Textual has no public way (the raw write of
#: an OSC 52 sequence, a key handed to the widget it was typed at); Textual is pinned to one
#: minor version for them.
TEXTUAL_PRIVATES = {"_driver", "_forward_event"}


def test_the_apps_collaborators_keep_to_their_own_state() -> None:
    """The app and its collaborators (reader/ui/features) touch no private attribute but
    their own: one feature never reads or writes another's state, it calls its methods."""
    touched = []
    paths = [ROOT / "reader" / "ui" / "app.py", *sorted((ROOT / "reader/ui/features").glob("*.py"))]
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Attribute):
                continue
            name = node.attr
            if not name.startswith("_") or name.startswith("__") or name in TEXTUAL_PRIVATES:
                continue
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            touched.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert not touched, "private state of another object:\n" + "\n".join(touched)


#: What a collaborator may read of another without calling it: read-only properties, each
#: the status its owner alone writes as its workers report, read at the moment a decision
#: needs it (a copy kept in step by messages would lag behind the worker). Each must be a
#: property of its class: a plain attribute listed here fails.
READ_ONLY_STATUS = {
    # Whether an import of files runs, in its own process: a fetch waits for it, a catch-up
    # of the index leaves its papers to it, and quitting says it goes on.
    ("imports", "running"),
    # Writes whose outcome is not yet drawn: a count read meanwhile does not redraw twice.
    ("writes", "under_way"),
    # How far an index build under way is, said in the status line as the window quits.
    ("index_status", "building"),
    # Whether the user asked to quit: a note's save that meets a busy library is then tried
    # again (the window waits for its writes anyway) rather than given up to a draft.
    ("quitting", "asked"),
}
#: How a module of the UI names the app it is part of.
APP_NAMES = {"app", "self._app", "self.app", "self.reader"}


def _collaborators(classes: _Classes) -> dict[str, str]:
    """The app's collaborators: the name each is kept under -> its class ("module.Class")."""
    tree = ast.parse((ROOT / "reader/ui/app.py").read_text(encoding="utf-8"))
    found = {}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(target := node.targets[0], ast.Attribute)
            and ast.unparse(target.value) == "self"
            and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
        ):
            qualified = classes.resolve("reader.ui.app", node.value.func.id)
            if qualified is not None and qualified.startswith("reader.ui."):
                found[target.attr] = qualified
    return found


def _properties(qualified: str) -> set[str]:
    """The properties a class of reader defines."""
    module, name = qualified.rsplit(".", 1)
    path = ROOT / (module.replace(".", "/") + ".py")
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return {
                f.name for f in node.body if isinstance(f, ast.FunctionDef)
                and any(ast.unparse(d) == "property" for d in f.decorator_list)
            }
    raise AssertionError(f"{qualified} not found")


def _reads(tree: ast.AST, collaborators: dict[str, str]) -> list[tuple[ast.Attribute, str]]:
    """Each ``app.<collaborator>.<name>`` of a module that is not a call, with the name of
    the collaborator; a collaborator kept in a local name (``search = app.search``) too."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    aliases = {
        target.id: node.value.attr for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and len(node.targets) == 1
        and isinstance(target := node.targets[0], ast.Name)
        and isinstance(node.value, ast.Attribute) and node.value.attr in collaborators
        and ast.unparse(node.value.value) in APP_NAMES
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value
        if isinstance(owner, ast.Attribute) and owner.attr in collaborators and (
            ast.unparse(owner.value) in APP_NAMES
        ):
            name = owner.attr
        elif isinstance(owner, ast.Name) and owner.id in aliases:
            name = aliases[owner.id]
        else:
            continue
        parent = parents.get(node)
        if not (isinstance(parent, ast.Call) and parent.func is node):
            found.append((node, name))
    return found


def test_the_collaborators_read_no_other_collaborators_state() -> None:
    """A collaborator reaches another through the app by its public methods only (called,
    or handed on as a callback), never by its attributes: what its state means for others
    its owner tells them as it changes (``status.searched(outcome)``), and the search shown
    is handed out by the app (``ReaderApp.outcome``). The app itself, which composes them,
    wires one's state to another once, as it builds them, and is not read here."""
    classes = _Classes()
    collaborators = _collaborators(classes)
    # The ones the rule is about are found (a rename of the app's attributes would hide them).
    assert {"search", "status", "views", "citations", "seen", "quitting"} <= set(collaborators)
    for name, attr in READ_ONLY_STATUS:
        assert attr in _properties(collaborators[name]), f"{name}.{attr} is not a property"
    read = []
    paths = sorted((ROOT / "reader/ui").rglob("*.py"))
    for path in paths:
        if path.name == "app.py" and path.parent.name == "ui":
            continue
        for node, name in _reads(ast.parse(path.read_text(encoding="utf-8")), collaborators):
            qualified = collaborators[name]
            attr = node.attr
            is_method = attr in classes.methods(qualified) - _properties(qualified)
            if (is_method and not attr.startswith("_")) or (name, attr) in READ_ONLY_STATUS:
                continue
            read.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert not read, "a collaborator's state read by another:\n" + "\n".join(read)
