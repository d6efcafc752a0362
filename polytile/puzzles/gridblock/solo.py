"""The Gridblock solitaire: one colour alone, a known card sequence, the most points.

A :class:`SoloPuzzle` is a layout, the colour's deck, the symbol it drew at set-up and its
hand in each round (3 cards), played in the dealt order (``"fixed"``) or in any order
inside each round (``"free"``). :func:`solve_solo` finds the best plan with one of two exact
engines, ``"search"`` (the default: the branch and bound of
:mod:`polytile.puzzles.gridblock.solo_search`) or ``"cpsat"`` (the CP-SAT model of
:mod:`polytile.puzzles.gridblock.model`), and replays the plan through the rules engine
(:class:`~polytile.puzzles.gridblock.rules.Gridblock`, which checks every move and scores
the end position) before returning it; a plan the engine rejects or scores differently
raises :class:`~polytile.errors.SolverError`. Stopped early (a time limit, a node limit,
Ctrl-C), it returns the best plan seen, replayed the same way, with the proven bound.

The most a colour can score is 19 cubes (set-up and 18 turns) plus 12 bonus points: a tile
bonus is worth at most 2 points for 3 cubes, so 19 cubes earn at most ``floor(2 * 19 / 3)
= 12`` (six tiles of 3, or five of 3 and two of 2); 31 in all (:data:`MAX_SCORE`).

Examples
--------
>>> p = SoloPuzzle.from_seed(1).shortened(1)
>>> r = solve_solo(p)
>>> r.proven_optimal, r.score == r.cubes + r.bonus, len(r.turns)
(True, True, 3)
>>> solve_solo(p, engine="cpsat", workers=1).score == r.score
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from polytile.errors import IllegalMoveError, SolverError
from polytile.puzzles.gridblock.grid import (
    CORNERS,
    SIDE,
    SYMBOLS,
    Card,
    card_name,
    tile_name,
    walk_to,
)
from polytile.puzzles.gridblock.model import ORDERS, SoloPlanValues, build_solo_model
from polytile.puzzles.gridblock.moves import Move
from polytile.puzzles.gridblock.rules import ROUNDS, TURNS_PER_ROUND, Gridblock, Options
from polytile.puzzles.gridblock.solo_search import search_solo

if TYPE_CHECKING:  # OR-tools is imported by the "cpsat" engine only
    from ortools.sat.python import cp_model

__all__ = [
    "ENGINES",
    "MAX_SCORE",
    "SoloPuzzle",
    "SoloResult",
    "SoloTurn",
    "plan_moves",
    "replay_solo",
    "solo_game",
    "solo_legend",
    "solo_picture",
    "solve_solo",
    "warm_up",
]

#: 19 cubes plus at most 12 bonus points (see the module notes).
MAX_SCORE = 19 + 12

#: The exact engines of :func:`solve_solo`.
ENGINES = ("search", "cpsat")

#: progress(best score, bound, seconds), called as the best plan or the bound improves.
ProgressFn = Callable[[int, int, float], None]


@dataclass(frozen=True)
class SoloPuzzle:
    """One colour's solitaire: what it plays with and in which order.

    Attributes
    ----------
    layout
        The 36 tiles' symbols (0..5), row-major.
    deck
        The colour's 6 cards.
    setup_symbol
        The symbol drawn at set-up.
    hands
        Each round's 3 cards, in the order dealt (1 to 6 rounds).
    order
        ``"fixed"`` or ``"free"``.
    seed
        The seed it was made from, if any.
    """

    layout: tuple[int, ...]
    deck: tuple[Card, ...]
    setup_symbol: int
    hands: tuple[tuple[Card, ...], ...]
    order: str = "fixed"
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.order not in ORDERS:
            raise ValueError(f"order is 'fixed' or 'free', not {self.order!r}")
        if not 1 <= len(self.hands) <= ROUNDS:
            raise ValueError(f"a solitaire has 1 to {ROUNDS} rounds, not {len(self.hands)}")
        solo_game(self)  # the rules engine checks layout, deck, hands and set-up symbol

    @classmethod
    def from_seed(cls, seed: int = 0, order: str = "fixed", rounds: int = ROUNDS,
                  deal: str = "shuffle") -> SoloPuzzle:  # fmt: skip
        """The seeded solitaire: layout, set-up draw and hands of blue in the game
        ``Gridblock.new(seed)`` makes (default deck), cut to ``rounds`` rounds.

        The engine keeps each hand sorted; the order the 3 cards come in (for ``"fixed"``)
        is a shuffle seeded by ``(seed, 1)``.

        Raises
        ------
        ValueError
            For a bad order, deal or number of rounds.
        """
        game = Gridblock.new(seed=seed, options=Options(deal=deal))
        rng = np.random.default_rng([seed, 1])
        hands = tuple(tuple(h[int(i)] for i in rng.permutation(TURNS_PER_ROUND))
                      for h in game.deals[0])  # fmt: skip
        return cls(tuple(game.layout), tuple(game.decks[0]), game.setup_symbols[0],
                   hands, order, seed).shortened(rounds)  # fmt: skip

    def shortened(self, rounds: int) -> SoloPuzzle:
        """The same puzzle cut to its first ``rounds`` rounds."""
        return replace(self, hands=self.hands[:rounds]) if rounds != len(self.hands) else self

    def with_order(self, order: str) -> SoloPuzzle:
        """The same puzzle with another card order."""
        return replace(self, order=order)

    @property
    def turns(self) -> int:
        """3 per round."""
        return TURNS_PER_ROUND * len(self.hands)


@dataclass(frozen=True)
class SoloTurn:
    """One turn of a plan: the card, the tile the mover ends on, the corner that takes a
    cube (None: a cube is discarded), and one walk there (end tile included)."""

    card: Card
    tile: int
    corner: int | None
    path: tuple[int, ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        via = ",".join(tile_name(t) for t in self.path)
        what = f"cube on {CORNERS[self.corner]}" if self.corner is not None else "discard"
        walk = f" (via {via})" if via else ""  # an answer may leave its walks out
        return f"{card_name(self.card)}@{tile_name(self.tile)} {what}{walk}"


@dataclass(frozen=True)
class SoloResult:
    """A solved (or timed-out) solitaire.

    Attributes
    ----------
    puzzle
    status
        ``"optimal"`` (proven), ``"feasible"`` (the best found in time) or ``"unknown"``
        (no plan found in time).
    start, start_corner
        The set-up: the mover's tile and the corner of the first cube (None without a plan).
    turns
        The plan, one :class:`SoloTurn` per turn (empty without a plan).
    score, cubes, pairs, triples
        The score and its parts as the rules engine counted them: cubes on corners, tiles
        with exactly 2 cubes (+1 each) and with 3 or 4 (+2 each).
    bound
        The proven upper bound on the score (the score itself when optimal).
    seconds
        Wall time of the search.
    engine
        ``"search"`` or ``"cpsat"``.
    effort
        The engine's deterministic effort: search nodes, or CP-SAT branches.
    stopped_by
        Why a search that is not ``"optimal"`` stopped: ``"time limit"``, ``"interrupt"``
        or ``"node limit"`` (None when optimal).
    """

    puzzle: SoloPuzzle
    status: str
    start: int | None
    start_corner: int | None
    turns: tuple[SoloTurn, ...]
    score: int
    cubes: int
    pairs: int
    triples: int
    bound: int
    seconds: float
    engine: str = "search"
    effort: int = 0
    stopped_by: str | None = None

    @property
    def proven_optimal(self) -> bool:
        """True when CP-SAT proved no plan scores more."""
        return self.status == "optimal"

    @property
    def bonus(self) -> int:
        """Tile bonus points: 1 per pair, 2 per triple."""
        return self.pairs + 2 * self.triples

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary: puzzle, plan, score and its parts, proof status."""
        p = self.puzzle
        return {
            "puzzle": "gridblock-solo",
            "seed": p.seed,
            "order": p.order,
            "rounds": len(p.hands),
            "layout": [
                "".join(SYMBOLS[s] for s in p.layout[r * SIDE : (r + 1) * SIDE])
                for r in range(SIDE)
            ],
            "setup_symbol": SYMBOLS[p.setup_symbol],
            "hands": [[card_name(c) for c in h] for h in p.hands],
            "status": self.status,
            "proven_optimal": self.proven_optimal,
            "score": self.score,
            "cubes": self.cubes,
            "bonus": self.bonus,
            "pairs": self.pairs,
            "triples": self.triples,
            "bound": self.bound,
            "max_score": MAX_SCORE,
            "seconds": round(self.seconds, 4),
            "engine": self.engine,
            "effort": self.effort,
            "stopped_by": self.stopped_by,
            "start": None if self.start is None else tile_name(self.start),
            "start_corner": None if self.start_corner is None else CORNERS[self.start_corner],
            "turns": [
                {
                    "round": i // TURNS_PER_ROUND + 1,
                    "card": card_name(t.card),
                    "tile": tile_name(t.tile),
                    "corner": None if t.corner is None else CORNERS[t.corner],
                    "path": [tile_name(x) for x in t.path],
                }
                for i, t in enumerate(self.turns)
            ],
        }


def solo_game(puzzle: SoloPuzzle) -> Gridblock:
    """A rules-engine game with the puzzle's colour (blue) alone, before its set-up.

    The engine plays 2 to 4 players; this builds a 3-player game from the puzzle and keeps
    blue only, so that every rule (set-up, hands, walks, forced cubes, scoring) is the
    engine's. Rounds after the puzzle's last get placeholder hands that are never played.

    Raises
    ------
    ValueError
        If the engine rejects the layout, deck, set-up symbol or a hand.
    """
    deals = list(puzzle.hands) + [puzzle.hands[0]] * (ROUNDS - len(puzzle.hands))
    g = Gridblock(puzzle.layout, Options(players=3), [puzzle.deck] * 3,
                  [puzzle.setup_symbol] * 3, [deals] * 3)  # fmt: skip
    g.colors = (0,)
    g.mover, g.placed, g.discarded = g.mover[:1], g.placed[:1], g.discarded[:1]
    g.played, g.deals, g.decks = g.played[:1], g.deals[:1], g.decks[:1]
    g.setup_symbols = g.setup_symbols[:1]
    return g


def plan_moves(puzzle: SoloPuzzle, values: SoloPlanValues) -> tuple[int, list[SoloTurn]]:
    """Turn the model's plan (start, cards, end tiles) into turns with corners and walks.

    A cube goes on the first free corner (NW, NE, SE, SW) of a matching end tile: with one
    colour the corners a tile's cubes take change nothing but how many there are.

    Returns
    -------
    (start corner, turns)
    """
    held = {values.start: 1}
    turns = []
    here = values.start
    for card, end in zip(values.cards, values.tiles, strict=True):
        n = held.get(end, 0)
        corner = n if puzzle.layout[end] == card[0] and n < len(CORNERS) else None
        if corner is not None:
            held[end] = n + 1
        turns.append(SoloTurn(card, end, corner, walk_to(here, card[1], end) or ()))
        here = end
    return 0, turns


def replay_solo(puzzle: SoloPuzzle, start: int, start_corner: int,
                turns: Sequence[SoloTurn]) -> tuple[int, int, int, int]:  # fmt: skip
    """Play a plan through the rules engine and score it.

    Checks the card order (fixed: each round's cards in the dealt order), then pushes the
    set-up and every turn (walk included) into :func:`solo_game`, which checks that each
    card is in hand, each walk legal, and each cube placed or discarded as the rules say.

    Returns
    -------
    (score, cubes, pairs, triples)

    Raises
    ------
    SolverError
        If the plan has the wrong length or order, or the engine rejects a move.
    """
    if len(turns) != puzzle.turns:
        raise SolverError(f"the plan has {len(turns)} turns, the puzzle {puzzle.turns}")
    if puzzle.order == "fixed":
        dealt = [c for h in puzzle.hands for c in h]
        for i, (t, c) in enumerate(zip(turns, dealt, strict=True)):
            if t.card != c:
                raise SolverError(f"turn {i + 1} plays {card_name(t.card)}; the fixed order "
                                  f"deals {card_name(c)}")  # fmt: skip
    g = solo_game(puzzle)
    try:
        g.push(Move(None, start, start_corner))
        for t in turns:
            g.push(Move(t.card, t.tile, t.corner, t.path or None))
    except (IllegalMoveError, ValueError) as exc:
        raise SolverError(f"the rules engine rejects the plan: {exc}") from exc
    held = [sum(1 for q in range(4) if g.corners[4 * p + q] == 0) for p in range(36)]
    cubes = sum(held)
    pairs = sum(1 for n in held if n == 2)
    triples = sum(1 for n in held if n >= 3)
    return g.scores()[0], cubes, pairs, triples


def _watch(progress: ProgressFn | None, started: float) -> cp_model.CpSolverSolutionCallback:
    """A CP-SAT callback that reports each improving plan to ``progress``."""
    from ortools.sat.python import cp_model

    class _Watch(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            if progress is not None:
                progress(round(self.objective_value), int(self.best_objective_bound + 1e-6),
                         time.perf_counter() - started)  # fmt: skip

    return _Watch()


def solve_solo(puzzle: SoloPuzzle, time_limit: float | None = None, workers: int = 2,
               seed: int = 0, progress: ProgressFn | None = None, engine: str = "search", *,
               deadline: float | None = None, should_stop: Callable[[], bool] | None = None,
               node_limit: int | None = None) -> SoloResult:  # fmt: skip
    """The best plan of a solitaire, proven optimal when the search ends in time.

    Parameters
    ----------
    puzzle
        The solitaire.
    time_limit
        Seconds of search from this call; None for no limit.
    workers, seed
        CP-SAT's workers and random seed (``engine="cpsat"`` only).
    progress
        Called as ``progress(best, bound, seconds)`` as the best plan or the bound improves
        (from a solver thread for CP-SAT).
    engine
        ``"search"`` (branch and bound, :func:`~polytile.puzzles.gridblock.solo_search.
        search_solo`) or ``"cpsat"`` (:func:`~polytile.puzzles.gridblock.model.build_solo_model`).
    deadline
        A ``time.perf_counter()`` instant to stop at (with ``time_limit``, the earlier).
    should_stop
        ``"search"`` only: polled every 5,000 nodes; True stops the search, as Ctrl-C does.
        (CP-SAT stops on Ctrl-C by itself.)
    node_limit
        ``"search"`` only: nodes to visit at most.

    Returns
    -------
    SoloResult
        Its plan replayed and scored by the rules engine; when stopped early, the best plan
        found so far (``status="feasible"``) or none (``"unknown"``), with the proven bound.

    Raises
    ------
    ValueError
        For an unknown engine.
    SolverError
        If CP-SAT fails, or the rules engine rejects the plan or scores it differently from
        the engine.

    Notes
    -----
    The search proves the 6-round seeded solitaires optimal in 10^2 to 10^4.5 nodes (well
    under a second); CP-SAT takes seconds in fixed order and can take minutes in free order
    (see ``benchmarks/bench_gridblock_solo.py``).
    """
    if engine not in ENGINES:
        raise ValueError(f"engine is one of {', '.join(ENGINES)}, not {engine!r}")
    started = time.perf_counter()
    end = math.inf if deadline is None else deadline
    if time_limit is not None:
        end = min(end, started + time_limit)
    if engine == "search":
        relay: Callable[[int, int, int], None] | None = None
        if progress is not None:
            tell = progress

            def _relay(best: int, bound: int, nodes: int) -> None:
                tell(best, bound, time.perf_counter() - started)

            relay = _relay
        found = search_solo(puzzle, None if end == math.inf else end, should_stop, node_limit,
                            relay)  # fmt: skip
        status, values, claimed = found.status, found.plan, found.score
        bound, effort, stopped = found.bound, found.nodes, found.stopped_by
    else:
        from ortools.sat.python import cp_model

        v = build_solo_model(puzzle.layout, puzzle.setup_symbol, puzzle.hands, puzzle.order)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = int(workers)
        solver.parameters.random_seed = int(seed)
        if end != math.inf:
            solver.parameters.max_time_in_seconds = max(0.0, end - time.perf_counter())
        code = solver.solve(v.model, _watch(progress, started))
        if code == cp_model.MODEL_INVALID:
            raise SolverError(f"CP-SAT rejected the gridblock model: {v.model.validate()}")
        if code == cp_model.INFEASIBLE:
            raise SolverError("CP-SAT found no plan, but every solitaire has one")
        # CP-SAT stops on Ctrl-C by itself and returns what it has: before the deadline, a
        # stop can only be that.
        stopped = "time limit" if time.perf_counter() >= end - 0.05 else "interrupt"
        effort = int(solver.num_branches)
        status = {cp_model.OPTIMAL: "optimal", cp_model.FEASIBLE: "feasible"}.get(code, "unknown")
        # Before any plan CP-SAT's bound may not be set yet; the rules' 31 holds.
        bound = int(solver.best_objective_bound + 1e-6)
        bound = bound if 1 <= bound < MAX_SCORE else MAX_SCORE
        values = v.extract(solver) if status != "unknown" else None
        claimed = round(solver.objective_value) if values is not None else 0
    seconds = time.perf_counter() - started
    stopped = None if status == "optimal" else stopped
    if values is None:
        return SoloResult(puzzle, "unknown", None, None, (), 0, 0, 0, 0, bound, seconds, engine,
                          effort, stopped)  # fmt: skip
    start_corner, turns = plan_moves(puzzle, values)
    score, cubes, pairs, triples = replay_solo(puzzle, values.start, start_corner, turns)
    if score != claimed:
        raise SolverError(f"the rules engine scores the plan {score}, the {engine} engine "
                          f"said {claimed}")  # fmt: skip
    if score > bound:
        raise SolverError(f"the plan scores {score}, above the proven bound {bound}")
    return SoloResult(
        puzzle=puzzle,
        status=status,
        start=values.start,
        start_corner=start_corner,
        turns=tuple(turns),
        score=score,
        cubes=cubes,
        pairs=pairs,
        triples=triples,
        bound=bound,
        seconds=seconds,
        engine=engine,
        effort=effort,
        stopped_by=stopped,
    )


def solo_legend(start: int | None, last: int | None) -> str:
    """The legend line under :func:`solo_picture`'s grid: what a tile's letter, digit and mark
    mean, for the set-up tile ``start`` and the mover's last tile ``last`` (None: not shown).

    Examples
    --------
    >>> solo_legend(0, 7)
    "tiles: symbol, then the cubes on it (. none); * the set-up tile, @ the mover's last tile"
    """
    line = "tiles: symbol, then the cubes on it (. none)"
    if start is not None:
        line += "; * the set-up tile"
    if last is not None:
        line += ", @ the mover's last tile" if start is not None else "; @ the mover's last tile"
        line += " (the set-up tile too)" if last == start else ""
    return line


def solo_picture(result: SoloResult) -> str:
    """The layout with each tile's symbol and cube count (``A3``; ``A.`` for none), the
    set-up tile marked ``*`` and the mover's last tile ``@``, the columns ``a``..``f`` and
    rows ``1``..``6`` as tiles are named (``b3``), a legend line (:func:`solo_legend`), then
    the turn-by-turn plan."""
    p = result.puzzle
    held = dict.fromkeys(range(36), 0)
    if result.start is not None:
        held[result.start] += 1
    for t in result.turns:
        held[t.tile] += t.corner is not None
    last = result.turns[-1].tile if result.turns else None
    lines = ["    " + "".join(f" {c}   " for c in "abcdef")]
    for r in range(SIDE):
        cells = []
        for c in range(SIDE):
            i = r * SIDE + c
            mark = "@" if i == last else ("*" if i == result.start else " ")
            cells.append(f"{SYMBOLS[p.layout[i]]}{held[i] or '.'}{mark}  ")
        lines.append(f"{r + 1:>2}   " + "".join(cells).rstrip())
    lines += [solo_legend(result.start, last), ""]
    if result.start is not None and result.start_corner is not None:
        where, corner = tile_name(result.start), CORNERS[result.start_corner]
        lines.append(f"set-up: drew {SYMBOLS[p.setup_symbol]}, mover on {where}, cube on {corner}")
    for i, t in enumerate(result.turns):
        if i % TURNS_PER_ROUND == 0:
            hand = " ".join(card_name(c) for c in p.hands[i // TURNS_PER_ROUND])
            lines.append(f"round {i // TURNS_PER_ROUND + 1} ({hand}):")
        lines.append(f"  {i + 1:>2}. {t}")
    return "\n".join(lines) + "\n"


def warm_up() -> None:
    """Solve a short seeded solitaire as ``solve`` and ``generate`` do (the best plan, then
    the best other plan below it), so that numba compiles and caches the search
    (:mod:`polytile._warm` runs this in a process of its own the first time)."""
    for order in ("fixed", "free"):
        puzzle = SoloPuzzle.from_seed(1, order).shortened(2)
        best = search_solo(puzzle, node_limit=200_000)
        if best.plan is not None:
            search_solo(puzzle, node_limit=200_000, exclude=best.plan, ceiling=best.score)
