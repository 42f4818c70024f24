"""kayles: Sprague-Grundy solver for take-and-break games, on a Cython core, and for any
impartial game written in Python (``ImpartialGame``, ``Solver``).

Light on purpose: importing the package loads nothing heavy; the names below
are loaded on first use.  Inside IPython or Jupyter, a ``Sequence`` shows itself
as its picture (``kayles.plot``, with the ``plot`` extra).

    >>> import kayles
    >>> kayles.xox.nimbers(6)
    [0, 1, 0, 2, 3, 2, 1]
    >>> kayles.xox.winning_move("xxxxxxx.xxxxxxxx..xxxxxxxx.")
    'xxx.xxx.xxxxxxxx..xxxxxxxx.'
"""

import sys as _sys

from ._version import __version__ as __version__

__all__ = [
    "GAMES",
    "IMPLEMENTATION",
    "Game",
    "ImpartialGame",
    "MoveKind",
    "Option",
    "Period",
    "Sequence",
    "Solution",
    "Solver",
    "coordinate_rule",
    "get_game",
    "heap_rule",
    "nim_inverse",
    "nim_power",
    "nim_product",
    "nim_sqrt",
    "nim_sum",
    "parse_octal",
    "solve",
    "xox",
]

_HOMES = {  # name -> the module that holds it (a module's own name: that module)
    "IMPLEMENTATION": "kernels.chooser",
    "GAMES": "engine.rules",
    "Game": "engine.rules",
    "MoveKind": "engine.rules",
    "Option": "engine.rules",
    "get_game": "engine.codes",
    "parse_octal": "engine.rules",
    "Period": "engine.sequence",
    "Sequence": "engine.sequence",
    "heap_rule": "engine.functional",
    "coordinate_rule": "engine.functional",
    **{name: "engine.nimbers" for name in ("nim_inverse", "nim_power", "nim_product",
                                           "nim_sqrt", "nim_sum")},
    "ImpartialGame": "engine.game_protocol",
    "Solution": "analysis.solver",
    "Solver": "analysis.solver",
    "solve": "analysis.solver",
}
# The documented modules by their short names (kayles.row after import kayles; also
# 'from kayles.row import ...', through _ShortNames): the house keeps them in its layers.
_MODULES = {
    "rules": "engine.rules", "sequence": "engine.sequence", "checksum": "engine.checksum",
    "nimbers": "engine.nimbers",
    "spectrum": "kernels.spectrum", "table_file": "storage.table_file",
    "proof_cache": "storage.proof_cache", "store": "storage.store", "row": "analysis.row",
    "heaps": "analysis.heaps", "xox": "analysis.xox", "misere": "analysis.misere",
    "quotient": "analysis.quotient", "survey": "analysis.survey", "plot": "analysis.plot",
    "play": "analysis.play", "games": "analysis.games", "web": "interface.web",
    "search": "engine.search", "solver": "analysis.solver",
}
_HOMES.update(_MODULES)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .analysis import xox
    from .analysis.solver import Solution, Solver, solve
    from .engine.codes import get_game
    from .engine.functional import coordinate_rule, heap_rule
    from .engine.game_protocol import ImpartialGame
    from .engine.nimbers import nim_inverse, nim_power, nim_product, nim_sqrt, nim_sum
    from .engine.rules import GAMES, Game, MoveKind, Option, parse_octal
    from .engine.sequence import Period, Sequence
    from .kernels.chooser import IMPLEMENTATION
del TYPE_CHECKING  # not a name of the package's


def __getattr__(name: str):
    """Load a public name on first use (PEP 562)."""
    if name not in _HOMES:  # before importlib: 'from . import x' asks here first
        raise AttributeError(f"module 'kayles' has no attribute {name!r}")
    from importlib import import_module

    home = import_module(f"{__name__}.{_HOMES[name]}")
    return home if name in _MODULES else getattr(home, name)


class _ShortNames:
    """Import hook: ``import kayles.row`` (or ``kayles.games.nim``) gives the module where
    the house keeps it (``kayles.analysis.row``), the same object under both names."""

    @staticmethod
    def find_spec(fullname: str, path=None, target=None):
        prefix, _, rest = fullname.partition(".")
        short, _, tail = rest.partition(".")
        if prefix != __name__ or short not in _MODULES:
            return None
        from importlib.machinery import ModuleSpec

        home = ".".join(filter(None, (__name__, _MODULES[short], tail)))
        return ModuleSpec(fullname, _ShortNames, loader_state=home)

    @staticmethod
    def create_module(spec):
        from importlib import import_module

        module = import_module(spec.loader_state)
        spec.loader_state = module.__spec__  # given back below: importlib overwrote it
        return module

    @staticmethod
    def exec_module(module) -> None:
        module.__spec__ = module.__spec__.loader_state


_sys.meta_path.insert(0, _ShortNames)  # before the path finder: kayles.games.nim


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__) | set(_HOMES))


def _sequence_png(sequence) -> bytes | None:
    from .analysis.plot import repr_png

    return repr_png(sequence)


def _show_sequences_in_ipython() -> None:
    """Register ``_sequence_png`` as a Sequence's PNG form in a running IPython shell."""
    ipython = _sys.modules.get("IPython")
    shell = getattr(ipython, "get_ipython", lambda: None)()
    if shell is not None:
        formatter = shell.display_formatter.formatters["image/png"]
        formatter.for_type_by_name("kayles.engine.sequence", "Sequence", _sequence_png)


_show_sequences_in_ipython()
