"""``polytile solve walkable-path``: JSON shape, text, time-outs and refused options."""

from __future__ import annotations

import json

import pytest

from polytile.puzzles.walkable.path import PathPuzzle, replay

from .helpers import Invoke, assert_clean_failure


def test_help_mentions_the_options(invoke: Invoke) -> None:
    result = invoke("solve", "--help")
    assert result.exit_code == 0
    for option in ("--sequence", "--dead", "--opponent-cells", "--own-cells", "--targets"):
        assert option in result.stdout


def test_help_gives_pieces_n_and_the_order_default(invoke: Invoke) -> None:
    def words(command: str) -> str:
        return " ".join(invoke(command, "--help").stdout.split()).replace("- ", "-")

    solve = words("solve")
    assert (
        "walkable-path: a number N, how many seeded pieces red drops (1 to 20) [default: 4]"
        in solve
    )
    assert "--time-limit defaults to 60 s) [default: fixed]" in solve
    assert "walkable-path" not in words("count").split("--pieces NAMES")[1]
    assert "[default: free]" in words("generate")


def test_json(invoke: Invoke) -> None:
    result = invoke("solve", "walkable-path", "--seed", "1", "--pieces", "2", "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["puzzle"] == "walkable-path" and doc["seed"] == 1
    assert doc["status"] == "optimal" and doc["proven_optimal"]
    assert doc["objective"] == doc["bound"] == sum(doc["regions"])
    assert len(doc["sequence"]) == len(doc["drops"]) == 2
    assert len(doc["boards"]) == 3 and all(len(b) == 10 for b in doc["boards"])
    # the drops replay to the regions printed
    puzzle = PathPuzzle.from_seed(1, pieces=2)
    drops = [None if d is None else [b * 100 + r * 10 + c for b, r, c in d["cells"]]
             for d in doc["drops"]]  # fmt: skip
    assert list(replay(puzzle, drops)) == doc["regions"]


def test_text_with_a_sequence(invoke: Invoke) -> None:
    result = invoke("solve", "walkable-path", "--seed", "2", "--sequence", "o4,i4",
                    "--dead", "20", "--opponent-cells", "30", "--own-cells", "12")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "board 1" in result.stdout and "1. O4" in result.stdout and "2. I4" in result.stdout
    assert "proven optimal" in result.stdout


def test_targets(invoke: Invoke) -> None:
    result = invoke("solve", "walkable-path", "--seed", "1", "--pieces", "1",
                    "--targets", "4,4,4", "--json")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["targets"] == [4, 4, 4]
    assert doc["objective"] == sum(r >= 4 for r in doc["regions"])


def test_time_limit_reports_best_so_far(invoke: Invoke) -> None:
    result = invoke("solve", "walkable-path", "--seed", "0", "--pieces", "4",
                    "--time-limit", "2", "--json")  # fmt: skip
    doc = json.loads(result.stdout)
    if doc["proven_optimal"]:
        assert result.exit_code == 0
    else:
        assert result.exit_code == 1 and "before proving" in result.stderr
        assert doc["bound"] is None or doc["objective"] <= doc["bound"]


def _spin(*args: object, **kwargs: object) -> None:
    """Stands in for a model build or a search that never looks at the clock."""
    import time

    ends = time.monotonic() + 60
    while time.monotonic() < ends:
        pass
    raise AssertionError("the deadline did not stop the model build")


@pytest.mark.parametrize("targets", [None, "5,5,5"])
def test_a_deadline_while_building_keeps_the_greedy_drops(
    invoke: Invoke, monkeypatch: pytest.MonkeyPatch, targets: str | None
) -> None:
    import polytile.puzzles.walkable.path_model as model
    import polytile.puzzles.walkable.path_search as search
    from polytile.puzzles.walkable.path import greedy_drops

    # the sum objective runs the search, targets the CP-SAT model: neither ever ends here
    monkeypatch.setattr(model, "build_path_model", _spin)
    monkeypatch.setattr(search, "best_drops", _spin)
    extra = [] if targets is None else ["--targets", targets]
    # the greedy start (about a second, numba included) fits in the limit; the build never ends
    result = invoke("solve", "walkable-path", "--seed", "0", "--pieces", "3",
                    "--time-limit", "4", "--json", *extra)  # fmt: skip
    assert result.exit_code == 1, result.stderr
    assert "out of time before proving" in result.stderr and "Traceback" not in result.stderr
    doc = json.loads(result.stdout)
    assert doc["proven_optimal"] is False and doc["bound"] is None
    # With targets too the greedy drops stand (they were all passes before: issue 36, item 7)
    puzzle = PathPuzzle.from_seed(0, pieces=3, dead=10, opponent_cells=24, own_cells=16,
                                  targets=None if targets is None else (5, 5, 5))  # fmt: skip
    greedy = [list(map(int, d)) for d in greedy_drops(puzzle) if d is not None]
    regions = replay(puzzle, greedy_drops(puzzle))
    scored = sum(regions) if targets is None else sum(int(r >= 5) for r in regions)
    assert scored == doc["objective"]
    assert greedy  # the greedy player found drops, and those are the answer


@pytest.mark.parametrize(
    "args",
    [
        ["--sequence", "I4,X9"],
        ["--sequence", "I4", "--pieces", "2"],
        ["--pieces", "many"],
        ["--pieces", "0"],
        ["--targets", "1,2"],
        ["--targets", "a,b,c"],
        ["--dead", "101"],
        ["--board", "8x8"],
        ["--order", "free"],
        ["--opponent-cells", "-1"],
    ],
)
def test_refusals(invoke: Invoke, args: list[str]) -> None:
    assert_clean_failure(invoke("solve", "walkable-path", *args))


def test_other_puzzles_refuse_the_options(invoke: Invoke) -> None:
    assert_clean_failure(invoke("solve", "pentomino-6x10", "--dead", "5"))
    assert_clean_failure(invoke("solve", "gridblock-solo", "--targets", "1,2,3"))


def test_both_engines_agree(invoke: Invoke) -> None:
    args = ("solve", "walkable-path", "--seed", "3", "--pieces", "2", "--json")
    search = invoke(*args)
    cpsat = invoke(*args, "--engine", "cpsat")
    assert search.exit_code == 0 and cpsat.exit_code == 0, (search.stderr, cpsat.stderr)
    a, b = json.loads(search.stdout), json.loads(cpsat.stdout)
    assert a["proven_optimal"] and b["proven_optimal"] and a["objective"] == b["objective"]
    assert "search_nodes" in a and "branches" in b  # each says which search it ran
    bad = invoke(*args, "--engine", "xcc")
    assert_clean_failure(bad)
    assert "--engine cpsat" in bad.stderr


def test_boards_too_full_name_the_options(invoke: Invoke) -> None:
    result = invoke("solve", "walkable-path", "--dead", "100", "--pieces", "1")
    assert_clean_failure(result)
    assert "filled up" in result.stderr and "--own-cells" in result.stderr


def test_too_many_cells_blame_the_options_given(invoke: Invoke) -> None:
    result = invoke("solve", "walkable-path", "--opponent-cells", "200", "--own-cells", "200")
    assert_clean_failure(result)
    assert "--dead" not in result.stderr.split("lower")[1]
    assert "Invalid value for --dead" not in result.stderr
    assert "--dead 10 per board (the default), --opponent-cells 200, --own-cells 200" in (
        result.stderr
    )
    assert "lower --opponent-cells or --own-cells" in result.stderr
    dead = invoke("solve", "walkable-path", "--dead", "100", "--pieces", "1")
    assert "lower --dead\n" in dead.stderr


def test_the_command_line_defaults_are_the_puzzles() -> None:
    import inspect

    from polytile.puzzles.walkable.path_face import _COUNTS

    defaults = inspect.signature(PathPuzzle.from_seed).parameters
    assert {k: defaults[k].default for k in _COUNTS} == _COUNTS
