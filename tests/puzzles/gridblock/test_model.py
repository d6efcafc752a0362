"""The Gridblock solitaire builders, each alone on a tiny feasible and infeasible case."""

from __future__ import annotations

from ortools.sat.python import cp_model

from polytile.puzzles.gridblock.grid import end_tiles, parse_tile
from polytile.puzzles.gridblock.model import (
    SoloVars,
    add_bonuses,
    add_card_order,
    add_cubes,
    add_moves,
    add_returns,
    add_score,
    build_solo_model,
)

COLUMNS = [i % 6 for i in range(36)]  # columns a..f show A..F
A1, B2, C3, D1 = (0, 1), (1, 2), (2, 3), (3, 1)


def _status(model: cp_model.CpModel) -> str:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    return solver.status_name(solver.solve(model))


def test_card_order_free_is_a_permutation() -> None:
    v = SoloVars(COLUMNS, 0, [(A1, B2, C3)], "free")
    add_card_order(v)
    assert _status(v.model) in ("OPTIMAL", "FEASIBLE")
    v.model.add(v.use[0][B2] == 1)
    v.model.add(v.use[2][B2] == 1)  # B2 twice in one round
    assert _status(v.model) == "INFEASIBLE"


def test_card_order_fixed_follows_the_deal() -> None:
    v = SoloVars(COLUMNS, 0, [(A1, B2, C3)], "fixed")
    add_card_order(v)
    assert _status(v.model) in ("OPTIMAL", "FEASIBLE")
    v.model.add(v.value[0] == 2)  # the first card is A1
    assert _status(v.model) == "INFEASIBLE"


def test_moves_go_exactly_value_steps() -> None:
    v = SoloVars(COLUMNS, 0, [(A1, B2, C3)], "fixed")
    add_card_order(v)
    add_moves(v)
    start = parse_tile("a1")
    v.model.add(v.pos[0] == start)
    v.model.add(v.pos[2] == parse_tile("c2"))  # a1 -> (1 step) -> (2 steps) c2: yes
    assert _status(v.model) in ("OPTIMAL", "FEASIBLE")
    v.model.add(v.pos[1] == start + 2)  # one step cannot reach c1
    assert _status(v.model) == "INFEASIBLE"
    assert start + 2 not in end_tiles(start, 1)


def test_cubes_count_matching_visits_capped_at_four() -> None:
    v = SoloVars(COLUMNS, 0, [(A1, A1, A1), (A1, A1, A1)], "fixed")
    add_card_order(v)
    add_moves(v)
    add_cubes(v)
    a2 = parse_tile("a2")
    v.model.add(v.count[a2] == 4)  # a2 a3 a2 a3 ... : 3 visits to a2 plus the set-up cube
    assert _status(v.model) in ("OPTIMAL", "FEASIBLE")
    w = SoloVars(COLUMNS, 0, [(A1, B2, C3)], "fixed")
    add_card_order(w)
    add_moves(w)
    add_cubes(w)
    w.model.add(w.count[parse_tile("a1")] == 2)  # A1 leaves a1; no A card comes back
    assert _status(w.model) == "INFEASIBLE"


def test_returns_cut_alone() -> None:
    # No moves in the model: only the cut forbids two A1 hits in a row on one tile.
    v = SoloVars(COLUMNS, 0, [(A1, A1, B2)], "fixed")
    add_card_order(v)
    add_cubes(v)
    a2 = parse_tile("a2")
    v.model.add(v.hit[0, a2] == 1)
    v.model.add(v.hit[2 - 1, parse_tile("a3")] == 1)
    assert _status(v.model) in ("OPTIMAL", "FEASIBLE")
    assert add_returns(v) > 0
    v.model.add(v.hit[1, a2] == 1)
    assert _status(v.model) == "INFEASIBLE"


def test_bonuses_alone() -> None:
    v = SoloVars(COLUMNS, 0, [(A1, A1, A1), (A1, A1, A1)], "fixed")
    n = {p: v.model.new_int_var(0, 4, f"n{p}") for p in (0, 6)}
    v.count = n
    bonus = add_bonuses(v)
    v.model.add(n[0] == 3)
    v.model.add(n[6] == 2)
    v.model.add(bonus == 3)  # 2 for the triple, 1 for the pair
    assert _status(v.model) in ("OPTIMAL", "FEASIBLE")
    v.model.add(v.triple[6] == 1)
    assert _status(v.model) == "INFEASIBLE"


def test_bonus_cut_per_symbol() -> None:
    # Only A1 and the set-up show A: 2 cubes on A tiles earn at most 1 bonus point.
    v = SoloVars(COLUMNS, 0, [(A1, B2, C3)], "fixed")
    v.count = {p: v.model.new_int_var(0, 4, f"n{p}") for p in (0, 6)}
    bonus = add_bonuses(v)
    v.model.add(bonus == 1)
    assert _status(v.model) in ("OPTIMAL", "FEASIBLE")
    v.model.add(bonus == 2)
    assert _status(v.model) == "INFEASIBLE"


def test_score_alone() -> None:
    v = SoloVars(COLUMNS, 0, [(A1, A1, A1), (A1, A1, A1)], "fixed")
    v.count = {p: v.model.new_int_var(0, 4, f"n{p}") for p in (0, 6)}
    add_bonuses(v)
    for n in v.count.values():
        v.model.add(n <= 2)
    add_score(v)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(v.model) == cp_model.OPTIMAL
    assert solver.objective_value == 2 * (2 + 1)
    v.model.add(v.pair[0] == 0)
    v.model.add(v.count[0] == 2)
    assert _status(v.model) == "INFEASIBLE"


def test_whole_model_and_extract() -> None:
    v = build_solo_model(COLUMNS, 0, [(A1, D1, A1)], "fixed")
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(v.model) == cp_model.OPTIMAL
    plan = v.extract(solver)
    assert plan.cards == (A1, D1, A1)
    # set-up cube, A1 to another A tile, D1 misses (column a to b), A1 back: 1 + 1 + 1, and
    # A1 can return to the start tile only through b: at best a pair.
    assert solver.objective_value == len(plan.tiles) + 1
