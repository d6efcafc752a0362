"""City Blocks best layouts: the CP-SAT model against brute force, the bound, the start board."""

from __future__ import annotations

import pytest

from polytile import Board, piece
from polytile.board import placements
from polytile.errors import BoardError, UnknownNameError
from polytile.formats import Position
from polytile.geometry import piece_set
from polytile.models.cityblocks import (
    LayoutModel,
    add_counted_area,
    add_first_piece,
    add_free_edges,
    greedy_placements,
    placement_edges,
)
from polytile.models.cpsat import add_piece_at_most_once
from polytile.puzzles.cityblocks.maximum import (
    CENTRE_SQUARES,
    max_layout,
    start_cells,
    starting_rows,
    theoretical_bound,
)
from polytile.solvers.cpsat import solve

LETTERS = {"blue": "B", "yellow": "Y", "red": "R", "green": "G"}
STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


# -- an independent scorer and enumerator (no polytile code) ---------------------------------
def score_of(rows, letter):
    """(area, free) of a colour, straight from the rules text."""
    h, w = len(rows), len(rows[0])
    mine = [(r, c) for r in range(h) for c in range(w) if rows[r][c] == letter]
    free = 0
    for r, c in mine:
        for dr, dc in STEPS:
            rr, cc = r + dr, c + dc
            if 0 <= rr < h and 0 <= cc < w and rows[rr][cc] == ".":
                free += 1
    left = set(mine)
    largest = 0
    while left:
        stack = [left.pop()]
        size = 0
        while stack:
            r, c = stack.pop()
            size += 1
            for dr, dc in STEPS:
                if (r + dr, c + dc) in left:
                    left.remove((r + dr, c + dc))
                    stack.append((r + dr, c + dc))
        largest = max(largest, size)
    return (largest if largest >= 2 else 0), free


def shapes_of(cells):
    out = set()
    pts = list(cells)
    for _flip in range(2):
        pts = [(r, -c) for r, c in pts]
        for _turn in range(4):
            pts = [(c, -r) for r, c in pts]
            r0 = min(r for r, _ in pts)
            c0 = min(c for _, c in pts)
            out.add(tuple(sorted((r - r0, c - c0) for r, c in pts)))
    return sorted(out)


def brute_best(rows, letter, names, start, first_placed):
    """Best (score, area, free) over every legal layout of a subset of the pieces."""
    h, w = len(rows), len(rows[0])
    options = []
    for name in names:
        opts = []
        for shape in shapes_of(piece(name).cells):
            for r0 in range(h):
                for c0 in range(w):
                    cs = [(r0 + r, c0 + c) for r, c in shape]
                    if all(0 <= r < h and 0 <= c < w and rows[r][c] == "." for r, c in cs):
                        opts.append(cs)
        options.append(opts)
    best = {"score": -1, "area": -1, "free": -1}
    grid = [list(r) for r in rows]
    count = 0

    def rec(k, covers_start, placed_any):
        nonlocal count
        if k == len(options):
            if placed_any and not first_placed and not covers_start:
                return
            count += 1
            area, free = score_of(["".join(g) for g in grid], letter)
            for key, v in (("score", area + free), ("area", area), ("free", free)):
                best[key] = max(best[key], v)
            return
        rec(k + 1, covers_start, placed_any)
        for cs in options[k]:
            if all(grid[r][c] == "." for r, c in cs):
                for r, c in cs:
                    grid[r][c] = letter
                rec(k + 1, covers_start or start in cs, True)
                for r, c in cs:
                    grid[r][c] = "."

    rec(0, False, False)
    return best, count


CASES = [
    # rows, colour, hand, start
    (["....", ".BY.", ".GR.", "...."], "blue", ["I2", "V3"], (0, 0)),
    (["....", ".BY.", ".GR.", "...."], "red", ["I3", "I2"], (3, 3)),
    (["B...", "..Y.", ".R..", "...."], "blue", ["I2", "V3", "I2"], (0, 0)),  # first placed
    ([".....", ".B...", "..Y..", "....."], "blue", ["L4", "I2", "V3"], (0, 0)),
    (["Y...", ".B..", "...."], "blue", ["I2", "V3"], (0, 0)),  # start taken: no piece at all
    (["....", "....", "...."], "green", ["I2", "I2", "V3"], (2, 0)),  # no centre square
]


@pytest.mark.parametrize("plain", [False, True], ids=["bound+hint", "cpsat-alone"])
@pytest.mark.parametrize("objective", ["score", "area", "free"])
@pytest.mark.parametrize(("rows", "color", "hand", "start"), CASES)
def test_optimum_agrees_with_brute_force(rows, color, hand, start, objective, plain):
    letter = LETTERS[color]
    first_placed = rows[start[0]][start[1]] == letter
    best, count = brute_best(rows, letter, hand, start, first_placed)
    assert count >= 1
    r = max_layout(color, objective, position=rows, hand=hand, start=start, workers=1,
                   time_limit=60, use_bound=not plain, hint=not plain)  # fmt: skip
    assert r.status == "optimal"
    assert r.value == best[objective]
    assert r.bound == r.value
    if plain:
        assert r.proof == "search"  # the model alone, no closed-form help
    # The closed-form bound is an upper bound of every layout, for every objective.
    b = theoretical_bound(color, rows, hand, start)
    assert b.score >= best["score"]
    assert b.area >= best["area"]
    assert b.free >= best["free"]
    # The layout itself is legal and measured right, by the independent scorer.
    after = r.rows
    area, free = score_of(after, letter)
    assert {"score": area + free, "area": area, "free": free}[objective] == r.value
    assert (r.area, r.free) == (area, free)
    _check_layout(rows, after, letter, r.solution.placements, hand, start)


def _check_layout(before, after, letter, placed, hand, start):
    """No overlap, shapes from the hand (each once), first piece on the start cell."""
    grid = [list(r) for r in before]
    left = list(hand)
    for pp in placed:
        assert pp.piece in left
        left.remove(pp.piece)
        r0 = min(r for r, _ in pp.cells)
        c0 = min(c for _, c in pp.cells)
        assert tuple(sorted((r - r0, c - c0) for r, c in pp.cells)) in shapes_of(
            piece(pp.piece).cells
        )
        for r, c in pp.cells:
            assert grid[r][c] == "."
            grid[r][c] = letter
    assert ["".join(g) for g in grid] == list(after)
    if placed and before[start[0]][start[1]] != letter:
        assert any(start in pp.cells for pp in placed)


# -- the starting board ----------------------------------------------------------------------
def test_theoretical_bound_on_the_starting_board():
    for color in LETTERS:
        b = theoretical_bound(color)
        assert (b.score, b.area, b.free) == (261, 89, 211)
        assert b.terms["perimeters"] == 212
        assert b.terms["first_extra"] == 3
        assert "261" in b.explain()


def test_starting_rows():
    rows = starting_rows()
    assert len(rows) == 20 and all(len(r) == 20 for r in rows)
    for color, (r, c) in CENTRE_SQUARES.items():
        assert rows[r][c] == LETTERS[color]
        assert score_of(rows, LETTERS[color]) == (0, 2)
    assert start_cells()["red"] == (19, 19)


@pytest.mark.parametrize("color", list(LETTERS))
@pytest.mark.parametrize(("objective", "target"), [("score", 261), ("area", 89), ("free", 211)])
def test_greedy_layout_meets_the_bound(color, objective, target):
    """The constructive half of the proof: a legal layout reaching the closed-form bound."""
    rows = starting_rows()
    letter = LETTERS[color]
    blocked = frozenset((r, c) for r in range(20) for c in range(20) if rows[r][c] != ".")
    hand = piece_set("cityblocks")
    pl = placements(Board(20, 20, blocked), hand)
    own = [CENTRE_SQUARES[color]]
    ids = greedy_placements(pl, own, objective, start=start_cells()[color], seed=0)
    grid = [list(r) for r in rows]
    for i in ids:
        for r, c in pl.coords_of(i):
            assert grid[r][c] == "."
            grid[r][c] = letter
    after = ["".join(g) for g in grid]
    assert start_cells()[color] in {cell for i in ids[:1] for cell in pl.coords_of(i)}
    assert sorted(int(pl.piece[i]) for i in ids) == list(range(20))
    area, free = score_of(after, letter)
    assert {"score": area + free, "area": area, "free": free}[objective] == target


@pytest.mark.parametrize(
    ("objective", "target"),
    [("score", 261), pytest.param("area", 89, marks=pytest.mark.slow),
     pytest.param("free", 211, marks=pytest.mark.slow)],
)  # fmt: skip
def test_max_layout_proves_the_starting_board(objective, target):
    r = max_layout("blue", objective, workers=2, time_limit=120)
    assert r.status == "optimal" and r.value == target == r.bound
    assert r.rows[0][0] == "B"
    assert score_of(r.rows, "B")[0 if objective == "area" else 1] >= 0
    assert sum(score_of(r.rows, "B")) == r.score


# -- positions and errors --------------------------------------------------------------------
def test_from_position_uses_its_hand():
    rows = list(starting_rows())
    rows[0] = "BBBBB" + rows[0][5:]
    pos = Position("cityblocks", tuple(rows), "blue", {"blue": ("I2", "V3", "O4")})
    r = max_layout("blue", "score", position=pos, workers=1, time_limit=60)
    assert r.status == "optimal"
    assert sorted(pp.piece for pp in r.solution.placements) == ["I2", "O4", "V3"]
    assert r.value == sum(score_of(r.rows, "B"))
    b = theoretical_bound("blue", pos)
    assert b.score == r.value  # the bound is met here too


def test_hand_must_be_given_once_pieces_are_placed():
    rows = ["B...", "....", "...."]
    with pytest.raises(BoardError, match="hand"):
        max_layout("blue", position=rows)


def test_bad_names():
    with pytest.raises(UnknownNameError):
        max_layout("purple")
    with pytest.raises(UnknownNameError):
        max_layout("blue", "height")
    with pytest.raises(BoardError):
        max_layout("blue", position=["B.", "..."], hand=["I2"])


def test_user_hint_is_used_and_checked():
    rows = ["....", "....", "...."]
    from polytile.formats import PlacedPiece

    good = [PlacedPiece("I2", ((0, 0), (0, 1)))]
    r = max_layout("blue", "free", position=rows, hand=["I2"], hint=good, workers=1)
    assert r.status == "optimal"
    with pytest.raises(BoardError):
        max_layout("blue", "free", position=rows, hand=["I2"],
                   hint=[PlacedPiece("I2", ((0, 0), (1, 1)))])  # fmt: skip


# -- the builders alone ----------------------------------------------------------------------
def _lm(rows, names, letter="B"):
    blocked = frozenset(
        (r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."
    )
    board = Board(len(rows), len(rows[0]), blocked)
    own = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == letter]
    lm = LayoutModel(placements(board, [piece(n) for n in names]), own)
    add_piece_at_most_once(lm)
    return lm


def test_placement_edges_split_the_perimeter():
    lm = _lm(["B..", "...", "..Y"], ["V3", "I2"])
    e = placement_edges(lm.placements, lm.own)
    perim = e["free"] + e["own"] + e["foreign"]
    assert set(perim[lm.placements.piece == 0]) == {8}
    assert set(perim[lm.placements.piece == 1]) == {6}


def test_free_edges_feasible_and_infeasible():
    lm = _lm(["B..", "..."], ["I2"])
    free = add_free_edges(lm)
    lm.model.add(free >= 5)  # B keeps 2, I2 on (1,1),(1,2) has 3
    assert solve(lm, workers=1).status == "feasible"
    lm = _lm(["B..", "..."], ["I2"])
    lm.model.add(add_free_edges(lm) >= 6)
    assert solve(lm, workers=1).status == "infeasible"


def test_counted_area_feasible_and_infeasible():
    lm = _lm(["B...", "....", "...."], ["I2", "I2"])
    lm.model.add(add_counted_area(lm) == 5)
    assert solve(lm, workers=1).status == "feasible"
    lm = _lm(["B...", "....", "...."], ["I2", "I2"])
    area = add_counted_area(lm)
    lm.model.add(area == 1)  # a single cell never counts
    assert solve(lm, workers=1).status == "infeasible"
    lm = _lm(["BY..", "Y..."], ["I2"])
    lm.model.add(add_counted_area(lm) >= 3)  # the domino cannot reach the B square
    assert solve(lm, workers=1).status == "infeasible"


def test_first_piece_feasible_and_infeasible():
    lm = _lm(["....", "...."], ["I2"])
    add_first_piece(lm, (0, 0))
    lm.model.add(lm.placed(0) == 1)
    r = solve(lm, workers=1)
    assert r.status == "feasible"
    assert (0, 0) in lm.placements.coords_of(r.placements[0])
    lm = _lm(["Y...", "...."], ["I2"])
    add_first_piece(lm, (0, 0))
    lm.model.add(lm.placed(0) == 1)
    assert solve(lm, workers=1).status == "infeasible"


def test_tree_cut_feasible_and_infeasible():
    from polytile.models.cityblocks import add_tree_cut

    def model():
        lm = _lm(["....", "....", "...."], ["I2", "I2"])
        add_free_edges(lm)
        area = add_counted_area(lm)
        add_tree_cut(lm)
        return lm, area

    lm, area = model()
    lm.model.add(area == 4)
    lm.model.add(sum(lm.contact.values()) == 1)  # two dominoes joined by one unit edge
    assert solve(lm, workers=1).status == "feasible"
    lm, area = model()
    lm.model.add(area == 4)
    lm.model.add(sum(lm.contact.values()) == 0)
    assert solve(lm, workers=1, parameters={"cp_model_presolve": False}).status == "infeasible"
    lm = _lm(["...."], ["I2"])
    with pytest.raises(BoardError):
        add_tree_cut(lm)
