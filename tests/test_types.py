"""The package type-checks: mypy, with the settings in pyproject.toml, reports nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_errors(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")  # in the test extras; absent only outside them
    out, err, status = api.run(["--config-file", str(REPO / "pyproject.toml"),
                                "--cache-dir", str(tmp_path), str(REPO / "polytile")])  # fmt: skip
    assert status == 0, out + err
