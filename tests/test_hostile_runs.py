"""The three new games under hostile use (issue 36): time limits that end before the first
result, more workers than cores, huge samples, documents that hide their ``format`` or
start with a byte-order mark, and ``-o`` onto special files.

Each test asserts an exit code and a message; memory and worker counts are measured in
the test process, never wall-clock times.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from polytile.cli import cli


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def gridblock_split(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The record of issue 36's first item: a split-deal self-play game of two players,
    whose view at move 5 has 200 hand combinations, each about a second's search."""
    path = tmp_path_factory.mktemp("gridblock") / "split.json"
    args = ("selfplay", "gridblock", "--seed", "5", "--players", "2", "--deal", "split")
    result = invoke(*args, "-o", str(path))
    assert result.exit_code == 0, result.output
    return path


# -- 1a: a time limit that ends before the first result ---------------------------------------
def _stopped_by_time(_: Any) -> None:
    from polytile.solvers.alphabeta import SearchStopped

    raise SearchStopped("time", 12, 0.5)


def test_errors_raised_in_workers_cross_back_whole() -> None:
    """Every error a worker may raise survives pickling with its attributes: one whose
    ``__init__`` does not take its message (SearchStopped) broke the process pool."""
    from polytile.errors import FormatError, OptionError, UnknownNameError
    from polytile.puzzles.gridblock.endgame import RoundStopped
    from polytile.puzzles.henning.endgame import EndgameStopped
    from polytile.puzzles.henning.kernel import KernelStopped
    from polytile.solvers.alphabeta import SearchStopped

    errors = [SearchStopped("time", 3, 1.5), RoundStopped("nodes", 4, 2.0),
              EndgameStopped("interrupt", 5, 0.1), KernelStopped(6),
              FormatError("bad", "f.json", "moves[2]"), OptionError("no", "--cell"),
              UnknownNameError("game", "chess", ["henning"])]  # fmt: skip
    for err in errors:
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err) and str(back) == str(err)
        assert back.__dict__ == err.__dict__


def test_a_search_stopped_in_a_worker_leaves_the_pool_whole() -> None:
    from polytile.solvers.alphabeta import SearchStopped
    from polytile.solvers.parallel import LocalExecutor

    with LocalExecutor(2) as ex, pytest.raises(SearchStopped) as stopped:
        list(ex.imap_unordered(_stopped_by_time, range(3)))
    assert stopped.value.reason == "time" and stopped.value.nodes == 12


def test_gridblock_view_out_of_time_before_one_combination(gridblock_split: Path) -> None:
    """``--view`` with a time limit that ends before a hand combination is solved says so
    and exits 1, as City Blocks (Henning)'s does (it ended with BrokenProcessPool, exit 3)."""
    args = ("solve-endgame", str(gridblock_split), "--move", "5", "--view")
    result = invoke(*args, "--time-limit", "0.5", "--workers", "2")
    assert result.exit_code == 1, result.output
    assert result.stderr.strip() == (f"{gridblock_split}: out of time (--time-limit) before a "
                                     "single hand combination was solved")  # fmt: skip


class _Lines:
    """A console that keeps what is printed."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def out(self, text: str = "", *, nl: bool = True, color: bool | None = None) -> None:
        self.lines.append(text)

    def err(self, text: str) -> None:
        self.lines.append(text)


def test_a_view_stopped_early_says_so_at_the_top_too() -> None:
    """After Ctrl-C the first lines said "every one solved exactly" and the last "stopped
    after 1 of 4": both now say how far the work got."""
    from polytile.puzzles.gridblock.report import _print_view
    from polytile.puzzles.gridblock.rules import Gridblock, Options
    from polytile.puzzles.gridblock.view import describe_hands, evaluate_view

    g = Gridblock.new(seed=2, options=Options(players=2))
    for _ in range(4 + 9):
        g.push_legal(g.legal_moves()[-1])

    def interrupt(done: int, total: int) -> None:
        raise KeyboardInterrupt

    a = evaluate_view(g, progress=interrupt)
    assert (a.evaluation.states, a.evaluation.planned, a.consistent) == (1, 4, 4)
    console = _Lines()
    _print_view(console, a, g, "yellow+green", describe_hands(g, g.to_move), 1)  # type: ignore[arg-type]
    text = "\n".join(console.lines)
    assert "every one solved exactly" not in text
    assert "all 4 to be solved exactly, 1 solved before the stop." in console.lines[0]
    assert "stopped by Ctrl-C after 1 of 4 combinations" in text
    whole = evaluate_view(g)
    console = _Lines()
    _print_view(console, whole, g, "yellow+green", describe_hands(g, g.to_move), 1)  # type: ignore[arg-type]
    assert console.lines[0].endswith("; every one solved exactly.")
