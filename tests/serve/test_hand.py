"""Solving a stored puzzle by hand through the web board's API: each placement sent is
checked by the rules (the earlier ones again, never trusted), an illegal one is refused
naming why, a malformed body or an unknown puzzle gets its 4xx, and the last piece placed
brings the whole answer to the rules checker; after each bad request the server still
answers."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient

from polytile.formats import PlacedPiece
from polytile.render import to_svg
from polytile.serve.hand import CELL, orientations
from polytile.store.db import PuzzleStore
from polytile.store.kinds import kind

from .test_store import AUTH, run


def stored(store: Path) -> dict[str, Any]:
    """Each kind's first puzzle in ``store``."""
    with PuzzleStore(store, create=False) as db:
        found: dict[str, Any] = {}
        for sp in db.puzzles(None, None, None):
            found.setdefault(sp.kind, sp)
        return found


def entry(pp: PlacedPiece) -> dict[str, Any]:
    return {"piece": pp.piece, "color": pp.color, "cells": [list(c) for c in pp.cells]}


async def hand(client: TestClient[Any, Any], url: str, placed: Any, status: int = 200) -> Any:
    r = await client.post(url, json={"placed": placed}, headers=AUTH)
    assert r.status == status, await r.text()
    return await r.json()


def test_a_puzzle_solved_step_by_step(hand_store: Path) -> None:
    puzzles = stored(hand_store)

    async def scenario(client: TestClient[Any, Any]) -> None:
        for name in ("packing", "blokus-teaser"):
            sp = puzzles[name]
            shown = await (await client.get(f"/api/stores/0/puzzles/{sp.id}", headers=AUTH)).json()
            assert shown["by_hand"] is True
            url = f"/api/stores/0/puzzles/{sp.id}/hand"
            answer = sp.solution()
            placements = [pp for pp in answer.placements if pp not in sp.puzzle.given]
            start = await hand(client, url, [])
            assert start["left"] == len(placements) and start["solved"] is False
            want = Counter((pp.piece, pp.color) for pp in placements)
            assert {(p["name"], p["color"]): p["count"] for p in start["pieces"]} == want
            for p in start["pieces"]:  # every image of the piece, as offsets from one cell
                assert len(p["orientations"]) == 8 and [0, 0] in p["orientations"][0]
            assert set(start["cells"]) == {f"{r},{c}" for r in range(answer.rows)
                                           for c in range(answer.cols)}  # fmt: skip
            for i in range(1, len(placements) + 1):
                step = await hand(client, url, [entry(pp) for pp in placements[:i]])
                assert step["left"] == len(placements) - i
                assert step["solved"] is (i == len(placements))
                placed = (placements[i - 1].piece, placements[i - 1].color)
                row = next(p for p in step["pieces"] if (p["name"], p["color"]) == placed)
                assert row["left"] == want[placed] - sum(
                    (q.piece, q.color) == placed for q in placements[:i])  # fmt: skip
            solution = kind(name).placed_answer(sp.puzzle, placements)
            assert step["svg"] == to_svg(solution, CELL, highlight=placements[-1].cells)

    run([hand_store], scenario)


def test_illegal_steps_are_refused_naming_why(hand_store: Path) -> None:
    sp = stored(hand_store)["packing"]
    placements = list(sp.solution().placements)
    first = entry(placements[0])
    url = f"/api/stores/0/puzzles/{sp.id}/hand"

    async def scenario(client: TestClient[Any, Any]) -> None:
        async def refused(placed: list[Any]) -> str:
            return str((await hand(client, url, placed, 400))["error"])

        name = first["piece"]
        assert f"{name} not placed: the puzzle has 1 {name}, placed already" in await refused(
            [first, first])  # fmt: skip
        other = entry(placements[1])
        other["cells"] = first["cells"][:1] + other["cells"][1:]
        message = await refused([first, other])
        assert message.startswith(f"{other['piece']} not placed: ")
        assert f"is taken by {name}" in message
        off = {**first, "cells": [[r + 100, c] for r, c in first["cells"]]}
        assert "off the" in await refused([off])
        assert "not one of the puzzle's pieces" in await refused([{**first, "piece": "X9"}])
        assert "not one of" in await refused([{**first, "color": "blue"}])
        # an earlier placement is checked again, never trusted
        message = await refused([off, entry(placements[1])])
        assert message.startswith(f"placement 1 of 2: {name} not placed")

    run([hand_store], scenario)


def test_a_full_board_the_checker_refuses(hand_store: Path) -> None:
    """A teaser filled so that each step keeps the colours apart but a piece corner-touches
    none of its colour: the last step is refused with the checker's words."""
    from polytile.puzzles.tiling.puzzles import TilingPuzzle
    from polytile.solvers.tiling import TilingProblem, compile_problem, solutions

    sp = stored(hand_store)["blokus-teaser"]
    teaser, shown = sp.puzzle, kind("blokus-teaser")
    tally = Counter(p.name for p in teaser.pieces[0])
    hand_ = {p.name: p for p in teaser.pieces[0]}
    counts = tuple(2 * n for n in tally.values())
    shapes = TilingPuzzle("shapes", TilingProblem(teaser.board, tuple(hand_[n] for n in tally),
                                                  counts))  # fmt: skip
    pl = compile_problem(shapes.problem).placements
    bad = None
    for indices in solutions(shapes.problem):
        tiling = shapes.to_solution(pl, indices).placements
        for colours in itertools.product(("blue", "yellow"), repeat=len(tiling)):
            placed = [PlacedPiece(pp.piece, pp.cells, k)
                      for pp, k in zip(tiling, colours, strict=True)]  # fmt: skip
            steps = all(not shown.step_problems(teaser, placed[:i], s)
                        for i, s in enumerate(placed))  # fmt: skip
            if steps and shown.check_answer(teaser, shown.placed_answer(teaser, placed)):
                bad = placed
    assert bad is not None, "no full board the corner rule alone refuses"

    async def scenario(client: TestClient[Any, Any]) -> None:
        url = f"/api/stores/0/puzzles/{sp.id}/hand"
        almost = await hand(client, url, [entry(pp) for pp in bad[:-1]])
        assert almost["left"] == 1
        error = (await hand(client, url, [entry(pp) for pp in bad], 400))["error"]
        assert error.startswith("every piece would be placed, but the rules refuse the answer")
        assert "corner-touches no piece of its colour" in error

    run([hand_store], scenario)


def test_malformed_bodies_and_unknown_puzzles(hand_store: Path, store_file: Path) -> None:
    sp = stored(hand_store)["packing"]
    url = f"/api/stores/0/puzzles/{sp.id}/hand"
    cells = [list(c) for c in sp.solution().placements[0].cells]
    piece = sp.solution().placements[0].piece

    async def scenario(client: TestClient[Any, Any]) -> None:
        async def error(body: Any, status: int = 400, where: str = url, raw: bool = False) -> str:
            r = await (client.post(where, data=body, headers=AUTH) if raw else
                       client.post(where, json=body, headers=AUTH))  # fmt: skip
            assert r.status == status, await r.text()
            return str((await r.json())["error"])

        assert "not JSON" in await error("{", raw=True)
        assert "JSON object" in await error([1, 2])
        assert "JSON object" in await error("null", raw=True)
        for depth in (100, 100_000):  # the decoder recursed past the stack: a 500, before
            deep = "[" * depth + "]" * depth
            assert "nested more than 64 levels deep" in await error(deep, raw=True)
            assert "nested more than 64 levels deep" in await error(
                '{"placed": ' + deep + "}", raw=True)  # fmt: skip
        for body in ({}, {"placed": "I4"}, {"placed": {"piece": piece}}):
            assert '"placed" must be a list' in await error(body)
        assert "placement 1" in await error({"placed": [5]})
        assert '"piece" must name' in await error({"placed": [{"piece": "", "cells": cells}]})
        assert '"piece" must name' in await error({"placed": [{"piece": "x" * 41,
                                                               "cells": cells}]})  # fmt: skip
        assert '"color"' in await error({"placed": [{"piece": piece, "color": 3, "cells": cells}]})
        assert '"cells" must list' in await error({"placed": [{"piece": piece, "cells": []}]})
        assert '"cells" must list' in await error({"placed": [{"piece": piece,
                                                               "cells": cells * 3}]})  # fmt: skip
        for cell in ([1], [1, "2"], [True, 0], [0, 10**6], [0.5, 1]):
            body = {"placed": [{"piece": piece, "cells": [cell, *cells[1:]]}]}
            assert "a cell is [row, col]" in await error(body)
        many = {"placed": [{"piece": piece, "cells": cells}] * 4}
        assert "4 placements sent: the puzzle has 3 pieces" in await error(many)
        assert "no puzzle 999" in await error({"placed": []}, 404,
                                              "/api/stores/0/puzzles/999/hand")  # fmt: skip
        assert "no puzzle set 5" in await error({"placed": []}, 404,
                                                f"/api/stores/5/puzzles/{sp.id}/hand")  # fmt: skip
        assert "whole number" in await error({"placed": []}, 400, "/api/stores/0/puzzles/x/hand")
        r = await client.post(url, json={"placed": []})  # no token
        assert r.status == 403
        henning = stored(store_file)["henning"]
        message = await error({"placed": []}, 400, f"/api/stores/1/puzzles/{henning.id}/hand")
        assert "not solved by hand" in message
        shown = await (await client.get(f"/api/stores/1/puzzles/{henning.id}",
                                        headers=AUTH)).json()  # fmt: skip
        assert shown["by_hand"] is False

    run([hand_store, store_file], scenario)


def test_orientations_turn_and_turn_over() -> None:
    """Turning adds a quarter turn, turning over mirrors: the images the page cycles
    through with r and f are the piece's, each holding the cell under the pointer."""
    from polytile.geometry import Polyomino, piece

    l4 = piece("L4")
    images = orientations(l4, one_sided=False)
    assert len(images) == 8 and all([0, 0] in image for image in images)
    shapes = [Polyomino(tuple(map(tuple, image))) for image in images]
    assert set(shapes) == set(l4.orientations())
    assert len(set(shapes[:4])) == 4 and set(shapes[:4]) == set(l4.orientations(True))
    for j in range(4):  # f then r: the mirror turned the other way, (f, j) -> (1-f, -j)
        assert shapes[4 + (-j) % 4] == Polyomino(tuple((r, -c) for r, c in shapes[j].cells))
    assert len(orientations(l4, one_sided=True)) == 4
