"""rapideval: the numbers of nltk, sacrebleu and promptflow-evals, bit for bit, computed in Rust."""

from __future__ import annotations

from . import tokenize
from ._core import get_num_threads, set_num_threads

__all__ = ["get_num_threads", "set_num_threads", "tokenize"]
__version__ = "0.1.0"
