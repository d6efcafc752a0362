"""The numba cache guard (polytile._jit): a changed source file clears cached kernels."""

from __future__ import annotations

import os
from pathlib import Path

from polytile._jit import clear_stale_cache


def _cache(root: Path) -> list[Path]:
    return sorted(root.rglob("__pycache__/*.nb[ic]"))


def _write_cache(root: Path) -> None:
    for folder in (root, root / "sub"):
        (folder / "__pycache__").mkdir(parents=True, exist_ok=True)
        (folder / "__pycache__" / "k.f-1.py311.nbi").write_bytes(b"index")
        (folder / "__pycache__" / "k.f-1.py311.1.nbc").write_bytes(b"code")


def test_an_edited_helper_in_another_file_clears_every_cached_kernel(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "caller.py").write_text("x = 1\n")
    helper = tmp_path / "sub" / "helper.py"
    helper.write_text("y = 2\n")
    _write_cache(tmp_path)
    assert clear_stale_cache(tmp_path) == 4  # no stamp yet: nothing cached is trusted
    _write_cache(tmp_path)
    assert clear_stale_cache(tmp_path) == 0  # nothing changed: the cache stays
    assert len(_cache(tmp_path)) == 4
    info = helper.stat()
    os.utime(helper, ns=(info.st_atime_ns, info.st_mtime_ns + 10**9))
    assert clear_stale_cache(tmp_path) == 4
    assert _cache(tmp_path) == []
    assert (tmp_path / "caller.py").read_text() == "x = 1\n"  # sources untouched


def test_an_unwritable_place_is_left_alone(tmp_path: Path) -> None:
    assert clear_stale_cache(tmp_path / "missing") == 0
