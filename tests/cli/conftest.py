"""Fixtures for the CLI tests: run ``polytile`` in-process with click's CliRunner."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from polytile.cli import cli

from .helpers import EXAMPLES, Invoke


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
