"""Every game of the protocol keeps the bounds it declares on random games."""

from __future__ import annotations

import numpy as np
import pytest

from polytile.puzzles.blokus.game import BlokusGame
from polytile.puzzles.cityblocks.game import CityBlocksGame
from polytile.puzzles.game import CHANCE, SIMULTANEOUS, Game, JointMove
from polytile.puzzles.gridblock.game import GridblockGame
from polytile.puzzles.henning.game import HenningGame
from polytile.puzzles.toys import DiceRace, HighCard, RockPaperScissors, TakeAway


@pytest.mark.parametrize(
    "game",
    [
        BlokusGame("duo"),
        BlokusGame("classic", "teams"),
        CityBlocksGame(3),
        HenningGame(),
        GridblockGame(3),
        GridblockGame(2, "sum", "split", instant_win=True),
        TakeAway(9),
        DiceRace(),
        RockPaperScissors(),
        HighCard(),
    ],
    ids=lambda g: f"{g.name}-{g.num_players}",
)
def test_random_games_stay_within_declared_length_and_returns(game: Game) -> None:
    lo, hi = game.utility_range()
    for seed in range(2):
        rng = np.random.default_rng(seed)
        s = game.new_initial_state(seed)
        moves = 0
        while not s.is_over():
            if s.to_move == CHANCE:
                outcomes = s.chance_outcomes()
                s.push(outcomes[int(rng.integers(len(outcomes)))][0])
            elif s.to_move == SIMULTANEOUS:
                parts = [s.legal_moves(p) for p in range(game.num_players)]
                s.push(JointMove(tuple(m[int(rng.integers(len(m)))] for m in parts)))
            else:
                legal = s.legal_moves()
                s.push(legal[int(rng.integers(len(legal)))])
            moves += 1
        assert moves <= game.max_game_length()
        assert all(lo <= r <= hi for r in s.returns())
