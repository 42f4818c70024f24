"""The README and the documentation cannot drift: every example runs here, for real.

Every Markdown page (README.md and docs/**/*.md) is read the same way.

``console`` blocks are shell sessions: each ``$ COMMAND`` line runs in bash (in a
scratch copy of the checkout's ``examples/`` folder, with ``kayles`` on the PATH
and ``./Kayles-xox`` beside it), and the lines after it, up to the next ``$``,
are its output, stdout and stderr as a terminal shows them.  A line ``...``
stands for any lines (output the README leaves out).  A block that follows the
comment ``<!-- readme: loose -->`` depends on timing or the CPU: its numbers may
differ, the rest of every line must match.  ``python`` blocks run as doctests.
Blocks fenced as ``text`` are records (benchmark reports, formulas) and ``sh``
blocks are instructions (make targets): neither runs.
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
TIMEOUT = 300
ANY_LINES = "..."
NUMBER = re.compile(r"\d+(?:\.\d+)?")


def blocks(kind: str) -> list[tuple[str, str, bool]]:
    """(where, body, loose) of every block of ``kind`` in the documents (where: page:line)."""
    found = []
    for document in DOCUMENTS:
        text = document.read_text()
        page = document.relative_to(ROOT)
        for match in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.S | re.M):
            if match.group(1) == kind:
                before = text[: match.start()].rstrip().splitlines()
                loose = bool(before) and before[-1].strip() == "<!-- readme: loose -->"
                line = text.count("\n", 0, match.start()) + 1
                found.append((f"{page}:{line}", match.group(2), loose))
    return found


def session(body: str) -> list[tuple[str, list[str]]]:
    """The (command, output lines) of a console block."""
    steps: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            assert steps, f"output before any command: {line!r}"
            steps[-1][1].append(line)
    return steps


def matches(expected: list[str], actual: list[str], loose: bool) -> bool:
    """Whether the lines agree: ``...`` takes any lines; loose lines may differ in numbers."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head == ANY_LINES:
        return any(matches(rest, actual[i:], loose) for i in range(len(actual) + 1))
    if not actual:
        return False
    same = (NUMBER.sub("#", head) == NUMBER.sub("#", actual[0])) if loose else head == actual[0]
    return same and matches(rest, actual[1:], loose)


@pytest.fixture
def scratch(tmp_path) -> Path:
    """A folder like the checkout's root for the examples: examples/, docs/, ./Kayles-xox."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    (tmp_path / "docs").mkdir()
    (tmp_path / "Kayles-xox").symlink_to(ROOT / "Kayles-xox")
    return tmp_path


CONSOLE = blocks("console")


@pytest.mark.parametrize(("where", "body", "loose"), CONSOLE, ids=[w for w, _, _ in CONSOLE])
def test_console_example(where, body, loose, scratch):
    env = {k: v for k, v in os.environ.items() if k not in ("KAYLES_PURE", "COLUMNS")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["XDG_CACHE_HOME"] = str(scratch / "cache")
    env["KAYLES_PROGRESS_SECONDS"] = "86400"  # progress lines come with slowness: none here,
    for command, expected in session(body):        # however loaded the machine
        result = subprocess.run(["bash", "-c", command], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=scratch,
                                env=env, timeout=TIMEOUT)
        actual = result.stdout.decode().splitlines()
        assert matches(expected, actual, loose), (
            f"{where}: $ {command}\nexpected:\n" + "\n".join(expected)
            + "\ngot:\n" + "\n".join(actual))


PYTHON = blocks("python")


@pytest.mark.parametrize(("where", "body", "loose"), PYTHON, ids=[w for w, _, _ in PYTHON])
def test_python_example(where, body, loose, scratch, monkeypatch):
    if "plot" in body:
        pytest.importorskip("matplotlib")
    monkeypatch.chdir(scratch)
    page, line = where.rsplit(":", 1)
    test = doctest.DocTestParser().get_doctest(body, {}, where, page, int(line))
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"{where}: see the doctest report above"


def test_every_example_block_is_checked_or_a_record():
    """Runnable examples are console or python blocks; an unmarked or sh block that looks
    like a session would escape the checks (a record says so: text)."""
    for kind in ("", "sh"):
        for where, body, _ in blocks(kind):
            assert not body.lstrip().startswith(("$ ", ">>> ")), where
