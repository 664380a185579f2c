"""The tables :func:`rapideval.evaluate` reads, in chunks of rows and never whole: lists of dicts, pandas and
polars DataFrames, pyarrow Tables and RecordBatchReaders, Hugging Face Datasets, and JSON Lines, JSON, CSV, TSV
and Parquet files.

A chunk is ``(first_row, columns, row_errors)``: the values of the asked-for columns as Python lists (None where
a row lacks one), and the rows that could not be read at all (a JSON Lines line that is not JSON) with why. A
file's rows are numbered from 0 in file order, blank JSON Lines lines skipped.
"""

from __future__ import annotations

import collections
import csv
import itertools
import json
import os
import pathlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Chunk", "Source", "open_source"]

# A JSON Lines file's columns are the keys of its first rows (reading it all would take a pass of its own).
_SCANNED_ROWS = 1000


@dataclass(frozen=True)
class Chunk:
    """Rows ``first_row`` .. ``first_row + n_rows - 1``: ``columns[name][i]`` is row ``first_row + i``'s value
    (None where it has none); ``row_errors[i]`` says why row ``first_row + i`` could not be read."""

    first_row: int
    n_rows: int
    columns: dict[str, list[Any]]
    row_errors: dict[int, str]


class Source:
    """A table read in chunks. ``columns``: the column names; ``fingerprint``: what identifies the data
    for a resumed run (a file's path, size and modification time; the size and columns of data in memory;
    None for a stream); ``name``: how
    messages name it. :meth:`chunks` yields :class:`Chunk` s of ``chunk_size`` rows (the last may be
    shorter) with the named columns."""

    def __init__(self, name: str, columns: Sequence[str], fingerprint: Mapping[str, Any] | None) -> None:
        self.name, self.columns, self.fingerprint = name, list(columns), fingerprint

    def chunks(self, names: Sequence[str], chunk_size: int) -> Iterator[Chunk]:
        raise NotImplementedError


class _Rows(Source):
    """A list of dicts."""

    def __init__(self, rows: Sequence[Any]) -> None:
        for i, row in enumerate(rows):
            if not isinstance(row, Mapping):
                raise TypeError(f"evaluate: data row {i} is a {type(row).__name__}, not a dict")
        columns = list(dict.fromkeys(k for row in rows for k in row))
        super().__init__("the data", columns, _memory_fingerprint(len(rows), columns))
        self._rows = rows

    def chunks(self, names: Sequence[str], chunk_size: int) -> Iterator[Chunk]:
        for start in range(0, len(self._rows), chunk_size):
            part = self._rows[start : start + chunk_size]
            yield Chunk(start, len(part), {c: [row.get(c) for row in part] for c in names}, {})


class _Arrow(Source):
    """A pyarrow Table, or anything that becomes one slice by slice (``slice_of(start, n)``)."""

    def __init__(self, name: str, table: Any) -> None:
        columns = [str(c) for c in table.column_names]
        super().__init__(name, columns, _memory_fingerprint(table.num_rows, columns))
        self._table = table

    def chunks(self, names: Sequence[str], chunk_size: int) -> Iterator[Chunk]:
        for start in range(0, self._table.num_rows, chunk_size):
            part = self._table.slice(start, chunk_size)
            yield Chunk(start, part.num_rows, {c: part.column(c).to_pylist() for c in names}, {})


class _Batches(Source):
    """A stream of Arrow record batches (a RecordBatchReader, a Parquet file), re-cut into chunks of
    ``chunk_size`` rows so that chunk boundaries do not depend on how the stream was written."""

    def __init__(self, name: str, columns: Sequence[str], fingerprint: Mapping[str, Any] | None, batches: Any):
        super().__init__(name, columns, fingerprint)
        self._batches = batches  # a function of (columns) -> iterator of RecordBatch

    def chunks(self, names: Sequence[str], chunk_size: int) -> Iterator[Chunk]:
        import pyarrow as pa

        pending: list[Any] = []
        count = start = 0
        for batch in self._batches(names):
            pending.append(batch)
            count += batch.num_rows
            while count >= chunk_size:
                table = pa.Table.from_batches(pending)
                yield _arrow_chunk(start, table.slice(0, chunk_size), names)
                rest = table.slice(chunk_size)
                pending, count, start = rest.to_batches(), rest.num_rows, start + chunk_size
        if count:
            yield _arrow_chunk(start, pa.Table.from_batches(pending), names)


def _arrow_chunk(start: int, table: Any, names: Sequence[str]) -> Chunk:
    return Chunk(start, table.num_rows, {c: table.column(c).to_pylist() for c in names}, {})


class _JsonLines(Source):
    """A JSON Lines file, read line by line; a line that is not a JSON object is a row error."""

    def __init__(self, path: pathlib.Path, encoding: str) -> None:
        self._path, self._encoding = path, encoding
        columns: dict[str, None] = {}
        for n, row, _ in self._rows():  # the keys of the first rows name the columns
            columns.update(dict.fromkeys(row))
            if n + 1 >= _SCANNED_ROWS:
                break
        super().__init__(str(path), list(columns), _file_fingerprint(path))

    def _rows(self) -> Iterator[tuple[int, dict[str, Any], str | None]]:
        n = 0
        for lineno, line in _text_lines(self._path, self._encoding):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                error = None if isinstance(row, dict) else f"line {lineno} is a JSON {type(row).__name__}"
            except json.JSONDecodeError as e:
                row, error = None, f"line {lineno} is not valid JSON ({e.msg})"
            except RecursionError:
                row, error = None, f"line {lineno} nests JSON deeper than Python's parser can read"
            yield n, row if isinstance(row, dict) else {}, error
            n += 1

    def chunks(self, names: Sequence[str], chunk_size: int) -> Iterator[Chunk]:
        rows = self._rows()
        while part := list(itertools.islice(rows, chunk_size)):
            columns = {c: [row.get(c) for _, row, _ in part] for c in names}
            errors = {i: error for i, (_, _, error) in enumerate(part) if error is not None}
            yield Chunk(part[0][0], len(part), columns, errors)


class _Delimited(Source):
    """A CSV or TSV file, read row by row with Python's csv module (every value a str; an empty cell is
    missing)."""

    def __init__(self, path: pathlib.Path, encoding: str, delimiter: str) -> None:
        self._path, self._encoding, self._delimiter = path, encoding, delimiter
        lines = (line for _, line in _text_lines(path, encoding))
        header = next(csv.reader(lines, delimiter=delimiter), None)
        lines.close()
        if header is None:
            raise ValueError(f"{path}: the file is empty (no header row)")
        super().__init__(str(path), header, _file_fingerprint(path))
        self._header = header

    def chunks(self, names: Sequence[str], chunk_size: int) -> Iterator[Chunk]:
        positions = [self._header.index(c) for c in names]
        if csv.field_size_limit() < _CSV_CELL_LIMIT:
            csv.field_size_limit(_CSV_CELL_LIMIT)  # long documents are data; the default stops at 128 KiB
        rows = _csv_rows(_text_lines(self._path, self._encoding), self._delimiter, len(self._header))
        start = 0
        while part := list(itertools.islice(rows, chunk_size)):
            columns = {c: [row[p] if p < len(row) and row[p] != "" else None for row, _ in part]
                       for c, p in zip(names, positions, strict=True)}  # fmt: skip
            errors = {i: error for i, (_, error) in enumerate(part) if error is not None}
            yield Chunk(start, len(part), columns, errors)
            start += len(part)


_CSV_CELL_LIMIT = 1 << 28
"""The largest CSV cell read (256 MiB); a larger one is its row's error."""


class _Lines:
    """Numbered lines for a csv reader, with the lines of the record being read kept (``taken``) so that
    they can be put back (``put_back``) and read again."""

    def __init__(self, lines: Iterator[tuple[int, str]]) -> None:
        self._lines, self._back = lines, collections.deque[tuple[int, str]]()
        self.taken: list[tuple[int, str]] = []

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        numbered = self._back.popleft() if self._back else next(self._lines)
        self.taken.append(numbered)
        return numbered[1]

    def put_back(self, lines: Sequence[tuple[int, str]]) -> None:
        self._back.extendleft(reversed(lines))


def _csv_rows(lines: Iterator[tuple[int, str]], delimiter: str, width: int) -> Iterator[tuple[list[str], str | None]]:
    """The rows after the header of a CSV file's numbered ``lines``, a row that cannot be read as ``([], why)``
    naming its line. A quoted cell may hold line breaks, but a record over several lines that ends in an
    error or has not the header's ``width`` cells is a quote left open: that line is the row's error, and
    the lines it took are read again as rows of their own (rather than swallowed into one cell)."""
    source = _Lines(lines)
    reader = csv.reader(source, delimiter=delimiter, strict=True)
    source.taken.clear()
    try:
        next(reader)  # the header
    except (StopIteration, csv.Error):
        return
    while True:
        source.taken.clear()
        try:
            row, error = next(reader), None
        except StopIteration:
            return
        except csv.Error as e:
            row, error = [], str(e)
        taken = list(source.taken)
        first = taken[0][0] if taken else reader.line_num
        if len(taken) > 1 and (error is not None or len(row) != width):
            source.put_back(taken[1:])
            why = error or f"the row would run over {len(taken)} lines to {len(row)} cells, the header has {width}"
            yield [], f"line {first} opens a quote that is not closed where its row ends ({why})"
        elif error is not None:
            yield [], f"line {first} cannot be read as CSV ({error})"
        else:
            yield row, None


def _text_lines(path: pathlib.Path, encoding: str) -> Iterator[tuple[int, str]]:
    """The lines of a text file with their numbers (from 1), each decoded on its own so that text that is not
    ``encoding`` is a ValueError naming the file, line and byte. UTF-8 is read with or without a byte order
    mark. (Line by line: an encoding whose newline is not the byte 0x0A, as UTF-16, is not read.)"""
    utf8 = encoding.lower().replace("_", "-") in ("utf-8", "utf8")
    with open(path, "rb") as f:
        for lineno, raw in enumerate(f, 1):
            if lineno == 1 and utf8 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                yield lineno, raw.decode(encoding)
            except UnicodeDecodeError as e:
                raise ValueError(
                    f"{path}: line {lineno} is not {encoding} text ({e.reason} at byte {e.start + 1} "
                    f"of the line); pass encoding= (for example 'latin-1' or 'cp1252')"
                ) from None


def _memory_fingerprint(rows: int, columns: Sequence[str]) -> dict[str, Any]:
    """What identifies data in memory for a resumed run: its size and columns (its values are not hashed:
    resuming with other rows of the same shape is the caller's mistake to avoid)."""
    return {"rows": rows, "columns": list(columns)}


def _file_fingerprint(path: pathlib.Path) -> dict[str, Any]:
    stat = path.stat()
    return {"path": str(path.resolve()), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def _parquet(path: pathlib.Path) -> Source:
    import pyarrow.parquet as pq

    schema = pq.read_schema(path)

    def batches(names: Sequence[str]) -> Iterator[Any]:
        # pre_buffer off: with it, pyarrow 26 keeps every row group's column data it has read until the file is
        # closed (1 GB held after 10M rows), where without it memory stays that of one row group. Reads of
        # 1 MiB instead of whole column chunks are as fast, or faster.
        with pq.ParquetFile(path, pre_buffer=False, buffer_size=1 << 20) as f:
            yield from f.iter_batches(batch_size=65_536, columns=list(names))

    return _Batches(str(path), schema.names, _file_fingerprint(path), batches)


def _json(path: pathlib.Path, encoding: str) -> Source:
    try:
        data = json.loads("".join(line for _, line in _text_lines(path, encoding)))
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: line {e.lineno} is not valid JSON ({e.msg})") from None
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a JSON list of objects, got a {type(data).__name__} (use JSON Lines "
                         f"for large files: they are read in chunks)")  # fmt: skip
    source = _Rows(data)
    source.name, source.fingerprint = str(path), _file_fingerprint(path)
    return source


def open_source(data: Any, *, encoding: str = "utf-8") -> Source:
    """The :class:`Source` of ``data``: a list of dicts, a pandas or polars DataFrame, a pyarrow Table or
    RecordBatchReader, a Hugging Face Dataset, or a path (str or PathLike) to a ``.jsonl``/``.ndjson``,
    ``.json`` (a list of objects, read whole), ``.csv``, ``.tsv`` or ``.parquet`` file. ``encoding`` is the
    text files' (UTF-8 with or without a byte order mark by default)."""
    if isinstance(data, (str, os.PathLike)):
        path = pathlib.Path(data)
        if not path.exists():
            raise FileNotFoundError(f"evaluate: no such file: {path}")
        suffix = path.suffix.lower()
        if suffix in (".jsonl", ".ndjson"):
            return _JsonLines(path, encoding)
        if suffix == ".json":
            return _json(path, encoding)
        if suffix in (".csv", ".tsv"):
            return _Delimited(path, encoding, "\t" if suffix == ".tsv" else ",")
        if suffix == ".parquet":
            return _parquet(path)
        raise ValueError(f"evaluate: {path}: unsupported format {suffix!r} (use .jsonl, .json, .csv, .tsv or "
                         f".parquet)")  # fmt: skip
    kind = f"{type(data).__module__}.{type(data).__qualname__}"
    if kind.startswith("pandas.") and hasattr(data, "columns"):
        return _PandasSource(data)
    if kind.startswith("polars.") and hasattr(data, "to_arrow"):
        return _Arrow("the polars DataFrame", data.to_arrow())
    if kind.startswith("datasets.") and hasattr(data, "features"):
        return _Arrow("the Hugging Face Dataset", _HuggingFace(data))
    if kind.startswith("pyarrow.") and hasattr(data, "read_next_batch"):
        reader = data
        return _Batches("the RecordBatchReader", reader.schema.names, None, lambda names: _select(reader, names))
    if kind.startswith("pyarrow.") and hasattr(data, "num_rows") and hasattr(data, "slice"):
        return _Arrow("the pyarrow Table", data)
    if isinstance(data, Sequence) and not isinstance(data, (bytes, bytearray)):
        return _Rows(data)
    raise TypeError(f"evaluate: data must be a list of dicts, a DataFrame, a pyarrow Table or RecordBatchReader, a "
                    f"Hugging Face Dataset or a file path, got {kind}")  # fmt: skip


def _select(reader: Any, names: Sequence[str]) -> Iterator[Any]:
    for batch in reader:
        yield batch.select(list(names))


class _PandasSource(Source):
    """A pandas DataFrame, read one slice of rows at a time as Python values (NaN is a missing value)."""

    def __init__(self, frame: Any) -> None:
        columns = [str(c) for c in frame.columns]
        super().__init__("the pandas DataFrame", columns, _memory_fingerprint(len(frame), columns))
        self._frame = frame

    def chunks(self, names: Sequence[str], chunk_size: int) -> Iterator[Chunk]:
        by_name = {str(c): c for c in self._frame.columns}
        for start in range(0, len(self._frame), chunk_size):
            part = self._frame.iloc[start : start + chunk_size]
            columns = {}
            for name in names:
                values = part[by_name[name]].tolist()
                columns[name] = [None if isinstance(v, float) and v != v else v for v in values]
            yield Chunk(start, len(part), columns, {})


class _HuggingFace:
    """A Hugging Face Dataset seen as an Arrow table (its indices mapping applied slice by slice)."""

    def __init__(self, dataset: Any) -> None:
        self._arrow = dataset.with_format("arrow")
        self.num_rows = len(dataset)
        self.column_names = list(dataset.column_names)

    def slice(self, start: int, n: int) -> Any:
        return self._arrow[start : start + n]
