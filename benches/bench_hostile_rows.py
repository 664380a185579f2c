"""`rapideval score` on a large file where every 7th row holds a hostile cell (issue 41): every row must come out,
the hostile ones with their own status, in bounded memory.

    python benches/bench_hostile_rows.py [--rows 1000000] [--metrics f1,bleu,chrf]

The hostile cells, in turn: a lone surrogate in the response (valid JSON), an empty response, a blank
reference, the string "None", an id above 2^63, an id with a lone surrogate; every 500th of them a JSON
line nested 100,000 deep or a 300,000-character response; and string ids after int ids (second half).
Prints the wall time, the peak RSS of the scoring process, the row accounting of the output and its
statuses per metric.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq

HOSTILE = [
    lambda i: f'{{"id": {i}, "response": "a \\ud800 b", "reference": "a b"}}',
    lambda i: f'{{"id": {i}, "response": "", "reference": "a b"}}',
    lambda i: f'{{"id": {i}, "response": "a b", "reference": "   "}}',
    lambda i: f'{{"id": {i}, "response": "None", "reference": "None"}}',
    lambda i: json.dumps({"id": 2**70 + i, "response": "a b", "reference": "a b"}),
    lambda i: f'{{"id": "x\\udc00{i}", "response": "a b", "reference": "a b"}}',
]

#: Every 500th hostile row instead: a line nested 100,000 deep, or a 300,000-character response (200-300 KB
#: each; as every 7th row they would make a 1,000,000-row file of 9 GB).
LARGE = [
    lambda i: '{"id": ' + str(i) + ', "response": ' + "[" * 100_000 + "]" * 100_000 + "}",
    lambda i: json.dumps({"id": i, "response": "word " * 60_000, "reference": "word word"}),
]


def write(path: Path, rows: int) -> None:
    with path.open("w") as f:
        for i in range(rows):
            if i % 7 == 6 and (i // 7) % 500 == 499:
                f.write(LARGE[(i // 3500) % len(LARGE)](i) + "\n")
            elif i % 7 == 6:
                f.write(HOSTILE[(i // 7) % len(HOSTILE)](i) + "\n")
            elif i > rows // 2:
                f.write(json.dumps({"id": f"s{i}", "response": f"the cat {i} sat on the mat",
                                    "reference": "the cat sat on a mat"}) + "\n")
            else:
                f.write(json.dumps({"id": i, "response": f"the cat {i} sat on the mat",
                                    "reference": "the cat sat on a mat"}) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--metrics", default="f1,bleu,chrf")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data, out = Path(tmp) / "hostile.jsonl", Path(tmp) / "out.parquet"
        write(data, args.rows)
        size = data.stat().st_size
        before = data.read_bytes()
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "rapideval", "score", str(data), "--metrics", args.metrics,
                               "--out", str(out), "--no-progress"], capture_output=True, text=True,
                              env={**os.environ})
        wall = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        unchanged = data.read_bytes() == before
        table = pq.read_table(out)
        rows = table.column("row").to_pylist()
        print(f"{args.rows:,} rows ({size / 1e6:.0f} MB), every 7th hostile; metrics {args.metrics}")
        print(f"exit status {done.returncode}; {wall:.1f} s; peak RSS of the scoring process {peak:.0f} MiB")
        print(f"rows out: {len(rows):,} (each row once: {sorted(rows) == list(range(args.rows))}); "
              f"input unchanged: {unchanged}")
        print(f"id column type: {table.schema.field('id').type}")
        for metric in args.metrics.split(","):
            counts = collections.Counter(table.column(f"{metric}.status").to_pylist())
            print(f"  {metric}: " + ", ".join(f"{k} {v:,}" for k, v in sorted(counts.items())))
        print(done.stderr.strip() or "(nothing on stderr)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
