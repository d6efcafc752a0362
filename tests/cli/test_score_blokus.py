"""``polytile score`` of Blokus records and positions: squares left, bonuses, totals, who
leads or won, checked against the rules engine's own score sheet."""

from __future__ import annotations

import json
import random
from pathlib import Path

from polytile.formats import save
from polytile.puzzles.blokus.rules import Blokus
from polytile.puzzles.blokus.sgf import read_blksgf

from .helpers import EXAMPLES, Invoke, assert_clean_failure

RECORD = EXAMPLES / "duo-endgame.blksgf"


def _random_game(variant: str, moves: int, seed: int) -> Blokus:
    rng = random.Random(seed)
    game = Blokus(variant)
    for _ in range(moves):
        game.push(rng.choice(game.legal_moves()))
    return game


def test_a_record_is_scored_at_its_last_position(invoke: Invoke) -> None:
    record = read_blksgf(RECORD)
    game = record.position()
    sheet = game.score()
    result = invoke("score", str(RECORD), "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["game"] == "blokus" and doc["variant"] == "duo"
    assert doc["players"] == sheet.player_totals
    assert {c: v["left"] for c, v in doc["colors"].items()} == {
        c: s.left for c, s in sheet.colors.items()
    }
    assert doc["over"] is game.is_game_over()
    text = invoke("score", str(RECORD), "--no-color").stdout
    assert "Blokus duo" in text and "colour" in text and "left" in text


def test_a_position_with_players_regrouped(invoke: Invoke, tmp_path: Path) -> None:
    game = _random_game("classic", 12, 5)
    path = tmp_path / "classic.json"
    save(game.to_position(), path)
    four = json.loads(invoke("score", str(path), "--json").stdout)
    assert four["over"] is False and four["to_move"] == game.to_move
    assert set(four["players"]) == {"blue", "yellow", "red", "green"}
    teams = invoke("score", str(path), "--json", "--players", "2")
    assert teams.exit_code == 0, teams.stderr
    doc = json.loads(teams.stdout)
    totals = {c: v["total"] for c, v in four["colors"].items()}
    assert doc["players"] == {
        "blue+red": totals["blue"] + totals["red"],
        "yellow+green": totals["yellow"] + totals["green"],
    }
    best = max(doc["players"].values())
    assert doc["leaders"] == [p for p, t in doc["players"].items() if t == best]
    text = invoke("score", str(path), "--no-color").stdout
    assert f"{game.to_move} to move" in text and ("leads" in text or "level" in text)


def test_players_that_do_not_fit_the_variant(invoke: Invoke) -> None:
    result = invoke("score", str(RECORD), "--players", "4")
    assert_clean_failure(result)
    assert "--players" in result.stderr and "duo" in result.stderr
