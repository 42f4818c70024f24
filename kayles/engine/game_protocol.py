"""The protocol of a game given by its moves, as kayles's search reads it.

``ImpartialGame`` documents it (and gives the optional methods' defaults); any object with
an ``options`` method will do.  ``Rules`` is a game's methods as the search calls them
(the optional ones None where the game has none, or keeps the base class's, so the
search skips them); ``CycleFound`` is what a search raises when a component is met again
on its own path (the game is not short: kayles.analysis.solver answers with the loopy
solver).
"""

from __future__ import annotations

from ..errors import InputError, shown

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Hashable, Iterable

__all__ = ["CycleFound", "ImpartialGame", "Rules", "brief_repr"]


class ImpartialGame:
    """The base of a game written in Python: subclass it and write ``options``.

        >>> class Subtraction(ImpartialGame):      # take 1, 2 or 3 tokens from a heap
        ...     def options(self, n):
        ...         return [n - k for k in (1, 2, 3) if k <= n]

    Every other method is optional: the defaults below are what the search assumes
    without them, and any object with an ``options`` method is a game too.  A game whose
    ``nimber`` runs threads of its own (a compiled family) may have a ``threads``
    attribute: ``kayles solve --threads T`` sets it to T, and starts no process.
    """

    def options(self, position) -> Iterable:
        """The positions one move reaches from ``position`` (any iterable; none: the player to
        move has lost, in normal play).  An option may be a sum of independent parts, which
        ``components`` splits."""
        raise NotImplementedError(f"{type(self).__name__} must define options(position)")

    def components(self, position) -> Iterable:
        """The independent parts of ``position``, its value the XOR of theirs (a graph's
        connected components, a board's separate regions).  Default: the position itself."""
        return (position,)

    def key(self, position) -> Hashable:
        """A canonical form of ``position``, equal for positions that are the same game (a
        board and its mirror image, a graph relabelled), hashable: they share one entry of
        the table.  Default: the position itself (which must then be hashable)."""
        return position

    def nimber(self, position) -> int | None:
        """The nimber of the component ``position`` from a direct solver (a compiled kernel,
        a formula), or None to have the search find it.  It is asked of every component the
        table lacks, so it should say None quickly where it has no answer."""
        return None

    def has_value(self, position, value: int) -> bool | None:
        """Whether the component ``position``'s nimber is ``value``, from a direct solver
        that can say so more cheaply than find the nimber (a P-position is known by its
        options' outcomes alone), or None to leave it to ``nimber`` and the search.  Asked
        where the search needs only that answer (outcomes, winning moves)."""
        return None

    def describe(self, position, option) -> str:
        """The move from ``position`` to its ``option`` in words, as ``kayles solve`` says
        it (a vertex's name, a domino's cells).  Default: ``format(option)``."""
        return self.format(option)

    def parse(self, text: str):
        """The position ``text`` stands for on the command line.  Default: a Python literal
        (``ast.literal_eval``: ``10``, ``(3, 4)``, ``'xx.x'``)."""
        from ast import literal_eval

        return literal_eval(text)

    def format(self, position) -> str:
        """How ``position`` is shown.  Default: ``repr``."""
        return repr(position)


class CycleFound(Exception):
    """A component met again on its own search path: the game is not short (a cycle, or
    positions without end).  ``key``: that component's key."""

    def __init__(self, key: Hashable) -> None:
        super().__init__(f"the position {brief_repr(key)} can be reached from itself")
        self.key = key



def brief_repr(item) -> str:
    """A position or value as a message shows it: its repr, cut where long."""
    text = repr(item)
    return shown(text) if len(text) > 60 else text


class Rules:
    """A game's methods as the search calls them: ``split``, ``key``, ``direct`` (nimber) and
    ``decide`` (has_value) are None where the game has no such method, or keeps
    ``ImpartialGame``'s, so the search skips them."""

    __slots__ = ("decide", "direct", "game", "key", "options", "split")

    def __init__(self, game) -> None:
        options = getattr(game, "options", None)
        if not callable(options):
            raise InputError(f"{_named(game)} is not a game: it has no options(position) method")
        self.game, self.options = game, options
        self.split = _optional(game, "components")
        self.key = _optional(game, "key")
        self.direct = _optional(game, "nimber")
        self.decide = _optional(game, "has_value")


def _named(game) -> str:
    if isinstance(game, type):
        return game.__name__
    name = type(game).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _optional(game, name: str):
    method = getattr(game, name, None)
    if method is None:
        return None
    if not callable(method):
        raise InputError(f"{_named(game)}'s {name} is not a method")
    if getattr(method, "__func__", None) is getattr(ImpartialGame, name):
        return None
    return method
