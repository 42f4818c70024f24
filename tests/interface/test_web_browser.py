"""The web page in a real browser: Chromium, driven by Playwright, on a real server.

The server is ``kayles serve --port 0`` in its own process; the browser is the
system's Chromium (Debian's ``chromium``).  Where no Chromium can be had the tests
skip, saying so, unless KAYLES_REQUIRE_BROWSER=1 (CI sets it: there they fail).
Each test leaves screenshots in its tmp_path (KAYLES_SCREENSHOTS=DIR keeps copies:
``make screenshots`` puts them in docs/screenshots, where the README and docs show
them), on a desktop window (1280 x 900) and a phone's (390 x 844).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from kayles import row
from kayles.storage.proof_cache import shared

from conftest import ROOT

pytestmark = pytest.mark.slow  # Chromium on a real server: make test-slow (CI runs it)

REQUIRED = os.environ.get("KAYLES_REQUIRE_BROWSER") == "1"
TIMEOUT = 60


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    reason = "no Chromium here (Debian: apt-get install chromium)"
    if REQUIRED:
        pytest.fail(f"KAYLES_REQUIRE_BROWSER is set but there is {reason}")
    pytest.skip(reason)


def serving(*options: str):
    """kayles serve --port 0 OPTIONS in its own process: yields its address, stops it after."""
    pytest.importorskip("uvicorn")
    with subprocess.Popen([sys.executable, "-m", "kayles", "serve", "--port", "0", *options],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT) as process:
        try:
            line = process.stdout.readline().decode()
            assert line.startswith("kayles serve: http://"), process.stderr.read()
            yield line.split()[2]
        finally:
            process.terminate()
            process.wait(timeout=TIMEOUT)


@pytest.fixture(scope="module")
def server():
    yield from serving()


@pytest.fixture(scope="module")
def browser():
    executable = _chromium()
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=executable,
                                          args=["--no-sandbox", "--disable-gpu"])
        yield chromium
        chromium.close()


def opened(browser, server, tmp_path, width: int, height: int):
    """A page of the server at this window size, loaded; its screenshots kept after
    (KAYLES_SCREENSHOTS)."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(TIMEOUT * 1000)
    page.goto(server)
    page.wait_for_selector("body[data-ready=yes]")
    yield page
    keep = os.environ.get("KAYLES_SCREENSHOTS")
    for shot in tmp_path.glob("*.png"):
        if keep:
            shutil.copy(shot, keep)
    page.close()


@pytest.fixture
def page(browser, server, tmp_path):
    yield from opened(browser, server, tmp_path, 1280, 900)


def test_the_page_is_drawn_before_its_script_and_its_data_come(browser, server, tmp_path):
    """On a busy machine the first answers come late (a screenshot taken early was blank):
    the layout, the first board (ten pins), the game's rules and the places of what is to
    come are drawn by the HTML and CSS alone, with the script and every API request held;
    the script, let in, keeps them while the API is still held; the answers fill them in."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_default_timeout(TIMEOUT * 1000)
    held: list = []

    def hold(route) -> None:
        held.append(route)

    page.route("**/static/app.js", hold)
    page.route("**/api/**", hold)
    try:
        page.goto(server, wait_until="commit")
        page.wait_for_selector("#board .pin", state="visible")
        page.wait_for_function("document.readyState !== 'loading'")  # all of the HTML
        page.screenshot(path=str(tmp_path / "drawn-at-once.png"))
        assert [r.request.url.rsplit("/", 1)[1] for r in held] == ["app.js"]

        def drawn() -> None:
            pins = page.query_selector_all("#board .pin")
            assert len(pins) == 10 and all(pin.is_visible() for pin in pins)
            box = page.query_selector("#board").bounding_box()
            assert box["width"] > 0 and box["y"] + box["height"] <= 844
            assert page.inner_text("#game-rules") == ("take one pin, or the outer two of "
                                                      "three consecutive pins")
            assert page.inner_text("#message") == "Working out the position…"
            assert page.is_disabled("#hint")
            assert sideways(page) == 0

        drawn()
        with page.expect_request("**/api/analyse"):
            held.pop().continue_()  # the script, now: its API requests are held
        drawn()
        page.unroute("**/api/**")
        while held:
            held.pop().continue_()
        page.wait_for_selector("body[data-ready=yes]")
        assert not page.is_disabled("#hint") and page.inner_text("#message") == ""
        expected = row.winning_move("xxxxxxxxxx", shared("kayles-xox"))
        assert page.inner_text("#best").endswith(f"=> {expected}")
        assert "G(n + 12) = G(n)" in page.inner_text("#proof")
    finally:
        page.close()


def start(page, position: str, game: str = "kayles-xox") -> None:
    page.select_option("#game-name", game)
    page.fill("#game-code", "")
    page.fill("#start", position)
    page.click("#new-game")
    shown = "[...document.querySelectorAll('#board .pin')].map(p => " \
            "p.classList.contains('gone') ? '.' : 'x').join('')"
    page.wait_for_function(f"{shown} === {position!r}")


def position(page) -> str:
    return "".join("." if "gone" in pin.get_attribute("class") else "x"
                   for pin in page.query_selector_all("#board .pin"))


def play(page, pins: list[int]) -> None:
    """Pick the pins (1-based), play them, wait for the answer."""
    before = len(page.query_selector_all("#log li"))
    for pin in pins:
        page.click(f'[data-pin="{pin}"]')
    page.click("#play-move")
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")


def test_a_whole_game_followed_by_hints_is_won(page, tmp_path):
    """Each hint is the engine's winning move (what `kayles move` prints), and following the
    hints wins: the page says so once the computer has no move left."""
    start(page, "xxxxxxxxx")
    while "No move is left" not in page.inner_text("#message"):
        now = position(page)
        page.click("#hint")
        hinted = sorted(int(el.get_attribute("data-pin"))
                        for el in page.query_selector_all("#board .pin.hinted"))
        expected = row.winning_move(now, shared("kayles-xox"))
        assert expected is not None, now  # the winner always has one
        assert page.inner_text("#message").endswith(f"=> {expected}")
        taken = [i + 1 for i, (a, b) in enumerate(zip(now, expected)) if a != b]
        assert hinted == taken
        explained = page.inner_text("#why")
        assert "the nim-sum becomes 0" in explained
        play(page, hinted)
        if not (tmp_path / "desktop-play.png").exists():
            page.screenshot(path=str(tmp_path / "desktop-play.png"))
    assert sideways(page) == 0
    page.screenshot(path=str(tmp_path / "desktop-won.png"))
    assert page.inner_text("#message") == "No move is left: you win!"
    assert len(page.query_selector_all("#board .pin.gone")) == 9


def test_a_game_from_a_loss_is_lost(page, tmp_path):
    """xxx.x.xxxx is a LOSS (the assignment's example): whatever the user plays, perfect
    play answers and wins; the page explains there is no winning move."""
    start(page, "xxx.x.xxxx")
    assert page.inner_text("#best") == "none"
    assert "nim-sum of the parts' Grundy values is 0" in page.inner_text("#why")
    while "No move is left" not in page.inner_text("#message"):
        first = position(page).index("x") + 1
        play(page, [first])
        assert page.inner_text("#best") in ("none", "") or "No move" in page.inner_text(
            "#message")  # after each answer the user again faces a loss
    page.screenshot(path=str(tmp_path / "desktop-lost.png"))
    assert page.inner_text("#message") == "No move is left: I win."


def test_an_illegal_move_is_explained_and_undo_goes_back(page, tmp_path):
    start(page, "xxxxxxx")
    before = position(page)
    page.click('[data-pin="1"]')
    page.click('[data-pin="2"]')
    page.click("#play-move")
    page.wait_for_selector("#message.error")
    assert page.inner_text("#message") == ("Not a move: pins 1-2 is not one move of kayles-xox "
                                          "(take one pin, or the outer two of three "
                                          "consecutive pins).")
    assert position(page) == before
    play(page, [1, 3])  # the outer two of three: Kayles-xox's xox move
    assert position(page)[:3] == ".x."
    page.click("#undo")
    page.wait_for_function("document.getElementById('message').textContent === 'Undone.'")
    assert position(page) == before and page.inner_text("#log") == ""
    page.screenshot(path=str(tmp_path / "desktop-undo.png"))


def test_the_explorer_shows_kayles_proved_period(page, tmp_path):
    page.click("#tab-explore")
    page.fill("#explore-game", "kayles")
    page.click("#show")
    page.wait_for_selector("#plot svg")
    assert page.inner_text("#proof") == ("kayles: G(n + 12) = G(n) for every n >= 71: proved "
                                        "by the octal periodicity theorem from the first 167 "
                                        "values.")
    assert "0, 3, 5, 6" in page.inner_text("#rare")
    assert page.query_selector("#plot .preperiod") is not None
    page.fill("#nimber-n", "1000000000000")
    page.click("#nimber-go")
    page.wait_for_function("document.getElementById('nimber-value').textContent !== ''")
    value = shared("kayles").nimber(10**12)
    assert page.inner_text("#nimber-value") == f"G(1000000000000) = {value}"
    assert sideways(page) == 0
    page.screenshot(path=str(tmp_path / "desktop-explore.png"))


def test_heaps_are_played_by_picking_a_heap_and_its_parts(page, tmp_path):
    page.select_option("#game-name", "grundy")
    page.fill("#start", "7 5 3")
    page.click("#new-game")
    page.wait_for_selector('[data-heap="2"]')
    assert page.inner_text("#best") == "heap 2: 5 -> 2 + 3 => 7 2 3 3"
    before = len(page.query_selector_all("#log li"))
    page.click('[data-heap="2"]')
    page.fill("#parts", "2 3")
    page.click("#play-move")
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
    assert page.inner_text("#log").splitlines()[0] == "you: heap 2: 5 -> 2 + 3 => 7 2 3 3"
    page.screenshot(path=str(tmp_path / "desktop-heaps.png"))


# -- a phone (390 x 844), a keyboard, a first visit ------------------------------------------------


@pytest.fixture
def phone(browser, server, tmp_path):
    yield from opened(browser, server, tmp_path, 390, 844)


def sideways(page) -> int:
    """How far the page scrolls sideways (0: it fits the window's width)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_on_a_phone_a_whole_game_is_played_and_explained(phone, tmp_path, misere):
    """A game to its end at 390 px wide, following the hints where there is a winning move:
    nothing scrolls sideways; the Why panel stays hidden till the first move; in misère play
    it names what found the outcome and never shows a nim-sum or Grundy values."""
    if misere:
        phone.check("#misere")
    start(phone, "xxxxxxxx")
    assert sideways(phone) == 0
    assert not phone.is_visible("#explain")
    phone.screenshot(path=str(tmp_path / f"phone-play-{'misere' if misere else 'normal'}.png"))
    moves = 0
    while "No move is left" not in phone.inner_text("#message"):
        phone.click("#hint")
        hinted = [int(el.get_attribute("data-pin"))
                  for el in phone.query_selector_all("#board .pin.hinted")]
        play(phone, hinted or [position(phone).index("x") + 1])
        moves += 1
        assert phone.is_visible("#explain")
        assert sideways(phone) == 0
        if misere:
            assert not phone.is_visible("#nim-sum-line")
            assert not phone.is_visible("#parts-table .grundy")
            assert phone.is_visible("#found-by-line")
            assert "Nim-sums do not decide misère play" in phone.inner_text("#why") or \
                "No move is left" in phone.inner_text("#why")
        else:
            assert phone.is_visible("#nim-sum-line")
    assert moves >= 1
    phone.screenshot(path=str(tmp_path / f"phone-end-{'misere' if misere else 'normal'}.png"))


def test_the_game_list_and_the_code_field_agree(phone):
    """Choosing a game fills in its octal code (none for Kayles-xox); a code typed selects
    the game with those moves, or 'custom', and that is what is played."""
    phone.select_option("#game-name", "kayles")
    assert phone.input_value("#game-code") == "0.77"
    phone.select_option("#game-name", "kayles-xox")
    assert phone.input_value("#game-code") == ""
    phone.fill("#game-code", "0.161")
    assert phone.input_value("#game-name") == "custom"
    phone.fill("#start", "7 5")
    phone.click("#new-game")
    phone.wait_for_selector('[data-heap="2"]')
    phone.fill("#game-code", "0.07")
    assert phone.input_value("#game-name") == "dawsons-kayles"


@pytest.mark.parametrize("pins", [8, 12, 40])
def test_on_a_phone_a_row_stays_on_one_line(phone, pins):
    """At 390x844 a row of pins is one line (the lesson's picture of adjacent pins): 8 and
    12 pins shrink to fit, each at least 24 px across (a target a finger can tap); 40
    scroll inside the board, never the page.  The game list shows its names whole, the
    rules of the game chosen under it."""
    start(phone, "x" * pins)
    boxes = phone.evaluate("[...document.querySelectorAll('#board .pin')].map(p => {"
                           "const r = p.getBoundingClientRect(); return [r.top, r.width]})")
    assert len(boxes) == pins and len({round(top) for top, _ in boxes}) == 1
    assert min(width for _, width in boxes) >= 24
    fits = phone.evaluate("(() => {const b = document.getElementById('board');"
                          "return b.scrollWidth <= b.clientWidth})()")
    assert fits == (pins <= 12)
    assert sideways(phone) == 0
    names = phone.evaluate("[...document.querySelectorAll('#game-name option')]"
                           ".map(o => o.textContent)")
    assert "kayles-xox" in names and max(map(len, names)) <= 20
    assert phone.inner_text("#game-rules") == ("take one pin, or the outer two of three "
                                               "consecutive pins")
    phone.select_option("#game-name", "kayles")
    assert phone.inner_text("#game-rules") == "0.77: take one pin or two adjacent pins"


def test_a_move_is_played_with_the_keyboard_alone(phone):
    """Pins are buttons: Tab reaches them, Space picks one, Enter on Play move plays it."""
    start(phone, "xxxxx")
    phone.focus('[data-pin="3"]')
    phone.keyboard.press("Space")
    assert phone.get_attribute('[data-pin="3"]', "aria-pressed") == "true"
    phone.focus("#play-move")
    phone.keyboard.press("Enter")
    phone.wait_for_function("document.querySelectorAll('#log li').length > 0")
    assert phone.inner_text("#log").splitlines()[0] == "you: pin 3 => xx.xx"


def test_explore_draws_on_first_load_at_the_width_it_is_shown(phone, tmp_path):
    phone.click("#tab-explore")
    phone.wait_for_selector("#plot svg")
    width = phone.evaluate("document.querySelector('#plot svg').viewBox.baseVal.width")
    shown = phone.evaluate("document.getElementById('plot').clientWidth")
    assert width == max(300, shown)
    assert sideways(phone) == 0
    phone.screenshot(path=str(tmp_path / "phone-explore.png"))


def test_the_lesson_is_walked_and_every_number_is_right(phone, tmp_path):
    """The Learn tab on a phone: a move splits the row; the mex table of each n lists every
    move of Kayles-xox (the oracle's) with its value, and its mex is G(n); the nim-sum;
    a code's moves and values; Kayles' period with its rows of one period each."""
    from oracle import KAYLES_XOX, mex, octal_nimbers, xox_moves

    phone.click("#tab-learn")
    phone.wait_for_selector("#lesson-cycle tr")
    assert sideways(phone) == 0
    phone.click('#lesson-row [data-pin="3"]')
    assert phone.inner_text("#lesson-row-said").startswith("Taking pin 3 leaves rows of 2 and 4 "
                                                         "pins")
    G = KAYLES_XOX.nimbers(31)
    for n in (0, 1, 4, 5, 9, 30):
        phone.fill("#lesson-n", str(n))
        cells = [row.inner_text().split("\t")
                 for row in phone.query_selector_all("#lesson-options tbody tr")]
        assert len(cells) == len(xox_moves("x" * n)), n
        options = sorted(int(value) for *_, value in cells)
        expected = sorted(KAYLES_XOX.grundy(after) for after in xox_moves("x" * n))
        assert options == expected, n
        assert mex(options) == G[n]
        said = phone.inner_text("#lesson-mex")
        assert f"G({n}) = {G[n]}" in said
    phone.fill("#lesson-a", "4")
    phone.fill("#lesson-b", "7")
    lines = phone.inner_text("#lesson-xor").splitlines()
    assert lines[2].startswith(f"nim-sum  = {G[4] ^ G[7]:>3} = ")
    phone.fill("#lesson-code", "0.07")
    phone.press("#lesson-code", "Enter")
    phone.wait_for_function("document.getElementById('lesson-code-values').textContent"
                            ".startsWith('0.07')")
    values = phone.inner_text("#lesson-code-values").split(" = ", 1)[1]
    assert values == ", ".join(map(str, octal_nimbers("0.07", 23)))  # G(0..23)
    moves = [item.inner_text() for item in phone.query_selector_all("#lesson-moves li")]
    assert moves == ["remove 'xx', leaving 0 or 1 or 2 non-empty part(s)"]   # digit 2 is 7
    assert "G(n + 12) = G(n) for every n >= 71" in phone.inner_text("#lesson-period")
    cycle = [[cell.inner_text() for cell in row.query_selector_all("td")]
             for row in phone.query_selector_all("#lesson-cycle tr")]
    assert len(cycle) >= 2 and all(row == cycle[0] for row in cycle)
    phone.fill("#lesson-n", "5")   # a short table for the picture
    phone.screenshot(path=str(tmp_path / "phone-learn.png"), full_page=True)


def saltus_rows(phone) -> list[list[str]]:
    return [[cell.inner_text() for cell in row.query_selector_all("td")]
            for row in phone.query_selector_all("#saltus-cycle tr")]


def test_the_lesson_draws_a_hexadecimal_code_with_its_saltus(phone):
    """Step 6: 0.A8's period rows, each row the one above plus the saltus, against values a
    brute-force oracle enumerates from the digits' rules; 0.3F observed, not proved; a bad
    code is one line."""
    from oracle import TakeBreak

    phone.click("#tab-learn")
    phone.wait_for_selector("#saltus-cycle tr")
    assert sideways(phone) == 0
    said = phone.inner_text("#saltus-proof")
    assert "G(n + 4) = G(n) + 2 for every n >= 1: proved by theorem A" in said
    g = TakeBreak({1: {1: "", 3: ""}, 2: {3: ""}}).nimbers(30)  # 0.A8: A = 1010, 8 = 1000
    rows = saltus_rows(phone)
    assert len(rows) >= 3
    for k, cells in enumerate(rows):
        start = 1 + 4 * k
        assert cells[:4] == [str(v) for v in g[start:start + 4]], k
        assert cells[4:] == ([] if k == 0 else ["+2"])
    phone.fill("#saltus-code", "0.3F")
    phone.press("#saltus-code", "Enter")
    phone.wait_for_function("document.getElementById('saltus-proof').textContent"
                            ".startsWith('0.3F')")
    assert "G(n + 6) = G(n) + 3 for n = 0 to" in phone.inner_text("#saltus-proof")
    assert "observed, not proved" in phone.inner_text("#saltus-proof")
    assert saltus_rows(phone) == []
    phone.fill("#saltus-code", "0.&;")
    phone.press("#saltus-code", "Enter")
    phone.wait_for_function("!document.getElementById('saltus-proof').textContent"
                            ".startsWith('0.3F')")
    assert "\n" not in phone.inner_text("#saltus-proof").strip()


@pytest.fixture(scope="module")
def survey_server(tmp_path_factory):
    """kayles serve --db on a survey database holding rows at two maxes."""
    db = tmp_path_factory.mktemp("survey") / "s.sqlite"
    for codes, limit in ((["0.77", "0.07", "0.137"], "500"), (["0.6"], "300")):
        subprocess.run([sys.executable, "-m", "kayles", "survey", *codes, "--max", limit,
                        "--jobs", "1", "--db", str(db)], check=True, capture_output=True,
                       cwd=ROOT, timeout=TIMEOUT)
    yield from serving("--db", str(db))


def test_the_survey_explorer_picks_a_max_filters_and_draws_a_row(browser, survey_server,
                                                                  tmp_path):
    pages = opened(browser, survey_server, tmp_path, 390, 844)
    page = next(pages)
    page.click("#tab-explore")
    options = [o.inner_text() for o in page.query_selector_all("#survey-max option")]
    assert options == ["300 values (1 row)", "500 values (3 rows)"]
    assert page.input_value("#survey-max") == "500"   # the max with the most rows
    codes = [b.inner_text() for b in page.query_selector_all("#survey-table button.link")]
    assert codes == ["0.07", "0.137", "0.77"]
    page.select_option("#survey-max", "300")
    page.wait_for_function("document.querySelectorAll('#survey-table tbody tr').length === 1")
    assert page.inner_text("#survey-table tbody").startswith("0.6")
    page.fill("#survey-filter", "0.9")
    assert page.inner_text("#survey-message") == 'No code here contains "0.9".'
    page.fill("#survey-filter", "")
    page.select_option("#survey-max", "500")
    page.wait_for_function("document.querySelectorAll('#survey-table tbody tr').length === 3")
    page.click("#survey-table button.link >> text=0.77")
    page.wait_for_function("document.getElementById('proof').textContent.startsWith('0.77')")
    assert "G(n + 12) = G(n) for every n >= 71" in page.inner_text("#proof")
    assert sideways(page) == 0
    page.screenshot(path=str(tmp_path / "phone-survey.png"), full_page=True)
    next(pages, None)   # keeps the screenshot, closes the page


def test_explore_zooms_to_a_range_typed_and_lists_its_values(phone):
    """Phones have no wheel: the range is typed; the table lists G(n) of the range drawn,
    ten a row, the rare ones marked, each the engine's value."""
    phone.click("#tab-explore")
    phone.wait_for_selector("#plot svg")
    phone.fill("#plot-from", "60")
    phone.fill("#plot-to", "90")
    phone.press("#plot-to", "Enter")
    phone.wait_for_function("document.querySelector('#plot svg').getAttribute('aria-label')"
                            " === 'G(n) for n = 60..90'")
    lines = [[cell.inner_text() for cell in line.query_selector_all("th, td")]
             for line in phone.query_selector_all("#value-table tr")][1:]
    assert [line[0] for line in lines] == ["60", "70", "80", "90"]
    kayles = shared("kayles")
    for line in lines:
        start = int(line[0])
        assert [int(v) for v in line[1:]] == [kayles.nimber(n) for n in
                                              range(start, min(start + 10, 91))]
    rare = {int(cell.inner_text()) for cell in phone.query_selector_all("#value-table td.rare")}
    assert rare and rare <= {0, 3, 5, 6}   # Kayles' rare values (mask 15)
    assert sideways(phone) == 0


def test_the_lesson_multiplies_nimbers_and_values_a_turning_corners_board(phone):
    """Step 7: a x b from the page's own table is the oracle's (the mex definition), with an
    inverse; the Turning Corners board is worth the nim-sum of x (x) y over its heads coins
    (the tartan theorem, checked against the oracle's products), and a click turns a coin."""
    from oracle import nim_product_table

    table = nim_product_table(16)
    phone.click("#tab-learn")
    phone.wait_for_selector("#corners-board button")
    for a, b in ((5, 6), (7, 15), (0, 9)):
        phone.fill("#corners-a", str(a))
        phone.fill("#corners-b", str(b))
        said = phone.inner_text("#corners-product")
        assert said.startswith(f"{a} \u2297 {b} = {table[a][b]}"), said
        if a and b:
            inverse = table[a].index(1)
            assert f"{a} \u2297 {inverse} = 1" in said

    def heads() -> set[tuple[int, int]]:
        return {tuple(map(int, coin.get_attribute("data-coin").split(",")))
                for coin in phone.query_selector_all("#corners-board button")
                if coin.inner_text() == "H"}

    for click in ("1,1", "3,3", "5,5"):
        phone.click(f'#corners-board [data-coin="{click}"]')
        worth = 0
        for x, y in heads():
            worth ^= table[x][y]
        said = phone.inner_text("#corners-said")
        assert f"the board is worth {worth}," in said, said
        assert ("a win" if worth else "a loss") in said


def test_the_boards_tab_wins_cram_by_its_hints_and_chomp_replies(page, tmp_path):
    """Boards: Cram on 3 x 4 (value 1 by the brute force) played by the hints alone wins
    against perfect play: each hint outlines two free cells side by side whose domino leaves
    a board the brute force values 0, and every value shown is the brute force's.  Chomp 3 x 3
    with the computer first: its reply leaves a P-position (no hint, value 0)."""
    from oracle import chomp_value, cram_value

    def shown_board() -> tuple[int, int, int]:
        free = 0
        for cell in page.query_selector_all("#grid .cell"):
            r, c = map(int, cell.get_attribute("data-cell").split(","))
            if "filled" not in (cell.get_attribute("class") or ""):
                free |= 1 << (r * 4 + c)
        return 3, 4, free

    page.click("#tab-boards")
    page.wait_for_selector("#board-value:not(:empty)")
    assert page.inner_text("#board-value") == str(cram_value(3, 4, (1 << 12) - 1)) == "1"
    page.screenshot(path=str(tmp_path / "boards-cram.png"))
    for _ in range(6):
        if "win" in page.inner_text("#board-message"):
            break
        page.click("#board-hint")
        hinted = [cell.get_attribute("data-cell") for cell in
                  page.query_selector_all("#grid .cell.hinted")]
        assert len(hinted) == 2, hinted
        (r1, c1), (r2, c2) = (map(int, h.split(",")) for h in hinted)
        assert abs(r1 - r2) + abs(c1 - c2) == 1
        rows, cols, free = shown_board()
        left = free & ~(1 << (r1 * 4 + c1)) & ~(1 << (r2 * 4 + c2))
        assert cram_value(rows, cols, left) == 0
        log = len(page.query_selector_all("#board-log li"))
        for h in hinted:
            page.click(f'#grid [data-cell="{h}"]')
        page.wait_for_function(f"document.querySelectorAll('#board-log li').length > {log + 1}"
                               " || document.querySelector('#board-message').textContent"
                               ".includes('win')")
        page.wait_for_selector("#grid .cell:not([disabled]), #board-message.over")
        if "win" not in page.inner_text("#board-message"):
            assert page.inner_text("#board-value") == str(cram_value(*shown_board()))
    assert page.inner_text("#board-message") == "You made the last move: you win."
    page.screenshot(path=str(tmp_path / "desktop-boards.png"))

    page.select_option("#board-family", "chomp")
    page.fill("#board-rows", "3")
    page.fill("#board-cols", "3")
    page.select_option("#board-first", "me")
    page.click("#new-board")
    page.wait_for_selector("#board-log li")
    lengths = tuple(int(n) for n in page.inner_text("#board-log li").removeprefix("me: ")
                    .split(","))
    assert chomp_value(lengths) == 0 and chomp_value((3, 3, 3)) == 5
    assert page.inner_text("#board-value") == "0" and page.is_disabled("#board-hint")
    page.screenshot(path=str(tmp_path / "boards-chomp.png"))
