"""``polytile bounds``: City Blocks endgame bounds from a position file."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from polytile.formats import COLORS, Position, save
from polytile.puzzles.cityblocks.rules import (
    CENTRE_CELLS,
    COLOR_NAMES,
    START_CELLS,
    CityBlocks,
    Move,
)

from .helpers import EXAMPLES, Invoke, assert_clean_failure

KEYS = {
    "score_now", "upper", "upper_proven", "upper_layout_score", "upper_placements", "lower",
    "lower_proven", "lower_layout_score", "lower_placements", "best_next", "exact",
    "exact_move", "exact_note", "can_ensure", "can_ensure_proven", "estimate",
}  # fmt: skip


def corridor(to_move: str = "blue") -> Position:
    """Row 5 reads ``B . . . Y``, everything else is blocked or filler: blue and yellow hold a
    domino each, red and green nothing. Blue scores 86 now (area 85 + 1 free edge), 87 at
    best (its domino on (5,10),(5,11)), 85 if yellow's domino takes (5,9),(5,10)."""
    grid = [["#"] * 20 for _ in range(20)]
    for name, (r, c) in CENTRE_CELLS.items():
        grid[r][c] = COLORS[name]
    for c, ch in zip(range(8, 13), "B...Y", strict=True):
        grid[5][c] = ch
    # Filler away from row 5 and the centre: one blob per colour, grown from its corner.
    banned = {(r, c) for r in (4, 5, 6) for c in range(7, 14)}
    banned |= {(r + dr, c + dc) for r, c in CENTRE_CELLS.values() for dr in (-1, 0, 1)
               for dc in (-1, 0, 1)}  # fmt: skip
    need = {"blue": 85, "yellow": 85, "red": 88, "green": 88}
    for name, n in need.items():
        sr, sc = START_CELLS[name]
        order = sorted(((r, c) for r in range(20) for c in range(20)),
                       key=lambda cell: abs(cell[0] - sr) + abs(cell[1] - sc))  # fmt: skip
        cells = [cell for cell in order if grid[cell[0]][cell[1]] == "#" and cell not in banned]
        for r, c in cells[:n]:
            grid[r][c] = COLORS[name]
    hands = {"blue": ("I2",), "yellow": ("I2",), "red": (), "green": ()}
    return Position("cityblocks", tuple("".join(row) for row in grid), to_move, hands)


@pytest.fixture
def corridor_file(tmp_path: Path) -> Path:
    path = tmp_path / "corridor.json"
    save(corridor(), path)
    return path


def test_help(invoke: Invoke) -> None:
    result = invoke("bounds", "--help")
    assert result.exit_code == 0
    assert "Examples" in result.stdout and "Exit codes" in result.stdout


def test_json_by_hand(invoke: Invoke, corridor_file: Path) -> None:
    result = invoke("bounds", str(corridor_file), "--json", "--workers", "1")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["game"] == "cityblocks" and list(doc["colors"]) == ["blue"]  # the colour to move
    blue = doc["colors"]["blue"]
    assert set(blue) == KEYS
    assert (blue["score_now"], blue["lower"], blue["upper"], blue["exact"]) == (86, 85, 87, 87)
    assert blue["upper_proven"] and blue["lower_proven"] and blue["exact_note"] is None
    assert blue["upper_placements"] == [
        {"piece": "I2", "color": "blue", "cells": [[5, 10], [5, 11]]}
    ]
    assert blue["lower_placements"] == [
        {"piece": "I2", "color": "yellow", "cells": [[5, 9], [5, 10]]}
    ]
    assert blue["best_next"] == blue["exact_move"] == blue["upper_placements"][0]
    assert blue["estimate"] is None  # the exact value is known: no estimate beside it


def test_every_colour(invoke: Invoke, corridor_file: Path) -> None:
    result = invoke("bounds", str(corridor_file), "--json", "--color", "all", "--workers", "1")
    assert result.exit_code == 0, result.stderr
    colors = json.loads(result.stdout)["colors"]
    assert list(colors) == list(COLOR_NAMES)
    for doc in colors.values():
        assert doc["lower"] <= doc["score_now"] <= doc["upper"]
        assert doc["lower"] <= doc["exact"] <= doc["upper"]
    assert colors["red"]["best_next"] is None  # nothing left to place
    assert colors["red"]["lower"] == colors["red"]["upper"] == 88


def test_text_has_picture_and_table(invoke: Invoke, corridor_file: Path) -> None:
    result = invoke("bounds", str(corridor_file), "--color", "yellow", "--workers", "1")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "yellow: best layout if the others pass (score 87)"
    assert len(lines[1].split()) == 20  # a board row
    header = lines.index("colour    now  lower  upper  exact  estimate  best next")
    assert lines[header + 1].split() == ["yellow", "86", "85", "87", "85", "-", "Y", "I2",
                                         "5,9", "5,10"]  # fmt: skip


def test_mid_game_unproven_bounds(invoke: Invoke, tmp_path: Path) -> None:
    rng = random.Random(5)
    game = CityBlocks()
    for _ in range(40):
        moves = game.legal_placements()
        game.push(rng.choice(moves) if moves else Move.pass_turn(game.to_move))
    path = tmp_path / "mid.json"
    save(game.to_position(), path)
    # The limit covers the whole command, building the models included (#17): enough for
    # one colour's models on a busy machine, too little to prove the bounds tight.
    result = invoke("bounds", str(path), "--time-limit", "6", "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)["colors"]["blue"]
    assert doc["lower"] <= doc["lower_layout_score"] <= doc["score_now"]
    assert doc["score_now"] <= doc["upper_layout_score"] <= doc["upper"]
    assert doc["exact"] is None and "pieces can still be placed" in doc["exact_note"]
    # #49: where between the bounds the score is likely to end, labelled an estimate
    guess = doc["estimate"]
    assert guess["playouts"] >= 1 and "estimate, not exact" in guess["note"]
    assert doc["lower"] <= guess["value"] <= doc["upper"]
    assert guess["clipped"] == (guess["value"] != guess["mean"])
    text = invoke("bounds", str(path), "--time-limit", "6", "--exact-pieces", "0")
    assert text.exit_code == 0 and "blue" in text.stdout
    row = next(line for line in text.stdout.splitlines() if line.startswith("blue "))
    assert row.split()[5].startswith("~")
    assert "blue: ~" in text.stdout and "is an estimate, not exact" in text.stdout


def test_finished_game_and_stdin(invoke: Invoke) -> None:
    rng = random.Random(2)
    game = CityBlocks()
    while not game.is_game_over():
        moves = game.legal_placements()
        game.push(rng.choice(moves) if moves else Move.pass_turn(game.to_move))
    from polytile.formats import dumps

    result = invoke("bounds", "-", "--json", "--color", "green", input=dumps(game.to_position()))
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)["colors"]["green"]
    total = game.score().colors["green"].total
    assert doc["lower"] == doc["upper"] == doc["exact"] == doc["score_now"] == total
    assert doc["best_next"] is None


def test_blokus_bounds_json(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "blokus.json"
    save(Position("blokus", tuple("." * 14 for _ in range(14)), "blue"), path)
    # the searches end once proven: the limit only has to outlast a busy machine (8 s ran
    # out first under load, #48)
    result = invoke("bounds", str(path), "--json", "--time-limit", "30", "--workers", "1")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["game"] == "blokus" and list(doc["colors"]) == ["blue"]
    blue = doc["colors"]["blue"]
    assert (blue["upper"], blue["lower"], blue["score_lower"]) == (89, 5, -84)  # moves now
    # the lower bound under the name that says what it is, the old names kept for a version
    assert (blue["can_ensure"], blue["score_can_ensure"]) == (5, -84)
    assert blue["can_ensure_proven"] == blue["lower_proven"]


@pytest.mark.parametrize(
    "args",
    [
        ("missing.json",),
        ("{path}", "--color", "purple"),
        ("{path}", "--time-limit", "0"),
        ("{tiling}",),
        ("{bad}",),
    ],
)
def test_bad_input(invoke: Invoke, tmp_path: Path, args: tuple[str, ...]) -> None:
    good = tmp_path / "good.json"
    save(corridor(), good)
    tiling = tmp_path / "tiling.json"
    save(Position("tiling", ("..", "..")), tiling)
    bad = tmp_path / "bad.json"
    save(Position("cityblocks", corridor().board, "blue", {"blue": ("I2", "I3")}), bad)
    names = {"path": good, "tiling": tiling, "bad": bad}
    result = invoke("bounds", *(a.format(**names) for a in args))
    assert_clean_failure(result, 2)


def test_check_failure_is_internal_error(
    invoke: Invoke, corridor_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An answer the rules engine does not confirm is never printed: exit 3."""
    import polytile.puzzles.cityblocks.bounds as mod

    monkeypatch.setattr(mod, "_total", lambda game, color: -1)
    result = invoke("bounds", str(corridor_file), "--json")
    assert_clean_failure(result, 3)
    assert result.stdout == ""
    assert "internal error" in result.stderr


def test_blokus_blksgf_move_and_text(invoke: Invoke) -> None:
    record = str(EXAMPLES / "duo-game.blksgf")
    # the searches use the time they are given (5 s: 3 s in all on a quiet machine); beside
    # a busy CI run a colour was left unbounded (#48), which the answer must then say
    result = invoke("bounds", record, "--move", "8", "--color", "all", "--json",
                    "--time-limit", "5", "--workers", "1")  # fmt: skip
    assert result.exit_code in (0, 1), result.stderr
    doc = json.loads(result.stdout)
    colors = doc["colors"]
    assert list(colors) + doc.get("not_bounded", []) == ["blue", "yellow"]
    assert (result.exit_code == 1) == ("not_bounded" in doc)
    for doc in colors.values():
        assert doc["lower"] <= doc["upper"] and doc["score_lower"] <= doc["score_upper"]
        for p in doc["upper_placements"]:
            assert set(p) == {"piece", "color", "cells"}
    text = invoke("bounds", record, "--move", "8", "--time-limit", "5", "--workers", "1")
    assert text.exit_code in (0, 1), text.stderr
    assert (text.exit_code == 1) == ("not bounded" in text.stdout)
    head = text.stdout.splitlines()
    assert head[1].split() == ["colour", "now", "at", "least", "at", "most", "score"]
    assert head[2].split()[0] == "blue"  # the colour to move after move 8
    bad = invoke("bounds", record, "--color", "red")
    assert_clean_failure(bad, 2)


def test_blokus_check_failure_is_internal_error(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import polytile.puzzles.blokus.bounds as mod
    from polytile.errors import SolverError

    def broken(*args: object, **kwargs: object) -> None:
        raise SolverError("the layout of blue is not legal")

    monkeypatch.setattr(mod, "_order", broken)
    # an endgame, whose layouts CP-SAT proves at once (an empty board's took 14 s): the
    # check fails as soon as the search reaches it, and the limit only has to outlast a
    # busy machine's start-up (8 s ran out first under load)
    path = EXAMPLES / "duo-endgame.blksgf"
    result = invoke("bounds", str(path), "--json", "--time-limit", "30", "--workers", "1")
    assert_clean_failure(result, 3)
    assert result.stdout == ""


def test_help_says_the_lower_bound_is_what_a_colour_can_make_sure_of(invoke: Invoke) -> None:
    """#18: the lower bound is what a colour can make sure of if it plays well, not what it
    will get; the help says so, and names the JSON fields."""
    text = " ".join(invoke("bounds", "--help").stdout.split())
    assert "can make sure of if it plays well" in text
    assert "can make sure of placing if it plays well" in text
    assert '"can_ensure"' in text and '"score_can_ensure"' in text


def _deadline_stops(monkeypatch: pytest.MonkeyPatch, module: Any, color: str) -> None:
    """Stand in for the command's deadline (one that never goes off by itself), and end
    ``color``'s search (``module.bounds``) as that deadline would end it: DeadlineReached,
    the deadline marked fired. No time is waited for."""
    from polytile.cli.clock import CommandClock, Deadline, DeadlineReached

    made: list[Deadline] = []

    def deadline(self: CommandClock, limit: float | None) -> Deadline:
        made.append(Deadline(None))
        return made[-1]

    search = module.bounds

    def stopped(position: object, name: str, **kw: object) -> object:
        if name == color:
            made[-1].fired = True
            raise DeadlineReached
        return search(position, name, **kw)

    monkeypatch.setattr(CommandClock, "deadline", deadline)
    monkeypatch.setattr(module, "bounds", stopped)


def test_a_colour_the_time_limit_left_out_has_a_row_saying_why(
    invoke: Invoke, corridor_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """#48: when the time limit ran out before green was bounded, the table had no row for
    it and the JSON no reason; every colour asked for now has a row, and the JSON a reason.
    The clock is stood in for: green's search ends as the whole command's deadline would
    end it (DeadlineReached, the deadline marked fired), without waiting for any time."""
    import polytile.puzzles.cityblocks.bounds as mod

    _deadline_stops(monkeypatch, mod, "green")
    text = invoke("bounds", str(corridor_file), "--color", "all", "--workers", "1")
    assert_clean_failure(text, 1)
    rows = text.stdout.splitlines()
    header = rows.index("colour    now  lower  upper  exact  estimate  best next")
    named = [row.split()[0] for row in rows[header + 1 : header + 5]]
    assert named == ["blue", "yellow", "red", "green"]
    assert rows[header + 4].split()[1:6] == ["-"] * 5
    assert "not bounded: the time limit ran out before it was bounded" in rows[header + 4]
    doc = json.loads(invoke("bounds", str(corridor_file), "--color", "all", "--json",
                            "--workers", "1").stdout)  # fmt: skip
    assert list(doc["colors"]) == ["blue", "yellow", "red"]
    assert doc["not_bounded"] == ["green"] and doc["stopped_by"] == "time"
    assert doc["reason"] == "the time limit ran out before it was bounded"


def test_a_blokus_colour_the_time_limit_left_out_has_a_row_saying_why(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """#48, as for City Blocks: a Blokus colour not bounded in time has a row in the table
    saying why, and the JSON a reason. On a game two moves from its end (each bound is
    proven at once), yellow's search ends as the command's deadline would end it, with the
    clock stood in for."""
    import polytile.puzzles.blokus.bounds as mod

    record = tmp_path / "late.blksgf"
    made = invoke("selfplay", "blokus", "--variant", "duo", "--seed", "1",
                  "--stop-before-end", "2", "-o", str(record))  # fmt: skip
    assert made.exit_code == 0, made.stderr
    _deadline_stops(monkeypatch, mod, "yellow")
    text = invoke("bounds", str(record), "--color", "all", "--workers", "1")
    assert_clean_failure(text, 1)
    rows = text.stdout.splitlines()
    assert rows[1].split()[0] == "colour"
    assert [row.split()[0] for row in rows[2:4]] == ["blue", "yellow"]
    assert rows[3].split(None, 1)[1] == ("not bounded: the time limit ran out before it was "
                                         "bounded")  # fmt: skip
    doc = json.loads(invoke("bounds", str(record), "--color", "all", "--json",
                            "--workers", "1").stdout)  # fmt: skip
    assert list(doc["colors"]) == ["blue"]
    assert doc["not_bounded"] == ["yellow"] and doc["stopped_by"] == "time"
    assert doc["reason"] == "the time limit ran out before it was bounded"


def test_the_web_board_says_what_an_incomplete_bounds_run_is() -> None:
    """#48: the web board called a bounds run the time limit cut short 'no exact answer
    (the report says why)', a solve-endgame outcome; it says it is incomplete."""
    from polytile.serve.analysis import outcome

    assert outcome("bounds", 1).startswith("incomplete: the time limit ran out")
    assert outcome("exact", 1) == ("no exact value: an estimate or bounds instead, labelled "
                                   "(the report says why)")  # fmt: skip
    assert outcome("bounds", 0) == "answered" and outcome("bounds", None) == ""


def test_ctrl_c_during_an_estimate_keeps_the_colours_bounds(
    invoke: Invoke, corridor_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Ctrl-C (or the command's deadline) during a colour's estimate keeps that colour's
    bounds, without an estimate, and bounds no more colours."""
    import polytile.puzzles.cityblocks.bounds as mod

    def interrupted(*args: Any, **kw: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(mod, "estimate_score", interrupted)
    result = invoke("bounds", str(corridor_file), "--color", "all", "--exact-pieces", "0",
                    "--workers", "1", "--json")  # fmt: skip
    assert_clean_failure(result, 130)
    doc = json.loads(result.stdout)
    assert list(doc["colors"]) == ["blue"] and doc["colors"]["blue"]["estimate"] is None
    assert doc["complete"] is False and doc["not_bounded"] == ["yellow", "red", "green"]
