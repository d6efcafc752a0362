"""Gridblock solitaire: both engines against brute forces, the search's bound and memo, the
replay, and stopping early."""

from __future__ import annotations

import dataclasses
from functools import cache

import numpy as np
import pytest

from polytile.errors import SolverError
from polytile.puzzles.gridblock.grid import Card, end_tiles
from polytile.puzzles.gridblock.model import SoloPlanValues
from polytile.puzzles.gridblock.solo import (
    MAX_SCORE,
    SoloPuzzle,
    replay_solo,
    solo_game,
    solo_picture,
    solve_solo,
)
from polytile.puzzles.gridblock.solo_search import POINTS, SoloSearch, search_solo


@cache  # each puzzle is checked with both engines
def brute_force(puzzle: SoloPuzzle) -> int:
    """The best score over every plan, by the rules engine's own legal moves (set-up corners
    and cube corners included).

    Memoised on the mover, the cards left in hand and how many corners of each tile are
    taken: with one colour that is all the rest of the game depends on (the engine's legal
    moves see only whether a corner is free, its scores only counts); a test below checks
    that the corners chosen do not change the score.
    """
    g = solo_game(puzzle)
    dealt = [c for h in puzzle.hands for c in h]
    memo: dict[tuple[object, ...], int] = {}

    def best_from(turn: int) -> int:
        if turn == puzzle.turns:
            return g.scores()[0]
        held = tuple(sum(c >= 0 for c in g.corners[4 * p : 4 * p + 4]) for p in range(36))
        key = (turn, g.mover[0], g.hand(0), held)
        if key not in memo:
            out = -1
            for m in g.legal_moves():
                if puzzle.order == "fixed" and m.card != dealt[turn]:
                    continue
                g.push_legal(m)
                out = max(out, best_from(turn + 1))
                g.pop()
            memo[key] = out
        return memo[key]

    top = -1
    for m in g.legal_moves():  # the set-up: every tile of the drawn symbol, every corner
        g.push_legal(m)
        top = max(top, best_from(0))
        g.pop()
    return top


# A layout where cubes pile up: columns a..f show A..F, so A1 goes up and down column a.
COLUMNS = SoloPuzzle(
    layout=tuple(i % 6 for i in range(36)),
    deck=((0, 1), (0, 1), (0, 1), (1, 2), (3, 1), (5, 3)),
    setup_symbol=0,
    hands=(((0, 1), (3, 1), (0, 1)),),
    order="fixed",
)


def random_puzzle(rng: np.random.Generator, rounds: int, order: str) -> SoloPuzzle:
    """Any layout, any deck of 6 cards (copies allowed), hands drawn from it."""
    layout = tuple(int(x) for x in rng.integers(0, 6, 36))
    deck = tuple((int(rng.integers(6)), int(rng.integers(1, 4))) for _ in range(6))
    hands = tuple(tuple(deck[int(i)] for i in rng.permutation(6)[:3]) for _ in range(rounds))
    return SoloPuzzle(layout, deck, layout[int(rng.integers(36))], hands, order)


def plan_scores(puzzle: SoloPuzzle) -> dict[tuple[object, ...], int]:
    """Every plan (start, then (card, end tile) per turn) and its points, by plain
    enumeration with the rules' scoring (no search, no bound); 1 round only."""
    out: dict[tuple[object, ...], int] = {}
    dealt = [c for h in puzzle.hands for c in h]

    def walk(plan: tuple[object, ...], here: int, held: dict[int, int], left: list[Card]) -> None:
        if not left:
            out[plan] = sum(POINTS[n] for n in held.values())
            return
        choices = [left[0]] if puzzle.order == "fixed" else sorted(set(left))
        for card in choices:
            rest = list(left)
            rest.remove(card)
            symbol, value = card
            for e in end_tiles(here, value):
                more = dict(held)
                if puzzle.layout[e] == symbol and more.get(e, 0) < 4:
                    more[e] = more.get(e, 0) + 1
                walk((*plan, (card, e)), e, more, rest)

    for p in range(36):
        if puzzle.layout[p] == puzzle.setup_symbol:
            walk((p,), p, {p: 1}, list(dealt))
    return out


def best_rest(puzzle: SoloPuzzle, turn: int, here: int, played: tuple[Card, ...],
              held: tuple[int, ...]) -> int:  # fmt: skip
    """The most points the turns from ``turn`` on can add, by memoised recursion over the
    rules (``played``: the cards of this round already played)."""

    @cache
    def rest(turn: int, here: int, played: tuple[Card, ...], held: tuple[int, ...]) -> int:
        if turn == puzzle.turns:
            return 0
        hand = list(puzzle.hands[turn // 3])
        for c in played:
            hand.remove(c)
        choices = [hand[0]] if puzzle.order == "fixed" else sorted(set(hand))
        out = -1
        for card in choices:
            after = () if turn % 3 == 2 else tuple(sorted((*played, card)))
            for e in end_tiles(here, card[1]):
                gain, more = 0, held
                if puzzle.layout[e] == card[0] and held[e] < 4:
                    gain = POINTS[held[e] + 1] - POINTS[held[e]]
                    more = (*held[:e], held[e] + 1, *held[e + 1 :])
                out = max(out, gain + rest(turn + 1, e, after, more))
        return out

    return rest(turn, here, played, held)


@pytest.mark.parametrize("engine", ["search", "cpsat"])
@pytest.mark.parametrize(
    ("seed", "rounds", "order"),
    [(s, 1, o) for s in range(4) for o in ("fixed", "free")] + [(s, 2, "fixed") for s in (3, 4)],
)
def test_engines_match_brute_force(seed: int, rounds: int, order: str, engine: str) -> None:
    puzzle = SoloPuzzle.from_seed(seed, order, rounds=rounds)
    result = solve_solo(puzzle, workers=2, engine=engine)
    assert result.proven_optimal and result.engine == engine
    assert result.score == brute_force(puzzle) == result.bound
    assert result.score == result.cubes + result.pairs + 2 * result.triples


@pytest.mark.parametrize("engine", ["search", "cpsat"])
@pytest.mark.parametrize("order", ["fixed", "free"])
def test_engines_match_brute_force_with_bonuses(order: str, engine: str) -> None:
    hands = (((0, 1), (1, 2), (0, 1)), ((0, 1), (3, 1), (0, 1)))
    puzzle = dataclasses.replace(COLUMNS, hands=hands, order=order)
    result = solve_solo(puzzle, workers=2, engine=engine)
    assert result.proven_optimal
    assert result.score == brute_force(puzzle)
    assert result.bonus > 0


@pytest.mark.parametrize("order", ["fixed", "free"])
def test_search_matches_enumeration_on_random_puzzles(order: str) -> None:
    # Random layouts and decks (copies of a card included: the search plays the lowest
    # unplayed copy first), against every plan enumerated; with and without the memo.
    rng = np.random.default_rng(11)
    for _ in range(12):
        puzzle = random_puzzle(rng, 1, order)
        best = max(plan_scores(puzzle).values())
        assert search_solo(puzzle).score == best
        assert search_solo(puzzle, memo=False).score == best


@pytest.mark.parametrize("order", ["fixed", "free"])
def test_search_matches_cpsat_on_random_puzzles(order: str) -> None:
    rng = np.random.default_rng(5)
    for rounds in (2, 3, 3):
        puzzle = random_puzzle(rng, rounds, order)
        a = solve_solo(puzzle)
        b = solve_solo(puzzle, engine="cpsat")
        assert a.proven_optimal and b.proven_optimal
        assert a.score == b.score
        assert search_solo(puzzle, memo=False).score == a.score


@pytest.mark.parametrize("order", ["fixed", "free"])
def test_the_bound_never_cuts_a_better_rest(order: str) -> None:
    # At every prefix of random plans, the search's bound on what the rest can add is at
    # least the true best rest (memoised recursion over the rules).
    rng = np.random.default_rng(3)
    for _ in range(6):
        puzzle = random_puzzle(rng, 2, order)
        s = SoloSearch(puzzle.layout, puzzle.setup_symbol, puzzle.hands, puzzle.order)
        starts = [p for p in range(36) if puzzle.layout[p] == puzzle.setup_symbol]
        here = starts[int(rng.integers(len(starts)))]
        start, cards, tiles = here, list[Card](), list[int]()
        held = [0] * 36
        held[here] = 1
        for turn in range(puzzle.turns + 1):
            played = tuple(sorted(cards[3 * (turn // 3) : turn])) if turn % 3 else ()
            points, bound = s.bound_after(start, cards, tiles)
            assert points == sum(POINTS[n] for n in held)
            truth = best_rest(puzzle, turn, here, played, tuple(held))
            assert bound >= truth, (turn, bound, truth)
            if turn == puzzle.turns:
                break
            hand = list(puzzle.hands[turn // 3])
            for c in played:
                hand.remove(c)
            card = hand[0] if order == "fixed" else hand[int(rng.integers(len(hand)))]
            ends = end_tiles(here, card[1])
            here = ends[int(rng.integers(len(ends)))]
            if puzzle.layout[here] == card[0] and held[here] < 4:
                held[here] += 1
            cards.append(card)
            tiles.append(here)
    assert s.root_bound() >= search_solo(puzzle).score


def test_excluding_the_best_plan_finds_the_runner_up() -> None:
    rng = np.random.default_rng(8)
    for order in ("fixed", "free", "free"):
        puzzle = random_puzzle(rng, 1, order)
        scores = plan_scores(puzzle)
        found = search_solo(puzzle)
        assert found.plan is not None
        key = (found.plan.start, *zip(found.plan.cards, found.plan.tiles, strict=True))
        assert scores[key] == found.score == max(scores.values())
        other = search_solo(puzzle, exclude=found.plan)
        assert other.status == "optimal" and other.plan != found.plan
        assert other.score == max(v for k, v in scores.items() if k != key)


def test_corners_do_not_matter_alone() -> None:
    # Put every cube on the last free corner instead of the first: same score.
    puzzle = dataclasses.replace(COLUMNS, hands=COLUMNS.hands * 2)
    result = solve_solo(puzzle)
    assert result.start is not None
    held = {result.start: [3]}
    turns = []
    for t in result.turns:
        if t.corner is not None:
            taken = held.setdefault(t.tile, [])
            corner = max(set(range(4)) - set(taken))
            taken.append(corner)
            t = dataclasses.replace(t, corner=corner)
        turns.append(t)
    assert replay_solo(puzzle, result.start, 3, turns)[0] == result.score


def test_free_order_is_never_worse() -> None:
    fixed = SoloPuzzle.from_seed(5, "fixed", rounds=2)
    a = solve_solo(fixed).score
    b = solve_solo(fixed.with_order("free")).score
    assert a <= b <= MAX_SCORE


def test_plan_is_legal_and_follows_the_deal() -> None:
    puzzle = SoloPuzzle.from_seed(7, "fixed", rounds=2)
    result = solve_solo(puzzle)
    assert result.start is not None
    assert puzzle.layout[result.start] == puzzle.setup_symbol
    here = result.start
    for turn, card in zip(result.turns, [c for h in puzzle.hands for c in h], strict=True):
        assert turn.card == card
        assert turn.tile in end_tiles(here, card[1])
        assert len(turn.path) == card[1] and turn.path[-1] == turn.tile
        here = turn.tile
    assert replay_solo(puzzle, result.start, 0, result.turns)[0] == result.score
    doc = result.to_dict()
    assert doc["score"] == result.score and len(doc["turns"]) == 6
    assert "proven" not in solo_picture(result)  # the CLI says that, not the picture


def test_replay_catches_corrupted_plans() -> None:
    puzzle = SoloPuzzle.from_seed(3, "fixed", rounds=2)
    result = solve_solo(puzzle)
    assert result.start is not None
    turns = list(result.turns)
    first = turns[0]
    # An end tile the card cannot reach.
    far = next(t for t in range(36) if t not in end_tiles(result.start, first.card[1]))
    bad = [dataclasses.replace(first, tile=far, path=()), *turns[1:]]
    with pytest.raises(SolverError, match="rules engine"):
        replay_solo(puzzle, result.start, 0, bad)
    # A cube claimed where the rules discard one, or a discard where a cube must go.
    i = next(i for i, t in enumerate(turns) if t.corner is not None)
    bad = [*turns[:i], dataclasses.replace(turns[i], corner=None), *turns[i + 1 :]]
    with pytest.raises(SolverError):
        replay_solo(puzzle, result.start, 0, bad)
    # The fixed order broken.
    swapped = [turns[1], turns[0], *turns[2:]]
    if swapped[0].card != turns[0].card:
        with pytest.raises(SolverError, match="fixed order"):
            replay_solo(puzzle, result.start, 0, swapped)
    with pytest.raises(SolverError, match="turns"):
        replay_solo(puzzle, result.start, 0, turns[:-1])


def test_puzzle_checks() -> None:
    with pytest.raises(ValueError, match="order"):
        SoloPuzzle.from_seed(0, "sorted")
    with pytest.raises(ValueError, match="rounds"):
        SoloPuzzle.from_seed(0, rounds=0)
    p = SoloPuzzle.from_seed(0)
    assert len(p.hands) == 6 and all(len(h) == 3 for h in p.hands)
    assert p == SoloPuzzle.from_seed(0)


@pytest.mark.parametrize("why", ["node limit", "interrupt", "time limit"])
def test_a_stopped_search_returns_its_best_plan_replayed(why: str) -> None:
    puzzle = SoloPuzzle.from_seed(1, "free")
    kw: dict[str, object] = (
        {"node_limit": 200}
        if why == "node limit"
        else ({"should_stop": lambda: True} if why == "interrupt" else {"time_limit": 1e-9})
    )
    result = solve_solo(puzzle, **kw)  # type: ignore[arg-type]
    assert result.status == "feasible" and result.stopped_by == why
    assert result.start is not None and len(result.turns) == puzzle.turns
    # The plan was replayed by the rules engine, which scored it.
    assert replay_solo(puzzle, result.start, 0, result.turns)[0] == result.score
    assert 0 < result.score < result.bound <= MAX_SCORE
    doc = result.to_dict()
    assert doc["stopped_by"] == why and not doc["proven_optimal"]


def test_cpsat_timed_out_reports_a_bound() -> None:
    result = solve_solo(SoloPuzzle.from_seed(0, "free"), time_limit=0.05, engine="cpsat")
    assert not result.proven_optimal and result.stopped_by == "time limit"
    assert result.score <= result.bound <= MAX_SCORE


def test_the_search_is_exact_on_the_benchmark_seeds() -> None:
    # Known optima (both engines agree; CP-SAT needs minutes for free order).
    for order, optima in (("fixed", (23, 24, 23, 26, 21)), ("free", (29, 28, 29, 30, 29))):
        for seed, best in enumerate(optima):
            found = search_solo(SoloPuzzle.from_seed(seed, order))
            assert (found.status, found.score, found.bound) == ("optimal", best, best)
    with pytest.raises(ValueError, match="engine"):
        solve_solo(SoloPuzzle.from_seed(0).shortened(1), engine="magic")
    s = SoloSearch(COLUMNS.layout, 0, COLUMNS.hands, "fixed")
    with pytest.raises(ValueError, match="hand"):
        s.forbid(SoloPlanValues(0, ((5, 3),) * 3, (1, 2, 3)))
