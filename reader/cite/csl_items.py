"""Papers as CSL items: the record's type, names, dates and variables, with the meaning of
BibTeX entry types and fields the styles expect (chapters, theses, series)."""

from __future__ import annotations

import html
import re
from typing import Any

from reader.cite.bibtex_text import LOCAL_FIELDS, bibtex_source, with_arxiv_id
from reader.cite.bibtex_types import (
    arxiv_preprint,
    biblatex_type_words,
    genre_of_kind,
    numbers_in_series,
)
from reader.cite.csl_fixes import GOES_ON
from reader.cite.csl_styles import Style
from reader.cite.keys import entry_key
from reader.cite.name_scripts import citable_name
from reader.cite.title_languages import title_with_translation
from reader.cite.venues import (
    held_at,
    published_in,
    series_of_book,
    submitted_to,
    unpublished,
    workshop_track,
)
from reader.models import Paper
from reader.record import (
    COLUMN_VARIABLES,
    NAME_VARIABLES,
    date_parts,
    names_go_on,
    source_doi,
    split_name,
)
from reader.signals import UNDER_REVIEW, decision_field, export_state
from reader.text.identifiers import openreview_forum_id
from reader.text.render import plain_line, to_plain

ISO_DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")
# Words citeproc-py must not recase: a capital after the first letter (arXiv, GDPval, LLMs), a
# Greek letter first (a symbol from rendered math, "α-nets": no style wants "Α-Nets"), or a
# Cyrillic one (title case is English's: "Нейронные Сети" is wrong in Russian).
_KEEP_CASE = re.compile(
    r"(?<!\S)(?:\S*[^\W\d_]\S*?[A-Z]|[\u0370-\u03ff\u1f00-\u1fff\u0400-\u04ff])\S*")
# A first word in lower-case letters only.
_LOWER_FIRST = re.compile(r"[a-z][a-z]*(?=\s)")

# BibTeX entry types whose ``type`` field names the sectional unit ("Part", "Section"), not a
# genre: CSL styles read a chapter's genre as "Introduction to" the book (Chicago's "to").
_UNIT_TYPES = frozenset({"inbook", "incollection", "bookinbook", "suppbook", "suppcollection"})
_ORDINAL_WORDS = {
    word: n
    for n, words in enumerate(
        ("first 1st", "second 2nd", "third 3rd", "fourth 4th", "fifth 5th", "sixth 6th",
         "seventh 7th", "eighth 8th", "ninth 9th", "tenth 10th"),
        start=1,
    )
    for word in words.split()
}


def csl_type(paper: Paper) -> str:
    """The CSL item type: the source's, else paper-conference, article-journal, article
    (preprint) or manuscript from the venue."""
    venue = (paper.venue or "").strip().lower()
    kind = (paper.kind or "").strip().lower()
    stored = paper.csl.get("type")
    # Found on arXiv, published in a journal its listing names: cited as published there.
    published = bool(stored and paper.csl.get("container-title"))
    if (venue.startswith("arxiv") and not published) or (
        not venue and paper.arxiv_id and not stored
    ):
        return "article"
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
    match = ISO_DATE.match(paper.date or "")
    if match and (paper.year is None or int(match.group(1)) == paper.year):
        parts = [int(p) for p in match.groups() if p is not None]
        if len(parts) < 2 or 1 <= parts[1] <= 12:
            return {"date-parts": [parts]}
    if paper.year is not None:
        return {"date-parts": [[paper.year]]}
    return None


def one_line(text: str) -> str:
    """Plain text on one line (LaTeX and Markdown rendered, whitespace folded)."""
    return plain_line(text or "")


def csl_item(paper: Paper, *, abstract: bool = True, files: bool = True) -> dict[str, Any]:
    """The paper as a CSL-JSON item, ``id`` being its citation key; strings are plain text.

    Everything the record holds goes in: the source's type, names, volume, issue, pages,
    publisher and the rest of its CSL variables; without ``files``, not a BibTeX source's
    fields naming local files (a citation's item, not an export's).
    """
    key = entry_key(paper)
    # The key twice: as the id, and as CSL 1.0.2's citation-key, which pandoc and Better
    # BibTeX read (a file of theirs imported here gave its citation-key, and got only an id).
    item: dict[str, Any] = {"id": key, "citation-key": key, "type": csl_type(paper)}
    title = one_line(paper.title)
    if title and not (paper.title_derived and paper.csl.get("type")):
        item["title"] = title
    names = csl_names(paper)
    if names:
        item["author"] = names
    stored_issued = paper.csl.get("issued")
    issued = stored_issued if isinstance(stored_issued, dict) else _issued(paper)
    own_date = date_parts(paper.date)
    if issued is not stored_issued and paper.year and own_date and own_date != [paper.year]:
        # A date of the paper's own (arXiv's or OpenReview's submission day) is not when it
        # was published: it is cited as the year, and goes out as CSL's submitted date, so
        # that it comes back as the paper's date, not as a day of publication.
        issued = {"date-parts": [[paper.year]]}
        if "submitted" not in paper.csl:
            item["submitted"] = {"date-parts": [own_date]}
    if issued:
        item["issued"] = issued
    venue = one_line(paper.venue or "")
    if unpublished(paper):
        # Turned down: the venue is the event it was submitted to, not where it appeared.
        item["type"] = "manuscript"
        if venue:
            item["event-title"] = venue
    elif item["type"] == "article" and (not paper.csl.get("type") or (
        paper.arxiv_id and str(paper.csl.get("publisher", "arXiv")).lower() == "arxiv")):
        # A preprint: the archive is its publisher and the arXiv id its number, as Zotero has it
        # (a biblatex @online with its eprint too; a Zotero table's, its id in Extra or DOI).
        item["publisher"] = "arXiv"
        if paper.arxiv_id and "number" not in paper.csl:
            # As Zotero has it, and APA and Chicago print it: "(arXiv:1706.03762)".
            item["number"] = f"arXiv:{paper.arxiv_id}"
    elif item["type"] == "article" and venue == paper.csl.get("publisher"):
        pass  # a preprint's server (medRxiv's, as PubMed lists it): its publisher, no journal
    elif venue and not held_at(paper, venue) and not series_of_book(paper, venue):
        item["container-title"] = workshop_track(paper, published_in(paper, venue))
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
        # TeX's ligatures only in an abstract written as TeX (a .bib file's).
        tex = bool(bibtex_source(paper))
        item["abstract"] = to_plain(paper.abstract, ligatures=tex).strip()
    keywords = [k.strip() for k in paper.keywords or [] if k.strip()]
    if keywords:
        item["keyword"] = ", ".join(keywords)
    if paper.withdrawn and "status" not in item:
        # CSL's publication status ("forthcoming", "retracted"), as pandoc reads biblatex's
        # pubstate.
        item["status"] = "withdrawn"
    elif export_state(paper.decision) and "status" not in item:
        # A submission with no decision yet is not a paper of the conference (yet), nor is
        # one turned down: said so ("under review", "rejected"), it is read back so. (A
        # citation says only the first: engine_item.)
        item["status"] = export_state(paper.decision)
    source_fields = {
        fmt: fields for fmt, fields in (paper.extra or {}).items()
        if isinstance(fields, dict) and fields
    }
    bibtex = source_fields.get("bibtex")
    if bibtex:
        bibtex = source_fields["bibtex"] = with_arxiv_id(bibtex, paper)
    if bibtex and "title" in item and item["title"] != " ".join((paper.title or "").split()):
        # A BibTeX title is kept as TeX: the item has its text, custom the TeX it came as.
        source_fields["bibtex"] = {**bibtex, "title": paper.title}
    if bibtex and "abstract" in item and item["abstract"] != paper.abstract:
        # A BibTeX abstract likewise, paragraphs and all.
        source_fields["bibtex"] = {**source_fields["bibtex"], "abstract": paper.abstract}
    if not files and source_fields.get("bibtex"):
        source_fields["bibtex"] = {
            name: value for name, value in source_fields["bibtex"].items()
            if name not in LOCAL_FIELDS
        }
    custom: dict[str, Any] = dict(source_fields)
    if paper.aliases:
        # The paper's other citation keys (biblatex's ids), so documents citing them still
        # find it after an import.
        custom["ids"] = list(paper.aliases)
    if paper.arxiv_id and item.get("URL") != f"https://arxiv.org/abs/{paper.arxiv_id}" and (
        "eprint" not in (bibtex or {})
    ):
        # CSL has no variable for the arXiv id of a paper whose link is another's.
        custom["arxiv"] = paper.arxiv_id
    if paper.openreview_id and openreview_forum_id(item.get("URL")) != paper.openreview_id:
        custom["openreview"] = paper.openreview_id  # nor for its OpenReview forum's id
    for name, value in (("tldr", paper.tldr), ("primaryarea", paper.primary_area),
                        ("decision", decision_field(paper.decision, paper.withdrawn))):
        if value and value.strip():
            # OpenReview's TL;DR, area and decision (accepted, withdrawn): CSL has no variables.
            custom[name] = value
    if custom:
        # CSL's place for data without a variable (styles ignore it): the source's own fields
        # and entry type, by format, so that an import of the item gives them back.
        item["custom"] = custom
    return item


def _protect_case(text: str) -> str:
    """Text for citeproc with mixed-case words (arXiv, GDPval) in ``nocase`` spans.

    The spans wrap whole space-separated words: citeproc-py joins the words of a recased
    string with single spaces, so a span ending inside a word would split it.
    """
    protected = _KEEP_CASE.sub(lambda m: f'<span class="nocase">{m.group(0)}</span>', text)
    first = _LOWER_FIRST.match(protected)
    if first and any(word[:1].isupper() for word in protected.split()[1:]):
        # A name whose first word alone is lower-case ("npj Digital Medicine", "de Gruyter")
        # is written so on purpose: APA's title case printed "Npj Digital Medicine".
        return f'<span class="nocase">{first[0]}</span>{protected[first.end():]}'
    return protected


def engine_item(paper: Paper, item_id: str, style: Style, *, escape: bool) -> dict[str, Any]:
    """The CSL item handed to citeproc-py: our id, case protection, only what styles use.

    citeproc-py's HTML formatter escapes the style's own text but not the item's, so for HTML
    the item's strings are escaped here (a title "<b>" must not become markup).
    """
    item = csl_item(paper, abstract=style.uses_abstract)
    item["id"] = item_id
    item.pop("citation-key")
    item.pop("keyword", None)
    if "status" not in paper.csl and item.get("status") not in (UNDER_REVIEW, "withdrawn"):
        # A submission under review is cited as one, and a withdrawn one as withdrawn:
        # "(2026). ICLR." alone would read as a paper of the conference.
        item.pop("status", None)
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
            item[variable] = [*item[variable], {"family": GOES_ON}]
    for variable in NAME_VARIABLES:
        if isinstance(item.get(variable), list):
            item[variable] = [citable_name(name) for name in item[variable]]
    if isinstance(item.get("container-title"), str):
        item["container-title"] = submitted_to(paper, item["container-title"])
    if unpublished(paper) and paper.withdrawn and "genre" not in item:
        # What it is, where a style prints a manuscript's kind ("[Withdrawn submission]").
        item["genre"] = "Withdrawn submission"
        item.pop("status", None)  # (said once: Chicago printed "Withdrawn submission. Withdrawn.")
    _bibtex_to_csl_meaning(item, paper)
    title_with_translation(item)
    if unpublished(paper):
        # Where it was submitted (kept in CSL-JSON) read as where it appeared in a style.
        item.pop("event-title", None)
    elif isinstance(item.get("event"), str) and "event-title" not in item:
        item["event-title"] = item["event"]  # (CSL 1.0.2's name; the styles test it)
        place = item.get("publisher-place")
        if style.name.startswith("chicago") and place and "event-place" not in item:
            # Chicago prints only an event's place where there is an event: a conference
            # paper's one place (Zotero's) is the conference's too (MLA printed it twice).
            item["event-place"] = place
    if item.get("type") == "article-journal":
        # A journal's place in a database's record (Ovid's, Web of Science's) is its
        # publisher's city: Chicago and MLA print a place after a journal's title only to
        # tell two journals of one name apart ("Psychological Bulletin (US)").
        item.pop("publisher-place", None)
    volume = str(item.get("volume", "")).strip()
    if volume and re.search(rf"\bVol(?:ume|\.)?\s*{re.escape(volume)}\b",
                            str(item.get("container-title", "")), re.IGNORECASE):
        # Proceedings named by their volume ("… Volume 1 (Long and Short Papers)") beside the
        # same volume another tool's record gave: APA printed "(Vol. 1, pp. 4171–4186)" too.
        item.pop("volume")
    if "page" in item:
        # citeproc-py reads a range only with a hyphen; it prints it with an en dash.
        item["page"] = _whole_range(str(item["page"]).replace("\u2013", "-").replace("--", "-"))
    if "issued" in item and "issued" not in paper.csl:
        # The cited year only: a stored full date is often the arXiv or OpenReview submission
        # day, which APA and IEEE would print as if it were the publication date.
        item["issued"] = {"date-parts": [item["issued"]["date-parts"][0][:1]]}
    if escape:
        for field, value in item.items():
            if field in NAME_VARIABLES and isinstance(value, list):
                item[field] = [
                    {k: html_escape(v) if isinstance(v, str) else v for k, v in n.items()}
                    for n in value
                ]
            elif isinstance(value, str) and field not in ("id", "type"):
                item[field] = html_escape(value)
    number, publisher = str(item.get("number", "")), str(item.get("publisher", ""))
    if publisher and number.startswith(f"{publisher}:") and style.name.startswith("ieee"):
        # IEEE prints "publisher: number" itself: "arXiv: arXiv:1706.03762" otherwise.
        item["number"] = number[len(publisher) + 1:].strip()
    for field in ("title", "container-title", "publisher", "collection-title", "number",
                  "original-title"):
        if isinstance(item.get(field), str):
            # ("number": a style capitalising its first letter printed "(ArXiv:1706.03762)".)
            item[field] = _protect_case(item[field])
    return item


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
    elif genre_of_kind(kind) and not item.get("genre"):
        item["genre"] = genre_of_kind(kind)
    genre = item.get("genre")
    if isinstance(genre, str) and biblatex_type_words(genre):
        item["genre"] = biblatex_type_words(genre)
    edition = item.get("edition")
    if isinstance(edition, str) and edition.strip().lower() in _ORDINAL_WORDS:
        # "Second": styles print a numeric edition as their own "2nd ed.".
        item["edition"] = str(_ORDINAL_WORDS[edition.strip().lower()])
    if arxiv_preprint(paper, item):
        # Cited with nothing but its link, the archive went unsaid, or "In arXiv preprint".
        item.pop("container-title", None)
        item.update(type="article", publisher="arXiv", number=f"arXiv:{paper.arxiv_id}")
    if numbers_in_series(paper, item):
        item["collection-number"] = item.pop("number")
    if item.get("status") == "prepublished" and item.get("type") == "article":
        # biblatex's state of a preprint (Better BibLaTeX's) is what CSL's preprint type says
        # already: APA printed "(Prepublished)" after the link, Chicago "prepublished".
        item.pop("status")


_PAGE_RANGE = re.compile(r"(\d+)-(\d+)")


def _whole_range(page: str) -> str:
    """A page range whose end is abbreviated as MEDLINE writes it ("245-52") in full
    ("245-252"): the styles print the end as given, and APA and IEEE want it whole."""
    match = _PAGE_RANGE.fullmatch(page.strip())
    if not match:
        return page
    first, last = match.groups()
    if len(last) < len(first) and int(last) < int(first):
        return f"{first}-{first[: len(first) - len(last)]}{last}"
    return page


def html_escape(text: str) -> str:
    """Text escaped for HTML content."""
    return html.escape(text, quote=False)
