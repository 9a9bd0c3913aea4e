"""Zotero's and Better BibTeX's JSON: a patent, a program, a presentation and a video read
with the CSL variables their RIS and CSV exports give them (Zotero's schema names the
fields: ``patentNumber``, ``issuingAuthority``, ``meetingName``, ``videoRecordingFormat``…),
not kept aside where no citation finds them."""

from __future__ import annotations

import json
from pathlib import Path

from reader.cite.formats import render
from reader.models import Paper, PaperRecord
from reader.sources import parse_text

ITEMS = [
    {"itemType": "patent", "title": "Distilling knowledge in a neural network",
     "creators": [{"creatorType": "inventor", "firstName": "Geoffrey E.", "lastName": "Hinton"}],
     "date": "2021-03-30", "patentNumber": "US10963786B2", "applicationNumber": "US15/362,543",
     "issuingAuthority": "United States Patent and Trademark Office", "country": "US",
     "filingDate": "2016-11-28", "assignee": "Google LLC", "citationKey": "hinton2021"},
    {"itemType": "computerProgram", "title": "scikit-learn",
     "creators": [{"creatorType": "programmer", "firstName": "Fabian", "lastName": "Pedregosa"}],
     "date": "2024", "versionNumber": "1.5.1", "company": "INRIA", "system": "Linux",
     "citationKey": "pedregosa2024"},
    {"itemType": "presentation", "title": "On the Dangers of Stochastic Parrots",
     "creators": [{"creatorType": "presenter", "firstName": "Emily M.", "lastName": "Bender"}],
     "date": "2022-07-12", "meetingName": "NAACL 2022", "presentationType": "Keynote",
     "place": "Seattle, WA", "citationKey": "bender2022"},
    {"itemType": "videoRecording", "title": "Let's build GPT",
     "creators": [{"creatorType": "director", "firstName": "Andrej", "lastName": "Karpathy"}],
     "date": "2023-01-17", "videoRecordingFormat": "Online video", "runningTime": "1:56:19",
     "libraryCatalog": "YouTube", "url": "https://www.youtube.com/watch?v=kCc8FmEb1nY",
     "citationKey": "karpathy2023"},
]


def _records(tmp_path: Path) -> dict[str, PaperRecord]:
    path = tmp_path / "bbt.json"
    path.write_text(json.dumps({"config": {}, "items": ITEMS}), encoding="utf-8")
    result = parse_text(path.read_text(encoding="utf-8"), path.name, "zotero")
    return {str(r.citekey): r for r in result.records}


def _apa(record: PaperRecord) -> str:
    paper = Paper(id=1, title=record.title, title_derived=False, abstract="",
                  authors=record.authors, venue=record.venue, year=record.year, keywords=[],
                  url=record.url, doi=None, citekey=record.citekey or "key", starred=False,
                  note="", added_at="", csl=record.csl, extra=record.extra)
    return render([paper], "text", "apa")


def test_a_patent_has_its_number_authority_country_and_filing_date(tmp_path: Path) -> None:
    patent = _records(tmp_path)["hinton2021"]
    assert patent.csl["number"] == "US10963786B2"
    assert patent.csl["authority"] == "United States Patent and Trademark Office"
    assert patent.csl["jurisdiction"] == "US"
    assert patent.csl["call-number"] == "US15/362,543"
    assert patent.csl["submitted"] == {"date-parts": [[2016, 11, 28]]}
    assert "publisher" not in patent.csl  # the assignee is no publisher
    assert "US10963786B2" in _apa(patent)


def test_a_program_has_its_version(tmp_path: Path) -> None:
    program = _records(tmp_path)["pedregosa2024"]
    assert program.csl["version"] == "1.5.1"
    assert "Version 1.5.1" in _apa(program)


def test_a_presentation_has_its_meeting_and_its_place(tmp_path: Path) -> None:
    talk = _records(tmp_path)["bender2022"]
    assert talk.csl["event"] == "NAACL 2022"
    assert talk.csl["genre"] == "Keynote"
    assert talk.csl["event-place"] == "Seattle, WA"
    assert "NAACL 2022" in _apa(talk)


def test_a_video_has_its_format_length_and_site(tmp_path: Path) -> None:
    video = _records(tmp_path)["karpathy2023"]
    assert video.csl["medium"] == "Online video"
    assert video.csl["dimensions"] == "1:56:19"
    assert video.csl["publisher"] == "YouTube"  # (as from its RIS: APA's "[Video]. YouTube.")
    assert "YouTube" in _apa(video)
