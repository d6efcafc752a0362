"""Compiling an engine in a process of its own (:mod:`polytile._warm`): a time limit that
ends first leaves the compile running, the next call finds it done, a failed compile falls
back to compiling in the caller, and the marks go with a stale cache (issue 36, item 8)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from polytile import _jit, _warm


def warm_slowly() -> None:
    """The test engine: a compile that takes a while."""
    time.sleep(1.5)


def warm_badly() -> None:
    raise RuntimeError("this engine does not compile")


@pytest.fixture
def engines(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Test engines, their marks kept under a numba cache folder of the test's own (the
    helper process reads it from the environment, this one from numba's config)."""
    from numba.core import config

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    monkeypatch.setitem(_warm.ENGINES, "slow", "tests.test_warm:warm_slowly")
    monkeypatch.setitem(_warm.ENGINES, "bad", "tests.test_warm:warm_badly")
    monkeypatch.setattr(_warm, "_helpers", {})
    mark = _warm._mark("slow")
    assert mark is not None and mark.is_relative_to(tmp_path)
    return mark.parent


def _wait_for(path: Path, most: float = 120.0) -> None:
    end = time.monotonic() + most
    while not path.exists() and time.monotonic() < end:
        time.sleep(0.1)


def test_a_deadline_leaves_the_compile_running_and_the_next_call_finds_it(engines: Path) -> None:
    assert not _warm.is_compiled("slow")
    with pytest.raises(_warm.NotCompiled, match=r"compiling slow .* goes on after this command"):
        _warm.ensure_compiled("slow", deadline=time.perf_counter())
    helper = _warm._helpers["slow"]
    assert helper.poll() is None  # still compiling: not killed with the deadline
    _wait_for(engines / f"{_jit.MARK_PREFIX}slow")
    assert _warm.is_compiled("slow") and helper.wait() == 0
    _warm._helpers.clear()
    _warm.ensure_compiled("slow", deadline=time.perf_counter())  # found: no wait, no helper
    assert "slow" not in _warm._helpers


def test_the_helper_compiles_the_polytile_this_process_runs(
    engines: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From a folder holding another polytile (a checkout, with the package installed
    apart, as the README's quick start has it), the helper compiled that copy: the first
    count after installing took 70 s, not 30. Here the other copy leaves a sentinel if it
    is run."""
    decoy = tmp_path / "elsewhere" / "polytile"
    decoy.mkdir(parents=True)
    (decoy / "__init__.py").write_text("")
    sentinel = tmp_path / "decoy-ran"
    (decoy / "_warm.py").write_text(f"open({str(sentinel)!r}, 'w').close()\n")
    monkeypatch.chdir(decoy.parent)
    _warm.start_compile("slow")
    assert _warm._helpers["slow"].wait() == 0
    assert not sentinel.exists() and _warm.is_compiled("slow")


def test_a_compile_that_fails_leaves_it_to_the_caller(
    engines: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _warm.ensure_compiled("bad")  # returns: the caller compiles in-process, as numba does
    assert not _warm.is_compiled("bad")
    err = capsys.readouterr().err
    assert "the background compile failed" in err and "this engine does not compile" in err


def test_the_marks_go_with_a_stale_cache(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    (root / "__pycache__").mkdir(parents=True)
    (root / "kernel.py").write_text("x = 1\n")
    mark = root / "__pycache__" / f"{_jit.MARK_PREFIX}kernel"
    mark.write_text("done\n")
    _jit.clear_stale_cache(root)  # no stamp yet: nothing cached can be trusted
    assert not mark.exists()
    mark.write_text("done\n")
    _jit.clear_stale_cache(root)
    assert mark.exists()  # the sources did not change
    (root / "kernel.py").write_text("x = 2  # changed\n")
    _jit.clear_stale_cache(root)
    assert not mark.exists()


@pytest.fixture
def first_compile(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, float | None]]:
    """Every engine not compiled yet: the engines waited for, in order, with the deadline
    each wait was given (the real compiled code is in place, so the work goes on)."""
    asked: list[tuple[str, float | None]] = []

    def ensure(engine: str, deadline: float | None = None, progress: object = None) -> float:
        asked.append((engine, deadline))
        return 0.0

    monkeypatch.setattr(_warm, "is_compiled", lambda engine: False)
    monkeypatch.setattr(_warm, "ensure_compiled", ensure)
    return asked


def _walkable_record(tmp_path: Path) -> str:
    from polytile.cli import cli

    path = tmp_path / "w.json"
    CliRunner().invoke(cli, ["selfplay", "walkable", "--seed", "3", "-o", str(path)])
    return str(path)


# Each command with a compiled engine, run as if it were not compiled yet.
FIRST_RUNS = {
    "solve walkable-path": (["solve", "walkable-path", "--pieces", "1"], "walkable-path"),
    "count": (["count", "pentomino-6x10", "--engine", "search"], "tiling"),
    "solve": (["solve", "pentomino-6x10"], "tiling"),
    "solve gridblock-solo": (["solve", "gridblock-solo"], "gridblock-solo"),
    "solve-endgame walkable": (["solve-endgame", "{walkable}", "--move", "16"], "walkable-phase"),
    "generate packing": (["generate", "packing", "-n", "1", "--db", "{db}", "--workers", "1"],
                         "tiling"),
    "generate gridblock-solo": (["generate", "gridblock-solo", "-n", "1", "--db", "{db}",
                                 "--workers", "1"], "gridblock-solo"),
}  # fmt: skip


@pytest.mark.parametrize("name", FIRST_RUNS)
def test_a_first_run_waits_for_its_compile_outside_its_limit(
    name: str, first_compile: list[tuple[str, float | None]], tmp_path: Path
) -> None:
    """A first run waits for numba's compile of its engine however long it takes, its time
    limit on hold (issue 48, item 4: the compile ate the limit, and the README's first
    example gave no answer); no command cuts the wait short at its deadline."""
    from polytile.cli import cli

    args, engine = FIRST_RUNS[name]
    places = {"walkable": _walkable_record(tmp_path) if "{walkable}" in args else "",
              "db": str(tmp_path / "set.db")}  # fmt: skip
    args = [a.format(**places) for a in args]
    result = CliRunner().invoke(cli, [*args, "--time-limit", "2"])
    assert first_compile == [(engine, None)], result.output
    assert result.exit_code != 3 and "compiling" not in result.stderr, result.output


def test_the_clock_stands_still_while_a_compile_is_waited_for(engines: Path) -> None:
    """Waiting for a compile (the test engine takes 1.5 s) is a pause of the command's clock:
    the whole-command limit does not count it, and an armed deadline's alarm is held
    meanwhile, then goes on with what it had left."""
    from polytile.cli import clock

    before = clock.elapsed()
    with clock.Deadline(1.0) as alarm:  # would go off inside the 1.5 s wait
        waited = _warm.ensure_compiled("slow")
        assert waited >= 1.5
        assert clock.elapsed() - before < waited - 1.0
    assert not alarm.fired
    assert _warm.is_compiled("slow")


def test_walkable_regions_stay_in_python_until_compiled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The board's largest regions switch to numba's code after a while in Python only once
    it is compiled; until then its compile is started in the background and the command
    goes on in Python (compiling it in the command took seconds of a time limit)."""
    import numpy as np

    from polytile.puzzles.walkable import board

    started: list[str] = []
    monkeypatch.setattr(_warm, "is_compiled", lambda engine: False)
    monkeypatch.setattr(_warm, "_mark", lambda engine, target=None: Path("/nonexistent/mark"))
    monkeypatch.setattr(_warm, "start_compile", started.append)
    monkeypatch.setattr(board, "_compiled", None)
    monkeypatch.setattr(board, "_spent", 10.0)  # long past the switch
    cells = board.seeded_boards(0)
    expected = board.largest_regions(cells)
    assert board._compiled is None and started == ["walkable-phase"]
    assert board._spent < 0  # asks again only after another minute in Python
    monkeypatch.setattr(_warm, "is_compiled", lambda engine: True)
    monkeypatch.setattr(board, "_spent", 10.0)
    assert np.array_equal(board.largest_regions(cells), expected)
    assert board._compiled is not None


def test_each_command_counts_its_own_compile_waits() -> None:
    """A command run inside a longer-lived process (CliRunner, a notebook) starts its clock
    with no pause: an earlier command's compile wait must not give it more time."""
    from polytile import _pause
    from polytile.cli import clock

    _pause.paused = 100.0  # an earlier command waited for a compile
    clock.start_command(whole_process=False)
    assert 0.0 <= clock.elapsed() < 5.0
