"""Puzzle generation: determinism, uniqueness checked by an independent engine, keys, rating."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polytile.board import Board
from polytile.errors import PolytileError, UnknownNameError
from polytile.geometry import piece
from polytile.models.exact_cover import tiling_problem
from polytile.puzzles.tiling.generate import (
    MIN_FILL,
    PackingParams,
    _enclosed,
    _puzzle,
    puzzle_key,
    rate,
    region_quality,
)
from polytile.puzzles.tiling.puzzle_file import parse_puzzle, puzzle_doc
from polytile.puzzles.tiling.puzzles import TilingPuzzle, check_solution
from polytile.solvers.xcc import count, solve
from polytile.store.generate import make_candidate, parse_params

SMALL = PackingParams(min_pieces=6, max_pieces=8)


def classes_by_xcc(puzzle: TilingPuzzle) -> int:
    """Inequivalent solutions, found by Algorithm C (not the kernel the generator uses) and
    told apart by mapping each through every symmetry of the board and givens by hand."""
    layout = puzzle.layout
    given = {(g.piece, frozenset(g.cells)) for g in puzzle.given}
    group = []
    for k in range(8):
        cells = [(r, c) for r in range(layout.rows) for c in range(layout.cols)]
        image = {cell: layout.map_cell(k, *cell) for cell in cells}
        if set(image.values()) != set(cells):
            continue  # swaps rows and columns of a non-square board
        if {image[c] for c in layout.blocked} != set(layout.blocked):
            continue
        if {(n, frozenset(image[c] for c in cs)) for n, cs in given} != given:
            continue
        group.append(image)
    shapes = [
        t
        for t, n in zip(puzzle.problem.types, puzzle.problem.counts, strict=True)
        for _ in range(n)
    ]
    ec = tiling_problem(puzzle.board, shapes)
    pl = ec.placements
    seen = set()
    for sol in solve(ec):
        placed = [(shapes[int(pl.piece[i])].name, pl.coords_of(i)) for i in ec.decode(sol)]
        seen.add(
            min(
                tuple(sorted((n, tuple(sorted(g[tuple(c)] for c in cs))) for n, cs in placed))
                for g in group
            )
        )
    return len(seen)


@pytest.mark.parametrize(
    "params",
    [
        SMALL,
        PackingParams(min_pieces=6, max_pieces=8, holes=1),
        PackingParams(min_pieces=6, max_pieces=8, region="rectangle"),
        PackingParams(pieces="blokus", min_pieces=5, max_pieces=7, region="rectangle"),
    ],
    ids=["shape", "holed", "rectangle", "blokus-rectangle"],
)
def test_accepted_candidates_are_unique_by_an_independent_engine(params: PackingParams) -> None:
    accepted = 0
    for index in range(12):
        cand = make_candidate("packing", params, seed=5, index=index)
        if not cand.accepted:
            assert cand.reason
            continue
        accepted += 1
        p = cand.puzzle
        assert p is not None and cand.solution is not None
        assert check_solution(cand.solution, p) == []
        assert classes_by_xcc(p) == 1
        assert len(p.given) <= params.max_given
        assert params.min_pieces <= len(p.all_piece_names()) <= params.max_pieces
        opens = {(r, c) for r in range(p.layout.rows) for c in range(p.layout.cols)}
        opens -= p.layout.blocked
        assert len(_enclosed(opens, p.layout.rows, p.layout.cols)) == params.holes
        if params.region == "rectangle":
            assert not p.layout.blocked
        assert cand.difficulty is not None and cand.difficulty >= 0
        assert cand.stats["nodes"] >= cand.stats["pieces"]
    assert accepted >= 3


def test_several_solutions_are_reported_truly() -> None:
    # With no piece given, most rectangles have several solutions: the generator's claim
    # must agree with the independent count.
    params = PackingParams(min_pieces=8, max_pieces=8, region="rectangle", max_given=0)
    several = 0
    for index in range(10):
        cand = make_candidate("packing", params, seed=3, index=index)
        if cand.reason and "several solutions" in cand.reason:
            several += 1
            board, shapes, _ = _rebuild(params, 3, index)
            assert classes_by_xcc(_puzzle("x", board, shapes, [])) >= 2
    assert several >= 1


def _rebuild(params: PackingParams, seed: int, index: int):  # type: ignore[no-untyped-def]
    """The candidate's board and pieces, rebuilt as the generator draws them."""
    from polytile.geometry import piece_set
    from polytile.puzzles.tiling.generate import _rectangle, _rng

    rng = _rng(seed, index, "packing")
    pool = piece_set(params.pieces)
    n = int(rng.integers(params.min_pieces, params.max_pieces + 1))
    chosen = tuple(pool[int(i)] for i in sorted(rng.choice(len(pool), n, replace=False)))
    largest = max(max(p.height, p.width) for p in chosen)
    board = _rectangle(sum(p.size for p in chosen), rng, largest)
    return board, chosen, rng


def test_candidates_are_reproducible_and_seeds_differ() -> None:
    a = [make_candidate("packing", SMALL, 11, i) for i in range(6)]
    b = [make_candidate("packing", SMALL, 11, i) for i in range(6)]
    c = [make_candidate("packing", SMALL, 12, i) for i in range(6)]
    assert [x.key for x in a] == [x.key for x in b]
    assert [x.reason for x in a] == [x.reason for x in b]
    keys_a = {x.key for x in a if x.accepted}
    keys_c = {x.key for x in c if x.accepted}
    assert keys_a and keys_c and not keys_a & keys_c


def _transformed(p: TilingPuzzle, k: int) -> TilingPuzzle:
    """The same puzzle turned or flipped by symmetry k (a fresh board, mapped givens)."""
    from polytile.geometry import apply_transform

    layout = p.layout
    cells = [(r, c) for r in range(layout.rows) for c in range(layout.cols)]
    moved = {cell: apply_transform(k, *cell) for cell in cells}
    r0 = min(r for r, _ in moved.values())
    c0 = min(c for _, c in moved.values())
    moved = {cell: (r - r0, c - c0) for cell, (r, c) in moved.items()}
    rows = 1 + max(r for r, _ in moved.values())
    cols = 1 + max(c for _, c in moved.values())
    board = Board(rows, cols, frozenset(moved[c] for c in layout.blocked))
    doc = puzzle_doc(p)
    doc["board"] = board.to_text()
    doc["given"] = [
        {"piece": g.piece, "cells": [list(moved[tuple(c)]) for c in g.cells]} for g in p.given
    ]
    return parse_puzzle(doc)


def test_key_is_invariant_under_the_eight_symmetries_and_tells_puzzles_apart() -> None:
    cands = [make_candidate("packing", SMALL, 21, i) for i in range(8)]
    puzzles = [c.puzzle for c in cands if c.accepted and c.puzzle is not None]
    assert len(puzzles) >= 2
    for p in puzzles:
        keys = {puzzle_key("packing", _transformed(p, k)) for k in range(8)}
        assert keys == {puzzle_key("packing", p)}
    assert len({puzzle_key("packing", p) for p in puzzles}) == len(puzzles)


def test_key_depends_on_the_given_pieces() -> None:
    board = Board(2, 5)
    free = _puzzle("a", board, (piece("I5"), piece("I5").named("I5b")), [])
    fixed = _puzzle(
        "b",
        board,
        (piece("I5"), piece("I5").named("I5b")),
        [("I5", tuple((0, c) for c in range(5)))],
    )
    assert puzzle_key("packing", free) != puzzle_key("packing", fixed)


def test_rating_grows_with_search_and_forced_puzzles_rate_zero() -> None:
    strip = _puzzle("strip", Board(1, 5), (piece("I5"),), [])
    d, stats = rate(strip)
    assert d == 0 and stats["pieces"] == 1 and stats["top_branching"] == 1
    from polytile.puzzles.tiling.puzzles import get_puzzle

    hard, hard_stats = rate(get_puzzle("pentomino-3x20"))
    assert hard > 3 and hard_stats["raw_solutions"] == 8


def test_parameters_are_checked() -> None:
    with pytest.raises(UnknownNameError):
        PackingParams(pieces="heptominoes")
    with pytest.raises(PolytileError, match="min"):
        PackingParams(min_pieces=9, max_pieces=8)
    with pytest.raises(PolytileError, match="holes need"):
        PackingParams(region="rectangle", holes=1)
    with pytest.raises(PolytileError, match="not built"):
        parse_params("blokus-endgame", {})
    with pytest.raises(UnknownNameError):
        parse_params("sudoku", {})
    with pytest.raises(UnknownNameError):
        parse_params("packing", {"colour": 3})


def test_given_pieces_round_trip_through_puzzle_files() -> None:
    cand = next(
        c
        for c in (make_candidate("packing", SMALL, 2, i) for i in range(30))
        if c.accepted and c.puzzle is not None and c.puzzle.given
    )
    p = cand.puzzle
    assert p is not None
    back = parse_puzzle(puzzle_doc(p))
    assert back.given == p.given and back.board == p.board and back.layout == p.layout
    assert sorted(back.all_piece_names()) == sorted(p.all_piece_names())
    moved = cand.solution
    assert moved is not None
    broken = [pp for pp in moved.placements if pp != p.given[0]]
    assert check_solution(moved, back) == []
    from dataclasses import replace

    reasons = check_solution(replace(moved, placements=tuple(broken)), back)
    assert any("given piece" in r for r in reasons)


def test_bad_given_pieces_are_format_errors() -> None:
    from polytile.errors import FormatError

    doc = {
        "format": "polytile/puzzle@1",
        "board": ["....."],
        "pieces": ["I5"],
        "given": [{"piece": "L5", "cells": [[0, 0]]}],
    }
    with pytest.raises(FormatError, match="given"):
        parse_puzzle(doc)
    doc["given"] = [{"piece": "I5", "cells": [[0, 0], [0, 1], [0, 2], [0, 3], [0, 5]]}]
    with pytest.raises(FormatError, match="outside"):
        parse_puzzle(doc)


def test_teasers_are_unique_by_independent_enumeration() -> None:
    """Every solution listed by Algorithm C with the no-edge rule, sorted into classes up to
    board symmetry and colour renaming by hand, each class checked by the rules checker (the
    touch rule): exactly one class passes."""
    from itertools import permutations

    from polytile.formats import COLORS, PlacedPiece, Solution
    from polytile.puzzles.tiling.generate_teasers import TeaserParams, parse_teaser, teaser_doc

    names = list(COLORS)
    params = TeaserParams(min_pieces=2, max_pieces=2, max_blocked=1)
    found = 0
    for index in range(60):
        cand = make_candidate("blokus-teaser", params, seed=2, index=index)
        if not cand.accepted:
            continue
        t = cand.puzzle
        assert t is not None and cand.solution is not None
        assert t.check(cand.solution) == []
        assert parse_teaser(teaser_doc(t)) == t  # type: ignore[arg-type]
        hands = t.pieces  # type: ignore[attr-defined]
        shapes = [p for hand in hands for p in hand]
        colors = [k for k, hand in enumerate(hands) for _ in hand]
        ec = tiling_problem(t.board, shapes, colors=colors, no_edge_same_color=True)
        if count(ec).count > 5000:
            continue  # listing them in Python would take long; the next will do
        pl = ec.placements
        board = t.board
        renames = list(permutations(range(len(hands))))
        verdict: dict[tuple, bool] = {}
        for sol in solve(ec):
            placed = [
                (shapes[int(pl.piece[i])].name, colors[int(pl.piece[i])], pl.coords_of(i))
                for i in ec.decode(sol)
            ]
            key = min(
                tuple(
                    sorted(
                        (n, perm[k], tuple(sorted(board.map_cell(g, *c) for c in cs)))
                        for n, k, cs in placed
                    )
                )
                for g in board.symmetries()
                for perm in renames
            )
            if key not in verdict:
                doc = Solution(
                    "x",
                    board.rows,
                    board.cols,
                    tuple(PlacedPiece(n, tuple(cs), names[k]) for n, k, cs in placed),
                    blocked=tuple(sorted(board.blocked)),
                )
                verdict[key] = not t.check(doc)
        assert sum(verdict.values()) == 1
        found += 1
        if found == 2:
            break
    assert found == 2


# -- regions whose outline gives nothing away (issue 47, item 7) ---------------------------
def _fits_by_hand(board: Board, shapes: list) -> tuple[dict, dict]:
    """Per open cell: the piece names whose some placement covers it, and how many
    placements do; every orientation shifted over the board by hand (no placement table)."""
    open_cells = {(r, c) for r in range(board.rows) for c in range(board.cols)
                  if (r, c) not in board.blocked}  # fmt: skip
    names: dict = {cell: set() for cell in open_cells}
    placements: dict = {cell: 0 for cell in open_cells}
    seen = set()
    for shape in shapes:
        if shape.canonical() in seen:
            continue
        seen.add(shape.canonical())
        for oriented in shape.orientations():
            for dr in range(-board.rows, board.rows):
                for dc in range(-board.cols, board.cols):
                    cells = {(r + dr, c + dc) for r, c in oriented.cells}
                    if cells <= open_cells:
                        for cell in cells:
                            names[cell].add(shape.name)
                            placements[cell] += 1
    return names, placements


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_region_quality_against_shapes_shifted_by_hand(seed: int) -> None:
    rng = random.Random(seed)
    rows, cols = rng.randint(2, 5), rng.randint(2, 5)
    blocked = frozenset((r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.3)
    board = Board(rows, cols, blocked)
    if board.n_open == 0:
        return
    shapes = [piece(n) for n in rng.sample(["I1", "I2", "I3", "V3", "I4", "L4", "T4", "O4"], 3)]
    quality = region_quality(board, shapes)
    names, placements = _fits_by_hand(board, shapes)
    assert quality["fewest_pieces"] == min(len(v) for v in names.values())
    assert quality["single_cells"] == sum(1 for v in placements.values() if v == 1)
    if quality["fewest_pieces"] == 1:
        assert names[quality["forced_cell"]] == {quality["forced_piece"]}
    rs = [r for r, _ in names]
    cs = [c for _, c in names]
    box = (max(rs) - min(rs) + 1) * (max(cs) - min(cs) + 1)
    assert quality["fill"] == round(len(names) / box, 3)


@pytest.mark.parametrize("holes", [0, 1])
def test_grown_regions_are_compact_and_give_no_piece_away(holes: int) -> None:
    """Every kept shape puzzle's region (givens put back) fills at least MIN_FILL of its
    box and fits two different pieces over every cell, checked by hand; and the stats say
    so."""
    params = PackingParams(min_pieces=6, max_pieces=8, holes=holes)
    kept = 0
    for index in range(6):
        cand = make_candidate("packing", params, 3, index)
        if not cand.accepted:
            continue
        kept += 1
        puzzle = cand.puzzle
        taken = {tuple(c) for g in puzzle.given for c in g.cells}
        board = puzzle.problem.board
        region = Board(board.rows, board.cols, frozenset(board.blocked) - taken)
        shapes = [piece(n) for n in puzzle.all_piece_names()]
        names, _ = _fits_by_hand(region, shapes)
        assert min(len(v) for v in names.values()) >= 2
        rs = [r for r, _ in names]
        cs = [c for _, c in names]
        assert len(names) / ((max(rs) - min(rs) + 1) * (max(cs) - min(cs) + 1)) >= MIN_FILL
        assert cand.stats["fewest_pieces"] >= 2 and cand.stats["fill"] >= MIN_FILL
        assert len(_enclosed(set(names), board.rows, board.cols)) == holes
    assert kept >= 4  # 37-39 of 40 are kept at these settings (bench_generate_quality.py)


def test_own_pieces_are_drawn_and_stored_with_the_params() -> None:
    from polytile.geometry import Polyomino
    from polytile.puzzles.tiling.generate import own_pieces

    mine = own_pieces([(Polyomino.from_text(["##", "#."], "A"), 3),
                       (Polyomino.from_text(["###", ".#."], "B"), None), (piece("I3"), 1)],
                      most=6)  # fmt: skip
    assert mine == (("A", "##/#.", 3), ("B", "###/.#.", 6), ("I3", "###", 1))
    params = PackingParams(pieces="mine.json", min_pieces=4, max_pieces=5, own_pieces=mine)
    again = parse_params("packing", json.loads(json.dumps(params.to_dict())))  # as a store
    assert again == params
    assert "own_pieces" not in SMALL.to_dict()  # stores of named sets read as before
    for index in range(4):
        cand = make_candidate("packing", params, 0, index)
        if cand.accepted:
            assert set(cand.puzzle.all_piece_names()) <= {"A", "B", "I3"}
    with pytest.raises(PolytileError, match="the pieces of your file, copies included"):
        PackingParams(pieces="mine.json", min_pieces=8, max_pieces=12, own_pieces=mine)


def test_own_pieces_with_copies_and_one_shape() -> None:
    """Copies of one shape: a rectangle is tiled by types with counts, and a shape region
    of one repeated shape is not refused for fitting only that shape (found in review)."""
    from polytile.geometry import Polyomino
    from polytile.puzzles.tiling.generate import own_pieces

    ell = own_pieces([(Polyomino.from_text(["#.", "##"], "L"), None)], most=6)
    for region in ("rectangle", "shape"):
        params = PackingParams(pieces="own", min_pieces=4, max_pieces=6, region=region,
                               own_pieces=ell)  # fmt: skip
        kept = [c for c in (make_candidate("packing", params, 1, i) for i in range(12))
                if c.accepted]  # fmt: skip
        assert kept, region
        for cand in kept:
            assert set(cand.puzzle.all_piece_names()) == {"L"}
            assert check_solution(cand.solution, cand.puzzle) == []


def test_stored_pictures_mark_the_given_pieces() -> None:
    """The puzzle's picture and a stored answer written before the mark existed both mark
    the given pieces (lower case in text), as render and solve do."""
    from polytile.formats import PlacedPiece, Solution
    from polytile.puzzles.tiling.kinds import PACKING
    from polytile.render import to_text

    puzzle = parse_puzzle({"format": "polytile/puzzle@1", "board": ["...", "..."],
                           "pieces": [{"name": "I3", "count": 2}],
                           "given": [{"piece": "I3", "cells": [[0, 0], [0, 1], [0, 2]]}]})
    assert PACKING.picture(puzzle).extra["given"] == [0]
    old = Solution(puzzle.name, 2, 3, (puzzle.given[0], *puzzle.solution_of(
        [PlacedPiece("I3", ((1, 0), (1, 1), (1, 2)))]).placements[1:]))  # fmt: skip
    marked = PACKING._marked(puzzle, old)
    assert marked.extra["given"] == [0]
    assert "lower case" in to_text(marked, color=False)
