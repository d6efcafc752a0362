"""``polytile solve cityblocks-max``: the checked best layout of one City Blocks colour."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from polytile.formats import dumps, loads
from polytile.puzzles.cityblocks.rules import CityBlocks, Move, score

from .helpers import Invoke, assert_clean_failure


def test_score_layout_is_proven_and_rescored(invoke: Invoke, tmp_path: Path) -> None:
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
    check_validate(invoke, tmp_path, doc)


def check_validate(invoke: Invoke, tmp_path: Path, doc: dict[str, Any]) -> None:
    """validate replays a layout by the rules and checks what it says of itself: the answer
    passes, and each way of breaking it is found (a file that broke the rules passed as
    'valid solution', the placements alone checked, before)."""

    def verdict(changed: dict[str, Any]) -> tuple[int, str]:
        path = tmp_path / "layout.json"
        path.write_text(json.dumps(changed))
        r = invoke("validate", str(path))
        return r.exit_code, r.stdout + r.stderr

    code, said = verdict(doc)
    assert code == 0 and "valid solution for puzzle cityblocks-max" in said, said
    first = next(i for i, p in enumerate(doc["placements"]) if [0, 0] in p["cells"])
    shifted = [{**p, "cells": [[r + 1, c] for r, c in p["cells"]]} if i == first else p
               for i, p in enumerate(doc["placements"])]  # fmt: skip
    centre = {"piece": "I2", "color": "blue", "cells": [[9, 9], [9, 10]]}
    first_cell = doc["placements"][0]["cells"][0]
    repeated = [{**doc["placements"][0], "cells": [first_cell, first_cell]},
                *doc["placements"][1:]]  # fmt: skip
    for changed, reason in [
        ({**doc, "score": doc["score"] + 39}, f'"score" is {doc["score"] + 39}'),
        ({**doc, "board": doc["board"][::-1]}, '"board" is not the board'),
        ({**doc, "bound": doc["bound"] + 1}, '"optimal" layout\'s "bound"'),
        ({**doc, "color": "red"}, "placements of blue"),
        ({**doc, "placements": shifted}, "must cover its start cell"),
        ({**doc, "placements": [*doc["placements"], centre]}, "not legal"),
        # malformed fields are reasons (exit 1), not internal errors (exit 3)
        ({**doc, "board": 5}, '"board" is not the board'),
        ({**doc, "objective": ["score"]}, '"objective" must be one of'),
        ({**doc, "placements": repeated}, "repeat a cell"),
        ({**doc, "board": ["Y" * 20, *doc["board"][1:]]}, "does not record"),
    ]:
        code, said = verdict(changed)
        assert code == 1 and reason in said, said


def test_from_a_position_and_text_output(invoke: Invoke, tmp_path: Path) -> None:
    game = CityBlocks()
    for move in ["B I3 0,0 0,1 0,2", "Y I2 0,19 1,19", "R pass", "G pass"]:
        game.push(Move.parse(move))
    path = tmp_path / "game.json"
    path.write_text(dumps(game.to_position()))
    out = tmp_path / "yellow.json"
    result = invoke(
        "solve", "cityblocks-max", "--from", str(path), "--color", "yellow", "--objective",
        "free", "--time-limit", "30", "--workers", "1", "--no-color", "-o", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "yellow: free" in result.stdout and "bound" in result.stdout
    # the layout records the position it was made on, and validate replays it there
    doc = json.loads(out.read_text())
    assert doc["start"]["board"][0].startswith("BBB")
    r = invoke("validate", str(out))
    assert r.exit_code == 0 and "valid solution" in r.stdout, r.stdout + r.stderr
    out.write_text(json.dumps({k: v for k, v in doc.items() if k != "start"}))
    r = invoke("validate", str(out))  # on the starting board yellow's I2 is not in its hand
    assert r.exit_code == 1, r.stdout


def test_bad_use_exits_2(invoke: Invoke, tmp_path: Path, examples: Path) -> None:
    assert_clean_failure(invoke("solve", "cityblocks-max", "--color", "purple"))
    assert_clean_failure(invoke("solve", "four-square", "--color", "red"))
    assert_clean_failure(invoke("solve", "pentomino-6x10", "--objective", "area"))
    sol = examples / "pentomino-6x10.json"
    assert_clean_failure(invoke("solve", "cityblocks-max", "--from", str(sol)))
    assert_clean_failure(invoke("solve", "cityblocks-max", "--from", str(tmp_path / "no.json")))
