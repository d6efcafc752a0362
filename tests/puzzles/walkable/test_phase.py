"""Walkable Cities drop phases: payoffs against a slow reference written from the rules, the
incremental best-response kernel against brute force over every drop, double-oracle
equilibria against nashpy and the full-matrix LP, and the round's selection game."""

from __future__ import annotations

import nashpy
import numpy as np
import pytest

from polytile.errors import BoardError, SolverError, UnknownNameError
from polytile.puzzles.walkable._phase_kernel import pair_margins, response_values
from polytile.puzzles.walkable.board import (
    BLUE,
    DEAD,
    PIECES,
    RED,
    UNCLAIMED,
    legal_drops,
    seeded_boards,
)
from polytile.puzzles.walkable.phase import (
    best_response,
    equilibrium_gap,
    payoff,
    resolve,
    solve_drop_phase,
    solve_round,
)
from polytile.solvers.matrix_game import solve_matrix

PASS = np.full((1, 4), -1, dtype=np.int16)


def filled(seed: int, frac: float) -> np.ndarray:
    """Seeded boards with a fraction of the open cells made red, blue or dead at random."""
    rng = np.random.default_rng(seed)
    cells = seeded_boards(seed)
    open_ = np.flatnonzero(cells == UNCLAIMED)
    pick = open_[rng.random(len(open_)) < frac]
    cells[pick] = rng.choice([DEAD, RED, BLUE], size=len(pick), p=[0.2, 0.4, 0.4])
    return cells


def reference_margin(cells: np.ndarray, red: tuple | None, blue: tuple | None) -> int:
    """Rules 3.3 and 6.1-6.2 read literally: boards as dicts of (row, col), regions by BFS."""
    boards = [{(r, c): int(cells[b * 100 + r * 10 + c]) for r in range(10) for c in range(10)}
              for b in range(3)]  # fmt: skip
    dropped: dict[tuple[int, int, int], set[str]] = {}
    who: str | set[str]
    for who, drop in (("R", red), ("B", blue)):
        for g in drop or ():
            dropped.setdefault((g // 100, g % 100 // 10, g % 10), set()).add(who)
    for (b, r, c), who in dropped.items():
        boards[b][(r, c)] = DEAD if len(who) == 2 else (RED if who == {"R"} else BLUE)
    margin = 0
    for board in boards:
        path = {}
        for colour in (RED, BLUE):
            seen: set[tuple[int, int]] = set()
            best = 0
            for start, state in board.items():
                if state != colour or start in seen:
                    continue
                seen.add(start)
                todo, size = [start], 0
                while todo:
                    r, c = todo.pop()
                    size += 1
                    for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                        if board.get(nb) == colour and nb not in seen:
                            seen.add(nb)
                            todo.append(nb)
                best = max(best, size)
            path[colour] = best
        margin += (path[RED] > path[BLUE]) - (path[RED] < path[BLUE])
    return margin


def as_action(row: np.ndarray) -> tuple[int, ...] | None:
    return None if row[0] < 0 else tuple(int(g) for g in row)


@pytest.mark.parametrize("seed", range(6))
def test_payoff_matches_the_rules(seed: int) -> None:
    rng = np.random.default_rng(seed)
    cells = filled(seed, 0.3 + 0.1 * (seed % 4))
    reds, blues = legal_drops(cells, PIECES[seed % 5]), legal_drops(cells, PIECES[(seed + 2) % 5])
    for _ in range(40):
        red = as_action(reds[rng.integers(len(reds))])
        if rng.random() < 0.5:  # force a collision: a blue drop sharing a cell with red's
            share = blues[np.isin(blues, red or ()).any(axis=1)]
            blue = as_action(share[rng.integers(len(share))]) if len(share) else None
        else:
            blue = as_action(blues[rng.integers(len(blues))])
        red = None if rng.random() < 0.1 else red
        assert payoff(cells, red, blue) == reference_margin(cells, red, blue)


def test_collision_makes_a_dead_cell() -> None:
    cells = np.zeros(300, dtype=np.int8)
    red, blue = (0, 1, 110, 120), (1, 2, 210, 211)  # both on board 0 cell 1
    after = resolve(cells, red, blue)
    assert after[1] == DEAD and after[0] == RED and after[2] == BLUE
    assert after[110] == after[120] == RED and after[210] == after[211] == BLUE
    # board 0: red 1 vs blue 1 tie; board 1: red 2 vs 0; board 2: blue 2 vs 0
    assert payoff(cells, red, blue) == reference_margin(cells, red, blue) == 0


@pytest.mark.parametrize("seed", range(8))
def test_best_response_kernel_equals_brute_force(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    cells = filled(seed, [0.0, 0.3, 0.5, 0.6][seed % 4])
    mine, theirs = PIECES[seed % 5], PIECES[(seed * 3 + 1) % 5]
    me = RED if seed % 2 == 0 else BLUE
    cands = np.ascontiguousarray(legal_drops(cells, mine))
    other = legal_drops(cells, theirs)
    k = int(rng.integers(1, 5))
    opps = np.ascontiguousarray(np.vstack([other[rng.choice(len(other), k)], PASS]))
    probs = rng.random(k + 1)
    probs /= probs.sum()
    got = response_values(cells, me, cands, opps, probs)
    everything = np.ascontiguousarray(np.vstack([cands, PASS]))
    if me == RED:
        full = pair_margins(cells, everything, opps)
    else:
        full = pair_margins(cells, opps, everything).T
    np.testing.assert_allclose(got, full @ probs, atol=1e-12)


def value_of(cells: np.ndarray, player: str, mine: tuple | None, theirs: tuple | None) -> int:
    return payoff(cells, mine, theirs) if player == "R" else payoff(cells, theirs, mine)


@pytest.mark.parametrize("seed", range(3))
def test_best_response_function(seed: int) -> None:
    cells = filled(seed, 0.6)
    other = legal_drops(cells, "T4")
    mix = [(as_action(other[0]), 0.5), (as_action(other[-1]), 0.25), (None, 0.25)]
    for player in ("R", "B"):
        action, value = best_response(cells, "L4", "T4", mix, player)
        rows = [r for r in legal_drops(cells, "L4")] + [PASS[0]]

        vals = [sum(p * value_of(cells, player, as_action(r), o) for o, p in mix) for r in rows]
        assert value == pytest.approx(max(vals) if player == "R" else min(vals))
        assert action == as_action(rows[int(np.argmax(vals) if player == "R" else np.argmin(vals))])
    single, _ = best_response(cells, "L4", "T4", as_action(other[0]), "B")
    assert single is None or single in {as_action(r) for r in legal_drops(cells, "L4")}
    with pytest.raises(BoardError):
        best_response(cells, "L4", "T4", (0, 1, 2, 3), "R")  # not a T4 drop
    with pytest.raises(UnknownNameError):
        best_response(cells, "X4", "T4", None, "R")


def full_matrix(cells: np.ndarray, red: str, blue: str) -> np.ndarray:
    reds = np.ascontiguousarray(np.vstack([legal_drops(cells, red), PASS]))
    blues = np.ascontiguousarray(np.vstack([legal_drops(cells, blue), PASS]))
    return pair_margins(cells, reds, blues).astype(float)


def exploitability(a: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    return float((a @ y).max() - (x @ a).min())


def mix_vector(mix: list, cells: np.ndarray, piece: str) -> np.ndarray:
    rows = [as_action(r) for r in legal_drops(cells, piece)] + [None]
    v = np.zeros(len(rows))
    for action, p in mix:
        v[rows.index(action)] += p
    return v


@pytest.mark.parametrize("seed", range(8))
def test_small_drop_games_against_nashpy(seed: int) -> None:
    cells = filled(seed, 0.78)
    red, blue = PIECES[seed % 5], PIECES[(seed + 3) % 5]
    a = full_matrix(cells, red, blue)
    x, y = nashpy.Game(a, -a).linear_program()
    reference = float(x @ a @ y)
    sol = solve_drop_phase(cells, red, blue)
    assert sol.value == pytest.approx(reference, abs=1e-6)
    assert sol.gap <= 1e-6
    # the double oracle's mixes are an equilibrium of the full matrix
    xr, yb = mix_vector(sol.red, cells, red), mix_vector(sol.blue, cells, blue)
    assert xr.sum() == pytest.approx(1) and yb.sum() == pytest.approx(1)
    assert exploitability(a, xr, yb) <= 1e-6
    assert xr @ a @ yb == pytest.approx(sol.value, abs=1e-6)
    assert equilibrium_gap(cells, red, blue, sol.red, sol.blue) <= 1e-6
    # and the check sees a deviation from a pair of mixes that is not an equilibrium
    both_pass = [(None, 1.0)]
    assert equilibrium_gap(cells, red, blue, both_pass, both_pass) == pytest.approx(
        exploitability(a, mix_vector(both_pass, cells, red), mix_vector(both_pass, cells, blue))
    )


@pytest.mark.parametrize("seed", range(4))
def test_double_oracle_value_equals_full_lp(seed: int) -> None:
    cells = filled(50 + seed, 0.62)  # a few hundred drops: the full matrix is still small
    red, blue = PIECES[(seed + 1) % 5], PIECES[(seed + 2) % 5]
    a = full_matrix(cells, red, blue)
    sol = solve_drop_phase(cells, red, blue)
    assert sol.value == pytest.approx(solve_matrix(a).value, abs=1e-6)
    assert sol.red_drops == a.shape[0] - 1 and sol.blue_drops == a.shape[1] - 1
    assert sol.red_strategies <= a.shape[0] and sol.blue_strategies <= a.shape[1]
    assert equilibrium_gap(cells, red, blue, sol.red, sol.blue) <= 1e-6


def test_no_legal_drop_means_pass() -> None:
    cells = np.full(300, DEAD, dtype=np.int8)
    cells[:3] = UNCLAIMED
    sol = solve_drop_phase(cells, "I4", "L4")
    assert sol.red == [(None, 1.0)] and sol.blue == [(None, 1.0)]
    assert sol.value == 0 and sol.red_drops == sol.blue_drops == 0


def test_round_selection_on_a_nearly_full_position() -> None:
    cells = filled(7, 0.75)
    pool = ("I4", "T4", "Z4")
    progress: list[tuple[int, int]] = []
    sol = solve_round(cells, pool, progress=lambda d, n, s: progress.append((d, n)))
    assert progress[-1] == (9, 9) and len(progress) == 9
    matrix = np.array([[solve_matrix(full_matrix(cells, r, b)).value for b in pool]
                       for r in pool])  # fmt: skip
    for i, r in enumerate(pool):
        for j, b in enumerate(pool):
            assert sol.values[(r, b)] == pytest.approx(matrix[i, j], abs=1e-6)
    x, y = nashpy.Game(matrix, -matrix).linear_program()
    assert sol.value == pytest.approx(float(x @ matrix @ y), abs=1e-6)
    assert sum(p for _, p in sol.red) == pytest.approx(1)
    assert sol.gap <= 1e-6


def test_round_with_one_piece_left_and_a_refill() -> None:
    cells = filled(3, 0.8)
    one = solve_round(cells, ["O4"])
    assert one.red == one.blue == [("O4", 1.0)]
    assert one.value == pytest.approx(solve_drop_phase(cells, "O4", "O4").value)
    assert len(solve_round(filled(3, 0.9), []).values) == 25  # empty: refilled with all five


def test_round_time_limit() -> None:
    with pytest.raises(SolverError, match="not solved within"):
        solve_round(filled(3, 0.5), ["I4", "O4"], time_limit=1e-9)
