"""The count up to symmetry as the literature takes it for one-sided sets (issue 47, item 2):
``symmetries="mirror-pieces"``, where a reflection of the board also turns every piece into
its mirror twin. Burnside's lemma in both engines against orbits counted directly on every
solution, a published count, and the sets that cannot have it."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from polytile import Board, Polyomino, piece, piece_set
from polytile.errors import BoardError, SymmetryError
from polytile.solvers.counting import count_tiling
from polytile.solvers.frontier import FrontierUnsupported, count_frontier, fixed_layout
from polytile.solvers.problem import Coloring
from polytile.solvers.tiling import PieceGroup, Task, TilingProblem, count_task, plan_count

from .test_tiling import _orientations, brute_tilings, library_tilings

J4 = Polyomino.from_text(["..#", "###"], "J4")  # the mirror image of L4 ("#..", "###")
S4 = Polyomino.from_text([".##", "##."], "S4")  # the mirror image of Z4 ("##.", ".##")
# the seven one-sided tetrominoes, and the pairs among them that are mirror images
ONE_SIDED_4 = (piece("I4"), piece("O4"), piece("T4"), piece("L4"), J4, piece("Z4"), S4)


def _twins(shapes: tuple[Polyomino, ...]) -> list[int]:
    """Each shape's mirror image among ``shapes``, found here without the library: the
    one whose rotations include the mirrored cells."""
    rotations = [set(_orientations(s.cells, True)) for s in shapes]
    twins = []
    for s in shapes:
        mirrored = _orientations([(r, -c) for r, c in s.cells], True)[0]
        twins.append(next(j for j, rots in enumerate(rotations) if mirrored in rots))
    return twins


def _supplied(tiling: frozenset, prob: TilingProblem) -> bool:
    used = Counter(t for t, _ in tiling)
    if any(not lo <= used[t] <= c for t, (lo, c) in enumerate(zip(prob.low, prob.counts,
                                                                  strict=True))):  # fmt: skip
        return False
    return all(g.low <= sum(used[t] for t in g.types) <= g.high for g in prob.groups)


def mirror_orbits(prob: TilingProblem, tilings: list[frozenset]) -> int:
    """Orbits of ``tilings`` under the board's symmetries, a reflection (4-7) also turning
    every piece into its twin: each tiling's least image stands for its orbit."""
    board, twins = prob.board, _twins(prob.types)

    def image(k: int, tiling: frozenset) -> tuple:
        return tuple(sorted((twins[t] if k >= 4 else t,
                             tuple(sorted(board.map_cell(k, r, c) for r, c in cells)))
                            for t, cells in tiling))  # fmt: skip

    group = board.symmetries()
    return len({min(image(k, t) for k in group) for t in tilings})


def _counts(prob: TilingProblem) -> tuple[tuple[int, int | None], ...]:
    """(raw, up to symmetry) by the search and by the frontier engine."""
    return tuple((r.count, r.count_up_to_symmetry)
                 for r in (count_tiling(prob, engine="search"),
                           count_tiling(prob, engine="frontier")))  # fmt: skip


# -- by hand ---------------------------------------------------------------------------------


def test_a_set_and_its_twins_count_as_the_free_set() -> None:
    """The one-sided tetrominoes, as many of each as fit, tile 4x4 exactly as the free ones
    do; identifying mirror images with the twins swapped leaves the free count's orbits."""
    free = TilingProblem(Board(4, 4), piece_set("tetrominoes"), (4,) * 5, low=(0,) * 5)
    one = TilingProblem(Board(4, 4), ONE_SIDED_4, (4,) * 7, True, low=(0,) * 7,
                        symmetries="mirror-pieces")  # fmt: skip
    assert _counts(free) == ((117, 22),) * 2
    assert _counts(one) == ((117, 22),) * 2
    rotations = TilingProblem(Board(4, 4), ONE_SIDED_4, (4,) * 7, True, low=(0,) * 7)
    assert _counts(rotations) == ((117, 37),) * 2  # "board": rotations alone
    tilings = library_tilings(one)
    assert mirror_orbits(one, tilings) == 22


CORNERS = frozenset({(0, 0), (0, 4), (3, 0), (3, 4)})


@pytest.mark.parametrize("board", [Board(4, 4), Board(2, 8), Board(3, 6), Board(4, 5, CORNERS),
                                   Board(4, 4, frozenset({(0, 0), (0, 3)}))])  # fmt: skip
def test_burnside_equals_the_orbits_of_every_solution(board: Board) -> None:
    """Every solution listed by the search, the group applied to it with the twins swapped,
    the orbits counted directly: Burnside's lemma in both engines gives the same number."""
    n = board.n_open
    prob = TilingProblem(board, (piece("L4"), J4, piece("O4"), piece("I2")),
                         (2, 2, 4, n // 2), True, low=(0, 0, 0, 0),
                         symmetries="mirror-pieces")  # fmt: skip
    tilings = library_tilings(prob)
    brute = brute_tilings(board.rows, board.cols, board.blocked, [t.cells for t in prob.types],
                          prob.counts, True)  # fmt: skip
    assert {t for t in brute if _supplied(t, prob)} == set(tilings)
    up = mirror_orbits(prob, tilings)
    assert _counts(prob) == ((len(tilings), up),) * 2


def test_a_unique_chiral_piece_breaks_only_the_rotations() -> None:
    """One L4 and one J4: a reflection turns the L4 into the J4, so the search puts the L4
    on orbit representatives of the rotations alone (or breaks on a symmetric piece)."""
    prob = TilingProblem(Board(4, 4), (piece("L4"), J4, piece("I2")), (1, 1, 4), True,
                         symmetries="mirror-pieces")  # fmt: skip
    plan = plan_count(prob)
    assert plan.broken_by in ("L4", "J4") and len(plan.group) == 8
    tilings = library_tilings(prob)
    assert _counts(prob) == ((len(tilings), mirror_orbits(prob, tilings)),) * 2
    with_x = TilingProblem(Board(5, 5), (piece("X5"), piece("L4"), J4, piece("I3"),
                                         piece("I1")), (1, 1, 1, 2, 6), True,
                           symmetries="mirror-pieces")  # fmt: skip
    assert plan_count(with_x).broken_by == "X5"  # its own mirror image: every symmetry
    tilings = library_tilings(with_x)
    assert _counts(with_x) == ((len(tilings), mirror_orbits(with_x, tilings)),) * 2


def test_pieces_that_may_be_turned_over_count_as_with_the_board() -> None:
    prob = TilingProblem(Board(3, 20), piece_set("pentominoes"), symmetries="mirror-pieces")
    assert prob.mirror_twins() == tuple(range(12))
    assert _counts(prob) == ((8, 2),) * 2


# -- a published count -----------------------------------------------------------------------


def one_sided_pentominoes() -> tuple[Polyomino, ...]:
    """The 18 one-sided pentominoes: the 12 and the mirror images of the 6 chiral ones."""
    pent = piece_set("pentominoes")
    chiral = [p for p in pent if p.transform(4).canonical_one_sided() != p.canonical_one_sided()]
    return pent + tuple(p.transform(4).named(p.name + "'") for p in chiral)


def test_one_sided_pentominoes_3x30_match_the_published_count() -> None:
    """46 solutions (Polyform Puzzler, ``OneSidedPentominoes3x30``: mirror images with the
    letters' cases swapped are the same solution); with rotations alone, twice that."""
    types = one_sided_pentominoes()
    assert len(types) == 18
    prob = TilingProblem(Board(3, 30), types, one_sided=True, symmetries="mirror-pieces")
    assert _counts(prob) == ((184, 46),) * 2
    rotations = TilingProblem(Board(3, 30), types, one_sided=True)
    assert count_tiling(rotations).count_up_to_symmetry == 92


def test_one_sided_tetrominoes_tile_no_rectangle() -> None:
    for rows, cols in ((4, 7), (2, 14)):
        prob = TilingProblem(Board(rows, cols), ONE_SIDED_4, one_sided=True,
                             symmetries="mirror-pieces")  # fmt: skip
        assert count_tiling(prob).count == 0


# -- sets that cannot have it ----------------------------------------------------------------


def test_sets_without_every_twin_are_refused_by_name() -> None:
    board = Board(4, 4)
    with pytest.raises(SymmetryError, match="Z4 has no mirror twin"):
        TilingProblem(board, (piece("L4"), J4, piece("Z4"), piece("O4")), (1, 1, 1, 1), True,
                      symmetries="mirror-pieces")  # fmt: skip
    with pytest.raises(SymmetryError, match=r"L4 \(2 copies\) and its twin J4 \(1 copy\)"):
        TilingProblem(board, (piece("L4"), J4, piece("I4")), (2, 1, 1), True,
                      symmetries="mirror-pieces")  # fmt: skip
    with pytest.raises(SymmetryError, match=r"L4 \(0-2 copies\) and its twin J4 \(2 copies"):
        TilingProblem(board, (piece("L4"), J4, piece("O4")), (2, 2, 2), True, low=(0, 2, 0),
                      symmetries="mirror-pieces")  # fmt: skip
    with pytest.raises(SymmetryError, match="in choice 1"):  # a twin outside the choice
        TilingProblem(board, (piece("L4"), J4, piece("O4")), (2, 2, 4), True, low=(0, 2, 0),
                      groups=(PieceGroup((0, 2), 0, 4),), symmetries="mirror-pieces")  # fmt: skip
    with pytest.raises(SymmetryError, match="colour rules"):
        TilingProblem(board, (piece("L4"), J4), (2, 2), True, Coloring((0, 0), 1),
                      symmetries="mirror-pieces")  # fmt: skip
    # the same sets are counted under the board's rotations as before
    TilingProblem(board, (piece("L4"), J4, piece("Z4"), piece("O4")), (1, 1, 1, 1), True)


# -- random boards ---------------------------------------------------------------------------

# one-sided families of at most 4 squares: a symmetric piece alone, or a piece and its twin
FAMILIES = [(piece("I1"),), (piece("I2"),), (piece("I3"),), (piece("V3"),), (piece("O4"),),
            (piece("T4"),), (piece("I4"),), (piece("L4"), J4), (piece("Z4"), S4)]  # fmt: skip


@st.composite
def mirror_closed_problems(draw: st.DrawFn) -> TilingProblem:
    """A one-sided set closed under mirroring (each twin with its piece's supply) on a small
    board whose holes are often symmetric, so that reflections are in its group."""
    rows, cols = draw(st.integers(2, 5)), draw(st.integers(2, 5))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    blocked = set(draw(st.lists(st.sampled_from(cells), max_size=3, unique=True)))
    if draw(st.booleans()):
        mirrors = [4, 5] + ([6, 7] if rows == cols else [])
        k = draw(st.sampled_from(mirrors))
        blocked |= {Board(rows, cols).map_cell(k, r, c) for r, c in blocked}
    families = draw(st.lists(st.sampled_from(FAMILIES), min_size=1, max_size=3, unique=True))
    types, counts, low = [], [], []
    for family in families:
        count = draw(st.integers(1, 4))
        least = draw(st.integers(0, count))
        types += family
        counts += [count] * len(family)
        low += [least] * len(family)
    groups: tuple[PieceGroup, ...] = ()
    if len(families) >= 2 and draw(st.booleans()):  # a choice of whole families
        members = tuple(range(len(families[0]) + len(families[1])))
        for t in members:
            low[t] = 0
        most = sum(counts[t] for t in members)
        least = draw(st.integers(0, most))
        groups = (PieceGroup(members, least, draw(st.integers(least, most))),)
    try:
        return TilingProblem(Board(rows, cols, frozenset(blocked)), tuple(types), tuple(counts),
                             True, low=tuple(low), groups=groups,
                             symmetries="mirror-pieces")  # fmt: skip
    except BoardError:
        assume(False)
        raise


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mirror_closed_problems())
def test_random_boards_against_the_orbits_of_every_solution(prob: TilingProblem) -> None:
    b = prob.board
    every = brute_tilings(b.rows, b.cols, b.blocked, [t.cells for t in prob.types],
                          prob.counts, True)  # fmt: skip
    assume(len(every) <= 5_000)
    want = [t for t in every if _supplied(t, prob)]
    assert _counts(prob) == ((len(want), mirror_orbits(prob, want)),) * 2


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mirror_closed_problems())
def test_fixed_tilings_by_folding_equal_the_search(prob: TilingProblem) -> None:
    """Fix(g) with the twins swapped: on the board folded by g, and by the search over
    orbits of placements."""
    for k in prob.group():
        if k == 0:
            continue
        try:
            layout = fixed_layout(prob, k)
        except FrontierUnsupported:
            continue  # quarter turns of wide squares: the search counts those
        assert count_frontier(layout).count == count_task(Task(prob, k, ())).count, k
