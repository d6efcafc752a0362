"""``polytile solve-endgame`` on Walkable Cities files: the exact answer by backward
induction on a near-full position, its JSON, the one-round fallback and its label, and bad
input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from polytile.puzzles.walkable.board import BLUE, CELLS, DEAD, RED, UNCLAIMED
from polytile.puzzles.walkable.files import dumps_position, dumps_record
from polytile.puzzles.walkable.report import ONE_ROUND
from polytile.puzzles.walkable.rules import Walkable

from .helpers import Invoke, assert_clean_failure


def near_full(tmp_path: Path, picks: tuple[str, str] | None = None) -> Path:
    """A position late in a game: every cell but 36 red, blue or dead (few drops left)."""
    rng = np.random.default_rng(1)
    cells = rng.choice([DEAD, RED, BLUE], size=CELLS).astype(np.int8)
    cells[rng.choice(CELLS, size=36, replace=False)] = UNCLAIMED
    cells = rng.choice([DEAD, RED, BLUE], size=CELLS).astype(np.int8)
    cells[rng.choice(CELLS, size=36, replace=False)] = UNCLAIMED
    g = Walkable(cells)
    g.rotation, g.passes, g.round = ("I4", "L4", "Z4"), (1, 0), 60
    if picks is not None:
        g.select(*picks)
    path = tmp_path / ("late.json" if picks is None else "late-drop.json")
    path.write_text(dumps_position(g))
    return path


def test_exact_answer(invoke: Invoke, tmp_path: Path) -> None:
    r = invoke("solve-endgame", str(near_full(tmp_path)))
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "Value (exact, backward induction to the end of the game): red +2" in out
    assert "Selection (mixed strategies):" in out
    assert "Drop phase after red I4, blue L4" in out
    assert "L4 1:b9,c9 3:a8,a9" in out  # a drop as the engine writes it
    assert "61. I4 pass | L4 1:b9,c9 3:a8,a9" in out
    assert ONE_ROUND not in out


def test_json_after_the_selection(invoke: Invoke, tmp_path: Path) -> None:
    r = invoke("solve-endgame", str(near_full(tmp_path, ("L4", "Z4"))), "--json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["game"] == "walkable" and doc["exact"] is True
    assert doc["kind"] == "backward-induction" and doc["phase"] == "drop"
    assert doc["value"] == 2.0 and doc["selection"] is None and doc["picks"] == ["L4", "Z4"]
    (phase,) = doc["drop_phases"]
    assert phase["picks"] == ["L4", "Z4"]
    assert abs(sum(a["p"] for a in phase["red"]) - 1) < 1e-9
    assert all(isinstance(a["action"], str) for a in phase["red"] + phase["blue"])
    assert doc["line"][0].startswith("L4 ") and doc["gap"] <= 1e-6
    assert set(doc["size"]) == {"drops", "largest", "open_cells", "drop_rounds_at_most"}


def test_one_round_fallback_is_labelled(invoke: Invoke, tmp_path: Path) -> None:
    late = str(near_full(tmp_path))
    r = invoke("solve-endgame", late, "--max-drops", "2")
    assert r.exit_code == 1
    assert "max_drops=2 (--max-drops)" in r.stderr
    assert f"Value, {ONE_ROUND}: red" in r.stdout and "NOT the game's value" in r.stdout
    r = invoke("solve-endgame", late, "--max-drops", "2", "--json")
    doc = json.loads(r.stdout)
    assert doc["exact"] is False and doc["kind"] == "one-round-horizon"
    assert doc["label"] == ONE_ROUND and doc["selection"]["red"]
    # its value is this round's payoff, and its lead says so, not the game's end
    assert "if the game ended after this round" in doc["lead"]
    assert "at the end" not in doc["lead"]


def test_record_with_move(invoke: Invoke, tmp_path: Path) -> None:
    g = Walkable.new(seed=0, dead=93)  # seven open cells a board
    g.play_round("I4 pass | O4 pass")
    path = tmp_path / "game.json"
    path.write_text(dumps_record(g, {"seed": 0, "dead": 93}))
    r = invoke("solve-endgame", str(path), "--move", "0", "--json")
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    # as in 'polytile score --json': rounds played; the line starts with next_round
    assert doc["round"] == 0 and doc["next_round"] == 1 and doc["exact"] is True


def test_bad_input(invoke: Invoke, tmp_path: Path) -> None:
    late = near_full(tmp_path)
    assert_clean_failure(invoke("solve-endgame", str(late), "--move", "3"))
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "polytile/walkable@1", "kind": "position"}')
    assert_clean_failure(invoke("solve-endgame", str(broken)))
    assert_clean_failure(invoke("solve-endgame", str(late), "--view"))
    assert_clean_failure(invoke("solve-endgame", str(late), "--player", "red"))
    over = Walkable.new(seed=0, dead=97)
    for pick in ("I4", "O4", "T4"):
        over.play_round(f"{pick} pass | {pick} pass")
    done = tmp_path / "over.json"
    done.write_text(dumps_record(over))
    r = invoke("solve-endgame", str(done))
    assert_clean_failure(r)
    assert "the game is over" in r.stderr
