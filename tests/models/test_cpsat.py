"""CP-SAT builders: each constraint family alone, feasible and infeasible, and solution counts
cross-checked against an independent brute force over placement choices."""

from __future__ import annotations

import itertools

import pytest

from polytile import Board, piece
from polytile.board import placements
from polytile.errors import BoardError, PolytileError
from polytile.models.cpsat import (
    PlacementModel,
    add_connected_corner_groups,
    add_cover_at_most,
    add_cover_exactly,
    add_cover_groups_at_most,
    add_local_corner_touch,
    add_no_edge_same_color,
    add_piece_at_most_once,
    add_piece_exactly_once,
    add_start_corners,
    corner_cells,
    maximize_pieces,
    maximize_squares,
)
from polytile.solvers.cpsat import enumerate_solutions, solve

# -- an independent reference: every choice of one placement (or none) per piece -------------


def _cells(pl, i):
    return {(int(r), int(c)) for r, c in pl.coords_of(i)}


def _edge(a, b):
    return any(abs(r1 - r2) + abs(c1 - c2) == 1 for r1, c1 in a for r2, c2 in b)


def _diag(a, b):
    return any(abs(r1 - r2) == 1 and abs(c1 - c2) == 1 for r1, c1 in a for r2, c2 in b)


def brute(
    pl,
    colors=None,
    *,
    optional=False,
    cover="at_most",
    no_edge=False,
    local=False,
    connected=False,
    roots=None,
    starts=None,
):
    """Sorted placement-index tuples of every solution, by trying every combination."""
    n = len(pl.pieces)
    colors = colors or [None] * n
    choices = [[int(i) for i in pl.of_piece(p)] + ([None] if optional else []) for p in range(n)]
    board = pl.board
    open_cells = {(r, c) for r in range(board.rows) for c in range(board.cols)}
    found = set()
    for combo in itertools.product(*choices):
        chosen = [i for i in combo if i is not None]
        cells = [_cells(pl, i) for i in chosen]
        flat = [c for cs in cells for c in cs]
        if len(flat) != len(set(flat)):
            continue
        if cover == "exactly" and set(flat) != open_cells:
            continue
        col = [colors[int(pl.piece[i])] for i in chosen]
        ok = True
        for a, b in itertools.combinations(range(len(chosen)), 2):
            if no_edge and col[a] is not None and col[a] == col[b] and _edge(cells[a], cells[b]):
                ok = False
        if local:
            for a in range(len(chosen)):
                if col[a] is None:
                    continue
                if not any(
                    b != a and col[b] == col[a] and _diag(cells[a], cells[b])
                    for b in range(len(chosen))
                ):
                    ok = False
        if connected:
            for k in {c for c in col if c is not None}:
                members = [a for a in range(len(chosen)) if col[a] == k]
                seen = {members[0]}
                todo = [members[0]]
                while todo:
                    a = todo.pop()
                    for b in members:
                        if b not in seen and (
                            _diag(cells[a], cells[b]) or _edge(cells[a], cells[b])
                        ):
                            seen.add(b)
                            todo.append(b)
                if len(seen) != len(members):
                    ok = False
            for k, cell in (roots or {}).items():
                if not any(col[a] == k and cell in cells[a] for a in range(len(chosen))):
                    ok = False
        for k, cell in (starts or {}).items():
            if not any(col[a] == k and cell in cells[a] for a in range(len(chosen))):
                ok = False
        if ok:
            found.add(tuple(sorted(chosen)))
    return found


def solutions(pm):
    return {tuple(s) for s in enumerate_solutions(pm)}


def status(pm):
    return solve(pm, workers=1, seed=0).status


# -- the model object ------------------------------------------------------------------------


def test_placement_model_has_one_boolean_per_placement_and_answers_questions():
    pl = placements(Board(2, 3), [piece("I2"), piece("V3")])
    pm = PlacementModel(pl, [0, 1])
    assert len(pm) == len(pl) == len(pm.x)
    assert sorted(pm.x) == list(range(len(pl)))
    assert pm.piece_ids(0) == [int(i) for i in pl.of_piece(0)]
    assert pm.colors() == [0, 1]
    covering = pm.cell_ids((0, 0))
    assert covering == [i for i in range(len(pl)) if (0, 0) in pl.coords_of(i)]
    assert pm.cell_ids((0, 0), 1) == [i for i in covering if pl.piece[i] == 1]
    assert len(pm.cell_vars(0)) == len(covering)
    assert pm.color_of(covering[0]) == int(pl.piece[covering[0]])
    stats = pm.size_stats()
    assert stats["placements"] == len(pl) and stats["variables"] >= len(pl)


def test_prefiltering_by_allowed_cells_and_keep_mask():
    pl = placements(Board(3, 3), [piece("I2")])
    left = [(r, c) for r in range(3) for c in range(2)]
    pm = PlacementModel(pl, allowed=left)
    assert len(pm) == 7  # 3 horizontal in columns 0-1, 4 vertical there
    assert all(set(pl.coords_of(i)) <= set(left) for i in pm.x)
    mask = pl.row == 0
    pm2 = PlacementModel(pl, keep=mask)
    assert sorted(pm2.x) == [int(i) for i in (mask).nonzero()[0]]
    pm3 = PlacementModel(pl, keep=[0, 1], allowed=left)
    assert sorted(pm3.x) == [i for i in (0, 1) if set(pl.coords_of(i)) <= set(left)]


def test_placement_model_rejects_bad_input():
    pl = placements(Board(2, 2), [piece("I1")])
    with pytest.raises(BoardError, match="colours given"):
        PlacementModel(pl, [0, 1])
    with pytest.raises(BoardError, match="non-negative"):
        PlacementModel(pl, [-1])
    pm = PlacementModel(pl)
    with pytest.raises(BoardError, match="outside"):
        pm.cell_vars((5, 5))
    with pytest.raises(PolytileError, match="no variable"):
        PlacementModel(pl, keep=[0]).add_hints([1])


def test_extract_and_placed():
    pl = placements(Board(1, 2), [piece("I2")])
    pm = PlacementModel(pl)
    add_piece_exactly_once(pm)
    pm.model.add(pm.placed(0) == 1)
    r = solve(pm, workers=1)
    assert r.status == "feasible" and r.placements == [0]


# -- pieces ----------------------------------------------------------------------------------


def test_piece_exactly_once_feasible_and_infeasible():
    pl = placements(Board(2, 2), [piece("I2"), piece("I1")])
    pm = PlacementModel(pl)
    add_piece_exactly_once(pm)
    add_cover_at_most(pm)
    assert solutions(pm) == brute(pl)
    assert len(solutions(pm)) == 4 * 2  # I2 in 4 places, I1 on either free cell
    big = PlacementModel(placements(Board(2, 2), [piece("I1"), piece("I5")]))
    add_piece_exactly_once(big)  # I5 has no placement
    assert status(big) == "infeasible"


def test_piece_at_most_once_feasible_and_infeasible():
    pl = placements(Board(2, 2), [piece("I2"), piece("I1")])
    pm = PlacementModel(pl)
    add_piece_at_most_once(pm)
    add_cover_at_most(pm)
    assert solutions(pm) == brute(pl, optional=True)
    one = PlacementModel(placements(Board(2, 2), [piece("I2")]))
    add_piece_at_most_once(one)
    add_cover_exactly(one)  # one domino cannot cover four cells
    assert status(one) == "infeasible"


# -- cells -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "cols", "names", "count"),
    [
        (2, 3, ["I2", "I2", "I2"], 3 * 6),  # 3 domino tilings x 3! copy assignments
        (2, 4, ["I2", "I2", "V3", "I1"], None),
        (3, 3, ["V3", "I3", "I2", "I1"], None),
    ],
)
def test_cover_exactly_counts_match_brute_force(rows, cols, names, count):
    pl = placements(Board(rows, cols), [piece(n) for n in names])
    pm = PlacementModel(pl)
    add_piece_exactly_once(pm)
    add_cover_exactly(pm)
    got = solutions(pm)
    assert got == brute(pl, cover="exactly")
    if count is not None:
        assert len(got) == count


def test_cover_exactly_infeasible_on_odd_area():
    pm = PlacementModel(placements(Board(3, 3), [piece("I2")] * 4))
    add_piece_at_most_once(pm)
    add_cover_exactly(pm)
    assert status(pm) == "infeasible"


def test_cover_exactly_on_a_board_with_a_hole():
    board = Board.from_text([".#", ".."])
    pl = placements(board, [piece("V3")])
    pm = PlacementModel(pl)
    add_piece_exactly_once(pm)
    add_cover_exactly(pm)
    assert len(solutions(pm)) == 1


def test_cover_at_most_counts_match_brute_force():
    pl = placements(Board(3, 3), [piece("V3"), piece("I2"), piece("I1")])
    pm = PlacementModel(pl)
    add_piece_at_most_once(pm)
    add_cover_at_most(pm)
    assert solutions(pm) == brute(pl, optional=True)


def test_cover_at_most_infeasible_when_pieces_must_overlap():
    pm = PlacementModel(placements(Board(1, 3), [piece("I2"), piece("I2")]))
    add_piece_exactly_once(pm)
    add_cover_at_most(pm)
    assert status(pm) == "infeasible"


def test_cover_groups_at_most():
    # Mirror pairs of a 1x4 row: {0, 3} and {1, 2}; two single squares.
    pl = placements(Board(1, 4), [piece("I1"), piece("I1")])
    groups = [[(0, 0), (0, 3)], [(0, 1), (0, 2)]]
    pm = PlacementModel(pl)
    add_piece_exactly_once(pm)
    add_cover_groups_at_most(pm, groups)
    got = solutions(pm)
    want = {
        s
        for s in brute(pl)
        if all(sum(c in g for i in s for c in _cells(pl, i)) <= 1 for g in map(set, groups))
    }
    assert got == want and len(got) == 8  # one cell from each pair, either copy first
    three = PlacementModel(placements(Board(1, 4), [piece("I1")] * 3))
    add_piece_exactly_once(three)
    add_cover_groups_at_most(three, groups)  # only two groups for three pieces
    assert status(three) == "infeasible"
    wide = PlacementModel(placements(Board(1, 4), [piece("I2")]))
    add_piece_exactly_once(wide)
    add_cover_groups_at_most(wide, [[(0, 0), (0, 1)], [(0, 2), (0, 3)], [(0, 1), (0, 2)]])
    assert status(wide) == "infeasible"  # every domino covers two cells of one group


# -- colours ---------------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["cells", "clique"])
def test_no_edge_same_color(encoding):
    pl = placements(Board(1, 3), [piece("I1"), piece("I1")])
    pm = PlacementModel(pl, [0, 0])
    add_piece_exactly_once(pm)
    add_cover_at_most(pm)
    add_no_edge_same_color(pm, encoding=encoding)
    assert solutions(pm) == brute(pl, [0, 0], no_edge=True)
    assert len(solutions(pm)) == 2  # the two ends, either copy on the left
    tight = PlacementModel(placements(Board(1, 2), [piece("I1"), piece("I1")]), [0, 0])
    add_piece_exactly_once(tight)
    add_cover_at_most(tight)
    add_no_edge_same_color(tight, encoding=encoding)
    assert status(tight) == "infeasible"
    other = PlacementModel(placements(Board(1, 2), [piece("I1"), piece("I1")]), [0, 1])
    add_piece_exactly_once(other)
    add_cover_at_most(other)
    add_no_edge_same_color(other, encoding=encoding)
    assert status(other) == "feasible"  # different colours may touch


@pytest.mark.parametrize("encoding", ["cells", "clique"])
def test_no_edge_counts_match_brute_force(encoding):
    pl = placements(Board(3, 4), [piece("V3"), piece("I2"), piece("I2"), piece("I1")])
    colors = [0, 0, 1, 1]
    pm = PlacementModel(pl, colors)
    add_piece_at_most_once(pm)
    add_cover_at_most(pm)
    add_no_edge_same_color(pm, encoding=encoding)
    assert solutions(pm) == brute(pl, colors, optional=True, no_edge=True)


def test_corner_cells_are_diagonal_but_not_edge_neighbours():
    pl = placements(Board(4, 4), [piece("I2")])
    i = next(i for i in range(len(pl)) if sorted(pl.coords_of(i)) == [(1, 1), (1, 2)])
    assert [pl.board.cell(c) for c in corner_cells(pl, i)] == [(0, 0), (0, 3), (2, 0), (2, 3)]


def test_local_corner_touch():
    pl = placements(Board(2, 2), [piece("I1"), piece("I1")])
    pm = PlacementModel(pl, [0, 0])
    add_piece_exactly_once(pm)
    add_cover_at_most(pm)
    add_no_edge_same_color(pm)
    add_local_corner_touch(pm)
    assert solutions(pm) == brute(pl, [0, 0], no_edge=True, local=True)
    assert len(solutions(pm)) == 4  # two diagonals, two ways to assign the copies
    line = PlacementModel(placements(Board(1, 3), [piece("I1"), piece("I1")]), [0, 0])
    add_piece_exactly_once(line)
    add_cover_at_most(line)
    add_local_corner_touch(line)
    assert status(line) == "infeasible"
    alone = PlacementModel(placements(Board(2, 2), [piece("I1"), piece("I1")]), [0, 1])
    add_piece_exactly_once(alone)
    add_local_corner_touch(alone)  # each colour has one piece: nothing to touch
    assert status(alone) == "infeasible"


def test_local_corner_touch_counts_match_brute_force():
    pl = placements(Board(3, 3), [piece("I2"), piece("I1"), piece("I1"), piece("I2")])
    colors = [0, 0, 1, 1]
    pm = PlacementModel(pl, colors)
    add_piece_exactly_once(pm)
    add_cover_at_most(pm)
    add_no_edge_same_color(pm)
    add_local_corner_touch(pm)
    assert solutions(pm) == brute(pl, colors, no_edge=True, local=True)


@pytest.mark.parametrize("method", ["flow", "depth"])
def test_connected_groups_differ_from_local_touch(method):
    # Four single squares of one colour on 2x5: two diagonal pairs far apart touch locally
    # but are not one group.
    pl = placements(Board(2, 5), [piece("I1")] * 4)
    colors = [0] * 4

    def base():
        pm = PlacementModel(pl, colors)
        add_piece_exactly_once(pm)
        add_cover_at_most(pm)
        add_no_edge_same_color(pm)
        add_local_corner_touch(pm)
        return pm

    local = base()
    conn = base()
    add_connected_corner_groups(conn, method=method)
    want_local = brute(pl, colors, no_edge=True, local=True)
    want_conn = brute(pl, colors, no_edge=True, local=True, connected=True)
    assert len(want_conn) < len(want_local)
    assert solutions(local) == want_local
    assert solutions(conn) == want_conn


@pytest.mark.parametrize("method", ["flow", "depth"])
@pytest.mark.parametrize(
    ("rows", "cols", "names", "colors", "optional"),
    [
        (3, 3, ["I1", "I2", "I1"], [0, 0, 0], True),
        (3, 4, ["I1", "I2", "V3"], [0, 0, 0], False),
        (3, 3, ["I1", "I1", "I1", "I1"], [0, 0, 1, 1], False),
    ],
)
def test_connected_groups_counts_match_brute_force(rows, cols, names, colors, optional, method):
    pl = placements(Board(rows, cols), [piece(n) for n in names])
    for roots in (None, {0: (0, 0)}):
        pm = PlacementModel(pl, colors)
        (add_piece_at_most_once if optional else add_piece_exactly_once)(pm)
        add_cover_at_most(pm)
        add_no_edge_same_color(pm)
        add_connected_corner_groups(pm, roots=roots, method=method)
        assert pm.free_auxiliary
        want = brute(pl, colors, optional=optional, no_edge=True, connected=True, roots=roots)
        assert want
        assert solutions(pm) == want


@pytest.mark.parametrize("method", ["flow", "depth"])
def test_connected_groups_infeasible(method):
    pm = PlacementModel(placements(Board(1, 3), [piece("I1"), piece("I1")]), [0, 0])
    add_piece_exactly_once(pm)
    add_cover_at_most(pm)
    add_no_edge_same_color(pm)
    add_connected_corner_groups(pm, method=method)  # in one row they cannot meet at a corner
    assert status(pm) == "infeasible"
    blocked = Board.from_text(["#.", ".."])
    pm2 = PlacementModel(placements(blocked, [piece("I1")]), [0])
    add_connected_corner_groups(pm2, roots={0: (0, 0)}, method=method)  # root is blocked
    assert status(pm2) == "infeasible"


def test_connected_groups_rejects_unknown_method():
    pm = PlacementModel(placements(Board(2, 2), [piece("I1")]), [0])
    with pytest.raises(BoardError, match="unknown connectivity method"):
        add_connected_corner_groups(pm, method="magic")  # type: ignore[arg-type]


def test_start_corners():
    pl = placements(Board(1, 2), [piece("I1"), piece("I1")])
    pm = PlacementModel(pl, [0, 1])
    add_piece_exactly_once(pm)
    add_cover_exactly(pm)
    add_start_corners(pm, {0: (0, 0), 1: (0, 1)})
    got = solutions(pm)
    assert got == brute(pl, [0, 1], cover="exactly", starts={0: (0, 0), 1: (0, 1)})
    assert len(got) == 1
    clash = PlacementModel(pl, [0, 1])
    add_piece_exactly_once(clash)
    add_cover_at_most(clash)
    add_start_corners(clash, {0: (0, 0), 1: (0, 0)})  # both colours on one cell
    assert status(clash) == "infeasible"


# -- objectives ------------------------------------------------------------------------------


def test_maximize_squares_and_pieces():
    pl = placements(Board(3, 3), [piece("V3"), piece("I3"), piece("O4"), piece("I1")])
    pm = PlacementModel(pl)
    add_piece_at_most_once(pm)
    add_cover_at_most(pm)
    maximize_squares(pm)
    best = max(sum(int(pl.size[i]) for i in s) for s in brute(pl, optional=True))
    r = solve(pm, workers=1)
    assert r.status == "optimal" and r.objective == best == 8
    pm2 = PlacementModel(pl)
    add_piece_at_most_once(pm2)
    add_cover_at_most(pm2)
    maximize_pieces(pm2)
    r2 = solve(pm2, workers=1)
    assert r2.status == "optimal" and r2.objective == max(len(s) for s in brute(pl, optional=True))
