"""City Blocks (Henning) move scores from one player's view, against brute force."""

from __future__ import annotations

import math

import numpy as np
import pytest

from polytile.puzzles.henning.endgame import solve_endgame
from polytile.puzzles.henning.game import HenningGame
from polytile.puzzles.henning.rules import Henning
from polytile.puzzles.henning.view import evaluate_view
from polytile.solvers.alphabeta import SearchStopped
from polytile.solvers.parallel import LocalExecutor


def hidden(seed: int, empty: int, reserve: int = 1) -> Henning:
    """A random game with ``empty`` blocks left while the reserve of the player not to move
    still holds ``reserve`` tiles or more (so its hand is hidden from the mover)."""
    for s in range(seed, seed + 5000):
        g = Henning.new(s)
        rng = np.random.default_rng(s)
        while not g.is_over():
            if g.empty == empty and g.reserve_size(1 - g.to_move) >= reserve:
                return g
            g.push_legal(g.random_move(rng))
    raise AssertionError("no such position")


def slow_scores(g: Henning) -> dict[str, float]:
    """Each move's probability-weighted average exact margin for the mover, the slow way:
    every consistent state listed, every move pushed and the rest solved on its own by
    :func:`solve_endgame` (each of which is checked against brute force in
    test_endgame.py)."""
    me = g.to_move
    state = HenningGame().state_of(g.copy())
    scores: dict[str, float] = {}
    for full, w in state.hidden_states(me) or []:
        b = full.board  # type: ignore[attr-defined]
        for m in b.legal_moves():
            b.push(m)
            v = solve_endgame(b, open_analysis=True).value * (1 if me == 0 else -1)
            b.pop()
            scores[str(m)] = scores.get(str(m), 0.0) + w * v
    return scores


@pytest.mark.parametrize(("seed", "engine"), [
    (0, "kernel"), (40, "kernel"), pytest.param(80, "kernel", marks=pytest.mark.slow),
    (0, "python")])  # fmt: skip
def test_exact_averages_match_each_move_solved_alone(seed: int, engine: str,
                                                     slow_scale: str) -> None:  # fmt: skip
    if seed == 80 and slow_scale == "reduced":
        pytest.skip("full size only (POLYTILE_SLOW=full): a third deal, 16 s of reference")
    g = hidden(seed, 2)
    a = evaluate_view(g, g.to_move, engine=engine)
    ev = a.evaluation
    assert ev.kind == "pimc-estimate" and ev.exact_average and not a.exact_values
    assert a.consistent > 1
    assert ev.states == a.consistent == HenningGame().state_of(g).count_hidden_states(g.to_move)
    want = slow_scores(g)
    got = {str(m): e.mean for m, e in ev.moves.items()}
    assert got.keys() == want.keys()
    assert all(math.isclose(got[k], want[k], abs_tol=1e-9) for k in want)
    means = [e.mean for e in ev.moves.values()]
    assert means == sorted(means, reverse=True)


def test_nothing_hidden_gives_exact_values() -> None:
    from .test_endgame import late

    g = late(7, 2)
    a = evaluate_view(g, g.to_move)
    assert a.consistent == 1 and a.exact_values and a.as_dict()["kind"] == "exact"
    r = solve_endgame(g)
    sign = 1 if g.to_move == 0 else -1
    best = max(e.mean for e in a.evaluation.moves.values())
    assert best == sign * r.value
    top = {str(m) for m, e in a.evaluation.moves.items() if e.mean == best}
    assert top == {str(m) for m in r.best_moves}


def test_a_sample_has_standard_errors_and_workers_agree() -> None:
    g = hidden(3, 2)
    serial = evaluate_view(g, g.to_move, max_exact=1, samples=6, seed=5)
    ev = serial.evaluation
    assert not ev.exact_average and ev.states == ev.planned == 6 and ev.complete
    assert all(e.stderr >= 0 and e.low <= e.mean <= e.high for e in ev.moves.values())
    with LocalExecutor(2) as ex:
        parallel = evaluate_view(g, g.to_move, max_exact=1, samples=6, seed=5, executor=ex)
    assert {str(m): e.mean for m, e in parallel.evaluation.moves.items()} == pytest.approx(
        {str(m): e.mean for m, e in ev.moves.items()}
    )


def test_limits_report_a_partial_result_or_nothing() -> None:
    g = hidden(3, 2)
    with pytest.raises(SearchStopped):
        evaluate_view(g, g.to_move, time_limit=1e-6)
    asked = iter([False, True, True, True])
    a = evaluate_view(g, g.to_move, max_exact=1, samples=50, stop=lambda: next(asked, True))
    ev = a.evaluation
    assert not ev.complete and ev.stopped_by == "stop" and 1 <= ev.states < 50
    assert a.as_dict()["complete"] is False


def test_only_the_player_to_move_is_scored_by_a_known_engine() -> None:
    g = hidden(3, 2)
    with pytest.raises(ValueError, match="turn"):
        evaluate_view(g, 1 - g.to_move)
    with pytest.raises(ValueError, match="engine"):
        evaluate_view(g, g.to_move, engine="guess")


def test_a_view_with_nothing_hidden_says_why_without_contradicting_the_reserves(
    tmp_path: pytest.TempPathFactory,
) -> None:
    """One move before the end of a self-played game red's reserve still holds a tile, so
    the plain endgame refuses (tiles are hidden), while red's view has one consistent
    state: it says so by elimination, not that both reserves are empty (it said that)."""
    from pathlib import Path

    from click.testing import CliRunner

    from polytile.cli import cli

    path = Path(str(tmp_path)) / "h1.json"
    run = CliRunner().invoke
    made = run(cli, ["selfplay", "henning", "--seed", "1", "--stop-before-end", "1", "-o",
                     str(path)])  # fmt: skip
    assert made.exit_code == 0, made.output
    plain = run(cli, ["solve-endgame", str(path)])
    assert plain.exit_code == 2 and "reserves: blue 0, red 1" in plain.output, plain.output
    view = run(cli, ["solve-endgame", str(path), "--view", "--time-limit", "60"])
    assert view.exit_code == 0, view.output
    assert "Nothing is hidden from red: one full state alone agrees" in view.stdout
    assert "reserves are empty" not in view.stdout
