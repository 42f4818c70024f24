"""The compiled kernels let other threads run while they compute.

Each case runs in a fresh interpreter whose switch interval is 100 s, so no thread is ever
asked to give the GIL up: the main thread gets it back while a worker thread computes only
if the kernel itself releases it.  The worker starts a search of many seconds (for the
misère quotients, the refinement of a chain of states: ``quotient()`` itself spends its
time in Python); the main thread, once it runs again, asks the interrupt hook
(``limits.set_interrupt``) to stop the search at its next look.  A kernel that releases
the GIL is stopped within moments ("stopped"); one that holds it runs to its end first
("finished"), whatever the timing.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT

WORKER = r"""
import sys, threading, time
sys.setswitchinterval(100)
from kayles import get_game
from kayles.kernels import limits

class Stop(Exception):
    pass

asked = False
def hook():
    if asked:
        raise Stop
limits.set_interrupt(hook)

def work():
{work}

outcome = []
started = threading.Event()
def run():
    started.set()
    try:
        work()
        outcome.append("finished")
    except Stop:
        outcome.append("stopped")
worker = threading.Thread(target=run)
worker.start()
started.wait()
time.sleep(0.05)
asked = True  # only once the kernel lets this thread run
worker.join()
print(outcome[0])
"""

WORK = {
    "misere": """
    from kayles.kernels import _misere
    from kayles.engine.rules import encode
    memo = _misere.MisereMemo(encode(get_game("0.3777777").kinds), 2_000_000)
    try:
        _misere.misere_value(memo, [200, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 5, 7, 9, 11], 0)
    except Exception as exc:  # its budget: the search ran to its end
        if type(exc).__name__ != "ResourceError":
            raise
""",
    "quotient": """
    from kayles.kernels import _quotient
    count = 50_000  # a chain of states, one label apart at its end: count rounds of count
    _quotient.minimize(count, 1, [min(s + 1, count - 1) for s in range(count)],
                       [0] * (count - 1) + [1])
""",
    "hackenbush": """
    from kayles.kernels import _hackenbush
    n = 1_000_000  # a circuit: each pass of a parse, a search and its cuts, many times over
    text = " ".join(f"v{i}-v{i + 1}" for i in range(n))
    for _ in range(20):
        names, us, vs, _ = _hackenbush.parse(text, 1 << 22, 1 << 16)
        vs[-1] = 0  # the last edge to the ground: a circuit
        _hackenbush.Search(names.count("\\n") + 1, us, vs).cuts(0, -1)
""",
    "takebreak": """
    from kayles.kernels import _takebreak
    from kayles.engine.sequence import Sequence
    Sequence(get_game("0.&18446744073709551608;"), kernel=_takebreak).nimbers(100)
""",
    "boards": """
    from kayles.kernels import _boards
    _boards.Board(6, 7, "cram", 1 << 28).nimber((1 << 42) - 1)  # minutes of search
""",
}


@pytest.mark.parametrize("kernel", sorted(WORK))
def test_a_kernel_at_work_lets_other_threads_run(kernel):
    script = WORKER.format(work="\n".join("    " + line for line in
                                          WORK[kernel].strip("\n").splitlines()))
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["stopped"], done.stdout
