"""The web page's JSON API (kayles serve), through Starlette's test client.

Answers are checked against the engine's own functions and the brute-force oracle;
bad input is one JSON error object with a 4xx status; many requests at once all
get right answers.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient  # noqa: E402

from kayles import misere, row  # noqa: E402
from kayles.analysis.play import Match  # noqa: E402
from kayles.engine.codes import get_game  # noqa: E402
from kayles.interface.web.app import MAX_BODY, create_app  # noqa: E402
from kayles.interface.web.service import MAX_GAMES, MAX_VALUES, Service  # noqa: E402
from kayles.kernels.chooser import IMPLEMENTATION  # noqa: E402
from kayles.storage.proof_cache import shared  # noqa: E402

import oracle  # noqa: E402
from conftest import ROOT  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as test_client:
        yield test_client


def ok(response) -> dict:
    assert response.status_code == 200, response.text
    return response.json()


def refused(response, status: int = 400, says: str = "") -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and says in body["error"], body
    assert "\n" not in body["error"] and "Traceback" not in body["error"]


def test_the_games_are_listed(client):
    games = ok(client.get("/api/games"))["games"]
    assert [g["name"] for g in games][:3] == ["kayles-xox", "kayles", "dawsons-kayles"]
    assert next(g for g in games if g["name"] == "grundy")["aliases"] == ["grundys-game",
                                                                          "grundys_game"]


@pytest.mark.parametrize("position", ["xxxxxxxxxx", "xxx.x.xxxx", "xx.x", ".x", "", "x.xxxxx.xx"])
def test_a_row_is_analysed_as_the_engine_and_the_oracle_say(client, position):
    report = ok(client.post("/api/analyse", json={"game": "kayles-xox", "misere": False,
                                                   "position": position}))
    values = oracle.KAYLES_XOX.nimbers(12)
    assert [(p["start"], p["size"], p["value"]) for p in report["parts"]] == [
        (start, size, values[size]) for start, size in oracle.runs(position)]
    total = 0
    for part in report["parts"]:
        total ^= part["value"]
    assert report["nim_sum"] == total and report["outcome"] == ("N" if total else "P")
    expected = row.winning_move(position, shared("kayles-xox"))
    assert (report["best"] or {}).get("after") == expected
    if expected is not None:
        assert oracle.KAYLES_XOX.winning_move(position) == expected  # the assignment's rule
        assert f"XOR {total} = " in report["why"]


def test_heaps_and_misere_play(client):
    report = ok(client.post("/api/analyse", json={"game": "grundy", "misere": False,
                                                   "position": [7, 5, 3]}))
    assert report["best"]["what"] == "heap 2: 5 -> 2 + 3"
    solver = misere.Solver(get_game("kayles"))
    for position in ("xxxx", "xxxxx", "xx.xx.x"):
        report = ok(client.post("/api/analyse", json={"game": "kayles", "misere": True,
                                                       "position": position}))
        assert report["outcome"] == solver.row_outcome(position)
        assert (report["best"] or {}).get("after") == solver.row_winning_move(position)


def test_misere_explanations_never_lean_on_nim_sums(client):
    """In misère play the Why says what found the outcome (the search, or the quotient
    with its order, P-portion and reach, the same as kayles.analysis.quotient's) and that
    nim-sums do not decide; no 'XOR' arithmetic as in normal play."""
    from kayles.analysis.quotient import quotient

    few = ok(client.post("/api/analyse", json={"game": "kayles", "misere": True,
                                                "position": "xxx.xxxx"}))
    assert few["found_by"] == "search" and few["quotient"] is None
    heaps = [5, 4, 4, 3, 3, 2, 2, 1, 1, 6, 7]   # more than QUOTIENT_FIRST heaps
    many = ok(client.post("/api/analyse", json={"game": "kayles", "misere": True,
                                                 "position": heaps}))
    assert many["found_by"] == "quotient"
    known = quotient(get_game("kayles"), 7)
    assert many["quotient"]["order"] == known.order
    assert many["quotient"]["p_size"] == known.p_size
    assert many["outcome"] == misere.Solver(get_game("kayles")).outcome(heaps)
    for report in (few, many):
        assert "Nim-sums do not decide misère play" in report["why"]
        assert "XOR" not in report["why"] and "nim-sum is" not in report["why"]
    assert f"a monoid of {known.order} elements" in many["why"]


def test_a_move_is_played_and_answered(client):
    answer = ok(client.post("/api/move", json={"game": "kayles-xox", "misere": False,
                                                "position": "xxxxx", "move": "3"}))
    assert answer["you"]["after"] == "xx.xx"
    # xx.xx is a loss for the program: it takes the fewest pins, leftmost (as play does)
    assert row.winning_move("xx.xx", shared("kayles-xox")) is None
    assert answer["me"]["after"] == Match(shared("kayles-xox"), "xx.xx").reply().after
    assert answer["analysis"]["position"] == ".x.xx"
    first = ok(client.post("/api/reply", json={"game": "kayles-xox", "misere": False,
                                                "position": "xxxxxxx"}))
    assert first["me"]["after"] == row.winning_move("xxxxxxx", shared("kayles-xox"))


def test_the_sequence_of_kayles_shows_its_proved_period(client):
    data = ok(client.get("/api/sequence", params={"game": "kayles"}))
    assert data["period"] == {"preperiod": 71, "period": 12, "values": 167, "saltus": 0}
    assert data["values"] == oracle.octal_nimbers("0.77", 166)
    assert "G(n + 12) = G(n) for every n >= 71" in data["proof"]
    assert set(data["rare_values"]) == {0, 3, 5, 6}  # the evil numbers below 8
    assert ok(client.get("/api/sequence", params={"game": "grundy", "count": "100"}))[
        "values"] == oracle.grundys_game_nimbers(99)


def test_a_hexadecimal_code_shows_its_saltus_and_answers_any_n(client):
    """0.A8 (take 1 leaving 1 or 3 heaps, or 2 leaving 3): G(n + 4) = G(n) + 2 from 1,
    checked on values a brute-force oracle enumerates; G(n) for a huge n from it; 0.3F's
    regularity is observed, not proved."""
    g = oracle.TakeBreak({1: {1: "", 3: ""}, 2: {3: ""}}).nimbers(60)
    data = ok(client.get("/api/sequence", params={"game": "0.A8", "count": "61"}))
    assert data["values"] == g
    assert data["period"] == {"preperiod": 1, "period": 4, "values": data["period"]["values"],
                              "saltus": 2}
    assert "G(n + 4) = G(n) + 2 for every n >= 1: proved by theorem A" in data["proof"]
    n = 10**30 + 2
    answer = ok(client.get("/api/nimber", params={"game": "0.A8", "n": str(n)}))
    assert answer["value"] == g[1 + (n - 1) % 4] + 2 * ((n - 1) // 4)
    seen = ok(client.get("/api/sequence", params={"game": "0.3F", "count": "30"}))
    assert seen["period"] is None and "G(n + 6) = G(n) + 3 for n = 0 to" in seen["proof"]
    assert "observed, not proved" in seen["proof"]


def test_any_n_after_a_proof(client):
    n = 10**30 + 7
    data = ok(client.get("/api/nimber", params={"game": "kayles", "n": str(n)}))
    values = oracle.octal_nimbers("0.77", 71 + 12)
    assert data == {"game": "kayles", "n": str(n), "value": values[71 + (n - 71) % 12]}


BAD = [
    ("post", "/api/analyse", {"game": "nope", "misere": False, "position": "xx"}, "unknown game"),
    ("post", "/api/analyse", {"game": "kayles", "misere": False, "position": "xox"},
     "only '.' and 'x'"),
    ("post", "/api/analyse", {"game": "kayles", "misere": "yes", "position": "xx"},
     "true or false"),
    ("post", "/api/analyse", {"game": "kayles", "position": "x" * 10001}, "at most 10000"),
    ("post", "/api/analyse", {"game": "kayles", "position": [3, -1]}, "list of heap sizes"),
    ("post", "/api/analyse", {"game": "grundy", "position": "xx"}, "played on heaps"),
    ("post", "/api/move", {"game": "kayles-xox", "position": "xxxxx", "move": "1 2"},
     "not one move of kayles-xox"),
    ("post", "/api/move", {"game": "kayles-xox", "position": ".....", "move": "1"},
     "the game is over"),
    ("post", "/api/analyse", {"game": "grundy", "misere": True, "position": [60] * 9},
     "budget" if IMPLEMENTATION == "cython" else "10 s of work"),  # the pure twin: time first
    ("get", "/api/sequence", {"game": "kayles", "count": str(MAX_VALUES + 1)}, "count is 1 to"),
    ("get", "/api/nimber", {"game": "grundy", "n": str(10**20)}, "no periodicity theorem"),
    ("get", "/api/nimber", {"game": "kayles", "n": "1e5"}, "non-negative"),
    ("get", "/api/nimber", {"game": "kayles", "n": "-3"}, "non-negative"),
    ("get", "/api/survey", {}, "no survey database"),
    ("post", "/api/board", {"family": "go", "position": "3x3"}, "one of cram, node-kayles"),
    ("post", "/api/board", {"family": "cram", "position": "9x9"}, "at most 64 cells"),
    ("post", "/api/board", {"family": "cram", "position": "..x/..."}, "rows of '.'"),
    ("post", "/api/board", {"family": "chomp", "position": "21x20"}, "at most 400 squares"),
    ("post", "/api/board", {"family": "chomp", "position": "2,3"}, "must not grow longer"),
    ("post", "/api/board", {"family": "cram", "position": 12}, "give the board's position"),
    ("post", "/api/board", {"family": "cram", "position": "3x3", "reply": 1}, "true or false"),
]


@pytest.mark.parametrize(("method", "path", "data", "says"), BAD,
                         ids=[f"{p} {d}"[:60] for _, p, d, _ in BAD])
def test_bad_input_is_one_error_object(client, method, path, data, says):
    if method == "post":
        response = client.post(path, json=data)
    else:
        response = client.get(path, params=data)
    refused(response, 400, says)


def test_what_is_not_a_request_is_refused_as_such(client):
    json_body = {"Content-Type": "application/json"}
    refused(client.post("/api/analyse", content=b"not json", headers=json_body), 400,
            "not JSON")
    refused(client.post("/api/analyse", content=b"[1, 2]", headers=json_body), 400,
            "JSON object")
    refused(client.post("/api/analyse", content=b"x" * (MAX_BODY + 1), headers=json_body),
            413, "at most")
    refused(client.post("/api/analyse", content=b"{}"), 415, "application/json")
    refused(client.get("/api/analyse"), 405)
    refused(client.get("/api/nothing-here"), 404)
    assert client.get("/static/../app.py").status_code == 404  # no path from a request


def test_many_requests_at_once_get_right_answers(client):
    positions = [("x" * n) + "." + ("x" * (n % 7)) for n in range(1, 41)]
    expected = [row.winning_move(p, shared("kayles-xox")) for p in positions]

    def ask(position: str):
        return client.post("/api/analyse", json={"game": "kayles-xox", "misere": False,
                                                  "position": position}).json()

    with ThreadPoolExecutor(8) as pool:
        reports = list(pool.map(ask, positions * 3))
    assert [(r["best"] or {}).get("after") for r in reports] == expected * 3


def test_the_survey_database_is_served(tmp_path):
    """Rows computed to the values asked for; without a number, to those with the most rows;
    every number the file holds is listed with its count (a page picks among them, and says
    why one has no rows).  A row speaks the census's words (issue 53: not max and proved):
    its columns, in order, up to the census's own."""
    from kayles.analysis.census import COLUMNS

    db = tmp_path / "s.sqlite"
    for codes, limit in ((["0.77", "0.07"], "500"), (["0.6"], "300")):
        subprocess.run([sys.executable, "-m", "kayles", "survey", *codes, "--to", limit,
                        "--jobs", "1", "--db", str(db)], check=True, capture_output=True,
                       cwd=ROOT)
    with TestClient(create_app(Service(str(db)))) as client:
        data = ok(client.get("/api/survey", params={"computed": "500"}))
        default = ok(client.get("/api/survey"))
        other = ok(client.get("/api/survey", params={"computed": "300"}))
        none = ok(client.get("/api/survey", params={"computed": "1000"}))
    assert [r["code"] for r in data["rows"]] == ["0.07", "0.77"]
    assert data["rows"][1]["period"] == 12 and data["rows"][1]["preperiod"] == 71
    assert [list(row) for row in data["rows"]] == [list(COLUMNS[:-2])] * 2
    assert (data["rows"][1]["status"], data["rows"][1]["computed"]) == ("solved", 500)
    assert other["rows"][0]["status"] == "open"
    assert default["computed"] == 500 and default["rows"] == data["rows"]
    assert [r["code"] for r in other["rows"]] == ["0.6"]
    assert none["rows"] == [] and none["computed"] == 1000
    assert data["limits"] == [{"computed": 300, "rows": 1}, {"computed": 500, "rows": 2}]


def test_start_up_never_pays_for_the_web_stack():
    for command in (["-m", "kayles", "grundy", "5"], [str(ROOT / "Kayles-xox"), "grundy", "5"]):
        if command[0] == "-m":
            argv = [sys.executable, "-X", "importtime", *command]
        else:  # ./Kayles-xox is a sh launcher: its own Python command, with -X importtime
            launch = shlex.split((ROOT / "Kayles-xox").read_text().splitlines()[-1])
            assert launch[0] == "exec" and launch[-1] == "$@", launch
            argv = [launch[1], "-X", "importtime", *launch[2:-1], *command[1:]]
        result = subprocess.run(argv, capture_output=True, cwd=ROOT, timeout=60)
        assert result.returncode == 0, result.stderr[-500:]
        imported = result.stderr.decode()
        for heavy in ("starlette", "uvicorn", "anyio", "httpx"):
            assert f" {heavy}" not in imported, heavy


def test_serve_says_where_it_listens_and_refuses_a_missing_db(tmp_path):
    result = subprocess.run([sys.executable, "-m", "kayles", "serve", "--db",
                             str(tmp_path / "none.sqlite")], capture_output=True, cwd=ROOT,
                            timeout=60)
    assert result.returncode == 1 and b"No such file" in result.stderr
    with subprocess.Popen([sys.executable, "-m", "kayles", "serve", "--port", "0"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT) as server:
        try:
            line = server.stdout.readline().decode()
        finally:
            server.terminate()
            server.wait(timeout=30)
    assert line.startswith("kayles serve: http://127.0.0.1:") and line.endswith("(Ctrl-C stops)\n")
    assert json.loads  # the page's data is JSON: see the other tests


def test_boards_are_valued_answered_and_bounded_in_time(client):
    """Cram, Node Kayles on a grid and Chomp: every value the brute force's (tests/oracle.py),
    each winning move's board valued 0 by it, the computer's reply a winning move where there
    is one (else a move), one move from the position; a board too hard for the page's
    seconds is one 400 that names kayles solve (the search stopped by the interrupt hook)."""
    for family, text, rows, cols in (("cram", "3x4", 3, 4), ("cram", "..#./..../.#..", 3, 4),
                                     ("node-kayles", "3x3", 3, 3),
                                     ("node-kayles", "..../#.../....", 3, 4)):
        node = family == "node-kayles"
        graph = oracle.grid_graph(rows, cols)

        def value(board: str, graph=graph, node=node) -> int:
            cells = board.replace("/", "")
            return oracle.kayles_on_graph(graph, frozenset(i for i, ch in enumerate(cells)
                                                           if ch == "."), node=node)

        report = ok(client.post("/api/board", json={"family": family, "position": text,
                                                    "reply": True}))
        board = report["position"]
        assert report["value"] == value(board) and report["outcome"] == "NP"[report["value"] == 0]
        assert all(value(w) == 0 for w in report["winning"])
        reply = report["reply"]
        if report["value"]:
            assert reply["position"] in report["winning"]
        assert reply["value"] == value(reply["position"])
        taken = [a == "." and b == "#" for a, b in zip(board, reply["position"])]
        assert sum(taken) >= 1 and all(a == b or t for a, b, t in
                                       zip(board, reply["position"], taken))
    report = ok(client.post("/api/board", json={"family": "chomp", "position": "4,4,2"}))
    assert report["value"] == oracle.chomp_value((4, 4, 2)) and "reply" not in report
    assert all(oracle.chomp_value(tuple(map(int, w.split(",")))) == 0 for w in report["winning"])
    hard = TestClient(create_app(Service(seconds=0.2)))
    refused(hard.post("/api/board", json={"family": "cram", "position": "7x9"}), 400,
            "ask the command line (kayles solve cram)")


def test_a_long_request_on_one_game_holds_up_no_other():
    """Each game has its own lock: while one is held (a long request on .07), another
    game's requests are answered."""
    service = Service()
    busy = service._entry(get_game("0.07"))
    with busy.lock:
        assert service.nimber({"game": "kayles", "n": "10"})["value"] == 2
        assert service.analyse({"game": "0.137", "misere": True, "position": [5]})["outcome"]


def test_the_games_kept_are_bounded():
    """However many games are asked for, at most MAX_GAMES sequences and misère solvers
    are kept (the least recently used go first)."""
    service = Service()
    codes = [f"0.{a}{b}" for a in range(1, 8) for b in range(1, 8)]
    for code in codes:
        service.analyse({"game": code, "misere": True, "position": [6, 3]})
    assert list(service._games) == [get_game(code).name for code in codes[-MAX_GAMES:]]


def test_a_hostile_max_in_the_survey_database_is_refused(tmp_path):
    """A row whose max is not a positive integer (an edited file) is one 400 line naming
    the file, not a traceback or a row shown."""
    import sqlite3

    db = tmp_path / "s.sqlite"
    subprocess.run([sys.executable, "-m", "kayles", "survey", "0.77", "--max", "300",
                    "--jobs", "1", "--db", str(db)], check=True, capture_output=True, cwd=ROOT)
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE games SET max = 'lots'")
    with TestClient(create_app(Service(str(db)))) as client:
        response = client.get("/api/survey")
    assert response.status_code == 400
    assert response.json()["error"].endswith("a row's max is not one kayles wrote")


def _surveyed(db, *codes: str, limit: str = "2000") -> None:
    subprocess.run([sys.executable, "-m", "kayles", "survey", *codes, "--max", limit,
                    "--jobs", "1", "--db", str(db)], check=True, capture_output=True, cwd=ROOT)


def test_a_damaged_database_is_one_400_and_one_line(tmp_path):
    """2,000 bytes overwritten in the middle of the file: the page says so in one JSON 400
    naming the file, the command in one line, status 2; never a traceback."""
    db = tmp_path / "s.sqlite"
    _surveyed(db, *[f"0.{d}" for d in range(10, 80) if "8" not in str(d) and "9" not in str(d)],
              limit="40000")
    size = db.stat().st_size
    with open(db, "r+b") as handle:  # the start of a page in the middle: its b-tree header
        handle.seek(size // 4096 // 2 * 4096)
        handle.write(bytes(range(256)) * 8)
    with TestClient(create_app(Service(str(db))), raise_server_exceptions=False) as client:
        response = client.get("/api/survey", params={"computed": "40000"})
    assert response.status_code == 400, response.text
    assert "not a usable survey database" in response.json()["error"]
    assert str(db) in response.json()["error"]
    result = subprocess.run([sys.executable, "-m", "kayles", "survey", "--digits", "2",
                             "--max", "40000", "--db", str(db)], capture_output=True, cwd=ROOT)
    err = result.stderr.decode()
    assert result.returncode == 2 and err.count("\n") == 1 and str(db) in err, err
    assert "Traceback" not in err and "internal error" not in err


def test_the_server_reads_an_old_database_without_writing_it(tmp_path):
    """A schema-1 file in rollback-journal mode: served as it is (mode=ro), never migrated
    to WAL or schema 4, its bytes unchanged."""
    import sqlite3

    db = tmp_path / "old.sqlite"
    _surveyed(db, "0.77", "0.07", limit="500")
    with sqlite3.connect(db) as con:  # make it what an old kayles wrote
        con.execute("PRAGMA journal_mode = DELETE")
        con.execute("DROP TABLE records")
        con.execute("DROP TABLE quotients")
        con.execute("ALTER TABLE games DROP COLUMN signature")
        con.execute("ALTER TABLE games DROP COLUMN saltus")
        con.execute("PRAGMA user_version = 1")
    before = db.read_bytes()
    with TestClient(create_app(Service(str(db)))) as client:
        data = ok(client.get("/api/survey", params={"computed": "500"}))
    assert [r["code"] for r in data["rows"]] == ["0.07", "0.77"]
    assert db.read_bytes() == before
    assert not (tmp_path / "old.sqlite-wal").exists()


def test_a_row_of_another_game_is_refused(tmp_path):
    """0.77's row copied under 0.07 (its checksum right: the row is 0.77's own) is not shown
    as 0.07's: its signature (which covers its code) fails, so the page leaves it out and a
    survey computes 0.07 again; signed with the key (as whoever can read it could), its first
    values are derived again from its code's rules, and it is refused.  (The survey says, in
    one line, that it computes a row not signed with this user's key again.)"""
    import sqlite3

    from kayles.storage.store import _games_row, _signer

    db = tmp_path / "s.sqlite"
    _surveyed(db, "0.77", limit="500")
    with sqlite3.connect(db) as con:
        con.execute("UPDATE games SET code = '0.07'")
    with TestClient(create_app(Service(str(db)))) as client:
        assert ok(client.get("/api/survey", params={"computed": "500"}))["rows"] == []
    command = [sys.executable, "-m", "kayles", "survey", "0.07", "--max", "500", "--db"]
    fresh = subprocess.run([*command, str(tmp_path / "fresh.sqlite")], capture_output=True,
                           cwd=ROOT)
    again = subprocess.run([*command, str(db)], capture_output=True, cwd=ROOT)
    assert (again.returncode, again.stdout) == (0, fresh.stdout)
    assert again.stderr.decode().startswith(f"kayles survey: {db}: 1 survey row not signed "
                                            "with this user's key is computed again")
    _surveyed(db, "0.77", limit="500")
    with sqlite3.connect(db) as con:  # the copy again, signed
        con.execute("DELETE FROM games WHERE code = '0.07'")
        con.execute("UPDATE games SET code = '0.07'")
        row = con.execute("SELECT max, seconds, saltus, proved, preperiod, period, values_used, "
                          "largest, largest_heap, mask, rare, last_rare, checksum, head "
                          "FROM games").fetchone()
        signature = _signer(_games_row("0.07", row[0], row[1], row[2], row[3:-1]),
                            row[-1]).hexdigest()
        con.execute("UPDATE games SET signature = ?", (signature,))
    result = subprocess.run([*command, str(db)], capture_output=True, cwd=ROOT)
    err = result.stderr.decode()
    assert result.returncode == 2 and "the row of 0.07" in err and "not its game's" in err, err
    assert result.stdout == b""


def test_the_page_weights_in_the_docs_are_the_files():
    """docs/commands/web.md gives each static file's size: they are the files' (KB: 1,000
    bytes, one decimal), so the figure cannot drift."""
    import re

    page = (ROOT / "docs" / "commands" / "web.md").read_text()
    static = ROOT / "kayles" / "interface" / "web" / "static"
    sizes = {path.name: path.stat().st_size for path in static.iterdir() if path.is_file()}
    for name, size in sizes.items():
        assert f"`{name}` {size / 1000:.1f} KB" in page, name
    total = re.search(r"no outside assets: ([0-9.]+) KB", page).group(1)
    assert total == f"{sum(sizes.values()) / 1000:.1f}"
