"""Drop-in for nltk 3.10.4 ``nltk.translate.bleu_score``: ``sentence_bleu``, ``corpus_bleu``,
``SmoothingFunction``, ``modified_precision``, ``closest_ref_length``, ``brevity_penalty`` and the
``Fraction`` class ``modified_precision`` returns.

Change ``from nltk.translate.bleu_score import sentence_bleu, SmoothingFunction`` to
``from rapideval.compat.nltk.translate.bleu_score import sentence_bleu, SmoothingFunction`` (or
``from rapideval.compat.nltk import ...``): same signatures, same return values bit for bit, same
types (nltk's int ``0`` when no unigram matches, a list for a list of weight tuples, an int ``1`` or
``0`` from ``brevity_penalty`` where nltk returns one), same ``UserWarning`` for method0 and the same
exceptions (``AssertionError`` for method6 without trigram matches, ``ValueError`` for an empty
reference list, ...).

``sentence_bleu`` and ``corpus_bleu`` run in the Rust kernel. ``modified_precision``,
``closest_ref_length`` and ``brevity_penalty`` return intermediates the kernel keeps to itself (an
unreduced ``Fraction``, a reference length, the penalty of two given lengths), so they are nltk's
code, line for line, here.

Differences, all raising instead of computing something else:

* ``smoothing_function`` must be ``None`` or a ``methodN`` of a ``SmoothingFunction`` (this module's
  or nltk's own): the smoothing runs inside the Rust kernel, so an arbitrary callable raises
  ``TypeError``. Calling ``SmoothingFunction().methodN(...)`` directly raises ``NotImplementedError``.
* Tokens must be ``str`` for ``sentence_bleu``/``corpus_bleu`` (nltk accepts any hashable); a ``str``
  where a token list is expected stands for its characters, as in nltk.
* Weights are converted with ``float()``; ``epsilon``, ``alpha`` and ``k`` must be ``int`` (64-bit)
  or ``float``, as nltk's arithmetic depends on which.
"""

from __future__ import annotations

import math
import numbers
import sys
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction as _Fraction
from itertools import islice
from typing import Any

from .... import _core
from ....metrics.bleu import SmoothingFunction, smoothing_parameters

__all__ = [
    "Fraction",
    "SmoothingFunction",
    "brevity_penalty",
    "closest_ref_length",
    "corpus_bleu",
    "modified_precision",
    "sentence_bleu",
]

_DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)


class Fraction(_Fraction):
    """nltk's ``Fraction``: a ``fractions.Fraction`` whose ``numerator`` and ``denominator`` stay
    as given (``_normalize=False``), so that ``corpus_bleu`` can add up unreduced counts.

    Its value, equality and hashing are those of the reduced fraction from Python 3.12 on; before
    3.12 the stored fraction itself is unreduced, exactly as in nltk."""

    _normalize: bool
    _original_numerator: Any
    _original_denominator: Any

    def __new__(cls, numerator: Any = 0, denominator: Any = None, _normalize: bool = False) -> Fraction:
        self: Fraction
        if sys.version_info >= (3, 12):
            self = super().__new__(cls, numerator, denominator)
        else:
            self = super().__new__(cls, numerator, denominator, _normalize=_normalize)  # type: ignore[call-overload]
        self._normalize = _normalize
        self._original_numerator = numerator
        self._original_denominator = denominator
        return self

    @property
    def numerator(self) -> Any:
        if not self._normalize:
            return self._original_numerator
        return super().numerator

    @property
    def denominator(self) -> Any:
        if not self._normalize:
            return self._original_denominator
        return super().denominator


def _ngrams(sequence: Iterable[Any], n: int) -> Iterator[tuple[Any, ...]]:
    """``nltk.util.ngrams(sequence, n)`` of nltk 3.10.4 (no padding), its sliding window: the same
    tuples (for ``n == 0``, one empty tuple per item plus one) and the same errors."""
    it = iter(sequence)
    window = deque(islice(it, n), maxlen=n)
    if len(window) == n:
        yield tuple(window)
    for x in it:
        window.append(x)
        yield tuple(window)


def modified_precision(references: Any, hypothesis: Any, n: int) -> Fraction:
    """nltk's ``modified_precision``: the clipped ``n``-gram matches of ``hypothesis`` over its
    ``n``-gram count (at least 1), as an unreduced :class:`Fraction`
    (``Fraction(numerator, denominator, _normalize=False)``); ``float()`` of it is the precision.

    No kernel returns these counts (the BLEU kernel sums them inside), so this is nltk's code."""
    counts = Counter(_ngrams(hypothesis, n)) if len(hypothesis) >= n else Counter()
    max_counts: dict[Any, int] = {}
    for reference in references:
        reference_counts = Counter(_ngrams(reference, n)) if len(reference) >= n else Counter()
        for ngram in counts:
            max_counts[ngram] = max(max_counts.get(ngram, 0), reference_counts[ngram])
    clipped_counts = {ngram: min(count, max_counts[ngram]) for ngram, count in counts.items()}
    numerator = sum(clipped_counts.values())
    denominator = max(1, sum(counts.values()))
    return Fraction(numerator, denominator, _normalize=False)


def closest_ref_length(references: Iterable[Any], hyp_len: Any) -> Any:
    """nltk's ``closest_ref_length``: the length of the reference closest to ``hyp_len`` (the
    shorter one on a tie). An intermediate no kernel returns, so nltk's code."""
    ref_lens = (len(reference) for reference in references)
    return min(ref_lens, key=lambda ref_len: (abs(ref_len - hyp_len), ref_len))


def brevity_penalty(closest_ref_len: Any, hyp_len: Any) -> Any:
    """nltk's ``brevity_penalty``: int ``1`` when ``hyp_len > closest_ref_len``, int ``0`` when
    ``hyp_len == 0``, else ``math.exp(1 - closest_ref_len / hyp_len)``. The kernel computes it for
    its own lengths only, so this is nltk's code, for any lengths (corpus sums included)."""
    if hyp_len > closest_ref_len:
        return 1
    elif hyp_len == 0:
        return 0
    else:
        return math.exp(1 - closest_ref_len / hyp_len)


_DEFAULT_FLOATS = [0.25, 0.25, 0.25, 0.25]
_DEFAULT_WEIGHT_LIST = [_DEFAULT_WEIGHTS]
_DEFAULT_FLOAT_LISTS = [_DEFAULT_FLOATS]


def _floats(weight: Any) -> list[float]:
    if weight is _DEFAULT_WEIGHTS:
        return _DEFAULT_FLOATS
    out = []
    for w in weight:
        if type(w) is not float and not isinstance(w, numbers.Real):
            raise TypeError(f"BLEU weights must be real numbers, got {type(w).__name__}")
        out.append(float(w))
    return out


def sentence_bleu(
    references: Sequence[Sequence[str]],
    hypothesis: Sequence[str],
    weights: Any = _DEFAULT_WEIGHTS,
    smoothing_function: Any = None,
    auto_reweigh: bool = False,
) -> Any:
    """``nltk.translate.bleu_score.sentence_bleu`` of nltk 3.10.4, bit for bit (a float, int ``0``
    when no unigram matches, or a list for a list of weight tuples)."""
    return corpus_bleu([references], [hypothesis], weights, smoothing_function, auto_reweigh)


def corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[str]]],
    hypotheses: Sequence[Sequence[str]],
    weights: Any = _DEFAULT_WEIGHTS,
    smoothing_function: Any = None,
    auto_reweigh: bool = False,
) -> Any:
    """``nltk.translate.bleu_score.corpus_bleu`` of nltk 3.10.4, bit for bit: micro-averaged n-gram
    precisions, smoothing on the corpus counts (methods 4-7 see the corpus hypothesis length and
    the last segment), ``math.fsum`` of the weighted logs, brevity penalty."""
    assert len(list_of_references) == len(hypotheses), (
        "The number of hypotheses and their reference(s) should be the same "
    )
    if weights is _DEFAULT_WEIGHTS:
        weights = _DEFAULT_WEIGHT_LIST
        max_order = 4
    else:
        try:
            weights[0][0]
        except (TypeError, IndexError):
            weights = [weights]
        max_order = max(len(weight) for weight in weights)
    method, epsilon, alpha, k = smoothing_parameters(smoothing_function)
    if auto_reweigh:
        hyp_lengths = sum(len(hypothesis) for hypothesis in hypotheses)
        if 0 < hyp_lengths < 4:
            weights = [(1 / hyp_lengths,) * hyp_lengths if weight == _DEFAULT_WEIGHTS else weight for weight in weights]
    floats = _DEFAULT_FLOAT_LISTS if weights is _DEFAULT_WEIGHT_LIST else [_floats(w) for w in weights]
    smoothing = _core.BleuSmoothing(method, epsilon=epsilon, alpha=alpha, k=k)
    scores = _core.nltk_corpus_bleu(list_of_references, hypotheses, max_order, floats, smoothing)
    if scores is None:
        return 0 if len(weights) == 1 else [0] * len(weights)
    return scores[0] if len(weights) == 1 else scores
