"""``polytile solve gridblock-solo`` (text, JSON, time-outs, engines, bad options) and
``polytile generate gridblock-solo`` with the ``puzzles`` commands."""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import Invoke, assert_clean_failure


def test_help_mentions_order(invoke: Invoke) -> None:
    result = invoke("solve", "--help")
    assert result.exit_code == 0
    assert "--order" in result.stdout and "gridblock-solo" in result.stdout


def test_json(invoke: Invoke) -> None:
    result = invoke("solve", "gridblock-solo", "--seed", "1", "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["puzzle"] == "gridblock-solo" and doc["order"] == "fixed"
    assert doc["proven_optimal"] and doc["score"] == doc["bound"]
    assert doc["score"] == doc["cubes"] + doc["bonus"] <= doc["max_score"] == 31
    assert len(doc["turns"]) == 18 and len(doc["layout"]) == 6


def test_text(invoke: Invoke) -> None:
    result = invoke("solve", "gridblock-solo", "--seed", "2")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "proven optimal" in out and "round 6" in out and "set-up: drew" in out
    assert " a " in out.splitlines()[0]
    assert "(1 tile of 2, 3 of 3 or 4)" in out  # one tile, said so


def test_time_out_exits_1_with_the_best_plan_and_the_bound(invoke: Invoke) -> None:
    args = ("solve", "gridblock-solo", "--seed", "1", "--order", "free", "--time-limit", "0.001")
    result = invoke(*args)
    assert result.exit_code == 1
    assert "Traceback" not in result.stdout + result.stderr
    # The best plan so far is printed (replayed by the rules engine), labelled as unproven.
    assert "round 6" in result.stdout and "NOT proven optimal (out of time)" in result.stdout
    assert "bound" in result.stderr
    doc = json.loads(invoke(*args, "--json").stdout)
    assert doc["status"] == "feasible" and doc["stopped_by"] == "time limit"
    assert not doc["proven_optimal"] and doc["score"] < doc["bound"] <= 31
    assert len(doc["turns"]) == 18


def test_cpsat_engine(invoke: Invoke) -> None:
    result = invoke("solve", "gridblock-solo", "--seed", "3", "--engine", "cpsat", "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["engine"] == "cpsat" and doc["proven_optimal"] and doc["score"] == 26
    search = json.loads(invoke("solve", "gridblock-solo", "--seed", "3", "--json").stdout)
    assert search["engine"] == "search" and search["score"] == 26 and search["effort"] > 0


def test_bad_options(invoke: Invoke) -> None:
    assert_clean_failure(invoke("solve", "gridblock-solo", "--order", "sorted"))
    assert_clean_failure(invoke("solve", "gridblock-solo", "--board", "8x8"))
    assert_clean_failure(invoke("solve", "gridblock-solo", "--engine", "xcc"))
    assert_clean_failure(invoke("solve", "pentomino-6x10", "--order", "free"))


def test_output_is_refused_pointing_to_json(invoke: Invoke, tmp_path: Path) -> None:
    help_text = " ".join(invoke("solve", "--help").stdout.split()).replace("- ", "-")
    assert "gridblock-solo saves no file" in help_text
    out = tmp_path / "gs.json"
    result = invoke("solve", "gridblock-solo", "-o", str(out))
    assert_clean_failure(result)
    assert "-o: gridblock-solo saves no file" in result.stderr and "--json" in result.stderr
    assert not out.exists()


def test_generate_list_show_export_validate(invoke: Invoke, tmp_path: Path) -> None:
    db = str(tmp_path / "solo.db")
    args = ("generate", "gridblock-solo", "-n", "2", "--db", db, "--workers", "1", "--size",
            "1-2", "--order", "fixed")  # fmt: skip
    made = invoke(*args, "--json")
    assert made.exit_code == 0, made.stderr
    report = json.loads(made.stdout)
    assert report["stored"] == 2 and report["kind"] == "gridblock-solo"
    assert report["dropped"].get("several plans score the optimum", 0) >= 1
    assert json.loads(invoke(*args, "--json").stdout)["stored"] == 0  # resumed: nothing to do

    rows = json.loads(invoke("puzzles", "list", "--db", db, "--json").stdout)
    assert [r["kind"] for r in rows] == ["gridblock-solo"] * 2
    assert all(r["order"] == "fixed" and r["pieces"] == 3 * r["rounds"] for r in rows)
    assert "gridblock-solo" in invoke("puzzles", "list", "--db", db).stdout

    shown = invoke("puzzles", "show", "1", "--db", db)
    assert shown.exit_code == 0 and "exactly one plan scores" in shown.stdout
    assert "answer:" not in shown.stdout  # only when asked
    solved = invoke("puzzles", "show", "1", "--db", db, "--solution")
    assert "answer:" in solved.stdout and "set-up: drew" in solved.stdout
    doc = json.loads(invoke("puzzles", "show", "1", "--db", db, "--json", "--solution").stdout)
    assert doc["puzzle"]["format"] == "polytile/gridblock-solo-puzzle@1"
    assert doc["solution"]["score"] == doc["puzzle"]["target"] == doc["target"]
    assert doc["solution"]["margin"] >= 1
    bare = json.loads(invoke("puzzles", "show", "1", "--db", db, "--file").stdout)
    assert bare == doc["puzzle"]

    out = tmp_path / "set.jsonl"
    assert invoke("puzzles", "export", "--db", db, "-o", str(out)).exit_code == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 2 and all(x["solution"]["margin"] >= 1 for x in lines)
    assert_clean_failure(invoke("puzzles", "export", "--db", db, "-o", str(tmp_path / "s.svg")))
    assert invoke("validate", db).exit_code == 0


def test_generate_bad_options_exit_2(invoke: Invoke, tmp_path: Path) -> None:
    db = str(tmp_path / "solo.db")
    wrong = invoke("generate", "gridblock-solo", "-n", "1", "--db", db, "--question", "only-win")
    assert_clean_failure(wrong)
    assert "--question do(es) not apply to kind gridblock-solo" in wrong.stderr
    too_many = invoke("generate", "gridblock-solo", "-n", "1", "--db", db, "--size", "2-9")
    assert_clean_failure(too_many)
    assert "rounds" in too_many.stderr
    assert_clean_failure(invoke("generate", "packing", "-n", "1", "--db", db, "--order", "free"))
    assert_clean_failure(invoke("generate", "gridblock-solo", "-n", "1", "--db", db, "--order",
                                "sorted"))  # fmt: skip
    assert not (tmp_path / "solo.db").exists()  # refused before any store is made
