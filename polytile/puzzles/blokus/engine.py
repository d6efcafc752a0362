"""The Blokus engine player: the exact endgame search where it answers in time, Monte Carlo
tree search before.

When every player can still place at most :data:`EXACT_PIECES` pieces, the exact endgame
search (:func:`polytile.puzzles.blokus.endgame.solve_endgame`) gets a quarter of the
time, half when at most :data:`SURE_PIECES` (its
compiled search only once compiled: the first compile after installing runs in the
background instead of eating the move's time); if it finishes, its best move is played and
the choice is exact. Otherwise (and with the time
left) Monte Carlo tree search (:func:`polytile.solvers.mcts.mcts`) estimates the moves.
Both rank placements by what each does to the board
(:mod:`polytile.puzzles.blokus._playout`): the other players' attach points it covers or
crowds, the attach points it gains, the mover's own it closes or spends, the room beside it
it takes from the mover (:data:`WEIGHTS`). The tree considers the :data:`CANDIDATES` best
at each node among the biggest pieces the mover can still place and those one square
smaller (a square worth :data:`SIZE_WEIGHT` in the ranking: a smaller piece is rarely
better while a bigger one fits, the rule Blokus engines start from). A playout plays, for
every colour in turn, its best-ranked placement of its biggest piece that fits after a
random shake of the scores (:data:`NOISE`), to the end of the game, in compiled code. The
reward is the win, with a share for the margin.

Examples
--------
>>> from polytile.puzzles.blokus.rules import Blokus
>>> g = Blokus("duo")
>>> c = engine_choice(g, None, playouts=40)
>>> c.exact, c.label, len(c.move.cells)
(False, 'estimate (Monte Carlo tree search, 40 playouts)', 5)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from polytile.puzzles.blokus import kernels
from polytile.puzzles.blokus.game import BlokusGame, BlokusState
from polytile.puzzles.blokus.moves import PIECE_NAMES, PIECE_SIZES, PlacementTable, placement_table
from polytile.puzzles.blokus.players import greedy
from polytile.puzzles.blokus.rules import Blokus, Move
from polytile.puzzles.blokus.scoring import ALL_PLACED_BONUS, I1_LAST_BONUS, player_names
from polytile.puzzles.engine import DEFAULT_MOVE_TIME, EngineChoice
from polytile.puzzles.game import State
from polytile.solvers.mcts import MctsResult, mcts

__all__ = [
    "CANDIDATES",
    "EXACT_PIECES",
    "EXPLORATION",
    "NOISE",
    "SIZE_WEIGHT",
    "SURE_PIECES",
    "WEIGHTS",
    "compile_playouts",
    "engine_choice",
    "engine_move",
    "fast_playouts",
    "load",
    "playout_policy",
    "rank",
    "rests_on",
    "rollout",
    "search",
]

#: Try the exact endgame search when no player can place more pieces than this...
EXACT_PIECES = 10
#: ... with half the time when none can place more than this, a quarter otherwise.
SURE_PIECES = 6


def _biggest(moves: list[Move]) -> list[Move]:
    if moves[0].is_pass:
        return moves
    size = max(len(m.cells) for m in moves)
    return [m for m in moves if len(m.cells) == size]


#: How often a playout move is the greedy player's (its biggest piece where it blocks the
#: others most) rather than a random placement of the biggest piece.
GREEDY_SHARE = 0.5


def playout_policy(state: State, rng: np.random.Generator) -> Move:
    """A playout's move: the greedy player's (:data:`GREEDY_SHARE` of the time) or a random
    placement of the biggest piece that fits."""
    moves = state.legal_moves()
    if not moves[0].is_pass and len(moves) > 1 and rng.random() < GREEDY_SHARE:
        return greedy(state.board, moves, rng)  # type: ignore[attr-defined]
    moves = _biggest(moves)
    return moves[int(rng.integers(len(moves)))]


#: The weights of a placement's features, in the order of
#: :mod:`polytile.puzzles.blokus._playout` (block, near, contact, spent, grow, wall, waste,
#: lean). Their signs and sizes follow the weights Pentobi learned for Duo's features of
#: the same kind (its ``PriorKnowledge.cpp``, in logarithms); self-play at 200 playouts a
#: move (40 games, seats alternated) kept them against larger and smaller blocking,
#: growing and waste weights, and they won 29 of 40 against the first set (block 2, grow 1,
#: contact 0.5, spent -0.5; ``benchmarks/README.md``).
WEIGHTS = np.array([1.4, 1.4, 0.0, -0.1, 0.5, -1.2, -0.45, 0.4])
#: A playout adds this times a uniform draw in [0, 1) to each placement's score.
NOISE = 2.0
#: How many placements the tree considers at a node: the best-scoring of the biggest.
CANDIDATES = 12
#: The tree's exploration constant (:func:`polytile.solvers.mcts.mcts`).
EXPLORATION = 0.7

_I1 = PIECE_NAMES.index("I1")


@dataclass(frozen=True)
class _Tables:
    table: PlacementTable
    friend: np.ndarray  # colours x colours: the same player
    players: np.ndarray  # players x colours: 1 where the colour counts for the player
    sizes: np.ndarray  # squares per piece index


_TABLES: dict[tuple[str, int | str], _Tables] = {}


def _tables(g: Blokus) -> _Tables:
    key = (g.variant.name, g.players)
    t = _TABLES.get(key)
    if t is None:
        colors = g.colors
        names = player_names(g.players, g.variant.name)
        players = np.array([[float(c in name.split("+")) for c in colors] for name in names])
        friend = np.array([[i == j or bool((players[:, i] * players[:, j]).any())
                            for j in range(len(colors))] for i in range(len(colors))])  # fmt: skip
        t = _Tables(placement_table(g.size), friend, players,
                    np.array(PIECE_SIZES, dtype=np.int64))  # fmt: skip
        _TABLES[key] = t
    return t


def rank(g: Blokus, moves: Sequence[Move], size_weight: float = 0.0) -> list[Move]:
    """``moves`` (placements of the colour to move in ``g``) best first by their features'
    score (:data:`WEIGHTS`), ties in their given order; needs the compiled kernels."""
    from polytile.puzzles.blokus import _playout

    t = _tables(g)
    idx = np.array([t.table.index[m.cells] for m in moves], dtype=np.int64)
    scores = np.empty(len(idx), dtype=np.float64)
    bits = g.bitboards()[0]
    _playout.score_placements(bits, g.colors.index(g.to_move), t.friend, idx, len(idx),
                              t.table.masks, t.table.edge_masks, t.table.corner_masks,
                              g.size, WEIGHTS, scores)  # fmt: skip
    if size_weight:
        scores += size_weight * np.array([len(m.cells) for m in moves])
    order = np.argsort(-scores, kind="stable")
    return [moves[int(i)] for i in order]


#: The tree looks at pieces one square smaller than the biggest too, each square worth this
#: much in their ranking (None: the biggest only). Self-play at 300 playouts a move, 40
#: games each: 3 scored 26.5 and 24.5 of 40 against the biggest only, 5 scored 25 and 1.5
#: scored 22 (``benchmarks/bench_engine_settings.py``).
SIZE_WEIGHT: float | None = 3.0


def _candidates(state: State, moves: list[Any]) -> list[Any]:
    if moves[0].is_pass or not _fast:
        return _biggest(moves)
    size = max(len(m.cells) for m in moves)
    least = size if SIZE_WEIGHT is None else size - 1
    moves = [m for m in moves if len(m.cells) >= least]
    return rank(state.board, moves, SIZE_WEIGHT or 0.0)[:CANDIDATES]  # type: ignore[attr-defined]


def rollout(state: State, rng: np.random.Generator) -> tuple[float, ...]:
    """The players' returns at the end of a compiled playout from ``state`` (a
    :class:`BlokusState`, unchanged) with its seed drawn from ``rng``; needs the compiled
    kernels (:func:`load`)."""
    from polytile.puzzles.blokus import _playout

    assert isinstance(state, BlokusState)
    g = state.board
    t = _tables(g)
    bits, hands, last, turn = g.bitboards()
    pt = t.table
    _playout.playout(bits, hands, last, turn, t.friend, WEIGHTS, NOISE, pt.masks,
                     pt.edge_masks, pt.corner_masks, pt.piece, t.sizes, pt.cell_ptr,
                     pt.cell_placements, g.size, int(rng.integers(2**31)))  # fmt: skip
    return _returns(t, hands, last)


def _returns(t: _Tables, hands: np.ndarray, last: np.ndarray) -> tuple[float, ...]:
    """The players' scores from the colours' ``hands`` and ``last`` pieces (as
    :func:`polytile.puzzles.blokus.scoring.score_hands` counts them)."""
    left = hands.astype(np.int64) @ t.sizes
    colours = np.where(left == 0, ALL_PLACED_BONUS + I1_LAST_BONUS * (last == _I1), -left)
    return tuple(float(v) for v in t.players @ colours)


def _exact(g: Blokus, seconds: float | None) -> EngineChoice | None:
    from polytile.puzzles.blokus.endgame import endgame_size, solve_endgame
    from polytile.puzzles.blokus.endgame_result import EndgameRefused, EndgameStopped

    started = time.perf_counter()
    most = max(endgame_size(g).values(), default=0)
    if most > EXACT_PIECES:
        return None
    from polytile._warm import compiled_or_started

    # A compile after installing takes longer than a move: until it is done (in the
    # background, for later moves), the Python search alone has the time.
    compiled = compiled_or_started("blokus-endgame")
    try:
        share = 2 if most <= SURE_PIECES else 4
        result = solve_endgame(g, time_limit=None if seconds is None else seconds / share,
                               use_compiled=compiled)  # fmt: skip
    except (EndgameRefused, EndgameStopped):
        return None
    line = result.best_line
    if line is None or result.best_move is None:
        return None
    if result.mode == "difference":
        value = line.value if result.to_move == result.players[0] else -line.value
        label = "exact (endgame search)"
    else:
        value = line.value
        label = "exact (endgame search: the score the mover can make sure of)"
    return EngineChoice(result.best_move, True, float(value), label,
                        time.perf_counter() - started)  # fmt: skip


def search(g: Blokus, seconds: float | None, *, playouts: int | None = None,
           rng: np.random.Generator | None = None,
           should_stop: Callable[[], bool] | None = None) -> MctsResult:  # fmt: skip
    """The tree search alone at ``g`` for the player to move: every root move's visits and
    mean margin (its final score minus the best other player's); ``g`` is not changed. The
    compiled playouts are loaded first (:func:`load`), within ``seconds``."""
    started = time.perf_counter()
    load(g.variant.name)
    if seconds is not None:
        seconds = max(0.05, seconds - (time.perf_counter() - started))
    state = BlokusGame(g.variant.name, g.players).state_of(g.copy())
    return mcts(state, time_limit=seconds, playouts=playouts, policy=playout_policy,
                candidates=_candidates, rollout=rollout if _fast else None,
                exploration=EXPLORATION, seed=rng, should_stop=should_stop)  # fmt: skip


_loaded: set[str] = set()
#: Whether the compiled ranking and playouts (:mod:`_playout`) are loaded: not while their
#: first compile after installing runs in the background, when the tree takes the biggest
#: pieces unranked and the playouts go move by move (:func:`playout_policy`).
_fast = False


def load(variant: str = "duo") -> None:
    """Switch to the compiled move generator and load it (numba and its cached kernels:
    about a second in a new process, 2-10 s on a busy machine), once a process; and the
    compiled ranking and playouts, once compiled (their first compile after installing runs
    in the background, :func:`polytile._warm.compiled_or_started`). A search fills its time
    with playouts, so the numpy kernels' head start (:mod:`kernels`) only delays the
    switch. The engine loads them before a move's clock starts, so a move's time goes to
    playouts; a process's first move still takes the load on top of its time in wall time
    (the first 1 s move of a process had taken up to 13 s on a busy machine, the load
    counted inside its time and its playouts in the slower kernels)."""
    if variant in _loaded and _fast:
        return
    from polytile._warm import compiled_or_started

    g = Blokus(variant)
    moves = g.legal_moves()
    g.push(greedy(g, moves, np.random.default_rng(0)))
    if variant not in _loaded:
        kernels.use_compiled()
        g.legal_moves()
        _loaded.add(variant)
    if _fast or compiled_or_started("blokus-endgame"):
        compile_playouts(g)


def compile_playouts(g: Blokus | None = None) -> None:
    """Compile (or load from numba's cache) the ranking and the playouts, here and now, and
    use them from now on; ``g`` is a position with placements to rank (Duo's second move by
    default). The background compile after installing calls this (:mod:`.warm`)."""
    global _fast
    kernels.use_compiled()
    if g is None:
        g = Blokus("duo")
        g.push(greedy(g, g.legal_moves(), np.random.default_rng(0)))
    rank(g, g.legal_moves())
    rollout(BlokusGame(g.variant.name, g.players).state_of(g), np.random.default_rng(0))
    _fast = True


def rests_on() -> str:
    """What a search's playouts and tree rest on now, as an estimate's report says it: the
    compiled ranking and playouts, or their fallback while their first compile runs."""
    if not _fast:
        return ("each playout placing, for every colour in turn, its biggest piece (the "
                "greedy player's choice half the time, else at random) to the end; the tree "
                "over the placements of the mover's biggest pieces (the ranked playouts were "
                "still compiling)")  # fmt: skip
    smaller = "" if SIZE_WEIGHT is None else " and those a square smaller"
    return ("each playout playing, for every colour in turn, the best-ranked placement of "
            "its biggest piece that fits (ranked by what it does to the board, after a "
            "random shake of the scores) to the end; the tree over the "
            f"{CANDIDATES} best-ranked placements of the mover's biggest pieces{smaller}")


def fast_playouts() -> bool:
    """Whether the compiled ranking and playouts are in use (:func:`load`)."""
    return _fast


def engine_choice(g: Blokus, seconds: float | None = DEFAULT_MOVE_TIME, *,
                  playouts: int | None = None, rng: np.random.Generator | None = None,
                  should_stop: Callable[[], bool] | None = None) -> EngineChoice:  # fmt: skip
    """The engine's move at ``g`` for the colour to move (a pass when it has none), within
    ``seconds`` (or after ``playouts`` playouts) once its move generator is loaded
    (:func:`load`); ``g`` is not changed."""
    load(g.variant.name)
    started = time.perf_counter()
    moves = g.legal_moves()
    if len(moves) == 1:
        what = "a forced pass" if moves[0].is_pass else "the only legal move"
        return EngineChoice(moves[0], True, None, what, 0.0)
    exact = _exact(g, seconds) if playouts is None else None
    if exact is not None:
        return exact
    left = None if seconds is None else max(0.05, seconds - (time.perf_counter() - started))
    r = search(g, left, playouts=playouts, rng=rng, should_stop=should_stop)
    return EngineChoice(r.best, False, r.value if r.playouts else None, r.label,
                        time.perf_counter() - started)  # fmt: skip


def engine_move(seconds: float = DEFAULT_MOVE_TIME) -> Callable[[Blokus, list[Move], Any], Move]:
    """A move chooser with :func:`polytile.puzzles.blokus.players.greedy`'s signature
    (``(game, moves, rng)``) that takes ``seconds`` a move."""

    def choose(g: Blokus, moves: list[Move], rng: Any) -> Move:
        return engine_choice(g, seconds, rng=rng).move

    return choose
