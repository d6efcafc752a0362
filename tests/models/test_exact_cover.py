"""Exact cover formulations (polytile.models.exact_cover) against independent brute force."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polytile import Board, piece, piece_set
from polytile.errors import FormatError, UnknownNameError
from polytile.models.exact_cover import ExactCoverProblem, from_sets, tiling_problem
from polytile.solvers.xcc import count, first, is_unique, solve, split

# -- an independent reference tiler: orientations and placements computed here ---------------


def orientations(cells, one_sided):
    maps = [lambda r, c: (r, c), lambda r, c: (c, -r), lambda r, c: (-r, -c), lambda r, c: (-c, r)]
    if not one_sided:
        maps += [
            lambda r, c: (r, -c),
            lambda r, c: (c, r),
            lambda r, c: (-r, c),
            lambda r, c: (-c, -r),
        ]
    shapes = set()
    for f in maps:
        moved = [f(r, c) for r, c in cells]
        r0 = min(r for r, _ in moved)
        c0 = min(c for _, c in moved)
        shapes.add(frozenset((r - r0, c - c0) for r, c in moved))
    return shapes


def all_placements(rows, cols, blocked, cells, one_sided):
    found = set()
    for shape in orientations(cells, one_sided):
        for dr in range(rows):
            for dc in range(cols):
                moved = frozenset((r + dr, c + dc) for r, c in shape)
                if all(0 <= r < rows and 0 <= c < cols and (r, c) not in blocked for r, c in moved):
                    found.add(moved)
    return sorted(found, key=sorted)


def touching(a, b):
    return any((r + dr, c + dc) in b for r, c in a for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)))


def brute_force(
    rows,
    cols,
    blocked,
    shapes,
    *,
    one_sided=False,
    optional=(),
    reusable=(),
    cover="exact",
    colors=None,
    no_edge=False,
):
    """Every solution as a frozenset of (key, cells); key is the piece index, or for a
    reusable piece ("R", colour) since its copies are interchangeable."""
    n = len(shapes)
    colors = colors if colors and no_edge else [None] * n
    places = [all_placements(rows, cols, blocked, s, one_sided) for s in shapes]
    open_cells = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in blocked]

    def key(p):
        return ("R", colors[p]) if p in reusable else p

    def ok(chosen):
        if not no_edge:
            return True
        return not any(
            colors[p] is not None and colors[p] == colors[q] and touching(a, b)
            for i, (p, a) in enumerate(chosen)
            for q, b in chosen[i + 1 :]
        )

    results = set()
    if cover == "exact":
        used = [0] * n
        covered: set = set()
        chosen: list = []

        def rec():
            empty = next((x for x in open_cells if x not in covered), None)
            if empty is None:
                if all(used[p] or p in optional or p in reusable for p in range(n)) and ok(chosen):
                    results.add(frozenset((key(p), a) for p, a in chosen))
                return
            for p in range(n):
                if used[p] and p not in reusable:
                    continue
                for a in places[p]:
                    if empty in a and not (a & covered):
                        used[p] += 1
                        covered.update(a)
                        chosen.append((p, a))
                        rec()
                        chosen.pop()
                        covered.difference_update(a)
                        used[p] -= 1

        rec()
    else:

        def rec_pack(p, covered, chosen):
            if p == n:
                if ok(chosen):
                    results.add(frozenset((key(q), a) for q, a in chosen))
                return
            if p in optional:
                rec_pack(p + 1, covered, chosen)
            for a in places[p]:
                if not (a & covered):
                    rec_pack(p + 1, covered | a, [*chosen, (p, a)])

        rec_pack(0, frozenset(), [])
    return results


def solver_solutions(problem, reusable=(), colors=None, no_edge=False):
    pl = problem.placements
    colors = colors if colors and no_edge else [None] * len(pl.pieces)
    out = []
    for sol in solve(problem):
        assert problem.is_solution(sol)
        entries = []
        for k in problem.decode(sol):
            p = int(pl.piece[k])
            entries.append((("R", colors[p]) if p in reusable else p, frozenset(pl.coords_of(k))))
        out.append(frozenset(entries))
    return out


SMALL = ["I1", "I2", "I3", "V3", "I4", "O4", "T4", "L4", "Z4"]


@st.composite
def tiling_cases(draw):
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, 4))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    blocked = frozenset(draw(st.lists(st.sampled_from(cells), max_size=3)))
    names = draw(st.lists(st.sampled_from(SMALL), min_size=1, max_size=4))
    n = len(names)
    cover = draw(st.sampled_from(["exact", "pack"]))
    optional = draw(st.sets(st.integers(0, n - 1)))
    # Reusable pieces multiply the tilings; keep those boards small for the brute force.
    small = rows * cols <= 9
    reusable = draw(st.sets(st.integers(0, n - 1))) if cover == "exact" and small else set()
    colors = draw(st.lists(st.sampled_from([None, "red", "blue"]), min_size=n, max_size=n))
    no_edge = draw(st.booleans())
    one_sided = draw(st.booleans())
    return rows, cols, blocked, names, cover, optional, reusable, colors, no_edge, one_sided


@settings(max_examples=200, deadline=None)
@given(tiling_cases())
def test_tilings_equal_brute_force(case):
    rows, cols, blocked, names, cover, optional, reusable, colors, no_edge, one_sided = case
    pieces = [piece(name) for name in names]
    problem = tiling_problem(
        Board(rows, cols, blocked),
        pieces,
        one_sided=one_sided,
        optional_pieces=optional,
        reusable=reusable,
        cover=cover,
        colors=colors,
        no_edge_same_color=no_edge,
    )
    expected = brute_force(
        rows,
        cols,
        blocked,
        [p.cells for p in pieces],
        one_sided=one_sided,
        optional=optional,
        reusable=reusable,
        cover=cover,
        colors=colors,
        no_edge=no_edge,
    )
    found = solver_solutions(problem, reusable, colors, no_edge)
    assert len(found) == len(set(found))
    assert set(found) == expected
    assert count(problem).count == len(expected)


@st.composite
def coloured_cases(draw):
    """Cases where the same-colour rule matters: every piece coloured, two or three colours."""
    rows = draw(st.integers(2, 3))
    cols = draw(st.integers(2, 4))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    blocked = frozenset(draw(st.lists(st.sampled_from(cells), max_size=2)))
    names = draw(st.lists(st.sampled_from(["I1", "I2", "I3", "V3"]), min_size=2, max_size=4))
    n = len(names)
    colors = draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=n, max_size=n))
    if draw(st.booleans()):
        return rows, cols, blocked, names, "exact", set(), set(range(n)), colors
    return rows, cols, blocked, names, "pack", draw(st.sets(st.integers(0, n - 1))), set(), colors


@settings(max_examples=150, deadline=None)
@given(coloured_cases())
def test_no_edge_same_colour_equals_brute_force(case):
    rows, cols, blocked, names, cover, optional, reusable, colors = case
    pieces = [piece(name) for name in names]
    problem = tiling_problem(
        Board(rows, cols, blocked),
        pieces,
        optional_pieces=optional,
        reusable=reusable,
        cover=cover,
        colors=colors,
        no_edge_same_color=True,
    )
    expected = brute_force(
        rows,
        cols,
        blocked,
        [p.cells for p in pieces],
        optional=optional,
        reusable=reusable,
        cover=cover,
        colors=colors,
        no_edge=True,
    )
    found = solver_solutions(problem, reusable, colors, True)
    assert set(found) == expected and len(found) == len(expected)


# -- fixed tilings ------------------------------------------------------------------------------

HOLEY = Board.from_text(
    """
    .....
    .#...
    ...#.
    .....
    """
)


@pytest.mark.parametrize(
    ("board", "names", "kwargs"),
    [
        (HOLEY, ["V3", "V3", "V3", "I3", "I3", "I2", "I1"], {}),
        (HOLEY, ["L4", "T4", "V3", "I3", "Z4"], {"optional_pieces": [0, 1, 2, 3, 4]}),
        (HOLEY, ["V3", "I2"], {"reusable": True}),
        (Board.from_text(["....", ".##.", "....", "...."]), ["L4", "L4", "I2", "O4"], {}),
        (Board(2, 4), ["I2"] * 4, {"colors": ["a", "b"] * 2, "no_edge_same_color": True}),
        (
            Board(4, 4),
            ["I2", "I2"],
            {"reusable": True, "colors": ["a", "b"], "no_edge_same_color": True},
        ),
        (
            HOLEY,
            ["V3", "I3", "I1"],
            {"reusable": True, "colors": ["a", "b", "c"], "no_edge_same_color": True},
        ),
        (Board(3, 4), ["T4", "L4", "I2"], {"cover": "pack"}),
        (
            Board(3, 4),
            ["T4", "L4", "I2", "O4"],
            {
                "cover": "pack",
                "optional_pieces": [1, 3],
                "colors": ["a", "a", "a", "b"],
                "no_edge_same_color": True,
            },
        ),
    ],
)
def test_small_tilings_with_holes(board, names, kwargs):
    pieces = [piece(name) for name in names]
    problem = tiling_problem(board, pieces, **kwargs)
    reusable = set(range(len(names))) if kwargs.get("reusable") else set()
    expected = brute_force(
        board.rows,
        board.cols,
        board.blocked,
        [p.cells for p in pieces],
        optional=set(kwargs.get("optional_pieces", ())),
        reusable=reusable,
        cover=kwargs.get("cover", "exact"),
        colors=kwargs.get("colors"),
        no_edge=kwargs.get("no_edge_same_color", False),
    )
    found = solver_solutions(
        problem, reusable, kwargs.get("colors"), kwargs.get("no_edge_same_color", False)
    )
    assert expected, "the case should have solutions"
    assert set(found) == expected and len(found) == len(expected)


def test_no_edge_same_colour_encoding():
    # Two dominoes on a 2x2 board always share an edge: same colour, no tiling.
    two = [piece("I2"), piece("I2")]
    assert (
        count(tiling_problem(Board(2, 2), two, colors=["a", "a"], no_edge_same_color=True)).count
        == 0
    )
    assert (
        count(tiling_problem(Board(2, 2), two, colors=["a", "b"], no_edge_same_color=True)).count
        == 4
    )
    assert (
        count(tiling_problem(Board(2, 2), two, colors=["a", None], no_edge_same_color=True)).count
        == 4
    )
    # Only corner contact: fine for one colour (pack two monominoes on a diagonal).
    mono = [piece("I1"), piece("I1")]
    diag = tiling_problem(
        Board.from_text([".#", "#."]), mono, colors=["a", "a"], no_edge_same_color=True
    )
    assert count(diag).count == 2
    # Without the flag the colours mean nothing.
    assert count(tiling_problem(Board(2, 2), two, colors=["a", "a"])).count == 4


def test_pentomino_counts_small():
    pent = piece_set("pentominoes")
    assert count(tiling_problem(Board(3, 20), pent)).count == 8
    assert count(tiling_problem(Board(4, 15), pent)).count == 1472


@pytest.mark.slow
@pytest.mark.parametrize(
    ("board", "expected", "full_only"),
    [
        (Board.from_text(["........"] * 3 + ["...##..."] * 2 + ["........"] * 3), 520, False),
        (Board(5, 12), 4040, True),
        (Board(6, 10), 9356, True),
    ],
    ids=["8x8-centre-hole", "5x12", "6x10"],
)
def test_pentomino_counts(board, expected, full_only, slow_scale):
    if full_only and slow_scale != "full":
        pytest.skip("full size only (POLYTILE_SLOW=full)")
    problem = tiling_problem(board, piece_set("pentominoes"))
    assert count(problem).count == expected


def test_pentomino_split_matches(slow_scale):
    problem = tiling_problem(Board(3, 20), piece_set("pentominoes"))
    parts = split(problem, 2)
    assert sum(count(problem, forced=f).count for f in parts) == 8


def test_tiling_problem_structure():
    board = Board.from_text(["...", ".#."])
    pieces = [piece("V3"), piece("I2"), piece("I1")]
    p = tiling_problem(board, pieces, optional_pieces=[2])
    assert p.n_primary == 5 + 2  # open cells + the two mandatory pieces
    assert p.items[:5] == (
        ("cell", 0, 0),
        ("cell", 0, 1),
        ("cell", 0, 2),
        ("cell", 1, 0),
        ("cell", 1, 2),
    )
    assert p.items[5:] == (("piece", 0), ("piece", 1), ("piece", 2))
    assert p.placements is not None and len(p.labels) == len(p.placements)
    sol = first(p)
    assert sol is not None
    cells = sorted(c for k in p.decode(sol) for c in p.placements.coords_of(k))
    assert cells == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2)]
    # pack mode: optional pieces get a "not placed" option labelled None.
    q = tiling_problem(board, pieces, cover="pack", optional_pieces=[2])
    assert q.labels[-1] is None and q.options[-1] == (q.items.index(("piece", 2)),)
    assert all(len(q.decode(s)) in (2, 3) for s in solve(q))


def test_tiling_problem_rejects_bad_arguments():
    b = Board(2, 2)
    two = [piece("I2"), piece("I2")]
    with pytest.raises(UnknownNameError, match="cover mode"):
        tiling_problem(b, two, cover="tile")  # type: ignore[arg-type]
    with pytest.raises(FormatError, match=r"piece indices 0\.\.1"):
        tiling_problem(b, two, optional_pieces=[2])
    with pytest.raises(FormatError, match="reusable pieces need cover='exact'"):
        tiling_problem(b, two, reusable=True, cover="pack")
    with pytest.raises(FormatError, match="colors has 1 entries"):
        tiling_problem(b, two, colors=["a"])
    with pytest.raises(FormatError, match="needs colors"):
        tiling_problem(b, two, no_edge_same_color=True)


# -- from_sets and the problem class ---------------------------------------------------------------


def test_from_sets_knuth_colour_example():
    p = from_sets(
        "pqr",
        "xy",
        [
            ["p", "q", "x", "y:A"],
            ["p", "r", "x:A", "y"],
            ["p", "x:B"],
            ["q", "x:A"],
            ["r", "y:B"],
        ],
        labels="abcde",
    )
    assert p.color_names == ("A", "B")
    assert p.format_option(1) == "p r x:A y"
    assert [p.decode(s) for s in solve(p)] == [["d", "b"]]
    assert is_unique(p)


def test_from_sets_colour_spellings_and_hashables():
    p = from_sets(
        [(0, 0), (0, 1)],
        ["hub", "x:y"],
        [[(0, 0), ("hub", 3)], [(0, 1), "hub:3"], [(0, 1), ("hub", None)], [(0, 0), "x:y"]],
    )
    # ("hub", 3) and "hub:3" are different colours: the int 3 and the string "3".
    assert p.colors == ((0, 1), (0, 2), (0, 0), (0, 0))
    assert p.color_names == (3, "3")
    assert p.options[3] == (0, 3)  # "x:y" is an item name, which wins over "x" with colour y
    # hub:3 clashes with hub:"3" and with an uncoloured hub, so option 0 is in no solution.
    assert sorted(sorted(s) for s in solve(p)) == [[1, 3], [2, 3]]


@pytest.mark.parametrize(
    ("primary", "secondary", "options", "message"),
    [
        ("ab", "a", [["a"]], "named twice"),
        ("ab", "x", [["a", "z"]], "unknown item 'z'"),
        ("ab", "x", [["a", "a"]], "names item 'a' twice"),
        ("ab", "x", [["a", "x", "x:1"]], "names item 'x' twice"),
        ("ab", "x", [["a:1"]], "primary item 'a' the colour '1'"),
        ("ab", "x", [["x:1"]], "no primary item"),
        ("ab", "x", [["a", "y:1"]], "unknown item 'y:1'"),
        ("ab", "x", [["b", ("a", 1)]], "colour 1; only secondary"),
        ("ab", "x", [["x"]], "no primary item"),
        ("ab", "x", [["a", ["x"]]], "not hashable"),
    ],
)
def test_from_sets_rejects_bad_input(primary, secondary, options, message):
    with pytest.raises(FormatError, match=message):
        from_sets(primary, secondary, options)


def test_problem_validation_and_helpers():
    with pytest.raises(FormatError, match="colour tuples"):
        ExactCoverProblem(("a",), 1, ((0,),), colors=((0,), (0,)))
    with pytest.raises(FormatError, match="labels"):
        ExactCoverProblem(("a",), 1, ((0,),), labels=("x", "y"))
    with pytest.raises(FormatError, match="1 items but 2 colours"):
        ExactCoverProblem(("a",), 1, ((0,),), colors=((0, 0),))
    with pytest.raises(FormatError, match="named twice"):
        ExactCoverProblem(("a", "a"), 1, ((0,),))
    with pytest.raises(FormatError, match="outside"):
        ExactCoverProblem(("a",), 1, ((3,),))
    p = ExactCoverProblem(("a", "b"), 2, ((0,), (1,), (0, 1)))
    assert p.labels == (0, 1, 2) and p.decode([2]) == [2]
    assert p.is_solution([0, 1]) and not p.is_solution([0, 2]) and not p.is_solution([9])
    assert p.to_arrays() is p.to_arrays()
    assert "2 primary" in repr(p)
    assert p == ExactCoverProblem(("a", "b"), 2, ((0,), (1,), (0, 1)))
    with pytest.raises(FormatError, match="expected an integer"):
        ExactCoverProblem(("a",), 1, (("a",),))
    with pytest.raises(FormatError, match="expected an integer"):
        ExactCoverProblem(("a",), 1, ((0.5,),))
    with pytest.raises(FormatError, match="not hashable"):
        ExactCoverProblem((["a"],), 1, ((0,),))
