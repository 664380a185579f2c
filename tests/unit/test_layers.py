"""Layers point down only (docs/design.md): the flat API and the engine (metrics, llm, judged, evaluation)
import no facade, and a facade (compat.<peer>) imports no other facade's private names. Read from the
source's imports."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "rapideval"

#: Everything but the facades: the flat API's modules and the engine's packages.
ENGINE = [p for p in sorted(PACKAGE.rglob("*.py")) if "compat" not in p.relative_to(PACKAGE).parts]


def imports(path: Path) -> list[tuple[str, list[str]]]:
    """``(absolute module, names imported from it)`` for every import of a module of the package."""
    module = ".".join(("rapideval", *path.relative_to(PACKAGE).with_suffix("").parts))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            name = f"{base}.{node.module}" if node.level and node.module else (node.module or base)
            out.append((name, [alias.name for alias in node.names]))
    return out


def test_the_flat_api_and_the_engine_import_no_facade() -> None:
    crossing = []
    for path in ENGINE:
        for module, names in imports(path):
            targets = [module, *(f"{module}.{n}" for n in names)] if module == "rapideval" else [module]
            if any(t == "rapideval.compat" or t.startswith("rapideval.compat.") for t in targets):
                crossing.append(f"{path.relative_to(PACKAGE)} imports {module}")
    assert len(ENGINE) > 40 and not crossing, crossing


def facade_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["rapideval", "compat"] else None


def test_no_facade_imports_another_facade_s_private_names() -> None:
    crossing = []
    for path in sorted((PACKAGE / "compat").rglob("*.py")):
        own = facade_of(".".join(("rapideval", *path.relative_to(PACKAGE).with_suffix("").parts)))
        for module, names in imports(path):
            other = facade_of(module)
            if other is None or other == own:
                continue
            private = [n for n in names if n.startswith("_")]
            if private or any(part.startswith("_") for part in module.split(".")):
                crossing.append(f"{path.relative_to(PACKAGE)} imports {private or module} from {module}")
    assert not crossing, crossing


def test_the_checks_see_a_crossing() -> None:
    """The walk finds relative imports as what they name (a check that cannot fail proves nothing)."""
    found = dict(imports(PACKAGE / "compat" / "azure" / "safety.py"))
    assert "rapideval.judged.safety" in found and "rapideval.compat.promptflow.evaluators" in found
