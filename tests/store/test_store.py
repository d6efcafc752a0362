"""The puzzle store and set building: transactions, duplicates, resuming, determinism."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import pytest

from polytile.errors import FormatError, PolytileError, StoreLockedError
from polytile.puzzles.tiling.generate import PackingParams
from polytile.puzzles.tiling.puzzle_file import puzzle_doc
from polytile.solvers.parallel import LocalExecutor
from polytile.store import db as store
from polytile.store.db import PuzzleStore
from polytile.store.generate import make_candidate
from polytile.store.sets import build_set, verify_store

PARAMS = PackingParams(min_pieces=6, max_pieces=8)


def keys(db: PuzzleStore) -> list[str]:
    return [p.key for p in db.puzzles()]


def test_puzzles_round_trip(tmp_path: Path) -> None:
    cand = next(
        c for c in (make_candidate("packing", PARAMS, 4, i) for i in range(20)) if c.accepted
    )
    with PuzzleStore(tmp_path / "s.db") as db:
        job = db.job("packing", PARAMS.to_dict(), 4, 5)
        assert db.record(job, cand)
    with PuzzleStore(tmp_path / "s.db") as db:
        (sp,) = db.puzzles()
        assert cand.puzzle is not None
        assert sp.puzzle_json == puzzle_doc(cand.puzzle)
        assert sp.solution() == cand.solution
        assert sp.difficulty == cand.difficulty and sp.stats == cand.stats
        assert db.get_job(job.id).next_index == cand.index + 1
        with pytest.raises(PolytileError, match="no puzzle 99"):
            db.get(99)


def test_duplicates_and_stale_outcomes_are_refused(tmp_path: Path) -> None:
    cand = next(
        c for c in (make_candidate("packing", PARAMS, 4, i) for i in range(20)) if c.accepted
    )
    with PuzzleStore(tmp_path / "s.db") as db:
        a = db.job("packing", PARAMS.to_dict(), 4, 5)
        b = db.job("packing", PARAMS.to_dict(), 5, 5)  # another seed: another job
        assert db.record(a, cand)
        assert not db.record(b, cand)  # the same puzzle again
        assert not db.record(a, cand)  # an index already recorded
        assert db.count() == 1


def test_build_reaches_the_count_and_workers_do_not_change_the_set(tmp_path: Path) -> None:
    with PuzzleStore(tmp_path / "one.db") as one:
        report = build_set(one, "packing", PARAMS, 9, 8)
        assert report.stored == 8 and report.stopped_by is None and one.count() == 8
        serial = keys(one)
    with PuzzleStore(tmp_path / "two.db") as two, LocalExecutor(2) as ex:
        build_set(two, "packing", PARAMS, 9, 8, ex)
        assert keys(two) == serial
    with PuzzleStore(tmp_path / "one.db") as one:
        assert all(not reasons for _, reasons in verify_store(one))


def test_an_interrupted_build_resumes_to_the_same_set(tmp_path: Path) -> None:
    with PuzzleStore(tmp_path / "whole.db") as db:
        build_set(db, "packing", PARAMS, 3, 10)
        whole = keys(db)
    with PuzzleStore(tmp_path / "parts.db") as db:
        first = build_set(db, "packing", PARAMS, 3, 10, max_candidates=4)
        assert first.stopped_by is not None and db.count() < 10
        again = build_set(db, "packing", PARAMS, 3, 10)
        assert again.stopped_by is None
        assert keys(db) == whole
        assert build_set(db, "packing", PARAMS, 3, 10).stored == 0  # nothing left to do
        grown = build_set(db, "packing", PARAMS, 3, 12)
        assert grown.stored == 2 and keys(db)[:10] == whole


def test_difficulty_filters(tmp_path: Path) -> None:
    with PuzzleStore(tmp_path / "s.db") as db:
        build_set(db, "packing", PARAMS, 1, 5, min_difficulty=2.0, max_difficulty=4.0)
        assert db.count() == 5
        assert all(2.0 <= d <= 4.0 for d in db.difficulties())


def test_files_that_are_not_stores(tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_text("hello, this is not SQLite at all" * 10)
    with pytest.raises(FormatError, match="not a puzzle store"):
        PuzzleStore(text)
    other = tmp_path / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    with pytest.raises(FormatError, match="not a polytile puzzle store"):
        PuzzleStore(other)
    with pytest.raises(FormatError, match="directory"):
        PuzzleStore(tmp_path)
    with pytest.raises(PolytileError, match="no directory"):
        PuzzleStore(tmp_path / "missing" / "x.db")


def test_tampered_puzzles_fail_verification(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with PuzzleStore(path) as db:
        build_set(db, "packing", PARAMS, 2, 3)
    con = sqlite3.connect(path)
    con.execute("UPDATE puzzles SET key='0' WHERE id=1")
    # Puzzle 2's stored solution loses a piece.
    sol = json.loads(con.execute("SELECT solution FROM puzzles WHERE id=2").fetchone()[0])
    sol["placements"].pop()
    con.execute("UPDATE puzzles SET solution=? WHERE id=2", (json.dumps(sol),))
    con.commit()
    con.close()
    with PuzzleStore(path) as db:
        problems = dict(verify_store(db))
    assert any("key" in r for r in problems[1])
    assert any("not placed" in r for r in problems[2])
    assert problems[3] == []


def test_dask_cluster_builds_the_same_set(tmp_path: Path) -> None:
    distributed = pytest.importorskip("dask.distributed")
    from polytile.solvers.parallel import DaskExecutor

    with PuzzleStore(tmp_path / "serial.db") as db:
        build_set(db, "packing", PARAMS, 6, 6)
        serial = keys(db)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        DaskExecutor(cluster.scheduler_address) as ex,
        PuzzleStore(tmp_path / "dask.db") as db,
    ):
        report = build_set(db, "packing", PARAMS, 6, 6, ex)
        assert report.stored == 6 and keys(db) == serial


def test_a_full_job_takes_no_more_puzzles(tmp_path: Path) -> None:
    with PuzzleStore(tmp_path / "s.db") as db, PuzzleStore(tmp_path / "s.db") as other:
        build_set(db, "packing", PARAMS, 8, 2)
        job = other.job("packing", PARAMS.to_dict(), 8, 2)
        late = next(
            c
            for c in (make_candidate("packing", PARAMS, 8, i) for i in range(job.next_index, 99))
            if c.accepted
        )
        assert not other.record(job, late) and other.get_job(job.id).done == 2
        assert build_set(other, "packing", PARAMS, 8, 2).stored == 0


def _hold_lock(path: Path) -> sqlite3.Connection:
    """Another connection holding the store's write lock, as another process would."""
    con = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    con.execute("BEGIN IMMEDIATE")
    return con


def test_a_locked_store_says_so_then_gives_up_keeping_what_is_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "LOCK_NOTICE", 0.05)
    path = tmp_path / "s.db"
    with PuzzleStore(path) as db:
        build_set(db, "packing", PARAMS, 2, 2)
    holder = _hold_lock(path)
    said: list[str] = []
    with (
        PuzzleStore(path, on_wait=said.append, lock_timeout=0.3) as db,
        pytest.raises(StoreLockedError, match=str(path)),
    ):
        db.job("packing", {}, 1, 1)
    assert len(said) == 1 and "waiting for the puzzle store" in said[0] and str(path) in said[0]
    with PuzzleStore(path, create=False, on_wait=said.append, lock_timeout=0.3) as reader:
        assert reader.count() == 2  # readers never wait for the lock
    assert len(said) == 1
    holder.execute("ROLLBACK")
    holder.close()
    with PuzzleStore(path) as db:
        assert db.count() == 2


def test_a_lock_released_while_waiting_lets_the_write_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store, "LOCK_NOTICE", 0.05)
    path = tmp_path / "s.db"
    PuzzleStore(path).close()
    holder = _hold_lock(path)
    release = threading.Timer(0.3, lambda: holder.execute("COMMIT"))
    release.start()
    said: list[str] = []
    with PuzzleStore(path, on_wait=said.append, lock_timeout=10) as db:
        assert db.job("packing", PARAMS.to_dict(), 1, 3).target == 3
    release.join()
    holder.close()
    assert len(said) == 1
