"""The CP-SAT runner: statuses, limits, stopping, progress, hints, and enumeration counts."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from ortools.sat.python import cp_model

from polytile import Board, piece, piece_set
from polytile.board import placements
from polytile.errors import SolverError
from polytile.models.cpsat import (
    PlacementModel,
    add_connected_corner_groups,
    add_cover_at_most,
    add_cover_exactly,
    add_local_corner_touch,
    add_no_edge_same_color,
    add_piece_at_most_once,
    add_piece_exactly_once,
    maximize_squares,
)
from polytile.puzzles.tiling.puzzles import get_puzzle
from polytile.solvers.cpsat import CpResult, enumerate, enumerate_solutions, solve


def tiling(rows, cols, names):
    pm = PlacementModel(placements(Board(rows, cols), [piece(n) for n in names]))
    add_piece_exactly_once(pm)
    add_cover_exactly(pm)
    return pm


def packing(rows, cols, names):
    pm = PlacementModel(placements(Board(rows, cols), [piece(n) for n in names]))
    add_piece_at_most_once(pm)
    add_cover_at_most(pm)
    maximize_squares(pm)
    return pm


def hard_model():
    """Four-square (20 coloured tetrominoes in 8x10): CP-SAT needs far more than a second."""
    tet = piece_set("tetrominoes")
    pm = PlacementModel(placements(Board(8, 10), list(tet) * 4), [k for k in range(4) for _ in tet])
    add_piece_exactly_once(pm)
    add_cover_exactly(pm)
    add_no_edge_same_color(pm)
    add_local_corner_touch(pm)
    add_connected_corner_groups(pm)
    return pm


def brute_count(rows, cols, names):
    """Exact tilings by trying every combination of one placement per piece."""
    pl = placements(Board(rows, cols), [piece(n) for n in names])
    per_piece = [[set(pl.coords_of(int(i))) for i in pl.of_piece(p)] for p in range(len(names))]
    return sum(
        1
        for combo in itertools.product(*per_piece)
        if len(set().union(*combo)) == rows * cols == sum(len(c) for c in combo)
    )


# -- statuses --------------------------------------------------------------------------------


def test_satisfaction_model_is_feasible_and_extracts_placements():
    pm = tiling(2, 3, ["V3", "V3"])
    r = solve(pm, workers=1, seed=0)
    assert isinstance(r, CpResult)
    assert r.status == "feasible" and r.found
    assert r.objective is None and r.bound is None and r.stopped_by is None
    cells = sorted(c for i in r.placements for c in pm.placements.coords_of(i))
    assert cells == [(r_, c) for r_ in range(2) for c in range(3)]


def test_optimisation_model_is_optimal_with_objective_and_bound():
    r = solve(packing(3, 3, ["V3", "I3", "O4"]), workers=1)
    assert (r.status, r.objective, r.bound) == ("optimal", 7.0, 7.0)


def test_infeasible_model():
    r = solve(tiling(3, 3, ["I2"] * 4), workers=1)
    assert r.status == "infeasible" and not r.found and r.placements == []


def test_bare_cp_model():
    m = cp_model.CpModel()
    a, b = m.new_bool_var("a"), m.new_bool_var("b")
    m.add(a + b == 1)
    m.maximize(a)
    r = solve(m, workers=1)
    assert r.status == "optimal" and r.objective == 1.0 and r.placements == []
    with pytest.raises(SolverError, match="need a PlacementModel"):
        solve(m, hints=[0])
    with pytest.raises(SolverError, match="expected a PlacementModel"):
        solve("model")  # type: ignore[arg-type]


def test_invalid_model_raises():
    m = cp_model.CpModel()
    m.new_int_var(0, 5, "x")
    m.proto.constraints.add().linear.vars.append(99)  # refers to a missing variable
    with pytest.raises(SolverError, match="rejected the model"):
        solve(m, workers=1)


# -- parameters ------------------------------------------------------------------------------


def test_seed_makes_single_worker_runs_repeatable():
    names = [p.name for p in piece_set("pentominoes")]
    a = solve(tiling(6, 10, names), workers=1, seed=7)
    b = solve(tiling(6, 10, names), workers=1, seed=7)
    assert a.status == "feasible" and a.placements == b.placements


def test_hints_are_followed_when_fixed():
    pm = tiling(2, 4, ["I2"] * 4)
    every = enumerate_solutions(pm)
    target = every[-1]
    r = solve(pm, workers=1, hints=target, parameters={"fix_variables_to_their_hinted_value": True})
    assert r.placements == target


def test_time_limit_stops_a_hard_search():
    r = solve(hard_model(), time_limit=0.3, workers=1)
    assert r.status in ("unknown", "feasible")
    assert r.stopped_by == "time" or r.found
    assert r.seconds < 10


def test_stop_callback_ends_the_search():
    calls = []

    def stop():
        calls.append(1)
        return len(calls) > 2

    r = solve(hard_model(), workers=1, stop=stop)
    assert r.stopped_by == "stop"
    assert r.seconds < 10


CTRL_C = """
import json, os, signal, sys, time
# As in a terminal: a shell starts background jobs with Ctrl-C ignored, and a CI run may
# be one (that is how this test once failed).
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.path.insert(0, sys.argv[1])
from test_cpsat import hard_model
from polytile.solvers.cpsat import solve

started = time.perf_counter()
sent = []

def ctrl_c_once_searching():
    # Polled by solve's wait loop while CP-SAT searches: a real SIGINT, sent mid-search.
    if not sent and time.perf_counter() - started > 0.3:
        sent.append(True)
        os.kill(os.getpid(), signal.SIGINT)
    return False

pm = hard_model()
started = time.perf_counter()
r = solve(pm, workers=1, time_limit=30, stop=ctrl_c_once_searching)
print(json.dumps({"sent": bool(sent), "stopped_by": r.stopped_by, "seconds": r.seconds}))
"""


def test_ctrl_c_returns_the_best_so_far():
    # In a fresh process with Python's own Ctrl-C handler: the test process may have been
    # started with SIGINT ignored (a background job), and signal handling is process-wide.
    here = str(Path(__file__).parent)
    done = subprocess.run(
        [sys.executable, "-c", CTRL_C, here], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr  # a KeyboardInterrupt escaping would fail here
    result = json.loads(done.stdout)
    assert result["sent"]
    assert result["stopped_by"] == "interrupt"
    assert result["seconds"] < 10


def test_progress_reports_improving_objectives():
    seen = []
    pm = packing(6, 6, [p.name for p in piece_set("pentominoes")])
    r = solve(pm, workers=1, seed=0, progress=lambda *a: seen.append(a))
    assert r.status == "optimal" and r.objective == 35.0  # 7 pentominoes fit in 6x6
    assert r.solutions == len(seen) >= 1
    objectives = [o for o, _, _ in seen]
    assert objectives == sorted(objectives) and objectives[-1] == r.objective
    assert all(b >= o for o, b, _ in seen) and all(s >= 0 for *_, s in seen)


def test_progress_without_objective_passes_none():
    seen = []
    solve(tiling(2, 2, ["I2", "I2"]), workers=1, progress=lambda *a: seen.append(a))
    assert seen and seen[0][:2] == (None, None)


# -- enumeration -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "cols", "names"),
    [
        (2, 4, ["I2", "I2", "I2", "I2"]),
        (3, 4, ["V3", "V3", "I3", "I3"]),
        (4, 4, ["I4", "O4", "L4", "T4"]),
        (2, 5, ["I2", "V3", "L5"]),
    ],
)
def test_enumeration_counts_match_brute_force(rows, cols, names):
    got = enumerate_solutions(tiling(rows, cols, names))
    assert len(got) == len({tuple(s) for s in got}) == brute_count(rows, cols, names)


def test_enumeration_matches_a_known_count():
    spec = get_puzzle("pentomino-3x20")
    pm = PlacementModel(placements(spec.board, spec.problem.types))
    add_piece_exactly_once(pm)
    add_cover_exactly(pm)
    assert len(enumerate_solutions(pm)) == spec.known_count == 8


def test_enumeration_with_free_auxiliaries_blocks_placement_sets():
    pm = tiling(2, 4, ["I2"] * 4)
    plain = {tuple(s) for s in enumerate_solutions(pm)}
    pm.free_auxiliary = True  # forces the block-and-resolve loop
    assert {tuple(s) for s in enumerate_solutions(pm)} == plain
    assert len(enumerate_solutions(pm, limit=3)) == 3


def test_enumeration_limit_objective_and_alias():
    pm = packing(2, 2, ["I1", "I2"])
    assert enumerate is enumerate_solutions
    got = enumerate(pm)  # the objective is ignored: every packing, the empty one included
    assert [] in got and len(got) == 1 + 4 + 4 + 4 * 2
    assert len(enumerate(pm, limit=5)) == 5
    assert len(enumerate_solutions(hard_model(), limit=1, time_limit=0.2)) <= 1
