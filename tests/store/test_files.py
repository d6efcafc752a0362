"""Puzzles exported from a store as files (``puzzles show N --file``): ``render``, ``solve``
and ``validate`` read them, and ``validate --puzzle`` judges an answer, a person's own too
(:mod:`polytile.store.files`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from polytile.cli import cli
from polytile.faces.registry import KINDS, PUZZLE_FILES, PUZZLES
from polytile.store.kinds import FileKind, kind

STORE = Path(__file__).with_name("fixtures") / "today.db"
FILE_KINDS = ["gridblock-solo", "walkable-path"]


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """Per file kind, its puzzle file and its stored answer, as ``puzzles show`` prints
    them from a copy of the store written by an earlier version."""
    folder = tmp_path_factory.mktemp("files")
    db = folder / "today.db"
    shutil.copyfile(STORE, db)
    code, out, _ = _run("puzzles", "list", "--db", str(db), "--json")
    assert code == 0
    rows = json.loads(out)
    found = {}
    for name in FILE_KINDS:
        pid = str(next(r["id"] for r in rows if r["kind"] == name))
        code, puzzle, _ = _run("puzzles", "show", pid, "--db", str(db), "--file")
        assert code == 0
        code, shown, _ = _run("puzzles", "show", pid, "--db", str(db), "--solution", "--json")
        assert code == 0
        files = folder / f"{name}.json", folder / f"{name}-answer.json"
        files[0].write_text(puzzle)
        files[1].write_text(json.dumps(json.loads(shown)["solution"]))
        found[name] = files
    return found


def test_the_registry_lists_every_file_kinds_formats() -> None:
    declared = {}
    for name in KINDS:
        found = kind(name)
        if isinstance(found, FileKind):
            declared[found.puzzle_format] = f"{name}:puzzle"
            declared[found.answer_format] = f"{name}:answer"
            assert found.solver in PUZZLES
    assert declared == PUZZLE_FILES


@pytest.mark.parametrize("name", FILE_KINDS)
def test_render_draws_the_question(exported: dict[str, tuple[Path, Path]], name: str,
                                   tmp_path: Path) -> None:  # fmt: skip
    puzzle, _ = exported[name]
    code, out, _ = _run("render", str(puzzle))
    assert code == 0 and "exactly one" in out.lower() and "Which?" in out
    code, _, err = _run("render", str(puzzle), "-o", str(tmp_path / "p.txt"))
    assert code == 0 and (tmp_path / "p.txt").read_text() == out and "wrote" in err
    code, _, err = _run("render", str(puzzle), "-o", str(tmp_path / "p.svg"))
    assert code == 2 and "text only" in err and not (tmp_path / "p.svg").exists()


@pytest.mark.parametrize("name", FILE_KINDS)
def test_solve_reaches_the_stored_target(exported: dict[str, tuple[Path, Path]],
                                         name: str) -> None:  # fmt: skip
    puzzle, _ = exported[name]
    target = json.loads(puzzle.read_text())["target"]
    # a limit that only a broken search reaches: the proof takes a second on a quiet
    # machine, and a busy one (or numba's first compile) may stretch it many times
    code, out, _ = _run("solve", str(puzzle), "--time-limit", "900")
    assert code == 0, out
    assert f"the puzzle's target {target} is reached" in out
    code, out, _ = _run("solve", str(puzzle), "--json", "--time-limit", "900")
    doc = json.loads(out)
    assert code == 0 and doc["target"] == target and doc["status"] == "optimal"


@pytest.mark.parametrize("name", FILE_KINDS)
def test_solve_refuses_what_makes_another_puzzle(exported: dict[str, tuple[Path, Path]],
                                                 name: str) -> None:  # fmt: skip
    puzzle, answer = exported[name]
    code, _, err = _run("solve", str(puzzle), "--seed", "3")
    assert code == 2 and "--seed" in err and "is the puzzle it holds" in err
    code, _, err = _run("solve", str(answer))
    assert code == 2 and "an answer to a" in err and "puzzles show N" in err


@pytest.mark.parametrize("name", FILE_KINDS)
def test_validate_the_puzzle_and_its_stored_answer(exported: dict[str, tuple[Path, Path]],
                                                   name: str) -> None:  # fmt: skip
    puzzle, answer = exported[name]
    code, out, _ = _run("validate", str(puzzle))
    assert code == 0 and f"valid {name} puzzle" in out
    code, out, _ = _run("validate", str(answer), "--puzzle", str(puzzle))
    assert code == 0 and f"valid {name} answer" in out
    code, _, err = _run("validate", str(answer))
    assert code == 2 and "give --puzzle PUZZLE.json" in err
    other = exported[next(n for n in FILE_KINDS if n != name)][0]
    code, _, err = _run("validate", str(answer), "--puzzle", str(other))
    assert code == 2 and f"answers a {name} one" in err


def _moves_only(answer: Path, name: str) -> dict[str, object]:
    """A person's answer: the stored answer's moves alone (no figures, no walks)."""
    doc = json.loads(answer.read_text())
    if name == "gridblock-solo":
        return {"format": doc["format"], "setup": doc["setup"],
                "turns": [t.split(" via ")[0] for t in doc["turns"]]}  # fmt: skip
    return {"format": doc["format"], "drops": doc["drops"]}


@pytest.mark.parametrize("name", FILE_KINDS)
def test_a_persons_own_answer_is_judged(exported: dict[str, tuple[Path, Path]], name: str,
                                        tmp_path: Path) -> None:  # fmt: skip
    puzzle, answer = exported[name]
    target = json.loads(puzzle.read_text())["target"]
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(_moves_only(answer, name)))
    code, out, _ = _run("validate", str(mine), "--puzzle", str(puzzle), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["valid"] and doc["score"] == target
    wrong = _moves_only(answer, name) | {"score": target + 5}
    mine.write_text(json.dumps(wrong))
    code, out, _ = _run("validate", str(mine), "--puzzle", str(puzzle))
    assert code == 1 and f"it states score {target + 5}" in out
    broken = _moves_only(answer, name)
    key = "turns" if name == "gridblock-solo" else "drops"
    broken[key] = list(reversed(broken[key])) if name == "gridblock-solo" else ["pass"]  # type: ignore[call-overload]
    mine.write_text(json.dumps(broken))
    code, out, _ = _run("validate", str(mine), "--puzzle", str(puzzle), "--json")
    doc = json.loads(out)
    assert code == 1 and not doc["valid"] and doc["reasons"]
    mine.write_text(json.dumps({"format": json.loads(answer.read_text())["format"]}))
    code, _, err = _run("validate", str(mine), "--puzzle", str(puzzle))
    assert code == 2 and "an answer is" in err


@pytest.mark.parametrize("name", FILE_KINDS)
@pytest.mark.parametrize("shift", [7, -1])
def test_a_changed_target_is_said_plainly_and_exits_1(exported: dict[str, tuple[Path, Path]],
                                                      name: str, shift: int,
                                                      tmp_path: Path) -> None:  # fmt: skip
    """#48: with the puzzle file's target edited, validate said "the best plan scores 15"
    of a target no plan reaches, and solve noticed the mismatch but exited 0."""
    puzzle, answer = exported[name]
    doc = json.loads(puzzle.read_text())
    target, changed = doc["target"], doc["target"] + shift
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(doc | {"target": changed}))
    code, out, err = _run("solve", str(edited), "--time-limit", "60")
    assert code == 1, out + err
    assert f"the file's target is {changed}, but the proven optimum is {target}" in err
    assert "the file is not the puzzle its store proved" in err
    code, out, _ = _run("validate", str(answer), "--puzzle", str(edited))
    assert code == 1
    side = "below" if shift > 0 else "above"
    assert f"{target}, {side} the puzzle's target {changed}" in out
    assert "the best plan scores" not in out and "the best drops sum to" not in out
    if shift < 0:
        assert "the file's target is wrong" in out
