"""Make the web board's screenshots in docs/: each game's page with its evaluation graph.

Run from the repository's root with the test extras installed and Debian's Chromium::

    python docs/screenshots.py            # writes docs/serve-<game>.png and docs/serve-board.png

It serves the Duo example record and records of the other games self-played with fixed
seeds (the same pictures each run, up to the analyses' time limits), presses "Analyse every
move" on each, steps to a move of the graph and saves the page. The README shows
``docs/serve-board.png`` (the Duo record).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
#: (picture name, file made by: None for the example, else (game, selfplay options), the
#: move to show, the analysis' time limit in seconds)
PAGES = (
    ("blokus", None, 18, 30),
    ("henning", ("henning", {}), 24, 40),
    ("gridblock", ("gridblock", {"players": 2, "deal": "split"}), 70, 30),
    ("walkable", ("walkable", {}), 30, 40),
)


def _files(folder: Path) -> list[Path]:
    from polytile.faces.registry import face

    files = []
    for name, made, _, _ in PAGES:
        if made is None:
            files.append(ROOT / "examples" / "duo-endgame.blksgf")
            continue
        game, options = made
        text, _ = face(game).selfplay(3, 0, options)  # type: ignore[attr-defined]
        path = folder / f"{name}.json"
        path.write_text(text)
        files.append(path)
    return files


def _browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1300,1100", "--hide-scrollbars"):  # fmt: skip
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def _until(driver: Any, script: str, seconds: float) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, seconds).until(lambda d: d.execute_script(script))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        files = _files(Path(tmp))
        server = subprocess.Popen([sys.executable, "-m", "polytile", "serve", "--port", "0",
                                   *map(str, files)], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)  # fmt: skip
        driver = _browser()
        try:
            assert server.stdout is not None
            driver.get(server.stdout.readline().strip())
            _until(driver, "return state.records.length > 0", 60)
            for index, (name, _, at, seconds) in enumerate(PAGES):
                driver.execute_script(f"show({index}, null)")
                _until(driver, f"return state.view && state.view.index === {index}", 60)
                driver.execute_script(f"$('seconds').value = {seconds}; analyse(true)")
                _until(driver, "return state.job === null && "
                               f"Boolean(state.graphs[{index}])", seconds + 60)  # fmt: skip
                driver.execute_script(f"show({index}, {at})")
                _until(driver, f"return state.view.at === {at} && $('board').complete", 30)
                driver.execute_script("window.scrollTo(0, 0)")
                path = DOCS / f"serve-{name}.png"
                driver.save_screenshot(str(path))
                print(f"wrote {path}")
            (DOCS / "serve-board.png").write_bytes((DOCS / "serve-blokus.png").read_bytes())
        finally:
            driver.quit()
            server.terminate()
            server.wait(30)


if __name__ == "__main__":
    main()
