"""Cram, written as a researcher would write it: fill two free cells side by side; whoever
cannot move loses.  A position is the frozenset of free cells (row, column).

    kayles solve examples/cram.py:Cram 4x5
    kayles solve examples/cram.py:Cram '..#/.../...' --json

``components`` splits a board into its separate regions (their nimbers XOR) and ``key``
gives a region and its mirror images one entry of the search's table: both cut the search
by orders of magnitude.
"""

from ast import literal_eval


class Cram:
    def options(self, cells):
        moves = []
        for r, c in cells:
            for other in ((r + 1, c), (r, c + 1)):
                if other in cells:
                    moves.append(cells - {(r, c), other})
        return moves

    def components(self, cells):
        todo, parts = set(cells), []
        while todo:
            start = todo.pop()
            part, frontier = {start}, [start]
            while frontier:
                r, c = frontier.pop()
                for cell in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if cell in todo:
                        todo.discard(cell)
                        part.add(cell)
                        frontier.append(cell)
            if len(part) > 1:  # a lone cell has no move: it adds nothing
                parts.append(frozenset(part))
        return parts

    def key(self, cells):
        """The least of the 8 images of the region (turned, mirrored), moved to the corner."""
        best = None
        for turn in range(8):
            image = [((c, r) if turn & 1 else (r, c)) for r, c in cells]
            image = [(-r if turn & 2 else r, -c if turn & 4 else c) for r, c in image]
            low_r, low_c = min(r for r, _ in image), min(c for _, c in image)
            form = tuple(sorted((r - low_r, c - low_c) for r, c in image))
            best = form if best is None or form < best else best
        return best

    def parse(self, text):
        """'4x5' (an empty board) or rows of '.' (free) and '#' (filled) joined by '/'."""
        if "x" in text:
            rows, columns = map(int, text.split("x"))
            return frozenset((r, c) for r in range(rows) for c in range(columns))
        if set(text) <= set("./#"):
            return frozenset((r, c) for r, row in enumerate(text.split("/"))
                             for c, cell in enumerate(row) if cell == ".")
        return frozenset(literal_eval(text))

    def format(self, cells):
        if not cells:
            return "(no free cell)"
        rows = 1 + max(r for r, _ in cells)
        columns = 1 + max(c for _, c in cells)
        return "/".join("".join("." if (r, c) in cells else "#" for c in range(columns))
                        for r in range(rows))
