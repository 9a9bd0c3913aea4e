"""Derived titles for abstracts that come without one.

Abstract-only lists (such as the ICLR 2026 seed files) carry no titles, so the reader shows a
title derived from the abstract itself:

* When the abstract introduces a *named contribution* ("We introduce GDPval, a benchmark …"),
  the title is the name, a colon and the description that follows it
  ("GDPval: a benchmark …"). A name that comes with an abbreviation is shown abbreviation
  first, then its expansion: "TRL: Transitive Reinforcement Learning, a new value learning …".
* Otherwise the title is the opening clause of the abstract.

A name only counts as the paper's contribution when the abstract says the authors
introduce/present/propose/develop/release/construct … it. Models and datasets the paper merely
uses or studies ("Large Language Models (LLMs) …", "GPT-5 achieves …") are context.

Titles never exceed ``max_len`` characters. A cut prefers a clause boundary; failing that it
falls on a word boundary and ends with "…". The function never raises and only looks at the
first few thousand characters, so it is safe to call on arbitrary imported text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["derive_title"]

UNTITLED = "Untitled"
ELLIPSIS = "…"

# Abstracts run to a couple of thousand characters; anything past this cannot change the title,
# and bounding the input keeps every regex below linear in a small constant.
_SCAN_LIMIT = 5000
# A cut at a clause boundary must keep at least this share of the room available; a shorter
# clause loses too much, and a word cut with "…" reads better.
_MIN_CLAUSE_SHARE = 0.6
# With less room than this left for a description, the expansion of an abbreviation is dropped
# so the description still says something ("TRL: a new value …" rather than "TRL: Trans…").
_MIN_DESC_ROOM = 24

# --- normalisation -------------------------------------------------------------------------

# Text-styling LaTeX commands survive in some imports (``\textsc{Gnn}s``); keep their argument.
_LATEX_STYLE = re.compile(
    r"\\(?:textsc|textbf|textit|textrm|textsf|texttt|emph|underline|mathrm|mathbf|text)"
    r"\{([^{}]{0,200})\}"
)
_LATEX_ESCAPE = re.compile(r"\\([%&#_$])")
# Markdown emphasis. The span length is bounded so an unmatched marker cannot make the scan
# quadratic. ``**con**tinual`` is unwrapped even inside a word; single markers need a non-word
# character outside them so "O*NET" and snake_case identifiers survive.
_STRONG = re.compile(r"(\*\*|__)(?=\S)([^*\n]{1,200}?)(?<=\S)\1")
_EMPHASIS = re.compile(r"(?<![\w*])([*_])(?=[^\s*_])([^*_\n]{1,200}?)(?<=[^\s*_])\1(?![\w*])")
_EM_DASH = re.compile(r"(?<!-)---(?!-)")
_EN_DASH = re.compile(r"(?<!-)--(?!-)")
_SPACES = re.compile(r"\s+")
_LABEL = re.compile(r"^(?:abstract|summary)\s*[:.—–-]\s*", re.IGNORECASE)
_LEADING_JUNK = "-–—•*#>·|~ "
_TRAILING_PUNCT = " \t,;:.!?。！？、，；：—–-"

# --- sentences -----------------------------------------------------------------------------

# A Latin sentence ends at . ! ? (plus closing quotes/brackets) before whitespace; CJK
# terminators need no following space.
_SENTENCE_END = re.compile(r"[.!?]+[\"'”’)\]]*(?=\s|$)|[。！？]+")
# Abbreviations whose period does not end a sentence ("e.g. GPT-5", "Fig. 3").
_ABBREVIATIONS = frozenset(
    "e.g i.e etc al vs cf fig figs eq eqs sec resp approx no nos dr mr ms prof st ref refs".split()
)
_INITIALS = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]")  # U.S, i.i.d

# --- contributions -------------------------------------------------------------------------

_ADVERBS = (
    r"(?:(?:also|further|additionally|then|first|here|now|thus|therefore|hence|finally|next|"
    r"instead|\w+ly)\s+){0,3}"
)
# "we introduce", "this paper proposes", "we further present", "… by introducing".
_CONTRIBUTION_VERB = re.compile(
    r"\b(?:(?:we|this\s+(?:paper|work|study|article|report)|our\s+(?:paper|work))\s+"
    + _ADVERBS
    + r"(?:introduce|present|propose|develop|release|construct|build|design|create|curate"
    r"|devise|unveil)s?"
    r"|by\s+(?:introduc|present|propos|develop|construct|build|design|creat|devis)ing)\s+",
    re.IGNORECASE,
)
_OPTIONAL_DETERMINER = re.compile(r"(?:the|our)\s+", re.IGNORECASE)
# "Expansion (ABBR)": the expansion holds no clause punctuation and is at most a few words.
_EXPANSION_ABBR = re.compile(r"(?P<exp>[^\s,;:()][^,;:()]{0,100}?)\s*\((?P<abbr>[^()\s,;]{2,30})\)")
_NAME_TOKEN = re.compile(r"[^\s,;:()!?]+")
_TOKEN_SHAPE = re.compile(r"[^\W_](?:[\w.+'’/-]*[\w+])?")
_PAREN = re.compile(r"\s*\(([^()]{3,80})\)")
_ARTICLE_START = re.compile(r"(?:a|an|the)\s", re.IGNORECASE)
_NUMBERED_START = re.compile(r"(?:a|an|the|one|two|three|four|five)\s", re.IGNORECASE)
_RELATIVE_START = re.compile(r"(?:which|who)\s", re.IGNORECASE)
_SEPARATOR = re.compile(r"\s*(?:[,:]|—|–|-)\s*")
# Where a description may hand over to its name: "a general framework, namely, TARF".
_NAMING = re.compile(
    r",\s*(?:(?:namely|called|named|termed|dubbed|coined)\s*,?\s*)?"
    r"|\s+(?:namely|called|named|termed(?:\s+as)?|dubbed|coined)\s*,?\s*",
    re.IGNORECASE,
)
_INLINE_ABBR = re.compile(r"\s*\(([^()\s,;]{2,15})\)")
_IS_A = re.compile(r"(?P<name>[^\s,;:()]+)\s+is\s+(?P<desc>(?:a|an|the)\s.+)", re.IGNORECASE)
_NEXT_IS_A = re.compile(
    r"(?:it|this\s+\w+|(?P<name>[^\s,;:()]+))\s+is\s+(?P<desc>(?:a|an)\s.+)", re.IGNORECASE
)
_CONNECTORS = frozenset("of for via from and in on with to".split())
# Words after which a coined token still stands alone as a name ("we propose X to …"); any
# other lowercase word means the token was an adjective ("we present 3D scenes").
_NAME_FOLLOWERS = frozenset("a an the to for which that who as with by in on and or".split())
# Category acronyms name what a paper studies, never what it contributes.
_GENERIC = frozenset(
    "llm mllm vlm lvlm lmm slm lm plm gnn cnn rnn dnn nn mlp gpt bert ai agi ml dl nlp cv rl "
    "vae gan vit moe sota api gpu cpu tpu qa vqa asr tts ocr sql rag cot icl sft rlhf".split()
)
# Well-known model families: a sentence "GPT-5 is a …" describes a model that is used.
_KNOWN_MODEL = re.compile(
    r"(?:gpt|llama|qwen|gemini|claude|mistral|mixtral|deepseek|gemma|phi|palm|o\d)(?:[-\d.]|$)",
    re.IGNORECASE,
)

# --- cutting -------------------------------------------------------------------------------

# Strong boundaries end a clause outright; weak ones (comma, relative pronoun) may split a list
# or a noun phrase, so they are only used when no strong boundary fits.
_STRONG_BOUNDARY = re.compile(
    r"\s*[;:]\s|\s*[—–]|\s+-\s+|\s+(?:but|yet|while|whereas|although|though|because)\b",
    re.IGNORECASE,
)
_WEAK_BOUNDARY = re.compile(r"\s*,\s|\s+(?:which|that|where|since|so)\b", re.IGNORECASE)
# Dangling words that make a cut title read as broken ("… grounded in an…").
_DANGLING = frozenset(
    "a an the of to in on for and or with by from at as into via that which whose while its "
    "their our is are was were be between both not but than this these such based designed "
    "tailored grounded dedicated built aimed focused".split()
)
# A comma after an adjective separates modifiers, not clauses: "in sensitive, user-centric
# applications", "with exploratory, open-ended questions". Suffixes and lowercase hyphenated
# compounds catch most of them without a part-of-speech tagger.
_ADJECTIVE = re.compile(
    r"(?:\w+(?:ive|ous|ory|ful|less|able|ible|ic)|[a-z]+(?:-[a-z]+)+)", re.IGNORECASE
)


@dataclass(frozen=True)
class _Contribution:
    """A named contribution found in an abstract."""

    name: str
    expansion: str | None = None
    description: str | None = None
    # How the description attaches to the head: ": a benchmark …" or ", which …".
    joiner: str = ": "


def derive_title(abstract: str, max_len: int = 90) -> str:
    """Derive a readable title from an abstract (plain text, LaTeX already converted)."""
    if max_len <= 0:
        return ""
    try:
        title = _derive(abstract, max_len)
    except Exception:  # a bad title must never take down an import or a list view
        title = ""
    return _fit(title or UNTITLED, max_len)


def _derive(abstract: str, max_len: int) -> str:
    """Title for ``abstract``, or "" when there is nothing to derive it from."""
    if not isinstance(abstract, str):
        return ""
    text = _normalise(abstract[:_SCAN_LIMIT])
    if not text:
        return ""
    sentences = _sentences(text)
    contribution = _find_contribution(sentences)
    if contribution is not None:
        return _compose(contribution, max_len)
    return _fit(sentences[0] if sentences else text, max_len)


def _normalise(text: str) -> str:
    """Plain single-spaced text with emphasis markers and styling commands removed."""
    text = _SPACES.sub(" ", text).strip()
    text = _LATEX_STYLE.sub(r"\1", text)
    text = _LATEX_ESCAPE.sub(r"\1", text)
    text = _STRONG.sub(r"\2", text)
    text = _EMPHASIS.sub(r"\2", text)
    text = _EM_DASH.sub("—", text)
    text = _EN_DASH.sub("–", text)
    text = _LABEL.sub("", text)
    return text.lstrip(_LEADING_JUNK).strip()


def _sentences(text: str) -> list[str]:
    """Split text into sentences, without their final punctuation."""
    sentences: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        if match.group(0)[0] == "." and not _ends_sentence(text, match.start()):
            continue
        sentence = text[start : match.start()].strip()
        if sentence:
            sentences.append(sentence)
        start = match.end()
    tail = text[start:].strip(_TRAILING_PUNCT)
    if tail:
        sentences.append(tail)
    return sentences


def _ends_sentence(text: str, dot: int) -> bool:
    """Whether the period at ``dot`` ends a sentence rather than an abbreviation."""
    # A lowercase next word is no evidence either way: sentences in abstracts often start with
    # a lowercase name ("lmKANs reduce …", "perturbed-DTW recovers …"), so only the word before
    # the period decides ("e.g.", "et al.", "U.S.", "i.i.d.").
    token = text[text.rfind(" ", 0, dot) + 1 : dot].lstrip("([\"'“‘").lower()
    return token not in _ABBREVIATIONS and not _INITIALS.fullmatch(token)


# --- finding the contribution --------------------------------------------------------------


def _find_contribution(sentences: list[str]) -> _Contribution | None:
    """The first named contribution the abstract introduces, if any."""
    for index, sentence in enumerate(sentences):
        for verb in _CONTRIBUTION_VERB.finditer(sentence):
            found = _parse_introduced(sentence[verb.end() :])
            if found is not None:
                if found.description is None and found.expansion is None:
                    following = sentences[index + 1] if index + 1 < len(sentences) else ""
                    found = _describe_from_next(found, following)
                return found
    # "GDPval is a benchmark …" names the contribution without an introducing verb.
    for sentence in sentences:
        match = _IS_A.fullmatch(sentence)
        if match and _is_coined(match.group("name")):
            name = match.group("name")
            if not _KNOWN_MODEL.match(name):
                return _Contribution(name=name, description=match.group("desc"))
    return None


def _parse_introduced(rest: str) -> _Contribution | None:
    """Parse what follows "we introduce": a name and its description, if it is a name."""
    determiner = _OPTIONAL_DETERMINER.match(rest)
    body = rest[determiner.end() :] if determiner else rest
    # "Transitive Reinforcement Learning (TRL), a new …"
    found = _expansion_then_abbr(body)
    if found is None:
        # "GDPval, a benchmark …", "CAGE (Culturally Adaptive Generation), a framework …"
        found = _name_then_expansion(body)
    if found is not None:
        contribution, end = found
        description, joiner = _description(body[end:])
        return _Contribution(contribution.name, contribution.expansion, description, joiner)
    if _ARTICLE_START.match(rest):
        # "a general framework, namely, TARget-aware Forgetting (TARF)"
        return _description_then_name(rest) or _inline_abbreviation(rest)
    return None


def _expansion_then_abbr(text: str) -> tuple[_Contribution, int] | None:
    """Match "Long Name (ABBR)" at the start of ``text``."""
    match = _EXPANSION_ABBR.match(text)
    if match is None:
        return None
    expansion, abbr = match.group("exp").strip(), _clean_name(match.group("abbr"))
    words = expansion.split()
    if (
        len(words) > 8
        or _ARTICLE_START.match(expansion + " ")
        or not _is_coined(abbr)
        or abbr[0].lower() != expansion[0].lower()  # an abbreviation starts like its expansion
    ):
        return None
    return _Contribution(name=abbr, expansion=expansion), match.end()


def _name_then_expansion(text: str) -> tuple[_Contribution, int] | None:
    """Match a coined name at the start of ``text``, with an optional "(Expansion)" after it.

    The name must be followed by punctuation, an article or a preposition, so that the
    modifier in "we present 3D scenes" or "a method, GPT-based reranking" is not read as one.
    """
    tokens: list[str] = []
    pos = 0
    first = _NAME_TOKEN.match(text)
    if first is None:
        return None
    head = _clean_name(first.group(0))
    if _is_coined(head):
        tokens.append(head)
        pos = first.end()
        # Further capitalised words belong to the name: "DeepResearch Bench".
        while (token := _NAME_TOKEN.match(text, pos + 1)) and text[pos : pos + 1] == " ":
            word = _clean_name(token.group(0))
            if not word[:1].isupper():
                break
            tokens.append(word)
            pos = token.end()
    else:
        # A Title Case phrase of two or more words: "Domain Incremental Dataset Distillation".
        pos, tokens = _title_case_phrase(text)
        if len(tokens) < 2:
            return None
    name = " ".join(tokens)
    if _is_generic(name):
        return None
    expansion = None
    paren = _PAREN.match(text, pos)
    if paren and len(paren.group(1).split()) >= 2 and paren.group(1)[0].lower() == name[0].lower():
        expansion = paren.group(1).strip()
        pos = paren.end()
    if not _stands_alone(text[pos:]):
        return None
    return _Contribution(name=name, expansion=expansion), pos


def _title_case_phrase(text: str) -> tuple[int, list[str]]:
    """The longest run of capitalised words (with short connectors) starting ``text``."""
    tokens: list[str] = []
    pos = end = 0
    pending: list[str] = []
    while (token := _NAME_TOKEN.match(text, pos)) is not None:
        word = token.group(0)
        if word[:1].isupper() and word[:1].isalpha():
            tokens.extend(pending)
            tokens.append(word)
            pending = []
            end = token.end()
        elif word.lower() in _CONNECTORS and tokens:
            pending.append(word)
        else:
            break
        if text[token.end() : token.end() + 1] != " ":
            break
        pos = token.end() + 1
    return end, tokens


def _stands_alone(after: str) -> bool:
    """Whether the text after a candidate name lets it stand as a name."""
    after = after.lstrip()
    if not after or not after[0].isalnum():
        return True  # end of sentence, or punctuation: ", a benchmark", ": …", "— …"
    word = after.split(" ", 1)[0].lower()
    return word in _NAME_FOLLOWERS


def _description_then_name(rest: str) -> _Contribution | None:
    """Match "a general framework, namely, Name (ABBR)" and similar appositions."""
    for naming in _NAMING.finditer(rest, 0, min(len(rest), 160)):
        description = rest[: naming.start()].strip()
        if not description or len(description.split()) > 12:
            continue
        after = rest[naming.end() :]
        found = _expansion_then_abbr(after) or _name_then_expansion(after)
        if found is None:
            continue
        contribution, end = found
        tail = after[end:]
        # Keep a relative clause that still describes the contribution:
        # "a new problem setting, Domain Incremental Dataset Distillation, that continually …".
        relative = re.match(r"\s*,?\s*((?:that|which|where)\s.+)", tail)
        if relative:
            sep = ", " if relative.group(1).lower().startswith("which") else " "
            description = f"{description}{sep}{relative.group(1)}"
        return _Contribution(contribution.name, contribution.expansion, description)
    return None


def _inline_abbreviation(rest: str) -> _Contribution | None:
    """Match "a simple, model-agnostic self-consistency (SC) training strategy".

    Only when the abbreviation spells the initials of the words right before it, so a stray
    parenthesis is not mistaken for the name.
    """
    match = _INLINE_ABBR.search(rest, 0, min(len(rest), 200))
    if match is None:
        return None
    abbr = _clean_name(match.group(1))
    if not _is_coined(abbr) or _is_generic(abbr):
        return None
    letters = [c for c in abbr if c.isalpha()]
    capitals = [c for c in letters if c.isupper()]
    initials = "".join(capitals or letters).lower()
    words = re.split(r"[\s\-]+", rest[: match.start()])
    words = [w for w in words if w]
    if len(initials) > len(words):
        return None
    if "".join(w[0].lower() for w in words[-len(initials) :]) != initials:
        return None
    if match.end() < len(rest) and not rest[match.end() :].startswith((" ", ",")):
        return None  # "(SC)-based" is part of a word, not a name
    description = (rest[: match.start()] + rest[match.end() :]).strip()
    return _Contribution(name=abbr, description=description)


def _description(after: str) -> tuple[str | None, str]:
    """The description that follows a name, and how to join it to the name."""
    sep = _SEPARATOR.match(after)
    text = after[sep.end() :] if sep else after.lstrip()
    sep_text = sep.group(0).strip() if sep else ""
    if not text:
        return None, ": "
    if _RELATIVE_START.match(text):
        return text, ", "
    if _NUMBERED_START.match(text):
        return text, ": "  # "EHR-ChatQA an interactive …" has no comma, but reads the same
    if sep_text in {":", "—", "–", "-"}:
        return text, ": "
    return None, ": "


def _describe_from_next(found: _Contribution, sentence: str) -> _Contribution:
    """Take a description from "X is a …" / "It is a …" in the sentence after a bare name."""
    match = _NEXT_IS_A.fullmatch(sentence)
    if match and (match.group("name") in (None, found.name)):
        return _Contribution(found.name, found.expansion, match.group("desc"))
    return found


def _clean_name(token: str) -> str:
    """A name token without surrounding quotes or trailing sentence punctuation."""
    return token.strip("\"'“”‘’`[]").rstrip(".")


def _is_coined(token: str) -> bool:
    """Whether a token looks like a coined name: GDPval, ICF-Bench, DM4CT, FREAK, lmKANs."""
    if not _TOKEN_SHAPE.fullmatch(token) or len(token) < 2:
        return False
    inner_capital = any(c.isupper() for c in token[1:])
    has_digit = any(c.isdigit() for c in token) and token[0].isalpha() and token[0].isupper()
    return (inner_capital or has_digit) and not _is_generic(token)


def _is_generic(name: str) -> bool:
    """Whether a name is a category acronym such as LLMs or GNN."""
    key = name.lower()
    if key.endswith("s") and key[:-1] in _GENERIC:
        return True
    return key in _GENERIC


# --- composing and cutting -----------------------------------------------------------------


def _compose(found: _Contribution, max_len: int) -> str:
    """Title text for a contribution, fitted to ``max_len``."""
    name = found.name
    if found.description is None:
        if found.expansion:
            return _fit(f"{name}: {found.expansion}", max_len)
        return _fit(name, max_len)
    description = found.description
    if found.expansion:
        head, joiner = f"{name}: {found.expansion}", ", "
        if max_len - len(head) - len(joiner) < _MIN_DESC_ROOM:
            head, joiner = name, found.joiner
    else:
        head, joiner = name, found.joiner
    room = max_len - len(head) - len(joiner)
    if room < _MIN_DESC_ROOM // 2:
        return _fit(head, max_len)
    return head + joiner + _fit(description, room)


def _fit(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, at a clause boundary if one fits."""
    text = text.strip().rstrip(_TRAILING_PUNCT).strip()
    if len(text) <= limit:
        return text
    if limit <= 1:
        return ELLIPSIS[:limit]
    clause = _clause_cut(text, limit)
    if clause:
        return clause
    return _word_cut(text, limit)


def _clause_cut(text: str, limit: int) -> str | None:
    """The longest prefix ending at a clause boundary, if it keeps enough of the text."""
    window = text[: limit + 1]
    minimum = max(1, int(limit * _MIN_CLAUSE_SHARE))
    for pattern in (_STRONG_BOUNDARY, _WEAK_BOUNDARY):
        best = None
        for match in pattern.finditer(window):
            cut = match.start()
            if (
                minimum <= cut <= limit
                and _balanced(window[:cut])
                and not _joins_modifiers(window, match)
            ):
                best = cut
        if best is not None:
            clause = _tidy(text[:best])
            if len(clause) >= minimum:
                return clause
    return None


def _word_cut(text: str, limit: int) -> str:
    """Cut at the last word boundary so that the text plus "…" fits in ``limit``."""
    room = limit - len(ELLIPSIS)
    space = text.rfind(" ", 0, room + 1)
    if space <= 0:
        # One very long word, or a script written without spaces: cut by characters.
        return text[:room].rstrip() + ELLIPSIS
    cut = _tidy(text[:space])
    # Do not leave a parenthesis open when the text before it is long enough on its own.
    if not _balanced(cut):
        opening = cut.rfind("(")
        if opening >= room // 2:
            cut = _tidy(cut[:opening])
    return (cut or text[:room].rstrip()) + ELLIPSIS


def _tidy(text: str) -> str:
    """Strip trailing punctuation and dangling function words from a cut."""
    text = text.rstrip(_TRAILING_PUNCT)
    words = text.split(" ")
    # A few dangling words at most ("… based on a"); more means the text is not prose.
    for _ in range(3):
        if len(words) <= 1 or words[-1].lower() not in _DANGLING:
            break
        words.pop()
        words[-1] = words[-1].rstrip(_TRAILING_PUNCT)
    return " ".join(words).rstrip(_TRAILING_PUNCT)


def _joins_modifiers(text: str, boundary: re.Match[str]) -> bool:
    """Whether a comma boundary separates two adjectives rather than two clauses."""
    if "," not in boundary.group(0):
        return False
    word = text[text.rfind(" ", 0, boundary.start()) + 1 : boundary.start()]
    return _ADJECTIVE.fullmatch(word) is not None


def _balanced(text: str) -> bool:
    """Whether every parenthesis opened in ``text`` is closed."""
    return text.count("(") <= text.count(")")


#: Follows a derived title wherever it is cited or exported, so no one takes it for the
#: paper's own; read back, it makes the title derived again.
DERIVED_MARK = "[title derived from the abstract]"


def strip_derived_mark(title: str) -> tuple[str, bool]:
    """A title without ``DERIVED_MARK``, and whether it carried it."""
    if title.endswith(DERIVED_MARK):
        return title[: -len(DERIVED_MARK)].rstrip(), True
    return title, False
