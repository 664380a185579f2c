"""Sentence BLEU per row: by default promptflow-evals 0.3.5 ``BleuScoreEvaluator``, i.e. nltk 3.10.4
``sentence_bleu([nltk_tokenize(ground_truth)], nltk_tokenize(answer),
smoothing_function=SmoothingFunction().method4)``, bit for bit."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import _core
from .._inputs import score_rows

__all__ = ["SmoothingFunction", "bleu", "smoothing_parameters"]

_METHODS = tuple(f"method{i}" for i in range(8))


def bleu(
    responses: Any,
    references: Any,
    *,
    tokenizer: str | None = "promptflow",
    smoothing: Any = "method4",
    weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
    auto_reweigh: bool = False,
) -> np.ndarray:
    """nltk 3.10.4 ``sentence_bleu`` of each response against its reference(s), after tokenizing
    both with ``tokenizer`` (default ``promptflow``: promptflow-evals 0.3.5 ``nltk_tokenize``).

    With the defaults this equals promptflow-evals 0.3.5 ``BleuScoreEvaluator()(answer=response,
    ground_truth=reference)["bleu_score"]`` bit for bit (nltk's int ``0`` becomes ``0.0``).

    ``references``: one ``str`` per row, or a list of ``str`` per row (several references).

    ``tokenizer=None`` scores pre-tokenised input, as ``nltk.translate.bleu_score.sentence_bleu``
    per row: each response is a list (or tuple) of ``str`` tokens; each reference row is either
    one token list (its first item is a ``str``; ``[]`` is one empty reference) or a list of token
    lists (its first item is a list or tuple: several references).
    ``smoothing``: ``"method0"`` … ``"method7"`` with nltk's default parameters, or
    ``rapideval.compat.nltk.SmoothingFunction(epsilon, alpha, k).methodN``. method0 does not warn
    here. ``auto_reweigh`` applies to weights equal to ``(0.25, 0.25, 0.25, 0.25)``.
    Columns may be lists, tuples, numpy or pyarrow arrays. Runs on all cores with the GIL released
    (with ``tokenizer=None`` the token lists are first read on all cores while the GIL is held, so no
    Python code can change them meanwhile); the result does not depend on the thread count. Returns a
    float64 array, one score per row.
    Raises ``ValueError`` naming the row where nltk raises (an empty reference list, method6
    without trigram matches) and ``TypeError`` for a non-``str`` value.
    """
    if isinstance(smoothing, str):
        method, epsilon, alpha, k = smoothing, 0.1, 5, 5
    else:
        method, epsilon, alpha, k = smoothing_parameters(smoothing)
    settings = _core.BleuSettings(
        weights=[float(w) for w in weights],
        smoothing=_core.BleuSmoothing(method, epsilon=epsilon, alpha=alpha, k=k),
        auto_reweigh=bool(auto_reweigh),
    )
    if tokenizer is None:
        return score_rows(_core.bleu_tokens, responses, references, settings)
    return score_rows(_core.bleu_batch, responses, references, tokenizer, settings)


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


def smoothing_parameters(smoothing_function: Any) -> tuple[str, Any, Any, Any]:
    """(method name, epsilon, alpha, k) of a ``SmoothingFunction().methodN`` (rapideval's or nltk's);
    method0 for a falsy value, as nltk 3.10.4 ``sentence_bleu``."""
    if not smoothing_function:
        return _NO_SMOOTHING
    owner = getattr(smoothing_function, "__self__", None)
    func = getattr(smoothing_function, "__func__", None)
    name = _OWN_METHODS.get(func) if isinstance(owner, SmoothingFunction) else None
    if name is None:
        nltk_class = getattr(sys.modules.get("nltk.translate.bleu_score"), "SmoothingFunction", None)
        if nltk_class is not None and isinstance(owner, nltk_class):
            name = _method_names(nltk_class).get(func)
    if name is None or owner is None:
        raise TypeError(
            "smoothing_function must be None or SmoothingFunction(...).method0 ... method7 (from "
            f"rapideval.compat.nltk or nltk); got {smoothing_function!r}"
        )
    return (name, owner.epsilon, owner.alpha, owner.k)
