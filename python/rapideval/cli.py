"""Command line: ``rapideval score [DATA]`` scores a table with deterministic and judged metrics
(:func:`rapideval.evaluate`) and prints a summary table; with no data it scores the example shipped inside
the package (500 rows). ``rapideval compare A B`` tests, metric by metric, whether two result files differ;
``rapideval report RESULTS -o report.html`` writes one self-contained HTML page of a result. ``rapideval
judge`` checks a judge endpoint (``--judge local[:PATH]`` starts a local llama.cpp one).

Exit status: 0 when every row was scored or not applicable; 1 when the run finished with rows in error (see
the summary's error column); 2 for a usage or input error (an unknown metric, a missing column, an unreadable
file); 130 when interrupted (the rows of finished chunks are kept in ``--out`` and the same command resumes).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from importlib import resources
from typing import Any

from . import _core
from .score import DEFAULT_METRICS

# Exit statuses scripts can test.
OK, ROW_ERRORS, USAGE_ERROR, INTERRUPTED = 0, 1, 2, 130


def _column_map(args: argparse.Namespace) -> dict[str, str]:
    """``--column-map column=field`` (repeated or comma-separated), with ``--response-field`` and
    ``--reference-field`` as shortcuts."""
    out: dict[str, str] = {}
    for item in ",".join(args.column_map or []).split(","):
        if not item.strip():
            continue
        column, sep, field = item.partition("=")
        if not sep or not column.strip() or not field.strip():
            raise ValueError(f"--column-map takes column=field pairs, got {item!r}")
        out[column.strip()] = field.strip()
    shortcuts = (("response", args.response_field), ("reference", args.reference_field))
    out.update({column: field for field, column in shortcuts if column is not None and column != field})
    return out


def _judge(args: argparse.Namespace) -> Any:
    if args.judge_model is None and args.base_url is None and not args.batch:
        return None  # evaluate() makes one from the environment when a metric needs it
    from .llm import JudgeClient

    return JudgeClient(args.judge_model, base_url=args.base_url, batch=args.batch or None)


def _cmd_score(args: argparse.Namespace) -> int:
    from .evaluation import evaluate

    if args.dataset is None:
        source = "example.jsonl (shipped with rapideval)"
        context = resources.as_file(resources.files("rapideval") / "data" / "example.jsonl")
    else:
        source = str(args.dataset)
        context = None
    metrics = [m.strip() for m in args.metrics.split(",") if m.strip()]
    if args.threads:
        _core.set_num_threads(args.threads)
    progress = args.progress if args.progress is not None else sys.stderr.isatty()
    start = time.perf_counter()
    with context if context is not None else _nothing() as path:
        result = evaluate(path if path is not None else args.dataset, metrics, judge=_judge(args),
                          column_map=_column_map(args), id_columns=args.id_columns, output=args.out,
                          resume=not args.no_resume, chunk_size=args.chunk_size, encoding=args.encoding,
                          progress=progress)  # fmt: skip
    elapsed = time.perf_counter() - start
    if result.n_rows == 0:
        raise ValueError(f"{source} has no rows to score")
    n_errors = sum(s.n_error for s in result.summary.values())
    if args.json:
        print(json.dumps({"source": source, "seconds": elapsed, **result.metadata()}, ensure_ascii=False))
    else:
        print(f"rapideval score: {result.n_rows} rows from {source}, {len(metrics)} metrics in {elapsed:.3f} s "
              f"({_core.get_num_threads()} threads)")  # fmt: skip
        print(result.table())
        for failure in result.failures[:5]:
            print(f"  row {failure['row']} {failure['metric']}: {failure['status']}: {failure['reason']}")
        if args.out:
            print(f"per-row results written to {args.out}")
    return ROW_ERRORS if n_errors else OK


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


def _cmd_compare(args: argparse.Namespace) -> int:
    from .evaluation.compare import compare

    comparison = compare(args.a, args.b, key=args.key)
    print(json.dumps(comparison, ensure_ascii=False) if args.json else _comparison_table(comparison, args))
    return OK


def _comparison_table(comparison: dict[str, Any], args: argparse.Namespace) -> str:
    head = f"{'metric':<24} {'A':>7} {'B':>7} {'A - B':>8} {'p':>8} {'rows':>8}"
    lines = [f"rapideval compare: A = {args.a}, B = {args.b} ({comparison['method']} test, paired by "
             f"{comparison['key']})", head, "-" * len(head)]  # fmt: skip
    for m, c in comparison["metrics"].items():
        if c["n"] == 0:
            lines.append(f"{m:<24} {'-':>7} {'-':>7} {'-':>8} {'-':>8} {0:>8}")
            continue
        lines.append(f"{m:<24} {c['mean_a']:>7.4f} {c['mean_b']:>7.4f} {c['difference']:>+8.4f} {c['p_value']:>8.4f} "
                     f"{c['n']:>8}")  # fmt: skip
    return "\n".join(lines)


def _cmd_report(args: argparse.Namespace) -> int:
    from .evaluation import EvaluationResult
    from .evaluation.report import write_report

    path = write_report(EvaluationResult.load(args.results), args.output)
    print(f"report written to {path}")
    return OK


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
    from . import __version__
    from .evaluation import metric_names

    parser = argparse.ArgumentParser(prog="rapideval", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--version", action="version", version=f"rapideval {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("score", help="score a table with deterministic and judged metrics; print a summary table")
    p.add_argument("dataset", nargs="?", help=".jsonl, .json, .csv, .tsv or .parquet (default: the shipped example)")
    p.add_argument("--metrics", default=",".join(DEFAULT_METRICS),
                   help=f"comma-separated, from: {', '.join(metric_names())}")  # fmt: skip
    p.add_argument("--out", "--output", dest="out", help="stream the per-row results to this .parquet or .jsonl file "
                   "(resumed by the same command after a stop)")  # fmt: skip
    p.add_argument(
        "--column-map",
        action="append",
        metavar="COLUMN=FIELD",
        help="read a data column as a field, e.g. question=user_input (repeat, or comma-separate)",
    )
    p.add_argument("--response-field", help="the column holding the response (a shortcut for --column-map)")
    p.add_argument("--reference-field", help="the column holding the reference (a shortcut for --column-map)")
    p.add_argument("--id-columns", nargs="*", help="columns carried into the results (default: id and *_id)")
    p.add_argument("--judge-model", help="the judge model of judged metrics (default: $RAPIDEVAL_JUDGE_MODEL)")
    p.add_argument("--base-url", help="the judge's OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)")
    p.add_argument(
        "--batch",
        action="store_true",
        help="judge through the Batch API (half the price, answers within "
        "24 h; a killed run resumes its batches; default: $RAPIDEVAL_JUDGE_BATCH)",
    )
    p.add_argument("--chunk-size", type=int, help="rows per chunk (default: 10000, 256 with a judged metric)")
    p.add_argument("--encoding", default="utf-8", help="the text encoding of a CSV, TSV or JSON file")
    p.add_argument("--no-resume", action="store_true", help="start over even if --out holds a stopped run")
    p.add_argument("--json", action="store_true", help="print the summary as JSON, for machines")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="show a progress bar (default: when stderr is a terminal)")  # fmt: skip
    p.add_argument("--threads", type=int, default=0, help="worker threads (default: one per core)")
    c = sub.add_parser("compare", help="is result A better than result B? a paired test per metric")
    c.add_argument("a", help="a result file (.parquet or .jsonl, from score --out)")
    c.add_argument("b", help="another result file over the same rows")
    c.add_argument("--key", default="row", help="the column that pairs the rows (default: row)")
    c.add_argument("--json", action="store_true", help="print the comparison as JSON")
    r = sub.add_parser("report", help="write one self-contained HTML page of a result file")
    r.add_argument("results", help="a result file (.parquet or .jsonl, from score --out)")
    r.add_argument("-o", "--output", default="report.html", help="the HTML file to write (default: report.html)")
    j = sub.add_parser("judge", help="check a judge endpoint: reported model, structured output, votes, embeddings")
    j.add_argument("--judge", default="openai", help="'openai' (any OpenAI-compatible endpoint) or 'local[:PATH.gguf]'")
    j.add_argument("--model", help="the judge model (default: $RAPIDEVAL_JUDGE_MODEL or gpt-4o-mini)")
    j.add_argument("--base-url", help="the endpoint (default: $OPENAI_BASE_URL or OpenAI's)")
    args = parser.parse_args(argv)
    commands = {"score": _cmd_score, "compare": _cmd_compare, "report": _cmd_report, "judge": _cmd_judge}
    try:
        return commands[args.command](args)
    except KeyboardInterrupt:
        print("rapideval: interrupted; the finished chunks are kept in --out and the same command resumes",
              file=sys.stderr)  # fmt: skip
        return INTERRUPTED
    except (ValueError, TypeError, OSError, ImportError) as e:
        print(f"rapideval: error: {e}", file=sys.stderr)
        return USAGE_ERROR


if __name__ == "__main__":
    sys.exit(main())
