"""polytile games through OpenSpiel: its own random-simulation checks, and its MCTS bot
playing a whole legal game. Skipped when the optional extra (open_spiel) is absent."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from polytile.interop.openspiel import to_pyspiel  # noqa: E402
from polytile.puzzles.blokus.game import BlokusGame  # noqa: E402
from polytile.puzzles.cityblocks.game import CityBlocksGame  # noqa: E402
from polytile.puzzles.game import Game  # noqa: E402
from polytile.puzzles.gridblock.game import GridblockGame  # noqa: E402
from polytile.puzzles.henning.game import HenningGame  # noqa: E402
from polytile.puzzles.toys import DiceRace, HighCard, RockPaperScissors, TakeAway  # noqa: E402
from polytile.puzzles.walkable.game import WalkableGame  # noqa: E402


@pytest.mark.parametrize(
    "game",
    [
        BlokusGame("duo"),
        CityBlocksGame(2),
        HenningGame(),
        GridblockGame(2),
        WalkableGame(),
        TakeAway(7),
        DiceRace(),
        RockPaperScissors(),
        HighCard(),
    ],
    ids=lambda g: g.name,
)
def test_openspiel_random_simulation_checks(game: Game) -> None:
    sims = 1 if game.name in ("cityblocks", "henning", "gridblock", "walkable") else 3
    pyspiel.random_sim_test(to_pyspiel(game), num_sims=sims, serialize=False, verbose=False)


def test_traits_become_game_type() -> None:
    gt = to_pyspiel(HighCard()).get_type()
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert to_pyspiel(RockPaperScissors()).get_type().dynamics == (
        pyspiel.GameType.Dynamics.SIMULTANEOUS
    )


def test_information_states_hide_the_other_card() -> None:
    s = to_pyspiel(HighCard()).new_initial_state()
    s.apply_action(s.chance_outcomes()[0][0])
    mine, theirs = s.information_state_string(0), s.information_state_string(1)
    assert "holds 1" in mine and "holds 2" in theirs and mine != theirs


def test_mcts_plays_a_whole_legal_game_of_blokus_duo() -> None:
    from open_spiel.python.algorithms import mcts

    inner = BlokusGame("duo")
    game = to_pyspiel(inner)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=evaluator,
                       random_state=rng, solve=False)  # fmt: skip
    state = game.new_initial_state()
    ours = inner.new_initial_state()
    while not state.is_terminal():
        action = bot.step(state)
        move = inner.move_at(action, ours)
        assert move in ours.legal_moves()
        ours.push(move)
        state.apply_action(action)
    assert ours.is_over()
    assert list(state.returns()) == list(ours.returns())


def test_action_coding_round_trips() -> None:
    inner = BlokusGame("duo")
    s = inner.new_initial_state()
    for _ in range(6):
        for m in s.legal_moves():
            assert inner.move_at(inner.move_index(m), s) == m
        s.push(s.legal_moves()[-1])


@pytest.mark.parametrize("game", [HenningGame(), GridblockGame(4), GridblockGame(2)],
                         ids=["henning", "gridblock-4", "gridblock-2"])
def test_every_game_codes_its_moves_both_ways(game: Game) -> None:
    """#49: City Blocks (Henning) and Gridblock code their moves too (the adapter played 3
    of 5 games): every legal move of a random game's positions, to its index and back."""
    rng = np.random.default_rng(4)
    s = game.new_initial_state(4)
    seen = set()
    while not s.is_over() and len(seen) < 3000:
        moves = s.legal_moves()
        for m in moves:
            i = game.move_index(m)
            assert 0 <= i < game.num_distinct_moves()
            assert game.move_at(i, s) == m, m
            seen.add(i)
        s.push(moves[int(rng.integers(len(moves)))])
    assert len(seen) > 50
