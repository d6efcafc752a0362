"""Blokus endgame bounds: how many squares a colour can still place, at most and for sure.

For a position and a colour X, :func:`bounds` reports

* the **upper bound**: the most squares of X's remaining pieces that X could place if every
  other colour passed from now on (CP-SAT over X's placements on the empty cells: no two
  pieces overlap, no edge contact with X's cells or between the new pieces, and every new
  piece reaches an attach point of X, an empty cell touching X at a corner or, before X's
  first piece, its start cell, through a chain of corner-touching new pieces). The other
  colours only ever cover empty cells, so whatever X places in any continuation is such a
  layout: no continuation places more;
* the **lower bound**: squares X places for sure, in *territory* no other colour can ever
  cover (:func:`territory`), by a layout of X's pieces inside it that is legal for X now
  (CP-SAT with the same rules). X plays the layout, one piece per turn, in an order where
  each piece touches X at a corner (found and checked by the rules engine); nothing the
  others do can spoil it: they never cover a territory cell, and X's own legality depends
  only on its own cells. When X has a legal placement it is never skipped, so X gets every
  turn it needs. When X is to move, its biggest legal placement now is also a guarantee (it
  goes down this turn, whatever follows); the lower bound is the larger of the two. In the
  3-player game green's moves are made by the other players, so green has no guarantee:
  its lower bound is 0;
* final-score bounds: the score is ``-(squares left in hand)``, +15 when all 21 pieces are
  placed, +5 more when ``I1`` is the last. The upper score takes the bonuses whenever the upper
  bound places every remaining square; the lower score only when the lower layout does, and
  the +5 only when its pieces can be played with ``I1`` last.

Soundness of the territory (:func:`reach`): take another colour Y with pieces in hand, and let
``S`` be the empty cells not sharing an edge with a Y cell (Y can never cover any other cell:
the cells around Y only grow), minus the cells of 4-connected components of ``S`` smaller than
Y's smallest piece (a piece is 4-connected, so it lies inside one component of ``S``). Every
cell Y ever covers is joined to a current attach point of Y (or its start cell) by a path of
8-neighbouring cells in ``S``. By induction over Y's future pieces: a piece P touches an
earlier Y cell c at a corner with its cell d. If c is a current Y cell, d is empty now, not
beside any Y cell, and diagonal to c: a current attach point. Otherwise c lies in an earlier
future piece, joined to an attach point by induction, and d is an 8-neighbour of c. The rest
of P is 4-connected to d inside ``S``. A first piece covers the start cell, an attach point.
So the cells 8-connected in ``S`` to Y's attach points (its *reach*) hold every cell Y ever
covers. The territory is the empty cells outside every other colour's *shape-aware* reach
(:mod:`polytile.puzzles.blokus.reach`), which follows the same induction with Y's actual
pieces and lies inside this one; the layouts are also confined to X's own shape-aware reach.
Occupying more cells (by anyone) never adds to a reach, so X's moves cannot open its
territory either.

Every layout is replayed by the rules engine on a copy where the other colours pass; a
mismatch raises :class:`~polytile.errors.SolverError`.

Examples
--------
>>> from polytile.puzzles.blokus.rules import Blokus
>>> b = bounds(Blokus("duo"), "blue", time_limit=1, workers=1)
>>> b.upper.value, b.lower.value  # at most all 89 squares; blue moves now: a pentomino
(89, 5)
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from polytile.board import Board, placements
from polytile.errors import FormatError, IllegalMoveError, SolverError, UnknownNameError
from polytile.formats import COLORS, Position
from polytile.geometry import piece
from polytile.models.blokus import add_rooted, maximize_piece_squares
from polytile.models.cpsat import (
    PlacementModel,
    add_cover_at_most,
    add_no_edge_same_color,
    add_piece_at_most_once,
)
from polytile.puzzles.blokus.reach import reach_of
from polytile.puzzles.blokus.rules import PIECE_NAMES, PIECE_SIZES, Blokus, Move
from polytile.puzzles.blokus.scoring import ALL_PLACED_BONUS, I1_LAST_BONUS, player_names
from polytile.solvers.cpsat import solve

__all__ = ["BlokusBounds", "SquareBound", "bounds", "reach", "settled", "territory"]

_SIZE = dict(zip(PIECE_NAMES, PIECE_SIZES, strict=True))
_ORTHO = ((0, 1), (1, 0), (0, -1), (-1, 0))
_DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
Mask = npt.NDArray[np.bool_]
#: progress(stage, objective, bound, seconds)
StageProgress = Callable[[str, float | None, float | None, float], None]


@dataclass(frozen=True)
class SquareBound:
    """One bound on the squares X still places, and the layout behind it.

    Attributes
    ----------
    kind
        ``"upper"`` or ``"lower"``.
    value
        The bound. Upper: proven by CP-SAT (its bound when cut short, so possibly above
        :attr:`squares`). Lower: the squares of :attr:`placements`, a guarantee.
    proven
        True when CP-SAT proved the layout optimal (for the lower bound: the best inside the
        territory).
    squares
        Squares of :attr:`placements`.
    placements
        X's pieces in an order legal for X with the others passing (checked by the engine).
    seconds
        Time spent.
    """

    kind: str
    value: int
    proven: bool
    squares: int
    placements: tuple[Move, ...]
    seconds: float = 0.0


@dataclass(frozen=True)
class BlokusBounds:
    """Everything :func:`bounds` found for one colour.

    Attributes
    ----------
    color
        The colour (X).
    hand_squares
        Squares X holds.
    score_now
        X's score on the position.
    upper, lower
        Bounds on the squares X still places: ``lower.value <= upper.value``.
    score_upper, score_lower
        Bounds on X's final score.
    territory
        The empty cells no other colour can ever cover.
    """

    color: str
    hand_squares: int
    score_now: int
    upper: SquareBound
    lower: SquareBound
    score_upper: int
    score_lower: int
    territory: frozenset[tuple[int, int]]

    def as_dict(self) -> dict[str, Any]:
        """The JSON document of one colour (``polytile bounds --json`` lists these)."""
        return {
            "upper": self.upper.value,
            "lower": self.lower.value,
            "upper_proven": self.upper.proven,
            "lower_proven": self.lower.proven,
            "upper_placements": [_doc(m) for m in self.upper.placements],
            "lower_placements": [_doc(m) for m in self.lower.placements],
            "score_upper": self.score_upper,
            "score_lower": self.score_lower,
            "score_now": self.score_now,
            "hand_squares": self.hand_squares,
            "upper_layout_squares": self.upper.squares,
            "territory": len(self.territory),
        }


def _doc(m: Move) -> dict[str, Any]:
    return {"piece": m.piece, "color": m.color, "cells": [list(c) for c in m.cells]}


# -- cell masks ------------------------------------------------------------------------------
def _shift_or(mask: Mask, steps: Sequence[tuple[int, int]]) -> Mask:
    """Cells having a neighbour in ``mask`` along one of ``steps``."""
    n, m = mask.shape
    out = np.zeros_like(mask)
    for dr, dc in steps:
        src = mask[max(0, dr) : n + min(0, dr), max(0, dc) : m + min(0, dc)]
        out[max(0, -dr) : n + min(0, -dr), max(0, -dc) : m + min(0, -dc)] |= src
    return out


def _grid(game: Blokus) -> npt.NDArray[np.str_]:
    return np.array([list(row) for row in game.board_rows()])


def _usable(game: Blokus, color: str, allowed: Mask | None = None) -> tuple[Mask, Mask]:
    """(cells ``color`` may ever cover, its attach points), restricted to ``allowed``.

    The cells are empty, not beside ``color``, in 4-components big enough for its smallest
    piece in hand, and 8-connected (inside them) to an attach point.
    """
    import networkx as nx  # on first use: 0.1-0.2 s that solve-endgame rarely needs

    grid = _grid(game)
    own = grid == COLORS[color]
    ok = (grid == ".") & ~_shift_or(own, _ORTHO)
    if allowed is not None:
        ok &= allowed
    hand = game.hand(color)
    if not hand:
        return np.zeros_like(ok), np.zeros_like(ok)
    smallest = min(_SIZE[p] for p in hand)
    cells = [tuple(map(int, rc)) for rc in np.argwhere(ok)]
    four = nx.Graph()
    four.add_nodes_from(cells)
    eight = nx.Graph()
    eight.add_nodes_from(cells)
    present = set(cells)
    for r, c in cells:
        for dr, dc in _ORTHO + _DIAG:
            if (r + dr, c + dc) in present:
                (four if (dr, dc) in _ORTHO else eight).add_edge((r, c), (r + dr, c + dc))
    for comp in nx.connected_components(four):
        if len(comp) < smallest:
            eight.remove_nodes_from(comp)
            for r, c in comp:
                ok[r, c] = False
    eight.add_edges_from(four.subgraph(eight.nodes).edges)
    start = np.zeros_like(ok)
    r0, c0 = game.variant.starts[color]
    start[r0, c0] = True
    attach = ok & (_shift_or(own, _DIAG) | start)
    seeds = [tuple(map(int, rc)) for rc in np.argwhere(attach)]
    keep = np.zeros_like(ok)
    seen: set[tuple[int, int]] = set()
    for s in seeds:
        if s not in seen:
            comp = nx.node_connected_component(eight, s)
            seen |= comp
            for r, c in comp:
                keep[r, c] = True
    return keep, attach & keep


def reach(game: Blokus, color: str) -> frozenset[tuple[int, int]]:
    """Empty cells ``color`` might ever cover, whatever anyone plays (a superset; see the
    module notes for why it is one)."""
    cells, _ = _usable(game, color)
    return frozenset((int(r), int(c)) for r, c in np.argwhere(cells))


def territory(game: Blokus, color: str) -> frozenset[tuple[int, int]]:
    """Empty cells that no colour but ``color`` can ever cover."""
    grid = _grid(game)
    safe = {(int(r), int(c)) for r, c in np.argwhere(grid == ".")}
    for other in game.colors:
        if other != color:
            safe -= reach_of(game, other).cells
    return frozenset(safe)


# -- layouts ---------------------------------------------------------------------------------
def _as_mover(game: Blokus, color: str) -> Blokus:
    """A copy of ``game`` with ``color`` to move (the others pass)."""
    return Blokus.from_position(dataclasses.replace(game.to_position(), to_move=color))


def _order(game: Blokus, color: str, moves: Sequence[Move], i1_last: bool) -> list[Move]:
    """``moves`` in an order the engine accepts for ``color`` with the others passing;
    ``I1`` as late as possible when ``i1_last``.

    Raises
    ------
    SolverError
        If no order is legal (a piece never becomes placeable).
    """
    left = list(moves)
    done: list[Move] = []
    g = _as_mover(game, color)
    while left:
        legal = [m for m in left if g.is_legal(m)]
        if i1_last and len(legal) > 1:
            legal = [m for m in legal if m.piece != "I1"] or legal
        if not legal:
            raise SolverError(f"the layout of {color} is not legal: none of "
                              f"{[str(m) for m in left]} can be placed after "
                              f"{[str(m) for m in done]}")  # fmt: skip
        m = legal[0]
        try:
            g.push(m)
        except IllegalMoveError as exc:  # pragma: no cover - is_legal said yes
            raise SolverError(f"the layout of {color} is not legal: {exc}") from exc
        done.append(m)
        left.remove(m)
        g = _as_mover(g, color)
    return done


def _layout(
    game: Blokus,
    color: str,
    allowed: Mask | None,
    time_limit: float,
    workers: int,
    seed: int,
    progress: Callable[[float | None, float | None, float], None] | None,
) -> tuple[int, bool, list[Move]]:
    """Most squares of ``color``'s hand placeable on ``allowed`` empty cells with the others
    passing: (proven bound, proven optimal, the best layout found)."""
    shaped = reach_of(game, color)  # X's future cells and pieces, by the pieces' shapes
    mask = np.zeros((game.size, game.size), dtype=bool)
    for r, c in shaped.cells:
        mask[r, c] = True
    cells, attach = _usable(game, color, mask if allowed is None else mask & allowed)
    hand = shaped.pieces
    if not hand or not attach.any():
        return 0, True, []
    n = game.size
    board = Board.from_text(["".join("." if cells[r, c] else "#" for c in range(n))
                             for r in range(n)])  # fmt: skip
    pl = placements(board, [piece(p) for p in hand])
    pm = PlacementModel(pl, [0] * len(hand))
    if not pm.x:
        return 0, True, []
    add_piece_at_most_once(pm)
    add_cover_at_most(pm)
    add_no_edge_same_color(pm)
    add_rooted(pm, {board.index(int(r), int(c)) for r, c in np.argwhere(attach)}, len(hand))
    maximize_piece_squares(pm, [_SIZE[p] for p in hand], int(cells.sum()))
    cap = min(sum(_SIZE[p] for p in hand), int(cells.sum()))
    best = [0.0]

    def seen(obj: float | None, bnd: float | None, sec: float) -> None:
        best[0] = max(best[0], obj or 0.0)
        if progress is not None:
            progress(obj, bnd, sec)

    index = {(int(pl.piece[i]), tuple(sorted(pl.coords_of(i)))): i for i in pm.x}
    greedy = _greedy(game, color, cells)
    hints = [index[hand.index(m.piece), m.cells] for m in greedy if m.piece in hand]
    res = solve(pm, time_limit=time_limit, workers=workers, seed=seed, progress=seen,
                hints=hints, stop=lambda: best[0] >= cap)  # fmt: skip
    if res.stopped_by == "interrupt":  # Ctrl-C ends the whole computation, not one stage
        raise KeyboardInterrupt
    if not res.found:
        return int(sum(_SIZE[p] for p in hand)), False, []
    moves = [Move(color, hand[int(pl.piece[i])], pl.coords_of(i)) for i in res.placements]
    bound = int(np.floor((res.bound if res.bound is not None else res.objective or 0) + 1e-6))
    # CP-SAT's reported bound can stay above these trivial caps; clamp and judge ourselves.
    bound = min(bound, sum(_SIZE[p] for p in hand), int(cells.sum()))
    found = _squares(moves)
    return bound, res.status == "optimal" or found >= bound, moves


def _greedy(game: Blokus, color: str, cells: Mask) -> list[Move]:
    """A quick layout for the hint: the biggest legal placement inside ``cells``, again and
    again, with the others passing."""
    g = _as_mover(game, color)
    out: list[Move] = []
    while True:
        legal = [m for m in g.legal_placements(color) if all(cells[r, c] for r, c in m.cells)]
        if not legal:
            return out
        m = max(legal, key=lambda m: len(m.cells))
        g.push(m)
        out.append(m)
        g = _as_mover(g, color)


def _squares(moves: Sequence[Move]) -> int:
    return sum(len(m.cells) for m in moves)


def _shared(game: Blokus, color: str) -> bool:
    """True when other players make ``color``'s moves (green with 3 players)."""
    return game.players == 3 and color == "green"


def _final(hand: Sequence[str], placed: int, all_bonus: bool, i1_last: bool) -> int:
    left = sum(_SIZE[p] for p in hand) - placed
    bonus = ALL_PLACED_BONUS * all_bonus + I1_LAST_BONUS * (all_bonus and i1_last)
    return bonus - left


def bounds(
    position: Position | Blokus,
    color: str,
    *,
    time_limit: float = 10.0,
    workers: int = 2,
    seed: int = 0,
    progress: StageProgress | None = None,
    source: str = "<position>",
) -> BlokusBounds:
    """Bound the squares and final score of ``color`` from a Blokus position.

    Parameters
    ----------
    position
        A position of game ``"blokus"`` or a :class:`Blokus` game (not changed).
    color
        The colour X; it must play in the variant.
    time_limit, workers, seed
        For each of the two CP-SAT searches.
    progress
        Called as ``progress(stage, objective, bound, seconds)``, stage ``"upper"`` or
        ``"lower"``.
    source
        Named in error messages.

    Returns
    -------
    BlokusBounds

    Raises
    ------
    FormatError
        If the position is not a valid Blokus position.
    UnknownNameError
        If ``color`` does not play in the variant.
    SolverError
        If a layout fails the rules engine's check, or the bounds contradict each other.
    """
    game = position.copy() if isinstance(position, Blokus) else None
    if game is None:
        if not isinstance(position, Position):
            raise FormatError("expected a Blokus position", source)
        game = Blokus.from_position(position, source)
    if color not in game.colors:
        raise UnknownNameError("colour", str(color), game.colors)
    hand = game.hand(color)
    hand_squares = sum(_SIZE[p] for p in hand)
    score_now = game.score().colors[color].total

    def stage(name: str) -> Callable[[float | None, float | None, float], None] | None:
        if progress is None:
            return None
        return lambda obj, bnd, sec: progress(name, obj, bnd, sec)

    t0 = time.perf_counter()
    up, up_proven, up_moves = _layout(game, color, None, time_limit, workers, seed,
                                      stage("upper"))  # fmt: skip
    up_moves = _order(game, color, up_moves, True)
    upper = SquareBound("upper", min(up, hand_squares), up_proven, _squares(up_moves),
                        tuple(up_moves), time.perf_counter() - t0)  # fmt: skip
    t1 = time.perf_counter()
    safe = territory(game, color)
    if _shared(game, color) or not safe:
        lo_proven, lo_moves = True, list[Move]()
    else:
        mask = np.zeros((game.size, game.size), dtype=bool)
        for r, c in safe:
            mask[r, c] = True
        _, lo_proven, lo_moves = _layout(game, color, mask, time_limit, workers, seed,
                                         stage("lower"))  # fmt: skip
    lo_moves = _order(game, color, lo_moves, True)
    if any(cell not in safe for m in lo_moves for cell in m.cells):
        raise SolverError(f"the lower layout of {color} leaves its territory")
    if game.to_move == color and not _shared(game, color):
        now = game.legal_placements(color)
        biggest = max(now, key=lambda m: len(m.cells), default=None)
        if biggest is not None and len(biggest.cells) > _squares(lo_moves):
            lo_moves = [biggest]  # X moves now: this piece goes down whatever follows
    lower = SquareBound("lower", _squares(lo_moves), lo_proven, _squares(lo_moves),
                        tuple(lo_moves), time.perf_counter() - t1)  # fmt: skip
    if not (lower.value <= upper.value <= hand_squares and upper.squares <= upper.value):
        raise SolverError(f"bounds of {color} contradict each other: lower {lower.value}, "
                          f"upper layout {upper.squares}, upper {upper.value}, "
                          f"hand {hand_squares}")  # fmt: skip
    if not hand:
        score_upper = score_lower = score_now
    else:
        every = upper.value == hand_squares
        score_upper = _final(hand, upper.value, every, "I1" in hand)
        placed_all = lower.value == hand_squares
        i1_last = bool(lo_moves) and lo_moves[-1].piece == "I1"
        score_lower = _final(hand, lower.value, placed_all, i1_last)
    if not score_now <= score_lower <= score_upper:
        raise SolverError(f"score bounds of {color} contradict each other: now {score_now}, "
                          f"lower {score_lower}, upper {score_upper}")  # fmt: skip
    return BlokusBounds(color, hand_squares, score_now, upper, lower, score_upper, score_lower,
                        safe)  # fmt: skip


def settled(game: Blokus, results: Sequence[BlokusBounds]) -> dict[str, int]:
    """Per player (:func:`~polytile.puzzles.blokus.scoring.player_names`) whose colours'
    bounds are all pinned, the final score it can make sure of and never exceed.

    A colour's final score is pinned when what it can make sure of (``score_lower``) is
    also the most it can get (``score_upper``); colours missing from ``results`` are not. A
    player whose colours are all pinned can make sure of their sum, and no play takes it
    above (its own play can take it below): with 3 or 4 players that sum is its exact
    value (what ``solve-endgame`` searches for); with 2 players only once both are
    settled, when the first player's lead is their difference. One player's alone is not
    its final score under best play: it might give up squares of its own to block more.

    >>> from polytile.puzzles.blokus.rules import Blokus
    >>> game = Blokus("duo")
    >>> settled(game, [bounds(game, c, time_limit=1, workers=1) for c in game.colors])
    {}
    """
    pinned = {b.color: b.score_lower for b in results if b.score_lower == b.score_upper}
    return {name: sum(pinned[c] for c in name.split("+"))
            for name in player_names(game.players, game.variant.name)
            if all(c in pinned for c in name.split("+"))}  # fmt: skip
