"""Walkable Cities endgames solved exactly by backward induction over simultaneous moves.

When the boards are mostly full, few drops are left and the rest of the game can be solved to
its end. Every round is two simultaneous decisions (``seeds/walkable-cities.md`` 3.1-3.4),
each a zero-sum matrix game whose entries are the values of what follows:

- a *drop node* (both picks known): red's and blue's actions are each legal drop of its
  piece and the pass (allowed even with a legal drop, forced without one); an entry is the
  value of the round-start node both actions lead to (resolved together, pass counts moved on,
  rules 3.3-3.4);
- a *round-start node*: the selection as a matrix game over the drop nodes of every pair of
  picks (no choice when the rotation holds one piece, 3.1.2);
- the end (5.1: some pass count reached ``pass_limit``): the final value below.

The value is red's: red maximises it, blue minimises it, both knowing the solution (a Nash
equilibrium of the whole game, found node by node: the subgame-perfect value). Two objectives:

- ``"margin"`` (default): red's boards won minus blue's at the end (-3..3). With a tiebreak
  holder (option ``tiebreak`` ``R`` or ``B``) an equal count scores +0.5 when red holds it,
  -0.5 when blue does, so the sign of a final value is the winner as the rules declare it
  (half a board: the tiebreak is worth less than any board won). Without one, a draw is 0.
- ``"outcome"``: +1 if red wins, -1 if blue wins, 0 for a draw (the tiebreak applied).

A node's value is memoised on its state (cells, rotation, pass counts, picks: a transposition
table). A position where no piece has a legal drop anywhere is final at once (only passes are
left, which change nothing on the boards). Matrices of at most :data:`FULL_MATRIX` entries are
built whole (a pure saddle point is taken without an LP); larger ones are solved by double
oracle (:func:`polytile.solvers.matrix_game.double_oracle`), whose best responses look at
every action with the exact continuation values, so only the entries they need are solved.

Size control: legal drops only disappear as the boards fill, so the legal drops of each
piece *now* bound those of every later phase; :func:`solve_endgame` refuses
(:class:`EndgameRefused`) when some piece has more than ``max_drops`` of them. A time limit
or Ctrl-C stops it (:class:`EndgameStopped`, no value: a partial search proves nothing).

Every answer is checked: at the root, no pure action of either player (picks, and every
legal drop and the pass in each drop node played with positive probability) gains against
the other's mix by more than the tolerance, using the exact continuation values; and the best
line (the most likely actions) is replayed through the rules engine
(:class:`~polytile.puzzles.walkable.rules.Walkable`), whose final score must give the value
the search gave that line's end.

Examples
--------
>>> from polytile.puzzles.walkable.rules import Walkable
>>> g = Walkable.new(seed=0, dead=97)  # three open cells per board: no drop is left
>>> sol = solve_endgame(g)
>>> sol.value, sol.positions >= 1
(0.0, True)
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from polytile.errors import IllegalMoveError, PolytileError, SolverError
from polytile.puzzles.walkable.board import (
    BLUE,
    DEAD,
    PIECES,
    RED,
    UNCLAIMED,
    largest_regions,
    legal_drops,
)
from polytile.puzzles.walkable.rules import PASS, Drop, Round, Walkable, result_of
from polytile.solvers.matrix_game import double_oracle, solve_matrix

__all__ = [
    "FULL_MATRIX",
    "OBJECTIVES",
    "TABLE_ENTRIES",
    "DropGame",
    "EndgameRefused",
    "EndgameSize",
    "EndgameSolution",
    "EndgameStopped",
    "endgame_size",
    "final_value",
    "solve_endgame",
]

OBJECTIVES = ("margin", "outcome")
#: Matrices with at most this many entries are built whole; larger ones by double oracle.
FULL_MATRIX = 64
_CHECK_EVERY = 256  # nodes between clock checks and progress calls

#: The most values the transposition table holds; past it the older half is dropped (a
#: dropped value is only solved again if met again: values are exact, so none changes).
#: About 330 bytes an entry: a 60 s search held 1.16 GB, a 400 s one 5.36 GB, unbounded.
TABLE_ENTRIES = 1_500_000


class EndgameRefused(PolytileError, ValueError):
    """The position is too large for the exact backward induction (a piece has more legal
    drops than allowed)."""


class EndgameStopped(PolytileError, RuntimeError):
    """The backward induction stopped (time limit or interrupt) before its answer.

    Attributes
    ----------
    reason
        ``"time"`` or ``"interrupt"``.
    positions, seconds
        The work done (the positions solved prove nothing about the root).
    """

    def __init__(self, reason: str, positions: int, seconds: float) -> None:
        what = {"time": "its time limit", "interrupt": "an interrupt"}[reason]
        super().__init__(f"the backward induction stopped at {what} after {positions:,} "
                         f"positions ({seconds:.1f} s) without an answer")  # fmt: skip
        self.reason, self.positions, self.seconds = reason, positions, seconds


def final_value(cells: npt.NDArray[np.int8], tiebreak: str = "none",
                objective: str = "margin") -> float:  # fmt: skip
    """Red's value of a finished game with these cells (see the module notes).

    Raises
    ------
    ValueError
        For an unknown objective.
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"objective is one of {', '.join(OBJECTIVES)}, not {objective!r}")
    res = result_of(largest_regions(np.ascontiguousarray(cells, dtype=np.int8)), tiebreak)
    if objective == "outcome":
        return 0.0 if res.winner is None else (1.0 if res.winner == 0 else -1.0)
    if res.margin == 0 and res.winner is not None:
        return 0.5 if res.winner == 0 else -0.5
    return float(res.margin)


@dataclass(frozen=True)
class EndgameSize:
    """How large the rest of the game is, measured before solving.

    Attributes
    ----------
    drops
        Legal drops of each piece now (every later phase has at most as many).
    largest
        The most legal drops of one piece (what ``max_drops`` limits).
    open_cells
        Unclaimed cells that some legal drop covers.
    drop_rounds
        At most this many rounds with a drop are left (each fills 4 open cells or more).
    """

    drops: dict[str, int]
    largest: int
    open_cells: int
    drop_rounds: int

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {"drops": dict(self.drops), "largest": self.largest,
                "open_cells": self.open_cells, "drop_rounds_at_most": self.drop_rounds}  # fmt: skip


def endgame_size(game: Walkable) -> EndgameSize:
    """The size of the rest of ``game`` (see :class:`EndgameSize`)."""
    tables = {p: legal_drops(game.cells, p) for p in PIECES}
    covered = np.unique(np.concatenate([t.ravel() for t in tables.values()]))
    drops = {p: len(t) for p, t in tables.items()}
    return EndgameSize(drops, max(drops.values()), len(covered), len(covered) // 4)


@dataclass(frozen=True)
class DropGame:
    """The equilibrium of one drop node.

    Attributes
    ----------
    picks
        Red's and blue's pieces.
    value
        Red's value of the node.
    red, blue
        Mixed strategies: (drop or :data:`~polytile.puzzles.walkable.rules.PASS`,
        probability), most likely first.
    red_actions, blue_actions
        Each player's actions there (legal drops and the pass).
    """

    picks: tuple[str, str]
    value: float
    red: list[tuple[Drop | str, float]]
    blue: list[tuple[Drop | str, float]]
    red_actions: int
    blue_actions: int

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields (drops in the engine's text form)."""

        def mix(m: list[tuple[Drop | str, float]]) -> list[dict[str, Any]]:
            return [{"action": str(a), "p": p} for a, p in m]

        return {"picks": list(self.picks), "value": self.value, "red": mix(self.red),
                "blue": mix(self.blue), "red_actions": self.red_actions,
                "blue_actions": self.blue_actions}  # fmt: skip


@dataclass(frozen=True)
class EndgameSolution:
    """The exact solution of the rest of a game.

    Attributes
    ----------
    value
        Red's value under equilibrium play (``objective``; see the module notes).
    objective
        ``"margin"`` or ``"outcome"``.
    phase
        ``"select"``, ``"drop"`` or ``"over"`` at the root.
    selection
        At a round's start with a choice: ``(red mix, blue mix)`` of picks, most likely first.
    pick_values
        At a round's start: each pair of picks' drop-node value.
    drop_games
        The drop nodes played with positive probability from the root, with their mixes.
    line
        The most likely rounds to the end of the game, replayed by the rules engine.
    line_value
        The value at the end of that line (the final score's value).
    gap
        What the best pure deviation at the root gains (the check; 0 up to the LP precision).
    positions
        Nodes solved (round starts, drop nodes and finished positions).
    seconds
        Time spent.
    size
        The size measured before solving.
    """

    value: float
    objective: str
    phase: str
    selection: tuple[list[tuple[str, float]], list[tuple[str, float]]] | None
    pick_values: dict[tuple[str, str], float] = field(repr=False)
    drop_games: list[DropGame]
    line: list[Round]
    line_value: float
    gap: float
    positions: int
    seconds: float
    size: EndgameSize

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields (drops and rounds in the engine's text form)."""
        sel = None
        if self.selection is not None:
            sel = {who: [{"pick": p, "p": q} for p, q in m]
                   for who, m in zip(("red", "blue"), self.selection, strict=True)}  # fmt: skip
        return {"value": self.value, "objective": self.objective, "phase": self.phase,
                "selection": sel,
                "pick_values": [{"picks": list(k), "value": v}
                                for k, v in self.pick_values.items()],
                "drop_phases": [d.as_dict() for d in self.drop_games],
                "line": [str(r) for r in self.line], "line_value": self.line_value,
                "gap": self.gap, "positions": self.positions, "seconds": self.seconds,
                "size": self.size.as_dict()}  # fmt: skip


Mix = dict[int, float]
#: A solved drop node: value, both mixes, both action lists, the continuation values.
_Node = tuple[float, Mix, Mix, list[int], list[int], Callable[[int, int], float]]
#: A position's open cells as bit masks: (red's, blue's, dead), over the root's open cells.
State = tuple[int, int, int]
PASS_INDEX = -1


class _Stop(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason


class _Solver:
    """The backward induction over one root's reachable positions (see the module notes).

    The root's unclaimed cells are numbered; a position is three bit masks over them (red,
    blue, dead: the rest still unclaimed), and a drop is the mask of its four cells. Legal
    drops only disappear, so the root's legal drops are all a later phase can have.
    """

    def __init__(self, game: Walkable, objective: str, deadline: float | None,
                 progress: Callable[[int, float], None] | None, tol: float) -> None:  # fmt: skip
        self.limit, self.tiebreak = game.options.pass_limit, game.options.tiebreak
        self.objective, self.deadline, self.progress, self.tol = objective, deadline, progress, tol
        self.base = game.cells.copy()
        self.free = np.flatnonzero(game.cells == UNCLAIMED)
        self.everything = (1 << len(self.free)) - 1
        bit = {int(g): 1 << k for k, g in enumerate(self.free)}
        self.rows = {p: np.ascontiguousarray(legal_drops(game.cells, p)) for p in PIECES}
        self.masks = {p: [sum(bit[int(g)] for g in row) for row in self.rows[p]]
                      for p in PIECES}  # fmt: skip
        self.any_drop = sorted({m for ms in self.masks.values() for m in ms})
        self.values: dict[Hashable, float] = {}
        self.positions = 0
        self.started = time.perf_counter()

    def state(self, cells: npt.NDArray[np.int8]) -> State:
        """The masks of ``cells`` (a position reached from the root)."""
        open_ = cells[self.free]
        return tuple(sum(1 << int(k) for k in np.flatnonzero(open_ == c))  # type: ignore[return-value]
                     for c in (RED, BLUE, DEAD))  # fmt: skip

    def cells(self, st: State) -> npt.NDArray[np.int8]:
        """The cell array of a position."""
        out = self.base.copy()
        for mask, c in zip(st, (RED, BLUE, DEAD), strict=True):
            out[[int(g) for k, g in enumerate(self.free) if mask >> k & 1]] = c
        return out

    # -- one node ------------------------------------------------------------------------
    def _tick(self) -> None:
        self.positions += 1
        if self.positions % _CHECK_EVERY == 1:  # the first node too: a spent limit stops at once
            now = time.perf_counter()
            if self.deadline is not None and now > self.deadline:
                raise _Stop("time")
            if self.progress is not None:
                self.progress(self.positions, now - self.started)

    def actions(self, st: State, piece: str) -> list[int]:
        """The legal drops of ``piece`` (indices into ``rows[piece]``) and a last pass."""
        free = self.everything & ~(st[0] | st[1] | st[2])
        return [k for k, m in enumerate(self.masks[piece]) if m & free == m] + [PASS_INDEX]

    def final(self, st: State) -> float:
        return final_value(self.cells(st), self.tiebreak, self.objective)

    def round_value(self, st: State, rotation: tuple[str, ...], passes: tuple[int, int]) -> float:
        """The value at a round's start."""
        if max(passes) >= self.limit or not self.movable(st):
            if st in self.values:
                return self.values[st]
            self._tick()
            return self._keep(st, self.final(st))
        pool = rotation or PIECES  # an empty rotation is refilled: the same future as all five
        key = (st, pool, passes)
        if key in self.values:
            return self.values[key]
        self._tick()
        if len(pool) == 1:
            v = self.drop_value(st, (), passes, (pool[0], pool[0]))
        else:
            a = np.array([[self.drop_value(st, _after(pool, r, b), passes, (r, b))
                           for b in pool] for r in pool])  # fmt: skip
            v = _solve_full(a, self.tol)[0]
        return self._keep(key, v)

    def movable(self, st: State) -> bool:
        """True when some piece has a legal drop (else only passes are left)."""
        free = self.everything & ~(st[0] | st[1] | st[2])
        return any(m & free == m for m in self.any_drop)

    def drop_value(self, st: State, rotation: tuple[str, ...], passes: tuple[int, int],
                   picks: tuple[str, str]) -> float:  # fmt: skip
        """The value of a drop node (the picks made, ``rotation`` what is left)."""
        key = (st, rotation, passes, picks)
        if key in self.values:
            return self.values[key]
        self._tick()
        return self._keep(key, self.drop_game(st, rotation, passes, picks)[0])

    def _keep(self, key: Hashable, value: float) -> float:
        """``value`` into the table under ``key`` (the older half of the table dropped when
        it is full); ``value``."""
        values = self.values
        if len(values) >= TABLE_ENTRIES:  # dicts keep their order: the oldest come first
            for old in list(itertools.islice(values, max(1, len(values) // 2))):
                del values[old]
        values[key] = value
        return value

    def drop_game(self, st: State, rotation: tuple[str, ...], passes: tuple[int, int],
                  picks: tuple[str, str]) -> _Node:  # fmt: skip
        """A drop node's equilibrium: value, both mixes (action position -> probability), both
        action lists and the entry function (the continuation values)."""
        reds, blues = self.actions(st, picks[0]), self.actions(st, picks[1])
        red_masks = [0 if k < 0 else self.masks[picks[0]][k] for k in reds]
        blue_masks = [0 if k < 0 else self.masks[picks[1]][k] for k in blues]
        memo: dict[tuple[int, int], float] = {}

        def entry(i: int, j: int) -> float:
            if (i, j) not in memo:
                r, b = red_masks[i], blue_masks[j]
                both = r & b  # 3.3: a cell both drop on the same board becomes dead
                after = (st[0] | (r & ~both), st[1] | (b & ~both), st[2] | both)
                count = (0 if reds[i] >= 0 else passes[0] + 1,
                         0 if blues[j] >= 0 else passes[1] + 1)  # fmt: skip
                memo[(i, j)] = self.round_value(after, rotation, count)
            return memo[(i, j)]

        v, row, col = _equilibrium(len(reds), len(blues), entry, self.tol)
        return v, row, col, reds, blues, entry

    def action(self, piece: str, k: int) -> Drop | str:
        """Action ``k`` of ``piece`` (an index into ``rows[piece]``, or the pass) as the
        engine writes it."""
        if k < 0:
            return PASS
        return Drop(piece, tuple(int(x) for x in self.rows[piece][k]))  # type: ignore[arg-type]


def _after(pool: tuple[str, ...], red: str, blue: str) -> tuple[str, ...]:
    """The rotation once both picks leave it (3.1.4)."""
    return tuple(p for p in pool if p not in (red, blue))


def _solve_full(a: npt.NDArray[np.float64], tol: float) -> tuple[float, Mix, Mix]:
    """A whole matrix game: a pure saddle point when there is one, else the LP."""
    lows, highs = a.min(axis=1), a.max(axis=0)
    i, j = int(np.argmax(lows)), int(np.argmin(highs))
    if highs[j] - lows[i] <= tol:
        return float(a[i, j]), {i: 1.0}, {j: 1.0}
    eq = solve_matrix(a, tol=tol)
    row = {k: float(p) for k, p in enumerate(eq.row) if p > 1e-12}
    col = {k: float(p) for k, p in enumerate(eq.col) if p > 1e-12}
    return eq.value, row, col


def _equilibrium(n: int, m: int, entry: Callable[[int, int], float],
                 tol: float) -> tuple[float, Mix, Mix]:  # fmt: skip
    """The equilibrium of an n x m game whose entries are computed on demand."""
    if n * m <= FULL_MATRIX:
        return _solve_full(np.array([[entry(i, j) for j in range(m)] for i in range(n)]), tol)

    def rows(mix: Mapping[Hashable, float]) -> tuple[Hashable, float]:
        col = _ints(mix)
        values = [sum(p * entry(i, j) for j, p in col.items()) for i in range(n)]
        i = int(np.argmax(values))
        return i, values[i]

    def cols(mix: Mapping[Hashable, float]) -> tuple[Hashable, float]:
        row = _ints(mix)
        values = [sum(p * entry(i, j) for i, p in row.items()) for j in range(m)]
        j = int(np.argmin(values))
        return j, values[j]

    r0, _ = rows({m - 1: 1.0})  # each side's best answer to a pass
    c0, _ = cols({n - 1: 1.0})
    found = double_oracle([r0], [c0], entry, rows, cols, tol=tol)
    return found.value, _ints(found.row), _ints(found.col)


def _ints(mix: Mapping[Hashable, float]) -> Mix:
    """A mix over action positions (the double oracle's keys are the ints it was given)."""
    return {cast(int, k): p for k, p in mix.items()}


def _deviation(n: int, m: int, entry: Callable[[int, int], float], value: float,
               row: Mix, col: Mix) -> float:  # fmt: skip
    """What the best pure deviation of either player gains against the other's mix, every
    action's payoff computed from the exact continuation values."""
    up = max(sum(p * entry(i, j) for j, p in col.items()) for i in range(n))
    down = min(sum(p * entry(i, j) for i, p in row.items()) for j in range(m))
    return max(0.0, up - value, value - down)


def _ranked(mix: Mix, name: Callable[[int], Any]) -> list[tuple[Any, float]]:
    return [(name(k), p) for k, p in sorted(mix.items(), key=lambda kp: (-kp[1], kp[0]))]


def solve_endgame(game: Walkable, *, objective: str = "margin", max_drops: int = 6,
                  time_limit: float | None = None,
                  progress: Callable[[int, float], None] | None = None,
                  tol: float = 1e-7) -> EndgameSolution:  # fmt: skip
    """The exact value of the rest of ``game``, both players' equilibrium strategies at the
    root, and the most likely line, by backward induction (see the module notes).

    Parameters
    ----------
    game
        A state at a round's start or after the selection (not changed).
    objective
        ``"margin"`` (boards won, the tiebreak as half a board) or ``"outcome"`` (+1/0/-1).
    max_drops
        Refuse when some piece has more legal drops than this now.
    time_limit
        Seconds before stopping without an answer.
    progress
        Called now and then with (positions solved, seconds so far).
    tol
        Equilibrium tolerance (the values are multiples of 0.5 at the end).

    Returns
    -------
    EndgameSolution

    Raises
    ------
    EndgameRefused
        If the position is too large (``max_drops``).
    EndgameStopped
        At the time limit or on Ctrl-C (no value: nothing partial is returned).
    SolverError
        If the answer fails its check (the root's equilibrium or the line's replay).

    Notes
    -----
    Exponential in the drops left: a drop node with n and m actions has up to n m successors,
    and up to ``size.drop_rounds`` rounds with drops follow. The transposition table merges
    the many orders that fill the same cells.
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"objective is one of {', '.join(OBJECTIVES)}, not {objective!r}")
    size = endgame_size(game)
    if size.largest > max_drops:
        worst = max(size.drops, key=lambda p: size.drops[p])
        raise EndgameRefused(f"too large for the exact backward induction (up to "
                             f"{size.drop_rounds} rounds with drops left): {worst} has "
                             f"{size.largest:,} legal drops, more than "
                             f"max_drops={max_drops}")  # fmt: skip
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    s = _Solver(game, objective, deadline, progress, tol)
    try:
        return _solve_root(s, game, size)
    except _Stop as stop:
        raise EndgameStopped(stop.reason, s.positions, time.perf_counter() - started) from None
    except KeyboardInterrupt:
        raise EndgameStopped("interrupt", s.positions, time.perf_counter() - started) from None


def _solve_root(s: _Solver, game: Walkable, size: EndgameSize) -> EndgameSolution:
    st, passes = s.state(game.cells), game.passes
    phase = game.phase
    selection = None
    pick_values: dict[tuple[str, str], float] = {}
    games: list[DropGame] = []
    gap = 0.0
    if phase == "over":
        value = s.final(st)
    elif phase == "drop":
        assert game.picks is not None
        value, dg, g = _root_drop(s, st, game.rotation, passes, game.picks)
        games, gap = [dg], g
    else:
        value = s.round_value(st, game.rotation, passes)
        pool = game.available()
        pairs = [(r, b) for r in pool for b in pool] if len(pool) > 1 else [(pool[0], pool[0])]
        pick_values = {(r, b): s.drop_value(st, _after(pool, r, b), passes, (r, b))
                       for r, b in pairs}  # fmt: skip
        red_mix, blue_mix = {0: 1.0}, {0: 1.0}
        if len(pool) > 1:
            a = np.array([[pick_values[(r, b)] for b in pool] for r in pool])
            v2, red_mix, blue_mix = _solve_full(a, s.tol)
            gap = _deviation(len(pool), len(pool), lambda i, j: float(a[i, j]), value,
                             red_mix, blue_mix)  # fmt: skip
            if abs(v2 - value) > 10 * s.tol:
                raise SolverError(f"the selection game's value {v2} is not the node's {value}")
            selection = (_ranked(red_mix, lambda k: pool[k]), _ranked(blue_mix, lambda k: pool[k]))
        for i in sorted(red_mix):
            for j in sorted(blue_mix):
                r, b = pool[i], pool[j]
                _, dg, g = _root_drop(s, st, _after(pool, r, b), passes, (r, b))
                games.append(dg)
                gap = max(gap, g)
    if gap > 10 * s.tol * max(1.0, abs(value)):
        raise SolverError(f"the root's equilibrium fails its check: a pure deviation gains {gap}")
    line, line_value = _line(s, game)
    if not game.is_over() and not line:  # pragma: no cover - the loop plays to the end
        raise SolverError("the best line is empty")
    return EndgameSolution(value, s.objective, phase, selection, pick_values, games, line,
                           line_value, gap, s.positions, time.perf_counter() - s.started,
                           size)  # fmt: skip


def _root_drop(s: _Solver, st: State, rotation: tuple[str, ...], passes: tuple[int, int],
               picks: tuple[str, str]) -> tuple[float, DropGame, float]:  # fmt: skip
    """A drop node solved with its mixes, and its check (the best pure deviation's gain)."""
    v, row, col, reds, blues, entry = s.drop_game(st, rotation, passes, picks)
    gap = _deviation(len(reds), len(blues), entry, v, row, col)
    dg = DropGame(picks, v, _ranked(row, lambda k: s.action(picks[0], reds[k])),
                  _ranked(col, lambda k: s.action(picks[1], blues[k])), len(reds),
                  len(blues))  # fmt: skip
    return v, dg, gap


def _line(s: _Solver, game: Walkable) -> tuple[list[Round], float]:
    """The most likely actions to the end, replayed by the engine; the end's value, checked
    against the engine's final score."""
    g = game.copy()
    rounds: list[Round] = []
    try:
        while not g.is_over():
            st = s.state(g.cells)
            if g.phase == "select":
                pool = g.available()
                picks = (pool[0], pool[0])
                if len(pool) > 1 and s.movable(st):
                    a = np.array([[s.drop_value(st, _after(pool, r, b), g.passes, (r, b))
                                   for b in pool] for r in pool])  # fmt: skip
                    _, row, col = _solve_full(a, s.tol)
                    picks = (pool[_ranked(row, int)[0][0]], pool[_ranked(col, int)[0][0]])
                g.select(*picks)
            assert g.picks is not None
            picks = g.picks
            _, row, col, reds, blues, entry = s.drop_game(st, g.rotation, g.passes, picks)
            i, j = _ranked(row, int)[0][0], _ranked(col, int)[0][0]
            red, blue = s.action(picks[0], reds[i]), s.action(picks[1], blues[j])
            g.drop(red, blue)
            rounds.append(Round(picks, (red, blue)))
            # the search's successor against the engine's: same cells, rotation and passes
            if abs(s.round_value(s.state(g.cells), g.rotation, g.passes) - entry(i, j)) > 1e-9:
                raise SolverError(f"round {g.round}: the engine's position after the best "
                                  "line's round has another value than the search's "
                                  "successor")  # fmt: skip
    except IllegalMoveError as e:
        raise SolverError(f"the best line does not replay through the rules engine: {e}") from e
    end = final_value(g.cells, g.options.tiebreak, s.objective)
    engine = g.result()
    if (engine.winner is None) != (end == 0) or (engine.winner == 0) != (end > 0):
        raise SolverError("the best line's final value disagrees with the engine's score")
    return rounds, end
