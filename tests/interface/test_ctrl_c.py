"""Ctrl-C on the long commands: one line, 130: "stopped; the same command resumes" where
it does, else how far it got and how the work is kept (grundy, period: --save, --resume).

Each command runs for real in a subprocess with its progress lines every 0.1 s
(KAYLES_PROGRESS_SECONDS); SIGINT is sent once the first progress line is read, so the
work is under way, whatever the machine's speed.  Then the same command, run again,
finishes from what was kept (issue 53: Ctrl-C printed nothing, exit 130).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys

import pytest

from kayles.kernels.chooser import IMPLEMENTATION

from conftest import ROOT

TIMEOUT = 300
COMPILED = IMPLEMENTATION == "cython"
LINE = b"stopped; the same command resumes"
# Codes slow enough that a survey of them is still going when the first line is read.
SLOW = ["0.06", "0.76", "0.64", "0.14", "0.16", "0.61"]
SLOW_MAX = "50000" if COMPILED else "3000"


def environment() -> dict[str, str]:
    return {**os.environ, "KAYLES_PROGRESS_SECONDS": "0.1"}


def interrupted(command: list[str]) -> tuple[int, bytes, bytes]:
    """Start ``kayles COMMAND``, send SIGINT after its first progress line on stderr:
    (exit status, stdout, the rest of stderr)."""
    with subprocess.Popen([sys.executable, "-m", "kayles", *command], cwd=ROOT,
                          env=environment(), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE) as proc:
        try:
            first = proc.stderr.readline()
            assert first, "the command ended before its first progress line"
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=TIMEOUT)
        finally:
            if proc.poll() is None:
                proc.kill()
    return proc.returncode, out, err


def finished(command: list[str]) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "kayles", *command], cwd=ROOT,
                            capture_output=True, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    return result


def assert_says_it_resumes(status: int, err: bytes, prog: str) -> None:
    assert status == 130, err
    assert err.splitlines()[-1:] == [f"{prog}: ".encode() + LINE], err
    assert b"Traceback" not in err


def test_ctrl_c_on_a_survey_says_the_same_command_resumes(tmp_path):
    command = ["survey", *SLOW, "--max", SLOW_MAX, "--jobs", "1", "--json",
               "--db", str(tmp_path / "s.sqlite")]
    status, out, err = interrupted(command)
    assert_says_it_resumes(status, err, "kayles survey")
    assert out == b""
    resumed = finished(command)
    assert [row["code"] for row in json.loads(resumed.stdout)] == SLOW


@pytest.mark.skipif(not COMPILED, reason="the census's first pass takes minutes in pure mode")
def test_ctrl_c_on_a_census_says_the_same_command_resumes(tmp_path):
    command = ["census", "--digits", "2", "--to", "65536", "--jobs", "1", "--csv",
               "--db", str(tmp_path / "c.sqlite")]
    status, out, err = interrupted(command)
    assert_says_it_resumes(status, err, "kayles census")
    assert out == b""
    resumed = finished(command)
    codes = [line for line in resumed.stdout.splitlines() if line[:2] in (b"0.", b"4.")]
    assert len(codes) == 63 and b"not finished" not in resumed.stdout  # every 2-digit code


@pytest.mark.skipif(not COMPILED, reason="a long run is too slow to reach a line in pure mode")
def test_ctrl_c_on_a_run_says_the_same_command_resumes(tmp_path):
    folder = tmp_path / "run"
    command = ["run", ".161", "--to", str(1 << 30), "--window", "65536", "--dir",
               str(folder), "--db", str(tmp_path / "db")]
    status, out, err = interrupted(command)
    assert_says_it_resumes(status, err, "kayles run")
    shown = out.splitlines()
    again = interrupted(command)  # the same command goes on from the checkpoint
    assert_says_it_resumes(again[0], again[2], "kayles run")
    assert again[1].splitlines()[: len(shown)] == shown


def test_ctrl_c_where_nothing_is_kept_names_save(tmp_path):
    """kayles grundy (no --save) keeps nothing: Ctrl-C says how far it got and that --save
    keeps the work, in one line (issue 64: it said nothing)."""
    with subprocess.Popen([sys.executable, "-m", "kayles", "grundy", "400000000", "--game",
                           "0.6252"], cwd=ROOT, env=environment(),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as proc:
        try:
            assert proc.stderr.readline()
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=TIMEOUT)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 130, err
    last = err.decode().splitlines()[-1]  # after the progress lines of a log
    assert re.fullmatch(r"kayles grundy: stopped after [\d,]+ values; --save FILE keeps the "
                        r"work", last), last


def test_ctrl_c_on_a_saved_run_names_its_file_and_the_resume(tmp_path):
    """kayles period --save: Ctrl-C saves what is computed and says where and how it goes on;
    that --resume then ends as an uninterrupted run does."""
    saved = tmp_path / "t.table"
    command = ["period", "--game", "0.6252", "--to", "3000000", "--save", str(saved)]
    status, _, err = interrupted(command)
    assert status == 130, err
    last = err.decode().splitlines()[-1]
    path = re.escape(str(saved))
    assert re.fullmatch(rf"kayles period: stopped after [\d,]+ values, saved in {path}; "
                        rf"--resume {path} goes on", last), last
    assert saved.stat().st_size > 0
