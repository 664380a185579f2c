"""Output paths never destroy what rapideval did not write: an output may not be its input, a file at the output
path, in ``<out>.parts/`` or at ``<out>.summary.json`` that is not rapideval's is refused (named in the error)
and left byte for byte, and ``report -o`` never replaces a file that is not a report."""

from __future__ import annotations

import json
import pathlib

import pytest
from rapideval import cli, evaluate
from rapideval.evaluation import EvaluationResult
from rapideval.evaluation.report import write_report

ROWS = [{"response": f"the cat sat on mat {i}", "reference": f"a cat sat on the mat {i}"} for i in range(30)]


def _jsonl(path: pathlib.Path) -> pathlib.Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    return path


@pytest.mark.parametrize("resume", [True, False])
def test_the_output_may_not_be_the_input(tmp_path, resume) -> None:
    data = _jsonl(tmp_path / "data.jsonl")
    before = data.read_bytes()
    with pytest.raises(ValueError, match="is the input data"):
        evaluate(str(data), ["bleu"], output=data, resume=resume)
    assert data.read_bytes() == before


def test_the_cli_refuses_to_write_over_its_input(tmp_path, capsys) -> None:
    data = _jsonl(tmp_path / "data.jsonl")
    before = data.read_bytes()
    assert cli.main(["score", str(data), "--metrics", "bleu", "--out", str(data), "--no-resume"]) == 2
    assert "is the input data" in capsys.readouterr().err and data.read_bytes() == before


@pytest.mark.parametrize("resume", [True, False])
@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_a_file_at_the_output_path_that_is_not_a_result_is_kept(tmp_path, resume, suffix) -> None:
    out = tmp_path / f"notes{suffix}"
    out.write_bytes(b"my own notes\n")
    with pytest.raises(ValueError, match="not a rapideval result"):
        evaluate(ROWS, ["bleu"], output=out, resume=resume)
    assert out.read_bytes() == b"my own notes\n"


def test_a_parts_directory_with_files_of_its_own_is_kept(tmp_path) -> None:
    out = tmp_path / "scores.parquet"
    parts = tmp_path / "scores.parquet.parts"
    parts.mkdir()
    (parts / "thesis.tex").write_text("chapter 1")
    with pytest.raises(ValueError, match="thesis.tex"):
        evaluate(ROWS, ["bleu"], output=out, resume=False)
    assert (parts / "thesis.tex").read_text() == "chapter 1"


def test_a_summary_file_that_is_not_rapideval_s_is_kept(tmp_path) -> None:
    out = tmp_path / "scores.jsonl"
    summary = tmp_path / "scores.jsonl.summary.json"
    summary.write_text('{"budget": 12}')
    with pytest.raises(ValueError, match="not a rapideval summary"):
        evaluate(ROWS, ["bleu"], output=out, resume=False)
    assert summary.read_text() == '{"budget": 12}'


def test_rapideval_s_own_output_is_replaced_and_resumed_as_before(tmp_path) -> None:
    out = tmp_path / "scores.parquet"
    first = evaluate(ROWS, ["bleu"], output=out)
    again = evaluate(ROWS, ["bleu", "rougeL"], output=out, resume=False)  # another run replaces ours
    assert first.n_rows == again.n_rows == 30 and "rougeL" in again.summary


def test_report_never_replaces_a_file_that_is_not_a_report(tmp_path) -> None:
    out = tmp_path / "scores.parquet"
    result = evaluate(ROWS, ["bleu"], output=out)
    before = out.read_bytes()
    with pytest.raises(ValueError, match="not a rapideval report"):
        write_report(EvaluationResult.load(out), out)
    assert out.read_bytes() == before
    page = tmp_path / "report.html"
    write_report(result, page)
    write_report(result, page)  # a report of ours is replaced
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
