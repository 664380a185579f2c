"""rapideval: the numbers of nltk, sacrebleu and promptflow-evals, bit for bit, computed in Rust.

Flat public API; each function's docstring names the reference it reproduces.
"""

from __future__ import annotations

from . import tokenize
from ._core import get_num_threads, set_num_threads
from .metrics.bleu import bleu
from .metrics.f1 import exact_match, f1
from .metrics.gleu import gleu
from .metrics.sacrebleu import BLEUScore, sacrebleu_bleu, sacrebleu_corpus_bleu
from .score import score

__all__ = [
    "BLEUScore",
    "bleu",
    "exact_match",
    "f1",
    "get_num_threads",
    "gleu",
    "sacrebleu_bleu",
    "sacrebleu_corpus_bleu",
    "score",
    "set_num_threads",
    "tokenize",
]
__version__ = "0.1.0"
