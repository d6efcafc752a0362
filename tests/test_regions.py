"""Tests of polytile.regions: edge-connected components, colour groups and empty regions."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polytile.regions import Region, color_components, components, empty_regions, grid_graph


def _edge_adjacent(a, b) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _is_connected(cells) -> bool:
    cells = set(cells)
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return seen == cells


cell_sets = st.frozensets(st.tuples(st.integers(-3, 6), st.integers(-3, 6)), max_size=40)


@st.composite
def grids(draw, labels: str = ".#BYRG"):
    rows = draw(st.integers(1, 6))
    cols = draw(st.integers(1, 6))
    return [
        "".join(draw(st.lists(st.sampled_from(labels), min_size=cols, max_size=cols)))
        for _ in range(rows)
    ]


# -- grid_graph ------------------------------------------------------------------------------
def test_grid_graph_joins_edge_neighbours_never_diagonals():
    g = grid_graph([(0, 0), (0, 1), (1, 1), (2, 2), (2, 3)])
    assert set(g.nodes) == {(0, 0), (0, 1), (1, 1), (2, 2), (2, 3)}
    assert {frozenset(e) for e in g.edges} == {
        frozenset({(0, 0), (0, 1)}),
        frozenset({(0, 1), (1, 1)}),
        frozenset({(2, 2), (2, 3)}),
    }
    assert not g.has_edge((1, 1), (2, 2))  # diagonal


def test_grid_graph_of_a_checkerboard_has_no_edges():
    cells = [(r, c) for r in range(4) for c in range(4) if (r + c) % 2 == 0]
    g = grid_graph(cells)
    assert g.number_of_nodes() == 8
    assert g.number_of_edges() == 0


def test_grid_graph_of_a_full_rectangle_has_all_grid_edges():
    g = grid_graph((r, c) for r in range(3) for c in range(4))
    # 3 rows of 3 horizontal edges, 2 gaps of 4 vertical edges
    assert g.number_of_edges() == 3 * 3 + 2 * 4


@settings(max_examples=100, deadline=None)
@given(cell_sets)
def test_grid_graph_edges_are_exactly_the_edge_adjacent_pairs(cells):
    g = grid_graph(cells)
    assert set(g.nodes) == set(cells)
    expected = {frozenset(p) for p in itertools.combinations(cells, 2) if _edge_adjacent(*p)}
    assert {frozenset(e) for e in g.edges} == expected


def test_grid_graph_ignores_repeated_cells():
    g = grid_graph([(0, 0), (0, 0), (0, 1)])
    assert g.number_of_nodes() == 2 and g.number_of_edges() == 1


# -- components ------------------------------------------------------------------------------
def test_components_are_ordered_largest_first():
    cells = {(0, 0), (5, 5), (5, 6), (5, 7), (2, 0), (2, 1)}
    assert components(cells) == [
        frozenset({(5, 5), (5, 6), (5, 7)}),
        frozenset({(2, 0), (2, 1)}),
        frozenset({(0, 0)}),
    ]


def test_components_of_equal_size_are_ordered_by_smallest_cell():
    cells = {(4, 0), (4, 1), (0, 5), (1, 5), (0, 3), (1, 3)}
    assert components(cells) == [
        frozenset({(0, 3), (1, 3)}),
        frozenset({(0, 5), (1, 5)}),
        frozenset({(4, 0), (4, 1)}),
    ]


def test_diagonal_cells_are_separate_components():
    assert components([(0, 0), (1, 1), (2, 2)]) == [
        frozenset({(0, 0)}),
        frozenset({(1, 1)}),
        frozenset({(2, 2)}),
    ]


def test_ring_and_its_inner_island_are_separate_components():
    rows = ["#####", "#...#", "#.#.#", "#...#", "#####"]
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"]
    comps = components(cells)
    assert comps == [frozenset(cells) - {(2, 2)}, frozenset({(2, 2)})]
    assert len(comps[0]) == 16


def test_components_of_nothing_is_empty():
    assert components([]) == []


@settings(max_examples=150, deadline=None)
@given(cell_sets)
def test_components_partition_into_connected_non_touching_parts(cells):
    comps = components(cells)
    assert all(isinstance(c, frozenset) and c for c in comps)
    # A partition of the cells ...
    assert sum(len(c) for c in comps) == len(cells)
    assert frozenset().union(*comps) == cells
    # ... into connected parts ...
    assert all(_is_connected(c) for c in comps)
    # ... no two of which touch by an edge.
    for a, b in itertools.combinations(comps, 2):
        assert not any(_edge_adjacent(x, y) for x in a for y in b)
    # Largest first, ties by smallest cell.
    keys = [(-len(c), min(c)) for c in comps]
    assert keys == sorted(keys)


# -- colour components -----------------------------------------------------------------------
def test_color_components_of_the_docstring_grid():
    grid = ["BB.", "#.Y", "B.Y"]
    assert color_components(grid, "B") == [frozenset({(0, 0), (0, 1)}), frozenset({(2, 0)})]
    assert color_components(grid, "Y") == [frozenset({(1, 2), (2, 2)})]
    assert color_components(grid, "R") == []


def test_color_components_do_not_join_through_other_colours_or_corners():
    grid = [
        "BYB",
        "YBY",
        "BBB",
    ]
    comps = color_components(grid, "B")
    assert comps == [
        frozenset({(1, 1), (2, 0), (2, 1), (2, 2)}),
        frozenset({(0, 0)}),
        frozenset({(0, 2)}),
    ]


@settings(max_examples=100, deadline=None)
@given(grids(), st.sampled_from("BYRG#."))
def test_color_components_cover_exactly_the_cells_of_that_colour(grid, color):
    comps = color_components(grid, color)
    wanted = {(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == color}
    assert frozenset().union(*comps) == wanted
    assert comps == components(wanted)


# -- empty regions ---------------------------------------------------------------------------
def test_empty_regions_of_the_docstring_grid_are_not_joined_diagonally():
    grid = ["BB.", "#.Y", "B.Y"]
    regions = empty_regions(grid)
    assert regions == [
        Region(frozenset({(1, 1), (2, 1)}), frozenset({"B", "Y"})),
        Region(frozenset({(0, 2)}), frozenset({"B", "Y"})),
    ]
    assert [r.size for r in regions] == [2, 1]


def test_walls_are_not_borders():
    grid = [
        "#####",
        "#..B#",
        "#####",
        "Y.#.R",
    ]
    regions = empty_regions(grid)
    assert [(sorted(r.cells), sorted(r.borders)) for r in regions] == [
        ([(1, 1), (1, 2)], ["B"]),
        ([(3, 1)], ["Y"]),
        ([(3, 3)], ["R"]),
    ]


def test_region_enclosed_by_walls_and_board_edge_has_no_borders():
    regions = empty_regions(["..#", "..#", "##G"])
    assert regions == [Region(frozenset({(0, 0), (0, 1), (1, 0), (1, 1)}), frozenset())]


def test_empty_regions_collect_every_bordering_label():
    grid = [
        "RBY",
        "G.B",
        "RYR",
    ]
    (region,) = empty_regions(grid)
    assert region.cells == {(1, 1)}
    # Diagonal neighbours (the corners) do not count: only edge neighbours B, G, B, Y.
    assert region.borders == {"B", "G", "Y"}


def test_empty_regions_with_custom_empty_and_wall_labels():
    grid = ["__X", "_~X", "~A_"]
    regions = empty_regions(grid, empty="_", wall="~")
    assert [(sorted(r.cells), sorted(r.borders)) for r in regions] == [
        ([(0, 0), (0, 1), (1, 0)], ["X"]),
        ([(2, 2)], ["A", "X"]),
    ]


def test_no_empty_cells_no_regions():
    assert empty_regions(["BY", "#R"]) == []


@settings(max_examples=100, deadline=None)
@given(grids())
def test_empty_regions_match_an_independent_border_scan(grid):
    regions = empty_regions(grid)
    empty = {(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == "."}
    assert [r.cells for r in regions] == components(empty)
    for region in regions:
        borders = set()
        for (r, c), (nr, nc) in itertools.product(
            region.cells, itertools.product(range(len(grid)), range(len(grid[0])))
        ):
            if _edge_adjacent((r, c), (nr, nc)) and grid[nr][nc] not in ".#":
                borders.add(grid[nr][nc])
        assert region.borders == borders
        assert "#" not in region.borders and "." not in region.borders


@pytest.mark.parametrize("size", [0, 1, 4])
def test_region_size_is_its_cell_count(size):
    region = Region(frozenset((0, c) for c in range(size)), frozenset())
    assert region.size == size
