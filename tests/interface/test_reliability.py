"""Reliability (issue 21): signals, bounded work, output files, locales, settings.

Each test starts the real program where the behaviour is the process's own (signals,
exit statuses, locales), and calls the package where it is a property of a function.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from kayles import misere
from kayles.engine.codes import get_game
from kayles.engine.rules import encode_takebreak

from conftest import (
    ROOT,
    assert_usage_error,
    load_kernel,
    on_a_terminal,
    signal_and_measure,
    wait_until_busy,
)

TIMEOUT = 120
KAYLES = [sys.executable, "-m", "kayles"]


def run(*args, env=None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([*KAYLES, *args], capture_output=True, cwd=ROOT, timeout=TIMEOUT,
                          env=env, **kw)


def env_with(**changes) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in changes}
    env.update({k: v for k, v in changes.items() if v is not None})
    return env


# -- signals -----------------------------------------------------------------------------------


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_ctrl_c_ends_a_long_misere_search_at_once(pure):
    """The compiled search looks for signals as it goes: Ctrl-C ends it at once (well under
    a second of CPU time after the signal), status 130, nothing on stdout or stderr (a
    search of many minutes, for either core)."""
    env = env_with(KAYLES_PURE="1" if pure else None,
                   KAYLES_REQUIRE_NATIVE=None if pure else "1")
    command = [*KAYLES, "move", "60", "60", "--game", "kayles", "--misere", "--budget",
               "100000000"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                          env=env) as proc:
        try:
            wait_until_busy(proc, 1.0)  # well into the search
            took, out, err = signal_and_measure(proc, signal.SIGINT)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert (proc.returncode, out, err) == (130, b"", b"")
    assert took < 1, took


@pytest.mark.parametrize(("command", "number", "status"), [
    (["grundy", "3000000", "--game", "0.6252", "--threads", "1"], signal.SIGINT, 130),
    (["grundy", "3000000", "--game", "0.6252", "--threads", "2"], signal.SIGINT, 130),
    (["period", "--game", "0.161", "--to", "100000000", "--threads", "2"], signal.SIGINT, 130),
    (["survey", "0.6252", "--to", "3000000", "--jobs", "1", "--db", "{tmp}/s.sqlite"],
     signal.SIGTERM, 143),
    (["quotient", "--game", "0.6", "--to", "30", "--states", "100000000", "--memory", "2G"],
     signal.SIGINT, 130),
    (["census", "--digits", "1", "--misere", "30", "--states", "100000000", "--jobs", "1",
      "--db", "{tmp}/m.sqlite"], signal.SIGTERM, 143),
], ids=["dense-one-thread", "dense-crew", "sparse-crew", "survey-sigterm", "quotient-ctrl-c",
        "misere-census-sigterm"])
def test_a_long_kernel_call_answers_signals_at_once(tmp_path, command, number, status):
    """The compiled kernels look at signals as they go (every 2**25 pairs or so, and between
    a crew's stretches): a table of minutes ends well under a second of CPU time after
    Ctrl-C or SIGTERM, with the command's status and nothing on stdout."""
    env = env_with(KAYLES_REQUIRE_NATIVE="1")
    argv = [*KAYLES, *(part.replace("{tmp}", str(tmp_path)) for part in command)]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                          env=env) as proc:
        try:
            wait_until_busy(proc, 1.5)  # well into the kernel's call
            took, out, err = signal_and_measure(proc, number)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert (proc.returncode, out) == (status, b""), err
    assert took < 1, took


# -- bounded work ------------------------------------------------------------------------------


@pytest.mark.parametrize("heaps", [list(range(1, 2001)), [3] * 5000], ids=["1..2000", "5000x3"])
def test_the_misere_budget_bounds_memory_too(misere_kernel, heaps):
    """Positions of thousands of heaps weigh thousands of words each: the budget counts
    words as well as positions, so the search stops at once instead of filling gigabytes."""
    solver = misere.Solver(get_game("kayles"), kernel=misere_kernel)
    started = time.process_time()
    with pytest.raises(ValueError, match="needs more memory than its budget allows"):
        solver.value(heaps)
    assert time.process_time() - started < 30  # CPU time: minutes if it filled memory


def test_both_twins_stop_at_the_same_weight(both_misere_kernels):
    outcomes = []
    for kernel in both_misere_kernels:
        memo = kernel.MisereMemo(misere.encode(get_game("kayles").kinds), 500)
        try:
            outcomes.append(kernel.misere_value(memo, [3] * 300 + [7, 9, 11], 0))
        except ValueError as exc:
            outcomes.append(str(exc))
    assert outcomes[0] == outcomes[1] and "memory" in outcomes[0]


def test_survey_jobs_are_capped_at_the_work_and_the_cores(tmp_path):
    result = run("survey", "0.77", "0.07", "--max", "200", "--jobs", "100000", "--db",
                 str(tmp_path / "s.sqlite"), "--json")
    assert result.returncode == 0, result.stderr
    cores = os.cpu_count() or 1
    assert result.stderr.decode() == (f"kayles survey: --jobs 100000 capped at {min(2, 2 * cores)} "
                                      f"(2 games, {cores} cores)\n")


def test_long_runs_write_progress_lines_to_a_log():
    """stderr a pipe (no terminal): lines, not a bar, once the run is long (here 0.2 s)."""
    count = "20000" if os.environ.get("KAYLES_PURE") == "1" else "2000000"  # a few seconds
    result = run("grundy", count, "--game", "grundy", "--checksum",
                 env=env_with(KAYLES_PROGRESS_SECONDS="0.2"))
    assert result.returncode == 0
    lines = result.stderr.decode().splitlines()
    assert lines and all(line.startswith("grundy: computing: ") and " values/s" in line
                         for line in lines), lines
    quiet = run("grundy", "200", "--game", "grundy", "--checksum")  # short: nothing at all
    assert (quiet.returncode, quiet.stderr) == (0, b"")


# -- output files ------------------------------------------------------------------------------


def test_an_interrupted_plot_leaves_the_old_picture_whole(tmp_path, monkeypatch):
    """Ctrl-C while the picture is written: the file the user had stays as it was, and no
    temporary is left beside it."""
    pytest.importorskip("matplotlib")
    import argparse

    from kayles.interface.commands import pictures as plot_command

    keep = tmp_path / "keep.png"
    keep.write_bytes(b"the good picture")

    class Interrupted:
        def savefig(self, handle, format):  # noqa: A002 - matplotlib's own keyword
            handle.write(b"half a pic")
            raise KeyboardInterrupt

    monkeypatch.setattr("kayles.analysis.plot.figure", lambda *args, **kw: Interrupted())
    args = argparse.Namespace(game="kayles", last=100, output=str(keep), size="640x360")
    with pytest.raises(KeyboardInterrupt):
        plot_command.command_plot(args, None)
    assert keep.read_bytes() == b"the good picture"
    assert os.listdir(tmp_path) == ["keep.png"]


def test_plot_refuses_a_canvas_past_its_limit_and_never_writes_a_device(tmp_path):
    result = run("plot", "--max", "16777215", "--size", "10000x10000", "-o",
                 str(tmp_path / "p.pdf"))
    assert_usage_error(result)
    assert b"at most 16,000,000 pixels" in result.stderr
    fifo = tmp_path / "fifo.png"
    os.mkfifo(fifo)
    result = run("plot", "--max", "100", "-o", str(fifo))
    assert_usage_error(result)
    assert b"not a regular file" in result.stderr and not fifo.is_file()


# -- locales and settings ----------------------------------------------------------------------


@pytest.mark.parametrize("args", [["--help"], ["move", "--help"], ["grundy", "x"], ["games"]])
def test_help_and_messages_print_in_the_c_locale(args):
    result = run(*args, env=env_with(LC_ALL="C", LANG="C", PYTHONUTF8="0",
                                     PYTHONIOENCODING=None))
    assert b"Traceback" not in result.stderr and b"codec" not in result.stderr, result.stderr
    assert result.returncode in (0, 2)
    if args == ["move", "--help"]:
        assert b"mis\\xe8re play" in result.stdout  # what ASCII cannot say, escaped


@pytest.mark.parametrize("variable", ["KAYLES_PURE", "KAYLES_REQUIRE_NATIVE"])
@pytest.mark.parametrize("value", ["false", " 0", "yes"])
def test_core_settings_take_only_0_or_1(variable, value):
    result = run("grundy", "5", env=env_with(**{variable: value}))
    assert_usage_error(result)
    assert f"{variable} must be 0 or 1".encode() in result.stderr


def test_kayles_vector_names_the_compiled_kernels_instruction_set(monkeypatch):
    """KAYLES_VECTOR picks the instruction set of every scratch that names none (to time a
    slower set on a CPU with a faster one); a set this machine lacks is refused."""
    core, takebreak = load_kernel("cython", "core"), load_kernel("cython", "takebreak")
    monkeypatch.delenv("KAYLES_VECTOR", raising=False)
    assert core.default_vector() == core.VECTORS[0] == core.Scratch().vector
    table = {}
    for vector in core.VECTORS:
        monkeypatch.setenv("KAYLES_VECTOR", vector)
        assert core.default_vector() == vector
        assert core.Scratch().vector == takebreak.Scratch().vector == vector
        assert core.Scratch(vector=core.VECTORS[-1]).vector == core.VECTORS[-1]  # named wins
        values = memoryview(bytearray(2 * 3000)).cast("H")
        takebreak.extend(values, 0, 3000, encode_takebreak(get_game("0.BB")),
                         takebreak.Scratch())
        table[vector] = values.tolist()
    assert len({tuple(v) for v in table.values()}) == 1  # only the speed depends on it
    monkeypatch.setenv("KAYLES_VECTOR", "avx1024")
    with pytest.raises(ValueError, match="KAYLES_VECTOR must be one of"):
        core.Scratch()
    with pytest.raises(ValueError, match="KAYLES_VECTOR must be one of"):
        takebreak.Scratch()


def test_a_wrong_kayles_vector_is_one_line_and_status_2():
    env = env_with(KAYLES_VECTOR="avx1024", KAYLES_PURE=None)
    for command in (["grundy", "3000", "--game", "0.BB"], ["grundy", "100000"]):
        result = run(*command, env=env)
        assert_usage_error(result)
        assert b"KAYLES_VECTOR must be one of" in result.stderr
        assert b"avx1024" in result.stderr
    assert run("grundy", "3000", "--game", "0.BB",
               env=env_with(KAYLES_VECTOR="sse2", KAYLES_PURE=None)).returncode == 0


def test_an_argcomplete_variable_alone_is_no_completion_request():
    result = run("grundy", "5", "--game", "kayles", env=env_with(_ARGCOMPLETE="1",
                                                                  COMP_LINE=None))
    assert (result.returncode, result.stdout) == (0, b"[0, 1, 2, 3, 1, 4]\n")


def test_a_relative_xdg_cache_home_is_ignored_everywhere(tmp_path):
    """The XDG spec: a relative XDG_CACHE_HOME is invalid; ~/.cache then (the survey's
    database too, not a folder 'relative' under the current directory)."""
    home = tmp_path / "home"
    home.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    env = env_with(XDG_CACHE_HOME="relative", HOME=str(home))
    result = subprocess.run([*KAYLES, "survey", "0.77", "--max", "200", "--jobs", "1"],
                            capture_output=True, cwd=work, timeout=TIMEOUT,
                            env={**env, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    assert (home / ".cache" / "kayles" / "survey.sqlite").is_file()
    assert not (work / "relative").exists()


# -- the same question, the same answer ---------------------------------------------------------


def test_a_far_heap_is_answered_alike_with_and_without_a_cache(kernel, monkeypatch):
    """Past the direct limit only a proof found within PROOF_LIMIT values answers: a proof
    read from the cache that needed more (here Kayles-xox's 52,342 values, against a limit
    made 4096) answers no more than a cold run, and says the same."""
    import kayles.engine.sequence
    from kayles.engine.rules import GAMES
    from kayles.engine.sequence import Sequence, direct_limit

    game = GAMES["kayles-xox"]
    proved = Sequence(game)  # the proof to cache, by the chosen core: the twin runs below
    period = proved.prove(1 << 20)
    monkeypatch.setattr(kayles.engine.sequence, "PROOF_LIMIT", 4096)
    values = memoryview(bytearray(proved.table(period.values).tobytes())).cast("H")
    cached = Sequence.from_proof(game, values, period)
    cold = Sequence(game, kernel=kernel)
    said = []
    for sequence in (cached, cold):
        with pytest.raises(ValueError) as refused:
            sequence.nimber(direct_limit() + 10)
        said.append(str(refused.value))
    assert said[0] == said[1] and "no period was found within 4096 values" in said[0]
    assert proved.nimber(direct_limit() + 10) == proved.nimber(  # computed here: it answers
        period.preperiod + (direct_limit() + 10 - period.preperiod) % period.period)


# -- no silent slow mode (issue 23) ---------------------------------------------------------------


def test_a_missing_core_is_said_on_a_terminal_once_a_run_computes(tmp_path):
    """Without the compiled core (a copy of the package without it), a command says so on a
    terminal, once; asked for (KAYLES_PURE=1), or a short answer into a pipe, it says
    nothing (test_cli_xox: a long one into a file says it too)."""
    import shutil

    shutil.copytree(ROOT / "kayles", tmp_path / "kayles",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    command = [sys.executable, "-m", "kayles", "grundy", "3000", "--game", "grundy",
               "--checksum"]
    env = env_with(PYTHONPATH=str(tmp_path), KAYLES_REQUIRE_NATIVE=None, KAYLES_PURE=None)
    status, out, shown = on_a_terminal(command, env, tmp_path)
    assert status == 0 and out.endswith(b"grundy\n")
    assert shown.count(b"the compiled core is not built") == 1, shown
    status, _, shown = on_a_terminal(command, {**env, "KAYLES_PURE": "1"}, tmp_path)
    assert status == 0 and b"compiled core" not in shown
    piped = subprocess.run(command, capture_output=True, env=env, cwd=tmp_path, timeout=TIMEOUT)
    assert (piped.returncode, piped.stderr) == (0, b"")
