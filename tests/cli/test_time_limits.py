"""Whole-command time limits (#17 item 7): documented, and held by work that ignores the clock.

No wall-clock asserts: the slow stand-ins below would run for 60 s if the deadline did not
stop them, and each test checks only what the command says and its exit code.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from polytile.cli.clock import Deadline, DeadlineReached, start_command
from polytile.formats import save

from .helpers import Invoke
from .test_score import finished_game


def _ignore_the_clock(*args: Any, **kwargs: Any) -> Any:
    """Stands in for a model build that never looks at its time limit."""
    ends = time.monotonic() + 60
    while time.monotonic() < ends:
        pass
    raise AssertionError("the deadline did not stop the work")


@pytest.mark.parametrize("command", ["count", "solve", "bounds", "solve-endgame", "generate"])
def test_help_says_what_the_limit_covers(invoke: Invoke, command: str) -> None:
    text = " ".join(invoke(command, "--help").stdout.split())
    assert "--time-limit" in text
    assert "counted from when the process started" in text


def test_deadline_stops_python_work_and_says_so() -> None:
    start_command(False)
    with pytest.raises(DeadlineReached), Deadline.of_limit(0.1) as deadline:
        _ignore_the_clock()
    assert deadline.fired


def test_an_import_the_deadline_broke_is_the_deadline() -> None:
    """The alarm inside an extension module's import makes it fail as "ImportError:
    initialization failed" (an internal error of solve walkable-path at --time-limit 0.5):
    once the deadline has fired, that import error is the deadline."""

    def import_cut_short() -> None:
        try:
            _ignore_the_clock()
        except DeadlineReached:
            raise ImportError("initialization failed") from None

    with pytest.raises(DeadlineReached) as stopped, Deadline(0.1) as deadline:
        import_cut_short()
    assert deadline.fired and isinstance(stopped.value.__cause__, ImportError)
    with pytest.raises(ImportError), Deadline(30):  # before the deadline: a real one
        raise ImportError("no such module")


def test_deadline_is_disarmed_on_the_way_out() -> None:
    with Deadline(0.2, grace=0.0) as deadline:
        pass
    time.sleep(0.4)  # an alarm left armed would interrupt this
    assert not deadline.fired


def test_no_limit_no_deadline() -> None:
    with Deadline(None) as deadline:
        time.sleep(0.01)
    assert not deadline.fired


def test_bounds_stopped_by_its_limit_names_the_colours_left(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import polytile.puzzles.cityblocks.bounds as mod

    monkeypatch.setattr(mod, "bounds", _ignore_the_clock)
    path = tmp_path / "game.json"
    save(finished_game().to_position(), path)
    result = invoke("bounds", str(path), "--color", "all", "--time-limit", "0.5", "--json")
    assert result.exit_code == 1, result.stderr
    assert "time limit ran out" in result.stderr and "Traceback" not in result.stderr
    doc = json.loads(result.stdout)
    assert doc["complete"] is False and doc["stopped_by"] == "time"
    assert doc["not_bounded"] == ["blue", "yellow", "red", "green"]


def test_cityblocks_max_stopped_while_building_is_no_layout_in_time(
    invoke: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    import polytile.puzzles.cityblocks.maximum as mod

    monkeypatch.setattr(mod, "max_layout", _ignore_the_clock)
    result = invoke("solve", "cityblocks-max", "--time-limit", "1.5")
    assert result.exit_code == 1, result.stderr
    assert "no layout found in the time limit" in result.stderr
    assert "while the model was being built" in result.stderr
    assert "Traceback" not in result.stderr
    # a limit that leaves no time after start-up does not even load OR-tools
    result = invoke("solve", "cityblocks-max", "--time-limit", "0.5")
    assert result.exit_code == 1 and "start-up used it" in result.stderr


def test_generate_with_no_time_left_starts_no_candidate(invoke: Invoke, tmp_path: Path) -> None:
    db = tmp_path / "set.db"
    result = invoke("generate", "packing", "-n", "5", "--db", str(db), "--workers", "1",
                    "--time-limit", "0.5", "--json")  # fmt: skip
    assert result.exit_code == 1, result.stderr
    doc = json.loads(result.stdout)
    assert doc["stopped_by"] == "time limit" and doc["tried"] == 0
