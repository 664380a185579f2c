"""``rapideval.ray.evaluate``: :func:`rapideval.evaluate` over a Ray Dataset, scored by a pool of Ray actors.

Invariants:

* The result equals single-process :func:`rapideval.evaluate` on the same rows in the same order: the same
  per-row table (``row`` numbers, id columns, values, statuses, reasons) and the same summaries. Every row
  carries its global number to the workers (a column added block by block, from the blocks' row counts in
  the dataset's order), so each reason names the row as single-process evaluate() does; the driver reads the
  scored rows back in order, ``chunk_size`` rows at a time: the chunks single-process evaluate() feeds its
  summaries, so even the floating-point sums are the same.
* A worker builds its judge from a picklable :class:`JudgeConfig` (its API key read from the worker's own
  environment, so no secret is pickled); a rate limit shared by the workers is split between them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from .evaluation import EvaluationResult, RunSetup, concat_tables, score_chunk
from .evaluation.metrics import Spec, resolve
from .evaluation.sources import Chunk
from .llm import JudgeClient, Limits, Usage

__all__ = ["JudgeConfig", "evaluate", "score_batch", "split_limits"]

# The global row number added to the rows, and the judge usage a worker reports with a batch (JSON, on the
# batch's first row): column names no user table is expected to have.
ROW = "__rapideval_row"
USAGE = "__rapideval_usage"


@dataclasses.dataclass(frozen=True)
class JudgeConfig:
    """How every worker builds its :class:`~rapideval.llm.JudgeClient`: ``model`` (default
    ``$RAPIDEVAL_JUDGE_MODEL``), ``base_url`` (default ``$OPENAI_BASE_URL``), the API key read from the
    environment variable ``api_key_env`` on the worker, ``limits`` shared by all workers (default: the
    driver's :class:`~rapideval.llm.Limits` from the environment; see :func:`split_limits`), and ``cache``
    (``"default"``, a path, or None; the workers of one machine share its SQLite file)."""

    model: str | None = None
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    limits: Limits | None = None
    cache: str | None = "default"

    def client(self, *, limits: Limits | None = None, cache: str | None = "default") -> JudgeClient:
        """The judge this configuration names, with ``limits`` (default: the configuration's) and ``cache``
        (``"default"``: the configuration's)."""
        return JudgeClient(self.model, api_key=os.environ.get(self.api_key_env), base_url=self.base_url,
                           limits=limits or self.limits, cache=self.cache if cache == "default" else cache)  # fmt: skip


def split_limits(limits: Limits, workers: int) -> Limits:
    """One worker's share of ``limits`` shared by ``workers`` concurrent workers: ``share`` divided by
    ``workers``, so that the given requests and tokens per minute, and those the endpoint states in its
    headers, are split between them; ``concurrency`` (requests in flight) and ``timeout`` are per worker.
    ``split_limits(Limits, int) -> Limits``."""
    return dataclasses.replace(limits, share=limits.share / workers)


def score_batch(batch: Any, specs: Sequence[Spec], fields: Mapping[str, str], ids: Sequence[str],
                judge: JudgeClient | None) -> Any:  # fmt: skip
    """The output rows of an Arrow batch whose ``__rapideval_row`` column holds each row's global number:
    what single-process evaluate() gives for those rows (``row``, the id columns, then per metric its value,
    status, reason and cause), scored run by run of consecutive row numbers so that every reason names the
    row's global number. ``score_batch(pa.Table, specs, {field: column}, ids, judge) -> pa.Table``."""
    import numpy as np

    rows = batch.column(ROW).to_numpy()
    cuts = [0, *(np.flatnonzero(np.diff(rows) != 1) + 1).tolist(), batch.num_rows]
    tables = []
    for start, stop in itertools.pairwise(cuts):
        if stop == start:
            continue  # an empty batch
        part = batch.slice(start, stop - start)
        chunk = Chunk(int(rows[start]), part.num_rows, {c: part.column(c).to_pylist() for c in part.column_names}, {})
        tables.append(score_chunk(chunk, specs, fields, ids, judge, None))
    return concat_tables(tables, specs, ids)


class _Worker:
    """A Ray actor's scorer: the metrics resolved and the judge built once, then :func:`score_batch` on each
    batch, with the judge's usage for that batch in the ``__rapideval_usage`` column."""

    def __init__(self, metrics: Sequence[Any], fields: Mapping[str, str], ids: Sequence[str],
                 judge: JudgeConfig | None, limits: Limits | None) -> None:  # fmt: skip
        self.specs, self.fields, self.ids = resolve(metrics), dict(fields), list(ids)
        self.judge = judge.client(limits=limits) if judge is not None else None
        self.reported = Usage()

    def __call__(self, batch: Any) -> Any:
        import pyarrow as pa

        table = score_batch(batch, self.specs, self.fields, self.ids, self.judge)
        if self.judge is None:
            return table
        now, before = self.judge.usage, self.reported
        self.reported = now
        delta = {f.name: getattr(now, f.name) - getattr(before, f.name)
                 for f in dataclasses.fields(Usage) if f.name not in ("cost_usd", "estimated")}  # fmt: skip
        cost = None if now.cost_usd is None or before.cost_usd is None else now.cost_usd - before.cost_usd
        report = json.dumps({**delta, "cost_usd": cost, "estimated": now.estimated})
        return table.append_column(USAGE, pa.array([report if i == 0 else None for i in range(table.num_rows)],
                                                   pa.string()))  # fmt: skip


def _num_rows(table: Any) -> int:
    return int(table.num_rows)


def _numbered(table: Any, first: int) -> Any:
    """A block with its rows' global numbers, from ``first``."""
    import numpy as np
    import pyarrow as pa

    return table.append_column(ROW, pa.array(np.arange(first, first + table.num_rows, dtype=np.int64)))


@contextlib.contextmanager
def _in_order(*contexts: Any) -> Iterator[None]:
    """Ray Data keeps the order of the rows (``preserve_order``) of datasets made in these DataContexts
    while in the block; the contexts are the caller's, so they are restored after it."""
    kept = [(c, c.execution_options.preserve_order) for c in contexts]
    for c, _ in kept:
        c.execution_options.preserve_order = True
    try:
        yield
    finally:
        for c, value in reversed(kept):
            c.execution_options.preserve_order = value


def evaluate(
    dataset: Any,
    metrics: Sequence[Any],
    *,
    judge_config: JudgeConfig | None = None,
    column_map: Mapping[str, str] | None = None,
    id_columns: Sequence[str] | None = None,
    batch_size: int | None = None,
    concurrency: int | None = None,
    chunk_size: int | None = None,
) -> EvaluationResult:
    """Score every row of the Ray Dataset ``dataset`` with every metric of ``metrics`` on Ray workers;
    equal to :func:`rapideval.evaluate` on the same rows in the dataset's order (per-row table, summaries,
    failures, worst rows). ``evaluate(ray.data.Dataset, metrics, *, judge_config, column_map, id_columns,
    batch_size, concurrency, chunk_size) -> EvaluationResult``, its per-row table in memory.

    ``metrics``, ``column_map`` and ``id_columns`` are :func:`rapideval.evaluate`'s; only the columns they
    name go to the workers. ``concurrency`` workers (Ray actors, one CPU each; default: one per node of the
    cluster; at most one per block of the dataset) each score ``batch_size``-row Arrow batches (default
    ``chunk_size``) with the Rust kernels and the judged metrics. Judged metrics need ``judge_config``
    (default: :class:`JudgeConfig` from the environment); its rate limits (rpm, tpm) are the endpoint's,
    shared by all workers, so each of the ``n`` workers gets ``1 / n`` of them (:func:`split_limits`).

    Rows are numbered from 0 in the dataset's order: the dataset runs with ``preserve_order``, its blocks
    (of the columns used, in Ray's object store, spilled to disk when large) are counted and each is given
    its rows' numbers as a column before the workers start. (``Dataset.zip`` with ``ray.data.range`` would
    do the same, but Ray deprecates it.) ``chunk_size`` (as :func:`rapideval.evaluate`'s: 10,000, 256 with
    a judged metric) sets how the driver feeds the summaries. Raises ValueError as :func:`rapideval.evaluate`
    does, and for a ``concurrency``, ``batch_size`` or ``chunk_size`` that is not a positive int."""
    import numpy as np
    import ray
    from ray.data import DataContext

    source = "the Ray Dataset"
    columns = dataset.columns()
    if ROW in columns:
        raise ValueError(f"rapideval.ray.evaluate: the dataset has a column {ROW!r}, which this function adds")
    setup = RunSetup.of(metrics, columns, column_map, id_columns, source)
    specs, fields, ids = setup.specs, setup.fields, setup.ids
    chunk_size = setup.chunk_rows(chunk_size, where="rapideval.ray.evaluate")
    batch_size = chunk_size if batch_size is None else batch_size
    if concurrency is None:
        nodes: list[dict[str, Any]] = ray.nodes()  # type: ignore[no-untyped-call]
        concurrency = max(1, len([node for node in nodes if node["Alive"]]))
    for name, value in (("batch_size", batch_size), ("concurrency", concurrency)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"rapideval.ray.evaluate: {name} must be a positive int, got {value!r}")
    if judge_config is None and setup.needs_judge:
        judge_config = JudgeConfig()
    # The driver's judge sends no request: it gives the signatures, and the limits that the workers share.
    judge = judge_config.client(cache=None) if judge_config is not None else None
    signatures = setup.signatures(judge, None)

    tracker = setup.tracker()
    tables, usage = [], Usage()
    with _in_order(dataset.context, DataContext.get_current()):
        # The dataset's blocks in its order, as Arrow tables (Ray's DeveloperAPI), counted, then numbered.
        blocks = dataset.select_columns(setup.columns).to_arrow_refs()
        count, number = ray.remote(_num_rows), ray.remote(_numbered)
        counts = ray.get([count.remote(b) for b in blocks])
        firsts = np.cumsum([0, *counts[:-1]]).tolist()
        numbered = [number.remote(b, first) for b, first in zip(blocks, firsts, strict=True)]
        del blocks  # the numbered blocks replace them in the object store
        # No more workers than blocks with rows: Ray would warn of idle actors (and none for no rows at all).
        workers = min(concurrency, sum(1 for n in counts if n))
        batches: Iterable[Any] = ()
        if workers:
            worker_limits = split_limits(judge.limits, workers) if judge is not None else None
            scored = ray.data.from_arrow_refs(numbered).map_batches(  # type: ignore[arg-type]
                _Worker, batch_format="pyarrow", batch_size=batch_size,
                compute=ray.data.ActorPoolStrategy(size=workers),
                fn_constructor_args=(metrics, fields, ids, judge_config, worker_limits))  # fmt: skip
            batches = scored.iter_batches(batch_format="pyarrow", batch_size=chunk_size)
        for table in batches:
            if USAGE in table.column_names:
                for report in table.column(USAGE).drop_null().to_pylist():
                    usage = usage + Usage(**json.loads(report))
                table = table.drop_columns([USAGE])
            tracker.add(table)
            tables.append(table)
    return EvaluationResult(summary=tracker.summaries(signatures), failures=tracker.failures,
                            worst=tracker.worst(), signatures=signatures, n_rows=tracker.n_rows, output=None,
                            usage={"judge": {"model": judge.model, **dataclasses.asdict(usage)}} if judge else {},
                            table=concat_tables(tables, specs, ids))  # fmt: skip
