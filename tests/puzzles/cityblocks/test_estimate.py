"""The playouts' estimate of a City Blocks (Ritchie) final score (issue 49)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from polytile.puzzles.cityblocks.estimate import estimate_score, playout_move
from polytile.puzzles.cityblocks.rules import CityBlocks, Move


def _mid(moves: int = 40, seed: int = 5) -> CityBlocks:
    rng = random.Random(seed)
    game = CityBlocks()
    for _ in range(moves):
        if game.is_game_over():
            break
        legal = game.legal_placements()
        game.push(rng.choice(legal) if legal else Move.pass_turn(game.to_move))
    return game


def _grows(game: CityBlocks, move: Move) -> bool:
    return any(game.color_at((r + dr, c + dc)) == move.color
               for r, c in move.cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
               if 0 <= r + dr < 20 and 0 <= c + dc < 20)  # fmt: skip


def test_a_playout_move_is_legal_and_grows_the_city_where_it_can() -> None:
    game = _mid()
    rng = np.random.default_rng(1)
    could = grew = 0
    for _ in range(12):
        move = playout_move(game, rng)
        assert game.is_legal(move)
        if not move.is_pass:
            size = max(len(m.cells) for m in game.legal_placements())
            assert len(move.cells) == size  # a biggest piece
            if any(_grows(game, m) for m in game.legal_placements() if len(m.cells) == size):
                could += 1
                grew += _grows(game, move)
        game.push(move)
    assert could >= 6 and grew >= could - 1  # 60 tries find one where any is to be had


def test_the_estimate_is_the_playouts_mean_kept_between_the_bounds() -> None:
    game = _mid()
    before = game.board_rows()
    free = estimate_score(game, "red", playouts=6, rng=np.random.default_rng(3))
    assert game.board_rows() == before  # not changed
    assert free.playouts == 6 and free.low <= free.mean <= free.high
    assert free.value == free.mean and not free.clipped and free.half_width > 0
    again = estimate_score(game, "red", playouts=6, rng=np.random.default_rng(3))
    assert again.mean == free.mean  # seeded
    high = estimate_score(game, "red", playouts=6, lower=free.high + 5,
                          rng=np.random.default_rng(3))  # fmt: skip
    assert high.clipped and high.value == free.high + 5 and high.mean == free.mean
    low = estimate_score(game, "red", playouts=6, upper=free.low - 5,
                         rng=np.random.default_rng(3))  # fmt: skip
    assert low.clipped and low.value == free.low - 5
    assert "lay outside the bounds, so the nearer bound is given" in low.note
    assert f"{free.mean:.1f}" in low.note and "6 playouts" in low.note


def test_a_finished_game_is_its_score() -> None:
    game = _mid(400, 2)
    assert game.is_game_over()
    e = estimate_score(game, "blue", playouts=3)
    assert e.mean == e.low == e.high == game.score().colors["blue"].total


def test_a_stop_keeps_the_playouts_finished_and_leaves_out_the_one_cut_short() -> None:
    """The time and a stop are heard at every move of a playout (a playout from the opening
    takes up to 0.4 s on a busy machine): one cut short is left out, and with none
    finished there is no estimate."""
    game = _mid()
    asked: list[int] = []

    def count() -> bool:
        asked.append(1)
        return False

    one = estimate_score(game, "blue", playouts=1, should_stop=count,
                         rng=np.random.default_rng(4))  # fmt: skip
    assert one is not None and one.playouts == 1 and one.half_width is None
    assert "one playout gives no interval" in one.note and "1 playout " in one.note
    first = len(asked)  # asked before the playout and at each of its moves
    assert first > 2

    def after_the_first() -> bool:
        asked.append(1)
        return len(asked) > 2 * first + 1

    asked.clear()
    asked.extend([1] * first)
    cut = estimate_score(game, "blue", playouts=50, should_stop=after_the_first,
                         rng=np.random.default_rng(4))  # fmt: skip
    assert cut is not None and cut.playouts == 1 and cut.mean == one.mean
    assert estimate_score(game, "blue", playouts=50, should_stop=lambda: True) is None
    assert estimate_score(game, "blue", seconds=0.0) is None
    with pytest.raises(ValueError, match="seconds or playouts"):
        estimate_score(game, "blue")


def test_the_interval_is_students() -> None:
    from polytile.puzzles.cityblocks.estimate import t95

    e = estimate_score(_mid(), "green", playouts=3, rng=np.random.default_rng(2))
    assert e is not None and e.half_width is not None
    scores = [e.low, round(3 * e.mean) - e.low - e.high, e.high]  # three playouts: all known
    want = 4.303 * np.std(scores, ddof=1) / np.sqrt(3)  # Student's t, 2 degrees of freedom
    assert e.half_width == pytest.approx(want) and e.half_width > 0
    assert t95(2) == 4.303 and t95(1000) == pytest.approx(1.9625)
