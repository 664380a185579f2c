"""What every side-by-side bench shares: the real prose pairs, median timing, and value agreement."""

from __future__ import annotations

import datetime
import json
import os
import platform
import random
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import metadata, resources
from typing import Any, Callable

import numpy as np


#: Where the pairs come from, as recorded in each bench's JSON output.
PAIRS_SOURCE = (
    "distinct rows, each joining two different rows of the shipped example dataset "
    "(python/rapideval/data/example.jsonl: CPython documentation sentences and rule-based rewrites of them, "
    "tools/make_example_dataset.py), in a seeded random order"
)


def load_pairs(n: int, seed: int = 20261203) -> tuple[list[str], list[str]]:
    """n distinct (response, reference) pairs of real prose.

    The example dataset shipped with rapideval has 500 rows (one documentation sentence and a rewrite of
    it each); tiling it would score the same few hundred strings again and again, which flatters every
    cache (METEOR's remembered words, the memory caches). So row k joins two different shipped rows
    (i, j): response i, a space, response j against reference i, a space, reference j, as a two-sentence
    answer against a two-sentence reference. The ordered pairs (i, j) are drawn without repetition in a
    seeded random order, so no pair repeats (up to about 240,000 rows) and every prefix of the rows
    (what the slow references score) is a sample of the same kind of rows as the whole.
    """
    with resources.as_file(resources.files("rapideval") / "data" / "example.jsonl") as p:
        rows = [json.loads(line) for line in open(p, encoding="utf8")]
    shipped = list(dict.fromkeys((r["response"], r["reference"]) for r in rows))  # distinct, in file order
    k = len(shipped)
    if n > k * (k - 1):
        raise ValueError(f"at most {k * (k - 1)} distinct pairs can be made, asked for {n}")
    pairs = []
    for index in random.Random(seed).sample(range(k * (k - 1)), n):
        i, j = divmod(index, k - 1)
        j += j >= i  # j runs over the rows other than i
        pairs.append((f"{shipped[i][0]} {shipped[j][0]}", f"{shipped[i][1]} {shipped[j][1]}"))
    if len(set(pairs)) != n:
        raise AssertionError("load_pairs made a pair twice")
    return [h for h, _ in pairs], [r for _, r in pairs]


def median_time(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """Median wall time of `repeats` calls, and the last call's result."""
    times, out = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def interleaved(calls: dict[str, tuple[Callable[[], None], Callable[[], Any]]],
                rounds: int, min_seconds: float = 0.2,
                once: frozenset[str] = frozenset()) -> tuple[dict[str, list[float]], dict[str, Any]]:
    """Wall times per call of each call over `rounds` rounds that time every call once, in turn,
    each after its untimed setup; and each call's last result. A call that takes less than
    `min_seconds` is made again until that much time has passed, and its time is the mean: one short
    call is at the mercy of a single pause of the machine. The calls named in `once` are made once
    per round, after their setup: those whose cost is what a first call pays (a repeat would find
    the caches warm). The machines these run on are shared and their speed drifts: calls compared
    within one round see the same machine, so ratios come from the rounds (`median_ratio`), not from
    medians taken minutes apart; and the rounds alternate the order of the calls (forward, then
    backward), so that a steady drift favours no call. A setup that changes the thread pool should
    also make one untimed call (`warm`): a new pool's threads start cold."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    out: dict[str, Any] = {}
    names = list(calls)
    for r in range(rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            setup, fn = calls[name]
            setup()
            made, start = 0, time.perf_counter()
            while True:
                out[name] = fn()
                made += 1
                elapsed = time.perf_counter() - start
                if elapsed >= min_seconds or name in once:
                    break
            times[name].append(elapsed / made)
    return times, out


def warm(threads: int, fn: Callable[[], Any]) -> Callable[[], None]:
    """A setup for `interleaved`: use `threads` threads (0: all cores), then call `fn` once untimed."""
    import rapideval

    def setup() -> None:
        rapideval.set_num_threads(threads)
        fn()

    return setup


@dataclass
class ThreadScaling:
    """Wall times per round of one call on one thread (`one`), on all `threads` threads
    (`all_threads`), and of `threads` one-thread calls made at once (`at_once`)."""

    threads: int
    one: list[float]
    all_threads: list[float]
    at_once: list[float]

    def all_threads_ratio(self, pairs: int) -> float:
        """Pairs per second on all threads over pairs per second on one, median over the rounds."""
        return median_ratio(self.all_threads, pairs, self.one, pairs)

    def at_once_ratio(self, pairs: int) -> float:
        """Pairs per second of the calls at once (all of them) over one call's, median over the rounds."""
        return median_ratio(self.at_once, self.threads * pairs, self.one, pairs)

    def fastest_rounds_ratio(self, times: list[float], copies: int) -> float:
        """Pairs per second of `times`' fastest round (`copies` calls' worth of pairs) over those of
        the one-thread call's fastest round. The machine's pauses only ever add time, so each call's
        fastest round is its least disturbed one; on a host that is busy throughout, it is still
        disturbed, so this ratio is a second view of the same rounds, not a bound."""
        return copies * min(self.one) / min(times)

    def rows(self, pairs: int) -> list[tuple[str, float, str, str]]:
        """(label, pairs per second, ratio to one thread, note) of one thread, all threads and the
        calls at once, all from these rounds. The rates are medians of the times and the ratios
        medians of the rounds' ratios, so two rates' quotient can differ a little from the ratio;
        the note gives the ratio of the fastest rounds (`fastest_rounds_ratio`)."""
        k = self.threads
        fastest = lambda times, copies: f"(fastest rounds: {self.fastest_rounds_ratio(times, copies):.2f}x)"  # noqa: E731
        return [
            ("rapideval (1 thread, same rounds)", pairs / statistics.median(self.one), "", ""),
            (f"rapideval ({k} threads)", pairs / statistics.median(self.all_threads),
             f"{self.all_threads_ratio(pairs):.2f}x 1 thr", fastest(self.all_threads, 1)),
            (f"{k} one-thread calls at once", k * pairs / statistics.median(self.at_once),
             f"{self.at_once_ratio(pairs):.2f}x 1 thr", f"(independent calls) {fastest(self.at_once, k)}"),
        ]


    def as_dict(self, pairs: int) -> dict[str, Any]:
        """The figures of `rows` for a bench's JSON output."""
        return {
            "threads": self.threads,
            "pairs_per_s_1_thread_same_rounds": pairs / statistics.median(self.one),
            "pairs_per_s_all_threads": pairs / statistics.median(self.all_threads),
            "all_threads_ratio": self.all_threads_ratio(pairs),
            "all_threads_ratio_fastest_rounds": self.fastest_rounds_ratio(self.all_threads, 1),
            "at_once_ratio": self.at_once_ratio(pairs),
            "at_once_ratio_fastest_rounds": self.fastest_rounds_ratio(self.at_once, self.threads),
            "rounds": len(self.one),
        }


def thread_scaling(fn: Callable[[], Any], rounds: int) -> ThreadScaling:
    """Wall times of `fn` on one thread, on all threads, and of as many one-thread calls of `fn`
    made at once from Python threads as the pool has threads (each call releasing the GIL for its
    rows), over `rounds` interleaved rounds of just those three calls (see `interleaved`). A
    2-thread call waits for its slower thread, so a pause of either core lands on it, and its ratio
    to one thread needs more rounds than a per-core ratio to settle. The calls at once share nothing
    but the machine: their ratio to one call is what the machine gives independent copies of the
    work at that moment (on a shared virtual machine, cores slow each other down through memory and
    the host's other load), a yardstick for the 2-thread figure measured beside it rather than a
    bound on it. Calls that hold the GIL throughout (a Python loop of one-pair calls) take turns
    instead."""
    import rapideval

    rapideval.set_num_threads(0)
    threads = rapideval.get_num_threads()
    with ThreadPoolExecutor(threads) as pool:

        def at_once() -> None:
            for call in [pool.submit(fn) for _ in range(threads)]:
                call.result()

        times, _ = interleaved({"one": (warm(1, fn), fn), "all": (warm(0, fn), fn),
                                "at once": (warm(1, at_once), at_once)}, rounds)
    return ThreadScaling(threads, times["one"], times["all"], times["at once"])


def median_ratio(fast: list[float], fast_pairs: int, slow: list[float], slow_pairs: int) -> float:
    """The median over rounds of (pairs per second of `fast`) / (pairs per second of `slow`)."""
    return statistics.median((fast_pairs / a) / (slow_pairs / b) for a, b in zip(fast, slow))


def agreement(ours: np.ndarray, ref: list[float]) -> str:
    """How many values are bit-identical to the reference's, and the largest difference."""
    ref_arr = np.asarray(ref, dtype=np.float64)
    same = int(np.sum(ours.view(np.int64) == ref_arr.view(np.int64)))
    return f"{same}/{len(ref_arr)} bit-identical, max|diff| {float(np.max(np.abs(ours - ref_arr))):.2e}"


def cpu_model() -> str:
    """The CPU's model name (from /proc/cpuinfo on Linux), else what `platform` knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def library_version(distribution: str) -> str | None:
    """The installed version of a distribution, or None when it is not installed."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


class Report:
    """What a bench measured, for ``--json PATH``: the machine, the date, the versions of rapideval,
    Python and each reference library, the bench's settings, and one record per task holding every rate
    and ratio the bench prints. tools/bench_table.py builds the README's benchmark table from these files.

    A task record: ``task`` (what was measured), ``pairs`` (rows rapideval scored), ``rapideval`` (its
    one-thread rate and, from `ThreadScaling.as_dict`, the scaling to all threads), ``references`` (the
    exact reference first, which the table shows: ``name``, ``library``, ``version``, ``pairs``,
    ``pairs_per_s``, ``speedup_per_core`` = rapideval on one thread over the reference, ``agreement``),
    and optionally ``variants`` (other rapideval entry points) and ``notes``."""

    SCHEMA = 1

    def __init__(self, bench: str, settings: dict[str, Any], libraries: list[str]) -> None:
        self.bench = bench
        self.settings = settings
        self.libraries = libraries
        self.tasks: list[dict[str, Any]] = []

    def reference(self, name: str, library: str, **figures: Any) -> dict[str, Any]:
        """One reference's entry of a task record, with the installed version of ``library``."""
        return {"name": name, "library": library, "version": library_version(library), **figures}

    def add(self, record: dict[str, Any]) -> None:
        self.tasks.append(record)

    def write(self, path: str | None, note: str) -> None:
        """Write the JSON file (nothing when ``path`` is None)."""
        if path is None:
            return
        import rapideval

        out = {
            "schema": self.SCHEMA,
            "bench": self.bench,
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "machine": {"cpu": cpu_model(), "cores": os.cpu_count(), "note": note},
            "versions": {
                "rapideval": rapideval.__version__,
                "python": platform.python_version(),
                **{lib: library_version(lib) for lib in self.libraries},
            },
            "settings": self.settings,
            "tasks": self.tasks,
        }
        with open(path, "w", encoding="utf8") as f:
            json.dump(out, f, indent=1, ensure_ascii=False)
            f.write("\n")
        print(f"\nwritten: {path}", file=sys.stderr)


def add_report_arguments(parser: Any) -> None:
    """``--json PATH`` and ``--note TEXT``, shared by the benches."""
    parser.add_argument("--json", metavar="PATH", help="also write every figure as JSON (for tools/bench_table.py)")
    parser.add_argument("--note", default="", help="a note on the machine for the JSON, e.g. 'shared machine, busy'")
