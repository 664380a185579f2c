"""Bad (responses, references) columns every text batch metric rejects, with the error and the place its
message must name."""

from __future__ import annotations

from typing import Any

BAD_TEXT_COLUMNS: list[tuple[Any, Any, type, str]] = [
    (["x", None], ["x", "y"], TypeError, "responses[1]"),
    (["x", "y"], ["x", None], TypeError, "references[1]"),
    (["x", "y"], ["x", 3], TypeError, "references[1]"),
    (["x", "y"], ["x", ["y", 3]], TypeError, "references[1][1]"),
    (["x", "\ud800"], ["x", "y"], ValueError, "responses[1]"),
    (["x", "y"], ["x", ["\ud800"]], ValueError, "references[1][0]"),
    (["x"], ["x", "y"], ValueError, "responses has 1 rows but references has 2"),
    ("x", ["x"], TypeError, "responses"),
]
