"""City Blocks (Ritchie) endgame bounds: the best and the guaranteed final score of a colour.

For a position and a colour X, :func:`bounds` reports

* the **upper bound**: X's best final score if every other colour passes from now on, i.e.
  X's remaining pieces laid out on the current board for the best score
  (:func:`polytile.puzzles.cityblocks.maximum.max_layout`). Other colours' pieces never remove a
  cell of X and only ever cover empty cells, so they can only lower X's area or free edges:
  this bounds X's final score in **every** continuation. When CP-SAT does not prove the best
  layout in time, the value is its proven bound and the layout found scores less;
* the **lower bound**: the score X keeps if it passes from now on while the other colours
  place their remaining pieces to hurt it most (:mod:`polytile.models.cityblocks_lower`, a
  CP-SAT maximisation of the free edges covered). X's area cannot change while it passes, so
  only free edges are lost. It is at most X's final score in every continuation in which X
  places no piece; since X may always pass, X can guarantee it. Unproven, it is the value
  CP-SAT's bound guarantees. The turn order counts: when the passes already made would end
  the game before some colours move again, one of the colours moving before the end must
  place first (or nobody places at all);
* the **best next placement**: a placement of the upper layout that is legal now (checked by
  the rules engine), the one that raises X's score most at once (then the largest piece);
* the **exact value** of small endgames (:func:`exact_endgame`): X's best final score under
  the real turn order when every other colour plays against it, by alpha-beta search over
  the legal moves, refused when too many pieces can still be placed;
* without an exact value, an **estimate** of where between the bounds X's final score is
  likely to end: the mean of playouts (:mod:`polytile.puzzles.cityblocks.estimate`),
  labelled as an estimate and never taken for a bound.

Every layout reported is replayed by the rules engine (:class:`CityBlocks`) and scored again
with :func:`~polytile.puzzles.cityblocks.scoring.score`; a disagreement raises
:class:`~polytile.errors.SolverError` instead of returning an answer.

Examples
--------
>>> from polytile.puzzles.cityblocks.rules import CityBlocks, Move
>>> game = CityBlocks()
>>> for move in ["B I3 0,0 0,1 0,2", "Y I2 0,19 1,19", "R pass", "G pass"]:
...     game.push(Move.parse(move))
>>> b = bounds(game, "red", time_limit=60, workers=1, exact_pieces=0)  # ends once proven
>>> b.score_now, b.lower.value, b.lower.proven  # red's two free edges, both coverable
(2, 0, True)
>>> b.upper.value >= b.score_now >= b.lower.value
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from polytile.board import Board, placements
from polytile.errors import (
    IllegalMoveError,
    ShapeError,
    SolverError,
    UnknownNameError,
)
from polytile.formats import COLORS, PlacedPiece, Position, Solution
from polytile.geometry import piece
from polytile.models.cityblocks_lower import (
    CoverModel,
    add_first_pieces,
    add_opening,
    covered_weight,
    free_edge_weights,
)
from polytile.models.cpsat import add_cover_at_most, add_piece_at_most_once
from polytile.puzzles.cityblocks.endgame import (
    Exact,
    ExactSearchRefused,
    _check_color,
    _game,
    exact_endgame,
    placeable_pieces,
)
from polytile.puzzles.cityblocks.estimate import ScoreEstimate, estimate_score
from polytile.puzzles.cityblocks.maximum import max_layout, measure
from polytile.puzzles.cityblocks.rules import (
    BOARD_SIZE,
    COLOR_NAMES,
    START_CELLS,
    CityBlocks,
    Move,
)
from polytile.solvers.cpsat import solve

__all__ = [
    "Bounds",
    "Exact",
    "ExactSearchRefused",
    "ScoreBound",
    "bounds",
    "exact_endgame",
    "lower_bound",
    "placeable_pieces",
    "replay_layout",
    "shares",
    "upper_bound",
]

#: At most this many empty cells: an endgame small enough for CP-SAT's presolve to pay.
_SMALL_EMPTY = 100
#: The estimate's share of a search's ``time_limit``, of what the others left (:func:`shares`)...
ESTIMATE_SHARE = 0.25
#: ... but never more seconds than this...
ESTIMATE_SECONDS = 2.0
#: ... and no estimate with less time left than this.
MIN_ESTIMATE_SECONDS = 0.05
#: Playouts of an estimate with no time limit.
ESTIMATE_PLAYOUTS = 100
#: progress(stage, objective, bound, seconds): stage is "upper" or "lower".
StageProgress = Callable[[str, float | None, float | None, float], None]


@dataclass(frozen=True)
class ScoreBound:
    """One bound of X's final score (upper or lower) and the placements behind it.

    Attributes
    ----------
    kind
        ``"upper"``: X's best score if every other colour passes from now on; at least X's
        final score in every continuation. ``"lower"``: the score X keeps if it passes from
        now on and the others hurt it most; at most X's final score in every continuation
        where X places nothing.
    value
        The bound, proven (from CP-SAT's bound when the search was cut short).
    proven
        True when :attr:`placements` reach ``value``, which is then exact.
    layout_score
        X's score once :attr:`placements` are on the board.
    placements
        Upper: X's pieces of the best layout found. Lower: the other colours' pieces that
        hurt X most (the worst found). Both checked by the rules engine.
    rows
        The board with those placements.
    seconds
        Time spent.
    """

    kind: str
    value: int
    proven: bool
    layout_score: int
    placements: tuple[PlacedPiece, ...]
    rows: tuple[str, ...]
    seconds: float = 0.0

    def solution(self, color: str) -> Solution:
        """The placements in polytile's solution format; ``extra`` holds the board, value
        and layout score."""
        extra = {"board": list(self.rows), "value": self.value, "layout_score": self.layout_score}
        return Solution(f"cityblocks-{self.kind}-{color}", BOARD_SIZE, BOARD_SIZE,
                        self.placements, "optimal" if self.proven else "feasible",
                        extra=extra)  # fmt: skip


@dataclass(frozen=True)
class Bounds:
    """Everything :func:`bounds` found for one colour.

    Attributes
    ----------
    color
        The colour (X).
    score_now
        X's score on the position.
    upper, lower
        The bounds: ``lower.value <= score_now <= upper.value``.
    best_next
        A best next placement of X, legal now, or None (nothing to place, or game over).
    exact
        The exact endgame value, or None (see ``exact_note``).
    exact_note
        Why there is no exact value (None when there is one, or it was not asked for).
    estimate
        Where between the bounds the final score is likely to be, by playouts
        (:func:`~polytile.puzzles.cityblocks.estimate.estimate_score`); None when the
        exact value is known, the bounds meet, no time was left for it, or none was asked
        for.
    stopped
        Ctrl-C (or the command's deadline) came during the estimate: the bounds stand, and
        the caller should stop after this colour.
    """

    color: str
    score_now: int
    upper: ScoreBound
    lower: ScoreBound
    best_next: Move | None
    exact: Exact | None = None
    exact_note: str | None = None
    estimate: ScoreEstimate | None = None
    stopped: bool = False

    def as_dict(self) -> dict[str, Any]:
        """The JSON document of one colour (``polytile bounds --json`` lists these)."""
        return {
            "score_now": self.score_now,
            "upper": self.upper.value,
            "upper_proven": self.upper.proven,
            "upper_layout_score": self.upper.layout_score,
            "upper_placements": [_doc(p) for p in self.upper.placements],
            "lower": self.lower.value,
            "lower_proven": self.lower.proven,
            "lower_layout_score": self.lower.layout_score,
            "lower_placements": [_doc(p) for p in self.lower.placements],
            "best_next": None if self.best_next is None else _doc(self.best_next),
            "exact": None if self.exact is None else self.exact.value,
            "exact_move": None
            if self.exact is None or self.exact.move is None
            else _doc(self.exact.move),
            "exact_note": self.exact_note,
            "estimate": None if self.estimate is None else self.estimate.as_dict(),
        }


def _doc(p: PlacedPiece | Move) -> dict[str, Any]:
    return {"piece": p.piece, "color": p.color, "cells": [list(c) for c in p.cells]}


def _placing_game(game: CityBlocks, color: str) -> CityBlocks:
    """A copy where ``color`` may place now: its seat to move (any seat for shared green)."""
    seat = color if color in game.seats else game.to_move
    pos = game.to_position()
    extra = {**pos.extra, "consecutive_passes": 0}
    return CityBlocks.from_position(replace(pos, to_move=seat, extra=extra))


def _first_cover_first(placed: Sequence[PlacedPiece], game: CityBlocks) -> list[PlacedPiece]:
    """Per colour, a piece covering its start cell first when the colour has not started."""

    def later(p: PlacedPiece) -> bool:
        color = str(p.color)
        return game.has_started(color) or START_CELLS[color] not in p.cells

    return sorted(placed, key=later)


def _total(game: CityBlocks, color: str) -> int:
    return game.score().colors[color].total


def replay_layout(
    position: Position | CityBlocks, color: str, placed: Sequence[PlacedPiece]
) -> CityBlocks:
    """The game after ``color`` places ``placed`` by the rules while the others pass.

    The rules engine checks every placement (the first piece on the start corner, inside the
    board, no overlap, a piece in hand). Used to check every layout a solver reports.

    Raises
    ------
    SolverError
        If a placement is illegal: a solver bug, never the user's input.
    """
    game, color = _game(position), _check_color(color)
    check = _placing_game(game, color)
    try:
        for p in _first_cover_first(placed, check):
            while color not in check.colors_to_move():
                check.push(Move.pass_turn(check.to_move))
            check.push(Move(color, p.piece, p.cells))
    except (IllegalMoveError, UnknownNameError, ShapeError) as exc:  # no such piece, cells
        raise SolverError(f"the layout of {color} is not legal: {exc}") from exc
    return check


# -- the upper bound -------------------------------------------------------------------------
def upper_bound(
    position: Position | CityBlocks,
    color: str,
    *,
    time_limit: float | None = 10.0,
    workers: int | None = 2,
    seed: int | None = 0,
    progress: Callable[[float | None, float | None, float], None] | None = None,
) -> ScoreBound:
    """X's best final score if every other colour passes from now on (see the module notes).

    Parameters
    ----------
    position, color, time_limit, workers, seed
        As in :func:`bounds`.
    progress
        ``progress(objective, bound, seconds)`` at each improving CP-SAT solution.

    Raises
    ------
    SolverError
        If the layout found is not legal or does not score what the model said.
    FormatError, UnknownNameError
        For a position that is not City Blocks, or an unknown colour.
    """
    game, color = _game(position), _check_color(color)
    started = time.perf_counter()
    now = _total(game, color)
    if game.is_game_over():
        return ScoreBound("upper", now, True, now, (), tuple(game.board_rows()), 0.0)
    # max_layout turns CP-SAT's presolve off for big open boards; small endgames need it to
    # prove their (tiny) models at once, which they otherwise may not do in seconds.
    small = sum(row.count(".") for row in game.board_rows()) <= _SMALL_EMPTY
    ml = max_layout(color, "score", position=game.to_position(), time_limit=time_limit,
                    workers=workers, seed=seed, progress=progress,
                    parameters={"cp_model_presolve": True} if small else None)  # fmt: skip
    if ml.cp.stopped_by == "interrupt":
        raise KeyboardInterrupt
    placed = ml.solution.placements if ml.solution is not None else ()
    check = replay_layout(game, color, placed)
    layout_score = _total(check, color)
    if ml.score is not None and layout_score != ml.score:
        raise SolverError(f"the upper layout of {color} scores {layout_score}, "
                          f"the model said {ml.score}")  # fmt: skip
    bound = ml.bound if ml.bound is not None else ml.theoretical.score
    value = max(now, layout_score, int(bound))
    return ScoreBound("upper", value, layout_score >= value, layout_score, tuple(placed),
                      tuple(check.board_rows()), time.perf_counter() - started)  # fmt: skip


# -- the lower bound -------------------------------------------------------------------------
def _opening_colors(game: CityBlocks, color: str) -> set[str]:
    """Colours that may place before the passes already made end the game, X passing."""
    seats = game.seats
    turn = seats.index(game.to_move)
    window = [seats[(turn + j) % len(seats)] for j in range(len(seats) - game.consecutive_passes)]
    out: set[str] = set()
    for seat in window:
        if seat == color:
            continue  # X's own seat passes throughout
        out |= {seat, "green"} if game.players == 3 else {seat}
    out.discard(color)
    return out


def lower_bound(
    position: Position | CityBlocks,
    color: str,
    *,
    time_limit: float | None = 10.0,
    workers: int | None = 2,
    seed: int | None = 0,
    progress: Callable[[float | None, float | None, float], None] | None = None,
) -> ScoreBound:
    """The score X keeps if it passes from now on and the others hurt it most (module notes).

    Parameters
    ----------
    position, color, time_limit, workers, seed
        As in :func:`bounds`.
    progress
        ``progress(objective, bound, seconds)`` at each improving CP-SAT solution (the
        objective is the weight of X's free edges covered).

    Raises
    ------
    SolverError
        If the opponents' placements cannot be replayed from the position with X passing, or
        X's score after them differs from the model's.
    FormatError, UnknownNameError
        For a position that is not City Blocks, or an unknown colour.

    Notes
    -----
    The model has one boolean per opponent placement touching an empty cell beside X (or
    covering an unstarted opponent's start cell), at most one per cell and per piece.
    """
    game, color = _game(position), _check_color(color)
    started = time.perf_counter()
    rows = tuple(game.board_rows())
    area, free = measure(rows, color)
    if game.is_game_over() or not free:
        return ScoreBound(
            "lower", area + free, True, area + free, (), rows, time.perf_counter() - started
        )
    names = [c for c in COLOR_NAMES if c != color]
    pieces, owners = [], []
    for c in names:
        for name in placeable_pieces(game, c):
            pieces.append(piece(name))
            owners.append(COLOR_NAMES.index(c))
    occupied = frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row)
                         if ch != ".")  # fmt: skip
    pl = placements(Board(BOARD_SIZE, BOARD_SIZE, occupied), pieces)
    starts = {COLOR_NAMES.index(c): START_CELLS[c] for c in names if not game.has_started(c)}
    opening = [COLOR_NAMES.index(c) for c in _opening_colors(game, color)]
    restricted = not set(owners) <= set(opening)
    cm = CoverModel(pl, owners, free_edge_weights(rows, COLORS[color]), starts,
                    keep_colors=opening if restricted else ())  # fmt: skip
    chosen: list[int] = []
    cover_bound = 0
    if cm.x:
        add_piece_at_most_once(cm)
        add_cover_at_most(cm)
        add_first_pieces(cm)
        add_opening(cm, opening)
        expr = covered_weight(cm)
        cm.model.add(expr <= free)
        cm.model.maximize(expr)
        if time_limit is not None:  # building the model spent part of it, as in max_layout
            time_limit = max(time_limit - (time.perf_counter() - started), 0.01)
        cp = solve(cm, time_limit=time_limit, workers=workers, seed=seed, progress=progress)
        if cp.stopped_by == "interrupt":  # Ctrl-C ends the whole computation
            raise KeyboardInterrupt
        cover_bound = free if cp.bound is None else min(free, int(np.floor(cp.bound + 1e-6)))
        chosen = cm.trim(cp.placements)
    placed = [PlacedPiece(pl.pieces[int(pl.piece[i])].name, tuple(pl.coords_of(i)),
                          COLOR_NAMES[owners[int(pl.piece[i])]]) for i in chosen]  # fmt: skip
    final = _replay_passing(game, color, placed)
    layout_score = _total(final, color)
    expected = area + free - sum(cm.gain[i] for i in chosen)
    if layout_score != expected:
        raise SolverError(f"after the opponents' placements {color} scores {layout_score}, "
                          f"the model said {expected}")  # fmt: skip
    value = min(layout_score, area + free - cover_bound)
    return ScoreBound("lower", value, layout_score <= value, layout_score, tuple(placed),
                      tuple(final.board_rows()), time.perf_counter() - started)  # fmt: skip


def _replay_passing(game: CityBlocks, color: str, placed: Sequence[PlacedPiece]) -> CityBlocks:
    """Play ``placed`` from the position in turn order, X passing; the game after them."""
    g = game.copy()
    pending: dict[str, list[PlacedPiece]] = {c: [] for c in COLOR_NAMES}
    for p in _first_cover_first(placed, g):
        pending[p.color or ""].append(p)
    try:
        while any(pending.values()):
            if g.is_game_over():
                raise SolverError(f"the game ends before the opponents of {color} place "
                                  f"{sum(map(len, pending.values()))} more pieces")  # fmt: skip
            ready = [c for c in g.colors_to_move() if c != color and pending[c]]
            if g.to_move == color or not ready:
                g.push(Move.pass_turn(g.to_move))
            else:
                p = pending[ready[0]].pop(0)
                g.push(Move(ready[0], p.piece, p.cells))
    except IllegalMoveError as exc:
        raise SolverError(
            f"the opponents' placements against {color} are not legal: {exc}"
        ) from exc
    return g


# -- the best next placement -----------------------------------------------------------------
def _best_next(game: CityBlocks, color: str, upper: ScoreBound) -> Move | None:
    """The placement of the upper layout legal now that raises X's score most, then the largest."""
    if game.is_game_over():
        return None
    check = _placing_game(game, color)
    ranked = []
    for k, p in enumerate(upper.placements):
        move = Move(color, p.piece, p.cells)
        if check.is_legal(move):
            check.push(move)
            ranked.append((_total(check, color), len(p.cells), -k, move))
            check.pop()
    return max(ranked, key=lambda e: e[:3])[3] if ranked else None


# -- everything ------------------------------------------------------------------------------
def bounds(
    position: Position | CityBlocks,
    color: str,
    *,
    time_limit: float | None = 10.0,
    workers: int | None = 2,
    seed: int | None = 0,
    exact_pieces: int = 6,
    node_limit: int = 200_000,
    progress: StageProgress | None = None,
    source: str = "<position>",
    estimate: bool = True,
) -> Bounds:
    """Upper and lower bounds of X's final score, its best next placement, and the exact value
    when few pieces remain.

    Parameters
    ----------
    position
        A :class:`~polytile.formats.Position` of game ``"cityblocks"`` or a :class:`CityBlocks`
        game (not modified).
    color
        X: ``"blue"``, ``"yellow"``, ``"red"`` or ``"green"``.
    time_limit, workers, seed
        For each of the two CP-SAT searches (seconds, building its model included; workers,
        random seed); the exact search gets what they left of three times ``time_limit``
        (at least a tenth of it), so that the three searches stay within three times
        ``time_limit``; the estimate then gets what is left of :func:`shares`.
    exact_pieces
        Run :func:`exact_endgame` when at most this many pieces can still be placed (0: never).
    estimate
        Without an exact value, and bounds that do not meet, estimate the final score
        between them by playouts: what the searches left of :func:`shares` times
        ``time_limit``, but at most :data:`ESTIMATE_SHARE` times ``time_limit`` and
        :data:`ESTIMATE_SECONDS` (none with under :data:`MIN_ESTIMATE_SECONDS` left); with
        no limit, :data:`ESTIMATE_PLAYOUTS` playouts.
    node_limit
        Positions the exact search may visit.
    progress
        Called as ``progress(stage, objective, bound, seconds)`` at each improving CP-SAT
        solution, ``stage`` being ``"upper"`` or ``"lower"``.
    source
        Named in error messages.

    Returns
    -------
    Bounds

    Raises
    ------
    FormatError
        If the position is not a valid City Blocks position (a Blokus one included: its
        bounds are not built yet).
    UnknownNameError
        For an unknown colour.
    SolverError
        If a layout fails its check by the rules engine, or the bounds contradict each other.
    """
    game, color = _game(position, source), _check_color(color)
    kw: dict[str, Any] = {"time_limit": time_limit, "workers": workers, "seed": seed}

    def stage(name: str) -> Callable[[float | None, float | None, float], None] | None:
        if progress is None:
            return None
        report = progress
        return lambda obj, bnd, sec: report(name, obj, bnd, sec)

    started = time.perf_counter()
    upper = upper_bound(game, color, progress=stage("upper"), **kw)
    lower = lower_bound(game, color, progress=stage("lower"), **kw)
    now = _total(game, color)
    exact, note = None, None
    if exact_pieces > 0:
        # what the two searches left of three shares: a CP-SAT search that proves its bound
        # early leaves its time to the exact one. Not a whole share whatever they used: the
        # caller shares a whole command's limit out in thirds, and a colour whose searches
        # ran past their shares would take the next colours' time, or run past the limit.
        left = None if time_limit is None else max(
            3 * time_limit - (time.perf_counter() - started), 0.1 * time_limit)  # fmt: skip
        try:
            exact = exact_endgame(game, color, max_pieces=exact_pieces, node_limit=node_limit,
                                  time_limit=left)  # fmt: skip
        except ExactSearchRefused as exc:
            note = str(exc)
    low = exact.value if exact is not None else now
    if not lower.value <= min(low, now) or not upper.value >= max(low, now):
        raise SolverError(f"bounds of {color} contradict each other: lower {lower.value}, "
                          f"now {now}, exact {low}, upper {upper.value}")  # fmt: skip
    guess, stopped = None, False
    if estimate and exact is None and lower.value < upper.value:
        # what the searches left of the colour's shares (the exact search, refused at once
        # where too many pieces are left, takes none of its own), at most a share of its own
        seconds = None if time_limit is None else min(
            ESTIMATE_SHARE * time_limit, ESTIMATE_SECONDS,
            shares(exact_pieces) * time_limit - (time.perf_counter() - started))  # fmt: skip
        if seconds is None or seconds >= MIN_ESTIMATE_SECONDS:
            try:
                guess = estimate_score(game, color, seconds=seconds,
                                       playouts=ESTIMATE_PLAYOUTS if seconds is None else None,
                                       lower=lower.value, upper=upper.value,
                                       rng=np.random.default_rng(seed))  # fmt: skip
            except KeyboardInterrupt:  # Ctrl-C, or the command's deadline: keep the bounds
                stopped = True
    return Bounds(color, now, upper, lower, _best_next(game, color, upper), exact, note, guess,
                  stopped)  # fmt: skip


def shares(exact_pieces: int) -> float:
    """How many times a search's ``time_limit`` :func:`bounds` may take for one colour: the
    two CP-SAT searches, and the exact search's share (the estimate takes what the others
    leave of it), or without the exact search the estimate's own share."""
    return 3.0 if exact_pieces > 0 else 2.0 + ESTIMATE_SHARE
