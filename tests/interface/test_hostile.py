"""Hostile input for every subcommand of ``kayles`` and for ``Kayles-xox`` (issue 12).

One table, ``HOSTILE``: a row names a command line, what runs around it (a file,
standard input closed or empty, standard output on a full disk or closed) and
the exit status it must end with.  Every row is checked the same way: the exit
status; no traceback, no MemoryError; an error (status 1 or 2) is exactly one
stderr line and nothing on stdout; a success writes nothing on stderr.  Each
child runs under RLIMIT_AS (MEMORY_LIMIT), so "bounded memory" means it never
needed more: running out would end in "out of memory" (status 1) or a crash.

To cover a new subcommand, add rows:

    HOSTILE["survey-bad-code"] = refused(["survey", "--codes", "0.9"], "octal")

(``refused`` status 2, ``disk_full`` status 1 with stdout on /dev/full,
``answered`` status 0, ``pipe_closed`` status 141).  Rows with ``twins=True``
run on the compiled core and on the pure twin (KAYLES_PURE=1); keep those to
cases where the kernel matters.

Decisions recorded here: CRLF files are text (a trailing carriage return is
whitespace, the answers are those of the LF file); numbers are ASCII digits
only, at most kayles._numbers.MAX_DIGITS (100,000) of them.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import oracle
from conftest import DEADLINE, ROOT

# make test-slow (CI runs it); on one worker, which runs the rows once (each worker ran them all)
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("hostile")]

STUCK = -1  # run_row's status for a row that passed DEADLINE
WORKERS = max(2, os.cpu_count() or 2)
MEMORY_LIMIT = 1536 << 20  # bytes of address space a child may map
MAX_DIGITS = 100_000  # kayles._numbers.MAX_DIGITS, restated: the contract, not the code
BIG = "7" * MAX_DIGITS  # a number of the longest accepted length
TOO_BIG = "7" * (MAX_DIGITS + 1)
DIRECT_LIMIT = 1 << 27  # kayles.engine.sequence.direct_limit() under conftest's KAYLES_MEMORY
KAYLES = [sys.executable, "-m", "kayles"]
XOX = [str(ROOT / "Kayles-xox")]


@dataclass(frozen=True)
class Hostile:
    argv: list  # str or bytes; str items are formatted with the file paths ({nim_crlf} ...)
    status: int  # 0 answered, 1 output failed, 2 refused
    says: str = ""  # a piece of the stderr line (status 1, 2) or of stdout (status 0)
    exe: tuple = tuple(KAYLES)
    stdin: str = "devnull"  # devnull | closed
    stdout: str = "pipe"  # pipe | full (/dev/full) | closed | reader-closes (after 20 bytes)
    stderr: str = "pipe"  # pipe | closed (then only the status and stdout are checked)
    twins: bool = False  # also run on the pure twin
    stdout_is: bytes | None = None  # the exact stdout of an answer, when known
    env: tuple = ()  # (NAME, value) set for the child (formatted as argv is; None: unset)


def refused(argv, says="", **kw) -> Hostile:
    return Hostile(argv, 2, says, **kw)


def io_failure(argv, says="", **kw) -> Hostile:
    """The system refused a file the user named (missing, no permission): status 1, the path."""
    return Hostile(argv, 1, says, **kw)


def disk_full(argv, **kw) -> Hostile:
    return Hostile(argv, 1, "cannot write output: No space left on device", stdout="full", **kw)


def answered(argv, says="", **kw) -> Hostile:
    return Hostile(argv, 0, says, **kw)


def pipe_closed(argv, **kw) -> Hostile:
    """The reader takes 20 bytes and closes the pipe: status 141, nothing on stderr."""
    return Hostile(argv, 141, stdout="reader-closes", **kw)


def xox(row: Hostile) -> Hostile:
    return replace(row, exe=tuple(XOX))


# -- the files the rows read ------------------------------------------------------------------

HUGE_BYTES = 30 << 20  # "huge file": 30 MB, under the 32 MB input limit


def _huge(line: str, head: str = "", tail: str = "") -> str:
    return head + line * ((HUGE_BYTES - len(head) - len(tail)) // len(line)) + tail


def _chain(n: int, tail: str = "") -> str:
    """v0 -> v1 -> ... -> vn: n edges, G alternates 1, 0 from the sink back."""
    return "".join(f"v{i}: v{i + 1}\n" for i in range(n)) + f"v{n}:{tail}\n"


def _board(cells: int) -> str:
    """A row of ``cells`` cells: gaps of 29 free cells between single X's."""
    return (("X" + "." * 29) * (cells // 30 + 1))[:cells]


FILES: dict[str, bytes | str] = {
    "empty": "",
    "blank": "\n \n\t\n",
    "binary": b"\xff\xfe1\n",
    "nim_crlf": "2\r\n1 2\r\n3 3\r\n",
    "nim_short": "3\n1 2\n4 5\n",
    "nim_long": "1\n1 2\n4 5\n",
    "nim_unicode_count": "١\n1 2\n",
    "nim_unicode_heap": "1\n1 ٢\n",
    "nim_huge_count": BIG + "\n1 2\n",
    "nim_huge_heaps": "1\n" + BIG + " " + BIG + "\n",
    "nim_too_big_heap": "1\n" + TOO_BIG + " 1\n",
    "nim_one_heap": "1\n7\n",
    "nim_many": "100000\n" + "1 2\n" * 100000,  # 3 MB of answers, more than a pipe holds
    "nim_negative": "1\n-1 2\n",
    "nim_huge": "1000\n" + ("1 2 " * (HUGE_BYTES // 4000) + "4\n") * 1000,  # 30 MB, 1000 sets
    "tc_crlf": "2\r\n...\r\n..X.\r\n",
    "tc_short": "2\n...\n",
    "tc_bad": "1\n..o..\n",
    "tc_won": "1\n.XXX.\n",
    "tc_board": "1\n" + _board(10**6) + "\n",  # a 10**6-cell board
    "tc_huge": _huge("X.", head="1\n", tail="X.XXX\n"),  # a 30 MB row, won at its very end
    "dag_crlf": "a: b c\r\nb: c\r\nc:\r\n",
    "dag_cycle": "a: b\nb: c\nc: a\n",
    "dag_self_loop": "a: a\n",
    "dag_unknown": "a: b\n",
    "dag_twice": "a:\na:\n",
    "dag_no_colon": "x" * 10**6 + "\n",  # a 1 MB line the message must not echo in full
    "dag_chain": _chain(10**6),  # 10**6 edges
    "dag_chain_short": _chain(2 * 10**5),  # 2.6 MB of answers, written at once
    "dag_chain_cycle": _chain(10**6, tail=" v0"),  # 10**6 + 1 edges, one cycle through all
    "dag_huge": _huge("# a comment line, nothing else\n", tail="a:\n"),  # 30 MB
    "hb_crlf": "g-a\r\na-b b-g\r\n",  # a triangle on the ground: *1, cut its top
    "hb_bad": "g-a\na--b\n",
    "hb_long_token": "g-a " + "x" * 10**6,
    "hb_path": " ".join(f"v{i}-v{i + 1}" for i in range(10**6)).replace("v0-", "g-", 1),
    "hb_circuit": " ".join(f"v{i}-v{i + 1}" for i in range(10**6)).replace("v0-", "g-", 1)
    + " v1000000-g",  # 10**6 + 1 edges round one circuit through the ground
    "hb_star": " ".join(f"g-v{i}" for i in range(100_001)),  # *1: every edge a winning cut
    "hb_too_many": "g-a " * (2**22 + 1),  # past the bound on a picture's edges (16 MB)
    # games written in Python (kayles solve): a name ending in _py is a file NAME.py
    "game_py": "class Game:\n    def options(self, n):\n        return [n - 1] if n else []\n",
    "loopy_py": "class Game:\n    def options(self, n):\n        return [(n + 1) % 1000]\n",
    "syntax_py": "def f(:\n",
    "raising_py": "class Game:\n    def options(self, n):\n        raise RuntimeError('no')\n",
}

# nim_huge's sets: k pairs "1 2" (XOR 3 each), then a 4: the first heap to lower is the 4
# when the pairs cancel (k even: take all 4), else the 4 again (3 ^ 4 = 7: leave 3, take 1).
_PAIRS = HUGE_BYTES // 4000
NIM_HUGE_ANSWER = (f"Remove {4 if _PAIRS % 2 == 0 else 1} counters from Heap "
                   f"{2 * _PAIRS + 1}\n").encode()

def _sparse(size: int):
    def make(path) -> None:
        with open(path, "wb") as handle:
            handle.truncate(size)  # all zeros, taking no disk
    return make


def _database_with(sql: str):
    def make(path) -> None:
        import sqlite3

        with sqlite3.connect(path) as connection:
            connection.executescript("CREATE TABLE games (code TEXT); " + sql)
    return make


# Files made by the fixture itself: special kinds, sizes past the input limit, databases.
SPECIAL_FILES = {
    "fifo": os.mkfifo,  # a reader that opened it would wait for a writer for ever
    "fifo_png": os.mkfifo,  # the same, named like a picture ("fifo.png")
    "past_input_limit": _sparse((32 << 20) + 1),
    "db_with_view": _database_with("CREATE VIEW v AS SELECT * FROM games;"),
    "db_with_trigger": _database_with("CREATE TRIGGER t AFTER UPDATE ON games BEGIN "
                                      "SELECT RAISE(ABORT, 'no'); END;"),
}

EXPECT_CHAIN = "".join(f"v{i}: {(10**6 - i) % 2}\n" for i in range(10**6 + 1)).encode()
EXPECT_CYCLE = "".join(f"v{i}: inf()\n" for i in range(10**6 + 1)).encode()  # a draw each

KAYLES_PREPERIOD, KAYLES_PERIOD = 71, 12  # Kayles 0.77: G(n + 12) = G(n) for n >= 71 (Guy-Smith)


def kayles_row_answer(n: int) -> bytes:
    """The seed's move on a row of n pins of Kayles: the leftmost placement (one pin
    before two) leaving G(a) ^ G(b) == 0, from the oracle and the published period."""
    known = oracle.octal_nimbers("0.77", KAYLES_PREPERIOD + KAYLES_PERIOD)

    def G(k: int) -> int:
        if k >= len(known):
            k = KAYLES_PREPERIOD + (k - KAYLES_PREPERIOD) % KAYLES_PERIOD
        return known[k]

    for a in range(n):
        for width in (1, 2):
            if a + width <= n and G(a) ^ G(n - a - width) == 0:
                return ("x" * a + "." * width + "x" * (n - a - width) + "\n").encode()
    return b"LOSS\n"


# -- the rows ---------------------------------------------------------------------------------

HOSTILE: dict[str, Hostile] = {
    # grundy
    "grundy-bad-number": refused(["grundy", "12x"], "'12x'"),
    "grundy-negative": refused(["grundy", "-5"]),
    "grundy-unicode-digits": refused(["grundy", "١٢"], "'١٢'"),
    "grundy-invalid-byte": refused(["grundy", b"1\xff"], "'1\\xff'"),
    "grundy-too-many-digits": refused(["grundy", TOO_BIG], f"at most {MAX_DIGITS}"),
    "grundy-huge-n-streams-to-full-disk": disk_full(["grundy", BIG, "--game", "kayles"]),
    "grundy-no-known-period": refused(["grundy", str(DIRECT_LIMIT), "--game", "grundy"],
                                      "no period is known"),
    "grundy-game-invalid-byte": refused(["grundy", "5", "--game", b"0.\xff"], "'0.\\xff'"),
    "grundy-game-long-name": refused(["grundy", "5", "--game", "x" * 10**5],
                                     "the first 60 of 100000 characters"),
    "grundy-octal-65-digits": refused(["grundy", "5", "--game", "0." + "0" * 64 + "1"],
                                      "at most 64 digits"),
    "grundy-octal-span-64": answered(["grundy", "70", "--game", "0." + "0" * 63 + "1"],
                                     stdout_is=("[" + ", ".join(["0"] * 64 + ["1"] + ["0"] * 6)
                                                + "]\n").encode(), twins=True),
    "grundy-disk-full": disk_full(["grundy", "5000", "--game", "dawsons-kayles"], twins=True),
    "grundy-stdout-closed": Hostile(["grundy", "5"], 1, "standard output is closed",
                                    stdout="closed"),
    "grundy-stderr-closed": answered(["grundy", "5", "--game", "kayles"], stderr="closed",
                                     stdout_is=b"[0, 1, 2, 3, 1, 4]\n"),  # A002186
    "grundy-bad-number-stderr-closed": refused(["grundy", "x"], stderr="closed"),
    "help-stdout-closed": Hostile(["--help"], 1, "standard output is closed", stdout="closed"),
    # period
    "period-bad-max": refused(["period", "--max", "١٠"], "'١٠'"),
    "period-max-past-direct-limit": refused(["period", "--max", str(DIRECT_LIMIT + 1)],
                                            "values need about 768.0 MB of memory"),
    "period-huge-max": refused(["period", "--max", BIG], "a table holds"),
    "period-unknown-game": refused(["period", "--game", b"\xff\xfe"], "'\\xff\\xfe'"),
    "period-unprovable": answered(["period", "--game", "grundy"], "no proof possible"),
    "period-disk-full": disk_full(["period", "--game", "kayles"], twins=True),
    # move
    "move-invalid-byte-row": refused(["move", b"x\xffx"], "'\\xff'"),
    "move-invalid-byte-heap": refused(["move", "7", b"5\xff", "--game", "kayles"], "'5\\xff'"),
    "move-unicode-heap": refused(["move", "٧", "--game", "kayles"], "'٧'"),
    "move-mixed": refused(["move", "7", "x", "--game", "kayles"]),
    "move-too-many-digits": refused(["move", TOO_BIG, "--game", "kayles"], f"at most {MAX_DIGITS}"),
    "move-huge-heap": answered(["move", BIG, "--game", "kayles"], "heap 1: " + BIG[:50]),
    "move-no-known-period": refused(["move", "1" + "0" * 22, "--game", "grundy"],
                                    "no period is known"),
    "move-no-known-period-second-heap": refused(["move", "5", "1" + "0" * 22, "--game", "grundy"],
                                                "no period is known"),
    "move-long-row": answered(["move", "x" * 10**5, "--game", "kayles"], twins=True,
                              stdout_is=kayles_row_answer(10**5)),
    "move-disk-full": disk_full(["move", "xx.xxxx", "--game", "kayles-xox"], twins=True),
    # games
    "games-extra-argument": refused(["games", "extra"]),
    "games-disk-full": disk_full(["games"]),
    "games-json-disk-full": disk_full(["games", "--json"]),
    "codes-bad-code": refused(["codes", "0.77", "0.3W"], "at character 4, 'W'"),
    "codes-json-alone": refused(["codes", "--json"], "give at least one CODE"),
    "codes-huge-code": refused(["codes", "0." + "&3;" * 10**4], "at most 64 digits"),
    "codes-many-amps": refused(["codes", "0.&" + "9" * 10**4 + ";"], "&N;"),
    "codes-disk-full": disk_full(["codes", "0.3F"]),
    "codes-closed-pipe": pipe_closed(["codes", *["0.3F"] * 3000]),
    "help-disk-full": disk_full(["--help"]),
    "version-disk-full": disk_full(["--version"]),
    "subcommand-help-disk-full": disk_full(["dag", "--help"]),
    "unknown-subcommand-invalid-byte": refused([b"\xff"], "invalid choice: '\\xff'"),
    "unknown-subcommand-long": refused(["y" * 5000], "(5002 characters)"),
    "unrecognized-invalid-byte": refused(["grundy", "5", b"--g\xff"], "arguments: --g\\xff"),
    # nim
    "nim-empty": refused(["nim", "{empty}"], "empty input"),
    "nim-blank": refused(["nim", "{blank}"], "empty input"),
    "nim-not-utf8": refused(["nim", "{binary}"], "not UTF-8"),
    "nim-crlf-is-text": answered(["nim", "{nim_crlf}"],
                                 stdout_is=b"Remove 1 counters from Heap 2\nLose Game\n"),
    "nim-fewer-cases-than-count": refused(["nim", "{nim_short}"], "only 2 cases follow"),
    "nim-more-cases-than-count": refused(["nim", "{nim_long}"], "more cases than the count 1"),
    "nim-unicode-count": refused(["nim", "{nim_unicode_count}"], "'١'"),
    "nim-unicode-heap": refused(["nim", "{nim_unicode_heap}"], "'٢'"),
    "nim-huge-count": refused(["nim", "{nim_huge_count}"], "the first 60 of 100000"),
    "nim-huge-heaps": answered(["nim", "{nim_huge_heaps}"], stdout_is=b"Lose Game\n"),
    "nim-too-many-digits": refused(["nim", "{nim_too_big_heap}"], f"at most {MAX_DIGITS}"),
    "nim-one-heap": refused(["nim", "{nim_one_heap}"], "at least 2 heaps"),
    "nim-negative": refused(["nim", "{nim_negative}"], "'-1'"),
    "nim-huge-file": answered(["nim", "{nim_huge}"], stdout_is=NIM_HUGE_ANSWER * 1000),
    "nim-missing-file": io_failure(["nim", "{empty}.missing"], "No such file"),
    "nim-directory": refused(["nim", "{dir}"], "is a directory"),
    "nim-invalid-byte-path": io_failure(["nim", b"/nonexistent/\xff"],
                                     "/nonexistent/\\xff: No such file"),
    "nim-endless-file": refused(["nim", "/dev/zero"], "not a regular file"),
    "nim-closed-pipe": pipe_closed(["nim", "{nim_many}"]),
    "nim-fifo": refused(["nim", "{fifo}"], "not a regular file"),
    "nim-past-input-limit": refused(["nim", "{past_input_limit}"], "longer than 32 MB"),
    "nim-stdin-empty": refused(["nim", "-"], "empty input"),
    "nim-stdin-closed": refused(["nim", "-"], "standard input is closed", stdin="closed"),
    "nim-disk-full": disk_full(["nim", "{nim_crlf}"]),
    # wythoff
    "wythoff-bad-pile": refused(["wythoff", "3", "x"], "'x'"),
    "wythoff-unicode-pile": refused(["wythoff", "٣", "4"], "'٣'"),
    "wythoff-invalid-byte": refused(["wythoff", b"\xff", "4"], "'\\xff'"),
    "wythoff-one-pile": refused(["wythoff", "3"], "two piles"),
    "wythoff-huge-piles": answered(["wythoff", BIG, BIG], "take " + BIG[:50]),
    "wythoff-too-many-digits": refused(["wythoff", TOO_BIG, "1"], f"at most {MAX_DIGITS}"),
    "wythoff-huge-table": refused(["wythoff", "--table", BIG], "past the limit"),
    "wythoff-huge-sg": refused(["wythoff", "1", BIG, "--sg"], "past the limit"),
    "wythoff-endless-listing-full-disk": disk_full(["wythoff", "--p-positions", BIG]),
    "wythoff-endless-json-full-disk": disk_full(["wythoff", "--p-positions", BIG, "--json"]),
    "wythoff-disk-full": disk_full(["wythoff", "3", "7"]),
    "wythoff-endless-listing-closed-pipe": pipe_closed(["wythoff", "--p-positions", BIG]),
    # nimber
    "nimber-mul": answered(["nimber", "mul", "2**64", "2**64"], stdout_is=b"27670116110564327424\n",
                           twins=True),
    "nimber-inverse-of-0": refused(["nimber", "inv", "0"], "0 has no nim inverse"),
    "nimber-divide-by-0": refused(["nimber", "div", "3", "0"], "0 has no nim inverse"),
    "nimber-pow-of-0-negative": refused(["nimber", "pow", "0", "--", "-2"], "no nim inverse"),
    "nimber-negative": refused(["nimber", "mul", "-3", "2"], "'-3'"),
    "nimber-bad-number": refused(["nimber", "add", "1.5", "2"], "'1.5'"),
    "nimber-unicode-number": refused(["nimber", "sqrt", "٣"], "'٣'"),
    "nimber-invalid-byte": refused(["nimber", "inv", b"\xff"], "'\\xff'"),
    "nimber-bad-exponent": refused(["nimber", "pow", "2", "x"], "'x'"),
    "nimber-no-operation": refused(["nimber"], "OPERATION"),
    "nimber-unknown-operation": refused(["nimber", "times", "2", "3"], "invalid choice"),
    "nimber-too-big": refused(["nimber", "mul", BIG, "3"], "up to 65536 bits"),
    "nimber-too-many-digits": refused(["nimber", "mul", TOO_BIG, "3"], f"at most {MAX_DIGITS}"),
    "nimber-pow-base-too-big": refused(["nimber", "pow", "7" * 2000, "3"], "up to 4096 bits"),
    "nimber-pow-huge-exponent": answered(["nimber", "pow", "3", BIG], twins=True),
    "nimber-huge-table": refused(["nimber", "table", BIG], "0 to 65536"),
    "nimber-table-disk-full": disk_full(["nimber", "table", "300"]),
    "nimber-table-closed-pipe": pipe_closed(["nimber", "table", "4096"]),
    # turning
    "turning-json": answered(["turning", "1-3", "hthht", "--json"], twins=True,
                             stdout_is=b'{"value": 2, "move": [1, 3, 4]}\n'),
    "turning-board-json": answered(["turning", "1-2x1-2", "hth/tth/hhh", "--json"],
                                   stdout_is=b'{"value": 3, "move": [[1, 3]]}\n'),
    "turning-bad-coin": refused(["turning", "1-3", "hxt"], "not 'x' (coin 2)"),
    "turning-invalid-byte": refused(["turning", "1-3", b"h\xff"], "'\\xff'"),
    "turning-bad-code": refused(["turning", "1-3q", "hh"], "not a modifier"),
    "turning-zero-coins": refused(["turning", "0-2", "hh"], "at least one coin"),
    "turning-two-spacings": refused(["turning", "1-3CE", "hh"], "two spacings"),
    "turning-unknown-name": refused(["turning", "mock-tortoise", "hh"], "not a count"),
    "turning-no-strip": refused(["turning", "1-3"], "give a STRIP"),
    "turning-ragged-board": refused(["turning", "1-2x1-2", "ht/t"], "one length"),
    "turning-board-of-1d-code": refused(["turning", "1-3", "ht/th"], "2-D game"),
    "turning-bad-product": refused(["turning", "1-2x", "h/h"], "not a count"),
    "turning-long-strip-without-structure": refused(["turning", "1+S", "t" * 4999 + "h"],
                                                    "options to read"),
    "turning-stdin-closed": refused(["turning", "1-3", "-"], "standard input is closed",
                                    stdin="closed"),
    "turning-values-disk-full": disk_full(["turning", "ruler", "--values", "100000"]),
    # dag
    "dag-cycle": answered(["dag", "{dag_cycle}"], stdout_is=b"a: inf()\nb: inf()\nc: inf()\n"),
    "dag-self-loop": answered(["dag", "{dag_self_loop}"], stdout_is=b"a: inf()\n"),
    "dag-sum-unknown-vertex": refused(["dag", "{dag_cycle}", "--sum", "a", "z"],
                                      "no vertex 'z' in the graph"),
    "dag-unknown-vertex": refused(["dag", "{dag_unknown}"], "unknown vertex 'b'"),
    "dag-vertex-twice": refused(["dag", "{dag_twice}"], "already defined"),
    "dag-long-line-not-echoed": refused(["dag", "{dag_no_colon}"], "the first 60 of 1000000"),
    "dag-empty": refused(["dag", "{empty}"], "no vertices"),
    "dag-not-utf8": refused(["dag", "{binary}"], "not UTF-8"),
    "dag-crlf-is-text": answered(["dag", "{dag_crlf}"], stdout_is=b"a: 2\nb: 1\nc: 0\n"),
    "dag-million-edges": answered(["dag", "{dag_chain}"], stdout_is=EXPECT_CHAIN),
    "dag-million-edges-cycle": answered(["dag", "{dag_chain_cycle}"], stdout_is=EXPECT_CYCLE),
    "dag-huge-file": answered(["dag", "{dag_huge}"], stdout_is=b"a: 0\n"),
    "dag-stdin-closed": refused(["dag", "-"], "standard input is closed", stdin="closed"),
    "dag-disk-full": disk_full(["dag", "{dag_crlf}"]),
    "dag-long-answer-closed-pipe": pipe_closed(["dag", "{dag_chain_short}"]),
    "dag-endless-file": refused(["dag", "/dev/zero"], "not a regular file"),
    # hackenbush (a stalk of n is *n, cut at the ground; an odd circuit of n through the
    # ground is *1, and cutting edge j leaves stalks of j and n - 1 - j: the middle one wins)
    "hackenbush-crlf-is-text": answered(["hackenbush", "{hb_crlf}"], twins=True,
                                        stdout_is=b"value: 1\ncuts: 1:a-b\n"),
    "hackenbush-bad-token": refused(["hackenbush", "{hb_bad}"], twins=True,
                                    says="line 2, token 1 (edge 1): 'a--b' is not an edge"),
    "hackenbush-long-token-not-echoed": refused(["hackenbush", "{hb_long_token}"], twins=True,
                                                says="the first 60 of 1000000"),
    "hackenbush-empty": answered(["hackenbush", "{empty}"], twins=True,
                                 stdout_is=b"value: 0\ncuts: none\n"),
    "hackenbush-not-utf8": refused(["hackenbush", "{binary}"], "not UTF-8"),
    "hackenbush-million-edge-path": answered(["hackenbush", "{hb_path}"],
                                             stdout_is=b"value: 1000000\ncuts: 0:g-v1\n"),
    "hackenbush-million-edge-circuit": answered(
        ["hackenbush", "{hb_circuit}", "--json"], stdout_is=b'{"value": 1, "cuts": [500000]}\n'),
    "hackenbush-past-the-edge-bound": refused(["hackenbush", "{hb_too_many}"],
                                              "at most 4,194,304 edges"),
    "hackenbush-stdin-twice": refused(["hackenbush", "-", "-"], "can be read once"),
    "hackenbush-stdin-closed": refused(["hackenbush", "-"], "standard input is closed",
                                       stdin="closed"),
    "hackenbush-missing-file": io_failure(["hackenbush", "{dir}/missing.txt"], "No such file"),
    "hackenbush-endless-file": refused(["hackenbush", "/dev/zero"], "not a regular file"),
    "hackenbush-fifo": refused(["hackenbush", "{fifo}"], "not a regular file"),
    "hackenbush-past-input-limit": refused(["hackenbush", "{past_input_limit}"],
                                           "longer than 32 MB"),
    "hackenbush-disk-full": disk_full(["hackenbush", "{hb_crlf}"]),
    "hackenbush-json-disk-full": disk_full(["hackenbush", "{hb_crlf}", "--json"]),
    "hackenbush-long-answer-closed-pipe": pipe_closed(["hackenbush", "{hb_star}"]),
    "hackenbush-plot-onto-a-fifo": refused(["hackenbush", "{hb_crlf}", "--plot", "{fifo_png}"],
                                           "not a regular file"),
    "hackenbush-plot-missing-dir": io_failure(["hackenbush", "{hb_crlf}", "--plot",
                                               "{dir}/no/p.png"], "No such file"),
    "hackenbush-plot-too-many-edges": refused(["hackenbush", "{hb_path}", "--plot",
                                               "{dir}/hb.png"], "at most 2,000 edges"),
    # treblecross
    "treblecross-crlf-is-text": answered(["treblecross", "{tc_crlf}"], twins=True,
                                         stdout_is=b"WINNING\n1 2 3\nLOSING\n"),
    "treblecross-count-mismatch": refused(["treblecross", "{tc_short}"], "only 1 case follows"),
    "treblecross-bad-cell": refused(["treblecross", "{tc_bad}"], "not 'o' (at cell 3)"),
    "treblecross-already-won": refused(["treblecross", "{tc_won}"], "three X in a row"),
    "treblecross-empty": refused(["treblecross", "{empty}"], "empty input"),
    "treblecross-million-cells": answered(["treblecross", "{tc_board}"], twins=True),
    "treblecross-huge-file": refused(["treblecross", "{tc_huge}"], "three X in a row"),
    "treblecross-stdin-closed": refused(["treblecross", "-"], "standard input is closed",
                                        stdin="closed"),
    "treblecross-disk-full": disk_full(["treblecross", "{tc_crlf}"]),
    "treblecross-endless-file": refused(["treblecross", "/dev/zero"], "not a regular file"),
    # grundys
    "grundys-unicode-heap": refused(["grundys-game", "١٢"], "'١٢'"),
    "grundys-invalid-byte": refused(["grundys", b"\xff"], "'\\xff'"),
    "grundys-nothing": refused(["grundys"]),
    "grundys-no-known-period": refused(["grundys", "1" + "0" * 30], "no period is known"),
    "grundys-huge-heap": refused(["grundys", BIG], "no period is known"),
    "grundys-too-many-digits": refused(["grundys", TOO_BIG], f"at most {MAX_DIGITS}"),
    "grundys-p-positions-past-limit": refused(["grundys", "--p-positions", str(DIRECT_LIMIT)],
                                              "no period is known"),
    "grundys-disk-full": disk_full(["grundys", "5", "6", "7"], twins=True),
    # long runs (grundy and period --save/--resume)
    "grundy-resume-not-a-table": refused(["grundy", "5", "--resume", "{nim_crlf}"],
                                         "not a usable kayles table file"),
    "grundy-resume-missing": io_failure(["grundy", "5", "--resume", "{dir}/missing.table"],
                                     "No such file"),
    "grundy-save-missing-dir": io_failure(["grundy", "5", "--save", "{dir}/no/such/t.table"],
                                       "No such file"),
    "grundy-save-fifo": refused(["grundy", "5", "--save", "{fifo}", "--force"],
                                "not a regular file"),
    "grundy-resume-fifo": refused(["grundy", "5", "--resume", "{fifo}"], "not a regular file"),
    "grundy-resume-endless": refused(["grundy", "5", "--resume", "/dev/zero"],
                                     "not a regular file"),
    "grundy-save-directory": refused(["grundy", "5", "--save", "{dir}"], "is a directory"),
    "grundy-save-over-a-file": refused(["grundy", "5", "--save", "{nim_crlf}"],
                                       "exists; --force replaces it"),
    # move --misere
    "move-misere-huge-heap": refused(["move", BIG, "--game", "kayles", "--misere"],
                                     "(100000 digits) is beyond the misère search budget"),
    "move-misere-tiny-budget": refused(["move", "20", "--game", "kayles", "--misere",
                                        "--budget", "10"], "budget"),
    "move-misere-disk-full": disk_full(["move", "xxxxxxx", "--misere"], twins=True),
    # (0.07's quotient needs more states than this budget, so these reach the search's bound)
    "move-misere-2000-heaps": refused(["move", *map(str, range(1, 2001)), "--game", "0.07",
                                       "--misere", "--budget", "20000"],
                                      "more memory than its budget", twins=True),
    "move-misere-5000-heaps-of-30": refused(["move", *["30"] * 5000, "--game", "0.07",
                                             "--misere", "--budget", "20000"],
                                            "more memory than its budget", twins=True),
    "move-misere-2000-heaps-by-quotient": answered(["move", *map(str, range(1, 2001)), "--game",
                                                    "kayles", "--misere"], "heap "),
    # survey
    "survey-too-many-digits": refused(["survey", "--digits", "9"], "at most 8"),
    "survey-huge-digits": refused(["survey", "--digits", BIG], "(100000 digits)"),
    "survey-unicode-max": refused(["survey", "0.77", "--max", "١٠"], "'١٠'"),
    "survey-not-a-database": refused(["survey", "0.77", "--max", "100", "--db", "{nim_crlf}"],
                                     "not a survey database: not an SQLite file"),
    "survey-database-with-a-view": refused(["survey", "0.77", "--max", "100", "--db",
                                            "{db_with_view}"], "that kayles does not make"),
    "survey-database-with-a-trigger": refused(["survey", "0.77", "--max", "100", "--db",
                                               "{db_with_trigger}"], "that kayles does not make"),
    "survey-disk-full": disk_full(["survey", "0.77", "--max", "100", "--jobs", "1",
                                   "--db", "{dir}/full.sqlite"]),
    "survey-stdout-closed": Hostile(["survey", "0.77", "--max", "100", "--jobs", "1", "--db",
                                     "{dir}/closed.sqlite"], 1, "standard output is closed",
                                    stdout="closed"),
    # census
    "census-five-digits": refused(["census", "--digits", "5"], "--digits must be 1 to 4"),
    "census-huge-digits": refused(["census", "--digits", BIG], "--digits must be 1 to 4"),
    "census-to-below-the-first-pass": refused(["census", "--to", "1000"],
                                              "at least 65536 (the first pass)"),
    "census-past-the-memory": refused(["census", "--to", str(DIRECT_LIMIT + 1)],
                                      "values need about 768.0 MB of memory"),
    "census-plot-not-a-picture": refused(["census", "--plot", "{dir}/c.txt"],
                                         "must end in .png, .svg or .pdf"),
    "census-not-a-database": refused(["census", "--digits", "1", "--to", "65536", "--db",
                                      "{nim_crlf}"], "not a survey database: not an SQLite file"),
    # genus
    "genus-unicode": refused(["genus", "١٢"], "'١٢'"),
    "genus-huge-heap": refused(["genus", BIG], "(100000 digits) is beyond"),
    "genus-invalid-byte-game": refused(["genus", "5", "--game", b"\xff"], "'\\xff'"),
    "genus-zero-budget": refused(["genus", "5", "--budget", "0"], "budget"),
    "genus-disk-full": disk_full(["genus", "20", "--game", "kayles"], twins=True),
    # quotient
    "quotient-huge-heap": refused(["quotient", "--game", "kayles", "--max-heap", BIG],
                                  "0 to 100000"),
    "quotient-beyond-the-search": refused(["quotient", "--game", "0.6", "--max-heap", "40",
                                           "--memory", "1M"],
                                          "would pass the memory bound, 1.0 MB (--memory)"),
    "quotient-bad-memory": refused(["quotient", "--game", "0.6", "--memory", "lots"],
                                   "--memory must be a number of bytes such as 8G"),
    "quotient-over-budget": refused(["quotient", "--game", "kayles", "--max-heap", "50",
                                     "--budget", "100"], "more than 100 states; raise --states"),
    "quotient-zero-budget": refused(["quotient", "--game", "kayles", "--max-heap", "5",
                                     "--budget", "0"], "budget"),
    "quotient-disk-full": disk_full(["quotient", "--game", "kayles", "--max-heap", "3"],
                                    twins=True),
    # plot
    "plot-bad-suffix": refused(["plot", "-o", "{dir}/x.bmp"], ".png, .svg or .pdf"),
    "plot-missing-dir": io_failure(["plot", "-o", "{dir}/no/x.png", "--max", "10"],
                                "No such file"),
    "plot-huge-max": refused(["plot", "-o", "{dir}/x.png", "--max", BIG], "(100000 digits)"),
    "plot-disk-full": disk_full(["plot", "-o", "{dir}/p.png", "--max", "100"]),
    "plot-canvas-past-its-limit": refused(["plot", "-o", "{dir}/p.pdf", "--max", "16777215",
                                           "--size", "10000x10000"], "at most 16,000,000"),
    "plot-onto-a-fifo": refused(["plot", "-o", "{fifo_png}", "--max", "100"],
                                "not a regular file"),
    # play
    "play-bad-position": refused(["play", "0.5"], "only '.' and 'x'"),
    "play-row-of-a-heap-game": refused(["play", "xx", "--game", "grundy"], "heap sizes"),
    "play-huge-heap": refused(["play", BIG, "--game", "kayles"], "at most 10000"),
    "play-end-of-input": answered(["play", "xxx"], "end of input: game abandoned"),
    "play-stdin-closed": refused(["play", "xxx"], "standard input is closed", stdin="closed"),
    "play-disk-full": disk_full(["play", "xxx"]),
    "play-a-game-in-a-file": answered(["play", "--game", "{game_py}:Game", "3"],
                                      "end of input: game abandoned"),
    # solve
    "solve-unknown-game": refused(["solve", "no-such-game", "1"], "unknown game"),
    "solve-huge-heap": refused(["solve", "subtraction:1,2,3", BIG], "at most 10,000,000"),
    "solve-too-big-heap": refused(["solve", "subtraction:1,2,3", TOO_BIG], "100001 digits"),
    "solve-not-a-literal": refused(["solve", "{game_py}:Game", "(1,"], "not a Python literal"),
    "solve-nested-literal": refused(["solve", "{game_py}:Game", "(" * 100_000],
                                    "not a Python literal"),
    "solve-syntax-error": refused(["solve", "{syntax_py}:Game", "1"], "syntax.py: line 1"),
    "solve-raising-game": refused(["solve", "{raising_py}:Game", "1"],
                                  "the game's options raised RuntimeError: no"),
    "solve-a-million-deep": answered(["solve", "{game_py}:Game", "1000000"], "nimber: 0"),
    "solve-a-cycle": answered(["solve", "{loopy_py}:Game", "0"], "outcome: D"),
    "solve-disk-full": disk_full(["solve", "subtraction", "5"]),
    "solve-resume-unsigned": refused(["solve", "subtraction", "5", "--resume", "{nim_crlf}"],
                                     "not a table saved by kayles solve"),
    "solve-resume-fifo": refused(["solve", "subtraction", "5", "--resume", "{fifo}"],
                                 "not a regular file"),
    "solve-memory-zero": refused(["solve", "subtraction", "5", "--memory", "0"],
                                 "--memory must be a number of bytes"),
    # serve
    "serve-port-out-of-range": refused(["serve", "--port", "70000"], "0 to 65535"),
    "serve-port-not-a-number": refused(["serve", "--port", "http"], "'http'"),
    "serve-missing-db": io_failure(["serve", "--db", "{dir}/missing.sqlite"], "No such file"),
    "serve-db-fifo": refused(["serve", "--db", "{fifo}"], "not a regular file"),
    "serve-seconds-zero": refused(["serve", "--seconds", "0"], "above 0"),
    "serve-seconds-nan": refused(["serve", "--seconds", "nan"], "above 0"),
    "glossary-unknown-term": refused(["glossary", "no-such-term"], "no term"),
    "glossary-two-terms": refused(["glossary", "mex", "rare"],
                                  "kayles glossary: error: unrecognized arguments"),
    "move-misere-past-budget": refused(["move", "30", "29", "--game", "kayles", "--misere",
                                        "--budget", "100"], "a larger --budget (now 100)"),
    "genus-past-budget": refused(["genus", "40", "--budget", "100"], "a larger --budget"),
    "genus-misere": refused(["genus", "5", "--misere"],
                            "kayles genus: error: unrecognized arguments: --misere"),
    "save-empty-name": refused(["grundy", "10", "--save", ""], "--save: an empty file name"),
    "resume-empty-name": refused(["grundy", "10", "--resume", ""], "an empty file name"),
    "survey-db-empty-name": refused(["survey", "0.77", "--db", ""], "an empty file name"),
    "run-dir-empty-name": refused(["run", ".167", "--dir", ""], "an empty file name"),
    # run
    "run-bad-to": refused(["run", ".167", "--to", "1x", "--dir", "{dir}/run"], "'1x'"),
    "run-huge-to": refused(["run", ".167", "--to", BIG, "--dir", "{dir}/run"],
                           "(100000 digits)"),
    "run-huge-power": refused(["run", ".167", "--to", "2**47", "--dir", "{dir}/run"],
                              "1 to 2**46"),
    "run-bad-code": refused(["run", ".W", "--to", "100", "--dir", "{dir}/run"], "not a digit"),
    "run-hex-code": refused(["run", ".9", "--to", "100", "--dir", "{dir}/run"], "octal games"),
    "run-small-window": refused(["run", ".167", "--to", "100", "--dir", "{dir}/run",
                                 "--window", "3"], "--window must be"),
    "run-dir-is-a-file": refused(["run", ".167", "--to", "100", "--dir", "{nim_crlf}"],
                                 "not a folder"),
    "run-db-fifo": refused(["run", ".167", "--to", "100", "--dir", "{dir}/run-fifo",
                            "--db", "{fifo}"], "not a regular file"),
    "run-disk-full": disk_full(["run", ".167", "--to", "2**12", "--dir", "{dir}/run-full"],
                               twins=True),
    # (2**24: the run still has records to write when the reader closes, whatever the load;
    # to 2**12 it could write all twelve into the pipe and end first)
    "run-pipe-closed": pipe_closed(["run", ".167", "--to", "2**24", "--dir",
                                    "{dir}/run-closed"]),
    # files that are no files of data, and variables that name them (issue 64)
    "survey-db-kernel-file": refused(["survey", "0.77", "--max", "100", "--db",
                                      "/proc/self/status"], "a file of the kernel's (under /proc)"),
    "census-stored-db-kernel-file": refused(["census", "--stored", "--db", "/proc/version"],
                                            "a file of the kernel's (under /proc)"),
    "survey-db-device": refused(["survey", "0.77", "--max", "100", "--db", "/dev/null"],
                                "/dev/null: a character device, not a regular file"),
    "census-stored-db-device": refused(["census", "--stored", "--db", "/dev/zero"],
                                       "/dev/zero: a character device, not a regular file"),
    "survey-db-directory": refused(["survey", "0.77", "--max", "100", "--db", "{dir}"],
                                   "is a directory"),
    "survey-db-in-a-kernel-folder": io_failure(["survey", "0.77", "--max", "100", "--db",
                                                "/proc/self/s.sqlite"],
                                               "/proc/self/s.sqlite: in a folder of the kernel's"),
    "run-show-db-kernel-file": refused(["run", ".167", "--show", "--db", "/proc/version"],
                                       "a file of the kernel's (under /proc)"),
    "run-dir-kernel-folder": io_failure(["run", ".167", "--to", "100", "--dir", "/proc/self",
                                         "--db", "{dir}/run-proc.sqlite"],
                                        "in a folder of the kernel's (under /proc)"),
    "run-dir-device": refused(["run", ".167", "--to", "100", "--dir", "/dev/null"],
                              "/dev/null: a character device, not a folder"),
    "grundy-save-kernel-file": refused(["grundy", "5", "--save", "/proc/self/status",
                                        "--force"], "a file of the kernel's (under /proc)"),
    "grundy-save-in-a-kernel-folder": io_failure(["grundy", "5", "--save", "/proc/self/t.table"],
                                                 "in a folder of the kernel's (under /proc)"),
    "grundy-resume-kernel-file": refused(["grundy", "5", "--resume", "/proc/version"],
                                         "a file of the kernel's (under /proc)"),
    "nim-kernel-file": refused(["nim", "/proc/version"], "a file of the kernel's (under /proc)"),
    "dag-kernel-file": refused(["dag", "/proc/version"], "a file of the kernel's (under /proc)"),
    "treblecross-kernel-file": refused(["treblecross", "/proc/self/status"],
                                       "a file of the kernel's (under /proc)"),
    "serve-db-kernel-file": refused(["serve", "--db", "/proc/version"],
                                    "a file of the kernel's (under /proc)"),
    "grundy-save-data-home-a-file": refused(
        ["grundy", "5", "--save", "{dir}/key.table"], "nim_crlf': a file, not a folder (kayles "
        "keeps its signing key in $XDG_DATA_HOME", env=(("XDG_DATA_HOME", "{nim_crlf}"),)),
    "run-data-home-kernel-file": refused(
        ["run", ".167", "--to", "100", "--dir", "{dir}/run-key", "--db", "{dir}/run-key.sqlite"],
        "XDG_DATA_HOME is '/proc/version': a file of the kernel's (under /proc), not a folder",
        env=(("XDG_DATA_HOME", "/proc/version"),)),
    "survey-cache-home-a-device": refused(
        ["survey", "0.77", "--max", "100"], "XDG_CACHE_HOME is '/dev/null': a character "
        "device, not a folder", env=(("XDG_CACHE_HOME", "/dev/null"),)),
    "census-stored-home-a-file": refused(
        ["census", "--stored"], "nim_crlf': a file, not a folder (the survey database is "
        "$HOME/.cache", env=(("XDG_CACHE_HOME", None), ("HOME", "{nim_crlf}"))),
    # Kayles-xox
    "xox-bad-number": xox(refused(["grundy", "1e3"], "'1e3'")),
    "xox-unicode-digits": xox(refused(["grundy", "١٢"], "'١٢'")),
    "xox-invalid-byte": xox(refused([b"x\xff"], "'\\xff'")),
    "xox-invalid-byte-number": xox(refused(["grundy", b"\xff"], "'\\xff'")),
    "xox-too-many-digits": xox(refused(["grundy", TOO_BIG], f"at most {MAX_DIGITS}")),
    "xox-huge-n-full-disk": xox(disk_full(["grundy", BIG])),
    "xox-disk-full": xox(disk_full(["grundy", "1000"])),
    "xox-huge-n-closed-pipe": xox(pipe_closed(["grundy", BIG])),
    "xox-position-disk-full": xox(disk_full(["xx.xxx"], twins=True)),
    "xox-help-disk-full": xox(disk_full(["--help"])),
    "xox-stdout-closed": xox(Hostile(["xx"], 1, "standard output is closed", stdout="closed")),
    "xox-bad-position-stderr-closed": xox(refused(["y"], stderr="closed")),
    "xox-stdin-closed": xox(answered(["x"], stdin="closed", stdout_is=b".\n")),
    "xox-long-row": xox(answered(["x" * 10**5])),
    "xox-position-stdin-closed": xox(refused(["-"], "standard input is closed", stdin="closed")),
    "xox-position-stdin-empty": xox(answered(["-"], stdout_is=b"LOSS\n")),  # the empty row
}


# -- running ----------------------------------------------------------------------------------


def _child_setup(close: tuple[int, ...]):
    def setup() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        for fd in close:
            os.close(fd)

    return setup


def _env(pure: bool, row: Hostile, paths: dict[str, str]) -> dict[str, str]:
    env = dict(os.environ)
    for name, value in row.env:
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value.format(**paths)
    env.pop("KAYLES_PURE", None)
    env.pop("KAYLES_REQUIRE_NATIVE", None)
    if pure:
        env["KAYLES_PURE"] = "1"
    elif any((ROOT / "kayles" / "kernels").glob("_core*.so")):
        env["KAYLES_REQUIRE_NATIVE"] = "1"  # compiled rows never fall back silently
    return env


def _argv(row: Hostile, paths: dict[str, str]) -> list:
    return [*row.exe, *(arg.format(**paths) if isinstance(arg, str) else arg for arg in row.argv)]


def run_row(row: Hostile, paths: dict[str, str], pure: bool = False):
    """Run one row: (status, stdout, stderr); a row still running after DEADLINE (stuck,
    or a machine slower than any seen) is that row's failure alone, never the fixture's."""
    try:
        return _run_row(row, paths, pure)
    except subprocess.TimeoutExpired as stuck:
        return STUCK, b"", f"still running after {stuck.timeout} s".encode()


def _run_row(row: Hostile, paths: dict[str, str], pure: bool):
    close = (0,) if row.stdin == "closed" else ()
    close += (1,) if row.stdout == "closed" else ()
    close += (2,) if row.stderr == "closed" else ()
    if row.stdout == "reader-closes":
        return _read_then_close(row, paths, pure, close)
    with open(os.devnull, "rb") as devnull, open("/dev/full", "wb") as full:
        result = subprocess.run(
            _argv(row, paths), stdin=devnull, stderr=subprocess.PIPE,
            stdout=full if row.stdout == "full" else subprocess.PIPE,
            preexec_fn=_child_setup(close), env=_env(pure, row, paths), cwd=ROOT,
            timeout=DEADLINE,
        )
    return result.returncode, result.stdout or b"", result.stderr


def _read_then_close(row: Hostile, paths: dict[str, str], pure: bool, close: tuple):
    with subprocess.Popen(_argv(row, paths), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, preexec_fn=_child_setup(close),
                          env=_env(pure, row, paths), cwd=ROOT) as proc:
        try:
            proc.stdout.read(20)
            proc.stdout.close()
            err = proc.stderr.read()
            status = proc.wait(timeout=DEADLINE)
        finally:
            if proc.poll() is None:
                proc.kill()
    return status, b"", err


def cases(table: dict[str, Hostile]) -> dict[str, tuple[Hostile, bool]]:
    """Every run: each row on the compiled core, the twins rows on the pure one too."""
    runs = {}
    for name, row in table.items():
        runs[name] = (row, False)
        if row.twins:
            runs[name + "[pure]"] = (row, True)
    return runs


RUNS = cases(HOSTILE)


@pytest.fixture(scope="module")
def paths(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("hostile")
    out = {"dir": str(folder)}
    for name, make in SPECIAL_FILES.items():
        path = folder / name.replace("_png", ".png")
        make(path)
        out[name] = str(path)
    for name, content in FILES.items():
        path = folder / (name[:-3] + ".py" if name.endswith("_py") else name)
        if isinstance(content, str):
            path.write_bytes(content.encode("utf-8"))
        else:
            path.write_bytes(content)
        out[name] = str(path)
    return out


@pytest.fixture(scope="module")
def outcomes(paths) -> dict:
    """All rows at once, a few children at a time (most of each run is start-up)."""
    names = list(RUNS)
    pure_dir = Path(paths["dir"]) / "pure"  # the pure twin of a row writes apart: both run at once
    pure_dir.mkdir()
    pure_paths = {**paths, "dir": str(pure_dir)}

    def run(name: str):
        row, pure = RUNS[name]
        return run_row(row, pure_paths if pure else paths, pure)

    with ThreadPoolExecutor(WORKERS) as pool:
        return dict(zip(names, pool.map(run, names)))


def check(row: Hostile, status: int, stdout: bytes, stderr: bytes) -> None:
    err = stderr.decode("utf-8", "replace")
    if row.stderr == "closed":
        assert (status, stdout) == (row.status, row.stdout_is if status == 0 else b"")
        return
    assert "Traceback" not in err and "MemoryError" not in err, err[-2000:]
    assert "out of memory" not in err, f"needed more than {MEMORY_LIMIT} bytes"
    assert status == row.status, (status, err[-2000:], stdout[:200])
    if status == 141:
        assert err == ""
        return
    if status == 0:
        assert err == ""
        if row.stdout_is is not None:
            assert stdout == row.stdout_is, stdout[:200]
        assert row.says.encode() in stdout, stdout[:200]
        return
    assert stdout == b""
    assert err.endswith("\n") and err.count("\n") == 1, err[:2000]
    assert len(err) < 1000, err[:2000]  # one readable line, whatever the input's size
    assert row.says in err, err


@pytest.mark.parametrize("name", list(RUNS))
def test_hostile(name, outcomes):
    check(RUNS[name][0], *outcomes[name])


def test_every_subcommand_has_rows():
    """A new subcommand of ``kayles`` needs rows here (or in the lead's merged table)."""
    from kayles.interface.kayles_cli import build_parser

    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    covered = {row.argv[0] for row in HOSTILE.values() if row.exe == tuple(KAYLES)}
    assert set(sub.choices) <= covered, set(sub.choices) - covered


@pytest.fixture
def short_proof_search(monkeypatch):
    import kayles.engine.sequence

    monkeypatch.setattr(kayles.engine.sequence, "PROOF_LIMIT", 4096)


def test_a_failed_proof_search_is_said_and_not_repeated(kernel, short_proof_search):
    from kayles.engine.rules import parse_octal
    from kayles.engine.sequence import Sequence, direct_limit

    sequence = Sequence(parse_octal("0.6"), kernel=kernel)
    LIMIT = direct_limit()  # no period known (Guy, WW)
    for _ in range(2):
        with pytest.raises(ValueError, match="0.6: no period was found within 4096 values"):
            sequence.nimber(LIMIT + 5)
        assert len(sequence) == 4096  # the second refusal computed nothing more


def test_an_unprovable_game_is_refused_before_computing(kernel):
    from kayles.engine.rules import GAMES
    from kayles.engine.sequence import Sequence, direct_limit

    sequence = Sequence(GAMES["grundy"], kernel=kernel)
    LIMIT = direct_limit()
    with pytest.raises(ValueError, match="grundy: no period is known"):
        sequence.nimber(LIMIT)
    assert len(sequence) == 0


@pytest.mark.parametrize("span", [65, 1000])
def test_kernels_refuse_a_move_wider_than_64(kernel, span):
    table = memoryview(bytearray(2 * 16)).cast("H")
    for extend in (kernel.extend_plain, kernel.extend_sparse):
        with pytest.raises(ValueError, match="a move spans at most 64 tokens"):
            extend(table, 0, 16, ((span, (), 1, False),))


def test_shown_quotes_as_typed_and_cuts_long_text():
    from kayles.errors import shown

    assert shown("1\udcff") == "'1\\xff'"
    assert shown("١٢") == "'١٢'"
    assert shown("y" * 61) == "'" + "y" * 60 + "' (the first 60 of 61 characters)"


def test_the_rows_run_the_files_they_name():
    named = {part.split("}")[0] for row in HOSTILE.values() for arg in row.argv
             if isinstance(arg, str) for part in arg.split("{")[1:]}
    assert named <= set(FILES) | set(SPECIAL_FILES) | {"dir"}


@given(st.text(st.characters(codec="utf-8") | st.sampled_from("0123456789\udcff\r\n"),
               max_size=30))
def test_any_text_is_a_number_or_one_line_of_refusal(text):
    from kayles.analysis.heaps import parse_heaps
    from kayles.interface._frontend import parse_natural

    for parse in (parse_natural, parse_heaps):
        try:
            value = parse(text)
        except ValueError as exc:
            message = str(exc)
            assert "\n" not in message and "\\udc" not in message
        else:
            words = text.replace(",", " ").split() if parse is parse_heaps else [text]
            assert value == (int(words[0]) if parse is parse_natural else list(map(int, words)))
            assert all(w.isascii() and w.isdigit() for w in words)
