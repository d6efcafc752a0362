"""``polytile analyse`` on Gridblock records: every move valued, the set-up's included, the
moves the exact reviews leave estimated to the end of the game and marked so. The
estimates' playouts are few and counted (never timed); the time limit is never reached."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from polytile.puzzles.gridblock import estimate_report
from polytile.puzzles.gridblock.files import dumps_record
from polytile.puzzles.gridblock.rules import Gridblock, Options

from .helpers import Invoke


@pytest.fixture(autouse=True)
def few_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(estimate_report, "ANALYSE_PLAYOUTS", 12)


def _record(tmp_path: Path, options: Options, turns: int) -> Path:
    g = Gridblock.new(seed=3, options=options)
    rng = np.random.default_rng(3)
    for _ in range(turns):
        moves = g.legal_moves()
        g.push_legal(moves[int(rng.integers(len(moves)))])
    path = tmp_path / "game.json"
    path.write_text(dumps_record(g))
    return path


def test_the_set_up_moves_are_valued(invoke: Invoke, tmp_path: Path) -> None:
    """A record of the set-up and two turns: every move estimated (the set-up was left
    out: nothing there is exact), each with what it rests on."""
    path = _record(tmp_path, Options(players=2), 4 + 2)
    result = invoke("analyse", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert [m["number"] for m in doc["moves"]] == list(range(1, 7)) and doc["complete"]
    assert doc["not_settled"] == []
    for m in doc["moves"]:
        assert m["kind"] == "estimate", m
        assert m["note"].startswith(
            "Monte Carlo tree search from the mover's view to the end "
            "of the game, the hidden hands and deals drawn at random"
        )
        assert m["note"].endswith(" playouts")
    assert all(m["move"].startswith("setup ") for m in doc["moves"][:4])
    assert all(m["best_move"].startswith("setup ") for m in doc["moves"][:4])
    assert "estimates (~) to the end of the game" in doc["lead"]
    first = doc["moves"][0]  # blue+red's lead, blue to move: the loss is before - after
    assert first["loss"] == pytest.approx(first["value_before"] - first["value_after"], abs=1e-3)
    second = doc["moves"][1]  # yellow: the lead is the other side's
    assert second["loss"] == pytest.approx(second["value_after"] - second["value_before"],
                                           abs=1e-3)  # fmt: skip
    text = invoke("analyse", str(path)).stdout
    assert "6 of 6 moves analysed" in text
    assert "~ an estimate (Monte Carlo tree search from the mover's view to the end of the " \
           "game, the hidden hands and deals drawn at random, greedy play after the tree), " \
           "not an exact value" in text  # fmt: skip


def test_three_players_say_what_the_estimates_are(invoke: Invoke, tmp_path: Path) -> None:
    path = _record(tmp_path, Options(players=3), 3 + 1)
    doc = json.loads(invoke("analyse", str(path), "--json").stdout)
    assert len(doc["moves"]) == 4
    for m in doc["moves"]:
        assert "(values: the mover's points minus the best other colour's)" in m["note"]
        assert m["loss"] == pytest.approx(m["value_before"] - m["value_after"], abs=1e-3)
