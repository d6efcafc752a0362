"""Helpers shared by the CLI tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from click.testing import Result

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

Invoke = Callable[..., Result]


def assert_clean_failure(result: Result, code: int = 2) -> None:
    """Exit ``code`` with a message on stderr and no traceback anywhere."""
    assert result.exit_code == code, (result.stdout, result.stderr)
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stderr.strip(), "a failure must say why on stderr"
