"""rapideval: the numbers of nltk, sacrebleu and promptflow-evals, bit for bit, computed in Rust.

Flat public API; each function's docstring names the reference it reproduces.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import _cpu

_cpu.check()  # before anything loads the native module

from . import tokenize
from ._core import get_num_threads, release_memory, set_num_threads
from .metrics.bleu import bleu
from .metrics.chrf import CHRFScore, chrf, corpus_chrf
from .metrics.f1 import exact_match, f1
from .metrics.gleu import gleu
from .metrics.meteor import meteor
from .metrics.rouge import RougeArrays, rouge
from .metrics.sacrebleu import BLEUScore, sacrebleu_bleu, sacrebleu_corpus_bleu
from .metrics.stats import (
    BootstrapCI,
    MeanStd,
    PairedTest,
    bootstrap_ci,
    cohen_kappa,
    correlation,
    mean_std,
    paired_test,
)
from .metrics.ter import TERScore, corpus_ter, ter
from .metrics.vectors import TopK, cosine, cosine_matrix
from .metrics.votes import MajorityVote, OrdinalVote, majority_vote, ordinal_vote
from .score import score

if TYPE_CHECKING:
    from . import llm
    from .evaluation import EvaluationResult, evaluate
    from .llm import (
        BatchMode,
        Budget,
        CircuitBreaker,
        DryRun,
        JudgeClient,
        JudgeFailure,
        JudgeRequest,
        JudgeResult,
        JudgeRun,
        Limits,
        RetryPolicy,
        Sampling,
        Usage,
    )

# The LLM judge runtime imports openai and httpx: loaded on first use, not by `import rapideval`.
_LLM_NAMES = frozenset(
    {
        "BatchMode",
        "Budget",
        "CircuitBreaker",
        "DryRun",
        "JudgeClient",
        "JudgeFailure",
        "JudgeRequest",
        "JudgeResult",
        "JudgeRun",
        "Limits",
        "RetryPolicy",
        "Sampling",
        "Usage",
    }
)


# evaluate() reads tables with pyarrow and may judge: loaded on first use too.
_EVALUATION_NAMES = frozenset({"evaluate", "EvaluationResult"})


def __getattr__(name: str) -> Any:
    if name in _EVALUATION_NAMES:
        return getattr(importlib.import_module(".evaluation", __name__), name)
    if name == "llm":
        return importlib.import_module(".llm", __name__)
    if name in _LLM_NAMES:
        return getattr(importlib.import_module(".llm", __name__), name)
    raise AttributeError(f"module 'rapideval' has no attribute {name!r}")


__all__ = [
    "BLEUScore",
    "BatchMode",
    "BootstrapCI",
    "Budget",
    "CHRFScore",
    "CircuitBreaker",
    "DryRun",
    "EvaluationResult",
    "JudgeClient",
    "JudgeFailure",
    "JudgeRequest",
    "JudgeResult",
    "JudgeRun",
    "Limits",
    "MajorityVote",
    "MeanStd",
    "OrdinalVote",
    "PairedTest",
    "RetryPolicy",
    "RougeArrays",
    "Sampling",
    "TERScore",
    "TopK",
    "Usage",
    "bleu",
    "bootstrap_ci",
    "chrf",
    "cohen_kappa",
    "corpus_chrf",
    "corpus_ter",
    "correlation",
    "cosine",
    "cosine_matrix",
    "evaluate",
    "exact_match",
    "f1",
    "get_num_threads",
    "gleu",
    "llm",
    "majority_vote",
    "mean_std",
    "meteor",
    "ordinal_vote",
    "paired_test",
    "release_memory",
    "rouge",
    "sacrebleu_bleu",
    "sacrebleu_corpus_bleu",
    "score",
    "set_num_threads",
    "ter",
    "tokenize",
]
__version__ = "0.1.0"
