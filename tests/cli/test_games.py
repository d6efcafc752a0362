"""``polytile new``, ``play`` and ``selfplay``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from polytile.puzzles.henning.files import load_henning

from .helpers import Invoke, assert_clean_failure


@pytest.mark.parametrize("command", ["new", "play", "selfplay"])
def test_help(invoke: Invoke, command: str) -> None:
    result = invoke(command, "--help")
    assert result.exit_code == 0
    assert "Examples" in result.stdout and "Exit codes" in result.stdout


def test_new_henning_is_seeded(invoke: Invoke, tmp_path: Path) -> None:
    a, b = invoke("new", "henning", "--seed", "5"), invoke("new", "henning", "--seed", "5")
    assert a.exit_code == 0 and a.stdout == b.stdout
    assert a.stdout != invoke("new", "henning", "--seed", "6").stdout
    doc = json.loads(a.stdout)
    assert doc["kind"] == "record" and doc["moves"] == [] and doc["seed"] == 5


def test_new_other_games(invoke: Invoke) -> None:
    duo = json.loads(invoke("new", "blokus", "--variant", "duo").stdout)
    assert len(duo["board"]) == 14
    assert json.loads(invoke("new", "cityblocks", "--players", "2").stdout)["players"] == 2
    assert_clean_failure(invoke("new", "cityblocks", "--players", "teams"))


def test_play_appends_legal_moves_and_refuses_illegal_ones(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    assert invoke("new", "henning", "--seed", "7", "-o", str(path)).exit_code == 0
    g = load_henning(path).state
    move = str(g.legal_moves()[3])
    result = invoke("play", str(path), move, "--no-color")
    assert result.exit_code == 0, result.stderr
    assert load_henning(path).moves[0].__str__() == move
    before = path.read_bytes()
    bad = invoke("play", str(path), "pass")
    assert_clean_failure(bad)
    assert "nothing was written" in bad.stderr and path.read_bytes() == before
    assert_clean_failure(invoke("play", str(path), "Q9@z9"))


def test_selfplay_writes_finished_records(invoke: Invoke, tmp_path: Path) -> None:
    result = invoke("selfplay", "henning", "--games", "3", "--blue", "random", "-o",
                    str(tmp_path / "recs"))  # fmt: skip
    assert result.exit_code == 0, result.stderr
    files = sorted((tmp_path / "recs").glob("henning-*.json"))
    assert len(files) == 3
    assert all(load_henning(f).state.is_over() for f in files)
    kept = tmp_path / "keep.json"
    kept.write_text("mine")
    onto = invoke("selfplay", "henning", "--games", "2", "-o", str(kept))  # a file, not a folder
    assert_clean_failure(onto)
    assert "--games N writes N records into a folder" in onto.stderr  # not "File exists"
    assert kept.read_text() == "mine"
    short = invoke("selfplay", "henning", "--stop-before-end", "4")
    state = load_henning_text(short.stdout)
    assert not state.is_over()
    # its summary is the record's money so far, not the finished game's result
    told = invoke("selfplay", "henning", "--stop-before-end", "4", "-o", str(tmp_path / "s.json"))
    assert (f"not finished (so far blue ${state.money_of(0)}, red ${state.money_of(1)})"
            in told.stderr), told.stderr  # fmt: skip


def load_henning_text(text: str):  # type: ignore[no-untyped-def]
    from polytile.puzzles.henning.files import read_henning

    return read_henning(text).state


def test_shared_verbs_read_henning_files(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    result = invoke("selfplay", "henning", "--seed", "3", "--blue", "random", "--red", "random",
                    "-o", str(path))  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "City Blocks (Henning) game record" in invoke("validate", str(path)).stdout
    assert "street" in invoke("score", str(path), "--no-color").stdout
    score = json.loads(invoke("score", str(path), "--json").stdout)
    assert set(score["money"]) == {"blue", "red"} and len(score["streets"]) == 11
    assert invoke("render", str(path), "--no-color").stdout.count("\n") >= 7
    assert invoke("render", str(path), "--move", "5", "-o", str(tmp_path / "g.svg")).exit_code == 0
    assert (tmp_path / "g.svg").read_text().startswith("<svg")
    n = len(load_henning(path).moves)
    early = invoke("solve-endgame", str(path), "--move", "4")
    assert_clean_failure(early)
    assert "still hidden" in early.stderr
    end = json.loads(invoke("solve-endgame", str(path), "--move", str(n - 2), "--open",
                            "--json").stdout)  # fmt: skip
    assert end["kind"] in ("exact", "exact-open") and end["best_moves"]


def test_broken_henning_record_is_refused(invoke: Invoke, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    invoke("new", "henning", "-o", str(path))
    doc = json.loads(path.read_text())
    doc["moves"] = ["pass"]
    path.write_text(json.dumps(doc))
    bad = invoke("validate", str(path))
    assert_clean_failure(bad)
    assert "moves[0]" in bad.stderr


def test_a_record_of_one_move_says_1_move(invoke: Invoke, tmp_path: Path) -> None:
    """#48: the list selfplay prints of its records, and validate, said "1 moves"."""
    full = tmp_path / "full.json"
    assert invoke("selfplay", "henning", "--seed", "3", "-o", str(full)).exit_code == 0
    n = len(load_henning(full).moves)
    one = tmp_path / "one.json"
    made = invoke("selfplay", "henning", "--seed", "3", "--stop-before-end", str(n - 1),
                  "-o", str(one))  # fmt: skip
    assert made.exit_code == 0, made.stderr
    assert "game 1: 1 move, not finished" in made.stderr
    said = invoke("validate", str(one)).stdout
    assert "game record, 1 move, all legal" in said
    assert f"game record, {n} moves, all legal" in invoke("validate", str(full)).stdout


def test_play_continues_a_city_blocks_ritchie_position(invoke: Invoke, tmp_path: Path) -> None:
    """#48: 'polytile moves --help' points at play, but play refused City Blocks (Ritchie)
    positions; it plays the moves as 'moves' writes them."""
    from polytile.formats import load
    from polytile.puzzles.cityblocks.rules import Move

    path = tmp_path / "city.json"
    assert invoke("new", "cityblocks", "--players", "2", "-o", str(path)).exit_code == 0
    first = json.loads(invoke("moves", str(path), "--json").stdout)["moves"][0]
    played = invoke("play", str(path), first, "--no-color")
    assert played.exit_code == 0, played.stderr
    board = load(path).board
    assert all(board[r][c] == "B" for r, c in Move.parse(first).cells)
    assert json.loads(invoke("moves", str(path), "--json").stdout)["to_move"] == "yellow"
    before = path.read_bytes()
    bad = invoke("play", str(path), first)  # blue's cells again, on yellow's turn
    assert_clean_failure(bad)
    assert "move 1 (" in bad.stderr and "nothing was written" in bad.stderr
    assert path.read_bytes() == before
