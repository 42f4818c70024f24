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
import fnmatch
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
NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")  # 16,384 and 0.5 alike


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


# -- what the README says of the tree, checked against the tree -----------------------------


def section(text: str, heading: str) -> str:
    """The text under a Markdown heading, up to the next heading of its level or above."""
    level = heading.split(" ", 1)[0]
    body = text.split("\n" + heading + "\n", 1)[1]
    return re.split(rf"\n#{{1,{len(level)}}} ", body, maxsplit=1)[0]


def layout_entries() -> tuple[set[str], set[str], set[str]]:
    """(files, folders, globs) the README's layout table names, as paths from the root.

    A module cell's names are relative to the row's folder (the first cell, or the one
    above when it is empty); after a name with a folder in it (``src/kernels.h``) the
    bare names of that cell are in that folder too (``pairs.c``)."""
    text = (ROOT / "README.md").read_text()
    table = text.split("| folder (layer) | module | job |\n", 1)[1].split("\n\n", 1)[0]
    files, folders, globs = set(), set(), set()
    folder = ""
    for line in table.splitlines()[1:]:  # the first is the |---| line
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        folder = (re.findall(r"`([^`]+)`", cells[0]) or [folder])[0]
        inner = ""
        for name in re.findall(r"`([^`]+)`", cells[1]):
            if "/" in name.rstrip("/"):
                inner = name.rsplit("/", 1)[0] + "/"
                path = folder + name
            else:
                path = folder + inner + name
            if "*" in path:
                globs.add(path)
            elif path.endswith("/"):
                folders.add(path)
            else:
                files.add(path)
    return files, folders, globs


def module_files() -> set[str]:
    """Every module of kayles/ (a folder's __init__.py excepted: the folder is named) and
    every source of ext/ (the .c files Cython writes beside the .pyx excepted)."""
    found = {path for path in (ROOT / "kayles").rglob("*.py") if "__pycache__" not in path.parts
             and (path.name != "__init__.py" or path.parent == ROOT / "kayles")}
    ext = ROOT / "ext"
    for pattern in ("*.pyx", "*.pxd", "*/*.c", "*/*.h", "*/*.pxi"):
        found |= set(ext.glob(pattern))
    return {path.relative_to(ROOT).as_posix() for path in found}


def test_the_layout_table_names_every_module_and_only_modules_that_are_there():
    """Issue 53: the table lacked engine/codes.py, regularity.py, limits.py, _environ.py,
    _takebreak_pure.py, ext/_takebreak.pyx and more; now a new module must be named."""
    files, folders, globs = layout_entries()
    unnamed = sorted(path for path in module_files()
                     if path not in files and not any(map(path.startswith, folders))
                     and not any(fnmatch.fnmatch(path, pattern) for pattern in globs))
    assert not unnamed, f"README's layout table does not name {unnamed}"
    missing = sorted(path for path in files | folders if not (ROOT / path).exists())
    missing += sorted(pattern for pattern in globs if not list(ROOT.glob(pattern)))
    assert not missing, f"README's layout table names what is not there: {missing}"


@pytest.mark.parametrize("page", ["README.md", "docs/index.md"])
def test_the_quick_start_names_every_cython_module(page):
    text = (ROOT / page).read_text()
    sentence = text.split("the Cython modules", 1)[1].split("in place", 1)[0]
    named = set(re.findall(r"`ext/(\w+\.pyx)`", sentence))
    assert named == {path.name for path in (ROOT / "ext").glob("*.pyx")}, page


def test_the_documentation_list_links_every_page():
    """Every page of docs/ and docs/commands/ is in the README's list, and every link of
    the list is a page that is there (the take-and-break codes page was missing)."""
    listed = set(re.findall(r"\]\((docs/[^)#]+\.md)\)", section(
        (ROOT / "README.md").read_text(), "## Documentation")))
    pages = {path.relative_to(ROOT).as_posix()
             for pattern in ("docs/*.md", "docs/commands/*.md") for path in ROOT.glob(pattern)}
    assert pages - listed == set(), "not in README's documentation list"
    assert listed - pages == set(), "README's documentation list links no such page"
