"""``polytile solve cityblocks-max``: the checked best layout of one City Blocks colour."""

from __future__ import annotations

import json
from pathlib import Path

from polytile.formats import dumps, loads
from polytile.puzzles.cityblocks.rules import CityBlocks, Move, score

from .helpers import Invoke, assert_clean_failure


def test_score_layout_is_proven_and_rescored(invoke: Invoke) -> None:
    result = invoke("solve", "cityblocks-max", "--json", "--workers", "1", "--time-limit", "60")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["status"] == "optimal" and doc["value"] == doc["bound"] == 261
    assert len(doc["placements"]) == 20 and all(p["color"] == "blue" for p in doc["placements"])
    sheet = score(doc["board"])
    assert sheet.colors["blue"].total == 261
    sol = loads(result.stdout)
    game = CityBlocks()  # the layout replays legally, first piece on the corner first
    first = next(p for p in sol.placements if (0, 0) in p.cells)
    for p in [first, *(q for q in sol.placements if q is not first)]:
        while game.to_move != "blue":
            game.push(Move.pass_turn(game.to_move))
        game.push(Move("blue", p.piece, p.cells))
    assert game.score().colors["blue"].total == 261


def test_from_a_position_and_text_output(invoke: Invoke, tmp_path: Path) -> None:
    game = CityBlocks()
    for move in ["B I3 0,0 0,1 0,2", "Y I2 0,19 1,19", "R pass", "G pass"]:
        game.push(Move.parse(move))
    path = tmp_path / "game.json"
    path.write_text(dumps(game.to_position()))
    result = invoke(
        "solve", "cityblocks-max", "--from", str(path), "--color", "yellow", "--objective",
        "free", "--time-limit", "30", "--workers", "1", "--no-color",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "yellow: free" in result.stdout and "bound" in result.stdout


def test_bad_use_exits_2(invoke: Invoke, tmp_path: Path, examples: Path) -> None:
    assert_clean_failure(invoke("solve", "cityblocks-max", "--color", "purple"))
    assert_clean_failure(invoke("solve", "four-square", "--color", "red"))
    assert_clean_failure(invoke("solve", "pentomino-6x10", "--objective", "area"))
    sol = examples / "pentomino-6x10.json"
    assert_clean_failure(invoke("solve", "cityblocks-max", "--from", str(sol)))
    assert_clean_failure(invoke("solve", "cityblocks-max", "--from", str(tmp_path / "no.json")))
