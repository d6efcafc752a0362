"""Analyses for the web board: ``solve-endgame`` through the game's face, each in a process of
its own, never on the server's event loop.

Each analysis is a :class:`multiprocessing.Process` (started by a fork server where there
is one: quick to start, and no fork of a process with threads) that reads the position with
the face, calls :meth:`~polytile.faces.face.EndgameFace.solve_endgame` with a
:class:`~polytile.faces.face.EndgameRequest` carrying the time limit the person set, and
sends back its answer as ``solve-endgame --json`` gives it (exact values, estimates
labelled as estimates, bounds; a refusal in the game's words), the best moves the face
reads in it (:meth:`~polytile.faces.face.EndgameFace.best_moves`) and the exit status the
CLI would have given. Progress lines come through
the same pipe.

:class:`Analyses` keeps at most one per tab (a new one stops the tab's last), at most
:data:`MOST_AT_ONCE` in all, stops one asked to, one past its limit, and one whose page has
stopped asking after it for :data:`ABANDONED` seconds (the tab went away); :meth:`close`
stops them all when the server stops.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import re
import secrets
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from polytile.serve.board import BoardError

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from polytile.serve.board import Record

__all__ = ["ABANDONED", "MODES", "MOST_AT_ONCE", "Analyses", "AnalysisOrder", "outcome"]

#: Analyses running at once, over every tab (each takes a core while it runs).
MOST_AT_ONCE = 6
#: Seconds without the page asking after an analysis before it is taken as abandoned.
ABANDONED = 15.0
#: Seconds an analysis may run past its limit (start-up, stopping) before it is killed.
GRACE = 10.0
#: The kinds of analysis, and the ``solve-endgame`` option each needs its game to declare.
MODES = {"exact": None, "open": "open_analysis", "view": "view", "record": None, "bounds": None}

#: What an analysis's exit status says, as the CLI's exit codes do.
OUTCOMES = {0: "answered", 1: "no exact value: an estimate or bounds instead, labelled (the "
               "report says why)", 2: "refused",
            3: "internal error", 130: "stopped"}  # fmt: skip
#: What an exit status says in a mode whose command gives it another meaning: ``bounds``
#: exits 1 when the time ran out before every colour was bounded (which an answer names), not
#: for want of an exact answer (#48); ``record`` (``analyse``) when a move is left unvalued.
MODE_OUTCOMES = {"bounds": {1: "incomplete: the time limit ran out before every colour was "
                               "bounded (those not bounded are named)"},
                 "record": {1: "incomplete: not every move is valued (the report says "
                               "which)"}}  # fmt: skip


def outcome(mode: str, code: int | None) -> str:
    """What exit status ``code`` of an analysis in ``mode`` says ("" while it runs)."""
    if code is None:
        return ""
    return MODE_OUTCOMES.get(mode, {}).get(code) or OUTCOMES.get(code, "")


@dataclass(frozen=True)
class AnalysisOrder:
    """What one analysis solves: the position after ``start`` moves of ``file`` (all of a
    position's), then the moves ``played``, for ``seconds`` in all, as ``mode`` asks
    (``record``: every move of that record, as ``polytile analyse`` does)."""

    game: str
    file: str
    kind: str
    start: int
    played: tuple[str, ...]
    seconds: float
    mode: str = "exact"

    @classmethod
    def of(cls, rec: Record, move: int, seconds: float, mode: str) -> AnalysisOrder:
        """The order for the position after ``move`` moves of ``rec``.

        Raises
        ------
        BoardError
            For a game with no endgame solver, or a mode it does not take.
        """
        from polytile.faces.face import EndgameFace
        from polytile.serve.board import analyses_record

        face = rec.face
        if mode not in MODES:
            raise BoardError(f"no analysis {mode[:40]!r}: {', '.join(MODES)}")
        if mode == "record":
            if not analyses_record(face, rec.kind):
                raise BoardError(f"{face.title} {rec.kind}s are not analysed move by move")
            return cls(face.name, rec.file, rec.kind, len(rec.base), tuple(rec.played),
                       seconds, mode)  # fmt: skip
        if mode == "bounds":
            from polytile.faces.bounds import BoundsFace

            if not isinstance(face, BoundsFace):
                raise BoardError(f"{face.title} has no bounds ('polytile bounds')")
        elif not isinstance(face, EndgameFace):
            raise BoardError(f"{face.title} has no exact endgame solver")
        else:
            option = MODES[mode]
            if option is not None and option not in face.endgame_options:
                raise BoardError(f"{face.title} has no analysis {mode!r}")
        start = min(move, len(rec.base))
        return cls(face.name, rec.file, rec.kind, start, tuple(rec.played[: move - start]),
                   seconds, mode)  # fmt: skip


@dataclass
class _Job:
    id: str
    tab: str
    order: AnalysisOrder
    process: Any
    conn: Connection
    started: float = field(default_factory=time.monotonic)
    seen: float = field(default_factory=time.monotonic)
    progress: str = ""
    notes: list[str] = field(default_factory=list)
    state: str = "running"  # running, done, stopped, failed
    code: int | None = None
    report: str = ""
    answer: dict[str, Any] | None = None
    best: tuple[str, ...] = ()
    reviews: list[dict[str, Any]] = field(default_factory=list)
    why: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"job": self.id, "state": self.state, "mode": self.order.mode,
                "seconds": round(time.monotonic() - self.started, 1),
                "limit": self.order.seconds, "progress": self.progress,
                "notes": self.notes[-20:], "code": self.code,
                "outcome": outcome(self.order.mode, self.code),
                "report": self.report, "answer": self.answer, "best": list(self.best),
                "reviews": self.reviews, "why": self.why}  # fmt: skip


class Analyses:
    """The analyses running for the pages, each in its own process.

    Parameters
    ----------
    folder
        Where an analysis of a variation writes the position it solves (the server's own
        temporary folder).
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.jobs: dict[str, _Job] = {}
        methods = multiprocessing.get_all_start_methods()
        self._context = multiprocessing.get_context(
            "forkserver" if "forkserver" in methods else "spawn")  # fmt: skip

    def start(self, tab: str, order: AnalysisOrder) -> str:
        """Start ``order`` for ``tab`` (stopping the tab's running one first); its job id.

        Raises
        ------
        BoardError
            (429) when :data:`MOST_AT_ONCE` analyses are running already.
        """
        self.reap()
        for job in self.jobs.values():
            if job.tab == tab and job.state == "running":
                self._stop(job, "stopped: a new analysis was asked for in its tab")
        if sum(job.state == "running" for job in self.jobs.values()) >= MOST_AT_ONCE:
            raise BoardError(f"{MOST_AT_ONCE} analyses are running already: wait for one to "
                             "end or stop one", 429)  # fmt: skip
        ours, theirs = self._context.Pipe(duplex=False)
        job_id = secrets.token_hex(8)
        process = self._context.Process(  # type: ignore[attr-defined]
            target=_work,
            args=(order, theirs, str(self.folder), job_id, os.getpid()),
            name=f"polytile-analysis-{job_id}",
        )  # not a daemon: a view analysis has workers
        process.start()
        theirs.close()
        self.jobs[job_id] = _Job(job_id, tab, order, process, ours)
        self._forget_old()
        return job_id

    def status(self, job_id: str) -> dict[str, Any]:
        """Where analysis ``job_id`` is: its progress, or its report when it has ended."""
        job = self._job(job_id)
        job.seen = time.monotonic()
        self._collect(job)
        return job.as_dict()

    def cancel(self, job_id: str) -> dict[str, Any]:
        """Stop analysis ``job_id`` (if still running); where it is."""
        job = self._job(job_id)
        self._collect(job)
        if job.state == "running":
            self._stop(job, "stopped when asked")
        return job.as_dict()

    def reap(self) -> None:
        """Stop the analyses past their limit and those no page asks after (called every
        second by the server, and before each start)."""
        now = time.monotonic()
        for job in list(self.jobs.values()):
            self._collect(job)
            if job.state != "running":
                continue
            if now - job.started > job.order.seconds + GRACE:
                self._stop(job, "stopped: past its time limit", state="failed")
            elif now - job.seen > ABANDONED:
                self._stop(job, "stopped: its page stopped asking after it")

    def running(self) -> int:
        """How many analyses are running."""
        return sum(job.process.is_alive() for job in self.jobs.values())

    def close(self) -> None:
        """Stop every analysis (the server is stopping)."""
        for job in self.jobs.values():
            _kill(job.process)
        for job in self.jobs.values():
            job.process.join(5)
            job.conn.close()

    # -- inside ------------------------------------------------------------------------

    def _job(self, job_id: str) -> _Job:
        job = self.jobs.get(job_id)
        if job is None:
            raise BoardError("no such analysis (it may have ended long ago)", 404)
        return job

    def _collect(self, job: _Job) -> None:
        """Read what the process sent; mark it ended when it has."""
        if job.state != "running":
            return
        try:
            while job.conn.poll():
                kind, payload = job.conn.recv()
                if kind == "progress":
                    job.progress = payload
                elif kind == "note":
                    job.notes.append(payload)
                elif kind == "done":
                    job.code, job.report, job.answer, job.best, job.reviews = payload
                    job.state = "done"
        except (EOFError, OSError):
            pass
        if job.state == "running" and not job.process.is_alive():
            job.state, job.why = "failed", "the analysis process ended without an answer"
        if job.state != "running":
            job.process.join(1)

    def _stop(self, job: _Job, why: str, state: str = "stopped") -> None:
        _kill(job.process)
        job.process.join(5)
        job.state, job.why = state, why

    def _forget_old(self, keep: int = 50) -> None:
        ended = [j for j in self.jobs.values() if j.state != "running"]
        for job in ended[: max(len(ended) - keep, 0)]:
            job.conn.close()
            del self.jobs[job.id]


def _kill(process: Any) -> None:
    """Kill an analysis process and its own workers (its process group, see :func:`_work`)."""
    if process.pid is None:
        return
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):  # not yet its own group, or gone
        with contextlib.suppress(ProcessLookupError):
            process.kill()


# -- the analysis process -------------------------------------------------------------------

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


class _PipeConsole:
    """A :class:`~polytile.faces.face.Console` keeping what the game prints and sending
    its progress (at most twice a second) to the server."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.parts: list[str] = []
        self._last = 0.0

    def out(self, text: str = "", *, nl: bool = True, color: bool | None = None) -> None:
        self.parts.append(text + ("\n" if nl else ""))

    def err(self, text: str) -> None:
        self.parts.append(text + "\n")
        self._send("note", _ANSI.sub("", text))

    def _send(self, kind: str, text: str, every: float = 0.0) -> None:
        now = time.monotonic()
        if every and now - self._last < every:
            return
        self._last = now
        with contextlib.suppress(OSError):
            self.conn.send((kind, text))

    @contextmanager
    def progress(self, label: str, enabled: bool, describe: Callable[[Any], str] | None = None,
                 ) -> Iterator[Callable[[Any], None] | None]:  # fmt: skip
        def update(p: Any) -> None:
            said = describe(p) if describe else f"{p.done:,} of {p.total:,}"
            self._send("progress", f"{label}: {said}, {p.seconds:.0f} s", every=0.5)

        yield update

    @contextmanager
    def search_progress(self, label: str, enabled: bool,
                        ) -> Iterator[Callable[[int, float], None]]:  # fmt: skip
        def update(positions: int, seconds: float) -> None:
            self._send("progress", f"{label}: {positions:,} positions, {seconds:.0f} s",
                       every=0.5)  # fmt: skip

        yield update

    def text(self) -> str:
        return _ANSI.sub("", "".join(self.parts))


def _work(order: AnalysisOrder, conn: Connection, folder: str, job_id: str,
          server: int) -> None:  # fmt: skip
    """The analysis process: solve, send ``("done", (exit status, what was printed, the
    answer as JSON or None, its best moves in play's notation))``.

    It leads a process group of its own, so that stopping it stops the workers a view
    analysis starts too, and Ctrl-C in the server's terminal reaches only the server (which
    stops it). Should the server die without stopping it, it ends itself within a second.
    """
    with contextlib.suppress(OSError):
        os.setsid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch, args=(server,), daemon=True).start()
    console = _PipeConsole(conn)
    code = 0
    try:
        code = _solve(order, console, folder, job_id)
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else 1
    except Exception as exc:
        from polytile.errors import OptionError, PolytileError

        if isinstance(exc, OptionError | PolytileError | ValueError):
            code = 2
            console.out(f"{getattr(exc, 'message', None) or exc}")
        else:
            code = 3
            console.out(f"internal error ({type(exc).__name__}: {exc})")
    text = console.text()
    answer, best = _answer(order, text)
    reviews = _reviews(order, answer) if order.mode == "record" else []
    with contextlib.suppress(OSError):
        conn.send(("done", (code, text, answer, best, reviews)))
    conn.close()


def _answer(order: AnalysisOrder, text: str) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
    """The JSON answer ``solve-endgame --json`` printed (its first line that is a JSON
    object) and the best moves the face reads in it."""
    import json

    from polytile.faces.face import EndgameFace
    from polytile.faces.registry import face

    decoder = json.JSONDecoder()
    for start in (m.start() for m in re.finditer(r"^\{", text, re.MULTILINE)):
        try:
            answer, _ = decoder.raw_decode(text, start)
        except ValueError:
            continue
        if isinstance(answer, dict):
            game = face(order.game)
            best = game.best_moves(answer) if isinstance(game, EndgameFace) and (
                order.mode != "bounds") else ()  # fmt: skip
            return answer, tuple(best)
    return None, ()


def _reviews(order: AnalysisOrder, answer: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Each move an ``analyse --json`` answer reviews: its number, what it lost, a best
    move in its place in play's notation (read by the face when the answer writes it
    another way), the values before and after it (the page's evaluation graph) and whether
    the values are estimates."""
    from polytile.faces.face import EndgameFace
    from polytile.faces.registry import face

    game = face(order.game)
    rows = answer.get("moves") if answer else None
    found = []
    for row in rows if isinstance(rows, list) else ():
        if not isinstance(row, dict) or not isinstance(row.get("number"), int):
            continue
        best = row.get("best_move")
        if not isinstance(best, str):
            named = game.best_moves({"best_move": best}) if isinstance(game, EndgameFace) else ()
            best = named[0] if named else ""
        loss = row.get("loss")
        values = {key: v if isinstance(v := row.get(f"value_{key}"), int | float)
                  and not isinstance(v, bool) else None for key in ("before", "after")}
        found.append({"number": row["number"], "best": best,
                      "loss": loss if isinstance(loss, int | float) else None,
                      "value_before": values["before"], "value_after": values["after"],
                      "estimate": row.get("kind") == "estimate"})  # fmt: skip
    return found


def _watch(server: int) -> None:
    """End this analysis's process group once the server ``server`` is gone."""
    while True:
        time.sleep(1.0)
        try:
            os.kill(server, 0)
        except ProcessLookupError:
            os.killpg(os.getpgrp(), signal.SIGKILL)
        except PermissionError:  # pragma: no cover - another user's process took the pid
            os.killpg(os.getpgrp(), signal.SIGKILL)


def _solve(order: AnalysisOrder, console: _PipeConsole, folder: str, job_id: str) -> int:
    from polytile.cli.clock import start_command
    from polytile.faces.registry import face

    start_command(False)  # the limit counts from now, not from the fork server's start
    game = face(order.game)
    file, move = order.file, (order.start if order.kind == "record" else None)
    if order.played:  # a variation: the position as its game writes it, in our folder
        doc = game.read(order.file, move)
        for text in order.played:
            game.play_move(doc, text)
        suffix = os.path.splitext(order.file)[1] or ".json"
        path = Path(folder) / f"analysis-{job_id}{suffix}"
        path.write_text(game.dumps(doc))
        file, move = str(path), None
    try:
        if order.mode == "record":
            _analyse_record(game, console, file, order.seconds)
        elif order.mode == "bounds":
            _bounds(game, console, file, move, order.seconds)
        else:
            _solve_endgame(game, console, file, move, order)
    finally:
        if order.played:
            Path(file).unlink(missing_ok=True)
    return 0


def _analyse_record(game: Any, console: _PipeConsole, file: str, seconds: float) -> None:
    """``polytile analyse --json`` through the face (:mod:`polytile.faces.analysis`)."""
    from polytile.cli.clock import CLOCK
    from polytile.faces.analysis import AnalyseFace, AnalyseRequest, OwnAnalysisFace

    request = AnalyseRequest(CLOCK, seconds, as_json=True)
    if isinstance(game, AnalyseFace):
        game.analyse(console, file, request)
    elif isinstance(game, OwnAnalysisFace):
        game.analyse_own(console, file, request)


def _bounds(game: Any, console: _PipeConsole, file: str, move: int | None,
            seconds: float) -> None:  # fmt: skip
    """``polytile bounds --color all --json`` through the face
    (:mod:`polytile.faces.bounds`)."""
    from polytile.cli.clock import CLOCK
    from polytile.faces.bounds import BoundsRequest

    game.bounds(console, file, BoundsRequest(CLOCK, "all", as_json=True, time_limit=seconds,
                                             workers=1, move=move))  # fmt: skip


def _solve_endgame(game: Any, console: _PipeConsole, file: str, move: int | None,
                   order: AnalysisOrder) -> None:  # fmt: skip
    """``polytile solve-endgame --json`` through the face."""
    from polytile.cli.clock import CLOCK
    from polytile.faces.face import EndgameFace, EndgameRequest

    assert isinstance(game, EndgameFace)  # checked by AnalysisOrder.of
    given = {"exact": frozenset(), "open": frozenset({"open_analysis"}),
             "view": frozenset({"view"})}[order.mode]  # fmt: skip
    request = EndgameRequest(
        move=move, as_json=True,
        time_limit=CLOCK.left(order.seconds, reserve=0.25) or order.seconds,
        open_analysis=order.mode == "open", view="to-move" if order.mode == "view" else None,
        workers=1, color=False, limit=order.seconds, clock=CLOCK, given=given,
    )  # fmt: skip
    game.solve_endgame(console, file, request)
