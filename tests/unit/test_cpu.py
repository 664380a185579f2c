"""The CPU check that runs before the native module loads (see rapideval/_cpu.py)."""

from __future__ import annotations

import platform

from rapideval import _cpu


def test_missing_x86_64_v2_features_are_named() -> None:
    detected = {"SSE3": True, "SSSE3": True, "SSE41": True, "SSE42": False, "POPCNT": False, "AVX2": False}
    assert _cpu.missing_features("x86_64", detected) == ["SSE42", "POPCNT"]
    assert _cpu.missing_features("AMD64", detected) == ["SSE42", "POPCNT"]


def test_other_machines_and_unknown_features_pass() -> None:
    assert _cpu.missing_features("aarch64", {"POPCNT": False}) == []
    assert _cpu.missing_features("x86_64", {}) == []


def test_this_machine_passes() -> None:
    from numpy._core._multiarray_umath import __cpu_features__

    assert _cpu.missing_features(platform.machine(), __cpu_features__) == []
    _cpu.check()
