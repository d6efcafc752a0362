"""Gridblock solitaire puzzles: uniqueness against enumeration, documents, keys, the store."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from polytile.errors import FormatError, PolytileError, UnknownNameError
from polytile.puzzles.gridblock.generate import (
    GridblockSoloAnswer,
    GridblockSoloParams,
    GridblockSoloPuzzle,
    answer_doc,
    answer_text,
    check_answer,
    make_gridblock_solo_candidate,
    parse_solo_answer,
    parse_solo_puzzle,
    puzzle_doc,
    question_text,
    solo_key,
    verify_gridblock_solo,
)
from polytile.puzzles.gridblock.solo import SoloPuzzle
from polytile.store.candidates import Candidate, candidate_rng
from polytile.store.db import PuzzleStore
from polytile.store.sets import build_set, verify_store

from .test_solo import plan_scores

ONE_ROUND = GridblockSoloParams(order="fixed", min_rounds=1, max_rounds=1)
DOCS = Path(__file__).resolve().parents[3] / "docs" / "formats.md"


Kept = tuple[GridblockSoloPuzzle, GridblockSoloAnswer, Candidate]


def accepted(params: GridblockSoloParams, count: int, seed: int = 0) -> list[Kept]:
    """The first ``count`` puzzles a run keeps: (puzzle, answer, candidate) each."""
    out: list[Kept] = []
    for i in range(400):
        c = make_gridblock_solo_candidate(params, seed, i)
        if c.accepted:
            assert isinstance(c.puzzle, GridblockSoloPuzzle)
            assert isinstance(c.solution, GridblockSoloAnswer)
            out.append((c.puzzle, c.solution, c))
            if len(out) == count:
                return out
    raise AssertionError("too few puzzles in 400 candidates")


@pytest.mark.parametrize("order", ["fixed", "free"])
def test_kept_puzzles_have_one_best_plan_by_enumeration(order: str) -> None:
    # 1-round puzzles: every plan enumerated through the rules' scoring.
    for puzzle, a, _ in accepted(dataclasses.replace(ONE_ROUND, order=order), 3):
        scores = plan_scores(puzzle.solo)
        best = max(scores.values())
        top = [k for k, v in scores.items() if v == best]
        assert top == [(a.start, *((t.card, t.tile) for t in a.turns))]
        assert best == a.score == puzzle.target
        assert a.runner_up == max(v for v in scores.values() if v < best)
        assert a.margin == best - a.runner_up >= 1
        assert check_answer(puzzle, a) == []


def test_dropped_candidates_have_several_best_plans() -> None:
    # The candidate's solitaire, made as the module says, has two or more best plans.
    checked = 0
    for i in range(12):
        c = make_gridblock_solo_candidate(ONE_ROUND, 0, i)
        if c.reason != "several plans score the optimum":
            continue
        rng = candidate_rng(0, i, "gridblock-solo")
        rounds = int(rng.integers(1, 2))
        solo = SoloPuzzle.from_seed(int(rng.integers(1 << 62)), "fixed", rounds)
        scores = plan_scores(solo)
        assert sum(v == max(scores.values()) for v in scores.values()) >= 2
        assert c.puzzle is None and c.key is None
        checked += 1
    assert checked >= 3


def test_candidates_are_reproducible_and_rated() -> None:
    params = GridblockSoloParams(order="free", min_rounds=2, max_rounds=3)
    puzzle, answer, c = accepted(params, 1)[0]
    again = make_gridblock_solo_candidate(params, 0, c.index)
    assert again.key == c.key and again.puzzle == puzzle and again.solution == answer
    assert c.difficulty is not None and c.difficulty > 0
    assert c.stats["margin"] == answer.margin and c.stats["turns"] == puzzle.solo.turns
    assert verify_gridblock_solo(puzzle, answer, c.key) == []
    text = question_text(puzzle)
    assert "exactly one plan scores" in text and "any order" in text
    assert "the best other plan scores" in answer_text(puzzle, answer)


def test_verify_catches_a_wrong_answer() -> None:
    puzzle, a, _ = accepted(ONE_ROUND, 1)[0]
    wrong = dataclasses.replace(a, runner_up=a.runner_up - 1, margin=a.margin + 1)
    assert any("best other plan" in p for p in verify_gridblock_solo(puzzle, wrong))
    lying = dataclasses.replace(a, score=a.score + 1)
    assert any("rules engine scores" in p for p in check_answer(puzzle, lying))
    i = next(i for i, t in enumerate(a.turns) if t.corner is not None)
    turns = list(a.turns)
    turns[i] = dataclasses.replace(turns[i], corner=None)
    broken = dataclasses.replace(a, turns=tuple(turns))
    assert any("rules engine rejects" in p for p in check_answer(puzzle, broken))
    assert verify_gridblock_solo(puzzle, a, "not-the-key") == ["its stored key is not its "
                                                                 "puzzle's key"]  # fmt: skip


def _turned(p: SoloPuzzle) -> SoloPuzzle:
    # A quarter turn of the grid, and the symbols renamed A->B->...->F->A.
    layout = [0] * 36
    for t, s in enumerate(p.layout):
        r, c = divmod(t, 6)
        layout[c * 6 + (5 - r)] = (s + 1) % 6
    hands = tuple(tuple(((s + 1) % 6, v) for s, v in h) for h in p.hands)
    deck = tuple(((s + 1) % 6, v) for s, v in p.deck)
    return SoloPuzzle(tuple(layout), deck, (p.setup_symbol + 1) % 6, hands, p.order)


def test_keys_ignore_turns_flips_and_symbol_names() -> None:
    p = SoloPuzzle.from_seed(4, "free", rounds=2)
    assert solo_key(_turned(p)) == solo_key(p)
    shuffled = dataclasses.replace(p, hands=tuple(h[::-1] for h in p.hands))
    assert solo_key(shuffled) == solo_key(p)  # free order: the dealt order is no clue
    assert solo_key(shuffled.with_order("fixed")) != solo_key(p.with_order("fixed"))
    assert solo_key(SoloPuzzle.from_seed(5, "free", rounds=2)) != solo_key(p)


def test_documents_read_back_and_bad_ones_are_refused() -> None:
    puzzle, solution, _ = accepted(ONE_ROUND, 1)[0]
    doc = json.loads(json.dumps(puzzle_doc(puzzle)))
    assert parse_solo_puzzle(doc) == puzzle
    answer = json.loads(json.dumps(answer_doc(puzzle, solution)))
    assert parse_solo_answer(answer, puzzle) == solution
    bad = [
        ({**doc, "format": "x"}, "format"),
        ({**doc, "order": "sorted"}, "order"),
        ({**doc, "layout": doc["layout"][:5]}, "layout"),
        ({**doc, "layout": ["XXXXXX"] * 6}, "layout"),
        ({**doc, "setup": "Q"}, "setup"),
        ({**doc, "hands": [["Z9", "A1", "B2"]]}, "hands"),
        ({**doc, "hands": [["A1", "A1", "A1"]]}, "hands"),  # not from the deck
        ({**doc, "target": "4"}, "target"),
    ]
    for broken, field in bad:
        with pytest.raises(FormatError, match=field):
            parse_solo_puzzle(broken, "p.json")
    with pytest.raises(FormatError, match="turns"):
        parse_solo_answer({**answer, "turns": ["nonsense"]}, puzzle)
    with pytest.raises(FormatError, match="setup"):
        parse_solo_answer({**answer, "setup": "E2@c6 NW"}, puzzle)
    with pytest.raises(FormatError, match="margin"):
        parse_solo_answer({**answer, "margin": None}, puzzle)


def test_params_are_checked() -> None:
    with pytest.raises(UnknownNameError):
        GridblockSoloParams(order="sorted")
    for kw in ({"min_rounds": 0}, {"max_rounds": 7}, {"min_rounds": 3, "max_rounds": 2},
               {"min_margin": 0}, {"node_limit": 10}):  # fmt: skip
        with pytest.raises(PolytileError):
            GridblockSoloParams(**kw)  # type: ignore[arg-type]


def test_the_store_keeps_and_verifies_them(tmp_path: Path) -> None:
    params = GridblockSoloParams(order="fixed", min_rounds=1, max_rounds=2)
    with PuzzleStore(tmp_path / "solo.db") as store:
        report = build_set(store, "gridblock-solo", params, 3, 2)
        assert report.stored == 2 and store.kinds() == ["gridblock-solo"]
        for sp in store.puzzles():
            assert isinstance(sp.puzzle, GridblockSoloPuzzle)
            assert isinstance(sp.solution(), GridblockSoloAnswer)
            assert sp.solution().score == sp.puzzle.target
        assert [problems for _, problems in verify_store(store)] == [[], []]
        again = build_set(store, "gridblock-solo", params, 3, 2)
        assert again.stored == 0 and again.tried == 0  # the job is complete: nothing redone


def test_the_documents_in_docs_formats_md() -> None:
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("### Gridblock solitaire puzzles") :]
    blocks = re.findall(r"\n\n((?:    .*\n)+)", section)
    docs = [json.loads("".join(line[4:] for line in b.splitlines(keepends=True))) for b in blocks]
    puzzle = parse_solo_puzzle(docs[0], "docs/formats.md")
    answer = parse_solo_answer(docs[1], puzzle, "docs/formats.md")
    assert check_answer(puzzle, answer) == []
    assert verify_gridblock_solo(puzzle, answer) == []
