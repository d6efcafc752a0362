"""The Walkable Cities largest-path puzzle: the CP-SAT model and the branch and bound against
exhaustive enumeration of one and two pieces, the caps as bounds, the independent replay, the
selection argument."""

from __future__ import annotations

import numpy as np
import pytest

from polytile.errors import IllegalMoveError
from polytile.puzzles.walkable.board import (
    BLUE,
    CELLS,
    DEAD,
    RED,
    UNCLAIMED,
    largest_regions,
    legal_drops,
    seeded_boards,
)
from polytile.puzzles.walkable.path import PathPuzzle, greedy_drops, replay, solve_path
from polytile.puzzles.walkable.path_model import (
    PathVars,
    build_path_model,
    caps_bound,
    region_caps,
    useful_drops,
)
from polytile.solvers.cpsat import solve


def brute_force(puzzle: PathPuzzle) -> tuple[int, list[list[int]]]:
    """The best objective over every pass-or-legal-drop per piece, played in order, and
    every outcome's regions per board with its new cells per board (for the caps)."""
    best = -1
    seen: list[list[int]] = []

    def rec(i: int, cells: np.ndarray, per_board: list[int]) -> None:
        nonlocal best
        if i == len(puzzle.sequence):
            regions = largest_regions(cells)[0]
            if puzzle.targets is None:
                score = int(regions.sum())
            else:
                score = sum(int(r >= t) for r, t in zip(regions, puzzle.targets, strict=True))
            best = max(best, score)
            seen.append([*map(int, regions), *per_board])
            return
        rec(i + 1, cells, per_board)  # pass
        for row in legal_drops(cells, puzzle.sequence[i]):
            cells[row] = RED
            counts = [per_board[b] + int((row // 100 == b).sum()) for b in range(3)]
            rec(i + 1, cells, counts)
            cells[row] = UNCLAIMED

    rec(0, np.array(puzzle.cells), [0, 0, 0])
    return best, seen


def crowded(seed: int, dead: int = 62, red: int = 10, blue: int = 8) -> np.ndarray:
    """Seeded boards so full that two pieces have a few hundred drops each."""
    rng = np.random.default_rng(seed)
    cells = seeded_boards(seed, dead).copy()
    free = np.flatnonzero(cells == UNCLAIMED)
    pick = rng.choice(free, size=red + blue, replace=False)
    cells[pick[:red]] = RED
    cells[pick[red:]] = BLUE
    return cells


def joining() -> np.ndarray:
    """Board 1 holds two red regions of 3 with a two-cell gap, (0,3) and (0,4): a domino
    there makes 8, more than the old largest region plus the new cells (3 + 2)."""
    cells = np.full(CELLS, DEAD, dtype=np.int8)
    cells[[0, 1, 2, 5, 6, 7]] = RED
    cells[[3, 4, 13, 14]] = UNCLAIMED  # board 1: the gap and the cells below it
    cells[[103, 104, 113, 114, 203, 204, 213, 214]] = UNCLAIMED
    cells[[105, 205]] = RED
    return cells


def check_against_brute_force(puzzle: PathPuzzle) -> int:
    best, seen = brute_force(puzzle)
    methods = ["cpsat"] if puzzle.targets is not None else ["cpsat", "search"]
    for method in methods:  # the CP-SAT model and the branch and bound, each on its own
        result = solve_path(puzzle, time_limit=60, workers=1, method=method)
        assert result.status == "optimal"
        assert result.objective == best
        assert list(replay(puzzle, result.drops)) == list(result.regions)
    if puzzle.targets is None:
        # the caps bound every outcome, board by board
        caps = region_caps(PathVars(puzzle.cells, puzzle.sequence))
        for row in seen:
            for b in range(3):
                assert row[b] <= caps[b][row[3 + b]]
    return best


def test_new_cells_join_regions() -> None:
    puzzle = PathPuzzle(joining(), ("O4",))
    before = puzzle.base_regions()
    best = check_against_brute_force(puzzle)
    # the O4 puts (0,3) (0,4) on board 1 (3 + 2 + 3) and (1,3) (1,4) on another board,
    # where they stay apart from its red (0,5): a region of 2 beside the other board's 1
    assert before == [3, 1, 1]
    assert best == 8 + 2 + 1
    assert best > sum(before) + 4  # "old largest + new cells" is no bound


@pytest.mark.parametrize("seed", range(4))
def test_one_piece_matches_enumeration(seed: int) -> None:
    for name in ("I4", "T4"):
        check_against_brute_force(PathPuzzle(crowded(seed, dead=55), (name,)))


@pytest.mark.parametrize(("seed", "sequence"), [(0, ("O4", "I4")), (1, ("T4", "Z4")),
                                                (2, ("L4", "O4")), (3, ("O4", "O4"))])  # fmt: skip
def test_two_pieces_match_enumeration(seed: int, sequence: tuple[str, str]) -> None:
    check_against_brute_force(PathPuzzle(crowded(seed), sequence))


def test_two_pieces_join_across_a_gap() -> None:
    cells = joining()
    cells[[8, 9, 15, 16, 17]] = [UNCLAIMED, RED, UNCLAIMED, UNCLAIMED, UNCLAIMED]
    check_against_brute_force(PathPuzzle(cells, ("I4", "O4")))


def test_targets_match_enumeration() -> None:
    puzzle = PathPuzzle(crowded(5), ("Z4", "I4"), targets=(4, 4, 4))
    check_against_brute_force(puzzle)


def test_selection_argument() -> None:
    """Disjoint drops, each legal in the start, are legal in every order: same regions."""
    puzzle = PathPuzzle.from_seed(4, pieces=3)
    drops = greedy_drops(puzzle)
    assert all(d is not None for d in drops)
    expected = list(replay(puzzle, drops))
    for order in ((2, 0, 1), (1, 2, 0)):
        permuted = PathPuzzle(puzzle.cells, tuple(puzzle.sequence[i] for i in order))
        assert list(replay(permuted, [drops[i] for i in order])) == expected


def test_replay_refuses_illegal_drops() -> None:
    puzzle = PathPuzzle(joining(), ("O4", "O4"))
    drop = (3, 4, 113, 114)
    with pytest.raises(IllegalMoveError, match="claimed"):
        replay(puzzle, [drop, drop])
    with pytest.raises(IllegalMoveError, match="not a drop"):
        replay(puzzle, [(3, 4, 13, 14), None])  # one board: not a legal split
    with pytest.raises(IllegalMoveError, match="drops for"):
        replay(puzzle, [drop])
    with pytest.raises(IllegalMoveError, match="claimed"):
        replay(PathPuzzle(joining(), ("I4",)), [(0, 1, 102, 103)])


def test_replay_refuses_a_drop_after_three_passes() -> None:
    puzzle = PathPuzzle(joining(), ("O4",) * 4)
    with pytest.raises(IllegalMoveError, match="game over"):
        replay(puzzle, [None, None, None, (3, 4, 113, 114)])


def test_pruned_model_keeps_the_optimum() -> None:
    puzzle = PathPuzzle(crowded(2), ("L4", "O4"))
    best, _ = brute_force(puzzle)
    v = build_path_model(puzzle.cells, puzzle.sequence, at_least=best)
    r = solve(v.runner(), workers=1, time_limit=60)
    assert r.status == "optimal" and r.objective == best
    v = build_path_model(puzzle.cells, puzzle.sequence, at_least=best + 1)
    assert solve(v.runner(), workers=1, time_limit=60).status == "infeasible"
    full = PathVars(puzzle.cells, puzzle.sequence)
    kept = useful_drops(full, best + 1)
    assert sum(int(k.sum()) for k in kept) < sum(len(t) for t in full.drops)


def test_caps_bound_is_a_bound() -> None:
    puzzle = PathPuzzle(crowded(1), ("T4", "Z4"))
    best, _ = brute_force(puzzle)
    v = PathVars(puzzle.cells, puzzle.sequence)
    assert caps_bound(v, region_caps(v)) >= best


def test_unproven_result_is_labelled() -> None:
    puzzle = PathPuzzle.from_seed(0, pieces=4)
    result = solve_path(puzzle, time_limit=0.5, workers=1)
    assert result.objective is not None and result.bound is not None
    assert result.objective <= result.bound
    assert result.status in ("optimal", "feasible")
    if not result.proven:
        assert result.stopped_by == "time"
    assert list(replay(puzzle, result.drops)) == list(result.regions)


@pytest.mark.parametrize("seed", range(3))
def test_seeded_puzzles(seed: int) -> None:
    p = PathPuzzle.from_seed(seed, pieces=5, opponent_cells=10, own_cells=7)
    cells = np.array(p.cells)
    assert (cells == BLUE).sum() == 10 and (cells == RED).sum() == 7
    assert len(set(p.sequence)) == 5  # one turn of the rotation
    assert PathPuzzle.from_seed(seed, pieces=5, opponent_cells=10, own_cells=7).sequence == (
        p.sequence
    )


def test_bad_puzzles() -> None:
    with pytest.raises(ValueError, match="pieces"):
        PathPuzzle(joining(), ("X4",))
    with pytest.raises(ValueError, match="targets"):
        PathPuzzle(joining(), ("I4",), targets=(1, 2))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="300"):
        PathPuzzle(np.zeros(10, dtype=np.int8), ("I4",))


def test_every_split_count_appears() -> None:
    v = PathVars(np.zeros(CELLS, dtype=np.int8), ("T4", "O4"))
    for drops in v.drops:
        counts = {tuple(int((row // 100 == b).sum()) for b in range(3)) for row in drops}
        assert all(sorted(c) in ([0, 2, 2], [1, 1, 2]) for c in counts)


def test_an_illegal_drop_names_its_cells_as_the_rules_write_them() -> None:
    """Board and cell (``1:d1``), never the internal index (issue 36, item 7)."""
    puzzle = PathPuzzle(joining(), ("O4", "O4"))
    drop = (3, 4, 113, 114)  # board 1 d1 e1, board 2 d2 e2
    with pytest.raises(IllegalMoveError) as claimed:
        replay(puzzle, [drop, drop])
    assert str(claimed.value) == ("O4 drops on claimed cells 1:d1, 1:e1, 2:d2, 2:e2, not "
                                  "unclaimed ones")  # fmt: skip
    cells = joining()  # dead cells are not called claimed
    cells[[113, 114]] = DEAD  # board 2 d2 e2
    with pytest.raises(IllegalMoveError) as dead:
        replay(PathPuzzle(cells, ("O4",)), [drop])
    assert str(dead.value) == "O4 drops on dead cells 2:d2, 2:e2, not unclaimed ones"
    with pytest.raises(IllegalMoveError) as shape:
        replay(puzzle, [(3, 4, 13, 14), None])
    assert str(shape.value) == "1:d1, 1:e1, 1:d2, 1:e2 is not a drop of O4"
