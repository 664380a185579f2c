"""The README's main command: `rapideval score` on the shipped example, and on user files."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rapideval import cli
from rapideval.score import DEFAULT_METRICS, score


def test_score_shipped_example_prints_a_summary_row_per_metric(capsys):
    assert cli.main(["score"]) == 0
    out = capsys.readouterr().out
    assert "500 rows from example.jsonl" in out
    for name in DEFAULT_METRICS:
        line = next(line for line in out.splitlines() if line.startswith(name + " "))
        mean = float(line.split()[1])
        assert 0.0 < mean < 1.0


def test_console_script_is_installed():
    done = subprocess.run([sys.executable, "-m", "rapideval.cli", "score", "--metrics", "f1"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "f1" in done.stdout


def test_per_row_output_matches_the_api(tmp_path):
    data = tmp_path / "rows.jsonl"
    rows = [{"answer": "the cat sat", "truth": "the cat sat on the mat"}, {"answer": "a dog", "truth": "a dog"}]
    data.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf8")
    out = tmp_path / "scores.jsonl"
    code = cli.main(["score", str(data), "--column-map", "answer=response,truth=reference",
                     "--metrics", "f1,bleu", "--out", str(out)])  # fmt: skip
    assert code == 0
    written = [json.loads(line) for line in out.read_text().splitlines()]
    expected = score([r["answer"] for r in rows], [r["truth"] for r in rows], ["f1", "bleu"])
    assert [w["f1"] for w in written] == expected["f1"].tolist()
    assert [w["bleu"] for w in written] == expected["bleu"].tolist()
    assert [w["row"] for w in written] == [0, 1] and all(w["f1.status"] == "ok" for w in written)
    # The shortcuts of --column-map.
    assert cli.main(["score", str(data), "--response-field", "answer", "--reference-field", "truth", "--metrics",
                     "f1", "--out", str(tmp_path / "again.parquet")]) == 0  # fmt: skip


def test_json_summary_and_exit_statuses(tmp_path, capsys):
    data = tmp_path / "rows.jsonl"
    data.write_text('{"response": "a b", "reference": "a b"}\n{"response": 3, "reference": "b"}\n'
                    '{"response": null, "reference": "c"}\n', encoding="utf8")  # fmt: skip
    assert cli.main(["score", str(data), "--metrics", "f1", "--json"]) == cli.ROW_ERRORS
    summary = json.loads(capsys.readouterr().out)["summary"]["f1"]
    assert (summary["n_ok"], summary["n_not_applicable"], summary["n_error"]) == (1, 1, 1)
    data.write_text('{"response": "a b", "reference": "a b"}\n{"response": null, "reference": "c"}\n',
                    encoding="utf8")  # fmt: skip
    assert cli.main(["score", str(data), "--metrics", "f1"]) == cli.OK  # not applicable is not an error
    assert cli.main(["score", str(data), "--metrics", "nope"]) == cli.USAGE_ERROR


def test_compare_and_version(tmp_path, capsys):
    a, b = tmp_path / "a.parquet", tmp_path / "b.jsonl"
    assert cli.main(["score", "--metrics", "bleu,f1", "--out", str(a)]) == 0
    assert cli.main(["score", "--metrics", "bleu", "--out", str(b), "--column-map",
                     "response=reference,reference=response"]) == 0  # fmt: skip
    capsys.readouterr()
    assert cli.main(["compare", str(a), str(b), "--json"]) == 0
    comparison = json.loads(capsys.readouterr().out)
    assert list(comparison["metrics"]) == ["bleu"] and comparison["metrics"]["bleu"]["n"] == 500
    assert comparison["metrics"]["bleu"]["p_value"] < 0.05  # BLEU is not symmetric in its two texts
    done = subprocess.run([sys.executable, "-m", "rapideval", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("rapideval ")


def test_rouge_lsum_is_named_not_default():
    from rouge_score import rouge_scorer

    assert "rougeLsum" not in DEFAULT_METRICS
    responses = ["The cat sat.\nIt was happy.", "one line only", "a b c\n\nd e"]
    references = ["The cat sat down.\nIt was glad and happy.", "one\nline only", "a c\nd e f"]
    scorer = rouge_scorer.RougeScorer(["rougeLsum"])
    expected = [scorer.score(t, p)["rougeLsum"].fmeasure for p, t in zip(responses, references)]
    assert score(responses, references, ["rougeLsum"])["rougeLsum"].tolist() == expected


def test_csv_input(tmp_path):
    data = tmp_path / "rows.csv"
    data.write_text("response,reference\nhello world,hello world\n", encoding="utf8")
    assert cli.main(["score", str(data), "--metrics", "exact_match"]) == 0


@pytest.mark.parametrize(
    "content, message",
    [('{"response": "a"}\n', "needs a 'reference' column, and "), ("", "the file is empty"),
     ("response,reference\n", "has no rows to score")],
)
def test_bad_dataset_is_a_clear_error(tmp_path, capsys, content, message):
    data = tmp_path / ("bad.jsonl" if content.startswith("{") else "bad.csv")
    data.write_text(content, encoding="utf8")
    assert cli.main(["score", str(data)]) == 2
    assert message in capsys.readouterr().err


def test_bad_cell_names_row_and_column(tmp_path, capsys):
    data = tmp_path / "bad.jsonl"
    data.write_text('{"response": "a", "reference": "a"}\n{"response": 3, "reference": "b"}\n', encoding="utf8")
    assert cli.main(["score", str(data), "--metrics", "f1"]) == 1
    out = capsys.readouterr().out
    assert "row 1, column 'response': expected text, got int" in out
