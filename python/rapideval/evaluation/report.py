"""``rapideval report``: one self-contained HTML page of an :class:`~rapideval.EvaluationResult`: a header, the
summary (mean and 95 % interval of each metric drawn on a 0-1 axis, counts of ok / not applicable / error rows),
each metric's score distribution, its worst rows, the failures, the judge's usage and cost, and the signatures.

Invariants: the page needs nothing but itself (inline CSS and SVG; no script, no external URL), so it opens
offline and can be mailed or attached to a CI run. Every text that comes from the data or the run (ids, reasons,
causes, models, signatures) is escaped with :func:`html.escape`. The per-row table is read a few columns at a
time (a Parquet file batch by batch) and reduced with numpy; the only rows turned into Python objects are the
worst rows shown, so a 10M-row result needs memory for one batch of its score columns.
"""

from __future__ import annotations

import datetime as dt
import html
import json
import pathlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import __version__
from .result import EvaluationResult, MetricSummary

__all__ = ["render_report", "write_report"]

# Histogram bins over 0-1, and the failures listed one by one (the counts by cause cover them all).
BINS = 20
FAILURES_SHOWN = 100


def write_report(result: EvaluationResult, path: str | pathlib.Path) -> pathlib.Path:
    """Write :func:`render_report` of ``result`` to ``path`` (UTF-8) and return the path. Signature:
    ``write_report(result: EvaluationResult, path: str | Path) -> Path``; OSError when it cannot be written,
    ValueError when ``path`` is a file that is not a report (a results file, say): it is never replaced."""
    path = pathlib.Path(path)
    if path.exists() and not _is_report(path):
        raise ValueError(f"{path} exists and is not a rapideval report, so it is not replaced; choose another path")
    path.write_text(render_report(result), encoding="utf-8")
    return path


def _is_report(path: pathlib.Path) -> bool:
    """Whether ``path`` is a report this module wrote (the start of :func:`render_report`'s page)."""
    try:
        with open(path, "rb") as f:
            head = f.read(512)
    except OSError:
        return False
    return head.startswith(b"<!DOCTYPE html>") and b"<title>rapideval report" in head


def render_report(result: EvaluationResult) -> str:
    """The report of ``result`` as one self-contained HTML document (a str). Scores are drawn on a 0-1 axis,
    the scale of every metric of :func:`rapideval.evaluate`; an error rate above 1 (TER) is clipped on the
    bars and counted apart in its histogram. Means and intervals are printed to 4 decimals, as
    :meth:`EvaluationResult.table`. Signature: ``render_report(result: EvaluationResult) -> str``."""
    metrics = list(result.summary)
    rows = _Rows(result)
    ids = [c for c in rows.columns if c != "row" and c not in metrics and c.rpartition(".")[0] not in metrics]
    scored = result.n_rows > 0 and bool(metrics)
    empty = {m: _Histogram(np.zeros(BINS, np.int64), 0) for m in metrics}
    histograms = _histograms(rows, metrics) if scored else empty
    wanted = {r for m in metrics for r in result.worst.get(m, [])}
    worst = rows.select(wanted, ["row", *ids, *metrics, *(f"{m}.reason" for m in metrics)]) if wanted else {}
    body = [
        _header(result),
        _summary(result.summary),
        _distributions(result.summary, histograms),
        _worst(result, ids, worst),
        _failures(result),
        _usage(result.usage),
        _signatures(result.signatures),
    ]
    title = f"rapideval report: {result.n_rows:,} rows, {', '.join(metrics)}"
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{_e(title)}</title>\n'
            f"<style>{CSS}</style>\n</head>\n<body>\n<main>\n{''.join(body)}"
            f'<footer>rapideval {_e(__version__)} &middot; a self-contained page: no script, no network</footer>\n'
            f"</main>\n</body>\n</html>\n")  # fmt: skip


# Reading the rows ---------------------------------------------------------------------------------------------


class _Rows:
    """The per-row table of a result, a few columns at a time: the Parquet file batch by batch (one row group
    each), a JSON Lines file through pyarrow's JSON reader keeping only the columns asked for, or the table held
    in memory (a result without an output file)."""

    def __init__(self, result: EvaluationResult) -> None:
        import pyarrow.parquet as pq

        self.table: Any = None
        self.path = result.output if result.output is not None else pathlib.Path()
        self.parquet = self.path.suffix.lower() == ".parquet"
        if result.output is None:
            self.table = result.to_arrow()
            self.columns: list[str] = self.table.column_names
        elif self.parquet:
            self.columns = pq.read_schema(self.path).names
        else:
            with open(self.path, encoding="utf-8") as f:
                first = f.readline()
            self.columns = list(json.loads(first)) if first.strip() else ["row"]

    def scores(self, metrics: Sequence[str]) -> Iterator[Any]:
        """Record batches of the score columns (float64, null unless the row is ok)."""
        import pyarrow as pa
        import pyarrow.json as pj
        import pyarrow.parquet as pq

        if self.table is not None:
            yield from self.table.select(list(metrics)).to_batches()
        elif self.parquet:
            # pre_buffer=False: pyarrow would otherwise buffer every row group of these columns before the first batch.
            yield from pq.ParquetFile(self.path, pre_buffer=False).iter_batches(columns=list(metrics))
        else:
            schema = pa.schema([(m, pa.float64()) for m in metrics])
            options = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore")
            yield from pj.read_json(self.path, parse_options=options).to_batches()

    def select(self, wanted: set[int], columns: Sequence[str]) -> dict[int, dict[str, Any]]:
        """The rows numbered ``wanted`` (a few: the worst rows), as ``{row: {column: value}}``."""
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.parquet as pq

        keys = sorted(wanted)
        if self.table is not None:
            found = self.table.filter(pc.is_in(self.table["row"], pa.array(keys, pa.int64()))).select(list(columns))
        elif self.parquet:
            found = pq.read_table(self.path, columns=list(columns), filters=[("row", "in", keys)])
        else:
            # A JSON Lines result holds row k on line k (its chunks are appended in order): parse only those lines.
            out: dict[int, dict[str, Any]] = {}
            with open(self.path, encoding="utf-8") as f:
                for k, line in enumerate(f):
                    if k in wanted:
                        out[k] = json.loads(line)
                        if len(out) == len(wanted):
                            break
            return out
        return {r["row"]: r for r in found.to_pylist()}


@dataclass(frozen=True)
class _Histogram:
    counts: np.ndarray  # ok values per bin of [0, 1] (BINS bins; the last includes 1)
    above: int  # ok values above 1 (an error rate, such as TER, can pass 1)


def _histograms(rows: _Rows, metrics: Sequence[str]) -> dict[str, _Histogram]:
    counts = {m: np.zeros(BINS, np.int64) for m in metrics}
    above = dict.fromkeys(metrics, 0)
    for batch in rows.scores(metrics):
        for m in metrics:
            values = batch.column(m).drop_null().to_numpy(zero_copy_only=False).astype(np.float64, copy=False)
            counts[m] += np.histogram(values, bins=BINS, range=(0.0, 1.0))[0]
            above[m] += int(np.count_nonzero(values > 1.0))
    return {m: _Histogram(counts[m], above[m]) for m in metrics}


# The sections -------------------------------------------------------------------------------------------------


def _e(value: Any) -> str:
    """Text of the data or the run, escaped for HTML text and attribute values."""
    return html.escape("" if value is None else str(value), quote=True)


def _clip(value: Any, kind: str) -> str:
    """A cell's text cut to one line by the page's CSS, whole in its tooltip."""
    return f'<div class="clip {kind}" title="{_e(value)}">{_e(value)}</div>'


def _f(value: float | None) -> str:
    return "&ndash;" if value is None else f"{value:.4f}"


def _header(result: EvaluationResult) -> str:
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    source = "a result held in memory"
    if result.output is not None:
        written = dt.datetime.fromtimestamp(result.output.stat().st_mtime, dt.timezone.utc)
        source = f"<code>{_e(result.output.name)}</code>, written {written:%Y-%m-%d %H:%M UTC}"
    failed = sum(s.n_not_applicable + s.n_error for s in result.summary.values())
    tiles = [("rows", f"{result.n_rows:,}"), ("metrics", f"{len(result.summary)}"),
             ("cells n/a or error", f"{failed:,}")]  # fmt: skip
    cost = [u.get("cost_usd") for u in result.usage.values() if isinstance(u, Mapping)]
    if any(c is not None for c in cost):
        tiles.append(("judge cost", f"${sum(c for c in cost if c is not None):,.4f}"))
    kpis = "".join(f'<div class="kpi"><b>{v}</b>{_e(k)}</div>' for k, v in tiles)
    return (f'<header>\n<h1>Evaluation report</h1>\n<p class="meta">{source} &middot; report made {now} &middot; '
            f"rapideval {_e(__version__)}</p>\n<div class=\"kpis\">{kpis}</div>\n</header>\n")  # fmt: skip


def _x(value: float, width: float) -> float:
    """A score's position on a 0-1 axis ``width`` wide (clipped to the axis)."""
    return round(min(max(value, 0.0), 1.0) * width, 2)


def _interval_bar(s: MetricSummary) -> str:
    """The mean as a bar and the 95 % interval as a whisker, on a 0-1 axis."""
    w, h = 260, 24
    grid = "".join(f'<line x1="{_x(t, w)}" x2="{_x(t, w)}" y1="3" y2="{h - 3}" class="grid"/>'
                   for t in (0.25, 0.5, 0.75))  # fmt: skip
    parts = [f'<rect x="0" y="6" width="{w}" height="12" rx="3" class="track"/>', grid]
    if s.mean is not None and s.ci_low is not None and s.ci_high is not None:
        kind = "bar" if s.higher_is_better else "bar lower"
        parts.append(f'<rect x="0" y="6" width="{_x(s.mean, w)}" height="12" rx="3" class="{kind}"/>')
        lo, hi = _x(s.ci_low, w), _x(s.ci_high, w)
        parts.append(f'<path d="M{lo} 12H{hi}M{lo} 7V17M{hi} 7V17" class="whisker"/>')
        if s.mean > 1.0:  # an error rate past the axis: an arrow at its end
            parts.append(f'<path d="M{w - 7} 6L{w} 12L{w - 7} 18Z" class="past"/>')
        label = f"mean {s.mean:.4f}, 95 % interval [{s.ci_low:.4f}, {s.ci_high:.4f}] ({s.ci_method})"
    else:
        label = "no row was scored"
    return (f'<svg class="interval" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" '
            f'aria-label="{_e(label)}"><title>{_e(label)}</title>{"".join(parts)}</svg>')  # fmt: skip


def _axis() -> str:
    w = 260
    ticks = "".join(
        f'<text x="{_x(t, w)}" y="10" text-anchor="{a}">{t:g}</text>'
        for t, a in ((0, "start"), (0.25, "middle"), (0.5, "middle"), (0.75, "middle"), (1, "end"))
    )
    return f'<svg class="axis" width="{w}" height="12" viewBox="0 0 {w} 12" aria-hidden="true">{ticks}</svg>'


def _direction(s: MetricSummary) -> str:
    return "" if s.higher_is_better else ' <span class="tag">lower is better</span>'


def _summary(summary: Mapping[str, MetricSummary]) -> str:
    rows = []
    for m, s in summary.items():
        ci = "&ndash;" if s.ci_low is None else f"[{s.ci_low:.4f}, {s.ci_high:.4f}]"
        bad = " bad" if s.n_error else ""
        rows.append(
            f'<tr id="summary-{_e(m)}" data-metric="{_e(m)}"><td class="metric">{_e(m)}{_direction(s)}</td>'
            f'<td class="num mean">{_f(s.mean)}</td><td class="num ci">{ci}</td>'
            f'<td class="chart">{_interval_bar(s)}</td><td class="num ok">{s.n_ok:,}</td>'
            f'<td class="num na">{s.n_not_applicable:,}</td><td class="num error{bad}">{s.n_error:,}</td></tr>'
        )
    note = (
        '<p class="note">The bar is the mean of the rows scored (ok), the whisker its 95 % interval (the '
        "percentile bootstrap up to 100,000 scored rows, the normal interval above), on a 0-1 axis.</p>\n"
    )
    return (f'<section id="summary">\n<h2>Summary</h2>\n<table class="summary">\n<thead><tr><th>metric</th>'
            f'<th class="num">mean</th><th class="num">95 % interval</th><th class="chart">{_axis()}</th>'
            f'<th class="num">ok</th><th class="num">n/a</th><th class="num">error</th></tr></thead>\n'
            f"<tbody>{''.join(rows)}</tbody>\n</table>\n{note}</section>\n")  # fmt: skip


def _histogram_svg(m: str, s: MetricSummary, h: _Histogram) -> str:
    """Counts of ok values in 20 bins of 0-1 (bars), the mean (a dashed line) and its interval (a band); values
    above 1 as a separate bar."""
    # One size for every histogram: the bar of values above 1, when there is one, takes room from the 0-1 plot.
    w, left, top, ph = 346, 36, 10, 110
    pw, height = w - left - 10 - (34 if h.above else 0), top + ph + 22
    peak = max(int(h.counts.max(initial=0)), h.above, 1)
    bw = pw / BINS
    parts = [f'<line x1="{left}" x2="{left + pw}" y1="{top + ph}" y2="{top + ph}" class="base"/>']
    if s.mean is not None and s.ci_low is not None and s.ci_high is not None:
        lo, hi = left + _x(s.ci_low, pw), left + _x(s.ci_high, pw)
        parts.append(f'<rect x="{lo}" y="{top}" width="{max(hi - lo, 1.0):.2f}" height="{ph}" class="band"/>')
    for i, count in enumerate(h.counts.tolist()):
        bar = ph * count / peak
        label = f"{i / BINS:g}-{(i + 1) / BINS:g}: {count:,} rows"
        parts.append(f'<rect class="bin" data-count="{count}" x="{left + i * bw + 1:.2f}" y="{top + ph - bar:.2f}" '
                     f'width="{bw - 2:.2f}" height="{bar:.2f}"><title>{label}</title></rect>')  # fmt: skip
    if h.above:
        bar = ph * h.above / peak
        parts.append(f'<rect class="bin above" data-count="{h.above}" x="{left + pw + 10}" y="{top + ph - bar:.2f}" '
                     f'width="{bw + 4:.2f}" height="{bar:.2f}"><title>above 1: {h.above:,} rows</title></rect>'
                     f'<text x="{left + pw + 10 + (bw + 4) / 2:.2f}" y="{top + ph + 14}" text-anchor="middle">'
                     f"&gt;1</text>")  # fmt: skip
    if s.mean is not None and s.mean <= 1.0:
        x = left + _x(s.mean, pw)
        parts.append(f'<line x1="{x}" x2="{x}" y1="{top - 4}" y2="{top + ph}" class="mean"/>')
    ticks = "".join(f'<text x="{left + _x(t, pw)}" y="{top + ph + 14}" text-anchor="middle">{t:g}</text>'
                    for t in (0, 0.25, 0.5, 0.75, 1))  # fmt: skip
    parts.append(ticks)
    parts.append(
        f'<text x="{left - 5}" y="{top + 4}" text-anchor="end">{peak:,}</text>'
        f'<text x="{left - 5}" y="{top + ph}" text-anchor="end">0</text>'
    )
    label = f"{m}: distribution of {s.n_ok:,} scores in {BINS} bins of 0-1"
    return (f'<svg class="histogram" data-metric="{_e(m)}" width="{w}" height="{height}" viewBox="0 0 {w} {height}" '
            f'role="img" aria-label="{_e(label)}"><title>{_e(label)}</title>{"".join(parts)}</svg>')  # fmt: skip


def _distributions(summary: Mapping[str, MetricSummary], histograms: Mapping[str, _Histogram]) -> str:
    cards = []
    for m, s in summary.items():
        stats = (f"std {_f(s.std)} &middot; min {_f(s.min)} &middot; max {_f(s.max)} &middot; {s.n_ok:,} ok"
                 if s.n_ok else "no row was scored")  # fmt: skip
        cards.append(
            f'<div class="card"><h3>{_e(m)}{_direction(s)}</h3>{_histogram_svg(m, s, histograms[m])}'
            f'<p class="note">{stats}</p></div>'
        )
    return (f'<section id="distributions">\n<h2>Score distributions</h2>\n<p class="note">Rows scored, in {BINS} bins '
            f"of 0-1; the dashed line is the mean, the band its 95 % interval.</p>\n"
            f'<div class="grid">{"".join(cards)}</div>\n</section>\n')  # fmt: skip


def _worst(result: EvaluationResult, ids: Sequence[str], rows: Mapping[int, Mapping[str, Any]]) -> str:
    blocks = []
    for k, (m, s) in enumerate(result.summary.items()):
        numbers = result.worst.get(m, [])
        if not numbers:
            continue
        order = "lowest score first" if s.higher_is_better else "highest first: lower is better"
        reasons = any(rows.get(r, {}).get(f"{m}.reason") is not None for r in numbers)
        head = "".join(f"<th>{_e(c)}</th>" for c in ["row", *ids]) + '<th class="num">score</th>'
        lines = []
        for r in numbers:
            row = rows.get(r, {})
            cells = "".join(f"<td>{_clip(row.get(c), 'id')}</td>" for c in ids)
            reason = f"<td>{_clip(row.get(f'{m}.reason'), 'reason')}</td>" if reasons else ""
            lines.append(f'<tr data-row="{r}"><td>{r}</td>{cells}<td class="num">{_f(row.get(m))}</td>{reason}</tr>')
        blocks.append(f'<details id="worst-{_e(m)}"{" open" if k == 0 else ""}><summary>{_e(m)}: the {len(numbers)} '
                      f"worst rows ({order})</summary>\n<table class=\"rows\"><thead><tr>{head}"
                      f"{'<th>reason</th>' if reasons else ''}</tr></thead>"
                      f"<tbody>{''.join(lines)}</tbody></table></details>\n")  # fmt: skip
    content = "".join(blocks) or '<p class="note">No row was scored.</p>'
    return f'<section id="worst">\n<h2>Worst rows</h2>\n{content}</section>\n'


def _failures(result: EvaluationResult) -> str:
    groups = []
    for m, s in result.summary.items():
        if s.n_not_applicable:
            groups.append((m, "not_applicable", "missing input", s.n_not_applicable))
        groups.extend((m, "error", cause, n) for cause, n in sorted(s.errors_by_cause.items(), key=lambda x: -x[1]))
    if not groups:
        return (
            '<section id="failures">\n<h2>Failures</h2>\n<p class="note">Every row was scored by every '
            "metric.</p>\n</section>\n"
        )
    total = sum(n for *_, n in groups)
    counts = "".join(
        f'<tr data-metric="{_e(m)}" data-status="{st}"><td>{_e(m)}</td><td class="st-{st}">{st}</td>'
        f'<td>{_e(cause)}</td><td class="num">{n:,}</td></tr>'
        for m, st, cause, n in groups
    )
    shown = result.failures[:FAILURES_SHOWN]
    listed = "One by one" if len(shown) == total else f"The first {len(shown):,} of them"
    lines = "".join(
        f'<tr data-row="{f["row"]}"><td class="num">{f["row"]}</td><td>{_e(f["metric"])}</td>'
        f'<td class="st-{_e(f["status"])}">{_e(f["status"])}</td><td>{_e(f["cause"])}</td>'
        f"<td>{_clip(f['reason'], 'reason')}</td></tr>"
        for f in shown
    )
    return (f'<section id="failures">\n<h2>Failures</h2>\n<p class="note">{total:,} cells were not scored: not '
            f"applicable (a missing input) or an error, by metric and cause.</p>\n<table class=\"counts\"><thead><tr>"
            f'<th>metric</th><th>status</th><th>cause</th><th class="num">rows</th></tr></thead><tbody>{counts}'
            f"</tbody></table>\n<h3>{listed}</h3>\n<table class=\"rows\"><thead><tr>"
            f'<th class="num">row</th><th>metric</th><th>status</th><th>cause</th><th>reason</th></tr></thead>'
            f"<tbody>{lines}</tbody></table>\n</section>\n")  # fmt: skip


def _value(key: str, value: Any) -> str:
    if key == "cost_usd":
        return "unknown (no price for this model)" if value is None else f"${value:,.6f}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return f"{value:,}" if isinstance(value, int) else _e(value)


def _usage(usage: Mapping[str, Any]) -> str:
    roles = {role: u for role, u in usage.items() if isinstance(u, Mapping)}
    if not roles:
        return ""
    keys = list(dict.fromkeys(k for u in roles.values() for k in u))
    head = "".join(f"<th>{_e(k.replace('_', ' '))}</th>" for k in keys)
    rows = "".join(f"<tr><td>{_e(role)}</td>" + "".join(f"<td>{_value(k, u.get(k))}</td>" for k in keys) + "</tr>"
                   for role, u in roles.items())  # fmt: skip
    return (f'<section id="usage">\n<h2>Judge usage and cost</h2>\n<table><thead><tr><th>role</th>{head}</tr>'
            f"</thead><tbody>{rows}</tbody></table>\n</section>\n")  # fmt: skip


def _signatures(signatures: Mapping[str, str]) -> str:
    rows = "".join(f'<tr><td>{_e(m)}</td><td><code class="signature">{_e(sig)}</code></td></tr>'
                   for m, sig in signatures.items())  # fmt: skip
    return (f'<section id="signatures">\n<h2>Signatures</h2>\n<p class="note">What each score means: the metric, '
            f"the reference it matches and its settings, and the rapideval version.</p>\n<table><tbody>{rows}"
            f"</tbody></table>\n</section>\n")  # fmt: skip


CSS = """
:root { --fg: #1d2433; --muted: #667085; --line: #e5e8ee; --bg: #f5f6f8; --card: #fff; --accent: #3563d9;
  --lower: #c05621; --bad: #b42318; --na: #8a6d00; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1140px; margin: 0 auto; padding: 28px 24px 40px; }
h1 { font-size: 24px; margin: 0 0 4px; letter-spacing: -0.01em; }
h2 { font-size: 17px; margin: 0 0 10px; }
h3 { font-size: 14px; margin: 0 0 6px; }
section > h3 { margin-top: 18px; }
.meta, .note, footer { color: var(--muted); }
.note { font-size: 12.5px; margin: 8px 0 0; }
footer { font-size: 12px; margin-top: 22px; text-align: center; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
.kpis { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 14px; }
.kpi { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 8px 16px;
  min-width: 130px; color: var(--muted); font-size: 12px; }
.kpi b { display: block; font-size: 22px; color: var(--fg); font-variant-numeric: tabular-nums; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 18px 20px;
  margin-top: 18px; box-shadow: 0 1px 2px rgba(16, 24, 40, .04); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: middle; }
th { font-weight: 600; color: var(--muted); font-size: 11.5px; text-transform: uppercase; letter-spacing: .04em; }
tbody tr:last-child td { border-bottom: 0; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.metric { font-weight: 600; white-space: nowrap; }
td.mean { font-weight: 600; }
th.chart, td.chart { width: 280px; }
.tag { font-size: 11px; font-weight: 500; color: var(--lower); border: 1px solid currentColor; border-radius: 999px;
  padding: 0 7px; margin-left: 6px; white-space: nowrap; }
.bad, .st-error { color: var(--bad); }
.st-not_applicable { color: var(--na); }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(340px, 1fr)); gap: 14px; }
.card { border: 1px solid var(--line); border-radius: 10px; padding: 12px 14px 10px; }
table.rows td { font-size: 13px; }
table.rows { width: auto; min-width: 40%; }
.clip { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.clip.id { max-width: 260px; }
.clip.reason { max-width: 640px; color: var(--muted); }
details { margin: 4px 0 8px; }
details > summary { cursor: pointer; font-weight: 600; padding: 4px 0; }
table.counts { width: auto; min-width: 50%; }
svg { display: block; overflow: visible; }
svg.histogram { width: 100%; height: auto; }
svg text { font: 10px system-ui, sans-serif; fill: var(--muted); }
svg .track { fill: #eef1f6; }
svg .grid { stroke: #fff; stroke-width: 1; }
svg .bar { fill: var(--accent); opacity: .85; }
svg .bar.lower { fill: var(--lower); }
svg .whisker { stroke: var(--fg); stroke-width: 1.6; fill: none; }
svg .past { fill: var(--fg); }
svg .base { stroke: #c9ced8; }
svg .bin { fill: var(--accent); opacity: .8; }
svg .bin.above { fill: var(--lower); }
svg .band { fill: var(--accent); opacity: .12; }
svg .mean { stroke: var(--fg); stroke-width: 1.2; stroke-dasharray: 3 2; }
"""
