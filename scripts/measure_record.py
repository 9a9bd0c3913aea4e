"""How much of a bibliography survives import → export, field by field.

Run from the repository root::

    python scripts/measure_record.py                       # the shared files
    python scripts/measure_record.py path/to/file.bib …    # any files

Each file is imported into a fresh library in a temporary directory and exported in its own
format (BibTeX as BibTeX, RIS as RIS, CSL-JSON and Zotero JSON as CSL-JSON). The source and the
export are then read with plain parsers (bibtexparser, rispy, json), not with reader's own
importers, and every field of every source entry is looked for in the exported entry of the
same key (else the same title; a key survives as one of the exported entry's ``ids``, the
aliases of a paper other entries merged into). A value survives when it is the same after
folding case, braces, whitespace and dash styles; names survive when their family names do.
For each file the table gives the entries in the file, the papers the import made, and per
field ``survived/present``.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SHARED = ROOT.parent / "shared" / "data"
DEFAULT_FILES = [
    SHARED / "bibtex" / "xampl.bib",
    SHARED / "bibtex" / "random-229.bib",
    SHARED / "bibtex" / "bibtexparser-fixtures",
    SHARED / "ris" / "baseline-100.ris",
    SHARED / "csljson" / "items-26.csl.json",
    SHARED / "zotero" / "bbt-1179.zotero.json",
]

# Zotero field → the CSL variable it becomes (Zotero's own mapping, for the fields in use).
ZOTERO_TO_CSL = {
    "title": "title",
    "publicationTitle": "container-title",
    "bookTitle": "container-title",
    "proceedingsTitle": "container-title",
    "websiteTitle": "container-title",
    "blogTitle": "container-title",
    "volume": "volume",
    "issue": "issue",
    "pages": "page",
    "DOI": "DOI",
    "url": "URL",
    "date": "issued",
    "accessDate": "accessed",
    "publisher": "publisher",
    "place": "publisher-place",
    "ISBN": "ISBN",
    "ISSN": "ISSN",
    "language": "language",
    "abstractNote": "abstract",
    "edition": "edition",
    "series": "collection-title",
    "numPages": "number-of-pages",
    "shortTitle": "title-short",
    "journalAbbreviation": "container-title-short",
    "libraryCatalog": "source",
    "extra": "note",
    "itemType": "type",
    "citationKey": "id",
}
_NAME_FIELDS = {"author", "editor", "translator", "container-author", "collection-editor",
                "AU", "A1", "A2", "A3", "A4", "ED", "TA"}
_SPACES = re.compile(r"\s+")
_MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()


def fold(value: Any) -> str:
    """A value folded for comparison: LaTeX braces, case, whitespace, dashes and accents."""
    from reader.text.render import to_plain

    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    text = to_plain(text) if "\\" in text or "{" in text else text
    text = text.replace("{", "").replace("}", "").replace("--", "-").replace("–", "-")
    text = text.replace("~", " ")
    text = unicodedata.normalize("NFKC", text)
    return _SPACES.sub(" ", text).strip().casefold()


def bib_families(value: str) -> list[str]:
    """The family names of a BibTeX name list."""
    from bibtexparser.middlewares.names import (
        parse_single_name_into_parts,
        split_multiple_persons_names,
    )

    out = []
    for name in split_multiple_persons_names(value):
        try:
            parts = parse_single_name_into_parts(name)
        except Exception:
            out.append(fold(name))
            continue
        out.append(fold(" ".join(parts.von + parts.last)))
    return out


def csl_families(value: Any) -> list[str]:
    """The family names (or literals) of a CSL name list."""
    out = []
    for n in value if isinstance(value, list) else []:
        if isinstance(n, dict):
            family = " ".join(
                p for p in (n.get("non-dropping-particle"), n.get("family")) if p
            )
            out.append(fold(n.get("literal") or family))
    return out


def month_number(value: str) -> str:
    text = fold(value)
    if text[:3] in _MONTHS:
        return str(_MONTHS.index(text[:3]) + 1)
    return text.lstrip("0")


def csl_date(value: Any) -> str:
    """Date parts of a CSL date as ``y-m-d`` without leading zeros."""
    if isinstance(value, dict) and value.get("date-parts"):
        parts = value["date-parts"][0]
        return "-".join(str(int(p)) for p in parts if str(p).strip().isdigit())
    if isinstance(value, dict):
        value = value.get("raw") or value.get("literal") or ""
    from datetime import datetime

    for pattern in ("%B %d, %Y", "%d %B %Y", "%B %Y"):
        try:
            moment = datetime.strptime(str(value).strip(), pattern)
        except ValueError:
            continue
        day = f"-{moment.day}" if "%d" in pattern else ""
        return f"{moment.year}-{moment.month}{day}"
    digits = re.findall(r"\d+", str(value))
    return "-".join(str(int(d)) for d in digits[:3])


# --- reading files with plain parsers --------------------------------------------------------


def bib_entries(text: str) -> list[dict[str, str]]:
    """Entries of a BibTeX text as dicts: fields (lower case), plus ``type`` and ``key``."""
    import bibtexparser
    from bibtexparser.model import String

    from reader.sources.bibtex import _evaluate
    from reader.sources.bibtex_values import _MONTHS

    # Field values evaluated as BibTeX does ("Proc. " # STOC), with the file's @strings.
    library = bibtexparser.parse_string(text, parse_stack=[])
    strings = dict(_MONTHS)
    for block in library.blocks:
        if isinstance(block, String):
            strings[block.key.lower()] = _evaluate(str(block.value), strings)
    out = []
    for entry in library.entries:
        fields = {
            f.key.lower(): _evaluate(str(f.value), strings)
            for f in entry.fields
            if str(f.value).strip()
        }
        fields["type"] = entry.entry_type.lower()
        fields["key"] = entry.key
        out.append(fields)
    return out


def ris_entries(text: str) -> list[dict[str, Any]]:
    """Records of a RIS text as tag → value (lists for repeated tags)."""
    records: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for line in text.splitlines():
        match = re.match(r"^([A-Z][A-Z0-9])  -(?: (.*))?$", line)
        if not match:
            if current is not None and line.strip() and current.get("_last"):
                tag = current["_last"]
                current[tag][-1] += " " + line.strip()
            continue
        tag, value = match.group(1), (match.group(2) or "").strip()
        if tag == "TY":
            current = {"TY": [value], "_last": "TY"}
        elif tag == "ER":
            if current is not None:
                current.pop("_last", None)
                records.append(current)
            current = None
        elif current is not None and value:
            current.setdefault(tag, []).append(value)
            current["_last"] = tag
    return records


def csl_entries(text: str) -> list[dict[str, Any]]:
    data = json.loads(text)
    return data if isinstance(data, list) else [data]


def zotero_entries(text: str) -> list[dict[str, Any]]:
    """Zotero items as CSL-named fields (creators grouped by role as CSL names)."""
    out = []
    for item in json.loads(text)["items"]:
        fields: dict[str, Any] = {}
        for name, value in item.items():
            if name == "creators":
                for creator in value:
                    role = {"bookAuthor": "container-author", "seriesEditor":
                            "collection-editor"}.get(creator.get("creatorType"),
                                                     creator.get("creatorType", "author"))
                    person = (
                        {"literal": creator["name"]}
                        if "name" in creator
                        else {"family": creator.get("lastName", ""),
                              "given": creator.get("firstName", "")}
                    )
                    fields.setdefault(role, []).append(person)
            elif name in ZOTERO_TO_CSL and value not in ("", None):
                fields[ZOTERO_TO_CSL[name]] = (
                    "\n".join(map(str, value)) if isinstance(value, list) else value
                )
            elif name == "notes":
                continue  # child notes become the paper's note: counted apart
            elif name not in ("itemID", "attachments", "collections", "relations", "tags",
                              "key", "version", "uri", "dateAdded", "dateModified"):
                if value not in ("", None, [], {}):
                    fields[name] = value
        out.append(fields)
    return out


# --- comparing -------------------------------------------------------------------------------


def same(field: str, fmt: str, a: Any, b: Any) -> bool:
    """Whether a source value and an exported value say the same."""
    if b is None:
        return False
    if fmt == "bibtex":
        if field in ("author", "editor", "translator"):
            return bib_families(a) == bib_families(b)
        if field == "month":
            return month_number(a) == month_number(b)
        return fold(a) == fold(b)
    if fmt == "ris":
        if field in _NAME_FIELDS:
            return [fold(x.split(",")[0]) for x in a] == [fold(x.split(",")[0]) for x in b]
        if field in ("DA", "PY", "Y1", "Y2"):
            return [csl_date(x) for x in a] == [csl_date(x) for x in b]
        return sorted(fold(x) for x in a) == sorted(fold(x) for x in b)
    if field in _NAME_FIELDS:
        return csl_families(a) == csl_families(b)
    if field in ("issued", "accessed", "original-date"):
        return csl_date(a) == csl_date(b) or csl_date({"raw": a}) == csl_date(b)
    if field == "type" and fmt == "zotero":
        return True if b else False
    return fold(a) == fold(b)


def match(source: list[dict[str, Any]], exported: list[dict[str, Any]], key: str, title: str):
    """Pairs (source entry, exported entry or None): by key or BibTeX alias, else by title."""
    def first(value: Any) -> Any:
        return value[0] if isinstance(value, list) and value else value

    by_key = {first(e.get(key)): e for e in exported if e.get(key)}
    # An entry merged into another paper is that paper's entry, under one of its ids.
    by_alias = {alias.strip(): e for e in exported
                for alias in str(e.get("ids", "")).split(",") if alias.strip()}
    by_title: dict[str, list[dict[str, Any]]] = {}
    for e in exported:
        value = e.get(title)
        value = value[0] if isinstance(value, list) and value else value
        by_title.setdefault(fold(value or ""), []).append(e)
    used: set[int] = set()
    pairs = []
    for s in source:
        found = by_key.get(first(s.get(key))) if s.get(key) else None
        if found is None and s.get(key) in by_alias:
            pairs.append((s, by_alias[s[key]]))
            continue
        if found is None or id(found) in used:
            value = s.get(title)
            value = value[0] if isinstance(value, list) and value else value
            found = next(
                (e for e in by_title.get(fold(value or ""), []) if id(e) not in used), None
            )
        if found is not None:
            used.add(id(found))
        pairs.append((s, found))
    return pairs


def measure(path: Path) -> tuple[int, int, Counter[str], Counter[str], str]:
    """(entries in the file, papers imported, fields present, fields survived, note)."""
    from reader.cite.export import export
    from reader.cite.format_names import EXPORT_FORMATS
    from reader.intake.merge import import_records
    from reader.sources import ImportFormatError, detect_format, read_text, stream_file
    from reader.store.database import Store

    text = read_text(path).text
    fmt = detect_format(text) or "?"
    kind = {"bibtex": "bibtex", "ris": "ris", "csljson": "csljson"}.get(fmt, fmt)
    if path.name.endswith(".zotero.json"):
        kind = "zotero"
    reader_fn = {"bibtex": bib_entries, "ris": ris_entries, "csljson": csl_entries,
                 "zotero": zotero_entries}.get(kind)
    source = reader_fn(text) if reader_fn else []
    out_fmt = {"bibtex": "bibtex", "ris": "ris", "csljson": "csljson", "zotero": "csljson"}.get(
        kind, "csljson")
    present: Counter[str] = Counter()
    survived: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "library.db")
        try:
            parsed = stream_file(path)
            records = list(parsed.records)
        except ImportFormatError as exc:
            return len(source), 0, present, survived, f"refused: {exc}"
        import_records(store, records, str(path), parsed.format)
        papers = list(store.iter_papers())
        store.close()
    if out_fmt not in EXPORT_FORMATS:
        note = f"no {out_fmt} export"
        for s in source:
            present.update(k for k in s if not k.startswith("_"))
        return len(source), len(papers), present, survived, note
    if kind == "zotero":
        noted = sum(1 for item in json.loads(text)["items"] if item.get("notes"))
        present["notes → paper note"] = noted
        survived["notes → paper note"] = sum(1 for p in papers if p.note.strip())
    exported_text = export(papers, out_fmt)
    exported = {"bibtex": bib_entries, "ris": ris_entries, "csljson": csl_entries}[out_fmt](
        exported_text
    )
    key, title = {"bibtex": ("key", "title"), "ris": ("ID", "TI"),
                  "csljson": ("id", "title"), "zotero": ("id", "title")}[kind]
    if kind == "ris":
        for e in exported + source:
            if "TI" not in e and "T1" in e:
                e["TI"] = e["T1"]
    for s, e in match(source, exported, key, title):
        for field, value in s.items():
            if field.startswith("_") or value in ("", None, []):
                continue
            present[field] += 1
            other = e.get(field) if e is not None else None
            if kind == "bibtex" and other is None and e is not None:
                aliases = {"journal": "journaltitle", "journaltitle": "journal",
                           "address": "location", "location": "address"}
                other = e.get(aliases.get(field, ""))
            if kind == "bibtex" and field == "key" and e is not None and value != other:
                # A key kept as an alias of the paper it merged into: \cite{key} still finds
                # it through biblatex's ids.
                ids = [k.strip() for k in str(e.get("ids", "")).split(",")]
                other = value if value in ids else other
            if kind == "csljson" and field == "citation-key" and e is not None:
                other = e.get(field) or e.get("id")
            if kind == "ris" and field in ("T1", "TI") and e is not None:
                other = e.get("TI") or e.get("T1")
            if same(field, kind, value, other):
                survived[field] += 1
    return len(source), len(papers), present, survived, ""


def main(argv: list[str]) -> None:
    """Measure the files named (or the shared ones) and print one table per file."""
    paths = [Path(a) for a in argv] or DEFAULT_FILES
    files: list[Path] = []
    for p in paths:
        files += sorted(p.glob("*.bib")) if p.is_dir() else [p]
    grouped: dict[str, list[Path]] = {}
    for f in files:
        label = f.parent.name if f.parent.name == "bibtexparser-fixtures" else f.name
        grouped.setdefault(label, []).append(f)
    for label, members in grouped.items():
        entries = papers = 0
        present: Counter[str] = Counter()
        survived: Counter[str] = Counter()
        notes = []
        for f in members:
            try:
                e, p, pr, sv, note = measure(f)
            except Exception as exc:  # a file the plain parsers cannot read either
                notes.append(f"{f.name}: {type(exc).__name__}: {exc}")
                continue
            entries += e
            papers += p
            present += pr
            survived += sv
            if note:
                notes.append(f"{f.name}: {note}" if len(members) > 1 else note)
        total_p, total_s = sum(present.values()), sum(survived.values())
        print(f"\n== {label}: {entries} entries, {papers} papers imported; "
              f"{total_s}/{total_p} values survive")
        for note in notes:
            print(f"   {note[:150]}")
        cells = [f"{name} {survived[name]}/{n}" for name, n in sorted(present.items())]
        for start in range(0, len(cells), 6):
            print("   " + " · ".join(cells[start : start + 6]))


if __name__ == "__main__":
    main(sys.argv[1:])
