"""Gridblock solitaire puzzles: seeded solitaires with exactly one optimal plan, proven.

A candidate is the solitaire of a seeded game (:meth:`SoloPuzzle.from_seed
<polytile.puzzles.gridblock.solo.SoloPuzzle.from_seed>`: a shuffled layout, blue's set-up draw
and hands), cut to ``min_rounds`` to ``max_rounds`` rounds, in fixed or free card order. The
exact search (:func:`~polytile.puzzles.gridblock.solo_search.search_solo`) finds the best
plan and proves it optimal; a second search, which forbids exactly that plan, finds the
best of all the others and proves it: the puzzle is kept when that *runner-up* scores
strictly less (by ``min_margin`` or more). A plan is the start tile and, per turn, the card
and the end tile; plans that differ only in the corners their cubes take, or in the walks
to the same end tiles, are one plan (with one colour alone, the rules see neither).

The puzzle asks for the one plan that scores its optimum (which it states). Before a
puzzle is kept, both documents are written and read back, and the answer is replayed move
by move (walks included) through the rules engine, which must score it as stated.

Difficulty
----------
``log2`` of the nodes both searches visit (the optimum found and proven, then every other
plan proven to score less): as for the other kinds, each +1 doubles the work.

Documents
---------
The puzzle (``polytile/gridblock-solo-puzzle@1``) holds the layout, deck, set-up draw,
hands, card order and target score; the answer (``polytile/gridblock-solo-answer@1``) the
plan in move text, its score and parts, the runner-up's score and the margin.
``docs/formats.md`` describes both.

Examples
--------
About one candidate in 25 has a single optimal plan:

>>> params = GridblockSoloParams(order="fixed", min_rounds=1, max_rounds=2)
>>> c = next(c for c in (make_gridblock_solo_candidate(params, 0, i) for i in range(30))
...          if c.accepted)
>>> c.index, c.solution.margin, c.solution.score == c.puzzle.target
(10, 1, True)
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

from polytile.errors import FormatError, PolytileError, SolverError, UnknownNameError
from polytile.faces.puzzle import against_target
from polytile.puzzles.gridblock.grid import (
    SIDE,
    SYMBOLS,
    Card,
    card_name,
    parse_card,
    tile_name,
)
from polytile.puzzles.gridblock.model import ORDERS, SoloPlanValues
from polytile.puzzles.gridblock.moves import Move
from polytile.puzzles.gridblock.rules import ROUNDS, TURNS_PER_ROUND
from polytile.puzzles.gridblock.solo import (
    SoloPuzzle,
    SoloResult,
    SoloTurn,
    plan_moves,
    replay_solo,
    solo_picture,
)
from polytile.puzzles.gridblock.solo_search import search_solo
from polytile.store.candidates import Candidate, candidate_rng

__all__ = [
    "ANSWER_FORMAT",
    "KIND",
    "PUZZLE_FORMAT",
    "QUESTION_LEGEND",
    "GridblockSoloAnswer",
    "GridblockSoloParams",
    "GridblockSoloPuzzle",
    "answer_doc",
    "answer_text",
    "attempt_answer",
    "check_answer",
    "make_gridblock_solo_candidate",
    "parse_solo_answer",
    "parse_solo_puzzle",
    "puzzle_doc",
    "puzzle_summary",
    "question_text",
    "solo_key",
    "verify_gridblock_solo",
]

KIND = "gridblock-solo"
PUZZLE_FORMAT = "polytile/gridblock-solo-puzzle@1"
ANSWER_FORMAT = "polytile/gridblock-solo-answer@1"


@dataclass(frozen=True)
class GridblockSoloParams:
    """Parameters of the ``gridblock-solo`` kind.

    Parameters
    ----------
    order
        ``"fixed"`` (each round's cards in the dealt order) or ``"free"``.
    min_rounds, max_rounds
        Rounds of a puzzle (1..6, drawn uniformly), 3 turns each.
    min_margin
        Least number of points by which the one optimal plan beats every other plan.
    node_limit
        Nodes both searches of one candidate may visit in all; a candidate needing more is
        dropped (a node budget, not a time limit, keeps runs reproducible).
    """

    order: str = "free"
    min_rounds: int = 2
    max_rounds: int = 4
    min_margin: int = 1
    node_limit: int = 2_000_000

    def __post_init__(self) -> None:
        if self.order not in ORDERS:
            raise UnknownNameError("card order", self.order, ORDERS)
        if not 1 <= self.min_rounds <= self.max_rounds <= ROUNDS:
            raise PolytileError(f"rounds must satisfy 1 <= min ({self.min_rounds}) <= max "
                                f"({self.max_rounds}) <= {ROUNDS}")  # fmt: skip
        if self.min_margin < 1:
            raise PolytileError(f"min-margin must be at least 1 point, got {self.min_margin}")
        if self.node_limit < 1000:
            raise PolytileError("node-limit must be at least 1000")

    def to_dict(self) -> dict[str, Any]:
        """The parameters as plain JSON values."""
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class GridblockSoloPuzzle:
    """A Gridblock solitaire puzzle: the solitaire and the score its one best plan makes.

    Attributes
    ----------
    name
        ``gridblock-solo-SEED-INDEX`` for generated puzzles.
    solo
        The solitaire (layout, deck, set-up draw, hands, order).
    target
        The optimum: exactly one plan scores it.
    """

    name: str
    solo: SoloPuzzle
    target: int


@dataclass(frozen=True)
class GridblockSoloAnswer:
    """The one optimal plan of a :class:`GridblockSoloPuzzle`, and the figures that prove it.

    Attributes
    ----------
    start, start_corner
        The set-up: the mover's tile and the first cube's corner.
    turns
        One :class:`~polytile.puzzles.gridblock.solo.SoloTurn` per turn, walks included.
    score, cubes, pairs, triples
        The plan's points and their parts as the rules engine counts them.
    runner_up
        The best score of any other plan.
    margin
        ``score - runner_up`` (at least 1).
    """

    start: int
    start_corner: int
    turns: tuple[SoloTurn, ...]
    score: int
    cubes: int
    pairs: int
    triples: int
    runner_up: int
    margin: int

    @property
    def plan(self) -> SoloPlanValues:
        """The plan as the searches name it: start, cards, end tiles."""
        return SoloPlanValues(self.start, tuple(t.card for t in self.turns),
                              tuple(t.tile for t in self.turns))  # fmt: skip

    def moves(self) -> list[Move]:
        """The set-up and the turns as rules-engine moves (walks included)."""
        return [Move(None, self.start, self.start_corner)] + [
            Move(t.card, t.tile, t.corner, t.path or None) for t in self.turns
        ]


def _layout_rows(layout: tuple[int, ...]) -> list[str]:
    return ["".join(SYMBOLS[s] for s in layout[r * SIDE : (r + 1) * SIDE]) for r in range(SIDE)]


#: The legend line under the question's grid.
QUESTION_LEGEND = "tiles: their symbol A-F; a card (C3) is a symbol and the steps the mover walks"


def question_text(puzzle: GridblockSoloPuzzle) -> str:
    """The layout (tile names as coordinates, a legend line), the cards, and the question in
    words."""
    p = puzzle.solo
    lines = ["    " + " ".join("abcdef")]
    lines += [f"{r + 1:>2}  " + " ".join(row) for r, row in enumerate(_layout_rows(p.layout))]
    lines.append(QUESTION_LEGEND)
    how = "in the order dealt" if p.order == "fixed" else "in any order"
    lines.append(f"set-up: blue drew {SYMBOLS[p.setup_symbol]}; then {len(p.hands)} round(s), "
                 f"each hand played {how}:")  # fmt: skip
    for r, hand in enumerate(p.hands):
        lines.append(f"  round {r + 1}: {' '.join(card_name(c) for c in hand)}")
    lines.append(f"Blue alone: exactly one plan scores {puzzle.target} points (cubes plus tile "
                 "bonuses), every other scores less. Which?")  # fmt: skip
    return "\n".join(lines)


def puzzle_summary(puzzle: GridblockSoloPuzzle) -> dict[str, Any]:
    """A puzzle's list columns: the board, its 36 tiles (``cells``), the cards to play
    (``pieces``), ``given`` 0, the card order, rounds and target."""
    p = puzzle.solo
    return {"board": "6x6", "cells": SIDE * SIDE, "pieces": p.turns, "given": 0,
            "order": p.order, "rounds": len(p.hands), "target": puzzle.target}  # fmt: skip


def answer_result(puzzle: GridblockSoloPuzzle, answer: GridblockSoloAnswer) -> SoloResult:
    """The answer as a proven :class:`~polytile.puzzles.gridblock.solo.SoloResult` (for
    :func:`~polytile.puzzles.gridblock.solo.solo_picture`)."""
    return SoloResult(puzzle.solo, "optimal", answer.start, answer.start_corner, answer.turns,
                      answer.score, answer.cubes, answer.pairs, answer.triples, answer.score,
                      0.0)  # fmt: skip


def answer_text(puzzle: GridblockSoloPuzzle, answer: GridblockSoloAnswer) -> str:
    """The answer: the plan on the layout (cube counts per tile), turn by turn, and the
    figures (score, parts, runner-up, margin)."""
    bonus = answer.pairs + 2 * answer.triples
    return (solo_picture(answer_result(puzzle, answer))
            + f"answer: {answer.score} points = {answer.cubes} cubes + {bonus} bonus; the best "
            f"other plan scores {answer.runner_up} ({answer.margin} less)")  # fmt: skip


# -- keys ----------------------------------------------------------------------------------
def _form(p: SoloPuzzle, k: int) -> tuple[Any, ...]:
    """The solitaire under symmetry ``k`` (0..7) of the grid, symbols renamed in order of
    first appearance (layout row by row, then the set-up draw and the cards)."""
    moved = [0] * 36
    for t, s in enumerate(p.layout):
        r, c = divmod(t, SIDE)
        if k & 4:
            r, c = c, r
        if k & 1:
            r = SIDE - 1 - r
        if k & 2:
            c = SIDE - 1 - c
        moved[r * SIDE + c] = s
    names: dict[int, int] = {}
    for s in [*moved, p.setup_symbol, *(c[0] for h in p.hands for c in h)]:
        names.setdefault(s, len(names))
    hands = [tuple((names[s], v) for s, v in h) for h in p.hands]
    if p.order == "free":
        hands = [tuple(sorted(h)) for h in hands]
    return (p.order, tuple(names[s] for s in moved), names[p.setup_symbol], tuple(hands))


def solo_key(puzzle: SoloPuzzle) -> str:
    """A key equal for two solitaires exactly when one is the other turned or flipped, with
    the symbols renamed (the same puzzle: walks turn with the grid, and a symbol is only a
    name); in free order, the order cards were dealt in does not count either."""
    best = min(_form(puzzle, k) for k in range(8))
    return hashlib.sha256(repr((KIND, best)).encode()).hexdigest()[:32]


# -- documents ----------------------------------------------------------------------------
def puzzle_doc(puzzle: GridblockSoloPuzzle) -> dict[str, Any]:
    """The ``polytile/gridblock-solo-puzzle@1`` document (:func:`parse_solo_puzzle` reads
    it)."""
    p = puzzle.solo
    return {
        "format": PUZZLE_FORMAT,
        "name": puzzle.name,
        "order": p.order,
        "layout": _layout_rows(p.layout),
        "deck": [card_name(c) for c in p.deck],
        "setup": SYMBOLS[p.setup_symbol],
        "hands": [[card_name(c) for c in h] for h in p.hands],
        "target": puzzle.target,
    }


def answer_doc(puzzle: GridblockSoloPuzzle, answer: GridblockSoloAnswer) -> dict[str, Any]:
    """The ``polytile/gridblock-solo-answer@1`` document (:func:`parse_solo_answer` reads
    it): the moves in their text form, walks written out."""
    moves = answer.moves()
    turns = [f"{m} via {','.join(tile_name(x) for x in m.path)}" if m.path else str(m)
             for m in moves[1:]]  # fmt: skip
    return {
        "format": ANSWER_FORMAT,
        "puzzle": puzzle.name,
        "score": answer.score,
        "cubes": answer.cubes,
        "pairs": answer.pairs,
        "triples": answer.triples,
        "runner_up": answer.runner_up,
        "margin": answer.margin,
        "setup": str(moves[0]),
        "turns": turns,
    }


def _field(doc: dict[str, Any], name: str, kind: type, source: str) -> Any:
    value = doc.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise FormatError(f"'{name}' must be a {kind.__name__}", source, name)
    return value


def _cards(value: Any, source: str, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise FormatError("must be a list of cards like 'C3'", source, where)
    try:
        return tuple(parse_card(c) for c in value)
    except ValueError as exc:
        raise FormatError(str(exc), source, where) from exc


def parse_solo_puzzle(doc: Any, source: str = "<string>") -> GridblockSoloPuzzle:
    """A puzzle from its decoded document.

    Raises
    ------
    FormatError
        Naming the source and the field at fault (the rules engine checks that the layout,
        deck, set-up draw and hands fit together).
    """
    if not isinstance(doc, dict) or doc.get("format") != PUZZLE_FORMAT:
        raise FormatError(f"expected format {PUZZLE_FORMAT!r}", source, "format")
    order = _field(doc, "order", str, source)
    if order not in ORDERS:
        raise FormatError("'order' must be 'fixed' or 'free'", source, "order")
    rows = _field(doc, "layout", list, source)
    text = "".join(r.replace(" ", "") for r in rows if isinstance(r, str))
    if len(rows) != SIDE or len(text) != SIDE * SIDE or any(ch not in SYMBOLS for ch in text):
        raise FormatError("'layout' must be 6 rows of 6 symbols A-F", source, "layout")
    setup = _field(doc, "setup", str, source)
    if setup not in SYMBOLS or len(setup) != 1:
        raise FormatError("'setup' must be one symbol A-F", source, "setup")
    hands = _field(doc, "hands", list, source)
    target = _field(doc, "target", int, source)
    try:
        solo = SoloPuzzle(
            layout=tuple(SYMBOLS.index(ch) for ch in text),
            deck=_cards(doc.get("deck"), source, "deck"),
            setup_symbol=SYMBOLS.index(setup),
            hands=tuple(_cards(h, source, f"hands[{i}]") for i, h in enumerate(hands)),
            order=order,
        )
    except ValueError as exc:
        if isinstance(exc, FormatError):
            raise
        raise FormatError(str(exc), source, "hands") from exc
    return GridblockSoloPuzzle(str(doc.get("name", KIND)), solo, target)


def parse_solo_answer(doc: Any, puzzle: GridblockSoloPuzzle,
                      source: str = "<string>") -> GridblockSoloAnswer:  # fmt: skip
    """The answer to ``puzzle`` from its decoded document (the moves are read, not played:
    :func:`check_answer` plays them).

    Raises
    ------
    FormatError
        Naming the source and the field at fault.
    """
    tile, corner, turns = _read_plan(doc, source)
    n = [_field(doc, k, int, source) for k in ("score", "cubes", "pairs", "triples",
                                               "runner_up", "margin")]  # fmt: skip
    return GridblockSoloAnswer(tile, corner, turns, *n)


def _read_plan(doc: Any, source: str) -> tuple[int, int, tuple[SoloTurn, ...]]:
    """The set-up tile and corner and the turns of an answer document (read, not played)."""
    if not isinstance(doc, dict) or doc.get("format") != ANSWER_FORMAT:
        raise FormatError(f"expected format {ANSWER_FORMAT!r}", source, "format")
    words = _field(doc, "turns", list, source)
    try:
        setup = Move.parse(_field(doc, "setup", str, source))
        moves = [Move.parse(str(m)) for m in words]
    except ValueError as exc:
        raise FormatError(str(exc), source, "turns") from exc
    if setup.card is not None or setup.corner is None:
        raise FormatError("'setup' must be a set-up move like 'setup b3 NE'", source, "setup")
    if any(m.card is None for m in moves):
        raise FormatError("'turns' must be card moves like 'C3@d4 NE'", source, "turns")
    return setup.tile, setup.corner, tuple(SoloTurn(m.card, m.tile, m.corner, m.path or ())
                                           for m in moves if m.card is not None)  # fmt: skip


def attempt_answer(puzzle: GridblockSoloPuzzle, doc: Any,
                   source: str = "<string>") -> tuple[int | None, list[str], str]:  # fmt: skip
    """A person's plan (an answer document of which only ``setup`` and ``turns`` are needed,
    walks optional) replayed by the rules engine on ``puzzle``: its score (None when a move
    is illegal), every problem (an illegal move, a stated figure the rules count otherwise,
    a score below the target) and the plan drawn.

    Raises
    ------
    FormatError
        When the document cannot be read as a plan.
    """
    tile, corner, turns = _read_plan(doc, source)
    try:
        counted = replay_solo(puzzle.solo, tile, corner, turns)
    except SolverError as exc:
        return None, [str(exc)], ""
    problems = [f"it states {name} {doc[name]!r}; the rules engine counts {value}"
                for name, value in zip(("score", "cubes", "pairs", "triples"), counted,
                                       strict=True)
                if name in doc and doc[name] != value]  # fmt: skip
    score, cubes, pairs, triples = counted
    problems += against_target(f"the plan scores {score}", score, puzzle.target, "plan")
    drawn = SoloResult(puzzle.solo, "feasible", tile, corner, turns, score, cubes, pairs,
                       triples, puzzle.target, 0.0)  # fmt: skip
    return score, problems, solo_picture(drawn)


# -- checking -------------------------------------------------------------------------------
def check_answer(puzzle: GridblockSoloPuzzle, answer: GridblockSoloAnswer) -> list[str]:
    """Every problem with an answer that the rules engine finds, without searching: both
    documents read back as they were, the plan replayed move by move (walks included) on the
    puzzle read back scores the stated points and parts, which are the puzzle's target, and
    the margin is the score less the runner-up's. Empty when sound."""
    problems: list[str] = []
    back = parse_solo_puzzle(json.loads(json.dumps(puzzle_doc(puzzle))))
    if back != puzzle:
        problems.append("the puzzle does not read back from its document")
    again = parse_solo_answer(json.loads(json.dumps(answer_doc(puzzle, answer))), back)
    if again != answer or [t.path for t in again.turns] != [t.path for t in answer.turns]:
        problems.append("the answer does not read back from its document")
    try:
        counted = replay_solo(back.solo, answer.start, answer.start_corner, answer.turns)
    except SolverError as exc:
        return [*problems, str(exc)]
    stated = (answer.score, answer.cubes, answer.pairs, answer.triples)
    if counted != stated:
        problems.append(f"the rules engine scores the plan {counted[0]} ({counted[1]} cubes, "
                        f"{counted[2]} pairs, {counted[3]} triples), not as stated "
                        f"{stated}")  # fmt: skip
    if answer.score != puzzle.target:
        problems.append(f"the plan scores {answer.score}, the puzzle's target is {puzzle.target}")
    if answer.margin != answer.score - answer.runner_up or answer.margin < 1:
        problems.append("the margin is not the score's lead over the runner-up")
    if any(not t.path for t in answer.turns):
        problems.append("a turn has no walk written out")
    return problems


def verify_gridblock_solo(puzzle: GridblockSoloPuzzle, answer: GridblockSoloAnswer,
                          key: str | None = None) -> list[str]:  # fmt: skip
    """Re-verify a stored puzzle in full: :func:`check_answer`, then both searches again (the
    optimum is the target, and the best other plan scores the stated runner-up), and, given
    ``key``, that it is the puzzle's key. Empty when sound."""
    problems = check_answer(puzzle, answer)
    best = search_solo(puzzle.solo)
    if best.score != puzzle.target:
        problems.append(f"the optimum is {best.score}, not the target {puzzle.target}")
    other = search_solo(puzzle.solo, exclude=answer.plan)
    if other.score != answer.runner_up:
        problems.append(f"the best other plan scores {other.score}, not {answer.runner_up}")
    if key is not None and solo_key(puzzle.solo) != key:
        problems.append("its stored key is not its puzzle's key")
    return problems


# -- generating ----------------------------------------------------------------------------
def make_gridblock_solo_candidate(params: GridblockSoloParams, seed: int, index: int
                                  ) -> Candidate:  # fmt: skip
    """Candidate ``index`` of a ``gridblock-solo`` run (deterministic: the same arguments
    give the same candidate in any process).

    Raises
    ------
    SolverError
        If an answer fails its rules check (a bug: it is never stored).
    """
    cand = Candidate(KIND, seed, index)
    rng = candidate_rng(seed, index, KIND)
    rounds = int(rng.integers(params.min_rounds, params.max_rounds + 1))
    game = int(rng.integers(1 << 62))
    solo = dataclasses.replace(SoloPuzzle.from_seed(game, params.order, rounds), seed=None)
    best = search_solo(solo, node_limit=params.node_limit)
    if best.status != "optimal" or best.plan is None:
        cand.reason = f"not solved within {params.node_limit:,} nodes"
        return cand
    # The runner-up: the best plan but that one, below the optimum proven above.
    other = search_solo(solo, node_limit=max(1, params.node_limit - best.nodes),
                        exclude=best.plan, ceiling=best.score)  # fmt: skip
    if other.score >= best.score:
        cand.reason = "several plans score the optimum"
        return cand
    if other.status != "optimal":
        cand.reason = f"not solved within {params.node_limit:,} nodes"
        return cand
    margin = best.score - other.score
    if margin < params.min_margin:
        cand.reason = f"the best plan beats the next by less than {params.min_margin}"
        return cand
    start_corner, turns = plan_moves(solo, best.plan)
    score, cubes, pairs, triples = replay_solo(solo, best.plan.start, start_corner, turns)
    puzzle = GridblockSoloPuzzle(f"{KIND}-{seed}-{index}", solo, score)
    answer = GridblockSoloAnswer(best.plan.start, start_corner, tuple(turns), score, cubes,
                                 pairs, triples, other.score, margin)  # fmt: skip
    problems = check_answer(puzzle, answer)
    if problems or score != best.score:  # the search's plan must pass the replay; a bug if not
        raise SolverError(f"generated gridblock-solo answer fails its check: "
                          f"{(problems or ['the search miscounted'])[0]}")  # fmt: skip
    cand.puzzle, cand.solution = puzzle, answer
    cand.key = solo_key(solo)
    cand.difficulty = round(math.log2(max(best.nodes + other.nodes, 1)), 2)
    cand.stats = {
        "nodes": int(best.nodes),
        "runner_up_nodes": int(other.nodes),
        "rounds": rounds,
        "turns": rounds * TURNS_PER_ROUND,
        "score": score,
        "margin": margin,
        "cubes": cubes,
        "bonus": pairs + 2 * triples,
    }
    return cand
