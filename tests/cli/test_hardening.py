"""Hostile runs of the commands that start workers: the parent killed with SIGKILL, Ctrl-C
twice in quick succession. Each test runs ``polytile`` as a real process, as a user's shell or
a supervisor would."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}
GENERATE = ("generate", "packing", "-n", "1000", "--size", "8-10", "--seed", "3")


def _polytile(*args: str) -> list[str]:
    return [sys.executable, "-m", "polytile", *args]


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    kids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces, so split after its ')'
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            kids.append(int(entry.name))
    return kids


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _stored(db: Path) -> int:
    try:
        con = sqlite3.connect(db, timeout=1)
        try:
            return int(con.execute("SELECT COUNT(*) FROM puzzles").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def _start_generate(db: Path, workers: str) -> subprocess.Popen[bytes]:
    """A long ``generate`` run, returned once it has stored a puzzle (so work is under way)."""
    proc = subprocess.Popen(
        _polytile(*GENERATE, "--workers", workers, "--db", str(db)),
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None and _stored(db) < 1:
        time.sleep(0.1)
    assert proc.poll() is None, "generate ended before it could be interrupted"
    return proc


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_workers_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    """kill -9 of the main process (as an OOM killer or a supervisor does) takes its worker
    processes with it, even though generate catches SIGTERM for a graceful stop."""
    proc = _start_generate(tmp_path / "s.db", "2")
    workers = _children(proc.pid)
    assert len(workers) >= 2, "expected the worker processes to be running"
    proc.kill()
    proc.communicate(timeout=30)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.1)
    left = [w for w in workers if _alive(w)]
    for w in left:  # do not leave them behind if the test fails
        os.kill(w, signal.SIGKILL)
    assert not left, f"workers {left} outlived their parent"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_second_ctrl_c_stops_at_once_and_keeps_the_store(tmp_path: Path, workers: str) -> None:
    """Ctrl-C asks generate to stop after the current candidate; a second one 0.3 s later
    stops it now: no traceback, an interrupted exit status, and the store still opens whole."""
    db = tmp_path / "s.db"
    proc = _start_generate(db, workers)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.3)
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("generate did not stop within 30 s of a second Ctrl-C")
    text = err.decode()
    assert "Traceback" not in text, text
    # 1: stopped before the target; 130 or death by SIGINT: the second Ctrl-C landed after
    # the report, as a shell's Ctrl-C ends any program
    assert proc.returncode in (1, 130, -signal.SIGINT), text
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    assert _stored(db) >= 1
