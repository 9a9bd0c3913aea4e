"""Editing a paper's metadata by hand: what the user typed, checked field by field."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlparse

from reader.record import CSL_TYPES, parse_names_text
from reader.store.database import CITEKEY
from reader.text.identifiers import normalize_doi

#: The fields the edit form offers, in order, with their labels.
FIELDS = (
    ("title", "Title"),
    ("authors", "Authors (;)"),
    ("year", "Year"),
    ("venue", "Venue"),
    ("url", "URL"),
    ("doi", "DOI"),
    ("citekey", "Citation key"),
    ("type", "Type (CSL)"),
    ("volume", "Volume"),
    ("issue", "Issue"),
    ("page", "Pages"),
    ("publisher", "Publisher"),
    ("publisher-place", "Place"),
    ("editor", "Editors (;)"),
)
#: Fields of the form that are variables of the paper's bibliographic record.
RECORD_FIELDS = ("type", "volume", "issue", "page", "publisher", "publisher-place", "editor")


@dataclass(slots=True)
class Checked:
    """The cleaned values (ready to store) and a message per field that is wrong."""

    values: dict[str, object] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when every field is valid."""
        return not self.errors


def split_authors(text: str) -> list[str]:
    """Authors from a form: one per line, or separated by semicolons or `` and ``."""
    parts = re.split(r"\s*(?:;|\n|\band\b)\s*", text)
    return [" ".join(p.split()) for p in parts if p.strip()]


def check(form: dict[str, str]) -> Checked:
    """Validate the raw text of each field present in ``form``."""
    out = Checked()
    for name, raw in form.items():
        text = raw.strip()
        if name == "title":
            if not text:
                out.errors[name] = "A paper needs a title"
            else:
                out.values[name] = " ".join(text.split())
        elif name == "authors":
            out.values[name] = split_authors(raw)
        elif name == "year":
            if not text:
                out.values[name] = None
            elif not text.isdigit() or not 1000 <= int(text) <= 2100:
                out.errors[name] = "A year is four digits, e.g. 2026"
            else:
                out.values[name] = int(text)
        elif name == "venue":
            out.values[name] = " ".join(text.split()) or None
        elif name == "url":
            if not text:
                out.values[name] = None
            elif urlparse(text).scheme not in ("http", "https") or not urlparse(text).netloc:
                out.errors[name] = "Only http:// and https:// addresses"
            else:
                out.values[name] = text
        elif name == "doi":
            if not text:
                out.values[name] = None
            else:
                doi = normalize_doi(text)
                if doi is None:
                    out.errors[name] = "A DOI looks like 10.1234/abc"
                else:
                    out.values[name] = doi
        elif name == "citekey":
            if not CITEKEY.fullmatch(text):
                out.errors[name] = (
                    "Letters, digits and _-:./+ only, starting with a letter, digit or _"
                )
            else:
                out.values[name] = text
        elif name == "type":
            if text and text not in CSL_TYPES:
                out.errors[name] = "A CSL type: article-journal, paper-conference, chapter, book …"
            else:
                out.values[name] = text or None
        elif name == "page":
            out.values[name] = re.sub(r"\s*(?:--|[-\u2013\u2014])\s*", "-", text) or None
        elif name == "editor":
            out.values[name] = parse_names_text(raw)
        elif name in RECORD_FIELDS:
            out.values[name] = " ".join(text.split()) or None
        else:
            out.errors[name] = f"Unknown field {name!r}"
    return out
