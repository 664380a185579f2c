"""Turn the column types users hold (lists, tuples, numpy arrays, pyarrow arrays, pandas Series) into
plain lists, which the native layer reads in one pass and validates row by row; and read JSON Lines files."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any, TypeVar

T = TypeVar("T")


def read_jsonl(path: str | os.PathLike[str]) -> list[Any]:
    """The values of a JSON Lines file (blank lines skipped); a bad line is a ValueError naming file and line."""
    rows = []
    with open(path, encoding="utf8") as f:
        for lineno, line in enumerate(f, 1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as e:
                    raise ValueError(f"{path}:{lineno}: not valid JSON ({e.msg})") from None
    return rows


def as_list(column: Any, field: str) -> list[Any]:
    """Return ``column`` as a list; raise ``TypeError`` naming ``field`` for a non-column."""
    if isinstance(column, list):
        return column
    if isinstance(column, tuple):
        return list(column)
    if isinstance(column, (str, bytes)):
        raise TypeError(f"{field}: expected a sequence of str, got a single {type(column).__name__}")
    to_pylist = getattr(column, "to_pylist", None)  # pyarrow Array / ChunkedArray
    if callable(to_pylist):
        values: list[Any] = to_pylist()
        return values
    tolist = getattr(column, "tolist", None)  # numpy arrays, pandas Series
    if callable(tolist):
        out = tolist()
        if isinstance(out, list):
            return out
    try:
        return list(column)
    except TypeError:
        raise TypeError(f"{field}: expected a sequence of str, got {type(column).__name__}") from None


#: Row types the native layer reads as they are.
_PLAIN_ROWS = frozenset((str, list, tuple))


def as_references(column: Any, field: str = "references") -> list[Any]:
    """Rows of references: each row one str or a sequence of str (several references)."""
    rows = as_list(column, field)
    if _PLAIN_ROWS.issuperset(map(type, rows)):
        return rows
    return [row if isinstance(row, (str, list, tuple)) else _row_as_list(row, field, i) for i, row in enumerate(rows)]


def _row_as_list(row: Any, field: str, index: int) -> Any:
    if row is None or isinstance(row, (int, float, bytes, Mapping, AbstractSet)):
        return row  # the native layer names the row and the type (a dict or set is no list of references)
    return as_list(row, f"{field}[{index}]")


def score_rows(native: Callable[..., T], responses: Any, references: Any, *args: Any) -> T:
    """``native(responses, references, *args)`` on the two columns as lists. The reference rows are
    passed as they are, not read here: a row read on the calling thread costs a cache miss there, one
    row after another, while the native layer reads every row on all cores anyway. Only when it
    rejects a row (``TypeError``) are rows of other sequence types (numpy arrays, pyarrow lists) made
    lists, and the call made again."""
    responses = as_list(responses, "responses")
    rows = as_list(references, "references")
    try:
        return native(responses, rows, *args)
    except TypeError:
        converted = as_references(rows)
        if converted is rows:
            raise
    return native(responses, converted, *args)
