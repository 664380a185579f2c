"""Rows per second of promptflow-style evaluation with BLEU, ROUGE-L and F1: rapideval's drop-in
``evaluate`` (rapideval.compat.promptflow), promptflow-evals 0.3.5's own ``evaluate``, and
promptflow's evaluator objects called row after row in a loop.

    python benches/bench_promptflow_evaluators.py [--rows 2000] [--repeats 5]

The rows are --rows distinct pairs of real prose (see ``_common.load_pairs``) in a JSONL file, which both
``evaluate``s read. rapideval's ``evaluate`` and the loop are timed --repeats times (the median is
printed); promptflow's ``evaluate`` once (it submits one batch run per evaluator to worker processes,
a fixed start-up cost of several seconds that is part of what a user waits for). The last column says
whether rapideval's rows and metrics are bit-identical to promptflow's ``evaluate``'s. rapideval uses
all cores (its kernels release the GIL); promptflow's batch runs use its worker processes.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import warnings
from typing import Any

import rapideval
from _common import load_pairs, median_time
from rapideval.compat.promptflow import evaluators as ours
from rapideval.compat.promptflow.evaluate import evaluate



def evaluators(module: Any) -> dict[str, Any]:
    return {"bleu": module.BleuScoreEvaluator(), "rouge": module.RougeScoreEvaluator(module.RougeType.ROUGE_L),
            "f1": module.F1ScoreEvaluator()}  # fmt: skip


def image(result: dict[str, Any]) -> Any:
    """Rows and metrics with exact floats; promptflow's NaN is rapideval's None."""

    def one(v: Any) -> Any:
        if isinstance(v, float) and math.isnan(v):
            return None
        return (type(v).__name__, v.hex() if isinstance(v, float) else v)

    return [{k: one(v) for k, v in r.items()} for r in result["rows"]], {k: one(v) for k, v in result["metrics"].items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    os.environ["PF_TRACING_SKIP_EXPORTER_SETUP"] = "true"  # promptflow would start a local trace service
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # promptflow's imports warn (marshmallow deprecations)
        import promptflow.evals.evaluators as pf
        from promptflow._sdk._configuration import Configuration
        from promptflow.evals.evaluate import evaluate as pf_evaluate
    # promptflow's telemetry.enabled=false, in memory: offline, its exporter only retries an unreachable host.
    Configuration.get_instance()._config["telemetry"] = {"enabled": False}

    answers, truths = load_pairs(args.rows)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "data.jsonl")
        with open(path, "w", encoding="utf8") as f:
            for a, g in zip(answers, truths):
                f.write(json.dumps({"answer": a, "ground_truth": g}) + "\n")

        evaluate(data=path, evaluators=evaluators(ours))  # warm-up: the first METEOR/tokenizer tables
        t_ours, mine = median_time(lambda: evaluate(data=path, evaluators=evaluators(ours)), args.repeats)

        reference = evaluators(pf)

        def loop() -> None:
            for a, g in zip(answers, truths):
                for evaluator in reference.values():
                    evaluator(answer=a, ground_truth=g)

        loop_repeats = max(1, args.repeats // 2)
        t_loop, _ = median_time(loop, loop_repeats)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pandas FutureWarnings inside promptflow
            t_pf, theirs = median_time(lambda: pf_evaluate(data=path, evaluators=evaluators(pf)), 1)

    same = image(mine) == image(theirs)
    n = args.rows
    print(f"\nBLEU + ROUGE-L + F1 on {n:,} rows of real prose ({os.cpu_count()} cores, "
          f"rapideval on {rapideval.get_num_threads()} threads, Python {sys.version.split()[0]})")  # fmt: skip
    print(f"{'':44} {'rows/s':>10} {'seconds':>9} {'time vs ours':>13}")
    table = [
        (f"rapideval evaluate (median of {args.repeats})", t_ours),
        ("promptflow-evals 0.3.5 evaluate (one run)", t_pf),
        (f"promptflow evaluators in a loop (median of {loop_repeats})", t_loop),
    ]
    for label, seconds in table:
        print(f"{label:44} {n / seconds:>10,.0f} {seconds:>9.3f} {seconds / t_ours:>12.0f}x")
    print(f"rapideval's rows and metrics bit-identical to promptflow's evaluate: {same}")


if __name__ == "__main__":
    main()
