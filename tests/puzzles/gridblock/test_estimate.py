"""The rest-of-game estimate (:mod:`polytile.puzzles.gridblock.estimate`) and the engine
that uses it: legal, labelled with what it rests on, anytime, deterministic under a seed,
the set-up answered. Limits are playout counts (a time limit only where any answer will do),
so nothing here depends on the machine's speed."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

from polytile.puzzles.gridblock.engine import engine_choice
from polytile.puzzles.gridblock.estimate import CANDIDATES, estimate_game, twin
from polytile.puzzles.gridblock.players import greedy_scores, self_play
from polytile.puzzles.gridblock.rules import Gridblock, Options, tile_points, tile_scores


def played(seed: int, options: Options, turns: int) -> Gridblock:
    """A game after ``turns`` random moves."""
    g = Gridblock.new(seed=seed, options=options)
    self_play(g, ["random"] * len(g.colors), seed=seed, max_moves=turns)
    return g


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_set_up_is_estimated_to_the_end_of_the_game(players: int) -> None:
    g = Gridblock.new(seed=5, options=Options(players=players))
    before = g.state_key()
    e = estimate_game(g, playouts=24, seed=3)
    assert g.state_key() == before  # not changed
    assert e.best in g.legal_moves() and e.result.playouts == 24 and e.result.sampled
    assert e.label.startswith("estimate to the end of the game (Monte Carlo tree search, 24 "
                              "playouts, each on a fresh draw of the hands and deals")  # fmt: skip
    assert e.lead.endswith("at the end of the game") and e.lead in e.label
    if players == 2:
        assert e.lead == "blue+red's points minus yellow+green's at the end of the game"
    else:
        assert e.lead == "blue's points minus the best other colour's at the end of the game"
    assert sum(s.visits for s in e.result.moves) == 24
    assert len({twin(s.move) for s in e.result.moves}) == len(e.result.moves)  # one a tile


def test_deterministic_under_a_seed() -> None:
    g = played(2, Options(players=2), 4 + 5)
    a, b = (estimate_game(g, playouts=30, seed=11) for _ in range(2))
    assert a.result.moves == b.result.moves and a.best == b.best
    c = estimate_game(g, playouts=30, seed=np.random.default_rng(11))
    assert c.result.moves == a.result.moves


def test_reads_only_the_movers_view() -> None:
    """Two full states that look the same to the mover (other hidden hands, other later
    deals) give the same estimate for the same seed."""
    from polytile.puzzles.gridblock.game import GridblockGame

    g = played(4, Options(players=2), 4 + 1)  # yellow to move, blue's hand hidden from it
    state = GridblockGame.of(g.options).state_of(g)
    other = state.sample_hidden(g.to_move, np.random.default_rng(9)).board
    assert other.deals != g.deals
    assert state.information_state(g.to_move) == GridblockGame.of(g.options).state_of(
        other).information_state(g.to_move)  # fmt: skip
    a = estimate_game(g, playouts=20, seed=1)
    b = estimate_game(other, playouts=20, seed=1)
    assert a.result.moves == b.result.moves


def test_anytime_a_tiny_time_limit_still_gives_a_move() -> None:
    g = played(3, Options(players=4), 4 + 2)
    e = estimate_game(g, 1e-6, seed=1)
    assert e.result.playouts >= 1 and e.best in g.legal_moves()
    assert e.result.stopped_by == "time"
    stopped = estimate_game(g, seed=1, should_stop=lambda: True)
    assert stopped.result.playouts == 0 and stopped.best is None


def test_keep_and_only_choose_the_roots_moves() -> None:
    g = played(6, Options(players=2), 4 + 6)
    moves = g.legal_moves()
    scores = greedy_scores(g, moves)
    worst = moves[min(range(len(moves)), key=lambda i: scores[i])]
    e = estimate_game(g, playouts=60, seed=2, keep=[worst])
    assert e.considered <= CANDIDATES + 1
    assert e.stat(worst) is not None  # every root move is tried once before any twice
    only = estimate_game(g, playouts=15, seed=2, only=[worst])
    assert [twin(s.move) for s in only.result.moves] == [twin(worst)]
    assert only.result.moves[0].visits == 15 and only.value == only.result.moves[0].margin


def test_a_finished_game_is_refused() -> None:
    g = Gridblock.new(seed=1, options=Options(players=3))
    g.play_random(seed=1)
    with pytest.raises(ValueError, match="over"):
        estimate_game(g, playouts=5)
    with pytest.raises(ValueError, match="limit"):
        estimate_game(Gridblock.new(seed=1), seed=1)


def test_tile_points_is_the_scoring_of_section_5() -> None:
    rng = np.random.default_rng(0)
    for _ in range(300):
        held = tuple(int(c) for c in rng.integers(-1, 4, size=4))
        counts = Counter(c for c in held if c >= 0)
        pairs = sum(1 for n in counts.values() if n == 2)
        want = [0, 0, 0, 0]
        for c, n in counts.items():
            want[c] = n + (2 if n >= 3 else 1 if n == 2 and pairs == 1 else 0)
        assert tile_points(held) == tuple(want)
        assert tile_scores(list(held) * 2, (0, 1, 2, 3)) == {c: 2 * w for c, w in enumerate(want)}


# -- the engine -------------------------------------------------------------------------------
def test_the_engine_estimates_the_set_up() -> None:
    g = Gridblock.new(seed=2, options=Options(players=2))
    c = engine_choice(g, None, playouts=24, rng=np.random.default_rng(0))
    assert c.move in g.legal_moves() and not c.exact and c.value is not None
    assert c.label.startswith("estimate to the end of the game (Monte Carlo tree search, 24 ")
    few = engine_choice(g, None, playouts=1, rng=np.random.default_rng(0))
    assert few.move in g.legal_moves() and few.value is None
    assert few.label.startswith("greedy (the tree search ran only 1 playout, fewer than its ")


def test_the_engine_values_a_round_move_to_the_end_of_the_game() -> None:
    g = played(2, Options(players=2), 4 + 9)
    c = engine_choice(g, None, playouts=12, rng=np.random.default_rng(0))
    assert c.move in g.legal_moves() and not c.exact and c.value is not None
    choice, value = c.label.split("; its value: ")
    assert choice == "estimate (each move solved to the end of the round over all 4 hand " \
                     "combinations)"  # fmt: skip
    assert value.startswith("estimate to the end of the game (Monte Carlo tree search, 12 ")


def test_the_last_round_is_the_end_of_the_game() -> None:
    """Round 6 under the split deal: every hand known, the round's exact value is the
    game's, labelled exact."""
    g = played(1, Options(players=2, deal="split"), 4 + 5 * 12 + 8)
    c = engine_choice(g, None, rng=np.random.default_rng(0))
    assert c.exact and c.label == "exact to the end of the game (its last round; every hand known)"
    assert c.move in g.legal_moves()


def test_a_stop_before_anything_is_solved_plays_greedy() -> None:
    g = played(2, Options(players=2), 4 + 9)
    c = engine_choice(g, None, should_stop=lambda: True, rng=np.random.default_rng(0))
    assert c.move in g.legal_moves() and c.value is None and c.label.startswith("greedy")


def _wins_at_once(seed: int) -> tuple[Gridblock, list[Any]] | None:
    """The first position of a random game with instant wins where the mover can win at once
    with points unequal (so that a margin counting them is not INSTANT_WIN), and those
    winning moves; None if the game has none."""
    rng = np.random.default_rng(seed)
    g = Gridblock.new(seed, Options(players=2, instant_win=True))
    while not g.is_over():
        moves = g.legal_moves()
        wins = []
        for m in moves:
            g.push(m)
            if g.winner is not None and len(set(g.returns())) > 1:
                wins.append(m)
            g.pop()
        if wins:
            return g, wins
        g.push(moves[int(rng.integers(len(moves)))])
    return None


def test_every_win_at_once_is_worth_the_same() -> None:
    """Option 7.4: a win at once is worth INSTANT_WIN whatever the points, as the exact
    searches count it. The estimate added the points, so the move a record played, which
    won at once, 'lost 1' against another win with a point more (analyse, busy machine)."""
    from polytile.puzzles.gridblock.rules import INSTANT_WIN

    g, wins = next(found for found in map(_wins_at_once, range(40)) if found is not None)
    e = estimate_game(g, playouts=10 * len(wins), seed=3, only=wins)
    margins = [s.margin for s in e.result.moves]
    assert margins and set(margins) == {float(INSTANT_WIN)}
    assert e.value == INSTANT_WIN
