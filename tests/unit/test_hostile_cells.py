"""A cell a kernel refuses (a lone surrogate; an empty, blank or "None" text for f1) is that row's error, naming
its own row and column, in evaluate() and the CLI: the other rows are scored exactly as without it."""

from __future__ import annotations

import json
import math

import pytest
from rapideval import cli, evaluate

DETERMINISTIC = ["bleu", "gleu", "f1", "exact_match", "sacrebleu", "rouge1", "rougeL", "meteor", "chrf", "ter"]
GOOD = [{"response": f"the cat sat on the mat {i}", "reference": f"a cat sat on a mat {i}"} for i in range(40)]
HOSTILE = {
    3: {"response": "the cat \ud800 sat", "reference": "a cat sat"},
    11: {"response": "a cat sat", "reference": "\udfff"},
    17: {"response": "", "reference": "a cat sat"},
    23: {"response": "   ", "reference": "a cat sat"},
    31: {"response": "a cat sat", "reference": "None"},
}


def _rows() -> list[dict[str, str]]:
    return [HOSTILE.get(i, row) for i, row in enumerate(GOOD)]


@pytest.mark.parametrize("chunk_size", [7, 10_000])
def test_refused_cells_are_their_rows_errors(chunk_size) -> None:
    result = evaluate(_rows(), DETERMINISTIC, chunk_size=chunk_size)
    clean = evaluate([r for i, r in enumerate(GOOD) if i not in HOSTILE], DETERMINISTIC)
    table = result.to_pandas()
    expected = clean.to_pandas()
    assert len(table) == len(GOOD) and list(table["row"]) == list(range(len(GOOD)))
    for metric in DETERMINISTIC:
        status = table[f"{metric}.status"]
        for i in (3, 11):  # a lone surrogate: every kernel refuses it
            assert status[i] == "error" and table[f"{metric}.cause"][i] == "invalid_input"
            column = "response" if i == 3 else "reference"
            assert table[f"{metric}.reason"][i].startswith(f"row {i}, column '{column}':"), table[f"{metric}.reason"][i]
        kept = [i for i in range(len(GOOD)) if i not in HOSTILE]
        ours = [table[metric][i] for i in kept]
        theirs = list(expected[metric])
        assert all(a == b or (math.isnan(a) and math.isnan(b)) for a, b in zip(ours, theirs, strict=True)), metric
    f1 = table["f1.status"]
    assert [f1[i] for i in (17, 23, 31)] == ["error"] * 3
    assert table["f1.reason"][17].startswith("row 17:")


def test_the_cli_writes_every_row_and_exits_1(tmp_path, capsys) -> None:
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in _rows()), encoding="utf-8")
    out = tmp_path / "scores.jsonl"
    assert cli.main(["score", str(data), "--metrics", "bleu,f1", "--out", str(out)]) == 1  # rows in error
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["row"] for r in lines] == list(range(len(GOOD)))
    assert lines[3]["bleu.status"] == "error" and lines[0]["bleu.status"] == "ok"


def test_a_json_line_nested_too_deep_is_its_row_s_error(tmp_path) -> None:
    data = tmp_path / "rows.jsonl"
    deep = "[" * 100_000 + "]" * 100_000
    lines = [json.dumps(GOOD[0]), '{"response": ' + deep + ', "reference": "x"}', json.dumps(GOOD[1])]
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    table = evaluate(str(data), ["bleu"]).to_pandas()
    assert list(table["bleu.status"]) == ["ok", "error", "ok"]
    assert "line 2 nests JSON deeper" in table["bleu.reason"][1]


def test_csv_cells_past_the_default_limit_are_read_and_past_ours_are_their_row_s_error(tmp_path, monkeypatch) -> None:
    import csv

    from rapideval.evaluation import sources

    data = tmp_path / "rows.csv"
    long = "word " * 40_000  # 200,000 characters: past csv's default limit of 131,072
    data.write_text(f"response,reference\na cat,a cat\n{long},a word\n{'w' * 5000},x\na dog,a dog\n", encoding="utf-8")
    before = csv.field_size_limit()
    try:
        csv.field_size_limit(131_072)  # csv's default
        assert list(evaluate(str(data), ["bleu"]).to_pandas()["bleu.status"]) == ["ok"] * 4
        monkeypatch.setattr(sources, "_CSV_CELL_LIMIT", 1000)  # a limit of ours below two of the cells
        csv.field_size_limit(1000)
        table = evaluate(str(data), ["bleu"]).to_pandas()
    finally:
        csv.field_size_limit(before)
    assert list(table["bleu.status"]) == ["ok", "error", "error", "ok"]
    assert "cannot be read as CSV" in table["bleu.reason"][1]


@pytest.mark.parametrize("suffix", [".parquet", ".jsonl"])
def test_ids_of_any_kind_are_stored_and_never_fail_the_merge(tmp_path, suffix) -> None:
    ids: list[object] = [*range(20), *(f"r{i}" for i in range(20, 30))]  # ints in the first chunks, text later
    ids[5], ids[25] = 2**64, "x\ud800"  # an int past 64 bits, a lone surrogate
    rows = [{"id": i, **GOOD[k]} for k, i in enumerate(ids)]
    out = tmp_path / f"scores{suffix}"
    with pytest.warns(UserWarning, match="id column 'id'"):
        result = evaluate(rows, ["bleu"], chunk_size=10, output=out)
    table = result.to_pandas()
    assert list(table["row"]) == list(range(30)) and set(table["bleu.status"]) == {"ok"}
    assert [str(v) for v in table["id"][[4, 5, 24, 25]]] == ["4", str(2**64), "r24", "x\\ud800"]
    assert evaluate(rows, ["bleu"], chunk_size=10, output=out).n_rows == 30  # read back, as finished


def test_an_unclosed_csv_quote_is_its_row_s_error_and_the_lines_after_it_are_rows(tmp_path) -> None:
    data = tmp_path / "rows.csv"
    data.write_text('id,response,reference\n1,"a b",a b\n2,"unclosed,x\n3,c d,c d\n4,"two\nlines",two lines\n'
                    '5,"quote ""inside""",quote inside\n6,e,e\n7,"open again,y\n8,f,f\n')
    before = data.read_bytes()
    frame = evaluate(data, ["f1"]).to_pandas()
    assert frame["row"].tolist() == list(range(8))
    assert frame["id"].tolist() == ["1", None, "3", "4", "5", "6", None, "8"]
    assert frame["f1.status"].tolist() == ["ok", "error", "ok", "ok", "ok", "ok", "error", "ok"]
    reasons = frame["f1.reason"].tolist()
    assert "line 3 opens a quote that is not closed" in reasons[1]
    assert "line 9 opens a quote that is not closed" in reasons[6]
    assert data.read_bytes() == before
