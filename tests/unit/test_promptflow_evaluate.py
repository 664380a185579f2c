"""rapideval.compat.promptflow's ``evaluate`` against promptflow-evals 0.3.5's own ``evaluate`` (run for real:
it starts a batch run per evaluator in worker processes, offline): same rows (keys, order, value types,
floats bit for bit) and metrics, with column mappings, a target, output_path and a failing row; and
rapideval's own behaviour (the batch protocol, errors, counts, data forms)."""

from __future__ import annotations

import gc
import io
import json
import logging
import math
import random
import subprocess
import sys
import types
import warnings
from typing import Any

import numpy as np
import pandas as pd
import promptflow.evals.evaluators as pf
import pytest

import rapideval.compat.promptflow.evaluators as ours
from rapideval.compat.promptflow.evaluate import BATCH_METHOD, evaluate, stored_float

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # promptflow's SDK imports warn (marshmallow deprecations)
    from promptflow.evals.evaluate import evaluate as pf_evaluate
    from promptflow._sdk._configuration import Configuration
    from promptflow.evals.evaluate._evaluate import _aggregate_metrics

ROWS = [
    {"answer": "Tokyo is the capital of Japan.", "ground_truth": "The capital of Japan is Tokyo.", "q": "Tokyo"},
    {"answer": "The cat sat on the mat", "ground_truth": "A cat is on the mat", "q": "cat"},
    {"answer": "日本語です。", "ground_truth": "日本語", "q": "日本"},
    {"answer": "Paris", "ground_truth": "Lyon", "q": "France", "n": 3},
    {"answer": "None", "ground_truth": "hello world.\nA second line", "q": "hello"},  # F1 fails on this row
    {"answer": "can't stop, won't stop", "ground_truth": "cannot stop and will not stop", "q": "stop"},
]


def evaluators(module: Any) -> dict[str, Any]:
    return {
        "bleu": module.BleuScoreEvaluator(),
        "gleu": module.GleuScoreEvaluator(),
        "meteor": module.MeteorScoreEvaluator(alpha=0.8),
        "f1": module.F1ScoreEvaluator(),
        "rougeL": module.RougeScoreEvaluator(module.RougeType.ROUGE_L),
        "rouge2": module.RougeScoreEvaluator(module.RougeType.ROUGE_2),
    }


def answer_target(q):  # type: ignore[no-untyped-def]
    """A target for both evaluates (promptflow imports it from this module in its workers). No annotations:
    under ``from __future__ import annotations`` promptflow reads ``q: str`` as a complex type and fails."""
    return {"answer": f"The answer is {q}.", "length": len(q) / 3, "k": 3}


@pytest.fixture(scope="module", autouse=True)
def _reap_promptflows_workers() -> Any:
    """promptflow's batch engine leaves its finished worker processes unwaited, with their pipes open; Python
    reaps them at the next process start, and their unclosed pipes then warn in whichever test starts one.
    Reap them here, where they come from."""
    yield
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        subprocess.run([sys.executable, "-c", "pass"], check=True)  # a process start reaps the finished ones
        gc.collect()


@pytest.fixture
def data_file(tmp_path: Any) -> str:
    path = tmp_path / "data.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS), encoding="utf8")
    return str(path)


def _image(value: Any) -> Any:
    """Exact image of a value; promptflow's NaN (a failed or missing value) is rapideval's None."""
    if isinstance(value, float) and math.isnan(value):
        value = None
    return (type(value).__name__, value.hex() if isinstance(value, float) else value)


def _images(result: dict[str, Any]) -> tuple[list[list[tuple[str, Any]]], list[tuple[str, Any]]]:
    rows = [[(k, _image(v)) for k, v in row.items()] for row in result["rows"]]
    return rows, [(k, _image(v)) for k, v in result["metrics"].items()]


def run_promptflow(monkeypatch: pytest.MonkeyPatch, **kwargs: Any) -> dict[str, Any]:
    """promptflow's evaluate, offline: no trace exporter (it would start a local trace service) and
    promptflow's ``telemetry.enabled=false`` set in memory, not in the user's ~/.promptflow (its exporter
    thread retries an unreachable host, logging from a daemon thread as the interpreter exits); pandas'
    FutureWarnings inside promptflow are its own."""
    monkeypatch.setenv("PF_TRACING_SKIP_EXPORTER_SETUP", "true")
    monkeypatch.setitem(Configuration.get_instance()._config, "telemetry", {"enabled": False})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pf_evaluate(**kwargs)


# ---------------------------------------------------------------- against promptflow's evaluate


def test_same_rows_and_metrics_as_promptflow(monkeypatch: pytest.MonkeyPatch, data_file: str) -> None:
    theirs = run_promptflow(monkeypatch, data=data_file, evaluators=evaluators(pf))
    mine = evaluate(data=data_file, evaluators=evaluators(ours))
    assert _images(mine) == _images(theirs)  # keys in order, value types, float bits
    assert theirs["studio_url"] is mine["studio_url"] is None
    assert mine["errors"] == [{"row": 4, "evaluator": "f1", "message": "ValueError: F1ScoreEvaluator: answer must be "
                               "a non-empty string (not blank, not 'None'), got 'None'"}]  # fmt: skip
    assert mine["counts"]["f1.f1_score"] == 5 and mine["counts"]["bleu.bleu_score"] == 6


def test_target_mapping_and_output_path_as_promptflow(
    monkeypatch: pytest.MonkeyPatch, data_file: str, tmp_path: Any
) -> None:
    config = {"f1": {"ground_truth": "${data.q}"},
              "bleu": {"ground_truth": "${target.answer}", "answer": "${data.answer}"}}  # fmt: skip
    theirs_dir, mine_dir = tmp_path / "theirs", tmp_path / "mine"
    theirs_dir.mkdir()
    mine_dir.mkdir()
    chosen = {"bleu": 0, "f1": 0, "rouge2": 0}
    theirs = run_promptflow(monkeypatch, data=data_file, target=answer_target,
                            evaluators={k: evaluators(pf)[k] for k in chosen}, evaluator_config=config,
                            output_path=str(theirs_dir))  # fmt: skip
    mine = evaluate(data=data_file, target=answer_target, evaluators={k: evaluators(ours)[k] for k in chosen},
                    evaluator_config=config, output_path=str(mine_dir))  # fmt: skip
    assert _images(mine) == _images(theirs)
    assert mine["rows"][0]["outputs.answer"] == "The answer is Tokyo."
    written = json.loads((mine_dir / "evaluation_results.json").read_text(encoding="utf8"))
    assert written == json.loads(json.dumps(mine))
    assert (theirs_dir / "evaluation_results.json").exists()


# ---------------------------------------------------------------- rapideval's evaluate on its own


def test_column_mapping_forms_and_data_forms_agree(data_file: str) -> None:
    flat = evaluate(data=data_file, evaluators={"f1": ours.F1ScoreEvaluator()},
                    evaluator_config={"default": {"ground_truth": "${data.q}"}})  # fmt: skip
    nested = evaluate(data=ROWS, evaluators={"f1": ours.F1ScoreEvaluator()},
                      evaluator_config={"f1": {"column_mapping": {"ground_truth": "${data.q}"}}})  # fmt: skip
    frame = evaluate(data=pd.DataFrame(ROWS).drop(columns="n"), evaluators={"f1": ours.F1ScoreEvaluator()},
                     evaluator_config={"f1": {"ground_truth": "${data.q}"}})  # fmt: skip
    assert flat["metrics"] == nested["metrics"] == frame["metrics"]
    assert [r["outputs.f1.f1_score"] for r in flat["rows"]] == [r["outputs.f1.f1_score"] for r in frame["rows"]]
    assert flat["rows"] == nested["rows"]
    tokyo = ours.F1ScoreEvaluator()(answer=ROWS[0]["answer"], ground_truth="Tokyo")["f1_score"]
    assert flat["rows"][0]["outputs.f1.f1_score"] == stored_float(tokyo)
    assert flat["rows"][0]["inputs.n"] is None and flat["rows"][3]["inputs.n"] == 3


def test_output_path_as_a_file(tmp_path: Any) -> None:
    path = tmp_path / "out.json"
    result = evaluate(data=ROWS[:2], evaluators={"bleu": ours.BleuScoreEvaluator()}, output_path=path)
    assert json.loads(path.read_text(encoding="utf8"))["metrics"] == result["metrics"]


def test_a_failing_row_does_not_end_the_run(caplog: pytest.LogCaptureFixture) -> None:
    def flaky(answer: str) -> dict[str, float]:
        if answer == "Paris":
            raise RuntimeError("judge unavailable")
        return {"length": float(len(answer)), "flag": True}

    with caplog.at_level(logging.WARNING, logger="rapideval.compat.promptflow.evaluate"):
        result = evaluate(data=ROWS, evaluators={"flaky": flaky, "f1": ours.F1ScoreEvaluator()})
    assert [r["outputs.flaky.length"] for r in result["rows"]] == [30.0, 22.0, 6.0, None, 4.0, 22.0]
    assert result["rows"][3]["outputs.flaky.flag"] is None
    assert result["errors"] == [
        {"row": 3, "evaluator": "flaky", "message": "RuntimeError: judge unavailable"},
        {"row": 4, "evaluator": "f1", "message": "ValueError: F1ScoreEvaluator: answer must be a non-empty string "
         "(not blank, not 'None'), got 'None'"},
    ]  # fmt: skip
    assert result["metrics"]["flaky.length"] == (30 + 22 + 6 + 4 + 22) / 5
    assert "flaky.flag" not in result["metrics"]  # a bool column with a failed row is not numeric to pandas
    assert result["counts"] == {"flaky.length": 5, "f1.f1_score": 5}
    assert "flaky failed on 1 of 6 rows (first: row 3: RuntimeError: judge unavailable)" in caplog.text


def test_missing_inputs() -> None:
    rows = [{"answer": "a", "ground_truth": "a"}, {"answer": "b"}]
    result = evaluate(data=rows, evaluators={"bleu": ours.BleuScoreEvaluator()})
    assert result["rows"][1]["outputs.bleu.bleu_score"] is None
    assert result["errors"] == [{"row": 1, "evaluator": "bleu",
                                 "message": "evaluator bleu needs 'ground_truth', but this row has no column "
                                            "'ground_truth'"}]  # fmt: skip
    with pytest.raises(ValueError, match=r"Missing required inputs for evaluator bleu : \['ground_truth'\]"):
        evaluate(data=[{"answer": "a"}], evaluators={"bleu": ours.BleuScoreEvaluator()})
    with pytest.raises(ValueError, match=r"Missing required inputs for target : \['q'\]"):
        evaluate(data=[{"answer": "a"}], target=answer_target, evaluators={})


def test_batch_protocol_is_called_once_with_every_row() -> None:
    calls: list[list[dict[str, Any]]] = []

    class Batched:
        def __call__(self, *, answer: str, weight: float = 2.0, extra: Any = None) -> dict[str, Any]:
            raise AssertionError("evaluate must use the batch method")

        def rapideval_batch(self, rows: list[dict[str, Any]]) -> list[dict[str, Any] | Exception]:
            calls.append(rows)
            return [ValueError("empty") if not r["answer"] else {"len": len(r["answer"])} for r in rows]

    assert BATCH_METHOD == "rapideval_batch"
    data = [{"answer": "ab", "weight": 9.0, "extra": 1}, {"answer": ""}, {"answer": "abc"}]
    result = evaluate(data=data, evaluators={"b": Batched()})
    # weight has a non-None default: as promptflow, it is filled only through a mapping.
    assert calls == [[{"answer": "ab", "extra": 1}, {"answer": ""}, {"answer": "abc"}]]
    assert [r["outputs.b.len"] for r in result["rows"]] == [2.0, None, 3.0]
    assert result["errors"] == [{"row": 1, "evaluator": "b", "message": "ValueError: empty"}]
    evaluate(data=data, evaluators={"b": Batched()}, evaluator_config={"b": {"weight": "${data.weight}"}})
    assert calls[-1][0] == {"answer": "ab", "weight": 9.0, "extra": 1}


def test_a_raising_batch_fails_every_row() -> None:
    class Broken:
        def __call__(self, *, answer: str) -> dict[str, Any]:
            return {}

        def rapideval_batch(self, rows: list[dict[str, Any]]) -> list[dict[str, Any] | Exception]:
            raise ConnectionError("down")

    result = evaluate(data=ROWS[:2], evaluators={"x": Broken()})
    assert [e["message"] for e in result["errors"]] == ["ConnectionError: down"] * 2
    assert result["metrics"] == {} and "outputs.x.score" not in result["rows"][0]


def test_plain_functions_literals_and_non_dict_results() -> None:
    def length(answer: str, unit: str) -> float:
        return len(answer) / (2 if unit == "half" else 1)

    result = evaluate(data=ROWS[:2], evaluators={"len": length}, evaluator_config={"len": {"unit": "half"}})
    assert [r["outputs.len.output"] for r in result["rows"]] == [15.0, 11.0]
    assert result["metrics"] == {"len.output": 13.0}


def test_target_failure_skips_the_row() -> None:
    def target(q: str) -> dict[str, str]:
        if q == "cat":
            raise KeyError("no answer")
        return {"answer": q}

    data = [*ROWS[:3], {"answer": "x", "ground_truth": "y"}]
    result = evaluate(data=data, target=target, evaluators={"bleu": ours.BleuScoreEvaluator()})
    assert result["errors"] == [{"row": 1, "evaluator": None, "message": "KeyError: 'no answer'"},
                                {"row": 3, "evaluator": None, "message": "target needs 'q', but this row has no "
                                                                         "column 'q'"}]  # fmt: skip
    assert result["rows"][1]["outputs.answer"] is None and result["rows"][1]["outputs.bleu.bleu_score"] is None
    assert result["rows"][0]["outputs.answer"] == "Tokyo"


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"data": None, "evaluators": {}}, ValueError, "data must be provided for evaluation."),
        ({"data": ROWS, "evaluators": [ours.F1ScoreEvaluator()]}, ValueError, "evaluators must be a dictionary."),
        ({"data": ROWS, "evaluators": {"x": 3}}, TypeError, r"evaluators\['x'\] must be callable"),
        ({"data": ROWS, "evaluators": {}, "target": "f"}, ValueError, "target must be a callable function."),
        ({"data": 3, "evaluators": {}}, ValueError, "data must be a JSONL path, a list of dicts or a pandas DataFrame"),
        ({"data": [1], "evaluators": {}}, ValueError, "data row 0 is a int"),
        ({"data": ROWS, "evaluators": {"f1": ours.F1ScoreEvaluator()}, "evaluator_config": {"f1": {"answer": "${q}"}}},
         ValueError, "Unexpected references detected in 'evaluator_config'"),
        ({"data": ROWS, "evaluators": {}, "evaluator_config": {"f1": {"answer": 3}}}, TypeError, "must be a str"),
    ],
)  # fmt: skip
def test_argument_errors(kwargs: dict[str, Any], error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        evaluate(**kwargs)


# ---------------------------------------------------------------- promptflow's storage and aggregation


def test_stored_float_is_pandas_json_round_trip() -> None:
    rng = random.Random(7)
    values = [rng.random() for _ in range(20_000)]
    values += [rng.random() * 10.0 ** rng.randint(-25, 20) for _ in range(20_000)]
    values += [-v for v in values[:2000]]
    values += [0.0, -0.0, 1.0, 2 / 3, 1e-15, 9.99999999995e-16, 1e16, 0.99999999999, 5e-11]
    frame = pd.DataFrame({"v": values})
    back = pd.read_json(io.StringIO(frame.to_json(orient="records", lines=True)), orient="records", lines=True)["v"]
    assert [stored_float(v).hex() for v in values] == [float(b).hex() for b in back]  # type: ignore[union-attr]
    assert stored_float(math.nan) is None and stored_float(math.inf) is None


class _ContentSafety:
    """Counts as one of promptflow's content-safety evaluators (its module name is what promptflow checks)."""

    __module__ = "promptflow.evals.evaluators._fake"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, *, answer: str) -> dict[str, Any]:
        if self.rng.random() < 0.1:
            raise RuntimeError("service error")
        return {"violence": "Low", "violence_score": self.rng.randint(0, 7), "violence_reason": "r",
                "protected_material_label": self.rng.random() < 0.3, "score": self.rng.random()}  # fmt: skip


def test_aggregation_is_promptflows_aggregate_metrics(monkeypatch: pytest.MonkeyPatch) -> None:
    # promptflow finds an evaluator's module through sys.modules.
    monkeypatch.setitem(sys.modules, _ContentSafety.__module__, types.ModuleType(_ContentSafety.__module__))
    rng = random.Random(3)
    rows = [{"answer": f"a{i}"} for i in range(137)]
    result = evaluate(data=rows, evaluators={"cs": _ContentSafety(rng), "f1": ours.F1ScoreEvaluator()},
                      evaluator_config={"f1": {"ground_truth": "${data.answer}"}})  # fmt: skip
    outputs = pd.DataFrame([{k: np.nan if v is None else v for k, v in r.items() if k.startswith("outputs.")}
                            for r in result["rows"]])  # fmt: skip
    want = _aggregate_metrics(outputs, {"cs": _ContentSafety(rng), "f1": ours.F1ScoreEvaluator()})
    assert list(result["metrics"]) == list(want) == ["cs.score", "f1.f1_score", "cs.violence_defect_rate",
                                                       "cs.protected_material_defect_rate"]  # fmt: skip
    assert [_image(v) for v in result["metrics"].values()] == [_image(float(v)) for v in want.values()]
    assert result["counts"]["cs.violence_defect_rate"] == 137 - len(result["errors"])
