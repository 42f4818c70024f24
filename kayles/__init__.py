"""kayles: Sprague-Grundy solver for take-and-break games, on a Cython core.

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
    "MoveKind",
    "Option",
    "Period",
    "Sequence",
    "get_game",
    "parse_octal",
    "xox",
]

_HOMES = {  # name -> the submodule that holds it (a submodule's own name: the submodule)
    "IMPLEMENTATION": "_impl",
    "GAMES": "rules",
    "Game": "rules",
    "MoveKind": "rules",
    "Option": "rules",
    "get_game": "rules",
    "parse_octal": "rules",
    "Period": "sequence",
    "Sequence": "sequence",
    "xox": "xox",
}
# The documented modules, loaded on first use too (kayles.row after import kayles).
_HOMES.update({name: name for name in (
    "checksum", "games", "heaps", "misere", "play", "plot", "quotient", "row", "rules",
    "sequence", "spectrum", "store", "survey")})

TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import xox
    from ._impl import IMPLEMENTATION
    from .rules import GAMES, Game, MoveKind, Option, get_game, parse_octal
    from .sequence import Period, Sequence


def __getattr__(name: str):
    """Load a public name on first use (PEP 562)."""
    if name not in _HOMES:  # before importlib: 'from . import x' asks here first
        raise AttributeError(f"module 'kayles' has no attribute {name!r}")
    from importlib import import_module

    home = import_module("." + _HOMES[name], __name__)
    return home if name == _HOMES[name] else getattr(home, name)


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__) | set(_HOMES))


def _sequence_png(sequence) -> bytes | None:
    from .plot import repr_png

    return repr_png(sequence)


def _show_sequences_in_ipython() -> None:
    """Register ``_sequence_png`` as a Sequence's PNG form in a running IPython shell."""
    ipython = _sys.modules.get("IPython")
    shell = getattr(ipython, "get_ipython", lambda: None)()
    if shell is not None:
        formatter = shell.display_formatter.formatters["image/png"]
        formatter.for_type_by_name("kayles.sequence", "Sequence", _sequence_png)


_show_sequences_in_ipython()
