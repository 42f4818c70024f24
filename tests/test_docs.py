"""The documentation build is strict for real: `make docs` fails on a broken anchor.

A tiny site that inherits the project's mkdocs.yml (its validation settings, its
plugins) is built by `make docs MKDOCS_CONFIG=...`, the very command CI runs: once
with a link to an anchor that is not there (the build must fail and name it), once
with the anchor mended (it must pass).  `make docs` installs the docs extra first
when it is missing.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import ROOT


def build_site(tmp_path, anchor: str) -> subprocess.CompletedProcess:
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    (docs / "index.md").write_text(f"# Start\n\nSee [the other page](other.md#{anchor}).\n")
    (docs / "other.md").write_text("# Other\n\n## Misère quotients (`kayles quotient`)\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"INHERIT: {ROOT / 'mkdocs.yml'}\ndocs_dir: {docs}\n"
                      f"site_dir: {tmp_path / 'site'}\nnav:\n  - Start: index.md\n"
                      "  - Other: other.md\n")
    return subprocess.run(["make", "-s", "-C", str(ROOT), "docs", f"MKDOCS_CONFIG={config}"],
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize(("anchor", "fails"), [("misère-quotients-kayles-quotient", True),
                                               ("misere-quotients-kayles-quotient", False)])
def test_make_docs_fails_on_a_broken_anchor(tmp_path, anchor, fails):
    result = build_site(tmp_path, anchor)
    assert (result.returncode != 0) == fails, result.stdout + result.stderr
    assert (f"does not contain an anchor '#{anchor}'" in result.stderr) == fails, result.stderr


@pytest.mark.slow  # make test-slow (CI runs it)
def test_the_projects_own_docs_build_strictly(tmp_path):
    """The site itself, as `make docs` builds it (strict, no --quiet), into a folder of the
    test's own: a broken link or anchor in docs/ fails here, before CI."""
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                             "--config-file", str(ROOT / "mkdocs.yml"), "--site-dir",
                             str(tmp_path / "site")], capture_output=True, text=True,
                            timeout=600, cwd=ROOT,
                            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert "WARNING" not in result.stderr, result.stderr[-3000:]
