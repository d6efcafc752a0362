"""Compiling an engine in a process of its own (:mod:`polytile._warm`): a time limit that
ends first leaves the compile running, the next call finds it done, a failed compile falls
back to compiling in the caller, and the marks go with a stale cache (issue 36, item 8)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

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


def test_walkable_path_waits_for_its_compile_within_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A first 'solve walkable-path' whose limit ends before numba's compile does says so
    and exits 1 (the compile goes on in its own process), where a deadline inside the
    compile used to end in an internal error (exit 3)."""
    from click.testing import CliRunner

    from polytile.cli import cli

    asked: list[str] = []

    def still_compiling(engine: str, deadline: float | None = None, progress: object = None,
                        ) -> None:  # fmt: skip
        asked.append(engine)
        raise _warm.NotCompiled(engine, 1.0)

    monkeypatch.setattr(_warm, "ensure_compiled", still_compiling)
    result = CliRunner().invoke(cli, ["solve", "walkable-path", "--pieces", "1",
                                      "--time-limit", "2"])  # fmt: skip
    assert asked == ["walkable-path"]
    assert result.exit_code == 1, result.output
    assert "before the search started" in result.stderr and "about 10 s" in result.stderr
