"""``polytile generate``, ``polytile puzzles`` and ``polytile validate STORE``."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from polytile.store import db as store

from .helpers import Invoke, assert_clean_failure

SMALL = ("--size", "6-8")


def test_generate_then_list_show_export_validate(invoke: Invoke, tmp_path: Path) -> None:
    db = str(tmp_path / "p.db")
    result = invoke("generate", "packing", "-n", "6", "--db", db, "--workers", "1", *SMALL)
    assert result.exit_code == 0, result.stderr
    assert "6 new puzzle(s)" in result.stdout and "difficulty" in result.stdout
    again = invoke("generate", "packing", "-n", "6", "--db", db, *SMALL, "--json")
    doc = json.loads(again.stdout)
    assert doc["stored"] == 0 and doc["total"] == 6 and doc["target"] == 6

    rows = json.loads(invoke("puzzles", "list", "--db", db, "--json").stdout)
    assert [r["id"] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert all(6 <= r["pieces"] <= 8 for r in rows)
    table = invoke("puzzles", "list", "--db", db)
    assert "difficulty" in table.stdout and len(table.stdout.splitlines()) == 7

    shown = invoke("puzzles", "show", "2", "--db", db, "--solution", "--no-color")
    assert shown.exit_code == 0 and "place:" in shown.stdout and "solution:" in shown.stdout
    as_doc = json.loads(invoke("puzzles", "show", "2", "--db", db, "--json").stdout)
    assert as_doc["puzzle"]["format"] == "polytile/puzzle@1"

    out = tmp_path / "set.jsonl"
    assert invoke("puzzles", "export", "--db", db, "-o", str(out)).exit_code == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 6 and all("solution" in x and "puzzle" in x for x in lines)
    sheet = tmp_path / "sheet.svg"
    assert invoke("puzzles", "export", "--db", db, "-o", str(sheet)).exit_code == 0
    assert sheet.read_text().count("<svg") == 7
    assert (tmp_path / "sheet-solutions.svg").read_text().count("<svg") == 7

    checked = invoke("validate", db, "--json")
    assert checked.exit_code == 0 and json.loads(checked.stdout)["puzzles"] == 6


def test_packing_from_your_own_pieces_file(invoke: Invoke, tmp_path: Path) -> None:
    """--pieces FILE.json: the pieces of a puzzle file's list, stored with the job, so the
    set validates without the file (carrying on reads it again)."""
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps({"pieces": [
        {"name": "A", "shape": ["##", "#."], "count": 3},
        {"name": "B", "shape": ["###", ".#."], "count": "*"}, "I3", "L4", "O4"]}))  # fmt: skip
    db = str(tmp_path / "p.db")
    args = ("generate", "packing", "-n", "3", "--db", db, "--workers", "1", "--size", "5-6")
    made = invoke(*args, "--pieces", str(mine))
    assert made.exit_code == 0, made.stderr
    rows = json.loads(invoke("puzzles", "list", "--db", db, "--json").stdout)
    assert len(rows) == 3
    for row in rows:
        doc = json.loads(invoke("puzzles", "show", str(row["id"]), "--db", db, "--json").stdout)
        names = {p if isinstance(p, str) else p["name"] for p in doc["puzzle"]["pieces"]}
        assert names <= {"A", "B", "I3", "L4", "O4"}, names
    # the job is known by its pieces, not by the path's spelling: the same set resumes
    again = invoke("generate", "packing", "-n", "3", "--db", db, "--workers", "1", "--size",
                   "5-6", "--pieces", str(tmp_path / "." / "mine.json"), "--json")  # fmt: skip
    assert json.loads(again.stdout)["stored"] == 0 and json.loads(again.stdout)["total"] == 3
    mine.unlink()  # the job holds the pieces: the set still checks
    assert invoke("validate", db, "--json").exit_code == 0
    assert invoke("generate", "packing", "-n", "4", "--db", db, "--workers", "1",
                  "--size", "5-6", "--pieces", str(tmp_path / "mine.json")).exit_code == 2


@pytest.mark.parametrize(
    ("text", "says"),
    [(None, "No such file"), ('{"pieces": [{"name": "Q"}]}', "pieces[0]"),
     ('{"board": []}', "pieces"), ("[1, 2", "JSON"),
     ('{"one_sided": true, "pieces": ["L4", "T4"]}', "one_sided")],
)  # fmt: skip
def test_a_bad_pieces_file_is_named(invoke: Invoke, tmp_path: Path, text: str | None,
                                    says: str) -> None:  # fmt: skip
    path = tmp_path / "bad.json"
    if text is not None:
        path.write_text(text)
    result = invoke("generate", "packing", "-n", "1", "--db", str(tmp_path / "p.db"),
                    "--pieces", str(path))  # fmt: skip
    assert_clean_failure(result, 2)
    assert says in result.stderr and "bad.json" in result.stderr
    assert not (tmp_path / "p.db").exists()


def test_validate_store_reports_a_broken_puzzle(invoke: Invoke, tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    invoke("generate", "packing", "-n", "2", "--db", str(db), "--workers", "1", *SMALL)
    con = sqlite3.connect(db)
    con.execute("UPDATE puzzles SET key='x' WHERE id=2")
    con.commit()
    con.close()
    result = invoke("validate", str(db))
    assert result.exit_code == 1 and "puzzle 2" in result.stdout


def test_bad_input_exits_2(invoke: Invoke, tmp_path: Path) -> None:
    db = str(tmp_path / "p.db")
    assert_clean_failure(invoke("generate", "sudoku", "-n", "1", "--db", db))
    ended = invoke("generate", "blokus-endgame", "-n", "1", "--db", db)
    assert_clean_failure(ended)
    assert "not built" in ended.stderr
    assert_clean_failure(invoke("generate", "packing", "-n", "1", "--db", db, "--size", "x"))
    assert_clean_failure(invoke("generate", "packing", "-n", "1", "--db", db, "--size", "9-3"))
    empty = invoke("generate", "henning", "-n", "1", "--db", db, "--size", "")  # not the default
    assert_clean_failure(empty)
    assert "'' is not N or MIN-MAX" in empty.stderr
    assert_clean_failure(invoke("generate", "packing", "-n", "1", "--db", str(tmp_path)))
    not_db = tmp_path / "notes.txt"
    not_db.write_text("not a database, just words " * 20)
    assert_clean_failure(invoke("generate", "packing", "-n", "1", "--db", str(not_db)))
    assert not_db.read_text().startswith("not a database")  # nothing overwritten
    assert_clean_failure(invoke("puzzles", "list", "--db", str(tmp_path / "none.db")))
    invoke("generate", "packing", "-n", "1", "--db", db, *SMALL, "--workers", "1")
    assert_clean_failure(invoke("puzzles", "show", "5", "--db", db))
    assert_clean_failure(invoke("puzzles", "export", "--db", db, "-o", str(tmp_path / "x.pdf")))


def test_catalogue_is_still_the_bare_command(invoke: Invoke) -> None:
    result = invoke("puzzles")
    assert result.exit_code == 0 and "pentomino-6x10" in result.stdout
    assert json.loads(invoke("puzzles", "--json").stdout)[0]["name"] == "pentomino-6x10"


def _polytile(*args: str) -> list[str]:
    return [sys.executable, "-m", "polytile", *args]


def test_kill_9_then_restart_gives_exactly_the_set(tmp_path: Path) -> None:
    """A run killed mid-way and started again ends with exactly N distinct verified puzzles,
    the same N an uninterrupted run makes."""
    n = "40"
    args = ("generate", "packing", "-n", n, "--workers", "1", "--seed", "5", *SMALL)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    killed = tmp_path / "killed.db"
    proc = subprocess.Popen(
        _polytile(*args, "--db", str(killed)),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 900  # waits for an event (3 stored); a busy machine that
    stored = 0  # compiles numba's kernels first may take minutes to get there
    while time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
        try:
            con = sqlite3.connect(killed, timeout=1)
            stored = con.execute("SELECT COUNT(*) FROM puzzles").fetchone()[0]
            con.close()
        except sqlite3.Error:
            continue
        if stored >= 3:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert 0 < stored < int(n), "the run should be killed part-way"
    done = subprocess.run(
        _polytile(*args, "--db", str(killed), "--json"),
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    whole = tmp_path / "whole.db"
    subprocess.run(
        _polytile(*args, "--db", str(whole)), env=env, capture_output=True, timeout=900, check=True
    )

    def keys(path: Path) -> list[str]:
        con = sqlite3.connect(path)
        rows = [r[0] for r in con.execute("SELECT key FROM puzzles ORDER BY candidate")]
        con.close()
        return rows

    assert len(keys(killed)) == int(n) == len(set(keys(killed)))
    assert keys(killed) == keys(whole)
    check = subprocess.run(
        _polytile("validate", str(killed)), env=env, capture_output=True, text=True, timeout=300
    )
    assert check.returncode == 0, check.stdout


def test_blokus_teasers_generate_show_and_validate(invoke: Invoke, tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    result = invoke(
        "generate", "blokus-teaser", "-n", "2", "--db", db, "--workers", "1", "--size", "2"
    )
    assert result.exit_code == 0, result.stderr
    shown = invoke("puzzles", "show", "1", "--db", db, "--solution", "--no-color")
    assert "4 colours x" in shown.stdout and "touch local" in shown.stdout
    doc = json.loads(invoke("puzzles", "show", "1", "--db", db, "--json").stdout)
    assert doc["puzzle"]["format"] == "polytile/teaser@1" and doc["kind"] == "blokus-teaser"
    assert invoke("validate", db).exit_code == 0
    bad = invoke("generate", "blokus-teaser", "-n", "1", "--db", db, "--colors", "9")
    assert_clean_failure(bad)


def test_stores_are_protected_and_damage_is_named(invoke: Invoke, tmp_path: Path) -> None:
    db = tmp_path / "p.db"
    invoke("generate", "packing", "-n", "2", "--db", str(db), "--workers", "1", *SMALL)
    before = db.read_bytes()
    clash = invoke("puzzles", "export", "--db", str(db), "-o", str(db))
    assert_clean_failure(clash)
    assert "overwrite" in clash.stderr and db.read_bytes() == before
    missing = invoke("puzzles", "export", "--db", str(db), "-o", str(tmp_path / "no" / "x.svg"))
    assert_clean_failure(missing)
    assert "x.svg" in missing.stderr and ".tmp" not in missing.stderr
    wrong = invoke("generate", "packing", "-n", "1", "--db", str(db), "--touch", "none")
    assert_clean_failure(wrong)
    assert "--touch" in wrong.stderr
    con = sqlite3.connect(db)
    con.execute("UPDATE puzzles SET puzzle='{not json' WHERE id=2")
    con.commit()
    con.close()
    damaged = invoke("puzzles", "list", "--db", str(db))
    assert_clean_failure(damaged)
    assert "puzzle 2" in damaged.stderr


def test_a_stored_puzzle_solves_counts_and_validates(invoke: Invoke, tmp_path: Path) -> None:
    db = str(tmp_path / "p.db")
    invoke("generate", "packing", "-n", "3", "--db", db, "--workers", "1", *SMALL)
    for pid in ("1", "2", "3"):
        path = tmp_path / f"p{pid}.json"
        path.write_text(invoke("puzzles", "show", pid, "--db", db, "--file").stdout)
        counted = json.loads(invoke("count", str(path), "--json").stdout)
        assert counted["count_up_to_symmetry"] == 1
        solved = tmp_path / f"s{pid}.json"
        solved.write_text(invoke("solve", str(path), "--json").stdout)
        assert invoke("validate", str(solved), "--puzzle", str(path)).exit_code == 0


def test_reading_commands_never_create_a_store(invoke: Invoke, tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    assert_clean_failure(invoke("puzzles", "list", "--db", str(empty)))
    assert empty.read_bytes() == b""
    db = str(tmp_path / "p.db")
    invoke("generate", "packing", "-n", "1", "--db", db, "--workers", "1", *SMALL)
    listed = invoke("puzzles", "list", "--db", db, "--kind", "sudoku")
    assert listed.exit_code == 0 and "no puzzle of kind 'sudoku'" in listed.stderr


def test_a_locked_store_is_waited_for_aloud_then_exits_2(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.db"
    invoke("generate", "packing", "-n", "1", "--db", str(db), "--workers", "1", *SMALL)
    monkeypatch.setattr(store, "LOCK_NOTICE", 0.05)
    monkeypatch.setattr(store, "LOCK_TIMEOUT", 0.3)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # as another process writing would
    try:
        locked = invoke("generate", "packing", "-n", "2", "--db", str(db), "--workers", "1")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert_clean_failure(locked)
    assert f"waiting for the puzzle store {db}" in locked.stderr
    assert "gave up" in locked.stderr and str(db) in locked.stderr.splitlines()[-1]
    assert json.loads(invoke("puzzles", "list", "--db", str(db), "--json").stdout)[0]["id"] == 1


def test_henning_generate_list_show_export_validate(invoke: Invoke, tmp_path: Path) -> None:
    db = str(tmp_path / "h.db")
    args = ("generate", "henning", "-n", "2", "--db", db, "--workers", "1", "--size", "2")
    made = invoke(*args, "--json")
    assert made.exit_code == 0, made.stderr
    report = json.loads(made.stdout)
    assert report["stored"] == 2 and report["kind"] == "henning"
    assert report["dropped"].get("several moves are best", 0) >= 0
    assert json.loads(invoke(*args, "--json").stdout)["stored"] == 0  # resumed: nothing to do

    rows = json.loads(invoke("puzzles", "list", "--db", db, "--json").stdout)
    assert [r["kind"] for r in rows] == ["henning", "henning"]
    assert all(r["cells"] == 2 and r["question"].startswith(("only-win", "best-by-")) for r in rows)
    assert "henning" in invoke("puzzles", "list", "--db", db).stdout

    shown = invoke("puzzles", "show", "1", "--db", db, "--no-color")
    assert shown.exit_code == 0 and "to move:" in shown.stdout and "hands:" in shown.stdout
    assert "answer:" not in shown.stdout  # only when asked
    solved = invoke("puzzles", "show", "1", "--db", db, "--no-color", "--solution")
    assert "answer:" in solved.stdout and "line:" in solved.stdout
    doc = json.loads(invoke("puzzles", "show", "1", "--db", db, "--json", "--solution").stdout)
    assert doc["puzzle"]["format"] == "polytile/henning-puzzle@1"
    assert doc["solution"]["answer"] == doc["solution"]["line"][0]
    position = json.loads(invoke("puzzles", "show", "1", "--db", db, "--file").stdout)
    assert position["format"] == "polytile/henning@1" and position["kind"] == "position"
    assert position["reserves"] == {"blue": [], "red": []}

    out = tmp_path / "set.jsonl"
    assert invoke("puzzles", "export", "--db", db, "-o", str(out)).exit_code == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 2 and all(x["solution"]["gap"] >= 1 for x in lines)
    sheet = invoke("puzzles", "export", "--db", db, "-o", str(tmp_path / "s.svg"))
    assert_clean_failure(sheet)
    assert ".jsonl" in sheet.stderr and not (tmp_path / "s.svg").exists()
    assert invoke("validate", db).exit_code == 0


def test_henning_bad_options_exit_2(invoke: Invoke, tmp_path: Path) -> None:
    db = str(tmp_path / "h.db")
    for extra, named in [
        (("--colors", "3"), "--colors"),
        (("--region", "rectangle", "--pieces", "tetrominoes"), "--pieces, --region"),
    ]:
        wrong = invoke("generate", "henning", "-n", "1", "--db", db, *extra)
        assert_clean_failure(wrong)
        assert f"{named} do(es) not apply to kind henning" in wrong.stderr
    too_many = invoke("generate", "henning", "-n", "1", "--db", db, "--size", "2-9")
    assert_clean_failure(too_many)
    assert "empty blocks" in too_many.stderr
    packing = invoke("generate", "packing", "-n", "1", "--db", db, "--question", "only-win")
    assert_clean_failure(packing)
    assert "--question" in packing.stderr
    assert not (tmp_path / "h.db").exists()  # refused before any store is made


def test_max_given_above_the_smallest_size_names_the_option(invoke: Invoke, tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    default = invoke("generate", "packing", "-n", "1", "--db", db, "--size", "2-3")
    assert_clean_failure(default)
    assert "--max-given: 2 (the default)" in default.stderr
    assert "pass --max-given 1" in default.stderr
    given = invoke("generate", "packing", "-n", "1", "--db", db, "--size", "3",
                   "--max-given", "5")  # fmt: skip
    assert_clean_failure(given)
    assert "--max-given: 5 is too many" in given.stderr and "(the default)" not in given.stderr
    assert not (tmp_path / "g.db").exists()
