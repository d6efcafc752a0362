"""Gridblock moves scored from the mover's view: the averages against a direct computation
(every hand combination listed by hand, each move's value by plain minimax through the
engine), the weights, exact values when nothing is hidden, sampling."""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations, product

import numpy as np
import pytest

from polytile.puzzles.gridblock.endgame import solve_round
from polytile.puzzles.gridblock.grid import DEFAULT_DECK, Card
from polytile.puzzles.gridblock.rules import Gridblock, Options
from polytile.puzzles.gridblock.view import RoundView, consistent_hands, evaluate_view


def late(seed: int, options: Options, left: int, rnd: int) -> Gridblock:
    """A seeded random game with ``left`` colour-turns left in round ``rnd`` (0-based)."""
    g = Gridblock.new(seed=seed, options=options)
    rng = np.random.default_rng(seed)
    k = len(g.colors)
    while g.step < k + (rnd + 1) * 3 * k - left:
        moves = g.legal_moves()
        g.push_legal(moves[int(rng.integers(len(moves)))])
    return g


def move_value(g: Gridblock, viewer: int) -> dict[str, float]:
    """Each legal move's value for ``viewer`` by plain minimax to the end of the round."""
    k = len(g.colors)
    end = k + (g.round + 1) * 3 * k
    two = g.options.players == 2

    def value() -> float:
        r = g.returns()
        return (r[viewer] - r[1 - viewer]) if two else r[viewer]

    def go() -> float:
        if g.winner is not None or g.step >= end:
            return value()
        vals = []
        for m in g.legal_moves():
            g.push(m)
            vals.append(go())
            g.pop()
        return max(vals) if g.to_move == viewer else min(vals)

    out = {}
    for m in g.legal_moves():
        g.push(m)
        out[str(m)] = go()
        g.pop()
    return out


def direct_average(g: Gridblock) -> dict[str, float]:
    """The weighted average over every hand the other colours may hold, listed here from
    scratch: all 3-card draws of each hidden colour's deck that hold what it played."""
    me = g.to_move
    r = g.round
    hidden = [s for s in range(len(g.colors)) if g.options.player_of(g.colors[s]) != me]
    per: list[list[tuple[tuple[Card, ...], int]]] = []
    for s in hidden:
        draws = Counter(
            tuple(sorted(g.decks[s][i] for i in idx)) for idx in combinations(range(6), 3)
        )
        ok = [(h, n) for h, n in draws.items() if not Counter(g.played[s][r]) - Counter(h)]
        per.append(ok)
    total: dict[str, float] = {}
    weight = 0
    for combo in product(*per):
        full = g.copy()
        for s, (hand, _) in zip(hidden, combo, strict=True):
            full.deals[s] = list(full.deals[s])
            full.deals[s][r] = hand
        w = math.prod(n for _, n in combo)
        weight += w
        for m, v in move_value(full, me).items():
            total[m] = total.get(m, 0.0) + w * v
    return {m: v / weight for m, v in total.items()}


def test_consistent_hands_and_weights() -> None:
    assert len(consistent_hands(DEFAULT_DECK, [])) == 20
    hands = consistent_hands(DEFAULT_DECK, [(0, 1), (1, 2)])
    assert len(hands) == 4 and all(w == pytest.approx(0.25) for _, w in hands)
    deck = [(0, 1), (0, 1), (1, 2), (2, 3), (3, 1), (4, 2)]  # A1 twice
    hands = consistent_hands(deck, [(0, 1)])
    weights = dict(hands)
    assert sum(weights.values()) == pytest.approx(1.0)
    # Draws of 3 of 6 places holding an A1: 16; with both A1s, 4 of them.
    assert weights[((0, 1), (0, 1), (1, 2))] == pytest.approx(1 / 16)
    assert weights[((0, 1), (1, 2), (2, 3))] == pytest.approx(2 / 16)
    assert consistent_hands(deck, [(5, 3)]) == []


@pytest.mark.parametrize(
    ("options", "seed", "left"),
    [
        (Options(players=2), 1, 2),
        (Options(players=2), 2, 3),
        (Options(players=2, two_player_score="weaker"), 3, 2),
        (Options(players=3), 4, 2),
        (Options(players=4), 5, 2),
    ],
)
def test_averages_equal_a_direct_computation(options: Options, seed: int, left: int) -> None:
    g = late(seed, options, left, rnd=2)
    a = evaluate_view(g)
    ev = a.evaluation
    assert ev.kind == "pimc-estimate" and ev.exact_average and ev.complete
    want = direct_average(g)
    assert {str(m): e.mean for m, e in ev.moves.items()} == pytest.approx(want)
    assert all(e.stderr == 0 for e in ev.moves.values())
    assert a.consistent == RoundView(g, g.to_move).count_hidden_states(g.to_move)
    doc = a.as_dict()
    assert doc["note"] == "average perfect-information value, not the game's value"
    assert doc["kind"] == "pimc-estimate" and not a.exact_values


def test_known_hands_give_exact_values() -> None:
    g = late(6, Options(players=2, deal="split"), 5, rnd=1)  # round 2: every hand known
    a = evaluate_view(g)
    assert a.exact_values and a.consistent == 1 and a.as_dict()["kind"] == "exact"
    best = solve_round(g)
    values = {m: e.mean for m, e in a.evaluation.moves.items()}
    sign = 1 if g.to_move == 0 else -1
    assert max(values.values()) == sign * best.value
    assert {m for m, v in values.items() if v == sign * best.value} == set(best.best_moves)


def test_sampling_when_there_are_too_many() -> None:
    g = late(7, Options(players=4), 6, rnd=0)
    view = RoundView(g, g.to_move)
    n = view.count_hidden_states(g.to_move)
    assert n > 20
    a = evaluate_view(g, max_exact=20, samples=6, seed=3)
    again = evaluate_view(g, max_exact=20, samples=6, seed=3)
    ev = a.evaluation
    assert not ev.exact_average and ev.states == 6 and a.consistent == n
    assert {m: e.mean for m, e in ev.moves.items()} == {
        m: e.mean for m, e in again.evaluation.moves.items()
    }
    assert all(e.stderr >= 0 and e.low <= e.mean <= e.high for e in ev.moves.values())


def test_only_the_player_to_move() -> None:
    g = late(8, Options(players=2), 3, rnd=0)
    with pytest.raises(ValueError, match="turn"):
        evaluate_view(g, 1 - g.to_move)
