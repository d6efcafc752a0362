"""Fixtures for the CLI tests: run ``polytile`` in-process with click's CliRunner."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from polytile.cli import cli

from .helpers import EXAMPLES, Invoke


@pytest.fixture(autouse=True)
def short_estimates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blokus ``solve-endgame`` estimates for 1 s, not a quarter of the limit (15 s of the
    default 60): the tests read what an estimate says, not how good it is, and an estimate
    of any length takes the same path (``test_endgame.py`` checks the shares themselves)."""
    from polytile.puzzles.blokus import endgame_verb

    monkeypatch.setattr(endgame_verb, "ESTIMATE_SHARE", 0.0)
    monkeypatch.setattr(endgame_verb, "ESTIMATE_LEAST", 1.0)


@pytest.fixture
def invoke() -> Invoke:
    """Run ``polytile ARGS`` and return the result (stdout and stderr kept apart)."""
    runner = CliRunner()

    def run(*args: str, input: str | bytes | None = None) -> Result:
        return runner.invoke(cli, list(args), input=input, catch_exceptions=False)

    return run


@pytest.fixture
def examples() -> Path:
    """The repository's examples/ folder."""
    return EXAMPLES
