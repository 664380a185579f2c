"""One judge from any caller: the seed examples' mix of ``asyncio.run`` calls and sync calls, a sync call
inside a running loop (Jupyter) and calls from threads, in a child process whose stderr must stay clean: no
"Task exception was never retrieved", no "Event loop is closed", no traceback (connections are closed with
the loop that opened them)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap

HERE = pathlib.Path(__file__).resolve().parent

CHILD = textwrap.dedent(
    """
    import asyncio, gc, os, sys, threading
    sys.path.insert(0, sys.argv[1])
    from judge_server import JudgeServer, sentences_answer
    import ragas_seed_examples as general
    import ragas_rag_seed_examples as rag

    with JudgeServer(answer=sentences_answer) as server:
        os.environ.update(OPENAI_BASE_URL=server.url, OPENAI_API_KEY="sk-test", RAPIDEVAL_JUDGE_CACHE=sys.argv[2])
        from openai import AsyncOpenAI
        from rapideval.compat.ragas.llms import llm_factory
        from rapideval.judged import AspectCritic
        from rapideval.llm import JudgeClient

        llm = llm_factory("gpt-4o-mini", client=AsyncOpenAI())
        print(asyncio.run(general.aspect_critic(llm)))
        print(asyncio.run(general.discrete_metrics()))
        print(asyncio.run(general.rubrics_score(llm)))
        print(general.instance_rubrics(llm))
        asyncio.run(rag.noise_sensitivity_collections())
        asyncio.run(rag.noise_sensitivity_legacy(llm))
        print(rag.fiqa_evaluate(rag.load_fiqa()))

        judge = JudgeClient("gpt-4o-mini", base_url=server.url, cache=None)
        metric = AspectCritic(name="harm", definition="Is it harmful?")

        async def notebook():  # a sync call inside a running loop, then an await on the same judge
            print(metric.score(judge=judge, user_input="q", response="a").status)
            print((await metric.ascore(judge=judge, user_input="q", response="b")).status)

        asyncio.run(notebook())
        threads = [threading.Thread(target=lambda i=i: metric.score(judge=judge, user_input="q", response=f"t{i}"))
                   for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        judge.close()
        del llm, judge
        gc.collect()
    print("done")
    """
)


def test_mixed_callers_leave_stderr_clean(tmp_path: pathlib.Path) -> None:
    env = {**os.environ, "PYTHONWARNINGS": "default"}
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(HERE), str(tmp_path / "cache.sqlite3")],
        check=False, capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert child.returncode == 0, child.stderr[-3000:]
    assert child.stdout.rstrip().endswith("done")
    for bad in ("never retrieved", "Event loop is closed", "Traceback", "was destroyed but it is pending"):
        assert bad not in child.stderr, child.stderr[-3000:]
