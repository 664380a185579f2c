"""Drop-in for rouge-score 0.1.2: ``from rapideval.compat.rouge_score import rouge_scorer, scoring``
instead of ``from rouge_score import rouge_scorer, scoring``; same classes, same numbers, bit for bit.
The modules ``tokenize`` and ``tokenizers`` are rouge-score's too."""

from . import rouge_scorer, scoring, tokenize, tokenizers

__all__ = ["rouge_scorer", "scoring", "tokenize", "tokenizers"]
