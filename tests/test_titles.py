"""Tests for derived titles (reader.text.titles) on the ICLR 2026 seed abstracts and edge cases."""

from __future__ import annotations

import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from reader.text.titles import derive_title

SAMPLE_DIR = Path(__file__).parent.parent / "reader" / "sample"
SEED_FILES = ("iclr2026-abstracts-1.txt", "iclr2026-abstracts-2.txt")


@cache
def seed_abstracts() -> tuple[str, ...]:
    """Every abstract in the seed files: header line dropped, one per blank-line paragraph."""
    abstracts: list[str] = []
    for name in SEED_FILES:
        text = (SAMPLE_DIR / name).read_text(encoding="utf-8")
        body = text.split("\n", 1)[1]  # first line is the header "ICLR 2026 论文列表"
        for paragraph in body.split("\n\n"):
            lines = [line.strip() for line in paragraph.splitlines() if line.strip()]
            if lines:
                abstracts.append(" ".join(lines))
    return tuple(abstracts)


def abstract_containing(marker: str) -> str:
    """The one seed abstract that contains ``marker``."""
    matches = [a for a in seed_abstracts() if marker in a]
    assert len(matches) == 1, f"{marker!r} matches {len(matches)} abstracts"
    return matches[0]


def test_seed_files_hold_38_abstracts() -> None:
    assert len(seed_abstracts()) == 38


# Marker that picks one abstract -> its full derived title at the default max_len of 90.
EXPECTED_TITLES = [
    (
        "We introduce GDPval,",
        "GDPval: a benchmark evaluating AI model capabilities on real-world economically valuable…",
    ),
    (
        "We present CIMemories,",
        "CIMemories: a benchmark for evaluating whether LLMs appropriately control information…",
    ),
    (
        "we introduce VisCodex,",
        "VisCodex: a unified framework that seamlessly merges vision and coding language models…",
    ),
    (
        "we propose KaLM-Embedding-V2,",
        "KaLM-Embedding-V2: a series of versatile and compact embedding models",
    ),
    (
        "We introduce ICF-Bench,",
        "ICF-Bench: a comprehensive benchmark for evaluating In-Context Forgetting (ICF)",
    ),
    (
        "We present Contamination Detection",
        "CoDeC: Contamination Detection via Context, a practical and accurate method to detect…",
    ),
    (
        "We introduce MRMR,",
        "MRMR: the first expert-level multidisciplinary multimodal retrieval benchmark requiring…",
    ),
    (
        "Transitive Reinforcement Learning (TRL)",
        "TRL: Transitive Reinforcement Learning, a new value learning algorithm…",
    ),
    (
        "we introduce DeepResearch Bench,",
        "DeepResearch Bench: a benchmark consisting of 100 PhD-level research tasks",
    ),
    # No comma between name and description.
    (
        "we introduce EHR-ChatQA an",
        "EHR-ChatQA: an interactive database question answering benchmark",
    ),
    # Markdown emphasis around the expansion.
    (
        "*Hierarchical Concept Embedding Models*",
        "HiCEMs: Hierarchical Concept Embedding Models, "
        "a new family of CEMs that explicitly model…",
    ),
    (
        "We present MedThinkVQA,",
        "MedThinkVQA: a benchmark that asks models to think with multiple images",
    ),
    (
        "we introduce MicroG-4M,",
        "MicroG-4M: the first benchmark for spatio-temporal and semantic understanding of human…",
    ),
    # soft-DTW is prior work the abstract builds on; perturbed-DTW is the contribution.
    (
        "we propose perturbed-DTW,",
        "perturbed-DTW: a differentiable framework of DTW obtained by adding random perturbations…",
    ),
    (
        "named Double-Debiasing (DDbias)",
        "DDbias: Double-Debiasing, a gradient-free debiasing method",
    ),
    (
        "we introduce LiveResearchBench,",
        "LiveResearchBench: a benchmark of 100 expert-curated tasks spanning daily life",
    ),
    (
        "We introduce MMSI-Bench,",
        "MMSI-Bench: a VQA benchmark dedicated to multi-image spatial intelligence",
    ),
    (
        "we introduce CAGE (Culturally",
        "CAGE: Culturally Adaptive Generation, a framework that systematically adapts…",
    ),
    # "**con**tinual … **c**onstrained" emphasis inside words.
    (
        "we propose CONCUR,",
        "CONCUR: a continual routing framework that supports both constrained and unconstrained…",
    ),
    (
        "Rockafellian Relaxation Method (RRM) --",
        "RRM: Rockafellian Relaxation Method, an architecture-independent, loss reweighting…",
    ),
    (
        "we introduce **EdiVal-Agent**",
        "EdiVal-Agent: an automated and fine-grained evaluation framework…",
    ),
    (
        "we propose FREAK,",
        "FREAK: a comprehensive multimodal benchmark designed for fine-grained hallucination…",
    ),
    (
        "we propose FlexHiNM,",
        "FlexHiNM: a hybrid framework that adaptively partitions each layer into three regions",
    ),
    ("we introduce DM4CT,", "DM4CT: a comprehensive benchmark for CT reconstruction"),
    (
        "we introduce HeurekaBench,",
        "HeurekaBench: a framework to create benchmarks with exploratory, open-ended research…",
    ),
    (
        "**Hessian-Enhanced Token Attribution (HETA)**",
        "HETA: Hessian-Enhanced Token Attribution, a novel attribution framework…",
    ),
    (
        "namely, TARget-aware Forgetting (TARF)",
        "TARF: TARget-aware Forgetting, a general framework",
    ),
    (
        "*Domain Incremental Dataset Distillation*",
        "Domain Incremental Dataset Distillation: a new problem setting that continually distills…",
    ),
    (
        "(DUET), a novel",
        "DUET: Distilled Unlearning from an Efficient Teacher, a novel distillation-based…",
    ),
    (
        "(lmKANs), which",
        "lmKANs: lookup multivariate Kolmogorov-Arnold Networks, which deliver a substantially…",
    ),
    # The first two "introductions" are unnamed; TabStruct is the named one.
    (
        "we present TabStruct,",
        "TabStruct: a comprehensive evaluation benchmark offering large-scale quantitative…",
    ),
    # A descriptive phrase with an abbreviation, not a coined name, read as "SC: …".
    (
        "self-consistency (SC) training strategy",
        "SC: a simple, model-agnostic self-consistency training strategy",
    ),
    # No named contribution: the opening clause, cut at a clause boundary.
    (
        "Model-level explanations for Graph",
        "Model-level explanations for Graph Neural Networks (GNNs) aim to identify…",
    ),
    (
        "Conversion of spoken mathematical",
        "Conversion of spoken mathematical expressions is a challenging task",
    ),
    (
        "Graph Neural Networks (\\textsc{Gnn}s)",
        "Graph Neural Networks (Gnns) are increasingly being deployed in sensitive, user-centric…",
    ),
    (
        "While scaling laws for Large Language",
        "While scaling laws for Large Language Models (LLMs) traditionally focus on proxy metrics…",
    ),
    # "\tool" is an unexpanded LaTeX macro, not a readable name.
    (
        "we propose \\tool,",
        "Large language models (LLMs) have demonstrated remarkable capability in function-level…",
    ),
    # "$\alpha$-CSBM" is not a readable name either.
    (
        "The Entropic Optimal Transport (EOT)",
        "The Entropic Optimal Transport (EOT) problem and its dynamic counterpart",
    ),
]


def test_expected_titles_cover_every_seed_abstract() -> None:
    covered = {abstract_containing(marker) for marker, _ in EXPECTED_TITLES}
    assert covered == set(seed_abstracts())


@pytest.mark.parametrize(("marker", "expected"), EXPECTED_TITLES, ids=lambda v: v[:24])
def test_seed_titles(marker: str, expected: str) -> None:
    assert derive_title(abstract_containing(marker)) == expected


@pytest.mark.parametrize(
    "opening",
    [
        "Graph Neural Networks (GNNs) achieve",
        "Graph Neural Networks (\\textsc{Gnn}s) are",
        "Model-level explanations for Graph Neural Networks (GNNs)",
        "Large Language Models (LLMs) have been",
        "Large Language Models (LLMs) increasingly",
        "Large language models (LLMs) have demonstrated",
        "Multimodal large language models (MLLMs)",
        "Multimodal Large Language Models (MLLMs)",
    ],
)
def test_context_models_are_not_the_contribution(opening: str) -> None:
    abstract = abstract_containing(opening)
    assert abstract.startswith(opening)
    title = derive_title(abstract)
    context = ("GNN", "Gnn", "LLM", "MLLM", "Graph Neural Networks", "Large Language Models")
    assert not title.startswith(tuple(f"{c}s:" for c in context) + tuple(f"{c}:" for c in context))
    if ": " in title:  # a named contribution: its name is not the context model either
        name = title.split(": ", 1)[0]
        assert not any(c.lower() in name.lower() for c in context), title


@pytest.mark.parametrize("abstract", seed_abstracts(), ids=lambda a: a[:24])
def test_seed_titles_are_clean(abstract: str) -> None:
    title = derive_title(abstract)
    assert 10 <= len(title) <= 90
    assert "*" not in title and "\\" not in title and "--" not in title
    assert not title.startswith(("GPT-5", "LLM", "GNN", "MLLM"))
    assert title[-1].isalnum() or title[-1] in "…)"


@pytest.mark.parametrize("max_len", [1, 2, 5, 12, 20, 30, 45, 60, 90, 150, 1000])
def test_max_len_is_respected_for_every_seed(max_len: int) -> None:
    for abstract in seed_abstracts():
        title = derive_title(abstract, max_len=max_len)
        assert 0 < len(title) <= max_len, (max_len, title)


def test_small_max_len_drops_the_expansion_before_the_description() -> None:
    abstract = abstract_containing("Transitive Reinforcement Learning (TRL)")
    assert derive_title(abstract, max_len=40) == "TRL: a new value learning algorithm…"


def test_generous_max_len_keeps_the_whole_sentence() -> None:
    abstract = abstract_containing("We introduce GDPval,")
    assert derive_title(abstract, max_len=200) == (
        "GDPval: a benchmark evaluating AI model capabilities on real-world economically "
        "valuable knowledge-work tasks"
    )


def test_zero_max_len_gives_empty_title() -> None:
    assert derive_title("We introduce GDPval, a benchmark.", max_len=0) == ""


# --- edge cases ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   ", "\n\t \n", "....", "**", "* * *"])
def test_empty_input_is_untitled(text: str) -> None:
    assert derive_title(text) == "Untitled"


def test_single_word() -> None:
    assert derive_title("Transformers") == "Transformers"
    assert derive_title("  GDPval.  ") == "GDPval"


def test_long_input_is_bounded() -> None:
    huge = "We introduce FooNet, a model for bar. " + "lorem ipsum dolor sit amet " * 200_000
    assert len(huge) > 5_000_000
    # How fast (about a millisecond): scripts/benchmark_text.py.
    assert derive_title(huge) == "FooNet: a model for bar"
    assert derive_title("x" * 5_000_000).endswith("…")
    assert len(derive_title("x" * 5_000_000)) == 90


def test_no_punctuation_is_cut_at_a_word_boundary() -> None:
    words = "this abstract just keeps going without any punctuation at all " * 20
    title = derive_title(words)
    assert len(title) <= 90
    assert title.endswith("…")
    kept = title[:-1]
    assert words.startswith(kept)
    assert words[len(kept)] == " "  # never mid-word


def test_long_first_sentence_is_cut_at_a_clause_boundary() -> None:
    text = (
        "Sparse attention mechanisms reduce the cost of long-context inference in transformers, "
        "but they often lose accuracy on retrieval-heavy tasks that need exact recall. We study "
        "why."
    )
    assert derive_title(text) == (
        "Sparse attention mechanisms reduce the cost of long-context inference in transformers"
    )


def test_short_first_sentence_drops_trailing_punctuation() -> None:
    assert derive_title("Diffusion models are strong priors. We study them.") == (
        "Diffusion models are strong priors"
    )


def test_abbreviation_does_not_end_the_sentence() -> None:
    assert derive_title("Tasks cover the U.S. GDP sectors. More text.") == (
        "Tasks cover the U.S. GDP sectors"
    )


@pytest.mark.parametrize(
    "text",
    [
        "本文提出了一种新的图神经网络方法，用于分子性质预测。实验表明效果很好。",
        "Мы предлагаем новый метод для обучения нейронных сетей. Он работает хорошо.",
        "نقترح طريقة جديدة لتعلم التمثيلات. النتائج جيدة.",
        "図" * 500,
    ],
)
def test_non_latin_scripts(text: str) -> None:
    title = derive_title(text)
    assert 0 < len(title) <= 90
    assert title != "Untitled"


@pytest.mark.parametrize(
    "text",
    [
        "(" * 10_000,
        ")" * 10_000,
        "*" * 10_000,
        "**a" * 100_000,
        "_" * 100_000 + "a",
        "We propose " + "(ABC) " * 5_000,
        "We introduce",
        "we introduce ,,,,",
        "\\textbf{" * 1000,
        "$$ \\alpha $$",
        "\x00\x01\x02",
        "\ud800 lone surrogate",
        "We introduce X" + "-" * 10_000,
        "a. " * 50_000,
    ],
)
def test_never_raises(text: str) -> None:
    title = derive_title(text)
    assert isinstance(title, str)
    assert 0 < len(title) <= 90


# --- contribution patterns -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We introduce GDPval, a benchmark for work tasks.", "GDPval: a benchmark for work tasks"),
        (
            "FooBench is a benchmark for testing agents. It has 100 tasks.",
            "FooBench: a benchmark for testing agents",
        ),
        ("To address this, we propose **X-Net**, a sparse network.", "X-Net: a sparse network"),
        ("To address this, we propose **X-Net**.", "X-Net"),
        ("We propose FooNet. FooNet is a model for bar.", "FooNet: a model for bar"),
        ("We propose FooNet, which halves memory use.", "FooNet, which halves memory use"),
        (
            "We introduce Graph Retrieval Units (GRUs), which cache subgraphs.",
            "GRUs: Graph Retrieval Units, which cache subgraphs",
        ),
        (
            "We present a new loss, called MarginMix, that stabilises training.",
            "MarginMix: a new loss that stabilises training",
        ),
        (
            "This paper introduces RoboArena: a platform for robot evaluation.",
            "RoboArena: a platform for robot evaluation",
        ),
        (
            "We release *OpenCorpus-2*, the largest open corpus of papers.",
            "OpenCorpus-2: the largest open corpus of papers",
        ),
    ],
)
def test_contribution_patterns(text: str, expected: str) -> None:
    assert derive_title(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A model that is used or studied, not introduced.
        (
            "GPT-5 is a large language model. We evaluate it on math.",
            "GPT-5 is a large language model",
        ),
        (
            "Large Language Models (LLMs) hallucinate. We study why.",
            "Large Language Models (LLMs) hallucinate",
        ),
        # "3D" modifies "scenes"; it is not a name.
        ("We present 3D scenes for robot learning.", "We present 3D scenes for robot learning"),
        # Unnamed contributions fall back to the opening clause.
        ("Retrieval is hard. We propose a simple method that works.", "Retrieval is hard"),
        (
            "Retrieval is hard. We introduce a new metric, recall depth, which helps.",
            "Retrieval is hard",
        ),
    ],
)
def test_non_contributions(text: str, expected: str) -> None:
    assert derive_title(text) == expected


def test_name_keeps_its_casing_and_description_its_lower_case() -> None:
    title = derive_title("We introduce lmKANs, a lookup network.")
    assert title == "lmKANs: a lookup network"


def test_module_does_not_import_textual() -> None:
    code = "import sys, reader.text.titles; sys.exit('textual' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).parent.parent)
    assert result.returncode == 0
