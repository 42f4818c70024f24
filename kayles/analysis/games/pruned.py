"""What the families of the pruned search share (Cram, Node and Arc Kayles, Chomp).

Each holds its kernels in ``kernels`` (one a board shape, a graph or a Chomp frame, made on
first use, each with its own table of at most ``memory`` bytes) and says its ``nimber``,
``has_value`` and ``options``; ``solve`` (the value and the winning moves, each an option
asked "is it 0?" rather than valued) and ``stats`` (the kernels' counts summed) are here.
"""

from __future__ import annotations

__all__ = ["PrunedFamily", "default_memory"]


def default_memory() -> int:
    """A family's tables: half of what kayles.kernels.limits.memory() allows."""
    from ...kernels.limits import memory

    return memory()[0] // 2


class PrunedFamily:
    """The base of the families; ``memory``: the bytes each kernel's table may use
    (default: ``default_memory()``)."""

    def __init__(self, memory: int | None = None) -> None:
        self.memory = default_memory() if memory is None else memory
        self.kernels: dict = {}

    def solve(self, position) -> tuple[int, list]:
        """(the value, the options of value 0: the winning moves)."""
        value = self.nimber(position)
        if value == 0:
            return 0, []
        return value, [o for o in self.options(position) if self.has_value(o, 0)]

    def stats(self) -> dict[str, int]:
        """The kernels' counts (entries, evictions, positions expanded...), summed."""
        total: dict[str, int] = {}
        for kernel in self.kernels.values():
            for name, value in kernel.stats().items():
                total[name] = total.get(name, 0) + value
        return total
