"""Connected regions of grid cells (networkx graphs on request).

Cells are ``(row, col)``; two cells are connected when they share an edge. A *grid* here is a
sequence of equal-length strings, one character per cell (``.`` empty, ``#`` blocked, colour
letters ``B Y R G`` or any other label).

Examples
--------
>>> from polytile.regions import components, color_components, empty_regions
>>> grid = ["BB.", "#.Y", "B.Y"]
>>> [sorted(c) for c in color_components(grid, "B")]
[[(0, 0), (0, 1)], [(2, 0)]]
>>> [(sorted(r.cells), sorted(r.borders)) for r in empty_regions(grid)]
[([(1, 1), (2, 1)], ['B', 'Y']), ([(0, 2)], ['B', 'Y'])]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from polytile.geometry import Cell

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["Region", "color_components", "components", "empty_regions", "grid_graph"]

_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def grid_graph(cells: Iterable[Cell]) -> nx.Graph:
    """The graph whose nodes are ``cells`` and whose edges join edge-adjacent cells.

    Notes
    -----
    O(n) for n cells.
    """
    import networkx as nx  # imported on first use: it costs 0.1 s at start-up

    nodes = set(cells)
    g = nx.Graph()
    g.add_nodes_from(nodes)
    g.add_edges_from(
        ((r, c), (r + dr, c + dc))
        for r, c in nodes
        for dr, dc in ((1, 0), (0, 1))
        if (r + dr, c + dc) in nodes
    )
    return g


def components(cells: Iterable[Cell]) -> list[frozenset[Cell]]:
    """Edge-connected components of a set of cells, largest first (ties: by smallest cell).

    Notes
    -----
    O(n) for n cells. A plain depth-first search: scores and pictures need it, and
    networkx would cost them 0.1-0.2 s of start-up.
    """
    left = set(cells)
    comps = []
    while left:
        start = left.pop()
        comp, frontier = {start}, [start]
        while frontier:
            r, c = frontier.pop()
            for dr, dc in _STEPS:
                cell = (r + dr, c + dc)
                if cell in left:
                    left.remove(cell)
                    comp.add(cell)
                    frontier.append(cell)
        comps.append(frozenset(comp))
    return sorted(comps, key=lambda comp: (-len(comp), min(comp)))


def _cells_with(grid: Sequence[str], labels: str) -> list[Cell]:
    return [(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch in labels]


def color_components(grid: Sequence[str], color: str) -> list[frozenset[Cell]]:
    """Components of the cells labelled ``color`` (one letter, e.g. ``"B"``), largest first."""
    return components(_cells_with(grid, color))


@dataclass(frozen=True)
class Region:
    """An edge-connected region of empty cells and the labels of the cells around it."""

    cells: frozenset[Cell]
    borders: frozenset[str]

    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.cells)


def empty_regions(grid: Sequence[str], empty: str = ".", wall: str = "#") -> list[Region]:
    """Regions of empty cells, largest first, each with the labels that border it by an edge.

    ``wall`` labels (blocked cells) are not reported as borders.
    """
    height = len(grid)
    result = []
    for comp in components(_cells_with(grid, empty)):
        around = set()
        for r, c in comp:
            for dr, dc in _STEPS:
                nr, nc = r + dr, c + dc
                if 0 <= nr < height and 0 <= nc < len(grid[nr]):
                    ch = grid[nr][nc]
                    if ch not in empty and ch not in wall:
                        around.add(ch)
        result.append(Region(comp, frozenset(around)))
    return result
