"""A SQLite cache of successful judge replies and embeddings, so a rerun only calls for what is missing.

One connection per process, used under a lock (the event loop thread and any worker thread may share
it). The database runs in WAL mode with autocommit: each result is committed the moment it is stored,
so a crash, ``kill -9`` or Ctrl-C loses only the calls in flight. Several processes may share a file.

Keys are the SHA-256 of canonical JSON (sorted keys, no whitespace) of everything that determines a
reply: model, messages, sampling parameters, output schema and vote count. Credentials are not part of
a request's content and never reach this file.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["JudgeCache", "cache_key", "default_cache_path"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS chat (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS batch (
    file_id TEXT PRIMARY KEY,
    endpoint TEXT NOT NULL,
    batch_id TEXT,
    keys TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS embedding (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    vector BLOB NOT NULL
) WITHOUT ROWID;
"""


def cache_key(payload: Mapping[str, Any]) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def default_cache_path() -> Path:
    """``$RAPIDEVAL_JUDGE_CACHE`` if set, else ``judge.sqlite3`` in the user's cache directory
    (platformdirs: ``~/.cache/rapideval`` on Linux, ``~/Library/Caches/rapideval`` on macOS,
    ``%LOCALAPPDATA%\\rapideval\\Cache`` on Windows)."""
    env = os.environ.get("RAPIDEVAL_JUDGE_CACHE")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("rapideval", appauthor=False)) / "judge.sqlite3"


class JudgeCache:
    """The cache file at ``path`` (created with its directory on first use)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._pid = -1

    def __repr__(self) -> str:
        return f"JudgeCache({str(self.path)!r})"

    def _db(self) -> sqlite3.Connection:
        # A connection must not cross fork(): a child opens its own.
        if self._conn is None or self._pid != os.getpid():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30.0)
            conn.execute("PRAGMA journal_mode=WAL")
            # In WAL mode NORMAL survives a process crash (only a power loss can drop the last commits).
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.executescript(_SCHEMA)
            self._conn, self._pid = conn, os.getpid()
        return self._conn

    def get(self, key: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db().execute("SELECT value FROM chat WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def put(self, key: str, model: str, value: Mapping[str, Any]) -> None:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        with self._lock:
            self._db().execute("INSERT OR REPLACE INTO chat (key, model, value) VALUES (?, ?, ?)", (key, model, text))

    def get_vectors(self, keys: list[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        with self._lock:
            db = self._db()
            for start in range(0, len(keys), 500):
                chunk = keys[start : start + 500]
                marks = ",".join("?" * len(chunk))
                for key, blob in db.execute(f"SELECT key, vector FROM embedding WHERE key IN ({marks})", chunk):
                    out[key] = np.frombuffer(blob, dtype="<f4")
        return out

    def put_vectors(self, model: str, items: Iterable[tuple[str, np.ndarray]]) -> None:
        rows = [(key, model, np.ascontiguousarray(vec, dtype="<f4").tobytes()) for key, vec in items]
        with self._lock:
            db = self._db()
            db.execute("BEGIN")
            db.executemany("INSERT OR REPLACE INTO embedding (key, model, vector) VALUES (?, ?, ?)", rows)
            db.execute("COMMIT")

    # The Batch API's submissions not yet read back (see rapideval.llm.batch) ---------------------------

    def add_batch(self, file_id: str, endpoint: str, keys: list[str]) -> None:
        """Record an uploaded batch file and the keys of its lines, before the batch is created."""
        with self._lock:
            self._db().execute(
                "INSERT OR REPLACE INTO batch (file_id, endpoint, batch_id, keys) VALUES (?, ?, NULL, ?)",
                (file_id, endpoint, json.dumps(keys)),
            )

    def batch_submitted(self, file_id: str, batch_id: str) -> None:
        with self._lock:
            self._db().execute("UPDATE batch SET batch_id = ? WHERE file_id = ?", (batch_id, file_id))

    def open_batches(self, endpoint: str) -> list[tuple[str, str | None, list[str]]]:
        """(file id, batch id or None, keys) of each recorded batch of ``endpoint``."""
        with self._lock:
            rows = self._db().execute("SELECT file_id, batch_id, keys FROM batch WHERE endpoint = ?", (endpoint,))
            return [(f, b, json.loads(k)) for f, b, k in rows.fetchall()]

    def forget_batches(self, file_ids: list[str]) -> None:
        with self._lock:
            self._db().executemany("DELETE FROM batch WHERE file_id = ?", [(f,) for f in file_ids])

    def __len__(self) -> int:
        with self._lock:
            return int(self._db().execute("SELECT count(*) FROM chat").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None
