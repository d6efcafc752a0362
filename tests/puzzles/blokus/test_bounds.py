"""Blokus endgame bounds: they contain the truth, and the territory is never entered."""

from __future__ import annotations

import numpy as np
import pytest

from polytile.puzzles.blokus.bounds import _as_mover, bounds, territory
from polytile.puzzles.blokus.rules import Blokus, Move


def random_game(variant: str, pieces: int, seed: int) -> Blokus:
    game = Blokus(variant)
    rng = np.random.default_rng(seed)
    placed = 0
    while placed < pieces and not game.is_game_over():
        moves = game.legal_moves()
        move = moves[int(rng.integers(len(moves)))]
        game.push(move)
        placed += move.piece is not None
    return game


def best_alone(game: Blokus, color: str, memo: dict[tuple[str, ...], int]) -> int:
    """Most squares ``color`` adds with the others passing: exhaustive search."""
    key = (*game.board_rows(), *game.hand(color))
    if key not in memo:
        best = 0
        for move in game.legal_placements(color):
            after = _as_mover(game, color)
            after.push(move)
            best = max(best, len(move.cells) + best_alone(after, color, memo))
        memo[key] = best
    return memo[key]


def late_duo(seed: int, color: str, limit: int = 12) -> Blokus:
    """A Duo position where ``color`` has few placements left."""
    game = Blokus("duo")
    rng = np.random.default_rng(seed)
    while not game.is_game_over():
        if game.to_move == color and 0 < game.count_legal_placements(color) <= limit:
            return game
        moves = game.legal_moves()
        game.push(moves[int(rng.integers(len(moves)))])
    return game


@pytest.mark.parametrize("seed", range(6))
def test_bounds_contain_brute_force(seed: int) -> None:
    color = ("blue", "yellow")[seed % 2]
    game = late_duo(seed, color)
    truth = best_alone(game, color, {})
    b = bounds(game, color, time_limit=20, workers=1)
    assert b.lower.value <= truth <= b.upper.value
    assert b.upper.proven and b.upper.value == truth
    assert b.score_lower <= b.score_upper


def replay(game: Blokus, color: str, moves: tuple[Move, ...]) -> None:
    g = _as_mover(game, color)
    for m in moves:
        g.push(m)
        g = _as_mover(g, color)


@pytest.mark.parametrize("seed", range(4))
def test_layouts_legal_and_ordered(seed: int) -> None:
    game = random_game("duo", 20, seed)
    for color in game.colors:
        b = bounds(game, color, time_limit=10, workers=1)
        replay(game, color, b.upper.placements)
        replay(game, color, b.lower.placements)
        assert sum(len(m.cells) for m in b.upper.placements) == b.upper.squares
        inside = all(c in b.territory for m in b.lower.placements for c in m.cells)
        next_move = color == game.to_move and len(b.lower.placements) == 1
        assert inside or next_move
        if color == game.to_move:  # its biggest placement now is guaranteed
            biggest = max((len(m.cells) for m in game.legal_placements(color)), default=0)
            assert b.lower.value >= biggest
        assert 0 <= b.lower.value <= b.upper.value <= b.hand_squares
        assert b.upper.squares <= b.upper.value
        assert b.score_now <= b.score_lower <= b.score_upper


@pytest.mark.parametrize("seed", range(5))
def test_random_continuations(seed: int) -> None:
    """The upper bound exceeds what a colour places in random play-outs, no other colour
    ever covers its territory, and its lower layout stays playable."""
    game = random_game("duo", 16 + seed, seed)
    found = {c: bounds(game, c, time_limit=10, workers=1) for c in game.colors}
    safe = {c: territory(game, c) for c in game.colors}
    before = {c: 0 for c in game.colors}
    for trial in range(6):
        g = game.copy()
        g.play_random(100 * seed + trial)
        for c in game.colors:
            placed = before[c] + sum(
                len(m.cells) for m in g.move_stack[len(game.move_stack) :] if m.color == c
            )
            assert placed <= found[c].upper.value, (c, placed)
            for r, col in safe[c]:
                owner = g.color_at((r, col))
                assert owner in (None, c), (c, (r, col), owner)


def test_lower_guarantee_in_enclosed_corner() -> None:
    """A late position with territory: the lower layout is placed even while the others
    play randomly (X follows its layout in order)."""
    checked = 0
    for seed in range(40):
        game = random_game("duo", 30, seed)
        for color in game.colors:
            b = bounds(game, color, time_limit=10, workers=1)
            if not b.lower.placements:
                continue
            checked += 1
            rng = np.random.default_rng(seed)
            g = game.copy()
            plan = list(b.lower.placements)
            while not g.is_game_over():
                if g.to_move == color and plan:
                    g.push(plan.pop(0))  # must stay legal whatever the others did
                    continue
                moves = g.legal_moves()
                g.push(moves[int(rng.integers(len(moves)))])
            assert not plan
        if checked >= 3:
            break
    assert checked >= 1


def test_empty_duo_and_finished_game() -> None:
    b = bounds(Blokus("duo"), "blue", time_limit=5, workers=1)
    assert (b.upper.value, b.lower.value) == (89, 5)  # blue moves now: one pentomino is sure
    assert b.score_upper == 20 and b.score_lower == -84
    assert bounds(Blokus("duo"), "yellow", time_limit=5, workers=1).lower.value == 0
    game = Blokus("duo")
    game.play_random(3)
    for color in game.colors:
        b = bounds(game, color, time_limit=5, workers=1)
        assert b.upper.value == b.lower.value == 0
        assert b.score_upper == b.score_lower == game.score().colors[color].total
    d = b.as_dict()
    for key in ("upper", "lower", "upper_proven", "lower_proven", "upper_placements",
                "lower_placements", "score_upper", "score_lower"):  # fmt: skip
        assert key in d
