"""``rapideval report``: the HTML page of a real result, written through the CLI and rendered in headless Chromium
(a real browser: the Debian package ``chromium``, which CI installs; without it these tests fail, they never skip).
The checks read the DOM that Chromium built, so they see what a person sees: the summary's means and counts, a
histogram per metric whose bars hold every scored row, the worst rows, the failures, the signatures, and the
untrusted id shown as text, never run as a script."""

from __future__ import annotations

import pathlib
import random
import shutil
import struct
import subprocess
from html.parser import HTMLParser
from typing import Any

import pytest

from rapideval import __version__, cli, evaluate
from rapideval.evaluation import EvaluationResult
from rapideval.evaluation.report import render_report

METRICS = ["bleu", "f1", "ter"]
HOSTILE_ID = '"><script>alert(1)</script>'
CHROMIUM = shutil.which("chromium")
WORDS = "the a cat dog sat ran on under mat rug quickly slowly today home far near".split()


def _rows() -> list[dict[str, Any]]:
    """40 rows of generated text: row 0 (the hostile id) shares no word with its reference, so it is among the
    worst rows of every metric; row 5 has no response (not applicable) and row 7 an int (an error)."""
    rng = random.Random(33)
    rows = [{"id": f"q-{i:03d}", "response": " ".join(rng.choices(WORDS, k=rng.randint(4, 9))),
             "reference": " ".join(rng.choices(WORDS, k=rng.randint(4, 9)))} for i in range(40)]  # fmt: skip
    rows[0] = {"id": HOSTILE_ID, "response": "zebra quantum violet harbour engine lantern", "reference": "the cat sat"}
    rows[5]["response"] = None
    rows[7]["response"] = 17
    return rows


class _Dom(HTMLParser):
    """The elements of a page in document order: each a dict of ``tag``, ``attrs``, ``children`` and ``text``
    (the text of the element and everything inside it)."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[dict[str, Any]] = []
        self._open: list[dict[str, Any]] = []
        self.feed(page)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = {"tag": tag, "attrs": dict(attrs), "children": [], "text": []}
        if self._open:
            self._open[-1]["children"].append(element)
        self.elements.append(element)
        if tag not in self.VOID:
            self._open.append(element)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i]["tag"] == tag:
                del self._open[i:]
                return

    def handle_data(self, data: str) -> None:
        for element in self._open:
            element["text"].append(data)

    def find(self, tag: str, cls: str | None = None, **attrs: str) -> list[dict[str, Any]]:
        return [e for e in self.elements if e["tag"] == tag and all(e["attrs"].get(k) == v for k, v in attrs.items())
                and (cls is None or cls in (e["attrs"].get("class") or "").split())]  # fmt: skip


def _text(element: dict[str, Any]) -> str:
    return "".join(element["text"]).strip()


def _cell(row: dict[str, Any], cls: str) -> str:
    (cell,) = [c for c in row["children"] if cls in (c["attrs"].get("class") or "").split()]
    return _text(cell)


def _rows_of(dom: _Dom, section: str) -> list[dict[str, Any]]:
    """The table rows inside the element of id ``section``."""
    (top,) = [e for e in dom.elements if e["attrs"].get("id") == section]
    found, stack = [], [top]
    while stack:
        element = stack.pop()
        stack.extend(reversed(element["children"]))
        if element["tag"] == "tr":
            found.append(element)
    return found


def _chromium(*args: str, profile: pathlib.Path) -> str:
    assert CHROMIUM is not None, "chromium is not installed (Debian: apt-get install chromium; CI installs it)"
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
               f"--user-data-dir={profile}", *args]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> EvaluationResult:
    """The rows scored with their output streamed to a Parquet file."""
    return evaluate(_rows(), METRICS, output=tmp_path_factory.mktemp("run") / "results.parquet")


def test_report_in_headless_chromium(saved: EvaluationResult, tmp_path: pathlib.Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    assert saved.output is not None
    page = tmp_path / "report.html"
    assert cli.main(["report", str(saved.output), "-o", str(page)]) == 0
    assert capsys.readouterr().out.strip() == f"report written to {page}"

    dom = _Dom(_chromium("--dump-dom", page.as_uri(), profile=tmp_path / "profile"))
    body = _text(dom.find("body")[0])
    assert f"rapideval {__version__}" in body and "results.parquet" in body
    assert [_text(k) for k in dom.find("div", "kpi")][:2] == ["40rows", "3metrics"]

    # The summary: one row per metric with its mean, interval and counts as the result holds them.
    for m, s in saved.summary.items():
        (row,) = dom.find("tr", id=f"summary-{m}")
        assert s.mean is not None and s.ci_low is not None and s.ci_high is not None
        assert _cell(row, "mean") == f"{s.mean:.4f}"
        assert _cell(row, "ci") == f"[{s.ci_low:.4f}, {s.ci_high:.4f}]"
        assert (_cell(row, "ok"), _cell(row, "na"), _cell(row, "error")) == ("38", "1", "1")
        assert ("lower is better" in _cell(row, "metric")) == (not s.higher_is_better)
        # A histogram per metric whose bars count every scored row.
        (histogram,) = dom.find("svg", "histogram", **{"data-metric": m})
        bars = [c for c in histogram["children"] if c["tag"] == "rect" and "bin" in c["attrs"]["class"].split()]
        assert len(bars) >= 20 and sum(int(b["attrs"]["data-count"]) for b in bars) == s.n_ok
        assert saved.signatures[m] in body
    assert len(dom.find("svg", "interval", role="img")) == len(METRICS)
    assert saved.summary["ter"].max is not None and saved.summary["ter"].max > 1  # row 0: past 1, drawn apart
    assert dom.find("rect", "above")

    # The hostile id: shown as text in the worst rows, and no script element anywhere.
    assert all(0 in saved.worst[m] for m in METRICS)
    for m in METRICS:
        (worst,) = [r for r in _rows_of(dom, f"worst-{m}") if r["attrs"].get("data-row") == "0"]
        assert _text(worst["children"][1]) == HOSTILE_ID
    assert not dom.find("script") and "alert(1)" in body
    assert not [e for e in dom.elements if {"src", "href"} & set(e["attrs"])]  # nothing fetched

    # The failures: counts by metric and cause, then the rows with their reasons.
    counts = {(r["attrs"]["data-metric"], r["attrs"]["data-status"]): _text(r["children"][-1])
              for r in _rows_of(dom, "failures") if "data-status" in r["attrs"]}  # fmt: skip
    assert counts == {(m, st): "1" for m in METRICS for st in ("not_applicable", "error")}
    failures = {(f["row"], f["metric"]): f for f in saved.failures}
    assert sorted(failures) == sorted((r, m) for r in (5, 7) for m in METRICS)
    for (r, m), f in failures.items():
        (line,) = [e for e in _rows_of(dom, "failures") if e["attrs"].get("data-row") == str(r)
                   and _text(e["children"][1]) == m]  # fmt: skip
        assert _text(line["children"][2]) == f["status"] and _text(line["children"][4]) == f["reason"]


def test_report_screenshot(saved: EvaluationResult, tmp_path: pathlib.Path) -> None:
    """Chromium draws the page: a 1200 x 2000 PNG far larger than a blank page's (about 11 KB)."""
    page = tmp_path / "report.html"
    shot = tmp_path / "report.png"
    page.write_text(render_report(saved), encoding="utf-8")
    _chromium(f"--screenshot={shot}", "--window-size=1200,2000", page.as_uri(), profile=tmp_path / "profile")
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (1200, 2000)
    assert len(data) > 50_000


def test_the_page_is_the_same_from_memory_parquet_and_jsonl(saved: EvaluationResult, tmp_path: pathlib.Path) -> None:
    """The three ways a result holds its rows (in memory, a Parquet file, a JSON Lines file) give one page below
    the header (which names the file)."""
    in_memory = evaluate(_rows(), METRICS)
    jsonl = EvaluationResult.load(in_memory.save(tmp_path / "results.jsonl"))
    assert saved.output is not None
    pages = [render_report(r) for r in (in_memory, EvaluationResult.load(saved.output), jsonl)]
    below = [p[p.index('<section id="summary">'):] for p in pages]
    assert below[0] == below[1] == below[2]
    assert HOSTILE_ID not in pages[0] and "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in pages[0]


def test_a_run_with_no_row_scored_still_gives_a_page(tmp_path: pathlib.Path) -> None:
    result = evaluate([{"id": "a", "response": None, "reference": "x y"}] * 3, METRICS, output=tmp_path / "r.jsonl")
    dom = _Dom(render_report(EvaluationResult.load(tmp_path / "r.jsonl")))
    for m in METRICS:
        (row,) = dom.find("tr", id=f"summary-{m}")
        assert (_cell(row, "mean"), _cell(row, "ok"), _cell(row, "na")) == ("\u2013", "0", "3")
        (histogram,) = dom.find("svg", "histogram", **{"data-metric": m})
        assert {b["attrs"]["data-count"] for b in histogram["children"] if b["tag"] == "rect" and "bin" in
                b["attrs"]["class"].split()} == {"0"}  # fmt: skip
    assert _text(dom.find("section", id="worst")[0]).endswith("No row was scored.")
    assert len(result.failures) == 3 * len(METRICS)
