"""Nimber sequences of heap games: computed on demand, proved periodic, then free.

A ``Sequence`` keeps the table G(0..L-1) of one game and grows it with a kernel.
At checkpoints (every doubling, and the length a promising candidate needs) it
asks the kernel for the period p and preperiod n0 whose proof needs the fewest
values; the octal periodicity theorem proves it once

    L >= max(2 * max(n0, 1) + 2p + t - 1, p + t + 1)     (t: the widest move)

and from then on G(n) for any n costs O(1) and a long range streams in blocks.
No period is ever typed in: it is found and proved from the table.  Games with
'unequal' moves (Grundy's game) fall outside the theorem: they are computed.

A game beyond the octal kernels (moves that leave three parts or more, marks, a
repeating tail: ``Game.octal`` false) is computed by the take-and-break kernel, and its
regularity, a saltus included, is proved by ``kayles.engine.regularity`` (theorem P or
A, where their hypotheses hold); G(n) then follows G(n + p) = G(n) + s for any n.

Threads: one lock per sequence serializes what grows or proves it (the kernel's
working memory is not shared between calls); values already computed are read
without it, since a table is only ever appended to, and a grown one replaces the
old (whose first values stay as they were) before its length is raised.
"""

from __future__ import annotations

from _thread import RLock
from time import perf_counter

from ..errors import InputError, ResourceError, shown
from ..kernels.limits import THREADS, memory, table_limit
from .rules import Game, encode, encode_takebreak

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

__all__ = ["PROOF_LIMIT", "TAKEBREAK_PROOF_LIMIT", "Period", "Sequence", "as_sequence",
           "direct_limit", "proof_limit", "rare_mask", "whole"]

PROOF_LIMIT = 1 << 20  # how many values a proof search may compute unless told otherwise
TAKEBREAK_PROOF_LIMIT = 1 << 14  # ... for a game beyond the octal kernels (three parts cost
                                 # a heap's every pair: 2**14 in seconds, 2**20 in days)
FIRST_CHECK = 64  # the first checkpoint; checkpoints double from there
PROGRESS_STEP = 1 << 16  # values per kernel call while someone watches the progress
PROGRESS_SECONDS = 1.0  # ... at most, for a take-and-break game, about this long a call
COST_PREFIX = 1 << 12  # values of a take-and-break game computed before its memory is
                       # foreseen (kayles.kernels.cost: their growth is measured on them)


class CrewTrials:
    """When a sequence's threads work as a crew: only where a timed trial finds the crew
    faster than one thread, and only while other processes leave the cores free.

    A crew wins only on long runs on idle cores: on a short run its start costs more than
    it saves, and beside another busy process its threads wait for each other.  So a
    sequence asked for threads > 1 computes on one thread (its scratch's ``cores`` set to
    1, ``cores(half)`` says what to set before each call) until TRIAL_FROM heaps; then,
    each time the heaps double, it times a share of heaps on one thread and as many on the
    crew (the same scratch: the rare heaps go on) and goes on with the crew only where its
    time a heap was below TRIAL_GAIN of one thread's.  A half is n/TRIAL_SHARE heaps and at
    least TRIAL_SECONDS of work, so load's noise does not decide it; a trial costs a few
    percent at most, and the values are the same either way.

    The machine is looked at (kayles.engine.cpu_load: the cores other processes kept busy
    since the last look) before a trial, and every LOOK_SECONDS while a crew runs or while
    one thread runs because the cores were busy (calls are cut to about that much work):
    fewer than FREE_CORES free skips the trial or drops the crew at once (beside a busy
    core a crew only waits), and free again brings the trial at once.
    """

    TRIAL_FROM = 1 << 15  # heaps before the first trial (below, a crew seldom pays)
    TRIAL_SHARE = 32
    TRIAL_SECONDS = 0.05  # ... and each half of a trial at least this much work
    TRIAL_GAIN = 0.9
    FREE_CORES = 1.5  # cores others must leave free for a crew to run
    LOOK_SECONDS = 2.0  # between looks at the machine while the choice may change
    LEAST = 1 << 12  # heaps: the shortest half and the shortest cut call

    def __init__(self, threads: int, load=None, clock=perf_counter) -> None:
        self.threads = threads
        self.load = load  # a test's stand-in for _free_cores: () -> free cores, or None
        self.clock = clock  # a test's stand-in for perf_counter
        self.at = self.TRIAL_FROM  # the next trial starts here
        self.size = 0  # heaps each half of the trial under way computes (0: none)
        self.alone = 0.0  # seconds a heap, on one thread, in the trial under way
        self.rate = 0.0  # heaps a second of the last call (0: none timed yet)
        self.chosen = "solo"
        self.crew = None  # the threads of a crew (cores): found on first use
        self.busy = False  # one thread runs because other processes kept the cores
        self.skipped = 0  # trials skipped: the other cores were busy
        self.dropped = 0  # crews dropped: other processes took the cores
        self.seen = None  # the machine's last snapshot (kayles.engine.cpu_load)
        self.looked = None  # when (clock) the machine was last looked at

    def cores(self, half: str | None) -> int:
        """The scratch's ``cores`` for a call of ``half`` (None: the choice in force): a
        crew is the threads asked for, at most the cores this process may run on (the
        default asks for the kernel's most, 64: a crew of 64 on 2 cores took 3.7 s where
        one thread took 1.4)."""
        if (half or self.chosen) != "crew":
            return 1
        if self.crew is None:
            from . import cpu_load

            self.crew = max(1, min(self.threads, cpu_load.usable()))
        return self.crew

    def half(self, length: int, stop: int) -> tuple[int, str | None]:
        """Where the next kernel call stops, and which half of a trial it is (None: none)."""
        if self.size:  # the second half: the crew
            return min(stop, length + self.size), "crew"
        if length >= self.at // 2 and self.load is None and self.seen is None:
            self.seen, self.looked = self._snapshot(), self.clock()  # a look before the trial
        watching = self.chosen == "crew" or self.busy
        if watching and self.clock() - (self.looked or 0.0) >= self.LOOK_SECONDS:
            free = self._free_cores()
            if free is not None and free < self.FREE_CORES:
                self.dropped += self.chosen == "crew"
                self.chosen, self.busy = "solo", True
            elif free is not None and self.busy:  # free again: the trial now
                self.busy, self.at = False, length
        if length >= self.at:
            size = max(self.LEAST, length // self.TRIAL_SHARE,
                       int(self.rate * self.TRIAL_SECONDS))
            if stop - length >= 2 * size:
                free = self._free_cores() if self.chosen == "solo" else None
                if free is not None and free < self.FREE_CORES:
                    self.skipped += 1
                    self.busy = True  # looked at again in LOOK_SECONDS, or here at the
                    self.at = length + length // 2  # next checkpoint (about 2 * length,
                    return self._cut(length, stop), None  # often a heap or two short)
                self.size = size
                return length + size, "solo"
        return self._cut(length, stop), None

    def _cut(self, length: int, stop: int) -> int:
        """``stop``, or sooner where the choice may change: about LOOK_SECONDS of work."""
        if (self.chosen == "crew" or self.busy) and self.rate:
            return min(stop, length + max(self.LEAST, int(self.rate * self.LOOK_SECONDS)))
        return stop

    def _snapshot(self):
        from . import cpu_load

        return cpu_load.snapshot()

    def _free_cores(self) -> float | None:
        """The machine's cores others left free since the last look (None: not known)."""
        self.looked = self.clock()
        if self.load is not None:
            return self.load()
        from . import cpu_load

        now = cpu_load.snapshot()
        cores = cpu_load.cores()
        busy = cpu_load.others_busy(self.seen, now, cores, cpu_load.ticks_a_second())
        self.seen = now
        return None if busy is None else cores - busy

    def timed(self, half: str | None, seconds: float, heaps: int, reached: int) -> None:
        """Note a call's time (of a trial's ``half``, or None); a trial's verdict after its
        second half."""
        if heaps > 0 and seconds > 0:
            self.rate = heaps / seconds
        if half == "solo":
            self.alone = seconds / heaps
        elif half == "crew":
            self.size = 0
            self.at = 2 * reached
            self.seen, self.looked = None, self.clock()  # the next look starts after it
            self.chosen = "crew" if seconds / heaps < self.TRIAL_GAIN * self.alone else "solo"


class Period(tuple):
    """A proved regularity: G(n + period) == G(n) + saltus for every n >= preperiod.

    The tuple ``(preperiod, period, values)``; ``values`` is how many values of the
    table the proof used.  ``saltus`` (0: plainly periodic) and ``theorem`` (what proved
    it: ``OCTAL``, or ``kayles.engine.regularity``'s PERIODIC and ARITHMETIC) are
    attributes; two periods are equal when all of these are.  (A tuple subclass, not a
    dataclass: importing dataclasses costs 9 ms, more than Kayles-xox's whole start-up
    budget.)
    """

    def __new__(cls, preperiod: int, period: int, values: int, saltus: int = 0,
                theorem: str | None = None) -> Period:
        self = tuple.__new__(cls, (preperiod, period, values))
        self.saltus = saltus
        self.theorem = theorem or OCTAL
        return self

    preperiod = property(lambda self: self[0], doc="The first n from which G repeats.")
    period = property(lambda self: self[1], doc="The length of the repeating block.")
    values = property(lambda self: self[2], doc="How many values the proof used.")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Period):
            return (tuple(self) == tuple(other) and self.saltus == other.saltus
                    and self.theorem == other.theorem)
        return tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        saltus = f", saltus={self.saltus}" if self.saltus else ""
        return f"Period(preperiod={self[0]}, period={self[1]}, values={self[2]}{saltus})"

    def nimber(self, table, n: int) -> int:
        """G(n) for n >= preperiod, from the table's first period."""
        n0, p = self[0], self[1]
        cycles, offset = divmod(n - n0, p)
        return table[n0 + offset] + cycles * self.saltus


OCTAL = "the octal periodicity theorem"


def proof_limit(game: Game) -> int:
    """How many values a proof search of the game computes unless told otherwise."""
    return PROOF_LIMIT if game.octal else TAKEBREAK_PROOF_LIMIT


def direct_limit() -> int:
    """The longest table computed when no period is proved: as many values as the memory
    holds (kayles.kernels.limits.table_limit; KAYLES_MEMORY bounds it)."""
    return table_limit()


def whole(value, what: str) -> int:
    """``value`` as an int (anything with ``__index__``, bool excepted), or a TypeError
    that names ``what``: a float, a str or None is never taken for a count."""
    if type(value) is int:
        return value
    if not isinstance(value, bool) and hasattr(type(value), "__index__"):
        return value.__index__()
    raise TypeError(f"{what} must be a whole number (int), not {type(value).__name__}")


def _new_table(size: int) -> memoryview:
    return memoryview(bytearray(2 * size)).cast("H")


class Sequence:
    """The nimbers G(0), G(1), ... of one heap game.

    ``method`` is "sparse" (the default: the sparse-space kernel, which falls back
    to the plain scan where it would not save) or "plain" (always the plain scan).
    ``kernel`` is a kernel module (default: the one ``kayles.kernels.chooser`` chooses,
    imported when a value is first computed, so a proof read from a cache costs
    no kernel).  ``progress``, if given, is told ``update(computed, wanted)``
    while values are computed (``kayles.interface.progress.Bar`` is one).  Each function of
    ``listeners`` is called with the sequence after every kernel call (a saved
    run writes its new values there); ``step``, if set, bounds the values one
    kernel call computes.  ``threads`` is how many threads the compiled kernel
    may run on one sequence (the same values; set it before the first values); they
    work as a crew only where a timed trial finds it faster (CrewTrials).
    """

    def __init__(self, game: Game, method: str = "sparse", kernel=None, *,
                 progress=None, threads: int = 1) -> None:
        if not isinstance(game, Game):
            hint = (f" (kayles.get_game({game!r}) reads a name or a code)"
                    if isinstance(game, str) else "")
            raise TypeError(f"Sequence takes a Game, not {type(game).__name__}{hint}")
        if method not in ("sparse", "plain"):
            raise InputError(f"method must be 'sparse' or 'plain', not {shown(method)}")
        THREADS.check(threads)
        self.game = game
        self.method = method
        self._kernel = kernel
        self.octal = game.octal  # which kernels: the octal ones, or the take-and-break one
        self.encoded = encode(game.kinds) if self.octal else encode_takebreak(game)
        self._scratch = None  # the kernel's working memory, made by the first call, then reused
        self._crews: CrewTrials | None = None  # threads > 1: when a crew runs (see there)
        self._table = _new_table(FIRST_CHECK)
        self._length = 0
        self._checkpoint = FIRST_CHECK
        self._checked = 0  # the table length at the last period search
        self.period: Period | None = None
        self.progress = progress
        self.threads = threads
        self._step: int | None = None
        self._lock = RLock()  # over growth and proofs (see the module header)
        self.listeners: list[Callable[[Sequence], None]] = []
        self._borrowed = 0  # values taken over from a proof computed elsewhere (from_proof)
        self._largest = (0, 0)  # (values looked at, their largest): the growth check_memory sees
        self._progress_step = 64  # a take-and-break game's values a call while watched

    @property
    def step(self) -> int | None:
        """The most values one kernel call computes (None: as many as a checkpoint allows)."""
        return self._step

    @step.setter
    def step(self, value: int | None) -> None:
        if value is not None and (type(value) is not int or value < 1):
            raise InputError(f"step must be None or an integer >= 1, not {shown(repr(value))}")
        self._step = value

    @property
    def kernel(self):
        """The kernel module that computes this sequence's values."""
        if self._kernel is None:
            from ..kernels import chooser

            self._kernel = chooser.kernel if self.octal else chooser.takebreak_kernel
        return self._kernel

    @classmethod
    def from_values(cls, game: Game, values, method: str = "sparse", kernel=None, *,
                    progress=None) -> Sequence:
        """A sequence that starts from known values G(0..len(values)-1), e.g. a saved table.

        The checkpoints an uninterrupted run would have passed are replayed on the
        given values, so the sequence is in the state that run would be in (a period
        proved at the same length, or the same next checkpoint).
        """
        sequence = cls(game, method, kernel, progress=progress)
        count = len(values)
        sequence._reserve(count)
        sequence._table[:count] = values
        while sequence._length < count and sequence.period is None:
            stop = min(count, sequence._checkpoint)
            sequence._length = stop
            if stop == sequence._checkpoint:
                sequence._check()
        return sequence

    @classmethod
    def from_proof(cls, game: Game, table: memoryview, period: Period) -> Sequence:
        """A proved sequence that takes over ``table``, its first ``period.values`` values
        (e.g. read from a cache: no copy is made, so the caller gives the table up).

        No kernel is imported until one of its functions is called (moves on a
        row call one): every nimber is read or copied from the table.  The
        proof's certificate is checked again here (O(values), at memcmp speed), so
        a table that does not prove ``period`` is a ValueError.
        """
        length, n0, p, t = period.values, period.preperiod, period.period, game.span
        if len(table) != length or table.format != "H":
            raise InputError(f"{game.name}: {len(table)} values, but {period!r}")
        raw = table.cast("B")
        if (
            not game.provable
            or not game.octal
            or p < 1
            or length < max(2 * max(n0, 1) + 2 * p + t - 1, p + t + 1)
            or raw[2 * (n0 + p) :] != raw[2 * n0 : 2 * (length - p)]
        ):
            raise InputError(f"{game.name}: the table does not prove {period!r}")
        sequence = cls(game)
        sequence._table = table
        sequence._length = sequence._checkpoint = sequence._borrowed = length
        sequence.period = period
        return sequence

    def __len__(self) -> int:
        """How many values are computed (or copied from the period) so far."""
        return self._length

    # -- growing ---------------------------------------------------------------

    def _reserve(self, count: int) -> None:
        if count > len(self._table):
            # Double, but not past the next checkpoint: a proof's last stretch
            # (often far from a power of two) would otherwise leave most of the
            # doubled table unused.
            cap = self._checkpoint if self.period is None else 2 * len(self._table)
            size = max(count, min(2 * len(self._table), cap))
            table = _new_table(size)
            table[: self._length] = self._table[: self._length]
            self._table = table

    def _compute(self, count: int) -> None:
        """Compute values until there are ``count`` of them or a period is proved.

        Past the direct limit (the table the memory holds) only a proof can
        answer: refuse at once when the theorem cannot apply, else search for one
        within proof_limit values (once: a failed search is not repeated) and say
        so if there is none.  A proof taken over from elsewhere (a cache) that
        needed more than proof_limit values answers no such question: a run
        without it could not, and the answer must not depend on what a cache holds.
        """
        limit = direct_limit()
        if count > limit:
            past = (f"so heap sizes past the direct limit ({limit - 1}: the table "
                    f"{memory()[1]} holds) cannot be answered")
            search = proof_limit(self.game)
            if self.period is not None and self._borrowed and self.period.values > search:
                raise ResourceError(f"{self.game.name}: no period was found within "
                                    f"{search} values, {past}")
            if self.period is None and not self.game.provable:
                why = ("the periodicity theorem does not cover unequal splits" if self.octal
                       else "no theorem covers marks, 'or more' or a repeating tail")
                raise ResourceError(f"{self.game.name}: no period is known ({why}), {past}")
            if self.period is None and self._length < search:
                self._grow(min(search, limit))
            if self.period is None:
                raise ResourceError(
                    f"{self.game.name}: no period was found within {len(self)} values, {past}"
                )
        self._grow(count)

    def check_memory(self, count: int) -> None:
        """Refuse at once (ResourceError, one sentence naming the most values that fit) a
        take-and-break table of ``count`` values whose rows would pass the memory kayles may
        use or whose values would pass 16 bits, foreseen from the values' growth measured
        on the first COST_PREFIX (kayles.kernels.cost); computes those first.  Octal tables
        take 2 bytes a value: ``direct_limit``."""
        if self.octal or count <= COST_PREFIX or self.period is not None:
            return
        if self._length < COST_PREFIX:
            self._grow(COST_PREFIX)
            if self.period is not None:
                return
        from ..kernels.cost import refusal

        seen, largest = self._largest
        if seen < self._length:
            largest = max(largest, max(self._table[seen:self._length]))
            self._largest = (self._length, largest)
        why = refusal(self.game.name, self.encoded, largest, self._length, count)
        if why:
            raise ResourceError(why)

    def _grow(self, count: int) -> None:
        self.check_memory(count)
        while self._length < count and self.period is None:
            stop = min(count, self._checkpoint)
            if self.progress is not None:
                step = PROGRESS_STEP if self.octal else self._progress_step
                stop = min(stop, self._length + step)
                self.progress.update(self._length, count)
            if self._step is not None:
                stop = min(stop, self._length + self._step)
            self._reserve(stop)
            kernel = self.kernel
            if self._scratch is None:
                self._scratch = (kernel.Scratch(threads=self._first_threads()) if self.octal
                                 else kernel.Scratch())
            trial = None
            if self._crews is not None:
                stop, trial = self._crews.half(self._length, stop)
                self._scratch.cores = self._crews.cores(trial)
            if not self.octal:
                extend = kernel.extend
            elif self.method == "sparse":
                extend = kernel.extend_sparse
            else:
                extend = kernel.extend_plain
            began_call = perf_counter()
            try:
                extend(self._table, self._length, stop, self.encoded, self._scratch)
            except OverflowError as exc:  # a value of 2**16 or more: the table's bound
                raise ResourceError(f"{self.game.name}: {exc} (nim-values are kept below "
                                    "65536)") from None
            if self._crews is not None:
                self._crews.timed(trial, perf_counter() - began_call, stop - self._length,
                                  stop)
            if not self.octal and self.progress is not None:  # calls of PROGRESS_SECONDS
                took = perf_counter() - began_call
                grown = self._progress_step * 2 if took < PROGRESS_SECONDS / 2 else (
                    self._progress_step // 2 if took > PROGRESS_SECONDS else self._progress_step)
                self._progress_step = max(1, min(PROGRESS_STEP, grown))
            self._length = stop
            if stop == self._checkpoint:
                self._check()
            for listener in tuple(self.listeners):
                listener(self)

    def _first_threads(self) -> int:
        """Threads of the scratch the sequence makes; where crews must first win a trial
        (the compiled octal kernel's sparse method, threads > 1), its CrewTrials sets the
        scratch's cores before each call."""
        from ..kernels.chooser import compiled

        if (self.threads > 1 and self.method == "sparse" and self.octal
                and compiled(self.kernel)):
            self._crews = CrewTrials(self.threads)
        return self.threads

    def _check(self) -> None:
        length = self._checked = self._length
        if not self.octal:
            from ..kernels import chooser
            from .regularity import prove

            found, self._checkpoint = prove(self.game, self._table, length, chooser.kernel)
            if found is not None:
                n0, p, saltus, theorem = found
                self.period = Period(n0, p, length, saltus=saltus, theorem=theorem)
            return
        found = None
        if self.game.provable:
            found = self.kernel.find_period(self._table, length, self.game.span)
        if found is not None:
            p, n0, needed = found
            if needed <= length:
                self.period = self._smallest(p, n0, length)
                return
            if needed < 2 * length:
                self._checkpoint = needed
                return
        self._checkpoint = 2 * length

    def _smallest(self, p: int, n0: int, length: int) -> Period:
        """The least period (a divisor of p) and its least preperiod."""
        g = self._table
        for q in range(1, p + 1):
            if p % q == 0 and all(g[k] == g[k + q] for k in range(n0, n0 + p)):
                break
        start = n0
        while start > 0 and g[start - 1] == g[start - 1 + q]:
            start -= 1
        return Period(start, q, length)

    def _copy_period(self, count: int) -> None:
        """Extend a proved table to ``count`` values by copying whole periods (each period
        the one before plus the saltus)."""
        if self.period is None:
            raise RuntimeError("cannot happen: copying whole periods before a period is proved")
        n0, p, s = self.period.preperiod, self.period.period, self.period.saltus
        if s and self.period.nimber(self._table, count - 1) >= 1 << 16:
            raise ResourceError(f"{self.game.name}: G({count - 1}) is "
                                f"{self.period.nimber(self._table, count - 1)}, past the "
                                "tables' 16-bit values: ask for single values (nimber)")
        from array import array  # (only a saltus needs it: not at every start-up)

        self._reserve(count)
        g = self._table
        while self._length < count:
            have = self._length
            span = (have - n0) // p * p  # whole periods already in the table
            take = min(span, count - have)
            if s:
                shift = span // p * s
                g[have : have + take] = array("H", [v + shift for v in
                                                    g[have - span : have - span + take]])
            else:
                g[have : have + take] = g[have - span : have - span + take]
            self._length = have + take

    # -- asking ----------------------------------------------------------------

    def prove(self, limit: int | None = None) -> Period | None:
        """Search for a proved period, computing up to ``limit`` values (default
        ``proof_limit``: 2**20 for an octal game, 2**14 for others)."""
        limit = proof_limit(self.game) if limit is None else whole(limit, "limit")
        if self.period is None and self.game.provable:
            with self._lock:
                self._grow(limit)
                if self.period is None and self._checked < self._length:
                    self._check()  # the limit fell between checkpoints: search what is there
        return self.period

    def table(self, count: int) -> memoryview:
        """G(0..count-1) as a memoryview of 16-bit values (valid until the next growth)."""
        count = whole(count, "count")
        if count > self._length:
            with self._lock:
                if count <= direct_limit():
                    self._reserve(count)  # the table ends this long either way: one allocation
                self._compute(count)
                if self._length < count:
                    self._copy_period(count)
        return self._table[:count]

    def nimber(self, n: int) -> int:
        """G(n) for any n >= 0: O(1) once a period is proved."""
        n = whole(n, "heap size")
        if n < 0:
            raise InputError(f"heap size must be >= 0, not {n}")
        if n >= self._length:
            with self._lock:
                self._compute(n + 1)
        p = self.period
        if n < self._length or p is None:
            return self._table[n]
        return p.nimber(self._table, n)

    def nimbers(self, n: int) -> list[int]:
        """[G(0), ..., G(n)]."""
        n = whole(n, "n")
        if n < 0:
            raise InputError(f"n must be >= 0, not {n}")
        return self.table(n + 1).tolist()

    def segments(self, count: int) -> Iterator[tuple[memoryview | list[int], int]]:
        """G(0..count-1) in pieces (values, times): ``values`` repeated ``times`` in a row.

        Everything is computed before this returns; past a proved period the
        pieces are whole periods, so any count streams in O(count) time and
        O(period) memory (with a saltus, each period a list of its own values, made as
        it is read).
        """
        count = whole(count, "count")
        if count > self._length:
            with self._lock:
                self._compute(count)
        if count <= self._length or self.period is None:
            return iter([(self._table[:count], 1)])
        n0, p, s = self.period.preperiod, self.period.period, self.period.saltus
        head = self._table[: n0 + p]
        block = self._table[n0 : n0 + p]
        repeats, tail = divmod(count - n0 - p, p)
        if not s:
            return iter([(head, 1), (block, repeats), (block[:tail], 1)])
        first = block.tolist()

        def periods() -> Iterator[tuple[list[int], int]]:
            yield head.tolist(), 1
            for k in range(1, repeats + 1):
                yield [v + k * s for v in first], 1
            yield [v + (repeats + 1) * s for v in first[:tail]], 1

        return periods()


def as_sequence(what) -> Sequence:
    """``what`` when it is a Sequence, a new Sequence of it when it is a Game (the functions
    of positions take either); TypeError otherwise."""
    if isinstance(what, Sequence):
        return what
    if isinstance(what, Game):
        return Sequence(what)
    raise TypeError(f"give a Sequence or a Game, not {type(what).__name__}")


def rare_mask(game: Game, values, nimber) -> tuple[int, int, int | None]:
    """(mask, rare heaps, the last rare heap or None) of an octal game's values G(0..len-1):
    the allowed mask with the fewest rare heaps (``kayles.kernels.spectrum``), the heap's
    parity allowed where the game's splits permit it; (0, 0, None) for a game the octal
    kernels do not take.  ``nimber`` gives G(n) for the game's option constants.  The one
    mask every command reports: a survey, a plot, the web page."""
    if not game.octal:
        return 0, 0, None
    from ..kernels.spectrum import fewest_rare, last_rare, odd_histogram, split_parity, value_counts

    counts = value_counts(values)
    splits = split_parity(encode(game.kinds))
    odd = odd_histogram(values, splits)
    if odd is not None:
        odd += [0] * (len(counts) - len(odd))
    mask, rare = fewest_rare(counts, game.constants(nimber), odd)
    return mask, rare, last_rare(values, mask, splits, len(counts) - 1) if rare else None
