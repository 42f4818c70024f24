"""Grundy's game, written as seed 003 has students write it: a position is the heaps left, a
move splits one heap into two heaps of different sizes, and whoever cannot move loses.

    kayles solve examples/grundy.py:GrundysGame 9
    kayles solve examples/grundy.py:GrundysGame 9,10 --json
    kayles play --game examples/grundy.py:GrundysGame 13

Only ``options`` is needed; ``components``, ``parse`` and ``format`` are there to show what
they do.
"""


class GrundysGame:
    def options(self, heaps):
        """Seed 003's getMoves: every position one move reaches (a heap of 1 or 2 cannot be
        split, so it is left out of a position: the invariant of seed 003)."""
        moves = []
        for i, heap in enumerate(heaps):
            others = heaps[:i] + heaps[i + 1:]
            for small in range(1, (heap + 1) // 2):  # small < heap - small: different sizes
                after = others + (small, heap - small)
                moves.append(tuple(sorted(h for h in after if h >= 3)))
        return moves

    def components(self, heaps):
        """Optional: each heap is a game of its own, and the nimbers of the heaps XOR."""
        return [(heap,) for heap in heaps]

    def parse(self, text):
        """Optional: '9,10' on the command line is the position (9, 10)."""
        return tuple(sorted(h for h in map(int, text.replace(",", " ").split()) if h >= 3))

    def format(self, heaps):
        """Optional: how a position is shown ('7,10'; 'no heap left' for the end)."""
        return ",".join(map(str, heaps)) or "no heap left"
