"""The README's main command: `rapideval score` on the shipped example, and on user files."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
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
    code = cli.main(["score", str(data), "--response-field", "answer", "--reference-field", "truth",
                     "--metrics", "f1,bleu", "--output", str(out)])
    assert code == 0
    written = [json.loads(line) for line in out.read_text().splitlines()]
    expected = score([r["answer"] for r in rows], [r["truth"] for r in rows], ["f1", "bleu"])
    assert [w["f1"] for w in written] == expected["f1"].tolist()
    assert [w["bleu"] for w in written] == expected["bleu"].tolist()


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
    [('{"response": "a"}\n', "row 0 has no field 'reference'"), ("{not json\n", "not valid JSON")],
)
def test_bad_dataset_is_a_clear_error(tmp_path, capsys, content, message):
    data = tmp_path / "bad.jsonl"
    data.write_text(content, encoding="utf8")
    assert cli.main(["score", str(data)]) == 2
    assert message in capsys.readouterr().err


def test_bad_cell_names_row_and_field(tmp_path, capsys):
    data = tmp_path / "bad.jsonl"
    data.write_text('{"response": "a", "reference": "a"}\n{"response": 3, "reference": "b"}\n', encoding="utf8")
    assert cli.main(["score", str(data), "--metrics", "f1"]) == 2
    err = capsys.readouterr().err
    assert "responses[1]" in err and "int" in err


def test_unknown_metric_is_rejected():
    with pytest.raises(ValueError, match="unknown metric"):
        score(["a"], ["a"], ["bleuu"])


def test_nan_rows_are_counted_not_averaged():
    from rapideval.score import summarize

    s = summarize("x", np.array([0.5, np.nan, 1.0]))
    assert (s.mean, s.n, s.n_nan) == (0.75, 2, 1)
