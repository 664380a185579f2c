"""METEOR per row: promptflow-evals 0.3.5 ``MeteorScoreEvaluator``, i.e. nltk 3.10.4
``single_meteor_score(nltk_tokenize(ground_truth), nltk_tokenize(answer), alpha, beta, gamma)`` with
the Porter stemmer and WordNet 3.0 (shipped inside rapideval), bit for bit."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _core
from .._inputs import score_rows

__all__ = ["forget_words", "meteor", "wordnet_license", "wordnet_synonyms"]


def meteor(
    responses: Any,
    references: Any,
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
    *,
    tokenizer: str = "promptflow",
) -> np.ndarray:
    """nltk 3.10.4 METEOR of each response against its reference(s), after tokenizing both with
    ``tokenizer`` (default ``promptflow``: promptflow-evals 0.3.5 ``nltk_tokenize``).

    With the defaults this equals promptflow-evals 0.3.5 ``MeteorScoreEvaluator(alpha, beta,
    gamma)(answer=response, ground_truth=reference)["meteor_score"]`` bit for bit. With several
    references per row it is nltk's ``meteor_score`` (the best of them).

    ``references``: one ``str`` per row, or a list of ``str`` per row. Columns may be lists, tuples,
    numpy or pyarrow arrays. Runs on all cores with the GIL released; the result does not depend on
    the thread count. The WordNet table is loaded on the first call (tens of milliseconds). Each
    thread remembers the lower-case form, Porter stem and WordNet synonyms of the words it met, from
    call to call (up to 2**18 words, about 20 MB per thread; see ``forget_words``), so words seen
    before cost less. Returns a float64 array, one score per row. Raises ``ValueError`` naming the
    row for a row without references, ``TypeError`` for a non-``str`` value.
    """
    settings = _core.MeteorSettings(alpha=float(alpha), beta=float(beta), gamma=float(gamma))
    return score_rows(_core.meteor, responses, references, settings, tokenizer)


def forget_words() -> None:
    """Makes METEOR (``meteor`` and the nltk drop-ins) forget the words it learnt: each thread
    frees that memory when it next scores. Scores never depend on what is remembered."""
    _core.meteor_forget_words()


def wordnet_synonyms(word: str) -> list[str]:
    """The lemma names without ``_`` of every synset of nltk's ``wordnet.synsets(word)`` (WordNet
    3.0, all parts of speech, morphy with the exception lists), sorted: the synonyms METEOR's third
    stage matches (it looks up Porter stems, not words)."""
    return _core.wordnet_synonyms([word])[0]


def wordnet_license() -> str:
    """The WordNet 3.0 licence, which covers the synonym table shipped with rapideval."""
    return _core.wordnet_license()
