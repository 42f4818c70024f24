"""Misère quotients (Plambeck-Siegel) of a heap game restricted to heaps 1..N.

The quotient Q is the set of positions made of heaps up to N (a set closed under moves and
sums) modulo indistinguishability: G == H when G + X and H + X have the same misère
outcome for every such X.  It is a commutative monoid; its P-portion is the set of classes
of P-positions.

How this works.  (1) Guess: positions are count vectors over the heap sizes that have a
move (heaps with none are the game 0).  Every vector with counts up to C gets the signature
of its outcomes plus each vector of the same box (outcomes from the exhaustive misère
search); equal signatures give one candidate class, represented by its least vector;
products are the classes of sums.  (2) Prove: the guess is accepted only if (a) the table
is a commutative monoid and each representative maps to its own class, (b) every class
pair is told apart inside the table (so it is reduced), and (c) the outcome rule holds for
every position: with Phi the monoid image, Phi(G) is in P exactly when G has a move and no
option G' has Phi(G') in P.  An option changes one heap, so (c) depends only on the count
vector, and only through powers of each generator, which repeat (g^(i+p) = g^i): checking
the counts up to i + p for each heap covers every position, by induction on positions.
Then Phi respects outcomes and Q, reduced, is the quotient itself.  Otherwise C grows; past
the search's limits, ValueError (never a wrong quotient).

Presentation: generators a, b, c, ... for the heaps (in size order) whose class is not a
product of earlier ones; every element's normal form is its least word (by length, then
preferring earlier letters); the relations are "w = normal form" for the minimal words that
are not normal forms, which is a complete rewriting system.
"""

from __future__ import annotations

import itertools
import string

from .misere import DEFAULT_BUDGET, Solver, heap_options
from .rules import Game

__all__ = ["MAX_BOX", "MAX_HEAP", "Quotient", "quotient"]

MAX_BOX = 1 << 18  # the guess asks for about box size squared outcomes: at most this many
MAX_COUNT = 6  # ... and the largest count per heap it tries
MAX_LIVE = 9  # heaps with a move: (count + 1) ** (2 * MAX_LIVE) <= MAX_BOX already for count 1
MAX_HEAP = 1000  # the largest --max-heap (the answer lists the class of every heap up to it)


class Quotient:
    """A misère quotient: elements as words in the generators, product table, P-portion."""

    def __init__(self, game: Game, max_heap: int, words: list[str], table: list[list[int]],
                 p_portion: set[int], heaps: list[int], relations: list[tuple[str, str]],
                 letters: list[tuple[str, int]]) -> None:
        self.game = game
        self.max_heap = max_heap
        self.words = words  # element i's normal form ('1' for the identity)
        self.table = table
        self.p_portion = p_portion
        self.heaps = heaps  # the class of heap 0..max_heap (the pretending function)
        self.relations = relations
        self.letters = letters  # (letter, heap whose class it names)

    @property
    def order(self) -> int:
        return len(self.words)

    def presentation(self) -> str:
        gens = ", ".join(letter for letter, _ in self.letters)
        rels = ", ".join(f"{left} = {right}" for left, right in self.relations)
        return f"<{gens} | {rels}>" if rels else f"<{gens}>"

    def p_words(self) -> list[str]:
        return [self.words[i] for i in sorted(self.p_portion)]

    def outcome(self, heaps: list[int]) -> str:
        """'P' or 'N' of any position of heaps up to max_heap, by the quotient alone."""
        element = 0
        for size in heaps:
            if not 0 <= size <= self.max_heap:
                raise ValueError(f"heap {size} is outside 0..{self.max_heap}")
            element = self.table[element][self.heaps[size]]
        return "P" if element in self.p_portion else "N"


def _word(exponents: tuple[int, ...], letters: list[str]) -> str:
    parts = [letter + (f"^{e}" if e > 1 else "") for letter, e in zip(letters, exponents) if e]
    return "".join(parts) or "1"


def quotient(game: Game, max_heap: int, budget: int = DEFAULT_BUDGET) -> Quotient:
    """The misère quotient of ``game`` on heaps 1..max_heap, proved (see the module header)."""
    if not 0 <= max_heap <= MAX_HEAP:
        raise ValueError(f"the largest heap must be 0 to {MAX_HEAP}")
    solver = Solver(game, budget)
    live = _live_heaps(game, max_heap)
    k = len(live)
    index = {h: j for j, h in enumerate(live)}
    for count in range(1, MAX_COUNT + 1):
        if (count + 1) ** (2 * k) > MAX_BOX:  # signatures: every box vector against every one
            break
        found = _attempt(game, solver, live, index, count)
        if found is not None:
            return _present(game, max_heap, live, *found)
    raise ValueError(f"the misère quotient of {game.name} on heaps up to {max_heap} is beyond "
                     "this search (try a smaller --max-heap)")


def _live_heaps(game: Game, max_heap: int) -> list[int]:
    """The heaps 1..max_heap that have a move; ValueError when more than MAX_LIVE do.

    Past the widest move plus two, a heap has a move exactly when some kind may leave a
    part, and then all of them do: so looking MAX_LIVE + 1 heaps further settles it.
    """
    widest = max((kind.span for kind in game.kinds), default=0)
    live = []
    for h in range(1, min(max_heap, widest + MAX_LIVE + 3) + 1):
        if any(True for _ in heap_options(h, game)):
            live.append(h)
            if len(live) > MAX_LIVE:
                raise ValueError(f"the misère quotient of {game.name} on heaps up to {max_heap} "
                                 f"has more than {MAX_LIVE} heaps with a move, beyond this "
                                 f"search (try --max-heap {live[MAX_LIVE - 1]})")
    return live


def _attempt(game: Game, solver: Solver, live: list[int], index: dict[int, int], count: int):
    k = len(live)
    cache: dict[tuple[int, ...], bool] = {}

    def lost(vector: tuple[int, ...]) -> bool:
        if vector not in cache:
            heaps = [h for h, c in zip(live, vector) for _ in range(c)]
            cache[vector] = solver.value(heaps) == 0
        return cache[vector]

    box = sorted(itertools.product(range(count + 1), repeat=k), key=lambda v: (sum(v), v[::-1]))

    def signature(vector: tuple[int, ...]) -> bytes:
        return bytes(lost(tuple(a + b for a, b in zip(vector, x))) for x in box)

    classes: dict[bytes, int] = {}
    reps: list[tuple[int, ...]] = []
    for vector in box:
        sig = signature(vector)
        if sig not in classes:
            classes[sig] = len(reps)
            reps.append(vector)
    n = len(reps)
    table = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i, n):
            found = classes.get(signature(tuple(a + b for a, b in zip(reps[i], reps[j]))))
            if found is None:
                return None
            table[i][j] = table[j][i] = found
    p_portion = {i for i, rep in enumerate(reps) if lost(rep)}
    units = [classes[signature(tuple(int(j == m) for m in range(k)))] for j in range(k)]
    if not _is_monoid(table) or not _reduced(table, p_portion):
        return None
    for i, rep in enumerate(reps):
        if _image(table, units, rep) != i:
            return None
    options = []
    for h in live:
        images = set()
        for parts in heap_options(h, game):
            element = 0
            for p in parts:
                if p in index:
                    element = table[element][units[index[p]]]
            images.add(element)
        options.append(images)
    if not _outcomes_follow(table, p_portion, units, options):
        return None
    return table, p_portion, units


def _is_monoid(table: list[list[int]]) -> bool:
    n = len(table)
    if any(table[0][i] != i for i in range(n)):
        return False  # class 0 (the empty position) is the identity
    return all(
        table[table[x][y]][z] == table[x][table[y][z]]
        for x in range(n) for y in range(n) for z in range(n)
    )


def _reduced(table: list[list[int]], p_portion: set[int]) -> bool:
    n = len(table)
    rows = {tuple(table[x][z] in p_portion for z in range(n)) for x in range(n)}
    return len(rows) == n


def _image(table: list[list[int]], units: list[int], vector: tuple[int, ...]) -> int:
    element = 0
    for unit, c in zip(units, vector):
        for _ in range(c):
            element = table[element][unit]
    return element


def _outcomes_follow(table: list[list[int]], p_portion: set[int], units: list[int],
                     options: list[set[int]]) -> bool:
    """Check (c) of the module header on every count vector up to each generator's i + p."""
    bounds = []
    for unit in units:
        powers = [0]
        while True:
            nxt = table[powers[-1]][unit]
            if nxt in powers:
                bounds.append(len(powers))  # i + p: counts 0..i+p cover every case
                break
            powers.append(nxt)
    for vector in itertools.product(*(range(b + 1) for b in bounds)):
        image = _image(table, units, vector)
        has_p_option = False
        for j, c in enumerate(vector):
            if not c:
                continue
            rest = _image(table, units, vector[:j] + (c - 1,) + vector[j + 1 :])
            if any(table[rest][o] in p_portion for o in options[j]):
                has_p_option = True
                break
        loses = any(vector) and not has_p_option
        if (image in p_portion) != loses:
            return False
    return True


def _present(game: Game, max_heap: int, live: list[int], table: list[list[int]],
             p_portion: set[int], units: list[int]) -> Quotient:
    # Generators: heaps whose class is not a product of earlier generators.
    letters: list[tuple[str, int]] = []
    gen_elements: list[int] = []
    reach = {0}
    for h, unit in zip(live, units):
        if unit in reach:
            continue
        if len(letters) == len(string.ascii_lowercase):
            raise ValueError("the quotient needs more than 26 generators")
        letters.append((string.ascii_lowercase[len(letters)], h))
        gen_elements.append(unit)
        frontier = set(reach)
        while frontier:
            frontier = {table[x][g] for x in frontier for g in gen_elements} - reach
            reach |= frontier
    names = [letter for letter, _ in letters]
    m = len(gen_elements)
    # Normal forms by degree, then preferring earlier letters (larger exponents first).
    normal: dict[tuple[int, ...], int] = {}
    element_word: dict[int, tuple[int, ...]] = {}
    layer = [tuple([0] * m)]
    while layer:
        new_layer = []
        for vec in sorted(layer, key=lambda v: tuple(-e for e in v)):
            element = _image(table, gen_elements, vec)
            if element not in element_word:
                element_word[element] = vec
                normal[vec] = element
                new_layer.append(vec)
        layer = sorted({v[:g] + (v[g] + 1,) + v[g + 1 :] for v in new_layer for g in range(m)})
    relations = []
    seen = set()
    for vec in normal:
        for g in range(m):
            word = vec[:g] + (vec[g] + 1,) + vec[g + 1 :]
            if word in normal or word in seen:
                continue
            divisors = (word[:y] + (word[y] - 1,) + word[y + 1 :] for y in range(m) if word[y])
            if all(d in normal for d in divisors):
                seen.add(word)
                relations.append((word, element_word[_image(table, gen_elements, word)]))
    # As in the literature: by the last generator a relation involves, then as words.
    relations.sort(key=lambda r: (max(g for g in range(m) if r[0][g]), _word(r[0], names)))
    order = sorted(element_word, key=lambda e: (sum(element_word[e]),
                                                tuple(-x for x in element_word[e])))
    renumber = {e: i for i, e in enumerate(order)}
    words = [_word(element_word[e], names) for e in order]
    new_table = [[renumber[table[x][y]] for y in order] for x in order]
    heap_class = [0] * (max_heap + 1)
    for h, unit in zip(live, units):
        heap_class[h] = renumber[unit]
    return Quotient(game, max_heap, words, new_table, {renumber[e] for e in p_portion},
                    heap_class, [(_word(a, names), _word(b, names)) for a, b in relations],
                    letters)
