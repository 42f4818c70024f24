"""Green Hackenbush by brute force, from the rules alone: the yardstick for
kayles.analysis.games.hackenbush, which nothing here imports.

A picture is a tuple of edges ``(u, v)`` of vertex names, ``"g"`` the ground.  A move
cuts one edge; every edge that no longer reaches the ground by a path of remaining
edges is dropped; whoever cannot move loses.  A position is the frozenset of the
indexes of its remaining edges; its value is the mex over its options (no sum
theorem, no colon or fusion principle), memoised on that set.
"""

from __future__ import annotations

GROUND = "g"


def mex(values) -> int:
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


class Oracle:
    """The values of one picture's positions, memoised."""

    def __init__(self, edges) -> None:
        self.edges = tuple((str(u), str(v)) for u, v in edges)
        self._memo: dict[frozenset, int] = {}

    def grounded(self, alive) -> frozenset:
        """The edges of ``alive`` that reach the ground through edges of ``alive``."""
        reached = {GROUND}
        kept: set[int] = set()
        changed = True
        while changed:  # grow the ground's part until nothing more joins it
            changed = False
            for i in alive:
                if i in kept:
                    continue
                u, v = self.edges[i]
                if u in reached or v in reached:
                    kept.add(i)
                    reached.update((u, v))
                    changed = True
        return frozenset(kept)

    def start(self) -> frozenset:
        """The position the picture stands for: its edges that reach the ground."""
        return self.grounded(range(len(self.edges)))

    def value_of(self, position: frozenset) -> int:
        found = self._memo.get(position)
        if found is None:
            found = mex(self.value_of(self.grounded(position - {i})) for i in position)
            self._memo[position] = found
        return found

    def value(self) -> int:
        return self.value_of(self.start())

    def after_cut(self, i: int) -> int:
        """The value once edge ``i`` (one of the picture's moves) is cut."""
        position = self.start()
        assert i in position
        return self.value_of(self.grounded(position - {i}))

    def cuts(self, target: int = 0) -> list[int]:
        """Every edge (input order) whose cut leaves the value ``target``."""
        position = self.start()
        return sorted(i for i in position if self.value_of(self.grounded(position - {i})) == target)


def value(edges) -> int:
    return Oracle(edges).value()


def winning_cuts(edges) -> list[int]:
    oracle = Oracle(edges)
    return [] if oracle.value() == 0 else oracle.cuts(0)


def sum_winning_cuts(pictures) -> tuple[int, list[list[int]]]:
    """The value of a sum of pictures (the mex over the moves of the whole sum, no XOR
    assumed) and, picture by picture, the cuts that leave the whole sum at 0."""
    oracles = [Oracle(p) for p in pictures]
    starts = [o.start() for o in oracles]
    memo: dict[tuple, int] = {}

    def whole(positions: tuple) -> int:
        found = memo.get(positions)
        if found is None:
            options = []
            for k, (oracle, position) in enumerate(zip(oracles, positions)):
                for i in position:
                    moved = positions[:k] + (oracle.grounded(position - {i}),) + positions[k + 1:]
                    options.append(whole(moved))
            found = memo[positions] = mex(options)
        return found

    total = whole(tuple(starts))
    cuts = []
    for k, (oracle, position) in enumerate(zip(oracles, starts)):
        before, after = tuple(starts[:k]), tuple(starts[k + 1:])
        cuts.append(sorted(i for i in position if total and whole(
            before + (oracle.grounded(position - {i}),) + after) == 0))
    return total, cuts
