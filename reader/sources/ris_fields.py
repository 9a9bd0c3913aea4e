"""A RIS record's tags as a CSL record: the type, the tags that map to variables, names
"Last, First", and the notes that carry what RIS has no tag for (BibTeX fields our own
export writes) back into the record.

Names are read in :mod:`reader.sources.ris_names`, the notes our export writes in
:mod:`reader.sources.ris_notes`. A tag the exporting tool gives a meaning of its own (see
:mod:`reader.sources.ris_tools`) is kept as it came, and written back by a RIS export, never
read as the standard's field.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable
from typing import Any

from reader.record import date_parts, is_anonymous
from reader.sources.dates import ris_date
from reader.sources.ris_names import EDITOR_MARK, ris_name
from reader.sources.ris_notes import continued_notes, notes_and_bibtex
from reader.sources.ris_tags import first, fold_lines, tag_values
from reader.sources.ris_tools import (
    ARTICLE_CODES,
    DATABASES,
    NAME_MAX,
    TYPE_NAMES,
    WOS,
    Tags,
    database_note,
    distinct_numbers,
    issue,
    issue_month,
    own_meanings,
    spaced_initials,
    tag_meanings,
    volume_without_series,
)
from reader.text.identifiers import openreview_forum_link

# "XX  - value": two characters, two spaces, a hyphen, a space (absent when the value is).
TAG_LINE = re.compile(r"^([A-Z][A-Z0-9])  -(?: (.*))?$")

_ISSN_FORM = re.compile(r"\d{4}-?\d{3}[\dXx]")
# Scopus labels its numbers: "20452322 (ISSN)", "9780262035613 (ISBN)".
_NUMBER_LABEL = re.compile(r"^(.*?)\s*\((ISSN|ISBN)\)$", re.IGNORECASE)
_ISBN_FORM = re.compile(r"\d{9}[\dXx]|\d{13}")
# PubMed's link to the journal's other ISSN, given after the one it links ("1078-8956
# (Linking)"): the same journal's number again, printed as a second ISSN.
_LINKING = re.compile(r"\(\s*linking\s*\)$", re.IGNORECASE)
# The names of PubMed's database in a record's DB ("NLM", "PubMed", "MEDLINE").
_PUBMED = re.compile(r"(?i)^(?:nlm|pubmed|medline)\b")
# What a catalogue writes after an ISBN ("9780134610993 (hardcover)", "(electronic)"): no
# part of the number, and dropped (the binding is no part of a citation).
_NUMBER_QUALIFIER = re.compile(r"^([\dXx-]{8,17})\s*\((?!IS[SB]N\))[^()]*\)$", re.IGNORECASE)
# EndNote's epub date in an article's ET ("2017/01/25"): no edition. Kept as written.
_DATED = re.compile(r"\d{4}(?:/\d{1,2}){1,2}/?")
# A library catalogue's extent in a book's SP ("xvii, 1115 pages"): its number of pages,
# no page range; the count is its last number, the extent kept as written.
_EXTENT = re.compile(r"(?i)(\d+)\s*(?:pages?|p\.|pp\.)(?:\s*[;:,].*)?$")

# RIS reference types as CSL types.
_CSL_TYPES = {
    "JOUR": "article-journal", "JFULL": "article-journal", "EJOUR": "article-journal",
    "ABST": "article-journal", "INPR": "article-journal", "MGZN": "article-magazine",
    "NEWS": "article-newspaper", "CONF": "paper-conference", "CPAPER": "paper-conference",
    "BOOK": "book", "EBOOK": "book", "EDBOOK": "book", "CHAP": "chapter", "ECHAP": "chapter",
    "THES": "thesis", "RPRT": "report", "UNPB": "manuscript", "MANSCPT": "manuscript",
    "ELEC": "webpage", "WEB": "webpage", "BLOG": "post-weblog", "DATA": "dataset",
    "COMP": "software", "PAT": "patent", "DICT": "entry-dictionary", "ENCYC": "entry-encyclopedia",
    "GEN": "document", "PAMP": "pamphlet", "MAP": "map", "STAT": "legislation",
    "SLIDE": "speech", "VIDEO": "motion_picture", "MPCT": "motion_picture",
}
# Tags whose value is a CSL variable as it is (the first tag of a variable wins).
_TEXT_VARIABLES = {
    "VL": "volume", "IS": "issue", "PB": "publisher", "CY": "publisher-place",
    "ET": "edition", "LA": "language", "T3": "collection-title",
    "M3": "genre", "NV": "number-of-volumes", "ST": "title-short",
    "J2": "container-title-short", "JA": "container-title-short", "C3": "event",
    "SV": "number", "DP": "source", "PU": "publisher",  # Web of Science's publisher
}
# CSL's date variables a tag may hold, by the reference type (see ris_tools.tag_meanings).
_DATE_VARIABLES = frozenset({"submitted"})
# Reference types of a recording, whose DB names the site it was published on.
_VIDEO_CODES = frozenset({"VIDEO", "MPCT"})
# Tags of names, and the CSL variable of each; A2 names the editors of a book or chapter.
# An arXiv abstract's link, as an export writes one for a paper's arXiv id.
_ARXIV_ABS = re.compile(r"https?://arxiv\.org/abs/\S+")
_NAME_VARIABLES = frozenset(
    {"author", "editor", "collection-editor", "translator", "container-author"})
_NAME_TAGS = {"AU": "author", "A1": "author", "A2": "editor", "ED": "editor",
              "A3": "collection-editor", "A4": "translator"}
# Tags held in a record's columns or written back from its variables.
_MODELED = frozenset(
    "TY ER TI T1 AB N2 KW DO DA PY Y1 Y2 SP EP SN T2 JF JO BT ID N1 SE".split()
) | frozenset(_TEXT_VARIABLES) | frozenset(_NAME_TAGS)


def ris_csl_type(code: str) -> str:
    """The CSL type a record of RIS type ``code`` is read as (``UNPB``: a manuscript)."""
    return _CSL_TYPES.get(code.upper(), "document")


def csl_and_extra(
    tags: Tags, lines: Iterable[tuple[str | None, str]], tool: str = ""
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The CSL variables of a record, and its tags the record does not model (verbatim);
    ``lines`` are the tag and value of each of its lines (None and the line's text for a
    continuation line),
    ``tool`` the exporter (see :func:`exporter`)."""
    code = fold_lines(first(tags, "TY")).upper()
    csl: dict[str, Any] = {"type": ris_csl_type(code)}
    own = set(own_meanings(tool))
    # The tags the tool writes another field in for this type (Zotero's book: A3 its
    # editors, T2 its series, SP its number of pages); the venue's tag is read as the venue.
    meanings = tag_meanings(tool, code, fold_lines(first(tags, "M3")))
    own.update(tag for tag, variable in meanings.items() if not variable)
    # (A tag of names the type fills with text, a patent's A2 its authority, is no names.)
    name_tags = {**{t: v for t, v in _NAME_TAGS.items() if t not in meanings},
                 **{t: v for t, v in meanings.items() if v in _NAME_VARIABLES}}
    text_tags = {**_TEXT_VARIABLES,
                 **{t: v for t, v in meanings.items() if v and v not in _DATE_VARIABLES}}
    for tag, variable in meanings.items():
        if variable in _NAME_VARIABLES or variable in ("container-title", "number-of-pages"):
            text_tags.pop(tag, None)
    if _DATED.fullmatch(fold_lines(first(tags, "ET"))):
        own.add("ET")
    if tool in DATABASES or code in ARTICLE_CODES or (
        fold_lines(first(tags, "M3")).lower().rstrip(".") in TYPE_NAMES
    ):
        own.add("M3")
    for tag, variable in name_tags.items():
        if tag == "A1" and csl.get("author"):
            continue  # AU and A1 are two spellings of one list; two people may share a name
        if tag == "ED" and csl.get("editor"):
            continue
        if tag in own:
            if tag == "A2":
                # Ovid's A2 runs the cited references' authors together; a book's editors
                # among them are marked ("Gross, James J [Ed]").
                marked = (EDITOR_MARK.sub("", fold_lines(v)) for v in tag_values(tags, tag)
                          if EDITOR_MARK.search(v))
                editors = [name for name in map(ris_name, marked) if name]
                if editors:
                    csl.setdefault("editor", editors)
            continue
        values = tag_values(tags, tag)
        if any(len(fold_lines(v)) > NAME_MAX for v in values):
            own.add(tag)  # not names: a list of them run together
            continue
        for raw in values:
            name = ris_name(raw)
            if name and tool == WOS:
                name = spaced_initials(name)
            if name and not is_anonymous(name):
                csl.setdefault(variable, []).append(name)
    if code == "EDBOOK" and "editor" not in csl and "author" in csl:
        # An edited book's names are its editors (EndNote's Edited Book writes them as AU):
        # cited as authors, "(Eds.)" went missing.
        csl["editor"] = csl.pop("author")
    for tag, variable in text_tags.items():
        if tag in tags and variable not in csl and tag not in own:
            value = fold_lines(first(tags, tag))
            if value:
                csl[variable] = value
    short = fold_lines(first(tags, "JO"))
    full = next((fold_lines(first(tags, tag)) for tag in ("JF", "T2")
                 if tag not in meanings and first(tags, tag).strip()), "")
    if short and full and short != full and "container-title-short" not in csl:
        # JO beside the journal's full name in JF or T2 is its abbreviation (Embase's
        # "Nat. Commun."), which went nowhere: the journal's short name.
        csl["container-title-short"] = short
    elif short and full and short not in (full, csl.get("container-title-short")):
        own.add("JO")  # a third name (JF, JA and JO all given): kept as written
    if "number" in csl and csl.get("collection-title") and "SV" in tags and (
        csl["type"] in ("book", "chapter", "paper-conference")
    ):
        # SV is the volume's number in its series (T3), as a BibTeX book's number is.
        csl["collection-number"] = csl.pop("number")
    if (
        code == "RPRT" and "number" not in csl and not first(tags, "M1")
        and not str(csl.get("volume", "1")).strip().isdigit()
    ):
        # A report's VL is its number, as the RIS types have it ("MSR-TR-2022-15"): cited as
        # a volume, APA printed it as a subtitle and IEEE dropped it. (A volume of digits
        # alone is taken for a volume, as an export writes a report's.)
        csl["number"] = csl.pop("volume")
    if "volume" in csl:
        csl["volume"] = volume_without_series(csl["volume"])
    if csl["type"] == "thesis" and not str(csl.get("volume", "1")).strip()[:1].isdigit():
        # EndNote's thesis puts the degree in VL ("Doctor of Philosophy"): a genre, no volume.
        degree = csl.pop("volume")
        csl.setdefault("genre", degree)
        own.add("VL")
    dated_issue = issue_month(csl.get("issue", ""))
    if "issue" in csl:
        number = issue(csl["issue"])
        if number:
            csl["issue"] = number
        else:
            del csl["issue"]
            own.add("IS")
    lines = list(lines)
    notes, bibtex = notes_and_bibtex(continued_notes(lines) or tag_values(tags, "N1"))
    if (bibtex.get("@type") == "misc" and bibtex.get("eprint")
            and str(bibtex.get("archiveprefix", "")).lower() == "arxiv"
            and csl.get("type") in ("document", "manuscript")):
        # A BibTeX record's arXiv preprint (a @misc with its eprint), as the BibTeX reader
        # reads it: CSL's preprint, not the manuscript our export's UNPB stands for.
        csl["type"] = "article"
    if notes and database_note(notes[0], tool):
        own.add("N1")  # (kept as written, for a RIS export: see database_note)
    elif notes:
        csl["note"] = notes[0]
    book_authors = [ris_name(n) for n in str(bibtex.pop("bookauthor", "")).split(" and ")]
    if any(book_authors):
        csl["container-author"] = [n for n in book_authors if n]
    section = fold_lines(first(tags, "SE"))
    if section:
        # A chapter's SE is its number ("1.2"); elsewhere the section (of a newspaper …).
        csl["chapter-number" if csl["type"] == "chapter" else "section"] = section
    number_from_m1 = False
    if "number" not in csl and (code in ("RPRT", "UNPB") or bibtex):
        number = fold_lines(first(tags, "M1"))  # RIS's "number": a report's, a preprint's
        if number:
            csl["number"] = number
            number_from_m1 = True
    start, end = fold_lines(first(tags, "SP")), fold_lines(first(tags, "EP"))
    extent = _EXTENT.search(start) if not end else None
    if start and meanings.get("SP") == "number-of-pages":
        csl["number-of-pages"] = start  # (Zotero's book or thesis: its number of pages)
    elif extent:
        csl["number-of-pages"] = extent.group(1)
        own.add("SP")
    elif start:
        # A range of one page stays one when a BibTeX record wrote it ("120--120").
        csl["page"] = f"{start}-{end}" if end and (end != start or bibtex) else start
    numbers: dict[str, list[str]] = {}
    serials = [] if "SN" in meanings else tag_values(tags, "SN")  # (a patent's: its number)
    for number in _serial_numbers(serials):
        qualified = _NUMBER_QUALIFIER.match(number)
        number = qualified.group(1) if qualified else number
        labelled = _NUMBER_LABEL.match(number)
        if labelled and labelled.group(1):
            # The label says which number it is; it is no part of the number.
            numbers.setdefault(labelled.group(2).upper(), []).append(labelled.group(1))
            continue
        # SN holds an ISSN, an ISBN or a report's number; the form of the number says
        # which, else the type.
        if _ISSN_FORM.fullmatch(number):
            variable = "ISSN"
        elif _ISBN_FORM.fullmatch(number.replace("-", "").replace(" ", "")):
            variable = "ISBN"
        elif csl["type"] == "report":
            variable = "number"  # "TiCC TR 2009-005"
        else:
            variable = "ISSN" if csl["type"].startswith("article") else "ISBN"
        numbers.setdefault(variable, []).append(number)
    for variable, values in numbers.items():
        csl.setdefault(variable, " ".join(distinct_numbers(values)))
    for tag, variable in meanings.items():
        if variable in _DATE_VARIABLES and first(tags, tag).strip():
            # A patent's filing date (C1); a value no date reads as is kept as written.
            parts = date_parts(ris_date(first(tags, tag)))
            if parts:
                csl[variable] = {"date-parts": [parts]}
            else:
                own.add(tag)
    accession = fold_lines(first(tags, "AN"))
    if accession.isdigit() and _PUBMED.search(fold_lines(first(tags, "DB", "DP"))):
        csl["PMID"] = accession  # (PubMed's record number, as EndNote writes it under AN)
    if code in _VIDEO_CODES and "publisher" not in csl and first(tags, "DB").strip():
        # Zotero files the site a video came from under DB ("YouTube"): the publisher APA
        # and Chicago cite it by ("[Video]. YouTube.").
        csl["publisher"] = fold_lines(first(tags, "DB"))
    issued = date_parts(ris_date(first(tags, "DA")) or ris_date(first(tags, "PY", "Y1")))
    year = date_parts(ris_date(first(tags, "PY", "Y1")))
    if issued and year and (
        issued[:1] != year[:1] or first(tags, "DA").strip().lower().endswith("/submitted")
    ):
        # DA in another year, or marked as a submission's, is the paper's own date (as our
        # export writes an arXiv or OpenReview submission day), not its publication's.
        issued = year
    if issued and len(issued) == 1 and dated_issue:
        issued = [*issued, dated_issue]  # the month the issue is dated with ("1 January")
    if issued:
        csl["issued"] = {"date-parts": [issued]}
    accessed = date_parts(ris_date(first(tags, "Y2")))
    if accessed and "Y2" not in own and (not issued or accessed[:1] >= issued[:1]) and (
        accessed != issued
    ):
        csl["accessed"] = {"date-parts": [accessed]}
    elif first(tags, "Y2"):
        # Not a day the record was looked at: the publication date again (Ovid, Citavi), a
        # secondary date of the old RIS, a day before it was published, or no date at all:
        # kept as written. The publication date again may say more than PY: Ovid's
        # "2021 Apr" beside "2021" gives the month.
        if accessed and issued and accessed[:1] == issued[:1] and len(accessed) > len(issued) \
                and "Y2" in own:
            csl["issued"] = {"date-parts": [accessed]}
        own.add("Y2")
    kept: dict[str, Any] = {"@type": code} if code else {}
    keeping, last = False, ""
    for found, value in lines:
        if found is None:
            if keeping and value.strip():
                # A continuation line (Ovid's A2 runs on for every reference): the value's.
                kept_values = kept[last]
                kept_values[-1] = f"{kept_values[-1]} {value.strip()}".strip()
            continue
        keeping = (
            (found not in _MODELED and found not in meanings) or found in own
        ) and bool(value.strip())
        if keeping:
            kept.setdefault(found, []).append(value.strip())
            last = found
    if len(notes) > 1:
        kept["N1"] = notes[1:]
    # (From the lines: the table holds one AB.)
    abstracts = [fold_lines(value) for found, value in lines if found == "AB" and value.strip()]
    if len(abstracts) > 1:
        # A database's second AB (CINAHL's copyright notice on the first): not the paper's
        # abstract, and kept, where only the first was read and the rest went unsaid.
        kept["AB"] = abstracts[1:]
    if number_from_m1:
        kept["M1"] = kept.get("M1", [])[1:]
        if not kept["M1"]:
            del kept["M1"]
    if bibtex and kept.get("L1"):
        # The file of the BibTeX record this RIS record was written from.
        bibtex["file"] = kept["L1"][0]
        if len(kept["L1"]) > 1:
            kept["L1"] = kept["L1"][1:]
        else:
            del kept["L1"]
    if start and end == start and not bibtex:
        kept["EP"] = [end]  # a one-page article: the page is "97", the source said 97–97
    for tag in ("JF", "JO", "BT"):
        if first(tags, tag).strip() and not first(tags, "T2").strip():
            kept["@venue"] = tag  # the tag the source named its journal or book with
            break
    # The first URL is the paper's own (a column); the others are kept as they came.
    urls = kept.pop("UR", [])
    # The first link is the paper's; an arXiv abstract's or OpenReview forum's link after it
    # is its arXiv or OpenReview id (as an export writes it for a paper found elsewhere),
    # the others are kept.
    urls = urls[:1] + [
        u for u in urls[1:] if not _ARXIV_ABS.fullmatch(u.strip()) and not openreview_forum_link(u)
    ]
    if len(urls) > 1:
        kept["UR"] = urls[1:]
    return csl, {"ris": kept, **({"bibtex": bibtex} if bibtex else {})}


def _json_list(line: str) -> list[str]:
    """The strings of a line written as a JSON list of them; else the line."""
    if line.lstrip().startswith("[") and line.rstrip().endswith("]"):
        with contextlib.suppress(ValueError):
            listed = json.loads(line)
            if isinstance(listed, list) and all(isinstance(item, str) for item in listed):
                return listed
    return [line]


def _serial_numbers(values: list[str]) -> list[str]:
    """The numbers of a record's ``SN`` lines, each alone: Scopus gives both of a proceedings
    volume's in one line ("03029743 (ISSN); 978-303120052-6 (ISBN)"), PubMed's export by
    EndNote its two ISSNs on two lines of one tag, the second a link to the first, Rayyan
    its two as a JSON list (``["1932-8494", "1932-8486"]``)."""
    numbers = [fold_lines(part) for value in values for line in value.splitlines()
               for listed in _json_list(line) for part in listed.split(";") if part.strip()]
    linked = [number for number in numbers if not _LINKING.search(number)]
    return linked or numbers
