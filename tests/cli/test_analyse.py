"""``polytile analyse``: a Blokus record analysed move by move, as text, JSON and an annotated
record."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from pathlib import Path

import pytest

from polytile.formats import save
from polytile.puzzles.blokus import analyse
from polytile.puzzles.blokus.rules import Move
from polytile.puzzles.blokus.sgf import GameRecord, read_blksgf, write_blksgf

from .helpers import EXAMPLES, Invoke, assert_clean_failure

RECORD = EXAMPLES / "duo-endgame.blksgf"


@pytest.fixture
def finished(tmp_path: Path) -> Path:
    """The example Duo record played on at random to the end: 33 moves, the last 4 of them
    analysed with --max-pieces 4, three of which lose value."""
    game = read_blksgf(RECORD).position()
    game.play_random(0)
    moves = tuple(m for m in game.move_stack if not m.is_pass)
    path = tmp_path / "game.blksgf"
    path.write_text(write_blksgf(GameRecord("duo", 2, moves), PB="Ann"))
    return path


def test_text_table(invoke: Invoke, finished: Path) -> None:
    result = invoke("analyse", str(finished), "--exact-only", "--max-pieces", "4")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "exact from the position after move 29" in out
    assert "blue's final lead over yellow" in out
    rows = [line.split() for line in out.splitlines() if line[:4].strip().isdigit()]
    assert [r[0] for r in rows] == ["30", "31", "32", "33"]
    assert rows[0][:2] == ["30", "yellow"] and "7" in rows[0]
    assert "3 of 4 exactly analysed moves lost value (blue 4, yellow 7)." in out


def test_json_shape(invoke: Invoke, finished: Path) -> None:
    result = invoke("analyse", str(finished), "--exact-only", "--max-pieces", "4", "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["game"] == "blokus" and doc["variant"] == "duo" and doc["mode"] == "difference"
    assert doc["complete"] is True and doc["stopped"] is None
    assert doc["total_moves"] == 33 and doc["first_solvable"] == 29
    assert "the limit is 4" in doc["refused"]
    moves = doc["moves"]
    assert [m["number"] for m in moves] == [30, 31, 32, 33]
    assert set(moves[0]) == {"number", "player", "move", "value_before", "value_after", "loss",
                             "best_move", "kind"}  # fmt: skip
    assert {m["kind"] for m in moves} == {"exact"} and doc["estimated"] == 0
    for a, b in itertools.pairwise(moves):
        assert a["value_after"] == b["value_before"]
    record = read_blksgf(finished)
    for m in moves:
        played = record.moves[m["number"] - 1]
        assert Move(m["move"]["color"], m["move"]["piece"], m["move"]["cells"]) == played
        best = m["best_move"]
        assert best["color"] == played.color and best["piece"] and best["cells"]
    assert [m["loss"] for m in moves] == [7, 3, 0, 1]


def test_no_position_small_enough(invoke: Invoke, finished: Path) -> None:
    """--json prints its object with "refused" saying why (exit 1), as formats.md says; it
    printed nothing."""
    opening = finished.with_name("opening.blksgf")  # six moves in: far too large to solve
    opening.write_text(write_blksgf(replace(read_blksgf(finished), moves=read_blksgf(
        finished).moves[:6])))  # fmt: skip
    result = invoke("analyse", str(opening), "--json", "--exact-only")
    assert result.exit_code == 1 and "no exact analysis" in result.stderr
    doc = json.loads(result.stdout)
    assert doc["first_solvable"] is None and doc["moves"] == []
    assert "the limit is 12" in doc["refused"]


def test_annotated_record_round_trips(invoke: Invoke, finished: Path, tmp_path: Path) -> None:
    out = tmp_path / "annotated.blksgf"
    result = invoke("analyse", str(finished), "--exact-only", "--max-pieces", "4", "-o", str(out),
                    "--json")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    original, annotated = read_blksgf(finished), read_blksgf(out)
    assert annotated.moves == original.moves
    assert annotated.properties["PB"] == "Ann"
    assert sorted(annotated.comments) == [30, 31, 32, 33]
    assert "yellow lost 7" in annotated.comments[30]
    assert "a best move" in annotated.comments[32]
    # nothing but the comments differs from the record written without them
    plain = write_blksgf(annotated, comments=None)
    bare = GameRecord(annotated.variant, annotated.players, annotated.moves, annotated.setup,
                      annotated.setup_to_move, annotated.properties, {}, "x")  # fmt: skip
    assert write_blksgf(bare) == write_blksgf(original)
    assert plain.count("C[") == 4


@pytest.mark.parametrize("args", [
    ["examples/blokus-opening.json"],  # a position: no moves to analyse
    ["missing.blksgf"],
    ["-"],
    ["{record}", "-o", "out.txt"],
    ["{record}", "--max-pieces", "-1"],
    ["{record}", "--time-limit", "0"],
])  # fmt: skip
def test_bad_input_exits_2(invoke: Invoke, args: list[str], tmp_path: Path) -> None:
    args = [a.replace("{record}", str(RECORD)) for a in args]
    args = [str(EXAMPLES.parent / a) if a.startswith("examples/") else a for a in args]
    assert_clean_failure(invoke("analyse", *args, input="(;GM[Blokus Duo])"))


def test_a_broken_record_and_a_position_file(invoke: Invoke, tmp_path: Path) -> None:
    broken = tmp_path / "broken.blksgf"
    broken.write_text("(;GM[Blokus Duo];B[z99])")
    result = invoke("analyse", str(broken))
    assert_clean_failure(result)
    position = tmp_path / "late.json"
    save(read_blksgf(RECORD).position().to_position(), position)
    result = invoke("analyse", str(position))
    assert_clean_failure(result)
    assert "solve-endgame" in result.stderr


def test_nothing_small_enough_exits_1(invoke: Invoke) -> None:
    result = invoke("analyse", str(RECORD), "--max-pieces", "2", "--exact-only")
    assert result.exit_code == 1
    assert "no exact analysis" in result.stderr and "the limit is 2" in result.stderr


def test_interrupt_prints_what_was_analysed(invoke: Invoke, finished: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    real, calls = analyse.solve_endgame, []

    def interrupted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) > 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(analyse, "solve_endgame", interrupted)
    result = invoke("analyse", str(finished), "--exact-only", "--max-pieces", "4", "--json")
    assert result.exit_code == 130
    doc = json.loads(result.stdout)
    assert doc["complete"] is False and [m["number"] for m in doc["moves"]] == [32, 33]
    assert "incomplete (interrupted): moves 32 to 33 analysed" in result.stderr
    assert len(calls) == 4  # the positions after moves 33, 32 and 31 solved, then Ctrl-C


def test_help_teaches(invoke: Invoke) -> None:
    result = invoke("analyse", "--help")
    assert result.exit_code == 0
    assert "polytile analyse game.blksgf" in result.stdout and "--max-pieces" in result.stdout


def test_a_stop_says_what_was_proven_of_the_position_it_was_on(
        invoke: Invoke, finished: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """The search stopped on a position (here after three solved, by a stand-in for the time
    limit): besides the moves analysed, its proven interval and move, in text and JSON."""
    from polytile.puzzles.blokus.endgame import EndgameStopped, Proven

    real, calls = analyse.solve_endgame, []

    def stopped(game: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) > 3:
            mover = game.player_to_move  # type: ignore[attr-defined]
            move = game.legal_moves()[0]  # type: ignore[attr-defined]
            raise EndgameStopped("time", 5, 0.1, proven=Proven(
                "blue", "difference", -4, 7, mover, mover == "blue", (move,), 7))  # fmt: skip
        return real(game, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(analyse, "solve_endgame", stopped)
    result = invoke("analyse", str(finished), "--exact-only", "--max-pieces", "4", "--json")
    assert result.exit_code == 1
    unfinished = json.loads(result.stdout)["unfinished"]
    assert unfinished["before_move"] == 31 and unfinished["at_least"] == -4
    assert unfinished["at_most"] == 7 and unfinished["move"] is not None
    calls.clear()
    text = invoke("analyse", str(finished), "--exact-only", "--max-pieces", "4").stdout
    assert "Before move 31, proven before the stop: blue's final lead is between -4 and +7." in text
    assert " +7 by playing " in text


def test_the_moves_before_the_exact_analysis_are_estimated(invoke: Invoke, finished: Path,
                                                          tmp_path: Path) -> None:  # fmt: skip
    """Without --exact-only the moves before the exact analysis are valued by the engine's
    tree search, marked as estimates (text ~, JSON "kind", comments). On a quiet machine
    every move is valued (exit 0); a busy one may leave the earliest unvalued when the time
    runs out (exit 1, "valued" false), so the test asks every answer to be consistent with
    its exit code, not the machine to be fast."""
    out = tmp_path / "annotated.blksgf"
    result = invoke("analyse", str(finished), "--max-pieces", "2", "--time-limit", "14",
                    "--json", "-o", str(out))  # fmt: skip
    assert result.exit_code in (0, 1), result.stderr
    doc = json.loads(result.stdout)
    moves = doc["moves"]
    numbers = [m["number"] for m in moves]
    assert numbers == sorted(numbers) and numbers[-1] == 33
    assert doc["valued"] is (numbers == list(range(1, 34))) is (result.exit_code == 0)
    first = doc["first_solvable"]
    assert first is not None and first > 20
    estimated = [m for m in moves if m["kind"] == "estimate"]
    assert [m["kind"] for m in moves if m["number"] > first] == ["exact"] * (33 - first)
    assert doc["estimated"] == len(estimated) >= 1
    assert all(m["number"] <= first for m in estimated)
    assert estimated[-1]["number"] == first  # estimated from the exact part backward
    record = read_blksgf(finished)
    for m in estimated:
        assert m["playouts"] >= 1 and m["loss"] >= 0  # the better of two moves is best
        played = Move(m["move"]["color"], m["move"]["piece"], m["move"]["cells"])
        assert played == record.moves[m["number"] - 1]
        best = m["best_move"]
        assert best["color"] == played.color and best["piece"]
    annotated = read_blksgf(out)
    assert sorted(annotated.comments) == numbers
    note = annotated.comments[first]
    assert "estimate" in note and "not exact" in note
    # the first six moves alone: no position is small enough, every move estimated
    opening = tmp_path / "opening.blksgf"
    opening.write_text(write_blksgf(replace(record, moves=record.moves[:6])))
    shown = invoke("analyse", str(opening), "--time-limit", "10")
    assert shown.exit_code in (0, 1), shown.stderr
    text = shown.stdout
    assert "no position exact" in text and "estimated (~)" in text
    assert "~ an estimate (Monte Carlo tree search at the position before the move" in text
    rows = [line.split() for line in text.splitlines() if line[:4].strip().isdigit()]
    assert rows and all(any(t.startswith("~") for t in r) for r in rows)
    assert (len(rows) == 6) is (shown.exit_code == 0)


def test_estimates_rest_on_playouts_not_on_time() -> None:
    """The estimator with a playout limit: the same moves and values for the same seed."""
    from polytile.puzzles.blokus.analyse_estimate import estimate_moves

    record = read_blksgf(RECORD)
    a = estimate_moves(record, [3, 1], playouts=16, seed=5)
    b = estimate_moves(record, [3, 1], playouts=16, seed=5)
    assert a.stopped is None and [e.number for e in a.estimates] == [3, 1]
    assert [e.as_dict() for e in a.estimates] == [e.as_dict() for e in b.estimates]
    for e in a.estimates:
        assert e.kind == "estimate" and e.loss >= 0 and e.playouts >= 16
        assert e.before == (e.after if e.best == e.move else e.before)
