"""Gridblock: walks, the engine against an independent slow reference, scoring, options."""

from __future__ import annotations

import numpy as np
import pytest

from polytile.errors import IllegalMoveError
from polytile.puzzles.gridblock.grid import end_tiles, parse_tile, tile_name
from polytile.puzzles.gridblock.moves import Move
from polytile.puzzles.gridblock.rules import Gridblock, Options, tile_scores


def test_walk_counts_on_an_empty_grid() -> None:
    # From the issue: distinct end tiles per start, summed over all 36 starts.
    assert [sum(len(end_tiles(t, k)) for t in range(36)) for k in (1, 2, 3)] == [120, 196, 352]


def test_worked_example_8_1() -> None:
    assert sorted(tile_name(t) for t in end_tiles(parse_tile("a1"), 3)) == sorted(
        ["d1", "c2", "b3", "a4", "b1", "a2"]
    )
    assert parse_tile("a1") not in end_tiles(parse_tile("a1"), 3)
    assert len(end_tiles(parse_tile("c3"), 2)) == 8


def _ref_ends(start: int, steps: int) -> set[int]:
    """Walk ends by plain recursion on coordinates (no cache, no shared code)."""
    out: set[int] = set()

    def go(r: int, c: int, left: int, seen: set[tuple[int, int]]) -> None:
        if left == 0:
            out.add(r * 6 + c)
            return
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < 6 and 0 <= nc < 6 and (nr, nc) not in seen:
                go(nr, nc, left - 1, seen | {(nr, nc)})

    go(start // 6, start % 6, steps, {(start // 6, start % 6)})
    return out


def _ref_moves(g: Gridblock) -> set[str]:
    if g.is_over():
        return set()
    slot = g.to_move_slot
    if g.is_setup:
        return {str(Move(None, t, q)) for t in range(36) if g.layout[t] == g.setup_symbols[slot]
                for q in range(4) if g.corners[4 * t + q] == -1}  # fmt: skip
    out = set()
    for card in g.hand(slot):
        for end in _ref_ends(g.mover[slot], card[1]):
            free = [q for q in range(4) if g.corners[4 * end + q] == -1]
            if g.layout[end] == card[0] and free:
                out |= {str(Move(card, end, q)) for q in free}
            else:
                out.add(str(Move(card, end, None)))
    return out


def _ref_score(corners: list[int], color: int) -> int:
    total = 0
    for t in range(36):
        mine = corners[4 * t : 4 * t + 4].count(color)
        total += mine
        if mine >= 3:
            total += 2
        elif mine == 2:
            others = [c for c in set(corners[4 * t : 4 * t + 4]) if c not in (-1, color)]
            if not any(corners[4 * t : 4 * t + 4].count(o) == 2 for o in others):
                total += 1
    return total


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_engine_matches_the_reference(seed: int, players: int) -> None:
    opts = Options(players=players, deal="split" if seed % 2 else "shuffle")
    g = Gridblock.new(seed, opts)
    rng = np.random.default_rng(seed)
    while not g.is_over():
        legal = g.legal_moves()
        assert {str(m) for m in legal} == _ref_moves(g)
        key = g.state_key()
        move = legal[int(rng.integers(len(legal)))]
        g.push(move)
        g.pop()
        assert g.state_key() == key
        g.push(move)
    assert g.step == g.total_steps
    assert g.scores() == tuple(_ref_score(g.corners, c) for c in g.colors)
    # Every turn uses one cube: placed + discarded = 1 + 18 per colour.
    assert all(p + d == 19 for p, d in zip(g.placed, g.discarded, strict=True))


def test_split_deal_plays_the_other_three_cards() -> None:
    g = Gridblock.new(5, Options(deal="split"))
    for d, deck in zip(g.deals, g.decks, strict=True):
        for r in (0, 2, 4):
            assert sorted(d[r] + d[r + 1]) == sorted(deck)


def test_score_example_8_3() -> None:
    assert tile_scores([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 2, -1], (0, 1, 2)) == {0: 10, 1: 3, 2: 1}


def test_illegal_moves_are_refused_with_reasons() -> None:
    g = Gridblock.new(2)
    first = g.legal_moves()[0]
    wrong = next(t for t in range(36) if g.layout[t] != g.setup_symbols[0])
    with pytest.raises(IllegalMoveError, match="drew"):
        g.push(Move(None, wrong, 0))
    g.push(first)
    while g.is_setup:
        g.push(g.legal_moves()[0])
    start = g.mover[g.to_move_slot]
    card = g.hand(g.to_move_slot)[0]
    with pytest.raises(IllegalMoveError, match="without entering a tile twice"):
        g.push(Move(card, start, None))
    back = Move(card, start, None, path=(start + 1, start) if start % 6 < 5 else (start - 1, start))
    with pytest.raises(IllegalMoveError):
        g.push(back)


def test_instant_win_ends_the_game() -> None:
    g = Gridblock.new(0, Options(instant_win=True))
    g.corners[0:3] = [0, 0, -1]  # blue holds NW and NE of a1
    g.corners[3] = -1
    g.step = len(g.colors)  # set-up done
    g.mover = [1, 20, 20, 20]
    g.deals[0][0] = ((g.layout[0], 1), (0, 1), (1, 2))
    g.push(Move((g.layout[0], 1), 0, 2))
    assert g.is_over() and g.winner == 0 and g.returns()[0] >= 1000
    g.pop()
    assert not g.is_over()


def test_move_text_round_trips() -> None:
    g = Gridblock.new(9)
    rng = np.random.default_rng(0)
    while not g.is_over():
        for m in g.legal_moves():
            assert Move.parse(str(m)) == m
        g.push(g.legal_moves()[int(rng.integers(len(g.legal_moves())))])
