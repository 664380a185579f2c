"""Command line: ``rapideval score [DATASET]`` prints a summary table of deterministic metrics; with no
dataset it scores the example shipped inside the package (500 rows). ``rapideval judge`` checks a judge
endpoint (``--judge local[:PATH]`` starts a local llama.cpp one): what it reports, what it accepts, how fast.
"""

from __future__ import annotations

import argparse
import csv
import json
import pathlib
import sys
import time
from importlib import resources
from typing import Any, Sequence

from . import _core
from ._inputs import read_jsonl
from .score import DEFAULT_METRICS, METRICS, score, summarize


def _read_rows(path: pathlib.Path) -> list[dict[str, Any]]:
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        return read_jsonl(path)
    if suffix == ".json":
        with open(path, encoding="utf8") as f:
            data = json.load(f)
        if not isinstance(data, list):
            raise ValueError(f"{path}: expected a JSON list of objects")
        return data
    if suffix in (".csv", ".tsv"):
        with open(path, encoding="utf8", newline="") as f:
            return list(csv.DictReader(f, delimiter="\t" if suffix == ".tsv" else ","))
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pylist()
    raise ValueError(f"{path}: unsupported format {suffix!r} (use .jsonl, .json, .csv, .tsv or .parquet)")


def _column(rows: list[dict[str, Any]], field: str, source: str) -> list[Any]:
    out = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or field not in row:
            raise ValueError(f"{source}: row {i} has no field {field!r}")
        out.append(row[field])
    return out


def _cmd_score(args: argparse.Namespace) -> int:
    if args.dataset is None:
        source = "example.jsonl (shipped with rapideval)"
        with resources.as_file(resources.files("rapideval") / "data" / "example.jsonl") as p:
            rows = _read_rows(p)
    else:
        source = str(args.dataset)
        rows = _read_rows(pathlib.Path(args.dataset))
    metrics = [m.strip() for m in args.metrics.split(",") if m.strip()]
    if args.threads:
        _core.set_num_threads(args.threads)
    responses = _column(rows, args.response_field, source)
    references = _column(rows, args.reference_field, source)
    start = time.perf_counter()
    results = score(responses, references, metrics)
    elapsed = time.perf_counter() - start

    print(f"rapideval score: {len(rows)} rows from {source}, {len(metrics)} metrics in {elapsed:.3f} s "
          f"({_core.get_num_threads()} threads)")
    header = f"{'metric':<12} {'mean':>8} {'std':>8} {'min':>8} {'max':>8} {'n':>7}  reference"
    print(header)
    print("-" * len(header))
    for name in metrics:
        s = summarize(name, results[name])
        print(f"{name:<12} {s.mean:>8.4f} {s.std:>8.4f} {s.minimum:>8.4f} {s.maximum:>8.4f} {s.n:>7}  {METRICS[name].reference}")
    if args.output:
        with open(args.output, "w", encoding="utf8") as f:
            for i in range(len(rows)):
                f.write(json.dumps({"row": i, **{m: float(results[m][i]) for m in metrics}}) + "\n")
        print(f"per-row scores written to {args.output}")
    return 0


def _judge_client(args: argparse.Namespace) -> Any:
    """The judge named by ``--judge``: ``openai`` (any OpenAI-compatible endpoint: ``--base-url``,
    ``--model``, or OPENAI_API_KEY / OPENAI_BASE_URL / RAPIDEVAL_JUDGE_MODEL) or ``local[:PATH]`` (a llama.cpp
    server this process starts on a GGUF file, SmolLM2-135M-Instruct by default)."""
    from .llm import JudgeClient

    kind, _, path = args.judge.partition(":")
    if kind == "local":
        return JudgeClient.local(path or None, cache=None)
    if kind == "openai" and not path:
        return JudgeClient(args.model, base_url=args.base_url, cache=None)
    raise ValueError(f"--judge must be 'openai', 'local' or 'local:PATH', got {args.judge!r}")


def _cmd_judge(args: argparse.Namespace) -> int:
    import openai

    try:
        with _judge_client(args) as judge:
            return _check_judge(judge)
    except openai.OpenAIError as e:  # no API key: the openai client refuses before any call
        raise ValueError(str(e)) from None


def _check_judge(judge: Any) -> int:
    """One structured request with two votes, then one embedding; prints what the endpoint did."""
    from pydantic import BaseModel, Field

    from .llm import JudgeError, JudgeResult, Sampling

    class Check(BaseModel):
        score: int = Field(ge=1, le=5)

    ask = [{"role": "user", "content": "Rate from 1 to 5 how polite this is: 'Thank you kindly.' Reply in JSON."}]
    print(f"endpoint   {judge.endpoint}")
    start = time.perf_counter()
    result = judge.judge(ask, schema=Check, field="score", votes=2, sampling=Sampling(temperature=0.7))
    elapsed = time.perf_counter() - start
    if not isinstance(result, JudgeResult):
        print(f"judge      failed: {result.cause}: {result.message}")
        return 1
    print(f"model      {result.model} (asked for {judge.model})")
    print(f"format     {judge.format_mode()}")
    votes = "one request" if judge.n_honoured() else "one request per vote"
    print(f"votes      {votes}; verdicts {[v.score for v in result.verdicts]}")
    u = result.usage
    cost = "unknown (no price for this model)" if u.cost_usd is None else f"${u.cost_usd:.6f}"
    estimated = ", estimated" if u.estimated else ""
    print(f"usage      {u.calls} call(s), {u.prompt_tokens} + {u.completion_tokens} tokens{estimated}, {cost}")
    print(f"latency    {elapsed:.2f} s")
    try:
        print(f"embeddings {judge.embed(['hello']).shape[1]} dimensions ({judge.embedding_model})")
    except JudgeError as e:
        print(f"embeddings unavailable: {e}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rapideval", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("score", help="score a dataset with deterministic metrics and print a summary table")
    p.add_argument("dataset", nargs="?", help=".jsonl, .json, .csv, .tsv or .parquet (default: the shipped example)")
    p.add_argument("--response-field", default="response")
    p.add_argument("--reference-field", default="reference")
    p.add_argument("--metrics", default=",".join(DEFAULT_METRICS), help=f"comma-separated, from: {', '.join(METRICS)}")
    p.add_argument("--output", help="write per-row scores to this .jsonl file")
    p.add_argument("--threads", type=int, default=0, help="worker threads (default: one per core)")
    j = sub.add_parser("judge", help="check a judge endpoint: reported model, structured output, votes, embeddings")
    j.add_argument("--judge", default="openai", help="'openai' (any OpenAI-compatible endpoint) or 'local[:PATH.gguf]'")
    j.add_argument("--model", help="the judge model (default: $RAPIDEVAL_JUDGE_MODEL or gpt-4o-mini)")
    j.add_argument("--base-url", help="the endpoint (default: $OPENAI_BASE_URL or OpenAI's)")
    args = parser.parse_args(argv)
    try:
        return _cmd_score(args) if args.command == "score" else _cmd_judge(args)
    except (ValueError, TypeError, OSError, ImportError) as e:
        print(f"rapideval: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
