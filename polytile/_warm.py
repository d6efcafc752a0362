"""Compiling a numba engine once, in a process of its own, so that no compile is thrown away.

numba compiles a kernel the first time it runs after installing (30-70 s for the Blokus
endgame search on a 2-core machine, quiet to busy) and keeps the result on disk. A command
that ran the compile itself and reached its time limit first used to end, and the compile ended with
it: every short run started it again and none finished. Here a command that finds its
engine not compiled yet starts ``python -m polytile._warm ENGINE``, a process of its own
session that compiles the engine by running it on a small problem, writes a mark beside
numba's cache when done, and goes on when the command ends (Ctrl-C or its time limit). The
command waits for the mark, with a progress line, as long as its time limit allows; later
commands find the mark and load the compiled code from disk at once.

One process compiles an engine at a time (a lock beside the mark); a second command's
helper waits on the lock and finds the mark. ``_jit.clear_stale_cache`` deletes the marks
with the cache when a source file changes, so a mark never outlives the code it vouches for.

The engines are named in :data:`ENGINES` as ``module:function`` strings (nothing is
imported until one is asked for); each function runs its engine on a small problem.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from polytile.faces.face import Console

__all__ = [
    "ENGINES",
    "TITLES",
    "TYPICAL",
    "USUAL_SECONDS",
    "NotCompiled",
    "compiled",
    "compiled_or_started",
    "ensure_compiled",
    "is_compiled",
    "start_compile",
]

#: Each compiled engine: the module whose folder holds its cache, and the ``module:function``
#: that runs it on a small problem (compiling whatever it calls).
ENGINES: dict[str, str] = {
    "blokus-endgame": "polytile.puzzles.blokus.warm:warm_up",
    "henning-kernel": "polytile.puzzles.henning.kernel:warm_up",
    "walkable-path": "polytile.puzzles.walkable.path:warm_up",
    "walkable-phase": "polytile.puzzles.walkable.phase:warm_up",
    "gridblock-solo": "polytile.puzzles.gridblock.solo:warm_up",
    "tiling": "polytile.puzzles.tiling.warm:warm_up",
}

#: What each engine is, for the messages.
TITLES: dict[str, str] = {
    "blokus-endgame": "the Blokus exact endgame search",
    "henning-kernel": "the City Blocks (Henning) exact search",
    "walkable-path": "the Walkable Cities largest-path search",
    "walkable-phase": "the Walkable Cities drop-phase best responses",
    "gridblock-solo": "the Gridblock solitaire search",
    "tiling": "the tiling search of count and solve",
}

#: How long each engine's compile takes on a 2-core machine, for the messages.
TYPICAL: dict[str, str] = {
    "blokus-endgame": "40-80 s",
    "henning-kernel": "10-30 s",
    "walkable-path": "about 10 s",
    "walkable-phase": "about 10 s",
    "gridblock-solo": "5-15 s",
    "tiling": "about 10 s",
}


#: The same in seconds, for progress bars.
USUAL_SECONDS: dict[str, int] = {
    "blokus-endgame": 40,
    "henning-kernel": 15,
    "walkable-path": 10,
    "walkable-phase": 10,
    "gridblock-solo": 15,
    "tiling": 10,
}


class NotCompiled(Exception):
    """The engine's compile goes on in the background past the caller's deadline."""

    def __init__(self, engine: str, waited: float) -> None:
        super().__init__(
            f"numba is compiling {TITLES.get(engine, engine)} (once after installing; "
            f"{TYPICAL.get(engine, 'a minute or less')} on a 2-core machine) in a background "
            "process, which goes on after this "
            f"command ends; waited {waited:.0f} s. Run the command again when it is done "
            "(later runs load the compiled search in about a second)"
        )
        self.engine, self.waited = engine, waited


def _target(engine: str, target: str | None = None) -> tuple[str, str]:
    module, _, function = (target or ENGINES[engine]).partition(":")
    return module, function


def _mark(engine: str, target: str | None = None) -> Path | None:
    """Where ``engine``'s mark is kept (None: nowhere writable)."""
    module, _ = _target(engine, target)
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return None
    # numba's cache places, read from numba itself: imported here, when a compiled engine is
    # wanted, not by every command that imports this module (numba takes 0.2-0.4 s to import)
    from polytile._jit import MARK_PREFIX, cache_place

    place = cache_place(Path(spec.origin).parent)
    return None if place is None else place / f"{MARK_PREFIX}{engine}"


def is_compiled(engine: str) -> bool:
    """Whether ``engine`` was compiled and cached since its sources last changed."""
    mark = _mark(engine)
    return mark is not None and mark.exists()


#: The helper started by this process for each engine, if any.
_helpers: dict[str, subprocess.Popen[bytes]] = {}
_starting = threading.Lock()
#: The folder holding the polytile package this process imported.
_HOME = str(Path(__file__).resolve().parent.parent)


def start_compile(engine: str) -> None:
    """Start compiling ``engine`` in the background if it is not compiled yet and no helper
    of this process is at it: a command calls this as early as it knows it may need the
    engine, so that the compile overlaps what it does first."""
    mark = _mark(engine)
    with _starting:  # the web board asks from two threads (its work, the engine's thinking)
        if mark is None or mark.exists() or engine in _helpers:
            return
        _helpers[engine] = subprocess.Popen(
            [sys.executable, "-m", "polytile._warm", engine, ENGINES[engine]],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            start_new_session=True,  # Ctrl-C at the terminal reaches the command, not it
            # "-m" looks in the working folder first: from a checkout with polytile installed
            # apart (the README's quick start), the helper compiled the checkout's copy, and
            # the command then compiled its own inside its search. It runs where this
            # process's polytile is.
            cwd=_HOME,
        )  # fmt: skip


def compiled_or_started(engine: str) -> bool:
    """Whether ``engine``'s compiled code may be loaded now without compiling it here: True
    when it was compiled (or no mark can be kept, so that numba compiles where it always
    did); else False, its compile started in the background (:func:`start_compile`) for the
    next command. For code with a slower pure-Python way, which goes on with that."""
    mark = _mark(engine)
    if mark is None or mark.exists():
        return True
    start_compile(engine)
    return False


def ensure_compiled(engine: str, deadline: float | None = None,
                    progress: Callable[[float], None] | None = None) -> float:  # fmt: skip
    """Return once ``engine`` is compiled and cached, compiling it in a background process
    if it is not (:func:`start_compile`); ``deadline`` is a :func:`time.perf_counter` time,
    ``progress`` is called about once a second with the seconds waited. Returns the seconds
    waited: a caller holding a deadline of its own moves it on by as much.

    The wait is a pause of the command's clock (:func:`polytile._pause.pausing`): a
    whole-command time limit is for the work asked for, and the first compile after
    installing is not that work. So a command's ``deadline`` is moved on while it waits too;
    only a caller's own deadline (a test's, say) can end the wait.

    Where no mark can be written (a read-only install without a user cache), nothing is
    started and the caller compiles as numba always does; so too when the helper fails
    (its error is printed as a note).

    Raises
    ------
    NotCompiled
        At the deadline, the compile still running (it goes on after this process ends).
    KeyboardInterrupt
        At Ctrl-C: the compile goes on too.
    """
    mark = _mark(engine)
    if mark is None or mark.exists():
        return 0.0
    start_compile(engine)
    helper = _helpers[engine]
    started = last = time.perf_counter()
    from polytile._pause import pausing

    with pausing():
        while not mark.exists():
            now = time.perf_counter()
            if helper.poll() is not None and not mark.exists():
                error = (helper.stderr.read() if helper.stderr else b"").decode(
                    errors="replace")  # fmt: skip
                if error.strip():
                    print(f"note: the background compile failed:\n{error.strip()}",
                          file=sys.stderr)  # fmt: skip
                break
            if deadline is not None and now >= deadline:
                raise NotCompiled(engine, now - started)
            if progress is not None and now - last >= 1.0:
                progress(now - started)
                last = now
            time.sleep(0.1)
    return time.perf_counter() - started


def compiled(console: Console, engine: str, deadline: float | None = None,
             show: bool = True) -> float:  # fmt: skip
    """Return once numba has compiled ``engine`` (a name of :data:`polytile._warm.ENGINES`),
    showing a progress bar while it compiles: once after installing, in a process of its own
    that goes on when this command ends (Ctrl-C does not throw it away). The command's clock
    stands still meanwhile (:func:`ensure_compiled`): its time limit is for its search.

    ``deadline`` (a :func:`time.perf_counter` time) ends the wait early, for callers other
    than a command; ``show`` False hides the bar. Returns the seconds waited.

    Raises
    ------
    NotCompiled
        At ``deadline``, the compile still going (its message says so).
    """
    from types import SimpleNamespace

    if is_compiled(engine):
        return 0.0
    usual, title = USUAL_SECONDS.get(engine, 60), TITLES.get(engine, engine)
    with console.progress("compiling", show, lambda p: f"{title} (numba, once after "
                          "installing)") as update:  # fmt: skip

        def waited(seconds: float) -> None:  # a bar towards the usual time
            if update is not None:
                update(SimpleNamespace(done=min(int(seconds), usual - 1), total=usual,
                                       seconds=seconds))  # fmt: skip

        return ensure_compiled(engine, deadline, waited)


def _compile(engine: str, target: str) -> int:
    """The helper process: compile ``engine`` (``target`` runs it) unless another did, then
    write the mark."""
    mark = _mark(engine, target)
    if mark is None:
        return 1
    mark.parent.mkdir(parents=True, exist_ok=True)
    import fcntl

    with open(mark.with_suffix(".lock"), "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one compile at a time; the next finds the mark
        if mark.exists():
            return 0
        module, function = _target(engine, target)
        getattr(importlib.import_module(module), function)()
        part = mark.with_suffix(f".{os.getpid()}.part")
        part.write_text(f"{time.time()}\n")
        os.replace(part, mark)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python -m polytile._warm ENGINE MODULE:FUNCTION")
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(_compile(sys.argv[1], sys.argv[2]))
