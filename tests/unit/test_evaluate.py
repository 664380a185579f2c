"""rapideval.evaluate over every input form, with bad cells, wrong columns, encodings, and runs that stop and
resume (a Ctrl-C in the process, and kill -9 of a child process half way through a million rows)."""

from __future__ import annotations

import csv
import json
import math
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import rapideval
from rapideval.evaluation import EvaluationResult, evaluate, metrics as evaluation_metrics

METRICS = ["bleu", "rougeL", "f1", "ter"]
WORDS = "the a cat dog sat on mat rug capital of France Paris is was it in today London raining".split()


def _rows(n: int, seed: int = 0) -> list[dict]:
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        reference = " ".join(rng.choice(WORDS, rng.integers(3, 12)))
        response = " ".join(w if rng.random() < 0.6 else str(rng.choice(WORDS)) for w in reference.split())
        rows.append({"id": f"q{i}", "answer": response, "reference": reference, "extra": i})
    rows[3]["answer"] = None  # a missing cell: not applicable
    rows[5]["reference"] = None
    return rows


def _metric_columns(result: EvaluationResult) -> dict:
    table = result.to_arrow()
    return {c: table.column(c).to_pylist() for c in table.column_names if c == "row" or c.split(".")[0] in METRICS}


def _write_forms(rows: list[dict], tmp_path) -> dict:
    """The same rows as every form evaluate() reads."""
    import datasets
    import polars as pl

    table = pa.Table.from_pylist(rows)
    paths = {}
    paths["jsonl"] = tmp_path / "rows.jsonl"
    paths["jsonl"].write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    paths["json"] = tmp_path / "rows.json"
    paths["json"].write_text(json.dumps(rows), encoding="utf-8")
    for suffix, delimiter in (("csv", ","), ("tsv", "\t")):
        paths[suffix] = tmp_path / f"rows.{suffix}"
        with open(paths[suffix], "w", encoding="utf-8-sig", newline="") as f:  # with a byte order mark
            writer = csv.DictWriter(f, fieldnames=list(rows[0]), delimiter=delimiter)
            writer.writeheader()
            writer.writerows(rows)
    paths["parquet"] = tmp_path / "rows.parquet"
    pq.write_table(table, paths["parquet"], row_group_size=7)  # row groups that do not match the chunks
    return {
        "list": rows,
        "pandas": pd.DataFrame(rows),
        "polars": pl.DataFrame(rows),
        "arrow": table,
        "reader": pa.RecordBatchReader.from_batches(table.schema, table.to_batches(max_chunksize=11)),
        "huggingface": datasets.Dataset.from_list(rows).select(range(len(rows))),
        **{name: str(path) for name, path in paths.items()},
    }


def test_every_input_form_gives_the_same_rows(tmp_path) -> None:
    rows = _rows(60)
    expected = None
    for name, data in _write_forms(rows, tmp_path).items():
        result = evaluate(data, METRICS, column_map={"answer": "response"}, chunk_size=16)
        got = _metric_columns(result)
        assert result.to_arrow().column("id").to_pylist() == [r["id"] for r in rows], name
        if expected is None:
            expected = got
        assert got == expected, name
        assert result.summary["bleu"].n_ok == 58 and result.summary["bleu"].n_not_applicable == 2, name
    # The values are the kernels' on the rows that have both texts.
    good = [r for r in rows if r["answer"] is not None and r["reference"] is not None]
    kernel = rapideval.bleu([r["answer"] for r in good], [r["reference"] for r in good]).tolist()
    assert [v for v in expected["bleu"] if v is not None] == kernel


def test_bad_cells_are_row_statuses_and_the_run_goes_on(tmp_path) -> None:
    rows = [{"response": "a cat", "reference": "a cat"}, {"response": 3, "reference": "x"},
            {"response": None, "reference": "y"}, {"response": float("nan"), "reference": "z"},
            {"response": "b", "reference": ["b", "c"]}]  # fmt: skip
    result = evaluate(rows, ["f1", "bleu"])
    table = result.to_arrow().to_pylist()
    assert [r["f1.status"] for r in table] == ["ok", "error", "not_applicable", "not_applicable", "ok"]
    assert table[1]["f1.cause"] == "invalid_input"
    assert table[1]["f1.reason"] == "row 1, column 'response': expected text, got int (metric 'f1')"
    assert table[2]["bleu.reason"] == "row 2, column 'response': no response (metric 'bleu')"
    assert table[1]["f1"] is None and table[0]["f1"] == 1.0
    s = result.summary["f1"]
    assert (s.n_ok, s.n_not_applicable, s.n_error, s.errors_by_cause) == (2, 2, 1, {"invalid_input": 1})
    assert [f["row"] for f in result.failures if f["metric"] == "f1"] == [1, 2, 3]
    # A line that is not JSON is an error of that row only.
    path = tmp_path / "bad.jsonl"
    path.write_text('{"response": "a", "reference": "a"}\n{not json\n\n[1, 2]\n{"response": "b", "reference": "b"}\n',
                    encoding="utf-8")  # fmt: skip
    table = evaluate(str(path), ["f1"]).to_arrow().to_pylist()
    assert [r["f1.status"] for r in table] == ["ok", "error", "error", "ok"]
    assert table[1]["f1.reason"] == "row 1: line 2 is not valid JSON (Expecting property name enclosed in double " \
        "quotes) (metric 'f1')"
    assert table[2]["f1.reason"].startswith("row 2: line 4 is a JSON list")


def test_wrong_columns_and_metrics_name_what_exists(tmp_path) -> None:
    rows = [{"question": "q", "answer": "Paris", "truth": "Paris"}]
    with pytest.raises(ValueError, match=r"needs a 'reference' column.*its columns: \['question', 'answer', 'truth'\]"):
        evaluate(rows, ["f1"])
    with pytest.raises(ValueError, match="column_map names column 'gold'"):
        evaluate(rows, ["f1"], column_map={"gold": "reference"})
    assert evaluate(rows, ["f1"], column_map={"truth": "reference"}).summary["f1"].mean == 1.0  # answer: v1 name
    with pytest.raises(ValueError, match="unknown metric 'blue'; known: bleu, gleu"):
        evaluate(rows, ["blue"])
    with pytest.raises(TypeError, match="DiscreteMetric.*not numbers on a fixed scale"):
        evaluate(rows, [rapideval.judged.DiscreteMetric("label", ["yes", "no"], "{response}")])
    with pytest.raises(ValueError, match="id_columns \\['key'\\]"):
        evaluate(rows, ["f1"], column_map={"truth": "reference"}, id_columns=["key"])


def test_encodings(tmp_path) -> None:
    latin = tmp_path / "latin.csv"
    latin.write_bytes("response,reference\ncafé crème,café\nthé,thé\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"latin.csv: line 2 is not utf-8 text .*pass encoding="):
        evaluate(str(latin), ["f1"])
    result = evaluate(str(latin), ["f1"], encoding="latin-1")
    assert result.summary["f1"].n_ok == 2 and result.summary["f1"].max == 1.0
    empty = tmp_path / "empty.csv"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match="empty.csv: the file is empty"):
        evaluate(str(empty), ["f1"])
    header_only = tmp_path / "header.csv"
    header_only.write_text("response,reference\n", encoding="utf-8")
    result = evaluate(str(header_only), ["f1"])
    assert result.n_rows == 0 and result.summary["f1"].mean is None and result.summary["f1"].n_ok == 0


def test_summary_interval_and_worst_rows() -> None:
    rows = _rows(200)
    result = evaluate(rows, ["f1", "ter"], column_map={"answer": "response"})
    table = result.to_arrow()
    values = np.array([v for v in table.column("f1").to_pylist() if v is not None])
    s = result.summary["f1"]
    assert math.isclose(s.mean, values.mean(), rel_tol=1e-12) and s.ci_method == "bootstrap"
    ci = rapideval.bootstrap_ci(values)
    assert (s.ci_low, s.ci_high) == (ci.low, ci.high) and s.ci_low < s.mean < s.ci_high
    assert math.isclose(s.std, values.std(ddof=1), rel_tol=1e-9)
    f1 = table.column("f1").to_pylist()
    worst = result.worst["f1"]
    assert [f1[r] for r in worst] == sorted(v for v in f1 if v is not None)[: len(worst)]
    ter = table.column("ter").to_pylist()
    assert ter[result.worst["ter"][0]] == max(v for v in ter if v is not None)  # lower is better
    assert result.summary["ter"].higher_is_better is False
    assert result.signatures["f1"].startswith("f1|promptflow-evals 0.3.5") and "rapideval:" in result.signatures["f1"]


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_ctrl_c_keeps_finished_chunks_and_the_same_call_resumes(tmp_path, monkeypatch, suffix) -> None:
    rows = _rows(100)
    whole = evaluate(rows, METRICS, column_map={"answer": "response"}, chunk_size=10)
    output = tmp_path / f"out{suffix}"
    real = evaluation_metrics.run_chunk
    calls = []

    def interrupted(*args, **kwargs):
        calls.append(args[3])
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr("rapideval.evaluation.run_chunk", interrupted)
    with pytest.raises(KeyboardInterrupt):
        evaluate(rows, METRICS, column_map={"answer": "response"}, chunk_size=10, output=output)
    monkeypatch.undo()
    calls.clear()
    monkeypatch.setattr("rapideval.evaluation.run_chunk", lambda *a, **k: (calls.append(a[3]), real(*a, **k))[1])
    resumed = evaluate(rows, METRICS, column_map={"answer": "response"}, chunk_size=10, output=output)
    assert calls == list(range(30, 100, 10))  # the three finished chunks are not scored again
    assert resumed.to_arrow().equals(whole.to_arrow())
    assert resumed.summary == whole.summary
    # A finished output is read back; other settings are refused.
    calls.clear()
    again = evaluate(rows, METRICS, column_map={"answer": "response"}, chunk_size=10, output=output)
    assert calls == [] and again.summary == whole.summary and again.to_arrow().equals(whole.to_arrow())
    with pytest.raises(ValueError, match="holds another run .*chunk_size"):
        evaluate(rows, METRICS, column_map={"answer": "response"}, chunk_size=20, output=output)
    fresh = evaluate(rows, METRICS, column_map={"answer": "response"}, chunk_size=20, output=output, resume=False)
    assert fresh.to_arrow().equals(whole.to_arrow())


KILLED_RUN = textwrap.dedent("""
    import sys
    import rapideval
    rapideval.evaluate(sys.argv[1], ["f1"], output=sys.argv[2], chunk_size=20_000)
""")


def test_kill_9_half_way_through_a_million_rows_then_resume(tmp_path) -> None:
    n = 1_000_000
    rng = np.random.default_rng(1)
    words = np.array(WORDS)
    refs = [" ".join(words[rng.integers(0, len(words), 6)]) for _ in range(1000)]
    data = tmp_path / "million.parquet"
    pq.write_table(pa.table({"id": np.arange(n), "response": [refs[(i * 7) % 1000] for i in range(n)],
                             "reference": [refs[i % 1000] for i in range(n)]}), data)  # fmt: skip
    output = tmp_path / "scores.parquet"
    child = subprocess.Popen([sys.executable, "-c", KILLED_RUN, str(data), str(output)])
    progress = tmp_path / "scores.parquet.parts" / "progress.json"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and child.poll() is None:
        if progress.exists() and json.loads(progress.read_text())["rows"] >= n // 2:
            break
        time.sleep(0.05)
    assert child.poll() is None, "the run ended before it could be killed half way"
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    done = json.loads(progress.read_text())["rows"]
    assert n // 2 <= done < n and not output.exists()
    resumed = rapideval.evaluate(str(data), ["f1"], output=output, chunk_size=20_000)
    uninterrupted = rapideval.evaluate(str(data), ["f1"], output=tmp_path / "whole.parquet", chunk_size=20_000)
    assert pq.read_table(output).equals(pq.read_table(tmp_path / "whole.parquet"))
    assert resumed.summary == uninterrupted.summary and resumed.n_rows == n


def test_each_registry_name_yields_its_own_column() -> None:
    from rapideval.evaluation.metrics import names, resolve

    listed = names()
    assert len(listed) == len(set(listed)) and {"coherence", "aspect_coherence", "context_relevance"} <= set(listed)
    assert [spec.name for spec in resolve(listed)] == listed  # all at once: no two share a column
