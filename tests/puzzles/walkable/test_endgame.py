"""Walkable Cities endgames by backward induction: against a brute force written only from
the rules engine's public moves (plain recursion, a full matrix and an LP at every node, no
shortcuts), the last round against phase.py's one-round value, refusal, stopping and the
checks on the answer."""

from __future__ import annotations

from typing import Any

import nashpy
import numpy as np
import pytest

from polytile.puzzles.walkable import endgame
from polytile.puzzles.walkable.board import BLUE, CELLS, DEAD, PIECES, RED, UNCLAIMED
from polytile.puzzles.walkable.endgame import (
    EndgameRefused,
    EndgameStopped,
    endgame_size,
    final_value,
    solve_endgame,
)
from polytile.puzzles.walkable.phase import solve_drop_phase, solve_round
from polytile.puzzles.walkable.rules import PASS, Drop, Options, Walkable
from polytile.solvers.matrix_game import solve_matrix


def near_full(seed: int, open_cells: int = 40) -> np.ndarray:
    """Every cell red, blue or dead at random but ``open_cells`` unclaimed ones."""
    rng = np.random.default_rng(seed)
    cells = rng.choice([DEAD, RED, BLUE], size=CELLS).astype(np.int8)
    cells[rng.choice(CELLS, size=open_cells, replace=False)] = UNCLAIMED
    return cells


def game(cells: np.ndarray, rotation: tuple[str, ...] = PIECES, passes: tuple[int, int] = (0, 0),
         options: Options | None = None) -> Walkable:  # fmt: skip
    g = Walkable(cells.copy(), options or Options())
    g.rotation, g.passes = rotation, passes
    return g


def brute_final(g: Walkable, objective: str) -> float:
    res = g.result()
    if objective == "outcome":
        return 0.0 if res.winner is None else (1.0 if res.winner == 0 else -1.0)
    margin = res.won[0] - res.won[1]
    if margin == 0 and res.by_tiebreak:
        return 0.5 if res.winner == 0 else -0.5
    return float(margin)


def brute(g: Walkable, objective: str = "margin", memo: dict | None = None) -> float:
    """The game's value by recursion over the engine's moves: every pick pair, every pair of
    actions (each legal drop and the pass), a full matrix game at each node."""
    memo = {} if memo is None else memo
    if g.is_over():
        return brute_final(g, objective)
    key = g.state_key()
    if key in memo:
        return memo[key]
    pairs: list[list[tuple[Any, Any]]]
    if g.phase == "select":
        pool = g.pick_choices()
        pairs = [[(r, b) for b in pool] for r in pool] if len(pool) > 1 else [[(pool[0],) * 2]]
    else:
        reds = [*g.legal_drops(0), PASS]
        blues = [*g.legal_drops(1), PASS]
        pairs = [[(r, b) for b in blues] for r in reds]
    table: list[list[float]] = []
    for row in pairs:
        table.append([])
        for r, b in row:
            if g.phase == "select":
                g.select(r, b)
            else:
                g.drop(r, b)
            table[-1].append(brute(g, objective, memo))
            g.pop()
    memo[key] = matrix_value(np.array(table))
    return memo[key]


def matrix_value(a: np.ndarray) -> float:
    """A matrix game's value: its saddle point when it has one, else the LP's."""
    low, high = a.min(axis=1).max(), a.max(axis=0).min()
    return float(low) if low == high else solve_matrix(a).value


def small_cases() -> list[tuple[np.ndarray, tuple[str, ...], tuple[int, int]]]:
    out = []
    for seed in range(40):
        cells = near_full(seed)
        size = endgame_size(Walkable(cells))
        if 1 <= sum(size.drops.values()) <= 7 and size.largest <= 3:
            rotation: tuple[str, ...] = (PIECES[seed % 5], PIECES[(seed + 2) % 5],
                                         PIECES[(seed + 3) % 5])  # fmt: skip
            out.append((cells, rotation, (1 + seed % 2, 1)))
        if len(out) == 5:
            break
    return out


@pytest.mark.parametrize("case", range(1, 5))
def test_matches_brute_force(case: int) -> None:
    cells, rotation, passes = small_cases()[case]
    g = game(cells, rotation, passes)
    sol = solve_endgame(g)
    assert sol.value == pytest.approx(brute(g.copy()), abs=1e-6)
    assert sol.gap <= 1e-6
    assert sol.line, "the best line plays to the end"
    after = g.copy()
    for rnd in sol.line:
        after.play_round(rnd)
    assert after.is_over()
    assert sol.line_value == final_value(after.cells)


def test_matches_brute_force_after_the_selection_with_options() -> None:
    cells, rotation, passes = small_cases()[1]
    for opts in (Options(pass_limit=4, tiebreak="R"), Options(tiebreak="B")):
        g = game(cells, rotation, passes, opts)
        pool = g.available()
        g.select(pool[0], pool[-1])
        for objective in ("margin", "outcome"):
            sol = solve_endgame(g, objective=objective)
            assert sol.phase == "drop" and len(sol.drop_games) == 1
            assert sol.value == pytest.approx(brute(g.copy(), objective), abs=1e-6)


def test_mixed_drop_node_against_nashpy() -> None:
    # a drop node whose equilibrium is mixed (both drop L4; collisions matter): its value is
    # the full matrix game over the engine's successor positions, each solved exactly
    g = game(near_full(11, 44), ("O4", "L4"), (2, 2))
    g.select("L4", "L4")
    sol = solve_endgame(g)
    (node,) = sol.drop_games
    assert len(node.red) > 1 and len(node.blue) > 1
    reds: list[Drop | str] = [*g.legal_drops(0), PASS]
    blues: list[Drop | str] = [*g.legal_drops(1), PASS]
    table = np.zeros((len(reds), len(blues)))
    for i, r in enumerate(reds):
        for j, b in enumerate(blues):
            child = g.copy()
            child.drop(r, b)
            table[i, j] = solve_endgame(child).value
    row, col = nashpy.Game(table).linear_program()
    assert sol.value == pytest.approx(float(row @ table @ col), abs=1e-6) == -2.5
    red = dict(node.red)
    x = np.array([red.get(a, 0.0) for a in reds])
    assert (x @ table).min() == pytest.approx(sol.value, abs=1e-6)  # blue gains nothing


def test_double_oracle_path_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    g = game(near_full(11, 44), ("O4", "L4"), (2, 2))
    g.select("L4", "L4")  # the mixed node above
    whole = solve_endgame(g).value
    monkeypatch.setattr(endgame, "FULL_MATRIX", 9)  # larger drop nodes by double oracle
    assert solve_endgame(g).value == pytest.approx(whole, abs=1e-6)


def last_round_cells() -> np.ndarray:
    """Seven open cells: after any drop no drop is left."""
    cells = near_full(7, open_cells=0)
    for g in (0, 1, 10, 102, 111, 203, 212):  # board 1 a1 b1 a2, board 2 c1 b2, board 3 d1 c2
        cells[g] = UNCLAIMED
    return cells


@pytest.mark.parametrize("case", range(1, 5))
def test_a_bounded_table_keeps_every_value(case: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A transposition table that drops its older half when full (a long search held 5 GB)
    solves again what it dropped: the same value and line, never more entries than it may
    hold."""
    cells, rotation, passes = small_cases()[case]
    g = game(cells, rotation, passes)
    whole = solve_endgame(g)
    held: list[int] = []
    keep = endgame._Solver._keep

    full: list[bool] = []

    def counted(self: Any, key: Any, value: float) -> float:
        full.append(len(self.values) >= endgame.TABLE_ENTRIES)
        out = keep(self, key, value)
        held.append(len(self.values))
        return out

    monkeypatch.setattr(endgame, "TABLE_ENTRIES", 4)
    monkeypatch.setattr(endgame._Solver, "_keep", counted)
    small = solve_endgame(g)
    assert small.value == pytest.approx(whole.value, abs=1e-9)
    assert small.line_value == whole.line_value
    assert sum(full) >= 2  # the table was full, and dropped its older half, more than once
    assert held and max(held) <= 4
    assert small.positions >= whole.positions


def test_last_round_equals_the_one_round_value() -> None:
    cells = last_round_cells()
    assert endgame_size(Walkable(cells)).largest >= 1
    rotation = ("I4", "O4", "L4")
    g = game(cells, rotation, (2, 2))  # either pass ends the game; both drops freeze it
    assert solve_endgame(g).value == pytest.approx(solve_round(cells, rotation).value, abs=1e-6)
    g.select("I4", "L4")
    exact = solve_endgame(g)
    assert exact.value == pytest.approx(solve_drop_phase(cells, "I4", "L4").value, abs=1e-6)


def test_refuses_large_positions() -> None:
    g = Walkable.new(seed=0)
    with pytest.raises(EndgameRefused, match="max_drops=8"):
        solve_endgame(g, max_drops=8)


def test_stops_at_the_time_limit_without_a_value() -> None:
    g = game(near_full(1, 36), ("I4", "L4", "Z4"), (1, 0))
    with pytest.raises(EndgameStopped) as stop:
        solve_endgame(g, time_limit=0.0)
    assert stop.value.reason == "time" and stop.value.positions >= 1


def test_ctrl_c_stops_without_a_value() -> None:
    def interrupt(positions: int, seconds: float) -> None:
        raise KeyboardInterrupt

    g = game(near_full(1, 36), ("I4", "L4", "Z4"), (1, 0))
    with pytest.raises(EndgameStopped, match="interrupt") as stop:
        solve_endgame(g, progress=interrupt)
    assert stop.value.reason == "interrupt"


def test_a_finished_game_is_its_final_value() -> None:
    cells = near_full(3)
    sol = solve_endgame(game(cells, passes=(3, 0)))
    assert sol.phase == "over" and sol.value == final_value(cells) and not sol.line


def test_final_value_tiebreak() -> None:
    cells = near_full(0, open_cells=0)
    cells[:] = DEAD
    assert final_value(cells) == 0.0
    assert final_value(cells, "R") == 0.5 and final_value(cells, "B") == -0.5
    assert final_value(cells, "B", "outcome") == -1.0
    cells[0] = RED
    assert final_value(cells, "B") == 1.0 and final_value(cells, "B", "outcome") == 1.0
    with pytest.raises(ValueError, match="objective"):
        final_value(cells, objective="score")
