"""The "eighty-four" rules check against crafted bad answers, and the solvers against it."""

from __future__ import annotations

from collections import deque
from dataclasses import replace

import numpy as np
import pytest

from polytile.errors import BoardError, SolverError
from polytile.formats import COLORS, PlacedPiece, Solution
from polytile.geometry import Polyomino, piece_set
from polytile.puzzles.blokus.eighty_four import (
    Layout,
    SearchProgress,
    greedy_start,
    layout_model,
    play_order,
    rotate,
    solve_eighty_four,
    solve_one_color,
    symmetric_layout,
)
from polytile.puzzles.blokus.teasers import START_CORNERS, check_eighty_four, check_one_color

# A known answer (found once by solve_eighty_four, kept as data so that the checker tests do
# not depend on the solver). Same-colour pieces never share an edge, so the pieces are the
# edge-connected regions of each letter.
GRID = [
    "B..YYYYYBBBBGYYYY.YY",
    "BBB.BRRRYYYBGGBBBYY.",
    ".B.BBBR.YBBGBGBB..Y.",
    "BG.RBRBBYBBGBBGGGY.R",
    "BGGR.RRBBYYYBYG.YYYR",
    "BGGRR.BRBY.YBY.GGYGR",
    "BRRGBBB.RBBBYYYGYGGR",
    "RRGGGGBGRGGBB.GYY.GR",
    "GGRRBBGGRGBGGGYYRRRY",
    "GBGGB.GRGGBBBYRRYYRY",
    "GBGGBBGRRRYYBY.RYYRY",
    "GBBBGGYYYRYBYYRRBBYY",
    "BY.GGY.RRYYBYRYYYYBB",
    "BYYGYGGGRRRB.RRRYBBR",
    "BYGYY.GRG.GRBR.BBYYR",
    "BGGG.YGRGGGRRBB.BYYR",
    "B.GYYYRRYRRGRRBRB.YR",
    ".G..RRYRYRRG.BRRR.R.",
    ".GGRRRYYRGGGBBBR.RRR",
    "GG.GGGGYRRRRGGGGG..R",
]
LETTERS = {letter: name for name, letter in COLORS.items()}
SHAPES = {p.canonical(): p.name for p in piece_set("blokus")}
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def grid_answer(grid):
    """The answer drawn in ``grid`` and a play order found here by breadth-first search."""
    seen = set()
    by_color = {name: [] for name in COLORS}
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch == "." or (r, c) in seen:
                continue
            region, todo = [], [(r, c)]
            seen.add((r, c))
            while todo:
                y, x = todo.pop()
                region.append((y, x))
                for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    n = (y + dy, x + dx)
                    if (
                        n not in seen
                        and 0 <= n[0] < 20
                        and 0 <= n[1] < 20
                        and grid[n[0]][n[1]] == ch
                    ):
                        seen.add(n)
                        todo.append(n)
            name = SHAPES[Polyomino(tuple(region)).canonical()]
            by_color[LETTERS[ch]].append(PlacedPiece(name, tuple(sorted(region)), LETTERS[ch]))
    placed, orders = [], []
    for color, pieces in by_color.items():
        owner = {cell: i for i, p in enumerate(pieces) for cell in p.cells}
        root = owner[START_CORNERS[color]]
        order, todo = [root], deque([root])
        while todo:
            i = todo.popleft()
            for r, c in pieces[i].cells:
                for dr, dc in DIAGONAL:
                    j = owner.get((r + dr, c + dc))
                    if j is not None and j not in order:
                        order.append(j)
                        todo.append(j)
        orders.append([len(placed) + j for j in order])
        placed.extend(pieces)
    order = [orders[k][t] for t in range(21) for k in range(4)]
    return Solution("eighty-four", 20, 20, tuple(placed)), order


@pytest.fixture(scope="module")
def answer():
    return grid_answer(GRID)


def find(solution, color, name):
    return next(
        i for i, p in enumerate(solution.placements) if p.color == color and p.piece == name
    )


def with_placement(solution, i, **changes):
    places = list(solution.placements)
    places[i] = replace(places[i], **changes)
    return replace(solution, placements=tuple(places))


# -- the checker -----------------------------------------------------------------------------


def test_known_answer_passes(answer):
    solution, order = answer
    assert len(solution.placements) == 84
    assert check_eighty_four(solution, order) == []


def test_wrong_board_size(answer):
    solution, order = answer
    reasons = check_eighty_four(replace(solution, rows=21), order)
    assert reasons == ["the board is 21x20, expected 20x20"]


def test_cell_outside_the_board(answer):
    solution, order = answer
    i = find(solution, "yellow", "I1")
    bad = with_placement(solution, i, cells=((20, 5),))
    reasons = check_eighty_four(bad, order)
    assert f"placement {i} (yellow I1): cells [(20, 5)] lie outside the 20x20 board" in reasons


def test_overlap(answer):
    solution, order = answer
    i = find(solution, "blue", "I1")
    j = find(solution, "red", "X5")
    target = solution.placements[j].cells[0]
    reasons = check_eighty_four(with_placement(solution, i, cells=(target,)), order)
    assert i < j
    assert f"placement {j} (red X5): overlaps placement {i} at cell {target}" in reasons


def test_wrong_piece_set_and_shape(answer):
    solution, order = answer
    i = find(solution, "green", "I2")
    bad = with_placement(solution, i, piece="I1")
    reasons = check_eighty_four(bad, order)
    assert f"placement {i} (green I1): its cells do not form piece I1" in reasons
    assert "green: pieces not placed: I2" in reasons
    assert "green: pieces beyond its set of 21: I1" in reasons
    assert len(reasons) == 3


def test_missing_piece_and_short_order(answer):
    solution, order = answer
    i = find(solution, "red", "W5")
    places = solution.placements[:i] + solution.placements[i + 1 :]
    bad = replace(solution, placements=places)
    renumber = [j - (j > i) for j in order if j != i]
    reasons = check_eighty_four(bad, renumber)
    assert "red: pieces not placed: W5" in reasons
    assert "order has 83 turns, expected 84 (B, Y, R, G repeating, no passes)" in reasons


def test_unknown_colour_and_piece(answer):
    solution, order = answer
    i = find(solution, "blue", "I3")
    bad = with_placement(solution, i, color="purple", piece="Q9")
    reasons = check_eighty_four(bad, order)
    assert f"placement {i} (purple Q9): colour 'purple' is not one of blue, yellow, red, green" in (
        reasons
    )
    assert f"placement {i} (purple Q9): unknown piece name 'Q9'" in reasons
    assert "blue: pieces not placed: I3" in reasons
    assert any("it is blue's turn, not purple's" in r for r in reasons)


def test_same_colour_edge_contact(answer):
    solution, order = answer
    # Recolour a yellow piece that shares an edge with some blue piece; swap a blue piece of
    # the same shape to yellow so the piece sets stay right.
    owner = {cell: i for i, p in enumerate(solution.placements) for cell in p.cells}
    for i, p in enumerate(solution.placements):  # noqa: B007 - i is used after the loop
        if p.color != "yellow":
            continue
        touching = {
            owner.get((r + dr, c + dc))
            for r, c in p.cells
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
        }
        blue = [j for j in touching if j is not None and solution.placements[j].color == "blue"]
        if blue:
            break
    twin = find(solution, "blue", p.piece)
    bad = with_placement(with_placement(solution, i, color="blue"), twin, color="yellow")
    reasons = check_eighty_four(bad, order)
    a, b = sorted((i, blue[0]))
    assert any(
        r.startswith(f"placement {a} (")
        and f"and placement {b} (blue" in r
        and "share an edge" in r
        for r in reasons
    ), reasons


def test_start_corner_and_first_move(answer):
    solution, order = answer
    # Swap blue's first two turns: its first piece then misses (0, 0).
    bad_order = list(order)
    bad_order[0], bad_order[4] = bad_order[4], bad_order[0]
    reasons = check_eighty_four(solution, bad_order)
    first = solution.placements[bad_order[0]]
    assert reasons == [
        f"turn 0 (placement {bad_order[0]} (blue {first.piece})): blue's first piece does not "
        "cover its start corner (0, 0)"
    ]
    # Take the corner away altogether: no blue piece covers it.
    i = find(solution, "blue", "F5")  # the piece on (0, 0) in GRID
    assert (0, 0) in solution.placements[i].cells
    moved = tuple((r + 20, c) for r, c in solution.placements[i].cells)
    reasons = check_eighty_four(with_placement(solution, i, cells=moved), order)
    assert "blue: no blue piece covers its start corner (0, 0)" in reasons


def test_turn_out_of_colour_order(answer):
    solution, order = answer
    bad_order = list(order)
    bad_order[4], bad_order[5] = bad_order[5], bad_order[4]  # yellow before blue in round 2
    reasons = check_eighty_four(solution, bad_order)
    assert any(r.startswith("turn 4 (") and "it is blue's turn, not yellow's" in r for r in reasons)
    assert any(r.startswith("turn 5 (") and "it is yellow's turn, not blue's" in r for r in reasons)


def test_piece_played_before_it_touches_anything(answer):
    solution, order = answer
    blue_turns = [t for t in range(84) if t % 4 == 0]
    last = order[blue_turns[-1]]
    bad_order = list(order)
    # Blue's last piece second: it cannot touch only the corner piece (it is far away).
    bad_order.remove(last)
    bad_order.insert(4, last)
    bad_order.remove(order[4])
    bad_order.insert(blue_turns[-1], order[4])
    reasons = check_eighty_four(solution, bad_order)
    label = f"turn 4 (placement {last} (blue {solution.placements[last].piece}))"
    assert f"{label}: does not touch an earlier blue piece at a corner" in reasons


def test_disconnected_piece(answer):
    solution, order = answer
    i = find(solution, "blue", "I1")
    taken = {c for p in solution.placements for c in p.cells}
    blue = {c for p in solution.placements if p.color == "blue" for c in p.cells}
    free = next(
        (r, c)
        for r in range(20)
        for c in range(20)
        if (r, c) not in taken
        and not any((r + dr, c + dc) in blue for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    )
    reasons = check_eighty_four(with_placement(solution, i, cells=(free,)), order)
    cut = next(r for r in reasons if r.startswith("blue: pieces ["))
    assert f" {i}," in cut.replace("[", " ").replace("]", ",")
    assert cut.endswith("are not corner-connected to the group on its start corner (0, 0)")
    t = order.index(i)
    assert (
        f"turn {t} (placement {i} (blue I1)): does not touch an earlier blue piece at a corner"
        in (reasons)
    )


def test_disconnected_group_message_is_precise():
    pieces = (PlacedPiece("I1", ((0, 0),), "blue"), PlacedPiece("I2", ((5, 5), (5, 6)), "blue"))
    reasons = check_one_color(Solution("one", 14, 14, pieces), [0, 1], 14)
    assert "blue: pieces [1] are not corner-connected to the group on its start corner (0, 0)" in (
        reasons
    )
    assert "turn 1 (placement 1 (blue I2)): does not touch an earlier blue piece at a corner" in (
        reasons
    )
    assert "order has 2 turns, expected 21 (B repeating)" in reasons


def test_bad_order_entries(answer):
    solution, order = answer
    bad_order = [*order[:-2], order[0], 99]
    reasons = check_eighty_four(solution, bad_order)
    assert f"turn 82: placement {order[0]} was already played" in reasons
    assert "turn 83: 99 is not a placement index (0 to 83)" in reasons
    assert any(r.startswith("placements never played: ") for r in reasons)


def test_rotation_symmetry_of_the_known_answer(answer):
    solution, _ = answer
    cells = {(c, p.color) for p in solution.placements for c in p.cells}
    names = list(COLORS)
    for cell, color in cells:
        nxt = names[(names.index(color) + 1) % 4]
        assert (rotate(cell), nxt) in cells


# -- the one-colour variant ------------------------------------------------------------------


def test_one_colour_checker():
    blue = [p for p in grid_answer(GRID)[0].placements if p.color == "blue"]
    sol = Solution("one", 20, 20, tuple(blue))
    order = play_order([p.cells for p in blue], (0, 0))
    assert check_one_color(sol, order, board_size=20) == []
    reasons = check_one_color(sol, order, board_size=14)
    assert "the board is 20x20, expected 14x14" in reasons
    assert any("lie outside the 14x14 board" in r for r in reasons)


# -- the solvers -----------------------------------------------------------------------------


def test_solve_eighty_four_returns_a_checked_answer():
    seen = []
    solution, order = solve_eighty_four(seed=3, time_limit=120, workers=2, progress=seen.append)
    assert check_eighty_four(solution, order) == []
    assert solution.extra["order"] == order
    assert [solution.placements[i].color for i in order[:4]] == list(COLORS)
    assert seen and isinstance(seen[-1], SearchProgress) and seen[-1].last == "feasible"
    # blue is turned onto yellow, red and green
    blue = {c for p in solution.placements if p.color == "blue" for c in p.cells}
    red = {c for p in solution.placements if p.color == "red" for c in p.cells}
    assert red == {rotate(c, times=2) for c in blue}


def test_solve_one_color_returns_a_checked_answer():
    solution, order = solve_one_color(14, seed=0, time_limit=120, workers=2)
    assert check_one_color(solution, order, 14) == []
    assert len(solution.placements) == 21


def test_time_limit_raises():
    with pytest.raises(SolverError, match="no layout found"):
        solve_eighty_four(seed=0, time_limit=1e-6)


def test_seed_accepts_a_generator():
    solution, order = solve_one_color(14, seed=np.random.default_rng(5), workers=1)
    assert check_one_color(solution, order, 14) == []


def test_rotate_maps_the_start_corners_in_turn_order():
    corners = list(START_CORNERS.values())
    assert [rotate(corners[0], times=k) for k in range(4)] == corners
    assert rotate((3, 5), 20, 4) == (3, 5)


def test_play_order_rejects_disconnected_pieces():
    with pytest.raises(SolverError, match="not one corner-connected group"):
        play_order([[(0, 0)], [(5, 5)]], (0, 0))
    with pytest.raises(SolverError, match="no piece covers"):
        play_order([[(1, 1)]], (0, 0))
    assert play_order([[(1, 1)], [(0, 0)], [(2, 2)]], (0, 0)) == [1, 0, 2]


def test_layout_validation():
    with pytest.raises(BoardError):
        Layout(3, (0, 0))
    layout = symmetric_layout()
    assert layout.budget == 11  # 100 orbits, 89 cells
    assert len(layout.groups()) == 100
    bad = next(i for i in range(len(layout.placements)) if i not in set(layout.ids))
    with pytest.raises(BoardError, match="not usable"):
        layout_model(layout, [bad])


def test_greedy_start_plays_legal_distinct_orbit_moves():
    layout = symmetric_layout()
    start = greedy_start(layout, 8, seed=4)
    assert start == greedy_start(layout, 8, seed=4)  # repeatable
    pl = layout.placements
    pieces = [pl.coords_of(i) for i in start]
    assert len({int(pl.piece[i]) for i in start}) == 8
    assert (0, 0) in pieces[0]
    cells = [c for p in pieces for c in p]
    orbits = [min(rotate(c, times=k) for k in range(4)) for c in cells]
    assert len(set(orbits)) == len(cells)  # the four turned copies never meet
    for t in range(1, 8):
        earlier = {c for p in pieces[:t] for c in p}
        near = {(r + dr, c + dc) for r, c in pieces[t] for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
        edge = {
            (r + dr, c + dc) for r, c in pieces[t] for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
        }
        assert near & earlier and not edge & earlier
