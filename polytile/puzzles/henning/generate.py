"""City Blocks (Henning) puzzles: late positions where exactly one move is best, proven exactly.

A candidate is a seeded self-played game (random players, who redevelop often enough to
leave blocks empty) taken back to a position where both reserves are empty, so that every
tile is known and the rest is a perfect-information game (``seeds/cityblocks-henning.md``,
7.2), with ``min_empty`` to ``max_empty`` empty blocks and more than one legal move. The
endgame solver (:func:`~polytile.puzzles.henning.endgame.solve_endgame`) then finds every
optimal move; a position with exactly one is solved again move by move (push the move, solve
the rest exactly, pop) so that the runner-up's exact value is known too. It is kept as

``only-win``
    when the answer wins (the final margin is in the mover's favour) and every other move
    draws or loses;
``best-by-N``
    otherwise: the answer gives the mover $N more than any other move (N >= ``min_gap``).

Before a puzzle is kept, its position is written as a ``polytile/henning@1`` position
document and read back, the answer is pushed on that copy by the rules engine (which checks
it is legal), the rest is solved again, and the principal variation is replayed to the end,
whose margin must be the stated value.

Difficulty
----------
``log2(nodes)`` of the exact search that finds the answer and proves every other move worse
(the root search, all optimal moves asked for): as for tiling puzzles, each +1 doubles the
work. The per-move searches that measure the runner-up are recorded as ``move_nodes``.

Documents
---------
The puzzle (``polytile/henning-puzzle@1``) holds the position and the question; the answer
(``polytile/henning-answer@1``) holds the answer move, its value, the runner-up's value, the
gap and a principal variation. ``docs/formats.md`` describes both.

Examples
--------
>>> from polytile.puzzles.henning.generate import HenningParams, make_henning_candidate
>>> tried = (make_henning_candidate(HenningParams(max_empty=2), 0, i) for i in range(30))
>>> c = next(c for c in tried if c.accepted)
>>> c.puzzle.question in ("only-win", f"best-by-{c.solution.gap}"), c.solution.gap >= 1
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
from typing import Any

from polytile.errors import (
    FormatError,
    IllegalMoveError,
    PolytileError,
    SolverError,
    UnknownNameError,
)
from polytile.puzzles.henning.endgame import LEAD, EndgameStopped, solve_endgame
from polytile.puzzles.henning.files import dumps_position, read_henning
from polytile.puzzles.henning.moves import Move
from polytile.puzzles.henning.players import self_play
from polytile.puzzles.henning.rules import Henning
from polytile.puzzles.henning.tiles import KINDS, PLAYER_NAMES
from polytile.store.candidates import Candidate, candidate_rng

__all__ = [
    "ANSWER_FORMAT",
    "KIND",
    "PUZZLE_FORMAT",
    "QUESTIONS",
    "HenningAnswer",
    "HenningParams",
    "HenningPuzzle",
    "answer_doc",
    "answer_text",
    "check_answer",
    "make_henning_candidate",
    "move_values",
    "parse_answer",
    "parse_henning_puzzle",
    "position_key",
    "puzzle_doc",
    "puzzle_summary",
    "question_text",
    "verify_henning",
]

KIND = "henning"
PUZZLE_FORMAT = "polytile/henning-puzzle@1"
ANSWER_FORMAT = "polytile/henning-answer@1"
#: Which questions a run keeps: either, or only one of the two.
QUESTIONS = ("any", "only-win", "best-by")


@dataclass(frozen=True)
class HenningParams:
    """Parameters of the ``henning`` kind.

    Parameters
    ----------
    min_empty, max_empty
        Empty blocks in the puzzle position (both reserves are empty there).
    min_gap
        Least margin, in dollars, by which the answer must beat every other move.
    question
        ``"any"``, ``"only-win"`` or ``"best-by"``: which puzzles to keep.
    node_limit
        Positions the exact searches of one candidate may visit in all; a candidate needing
        more is dropped (a node budget, not a time limit, keeps runs reproducible).
    """

    min_empty: int = 2
    max_empty: int = 4
    min_gap: int = 1
    question: str = "any"
    node_limit: int = 500_000

    def __post_init__(self) -> None:
        if not 1 <= self.min_empty <= self.max_empty <= 8:
            raise PolytileError(
                f"empty blocks must satisfy 1 <= min ({self.min_empty}) <= max "
                f"({self.max_empty}) <= 8"
            )
        if self.min_gap < 1:
            raise PolytileError(f"min-gap must be at least $1, got {self.min_gap}")
        if self.question not in QUESTIONS:
            raise UnknownNameError("henning question", self.question, QUESTIONS)
        if self.node_limit < 1000:
            raise PolytileError("node-limit must be at least 1000")

    def to_dict(self) -> dict[str, Any]:
        """The parameters as plain JSON values."""
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class HenningPuzzle:
    """A City Blocks (Henning) puzzle: a position with everything known, and its question.

    Attributes
    ----------
    name
        ``henning-SEED-INDEX`` for generated puzzles.
    position
        The position (both reserves empty); not changed by anything here (copy it to play).
    question
        ``"only-win"`` or ``"best-by-N"``.
    """

    name: str
    position: Henning
    question: str

    @property
    def to_move(self) -> int:
        """The player to move (0 blue, 1 red)."""
        return self.position.to_move


@dataclass(frozen=True)
class HenningAnswer:
    """The answer to a :class:`HenningPuzzle`, with the figures that prove it.

    Attributes
    ----------
    move
        The one move that wins (``only-win``) or is best (``best-by-N``).
    value
        Blue's final money minus red's after :attr:`move`, both then playing perfectly.
    runner_up
        The same for the best of the other moves.
    gap
        How many dollars more the answer gives the mover than the runner-up (at least 1).
    line
        A principal variation from the puzzle position to the end, starting with
        :attr:`move`.
    """

    move: Move
    value: int
    runner_up: int
    gap: int
    line: tuple[Move, ...]


def question_text(puzzle: HenningPuzzle) -> str:
    """Both hands (every tile is known) and the question in words, e.g. ``Blue to move:
    exactly one move wins (every other draws or loses). Which?``."""
    g = puzzle.position
    hands = ", ".join(f"{n} {' '.join(KINDS[k] for k in g.hand(p)) or '(none)'}"
                      for p, n in enumerate(PLAYER_NAMES))  # fmt: skip
    who = PLAYER_NAMES[puzzle.to_move].capitalize()
    if puzzle.question == "only-win":
        ask = "exactly one move wins (every other draws or loses)"
    else:
        ask = f"one move beats every other by at least ${puzzle.question.removeprefix('best-by-')}"
    return f"hands: {hands} (reserves empty)\n{who} to move: {ask}. Which?"


def puzzle_summary(puzzle: HenningPuzzle) -> dict[str, Any]:
    """A puzzle's list columns: the board, its empty blocks (``cells``), the tiles in both
    hands (``pieces``), ``given`` 0, the question and the player to move."""
    g = puzzle.position
    return {"board": "5x6", "cells": g.empty, "pieces": len(g.hand(0)) + len(g.hand(1)),
            "given": 0, "question": puzzle.question,
            "to_move": PLAYER_NAMES[g.to_move]}  # fmt: skip


def answer_text(puzzle: HenningPuzzle, answer: HenningAnswer) -> str:
    """The answer in words: the move, the final margins it and the runner-up lead to, and a
    principal variation."""

    def margin(value: int) -> str:
        if value == 0:
            return "a draw"
        return f"{PLAYER_NAMES[0 if value > 0 else 1]} ${abs(value)} ahead"

    line = ", ".join(map(str, answer.line))
    return (f"answer: {answer.move}: best play then ends with {margin(answer.value)} (value "
            f"{answer.value:+d}, {LEAD}); the best "
            f"other move ends with {margin(answer.runner_up)} (${answer.gap} worse for "
            f"{PLAYER_NAMES[puzzle.to_move]})\nline: {line}")  # fmt: skip


# -- values of the moves -----------------------------------------------------------------
def _solve(game: Henning, budget: list[int]) -> Any:
    """Solve exactly within what is left of the node budget (``budget[0]``, spent here)."""
    try:
        found = solve_endgame(game, time_limit=None, node_limit=max(budget[0], 1))
    except EndgameStopped as stop:
        if stop.reason == "interrupt":
            raise KeyboardInterrupt from None  # Ctrl-C: the build stops, what is stored stays
        raise
    budget[0] -= found.nodes
    return found


def move_values(game: Henning, node_limit: int | None = None) -> dict[Move, int]:
    """The exact value (blue's final money minus red's) after each legal move.

    Each move is pushed, the rest solved by :func:`solve_endgame`, and the move popped.

    Parameters
    ----------
    game
        A position with both reserves empty (left as it was).
    node_limit
        Positions the searches may visit in all.

    Raises
    ------
    EndgameStopped
        If the searches need more than ``node_limit`` positions.
    HiddenTilesError
        If a reserve is not empty.
    """
    return _values(game, [node_limit if node_limit is not None else 1 << 62])


def _values(game: Henning, budget: list[int]) -> dict[Move, int]:
    work = game.copy()
    out: dict[Move, int] = {}
    for move in work.legal_moves():
        work.push(move)
        try:
            out[move] = _solve(work, budget).value
        finally:
            work.pop()
    return out


# -- keys ----------------------------------------------------------------------------------
def _form(g: Henning, flip_rows: bool, flip_cols: bool, swap: bool) -> tuple[Any, ...]:
    """The position mirrored (rows and/or columns) and with colours swapped, as a tuple."""

    def colour(p: int) -> int:
        return 1 - p if swap and p in (0, 1) else p

    def street(s: int) -> int:
        if s < 5:
            return 4 - s if flip_rows else s
        return 5 + (5 - (s - 5) if flip_cols else s - 5)

    owner, kind = [-1] * 30, [-1] * 30
    for b in range(30):
        r, c = divmod(b, 6)
        to = (4 - r if flip_rows else r) * 6 + (5 - c if flip_cols else c)
        owner[to], kind[to] = colour(g.owner[b]) if g.owner[b] >= 0 else -1, g.kind[b]
    tokens, awards = [0] * 11, [0] * 11
    for s in range(11):
        tokens[street(s)], awards[street(s)] = g.tokens[s], colour(g.award(s))
    seats = (1, 0) if swap else (0, 1)
    return (tuple(owner), tuple(kind), tuple(tokens), tuple(awards),
            tuple(tuple(g.money[p]) for p in seats), tuple(g.hand(p) for p in seats),
            tuple(g.reserve(p) for p in seats), colour(g.to_move))  # fmt: skip


def position_key(game: Henning) -> str:
    """A key equal for two positions exactly when one is the other mirrored (top-bottom,
    left-right or both) and/or with the two players' colours swapped: the same puzzle.

    Only what the rest of the game depends on counts (tiles removed or tokens paid do not).
    """
    flips = (False, True)
    best = min(_form(game, fr, fc, sw) for fr in flips for fc in flips for sw in flips)
    return hashlib.sha256(repr((KIND, best)).encode()).hexdigest()[:32]


# -- documents ----------------------------------------------------------------------------
def puzzle_doc(puzzle: HenningPuzzle) -> dict[str, Any]:
    """The ``polytile/henning-puzzle@1`` document (:func:`parse_henning_puzzle` reads it)."""
    return {
        "format": PUZZLE_FORMAT,
        "name": puzzle.name,
        "question": puzzle.question,
        "position": json.loads(dumps_position(puzzle.position)),
    }


def answer_doc(puzzle: HenningPuzzle, answer: HenningAnswer) -> dict[str, Any]:
    """The ``polytile/henning-answer@1`` document (:func:`parse_answer` reads it)."""
    return {
        "format": ANSWER_FORMAT,
        "puzzle": puzzle.name,
        "question": puzzle.question,
        "answer": str(answer.move),
        "value": answer.value,
        "runner_up": answer.runner_up,
        "gap": answer.gap,
        "line": [str(m) for m in answer.line],
    }


def _field(doc: dict[str, Any], name: str, kind: type, source: str) -> Any:
    value = doc.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise FormatError(f"'{name}' must be a {kind.__name__}", source, name)
    return value


def _question(doc: dict[str, Any], source: str) -> str:
    question = _field(doc, "question", str, source)
    gap = question.removeprefix("best-by-")
    if question != "only-win" and not (gap != question and gap.isdigit() and int(gap) >= 1):
        raise FormatError("'question' must be 'only-win' or 'best-by-N' (N >= 1)", source,
                          "question")  # fmt: skip
    return str(question)


def parse_henning_puzzle(doc: Any, source: str = "<string>") -> HenningPuzzle:
    """A puzzle from its decoded document.

    Raises
    ------
    FormatError
        Naming the source and the field at fault (the position is read by
        :func:`~polytile.puzzles.henning.files.read_henning`, with all its checks).
    """
    if not isinstance(doc, dict) or doc.get("format") != PUZZLE_FORMAT:
        raise FormatError(f"expected format {PUZZLE_FORMAT!r}", source, "format")
    position = _field(doc, "position", dict, source)
    if position.get("kind") != "position":
        raise FormatError("'position' must be a full henning@1 position", source, "position")
    state = read_henning(json.dumps(position), f"{source}: position").state
    if state.reserve_size(0) or state.reserve_size(1):
        raise FormatError("a puzzle's reserves must be empty", source, "position.reserves")
    name = str(doc.get("name", "henning"))
    return HenningPuzzle(name, state, _question(doc, source))


def parse_answer(doc: Any, puzzle: HenningPuzzle, source: str = "<string>") -> HenningAnswer:
    """The answer to ``puzzle`` from its decoded document (moves are read, not checked:
    :func:`check_answer` checks them).

    Raises
    ------
    FormatError
        Naming the source and the field at fault.
    """
    if not isinstance(doc, dict) or doc.get("format") != ANSWER_FORMAT:
        raise FormatError(f"expected format {ANSWER_FORMAT!r}", source, "format")
    line = _field(doc, "line", list, source)
    try:
        move = Move.parse(_field(doc, "answer", str, source))
        moves = tuple(Move.parse(str(m)) for m in line)
    except ValueError as exc:
        raise FormatError(str(exc), source, "answer") from exc
    values = [_field(doc, k, int, source) for k in ("value", "runner_up", "gap")]
    return HenningAnswer(move, values[0], values[1], values[2], moves)


# -- checking -------------------------------------------------------------------------------
def check_answer(
    puzzle: HenningPuzzle, answer: HenningAnswer, node_limit: int | None = None
) -> list[str]:
    """Every problem with an answer, found by the rules engine: the answer is legal on the
    position read back from its document, the rest solved exactly from there is worth
    :attr:`HenningAnswer.value`, and the line, replayed, starts with the answer and ends the
    game at that value. The runner-up is not searched (:func:`verify_henning` does that).

    Raises
    ------
    EndgameStopped
        If the search needs more than ``node_limit`` positions.
    """
    problems: list[str] = []
    game = parse_henning_puzzle(json.loads(json.dumps(puzzle_doc(puzzle)))).position
    if game.state_key() != puzzle.position.state_key():
        problems.append("the position does not read back from its document")
    try:
        game.push(answer.move)
    except IllegalMoveError as exc:
        return [*problems, f"the answer is illegal: {exc}"]
    found = solve_endgame(game, time_limit=None, node_limit=node_limit)
    if found.value != answer.value:
        problems.append(f"after the answer, best play ends at {found.value:+d}, not at the "
                        f"stated {answer.value:+d}")  # fmt: skip
    game.pop()
    if not answer.line or answer.line[0] != answer.move:
        problems.append("the line does not start with the answer")
    for i, move in enumerate(answer.line):
        try:
            game.push(move)
        except IllegalMoveError as exc:
            return [*problems, f"line move {i + 1} is illegal: {exc}"]
    if not game.is_over() or game.margin() != answer.value:
        problems.append(f"the line ends at {game.margin():+d} (game over: {game.is_over()}), "
                        f"not at the stated {answer.value:+d}")  # fmt: skip
    sign = 1 if puzzle.to_move == 0 else -1
    if sign * (answer.value - answer.runner_up) != answer.gap or answer.gap < 1:
        problems.append("the gap is not the answer's lead over the runner-up")
    return problems


def _classify(mover_best: int, mover_runner_up: int) -> str:
    if mover_best > 0 >= mover_runner_up:
        return "only-win"
    return f"best-by-{mover_best - mover_runner_up}"


def verify_henning(
    puzzle: HenningPuzzle, answer: HenningAnswer, key: str | None = None
) -> list[str]:
    """Re-verify a stored puzzle in full: :func:`check_answer`, then every legal move's exact
    value, which must make the answer the only best move with the stated runner-up and
    question; and, given ``key``, that it is the position's key. Empty when sound."""
    problems = check_answer(puzzle, answer)
    values = move_values(puzzle.position)
    sign = 1 if puzzle.to_move == 0 else -1
    best = max(sign * v for v in values.values())
    top = [m for m, v in values.items() if sign * v == best]
    if top != [answer.move]:
        problems.append(f"the best moves are {', '.join(map(str, top))}, not {answer.move}")
    elif len(values) < 2:
        problems.append("the position has one legal move only")
    else:
        runner = max(sign * v for m, v in values.items() if m != answer.move)
        if runner != sign * answer.runner_up:
            problems.append(f"the runner-up is worth {sign * runner:+d}, not "
                            f"{answer.runner_up:+d}")  # fmt: skip
        elif _classify(best, runner) != puzzle.question:
            problems.append(f"the question should be {_classify(best, runner)!r}")
    if key is not None and position_key(puzzle.position) != key:
        problems.append("its stored key is not its position's key")
    return problems


# -- generating ----------------------------------------------------------------------------
def _late_position(params: HenningParams, seed: int, index: int) -> Henning | None:
    """A position of a seeded random self-played game with both reserves empty, the empty
    blocks in range and a choice of moves, read back from its document (no move stack)."""
    rng = candidate_rng(seed, index, KIND)
    game = Henning.new(int(rng.integers(1 << 62)))
    made = self_play(game, ("random", "random"), seed=int(rng.integers(1 << 62)))
    while game.move_stack:
        game.pop()
    fits: list[int] = []
    for i, move in enumerate(made):
        game.push(move)
        if (game.reserve_size(0) == 0 == game.reserve_size(1) and not game.is_over()
                and params.min_empty <= game.empty <= params.max_empty
                and game.count_legal_moves() > 1):  # fmt: skip
            fits.append(i + 1)
    if not fits:
        return None
    stop = fits[int(rng.integers(len(fits)))]
    while len(game.move_stack) > stop:
        game.pop()
    back = read_henning(dumps_position(game), f"candidate {index}").state
    if back.state_key() != game.state_key():
        raise SolverError("a position does not read back from its henning@1 document")
    return back


def make_henning_candidate(params: HenningParams, seed: int, index: int) -> Candidate:
    """Candidate ``index`` of a ``henning`` run (deterministic: the same arguments give the
    same candidate in any process).

    Parameters
    ----------
    params, seed, index
        What to make.

    Raises
    ------
    SolverError
        If an answer fails its rules check (a bug: it is never stored).
    KeyboardInterrupt
        On Ctrl-C during a search.
    """
    cand = Candidate(KIND, seed, index)
    game = _late_position(params, seed, index)
    if game is None:
        cand.reason = (f"the game never had both reserves empty with {params.min_empty}-"
                       f"{params.max_empty} empty blocks and a choice of moves")  # fmt: skip
        return cand
    budget = [params.node_limit]
    try:
        root = _solve(game, budget)
        if len(root.best_moves) != 1:
            cand.reason = "several moves are best"
            return cand
        answer = root.best_moves[0]
        others = _values(game, budget)
    except EndgameStopped:
        cand.reason = f"not solved within {params.node_limit:,} positions"
        return cand
    sign = 1 if game.to_move == 0 else -1
    if others[answer] != root.value:
        raise SolverError(f"the answer {answer} is worth {others[answer]} moved alone, "
                          f"{root.value} in the root search")  # fmt: skip
    runner = max(sign * v for m, v in others.items() if m != answer)
    gap = sign * root.value - runner
    question = _classify(sign * root.value, runner)
    if gap < 1:
        raise SolverError(f"the only best move {answer} does not beat the runner-up")
    if gap < params.min_gap:
        cand.reason = f"the best move beats the next by less than ${params.min_gap}"
        return cand
    if params.question != "any" and not question.startswith(params.question):
        cand.reason = f"not a {params.question} puzzle"
        return cand
    puzzle = HenningPuzzle(f"{KIND}-{seed}-{index}", game, question)
    solved = HenningAnswer(answer, root.value, sign * runner, gap, tuple(root.pv))
    problems = check_answer(puzzle, solved)
    if problems:  # the solver's answer must pass the rules engine's replay; a bug if not
        raise SolverError(f"generated henning answer fails its check: {problems[0]}")
    cand.puzzle, cand.solution = puzzle, solved
    cand.key = position_key(game)
    cand.difficulty = round(math.log2(max(root.nodes, 1)), 2)
    cand.stats = {
        "nodes": int(root.nodes),
        "move_nodes": int(params.node_limit - budget[0] - root.nodes),
        "moves": len(others),
        "empty": game.empty,
        "tiles_in_hand": len(game.hand(0)) + len(game.hand(1)),
    }
    return cand
