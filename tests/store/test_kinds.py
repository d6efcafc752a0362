"""The kinds of generated puzzle: each loads by name from the registry, declares what the
commands need, reads back what today's store holds, and makes the same rows again from the
same seeds, byte for byte."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from polytile.errors import PolytileError, UnknownNameError
from polytile.faces.registry import KINDS, PLANNED_KINDS
from polytile.store.kinds import Catalogued, DrawnKind, PuzzleKind, kind, kind_names

FIXTURE = Path(__file__).with_name("fixtures") / "today.db"
COLUMNS = "id, kind, params, seed, candidate, key, puzzle, solution, difficulty, stats"


def _rows() -> list[dict[str, Any]]:
    with sqlite3.connect(FIXTURE) as con:
        found = con.execute(f"SELECT {COLUMNS} FROM puzzles ORDER BY id").fetchall()
    return [dict(zip(COLUMNS.split(", "), row, strict=True)) for row in found]


ROWS = _rows()


def test_every_registered_kind_loads_under_its_name() -> None:
    assert kind_names() == tuple(KINDS)
    for name in KINDS:
        found = kind(name)
        assert isinstance(found, PuzzleKind) and found.name == name
        assert found.summary and found.examples and found.size_help
        assert all(line.startswith(f"polytile generate {name} ") for line in found.examples)
        assert all(len(line) <= 74 for line in found.help.splitlines()), name


def test_unknown_and_planned_kinds_are_refused() -> None:
    with pytest.raises(UnknownNameError, match="walkable-path"):
        kind("sudoku")
    for name in PLANNED_KINDS:
        with pytest.raises(PolytileError, match="is not built yet"):
            kind(name)


def test_the_kinds_options_are_theirs_alone() -> None:
    """The command line puts every kind's options in one namespace."""
    names = [o.name for n in kind_names() for o in kind(n).options]
    assert len(names) == len(set(names))
    assert not {"piece_set", "size", "count", "seed", "kind"} & set(names)
    for n in kind_names():
        for o in kind(n).options:
            if o.bounds is None:
                assert o.default in o.choices, o.name
            else:
                assert not o.choices and o.bounds[0] <= int(o.default) <= o.bounds[1], o.name


def test_optional_parts_are_declared() -> None:
    drawn = {n for n in kind_names() if isinstance(kind(n), DrawnKind)}
    assert drawn == {"packing", "blokus-teaser"}
    assert [n for n in kind_names() if isinstance(kind(n), Catalogued)] == ["packing"]
    rows = kind("packing").catalogue()  # type: ignore[attr-defined]
    assert any(r["name"] == "pentomino-6x10" and r["known_count"] == 9356 for r in rows)


def test_params_from_the_command_line_are_checked_by_the_kind() -> None:
    from polytile.errors import OptionError

    packing = kind("packing")
    options = {"piece_set": None, "region": "shape", "holes": 0, "max_given": 2}
    with pytest.raises(OptionError, match=r"2 \(the default\) is too many for --size 2"):
        packing.params_values((2, 2), "2", options, frozenset())
    values = packing.params_values((6, 8), "6-8", options, frozenset())
    assert packing.parse_params(values).to_dict()["pieces"] == "pentominoes"
    with pytest.raises(OptionError, match="drops 1 to 6 pieces"):
        kind("walkable-path").params_values((0, 9), "0-9", {"node_limit": 100}, frozenset())


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['id']}-{r['kind']}" for r in ROWS])
def test_todays_documents_read_back_unchanged(row: dict[str, Any]) -> None:
    found = kind(row["kind"])
    puzzle = found.read_puzzle(json.loads(row["puzzle"]), "today.db")
    assert json.dumps(found.puzzle_doc(puzzle)) == row["puzzle"]
    answer = found.read_answer(row["solution"], puzzle, f"puzzle {row['id']}")
    assert found.answer_json(puzzle, answer) == row["solution"]
    assert found.row(puzzle)["board"] and found.caption(puzzle)


#: Rows whose kind's generator has changed on purpose since today.db was written, with what
#: the same parameters, seed and candidate make now (the packing regions of issue 47).
REMADE: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).with_name("fixtures") / "remade.json").read_text())["rows"]  # fmt: skip


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['id']}-{r['kind']}" for r in ROWS])
def test_todays_rows_are_made_again_byte_for_byte(row: dict[str, Any]) -> None:
    """The candidate a row came from, made again by its kind: the same document, answer,
    key, difficulty and search figures as today's code stored (or, for a kind whose
    generator changed on purpose, as recorded in remade.json since)."""
    row = {**row, **REMADE.get(str(row["id"]), {})}
    found = kind(row["kind"])
    params = found.parse_params(json.loads(row["params"]))
    cand = found.candidate(params, row["seed"], row["candidate"])
    assert cand.accepted and cand.key == row["key"]
    assert json.dumps(found.puzzle_doc(cand.puzzle)) == row["puzzle"]
    assert found.answer_json(cand.puzzle, cand.solution) == row["solution"]
    assert cand.difficulty == row["difficulty"]
    assert json.dumps(cand.stats, sort_keys=True) == row["stats"]
