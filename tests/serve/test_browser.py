"""The web board in a real browser: headless Chromium driven by selenium.

For each game a self-played record (or a position) is opened with ``polytile serve``; the
test steps forward and back (buttons, arrow keys, a click on a move), plays a legal move and
sees the board change and a variation start, tries an illegal one and sees the rules'
message; for a Blokus endgame it asks for an analysis and sees the exact value. A failing
test saves a screenshot (its path is in the failure's message). Without Chromium, its driver
or selenium the tests are skipped, saying which is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from polytile.faces.registry import face

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
try:
    import selenium  # noqa: F401

    SELENIUM = ""
except ImportError:
    SELENIUM = "selenium is not installed (pip install selenium)"

_missing = SELENIUM or (
    "" if CHROMIUM and DRIVER else
    "no headless browser: install Debian's chromium and chromium-driver "
    "(apt-get install -y chromium chromium-driver; .ci/run does)"
)  # fmt: skip
pytestmark = pytest.mark.skipif(bool(_missing), reason=_missing)

#: Seconds to wait for the page to show what a step asked for.
WAIT = 20


#: Times Chromium is started before the browser tests fail: a start can fail on a loaded
#: machine (CI saw "DevToolsActivePort file doesn't exist" for every test once), and a
#: second start with a fresh profile, talking over a pipe instead of a port, usually works.
STARTS = 3


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Headless Chromium. Each start has a profile of its own and writes Chromium's log;
    when every start fails, the failure shows the last log's end, so that the cause can be
    read from the CI's output."""
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service

    folder = tmp_path_factory.mktemp("chromium")
    failures = []
    for attempt in range(STARTS):
        profile, log = folder / f"profile-{attempt}", folder / f"chromium-{attempt}.log"
        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        pipe = ["--remote-debugging-pipe"] if attempt else []
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1300,1000", f"--user-data-dir={profile}", "--no-first-run",
                     "--disable-crash-reporter", "--disable-extensions", "--enable-logging",
                     f"--log-file={log}", *pipe):  # fmt: skip
            options.add_argument(flag)
        driver_log = folder / f"driver-{attempt}.log"
        service = Service(executable_path=str(DRIVER), log_output=str(driver_log))
        try:
            driver = webdriver.Chrome(service=service, options=options)
            break
        except WebDriverException as exc:
            said = "\n".join(f"{name}'s log ends:\n{path.read_text(errors='replace')[-1200:]}"
                             for name, path in (("Chromium", log), ("chromedriver", driver_log))
                             if path.exists())  # fmt: skip
            failures.append(f"start {attempt + 1}: {exc.msg}\n{said}")
    else:
        pytest.fail(f"Chromium did not start in {STARTS} tries:\n" + "\n".join(failures))
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def server(game_files: dict[str, Path], store_file: Path, hand_store: Path) -> Iterator[str]:
    """``polytile serve`` on every game's file and two puzzle sets; its URL with the
    token."""
    order = ["henning", "blokus", "gridblock", "walkable", "cityblocks", "gridblock-split"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    process = subprocess.Popen([sys.executable, "-m", "polytile", "serve", "--port", "0",
                                *(str(game_files[g]) for g in order), str(store_file),
                                str(hand_store)],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env=env)  # fmt: skip
    try:
        assert process.stdout is not None
        yield process.stdout.readline().strip()
    finally:
        process.terminate()
        process.wait(30)


INDEX = {"henning": 0, "blokus": 1, "gridblock": 2, "walkable": 3, "cityblocks": 4,
         "gridblock-split": 5}


@pytest.fixture
def page(browser: Any, server: str) -> Any:
    """The board, open in the browser."""
    browser.get(server)
    return browser


def shot_on_failure(driver: Any, where: Path, check: Callable[[], None]) -> None:
    """Run ``check``; when it fails, save a screenshot and say where."""
    try:
        check()
    except Exception as exc:
        folder = Path(os.environ.get("POLYTILE_SCREENSHOTS", str(where)))
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "failure.png"
        driver.save_screenshot(str(path))
        raise AssertionError(f"{exc} (screenshot: {path})") from exc


def _wait_for(driver: Any, condition: Callable[[Any], Any], what: str,
              seconds: float = WAIT) -> Any:  # fmt: skip
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(driver, seconds).until(condition)
    except TimeoutException:
        raise AssertionError(f"waited {seconds} s for {what}") from None


def _text(driver: Any, element_id: str) -> str:
    return str(driver.find_element("id", element_id).text)


def _open(driver: Any, game: str) -> None:
    from selenium.webdriver.support.ui import Select

    _wait_for(driver, lambda d: len(d.find_elements("css selector", "#records option")) >= 5,
              "the list of records")  # fmt: skip
    Select(driver.find_element("id", "records")).select_by_value(str(INDEX[game]))
    _wait_for(driver, lambda d: d.find_element("id", "board").get_attribute("src") and
              d.execute_script("return document.getElementById('board').naturalWidth") > 0
              and d.execute_script("return state.view && state.index") == INDEX[game],
              f"the {game} board drawn")  # fmt: skip


def _at(driver: Any) -> int:
    return int(driver.execute_script("return state.view.at"))


def _step_to(driver: Any, n: int, what: str) -> None:
    _wait_for(driver, lambda d: _at(d) == n and
              d.find_element("id", "board").get_attribute("data-at") == str(n), what)  # fmt: skip


def _ask(driver: Any, button: str, seconds: int, shown: str, what: str) -> None:
    """Set the time limit, press ``button``, wait for ``shown`` (a CSS selector)."""
    box = driver.find_element("id", "seconds")
    box.clear()
    box.send_keys(str(seconds))
    driver.find_element("id", button).click()
    _wait_for(driver, lambda d: d.find_elements("css selector", shown), what, seconds + 20)


@pytest.mark.parametrize("game", ["henning", "blokus", "gridblock", "walkable", "cityblocks"])
def test_step_play_and_refuse(page: Any, game: str, game_files: dict[str, Path],
                              tmp_path: Path) -> None:  # fmt: skip
    from selenium.webdriver.common.keys import Keys

    driver = page
    f = face(game)
    moves = f.record_moves(f.read(str(game_files[game])))
    n = len(moves)

    def check() -> None:
        _open(driver, game)
        if n:
            assert _text(driver, "where") == f"move {n} of {n}"
            driver.find_element("id", "first").click()
            _step_to(driver, 0, "the start")
            body = driver.find_element("tag name", "body")
            body.send_keys(Keys.ARROW_RIGHT)
            _step_to(driver, 1, "one move on by the arrow key")
            body.send_keys(Keys.ARROW_RIGHT)
            _step_to(driver, 2, "two moves on")
            body.send_keys(Keys.ARROW_LEFT)
            _step_to(driver, 1, "one move back by the arrow key")
            driver.find_element("id", "next").click()
            _step_to(driver, 2, "the next button")
            driver.find_element("id", "prev").click()
            _step_to(driver, 1, "the back button")
            items = driver.find_elements("css selector", "#moves li")
            assert len(items) == n + 1 and items[n // 2].text == moves[n // 2 - 1]
            items[n // 2].click()
            _step_to(driver, n // 2, "a click on a move")
            assert "current" in (driver.find_elements("css selector", "#moves li")[n // 2]
                                 .get_attribute("class") or "")  # fmt: skip
        at = _at(driver)
        before = driver.find_element("id", "board").get_attribute("src")
        # an illegal move: the rules' message, and nothing changes
        at_once = driver.execute_script("return partsMode()")
        box = driver.find_element("id", "move-input")
        slots = driver.find_elements("css selector", "#parts input.part")
        assert bool(slots) == at_once  # players moving at once: one part each
        for field in slots or [box]:
            field.clear()
            field.send_keys("no such move")
        driver.find_element("id", "play").click()
        said = "no such move | no such move: " if at_once else "no such move: "
        _wait_for(driver, lambda d: d.find_element("id", "message").is_displayed()
                  and d.find_element("id", "message").text.startswith(said),
                  "the illegal move's message")  # fmt: skip
        assert _at(driver) == at
        for field in slots:
            field.clear()
        # a legal move, picked from the list of legal moves (at once: a part for each)
        first = driver.find_element("css selector", "#legal button")
        legal = first.get_attribute("data-move")
        first.click()
        if at_once:
            driver.find_element("id", "play").click()  # one part only: the game says so
            _wait_for(driver, lambda d: "part too" in d.find_element("id", "message").text,
                      "the missing part's message")  # fmt: skip
            first.click()
            assert [f.get_attribute("value") for f in slots] == [legal, legal]
        else:
            assert box.get_attribute("value") == legal
        driver.find_element("id", "play").click()
        _wait_for(driver, lambda d: d.execute_script("return state.view.variation") is True,
                  "a variation started by the move")  # fmt: skip
        assert _at(driver) == at + 1
        assert driver.find_element("id", "board").get_attribute("src") != before
        assert "variation" in _text(driver, "title")
        assert "variation" in _text(driver, "message")
        # #50: a variation leads back to the move it left
        back = driver.find_element("id", "back-to-parent")
        assert back.is_displayed() and f"at move {at}" in back.text
        back.click()
        _wait_for(driver, lambda d: d.execute_script("return state.index") == INDEX[game]
                  and _at(d) == at, "back at the record's move the variation left")
        assert not driver.find_element("id", "variation-note").is_displayed()

    shot_on_failure(driver, tmp_path, check)


def test_walkable_parts_by_clicks(page: Any, tmp_path: Path) -> None:
    """Walkable Cities by clicks: the four cells of a drop (on the boards its sub-pieces
    go to) fill the first player's part, the next four the other's, and the round is played
    as those two parts."""
    driver = page

    def check() -> None:
        _open(driver, "walkable")
        # #50: the three boards at a readable size, not squeezed into a square board's width
        shown = driver.execute_script("return $('board').clientWidth")
        assert shown > 700, shown
        driver.find_element("id", "first").click()
        _step_to(driver, 0, "the start")
        assert driver.execute_script("return partsMode()")
        driver.execute_async_script("loadCells().then(arguments[arguments.length - 1])")
        moves = driver.execute_script("return state.view.cells.moves")
        drops = sorted(moves)
        red = drops[0]
        blue = next(m for m in drops if not set(moves[m]) & set(moves[red]))
        for move in (red, blue):
            for name in moves[move]:
                _click_cell(driver, name)
        slots = driver.find_elements("css selector", "#parts input.part")
        _wait_for(driver, lambda d: [f.get_attribute("value") for f in slots] == [red, blue],
                  "each player's part filled by its cells")  # fmt: skip
        driver.find_element("id", "play").click()
        _wait_for(driver, lambda d: d.execute_script("return state.view.variation") is True
                  and d.execute_script("return state.view.moves[0]") == f"{red} | {blue}",
                  "the round played")  # fmt: skip

    shot_on_failure(driver, tmp_path, check)


def test_analysis_shows_the_exact_value(page: Any, game_files: dict[str, Path],
                                        tmp_path: Path) -> None:  # fmt: skip
    driver = page
    f = face("blokus")
    n = len(f.record_moves(f.read(str(game_files["blokus"]))))

    def check() -> None:
        _open(driver, "blokus")
        driver.find_element("id", "last").click()
        for _ in range(5):
            driver.find_element("id", "prev").click()
            _step_to(driver, n - 1 - _, "a step back")
        _ask(driver, "analyse", 20, "#best .show-best", "the best move")
        assert "answered" in _text(driver, "analysis-state")
        assert "exact" in _text(driver, "analysis-state")
        assert _text(driver, "analysis-summary").startswith("value ")
        # #50: the best move drawn on the live board, over the squares it covers
        best = driver.find_element("css selector", "#best code").text.strip()
        _wait_for(driver, lambda d: d.find_element("id", "best-mark").get_attribute("data-move")
                  == best and d.find_elements("css selector", "#best-mark div"),
                  "the best move drawn on the board")  # fmt: skip
        drawn = len(driver.find_elements("css selector", "#best-mark div"))
        assert drawn == len(best.split()) - 2, best  # colour, piece, then one point a square
        board = driver.find_element("id", "board")
        before = board.get_attribute("src")
        driver.find_element("css selector", "#best .show-best").click()
        _wait_for(driver, lambda d: d.find_element("id", "board").get_attribute("data-preview"),
                  "the best move shown on the board")  # fmt: skip
        assert board.get_attribute("src") != before
        assert driver.find_element("id", "preview-note").is_displayed()
        driver.find_element("id", "next").click()  # a step leaves the preview
        _wait_for(driver, lambda d: not d.find_element("id", "preview-note").is_displayed(),
                  "the preview gone after a step")  # fmt: skip
        # #50: beside another position the analysis is dimmed, says whose it is and leads
        # back; its best move is not drawn on a board it does not belong to
        box = driver.find_element("id", "analysis-box")
        assert "stale" in box.get_attribute("class")
        assert f"after move {n - 5}" in _text(driver, "analysis-elsewhere")
        assert not driver.find_elements("css selector", "#best-mark div")
        driver.find_element("id", "analysis-back").click()
        _step_to(driver, n - 5, "back to the analysed position")
        _wait_for(driver, lambda d: "stale" not in box.get_attribute("class")
                  and d.find_elements("css selector", "#best-mark div"),
                  "the analysis bright again, its best move drawn")  # fmt: skip

    shot_on_failure(driver, tmp_path, check)


def _click_cell(driver: Any, name: str, picture: str = "board",
                cells: str = "state.view.cells.cells", click: bool = True) -> None:  # fmt: skip
    """Click the middle of cell ``name`` of a picture (``picture``, its id; ``cells``, the
    page's map of where it draws each cell), as a person would (only point at it when not
    ``click``)."""
    from selenium.webdriver.common.action_chains import ActionChains

    img = driver.find_element("id", picture)
    x, y, w, h = driver.execute_script(f"return {cells}[arguments[0]]", name)
    natural, shown, height = driver.execute_script(
        "const b = arguments[0]; return [b.naturalWidth, b.clientWidth, b.clientHeight]", img
    )
    scale = shown / natural
    chain = ActionChains(driver).move_to_element_with_offset(
        img, int((x + w / 2) * scale - shown / 2), int((y + h / 2) * scale - height / 2)
    )
    (chain.click() if click else chain).perform()


# Where each playable piece of the shown position can be put down: [piece, image, the cell
# under its middle, the legal move it makes] for the legal ones, found from the page's data
# (its pieces' images, the face's move cells) as a person would try them.
_PUT_DOWN = """
const view = state.view, cells = view.cells, found = [];
const legal = new Map(Object.entries(cells.moves).map(([m, cs]) => [[...cs].sort().join(" "), m]));
view.pieces.forEach((p, i) => p.orientations.forEach((offsets, j) => {
  for (const name of Object.keys(cells.cells)) {
    const [r0, c0] = name.split(",").map(Number);
    const key = offsets.map(([r, c]) => `${r0 + r},${c0 + c}`).sort().join(" ");
    if (legal.has(key)) found.push([i, j, name, legal.get(key)]);
  }
}));
return found;
"""


@pytest.mark.parametrize("game", ["blokus", "cityblocks"])
def test_a_piece_turned_and_put_down(page: Any, game: str, tmp_path: Path) -> None:
    """Choose a piece, turn it over and turn it by keys, see where it would go under the
    pointer, click: the legal placement there is played. A placement the rules forbid
    (on a taken square) is refused with their reason, and nothing changes."""
    from selenium.webdriver.common.keys import Keys

    driver = page

    def choose(index: int, image: int) -> None:
        driver.find_element("css selector", f"#play-pieces button[data-index='{index}']").click()
        body = driver.find_element("tag name", "body")
        for key in "f" * (image // 4) + "r" * (image % 4):  # (f, j): over once, j quarters
            body.send_keys(key)
        _wait_for(driver, lambda d: d.execute_script("return state.piece") == index
                  and d.execute_script("return state.image") == image
                  and d.execute_script("return Boolean(state.view.cells)"),
                  "the piece chosen and turned")  # fmt: skip

    def check() -> None:
        _open(driver, game)
        if driver.execute_script("return state.view.moves.length"):
            driver.find_element("id", "first").click()
            _step_to(driver, 0, "the start")
            driver.find_element("id", "next").click()
            _step_to(driver, 1, "move 1")
        at = _at(driver)
        assert driver.find_element("id", "piece-box").is_displayed()
        driver.execute_async_script("loadCells().then(arguments[arguments.length - 1])")
        options = driver.execute_script(_PUT_DOWN)
        assert options, "no legal placement found from the page's pieces"
        index, image, anchor, move = max(options, key=lambda o: (o[1] >= 5, o[1]))
        choose(index, image)
        covered = driver.execute_script("return state.view.cells.moves[arguments[0]]", move)
        _click_cell(driver, anchor, click=False)
        _wait_for(driver, lambda d: len(d.find_elements("css selector", "#piece-preview div"))
                  == len(covered), "the piece's squares shown under the pointer")  # fmt: skip
        _click_cell(driver, anchor)
        _wait_for(driver, lambda d: d.execute_script("return state.view.variation") is True
                  and _at(d) == at + 1
                  and d.execute_script("return state.view.moves[arguments[0]]", at) == move,
                  "the placement played")  # fmt: skip
        # now a piece put down on a square just taken: the rules refuse it
        playable = driver.execute_script(
            "return state.view.pieces.map((p, i) => p.playable ? i : -1).filter((i) => i >= 0)")
        choose(playable[0], 0)
        before = driver.find_element("id", "board").get_attribute("src")
        spot = driver.execute_script("""
            const p = state.view.pieces[arguments[0]], cells = state.view.cells.cells;
            for (const name of Object.keys(cells)) {
              const [r0, c0] = name.split(",").map(Number);
              const names = p.orientations[0].map(([r, c]) => `${r0 + r},${c0 + c}`);
              if (names.every((n) => n in cells) && arguments[1].some((t) => names.includes(t)))
                return name;
            }
            return null;""", playable[0], covered)  # fmt: skip
        assert spot is not None
        _click_cell(driver, spot)
        _wait_for(driver, lambda d: d.find_element("id", "message").is_displayed()
                  and d.find_element("id", "message").get_attribute("class") == "error",
                  "the rules' refusal")  # fmt: skip
        assert _at(driver) == at + 1
        assert driver.find_element("id", "board").get_attribute("src") == before
        body = driver.find_element("tag name", "body")
        body.send_keys(Keys.ESCAPE)
        _wait_for(driver, lambda d: d.execute_script("return state.piece") is None,
                  "Escape puts the piece back")  # fmt: skip

    shot_on_failure(driver, tmp_path, check)



@pytest.mark.parametrize("game", ["blokus", "henning", "gridblock"])
def test_a_move_by_clicks_on_the_board(page: Any, game: str, game_files: dict[str, Path],
                                       tmp_path: Path) -> None:  # fmt: skip
    driver = page

    def check() -> None:
        _open(driver, game)
        driver.find_element("id", "first").click()
        _step_to(driver, 0, "the start")
        driver.find_element("id", "next").click()
        _step_to(driver, 1, "move 1")
        driver.execute_async_script("loadCells().then(arguments[arguments.length - 1])")
        moves = driver.execute_script("return state.view.cells.moves")
        move, cells = max(moves.items(), key=lambda item: len(item[1]))
        for name in cells:
            _click_cell(driver, name)
        _wait_for(driver, lambda d: d.find_element("id", "pick-note").is_displayed(),
                  "the places picked")  # fmt: skip
        listed = [b.get_attribute("data-move")
                  for b in driver.find_elements("css selector", "#legal button")]  # fmt: skip
        assert move in listed
        assert all(set(cells) <= set(moves[m]) for m in listed)
        if game == "blokus":  # a placement's squares say which it is
            assert driver.find_element("id", "move-input").get_attribute("value") == move
        else:  # a block takes several tiles: one is picked from the list
            driver.find_element("css selector", f"#legal button[data-move='{move}']").click()
        driver.find_element("id", "play").click()
        _wait_for(driver, lambda d: d.execute_script("return state.view.variation") is True
                  and d.execute_script("return state.view.moves[1]") == move,
                  "the move played")  # fmt: skip

    shot_on_failure(driver, tmp_path, check)


@pytest.mark.parametrize(("game", "back", "mode"), [("henning", 3, "open"),
                                                   ("gridblock", 4, "open"),
                                                   ("walkable", 3, "exact")])  # fmt: skip
def test_analysis_of_every_game(page: Any, game: str, back: int, mode: str,
                                tmp_path: Path) -> None:  # fmt: skip
    """Each game's exact answer near its end (City Blocks (Henning) and Gridblock with their
    hidden tiles or cards taken as dealt, labelled so), its best move shown on the board
    where the game names one (Walkable Cities' answer is mixed strategies: none)."""
    from selenium.webdriver.support.ui import Select

    driver = page

    def check() -> None:
        _open(driver, game)
        n = driver.execute_script("return state.view.moves.length")
        driver.find_element("id", "last").click()
        for i in range(back):
            driver.find_element("id", "prev").click()
            _step_to(driver, n - 1 - i, "a step back")
        Select(driver.find_element("id", "mode")).select_by_value(mode)
        _ask(driver, "analyse", 30, "#analysis-summary p", "the answer")
        state = _text(driver, "analysis-state")
        assert "answered" in state, state
        assert _text(driver, "analysis-summary").startswith("value "), state
        if mode == "open":
            assert "as dealt" in state
            driver.find_element("css selector", "#best .show-best").click()
            _wait_for(driver, lambda d: d.find_element("id", "preview-note").is_displayed(),
                      "the best move shown on the board")  # fmt: skip
        else:
            assert "exact" in state
            assert not driver.find_elements("css selector", "#best .show-best")

    shot_on_failure(driver, tmp_path, check)


def test_an_answer_is_labelled_as_what_it_is(page: Any, tmp_path: Path) -> None:
    """A view analysis whose every hand is known (Gridblock's split deal, round 2) is
    exact, not an estimate; Walkable Cities' one-round horizon (too many drops at the game's
    start) is labelled as that and not as the game's value, its summary included."""
    from selenium.webdriver.support.ui import Select

    driver = page

    def answer(game: str, move: int, mode: str) -> tuple[str, str]:
        _open(driver, game)
        driver.execute_script(f"show(state.index, {move})")
        _step_to(driver, move, f"move {move}")
        Select(driver.find_element("id", "mode")).select_by_value(mode)
        _ask(driver, "analyse", 30, "#analysis-summary p", "the answer")
        return _text(driver, "analysis-state"), _text(driver, "analysis-summary")

    def check() -> None:
        state, summary = answer("gridblock-split", 20, "view")
        assert "answered" in state and state.endswith(" — exact"), state
        assert "estimate" not in state + summary, summary
        assert "estimate" not in driver.find_element("id", "analysis-state").get_attribute(
            "class")  # fmt: skip
        assert _text(driver, "best").startswith("best move"), _text(driver, "best")
        state, summary = answer("walkable", 0, "exact")
        assert "one-round horizon" in state and "not the game's value" in state, state
        assert "if the game ended after this round" in summary, summary
        assert "at the end" not in summary, summary

    shot_on_failure(driver, tmp_path, check)


@pytest.mark.parametrize("game", ["cityblocks", "blokus"])
def test_bounds_on_the_page(page: Any, game: str, tmp_path: Path) -> None:
    """Every colour's bounds as a table (City Blocks (Ritchie) has no endgame solver: its
    bounds are its analysis), with no best move offered."""
    from selenium.webdriver.support.ui import Select

    driver = page

    def check() -> None:
        _open(driver, game)
        Select(driver.find_element("id", "mode")).select_by_value("bounds")
        _ask(driver, "analyse", 8, "#analysis-summary table.bounds td", "the bounds")
        _wait_for(driver, lambda d: "proven bounds" in _text(d, "analysis-state")
                  or "not bounded" in _text(d, "analysis-summary"), "the bounds' label")
        rows = driver.find_elements("css selector", "#analysis-summary table.bounds tr")
        assert len(rows) >= 2  # the heading and at least one colour
        assert not driver.find_elements("css selector", "#best .show-best")
        # #50: squares and score in columns of their own, never both in one cell
        cells = [c.text for c in driver.find_elements("css selector",
                                                       "#analysis-summary table.bounds td")]
        assert not any("squares" in c and "score" in c for c in cells), cells
        heads = [h.text for h in driver.find_elements("css selector",
                                                      "#analysis-summary table.bounds th")]
        assert ("can still reach (squares)" in heads) == (game == "blokus"), heads
        assert ("estimate" in heads) == (game == "cityblocks"), heads

    shot_on_failure(driver, tmp_path, check)


@pytest.mark.parametrize("game", ["blokus", "henning", "gridblock-split", "walkable"])
def test_every_move_analysed_in_the_move_list_and_the_graph(page: Any, game: str,
                                                            tmp_path: Path) -> None:  # fmt: skip
    """"Analyse every move": what each move lost in the move list, and (#50) the graph of
    the value after each analysed move, exact points filled and estimates hollow, each at
    its move's value; a click on a point goes to its move, which the graph marks."""
    driver = page

    def check() -> None:
        _open(driver, game)
        _ask(driver, "analyse-record", 10, "#graph .point", "the evaluation graph")
        _wait_for(driver, lambda d: d.execute_script("return state.job") is None,
                  "the analysis' end", 60)  # fmt: skip
        assert "moves analysed" in _text(driver, "analysis-summary")
        assert driver.find_elements("css selector", "#moves li .review")
        assert driver.find_element("id", "graph-box").is_displayed()
        assert "values are " in _text(driver, "graph-lead")
        reviews = driver.execute_script("return state.graphs[state.index].reviews")
        after = {r["number"]: (r["value_after"], not r["estimate"]) for r in reviews}
        points = driver.find_elements("css selector", "#graph .point")
        assert len(points) >= 2
        for point in points:
            at = int(point.get_attribute("data-at"))
            if at in after:  # the others are the value before the first one reviewed
                value, exact = after[at]
                assert float(point.get_attribute("data-value")) == value
                assert ("exact" if exact else "estimate") in point.get_attribute("class")
        target = points[len(points) // 2]
        at = int(target.get_attribute("data-at"))
        target.click()
        _step_to(driver, at, "the move of the point clicked")
        _wait_for(driver, lambda d: d.find_elements(
            "css selector", f'#graph .point.here[data-at="{at}"]'), "the graph marking it")

    shot_on_failure(driver, tmp_path, check)


def test_puzzle_set_show_and_reveal(page: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    driver = page

    def check() -> None:
        _open(driver, "blokus")
        at = _at(driver)
        _wait_for(driver, lambda d: d.find_element("id", "stores-label").is_displayed(),
                  "the puzzle set offered")  # fmt: skip
        Select(driver.find_element("id", "stores")).select_by_value("0")
        _wait_for(driver, lambda d: len(d.find_elements("css selector", "tr.puzzle-row")) == 2,
                  "the puzzles listed")  # fmt: skip
        assert not driver.find_element("id", "board").is_displayed()  # the board is put away
        for key in (Keys.ARROW_LEFT, Keys.HOME):  # the record's keys: not under the panel
            driver.find_element("tag name", "body").send_keys(key)
        assert _at(driver) == at
        Select(driver.find_element("id", "store-kind")).select_by_value("blokus-teaser")
        driver.find_element("css selector", "#store-filter button").click()
        _wait_for(driver, lambda d: len(d.find_elements("css selector", "tr.puzzle-row")) == 1,
                  "the filter by kind")  # fmt: skip
        driver.find_element("css selector", "tr.puzzle-row").click()
        _wait_for(driver, lambda d: d.find_elements("css selector", "#puzzle-picture img"),
                  "the puzzle's picture")  # fmt: skip
        assert not driver.find_elements("css selector", "#solution-picture img")
        driver.find_element("id", "reveal").click()
        _wait_for(driver, lambda d: d.find_elements("css selector", "#solution-picture img"),
                  "the solution's picture")  # fmt: skip
        assert "checked by the rules" in _text(driver, "puzzle-lead")
        width = driver.execute_script(
            "return document.querySelector('#solution-picture img').naturalWidth"
        )
        assert width > 0

    shot_on_failure(driver, tmp_path, check)


@pytest.mark.parametrize("game", ["henning", "blokus", "gridblock", "walkable"])
def test_the_score_reads_as_tables(page: Any, game: str, tmp_path: Path) -> None:
    """Nested fields of a score (each colour's counts, each street or board) are tables
    and lines, not JSON."""
    driver = page

    def check() -> None:
        _open(driver, game)
        nested = driver.execute_script(
            "return Object.values(state.view.score).filter((v) => v && typeof v === 'object')"
        )
        assert nested, "this game's score has nested fields"
        text = _text(driver, "score")
        assert '{"' not in text and '":' not in text, text
        assert driver.find_elements("css selector", "#score table.nested")

    shot_on_failure(driver, tmp_path, check)


def _stored_answer(store: Path, kind: str) -> tuple[int, list[Any]]:
    """The first ``kind`` puzzle of ``store``: its id and the pieces its stored (and
    rules-checked) solution places beyond the given ones."""
    from polytile.store.db import PuzzleStore
    from polytile.store.kinds import kind as find_kind

    with PuzzleStore(store, create=False) as db:
        sp = next(p for p in db.puzzles(None, None, None) if p.kind == kind)
    answer = sp.solution()
    assert find_kind(kind).check_answer(sp.puzzle, answer) == []  # type: ignore[attr-defined]
    return sp.id, [pp for pp in answer.placements if pp not in sp.puzzle.given]


def _place_by_hand(driver: Any, pp: Any) -> None:
    """Choose piece ``pp`` in the list, turn it with the keys until it has ``pp``'s shape,
    and click the square of the board that puts it on ``pp``'s cells."""
    from selenium.webdriver.common.keys import Keys

    color = pp.color or ""
    button = driver.find_element(
        "css selector", f"#hand-pieces button[data-name='{pp.piece}'][data-color='{color}']"
    )
    button.click()
    images = driver.execute_script("return handPiece().orientations")
    want = {tuple(c) for c in pp.cells}
    image, anchor = next((k, (r, c)) for k, offsets in enumerate(images) for r, c in want
                         if {(r + dr, c + dc) for dr, dc in offsets} == want)  # fmt: skip
    body = driver.find_element("tag name", "body")
    keys = "f" * (image >= 4) + "r" * (image % 4)  # f first: image 4 + 0, then quarter turns
    for key in keys:
        body.send_keys(key)
    assert driver.execute_script("return solving.image") == image
    body.send_keys(Keys.ESCAPE)  # put the piece back, choose it again: the image starts over
    assert driver.execute_script("return solving.piece") is None
    button.click()
    for key in keys:
        driver.find_element("id", "hand-turn" if key == "r" else "hand-flip").click()
    assert driver.execute_script("return solving.image") == image
    _click_cell(driver, f"{anchor[0]},{anchor[1]}", "hand-board", "solving.view.cells")


@pytest.mark.parametrize("kind", ["packing", "blokus-teaser"])
def test_solve_a_puzzle_by_hand(page: Any, kind: str, hand_store: Path, tmp_path: Path) -> None:
    """Open the second puzzle set, solve its puzzle by clicks and keys from its stored
    solution (an illegal placement on the way refused with the rules' reason, nothing
    changed), undo a piece and place it again, and see it solved."""
    from selenium.webdriver.support.ui import Select

    driver = page
    puzzle, placements = _stored_answer(hand_store, kind)

    def placed(n: int, what: str) -> None:
        _wait_for(driver, lambda d: d.find_element("id", "hand-board")
                  .get_attribute("data-placed") == str(n), what)  # fmt: skip

    def check() -> None:
        _wait_for(driver, lambda d: d.find_element("id", "stores-label").is_displayed(),
                  "the puzzle sets offered")  # fmt: skip
        Select(driver.find_element("id", "stores")).select_by_value("1")
        row = f"tr.puzzle-row[data-id='{puzzle}']"
        _wait_for(driver, lambda d: d.find_elements("css selector", row), "the puzzle listed")
        driver.find_element("css selector", row).click()
        _wait_for(driver, lambda d: d.find_element("id", "solve-by-hand").is_displayed(),
                  "the Solve by hand button")  # fmt: skip
        driver.find_element("id", "solve-by-hand").click()
        placed(0, "the board to solve on")
        assert f"{len(placements)} pieces to place" in _text(driver, "hand-state")
        _place_by_hand(driver, placements[0])
        placed(1, "the first piece placed")
        driver.find_element("id", "reveal").click()  # the answer shown, the placements kept
        _wait_for(driver, lambda d: d.find_elements("css selector", "#solution-picture img"),
                  "the solution revealed")  # fmt: skip
        assert driver.find_element("id", "hand-box").is_displayed()
        assert driver.execute_script("return solving.placed.length") == 1
        # the second piece where the first lies: refused, naming why; nothing changes
        board = driver.find_element("id", "hand-board").get_attribute("src")
        second = placements[1]
        driver.find_element("css selector",
                            f"#hand-pieces button[data-name='{second.piece}']"
                            f"[data-color='{second.color or ''}']").click()  # fmt: skip
        first = placements[0].cells[0]
        _click_cell(driver, f"{first[0]},{first[1]}", "hand-board", "solving.view.cells")
        _wait_for(driver, lambda d: d.find_element("id", "message").is_displayed()
                  and "not placed" in d.find_element("id", "message").text,
                  "the illegal placement refused")  # fmt: skip
        assert "is taken by" in _text(driver, "message")
        assert driver.find_element("id", "hand-board").get_attribute("src") == board
        assert driver.execute_script("return solving.placed.length") == 1
        driver.find_element("id", "hand-undo").click()
        placed(0, "the first piece taken back")
        for i, pp in enumerate(placements):
            _place_by_hand(driver, pp)
            placed(i + 1, f"piece {i + 1} placed")
        _wait_for(driver, lambda d: "Solved" in _text(d, "hand-state"), "the puzzle solved")
        assert not driver.find_element("id", "message").is_displayed()
        pieces = driver.find_elements("css selector", "#hand-pieces button")
        assert pieces and not any(b.is_enabled() for b in pieces)
        driver.find_element("id", "hand-clear").click()
        placed(0, "every piece taken back")
        assert "Solved" not in _text(driver, "hand-state")

    shot_on_failure(driver, tmp_path, check)


def test_no_tokens_read_as_none(page: Any, tmp_path: Path) -> None:
    """#48: at the start of a City Blocks (Henning) game, neither player holding a token,
    the score's tokens row read "blue ; red"; it reads "none"."""
    driver = page

    def check() -> None:
        _open(driver, "henning")
        driver.execute_script("show(state.index, 0)")
        _step_to(driver, 0, "the record's start")
        rows = driver.find_elements("css selector", "#score tr")
        tokens = [r.text for r in rows if r.text.startswith("tokens")]
        assert tokens == ["tokens none"], tokens

    shot_on_failure(driver, tmp_path, check)


def test_the_token_leaves_the_address_bar(page: Any, server: str, tmp_path: Path) -> None:
    """#50: after the first load the token is in a cookie the page's script cannot read, not
    in the address bar or the download link; the board works on the cookie alone, and a
    reload keeps it."""
    driver = page

    def check() -> None:
        _open(driver, "blokus")
        assert "token" not in driver.current_url, driver.current_url
        assert driver.current_url == server.split("?")[0], driver.current_url
        assert "token" not in (driver.find_element("id", "download").get_attribute("href") or "")
        assert "polytile-token" not in driver.execute_script("return document.cookie")
        driver.refresh()
        _open(driver, "henning")
        driver.execute_script("show(state.index, 0)")
        _step_to(driver, 0, "the record's start")
        # the page's own requests that change something are served (its Origin is the
        # board's): a preview of a listed move answers
        answer = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "const m = state.view.legal.moves;"
            "const text = Array.isArray(m) ? m[0] : Object.values(m)[0][0];"
            "api(`/api/records/${state.index}/preview`, {method: 'POST',"
            " headers: {'Content-Type': 'application/json'},"
            " body: JSON.stringify({move: state.view.at, text})})"
            ".then(v => done(v.at), e => done(String(e)));")
        assert isinstance(answer, int), answer

    shot_on_failure(driver, tmp_path, check)


def test_boards_show_coordinates(page: Any, tmp_path: Path) -> None:
    """#50: the Blokus and City Blocks (Ritchie) boards name their squares around the edge
    as their moves write them, and a click on the square a column name and a row name point
    at is that square (Blokus: a and 14 are row 0, column 0 of the Duo board; City Blocks:
    0 and 0)."""
    import re

    driver = page

    def check() -> None:
        for game, col, row in (("blokus", "a", "14"), ("cityblocks", "0", "0")):
            _open(driver, game)
            svg = driver.execute_script("return state.view.svg")
            group = re.search(r'<g class="coordinates"[^>]*>(.*?)</g>', svg, re.S)
            assert group, game
            names = re.findall(r'<text x="([\d.]+)" y="([\d.]+)">([^<]+)</text>', group[1])
            x = next(float(x) for x, _, t in names if t == col)
            y = next(float(y) for _, y, t in names[len(names) // 2:] if t == row)
            box = re.search(r'viewBox="0 0 ([\d.]+)', svg)
            assert box, game
            width = float(box[1])
            assert driver.execute_script("return $('board').naturalWidth") == round(width)
            under = driver.execute_async_script(
                "const [x, y, done] = arguments; const img = $('board');"
                "api(`/api/records/${state.index}/cells?move=${state.view.at}`).then(c => {"
                " const box = img.getBoundingClientRect();"
                " const s = box.width / img.naturalWidth;"
                " done(cellUnder({clientX: box.left + x * s, clientY: box.top + y * s}, img,"
                " c.cells.cells)); });", x, y)
            assert under == "0,0", (game, under)

    shot_on_failure(driver, tmp_path, check)


def test_a_long_analysis_shows_a_progress_bar(page: Any, tmp_path: Path) -> None:
    """#50: while an analysis runs, a bar fills with its time limit; it goes when the
    answer (here: out of time, a City Blocks (Henning) view early in the game) comes."""
    from selenium.webdriver.support.ui import Select

    driver = page

    def check() -> None:
        _open(driver, "henning")
        driver.execute_script("show(state.index, 2)")
        _step_to(driver, 2, "move 2")
        Select(driver.find_element("id", "mode")).select_by_value("view")
        _ask(driver, "analyse", 4, "#analysis-progress:not([hidden])", "the progress bar")
        _wait_for(driver, lambda d: float(d.find_element("id", "analysis-progress")
                                          .get_attribute("value")) > 0, "the bar filling")
        _wait_for(driver, lambda d: d.execute_script("return state.job") is None,
                  "the analysis' end", 60)  # fmt: skip
        assert not driver.find_element("id", "analysis-progress").is_displayed()

    shot_on_failure(driver, tmp_path, check)


def _engine_moves_at_2(driver: Any, game: str, said: str, seconds: float) -> None:
    """At move 2 of ``game``'s record, "Engine moves" with 0.2 s for the engine; wait (up to
    ``seconds``) for its move and the line about it, which starts with ``said``."""
    _open(driver, game)
    driver.execute_script("show(state.index, 2)")
    _step_to(driver, 2, "move 2")
    assert driver.find_element("id", "engine-box").is_displayed()
    box = driver.find_element("id", "engine-seconds")
    box.clear()
    box.send_keys("0.2")
    driver.find_element("id", "engine-move").click()
    _wait_for(driver, lambda d: _at(d) == 3 and _text(d, "engine-note").startswith(said),
              "the engine's move", seconds)  # fmt: skip


@pytest.mark.parametrize("game", ["henning", "blokus"])
def test_a_game_against_the_engine(page: Any, game: str, tmp_path: Path) -> None:
    """#50: from the board, the engine makes a move, and with "the engine answers my
    moves" ticked it answers a move played on the board; each time a line says what its
    choice rests on, and the moves land in a variation."""
    driver = page

    def check() -> None:
        _engine_moves_at_2(driver, game, "engine (", WAIT)
        assert driver.execute_script("return state.view.variation") is True
        note = _text(driver, "engine-note")
        assert " played " in note and ("estimate" in note or "exact" in note), note
        # while the engine thinks, a move of the person's waits (it would go unanswered)
        driver.execute_script("state.thinking = true; play(state.view.legal.moves[0])")
        _wait_for(driver, lambda d: "the engine is thinking" in _text(d, "message"),
                  "the move refused while the engine thinks")  # fmt: skip
        assert _at(driver) == 3
        driver.execute_script("state.thinking = false; say('')")
        driver.find_element("id", "engine-answers").click()
        driver.execute_script("play(state.view.legal.moves[0])")
        _wait_for(driver, lambda d: _at(d) == 5 and _text(d, "engine-note").startswith("engine ("),
                  "the engine's answer")  # fmt: skip
        moves = driver.execute_script("return state.view.moves")
        assert note != _text(driver, "engine-note") or len(moves) == 5
        driver.execute_script("show(state.index, 1)")  # elsewhere: the line is cleared
        _step_to(driver, 1, "move 1")
        _wait_for(driver, lambda d: _text(d, "engine-note") == "", "the line cleared")
        driver.find_element("id", "engine-answers").click()  # untick for the next test

    shot_on_failure(driver, tmp_path, check)


def test_walkable_against_the_engine(page: Any, tmp_path: Path) -> None:
    """#50, Walkable Cities: "Engine moves" plays a whole round; with "the engine answers
    my moves" ticked, the person enters red's part only, the engine makes blue's from the
    position before the round (its line says so) and the round joins the move list. The
    engine has a fifth of a second, but its first answer may wait for its compiled code to
    load: the waits are long, and what it found is not asserted, only that it played."""
    driver = page
    engine_wait = 300

    def check() -> None:
        _engine_moves_at_2(driver, "walkable", "engine (red and blue) played ", engine_wait)
        moves = driver.execute_script("return state.view.moves")
        assert len(moves[2].split(" | ")) == 2 and moves[2] in _text(driver, "engine-note")
        driver.find_element("id", "engine-answers").click()
        slots = driver.find_elements("css selector", "#parts input.part")
        assert all("engine" in (s.get_attribute("placeholder") or "") for s in slots)
        red = driver.execute_script(
            "return state.view.legal.moves.find((m) => !m.endsWith(' pass'))")  # fmt: skip
        slots[0].send_keys(red)
        driver.find_element("id", "play").click()
        _wait_for(driver, lambda d: _at(d) == 4 and _text(d, "engine-note").startswith(
            "engine (blue) played "), "the engine's answer", engine_wait)  # fmt: skip
        note = _text(driver, "engine-note")
        assert "chosen from the position before the round, without seeing red's part" in note
        moves = driver.execute_script("return state.view.moves")
        blue = moves[3].split(" | ")[1]
        assert moves[3] == f"{red} | {blue}" and f"played {blue}," in note, (moves, note)
        items = driver.find_elements("css selector", "#moves li")
        assert items[4].text == moves[3]
        driver.find_element("id", "engine-answers").click()  # untick for the next test

    shot_on_failure(driver, tmp_path, check)
