"""Alpha-beta search over the game protocol, with a transposition table: polytile's one
game-tree search for sequential, deterministic, perfect-information games.

The value searched is an :class:`Objective` of the final state: with two sides, the first
player's margin (``returns[0] - returns[1]``, the first player maximising and the second
minimising: negamax in max/min form); with more players, "the score player p can make sure
of" (p maximises its return, everyone else minimises it: the paranoid reading, which is well
defined where max^n is not). A game may supply its own objective (a colour's score, say).

Games speed the search up through :class:`Hooks`: sound bounds of the objective at a node
(the search cuts when they decide), the moves to search in order (a hook may return a subset
when that keeps the value, e.g. the single best line of a colour nobody can disturb), a
transposition key, and a heuristic evaluation for depth-limited passes.

The search is fail-soft alpha-beta storing proven intervals ``(lo, hi)`` and the best move
per key, so every transposition and every re-search narrows what is known. With
``iterative=True`` it deepens one ply at a time, each pass ordered by the table's moves from
the last; a depth limit returns a heuristic value, marked ``exact=False``. The principal
variation is replayed through the rules (a fresh copy and checked :meth:`State.push`) and
must end on a state whose objective equals the value, or :class:`~polytile.errors.SolverError`
is raised: a search bug never reaches a user as an answer.

Examples
--------
>>> from polytile.puzzles.toys import TakeAway
>>> r = alphabeta(TakeAway(7).new_initial_state(), Objective.guaranteed(0))
>>> r.value, r.exact, str(r.best_move)
(1.0, True, 'take 3')

Notes
-----
Work is exponential in the depth in the worst case and about its square root with good
move ordering; the table costs one entry per distinct key visited.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from polytile.errors import PolytileError, SolverError
from polytile.puzzles.game import State, require

__all__ = [
    "Hooks",
    "Objective",
    "ProvenBounds",
    "SearchResult",
    "SearchStopped",
    "alphabeta",
    "move_values",
]

_INF = float("inf")
_EXACT = 1 << 30  # the draft of a value that holds to the end of the game


class SearchStopped(PolytileError, RuntimeError):
    """The search stopped before its answer (a node or time limit, a stop request or Ctrl-C).

    Attributes
    ----------
    reason
        ``"nodes"``, ``"time"``, ``"stop"`` or ``"interrupt"``.
    nodes, seconds
        The work done.
    partial
        With iterative deepening, the result of the deepest pass completed (heuristic, not
        exact), else None.
    proven
        What the exact search had proven of the root before it stopped
        (:class:`ProvenBounds`), or None.
    """

    def __init__(self, reason: str, nodes: int, seconds: float,
                 partial: SearchResult | None = None,
                 proven: ProvenBounds | None = None) -> None:  # fmt: skip
        what = {"nodes": "its node limit", "time": "its time limit", "stop": "a stop request",
                "interrupt": "an interrupt"}[reason]  # fmt: skip
        super().__init__(f"the search stopped at {what} after {nodes:,} positions "
                         f"({seconds:.1f} s) without an answer")  # fmt: skip
        self.reason, self.nodes, self.seconds, self.partial = reason, nodes, seconds, partial
        self.proven = proven


@dataclass(frozen=True)
class ProvenBounds:
    """What an exact search stopped early had proven of its root position: its value lies
    in ``[low, high]`` (either may be infinite), and ``move`` (None: no root move finished)
    makes sure of ``low`` for a maximising side, of ``high`` for a minimising one.

    Read off the transposition table: every root move whose search finished has exact
    bounds there, and the root is at least the best of them (a maximiser) and at most the
    best of the upper bounds of them all (known only once every move has one)."""

    low: float
    high: float
    move: Any
    maximizing: bool
    moves_done: int
    moves: int

    def as_dict(self) -> dict[str, Any]:
        """JSON: infinite bounds as null, the move as text."""
        def finite(x: float) -> float | None:
            return x if math.isfinite(x) else None

        return {"low": finite(self.low), "high": finite(self.high),
                "move": None if self.move is None else str(self.move),
                "moves_done": self.moves_done, "moves": self.moves}  # fmt: skip


@dataclass(frozen=True)
class Objective:
    """What the search optimises: a value of a state (at the end of the game) and who
    raises it.

    Attributes
    ----------
    value
        The objective of a final state.
    maximizing
        Whether the side to move at a state raises the objective (else it lowers it).
    name
        For messages.
    """

    value: Callable[[State], float]
    maximizing: Callable[[State], bool]
    name: str = "objective"

    @classmethod
    def margin(cls, first: int = 0, second: int = 1) -> Objective:
        """``returns[first] - returns[second]``, ``first`` maximising, ``second`` minimising
        (two sides)."""
        return cls(lambda s: s.returns()[first] - s.returns()[second],
                   lambda s: s.to_move == first, f"margin of player {first}")  # fmt: skip

    @classmethod
    def guaranteed(cls, player: int) -> Objective:
        """``returns[player]``, that player maximising and every other minimising (the score
        it can make sure of; the paranoid reading with more than two players)."""
        return cls(lambda s: s.returns()[player], lambda s: s.to_move == player,
                   f"score player {player} can make sure of")  # fmt: skip


class Hooks:
    """Game-specific help for :func:`alphabeta`; every method has a sound default.

    Subclasses override what they can do better. ``tick`` (set by the search before it runs)
    counts a unit of work against the search's limits: call it from expensive hooks that
    search on their own; ``window`` tells :meth:`bounds` how precise it needs to be.
    """

    tick: Callable[[], None] = staticmethod(lambda: None)
    #: The search's window at the node whose :meth:`bounds` are asked (set just before):
    #: bounds that already fall outside it may stop refining.
    window: tuple[float, float] = (-_INF, _INF)

    def key(self, state: State) -> Hashable:
        """The transposition key (default :meth:`State.state_key`)."""
        return state.state_key()

    def final(self, state: State) -> float | None:
        """The objective's value when the game is known to be over at ``state`` and that is
        cheap to tell (the search then skips the table), else None (the default)."""
        return None

    def bounds(self, state: State) -> tuple[float, float] | None:
        """Sound bounds ``(lo, hi)`` of the objective's final value from ``state``, or None."""
        return None

    def moves(self, state: State, hint: Any) -> Iterable[Any]:
        """The moves to search at ``state``, best first; ``hint`` is the table's best move
        from an earlier visit (or None). False (empty) exactly when the game is over; it may
        make its moves lazily, while the search pushes and pops them. The default
        puts ``hint`` first, then :meth:`State.legal_moves` in order."""
        moves = state.legal_moves()
        if hint is not None and hint in moves:
            moves = [hint, *(m for m in moves if m != hint)]
        return moves

    def evaluate(self, state: State) -> float:
        """A heuristic value where a depth-limited pass stops (default: the objective as if
        the game ended here)."""
        raise NotImplementedError("a depth-limited search needs Hooks.evaluate")


@dataclass(frozen=True)
class SearchResult:
    """The answer of :func:`alphabeta`.

    Attributes
    ----------
    value
        The objective under best play (``exact``), or the heuristic value of the deepest
        pass.
    best_move
        A best move at the root (None when the game is over).
    pv
        The principal variation: moves from the root keeping the value (to the end of the
        game when exact), replayed by the rules.
    optimal_moves
        Every root move that keeps the value, when asked for (``all_best=True``), else None.
    nodes, seconds
        Positions searched (hook work counted) and time spent.
    exact
        True when the value is proven to the end of the game.
    depth
        The depth of the deepest pass (None: to the end).
    """

    value: float
    best_move: Any
    pv: tuple[Any, ...]
    optimal_moves: tuple[Any, ...] | None
    nodes: int
    seconds: float
    exact: bool
    depth: int | None = None


class _Stop(Exception):
    pass


class _Search:
    def __init__(self, state: State, objective: Objective, hooks: Hooks,
                 deadline: float | None, node_limit: int | None,
                 stop: Callable[[], bool] | None,
                 progress: Callable[[int, float], None] | None) -> None:  # fmt: skip
        self.state, self.objective, self.hooks = state, objective, hooks
        self.deadline, self.node_limit, self.stop = deadline, node_limit, stop
        self.progress = progress
        self.started = time.perf_counter()
        self.nodes = 0
        self.reason = ""
        self.horizon = False  # a depth-limited pass evaluated some node heuristically
        # key -> (lo, hi, best move, draft)
        self.table: dict[Hashable, tuple[float, float, Any, int]] = {}

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes & 127 == 0:  # a node takes 10 us to 1 ms: the clock costs 60 ns
            now = time.perf_counter()
            if self.progress is not None and self.nodes & 1023 == 0:
                self.progress(self.nodes, now - self.started)
            if self.deadline is not None and now >= self.deadline:
                self.reason = "time"
                raise _Stop
            if self.stop is not None and self.stop():
                self.reason = "stop"
                raise _Stop
        if self.node_limit is not None and self.nodes > self.node_limit:
            self.reason = "nodes"
            raise _Stop

    def search(self, alpha: float, beta: float, depth: int) -> float:
        """Fail-soft alpha-beta; ``depth`` is the plies left, :data:`_EXACT` to the end."""
        self.tick()
        s, hooks = self.state, self.hooks
        done = hooks.final(s)
        if done is not None:
            return done
        key = hooks.key(s)
        lo, hi, hint, draft = self.table.get(key, (-_INF, _INF, None, _EXACT))
        if draft < depth:  # bounds from a shallower pass do not hold at this depth
            lo, hi, draft = -_INF, _INF, _EXACT
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        hooks.window = (max(alpha, lo), min(beta, hi))
        bounds = hooks.bounds(s)
        if bounds is not None:
            lo, hi = max(lo, bounds[0]), min(hi, bounds[1])
            if lo == hi or lo >= beta or hi <= alpha:
                self.table[key] = (lo, hi, hint, draft)
                return lo if lo >= beta or lo == hi else hi
        if depth <= 0 and not s.is_over():
            self.horizon = True
            return hooks.evaluate(s)
        moves = hooks.moves(s, hint) if depth > 0 else ()
        if not moves:  # no legal move: the game is over
            v = self.objective.value(s)
            self.table[key] = (v, v, None, _EXACT)
            return v
        child = depth if depth == _EXACT else depth - 1
        a, b = max(alpha, lo), min(beta, hi)
        maximise = self.objective.maximizing(s)
        best, best_move = (-_INF if maximise else _INF), None
        for move in moves:
            s.push_legal(move)
            try:
                v = self.search(a, b, child)
            finally:
                s.pop()
            if (v > best) if maximise else (v < best):
                best, best_move = v, move
            if maximise:
                a = max(a, v)
            else:
                b = min(b, v)
            if a >= b:
                break
        if best <= max(alpha, lo):
            hi = min(hi, best)
        elif best >= min(beta, hi):
            lo = max(lo, best)
        else:
            lo = hi = best
        self.table[key] = (lo, hi, best_move, depth)
        return best

    def root_bounds(self) -> ProvenBounds | None:
        """What the table proves of the root after a stop (exact entries only); None when
        not one root move finished, or when the game's hooks will not list the root's moves
        once the search is stopped (a game whose hooks watch the stop themselves)."""
        try:
            return self._root_bounds()
        except _Stop:
            return None

    def _root_bounds(self) -> ProvenBounds | None:
        s, hooks = self.state, self.hooks
        if hooks.final(s) is not None or s.is_over():
            return None
        maximise = self.objective.maximizing(s)
        best_lo, best_hi, best_move, done = -_INF, -_INF, None, 0
        moves = list(hooks.moves(s, None))
        for move in moves:
            s.push_legal(move)
            try:
                final = hooks.final(s)
                lo, hi, _, draft = self.table.get(hooks.key(s), (-_INF, _INF, None, 0))
            finally:
                s.pop()
            if final is not None:
                lo = hi = final
            elif draft != _EXACT:
                lo, hi = -_INF, _INF
            mine_lo, mine_hi = (lo, hi) if maximise else (-hi, -lo)
            if mine_lo == mine_hi:
                done += 1
            if mine_lo > best_lo:
                best_lo, best_move = mine_lo, move
            best_hi = max(best_hi, mine_hi)
        if best_move is None:
            return None
        low, high = (best_lo, best_hi) if maximise else (-best_hi, -best_lo)
        root = self.table.get(hooks.key(s))
        if root is not None and root[3] == _EXACT:
            low, high = max(low, root[0]), min(high, root[1])
        return ProvenBounds(low, high, best_move, maximise, done, len(moves))

    def line(self, value: float, depth: int, resolution: float) -> list[Any]:
        """Moves from the root that keep ``value``: to the end, or ``depth`` plies."""
        s = self.state
        line: list[Any] = []
        pushed = 0  # a stop inside a re-search leaves the state at the root all the same
        try:
            while not s.is_over() and len(line) < depth:
                hint = self.table.get(self.hooks.key(s), (0, 0, None, 0))[2]
                for move in self.hooks.moves(s, hint):
                    s.push_legal(move)
                    pushed += 1
                    left = _EXACT if depth == _EXACT else depth - len(line) - 1
                    if self.search(value - resolution, value + resolution, left) == value:
                        line.append(move)
                        break
                    s.pop()
                    pushed -= 1
                else:
                    raise SolverError("the search lost its principal variation")
        finally:
            for _ in range(pushed):
                s.pop()
        return line


def alphabeta(
    state: State,
    objective: Objective,
    hooks: Hooks | None = None,
    *,
    depth: int | None = None,
    iterative: bool = False,
    all_best: bool = False,
    resolution: float = 1.0,
    time_limit: float | None = None,
    node_limit: int | None = None,
    stop: Callable[[], bool] | None = None,
    progress: Callable[[int, float], None] | None = None,
) -> SearchResult:
    """Search ``state`` for the value of ``objective`` under best play by both sides.

    Parameters
    ----------
    state
        The position (left as it was).
    objective
        What is optimised and by whom (:meth:`Objective.margin`,
        :meth:`Objective.guaranteed`, or the game's own).
    hooks
        Game-specific bounds, move lists, keys and evaluation (:class:`Hooks`).
    depth
        Plies to search; None searches to the end of the game (exact).
    iterative
        Deepen one ply at a time up to ``depth`` (or until the search reaches the end),
        each pass ordered by the table from the last.
    all_best
        Also list every root move that keeps the value (one more narrow search each).
    resolution
        The objective's values are multiples of this (1 for scores and money): the principal
        variation and ``all_best`` tell a move's value with windows this wide.
    time_limit, node_limit, stop
        Stop with :class:`SearchStopped` after this many seconds or positions, or when
        ``stop()`` returns True (polled every 1,024 positions).
    progress
        Called every 1,024 positions with (positions, seconds).

    Returns
    -------
    SearchResult

    Raises
    ------
    UnsupportedGameError
        If the game is not sequential, deterministic and of perfect information.
    SearchStopped
        When a limit or Ctrl-C ends the search first (with the deepest completed pass of an
        iterative search in ``partial``).
    SolverError
        If the principal variation does not replay through the rules to the value.
    """
    search, started = _start(state, objective, hooks, time_limit, node_limit, stop, progress)
    limit = _EXACT if depth is None else depth
    passes = range(1, limit + 1) if iterative else [limit]
    result: SearchResult | None = None
    try:
        for d in passes:
            search.horizon = False
            value = search.search(-_INF, _INF, d)
            exact = not search.horizon
            line = search.line(value, _EXACT if exact else d, resolution)
            result = _result(search, value, line, exact, None if exact else d, started)
            if exact:
                break
        if result is None:  # passes is never empty
            raise SolverError("the search made no pass")
        if all_best and result.best_move is not None:
            best = _optimal_moves(search, result, resolution)
            seconds = time.perf_counter() - started
            result = SearchResult(result.value, result.best_move, result.pv, best, search.nodes,
                                  seconds, result.exact, result.depth)  # fmt: skip
    except _Stop:
        raise SearchStopped(search.reason, search.nodes, time.perf_counter() - started,
                            result, search.root_bounds()) from None  # fmt: skip
    except KeyboardInterrupt:
        raise SearchStopped("interrupt", search.nodes, time.perf_counter() - started,
                            result, search.root_bounds()) from None  # fmt: skip
    if result.exact:
        _replay(state, objective, result)
    return result


def move_values(
    state: State,
    objective: Objective,
    hooks: Hooks | None = None,
    moves: Iterable[Any] | None = None,
    *,
    resolution: float = 1.0,
    time_limit: float | None = None,
    node_limit: int | None = None,
    stop: Callable[[], bool] | None = None,
) -> tuple[list[float], int]:
    """The exact value of ``objective`` after each of ``moves`` at ``state`` (default: every
    legal move), both sides playing perfectly afterwards; one search, one shared table.

    Each value is checked: the line that keeps it is replayed through the rules (checked
    :meth:`State.push`) and must end on a state whose objective equals it.

    Returns
    -------
    (values, nodes)
        The values in the order of ``moves``, and the positions searched.

    Raises
    ------
    UnsupportedGameError, SearchStopped, SolverError
        As :func:`alphabeta`.

    Examples
    --------
    >>> from polytile.puzzles.toys import TakeAway
    >>> s = TakeAway(7).new_initial_state()
    >>> move_values(s, Objective.guaranteed(0))[0]
    [-1.0, -1.0, 1.0]
    """
    search, started = _start(state, objective, hooks, time_limit, node_limit, stop, None)
    work = search.state
    todo = list(work.legal_moves() if moves is None else moves)
    values = []
    try:
        for move in todo:
            work.push(move)
            try:
                v = search.search(-_INF, _INF, _EXACT)
                line = search.line(v, _EXACT, resolution)
            finally:
                work.pop()
            check = state.clone()
            check.push(move)
            _replay(check, objective, SearchResult(v, None, tuple(line), None, 0, 0.0, True))
            values.append(v)
    except _Stop:
        raise SearchStopped(search.reason, search.nodes,
                            time.perf_counter() - started) from None  # fmt: skip
    except KeyboardInterrupt:
        raise SearchStopped("interrupt", search.nodes,
                            time.perf_counter() - started) from None  # fmt: skip
    return values, search.nodes


def _start(state: State, objective: Objective, hooks: Hooks | None, time_limit: float | None,
           node_limit: int | None, stop: Callable[[], bool] | None,
           progress: Callable[[int, float], None] | None) -> tuple[_Search, float]:  # fmt: skip
    """Check the game's traits and set a search up on a copy of ``state``."""
    require(state.game, "alpha-beta", sequential=True, deterministic=True,
            perfect_information=True)  # fmt: skip
    hooks = hooks or Hooks()
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    search = _Search(state.clone(), objective, hooks, deadline, node_limit, stop, progress)
    hooks.tick = search.tick
    return search, started


def _result(search: _Search, value: float, line: list[Any], exact: bool, depth: int | None,
            started: float) -> SearchResult:  # fmt: skip
    return SearchResult(value, line[0] if line else None, tuple(line), None, search.nodes,
                        time.perf_counter() - started, exact, depth)  # fmt: skip


def _optimal_moves(search: _Search, result: SearchResult, resolution: float) -> tuple[Any, ...]:
    s, value = search.state, result.value
    depth = _EXACT if result.depth is None else result.depth - 1
    best = []
    for move in s.legal_moves():
        s.push_legal(move)
        try:
            v = search.search(value - resolution, value + resolution, depth)
        finally:
            s.pop()
        if v == value:
            best.append(move)
    return tuple(best)


def _replay(state: State, objective: Objective, result: SearchResult) -> None:
    """The principal variation, replayed with checked moves, must reach the value."""
    check = state.clone()
    for move in result.pv:
        check.push(move)
    if not check.is_over():
        raise SolverError("the principal variation stops before the end of the game")
    reached = objective.value(check)
    if reached != result.value:
        raise SolverError(f"the principal variation ends at {reached}, not at the value "
                          f"{result.value}")  # fmt: skip
