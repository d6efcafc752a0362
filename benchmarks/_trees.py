"""The code of an earlier commit, for the benchmarks that run it beside this tree."""

from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def extract(rev: str, into: Path) -> Path:
    """``polytile/`` and ``seeds/`` of commit ``rev`` (``git archive``) unpacked into
    ``into``, which then goes on ``PYTHONPATH`` in place of this tree."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "polytile", "seeds"],
                          capture_output=True, check=True).stdout  # fmt: skip
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into
