"""Walkable Cities boards: drop counts against the issue's independent figures, the worked
example of the rules, and largest regions against networkx."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from polytile.puzzles.walkable.board import (
    BLUE,
    CELLS,
    DEAD,
    PIECES,
    RED,
    UNCLAIMED,
    drop_table,
    largest_regions,
    legal_drops,
    seeded_boards,
)

COUNTS = {"I4": 3360, "O4": 2916, "T4": 5184, "L4": 13824, "Z4": 6912}


@pytest.mark.parametrize("name", PIECES)
def test_drops_on_empty_boards(name: str) -> None:
    table = drop_table(name)
    assert len(table) == COUNTS[name]
    assert len({tuple(row) for row in table}) == len(table)
    for b in table // 100:
        # 2+2 or 2+1+1: two or three boards, never four single cells or one board
        assert len(set(b)) in (2, 3)


def test_no_two_pieces_share_a_drop() -> None:
    rows = [tuple(r) for name in PIECES for r in drop_table(name)]
    assert len(rows) == len(set(rows)) == 32196


def test_worked_example_o4_has_36_drops_at_one_place() -> None:
    # seeds/walkable-cities.md 8.2: O4 on (3,3) (3,4) (4,3) (4,4): 6 splits x 6 assignments.
    square = {33, 34, 43, 44}
    here = [r for r in drop_table("O4") if {int(g) % 100 for g in r} == square]
    assert len(here) == 36
    # a diagonal pair is never a sub-piece: the cells on one board are edge-connected
    for r in here:
        for b in range(3):
            on = sorted(int(g) % 100 for g in r if g // 100 == b)
            assert len(on) < 2 or on[1] - on[0] in (1, 10)


def test_legal_drops_avoid_taken_cells() -> None:
    cells = seeded_boards(3)
    cells[[5, 150, 299]] = (RED, BLUE, RED)
    legal = legal_drops(cells, "T4")
    assert len(legal) < COUNTS["T4"]
    assert (cells[legal] == UNCLAIMED).all()
    table = drop_table("T4")
    blocked = table[(cells[table] != UNCLAIMED).any(axis=1)]
    assert len(blocked) + len(legal) == len(table)


def test_seeded_boards() -> None:
    cells = seeded_boards(7, dead=12)
    assert [(cells[b * 100 : b * 100 + 100] == DEAD).sum() for b in range(3)] == [12] * 3
    assert (seeded_boards(7, dead=12) == cells).all()
    with pytest.raises(ValueError, match="dead cells"):
        seeded_boards(7, dead=101)


def _regions_by_networkx(cells: np.ndarray) -> list[list[int]]:
    out = [[0] * 3 for _ in range(2)]
    for p, who in enumerate((RED, BLUE)):
        for b in range(3):
            g = nx.grid_2d_graph(10, 10)
            g.remove_nodes_from(
                [(r, c) for r in range(10) for c in range(10) if cells[b * 100 + r * 10 + c] != who]
            )
            out[p][b] = max((len(c) for c in nx.connected_components(g)), default=0)
    return out


@pytest.mark.parametrize("seed", range(20))
def test_largest_regions_against_networkx(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both the Python flood fill (short commands) and the compiled one (after the switch)."""
    import polytile.puzzles.walkable.board as board
    from polytile.puzzles.walkable import _regions

    rng = np.random.default_rng(seed)
    cells = rng.choice(
        np.array([UNCLAIMED, DEAD, RED, BLUE], dtype=np.int8), size=CELLS, p=[0.3, 0.1, 0.3, 0.3]
    )
    expected = _regions_by_networkx(cells)
    assert _regions.largest_regions(cells).tolist() == expected
    monkeypatch.setattr(board, "_compiled", None)
    monkeypatch.setattr(board, "SWITCH_AFTER", float("inf"))
    assert largest_regions(cells).tolist() == expected  # in Python
    monkeypatch.setattr(board, "SWITCH_AFTER", 0.0)
    assert largest_regions(cells).tolist() == expected  # charged, and switched after it
    assert board._compiled is _regions.largest_regions
    assert largest_regions(cells).tolist() == expected
