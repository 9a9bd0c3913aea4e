"""Well-known venues' names spelled out, as a BibTeX export writes an acronym a library
holds ("ICLR 2026" → "International Conference on Learning Representations (ICLR 2026)"),
and read back as the acronym: a library's own round trip gives back the venues it held.
"""

from __future__ import annotations

import re

__all__ = ["SPELLED", "as_held", "held_venue", "spelled_out"]

#: The source fields' key naming the variables a BibTeX file wrote spelled out and the
#: library holds as acronyms (``["container-title"]``): written again spelled out.
SPELLED = "@spelled"


# Well-known ML/NLP/CV venues, spelled out for reference managers; the acronym stays in
# parentheses so the venue is still recognisable at a glance (and read back).
_VENUE_NAMES = {
    "iclr": "International Conference on Learning Representations (ICLR)",
    "neurips": "Advances in Neural Information Processing Systems (NeurIPS)",
    "nips": "Advances in Neural Information Processing Systems (NeurIPS)",
    "icml": "International Conference on Machine Learning (ICML)",
    "aistats": "International Conference on Artificial Intelligence and Statistics (AISTATS)",
    "uai": "Conference on Uncertainty in Artificial Intelligence (UAI)",
    "colt": "Conference on Learning Theory (COLT)",
    "corl": "Conference on Robot Learning (CoRL)",
    "colm": "Conference on Language Modeling (COLM)",
    "aaai": "AAAI Conference on Artificial Intelligence (AAAI)",
    "ijcai": "International Joint Conference on Artificial Intelligence (IJCAI)",
    "acl": "Annual Meeting of the Association for Computational Linguistics (ACL)",
    "emnlp": "Conference on Empirical Methods in Natural Language Processing (EMNLP)",
    "naacl": (
        "Conference of the North American Chapter of the Association for "
        "Computational Linguistics (NAACL)"
    ),
    "eacl": (
        "Conference of the European Chapter of the Association for Computational Linguistics (EACL)"
    ),
    "coling": "International Conference on Computational Linguistics (COLING)",
    "cvpr": "IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)",
    "iccv": "IEEE/CVF International Conference on Computer Vision (ICCV)",
    "eccv": "European Conference on Computer Vision (ECCV)",
    "kdd": "ACM SIGKDD Conference on Knowledge Discovery and Data Mining (KDD)",
}
# "ICLR" or "ICLR 2026"; the year, if any, goes inside the parentheses; a track after it
# ("NeurIPS Datasets and Benchmarks Track") after the name, as its proceedings name it.
_VENUE_WITH_YEAR = re.compile(r"([A-Za-z]+)(?:\s+(\d{4}))?(?:\s+([\w&\s]+\bTrack))?")


# The full names without their acronyms, by acronym.
_LONG_NAMES = {acronym: name.rsplit(" (", 1)[0] for acronym, name in _VENUE_NAMES.items()}
# What spelled_out writes: the name, the acronym as the library spelled it (its year
# beside it) in parentheses, a track after a comma.
_SPELLED_OUT = re.compile(r"(.+) \(([A-Za-z]+)((?: \d{4})?)\)((?:, [\w&\s]+\bTrack)?)")


def spelled_out(venue: str) -> str:
    """A well-known venue acronym spelled out ("ICLR 2026" → "International … (ICLR 2026)"),
    the acronym as written ("NIPS 2017" stays NIPS in the parentheses), so that
    :func:`as_held` reads it back as it was."""
    match = _VENUE_WITH_YEAR.fullmatch(venue)
    if not match or match.group(1).lower() not in _LONG_NAMES:
        return venue
    year = f" {match.group(2)}" if match.group(2) else ""
    full = f"{_LONG_NAMES[match.group(1).lower()]} ({match.group(1)}{year})"
    return f"{full}, {match.group(3)}" if match.group(3) else full


def as_held(venue: str) -> str:
    """A venue :func:`spelled_out` wrote, read back as the acronym it spelled out ("ICLR
    2026"): the library's own name for it, which its citations and lists print; any other
    venue as it is."""
    match = _SPELLED_OUT.fullmatch(venue)
    if not match or _LONG_NAMES.get(match.group(2).lower()) != match.group(1):
        return venue
    track = match.group(4).removeprefix(", ")
    return " ".join(part for part in (match.group(2) + match.group(3), track) if part)


def held_venue(written: str, extra: dict[str, dict[str, object]]) -> str:
    """A BibTeX entry's venue as the library holds it (:func:`as_held`); one spelled out is
    remembered among the entry's source fields (:data:`SPELLED`), so that its export
    spells it out again, as the file had it."""
    held = as_held(written)
    if held != written:
        extra.setdefault("bibtex", {})[SPELLED] = ["container-title"]
    return held
