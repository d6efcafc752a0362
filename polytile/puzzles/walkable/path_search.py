"""Exact branch and bound for the largest-path puzzle (sum of the largest regions).

Red's drops, with the opponent fixed, are a selection: pairwise disjoint drops, each legal
in the starting position, one per piece or a pass (see :mod:`polytile.puzzles.walkable.path_model`).
The search fixes one piece at a time, either one of its drops or a pass, and at every node
bounds what the pieces still to drop can add:

* Per board, the compiled caps of :mod:`polytile.puzzles.walkable._path_kernel`: the
  largest region ``m`` new cells can make, and the largest holding a given cell, by
  node-weighted Steiner trees over red's regions *as they are at this node* (cells already
  dropped join their regions) and over only the cells some remaining drop can still cover.
* Per drop of a remaining piece, the best sum over the boards of those caps, given its
  own cells and the cells per board the other remaining pieces can put down together. A
  drop whose bound is below the target cannot be part of any answer reaching it; it is
  dropped, which shrinks the droppable cells, so the caps are computed again until
  nothing changes.

A node whose pieces have no drop left is a leaf (they pass). The piece with the fewest
drops left is branched on, its drops best bound first, then its pass. Every answer found
raises the target to one more than its score; when the search ends, the best answer is
optimal. The pass limit (three passes in a row end the game) is left to the caller, who
turns such passes into drops that change nothing (as for the pruned CP-SAT model).

Why not CP-SAT alone: its model (:func:`polytile.puzzles.walkable.path_model.build_path_model`)
sees the caps of the starting position only, where every piece may still drop anywhere; a
4-piece case kept a gap of 2-6 after 60 s. Here the caps are recomputed after each drop,
and most first drops are refuted at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from polytile.puzzles.walkable.board import (
    BOARDS,
    CELLS,
    RED,
    UNCLAIMED,
    largest_regions,
    use_compiled_regions,
)

__all__ = [
    "FILL_STEPS",
    "MAX_TERMINALS",
    "PASS_LIMIT",
    "FillUnknown",
    "SearchResult",
    "best_drops",
    "legal_order",
]

#: Growing regions per board beyond which a board's caps fall back to "all of them joined".
MAX_TERMINALS = 10


@dataclass
class SearchResult:
    """What :func:`best_drops` found.

    Attributes
    ----------
    drops
        Per piece its drop (4 global cells) or None (a pass), for the best score found;
        None when nothing reached the target asked for.
    score
        That score (the sum of red's largest regions), or None.
    complete
        True when the search ended: no drops score more than ``score`` (or reach the
        first target, when nothing was found).
    bound
        An upper bound on any score (the root's best drop bound).
    nodes
        Nodes searched.
    """

    drops: list[npt.NDArray[np.int16] | None] | None
    score: int | None
    complete: bool
    bound: int
    nodes: int = 0
    stopped_by: str | None = None
    stats: dict[str, int] = field(default_factory=dict)


class _Stop(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason


@dataclass
class _Piece:
    index: int  # its place in the sequence
    rows: npt.NDArray[np.int16]  # (n, 4) global cells
    counts: npt.NDArray[np.int64]  # (n, 3) cells per board

    def take(self, keep: npt.NDArray[np.bool_]) -> _Piece:
        return _Piece(self.index, self.rows[keep], self.counts[keep])


def _counts(rows: npt.NDArray[np.int16]) -> npt.NDArray[np.int64]:
    boards = rows.astype(np.int64) // 100
    return np.stack([(boards == b).sum(axis=1) for b in range(BOARDS)], axis=1)


class _Search:
    def __init__(self, cells: npt.NDArray[np.int8], target: int, deadline: float | None,
                 stop: Callable[[], bool] | None,
                 progress: Callable[[int, float], None] | None, node_limit: int | None,
                 other_than: dict[str, list[tuple[int, ...]]] | None,
                 names: Sequence[str]) -> None:  # fmt: skip
        from polytile.puzzles.walkable._path_kernel import board_caps, drop_bounds, rest_counts

        self.kernel = board_caps
        self.drop_bounds = drop_bounds
        self.rest_counts = rest_counts
        self.rests: dict[tuple[bytes, int], npt.NDArray[np.int64]] = {}
        self.cells = cells
        self.target = target
        self.deadline = deadline
        self.stop = stop
        self.progress = progress
        self.nodes = 0
        self.start = cells.copy()
        self.tables: list[npt.NDArray[np.int16]] = []
        self.unsure = False
        self.node_limit = node_limit
        self.other_than = other_than
        self.names = names
        self.chosen: dict[int, npt.NDArray[np.int16]] = {}
        self.best: dict[int, npt.NDArray[np.int16]] | None = None
        self.best_score: int | None = None
        self.started = time.perf_counter()

    def bounds(self, pieces: list[_Piece]) -> list[npt.NDArray[np.int64]]:
        """Per piece, each drop's bound at this node (see the module's notes)."""
        droppable = np.zeros(CELLS, dtype=np.bool_)
        for p in pieces:
            droppable[p.rows.ravel()] = True
        top = 2 * len(pieces)
        caps, node_caps = self.kernel(self.cells, droppable, top, MAX_TERMINALS)
        options = np.zeros((len(pieces), 27), dtype=np.bool_)
        options[:, 0] = True  # a pass
        for i, p in enumerate(pieces):
            options[i, p.counts @ np.array([9, 3, 1])] = True
        out = []
        for i, p in enumerate(pieces):
            others = np.delete(options, i, axis=0)
            key = (others.tobytes(), top)
            rest = self.rests.get(key)
            if rest is None:
                rest = self.rests[key] = self.rest_counts(others, top)
            out.append(self.drop_bounds(p.rows, rest, caps, node_caps, top))
        return out

    def record(self, score: int) -> None:
        """An answer scoring ``score`` (the drops chosen, the other pieces passing), if it
        can be played in order (see :func:`legal_order`)."""
        drops = [self.chosen.get(i) for i in range(len(self.tables))]
        try:
            played = legal_order(self.start, self.tables, drops)
        except FillUnknown:
            self.unsure = True  # an answer that may or may not be playable: no proof
            return
        if played is None:
            return
        if played != drops:  # fillers can only add: score what is played
            work = self.start.copy()
            work[np.concatenate([np.asarray(d) for d in played if d is not None])] = RED
            score = int(largest_regions(work)[0].sum())
        answer = dict(enumerate(played))
        if self.other_than is not None:  # looking for a second answer: any other will do
            if _answer(self.names, self.chosen) != self.other_than:
                self.best, self.best_score = answer, score
                raise _Stop("found")
            return
        if score >= self.target:
            self.best, self.best_score = answer, score
            self.target = score + 1
            if self.progress is not None:
                self.progress(score, time.perf_counter() - self.started)

    def check(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            self.nodes -= 1
            raise _Stop("nodes")
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Stop("time")
        if self.stop is not None and self.nodes % 16 == 0 and self.stop():
            raise _Stop("interrupt")

    def node(self, pieces: list[_Piece]) -> None:
        self.check()
        score = int(largest_regions(self.cells)[0].sum())
        if score >= self.target:
            self.record(score)
        bounds: list[npt.NDArray[np.int64]] = []
        while pieces:
            bounds = self.bounds(pieces)
            keeps = [b >= self.target for b in bounds]
            if all(k.all() for k in keeps):
                break
            pieces = [p.take(k) for p, k in zip(pieces, keeps, strict=True)]
            bounds = [b[k] for b, k in zip(bounds, keeps, strict=True)]
            live = [(p, b) for p, b in zip(pieces, bounds, strict=True) if len(p.rows)]
            pieces, bounds = [p for p, _ in live], [b for _, b in live]
        if not pieces:
            return
        k = min(range(len(pieces)), key=lambda j: len(pieces[j].rows))
        piece, others = pieces[k], pieces[:k] + pieces[k + 1 :]
        for d in np.argsort(-bounds[k], kind="stable"):
            if bounds[k][d] < self.target:
                break  # a better answer found meanwhile raised the target past the rest
            row = piece.rows[d]
            self.cells[row] = RED
            self.chosen[piece.index] = row
            hit = np.zeros(CELLS, dtype=np.bool_)
            hit[row] = True
            self.node([o.take(np.logical_not(hit[o.rows].any(axis=1))) for o in others])
            del self.chosen[piece.index]
            self.cells[row] = UNCLAIMED
        self.node(others)  # the piece passes


#: Passes in a row that end the game (the largest-path puzzle's rule, as in its replay).
PASS_LIMIT = 3
#: Steps :func:`legal_order` may take before giving up.
FILL_STEPS = 20_000


class FillUnknown(Exception):
    """:func:`legal_order` ran out of steps before deciding."""


def legal_order(cells: npt.NDArray[np.int8], tables: Sequence[npt.NDArray[np.int16]],
                drops: Sequence[Any]) -> list[Any] | None:  # fmt: skip
    """``drops`` (per piece a row of its table, or None for a pass) made playable in order:
    passes that would make :data:`PASS_LIMIT` in a row before a later drop become drops
    of the piece's table on cells no other drop takes (they can only add to the regions).
    None when no such filling exists.

    Raises
    ------
    FillUnknown
        After :data:`FILL_STEPS` steps without a decision (boards all but full).
    """
    last = max((i for i, d in enumerate(drops) if d is not None), default=-1)
    out = list(drops)
    taken = np.zeros(len(cells), dtype=np.bool_)
    for d in drops:
        if d is not None:
            taken[np.asarray(d)] = True
    steps = 0

    def fill(i: int, run: int) -> bool:
        nonlocal steps
        steps += 1
        if steps > FILL_STEPS:
            raise FillUnknown
        if i > last:
            return True
        if out[i] is not None:
            return run < PASS_LIMIT and fill(i + 1, 0)
        if run + 1 < PASS_LIMIT and fill(i + 1, run + 1):
            return True
        table = tables[i]
        for row in table[np.logical_not(taken[table].any(axis=1))] if len(table) else ():
            taken[row] = True
            out[i] = row
            if fill(i + 1, 0):
                return True
            out[i] = None
            taken[row] = False
        return False

    return out if fill(0, 0) else None


def _answer(names: Sequence[str], drops: dict[int, Any]) -> dict[str, list[tuple[int, ...]]]:
    """Per piece name, its drops' sorted cells (``()`` for a pass), sorted: two answers
    that only swap the drops of identical pieces are the same."""
    out: dict[str, list[tuple[int, ...]]] = {}
    for i, name in enumerate(names):
        d = drops.get(i)
        out.setdefault(name, []).append(() if d is None else tuple(sorted(int(g) for g in d)))
    return {name: sorted(v) for name, v in out.items()}


def best_drops(cells: npt.ArrayLike, tables: Sequence[npt.NDArray[np.int16]], *,
               at_least: int, deadline: float | None = None,
               stop: Callable[[], bool] | None = None,
               progress: Callable[[int, float], None] | None = None,
               node_limit: int | None = None, other_than: Sequence[Any] | None = None,
               names: Sequence[str] | None = None) -> SearchResult:  # fmt: skip
    """The drops (one of ``tables[i]``'s rows per piece, or a pass) whose regions sum
    highest, searched for scores of ``at_least`` or more; or, given ``other_than``, any
    answer reaching ``at_least`` other than that one.

    Parameters
    ----------
    cells
        The starting position (300 cells).
    tables
        Per piece its legal drops in that position (:func:`~polytile.puzzles.walkable.
        board.legal_drops`).
    at_least
        The first target: answers scoring less are not looked for (one more than a known
        answer's score, to prove that answer optimal).
    deadline
        ``time.perf_counter()`` value at which to stop; None for no limit.
    stop
        Polled every 16 nodes; True stops the search.
    progress
        ``progress(score, seconds)`` at each better answer.
    node_limit
        Nodes to search at most (a limit on work: the same on every machine).
    other_than, names
        An answer (per piece its drop, or None for a pass) and the pieces' names: search
        for another answer scoring ``at_least`` or more, the target staying there. Two
        answers differing only by swapping identical pieces' drops are the same.

    Returns
    -------
    SearchResult
        ``complete`` False when stopped (``stopped_by`` says why: ``"time"``,
        ``"interrupt"``, ``"nodes"``, ``"found"`` for a second answer, which is then
        ``drops``, or ``"fill"`` when an answer's playability in order was left undecided):
        the best answer so far. Every answer is playable in order: passes that would end the
        game before a later drop are filled (:func:`legal_order`), and answers that cannot be
        are skipped.
    """
    arr = np.array(cells, dtype=np.int8)
    if arr.shape != (CELLS,):
        raise ValueError(f"a Walkable Cities position is {CELLS} cells")
    pieces = [_Piece(i, np.asarray(t, dtype=np.int16).reshape(-1, 4),
                     _counts(np.asarray(t, dtype=np.int16).reshape(-1, 4)))
              for i, t in enumerate(tables)]  # fmt: skip
    for p in pieces:
        if len(p.rows) and (arr[p.rows] != UNCLAIMED).any():
            raise ValueError(f"piece {p.index + 1}: a drop covers a claimed cell")
    use_compiled_regions()  # a region count at every node
    if other_than is not None and (names is None or len(names) != len(tables)
                                   or len(other_than) != len(tables)):  # fmt: skip
        raise ValueError("other_than needs one drop (or None) and one name per piece")
    names = list(names) if names is not None else [str(i) for i in range(len(tables))]
    avoid = None if other_than is None else _answer(names, dict(enumerate(other_than)))
    s = _Search(arr, at_least, deadline, stop, progress, node_limit, avoid, names)
    s.tables = [p.rows for p in pieces]
    base = int(largest_regions(arr)[0].sum())
    live = [p for p in pieces if len(p.rows)]
    bound = base
    if live:
        bound = max(bound, *(int(b.max()) for b in s.bounds(live) if len(b)))
    stopped = None
    try:
        s.node(live)
    except _Stop as exc:
        stopped = exc.reason
    except KeyboardInterrupt:  # Ctrl-C, or a command's deadline: the best so far stands
        stopped = "interrupt"
    drops = None
    if s.best is not None:
        drops = [s.best.get(i) for i in range(len(pieces))]
    if stopped is None and s.unsure:
        stopped = "fill"  # some answer's playability was not decided: no proof
    return SearchResult(drops, s.best_score, stopped is None, bound, s.nodes, stopped)
