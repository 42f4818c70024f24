"""The C vector kernels on their own: ext/tests/test_kernels.c, through ``make check-c``.

It compiles them with the warnings as errors and under the address and
undefined-behaviour sanitizers, and checks every kernel against the plain loop
that defines it (the AVX-512 ones where this CPU has them).
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from conftest import REQUIRE_NATIVE, ROOT


@pytest.mark.slow  # make test-slow (CI runs it)
def test_the_c_kernels_pass_their_own_checks_under_the_sanitizers():
    if shutil.which("make") is None or shutil.which("cc") is None:
        if REQUIRE_NATIVE:
            pytest.fail("KAYLES_REQUIRE_NATIVE is set but make or cc is missing")
        pytest.skip("no make or C compiler here")
    result = subprocess.run(["make", "-s", "check-c"], cwd=ROOT, capture_output=True,
                            timeout=300)
    out = result.stdout.decode() + result.stderr.decode()
    assert result.returncode == 0, out
    assert " 0 failed" in out and "FAIL" not in out, out
