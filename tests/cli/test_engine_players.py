"""``selfplay`` with engine players and ``play --reply``: the engine's move checked,
labelled and written; refusals that keep the file."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from polytile.puzzles.blokus.players import greedy, take_back
from polytile.puzzles.blokus.rules import Blokus

from .helpers import Invoke, assert_clean_failure


def _greedy_duo(seed: int) -> Blokus:
    g = Blokus("duo")
    rng = np.random.default_rng(seed)
    while moves := g.legal_moves():
        g.push(moves[0] if moves[0].is_pass else greedy(g, moves, rng))
    take_back(g, 0)
    return g


@pytest.mark.parametrize(
    ("game", "flag"),
    [("henning", "--red"), ("gridblock", "--blue"), ("walkable", "--blue"), ("blokus", "--yellow")],
)
def test_selfplay_with_an_engine(invoke: Invoke, tmp_path: Path, game: str, flag: str) -> None:
    out = tmp_path / ("game.blksgf" if game == "blokus" else "game.json")
    extra = ["--variant", "duo", "--stop-before-end", "0"] if game == "blokus" else []
    r = invoke("selfplay", game, flag, "engine", "--move-time", "0.05", *extra, "-o", str(out))
    assert r.exit_code == 0, r.stderr
    text = out.read_text()
    if game == "blokus":
        assert "yellow engine (0.05 s a move)" in text
    else:
        doc = json.loads(text)
        assert doc["move_time"] == 0.05 and "engine" in doc["players"].values()
    assert invoke("validate", str(out)).exit_code == 0


def test_selfplay_refuses_an_unknown_player(invoke: Invoke, tmp_path: Path) -> None:
    r = invoke("selfplay", "henning", "--blue", "strong", "-o", str(tmp_path / "g.json"))
    assert_clean_failure(r)
    assert "engine" in r.stderr


def test_play_reply_answers_and_checks(invoke: Invoke, tmp_path: Path) -> None:
    rec = tmp_path / "h.json"
    invoke("new", "henning", "--seed", "3", "-o", str(rec))
    r = invoke("play", str(rec), "--reply", "--move-time", "0.1", "--no-color")
    assert r.exit_code == 0, r.stderr
    line = r.stdout.strip().splitlines()[-1]
    assert line.startswith("engine (blue) plays ") and "estimate (Monte Carlo" in line
    played = json.loads(rec.read_text())["moves"]
    assert len(played) == 1 and line.split(" plays ")[1].startswith(played[0] + ":")
    duo = tmp_path / "duo.json"
    invoke("new", "blokus", "--variant", "duo", "-o", str(duo))
    r = invoke("play", str(duo), "e10 e9 f9", "--reply", "--move-time", "0.1", "--no-color")
    assert r.exit_code == 0, r.stderr
    assert "engine (yellow) plays yellow " in r.stdout
    grid = tmp_path / "g.json"
    invoke("new", "gridblock", "--seed", "2", "--players", "2", "-o", str(grid))
    r = invoke("play", str(grid), "--reply", "--no-color")
    assert r.exit_code == 0 and "plays setup " in r.stdout
    # the set-up by tree search to the end of the game (greedy, said so, if the machine is
    # too busy to try each placement once in the move's time)
    assert "estimate to the end of the game (Monte Carlo" in r.stdout or (
        "greedy (the tree search ran only" in r.stdout)  # fmt: skip


def test_play_reply_plays_a_walkable_round_or_a_part(invoke: Invoke, tmp_path: Path) -> None:
    walk = tmp_path / "w.json"
    invoke("new", "walkable", "--seed", "4", "-o", str(walk))
    r = invoke("play", str(walk), "--reply", "--move-time", "0.3", "--no-color")
    assert r.exit_code == 0, r.stderr
    line = r.stdout.strip().splitlines()[-1]
    assert line.startswith("engine (red and blue) plays ") and "|" in line
    assert len(json.loads(walk.read_text())["rounds"]) == 1
    # Red's part given, blue's left to the engine: red's is played as written.
    piece = json.loads(invoke("moves", str(walk), "--json").stdout)["moves"][0].split()[0]
    r = invoke("play", str(walk), f"{piece} pass |", "--reply", "--move-time", "0.3",
               "--no-color")  # fmt: skip
    assert r.exit_code == 0, r.stderr
    line = r.stdout.strip().splitlines()[-1]
    assert line.startswith("engine (blue) plays ") and "without seeing red's part" in line
    rounds = json.loads(walk.read_text())["rounds"]
    assert len(rounds) == 2 and rounds[1].split("|")[0].strip() == f"{piece} pass"
    # A part the rules refuse: nothing is written.
    before = walk.read_bytes()
    r = invoke("play", str(walk), "| Q9 pass", "--reply", "--move-time", "0.3")
    assert_clean_failure(r)
    assert "nothing was written" in r.stderr and walk.read_bytes() == before


def test_play_reply_refusals_keep_the_file(invoke: Invoke, tmp_path: Path) -> None:
    walk = tmp_path / "w.json"
    invoke("new", "walkable", "-o", str(walk))
    before = walk.read_bytes()
    r = invoke("play", str(walk))
    assert_clean_failure(r)
    assert "--reply" in r.stderr
    done = tmp_path / "done.blksgf"
    done.write_text(_record(_greedy_duo(1)))
    before = done.read_bytes()
    r = invoke("play", str(done), "--reply")
    assert_clean_failure(r)
    assert "game is over" in r.stderr and done.read_bytes() == before


def _record(g: Blokus) -> str:
    from polytile.puzzles.blokus.sgf import write_blksgf

    return write_blksgf(g)
