"""The checked-in stubs of the native module agree with what it exports (mypy stubtest)."""

from __future__ import annotations

import subprocess
import sys


def test_core_stub_matches_the_native_module():
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "rapideval._core"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
