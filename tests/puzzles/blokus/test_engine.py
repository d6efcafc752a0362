"""The Blokus engine's compiled parts: a placement's features against a reading of the board
cell by cell, and whole playouts against the rules engine."""

from __future__ import annotations

import numpy as np
import pytest

from polytile.puzzles.blokus import _playout, engine, kernels
from polytile.puzzles.blokus.game import BlokusGame
from polytile.puzzles.blokus.moves import PIECE_NAMES
from polytile.puzzles.blokus.players import greedy
from polytile.puzzles.blokus.rules import Blokus
from polytile.puzzles.blokus.scoring import player_names, score_hands
from polytile.solvers.mcts import mcts

SETUPS = [("duo", 2), ("classic", 4), ("classic", "teams"), ("classic", 3)]


@pytest.fixture(autouse=True, scope="module")
def _compiled() -> None:
    # Compiled here and now: ``load`` alone would leave a fresh install's first compile to
    # the background and the engine on its fallback meanwhile.
    engine.load("duo")
    engine.compile_playouts()


def _played(variant: str, players: int | str, plies: int, seed: int) -> Blokus:
    g = Blokus(variant, players)
    rng = np.random.default_rng(seed)
    for _ in range(plies):
        moves = g.legal_moves()
        if not moves:
            break
        g.push(moves[int(rng.integers(len(moves)))])
    return g


def _steps(g: Blokus, cell: tuple[int, int], diagonal: bool) -> set[tuple[int, int]]:
    r, c = cell
    deltas = ((1, 1), (1, -1), (-1, 1), (-1, -1)) if diagonal else ((1, 0), (-1, 0), (0, 1),
                                                                      (0, -1))  # fmt: skip
    n = g.size
    return {(r + dr, c + dc) for dr, dc in deltas if 0 <= r + dr < n and 0 <= c + dc < n}


def _features(g: Blokus, cells: tuple[tuple[int, int], ...]) -> list[int]:
    """The eight features of placing ``cells`` for the colour to move, cell by cell."""
    n = g.size
    board = [(r, c) for r in range(n) for c in range(n)]
    mover = g.to_move
    names = player_names(g.players, g.variant.name)
    mates = next((set(name.split("+")) for name in names if mover in name.split("+")), {mover})
    others = [c for c in g.colors if c not in mates]
    occupied = {x for x in board if g.color_at(x) is not None}

    def beside(color: str) -> set[tuple[int, int]]:
        return {y for x in board if g.color_at(x) == color for y in _steps(g, x, False)}

    def attach(color: str) -> set[tuple[int, int]]:
        own = {x for x in board if g.color_at(x) == color}
        near = {y for x in own for y in _steps(g, x, True)}
        if not own:
            near = {g.variant.starts[color]}
        return near - occupied - beside(color)

    own_forbidden = occupied | beside(mover)
    own_attach = attach(mover)
    their_attach = set().union(*(attach(c) for c in others)) if others else set()
    their_edge = set().union(*(beside(c) for c in others)) - occupied if others else set()
    near = {y for x in their_attach for y in _steps(g, x, False)}
    near -= occupied | their_edge | their_attach
    m = set(cells)
    edge = {y for x in m for y in _steps(g, x, False)} - m
    corner = {y for x in m for y in _steps(g, x, True)} - m - edge
    return [
        len(m & their_attach),
        len(m & near),
        len(m & their_edge),
        len(m & own_attach) - 1,
        len(corner - own_forbidden - own_attach),
        len(edge & own_attach),
        len(edge - own_forbidden - own_attach),
        len(edge & (occupied | their_edge)),
    ]


@pytest.mark.parametrize(("variant", "players"), SETUPS)
@pytest.mark.parametrize("plies", [0, 6, 17])
def test_the_features_read_the_board_as_a_person_would(variant: str, players: int | str,
                                                       plies: int) -> None:  # fmt: skip
    g = _played(variant, players, plies, seed=plies)
    moves = g.legal_moves()
    assert not moves[0].is_pass
    moves = moves[:: max(1, len(moves) // 40)]
    t = engine._tables(g)
    idx = np.array([t.table.index[m.cells] for m in moves], dtype=np.int64)
    got = np.empty((_playout.FEATURES, len(idx)))
    for j in range(_playout.FEATURES):
        unit = np.zeros(_playout.FEATURES)
        unit[j] = 1.0
        _playout.score_placements(g.bitboards()[0], g.colors.index(g.to_move), t.friend, idx,
                                  len(idx), t.table.masks, t.table.edge_masks,
                                  t.table.corner_masks, g.size, unit, got[j])  # fmt: skip
    for i, m in enumerate(moves):
        assert got[:, i].tolist() == _features(g, m.cells), m


@pytest.mark.parametrize(("variant", "players"), SETUPS)
def test_a_playout_ends_the_game_by_the_rules(variant: str, players: int | str) -> None:
    g = _played(variant, players, 9, seed=3)
    bits, hands, last, turn = g.bitboards()
    t = engine._tables(g)
    pt = t.table
    before = hands.copy()
    args = (t.friend, engine.WEIGHTS, engine.NOISE, pt.masks, pt.edge_masks, pt.corner_masks,
            pt.piece, t.sizes, pt.cell_ptr, pt.cell_placements, g.size)  # fmt: skip
    placed = _playout.playout(bits, hands, last, turn, *args, 7)
    assert placed == int((before - hands).sum()) > 0
    # Every piece placed covers new cells, and no colour can place anything more.
    occupied = np.unpackbits(bits[0].view(np.uint8), bitorder="little")[: g.size**2].sum()
    squares_before = sum(len(m.cells) for m in g.move_stack if not m.is_pass)
    assert occupied == squares_before + int(((before - hands) @ t.sizes).sum())
    out = np.empty(len(pt.piece), dtype=np.int64)
    k = len(g.colors)
    for ci in range(k):
        assert kernels.generate(pt.masks, pt.piece, pt.cell_ptr, pt.cell_placements, bits[0],
                                bits[1 + ci], bits[1 + k + ci], hands[ci], out) == 0  # fmt: skip
        if (before[ci] != hands[ci]).any():
            assert before[ci, last[ci]] == 1 and hands[ci, last[ci]] == 0
    # The same seed plays the same game.
    bits2, hands2, last2, _ = g.bitboards()
    _playout.playout(bits2, hands2, last2, turn, *args, 7)
    assert (bits2 == bits).all() and (hands2 == hands).all() and (last2 == last).all()


@pytest.mark.parametrize(("variant", "players"), SETUPS)
def test_a_rollouts_returns_are_the_games_score(variant: str, players: int | str) -> None:
    g = Blokus(variant, players)
    rng = np.random.default_rng(5)
    while moves := g.legal_moves():
        g.push(greedy(g, moves, rng) if not moves[0].is_pass else moves[0])
    state = BlokusGame(variant, players).state_of(g)
    # A finished game: the rollout places nothing and scores what is there, bonuses and all.
    assert engine.rollout(state, rng) == state.returns()


@pytest.mark.parametrize(("variant", "players"), SETUPS)
def test_a_rollouts_scores_count_as_the_rules_do(variant: str, players: int | str) -> None:
    g = Blokus(variant, players)
    t = engine._tables(g)
    rng = np.random.default_rng(11)
    k = len(g.colors)
    for _ in range(200):
        hands = rng.random((k, len(PIECE_NAMES))) < rng.choice([0.0, 0.1, 0.5], k)[:, None]
        last = rng.choice([-1, engine._I1, 3], k)
        sheet = score_hands(
            {c: tuple(p for p, h in zip(PIECE_NAMES, hands[i], strict=True) if h)
             for i, c in enumerate(g.colors)},
            {c: None if last[i] < 0 else PIECE_NAMES[last[i]] for i, c in enumerate(g.colors)},
            players=players, variant=variant)  # fmt: skip
        want = tuple(float(sheet.player_totals[n]) for n in player_names(players, variant))
        assert engine._returns(t, hands.astype(np.uint8), last) == want


def test_the_tree_considers_the_best_ranked_biggest_pieces() -> None:
    g = _played("duo", 2, 4, seed=2)
    moves = g.legal_moves()
    ranked = engine.rank(g, moves)
    assert sorted(map(str, ranked)) == sorted(map(str, moves))
    state = BlokusGame("duo").state_of(g)
    chosen = engine._candidates(state, moves)
    assert len(chosen) == engine.CANDIDATES
    assert {len(m.cells) for m in chosen} == {max(len(m.cells) for m in moves)}
    assert chosen == [m for m in ranked if len(m.cells) == 5][: engine.CANDIDATES]


def test_mcts_plays_its_playouts_through_a_rollout_when_given_one() -> None:
    g = Blokus("duo")
    state = BlokusGame("duo").state_of(g)
    calls = []

    def counted(s: object, rng: np.random.Generator) -> tuple[float, ...]:
        calls.append(1)
        return engine.rollout(s, rng)  # type: ignore[arg-type]

    r = mcts(state, playouts=30, candidates=engine._candidates, rollout=counted, seed=1)
    assert r.playouts == 30 and len(calls) == 30
    assert r.best in g.legal_moves()
    assert g.move_stack == []


def test_until_compiled_the_engine_plays_its_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    """While the first compile after installing runs in the background, the tree looks at
    every placement of the biggest pieces, unranked, and playouts go move by move."""
    import polytile._warm

    monkeypatch.setattr(engine, "_fast", False)
    monkeypatch.setattr(polytile._warm, "compiled_or_started", lambda name: False)
    g = _played("duo", 2, 4, seed=2)
    moves = g.legal_moves()
    state = BlokusGame("duo").state_of(g)
    assert engine._candidates(state, moves) == engine._biggest(moves)
    monkeypatch.setattr(engine, "rollout", None)  # not called: it would fail
    r = engine.search(g, None, playouts=5, rng=np.random.default_rng(0))
    assert r.playouts == 5 and r.best in moves
    assert "still compiling" in engine.rests_on()  # what solve-endgame's estimate says


def test_the_estimate_says_what_its_playouts_are(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "_fast", True)
    said = engine.rests_on()
    assert "best-ranked placement" in said and f"the {engine.CANDIDATES} best-ranked" in said
    assert "a square smaller" in said and "compiling" not in said
    monkeypatch.setattr(engine, "SIZE_WEIGHT", None)
    assert "a square smaller" not in engine.rests_on()


def test_the_tree_may_look_at_pieces_a_square_smaller(monkeypatch: pytest.MonkeyPatch) -> None:
    g = _played("duo", 2, 4, seed=2)
    moves = g.legal_moves()
    state = BlokusGame("duo").state_of(g)
    monkeypatch.setattr(engine, "SIZE_WEIGHT", 0.0)
    chosen = engine._candidates(state, moves)
    assert {len(m.cells) for m in chosen} <= {4, 5} and len(chosen) == engine.CANDIDATES
    monkeypatch.setattr(engine, "SIZE_WEIGHT", 100.0)  # a square outweighs any feature
    fives = [m for m in moves if len(m.cells) == 5]
    assert engine._candidates(state, moves) == engine.rank(g, fives)[: engine.CANDIDATES]
