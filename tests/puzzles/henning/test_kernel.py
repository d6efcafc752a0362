"""The compiled City Blocks (Henning) search against the Python alpha-beta over the rules."""

from __future__ import annotations

import numpy as np
import pytest

from polytile.errors import IllegalMoveError, SolverError
from polytile.puzzles.henning import kernel
from polytile.puzzles.henning.endgame import MARGIN, _Hooks, solve_endgame
from polytile.puzzles.henning.game import HenningGame
from polytile.puzzles.henning.kernel import (
    KernelEncodingError,
    KernelStopped,
    kernel_move_values,
    kernel_value,
)
from polytile.puzzles.henning.moves import PASS, Move
from polytile.puzzles.henning.rules import Henning
from polytile.puzzles.henning.tiles import CH
from polytile.solvers.alphabeta import move_values


def late(seed: int, empty: int, reserve: int) -> Henning:
    """A random game at the first moment at most ``empty`` blocks are empty and each reserve
    holds 1 to ``reserve`` tiles (none when ``reserve`` is 0); the first seed from ``seed``
    on that reaches it."""
    least = min(reserve, 1)
    for s in range(seed, seed + 500):
        g = Henning.new(s)
        rng = np.random.default_rng(s)
        while not g.is_over():
            sizes = g.reserve_size(0), g.reserve_size(1)
            if g.empty <= empty and least <= min(sizes) and max(sizes) <= reserve:
                return g
            g.push_legal(g.random_move(rng))
    raise AssertionError("no such position")


def python_move_values(g: Henning, moves: list[Move]) -> list[int]:
    state = HenningGame(open=True).state_of(g.copy())
    values, _ = move_values(state, MARGIN, _Hooks(), moves)
    return [int(v) for v in values]


ROOT_CASES = [(10 * i, e, r) for i, (e, r) in enumerate(
    [(1, 0), (2, 0), (3, 0), (4, 0), (4, 0), (3, 0), (4, 1), (2, 1), (3, 1), (3, 2), (2, 2),
     (2, 2)])]  # fmt: skip
MOVE_CASES = [(7 + 10 * i, e, r) for i, (e, r) in enumerate(
    [(1, 0), (2, 0), (2, 0), (3, 0), (3, 1), (2, 1), (3, 2), (2, 2)])]  # fmt: skip


@pytest.mark.parametrize(("seed", "empty", "reserve"), ROOT_CASES)
def test_value_matches_python_solver(seed: int, empty: int, reserve: int) -> None:
    g = late(seed, empty, reserve)
    before = g.state_key()
    assert kernel_value(g) == solve_endgame(g, open_analysis=True).value
    assert g.state_key() == before


@pytest.mark.parametrize(("seed", "empty", "reserve"), MOVE_CASES)
def test_move_values_match_python(seed: int, empty: int, reserve: int) -> None:
    g = late(seed, empty, reserve)
    moves = g.legal_moves()
    values, nodes = kernel_move_values(g)
    assert values == python_move_values(g, moves) and nodes > 0
    best = max(values) if g.to_move == 0 else min(values)
    assert best == kernel_value(g)


def test_courthouse_swaps() -> None:
    g = late(11, 2, 0)
    assert CH in g.hands[g.to_move]
    moves = g.legal_moves()
    swaps = [m for m in moves if m.swap is not None]
    assert len(swaps) > 50
    values, _ = kernel_move_values(g, moves)
    assert values == python_move_values(g, moves)
    by_move = dict(zip(moves, values, strict=True))
    # some swap changes the value of its courthouse placement
    assert any(by_move[m] != by_move[Move(m.kind, m.block, m.redevelop, m.pay)] for m in swaps)


def test_mover_with_an_empty_hand_passes() -> None:
    g = late(3, 3, 0)
    while g.to_move != 1:
        g.push_legal(g.legal_moves()[0])
    g.hands[1] = []  # as if red had placed all its tiles (the engine does not recount)
    assert g.legal_moves() == [PASS] and not g.is_over()
    values, _ = kernel_move_values(g)
    assert values == python_move_values(g, [PASS])
    assert kernel_value(g) == solve_endgame(g, open_analysis=True).value


def test_game_over_and_illegal_moves() -> None:
    g = late(5, 1, 0)
    g.push_legal(g.legal_moves()[0])
    assert g.is_over() and kernel_value(g) == g.margin()
    g.pop()
    with pytest.raises(IllegalMoveError):
        kernel_move_values(g, [PASS])


def test_corrupted_line_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    g = late(20, 2, 0)
    monkeypatch.setattr(kernel, "decode_move", lambda game, code: game.legal_moves()[-1])
    with pytest.raises(SolverError):
        kernel_move_values(g)
    monkeypatch.undo()
    real = kernel._solve

    def off_by_one(*args: object) -> tuple[object, ...]:
        values, pvs, pv_len, nodes = real(*args)  # type: ignore[arg-type]
        return values + 1, pvs, pv_len, nodes

    monkeypatch.setattr(kernel, "_solve", off_by_one)
    with pytest.raises(SolverError, match="not at its value"):
        kernel_value(g)


def test_node_limit_and_bad_positions() -> None:
    g = late(30, 3, 1)
    with pytest.raises(KernelStopped, match="node limit"):
        kernel_move_values(g, node_limit=10)
    bad = g.copy()
    bad.empty_in[0] += 1
    with pytest.raises(KernelEncodingError):
        kernel_value(bad)
    with pytest.raises(KernelEncodingError):
        kernel.decode_move(g, -5)
