"""A SQLite cache of successful judge replies and embeddings, so a rerun only calls for what is missing.

One connection per process, used under a lock (the event loop thread and any worker thread may share
it). The database runs in WAL mode with autocommit: each result is committed the moment it is stored,
so a crash, ``kill -9`` or Ctrl-C loses only the calls in flight. Several processes may share a file.

A cache that cannot be used never fails a request: a file that is not a SQLite database, is corrupt, or
holds tables of another program is moved aside (``<name>.unusable-<time>``, with its ``-wal`` and ``-shm``
files; nothing is deleted) and a fresh cache takes its place; a path that cannot be opened at all (a
directory, no permission), or a database that breaks while in use, means running without a cache. Each
is said once, as a warning naming the path.

Keys are the SHA-256 of canonical JSON (sorted keys, no whitespace) of everything that determines a
reply: model, messages, sampling parameters, output schema and vote count. Credentials are not part of
a request's content and never reach this file.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np

__all__ = ["JudgeCache", "cache_key", "default_cache_path"]

log = logging.getLogger("rapideval.llm")

T = TypeVar("T")
_TABLES = frozenset({"chat", "embedding", "batch"})

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


class _Unusable(Exception):
    """The file is not (or no longer) a cache of ours; the message says why."""


def _or(default: Callable[[], Any]) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """A cache method that, once the cache cannot be used (or breaks during the call), returns ``default()``
    instead: a request then runs as without a cache."""

    def wrap(method: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(method)
        def guarded(self: JudgeCache, *args: Any) -> T:
            with self._lock:
                db = self._db()
                if db is None:
                    return cast(T, default())
                try:
                    return method(self, db, *args)
                except sqlite3.DatabaseError as e:
                    self._give_up(f"it failed in use ({e})")
                    return cast(T, default())

        return guarded

    return wrap


class JudgeCache:
    """The cache file at ``path`` (created with its directory on first use)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._pid = -1
        self.unusable: str | None = None
        """Why this cache is not used (the rest of the run goes without it), or None."""

    def __repr__(self) -> str:
        return f"JudgeCache({str(self.path)!r})"

    def _db(self) -> sqlite3.Connection | None:
        """The connection (called under the lock), opened on first use; None when the cache cannot be used."""
        # A connection must not cross fork(): a child opens its own.
        if self.unusable is None and (self._conn is None or self._pid != os.getpid()):
            try:
                self._conn = self._open()
            except _Unusable as e:
                moved = self._move_aside()
                log.warning("the judge cache %s %s: moved to %s; a fresh cache replaces it", self.path, e, moved)
                try:
                    self._conn = self._open()
                except (_Unusable, sqlite3.Error, OSError) as again:
                    self._give_up(str(again))
            except (sqlite3.Error, OSError) as e:
                self._give_up(f"cannot be opened ({e})")
            self._pid = os.getpid()
        return self._conn if self.unusable is None else None

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30.0)
        try:
            # Read before anything is written: a file that is not ours is left as it was.
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables - _TABLES:
                raise _Unusable(f"holds tables of another program ({', '.join(sorted(tables - _TABLES))})")
            if tables and conn.execute("PRAGMA quick_check(1)").fetchone()[0] != "ok":
                raise _Unusable("is corrupt")
            conn.execute("PRAGMA journal_mode=WAL")
            # In WAL mode NORMAL survives a process crash (only a power loss can drop the last commits).
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.executescript(_SCHEMA)
        except sqlite3.DatabaseError as e:
            conn.close()
            raise _Unusable(f"is not a usable SQLite database ({e})") from None
        except BaseException:
            conn.close()
            raise
        return conn

    def _move_aside(self) -> Path:
        """Rename the unusable file (and its WAL files) out of the way; nothing is deleted."""
        stem = f"{self.path.name}.unusable-{time.strftime('%Y%m%d-%H%M%S')}"
        target, k = self.path.with_name(stem), 1
        while target.exists():  # never over an earlier one
            k += 1
            target = self.path.with_name(f"{stem}-{k}")
        for suffix in ("", "-wal", "-shm"):
            source = self.path.with_name(self.path.name + suffix)
            if source.is_file():
                source.rename(target.with_name(target.name + suffix))
        return target

    def _give_up(self, why: str) -> None:
        if self.unusable is None:
            log.warning("the judge cache %s %s: running without a cache", self.path, why)
        self.unusable = why
        if self._conn is not None and self._pid == os.getpid():
            self._conn.close()
        self._conn = None

    @_or(lambda: None)
    def get(self, db: sqlite3.Connection, key: str) -> dict[str, Any] | None:
        row = db.execute("SELECT value FROM chat WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    @_or(lambda: None)
    def put(self, db: sqlite3.Connection, key: str, model: str, value: Mapping[str, Any]) -> None:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        db.execute("INSERT OR REPLACE INTO chat (key, model, value) VALUES (?, ?, ?)", (key, model, text))

    @_or(dict)
    def get_vectors(self, db: sqlite3.Connection, keys: list[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for key, blob in db.execute(f"SELECT key, vector FROM embedding WHERE key IN ({marks})", chunk):
                out[key] = np.frombuffer(blob, dtype="<f4")
        return out

    @_or(lambda: None)
    def put_vectors(self, db: sqlite3.Connection, model: str, items: Iterable[tuple[str, np.ndarray]]) -> None:
        rows = [(key, model, np.ascontiguousarray(vec, dtype="<f4").tobytes()) for key, vec in items]
        db.execute("BEGIN")
        db.executemany("INSERT OR REPLACE INTO embedding (key, model, vector) VALUES (?, ?, ?)", rows)
        db.execute("COMMIT")

    # The Batch API's submissions not yet read back (see rapideval.llm.batch) ---------------------------

    @_or(lambda: None)
    def add_batch(self, db: sqlite3.Connection, file_id: str, endpoint: str, keys: list[str]) -> None:
        """Record an uploaded batch file and the keys of its lines, before the batch is created."""
        db.execute(
            "INSERT OR REPLACE INTO batch (file_id, endpoint, batch_id, keys) VALUES (?, ?, NULL, ?)",
            (file_id, endpoint, json.dumps(keys)),
        )

    @_or(lambda: None)
    def batch_submitted(self, db: sqlite3.Connection, file_id: str, batch_id: str) -> None:
        db.execute("UPDATE batch SET batch_id = ? WHERE file_id = ?", (batch_id, file_id))

    @_or(list)
    def open_batches(self, db: sqlite3.Connection, endpoint: str) -> list[tuple[str, str | None, list[str]]]:
        """(file id, batch id or None, keys) of each recorded batch of ``endpoint``."""
        rows = db.execute("SELECT file_id, batch_id, keys FROM batch WHERE endpoint = ?", (endpoint,))
        return [(f, b, json.loads(k)) for f, b, k in rows.fetchall()]

    @_or(lambda: None)
    def forget_batches(self, db: sqlite3.Connection, file_ids: list[str]) -> None:
        db.executemany("DELETE FROM batch WHERE file_id = ?", [(f,) for f in file_ids])

    @_or(int)
    def __len__(self, db: sqlite3.Connection) -> int:
        return int(db.execute("SELECT count(*) FROM chat").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None
