"""How RIS files written by different tools land: field by field, against each file and
across the tools that exported the same records.

Run from the repository root::

    python scripts/measure_ris_tools.py                 # the shared RIS exports, Zotero JSON
    python scripts/measure_ris_tools.py FILE …          # any RIS or Zotero JSON files
    python scripts/measure_ris_tools.py -v …            # and every value that differs

Each file is imported into a fresh library in a temporary directory, through the same door
the reader and the ``reader import`` command use. Its records are read a second time by the
plain reader below (a tag line is ``XX  - value``; nothing here knows which tool wrote the
file), which says what the file carries for each field:

* title ``TI``/``T1``; authors ``AU``/``A1`` (family names); year, the first four digits of
  ``PY``/``Y1``/``DA``; venue ``T2``/``JF``/``JO``/``BT``; volume ``VL``; issue ``IS``;
  pages ``SP``–``EP``; abstract ``AB``/``N2``; keywords ``KW``; url the first ``UR`` link;
* doi: ``DO``, else a DOI any tag holds, bare or as a doi.org link (CINAHL writes it in
  ``L3``, Ovid as a link in ``L1``).

For each file the first table gives the records in the file, the papers the import made,
the records it merged into another one (``merged``), papers that share a title and year
with another (``dup``), and per field ``kept/present``: of the records carrying the field,
how many papers hold the same value (folded: case, accents, punctuation, dash styles).

Several tools exported the same records; the second table compares them with each other:
for every record two tools or more carry (matched by title), the value most of them give
is the reference (for the venue, also the short name most of them give: some tools carry
only that), and each tool's papers are counted ``agree/compared`` against it.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SHARED = ROOT.parent / "shared" / "data"
FIELDS = ("title", "authors", "year", "venue", "volume", "issue", "pages", "doi", "abstract",
          "keywords", "url")
_TAG = re.compile(r"^(?:\ufeff)?([A-Z][A-Z0-9])  -(?: (.*))?$")
_DOI = re.compile(r"(?:^|doi\.org/|doi:)(10\.\d{4,9}/\S+)", re.IGNORECASE)
_HTML = re.compile(r"<[^>]+>")
_MONTH_AFTER = re.compile(r"(?<=\d) (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*$")
_GLUED = re.compile(r"[ \t]{3,}(?=[A-Z][A-Z0-9]  - )")
_URL = re.compile(r"(?:https?|ftp)://\S+")


def default_files() -> list[Path]:
    """The shared exports of one set of records by many tools, the RIS baseline and the
    Better BibTeX JSON library."""
    tools = sorted((SHARED / "ris" / "asreview").glob("*.ris"))
    return [*tools, SHARED / "ris" / "baseline-100.ris",
            SHARED / "zotero" / "bbt-1179.zotero.json"]


def fold(value: Any) -> str:
    """Text folded for comparison: tags, accents, case, punctuation and spacing gone."""
    text = _HTML.sub("", str(value or ""))
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


def _pages(first: str, last: str = "") -> str:
    first, last = fold(first), fold(last)
    return f"{first} {last}" if last and last != first else first


# --- what the file carries -------------------------------------------------------------------


def ris_records(path: Path) -> Iterator[dict[str, list[str]]]:
    """The records of a RIS file as tag → values (continuation lines joined)."""
    record: dict[str, list[str]] | None = None
    last = ""
    text = path.read_text(encoding="utf-8-sig", errors="replace")
    # Rayyan glues some tag lines onto one, a run of spaces apart.
    for line in _GLUED.sub("\n", text).splitlines():
        line = line.rstrip()
        match = _TAG.match(line)
        if match:
            tag, value = match.group(1), (match.group(2) or "").strip()
            if tag == "TY":
                record = {}
            if record is None:
                continue
            if tag == "ER":
                yield record
                record = None
                continue
            record.setdefault(tag, []).append(value)
            last = tag
        elif record is not None and last and line.strip():
            if last == "KW":
                record[last].append(line.strip())  # a keyword a line (EndNote)
            else:
                record[last][-1] = f"{record[last][-1]} {line.strip()}"


def _first(record: dict[str, list[str]], *tags: str) -> str:
    for tag in tags:
        for value in record.get(tag, []):
            if value.strip():
                return value.strip()
    return ""


def _family(name: str) -> str:
    name = name.strip()
    return fold(name.split(",")[0] if "," in name else name.split()[-1] if name else "")


def ris_truth(record: dict[str, list[str]]) -> dict[str, Any]:
    """What a RIS record carries for each field (absent fields left out)."""
    found: dict[str, Any] = {
        "title": fold(_first(record, "TI", "T1")),
        "authors": tuple(_family(a) for a in record.get("AU") or record.get("A1") or []),
        "venue": fold(_first(record, "T2", "JF", "JO", "BT")),
        "volume": fold(_first(record, "VL")),
        # An issue dated with its month ("1 January") is issue 1.
        "issue": _MONTH_AFTER.sub("", fold(_first(record, "IS"))),
        "pages": _pages(_first(record, "SP"), _first(record, "EP")),
        "abstract": fold(_first(record, "AB", "N2")),
        "keywords": frozenset(fold(k) for v in record.get("KW", []) for k in v.split(";")
                              if fold(k)),
    }
    year = re.search(r"\d{4}", _first(record, "PY", "Y1", "DA"))
    found["year"] = int(year.group(0)) if year else None
    doi = _first(record, "DO")
    if not doi:
        for values in record.values():
            for value in values:
                match = _DOI.search(value.strip())
                if match and (value.strip().startswith("10.") or "doi" in value.lower()):
                    doi = match.group(1)
                    break
            if doi:
                break
    found["doi"] = doi.lower().rstrip(".") if doi else ""
    url = _URL.search(_first(record, "UR"))
    found["url"] = url.group(0) if url else ""
    return {k: v for k, v in found.items() if v not in ("", (), frozenset(), None)}


def zotero_truth(item: dict[str, Any]) -> dict[str, Any]:
    """What a Zotero item carries for each field."""
    venue = next((item[f] for f in ("publicationTitle", "bookTitle", "proceedingsTitle",
                                    "websiteTitle") if item.get(f)), "")
    pages = str(item.get("pages") or "").replace("–", "-").partition("-")
    year = re.search(r"\d{4}", str(item.get("date") or ""))
    found: dict[str, Any] = {
        "title": fold(item.get("title")),
        "authors": tuple(fold(c.get("lastName") or c.get("name"))
                         for c in item.get("creators") or []
                         if c.get("creatorType", "author") == "author"),
        "year": int(year.group(0)) if year else None,
        "venue": fold(venue),
        "volume": fold(item.get("volume")),
        "issue": fold(item.get("issue")),
        "pages": _pages(pages[0], pages[2]),
        "doi": str(item.get("DOI") or "").lower(),
        "abstract": fold(item.get("abstractNote")),
        "keywords": frozenset(fold(t.get("tag") if isinstance(t, dict) else t)
                              for t in item.get("tags") or []),
        "url": str(item.get("url") or ""),
    }
    return {k: v for k, v in found.items() if v not in ("", (), frozenset(), None)}


# --- what the import made --------------------------------------------------------------------


def paper_fields(paper: Any) -> dict[str, Any]:
    """The same fields of an imported paper, folded alike."""
    from reader.text.render import plain_line

    names = paper.csl.get("author") if isinstance(paper.csl.get("author"), list) else None
    if names:
        authors = tuple(fold(n.get("family") or n.get("literal") or "") for n in names)
    else:
        authors = tuple(_family(a) for a in paper.authors)
    page = str(paper.csl.get("page") or "").replace("–", "-").partition("-")
    return {
        # As the reader shows it: a title kept as TeX (a tagged species name, \emph{…}).
        "title": fold(plain_line(paper.title)),
        "authors": authors,
        "year": paper.year,
        "venue": fold(paper.venue),
        "short venue": fold(paper.csl.get("container-title-short")),
        "volume": fold(paper.csl.get("volume")),
        "issue": fold(paper.csl.get("issue")),
        "pages": _pages(page[0], page[2]),
        "doi": str(paper.csl.get("DOI") or paper.doi or "").lower(),
        "abstract": fold(paper.abstract),
        # A Zotero tag is the paper's tag or (an automatic one) its keyword.
        "keywords": frozenset(fold(k) for k in (*paper.keywords, *paper.tags) if fold(k)),
        "url": paper.url or "",
    }


def _same(field: str, truth: Any, value: Any) -> bool:
    if field == "keywords":
        # Tags are stored normalised ("To Read" → "to-read"): compared without spacing.
        return {k.replace(" ", "") for k in truth} == {k.replace(" ", "") for k in value}
    return bool(truth == value)


def measure(path: Path) -> dict[str, Any]:
    """Import one file into a fresh library; what the file carries and what landed."""
    from reader.library import Library

    if path.suffix == ".json":
        items = json.loads(path.read_text(encoding="utf-8-sig"))
        items = items.get("items", items) if isinstance(items, dict) else items
        truths = [zotero_truth(i) for i in items if i.get("itemType") not in ("note",
                                                                              "attachment")]
    else:
        truths = [ris_truth(r) for r in ris_records(path)]
    with tempfile.TemporaryDirectory() as tmp:
        library = Library(Path(tmp) / "library")
        try:
            summary = library.imports.write_files([path])
            papers = [paper_fields(p) for p in library.papers(library.all_ids())]
        finally:
            library.close()
    by_title: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for fields in papers:
        by_title[fields["title"]].append(fields)
    kept: Counter[str] = Counter()
    present: Counter[str] = Counter()
    matched: list[tuple[dict[str, Any], dict[str, Any] | None]] = []
    for truth in truths:
        candidates = by_title.get(truth.get("title", ""), [])
        paper = next((p for p in candidates if p["doi"] == truth.get("doi", p["doi"])),
                     candidates[0] if candidates else None)
        matched.append((truth, paper))
        for field, value in truth.items():
            present[field] += 1
            if paper is not None and _same(field, value, paper[field]):
                kept[field] += 1
    titles = Counter((p["title"], p["year"]) for p in papers)
    return {
        "records": len(truths),
        "papers": len(papers),
        "merged": summary.merged,
        "dup": sum(n for n in titles.values() if n > 1),
        "kept": kept,
        "present": present,
        "matched": matched,
    }


def agreement(results: dict[str, dict[str, Any]]) -> dict[str, tuple[Counter[str], Counter[str]]]:
    """Per tool, per field: papers agreeing with what most tools give for the same record."""
    by_record: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for name, result in results.items():
        for truth, paper in result["matched"]:
            if paper is not None and truth.get("title"):
                by_record[truth["title"]][name] = paper
    out: dict[str, tuple[Counter[str], Counter[str]]] = {
        name: (Counter(), Counter()) for name in results
    }
    for tools in by_record.values():
        if len(tools) < 2:
            continue
        for field in FIELDS:
            values = Counter(_key(field, p[field]) for p in tools.values() if p[field])
            if not values:
                continue
            reference, _ = values.most_common(1)[0]
            accepted = {reference}
            if field == "venue":
                # A tool that gives only the journal's short name (Rayyan) agrees when it is
                # the short name the others give.
                shorts = Counter(p["short venue"] for p in tools.values() if p["short venue"])
                accepted |= {fold(s) for s, _ in shorts.most_common(1)}
            for name, paper in tools.items():
                agree, compared = out[name]
                compared[field] += 1
                if _key(field, paper[field]) in accepted:
                    agree[field] += 1
    return {name: counts for name, counts in out.items() if counts[1]}


def _key(field: str, value: Any) -> Any:
    if field == "keywords":
        return frozenset(k.replace(" ", "") for k in value)
    return value


def _cell(part: int, whole: int) -> str:
    return f"{f'{part}/{whole}' if whole else '-':>8}"


def main(argv: list[str]) -> None:
    """Print both tables for the files named, or for the shared ones; ``-v`` also prints
    every value that did not land as the file has it."""
    verbose = "-v" in argv
    argv = [a for a in argv if a != "-v"]
    files = [Path(a) for a in argv] or [p for p in default_files() if p.exists()]
    results = {path.name: measure(path) for path in files}
    head = f"{'file':<24}{'recs':>5}{'papers':>7}{'merged':>7}{'dup':>4}  " + " ".join(
        f"{f[:8]:>8}" for f in FIELDS)
    print("Against the file: kept/present")
    print(head)
    for name, r in results.items():
        if verbose:
            for truth, paper in r["matched"]:
                for field, value in truth.items():
                    if paper is None or not _same(field, value, paper[field]):
                        shown = paper[field] if paper is not None else "(no paper)"
                        print(f"  {name} {field}: file {str(value)[:70]!r} "
                              f"paper {str(shown)[:70]!r}")
        cells = " ".join(_cell(r["kept"][f], r["present"][f]) for f in FIELDS)
        print(f"{name:<24}{r['records']:>5}{r['papers']:>7}{r['merged']:>7}{r['dup']:>4}  "
              + cells)
    print()
    print("Across tools, records two or more tools exported: agree/compared")
    print(f"{'file':<24}" + " ".join(f"{f[:8]:>8}" for f in FIELDS))
    for name, (agree, compared) in agreement(results).items():
        cells = " ".join(_cell(agree[f], compared[f]) for f in FIELDS)
        print(f"{name:<24}" + cells)


if __name__ == "__main__":
    main(sys.argv[1:])
