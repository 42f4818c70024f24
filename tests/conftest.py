"""Shared fixtures: every kernel test runs on both twins.

The ``kernel`` fixture is the compiled core and the pure twin in turn.  When the
compiled core is missing its case is skipped, unless KAYLES_REQUIRE_NATIVE is set
(as CI and ``make test`` do): then it fails, so a broken build cannot pass as
"pure tested twice".
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/oracle.py

REQUIRE_NATIVE = os.environ.get("KAYLES_REQUIRE_NATIVE", "") not in ("", "0")


def load_kernel(name: str):
    if name == "python":
        return importlib.import_module("kayles._pure")
    try:
        return importlib.import_module("kayles._core")
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
