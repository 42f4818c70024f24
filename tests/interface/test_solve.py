"""``kayles solve`` and ``kayles play`` on games written in Python: what they print, the errors of
a user's file in one line each, a tiny table, a run killed and resumed, Ctrl-C, worker
processes.  Expected values come from the published tables (igs's Cram table, A002188 for
Grundy's game) or from brute forces in ``tests/user_games.py``, never from the command."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import (
    DEADLINE,
    ROOT,
    assert_usage_error,
    kayles_said,
    ok,
    run_kayles,
    signal_and_measure,
    wait_until_busy,
)

CRAM = f"{ROOT / 'examples' / 'cram.py'}:Cram"
GRUNDY = f"{ROOT / 'examples' / 'grundy.py'}:GrundysGame"
A002188_GRUNDY = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3]

LOOPY = """\
class Loop:
    # 0 -> 1 -> 2 -> 0, and 1 -> 3 (the end); 4 moves to itself or to 0
    GRAPH = {0: [1], 1: [2, 3], 2: [0], 3: [], 4: [4, 0]}

    def options(self, vertex):
        return self.GRAPH[vertex]
"""
BROKEN = """\
import math

class Broken:
    def options(self, n):
        return [n - 1, math.sqrt(n - 5)] if n else []

class NeedsArguments:
    def __init__(self, size):
        self.size = size

    def options(self, n):
        return []

not_a_game = 42
"""


@pytest.fixture(autouse=True)
def no_progress_lines(monkeypatch):
    """Progress lines come with slowness: none here, however loaded the machine (the test
    of the line sets its own)."""
    monkeypatch.setenv("KAYLES_PROGRESS_SECONDS", "100000")


def write(tmp_path, text: str, name: str = "game.py") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def said(*args) -> str:
    result = kayles_said(*args)
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    return result.stdout


def test_a_family_by_name():
    assert said("solve", "subtraction:1,2,3", "10") == "nimber: 2\noutcome: N\nmove: 8\n"
    assert said("solve", "subtraction:1,2,3", "12") == "nimber: 0\noutcome: P\nmove: none\n"
    assert json.loads(said("solve", "subtraction:1,3,4", "7", "--json")) == {
        "nimber": 0, "outcome": "P", "move": None}
    assert said("solve", "subtraction:1,2,3", "9", "--misere") == \
        "outcome: P (misère play)\nmove: none\n"


def test_the_families_of_the_pruned_search_by_name():
    """Cram's value from igs's table (tests/data/cram_values.json), Node and Arc Kayles on
    paths from A002187 and Dawson's Kayles (the heap engine's 0.07), Chomp from the brute
    force; each move printed is checked from the rules: solved again (Cram, Chomp) or, a
    vertex or an edge named, what it leaves valued by the heap engine."""
    from kayles.engine.codes import get_game
    from kayles.engine.sequence import Sequence

    import oracle

    cram = json.loads((ROOT / "tests" / "data" / "cram_values.json").read_text())
    report = json.loads(said("solve", "cram", "4x7", "--json"))
    assert report["nimber"] == cram["rows"]["4"]["7"] and report["outcome"] == "N"
    assert said("solve", "cram", report["move"]).startswith("nimber: 0\noutcome: P\n")
    assert said("solve", "cram", "4x6") == "nimber: 0\noutcome: P\nmove: none\n"

    dawson = Sequence(get_game("0.07")).nimbers(30)
    for n in (7, 20, 21):  # Node Kayles on a path: a vertex and its neighbours go
        lines = said("solve", "node-kayles", f"path:{n}").splitlines()
        value = oracle.kayles_on_graph(path_graph(n), frozenset(range(n)), True)
        assert lines[0] == f"nimber: {value}"
        if value == 0:
            assert lines[1:] == ["outcome: P", "move: none"]
            continue
        v = int(lines[2].removeprefix("move: ")) - 1  # vertices are named 1..n
        left = frozenset(range(n)) - {v - 1, v, v + 1}
        assert oracle.kayles_on_graph(path_graph(n), left, True) == 0
    lines = said("solve", "arc-kayles", "path:20").splitlines()
    assert lines[0] == f"nimber: {dawson[20]}"
    a, b = map(int, lines[2].removeprefix("move: ").split("-"))
    assert b == a + 1 and dawson[a - 1] ^ dawson[20 - b] == 0

    for rows in ((6, 3, 3), (5, 5), (4, 4, 2)):
        text = ",".join(map(str, rows))
        report = json.loads(said("solve", "chomp", text, "--json"))
        assert report["nimber"] == oracle.chomp_value(rows)
        if report["move"] is not None:
            after = tuple(int(n) for n in report["move"].split(","))
            assert oracle.chomp_value(after) == 0


def path_graph(n: int) -> list[frozenset[int]]:
    return [frozenset(u for u in (v - 1, v + 1) if 0 <= u < n) for v in range(n)]


def test_a_students_file_and_a_researchers():
    for n, value in enumerate(A002188_GRUNDY):
        assert json.loads(said("solve", GRUNDY, str(n), "--json"))["nimber"] == value, n
    report = json.loads(said("solve", CRAM, "4x5", "--json"))
    assert report["nimber"] == 2 and report["outcome"] == "N"  # igs's README: 4x5 = 2
    after = said("solve", CRAM, report["move"])
    assert after.startswith("nimber: 0\noutcome: P\n")  # the move printed wins


def test_a_game_with_cycles_is_given_its_generalized_value(tmp_path):
    game = write(tmp_path, LOOPY) + ":Loop"
    assert said("solve", game, "0") == "nimber: 0\noutcome: P\nmove: none\n"
    assert said("solve", game, "2") == "nimber: 1\noutcome: N\nmove: 0\n"
    assert json.loads(said("solve", game, "4", "--json")) == {
        "nimber": {"inf": [0]}, "outcome": "N", "move": "0"}
    drawn = write(tmp_path, "class Draw:\n    def options(self, n):\n        return [n]\n",
                  "draw.py")
    assert said("solve", drawn + ":Draw", "5") == "nimber: inf()\noutcome: D\nmove: 5\n"


@pytest.mark.parametrize(("argv", "says"), [
    (["nope", "3"], "unknown game 'nope': a family (arc-kayles, chomp, cram, node-kayles, "
                    "subtraction) or FILE.py:NAME"),
    (["subtraction:1,2,3", "x"], "position 'x': a heap must be a non-negative"),
    (["subtraction:0", "3"], "a subtraction must be 1 to"),
    (["{game}:Missing", "3"], "defines no Missing; it defines Broken, NeedsArguments"),
    (["{game}:Broken", "7"], "the game's options raised ValueError: math domain error "
                             "(game.py, line 5)"),
    (["{game}:NeedsArguments", "1"], "NeedsArguments() (a game is made with no argument"),
    (["{game}:not_a_game", "1"], "an int is not a game: it has no options(position)"),
    (["{game}", "1"], "name the game in the file"),
    (["{syntax}:A", "1"], "syntax.py: line 1: "),
    (["{raises}:A", "1"], "running it raised KeyError: 'boom' (line 2)"),
    (["{game}:Broken", "(1,"], "cannot read the position '(1,': it is not a Python literal"),
    (["subtraction", "3", "--memory", "12Q"], "--memory must be a number of bytes"),
    (["subtraction", "3", "--threads", "0"], "--threads must be 1 to 64"),
    (["subtraction", "3", "--threads", "2", "--dask", "tcp://127.0.0.1:1"], "one or the other"),
    (["subtraction", "3", "--save", "{game}"], "exists; --force replaces it"),
    (["subtraction", "3", "--force"], "--force goes with --save"),
    (["subtraction", "3", "--resume", "{game}"], "not a table saved by kayles solve"),
    (["subtraction", "3", "--save", "x", "--threads", "2"], "not with --threads or --dask"),
    (["subtraction", "3", "--checkpoint", "0", "--save", "x"], "--checkpoint must be"),
])
def test_bad_input_is_one_line_and_status_2(tmp_path, argv, says):
    files = {"game": write(tmp_path, BROKEN), "syntax": write(tmp_path, "def f(:\n", "syntax.py"),
             "raises": write(tmp_path, "x = 1\nraise KeyError('boom')\n", "raises.py")}
    result = run_kayles("solve", *(word.format(**files) for word in argv), cwd=tmp_path)
    assert_usage_error(result)
    assert says in result.stderr.decode(), result.stderr


def test_a_missing_file_is_an_io_failure(tmp_path):
    result = run_kayles("solve", f"{tmp_path}/missing.py:Game", "1")
    assert_usage_error(result, status=1)
    assert b"missing.py: No such file or directory" in result.stderr


def test_the_traceback_of_the_games_own_error_under_kayles_debug(tmp_path):
    game = write(tmp_path, BROKEN) + ":Broken"
    result = run_kayles("solve", game, "7", env={"KAYLES_DEBUG": "1"})
    err = result.stderr.decode()
    assert result.returncode == 2 and result.stdout == b""
    assert "the game's options raised ValueError" in err.splitlines()[0]
    assert "Traceback" in err and 'game.py", line 5, in options' in err


def test_a_tiny_table_gives_the_same_answer_and_counts_its_evictions():
    for strategy in ("lv", "mex"):
        report = json.loads(said("solve", CRAM, "3x4", "--json", "--stats", "--memory", "2K",
                                 "--strategy", strategy))
        assert report["nimber"] == json.loads(said("solve", CRAM, "3x4", "--json"))["nimber"]
        assert report["stats"]["evicted"] > 0


def test_the_progress_line_counts_positions_and_evictions():
    result = run_kayles("solve", CRAM, "3x5", "--memory", "4K",
                        env={"KAYLES_PROGRESS_SECONDS": "0"})
    assert result.returncode == 0 and result.stdout.startswith(b"nimber: ")
    line = result.stderr.decode().splitlines()[-1]
    assert line.startswith("kayles solve: ") and " positions, " in line and " evicted" in line


def test_worker_processes_split_the_top_with_the_same_answer():
    assert said("solve", CRAM, "4x4", "--threads", "2") == said("solve", CRAM, "4x4")
    assert said("solve", GRUNDY, "9,12,14", "--threads", "2") == said("solve", GRUNDY,
                                                                      "9,12,14")
    assert said("solve", CRAM, "3x4", "--misere", "--threads", "2") == said(
        "solve", CRAM, "3x4", "--misere")


def start(*args, **env) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kayles", "solve", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, **env})


def test_a_killed_run_resumes_from_its_last_save(tmp_path):
    """SIGKILL once a save of some entries is on disk: --resume finishes with the published
    value, and searches fewer positions than a run from nothing."""
    table = tmp_path / "cram.table"
    proc = start(CRAM, "5x5", "--save", str(table), "--checkpoint", "0.05")
    try:
        deadline = time.monotonic() + DEADLINE
        while not table.exists() or table.stat().st_size < 4000:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.005)
        proc.kill()
        proc.communicate()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    resumed = json.loads(ok(run_kayles("solve", CRAM, "5x5", "--resume", table, "--json",
                                       "--stats")))
    fresh = json.loads(said("solve", CRAM, "5x5", "--json", "--stats"))
    assert resumed["nimber"] == fresh["nimber"] == 0  # igs's README: 5x5 = 0
    assert resumed["stats"]["positions"] < fresh["stats"]["positions"]
    again = json.loads(said("solve", CRAM, "5x5", "--resume", str(table), "--json", "--stats"))
    assert again["stats"]["positions"] < 40  # (the whole table was saved at the end)


def test_ctrl_c_stops_a_search_at_once():
    """Cram 5x6 takes minutes here: SIGINT once it is busy ends it within a second of CPU
    time, quietly (130); with --save it says so, and the file resumes."""
    proc = start(CRAM, "5x6")
    wait_until_busy(proc, 1.0)
    spent, out, err = signal_and_measure(proc, signal.SIGINT)
    assert (proc.returncode, out, err) == (130, b"", b"")
    assert spent < 1.0


def test_ctrl_c_with_save_keeps_the_tables(tmp_path):
    table = tmp_path / "t.table"
    proc = start(CRAM, "5x6", "--save", str(table))
    wait_until_busy(proc, 1.0)
    spent, out, err = signal_and_measure(proc, signal.SIGINT)
    assert (proc.returncode, out) == (130, b"")
    assert err == b"kayles solve: stopped; the same command resumes\n"
    assert spent < 1.0 and table.stat().st_size > 100


def test_sigterm_with_save_keeps_the_tables(tmp_path):
    table = tmp_path / "t.table"
    proc = start(CRAM, "5x6", "--save", str(table))
    wait_until_busy(proc, 1.0)
    spent, out, err = signal_and_measure(proc, signal.SIGTERM)
    assert (proc.returncode, out, err) == (143, b"", b"")
    assert table.stat().st_size > 100


def test_play_a_game_written_in_python():
    """The program wins Grundy's game from 13 (an N-position: A002188) whatever is typed."""
    result = kayles_said("play", "--game", GRUNDY, "13", "--starts", "me",
                         stdin="#1\n#1\n#1\n#1\n#1\n")
    lines = result.stdout.splitlines()
    assert result.returncode == 0, result.stderr
    assert lines[0] == f"start: 13 ({GRUNDY}, normal play: the last move wins; I move first)"
    assert lines[-1] == "you have no move: I win."
    help_lines = kayles_said("play", "--game", GRUNDY, "7", stdin="help\n").stdout
    assert "1: 6\n2: 5\n3: 3,4\n" in help_lines  # 7 -> 6+1, 5+2, 4+3: heaps under 3 go
    missing = kayles_said("play", "--game", GRUNDY)
    assert missing.returncode == 2 and "give the starting POSITION" in missing.stderr


def test_play_node_kayles_by_the_names_of_its_vertices():
    """Node Kayles on the path of 7 vertices (value 1, A002187: the winning moves take 2, 4
    or 6): a vertex typed by its name is played, a vertex that is not a move is refused in
    one line and asked again, 'help' lists the moves by name; one line a turn."""
    result = kayles_said("play", "--game", "node-kayles", "path:7",
                         stdin="3\nhelp\n5\n1\n")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == ("start: 1: 2; 2: 3; 3: 4; 4: 5; 5: 6; 6: 7; 7: (node-kayles, normal "
                        "play: the last move wins; you move first)")
    # 2, 3 and 4 go: paths of 1 and 3 (1 XOR 2); taking 5 or 7 leaves 1 XOR 1, the first
    # of them in the game's order is played
    assert lines[1:] == [
        "you: 3 => 1:; 5: 6; 6: 7; 7:", "me: 5 => 1:; 7:",
        "1: 1", "2: 7", "Type a move as listed above (or #N for the N-th); 'quit' resigns.",
        "illegal: '5' is not a move here: the moves are 1, 7; try again, or type 'help'",
        "you: 1 => 7:", "me: 7 => (empty)", "you have no move: I win."]


def test_a_game_with_threads_of_its_own_gets_them_and_no_process(tmp_path):
    """A compiled family's kernel runs its own crew: --threads T is set on the game, and
    the search stays in this process (a worker would make the game afresh, threads 1)."""
    game = write(tmp_path, "class Crew:\n    threads = 1\n\n    def options(self, n):\n"
                           "        if self.threads != 3:\n"
                           "            raise ValueError(f'threads {self.threads}')\n"
                           "        return [n - 1] if n else []\n", "crew.py")
    assert said("solve", game + ":Crew", "7", "--threads", "3") == \
        "nimber: 1\noutcome: N\nmove: 6\n"
