"""The Walkable Cities rules engine: the worked examples of ``seeds/walkable-cities.md``
(section 8), passing and the end, undo, and legal drops against a slow reference written
from the rule text alone."""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest

from polytile.errors import IllegalMoveError
from polytile.puzzles.walkable.board import BLUE, DEAD, PIECES, RED, UNCLAIMED, drop_table
from polytile.puzzles.walkable.players import self_play
from polytile.puzzles.walkable.rules import (
    PASS,
    Drop,
    Options,
    Round,
    Walkable,
    parse_drop,
    parse_round,
    result_of,
)


def empty(options: Options | None = None) -> Walkable:
    return Walkable.new(seed=0, dead=0, options=options)


def test_rotation_worked_example() -> None:  # 8.1
    g = empty()
    g.play_round("T4 pass | L4 pass")
    assert g.rotation == ("I4", "O4", "Z4")
    g.play_round("O4 pass | O4 pass")
    assert g.rotation == ("I4", "Z4")
    g.select("I4", "Z4")
    assert g.rotation == ()
    g.pop()
    g.select("I4", "I4")  # had both picked I4: Z4 left, given to both
    g.drop(PASS, PASS)
    assert g.rotation == ("Z4",) and g.is_over()  # three passes in a row end it here
    h = Walkable.new(seed=0, dead=0, options=Options(pass_limit=4))
    for text in ("T4 pass | L4 pass", "O4 pass | O4 pass", "I4 pass | I4 pass"):
        h.play_round(text)
    assert h.pick_choices() == ("Z4",)
    with pytest.raises(IllegalMoveError, match="not in the rotation"):
        h.select("Z4", "I4")
    h.play_round("Z4 pass | Z4 pass")
    assert h.rotation == () and h.is_over()
    g2 = Walkable.new(seed=0, dead=0, options=Options(pass_limit=4))
    for text in ("T4 pass | L4 pass", "O4 pass | O4 pass", "I4 pass | Z4 pass"):
        g2.play_round(text)
    assert g2.rotation == () and g2.pick_choices() == PIECES  # round 4 refills all five


def test_worked_drops_of_o4() -> None:  # 8.2
    assert isinstance(parse_drop("O4 1:d4,e4 3:d5,e5"), Drop)
    assert isinstance(parse_drop("O4 2:d4,d5 1:e4 3:e5"), Drop)
    with pytest.raises(ValueError, match="not a drop"):
        parse_drop("O4 1:d4,e5 2:e4 3:d5")  # corner contact only
    with pytest.raises(ValueError):
        parse_drop("O4 1:d4 2:e4 3:d5 1:e5")  # four singles need a board twice
    cells = np.zeros(300, dtype=np.int8)
    at = {(3, 3), (3, 4), (4, 3), (4, 4)}
    drops = [d for d in reference_drops(cells, "O4") if {(r, c) for _, r, c in d} == at]
    assert len(drops) == 36


def test_collisions() -> None:  # 8.3
    g = empty()
    g.play_round("T4 2:f6,f7 1:e6 3:g6 | T4 2:f5,f6 1:e6 3:g6")
    # (5,5) on board 2, (5,4) on board 1 and (5,6) on board 3 from both: dead
    assert g.cells[155] == DEAD and g.cells[54] == DEAD and g.cells[256] == DEAD
    assert g.cells[165] == RED and g.cells[145] == BLUE
    assert (g.cells == DEAD).sum() == 3
    h = empty()
    h.play_round("T4 2:f6,f7 1:e6 3:g6 | O4 3:f6,f7 1:g6 2:g7")
    assert h.cells[155] == RED and h.cells[255] == BLUE  # the same (5,5), other boards
    assert (h.cells == DEAD).sum() == 0


def test_result_with_tiebreak() -> None:  # 8.4
    paths = np.array([[7, 6, 4], [5, 6, 9]])
    r = result_of(paths)
    assert r.board_winners == (0, None, 1) and r.won == (1, 1) and r.winner is None
    assert r.margin == 0 and not r.by_tiebreak
    assert result_of(paths, "R").winner == 0 and result_of(paths, "R").by_tiebreak
    assert result_of(paths, "B").winner == 1
    assert result_of(np.array([[7, 6, 4], [5, 5, 9]]), "B").winner == 0  # 2-1 decides


def test_passing_and_the_end() -> None:
    g = empty()
    g.play_round("T4 pass | L4 1:a1,a2 2:a3,b3")
    g.play_round("O4 pass | I4 pass")
    assert g.passes == (2, 1) and not g.is_over()
    g.play_round("Z4 1:c1,c2 2:d2,d3 | Z4 pass")
    assert g.passes == (0, 2) and not g.is_over()
    g.play_round("I4 pass | T4 pass")
    assert g.passes == (1, 3) and g.is_over() and g.phase == "over"
    with pytest.raises(IllegalMoveError, match="over"):
        g.select("I4", "I4")
    res = g.result()
    assert res.paths == ((2, 2, 0), (2, 2, 0)) and res.winner is None


def test_a_player_without_a_drop_must_pass() -> None:
    cells = np.full(300, DEAD, dtype=np.int8)
    cells[[0, 1, 100, 101, 200]] = UNCLAIMED
    g = Walkable.on(cells)
    g.select("O4", "I4")
    assert g.legal_drops(0) == [] and g.legal_drops(1) == []
    g.drop(PASS, PASS)
    h = Walkable.on(np.where(np.arange(300) % 100 < 20, UNCLAIMED, DEAD).astype(np.int8))
    h.select("I4", "O4")
    assert len(h.legal_drops(0)) > 0 and len(h.legal_drops(1)) > 0


def test_illegal_drops_change_nothing() -> None:
    g = empty()
    g.play_round("T4 1:c4,d4 2:e4 3:d5 | L4 pass")
    key = g.state_key()
    with pytest.raises(IllegalMoveError, match="not unclaimed"):
        g.play_round("O4 1:c4,d4 2:c5,d5 | I4 pass")
    assert g.state_key() == key
    g.select("O4", "I4")
    with pytest.raises(IllegalMoveError, match="picked I4"):
        g.drop(PASS, parse_drop("Z4 1:a1,b1 2:b2,c2"))
    g.pop()
    assert g.state_key() == key
    with pytest.raises(ValueError):
        g.play_round("T4 pass")
    assert g.state_key() == key


def test_round_text_round_trips() -> None:
    for text in ("T4 1:c4,d4 2:e4 3:d5 | L4 pass", "Z4 1:a1,b1 3:b2,c2 | I4 2:j7,j8 1:j9,j10"):
        rnd = parse_round(text)
        assert parse_round(str(rnd)) == rnd
    assert str(parse_round("I4 2:j7,j8 1:j9,j10 | O4 pass")).startswith("I4 1:j9,j10 2:j7,j8")
    assert Round(("I4", "O4"), (PASS, PASS)) == parse_round("I4 pass|O4 pass")


def test_every_drop_text_round_trips() -> None:
    for piece in PIECES:
        for row in drop_table(piece):
            d = Drop(piece, tuple(int(x) for x in row))  # type: ignore[arg-type]
            assert parse_drop(str(d)) == d


def test_random_games_undo_exactly() -> None:
    for seed in range(3):
        g = Walkable.new(seed)
        keys = [g.state_key()]
        rng = np.random.default_rng(seed)
        while not g.is_over():
            self_play(g, ("random", "greedy")[seed % 2 :][:1] * 2, seed=int(rng.integers(99)),
                      max_rounds=1)  # fmt: skip
            keys.append(g.state_key())
            assert (g.cells == RED).sum() <= 4 * g.round
        for k in reversed(keys[:-1]):
            g.pop_round()
            assert g.state_key() == k
        assert g.round == 0 and not g.steps


# -- the slow reference, from the rule text ------------------------------------------------------
SHAPES = {
    "I4": [(0, 0), (0, 1), (0, 2), (0, 3)],
    "O4": [(0, 0), (0, 1), (1, 0), (1, 1)],
    "T4": [(0, 0), (0, 1), (0, 2), (1, 1)],
    "L4": [(0, 0), (1, 0), (1, 1), (1, 2)],
    "Z4": [(0, 0), (0, 1), (1, 1), (1, 2)],
}


def orientations(cells: list[tuple[int, int]]) -> set[frozenset[tuple[int, int]]]:
    out = set()
    for flip in (1, -1):
        shape = [(r, flip * c) for r, c in cells]
        for _ in range(4):
            shape = [(c, -r) for r, c in shape]
            r0, c0 = min(r for r, _ in shape), min(c for _, c in shape)
            out.add(frozenset((r - r0, c - c0) for r, c in shape))
    return out


def partitions(cells: list[tuple[int, int]]) -> list[list[list[tuple[int, int]]]]:
    """Every split of ``cells`` into blocks of 1 or 2 edge-adjacent cells."""
    if not cells:
        return [[]]
    first, rest = cells[0], cells[1:]
    out = [[[first], *p] for p in partitions(rest)]
    for other in rest:
        if abs(first[0] - other[0]) + abs(first[1] - other[1]) == 1:
            left = [c for c in rest if c != other]
            out += [[[first, other], *p] for p in partitions(left)]
    return out


def reference_drops(cells: np.ndarray, piece: str) -> set[frozenset[tuple[int, int, int]]]:
    """Every legal drop as a set of (board, row, col), straight from section 4."""
    grid = cells.reshape(3, 10, 10)
    out = set()
    for shape in orientations(SHAPES[piece]):
        for dr in range(10):
            for dc in range(10):
                placed = sorted((r + dr, c + dc) for r, c in shape)
                if any(r > 9 or c > 9 for r, c in placed):
                    continue
                for split in partitions(placed):
                    if len(split) > 3:
                        continue
                    for boards in permutations(range(3), len(split)):
                        drop = frozenset((b, r, c) for b, sub in zip(boards, split, strict=True)
                                         for r, c in sub)  # fmt: skip
                        if all(grid[b, r, c] == UNCLAIMED for b, r, c in drop):
                            out.add(drop)
    return out


def test_legal_drops_match_the_reference_on_random_positions() -> None:
    rng = np.random.default_rng(16)
    for seed, rounds in ((1, 6), (2, 14)):
        g = Walkable.new(seed)
        self_play(g, ("random", "random"), seed=seed, max_rounds=rounds)
        picks = [str(p) for p in rng.choice(g.pick_choices(), size=2)]
        g.select(*picks)
        for player, piece in enumerate(picks):
            engine = {frozenset((x // 100, x % 100 // 10, x % 10) for x in d.cells)
                      for d in g.legal_drops(player)}  # fmt: skip
            assert len(engine) == len(g.legal_drops(player))
            assert engine == reference_drops(g.cells, piece)
