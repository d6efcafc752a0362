"""numba's ``njit`` for polytile's compiled kernels, with a fresh on-disk cache.

numba caches a compiled function next to its source (``__pycache__/*.nbi``, ``*.nbc``) and
checks only that function's own file when it loads it again, while the cached machine code
also holds every function it calls from other files. So an edit to a kernel's helper in
another module (a ``git pull`` into an editable install, say) would go on running the old
helper inside its callers. Importing this module first compares one stamp of every
polytile source file (paths, sizes and modification times) with the one kept beside the
cache; when they differ it deletes polytile's cached kernels, which numba then compiles
again. A normal install writes every file anew, so its first run compiles anyway.

The check is best effort: the cache is looked for wherever numba may keep it (beside the
sources, under ``NUMBA_CACHE_DIR``, or per user when the package folder is not writable),
and a folder it cannot write leaves things as they are.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from numba import njit as _numba_njit

__all__ = ["MARK_PREFIX", "cache_place", "clear_stale_cache", "njit"]

#: numba's ``njit``, typed loosely: numba's stubs know neither its private options (the
#: kernels pass ``_nrt=False``) nor the compiled signatures, so type checkers see the
#: decorated kernels as untyped callables instead of reporting every decoration.
njit: Callable[..., Any] = _numba_njit

_STAMP = "polytile-numba-sources.stamp"

#: The files :mod:`polytile._warm` writes beside a cache once an engine is compiled: they
#: go with the cache when it is cleared.
MARK_PREFIX = "polytile-compiled-"


def _stamp(root: Path) -> str:
    """A digest of the path, size and modification time of every ``.py`` file under
    ``root``."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        info = path.stat()
        digest.update(f"{path.relative_to(root)}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def _cache_dirs(folder: Path) -> list[Path]:
    """The folders where numba may keep the cache of ``folder``'s modules: its
    ``__pycache__``, and where numba goes instead when ``NUMBA_CACHE_DIR`` is set or that
    folder is not writable (a subfolder named after ``folder`` under the set or the
    per-user cache folder)."""
    dirs = [folder / "__pycache__"]
    try:  # numba's own naming of those subfolders (not a public API: best effort)
        from numba.core import caching, config
        from numba.misc.appdirs import AppDirs

        sub = caching._CacheLocator.get_suitable_cache_subpath(str(folder / "_.py"))
        chosen = getattr(config, "CACHE_DIR", "")  # set at run time from NUMBA_CACHE_DIR
        if chosen:
            dirs.append(Path(chosen) / sub)
        dirs.append(Path(AppDirs(appname="numba", appauthor=False).user_cache_dir) / sub)
    except (ImportError, AttributeError):
        pass
    return dirs


def cache_place(folder: Path) -> Path | None:
    """The first of numba's places for ``folder``'s cache (:func:`_cache_dirs`) that can be
    written, in numba's order (``NUMBA_CACHE_DIR`` first when set), created if need be;
    None when none can."""
    places = _cache_dirs(folder)
    if os.environ.get("NUMBA_CACHE_DIR") and len(places) > 1:
        places = places[1:]  # numba writes there first when it is set
    for place in places:
        try:
            place.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(place, os.W_OK):
            return place
    return None


def clear_stale_cache(root: str | os.PathLike[str]) -> int:
    """Delete numba's cached kernels of the modules under ``root`` if any source file there
    changed since the last call; return how many cache files were deleted.

    Parameters
    ----------
    root
        A package folder (polytile's own when this module is imported).

    Returns
    -------
    int
        Cache files deleted (0 when nothing changed, or nothing could be read or written).

    Notes
    -----
    One ``stat`` per source file (about 150 for polytile: a few milliseconds). The cache of
    a module is looked for wherever numba may keep it (:func:`_cache_dirs`), by the
    module's name.

    Examples
    --------
    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> _ = (root / "kernel.py").write_text("x = 1\\n")
    >>> (root / "__pycache__").mkdir()
    >>> _ = (root / "__pycache__" / "kernel.f-1.py311.nbi").write_bytes(b"")
    >>> clear_stale_cache(root)  # no stamp yet: the cache cannot be trusted
    1
    >>> clear_stale_cache(root)
    0
    """
    root = Path(root)
    try:
        now = _stamp(root)
    except OSError:
        return 0
    # The stamp goes in the first of numba's places for the package that can be written
    # (beside the sources unless that folder is read-only); nowhere writable: no clearing,
    # which would otherwise repeat (and recompile everything) at every start.
    for place in _cache_dirs(root):
        stamp_file = place / _STAMP
        try:
            if stamp_file.exists() and stamp_file.read_text() == now:
                return 0
            place.mkdir(parents=True, exist_ok=True)
            # Written aside and moved into place, so that another process (a test
            # worker) never reads half a stamp and clears what was just compiled.
            part = stamp_file.with_suffix(f".{os.getpid()}.part")
            part.write_text(now)
            os.replace(part, stamp_file)
        except OSError:
            continue
        return _clear(root)
    return 0


def _clear(root: Path) -> int:
    """Delete the cached kernels of every module under ``root``, wherever numba keeps
    them; how many files."""
    folders: dict[Path, list[str]] = {}
    for source in root.rglob("*.py"):
        folders.setdefault(source.parent, []).append(source.stem)
    deleted = 0
    for folder, stems in folders.items():
        for place in _cache_dirs(folder):
            if not place.is_dir():
                continue
            marks = list(place.glob(f"{MARK_PREFIX}*"))
            for cached in marks:
                with contextlib.suppress(OSError):
                    cached.unlink(missing_ok=True)
            for stem in stems:
                for cached in [*place.glob(f"{stem}.*.nbi"), *place.glob(f"{stem}.*.nbc")]:
                    try:
                        cached.unlink(missing_ok=True)
                        deleted += 1
                    except OSError:
                        pass
    return deleted


clear_stale_cache(Path(__file__).resolve().parent)
