"""What citeproc-py renders wrong, mended in the text: repeated titles, punctuation inside
quotes, title case, names that go on ("et al."), spacing after numbers (see
:mod:`reader.cite.csl`)."""

from __future__ import annotations

import re
import unicodedata

from reader.cite.csl_styles import Style

# Words title case leaves in lower case unless they open or close a title or subtitle: articles,
# coordinating conjunctions and prepositions (Chicago 8.159, MLA 1.2.1).
_MINOR_WORDS = frozenset(
    """
    a an the and but for nor or so yet about above across after against along amid among around
    as at before behind below beneath beside besides between beyond by despite down during except
    from in inside into like near of off on onto out outside over past per since than through
    throughout till to toward towards under underneath until unto up upon versus via vs with
    within without
    """.split()
)
# What may come before the author in an entry: a number, opening quotes.
_ENTRY_START = re.compile(r"[\s\[\]().\d“‘\"']*")
# Punctuation around a word that title case looks through ("(few-shot)", "“deep”").
_WORD_EDGES = re.compile(r"^([^\w]*)(.*?)([^\w]*)$")

# The name standing for a list's "and others", and the delimiter the style put before it.
GOES_ON = "Zzothersqq"
_GOES_ON_NAME = re.compile(rf"(,?)(?:\s*(?:&amp;|&|and))?\s*{GOES_ON}")
_GOES_ON_ELLIPSIS = re.compile(rf"((?:\. ?){{3}}|…)\s*{GOES_ON}")

EDITOR_LABEL = re.compile(r"\((eds?|trans)\.\)")
# citeproc-py's initials of a given name whose part after a hyphen is in lower case
# ("Xiao-ming"): "X.-. ming ." for CSL's "X.-m.".
_HYPHEN_INITIAL = re.compile(r"\.-\. ([^\W\d_])[^\W\d_]* \.")


def hyphen_initials(text: str) -> str:
    """Initials of hyphenated given names as CSL makes them ("X.-m.", as written)."""
    return _HYPHEN_INITIAL.sub(r".-\1.", text)


def mark_names_go_on(text: str) -> str:
    """The stand-in for "and others" as "et al.", or nothing after the style's own ellipsis."""
    text = _GOES_ON_ELLIPSIS.sub(r"\1", text)
    return _GOES_ON_NAME.sub(lambda m: f"{m.group(1)} et al.", text)


def unprotected(text: str) -> str:
    """Text without the ``nocase`` spans :func:`_protect_case` added."""
    return re.sub(r'<span class="nocase">(.*?)</span>', r"\1", text)


def drop_repeated(text: str, value: str, style: Style) -> str:
    """Remove the second rendering of the author substitute of an author-less entry.

    The first, in the author's place, stays. The repeat goes with its quotes or markup, with
    whatever else of the substitute came along with it (APA's "(2101.00001)" after a preprint's
    title: whole words that follow both renderings alike), and with one delimiter: the one after
    it when that is in-group punctuation (", " or a space), else the one before it, so that a
    full stop closing its group (or the entry) stays.
    """
    if not value:
        return text
    found = list(re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", text, re.IGNORECASE))
    # Only a value in the author's place, at the start (after a number, quotes or markup).
    if len(found) < 2 or not _ENTRY_START.fullmatch(
        re.sub(r"<[^>]*>", "", text[: found[0].start()])
    ):
        return text
    start, end = found[1].span()
    pairs = [(style.open_quote, style.close_quote), ("“", "”"), ('"', '"'), ("‘", "’")]
    while True:
        tag = re.search(r"<([a-z]+)(?: [^<>]*)?>$", text[:start])
        if tag and text.startswith(f"</{tag.group(1)}>", end):
            start, end = tag.start(), end + len(f"</{tag.group(1)}>")
            continue
        for opening, closing in pairs:
            if opening and text[:start].endswith(opening) and text.startswith(closing, end):
                start, end = start - len(opening), end + len(closing)
                break
        else:
            break
    end = max(end, found[1].end() + _shared_tail(text, found[0].end(), found[1].end(), start))
    rest = text[end:]
    after = re.match(r"[\s.,;:]*", rest)
    after_end = after.end() if after else 0
    follows = re.search(r"\w", re.sub(r"<[^>]*>", "", rest[after_end:]))
    if follows and "." not in rest[:after_end]:
        # An in-group delimiter (", ", " "): it goes with the title, as in citeproc-js.
        return text[:start] + rest[after_end:]
    # A full stop after the title closes a group and survives it; the delimiter before goes.
    before = re.search(r"[\s.,;:]*$", text[:start])
    cut = before.start() if before else start
    return text[:cut] + rest


def _shared_tail(text: str, first: int, second: int, limit: int) -> int:
    """How far the text after ``first`` and after ``second`` agrees, in whole words.

    The agreement must end where both continue with a delimiter (or the text ends), so that a
    match never stops inside a word; it never runs past ``limit`` from ``first``.
    """
    same = 0
    most = min(len(text) - second, limit - first)
    while same < most and text[first + same] == text[second + same]:
        same += 1
    delimiters = " .,;:"
    for k in range(same, 0, -1):
        if text[second + k - 1] in delimiters:
            continue
        ends_second = second + k == len(text) or text[second + k] in delimiters
        ends_first = text[first + k] in delimiters if first + k < len(text) else True
        if ends_second and ends_first:
            return k
    return 0


def recase_title(text: str, title: str, cased: str) -> str:
    """Redo the title case of a title that citeproc-py title-cased, by the styles' rules.

    citeproc-py capitalises only whole lower-case words that are not on its short stop list: it
    leaves the parts of hyphenated compounds in lower case ("Few-shot", "State-of-the-art"),
    capitalises prepositions it does not know ("Towards"), and leaves a minor last word in lower
    case. Chicago and MLA capitalise every part of a compound but minor words, and the first and
    last words of a title and of a subtitle, whatever they are. Called only for styles and types
    whose titles citeproc-py title-cases (see :func:`_probe`). ``title`` is the title as given
    to citeproc, ``cased`` the same in title case (both HTML-escaped for HTML).
    """
    words = title.split(" ")

    def fix(match: re.Match[str]) -> str:
        rendered = match.group(0).split(" ")
        if len(rendered) != len(words):
            return match.group(0)
        return cased

    # The first occurrence is the title (or the substitute standing for the author); a later
    # one would be a coincidence inside another field, such as the venue.
    return re.sub(rf"(?<!\w){re.escape(title)}(?!\w)", fix, text, count=1, flags=re.IGNORECASE)


# The articles, prepositions and conjunctions of German, French, Spanish and Italian that a
# name in those languages writes in lower case ("Proceedings der KONVENS", "Revista de …").
_OTHER_MINOR_WORDS = frozenset(
    "der des dem und für zur zum von vom im de del della di du la le les los las el y".split())


def minor_words_kept(text: str, name: str) -> str:
    """A venue's name as written where citeproc-py title-cased it: it capitalises every word
    not on its English stop list, and printed "Proceedings Der KONVENS 2024". Only the minor
    words of other languages, written in lower case, go back to it."""
    words = name.split(" ")
    if not any(word in _OTHER_MINOR_WORDS for word in words):
        return text

    def fix(match: re.Match[str]) -> str:
        rendered = match.group(0).split(" ")
        if len(rendered) != len(words):
            return match.group(0)
        return " ".join(
            given if given in _OTHER_MINOR_WORDS else shown
            for shown, given in zip(rendered, words, strict=True)
        )

    return re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", fix, text, flags=re.IGNORECASE)


def title_case(title: str) -> str:
    """A title in headline style: words capitalised but minor ones, compounds part by part.

    Only lower-case words change: acronyms and mixed case (GDPval, arXiv) stay as written, and
    so do words that start with a non-Latin letter (a Greek symbol from rendered math).
    """
    words = title.split(" ")
    out = []
    for i, word in enumerate(words):
        edges = _WORD_EDGES.match(word)
        if edges is None or not edges.group(2):
            out.append(word)
            continue
        lead, core, trail = edges.groups()
        opens = i == 0 or bool(re.search(r"[:.?!—]$", words[i - 1]))
        closes = i == len(words) - 1 or bool(re.search(r"[:.?!—]$", trail))
        parts = core.split("-")
        core = "-".join(
            _capitalised(part)
            if part.islower() and ((j == 0 and (opens or closes)) or part not in _MINOR_WORDS)
            else part
            for j, part in enumerate(parts)
        )
        out.append(lead + core + trail)
    return " ".join(out)


def _capitalised(word: str) -> str:
    """The word with its first letter upper-cased, if that is a lower-case Latin letter."""
    first = word[:1]
    if first.islower() and "LATIN" in unicodedata.name(first, ""):
        return first.upper() + word[1:]
    return word


def punctuation_in_quote(text: str, close_quote: str) -> str:
    """Move a full stop or comma after a closing quote inside it (en-US typography)."""
    if not close_quote:
        return text
    quote = re.escape(close_quote)
    # "“Is it?”." keeps just the question mark: no doubled sentence ends.
    text = re.sub(rf"([.?!]){quote}((?:</[a-z]+>)*)[.,]", rf"\1{close_quote}\2", text)
    return re.sub(rf"{quote}((?:</[a-z]+>)*)([.,])", rf"\2{close_quote}\1", text)


# "Retrieved" straight before a link: what was left of "Retrieved <date>, from" without one.
_RETRIEVED_BARE = re.compile(r"\bRetrieved (?=(?:<[^>]+>)*https?://)")


def retrieved_without_date(text: str) -> str:
    """APA's "Retrieved <date>, from <URL>" with no date of access is the URL alone:
    citeproc-py printed "Retrieved https://…" (the group should be left out whole, as its
    date variable is empty)."""
    return _RETRIEVED_BARE.sub("", text)


# A style's "in" before the venue of a submission under review ("Submitted to ICLR").
_IN_SUBMITTED = re.compile(r"([,.])([”’\"']?(?:</[a-z]+>)*) [Ii]n ((?:<[a-z]+>)*)Submitted to ")


def submitted_not_in(text: str) -> str:
    """A submission under review is submitted to its venue, not in it: IEEE's and Nature's
    "in Submitted to ICLR" becomes "submitted to ICLR" (after a comma; capitalised after a
    full stop)."""
    return _IN_SUBMITTED.sub(
        lambda m: f"{m.group(1)}{m.group(2)} {m.group(3)}"
        + ("submitted to " if m.group(1) == "," else "Submitted to "),
        text,
    )


def tidy_entry(text: str) -> str:
    """Stray punctuation left by empty groups (". .", ", ."), doubled spaces, edge spaces."""
    text = re.sub(r"(?<=\.)\s+\.(?=\s|$|<)", "", text)
    text = re.sub(r",\s+(?=[.,](?:\s|$|<))", "", text)
    # A group closed with ". " before the delimiter ", " (IEEE's series): the sentence ends.
    text = re.sub(r"(?<=\.)\s+,(?=\s)", "", text)
    # A full stop after a sentence end, also across closing markup ("<i>et al.</i>.").
    text = re.sub(r"(?<!\.)([.?!])((?:</[a-z]+>)*)\.(?=\s|$|<)", r"\1\2", text)
    text = re.sub(r"\(\s*\)|\[\s*\]", "", text)
    text = re.sub(r"[ \t]{2,}", " ", text)
    return text.strip()


def space_after_number(text: str, number: int) -> str:
    """A space between the entry number and the entry ("[1]A. Vaswani" → "[1] A. Vaswani")."""
    # The lookahead excludes the number's own punctuation, so a match cannot stop inside it.
    pattern = rf"^((?:<[^>]+>|[\[(])*{number}(?:[\]).:]|</[^>]+>)*)(?=[^\s<\]).:])"
    return re.sub(pattern, r"\1 ", text, count=1)
