"""Drop-in for Hugging Face ``evaluate``'s text metrics, offline and without ``datasets``:
``from rapideval.compat import hf_evaluate as evaluate`` then
``evaluate.load("rouge").compute(predictions=[...], references=[...])``.

:func:`load` knows ``bleu``, ``sacrebleu``, ``rouge``, ``meteor``, ``chrf``, ``ter``, ``exact_match`` and
``squad`` (also as ``evaluate-metric/<name>``) and returns an :class:`EvaluationModule` whose
``compute(predictions=, references=, **kwargs)`` returns the dict of the metric script that
``evaluate.load(name)`` runs (evaluate 0.4.6, scripts of the ``evaluate-metric`` spaces): the same keys
in the same order, the same values with the same types (numpy floats where the script returns them,
rouge-score's and sacrebleu's ints), bit for bit. ``name`` is evaluate's too (``chr_f`` for ``chrf``).
``add(prediction=, reference=)`` and ``add_batch(predictions=, references=)`` collect rows for a later
``compute()``, as evaluate's modules do.

Invariants, as in evaluate: ``compute`` runs with numpy's global random generator seeded with the
module's ``seed`` (taken from the generator's state when the module is loaded, unless ``load(...,
seed=)`` sets it) and restores the generator afterwards; only ROUGE's bootstrap (``use_aggregator``)
draws from it, so ROUGE's aggregated values equal evaluate's for the same seed.

The numbers come from rapideval's kernels and drop-ins (each metric's docstring says which, and which
reference the parity tests compare it with). Differences from evaluate, all raising where evaluate
would compute something:

* Inputs are checked before anything is computed: ``TypeError`` / ``ValueError`` naming the argument
  and the row (``references[3][0]``) for a non-``str`` value, a row without references, reference rows
  of both kinds (``str`` and lists) in one call, different numbers of predictions and references, or no
  rows at all (evaluate raises for most of these too, with other messages; ``exact_match`` on no rows
  returns ``nan`` there).
* ``sacrebleu``'s tokenizers are those of :mod:`rapideval.compat.sacrebleu` (``13a``, ``intl``,
  ``char``, ``none``); others raise ``ValueError``.
* ``load`` takes evaluate's arguments, but downloads and caches nothing, so ``cache_dir``,
  ``revision`` and the like have no effect; distributed evaluation (``num_process > 1``) is not
  available. ``add``/``add_batch`` keep the rows in memory.
"""

from __future__ import annotations

import math
import operator
import re
import string
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from .. import _core
from .._inputs import as_list
from ..metrics.f1 import exact_match as _squad_exact_match_rows
from ..metrics.f1 import f1 as _squad_f1_rows
from ..metrics.meteor import meteor as _meteor_rows
from ..metrics.rouge import rouge as _rouge_rows
from ..metrics.sacrebleu import sacrebleu_corpus_bleu
from .rouge_score import rouge_scorer as _rouge_scorer
from .rouge_score import scoring as _rouge_scoring
from .sacrebleu import CHRF, TER
from .sacrebleu import corpus_bleu as _sacrebleu_corpus_bleu

__all__ = ["Bleu", "ChrF", "EvaluationModule", "ExactMatch", "Meteor", "Rouge", "Sacrebleu", "Squad", "Ter", "load"]

Result = dict[str, Any]


# --- the metrics: one function per evaluate script, the script's `_compute` arguments and result


def _bleu(
    predictions: list[str],
    references: list[Any],
    tokenizer: Callable[[str], Sequence[Any]] | None = None,
    max_order: int = 4,
    smooth: bool = False,
) -> Result:
    """The script's ``_compute``; see :class:`Bleu`."""
    rows = _as_rows(references)
    order = operator.index(max_order)
    if order < 1:
        raise ValueError(f"max_order must be at least 1, got {order}")
    if tokenizer is None:
        flat = _core.normalize(predictions + [r for row in rows for r in row], "sacrebleu_13a")
        hyps, ref_rows = _regroup(flat, len(predictions), rows)
        return _nmt_bleu_from_text(hyps, ref_rows, order, smooth)
    hyp_tokens = [list(tokenizer(p)) for p in predictions]
    ref_tokens = [[list(tokenizer(r)) for r in row] for row in rows]
    if all(_plain_tokens(t) for t in hyp_tokens) and all(_plain_tokens(t) for row in ref_tokens for t in row):
        hyps = [" ".join(t) for t in hyp_tokens]
        ref_rows = [[" ".join(t) for t in row] for row in ref_tokens]
        return _nmt_bleu_from_text(hyps, ref_rows, order, smooth)
    return _nmt_bleu_from_tokens(hyp_tokens, ref_tokens, order, smooth)


def _sacrebleu(
    predictions: list[str],
    references: list[Any],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str | None = None,
    use_effective_order: bool = False,
) -> Result:
    """The script's ``_compute``; see :class:`Sacrebleu`."""
    streams = _streams(_as_rows(references), "Sacrebleu requires the same number of references for each prediction")
    extra = {"tokenize": tokenize} if tokenize else {}
    output = _sacrebleu_corpus_bleu(
        predictions,
        streams,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        force=force,
        lowercase=lowercase,
        use_effective_order=use_effective_order,
        **extra,
    )
    return {
        "score": output.score,
        "counts": output.counts,
        "totals": output.totals,
        "precisions": output.precisions,
        "bp": output.bp,
        "sys_len": output.sys_len,
        "ref_len": output.ref_len,
    }


class _CallableTokenizer:
    """The script's wrapper: rouge-score wants an object with ``tokenize(text)``."""

    def __init__(self, func: Callable[[str], Any]) -> None:
        self.tokenizer_func = func

    def tokenize(self, text: str) -> Any:
        return self.tokenizer_func(text)


def _rouge(
    predictions: list[str],
    references: list[Any],
    rouge_types: Sequence[str] | None = None,
    use_aggregator: bool = True,
    use_stemmer: bool = False,
    tokenizer: Callable[[str], Any] | None = None,
) -> Result:
    """The script's ``_compute``; see :class:`Rouge`."""
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"] if rouge_types is None else list(rouge_types)
    multi = isinstance(references[0], list)
    if use_aggregator and tokenizer is None:
        arrays = _rouge_rows(predictions, references, types, use_stemmer)
        keys = list(dict.fromkeys(types))
        columns = {t: list(zip(*(a.tolist() for a in arrays[t]), strict=True)) for t in keys}
        aggregator = _rouge_scoring.BootstrapAggregator()
        for i in range(len(predictions)):
            aggregator.add_scores({t: _rouge_scoring.Score(*columns[t][i]) for t in keys})
        return {key: value.mid.fmeasure for key, value in aggregator.aggregate().items()}
    scorer = _rouge_scorer.RougeScorer(
        rouge_types=types,
        use_stemmer=use_stemmer,
        tokenizer=None if tokenizer is None else _CallableTokenizer(tokenizer),
    )
    score = scorer.score_multi if multi else scorer.score
    scores = [score(ref, pred) for ref, pred in zip(references, predictions, strict=False)]
    if use_aggregator:
        aggregator = _rouge_scoring.BootstrapAggregator()
        for s in scores:
            aggregator.add_scores(s)
        return {key: value.mid.fmeasure for key, value in aggregator.aggregate().items()}
    return {key: [s[key].fmeasure for s in scores] for key in scores[0]}


def _meteor(
    predictions: list[str],
    references: list[Any],
    alpha: float = 0.9,
    beta: float = 3,
    gamma: float = 0.5,
) -> Result:
    """The script's ``_compute``; see :class:`Meteor`."""
    scores = _meteor_rows(predictions, references, alpha, beta, gamma, tokenizer="word")
    return {"meteor": np.mean(scores)}


def _chrf(
    predictions: list[str],
    references: list[Any],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> Result:
    """The script's ``_compute``; see :class:`ChrF`."""
    streams = _streams(
        _as_rows(references),
        "ChrF, as implemented by sacrebleu, requires the same number of references for each prediction",
    )
    metric = CHRF(
        char_order=char_order,
        word_order=word_order,
        beta=beta,
        lowercase=lowercase,
        whitespace=whitespace,
        eps_smoothing=eps_smoothing,
    )
    output = metric.corpus_score(predictions, streams)
    return {"score": output.score, "char_order": output.char_order, "word_order": output.word_order,
            "beta": output.beta}  # fmt: skip


def _ter(
    predictions: list[str],
    references: list[Any],
    normalized: bool = False,
    ignore_punct: bool = False,
    support_zh_ja_chars: bool = False,
    case_sensitive: bool = False,
) -> Result:
    """The script's ``_compute``; see :class:`Ter`."""
    streams = _streams(_as_rows(references), "Sacrebleu requires the same number of references for each prediction")
    metric = TER(
        normalized=normalized,
        no_punct=ignore_punct,
        asian_support=support_zh_ja_chars,
        case_sensitive=case_sensitive,
    )
    output = metric.corpus_score(predictions, streams)
    return {"score": output.score, "num_edits": output.num_edits, "ref_length": output.ref_length}


def _exact_match(
    predictions: list[str],
    references: list[str],
    regexes_to_ignore: Sequence[str] | None = None,
    ignore_case: bool = False,
    ignore_punctuation: bool = False,
    ignore_numbers: bool = False,
) -> Result:
    """The script's ``_compute``; see :class:`ExactMatch`."""
    preds: Any = predictions
    refs: Any = references
    if regexes_to_ignore is not None:
        for s in regexes_to_ignore:
            preds = np.array([re.sub(s, "", x) for x in preds])
            refs = np.array([re.sub(s, "", x) for x in refs])
    else:
        preds = np.asarray(preds)
        refs = np.asarray(refs)
    if ignore_case:
        preds = np.char.lower(preds)
        refs = np.char.lower(refs)
    if ignore_punctuation:
        table: Any = string.punctuation.maketrans("", "", string.punctuation)
        preds = np.char.translate(preds, table=table)
        refs = np.char.translate(refs, table=table)
    if ignore_numbers:
        table = string.digits.maketrans("", "", string.digits)
        preds = np.char.translate(preds, table=table)
        refs = np.char.translate(refs, table=table)
    return {"exact_match": np.mean(preds == refs)}


def _squad(predictions: list[dict[str, Any]], references: list[dict[str, Any]]) -> Result:
    """The script's ``_compute``; see :class:`Squad`."""
    texts: dict[Any, str] = {}
    for i, p in enumerate(predictions):
        texts[_field(p, "id", f"predictions[{i}]")] = _field(p, "prediction_text", f"predictions[{i}]")
    answers = [_squad_answers(r, f"references[{i}]") for i, r in enumerate(references)]
    responses: list[str] = []
    rows: list[list[str]] = []
    for i, (ref, gold) in enumerate(zip(references, answers, strict=False)):
        qid = _field(ref, "id", f"references[{i}]")
        if qid not in texts:
            print("Unanswered question " + qid + " will receive score 0.", file=sys.stderr)
            continue
        if not gold:
            raise ValueError(f"references[{i}]: the question has no answer text")
        responses.append(_kernel_text(texts[qid]))
        rows.append([_kernel_text(t) for t in gold])
    exact = 0
    f1: float = 0
    if responses:
        exact = int(np.count_nonzero(_squad_exact_match_rows(responses, rows)))
        for value in _squad_f1_rows(responses, rows).tolist():
            f1 += value
    total = len(references)
    return {"exact_match": 100.0 * exact / total, "f1": 100.0 * f1 / total}


# --- the tensorflow/nmt BLEU formula


def _nmt_bleu_from_text(hyps: list[str], ref_rows: list[list[str]], order: int, smooth: bool) -> Result:
    """``compute_bleu`` on texts whose tokens are their space-separated words: the clipped n-gram
    counts from the sacrebleu kernel (tokenizer ``none``), the lengths counted here."""
    stats = sacrebleu_corpus_bleu(hyps, ref_rows, tokenize="none", max_ngram_order=order)
    translation_length = sum(_word_count(h) for h in hyps)
    reference_length = sum(min(_word_count(r) for r in row) for row in ref_rows)
    matches = [int(c) for c in stats.counts]
    possible = [int(t) for t in stats.totals]
    return _nmt_bleu(matches, possible, translation_length, reference_length, order, smooth)


def _nmt_bleu_from_tokens(hyps: list[list[Any]], ref_rows: list[list[list[Any]]], order: int, smooth: bool) -> Result:
    """``compute_bleu`` on token lists of any hashable tokens, counted in Python."""
    matches = [0] * order
    possible = [0] * order
    reference_length = translation_length = 0
    for refs, hyp in zip(ref_rows, hyps, strict=False):
        reference_length += min(len(r) for r in refs)
        translation_length += len(hyp)
        ref_counts: Counter[tuple[Any, ...]] = Counter()
        for r in refs:
            ref_counts |= _ngram_counts(r, order)
        for ngram, count in (_ngram_counts(hyp, order) & ref_counts).items():
            matches[len(ngram) - 1] += count
        for n in range(1, order + 1):
            possible[n - 1] += max(0, len(hyp) - n + 1)
    return _nmt_bleu(matches, possible, translation_length, reference_length, order, smooth)


def _ngram_counts(tokens: list[Any], order: int) -> Counter[tuple[Any, ...]]:
    counts: Counter[tuple[Any, ...]] = Counter()
    for n in range(1, order + 1):
        for i in range(len(tokens) - n + 1):
            counts[tuple(tokens[i : i + n])] += 1
    return counts


def _nmt_bleu(
    matches: list[int], possible: list[int], translation_length: int, reference_length: int, order: int, smooth: bool
) -> Result:
    """The end of tensorflow/nmt's ``compute_bleu``, with its operations, order and types."""
    precisions = [0.0] * order
    for i in range(order):
        if smooth:
            precisions[i] = (matches[i] + 1.0) / (possible[i] + 1.0)
        elif possible[i] > 0:
            precisions[i] = float(matches[i]) / possible[i]
    geo_mean: float = 0
    if min(precisions) > 0:
        # The script's generator through Python's sum(), whose float summation depends on the
        # Python version: the same expression gives the same sum.
        geo_mean = math.exp(sum((1.0 / order) * math.log(p) for p in precisions))
    if reference_length == 0 or translation_length == 0:
        ratio = bp = 0.0
    else:
        ratio = float(translation_length) / reference_length
        bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return {
        "bleu": geo_mean * bp,
        "precisions": precisions,
        "brevity_penalty": bp,
        "length_ratio": ratio,
        "translation_length": translation_length,
        "reference_length": reference_length,
    }


def _word_count(text: str) -> int:
    """Tokens of a text whose tokens are joined by single spaces."""
    return text.count(" ") + 1 if text else 0


def _plain_tokens(tokens: list[Any]) -> bool:
    """Tokens that survive ``" ".join`` then ``str.split()`` unchanged."""
    return all(isinstance(t, str) and t.split() == [t] for t in tokens)


def _regroup(flat: list[str], n: int, rows: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    out = []
    k = n
    for row in rows:
        out.append(flat[k : k + len(row)])
        k += len(row)
    return flat[:n], out


# --- shared input handling


def _as_rows(references: list[Any]) -> list[list[str]]:
    """The scripts' ``if isinstance(references[0], str): references = [[ref] for ref in references]``."""
    if isinstance(references[0], str):
        return [[r] for r in references]
    return references


def _streams(rows: list[list[str]], message: str) -> list[list[str]]:
    """Rows of references to sacrebleu's streams, as the scripts build them."""
    count = len(rows[0])
    if any(len(row) != count for row in rows):
        raise ValueError(message)
    return [[row[i] for row in rows] for i in range(count)]


def _kernel_text(text: str) -> str:
    """A text the SQuAD kernels accept that normalises as ``text`` does (see :func:`squad`)."""
    if not text.strip():
        return "."
    return "none" if text == "None" else text


def _field(row: Any, key: str, where: str) -> str:
    if not isinstance(row, dict):
        raise TypeError(f"{where}: expected a dict, got {type(row).__name__}")
    if key not in row:
        raise ValueError(f"{where}: missing key {key!r}")
    value = row[key]
    if not isinstance(value, str):
        raise TypeError(f"{where}[{key!r}]: expected str, got {type(value).__name__}")
    return value


def _squad_answers(row: Any, where: str) -> list[str]:
    """The answer texts of a SQuAD reference, ``row["answers"]["text"]``."""
    if not isinstance(row, dict):
        raise TypeError(f"{where}: expected a dict, got {type(row).__name__}")
    if "answers" not in row:
        raise ValueError(f"{where}: missing key 'answers'")
    answers = row["answers"]
    where = f"{where}['answers']"
    if not isinstance(answers, dict):
        raise TypeError(f"{where}: expected a dict with a list 'text', got {type(answers).__name__}")
    if "text" not in answers:
        raise ValueError(f"{where}: missing key 'text'")
    texts = answers["text"]
    where = f"{where}['text']"
    if isinstance(texts, str) or not isinstance(texts, (list, tuple)):
        raise TypeError(f"{where}: expected a list of str, got {type(texts).__name__}")
    for j, t in enumerate(texts):
        if not isinstance(t, str):
            raise TypeError(f"{where}[{j}]: expected str, got {type(t).__name__}")
    return list(texts)


def _check_texts(values: list[Any], name: str) -> None:
    for i, v in enumerate(values):
        if not isinstance(v, str):
            raise TypeError(f"{name}[{i}]: expected str, got {type(v).__name__}")


def _check_text_rows(predictions: list[Any], references: list[Any]) -> tuple[list[str], list[Any]]:
    """Predictions ``str``; references all ``str``, or all lists of ``str`` (tuples and other
    sequences become lists), each list non-empty, as the first row decides."""
    _check_texts(predictions, "predictions")
    if isinstance(references[0], str):
        _check_texts(references, "references")
        return predictions, references
    rows = []
    for i, row in enumerate(references):
        if isinstance(row, str):
            raise TypeError(
                f"references[{i}]: a str, but references[0] is a list of references: give every row the same kind"
            )
        if not isinstance(row, list):
            row = as_list(row, f"references[{i}]")
        if not row:
            raise ValueError(f"references[{i}]: an empty list; every prediction needs at least one reference")
        _check_texts(row, f"references[{i}]")
        rows.append(row)
    return predictions, rows


def _check_strings(predictions: list[Any], references: list[Any]) -> tuple[list[str], list[Any]]:
    _check_texts(predictions, "predictions")
    _check_texts(references, "references")
    return predictions, references


def _check_nothing(predictions: list[Any], references: list[Any]) -> tuple[list[Any], list[Any]]:
    return predictions, references  # squad checks its dicts itself


@contextmanager
def _temp_seed(seed: Any) -> Iterator[None]:
    """evaluate's ``temp_seed`` (from ``datasets``): numpy's global generator seeded, then restored."""
    state = np.random.get_state()
    np.random.seed(seed)
    try:
        yield
    finally:
        np.random.set_state(state)


# --- the module objects


class EvaluationModule:
    """One loaded metric, as evaluate's ``EvaluationModule``: ``name``, ``module_type``, ``seed``,
    ``inputs_description`` (the metric's documentation), ``compute``, ``add``, ``add_batch`` and
    ``len()`` (rows added and not yet computed). :func:`load` returns one of its subclasses, which
    document their metric."""

    name = ""
    module_type = "metric"

    def __init__(self, seed: int | None = None) -> None:
        self.inputs_description = type(self).__doc__
        if seed is None:
            # evaluate's choice: a word of the generator's current state, read without drawing.
            state: Any = np.random.get_state()
            _, keys, pos, *_ = state
            seed = keys[pos] if pos < 624 else keys[0]
        self.seed = seed
        self._predictions: list[Any] = []
        self._references: list[Any] = []

    def add_batch(self, *, predictions: Any = None, references: Any = None) -> None:
        """Keep ``predictions`` and ``references`` (columns of equal length) for the next ``compute()``."""
        if predictions is None or references is None:
            missing = "predictions" if predictions is None else "references"
            raise ValueError(f"{missing} is missing: give both predictions and references")
        preds = as_list(predictions, "predictions")
        refs = as_list(references, "references")
        if len(preds) != len(refs):
            raise ValueError(f"Mismatch in the number of predictions ({len(preds)}) and references ({len(refs)})")
        self._predictions.extend(preds)
        self._references.extend(refs)

    def add(self, *, prediction: Any = None, reference: Any = None) -> None:
        """Keep one ``prediction`` and its ``reference`` for the next ``compute()``."""
        if prediction is None or reference is None:
            missing = "prediction" if prediction is None else "reference"
            raise ValueError(f"{missing} is missing: give both prediction and reference")
        self._predictions.append(prediction)
        self._references.append(reference)

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> Result:
        """The metric over the rows added so far plus ``predictions`` / ``references``. Keyword
        arguments are the metric's options (see the class documentation); an unknown one raises
        ``TypeError``, as in evaluate. The added rows are used up, even when the computation raises."""
        if predictions is not None or references is not None:
            self.add_batch(predictions=predictions, references=references)
        preds, refs = self._predictions, self._references
        self._predictions, self._references = [], []
        if not preds:
            raise ValueError(f"{self.name}: no predictions and references to compute on")
        preds, refs = self._check(preds, refs)
        with _temp_seed(self.seed):
            return self._compute(preds, refs, **kwargs)

    def _check(self, predictions: list[Any], references: list[Any]) -> tuple[list[Any], list[Any]]:
        """Validated (predictions, references) in the form ``_compute`` takes."""
        return _check_text_rows(predictions, references)

    def _compute(self, predictions: list[Any], references: list[Any], **kwargs: Any) -> Result:
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self._predictions)

    def __repr__(self) -> str:
        return f'EvaluationModule(name: "{self.name}", module_type: "metric", stored examples: {len(self)})'


class Bleu(EvaluationModule):
    """evaluate's ``bleu``: the corpus BLEU of tensorflow/nmt's ``compute_bleu`` (0-1 scale) on the
    tokens of the script's ``tokenizer_13a`` (sacrebleu's 13a, without sacrebleu's ``rstrip``), or of
    ``tokenizer`` (any callable from a ``str`` to a list of tokens).

    Returns ``bleu``, ``precisions`` (one per order), ``brevity_penalty``, ``length_ratio``,
    ``translation_length`` and ``reference_length``. This BLEU is neither nltk's nor sacrebleu's: the
    reference length is the *shortest* reference of each segment, ``smooth=True`` adds 1 to the
    matches and possible matches of every order (Lin and Och 2004), and the geometric mean is 0 when
    any order has no match. No kernel computes that formula, so it is here: the matched and possible
    n-gram counts (integers, the same clipping as sacrebleu's) come from rapideval's sacrebleu kernel
    on the 13a tokens (also Rust), and the few float operations are the script's, in its order.
    A ``tokenizer`` whose tokens are not ``str`` without whitespace is counted in Python.

    Parity test: the script's ``tokenizer_13a`` and ``compute_bleu`` (copied from the metric script
    into tests/hf_evaluate_reference.py), every value bit for bit.
    """

    name = "bleu"

    def _compute(self, predictions: list[Any], references: list[Any], **kwargs: Any) -> Result:
        return _bleu(predictions, references, **kwargs)


class Sacrebleu(EvaluationModule):
    """evaluate's ``sacrebleu``: ``sacrebleu.corpus_bleu`` (2.6.0, 0-100 scale) of the predictions
    against reference streams built from the rows (every row must have the same number of
    references), computed by :func:`rapideval.compat.sacrebleu.corpus_bleu`.

    Returns ``score``, ``counts``, ``totals``, ``precisions``, ``bp``, ``sys_len``, ``ref_len`` with
    sacrebleu's types. ``tokenize=None`` (or ``""``) is sacrebleu's default ``13a``.

    Parity test: sacrebleu 2.6.0 ``corpus_bleu`` called as the script calls it, every value bit for bit.
    """

    name = "sacrebleu"

    def _compute(self, predictions: list[Any], references: list[Any], **kwargs: Any) -> Result:
        return _sacrebleu(predictions, references, **kwargs)


class Rouge(EvaluationModule):
    """evaluate's ``rouge``: rouge-score 0.1.2 ``RougeScorer(rouge_types, use_stemmer,
    tokenizer).score(reference, prediction)`` per row (``score_multi`` when the rows are lists of
    references), then per type the F-measure: with ``use_aggregator`` the ``mid`` of rouge-score's
    ``BootstrapAggregator()`` (1000 resamples drawn from numpy's global generator, which ``compute``
    seeds; a numpy float), else the list of per-row F-measures (rouge-score's int ``0`` included).

    ``rouge_types`` defaults to ``rouge1``, ``rouge2``, ``rougeL``, ``rougeLsum``. The scores come from
    :func:`rapideval.metrics.rouge.rouge` (all rows at once, in parallel) when aggregating with the
    default tokenizer, else from :mod:`rapideval.compat.rouge_score` row by row (its exact types); the
    bootstrap is :class:`rapideval.compat.rouge_score.scoring.BootstrapAggregator` (rouge-score's
    random stream, so the same resamples).

    Parity test: rouge-score 0.1.2's ``RougeScorer`` and ``BootstrapAggregator`` run as the script
    runs them, under the same seed; every value bit for bit.
    """

    name = "rouge"

    def _compute(self, predictions: list[Any], references: list[Any], **kwargs: Any) -> Result:
        return _rouge(predictions, references, **kwargs)


class Meteor(EvaluationModule):
    """evaluate's ``meteor``: the mean (``np.mean``, a numpy float) over the rows of nltk 3.10.4's
    ``single_meteor_score(word_tokenize(reference), word_tokenize(prediction), alpha, beta, gamma)``,
    or ``meteor_score`` (the best over the references) when the rows are lists of references.

    Computed by :func:`rapideval.metrics.meteor.meteor` with ``tokenizer="word"`` (nltk's
    ``word_tokenize``, Porter stemmer and WordNet 3.0 in Rust, all rows in parallel); the per-row
    scores are those of :func:`rapideval.compat.nltk.meteor_score` bit for bit, and the mean is the
    script's ``np.mean``.

    Parity test: nltk 3.10.4 ``word_tokenize`` and ``meteor_score`` / ``single_meteor_score`` run as
    the script runs them, the mean bit for bit.
    """

    name = "meteor"

    def _compute(self, predictions: list[Any], references: list[Any], **kwargs: Any) -> Result:
        return _meteor(predictions, references, **kwargs)


class ChrF(EvaluationModule):
    """evaluate's ``chrf``: sacrebleu 2.6.0 ``CHRF(char_order, word_order, beta, lowercase,
    whitespace, eps_smoothing).corpus_score(predictions, streams)`` (0-100 scale; every row must have
    the same number of references; ``word_order=2`` is chrF++), computed by
    :class:`rapideval.compat.sacrebleu.CHRF`.

    Returns ``score``, ``char_order``, ``word_order``, ``beta`` (as given).

    Parity test: sacrebleu 2.6.0 ``CHRF`` called as the script calls it, bit for bit.
    """

    name = "chr_f"  # evaluate's name: the snake case of the script's class name

    def _compute(self, predictions: list[Any], references: list[Any], **kwargs: Any) -> Result:
        return _chrf(predictions, references, **kwargs)


class Ter(EvaluationModule):
    """evaluate's ``ter``: sacrebleu 2.6.0 ``TER(normalized, no_punct=ignore_punct,
    asian_support=support_zh_ja_chars, case_sensitive).corpus_score(predictions, streams)`` (0-100
    scale; every row must have the same number of references), computed by
    :class:`rapideval.compat.sacrebleu.TER`.

    Returns ``score``, ``num_edits`` (int), ``ref_length`` (float).

    Parity test: sacrebleu 2.6.0 ``TER`` called as the script calls it, bit for bit.
    """

    name = "ter"

    def _compute(self, predictions: list[Any], references: list[Any], **kwargs: Any) -> Result:
        return _ter(predictions, references, **kwargs)


class ExactMatch(EvaluationModule):
    """evaluate's ``exact_match``: the share of rows whose prediction equals its reference after
    removing every match of each of ``regexes_to_ignore`` (``re.sub``, in order), then lower-casing,
    then deleting ``string.punctuation`` and ``string.digits``, as enabled. A numpy float.

    The script compares numpy fixed-width unicode arrays, and so does this function, with the
    script's numpy operations in its order: numpy's semantics are part of the result (trailing
    ``"\\x00"`` characters are dropped when strings enter an array; ``np.char.lower`` keeps the array's
    width, so a string that grows when lower-cased, such as one with ``İ``, is cut). No kernel has
    those semantics, and the operations are vectorised already. Also as the script: an empty
    ``regexes_to_ignore`` (not ``None``) without the other options compares the two lists as wholes
    (1.0 when every row matches, else 0.0).

    This is the script evaluate has published since 2022 (``score_list = predictions == references``).

    Parity test: the script's operations (numpy, ``re``, ``string``) run on the same inputs, and the
    examples of its documentation.
    """

    name = "exact_match"

    def _compute(self, predictions: list[Any], references: list[Any], **kwargs: Any) -> Result:
        return _exact_match(predictions, references, **kwargs)

    def _check(self, predictions: list[Any], references: list[Any]) -> tuple[list[Any], list[Any]]:
        return _check_strings(predictions, references)


class Squad(EvaluationModule):
    """evaluate's ``squad``: the official SQuAD v1.1 evaluation (``compute_score``) on
    ``predictions = [{"id", "prediction_text"}]`` and ``references = [{"id", "answers": {"text": [...],
    "answer_start": [...]}}]`` (other keys are not read): per reference question the best exact
    match and the best token F1 over its answers of the prediction with its id (the last one given;
    a question without a prediction scores 0 and is reported on stderr, as there), summed in
    question order; ``exact_match`` and ``f1`` are percentages (0-100).

    Both come from rapideval's SQuAD kernels (:func:`rapideval.metrics.f1.f1` and
    :func:`rapideval.metrics.f1.exact_match`): SQuAD's ``normalize_answer`` and ``f1_score`` are
    promptflow's normalisation and F1 exactly, except that promptflow rejects an empty, blank or
    ``"None"`` text, which SQuAD scores. Such a text is passed to the kernels as one that normalises
    to the same string (``"."`` for a blank one, ``"none"`` for ``"None"``), so every row goes through
    the kernels. The F1 total is summed left to right, as the script's loop.

    Parity test: the official script's ``normalize_answer``, ``f1_score``, ``exact_match_score`` and
    ``compute_score`` (tests/hf_evaluate_reference.py), run on the dataset the script builds; bit for bit.
    """

    name = "squad"

    def _compute(self, predictions: list[Any], references: list[Any], **kwargs: Any) -> Result:
        return _squad(predictions, references, **kwargs)

    def _check(self, predictions: list[Any], references: list[Any]) -> tuple[list[Any], list[Any]]:
        return _check_nothing(predictions, references)


_MODULES: dict[str, type[EvaluationModule]] = {
    "bleu": Bleu,
    "sacrebleu": Sacrebleu,
    "rouge": Rouge,
    "meteor": Meteor,
    "chrf": ChrF,
    "ter": Ter,
    "exact_match": ExactMatch,
    "squad": Squad,
}


def load(
    path: str,
    config_name: str | None = None,
    module_type: str | None = None,
    process_id: int = 0,
    num_process: int = 1,
    cache_dir: str | None = None,
    experiment_id: str | None = None,
    keep_in_memory: bool = False,
    download_config: Any = None,
    download_mode: Any = None,
    revision: Any = None,
    *,
    seed: int | None = None,
) -> EvaluationModule:
    """``evaluate.load(path)`` for ``bleu``, ``sacrebleu``, ``rouge``, ``meteor``, ``chrf``, ``ter``,
    ``exact_match`` and ``squad`` (``path`` may carry evaluate's ``evaluate-metric/`` prefix).
    ``seed`` fixes the seed ``compute`` gives numpy's generator (only ROUGE's bootstrap uses it); by
    default it is read from the generator's state, as evaluate does. The other arguments are
    evaluate's and change nothing here (nothing is downloaded or cached), except that only a single
    process (``process_id=0``, ``num_process=1``) and ``module_type`` ``None`` or ``"metric"`` are
    supported. An unknown name raises ``ValueError``."""
    if not isinstance(path, str):
        raise TypeError(f"path: expected str, got {type(path).__name__}")
    if module_type not in (None, "metric"):
        raise ValueError(f"module_type {module_type!r}: rapideval provides metrics only")
    if process_id != 0 or num_process != 1:
        raise NotImplementedError("distributed evaluation (num_process > 1) is not available in rapideval")
    name = path[len("evaluate-metric/") :] if path.startswith("evaluate-metric/") else path
    if name not in _MODULES:
        raise ValueError(f"unknown metric {path!r}; rapideval.compat.hf_evaluate provides {', '.join(_MODULES)}")
    return _MODULES[name](seed=seed)
