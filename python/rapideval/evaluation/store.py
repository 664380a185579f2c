"""Where :func:`rapideval.evaluate` streams its rows (``output=``): a Parquet or JSON Lines file, written chunk
by chunk so that a crash, a kill or Ctrl-C loses only the chunk in flight, and resumed by the same call.

- JSON Lines: each chunk's lines are appended and synced, then ``<path>.progress.json`` records the rows and
  bytes done; a resumed run cuts the file back to that length.
- Parquet: each chunk is an Arrow IPC part file in ``<path>.parts/`` (written whole, then renamed; IPC because
  it is written and read back at memory speed, where Parquet's encoding would be paid twice); at the end the
  parts become ``<path>`` (one row group per part) with the run's summary in the file's metadata.

Nothing rapideval did not write is deleted or overwritten: an existing output must be a rapideval result or
run (else ValueError naming it), and ``<path>.parts/`` and ``<path>.summary.json`` must hold only rapideval's
own files.

Both record the run's manifest (the data's fingerprint, the metrics' signatures, the column map, the chunk
size): a later call resumes only a run with the same manifest, and says what differs otherwise.
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import re
import shutil
from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["Output", "read_metadata", "read_table", "storable", "write_table"]

_META_KEY = b"rapideval"
# What a parts directory holds: its progress record and the chunks' part files (whole, or being written).
_OWN_PART = re.compile(r"progress\.json(\.tmp)?|part-\d{6}\.(arrow|tmp)")


def _atomic_json(path: pathlib.Path, data: Any) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    return ", ".join(k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)) or "nothing"


class Output:
    """A run's output file. :meth:`start` returns the rows already done by an earlier run of the same
    manifest (with their tables, to rebuild the summaries), or raises ValueError when the file holds another
    run; :meth:`write` adds a chunk; :meth:`finish` completes the file with the run's metadata."""

    def __init__(self, path: pathlib.Path, manifest: Mapping[str, Any], resume: bool) -> None:
        suffix = path.suffix.lower()
        if suffix not in (".parquet", ".jsonl"):
            raise ValueError(f"evaluate: output must end in .parquet or .jsonl, got {path.name!r}")
        self.path, self.manifest, self.resume = path, dict(manifest), resume
        self.parquet = suffix == ".parquet"
        self.progress = (path.with_name(path.name + ".parts") / "progress.json" if self.parquet
                         else path.with_name(path.name + ".progress.json"))  # fmt: skip
        self.rows = 0
        self._parts = 0
        self._bytes = 0

    # Starting --------------------------------------------------------------------------------------------

    def complete(self) -> bool:
        """Whether ``path`` already holds the finished run of this manifest (and no run is in progress)."""
        if not self.resume or self.progress.exists() or not self.path.exists():
            return False
        try:
            meta = read_metadata(self.path)
        except (ValueError, OSError):
            return False
        if meta.get("manifest") != self.manifest:
            raise ValueError(f"evaluate: {self.path} holds another run (different: "
                             f"{_differences(meta.get('manifest') or {}, self.manifest)}); pass resume=False to "
                             f"replace it, or another output")  # fmt: skip
        return True

    def start(self) -> Iterator[Any]:
        """Prepare the file; yield the tables of the chunks an earlier run of this manifest finished."""
        if self.resume and self.progress.exists():
            with open(self.progress, encoding="utf-8") as f:
                state = json.load(f)
            if state["manifest"] != self.manifest:
                raise ValueError(f"evaluate: {self.path} is a run in progress with other settings (different: "
                                 f"{_differences(state['manifest'], self.manifest)}); pass resume=False to start "
                                 f"over, or another output")  # fmt: skip
            self.rows, self._parts, self._bytes = state["rows"], state.get("parts", 0), state.get("bytes", 0)
            yield from self._done_tables()
            return
        self._clear()
        self._save_progress()

    def _clear(self) -> None:
        """Start over, after checking that everything replaced was written by rapideval."""
        self._check_own()
        if self.parquet:
            shutil.rmtree(self.progress.parent, ignore_errors=True)
            self.progress.parent.mkdir(parents=True)
        else:
            self.path.write_bytes(b"")
        summary = _sidecar(self.path)
        if summary.exists():
            summary.unlink()

    def _check_own(self) -> None:
        """ValueError naming the first file in the way that rapideval did not write: the output itself (not a
        result and no run in progress), a file in ``<path>.parts/``, or ``<path>.summary.json``."""

        def refuse(path: pathlib.Path, what: str) -> ValueError:
            return ValueError(f"evaluate: {path} {what}, so rapideval will not replace it; move it or choose another "
                              f"output")  # fmt: skip

        parts = self.path.with_name(self.path.name + ".parts")
        if parts.exists():
            foreign = [p.name for p in parts.iterdir() if not _OWN_PART.fullmatch(p.name)] if parts.is_dir() else ["."]
            if foreign:
                raise refuse(parts, f"holds files rapideval did not write ({', '.join(sorted(foreign)[:3])})")
        summary = _sidecar(self.path)
        if summary.exists() and not _is_summary(summary):
            raise refuse(summary, "is not a rapideval summary")
        if self.path.exists() and not self.progress.exists():
            try:
                read_metadata(self.path)
            except (ValueError, OSError):
                raise refuse(self.path, "exists and is not a rapideval result") from None

    def _done_tables(self) -> Iterator[Any]:
        if self.parquet:
            for k in range(self._parts):
                yield _read_part(self._part(k))
            for stray in self.progress.parent.glob("part-*.arrow"):  # a part written after the last record
                if int(stray.stem.split("-")[1]) >= self._parts:
                    stray.unlink()
            return
        with open(self.path, "r+b") as f:
            f.truncate(self._bytes)  # the lines of a chunk that was being written when the run stopped
        # Chunk by chunk, as the rows were first summarised: the running statistics come out bit for bit the same.
        yield from _jsonl_tables(self.path, self.manifest["chunk_size"])

    # Writing ---------------------------------------------------------------------------------------------

    def _part(self, k: int) -> pathlib.Path:
        return self.progress.parent / f"part-{k:06d}.arrow"

    def _save_progress(self) -> None:
        _atomic_json(self.progress, {"manifest": self.manifest, "rows": self.rows, "parts": self._parts,
                                     "bytes": self._bytes})  # fmt: skip

    def write(self, table: Any) -> None:
        """Add one chunk's rows, durably, then record them as done."""
        if self.parquet:
            import pyarrow as pa

            part = self._part(self._parts)
            tmp = part.with_suffix(".tmp")
            with pa.OSFile(str(tmp), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
                writer.write_table(table)
            os.replace(tmp, part)
            self._parts += 1
        else:
            data = "".join(json.dumps(row, ensure_ascii=False, allow_nan=False) + "\n"
                           for row in _json_rows(table)).encode("utf-8")  # fmt: skip
            with open(self.path, "ab") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            self._bytes += len(data)
        self.rows += table.num_rows
        self._save_progress()

    def finish(self, metadata: Mapping[str, Any]) -> None:
        """Complete the file: the run's metadata (and manifest) stored with it, the progress record removed."""
        meta = {**metadata, "manifest": self.manifest}
        if self.parquet:
            _merge_parts([self._part(k) for k in range(self._parts)], self.path, meta)
            shutil.rmtree(self.progress.parent)
        else:
            _atomic_json(_sidecar(self.path), meta)
            self.progress.unlink()


def _is_summary(path: pathlib.Path) -> bool:
    """Whether ``path`` is a summary that rapideval wrote (a JSON object with the run's manifest)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "manifest" in data


def _json_rows(table: Any) -> Iterator[dict[str, Any]]:
    for row in table.to_pylist():
        yield {k: None if isinstance(v, float) and not math.isfinite(v) else v for k, v in row.items()}


def _sidecar(path: pathlib.Path) -> pathlib.Path:
    return path.with_name(path.name + ".summary.json")


def _typed(table: Any) -> Any:
    """A table read from JSON Lines with the types evaluate() writes: ``row`` int64, each metric's value
    float64 and its status, reason and cause strings (a column of nulls has no type of its own in JSON)."""
    import pyarrow as pa

    names = set(table.column_names)
    metrics = {c[: -len(".status")] for c in names if c.endswith(".status")}
    types = {"row": pa.int64(), **{m: pa.float64() for m in metrics},
             **{f"{m}.{part}": pa.string() for m in metrics for part in ("status", "reason", "cause")}}  # fmt: skip
    schema = pa.schema([pa.field(f.name, types.get(f.name, f.type)) for f in table.schema])
    return table.cast(schema)


def storable(values: list[Any]) -> tuple[Any, bool]:
    """A column's values as an Arrow array of their own type; as text where they have none (mixed types, an
    int past 64 bits, text that is not Unicode: a lone surrogate is kept escaped, ``\\ud800``). The flag says
    whether they were turned into text."""
    import pyarrow as pa

    try:
        return pa.array(values), False
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError, UnicodeEncodeError):
        text = [None if v is None else str(v).encode("utf-8", "backslashreplace").decode() for v in values]
        return pa.array(text, pa.string()), True


def _jsonl_tables(path: pathlib.Path, rows_per_table: int = 10_000) -> Iterator[Any]:
    with open(path, encoding="utf-8") as f:
        batch: list[dict[str, Any]] = []
        for line in f:
            batch.append(json.loads(line))
            if len(batch) == rows_per_table:
                yield _typed(_table(batch))
                batch = []
        if batch:
            yield _typed(_table(batch))


def _table(rows: list[dict[str, Any]]) -> Any:
    import pyarrow as pa

    names = dict.fromkeys(k for row in rows for k in row)
    return pa.table({name: storable([row.get(name) for row in rows])[0] for name in names})


def _read_part(path: pathlib.Path) -> Any:
    import pyarrow as pa

    with pa.OSFile(str(path)) as source:
        return pa.ipc.open_file(source).read_all()


def _merge_parts(parts: list[pathlib.Path], path: pathlib.Path, metadata: Mapping[str, Any]) -> None:
    """One Parquet file of the parts, part by part (one row group each), in their common schema."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schemas = []
    for p in parts:
        with pa.OSFile(str(p)) as source:
            schemas.append(pa.ipc.open_file(source).schema)
    schema = _common_schema(schemas)
    schema = schema.with_metadata({_META_KEY: json.dumps(metadata, ensure_ascii=False).encode("utf-8")})
    tmp = path.with_name(path.name + ".tmp")
    # Dictionary pages for the text columns (statuses, causes: a few values), none for the scores, where pyarrow
    # would try one and give up: a third faster, and a smaller file.
    text = [f.name for f in schema if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)]
    with pq.ParquetWriter(tmp, schema, use_dictionary=text) as writer:
        for p in parts:
            writer.write_table(_read_part(p).cast(schema))
    os.replace(tmp, path)


def _common_schema(schemas: list[Any]) -> Any:
    """The schema every part is cast to: Arrow's permissive promotion, and text for a column that is text in
    one part and numbers in another (ids: ints in one chunk, strings in a later one)."""
    import pyarrow as pa

    if not schemas:
        return pa.schema([])
    try:
        return pa.unify_schemas(schemas, promote_options="permissive")
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        fields: dict[str, Any] = {}
        for schema in schemas:
            for field in schema:
                known = fields.get(field.name)
                if known is None or pa.types.is_null(known.type):
                    fields[field.name] = field
                elif known.type != field.type and not pa.types.is_null(field.type):
                    fields[field.name] = pa.field(field.name, pa.string())
        return pa.schema(list(fields.values()))


def read_table(path: pathlib.Path) -> Any:
    """The rows of a result file."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if path.suffix.lower() == ".parquet":
        return pq.read_table(path).replace_schema_metadata(None)
    tables = list(_jsonl_tables(path))
    schema = _common_schema([t.schema for t in tables])
    return pa.concat_tables([t.cast(schema) for t in tables])


def read_metadata(path: pathlib.Path) -> dict[str, Any]:
    """The summary stored with a result file; ValueError when it has none."""
    import pyarrow.parquet as pq

    if path.suffix.lower() == ".parquet":
        meta = pq.read_schema(path).metadata or {}
        if _META_KEY not in meta:
            raise ValueError(f"{path}: not a rapideval result (no summary in its metadata)")
        return json.loads(meta[_META_KEY])  # type: ignore[no-any-return]
    sidecar = _sidecar(path)
    if not sidecar.exists():
        raise ValueError(f"{path}: not a finished rapideval result (no {sidecar.name} beside it)")
    with open(sidecar, encoding="utf-8") as f:
        return json.load(f)  # type: ignore[no-any-return]


def write_table(path: pathlib.Path, table: Any, metadata: Mapping[str, Any]) -> pathlib.Path:
    """Save rows and their summary as one result file (see :meth:`EvaluationResult.save`)."""
    import pyarrow.parquet as pq

    if path.suffix.lower() == ".parquet":
        meta = {_META_KEY: json.dumps(metadata, ensure_ascii=False).encode("utf-8")}
        pq.write_table(table.replace_schema_metadata(meta), path)
    elif path.suffix.lower() == ".jsonl":
        with open(path, "w", encoding="utf-8") as f:
            for row in _json_rows(table):
                f.write(json.dumps(row, ensure_ascii=False, allow_nan=False) + "\n")
        _atomic_json(_sidecar(path), metadata)
    else:
        raise ValueError(f"save: the path must end in .parquet or .jsonl, got {path.name!r}")
    return path
