"""rouge-score 0.1.2 ``rouge_scorer``: ``RougeScorer``, whose ``score(target, prediction)`` and
``score_multi(targets, prediction)`` return ``{rouge_type: Score(precision, recall, fmeasure)}`` with
the reference's values bit for bit, including its int ``0`` results (ROUGE-L/Lsum with an empty side);
and the module's helpers, same values and types: ``_score_lcs``, ``_summary_level_lcs`` and
``_score_ngrams`` (scored by the Rust kernel), ``_create_ngrams``, ``_lcs_table``,
``_backtrack_norec``, ``lcs_ind``, ``_union_lcs`` and ``_find_union`` (intermediates the kernel never
returns, so rouge-score's code here).

A tokenizer object passed as ``tokenizer=`` is called from Python exactly as rouge-score calls it and
its tokens are scored in Rust; rouge-score's own ``DefaultTokenizer`` and ours run entirely in Rust.
Tokens given to the helpers must be hashable (they are numbered for the kernel); rouge-score only
compares them with ``==``.
"""

from __future__ import annotations

import collections
import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ... import _core
from ...metrics.rouge import rouge_type_name
from . import scoring, tokenizers

__all__ = ["RougeScorer", "lcs_ind"]


def _score(values: tuple[float, float, float, bool]) -> scoring.Score:
    precision, recall, fmeasure, int_zero = values
    if int_zero:
        return scoring.Score(precision=0, recall=0, fmeasure=0)
    return scoring.Score(precision=precision, recall=recall, fmeasure=fmeasure)


def _rust_settings(tokenizer: Any) -> tuple[bool, str] | None:
    """(use_stemmer, kind) when ``tokenizer`` is a default tokenizer the Rust code reproduces."""
    if isinstance(tokenizer, tokenizers.DefaultTokenizer):
        return tokenizer._use_stemmer, tokenizer._kind
    cls = type(tokenizer)
    if cls.__module__ == "rouge_score.tokenizers" and cls.__name__ == "DefaultTokenizer":
        return getattr(tokenizer, "_stemmer", None) is not None, "default"
    return None


class RougeScorer(scoring.BaseScorer):
    """Computes ROUGE scores between a target (reference) and a prediction, as rouge-score 0.1.2.

    ``rouge_types``: ``rouge1`` … ``rouge9``, ``rougeL``, ``rougeLsum`` (checked when scoring, as the
    reference does). ``use_stemmer``: nltk Porter stemming of tokens longer than 3 characters.
    ``split_summaries``: ROUGE-Lsum sentences from ``nltk.sent_tokenize`` (Punkt, ported) instead of
    newlines. ``tokenizer``: any object with ``tokenize(text)``; by default rouge-score's tokenizer.
    """

    def __init__(
        self,
        rouge_types: Iterable[Any],
        use_stemmer: bool = False,
        split_summaries: bool = False,
        tokenizer: Any = None,
    ) -> None:
        self.rouge_types = rouge_types
        self._tokenizer = tokenizer if tokenizer else tokenizers.DefaultTokenizer(use_stemmer)
        self._split_summaries = split_summaries

    def score(self, target: str, prediction: str) -> dict[Any, scoring.Score]:
        """``{rouge_type: Score}`` of ``prediction`` against ``target``."""
        return self._scores([target], prediction)

    def score_multi(self, targets: Iterable[str], prediction: str) -> dict[Any, scoring.Score]:
        """Per type, the score against the first of ``targets`` with the largest F-measure."""
        targets = list(targets)
        if not targets and list(self.rouge_types):
            raise ValueError("attempt to get argmax of an empty sequence")
        if not targets:
            return {}
        return self._scores(targets, prediction)

    def _scores(self, targets: list[str], prediction: str) -> dict[Any, scoring.Score]:
        types = list(self.rouge_types)
        settings = _rust_settings(self._tokenizer)
        if settings is None:
            return self._scores_custom(targets, prediction, types)
        use_stemmer, kind = settings
        names = [rouge_type_name(t) for t in types]
        values = _core.rouge_score_multi(targets, prediction, names, use_stemmer, bool(self._split_summaries), kind)
        return {t: _score(v) for t, v in zip(types, values, strict=True)}

    def _scores_custom(self, targets: list[str], prediction: str, types: list[Any]) -> dict[Any, scoring.Score]:
        """A user tokenizer: tokens from Python, scores from Rust on interned token ids."""
        per_target = []
        for target in targets:
            lsum_only = len(types) == 1 and types[0] == "rougeLsum"
            ids: dict[Any, int] = {}

            def intern(tokens: Iterable[Any], ids: dict[Any, int] = ids) -> list[int]:
                return [ids.setdefault(t, len(ids)) for t in tokens]

            def sentences(text: str) -> list[list[int]]:
                sents = _core.sent_tokenize([text])[0] if self._split_summaries else text.split("\n")
                return [intern(self._tokenizer.tokenize(s)) for s in sents if len(s)]

            t_ids = [] if lsum_only else intern(self._tokenizer.tokenize(target))
            p_ids = [] if lsum_only else intern(self._tokenizer.tokenize(prediction))
            names = [rouge_type_name(t) for t in types]
            lsum = "rougeLsum" in names
            t_sents = sentences(target) if lsum else []
            p_sents = sentences(prediction) if lsum else []
            values = _core.rouge_score_ids(t_ids, p_ids, t_sents, p_sents, names)
            per_target.append({t: _score(v) for t, v in zip(types, values, strict=True)})
        best = dict(per_target[0])
        for scores in per_target[1:]:
            for t in types:
                if scores[t].fmeasure > best[t].fmeasure:
                    best[t] = scores[t]
        return best


# ---------------------------------------------------------------- rouge-score's module helpers


class _Ids(dict[Any, int]):
    """Numbers hashable tokens 0, 1, 2, ... in order of first sight, for the id-based kernel."""

    def of(self, tokens: Iterable[Any]) -> list[int]:
        return [self.setdefault(t, len(self)) for t in tokens]


def _create_ngrams(tokens: Sequence[Any], n: int) -> collections.Counter[tuple[Any, ...]]:
    """rouge-score's ``_create_ngrams``: a ``Counter`` of the ``n``-gram tuples of ``tokens``.
    The kernel counts n-grams without returning them, so this is rouge-score's code."""
    ngrams: collections.Counter[tuple[Any, ...]] = collections.Counter()
    for ngram in (tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)):
        ngrams[ngram] += 1
    return ngrams


def _score_ngrams(target_ngrams: Mapping[Any, int], prediction_ngrams: Mapping[Any, int]) -> scoring.Score:
    """rouge-score's ``_score_ngrams``: the clipped n-gram overlap over each side's n-gram count (at
    least 1), by the Rust ROUGE-N kernel: each distinct n-gram becomes one token id, repeated as
    often as it is counted, and ROUGE-1 of those ids is ROUGE-N of the counts.

    The counts must be non-negative ints (what :func:`_create_ngrams` makes); other values raise
    ``TypeError``/``ValueError`` where rouge-score would compute with them."""
    ids = _Ids()

    def expand(counts: Mapping[Any, int], name: str) -> list[int]:
        out: list[int] = []
        for ngram, count in counts.items():
            count = operator.index(count)
            if count < 0:
                raise ValueError(f"{name}: n-gram counts must not be negative, got {count} for {ngram!r}")
            out.extend([ids.setdefault(ngram, len(ids))] * count)
        return out

    target, prediction = expand(target_ngrams, "target_ngrams"), expand(prediction_ngrams, "prediction_ngrams")
    return _score(_core.rouge_score_ids(target, prediction, [], [], ["rouge1"])[0])


def _score_lcs(target_tokens: Sequence[Any], prediction_tokens: Sequence[Any]) -> scoring.Score:
    """rouge-score's ``_score_lcs``: ROUGE-L of two token lists (int zeros when one is empty), by
    the Rust kernel."""
    ids = _Ids()
    target = ids.of(target_tokens) if target_tokens else []
    prediction = ids.of(prediction_tokens) if prediction_tokens else []
    return _score(_core.rouge_score_ids(target, prediction, [], [], ["rougeL"])[0])


def _summary_level_lcs(ref_sent: Sequence[Sequence[Any]], can_sent: Sequence[Sequence[Any]]) -> scoring.Score:
    """rouge-score's ``_summary_level_lcs``: ROUGE-Lsum of two lists of tokenized sentences (int
    zeros when a side has no sentence or no token), by the Rust kernel."""
    ids = _Ids()
    refs = [ids.of(s) for s in ref_sent] if ref_sent else []
    cans = [ids.of(s) for s in can_sent] if can_sent else []
    return _score(_core.rouge_score_ids([], [], refs, cans, ["rougeLsum"])[0])


def _lcs_table(ref: Sequence[Any], can: Sequence[Any]) -> list[list[int]]:
    """rouge-score's ``_lcs_table``: the (len(ref)+1) x (len(can)+1) table of LCS lengths of
    prefixes. The kernel keeps its (bit-parallel) table to itself, so this is rouge-score's code."""
    rows = len(ref)
    cols = len(can)
    lcs_table = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(1, rows + 1):
        for j in range(1, cols + 1):
            if ref[i - 1] == can[j - 1]:
                lcs_table[i][j] = lcs_table[i - 1][j - 1] + 1
            else:
                lcs_table[i][j] = max(lcs_table[i - 1][j], lcs_table[i][j - 1])
    return lcs_table


def _backtrack_norec(t: Sequence[Sequence[int]], ref: Sequence[Any], can: Sequence[Any]) -> list[int]:
    """rouge-score's ``_backtrack_norec``: the indices into ``ref`` of one LCS, read from table
    ``t`` (rouge-score's code: it reads a table the caller passes)."""
    i = len(ref)
    j = len(can)
    lcs: list[int] = []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            lcs.insert(0, i - 1)
            i -= 1
            j -= 1
        elif t[i][j - 1] > t[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return lcs


def lcs_ind(ref: Sequence[Any], can: Sequence[Any]) -> list[int]:
    """rouge-score's ``lcs_ind``: the indices into ``ref`` of the LCS ROUGE-Lsum uses."""
    t = _lcs_table(ref, can)
    return _backtrack_norec(t, ref, can)


def _find_union(lcs_list: Iterable[Iterable[int]]) -> list[int]:
    """rouge-score's ``_find_union``: the sorted union of index lists."""
    return sorted(set().union(*lcs_list))


def _union_lcs(ref: Sequence[Any], c_list: Iterable[Sequence[Any]]) -> list[Any]:
    """rouge-score's ``_union_lcs``: the tokens of ``ref`` on its LCS with some candidate sentence
    of ``c_list``, in ``ref`` order. The kernel marks these positions without returning them, so this
    is rouge-score's code."""
    lcs_list = [lcs_ind(ref, c) for c in c_list]
    return [ref[i] for i in _find_union(lcs_list)]
