"""Side-by-side speed of rapideval and sacrebleu 2.6.0 for chrF, chrF++ and TER on real prose pairs.

    python benches/bench_chrf_ter.py [--pairs 5000] [--reference-pairs 500] [--repeats 5]

For each task it prints pairs per second for rapideval on one thread and on all threads, for sacrebleu
(one ``sentence_*`` call per pair, as users call it), the ratio rapideval(1 thread) / sacrebleu, and
whether the values agree (rows that are bit-identical, max |difference|). The corpus rows time one corpus
call over the first --reference-pairs pairs, as sacrebleu's. Every implementation is timed once per round
(a call shorter than 0.2 s made again until 0.2 s have passed; --repeats rounds that alternate the order
of the implementations): rates are medians over the rounds, ratios the medians of the ratios within each
round (the machine's speed drifts less within a round); the all-threads rate and its ratio to one thread
come from 3 x --repeats further rounds of just those two calls and of one-thread calls made at once
from as many Python threads as the pool has (a 2-thread call waits for its slower thread: the noisiest
figure; the calls at once share nothing but the machine, so their ratio is what this machine gives
independent copies of the work then; in brackets, the same ratios between each call's fastest round).
Speed is measured here and never asserted in tests.

Pairs: --pairs distinct rows of real prose, each joining two rows of the example dataset shipped with
rapideval (documentation sentences and rewrites of them; see ``_common.load_pairs``); one chrF row
scores each hypothesis against another row's reference instead (texts that share little).
``--json PATH`` also writes every figure, with the machine, date and library versions, for
tools/bench_table.py.
"""

from __future__ import annotations

import argparse
import os
import statistics
from typing import Callable

import numpy as np
import rapideval
from _common import (PAIRS_SOURCE, Report, ThreadScaling, add_report_arguments, agreement, interleaved, load_pairs,
                     median_ratio, thread_scaling, warm)
from rapideval.metrics.chrf import chrf, corpus_chrf
from rapideval.metrics.ter import corpus_ter, ter


def row(impl: str, pairs_per_s: float, ratio: str, values: str) -> None:
    print(f"  {impl:<34} {pairs_per_s:>12,.0f} pairs/s  {ratio:>12}  {values}", flush=True)


def bench_sentence(report: Report, task: str, n_ref: int, repeats: int, ours: Callable[[], np.ndarray],
                   reference: Callable[[int], list[float]]) -> None:
    print(f"\n{task}")
    times, out = interleaved({
        "ours": (warm(1, ours), ours),
        "sacrebleu": (lambda: rapideval.set_num_threads(1), lambda: reference(n_ref)),
    }, repeats)
    values = out["ours"]
    scaling = thread_scaling(ours, 3 * repeats)
    rapideval.set_num_threads(0)
    assert np.array_equal(values.view(np.int64), ours().view(np.int64)), "thread count changed results"
    n = len(values)
    print_rows(report, task, times, scaling, n, n_ref, agreement(values[:n_ref], out["sacrebleu"]))


def bench_corpus(report: Report, task: str, n: int, repeats: int, ours: Callable[[], float], reference: Callable[[], float]) -> None:
    print(f"\n{task}")
    times, out = interleaved({
        "ours": (warm(1, ours), ours),
        "sacrebleu": (lambda: rapideval.set_num_threads(1), reference),
    }, repeats)
    value, ref_value = out["ours"], out["sacrebleu"]
    scaling = thread_scaling(ours, 3 * repeats)
    rapideval.set_num_threads(0)
    assert value == ours(), "thread count changed the result"
    same = value.hex() == ref_value.hex()
    print_rows(report, task, times, scaling, n, n, "bit-identical" if same else f"DIFFERENT {value!r} vs {ref_value!r}")


def print_rows(report: Report, task: str, times: dict[str, list[float]], scaling: ThreadScaling, n: int, n_ref: int,
               values: str) -> None:
    """Rows for rapideval on one thread and for sacrebleu (`times`, interleaved rounds), and for
    rapideval on all threads and as one-thread calls at once (`scaling`); the same figures go to
    `report`."""
    ours = n / statistics.median(times["ours"])
    row("rapideval (1 thread)", ours, "", "")
    for label, rate, ratio, note in scaling.rows(n):
        row(label, rate, ratio, note)
    ref_rate = n_ref / statistics.median(times["sacrebleu"])
    speedup = median_ratio(times["ours"], n, times["sacrebleu"], n_ref)
    row("sacrebleu", ref_rate, f"{speedup:,.1f}x", values)
    report.add({"task": task, "pairs": n, "rapideval": {"pairs_per_s": ours, **scaling.as_dict(n)},
                "references": [report.reference("sacrebleu", "sacrebleu", pairs=n_ref, pairs_per_s=ref_rate,
                                                speedup_per_core=speedup, agreement=values)]})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=5000, help="rows scored by rapideval")
    parser.add_argument("--reference-pairs", type=int, default=500, help="rows scored by sacrebleu")
    parser.add_argument("--repeats", type=int, default=5)
    add_report_arguments(parser)
    args = parser.parse_args()

    import sacrebleu

    hyps, refs = load_pairs(args.pairs)
    # sacrebleu's scores are divided by 100 to compare with rapideval's flat API (0 to 1).
    m = min(args.reference_pairs, args.pairs)  # the references score the first pairs
    print(f"{args.pairs} pairs (sacrebleu timed on {m}); {args.repeats} interleaved rounds; {os.cpu_count()} cores")
    report = Report("bench_chrf_ter", {"pairs": args.pairs, "reference_pairs": m, "repeats": args.repeats,
                                       "pairs_source": PAIRS_SOURCE}, ["sacrebleu"])

    for name, word_order in (("chrF", 0), ("chrF++", 2)):
        bench_sentence(report, f"sacrebleu sentence_chrf, {name} (word_order={word_order})", m, args.repeats,
                       lambda: chrf(hyps, refs, word_order=word_order),
                       lambda k: [sacrebleu.sentence_chrf(hyps[i], [refs[i]], word_order=word_order).score / 100
                                  for i in range(k)])  # fmt: skip
    # Pairs that share little: chrF pairs off identical suffixes before sorting, which pays where the
    # texts share much of their wording (the rewrites above) and is skipped where they do not.
    others = refs[7:] + refs[:7]
    bench_sentence(report, "sacrebleu sentence_chrf, chrF, each hypothesis against another row's reference", m, args.repeats,
                   lambda: chrf(hyps, others),
                   lambda k: [sacrebleu.sentence_chrf(hyps[i], [others[i]]).score / 100 for i in range(k)])  # fmt: skip
    bench_sentence(report, "sacrebleu sentence_ter", m, args.repeats, lambda: ter(hyps, refs),
                   lambda k: [sacrebleu.sentence_ter(hyps[i], [refs[i]]).score / 100 for i in range(k)])  # fmt: skip

    h, r = hyps[:m], refs[:m]
    bench_corpus(report, "sacrebleu corpus_chrf (chrF++)", m, args.repeats,
                 lambda: corpus_chrf(h, r, word_order=2).score,
                 lambda: sacrebleu.corpus_chrf(h, [r], word_order=2).score / 100)  # fmt: skip
    bench_corpus(report, "sacrebleu corpus_ter", m, args.repeats, lambda: corpus_ter(h, r).score,
                 lambda: sacrebleu.corpus_ter(h, [r]).score / 100)  # fmt: skip
    report.write(args.json, args.note)


if __name__ == "__main__":
    main()
