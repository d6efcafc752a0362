"""Walkable Cities under the game protocol: traits, the registry, move texts and indices,
random simultaneous play with exact undo."""

from __future__ import annotations

import numpy as np
import pytest

from polytile.puzzles.game import SIMULTANEOUS, TERMINAL, JointMove, load_game, require
from polytile.puzzles.walkable.rules import PASS


def test_registered_with_its_traits() -> None:
    g = load_game("walkable", dead=5, tiebreak="R")
    assert g.parameters == {"dead": 5, "pass_limit": 3, "tiebreak": "R"}
    assert not g.traits.sequential and g.traits.perfect_information and g.num_players == 2
    require(g, "a matrix-game solver", sequential=False, zero_sum=True, players=[2])
    with pytest.raises(ValueError):
        load_game("walkable", pass_limit=5)
    with pytest.raises(ValueError):
        load_game("walkable", dead=101)


def test_random_play_undoes_exactly_and_moves_round_trip() -> None:
    g = load_game("walkable")
    rng = np.random.default_rng(5)
    s = g.new_initial_state(seed=5)
    keys, n = [s.state_key()], 0
    while s.to_move == SIMULTANEOUS:
        parts = [s.legal_moves(p) for p in range(2)]
        move = JointMove(tuple(m[int(rng.integers(len(m)))] for m in parts))
        assert g.parse_move(str(move)) == move
        for m in move:
            assert g.move_at(g.move_index(m), s) == m
        s.push(move)
        keys.append(s.state_key())
        n += 1
    assert s.to_move == TERMINAL and s.legal_moves(0) == [] and n <= g.max_game_length()
    assert s.returns() in ((0.0, 0.0), (1.0, -1.0), (-1.0, 1.0))
    assert len(s.history) == n
    for k in reversed(keys[:-1]):
        s.pop()
        assert s.state_key() == k


def test_joint_moves_are_listed_only_when_few() -> None:
    s = load_game("walkable").new_initial_state(seed=1)
    assert len(s.legal_moves()) == 25
    s.push(JointMove(("I4", "O4")))
    assert s.legal_moves(0)[-1] == PASS
    with pytest.raises(ValueError, match="joint drops"):
        s.legal_moves()
    c = s.clone()
    c.push_legal(JointMove((PASS, PASS)))
    assert c.board.passes == (1, 1) and s.board.passes == (0, 0)


def test_plays_through_openspiel() -> None:
    pytest.importorskip("pyspiel")
    from polytile.interop.openspiel import to_pyspiel

    g = to_pyspiel(load_game("walkable"))
    s = g.new_initial_state()
    rng = np.random.default_rng(0)
    while not s.is_terminal():
        s.apply_actions([int(rng.choice(s.legal_actions(p))) for p in range(2)])
    assert sorted(s.returns()) in ([-1.0, 1.0], [0.0, 0.0])
