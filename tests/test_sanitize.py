"""Import cleaning, display safety and identity keys."""

from __future__ import annotations

import unicodedata

import pytest

from reader.text.sanitize import clean_imported, normalize_for_identity, visible

# --- clean_imported ----------------------------------------------------------


def test_clean_imported_keeps_ordinary_text() -> None:
    text = "Graph Neural Networks (GNNs)\n\tachieve 28% — see [bold] $x$ \\alpha."
    assert clean_imported(text) == text


def test_clean_imported_removes_controls_but_keeps_newline_and_tab() -> None:
    raw = "a\x00b\x07c\x1b[31mred\x7f\x85\x9b\td\ne"
    # A terminal's escape sequence goes whole: "[31m" is no part of the text.
    assert clean_imported(raw) == "abcred\td\ne"
    assert clean_imported("\x1b]0;title\x07x \x1b]8;;http://x\x1b\\link") == "x link"


def test_clean_imported_removes_every_c0_and_c1_control() -> None:
    controls = "".join(chr(c) for c in [*range(0x20), *range(0x7F, 0xA0)])
    # The CR is a line break, not junk: it becomes LF.
    assert clean_imported(controls) == "\t\n\n"


def test_clean_imported_normalises_newlines() -> None:
    assert clean_imported("a\r\nb\rc\n\rd") == "a\nb\nc\n\nd"


def test_clean_imported_removes_zero_width_characters() -> None:
    assert clean_imported("\ufeffze\u200bro\u200c-\u200dwi\u2060dth") == "zero-width"


def test_clean_imported_is_nfc() -> None:
    decomposed = "Schro\u0308dinger"
    cleaned = clean_imported(decomposed)
    assert cleaned == "Schrödinger"
    assert unicodedata.is_normalized("NFC", cleaned)


def test_clean_imported_composes_across_a_removed_character() -> None:
    # The zero-width space sits between the base letter and its accent.
    assert clean_imported("o\u200b\u0308") == "ö"


def test_clean_imported_keeps_bidi_characters_for_display_to_handle() -> None:
    # Hebrew or Arabic text needs its marks; visible() neutralises them on screen.
    assert clean_imported("a\u202eb") == "a\u202eb"


# --- visible -----------------------------------------------------------------


def test_visible_leaves_ordinary_text_alone() -> None:
    text = "Plain text, [bold] markup-like, émigré, 中文, α-CSBM\n\tindented"
    assert visible(text) == text


def test_visible_replaces_c0_controls_with_control_pictures() -> None:
    assert visible("\x00") == "␀"
    assert visible("\x1b[31mred") == "␛[31mred"
    assert visible("\x07\x08\x0d") == "␇␈␍"


def test_visible_replaces_del_and_c1() -> None:
    assert visible("\x7f") == "␡"
    out = visible("\x9b31m\x85")
    assert "\x9b" not in out and "\x85" not in out
    assert out.endswith("31m\ufffd")


def test_visible_neutralises_osc_hyperlink_sequence() -> None:
    osc = "\x1b]8;;http://evil.example\x1b\\click\x1b]8;;\x1b\\"
    out = visible(osc)
    assert "\x1b" not in out
    assert out.count("␛") == 4


@pytest.mark.parametrize(
    "char",
    [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
    + ["\u200e", "\u200f", "\u061c"],
)
def test_visible_marks_bidi_controls(char: str) -> None:
    out = visible(f"abc{char}def")
    assert char not in out
    assert out == f"abc⟨U+{ord(char):04X}⟩def"


def test_visible_output_has_no_control_or_bidi_characters() -> None:
    everything = "".join(chr(c) for c in range(0x3000))
    out = visible(everything)
    for ch in out:
        category = unicodedata.category(ch)
        assert category != "Cc" or ch in "\n\t", repr(ch)
        assert unicodedata.bidirectional(ch) not in {
            "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"
        }, repr(ch)
    assert "\u200e" not in out and "\u200f" not in out and "\u061c" not in out


# --- normalize_for_identity --------------------------------------------------


def test_identity_folds_case_and_whitespace() -> None:
    assert normalize_for_identity("  Graph   Neural\n\tNetworks ") == "graph neural networks"


def test_identity_uses_nfkc_and_casefold() -> None:
    assert normalize_for_identity("ﬁne-tuning") == "fine-tuning"
    assert normalize_for_identity("STRASSE") == normalize_for_identity("Straße")
    assert normalize_for_identity("Ｆｕｌｌｗｉｄｔｈ") == "fullwidth"
    assert normalize_for_identity("Schro\u0308dinger") == normalize_for_identity("Schrödinger")


def test_identity_removes_zero_width_characters() -> None:
    assert normalize_for_identity("Trans\u200bformer\ufeff") == "transformer"
    assert normalize_for_identity("a \u200b b") == "a b"


def test_identity_of_blank_is_empty() -> None:
    assert normalize_for_identity(" \n\t\u00a0 ") == ""


def test_a_long_text_is_normalised_in_pieces_as_it_would_be_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A text of megabytes (a file that is one long line) is normalised a piece at a time,
    cut before whitespace; the key is the one the whole text gives."""
    import random

    import reader.text.sanitize as sanitize

    rng = random.Random(7)
    alphabet = "ab cdé\u200b\tΣﬁ\n  X\u00a0\u2003y\u0301¨"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
             for _ in range(500)]
    whole = [normalize_for_identity(t) for t in texts]
    monkeypatch.setattr(sanitize, "_LONG", 5)
    assert [normalize_for_identity(t) for t in texts] == whole
