"""The numba cache guard (polytile._jit): a changed source file clears cached kernels."""

from __future__ import annotations

import os
from pathlib import Path

from polytile._jit import clear_stale_cache


def _cache(root: Path) -> list[Path]:
    return sorted(root.rglob("__pycache__/*.nb[ic]"))


def _write_cache(root: Path) -> None:
    """A cached kernel of each module, named as numba names them."""
    for folder, module in ((root, "caller"), (root / "sub", "helper")):
        (folder / "__pycache__").mkdir(parents=True, exist_ok=True)
        (folder / "__pycache__" / f"{module}.f-1.py311.nbi").write_bytes(b"index")
        (folder / "__pycache__" / f"{module}.f-1.py311.1.nbc").write_bytes(b"code")


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


def test_a_cache_under_numba_cache_dir_is_cleared_too(tmp_path: Path, monkeypatch) -> None:
    from numba.core import config

    from polytile._jit import _cache_dirs

    package, elsewhere = tmp_path / "pkg", tmp_path / "numba-cache"
    package.mkdir()
    (package / "kernel.py").write_text("x = 1\n")
    monkeypatch.setattr(config, "CACHE_DIR", str(elsewhere))
    place = _cache_dirs(package)[1]  # where numba puts pkg's cache under NUMBA_CACHE_DIR
    assert place.parent == elsewhere
    place.mkdir(parents=True)
    ours = place / "kernel.f-1.py311.nbi"
    theirs = place / "other.f-1.py311.nbi"  # not a module of pkg: never touched
    ours.write_bytes(b"")
    theirs.write_bytes(b"")
    assert clear_stale_cache(package) == 1
    assert not ours.exists() and theirs.exists()


def test_a_missing_folder_is_left_alone(tmp_path: Path) -> None:
    assert clear_stale_cache(tmp_path / "missing") == 0
