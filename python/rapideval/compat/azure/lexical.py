"""azure-ai-evaluation 1.18.10's deterministic evaluators: ``BleuScoreEvaluator``, ``GleuScoreEvaluator``,
``MeteorScoreEvaluator``, ``RougeScoreEvaluator`` (with ``RougeType``) and ``F1ScoreEvaluator``, with azure's
constructors (``threshold=``), call keywords (``response``, ``ground_truth``) and result keys.

azure computes these as promptflow-evals 0.3.5 does (nltk on ``nltk_tokenize``, rouge-score, the SQuAD F1)
but for one rule: its ``nltk_tokenize`` sends any non-ASCII text to NIST's international tokenizer, where
promptflow's keeps Latin-1 text (accents) with ``word_tokenize``. The scores are those of
:mod:`rapideval.compat.promptflow.evaluators.lexical` (on :mod:`rapideval.metrics`) with azure's rule, which
this module calls; it adds azure's keys and pass/fail rule only. azure's METEOR calls nltk's
``meteor_score([reference], hypothesis)``, the maximum of ``single_meteor_score`` over the one reference:
the same value. A missing ``response`` or ``ground_truth`` (None) raises azure's
:class:`~rapideval.compat.azure._exceptions.EvaluationException` (``"<Evaluator>: Either 'conversation' or
individual inputs must be provided."``, also a ``ValueError``); other bad input raises as the promptflow
evaluators do (``TypeError`` for a non-``str``; F1's ``ValueError`` for an empty, blank or ``"None"`` text,
which azure scores 0.0 or as the word "none")."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..promptflow.evaluators import lexical as _pf
from ..promptflow.evaluators.lexical import RougeType
from ._exceptions import ErrorTarget, evaluation_error
from ._schema import passed, verdict

__all__ = [
    "BleuScoreEvaluator",
    "F1ScoreEvaluator",
    "GleuScoreEvaluator",
    "MeteorScoreEvaluator",
    "RougeScoreEvaluator",
    "RougeType",
]

Row = dict[str, Any]


class _Lexical:
    """A promptflow evaluator (``_pf``) under azure's keywords; ``_KEY`` is azure's result key, ``_PF_KEY``
    promptflow's output key of the score."""

    _KEY: ClassVar[str]
    _PF_KEY: ClassVar[str]
    _pf: Any
    _threshold: float
    _higher_is_better = True

    def _output(self, score: float) -> Row:
        ok = passed(score, self._threshold, self._higher_is_better)
        k = self._KEY
        return {k: score, f"{k}_score": score, f"{k}_passed": ok, f"{k}_result": verdict(ok), f"{k}_reason": None,
                f"{k}_status": "completed", f"{k}_threshold": self._threshold, f"{k}_properties": None}  # fmt: skip

    def rapideval_batch(self, rows: Sequence[Mapping[str, Any]]) -> list[Row | Exception]:
        """Every row's result (rows hold ``response`` and ``ground_truth``) in one kernel call, or the
        exception its call raises."""
        return self._batch(rows, lambda o: self._output(o[self._PF_KEY]))

    def _batch(self, rows: Sequence[Mapping[str, Any]], output: Any) -> list[Row | Exception]:
        """The promptflow evaluator's results of the rows that have both inputs, as ``output`` makes them;
        azure's missing-input error for the others."""
        out: list[Row | Exception] = [self._missing() for _ in rows]
        given = [i for i, r in enumerate(rows) if r.get("response") is not None and r.get("ground_truth") is not None]
        pf_rows = [{"answer": rows[i]["response"], "ground_truth": rows[i]["ground_truth"]} for i in given]
        for i, o in zip(given, self._pf.rapideval_batch(pf_rows) if pf_rows else [], strict=True):
            out[i] = o if isinstance(o, Exception) else output(o)
        return out

    def _missing(self) -> Exception:
        """azure's error for a call without ``response`` or ``ground_truth`` (``EvaluatorBase``'s)."""
        return evaluation_error(ValueError, f"{type(self).__name__}: Either 'conversation' or individual inputs "
                                f"must be provided.", target=ErrorTarget.CONVERSATION)  # fmt: skip

    def __call__(self, *, response: str | None = None, ground_truth: str | None = None, **kwargs: Any) -> Row:
        (result,) = self.rapideval_batch([{"response": response, "ground_truth": ground_truth}])
        if isinstance(result, Exception):
            raise result
        return result


def _azure_words(evaluator: Any) -> Any:
    """A promptflow evaluator that splits words as azure's ``nltk_tokenize`` does: ``word_tokenize`` for ASCII
    text, NIST's international tokenizer for any other (promptflow sends Latin-1 text to ``word_tokenize``)."""
    evaluator.tokenizer = "azure"
    return evaluator


class BleuScoreEvaluator(_Lexical):
    """azure-ai-evaluation 1.18.10 ``BleuScoreEvaluator(*, threshold=0.5)``: scale 0-1, higher is better
    (pass when ``bleu >= threshold``); promptflow's BLEU (nltk ``sentence_bleu``, smoothing method4), int ``0``
    where nltk returns it. Keys ``bleu``, ``bleu_score``, ``bleu_passed``, ``bleu_result``, ``bleu_reason``
    (None), ``bleu_status`` ("completed"), ``bleu_threshold``, ``bleu_properties`` (None). No judge calls.
    Call: ``evaluator(*, response: str, ground_truth: str)``."""

    _KEY, _PF_KEY = "bleu", "bleu_score"

    def __init__(self, *, threshold: float = 0.5) -> None:
        self._threshold = threshold
        self._pf = _azure_words(_pf.BleuScoreEvaluator())


class GleuScoreEvaluator(_Lexical):
    """azure-ai-evaluation 1.18.10 ``GleuScoreEvaluator(*, threshold=0.5)``: scale 0-1, higher is better;
    nltk ``sentence_gleu`` as promptflow's. Keys ``gleu``, ``gleu_score``, ``gleu_passed``, ``gleu_result``,
    ``gleu_reason``, ``gleu_status``, ``gleu_threshold``, ``gleu_properties``. No judge calls.
    Call: ``evaluator(*, response: str, ground_truth: str)``."""

    _KEY, _PF_KEY = "gleu", "gleu_score"

    def __init__(self, *, threshold: float = 0.5) -> None:
        self._threshold = threshold
        self._pf = _azure_words(_pf.GleuScoreEvaluator())


class MeteorScoreEvaluator(_Lexical):
    """azure-ai-evaluation 1.18.10 ``MeteorScoreEvaluator(alpha=0.9, beta=3.0, gamma=0.5, *, threshold=0.5)``:
    scale 0-1, higher is better; nltk's METEOR (Porter stems, WordNet synonyms) as promptflow's (azure's
    ``meteor_score([ref], hyp)`` equals ``single_meteor_score(ref, hyp)``). Keys ``meteor``, ``meteor_score``,
    ``meteor_passed``, ``meteor_result``, ``meteor_reason``, ``meteor_status``, ``meteor_threshold``,
    ``meteor_properties``. No judge calls. Call: ``evaluator(*, response: str, ground_truth: str)``."""

    _KEY, _PF_KEY = "meteor", "meteor_score"

    def __init__(self, alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5, *, threshold: float = 0.5) -> None:
        self._threshold = threshold
        self._pf = _azure_words(_pf.MeteorScoreEvaluator(alpha, beta, gamma))


class F1ScoreEvaluator(_Lexical):
    """azure-ai-evaluation 1.18.10 ``F1ScoreEvaluator(*, threshold=0.5)``: scale 0-1, higher is better; the
    SQuAD token F1 as promptflow's. Keys ``f1_score``, ``f1_score_score``, ``f1_score_passed``,
    ``f1_score_result``, ``f1_score_reason``, ``f1_score_status``, ``f1_score_threshold``,
    ``f1_score_properties``. No judge calls. Call: ``evaluator(*, response: str, ground_truth: str)``."""

    _KEY, _PF_KEY = "f1_score", "f1_score"

    def __init__(self, *, threshold: float = 0.5) -> None:
        self._threshold = threshold
        self._pf = _pf.F1ScoreEvaluator()


class RougeScoreEvaluator(_Lexical):
    """azure-ai-evaluation 1.18.10 ``RougeScoreEvaluator(rouge_type, *, precision_threshold=0.5,
    recall_threshold=0.5, f1_score_threshold=0.5)`` (each threshold a float, else azure's
    ``EvaluationException``, also a ``TypeError``; ``_threshold`` holds the three by part): scale 0-1,
    higher is better; rouge-score's precision, recall and F-measure as promptflow's, as floats. Keys
    ``rouge`` and ``rouge_score`` (the F1), ``rouge_passed``/``rouge_result`` (the F1's), ``rouge_reason``
    (None), ``rouge_status``, ``rouge_threshold`` (the F1's), and ``rouge_properties`` = ``{rouge_precision,
    rouge_recall, rouge_f1_score, rouge_<p>_result, rouge_<p>_passed, rouge_<p>_threshold}`` for the three.
    No judge calls. Call: ``evaluator(*, response: str, ground_truth: str)``."""

    _PF_KEY = "rouge_f1_score"
    _PARTS = ("precision", "recall", "f1_score")

    def __init__(
        self,
        rouge_type: RougeType,
        *,
        precision_threshold: float = 0.5,
        recall_threshold: float = 0.5,
        f1_score_threshold: float = 0.5,
    ) -> None:
        thresholds = (precision_threshold, recall_threshold, f1_score_threshold)
        for part, value in zip(self._PARTS, thresholds, strict=True):
            if not isinstance(value, float):
                raise evaluation_error(TypeError, f"{part}_threshold must be a float, got {type(value)}",
                                       target=ErrorTarget.ROUGE_EVALUATOR)  # fmt: skip
        self._pf = _pf.RougeScoreEvaluator(rouge_type)
        self._threshold: dict[str, float] = dict(zip(self._PARTS, thresholds, strict=True))  # type: ignore[assignment]

    def rapideval_batch(self, rows: Sequence[Mapping[str, Any]]) -> list[Row | Exception]:
        return self._batch(rows, self._rouge)

    def _rouge(self, scores: Row) -> Row:
        values = {p: float(scores[f"rouge_{p}"]) for p in self._PARTS}
        ok = {p: not math.isnan(v) and passed(v, self._threshold[p], True) for p, v in values.items()}
        properties: Row = {f"rouge_{p}": values[p] for p in self._PARTS}
        properties.update({f"rouge_{p}_result": verdict(ok[p]) for p in self._PARTS})
        properties.update({f"rouge_{p}_passed": ok[p] for p in self._PARTS})
        properties.update({f"rouge_{p}_threshold": self._threshold[p] for p in self._PARTS})
        f1 = values["f1_score"]
        return {"rouge": f1, "rouge_score": f1, "rouge_passed": ok["f1_score"], "rouge_result": verdict(ok["f1_score"]),
                "rouge_reason": None, "rouge_status": "completed", "rouge_threshold": self._threshold["f1_score"],
                "rouge_properties": properties}  # fmt: skip
