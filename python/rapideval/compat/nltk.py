"""Drop-in replacements for ``nltk`` 3.10.4: ``word_tokenize``, ``sentence_bleu``, ``corpus_bleu``,
``SmoothingFunction``, ``sentence_gleu``, ``corpus_gleu``, ``meteor_score`` and ``single_meteor_score``
(the METEOR pair is documented in ``rapideval.compat.nltk_meteor``).

Change ``from nltk.translate.bleu_score import sentence_bleu, SmoothingFunction`` to
``from rapideval.compat.nltk import sentence_bleu, SmoothingFunction``: same signatures, same
return values bit for bit, same types (nltk's int ``0`` when no unigram matches, a list for a list
of weight tuples), same ``UserWarning`` for method0 and the same exceptions (``AssertionError`` for
method6 without trigram matches, ``ValueError`` for an empty reference list, ...).

Differences, all raising instead of computing something else:

* ``smoothing_function`` must be ``None`` or a ``methodN`` of a ``SmoothingFunction`` (this module's
  or nltk's own): the smoothing runs inside the Rust kernel, so an arbitrary callable raises
  ``TypeError``. Calling ``SmoothingFunction().methodN(...)`` directly raises ``NotImplementedError``.
* Tokens must be ``str`` (nltk accepts any hashable); a ``str`` where a token list is expected
  stands for its characters, as in nltk.
* Weights are converted with ``float()``; ``epsilon``, ``alpha`` and ``k`` must be ``int`` (64-bit)
  or ``float``, as nltk's arithmetic depends on which.
"""

from __future__ import annotations

import numbers
import operator
import sys
from typing import Any, Sequence

from .. import _core
from ..tokenize import word_tokenize as _word_tokenize
from .nltk_meteor import meteor_score, single_meteor_score

__all__ = [
    "SmoothingFunction",
    "corpus_bleu",
    "corpus_gleu",
    "meteor_score",
    "sentence_bleu",
    "sentence_gleu",
    "single_meteor_score",
    "word_tokenize",
]

_DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
_METHODS = tuple(f"method{i}" for i in range(8))


def word_tokenize(text: str, language: str = "english", preserve_line: bool = False) -> list[str]:
    """``nltk.word_tokenize(text)`` (Punkt english + NLTKWordTokenizer of nltk 3.10.4), bit-exact.

    Only ``language="english"`` and ``preserve_line=False`` are supported."""
    if language != "english" or preserve_line:
        raise ValueError("rapideval's word_tokenize supports language='english', preserve_line=False only")
    return _word_tokenize(text)


class SmoothingFunction:
    """``nltk.translate.bleu_score.SmoothingFunction``: pass ``SmoothingFunction(...).methodN`` as
    ``smoothing_function`` of :func:`sentence_bleu` / :func:`corpus_bleu`; the method runs in Rust
    with this object's ``epsilon`` (method1), ``alpha`` (method6) and ``k`` (methods 4 and 7)."""

    def __init__(self, epsilon: float = 0.1, alpha: int = 5, k: int = 5) -> None:
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k

    def _marker(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            "rapideval's SmoothingFunction methods are markers: pass SmoothingFunction().methodN as "
            "smoothing_function to sentence_bleu / corpus_bleu, which run the smoothing in Rust"
        )

    def method0(self, p_n: Any, *args: Any, **kwargs: Any) -> Any:
        """No smoothing (zero precisions become ``sys.float_info.min``, with a ``UserWarning``)."""
        return self._marker()

    def method1(self, p_n: Any, *args: Any, **kwargs: Any) -> Any:
        """Add ``epsilon`` to zero match counts."""
        return self._marker()

    def method2(self, p_n: Any, *args: Any, **kwargs: Any) -> Any:
        """Add 1 to numerator and denominator of every order above 1 (Lin and Och 2004)."""
        return self._marker()

    def method3(self, p_n: Any, *args: Any, **kwargs: Any) -> Any:
        """NIST geometric smoothing: the k-th zero order gets ``1 / (2**k * denominator)``."""
        return self._marker()

    def method4(self, p_n: Any, *args: Any, **kwargs: Any) -> Any:
        """Chen and Cherry's method 4 (used by promptflow's BLEU evaluator), with ``k``."""
        return self._marker()

    def method5(self, p_n: Any, *args: Any, **kwargs: Any) -> Any:
        """Average of the n-1, n and n+1 gram precisions."""
        return self._marker()

    def method6(self, p_n: Any, *args: Any, **kwargs: Any) -> Any:
        """Interpolation with a prior estimated from the two lower orders, with ``alpha``."""
        return self._marker()

    def method7(self, p_n: Any, *args: Any, **kwargs: Any) -> Any:
        """method4 then method5."""
        return self._marker()


_NO_SMOOTHING = ("method0", 0.1, 5, 5)


def _method_names(cls: type) -> dict[Any, str]:
    return {getattr(cls, name): name for name in _METHODS}


_OWN_METHODS = _method_names(SmoothingFunction)


def _smoothing(smoothing_function: Any) -> tuple[str, Any, Any, Any]:
    """(method name, epsilon, alpha, k) of a ``SmoothingFunction().methodN`` (this module's or
    nltk's); method0 for a falsy value, as nltk."""
    if not smoothing_function:
        return _NO_SMOOTHING
    owner = getattr(smoothing_function, "__self__", None)
    func = getattr(smoothing_function, "__func__", None)
    name = _OWN_METHODS.get(func) if isinstance(owner, SmoothingFunction) else None
    if name is None:
        nltk_class = getattr(sys.modules.get("nltk.translate.bleu_score"), "SmoothingFunction", None)
        if nltk_class is not None and isinstance(owner, nltk_class):
            name = _method_names(nltk_class).get(func)
    if name is None:
        raise TypeError(
            "smoothing_function must be None or SmoothingFunction(...).method0 ... method7 (from "
            f"rapideval.compat.nltk or nltk); got {smoothing_function!r}"
        )
    return (name, owner.epsilon, owner.alpha, owner.k)


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
    method, epsilon, alpha, k = _smoothing(smoothing_function)
    if auto_reweigh:
        hyp_lengths = sum(len(hypothesis) for hypothesis in hypotheses)
        if 0 < hyp_lengths < 4:
            weights = [
                (1 / hyp_lengths,) * hyp_lengths if weight == _DEFAULT_WEIGHTS else weight for weight in weights
            ]
    floats = _DEFAULT_FLOAT_LISTS if weights is _DEFAULT_WEIGHT_LIST else [_floats(w) for w in weights]
    scores = _core.nltk_corpus_bleu(list_of_references, hypotheses, max_order, floats, method, epsilon, alpha, k)
    if scores is None:
        return 0 if len(weights) == 1 else [0] * len(weights)
    return scores[0] if len(weights) == 1 else scores


def sentence_gleu(
    references: Sequence[Sequence[str]], hypothesis: Sequence[str], min_len: int = 1, max_len: int = 4
) -> float:
    """``nltk.translate.gleu_score.sentence_gleu`` of nltk 3.10.4, bit for bit."""
    return corpus_gleu([references], [hypothesis], min_len=min_len, max_len=max_len)


def corpus_gleu(
    list_of_references: Sequence[Sequence[Sequence[str]]],
    hypotheses: Sequence[Sequence[str]],
    min_len: int = 1,
    max_len: int = 4,
) -> float:
    """``nltk.translate.gleu_score.corpus_gleu`` of nltk 3.10.4, bit for bit: per segment the
    reference with the best ``matches / max(hyp grams, ref grams)`` (n-grams of orders ``min_len``
    to ``max_len``) adds its counts; the score is the ratio of the corpus totals."""
    assert len(list_of_references) == len(hypotheses), (
        "The number of hypotheses and their reference(s) should be the same"
    )
    return _core.nltk_corpus_gleu(
        list_of_references,
        hypotheses,
        operator.index(min_len),
        sys.maxsize if max_len is None else operator.index(max_len),
    )
