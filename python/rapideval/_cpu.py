"""The CPU features the native module is built for: on x86-64 it needs x86-64-v2 (see
.cargo/config.toml), and a CPU without them gets an ImportError here instead of an illegal
instruction."""

from __future__ import annotations

import importlib
import platform
from collections.abc import Mapping
from typing import Any

#: numpy's names of the x86-64-v2 features it detects.
X86_64_V2 = ("SSE3", "SSSE3", "SSE41", "SSE42", "POPCNT")


def missing_features(machine: str, detected: Mapping[str, bool]) -> list[str]:
    """The x86-64-v2 features an x86-64 `machine` lacks, of those numpy `detected`."""
    if machine.lower() not in ("x86_64", "amd64"):
        return []
    return [name for name in X86_64_V2 if detected.get(name) is False]


def check() -> None:
    """Raise ImportError if this CPU lacks a feature the native module is built for."""
    detected: Any = None
    for module in ("numpy._core._multiarray_umath", "numpy.core._multiarray_umath"):  # numpy 2, numpy 1.x
        try:
            detected = importlib.import_module(module).__cpu_features__
            break
        except (ImportError, AttributeError):
            continue
    if detected is None:
        return
    missing = missing_features(platform.machine(), detected)
    if missing:
        raise ImportError(
            f"rapideval's native module is built for x86-64-v2, and this CPU lacks {', '.join(missing)}; "
            "build it from source without .cargo/config.toml's target-cpu to run here"
        )
