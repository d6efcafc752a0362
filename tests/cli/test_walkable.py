"""Walkable Cities on the command line: ``new``, ``play``, ``selfplay`` and the shared verbs
``render``, ``score`` and ``validate``; bad input exits 2 and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from polytile.puzzles.walkable.files import dumps_position, load_walkable, read_walkable
from polytile.puzzles.walkable.rules import Walkable

from .helpers import Invoke, assert_clean_failure

ROUND = "T4 1:c4,d4 2:e4 3:d5 | L4 1:a1,a2 3:a3,b3"


@pytest.mark.parametrize(
    ("command", "words"),
    [("new", ["walkable", "--dead", "--pass-limit", "--tiebreak"]),
     ("play", ["Walkable Cities", "L4 pass"]), ("selfplay", ["walkable"]),
     ("render", ["Walkable Cities"]), ("score", ["Walkable Cities"]),
     ("validate", ["Walkable Cities"])],
)  # fmt: skip
def test_help_mentions_walkable(invoke: Invoke, command: str, words: list[str]) -> None:
    result = invoke(command, "--help")
    assert result.exit_code == 0
    assert all(w in result.stdout for w in words), result.stdout


def new_game(invoke: Invoke, tmp_path: Path, *options: str) -> Path:
    path = tmp_path / "walk.json"
    result = invoke("new", "walkable", "--seed", "1", *options, "-o", str(path))
    assert result.exit_code == 0, result.stderr
    return path


def test_new_is_seeded_and_takes_the_options(invoke: Invoke, tmp_path: Path) -> None:
    a, b = invoke("new", "walkable", "--seed", "5"), invoke("new", "walkable", "--seed", "5")
    assert a.exit_code == 0 and a.stdout == b.stdout
    assert a.stdout != invoke("new", "walkable", "--seed", "6").stdout
    doc = json.loads(invoke("new", "walkable", "--dead", "0", "--pass-limit", "4",
                            "--tiebreak", "B").stdout)  # fmt: skip
    assert doc["options"] == {"pass_limit": 4, "tiebreak": "B"} and doc["rounds"] == []
    assert doc["setup"] == {"seed": 0, "dead": 0} and "#" not in "".join(doc["boards"][0])
    assert_clean_failure(invoke("new", "walkable", "--dead", "101"))
    assert_clean_failure(invoke("new", "henning", "--dead", "3"))
    assert_clean_failure(invoke("new", "walkable", "--deal", "split"))


def test_play_adds_rounds_and_refuses_illegal_ones(invoke: Invoke, tmp_path: Path) -> None:
    path = new_game(invoke, tmp_path, "--dead", "0")
    result = invoke("play", str(path), ROUND, "--no-color")
    assert result.exit_code == 0, result.stderr
    assert "1 round played, round 2 next; rotation: I4 O4 Z4" in result.stdout
    before = path.read_bytes()
    for bad in ("O4 1:c4,d4 2:c5,d5 | I4 pass", "T4 pass", "I4 1:a1,c1 2:b1 3:d1 | O4 pass",
                "O4 pass | X4 pass"):  # fmt: skip
        result = invoke("play", str(path), "I4 pass | O4 pass", bad)
        assert_clean_failure(result)
        # the second MOVES argument, the game's third round
        assert "move 2 (" in result.stderr and "round 3)" in result.stderr
        assert "nothing was written" in result.stderr
        assert path.read_bytes() == before
    assert len(load_walkable(path).rounds) == 1


def test_play_refuses_a_position_and_a_finished_game(invoke: Invoke, tmp_path: Path) -> None:
    pos = tmp_path / "pos.json"
    pos.write_text(dumps_position(Walkable.new(1)))
    assert_clean_failure(invoke("play", str(pos), "T4 pass | L4 pass"))
    path = new_game(invoke, tmp_path)
    rounds = ["T4 pass | L4 pass", "O4 pass | O4 pass", "I4 pass | Z4 pass"]
    assert invoke("play", str(path), *rounds).exit_code == 0
    before = path.read_bytes()
    result = invoke("play", str(path), "T4 pass | L4 pass")
    assert_clean_failure(result)
    assert "over" in result.stderr and path.read_bytes() == before


def test_selfplay_writes_valid_records(invoke: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "recs"
    result = invoke("selfplay", "walkable", "--red", "random", "--games", "2", "--seed", "3",
                    "--tiebreak", "R", "-o", str(out))  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "game 2:" in result.stderr
    for i in (1, 2):
        doc = load_walkable(out / f"walkable-{i}.json")
        assert doc.state.is_over() and doc.extra["players"] == {"red": "random", "blue": "greedy"}
        assert doc.setup == {"seed": 2 + i, "dead": 10} and doc.state.options.tiebreak == "R"
    short = invoke("selfplay", "walkable", "--stop-before-end", "2")
    assert not read_walkable(short.stdout).state.is_over()
    assert_clean_failure(invoke("selfplay", "walkable", "--yellow", "random"))
    assert_clean_failure(invoke("selfplay", "henning", "--pass-limit", "4"))


def test_render_score_and_validate(invoke: Invoke, tmp_path: Path) -> None:
    path = new_game(invoke, tmp_path, "--dead", "0")
    invoke("play", str(path), ROUND, "O4 pass | O4 pass")
    text = invoke("render", str(path), "--no-color")
    assert text.exit_code == 0 and "board 3" in text.stdout and " B B " in text.stdout
    first = invoke("render", str(path), "--move", "0", "--no-color").stdout
    rows = "\n".join(first.splitlines()[2:12])  # the boards, not the legend under them
    assert " R " not in rows and " B " not in rows
    for suffix in ("svg", "png", "txt"):
        out = tmp_path / f"walk.{suffix}"
        assert invoke("render", str(path), "-o", str(out)).exit_code == 0
        assert out.stat().st_size > 100
    assert "<svg" in (tmp_path / "walk.svg").read_text()
    assert_clean_failure(invoke("render", str(path), "-o", str(tmp_path / "w.gif")))
    assert_clean_failure(invoke("render", str(path), "--move", "9"))
    score = json.loads(invoke("score", str(path), "--json").stdout)
    assert [b["winner"] for b in score["boards"]] == [None, "red", "blue"]
    assert score["won"] == {"red": 1, "blue": 1} and score["winner"] is None
    table = invoke("score", str(path), "--no-color").stdout
    assert "boards won: red 1, blue 1" in table and "if the game ended now: a draw" in table
    valid = invoke("validate", str(path))
    assert valid.exit_code == 0 and "valid Walkable Cities game record, 2 rounds" in valid.stdout
    assert json.loads(invoke("validate", str(path), "--json").stdout)["valid"] is True


def test_broken_files_exit_2_naming_the_field(invoke: Invoke, tmp_path: Path) -> None:
    path = new_game(invoke, tmp_path)
    doc = json.loads(path.read_text())
    doc["rounds"] = ["T4 pass | L4 pass", "T4 pass | I4 pass"]
    path.write_text(json.dumps(doc))
    for command in ("validate", "render", "score"):
        result = invoke(command, str(path))
        assert_clean_failure(result)
        assert "rounds[1]" in result.stderr and "not in the rotation" in result.stderr


@pytest.mark.parametrize("game", ["walkable", "henning", "gridblock"])
def test_standard_input_is_read_as_the_game_it_says_it_is(
    invoke: Invoke, tmp_path: Path, game: str
) -> None:
    # The game is told from the document's first bytes; on standard input those are read
    # once and kept for the reader.
    path = tmp_path / f"{game}.json"
    assert invoke("new", game, "--seed", "2", "-o", str(path)).exit_code == 0
    data = path.read_bytes()
    for command in ("score", "validate", "render"):
        by_name, piped = invoke(command, str(path)), invoke(command, "-", input=data)
        assert piped.exit_code == by_name.exit_code == 0, (command, piped.output)
        if command != "validate":  # validate names its file
            assert piped.stdout == by_name.stdout


def test_errors_name_places_as_the_game_writes_them(invoke: Invoke, tmp_path: Path) -> None:
    """#48: "boards[0][3]: column 3" mixed a 0-based row with a 1-based column, and a count
    of one read "1 cells". The field keeps JSON's count (from 0); the place is the game's
    own cell name and board number, as a round's errors write them ("a1 on board 1")."""
    path = new_game(invoke, tmp_path)
    doc = json.loads(path.read_text())
    row = doc["boards"][0][3]
    doc["boards"][0][3] = row[:2] + "X" + row[3:]
    path.write_text(json.dumps(doc))
    bad = invoke("validate", str(path))
    assert_clean_failure(bad)
    assert "boards[0][3]: c4 on board 1: 'X' is not a cell" in bad.stderr
    assert "column" not in bad.stderr
    doc["boards"][0][3] = row[:9]
    path.write_text(json.dumps(doc))
    assert (
        "boards[0][3]: row 4 of board 1 must be 10 cells, got 9"
        in invoke("validate", str(path)).stderr
    )
    g = load_walkable(new_game(invoke, tmp_path)).state
    position = json.loads(dumps_position(g))
    first = position["boards"][0][0]
    spot = first.index(".")
    position["boards"][0][0] = first[:spot] + "R" + first[spot + 1 :]
    path.write_text(json.dumps(position))
    said = invoke("validate", str(path)).stderr
    assert "red has 1 cell, more than 4 a round in the 0 rounds it can have dropped in" in said
