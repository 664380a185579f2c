"""Speed of the vector, vote and statistics kernels against numpy / scipy, in one run.

    python benches/bench_vectors.py [--quick] [--repeats 3]

Measures, at one thread and at all threads of rapideval (numpy's BLAS limited to the same count with
threadpoolctl):

- row-wise cosine of two (rows x dim) float32 arrays (default 1M x 384) against numpy einsum (the
  cosine from three einsums, and the dot-product einsum alone);
- all pairs (default 10k x 10k x 384 float32) with the top 10 per row against numpy: normalise,
  matmul, argpartition, sort the 10;
- a bootstrap of the mean (default 10,000 resamples over 1M rows), and numpy's index resampling
  (extrapolated from a few resamples);
- a paired approximate-randomisation test and the correlations against scipy, on small inputs.

Times are medians of --repeats runs (the long ones run once); agreement with the reference is
printed next to them. Speed is measured here and never asserted in tests. ``--json PATH`` also writes
every figure, with the machine, date and library versions, for tools/bench_table.py.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from typing import Any, Iterator

import numpy as np
import rapideval
from _common import Report, add_report_arguments, median_time
from rapideval.metrics.stats import bootstrap_ci, correlation, paired_test
from rapideval.metrics.vectors import cosine, cosine_matrix


@contextlib.contextmanager
def threads(n: int) -> Iterator[None]:
    """rapideval and numpy's BLAS both on `n` threads (0 = all cores)."""
    before = rapideval.get_num_threads()
    rapideval.set_num_threads(n)
    try:
        from threadpoolctl import threadpool_limits

        limit: Any = threadpool_limits(n or os.cpu_count())
    except ImportError:  # BLAS keeps its own thread count
        limit = contextlib.nullcontext()
    try:
        with limit:
            yield
    finally:
        rapideval.set_num_threads(before)


def line(label: str, seconds: float, work: float, unit: str, note: str = "") -> None:
    print(f"  {label:<44} {seconds:9.3f} s  {work / seconds:>14,.0f} {unit}/s  {note}", flush=True)


def scaling_record(task: str, seconds: dict[int, float], references: list[dict[str, Any]],
                   **extra: Any) -> dict[str, Any]:
    """A task record of the report: rapideval's seconds per thread count, its speed-up from one thread
    to the most measured, and the references (each with ``speedup_per_core``: its time over rapideval's
    on one thread)."""
    rapid: dict[str, Any] = {"seconds": {str(c): t for c, t in seconds.items()}}
    most = max(seconds, default=1)
    if 1 in seconds and most > 1:
        rapid.update(threads=most, all_threads_ratio=seconds[1] / seconds[most])
    return {"task": task, "rapideval": rapid, "references": references, **extra}


def bench_rows(report: Report, n: int, d: int, repeats: int, counts: list[int]) -> None:
    task = f"row-wise cosine, {n:,} x {d} float32"
    print(f"\n{task}")
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, d), dtype=np.float32)
    b = rng.standard_normal((n, d), dtype=np.float32)

    def numpy_cosine() -> np.ndarray:
        return np.einsum("ij,ij->i", a, b) / np.sqrt(np.einsum("ij,ij->i", a, a) * np.einsum("ij,ij->i", b, b))

    t_np, ref = median_time(numpy_cosine, repeats)
    t_dot, _ = median_time(lambda: np.einsum("ij,ij->i", a, b), repeats)
    line("numpy einsum cosine (3 einsums, 1 thread)", t_np, n, "pairs")
    line("numpy einsum dot product alone", t_dot, n, "pairs")
    seconds = {}
    for c in counts:
        with threads(c):
            t, ours = median_time(lambda: cosine(a, b), repeats)
            seconds[rapideval.get_num_threads()] = t
            label = f"rapideval cosine ({rapideval.get_num_threads()} threads)"
        line(label, t, n, "pairs", f"{t_np / t:.2f}x einsum cosine, {t_dot / t:.2f}x einsum dot")
    one = seconds.get(1, min(seconds.values()))
    report.add(scaling_record(task, seconds, [
        report.reference("numpy einsum cosine (3 einsums)", "numpy", seconds=t_np, speedup_per_core=t_np / one),
        report.reference("numpy einsum dot product alone", "numpy", seconds=t_dot, speedup_per_core=t_dot / one),
    ]))
    exact_a, exact_b = a[:20000].astype(np.float64), b[:20000].astype(np.float64)
    exact = np.einsum("ij,ij->i", exact_a, exact_b) / np.sqrt(
        np.einsum("ij,ij->i", exact_a, exact_a) * np.einsum("ij,ij->i", exact_b, exact_b))
    scale = np.einsum("ij,ij->i", np.abs(exact_a), np.abs(exact_b)) / np.sqrt(
        np.einsum("ij,ij->i", exact_a, exact_a) * np.einsum("ij,ij->i", exact_b, exact_b))
    print(f"  max error / scale vs float64 on 20k rows: rapideval {np.max(np.abs(ours[:20000] - exact) / scale):.1e}, "
          f"numpy float32 {np.max(np.abs(ref[:20000] - exact) / scale):.1e}")


def bench_top_k(report: Report, n: int, m: int, d: int, k: int, repeats: int, counts: list[int]) -> None:
    task = f"all pairs {n:,} x {m:,} x {d} float32, top {k} per row"
    print(f"\n{task}")
    rng = np.random.default_rng(1)
    a = rng.standard_normal((n, d), dtype=np.float32)
    b = rng.standard_normal((m, d), dtype=np.float32)

    def numpy_top_k() -> tuple[np.ndarray, np.ndarray]:
        an = a / np.linalg.norm(a, axis=1, keepdims=True)
        bn = b / np.linalg.norm(b, axis=1, keepdims=True)
        s = an @ bn.T
        idx = np.argpartition(-s, k, axis=1)[:, :k]
        sc = np.take_along_axis(s, idx, axis=1)
        order = np.argsort(-sc, axis=1, kind="stable")
        return np.take_along_axis(idx, order, axis=1), np.take_along_axis(sc, order, axis=1)

    seconds, numpy_seconds = {}, {}
    for c in counts:
        with threads(c):
            label = f"{rapideval.get_num_threads()} threads"
            t_np, (ref_idx, ref_sc) = median_time(numpy_top_k, repeats)
            t, res = median_time(lambda: cosine_matrix(a, b, top_k=k), repeats)
            seconds[rapideval.get_num_threads()] = t
            numpy_seconds[rapideval.get_num_threads()] = t_np
        line(f"numpy matmul + argpartition ({label})", t_np, n * m, "pairs")
        line(f"rapideval cosine_matrix top_k ({label})", t, n * m, "pairs", f"{t / t_np:.2f}x numpy's time")
    one = 1 if 1 in seconds else min(seconds)
    report.add(scaling_record(task, seconds, [report.reference(
        "numpy matmul + argpartition (BLAS on the same threads)", "numpy", seconds=numpy_seconds[one],
        seconds_per_thread_count={str(c): t for c, t in numpy_seconds.items()},
        speedup_per_core=numpy_seconds[one] / seconds[one])]))
    same = float((res.indices == ref_idx).mean())
    print(f"  same top-{k} indices as numpy: {same:.4%} (the rest are near-ties in float32); "
          f"max |score difference| {float(np.max(np.abs(res.scores - ref_sc))):.1e}")


def bench_bootstrap(report: Report, n: int, resamples: int, counts: list[int]) -> None:
    task = f"bootstrap CI of the mean, {resamples:,} resamples x {n:,} rows"
    print(f"\n{task}")
    x = np.random.default_rng(2).random(n)
    seconds = {}
    for c in counts:
        with threads(c):
            label = f"rapideval bootstrap_ci ({rapideval.get_num_threads()} threads)"
            start, cpu = time.perf_counter(), time.process_time()
            res = bootstrap_ci(x, n_resamples=resamples)
            t, t_cpu = time.perf_counter() - start, time.process_time() - cpu
            seconds[rapideval.get_num_threads()] = t
        line(label, t, resamples * n, "rows", f"(CPU {t_cpu:.1f} s)")
    print(f"  95% CI [{res.low:.6f}, {res.high:.6f}], standard error {res.standard_error:.3e} "
          f"(theory {x.std() / np.sqrt(n):.3e})")
    rng = np.random.default_rng(0)
    few = 20
    start = time.perf_counter()
    for _ in range(few):
        x[rng.integers(0, n, n)].mean()
    t = (time.perf_counter() - start) * resamples / few
    line(f"numpy index resampling (extrapolated from {few})", t, resamples * n, "rows")
    one = seconds.get(1, min(seconds.values()))
    report.add(scaling_record(task, seconds, [report.reference(
        f"numpy index resampling (extrapolated from {few} resamples)", "numpy", seconds=t, speedup_per_core=t / one)]))


def bench_small(report: Report, repeats: int) -> None:
    import scipy.stats

    print("\npaired test and correlations, 500 rows (scipy and rapideval on 1 thread)")
    rng = np.random.default_rng(3)
    a, b = rng.random(500), rng.random(500)
    t_ref, ref = median_time(lambda: scipy.stats.permutation_test(
        (a, b), lambda x, y, axis: np.mean(x, axis=axis) - np.mean(y, axis=axis),
        permutation_type="samples", vectorized=True, n_resamples=10_000, rng=0), repeats)
    with threads(1):
        t, ours = median_time(lambda: paired_test(a, b, n_resamples=10_000), repeats)
    line("scipy permutation_test (10,000 resamples)", t_ref, 1, "tests", f"p = {ref.pvalue:.4f}")
    line("rapideval paired_test (10,000 resamples)", t, 1, "tests", f"p = {ours.p_value:.4f}, {t_ref / t:.0f}x")
    report.add(scaling_record("paired approximate randomisation, 500 rows x 10,000 resamples", {1: t}, [
        report.reference("scipy permutation_test", "scipy", seconds=t_ref, speedup_per_core=t_ref / t)]))
    correlations = []
    for method, fn in (("pearson", scipy.stats.pearsonr), ("spearman", scipy.stats.spearmanr),
                       ("kendall", scipy.stats.kendalltau)):
        t_ref, ref = median_time(lambda: fn(a, b).statistic, repeats)
        with threads(1):
            t, ours = median_time(lambda: correlation(a, b, method=method), repeats)
        line(f"{method}: scipy / rapideval", t_ref, 1, "calls", f"rapideval {t * 1e6:.0f} us, |diff| {abs(ours - ref):.1e}")
        correlations.append(report.reference(f"scipy.stats {fn.__name__}", "scipy", seconds=t_ref,
                                             speedup_per_core=t_ref / t, rapideval_seconds=t))
    report.add(scaling_record("correlations (pearson, spearman, kendall), 500 rows", {}, correlations,
                              in_table=False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="*", default=[1, 2], help="thread counts to measure")
    add_report_arguments(parser)
    args = parser.parse_args()
    rows, pairs, boot = (100_000, 2_000, 100_000) if args.quick else (1_000_000, 10_000, 1_000_000)
    resamples = 1_000 if args.quick else 10_000
    print(f"{os.cpu_count()} cores; medians of {args.repeats} runs (bootstrap: one run)")
    report = Report("bench_vectors", {"quick": args.quick, "repeats": args.repeats, "threads": args.threads,
                                      "rows": rows, "pairs": pairs, "bootstrap_rows": boot, "resamples": resamples},
                    ["numpy", "scipy", "threadpoolctl"])
    bench_rows(report, rows, 384, args.repeats, args.threads)
    bench_top_k(report, pairs, pairs, 384, 10, args.repeats, args.threads)
    bench_bootstrap(report, boot, resamples, args.threads)
    bench_small(report, args.repeats)
    report.write(args.json, args.note)


if __name__ == "__main__":
    main()
