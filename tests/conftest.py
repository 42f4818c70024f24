"""Shared fixtures: every kernel test runs on both twins.

The ``kernel`` fixture is the compiled nim-sequence kernel (kayles._core) and its
pure twin (kayles._core_pure) in turn; ``misere_kernel`` the same for the misère
search (kayles._misere, kayles._misere_pure).  When the compiled core is missing
its case is skipped, unless KAYLES_REQUIRE_NATIVE is set (as CI and ``make test``
do): then it fails, so a broken build cannot pass as "pure tested twice".
"""

from __future__ import annotations

import atexit
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/oracle.py

REQUIRE_NATIVE = os.environ.get("KAYLES_REQUIRE_NATIVE", "") not in ("", "0")

# The proof cache (kayles.proof_cache) of every test and subprocess: a fresh
# directory, never the user's ~/.cache.  Set before any test module imports kayles.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="kayles-test-cache-")
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)


def load_kernel(name: str, concern: str = "core"):
    if name == "python":
        return importlib.import_module(f"kayles._{concern}_pure")
    try:
        return importlib.import_module(f"kayles._{concern}")
    except ImportError as exc:
        if REQUIRE_NATIVE:
            pytest.fail(f"KAYLES_REQUIRE_NATIVE is set but the compiled core is missing: {exc}")
        pytest.skip(f"compiled core not built: {exc}")


@pytest.fixture(scope="session", params=["cython", "python"])
def kernel(request):
    return load_kernel(request.param)


@pytest.fixture(scope="session")
def both_kernels():
    """(compiled, pure), for tests that compare the twins directly."""
    return load_kernel("cython"), load_kernel("python")


@pytest.fixture(scope="session", params=["cython", "python"])
def misere_kernel(request):
    return load_kernel(request.param, "misere")


@pytest.fixture(scope="session")
def both_misere_kernels():
    return load_kernel("cython", "misere"), load_kernel("python", "misere")


def assert_usage_error(result) -> None:
    """A front end refused its input: one line on stderr, status 2, nothing on stdout."""
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2, err
    assert result.stdout == b""
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1 and err.strip(), repr(err)


def listing(values) -> bytes:
    """The seed's format: [a, b, c] and a newline."""
    return ("[" + ", ".join(map(str, values)) + "]\n").encode()


def read_prefix_then_close(command: list[str], env=None, count: int = 20):
    """Read ``count`` bytes of the command's output, close the pipe: (prefix, status, stderr)."""
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                          cwd=ROOT) as proc:
        try:
            prefix = proc.stdout.read(count)
            proc.stdout.close()
            err = proc.stderr.read()
            status = proc.wait(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
    return prefix, status, err
