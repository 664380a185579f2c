"""The README's lists put into effect: the only way a copied peer test is deselected, or allowed a
warning this repository's ``filterwarnings = error`` would turn into a failure.

README.md lines of the form

    - `tests/peers/<dir>/<file>::<test>` — reason                       (under a "### Deselected" heading)
    - `tests/peers/<dir>/<file>::<test>` — `<filterwarnings spec>` — reason   (under "### Warnings allowed")

name a test (a class, or a parametrized test without its ``[...]``, covers all it holds). A conftest
applies the entries below its own folder (:func:`apply`); an entry naming a file that does not exist,
or with no reason, stops the run.
"""

from __future__ import annotations

import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parent / "README.md"
ROOT = README.parents[2]

_ENTRY = re.compile(r"^- `(?P<node>tests/peers/[^`]+)` — (?:`(?P<spec>[^`]+)` — )?(?P<reason>.*\S.*)$")


def entries(folder: pathlib.Path) -> tuple[dict[str, str], dict[str, str]]:
    """``({node id: reason}, {node id: filterwarnings spec})`` of the entries below ``folder``."""
    prefix = folder.resolve().relative_to(ROOT).as_posix() + "/"
    deselected: dict[str, str] = {}
    allowed: dict[str, str] = {}
    section = None
    for line in README.read_text(encoding="utf8").splitlines():
        if line.startswith("#"):
            heading = line.lstrip("#").strip().lower()
            section = "deselect" if heading.startswith("deselected") else "warn" if heading.startswith(
                "warnings allowed") else None
            continue
        match = _ENTRY.match(line)
        if not match or section is None or not match["node"].startswith(prefix):
            continue
        node = match["node"]
        if not (ROOT / node.split("::")[0]).is_file():
            raise pytest.UsageError(f"{README}: {node} names a file that does not exist")
        if section == "deselect":
            deselected[node] = match["reason"]
        elif match["spec"] is None:
            raise pytest.UsageError(f"{README}: {node} allows a warning without naming it")
        else:
            allowed[node] = match["spec"]
    return deselected, allowed


def _covers(entry: str, nodeid: str) -> bool:
    return nodeid == entry or nodeid.startswith((entry + "::", entry + "["))


def apply(config: pytest.Config, items: list[pytest.Item], folder: pathlib.Path) -> None:
    """Deselects the listed tests below ``folder`` and marks the listed ones with their
    ``filterwarnings`` spec."""
    deselected, allowed = entries(folder)
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []
    for item in items:
        (drop if any(_covers(e, item.nodeid) for e in deselected) else keep).append(item)
        for entry, spec in allowed.items():
            if _covers(entry, item.nodeid):
                item.add_marker(pytest.mark.filterwarnings(spec))
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
