"""The census of octal games: every code of up to K digits, proved or computed far.

A census runs surveys in passes (``passes``): every code ``0.d1..dk`` (k <= K,
dk != 0) to 2**16 values, then the codes still open whose rare heaps are few
(``escalates``) to 2**20, 2**24, ... up to ``--to``.

The hexadecimal census (``census_codes(K, hexadecimal=True)``, K <= 3) takes every code
with digits 0-F: those whose digits are all octal go through the octal census's passes
(so their rows are its rows), the others through their own (``hex_passes``: 2**14 values
for one or two digits, 2**12 for three, four times more a pass while open and below
``--hex-to``, the last pass ``--hex-to`` itself), each proved periodic, proved
arithmetic-periodic (a saltus), or open with the regularity it shows, if any
(``kayles.engine.regularity``).  The sparse method computes
those in about linear time; an open code whose values keep growing, with no
mask that leaves few heaps rare, would cost a scan of every pair per heap, so
it stays at the pass where it stopped and its row says how far it went.  Each
pass is a survey into the same database, so a census resumes where it stopped.

``census_rows`` turns each code's last summary into its published row: solved
(preperiod and period proved by the octal periodicity theorem) or open (the
values computed, the largest, the rare mask, count and last rare heap), the
Fletcher-32 checksum of the values the row describes, and its class: the first
code, in census order, whose values G(0..2**16-1) are the same.

The driver: ``plans`` lays out the passes of a census (each a list of codes, its values,
and which codes go on), ``run`` carries them out through surveys into one store, and
``census`` does both for the API (a store and a process pool of its own).  The command
``kayles census`` parses, calls ``run`` and prints.
"""

from __future__ import annotations

import itertools
from contextlib import nullcontext
from typing import NamedTuple

from .._numbers import brief
from ..errors import InputError
from ..kernels.spectrum import mask_text
from .survey import COLUMNS as SURVEY_COLUMNS
from .survey import codes_with_digits, equivalence_classes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from concurrent.futures import Executor

    from ..storage.records import Summary
    from ..storage.store import Store

__all__ = ["CLASS_VALUES", "COLUMNS", "FIRST", "HEX_COLUMNS", "MISERE_COLUMNS", "Census", "Plan",
           "census", "census_codes", "census_rows", "escalates", "hex_passes",
           "hex_summary_markdown", "is_octal", "misere_rows", "misere_markdown", "passes",
           "plans", "run", "summary_markdown"]

FIRST = 1 << 16  # the first pass: every code to this many values
STEP = 4  # each later pass computes 2**STEP times more values
DENSE_SHARE = 16  # an open code goes on while at most one heap in this many is rare
CLASS_VALUES = FIRST  # classes: codes whose first this many values agree
COLUMNS = (*SURVEY_COLUMNS, "class", "settled")  # a survey's row, in its words, and two more
# The hexadecimal census: the saltus of a proof, and the regularity an open code shows.
HEX_COLUMNS = (*COLUMNS[:5], "saltus", *COLUMNS[5:], "observed_preperiod", "observed_period",
               "observed_saltus")
HEX_DIGITS = "0123456789ABCDEF"
HEX_FIRST = {1: 1 << 14, 2: 1 << 14, 3: 1 << 12}  # a hexadecimal code's first pass, by digits
HEX_STEP = 2  # each later pass of an open one computes 2**HEX_STEP times more
HEX_CLASS_VALUES = 1 << 12  # classes of the hexadecimal census: their first values agree
# The misère census (--misere): each code's quotient on heaps up to HEAP, or as far as proved.
MISERE_COLUMNS = ("code", "status", "heaps", "order", "p_size", "solved_at", "period",
                  "preperiod", "checksum", "stopped_by")


def census_codes(digits: int, hexadecimal: bool = False) -> list[str]:
    """Every code of 1 to ``digits`` digits after '0.' whose last digit is not 0, shortest
    first: 7, 56, 448, 3,584 of them for 1 to 4 digits (hexadecimal: 15, 240, 3,840 for 1
    to 3)."""
    if hexadecimal:
        if not 1 <= digits <= 3:
            raise InputError(f"--digits goes from 1 to 3 with --hex, not {brief(digits)}")
        return [f"0.{''.join(body)}{last}" for k in range(1, digits + 1)
                for body in itertools.product(HEX_DIGITS, repeat=k - 1)
                for last in HEX_DIGITS[1:]]
    if not 1 <= digits <= 4:
        raise InputError(f"--digits must be 1 to 4, not {brief(digits)}")
    return [code for k in range(1, digits + 1) for code in codes_with_digits(k)]


def is_octal(code: str) -> bool:
    """Whether every digit of a census code is octal (the octal census's passes)."""
    return all(ch in "01234567" for ch in code[2:])


def hex_passes(digits: int, to: int | None) -> list[int]:
    """The values of each pass of an open code with a digit past 7: HEX_FIRST[digits],
    then 2**HEX_STEP times more while below ``to``, and ``to`` itself last (None, or a
    ``to`` within the first pass: the first pass alone)."""
    steps = [HEX_FIRST[digits]]
    while to is not None and steps[-1] << HEX_STEP < to:
        steps.append(steps[-1] << HEX_STEP)
    if to is not None and to > steps[-1]:
        steps.append(to)
    return steps


def passes(to: int) -> list[int]:
    """The values of each pass: FIRST, then 2**STEP times more, up to ``to`` (the last pass
    is ``to`` itself)."""
    if to < FIRST:
        raise InputError(f"--to must be at least {FIRST} (the first pass), not {brief(to)}")
    steps = [FIRST]
    while steps[-1] << STEP < to:
        steps.append(steps[-1] << STEP)
    if steps[-1] != to:
        steps.append(to)
    return steps


def escalates(summary: Summary) -> bool:
    """Whether an open code goes on to the next pass: a mask leaves at most one heap in
    DENSE_SHARE rare, so the sparse method computes it quickly."""
    return (not summary.proved and summary.mask != 0
            and summary.rare * DENSE_SHARE <= summary.values)


class Plan(NamedTuple):
    """One line of passes: its codes (or a function of the store that chooses them from
    the rows of a plan before), the values of each pass, the nearest and furthest a row
    shown may come from (a code surveyed further into the database, up to ``furthest``,
    shows that row), and which codes go on to the next pass."""

    codes: list[str] | Callable[[Store], list[str]]
    limits: list[int]
    nearest: int
    furthest: int
    goes_on: Callable[[Summary], bool]


class Census(NamedTuple):
    """What ``run`` found: each code's furthest summary, {code: error} of the codes that
    failed, and the passes not finished, as (values, codes done, codes, (codes failed,
    how many of them because their values would pass 16 bits))."""

    summaries: dict[str, Summary]
    failures: dict[str, str]
    unfinished: list[tuple[int, int, int, tuple[int, int]]]


def plans(codes: list[str], to: int, *, hexadecimal: bool = False, digits: int = 3,
          hex_to: dict[int | None, int] | None = None, dense_to: int | None = None,
          further: list[tuple[str, int]] = ()) -> list[Plan]:
    """The passes of the census of ``codes`` (census_codes): the octal codes' (``passes``
    to ``to``); with ``hexadecimal`` each digit count's own (``hex_passes``, to its
    ``hex_to`` or ``hex_to[None]``); with ``dense_to`` the codes the first pass left open
    and not sparse, on to it; each of ``further`` (code, values) on to its values."""
    octal = [code for code in codes if is_octal(code)]
    steps = passes(to)
    laid = [Plan(octal, steps, steps[0], to, escalates)]
    hex_to = hex_to or {}
    for count in range(1, digits + 1) if hexadecimal else ():
        limits = hex_passes(count, hex_to.get(count, hex_to.get(None)))
        laid.append(Plan([code for code in codes if len(code) - 2 == count
                          and not is_octal(code)],
                         limits, limits[0], limits[-1], lambda summary: not summary.proved))
    if dense_to is not None:
        laid.append(Plan(lambda store: [code for code, summary in store.summaries(
            octal, FIRST).items() if not summary.proved and not escalates(summary)],
            [dense_to], FIRST, max(dense_to, to), lambda summary: False))
    laid += [Plan([code], [values], FIRST, max(values, to), lambda summary: False)
             for code, values in further]
    return laid


def _no_progress(name: str, count: int):
    return nullcontext((lambda code: None, None))


def run(laid: list[Plan], codes: list[str], store: Store, executor: Executor, window: int,
        *, compute: bool = True, keep: int | None = CLASS_VALUES,
        watch: Callable = _no_progress,
        waits: Callable[[str, str], None] = lambda code, owner: None,
        notice: float = 10.0) -> Census:
    """Carry out the passes ``laid`` (``plans``) over ``codes``, in census order, into
    ``store`` through ``executor`` (``kayles.analysis.executors.open_executor``).

    ``compute`` false: nothing is computed, the rows stored are read back (``--stored``).
    ``keep``: the values a row keeps once checked (its class's; None: all).
    ``watch(name, count)``: a context manager, entered around each pass, giving the
    survey's ``done(code)`` and ``resumed(count)`` callbacks (``kayles.analysis.
    executors.survey``), for a progress bar; ``waits`` and ``notice`` as there.
    """
    from ..kernels.cost import PAST_16_BITS
    from .executors import survey

    found_rows: dict[str, Summary] = {}
    failures: dict[str, str] = {}
    unfinished = []
    for members, limits, nearest, furthest, goes_on in laid:
        if callable(members):  # codes chosen from the rows of a pass before
            chosen = set(members(store))
            members = [code for code in codes if code in chosen]
        current = members
        for number, limit in enumerate(limits, 1):
            if not current:
                break
            if compute:  # the time left a bar shows is this pass's: how many codes the
                # next one takes depends on what this one proves
                name = f"census pass {number} of {len(limits)}, to {limit:,}"
                with watch(name, len(current)) as (done, resumed):
                    failures.update(survey(current, limit, store, executor, window, done,
                                           waits, notice, resumed=resumed))
            found = store.summaries(current, limit, keep=0)
            if len(found) < len(current):
                failed = store.failed_codes(current, limit).values()
                unfinished.append((limit, len(found), len(current), (
                    len(failed), sum(PAST_16_BITS in error for error in failed))))
            current = [code for code in current if code in found and goes_on(found[code])]
        found_rows.update(store.furthest(members, nearest, furthest, keep))
    return Census(found_rows, failures, unfinished)


def census(digits: int = 4, to: int = FIRST, *, hexadecimal: bool = False, db: str,
           jobs: int = 1, dask: str | None = None, **passes_given) -> list[dict]:
    """The census of every code of up to ``digits`` digits (octal, or hexadecimal), to
    ``to`` values, into the survey database ``db`` (made if missing; a census resumes
    there), on ``jobs`` processes or a Dask scheduler: its published rows (``census_rows``).
    ``passes_given``: ``plans``' other options (hex_to, dense_to, further).

        >>> rows = census(1, db=path)                                # doctest: +SKIP
    """
    from ..storage.store import Store
    from .executors import open_executor

    codes = census_codes(digits, hexadecimal)
    laid = plans(codes, to, hexadecimal=hexadecimal, digits=digits, **passes_given)
    with Store(db) as store, open_executor(jobs, dask) as (executor, window):
        found = run(laid, codes, store, executor, window,
                    keep=None if hexadecimal else CLASS_VALUES)
    return census_rows([found.summaries[code] for code in codes if code in found.summaries],
                       hexadecimal)


def census_rows(summaries: list[Summary], hexadecimal: bool = False) -> list[dict]:
    """The published row of each code's last summary, in the order given (see the header):
    COLUMNS, or HEX_COLUMNS with ``hexadecimal``."""
    from ..engine.regularity import observe

    classes = equivalence_classes(summaries, HEX_CLASS_VALUES if hexadecimal else CLASS_VALUES)
    first = {summary.code: members[0].code for members in classes for summary in members}
    rows = []
    for summary in summaries:
        settled = (f"proved at {summary.values} values" if summary.proved
                   else f"open, computed to {summary.max}")
        out = {**summary.row(saltus=hexadecimal), "class": first[summary.code],
               "settled": settled}
        if hexadecimal:
            seen = None if summary.proved else observe(summary.head, len(summary.head))
            out.update(zip(HEX_COLUMNS[-3:], seen or (None, None, None)))
        rows.append(out)
    return rows


def misere_rows(summaries: dict[str, dict], codes: list[str]) -> list[dict]:
    """The published row of each code's misère summary (``survey.misere_summary``): status
    solved (the quotient of every heap), done (of heaps up to HEAP) or short (of fewer: the
    next is beyond the search, ``stopped_by`` states, memory, or powers: a position of
    more equal heaps than a generator's powers may reach, MAX_POWER)."""
    rows = []
    for code in codes:
        m = summaries[code]
        solved = m["solved"] or {}
        error = m["error"] or ""
        status = "solved" if solved else ("short" if error else "done")
        stopped = ("" if not error else "memory" if "memory bound" in error
                   else "states" if "states" in error
                   else "powers" if "equal heaps" in error else "other")
        rows.append({"code": code, "status": status, "heaps": m["heaps"], "order": m["order"],
                     "p_size": m["p_size"], "solved_at": solved.get("at_heap"),
                     "period": solved.get("period"), "preperiod": solved.get("preperiod"),
                     "checksum": m["checksum"] and m["checksum"][:16], "stopped_by": stopped})
    return rows


def misere_markdown(rows: list[dict], top: int = 10) -> str:
    """The misère census in Markdown: by digits, how many quotients are solved, proved to
    HEAP or stopped short; then the largest orders proved to HEAP and the solved ones with
    the largest orders."""
    out = ["| digits | codes | solved | to the heap asked | stopped short | largest order |",
           "|---:|---:|---:|---:|---:|---:|"]
    for digits in sorted({len(row["code"]) - 2 for row in rows}):
        some = [row for row in rows if len(row["code"]) - 2 == digits]
        count = {status: sum(row["status"] == status for row in some)
                 for status in ("solved", "done", "short")}
        largest = max((row["order"] or 0 for row in some if row["status"] != "short"),
                      default=0)
        out.append(f"| {digits} | {len(some):,} | {count['solved']:,} | {count['done']:,} | "
                   f"{count['short']:,} | {largest:,} |")
    for status, title in (("done", "Largest quotients proved to the heap asked"),
                          ("solved", "Largest solved quotients")):
        out += ["", f"**{title}**", "", "| code | heaps | order | P | period | preperiod |",
                "|---|---:|---:|---:|---:|---:|"]
        for row in sorted((r for r in rows if r["status"] == status),
                          key=lambda r: (-r["order"], r["code"]))[:top]:
            out.append(f"| {row['code']} | {row['heaps']} | {row['order']:,} | "
                       f"{row['p_size']:,} | {row['period'] or '-'} | "
                       f"{row['preperiod'] or '-'} |")
    return "\n".join(out) + "\n"


def summary_markdown(rows: list[dict], top: int = 10) -> str:
    """The census in a few Markdown tables: solved and open by digits; then, one row a class
    (its first code, and how many codes it holds), the largest periods and preperiods and
    the open codes computed furthest (fewest rare heaps first)."""
    out = ["| digits | codes | solved | open | classes |", "|---:|---:|---:|---:|---:|"]
    for digits in sorted({len(row["code"]) - 2 for row in rows}):
        some = [row for row in rows if len(row["code"]) - 2 == digits]
        solved = sum(row["status"] == "solved" for row in some)
        out.append(f"| {digits} | {len(some):,} | {solved:,} | {len(some) - solved:,} | "
                   f"{len({row['class'] for row in some}):,} |")
    size: dict[str, int] = {}
    for row in rows:
        size[row["class"]] = size.get(row["class"], 0) + 1
    firsts = [row for row in rows if row["code"] == row["class"]]
    solved = [row for row in firsts if row["status"] == "solved"]
    for key, title in (("period", "Largest periods"), ("preperiod", "Largest preperiods")):
        out += ["", f"**{title}** (one code a class)", "",
                "| code | class size | preperiod | period | values | largest |",
                "|---|---:|---:|---:|---:|---:|"]
        for row in sorted(solved, key=lambda r: (-r[key], r["code"]))[:top]:
            out.append(f"| {row['code']} | {size[row['code']]} | {row['preperiod']:,} | "
                       f"{row['period']:,} | {row['values']:,} | {row['largest']} |")
    open_rows = [row for row in firsts if row["status"] == "open"]
    out += ["", "**Open codes computed furthest** (one code a class, fewest rare heaps first)",
            "", "| code | class size | computed | largest | mask | rare | last rare |",
            "|---|---:|---:|---:|---|---:|---:|"]
    for row in sorted(open_rows, key=lambda r: (-r["computed"], r["rare"], r["code"]))[:top]:
        last = f"{row['last_rare']:,}" if row["last_rare"] is not None else "-"
        out.append(f"| {row['code']} | {size[row['code']]} | {row['computed']:,} | "
                   f"{row['largest']} | {mask_text(row['mask'])} | {row['rare']:,} | {last} |")
    return "\n".join(out) + "\n"


def kind_of(row: dict) -> str:
    """A hexadecimal census row's kind: periodic, arithmetic (a saltus) or open."""
    if row["status"] != "solved":
        return "open"
    return "arithmetic" if row["saltus"] else "periodic"


def hex_summary_markdown(rows: list[dict], top: int = 10) -> str:
    """The hexadecimal census in a few Markdown tables: by digits, how many codes are proved
    periodic, proved arithmetic-periodic and open (the octal ones apart); the largest
    periods and saltuses proved (one code a class); the open codes with a digit past 7 and
    the regularity they show, the most common first."""
    out = ["| digits | codes | octal | periodic | arithmetic-periodic | open | classes |",
           "|---:|---:|---:|---:|---:|---:|---:|"]
    for digits in sorted({len(row["code"]) - 2 for row in rows}):
        some = [row for row in rows if len(row["code"]) - 2 == digits]
        kinds = [kind_of(row) for row in some]
        out.append(f"| {digits} | {len(some):,} | {sum(is_octal(r['code']) for r in some):,} | "
                   f"{kinds.count('periodic'):,} | {kinds.count('arithmetic'):,} | "
                   f"{kinds.count('open'):,} | {len({row['class'] for row in some}):,} |")
    size: dict[str, int] = {}
    for row in rows:
        size[row["class"]] = size.get(row["class"], 0) + 1
    firsts = [row for row in rows if row["code"] == row["class"] and not is_octal(row["code"])]
    arithmetic = [row for row in firsts if kind_of(row) == "arithmetic"]
    for key, title in (("period", "Largest periods of the arithmetic-periodic codes"),
                       ("saltus", "Largest saltuses")):
        out += ["", f"**{title}** (one code a class)", "",
                "| code | class size | preperiod | period | saltus | values |",
                "|---|---:|---:|---:|---:|---:|"]
        for row in sorted(arithmetic, key=lambda r: (-r[key], r["code"]))[:top]:
            out.append(f"| {row['code']} | {size[row['code']]} | {row['preperiod']:,} | "
                       f"{row['period']:,} | {row['saltus']:,} | {row['values']:,} |")
    shown: dict[tuple, list[dict]] = {}
    for row in firsts:
        if kind_of(row) == "open" and row["observed_period"] is not None:
            shown.setdefault((row["observed_period"], row["observed_saltus"]), []).append(row)
    out += ["", "**Open codes that show a regularity** (observed, not proved; one code a "
            "class)", "", "| observed period | saltus | classes | first codes |",
            "|---:|---:|---:|---|"]
    for (p, s), some in sorted(shown.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:top]:
        out.append(f"| {p} | {s} | {len(some):,} | "
                   f"{', '.join(r['code'] for r in some[:6])} |")
    silent = [row for row in firsts if kind_of(row) == "open" and row["observed_period"] is None]
    out += ["", f"**Open codes that show no regularity**: {len(silent):,} classes, e.g. "
            f"{', '.join(row['code'] for row in silent[:12])}."]
    return "\n".join(out) + "\n"
