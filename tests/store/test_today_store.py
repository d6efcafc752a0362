"""A puzzle store written by polytile before the store moved out of ``puzzles/tiling/``
(``fixtures/today.db``: two packing puzzles and one of each other kind) still opens, lists,
shows with its answers, exports and re-verifies, byte for byte as it did then.

The store was made with::

    polytile generate packing -n 2 --db today.db --workers 1
    polytile generate blokus-teaser -n 1 --db today.db --workers 1
    polytile generate henning -n 1 --db today.db --workers 1
    polytile generate gridblock-solo -n 1 --db today.db --workers 1
    polytile generate walkable-path -n 1 --size 1-2 --db today.db --workers 1

and ``fixtures/today.json`` holds what each command below printed then (exit code, standard
output, standard error; the store's path written as ``STORE``). ``POLYTILE_TODAY=record``
writes it anew from the code as it is: do that only when an output is meant to change, and
say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from polytile.cli import cli

FIXTURES = Path(__file__).with_name("fixtures")
STORE = FIXTURES / "today.db"
GOLDEN = FIXTURES / "today.json"

KINDS = ["blokus-teaser", "gridblock-solo", "henning", "packing", "walkable-path"]

COMMANDS: list[str] = [
    "puzzles list --db STORE",
    "puzzles list --db STORE --json",
    "puzzles list --db STORE --kind henning",
    *[f"puzzles show {i} --db STORE --solution --no-color" for i in range(1, 7)],
    *[f"puzzles show {i} --db STORE --solution --json" for i in range(1, 7)],
    *[f"puzzles show {i} --db STORE --file" for i in range(1, 7)],
    "puzzles show 7 --db STORE",
    "puzzles export --db STORE -o -",
    "puzzles export --db STORE -o STORE-sheet.svg",
    "puzzles export --db STORE --kind packing -o STORE-packing.svg",
    "puzzles export --db STORE --kind blokus-teaser -o STORE-teaser.jsonl",
    "validate STORE",
    "validate STORE --json",
]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    """Every command's exit code and outputs, run on a copy of the fixture (opening a
    store may switch its journal, and the fixture must stay as today's code wrote it)."""
    folder = tmp_path_factory.mktemp("today")
    db = folder / "today.db"
    shutil.copyfile(STORE, db)
    runner = CliRunner()
    found: dict[str, dict[str, object]] = {}
    written: set[str] = set()
    for command in COMMANDS:
        args = [a.replace("STORE", str(db)) for a in command.split()]
        result = runner.invoke(cli, args, catch_exceptions=False)
        files = {  # what the command wrote, by the hash of its bytes
            p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.iterdir())
            if p.name not in written and p.suffix in (".svg", ".jsonl")
        }
        written.update(files)
        found[command] = {
            "exit": result.exit_code,
            "stdout": result.stdout.replace(str(db), "STORE"),
            "stderr": result.stderr.replace(str(db), "STORE"),
            "files": {name.replace(db.name, "STORE"): h for name, h in files.items()},
        }
    return found


def test_the_fixture_holds_every_kind() -> None:
    with sqlite3.connect(STORE) as con:
        kinds = [r[0] for r in con.execute("SELECT DISTINCT kind FROM puzzles ORDER BY kind")]
    assert kinds == KINDS


def test_outputs_are_as_recorded(outputs: dict[str, dict[str, object]]) -> None:
    if os.environ.get("POLYTILE_TODAY") == "record":
        GOLDEN.write_text(json.dumps(outputs, indent=1, sort_keys=True) + "\n")
    recorded = json.loads(GOLDEN.read_text())
    assert sorted(recorded) == sorted(COMMANDS)
    for command in COMMANDS:
        assert outputs[command] == recorded[command], command


def test_every_puzzle_reverifies(outputs: dict[str, dict[str, object]]) -> None:
    checked = outputs["validate STORE --json"]
    assert checked["exit"] == 0
    doc = json.loads(str(checked["stdout"]))
    assert doc["valid"] and doc["puzzles"] == 6 and doc["problems"] == {}


def test_every_answer_is_shown(outputs: dict[str, dict[str, object]]) -> None:
    for i in range(1, 7):
        shown = outputs[f"puzzles show {i} --db STORE --solution --json"]
        assert shown["exit"] == 0
        doc = json.loads(str(shown["stdout"]))
        assert doc["id"] == i and doc["kind"] in KINDS and "solution" in doc


def test_a_row_of_a_kind_this_version_does_not_know(tmp_path: Path) -> None:
    """A store may hold a kind added by a later version: its other rows stay usable, the
    row is listed as stored, ``show`` refuses it, ``validate`` reports it (exit 1) and
    ``export`` leaves it out, saying so (issue 36, item 7)."""
    from polytile.cli import cli

    db = tmp_path / "later.db"
    shutil.copy(FIXTURES / "today.db", db)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE puzzles SET kind=? WHERE id=2", ("tiles-\x1b[31m-2030",))
    run = CliRunner().invoke
    listed = run(cli, ["puzzles", "list", "--db", str(db)])
    assert listed.exit_code == 0 and "\x1b" not in listed.output
    assert listed.output.splitlines()[2].split()[:3] == ["2", "tiles-\\x1b[31m-2030", "?"]
    assert ("1 of them of a kind this version of polytile does not know "
            "('tiles-\\x1b[31m-2030'") in listed.output  # fmt: skip
    unknown = "its kind 'tiles-\\x1b[31m-2030' is not one this version of polytile knows"
    shown = run(cli, ["puzzles", "show", "2", "--db", str(db)])
    assert shown.exit_code == 2 and f"puzzle 2: {unknown}" in shown.output
    assert run(cli, ["puzzles", "show", "1", "--db", str(db)]).exit_code == 0
    checked = run(cli, ["validate", str(db)])
    assert checked.exit_code == 1 and f"puzzle 2: {unknown}" in checked.output
    assert "1 of 6 puzzles have problems" in checked.output
    out = tmp_path / "set.jsonl"
    exported = run(cli, ["puzzles", "export", "--db", str(db), "-o", str(out)])
    assert exported.exit_code == 0 and f"left out puzzle 2: {unknown}" in exported.output
    assert [json.loads(x)["id"] for x in out.read_text().splitlines()] == [1, 3, 4, 5, 6]
