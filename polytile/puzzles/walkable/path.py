"""The Walkable Cities largest-path puzzle: seeded instances, solving, replay, pictures.

Red alone drops a known sequence of pieces on the three boards (blue's cells fixed) to make
the sum of its largest regions as large as possible, or to reach per-board targets on as
many boards as possible. :func:`solve_path` runs the CP-SAT model of
:mod:`polytile.puzzles.walkable.path_model`; every answer is replayed by :func:`replay` (each drop
checked legal, in order, against :func:`~polytile.puzzles.walkable.board.drop_table`, the
regions recomputed by :func:`~polytile.puzzles.walkable.board.largest_regions`) before it is
returned.

Examples
--------
>>> p = PathPuzzle.from_seed(3, pieces=1, dead=10, opponent_cells=24, own_cells=16)
>>> p.sequence
('L4',)
>>> r = solve_path(p, time_limit=30, workers=1)
>>> r.status, r.objective == sum(r.regions)
('optimal', True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from polytile.errors import BoardError, FormatError, IllegalMoveError, SolverError
from polytile.puzzles.walkable.board import (
    BLUE,
    BOARDS,
    CELLS,
    DEAD,
    PIECES,
    RED,
    SIDE,
    UNCLAIMED,
    drop_table,
    largest_regions,
    legal_drops,
    seeded_boards,
    use_compiled_regions,
)
from polytile.puzzles.walkable.rules import Drop as RulesDrop
from polytile.puzzles.walkable.rules import cell_name

__all__ = [
    "RESULT_FORMAT",
    "PathPuzzle",
    "PathResult",
    "board_rows",
    "cells_from_rows",
    "check_result_doc",
    "drop_text",
    "greedy_drops",
    "path_picture",
    "replay",
    "solve_path",
]

ProgressFn = Callable[[float | None, float | None, float], None]
#: A drop as its 4 global cells (a row of :func:`drop_table`, or any sequence of them).
Drop = Sequence[int] | npt.NDArray[np.int16]
_MARK = {UNCLAIMED: ".", 1: "#", RED: "R", BLUE: "B"}
#: The format of a solved puzzle's JSON (``solve walkable-path --json`` or ``-o FILE``).
RESULT_FORMAT = "polytile/walkable-path@1"


@dataclass(frozen=True)
class PathPuzzle:
    """A largest-path puzzle: the position (red to drop) and the pieces, in order.

    Attributes
    ----------
    cells
        The 300 cells (read-only copy).
    sequence
        Red's pieces in order.
    targets
        Per board a target region size, or None: maximise the sum of the regions.
    seed
        The seed it was made from, if any.
    """

    cells: npt.NDArray[np.int8]
    sequence: tuple[str, ...]
    targets: tuple[int, int, int] | None = None
    seed: int | None = None

    def __post_init__(self) -> None:
        arr = np.array(self.cells, dtype=np.int8)
        if arr.shape != (CELLS,) or arr.min() < 0 or arr.max() > 3:
            raise BoardError(f"a Walkable Cities position is {CELLS} cells of 0..3")
        arr.flags.writeable = False
        object.__setattr__(self, "cells", arr)
        bad = [p for p in self.sequence if p not in PIECES]
        if bad or not self.sequence:
            raise BoardError(f"pieces must be a non-empty sequence of {PIECES}, got "
                             f"{list(self.sequence)}")  # fmt: skip
        if self.targets is not None and (
            len(self.targets) != BOARDS or any(not 0 <= t <= SIDE * SIDE for t in self.targets)
        ):
            raise BoardError(f"targets are {BOARDS} region sizes 0..100, got {self.targets}")

    @classmethod
    def from_seed(cls, seed: int, *, pieces: int | Sequence[str] = 4, dead: int = 10,
                  opponent_cells: int = 24, own_cells: int = 16,
                  targets: Sequence[int] | None = None) -> PathPuzzle:  # fmt: skip
        """A seeded puzzle: :func:`seeded_boards`, then ``opponent_cells`` blue and
        ``own_cells`` red cells placed by random legal drops (alternating, the last one of
        each side cut short when the count is not a multiple of 4), and ``pieces`` drawn
        from the rotation (all five in a random order, refilled) unless given by name.

        Raises
        ------
        BoardError
            For a count out of range, or when the boards fill up before the cells are placed.
        """
        if not 0 <= opponent_cells <= 200 or not 0 <= own_cells <= 200:
            raise BoardError("opponent and own cells must each be 0..200")
        rng = np.random.default_rng([seed, 16])
        cells = seeded_boards(seed, dead).copy()
        left = {BLUE: opponent_cells, RED: own_cells}
        while left[BLUE] or left[RED]:
            for side in (BLUE, RED):
                if not left[side]:
                    continue
                drawn = PIECES[int(rng.integers(len(PIECES)))]
                rows = legal_drops(cells, drawn)
                for other in (p for p in PIECES if p != drawn and len(rows) == 0):
                    rows = legal_drops(cells, other)  # the drawn piece fits nowhere: another
                if len(rows) == 0:  # (it gave up at the first piece that fit nowhere)
                    raise BoardError("the boards filled up before every cell was placed")
                row = rows[int(rng.integers(len(rows)))][: left[side]]
                cells[row] = side
                left[side] -= len(row)
        if isinstance(pieces, int):
            if not 1 <= pieces <= 20:
                raise BoardError(f"1..20 pieces, not {pieces}")
            names: list[str] = []
            while len(names) < pieces:
                names += [PIECES[int(k)] for k in rng.permutation(len(PIECES))]
            sequence = tuple(names[:pieces])
        else:
            sequence = tuple(pieces)
        tg = None if targets is None else (int(targets[0]), int(targets[1]), int(targets[2]))
        return cls(cells, sequence, tg, seed)

    def base_regions(self) -> list[int]:
        """Red's largest region per board before any drop."""
        return [int(v) for v in largest_regions(np.array(self.cells))[0]]

    def to_dict(self) -> dict[str, Any]:
        """The puzzle as JSON-ready data (boards as rows of ``.#RB``)."""
        return {"seed": self.seed, "sequence": list(self.sequence),
                "targets": None if self.targets is None else list(self.targets),
                "boards": board_rows(self.cells)}  # fmt: skip


def board_rows(cells: npt.NDArray[np.int8]) -> list[list[str]]:
    """Per board, its 10 rows as strings of ``.#RB``."""
    return [["".join(_MARK[int(cells[b * 100 + r * SIDE + c])] for c in range(SIDE))
             for r in range(SIDE)] for b in range(BOARDS)]  # fmt: skip


def cells_from_rows(boards: Any, source: str = "<string>",
                    where: str = "boards") -> npt.NDArray[np.int8]:  # fmt: skip
    """The 300 cells from :func:`board_rows`' form: 3 boards of 10 rows of ``.#RB``.

    Raises
    ------
    FormatError
        Naming ``source`` and ``where`` when the boards are not that.
    """
    codes = {m: k for k, m in _MARK.items()}
    ok = (isinstance(boards, list) and len(boards) == BOARDS
          and all(isinstance(b, list) and len(b) == SIDE for b in boards)
          and all(isinstance(r, str) and len(r) == SIDE and set(r) <= set(codes)
                  for b in boards for r in b))  # fmt: skip
    if not ok:
        raise FormatError(f"must be {BOARDS} boards of {SIDE} rows of {SIDE} cells '.#RB'",
                          source, where)  # fmt: skip
    return np.array([codes[ch] for b in boards for r in b for ch in r], dtype=np.int8)


def read_drops(puzzle: PathPuzzle, texts: Any, source: str = "<string>",
               where: str = "drops") -> list[tuple[int, ...] | None]:  # fmt: skip
    """Per piece of ``puzzle``, its drop read from the rules' text (``L4 1:d4,e4 3:d5
    2:d6``) or ``pass`` (or null): read, not played (:func:`replay` plays them).

    Raises
    ------
    FormatError
        For a wrong count, unreadable text, or a drop of another piece than the sequence's.
    """
    from polytile.puzzles.walkable.rules import PASS, parse_drop

    if not isinstance(texts, list) or len(texts) != len(puzzle.sequence):
        raise FormatError(f"must be a list of {len(puzzle.sequence)} drops, one per piece",
                          source, where)  # fmt: skip
    out: list[tuple[int, ...] | None] = []
    for i, (name, text) in enumerate(zip(puzzle.sequence, texts, strict=True)):
        if text is None or text == PASS:
            out.append(None)
            continue
        if not isinstance(text, str):
            raise FormatError("must be a drop's text like 'L4 1:d4,e4 3:d5 2:d6' or 'pass'",
                              source, f"{where}[{i}]")  # fmt: skip
        try:
            drop = parse_drop(text)
        except ValueError as exc:
            raise FormatError(str(exc), source, f"{where}[{i}]") from exc
        if drop == PASS or isinstance(drop, str):
            out.append(None)
        elif drop.piece != name:
            raise FormatError(f"piece {i + 1} is {name}, not {drop.piece}", source,
                              f"{where}[{i}]")  # fmt: skip
        else:
            out.append(tuple(drop.cells))
    return out


def check_result_doc(doc: Any, source: str = "<string>") -> tuple[PathPuzzle, list[str]]:
    """Read a solved puzzle's document (:data:`RESULT_FORMAT`) and replay its drops: the
    puzzle, and every problem found (empty when the drops are legal in order and make the
    stated regions and objective).

    Raises
    ------
    FormatError
        When the document cannot be read (the field is named).
    """
    if not isinstance(doc, dict) or doc.get("format") != RESULT_FORMAT:
        raise FormatError(f"expected format {RESULT_FORMAT!r}", source, "format")
    seq = doc.get("sequence")
    if not isinstance(seq, list) or not seq or not all(p in PIECES for p in seq):
        raise FormatError(f"'sequence' must be a list of piece names {PIECES}", source,
                          "sequence")  # fmt: skip
    targets = doc.get("targets")
    if targets is not None and (not isinstance(targets, list) or len(targets) != BOARDS
                                or not all(isinstance(t, int) and 0 <= t <= 100
                                           for t in targets)):  # fmt: skip
        raise FormatError("'targets' must be null or three sizes 0..100", source, "targets")
    seed = doc.get("seed")
    puzzle = PathPuzzle(cells_from_rows(doc.get("boards"), source), tuple(seq),
                        None if targets is None else (targets[0], targets[1], targets[2]),
                        seed if isinstance(seed, int) else None)  # fmt: skip
    entries = doc.get("drops")
    if isinstance(entries, list):
        for i, e in enumerate(entries):
            if isinstance(e, dict) and not isinstance(e.get("text"), str):
                raise FormatError("a drop needs its 'text' (null for a pass)", source,
                                  f"drops[{i}].text")  # fmt: skip
    texts = ([None if e is None else e.get("text") if isinstance(e, dict) else e
              for e in entries] if isinstance(entries, list) else entries)  # fmt: skip
    drops = read_drops(puzzle, texts, source)
    try:
        regions = replay(puzzle, drops)
    except IllegalMoveError as exc:
        return puzzle, [str(exc)]
    problems = []
    assert isinstance(entries, list)  # read_drops refused anything else
    for i, (e, d) in enumerate(zip(entries, drops, strict=True)):
        cells = e.get("cells") if isinstance(e, dict) else None
        if d is not None and cells is not None and cells != [_coords(g) for g in sorted(d)]:
            problems.append(f"drop {i + 1}: its cells {cells} are not those of its text "
                            f"{e.get('text')!r}")  # fmt: skip
    bound = doc.get("bound")
    if (
        isinstance(bound, int)
        and isinstance(doc.get("objective"), int)
        and (doc["objective"] > bound)
    ):
        problems.append(f"the stated objective {doc['objective']} is above the stated bound "
                        f"{bound}")  # fmt: skip
    counted = [int(r) for r in regions]
    if doc.get("regions") != counted:
        problems.append(f"the drops make regions {counted}, not the stated {doc.get('regions')}")
    if doc.get("objective") != _score(puzzle, regions):
        problems.append(f"the drops score {_score(puzzle, regions)}, not the stated "
                        f"{doc.get('objective')}")  # fmt: skip
    return puzzle, problems


def replay(puzzle: PathPuzzle, drops: Sequence[Drop | None]) -> npt.NDArray[np.int64]:
    """Play the drops in order (None: a pass) and return red's largest region per board.

    Independent of the model: each drop must be a row of the piece's
    :func:`drop_table` whose cells are all unclaimed when it is played, and no drop may
    follow three passes in a row (the game would be over).

    Raises
    ------
    IllegalMoveError
        If a drop is not legal when played.
    """
    if len(drops) != len(puzzle.sequence):
        raise IllegalMoveError(f"{len(drops)} drops for {len(puzzle.sequence)} pieces")
    cells = np.array(puzzle.cells, dtype=np.int8)
    passes = 0
    for name, drop in zip(puzzle.sequence, drops, strict=True):
        if drop is None:
            passes += 1
            continue
        if passes >= 3:
            raise IllegalMoveError(f"{name} drops after {passes} passes in a row: game over")
        passes = 0
        row = np.array(sorted(int(g) for g in drop), dtype=np.int16)
        table = drop_table(name)
        if len(row) != 4 or not (table == row).all(axis=1).any():
            raise IllegalMoveError(f"{_named(drop)} is not a drop of {name}")
        if (cells[row] != UNCLAIMED).any():
            dead = [int(g) for g in row if cells[g] == DEAD]
            taken = [int(g) for g in row if cells[g] not in (UNCLAIMED, DEAD)]
            said = [f"dead cells {_named(dead)}"] * bool(dead) + [
                f"claimed cells {_named(taken)}"] * bool(taken)  # fmt: skip
            raise IllegalMoveError(f"{name} drops on {' and '.join(said)}, not unclaimed ones")
        cells[row] = RED
    return largest_regions(cells)[0]


@dataclass(frozen=True)
class PathResult:
    """A solved (or stopped) largest-path puzzle, its drops replayed.

    Attributes
    ----------
    status
        ``"optimal"`` (proven), ``"feasible"`` (best found, not proven) or ``"unknown"``.
    drops
        Per piece its drop's 4 global cells, or None for a pass.
    regions
        Red's largest region per board after the drops (from the replay).
    objective
        The replayed objective: the sum of ``regions``, or the boards reaching the targets.
    bound
        CP-SAT's proven upper bound on the objective.
    """

    puzzle: PathPuzzle
    status: str
    drops: tuple[tuple[int, ...] | None, ...]
    regions: tuple[int, ...]
    objective: int | None
    bound: int | None
    seconds: float
    stopped_by: str | None = None
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def proven(self) -> bool:
        """True when the objective is proven optimal."""
        return self.status == "optimal"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the puzzle, the drops (cells as ``[board, row, col]``), the result."""
        return {
            "format": RESULT_FORMAT,
            "puzzle": "walkable-path",
            **self.puzzle.to_dict(),
            "status": self.status,
            "proven_optimal": self.proven,
            "objective": self.objective,
            "bound": self.bound,
            "regions": list(self.regions),
            "base_regions": self.puzzle.base_regions(),
            "drops": [None if d is None else {"piece": name, "cells": [_coords(g) for g in d],
                                              "text": drop_text(name, d)}
                      for name, d in zip(self.puzzle.sequence, self.drops, strict=True)],
            "seconds": round(self.seconds, 4),
            "stopped_by": self.stopped_by,
            **self.stats,
        }  # fmt: skip


def drop_text(name: str, drop: Drop) -> str:
    """The drop in the rules' text form (``L4 1:d4,e4 3:d5 2:d6``)."""
    a, b, c, d = sorted(int(g) for g in drop)
    return str(RulesDrop(name, (a, b, c, d)))


def _named(drop: Any) -> str:
    """Global cells as the rules write them, board first (``1:d4, 1:e4``)."""
    return ", ".join(f"{int(g) // 100 + 1}:{cell_name(int(g))}" for g in sorted(drop))


def _coords(g: int) -> list[int]:
    return [g // 100, g % 100 // SIDE, g % SIDE]


def _score(puzzle: PathPuzzle, regions: Sequence[int] | npt.NDArray[np.int64]) -> int:
    if puzzle.targets is None:
        return int(sum(regions))
    return sum(int(r >= t) for r, t in zip(regions, puzzle.targets, strict=True))


def greedy_drops(puzzle: PathPuzzle) -> list[npt.NDArray[np.int16] | None]:
    """Each piece in turn makes the legal drop that scores best at once (the first such
    drop; a pass when none is legal): the incumbent the exact search must beat."""
    use_compiled_regions()  # thousands of region counts: worth loading the compiled ones
    cells = np.array(puzzle.cells, dtype=np.int8)
    out: list[npt.NDArray[np.int16] | None] = []
    for name in puzzle.sequence:
        if len(out) >= 3 and all(d is None for d in out[-3:]):
            out.append(None)  # three passes in a row end the game
            continue
        rows = legal_drops(cells, name)
        best, pick = -1, None
        for row in rows:
            cells[row] = RED
            score = _score(puzzle, largest_regions(cells)[0])
            cells[row] = UNCLAIMED
            if score > best:
                best, pick = score, row
        if pick is not None:
            cells[pick] = RED
        out.append(pick)
    return out


def _playable(puzzle: PathPuzzle, drops: list[Any]) -> list[Any] | None:
    """The drops made playable in order (:func:`~polytile.puzzles.walkable.path_search.
    legal_order`: passes that would end the game before a later drop become drops that
    can only add), or None when that cannot be done (or was not decided)."""
    from polytile.puzzles.walkable.path_search import FillUnknown, legal_order

    cells = np.array(puzzle.cells, dtype=np.int8)
    rows = [None if d is None else np.array(sorted(int(g) for g in d), dtype=np.int16)
            for d in drops]  # fmt: skip
    try:
        return legal_order(cells, [legal_drops(cells, n) for n in puzzle.sequence], rows)
    except FillUnknown:
        return None


def warm_up() -> None:
    """Solve a small seeded puzzle both ways the command does (the greedy drops, the
    regions, the branch and bound), so that numba compiles and caches every kernel
    (:mod:`polytile._warm` runs this in a process of its own the first time)."""
    solve_path(PathPuzzle.from_seed(0, pieces=2), time_limit=60.0, workers=1, method="search")


def solve_path(puzzle: PathPuzzle, *, time_limit: float | None = None, workers: int = 2,
               seed: int = 0, progress: ProgressFn | None = None,
               stop: Callable[[], bool] | None = None,
               parameters: dict[str, Any] | None = None,
               method: str = "auto", node_limit: int | None = None) -> PathResult:  # fmt: skip
    """The best drops for the puzzle, proven optimal when the search ends in time.

    The greedy drops (:func:`greedy_drops`) are the incumbent of the sum objective. Two
    exact methods:

    * ``"search"``: the branch and bound of :mod:`polytile.puzzles.walkable.path_search`
      (the sum objective only), which recomputes the region caps after every drop. It
      proved all 10 seeded 4-piece cases of ``benchmarks/bench_walkable_path.py``, where
      CP-SAT proved none in 60 s each.
    * ``"cpsat"``: the CP-SAT model asking for more than the incumbent (``at_least``,
      which prunes every drop that cannot help to beat it): infeasible proves the
      incumbent optimal. With targets the whole model is solved.

    ``"auto"`` is the search for the sum objective without CP-SAT ``parameters``, CP-SAT
    otherwise.

    Parameters
    ----------
    time_limit
        Seconds of search; None for no limit.
    workers, seed
        CP-SAT's workers and random seed (the search runs on one core).
    progress
        ``progress(objective, bound, seconds)`` at each improving solution.
    stop
        Polled during the search; True stops it (the best so far is returned).
    parameters
        Further CP-SAT parameters, e.g. ``{"max_deterministic_time": 10.0}`` (a limit on
        work rather than wall time: with one worker, the same run wherever it runs).
    method
        ``"auto"``, ``"search"`` or ``"cpsat"`` (see above).
    node_limit
        The search's nodes at most (a limit on work, the same on every machine; stopped
        by it, ``stopped_by`` is ``"nodes"``).

    Returns
    -------
    PathResult
        Replayed: its regions and objective come from :func:`replay`, not from the model.

    Raises
    ------
    SolverError
        If the replay rejects the drops, scores them below the model's claim, a proven
        optimum differently from the claim, or above the proven bound.
    ValueError
        For an unknown method, or the search asked for targets.

    Notes
    -----
    A stopped search may hold a region that is not the largest of its drops: the replay
    then scores the drops higher than the claim (still at most the bound), and that higher
    score is reported.
    """
    from polytile.puzzles.walkable.path_model import build_path_model, caps_bound, region_caps
    from polytile.solvers.cpsat import solve

    if method == "auto":
        method = "search" if puzzle.targets is None and parameters is None else "cpsat"
    if method not in ("search", "cpsat") or (method == "search" and puzzle.targets):
        raise ValueError(f"method {method!r}: 'search' (the sum objective) or 'cpsat'")
    started = time.perf_counter()
    # The greedy drops start both objectives: with targets too, a stop before the model has
    # anything better keeps them rather than the model's first answer (often all passes).
    incumbent: list[Any] = greedy_drops(puzzle)
    floor = _score(puzzle, replay(puzzle, incumbent))
    at_least = None if puzzle.targets else floor + 1
    if method == "search":
        return _searched(puzzle, incumbent, floor, started, time_limit, progress, stop,
                         node_limit)  # fmt: skip
    try:
        v = build_path_model(puzzle.cells, puzzle.sequence, targets=puzzle.targets,
                             at_least=at_least)  # fmt: skip
        ceiling = caps_bound(v, region_caps(v)) if puzzle.targets is None else BOARDS
    except KeyboardInterrupt:  # Ctrl-C or a deadline while building: the greedy drops stand
        regions = replay(puzzle, incumbent)
        return PathResult(puzzle, "feasible", _cells_of(incumbent),
                          tuple(int(x) for x in regions), _score(puzzle, regions), None,
                          time.perf_counter() - started, "interrupt",
                          {"incumbent": floor})  # fmt: skip
    left = None if time_limit is None else max(0.05, time_limit - (time.perf_counter() - started))
    r = solve(v.runner(), time_limit=left, workers=workers, seed=seed, progress=progress,
              stop=stop, parameters=parameters)  # fmt: skip
    seconds = time.perf_counter() - started
    stats = {"drop_variables": sum(len(t) for t in v.drops),
             "nodes": sum(len(g.nodes) for g in v.graphs),
             "branches": r.branches, "incumbent": floor}  # fmt: skip
    played = _playable(puzzle, v.chosen(r.placements)) if r.found else None
    unplayable = r.found and played is None
    if (
        played is not None
        and r.status != "optimal"
        and (_score(puzzle, replay(puzzle, played)) <= floor)
    ):  # not proven and no better than the greedy drops: those stand, labelled the same
        played = None
    if played is not None:
        drops = played
        status, claim = r.status, round(r.objective or 0)
        bound = None if r.bound is None else int(r.bound + 1e-6)
    elif unplayable:  # its answer cannot be played in order (three passes, then a drop)
        drops, status, claim, bound = incumbent, "feasible", floor, ceiling
    elif r.status == "infeasible" or (at_least is not None and at_least > ceiling):
        drops, status, claim, bound = incumbent, "optimal", floor, floor
    else:
        proven = None if r.bound is None else int(r.bound + 1e-6)
        bound = ceiling if proven is None else max(floor, min(ceiling, proven))
        drops, status, claim = incumbent, "feasible", floor
    regions = replay(puzzle, drops)
    score = _score(puzzle, regions)
    if score < claim or (status == "optimal" and score != claim):
        raise SolverError(f"the replay scores the drops {score}, the model said {claim}")
    if bound is not None and score > bound:
        raise SolverError(f"the drops score {score}, above the proven bound {bound}")
    return PathResult(puzzle, status, _cells_of(drops),
                      tuple(int(x) for x in regions), score, bound, seconds,
                      None if status == "optimal" else r.stopped_by, stats)  # fmt: skip


def _searched(puzzle: PathPuzzle, incumbent: list[Any], floor: int, started: float,
              time_limit: float | None, progress: ProgressFn | None,
              stop: Callable[[], bool] | None, node_limit: int | None) -> PathResult:  # fmt: skip
    """:func:`solve_path` by the branch and bound, from the greedy incumbent."""
    from polytile.puzzles.walkable.path_search import best_drops

    tables = [legal_drops(np.array(puzzle.cells), name) for name in puzzle.sequence]
    deadline = None if time_limit is None else started + time_limit

    def report(score: int, _seconds: float) -> None:
        if progress is not None:
            progress(float(score), None, time.perf_counter() - started)

    try:
        r = best_drops(puzzle.cells, tables, at_least=floor + 1, deadline=deadline,
                       stop=stop, progress=report, node_limit=node_limit)  # fmt: skip
    except KeyboardInterrupt:  # a command's deadline before the search began: greedy stands
        regions = replay(puzzle, incumbent)
        return PathResult(puzzle, "feasible", _cells_of(incumbent),
                          tuple(int(x) for x in regions), _score(puzzle, regions), None,
                          time.perf_counter() - started, "interrupt",
                          {"incumbent": floor})  # fmt: skip
    drops, claim = incumbent, floor
    if r.drops is not None and r.score is not None:
        drops, claim = r.drops, r.score  # playable in order: the search made sure
    bound = claim if r.complete else max(claim, r.bound)
    status = "optimal" if r.complete or claim >= bound else "feasible"
    regions = replay(puzzle, drops)
    score = _score(puzzle, regions)
    if score < claim or (status == "optimal" and score != claim):
        raise SolverError(f"the replay scores the drops {score}, the search said {claim}")
    if score > bound:
        raise SolverError(f"the drops score {score}, above the proven bound {bound}")
    stats = {"drop_variables": sum(len(t) for t in tables), "search_nodes": r.nodes,
             "incumbent": floor}  # fmt: skip
    return PathResult(puzzle, status, _cells_of(drops), tuple(int(x) for x in regions), score,
                      bound, time.perf_counter() - started,
                      None if status == "optimal" else r.stopped_by, stats)  # fmt: skip


def _cells_of(drops: Sequence[Any]) -> tuple[tuple[int, ...] | None, ...]:
    return tuple(None if d is None else tuple(int(g) for g in d) for d in drops)


def path_picture(result: PathResult) -> str:
    """The three boards side by side after the drops, with coordinates and a legend
    (:func:`~polytile.puzzles.walkable.picture.path_text`): new cells as the piece's number
    (``1``, ``2``, ...), old red ``R``, blue ``B``, dead ``#``, unclaimed ``.``."""
    from polytile.puzzles.walkable.picture import path_text

    return path_text(result.puzzle.cells, result.drops)
