"""``sacrebleu.metrics.base`` of sacrebleu 2.6.0: ``Score`` (with its bootstrap confidence interval),
``Signature`` and ``Metric`` (argument checks, reference streams, segment statistics, sentence and
corpus scores, ``corpus_score(..., n_bootstrap=N)``).

Invariants: a metric's score of a corpus or a sentence is one kernel call (rapideval._core) over all
its segments. Its per-segment statistics (``_extract_corpus_statistics``) come from the same kernel,
one segment at a time, in sacrebleu's layout and with sacrebleu's Python types, so that
``_aggregate_and_compute`` of them equals the corpus score bit for bit. Scores of statistics that
sacrebleu builds itself (bootstrap resamples summed in float32 numpy, approximate-randomisation
shuffles in int64/float64 numpy) come from each metric's ``_compute_score_from_stats``, which repeats
sacrebleu's operations one for one: the same operations on the same numpy scalars are the only way to
its last bits (NumPy's scalar promotion makes some of them float32).
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ....metrics.sacrebleu import SACREBLEU_VERSION
from .._helpers import sum_of_lists

__all__ = ["Metric", "Score", "Signature"]

Streams = Sequence[Sequence[str | None]]
Rows = list[list[str]]


class Score:
    """sacrebleu 2.6.0 ``Score``: ``name``, ``score``, and ``format()`` / ``str()`` as sacrebleu prints
    them, with ``μ = mean ± ci`` once :meth:`estimate_ci` has run (``corpus_score(...,
    n_bootstrap=N)``)."""

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        self._mean: Any = -1.0
        self._ci: Any = -1.0
        self._verbose = ""

    def format(self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False) -> str:
        """``Score.format`` of sacrebleu 2.6.0 (``score_only`` keeps the confidence interval, as there)."""
        d: dict[str, Any] = {"name": self.name, "score": float(f"{self.score:.{width}f}"), "signature": signature}
        sc = f"{self.score:.{width}f}"
        if self._mean > 0:
            confidence_mean = f"{self._mean:.{width}f}"
            confidence_var = f"{self._ci:.{width}f}"
            confidence_str = f"μ = {confidence_mean} ± {confidence_var}"
            sc += f" ({confidence_str})"
            if is_json:
                d["confidence_mean"] = float(confidence_mean)
                d["confidence_var"] = float(confidence_var)
                d["confidence"] = confidence_str
        full_score = f"{self.name}|{signature}" if signature else self.name
        full_score = f"{full_score} = {sc}"
        if self._verbose:
            full_score += f" {self._verbose}"
            d["verbose_score"] = self._verbose
        if score_only:
            return sc
        if is_json:
            for param in signature.split("|"):
                key, value = param.split(":")
                d[key] = value
            return json.dumps(d, indent=1, ensure_ascii=False)
        return full_score

    def estimate_ci(self, scores: Sequence[Score]) -> None:
        """``Score.estimate_ci`` of sacrebleu 2.6.0: stores ``statistics.mean`` of the scores and half the
        width of their 95% interval (sorted scores ``n // 40`` and ``n - n // 40 - 1``)."""
        raw_scores = sorted([x.score for x in scores])
        n = len(raw_scores)
        lower_idx = n // 40
        upper_idx = n - lower_idx - 1
        lower, upper = raw_scores[lower_idx], raw_scores[upper_idx]
        self._ci = 0.5 * (upper - lower)
        self._mean = statistics.mean(raw_scores)

    def __repr__(self) -> str:
        return self.format()


class Signature:
    """sacrebleu 2.6.0 ``Signature``: built from a metric's attributes (``metric.__dict__``) once the
    metric has seen references; ``info``, ``update(key, value)``, ``format(short=False)`` and
    ``str()``. The metric's own fields are those of rapideval's signature functions
    (:mod:`rapideval.metrics.sacrebleu`, ``chrf``, ``ter``), stored as the strings they print."""

    def __init__(self, args: dict[str, Any]) -> None:
        self._abbr = {
            "version": "v",
            "nrefs": "#",
            "test": "t",
            "lang": "l",
            "subset": "S",
            "origlang": "o",
            "bs": "bs",
            "ar": "ar",
            "seed": "rs",
        }
        if "num_refs" not in args:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        num_refs = args["num_refs"]
        if num_refs == -1:
            num_refs = "var"
        self.info: dict[str, Any] = {
            "version": SACREBLEU_VERSION,
            "nrefs": num_refs,
            "bs": args.get("n_bootstrap"),
            "ar": None,
            "seed": args.get("seed"),
            "test": args.get("test_set"),
            "lang": args.get("langpair"),
            "origlang": args.get("origlang"),
            "subset": args.get("subset"),
        }

    def _add_fields(self, render: Callable[[bool], str]) -> None:
        """Adds the metric's fields: those between ``nrefs`` and ``version`` in ``render(short)``."""
        for long_field, short_field in zip(render(False).split("|")[1:-1], render(True).split("|")[1:-1], strict=True):
            name, value = long_field.split(":", 1)
            self._abbr[name] = short_field.split(":", 1)[0]
            self.info[name] = value

    def format(self, short: bool = False) -> str:
        """``Signature.format`` of sacrebleu 2.6.0: ``name:value`` pairs joined by ``|``, ``None`` values
        left out, booleans as ``yes``/``no``, ``version`` last."""
        pairs = []
        keys = list(self.info.keys())
        keys.remove("version")
        for name in [*keys, "version"]:
            value = self.info[name]
            if value is not None:
                if isinstance(value, bool):
                    value = "yes" if value else "no"
                final_name = self._abbr[name] if short else name
                pairs.append(f"{final_name}:{value}")
        return "|".join(pairs)

    def update(self, key: str, value: Any) -> None:
        """Adds an item or replaces one (``PairedTest`` adds ``seed``, ``bs`` and ``ar``)."""
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()


class Metric:
    """sacrebleu 2.6.0 ``Metric``: argument checks, reference streams (cached when given to the
    constructor), ``sentence_score``, ``corpus_score`` (with ``n_bootstrap``), ``get_signature`` and
    the statistics methods that ``significance.PairedTest`` calls (``_extract_corpus_statistics``,
    ``_aggregate_and_compute``, ``_compute_score_from_stats``)."""

    _SIGNATURE_TYPE: type[Signature] = Signature

    def __init__(self) -> None:
        # Reference rows (None dropped), not sacrebleu's n-gram cache: the kernels read the strings.
        self._ref_cache: Rows | None = None
        self._force = True
        self.n_bootstrap: int | None = None
        self.seed: str | None = None

    # --- what each metric provides
    def _score(self, hypotheses: list[str], rows: Rows) -> Any:
        """The score of a corpus: one kernel call."""
        raise NotImplementedError

    def _segment_statistics(self, hypotheses: list[str], rows: Rows) -> list[list[Any]]:
        """sacrebleu's statistics of each segment, from the kernel."""
        raise NotImplementedError

    def _compute_score_from_stats(self, stats: Any) -> Any:
        """The score of already summed statistics, as sacrebleu computes it."""
        raise NotImplementedError

    # --- sacrebleu's methods
    def _aggregate_and_compute(self, stats: Any) -> Any:
        """``_aggregate_and_compute`` of sacrebleu 2.6.0: the score of the segment statistics summed
        with ``sum_of_lists``."""
        return self._compute_score_from_stats(sum_of_lists(stats))

    def _cache_references(self, references: Streams) -> Rows:
        """Streams to rows, ``None`` dropped; sets ``num_refs`` (-1 when it varies) as sacrebleu does."""
        lengths = {len(stream) for stream in references}
        if len(lengths) > 1:
            raise ValueError(f"reference streams have different lengths: {sorted(lengths)}")
        rows = [[r for r in segment if r is not None] for segment in zip(*references, strict=False)]
        sizes = {len(row) for row in rows}
        self.num_refs = sizes.pop() if len(sizes) == 1 else -1
        return rows

    def _rows(self, references: Streams | None) -> Rows:
        if references:
            return self._cache_references(references)
        if self._ref_cache:
            return self._ref_cache
        raise RuntimeError("No references provided and the cache is empty.")

    @staticmethod
    def _check_texts(named: Iterable[tuple[str, Any]]) -> None:
        """After a kernel rejected a text: raises its error again, naming the text as the caller passed
        it (``hypothesis``, ``hypotheses[i]``, ``references[k][i]``) where the kernel names a row of its
        own columns (``responses[0]``). Lone surrogates are rejected, as in every text metric."""
        for name, text in named:
            if not isinstance(text, str):
                raise TypeError(f"{name}: expected str, got {type(text).__name__}")
            try:
                text.encode("utf-8")
            except UnicodeEncodeError as e:
                raise ValueError(f"{name}: string is not valid Unicode (lone surrogate at {e.start})") from None

    @staticmethod
    def _check_lengths(hypotheses: Sequence[str], rows: Rows) -> None:
        if len(hypotheses) != len(rows):
            raise ValueError(f"{len(hypotheses)} hypotheses but the reference streams have {len(rows)} segments")

    def _extract_corpus_statistics(self, hypotheses: Sequence[str], references: Streams | None) -> list[list[Any]]:
        """``_extract_corpus_statistics`` of sacrebleu 2.6.0: one statistics list per segment, with
        sacrebleu's layout and types (BLEU ``[hyp_len, ref_len, correct_1.., total_1..]`` ints; chrF
        ``[hyp, ref, match]`` ints per order; TER ``[edits (int), average reference length (float)]``)."""
        rows = self._rows(references)
        self._check_lengths(hypotheses, rows)
        return self._segment_statistics(list(hypotheses), rows)

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> Any:
        """The score of one hypothesis against one or more references (``None`` entries ignored)."""
        name = type(self).__name__
        if not isinstance(hypothesis, str):
            raise TypeError(f"{name}: The argument `hyp` should be a string.")
        if isinstance(references, str) or not isinstance(references, Sequence):
            raise TypeError(f"{name}: The argument `refs` should be a sequence of strings.")
        if not isinstance(references[0], str) and references[0] is not None:
            raise TypeError(f"{name}: Each element of `refs` should be a string.")
        rows = self._rows([[r] for r in references])
        self._check_lengths([hypothesis], rows)
        try:
            return self._score([hypothesis], rows)
        except (TypeError, ValueError):
            refs = ((f"references[{k}]", r) for k, r in enumerate(references) if r is not None)
            self._check_texts([("hypothesis", hypothesis), *refs])
            raise

    def corpus_score(self, hypotheses: Sequence[str], references: Streams | None, n_bootstrap: int = 1) -> Any:
        """The corpus score; ``references`` is a list of streams (or ``None`` to use the cached ones).
        With ``n_bootstrap > 1`` the score also carries sacrebleu's bootstrap estimate (``_mean``,
        ``_ci``, printed as ``μ = mean ± ci``) from that many resamples of the segments, drawn by
        ``numpy.random.default_rng`` seeded from ``SACREBLEU_SEED`` (default 12345, ``none`` for OS
        entropy) exactly as sacrebleu 2.6.0 draws them; the signature then shows ``bs`` and ``seed``."""
        name = type(self).__name__
        if not isinstance(hypotheses, Sequence):
            raise TypeError(f"{name}: `hyps` should be a sequence of strings.")
        if not isinstance(hypotheses[0], str):
            raise TypeError(f"{name}: Each element of `hyps` should be a string.")
        if any(h is None for h in hypotheses):
            raise TypeError(f"{name}: Undefined line in hypotheses stream!")
        if references is not None:
            if not isinstance(references, Sequence):
                raise TypeError(f"{name}: `refs` should be a sequence of sequence of strings.")
            if not isinstance(references[0], Sequence):
                raise TypeError(f"{name}: Each element of `refs` should be a sequence of strings.")
            if not isinstance(references[0][0], str) and references[0][0] is not None:
                raise TypeError(f"{name}: `refs` should be a sequence of sequence of strings.")
        hyps = list(hypotheses)
        rows = self._rows(references)
        self._check_lengths(hyps, rows)
        try:
            score = self._score(hyps, rows)
        except (TypeError, ValueError):
            streams = enumerate(references or [])
            refs = ((f"references[{k}][{i}]", r) for k, s in streams for i, r in enumerate(s) if r is not None)
            self._check_texts([*((f"hypotheses[{i}]", h) for i, h in enumerate(hyps)), *refs])
            raise
        if n_bootstrap > 1:
            from ..significance import _bootstrap_resample

            self.n_bootstrap = n_bootstrap
            self.seed, bs_scores = _bootstrap_resample(self._segment_statistics(hyps, rows), self, n_bootstrap)
            score.estimate_ci(bs_scores)
        return score

    def get_signature(self) -> Signature:
        """The reproducibility signature (available once references were seen)."""
        return self._SIGNATURE_TYPE(self.__dict__)
