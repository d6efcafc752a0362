"""The engine players of every game: legal, labelled, exact only where an exact search
chose, and reading only what their player may see."""

from __future__ import annotations

import numpy as np

from polytile.puzzles.blokus.players import greedy, take_back
from polytile.puzzles.blokus.rules import Blokus
from polytile.puzzles.gridblock.rules import Gridblock, Options
from polytile.puzzles.henning.game import HenningGame
from polytile.puzzles.henning.rules import Henning
from polytile.puzzles.walkable.rules import PASS, Walkable


def _greedy_duo(seed: int, before_end: int) -> Blokus:
    g = Blokus("duo")
    rng = np.random.default_rng(seed)
    while moves := g.legal_moves():
        g.push(moves[0] if moves[0].is_pass else greedy(g, moves, rng))
    take_back(g, before_end)
    return g


def test_blokus_estimate_early_and_exact_at_the_end() -> None:
    from polytile.puzzles.blokus.engine import engine_choice

    g = Blokus("duo")
    early = engine_choice(g, None, playouts=30, rng=np.random.default_rng(0))
    assert not early.exact and early.label.startswith("estimate (Monte Carlo tree search")
    assert early.move in g.legal_moves() and len(early.move.cells) == 5  # the biggest size
    late = next(g for k in range(2, 12) if len((g := _greedy_duo(3, k)).legal_moves()) > 1)
    stack = len(late.move_stack)
    choice = engine_choice(late, 30.0, rng=np.random.default_rng(0))
    assert len(late.move_stack) == stack  # not changed
    assert choice.exact and choice.label.startswith("exact"), choice
    assert choice.move in late.legal_moves()


def test_henning_engine_reads_only_its_view() -> None:
    from polytile.puzzles.henning.engine import engine_choice

    g = Henning.new(seed=5)
    other = g.copy()  # the same view for the mover, another hidden hand for the opponent
    q = 1 - g.to_move
    state = HenningGame().state_of(other).sample_hidden(g.to_move, np.random.default_rng(9))
    other = state.board
    assert other.hand(g.to_move) == g.hand(g.to_move)
    a = engine_choice(g, None, playouts=12, rng=np.random.default_rng(1))
    b = engine_choice(other, None, playouts=12, rng=np.random.default_rng(1))
    assert a.move == b.move and a.value == b.value
    assert g.is_legal(a.move) and not a.exact and "sampled hidden states" in a.label
    assert other.hand(q) != g.hand(q) or other.reserve(q) != g.reserve(q)


def test_gridblock_engine_labels_its_estimates() -> None:
    from polytile.puzzles.gridblock.engine import engine_choice

    g = Gridblock.new(seed=2, options=Options(players=3))
    setup = engine_choice(g, None, playouts=20, rng=np.random.default_rng(0))
    assert setup.label.startswith("estimate to the end of the game (Monte Carlo tree search")
    while g.is_setup:
        g.push_legal(g.legal_moves()[0])
    # 5 s samples the hand combinations (with no limit all 400 are solved: 30 s)
    c = engine_choice(g, 5.0, playouts=20, rng=np.random.default_rng(0))
    assert c.move in g.legal_moves() and not c.exact and c.value is not None
    assert "end of the round" in c.label and "its value: estimate to the end of the game" in c.label


def test_gridblock_player_plays_the_same_move_without_valuing_it() -> None:
    from polytile.puzzles.gridblock.engine import engine_choice, engine_player
    from polytile.puzzles.gridblock.players import greedy_player

    g = Gridblock.new(seed=3, options=Options(players=2))
    rng = np.random.default_rng(0)
    while g.is_setup or len(g.played[0][g.round]) < 2:  # late in the first round: 16 hands
        g.push(greedy_player(g, rng))
    valued = engine_choice(g, None, playouts=20, rng=np.random.default_rng(1))
    alone = engine_choice(g, None, rng=np.random.default_rng(1), value=False)
    assert alone.move == valued.move and valued.value is not None and alone.value is None
    assert "not valued to the end of the game" in alone.label
    assert engine_player(30.0)(g, np.random.default_rng(1)) == valued.move


def test_walkable_engine_picks_and_drops_legally() -> None:
    from polytile.puzzles.walkable.engine import engine_choice

    g = Walkable.new(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(2):
        picks = [engine_choice(g, p, 30.0, rng=rng) for p in (0, 1)]
        assert all(c.move in g.pick_choices() for c in picks)
        g.select(picks[0].move, picks[1].move)
        drops = [engine_choice(g, p, 30.0, rng=rng).move for p in (0, 1)]
        g.drop(drops[0], drops[1])  # checked by the rules engine
    assert g.round == 2 and all(d == PASS or d.piece for d in drops)


def test_walkable_engine_is_exact_when_little_is_left() -> None:
    from polytile.puzzles.walkable.engine import engine_choice

    g = Walkable.new(seed=0, dead=95)
    c = engine_choice(g, 0, 30.0, rng=np.random.default_rng(0))
    assert c.exact and c.label.startswith("exact") and c.move in g.pick_choices()


def test_the_blokus_engine_loads_its_compiled_kernels_before_its_clock() -> None:
    """A search fills its time with playouts: the engine switches to the compiled move
    generator before the move's clock starts, not in the middle of its first playouts (a
    fresh process's first 1 s move took up to 13 s on a busy machine)."""
    from polytile.puzzles.blokus import engine, kernels

    kernels.use_numpy()
    engine._loaded.clear()
    c = engine.engine_choice(Blokus("duo"), None, playouts=3, rng=np.random.default_rng(0))
    assert kernels.compiled() and "duo" in engine._loaded
    assert c.move in Blokus("duo").legal_moves()


def test_the_walkable_engine_loads_its_solvers_before_its_clock(monkeypatch) -> None:
    """Loading the matrix-game kernels takes a second or two the first time in a process;
    a 0.2 s move reported 1.4 s. The load is made before a decision's clock starts: here a
    load that takes 100 s of a stopped clock is not in any decision's time."""
    from types import SimpleNamespace

    from polytile.puzzles.walkable import engine

    now = [0.0]

    def slow_load() -> None:
        now[0] += 100.0

    monkeypatch.setattr(engine, "_load", slow_load)
    monkeypatch.setattr(engine, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    g = Walkable.new(seed=0, dead=95)
    rng = np.random.default_rng(0)
    for c in (engine.engine_choice(g, 0, None, rng=rng), engine.engine_round(g, None, rng=rng),
              engine.engine_part(g, 1, None, rng=rng)):  # fmt: skip
        assert c.seconds == 0.0
    assert now[0] == 300.0
