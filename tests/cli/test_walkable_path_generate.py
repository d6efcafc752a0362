"""``polytile generate walkable-path`` with the ``puzzles`` commands and ``validate``, and
``polytile solve walkable-path`` saving its answer (``-o``) and refusing bad --sequence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import Invoke, assert_clean_failure

GEN = ("generate", "walkable-path", "--size", "1", "--workers", "1")


def test_help_teaches_the_kind(invoke: Invoke) -> None:
    out = invoke("generate", "--help").stdout
    assert "walkable-path" in out and "polytile generate walkable-path" in out
    assert "search nodes of both proofs" in out  # the rating is documented


def test_generate_list_show_export_validate(invoke: Invoke, tmp_path: Path) -> None:
    db = tmp_path / "walk.db"
    result = invoke(*GEN, "-n", "2", "--db", str(db), "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["stored"] == 2 and doc["tried"] > 2
    assert doc["dropped"] == {"several drop sequences reach the optimum": doc["tried"] - 2}
    rows = json.loads(invoke("puzzles", "list", "--db", str(db), "--json").stdout)
    assert [r["kind"] for r in rows] == ["walkable-path"] * 2
    assert rows[0]["board"] == "3x10x10" and rows[0]["pieces"] == 1
    shown = invoke("puzzles", "show", "1", "--db", str(db), "--solution")
    assert shown.exit_code == 0, shown.stderr
    assert "Exactly one way" in shown.stdout and "answer: regions" in shown.stdout
    assert "1. " in shown.stdout  # the drop in the rules' notation
    # the command shown rebuilds the position: it finds the stored answer, proven optimal
    command = next(x for x in shown.stdout.splitlines() if x.startswith("(solve it: "))
    args = command.removeprefix("(solve it: polytile ").rstrip(")").split()
    solved = invoke(*args, "--workers", "1", "--json")
    assert solved.exit_code == 0, solved.stderr
    stored = json.loads(invoke("puzzles", "show", "1", "--db", str(db), "--json",
                               "--solution").stdout)  # fmt: skip
    found = json.loads(solved.stdout)
    assert found["objective"] == stored["puzzle"]["target"]
    assert [d["text"] for d in found["drops"]] == stored["solution"]["drops"]
    file = json.loads(invoke("puzzles", "show", "1", "--db", str(db), "--file").stdout)
    assert file["format"] == "polytile/walkable-path-puzzle@1"
    out = tmp_path / "set.jsonl"
    assert invoke("puzzles", "export", "--db", str(db), "-o", str(out)).exit_code == 0
    line = json.loads(out.read_text().splitlines()[0])
    assert line["solution"]["format"] == "polytile/walkable-path-answer@1"
    assert_clean_failure(invoke("puzzles", "export", "--db", str(db), "-o",
                                str(tmp_path / "s.svg")))  # fmt: skip
    checked = invoke("validate", str(db))
    assert checked.exit_code == 0, checked.stdout + checked.stderr


def test_resumed_run_makes_the_same_set(invoke: Invoke, tmp_path: Path) -> None:
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    assert invoke(*GEN, "-n", "1", "--db", str(a)).exit_code == 0
    assert invoke(*GEN, "-n", "2", "--db", str(a)).exit_code == 0
    assert invoke(*GEN, "-n", "2", "--db", str(b)).exit_code == 0
    keys = [[r["key"] for r in json.loads(invoke("puzzles", "list", "--db", str(d),
                                                 "--json").stdout)] for d in (a, b)]  # fmt: skip
    assert keys[0] == keys[1] and len(keys[0]) == 2


def test_difficulty_filters(invoke: Invoke, tmp_path: Path) -> None:
    db = str(tmp_path / "d.db")
    result = invoke(*GEN, "-n", "1", "--db", db, "--max-difficulty", "6", "--json")
    assert result.exit_code == 0 and 0 < json.loads(result.stdout)["difficulty"]["max"] <= 6
    # one-piece puzzles take a few dozen nodes: none is this hard, and the time runs out
    hard = invoke(*GEN, "-n", "1", "--db", db, "--min-difficulty", "20", "--time-limit", "3")
    assert hard.exit_code == 1 and "stopped by" in hard.stderr
    assert_clean_failure(invoke(*GEN, "-n", "1", "--db", db, "--min-difficulty", "2",
                                "--max-difficulty", "1"))  # fmt: skip


def test_bad_options(invoke: Invoke, tmp_path: Path) -> None:
    db = str(tmp_path / "x.db")
    assert_clean_failure(invoke(*GEN, "-n", "1", "--db", db, "--order", "free"))
    bad = invoke("generate", "walkable-path", "-n", "1", "--db", db, "--size", "0-9")
    assert_clean_failure(bad)
    assert "--size" in bad.stderr and "1 to 6 pieces" in bad.stderr


def test_time_limit_cuts_a_running_candidate(invoke: Invoke, tmp_path: Path) -> None:
    # two-piece proofs run for seconds: the limit stops the one running, which is not
    # recorded (a resumed run tries it again)
    db = str(tmp_path / "t.db")
    args = ("generate", "walkable-path", "--size", "2", "--workers", "1", "-n", "3")
    result = invoke(*args, "--db", db, "--time-limit", "0.5", "--json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["stopped_by"] == "time limit" and doc["seconds"] < 2


def test_solve_saves_an_answer_validate_replays(invoke: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "a.json"
    args = ("solve", "walkable-path", "--seed", "3", "--pieces", "1", "--workers", "1")
    result = invoke(*args, "-o", str(out))
    assert result.exit_code == 0, result.stderr
    doc = json.loads(out.read_text())
    assert doc["format"] == "polytile/walkable-path@1" and doc["proven_optimal"]
    ok = invoke("validate", str(out))
    assert ok.exit_code == 0 and "valid walkable-path answer" in ok.stdout
    doc["objective"] += 1
    out.write_text(json.dumps(doc))
    bad = invoke("validate", str(out), "--json")
    assert bad.exit_code == 1 and not json.loads(bad.stdout)["valid"]
    doc["objective"] -= 1
    doc["drops"][0]["text"] = "I4 1:a1,a2 2:a3,a4" if doc["sequence"] != ["I4"] else "pass"
    out.write_text(json.dumps(doc))
    assert invoke("validate", str(out)).exit_code in (1, 2)
    assert_clean_failure(invoke(*args, "-o", str(tmp_path / "a.svg")))


def test_validate_reads_every_field_it_states(invoke: Invoke, tmp_path: Path) -> None:
    out = tmp_path / "a.json"
    args = ("solve", "walkable-path", "--seed", "3", "--pieces", "2", "-o", str(out))
    assert invoke(*args).exit_code == 0
    good = json.loads(out.read_text())
    doc = json.loads(json.dumps(good))
    del doc["drops"][1]["text"]  # not a pass: a missing field
    out.write_text(json.dumps(doc))
    missing = invoke("validate", str(out))
    assert_clean_failure(missing)
    assert "drops[1].text" in missing.stderr
    doc = json.loads(json.dumps(good))
    doc["drops"][0]["cells"][0] = [2, 9, 9]  # cells that are not the text's
    out.write_text(json.dumps(doc))
    wrong = invoke("validate", str(out), "--json")
    assert wrong.exit_code == 1 and "are not those of its text" in wrong.stdout
    doc = json.loads(json.dumps(good))
    doc["bound"] = doc["objective"] - 1
    out.write_text(json.dumps(doc))
    above = invoke("validate", str(out), "--json")
    assert above.exit_code == 1 and "above the stated bound" in above.stdout


def test_solve_refuses_an_empty_piece_name(invoke: Invoke) -> None:
    result = invoke("solve", "walkable-path", "--sequence", "I4,,L4")
    assert_clean_failure(result)
    assert "--sequence" in result.stderr and "empty" in result.stderr


@pytest.mark.slow
def test_two_workers_make_the_same_set(invoke: Invoke, tmp_path: Path) -> None:
    # each candidate's proofs are limited in search nodes, not wall time: the set does not
    # depend on how many processes made it
    keys = []
    for workers, name in (("1", "a.db"), ("2", "b.db")):
        db = str(tmp_path / name)
        args = ("generate", "walkable-path", "--size", "2-3", "--node-limit", "2000", "-n", "2")
        assert invoke(*args, "--workers", workers, "--db", db).exit_code == 0
        rows = json.loads(invoke("puzzles", "list", "--db", db, "--json").stdout)
        keys.append([(r["key"], r["difficulty"]) for r in rows])
    assert keys[0] == keys[1]
