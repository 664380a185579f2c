"""mkdocs hook: the docstrings use Sphinx roles (``:class:`JudgeCache```, ``:meth:`~x.y.run```), which
mkdocstrings renders as text followed by code. Show the code alone (``~`` keeps the last name, as Sphinx)."""

from __future__ import annotations

import re
from typing import Any

_ROLE = re.compile(r":(?:class|meth|func|data|mod|attr|exc|obj):<code>(~)?([^<]+)</code>")


def _code(m: re.Match[str]) -> str:
    name = m[2].rsplit(".", 1)[-1] if m[1] else m[2]
    return f"<code>{name}</code>"


def on_page_content(html: str, **kwargs: Any) -> str:
    return _ROLE.sub(_code, html)
