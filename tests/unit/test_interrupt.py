"""Ctrl-C stops a long batch call: a child process gets SIGINT while a call runs and sees KeyboardInterrupt
(not the call's end, nor a PanicException), then scores correctly. The batches would run for many seconds
here; that the call ended by the signal, long before its end, is what is checked (the latency is printed,
not asserted: timing is measured, never asserted, in tests)."""

from __future__ import annotations

import selectors
import signal
import subprocess
import sys
import textwrap
import time

import pytest

#: The child: ROUGE-L of 200 rows of 100,000 tokens against themselves (about half a second a row on one
#: core) as the first call of the process that returns a numpy array, then a bootstrap of 100 million
#: resamples of 100,000 rows (minutes). Each waits for a SIGINT, and reports how it ended.
CHILD = textwrap.dedent(
    """
    import time
    import numpy as np
    import rapideval

    def report(name, call):
        print("ready", name, flush=True)
        start = time.monotonic()
        try:
            call()
            print("finished", name, flush=True)
        except KeyboardInterrupt:
            print("interrupted", name, f"{time.monotonic() - start:.3f}", flush=True)

    text = " ".join(f"w{i % 7919}" for i in range(100_000))
    report("rouge", lambda: rapideval.rouge([text] * 200, [text] * 200, ["rougeL"]))
    print("rouge", rapideval.rouge(["a b c"], ["a b d"], ["rougeL"])["rougeL"].fmeasure.tolist(), flush=True)
    scores = np.random.default_rng(0).random(100_000)
    report("bootstrap", lambda: rapideval.bootstrap_ci(scores, n_resamples=100_000_000))
    print("mean", rapideval.mean_std([1.0, 2.0, 4.0]).mean, flush=True)
    """
)


def read_line(child: subprocess.Popen, selector: selectors.BaseSelector, hang_guard: float = 60.0) -> str:
    """The child's next line; a child silent for `hang_guard` seconds is killed (the test then fails)."""
    if not selector.select(hang_guard):
        child.kill()
        pytest.fail("the child hung")
    return child.stdout.readline().strip()


def test_sigint_stops_a_long_batch_with_keyboard_interrupt_and_the_process_goes_on():
    with subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True) as child:
        selector = selectors.DefaultSelector()
        selector.register(child.stdout, selectors.EVENT_READ)
        try:
            for name in ("rouge", "bootstrap"):
                assert read_line(child, selector) == f"ready {name}"
                time.sleep(0.5)  # into the call: it starts right after its ready line
                child.send_signal(signal.SIGINT)
                ended = read_line(child, selector).split()
                assert ended[:2] == ["interrupted", name], ended
                print(f"{name}: KeyboardInterrupt {float(ended[2]):.3f} s into the call")
                expected = "rouge [0.6666666666666666]" if name == "rouge" else "mean 2.3333333333333335"
                assert read_line(child, selector) == expected
        finally:
            child.kill()
            selector.close()
