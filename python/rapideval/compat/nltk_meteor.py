"""The METEOR drop-in under its earlier name: ``rapideval.compat.nltk_meteor`` is
:mod:`rapideval.compat.nltk.translate.meteor_score` (nltk's module path), re-exported unchanged."""

from __future__ import annotations

from .nltk.translate.meteor_score import (
    align_words,
    exact_match,
    meteor_score,
    single_meteor_score,
    stem_match,
    wordnetsyn_match,
)

__all__ = ["align_words", "exact_match", "meteor_score", "single_meteor_score", "stem_match", "wordnetsyn_match"]
