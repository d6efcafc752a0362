"""Walkable Cities largest-path puzzles with exactly one optimal drop sequence, proven.

A candidate is a seeded :class:`~polytile.puzzles.walkable.path.PathPuzzle` (three boards
with dead, blue and red cells, and ``min_pieces`` to ``max_pieces`` pieces for red to drop,
the sum of its largest regions to maximise). Two runs of the exact branch and bound
(:mod:`polytile.puzzles.walkable.path_search`) decide it, each limited in *work* (search
nodes), not in wall time, so that the same seed gives the same puzzles on any machine and
any number of workers:

1. :func:`~polytile.puzzles.walkable.path.solve_path` finds the best drops and proves them
   optimal (the optimum, the puzzle's target).
2. The search asks for the target again, for any answer but that one
   (:func:`prove_unique`): none proves every other drop sequence scores strictly less. One
   is a second optimal answer: the candidate is dropped.

Which answers are "the same"
----------------------------
An answer gives each piece its drop: a set of 4 cells, each on a named board (so the piece's
position and orientation, its split into sub-pieces and their boards are all part of it).
Two answers are different when some piece drops on a different set of cells, or on the same
cells split or sent to the boards differently. Swapping the drops of two identical pieces
(two ``L4``, say) gives the same answer: the boards end the same and the search counts such
swaps once. An answer with a pass is dropped (dropping instead would score as much).

The second proof leaves out every drop that cannot be part of drops reaching the target;
there "pass" stands for the drops left out, and the pass limit is not enforced. An answer
it finds is still a real second answer (a left-out drop or a pass where the answer drops)
except in one case: with 4 or more pieces, it may pass 3 times in a row before a drop,
which the rules forbid. The error is then on the safe side: a unique puzzle is dropped,
never the other way.

Difficulty
----------
``log2(1 + nodes)``, where ``nodes`` counts the search nodes of both proofs: as for the
other kinds, each +1 doubles the work of finding the answer and proving every other
sequence worse. The stats also
record what a greedy player (each piece in turn takes the drop that scores best at once)
reaches, and ``greedy_short``, how far below the optimum that is.

Documents
---------
The puzzle (``polytile/walkable-path-puzzle@1``): the boards, the sequence, the target;
the answer (``polytile/walkable-path-answer@1``): the drops in the rules' notation, the
regions per board, the score and the greedy score. ``docs/formats.md`` describes both.

Examples
--------
>>> params = WalkablePathParams(min_pieces=1, max_pieces=1)
>>> c = make_walkable_path_candidate(params, 0, 3)
>>> c.accepted, c.solution.score == c.puzzle.target
(True, True)
>>> check_answer(c.puzzle, c.solution)
[]
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from dataclasses import dataclass
from itertools import permutations
from typing import Any

import numpy as np

from polytile.errors import FormatError, IllegalMoveError, PolytileError, SolverError
from polytile.faces.puzzle import against_target
from polytile.puzzles.walkable.board import BOARDS, PIECES, SIDE, legal_drops
from polytile.puzzles.walkable.path import (
    PathPuzzle,
    PathResult,
    board_rows,
    cells_from_rows,
    drop_text,
    greedy_drops,
    path_picture,
    read_drops,
    replay,
    solve_path,
)
from polytile.store.candidates import Candidate, candidate_rng

__all__ = [
    "ANSWER_FORMAT",
    "KIND",
    "PUZZLE_FORMAT",
    "WalkablePathAnswer",
    "WalkablePathParams",
    "WalkablePathPuzzle",
    "answer_doc",
    "answer_text",
    "attempt_answer",
    "canonical_drops",
    "check_answer",
    "make_walkable_path_candidate",
    "parse_path_answer",
    "parse_path_puzzle",
    "path_key",
    "prove_unique",
    "puzzle_doc",
    "puzzle_summary",
    "question_text",
    "solve_command",
    "verify_walkable_path",
]

KIND = "walkable-path"
PUZZLE_FORMAT = "polytile/walkable-path-puzzle@1"
ANSWER_FORMAT = "polytile/walkable-path-answer@1"


@dataclass(frozen=True)
class WalkablePathParams:
    """Parameters of the ``walkable-path`` kind.

    Parameters
    ----------
    min_pieces, max_pieces
        Pieces red drops (1..6, drawn uniformly). The search proves 4 in about a second,
        but with more pieces a second optimal answer is the rule (some cell that does not
        count can go elsewhere), so most candidates of 2 or more pieces are dropped.
    dead, opponent_cells, own_cells
        As :meth:`PathPuzzle.from_seed <polytile.puzzles.walkable.path.PathPuzzle.from_seed>`:
        dead cells per board, blue's and red's cells already on the boards.
    node_limit
        Search nodes for each proof; a candidate needing more is dropped (work, not wall
        time, keeps runs reproducible). 4-piece proofs take a few thousand.
    """

    min_pieces: int = 1
    max_pieces: int = 2
    dead: int = 10
    opponent_cells: int = 24
    own_cells: int = 16
    node_limit: int = 100_000

    def __post_init__(self) -> None:
        if not 1 <= self.min_pieces <= self.max_pieces <= 6:
            raise PolytileError(f"pieces must satisfy 1 <= min ({self.min_pieces}) <= max "
                                f"({self.max_pieces}) <= 6")  # fmt: skip
        if not 0 <= self.dead <= 60:
            raise PolytileError(f"dead cells per board must be 0 to 60, got {self.dead}")
        if not 0 <= self.opponent_cells <= 120 or not 0 <= self.own_cells <= 120:
            raise PolytileError("opponent and own cells must each be 0 to 120")
        if not 100 <= self.node_limit <= 10**9:
            raise PolytileError(f"node-limit must be 100 to 10^9, got {self.node_limit}")

    def to_dict(self) -> dict[str, Any]:
        """The parameters as plain JSON values."""
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class WalkablePathPuzzle:
    """A largest-path puzzle with one optimal answer: the position, the pieces, the optimum.

    Attributes
    ----------
    name
        ``walkable-path-SEED-INDEX`` for generated puzzles.
    path
        The position and sequence (its ``seed`` is the game seed it was made from).
    target
        The optimum sum of red's largest regions: exactly one answer reaches it.
    """

    name: str
    path: PathPuzzle
    target: int

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, WalkablePathPuzzle) and self.name == other.name
                and self.target == other.target and self.path.seed == other.path.seed
                and self.path.sequence == other.path.sequence
                and bool((self.path.cells == other.path.cells).all()))  # fmt: skip

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True)
class WalkablePathAnswer:
    """The one optimal answer of a :class:`WalkablePathPuzzle`.

    Attributes
    ----------
    drops
        Per piece, its drop's 4 global cells (sorted).
    regions
        Red's largest region per board after the drops (replayed).
    score
        Their sum, the puzzle's target.
    greedy
        What the greedy player scores (each piece takes the best drop at once).
    """

    drops: tuple[tuple[int, ...], ...]
    regions: tuple[int, ...]
    score: int
    greedy: int


# -- answers -------------------------------------------------------------------------------
def canonical_drops(puzzle: PathPuzzle, drops: Any) -> list[tuple[int, ...] | None]:
    """The drops with those of identical pieces put in the order of the piece's legal drops
    at the start (the order the model keeps; passes stay where they are)."""
    out: list[tuple[int, ...] | None] = [
        None if d is None else tuple(sorted(int(g) for g in d)) for d in drops
    ]
    for name in set(puzzle.sequence):
        table = [tuple(int(g) for g in row) for row in legal_drops(np.array(puzzle.cells), name)]
        rank = {row: k for k, row in enumerate(table)}
        at = [i for i, p in enumerate(puzzle.sequence) if p == name and out[i] is not None]
        made = sorted((out[i] for i in at), key=lambda d: rank.get(d, len(rank)))  # type: ignore[arg-type]
        for i, d in zip(at, made, strict=True):
            out[i] = d
    return out


def prove_unique(puzzle: PathPuzzle, drops: Any, target: int,
                 node_limit: int | None = None) -> tuple[str, int]:  # fmt: skip
    """Is ``drops`` (scoring ``target``, proven optimal) the only answer reaching it?

    Runs the branch and bound (:func:`~polytile.puzzles.walkable.path_search.best_drops`)
    for any other answer reaching ``target``.

    Returns
    -------
    tuple[str, int]
        ``"unique"`` (the search ended without one: every other sequence scores less),
        ``"several"`` (it found another) or ``"unknown"`` (out of nodes), and the nodes
        searched.

    Raises
    ------
    KeyboardInterrupt
        When a Ctrl-C (or :class:`~polytile.cli.clock.DeadlineReached`) stopped the search
        before it could decide.
    """
    from polytile.puzzles.walkable.path_search import best_drops

    cells = np.array(puzzle.cells)
    tables = [legal_drops(cells, name) for name in puzzle.sequence]
    r = best_drops(cells, tables, at_least=target, node_limit=node_limit,
                   other_than=list(drops), names=puzzle.sequence)  # fmt: skip
    if r.stopped_by == "interrupt":
        raise KeyboardInterrupt  # Ctrl-C (or a command's deadline): no verdict to give
    verdict = "unique" if r.complete else "several" if r.stopped_by == "found" else "unknown"
    return verdict, r.nodes


def _score_of(regions: Any) -> int:
    return int(sum(int(x) for x in regions))


# -- text ------------------------------------------------------------------------------------
def question_text(puzzle: WalkablePathPuzzle) -> str:
    """The three boards and the question in words."""
    p = puzzle.path
    blank = PathResult(p, "unknown", (None,) * len(p.sequence), (), None, None, 0.0)
    before = "/".join(map(str, p.base_regions()))
    return (path_picture(blank)
            + f"Red alone drops {', '.join(p.sequence)} in this order (each piece's 4 cells split "
            f"2+2 or 2+1+1 over different boards, on unclaimed cells). Its largest regions are "
            f"{before} now. Exactly one way makes them sum to {puzzle.target}; every other "
            "sums to less. Which?")  # fmt: skip


def solve_command(puzzle: WalkablePathPuzzle) -> str | None:
    """The ``polytile solve walkable-path`` command that rebuilds this very position (from
    its game seed, with the default cell counts), or None when none does."""
    p = puzzle.path
    if p.seed is None:
        return None
    try:
        again = PathPuzzle.from_seed(p.seed, pieces=list(p.sequence))
    except PolytileError:
        return None
    if not (again.cells == p.cells).all():
        return None
    return f"polytile solve walkable-path --seed {p.seed} --sequence {','.join(p.sequence)}"


def answer_text(puzzle: WalkablePathPuzzle, answer: WalkablePathAnswer) -> str:
    """The boards after the answer's drops (new cells as the piece's number), the drops in
    the rules' notation, the regions and the greedy player's score."""
    p = puzzle.path
    result = PathResult(p, "optimal", answer.drops, answer.regions, answer.score,
                        answer.score, 0.0)  # fmt: skip
    lines = [f"{k + 1}. {drop_text(name, d)}"
             for k, (name, d) in enumerate(zip(p.sequence, answer.drops, strict=True))]  # fmt: skip
    lines.append(f"answer: regions {'/'.join(map(str, answer.regions))}, sum {answer.score}; "
                 f"the greedy player reaches {answer.greedy}")  # fmt: skip
    return path_picture(result) + "\n".join(lines)


def puzzle_summary(puzzle: WalkablePathPuzzle) -> dict[str, Any]:
    """A puzzle's list columns: three 10x10 boards, the unclaimed cells, the pieces to
    drop, ``given`` 0, and the target."""
    free = int((np.asarray(puzzle.path.cells) == 0).sum())
    return {"board": "3x10x10", "cells": free, "pieces": len(puzzle.path.sequence),
            "given": 0, "sequence": ",".join(puzzle.path.sequence),
            "target": puzzle.target}  # fmt: skip


# -- keys --------------------------------------------------------------------------------------
def _moved(cells: np.ndarray, k: int, order: tuple[int, ...]) -> tuple[str, ...]:
    boards = np.asarray(cells).reshape(BOARDS, SIDE, SIDE)
    out = []
    for b in order:
        g = boards[b]
        if k & 4:
            g = g.T
        if k & 1:
            g = g[::-1, :]
        if k & 2:
            g = g[:, ::-1]
        out.append("".join(map(str, g.ravel().tolist())))
    return tuple(out)


def path_key(puzzle: PathPuzzle) -> str:
    """A key equal for two puzzles exactly when one is the other with all three boards
    turned or flipped alike, and the boards in another order (the rules treat the boards
    alike, and a turned piece is the same piece); the sequence's order counts."""
    best = min(_moved(puzzle.cells, k, order)
               for k in range(8) for order in permutations(range(BOARDS)))  # fmt: skip
    return hashlib.sha256(repr((KIND, puzzle.sequence, best)).encode()).hexdigest()[:32]


# -- documents -----------------------------------------------------------------------------
def puzzle_doc(puzzle: WalkablePathPuzzle) -> dict[str, Any]:
    """The ``polytile/walkable-path-puzzle@1`` document (:func:`parse_path_puzzle` reads it)."""
    p = puzzle.path
    return {"format": PUZZLE_FORMAT, "name": puzzle.name, "seed": p.seed,
            "sequence": list(p.sequence), "target": puzzle.target,
            "boards": board_rows(p.cells)}  # fmt: skip


def answer_doc(puzzle: WalkablePathPuzzle, answer: WalkablePathAnswer) -> dict[str, Any]:
    """The ``polytile/walkable-path-answer@1`` document (:func:`parse_path_answer`)."""
    return {
        "format": ANSWER_FORMAT,
        "puzzle": puzzle.name,
        "drops": [drop_text(n, d) for n, d in zip(puzzle.path.sequence, answer.drops, strict=True)],
        "regions": list(answer.regions),
        "score": answer.score,
        "greedy": answer.greedy,
    }


def _int(doc: dict[str, Any], name: str, source: str) -> int:
    value = doc.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise FormatError(f"'{name}' must be an integer", source, name)
    return value


def parse_path_puzzle(doc: Any, source: str = "<string>") -> WalkablePathPuzzle:
    """A puzzle from its decoded document.

    Raises
    ------
    FormatError
        Naming the source and the field at fault.
    """
    if not isinstance(doc, dict) or doc.get("format") != PUZZLE_FORMAT:
        raise FormatError(f"expected format {PUZZLE_FORMAT!r}", source, "format")
    seq = doc.get("sequence")
    if not isinstance(seq, list) or not seq or not all(p in PIECES for p in seq):
        raise FormatError(f"'sequence' must be a list of piece names {PIECES}", source,
                          "sequence")  # fmt: skip
    seed = doc.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise FormatError("'seed' must be an integer or null", source, "seed")
    path = PathPuzzle(cells_from_rows(doc.get("boards"), source), tuple(seq), None, seed)
    return WalkablePathPuzzle(str(doc.get("name", KIND)), path, _int(doc, "target", source))


def parse_path_answer(doc: Any, puzzle: WalkablePathPuzzle,
                      source: str = "<string>") -> WalkablePathAnswer:  # fmt: skip
    """The answer to ``puzzle`` from its decoded document (read, not played: see
    :func:`check_answer`).

    Raises
    ------
    FormatError
        Naming the source and the field at fault (a pass is refused: answers drop).
    """
    if not isinstance(doc, dict) or doc.get("format") != ANSWER_FORMAT:
        raise FormatError(f"expected format {ANSWER_FORMAT!r}", source, "format")
    drops = read_drops(puzzle.path, doc.get("drops"), source)
    if any(d is None for d in drops):
        raise FormatError("an answer drops every piece (no pass)", source, "drops")
    regions = doc.get("regions")
    if (
        not isinstance(regions, list)
        or len(regions) != BOARDS
        or not all(isinstance(r, int) and not isinstance(r, bool) for r in regions)
    ):
        raise FormatError("'regions' must be three integers", source, "regions")
    return WalkablePathAnswer(tuple(d for d in drops if d is not None), tuple(regions),
                              _int(doc, "score", source), _int(doc, "greedy", source))  # fmt: skip


def attempt_answer(puzzle: WalkablePathPuzzle, doc: Any,
                   source: str = "<string>") -> tuple[int | None, list[str], str]:  # fmt: skip
    """A person's drops (an answer document of which only ``drops`` is needed; a pass is
    ``"pass"``) replayed by the rules on ``puzzle``: the sum of red's largest regions (None
    when a drop is illegal), every problem (an illegal drop, stated regions or score the
    rules count otherwise, a sum below the target) and the boards drawn.

    Raises
    ------
    FormatError
        When the document cannot be read as drops of the puzzle's pieces.
    """
    if not isinstance(doc, dict) or doc.get("format") != ANSWER_FORMAT:
        raise FormatError(f"expected format {ANSWER_FORMAT!r}", source, "format")
    drops = read_drops(puzzle.path, doc.get("drops"), source)
    try:
        regions = tuple(int(r) for r in replay(puzzle.path, drops))
    except IllegalMoveError as exc:
        return None, [f"the drops are not legal: {exc}"], ""
    score = _score_of(regions)
    problems = [f"it states {name} {doc[name]!r}; the rules make {value!r}"
                for name, value in (("regions", list(regions)), ("score", score))
                if name in doc and doc[name] != value]  # fmt: skip
    said = f"the drops make regions {'/'.join(map(str, regions))}, sum {score}"
    problems += against_target(said, score, puzzle.target, measure="sum")
    drawn = PathResult(puzzle.path, "feasible", tuple(drops), regions, score, None, 0.0)
    return score, problems, path_picture(drawn)


# -- checking -------------------------------------------------------------------------------
def check_answer(puzzle: WalkablePathPuzzle, answer: WalkablePathAnswer) -> list[str]:
    """Every problem with an answer that the rules find, without searching: both documents
    read back as they were, the drops replayed in order (:func:`~polytile.puzzles.walkable.
    path.replay`) make the stated regions, whose sum is the score and the target, and the
    greedy player scores what is stated. Empty when sound."""
    problems: list[str] = []
    try:
        back = parse_path_puzzle(json.loads(json.dumps(puzzle_doc(puzzle))))
        again = parse_path_answer(json.loads(json.dumps(answer_doc(puzzle, answer))), back)
    except FormatError as exc:
        return [f"the documents do not read back: {exc}"]
    if back != puzzle:
        problems.append("the puzzle does not read back from its document")
    if again != answer:
        problems.append("the answer does not read back from its document")
    try:
        regions = tuple(int(r) for r in replay(back.path, list(answer.drops)))
    except IllegalMoveError as exc:
        return [*problems, f"the drops are not legal: {exc}"]
    if regions != tuple(answer.regions):
        problems.append(f"the drops make regions {list(regions)}, not {list(answer.regions)}")
    if _score_of(regions) != answer.score or answer.score != puzzle.target:
        problems.append(f"the drops score {_score_of(regions)}; stated {answer.score}, target "
                        f"{puzzle.target}")  # fmt: skip
    greedy = _score_of(replay(back.path, greedy_drops(back.path)))
    if greedy != answer.greedy:
        problems.append(f"the greedy player scores {greedy}, not {answer.greedy}")
    return problems


def verify_walkable_path(puzzle: WalkablePathPuzzle, answer: WalkablePathAnswer,
                         key: str | None = None) -> list[str]:  # fmt: skip
    """Re-verify a stored puzzle in full: :func:`check_answer`, both proofs again without a
    work limit (the optimum is the target; no other drops reach it), and, given ``key``,
    that it is the puzzle's key. Empty when sound."""
    problems = check_answer(puzzle, answer)
    best = solve_path(puzzle.path, method="search")
    if best.objective != puzzle.target:
        problems.append(f"the optimum is {best.objective}, not the target {puzzle.target}")
    verdict, _ = prove_unique(puzzle.path, list(answer.drops), puzzle.target)
    if verdict != "unique":
        problems.append("another drop sequence reaches the target")
    if key is not None and path_key(puzzle.path) != key:
        problems.append("its stored key is not its puzzle's key")
    return problems


# -- generating ----------------------------------------------------------------------------
def make_walkable_path_candidate(params: WalkablePathParams, seed: int, index: int
                                 ) -> Candidate:  # fmt: skip
    """Candidate ``index`` of a ``walkable-path`` run (deterministic: the same arguments
    give the same candidate in any process).

    Raises
    ------
    SolverError
        If an answer fails its rules check (a bug: it is never stored).
    KeyboardInterrupt
        When Ctrl-C or a command's deadline cut a proof short: the candidate has no outcome
        (it is tried again when the run resumes), so runs stay reproducible.
    """
    cand = Candidate(KIND, seed, index)
    rng = candidate_rng(seed, index, KIND)
    pieces = int(rng.integers(params.min_pieces, params.max_pieces + 1))
    game = int(rng.integers(1 << 62))
    try:
        path = PathPuzzle.from_seed(game, pieces=pieces, dead=params.dead,
                                    opponent_cells=params.opponent_cells,
                                    own_cells=params.own_cells)  # fmt: skip
    except PolytileError as exc:  # the boards filled up before the cells were placed
        cand.reason = f"no position: {exc}"
        return cand
    best = solve_path(path, method="search", node_limit=params.node_limit)
    if best.stopped_by == "interrupt":  # cut by the wall clock: not a verdict, never stored
        raise KeyboardInterrupt
    out_of_work = f"a proof needs more than {params.node_limit} search nodes"
    if not best.proven or best.objective is None:
        cand.reason = out_of_work
        return cand
    if any(d is None for d in best.drops):
        cand.reason = "the best answer passes (so dropping there is as good)"
        return cand
    drops = canonical_drops(path, best.drops)
    verdict, nodes = prove_unique(path, drops, best.objective, params.node_limit)
    if verdict == "several":
        cand.reason = "several drop sequences reach the optimum"
        return cand
    if verdict != "unique":
        cand.reason = out_of_work
        return cand
    regions = tuple(int(r) for r in replay(path, drops))
    greedy = _score_of(replay(path, greedy_drops(path)))
    puzzle = WalkablePathPuzzle(f"{KIND}-{seed}-{index}", path, best.objective)
    answer = WalkablePathAnswer(tuple(d for d in drops if d is not None), regions,
                                _score_of(regions), greedy)  # fmt: skip
    problems = check_answer(puzzle, answer)
    if problems:  # the solver's drops must pass the replay; a bug if not
        raise SolverError(f"generated walkable-path answer fails its check: {problems[0]}")
    cand.puzzle, cand.solution = puzzle, answer
    cand.key = path_key(path)
    total = int(best.stats.get("search_nodes", 0)) + nodes
    cand.difficulty = round(math.log2(1 + total), 2)
    cand.stats = {
        "nodes": int(best.stats.get("search_nodes", 0)),
        "unique_nodes": nodes,
        "pieces": pieces,
        "score": answer.score,
        "greedy": greedy,
        "greedy_short": answer.score - greedy,
    }
    return cand
