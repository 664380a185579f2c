"""rouge-score 0.1.2 ``rouge_scorer.RougeScorer``: ``score(target, prediction)`` and
``score_multi(targets, prediction)`` return ``{rouge_type: Score(precision, recall, fmeasure)}`` with
the reference's values bit for bit, including its int ``0`` results (ROUGE-L/Lsum with an empty side).

A tokenizer object passed as ``tokenizer=`` is called from Python exactly as rouge-score calls it and
its tokens are scored in Rust; rouge-score's own ``DefaultTokenizer`` and ours run entirely in Rust.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from ... import _core
from . import scoring, tokenizers

__all__ = ["RougeScorer"]

_NGRAM_TYPE = re.compile(r"rouge[0-9]$")


def _canonical(rouge_type: Any) -> str:
    """The name the Rust scorer takes, or rouge-score's ValueError for an unknown type."""
    if rouge_type == "rougeL" or rouge_type == "rougeLsum":
        return str(rouge_type)
    if isinstance(rouge_type, str) and _NGRAM_TYPE.match(rouge_type):
        n = int(rouge_type[5:])
        if n <= 0:
            raise ValueError("rougen requires positive n: %s" % rouge_type)
        return f"rouge{n}"
    raise ValueError("Invalid rouge type: %s" % rouge_type)


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

    def __init__(self, rouge_types: Iterable[Any], use_stemmer: bool = False, split_summaries: bool = False,
                 tokenizer: Any = None) -> None:
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
        names = [_canonical(t) for t in types]
        values = _core.rouge_score_multi(targets, prediction, names, use_stemmer, bool(self._split_summaries), kind)
        return {t: _score(v) for t, v in zip(types, values)}

    def _scores_custom(self, targets: list[str], prediction: str, types: list[Any]) -> dict[Any, scoring.Score]:
        """A user tokenizer: tokens from Python, scores from Rust on interned token ids."""
        per_target = []
        for target in targets:
            lsum_only = len(types) == 1 and types[0] == "rougeLsum"
            ids: dict[Any, int] = {}

            def intern(tokens: Iterable[Any]) -> list[int]:
                return [ids.setdefault(t, len(ids)) for t in tokens]

            def sentences(text: str) -> list[list[int]]:
                sents = _core.sent_tokenize([text])[0] if self._split_summaries else text.split("\n")
                return [intern(self._tokenizer.tokenize(s)) for s in sents if len(s)]

            t_ids = [] if lsum_only else intern(self._tokenizer.tokenize(target))
            p_ids = [] if lsum_only else intern(self._tokenizer.tokenize(prediction))
            names = [_canonical(t) for t in types]
            lsum = "rougeLsum" in names
            t_sents = sentences(target) if lsum else []
            p_sents = sentences(prediction) if lsum else []
            values = _core.rouge_score_ids(t_ids, p_ids, t_sents, p_sents, names)
            per_target.append({t: _score(v) for t, v in zip(types, values)})
        best = dict(per_target[0])
        for scores in per_target[1:]:
            for t in types:
                if scores[t].fmeasure > best[t].fmeasure:
                    best[t] = scores[t]
        return best
