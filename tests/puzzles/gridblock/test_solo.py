"""Gridblock solitaire: CP-SAT against a brute force through the rules engine, the replay."""

from __future__ import annotations

import dataclasses

import pytest

from polytile.errors import SolverError
from polytile.puzzles.gridblock.grid import end_tiles
from polytile.puzzles.gridblock.solo import (
    MAX_SCORE,
    SoloPuzzle,
    replay_solo,
    solo_game,
    solo_picture,
    solve_solo,
)


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


@pytest.mark.parametrize(
    ("seed", "rounds", "order"),
    [(s, 1, o) for s in range(4) for o in ("fixed", "free")] + [(s, 2, "fixed") for s in (3, 4)],
)
def test_cpsat_matches_brute_force(seed: int, rounds: int, order: str) -> None:
    puzzle = SoloPuzzle.from_seed(seed, order, rounds=rounds)
    result = solve_solo(puzzle, workers=2)
    assert result.proven_optimal
    assert result.score == brute_force(puzzle)
    assert result.score == result.cubes + result.pairs + 2 * result.triples


@pytest.mark.parametrize("order", ["fixed", "free"])
def test_cpsat_matches_brute_force_with_bonuses(order: str) -> None:
    hands = (((0, 1), (1, 2), (0, 1)), ((0, 1), (3, 1), (0, 1)))
    puzzle = dataclasses.replace(COLUMNS, hands=hands, order=order)
    result = solve_solo(puzzle, workers=2)
    assert result.proven_optimal
    assert result.score == brute_force(puzzle)
    assert result.bonus > 0


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


def test_timed_out_search_reports_a_bound() -> None:
    result = solve_solo(SoloPuzzle.from_seed(0, "free"), time_limit=0.05)
    assert not result.proven_optimal
    assert result.score <= result.bound <= MAX_SCORE
