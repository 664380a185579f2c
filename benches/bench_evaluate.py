"""rapideval.evaluate over a large Parquet file: BLEU, ROUGE-L and F1 on every row, streamed to a Parquet output,
against the raw kernels on the same rows (the kernels alone, the rows already in memory as lists).

    PYTHONPATH=python python benches/bench_evaluate.py [ROWS] [RUNS]     # default 10,000,000 rows, 1 run

The data (ROWS rows of 5 to 30 words from a 2,000-word vocabulary, written once under benches/results/) is
read in chunks of 10,000 rows. Printed: evaluate's rows per second and peak resident memory (the child
process's ru_maxrss), and the kernels' rows per second on the first million rows (timed in a child process
of its own so that its lists do not count in evaluate's memory). Asserts nothing.
"""

from __future__ import annotations

import pathlib
import resource
import statistics
import subprocess
import sys
import textwrap
import time

import numpy as np

RESULTS = pathlib.Path(__file__).parent / "results"
METRICS = ["bleu", "rougeL", "f1"]
KERNEL_ROWS = 1_000_000


def _data(rows: int) -> pathlib.Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = RESULTS / f"evaluate_{rows}.parquet"
    if path.exists():
        return path
    RESULTS.mkdir(exist_ok=True)
    rng = np.random.default_rng(0)
    vocabulary = np.array([f"w{i}" for i in range(2000)])
    with pq.ParquetWriter(path, pa.schema([("id", pa.int64()), ("response", pa.string()),
                                           ("reference", pa.string())])) as writer:  # fmt: skip
        for start in range(0, rows, 100_000):
            n = min(100_000, rows - start)
            lengths = rng.integers(5, 31, size=(2, n))
            texts = [[" ".join(vocabulary[rng.integers(0, 2000, k)]) for k in side] for side in lengths]
            writer.write_table(pa.table({"id": np.arange(start, start + n), "response": texts[0],
                                         "reference": texts[1]}))  # fmt: skip
    return path


EVALUATE = textwrap.dedent("""
    import resource, sys, time
    import rapideval
    start = time.perf_counter()
    result = rapideval.evaluate(sys.argv[1], sys.argv[3].split(","), output=sys.argv[2], resume=False)
    seconds = time.perf_counter() - start
    print(result.n_rows / seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
""")

KERNELS = textwrap.dedent("""
    import sys, time
    import pyarrow.parquet as pq
    import rapideval
    table = pq.read_table(sys.argv[1]).slice(0, int(sys.argv[2]))
    responses, references = table.column("response").to_pylist(), table.column("reference").to_pylist()
    start = time.perf_counter()
    rapideval.bleu(responses, references)
    rapideval.rouge(responses, references, rouge_types=["rougeL"])
    rapideval.f1(responses, references)
    print(len(responses) / (time.perf_counter() - start))
""")


def main() -> None:
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    data = _data(rows)
    output = RESULTS / "evaluate_out.parquet"
    speeds, memory, kernels = [], [], []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", EVALUATE, str(data), str(output), ",".join(METRICS)],
                              capture_output=True, text=True, check=True)  # fmt: skip
        speed, rss = map(float, done.stdout.split())
        speeds.append(speed)
        memory.append(rss)
        done = subprocess.run([sys.executable, "-c", KERNELS, str(data), str(min(rows, KERNEL_ROWS))],
                              capture_output=True, text=True, check=True)  # fmt: skip
        kernels.append(float(done.stdout))
        print(f"run: evaluate {speed:,.0f} rows/s, peak RSS {rss:,.0f} MiB; kernels {kernels[-1]:,.0f} rows/s")
    output.unlink(missing_ok=True)
    speed, kernel = statistics.median(speeds), statistics.median(kernels)
    print(f"{rows:,} rows x {METRICS}: evaluate {speed:,.0f} rows/s (median of {runs}), "
          f"{speed / kernel:.0%} of the kernels' {kernel:,.0f} rows/s; peak RSS {max(memory):,.0f} MiB "
          f"(bench process {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MiB)")


if __name__ == "__main__":
    main()
