"""Ragas 0.4.3 ``ragas.validation.remap_column_names``: a Hugging Face dataset's columns renamed to Ragas's
field names, as ``evaluate(..., column_map=)`` does."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["remap_column_names"]


def remap_column_names(dataset: Any, column_map: Mapping[str, str]) -> Any:
    """``dataset`` (a ``datasets.Dataset``) with each column of ``column_map`` (``{field: column}``) renamed
    to its field; the other columns are kept."""
    return dataset.rename_columns({column: field for field, column in column_map.items()})
