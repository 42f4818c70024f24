"""Every constant both halves of a kernel need has one home a language: the compiled
modules export what their C defines (``CONSTANTS``) and each must equal
kayles/kernels/constants.py, where the pure twins and the cost model read it."""

from __future__ import annotations

import pytest

from kayles.kernels import constants

from conftest import load_kernel


@pytest.mark.parametrize("concern", ["core", "takebreak", "nimber", "hackenbush", "search",
                                     "boards", "graphs", "chomp"])
def test_the_compiled_modules_were_built_with_the_python_constants(concern):
    built = load_kernel("cython", concern).CONSTANTS
    assert built, "a compiled module exports no constants"
    assert built == load_kernel("python", concern).CONSTANTS  # the twins read the same
    differ = {name: (value, getattr(constants, name, None)) for name, value in built.items()
              if getattr(constants, name, None) != value}
    assert not differ, f"compiled value, Python value: {differ}"


def test_the_marks_are_coded_alike_by_the_rules_and_the_kernel():
    assert constants.MARK_CODES == {"": constants.NO_MARK, "!": constants.ALL_DIFFERENT,
                                    "?": constants.NOT_ALL_SAME, "=": constants.ALL_SAME}
    assert sorted(constants.MARK_CODES.values()) == list(range(4))
