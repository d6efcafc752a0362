"""Shared test settings: the size of the slow, exhaustive checks, and hypothesis without
per-example deadlines.

Tests marked ``slow`` read :func:`slow_scale`: ``"reduced"`` (the default, what ``.ci/run``
uses) keeps them to a few seconds each; ``POLYTILE_SLOW=full`` runs them at full size.
Deselect them entirely with ``-m "not slow"``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# No per-example deadline: a test's own assertions decide, not the machine's speed (a
# 200 ms deadline failed test_save_then_load on a machine kept busy; issue 48).
settings.register_profile("polytile", deadline=None)
settings.load_profile("polytile")


@pytest.fixture(scope="session")
def slow_scale() -> str:
    """``"reduced"`` or ``"full"``, from the POLYTILE_SLOW environment variable."""
    value = os.environ.get("POLYTILE_SLOW", "reduced").strip().lower()
    if value not in ("reduced", "full"):
        raise pytest.UsageError(f"POLYTILE_SLOW must be 'reduced' or 'full', got {value!r}")
    return value


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile the numba engines the commands compile in a process of their own
    (:mod:`polytile._warm`) before any test runs, once after installing: a first compile
    (40-70 s each) would otherwise be spent inside some test's time limit, which then ends
    with "numba is compiling" depending on the order the tests ran in. Both compile at once;
    with pytest-xdist the first process compiles and the others wait for it."""
    from polytile import _warm

    missing = [engine for engine in _warm.ENGINES if not _warm.is_compiled(engine)]
    if missing:
        print(f"compiling {', '.join(missing)} once (numba, first run after installing)")
    for engine in missing:
        _warm.start_compile(engine)
    for engine in missing:
        _warm.ensure_compiled(engine)
