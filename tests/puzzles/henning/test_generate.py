"""City Blocks (Henning) puzzles: each answer checked by an independent brute force, keys that
refuse mirrored and colour-swapped copies, documents, and sets built into a store."""

from __future__ import annotations

import dataclasses
import json
import math
from typing import Any

import pytest

from polytile.errors import FormatError, PolytileError, UnknownNameError
from polytile.puzzles.henning.files import read_henning
from polytile.puzzles.henning.generate import (
    ANSWER_FORMAT,
    HenningAnswer,
    HenningParams,
    HenningPuzzle,
    answer_doc,
    check_answer,
    make_henning_candidate,
    parse_answer,
    parse_henning_puzzle,
    position_key,
    puzzle_doc,
    verify_henning,
)
from polytile.puzzles.henning.rules import Henning
from polytile.store.candidates import Candidate
from polytile.store.db import PuzzleStore
from polytile.store.sets import build_set, verify_store

SMALL = HenningParams(min_empty=2, max_empty=2)


class _TooBig(Exception):
    pass


def brute_value(g: Henning, memo: dict[Any, tuple[float, float]], cap: int = 10_000) -> int:
    """Blue's final margin by plain alpha-beta over the rules engine: every legal move in the
    engine's order, no bounds, no move ordering, no search key; a memo of (lower, upper)
    bounds on full state keys. Raises _TooBig past ``cap`` memo entries."""

    def search(alpha: float, beta: float) -> float:
        if g.is_over():
            return g.margin()
        key = g.state_key()
        lo, hi = memo.get(key, (-math.inf, math.inf))
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        a0, b0 = max(alpha, lo), min(beta, hi)
        a, b = a0, b0
        blue = g.to_move == 0
        best = -math.inf if blue else math.inf
        for m in g.legal_moves():
            g.push(m)
            v = search(a, b)
            g.pop()
            best = max(best, v) if blue else min(best, v)
            a, b = (max(a, v), b) if blue else (a, min(b, v))
            if a >= b:
                break
        memo[key] = (lo, best) if best <= a0 else (best, hi) if best >= b0 else (best, best)
        if len(memo) > cap:
            raise _TooBig
        return best

    return int(search(-math.inf, math.inf))


def _puzzles(params: HenningParams, want: int, seed: int = 0) -> list[Candidate]:
    found = []
    for i in range(200):
        c = make_henning_candidate(params, seed, i)
        if c.accepted:
            found.append(c)
            if len(found) == want:
                return found
    raise AssertionError(f"fewer than {want} puzzles in 200 candidates")


@pytest.fixture(scope="module")
def small() -> list[Candidate]:
    return _puzzles(SMALL, 6)


def test_each_answer_is_the_only_best_move_by_brute_force(small: list[Candidate]) -> None:
    checked, kinds = 0, set()
    for c in small:
        puzzle, answer = c.puzzle, c.solution
        assert isinstance(puzzle, HenningPuzzle) and isinstance(answer, HenningAnswer)
        g = puzzle.position.copy()
        memo: dict[Any, tuple[float, float]] = {}
        values = {}
        try:
            for m in g.legal_moves():
                g.push(m)
                values[m] = brute_value(g, memo)
                g.pop()
        except _TooBig:
            continue
        sign = 1 if g.to_move == 0 else -1
        ranked = sorted(values, key=lambda m: -sign * values[m])
        assert ranked[0] == answer.move and values[ranked[0]] == answer.value
        assert values[ranked[1]] == answer.runner_up  # the runner-up's exact value
        assert sign * (answer.value - answer.runner_up) == answer.gap >= 1
        mover = [sign * v for v in values.values()]
        if puzzle.question == "only-win":  # one win, every other move draws or loses
            assert sum(v > 0 for v in mover) == 1
        else:
            assert puzzle.question == f"best-by-{answer.gap}"
            assert sorted(mover, reverse=True)[1] < sorted(mover, reverse=True)[0]
            assert not (mover.count(max(mover)) == 1 and max(mover) > 0 >= sorted(mover)[-2])
        assert c.stats["nodes"] > 0 and c.difficulty == round(math.log2(c.stats["nodes"]), 2)
        kinds.add(puzzle.question.partition("-by-")[0])
        checked += 1
    assert checked >= 4 and kinds == {"only-win", "best"}, "both questions, brute-forced"


def test_candidates_are_reproducible_and_keep_the_rules(small: list[Candidate]) -> None:
    c = small[0]
    again = make_henning_candidate(SMALL, c.seed, c.index)
    assert again.key == c.key and again.solution == c.solution
    g = c.puzzle.position
    assert g.reserve_size(0) == 0 == g.reserve_size(1) and g.empty == 2 and not g.is_over()
    assert verify_henning(c.puzzle, c.solution, c.key) == []


def test_wrong_answers_are_caught(small: list[Candidate]) -> None:
    c = small[0]
    answer: HenningAnswer = c.solution  # type: ignore[assignment]
    off = dataclasses.replace(answer, value=answer.value + 1)
    assert any("not at the stated" in p for p in check_answer(c.puzzle, off))
    other = next(m for m in c.puzzle.position.legal_moves() if m != answer.move)
    wrong = dataclasses.replace(answer, move=other)
    assert verify_henning(c.puzzle, wrong)
    assert any("key" in p for p in verify_henning(c.puzzle, answer, key="x"))


def _transformed(doc: dict[str, Any], rows: bool, cols: bool, swap: bool) -> dict[str, Any]:
    """A position document mirrored and/or with the colours swapped."""

    def street(name: str) -> str:
        if name.isdigit():
            return str(6 - int(name)) if rows else name
        return "abcdef"[5 - "abcdef".index(name)] if cols else name

    def colour(text: str) -> str:
        swapped = {"B": "R", "R": "B", "blue": "red", "red": "blue"}
        return swapped.get(text, text) if swap else text

    def block(text: str) -> str:
        letter, sep, tile = text.partition(":")
        return colour(letter) + sep + tile if sep else text

    city = [row.split() for row in doc["city"]]
    city = city[::-1] if rows else city
    city = [r[::-1] if cols else r for r in city]
    seat = {colour(k): v for k, v in doc["hands"].items()}
    return {
        **doc,
        "streets": {street(k): v for k, v in doc["streets"].items()},
        "awards": {street(k): colour(v) for k, v in doc["awards"].items()},
        "city": [" ".join(block(b) for b in row) for row in city],
        "money": {colour(k): v for k, v in doc["money"].items()},
        "removed": [block(b) for b in doc["removed"]],
        "to_move": colour(doc["to_move"]),
        "hands": seat,
        "reserves": {colour(k): v for k, v in doc["reserves"].items()},
    }


@pytest.mark.parametrize("rows, cols, swap", [(1, 0, 0), (0, 1, 0), (1, 1, 1), (0, 0, 1)])
def test_mirrors_and_colour_swaps_share_a_key(
    small: list[Candidate], rows: bool, cols: bool, swap: bool
) -> None:
    c = small[1]
    doc = puzzle_doc(c.puzzle)["position"]
    other = read_henning(json.dumps(_transformed(doc, rows, cols, swap))).state
    assert other.state_key() != c.puzzle.position.state_key()
    assert position_key(other) == c.key
    assert position_key(small[2].puzzle.position) != c.key


def test_the_store_refuses_duplicates(small: list[Candidate]) -> None:
    c = small[1]
    doc = _transformed(puzzle_doc(c.puzzle)["position"], True, False, True)
    mirrored = read_henning(json.dumps(doc)).state
    twin = Candidate("henning", 0, c.index + 1, c.puzzle, c.solution, position_key(mirrored))
    with PuzzleStore(":memory:") as db:
        job = db.job("henning", SMALL.to_dict(), 0, 5)
        assert db.record(job, dataclasses.replace(c, index=0))
        assert not db.record(job, dataclasses.replace(twin, index=1))
        assert db.count() == 1
        stored = db.get(1)
        assert stored.solution() == c.solution and stored.puzzle.question == c.puzzle.question


def test_documents_round_trip_and_bad_ones_are_named(small: list[Candidate]) -> None:
    c = small[0]
    doc = json.loads(json.dumps(puzzle_doc(c.puzzle)))
    back = parse_henning_puzzle(doc)
    assert back.position.state_key() == c.puzzle.position.state_key()
    answer = json.loads(json.dumps(answer_doc(c.puzzle, c.solution)))
    assert answer["format"] == ANSWER_FORMAT and answer["answer"] == str(c.solution.move)
    assert parse_answer(answer, back) == c.solution
    with pytest.raises(FormatError, match="question"):
        parse_henning_puzzle({**doc, "question": "best-by-0"}, "p.json")
    with pytest.raises(FormatError, match="answer"):
        parse_answer({**answer, "answer": "X9@z9"}, back, "a.json")
    with pytest.raises(FormatError, match="value"):
        parse_answer({**answer, "value": "7"}, back, "a.json")


def test_params_are_checked() -> None:
    with pytest.raises(PolytileError, match="empty blocks"):
        HenningParams(min_empty=3, max_empty=2)
    with pytest.raises(UnknownNameError, match="only-win"):
        HenningParams(question="hardest")
    with pytest.raises(PolytileError, match="min-gap"):
        HenningParams(min_gap=0)


def test_a_set_resumes_to_the_same_puzzles_and_verifies() -> None:
    with PuzzleStore(":memory:") as whole:
        build_set(whole, "henning", SMALL, 3, 3)
        want = [sp.key for sp in whole.puzzles()]
    with PuzzleStore(":memory:") as db:
        first = build_set(db, "henning", SMALL, 3, 1)  # a run stopped after one puzzle ...
        assert first.stored == 1
        rest = build_set(db, "henning", SMALL, 3, 3)  # ... and started again
        assert rest.stored == 2 and [sp.key for sp in db.puzzles()] == want
        assert dict(verify_store(db)) == {1: [], 2: [], 3: []}
        only = build_set(db, "henning", dataclasses.replace(SMALL, question="only-win"), 3, 1)
        assert db.get(3 + only.stored).puzzle.question == "only-win"
