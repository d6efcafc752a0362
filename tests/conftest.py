"""Shared test settings: the size of the slow, exhaustive checks.

Tests marked ``slow`` read :func:`slow_scale`: ``"reduced"`` (the default, what ``.ci/run``
uses) keeps them to a few seconds each; ``POLYTILE_SLOW=full`` runs them at full size.
Deselect them entirely with ``-m "not slow"``.
"""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def slow_scale() -> str:
    """``"reduced"`` or ``"full"``, from the POLYTILE_SLOW environment variable."""
    value = os.environ.get("POLYTILE_SLOW", "reduced").strip().lower()
    if value not in ("reduced", "full"):
        raise pytest.UsageError(f"POLYTILE_SLOW must be 'reduced' or 'full', got {value!r}")
    return value
