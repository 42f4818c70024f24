"""Each compiled module exposes exactly its pure twin's names, with the same signatures.

A name defined in the compiled module (not an imported module or class) and not
private is its API, and it must be the pure twin's ``__all__``.  Functions compare by their
parameters (names, kinds, defaults); classes by the arguments their constructors
take (the pure twin's, passed by keyword to both).  The errors both give on the same
bad arguments are test_kernel_args' and test_twins'.
"""

from __future__ import annotations

import inspect
from array import array

import pytest

from kayles.engine.codes import get_game
from kayles.engine.rules import encode

from conftest import load_kernel

CONCERNS = ["core", "misere", "quotient", "takebreak", "nimber", "hackenbush", "search",
            "boards", "graphs", "chomp"]


def api(module) -> set[str]:
    return {name for name in dir(module) if not name.startswith("_")
            and not inspect.ismodule(getattr(module, name))
            and getattr(getattr(module, name), "__module__", module.__name__) == module.__name__}


@pytest.mark.parametrize("concern", CONCERNS)
def test_the_compiled_module_has_its_twins_names(concern):
    compiled, pure = load_kernel("cython", concern), load_kernel("python", concern)
    assert api(compiled) == set(pure.__all__) and set(pure.__all__) <= api(pure)


def parameters(function) -> list[tuple[str, object, object]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


@pytest.mark.parametrize("concern", CONCERNS)
def test_the_twins_functions_take_the_same_parameters(concern):
    compiled, pure = load_kernel("cython", concern), load_kernel("python", concern)
    for name in pure.__all__:
        ours = getattr(pure, name)
        if inspect.isfunction(ours):
            assert parameters(getattr(compiled, name)) == parameters(ours), name


def test_the_twins_classes_take_the_same_arguments():
    kinds = encode(get_game("kayles").kinds)
    arguments = {"Scratch": {"vector": None, "threads": 2, "cores": 2, "crew_from": 0,
                             "crew_rare": 0, "waited_only": True},
                 "MisereMemo": {"kinds": kinds, "budget": 100},
                 "Search": {"n": 2, "us": array("i", [0]), "vs": array("i", [1])}}
    for concern, name in (("core", "Scratch"), ("misere", "MisereMemo"),
                          ("hackenbush", "Search")):
        pure = getattr(load_kernel("python", concern), name)
        assert set(inspect.signature(pure).parameters) == set(arguments[name]), name
        getattr(load_kernel("cython", concern), name)(**arguments[name])
        pure(**arguments[name])
