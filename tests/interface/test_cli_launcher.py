"""The ``kayles`` command's launcher: make writes .venv/bin/kayles as a sh script over the
one pip made (the Makefile says why), so that a directory on standard input is one line
and status 2 where a command reads it, and nothing at all where none does.  With pip's
script CPython stopped before kayles ran: a 4-line "Fatal Python error", status 1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import directory_fd

LAUNCHER = Path(sys.executable).with_name("kayles")
TIMEOUT = 60


def test_the_console_script_is_the_launcher_make_writes():
    assert LAUNCHER.read_bytes().startswith(b"#!/bin/sh\n# Written by make"), \
        f"{LAUNCHER} is not the launcher: run make"


def test_a_directory_on_standard_input(tmp_path):
    with directory_fd(tmp_path) as folder:
        refused = subprocess.run([str(LAUNCHER), "dag", "-"], stdin=folder,
                                 capture_output=True, timeout=TIMEOUT)
        assert (refused.returncode, refused.stdout) == (2, b"")
        assert refused.stderr == b"kayles dag: standard input is a directory, not a file\n"
        answered = subprocess.run([str(LAUNCHER), "grundy", "5"], stdin=folder,
                                  capture_output=True, timeout=TIMEOUT)
        assert (answered.returncode, answered.stdout, answered.stderr) == \
            (0, b"[0, 1, 0, 2, 3, 2]\n", b"")


def test_standard_input_read_as_before(tmp_path):
    graph = subprocess.run([str(LAUNCHER), "dag", "-"], input=b"a: b\nb:\n",
                           capture_output=True, timeout=TIMEOUT)
    assert (graph.returncode, graph.stderr) == (0, b"")
    assert b"a: 1" in graph.stdout and b"b: 0" in graph.stdout
    # the launcher's -I: a folder named kayles where it runs is not imported
    (tmp_path / "kayles").mkdir()
    (tmp_path / "kayles" / "__init__.py").write_text("raise SystemExit('the wrong kayles')\n")
    elsewhere = subprocess.run([str(LAUNCHER), "grundy", "3"], cwd=tmp_path,
                               capture_output=True, timeout=TIMEOUT)
    assert (elsewhere.returncode, elsewhere.stdout) == (0, b"[0, 1, 0, 2]\n")
