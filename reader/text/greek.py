"""Greek letters by their names: a reader types ``lambda`` for the λ that TeX's
``$\\lambda$`` renders to, and the index holds the name beside the letter."""

from __future__ import annotations

import re

# Each letter's forms (small, variant, capital) and its name.
_FORMS = (
    ("αΑ", "alpha"), ("βϐΒ", "beta"), ("γΓ", "gamma"), ("δΔ", "delta"), ("εϵΕ", "epsilon"),
    ("ζΖ", "zeta"), ("ηΗ", "eta"), ("θϑΘϴ", "theta"), ("ιΙ", "iota"), ("κϰΚ", "kappa"),
    ("λΛ", "lambda"), ("μµΜ", "mu"), ("νΝ", "nu"), ("ξΞ", "xi"), ("πϖΠ", "pi"),
    ("ρϱΡ", "rho"), ("σςΣ", "sigma"), ("τΤ", "tau"), ("υΥϒ", "upsilon"), ("φϕΦ", "phi"),
    ("χΧ", "chi"), ("ψΨ", "psi"), ("ωΩ", "omega"),
)
#: The name of each Greek letter (omicron left out: it is the letter o to a reader).
NAMES = {form: name for forms, name in _FORMS for form in forms}
# A letter with no Greek letter beside it: a symbol (λ, α-Net, β_1, Ω(n)), not a word of
# Greek, whose letters would each be named.
_GREEK = "\u0370-\u03ff\u1f00-\u1fff"
_SYMBOL = re.compile(rf"(?<![{_GREEK}])[{''.join(NAMES)}](?![{_GREEK}])")


def symbol_names(text: str) -> list[str]:
    """The names of the Greek letters that stand alone in ``text``, each once, in order:
    ``λ-GRPO with β_1`` gives ``["lambda", "beta"]``."""
    if text.isascii():
        return []
    return list(dict.fromkeys(NAMES[match.group()] for match in _SYMBOL.finditer(text)))
