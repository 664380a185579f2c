"""Speed of rapideval's string distances against rapidfuzz 3.14.6, per core, on real prose pairs.

    python benches/bench_string_distance.py [--pairs 100000] [--repeats 3]

For each measure of ragas' ``NonLLMStringSimilarity`` (Levenshtein, Hamming, Jaro, Jaro-Winkler) it times,
on one thread each:

- ``rapideval.metrics.string_distance.normalized_distances(a, b, measure)`` (the batch, pool of 1 thread);
- ``rapidfuzz.process.cpdist(a, b, scorer=<Measure>.normalized_distance, workers=1, dtype=float64)``,
  rapidfuzz's own batch API: the fair comparison, which the ratio in the report's table is against;
- a Python loop calling ``rapidfuzz.distance.<Measure>.normalized_distance(a[i], b[i])``, as ragas does;
- a Python loop calling rapideval's ``normalized_distance`` (one call per pair);

then rapideval on one and on all threads and as one-thread calls at once (see ``_common.thread_scaling``).
Every implementation is timed once per round (a call shorter than 0.2 s made again until 0.2 s have
passed), --repeats rounds that alternate the order of the implementations: rates are medians over the
rounds, ratios the medians of the ratios within each round. Values are checked against rapidfuzz's (rows
that are bit-identical, max |difference|). Speed is measured here and never asserted in tests.

Pairs: --pairs distinct rows of real prose, each joining two rows of the example dataset shipped with
rapideval (documentation sentences and rewrites of them, 150 to 450 characters, a fifth of them with
non-ASCII characters; see ``_common.load_pairs``). ``--json PATH`` also writes every figure, with the
machine, date and library versions, for tools/bench_table.py.
"""

from __future__ import annotations

import argparse
import os
import statistics
from typing import Any, Callable

import numpy as np
import rapideval
from _common import (PAIRS_SOURCE, Report, add_report_arguments, agreement, interleaved, load_pairs, median_ratio,
                     thread_scaling, warm)
from rapideval.metrics.string_distance import MEASURES, normalized_distance, normalized_distances
from rapidfuzz import process
from rapidfuzz.distance import Hamming, Jaro, JaroWinkler, Levenshtein

REFERENCE: dict[str, tuple[str, Callable[..., float]]] = {
    "levenshtein": ("Levenshtein", Levenshtein.normalized_distance),
    "hamming": ("Hamming", Hamming.normalized_distance),
    "jaro": ("Jaro", Jaro.normalized_distance),
    "jaro_winkler": ("JaroWinkler", JaroWinkler.normalized_distance),
}


def line(label: str, pairs_per_s: float, ratio: str = "", note: str = "") -> None:
    print(f"  {label:<52} {pairs_per_s:>12,.0f} pairs/s  {ratio:>14}  {note}", flush=True)


def bench_measure(report: Report, measure: str, a: list[str], b: list[str], repeats: int) -> None:
    name, scorer = REFERENCE[measure]
    n = len(a)
    task = f"{name}.normalized_distance (ragas NonLLMStringSimilarity)"
    print(f"\n{task}")

    def ours() -> np.ndarray:
        return normalized_distances(a, b, measure)

    def cpdist() -> np.ndarray:
        return process.cpdist(a, b, scorer=scorer, workers=1, dtype=np.float64)

    def rapidfuzz_loop() -> list[float]:
        return [scorer(x, y) for x, y in zip(a, b)]

    def ours_loop() -> np.ndarray:
        return np.array([normalized_distance(x, y, measure) for x, y in zip(a, b)], dtype=np.float64)

    one_thread = lambda: rapideval.set_num_threads(1)  # noqa: E731
    calls: dict[str, tuple[Callable[[], None], Callable[[], Any]]] = {
        "ours": (warm(1, ours), ours),
        "cpdist": (one_thread, cpdist),
        "loop": (one_thread, rapidfuzz_loop),
        "ours loop": (one_thread, ours_loop),
    }
    times, out = interleaved(calls, repeats)
    values = out["ours"]
    assert np.array_equal(values.view(np.int64), out["ours loop"].view(np.int64)), "one call per pair disagrees"
    scaling = thread_scaling(ours, 3 * repeats)
    rapideval.set_num_threads(0)
    assert np.array_equal(values.view(np.int64), ours().view(np.int64)), "thread count changed results"

    t1 = statistics.median(times["ours"])
    line("rapideval normalized_distances (1 thread)", n / t1, "", f"median of {repeats} rounds")
    for label, scaled_rate, scaled_ratio, note in scaling.rows(n):
        line(label, scaled_rate, scaled_ratio, note)
    record: dict[str, Any] = {"task": task, "pairs": n, "rapideval": {"pairs_per_s": n / t1, **scaling.as_dict(n)},
                              "references": [], "variants": []}
    references = [
        ("cpdist", f"rapidfuzz process.cpdist(scorer={name}.normalized_distance, workers=1)"),
        ("loop", f"rapidfuzz {name}.normalized_distance, Python loop"),
    ]
    for key, label in references:
        rate = n / statistics.median(times[key])
        ratio = median_ratio(times["ours"], n, times[key], n)
        agree = agreement(values, list(out[key]))
        line(label, rate, f"ours {ratio:.2f}x", agree)
        record["references"].append(report.reference(label, "rapidfuzz", pairs=n, pairs_per_s=rate,
                                                      speedup_per_core=ratio, agreement=agree))
    rate = n / statistics.median(times["ours loop"])
    ratio = median_ratio(times["ours loop"], n, times["loop"], n)
    line("rapideval normalized_distance, Python loop", rate, f"{ratio:.2f}x rf loop", "(same values as the batch)")
    record["variants"].append({"name": "rapideval normalized_distance, one call per pair", "pairs_per_s": rate,
                               "speedup_per_core": ratio})
    report.add(record)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3, help="interleaved timing rounds (medians over them)")
    parser.add_argument("--measures", nargs="*", default=list(MEASURES), choices=MEASURES)
    add_report_arguments(parser)
    args = parser.parse_args()
    a, b = load_pairs(args.pairs)
    lengths = [len(s) for s in a + b]
    print(f"{args.pairs:,} pairs, {statistics.mean(lengths):.0f} characters on average "
          f"({min(lengths)} to {max(lengths)}); {args.repeats} interleaved rounds; {os.cpu_count()} cores")
    report = Report("bench_string_distance", {"pairs": args.pairs, "repeats": args.repeats,
                                              "pairs_source": PAIRS_SOURCE}, ["rapidfuzz"])
    for measure in args.measures:
        bench_measure(report, measure, a, b, args.repeats)
    report.write(args.json, args.note)


if __name__ == "__main__":
    main()
