"""Rendering abstracts: LaTeX to Unicode, Markdown emphasis to spans, never a crash."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from reader.text.render import Rendered, _fold, plain_line, render, render_line, to_plain

# Markers and placeholders of the renderer: none may ever reach its output.
PRIVATE = re.compile("[\ue000-\ue005\U000f0000-\U0010ffff]")
SAMPLES = sorted((Path(__file__).parent.parent / "reader" / "sample").glob("*.txt"))


def abstracts() -> list[str]:
    """Every abstract in the bundled seed files (header line, then blank-line paragraphs)."""
    out: list[str] = []
    for path in SAMPLES:
        _header, _, body = path.read_text(encoding="utf-8").partition("\n")
        out += [p.strip() for p in re.split(r"\n\s*\n", body) if p.strip()]
    return out


def abstract_with(needle: str) -> str:
    found = [a for a in abstracts() if needle in a]
    assert len(found) == 1, needle
    return found[0]


def styled(rendered: Rendered, style: str) -> list[str]:
    """The pieces of text carrying ``style``, in order."""
    return [rendered.text[s:e] for s, e, kind in rendered.spans if kind == style]


def test_samples_are_there() -> None:
    assert len(SAMPLES) == 2
    assert len(abstracts()) == 38


# --- LaTeX -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (r"$\alpha$-CSBM", "α-CSBM"),
        (r"\textsc{Gnn}s", "Gnns"),
        (r"only requires $O(\log T)$ recursions", "only requires O(log T) recursions"),
        (r"only requires O(\log T) recursions", "only requires O(log T) recursions"),
        (r"28\% vs. 30\%", "28% vs. 30%"),
        ("Deep research---producing", "Deep research—producing"),
        ("pages 3--5", "pages 3–5"),
        (r"Schr\"odinger bridge", "Schrödinger bridge"),
        (r"Schr\"{o}dinger and Fran\c{c}ois and G\'{e}rard", "Schrödinger and François and Gérard"),
        (r"Sk\l odowska", "Skłodowska"),
        (r"$x^2$", "x²"),
        (r"$x^{-1}$ and $x_{10}$", "x⁻¹ and x₁₀"),
        (r"$\mathbb{R}^n$", "ℝⁿ"),
        (r"\$5", "$5"),
        (r"R\&D and \#1 and snake\_case", "R&D and #1 and snake_case"),
        (r"``quoted''", "“quoted”"),
        (r"Fig.~3", "Fig.\u00a03"),
        (r"\LaTeX{} and \TeX", "LaTeX and TeX"),
        (r"\href{https://example.org}{our code}", "our code (https://example.org)"),
        (r"\url{https://x.org/~me/a_b%20c}", "https://x.org/~me/a_b%20c"),
        # The author's space after a symbol, before a macro printing its argument.
        (r"$\mathrm{H} \rightarrow \mathrm{ZZ}^*$", "H → ZZ*"),
        (r"$\mathrm{H}\rightarrow\mathrm{ZZ}$", "H→ZZ"),
        (r"$O(\log \mathrm{T})$", "O(log T)"),
    ],
)
def test_latex_to_unicode(source: str, expected: str) -> None:
    assert to_plain(source) == expected


def test_latex_emphasis_becomes_spans() -> None:
    rendered = render(r"an \emph{emph} and \textit{it} and \textbf{bold} and \texttt{tt}")
    assert rendered.text == "an emph and it and bold and tt"
    assert styled(rendered, "italic") == ["emph", "it"]
    assert styled(rendered, "bold") == ["bold"]
    assert styled(rendered, "code") == ["tt"]


def test_latex_declarations_in_groups_become_spans() -> None:
    rendered = render(r"{\bf bold} and {\em it}")
    assert rendered.text == "bold and it"
    assert styled(rendered, "bold") == ["bold"]
    assert styled(rendered, "italic") == ["it"]


def test_environments_and_structure_do_not_lose_text() -> None:
    assert to_plain(r"\begin{itemize}\item first \item second\end{itemize}").split() == [
        "*", "first", "*", "second"
    ]
    assert to_plain(r"so \begin{equation} x^2 \end{equation} holds").split() == [
        "so", "x²", "holds"
    ]
    assert to_plain(r"\begin{abstract}We show.\end{abstract}") == "We show."
    assert to_plain(r"\section{Intro} Text \footnote{a note}").split() == [
        "§", "Intro", "Text", "[a", "note]"
    ]
    assert to_plain(r"x\\y\newline z") == "x\ny\nz"


def test_citations_do_not_crash_and_show_the_key() -> None:
    text = to_plain(r"as in \cite{smith2020} and \citep[p.~3]{doe21,roe22} or \citet*{x}.")
    assert "smith2020" in text and "doe21,roe22" in text
    assert "\\cite" not in text


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (r"we propose \tool, a benchmark", r"we propose \tool, a benchmark"),
        (r"\tool incorporates the test cases", r"\tool incorporates the test cases"),
        (r"ends with \tool", r"ends with \tool"),
        (r"see \mymacro{arg} here", r"see \mymacro{arg} here"),
        (r"\ours{} and \method, fine", r"\ours{} and \method, fine"),
        (r"$\R^n$", r"\R^n"),
    ],
)
def test_unknown_macros_stay_visible(source: str, expected: str) -> None:
    assert to_plain(source) == expected


def test_unknown_macro_with_nested_latex_argument() -> None:
    assert to_plain(r"\mymacro{$\alpha$ and \textbf{b}}") == r"\mymacro{α and b}"


def test_a_command_with_its_backslash_doubled_is_the_command() -> None:
    # An ICLR 2026 abstract, as its form stored it: "textbfParameter-efficient" otherwise.
    source = r"$\\textbf{Parameter-efficient fine-tuning}$ for \\textit{specific domains}"
    assert to_plain(source) == "Parameter-efficient fine-tuning for specific domains"
    assert render(source).spans  # bold and italic, as the single backslash gives
    # A line break before a word that is no command stays one.
    assert to_plain(r"one line\\two") == "one line\ntwo"
    assert to_plain(r"a\\unknowncommand") == "a\nunknowncommand"


def test_what_a_new_user_found_half_converted_in_iclr_abstracts() -> None:
    # \tfrac and \dfrac are \frac; an operator is set apart from the letter before it.
    source = r"$\tilde{O}\left(\tfrac{d\log n}{\varepsilon}\right)$ and $\dfrac{a}{b}$"
    assert to_plain(source) == "Õ(d log n/ε) and a/b"
    assert to_plain(r"$n\log n$, $O(\log T)$, $\log\log n$") == "n log n, O(log T), log log n"
    # An amount-looking opening is math when what it closes holds a macro; a number with
    # two decimals between dollars is math (an FID), an amount with thousands is not.
    assert to_plain(r"$25 \times$ faster, with probability $1-\delta$") == (
        "25 × faster, with probability 1-δ")
    assert to_plain("an FID of $2.53$ in $1$ step") == "an FID of 2.53 in 1 step"


def test_tool_abstract_keeps_its_name() -> None:
    source = abstract_with(r"\tool")
    rendered = render(source)
    assert rendered.text.count(r"\tool") == source.count(r"\tool") == 3
    assert "we propose \\tool, a benchmark" in rendered.text
    assert "18.8% functionally correct" in rendered.text
    assert styled(rendered, "bold") == [
        "implementing the functionality into an Android app from scratch"
    ]


def test_gnn_abstract() -> None:
    rendered = render(abstract_with(r"\textsc{Gnn}s"))
    assert rendered.text.startswith("Graph Neural Networks (Gnns) are increasingly")
    assert "from a trained Gnn without retraining" in rendered.text
    assert styled(rendered, "italic") == ["efficiency", "utility", "forgetting"]
    assert "\\" not in rendered.text


def test_real_math_and_percent_abstracts() -> None:
    assert "construct the α-CSBM algorithm" in to_plain(abstract_with(r"$\alpha$-CSBM"))
    trl = to_plain(abstract_with(r"$O(\log T)$"))
    assert "only requires O(log T) recursions (as opposed to O(T) in TD learning)" in trl
    speech = to_plain(abstract_with(r"(28\% vs. 30\%)"))
    assert "(28% vs. 30%)" in speech and "(27% vs. 64%)" in speech
    deep = to_plain(abstract_with("Deep research---producing"))
    assert deep.startswith("Deep research—producing comprehensive")
    assert "websites—marks" in deep
    rrm = to_plain(abstract_with("Rockafellian Relaxation Method (RRM) --"))
    assert "Rockafellian Relaxation Method (RRM) – an architecture-independent" in rrm


# --- dollars -----------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "costs $5 and $10",
        "a $10 fee",
        "between $5-$10 per hour",
        "$5/$10 split",
        "raised $1,000 and $2,000.",
        "priced at $1,000$ exactly",
        "a lone $ sign",
        "ends with $",
        "$ 5 and 6 $",
        "US$5 or $5M in funding and $3 billion",
    ],
)
def test_money_and_unpaired_dollars_are_left_alone(source: str) -> None:
    assert to_plain(source) == source


def test_math_dollars_next_to_money() -> None:
    assert to_plain(r"we spent $5 and got $\alpha$") == "we spent $5 and got α"
    assert to_plain(r"$n$ tasks for $10") == "n tasks for $10"


def test_display_math() -> None:
    assert to_plain(r"so $$E = mc^2$$ holds").split() == ["so", "E", "=", "mc²", "holds"]


# --- Markdown ----------------------------------------------------------------


def test_markdown_emphasis() -> None:
    rendered = render("we propose **HETA**, *HiCEMs* and _x_ with `code_here *x*`")
    assert rendered.text == "we propose HETA, HiCEMs and x with code_here *x*"
    assert styled(rendered, "bold") == ["HETA"]
    assert styled(rendered, "italic") == ["HiCEMs", "x"]
    assert styled(rendered, "code") == ["code_here *x*"]


def test_intraword_strong_emphasis_from_real_abstract() -> None:
    rendered = render(abstract_with("**con**tinual"))
    assert "we propose CONCUR, a continual routing framework" in rendered.text
    assert "both constrained and unconstrained routing" in rendered.text
    assert styled(rendered, "bold") == ["con", "c", "u", "r"]
    assert styled(rendered, "italic") == ["single", "all", "single", "modular", "multiple"]
    assert "*" not in rendered.text


def test_bold_and_italic_from_real_abstracts() -> None:
    heta = render(abstract_with("**Hessian-Enhanced"))
    assert styled(heta, "bold") == [
        "Hessian-Enhanced Token Attribution (HETA)",
        "curated benchmark dataset",
    ]
    hicem = render(abstract_with("*Hierarchical Concept"))
    assert styled(hicem, "italic") == [
        "Hierarchical Concept Embedding Models",
        "Concept Splitting",
        "PseudoKitchens",
    ]


def test_nested_and_combined_emphasis() -> None:
    rendered = render("**bold *both* bold** and ***all***")
    assert rendered.text == "bold both bold and all"
    assert styled(rendered, "bold") == ["bold both bold", "all"]
    assert styled(rendered, "italic") == ["both", "all"]


def test_emphasis_around_math() -> None:
    rendered = render(r"**the $\alpha$ model**")
    assert rendered.text == "the α model"
    assert styled(rendered, "bold") == ["the α model"]


@pytest.mark.parametrize(
    "source",
    [
        "Department of Labor O*NET Work Activities",
        "compute 2*3 and 4*5*6",
        "a * b * c",
        "snake_case_names and more_snake_case",
        "ratio N:M sparsity",
        "footnote marker* only",
        "a ** b ** c",
        "x_1 and y_2",
    ],
)
def test_not_emphasis(source: str) -> None:
    rendered = render(source)
    assert rendered == Rendered(source, ())


def test_asterisks_inside_math_are_not_emphasis() -> None:
    rendered = render(r"$a*b*c$ and $x_i y_j$ and \(p*q*r\)")
    assert rendered.spans == ()
    assert rendered.text == "a*b*c and xᵢ yⱼ and p*q*r"


def test_escaped_asterisks_are_literal() -> None:
    assert render(r"\*not emphasis\*") == Rendered("*not emphasis*", ())


# --- plain text and markup-like text ---------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "",
        "Plain text with nothing special.",
        "  leading and trailing spaces  ",
        "First paragraph.\n\nSecond paragraph.\n\n\n\nThird after extra blank lines.\n",
        "line one\nline two\n\tindented line",
        "It's the model's accuracy: 97% (n = 5), R&D, ~10% better, 3 - 2 = 1.",
        "Unicode: émigré, 中文, α-CSBM, Schrödinger — done.",
        "[bold]not bold[/] [/] [link=file:///etc/passwd]x[/link] [@click=app.quit]quit",
        "[red on white]styled?[/red on white] and [b]",
    ],
)
def test_plain_text_is_unchanged(source: str) -> None:
    assert render(source) == Rendered(source, ())


def test_markup_like_text_survives_next_to_latex() -> None:
    source = r"[bold]$\alpha$[/] and \textbf{[link=file:///etc/passwd]}"
    rendered = render(source)
    assert rendered.text == "[bold]α[/] and [link=file:///etc/passwd]"
    assert styled(rendered, "bold") == ["[link=file:///etc/passwd]"]


def test_paragraph_breaks_survive_latex() -> None:
    assert to_plain("A $\\alpha$ one.\n\nB \\textbf{two}.\n\n\nC.") == "A α one.\n\nB two.\n\n\nC."


# --- robustness ---------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        r"\textbf{x",
        "\\",
        "{{{{{{",
        "}}}}}}",
        r"\begin{itemize}",
        r"\end{document}",
        r"$\frac{1}{$",
        r"\verb|x",
        "$$",
        "$",
        r"\(",
        r"\)",
        r"\href{x}",
        r"\cite",
        r"\\\\\\",
        "{" * 10_000 + "x" + "}" * 10_000,
        "{" * 900 + "x" + "}" * 900,
        "\\textbf{" * 5_000,
        "$" * 5_000,
        "*" * 5_000,
        "_a" * 5_000,
        " **x" * 20_000,
        "\ue000\ue003\U000f0000\U00100001 private use \U000f0000",
        "**\ue001x\ue000**",
    ],
)
def test_never_raises(source: str) -> None:
    rendered = render(source)
    assert isinstance(rendered.text, str)
    assert not PRIVATE.search(rendered.text)
    for start, end, style in rendered.spans:
        assert 0 <= start < end <= len(rendered.text)
        assert style in {"bold", "italic", "code"}


def test_private_use_input_cannot_forge_markers_or_placeholders() -> None:
    rendered = render("**a\ue001b** \U000f0000 \ue010")
    assert rendered.text == "a\ufffdb \ufffd \ue010"
    assert rendered.spans == ((0, 3, "bold"),)


def test_unbalanced_braces_keep_their_text() -> None:
    assert "x" in to_plain(r"\textbf{x")
    assert to_plain("\\") == "\\"


def test_megabyte_input() -> None:
    paragraph = abstract_with(r"\tool")
    big = "\n\n".join([paragraph] * (1_000_000 // len(paragraph) + 1))
    rendered = render(big)  # how fast: scripts/benchmark_text.py
    assert rendered.text.count(r"\tool") == big.count(r"\tool")
    one_line = "word " * 200_000
    assert render(one_line).text == one_line


def test_random_inputs_never_raise() -> None:
    rng = random.Random(1234)
    alphabet = list("\\{}$*_`~%&^[]-'ab 1\n") + ["\\textbf{", "\\emph", "$$", "**", "\\alpha"]
    for _ in range(3_000):
        source = "".join(rng.choice(alphabet) for _ in range(rng.randrange(60)))
        rendered = render(source)
        assert not PRIVATE.search(rendered.text), source
        for start, end, _style in rendered.spans:
            assert 0 <= start < end <= len(rendered.text), source


def test_random_plain_text_is_unchanged() -> None:
    rng = random.Random(99)
    alphabet = list("abcXYZ 019.,;:!?()'\"-+=/<>@|\n\t") + ["é", "中", "α"]
    for _ in range(1_000):
        source = "".join(rng.choice(alphabet) for _ in range(rng.randrange(80)))
        # "--" and "''" are LaTeX ligatures by design; skip those draws.
        if "--" in source or "''" in source:
            continue
        assert render(source) == Rendered(source, ()), source


# --- spans and real abstracts -------------------------------------------------


def test_spans_index_the_text() -> None:
    source = "**HETA** then *HiCEMs* then \\emph{Concept} then `x_y` then \\textbf{$\\alpha$-SB}"
    rendered = render(source)
    assert [(rendered.text[s:e], k) for s, e, k in rendered.spans] == [
        ("HETA", "bold"),
        ("HiCEMs", "italic"),
        ("Concept", "italic"),
        ("x_y", "code"),
        ("α-SB", "bold"),
    ]


@pytest.mark.parametrize("index", range(38))
def test_abstract_keeps_every_word(index: int) -> None:
    source = abstracts()[index]
    rendered = render(source)
    without_macros = re.sub(r"\\[A-Za-z]+", " ", source)
    for word in re.findall(r"[A-Za-z]+", without_macros):
        assert word in rendered.text, word
    assert "**" not in rendered.text
    assert "$" not in rendered.text
    assert not PRIVATE.search(rendered.text)
    for start, end, _style in rendered.spans:
        piece = rendered.text[start:end]
        assert piece and piece == piece.strip()


def test_abstracts_without_markup_are_unchanged() -> None:
    plain = [a for a in abstracts() if not re.search(r"[\\$`]|\*\w|--", a)]
    assert len(plain) > 20
    for source in plain:
        assert render(source) == Rendered(source, ())


# --- one-line fields: titles, TL;DRs, names ------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("A plain title", "A plain title"),
        ("A title\n  broken over   lines", "A title broken over lines"),
        (r"DA$^2$: Depth Anything", "DA²: Depth Anything"),
        (r"Line \\ break and \newline more", "Line break and more"),
        ("", ""),
    ],
)
def test_plain_line(source: str, expected: str) -> None:
    assert plain_line(source) == expected


def test_render_line_spans_follow_folded_whitespace() -> None:
    rendered = render_line(r"\textbf{Bold}  \\  and \emph{italic words}")
    assert rendered.text == "Bold and italic words"
    assert styled(rendered, "bold") == ["Bold"]
    assert styled(rendered, "italic") == ["italic words"]


# --- TeX in titles, names and abstracts: the cases issue reports named ----------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # Font switches print nothing, grouped or not.
        (r"The \sc CONNIVER Reference Manual", "The CONNIVER Reference Manual"),
        (r"The {\sc Conniver} Reference Manual", "The Conniver Reference Manual"),
        (r"\rm 2nd ed.", "2nd ed."),
        (r"{\bf Bold} and {\it italic} and {\sf sans}", "Bold and italic and sans"),
        (r"\textsc{Gnn} \textrm{and} \textnormal{more}", "Gnn and more"),
        # Italic correction and \slash, also run together with the next word.
        (r"k\/-consistency", "k-consistency"),
        (r"InGaN\slashGaN quantum wells", "InGaN/GaN quantum wells"),
        (r"InGaN\slash GaN", "InGaN/GaN"),
        # Letters and accents.
        (r"\AA ngstr\"om and \aa", "Ångström and å"),
        (r"Sch\ocirc{u}ller", "Schůller"),
        (r"\'{E}cole and \v{C}ech and \r{u}", "École and Čech and ů"),
        # Delimiter sizes and overlines.
        (r"\left( 000\overline{1} \right)", "(0001̅)"),
        (r"GaN $\left( 000\overline{1} \right)$ surfaces", "GaN (0001̅) surfaces"),
        (r"$\bigl[ x \bigr]$ and $\left\{ y \right.$", "[x] and {y"),
        (r"\overline{1}", "1̅"),
        # Sub- and superscripts, where Unicode has the characters.
        (r"In$_x$Ga$_{1-x}$N", "InₓGa₁₋ₓN"),
        (r"CeAg$_2$Ge$_2$", "CeAg₂Ge₂"),
        (r"DA$^2$: Depth Anything", "DA²: Depth Anything"),
        (r"UI2Code$^N$", "UI2Codeᴺ"),
        (r"$\ell_1$, $\ell_2$ and $\ell_p^p$", "ℓ₁, ℓ₂ and ℓₚᵖ"),
        (r"$V_{\rm rot}$ and $x_{\text{max}}$", "Vᵣₒₜ and xₘₐₓ"),
        (r"$e^{-x}$ and $x^\prime$ and $A^\top$", "e⁻ˣ and x′ and Aᵀ"),
        # ... and marked off where it has not.
        (r"Linear $Q^{\pi}$ Realizability", "Linear Q^π Realizability"),
        (r"$T_{\rm N}$", "T_N"),
        (r"$\mathbb{R}^{n \times d}$", "ℝ^(n × d)"),
        (r"$x^{y_1}$", "x^(y₁)"),
        # Math that a digit follows, and degrees.
        (r"360$^\circ\times$180$^\circ$ panoramas", "360°×180° panoramas"),
        (r"rotated by 90$^{\circ}$", "rotated by 90°"),
        (r"with only $<$1% more compute", "with only <1% more compute"),
        (r"a smaller size (7$-$8B)", "a smaller size (7-8B)"),
        (r"achieves FID$=$1.46 on ImageNet", "achieves FID=1.46 on ImageNet"),
        # Operators and wide accents (xampl.bib, ICLR 2026 TL;DRs).
        (r"An {$O(n \log n / \! \log\log n)$} Sorting Algorithm",
         "An O(n log n / log log n) Sorting Algorithm"),
        (r"$\max_i x_i$ and $\log(x)$", "maxᵢ xᵢ and log(x)"),
        (r"a $\widetilde{O}(s^4)$ tester", "a Õ(s⁴) tester"),
    ],
)
def test_tex_to_unicode(source: str, expected: str) -> None:
    assert plain_line(source) == expected
    assert to_plain(source) == expected


SHARED = Path(__file__).parent.parent.parent / "shared" / "data"
ICLR_SAMPLE = SHARED / "iclr2026" / "submissions-sample.jsonl.gz"
# What no rendered title may show: TeX's math shift and macros.
TEX_LEFTOVER = re.compile(r"\$|\\[A-Za-z]")


def iclr_titles_with_tex() -> list[str]:
    """Titles of the shared ICLR 2026 sample that hold TeX, or a fixture of some of them."""
    if ICLR_SAMPLE.exists():
        import gzip
        import json

        with gzip.open(ICLR_SAMPLE, "rt", encoding="utf-8") as lines:
            titles = [json.loads(line)["content"].get("title") or "" for line in lines]
        return [t for t in titles if "$" in t or "\\" in t]
    return (Path(__file__).parent / "data" / "iclr2026-tex-titles.txt").read_text().splitlines()


def test_iclr_titles_render_without_tex_leftovers() -> None:
    titles = iclr_titles_with_tex()
    assert len(titles) >= 28
    leftovers = [(t, plain_line(t)) for t in titles if TEX_LEFTOVER.search(plain_line(t))]
    assert leftovers == []


def test_titles_whose_braces_only_group_read_as_the_converter_reads_them() -> None:
    titles = [
        "{GDPval}: Evaluating {AI} Model Performance on {Real-World} Tasks",
        "Do {LLMs} Forget What They Should? {In-Context} Forgetting",
        "{{Nested}} groups {and} {} empty ones",
        "A { spaced } group",
    ]
    for title in titles:
        assert render_line(title) == _fold(render(title, groups=True)), title


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # A set in an abstract is a set, as OpenReview and arXiv show it.
        ("k in {3, 4, 6} and {like this}.", "k in {3, 4, 6} and {like this}."),
        ("nested {a {b} c}", "nested {a {b} c}"),
        # Braces that group stay groups: a macro's arguments, one opening on a macro or
        # on math, a script's argument.
        (r"{\em bold} and \emph{this} and \href{https://example.org}{code}",
         "bold and this and code (https://example.org)"),
        (r"An {$O(n)$} sort", "An O(n) sort"),
        (r"set $\{1, 2\}$ of x_{i}", "set {1, 2} of x_i"),
    ],
)
def test_bare_braces_in_an_abstract_are_text(source: str, expected: str) -> None:
    assert to_plain(source) == expected
    # A BibTeX value's braces only group (they protect words).
    assert to_plain("A {BERT} title", groups=True) == "A BERT title"
    assert plain_line("A {BERT} title") == "A BERT title"


@pytest.mark.parametrize(("tex", "shown"), [
    (r"(\ie, math, code)", "(i.e., math, code)"),
    (r"models \eg the ones", "models e.g. the ones"),
    (r"Smith \etal{} show", "Smith et al. show"),
    (r"ours \vs\ baselines", "ours vs. baselines"),
])
def test_the_abbreviations_style_files_define_read_as_words(tex: str, shown: str) -> None:
    """cvpr.sty's \\eg, \\ie, \\etal … left in a pasted abstract read as what they stand for,
    not as unknown macros."""
    assert to_plain(tex) == shown


def test_tex_mendeley_escaped_as_text_is_read_as_tex() -> None:
    """Mendeley's BibTeX writes "$\\epsilon$" as "{\\$}\\backslashepsilon{\\$}": drawn
    "$\\backslashepsilon{$}-capacity" in the detail pane, `reader show` and citations. A
    backslash of a set difference stays one."""
    mendeley = (r"attains the {\$}\backslashepsilon{\$}-capacity and the "
                r"{\$}\backslashalpha{\$}-R{\'{e}}nyi divergence, {\$}x{\_}1{\$}")
    assert to_plain(mendeley) == "attains the ϵ-capacity and the α-Rényi divergence, x₁"
    # Its other way: a backslash as "$\backslash$", braces as "{\{}" and "{\}}".
    other = (r"the {\$}\backslashalpha{\$}-R$\backslash$'{\{}e{\}}nyi of "
             r"[CMP {\{}$\backslash$bf 289{\}}]")
    assert to_plain(other) == "the α-Rényi of [CMP 289]"
    assert to_plain(r"the set $A \backslash B$") == "the set A \\ B"
