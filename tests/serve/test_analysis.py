"""Analyses on the web board: solve-endgame through the face in a process of its own, its
report the game's own words, stopped when asked, when its tab asks for another, and all
when the server stops."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from polytile.faces.registry import face
from polytile.serve.analysis import Analyses
from polytile.serve.app import make_app
from polytile.serve.board import Board

TOKEN = "analysis-token"
AUTH = {"X-Polytile-Token": TOKEN}


async def _start(client: TestClient[Any, Any], body: dict[str, Any], index: int = 0) -> str:
    r = await client.post(f"/api/records/{index}/analysis", json=body, headers=AUTH)
    assert r.status == 200, await r.text()
    return str((await r.json())["job"])


async def _wait(client: TestClient[Any, Any], job: str, seconds: float = 60) -> dict[str, Any]:
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        report: dict[str, Any] = await (await client.get(f"/api/analysis/{job}",
                                                         headers=AUTH)).json()  # fmt: skip
        if report["state"] != "running":
            return report
        await asyncio.sleep(0.2)
    raise AssertionError(f"analysis {job} still running after {seconds} s")


def _serve(files: list[Path], scenario: Any) -> Analyses:
    board = Board()
    for file in files:
        board.add_file(str(file))
    analyses = Analyses(files[0].parent)  # the server's folder: where variations are written

    async def main() -> None:
        app = make_app(board, token=TOKEN, analyses=analyses)
        async with TestClient(TestServer(app)) as client:
            await scenario(client)

    asyncio.run(main())
    return analyses


def test_exact_value_of_a_blokus_endgame(game_files: dict[str, Path]) -> None:
    file = game_files["blokus"]
    f = face("blokus")
    late = len(f.record_moves(f.read(str(file)))) - 5

    async def scenario(client: TestClient[Any, Any]) -> None:
        report = await _wait(client, await _start(client, {"move": late, "seconds": 30,
                                                           "tab": "a"}))  # fmt: skip
        assert (report["state"], report["code"], report["outcome"]) == ("done", 0, "answered")
        assert isinstance(report["answer"]["value"], int)
        assert report["best"]  # in play's notation: each plays by the rules
        for move in report["best"]:
            doc = f.read(str(file), late)
            f.play_move(doc, move)

    _serve([file], scenario)


def test_a_variation_is_analysed_as_played(game_files: dict[str, Path]) -> None:
    file = game_files["blokus"]
    f = face("blokus")
    moves = f.record_moves(f.read(str(file)))
    late = len(moves) - 5

    async def scenario(client: TestClient[Any, Any]) -> None:
        r = await client.post("/api/records/0/play", json={"move": late, "text": moves[late]},
                              headers=AUTH)  # fmt: skip
        assert (await r.json())["index"] == 1
        from_file = await _wait(client, await _start(client, {"move": late + 1, "seconds": 30,
                                                              "tab": "a"}))  # fmt: skip
        played = await _wait(client, await _start(client, {"move": late + 1, "seconds": 30,
                                                           "tab": "a"}, index=1))  # fmt: skip
        assert from_file["code"] == played["code"] == 0
        assert from_file["answer"]["value"] == played["answer"]["value"]
        assert from_file["best"] == played["best"]

    _serve([file], scenario)


def test_a_refusal_is_the_games_own_message(game_files: dict[str, Path]) -> None:
    """City Blocks (Henning) mid-game: tiles are hidden, the exact solve is refused."""

    async def scenario(client: TestClient[Any, Any]) -> None:
        report = await _wait(client, await _start(client, {"move": 10, "seconds": 10,
                                                           "tab": "a"}))  # fmt: skip
        assert (report["code"], report["outcome"]) == (2, "refused")
        assert "hidden" in report["report"]
        view = await (await client.get("/api/records/0", headers=AUTH)).json()
        assert view["analysis"] == ["exact", "open", "view"]

    _serve([game_files["henning"]], scenario)


def test_bounds_of_every_colour(game_files: dict[str, Path]) -> None:
    """Bounds for a game with no endgame solver (City Blocks (Ritchie)) and beside the exact
    value (Blokus): every colour's, as 'polytile bounds --color all --json' gives them, with
    no best move read into them."""

    async def scenario(client: TestClient[Any, Any]) -> None:
        report = await _wait(client, await _start(client, {"move": 0, "seconds": 8, "tab": "a",
                                                           "mode": "bounds"}))  # fmt: skip
        assert report["state"] == "done", report
        colors = report["answer"]["colors"]  # those the time allowed; the rest are named
        named = set(colors) | set(report["answer"].get("not_bounded", []))
        assert colors and named == {"blue", "yellow", "red", "green"}, report
        for b in colors.values():
            assert b["can_ensure"] <= b["upper"]
        assert report["best"] == []
        view = await (await client.get("/api/records/1", headers=AUTH)).json()
        assert view["analysis"] == ["exact", "bounds"]
        late = len(view["moves"]) - 3
        report = await _wait(client, await _start(client, {"move": late, "seconds": 8, "tab": "a",
                                                           "mode": "bounds"}, 1))  # fmt: skip
        assert report["state"] == "done", report
        assert set(report["answer"]["colors"]) == {"blue", "yellow"}, report

    _serve([game_files["cityblocks"], game_files["blokus"]], scenario)


def test_an_estimate_says_so(game_files: dict[str, Path]) -> None:
    """City Blocks (Henning) from the mover's view: averages over the hidden tiles."""

    async def scenario(client: TestClient[Any, Any]) -> None:
        body = {"move": 26, "seconds": 4, "tab": "a", "mode": "view"}
        report = await _wait(client, await _start(client, body))
        assert report["state"] == "done", report
        answer = report["answer"]
        # an average over the hidden tiles, or (when no state was solved in time, as on a
        # busy machine) a tree search: either way labelled an estimate, saying what it is
        assert "estimate" in answer["kind"] and "not the game's value" in answer["note"], report
        assert report["best"], report

    _serve([game_files["henning"]], scenario)


def test_cancel_one_per_tab_and_stop_all(game_files: dict[str, Path]) -> None:
    jobs: list[Any] = []

    async def scenario(client: TestClient[Any, Any]) -> None:
        long = {"move": 1, "seconds": 600, "tab": "a"}  # an opening: bounds, for minutes
        first = await _start(client, long)
        second = await _start(client, long)  # the same tab: the first is stopped
        report = await (await client.get(f"/api/analysis/{first}", headers=AUTH)).json()
        assert report["state"] == "stopped" and "new analysis" in report["why"]
        r = await client.delete(f"/api/analysis/{second}", headers=AUTH)
        assert (await r.json())["state"] == "stopped"
        await _start(client, long)
        await _start(client, {**long, "tab": "b"})  # another tab: both run
        running = [j for j in analyses_of(client).jobs.values() if j.state == "running"]
        assert len(running) == 2
        jobs.extend(running)

    analyses = _serve([game_files["blokus"]], scenario)
    assert analyses.running() == 0  # the server stopped them all
    assert all(not job.process.is_alive() for job in jobs)


def analyses_of(client: TestClient[Any, Any]) -> Analyses:
    from polytile.serve import app as app_module

    found = client.app[app_module._ANALYSES] if client.app is not None else None
    assert isinstance(found, Analyses)
    return found


def test_every_move_of_a_record(game_files: dict[str, Path]) -> None:
    """polytile analyse through the face: what each move lost, a best move in its place in
    play's notation (Blokus's answer names it by colour, piece and cells)."""
    file = game_files["blokus"]
    f = face("blokus")

    async def scenario(client: TestClient[Any, Any]) -> None:
        view = await (await client.get("/api/records/0", headers=AUTH)).json()
        assert view["record_analysis"] is True
        report = await _wait(client, await _start(client, {"seconds": 15, "tab": "a",
                                                           "mode": "record"}))  # fmt: skip
        assert report["code"] in (0, 1), report
        reviews = report["reviews"]
        assert reviews and any(not r["estimate"] for r in reviews)
        # exact losses are whole squares; the moves before the exact part are estimated
        assert all(isinstance(r["loss"], int) for r in reviews if not r["estimate"])
        assert all(isinstance(r["loss"], int | float) for r in reviews if r["estimate"])
        for r in reviews:
            doc = f.read(str(file), r["number"] - 1)
            f.play_move(doc, r["best"])  # a legal move where the record's was played

    _serve([file], scenario)


def test_record_analysis_is_for_records(game_files: dict[str, Path]) -> None:
    async def scenario(client: TestClient[Any, Any]) -> None:
        view = await (await client.get("/api/records/0", headers=AUTH)).json()
        assert view["record_analysis"] is False
        r = await client.post("/api/records/0/analysis", json={"tab": "a", "mode": "record"},
                              headers=AUTH)  # fmt: skip
        assert r.status == 400 and "move by move" in (await r.json())["error"]

    _serve([game_files["cityblocks"]], scenario)


def test_an_estimates_best_move_is_shown() -> None:
    """The board highlights the best move of a tree search's estimate as of an exact answer:
    Henning's view falls back on one when no state is solved in time (CI saw an empty
    "best" there), Blokus carries one under "estimate" when its exact search refuses."""
    from polytile.faces.registry import face

    estimate = {"kind": "mcts-estimate", "best": "S6@c2", "moves": [{"move": "S6@c2"}]}
    assert face("henning").best_moves(estimate) == ("S6@c2",)
    assert face("gridblock").best_moves({**estimate, "best": None}) == ()
    blokus = {"best_move": None, "estimate": {**estimate, "best": "blue I1 c12"}}
    assert face("blokus").best_moves(blokus) == ("blue I1 c12",)
    assert face("blokus").best_moves({"best_move": None}) == ()
