"""A puzzle set in one SQLite file: puzzles, their solutions and ratings, and generation jobs.

SQLite (standard library) is the store: one file a designer can copy, transactions that
survive a killed process, and a ``UNIQUE`` key that keeps duplicates out.

Tables
------
``puzzles``
    One row per puzzle: kind, parameters (JSON), seed and candidate index it came from,
    canonical ``key`` (unique: the same puzzle turned or flipped is refused), the puzzle and
    solution documents (JSON), the solution count (1), the difficulty and the search figures.
``jobs``
    One row per generation run, keyed by kind + parameters + seed: how many puzzles it wants
    and the next candidate index to try. A puzzle and its job's progress are written in one
    transaction, so a run killed at any instant resumes exactly where its last commit left it,
    without losing or duplicating a puzzle.

The store names no kind of puzzle: each row says its kind, and that kind
(:func:`polytile.store.kinds.kind`) writes and reads its documents.

Several processes may use one store: readers never wait, and writers take turns (each holds
the write lock for one short transaction). When another process holds the lock for long (an
open ``sqlite3`` shell, say), the store tells ``on_wait`` after :data:`LOCK_NOTICE` seconds
and gives up after ``lock_timeout`` (:data:`LOCK_TIMEOUT`) with :class:`StoreLockedError`.

Examples
--------
>>> from polytile.store.db import PuzzleStore
>>> with PuzzleStore(":memory:") as db:
...     job = db.job("packing", {"pieces": "pentominoes"}, seed=1, target=3)
...     (job.done, job.next_index, db.count())
(0, 0, 0)
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from polytile._files import parse_json, short
from polytile.errors import FormatError, PolytileError, StoreLockedError
from polytile.store.kinds import kind as _kind
from polytile.text import printable

if TYPE_CHECKING:
    from polytile.store.candidates import Candidate

__all__ = ["LOCK_NOTICE", "LOCK_TIMEOUT", "Job", "PuzzleStore", "StoredPuzzle"]

SCHEMA_VERSION = 1

LOCK_NOTICE = 1.0
"""Seconds of waiting for another process's lock before ``on_wait`` is told."""

LOCK_TIMEOUT = 60.0
"""Seconds of waiting for another process's lock before giving up (the default)."""

_T = TypeVar("_T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    params TEXT NOT NULL,
    seed INTEGER NOT NULL,
    target INTEGER NOT NULL,
    next_index INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS puzzles (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    params TEXT NOT NULL,
    seed INTEGER NOT NULL,
    candidate INTEGER NOT NULL,
    job TEXT REFERENCES jobs(id),
    key TEXT NOT NULL UNIQUE,
    puzzle TEXT NOT NULL,
    solution TEXT NOT NULL,
    solutions INTEGER NOT NULL,
    difficulty REAL NOT NULL,
    stats TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE INDEX IF NOT EXISTS puzzles_job ON puzzles(job);
CREATE INDEX IF NOT EXISTS puzzles_difficulty ON puzzles(difficulty);
"""


@dataclass(frozen=True)
class Job:
    """A generation run: ``target`` puzzles wanted, ``done`` stored, next candidate index."""

    id: str
    kind: str
    params: dict[str, Any]
    seed: int
    target: int
    next_index: int
    done: int


@dataclass(frozen=True)
class StoredPuzzle:
    """A puzzle row, documents decoded."""

    id: int
    kind: str
    params: dict[str, Any]
    seed: int
    candidate: int
    key: str
    puzzle: Any  # the kind's own puzzle object, read by its kind; None for an unknown kind
    puzzle_json: dict[str, Any]
    solution_json: str
    solutions: int
    difficulty: float
    stats: dict[str, Any]

    @property
    def known(self) -> bool:
        """Whether this version knows the puzzle's kind (a store may hold rows of a kind
        added later, or of a kind since renamed: they are listed, never read)."""
        return self.puzzle is not None

    def unknown(self) -> str:
        """What is wrong with a row of an unknown kind, after ``puzzle N: ``."""
        from polytile.faces.registry import KINDS

        return (f"its kind {printable(short(self.kind))} is not one this version of polytile "
                f"knows ({', '.join(sorted(KINDS))})")  # fmt: skip

    def solution(self) -> Any:
        """The stored answer, read by the puzzle's kind (a :class:`polytile.formats.Solution`
        for tiling puzzles and teasers, the kind's own answer for the others)."""
        return _kind(self.kind).read_answer(self.solution_json, self.puzzle, f"puzzle {self.id}")


#: Longest stored document read (a puzzle on a 200 x 200 board takes some 40 KB).
MAX_STORED_CHARS = 4 * 1024 * 1024


def _known(kind: str) -> bool:
    from polytile.faces.registry import KINDS

    return kind in KINDS


def _integer(value: Any, name: str, path: str, where: str) -> int:
    """A stored integer column, or an error saying the row is damaged."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise FormatError(f"damaged: {name} {short(value)} is not an integer", path, where)
    return value


def _number(value: Any, name: str, path: str, where: str) -> float:
    """A stored real column (finite), or an error saying the row is damaged."""
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise FormatError(f"damaged: {name} {short(value)} is not a number", path, where)
    return float(value)


def _stored_json(text: Any, name: str, path: str, where: str) -> Any:
    """A stored JSON column, read as strictly as a file (depth, NaN, size), or an error
    saying the row is damaged."""
    if not isinstance(text, str) or not text.strip():
        raise FormatError(f"damaged: {name} is not JSON text", path, where)
    if len(text) > MAX_STORED_CHARS:
        raise FormatError(
            f"damaged: {name} is {len(text):,} characters long; polytile reads stored "
            f"documents of at most {MAX_STORED_CHARS:,}",
            path,
            where,
        )
    return parse_json(text, f"{path} {where} {name}")


def job_id(kind: str, params: dict[str, Any], seed: int) -> str:
    """The id of the run of ``kind`` with these parameters and seed."""
    text = json.dumps([kind, params, seed], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _busy(exc: sqlite3.OperationalError) -> bool:
    """True if SQLite refused because another connection holds a lock."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in str(exc)


class PuzzleStore:
    """An open puzzle store (created if the file does not exist, unless ``create`` is False:
    then an empty file is refused and left as it is).

    Parameters
    ----------
    path
        The SQLite file, or ``":memory:"``.
    create
        Create the store if the file is missing or empty.
    on_wait
        Told (a sentence naming the file) when a lock held by another process has been
        waited for :data:`LOCK_NOTICE` seconds; the wait goes on.
    lock_timeout
        Seconds to wait for such a lock in all [default: :data:`LOCK_TIMEOUT`].

    Raises
    ------
    FormatError
        If the file exists but is not a polytile puzzle store (or a newer version of one).
    StoreLockedError
        If another process holds the store's lock for more than ``lock_timeout`` seconds
        (here, or later in any method that writes; nothing committed is lost).
    """

    def __init__(
        self,
        path: str | Path,
        create: bool = True,
        *,
        on_wait: Callable[[str], None] | None = None,
        lock_timeout: float | None = None,
    ) -> None:
        self.path = str(path)
        self._on_wait = on_wait
        self._lock_timeout = LOCK_TIMEOUT if lock_timeout is None else lock_timeout
        if self.path != ":memory:":
            where = Path(self.path)
            if where.is_dir():
                raise FormatError("is a directory, not a puzzle store", self.path)
            if not where.parent.is_dir():
                raise PolytileError(f"cannot create {self.path}: no directory {where.parent}")
            if not create and (not where.exists() or where.stat().st_size == 0):
                raise FormatError(
                    "empty or missing, not a puzzle store (make one with 'polytile generate')",
                    self.path,
                )
        try:
            notice = min(LOCK_NOTICE, self._lock_timeout)
            self._db = sqlite3.connect(self.path, timeout=notice, isolation_level=None)
            self._db.execute("PRAGMA synchronous=NORMAL")
            tables = self._locked(self._open_wal)
        except StoreLockedError:
            self._db.close()
            raise
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # the latter: a damaged
            # schema whose text SQLite hands back undecodable
            raise FormatError(f"not a puzzle store (SQLite: {printable(str(exc))})",
                              self.path) from exc  # fmt: skip
        if tables and not {"puzzles", "jobs", "meta"} <= tables:
            self._db.close()
            raise FormatError("an SQLite file, but not a polytile puzzle store", self.path)
        if not tables and not create:
            self._db.close()
            raise FormatError("empty, not a puzzle store (make one with 'polytile generate')",
                              self.path)  # fmt: skip
        if not tables:
            self._locked(lambda: self._db.executescript(_SCHEMA))  # idempotent statements
        # Read first, so commands that only read never wait for another process's lock.
        row = self._db.execute("SELECT value FROM meta WHERE name='schema'").fetchone()
        if row is None:
            with self._transaction():
                self._db.execute(
                    "INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                )
        if row is not None and not re.fullmatch(r"[0-9]{1,9}", str(row[0])):
            self._db.close()
            raise FormatError(
                f"store schema {short(row[0])} is not a version number: a damaged store",
                self.path,
            )
        if row is not None and int(row[0]) > SCHEMA_VERSION:
            self._db.close()
            raise FormatError(
                f"store schema {row[0]} is newer than this polytile ({SCHEMA_VERSION})",
                self.path,
            )

    def __enter__(self) -> PuzzleStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def _open_wal(self) -> set[str]:
        # Look before switching: another program's SQLite file is refused as it was found,
        # byte for byte (WAL mode is written into the file's header).
        tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master")}
        if tables and not {"puzzles", "jobs", "meta"} <= tables:
            return tables
        self._db.execute("PRAGMA journal_mode=WAL")  # needs the lock unless already WAL
        return {r[0] for r in self._db.execute("SELECT name FROM sqlite_master")}

    def _locked(self, action: Callable[[], _T]) -> _T:
        """``action()``, which may wait for another process's lock: after the connection's
        short busy timeout (:data:`LOCK_NOTICE`) tell ``on_wait``, then wait out the rest of
        ``lock_timeout`` and give up with :class:`StoreLockedError`."""
        try:
            return action()
        except sqlite3.OperationalError as exc:
            if not _busy(exc):
                raise
        notice = min(LOCK_NOTICE, self._lock_timeout)
        if self._on_wait is not None:
            self._on_wait(
                f"waiting for the puzzle store {self.path}: another process holds its lock "
                f"(giving up after {self._lock_timeout:g} s)"
            )
        rest = max(0, round((self._lock_timeout - notice) * 1000))
        self._db.execute(f"PRAGMA busy_timeout={rest}")
        try:
            return action()
        except sqlite3.OperationalError as exc:
            if not _busy(exc):
                raise
            raise StoreLockedError(
                f"{self.path}: another process held the puzzle store's lock for "
                f"{self._lock_timeout:g} s, so this one gave up (what is stored is kept; "
                "try again when the other process is done)"
            ) from exc
        finally:
            self._db.execute(f"PRAGMA busy_timeout={round(notice * 1000)}")

    def _transaction(self) -> Any:
        db = self._db
        locked = self._locked

        class _Tx:
            def __enter__(self) -> None:
                locked(lambda: db.execute("BEGIN IMMEDIATE"))

            def __exit__(self, kind: object, *rest: object) -> None:
                db.execute("COMMIT" if kind is None else "ROLLBACK")

        return _Tx()

    # -- jobs ----------------------------------------------------------------------------
    def job(self, kind: str, params: dict[str, Any], seed: int, target: int) -> Job:
        """The job for this run, created or resumed; its target becomes ``target``."""
        jid = job_id(kind, params, seed)
        with self._transaction():
            self._db.execute(
                "INSERT INTO jobs (id, kind, params, seed, target) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET target=excluded.target",
                (jid, kind, json.dumps(params, sort_keys=True), seed, target),
            )
        return self.get_job(jid)

    def get_job(self, jid: str) -> Job:
        """A job by id."""
        row = self._db.execute(
            "SELECT id, kind, params, seed, target, next_index FROM jobs WHERE id=?", (jid,)
        ).fetchone()
        if row is None:
            raise PolytileError(f"no job {jid} in {self.path}")
        done = self._db.execute("SELECT COUNT(*) FROM puzzles WHERE job=?", (jid,)).fetchone()[0]
        where = f"job {short(row[0])}"
        for i, name in ((3, "seed"), (4, "target"), (5, "next_index")):
            _integer(row[i], name, self.path, where)
        params = _stored_json(row[2], "params", self.path, where)
        return Job(row[0], row[1], params, row[3], row[4], row[5], done)

    def record(self, job: Job, candidate: Candidate) -> bool:
        """Store a candidate's outcome for ``job`` in one transaction; True if a new puzzle
        was stored (False: dropped, a duplicate, recorded before, or the job is complete).

        Outcomes must come in candidate order: the job's next index moves past this one.
        """
        with self._transaction():
            row = self._db.execute(
                "SELECT next_index, target FROM jobs WHERE id=?", (job.id,)
            ).fetchone()
            done = self._db.execute(
                "SELECT COUNT(*) FROM puzzles WHERE job=?", (job.id,)
            ).fetchone()[0]
            if row is None or candidate.index < row[0] or done >= row[1]:
                return False  # recorded before (by another run of the job), or complete
            stored = False
            kind = _kind(job.kind)
            if (
                candidate.accepted
                and candidate.puzzle is not None
                and candidate.solution is not None
                and done < row[1]
            ):
                cur = self._db.execute(
                    "INSERT OR IGNORE INTO puzzles (kind, params, seed, candidate, job, key, "
                    "puzzle, solution, solutions, difficulty, stats) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)",
                    (
                        job.kind,
                        json.dumps(job.params, sort_keys=True),
                        job.seed,
                        candidate.index,
                        job.id,
                        candidate.key,
                        json.dumps(kind.puzzle_doc(candidate.puzzle)),
                        kind.answer_json(candidate.puzzle, candidate.solution),
                        candidate.difficulty,
                        json.dumps(candidate.stats, sort_keys=True),
                    ),
                )
                stored = cur.rowcount == 1
            self._db.execute(
                "UPDATE jobs SET next_index=? WHERE id=?", (candidate.index + 1, job.id)
            )
        return stored

    # -- reading -------------------------------------------------------------------------
    def kinds(self) -> list[str]:
        """The kinds of puzzle stored, sorted."""
        return [r[0] for r in self._db.execute("SELECT DISTINCT kind FROM puzzles ORDER BY kind")]

    def difficulties(self, job: str | None = None) -> list[float]:
        """Difficulties of the stored puzzles (of one job), in id order."""
        if job is None:
            rows = self._db.execute("SELECT difficulty FROM puzzles ORDER BY id")
        else:
            rows = self._db.execute(
                "SELECT difficulty FROM puzzles WHERE job=? ORDER BY id", (job,)
            )
        return [_number(r[0], "difficulty", self.path, "a puzzle") for r in rows]

    def count(self, kind: str | None = None) -> int:
        """Number of puzzles (of one kind)."""
        if kind is None:
            return int(self._db.execute("SELECT COUNT(*) FROM puzzles").fetchone()[0])
        return int(
            self._db.execute("SELECT COUNT(*) FROM puzzles WHERE kind=?", (kind,)).fetchone()[0]
        )

    def puzzles(
        self,
        kind: str | None = None,
        min_difficulty: float | None = None,
        max_difficulty: float | None = None,
        ids: list[int] | None = None,
    ) -> Iterator[StoredPuzzle]:
        """Stored puzzles in id order, optionally filtered."""
        where: list[str] = []
        args: list[Any] = []
        if kind is not None:
            where.append("kind=?")
            args.append(kind)
        if min_difficulty is not None:
            where.append("difficulty>=?")
            args.append(min_difficulty)
        if max_difficulty is not None:
            where.append("difficulty<=?")
            args.append(max_difficulty)
        if ids:
            where.append(f"id IN ({','.join('?' * len(ids))})")
            args.extend(ids)
        sql = (
            "SELECT id, kind, params, seed, candidate, key, puzzle, solution, solutions, "
            "difficulty, stats FROM puzzles"
        )
        if where:
            sql += " WHERE " + " AND ".join(where)
        for row in self._db.execute(sql + " ORDER BY id", args).fetchall():
            at = f"puzzle {short(row[0])}"
            for i, name in ((0, "id"), (3, "seed"), (4, "candidate"), (8, "solutions")):
                _integer(row[i], name, self.path, at)
            for i, name in ((1, "kind"), (5, "key")):
                if not isinstance(row[i], str):
                    raise FormatError(f"damaged: {name} is not text", self.path, at)
            _number(row[9], "difficulty", self.path, at)
            doc = _stored_json(row[6], "puzzle", self.path, at)
            params = _stored_json(row[2], "params", self.path, at)
            stats = _stored_json(row[10], "stats", self.path, at)
            _stored_json(row[7], "solution", self.path, at)
            yield StoredPuzzle(
                id=row[0],
                kind=row[1],
                params=params,
                seed=row[3],
                candidate=row[4],
                key=row[5],
                puzzle=_kind(row[1]).read_puzzle(doc, f"{self.path} puzzle {row[0]}")
                if _known(row[1])
                else None,
                puzzle_json=doc,
                solution_json=row[7],
                solutions=row[8],
                difficulty=float(row[9]),
                stats=stats,
            )

    def get(self, puzzle_id: int) -> StoredPuzzle:
        """One puzzle by id.

        Raises
        ------
        PolytileError
            If there is no such puzzle.
        """
        found = list(self.puzzles(ids=[puzzle_id]))
        if not found:
            raise PolytileError(f"no puzzle {puzzle_id} in {self.path} ({self.count()} stored)")
        return found[0]
