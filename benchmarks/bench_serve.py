"""The web board (``polytile serve``) timed in a real browser and under load.

1. **In headless Chromium** (selenium): a 60-move Blokus record (4 players, self-played)
   served alone; the time from the navigation's start to the first board drawn (the page's
   ``board-drawn`` User Timing mark), and a step's round trip (a click on "next" to the next
   board drawn), each the median of 20. Goals on this machine: under 300 ms and 50 ms.
2. **Every game's steps** (issue 50): a self-played record of each game with records
   (City Blocks (Henning), Blokus Duo, Gridblock, Walkable Cities: three boards a step),
   served together; a step's round trip in each, the median of 20 from its start. Goal:
   under 50 ms in every game.
3. **Load**: 50 clients at once, each stepping through every game's record (aiohttp
   clients, 20 steps each), while 5 tabs run an analysis each (a Blokus opening: minutes of
   work, stopped by the abandonment rule): every step must be answered; the server's
   resident memory before and after; and once the clients are gone, how long until no
   analysis is left running (the page's polling stops, the server stops them after
   ``ABANDONED`` seconds).

Run it once (the machine has 2 cores and is shared)::

    .venv/bin/python benchmarks/bench_serve.py [--steps-only]

``--steps-only`` leaves out the load run (parts 1 and 2 only).

Figures go to stdout; nothing is written.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _record(folder: Path, moves: int = 60) -> Path:
    """A self-played 4-player Blokus record cut to ``moves`` placements."""
    from polytile.faces.registry import face

    f = face("blokus")
    for seed in range(1, 50):
        text, _ = f.selfplay(seed, 0, {})  # type: ignore[attr-defined]
        path = folder / f"classic-{seed}.blksgf"
        path.write_text(text)
        n = len(f.record_moves(f.read(str(path))))
        if n >= moves:
            text, _ = f.selfplay(seed, n - moves, {})  # type: ignore[attr-defined]
            path.write_text(text)
            return path
    raise SystemExit("no self-played record of 60 moves in 49 seeds")


def _serve(*files: Path) -> tuple[subprocess.Popen[str], str]:
    server = subprocess.Popen([sys.executable, "-m", "polytile", "serve", "--port", "0",
                               *map(str, files)], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, env=ENV)  # fmt: skip
    assert server.stdout is not None
    return server, server.stdout.readline().strip()


def _rss(pid: int) -> int:
    """Resident memory of ``pid`` in kB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _analyses(server: int) -> list[int]:
    """The analysis processes below ``server``: each leads a process group of its own
    (the fork server and the resource tracker stay in the server's)."""
    table = subprocess.run(["ps", "-e", "-o", "pid=,ppid=,pgid="], capture_output=True,
                           text=True).stdout.split()  # fmt: skip
    rows = [tuple(map(int, table[i : i + 3])) for i in range(0, len(table), 3)]
    parent = {pid: ppid for pid, ppid, _ in rows}

    def below(pid: int) -> bool:
        while pid > 1:
            pid = parent.get(pid, 0)
            if pid == server:
                return True
        return False

    return [pid for pid, _, group in rows if group == pid and below(pid)]


_STEP = """
const done = arguments[arguments.length - 1];
const before = performance.getEntriesByName('board-drawn').length;
const t0 = performance.now();
document.getElementById('next').click();
const wait = () => {
  const marks = performance.getEntriesByName('board-drawn');
  if (marks.length > before) done(marks[marks.length - 1].startTime - t0);
  else setTimeout(wait, 1);
};
wait();
"""


def _driver() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--window-size=1300,1000"):  # fmt: skip
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def every_game(folder: Path) -> None:
    """A step's round trip in a record of each game with records (median of 20)."""
    from polytile.faces.registry import face

    games = (("henning", {}, ".json"), ("blokus", {"variant": "duo"}, ".blksgf"),
             ("gridblock", {}, ".json"), ("walkable", {}, ".json"))  # fmt: skip
    files = []
    for game, options, suffix in games:
        text, _ = face(game).selfplay(3, 0, options)  # type: ignore[attr-defined]
        files.append(folder / f"{game}{suffix}")
        files[-1].write_text(text)
    driver = _driver()
    server, url = _serve(*files)
    try:
        driver.get(url)
        start = time.monotonic()
        while not driver.execute_script("return state.view !== null"):  # the page's own first
            if time.monotonic() - start > 30:  # show, which must not land after ours
                raise SystemExit("no board drawn in 30 s")
            time.sleep(0.01)
        for index, (game, _, _) in enumerate(games):
            driver.execute_script(f"show({index}, 0)")
            start = time.monotonic()
            while not driver.execute_script(
                    f"return state.view && state.view.index === {index} && state.view.at === 0"
                    " && document.getElementById('board').complete"):  # fmt: skip
                if time.monotonic() - start > 30:
                    raise SystemExit(f"{game}: no board drawn in 30 s")
                time.sleep(0.01)
            steps = [driver.execute_async_script(_STEP) for _ in range(20)]
            print(f"{game}: one step's round trip, median {statistics.median(steps):.1f} ms "
                  f"(min {min(steps):.1f}, max {max(steps):.1f}; goal < 50 ms)")  # fmt: skip
    finally:
        driver.quit()
        server.terminate()
        server.wait(30)


def browser(record: Path) -> None:
    driver = _driver()
    server, url = _serve(record)
    try:
        firsts, steps = [], []
        for _ in range(20):
            driver.get(url)
            start = time.monotonic()
            while not driver.execute_script(
                    "return performance.getEntriesByName('board-drawn').length"):  # fmt: skip
                if time.monotonic() - start > 30:
                    raise SystemExit("no board drawn in 30 s")
                time.sleep(0.01)
            firsts.append(driver.execute_script(
                "return performance.getEntriesByName('board-drawn')[0].startTime"))  # fmt: skip
        driver.find_element("id", "first").click()
        time.sleep(0.5)
        for _ in range(20):
            steps.append(driver.execute_async_script(_STEP))
        print(
            f"first board drawn, 60-move Blokus record: median {statistics.median(firsts):.0f} "
            f"ms (min {min(firsts):.0f}, max {max(firsts):.0f}; goal < 300 ms)"
        )
        print(
            f"one step's round trip: median {statistics.median(steps):.1f} ms "
            f"(min {min(steps):.1f}, max {max(steps):.1f}; goal < 50 ms)"
        )
    finally:
        driver.quit()
        server.terminate()
        server.wait(30)


async def _client(base: str, token: str, records: list[dict[str, Any]], errors: list[str],
                  times: list[float], steps: int = 20) -> None:  # fmt: skip
    import aiohttp

    headers = {"X-Polytile-Token": token}
    async with aiohttp.ClientSession(headers=headers) as session:
        for i in range(steps):
            rec = records[i % len(records)]
            move = i % (rec["length"] + 1)
            t0 = time.perf_counter()
            try:
                async with session.get(f"{base}/api/records/{rec['index']}?move={move}") as r:
                    await r.read()
                    if r.status != 200:
                        errors.append(f"{r.status}")
            except aiohttp.ClientError as exc:
                errors.append(repr(exc))
            times.append(time.perf_counter() - t0)


async def _load(base: str, token: str) -> tuple[list[str], list[float], float]:
    import aiohttp

    headers = {"X-Polytile-Token": token}
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.get(f"{base}/api/records") as r:
            records = (await r.json())["records"]
        for tab in range(5):  # 5 tabs, an analysis each, then the tabs go away
            body = {"move": 1, "seconds": 600, "tab": f"tab{tab}"}
            async with session.post(f"{base}/api/records/1/analysis", json=body) as r:
                assert r.status == 200, await r.text()
    errors: list[str] = []
    times: list[float] = []
    started = time.perf_counter()
    await asyncio.gather(*(_client(base, token, records, errors, times) for _ in range(50)))
    return errors, times, time.perf_counter() - started


def load(folder: Path) -> None:
    from polytile.faces.registry import face
    from polytile.serve.analysis import ABANDONED

    files = []
    for game, options, suffix in (("henning", {}, ".json"), ("blokus", {"variant": "duo"},
                                  ".blksgf"), ("gridblock", {}, ".json"),
                                  ("walkable", {}, ".json")):  # fmt: skip
        text, _ = face(game).selfplay(3, 0, options)  # type: ignore[attr-defined]
        files.append(folder / f"{game}{suffix}")
        files[-1].write_text(text)
    server, url = _serve(*files)
    try:
        base, token = url.split("/?token=")
        time.sleep(1.0)
        before = _rss(server.pid)
        errors, times, seconds = asyncio.run(_load(base, token))
        running = len(_analyses(server.pid))
        after = _rss(server.pid)
        times.sort()
        print(
            f"load: 50 clients x 20 steps with 5 analyses running: {len(times)} steps in "
            f"{seconds:.1f} s, {len(errors)} failed; round trip median "
            f"{statistics.median(times) * 1000:.0f} ms, 95th percentile "
            f"{times[int(0.95 * len(times))] * 1000:.0f} ms, slowest {times[-1] * 1000:.0f} ms"
        )
        print(f"server memory: {before / 1024:.0f} MB before, {after / 1024:.0f} MB after")
        print(f"analyses running when the clients were done: {running}")
        gone = time.monotonic()
        while time.monotonic() - gone < ABANDONED + 20:
            analyses = _analyses(server.pid)
            if not analyses:
                break
            time.sleep(0.5)
        print(
            f"analyses left running after their tabs went away: {len(analyses)} after "
            f"{time.monotonic() - gone:.1f} s (abandoned after {ABANDONED:.0f} s unpolled)"
        )
        with open(f"/proc/{server.pid}/status") as f:
            threads = next(line for line in f if line.startswith("Threads:")).split()[1]
        print(f"server threads at the end: {threads}")
    finally:
        server.terminate()
        server.wait(30)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        record = _record(folder)
        browser(record)
        every_game(folder)
        if "--steps-only" not in sys.argv:
            load(folder)
    print(json.dumps({"cores": os.cpu_count()}))


if __name__ == "__main__":
    main()
