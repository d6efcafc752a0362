"""``polytile solve gridblock-solo``: text, JSON, time-outs and bad options."""

from __future__ import annotations

import json

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


def test_time_out_exits_1_with_the_bound(invoke: Invoke) -> None:
    result = invoke("solve", "gridblock-solo", "--order", "free", "--time-limit", "0.05")
    assert result.exit_code == 1
    assert "bound" in result.stderr and "Traceback" not in result.stdout + result.stderr


def test_bad_options(invoke: Invoke) -> None:
    assert_clean_failure(invoke("solve", "gridblock-solo", "--order", "sorted"))
    assert_clean_failure(invoke("solve", "gridblock-solo", "--board", "8x8"))
    assert_clean_failure(invoke("solve", "pentomino-6x10", "--order", "free"))
