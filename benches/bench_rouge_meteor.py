"""Side-by-side speed of rapideval's ROUGE and METEOR and the reference libraries on real prose pairs.

    python benches/bench_rouge_meteor.py [--pairs 5000] [--reference-pairs 500] [--repeats 5]

For each task it prints pairs per second for rapideval on one thread and on all threads, for the
reference implementation (rouge-score 0.1.2; nltk 3.10.4 METEOR through promptflow-evals 0.3.5), the
ratio rapideval(1 thread) / reference, and whether the values agree (entries that are bit-identical,
max |difference|). It also times the first METEOR call of a fresh process (loading the WordNet table).
Every implementation is timed once per round (a call shorter than 0.2 s made again until 0.2 s have
passed), --repeats rounds that alternate the order of the implementations: rates are medians over the rounds, ratios the
medians of the ratios within each round (the machine's speed drifts less within a round); the
all-threads rate and its ratio to one thread come from 3 x --repeats further rounds of just those two
calls and of one-thread calls made at once from as many Python threads as the pool has (a 2-thread
call waits for its slower thread: the noisiest figure; the calls at once share nothing but the
machine, so their ratio is what this machine gives independent copies of the work then; in brackets,
the same ratios between each call's fastest round). Speed is measured here and never asserted in tests.

Pairs: --pairs distinct rows of real prose, each joining two rows of the example dataset shipped with
rapideval (documentation sentences and rewrites of them; see ``_common.load_pairs``).
``--json PATH`` also writes every figure, with the machine, date and library versions, for
tools/bench_table.py.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from typing import Callable

import numpy as np
import rapideval
from _common import (PAIRS_SOURCE, Report, add_report_arguments, agreement, interleaved, load_pairs, median_ratio,
                     thread_scaling, warm)
from rapideval.compat import nltk_meteor
from rapideval.metrics.meteor import forget_words, meteor
from rapideval.metrics.rouge import rouge

ROUGE_TYPES = ["rouge1", "rouge2", "rougeL"]


def bench_task(report: Report, task: str, n_ref: int, repeats: int, ours: Callable[[], np.ndarray],
               reference: tuple[str, str, Callable[[int], list[float]]], values_per_pair: int = 1,
               ours_distinct: Callable[[], np.ndarray] | None = None) -> None:
    """``ours`` scores all pairs (``values_per_pair`` values each, pair-major); the reference scores
    the first ``n_ref``. ``ours_distinct`` scores only those first ``n_ref`` pairs, all distinct, each
    time after ``forget_words``: METEOR remembers the stems and synonyms of the words it met, from
    call to call, which the tiled pairs (and any call after the first) profit from; this line is the
    cost of words never seen, made once per round (a repeat would find the WordNet table in the
    cache). It is compared with the reference as timed throughout (nltk keeps the synsets it read,
    so from the second round on its words are not new) and with the reference made once per round
    after nltk's synset cache is emptied, so that it too reads its words' synsets afresh, as in the
    first pass over a dataset. Each is timed once per round, ``repeats`` rounds; ``ours`` on one and
    on all threads then in 3 x ``repeats`` more rounds of just those two and of one-thread calls made
    at once (see ``thread_scaling``); ratios are medians of the rounds' ratios. ``reference`` is
    (name, library, call)."""
    print(f"\n{task}")
    name, library, run = reference
    run(2)  # warm-up: nltk loads WordNet on its first look-up
    calls = {"ours": (warm(1, ours), ours)}
    if ours_distinct is not None:
        from nltk.corpus import wordnet

        calls["distinct"] = (lambda: (rapideval.set_num_threads(1), forget_words()), ours_distinct)
        calls["reference, new words"] = (wordnet._synset_offset_cache.clear, lambda: run(n_ref))
    calls[name] = (lambda: rapideval.set_num_threads(1), lambda: run(n_ref))
    times, out = interleaved(calls, repeats, once=frozenset({"distinct", "reference, new words"}))
    values = out["ours"]
    scaling = thread_scaling(ours, 3 * repeats)
    rapideval.set_num_threads(0)
    assert np.array_equal(values.view(np.int64), ours().view(np.int64)), "thread count changed results"
    n = len(values) // values_per_pair
    rate = lambda key, pairs: pairs / statistics.median(times[key])  # noqa: E731
    print(f"  {'rapideval (1 thread)':<40} {rate('ours', n):>12,.0f} pairs/s")
    speedup = median_ratio(times["ours"], n, times[name], n_ref)
    agree = agreement(values[: n_ref * values_per_pair], out[name])
    record: dict = {"task": task, "pairs": n, "rapideval": {"pairs_per_s": rate("ours", n), **scaling.as_dict(n)},
                    "references": [report.reference(name, library, pairs=n_ref, pairs_per_s=rate(name, n_ref),
                                                    speedup_per_core=speedup, agreement=agree)]}
    for label, scaled_rate, ratio, note in scaling.rows(n):
        print(f"  {label:<40} {scaled_rate:>12,.0f} pairs/s  {ratio} {note}".rstrip())
    if ours_distinct is not None:
        label = f"rapideval (1 thread, {n_ref} pairs, new words)"
        vs_reference = median_ratio(times["distinct"], n_ref, times[name], n_ref)
        vs_new_words = median_ratio(times["distinct"], n_ref, times["reference, new words"], n_ref)
        print(f"  {label:<40} {rate('distinct', n_ref):>12,.0f} pairs/s  "
              f"{vs_reference:,.1f}x {name}, {vs_new_words:,.1f}x its new words")
        record["new_words"] = {"pairs": n_ref, "pairs_per_s": rate("distinct", n_ref),
                               "speedup_per_core_vs_reference": vs_reference,
                               "reference_new_words_pairs_per_s": rate("reference, new words", n_ref),
                               "speedup_per_core_vs_reference_new_words": vs_new_words}
    print(f"  {name:<40} {rate(name, n_ref):>12,.0f} pairs/s  {speedup:,.1f}x  {agree}")
    if ours_distinct is not None:
        assert out["reference, new words"] == out[name], "the reference's values depend on its cache"
        label = f"{name}, new words"
        print(f"  {label:<40} {rate('reference, new words', n_ref):>12,.0f} pairs/s")
    report.add(record)


def first_meteor_call_seconds() -> float:
    """Seconds of the first METEOR call in a fresh interpreter (WordNet table parsed then)."""
    code = (
        "import time; from rapideval.metrics.meteor import meteor\n"
        "t = time.perf_counter(); meteor(['a quick dog'], ['a fast dog']); print(time.perf_counter() - t)"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return float(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=5000, help="rows scored by rapideval")
    parser.add_argument("--reference-pairs", type=int, default=500, help="rows scored by the slow references")
    parser.add_argument("--repeats", type=int, default=5)
    add_report_arguments(parser)
    args = parser.parse_args()
    os.environ.setdefault("NLTK_DATA", os.path.join(os.path.dirname(__file__), "..", ".nltk_data"))

    from nltk.translate.meteor_score import single_meteor_score
    from promptflow.evals._common.utils import nltk_tokenize
    from rouge_score import rouge_scorer

    hyps, refs = load_pairs(args.pairs)
    m = min(args.reference_pairs, args.pairs)  # the references score the first pairs
    print(f"{args.pairs} pairs (references timed on {m}); {args.repeats} interleaved rounds; {os.cpu_count()} cores")
    loads = [first_meteor_call_seconds() for _ in range(3)]
    print(f"first METEOR call of a process (WordNet table load): {min(loads) * 1000:.0f} ms (best of 3)")
    report = Report("bench_rouge_meteor", {"pairs": args.pairs, "reference_pairs": m, "repeats": args.repeats,
                                           "pairs_source": PAIRS_SOURCE,
                                           "first_meteor_call_ms_best_of_3": min(loads) * 1000},
                    ["rouge-score", "nltk", "promptflow-evals"])

    # ROUGE-Lsum's sentences are lines: one sentence per line, as summarization harnesses pass them.
    def lines(texts: list[str]) -> list[str]:
        return [re.sub(r"(?<=[.!?,;]) +", "\n", t) for t in texts]

    rouge_tasks = [
        ("ROUGE-1+2+L", ROUGE_TYPES, False, hyps, refs),
        ("ROUGE-1+2+L with stemmer", ROUGE_TYPES, True, hyps, refs),
        ("ROUGE-1+2+L+Lsum, clauses on lines (Hugging Face evaluate's default types)",
         [*ROUGE_TYPES, "rougeLsum"], False, lines(hyps), lines(refs)),
    ]
    for label, types, stem, preds, targets in rouge_tasks:
        scorer = rouge_scorer.RougeScorer(types, use_stemmer=stem)

        def ours_rouge(types=types, stem=stem, preds=preds, targets=targets) -> np.ndarray:
            out = rouge(preds, targets, types, use_stemmer=stem)
            return np.stack([a for t in types for a in out[t]], axis=1).ravel()

        def ref_rouge(k: int, scorer=scorer, preds=preds, targets=targets) -> list[float]:
            return [float(v) for i in range(k) for s in scorer.score(targets[i], preds[i]).values() for v in s]

        bench_task(report, f"{label} (rouge-score RougeScorer.score)", m, args.repeats,
                   ours_rouge, ("rouge-score", "rouge-score", ref_rouge), values_per_pair=3 * len(types))

    bench_task(report, "promptflow METEOR: tokenize + nltk single_meteor_score", m, args.repeats,
               lambda: meteor(hyps, refs), ours_distinct=lambda: meteor(hyps[:m], refs[:m]),
               reference=("nltk (promptflow tokenize + meteor)", "nltk",
                lambda k: [single_meteor_score(nltk_tokenize(refs[i]), nltk_tokenize(hyps[i])) for i in range(k)]))

    hyp_tok = [nltk_tokenize(h) for h in hyps]
    ref_tok = [nltk_tokenize(r) for r in refs]
    # The same tokens joined by spaces and split again: the METEOR kernel without the tokenizer.
    hyp_joined, ref_joined = [" ".join(t) for t in hyp_tok], [" ".join(t) for t in ref_tok]
    bench_task(report, "METEOR on pre-tokenized text (batch, tokenizer='whitespace')", m, args.repeats,
               lambda: meteor(hyp_joined, ref_joined, tokenizer="whitespace"),
               ours_distinct=lambda: meteor(hyp_joined[:m], ref_joined[:m], tokenizer="whitespace"),
               reference=("nltk single_meteor_score", "nltk",
                          lambda k: [single_meteor_score(ref_tok[i], hyp_tok[i]) for i in range(k)]))
    bench_task(report, "nltk single_meteor_score on tokens (one call per pair, the drop-in)", m, args.repeats,
               lambda: np.array([nltk_meteor.single_meteor_score(r, h) for h, r in zip(hyp_tok, ref_tok)]),
               ("nltk single_meteor_score", "nltk",
                lambda k: [single_meteor_score(ref_tok[i], hyp_tok[i]) for i in range(k)]))
    report.tasks[-1]["one_call_per_pair"] = True  # a Python loop holding the GIL: threads do not apply
    report.write(args.json, args.note)


if __name__ == "__main__":
    main()
