"""Finding the named contribution an abstract introduces ("We introduce GDPval, a
benchmark …"): its name, the expansion of an abbreviation, the description that follows.

Only what the authors say they introduce, present, propose, develop, release or construct
counts; models and datasets the paper merely uses are context. Part of deriving titles
(:mod:`reader.text.titles`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Contribution:
    """A named contribution found in an abstract."""

    name: str
    expansion: str | None = None
    description: str | None = None
    # How the description attaches to the head: ": a benchmark …" or ", which …".
    joiner: str = ": "


# --- finding the contribution --------------------------------------------------------------


def find_contribution(sentences: list[str]) -> Contribution | None:
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
                return Contribution(name=name, description=match.group("desc"))
    return None


def _parse_introduced(rest: str) -> Contribution | None:
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
        return Contribution(contribution.name, contribution.expansion, description, joiner)
    if _ARTICLE_START.match(rest):
        # "a general framework, namely, TARget-aware Forgetting (TARF)"
        return _description_then_name(rest) or _inline_abbreviation(rest)
    return None


def _expansion_then_abbr(text: str) -> tuple[Contribution, int] | None:
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
    return Contribution(name=abbr, expansion=expansion), match.end()


def _name_then_expansion(text: str) -> tuple[Contribution, int] | None:
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
    return Contribution(name=name, expansion=expansion), pos


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


def _description_then_name(rest: str) -> Contribution | None:
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
        return Contribution(contribution.name, contribution.expansion, description)
    return None


def _inline_abbreviation(rest: str) -> Contribution | None:
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
    return Contribution(name=abbr, description=description)


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


def _describe_from_next(found: Contribution, sentence: str) -> Contribution:
    """Take a description from "X is a …" / "It is a …" in the sentence after a bare name."""
    match = _NEXT_IS_A.fullmatch(sentence)
    if match and (match.group("name") in (None, found.name)):
        return Contribution(found.name, found.expansion, match.group("desc"))
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


