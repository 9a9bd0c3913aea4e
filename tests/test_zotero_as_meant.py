"""Files from Zotero, Better BibTeX and Mendeley read as their authors meant: the maths a
Zotero user typed comes back as typed from Better BibTeX's escaped TeX, and the same text
read again from another export is no change."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from reader.cite.formats import render
from reader.library import Library
from reader.models import Paper
from reader.sources import parse_text


def _papers(library: Library) -> dict[str, Paper]:
    return {p.citekey: p for p in library.papers(library.all_ids())}


def _bbt_json(tmp_path: Path, *items: dict[str, Any], **top: Any) -> Path:
    path = tmp_path / "library.json"
    path.write_text(json.dumps(
        {"config": {"label": "BetterBibTeX JSON"}, **top, "items": list(items)}
    ), encoding="utf-8")
    return path


HIGGS_ABSTRACT = r"Measured using $\sqrt{s}=13$ TeV data -- 36.1 fb$^{-1}$ in total."
HIGGS_ITEM = {
    "itemType": "journalArticle", "itemID": 11, "citationKey": "rossi2018higgs",
    "title": r"The Higgs boson mass in the $H \rightarrow ZZ^* \rightarrow 4\ell$ channel",
    "creators": [{"creatorType": "author", "firstName": "Maria", "lastName": "Rossi"}],
    "date": "2018", "DOI": "10.1016/j.example.2018.07.050",
    "abstractNote": HIGGS_ABSTRACT, "dateModified": "2020-02-02T10:00:00Z",
}
# How Better BibTeX writes the same item: the typed maths escaped as text.
HIGGS_BIB = r"""@article{rossi2018higgs,
  title = {The {{Higgs}} Boson Mass in the
    \$\mathrm{H} \rightarrow \mathrm{ZZ}^* \rightarrow 4\ell\$ Channel},
  author = {Rossi, Maria},
  date = {2018},
  doi = {10.1016/j.example.2018.07.050},
  abstract = {Measured using \$\textbackslash sqrt\{s\}=13\$ TeV data -- 36.1
    fb\$\textasciicircum\{-1\}\$ in total.},
}
"""


def test_better_bibtex_escaped_maths_is_the_maths_the_user_typed(
    empty_library: Library, tmp_path: Path
) -> None:
    bib = tmp_path / "bbt.bib"
    bib.write_text(HIGGS_BIB, encoding="utf-8")
    empty_library.import_files([bib])
    paper = _papers(empty_library)["rossi2018higgs"]
    assert paper.abstract == HIGGS_ABSTRACT
    assert "$\\mathrm{H} \\rightarrow" in paper.title


def test_money_between_escaped_dollars_stays_money(
    empty_library: Library, tmp_path: Path
) -> None:
    bib = tmp_path / "money.bib"
    bib.write_text(
        "@article{a2020,\n  title = {Prices},\n  year = {2020},\n"
        "  abstract = {Tickets cost \\$5 to \\$10, and \\$20\\$ at the door.},\n}\n",
        encoding="utf-8",
    )
    empty_library.import_files([bib])
    assert _papers(empty_library)["a2020"].abstract == (
        "Tickets cost \\$5 to \\$10, and \\$20\\$ at the door."
    )


def test_the_same_text_from_another_export_is_no_change(
    empty_library: Library, tmp_path: Path
) -> None:
    item = {**HIGGS_ITEM, "abstractNote": "Café “results” – in 2018 we measured the mass."}
    empty_library.import_files([_bbt_json(tmp_path, item)])
    bib = tmp_path / "bbt.bib"
    bib.write_text(
        HIGGS_BIB.replace(
            HIGGS_BIB[HIGGS_BIB.index("  abstract"):HIGGS_BIB.rindex("}")],
            "  abstract = {Caf{\\'e} ``results''---in 2018 we measured\n    the mass.},\n",
        ),
        encoding="utf-8",
    )
    summary = empty_library.import_files([bib])
    assert summary.revisions_kept == 0
    paper = _papers(empty_library)["rossi2018higgs"]
    assert paper.abstract == item["abstractNote"]
    assert paper.title == HIGGS_ITEM["title"]


REPORT_ITEM = {
    "itemType": "report", "itemID": 16, "citationKey": "eurostat2023ict",
    "title": "ICT usage in households and by individuals",
    "creators": [{"creatorType": "author", "name": "Eurostat", "fieldMode": 1}],
    "institution": "Publications Office of the European Union", "place": "Luxembourg",
    "reportNumber": "KS-TC-23-001", "reportType": "Statistical report",
    "seriesTitle": "Statistics Explained", "date": "2023-12",
}
REPORT_CSV = (
    '"Key","Item Type","Publication Year","Author","Title","Date","Publisher","Place",'
    '"Number","Type","Series Title"\n'
    '"U1V2W3X4","report","2023","Eurostat","ICT usage in households and by individuals",'
    '"2023-12","Publications Office of the European Union","Luxembourg","KS-TC-23-001",'
    '"Statistical report","Statistics Explained"\n'
)


def test_a_reports_series_is_its_series_not_its_container(tmp_path: Path) -> None:
    from_json = Library(tmp_path / "json")
    from_json.import_files([_bbt_json(tmp_path, REPORT_ITEM)])
    (paper,) = _papers(from_json).values()
    assert paper.venue is None
    assert paper.csl["collection-title"] == "Statistics Explained"
    assert "container-title" not in paper.csl
    csv = tmp_path / "zotero.csv"
    csv.write_text(REPORT_CSV, encoding="utf-8")
    from_csv = Library(tmp_path / "csv")
    from_csv.import_files([csv])
    (same,) = _papers(from_csv).values()
    cited = render([paper], "text", style="apa")
    assert cited == render([same], "text", style="apa")
    assert "In Statistics Explained" not in cited


def test_zotero_collections_are_tags(empty_library: Library, tmp_path: Path) -> None:
    collections = {
        "C1": {"key": "C1", "name": "LLM reading group", "parent": False, "items": [11],
               "collections": ["C2"]},
        "C2": {"key": "C2", "name": "Scaling", "parent": "C1", "items": [],
               "collections": []},
    }
    tagged = {**HIGGS_ITEM, "tags": [{"tag": "higgs"}], "collections": ["C1"]}
    nested = {**REPORT_ITEM, "collections": ["C2"]}
    empty_library.import_files([_bbt_json(tmp_path, tagged, nested, collections=collections)])
    papers = _papers(empty_library)
    assert papers["rossi2018higgs"].tags == ["higgs", "llm-reading-group"]
    # A nested collection is a tag of its own name, as JabRef writes a subgroup.
    assert papers["eurostat2023ict"].tags == ["scaling"]


ZOTERO_RIS = """TY  - JOUR
TI  - Chatbots for triage in primary care
AU  - de Vries, Hanna
T2  - PLOS Digital Health
DA  - 2021/03/15/
PY  - 2021
DO  - 10.1371/journal.pdig.0000123
N1  - <p>Primary outcome in <em>Table 2</em>.</p>
N1  - <p>Second note: compare with Semigran 2015.</p>
ER  - 
"""
ZOTERO_CSV = (
    '"Key","Item Type","Publication Year","Author","Title","Publication Title","DOI",'
    '"Date","Notes"\n'
    '"AB12","journalArticle","2021","de Vries, Hanna","Chatbots for triage in primary care",'
    '"PLOS Digital Health","10.1371/journal.pdig.0000123","2021-03-15",'
    '"<p>Primary outcome in <em>Table 2</em>.</p>; <p>Second note: compare with Semigran '
    '2015.</p>"\n'
)
NOTE = "Primary outcome in *Table 2*.\n\n---\n\nSecond note: compare with Semigran 2015."


def test_zoteros_ris_notes_are_the_papers_note(empty_library: Library, tmp_path: Path) -> None:
    ris = tmp_path / "zotero.ris"
    ris.write_text(ZOTERO_RIS, encoding="utf-8")
    empty_library.import_files([ris])
    (paper,) = _papers(empty_library).values()
    assert paper.note == NOTE
    assert "note" not in paper.csl
    assert "N1" not in paper.extra.get("ris", {})


def test_a_zotero_note_held_already_is_not_added_again(
    empty_library: Library, tmp_path: Path
) -> None:
    csv = tmp_path / "zotero.csv"
    csv.write_text(ZOTERO_CSV, encoding="utf-8")
    empty_library.import_files([csv])
    ris = tmp_path / "zotero.ris"
    ris.write_text(ZOTERO_RIS.replace("AU  -", "KW  - rct\nAU  -"), encoding="utf-8")
    summary = empty_library.import_files([ris])
    (paper,) = _papers(empty_library).values()
    assert paper.note == NOTE
    assert "note" not in paper.csl
    # Its keyword is news (and named); its note is not.
    assert summary.marks_kept == 0, summary
    assert summary.filled == [("vries2021chatbots", ["keywords rct", "tags rct"])], summary


def test_other_tools_n1_stays_the_records_note(empty_library: Library, tmp_path: Path) -> None:
    ris = tmp_path / "endnote.ris"
    ris.write_text(
        ZOTERO_RIS.replace("DA  - 2021/03/15/\n", "ID  - 12\n").replace("<p>", "").replace(
            "</p>", ""),
        encoding="utf-8",
    )
    empty_library.import_files([ris])
    (paper,) = _papers(empty_library).values()
    assert not paper.note
    assert paper.csl["note"] == "Primary outcome in <em>Table 2</em>."


JABREF_REPORT = """@TechReport{Hoffmann2022,
  author      = {Jordan Hoffmann and Sebastian Borgeaud and Arthur Mensch and others},
  institution = {DeepMind},
  title       = {Training Compute-Optimal Large Language Models},
  year        = {2022},
  number      = {arXiv:2203.15556},
  type        = {Technical Report},
  eprint      = {2203.15556},
  archiveprefix = {arXiv},
}
"""
MENDELEY_PREPRINT = """@article{Hoffmann2022a,
archivePrefix = {arXiv},
arxivId = {2203.15556},
author = {Hoffmann, Jordan and Borgeaud, Sebastian and Mensch, Arthur and Buchatskaya, Elena
  and Cai, Trevor and Rutherford, Eliza},
eprint = {2203.15556},
journal = {arXiv},
title = {{Training Compute-Optimal Large Language Models}},
year = {2022}
}
"""


def test_mendeleys_arxiv_journal_is_a_preprint_not_a_container(
    empty_library: Library, tmp_path: Path
) -> None:
    bib = tmp_path / "mendeley.bib"
    bib.write_text(MENDELEY_PREPRINT, encoding="utf-8")
    empty_library.import_files([bib])
    (paper,) = _papers(empty_library).values()
    assert paper.venue is None
    cited = render([paper], "text", style="apa")
    assert "Large Language Models (arXiv:2203.15556). arXiv." in cited
    assert "journal = {arXiv}" in render([paper], "bibtex")


def test_a_list_cut_short_is_completed_and_arxiv_is_no_venue_of_a_report(
    empty_library: Library, tmp_path: Path
) -> None:
    jabref, mendeley = tmp_path / "jabref.bib", tmp_path / "mendeley.bib"
    jabref.write_text(JABREF_REPORT, encoding="utf-8")
    mendeley.write_text(MENDELEY_PREPRINT, encoding="utf-8")
    empty_library.import_files([jabref])
    summary = empty_library.import_files([mendeley])
    (paper,) = _papers(empty_library).values()
    assert summary.kept_differing == []
    assert len(paper.authors) == 6 and paper.authors[-1] == "Eliza Rutherford"
    cited = render([paper], "text", style="apa")
    assert "In arXiv" not in cited
    assert "Rutherford, E. (2022)" in cited and "(Technical Report arXiv:2203.15556)" in cited
    assert "and others" not in render([paper], "bibtex")


BBT_BIB = r"""@misc{wei2022chainofthought,
  title = {Chain-of-Thought Prompting},
  author = {Wei, Jason},
  year = {2022},
  keywords = {prompting,to-read},
  file = {/home/u/Zotero/storage/ABCD/Wei - 2022 - Chain-of-Thought.pdf}
}

@phdthesis{sorensen2019morfologisk,
  title = {Morfologisk Analyse},
  author = {S{\o}rensen, Mette},
  year = {2019},
  keywords = {danish,morphology}
}
"""


def test_a_few_zotero_entries_among_others_give_only_their_own_keywords_as_tags(
    empty_library: Library, tmp_path: Path
) -> None:
    """The library's own BibTeX export mixes Zotero's entries (their attachment written
    back) with those of other sources: the arXiv categories and subject terms of the
    others are their keywords, not tags."""
    others = "".join(
        f"@article{{other{n},\n  title = {{Paper {n}}},\n  author = {{Lee, Ann}},\n"
        f"  year = {{2020}},\n  keywords = {{cs.lg, stat.ml}}\n}}\n\n" for n in range(5)
    )
    bib = tmp_path / "library.bib"
    bib.write_text(BBT_BIB.split("@phdthesis")[0] + others, encoding="utf-8")
    empty_library.import_files([bib])
    papers = _papers(empty_library)
    assert papers["wei2022chainofthought"].tags == ["prompting", "to-read"]
    assert all(papers[f"other{n}"].tags == [] for n in range(5))
    assert papers["other0"].keywords == ["cs.lg", "stat.ml"]


def test_better_bibtex_keywords_are_the_users_zotero_tags(
    empty_library: Library, tmp_path: Path
) -> None:
    """Better BibTeX writes Zotero's tags as keywords: they arrived as keywords only, and
    `tag:to-read` found nothing. Any other .bib's keywords are no tags."""
    bib = tmp_path / "bbt.bib"
    bib.write_text(BBT_BIB, encoding="utf-8")
    empty_library.import_files([bib])
    papers = _papers(empty_library)
    assert papers["wei2022chainofthought"].tags == ["prompting", "to-read"]
    assert papers["sorensen2019morfologisk"].tags == ["danish", "morphology"]
    assert papers["wei2022chainofthought"].keywords == ["prompting", "to-read"]
    plain_bib = BBT_BIB.split("@phdthesis")[0].replace(
        "  file = {/home/u/Zotero/storage/ABCD/Wei - 2022 - Chain-of-Thought.pdf}\n", ""
    )
    [record] = parse_text(plain_bib, "plain.bib", "bibtex").records
    assert (record.tags, record.keywords) == ([], ["prompting", "to-read"])


def test_a_preprint_and_its_published_version_in_one_file_are_said_as_one_new_paper(
    empty_library: Library, tmp_path: Path
) -> None:
    # Not "already in the library took … url None, date None, doi": the paper came with
    # this file, and the preprint's DOI taken away is said so.
    csv = tmp_path / "pair.csv"
    csv.write_text(
        '"Key","Item Type","Publication Year","Author","Title","Publication Title",'
        '"Abstract Note","Extra","Manual Tags"\n'
        '"ZZ1","preprint","2024","Roe, Ann","Extra-only arXiv paper","","Abs.",'
        '"arXiv: 2401.01234\nDOI: 10.48550/arXiv.2401.01234",""\n'
        '"ZZ2","conferencePaper","2024","Roe, Ann","Extra-only arXiv paper",'
        '"Proceedings of ICML","Abs.","arXiv: 2401.01234","t1"\n', encoding="utf-8")
    summary = empty_library.import_files([csv])
    assert (summary.new, summary.filled) == (1, [])
    assert summary.filled_new_line() == (
        "1 paper this import added took venue, doi (removed), tags from a later record of it "
        "in the file")
    [(_, said)] = summary.filled_new
    assert said == ["venue Proceedings of ICML", "doi 10.48550/arxiv.2401.01234 removed",
                    "tags t1"]
