"""The compiled City Blocks (Henning) search against the Python alpha-beta over the rules."""

from __future__ import annotations

import numpy as np
import pytest

from polytile.errors import IllegalMoveError, SolverError
from polytile.puzzles.henning import _kernel_bounds as kb
from polytile.puzzles.henning import _kernel_search as ks
from polytile.puzzles.henning import _kernel_state as kst
from polytile.puzzles.henning import kernel
from polytile.puzzles.henning.endgame import MARGIN, _Hooks, solve_endgame
from polytile.puzzles.henning.game import HenningGame
from polytile.puzzles.henning.kernel import (
    KernelEncodingError,
    KernelStopped,
    kernel_move_values,
    kernel_value,
)
from polytile.puzzles.henning.moves import PASS, Move
from polytile.puzzles.henning.rules import Henning
from polytile.puzzles.henning.tiles import CH, KINDS
from polytile.solvers.alphabeta import move_values


def late(seed: int, empty: int, reserve: int) -> Henning:
    """A random game at the first moment at most ``empty`` blocks are empty and each reserve
    holds 1 to ``reserve`` tiles (none when ``reserve`` is 0); the first seed from ``seed``
    on that reaches it."""
    least = min(reserve, 1)
    for s in range(seed, seed + 500):
        g = Henning.new(s)
        rng = np.random.default_rng(s)
        while not g.is_over():
            sizes = g.reserve_size(0), g.reserve_size(1)
            if g.empty <= empty and least <= min(sizes) and max(sizes) <= reserve:
                return g
            g.push_legal(g.random_move(rng))
    raise AssertionError("no such position")


def python_move_values(g: Henning, moves: list[Move]) -> list[int]:
    state = HenningGame(open=True).state_of(g.copy())
    values, _ = move_values(state, MARGIN, _Hooks(), moves)
    return [int(v) for v in values]


ROOT_CASES = [(10 * i, e, r) for i, (e, r) in enumerate(
    [(1, 0), (2, 0), (3, 0), (4, 0), (4, 0), (3, 0), (4, 1), (2, 1), (3, 1), (3, 2), (2, 2),
     (2, 2)])]  # fmt: skip
MOVE_CASES = [(7 + 10 * i, e, r) for i, (e, r) in enumerate(
    [(1, 0), (2, 0), (2, 0), (3, 0), (3, 1), (2, 1), (3, 2), (2, 2)])]  # fmt: skip


@pytest.mark.parametrize(("seed", "empty", "reserve"), ROOT_CASES)
def test_value_matches_python_solver(seed: int, empty: int, reserve: int) -> None:
    g = late(seed, empty, reserve)
    before = g.state_key()
    assert kernel_value(g) == solve_endgame(g, open_analysis=True).value
    assert g.state_key() == before


@pytest.mark.parametrize(("seed", "empty", "reserve"), MOVE_CASES)
def test_move_values_match_python(seed: int, empty: int, reserve: int) -> None:
    g = late(seed, empty, reserve)
    moves = g.legal_moves()
    values, nodes = kernel_move_values(g)
    assert values == python_move_values(g, moves) and nodes > 0
    best = max(values) if g.to_move == 0 else min(values)
    assert best == kernel_value(g)


def test_courthouse_swaps() -> None:
    g = late(11, 2, 0)
    assert CH in g.hands[g.to_move]
    moves = g.legal_moves()
    swaps = [m for m in moves if m.swap is not None]
    assert len(swaps) > 50
    values, _ = kernel_move_values(g, moves)
    assert values == python_move_values(g, moves)
    by_move = dict(zip(moves, values, strict=True))
    # some swap changes the value of its courthouse placement
    assert any(by_move[m] != by_move[Move(m.kind, m.block, m.redevelop, m.pay)] for m in swaps)


def test_mover_with_an_empty_hand_passes() -> None:
    g = late(3, 3, 0)
    while g.to_move != 1:
        g.push_legal(g.legal_moves()[0])
    g.hands[1] = []  # as if red had placed all its tiles (the engine does not recount)
    assert g.legal_moves() == [PASS] and not g.is_over()
    values, _ = kernel_move_values(g)
    assert values == python_move_values(g, [PASS])
    assert kernel_value(g) == solve_endgame(g, open_analysis=True).value


def test_game_over_and_illegal_moves() -> None:
    g = late(5, 1, 0)
    g.push_legal(g.legal_moves()[0])
    assert g.is_over() and kernel_value(g) == g.margin()
    g.pop()
    with pytest.raises(IllegalMoveError):
        kernel_move_values(g, [PASS])


def test_corrupted_line_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    g = late(20, 2, 0)
    monkeypatch.setattr(kernel, "decode_move", lambda game, code: game.legal_moves()[-1])
    with pytest.raises(SolverError):
        kernel_move_values(g)
    monkeypatch.undo()
    real = kernel._solve

    def off_by_one(*args: object) -> tuple[object, ...]:
        values, pvs, pv_len, nodes = real(*args)  # type: ignore[arg-type]
        return values + 1, pvs, pv_len, nodes

    monkeypatch.setattr(kernel, "_solve", off_by_one)
    with pytest.raises(SolverError, match="not at its value"):
        kernel_value(g)


def test_node_limit_and_bad_positions() -> None:
    g = late(30, 3, 1)
    with pytest.raises(KernelStopped, match="node limit"):
        kernel_move_values(g, node_limit=10)
    bad = g.copy()
    bad.empty_in[0] += 1
    with pytest.raises(KernelEncodingError):
        kernel_value(bad)
    with pytest.raises(KernelEncodingError):
        kernel.decode_move(g, -5)


# -- the kernel's own bounds and pruning, against exact values from the rules and the Python
# solver (values for the player to move unless said otherwise)


def exact(g: Henning) -> int:
    """The value for the player to move (Python solver, open analysis)."""
    value = solve_endgame(g, open_analysis=True).value
    return value if g.to_move == 0 else -value


def kernel_interval(g: Henning) -> tuple[int, int]:
    """(lo, hi) the kernel starts a node from, for the player to move (no table)."""
    st = kernel.encode(g)
    lo, hi = kb._bounds(st)
    scratch = np.zeros(99, dtype=np.int64)
    if g.hands[g.to_move]:
        if g.empty == 1:
            fin, wait = kb._last_block(st, scratch, kst.INF)
            lo, hi = max(lo, fin), min(hi, max(fin, wait))
        else:
            olo, ohi = kb._one_ply(st, scratch)
            lo, hi = max(lo, olo), min(hi, ohi)
    return lo, hi


def variants(g: Henning) -> list[Henning]:
    """``g`` and positions one step off it that the bounds treat apart: the mover without
    tokens, the other player without a hand, the other player to move."""
    out = [g]
    poor = g.copy()
    poor.money[poor.to_move] = []
    out.append(poor)
    idle = g.copy()
    idle.hands[1 - idle.to_move] = []
    out.append(idle)
    other = g.copy()
    other.turn = 1 - other.turn
    out.append(other)
    return [v for v in out if not v.is_over()]


BOUND_CASES = [
    (13 * i + 1, e, r)
    for i, (e, r) in enumerate(
        [(1, 0), (1, 0), (1, 0), (1, 0), (2, 1), (2, 0), (2, 0), (2, 0), (2, 1), (3, 0),
         (3, 0), (2, 2)]
    )
]  # fmt: skip


@pytest.mark.parametrize(("seed", "empty", "reserve"), BOUND_CASES)
def test_kernel_bounds_hold_the_exact_value(seed: int, empty: int, reserve: int) -> None:
    for g in variants(late(seed, empty, reserve)):
        lo, hi = kernel_interval(g)
        value = exact(g)
        assert lo <= value <= hi, (str(g.move_stack), lo, value, hi)
        assert kernel_value(g) == (value if g.to_move == 0 else -value)


@pytest.mark.parametrize("seed", range(6))
def test_last_block_finish_is_the_best_immediate_end(seed: int) -> None:
    g = late(40 + 7 * seed, 1, 0)
    sign = 1 if g.to_move == 0 else -1
    finishes = []
    for m in g.legal_moves():
        if not m.redevelop:
            g.push(m)
            finishes.append(sign * g.margin())
            g.pop()
    fin, _ = kb._last_block(kernel.encode(g), np.zeros(99, dtype=np.int64), kst.INF)
    assert fin == max(finishes)


def test_last_block_wait_bounds_every_redevelopment() -> None:
    """With one block left, no redevelopment is worth more than ``wait``, and ``wait`` is
    reached when the other's best reply is to finish at once (often)."""
    reached = 0
    for seed in range(10):
        for g in variants(late(900 + 9 * seed, 1, 0))[:2]:
            moves = [m for m in g.legal_moves() if m.redevelop]
            if not moves or not g.hands[1 - g.to_move]:
                continue
            _, wait = kb._last_block(kernel.encode(g), np.zeros(99, dtype=np.int64), kst.INF)
            sign = 1 if g.to_move == 0 else -1
            best = max(sign * v for v in python_move_values(g, moves))
            assert best <= wait
            reached += best == wait
    assert reached >= 3


def test_one_ply_bounds_are_tight_somewhere() -> None:
    """The bounds prune: on most late positions they are narrower than margin +- open."""
    narrower = 0
    for seed in range(12):
        g = late(5 * seed, 2, 0)
        lo0, hi0 = kb._bounds(kernel.encode(g))
        lo, hi = kernel_interval(g)
        narrower += (lo > lo0) or (hi < hi0)
    assert narrower >= 6


def move_bounds(g: Henning) -> dict[Move, int]:
    """The bounds the kernel proves moves by without playing them (the mover's view), for
    every legal move of ``g`` (two or more empty blocks, a tile in the mover's hand)."""
    st = kernel.encode(g)
    stats = np.zeros(kst.ROW_SIZE - kst.STATS_AT, dtype=np.int64)
    kb._one_ply(st, stats)  # loads the open streets' totals
    answers = ks._answers(st, stats)
    wait = ks._wait_bound(st)
    return {
        m: ks._unplayed_bound(st, stats, answers, kernel.encode_move(m), wait, -kst.INF)
        for m in g.legal_moves()
    }


UNPLAYED_CASES = [
    (500 + 11 * i, e, r)
    for i, (e, r) in enumerate([(2, 0), (2, 0), (2, 0), (2, 1), (2, 2), (3, 0), (3, 0)])
] + [(seed, 2, 0) for seed in (0, 1113, 1729, 707, 798, 1288)]  # courthouses in hand


@pytest.mark.parametrize(("seed", "empty", "reserve"), UNPLAYED_CASES)
def test_unplayed_moves_are_bounded_soundly(seed: int, empty: int, reserve: int) -> None:
    """Every bound a move is skipped by is at least its exact value; with two blocks left
    a development's bound is often exactly its value (the other finishes at once)."""
    exact_hits = developments = 0
    for g in variants(late(seed, empty, reserve)):
        if g.empty < 2 or not g.hands[g.to_move]:
            continue
        bounds = move_bounds(g)
        moves = list(bounds)
        sign = 1 if g.to_move == 0 else -1
        for m, value in zip(moves, python_move_values(g, moves), strict=True):
            assert sign * value <= bounds[m], (str(m), sign * value, bounds[m])
            if g.empty == 2 and not m.redevelop and g.hands[1 - g.to_move]:
                developments += 1
                exact_hits += sign * value == bounds[m]
    assert exact_hits * 4 >= developments


def open_tokens(g: Henning) -> int:
    return sum(t for s, t in enumerate(g.tokens) if g.award_of[s] == -1)


@pytest.mark.parametrize(("seed", "empty", "reserve"), UNPLAYED_CASES)
def test_move_bounds_by_the_rules(seed: int, empty: int, reserve: int) -> None:
    """The one-move figures, recomputed by playing the moves through the rules engine:
    what a development settles (margin after it + open tokens left), the other's best
    finish after it (two blocks left), the other's best gain at once after a move and each
    player's best gain by a development."""
    g = late(seed, empty, reserve)
    if g.empty < 2 or not g.hands[g.to_move]:
        return
    st = kernel.encode(g)
    stats = np.zeros(kst.ROW_SIZE - kst.STATS_AT, dtype=np.int64)
    kb._one_ply(st, stats)
    sign = 1 if g.to_move == 0 else -1
    for m in g.legal_moves():
        if m.redevelop:
            continue
        code = kernel.encode_move(m)
        g.push(m)
        assert kb._settle_bound(st, stats, code) == sign * g.margin() + open_tokens(g)
        if g.empty == 1 and g.hands[g.to_move]:
            finishes = []
            for answer in g.legal_moves():
                if not answer.redevelop:
                    g.push(answer)
                    finishes.append(sign * g.margin())
                    g.pop()
            assert kb._answer_bound(st, stats, code) == min(finishes)
        g.pop()
    answers = ks._answers(st, stats)
    other = 1 - g.to_move
    side = 1 if other == 0 else -1
    for m in g.legal_moves():
        if not g.hands[other] or (not m.redevelop and g.empty == 2):
            continue
        g.push(m)
        gains = [0]
        for answer in g.legal_moves():
            if not answer.redevelop:
                total, margin = open_tokens(g), side * g.margin()
                g.push(answer)
                gains.append(side * g.margin() - margin + total - open_tokens(g))
                g.pop()
        g.pop()
        gain = ks._reply_gain(st, stats, answers, kernel.encode_move(m))
        # exact after a redevelopment; after a development a street of its block it left
        # one block short may add to an answer's gain
        assert gain == max(gains) if m.redevelop else gain <= max(gains)
    for who in (0, 1):
        if not g.hands[who]:
            continue
        turned = g.copy()
        turned.turn = who
        side = 1 if who == 0 else -1
        gains = []
        for m in turned.legal_moves():
            if not m.redevelop:
                total, margin = open_tokens(turned), side * turned.margin()
                turned.push(m)
                gains.append(side * turned.margin() - margin + total - open_tokens(turned))
                turned.pop()
        assert kb._developments(st, stats, who)[0] == max(gains)


def test_weaker_relation() -> None:
    h1, h5, s2, s5, f3, f7 = (KINDS.index(n) for n in ("H1", "H5", "S2", "S5", "F3", "F7"))
    assert ks._WEAKER[h1, h5] and ks._WEAKER[h1, s2] and ks._WEAKER[f3, s5]
    assert not ks._WEAKER[h5, h1] and not ks._WEAKER[h5, s2] and not ks._WEAKER[h1, f7]
    assert not ks._WEAKER[f7, s5] and not ks._WEAKER[h1, h1]
    assert not ks._WEAKER[:, 15:].any() and not ks._WEAKER[15:, :].any()


def dead_redevelopments(g: Henning) -> list[Move]:
    """The mover's redevelopments of its first dead block (no swaps)."""
    p = g.to_move
    if not g.money[p]:
        return []
    for b in range(30):
        if g.owner[b] == p and g.empty_in[b // 6] == 0 and g.empty_in[5 + b % 6] == 0:
            return [
                m
                for m in g.legal_moves()
                if m.redevelop and m.block == (b // 6, b % 6) and m.swap is None
            ]
    return []


def test_giving_up_a_weaker_tile_is_never_worse() -> None:
    """The redevelopments of a dead block the kernel skips (a stronger tile given up while a
    weaker one is held) are worth no more than giving up the weaker tile."""
    checked = 0
    for seed in range(60):
        g = late(3 * seed, 2, 0)
        moves = dead_redevelopments(g)
        kinds = {m.kind: m for m in moves}
        pairs = [(j, k) for j in kinds for k in kinds if ks._WEAKER[j, k]]
        if not pairs:
            continue
        values = dict(zip(moves, python_move_values(g, moves), strict=True))
        sign = 1 if g.to_move == 0 else -1
        for j, k in pairs:
            assert sign * values[kinds[j]] >= sign * values[kinds[k]], (KINDS[j], KINDS[k])
            checked += 1
        if checked >= 12:
            break
    assert checked >= 12


def test_generated_moves_are_the_legal_ones_less_the_dominated() -> None:
    """The search lists every legal move except other dead blocks' redevelopments (the
    first dead block stands for all) and, there, tiles given up while a weaker is held."""
    checked = 0
    for seed in range(40):
        g = late(7 * seed, 2 + seed % 2, 0)
        st = kernel.encode(g)
        moves = np.zeros(kst.ROW_SIZE, dtype=np.int64)
        scores = np.zeros(kst.ROW_SIZE, dtype=np.int64)
        n = ks._generate(st, np.zeros(ks.HIST_SIZE, dtype=np.int64), moves, scores)
        listed = {kernel.decode_move(g, int(c)) for c in moves[:n]}
        p = g.to_move
        dead = [
            b
            for b in range(30)
            if g.owner[b] == p and g.empty_in[b // 6] == 0 and g.empty_in[5 + b % 6] == 0
        ]
        expected = set()
        for m in g.legal_moves():
            b = m.block[0] * 6 + m.block[1] if m.block else -1
            if m.redevelop and b in dead:
                if b != dead[0]:
                    continue
                if any(ks._WEAKER[j, m.kind] for j in g.hands[p]):
                    checked += 1
                    continue
            expected.add(m)
        assert listed == expected
    assert checked >= 5


MORE_MOVE_CASES = [
    (301 + 17 * i, e, r) for i, (e, r) in enumerate([(1, 0), (1, 0), (2, 0), (2, 1), (2, 0)])
]


@pytest.mark.parametrize(("seed", "empty", "reserve"), MORE_MOVE_CASES)
def test_move_values_match_python_off_the_beaten_track(seed: int, empty: int, reserve: int) -> None:
    """Every move's value equals the Python solver's in the positions next to random ones
    (a mover without tokens, an idle opponent, the other player to move)."""
    for g in variants(late(seed, empty, reserve))[1:]:
        moves = g.legal_moves()
        values, _ = kernel_move_values(g, moves)
        assert values == python_move_values(g, moves)
