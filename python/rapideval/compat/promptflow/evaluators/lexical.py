"""promptflow-evals 0.3.5's deterministic evaluators: ``BleuScoreEvaluator``, ``GleuScoreEvaluator``,
``MeteorScoreEvaluator``, ``RougeScoreEvaluator`` (with ``RougeType``) and ``F1ScoreEvaluator``, with
promptflow's constructors, call keywords and output dicts, values and types bit for bit.

The scores are :mod:`rapideval.metrics`' (``bleu``, ``gleu``, ``meteor``, ``rouge``, ``f1``), which take
promptflow's tokenisation; this module maps names, arguments and output keys, and restores the int ``0``
promptflow returns where nltk or rouge-score do (BLEU without a matching word, ROUGE-L with an empty side).

Each evaluator also scores a list of rows in one kernel call, ``rapideval_batch(rows)`` (the batch
protocol of :mod:`rapideval.compat.promptflow.evaluate`); ``__call__`` is that on one row.

Bad input raises promptflow's exception type with a message naming the evaluator and the field:
``TypeError`` for a non-``str`` (ROUGE: ``AttributeError``, F1: ``ValueError`` or ``AttributeError``, as
promptflow's checks fail), F1's ``ValueError`` for an empty, blank or ``"None"`` text. Two deliberate
differences: a text holding a lone surrogate (not valid Unicode) raises ``ValueError`` where promptflow
scores it, and ROUGE rejects ``bytes`` (``TypeError``), which rouge-score decodes.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Any

from .... import _core
from ....metrics.bleu import bleu
from ....metrics.f1 import f1
from ....metrics.gleu import gleu
from ....metrics.meteor import meteor
from ....metrics.rouge import rouge, rouge_type_name

__all__ = [
    "BleuScoreEvaluator",
    "F1ScoreEvaluator",
    "GleuScoreEvaluator",
    "MeteorScoreEvaluator",
    "RougeScoreEvaluator",
    "RougeType",
]

Row = dict[str, Any]

_SURROGATE = re.compile("[\ud800-\udfff]")


class _LexicalEvaluator:
    """What the five evaluators share: per-row checks, then one kernel call over the rows that pass.

    ``_fields`` is the order in which promptflow's evaluator reads its two inputs, so that a row bad in
    both fails on the same field as promptflow's."""

    _fields: tuple[str, str] = ("ground_truth", "answer")
    # How BLEU, GLEU and METEOR split texts into words: promptflow-evals 0.3.5's ``nltk_tokenize``
    # (:mod:`rapideval.compat.azure` sets ``"azure"``, azure-ai-evaluation's, which sends non-ASCII to NIST).
    tokenizer: str = "promptflow"

    def _check(self, field: str, value: Any) -> None:
        """Raise what promptflow raises for ``value`` as ``field`` (here: its tokenizer's TypeError)."""
        if not isinstance(value, str):
            raise TypeError(f"{type(self).__name__}: {field} must be a str, got {type(value).__name__}")

    def _scores(self, answers: list[str], truths: list[str]) -> list[Row]:
        """promptflow's output dict for each (answer, ground_truth) pair, from one kernel call."""
        raise NotImplementedError

    def _row_error(self, row: Row) -> Exception | None:
        """The exception promptflow's evaluator raises on ``row``, or None when it scores it."""
        try:
            for field in self._fields:
                self._check(field, row[field])
        except (TypeError, ValueError, AttributeError) as e:
            return e
        for field in self._fields:
            text = row[field]
            if not text.isascii() and _SURROGATE.search(text):
                return ValueError(f"{type(self).__name__}: {field} contains a lone surrogate, which is not valid "
                                  f"Unicode text; rapideval cannot tokenize it")  # fmt: skip
        return None

    def rapideval_batch(self, rows: list[Row]) -> list[Row | Exception]:
        """Every row's output dict, as ``self(**row)`` returns it, or the exception it raises; the rows that
        pass the checks are scored in one call of the Rust kernel. Each row holds ``answer`` and
        ``ground_truth``; other keys are ignored, as ``__call__`` ignores its other keywords."""
        errors = [self._row_error(row) for row in rows]
        good = [row for row, error in zip(rows, errors, strict=True) if error is None]
        scores = iter(self._scores([row["answer"] for row in good], [row["ground_truth"] for row in good]))
        return [next(scores) if error is None else error for error in errors]

    def _one(self, answer: Any, ground_truth: Any) -> Row:
        (result,) = self.rapideval_batch([{"answer": answer, "ground_truth": ground_truth}])
        if isinstance(result, Exception):
            raise result
        return result


def _no_common_token(answers: list[str], truths: list[str], tokenizer: str) -> list[bool]:
    """Whether each answer shares no token with its ground truth: nltk's ``sentence_bleu`` then returns
    int ``0`` (no unigram matches)."""
    answer_tokens = _core.tokenize(answers, tokenizer)
    truth_tokens = _core.tokenize(truths, tokenizer)
    return [set(a).isdisjoint(t) for a, t in zip(answer_tokens, truth_tokens, strict=True)]


class BleuScoreEvaluator(_LexicalEvaluator):
    """promptflow-evals 0.3.5 ``BleuScoreEvaluator()``: ``{"bleu_score": float}`` in [0, 1], nltk's
    ``sentence_bleu([tokens(ground_truth)], tokens(answer))`` with smoothing method4 on promptflow's
    ``nltk_tokenize``; int ``0`` when no answer token occurs in the ground truth, as nltk returns.
    Call: ``evaluator(*, answer: str, ground_truth: str, **kwargs)``."""

    def __call__(self, *, answer: str, ground_truth: str, **kwargs: Any) -> Row:
        return self._one(answer, ground_truth)

    def _scores(self, answers: list[str], truths: list[str]) -> list[Row]:
        values: list[float | int] = bleu(answers, truths, tokenizer=self.tokenizer).tolist()
        zeros = [i for i, v in enumerate(values) if v == 0.0]
        # A float 0.0 with matching words (the brevity penalty underflows) stays a float, as in nltk.
        disjoint = _no_common_token([answers[i] for i in zeros], [truths[i] for i in zeros], self.tokenizer)
        for i, is_int in zip(zeros, disjoint, strict=True):
            if is_int:
                values[i] = 0
        return [{"bleu_score": v} for v in values]


class GleuScoreEvaluator(_LexicalEvaluator):
    """promptflow-evals 0.3.5 ``GleuScoreEvaluator()``: ``{"gleu_score": float}`` in [0, 1], nltk's
    ``sentence_gleu([tokens(ground_truth)], tokens(answer))`` on promptflow's ``nltk_tokenize``.
    Call: ``evaluator(*, ground_truth: str, answer: str, **kwargs)``."""

    def __call__(self, *, ground_truth: str, answer: str, **kwargs: Any) -> Row:
        return self._one(answer, ground_truth)

    def _scores(self, answers: list[str], truths: list[str]) -> list[Row]:
        return [{"gleu_score": v} for v in gleu(answers, truths, tokenizer=self.tokenizer).tolist()]


class MeteorScoreEvaluator(_LexicalEvaluator):
    """promptflow-evals 0.3.5 ``MeteorScoreEvaluator(alpha=0.9, beta=3.0, gamma=0.5)``:
    ``{"meteor_score": float}`` in [0, 1], nltk's ``single_meteor_score(tokens(ground_truth),
    tokens(answer), alpha=alpha, beta=beta, gamma=gamma)`` on promptflow's ``nltk_tokenize`` (Porter
    stems, WordNet 3.0 synonyms). A non-number parameter is a ``TypeError`` here, when promptflow's
    raises at the first call. Call: ``evaluator(*, ground_truth: str, answer: str, **kwargs)``."""

    def __init__(self, alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5) -> None:
        for name, value in (("alpha", alpha), ("beta", beta), ("gamma", gamma)):
            if not isinstance(value, (int, float)):
                raise TypeError(f"MeteorScoreEvaluator: {name} must be a number, got {type(value).__name__}")
        self._alpha = alpha
        self._beta = beta
        self._gamma = gamma

    def __call__(self, *, ground_truth: str, answer: str, **kwargs: Any) -> Row:
        return self._one(answer, ground_truth)

    def _scores(self, answers: list[str], truths: list[str]) -> list[Row]:
        values = meteor(answers, truths, self._alpha, self._beta, self._gamma, tokenizer=self.tokenizer).tolist()
        return [{"meteor_score": v} for v in values]


class RougeType(str, Enum):
    """promptflow-evals 0.3.5 ``RougeType``: the ROUGE (Recall-Oriented Understudy for Gisting Evaluation)
    types ``RougeScoreEvaluator`` offers."""

    ROUGE_1 = "rouge1"
    """Overlap of unigrams (single words) between generated and reference text."""

    ROUGE_2 = "rouge2"
    """Overlap of bigrams (two consecutive words) between generated and reference text."""

    ROUGE_3 = "rouge3"
    """Overlap of trigrams (three consecutive words) between generated and reference text."""

    ROUGE_4 = "rouge4"
    """Overlap of four-grams (four consecutive words) between generated and reference text."""

    ROUGE_5 = "rouge5"
    """Overlap of five-grams (five consecutive words) between generated and reference text."""

    ROUGE_L = "rougeL"
    """Overlap of L-grams (L consecutive words) between generated and reference text."""


class RougeScoreEvaluator(_LexicalEvaluator):
    """promptflow-evals 0.3.5 ``RougeScoreEvaluator(rouge_type)``: ``{"rouge_precision": float,
    "rouge_recall": float, "rouge_f1_score": float}``, each in [0, 1], rouge-score 0.1.2's
    ``RougeScorer([rouge_type]).score(ground_truth, answer)[rouge_type]`` (no stemming; rouge-score's
    tokenizer keeps ``[a-z0-9]`` runs, so non-Latin text scores 0). Int zeros for ROUGE-L/Lsum with a side
    without tokens, as rouge-score returns. ``rouge_type``: a :class:`RougeType`, or any rouge-score type
    (``"rouge1"`` … ``"rouge9"``, ``"rougeL"``, ``"rougeLsum"``); an unknown one is a ``ValueError`` here,
    where promptflow raises it at the first call. Call: ``evaluator(*, ground_truth: str, answer: str,
    **kwargs)``."""

    def __init__(self, rouge_type: RougeType) -> None:
        # A str Enum's str() is its member name on Python 3.11+: the kernel takes its value.
        name = rouge_type.value if isinstance(rouge_type, Enum) else rouge_type
        try:
            self._kernel_type = rouge_type_name(name)
        except ValueError as e:
            raise ValueError(f"RougeScoreEvaluator: {e}; expected a RougeType, or one of rouge1 ... rouge9, "
                             f"rougeL, rougeLsum") from None  # fmt: skip
        self._rouge_type = rouge_type

    def __call__(self, *, ground_truth: str, answer: str, **kwargs: Any) -> Row:
        return self._one(answer, ground_truth)

    def _check(self, field: str, value: Any) -> None:
        # rouge-score lower-cases the text first: AttributeError for what has no ``lower``.
        if not isinstance(value, str):
            error = TypeError if hasattr(value, "lower") else AttributeError
            raise error(f"RougeScoreEvaluator: {field} must be a str, got {type(value).__name__}")

    def _scores(self, answers: list[str], truths: list[str]) -> list[Row]:
        arrays = rouge(answers, truths, [self._kernel_type])[self._kernel_type]
        columns = [arrays.precision.tolist(), arrays.recall.tolist(), arrays.fmeasure.tolist()]
        if self._kernel_type in ("rougeL", "rougeLsum"):
            # rouge-score's LCS scores are int zeros when either side has no token.
            zeros = [i for i, f in enumerate(columns[2]) if f == 0.0]
            answer_tokens = _core.rouge_tokenize([answers[i] for i in zeros])
            truth_tokens = _core.rouge_tokenize([truths[i] for i in zeros])
            for i, a, t in zip(zeros, answer_tokens, truth_tokens, strict=True):
                if not a or not t:
                    for column in columns:
                        column[i] = 0
        return [
            {"rouge_precision": p, "rouge_recall": r, "rouge_f1_score": f} for p, r, f in zip(*columns, strict=True)
        ]


class F1ScoreEvaluator(_LexicalEvaluator):
    """promptflow-evals 0.3.5 ``F1ScoreEvaluator()``: ``{"f1_score": float}`` in [0, 1], the SQuAD token F1
    of the normalised texts (lower-case, no ASCII punctuation, no a/an/the, whitespace tokens). Like
    promptflow's, an answer or ground truth that is empty, blank or ``"None"`` raises ``ValueError``.
    Call: ``evaluator(*, answer: str, ground_truth: str, **kwargs)``."""

    _fields = ("answer", "ground_truth")

    def __call__(self, *, answer: str, ground_truth: str, **kwargs: Any) -> Row:
        return self._one(answer, ground_truth)

    def _check(self, field: str, value: Any) -> None:
        # promptflow tests ``text and text.strip() and text != "None"``: a falsy value is a ValueError, a
        # truthy non-str an AttributeError (no ``strip``) or, as bytes, a TypeError further on.
        if isinstance(value, str) and value.strip() and value != "None":
            return
        if isinstance(value, str) or not value:
            raise ValueError(f"F1ScoreEvaluator: {field} must be a non-empty string (not blank, not 'None'), "
                             f"got {value!r}")  # fmt: skip
        error = TypeError if hasattr(value, "strip") else AttributeError
        raise error(f"F1ScoreEvaluator: {field} must be a str, got {type(value).__name__}")

    def _scores(self, answers: list[str], truths: list[str]) -> list[Row]:
        return [{"f1_score": v} for v in f1(answers, truths).tolist()]
