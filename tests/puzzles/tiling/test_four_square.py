"""The four-square teaser: kernel counts against brute force, and the independent checker."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

from polytile import Board, piece
from polytile.errors import BoardError
from polytile.formats import PlacedPiece, Solution
from polytile.puzzles.tiling.catalogue import resolve
from polytile.puzzles.tiling.teasers import COLOR_NAMES, four_square
from polytile.solvers import bitboard
from polytile.solvers.counting import count_tiling
from polytile.solvers.symmetric import first_solution, symmetric_kernels
from polytile.solvers.tiling import Coloring, TilingProblem, compile_problem, solutions


def _orientations(cells):
    out = set()
    for flip in (False, True):
        pts = [(r, -c) if flip else (r, c) for r, c in cells]
        for _ in range(4):
            pts = [(c, -r) for r, c in pts]
            r0 = min(r for r, _ in pts)
            c0 = min(c for _, c in pts)
            out.add(tuple(sorted((r - r0, c - c0) for r, c in pts)))
    return sorted(out)


def brute_solutions(teaser):
    """Every valid coloured tiling, by plain recursion, filtered by Teaser.check."""
    board = teaser.board
    cells = [
        (r, c) for r in range(board.rows) for c in range(board.cols) if (r, c) not in board.blocked
    ]
    pieces = [(k, p) for k, hand in enumerate(teaser.pieces) for p in hand]
    orients = [_orientations(p.cells) for _, p in pieces]
    used = [False] * len(pieces)
    owner = {}
    chosen = []
    found = []

    def rec():
        empty = next((x for x in cells if x not in owner), None)
        if empty is None:
            sol = Solution(
                teaser.name,
                board.rows,
                board.cols,
                tuple(
                    PlacedPiece(pieces[i][1].name, tuple(cs), COLOR_NAMES[pieces[i][0]])
                    for i, cs in chosen
                ),
                blocked=tuple(board.blocked),
            )
            if not teaser.check(sol):
                found.append(frozenset((pieces[i][0], frozenset(cs)) for i, cs in chosen))
            return
        for i, (k, _p) in enumerate(pieces):
            # Identical pieces of one colour: only the first unused copy is tried.
            if used[i] or any(not used[j] and pieces[j] == pieces[i] for j in range(i)):
                continue
            for o in orients[i]:
                ar, ac = o[0]
                cs = [(empty[0] + r - ar, empty[1] + c - ac) for r, c in o]
                # Prune as we go: no same-colour edge contact (the full check runs at the end).
                if all(x in cells and x not in owner for x in cs) and not any(
                    pieces[owner[(r + dr, c + dc)]][0] == k
                    for r, c in cs
                    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if (r + dr, c + dc) in owner
                ):
                    used[i] = True
                    for x in cs:
                        owner[x] = i
                    chosen.append((i, cs))
                    rec()
                    chosen.pop()
                    for x in cs:
                        del owner[x]
                    used[i] = False

    rec()
    return found


def orbit_count(teaser, sols):
    board = teaser.board
    group = teaser.problem.group()
    perms = list(itertools.permutations(range(teaser.n_colors)))

    def key(sol):
        return tuple(sorted((k, tuple(sorted(cs))) for k, cs in sol))

    reps = set()
    for sol in sols:
        images = []
        for g in group:
            moved = [(k, frozenset(board.map_cell(g, r, c) for r, c in cs)) for k, cs in sol]
            for perm in perms:
                images.append(key([(perm[k], cs) for k, cs in moved]))
        reps.add(min(images))
    return len(reps)


SMALL = [
    pytest.param(Board(4, 8), 4, ["L4", "T4"], marks=pytest.mark.slow),  # ~40 s brute force
    (Board(4, 4), 4, ["L4"]),  # four colours at a size brute force settles at once
    (Board(3, 6), 3, ["L4", "I2"]),
]


@pytest.mark.parametrize("touch", ["local", "connected"])
@pytest.mark.parametrize(("board", "colors", "names"), SMALL)
def test_counts_agree_with_brute_force(board, colors, names, touch, slow_scale):
    if slow_scale == "reduced" and board.rows * board.cols > 20:
        pytest.skip("full size only (POLYTILE_SLOW=full): 40 s of brute force each")
    teaser = four_square(touch, board, colors, [piece(n) for n in names])
    expected = brute_solutions(teaser)
    result = count_tiling(teaser.problem)
    assert result.complete
    assert result.count == len(expected)
    assert result.count_up_to_symmetry == orbit_count(teaser, expected)
    plain = count_tiling(teaser.problem, symmetry=False)
    assert plain.count == len(expected)


def test_no_touch_rule_agrees_with_brute_force():
    teaser = four_square("none", Board(3, 4), 3, [piece("I2"), piece("I2")])
    expected = brute_solutions(teaser)
    result = count_tiling(teaser.problem)
    assert result.count == len(expected) > 0
    assert result.count_up_to_symmetry == orbit_count(teaser, expected)


def test_three_colours_and_blocked_cells_agree_with_brute_force():
    board = Board(3, 6, frozenset({(0, 0), (2, 5), (1, 3)}))
    teaser = four_square("local", board, 3, [piece("I2"), piece("V3")])
    expected = brute_solutions(teaser)
    result = count_tiling(teaser.problem)
    assert result.count == len(expected)
    assert result.count_up_to_symmetry == orbit_count(teaser, expected)


@pytest.mark.parametrize(("touch", "raw", "up"), [("local", 5808, 35), ("connected", 288, 3)])
def test_known_counts_of_the_8x8_variant(touch, raw, up):
    teaser = four_square(touch, Board(8, 8), 4, [piece(n) for n in ("Z4", "O4", "T4", "L4")])
    result = count_tiling(teaser.problem)
    assert (result.count, result.count_up_to_symmetry) == (raw, up)


@pytest.mark.slow
def test_four_square_counts(slow_scale):
    if slow_scale != "full":
        pytest.skip("the full four-square counts take minutes: POLYTILE_SLOW=full")
    result = count_tiling(four_square("local").problem)
    assert (result.count, result.count_up_to_symmetry) == (3120, 35)
    result = count_tiling(four_square("connected").problem)
    assert (result.count, result.count_up_to_symmetry) == (48, 1)


def test_solutions_pass_the_checker_and_seeds_vary_them():
    teaser = four_square()
    pl = compile_problem(teaser.problem).placements
    seen = set()
    for seed in (2, 9):  # seeds whose first solution comes in well under a second
        sol = teaser.to_solution(pl, next(solutions(teaser.problem, seed=seed)))
        assert teaser.check(sol) == []
        assert {pp.color for pp in sol.placements} == set(COLOR_NAMES)
        seen.add(tuple(sorted(sol.placements, key=lambda pp: pp.cells)))
    assert len(seen) == 2


def _a_solution():
    teaser = four_square()
    pl = compile_problem(teaser.problem).placements
    path = first_solution(teaser.problem, seed=1)
    return teaser, teaser.to_solution(pl, path)


def test_checker_reports_colour_faults():
    teaser, sol = _a_solution()
    placements = list(sol.placements)
    # Give piece 1 the colour of an edge neighbour of another colour.
    first = placements[0]
    neighbour = next(
        i
        for i, pp in enumerate(placements)
        if pp.color != first.color
        and any(abs(r - r2) + abs(c - c2) == 1 for r, c in pp.cells for r2, c2 in first.cells)
    )
    placements[neighbour] = PlacedPiece(
        placements[neighbour].piece, placements[neighbour].cells, first.color
    )
    bad = Solution(sol.puzzle, sol.rows, sol.cols, tuple(placements))
    reasons = teaser.check(bad)
    assert any("share an edge" in r for r in reasons)
    assert any("missing" in r for r in reasons)
    assert any("more than the teaser has" in r for r in reasons)

    purple = list(sol.placements)
    purple[0] = PlacedPiece(purple[0].piece, purple[0].cells, "purple")
    assert any("not one of" in r for r in teaser.check(Solution(sol.puzzle, 8, 10, tuple(purple))))


def test_checker_enforces_the_touch_rule():
    _, sol = _a_solution()
    connected = four_square("connected")
    reasons = connected.check(sol)
    # A local-rule solution may or may not be connected; when not, the reason names a colour.
    assert all("corner-connected groups" in r for r in reasons)
    lonely = Solution(
        "x",
        2,
        4,
        (
            PlacedPiece("I2", ((0, 0), (0, 1)), "blue"),
            PlacedPiece("I2", ((1, 2), (1, 3)), "blue"),
            PlacedPiece("I2", ((1, 0), (1, 1)), "yellow"),
            PlacedPiece("I2", ((0, 2), (0, 3)), "yellow"),
        ),
    )
    pair = four_square("local", Board(2, 4), 2, [piece("I2"), piece("I2")])
    assert pair.check(lonely) == []
    apart = Solution(
        "x",
        2,
        4,
        (
            PlacedPiece("I2", ((0, 0), (1, 0)), "blue"),
            PlacedPiece("I2", ((0, 3), (1, 3)), "blue"),
            PlacedPiece("I2", ((0, 1), (1, 1)), "yellow"),
            PlacedPiece("I2", ((0, 2), (1, 2)), "yellow"),
        ),
    )
    assert any("corner-touches no piece" in r for r in pair.check(apart))


def test_impossible_variants_are_board_errors():
    with pytest.raises(BoardError, match="cover 80 cells"):
        resolve("four-square", board="8x8")
    with pytest.raises(BoardError, match="apply to the teasers"):
        resolve("pentomino-6x10", touch="local")


# -- symmetric solutions first (polytile.solvers.symmetric) ------------------------------------
def _key(sol):
    return frozenset((k, frozenset(map(tuple, cs))) for k, cs in sol)


def _symmetric(teaser, sol, g, sigma):
    board = teaser.board
    return _key(sol) == _key(
        [(sigma[k], [board.map_cell(g, r, c) for r, c in cs]) for k, cs in sol]
    )


def _key_of(sol):
    return frozenset((COLOR_NAMES.index(pp.color), frozenset(pp.cells)) for pp in sol.placements)


def _renamed(sol):
    """The least of a solution's colour renamings (solutions up to colour names)."""
    n = 1 + max(k for k, _ in sol)
    return min(
        tuple(sorted((perm[k], tuple(sorted(cs))) for k, cs in sol))
        for perm in itertools.permutations(range(n))
    )


def _pair_outputs(teaser, kernel):
    """Every tiling a pair kernel puts out (key, solution), with the checker's reasons."""
    state = kernel.state(record=True, buffer=1024)
    pl = compile_problem(teaser.problem).placements
    out = []
    while True:
        status = kernel.run(state)
        for path in state.take():
            sol = teaser.to_solution(pl, kernel.decode(path))
            out.append((_key_of(sol), sol, teaser.check(sol)))
        if status == bitboard.DONE:
            return out


def _pair_solutions(teaser, kernel):
    """The pair kernel's tilings that pass the checker, keyed as brute_solutions keys them."""
    outputs = _pair_outputs(teaser, kernel)
    assert all(not reasons for _, _, reasons in outputs)  # the kernel enforces every rule
    return {key for key, _, _ in outputs}


def _kernel_solutions(teaser):
    """Every tiling, from the ordinary kernel's list (one per colour renaming) renamed back."""
    pl = compile_problem(teaser.problem).placements
    every = set()
    for path in solutions(teaser.problem):
        sol = _key_of(teaser.to_solution(pl, path))
        for perm in itertools.permutations(range(teaser.n_colors)):
            every.add(frozenset((perm[k], cs) for k, cs in sol))
    return every


# Two ways to every tiling: brute force for two colours, the ordinary kernel for four (its
# counts agree with brute force above).
PAIRED = [
    (Board(3, 6), 2, ["I2", "I3", "L4"], brute_solutions),
    (Board(4, 5), 2, ["I2", "O4", "L4"], brute_solutions),
    (Board(3, 4), 2, ["I2", "L4"], brute_solutions),
    (Board(4, 6), 4, ["I2", "O4"], _kernel_solutions),
    (Board(4, 6), 4, ["I2", "I4"], _kernel_solutions),
    (Board(4, 4), 4, ["I2", "I2"], _kernel_solutions),
]


@pytest.mark.parametrize("touch", ["local", "connected"])
@pytest.mark.parametrize(("board", "colors", "names", "method"), PAIRED)
def test_pair_kernels_find_exactly_the_symmetric_solutions(board, colors, names, method, touch):
    teaser = four_square(touch, board, colors, [piece(n) for n in names])
    every = set(method(teaser))
    kernels = symmetric_kernels(teaser.problem)
    assert kernels
    seen = 0
    for s in kernels:
        expected = {sol for sol in every if _symmetric(teaser, sol, s.symmetry, s.pairing)}
        assert _pair_solutions(teaser, s.kernel) == expected
        seen += len(expected)
    assert seen > 0


@pytest.mark.parametrize(("touch", "found"), [("local", (48, 16, 16)), ("connected", (16, 0, 0))])
def test_four_square_symmetric_solutions(touch, found):
    teaser = four_square(touch)
    kernels = {s.symmetry: s for s in symmetric_kernels(teaser.problem)}
    assert set(kernels) == {2, 4, 5}  # the half turn and the two mirrors of the rectangle
    for g, n in zip((2, 4, 5), found, strict=True):
        outputs = _pair_outputs(teaser, kernels[g].kernel)
        assert all(not reasons for _, _, reasons in outputs)
        assert all(_symmetric(teaser, key, g, (1, 0, 3, 2)) for key, _, _ in outputs)
        assert len({key for key, _, _ in outputs}) == len(outputs) == n


def test_no_pair_kernels_without_a_partner():
    # An odd number of colours, a centre cell fixed by every symmetry, one-sided pieces.
    assert (
        symmetric_kernels(four_square("local", Board(3, 6), 3, [piece("L4"), piece("I2")]).problem)
        == []
    )
    odd = four_square("local", Board(5, 5, frozenset({(2, 2)})), 2, [piece("L4")] * 3)
    # The mirrors fix the middle row's and column's cells; the half turn fixes only the hole.
    assert [s.symmetry for s in symmetric_kernels(odd.problem)] == [2]
    assert symmetric_kernels(resolve("pentomino-6x10").problem) == []
    one_sided = TilingProblem(
        Board(2, 4), (piece("I2"), piece("I2")), (2, 2), True, Coloring((0, 1), 2, "local")
    )
    assert symmetric_kernels(one_sided) == []


def test_pair_kernels_refuse_orbit_counts():
    kernel = symmetric_kernels(four_square().problem)[0].kernel
    colors = kernel.colors._replace(orbit_perms=np.zeros((1, 128), dtype=np.int64))
    with pytest.raises(ValueError, match="two-coloured options cannot count orbits"):
        dataclasses.replace(kernel, colors=colors).state()


def _colour_state(teaser, placements):
    """Each colour's cells and edge halo, from the ordinary kernel's single pieces."""
    base = compile_problem(teaser.problem)
    colors = teaser.problem.coloring.colors
    cover = np.zeros((teaser.n_colors, base.masks.shape[1]), dtype=np.uint64)
    halo = np.zeros_like(cover)
    for i in placements:
        o = base.option_of_placement[i]
        k = colors[base.placements.piece[i]]
        cover[k] |= base.masks[o]
        halo[k] |= base.colors.halo[o]
    return cover, halo


def test_pair_kernels_keep_the_whole_position():
    teaser = four_square()
    kernel = next(s.kernel for s in symmetric_kernels(teaser.problem) if s.symmetry == 5)
    state = kernel.state(record=True, buffer=1)
    kernel.run(state)
    (path,) = state.take()
    # Both colours of every option are in the kernel's colour state (the solution's level).
    cover, halo = _colour_state(teaser, kernel.decode(path))
    assert np.array_equal(state.ccover[len(path)], cover)
    assert np.array_equal(state.forbid[len(path)], halo)
    below = kernel.state(forced=path[:4], record=True, buffer=1)
    cover, halo = _colour_state(teaser, kernel.decode(path[:4]))
    assert np.array_equal(below.ccover[4], cover)
    assert np.array_equal(below.forbid[4], halo)
    kernel.run(below)
    assert below.take() == [path]
    # A same-colour neighbour of the first option's piece is refused as a forced option.
    colors, masks, p = kernel.colors, kernel.masks, path[0]
    touching = next(
        q
        for q in range(len(masks))
        if colors.ocolor[q] == colors.ocolor[p]
        and not (masks[q] & masks[p]).any()
        and (colors.part[q] & colors.halo[p]).any()
    )
    with pytest.raises(ValueError, match="shares an edge"):
        kernel.state(forced=(p, touching))


@pytest.mark.parametrize("touch", ["local", "connected"])
def test_first_solution_is_valid_and_seeded(touch):
    teaser = four_square(touch)
    pl = compile_problem(teaser.problem).placements
    first = first_solution(teaser.problem, seed=3)
    assert teaser.check(teaser.to_solution(pl, first)) == []
    assert first_solution(teaser.problem, seed=3) == first
    other = first_solution(teaser.problem, seed=4)
    assert teaser.check(teaser.to_solution(pl, other)) == []


def test_first_solution_is_complete():
    # No tiling at all: every search ends and says so.
    none = four_square("local", Board(4, 10), 2)
    assert symmetric_kernels(none.problem)
    assert first_solution(none.problem) is None
    # No tiling is symmetric: the symmetric searches end empty, the ordinary one finds one.
    lone = four_square("local", Board(6, 6), 4, [piece(n) for n in ("I2", "V3", "Z4")])
    kernels = symmetric_kernels(lone.problem)
    assert len(kernels) == 3
    assert all(not _pair_outputs(lone, s.kernel) for s in kernels)
    assert first_solution(lone.problem) == next(solutions(lone.problem))
    # A stop request ends the search at once, or after the chunk it is polled at.
    assert first_solution(four_square().problem, should_stop=lambda: True) is None
    polls = []
    assert first_solution(none.problem, should_stop=lambda: polls.append(1)) is None
    assert polls
