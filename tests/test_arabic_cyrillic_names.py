"""Names in scripts other than Latin and East Asian ones: an Arabic name is cited family
first with its initials, not garbled into stray periods; a paper by Arabic or Cyrillic
authors is keyed by its first author's family name transliterated, as a Latin one is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from reader.cli import cli
from reader.record import split_name

ZOTERO = (
    '"Key","Item Type","Publication Year","Author","Title","Publication Title","Date"\n'
    '"AR12CD34","journalArticle","2021","الحسن, محمد; Habash, Nizar",'
    '"تحليل المشاعر في اللهجات العربية","Arabic Computational Linguistics","2021"\n'
)

RIS = """TY  - BOOK
TI  - Гёдель, Эшер, Бах: эта бесконечная гирлянда
AU  - Хофштадтер, Дуглас
PY  - 2001
PB  - Бахрах-М
ER  - 
"""


def _invoke(root: Path, *args: str) -> Any:
    result = CliRunner().invoke(cli, ["--library", str(root), *args], obj={})
    assert result.exit_code == 0, result.output
    return result


def _cite(root: Path, key: str, style: str) -> str:
    return str(_invoke(root, "cite", key, "--style", style, "--format", "text").stdout)


def test_an_arabic_name_is_cited_family_first_and_keyed_transliterated(
    tmp_path: Path,
) -> None:
    table = tmp_path / "zotero.csv"
    table.write_text(ZOTERO, encoding="utf-8")
    library = tmp_path / "lib"
    _invoke(library, "import", str(table))
    assert _cite(library, "alhsn2021thlyl", "apa").startswith(
        "الحسن, م., & Habash, N. (2021).")
    assert _cite(library, "alhsn2021thlyl", "ieee").startswith(
        "[1] الحسن, م. and N. Habash,")


def test_a_cyrillic_paper_is_keyed_by_its_authors_name_transliterated(
    tmp_path: Path,
) -> None:
    ris = tmp_path / "book.ris"
    ris.write_text(RIS, encoding="utf-8")
    library = tmp_path / "lib"
    _invoke(library, "import", str(ris))
    assert _cite(library, "khofshtadter2001gedel", "apa").startswith(
        "Хофштадтер, Д. (2001).")


def test_arabic_particles_go_with_the_family_name() -> None:
    assert split_name("Mohammed bin Rashid Al Maktoum") == {
        "given": "Mohammed bin Rashid", "non-dropping-particle": "Al", "family": "Maktoum"}
    assert split_name("Ahmed Abu Zaid") == {
        "given": "Ahmed", "non-dropping-particle": "Abu", "family": "Zaid"}
    assert split_name("Muhammad al-Hasan") == {"given": "Muhammad", "family": "al-Hasan"}
    assert split_name("Al Gore") == {"given": "Al", "family": "Gore"}


IBN_BIB = """@book{hanbal1995musnad,
  author = {Ahmad Ibn Hanbal},
  title = {Al-Musnad},
  year = {1995},
  publisher = {Dar al-Hadith}
}
@book{sina1999canon,
  author = {ibn Sina, Abu Ali},
  title = {The Canon of Medicine},
  year = {1999},
  publisher = {Kazi}
}
"""


def test_ibn_and_bint_are_cited_with_the_family_name(tmp_path: Path) -> None:
    """"Ibn" (son of), "bin" and "bint" (daughter of) lead the family name, however they
    are capitalised: BibTeX's rules made a capitalised "Ibn" a given name, cited "I."."""
    bib = tmp_path / "ibn.bib"
    bib.write_text(IBN_BIB, encoding="utf-8")
    _invoke(tmp_path / "lib", "import", str(bib))
    assert _cite(tmp_path / "lib", "hanbal1995musnad", "apa").startswith("Ibn Hanbal, A. (1995)")
    assert "A. Ibn Hanbal," in _cite(tmp_path / "lib", "hanbal1995musnad", "ieee")
    assert _cite(tmp_path / "lib", "sina1999canon", "apa").startswith("ibn Sina, A. A. (1999)")
    assert split_name("Fatima bint Mubarak") == {
        "given": "Fatima", "non-dropping-particle": "bint", "family": "Mubarak"}
