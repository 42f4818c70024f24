"""kayles: Sprague-Grundy solver for take-and-break games, on a Cython core.

Light on purpose: importing the package loads nothing heavy; the names below
are loaded on first use.

    >>> import kayles
    >>> kayles.xox.nimbers(6)
    [0, 1, 0, 2, 3, 2, 1]
    >>> kayles.xox.winning_move("xxxxxxx.xxxxxxxx..xxxxxxxx.")
    'xxx.xxx.xxxxxxxx..xxxxxxxx.'
"""

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "IMPLEMENTATION",
    "Game",
    "MoveKind",
    "Period",
    "Sequence",
    "get_game",
    "parse_octal",
    "xox",
]

_HOMES = {
    "IMPLEMENTATION": "_impl",
    "GAMES": "rules",
    "Game": "rules",
    "MoveKind": "rules",
    "get_game": "rules",
    "parse_octal": "rules",
    "Period": "sequence",
    "Sequence": "sequence",
}

TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import xox
    from ._impl import IMPLEMENTATION
    from .rules import GAMES, Game, MoveKind, get_game, parse_octal
    from .sequence import Period, Sequence


def __getattr__(name: str):
    if name != "xox" and name not in _HOMES:  # before importlib: 'from . import x' asks here
        raise AttributeError(f"module 'kayles' has no attribute {name!r}")
    from importlib import import_module

    if name == "xox":
        return import_module(".xox", __name__)
    return getattr(import_module("." + _HOMES[name], __name__), name)


def __dir__() -> list:
    return sorted(set(globals()) | set(__all__))
