"""The ``kayles`` command (``python -m kayles`` and the console script), end to end.

The contract is issue 3: ``grundy``, ``period``, ``move`` and ``games`` for named games
and octal codes, one stderr line and exit status 2 for any bad input, no progress
output when stderr is not a terminal.  Expected values come from tests/oracle.py
(brute force from the rules) or from the published literature, never from the package.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import oracle
from conftest import (
    ROOT,
    assert_usage_error,
    in_process,
    listing,
    load_kernel,
    on_a_terminal,
    read_prefix_then_close,
)

TIMEOUT = 120
WORKERS = max(2, os.cpu_count() or 2)
# The console script pip installed beside the interpreter running the tests.
CONSOLE_SCRIPT = Path(sys.executable).with_name("kayles")

# OEIS prefixes quoted in issue 3 (published facts, not computed by the package).
A002186_KAYLES = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7]
A002188_GRUNDYS_GAME = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3]

NAMED_GAMES = ["kayles-xox", "kayles", "dawsons-kayles", "dawsons-chess", "treblecross", "grundy"]


# -- helpers ---------------------------------------------------------------------------------


def kayles(*args, stderr=subprocess.PIPE, exe=None) -> subprocess.CompletedProcess:
    """The command's answer: in this process (what it says), or a real process where the
    test needs one (the console script, stderr sent elsewhere)."""
    if exe is None and stderr is subprocess.PIPE:
        return in_process("kayles", args)
    command = [sys.executable, "-m", "kayles"] if exe is None else [str(exe)]
    return subprocess.run(
        [*command, *args], stdout=subprocess.PIPE, stderr=stderr, cwd=ROOT, timeout=TIMEOUT
    )


def kayles_many(arg_lists) -> list[subprocess.CompletedProcess]:
    return [kayles(*args) for args in arg_lists]


def ok_stdout(result: subprocess.CompletedProcess) -> str:
    err = result.stderr.decode("utf-8", "replace")
    assert (result.returncode, err) == (0, ""), err
    return result.stdout.decode()


def ok_json(result: subprocess.CompletedProcess):
    text = ok_stdout(result)
    assert text.endswith("\n") and text.count("\n") == 1
    return json.loads(text)


# -- grundy N --------------------------------------------------------------------------------

N = 40

GRUNDY_CASES = {
    "default-is-kayles-xox": ([], oracle.xox_nimbers_by_sum),
    "kayles-xox": (["--game", "kayles-xox"], oracle.xox_nimbers_by_sum),
    "kayles": (["--game", "kayles"], lambda n: oracle.octal_nimbers("0.77", n)),
    "0.77": (["--game", "0.77"], lambda n: oracle.octal_nimbers("0.77", n)),
    "0.07": (["--game", "0.07"], lambda n: oracle.octal_nimbers("0.07", n)),
    "dawsons-kayles": (["--game", "dawsons-kayles"], lambda n: oracle.octal_nimbers("0.07", n)),
    ".137": (["--game", ".137"], lambda n: oracle.octal_nimbers("0.137", n)),
    "dawsons-chess": (["--game", "dawsons-chess"], lambda n: oracle.octal_nimbers("0.137", n)),
    "treblecross": (["--game", "treblecross"], lambda n: oracle.octal_nimbers("0.007", n)),
    "4.07": (["--game", "4.07"], lambda n: oracle.octal_nimbers("4.07", n)),
    "0.4": (["--game", "0.4"], lambda n: oracle.octal_nimbers("0.4", n)),
    "grundy": (["--game", "grundy"], oracle.grundys_game_nimbers),
    "short-option": (["-g", "kayles"], lambda n: oracle.octal_nimbers("0.77", n)),
}


@pytest.mark.parametrize("case", list(GRUNDY_CASES.values()), ids=list(GRUNDY_CASES))
def test_grundy_matches_oracle(case):
    options, reference = case
    result = kayles("grundy", str(N), *options)
    assert (result.returncode, result.stderr, result.stdout) == (0, b"", listing(reference(N)))


def test_grundy_agrees_with_published_prefixes():
    kayles_values = json.loads(ok_stdout(kayles("grundy", "15", "--game", "kayles")))
    grundy_values = json.loads(ok_stdout(kayles("grundy", "19", "--game", "grundy")))
    assert (kayles_values, grundy_values) == (A002186_KAYLES, A002188_GRUNDYS_GAME)


def test_grundy_on_threads_prints_the_same_values():
    """A crew runs from heap 4,096 (ext/_core.pyx); --threads 1, 2 and the default agree,
    and a count past the kernel's limit is refused in one line."""
    outputs = {ok_stdout(kayles("grundy", "20000", "--game", "0.014", *threads))
               for threads in ([], ["--threads", "1"], ["--threads", "2"])}
    assert len(outputs) == 1
    sums = {ok_stdout(kayles("period", "--game", "0.161", "--max", "20000", "--json",
                             "--threads", threads)) for threads in ("1", "2")}
    assert len(sums) == 1
    for bad in ("0", "65", "two", "-1"):
        assert_usage_error(kayles("grundy", "10", "--threads", bad))


def test_grundy_zero():
    assert ok_stdout(kayles("grundy", "0", "--game", "kayles")) == "[0]\n"


def test_console_script_matches_python_dash_m():
    assert CONSOLE_SCRIPT.exists(), f"no console script at {CONSOLE_SCRIPT}"
    script = kayles("grundy", "30", "--game", "0.07", exe=CONSOLE_SCRIPT)
    assert ok_stdout(script) == listing(oracle.octal_nimbers("0.07", 30)).decode()
    assert ok_stdout(kayles("--version", exe=CONSOLE_SCRIPT)).strip()


def test_grundy_of_a_proved_game_streams_any_n_into_a_closed_pipe():
    prefix, status, err = read_prefix_then_close(
        [sys.executable, "-m", "kayles", "grundy", "1" + "0" * 30, "--game", "kayles"]
    )
    assert prefix == listing(oracle.octal_nimbers("0.77", 10))[:20]
    assert status in (0, 141, -signal.SIGPIPE)
    assert err == b""


# -- period ----------------------------------------------------------------------------------

# (game, octal code, widest move t, period, preperiod): published facts (issue 3).
PUBLISHED_PERIODS = [
    ("kayles", "0.77", 2, 12, 71),
    ("0.77", "0.77", 2, 12, 71),
    ("dawsons-kayles", "0.07", 2, 34, 53),
    ("0.07", "0.07", 2, 34, 53),
    ("0.137", "0.137", 3, 34, 52),
    ("dawsons-chess", "0.137", 3, 34, 52),
    # 0.4 (take a pin from the middle) is Dawson's Kayles shifted by one heap size: it
    # starts with zeros, so a missing max(n0, 1) guard could claim a period too early.
    ("0.4", "0.4", 1, 34, 54),
]


@pytest.mark.parametrize(
    ("game", "code", "t", "period", "preperiod"),
    PUBLISHED_PERIODS,
    ids=[case[0] for case in PUBLISHED_PERIODS],
)
def test_period_json_matches_the_literature(game, code, t, period, preperiod):
    report = ok_json(kayles("period", "--game", game, "--json"))
    assert {"game", "proved", "preperiod", "period", "values"} <= set(report)
    assert report["game"] in (game, code)
    assert report["proved"] is True
    assert (report["period"], report["preperiod"]) == (period, preperiod)
    values = report["values"]
    assert isinstance(values, int)
    # The periodicity theorem needs G(n + p) == G(n) for n0 <= n <= 2*n0 + p + t - 2,
    # i.e. at least this many values; a "proof" from fewer values is no proof.
    assert values >= 2 * max(preperiod, 1) + 2 * period + t - 1
    # And the oracle's sequence really has that least period and least preperiod.
    g = oracle.octal_nimbers(code, values + 2 * period)
    assert all(g[n] == g[n + period] for n in range(preperiod, len(g) - period))
    assert g[preperiod - 1] != g[preperiod - 1 + period]
    for shorter in range(1, period):
        assert any(g[n] != g[n + shorter] for n in range(preperiod, preperiod + period))




def test_grundy_as_a_b_file_and_as_csv():
    """--format b-file: 'n G(n)' lines (OEIS b-files); csv: a header, then 'n,G(n)' rows;
    both against the oracle, past a proved period too (Kayles to 300, 0.A8's saltus)."""
    lines = ok_stdout(kayles("grundy", "300", "--game", "kayles", "--format", "b-file"))
    assert lines == "".join(f"{n} {g}\n" for n, g in enumerate(oracle.octal_nimbers("0.77", 300)))
    g = oracle.TakeBreak({1: {1: "", 3: ""}, 2: {3: ""}}).nimbers(40)  # 0.A8
    far = [g[n] if n <= 4 else g[1 + (n - 1) % 4] + 2 * ((n - 1) // 4) for n in range(2001)]
    assert far[:41] == g
    rows = ok_stdout(kayles("grundy", "2000", "--game", "0.A8", "--format", "csv"))
    assert rows == "n,G\n" + "".join(f"{n},{v}\n" for n, v in enumerate(far))


def test_a_period_not_proved_says_how_far_to_try():
    """.354's period needs about 20 million values: past 2**20 (the default) the advice is
    2**25, 32 times more (an octal code's time grows about linearly); a take-and-break code
    is advised 4 times more (its kernel is cubic)."""
    text = ok_stdout(kayles("period", "--game", ".354"))
    assert text == ("0.354: no period proved within 1048576 values; a larger --to may prove "
                    "one (--to 2**25)\n")
    text = ok_stdout(kayles("period", "--game", "0.9", "--to", "1024"))
    assert "no period proved within 1024 values; a larger --to may prove one (--to 2**12)" \
        in text
    text = ok_stdout(kayles("period", "--game", "0.9", "--to", "0"))
    assert text.endswith("a larger --to may prove one (--to 2**10)\n"), text


@pytest.mark.parametrize("code, why", [
    ("0.3F", "theorem A needs a saltus that is a power of two, and 3 is not"),
    ("0.C9", "theorem A needs the values before the second period below the saltus (its H0), "
             "and G(4) = 2 is not below 2"),
])
def test_a_regularity_no_theorem_here_proves_says_why_not_to_try_further(code, why):
    """0.3F shows G(n + 6) = G(n) + 3 and 0.C9 G(n + 3) = G(n) + 2 (their first values from
    a brute-force oracle): theorem A cannot prove either from any number of values, so no
    larger --to is advised, and the hypothesis that fails is named."""
    digits = {"0.3F": {1: {0: "", 1: ""}, 2: {0: "", 1: "", 2: "", 3: ""}},
              "0.C9": {1: {2: "", 3: ""}, 2: {0: "", 3: ""}}}[code]
    g = oracle.TakeBreak(digits).nimbers(60)
    p, s, n0 = {"0.3F": (6, 3, 0), "0.C9": (3, 2, 3)}[code]
    assert all(g[n + p] == g[n] + s for n in range(n0, 60 - p))
    text = ok_stdout(kayles("period", "--game", code, "--to", "4096"))
    first = text.splitlines()[0]
    assert first.startswith(f"{code}: no period proved within 4096 values; no --to will prove "
                            "the regularity observed here: " + why), text
    assert "a larger --to" not in text
    report = json.loads(ok_stdout(kayles("period", "--game", code, "--to", "4096", "--json")))
    assert report["unprovable"].startswith(why) and report["observed"]["saltus"] == s


def test_a_take_and_break_run_past_the_memory_is_refused_at_once_naming_what_fits(
        monkeypatch):
    """0.3F's values grow as n / 2 and its rows as n times that: 2**22 values would pass
    16 bits near heap 131,070, 2**16 need some 1.3 GB; each refused before any work past
    the first 4,096 values, with the most values that fit (KAYLES_MEMORY set: what Linux
    calls available varies)."""
    monkeypatch.setenv("KAYLES_MEMORY", "64G")
    result = kayles("period", "--game", "0.3F", "--to", "2**22")
    assert_usage_error(result)
    err = result.stderr.decode()
    assert "its values would pass 65,535" in err and "at most 131,070 fit" in err, err
    monkeypatch.setenv("KAYLES_MEMORY", "1G")
    result = kayles("grundy", "65535", "--game", "0.3F")
    assert_usage_error(result)
    err = result.stderr.decode()
    assert re.search(r"65536 values of 0\.3F: it needs about 1\.[0-9] GB of memory .*"
                     r"KAYLES_MEMORY is 1\.0 GB .*; at most 6[0-9],[0-9]{3} fit", err), err


def test_period_text_mentions_the_period():
    text = ok_stdout(kayles("period", "--game", "kayles"))
    assert text.endswith("\n") and text.count("\n") == 1
    assert "period" in text and re.search(r"\b12\b", text) and re.search(r"\b71\b", text)


# Games whose sequence starts with a run of zeros: a period must not be claimed from a
# short table (the max(n0, 1) guard of issue 3).
NOT_PROVED = {
    "0.004-max-5000": ["--game", "0.004", "--max", "5000"],
    "0.04-max-3000": ["--game", "0.04", "--max", "3000"],
}


@pytest.mark.parametrize("options", list(NOT_PROVED.values()), ids=list(NOT_PROVED))
def test_no_period_claimed_from_a_short_table(options):
    report = ok_json(kayles("period", *options, "--json"))
    assert report["proved"] is False
    assert report["period"] is None and report["preperiod"] is None
    limit = int(options[options.index("--max") + 1])
    assert isinstance(report["values"], int) and report["values"] <= limit
    text = ok_stdout(kayles("period", *options))
    assert not re.search(r"period \d", text)
    assert "no" in text.lower()


def take_from_middle(t: int) -> str:
    """The octal code whose only move takes t adjacent pins, leaving two non-empty heaps."""
    return "0." + "0" * (t - 1) + "4"


@pytest.mark.parametrize("t", [60, 61, 62, 63])
def test_no_period_claimed_from_a_table_of_zeros(t):
    # G(n) = 0 for n < t + 2 and G(t + 2) = 1: a table of the first 64 values can be all
    # zeros, and "period 1 from heap 0" then needs max(n0, 1) in the bound to be refused.
    code = take_from_middle(t)
    reference = oracle.octal_nimbers(code, 70)
    assert reference[: t + 2] == [0] * (t + 2) and reference[t + 2] == 1
    assert ok_stdout(kayles("grundy", "70", "--game", code)).encode() == listing(reference)
    report = ok_json(kayles("period", "--game", code, "--max", "64", "--json"))
    if report["proved"]:  # any claim must hold on the oracle's sequence
        n0, p = report["preperiod"], report["period"]
        assert all(reference[n] == reference[n + p] for n in range(n0, len(reference) - p))


def test_period_of_grundys_game_is_not_claimed():
    report = ok_json(kayles("period", "--game", "grundy", "--json"))
    assert report["proved"] is False
    assert report["period"] is None and report["preperiod"] is None
    text = ok_stdout(kayles("period", "--game", "grundy")).lower()
    assert not re.search(r"period \d", text)
    assert "no" in text or "not" in text


# -- move ------------------------------------------------------------------------------------


def move_text(move: str | None) -> bytes:
    return ("LOSS" if move is None else move).encode() + b"\n"


def sample_rows(seed: int) -> list[str]:
    rng = random.Random(seed)
    rows = ["".join(p) for k in range(5) for p in itertools.product(".x", repeat=k)]
    rows += ["".join(rng.choice("xxx.") for _ in range(rng.randint(5, 14))) for _ in range(12)]
    return rows


@pytest.mark.parametrize(("game", "code"), [("kayles", "0.77"), ("0.07", "0.07")])
def test_move_on_rows_matches_oracle(game, code):
    rows = sample_rows(seed=len(code))
    row_game = oracle.octal_row_game(code)
    results = kayles_many([["move", row, "--game", game] for row in rows])
    wrong = [
        (row, r.returncode, r.stdout, r.stderr)
        for row, r in zip(rows, results)
        if (r.returncode, r.stderr, r.stdout) != (0, b"", move_text(row_game.winning_move(row)))
    ]
    assert not wrong, f"{len(wrong)} of {len(rows)} rows wrong, e.g. {wrong[:5]}"


def test_move_default_game_is_kayles_xox():
    rows = ["xx.x", ".x", "xxx.x.xxxx", "xxxxxxx.xxxxxxxx..xxxxxxxx."]
    results = kayles_many([["move", row] for row in rows])
    for row, result in zip(rows, results):
        assert ok_stdout(result).encode() == move_text(oracle.KAYLES_XOX.winning_move(row))


@pytest.mark.parametrize("row", ["xx.x", "xxxx", "x.x"])
def test_move_json_on_a_row(row):
    report = ok_json(kayles("move", row, "--game", "kayles", "--json"))
    assert report["move"] == oracle.octal_row_game("0.77").winning_move(row)


@pytest.mark.parametrize(("game", "code"), [("kayles", "0.77"), ("dawsons-kayles", "0.07")])
def test_heap_lists_on_row_games_make_the_row_move(game, code):
    """A row is a list of heaps: the same position as heap sizes gets the same move."""
    rng = random.Random(len(code))
    positions = [[rng.randint(0, 9) for _ in range(rng.randint(1, 4))] for _ in range(16)]
    results = kayles_many([["move", *map(str, heaps), "--game", game] for heaps in positions])
    row_game = oracle.octal_row_game(code)
    for heaps, result in zip(positions, results):
        text = ok_stdout(result)
        after = row_game.winning_move(".".join("x" * h for h in heaps))
        if after is None:
            assert text == "LOSS\n"
            continue
        match = HEAP_LINE.fullmatch(text)
        assert match, text
        index, size = int(match[1]) - 1, int(match[2])
        parts = [] if match[3] == "nothing" else [int(p) for p in match[3].split(" + ")]
        assert size == heaps[index]
        new_heaps = [h for h in heaps[:index] + parts + heaps[index + 1:] if h]
        assert new_heaps == [size for _, size in oracle.runs(after)], (heaps, after, text)


HEAP_LINE = re.compile(r"heap (\d+): (\d+) -> (.+)\n")


def check_heap_move(text: str, heaps: list[int], legal_parts, nimbers: list[int]) -> None:
    match = HEAP_LINE.fullmatch(text)
    assert match, repr(text)
    index, size = int(match[1]) - 1, int(match[2])
    parts = [int(word) for word in match[3].split(" + ")] if match[3] != "nothing" else []
    assert 0 <= index < len(heaps) and heaps[index] == size
    assert legal_parts(size, parts), (size, parts)
    after = heaps[:index] + parts + heaps[index + 1 :]
    assert nim_sum(after, nimbers) == 0, (heaps, after)


def nim_sum(heaps: list[int], nimbers: list[int]) -> int:
    total = 0
    for h in heaps:
        total ^= nimbers[h]
    return total


def grundy_split(size: int, parts: list[int]) -> bool:
    return len(parts) == 2 and min(parts) > 0 and parts[0] != parts[1] and sum(parts) == size


def split_or_take_two(size: int, parts: list[int]) -> bool:
    """4.07: split a heap in two non-empty heaps, or take 2 leaving 0, 1 or 2 heaps."""
    split = len(parts) == 2 and min(parts) > 0 and sum(parts) == size
    take = len(parts) <= 2 and all(p > 0 for p in parts) and sum(parts) == size - 2
    return split or take


@pytest.mark.parametrize(
    "heaps", [[5, 7], [1, 2, 3], [11], [9, 4, 8], [19], [13, 8], [0, 5], [30, 1, 17]]
)
def test_grundys_game_move_is_legal_and_wins(heaps):
    nimbers = oracle.grundys_game_nimbers(max(heaps))
    assert nim_sum(heaps, nimbers) != 0, "choose N-positions for this test"
    result = kayles("move", *map(str, heaps), "--game", "grundy")
    check_heap_move(ok_stdout(result), heaps, grundy_split, nimbers)


@pytest.mark.parametrize("heaps", [[7], [5, 6, 7], [11, 2]])
def test_octal_split_game_move_is_legal_and_wins(heaps):
    nimbers = oracle.octal_nimbers("4.07", max(heaps))
    assert nim_sum(heaps, nimbers) != 0, "choose N-positions for this test"
    result = kayles("move", *map(str, heaps), "--game", "4.07")
    check_heap_move(ok_stdout(result), heaps, split_or_take_two, nimbers)


@pytest.mark.parametrize("heaps", [[0], [1], [2], [4], [3, 3], [1, 2], [7, 7, 1]])
def test_grundys_game_p_position_is_loss(heaps):
    nimbers = oracle.grundys_game_nimbers(max(heaps))
    assert nim_sum(heaps, nimbers) == 0, "choose P-positions for this test"
    assert ok_stdout(kayles("move", *map(str, heaps), "--game", "grundy")) == "LOSS\n"


def test_grundys_game_move_json():
    heaps = [5, 7]
    report = ok_json(kayles("move", "5", "7", "--game", "grundy", "--json"))
    move = report["move"]
    index = move["heap"] - 1
    assert heaps[index] == move["size"] and grundy_split(move["size"], move["becomes"])
    assert move["position"] == heaps[:index] + move["becomes"] + heaps[index + 1 :]
    assert nim_sum(move["position"], oracle.grundys_game_nimbers(7)) == 0
    loss = ok_json(kayles("move", "3", "3", "--game", "grundy", "--json"))
    assert loss["move"] is None


# -- games -----------------------------------------------------------------------------------


def test_games_lists_every_named_game():
    text = ok_stdout(kayles("games"))
    listed = {line.split()[0] for line in text.splitlines() if line and not line[0].isspace()}
    assert set(NAMED_GAMES) <= listed


def test_games_json():
    games = ok_json(kayles("games", "--json"))
    assert isinstance(games, list)
    assert set(NAMED_GAMES) <= {game["name"] for game in games}


# -- bad input -------------------------------------------------------------------------------

BAD_INPUTS = {
    "unknown-subcommand": ["frobnicate"],
    "unknown-option": ["--bogus"],
    "grundy-without-n": ["grundy"],
    "grundy-negative": ["grundy", "-1"],
    "grundy-word": ["grundy", "x"],
    "grundy-fraction": ["grundy", "1.5"],
    "grundy-empty": ["grundy", ""],
    "grundy-non-ascii-digit": ["grundy", "\u0663"],
    "grundy-two-numbers": ["grundy", "5", "6"],
    "unknown-game": ["grundy", "5", "--game", "nope"],
    "code-digit-past-v": ["grundy", "5", "--game", "0.W"],
    "code-digit-past-v-later": ["grundy", "5", "--game", "0.7W"],
    "octal-two-dots": ["grundy", "5", "--game", "0..7"],
    "code-head-2": ["grundy", "5", "--game", "2.07"],
    "octal-lone-dot": ["grundy", "5", "--game", "."],
    "game-empty": ["grundy", "5", "--game", ""],
    "game-missing-value": ["grundy", "5", "--game"],
    "period-unknown-game": ["period", "--game", "nope"],
    "period-bad-max": ["period", "--max", "-1"],
    "period-word-max": ["period", "--max", "many"],
    "move-without-position": ["move"],
    "move-bad-row": ["move", "xxo"],
    "move-bad-row-kayles": ["move", "xXx", "--game", "kayles"],
    "move-row-to-grundy": ["move", "xx", "--game", "grundy"],
    "move-two-rows": ["move", "xx", "xx", "--game", "kayles"],
    "move-negative-heap": ["move", "-1", "--game", "grundy"],
    "move-empty-heaps": ["move", "", "--game", "grundy"],
    "move-mixed-heaps": ["move", "5", "x", "--game", "grundy"],
    "games-extra-argument": ["games", "extra"],
}


@pytest.mark.parametrize("args", list(BAD_INPUTS.values()), ids=list(BAD_INPUTS))
def test_bad_input_is_one_stderr_line_and_status_2(args):
    assert_usage_error(kayles(*args))


def test_unprovable_game_past_the_direct_limit_is_refused_cleanly():
    assert_usage_error(kayles("grundy", "1" + "0" * 12, "--game", "grundy"))


# -- --version, --help, progress -------------------------------------------------------------


def test_version():
    text = ok_stdout(kayles("--version"))
    assert text.endswith("\n") and text.count("\n") == 1 and "kayles" in text


@pytest.mark.parametrize("args", [["--help"], ["grundy", "--help"], ["move", "--help"]])
def test_help(args):
    assert "usage" in ok_stdout(kayles(*args)).lower()


def test_no_progress_when_stderr_is_not_a_terminal():
    result = kayles("period", "--game", "kayles")
    assert result.returncode == 0 and result.stderr == b""
    result = kayles("grundy", "5000", "--game", "0.07")
    assert result.returncode == 0 and result.stderr == b""


def test_progress_on_a_terminal_stays_off_stdout():
    expected = ok_stdout(kayles("period", "--game", "kayles", "--json"))
    status, stdout, terminal = on_a_terminal(
        [sys.executable, "-m", "kayles", "period", "--game", "kayles", "--json"])
    assert status == 0
    assert stdout.decode() == expected
    assert b"Traceback" not in terminal


@pytest.fixture
def long_ints():
    """Lift Python 3.11+'s 4,300-digit int/str limit in this process, for one test."""
    old = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else None
    if old is not None:
        sys.set_int_max_str_digits(0)
    yield
    if old is not None:
        sys.set_int_max_str_digits(old)


def test_heap_sizes_of_any_length(long_ints):
    """A 5,000-digit heap (past Python's default int/str limit of 4,300 digits) in Dawson's
    Kayles 0.07, whose nimbers have period 34 (Guy & Smith 1956)."""
    g = oracle.octal_nimbers("0.07", 300)
    assert all(g[k] == g[k + 34] for k in range(53, 300 - 34))  # the period, seen

    def G(n: int) -> int:
        return g[n] if n < 53 else g[53 + (n - 53) % 34]

    huge = int("7" * 5000)
    heaps = [huge, 5] if G(huge) != G(5) else [huge, 6]
    text = ok_stdout(kayles("move", *map(str, heaps), "--game", "dawsons-kayles"))
    index, size, becomes = HEAP_LINE.fullmatch(text).groups()
    parts = [] if becomes == "nothing" else [int(p) for p in becomes.split(" + ")]
    assert int(size) == heaps[int(index) - 1] and sum(parts) == int(size) - 2
    after = heaps[: int(index) - 1] + parts + heaps[int(index):]
    total = 0
    for h in after:
        total ^= G(h)
    assert total == 0


def test_bare_kayles_prints_its_usage_and_commands():
    result = kayles()
    assert (result.returncode, result.stderr) == (0, b"")
    text = result.stdout.decode()
    assert text == kayles("--help").stdout.decode()
    assert text.startswith("usage: kayles") and "grundys-game (grundys)" in text


def test_old_names_still_work():
    """grundys is grundys-game; --game grundys-game is Grundy's game; --misère is --misere;
    plot --max is plot --last."""
    assert kayles("grundys", "7").stdout == kayles("grundys-game", "7").stdout != b""
    assert (kayles("grundy", "30", "--game", "grundys-game").stdout
            == kayles("grundy", "30", "--game", "grundy").stdout)
    assert (kayles("move", "xxxxxxx", "--misère").stdout
            == kayles("move", "xxxxxxx", "--misere").stdout != b"")


def count_options():
    """(command, option) of every option of the kayles commands that takes a count."""
    import argparse

    from kayles.interface.kayles_cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in commands.choices.items():
        for action in sub._actions:
            if getattr(action.type, "__qualname__", "").startswith("natural."):
                yield name, (action.option_strings or [action.dest])[0], action.type


def test_every_count_option_takes_the_same_forms():
    """Digits, digits grouped as the messages print them (2,048: kayles run says 'resume
    with --window 2,048 or more'), and 2**K: alike for every option that takes a count."""
    found = list(count_options())
    assert {("run", "--to"), ("run", "--window"), ("period", "--max"),
            ("survey", "--max"), ("grundy", "n")} <= {(c, o) for c, o, _ in found}
    for command, option, parse in found:
        for text in ("2048", "2,048", "2_048", "2**11", "2 ** 11"):
            assert parse(text) == 2048, (command, option, text)
        for text in ("2,04", "20,48", "2048.0", "2**x", "2**100", "-1", "0x800", "٢"):
            with pytest.raises(argparse.ArgumentTypeError):
                parse(text)


# -- errors by kind: a bug never reads as the user's mistake -------------------------------


@pytest.mark.parametrize("bug", [TypeError("boom"), KeyError("boom"), RecursionError("boom")])
def test_a_bug_is_an_internal_error_not_bad_input(bug, monkeypatch, capsys):
    from kayles.interface import kayles_cli
    from kayles.interface.commands import heap_games

    def broken(args, out):
        out.write("half")
        raise bug

    monkeypatch.setattr(heap_games, "command_grundy", broken)
    monkeypatch.delenv("KAYLES_DEBUG", raising=False)
    assert kayles_cli.main(["grundy", "5"]) == 1
    captured = capsys.readouterr()
    name = type(bug).__name__
    assert captured.err.startswith(f"kayles grundy: internal error: {name}: ")
    assert captured.err.count("\n") == 1 and "please report" in captured.err
    assert "KAYLES_DEBUG=1" in captured.err and "Traceback" not in captured.err
    monkeypatch.setenv("KAYLES_DEBUG", "1")
    assert kayles_cli.main(["grundy", "5"]) == 1
    err = capsys.readouterr().err
    assert "internal error" in err and "Traceback" in err and "in broken" in err


@pytest.mark.parametrize("twin", ["cython", "python"])
def test_a_kernels_argument_check_reached_is_a_bug_not_bad_input(twin, monkeypatch, capsys):
    """A kernel's checks raise a plain ValueError, and no layer hands a kernel bad input: one
    that reaches the front end is reported as the bug it is (exit 1), never as the user's
    mistake (exit 2); InputError and ResourceError stay status 2."""
    import types

    from kayles.interface import kayles_cli
    from kayles.kernels import chooser

    from conftest import load_kernel

    real = load_kernel(twin)

    def extend_sparse(table, start, stop, kinds, scratch=None):  # as a bug would call it
        return real.extend_sparse(table, stop, start, kinds, scratch)

    kernel = types.SimpleNamespace(**{name: getattr(real, name) for name in dir(real)})
    kernel.extend_sparse = extend_sparse
    monkeypatch.setattr(chooser, "kernel", kernel, raising=False)
    monkeypatch.delenv("KAYLES_DEBUG", raising=False)
    assert kayles_cli.main(["grundy", "100", "--game", "0.161"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("kayles grundy: internal error: ValueError: range ") and \
        "please report" in err, err
    assert kayles_cli.main(["period", "--game", "0.161", "--to", "2**30"]) == 2
    assert "--to" in capsys.readouterr().err


def test_bad_input_and_a_failed_file_keep_their_statuses(tmp_path, capsys):
    from kayles.interface import kayles_cli

    assert kayles_cli.main(["grundy", "5", "--game", "0.W"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    missing = tmp_path / "missing.table"
    assert kayles_cli.main(["grundy", "5", "--resume", str(missing)]) == 1
    assert capsys.readouterr().err == f"kayles grundy: {missing}: No such file or directory\n"


def test_building_the_parser_loads_no_analysis_and_no_storage():
    """Every ``kayles`` start builds the whole parser: its help's defaults come from
    kayles.kernels.limits, so no analysis or file module loads before a command runs."""
    code = ("import sys\nfrom kayles.interface.kayles_cli import build_parser\nbuild_parser()\n"
            "print(sorted(name for name in sys.modules\n"
            "             if name.startswith(('kayles.analysis', 'kayles.storage'))))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, timeout=TIMEOUT)
    assert (result.returncode, result.stdout) == (0, "[]\n"), result.stderr


def test_a_survey_leaves_no_mask_blank_as_the_census_does(tmp_path):
    """Issue 53: the survey wrote mask and rare 0, 0 for codes past the octal kernels (no
    rare mask there), where the census leaves both blank."""
    db = str(tmp_path / "s.sqlite")
    csv = ok_stdout(kayles("survey", "0.3F", "0.77", "--to", "3000", "--csv", "--db", db))
    header, hexadecimal, octal = (line.split(",") for line in csv.splitlines())
    cells = [dict(zip(header, row)) for row in (hexadecimal, octal)]
    assert [(row["code"], row["mask"], row["rare"]) for row in cells] == [
        ("0.3F", "", ""), ("0.77", "15", "10")]
    rows = ok_json(kayles("survey", "0.3F", "--to", "3000", "--json", "--db", db))
    assert (rows[0]["mask"], rows[0]["rare"]) == (None, None)


class _Counting:
    """A kernel module whose ``extend`` records each range of heaps it computes."""

    def __init__(self, kernel, calls: list) -> None:
        self._kernel, self._calls = kernel, calls

    def __getattr__(self, name):
        return getattr(self._kernel, name)

    def extend(self, table, start, stop, *args, **kwargs):
        self._calls.append((start, stop))
        return self._kernel.extend(table, start, stop, *args, **kwargs)


@pytest.mark.parametrize("command", [["grundy", "4500", "--game", "0.3F"],
                                     ["grundy", "4500", "--game", "0.3F", "--checksum"],
                                     ["period", "--game", "0.3F", "--to", "4500", "--json"]])
def test_a_command_reads_its_code_once_and_computes_each_value_once(monkeypatch, command):
    """One Sequence a command, the code parsed once, no heap computed twice: the kernel's
    ranges of heaps never overlap, and they end where the command needs."""
    from kayles.engine import codes, sequence
    from kayles.kernels import chooser

    calls: list = []
    parsed, made = [], []
    compiled = load_kernel("cython", "takebreak")
    monkeypatch.setattr(chooser, "takebreak_kernel", _Counting(compiled, calls))
    parse = codes.parse_code
    monkeypatch.setattr(codes, "parse_code", lambda text: parsed.append(text) or parse(text))
    build = sequence.Sequence.__init__
    monkeypatch.setattr(sequence.Sequence, "__init__",
                        lambda self, *a, **k: made.append(a[0].name) or build(self, *a, **k))
    result = in_process("kayles", command)
    assert result.returncode == 0, result.stderr
    assert (len(parsed), len(made)) == (1, 1), (parsed, made)
    heaps = sorted(calls)
    assert heaps and heaps[0][0] == 0 and heaps[-1][1] >= 4500
    assert all(stop == following for (_, stop), (following, _) in zip(heaps, heaps[1:])), heaps


@pytest.mark.parametrize("vector", ["sse2", "avx2"])
def test_version_names_the_instruction_set_in_force(vector):
    """KAYLES_VECTOR=avx2 on an AVX-512 machine: --version says avx2, not the best the CPU
    has (both programs; a set the CPU lacks is refused, so such a case is skipped)."""
    compiled = load_kernel("cython")
    if vector not in compiled.VECTORS:
        pytest.skip(f"this CPU has no {vector}")
    for program in (CONSOLE_SCRIPT, ROOT / "Kayles-xox"):
        done = subprocess.run([str(program), "--version"], capture_output=True, timeout=TIMEOUT,
                              env={**os.environ, "KAYLES_VECTOR": vector})
        assert done.stdout.decode().endswith(f"compiled (Cython) core, {vector}\n"), done
