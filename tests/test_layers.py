"""The import graph of the package: every module in its layer, imports only downwards, no circle.

Layers, lowest first (a module may import from its own layer or a lower one, never
from a higher one; ``if TYPE_CHECKING`` imports and imports inside functions count
too).  A new module gets a row here, so its place in the house is a decision.
"""

from __future__ import annotations

import ast

from conftest import ROOT

LAYERS = [
    ("base", ["_version", "errors", "_constants", "checksum", "spectrum", "_files", "glossary"]),
    ("rules", ["_numbers", "rules"]),
    ("kernels", ["_kernel_args", "_common_pure", "_core_pure", "_misere_pure", "_core", "_misere",
                 "_quotient_pure", "_quotient", "_impl"]),
    ("sequences", ["sequence"]),
    ("positions and files", ["row", "heaps", "proof_cache", "table_file", "_output",
                             "progress", "long_table", "checkpoint", "records"]),
    ("games and analyses", ["xox", "misere", "quotient", "survey", "store", "executors", "plot",
                            "play", "games", "games.*", "run"]),
    ("front ends", ["_frontend", "cli", "__main__", "commands", "commands.*", "web",
                    "web.*"]),
    ("the package", [""]),
]


def layer_of(name: str) -> int:
    """The layer of ``kayles.<name>`` ('' for the package itself)."""
    for level, (_, members) in enumerate(LAYERS):
        for member in members:
            if name == member or member.endswith(".*") and name.startswith(member[:-1]):
                return level
    raise AssertionError(f"{full(name)} has no layer: add it to LAYERS in {__file__}")


def imports() -> dict[str, set[str]]:
    """For each module of the package (dotted, without 'kayles.'), the package modules it
    imports anywhere in its text."""
    package = ROOT / "kayles"
    graph: dict[str, set[str]] = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
            home = parts
        else:
            home = parts[:-1]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = home[: len(home) - node.level + 1]
            elif node.module and (node.module + ".").startswith("kayles."):
                base, node.module = node.module.split(".")[1:], None
            else:
                continue
            if node.module:
                found.add(".".join([*base, *node.module.split(".")]))
            else:  # from . import x: x is a module, or a name of the package itself
                for alias in node.names:
                    candidate = ".".join([*base, alias.name])
                    module = package.joinpath(*candidate.split("."))
                    is_module = module.with_suffix(".py").exists() or module.is_dir() or any(
                        package.glob(candidate.replace(".", "/") + ".*.so"))
                    found.add(candidate if is_module else ".".join(base))
        found.discard(".".join(parts))
        graph[".".join(parts)] = found
    return graph


def full(name: str) -> str:
    return f"kayles.{name}" if name else "kayles"


def test_every_import_runs_down_the_layers():
    upward = [f"{full(module)} ({LAYERS[layer_of(module)][0]}) imports {full(target)} "
              f"({LAYERS[layer_of(target)][0]})"
              for module, targets in imports().items() for target in sorted(targets)
              if layer_of(target) > layer_of(module)]
    assert not upward, "\n".join(upward)


def test_the_import_graph_has_no_circle():
    graph = imports()
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done

    def walk(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                circle = path[path.index(target):] + [target]
                raise AssertionError("import circle: " + " -> ".join(map(full, circle)))
            if state.get(target) is None:
                walk(target, [*path, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            walk(module, [module])


def test_the_layer_table_knows_every_module():
    for module in imports():
        layer_of(module)
