"""Gridblock: one colour's best plan for its round, and the rest of a round solved exactly.

:func:`best_plan` answers "what is the most the colour to move can make of its round if
nobody else moved?". Every other colour is held where it is (*they do not move*: no cube of
theirs is added and none of their cards is played), and every plan of the colour to move is
tried: its remaining cards in each order, each end tile of each card (the engine's walks),
a cube wherever the rules put one. Plans are scored by the colour's points at the end of its
round, or with two players by its side's (the two colours summed, or the weaker of them,
as the options say). Which free corner a cube takes changes nothing (scores and moves see
only how many cubes of each colour a tile holds and how many corners are free), so one
corner per tile is tried. A hand of three cards has at most a few thousand plans.

:func:`solve_round` plays the rest of the current round as a perfect-information game
between the players, every hand shown: the hands of a round are known to all only under the
split deal in rounds 2, 4 and 6; any other round is solved only as "open" analysis (the
dealt hands taken as given), and the result says so. The value is

* with 2 players: blue+red's points minus yellow+green's at the end of the round (each
  side's points as the options count them, summed or the weaker colour), blue+red raising
  it and yellow+green lowering it;
* with 3 or 4 players: the points a chosen player can make sure of at the end of the round
  when every other player plays to lower them (the paranoid reading: well defined where
  "each maximises its own" is not).

An instant win (option 7.4) is a win whatever the points: worth
:data:`~polytile.puzzles.gridblock.rules.INSTANT_WIN` to its side (minus that against it with
2 players), every win as good as another
(:class:`~polytile.puzzles.gridblock._round_search.RoundObjective`). The search is the
generic alpha-beta with a transposition table (:mod:`polytile.solvers.alphabeta`) and this
game's hooks (:mod:`polytile.puzzles.gridblock._round_search`): corners are interchangeable;
bounds from the tiles each colour alone can still reach decide most positions a few turns
before the end (:mod:`polytile.puzzles.gridblock._round_bounds`); tiles and colours that can
no longer change the value are left out of the key, and such a colour's moves are searched
once; of a colour's last-card moves that nobody else can interfere with, only the best. The
principal variation is replayed through the engine's checked :meth:`Gridblock.push` and must
end the round on the value (as the engine's returns count it) before anything is returned;
so must a line of every optimal move listed (found by a search after the move that only
reads the line off, or, for a move that differs from one already checked only in its
corner, that move's line with the corners swapped).

A whole round of 2 players (12 colour-turns) takes some thousands of positions, a few
seconds (``benchmarks/bench_gridblock_round.py``).

Examples
--------
>>> from polytile.puzzles.gridblock.rules import Gridblock, Options
>>> g = Gridblock.new(seed=4, options=Options(players=2, deal="split"))
>>> _ = [g.push_legal(g.legal_moves()[0]) for _ in range(4 + 12 + 8)]  # 4 turns left
>>> r = solve_round(g)
>>> r.open, len(r.pv), r.value == r.pv_value
(False, 4, True)
>>> p = best_plan(g)
>>> len(p.plan), p.score >= p.now
(1, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any

from polytile.errors import IllegalMoveError, PolytileError, SolverError
from polytile.puzzles.gridblock._round_bounds import tile_table
from polytile.puzzles.gridblock._round_search import (
    PinnedHooks,
    RoundHooks,
    RoundObjective,
    RoundState,
    objective_for,
    round_end,
)
from polytile.puzzles.gridblock.grid import Card, end_tiles, walk_to
from polytile.puzzles.gridblock.moves import Move
from polytile.puzzles.gridblock.rules import COLOR_NAMES, INSTANT_WIN, Gridblock, tile_scores
from polytile.solvers.alphabeta import ProvenBounds, SearchStopped, alphabeta

__all__ = [
    "HiddenCardsError",
    "PlanResult",
    "RoundSolution",
    "RoundStopped",
    "best_plan",
    "describe_value",
    "hands_known",
    "player_label",
    "round_objective",
    "solve_round",
]


class HiddenCardsError(PolytileError, ValueError):
    """The players do not all know every hand of the round and open analysis was not asked
    for."""


class RoundStopped(PolytileError, RuntimeError):
    """The exact search stopped (time or node limit, a stop request, Ctrl-C) before its
    answer.

    Attributes
    ----------
    reason
        ``"time"``, ``"nodes"``, ``"stop"`` or ``"interrupt"``.
    nodes, seconds
        The work done.
    """

    def __init__(self, reason: str, nodes: int, seconds: float,
                 proven: ProvenBounds | None = None) -> None:  # fmt: skip
        what = {"time": "its time limit", "nodes": "its node limit", "interrupt": "an interrupt",
                "stop": "a stop request"}[reason]  # fmt: skip
        super().__init__(f"the exact round search stopped at {what} after {nodes:,} positions "
                         f"({seconds:.1f} s) without an answer")  # fmt: skip
        self.reason, self.nodes, self.seconds = reason, nodes, seconds
        #: What it had proven of the round's value before it stopped.
        self.proven = proven


def describe_value(mode: str, player: str) -> str:
    """What a round's value is, in words, by its objective's ``mode``; ``player`` names the
    colour whose points it is with 3-4 players."""
    if mode == "margin":
        return "blue+red's points minus yellow+green's at the end of the round"
    if mode == "weaker":
        return ("the weaker of blue and red minus the weaker of yellow and green at the end "
                "of the round")  # fmt: skip
    return (f"the points {player} can make sure of at the end of the round, every other "
            "player playing against it")  # fmt: skip


def player_label(g: Gridblock, player: int) -> str:
    """``"blue+red"`` / ``"yellow+green"`` with 2 players, else the colour's name."""
    if g.options.players == 2:
        return ("blue+red", "yellow+green")[player]
    return COLOR_NAMES[g.colors[player]]


def hands_known(g: Gridblock) -> bool:
    """Whether every player knows every hand of the current round: under the split deal in
    rounds 2, 4 and 6 (each hand is the three cards its colour did not draw the round
    before)."""
    return g.options.deal == "split" and g.round % 2 == 1


def round_objective(g: Gridblock, player: int | None = None) -> RoundObjective:
    """The value :func:`solve_round` computes: the 2-player margin, or with 3-4 players the
    score ``player`` (default: the player to move) can make sure of."""
    k = len(g.colors)
    if g.options.players == 2:
        if player not in (None, 0):
            raise ValueError("with 2 players the value is blue+red's margin; name no player")
        return objective_for(k, 2, g.options.two_player_score)
    p = g.to_move if player is None else player
    if not 0 <= p < k:
        raise ValueError(f"player {p} is not in a {k}-player game")
    return objective_for(k, g.options.players, g.options.two_player_score, p)


@dataclass(frozen=True)
class RoundSolution:
    """The exact value of the rest of a round.

    Attributes
    ----------
    value
        The objective under best play (see the module notes).
    mode
        ``"margin"``, ``"weaker"`` (2 players) or ``"guaranteed"`` (3-4 players).
    player
        Whose guaranteed score (3-4 players); 0 (blue+red) with 2 players.
    to_move
        The colour to move (0 blue, 1 yellow, 2 red, 3 green).
    best_moves
        Every legal move of the colour to move that keeps the value (each corner listed);
        a line of each was replayed by the engine to the value.
    pv
        A principal variation to the end of the round, replayed by the engine.
    pv_value
        The objective the engine computes at the end of :attr:`pv` (equal to :attr:`value`).
    scores
        Each colour's points at the end of :attr:`pv`.
    open
        True when not every player knows every hand (open analysis: exact for this deal).
    nodes, seconds
        Positions searched and time spent.
    winner
        The player who wins at once (option 7.4) at the end of :attr:`pv`, or None.
    """

    value: int
    mode: str
    player: int
    to_move: int
    best_moves: tuple[Move, ...]
    pv: tuple[Move, ...]
    pv_value: int
    scores: tuple[int, ...]
    open: bool
    nodes: int
    seconds: float
    winner: int | None = None

    def describe(self) -> str:
        """What :attr:`value` is, in words."""
        return describe_value(self.mode, COLOR_NAMES[self.player])

    def as_dict(self) -> dict[str, Any]:
        """As JSON."""
        return {
            "game": "gridblock",
            "analysis": "round",
            "kind": "exact-open" if self.open else "exact",
            "objective": self.mode,
            "meaning": self.describe(),
            "player": self.player,
            "value": self.value,
            "lead": self.describe(),
            "to_move": COLOR_NAMES[self.to_move],
            "best_moves": [str(m) for m in self.best_moves],
            "pv": [str(m) for m in self.pv],
            "final_scores": [int(s) for s in self.scores],
            "open": self.open,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


def _check_round(g: Gridblock) -> None:
    if g.is_setup:
        raise ValueError("the set-up is not a round: solve from the first turn of round 1 on")
    if g.is_over():
        raise ValueError("the game is over: there is no round left to solve")


def solve_round(
    g: Gridblock,
    *,
    player: int | None = None,
    open_analysis: bool = False,
    all_best: bool = True,
    time_limit: float | None = None,
    node_limit: int | None = None,
    stop: Callable[[], bool] | None = None,
    progress: Callable[[int, float], None] | None = None,
) -> RoundSolution:
    """The exact value of the rest of the current round of ``g`` (not changed), every
    optimal move of the colour to move and a principal variation.

    Parameters
    ----------
    g
        A game in progress, after the set-up.
    player
        With 3-4 players, whose guaranteed score (default: the player to move).
    open_analysis
        Solve even though the players do not all know every hand (the hands dealt in ``g``
        taken as given; :attr:`RoundSolution.open` says so).
    all_best
        Also list every optimal move (one narrow search each), each checked by a line of
        its own replayed through the engine (a search that reads the line off, unless the
        move differs from one already checked only in its corner).
    time_limit, node_limit, stop, progress
        As :func:`polytile.solvers.alphabeta.alphabeta`.

    Raises
    ------
    ValueError
        During the set-up, once the game is over, or for a player not in the game.
    HiddenCardsError
        If a hand is hidden from some player and ``open_analysis`` is False.
    RoundStopped
        When a limit, a stop request or Ctrl-C ends the search first.
    SolverError
        If the principal variation, or the line of a listed optimal move, does not replay
        through the engine to the value.

    Notes
    -----
    With ``all_best``, reading a line for each optimal move adds up to about a quarter to
    the positions searched, a seventh at the median of whole two-player rounds
    (``benchmarks/bench_gridblock_round.py --all-best``).
    """
    _check_round(g)
    hidden = not hands_known(g)
    if hidden and not open_analysis:
        raise HiddenCardsError(
            f"round {g.round + 1}'s hands are not known to every player (they are only under "
            "the split deal, in rounds 2, 4 and 6): score the moves from the mover's view, or "
            "solve the dealt hands as given (open analysis)"
        )
    obj = round_objective(g, player)
    started = time.perf_counter()
    state = RoundState(g.copy(), obj)
    try:
        found = alphabeta(state, obj.as_objective(), RoundHooks(g.layout), all_best=all_best,
                          time_limit=time_limit, node_limit=node_limit, stop=stop,
                          progress=progress)  # fmt: skip
    except SearchStopped as halt:
        raise RoundStopped(halt.reason, halt.nodes, time.perf_counter() - started,
                           halt.proven) from None  # fmt: skip
    value = int(found.value)
    end = replay_line(g, found.pv, obj, value)
    best = tuple(found.optimal_moves or ())
    limits = _Limits(started, time_limit, node_limit, stop, progress, found.nodes)
    _check_best_moves(g, obj, best, tuple(found.pv), value, limits)
    return RoundSolution(value, obj.mode, obj.player, g.to_move_color, best, tuple(found.pv),
                         value, end.scores(), hidden, limits.nodes,
                         time.perf_counter() - started, end.winner)  # fmt: skip


@dataclass
class _Limits:
    """What is left of one :func:`solve_round` call's limits, and its positions so far."""

    started: float
    time_limit: float | None
    node_limit: int | None
    stop: Callable[[], bool] | None
    progress: Callable[[int, float], None] | None
    nodes: int

    def left(self) -> tuple[float | None, int | None]:
        """Seconds and positions left for the next search (RoundStopped when none is)."""
        seconds = time.perf_counter() - self.started
        secs = None if self.time_limit is None else self.time_limit - seconds
        nodes = None if self.node_limit is None else self.node_limit - self.nodes
        if secs is not None and secs <= 0:
            raise RoundStopped("time", self.nodes, seconds)
        if nodes is not None and nodes <= 0:
            raise RoundStopped("nodes", self.nodes, seconds)
        return secs, nodes

    def report(self, nodes: int, _seconds: float) -> None:
        """A later search's progress, counted on from the work before it."""
        if self.progress is not None:
            self.progress(self.nodes + nodes, time.perf_counter() - self.started)


def _check_best_moves(g: Gridblock, obj: RoundObjective, best: Sequence[Move],
                      pv: Sequence[Move], value: int, limits: _Limits) -> None:  # fmt: skip
    """Replay a line of every move of ``best`` through the engine's checked push: each must
    end the round on ``value``, or :class:`SolverError`.

    The narrow re-searches that list the optimal moves keep no line. A move's line is the
    principal variation when it starts the latter; a move that only takes another corner of
    a tile than a move already checked gets that move's line with the two corners swapped
    (corners are interchangeable, which the replay confirms); any other move's line comes
    from a search after it, with its value pinned (:class:`PinnedHooks`), which only reads
    the line off.
    """
    lines: dict[tuple[Card | None, int, bool], tuple[Move, ...]] = {}
    if pv:
        lines[_tile_key(pv[0])] = tuple(pv)
    for move in best:
        known = lines.get(_tile_key(move))
        if known is None:
            line = lines[_tile_key(move)] = _line_after(g, obj, move, value, limits)
        else:
            line = _corner_twin(move, known)
        try:
            replay_line(g, line, obj, value)
        except SolverError as exc:
            raise SolverError(f"the best move {move} fails the engine's check: {exc}") from exc


def _tile_key(move: Move) -> tuple[Card | None, int, bool]:
    """Moves with one key differ at most in the corner of their cube."""
    return move.card, move.tile, move.corner is None


def _corner_twin(move: Move, line: Sequence[Move]) -> tuple[Move, ...]:
    """``line`` with ``move`` first instead of ``line[0]`` (the same card and tile, another
    corner), the two corners swapped in the later moves on that tile."""
    a, b = line[0].corner, move.corner
    swap = {a: b, b: a}
    out = [move]
    for m in line[1:]:
        if m.tile == move.tile and m.corner in swap:
            m = Move(m.card, m.tile, swap[m.corner], m.path)
        out.append(m)
    return tuple(out)


def _line_after(g: Gridblock, obj: RoundObjective, move: Move, value: int,
                limits: _Limits) -> tuple[Move, ...]:  # fmt: skip
    """``move``, then a line from the position after it that keeps ``value`` (the value the
    narrow re-search gave it, pinned there: the search only reads the line off)."""
    state = RoundState(g.copy(), obj)
    try:
        state.push(move)
    except IllegalMoveError as exc:
        raise SolverError(f"the engine rejects the best move {move}: {exc}") from exc
    secs, nodes = limits.left()
    hooks = PinnedHooks(g.layout, state.board.step, value)
    try:
        found = alphabeta(state, obj.as_objective(), hooks, time_limit=secs, node_limit=nodes,
                          stop=limits.stop, progress=limits.report)  # fmt: skip
    except SearchStopped as halt:
        limits.nodes += halt.nodes
        raise RoundStopped(halt.reason, limits.nodes,
                           time.perf_counter() - limits.started) from None  # fmt: skip
    limits.nodes += found.nodes
    if found.value != value:
        raise SolverError(f"the best move {move} ends the round at {found.value:g}, not at the "
                          f"value {value}")  # fmt: skip
    return (move, *found.pv)


def replay_line(g: Gridblock, line: Sequence[Move], obj: RoundObjective, value: int) -> Gridblock:
    """Play ``line`` on a copy of ``g`` with the engine's checked :meth:`Gridblock.push`; it
    must end the round (or the game, by an instant win) on ``value`` as the engine's
    returns count it.

    Raises
    ------
    SolverError
        Otherwise.
    """
    end = g.copy()
    stop = round_end(g)
    try:
        for move in line:
            end.push(move)
    except IllegalMoveError as exc:
        raise SolverError(f"the engine rejects the line: {exc}") from exc
    if end.step != stop and end.winner is None:
        raise SolverError(f"the line ends after {end.step - g.step} turns, not with the round "
                          f"({stop - g.step} turns)")  # fmt: skip
    got = obj.of_board(end)
    if got != value:
        raise SolverError(f"the line ends at {got} by the engine, not at the value {value}")
    return end


# -- one colour's plan ------------------------------------------------------------------------
@dataclass(frozen=True)
class PlanResult:
    """The best plan of the colour to move for the rest of its round, nobody else moving.

    Attributes
    ----------
    color
        The colour (0 blue, 1 yellow, 2 red, 3 green).
    score
        The best plan's score at the end of the round: the colour's points, or with 2 players
        its side's (summed or the weaker colour, as the options say); plus
        :data:`~polytile.puzzles.gridblock.rules.INSTANT_WIN` for a plan that wins at once,
        so that a winning plan comes first (:attr:`won`, :attr:`points` tell them apart).
    now
        That score now.
    plan
        The best plan's moves (walks included), first found in card order.
    plans
        How many plans were tried (orders x end tiles; one corner per tile).
    best_plans
        How many of them reach :attr:`score`.
    """

    color: int
    score: int
    now: int
    plan: tuple[Move, ...]
    plans: int
    best_plans: int

    @property
    def won(self) -> bool:
        """True when the plan wins at once (option 7.4)."""
        return self.score >= INSTANT_WIN

    @property
    def points(self) -> int:
        """The points the plan reaches, a win's bonus left out."""
        return self.score - INSTANT_WIN if self.won else self.score

    def as_dict(self) -> dict[str, Any]:
        """As JSON (``score``: the points, without a win's bonus)."""
        return {"analysis": "plan", "color": COLOR_NAMES[self.color], "score": self.points,
                "now": self.now, "plan": [str(m) for m in self.plan], "plans": self.plans,
                "best_plans": self.best_plans,
                "note": "the other colours held where they are (they do not move)"}  # fmt: skip


def best_plan(g: Gridblock) -> PlanResult:
    """The colour to move's best plan for the rest of its round, the others held where they
    are (see the module notes); the plan is replayed through the engine before it is
    returned.

    Raises
    ------
    ValueError
        During the set-up or once the game is over.
    SolverError
        If the engine rejects the plan or scores it differently.

    Notes
    -----
    At most (cards)! x (end tiles)^(cards) plans: 3! x 4 x 8 x 16 = 3,072 for a hand of
    values 1, 2 and 3 from the middle of the grid, usually far fewer.
    """
    _check_round(g)
    slot = g.to_move_slot
    k = len(g.colors)
    table = tile_table(k)
    codes = [0] * 36
    for t in range(36):
        for q in range(4):
            c = g.corners[4 * t + q]
            if c >= 0:
                codes[t] += 5 ** g.colors.index(c)
    per_now = [sum(table[c][s] for c in codes) for s in range(k)]
    score_of = _side_score(g, slot)
    hand = g.hand(slot)
    step = 5**slot
    instant = g.options.instant_win
    best: tuple[int, tuple[tuple[Card, int, bool], ...]] | None = None
    plans = best_count = 0
    seen: set[tuple[Card, ...]] = set()
    for order in permutations(hand):
        if order in seen:
            continue
        seen.add(order)
        for ends in _walk_ends(g.mover[slot], order):
            per = list(per_now)
            changed: dict[int, int] = {}
            steps = []
            won = False
            for card, e in zip(order, ends, strict=True):
                code = changed.get(e, codes[e])
                put = g.layout[e] == card[0] and sum((code // 5**s) % 5 for s in range(k)) < 4
                if put:
                    for s in range(k):
                        per[s] += table[code + step][s] - table[code][s]
                    changed[e] = code + step
                    won = instant and changed[e] == 3 * step
                steps.append((card, e, put))
                if won:  # the game stops at once (option 7.4)
                    break
            v = score_of(per) + (INSTANT_WIN if won else 0)
            plans += 1
            if best is None or v > best[0]:
                best, best_count = (v, tuple(steps)), 1
            elif v == best[0]:
                best_count += 1
    if best is None:
        raise SolverError("a hand always has a plan")
    moves = _plan_moves(g, slot, best[1])
    _replay_plan(g, moves, score_of, best[0])
    return PlanResult(g.colors[slot], best[0], score_of(per_now), moves, plans, best_count)


def _side_score(g: Gridblock, slot: int) -> Callable[[Sequence[int]], int]:
    """Points per colour -> what the plan of ``slot`` is scored by."""
    if g.options.players != 2:
        return lambda per: per[slot]
    mine = [s for s in range(len(g.colors)) if s % 2 == slot % 2]
    if g.options.two_player_score == "weaker":
        return lambda per: min(per[s] for s in mine)
    return lambda per: sum(per[s] for s in mine)


def _walk_ends(start: int, order: Sequence[Card]) -> list[tuple[int, ...]]:
    """Every sequence of end tiles of ``order`` played from ``start`` (the engine's walks)."""
    out: list[tuple[int, ...]] = [()]
    heres = [start]
    for card in order:
        nxt, nheres = [], []
        for ends, here in zip(out, heres, strict=True):
            for e in end_tiles(here, card[1]):
                nxt.append((*ends, e))
                nheres.append(e)
        out, heres = nxt, nheres
    return out


def _plan_moves(
    g: Gridblock, slot: int, steps: Sequence[tuple[Card, int, bool]]
) -> tuple[Move, ...]:
    """The plan as moves: a cube on the lowest corner free by then, the walk written out."""
    taken: dict[int, int] = {}
    here = g.mover[slot]
    out = []
    for card, e, put in steps:
        corner = None
        if put:
            free = [q for q in range(4) if g.corners[4 * e + q] < 0]
            corner = free[taken.get(e, 0)]
            taken[e] = taken.get(e, 0) + 1
        out.append(Move(card, e, corner, walk_to(here, card[1], e)))
        here = e
    return tuple(out)


def _replay_plan(g: Gridblock, moves: Sequence[Move], score_of: Callable[[Sequence[int]], int],
                 score: int) -> None:  # fmt: skip
    """Push the plan through the engine with the others held: on a copy of ``g`` the colour
    to move plays its turns back to back (the turn counter is set back after each checked
    :meth:`Gridblock.push`; the rest of the state is the engine's own), and the engine's
    points (plus an instant win) must give ``score``."""
    solo = g.copy()
    try:
        for move in moves:
            solo.push(move)
            solo.step -= 1  # hold the turn: the others do not move
    except IllegalMoveError as exc:
        raise SolverError(f"the engine rejects the plan: {exc}") from exc
    points = tile_scores(solo.corners, solo.colors)
    got = score_of([points[c] for c in solo.colors])
    got += INSTANT_WIN if solo.winner is not None else 0
    if got != score:
        raise SolverError(f"the engine scores the plan {got}, the enumeration said {score}")
