"""Test setup: offline NLTK data for the reference libraries, ragas without telemetry, hypothesis profiles.

HYPOTHESIS_PROFILE=slow runs the 10,000-case parity profile; the default profile is sized for CI.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

from hypothesis import HealthCheck, settings

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _ensure_nltk_data() -> None:
    target = pathlib.Path(os.environ.get("NLTK_DATA", ROOT / ".nltk_data"))
    if not (target / ".complete").exists():
        subprocess.run(["bash", str(ROOT / "tools" / "fetch_nltk_data.sh"), str(target), sys.executable], check=True)
    os.environ["NLTK_DATA"] = str(target)


_ensure_nltk_data()
# ragas (the Ragas parity tests' reference) sends telemetry by default; nothing here reaches the internet.
os.environ["RAGAS_DO_NOT_TRACK"] = "true"

_common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("ci", max_examples=int(os.environ.get("HYPOTHESIS_MAX_EXAMPLES", "400")), **_common)
settings.register_profile("slow", max_examples=10_000, **_common)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
