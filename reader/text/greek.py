"""Greek letters by their names: a reader types ``lambda`` for the λ that TeX's
``$\\lambda$`` renders to, and the index holds the name beside the letter."""

from __future__ import annotations

import re
import unicodedata

# Each letter's forms (small, variant, capital; raised where Unicode folds the raised letter
# to a Latin one, ᵅ to ɑ) and its name.
_FORMS = (
    ("αΑᵅ", "alpha"), ("βϐΒ", "beta"), ("γΓ", "gamma"), ("δΔ", "delta"), ("εϵΕᵋ", "epsilon"),
    ("ζΖ", "zeta"), ("ηΗ", "eta"), ("θϑΘϴ", "theta"), ("ιΙᶥ", "iota"), ("κϰΚ", "kappa"),
    ("λΛ", "lambda"), ("μµΜ", "mu"), ("νΝ", "nu"), ("ξΞ", "xi"), ("πϖΠ", "pi"),
    ("ρϱΡ", "rho"), ("σςΣ", "sigma"), ("τΤ", "tau"), ("υΥϒ", "upsilon"), ("φϕΦ", "phi"),
    ("χΧ", "chi"), ("ψΨ", "psi"), ("ωΩ", "omega"),
)
#: The name of each Greek letter (omicron left out: it is the letter o to a reader).
NAMES = {form: name for forms, name in _FORMS for form in forms}
#: TeX's names of the letters' variant forms (``\varphi`` renders ϕ): searched as the
#: letter's own name, which the index holds beside every letter standing alone.
TEX_VARIANTS = {
    "varepsilon": "epsilon", "vartheta": "theta", "varkappa": "kappa", "varpi": "pi",
    "varrho": "rho", "varsigma": "sigma", "varphi": "phi",
}
# The same letters raised, lowered and in mathematical styles (``t^{-\alpha}`` renders
# ``t⁻ᵅ``, ``Z_\phi`` ``Zᵩ``): Unicode's compatibility forms of them.
NAMES |= {
    char: NAMES[folded]
    for code in (*range(0x1D00, 0x1DC0), *range(0x1D6A8, 0x1D7CC))
    if (folded := unicodedata.normalize("NFKC", char := chr(code))) in NAMES
}
#: Each letter's small form, by its name.
LETTERS = {name: forms[0] for forms, name in _FORMS}
#: Each letter's forms as the index holds them (in lower case: small, variant), by its name.
SPELLED = {name: tuple(dict.fromkeys(form.lower() for form in forms)) for forms, name in _FORMS}
# A name with an index or a power after it: `tau_c`, `beta1`, `tau²`.
_NAMED_SYMBOL = re.compile(rf"({'|'.join(LETTERS)})(_.+|[0-9\u00b2\u00b3\u00b9\u2070-\u209c].*)",
                           re.IGNORECASE)


# TeX's marks around a symbol typed as TeX writes it: `\alpha_{t}`, `$\tau_c$`.
_TEX_MARKS = re.compile(r"[\\${}]")
# A power typed as TeX writes it (`sigma^2`, `\sigma_t^{2}`), which TeX prints raised.
_POWER = re.compile(r"\^([0-9]+)")
_RAISED = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
# A word of a query, apart from the quotes and brackets of its syntax and a field's name.
_QUERY_WORD = re.compile(r'[^\s"():]+')


def untex(word: str) -> str:
    """``word`` without TeX's marks where it is a Greek letter's name or the letter, alone
    or with an index or a power, typed as TeX writes it (``\\alpha_{t}`` is ``alpha_t``,
    ``$\\tau$`` is ``tau``, ``sigma_t^2`` is ``sigma_t²``); any other word as it is."""
    plain = _POWER.sub(lambda power: power[1].translate(_RAISED), _TEX_MARKS.sub("", word))
    if plain == word:
        return word
    named = plain.lower() in LETTERS or plain.lower() in TEX_VARIANTS or plain[:1] in NAMES
    return plain if named or _NAMED_SYMBOL.fullmatch(plain) else word


def untex_query(text: str) -> str:
    """A query with its symbols typed as TeX writes them read as their names are typed
    (see untex), before its syntax is: a phrase's words were split at the braces
    (``"gate \\alpha_{t} tracks"``), and ``^2`` read as a word's boost."""
    if not any(mark in text for mark in "\\${}^"):
        return text
    return _QUERY_WORD.sub(lambda word: untex(word[0]), text)


def spellings(word: str) -> list[str]:
    """The words the index may hold for ``word`` at its place in a text: itself, a symbol
    as printed (``tau_c``: ``τ_c``, ``τc``), a letter's name as the letter (``phi``: ``φ``,
    ``ϕ``; the index holds the name too, but after the text, not in its place)."""
    name = TEX_VARIANTS.get(word.lstrip("\\").lower(), word.lower())
    forms = [word, *printed_forms(word), *SPELLED.get(name, ())]
    return list(dict.fromkeys(forms))


def printed_forms(word: str) -> list[str]:
    """The forms in which the index may hold the symbol ``word`` names, other than
    ``word``: a letter's name with an index or a power, written with the letter (``tau_c``
    gives ``τ_c``, ``tau²`` gives ``τ²``), and a letter's index lowered, as TeX prints the
    digits and the letters Unicode lowers (``β₁`` is indexed ``β1``, found by ``beta_1`` and
    ``β_1``; ``αₜ`` ``αt``, found by ``alpha_t``)."""
    match = _NAMED_SYMBOL.fullmatch(word)
    symbol = LETTERS[match[1].lower()] + match[2] if match else word
    forms = [symbol] if symbol != word else []
    letter, _, index = symbol.partition("_")
    if letter in NAMES and index.isalnum():
        forms.append(letter + index)
    return forms


# A letter with no Greek letter beside it: a symbol (λ, α-Net, β_1, Ω(n)), not a word of
# Greek, whose letters would each be named. (The compatibility forms stand alone by nature.)


def _greek(char: str) -> bool:
    """Whether ``char`` is a letter of the Greek blocks (a word's, as a symbol's)."""
    return "\u0370" <= char <= "\u03ff" or "\u1f00" <= char <= "\u1fff"


def symbol_names(text: str) -> list[str]:
    """The names of the Greek letters that stand alone in ``text``, each once, in order:
    ``λ-GRPO with β_1`` gives ``["lambda", "beta"]``."""
    # Looked for with a set first, then char by char where there are any: a pattern of
    # the letters took half a millisecond for each abstract that is not ASCII.
    if text.isascii() or NAMES.keys().isdisjoint(text):
        return []
    found: dict[str, None] = {}
    for at, char in enumerate(text):
        name = NAMES.get(char)
        if name is not None and not (
            (at and _greek(text[at - 1])) or (at + 1 < len(text) and _greek(text[at + 1]))
        ):
            found.setdefault(name, None)
    return list(found)
