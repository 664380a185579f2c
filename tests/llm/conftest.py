"""Fixtures of the judge runtime tests: the loopback server and clients wired to it with fast retries, and a
real llama.cpp server (SmolLM2-135M-Instruct) for the local-server tests."""

from __future__ import annotations

import pathlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from judge_helpers import FAST_RETRY, NO_LIMITS, SECRET
from judge_server import JudgeServer
from local_model import smollm2_path
from rapideval.llm import JudgeClient
from rapideval.llm.local import LocalServer


@pytest.fixture
def serve() -> Iterator[Callable[..., JudgeServer]]:
    """``serve(**options)`` starts a JudgeServer for the test and stops it afterwards."""
    servers: list[JudgeServer] = []

    def start(**options: Any) -> JudgeServer:
        server = JudgeServer(**options).__enter__()
        servers.append(server)
        return server

    yield start
    for s in servers:
        s.__exit__(None, None, None)


@pytest.fixture
def client_for(tmp_path: pathlib.Path) -> Iterator[Callable[..., JudgeClient]]:
    """``client_for(server, **options)``: a JudgeClient on the server with its own cache under tmp_path."""
    clients: list[JudgeClient] = []

    def make(server: JudgeServer, **options: Any) -> JudgeClient:
        options.setdefault("cache", tmp_path / f"cache{len(clients)}.sqlite3")
        options.setdefault("limits", NO_LIMITS)
        options.setdefault("retry", FAST_RETRY)
        client = JudgeClient(options.pop("model", "judge-model"), api_key=SECRET, base_url=server.url, **options)
        clients.append(client)
        return client

    yield make
    for c in clients:
        c.close()


@pytest.fixture(scope="session")
def local_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    """One llama.cpp server on SmolLM2-135M-Instruct for the whole session: 2 slots (so ``n=2`` works),
    chat and embeddings, its errors logged under the session's tmp dir."""
    log = tmp_path_factory.mktemp("local-server") / "server.log"
    with LocalServer(smollm2_path(), slots=2, ctx_per_slot=2048, log_path=log) as server:
        yield server
