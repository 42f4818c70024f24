"""The import graph of the package: the layers are its folders, imports run only downwards,
no circle.

The tree is the map.  Lowest first: the modules at the top of ``kayles/`` other than
the package's own entry points (``errors``, ``_version``: what every layer uses); then
the folders in ``FLOORS`` order; then the package itself (``__init__``, ``__main__``).
A module may import from its own floor or a lower one, never from a higher one
(``if TYPE_CHECKING`` imports and imports inside functions count too).  A new folder
gets a place in ``FLOORS``, so where it stands is a decision.
"""

from __future__ import annotations

import ast

from conftest import ROOT

PACKAGE = ROOT / "kayles"
FLOORS = [
    "kernels",  # the wing: each compiled kernel's pure twin, the chooser, checks, constants, cost
    "engine",  # rules, codes, nim-sequences and proved periods
    "storage",  # files, tables, checkpoints, the proof cache, the survey database
    "analysis",  # positions, misère play and quotients, surveys, long runs, games, play, plots
    "interface",  # the two programs, their commands and output, the web page
]
ENTRY_POINTS = ("", "__main__")  # the package (its __init__) and python -m kayles
LAYERS = ["base", *FLOORS, "the package"]


def layer_of(name: str) -> int:
    """The layer of ``kayles.<name>`` ('' for the package itself), from where it lies."""
    if name in ENTRY_POINTS:
        return len(LAYERS) - 1
    folder = name.split(".")[0]
    if "." not in name and not (PACKAGE / folder).is_dir():
        return 0
    if folder not in FLOORS:
        raise AssertionError(f"kayles/{folder}/ has no floor: add it to FLOORS in {__file__}")
    return 1 + FLOORS.index(folder)


def imports() -> dict[str, set[str]]:
    """For each module of the package (dotted, without 'kayles.'), the package modules it
    imports anywhere in its text."""
    package = PACKAGE
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
    upward = [f"{full(module)} ({LAYERS[layer_of(module)]}) imports {full(target)} "
              f"({LAYERS[layer_of(target)]})"
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


def test_every_folder_is_a_floor_and_every_floor_a_folder():
    folders = {path.name for path in PACKAGE.iterdir()
               if path.is_dir() and (path / "__init__.py").exists()}
    assert folders == set(FLOORS)
    for module in imports():
        layer_of(module)


def test_no_two_modules_share_a_name():
    """One name per concept: a module's name says which one it is, wherever it lies."""
    seen: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.stem in ("__init__", "__main__"):
            continue
        other = seen.setdefault(path.stem, str(path.relative_to(PACKAGE)))
        assert other == str(path.relative_to(PACKAGE)), f"{other} and {path.relative_to(PACKAGE)}"


def test_the_web_page_uses_the_analyses_never_the_commands():
    """Two front ends side by side: the web page and the commands share what lies below
    them, never each other's modules."""
    graph = imports()
    crossing = [f"{full(module)} imports {full(target)}" for module, targets in graph.items()
                for target in targets
                if module.startswith("interface.web") and target.startswith("interface.commands")
                or module.startswith("interface.commands") and target.startswith("interface.web.")
                and module != "interface.commands.serve"]
    assert not crossing, "\n".join(crossing)


def test_no_source_file_is_over_a_thousand_lines():
    """A file past 1,000 lines holds several jobs: split it along its seams."""
    sources = [*PACKAGE.rglob("*.py"), *(ROOT / "ext").rglob("*.py[xdi]"),
               *(ROOT / "ext").rglob("*.[ch]"), *(ROOT / "tests").glob("*.py"),
               *(ROOT / "benchmarks").glob("*.py")]
    generated = {path.with_suffix(".c") for path in (ROOT / "ext").glob("*.pyx")}  # Cython's
    long = [f"{path.relative_to(ROOT)}: {count} lines" for path in sorted(set(sources) - generated)
            if (count := path.read_text().count("\n")) > 1000]
    assert sources and not long, "\n".join(long)


def test_every_compiled_kernel_has_its_pure_twin_under_its_own_name():
    """The wing's pairs: ext/<name>.pyx builds kayles.kernels.<name>, and
    kayles/kernels/pure/<name>.py is its twin; ext/_common.pxd's twin is pure/_common.py."""
    compiled = {path.stem for path in (ROOT / "ext").glob("*.pyx")} | {"_common"}
    twins = {path.stem for path in (PACKAGE / "kernels" / "pure").glob("_*.py")} - {"__init__"}
    assert compiled == twins
    assert (ROOT / "ext" / "_common.pxd").exists()
