"""``polytile solve-endgame`` on Gridblock files, run through the real command
(:mod:`polytile.cli.endgame` dispatching to the Gridblock face):
exact rounds, open analysis, the view analysis and its estimate to the end of the game, the
set-up estimated, ``--plan``, what is refused, the exit codes (0 exact, 1 an estimate or cut
short, 2 refused, 130 Ctrl-C), and a best move whose line fails the engine's check reported
as an internal error. The tree search's playouts are few and counted (never timed)."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import Result

from polytile.puzzles.gridblock import endgame, estimate, estimate_report
from polytile.puzzles.gridblock.endgame import best_plan, solve_round
from polytile.puzzles.gridblock.files import dumps_position, dumps_record, dumps_view, move_text
from polytile.puzzles.gridblock.rules import Gridblock, Options

from .helpers import EXAMPLES, Invoke, assert_clean_failure


@pytest.fixture(autouse=True)
def few_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The estimate to the end of the game stops after 24 playouts (1,000 by default)."""
    monkeypatch.setattr(estimate_report, "PLAYOUTS", 24)


@pytest.fixture
def run(invoke: Invoke) -> Invoke:
    """``polytile solve-endgame ARGS``."""

    def solve(*args: str) -> Result:
        return invoke("solve-endgame", *args)

    return solve


def played(seed: int, options: Options, turns: int) -> Gridblock:
    g = Gridblock.new(seed=seed, options=options)
    rng = np.random.default_rng(seed)
    for _ in range(turns):
        moves = g.legal_moves()
        g.push_legal(moves[int(rng.integers(len(moves)))])
    return g


@pytest.fixture
def split_record(tmp_path: Path) -> Path:
    """A 2-player record in round 2 (split deal: every hand known), 5 colour-turns left."""
    g = played(1, Options(players=2, deal="split"), 4 + 12 + 7)
    path = tmp_path / "split.json"
    path.write_text(dumps_record(g))
    return path


def test_exact_round_text_and_json(run: Invoke, split_record: Path) -> None:
    g = played(1, Options(players=2, deal="split"), 4 + 12 + 7)
    want = solve_round(g)
    out = run(str(split_record))
    assert out.exit_code == 0, out.stderr
    assert f"Value (exact): {want.value:+d}" in out.stdout
    assert "Best moves for" in out.stdout and "Best line: " in out.stdout
    assert "Points at the end of that line" in out.stdout
    doc = json.loads(run(str(split_record), "--json").stdout)
    assert doc["kind"] == "exact" and doc["value"] == want.value and doc["round"] == 2
    assert sorted(doc["best_moves"]) == sorted(map(str, want.best_moves))
    assert len(doc["pv"]) == 5


def test_an_earlier_position_of_the_record(run: Invoke, split_record: Path) -> None:
    doc = json.loads(run(str(split_record), "--move", str(4 + 12 + 6), "--json").stdout)
    assert len(doc["pv"]) == 6


def test_hidden_hands_are_refused_unless_open(run: Invoke, tmp_path: Path) -> None:
    g = played(2, Options(players=2), 4 + 9)
    path = tmp_path / "shuffle.json"
    path.write_text(dumps_position(g))
    out = run(str(path))
    assert_clean_failure(out)
    assert "--view" in out.stderr and "--open" in out.stderr
    doc = json.loads(run(str(path), "--open", "--json").stdout)
    assert doc["kind"] == "exact-open" and doc["open"]
    assert doc["value"] == solve_round(g, open_analysis=True).value
    assert_clean_failure(run(str(path), "--open", "--view"))
    assert_clean_failure(run(str(path), "--samples", "5"))


def test_view_analysis(run: Invoke, tmp_path: Path) -> None:
    g = played(2, Options(players=2), 4 + 9)
    path = tmp_path / "shuffle.json"
    path.write_text(dumps_position(g))
    out = run(str(path), "--view", "--workers", "1")
    assert out.exit_code == 1, out.stderr  # an estimate: no exact value
    assert "not the game's value" in out.stdout and "best by this estimate" in out.stdout
    round_part, rest = out.stdout.split("To the end of the game (the values above stop at "
                                        "the end of the round):\n")  # fmt: skip
    assert "each move's average exact value for yellow+green at the end of the round" in round_part
    assert "Estimate by Monte Carlo tree search for yellow+green: 24 playouts" in rest
    assert "Margins: yellow+green's points minus blue+red's at the end of the game" in rest
    result = run(str(path), "--view", "--workers", "1", "--json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["kind"] == "pimc-estimate" and doc["exact_average"] and doc["exact"] is False
    assert doc["note"] == "average perfect-information value, not the game's value"
    assert doc["consistent_states"] == 4 and len(doc["moves"]) == len(g.legal_moves())
    rest_doc = doc["rest_of_game"]
    assert rest_doc["exact"] is False and rest_doc["kind"] == "mcts-estimate"
    assert rest_doc["playouts"] == 24 and rest_doc["horizon"] == "end of the game"
    assert "24 playouts" in rest_doc["label"] and rest_doc["best"] in {
        str(m) for m in g.legal_moves()}  # fmt: skip
    view = tmp_path / "view.json"
    view.write_text(dumps_view(g, g.to_move))
    again = json.loads(run(str(view), "--workers", "1", "--json").stdout)
    assert again["moves"] == doc["moves"]
    assert again["rest_of_game"]["moves"] == rest_doc["moves"]  # the same seed, the same view
    other = tmp_path / "other.json"
    other.write_text(dumps_view(g, 1 - g.to_move))
    assert_clean_failure(run(str(other)))
    assert_clean_failure(run(str(path), "--view", "red"))


def test_a_view_that_hides_nothing_is_exact(run: Invoke, split_record: Path) -> None:
    """Round 2 of the split deal: every hand is known, so the view's round values are exact
    (exit 0); the estimate to the end of the game follows them, marked as one."""
    doc = json.loads(run(str(split_record), "--view", "-w", "1", "--json").stdout)
    assert doc["exact_values"] and doc["exact"] and doc["kind"] == "exact"
    assert doc["rest_of_game"]["exact"] is False
    assert run(str(split_record), "--view", "-w", "1").exit_code == 0


def test_the_last_round_is_the_rest_of_the_game(run: Invoke, tmp_path: Path) -> None:
    g = played(7, Options(players=2), 4 + 5 * 12 + 9)  # 3 turns left, 16 hand combinations
    path = tmp_path / "last.json"
    path.write_text(dumps_position(g))
    out = run(str(path), "--view", "-w", "1")
    assert out.exit_code == 1 and "Round 6 is the last: these values are to the end of the " \
        "game." in out.stdout  # fmt: skip
    assert "Monte Carlo" not in out.stdout
    doc = json.loads(run(str(path), "--view", "-w", "1", "--json").stdout)
    assert doc["rest_of_game"].startswith("the round is the last")


def test_three_players_each_guaranteed_score(run: Invoke, tmp_path: Path) -> None:
    g = played(3, Options(players=3), 3 + 6)
    path = tmp_path / "three.json"
    path.write_text(dumps_position(g))
    doc = json.loads(run(str(path), "--open", "--json").stdout)
    assert set(doc["guaranteed"]) == {"blue", "yellow", "red"}
    for p, name in enumerate(("blue", "yellow", "red")):
        assert doc["guaranteed"][name] == solve_round(g, player=p, open_analysis=True).value
    one = json.loads(run(str(path), "--open", "--json", "--player", "red").stdout)
    assert list(one["guaranteed"]) == ["red"]
    assert_clean_failure(run(str(path), "--open", "--player", "green"))


def test_the_set_up_is_estimated_to_the_end_of_the_game(run: Invoke, tmp_path: Path) -> None:
    """No exact search starts before round 1: the set-up gets the tree search's estimate
    (it was refused with exit 2), labelled, exit 1, the same for the same --seed."""
    g = Gridblock.new(seed=1, options=Options(players=2, deal="split"))
    path = tmp_path / "setup.json"
    path.write_text(dumps_position(g))
    out = run(str(path))
    assert out.exit_code == 1, out.stderr
    text = out.stdout
    assert "the set-up: blue+red to place (0 of 4 placed). No exact value before round 1" in text
    assert "Estimate by Monte Carlo tree search for blue+red: 24 playouts" in text
    assert "blue+red's points minus yellow+green's at the end of the game" in text
    assert "An estimate, not the game's value." in text and "best by this estimate: setup " in text
    result = run(str(path), "--json", "--seed", "4")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["exact"] is False and doc["kind"] == "mcts-estimate" and doc["playouts"] == 24
    assert doc["game"] == "gridblock" and doc["why"].startswith("the set-up")
    assert doc["best"] in {str(m) for m in g.legal_moves()}
    assert sum(m["visits"] for m in doc["moves"]) == 24
    again = json.loads(run(str(path), "--json", "--seed", "4").stdout)
    assert again["moves"] == doc["moves"]
    g.push_legal(g.legal_moves()[0])  # yellow+green's first placement, from its own view
    view = tmp_path / "view.json"
    view.write_text(dumps_view(g, 1))
    doc = json.loads(run(str(view), "--json", "--view", "yellow+green").stdout)
    assert doc["player"] == "yellow+green" and doc["best"] in {str(m) for m in g.legal_moves()}
    other = tmp_path / "other.json"
    other.write_text(dumps_view(g, 0))
    assert_clean_failure(run(str(other)))
    for flag in (["--open"], ["--samples", "5"], ["--workers", "1"]):
        refused = run(str(path), *flag)
        assert_clean_failure(refused)
        assert "the set-up has no round to solve" in refused.stderr


def test_the_set_up_at_a_tiny_time_limit_still_answers(run: Invoke, tmp_path: Path) -> None:
    """Anytime: whatever the limit leaves (here nothing), a move and what it rests on."""
    path = tmp_path / "setup.json"
    path.write_text(dumps_position(Gridblock.new(seed=3, options=Options(players=3))))
    doc = json.loads(run(str(path), "--json", "--time-limit", "0.01").stdout)
    assert doc["playouts"] >= 1 and doc["best"].startswith("setup ")
    assert doc["stopped_by"] == "time"
    out = run(str(path), "--time-limit", "0.01")
    assert out.exit_code == 1 and "stopped by the time limit (--time-limit)" in out.stdout


def test_ctrl_c_prints_the_estimate_so_far(run: Invoke, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """A first Ctrl-C (sent here during the 3rd playout) stops the search after that
    playout: its best so far is printed, exit 130."""
    path = tmp_path / "setup.json"
    path.write_text(dumps_position(Gridblock.new(seed=3, options=Options(players=2))))
    playout_moves = 0
    greedy = estimate._greedy

    def interrupting(state: Any, rng: Any) -> Any:
        nonlocal playout_moves
        playout_moves += 1
        if playout_moves == 200:  # a 2-player game has 76 moves: in the 3rd playout
            signal.raise_signal(signal.SIGINT)
        return greedy(state, rng)

    monkeypatch.setattr(estimate, "_greedy", interrupting)
    # Ctrl-C at its default, as a person's shell has it: a test run started as a background
    # job inherits SIGINT ignored, and the command then takes itself for a worker (this
    # failed under nohup)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        out = run(str(path), "--json")
        assert out.exit_code == 130, out.stderr
        doc = json.loads(out.stdout)
        assert doc["stopped_by"] == "interrupt" and doc["exact"] is False
        assert 1 <= doc["playouts"] < 24 and doc["best"].startswith("setup ")
        playout_moves = 0
        text = run(str(path))
        assert text.exit_code == 130 and "stopped by Ctrl-C: the estimate so far" in text.stdout
    finally:
        signal.signal(signal.SIGINT, before)


def test_game_over_is_refused(run: Invoke, tmp_path: Path) -> None:
    g = Gridblock.new(seed=1, options=Options(players=2, deal="split"))
    g.play_random(seed=1)
    path = tmp_path / "over.json"
    path.write_text(dumps_record(g))
    out = run(str(path))
    assert_clean_failure(out)
    assert "over" in out.stderr


def test_out_of_time_exits_1(run: Invoke, tmp_path: Path) -> None:
    g = played(4, Options(players=2, deal="split"), 4 + 12)
    path = tmp_path / "round.json"
    path.write_text(dumps_position(g))
    out = run(str(path), "--time-limit", "0.01")
    assert_clean_failure(out, 1)
    assert "time" in out.stderr


def test_help_offers_the_plan(invoke: Invoke) -> None:
    out = invoke("solve-endgame", "--help")
    assert out.exit_code == 0 and "--plan" in out.stdout and "held still" in out.stdout


# -- --plan ------------------------------------------------------------------------------------
def test_plan_text_and_json(run: Invoke, split_record: Path) -> None:
    g = played(1, Options(players=2, deal="split"), 4 + 12 + 7)
    want = best_plan(g)
    out = run(str(split_record), "--plan")
    assert out.exit_code == 0, out.stderr
    text = out.stdout
    assert "with the others held still" in text and "not a game value" in text
    for i, m in enumerate(want.plan, 1):
        assert f"  {i}. {move_text(m)}\n" in text
    assert f"others held still: {want.score}, now {want.now}" in text
    assert f"Plans compared: {want.plans:,}" in text and f"{want.best_plans:,} reach" in text
    assert "The plan's first walk" in text and "*0" in text  # the picture, its walk marked
    assert "Value (exact)" not in text and "Best moves" not in text
    doc = json.loads(run(str(split_record), "--plan", "--json").stdout)
    assert doc["kind"] == "plan-others-held-still" and doc["game"] == "gridblock"
    assert doc["score"] == want.points and doc["now"] == want.now
    assert doc["plan"] == [str(m) for m in want.plan]
    assert doc["plan_with_walks"] == [move_text(m) for m in want.plan]
    assert doc["plans"] == want.plans and doc["best_plans"] == want.best_plans
    assert doc["round"] == 2 and doc["scored_for"] == ("blue+red", "yellow+green")[g.to_move]
    assert len(doc["held_still"]) == 3 and not doc["instant_win"]
    earlier = json.loads(run(str(split_record), "--plan", "--move", "18", "--json").stdout)
    assert earlier["plan"] == [str(m) for m in best_plan(played(1, Options(players=2,
                               deal="split"), 18)).plan]  # fmt: skip


def test_plan_with_hidden_hands_and_from_a_view(run: Invoke, tmp_path: Path) -> None:
    """Only the mover's hand is needed: hidden hands need no --open, and the mover's own
    view file gives the same plan; another player's view is refused."""
    g = played(2, Options(players=2), 4 + 9)
    path = tmp_path / "shuffle.json"
    path.write_text(dumps_position(g))
    doc = json.loads(run(str(path), "--plan", "--json").stdout)
    want = best_plan(g)
    assert doc["score"] == want.points and doc["plan"] == [str(m) for m in want.plan]
    view = tmp_path / "view.json"
    view.write_text(dumps_view(g, g.to_move))
    mine = json.loads(run(str(view), "--plan", "--json").stdout)
    assert mine == doc
    text = run(str(view), "--plan").stdout
    assert "others held still" in text and "The plan's first walk" in text
    other = tmp_path / "other.json"
    other.write_text(dumps_view(g, 1 - g.to_move))
    out = run(str(other), "--plan")
    assert_clean_failure(out)
    assert "view" in out.stderr and "hand of the colour to move" in out.stderr


def test_plan_three_players(run: Invoke, tmp_path: Path) -> None:
    g = played(3, Options(players=3), 3 + 6)
    path = tmp_path / "three.json"
    path.write_text(dumps_position(g))
    doc = json.loads(run(str(path), "--plan", "--json").stdout)
    assert doc["score"] == best_plan(g).points and doc["scored_as"].endswith("'s points")


def test_plan_refusals(run: Invoke, invoke: Invoke, split_record: Path, tmp_path: Path) -> None:
    for extra, word in ((["--view"], "--view"), (["--open"], "--open"),
                        (["--player", "blue"], "--player"), (["--samples", "5"], "--samples"),
                        (["--view", "--open"], "--view, --open")):  # fmt: skip
        out = run(str(split_record), "--plan", *extra)
        assert_clean_failure(out)
        assert word in out.stderr, extra
    out = run(str(EXAMPLES / "duo-endgame.blksgf"), "--plan")
    assert_clean_failure(out)
    assert "only for Gridblock files" in out.stderr
    henning = tmp_path / "henning.json"
    assert invoke("selfplay", "henning", "--seed", "3", "-o", str(henning)).exit_code == 0
    out = run(str(henning), "--plan")
    assert_clean_failure(out)
    assert "only for Gridblock files" in out.stderr
    g = Gridblock.new(seed=1, options=Options(players=2, deal="split"))
    setup = tmp_path / "setup.json"
    setup.write_text(dumps_position(g))
    out = run(str(setup), "--plan")
    assert_clean_failure(out)
    assert "set-up" in out.stderr


# -- every best move printed is checked by the engine ------------------------------------------
def test_a_best_move_failing_its_replay_is_an_internal_error(
    run: Invoke, split_record: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A best move whose line does not replay to the value is never printed: exit 3."""
    monkeypatch.setattr(endgame, "_corner_twin", lambda move, line: (move, *line[1:-1]))
    for extra in ([], ["--json"]):
        out = run(str(split_record), *extra)
        assert_clean_failure(out, 3)
        assert "internal error" in out.stderr and "fails the engine's check" in out.stderr
        assert out.stdout == ""
    monkeypatch.undo()
    assert run(str(split_record)).exit_code == 0


def test_an_instant_win_is_a_win_whatever_the_points(invoke: Invoke, tmp_path: Path) -> None:
    """Option 7.4: a side that can win at once wins, and every winning move is a best move
    with nothing lost. The value carried the winner's points (-997 here, 'green 1008' with
    4 players) and preferred a later win with more points: the move played, which won at
    once, was missing from the best moves and 'lost 1' in analyse (found by a tester)."""
    path = tmp_path / "win.json"
    made = invoke("selfplay", "gridblock", "--instant-win", "--players", "2", "--deal", "split",
                  "--seed", "43", "--yellow", "random", "--blue", "random",
                  "-o", str(path))  # fmt: skip
    assert made.exit_code == 0, made.stderr
    moves = json.loads(path.read_text())["moves"]
    assert len(moves) == 68  # the last move wins at once
    result = invoke("solve-endgame", str(path), "--move", "67", "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["value"] == -1000 and doc["wins_at_once"] == "yellow+green"
    assert moves[-1] in doc["best_moves"]
    text = invoke("solve-endgame", str(path), "--move", "67").stdout
    assert "yellow+green win at once (option 7.4), whatever the points" in text
    plan = json.loads(invoke("solve-endgame", str(path), "--move", "67", "--plan",
                             "--json").stdout)  # fmt: skip
    assert plan["instant_win"] and plan["score"] < 100  # its points, not 1000 more
    # the last move is reviewed first (analyse goes back from the end)
    review = json.loads(invoke("analyse", str(path), "--json", "--time-limit", "6").stdout)
    last = next(m for m in review["moves"] if m["number"] == 68)
    assert last["loss"] == 0
