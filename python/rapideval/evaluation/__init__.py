"""``rapideval.evaluate``: any mix of deterministic and judged metrics over a table of any size, read in chunks,
with per-row statuses that never end the run, summaries with 95 % intervals, and streaming to a file that a
crash, a kill or Ctrl-C leaves resumable."""

from __future__ import annotations

import os
import pathlib
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..sample import V1_NAMES
from .metrics import Scores, Spec, names, resolve, run_chunk
from .result import EvaluationResult, MetricSummary, Tracker
from .sources import Chunk, open_source
from .store import Output, storable

if TYPE_CHECKING:
    from ..llm import JudgeClient

__all__ = ["EvaluationResult", "MetricSummary", "RunSetup", "evaluate", "metric_names"]

metric_names = names

# Rows per chunk: deterministic kernels work best on large batches; judged rows are slow, and a chunk is the
# unit that a stopped run keeps.
CHUNK_ROWS = 10_000
JUDGED_CHUNK_ROWS = 256


def field_columns(specs: Sequence[Spec], columns: Sequence[str], column_map: Mapping[str, str] | None,
                   source: str) -> dict[str, str]:  # fmt: skip
    """``{field: data column}`` for every field a metric needs or reads that the data has; ValueError naming
    a required field no column gives, with the columns that exist."""
    mapped = dict(column_map or {})
    for column in mapped:
        if column not in columns:
            raise ValueError(f"evaluate: column_map names column {column!r}, which {source} does not have; its "
                             f"columns: {list(columns)}")  # fmt: skip
    by_field = {field: column for column, field in mapped.items()}
    for column in columns:
        if column not in mapped:
            field = V1_NAMES.get(column, column)  # Ragas's v1 names, where the field has no column
            if field not in by_field and (field == column or field not in columns):
                by_field[field] = column
    out: dict[str, str] = {}
    for spec in specs:
        for field in spec.required:
            if field not in by_field:
                raise ValueError(f"evaluate: metric {spec.name!r} needs a {field!r} column, and {source} has none; "
                                 f"its columns: {list(columns)} (map one with column_map={{'<column>': "
                                 f"{field!r}}})")  # fmt: skip
            out[field] = by_field[field]
        out.update({f: by_field[f] for f in spec.optional if f in by_field})
    return out


def id_columns_of(id_columns: Sequence[str] | None, columns: Sequence[str], source: str) -> list[str]:
    """The columns carried into the output: ``id_columns`` (checked), by default ``id`` and ``*_id``."""
    if id_columns is None:
        return [c for c in columns if c == "id" or c.endswith(("_id", ".id"))]
    missing = [c for c in id_columns if c not in columns]
    if missing:
        raise ValueError(f"evaluate: id_columns {missing} are not columns of {source}; its columns: {list(columns)}")
    return list(id_columns)


@dataclass(frozen=True)
class RunSetup:
    """What every evaluation run (:func:`evaluate`, :func:`rapideval.ray.evaluate`) settles before its first
    row: the metrics' specs, the data column of each field, the id columns carried out, and the rows per
    chunk. :meth:`of` checks the arguments and raises ValueError naming what is wrong."""

    specs: list[Spec]
    fields: dict[str, str]
    ids: list[str]

    @classmethod
    def of(cls, metrics: Sequence[Any], columns: Sequence[str], column_map: Mapping[str, str] | None,
           id_columns: Sequence[str] | None, source: str) -> RunSetup:  # fmt: skip
        specs = resolve(metrics)
        return cls(specs, field_columns(specs, columns, column_map, source), id_columns_of(id_columns, columns, source))

    @property
    def judged(self) -> bool:
        """Whether a metric is judged (a judge or embeddings, or a metric computed row by row in Python)."""
        return any(s.metric is not None for s in self.specs)

    @property
    def needs_judge(self) -> bool:
        return any(s.metric is not None and s.metric.uses_judge for s in self.specs)

    @property
    def columns(self) -> list[str]:
        """The data columns the run reads: the fields' and the ids', each once."""
        return [*dict.fromkeys([*self.fields.values(), *self.ids])]

    def chunk_rows(self, chunk_size: int | None, batch_judge: bool = False, where: str = "evaluate") -> int:
        """``chunk_size``, checked, or the default: 10,000 rows, 256 with a judged metric unless the judge runs
        in batch mode (a batch answers a chunk's stages in a few batches each: the bigger the chunk, the fewer
        waits)."""
        if chunk_size is None:
            return JUDGED_CHUNK_ROWS if self.judged and not batch_judge else CHUNK_ROWS
        if not isinstance(chunk_size, int) or isinstance(chunk_size, bool) or chunk_size < 1:
            raise ValueError(f"{where}: chunk_size must be a positive int, got {chunk_size!r}")
        return chunk_size

    def signatures(self, judge: JudgeClient | None, embedder: JudgeClient | None) -> dict[str, str]:
        return {s.name: s.signature(judge, embedder) for s in self.specs}

    def tracker(self) -> Tracker:
        return Tracker([s.name for s in self.specs], {s.name: s.higher_is_better for s in self.specs})


def score_chunk(chunk: Chunk, specs: Sequence[Spec], fields: Mapping[str, str], ids: Sequence[str],
                judge: JudgeClient | None, embedder: JudgeClient | None) -> Any:  # fmt: skip
    """The output rows of one chunk (:func:`chunk_table`): every metric of ``specs`` on its rows, the fields
    read from the data columns ``fields`` names, the judged metrics in one run of ``judge``."""
    values = {field: chunk.columns[column] for field, column in fields.items()}
    scores = run_chunk(specs, values, fields, chunk.first_row, chunk.row_errors, chunk.n_rows, judge, embedder)
    return chunk_table(chunk, ids, scores)


def chunk_table(chunk: Chunk, ids: Sequence[str], scores: Mapping[str, Scores]) -> Any:
    """The output rows of one chunk: ``row``, the id columns, then per metric its value (null unless ok),
    status, reason and cause."""
    import pyarrow as pa

    data: dict[str, Any] = {"row": pa.array(np.arange(chunk.first_row, chunk.first_row + chunk.n_rows, dtype=np.int64))}
    for c in ids:
        data[c], as_text = storable(chunk.columns[c])
        if as_text:  # shown once per column (Python's default warning filter)
            warnings.warn(f"id column {c!r} holds values of mixed types, ints past 64 bits or text that is not "
                          f"Unicode: stored as text", stacklevel=2)  # fmt: skip
    for name, s in scores.items():
        data[name] = pa.array(s.values, pa.float64(), mask=np.isnan(s.values))  # NaN: null
        data[f"{name}.status"] = pa.array(s.status, pa.string())
        data[f"{name}.reason"] = pa.array(s.reason, pa.string())
        data[f"{name}.cause"] = pa.array(s.cause, pa.string())
    return pa.table(data)


def _same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return False


def evaluate(
    data: Any,
    metrics: Sequence[Any],
    *,
    judge: JudgeClient | None = None,
    embedder: JudgeClient | None = None,
    column_map: Mapping[str, str] | None = None,
    id_columns: Sequence[str] | None = None,
    output: str | pathlib.Path | None = None,
    resume: bool = True,
    chunk_size: int | None = None,
    encoding: str = "utf-8",
    progress: bool = False,
) -> EvaluationResult:
    """Score every row of ``data`` with every metric of ``metrics``.

    ``data``: a list of dicts, a pandas or polars DataFrame, a pyarrow Table or RecordBatchReader, a Hugging
    Face Dataset, or a path to a ``.jsonl``, ``.json``, ``.csv``/``.tsv`` (``encoding``, UTF-8 with or without
    a BOM by default) or ``.parquet`` file, read ``chunk_size`` rows at a time (10,000; 256 with a judged
    metric, unless the judge runs in batch mode). ``metrics``: names (:func:`metric_names`: ``bleu``,
    ``rougeL``, ``f1``, ..., ``faithfulness``, ``coherence``, ...) or :mod:`rapideval.judged` metric objects.
    Fields are Ragas's (``user_input``, ``response``, ``reference``, ``retrieved_contexts``, ...): a column of
    the field's name, a column mapped to it by ``column_map={"column": "field"}``, or one of Ragas's v1 names
    (``question``, ``answer``, ``contexts``, ``ground_truth``). ``id_columns`` are carried into the output
    (default: ``id`` and ``*_id`` columns). The judged metrics share ``judge`` (default: ``JudgeClient()`` from
    the environment) and embed through ``embedder`` (default: the judge).

    Every score is 0-1 (see :mod:`rapideval.evaluation.metrics`). A row a metric cannot score is
    ``not_applicable`` (a missing cell) or ``error`` (text of the wrong type, an unreadable line, the judge
    failed) with a reason naming the row, column and metric; the run goes on. With ``output`` (``.parquet``
    or ``.jsonl``) rows are written as their chunk finishes and the same call after a crash, kill or Ctrl-C
    resumes where it stopped (``resume=False`` starts over); a finished output is read back, not recomputed.
    ``progress`` shows a progress bar. Raises ValueError for an unknown metric or a missing column (listing
    the columns that exist)."""
    source = open_source(data, encoding=encoding)
    setup = RunSetup.of(metrics, source.columns, column_map, id_columns, source.name)
    specs, fields, ids = setup.specs, setup.fields, setup.ids
    if setup.needs_judge and judge is None:
        from ..llm import JudgeClient

        judge = JudgeClient()
    chunk_size = setup.chunk_rows(chunk_size, judge is not None and judge.batch is not None)
    signatures = setup.signatures(judge, embedder)
    tracker = setup.tracker()
    manifest = {"data": source.fingerprint, "metrics": signatures, "fields": fields, "id_columns": ids,
                "chunk_size": chunk_size}  # fmt: skip

    if output is not None and isinstance(data, (str, os.PathLike)) and _same_file(data, output):
        raise ValueError(f"evaluate: the output {output} is the input data; write the results to another file")
    out = Output(pathlib.Path(output), manifest, resume) if output is not None else None
    if out is not None and out.complete():
        return EvaluationResult.load(out.path)
    tables: list[Any] = []
    if out is not None:
        for table in out.start():
            tracker.add(table)
    done = out.rows if out is not None else 0
    bar = _progress_bar(progress, done)
    for chunk in source.chunks(setup.columns, chunk_size):
        if chunk.first_row + chunk.n_rows <= done:
            continue
        table = score_chunk(chunk, specs, fields, ids, judge, embedder)
        tracker.add(table)
        if out is not None:
            out.write(table)
        else:
            tables.append(table)
        if bar is not None:
            bar.update(chunk.n_rows)
    if bar is not None:
        bar.close()
    usage = _usage(judge, embedder)
    result = EvaluationResult(summary=tracker.summaries(signatures), failures=tracker.failures,
                              worst=tracker.worst(), usage=usage, signatures=signatures, n_rows=tracker.n_rows,
                              output=out.path if out is not None else None,
                              table=None if out is not None else concat_tables(tables, specs, ids))  # fmt: skip
    if out is not None:
        out.finish(result.metadata())
    return result


def concat_tables(tables: list[Any], specs: Sequence[Spec], ids: Sequence[str]) -> Any:
    """The chunks' output tables as one (an empty table of the output's columns when there are none)."""
    import pyarrow as pa

    if not tables:
        empty = Chunk(0, 0, {c: [] for c in ids}, {})
        return chunk_table(empty, ids, {s.name: Scores(0) for s in specs})
    return pa.concat_tables(tables, promote_options="permissive")


def _usage(judge: JudgeClient | None, embedder: JudgeClient | None) -> dict[str, Any]:
    from dataclasses import asdict

    out: dict[str, Any] = {}
    for role, client in (("judge", judge), ("embedder", embedder)):
        if client is not None:
            # The rate the adaptive control settled at for the model this role called, and where it came from.
            rate = client.rate_limits().get(client.model if role == "judge" else client.embedding_model)
            settled = {"rpm": None if rate is None or rate.rpm is None else round(rate.rpm, 1),
                       "rate_source": None if rate is None else rate.source}  # fmt: skip
            out[role] = {"model": client.model, **asdict(client.usage), **settled}
    return out


def _progress_bar(enabled: bool, done: int) -> Any:
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(initial=done, unit="row", desc="evaluate", dynamic_ncols=True)
