"""Blokus reach: every later placement lies inside it, it is empty exactly when no placement
is legal, and it is never larger than the flood-fill reach."""

from __future__ import annotations

import numpy as np
import pytest

from polytile.puzzles.blokus.bounds import reach
from polytile.puzzles.blokus.reach import reach_of
from polytile.puzzles.blokus.rules import Blokus


def random_record(variant: str, players: int | None, seed: int) -> list[Blokus]:
    """The positions of one random game, from the start to the end."""
    game = Blokus(variant, players)
    rng = np.random.default_rng(seed)
    seen = [game.copy()]
    while not game.is_game_over():
        moves = game.legal_moves()
        game.push(moves[int(rng.integers(len(moves)))])
        seen.append(game.copy())
    return seen


@pytest.mark.parametrize(("variant", "players", "seed"), [("duo", None, 0), ("duo", None, 1),
                                                          ("classic", 4, 2)])  # fmt: skip
def test_every_later_placement_is_inside_the_reach(variant: str, players: int | None,
                                                   seed: int) -> None:  # fmt: skip
    record = random_record(variant, players, seed)
    final = record[-1].move_stack
    step = 3 if variant == "duo" else 12
    for i in range(0, len(record) - 1, step):
        game = record[i]
        for color in game.colors:
            r = reach_of(game, color)
            later = [m for m in final[i:] if m.color == color and not m.is_pass]
            assert all(cell in r.cells for m in later for cell in m.cells)
            assert {m.piece for m in later} <= set(r.pieces)
            assert bool(r.cells) == (game.count_legal_placements(color) > 0)
            assert r.cells <= reach(game, color)
            assert sum(len(m.cells) for m in later) <= r.squares


def test_the_shapes_make_it_smaller_than_a_flood_fill() -> None:
    """Late in random games some empty cells next to a colour fit none of its pieces."""
    smaller = 0
    for seed in range(3):
        for game in random_record("duo", None, seed)[20::4]:
            for color in game.colors:
                smaller += reach_of(game, color).cells < reach(game, color)
    assert smaller > 0


def test_start_position_reaches_everything() -> None:
    game = Blokus("duo")
    r = reach_of(game, "blue")
    assert len(r.pieces) == 21 and len(r.cells) == 196
    assert reach_of(game, "yellow").cells == r.cells
