"""Puzzle sets on the web board: list, filter, show, reveal a solution checked by the rules."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from click.testing import CliRunner

from polytile.cli import cli
from polytile.serve.app import make_app
from polytile.serve.board import Board
from polytile.serve.store import Shelf

TOKEN = "store-token"
AUTH = {"X-Polytile-Token": TOKEN}


def run(store: Path | list[Path], scenario: Callable[[TestClient[Any, Any]], Awaitable[None]],
        ) -> None:  # fmt: skip
    """Serve the puzzle set(s) ``store`` and run ``scenario``; the server still answers."""
    shelf = Shelf()
    for path in store if isinstance(store, list) else [store]:
        shelf.add(str(path))

    async def main() -> None:
        async with TestClient(TestServer(make_app(Board(), token=TOKEN, shelf=shelf))) as client:
            await scenario(client)
            assert (await client.get("/api/stores", headers=AUTH)).status == 200

    asyncio.run(main())


async def get(client: TestClient[Any, Any], url: str, status: int = 200) -> Any:
    r = await client.get(url, headers=AUTH)
    assert r.status == status, await r.text()
    return await r.json()


def test_list_and_filter(store_file: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> None:
        (row,) = (await get(client, "/api/stores"))["stores"]
        assert (row["title"], row["count"], sorted(row["kinds"])) == (
            "set.db", 2, ["blokus-teaser", "henning"])  # fmt: skip
        every = await get(client, "/api/stores/0/puzzles")
        assert every["total"] == 2 and {p["kind"] for p in every["puzzles"]} == set(row["kinds"])
        one = await get(client, "/api/stores/0/puzzles?kind=henning")
        assert [p["kind"] for p in one["puzzles"]] == ["henning"]
        top = max(p["difficulty"] for p in every["puzzles"])
        hard = await get(client, f"/api/stores/0/puzzles?min={top}")
        assert [p["difficulty"] for p in hard["puzzles"]] == [top]
        assert (await get(client, "/api/stores/0/puzzles?max=-1"))["total"] == 0
        for bad in ("min=x", "max=nan", "min=inf"):
            await get(client, f"/api/stores/0/puzzles?{bad}", 400)
        await get(client, "/api/stores/1/puzzles", 404)
        assert (await client.get("/api/stores")).status == 403  # no token

    run(store_file, scenario)


def test_show_and_reveal(store_file: Path) -> None:
    async def scenario(client: TestClient[Any, Any]) -> None:
        rows = (await get(client, "/api/stores/0/puzzles"))["puzzles"]
        ids = {p["kind"]: p["id"] for p in rows}
        teaser = await get(client, f"/api/stores/0/puzzles/{ids['blokus-teaser']}")
        assert teaser["svg"].startswith("<") and teaser["solution_svg"] is None
        solved = await get(client, f"/api/stores/0/puzzles/{ids['blokus-teaser']}?solution=1")
        assert solved["solution_svg"] and solved["solution_svg"] != solved["svg"]
        henning = await get(client, f"/api/stores/0/puzzles/{ids['henning']}")
        assert henning["svg"] is None and henning["text"]
        revealed = await get(client, f"/api/stores/0/puzzles/{ids['henning']}?solution=1")
        assert len(revealed["text"]) > len(henning["text"]) and revealed["answer_lead"]
        message = (await get(client, "/api/stores/0/puzzles/999", 404))["error"]
        assert "no puzzle 999" in message and str(store_file) not in message
        await get(client, "/api/stores/0/puzzles/x", 400)

    run(store_file, scenario)


def test_an_unsound_answer_is_not_shown(store_file: Path, tmp_path: Path) -> None:
    """A stored answer the rules refuse is refused, not drawn."""
    copy = tmp_path / "bad.db"
    shutil.copy(store_file, copy)
    with sqlite3.connect(copy) as con:
        pid, text = con.execute("SELECT id, solution FROM puzzles WHERE kind='blokus-teaser'"
                                ).fetchone()  # fmt: skip
        answer = json.loads(text)
        placed = answer["placements"]
        other = next(i for i, p in enumerate(placed) if p["piece"] != placed[0]["piece"])
        # two pieces' names swapped: still a well-formed answer, no longer a legal one
        placed[0]["piece"], placed[other]["piece"] = placed[other]["piece"], placed[0]["piece"]
        con.execute("UPDATE puzzles SET solution=? WHERE id=?", (json.dumps(answer), pid))

        pid2, text = con.execute("SELECT id, solution FROM puzzles WHERE kind='henning'"
                                 ).fetchone()  # fmt: skip
        answer = json.loads(text)
        answer["value"] += 1  # no longer what best play after the answer ends at
        con.execute("UPDATE puzzles SET solution=? WHERE id=?", (json.dumps(answer), pid2))

    async def scenario(client: TestClient[Any, Any]) -> None:
        for puzzle in (pid, pid2):
            r = await client.get(f"/api/stores/0/puzzles/{puzzle}?solution=1", headers=AUTH)
            assert r.status == 400, await r.text()
            assert "unsound" in (await r.json())["error"]
            r = await client.get(f"/api/stores/0/puzzles/{puzzle}", headers=AUTH)
            assert r.status == 200  # the puzzle itself still shows

    run(copy, scenario)


def test_a_file_that_is_no_store_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_text("not sqlite")
    result = CliRunner().invoke(cli, ["serve", str(bad), "--port", "0"])
    assert result.exit_code == 2, result.output
