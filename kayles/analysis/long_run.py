"""Long runs toward records: flat memory, checkpoints, a record at each power of two.

A run computes G(0..N) of one heap game in a folder and records, at each power
of two n <= N, the figures of ``kayles.storage.records`` (frequencies of heaps 1..n,
the largest value, the rare heaps, the checksum).  ``kayles run GAME --to N
--dir DIR`` is its front end.

How the memory stays flat.  The sparse method (ext/_core.pyx) settles G(n)
from the rare heaps and pairs (a, n - a).  Once the rare heaps have stopped
appearing (all below the *window* W), G(n) needs G(0..W-1) and the last W +
span values only, as long as each search for a rare value ends with a smaller
part below W.  So a run has two phases:

1. full, below heap 2W: extend_sparse on the whole table, in calls that end at
   fixed heaps (each 2**k + 1 and each multiple of FULL_STEP), so a resumed run
   chooses the same masks, and records the same figures, as an unbroken one;
2. bounded, from 2W on: extend_bounded, the mask of phase 1 kept, prefix and
   reach W.  The table (``kayles.storage.long_table``) gives back the memory of heaps
   W .. n - H as n grows, H = 2W + span: twice what the kernel reads, so a run
   stopped for a wider window can be resumed with the window doubled.

Where a bounded heap cannot be settled in memory, nothing wrong is written:
* a search for a rare value finds none with a smaller part below W: the value
  needs a deeper pair, or the heap is a new rare one.  With the table on disk
  (``keep_table``) searches have no reach, so this never happens; without,
  the run saves a checkpoint and stops (``RunStopped``) saying to resume with
  ``--window 2W`` (searches then go twice as deep);
* the heap is rare, its search complete (the rare heaps start again past W):
  with the table on disk the prefix grows past it; without, the run stops:
  every later heap may need the values between, so it must start again with
  --keep-table.

The folder holds ``kayles-run.checkpoint`` (``kayles.storage.checkpoint``: the state,
the records and the values [0, W) and [n - H, n), signed), ``kayles-run.lock`` (one
run at a time) and, with --keep-table, ``kayles-run.table`` (2 bytes a heap; the
checkpoint keeps the signature of each stretch of it written since the one before,
all of them checked when the run resumes).
A checkpoint is written at each record, every ``checkpoint_seconds`` and when
the run stops; a run killed at any moment resumes from the last one and
computes exactly the values of an unbroken run.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections import Counter

from .._numbers import brief
from ..engine.rules import describe_moves, encode
from ..engine.sequence import CrewTrials
from ..errors import InputError, ResourceError
from ..kernels import chooser
from ..kernels.constants import MAX_SPAN
from ..kernels.limits import RUN_CHECKPOINT_SECONDS, RUN_WINDOW
from ..kernels.spectrum import mask_text, split_parity
from ..storage._files import display, kind, refused_here
from ..storage.checkpoint import Checkpoint
from ..storage.checkpoint import write as write_checkpoint
from ..storage.long_table import LongTable
from ..storage.records import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..engine.rules import Game

__all__ = ["CHECKPOINT", "LOCK", "MAX_TO", "TABLE", "WINDOW", "Run", "RunStopped", "check_to",
           "check_window", "record_differs", "stored_records_differ"]

CHECKPOINT = "kayles-run.checkpoint"
LOCK = "kayles-run.lock"
TABLE = "kayles-run.table"
WINDOW = RUN_WINDOW  # default window: 8 MB of prefix, 16 MB of recent values
MIN_WINDOW = MAX_SPAN + 1  # the kernel's least prefix: every kept run's value inside
MAX_TO = 1 << 46  # 128 TiB of address space for the table: past every machine today
FULL_STEP = 1 << 20  # the full phase's calls end at each multiple too (signals get answered)
DENSE_FROM = 1 << 16  # from this record on, a game whose rare heaps are not few is refused:
DENSE_SHARE = 16      # ... none, or one heap in this many or more
FIRST_CHUNK = 1 << 12  # the bounded phase's first call; the next ones last about ...
CHUNK_SECONDS = 1.0  # ... this long, and span at most W / CHUNK_SHARE heaps (the memory a
CHUNK_SHARE = 8     # call adds to the run's, before the heaps behind it are given back)
CHECKPOINT_SECONDS = RUN_CHECKPOINT_SECONDS
FORMAT = 2  # the checkpoint header's "format" (2: with "table", the kept table's signatures)
# Heaps whose values a resume derives again (_check_saved_values): some 0.1 s compiled;
# the pure core is a hundred times slower, and checks fewer.
VERIFIED = {"cython": 1 << 16, "python": 1 << 9}
MAX_SAVED = 3 * (1 << 31) + MAX_SPAN  # values a checkpoint may hold: prefix and history


class RunStopped(ResourceError):
    """The run cannot go on as asked (a wider window, or a table on disk, would let it);
    a checkpoint is saved first.  A ResourceError: the front end prints it, status 2."""


class Run:
    """One long run in its folder (see the module header): ``advance()`` computes to the
    end, ``records`` lists what it has found; close() (or ``with``) ends it.  ``threads``
    is how many threads compute (the same values with any number)."""

    def __init__(self, folder: str | os.PathLike, game: Game, to: int | None = None,
                 window: int | None = None, keep_table: bool = False,
                 checkpoint_seconds: float = CHECKPOINT_SECONDS, threads: int = 1) -> None:
        self.folder = os.fsdecode(folder)
        self.game = game
        self.kinds = encode(game.kinds)
        self.checkpoint_seconds = checkpoint_seconds
        self.kernel = chooser.kernel
        self.scratch = self.kernel.Scratch(threads=threads)
        # a crew only where a trial finds it faster and other processes leave the cores free
        self.crews = (CrewTrials(threads) if threads > 1 and chooser.compiled(self.kernel)
                      else None)
        self.table: LongTable | None = None
        self._new_table: str | None = None  # a --keep-table file this run made (see close)
        self._lock: int | None = _lock(self.folder)
        try:
            path = os.path.join(self.folder, CHECKPOINT)
            if os.path.lexists(path):
                self._resume(path, to, window, keep_table)
            else:
                self._start(to, window, keep_table)
        except BaseException:
            self.close()
            raise
        self._saved_at = time.monotonic()
        self._flushed = self.n
        self._released = 0  # the table's memory below this is given back (from the window on)

    # -- a new run, a resumed one ------------------------------------------------------------

    def _start(self, to: int | None, window: int | None, keep_table: bool) -> None:
        if to is None:
            raise InputError(f"{display(self.folder)} holds no run yet: give --to N")
        table_path = os.path.join(self.folder, TABLE)
        if os.path.lexists(table_path):
            raise InputError(f"{display(table_path)}: a table without a checkpoint (a run "
                             "killed before its first one); remove it to start again")
        self.to = check_to(to)
        self.window = check_window(window or WINDOW)
        self.keep_table = keep_table
        self.n, self.mask, self.prefix = 0, 0, self.window
        self.counts: list[int] = []
        self.s1 = self.s2 = 0
        self.largest, self.first = -1, -1
        self.seconds = 0.0
        self.records: list[Record] = []
        self.signed_stretches: list[tuple] = []  # (start, stop, signature) of the kept table
        self._new_table = table_path if keep_table else None  # removed if no checkpoint follows
        self.table = LongTable(self.to + 1, self._new_table)
        self.length = self.to + 1

    def _resume(self, path: str, to: int | None, window: int | None, keep_table: bool) -> None:
        with Checkpoint(path, max_values=MAX_SAVED) as saved:
            header = saved.header
            self._load(header, path)
            if keep_table and not self.keep_table:
                raise InputError(f"{display(self.folder)}: this run keeps no table on disk "
                                 "and the middle of its values is gone: start again in a new "
                                 "folder with --keep-table")
            if to is not None:
                self.to = check_to(to)
            length = max(self.length, self.to + 1)
            table_path = os.path.join(self.folder, TABLE)
            if self.keep_table:
                self._check_table_signatures(table_path)  # before the file grows
                self.table = LongTable(length, table_path, saved_length=self.length)
                self._check_table_file(saved)
            else:
                self.table = LongTable(length)
                saved.read_values(self.table.values)
            self.length = length
            self._check_saved_values(path)
            self._check_figures(path)
        if window is not None and check_window(window) != self.window:
            self._change_window(window)

    def _load(self, header: dict, path: str) -> None:
        """The state of a checkpoint header, every field checked."""
        def bad(why: str) -> ValueError:
            return InputError(f"{display(path)}: not a checkpoint kayles can use ({why})")

        expected = {"format": int, "game": str, "moves": str, "to": int, "length": int,
                    "window": int, "prefix": int, "keep_table": bool, "n": int, "mask": int,
                    "counts": list, "s1": int, "s2": int, "largest": int, "first": int,
                    "seconds": (int, float), "records": list, "ranges": list, "table": list}
        if set(header) != set(expected) or not all(
                isinstance(header[k], t) and (t is bool or not isinstance(header[k], bool))
                for k, t in expected.items()):
            raise bad("its header has other fields")
        if header["format"] != FORMAT:
            raise bad(f"format {header['format']}, this kayles reads {FORMAT}")
        if header["game"] != self.game.name or header["moves"] != describe_moves(self.game):
            raise InputError(f"{display(self.folder)} holds a run of {header['game']:.40}, "
                             f"not of {self.game.name}: give that game, or another folder")
        n, length, window, prefix = (header[k] for k in ("n", "length", "window", "prefix"))
        if not (1 <= header["to"] <= MAX_TO and header["to"] < length <= MAX_TO + 1
                and 0 <= n <= length and MIN_WINDOW <= window < 1 << 31
                and window <= prefix <= max(window, n) and 0 <= header["mask"] < 1 << 16
                and 0 <= header["seconds"] < math.inf):
            raise bad("a number out of range")
        counts = header["counts"]
        if not (len(counts) <= 1 << 16 and all(type(c) is int and c >= 0 for c in counts)
                and sum(counts) == n and (not counts or counts[-1])):
            raise bad("its histogram does not count its heaps")
        if not (0 <= header["s1"] < 65535 and 0 <= header["s2"] < 65535
                and -1 <= header["largest"] < max(len(counts), 1) and -1 <= header["first"] < n):
            raise bad("a number out of range")
        try:
            records = [Record.from_fields(fields) for fields in header["records"]]
        except (TypeError, ValueError) as exc:
            raise bad(str(exc)) from None
        if [r.n for r in records] != [1 << k for k in range(max(n - 1, 0).bit_length())] or any(
                r.game != self.game.name for r in records):
            raise bad("its records are not the powers of two before its heap")
        if header["ranges"] != _ranges(n, prefix, window, header["keep_table"]):
            raise bad("its values are not those of its heap")
        stretches = header["table"]
        bounds = [0] + [stretch[1] for stretch in stretches[:-1]] if stretches else []
        if not all(isinstance(stretch, list) and len(stretch) == 3 and type(stretch[0]) is int
                   and type(stretch[1]) is int and stretch[0] == start < stretch[1]
                   for stretch, start in zip(stretches, bounds)) or (
                stretches[-1][1] if stretches else 0) != (n if header["keep_table"] else 0):
            raise bad("its table's signatures do not cover its heaps")
        self.signed_stretches = [tuple(stretch) for stretch in stretches]
        for name in ("to", "length", "window", "prefix", "keep_table", "n", "mask", "counts",
                     "s1", "s2", "largest", "first", "seconds"):
            setattr(self, name, header[name])
        self.records = records

    def _check_table_signatures(self, table_path: str) -> None:
        """The table on disk must be the one its checkpoints signed, every value of it
        (one pass over the file, its memory given back as it goes)."""
        table = LongTable(self.length, table_path, saved_length=self.length)
        try:
            signed = table.signed(self.signed_stretches)
        finally:
            table.close()
        if not signed:
            raise InputError(f"{display(table_path)}: its signature does not match (a value "
                             "edited, or the table of another run or user): none of it is "
                             "used; start the run again in a new folder")

    def _check_table_file(self, saved: Checkpoint) -> None:
        """The table on disk must hold the checkpoint's values where it saved them."""
        copy = LongTable(self.table.length)
        try:
            saved.read_values(copy.values)
            for start, stop in saved.header["ranges"]:
                for at in range(start, stop, 1 << 20):
                    end = min(at + (1 << 20), stop)
                    if self.table.values[at:end] != copy.values[at:end]:
                        raise InputError(
                            f"{display(os.path.join(self.folder, TABLE))}: the table does "
                            "not hold the values its checkpoint saved (damaged, or of another "
                            "run): start again in a new folder")
        finally:
            copy.close()

    def _check_figures(self, path: str) -> None:
        """The header's figures checked against the values it holds and against each other.
        When every value from heap 0 on is there (the full phase): the running sums, largest
        value and histogram derived again, and every record.  Past it, the records within
        the prefix derived again; the rest, and the run's own sums, must agree with their
        histograms (the first sum, the largest value, the number of heaps), each containing
        the one before and the run's containing them all.  (Its second sum, and a record's,
        rest there on values the run no longer holds: a header rewritten consistently in
        them is beyond any check short of computing again.)"""
        values, n = self.table.values, self.n
        held = _ranges(n, self.prefix, self.window, self.keep_table)[0][1]  # G(0..held-1)
        wrong = _histogram_differs(self.counts, n, self.s1, max(self.largest, 0)) and (
            "its sums are not those of its histogram")
        if not wrong and held >= n and n:
            s1, s2, largest, first = self.kernel.chunk_sums(values, 1, n) if n > 1 else (
                0, 0, -1, -1)
            if (s1, s2) != (self.s1, self.s2) or _histogram(values, 0, n) != self.counts or (
                    n > 1 and (largest, first) != (self.largest, self.first)):
                wrong = "its sums and histogram are not those of its values"
        parity = split_parity(self.kinds)
        for record in self.records:
            if record.n < held:
                why = record_differs(record, values, self.kernel, parity)
                wrong = wrong or (why and f"its record at 2**{record.log2}: {why}")
        wrong = wrong or _records_disagree(self.records, self.counts)
        if wrong:
            raise InputError(f"{display(path)}: its figures are not those of its values ("
                             f"{wrong}; edited or damaged, whatever its checksum says): start "
                             "it again in a new folder")

    def _check_saved_values(self, path: str) -> None:
        """The last VERIFIED heaps' values derived again from the rules, from those before
        them (as the run computed them: the full method, or past the switch the bounded one
        from the prefix and the recent values), and compared with what the checkpoint says:
        a checksum a hostile or careless edit recomputed does not make its values trusted.
        An edited value anywhere those heaps read is caught (with the histogram it must
        fit)."""
        n, values = self.n, self.table.values
        start = max(0, n - VERIFIED[chooser.IMPLEMENTATION])
        if self.bounded:
            low = 0 if self.keep_table else _ranges(n, self.prefix, self.window, False)[-1][0]
            start = max(start, low + self.prefix + MAX_SPAN)
        if start >= n:
            return
        claimed = bytes(values[start:n])
        found = Counter(values[start:n])
        counts = [count - found.pop(value, 0) for value, count in enumerate(self.counts)]
        fits = not found and min(counts, default=0) >= 0   # the histogram holds them
        copy = LongTable(n)
        try:
            if not fits:
                ok = False
            elif self.bounded:
                reads = start - self.prefix - MAX_SPAN
                copy.values[:self.prefix] = values[:self.prefix]
                copy.values[reads:start] = values[reads:start]
                stop, _ = self.kernel.extend_bounded(
                    copy.values, start, n, self.kinds, self.kernel.Scratch(), self.mask,
                    counts, self.prefix, min(self.window, self.prefix))
                ok = bytes(copy.values[start:stop]) == claimed[:2 * (stop - start)]
            else:
                copy.values[:start] = values[:start]
                self.kernel.extend_sparse(copy.values, start, n, self.kinds,
                                          self.kernel.Scratch())
                ok = bytes(copy.values[start:n]) == claimed
        finally:
            copy.close()
        if not ok:
            raise InputError(f"{display(path)}: its values are not those of {self.game.name} "
                             "(edited or damaged, whatever its checksum says): start it again "
                             "in a new folder")

    def _change_window(self, window: int) -> None:
        """Resume with another window.  Past the switch, the rare heaps must stay inside it;
        a wider one needs G(0..window-1), computed again here, and the recent values it
        reads, which the checkpoint keeps for up to twice the old window."""
        if self.bounded:
            _, last = self.kernel.rare_heaps(self.table.values, 0, self.window, self.mask,
                                             split_parity(self.kinds))
            if window <= last:
                raise InputError(f"the rare heaps reach heap {last:,}: a window of "
                                 f"{window:,} cannot hold them")
        kept = self.n - _ranges(self.n, self.prefix, self.window, self.keep_table)[-1][0]
        complete = self.keep_table or kept + self.window >= self.n
        if window > self.window and not complete:
            if window + MAX_SPAN > kept:
                raise InputError(f"the checkpoint keeps the last {kept:,} values: a window of "
                                 f"at most {kept - MAX_SPAN:,} can resume this run")
            self._recompute_prefix(window, self.n - kept)
        self.window = window
        self.prefix = max(window, self.prefix) if self.keep_table else window

    def _recompute_prefix(self, window: int, recent: int) -> None:
        """G(0..window-1) by the full method, checked against the values saved."""
        before = [bytes(self.table.values[:self.window]),
                  bytes(self.table.values[recent:max(recent, min(window, self.n))])]
        self.kernel.extend_sparse(self.table.values, 0, window, self.kinds,
                                  self.kernel.Scratch(threads=self.scratch.threads))
        after = [bytes(self.table.values[:self.window]),
                 bytes(self.table.values[recent:max(recent, min(window, self.n))])]
        if before != after:
            raise InputError(f"{display(os.path.join(self.folder, CHECKPOINT))}: its values "
                             f"are not those of {self.game.name}: damaged")

    # -- computing ---------------------------------------------------------------------------

    @property
    def bounded(self) -> bool:
        """Whether the run is past the switch (its mask fixed)."""
        return self.mask > 0

    @property
    def done(self) -> bool:
        return self.n > self.to

    def advance(self, on_record: Callable[[Record], None] | None = None,
                should_stop: Callable[[], bool] | None = None,
                on_progress: Callable[[int], None] | None = None) -> bool:
        """Compute to heap ``to``, passing each new record to ``on_record``; stop early (with
        a checkpoint) when ``should_stop()`` says so between calls.  True when done;
        RunStopped (after a checkpoint) where the run cannot go on."""
        chunk = FIRST_CHUNK
        while not self.done:
            if should_stop is not None and should_stop():
                self.save()
                return False
            began = time.perf_counter()
            if not self.bounded and self.n < 2 * self.window:
                stop = self._full_step()
            else:
                if not self.bounded:
                    self._enter_bounded()
                stop = self._bounded_step(chunk)
                chunk = max(FIRST_CHUNK, min(4 * chunk, self.window // CHUNK_SHARE, int(
                    chunk * CHUNK_SECONDS / max(time.perf_counter() - began, 1e-3))))
            self.seconds += time.perf_counter() - began
            self._account(stop)
            if self.bounded:   # the memory of what no call reads again
                self._released = self.table.release(max(self.window, self._released),
                                                    self.n - _history(self.window))
            if on_progress is not None:
                on_progress(self.n)
            top = self.n - 1
            if top >= 1 and top & (top - 1) == 0:
                self.records.append(self._record())
                self.save()
                if on_record is not None:
                    on_record(self.records[-1])
                if not self.bounded and top >= DENSE_FROM:
                    self._refuse_dense(self.records[-1])
            elif time.monotonic() - self._saved_at >= self.checkpoint_seconds:
                self.save()
        self.save()
        return True

    def _refuse_dense(self, record: Record) -> None:
        """RunStopped where the rare heaps are no longer few (none, or 1/DENSE_SHARE of the heaps
        or more): their number grows with n, so a bounded phase could not hold them, and the
        full phase would crawl through every pair meanwhile."""
        if record.mask and record.rare * DENSE_SHARE <= record.n:
            return
        found = (f"no rare values by heap {record.n:,}" if not record.mask else
                 f"{record.rare:,} rare heaps among the first {record.n + 1:,} (mask "
                 f"{mask_text(record.mask)})")
        raise RunStopped(f"{self.game.name} has {found}: its values need nearly every pair, "
                         "so a long run cannot bound its memory; kayles period proves a "
                         "period where there is one, and kayles grundy computes such games "
                         "at full-table speed")

    def _full_step(self) -> int:
        """The next call of the full phase, to a fixed heap (module header)."""
        stop = min(self.to + 1, 2 * self.window, (self.n // FULL_STEP + 1) * FULL_STEP,
                   _power_above(self.n - 1) + 1 if self.n > 1 else self.n + 1)
        stop, trial = self._crew_for(stop)
        self.table.reserve(stop)
        began = time.perf_counter()
        self.kernel.extend_sparse(self.table.values, self.n, stop, self.kinds, self.scratch)
        self._timed(trial, began, stop)
        return stop

    def _crew_for(self, stop: int) -> tuple[int, str | None]:
        """Where the next call stops and which half of a crew trial it is (CrewTrials): the
        scratch's cores set for it."""
        if self.crews is None:
            return stop, None
        stop, trial = self.crews.half(self.n, stop)
        self.scratch.cores = self.crews.cores(trial)
        return stop, trial

    def _timed(self, trial: str | None, began: float, stop: int) -> None:
        if self.crews is not None:
            self.crews.timed(trial, time.perf_counter() - began, stop - self.n, stop)

    def _enter_bounded(self) -> None:
        """At the switch: the mask for the rest of the run, chosen from the values so far as
        the kernel chooses; RunStopped (after a checkpoint) where it cannot bound."""
        constants = sorted(self.game.constants(self.table.values.__getitem__))
        parity_of_splits = split_parity(self.kinds)
        odd = None
        if parity_of_splits >= 0:   # masks may read the heap's parity (kernels/spectrum.py)
            odd = [0] * len(self.counts)
            for value in self.table.values[1 - parity_of_splits:self.n:2]:
                odd[value] += 1
        mask = self.kernel.choose_mask(self.counts, constants, odd)[0]
        if mask == 0:
            self.save()
            raise RunStopped(f"{self.game.name} has no rare values by heap {self.n:,} (its "
                             "values need every pair): a run needs a game whose values split "
                             "into rare and common ones; kayles grundy computes the others")
        _, last = self.kernel.rare_heaps(self.table.values, 0, self.n, mask, parity_of_splits)
        if last >= self.window:
            if not self.keep_table:
                self.save()
                raise RunStopped(f"the rare heaps of {self.game.name} reach heap {last:,}, "
                                 f"past the window of {self.window:,}: resume with --window "
                                 f"{_power_above(last):,} or more")
            self.prefix = last + 1
        self.mask = mask

    def _bounded_step(self, chunk: int) -> int:
        """extend_bounded to the next record or ``chunk`` heaps on; the memory behind given
        back.  With the table on disk, any search may read it all (no reach) and a new rare
        heap moves the prefix past it."""
        target, trial = self._crew_for(min(self.to + 1, self.n + chunk,
                                           _power_above(self.n - 1) + 1))
        reach = 0 if self.keep_table else self.window
        start, counts = self.n, self.counts
        self.table.reserve(target)
        began = time.perf_counter()
        while start < target:
            stop, why = self.kernel.extend_bounded(
                self.table.values, start, target, self.kinds, self.scratch, self.mask, counts,
                self.prefix, reach)
            if why is None:
                break
            if not self.keep_table:
                self._account(stop)
                self.save()
                if why == "reach":
                    raise RunStopped(
                        f"heap {stop:,}: its value needs a pair with a smaller part of "
                        f"{self.window:,} or more, past the window, or it is a new rare heap: "
                        f"resume with --window {2 * self.window:,}, or start again in a new "
                        "folder with --keep-table")
                raise RunStopped(
                    f"heap {stop:,} is rare under the mask {mask_text(self.mask)}, past the "
                    f"window of {self.window:,}: the heaps after it need every value, so a "
                    "bounded run cannot go on; start again in a new folder with --keep-table")
            self.prefix = stop + 1   # "rare": no search is cut without a reach
            start, counts = stop, self.scratch.histogram()
        self._timed(trial, began, target)
        return target

    # -- what a run keeps of its values -------------------------------------------------------

    def _account(self, stop: int) -> None:
        """Fold G(n..stop-1) into the checksum, the largest value and the histogram."""
        start = self.n
        if stop <= start:
            return
        c1, c2, largest, first = self.kernel.chunk_sums(self.table.values, start, stop)
        if start == 0:  # the largest over heaps 1.. (G(0) = 0 does not count)
            _, _, largest, first = self.kernel.chunk_sums(self.table.values, 1, stop)
        self.s2 = (self.s2 + (stop - start) * self.s1 + c2) % 65535
        self.s1 = (self.s1 + c1) % 65535
        if largest > self.largest:
            self.largest, self.first = largest, first
        self.counts = self.scratch.histogram()
        self.n = stop

    def _record(self) -> Record:
        """The record of heaps 1..n - 1 (a power of two), n the heaps computed."""
        counts = list(self.counts)
        counts[self.table.values[0]] -= 1
        while len(counts) > 1 and not counts[-1]:
            counts.pop()
        mask, rare, last = self.scratch.rare()
        return Record(game=self.game.name, n=self.n - 1, counts=counts,
                      largest=len(counts) - 1, first=max(self.first, 1), mask=mask, rare=rare,
                      last_rare=last, fletcher32=self.s2 << 16 | self.s1, seconds=self.seconds)

    def save(self) -> None:
        """Write a checkpoint now (the table on disk flushed first)."""
        if self.table is None:
            return
        self.table.flush(self._flushed, self.n)
        self._flushed = self.n
        signed_to = self.signed_stretches[-1][1] if self.signed_stretches else 0
        if self.keep_table and self.n > signed_to:
            self.signed_stretches.append((signed_to, self.n,
                                          self.table.sign(signed_to, self.n)))
        header = {"format": FORMAT, "game": self.game.name, "moves": describe_moves(self.game),
                  "to": self.to, "length": self.length, "window": self.window,
                  "prefix": self.prefix, "keep_table": self.keep_table, "n": self.n,
                  "mask": self.mask, "counts": self.counts, "s1": self.s1, "s2": self.s2,
                  "largest": self.largest, "first": self.first, "seconds": self.seconds,
                  "records": [{name: getattr(r, name) for name in Record.__slots__}
                              for r in self.records],
                  "table": [list(stretch) for stretch in self.signed_stretches]}
        write_checkpoint(os.path.join(self.folder, CHECKPOINT), header, self.table.values,
                         _ranges(self.n, self.prefix, self.window, self.keep_table))
        self._saved_at = time.monotonic()

    def close(self) -> None:
        if self.table is not None:
            self.table.close()
            self.table = None
        made = self._new_table
        if made and not os.path.lexists(os.path.join(self.folder, CHECKPOINT)):
            # a --keep-table start that ended before its first checkpoint (a full disk,
            # Ctrl-C): its table resumes nothing and would block the next start
            with contextlib.suppress(OSError):
                os.unlink(made)
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def __enter__(self) -> Run:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _histogram(values, start: int, stop: int) -> list[int]:
    """How many of values[start:stop] have each value, up to the largest (none: [])."""
    found = Counter(values[start:stop])
    counts = [0] * (max(found, default=-1) + 1)
    for value, count in found.items():
        counts[value] = count
    return counts


def record_differs(record: Record, values, kernel, parity: int) -> str:
    """Why ``record`` is not the record of G(0..record.n) = values[0..n] ('' when it is):
    the frequencies, largest value and where, checksum, and the rare heaps under its mask
    (the mask the kernel chose is taken as it stands: any mask is exact)."""
    n = record.n
    s1, s2, largest, first = kernel.chunk_sums(values, 1, n + 1)
    counts = _histogram(values, 1, n + 1)
    if counts != record.counts or (largest, first) != (record.largest, record.first):
        return "its frequencies are not those of the values"
    if s2 << 16 | s1 != record.fletcher32:
        return "its checksum is not that of the values"
    rare, last = ((0, -1) if not record.mask
                  else kernel.rare_heaps(values, 0, n + 1, record.mask, parity))
    if (rare, last) != (record.rare, record.last_rare):
        return "its rare heaps are not those of the values"
    return ""


DERIVED_RECORDS = 2**16  # stored records of heaps up to this derived again whenever shown


def stored_records_differ(game: Game, records: list[Record]) -> str:
    """Why records read from a database are not the game's ('' when they may be): those of
    n <= DERIVED_RECORDS derived again from its rules (another game's copied under its name
    fail here), and every one a histogram of its n heaps that contains the one before."""
    from ..engine.sequence import Sequence

    small = [record for record in records if record.n <= DERIVED_RECORDS]
    if small:
        values = Sequence(game).table(max(record.n for record in small) + 1)
        parity = split_parity(encode(game.kinds))
        for record in small:
            why = record_differs(record, values, chooser.kernel, parity)
            if why:
                return f"its record at 2**{record.log2}: {why}"
    return _records_disagree(records)


def _histogram_differs(counts: list[int], heaps: int, s1: int, largest: int) -> bool:
    """Whether a histogram of ``heaps`` values disagrees with the first Fletcher sum and
    the largest value said with it."""
    top = max((v for v, count in enumerate(counts) if count), default=-1)
    return (sum(counts) != heaps or any(count < 0 for count in counts) or top != largest
            or sum(v * count for v, count in enumerate(counts)) % 65535 != s1)


def _records_disagree(records: list[Record], run_counts: list[int] | None = None) -> str:
    """Why records' histograms cannot be those of one sequence ('' when they can): each
    agrees with its own sums (``_histogram_differs``) and contains the one before; a run's
    histogram, given, contains them all."""
    before: list[int] = []
    for record in sorted(records, key=lambda record: record.n):
        if _histogram_differs(record.counts, record.n, record.fletcher32 & 0xFFFF,
                              record.largest) or any(
                count > (record.counts[v] if v < len(record.counts) else 0)
                for v, count in enumerate(before)):
            return f"its record at 2**{record.log2}: its frequencies are not its figures'"
        before = record.counts
    if run_counts is not None and any(count > (run_counts[v] if v < len(run_counts) else 0)
                                      for v, count in enumerate(before)):
        return "its last record's histogram does not fit the run's"
    return ""


def _history(window: int) -> int:
    """Recent values a run keeps: twice what the kernel reads (a resume may double the
    window), for the widest move any game has."""
    return 2 * window + MAX_SPAN


def _ranges(n: int, prefix: int, window: int, keep_table: bool) -> list[tuple[int, int]]:
    """The values a checkpoint at heap n holds: the prefix (the window, with the table on
    disk) and the recent values."""
    head = min(window if keep_table else prefix, n)
    tail = max(head, n - _history(window))
    return [(0, head), (tail, n)] if tail < n else [(0, head)]


def check_to(to: int) -> int:
    """``to`` if a run can go that far, else ValueError."""
    if not 1 <= to <= MAX_TO:
        raise InputError(f"--to must be 1 to 2**46, not {brief(to)}")
    return to


def check_window(window: int) -> int:
    """``window`` if a run can keep it, else ValueError."""
    if not MIN_WINDOW <= window < 1 << 31:
        raise InputError(f"--window must be {MIN_WINDOW} to 2**31 - 1, not {brief(window)}")
    return window


def _power_above(n: int) -> int:
    """The least power of two above n (n >= 0)."""
    return 1 << n.bit_length()


def _lock(folder: str) -> int:
    """Make the folder if need be and hold its lock file; ValueError when another run holds
    it or the path is not a folder."""
    import fcntl

    if os.path.lexists(folder) and not os.path.isdir(folder):
        info = os.stat(folder) if os.path.exists(folder) else os.lstat(folder)
        raise InputError(f"{display(folder)}: {kind(info)}, not a folder")
    lock = os.path.join(folder, LOCK)
    try:
        os.makedirs(folder, exist_ok=True)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError as exc:
        raise refused_here(exc, folder if not os.path.isdir(folder) else lock) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise InputError(f"{display(folder)}: another kayles run is working in it") from None
    except BaseException:
        os.close(fd)
        raise
    return fd
