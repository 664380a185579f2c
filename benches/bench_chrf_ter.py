"""Side-by-side speed of rapideval and sacrebleu 2.6.0 for chrF, chrF++ and TER on real prose pairs.

    python benches/bench_chrf_ter.py [--pairs 5000] [--reference-pairs 500] [--repeats 5]

For each task it prints pairs per second for rapideval on one thread and on all threads, for
sacrebleu (one ``sentence_*`` call per pair, as users call it), the ratio rapideval(1 thread) /
sacrebleu, and whether the values agree (rows that are bit-identical, max |difference|). The corpus
rows time one corpus call over all pairs. Times are medians of --repeats runs. Speed is measured here
and never asserted in tests.

Pairs: the example dataset shipped with rapideval (real documentation prose and rewrites of it), tiled
to --pairs rows.
"""

from __future__ import annotations

import argparse
import os
from typing import Callable

import numpy as np
import rapideval
from _common import agreement, load_pairs, median_time
from rapideval.metrics.chrf import chrf, corpus_chrf
from rapideval.metrics.ter import corpus_ter, ter


def row(impl: str, pairs_per_s: float, ratio: str, values: str) -> None:
    print(f"  {impl:<34} {pairs_per_s:>12,.0f} pairs/s  {ratio:>12}  {values}", flush=True)


def bench_sentence(task: str, n_ref: int, repeats: int, ours: Callable[[], np.ndarray],
                   reference: Callable[[int], list[float]]) -> None:
    print(f"\n{task}")
    rapideval.set_num_threads(1)
    t1, values = median_time(ours, repeats)
    rapideval.set_num_threads(0)
    tn, values_n = median_time(ours, repeats)
    assert np.array_equal(values.view(np.int64), values_n.view(np.int64)), "thread count changed results"
    n = len(values)
    row("rapideval (1 thread)", n / t1, "", "")
    row(f"rapideval ({rapideval.get_num_threads()} threads)", n / tn, f"{t1 / tn:.2f}x 1 thr", "")
    t, ref_values = median_time(lambda: reference(n_ref), max(1, repeats // 2))
    rate = n_ref / t
    row("sacrebleu 2.6.0", rate, f"{(n / t1) / rate:,.1f}x", agreement(values[:n_ref], ref_values))


def bench_corpus(task: str, n: int, repeats: int, ours: Callable[[], float], reference: Callable[[], float]) -> None:
    print(f"\n{task}")
    rapideval.set_num_threads(1)
    t1, value = median_time(ours, repeats)
    rapideval.set_num_threads(0)
    tn, value_n = median_time(ours, repeats)
    assert value == value_n, "thread count changed the result"
    row("rapideval (1 thread)", n / t1, "", "")
    row(f"rapideval ({rapideval.get_num_threads()} threads)", n / tn, f"{t1 / tn:.2f}x 1 thr", "")
    t, ref_value = median_time(reference, 1)
    same = "bit-identical" if value.hex() == ref_value.hex() else f"DIFFERENT {value!r} vs {ref_value!r}"
    row("sacrebleu 2.6.0", n / t, f"{(n / t1) / (n / t):,.1f}x", same)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=5000, help="rows scored by rapideval")
    parser.add_argument("--reference-pairs", type=int, default=500, help="rows scored by sacrebleu")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    import sacrebleu

    hyps, refs = load_pairs(args.pairs)
    m = args.reference_pairs
    print(f"{args.pairs} pairs (sacrebleu timed on {m}); medians of {args.repeats} runs; {os.cpu_count()} cores")

    for name, word_order in (("chrF", 0), ("chrF++", 2)):
        bench_sentence(f"sacrebleu sentence_chrf, {name} (word_order={word_order})", m, args.repeats,
                       lambda: chrf(hyps, refs, word_order=word_order),
                       lambda k: [sacrebleu.sentence_chrf(hyps[i], [refs[i]], word_order=word_order).score
                                  for i in range(k)])  # fmt: skip
    bench_sentence("sacrebleu sentence_ter", m, args.repeats, lambda: ter(hyps, refs),
                   lambda k: [sacrebleu.sentence_ter(hyps[i], [refs[i]]).score for i in range(k)])  # fmt: skip

    h, r = hyps[:m], refs[:m]
    bench_corpus("sacrebleu corpus_chrf (chrF++)", m, args.repeats,
                 lambda: corpus_chrf(h, r, word_order=2).score,
                 lambda: sacrebleu.corpus_chrf(h, [r], word_order=2).score)  # fmt: skip
    bench_corpus("sacrebleu corpus_ter", m, args.repeats, lambda: corpus_ter(h, r).score,
                 lambda: sacrebleu.corpus_ter(h, [r]).score)  # fmt: skip


if __name__ == "__main__":
    main()
