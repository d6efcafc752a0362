"""The walkable-path generator: unique optima proven, what counts as another answer, the
documents, the key, and the rules check of stored answers."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from polytile.errors import FormatError, PolytileError
from polytile.puzzles.walkable.board import DEAD, RED, UNCLAIMED, largest_regions, legal_drops
from polytile.puzzles.walkable.path import PathPuzzle
from polytile.puzzles.walkable.path_generate import (
    WalkablePathParams,
    answer_doc,
    canonical_drops,
    check_answer,
    make_walkable_path_candidate,
    parse_path_answer,
    parse_path_puzzle,
    path_key,
    prove_unique,
    puzzle_doc,
)

ONE = WalkablePathParams(min_pieces=1, max_pieces=1)


def _optimal_drops(puzzle: PathPuzzle) -> tuple[int, int]:
    """Brute force over every legal drop of a one-piece puzzle: (best sum, drops reaching
    it). Independent of the search."""
    cells = np.array(puzzle.cells, dtype=np.int8)
    sums = []
    for row in legal_drops(cells, puzzle.sequence[0]):
        cells[row] = RED
        sums.append(int(largest_regions(cells)[0].sum()))
        cells[row] = UNCLAIMED
    best = max(sums)
    return best, sums.count(best)


@pytest.mark.parametrize("index", range(6))
def test_one_piece_candidates_agree_with_brute_force(index: int) -> None:
    c = make_walkable_path_candidate(ONE, 0, index)
    best, ways = _optimal_drops(PathPuzzle.from_seed(_game(index), pieces=1))
    if c.accepted:
        assert ways == 1 and c.puzzle.target == best == c.solution.score
    else:
        assert c.reason == "several drop sequences reach the optimum" and ways > 1


def _game(index: int) -> int:
    from polytile.store.candidates import candidate_rng

    rng = candidate_rng(0, index, "walkable-path")
    rng.integers(1, 2)  # the piece count
    return int(rng.integers(1 << 62))


def test_candidates_are_deterministic_and_checked() -> None:
    a = make_walkable_path_candidate(ONE, 0, 3)
    b = make_walkable_path_candidate(ONE, 0, 3)
    assert a.accepted and a.key == b.key and a.difficulty == b.difficulty
    assert a.solution == b.solution and check_answer(a.puzzle, a.solution) == []
    assert a.stats["greedy_short"] == a.stats["score"] - a.stats["greedy"] >= 0


def _strip() -> PathPuzzle:
    """Boards 1 and 2: only a1-d1 open; board 3 all dead; no red yet. One I4."""
    cells = np.full(300, DEAD, dtype=np.int8)
    cells[[0, 1, 2, 3, 100, 101, 102, 103]] = UNCLAIMED
    return PathPuzzle(cells, ("I4",))


def test_another_board_assignment_is_another_answer() -> None:
    # a1,b1 to board 1 and c1,d1 to board 2, or the other way round: both sum to 4.
    p = _strip()
    assert prove_unique(p, [(0, 1, 102, 103)], 4)[0] == "several"


def test_a_single_legal_drop_is_unique() -> None:
    p = _strip()
    cells = np.array(p.cells)
    cells[[100, 101]] = DEAD  # board 2 keeps c1,d1 only: one drop left
    p = PathPuzzle(cells, ("I4",))
    assert prove_unique(p, [(0, 1, 102, 103)], 4)[0] == "unique"


def test_forbidding_a_drop_the_model_lacks_is_refused() -> None:
    from polytile.errors import BoardError
    from polytile.puzzles.walkable.path_model import build_path_model, forbid_drops

    v = build_path_model(_strip().cells, ["I4"])
    with pytest.raises(BoardError, match="not one of"):
        forbid_drops(v, [(0, 1, 2, 3)])  # four cells on one board: not a drop
    with pytest.raises(BoardError, match="1 pieces"):
        forbid_drops(v, [(0, 1, 102, 103), (0, 1, 102, 103)])


def test_identical_pieces_in_either_order_are_one_answer() -> None:
    p = PathPuzzle.from_seed(1, pieces=["O4", "O4"])
    rows = legal_drops(np.array(p.cells), "O4")
    first, last = tuple(int(g) for g in rows[0]), tuple(int(g) for g in rows[-1])
    assert canonical_drops(p, [last, first]) == canonical_drops(p, [first, last])
    assert canonical_drops(p, [last, first]) == [first, last]


def test_documents_read_back_and_errors_name_the_field() -> None:
    c = make_walkable_path_candidate(ONE, 0, 3)
    doc = json.loads(json.dumps(puzzle_doc(c.puzzle)))
    assert parse_path_puzzle(doc) == c.puzzle
    assert parse_path_answer(answer_doc(c.puzzle, c.solution), c.puzzle) == c.solution
    with pytest.raises(FormatError, match="boards"):
        parse_path_puzzle({**doc, "boards": [["." * 10] * 10] * 2})
    with pytest.raises(FormatError, match="sequence"):
        parse_path_puzzle({**doc, "sequence": ["X4"]})
    bad = {**answer_doc(c.puzzle, c.solution), "drops": ["pass"]}
    with pytest.raises(FormatError, match="no pass"):
        parse_path_answer(bad, c.puzzle)
    with pytest.raises(FormatError, match="drops"):
        parse_path_answer({**bad, "drops": ["O4 1:a1"]}, c.puzzle)


def test_check_answer_finds_tampering() -> None:
    c = make_walkable_path_candidate(ONE, 0, 3)
    wrong = dataclasses.replace(c.solution, regions=(1, 1, 1))
    assert any("regions" in p for p in check_answer(c.puzzle, wrong))
    higher = dataclasses.replace(c.puzzle, target=c.puzzle.target + 1)
    assert any("target" in p for p in check_answer(higher, c.solution))
    # a drop of the right piece whose cells are not all unclaimed
    from polytile.puzzles.walkable.board import drop_table

    name = c.puzzle.path.sequence[0]
    cells = np.asarray(c.puzzle.path.cells)
    row = next(r for r in drop_table(name) if (cells[r] != UNCLAIMED).any())
    illegal = dataclasses.replace(c.solution, drops=(tuple(int(g) for g in row),))
    assert any("not legal" in p for p in check_answer(c.puzzle, illegal))


def test_key_ignores_turning_flipping_and_board_order() -> None:
    p = PathPuzzle.from_seed(5, pieces=2)
    boards = np.asarray(p.cells).reshape(3, 10, 10)
    turned = np.stack([np.rot90(boards[2]), np.rot90(boards[0]), np.rot90(boards[1])])
    q = PathPuzzle(turned.ravel(), p.sequence)
    assert path_key(q) == path_key(p)
    assert path_key(PathPuzzle(p.cells, p.sequence[::-1])) != path_key(p) or (
        p.sequence[0] == p.sequence[1]
    )


def test_params_out_of_range() -> None:
    with pytest.raises(PolytileError, match="pieces"):
        WalkablePathParams(min_pieces=0)
    with pytest.raises(PolytileError, match="pieces"):
        WalkablePathParams(min_pieces=3, max_pieces=2)
